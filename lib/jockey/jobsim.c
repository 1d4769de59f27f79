/* jobsim — event-based simulator and Amdahl model of a job (see jobsim.h).
 *
 * The engine is list scheduling on a heap of token free times: per stage,
 * every token is free at the stage's start (the barrier), each pops the
 * earliest free token, runs one attempt and pushes the token back; a failed
 * attempt re-queues its task.  Cost: O(attempts log tokens) per run.
 */
#include "jockey/jobsim.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/heap.h"
#include "base/keyset.h"
#include "base/shard.h"
#include "base/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const jobsim_record_keys[] = {"job", "run", "alloc", "stage", "start", "end", "failed", NULL};

void jobsim_model_free(struct jobsim_model *m)
{
    for (size_t s = 0; s < m->nst; s++)
        free(m->st[s].dur);
    free(m->st);
    m->st = NULL;
    m->nst = 0;
}

double jobsim_engine(const struct jobsim_src *src, const double *done, double alloc, rng *r,
                     jobsim_attempt_fn fn, void *fctx)
{
    double tokens = floor(alloc), t0 = 0;
    if (!(tokens >= 1))
        tokens = 1;
    heap h;
    heap_init(&h);
    for (size_t s = 0; s < src->nst; s++) {
        double left = src->ntasks[s] - (done ? done[s] : 0);
        if (left <= 0)
            continue;
        double cap = 1000 * left, attempts = 0, end = t0;
        double n = tokens < left ? tokens : left;
        for (uint64_t k = 0; (double)k < n; k++)
            heap_push(&h, t0, k);
        double pf = src->fail(src->ctx, s);
        while (left > 0) {
            struct heap_item it;
            heap_pop(&h, &it);
            double d = src->draw(src->ctx, s, r);
            int failed = attempts++ < cap && rng_uniform(r) < pf;
            double e = it.key + d;
            if (fn)
                fn(fctx, s, it.key, e, failed);
            if (!failed)
                left--;
            if (e > end)
                end = e;
            heap_push(&h, e, it.val);
        }
        struct heap_item junk;
        while (heap_pop(&h, &junk))
            ;
        t0 = end;
    }
    heap_free(&h);
    return t0;
}

/* ---- the learned model --------------------------------------------------------- */

static double emp_draw(void *ctx, size_t s, rng *r)
{
    const struct jobsim_model *m = ctx;
    const struct jobsim_stage *st = &m->st[s];
    size_t i = (size_t)(rng_uniform(r) * (double)st->ndur);
    return st->dur[i < st->ndur ? i : st->ndur - 1];
}

static double emp_fail(void *ctx, size_t s)
{
    const struct jobsim_model *m = ctx;
    return m->st[s].fail;
}

double jobsim_simulate(const struct jobsim_model *m, const double *done, double alloc, int reps, uint64_t seed)
{
    double *nt = xcalloc(m->nst ? m->nst : 1, sizeof *nt);
    for (size_t s = 0; s < m->nst; s++)
        nt[s] = m->st[s].ndur ? m->st[s].ntasks : 0; /* a stage never seen cannot be simulated */
    struct jobsim_src src = {m->nst, nt, emp_draw, emp_fail, (void *)m};
    rng r;
    rng_seed(&r, seed);
    double sum = 0;
    for (int k = 0; k < reps; k++)
        sum += jobsim_engine(&src, done, alloc, &r, NULL, NULL);
    free(nt);
    return reps > 0 ? sum / reps : NAN;
}

/* Expected time of one task of stage s, failures included. */
static double task_time(const struct jobsim_stage *st) { return st->mean / (1 - st->fail); }

double jobsim_amdahl(const struct jobsim_model *m, const double *done, double alloc)
{
    double S = 0, P = 0;
    for (size_t s = 0; s < m->nst; s++) {
        double left = m->st[s].ntasks - (done ? done[s] : 0);
        if (left <= 0)
            continue;
        S += task_time(&m->st[s]);
        P += left * task_time(&m->st[s]);
    }
    return S + P / (alloc >= 1 ? floor(alloc) : 1);
}

