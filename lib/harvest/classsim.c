/* classsim — the month simulator of class-aware harvesting and its input
 * readers (see classsim.h).  Sized for hundreds of tenants, millions of jobs
 * and tens of thousands of ticks: per tick every tenant's running batches
 * are scanned once, and each job that places containers scans the tenants
 * once.  A saturated month keeps tens of thousands of jobs waiting: a tick
 * finds the few whose visit can act through an index (key_next), and
 * Algorithm 1's class rooms are computed once while the classes do not
 * change (sim_rooms), so its cost follows the placements, not the queue. */
#include "harvest/classsim.h"
#include "harvest/tenantio.h"
#include "base/diag.h"
#include "base/keytab.h"
#include "base/group.h"
#include "base/keyset.h"
#include "base/rng.h"
#include "base/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const cs_tenant_keys[] = {"tenant", "class", "avg", "peak", NULL};
const char *const cs_series_keys[] = {"tenant", "t", "util", NULL};

/* ---- readers --------------------------------------------------------------------- */

static int cmp_tenant_name(const void *a, const void *b)
{
    /* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): tenant names are never NULL: the reader refuses a row without one */
    return strcmp(((const struct cs_tenant *)a)->name, ((const struct cs_tenant *)b)->name);
}

static long tenant_find(struct cs_tenant *t, size_t n, const char *name)
{
    struct cs_tenant key = {.name = (char *)name};
    struct cs_tenant *f = n ? bsearch(&key, t, n, sizeof *t, cmp_tenant_name) : NULL;
    return f ? f - t : -1;
}

static long class_find(const struct cp_class *cls, size_t ncls, const char *name)
{
    for (size_t i = 0; i < ncls; i++)
        if (strcmp(cls[i].name, name) == 0)
            return (long)i;
    return -1;
}

