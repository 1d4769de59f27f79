/* dra — the Morpheus Dynamic Reprovisioning Algorithm (see dra.h).
 *
 * Per job: its container shape and window (from its first reservation), the
 * extension in force (plan index, extra, until) and a refusal hold.  Each
 * job has at most one extension reservation in the plan, reused for every
 * grant (marked removed, its load subtracted, while none is in force), so the
 * plan does not grow with the length of the stream.  A
 * min-heap of `until` times lets extensions lapse in time order whatever
 * jobs send samples.  Tuned for streams of millions of samples: a sample
 * that does not trigger costs one hash lookup here and one plan_alloc_at.
 */
#include "morpheus/dra.h"
#include "base/cli.h"
#include "base/diag.h"
#include "base/heap.h"
#include "base/keyset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dra_hist {
    double t0, until;       /* the extension was in force over [t0, until) */
    int64_t extra;
};

struct dra_job {
    double cores, mem_mb, period, a, d;
    size_t res;             /* plan index of the extension in force, or SIZE_MAX */
    size_t slot;            /* plan index of the job's extension reservation, reused
                               for every grant (removed while none is in force), or SIZE_MAX */
    int64_t extra;          /* its containers */
    double until;           /* its end */
    double last_until;      /* end of the previous extension (-inf: none) */
    double hold_until;      /* no new attempt before this (after a refusal) */
    int64_t last_alloc;     /* the allocation in force at the job's last sample
                               that had one (> 0): R's floor after refusals */
    struct dra_hist *hist;  /* granted extensions still inside a recent window, by time */
    size_t h0, nh, hcap;    /* live entries hist[h0 .. nh) */
};

struct dra {
    plan *p;
    struct dra_opts o;
    struct dra_job *jobs;
    size_t njobs, jobcap;
    keyset *names;          /* job name -> its index in jobs */
    heap expiries;          /* key until, val job index */
    struct dra_stats st;
};

void dra_opts_default(struct dra_opts *o)
{
    o->grant = 60;
    o->window = 120;
    o->rho = 2;
    o->recent = DRA_RECENT_INSTANCE;
}

static struct dra_job *find_job(const dra *d, const char *name)
{
    long k = keyset_row(d->names, name);
    return k >= 0 ? &d->jobs[k] : NULL;
}

dra *dra_new(plan *p, const struct dra_opts *o)
{
    dra *d = xcalloc(1, sizeof *d);
    d->p = p;
    d->o = *o;
    heap_init(&d->expiries);
    d->names = keyset_new();
    for (size_t k = 0; k < p->nres; k++) {
        const struct plan_res *r = &p->res[k];
        int added = 0;
        if (!r->removed)
            keyset_intern(d->names, r->job, &added);
        if (!added) /* removed, or the job's entry is there already */
            continue;
        d->jobs = xgrow(d->jobs, &d->jobcap, d->njobs + 1, sizeof *d->jobs);
        struct dra_job *j = &d->jobs[d->njobs];
        memset(j, 0, sizeof *j);
        j->cores = r->cores;
        j->mem_mb = r->mem_mb;
        j->period = r->period;
        j->a = r->a;
        j->d = r->d;
        j->res = SIZE_MAX;
        j->slot = SIZE_MAX;
        j->last_until = -INFINITY;
        j->hold_until = -INFINITY;
        d->njobs++;
    }
    return d;
}

/* ext_steps: the plan steps an extension of len steps covers, each once: an
 * extension longer than the cycle covers every step, and holds its extra
 * containers once at any moment, so the steps it covers in two cycles are
 * one demand on the folded profile, not two. */
static long ext_steps(const plan *p, long len) { return len < p->nsteps ? len : p->nsteps; }

/* ext_load: add (sign 1) or take out (sign -1) extension r's load, once at
 * each step it covers (ext_steps), never folded onto itself as plan_add
 * folds a once reservation longer than the cycle. */