void jobsim_whole_sp(const struct jobsim_model *m, double *S, double *P)
{
    *S = *P = 0;
    for (size_t s = 0; s < m->nst; s++) {
        *S += task_time(&m->st[s]);
        *P += m->st[s].ntasks * task_time(&m->st[s]);
    }
}

/* ---- comparing the predictors on held-back runs ---------------------------------- */

#define NCHECK 10       /* progress checkpoints 0, 0.1, ..., 0.9 */

/* attempts in one canonical order: by stage and start; attempts that
 * started together in an order fixed by their values but unrelated to their
 * length (a hash of the end: the replay starts them in this order when it
 * has fewer tokens than the record, and shortest or longest first would
 * bias it), then end, then failed last */
static uint64_t end_hash(double end)
{
    uint64_t u;
    char b[sizeof u];
    memcpy(&u, &end, sizeof u);
    for (size_t i = 0; i < sizeof u; i++) /* little-endian bytes: the same order on every machine */
        b[i] = (char)(u >> (8 * i) & 0xff);
    return shard_hash(b, sizeof b);
}

static int cmp_attempt(const void *x, const void *y)
{
    const struct jobsim_attempt *a = x, *b = y;
    if (a->stage != b->stage)
        return a->stage < b->stage ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    uint64_t ha = end_hash(a->end), hb = end_hash(b->end);
    if (ha != hb)
        return ha < hb ? -1 : 1;
    if (a->end != b->end)
        return a->end < b->end ? -1 : 1;
    return a->failed - b->failed;
}

/* run_finish: r's attempts sorted (cmp_attempt: a run's rows may come in
 * any order and give the same models, draws and replays), then its first
 * start, last end, sorted completion times and stage count. */
static void run_finish(struct jobsim_run *r)
{
    qsort(r->a, r->n, sizeof *r->a, cmp_attempt);
    r->t0 = INFINITY;
    r->end = -INFINITY;
    r->done_t = xcalloc(r->n ? r->n : 1, sizeof *r->done_t);
    for (size_t i = 0; i < r->n; i++) {
        const struct jobsim_attempt *x = &r->a[i];
        if (x->start < r->t0)
            r->t0 = x->start;
        if (x->end > r->end)
            r->end = x->end;
        if (!x->failed)
            r->done_t[r->ndone++] = x->end;
        if (x->stage + 1 > r->nst)
            r->nst = x->stage + 1;
    }
    stats_sort(r->done_t, r->ndone);
}

/* When run r reaches progress q: its start for q = 0, else the end of its
 * ceil(q N)-th successful attempt. */
static double reach(const struct jobsim_run *r, int q)
{
    size_t k = (size_t)ceil((double)q / NCHECK * (double)r->ndone - 1e-9);
    return k == 0 ? r->t0 : r->done_t[k - 1];
}

void jobsim_learn(struct jobsim_run *const *runs, size_t n, size_t nst, struct jobsim_model *m)
{
    m->nst = nst;
    m->st = xcalloc(nst ? nst : 1, sizeof *m->st);
    double *cnt = xcalloc(n ? n : 1, sizeof *cnt);
    for (size_t s = 0; s < nst; s++) {
        struct jobsim_stage *st = &m->st[s];
        size_t cap = 0, fails = 0;
        for (size_t i = 0; i < n; i++) {
            cnt[i] = 0;
            for (size_t j = 0; j < runs[i]->n; j++) {
                const struct jobsim_attempt *x = &runs[i]->a[j];
                if (x->stage != s)
                    continue;
                st->dur = xgrow(st->dur, &cap, st->ndur + 1, sizeof *st->dur);
                st->dur[st->ndur++] = x->end - x->start;
                fails += x->failed;
                cnt[i] += !x->failed;
            }
        }
        st->ntasks = floor(stats_median(cnt, n) + 0.5);
        stats_sort(st->dur, st->ndur);
        double sum = 0;
        for (size_t i = 0; i < st->ndur; i++)
            sum += st->dur[i];
        st->mean = st->ndur ? sum / (double)st->ndur : 0;
        st->fail = st->ndur ? (double)fails / (double)st->ndur : 0;
        if (st->fail > 0.99)
            st->fail = 0.99;
    }
    free(cnt);
}