int cs_read_tenants(const char *path, const struct csv_dialect *d, const struct cp_class *cls, size_t ncls,
                    const char *classes_path, double uscale, struct cs_tenant **out, size_t *nout)
{
    int st;
    *out = NULL;
    *nout = 0;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int ct_, cc, ca, cpk;
    if (csvr_require_cols(r, "tenant", &ct_, "class", &cc, "avg", &ca, "peak", &cpk, (char *)NULL) < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    struct cs_tenant *t = NULL;
    size_t n = 0, cap = 0;
    keyset *seen = keyset_new();
    while (csvr_next(r) > 0) {
        const char *name = csvr_field_required(r, ct_, NULL);
        const char *cname = name ? csvr_field_required(r, cc, NULL) : NULL;
        long ci = -1;
        double a, pk;
        if (cname && (ci = class_find(cls, ncls, cname)) < 0)
            csvr_fail(r, "class '%s' is not in --classes %s", cname, classes_path);
        if (ci < 0 || csvr_get_double(r, ca, &a, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
            csvr_get_double(r, cpk, &pk, CSVR_REQUIRED | CSVR_NONNEG) < 0 || !keytab_row(seen, r, ct_)) {
            if (csvr_skip(r))
                continue;
            break;
        }
        t = xgrow(t, &cap, n + 1, sizeof *t);
        memset(&t[n], 0, sizeof *t);
        t[n].avg = a / uscale;
        t[n].peak = pk / uscale;
        t[n].name = xstrdup(name);
        t[n].cls = (int)ci;
        t[n].servers = 1;
        n++;
    }
    keyset_free(seen);
    st = csvr_status(r);
    csvr_close(r);
    if (n > 1)
        qsort(t, n, sizeof *t, cmp_tenant_name);
    *out = t;
    *nout = n;
    return st;
}

int cs_read_servers(const char *path, const struct csv_dialect *d, struct cs_tenant *t, size_t n,
                    size_t *unlisted, const char **first)
{
    tenant_servers *ts = NULL; /* tenantclass's --servers reader: one rule for bad and duplicate rows */
    int st = tenant_servers_load(path, d, &ts);
    *unlisted = 0;
    *first = NULL;
    for (size_t i = 0; st == SLK_OK && i < n; i++) {
        double s = tenant_servers_lookup(ts, t[i].name);
        if (s >= 0) {
            t[i].servers = s;
        } else if (!(*unlisted)++) {
            *first = t[i].name;
        }
    }
    tenant_servers_free(ts);
    return st;
}

/* one series row's tenant, time and utilization; -1 (reported) on a bad row */
static int series_row(csvr *r, int ct_, int ctime, int cu, double umax, const char **name, double *tt, double *u)
{
    if (!(*name = csvr_field_required(r, ct_, "tenant")))
        return -1;
    if (csvr_get_time(r, ctime, tt, CSVR_REQUIRED) < 0 || csvr_get_double(r, cu, u, CSVR_REQUIRED | CSVR_NONNEG) < 0)
        return -1;
    if (*u > umax)
        return csvr_fail(r, "column 'util': %g is above %g", *u, umax);
    return 0;
}

/* put u at tick ki of tenant tn (a growable array; cap counts its ticks while loading) */
static void series_put(struct cs_tenant *tn, long ki, double u)
{
    if ((size_t)ki >= tn->cap) {
        size_t ncap = tn->cap ? tn->cap : 1024;
        while (ncap <= (size_t)ki)
            ncap *= 2;
        tn->u = xreallocarray(tn->u, ncap, sizeof *tn->u);
        for (size_t q = tn->cap; q < ncap; q++)
            tn->u[q] = -1;
        tn->cap = ncap;
    }
    tn->u[ki] = u;
}

/* every tenant's grid to nk ticks, gaps held at the last value (before the
 * first sample: the first) */
static int series_fill(const char *path, struct cs_tenant *t, size_t n, long nk)
{
    for (size_t i = 0; i < n; i++) {
        if (!t[i].u) {
            slk_error_at(path, 0, "tenant '%s' has no series", t[i].name);
            return SLK_EDATA;
        }
        if (t[i].cap < (size_t)nk) {
            t[i].u = xreallocarray(t[i].u, (size_t)nk, sizeof *t[i].u);
            for (size_t q = t[i].cap; q < (size_t)nk; q++)
                t[i].u[q] = -1;
        }
        double first = -1;
        for (long q = 0; q < nk && first < 0; q++)
            first = t[i].u[q];
        double prev = first;
        for (long q = 0; q < nk; q++) {
            if (t[i].u[q] < 0)
                t[i].u[q] = prev;
            prev = t[i].u[q];
        }
        t[i].cap = 0; /* from here cap counts task slots */
    }
    return SLK_OK;
}

int cs_read_series(const char *path, const struct csv_dialect *d, double uscale, double step, struct cs_tenant *t,
                   size_t n, long *nticks, double *t0out)
{
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int ct_, ctime, cu;
    if (csvr_require_cols(r, "tenant", &ct_, "t", &ctime, "util", &cu, (char *)NULL) < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    double t0 = NAN, prev = -INFINITY; /* prev: the tenant's last sample time */
    long nk = 0, cur = -2, early = 0;
    group_iter g;
    group_begin(&g, "tenant", GROUP_STRICT);
    while (csvr_next(r) > 0) {
        const char *name;
        double tt, u;
        if (series_row(r, ct_, ctime, cu, uscale, &name, &tt, &u) < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        int gc = group_row(&g, r, name);
        if (gc == GROUP_ERROR)
            break;
        if (gc == 1) {
            cur = tenant_find(t, n, name);
            prev = -INFINITY;
            if (isnan(t0))
                /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): series_row sets tt when it returns 0 */
                t0 = floor(tt / step) * step + 0.0; /* + 0.0: a t of -0 is no "-0" in messages */
        }
        if (cur < 0)
            continue; /* not classified: not simulated */
        /* a tick holds its last sample by time, the replay starts at the
         * first: a tenant's rows out of time order would give a tick the
         * last by file order (and a later start), so they are a bad row */
        /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): series_row sets tt when it returns 0 */
        if (tt < prev) {
            csvr_fail(r,
                      "tenant '%s': time %.15g is before its previous sample (%.15g); "
                      "sort each tenant's rows by time",
                      name, tt, prev);
            if (csvr_skip(r))
                continue;
            break;
        }
        prev = tt;
        /* the first tick at or after the sample: a tick holds the last
         * sample at or before it (floor gave it the last one before the
         * next tick, up to a step in its future) */
        /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): series_row sets tt when it returns 0 */
        double k = ceil((tt - t0) / step - 1e-9);
        if (k < 0) { /* the replay starts with the first tenant's first sample */
            early++;
            continue;
        }
        if (k > 5000000) {
            csvr_fail(r, "time %.0f is more than 5 million ticks of %g s after the start of the replay (%.0f)", tt,
                      step, t0);
            break;
        }
        series_put(&t[cur], (long)k, u / uscale);
        if ((long)k + 1 > nk)
            nk = (long)k + 1;
    }
    st = csvr_status(r);
    group_end(&g);
    csvr_close(r);
    if (st)
        return st;
    if (early)
        slk_warn_at(path, 0, "%ld samples before the first tenant's first sample (%.0f) are not replayed", early, t0);
    st = series_fill(path, t, n, nk);
    *nticks = nk;
    *t0out = t0;
    return st;
}

int cs_replay_window(const char *path, struct cs_tenant *t, size_t n, long *nticks, double t0, double step,
                     double split, long *skipped)
{
    *skipped = 0;
    long ks = isnan(split) ? *nticks / 2 : (long)ceil((split - t0) / step - 1e-9);
    if (ks <= 0 || ks >= *nticks) {
        slk_error_at(path, 0,
                     "--split %.0f leaves nothing to replay or no history (the series spans %.0f to %.0f); "
                     "use --sample in to replay it all",
                     isnan(split) ? t0 + (double)ks * step : split, t0, t0 + (double)*nticks * step);
        return SLK_EDATA;
    }
    for (size_t i = 0; i < n; i++)
        memmove(t[i].u, t[i].u + ks, (size_t)(*nticks - ks) * sizeof *t[i].u);
    *nticks -= ks;
    *skipped = ks;
    return SLK_OK;
}

void cs_tenants_free(struct cs_tenant *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(t[i].name);
        free(t[i].u);
        free(t[i].run);
    }
    free(t);
}

