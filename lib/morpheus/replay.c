/* replay — time-stepped what-if replay of recorded runs (see replay.h).
 *
 * The loop visits every grid step from the first run's first step until the
 * last run is done or cut off; per step it touches only the running runs
 * (plus one load lookup for the footprint), so 30 days of 1,000 jobs at
 * one-minute steps (43,200 steps, a few hundred running runs) take seconds.
 */
#include "morpheus/replay.h"
#include "base/diag.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *replay_regime_name(enum replay_regime r)
{
    switch (r) {
    case REPLAY_STATIC: return "static";
    case REPLAY_PLAN: return "plan";
    case REPLAY_PLAN_DRA: return "plan+dra";
    }
    return "?";
}

/* By step, then first sample, then run id (unique): an order of the
 * content, so the same runs in another input order (split by job and
 * concatenated back) replay and print the same. */
static int run_cmp(const void *a, const void *b)
{
    const struct replay_run *x = a, *y = b;
    if (x->g0 != y->g0)
        return x->g0 < y->g0 ? -1 : 1;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return strcmp(x->run, y->run);
}

void replay_set_sort(struct replay_set *s)
{
    if (s->nruns > 1)
        qsort(s->runs, s->nruns, sizeof *s->runs, run_cmp);
}

size_t replay_set_jobs_run(const struct replay_set *s)
{
    char *seen = xcalloc(s->njobs ? s->njobs : 1, 1);
    size_t n = 0;
    for (size_t i = 0; i < s->nruns; i++)
        if (!seen[s->runs[i].job]) {
            seen[s->runs[i].job] = 1;
            n++;
        }
    free(seen);
    return n;
}

void replay_set_free(struct replay_set *s)
{
    for (size_t i = 0; i < s->njobs; i++)
        free(s->jobs[i].name);
    for (size_t i = 0; i < s->nruns; i++) {
        free(s->runs[i].run);
        free(s->runs[i].use);
    }
    free(s->jobs);
    free(s->runs);
    memset(s, 0, sizeof *s);
}

/* ---- max-min fair sharing of idle capacity (fluid, dominant share) ---------- */

struct fill {
    double level;   /* dominant share at which the run is satisfied */
    size_t r;       /* index into the unmet arrays */
};

static int fill_cmp(const void *a, const void *b)
{
    const struct fill *x = a, *y = b;
    if (x->level != y->level)
        return x->level < y->level ? -1 : 1;
    return x->r < y->r ? -1 : x->r > y->r;
}

/* The largest level lambda with sum_r w_r min(e_r, lambda / d_r) <= idle. */
static double fill_level(const struct fill *f, size_t n, const double *e, const double *w, const double *dsh,
                         double idle)
{
    double sat = 0, slope = 0;
    for (size_t i = 0; i < n; i++)
        slope += w[f[i].r] / dsh[f[i].r];
    for (size_t i = 0; i < n; i++) {
        size_t r = f[i].r;
        if (sat + f[i].level * slope > idle)
            return slope > 0 ? (idle - sat) / slope : f[i].level;
        sat += w[r] * e[r];
        slope -= w[r] / dsh[r];
        if (slope < 0)
            slope = 0;
    }
    return INFINITY;
}

/* Share idle cores/mem among n runs wanting e[r] more containers of
 * (c[r], m[r]); x[r] receives the share. */
static void waterfill(size_t n, const double *e, const double *c, const double *m, double idle_c, double idle_m,
                      double cap_c, double cap_m, double *dsh, struct fill *f, double *x)
{
    for (size_t r = 0; r < n; r++) {
        double a = cap_c > 0 ? c[r] / cap_c : 0, b = cap_m > 0 ? m[r] / cap_m : 0;
        dsh[r] = a > b ? a : b;
        if (!(dsh[r] > 0))
            dsh[r] = 1e-12;
        f[r].level = e[r] * dsh[r];
        f[r].r = r;
    }
    qsort(f, n, sizeof *f, fill_cmp);
    double lc = fill_level(f, n, e, c, dsh, idle_c), lm = fill_level(f, n, e, m, dsh, idle_m);
    double lam = lc < lm ? lc : lm;
    for (size_t r = 0; r < n; r++) {
        double v = lam / dsh[r];
        x[r] = v < e[r] ? v : e[r];
        if (x[r] < 0)
            x[r] = 0;
    }
}

/* ---- the replay ---------------------------------------------------------------- */

double replay_instance_start(const struct replay_job *j, double t)
{
    double ps = floor(t / j->period) * j->period;
    if (j->d > j->period && t - ps < j->a && t - ps <= j->d - j->period)
        ps -= j->period;
    return ps;
}

