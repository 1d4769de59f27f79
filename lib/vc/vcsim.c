/* vcsim — virtual-cluster sharing simulator (see vcsim.h for the model).
 *
 * Tuned for a month of a large cluster: about a million jobs, a hundred VCs,
 * tens of thousands of servers.  State is O(VCs) plus the jobs between the
 * oldest unfinished one and the last read (see vcsim.h).  Per decision point
 * the cost is O(VCs) for accounting and allocation plus O(active jobs) of the
 * VCs whose allocation changed; job progress is brought up to date lazily,
 * only when its VC is touched, which is exact because rates are constant
 * between a VC's reallocations. */
#include "vc/vcsim.h"
#include "base/diag.h"
#include "base/heap.h"
#include "base/stats.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct vcstate {
    double cap;       /* c_i */
    double a;         /* current allocation */
    double anew;      /* allocation being decided */
    double d;         /* demand: sum of capped p_j of active jobs */
    double credit;    /* server-seconds */
    double next_done; /* time of the next completion, INFINITY when none */
    double t_jobs;    /* time up to which the jobs' remaining work is current */
    uint32_t *act;    /* active jobs: FAIR sorted by (p, index), FIFO in arrival order */
    size_t n, capn;
    int dirty;        /* jobs arrived or finished since the last decision */
};

/* A job read and not yet retired, with its simulation state. */
struct rjob {
    struct vcsim_job j;
    double rem, rate, p; /* remaining work, current rate, capped max_parallelism */
};

struct sim {
    const struct vcsim_config *cfg;
    const struct vcsim_feed *feed;
    struct rjob *ring; /* jobs head..tail-1 (input sequence numbers) at seq & mask */
    uint32_t mask, head, tail;
    heap pend;         /* (submit, seq) of the jobs read and not yet arrived */
    int eof;           /* the feed has ended */
    double last_arrival, max_submit;
    double w0, wlen;   /* the accounting window; wlen INFINITY until known */
    size_t nvc;
    struct vcstate *vc;
    struct vcsim_vc_stats *st;
    struct vcsim_totals tot;
    double M;          /* total servers */
    uint32_t *over;    /* scratch: over-demanding VCs */
    double *key;       /* scratch: sort keys of `over` */
    double *lo, *hi;   /* scratch: capacities and demands of a group of `over` */
    heap ev;           /* (next completion time, vc) */
    int contended;     /* sum d > M during the current interval */
    double lent_used;  /* fraction of idle owned servers used by other VCs */
    size_t nactive;
    uint64_t arrived;
};

#define JOB(s, seq) (&(s)->ring[(seq) & (s)->mask])

const char *vcsim_policy_name(enum vcsim_policy p)
{
    switch (p) {
    case VCSIM_MAXMIN: return "maxmin";
    case VCSIM_DRR: return "drr";
    case VCSIM_BALANCED: return "balanced";
    }
    return "?";
}

int vcsim_policy_parse(const char *s, enum vcsim_policy *out)
{
    static const enum vcsim_policy all[] = {VCSIM_MAXMIN, VCSIM_DRR, VCSIM_BALANCED};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(s, vcsim_policy_name(all[i])) == 0) {
            *out = all[i];
            return 0;
        }
    return -1;
}

double vcsim_waterfill(const double *cap_sorted, size_t n, double amount)
{
    double left = amount;
    for (size_t i = 0; i < n; i++) {
        double share = left / (double)(n - i);
        if (cap_sorted[i] > share)
            return share;
        left -= cap_sorted[i];
    }
    return n ? cap_sorted[n - 1] : 0;
}

/* Sort idx[0..n) by key ascending, ties by idx: insertion sort, since the
 * number of over-demanding VCs at one instant is small; n log n beyond 32. */
static int cmp_key(const void *x, const void *y, void *ctx)
{
    const double *key = ctx;
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    if (key[a] != key[b])
        return key[a] < key[b] ? -1 : 1;
    return (a > b) - (a < b);
}
static void sort_by_key(uint32_t *idx, size_t n, const double *key)
{
    if (n > 32) {
        qsort_r(idx, n, sizeof *idx, cmp_key, (void *)key);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        uint32_t v = idx[i];
        size_t j = i;
        while (j > 0 && (key[idx[j - 1]] > key[v] || (key[idx[j - 1]] == key[v] && idx[j - 1] > v))) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = v;
    }
}