/* ---- the job stream ------------------------------------------------------------ */

void cs_stream_make(const struct cp_params *p, const struct cs_tenant *t, size_t n, long nticks, double step,
                    long njobs, double load, double tasks_mean, double never_seen, uint64_t seed,
                    struct cs_stream *s)
{
    memset(s, 0, sizeof *s);
    s->span = (double)nticks * step;
    double reserve_cores = ceil(p->reserve * p->cores - 1e-9), usum = 0, srvsum = 0;
    for (size_t i = 0; i < n; i++) {
        double h = 0;
        /* a running mean, so that a flat series' is its value (a sum of 101
         * ticks of 0.4 over 101 is 0.3999999999999992) */
        struct stats_acc ua = {0};
        for (long k = 0; k < nticks; k++) {
            /* the pool's free containers, rounded as tenant_free rounds them */
            double prim = ceil(t[i].servers * t[i].u[k] * p->cores - 1e-9);
            double allow = t[i].servers * (p->cores - reserve_cores) - prim;
            h += allow > 0 ? floor(allow + 1e-9) : 0;
            stats_acc_add(&ua, t[i].u[k]);
        }
        s->harvest += h / (double)nticks;
        usum += t[i].servers * ua.mean;
        srvsum += t[i].servers;
    }
    s->primary_util = srvsum > 0 ? usum / srvsum : NAN;
    s->mean_dur = (115 + 303 + 1216.5) / 3; /* the three duration ranges below */
    long nj = njobs ? njobs : (long)floor(load * s->harvest * 0.9 * s->span / (tasks_mean * s->mean_dur) + 0.5);
    if (nj < 1)
        nj = 1;
    if (nj > INT32_MAX)
        nj = INT32_MAX;
    rng r;
    rng_seed_key(&r, seed, "sim-jobs");
    struct cs_job *jobs = xcalloc((size_t)nj, sizeof *jobs);
    double gap = 0.9 * s->span / (double)nj, tsub = 0;
    for (long j = 0; j < nj; j++) {
        tsub += rng_exp(&r, gap);
        struct cs_job *jb = &jobs[j];
        jb->submit = fmin(tsub, 0.9 * s->span);
        double u = rng_uniform(&r);
        /* task durations: short 57-173 s, medium 173-433 s, long 433-2000 s */
        jb->dur = u < 1.0 / 3 ? 57 + 116 * rng_uniform(&r)
                  : u < 2.0 / 3 ? 173 + 260 * rng_uniform(&r)
                                : 433 + 1567 * rng_uniform(&r);
        jb->tasks = 1 + (long)floor(rng_exp(&r, tasks_mean - 1 > 0 ? tasks_mean - 1 : 1e-9));
        jb->last = rng_uniform(&r) < never_seen ? -1 : jb->dur * (0.9 + 0.2 * rng_uniform(&r));
        jb->type = cp_job_type(p, jb->last);
    }
    s->jobs = jobs;
    s->nj = nj;
}

