/* skyjob — one job's run history and its skyline fit (see skyjob.h). */
#include "morpheus/skyjob.h"

#include "base/diag.h"
#include "base/parse.h"
#include "base/strhash.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct run {
    size_t name;        /* offset in the job's name pool */
    double start;       /* CSV: earliest sample; native: the start field */
    size_t first, n;    /* its samples after sorting */
    /* its container shape: container-weighted sums, and plain ones for a
     * run of no containers (only the runs fitted make the shape columns) */
    double w_sum, cores_sum, mem_sum, n_shape, cores_plain, mem_plain;
};

struct skyjob {
    char *name;
    size_t name_cap;
    struct skyjob_sample *s;
    size_t ns, s_cap;
    struct run *runs;
    size_t nruns, runs_cap;
    char *pool;
    size_t pool_len, pool_cap;
    int *hash; /* open addressing over run indices, -1 empty; not a keyset:
                           skyjob_run is called per sample and the table is reused
                           job after job without a malloc per run name; folded into
                           a keyset, skyfit on 1.94M samples of 300 jobs took 5% more
                           CPU (median of 6: 0.485 s vs 0.46 s) */
    size_t hash_cap;
    int last; /* the previous sample's run (a run's samples come together), -1 none */
    /* the quantized matrix and the fit */
    double *use, *alloc;
    size_t use_cap, alloc_cap;
    int *order;
    size_t order_cap;
    unsigned char *out; /* outlier flags of the selected runs */
    size_t out_cap;
    char *excluded;     /* names of the excluded runs, ';'-separated */
    size_t excluded_len, excluded_cap;
    size_t nexcluded;   /* runs listed in excluded (a run name may hold ';') */
    size_t longest;     /* pool offset of the longest run fitted (sets the skyline's length) */
    long recorded;      /* selected runs whose length came from o->runs */
};

void skyjob_opts_default(struct skyjob_opts *o)
{
    *o = (struct skyjob_opts){.step = 60, .min_runs = 2, .native_interval = 5, .max_steps = 100000,
                              .prior_weight = 0.1};
    skyline_defaults(&o->lp);
    outlier_defaults(&o->outliers);
}

skyjob *skyjob_new(void)
{
    skyjob *j = xcalloc(1, sizeof *j);
    j->last = -1;
    return j;
}

const char *skyjob_name(const skyjob *j) { return j->name; }

void skyjob_reset(skyjob *j, const char *name)
{
    size_t n = strlen(name) + 1;
    j->name = xgrow(j->name, &j->name_cap, n, 1);
    memcpy(j->name, name, n);
    j->ns = j->nruns = j->pool_len = 0;
    j->last = -1;
    if (j->hash)
        memset(j->hash, -1, j->hash_cap * sizeof *j->hash);
}

int skyjob_run(skyjob *j, const char *name, double start, int *created)
{
    if (created)
        *created = 0;
    if (j->last >= 0 && strcmp(j->pool + j->runs[j->last].name, name) == 0)
        return j->last;
    if (2 * (j->nruns + 1) > j->hash_cap) {
        size_t cap = j->hash_cap ? 2 * j->hash_cap : 64;
        free(j->hash);
        j->hash = xmalloc(cap * sizeof *j->hash);
        memset(j->hash, -1, cap * sizeof *j->hash);
        j->hash_cap = cap;
        for (size_t r = 0; r < j->nruns; r++) {
            size_t h = strhash_str(j->pool + j->runs[r].name) & (cap - 1);
            while (j->hash[h] >= 0)
                h = (h + 1) & (cap - 1);
            j->hash[h] = (int)r;
        }
    }
    size_t h = strhash_str(name) & (j->hash_cap - 1);
    while (j->hash[h] >= 0) {
        if (strcmp(j->pool + j->runs[j->hash[h]].name, name) == 0)
            return j->last = j->hash[h];
        h = (h + 1) & (j->hash_cap - 1);
    }
    size_t n = strlen(name) + 1;
    j->pool = xgrow(j->pool, &j->pool_cap, j->pool_len + n, 1);
    memcpy(j->pool + j->pool_len, name, n);
    j->runs = xgrow(j->runs, &j->runs_cap, j->nruns + 1, sizeof *j->runs);
    j->runs[j->nruns] = (struct run){.name = j->pool_len, .start = start};
    j->pool_len += n;
    j->hash[h] = (int)j->nruns;
    if (created)
        *created = 1;
    return j->last = (int)j->nruns++;
}

