/* lowcost — LowCost placement of one reservation request (see lowcost.h).
 *
 * Work per request: one pass over the window to build the job's view of the
 * cost (worst over its instances), then for each end point tried a greedy
 * over the stages driven by a min-heap of eligible steps.  Scratch arrays
 * live in a static workspace that grows to the largest window seen, so
 * placing 10,000 jobs allocates almost nothing.
 */
#include "morpheus/lowcost.h"
#include "base/diag.h"
#include "base/heap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The job's view of the window, offset o in [0, W) meaning step lo + o. */
struct view {
    long lo, W;
    double *um, *uc;        /* worst utilisation over instances (mem, cores) */
    double *im, *ic;        /* worst cost increment per container */
    int64_t *room;          /* free containers (min over instances) */
    int32_t *x;             /* trial: containers placed at o */
    int32_t *stg;           /* trial: stage at o */
    int32_t *bx, *bstg;     /* best trial */
    size_t cap;
};

static struct view V;

static void view_reserve(long W)
{
    if ((size_t)W <= V.cap)
        return;
    size_t n = (size_t)W;
    V.um = xreallocarray(V.um, n, sizeof(double));
    V.uc = xreallocarray(V.uc, n, sizeof(double));
    V.im = xreallocarray(V.im, n, sizeof(double));
    V.ic = xreallocarray(V.ic, n, sizeof(double));
    V.room = xreallocarray(V.room, n, sizeof(int64_t));
    V.x = xreallocarray(V.x, n, sizeof(int32_t));
    V.stg = xreallocarray(V.stg, n, sizeof(int32_t));
    V.bx = xreallocarray(V.bx, n, sizeof(int32_t));
    V.bstg = xreallocarray(V.bstg, n, sizeof(int32_t));
    V.cap = n;
}

static inline double over2(double c, double T)
{
    double d = c - T;
    return d > 0 ? d * d : 0;
}

static inline double vcost(long o, double x)
{
    double a = V.um[o] + x * V.im[o], b = V.uc[o] + x * V.ic[o];
    return a > b ? a : b;
}

/* once_base: where a PLAN_ONCE instance's period starts, in seconds from the
 * start of its cycle (0 for PERIODIC: instance 0 starts the cycle). */
static double once_base(const plan *p, enum plan_kind kind, int64_t instance, double period, int64_t cycle)
{
    return kind == PLAN_ONCE ? (double)instance * period - (double)cycle * (double)p->lcm : 0;
}

/* align_penalty: the alignment penalty of an allocation of steps [start, end)
 * (see lowcost.h); 0 unless problematic. */
static double align_penalty(const plan *p, const struct lowcost_opts *o, int problematic, double base, double a,
                            double d, long start, long end)
{
    double halfw = (d - a) / 2;
    if (!problematic || !(o->align_weight > 0) || !(halfw > 0))
        return 0;
    double mid = ((double)start + (double)end) / 2 * (double)p->step;
    return o->align_weight * fabs(mid - (base + (a + d) / 2)) / halfw;
}

int lowcost_window(const plan *p, const struct lowcost_req *q, long *lo, long *hi)
{
    double base = once_base(p, q->kind, q->instance, q->period, q->cycle);
    double st = (double)p->step;
    *lo = (long)ceil((base + q->a) / st - 1e-9);
    *hi = (long)floor((base + q->d) / st + 1e-9);
    if (*lo < 0)
        *lo = 0;
    return *hi > *lo ? 0 : -1;
}

static long instances(const plan *p, const struct lowcost_req *q, long *pp)
{
    if (q->kind == PLAN_ONCE) {
        *pp = 0;
        return 1;
    }
    *pp = (long)llround(q->period / (double)p->step);
    long n = *pp > 0 ? p->nsteps / *pp : 1;
    return n < 1 ? 1 : n;
}

static long lmod(long a, long m)
{
    long r = a % m;
    return r < 0 ? r + m : r;
}