/* ---- the simulator --------------------------------------------------------------- */

/* one policy's run over the month: the tenants, the jobs, the class table
 * and the per-tick scratch arrays */
struct simrun {
    const struct cp_params *p;
    double step;
    int aware;
    struct cs_tenant *tn;
    size_t nt;
    struct cs_job *jobs;
    size_t nj;
    struct cp_class *cls;
    size_t ncls;
    rng r;
    double reserve_cores;
    long killed, run;
    size_t next_job;
    size_t nroom;           /* tenants with freec >= 1: none, no candidates (saturation) */
    /* The jobs a tick must visit, indexed (a saturated month keeps tens of
     * thousands waiting, and a tick visits them oldest first): key[j] is
     * KEY_NONE when a visit would do nothing whatever the tick (not
     * arrived, no pending container), 0 when job j holds a label and has
     * pending containers, else its pending containers.  tree[v x
     * CP_NTYPES + type] is the least key of the jobs of that type under
     * node v (root 1; leaf tsize + b is block b of KEY_BLOCK jobs). */
    int32_t *key, *tree;
    size_t tsize;
    size_t *cand, *chosen;
    double *roomh, *freec, *clsum, *clsrv;
    long *got, *clrun;
    char *inlabel;          /* per class: in the label of the job being placed */
    /* Algorithm 1's class rooms per job type (cp_rooms), kept while the
     * classes do not change: every waiting job of a saturated tick asks
     * again, and the classes change only at the tick (sim_class_now) and
     * when a job books containers (sim_label), which clear roomok */
    double *croom, *cwr; /* [type x ncls] */
    double csum[CP_NTYPES];
    int roomok[CP_NTYPES];
    size_t *ccand;          /* cp_choose's scratch */
    size_t *labels;         /* label slots of CS_MAX_CHOSEN class indices */
    int32_t *freeslot;      /* free label slots (a stack) */
    size_t nlabels, nfree, labcap, freecap;
};

#define KEY_NONE INT32_MAX
#define KEY_BLOCK 16

static int32_t job_key(const struct cs_job *jb)
{
    if (jb->pending <= 0)
        return KEY_NONE;
    if (jb->decided)
        return 0;
    return jb->pending < KEY_NONE ? (int32_t)jb->pending : KEY_NONE - 1;
}

/* job j's key after a change of its pending containers or label: the
 * least keys of its type up the tree, as far as they change */
static void key_update(struct simrun *S, size_t j)
{
    int32_t kj = job_key(&S->jobs[j]), old = S->key[j];
    if (kj == old)
        return;
    S->key[j] = kj;
    size_t t = (size_t)S->jobs[j].type, v = S->tsize + j / KEY_BLOCK;
    int32_t *m = S->tree;
    if (kj < old) {
        for (; v >= 1 && m[v * CP_NTYPES + t] > kj; v /= 2)
            m[v * CP_NTYPES + t] = kj;
        return;
    }
    if (m[v * CP_NTYPES + t] < old)
        return; /* another job of the block holds the least key */
    size_t b = j / KEY_BLOCK, end = (b + 1) * KEY_BLOCK < S->nj ? (b + 1) * KEY_BLOCK : S->nj;
    int32_t least = KEY_NONE;
    for (size_t q = b * KEY_BLOCK; q < end; q++)
        if (S->key[q] < least && (size_t)S->jobs[q].type == t)
            least = S->key[q];
    m[v * CP_NTYPES + t] = least;
    for (v /= 2; v >= 1; v /= 2) {
        int32_t l = m[2 * v * CP_NTYPES + t], r = m[(2 * v + 1) * CP_NTYPES + t];
        if (m[v * CP_NTYPES + t] == (l < r ? l : r))
            break;
        m[v * CP_NTYPES + t] = l < r ? l : r;
    }
}

/* some job under node v has a key at most lim[its type] */
static int key_hit(const struct simrun *S, size_t v, const int32_t *lim)
{
    for (int t = 0; t < CP_NTYPES; t++)
        if (S->tree[v * CP_NTYPES + (size_t)t] <= lim[t])
            return 1;
    return 0;
}

/* the first job of block b from job j on with a key at most lim[its type], or nj */
static size_t key_scan(const struct simrun *S, size_t b, size_t j, const int32_t *lim)
{
    size_t end = (b + 1) * KEY_BLOCK < S->nj ? (b + 1) * KEY_BLOCK : S->nj;
    for (size_t q = j; q < end; q++)
        if (S->key[q] <= lim[S->jobs[q].type])
            return q;
    return S->nj;
}

