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

struct tagged {
    struct replay_run r;
    size_t i;
};

static int tagged_cmp(const void *a, const void *b)
{
    const struct tagged *x = a, *y = b;
    if (x->r.g0 != y->r.g0)
        return x->r.g0 < y->r.g0 ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

void replay_set_sort(struct replay_set *s)
{
    size_t n = s->nruns;
    if (n < 2)
        return;
    struct tagged *tmp = xcalloc(n, sizeof *tmp);
    for (size_t i = 0; i < n; i++) {
        tmp[i].r = s->runs[i];
        tmp[i].i = i;
    }
    qsort(tmp, n, sizeof *tmp, tagged_cmp);
    for (size_t i = 0; i < n; i++)
        s->runs[i] = tmp[i].r;
    free(tmp);
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

static const int64_t *order_key;
static int order_cmp(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (order_key[x] != order_key[y])
        return order_key[x] < order_key[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

struct rstate {
    long k;             /* skyline steps done */
    double debt, dem, g, alloc;
    double deadline, cutoff;
};

int replay_run(const struct replay_set *s, const struct replay_opts *o, struct replay_result *res,
               struct replay_totals *tot)
{
    memset(tot, 0, sizeof *tot);
    if (o->regime != REPLAY_STATIC && !o->plan)
        return -1;
    for (size_t i = 0; i < s->nruns; i++) {
        const struct replay_job *j = &s->jobs[s->runs[i].job];
        if (o->regime == REPLAY_STATIC && !(j->provisioned >= 0))
            return -1;
    }
    size_t n = s->nruns, nj = s->njobs;
    tot->runs = (long)n;
    if (n == 0)
        return 0;
    double step = s->step;
    struct rstate *rs = xcalloc(n, sizeof *rs);
    size_t *act = xcalloc(n, sizeof *act), nact = 0;
    double *jg = xcalloc(nj, sizeof *jg), *jdem = xcalloc(nj, sizeof *jdem), *jprev = xcalloc(nj, sizeof *jprev);
    long *jcnt = xcalloc(nj, sizeof *jcnt);
    int64_t *jstamp = xcalloc(nj, sizeof *jstamp);
    double *ue = xcalloc(n, sizeof *ue), *uc = xcalloc(n, sizeof *uc), *um = xcalloc(n, sizeof *um),
           *ux = xcalloc(n, sizeof *ux), *udsh = xcalloc(n, sizeof *udsh);
    size_t *uidx = xcalloc(n, sizeof *uidx);
    struct fill *uf = xcalloc(n, sizeof *uf);
    for (size_t i = 0; i < nj; i++)
        jstamp[i] = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        const struct replay_run *r = &s->runs[i];
        const struct replay_job *j = &s->jobs[r->job];
        double pstart = floor(r->first / j->period) * j->period;
        rs[i].deadline = pstart + j->d;
        rs[i].cutoff = rs[i].deadline + j->period;
        if (res) {
            res[i].start = o->start ? (double)o->start[i] * step : r->first;
            res[i].deadline = rs[i].deadline;
            res[i].finish = NAN;
            res[i].met = 0;
            res[i].over = res[i].under = 0;
        }
    }
    /* the order runs start in */
    int64_t *st = xcalloc(n, sizeof *st);
    size_t *ord = xcalloc(n, sizeof *ord);
    for (size_t i = 0; i < n; i++) {
        st[i] = o->start ? o->start[i] : s->runs[i].g0;
        ord[i] = i;
    }
    order_key = st;
    qsort(ord, n, sizeof *ord, order_cmp);
    dra *d = o->regime == REPLAY_PLAN_DRA ? dra_new(o->plan, &o->dra) : NULL;
    size_t next = 0;
    int64_t g = st[ord[0]];
    tot->t0 = (double)g * step;
    while (next < n || nact > 0) {
        double t = (double)g * step;
        while (next < n && st[ord[next]] <= g)
            act[nact++] = ord[next++];
        if (d)
            dra_expire(d, t);
        /* demands, and per-job totals */
        for (size_t a = 0; a < nact; a++) {
            size_t i = act[a];
            const struct replay_run *r = &s->runs[i];
            rs[i].dem = (rs[i].k < r->len ? r->use[rs[i].k] : 0) + rs[i].debt;
            if (jstamp[r->job] != g) {
                jstamp[r->job] = g;
                jdem[r->job] = 0;
                jcnt[r->job] = 0;
                jg[r->job] = -1;
            }
            jdem[r->job] += rs[i].dem;
            jcnt[r->job]++;
        }
        /* guarantees: per job, shared oldest first */
        double reserved_c = 0, reserved_m = 0, used_c = 0, used_m = 0;
        for (size_t a = 0; a < nact; a++) {
            size_t i = act[a];
            const struct replay_run *r = &s->runs[i];
            const struct replay_job *j = &s->jobs[r->job];
            size_t jb = r->job;
            if (o->regime == REPLAY_STATIC) {
                rs[i].g = j->provisioned;
                reserved_c += j->provisioned * r->cores;
                reserved_m += j->provisioned * r->mem_mb;
            } else {
                if (jg[jb] < 0) {
                    if (d) {
                        struct dra_decision dec;
                        double used = jdem[jb] < jprev[jb] ? jdem[jb] : jprev[jb];
                        dra_sample(d, j->name, t, used, jdem[jb] - used, &dec);
                        jg[jb] = (double)dec.alloc;
                    } else {
                        int64_t c = 0;
                        plan_alloc_at(o->plan, j->name, t, &c, NULL, NULL);
                        jg[jb] = (double)c;
                    }
                    jprev[jb] = jg[jb];
                }
                jcnt[jb]--;
                double give = jcnt[jb] == 0 ? jg[jb] : (rs[i].dem < jg[jb] ? rs[i].dem : jg[jb]);
                rs[i].g = give;
                jg[jb] -= give;
            }
            rs[i].alloc = rs[i].dem < rs[i].g ? rs[i].dem : rs[i].g;
            if (rs[i].g > rs[i].dem && res)
                res[i].over += (rs[i].g - rs[i].dem) * step;
            used_c += rs[i].alloc * r->cores;
            used_m += rs[i].alloc * r->mem_mb;
        }
        /* guarantees beyond the cluster (static quotas on a small cluster)
         * are squeezed in proportionally */
        double fc = used_c > o->cap_cores ? o->cap_cores / used_c : 1, fm = used_m > o->cap_mem ? o->cap_mem / used_m : 1;
        double f = fc < fm ? fc : fm;
        if (f < 1) {
            used_c = used_m = 0;
            for (size_t a = 0; a < nact; a++) {
                size_t i = act[a];
                rs[i].alloc *= f;
                used_c += rs[i].alloc * s->runs[i].cores;
                used_m += rs[i].alloc * s->runs[i].mem_mb;
            }
            tot->squeezed_steps++;
        }
        if (o->regime != REPLAY_STATIC) /* on absolute time: one-offs only in their own cycle */
            plan_reserved_at(o->plan, t, &reserved_c, &reserved_m);
        /* idle capacity to the runs with unmet demand */
        size_t nu = 0;
        if (o->idle) {
            double idle_c = o->cap_cores - used_c, idle_m = o->cap_mem - used_m;
            for (size_t a = 0; a < nact; a++) {
                size_t i = act[a];
                double e = rs[i].dem - rs[i].alloc;
                if (e > 1e-12) {
                    ue[nu] = e;
                    uc[nu] = s->runs[i].cores;
                    um[nu] = s->runs[i].mem_mb;
                    uidx[nu++] = i;
                }
            }
            if (nu && idle_c > 0 && idle_m > 0) {
                waterfill(nu, ue, uc, um, idle_c, idle_m, o->cap_cores, o->cap_mem, udsh, uf, ux);
                for (size_t u = 0; u < nu; u++)
                    rs[uidx[u]].alloc += ux[u];
            }
        }
        /* progress */
        size_t keep = 0;
        for (size_t a = 0; a < nact; a++) {
            size_t i = act[a];
            const struct replay_run *r = &s->runs[i];
            struct rstate *x = &rs[i];
            double debt = x->dem - x->alloc;
            if (debt < 1e-9 * (x->dem > 1 ? x->dem : 1))
                debt = 0;
            x->debt = debt;
            tot->used_core_s += x->alloc * r->cores * step;
            x->k++;
            if (x->k == r->len && res)
                res[i].under = debt * step;
            double tend = t + step;
            if (x->k >= r->len && debt == 0) {
                if (res) {
                    res[i].finish = tend;
                    res[i].met = tend <= x->deadline + 1e-9;
                }
                if (tend <= x->deadline + 1e-9)
                    tot->met++;
                continue;
            }
            if (tend >= x->cutoff) {
                tot->unfinished++;
                continue;
            }
            act[keep++] = i;
        }
        nact = keep;
        if (reserved_c > tot->peak_cores)
            tot->peak_cores = reserved_c;
        if (reserved_m > tot->peak_mem)
            tot->peak_mem = reserved_m;
        tot->reserved_core_s += reserved_c * step;
        g++;
        if (nact == 0 && next < n && o->regime == REPLAY_STATIC && st[ord[next]] > g)
            g = st[ord[next]]; /* nothing is reserved between runs in static */
    }
    tot->t1 = (double)g * step;
    tot->missed = tot->runs - tot->met;
    if (res)
        for (size_t i = 0; i < n; i++) {
            tot->over += res[i].over;
            tot->under += res[i].under;
        }
    if (d) {
        dra_get_stats(d, &tot->dra);
        dra_free(d);
    }
    free(st), free(ord);
    free(rs), free(act), free(jg), free(jdem), free(jprev), free(jcnt), free(jstamp);
    free(ue), free(uc), free(um), free(ux), free(udsh), free(uidx), free(uf);
    return 0;
}