/* Bring VC k's jobs' remaining work up to time t at their current rates. */
static void vc_advance(struct sim *s, size_t k, double t)
{
    struct vcstate *v = &s->vc[k];
    double dt = t - v->t_jobs;
    if (dt > 0) {
        for (size_t i = 0; i < v->n; i++) {
            struct rjob *r = JOB(s, v->act[i]);
            double w = r->rate * dt;
            r->rem -= w;
            s->tot.work_done += w;
        }
    }
    v->t_jobs = t;
}

/* A job is finished at t when what is left is below rounding: 1e-9 of its
 * size, or less time than the clock can resolve at t (8 ulps of t, no
 * absolute term: an 8 * DBL_EPSILON * (|t| + 1) floor finished any job
 * within 1.8e-15 s of done, so near t = 0 tiny jobs ended at another's
 * event; stretch(1) refuses jobs too short for the clock at their submit). */
static int job_done(const struct rjob *j, double t)
{
    double r = j->rem;
    return r <= 1e-9 * j->j.work || r <= j->rate * 8 * DBL_EPSILON * fabs(t);
}

static void job_finish(struct sim *s, struct rjob *j, double t)
{
    j->j.finish = t;
    s->tot.work_rounding += j->rem;
    j->rem = 0;
    j->rate = 0;
    s->nactive--;
}

/* Remove VC k's finished jobs (its work is current at t).  If none finished
 * although this was its completion event, finish the one closest to done:
 * its remaining time is below what the clock resolves. */
static void vc_remove_finished(struct sim *s, size_t k, double t, int force)
{
    struct vcstate *v = &s->vc[k];
    size_t out = 0, best = SIZE_MAX;
    double best_time = INFINITY;
    for (size_t i = 0; i < v->n; i++) {
        const struct rjob *j = JOB(s, v->act[i]);
        if (j->rate > 0 && j->rem / j->rate < best_time) {
            best_time = j->rem / j->rate;
            best = i;
        }
    }
    for (size_t i = 0; i < v->n; i++) {
        struct rjob *j = JOB(s, v->act[i]);
        if (job_done(j, t)) {
            job_finish(s, j, t);
            continue;
        }
        v->act[out++] = v->act[i];
    }
    if (force && out == v->n && best != SIZE_MAX && t + best_time <= t) {
        job_finish(s, JOB(s, v->act[best]), t);
        memmove(v->act + best, v->act + best + 1, (v->n - best - 1) * sizeof *v->act);
        out--;
    }
    if (out != v->n)
        v->dirty = 1;
    v->n = out;
}

static void vc_insert(struct sim *s, size_t k, uint32_t j)
{
    struct vcstate *v = &s->vc[k];
    v->act = xgrow(v->act, &v->capn, v->n + 1, sizeof *v->act);
    size_t pos = v->n;
    if (s->cfg->within == VCSIM_FAIR) {
        /* keep sorted by (p, index) so water-filling is one pass */
        size_t lo = 0, hi = v->n;
        double pj = JOB(s, j)->p;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            uint32_t m = v->act[mid];
            double pm = JOB(s, m)->p;
            if (pm < pj || (pm == pj && m < j))
                lo = mid + 1;
            else
                hi = mid;
        }
        pos = lo;
        memmove(v->act + pos + 1, v->act + pos, (v->n - pos) * sizeof *v->act);
    }
    v->act[pos] = j;
    v->n++;
    JOB(s, j)->rem = JOB(s, j)->j.work;
    JOB(s, j)->rate = 0;
    s->nactive++;
    v->dirty = 1;
}

/* Share VC k's allocation among its jobs and schedule its next completion. */
static void vc_set_rates(struct sim *s, size_t k, double t)
{
    struct vcstate *v = &s->vc[k];
    double left = v->a;
    if (s->cfg->within == VCSIM_FAIR) {
        size_t i = 0;
        for (; i < v->n; i++) {
            struct rjob *j = JOB(s, v->act[i]);
            double share = left / (double)(v->n - i);
            if (j->p > share)
                break;
            j->rate = j->p;
            left -= j->p;
        }
        if (i < v->n) {
            double share = left / (double)(v->n - i);
            for (; i < v->n; i++)
                JOB(s, v->act[i])->rate = share;
        }
    } else {
        for (size_t i = 0; i < v->n; i++) {
            struct rjob *j = JOB(s, v->act[i]);
            double r = j->p < left ? j->p : left;
            if (r < 0)
                r = 0;
            j->rate = r;
            left -= r;
        }
    }
    s->tot.job_updates += v->n;
    s->tot.vc_updates++;
    double next = INFINITY;
    for (size_t i = 0; i < v->n; i++) {
        const struct rjob *j = JOB(s, v->act[i]);
        if (j->rate > 0) {
            double tf = t + j->rem / j->rate;
            if (tf < next)
                next = tf;
        }
    }
    if (next != v->next_done) {
        v->next_done = next;
        if (next < INFINITY)
            heap_push(&s->ev, next, k);
    }
}