static void build_view(const plan *p, const struct lowcost_req *q, long lo, long W, const double *pres)
{
    long pp, ni = instances(p, q, &pp);
    view_reserve(W);
    V.lo = lo;
    V.W = W;
    for (long o = 0; o < W; o++) {
        double um = 0, uc = 0, im = 0, ic = 0;
        int64_t room = INT64_MAX;
        for (long i = 0; i < ni; i++) {
            long s = lmod(lo + o + i * pp, p->nsteps);
            double cm = p->cap_mem[s], cc = p->cap_cores[s];
            double a = p->load_mem[s] > 0 ? (cm > 0 ? p->load_mem[s] / cm : INFINITY) : 0;
            double b = p->load_cores[s] > 0 ? (cc > 0 ? p->load_cores[s] / cc : INFINITY) : 0;
            if (pres) {
                a += pres[s];
                b += pres[s];
            }
            double ia = q->mem_mb > 0 ? (cm > 0 ? q->mem_mb / cm : INFINITY) : 0;
            double ib = q->cores > 0 ? (cc > 0 ? q->cores / cc : INFINITY) : 0;
            if (a > um) um = a;
            if (b > uc) uc = b;
            if (ia > im) im = ia;
            if (ib > ic) ic = ib;
            int64_t h = plan_headroom(p, s, q->cores, q->mem_mb);
            if (h < room)
                room = h;
        }
        V.um[o] = um;
        V.uc[o] = uc;
        V.im[o] = im;
        V.ic[o] = ic;
        V.room[o] = room;
    }
}

/* Per-stage figures derived from the request. */
struct stagefig {
    int64_t gangs;      /* whole gangs of the stage */
    int64_t perstep;    /* most gangs per step */
    long minlen;        /* steps needed at most parallelism */
    double dem;         /* containers (gangs * gang) */
};

static struct stagefig *SF;
static size_t SFcap;
static long *MINREST;
static size_t MRcap;

static void stage_figures(const struct lowcost_req *q, long *total_minlen)
{
    SF = xgrow(SF, &SFcap, (size_t)q->nstages, sizeof *SF);
    MINREST = xgrow(MINREST, &MRcap, (size_t)q->nstages + 1, sizeof *MINREST);
    long tot = 0;
    for (long k = 0; k < q->nstages; k++) {
        const struct lowcost_stage *s = &q->stage[k];
        int64_t g = s->gang;
        SF[k].gangs = (s->demand + g - 1) / g;
        SF[k].perstep = s->maxpar / g;
        if (SF[k].perstep < 1)
            SF[k].perstep = 1;
        SF[k].minlen = (long)((SF[k].gangs + SF[k].perstep - 1) / SF[k].perstep);
        SF[k].dem = (double)(SF[k].gangs * g);
        MINREST[k] = tot; /* steps the stages before k need at least */
        tot += SF[k].minlen;
    }
    MINREST[q->nstages] = tot;
    *total_minlen = tot;
}

/* request_window: clear res, then the window [*lo, *hi) and the steps the
 * request needs at full parallelism (*need; stage figures made).  Returns 1,
 * or 0 with res->why set when the window cannot hold the request. */
static int request_window(const plan *p, const struct lowcost_req *q, long *lo, long *hi, long *need,
                          struct lowcost_result *res)
{
    memset(res, 0, sizeof *res);
    if (lowcost_window(p, q, lo, hi) < 0) {
        snprintf(res->why, sizeof res->why, "window [%g, %g] s holds no whole %ld s step", q->a, q->d, p->step);
        return 0;
    }
    stage_figures(q, need);
    if (*lo + *need > *hi) {
        snprintf(res->why, sizeof res->why,
                 "window of %ld steps is shorter than the %ld steps the skyline needs at its maximum parallelism",
                 *hi - *lo, *need);
        return 0;
    }
    return 1;
}

/* res_of_request: r = a reservation of len steps from step start for q
 * (request fields copied; containers, gangs and stages left to fill). */
