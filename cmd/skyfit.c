/* skyfit — a job's resource model from its run history: the Morpheus skyline LP.
 *
 *   skyfit [OPTION...] [FILE]
 *
 * Reads usage rows job,run,t,containers[,cores,mem_mb] grouped by job (or the
 * Hadoop ResourceEstimator native skyline log with --format native), aligns
 * each job's runs at their start, quantizes them to --step, fits the
 * allocation with lib/morpheus/skyline and writes job,step,offset,alloc[,cores,mem_mb].
 * One job is in memory at a time.  The model and the options are in skyfit(1).
 */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/group.h"
#include "base/outfile.h"
#include "base/parse.h"
#include "morpheus/native.h"
#include "morpheus/outlier.h"
#include "morpheus/skyline.h"

#include <argp.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- options ----------------------------------------------------------------- */

static struct {
    const char *input;
    int native;
    double step;
    int agg_max;
    int min_runs;
    long last;
    double window;
    int round_up;
    int sort;
    const char *stats;
    int strict;
    double native_interval;
    int native_memory;   /* --native-resource memory */
    long max_steps;
    struct skyline_opts lp;
    struct outlier_opts outliers;
} opt = {.step = 60, .min_runs = 2, .native_interval = 5, .max_steps = 100000};

enum {
    OPT_FORMAT = 1, OPT_ALPHA, OPT_BETA, OPT_BETA_FRAC, OPT_STEP, OPT_AGG, OPT_MIN_RUNS,
    OPT_LAST, OPT_WINDOW, OPT_ROUND, OPT_STATS, OPT_STRICT, OPT_SOLVER, OPT_NATIVE_INTERVAL, OPT_NATIVE_RESOURCE,
    OPT_MAX_STEPS, OPT_JOB_COL, OPT_RUN_COL, OPT_T_COL, OPT_CONTAINERS_COL, OPT_CORES_COL,
    OPT_MEM_COL, OPT_OUTLIER_K, OPT_KEEP_OUTLIERS, OPT_SORT = 's'
};