/* The table: the median over training runs at the same allocation of the
 * remaining time at checkpoint q (NaN when none ran at that allocation). */
static double table_predict(struct jobsim_run *const *train, size_t n, double alloc, int q)
{
    double *v = xcalloc(n ? n : 1, sizeof *v);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (train[i]->alloc == alloc && train[i]->ndone)
            v[k++] = train[i]->end - reach(train[i], q);
    double med = k ? stats_median(v, k) : NAN;
    free(v);
    return med;
}

struct errs {
    double sum[4], *rel[4];
    size_t cap[4], nrel[4];
};

static void err_add(struct errs *e, int k, double pred, double actual)
{
    if (!isfinite(pred) || !(actual > 0))
        return;
    double rel = fabs(pred - actual) / actual;
    e->sum[k] += rel;
    e->rel[k] = xgrow(e->rel[k], &e->cap[k], e->nrel[k] + 1, sizeof *e->rel[k]);
    e->rel[k][e->nrel[k]++] = rel;
}

/* Predict every checkpoint of a held-back run and write its rows. */
static void evaluate_run(const struct jobsim_run *r, struct jobsim_run *const *train, size_t ntrain,
                         const struct jobsim_model *m, int reps, uint64_t seed, csvw *w, struct errs *e)
{
    double S, P;
    jobsim_whole_sp(m, &S, &P);
    double *done = xcalloc(m->nst ? m->nst : 1, sizeof *done);
    for (int q = 0; q < NCHECK; q++) {
        double t = reach(r, q), actual = r->end - t, p = (double)q / NCHECK;
        memset(done, 0, m->nst * sizeof *done);
        for (size_t j = 0; j < r->n; j++)
            if (!r->a[j].failed && r->a[j].end <= t && r->a[j].stage < m->nst)
                done[r->a[j].stage]++;
        double pr[4];
        pr[0] = table_predict(train, ntrain, r->alloc, q);
        pr[1] = jobsim_amdahl(m, done, r->alloc);
        pr[2] = (1 - p) * (S + P / (r->alloc >= 1 ? floor(r->alloc) : 1));
        pr[3] = jobsim_simulate(m, done, r->alloc, reps, seed + (uint64_t)q);
        csvw_str(w, r->job);
        csvw_str(w, r->name);
        csvw_num(w, r->alloc);
        csvw_num(w, p);
        csvw_num(w, actual);
        for (int k = 0; k < 4; k++) {
            csvw_num(w, pr[k]);
            err_add(e, k, pr[k], actual);
        }
        csvw_end(w);
    }
    free(done);
}