static void res_of_request(struct plan_res *r, const struct lowcost_req *q, long start, long len)
{
    plan_res_init(r, q->job, q->kind, len);
    r->instance = q->kind == PLAN_ONCE ? q->instance : 0;
    r->cycle = q->kind == PLAN_ONCE ? q->cycle : 0;
    r->period = q->period;
    r->a = q->a;
    r->d = q->d;
    r->cores = q->cores;
    r->mem_mb = q->mem_mb;
    r->problematic = q->problematic ? 1 : 0;
    r->start = start;
}

/* One trial: place all stages ending at step e-1 (absolute, e in (lo, hi]).
 * Returns 1 and sets *first (absolute first step) when every stage fits. */
static heap H;
static int trial(const struct lowcost_req *q, const struct lowcost_opts *opt, long e, long need, long *first,
                 char *why, size_t whylen)
{
    long lo = V.lo;
    long tr = e - 1 - lo; /* view offsets from here on */
    /* the stages share [base, e): the whole window before e, or at most
     * max_stretch times the steps the job needs at full parallelism */
    long base = 0;
    if (opt->max_stretch > 0) {
        double span = opt->max_stretch * (double)need;
        if ((double)(tr + 1) > span)
            base = tr + 1 - (long)ceil(span);
    }
    double remaining = 0;
    for (long k = 0; k < q->nstages; k++)
        remaining += SF[k].dem;
    long touched_lo = tr + 1;
    int ok = 1;
    for (long k = q->nstages - 1; k >= 0 && ok; k--) {
        long span = tr + 1 - base - MINREST[k]; /* steps stage k may use at most */
        if (span < SF[k].minlen) {
            snprintf(why, whylen, "window too short for stage %ld", k + 1);
            ok = 0;
            break;
        }
        long L = (long)llround((double)(tr + 1 - base) * SF[k].dem / remaining);
        if (L < SF[k].minlen)
            L = SF[k].minlen;
        if (L > span)
            L = span;
        long tl = tr - L + 1;
        int32_t g = q->stage[k].gang;
        int64_t left = SF[k].gangs;
        int64_t chunk = opt->chunks > 0 ? (left + opt->chunks - 1) / opt->chunks : 1;
        if (chunk < 1)
            chunk = 1;
        long tcur = tr + 1;
        H.n = 0;
        /* push step o with the amount a chunk would place there now */
#define PUSH(o_)                                                                                        \
    do {                                                                                                \
        long o2 = (o_);                                                                                 \
        int64_t a_ = chunk;                                                                             \
        if (a_ > left) a_ = left;                                                                       \
        int64_t ps_ = SF[k].perstep - V.x[o2] / g;                                                      \
        if (a_ > ps_) a_ = ps_;                                                                         \
        int64_t rm_ = (V.room[o2] - V.x[o2]) / g;                                                       \
        if (a_ > rm_) a_ = rm_;                                                                         \
        if (a_ > 0)                                                                                     \
            heap_push_seq(&H, vcost(o2, (double)V.x[o2] + (double)(a_ * g)), (uint64_t)(V.W - o2),      \
                          (uint64_t)o2);                                                                \
    } while (0)
        V.x[tr] = 0;
        PUSH(tr);
        while (left > 0) {
            struct heap_item it;
            if (!heap_pop(&H, &it)) {
                snprintf(why, whylen, "stage %ld: no free capacity for %lld more container(s)", k + 1,
                         (long long)(left * g));
                ok = 0;
                break;
            }
            long o = (long)it.val;
            int64_t a = chunk;
            if (a > left) a = left;
            int64_t ps = SF[k].perstep - V.x[o] / g;
            if (a > ps) a = ps;
            int64_t rm = (V.room[o] - V.x[o]) / g;
            if (a > rm) a = rm;
            if (a <= 0)
                continue;
            if (o < tcur) { /* the stage grows one step to the left */
                tcur = o;
                V.stg[o] = (int32_t)(k + 1);
                if (o - 1 >= tl) {
                    V.x[o - 1] = 0;
                    PUSH(o - 1);
                }
            }
            V.x[o] += (int32_t)(a * g);
            left -= a;
            if (left > 0)
                PUSH(o);
        }
#undef PUSH
        if (!ok)
            break;
        remaining -= SF[k].dem;
        touched_lo = tcur;
        tr = tcur - 1;
    }
    *first = touched_lo;
    return ok;
}