static const struct argp_option options[] = {
    {0, 0, 0, 0, "Model:", 1},
    {"alpha", OPT_ALPHA, "A", 0, "Weight of over-allocation in [0,1]; the rest weighs the final debt (default 0.01, the paper's choice)", 1},
    {"beta", OPT_BETA, "B", 0, "Fixed weight of the regularizer eps (default: the two-phase rule)", 1},
    {"beta-frac", OPT_BETA_FRAC, "F", 0, "Two-phase rule: beta = F * V, V the optimum without eps (default 0.1)", 1},
    {"step", OPT_STEP, "DUR", 0, "Length of one time step, e.g. 60, 5m (default 60 s)", 1},
    {"agg", OPT_AGG, "mean|max", 0, "How samples in one step become its usage (default mean)", 1},
    {"min-runs", OPT_MIN_RUNS, "N", 0, "Jobs with fewer runs get status too_few_runs and no fit (default 2)", 1},
    {"last", OPT_LAST, "N", 0, "Use only each job's N most recent runs (by start time)", 1},
    {"window", OPT_WINDOW, "DUR", 0, "Use only runs that started within DUR of the job's latest run, e.g. 30d", 1},
    {"round", OPT_ROUND, NULL, 0, "Round the allocation up to whole containers", 1},
    {"outlier-k", OPT_OUTLIER_K, "K", 0, "Keep runs longer or larger than median + K spreads out of the fit (default 3; spread = max(1.4826 MAD, 0.1 median, half a step); jobs with 5 runs or more)", 1},
    {"keep-outliers", OPT_KEEP_OUTLIERS, NULL, 0, "Fit every selected run (no outlier rule)", 1},
    {"max-steps", OPT_MAX_STEPS, "N", 0, "Jobs whose longest run spans more steps get status too_many_steps (default 100000)", 1},
    {"solver", OPT_SOLVER, "NAME", 0, "network (default: the LP's dual min-cost flow by network simplex, certified), glpk-flow (the same flow by GLPK) or glpk-plain (the LP as written, by GLPK)", 1},
    {0, 0, 0, 0, "Input and output:", 2},
    {"format", OPT_FORMAT, "csv|native", 0, "Input format: CSV usage rows (default) or the ResourceEstimator native skyline log", 2},
    {"native-interval", OPT_NATIVE_INTERVAL, "DUR", 0, "Native format: seconds each skyline unit lasts (default 5, the estimator's timeInterval)", 2},
    {"sort", OPT_SORT, NULL, 0, "Rows in any order: hold the input and group it by job first (memory: about 100 bytes a row; CSV only)", 2},
    {"native-resource", OPT_NATIVE_RESOURCE, "containers|memory", 0, "Native format: fit the container skyline (default) or the memory skyline (containers x the log's MB per container, in 1024 MB containers)", 2},
    {"stats", OPT_STATS, "FILE", 0, "Write a per-job summary (runs, steps, objective, terms, solve time, status) to FILE", 2},
    {"strict", OPT_STRICT, NULL, 0, "Exit 1 when any job could not be fitted", 2},
    {"job-col", OPT_JOB_COL, "NAME", 0, "Column with the job name (default job)", 2},
    {"run-col", OPT_RUN_COL, "NAME", 0, "Column with the run id (default run)", 2},
    {"t-col", OPT_T_COL, "NAME", 0, "Column with the sample time (default t)", 2},
    {"containers-col", OPT_CONTAINERS_COL, "NAME", 0, "Column with the containers in use (default containers)", 2},
    {"cores-col", OPT_CORES_COL, "NAME", 0, "Column with cores per container (default cores; optional)", 2},
    {"mem-col", OPT_MEM_COL, "NAME", 0, "Column with memory per container in MB (default mem_mb; optional)", 2},
    {0}
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    switch (key) {
    case OPT_FORMAT:
        if (strcmp(arg, "csv") == 0)
            opt.native = 0;
        else if (strcmp(arg, "native") == 0)
            opt.native = 1;
        else
            argp_error(st, "invalid value for --format: '%s' (want csv or native)", arg);
        break;
    case OPT_ALPHA: opt.lp.alpha = cli_double(st, "alpha", arg, 0, 1); break;
    case OPT_BETA: opt.lp.beta = cli_double(st, "beta", arg, 0, 1e12); break;
    case OPT_BETA_FRAC: opt.lp.beta_frac = cli_double(st, "beta-frac", arg, 0, 1e6); break;
    case OPT_STEP:
        opt.step = cli_duration(st, "step", arg, 0);
        if (!(opt.step > 0))
            argp_error(st, "invalid value for --step: '%s' (must be positive)", arg);
        break;
    case OPT_AGG:
        if (strcmp(arg, "mean") == 0)
            opt.agg_max = 0;
        else if (strcmp(arg, "max") == 0)
            opt.agg_max = 1;
        else
            argp_error(st, "invalid value for --agg: '%s' (want mean or max)", arg);
        break;
    case OPT_MIN_RUNS: opt.min_runs = (int)cli_int(st, "min-runs", arg, 1, 1000000); break;
    case OPT_LAST: opt.last = (long)cli_int(st, "last", arg, 1, 100000000); break;
    case OPT_WINDOW:
        opt.window = cli_duration(st, "window", arg, 0);
        if (!(opt.window > 0))
            argp_error(st, "invalid value for --window: '%s' (must be positive)", arg);
        break;
    case OPT_ROUND: opt.round_up = 1; break;
    case OPT_OUTLIER_K: opt.outliers.k = cli_double(st, "outlier-k", arg, 0.5, 1e6); break;
    case OPT_KEEP_OUTLIERS: opt.outliers.k = 0; break;
    case OPT_MAX_STEPS: opt.max_steps = (long)cli_int(st, "max-steps", arg, 1, 100000000); break;
    case OPT_SOLVER:
        if (strcmp(arg, "network") == 0)
            opt.lp.solver = SKYLINE_NETWORK;
        else if (strcmp(arg, "glpk-flow") == 0)
            opt.lp.solver = SKYLINE_FLOW;
        else if (strcmp(arg, "glpk-plain") == 0)
            opt.lp.solver = SKYLINE_PLAIN;
        else
            argp_error(st, "invalid value for --solver: '%s' (want network, glpk-flow or glpk-plain)", arg);
        break;
    case OPT_NATIVE_INTERVAL:
        opt.native_interval = cli_duration(st, "native-interval", arg, 0);
        if (!(opt.native_interval > 0))
            argp_error(st, "invalid value for --native-interval: '%s' (must be positive)", arg);
        break;
    case OPT_NATIVE_RESOURCE: {
        static const char *const res[] = {"containers", "memory", NULL};
        opt.native_memory = cli_choice(st, "native-resource", arg, res);
        break;
    }
    case OPT_STATS: opt.stats = arg; break;
    case OPT_SORT: opt.sort = 1; break;
    case OPT_STRICT: opt.strict = 1; break;
    case OPT_JOB_COL: cli_colmap_add("job", arg); break;
    case OPT_RUN_COL: cli_colmap_add("run", arg); break;
    case OPT_T_COL: cli_colmap_add("t", arg); break;
    case OPT_CONTAINERS_COL: cli_colmap_add("containers", arg); break;
    case OPT_CORES_COL: cli_colmap_add("cores", arg); break;
    case OPT_MEM_COL: cli_colmap_add("mem_mb", arg); break;
    case ARGP_KEY_ARG:
        if (opt.input)
            argp_error(st, "one input FILE only (got '%s' and '%s')", opt.input, arg);
        opt.input = arg;
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* ---- one job's runs ------------------------------------------------------------ */

/* A sample: `c` containers at time t (CSV), or, in the native format, c
 * containers during [t, t + native_interval) where t is an offset from the
 * run's start. */
struct sample {
    int run;
    double t, c;
};

struct run {
    size_t name;        /* offset in the job's name pool */
    double start;       /* CSV: earliest sample; native: the start field */
    size_t first, n;    /* its samples after sorting */
    int keep;
};

struct job {
    char *name;
    size_t name_cap;
    struct sample *s;
    size_t ns, s_cap;
    struct run *runs;
    size_t nruns, runs_cap;
    char *pool;
    size_t pool_len, pool_cap;
    int *hash;          /* open addressing over run indices, -1 empty */
    size_t hash_cap;
    /* container shape: container-weighted sums */
    double w_sum, cores_sum, mem_sum, n_shape, cores_plain, mem_plain;
    int have_shape;
    /* the quantized matrix and the fit */
    double *use, *alloc;
    size_t use_cap, alloc_cap;
    int *order;
    size_t order_cap;
    unsigned char *out; /* outlier flags of the selected runs */
    size_t out_cap;
    char *excluded;     /* names of the excluded runs, ';'-separated */
    size_t excluded_len, excluded_cap;
    size_t longest;     /* pool offset of the longest run fitted (sets the skyline's length) */
};

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static void job_reset(struct job *j, const char *name)
{
    size_t n = strlen(name) + 1;
    j->name = xgrow(j->name, &j->name_cap, n, 1);
    memcpy(j->name, name, n);
    j->ns = j->nruns = j->pool_len = 0;
    j->w_sum = j->cores_sum = j->mem_sum = j->n_shape = j->cores_plain = j->mem_plain = 0;
    if (j->hash)
        memset(j->hash, -1, j->hash_cap * sizeof *j->hash);
}

/* job_run: the index of run `name` in this job, created (with start) if new. */
static int job_run(struct job *j, const char *name, double start)
{
    if (2 * (j->nruns + 1) > j->hash_cap) {
        size_t cap = j->hash_cap ? 2 * j->hash_cap : 64;
        free(j->hash);
        j->hash = xmalloc(cap * sizeof *j->hash);
        memset(j->hash, -1, cap * sizeof *j->hash);
        j->hash_cap = cap;
        for (size_t r = 0; r < j->nruns; r++) {
            size_t h = hash_str(j->pool + j->runs[r].name) & (cap - 1);
            while (j->hash[h] >= 0)
                h = (h + 1) & (cap - 1);
            j->hash[h] = (int)r;
        }
    }
    size_t h = hash_str(name) & (j->hash_cap - 1);
    while (j->hash[h] >= 0) {
        if (strcmp(j->pool + j->runs[j->hash[h]].name, name) == 0)
            return j->hash[h];
        h = (h + 1) & (j->hash_cap - 1);
    }
    size_t n = strlen(name) + 1;
    j->pool = xgrow(j->pool, &j->pool_cap, j->pool_len + n, 1);
    memcpy(j->pool + j->pool_len, name, n);
    j->runs = xgrow(j->runs, &j->runs_cap, j->nruns + 1, sizeof *j->runs);
    j->runs[j->nruns] = (struct run){.name = j->pool_len, .start = start};
    j->pool_len += n;
    j->hash[h] = (int)j->nruns;
    return (int)j->nruns++;
}

static void job_add(struct job *j, int run, double t, double c)
{
    j->s = xgrow(j->s, &j->s_cap, j->ns + 1, sizeof *j->s);
    j->s[j->ns++] = (struct sample){run, t, c};
}

/* ---- fitting and output ----------------------------------------------------------- */

/* A job's usage matrix is at most this many values (160 MB); the LP has
 * about three arcs per value. */
#define MAX_CELLS 20000000.0

struct totals {
    long jobs, fitted, failed, too_few, too_long, fallback, excluded_runs, excluded_jobs;
    double solve_s;
    int first_reported;
};

static const char *const out_cols[] = {"job", "step", "offset", "alloc", "cores", "mem_mb", NULL};
static const char *const out_cols_plain[] = {"job", "step", "offset", "alloc", NULL};
static const char *const stats_cols[] = {"job", "runs", "steps", "objective", "a_o", "a_u", "eps",
                                         "beta", "solve_ms", "status", "excluded", "excluded_runs", "longest_run", NULL};

static int by_run_then_t(const void *a, const void *b)
{
    const struct sample *x = a, *y = b;
    if (x->run != y->run)
        return x->run < y->run ? -1 : 1;
    return (x->t > y->t) - (x->t < y->t);
}

static int by_start_then_name(const void *a, const void *b, void *ctx)
{
    const struct job *jb = ctx;
    const struct run *x = &jb->runs[*(const int *)a], *y = &jb->runs[*(const int *)b];
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return strcmp(jb->pool + x->name, jb->pool + y->name);
}

/* quantize_csv: samples of one run -> usage per step (mean or max of the
 * samples in the step; a step without samples inside the run keeps the value
 * of the step before).  Returns the number of steps. */
static long run_steps_csv(const struct job *j, const struct run *r)
{
    const struct sample *s = j->s + r->first;
    double k = floor((s[r->n - 1].t - r->start) / opt.step) + 1;
    return k < 1e15 ? (long)k : (long)1e15;   /* absurd spans: caught by --max-steps */
}

static void quantize_csv(const struct job *j, const struct run *r, double *u, long k)
{
    const struct sample *s = j->s + r->first;
    size_t a = 0;
    double prev = 0;
    for (long b = 0; b < k; b++) {
        double sum = 0, mx = 0;
        long cnt = 0;
        while (a < r->n && (long)floor((s[a].t - r->start) / opt.step) == b) {
            sum += s[a].c;
            if (s[a].c > mx)
                mx = s[a].c;
            cnt++;
            a++;
        }
        u[b] = cnt ? (opt.agg_max ? mx : sum / cnt) : prev;
        prev = u[b];
    }
}

/* Native units: c containers during [off, off + interval) after the start,
 * overlapping units add up.  Steps are time-weighted means (or maxima) of
 * that step function over [b*step, (b+1)*step). */
static long run_steps_native(const struct job *j, const struct run *r)
{
    double end = 0;
    for (size_t a = 0; a < r->n; a++)
        if (j->s[r->first + a].t + opt.native_interval > end)
            end = j->s[r->first + a].t + opt.native_interval;
    double k = ceil(end / opt.step - 1e-12);
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

static void quantize_native(const struct job *j, const struct run *r, double *u, long k)
{
    struct edge *e = xmalloc(2 * r->n * sizeof *e);
    for (size_t a = 0; a < r->n; a++) {
        const struct sample *s = &j->s[r->first + a];
        e[2 * a] = (struct edge){s->t, s->c};
        e[2 * a + 1] = (struct edge){s->t + opt.native_interval, -s->c};
    }
    qsort(e, 2 * r->n, sizeof *e, by_edge_t);
    for (long b = 0; b < k; b++)
        u[b] = 0;
    double level = 0;
    for (size_t a = 0; a + 1 < 2 * r->n; a++) {
        level += e[a].dc;
        if (level < 1e-9)
            level = 0;   /* cancel rounding drift of + and - */
        double t0 = e[a].t, t1 = e[a + 1].t;
        if (t1 <= t0 || level == 0)
            continue;
        for (long b = (long)floor(t0 / opt.step); b < k && b * opt.step < t1; b++) {
            double lo = fmax(t0, b * opt.step), hi = fmin(t1, (b + 1) * opt.step);
            if (hi <= lo)
                continue;
            if (opt.agg_max)
                u[b] = fmax(u[b], level);
            else
                u[b] += level * (hi - lo);
        }
    }
    if (!opt.agg_max)
        for (long b = 0; b < k; b++)
            u[b] /= opt.step;
    free(e);
}

/* report: name a job that was not fitted on stderr (the first 10). */
static void report(struct totals *tot, const char *job, const char *what, const char *detail)
{
    if (slk_opt.quiet)
        return;
    if (tot->first_reported < 10)
        fprintf(stderr, "%s: job '%s': %s%s\n", slk_progname, job, what, detail ? detail : "");
    else if (tot->first_reported == 10)
        fprintf(stderr, "%s: (more jobs not fitted; see --stats)\n", slk_progname);
    tot->first_reported++;
}

/* stats_row: one --stats row; j (may be NULL) lists the excluded runs. */
static void stats_row(csvw *ws, const char *job, long runs, long steps,
                      const struct skyline_result *res, double ms, const char *status, const struct job *j)
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
    int nx = 0;
    if (j && j->excluded_len) {
        nx = 1;
        for (const char *p = j->excluded; *p; p++)
            nx += *p == ';';
    }
    csvw_int(ws, nx);
    csvw_str(ws, j && nx ? j->excluded : NULL);
    csvw_str(ws, j && res ? j->pool + j->longest : NULL);
    csvw_end(ws);
}

/* select_runs: sort the job's samples and runs and choose the runs --window
 * and --last keep; returns their count, *sel points into j->order. */
static size_t select_runs(struct job *j, int **sel)
{
    /* samples by run, then time; runs by start time, then name */
    qsort(j->s, j->ns, sizeof *j->s, by_run_then_t);
    for (size_t a = 0, r = 0; r < j->nruns; r++) {
        j->runs[r].first = a;
        while (a < j->ns && j->s[a].run == (int)r)
            a++;
        j->runs[r].n = a - j->runs[r].first;
        if (!opt.native)
            j->runs[r].start = j->s[j->runs[r].first].t;
    }
    j->order = xgrow(j->order, &j->order_cap, j->nruns, sizeof *j->order);
    for (size_t r = 0; r < j->nruns; r++)
        j->order[r] = (int)r;
    qsort_r(j->order, j->nruns, sizeof *j->order, by_start_then_name, j);
    size_t from = 0, n;
    if (opt.window > 0 && j->nruns) {
        double latest = j->runs[j->order[j->nruns - 1]].start;
        while (j->runs[j->order[from]].start < latest - opt.window)
            from++;
    }
    n = j->nruns - from;
    if (opt.last > 0 && n > (size_t)opt.last) {
        from += n - (size_t)opt.last;
        n = (size_t)opt.last;
    }
    *sel = j->order + from;
    return n;
}

/* check_size: 0 when n runs of at most k steps can be fitted, else report
 * the job (too_many_steps) and return -1. */
static int check_size(struct job *j, size_t n, long k, csvw *ws, struct totals *tot)
{
    char d[192];
    if (k <= opt.max_steps && (double)n * k > MAX_CELLS) {
        snprintf(d, sizeof d, " (%zu runs x %ld steps is more than %.0f values; use --last, --window or a longer --step)",
                 n, k, (double)MAX_CELLS);
        report(tot, j->name, "not fitted: too much history", d);
    } else if (k > opt.max_steps) {
        snprintf(d, sizeof d, " (a run spans %ld steps of %g s, more than --max-steps %ld; is t in seconds?)",
                 k, opt.step, opt.max_steps);
        report(tot, j->name, "not fitted: run too long", d);
    } else {
        return 0;
    }
    stats_row(ws, j->name, (long)n, k, NULL, 0, "too_many_steps", NULL);
    tot->too_long++;
    return -1;
}

/* build_matrix: quantize the n selected runs into j->use (n x *k, rows in
 * sel order), then drop the outlier runs (outlier.h) from it, listing them
 * in j->excluded.  Returns the number of runs kept; *k becomes the longest
 * kept run's steps. */
static size_t build_matrix(struct job *j, int *sel, size_t n, long *k)
{
    j->use = xgrow(j->use, &j->use_cap, n * (size_t)*k, sizeof *j->use);
    double *len = xmalloc(2 * n * sizeof *len), *area = len + n;
    for (size_t a = 0; a < n; a++) {
        const struct run *r = &j->runs[sel[a]];
        double *u = j->use + a * (size_t)*k;
        long kr = opt.native ? run_steps_native(j, r) : run_steps_csv(j, r);
        if (opt.native)
            quantize_native(j, r, u, kr);
        else
            quantize_csv(j, r, u, kr);
        len[a] = (double)kr;
        area[a] = 0;
        for (long b = 0; b < kr; b++)
            area[a] += u[b];
        for (long b = kr; b < *k; b++)
            u[b] = 0;   /* the run has ended */
    }
    j->out = xgrow(j->out, &j->out_cap, n, 1);
    j->excluded_len = 0;
    size_t nout = outlier_mark(len, area, n, &opt.outliers, j->out), best = n;
    for (size_t a = 0; a < n; a++)
        if (!j->out[a] && (best == n || len[a] > len[best]))
            best = a;  /* the first of the longest, in start order */
    j->longest = j->runs[sel[best]].name;
    if (!nout) {
        free(len);
        return n;
    }
    long knew = 1;
    for (size_t a = 0; a < n; a++)
        if (!j->out[a] && len[a] > knew)
            knew = (long)len[a];
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
            continue;
        }
        memmove(j->use + m * (size_t)knew, j->use + a * (size_t)*k, (size_t)knew * sizeof *j->use);
        m++;
    }
    free(len);
    *k = knew;
    return m;
}

