/* jockey — the Jockey control loop (see jockey.h).
 *
 * Tables and utility curves are loaded once, keyed by job (the key "" holds
 * rows without a job column, used for every job without its own).  Per job
 * the controller keeps its first sample time and its allocation state; a
 * sample costs one hash lookup and a few model evaluations (a binary search
 * over the allocation range for Amdahl, a scan of the table's allocations).
 * The simulator's predictions are kept while the job's stages stay where
 * they were (struct sim_memo), so a long task costs a lookup per decision.
 */
#include "jockey/jockey.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/keyset.h"
#include "base/stats.h"
#include "jockey/jobsim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const jockey_table_keys[] = {"job", "progress", "alloc", "remaining", NULL};
const char *const jockey_utility_keys[] = {"job", "t", "utility", NULL};
const char *const jockey_history_keys[] = {"job", "run", "t", "progress", "alloc", NULL};

/* ---- models ---------------------------------------------------------------------- */

struct table {              /* rows of one key sorted by (alloc, p) */
    double *alloc, *p, *rem;
    size_t n, cap;
    size_t *first;          /* [nalloc + 1]: row index of each distinct alloc */
    size_t nalloc;
    int in_range; /* 1: an allocation lies in [min_alloc, max_alloc] (else no decision) */
};

struct curve {
    double *t, *u;
    size_t n, cap;
};

struct jstate {
    double first, A, last_dec, last_p;
    size_t table, curve;    /* SIZE_MAX: none */
    const struct jobsim_model *model; /* learned job model, or NULL */
};

/* The simulator's predictions at one state: jobsim_simulate is a function
 * of (model, done[], a) alone (its seed is fixed), and while no task of the
 * job ends, every decision asks the same candidates again (a task that
 * runs for days is asked about at every interval). */
struct sim_memo {
    const struct jobsim_model *m; /* NULL: empty */
    double *done;                 /* [m->nst] */
    size_t cap, n;
    double a[64], c[64];
};

struct jockey {
    struct jockey_opts o;
    keyset *tkeys, *ckeys; /* job ("" for rows without one) -> its table, curve */
    keyset *jobs;          /* job (or job and run) -> its state in st */
    struct table *tables;
    size_t ntab, tabcap;
    struct curve *curves;
    size_t ncur, curcap;
    struct jstate *st;
    size_t stcap;
    struct jockey_stats stats;
    struct jobsim_set models;   /* learned from task records (none: empty) */
    const double *done;         /* the current sample's per-stage state */
    size_t nst;
    struct sim_memo memo;
};

void jockey_opts_default(struct jockey_opts *o)
{
    memset(o, 0, sizeof *o);
    o->penalty = 1;
    o->slack = 1.2;
    o->alpha = 0.5;
    o->dead_zone = 0.1;
    o->min_alloc = 1;
    o->max_alloc = 1000;
    o->grid = 0.01;
    o->reps = 30;
    o->seed = 1;
}

struct trow {
    double a, p, r;
    long line; /* where the row was read */
};

static int trow_cmp(const void *x, const void *y)
{
    const struct trow *a = x, *b = y;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return (a->p > b->p) - (a->p < b->p);
}