int lowcost_choose(const plan *p, const struct lowcost_req *q, const struct lowcost_opts *opt,
                   struct lowcost_result *res, struct plan_res *out)
{
    long lo, hi, need;
    if (!request_window(p, q, &lo, &hi, &need, res))
        return 0;
    long W = hi - lo;
    build_view(p, q, lo, W, opt->pressure);
    long emin = lo + need, ne = hi - emin + 1;
    long tries = opt->max_ends > 0 && ne > opt->max_ends ? opt->max_ends : ne;
    double best = INFINITY, best_sum = INFINITY, best_pen = 0;
    long best_first = -1, best_e = -1;
    char why[256] = "";
    double base = once_base(p, q->kind, q->instance, q->period, q->cycle);
    for (long ti = 0; ti < tries; ti++) {
        long e = tries == ne ? emin + ti
                             : emin + (long)llround((double)ti * (double)(ne - 1) / (double)(tries - 1));
        if (tries == 1)
            e = emin;
        long first;
        why[0] = 0;
        res->tried++;
        if (!trial(q, opt, e, need, &first, why, sizeof why)) {
            /* clean the trial's marks */
            for (long o = first; o < e - lo; o++)
                V.x[o] = 0;
            continue;
        }
        double peak = 0, sum = 0;
        for (long o = first; o < e - lo; o++) {
            double c = vcost(o, V.x[o]);
            if (opt->target > 0) {
                peak += over2(c, opt->target) - over2(vcost(o, 0), opt->target);
            } else if (c > peak)
                peak = c;
            sum += c * V.x[o];
        }
        double pen = align_penalty(p, opt, q->problematic, base, q->a, q->d, first + lo, e);
        double score = peak + pen;
        if (opt->target > 0) {
            if (pen > opt->max_penalty + 1e-12) {
                for (long o = first; o < e - lo; o++)
                    V.x[o] = 0;
                continue;
            }
            score = peak;
        }
        if (score < best - 1e-12 || (score <= best + 1e-12 && sum < best_sum - 1e-9)) {
            best = score;
            best_sum = sum;
            best_pen = pen;
            best_first = first;
            best_e = e;
            memcpy(V.bx + first, V.x + first, (size_t)(e - lo - first) * sizeof(int32_t));
            memcpy(V.bstg + first, V.stg + first, (size_t)(e - lo - first) * sizeof(int32_t));
        }
        for (long o = first; o < e - lo; o++)
            V.x[o] = 0;
    }
    if (best_first < 0) {
        snprintf(res->why, sizeof res->why, "no capacity: %.160s%s", why[0] ? why : "every end point failed",
                 tries < ne ? " (some end points not tried: --ends)" : "");
        return 0;
    }
    struct plan_res r;
    long len = best_e - lo - best_first;
    res_of_request(&r, q, lo + best_first, len);
    for (long j = 0; j < len; j++) {
        long o = best_first + j;
        r.containers[j] = V.bx[o];
        r.stage[j] = V.bstg[o];
        r.gang[j] = q->stage[V.bstg[o] - 1].gang;
    }
    long bad;
    if (!plan_fits(p, &r, &bad)) {
        /* only possible when a ONCE window is longer than the cycle and folds onto itself */
        snprintf(res->why, sizeof res->why, "no capacity at t %ld s once folded onto the cycle", bad * p->step);
        plan_res_free(&r);
        return 0;
    }
    res->placed = 1;
    res->start = r.start;
    res->len = len;
    res->penalty = best_pen;
    res->cost = best - best_pen;
    *out = r;
    return 1;
}

int lowcost_place(plan *p, const struct lowcost_req *q, const struct lowcost_opts *opt,
                  struct lowcost_result *res)
{
    struct plan_res r;
    if (!lowcost_choose(p, q, opt, res, &r))
        return 0;
    plan_add(p, &r);
    return 1;
}