int64_t replay_reservation_start(const plan *p, const char *job, int64_t from, int64_t to, double step)
{
    for (int64_t g = from; g < to; g++) {
        int64_t n = 0;
        plan_alloc_at(p, job, (double)g * step, &n, NULL, NULL);
        if (n > 0)
            return g;
    }
    return -1;
}

static int order_cmp(const void *a, const void *b, void *ctx)
{
    const int64_t *key = ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (key[x] != key[y])
        return key[x] < key[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

struct rstate {
    long k;             /* skyline steps done */
    double debt, dem, g, alloc;
    double deadline, cutoff;
};

/* One replay's working state: per run, per job, and the scratch arrays of
 * the idle sharing. */
struct rctx {
    const struct replay_set *s;
    const struct replay_opts *o;
    struct replay_result *res;
    struct replay_totals *tot;
    dra *d;
    double step;
    struct rstate *rs;
    size_t *act, nact;
    double *jg, *jdem, *jprev;
    long *jcnt;
    int64_t *jstamp;
    double *ue, *uc, *um, *ux, *udsh;
    size_t *uidx;
    struct fill *uf;
    int64_t *st;        /* [n] grid step where each run starts */
    char *inplan;       /* [nj] 1: the plan holds a reservation for the job */
    size_t *ord;        /* runs in start order */
};

static void ctx_init(struct rctx *c)
{
    const struct replay_set *s = c->s;
    size_t n = s->nruns, nj = s->njobs;
    c->step = s->step;
    c->rs = xcalloc(n, sizeof *c->rs);
    c->act = xcalloc(n, sizeof *c->act);
    c->nact = 0;
    c->jg = xcalloc(nj, sizeof *c->jg);
    c->jdem = xcalloc(nj, sizeof *c->jdem);
    c->jprev = xcalloc(nj, sizeof *c->jprev);
    c->jcnt = xcalloc(nj, sizeof *c->jcnt);
    c->jstamp = xcalloc(nj, sizeof *c->jstamp);
    c->ue = xcalloc(n, sizeof *c->ue), c->uc = xcalloc(n, sizeof *c->uc), c->um = xcalloc(n, sizeof *c->um);
    c->ux = xcalloc(n, sizeof *c->ux), c->udsh = xcalloc(n, sizeof *c->udsh);
    c->uidx = xcalloc(n, sizeof *c->uidx);
    c->uf = xcalloc(n, sizeof *c->uf);
    for (size_t i = 0; i < nj; i++)
        c->jstamp[i] = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        const struct replay_run *r = &s->runs[i];
        const struct replay_job *j = &s->jobs[r->job];
        double pstart = replay_instance_start(j, r->first);
        c->rs[i].deadline = pstart + j->d;
        c->rs[i].cutoff = c->rs[i].deadline + j->period;
        if (c->res) {
            struct replay_result *x = &c->res[i];
            x->start = c->o->start ? (double)c->o->start[i] * c->step : r->first;
            x->deadline = c->rs[i].deadline;
            x->finish = NAN;
            x->met = 0;
            x->over = x->under = 0;
        }
    }
    c->st = xcalloc(n, sizeof *c->st);
    c->ord = xcalloc(n, sizeof *c->ord);
    for (size_t i = 0; i < n; i++) {
        c->st[i] = c->o->start ? c->o->start[i] : s->runs[i].g0;
        c->ord[i] = i;
    }
    qsort_r(c->ord, n, sizeof *c->ord, order_cmp, c->st);
    c->inplan = xcalloc(nj ? nj : 1, 1);
    for (size_t j = 0; j < nj && c->o->plan; j++)
        c->inplan[j] = (char)(plan_has_job(c->o->plan, s->jobs[j].name) == 1);
    c->d = c->o->regime == REPLAY_PLAN_DRA ? dra_new(c->o->plan, &c->o->dra) : NULL;
}

static void ctx_free(struct rctx *c)
{
    if (c->d) {
        dra_get_stats(c->d, &c->tot->dra);
        dra_free(c->d);
    }
    free(c->st), free(c->ord), free(c->inplan);
    free(c->rs), free(c->act), free(c->jg), free(c->jdem), free(c->jprev), free(c->jcnt), free(c->jstamp);
    free(c->ue), free(c->uc), free(c->um), free(c->ux), free(c->udsh), free(c->uidx), free(c->uf);
}

/* Relative size below which a debt or an over-allocation is the rounding
 * residue of fractional containers (use + debt - alloc), not a quantity. */
#define REPLAY_EPS 1e-9

/* clean_container_s: container-seconds v, the nearest whole number when it
 * is within REPLAY_EPS (relative) of one: a sum over many steps of
 * fractional containers carries rounding noise (302520.0000000001) that a
 * reader and a check like over > 0 should not see. */
static double clean_container_s(double v)
{
    double r = nearbyint(v);
    return fabs(v - r) <= REPLAY_EPS * (fabs(v) > 1 ? fabs(v) : 1) ? r : v;
}

/* Each running run's demand at step g, and the per-job totals. */
static void step_demands(struct rctx *c, int64_t g)
{
    for (size_t a = 0; a < c->nact; a++) {
        size_t i = c->act[a];
        const struct replay_run *r = &c->s->runs[i];
        struct rstate *x = &c->rs[i];
        x->dem = (x->k < r->len ? r->use[x->k] : 0) + x->debt;
        if (c->jstamp[r->job] != g) {
            c->jstamp[r->job] = g;
            c->jdem[r->job] = 0;
            c->jcnt[r->job] = 0;
            c->jg[r->job] = -1;
        }
        c->jdem[r->job] += x->dem;
        c->jcnt[r->job]++;
    }
}

/* The job's guarantee at time t under a plan regime (DRA-corrected in
 * plan+dra). */
static double job_guarantee(struct rctx *c, size_t jb, double t)
{
    const struct replay_job *j = &c->s->jobs[jb];
    if (c->d) {
        struct dra_decision dec;
        double used = c->jdem[jb] < c->jprev[jb] ? c->jdem[jb] : c->jprev[jb];
        dra_sample(c->d, j->name, t, used, c->jdem[jb] - used, &dec);
        return (double)dec.alloc;
    }
    int64_t n = 0;
    plan_alloc_at(c->o->plan, j->name, t, &n, NULL, NULL);
    return (double)n;
}

/* Guarantees (per job, shared oldest first), squeezed into the capacity;
 * adds the reserved and used cores/mem of the step. */
static void step_guarantees(struct rctx *c, double t, double *res_c, double *res_m, double *used_c, double *used_m)
{
    const struct replay_opts *o = c->o;
    for (size_t a = 0; a < c->nact; a++) {
        size_t i = c->act[a];
        const struct replay_run *r = &c->s->runs[i];
        const struct replay_job *j = &c->s->jobs[r->job];
        struct rstate *x = &c->rs[i];
        size_t jb = r->job;
        if (o->regime == REPLAY_STATIC || !c->inplan[jb]) {
            /* static, or a job the plan falls back on: manual provisioning */
            x->g = j->provisioned >= 0 ? j->provisioned : 0;
            *res_c += x->g * r->cores;
            *res_m += x->g * r->mem_mb;
        } else {
            if (c->jg[jb] < 0)
                c->jprev[jb] = c->jg[jb] = job_guarantee(c, jb, t);
            c->jcnt[jb]--;
            double give = c->jcnt[jb] == 0 ? c->jg[jb] : (x->dem < c->jg[jb] ? x->dem : c->jg[jb]);
            x->g = give;
            c->jg[jb] -= give;
        }
        x->alloc = x->dem < x->g ? x->dem : x->g;
        /* over-allocation in container-steps (times the step at the end);
         * a rounding residue of dem = use + debt is not one */
        if (x->g - x->dem > REPLAY_EPS * (x->dem > 1 ? x->dem : 1) && c->res)
            c->res[i].over += x->g - x->dem;
        *used_c += x->alloc * r->cores;
        *used_m += x->alloc * r->mem_mb;
    }
    /* guarantees beyond the cluster (static quotas on a small cluster) are
     * squeezed in proportionally */
    double fc = *used_c > o->cap_cores ? o->cap_cores / *used_c : 1;
    double fm = *used_m > o->cap_mem ? o->cap_mem / *used_m : 1;
    double f = fc < fm ? fc : fm;
    if (f < 1) {
        *used_c = *used_m = 0;
        for (size_t a = 0; a < c->nact; a++) {
            size_t i = c->act[a];
            c->rs[i].alloc *= f;
            *used_c += c->rs[i].alloc * c->s->runs[i].cores;
            *used_m += c->rs[i].alloc * c->s->runs[i].mem_mb;
        }
        c->tot->squeezed_steps++;
    }
}

/* Idle capacity to the runs with unmet demand, max-min fair. */
static void step_idle(struct rctx *c, double used_c, double used_m)
{
    const struct replay_opts *o = c->o;
    double idle_c = o->cap_cores - used_c, idle_m = o->cap_mem - used_m;
    size_t nu = 0;
    for (size_t a = 0; a < c->nact; a++) {
        size_t i = c->act[a];
        double e = c->rs[i].dem - c->rs[i].alloc;
        if (e > 1e-12) {
            c->ue[nu] = e;
            c->uc[nu] = c->s->runs[i].cores;
            c->um[nu] = c->s->runs[i].mem_mb;
            c->uidx[nu++] = i;
        }
    }
    if (nu && idle_c > 0 && idle_m > 0) {
        waterfill(nu, c->ue, c->uc, c->um, idle_c, idle_m, o->cap_cores, o->cap_mem, c->udsh, c->uf, c->ux);
        for (size_t u = 0; u < nu; u++)
            c->rs[c->uidx[u]].alloc += c->ux[u];
    }
}

/* Debts carried over, runs that finish or are cut off at the end of the
 * step starting at t leave the active set. */
static void step_progress(struct rctx *c, double t)
{
    size_t keep = 0;
    for (size_t a = 0; a < c->nact; a++) {
        size_t i = c->act[a];
        const struct replay_run *r = &c->s->runs[i];
        struct rstate *x = &c->rs[i];
        double debt = x->dem - x->alloc;
        if (debt < REPLAY_EPS * (x->dem > 1 ? x->dem : 1))
            debt = 0;
        x->debt = debt;
        c->tot->used_core_s += x->alloc * r->cores * c->step;
        x->k++;
        if (x->k == r->len && c->res)
            c->res[i].under = clean_container_s(debt * c->step);
        double tend = t + c->step;
        if (x->k >= r->len && debt == 0) {
            /* served in full: the recorded end, moved with the start */
            double fin = x->k == r->len ? r->end + (double)(c->st[i] - r->g0) * c->step : tend;
            if (fin > tend)
                fin = tend;
            if (c->res) {
                c->res[i].finish = fin;
                c->res[i].met = fin <= x->deadline + 1e-9;
            }
            if (fin <= x->deadline + 1e-9) {
                c->tot->met++;
                c->tot->unplanned_met += c->o->regime != REPLAY_STATIC && !c->inplan[r->job];
            }
            continue;
        }
        if (tend >= x->cutoff) {
            c->tot->unfinished++;
            continue;
        }
        c->act[keep++] = i;
    }
    c->nact = keep;
}

int replay_run(const struct replay_set *s, const struct replay_opts *o, struct replay_result *res,
               struct replay_totals *tot)
{
    memset(tot, 0, sizeof *tot);
    if (o->regime != REPLAY_STATIC && !o->plan)
        return -1;
    for (size_t i = 0; i < s->nruns; i++)
        if (o->regime == REPLAY_STATIC && !(s->jobs[s->runs[i].job].provisioned >= 0))
            return -1;
    size_t n = s->nruns;
    tot->runs = (long)n;
    if (n == 0)
        return 0;
    struct rctx c = {.s = s, .o = o, .res = res, .tot = tot};
    ctx_init(&c);
    struct plan_reserved pr = {0};
    if (o->regime != REPLAY_STATIC) {
        plan_reserved_init(o->plan, &pr);
        char *seen = xcalloc(s->njobs ? s->njobs : 1, 1);
        for (size_t i = 0; i < n; i++) {
            size_t jb = s->runs[i].job;
            if (c.inplan[jb])
                continue;
            tot->unplanned_runs++;
            tot->unprovisioned_runs += !(s->jobs[jb].provisioned >= 0);
            tot->unplanned_jobs += !seen[jb];
            seen[jb] = 1;
        }
        free(seen);
    }
    double step = c.step;
    size_t next = 0;
    int64_t g = c.st[c.ord[0]];
    tot->t0 = (double)g * step;
    while (next < n || c.nact > 0) {
        double t = (double)g * step;
        while (next < n && c.st[c.ord[next]] <= g)
            c.act[c.nact++] = c.ord[next++];
        if (c.d)
            dra_expire(c.d, t);
        step_demands(&c, g);
        double reserved_c = 0, reserved_m = 0, used_c = 0, used_m = 0;
        step_guarantees(&c, t, &reserved_c, &reserved_m, &used_c, &used_m);
        if (o->regime != REPLAY_STATIC) {
            /* the plan on absolute time (one-offs only in their own cycle),
             * on top of the manual provisioning of the jobs it falls back on */
            double pc, pm;
            plan_reserved_get(o->plan, &pr, t, &pc, &pm);
            reserved_c += pc;
            reserved_m += pm;
        }
        if (o->idle)
            step_idle(&c, used_c, used_m);
        step_progress(&c, t);
        if (reserved_c > tot->peak_cores)
            tot->peak_cores = reserved_c;
        if (reserved_m > tot->peak_mem)
            tot->peak_mem = reserved_m;
        tot->reserved_core_s += reserved_c * step;
        g++;
        if (c.nact == 0 && next < n && o->regime == REPLAY_STATIC && c.st[c.ord[next]] > g)
            g = c.st[c.ord[next]]; /* nothing is reserved between runs in static */
    }
    tot->t1 = (double)g * step;
    tot->missed = tot->runs - tot->met;
    if (res)
        for (size_t i = 0; i < n; i++) {
            res[i].over = clean_container_s(res[i].over * step);
            tot->over += res[i].over;
            tot->under += res[i].under;
        }
    plan_reserved_free(&pr);
    ctx_free(&c);
    return 0;
}