static int load_table(jockey *j, const char *path)
{
    int st;
    csvr *r = csvr_open_with(path, j->o.dialect ? j->o.dialect("table") : NULL, 0, &st);
    if (!r)
        return st;
    int cj = csvr_col(r, "job"), cp, ca, cr;
    if (csvr_require_cols(r, "progress", &cp, "alloc", &ca, "remaining", &cr, (char *)NULL) < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    struct trow **rows = NULL;
    size_t *nrows = NULL, *caps = NULL, rcap = 0, ccap = 0, ncap = 0;
    while (csvr_next(r) > 0) {
        const char *job = cj >= 0 ? csvr_field(r, cj) : NULL;
        struct trow x;
        if (csvr_get_double(r, cp, &x.p, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
            csvr_get_double(r, ca, &x.a, CSVR_REQUIRED | CSVR_POSITIVE | CSVR_BOUNDED) < 0 ||
            csvr_get_duration(r, cr, &x.r, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0)
            break;
        x.line = csvr_line(r);
        if (x.p > 1) {
            csvr_fail(r, "column 'progress': %g is above 1", x.p);
            break;
        }
        size_t k = (size_t)keyset_intern(j->tkeys, job ? job : "", NULL);
        if (k >= j->ntab) {
            rows = xgrow(rows, &rcap, k + 1, sizeof *rows);
            nrows = xgrow(nrows, &ncap, k + 1, sizeof *nrows);
            caps = xgrow(caps, &ccap, k + 1, sizeof *caps);
            rows[k] = NULL;
            nrows[k] = caps[k] = 0;
            j->ntab = k + 1;
        }
        /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): rows has grown to k + 1 entries just above when k >= ntab */
        rows[k] = xgrow(rows[k], &caps[k], nrows[k] + 1, sizeof **rows);
        rows[k][nrows[k]++] = x;
    }
    st = csvr_status(r);
    const char *pname = csvr_path(r);
    struct slk_many outside = {0};
    j->tables = xcalloc(j->ntab ? j->ntab : 1, sizeof *j->tables);
    for (size_t k = 0; k < j->ntab; k++) {
        struct table *t = &j->tables[k];
        /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): rows has grown to k + 1 entries just above when k >= ntab */
        qsort(rows[k], nrows[k], sizeof **rows, trow_cmp);
        t->n = nrows[k];
        t->alloc = xcalloc(t->n, sizeof *t->alloc);
        t->p = xcalloc(t->n, sizeof *t->p);
        t->rem = xcalloc(t->n, sizeof *t->rem);
        t->first = xcalloc(t->n + 1, sizeof *t->first);
        for (size_t i = 0; i < t->n; i++) {
            t->alloc[i] = rows[k][i].a;
            t->p[i] = rows[k][i].p;
            t->rem[i] = rows[k][i].r;
            if (i == 0 || t->alloc[i] != t->alloc[i - 1])
                t->first[t->nalloc++] = i;
            else if (t->p[i] == t->p[i - 1] && st == SLK_OK) {
                long l1 = rows[k][i - 1].line, l2 = rows[k][i].line;
                const char *name = keyset_key(j->tkeys, (long)k);
                /* a table without a job column (or an empty job) names no job: it said "job ''" */
                slk_error_at(pname, l1 > l2 ? l1 : l2,
                             "%s%s%sa second row for progress %g at alloc %g (the first at line %ld)",
                             *name ? "job '" : "", name, *name ? "' has " : "the table has ", t->p[i],
                             t->alloc[i], l1 < l2 ? l1 : l2);
                st = SLK_EDATA;
            }
        }
        t->first[t->nalloc] = t->n;
        for (size_t i = 0; i < t->nalloc; i++)
            t->in_range |= t->alloc[t->first[i]] >= j->o.min_alloc && t->alloc[t->first[i]] <= j->o.max_alloc;
        if (st == SLK_OK && !t->in_range) { /* its runs would get no decision, silently */
            const char *name = keyset_key(j->tkeys, (long)k);
            char range[96];
            if (isinf(j->o.max_alloc))
                snprintf(range, sizeof range, "at or above --min-alloc %g", j->o.min_alloc);
            else
                snprintf(range, sizeof range, "in [--min-alloc %g, --max-alloc %g]", j->o.min_alloc,
                         j->o.max_alloc);
            long l0 = rows[k][0].line;
            for (size_t i = 1; i < t->n; i++)
                l0 = rows[k][i].line < l0 ? rows[k][i].line : l0;
            slk_warn_many(&outside, pname, l0,
                          "%s%s%sno allocation of the table (%g to %g) lies %s: %s get no decision",
                          *name ? "job '" : "", name, *name ? "': " : "the rows without a job: ", t->alloc[0],
                          t->alloc[t->n - 1], range, *name ? "its runs" : "the runs of jobs without rows");
        }
        free(rows[k]);
    }
    free(rows), free(nrows), free(caps);
    if (slk_many_hidden(&outside) > 0)
        slk_warn_at(pname, 0,
                    "%ld more jobs with no allocation of the table in the --min-alloc/--max-alloc range",
                    slk_many_hidden(&outside));
    if (st == SLK_OK && j->ntab == 0) {
        slk_error_at(pname, 0, "table has no rows");
        st = SLK_EDATA;
    }
    csvr_close(r);
    return st;
}

static int load_utility(jockey *j, const char *path)
{
    int st;
    csvr *r = csvr_open_with(path, j->o.dialect ? j->o.dialect("utility") : NULL, 0, &st);
    if (!r)
        return st;
    int cj = csvr_col(r, "job"), ct, cu;
    if (csvr_require_cols(r, "t", &ct, "utility", &cu, (char *)NULL) < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    while (csvr_next(r) > 0) {
        const char *job = cj >= 0 ? csvr_field(r, cj) : NULL;
        double t, u;
        /* bounded (CSVR_MAX_VALUE): the slope between two points of +-1e308
         * is inf, and every candidate would get the same -inf utility */
        if (csvr_get_duration(r, ct, &t, CSVR_REQUIRED | CSVR_BOUNDED) < 0 ||
            csvr_get_double(r, cu, &u, CSVR_REQUIRED | CSVR_BOUNDED) < 0)
            break;
        size_t k = (size_t)keyset_intern(j->ckeys, job ? job : "", NULL);
        if (k >= j->ncur) {
            j->curves = xgrow(j->curves, &j->curcap, k + 1, sizeof *j->curves);
            memset(&j->curves[k], 0, sizeof *j->curves);
            j->ncur = k + 1;
        }
        struct curve *c = &j->curves[k];
        /* "utility of 'J'", or of the rows without a job (every other job's) */
        const char *q = job ? "'" : "", *who = job ? job : "the rows without a job";
        if (c->n && t <= c->t[c->n - 1]) {
            csvr_fail(r, "utility of %s%s%s: t %g not after the previous %g (rows sorted by t per job)", q,
                      who, q, t, c->t[c->n - 1]);
            break;
        }
        if (c->n && u > c->u[c->n - 1]) {
            csvr_fail(r,
                      "utility of %s%s%s rises from %g to %g: it must not increase with the completion time",
                      q, who, q, c->u[c->n - 1], u);
            break;
        }
        size_t cap2 = c->cap;
        c->t = xgrow(c->t, &cap2, c->n + 1, sizeof *c->t);
        c->u = xgrow(c->u, &c->cap, c->n + 1, sizeof *c->u);
        c->t[c->n] = t;
        c->u[c->n++] = u;
    }
    st = csvr_status(r);
    if (st == SLK_OK && j->ncur == 0) {
        slk_error_at(csvr_path(r), 0, "utility file has no rows");
        st = SLK_EDATA;
    }
    csvr_close(r);
    return st;
}

int jockey_new(const struct jockey_opts *o, const char *table, const char *records, const char *utility,
               jockey **out)
{
    jockey *j = xcalloc(1, sizeof *j);
    j->o = *o;
    j->tkeys = keyset_new();
    j->ckeys = keyset_new();
    j->jobs = keyset_new();
    int st = SLK_OK;
    if (table)
        st = load_table(j, table);
    if (st == SLK_OK && records)
        st = jobsim_learn_file(records, j->o.dialect ? j->o.dialect("records") : NULL, &j->models);
    if (st == SLK_OK && utility)
        st = load_utility(j, utility);
    if (st != SLK_OK) {
        jockey_free(j);
        return st;
    }
    *out = j;
    return SLK_OK;
}

void jockey_free(jockey *j)
{
    if (!j)
        return;
    for (size_t k = 0; k < j->ntab; k++) {
        free(j->tables[k].alloc), free(j->tables[k].p), free(j->tables[k].rem), free(j->tables[k].first);
    }
    for (size_t k = 0; k < j->ncur; k++)
        free(j->curves[k].t), free(j->curves[k].u);
    free(j->tables);
    free(j->curves);
    free(j->st);
    free(j->memo.done);
    jobsim_set_free(&j->models);
    keyset_free(j->tkeys);
    keyset_free(j->ckeys);
    keyset_free(j->jobs);
    free(j);
}

void jockey_adopt_models(jockey *j, struct jobsim_set *set)
{
    jobsim_set_free(&j->models);
    j->memo.m = NULL; /* a new model may take a freed one's address */
    j->models = *set;
    memset(set, 0, sizeof *set);
}

void jockey_get_stats(const jockey *j, struct jockey_stats *s)
{
    *s = j->stats;
    /* a state per job (or job and run) holds its first run; each restart
     * (progress going back) starts another in the same state */
    s->runs = keyset_size(j->jobs) + j->stats.restarts;
}

/* C(p, a) from rows [lo, hi) of one allocation, sorted by p. */
static double table_rows(const struct table *t, size_t lo, size_t hi, double p)
{
    if (p <= t->p[lo])
        return t->rem[lo];
    size_t last = hi - 1;
    if (p >= t->p[last]) {
        if (t->p[last] >= 1)
            return t->rem[last];
        return t->rem[last] * (1 - p) / (1 - t->p[last]);
    }
    size_t a = lo, b = last; /* p[a] < p <= p[b] */
    while (b - a > 1) {
        size_t m = (a + b) / 2;
        if (t->p[m] < p)
            a = m;
        else
            b = m;
    }
    double f = (p - t->p[a]) / (t->p[b] - t->p[a]);
    return t->rem[a] + f * (t->rem[b] - t->rem[a]);
}

static double amdahl(const struct jockey_opts *o, double p, double a)
{
    return (1 - p) * (o->serial + o->parallel / a);
}

static double utility(const jockey *j, const struct jstate *s, double T);

/* C(state, a) under the learned job model m (the sample's done[]). */
static double job_model(jockey *j, const struct jobsim_model *m, double a)
{
    if (j->o.job_model == JOCKEY_STAGE_AMDAHL)
        return jobsim_amdahl(m, j->done, a);
    struct sim_memo *mm = &j->memo; /* target() checked j->nst == m->nst */
    if (mm->m != m || memcmp(mm->done, j->done, j->nst * sizeof *j->done) != 0) {
        mm->done = xgrow(mm->done, &mm->cap, j->nst + 1, sizeof *mm->done);
        memcpy(mm->done, j->done, j->nst * sizeof *j->done);
        mm->m = m;
        mm->n = 0;
    }
    for (size_t i = 0; i < mm->n; i++)
        if (mm->a[i] == a)
            return mm->c[i];
    double c = jobsim_simulate(m, j->done, a, j->o.reps, j->o.seed);
    if (mm->n < sizeof mm->a / sizeof *mm->a) {
        mm->a[mm->n] = a;
        mm->c[mm->n++] = c;
    }
    return c;
}

/* The smallest candidate in [lo, hi] whose predicted utility is the best
 * (the prediction C falls with a and U does not rise with T, so U rises
 * with a: bisection). */
static double bisect_alloc(jockey *j, const struct jstate *s, double tr, double lo, double hi,
                           double (*C)(jockey *, const void *, double, double), const void *ctx, double p,
                           double *ur)
{
    double best = utility(j, s, tr + j->o.slack * C(j, ctx, p, hi));
    while (lo < hi) {
        double m = floor((lo + hi) / 2);
        if (utility(j, s, tr + j->o.slack * C(j, ctx, p, m)) >= best - 1e-12)
            hi = m;
        else
            lo = m + 1;
    }
    *ur = best;
    return lo;
}

static double c_amdahl(jockey *j, const void *ctx, double p, double a)
{
    (void)ctx;
    return amdahl(&j->o, p, a);
}

static double c_model(jockey *j, const void *ctx, double p, double a)
{
    (void)p;
    return job_model(j, ctx, a);
}

/* row_or_default: the row of job in ks, else that of "" (rows without a
 * job), else SIZE_MAX */
static size_t row_or_default(const keyset *ks, const char *job)
{
    long k = keyset_row(ks, job);
    if (k < 0)
        k = keyset_row(ks, "");
    return k >= 0 ? (size_t)k : SIZE_MAX;
}

static size_t table_of(const jockey *j, const char *job) { return row_or_default(j->tkeys, job); }

double jockey_predict(const jockey *j, const char *job, double p, double a)
{
    if (j->o.parallel > 0)
        return a > 0 ? amdahl(&j->o, p, a) : NAN;
    size_t k = table_of(j, job);
    if (k == SIZE_MAX)
        return NAN;
    const struct table *t = &j->tables[k];
    for (size_t i = 0; i < t->nalloc; i++)
        if (t->alloc[t->first[i]] == a)
            return table_rows(t, t->first[i], t->first[i + 1], p);
    return NAN;
}

static double utility(const jockey *j, const struct jstate *s, double T)
{
    if (s->curve == SIZE_MAX) {
        if (T <= j->o.deadline + 1e-9)
            return 1;
        return j->o.late_flat ? -j->o.penalty : -j->o.penalty * (1 + (T - j->o.deadline) / j->o.deadline);
    }
    const struct curve *c = &j->curves[s->curve];
    if (T <= c->t[0])
        return c->u[0];
    if (T >= c->t[c->n - 1])
        return c->u[c->n - 1];
    size_t a = 0, b = c->n - 1;
    while (b - a > 1) {
        size_t m = (a + b) / 2;
        if (c->t[m] < T)
            a = m;
        else
            b = m;
    }
    return c->u[a] + (T - c->t[a]) / (c->t[b] - c->t[a]) * (c->u[b] - c->u[a]);
}

/* A_r: the smallest candidate with the best utility; *pred its prediction. */
static int target(jockey *j, const struct jstate *s, double tr, double p, double *ar, double *ur,
                  double *pred)
{
    const struct jockey_opts *o = &j->o;
    if (o->parallel > 0) {
        *ar = bisect_alloc(j, s, tr, ceil(o->min_alloc), floor(o->max_alloc), c_amdahl, NULL, p, ur);
        *pred = amdahl(o, p, *ar);
        return 0;
    }
    if (j->models.n) {
        const struct jobsim_model *m = s->model;
        if (!m)
            return -1;
        if (!j->done || j->nst != m->nst) {
            j->stats.nostages++;
            return -1;
        }
        *ar = bisect_alloc(j, s, tr, ceil(o->min_alloc), floor(o->max_alloc), c_model, m, p, ur);
        *pred = job_model(j, m, *ar);
        return 0;
    }
    if (s->table == SIZE_MAX)
        return -1;
    const struct table *t = &j->tables[s->table];
    int found = 0;
    double bu = -INFINITY;
    for (size_t i = 0; i < t->nalloc; i++) {
        double a = t->alloc[t->first[i]];
        if (a < o->min_alloc || a > o->max_alloc)
            continue;
        double c = table_rows(t, t->first[i], t->first[i + 1], p);
        double u = utility(j, s, tr + o->slack * c);
        if (!found || u > bu + 1e-12) { /* ascending allocations: strictly better only */
            found = 1;
            bu = u;
            *ar = a;
            *pred = c;
        }
    }
    *ur = bu;
    return found ? 0 : -1;
}

int jockey_sample(jockey *j, const char *job, const char *run, double t, double p, const double *done,
                  size_t nst, double alloc, struct jockey_decision *out)
{
    j->done = done;
    j->nst = nst;
    j->stats.samples++;
    /* state per run: keyed by job and run (one state per job without runs,
     * restarted when progress goes back) */
    char kb[256], *key = kb;
    size_t need = strlen(job) + (run ? strlen(run) + 2 : 1);
    if (need > sizeof kb)
        key = xmalloc(need);
    if (run)
        snprintf(key, need, "%s\x1f%s", job, run);
    else
        memcpy(key, job, need);
    int fresh;
    size_t id = (size_t)keyset_intern(j->jobs, key, &fresh);
    if (fresh)
        j->st = xgrow(j->st, &j->stcap, id + 1, sizeof *j->st);
    if (key != kb)
        free(key);
    if (!fresh && !run && p < j->st[id].last_p - 1e-9) {
        fresh = 1; /* a new run of the recurring job */
        j->stats.restarts++;
    }
    if (fresh) {
        struct jstate *s = &j->st[id];
        s->first = t;
        s->A = alloc;
        s->last_dec = -INFINITY;
        s->table = j->o.parallel > 0 || j->models.n ? SIZE_MAX : table_of(j, job);
        s->model = j->models.n ? jobsim_set_find(&j->models, job) : NULL;
        s->curve = row_or_default(j->ckeys, job);
        if ((j->o.parallel <= 0 && !j->models.n && s->table == SIZE_MAX) || (j->models.n && !s->model) ||
            (j->ncur && s->curve == SIZE_MAX))
            j->stats.nomodel++;
        else if (s->table != SIZE_MAX && !j->tables[s->table].in_range)
            j->stats.outside++;
    }
    struct jstate *s = &j->st[id];
    s->last_p = p;
    if (t < s->last_dec + j->o.interval)
        return 0;
    if (j->ncur && s->curve == SIZE_MAX)
        return 0;
    double tr = t - s->first, ar = 0, ur = 0, pred = 0;
    if (target(j, s, tr, p, &ar, &ur, &pred) < 0)
        return 0;
    s->last_dec = t;
    double prev = s->A, next = prev + j->o.alpha * (ar - prev);
    if (fabs(next - prev) < j->o.dead_zone * prev) {
        if (ceil(ar - 1e-9) != ceil(prev - 1e-9))
            j->stats.dead_zone++;
        return 0;
    }
    s->A = next;
    double oldi = ceil(prev - 1e-9), newi = ceil(next - 1e-9);
    if (oldi == newi)
        return 0;
    j->stats.changes++;
    out->old_alloc = oldi;
    out->new_alloc = newi;
    out->target = ar;
    out->until = j->o.interval > 0 ? t + j->o.interval : NAN;
    snprintf(out->reason, sizeof out->reason,
             "target %g: smallest allocation with the best utility %g (predicted %.0f s left at progress %.4g "
             "x slack %g, %.0f s elapsed)%s",
             ar, ur, pred, p, j->o.slack, tr, next != ar ? "; hysteresis" : "");
    return 1;
}

int jockey_progress(const char *completed, const char *total, double *p, double *done, size_t maxst,
                    size_t *nst, char *why, size_t whylen)
{
    if (!completed || !total) {
        snprintf(why, whylen, "missing value in column '%s'", completed ? "total" : "completed");
        return -1;
    }
    double sc = 0, sn = 0;
    const char *a = completed, *b = total;
    for (int stage = 1;; stage++) {
        char *ea, *eb;
        double c = strtod(a, &ea), n = strtod(b, &eb);
        if (ea == a || eb == b || !isfinite(c) || !isfinite(n) || c < 0 || n <= 0 || c > n) {
            snprintf(why, whylen, "stage %d: completed '%.40s' / total '%.40s' is not 0 <= completed <= total, "
                                  "total > 0", stage, a, b);
            return -1;
        }
        sc += c;
        sn += n;
        if (done && (size_t)stage <= maxst)
            done[stage - 1] = c;
        if (nst)
            *nst = (size_t)stage;
        if ((*ea == ';') != (*eb == ';') || (*ea && *ea != ';') || (*eb && *eb != ';')) {
            snprintf(why, whylen, "columns 'completed' and 'total' must be numbers or ';'-lists of the same "
                                  "length ('%.40s', '%.40s')", completed, total);
            return -1;
        }
        if (!*ea)
            break;
        a = ea + 1;
        b = eb + 1;
    }
    *p = sc / sn;
    return 0;
}

/* ---- building the table from history --------------------------------------------- */

struct grp {
    char *job;
    double a;
    double *v;              /* runs x G */
    size_t nruns, cap;
};

static int grp_cmp(const void *x, const void *y)
{
    const struct grp *a = x, *b = y;
    int c = strcmp(a->job, b->job);
    if (c)
        return c;
    return (a->a > b->a) - (a->a < b->a);
}

struct hs {
    double t, p, a;
};

/* The runs read so far, one group per (job, rounded mean allocation): for
 * each run, the remaining time at each of G progress points. */
struct history {
    size_t G;
    double grid;
    keyset *keys; /* "job\x1fallocation" -> its group in g */
    struct grp *g;
    size_t ng, gcap;
    long nruns, skipped;
};

/* A run's samples h[0..nh) are complete: add its remaining-time profile to
 * its (job, allocation) group, or count it as skipped if it never reached
 * progress 1. */
static void history_add_run(struct history *H, const char *job, const struct hs *h, size_t nh)
{
    size_t G = H->G;
    H->nruns++;
    size_t e = 0;
    while (e < nh && h[e].p < 1 - 1e-9)
        e++;
    if (e == nh) {
        H->skipped++;
        return;
    }
    double sa = 0;
    for (size_t i = 0; i <= e; i++)
        sa += h[i].a;
    double a = floor(sa / (double)(e + 1) + 0.5);
    if (a < 1)
        a = 1;
    char num[32];
    snprintf(num, sizeof num, "%.17g", a);
    size_t kl = strlen(job) + strlen(num) + 2;
    char *key = xmalloc(kl); /* a job name of any length: a fixed buffer cut the allocation off */
    snprintf(key, kl, "%s\x1f%s", job, num);
    size_t k = (size_t)keyset_intern(H->keys, key, NULL);
    free(key);
    if (k >= H->ng) {
        H->g = xgrow(H->g, &H->gcap, k + 1, sizeof *H->g);
        memset(&H->g[k], 0, sizeof *H->g);
        H->g[k].job = xstrdup(job);
        H->g[k].a = a;
        H->ng = k + 1;
    }
    struct grp *x = &H->g[k];
    x->v = xgrow(x->v, &x->cap, (x->nruns + 1) * G, sizeof *x->v);
    double end = h[e].t;
    size_t i = 0;
    for (size_t q = 0; q < G; q++) {
        double pg = (double)q * H->grid;
        while (i < e && h[i].p < pg)
            i++;
        double when = h[i].t;
        if (i > 0 && h[i].p > h[i - 1].p && h[i].p >= pg)
            when = h[i - 1].t + (pg - h[i - 1].p) / (h[i].p - h[i - 1].p) * (h[i].t - h[i - 1].t);
        if (when < h[0].t)
            when = h[0].t;
        x->v[x->nruns * G + q] = end - when;
    }
    x->nruns++;
}

/* Write the table: per group (sorted by job, allocation), the median over
 * its runs at each progress point. */
static int history_write(struct history *H, FILE *fp, const struct csv_dialect *d)
{
    size_t G = H->G;
    if (H->ng > 1)
        qsort(H->g, H->ng, sizeof *H->g, grp_cmp);
    csvw *w = csvw_new_with(fp, d);
    static const char *const cols[] = {"job", "progress", "alloc", "remaining", NULL};
    csvw_header(w, cols);
    double *col = xcalloc(1, sizeof *col);
    size_t colcap = 1;
    for (size_t k = 0; k < H->ng; k++) {
        col = xgrow(col, &colcap, H->g[k].nruns, sizeof *col);
        for (size_t q = 0; q < G; q++) {
            for (size_t i = 0; i < H->g[k].nruns; i++)
                col[i] = H->g[k].v[i * G + q];
            csvw_str(w, H->g[k].job);
            csvw_num(w, floor((double)q * H->grid * 1e9 + 0.5) / 1e9);
            csvw_num(w, H->g[k].a);
            csvw_num(w, stats_median(col, H->g[k].nruns));
            csvw_end(w);
        }
    }
    free(col);
    int st = csvw_error(w) ? SLK_EIO : SLK_OK;
    csvw_free(w);
    if (!slk_quiet())
        fprintf(slk_summary(),
                "%s: build-table: %ld runs read, %ld never reached progress 1 (skipped); %zu "
                "(job, alloc) tables of %zu progress points\n",
                slk_progname, H->nruns, H->skipped, H->ng, G);
    return st;
}

int jockey_build_table(const char *path, const struct jockey_opts *o, FILE *fp)
{
    int st;
    csvr *r = csvr_open_with(path, o->dialect ? o->dialect(NULL) : NULL, 0, &st);
    if (!r)
        return st;
    int cj, cr, ct, cp, ca;
    if (csvr_require_cols(r, "job", &cj, "run", &cr, "t", &ct, "progress", &cp, "alloc", &ca, (char *)NULL) <
        0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    struct history H = {.G = (size_t)ceil(1 / o->grid - 1e-9), .grid = o->grid, .keys = keyset_new()};
    struct hs *h = NULL;
    size_t nh = 0, hcap = 0;
    char *run = NULL, *job = NULL;
    int rc;
    for (;;) {
        rc = csvr_next(r);
        const char *jn = NULL, *rn = NULL;
        if (rc > 0 &&
            (!(jn = csvr_field_required(r, cj, "job")) || !(rn = csvr_field_required(r, cr, "run"))))
            break;
        if (run && (rc <= 0 || strcmp(rn, run) != 0 || strcmp(jn, job) != 0)) {
            history_add_run(&H, job, h, nh);
            nh = 0;
        }
        if (rc <= 0)
            break;
        if (!run || strcmp(rn, run) != 0 || strcmp(jn, job) != 0) {
            free(run);
            free(job);
            run = xstrdup(rn);
            job = xstrdup(jn);
        }
        struct hs s;
        if (csvr_get_time(r, ct, &s.t, CSVR_REQUIRED) < 0 || csvr_get_double(r, cp, &s.p, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
            csvr_get_double(r, ca, &s.a, CSVR_REQUIRED | CSVR_NONNEG) < 0)
            break;
        if (s.p > 1) {
            csvr_fail(r, "column 'progress': %g is above 1", s.p);
            break;
        }
        if (nh && (s.t <= h[nh - 1].t || s.p < h[nh - 1].p)) {
            csvr_fail(r, "run '%s': t must increase and progress must not decrease within a run", rn);
            break;
        }
        h = xgrow(h, &hcap, nh + 1, sizeof *h);
        h[nh++] = s;
    }
    st = csvr_status(r);
    if (st == SLK_OK)
        st = history_write(&H, fp, o->dialect ? o->dialect(NULL) : NULL);
    for (size_t k = 0; k < H.ng; k++)
        free(H.g[k].job), free(H.g[k].v);
    free(H.g);
    free(h);
    free(run);
    free(job);
    keyset_free(H.keys);
    csvr_close(r);
    return st;
}