/* res_costs: over the steps of reservation r (not in p's load) were it added
 * to p, with each step's cost the worst over r's instances: returns the sum
 * of cost x containers, puts the highest cost in *peak and, with T > 0, the
 * growth of the sum over slots of max(0, c(s) - T)^2 (each instance at its
 * own slot) in *ov (either pointer may be NULL). */
static double res_costs(const plan *p, const struct plan_res *r, double T, double *peak, double *ov)
{
    long ni = plan_ninst(p, r);
    double pk = 0, o = 0, s = 0;
    for (long j = 0; j < r->len; j++) {
        double c = 0;
        for (long i = 0; i < ni; i++) {
            long sl = plan_slot(p, r, i, j);
            double ci = plan_cost_add(p, sl, r->containers[j], r->cores, r->mem_mb);
            if (T > 0)
                o += over2(ci, T) - over2(plan_cost(p, sl), T);
            if (ci > c)
                c = ci;
        }
        if (c > pk)
            pk = c;
        s += c * r->containers[j];
    }
    if (peak)
        *peak = pk;
    if (ov)
        *ov = o;
    return s;
}

double lowcost_score(const plan *p, const struct plan_res *r, const struct lowcost_opts *opt, double *sum)
{
    double peak, s = res_costs(p, r, 0, &peak, NULL);
    if (sum)
        *sum = s;
    return peak + lowcost_penalty(p, r, opt);
}

double lowcost_penalty(const plan *p, const struct plan_res *r, const struct lowcost_opts *opt)
{
    return align_penalty(p, opt, r->problematic, once_base(p, r->kind, r->instance, r->period, r->cycle), r->a,
                         r->d, r->start, r->start + r->len);
}

/* improve_score: what an improve round compares for reservation r (not in
 * p's load): with o->target 0 the job's cost (lowcost_score), with a target
 * its overflow above it (res_costs); the tie-breaker, the sum of cost x
 * containers, in *sum. */
static double improve_score(const plan *p, const struct plan_res *r, const struct lowcost_opts *o, double *sum)
{
    if (!(o->target > 0))
        return lowcost_score(p, r, o, sum);
    double ov;
    *sum = res_costs(p, r, o->target, NULL, &ov);
    return ov;
}

/* Change stamps, so a round skips a job nothing has changed around: the
 * result of placing it again depends only on the load over its window, so
 * skipping never changes the outcome.  chg[s] = the clock when the load at
 * slot s last changed; seen[i] = the clock when job i was last tried
 * (-1: never, or the score has changed since). */
struct stamps {
    int64_t clock, *chg, *seen;
};

/* stamps_forget: every job is to be tried again (a new score). */
static void stamps_forget(struct stamps *sp, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sp->seen[i] = -1;
}

static int window_changed(const plan *p, const struct lowcost_req *q, const struct stamps *sp, int64_t since)
{
    long lo, hi, pp;
    if (since < 0 || lowcost_window(p, q, &lo, &hi) < 0)
        return 1;
    long ni = instances(p, q, &pp);
    for (long t = lo; t < hi; t++)
        for (long i = 0; i < ni; i++)
            if (sp->chg[lmod(t + i * pp, p->nsteps)] > since)
                return 1;
    return 0;
}

static void mark_changed(const plan *p, const struct plan_res *r, struct stamps *sp)
{
    long ni = plan_ninst(p, r);
    for (long j = 0; j < r->len; j++)
        for (long i = 0; i < ni; i++)
            sp->chg[plan_slot(p, r, i, j)] = sp->clock;
}

/* improve_round: one round of lowcost_improve: every request whose window
 * changed since it was last tried is lifted and placed again twice -- with
 * LowCost's own stretch (o->max_stretch) and rigid (every stage at its
 * maximum parallelism: max_stretch 1) -- and the better of the two kept
 * when it lowers the job's improve_score, then the sum.  Returns the moves. */