/* write_alloc: the job's rows job,step,offset,alloc[,cores,mem_mb]. */
static void write_alloc(const struct job *j, long k, csvw *w, int shape_cols)
{
    double cores = NAN, mem = NAN;
    if (opt.native) {
        cores = 1;      /* the ResourceEstimator's container: <1 core, 1024 MB> */
        mem = 1024;
    } else if (j->w_sum > 0) {
        cores = j->cores_sum / j->w_sum;
        mem = j->mem_sum / j->w_sum;
    } else if (j->n_shape > 0) {
        cores = j->cores_plain / j->n_shape;
        mem = j->mem_plain / j->n_shape;
    }
    for (long b = 0; b < k; b++) {
        double a = j->alloc[b];
        if (opt.round_up)
            a = ceil(a - 1e-9);
        if (a < 0)
            a = 0;
        csvw_str(w, j->name);
        csvw_num(w, opt.step);
        csvw_num(w, b * opt.step);
        csvw_num(w, a);
        if (shape_cols) {
            csvw_num(w, cores);
            csvw_num(w, mem);
        }
        csvw_end(w);
    }
}

/* job_fit: select, quantize and fit one complete job, and write its rows. */
static void job_fit(struct job *j, csvw *w, csvw *ws, int shape_cols, struct totals *tot)
{
    tot->jobs++;
    int *sel;
    size_t n = select_runs(j, &sel);
    j->excluded_len = 0;
    if (n < (size_t)opt.min_runs) {
        char d[96];
        snprintf(d, sizeof d, " (%zu < --min-runs %d)", n, opt.min_runs);
        report(tot, j->name, "not fitted: too few runs", d);
        stats_row(ws, j->name, (long)n, 0, NULL, 0, "too_few_runs", NULL);
        tot->too_few++;
        return;
    }
    long k = 1;
    for (size_t a = 0; a < n; a++) {
        const struct run *r = &j->runs[sel[a]];
        long kr = opt.native ? run_steps_native(j, r) : run_steps_csv(j, r);
        if (kr > k)
            k = kr;
    }
    if (check_size(j, n, k, ws, tot) < 0)
        return;
    size_t kept = build_matrix(j, sel, n, &k);
    if (kept < n) {
        tot->excluded_runs += (long)(n - kept);
        tot->excluded_jobs++;
    }
    j->alloc = xgrow(j->alloc, &j->alloc_cap, (size_t)k, sizeof *j->alloc);
    struct skyline_result res;
    double t0 = slk_now();
    int st = skyline_fit(j->use, (int)kept, (int)k, &opt.lp, j->alloc, &res);
    double ms = (slk_now() - t0) * 1000;
    tot->solve_s += ms / 1000;
    if (st != SKYLINE_OK) {
        report(tot, j->name, "not fitted: the LP solver failed", NULL);
        stats_row(ws, j->name, (long)kept, k, NULL, ms, "solver_failed", j);
        tot->failed++;
        return;
    }
    if (res.fallback)
        tot->fallback++;
    tot->fitted++;
    stats_row(ws, j->name, (long)kept, k, &res, ms, "optimal", j);
    write_alloc(j, k, w, shape_cols);
}