/* the first job from job j on with a key at most lim[its type], or nj */
static size_t key_next(const struct simrun *S, size_t j, const int32_t *lim)
{
    if (j >= S->nj)
        return S->nj;
    size_t q = key_scan(S, j / KEY_BLOCK, j, lim);
    if (q < S->nj || j / KEY_BLOCK + 1 >= S->tsize)
        return q;
    size_t v = S->tsize + j / KEY_BLOCK + 1; /* the next blocks: right along the tree, then down */
    while (!key_hit(S, v, lim)) {
        while (v & 1)
            v >>= 1;
        if (v == 0)
            return S->nj;
        v++;
    }
    while (v < S->tsize)
        v = key_hit(S, 2 * v, lim) ? 2 * v : 2 * v + 1;
    return key_scan(S, v - S->tsize, (v - S->tsize) * KEY_BLOCK, lim);
}

/* free containers of tenant t at tick k (< 0: over its allowance).  The
 * pool's primary usage is rounded up to whole cores once for the pool
 * (servers x u x cores), not per server: the servers of a tenant do not
 * cross a core boundary in lockstep. */
static double tenant_free(const struct simrun *S, const struct cs_tenant *t, long k)
{
    double prim = ceil(t->servers * t->u[k] * S->p->cores - 1e-9);
    double allow = t->servers * (S->p->cores - S->reserve_cores) - prim;
    if (allow < 0)
        allow = 0;
    return floor(allow + 1e-9) - (double)t->ntask;
}

/* Spread n containers over candidates cand[0..nc) in proportion to room[]
 * (n <= tot, tot the sum of their rooms in candidate order), by systematic
 * sampling: points (j + u) tot / n on the cumulative room; a candidate gets
 * the points in its stretch, never more than its room.  Writes the counts
 * to got[0..q) and returns q, the candidates visited (those after it get
 * none). */
static size_t spread(rng *r, const size_t *cand, size_t nc, const double *room, double tot, long n, long *got)
{
    double stepw = tot / (double)n, x = rng_uniform(r) * stepw, lo = 0;
    long placed = 0;
    size_t q;
    for (q = 0; q < nc && placed < n; q++) {
        double hi = lo + room[cand[q]];
        long g = 0;
        while (placed < n && x < hi) {
            g++;
            placed++;
            x += stepw;
        }
        if (g > (long)room[cand[q]])
            g = (long)room[cand[q]];
        got[q] = g;
        lo = hi;
    }
    return q;
}

/* a label slot for a job that arrives (class-aware runs only) */
static int32_t slot_take(struct simrun *S)
{
    if (S->nfree > 0)
        return S->freeslot[--S->nfree];
    S->labels = xgrow(S->labels, &S->labcap, (S->nlabels + 1) * CS_MAX_CHOSEN, sizeof *S->labels);
    return (int32_t)S->nlabels++;
}

static void slot_give(struct simrun *S, int32_t slot)
{
    S->freeslot = xgrow(S->freeslot, &S->freecap, S->nfree + 1, sizeof *S->freeslot);
    S->freeslot[S->nfree++] = slot;
}

/* 1. finish containers whose time is up (tick k, time now) */
static void sim_finish(struct simrun *S, long k, double now)
{
    for (size_t i = 0; i < S->nt; i++) {
        struct cs_tenant *t = &S->tn[i];
        size_t w = 0;
        for (size_t q = 0; q < t->nrun; q++) {
            struct cs_batch *b = &t->run[q];
            if (b->end <= k) {
                struct cs_job *jb = &S->jobs[b->job];
                jb->running -= b->count;
                jb->done += b->count;
                if (jb->done == jb->tasks) {
                    jb->finish = now;
                    if (jb->slot >= 0) /* its label is not read again */
                        slot_give(S, jb->slot);
                    jb->slot = -1;
                }
                t->ntask -= b->count;
                if (t->cls >= 0)
                    S->clrun[t->cls] -= b->count;
            } else {
                t->run[w++] = *b;
            }
        }
        t->nrun = w;
    }
}

/* 2. the primary grows: kill the youngest containers over the allowance;
 * sets each tenant's free containers */