int jobsim_read_runs(const char *path, const struct csv_dialect *d, struct jobsim_run **out, size_t *nout)
{
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int cj, cr, ca, cs, cb, ce, cf;
    if (csvr_require_cols(r, "job", &cj, "run", &cr, "alloc", &ca, "stage", &cs, "start", &cb, "end", &ce,
                          "failed", &cf, (char *)NULL) < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    struct jobsim_run *runs = NULL;
    size_t n = 0, cap = 0;
    while (csvr_next(r) > 0) {
        const char *job, *name;
        double alloc, stage, start, end, failed;
        if (!(job = csvr_field_required(r, cj, "job")) || !(name = csvr_field_required(r, cr, "run"))) {
            break;
        }
        if (csvr_get_double(r, ca, &alloc, CSVR_REQUIRED | CSVR_POSITIVE | CSVR_BOUNDED) < 0 ||
            csvr_get_double(r, cs, &stage, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0 ||
            csvr_get_time(r, cb, &start, CSVR_REQUIRED) < 0 ||
            csvr_get_time(r, ce, &end, CSVR_REQUIRED) < 0 ||
            csvr_get_double(r, cf, &failed, CSVR_REQUIRED | CSVR_NONNEG) < 0)
            break;
        if (alloc > JOBSIM_MAX_ALLOC) {
            csvr_fail(r, "column 'alloc': %g tokens is more than %g", alloc, JOBSIM_MAX_ALLOC);
            break;
        }
        if (stage != floor(stage) || stage > 10000) {
            csvr_fail(r, "column 'stage': '%s' is not a stage number 0..10000", csvr_field(r, cs));
            break;
        }
        if (!(end >= start)) {
            csvr_fail(r, "attempt ends (%g) before it starts (%g)", end, start);
            break;
        }
        if (!n || strcmp(runs[n - 1].job, job) || strcmp(runs[n - 1].name, name)) {
            runs = xgrow(runs, &cap, n + 1, sizeof *runs);
            runs[n++] = (struct jobsim_run){.job = xstrdup(job), .name = xstrdup(name), .alloc = alloc};
        } else if (runs[n - 1].alloc != alloc) {
            csvr_fail(r, "run '%s': alloc changes within the run (%g, then %g)", name, runs[n - 1].alloc, alloc);
            break;
        }
        struct jobsim_run *x = &runs[n - 1];
        x->a = xgrow(x->a, &x->cap, x->n + 1, sizeof *x->a);
        x->a[x->n++] = (struct jobsim_attempt){(size_t)stage, start, end, failed != 0};
    }
    st = csvr_status(r);
    csvr_close(r);
    for (size_t i = 0; i < n; i++)
        run_finish(&runs[i]);
    /* link each run to the next run of its job: last[row] = the job's latest run */
    keyset *jobs = keyset_new();
    size_t *last = xmalloc((n ? n : 1) * sizeof *last);
    for (size_t i = 0; i < n; i++) {
        runs[i].next = n;
        int added;
        long k = keyset_intern(jobs, runs[i].job, &added);
        if (!added)
            runs[last[k]].next = i;
        last[k] = i;
    }
    free(last);
    keyset_free(jobs);
    *out = runs;
    *nout = n;
    return st;
}

void jobsim_free_runs(struct jobsim_run *runs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(runs[i].job), free(runs[i].name), free(runs[i].a), free(runs[i].done_t);
    }
    free(runs);
}

size_t jobsim_job_runs(struct jobsim_run *runs, size_t n, size_t i, struct jobsim_run **job, size_t *nst)
{
    size_t k = 0;
    *nst = 0;
    for (size_t j = i; j < n; j = runs[j].next)
        if (runs[j].nst != (size_t)-1) {
            job[k++] = &runs[j];
            if (runs[j].nst > *nst)
                *nst = runs[j].nst;
        }
    return k;
}

int jobsim_learn_file(const char *path, const struct csv_dialect *d, struct jobsim_set *out)
{
    struct jobsim_run *runs = NULL;
    size_t n = 0;
    int st = jobsim_read_runs(path, d, &runs, &n);
    memset(out, 0, sizeof *out);
    struct jobsim_run **job = xcalloc(n ? n : 1, sizeof *job);
    size_t cap = 0, cap2 = 0;
    out->names = keyset_new();
    for (size_t i = 0; st == SLK_OK && i < n; i++) {
        if (runs[i].nst == (size_t)-1)
            continue;
        size_t nst, k = jobsim_job_runs(runs, n, i, job, &nst);
        out->job = xgrow(out->job, &cap, out->n + 1, sizeof *out->job);
        out->m = xgrow(out->m, &cap2, out->n + 1, sizeof *out->m);
        out->job[out->n] = xstrdup(runs[i].job);
        keyset_put(out->names, runs[i].job, 0, NULL); /* row = out->n: each job once (its runs are linked) */
        jobsim_learn(job, k, nst, &out->m[out->n++]);
        for (size_t j = 0; j < k; j++)
            job[j]->nst = (size_t)-1;
    }
    if (st == SLK_OK && out->n == 0) {
        slk_error_at(path, 0, "no task records");
        st = SLK_EDATA;
    }
    free(job);
    jobsim_free_runs(runs, n);
    if (st != SLK_OK)
        jobsim_set_free(out);
    return st;
}

const struct jobsim_model *jobsim_set_find(const struct jobsim_set *s, const char *job)
{
    if (s->names) {
        long k = keyset_row(s->names, job);
        return k >= 0 ? &s->m[k] : NULL;
    }
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->job[i], job))
            return &s->m[i];
    return NULL;
}

void jobsim_set_free(struct jobsim_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->job[i]);
        jobsim_model_free(&s->m[i]);
    }
    free(s->job);
    free(s->m);
    keyset_free(s->names);
    memset(s, 0, sizeof *s);
}