/* Max-min fairness of total allocation among the over-demanding VCs
 * idx[0..n), each already holding its capacity c (its guaranteed share):
 * water-fill to the level x with
 *     sum_i (min(d_i, max(c_i, x)) - c_i) = *extra
 * (or every d_i when *extra covers all excess demand), so a VC below the
 * level is raised to it, a VC whose capacity is above it keeps its
 * capacity, and none gets more than its demand.  x is found exactly by a
 * sweep over the sorted capacities and demands, where the filled amount
 * is piecewise linear in x.  *extra is reduced by what was given. */
static void waterfill_total(struct sim *s, const uint32_t *idx, size_t n, double *extra)
{
    double excess = 0;
    for (size_t i = 0; i < n; i++) {
        s->lo[i] = s->vc[idx[i]].cap;
        s->hi[i] = s->vc[idx[i]].d;
        excess += s->hi[i] - s->lo[i];
    }
    double level = INFINITY;
    if (*extra < excess) {
        stats_sort(s->lo, n);
        stats_sort(s->hi, n);
        double x = s->lo[0], filled = 0;
        size_t i = 0, j = 0, slope = 0;
        level = s->hi[n - 1];
        while (i < n || j < n) {
            double next = i < n && (j >= n || s->lo[i] <= s->hi[j]) ? s->lo[i] : s->hi[j];
            double at = filled + (double)slope * (next - x);
            if (slope > 0 && at >= *extra) {
                level = x + (*extra - filled) / (double)slope;
                break;
            }
            filled = at;
            x = next;
            while (i < n && s->lo[i] == x)
                i++, slope++;
            while (j < n && s->hi[j] == x)
                j++, slope--;
        }
    }
    for (size_t i = 0; i < n; i++) {
        struct vcstate *v = &s->vc[idx[i]];
        double to = v->d < level ? v->d : level;
        double give = to > v->cap ? to - v->cap : 0;
        v->anew += give;
        *extra -= give;
    }
    if (*extra < 0)
        *extra = 0;
}

/* Decide every VC's allocation from demands (and credits): fills anew. */
static void allocate(struct sim *s)
{
    double extra = s->M, total_d = 0;
    size_t nover = 0;
    for (size_t k = 0; k < s->nvc; k++) {
        struct vcstate *v = &s->vc[k];
        double base = v->d < v->cap ? v->d : v->cap;
        v->anew = base;
        extra -= base;
        total_d += v->d;
        if (v->d > v->cap)
            s->over[nover++] = (uint32_t)k;
    }
    s->contended = total_d > s->M * (1 + 1e-12);
    s->lent_used = 0;
    if (nover == 0 || extra <= 0)
        return;
    if (s->cfg->policy == VCSIM_MAXMIN) {
        waterfill_total(s, s->over, nover, &extra);
    } else {
        /* highest credit per server first; VCs whose credits are equal (to
         * 1e-9 of the window, e.g. all at the floor) share max-min */
        for (size_t i = 0; i < nover; i++)
            s->key[s->over[i]] = -s->vc[s->over[i]].credit / s->vc[s->over[i]].cap;
        sort_by_key(s->over, nover, s->key);
        double tie = 1e-9 * s->cfg->credit_window;
        for (size_t i = 0; i < nover && extra > 0;) {
            size_t e = i + 1;
            while (e < nover && s->key[s->over[e]] - s->key[s->over[i]] <= tie)
                e++;
            waterfill_total(s, s->over + i, e - i, &extra);
            i = e;
        }
    }
    /* borrowers are served from the owners' idle servers first and from the
     * system servers last (those are kept for system jobs), every lender in
     * proportion to what it leaves idle: each is credited for the same
     * fraction u of its idle servers */
    double borrowed = 0, idle = 0;
    for (size_t k = 0; k < s->nvc; k++) {
        const struct vcstate *v = &s->vc[k];
        if (v->anew > v->cap)
            borrowed += v->anew - v->cap;
        else
            idle += v->cap - v->anew;
    }
    if (idle > 0 && borrowed > 0)
        s->lent_used = borrowed >= idle ? 1 : borrowed / idle;
}