static void sim_kill(struct simrun *S, long k)
{
    S->nroom = 0;
    for (size_t i = 0; i < S->nt; i++) {
        struct cs_tenant *t = &S->tn[i];
        double f = tenant_free(S, t, k);
        while (f < 0 && t->nrun > 0) {
            struct cs_batch *b = &t->run[t->nrun - 1];
            long kill = (long)fmin((double)b->count, ceil(-f));
            struct cs_job *jb = &S->jobs[b->job];
            jb->running -= kill;
            jb->pending += kill;
            key_update(S, (size_t)b->job);
            S->killed += kill;
            t->ntask -= kill;
            if (t->cls >= 0)
                S->clrun[t->cls] -= kill;
            b->count -= kill;
            if (b->count == 0)
                t->nrun--;
            f += (double)kill;
        }
        S->freec[i] = f > 0 ? f : 0;
        S->nroom += S->freec[i] >= 1;
    }
}

/* the classes' current utilization (server-weighted) and containers in use at tick k */
static void sim_class_now(struct simrun *S, long k)
{
    memset(S->clsum, 0, S->ncls * sizeof *S->clsum);
    memset(S->clsrv, 0, S->ncls * sizeof *S->clsrv);
    for (size_t i = 0; i < S->nt; i++)
        if (S->tn[i].cls >= 0) {
            S->clsum[S->tn[i].cls] += S->tn[i].servers * S->tn[i].u[k];
            S->clsrv[S->tn[i].cls] += S->tn[i].servers;
        }
    for (size_t c = 0; c < S->ncls; c++) {
        S->cls[c].current = S->clsrv[c] > 0 ? S->clsum[c] / S->clsrv[c] : S->cls[c].avg;
        S->cls[c].used = (double)S->clrun[c];
    }
    memset(S->roomok, 0, sizeof S->roomok);
}

/* the tenants job jb may use at tick k and their room; returns how many
 * (cand[], roomh[]) and their total room in *tot */
static size_t sim_candidates(struct simrun *S, const struct cs_job *jb, int labelled, long k, double *tot)
{
    size_t nc = 0;
    *tot = 0;
    if (S->nroom == 0) /* saturated: no tenant has a free container */
        return 0;
    if (labelled)
        for (int32_t q = 0; q < jb->nchosen; q++)
            S->inlabel[S->labels[(size_t)jb->slot * CS_MAX_CHOSEN + (size_t)q]] = 1;
    for (size_t i = 0; i < S->nt; i++) {
        const struct cs_tenant *t = &S->tn[i];
        if (S->freec[i] < 1)
            continue;
        if (labelled) {
            if (t->cls < 0 || !S->inlabel[t->cls])
                continue;
            /* the tenant's own room for this job type, from its history */
            struct cp_class one = {.avg = t->avg, .peak = t->peak, .current = t->u[k], .servers = t->servers,
                                   .used = (double)t->ntask};
            S->roomh[i] = floor(fmin(S->freec[i], cp_room(S->p, jb->type, &one)));
        } else {
            S->roomh[i] = floor(S->freec[i]);
        }
        if (S->roomh[i] >= 1) {
            S->cand[nc++] = i;
            *tot += S->roomh[i];
        }
    }
    if (labelled)
        for (int32_t q = 0; q < jb->nchosen; q++)
            S->inlabel[S->labels[(size_t)jb->slot * CS_MAX_CHOSEN + (size_t)q]] = 0;
    return nc;
}

/* the classes' rooms for a job type (cp_rooms), unless still valid */
static void sim_rooms(struct simrun *S, int type)
{
    if (!S->roomok[type]) {
        S->csum[type] = cp_rooms(S->p, type, S->cls, S->ncls, &S->croom[(size_t)type * S->ncls],
                                 &S->cwr[(size_t)type * S->ncls]);
        S->roomok[type] = 1;
    }
}

/* Algorithm 1 for job jb at the size of its pending containers: on a
 * choice the job's label is set and the containers booked */
static void sim_label(struct simrun *S, struct cs_job *jb)
{
    size_t nch = 0, ty = (size_t)jb->type;
    double *room = &S->croom[ty * S->ncls], *wr = &S->cwr[ty * S->ncls];
    sim_rooms(S, jb->type);
    int out = cp_choose((double)jb->pending, room, wr, S->csum[ty], S->ncls, &S->r, S->ccand, S->chosen, &nch,
                        NULL);
    if (out == CP_NONE)
        return;
    jb->decided = 1;
    jb->nchosen = (int32_t)(nch < CS_MAX_CHOSEN ? nch : CS_MAX_CHOSEN);
    memcpy(&S->labels[(size_t)jb->slot * CS_MAX_CHOSEN], S->chosen, (size_t)jb->nchosen * sizeof *S->chosen);
    cp_book(S->p, jb->type, (double)jb->pending, S->cls, S->chosen, nch);
    memset(S->roomok, 0, sizeof S->roomok); /* the chosen classes' used grew */
}