void skyjob_add(skyjob *j, int run, double t, double c)
{
    j->s = xgrow(j->s, &j->s_cap, j->ns + 1, sizeof *j->s);
    j->s[j->ns++] = (struct skyjob_sample){run, t, c};
}

void skyjob_shape(skyjob *j, int run, double c, double cores, double mem)
{
    struct run *r = &j->runs[run];
    r->w_sum += c;
    r->cores_sum += c * cores;
    r->mem_sum += c * mem;
    r->n_shape++;
    r->cores_plain += cores;
    r->mem_plain += mem;
}

/* ---- fitting and output ----------------------------------------------------------- */

/* A job's usage matrix is at most this many values (160 MB); the LP has
 * about three arcs per value. */
#define MAX_CELLS 20000000.0

const char *const skyjob_cols[] = {"job", "step", "offset", "alloc", "cores", "mem_mb", NULL};
const char *const skyjob_cols_plain[] = {"job", "step", "offset", "alloc", NULL};
const char *const skyjob_stats_cols[] = {"job", "runs", "steps", "objective", "a_o", "a_u", "eps",
                                         "beta", "solve_ms", "status", "excluded", "excluded_runs", "longest_run",
                                         "recorded_lengths", "prior_cost", NULL};

static int by_run_then_t(const void *a, const void *b)
{
    const struct skyjob_sample *x = a, *y = b;
    if (x->run != y->run)
        return x->run < y->run ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    /* samples at one t are summed: in the order of their values, so the
     * sum's last digits do not depend on the input's order */
    return (x->c > y->c) - (x->c < y->c);
}

static int by_start_then_name(const void *a, const void *b, void *ctx)
{
    const struct skyjob *jb = ctx;
    const struct run *x = &jb->runs[*(const int *)a], *y = &jb->runs[*(const int *)b];
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return strcmp(jb->pool + x->name, jb->pool + y->name);
}

/* step_of: the step, counted from start, that a sample at t falls in.
 * t and start are the doubles nearest their decimal text, each off by up to
 * half an ulp, and so is a time divided from milliseconds: a sample written
 * a whole number of steps after the start may come out a hair short of its
 * step's beginning (8150.005 and 8210.005, 60 s apart in the text, are
 * 59.99999999999909 s apart as doubles, the two on either side of 8192).
 * Within a few ulps of a step's beginning a sample counts as on it, so the
 * steps do not depend on where the run falls in the binary grid (times
 * shifted, relative or absolute, in seconds or --time-unit ms). */
static double step_of(double t, double start, double step)
{
    double x = (t - start) / step, k = floor(x);
    if (k + 1 - x <= 4 * DBL_EPSILON * (fabs(t) + fabs(start)) / step)
        k += 1;
    return k;
}

long skyjob_steps_csv(const struct skyjob_sample *s, size_t n, double start, double step)
{
    double k = step_of(s[n - 1].t, start, step) + 1;
    return k < 1e15 ? (long)k : (long)1e15;   /* absurd spans: caught by --max-steps */
}

void skyjob_quantize_csv(const struct skyjob_sample *s, size_t n, double start, double step, int agg_max,
                         double *u, long k)
{
    size_t a = 0;
    double prev = 0;
    for (long b = 0; b < k; b++) {
        double sum = 0, mx = 0;
        long cnt = 0;
        while (a < n && (long)step_of(s[a].t, start, step) == b) {
            sum += s[a].c;
            if (s[a].c > mx)
                mx = s[a].c;
            cnt++;
            a++;
        }
        u[b] = cnt ? (agg_max ? mx : sum / cnt) : prev;
        prev = u[b];
    }
}

/* Native units: c containers during [off, off + interval) after the start,
 * overlapping units add up.  Steps are time-weighted means (or maxima) of
 * that step function over [b*step, (b+1)*step). */
long skyjob_steps_native(const struct skyjob_sample *s, size_t n, double interval, double step)
{
    double end = 0;
    for (size_t a = 0; a < n; a++)
        if (s[a].t + interval > end)
            end = s[a].t + interval;
    double k = ceil(end / step - 1e-12);
    return k < 1 ? 1 : k < 1e15 ? (long)k : (long)1e15;
}

struct edge {
    double t, dc;
};
static int by_edge_t(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    return (x->t > y->t) - (x->t < y->t);
}