static void ext_load(plan *p, const struct plan_res *r, double sign)
{
    for (long k = 0, n = ext_steps(p, r->len); k < n; k++) {
        long s = plan_slot(p, r, 0, k);
        p->load_cores[s] += sign * r->containers[k] * r->cores;
        p->load_mem[s] += sign * r->containers[k] * r->mem_mb;
        if (sign < 0 && p->load_cores[s] < 1e-9)
            p->load_cores[s] = 0;
        if (sign < 0 && p->load_mem[s] < 1e-9)
            p->load_mem[s] = 0;
    }
}

/* Take extension r out of the plan: mark it removed and subtract exactly the
 * load install_extension added (plan_recompute_load would rebuild every
 * reservation's load on each lapse, far too slow for a stream, and fold a
 * grant longer than the cycle onto itself). */
static void remove_extension(dra *d, struct dra_job *j)
{
    plan *p = d->p;
    struct plan_res *r = &p->res[j->res];
    r->removed = 1;
    ext_load(p, r, -1.0);
    j->last_until = j->until;
    j->res = SIZE_MAX;
    j->extra = 0;
}

void dra_expire(dra *d, double t)
{
    const struct heap_item *it;
    while ((it = heap_peek(&d->expiries)) && it->key <= t) {
        struct heap_item x;
        heap_pop(&d->expiries, &x);
        struct dra_job *j = &d->jobs[x.val];
        if (j->res != SIZE_MAX && j->until == x.key)
            remove_extension(d, j);
    }
}

void dra_free(dra *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->njobs; i++) {
        if (d->jobs[i].res != SIZE_MAX)
            remove_extension(d, &d->jobs[i]);
        free(d->jobs[i].hist);
    }
    free(d->jobs);
    keyset_free(d->names);
    heap_free(&d->expiries);
    free(d);
}

int64_t dra_extra_at(const dra *d, const char *job, double t)
{
    const struct dra_job *j = find_job(d, job);
    return j && j->res != SIZE_MAX && t < j->until ? j->extra : 0;
}

void dra_get_stats(const dra *d, struct dra_stats *s)
{
    *s = d->st;
}

static int64_t base_at(const dra *d, const char *job, double t)
{
    int64_t n = 0;
    plan_alloc_at(d->p, job, t, &n, NULL, NULL);
    return n;
}

/* recent_max: R, the largest allocation of the job over the plan steps
 * covering [t - window, t]: the plan's, plus (instance reading) the
 * extensions granted in them; with the instance reading, when that is 0
 * (the job ran past its reservation and its extensions lapsed during
 * refusals), the allocation in force at its last sample that had one, so a
 * refused job is not starved for good.  *from_last says which. */
static int64_t recent_max(dra *d, struct dra_job *j, const char *job, double t, int64_t base, int *from_last)
{
    double step = (double)d->p->step;
    int64_t rmax = 0;
    double k0 = floor((t - d->o.window) / step), k1 = floor(t / step);
    int inst = d->o.recent == DRA_RECENT_INSTANCE;
    if (inst) /* forget extensions that ended before the window's first step */
        while (j->h0 < j->nh && j->hist[j->h0].until <= k0 * step)
            j->h0++;
    size_t h = j->h0; /* the history is in time order and without overlaps: one pass */
    for (int64_t ks = 0, n = (int64_t)(k1 - k0); ks <= n; ks++) {
        double k = k0 + (double)ks; /* whole numbers: exact in a double */
        int64_t b = k == k1 ? base : base_at(d, job, k * step);
        if (inst) {
            int64_t x = 0;
            while (h < j->nh && j->hist[h].until <= k * step)
                h++;
            for (size_t i = h; i < j->nh && j->hist[i].t0 < (k + 1) * step; i++)
                if (j->hist[i].extra > x)
                    x = j->hist[i].extra;
            b += x;
        }
        if (b > rmax)
            rmax = b;
    }
    *from_last = 0;
    if (inst && rmax == 0 && j->last_alloc > 0) {
        rmax = j->last_alloc;
        *from_last = 1;
    }
    return rmax;
}