static void print_errors(const struct errs *e, size_t jobs, size_t ntrain, size_t ntest)
{
    static const char *const names[4] = {"table", "amdahl (remaining S, P)", "amdahl (whole-run S, P)",
                                         "simulator"};
    fprintf(slk_summary(),
            "%s: compare: %zu jobs, %zu training runs, %zu held-back runs x %d checkpoints; "
            "relative error of the predicted remaining time:\n",
            slk_progname, jobs, ntrain, ntest, NCHECK);
    for (int k = 0; k < 4; k++) {
        if (!e->nrel[k]) { /* e.g. the table when no training run had a held-back run's allocation */
            fprintf(slk_summary(), "%s:   %-24s no predictions\n", slk_progname, names[k]);
            continue;
        }
        fprintf(slk_summary(), "%s:   %-24s mean %.3f  median %.3f  (%zu predictions)\n", slk_progname,
                names[k], e->sum[k] / (double)e->nrel[k], stats_median(e->rel[k], e->nrel[k]), e->nrel[k]);
    }
}

size_t jobsim_ntrain(double train, size_t k) { return (size_t)floor(train * (double)k); }

int jobsim_check_splits(const char *path, const struct jobsim_run *runs, size_t n, double train)
{
    size_t *len = xcalloc(n ? n : 1, sizeof *len); /* runs from i on, along the job's links */
    int st = SLK_OK;
    for (size_t i = n; i-- > 0;)
        len[i] = 1 + (runs[i].next < n ? len[runs[i].next] : 0);
    char *later = xcalloc(n ? n : 1, 1); /* run i is not its job's first */
    for (size_t i = 0; i < n; i++)
        if (runs[i].next < n)
            later[runs[i].next] = 1;
    for (size_t i = 0; i < n && st == SLK_OK; i++) {
        size_t nt = jobsim_ntrain(train, len[i]);
        if (!later[i] && (nt < 1 || nt >= len[i])) {
            slk_error_at(path, 0, "job '%s': %zu runs cannot be split by --train %g (both parts need a run)",
                         runs[i].job, len[i], train);
            st = SLK_EDATA;
        }
    }
    free(later);
    free(len);
    return st;
}

int jobsim_compare(const char *path, const struct csv_dialect *d, double train, int reps, uint64_t seed, FILE *fp)
{
    struct jobsim_run *runs = NULL;
    size_t n = 0;
    int st = jobsim_read_runs(path, d, &runs, &n);
    struct errs e = {0};
    size_t jobs = 0, ntrain = 0, ntest = 0;
    csvw *w = csvw_new_with(fp, d);
    static const char *const cols[] = {"job", "run", "alloc", "progress", "actual_s", "table_s", "amdahl_s",
                                       "amdahl_whole_s", "simulator_s", NULL};
    if (st == SLK_OK)
        st = jobsim_check_splits(path, runs, n, train);
    if (st == SLK_OK)
        csvw_header(w, cols);
    struct jobsim_run **job = xcalloc(n ? n : 1, sizeof *job);
    for (size_t i = 0; st == SLK_OK && i < n;) {
        /* one job: its runs, in input order, wherever they appear */
        if (runs[i].nst == (size_t)-1) {
            i++;
            continue;
        }
        size_t nst, k = jobsim_job_runs(runs, n, i, job, &nst);
        size_t nt = jobsim_ntrain(train, k);
        struct jobsim_model m;
        jobsim_learn(job, nt, nst, &m);
        for (size_t j = nt; j < k; j++)
            evaluate_run(job[j], job, nt, &m, reps, seed, w, &e);
        jobsim_model_free(&m);
        jobs++;
        ntrain += nt;
        ntest += k - nt;
        for (size_t j = 0; j < k; j++)
            job[j]->nst = (size_t)-1; /* done */
        i++;
    }
    if (st == SLK_OK && csvw_error(w))
        st = SLK_EIO;
    if (st == SLK_OK && !slk_quiet())
        print_errors(&e, jobs, ntrain, ntest);
    csvw_free(w);
    for (int k = 0; k < 4; k++)
        free(e.rel[k]);
    jobsim_free_runs(runs, n);
    free(job);
    return st;
}