static double overlap(double a, double b, double w0, double w1)
{
    double lo = a > w0 ? a : w0, hi = b < w1 ? b : w1;
    return hi > lo ? hi - lo : 0;
}

/* Account the interval [t0, t1] at the current allocations: integrals, and
 * credit for the history-based policies. */
static void account(struct sim *s, double t0, double t1)
{
    double dt = t1 - t0;
    if (dt <= 0)
        return;
    const struct vcsim_config *c = s->cfg;
    double ov = overlap(t0, t1, s->w0, s->w0 + s->wlen);
    if (s->contended)
        s->tot.contended += ov;
    for (size_t k = 0; k < s->nvc; k++) {
        struct vcstate *v = &s->vc[k];
        struct vcsim_vc_stats *st = &s->st[k];
        st->used += v->a * dt;
        st->used_window += v->a * ov;
        if (v->a > v->cap)
            st->borrowed += (v->a - v->cap) * dt;
        if (v->d > v->cap)
            st->overdemand += ov;
        if (c->policy != VCSIM_MAXMIN) {
            double rate = v->cap - v->a; /* DRR: lending earns, borrowing spends */
            if (c->policy == VCSIM_BALANCED) {
                if (rate > 0)
                    rate *= s->lent_used;   /* earn only for servers others used */
                else if (!s->contended)
                    rate = 0;               /* idle capacity is free when nobody waits */
            }
            double lim = v->cap * c->credit_window;
            double cr = v->credit + rate * dt;
            v->credit = cr > lim ? lim : cr < -lim ? -lim : cr;
        }
    }
}

/* Process the completion events at t. */
static void complete_at(struct sim *s, double t)
{
    const struct heap_item *top;
    while ((top = heap_peek(&s->ev)) && top->key == t) {
        struct heap_item it;
        heap_pop(&s->ev, &it);
        size_t k = it.val;
        if (it.key != s->vc[k].next_done)
            continue;
        s->tot.events++;
        vc_advance(s, k, t);
        s->vc[k].next_done = INFINITY;
        vc_remove_finished(s, k, t, 1);
        if (s->tot.end < t)
            s->tot.end = t;
        s->vc[k].dirty = 1;
    }
}

/* A decision at t: demands of the VCs whose jobs changed, allocations, and
 * new job rates where a VC's allocation or jobs changed. */
static void decide(struct sim *s, double t)
{
    for (size_t k = 0; k < s->nvc; k++) {
        struct vcstate *v = &s->vc[k];
        if (v->dirty) {
            double d = 0;
            for (size_t i = 0; i < v->n; i++)
                d += JOB(s, v->act[i])->p;
            v->d = d;
        }
    }
    allocate(s);
    s->tot.decisions++;
    for (size_t k = 0; k < s->nvc; k++) {
        struct vcstate *v = &s->vc[k];
        if (v->dirty || v->anew != v->a) {
            vc_advance(s, k, t);
            v->a = v->anew;
            v->dirty = 0;
            vc_set_rates(s, k, t);
        }
    }
}

#define DAY 86400.0

/* The input has ended: the window's start and length are known. */
static void end_window(struct sim *s)
{
    s->eof = 1;
    int any = s->tail != 0;
    if (isnan(s->w0))
        s->w0 = heap_size(&s->pend) ? heap_peek(&s->pend)->key : 0;
    if (!(s->cfg->window_len > 0)) {
        /* the window is half-open (vcrep_in_window): it must reach past
         * the last submit, so a span of whole days takes one more (ceil
         * left a job at 00:00:00 of the last day out) */
        double days = floor(((any ? s->max_submit : 0) - s->w0) / DAY) + 1;
        s->wlen = (days < 1 ? 1 : days) * DAY;
    }
}

static int job_ok(const struct vcsim_job *j, size_t nvc)
{
    return j->vc < nvc && isfinite(j->submit) && j->work > 0 && isfinite(j->work) && j->maxpar > 0;
}