void skyjob_quantize_native(const struct skyjob_sample *s, size_t n, double interval, double step,
                            int agg_max, double *u, long k)
{
    struct edge *e = xmalloc(2 * n * sizeof *e);
    for (size_t a = 0; a < n; a++) {
        e[2 * a] = (struct edge){s[a].t, s[a].c};
        e[2 * a + 1] = (struct edge){s[a].t + interval, -s[a].c};
    }
    qsort(e, 2 * n, sizeof *e, by_edge_t);
    for (long b = 0; b < k; b++)
        u[b] = 0;
    double level = 0;
    for (size_t a = 0; a + 1 < 2 * n; a++) {
        level += e[a].dc;
        if (level < 1e-9)
            level = 0;   /* cancel rounding drift of + and - */
        double t0 = e[a].t, t1 = e[a + 1].t;
        if (t1 <= t0 || level == 0)
            continue;
        for (long b = (long)floor(t0 / step); b < k && b * step < t1; b++) {
            double lo = fmax(t0, b * step), hi = fmin(t1, (b + 1) * step);
            if (hi <= lo)
                continue;
            if (agg_max)
                u[b] = fmax(u[b], level);
            else
                u[b] += level * (hi - lo);
        }
    }
    if (!agg_max)
        for (long b = 0; b < k; b++)
            u[b] /= step;
    free(e);
}

/* run_steps, quantize: run r of j by the input's format. */
static long run_steps(const struct skyjob *j, const struct run *r, const struct skyjob_opts *o)
{
    const struct skyjob_sample *s = j->s + r->first;
    return o->native ? skyjob_steps_native(s, r->n, o->native_interval, o->step)
                     : skyjob_steps_csv(s, r->n, r->start, o->step);
}

static void quantize(const struct skyjob *j, const struct run *r, const struct skyjob_opts *o, double *u, long k)
{
    const struct skyjob_sample *s = j->s + r->first;
    if (o->native)
        skyjob_quantize_native(s, r->n, o->native_interval, o->step, o->agg_max, u, k);
    else
        skyjob_quantize_csv(s, r->n, r->start, o->step, o->agg_max, u, k);
}

/* report: name a job that was not fitted on stderr (the first
 * SLK_MANY_SHOWN; the summary counts the rest), once the input is read
 * (skyjob_out_release). */
static void report(struct skyjob_out *out, const char *job, const char *what, const char *detail)
{
    if (out->o->quiet)
        return;
    char *s = slk_many_hold(&out->tot.not_fitted, "job '%s': %s%s", job, what, detail ? detail : "");
    if (s && out->nheld < SLK_MANY_SHOWN)
        out->held[out->nheld++] = s;
    else
        free(s);
}

void skyjob_out_release(struct skyjob_out *out, int print)
{
    for (int k = 0; k < out->nheld; k++) {
        if (print)
            slk_note("%s", out->held[k]);
        free(out->held[k]);
    }
    out->nheld = 0;
}

/* stats_row: one --stats row; j (may be NULL) lists the excluded runs;
 * prior: the fit had one (its cost is in res). */
static void stats_row(csvw *ws, const char *job, long runs, long steps, const struct skyline_result *res,
                      int prior, double ms, const char *status, const struct skyjob *j)
{
    if (!ws)
        return;
    csvw_str(ws, job);
    csvw_int(ws, runs);
    csvw_int(ws, steps);
    if (res) {
        csvw_num(ws, res->objective);
        csvw_num(ws, res->a_o);
        csvw_num(ws, res->a_u);
        csvw_num(ws, res->eps);
        csvw_num(ws, res->beta);
        csvw_num_prec(ws, ms, 3);
    } else {
        for (int c = 0; c < 6; c++)
            csvw_str(ws, NULL);
    }
    csvw_str(ws, status);
    int64_t nx = j ? (int64_t)j->nexcluded : 0;
    csvw_int(ws, nx);
    csvw_str(ws, j && nx ? j->excluded : NULL);
    csvw_str(ws, j && res ? j->pool + j->longest : NULL);
    csvw_int(ws, j ? j->recorded : 0);
    if (res && prior)
        csvw_num(ws, res->prior_cost);
    else
        csvw_str(ws, NULL);
    csvw_end(ws);
}

/* select_runs: sort the job's samples and runs and choose the runs --window
 * and --last keep; returns their count, *sel points into j->order. */