static long improve_round(plan *p, const struct lowcost_req *q, size_t n, const size_t *ids,
                          const struct lowcost_opts *user, struct lowcost_opts *o, struct stamps *sp)
{
    const double stretch[2] = {o->max_stretch, 1};
    int nshapes = o->max_stretch == 1 ? 1 : 2;
    double eps = o->target > 0 ? 1e-15 : 1e-12;
    long moved = 0;
    for (size_t i = 0; i < n; i++) {
        if (ids[i] == (size_t)-1)
            continue;
        size_t k = ids[i];
        if (!window_changed(p, &q[i], sp, sp->seen[i]))
            continue;
        sp->seen[i] = ++sp->clock;
        plan_lift(p, k);
        if (o->target > 0)
            o->max_penalty = lowcost_penalty(p, &p->res[k], user);
        double best_sum, best = improve_score(p, &p->res[k], o, &best_sum);
        struct plan_res cand;
        int better = 0;
        for (int si = 0; si < nshapes; si++) {
            struct lowcost_result res;
            struct plan_res c;
            o->max_stretch = stretch[si];
            if (!lowcost_choose(p, &q[i], o, &res, &c))
                continue;
            double sum, sc = improve_score(p, &c, o, &sum);
            if (sc < best - eps || (sc <= best + eps && sum < best_sum * (1 - 1e-9) - 1e-12)) {
                if (better)
                    plan_res_free(&cand);
                cand = c;
                better = 1;
                best = sc;
                best_sum = sum;
            } else
                plan_res_free(&c);
        }
        o->max_stretch = stretch[0];
        if (better) {
            sp->clock++;
            mark_changed(p, &p->res[k], sp);
            mark_changed(p, &cand, sp);
            sp->seen[i] = sp->clock;
        }
        plan_settle(p, k, better ? &cand : NULL);
        moved += better;
    }
    return moved;
}

/* snap_take: copy the placements of the requests' reservations into s
 * (n entries, allocated when s is NULL; older copies freed); returns s. */
static struct plan_res *snap_take(const plan *p, size_t n, const size_t *ids, struct plan_res *s)
{
    if (!s)
        s = xcalloc(n ? n : 1, sizeof *s);
    for (size_t i = 0; i < n; i++) {
        if (ids[i] == (size_t)-1)
            continue;
        const struct plan_res *r = &p->res[ids[i]];
        size_t len = (size_t)(r->len > 0 ? r->len : 1);
        plan_res_free(&s[i]);
        plan_res_init(&s[i], r->job, r->kind, r->len);
        s[i].start = r->start;
        memcpy(s[i].containers, r->containers, len * sizeof(int32_t));
        memcpy(s[i].gang, r->gang, len * sizeof(int32_t));
        memcpy(s[i].stage, r->stage, len * sizeof(int32_t));
    }
    return s;
}

/* snap_restore: put back the placements snap_take copied (their arrays go
 * to the plan). */
static void snap_restore(plan *p, size_t n, const size_t *ids, struct plan_res *s)
{
    for (size_t i = 0; i < n; i++) {
        if (ids[i] == (size_t)-1)
            continue;
        plan_lift(p, ids[i]);
        plan_settle(p, ids[i], &s[i]);
    }
}