/* Double the ring; a job keeps its sequence number. */
static void ring_grow(struct sim *s)
{
    uint32_t mask = s->mask * 2 + 1;
    struct rjob *ring = xcalloc((size_t)mask + 1, sizeof *ring);
    for (uint32_t q = s->head; q != s->tail; q++)
        ring[q & mask] = *JOB(s, q);
    free(s->ring);
    s->ring = ring;
    s->mask = mask;
}

/* Read jobs until reorder + 1 wait to arrive (or the input ends).  0, or
 * the feed's status, -1 for an invalid job, VCSIM_EORDER for a job
 * submitted before one that has already arrived. */
static int fill(struct sim *s)
{
    while (!s->eof && heap_size(&s->pend) <= s->cfg->reorder) {
        if (s->tail - s->head > s->mask)
            ring_grow(s);
        struct rjob *r = JOB(s, s->tail);
        *r = (struct rjob){.j.finish = NAN};
        int rc = s->feed->next(s->feed->ctx, &r->j);
        if (rc == 0) {
            end_window(s);
            break;
        }
        if (rc != 1)
            return rc;
        if (!job_ok(&r->j, s->nvc) || s->tail == UINT32_MAX)
            return -1;
        if (s->arrived && r->j.submit < s->last_arrival)
            return VCSIM_EORDER;
        r->j.finish = NAN;
        r->p = r->j.maxpar < s->M ? r->j.maxpar : s->M;
        if (s->tail == 0 || r->j.submit > s->max_submit)
            s->max_submit = r->j.submit;
        heap_push_seq(&s->pend, r->j.submit, s->tail, s->tail);
        s->tail++;
        if (s->tail - s->head > s->tot.held_max)
            s->tot.held_max = s->tail - s->head;
    }
    return 0;
}

/* Hand the finished jobs at the head of the input order to the caller. */
static int retire(struct sim *s, int all)
{
    while (s->head != s->tail) {
        struct rjob *r = JOB(s, s->head);
        if (!all && isnan(r->j.finish))
            break;
        int rc = s->feed->retire(s->feed->ctx, &r->j, s->w0, s->wlen);
        if (rc)
            return rc;
        s->head++;
    }
    return 0;
}

/* The next arrival: the job read first among those submitted first. */
static void arrive(struct sim *s, double t)
{
    struct heap_item it;
    heap_pop(&s->pend, &it);
    uint32_t j = (uint32_t)it.val;
    size_t k = JOB(s, j)->j.vc;
    if (!s->arrived++) {
        if (isnan(s->w0))
            s->w0 = t;
        s->tot.start = s->tot.end = t;
    }
    s->last_arrival = t;
    vc_advance(s, k, t);
    vc_insert(s, k, j);
    s->tot.events++;
    if (s->cfg->progress && (s->arrived & 4095) == 0)
        s->cfg->progress(s->arrived, 0);
}

/* Drop heap entries that a later reallocation superseded. */
static const struct heap_item *next_completion(struct sim *s)
{
    const struct heap_item *top;
    while ((top = heap_peek(&s->ev)) && top->key != s->vc[top->val].next_done) {
        struct heap_item junk;
        heap_pop(&s->ev, &junk);
    }
    return top;
}

/* The event loop: accounting up to the next event, completions, arrivals,
 * a decision, and the finished jobs retired in input order. */
static int run_events(struct sim *s)
{
    const struct vcsim_config *cfg = s->cfg;
    double t_prev = 0, next_tick = INFINITY;
    int history = cfg->policy != VCSIM_MAXMIN && cfg->quantum > 0, rc;
    for (;;) {
        if ((rc = fill(s)) != 0)
            return rc;
        const struct heap_item *top = next_completion(s), *pa = heap_peek(&s->pend);
        double t = pa ? pa->key : INFINITY;
        if (top && top->key < t)
            t = top->key;
        if (next_tick < t)
            t = next_tick;
        if (t == INFINITY)
            return retire(s, 1);
        if (s->arrived)
            account(s, t_prev, t);
        t_prev = t;

        /* completions first, so servers freed at t serve jobs arriving at t */
        complete_at(s, t);
        if ((rc = retire(s, 0)) != 0)
            return rc;
        if (next_tick == t)
            s->tot.events++;
        while ((pa = heap_peek(&s->pend)) && pa->key == t) {
            arrive(s, t);
            if ((rc = fill(s)) != 0)
                return rc;
        }
        decide(s, t);
        next_tick = INFINITY;
        if (history && s->nactive > 0) {
            double q = cfg->quantum, n = floor((t - s->tot.start) / q) + 1;
            next_tick = s->tot.start + n * q;
            if (next_tick <= t)
                next_tick = nextafter(t, INFINITY);
        }
    }
}