/* 4. place job jb's pending containers at tick k */
static void sim_place_job(struct simrun *S, struct cs_job *jb, long k)
{
    if (S->aware && !jb->decided)
        sim_label(S, jb);
    /* a job for which Algorithm 1 picks no class names no label, and the
     * scheduler's default policy places it (seed 003 §5) */
    int labelled = S->aware && jb->decided;
    double tot;
    size_t nc = sim_candidates(S, jb, labelled, k, &tot);
    if (labelled && nc == 0) {
        jb->decided = 0; /* its classes are full: ask Algorithm 1 again next tick */
        return;
    }
    if (nc == 0)
        return;
    long n = jb->pending < (long)tot ? jb->pending : (long)tot;
    size_t nv = spread(&S->r, S->cand, nc, S->roomh, tot, n, S->got);
    long dur_ticks = (long)ceil(jb->dur / S->step - 1e-9);
    if (dur_ticks < 1)
        dur_ticks = 1;
    for (size_t q = 0; q < nv; q++) {
        if (S->got[q] == 0)
            continue;
        struct cs_tenant *t = &S->tn[S->cand[q]];
        t->run = xgrow(t->run, &t->cap, t->nrun + 1, sizeof *t->run);
        t->run[t->nrun++] = (struct cs_batch){(int32_t)(jb - S->jobs), (int32_t)(k + dur_ticks), S->got[q]};
        t->ntask += S->got[q];
        int had = S->freec[S->cand[q]] >= 1;
        S->freec[S->cand[q]] -= (double)S->got[q];
        S->nroom -= had && S->freec[S->cand[q]] < 1;
        if (t->cls >= 0)
            S->clrun[t->cls] += S->got[q];
        jb->pending -= S->got[q];
        jb->running += S->got[q];
        S->run += S->got[q];
    }
}

/* one tick: finish, kill, arrivals, then place pending containers, oldest
 * job first.  The jobs visited are those whose key says a visit can act:
 * while some tenant has a free container, every job with pending
 * containers; once none has (saturation), under YARN-PT none (no job can
 * place one), and in a class-aware run the jobs that hold a label (the
 * visit drops it) and those whose pending containers fit in the sum of
 * their type's class rooms (only they get a choice, and draws, from
 * Algorithm 1: cp_choose).  The others would find no room and draw
 * nothing, as before the index. */
static void sim_tick(struct simrun *S, long k)
{
    double now = (double)k * S->step;
    sim_finish(S, k, now);
    sim_kill(S, k);
    while (S->next_job < S->nj && S->jobs[S->next_job].submit <= now) {
        struct cs_job *jb = &S->jobs[S->next_job];
        jb->pending = jb->tasks;
        if (S->aware)
            jb->slot = slot_take(S);
        key_update(S, S->next_job++);
    }
    if (S->aware)
        sim_class_now(S, k);
    const int32_t any[CP_NTYPES] = {KEY_NONE - 1, KEY_NONE - 1, KEY_NONE - 1};
    int32_t fit[CP_NTYPES];
    for (size_t j = 0;; j++) {
        const int32_t *lim = any;
        if (S->nroom == 0) {
            if (!S->aware)
                break;
            for (int t = 0; t < CP_NTYPES; t++) {
                sim_rooms(S, t);
                fit[t] = S->csum[t] < KEY_NONE - 1 ? (int32_t)floor(S->csum[t]) : KEY_NONE - 1;
            }
            lim = fit;
        }
        j = key_next(S, j, lim);
        if (j >= S->nj)
            break;
        sim_place_job(S, &S->jobs[j], k);
        key_update(S, j);
    }
}

static void sim_result(const struct simrun *S, struct cs_result *res)
{
    double *times = xmalloc((S->nj ? S->nj : 1) * sizeof *times);
    size_t nf = 0;
    double sum = 0;
    for (size_t j = 0; j < S->nj; j++)
        if (S->jobs[j].finish >= 0) {
            times[nf] = S->jobs[j].finish - S->jobs[j].submit;
            sum += times[nf++];
        }
    res->finished = (long)nf;
    res->tasks_run = S->run;
    res->killed = S->killed;
    res->mean = nf ? sum / (double)nf : NAN;
    stats_sort(times, nf);
    res->p50 = stats_percentile_sorted(times, nf, 50);
    res->p95 = stats_percentile_sorted(times, nf, 95);
    res->waiting = (long)S->nj - (long)nf;
    free(times);
}