static void job_free(struct job *j)
{
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
}

/* ---- readers ------------------------------------------------------------------------ */

/* One parsed usage row. */
struct sample_row {
    double t, c, cores, mem;
};

/* add_sample: a row of the current job. */
static void add_sample(struct job *j, const char *run, const struct sample_row *x, int shape)
{
    job_add(j, job_run(j, run, x->t), x->t, x->c);
    if (shape) {
        j->w_sum += x->c;
        j->cores_sum += x->c * x->cores;
        j->mem_sum += x->c * x->mem;
        j->n_shape++;
        j->cores_plain += x->cores;
        j->mem_plain += x->mem;
    }
}

/* -s: the whole input held, then grouped by job (stable: each job's rows in
 * input order) and fitted job by job.  Memory: the rows (about 64 bytes
 * each plus the job and run names). */
struct held {
    struct held_row {
        char *job, *run;
        size_t seq;
        struct sample_row x;
    } *v;
    size_t n, cap;
};

static void held_add(struct held *h, const char *job, const char *run, const struct sample_row *x)
{
    h->v = xgrow(h->v, &h->cap, h->n + 1, sizeof *h->v);
    h->v[h->n] = (struct held_row){xstrdup(job), xstrdup(run), h->n, *x};
    h->n++;
}

static int by_job_then_seq(const void *a, const void *b)
{
    const struct held_row *x = a, *y = b;
    int c = strcmp(x->job, y->job);
    return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* held_fit: fit every held job but the last, which is left in j; returns
 * whether j holds one. */
static int held_fit(struct held *h, struct job *j, csvw *w, csvw *ws, int shape, struct totals *tot)
{
    qsort(h->v, h->n, sizeof *h->v, by_job_then_seq);
    for (size_t i = 0; i < h->n; i++) {
        if (i == 0 || strcmp(h->v[i].job, h->v[i - 1].job) != 0) {
            if (i > 0)
                job_fit(j, w, ws, shape, tot);
            job_reset(j, h->v[i].job);
        }
        add_sample(j, h->v[i].run, &h->v[i].x, shape);
    }
    return h->n > 0;
}

static void held_free(struct held *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->n; i++) {
        free(h->v[i].job);
        free(h->v[i].run);
    }
    free(h->v);
    free(h);
}