int vcsim_stream(const struct vcsim_config *cfg, size_t nvc, const double *capacity, const struct vcsim_feed *feed,
                 struct vcsim_vc_stats *vcstats, struct vcsim_totals *tot)
{
    if (!cfg || !feed || nvc == 0 || nvc > UINT32_MAX || !(cfg->system_servers >= 0) ||
        !isfinite(cfg->system_servers) || !(cfg->quantum >= 0) || !(cfg->credit_window > 0) ||
        !(cfg->window_len >= 0) || !isfinite(cfg->window_len) || isinf(cfg->window_start))
        return -1;
    struct sim s;
    memset(&s, 0, sizeof s);
    s.cfg = cfg;
    s.feed = feed;
    s.nvc = nvc;
    s.M = cfg->system_servers;
    for (size_t k = 0; k < nvc; k++) {
        if (!(capacity[k] > 0) || !isfinite(capacity[k]))
            return -1;
        s.M += capacity[k];
    }
    s.w0 = cfg->window_start;
    s.wlen = cfg->window_len > 0 ? cfg->window_len : INFINITY;
    s.mask = 1023;
    s.ring = xcalloc((size_t)s.mask + 1, sizeof *s.ring);
    heap_init(&s.pend);
    s.vc = xcalloc(nvc, sizeof *s.vc);
    s.st = vcstats ? vcstats : xcalloc(nvc, sizeof *s.st);
    memset(s.st, 0, nvc * sizeof *s.st);
    s.over = xcalloc(nvc, sizeof *s.over);
    s.key = xcalloc(nvc, sizeof *s.key);
    s.lo = xcalloc(nvc, sizeof *s.lo);
    s.hi = xcalloc(nvc, sizeof *s.hi);
    heap_init(&s.ev);
    for (size_t k = 0; k < nvc; k++) {
        s.vc[k].cap = capacity[k];
        s.vc[k].next_done = INFINITY;
    }

    int rc = run_events(&s);

    for (size_t k = 0; k < nvc; k++) {
        s.st[k].credit_end = s.vc[k].credit;
        free(s.vc[k].act);
    }
    s.tot.window_start = s.w0;
    s.tot.window_len = s.wlen;
    if (tot)
        *tot = s.tot;
    heap_free(&s.ev);
    heap_free(&s.pend);
    free(s.ring);
    free(s.key);
    free(s.lo);
    free(s.hi);
    free(s.over);
    if (!vcstats)
        free(s.st);
    free(s.vc);
    return rc;
}

/* vcsim_run's feed: the caller's array, in order; finish times written back. */
struct array_feed {
    struct vcsim_job *jobs;
    size_t n, next, done;
};

static int array_next(void *ctx, struct vcsim_job *job)
{
    struct array_feed *a = ctx;
    if (a->next == a->n)
        return 0;
    *job = a->jobs[a->next++];
    return 1;
}

static int array_retire(void *ctx, const struct vcsim_job *job, double w0, double h)
{
    struct array_feed *a = ctx;
    a->jobs[a->done++].finish = job->finish;
    return 0;
}

int vcsim_run(const struct vcsim_config *cfg, size_t nvc, const double *capacity, size_t njobs,
              struct vcsim_job *jobs, struct vcsim_vc_stats *vcstats, struct vcsim_totals *tot)
{
    if (!cfg || !(cfg->window_len > 0) || !isfinite(cfg->window_start) || njobs > UINT32_MAX - 1)
        return -1;
    for (size_t j = 0; j < njobs; j++)
        if (!job_ok(&jobs[j], nvc))
            return -1;
    struct array_feed a = {jobs, njobs, 0, 0};
    struct vcsim_feed feed = {&a, array_next, array_retire};
    struct vcsim_config c = *cfg;
    c.reorder = njobs;
    return vcsim_stream(&c, nvc, capacity, &feed, vcstats, tot) == 0 ? 0 : -1;
}