void cs_simulate(const struct cp_params *p, double step, uint64_t seed, int aware, struct cs_tenant *t, size_t n,
                 long nticks, struct cs_job *jobs, size_t nj, struct cp_class *cls, size_t ncls,
                 struct cs_result *res)
{
    size_t nc = ncls ? ncls : 1;
    struct simrun S = {.p = p, .step = step, .aware = aware, .tn = t, .nt = n, .jobs = jobs, .nj = nj,
                       .cls = cls, .ncls = ncls, .reserve_cores = ceil(p->reserve * p->cores - 1e-9)};
    rng_seed_key(&S.r, seed, aware ? "sim-class-aware" : "sim-yarn-pt");
    for (size_t j = 0; j < nj; j++) {
        jobs[j].pending = jobs[j].running = jobs[j].done = 0;
        jobs[j].finish = -1;
        jobs[j].decided = 0;
        jobs[j].nchosen = 0;
        jobs[j].slot = -1;
    }
    for (size_t i = 0; i < n; i++)
        t[i].nrun = 0, t[i].ntask = 0;
    for (size_t c = 0; c < ncls; c++)
        cls[c].used = 0;
    S.tsize = 1;
    while (S.tsize * KEY_BLOCK < nj)
        S.tsize *= 2;
    S.key = xmalloc((nj ? nj : 1) * sizeof *S.key);
    for (size_t j = 0; j < nj; j++)
        S.key[j] = KEY_NONE;
    S.tree = xmalloc(2 * S.tsize * CP_NTYPES * sizeof *S.tree);
    for (size_t v = 0; v < 2 * S.tsize * CP_NTYPES; v++)
        S.tree[v] = KEY_NONE;
    S.roomh = xmalloc((n ? n : 1) * sizeof *S.roomh);
    S.freec = xmalloc((n ? n : 1) * sizeof *S.freec);
    S.cand = xmalloc((n ? n : 1) * sizeof *S.cand);
    S.got = xmalloc((n ? n : 1) * sizeof *S.got);
    S.clsum = xcalloc(nc, sizeof *S.clsum);
    S.clsrv = xcalloc(nc, sizeof *S.clsrv);
    S.clrun = xcalloc(nc, sizeof *S.clrun);
    S.chosen = xmalloc(nc * sizeof *S.chosen);
    S.inlabel = xcalloc(nc, 1);
    S.croom = xmalloc(CP_NTYPES * nc * sizeof *S.croom);
    S.cwr = xmalloc(CP_NTYPES * nc * sizeof *S.cwr);
    S.ccand = xmalloc(nc * sizeof *S.ccand);
    for (long k = 0; k < nticks; k++)
        sim_tick(&S, k);
    sim_result(&S, res);
    free(S.key);
    free(S.tree);
    free(S.freec);
    free(S.roomh);
    free(S.clsum);
    free(S.clsrv);
    free(S.cand);
    free(S.got);
    free(S.clrun);
    free(S.chosen);
    free(S.inlabel);
    free(S.croom);
    free(S.cwr);
    free(S.ccand);
    free(S.labels);
    free(S.freeslot);
}

void cs_write_results(csvw *w, const struct cs_stream *s, const struct cs_result *res, double uscale)
{
    static const char *const pname[2] = {"yarn-pt", "class-aware"};
    static const char *const hdr[] = {"policy", "jobs", "finished", "tasks_started", "tasks_killed", "mean_exec_s",
                                      "p50_exec_s", "p95_exec_s", "primary_util", NULL};
    csvw_header(w, hdr);
    for (int a = 0; a < 2; a++) {
        csvw_str(w, pname[a]);
        csvw_int(w, s->nj);
        csvw_int(w, res[a].finished);
        csvw_int(w, res[a].tasks_run);
        csvw_int(w, res[a].killed);
        csvw_num(w, res[a].mean);
        csvw_num(w, res[a].p50);
        csvw_num(w, res[a].p95);
        csvw_num(w, uscale > 1 ? s->primary_util * 100 : s->primary_util);
        csvw_end(w);
    }
}