static size_t select_runs(struct skyjob *j, const struct skyjob_opts *o, int **sel)
{
    /* samples by run, then time; runs by start time, then name */
    qsort(j->s, j->ns, sizeof *j->s, by_run_then_t);
    for (size_t a = 0, r = 0; r < j->nruns; r++) {
        j->runs[r].first = a;
        while (a < j->ns && j->s[a].run == (int)r)
            a++;
        j->runs[r].n = a - j->runs[r].first;
        if (!o->native)
            j->runs[r].start = j->s[j->runs[r].first].t;
    }
    j->order = xgrow(j->order, &j->order_cap, j->nruns, sizeof *j->order);
    for (size_t r = 0; r < j->nruns; r++)
        j->order[r] = (int)r;
    qsort_r(j->order, j->nruns, sizeof *j->order, by_start_then_name, j);
    size_t from = 0, n;
    if (o->window > 0 && j->nruns) {
        double latest = j->runs[j->order[j->nruns - 1]].start;
        while (j->runs[j->order[from]].start < latest - o->window)
            from++;
    }
    n = j->nruns - from;
    if (o->last > 0 && n > (size_t)o->last) {
        from += n - (size_t)o->last;
        n = (size_t)o->last;
    }
    *sel = j->order + from;
    return n;
}

/* count_sparse: count the job's CSV runs whose samples are all more than a
 * step apart (each run ends at its last sample, which then stands for less
 * time than it did in the input).  One pass over the sorted samples. */
static void count_sparse(const struct skyjob *j, const struct skyjob_opts *o, struct skyjob_totals *tot)
{
    long sparse = 0;
    for (size_t r = 0; !o->native && r < j->nruns; r++) {
        const struct skyjob_sample *s = j->s + j->runs[r].first;
        double gap = INFINITY;
        for (size_t a = 1; a < j->runs[r].n; a++)
            if (s[a].t - s[a - 1].t < gap)
                gap = s[a].t - s[a - 1].t;
        /* 1e-9: times written as decimal text, such as 5638.258934 + 300 */
        if (j->runs[r].n > 1 && gap > o->step * (1 + 1e-9)) {
            sparse++;
            if (tot->sparse_runs == 0 || gap < tot->sparse_gap)
                tot->sparse_gap = gap;
        }
    }
    tot->sparse_runs += sparse;
    tot->sparse_jobs += sparse > 0;
}

/* check_size: 0 when n runs of at most k steps can be fitted, else report
 * the job (too_many_steps) and return -1. */
static int check_size(struct skyjob *j, size_t n, long k, struct skyjob_out *out)
{
    const struct skyjob_opts *o = out->o;
    char d[192];
    if (k <= o->max_steps && (double)n * k > MAX_CELLS) {
        snprintf(d, sizeof d, " (%zu runs x %ld steps is more than %.0f values; use --last, --window or a longer --step)",
                 n, k, (double)MAX_CELLS);
        report(out, j->name, "not fitted: too much history", d);
    } else if (k > o->max_steps) {
        snprintf(d, sizeof d, " (a run spans %ld steps of %g s, more than --max-steps %ld; is t in seconds?)",
                 k, o->step, o->max_steps);
        report(out, j->name, "not fitted: run too long", d);
    } else {
        return 0;
    }
    stats_row(out->ws, j->name, (long)n, k, NULL, 0, 0, "too_many_steps", NULL);
    out->tot.too_long++;
    return -1;
}

/* recorded_length: run r's end - start from the runs table o->runs, NaN
 * when it has none.  A recorded start over a day (plus the run's length)
 * from the run's first sample cannot be the same run's: counted in
 * tot->runs_apart (the first described in tot->apart), for the tool to
 * refuse the table. */
static double recorded_length(const struct skyjob *j, const struct run *r, const struct skyjob_opts *o,
                              struct skyjob_totals *tot)
{
    struct runlen_row row;
    if (runlen_find(o->runs, j->name, j->pool + r->name, &row) < 0)
        return NAN;
    double apart = r->start - row.start;
    if (!(fabs(apart) <= 86400 + (isnan(row.len) ? 0 : row.len))) {
        if (!tot->runs_apart++) {
            char a[32], b[32];
            tot->apart_line = row.line;
            snprintf(tot->apart, sizeof tot->apart,
                     "run '%s' of job '%s' starts at %s, %.0f %s %s its first usage sample at %s",
                     j->pool + r->name, j->name, parse_time_format(row.start, a),
                     fabs(apart) >= 2 * 86400 ? fabs(apart) / 86400 : fabs(apart) / 3600,
                     fabs(apart) >= 2 * 86400 ? "days" : "hours", apart > 0 ? "before" : "after",
                     parse_time_format(r->start, b));
        }
    }
    return row.len;
}