/* extension_fit: build in *r the extension of `extra` containers over the
 * plan steps covering [t, t + grant); returns how many containers of the
 * job's size fit at every one of those steps (>= extra: all of it), with the
 * first step that binds in *bad (-1 when none does). */
static int64_t extension_fit(dra *d, struct dra_job *j, const char *job, double t, int64_t extra,
                             struct plan_res *r, long *bad)
{
    plan *p = d->p;
    double step = (double)p->step;
    double s0 = floor(t / step), s1 = ceil((t + d->o.grant) / step - 1e-9);
    if (s1 <= s0)
        s1 = s0 + 1;
    double cyc = floor(s0 / (double)p->nsteps);
    plan_res_init(r, job, PLAN_ONCE, (long)(s1 - s0));
    r->cycle = (int64_t)cyc;
    r->instance = j->period > 0 ? (int64_t)floor(t / j->period) : 0;
    r->start = (long)(s0 - cyc * (double)p->nsteps);
    r->period = j->period;
    r->a = j->a;
    r->d = j->d;
    r->cores = j->cores;
    r->mem_mb = j->mem_mb;
    int64_t fit = extra;
    *bad = -1;
    for (long k = 0, n = ext_steps(p, r->len); k < n; k++) { /* each step once (ext_load) */
        long sl = plan_slot(p, r, 0, k);
        int64_t room = plan_headroom(p, sl, j->cores, j->mem_mb);
        if (room < fit) {
            fit = room < 0 ? 0 : room;
            *bad = sl;
        }
    }
    return fit;
}

/* install_extension: add extension r (extra containers each step, owned by
 * the plan from here) for the job, reusing its plan slot, and record it. */
static void install_extension(dra *d, struct dra_job *j, struct plan_res *r, double t, double until, int64_t extra)
{
    plan *p = d->p;
    if (j->slot == SIZE_MAX) {
        j->slot = plan_add(p, r); /* its containers are still 0: no load added here */
    } else {
        /* reuse the job's lapsed extension: one plan entry per job however
         * long the stream (plan_add would grow the plan by one per grant) */
        struct plan_res *x = &p->res[j->slot];
        char *name = x->job; /* keep the string: r->job names the same job */
        free(x->containers);
        free(x->gang);
        free(x->stage);
        free(r->job);
        *x = *r;
        x->job = name;
    }
    struct plan_res *x = &p->res[j->slot]; /* its load is ext_load's, not plan_add's */
    for (long k = 0; k < x->len; k++)
        x->containers[k] = (int32_t)(extra > INT32_MAX ? INT32_MAX : extra);
    ext_load(p, x, 1.0);
    if (d->o.recent == DRA_RECENT_INSTANCE) {
        if (j->h0 > 0 && j->h0 == j->nh)
            j->h0 = j->nh = 0;
        else if (j->h0 > 0 && j->nh == j->hcap) {
            memmove(j->hist, j->hist + j->h0, (j->nh - j->h0) * sizeof *j->hist);
            j->nh -= j->h0;
            j->h0 = 0;
        }
        j->hist = xgrow(j->hist, &j->hcap, j->nh + 1, sizeof *j->hist);
        j->hist[j->nh++] = (struct dra_hist){t, until, extra};
    }
    j->res = j->slot;
    j->extra = extra;
    j->until = until;
    heap_push(&d->expiries, j->until, (uint64_t)(j - d->jobs));
    d->st.extra_container_s += (double)extra * d->o.grant;
}

/* decide: the DRA's decision for a job whose demand exceeds its plan and
 * that holds no extension and no refusal. */