void lowcost_improve(plan *p, const struct lowcost_req *q, size_t n, const size_t *ids,
                     const struct lowcost_opts *opt, int rounds, struct lowcost_improve_stats *st)
{
    struct lowcost_opts o = *opt;
    o.pressure = NULL; /* everything is placed now: no demand to come */
    o.target = 0;
    memset(st, 0, sizeof *st);
    st->peak_before = plan_peak(p, NULL);
    struct stamps sp = {0, xcalloc((size_t)p->nsteps, sizeof(int64_t)), xmalloc((n ? n : 1) * sizeof(int64_t))};
    stamps_forget(&sp, n);
    /* descent: no job's own score ever rises */
    while (st->rounds < rounds) {
        st->rounds++;
        long moved = improve_round(p, q, n, ids, opt, &o, &sp);
        st->moves += moved;
        if (!moved)
            break;
    }
    st->peak_descent = plan_peak(p, NULL);
    /* flattening: push down everything above LOWCOST_FLAT_TARGET x the best
     * peak so far; the best plan seen is the one kept */
    double best = st->peak_descent;
    struct plan_res *snap = NULL;
    o.target = LOWCOST_FLAT_TARGET * best;
    stamps_forget(&sp, n);
    while (best > 0 && st->flat_rounds < rounds) {
        if (!snap)
            snap = snap_take(p, n, ids, NULL);
        st->flat_rounds++;
        long moved = improve_round(p, q, n, ids, opt, &o, &sp);
        st->flat_moves += moved;
        double pk = plan_peak(p, NULL);
        if (pk < best - 1e-12) {
            best = pk;
            snap_take(p, n, ids, snap);
            o.target = LOWCOST_FLAT_TARGET * best;
            stamps_forget(&sp, n);
        }
        if (!moved)
            break;
    }
    if (snap) {
        if (plan_peak(p, NULL) > best + 1e-12)
            snap_restore(p, n, ids, snap);
        for (size_t i = 0; i < n; i++)
            plan_res_free(&snap[i]);
        free(snap);
    }
    free(sp.chg);
    free(sp.seen);
    /* no plan_recompute_load here: p may hold only the load of reservations
     * it does not list (lcmpack's in-place append starts from the index) */
}

int lowcost_place_earliest(plan *p, const struct lowcost_req *q, struct lowcost_result *res)
{
    long lo, hi, need;
    if (!request_window(p, q, &lo, &hi, &need, res))
        return 0;
    struct plan_res r;
    res_of_request(&r, q, lo, need);
    long j = 0;
    for (long k = 0; k < q->nstages; k++) {
        int64_t left = SF[k].gangs;
        for (long s = 0; s < SF[k].minlen; s++, j++) {
            int64_t a = left < SF[k].perstep ? left : SF[k].perstep;
            r.containers[j] = (int32_t)(a * q->stage[k].gang);
            r.gang[j] = q->stage[k].gang;
            r.stage[j] = (int32_t)(k + 1);
            left -= a;
        }
    }
    long bad;
    if (!plan_fits(p, &r, &bad)) {
        snprintf(res->why, sizeof res->why, "no capacity at t %ld s", bad * p->step);
        plan_res_free(&r);
        return 0;
    }
    double peak = 0;
    long ni = plan_ninst(p, &r);
    for (long i = 0; i < ni; i++)
        for (long jj = 0; jj < r.len; jj++) {
            long s = plan_slot(p, &r, i, jj);
            double c = plan_cost_add(p, s, r.containers[jj], r.cores, r.mem_mb);
            if (c > peak)
                peak = c;
        }
    res->placed = 1;
    res->start = lo;
    res->len = need;
    res->cost = peak;
    res->tried = 1;
    plan_add(p, &r);
    return 1;
}

double lowcost_min_height(const plan *p, const struct lowcost_req *q)
{
    double cm = 0, cc = 0;
    for (long s = 0; s < p->nsteps; s++) {
        if (p->cap_mem[s] > cm) cm = p->cap_mem[s];
        if (p->cap_cores[s] > cc) cc = p->cap_cores[s];
    }
    double unit = 0;
    if (q->mem_mb > 0 && cm > 0 && isfinite(cm))
        unit = q->mem_mb / cm;
    if (q->cores > 0 && cc > 0 && isfinite(cc) && q->cores / cc > unit)
        unit = q->cores / cc;
    long lo, hi, need;
    if (lowcost_window(p, q, &lo, &hi) < 0)
        return 0;
    stage_figures(q, &need);
    double h = 0, area = 0;
    for (long k = 0; k < q->nstages; k++) {
        double g = q->stage[k].gang;
        /* a stage cannot be spread thinner than one gang per step */
        if (g > h)
            h = g;
        area += SF[k].dem;
    }
    double spread = area / (double)(hi - lo);
    if (spread > h)
        h = spread;
    return h * unit;
}