/* build_matrix: quantize the n selected runs into j->use (n x *k, rows in
 * sel order), then drop the outlier runs (outlier.h) from it, listing them
 * in j->excluded.  The rule measures a run's length in seconds: end - start
 * from the runs table o->runs when it has one (counted in j->recorded),
 * else its steps x step.  Returns the number of runs kept; *k becomes the
 * longest kept run's steps. */
static size_t build_matrix(struct skyjob *j, const struct skyjob_opts *o, int *sel, size_t n, long *k,
                           struct skyjob_totals *tot)
{
    j->use = xgrow(j->use, &j->use_cap, n * (size_t)*k, sizeof *j->use);
    double *len = xmalloc(3 * n * sizeof *len), *area = len + n, *steps = len + 2 * n;
    j->recorded = 0;
    for (size_t a = 0; a < n; a++) {
        const struct run *r = &j->runs[sel[a]];
        double *u = j->use + a * (size_t)*k;
        long kr = run_steps(j, r, o);
        quantize(j, r, o, u, kr);
        double rec = recorded_length(j, r, o, tot);
        steps[a] = (double)kr;
        len[a] = isnan(rec) ? (double)kr * o->step : rec;
        j->recorded += !isnan(rec);
        area[a] = 0;
        for (long b = 0; b < kr; b++)
            area[a] += u[b];
        for (long b = kr; b < *k; b++)
            u[b] = 0;   /* the run has ended */
    }
    j->out = xgrow(j->out, &j->out_cap, n, 1);
    j->excluded_len = j->nexcluded = 0;
    size_t nout = outlier_mark(len, area, n, o->step, &o->outliers, j->out), best = n;
    for (size_t a = 0; a < n; a++)
        if (!j->out[a] && (best == n || steps[a] > steps[best]))
            best = a;  /* the first of the longest, in start order */
    j->longest = j->runs[sel[best]].name;
    if (!nout) {
        free(len);
        return n;
    }
    long knew = 1;
    for (size_t a = 0; a < n; a++)
        if (!j->out[a] && steps[a] > knew)
            knew = (long)steps[a];
    size_t m = 0;
    for (size_t a = 0; a < n; a++) {
        if (j->out[a]) {
            const char *name = j->pool + j->runs[sel[a]].name;
            size_t l = strlen(name);
            j->excluded = xgrow(j->excluded, &j->excluded_cap, j->excluded_len + l + 2, 1);
            if (j->excluded_len)
                j->excluded[j->excluded_len++] = ';';
            memcpy(j->excluded + j->excluded_len, name, l + 1);
            j->excluded_len += l;
            j->nexcluded++;
            continue;
        }
        memmove(j->use + m * (size_t)knew, j->use + a * (size_t)*k, (size_t)knew * sizeof *j->use);
        m++;
    }
    free(len);
    *k = knew;
    return m;
}

/* written: alloc a as write_alloc writes it */
static double written(const struct skyjob_opts *o, double a)
{
    if (o->round_up)
        a = ceil(a - 1e-9);
    return a < 0 ? 0 : a;
}

/* fitted_shape: the container shape of the n selected runs sel that the
 * fit kept (not marked in j->out): container-weighted means of cores and
 * mem_mb over their samples, plain means when they hold no container; NAN
 * when none has a shape.  Runs --window, --last or the outlier rule leave
 * out do not count: a job resized a month ago is written at its new size. */
static void fitted_shape(const struct skyjob *j, const int *sel, size_t n, double *cores, double *mem)
{
    double w = 0, cs = 0, ms = 0, np = 0, cp = 0, mp = 0;
    for (size_t a = 0; a < n; a++) {
        if (j->out[a])
            continue;
        const struct run *r = &j->runs[sel[a]];
        w += r->w_sum;
        cs += r->cores_sum;
        ms += r->mem_sum;
        np += r->n_shape;
        cp += r->cores_plain;
        mp += r->mem_plain;
    }
    *cores = *mem = NAN;
    if (w > 0) {
        *cores = cs / w;
        *mem = ms / w;
    } else if (np > 0) {
        *cores = cp / np;
        *mem = mp / np;
    }
}

/* write_alloc: the job's rows job,step,offset,alloc[,cores,mem_mb] (the
 * shape of the n selected runs sel the fit kept). */