static int decide(dra *d, struct dra_job *j, const char *job, double t, int64_t base, int64_t demand,
                  struct dra_decision *out)
{
    d->st.triggers++;
    int64_t rmax = recent_max(d, j, job, t, base, &out->from_last);
    double capd = floor(d->o.rho * (double)rmax + 1e-9);
    int64_t cap = capd > 1e15 ? (int64_t)1e15 : (int64_t)capd;
    int64_t extra = demand - base < cap ? demand - base : cap;
    out->cap = cap;
    out->rmax = rmax;
    out->rho = d->o.rho;
    int renew = j->last_until > -INFINITY && t - j->last_until <= d->o.grant;
    /* what is in force at t: decide runs only when no extension is (the
     * ones that ended by t lapsed in dra_expire), so the plan's alone */
    out->old_alloc = base;
    out->new_alloc = base;
    out->until = t + d->o.grant;
    if (extra <= 0) { /* demand > base, so cap is 0: R = 0, or rho * R below 1 */
        if (rmax > 0)
            d->st.refused_rho++;
        else
            d->st.refused_nocap++;
        j->hold_until = out->until;
        out->action = DRA_REFUSE;
        return 1;
    }
    struct plan_res r;
    long bad;
    int64_t fit = extension_fit(d, j, job, t, extra, &r, &bad);
    out->wanted = extra;
    if (fit < 1) {
        plan_res_free(&r);
        d->st.refused_full++;
        j->hold_until = out->until;
        out->action = DRA_REFUSE;
        out->extra = extra;
        out->full = 1;
        out->bad_offset = (int64_t)bad * d->p->step;
        out->room = 0;
        return 1;
    }
    if (fit < extra) { /* partial: what fits at every step of the extension */
        out->partial = 1;
        out->bad_offset = (int64_t)bad * d->p->step;
        out->room = fit;
        extra = fit;
        d->st.partial++;
    }
    install_extension(d, j, &r, t, out->until, extra);
    out->extra = extra;
    out->new_alloc = base + extra;
    out->alloc = base + extra;
    if (renew) { /* old_alloc stays base: the lapsed extension is no longer in force at t */
        d->st.renewed++;
        out->action = DRA_RENEW;
    } else {
        d->st.extended++;
        out->action = DRA_EXTEND;
    }
    return 1;
}

int dra_sample(dra *d, const char *job, double t, double used, double pending, struct dra_decision *out)
{
    d->st.samples++;
    dra_expire(d, t);
    memset(out, 0, sizeof *out);
    out->window = d->o.window;
    out->recent = d->o.recent;
    struct dra_job *j = find_job(d, job);
    if (!j) {
        d->st.noplan++;
        out->action = DRA_NOPLAN;
        return 0;
    }
    /* the plan's allocation without the job's own extension in force */
    struct plan_res *ext = j->res != SIZE_MAX ? &d->p->res[j->res] : NULL;
    if (ext)
        ext->removed = 1;
    int64_t base = base_at(d, job, t);
    if (ext)
        ext->removed = 0;
    out->base = base;
    out->alloc = base;
    int rc = 0;
    if (j->res != SIZE_MAX) { /* an extension is in force until j->until > t */
        out->alloc = base + j->extra;
        out->extra = j->extra;
        out->until = j->until;
    } else if (t >= j->hold_until) {
        int64_t demand = (int64_t)ceil(used + pending - 1e-9);
        out->demand = demand;
        if (demand > base)
            rc = decide(d, j, job, t, base, demand, out);
    }
    if (out->alloc > 0)
        j->last_alloc = out->alloc;
    return rc;
}