static int read_csv(csvw *w, csvw *ws, struct totals *tot)
{
    int st;
    csvr *r = csvr_open_with(opt.input, cli_dialect(NULL), 0, &st);
    if (!r)
        return st;
    int cj = csvr_require(r, "job"), cr = cj >= 0 ? csvr_require(r, "run") : -1;
    int ct = cr >= 0 ? csvr_require(r, "t") : -1;
    int cc = ct >= 0 ? csvr_require(r, "containers") : -1;
    if (cc < 0) {
        st = csvr_status(r);
        csvr_close(r);
        return st ? st : SLK_EDATA;
    }
    int ccores = csvr_col(r, "cores"), cmem = csvr_col(r, "mem_mb");
    if ((ccores >= 0) != (cmem >= 0)) {
        slk_error_at(csvr_path(r), 1, "column '%s' without '%s': give both or neither",
                     ccores >= 0 ? "cores" : "mem_mb", ccores >= 0 ? "mem_mb" : "cores");
        csvr_close(r);
        return SLK_EDATA;
    }
    int shape = ccores >= 0;
    csvw_header(w, shape ? out_cols : out_cols_plain);
    if (ws)
        csvw_header(ws, stats_cols);

    group_iter g;
    group_begin(&g, "job");
    struct job j = {0};
    struct held *h = opt.sort ? xcalloc(1, sizeof *h) : NULL;
    int have = 0, rc;
    st = SLK_OK;
    while ((rc = csvr_next(r)) == 1) {
        const char *job = csvr_field(r, cj), *run = csvr_field(r, cr);
        if (!job || !run) {
            csvr_fail(r, "column '%s': missing value", job ? "run" : "job");
            if (csvr_skip(r))
                continue;
            break;
        }
        int gc = h ? GROUP_SAME : group_next(&g, csvr_path(r), csvr_line(r), job);
        if (gc == GROUP_ERROR) {
            st = SLK_EDATA;
            break;
        }
        struct sample_row x = {.cores = 0, .mem = 0};
        int bad = csvr_get_time(r, ct, &x.t, CSVR_REQUIRED) < 0 ||
                  csvr_get_double(r, cc, &x.c, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
                  (shape && (csvr_get_double(r, ccores, &x.cores, CSVR_REQUIRED | CSVR_POSITIVE) < 0 ||
                             csvr_get_double(r, cmem, &x.mem, CSVR_REQUIRED | CSVR_POSITIVE) < 0)) ||
                  (x.c > 1e12 && csvr_fail(r, "column 'containers': value '%s' is implausibly large",
                                           csvr_field(r, cc)) < 0);
        if (bad && !csvr_skip(r))
            break;
        if (h) {
            if (!bad)
                held_add(h, job, run, &x);
            continue;
        }
        if (gc == GROUP_NEW) {
            if (have)
                job_fit(&j, w, ws, shape, tot);
            job_reset(&j, job);
            have = 1;
        }
        if (bad)
            continue; /* skipped (--on-error skip); the job still starts here */
        add_sample(&j, run, &x, shape);
        slk_progress("rows", (uint64_t)csvr_line(r), 0);
    }
    slk_progress_done();
    if (st == SLK_OK)
        st = csvr_status(r);
    if (st == SLK_OK && h)
        have = held_fit(h, &j, w, ws, shape, tot);
    if (st == SLK_OK && have)
        job_fit(&j, w, ws, shape, tot);
    held_free(h);
    job_free(&j);
    group_end(&g);
    csvr_close(r);
    return st;
}

/* One line of the native format (lib/morpheus/native): warn when its skyline
 * stops before the run's end, then add its units to the job. */
static int native_line(const char *file, long line, char *s, struct job *j, group_iter *g,
                       csvw *w, csvw *ws, int *have, struct totals *tot, struct native_run *nr)
{
    char err[512];
    int rc = native_parse(s, nr, err, sizeof err);
    if (rc <= 0) {
        if (rc < 0)
            slk_error_at(file, line, "%s", err);
        return rc < 0 ? SLK_EDATA : SLK_OK;
    }
    int gc = group_next(g, file, line, nr->job);
    if (gc == GROUP_ERROR)
        return SLK_EDATA;
    if (gc == GROUP_NEW) {
        if (*have)
            job_fit(j, w, ws, 1, tot);
        job_reset(j, nr->job);
        *have = 1;
    }
    size_t before = j->nruns;
    int run = job_run(j, nr->run, (double)nr->start_ms / 1000.0);
    if (j->nruns == before) {
        slk_error_at(file, line, "run '%s' of job '%s' appears twice", nr->run, nr->job);
        return SLK_EDATA;
    }
    double covered, length;
    native_coverage(nr, opt.native_interval, &covered, &length);
    if (covered + opt.native_interval < length)
        slk_warn_at(file, line, "run '%s' of job '%s': the %s skyline ends at %g s of a %g s run "
                    "(the rest is not in the log; fitted as a %g s run)", nr->run, nr->job,
                    opt.native_memory ? "memory" : "container", covered, length, covered);
    /* memory: the units' containers x the log's MB per container, counted in
     * the 1024 MB containers skyfit writes for this format */
    double scale = opt.native_memory ? nr->mem_mb / 1024 : 1;
    for (size_t u = 0; u < nr->n; u++)
        job_add(j, run, nr->u[u].offset, nr->u[u].containers * scale);
    return SLK_OK;
}

static int read_native(csvw *w, csvw *ws, struct totals *tot)
{
    FILE *fp = stdin;
    const char *file = "<stdin>";
    if (opt.input && strcmp(opt.input, "-") != 0) {
        fp = fopen(opt.input, "r");
        file = opt.input;
        if (!fp) {
            slk_error("%s: cannot open: %s", opt.input, strerror(errno));
            return SLK_ENOINPUT;
        }
    }
    csvw_header(w, out_cols);
    if (ws)
        csvw_header(ws, stats_cols);
    group_iter g;
    group_begin(&g, "job");
    struct job j = {0};
    int have = 0, st = SLK_OK;
    struct native_run nr = {0};
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, fp)) >= 0) {
        lineno++;
        if ((size_t)len != strlen(line)) {
            slk_error_at(file, lineno, "NUL byte in line");
            st = SLK_EDATA;
            break;
        }
        const char *p = line + strspn(line, " \t\r\n");
        if (*p == '#' || (p[0] == '/' && p[1] == '/'))
            continue;
        st = native_line(file, lineno, line, &j, &g, w, ws, &have, tot, &nr);
        if (st != SLK_OK)
            break;
    }
    if (st == SLK_OK && ferror(fp)) {
        slk_error("%s: read error: %s", file, strerror(errno));
        st = SLK_EIO;
    }
    if (st == SLK_OK && lineno == 0) {
        slk_error_at(file, 0, "empty input");
        st = SLK_EDATA;
    }
    if (st == SLK_OK && have)
        job_fit(&j, w, ws, 1, tot);
    free(line);
    native_free(&nr);
    job_free(&j);
    group_end(&g);
    if (fp != stdin)
        fclose(fp);
    return st;
}