static void write_alloc(const struct skyjob *j, const struct skyjob_opts *o, const int *sel, size_t n, long k,
                        csvw *w, int shape_cols)
{
    double cores = 1, mem = 1024; /* native: the ResourceEstimator's container, <1 core, 1024 MB> */
    if (!o->native)
        fitted_shape(j, sel, n, &cores, &mem);
    for (long b = 0; b < k; b++) {
        double a = written(o, j->alloc[b]);
        csvw_str(w, j->name);
        csvw_num(w, o->step);
        csvw_num(w, b * o->step);
        csvw_num(w, a);
        if (shape_cols) {
            csvw_num(w, cores);
            csvw_num(w, mem);
        }
        csvw_end(w);
    }
}

/* with_prior: put the job's prior from o->prior into *lp (at this step);
 * 1 when it has one, else 0 (counted when the prior has another step). */
static int with_prior(const struct skyjob *j, const struct skyjob_opts *o, struct skyjob_totals *tot,
                      struct skyline_opts *lp)
{
    const double *p;
    int pk;
    int got = skyprior_get(o->prior, j->name, o->step, &p, &pk, NULL);
    if (got < 0)
        tot->prior_other_step++;
    if (got <= 0 || !(o->prior_weight * lp->alpha > 0))
        return 0;
    lp->prior = p;
    lp->prior_k = pk;
    lp->prior_mu = o->prior_weight * lp->alpha;
    return 1;
}

/* as_prior: 1 when the k steps written equal the prior's (same length,
 * every value within 1e-9 relative: the prior came back through text). */
static int as_prior(const struct skyjob *j, const struct skyjob_opts *o, long k,
                    const struct skyline_opts *lp)
{
    if (k != lp->prior_k)
        return 0;
    for (long b = 0; b < k; b++) {
        double a = written(o, j->alloc[b]), p = lp->prior[b];
        if (fabs(a - p) > 1e-9 * (1 + fabs(p)))
            return 0;
    }
    return 1;
}

void skyjob_fit(skyjob *j, struct skyjob_out *out)
{
    const struct skyjob_opts *o = out->o;
    struct skyjob_totals *tot = &out->tot;
    csvw *ws = out->ws;
    tot->jobs++;
    int *sel;
    size_t n = select_runs(j, o, &sel);
    count_sparse(j, o, tot);
    j->excluded_len = j->nexcluded = 0;
    if (n < (size_t)o->min_runs) {
        char d[96];
        snprintf(d, sizeof d, " (%zu < --min-runs %d)", n, o->min_runs);
        report(out, j->name, "not fitted: too few runs", d);
        stats_row(ws, j->name, (long)n, 0, NULL, 0, 0, "too_few_runs", NULL);
        tot->too_few++;
        return;
    }
    long k = 1;
    for (size_t a = 0; a < n; a++) {
        const struct run *r = &j->runs[sel[a]];
        long kr = run_steps(j, r, o);
        if (kr > k)
            k = kr;
    }
    if (check_size(j, n, k, out) < 0)
        return;
    size_t kept = build_matrix(j, o, sel, n, &k, tot);
    tot->measured += (long)n;
    tot->recorded += j->recorded;
    if (kept < n) {
        tot->excluded_runs += (long)(n - kept);
        tot->excluded_jobs++;
    }
    j->alloc = xgrow(j->alloc, &j->alloc_cap, (size_t)k, sizeof *j->alloc);
    struct skyline_result res;
    struct skyline_opts lp = o->lp;
    int prior = with_prior(j, o, tot, &lp);
    double t0 = slk_now();
    int st = skyline_fit(j->use, (int)kept, (int)k, &lp, j->alloc, &res);
    double ms = (slk_now() - t0) * 1000;
    tot->solve_s += ms / 1000;
    if (st != SKYLINE_OK) {
        report(out, j->name, "not fitted: the LP solver failed", NULL);
        stats_row(ws, j->name, (long)kept, k, NULL, 0, ms, "solver_failed", j);
        tot->failed++;
        return;
    }
    if (res.fallback)
        tot->fallback++;
    tot->fitted++;
    if (prior) {
        tot->prior_jobs++;
        tot->prior_kept += as_prior(j, o, k, &lp);
    }
    stats_row(ws, j->name, (long)kept, k, &res, prior, ms, "optimal", j);
    write_alloc(j, o, sel, n, k, out->w, out->shape_cols);
}

void skyjob_free(skyjob *j)
{
    if (!j)
        return;
    free(j->name);
    free(j->s);
    free(j->runs);
    free(j->pool);
    free(j->hash);
    free(j->use);
    free(j->alloc);
    free(j->order);
    free(j->out);
    free(j->excluded);
    free(j);
}