void dra_reason(const struct dra_decision *d, char *buf, size_t n)
{
    const char *rk = d->from_last ? " (its last allocation: nothing recent)" : "";
    if (d->action == DRA_REFUSE && d->full)
        snprintf(buf, n, "refused: plan full: %lld more containers do not fit at offset %lld s (room for 0)",
                 (long long)d->extra, (long long)d->bad_offset);
    else if (d->action == DRA_REFUSE && d->rmax > 0) /* the cap floor(rho * R) is 0 */
        snprintf(buf, n,
                 "refused: demand %lld > planned %lld, but the extra is capped at floor(rho %g * max recent "
                 "%lld%s) = 0",
                 (long long)d->demand, (long long)d->base, d->rho, (long long)d->rmax, rk);
    else if (d->action == DRA_REFUSE)
        snprintf(buf, n, "refused: demand %lld > planned %lld, but no %s in the last %g s to scale",
                 (long long)d->demand, (long long)d->base,
                 d->recent == DRA_RECENT_PLAN ? "planned allocation" : "allocation (planned or extended)", d->window);
    else if ((d->action == DRA_EXTEND || d->action == DRA_RENEW) && d->partial)
        snprintf(buf, n, "partial (%s): demand %lld > planned %lld; wanted %lld (%s rho*max recent %lld%s), "
                 "%lld fit (offset %lld s binds)",
                 d->action == DRA_RENEW ? "renew" : "extend", (long long)d->demand, (long long)d->base,
                 (long long)d->wanted, d->wanted < d->demand - d->base ? "capped at" : "within", (long long)d->cap, rk,
                 (long long)d->extra, (long long)d->bad_offset);
    else if (d->action == DRA_EXTEND || d->action == DRA_RENEW)
        snprintf(buf, n, "granted (%s): demand %lld > planned %lld; extra %lld %s rho*max recent %lld%s",
                 d->action == DRA_RENEW ? "renew" : "extend", (long long)d->demand, (long long)d->base,
                 (long long)d->extra, d->extra < d->demand - d->base ? "capped at" : "within", (long long)d->cap, rk);
    else if (n)
        buf[0] = 0;
}

/* ---- options ---------------------------------------------------------------- */

enum { DRA_OPT_GRANT = 0x4400, DRA_OPT_WINDOW, DRA_OPT_RHO, DRA_OPT_RECENT };

static const struct argp_option dra_options[] = {
    {"grant", DRA_OPT_GRANT, "DUR", 0, "An extension lasts DUR, then the DRA re-evaluates (default 60s)", 0},
    {"window", DRA_OPT_WINDOW, "DUR", 0, "Recent window whose max allocation caps the extra (default 120s)", 0},
    {"rho", DRA_OPT_RHO, "X", 0, "The extra is at most X times that max (default 2)", 0},
    {"recent", DRA_OPT_RECENT, "WHAT", 0, "What that max counts: instance (the plan plus the extensions granted, "
                                          "the paper's reading; default) or plan (the original plan only)", 0},
    {0}
};

/* --grant and --window: a decision visits the plan steps of both, so a
 * window of 1e12 s never ended and a grant of 1e308 s printed until 1e+308;
 * a year is far beyond the paper's minutes. */
#define DRA_MAX_DUR (366 * 86400.0)

static double dra_duration(struct argp_state *st, const char *opt, const char *arg, double min)
{
    double v = cli_duration(st, opt, arg, min);
    if (v > DRA_MAX_DUR)
        argp_error(st, "invalid value for --%s: '%s' (at most 366d)", opt, arg);
    return v;
}

static error_t dra_parse_opt(int key, char *arg, struct argp_state *st)
{
    struct dra_opts *o = st->input;
    if (!o->given)
        o->given = cli_group_option(dra_options, key, 0);
    switch (key) {
    case DRA_OPT_GRANT: o->grant = dra_duration(st, "grant", arg, 1); break;
    case DRA_OPT_WINDOW: o->window = dra_duration(st, "window", arg, 0); break;
    case DRA_OPT_RHO: o->rho = cli_double(st, "rho", arg, 0, 1e6); break;
    case DRA_OPT_RECENT:
        o->recent = cli_choice(st, "recent", arg, (const char *const[]){"instance", "plan", NULL}) == 0
                        ? DRA_RECENT_INSTANCE : DRA_RECENT_PLAN;
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

const struct argp dra_argp = {dra_options, dra_parse_opt, NULL, NULL, NULL, NULL, NULL};