/* ---- main ---------------------------------------------------------------------------- */

static const char *const solver_names[] = {"network", "glpk-flow", "glpk-plain"};

/* Fit every job of the input into -o (and --stats); both files are
 * replaced only when complete.  Returns an exit status; *tot the counts. */
static int fit_all(struct totals *tot)
{
    int st;
    outf *os = NULL;
    FILE *fs = NULL;
    if (opt.stats && !(os = outf_open(opt.stats, &st)))
        return st;
    if (os)
        fs = outf_fp(os);
    outf *o = outf_open(slk_opt.output, &st);
    if (!o) {
        outf_abort(os);
        return st;
    }
    csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
    csvw *ws = fs ? csvw_new_with(fs, cli_dialect(NULL)) : NULL;
    st = opt.native ? read_native(w, ws, tot) : read_csv(w, ws, tot);
    csvw_free(w);
    csvw_free(ws);
    st = outf_finish(os, st);
    return outf_finish(o, st);
}

/* The summary on stderr: what was fitted, with which model, and why not. */
static void print_summary(const struct totals *tot, double seconds)
{
    char beta[64];
    if (opt.lp.beta >= 0)
        snprintf(beta, sizeof beta, "beta %g (fixed)", opt.lp.beta);
    else
        snprintf(beta, sizeof beta, "beta %g*V (two-phase)", opt.lp.beta_frac);
    fprintf(stderr, "%s: %ld jobs: %ld fitted, %ld too few runs, %ld too long, %ld solver failures; "
            "alpha %g, %s, step %g s, agg %s, solver %s; LP %.3f s of %.3f s\n",
            slk_progname, tot->jobs, tot->fitted, tot->too_few, tot->too_long, tot->failed,
            opt.lp.alpha, beta, opt.step, opt.agg_max ? "max" : "mean",
            solver_names[opt.lp.solver], tot->solve_s, seconds);
    if (tot->excluded_runs)
        fprintf(stderr, "%s: %ld outlier runs of %ld jobs kept out of the fit (median + %g spreads; "
                "listed in --stats)\n", slk_progname, tot->excluded_runs, tot->excluded_jobs, opt.outliers.k);
    if (tot->fallback)
        fprintf(stderr, "%s: %ld jobs solved again by GLPK after the optimality certificate of %s failed\n",
                slk_progname, tot->fallback, solver_names[opt.lp.solver]);
}

int main(int argc, char **argv)
{
    slk_init("skyfit");
    skyline_defaults(&opt.lp);
    outlier_defaults(&opt.outliers);
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {
        options, parse_opt, "[FILE]",
        "Fit each job's resource allocation skyline from the usage of its past runs "
        "(the Morpheus skyline LP, solved with GLPK).  Input rows job,run,t,containers"
        "[,cores,mem_mb] grouped by job; output job,step,offset,alloc[,cores,mem_mb]."
        "\vExamples:\n"
        "  tracegen usage --count 50 --days 30 | skyfit > skylines.csv\n"
        "  skyfit --alpha 0.1 --last 20 --round --stats fit.csv usage.csv > skylines.csv\n"
        "  skyfit --format native --step 5 tinySample.txt\n"
        "  skyfit --job-col pipeline --containers-col used usage.csv\n"
        "  skyfit -s time-ordered-usage.csv > skylines.csv",
        kids, NULL, NULL};
    cli_roles("usage", (const char *)NULL);
    argp_parse(&argp, argc, argv, 0, NULL, NULL);
    struct totals tot = {0};
    double t0 = slk_now();
    int st = SLK_OK;
    if (opt.sort && opt.native) {
        slk_error("--sort reads CSV input only (the native log has one run per line: sort it by name)");
        st = SLK_EUSAGE;
    } else
        st = fit_all(&tot);
    if (st == SLK_OK && !slk_opt.quiet)
        print_summary(&tot, slk_now() - t0);
    if (st == SLK_OK && opt.strict && (tot.too_few || tot.too_long || tot.failed))
        st = SLK_FAIL;
    return slk_finish(st);
}
