/* peakgate — normal and peak task memory, one-peak-at-a-time pausing, and
 * filler tasks in wasted memory (seed 004, issue 8).
 *
 *   peakgate [FILE]                       per-task profiles (the default)
 *   peakgate --simulate [FILE | --model]  a node under the gate vs unpaced
 *   peakgate --fillers [FILE]             room for a filler task on one node
 *
 * Input: task,t,mem_mb[,alloc_mb] grouped by task (or --alloc FILE with
 * task,alloc_mb).  Profiles stream task by task; --simulate and --fillers
 * read one node's tasks.  The data plane is lib/memory/memprof (profiles, filler
 * arithmetic, the peak model) and lib/memory/memgate (the gate simulator). */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/keyset.h"
#include "memory/memgate.h"
#include "memory/memprof.h"
#include "base/outfile.h"
#include "base/parse.h"

#include <argp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum mode { MODE_PROFILE, MODE_SIMULATE, MODE_FILLERS };

#define MAX_K 16
/* a bound on the work of one --model run (about 4 minutes at 11 ns a task-step) */
#define MAX_TASK_STEPS 2e10

static struct {
    enum mode mode;
    const char *input, *alloc_path, *series_path, *node_series_path, *summary_path, *profiles_path;
    double train;          /* --train: share of each series that learns the profile (0: in-sample) */
    struct memprof_opts prof;
    int details, model, strict;
    int nk, k[MAX_K];
    double approach, node_mb, step_s, duration_s;
    long tasks;
    struct memmodel_params mp;
    double migrate_ms_per_mb, growth_mb_s, state_mb;
    int set_mode, set_model_opt;
} opt = {
    .approach = 1.10, .node_mb = 4500, .tasks = 6,
    .migrate_ms_per_mb = 5, .growth_mb_s = -1, .state_mb = 0,
};

enum {
    OPT_SIMULATE = 1000, OPT_FILLERS, OPT_ALLOC, OPT_NORMAL, OPT_WELL_USE, OPT_WELL_SPREAD,
    OPT_DETAILS, OPT_MODEL, OPT_TASKS, OPT_M_NORMAL, OPT_M_PEAK, OPT_M_GAP, OPT_M_LEN, OPT_M_AMP,
    OPT_M_PERIOD, OPT_M_NOISE, OPT_K, OPT_APPROACH, OPT_NODE, OPT_STEP, OPT_DURATION, OPT_SERIES,
    OPT_NODE_SERIES, OPT_SUMMARY, OPT_STRICT, OPT_MIGRATE, OPT_GROWTH, OPT_STATE, OPT_TRAIN, OPT_PROFILES
};

static const struct argp_option options[] = {
    {0, 0, 0, 0, "Modes (default: per-task profiles):", 1},
    {"simulate", OPT_SIMULATE, NULL, 0, "Simulate a node with and without the one-peak-at-a-time gate", 1},
    {"fillers", OPT_FILLERS, NULL, 0, "Size the largest safe filler task for the node and its kill/migrate threshold", 1},
    {0, 0, 0, 0, "Profiles:", 2},
    {"alloc", OPT_ALLOC, "FILE", 0, "Allocations from FILE (task,alloc_mb) instead of an alloc_mb column", 2},
    {"normal", OPT_NORMAL, "STAT", 0, "Normal usage: median (default), mean, or pN (a percentile, e.g. p90)", 2},
    {"well-use", OPT_WELL_USE, "F", 0, "Well-behaved needs normal >= F * alloc (default 0.75)", 2},
    {"well-spread", OPT_WELL_SPREAD, "F", 0, "... and peak <= (1 + F) * normal (default 0.30)", 2},
    {"details", OPT_DETAILS, NULL, 0, "Also write samples, mean_mb, spread, use, growth_mb_s", 2},
    {0, 0, 0, 0, "Simulation (--simulate):", 3},
    {"k", OPT_K, "K[,K...]", 0, "Tasks allowed to approach their peaks at once; a list runs each (default 1)", 3},
    {"approach", OPT_APPROACH, "F", 0, "A task approaches its peak above F * normal (default 1.10)", 3},
    {"node-mb", OPT_NODE, "MB", 0, "Node memory (default 4500, the paper's average node)", 3},
    {"step", OPT_STEP, "DUR", 0, "Seconds per step (default: 1 for --model, else the smallest sample interval)", 3},
    {"duration", OPT_DURATION, "DUR", 0, "Simulated time (default: 1h for --model; until every series ends)", 3},
    {"series", OPT_SERIES, "FILE", 0, "Write every task's memory and state per step (policy,k,t,task,mem_mb,state)", 3},
    {"node-series", OPT_NODE_SERIES, "FILE", 0, "Write the node's memory per step (policy,k,t,used_mb,bound_mb,node_mb,paused)", 3},
    {"summary", OPT_SUMMARY, "FILE", 0, "Write the node-level results, one row per run", 3},
    {"strict", OPT_STRICT, NULL, 0, "Exit 1 when a gated run used more than --node-mb", 3},
    {"train", OPT_TRAIN, "F", 0, "Out of sample: learn each task's normal and peak from the first F of its "
     "samples (0 < F < 1) and replay the rest (default: in-sample, the whole series)", 3},
    {"profiles", OPT_PROFILES, "FILE", 0, "Out of sample: normal and peak from FILE (task,normal_mb,peak_mb; "
     "peakgate's output on earlier runs) and replay the whole input", 3},
    {"model", OPT_MODEL, NULL, 0, "Simulate the paper's probabilistic peak model instead of reading series", 3},
    {"tasks", OPT_TASKS, "N", 0, "--model: number of tasks (default 6)", 3},
    {"model-normal", OPT_M_NORMAL, "MB", 0, "--model: normal level (default 500)", 3},
    {"model-peak", OPT_M_PEAK, "MB", 0, "--model: peak level (default 1200)", 3},
    {"model-gap", OPT_M_GAP, "DUR", 0, "--model: mean time between peaks (default 210s)", 3},
    {"model-peak-len", OPT_M_LEN, "DUR", 0, "--model: mean peak length (default 150s)", 3},
    {"model-amp", OPT_M_AMP, "F", 0, "--model: variation of the peak probability, in [0,1) (default 0.5)", 3},
    {"model-period", OPT_M_PERIOD, "DUR", 0, "--model: period of that variation (default 1h)", 3},
    {"model-noise", OPT_M_NOISE, "F", 0, "--model: noise of the normal level, fraction of it (default 0.03)", 3},
    {0, 0, 0, 0, "Fillers (--fillers):", 4},
    {"migrate-ms-per-mb", OPT_MIGRATE, "MS", 0, "Cost of moving a task, ms per MB of state (default 5)", 4},
    {"growth-mb-s", OPT_GROWTH, "R", 0, "Growth rate of the well-behaved tasks, MB/s (default: measured)", 4},
    {"state-mb", OPT_STATE, "MB", 0, "The filler's state size for the migration time (default: its peak)", 4},
    {0}
};

static void parse_normal(struct argp_state *st, const char *arg)
{
    double p;
    if (strcmp(arg, "mean") == 0) {
        opt.prof.normal_pct = -1;
    } else if (strcmp(arg, "median") == 0) {
        opt.prof.normal_pct = 50;
    } else if (arg[0] == 'p' && parse_double(arg + 1, &p, 0) == 0 && p >= 0 && p <= 100) {
        opt.prof.normal_pct = p;
    } else {
        argp_error(st, "invalid value for --normal: '%s' (want mean, median or pN with N in 0-100)", arg);
    }
}

static void parse_k(struct argp_state *st, char *arg)
{
    opt.nk = 0;
    char *save = NULL;
    for (char *tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (opt.nk == MAX_K)
            argp_error(st, "invalid value for --k: at most %d values", MAX_K);
        opt.k[opt.nk++] = (int)cli_int(st, "k", tok, 1, 1000000);
    }
    if (opt.nk == 0)
        argp_error(st, "invalid value for --k: '' (want K or a list K,K)");
}

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    switch (key) {
    case OPT_SIMULATE:
    case OPT_FILLERS: {
        enum mode m = key == OPT_SIMULATE ? MODE_SIMULATE : MODE_FILLERS;
        if (opt.set_mode && opt.mode != m)
            argp_error(st, "--simulate and --fillers exclude each other");
        opt.mode = m;
        opt.set_mode = 1;
        break;
    }
    case OPT_ALLOC: opt.alloc_path = arg; break;
    case OPT_NORMAL: parse_normal(st, arg); break;
    case OPT_WELL_USE: opt.prof.well_use = cli_double(st, "well-use", arg, 0, 1); break;
    case OPT_WELL_SPREAD: opt.prof.well_spread = cli_double(st, "well-spread", arg, 0, 1e6); break;
    case OPT_DETAILS: opt.details = 1; break;
    case OPT_K: parse_k(st, arg); break;
    case OPT_APPROACH: opt.approach = cli_double(st, "approach", arg, 1, 100); break;
    case OPT_NODE: opt.node_mb = cli_double(st, "node-mb", arg, 1, 1e12); break;
    case OPT_STEP: opt.step_s = cli_duration(st, "step", arg, 1e-3); break;
    case OPT_DURATION: opt.duration_s = cli_duration(st, "duration", arg, 1e-3); break;
    case OPT_SERIES: opt.series_path = arg; break;
    case OPT_NODE_SERIES: opt.node_series_path = arg; break;
    case OPT_SUMMARY: opt.summary_path = arg; break;
    case OPT_STRICT: opt.strict = 1; break;
    case OPT_TRAIN:
        opt.train = cli_double(st, "train", arg, 0, 1);
        if (!(opt.train > 0 && opt.train < 1))
            argp_error(st, "invalid value for --train: '%s' (want 0 < F < 1)", arg);
        break;
    case OPT_PROFILES: opt.profiles_path = arg; break;
    case OPT_MODEL: opt.model = 1; break;
    case OPT_TASKS: opt.tasks = (long)cli_int(st, "tasks", arg, 1, 100000); opt.set_model_opt = 1; break;
    case OPT_M_NORMAL: opt.mp.normal_mb = cli_double(st, "model-normal", arg, 1e-3, 1e9); opt.set_model_opt = 1; break;
    case OPT_M_PEAK: opt.mp.peak_mb = cli_double(st, "model-peak", arg, 1e-3, 1e9); opt.set_model_opt = 1; break;
    case OPT_M_GAP: opt.mp.gap_s = cli_duration(st, "model-gap", arg, 1e-3); opt.set_model_opt = 1; break;
    case OPT_M_LEN: opt.mp.peak_s = cli_duration(st, "model-peak-len", arg, 1e-3); opt.set_model_opt = 1; break;
    case OPT_M_AMP: opt.mp.amp = cli_double(st, "model-amp", arg, 0, 0.999); opt.set_model_opt = 1; break;
    case OPT_M_PERIOD: opt.mp.period_s = cli_duration(st, "model-period", arg, 1e-3); opt.set_model_opt = 1; break;
    case OPT_M_NOISE: opt.mp.noise = cli_double(st, "model-noise", arg, 0, 0.5); opt.set_model_opt = 1; break;
    case OPT_MIGRATE: opt.migrate_ms_per_mb = cli_double(st, "migrate-ms-per-mb", arg, 0, 1e9); break;
    case OPT_GROWTH: opt.growth_mb_s = cli_double(st, "growth-mb-s", arg, 0, 1e12); break;
    case OPT_STATE: opt.state_mb = cli_double(st, "state-mb", arg, 1e-3, 1e12); break;
    case ARGP_KEY_ARG:
        if (opt.input)
            argp_error(st, "one input file only (got '%s' and '%s')", opt.input, arg);
        opt.input = arg;
        break;
    case ARGP_KEY_END:
        if (opt.mode != MODE_SIMULATE &&
            (opt.model || opt.series_path || opt.node_series_path || opt.summary_path || opt.strict ||
             opt.train > 0 || opt.profiles_path))
            argp_error(st, "--model, --series, --node-series, --summary, --strict, --train and --profiles "
                           "need --simulate");
        if (opt.train > 0 && opt.profiles_path)
            argp_error(st, "--train and --profiles exclude each other");
        if (opt.model && (opt.train > 0 || opt.profiles_path))
            argp_error(st, "--model has no recorded series to learn from (drop --train/--profiles)");
        if (opt.set_model_opt && !opt.model)
            argp_error(st, "--tasks and --model-* options need --model");
        if (opt.model && (opt.input || opt.alloc_path))
            argp_error(st, "--model reads no input (drop '%s')", opt.input ? opt.input : opt.alloc_path);
        if (opt.model && opt.mp.peak_mb < opt.mp.normal_mb)
            argp_error(st, "--model-peak (%g) is below --model-normal (%g)", opt.mp.peak_mb, opt.mp.normal_mb);
        if (opt.mode != MODE_FILLERS && (opt.growth_mb_s >= 0 || opt.state_mb > 0))
            argp_error(st, "--growth-mb-s and --state-mb need --fillers");
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* ---- allocations table --------------------------------------------------------- */

struct alloc_entry {
    char *task;
    double mb;
};
struct allocs {
    struct alloc_entry *e;
    size_t n;
};

static int cmp_alloc(const void *a, const void *b)
{
    return strcmp(((const struct alloc_entry *)a)->task, ((const struct alloc_entry *)b)->task);
}

/* load_allocs: read task,alloc_mb from path; returns SLK_OK or an exit status. */
static int load_allocs(const char *path, struct allocs *A)
{
    int st;
    csvr *r = csvr_open_with(path, cli_dialect("alloc"), 0, &st);
    if (!r)
        return st;
    int ct = csvr_require(r, "task"), ca = ct < 0 ? -1 : csvr_require(r, "alloc_mb");
    if (ct < 0 || ca < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    size_t cap = 0;
    keyset *seen = keyset_new();
    while (csvr_next(r) > 0) {
        const char *task = csvr_field(r, ct);
        double mb;
        if (!task) {
            csvr_fail(r, "column 'task': missing value");
            break;
        }
        if (csvr_get_double(r, ca, &mb, CSVR_REQUIRED | CSVR_POSITIVE | CSVR_BOUNDED) < 0)
            break;
        if (!keyset_add(seen, task)) {
            csvr_fail(r, "task '%s' listed twice", task);
            break;
        }
        A->e = xgrow(A->e, &cap, A->n + 1, sizeof *A->e);
        A->e[A->n].task = xstrdup(task);
        A->e[A->n++].mb = mb;
    }
    keyset_free(seen);
    st = csvr_status(r);
    csvr_close(r);
    if (A->n)
        qsort(A->e, A->n, sizeof *A->e, cmp_alloc);
    return st;
}

static double find_alloc(const struct allocs *A, const char *task)
{
    if (!A->n)
        return NAN;
    struct alloc_entry key = {.task = (char *)task};
    struct alloc_entry *e = bsearch(&key, A->e, A->n, sizeof *A->e, cmp_alloc);
    return e ? e->mb : NAN;
}

static void free_allocs(struct allocs *A)
{
    for (size_t i = 0; i < A->n; i++)
        free(A->e[i].task);
    free(A->e);
}

/* ---- reading tasks ------------------------------------------------------------- */

/* One finished task, kept for --simulate (series) and --fillers. */
struct task {
    char *name;
    struct memprof prof;
    double *series;
    size_t len;
    double normal, peak;   /* the profile the gate uses (learned out of sample with --train/--profiles) */
    size_t off;            /* first replayed sample (--train: after the learning part) */
};

struct totals {
    size_t tasks, samples, well, poor, over_alloc;
    double alloc, normal, waste, unused;
    char *first_over;
};

struct reader {
    csvr *r;
    struct allocs allocs;  /* from --alloc */
    csvw *w;               /* profile rows (MODE_PROFILE) */
    struct memprof_acc acc;
    struct totals tot;
    struct task *tasks;    /* kept tasks (other modes) */
    size_t ntasks, tcap;
    double min_dt;         /* smallest sample interval seen */
    char *gap_task;        /* a task whose intervals are uneven */
    double gap_dt;
    char *short_task;      /* --train: a task too short to split */
    size_t short_n;
};

static void write_profile(csvw *w, const char *task, const struct memprof *p)
{
    csvw_str(w, task);
    csvw_num(w, p->alloc);
    csvw_num(w, p->normal);
    csvw_num(w, p->p90);
    csvw_num(w, p->peak);
    csvw_num(w, p->waste);
    csvw_str(w, memprof_class_name(p->cls));
    if (opt.details) {
        csvw_int(w, (int64_t)p->n);
        csvw_num(w, p->mean);
        csvw_num(w, p->spread);
        csvw_num(w, p->use);
        csvw_num(w, p->growth);
    }
    csvw_end(w);
}

/* finish_task: the current task's samples are complete. */
static void finish_task(struct reader *rd, const char *task, double alloc)
{
    struct memprof p;
    double *copy = NULL;
    if (opt.mode == MODE_SIMULATE) {
        copy = xmalloc(rd->acc.n * sizeof *copy);
        memcpy(copy, rd->acc.mem, rd->acc.n * sizeof *copy);
    }
    memprof_finish(&rd->acc, alloc, &opt.prof, &p);
    struct totals *t = &rd->tot;
    t->tasks++;
    t->samples += p.n;
    if (p.cls == MEMPROF_WELL)
        t->well++;
    else
        t->poor++;
    if (!isnan(alloc)) {
        t->alloc += alloc;
        t->waste += p.waste;
        t->unused += p.waste > 0 ? p.waste : 0;
        if (p.peak > alloc && t->over_alloc++ == 0)
            t->first_over = xstrdup(task);
    }
    t->normal += p.normal;
    if (opt.mode == MODE_PROFILE) {
        write_profile(rd->w, task, &p);
        return;
    }
    struct task kept = {xstrdup(task), p, copy, p.n, p.normal, p.peak, 0};
    if (opt.mode == MODE_SIMULATE && opt.train > 0) {
        size_t m = (size_t)floor(opt.train * (double)p.n);
        if (m < 1 || m >= p.n) {
            if (!rd->short_task) {
                rd->short_task = xstrdup(task);
                rd->short_n = p.n;
            }
        } else {
            struct memprof learned;
            memprof_of_series(copy, m, alloc, &opt.prof, &learned);
            kept.normal = learned.normal;
            kept.peak = learned.peak;
            kept.off = m;
        }
    }
    rd->tasks = xgrow(rd->tasks, &rd->tcap, rd->ntasks + 1, sizeof *rd->tasks);
    rd->tasks[rd->ntasks++] = kept;
}

/* read_tasks: stream the input, task by task.  Returns SLK_OK or an exit status. */
static int read_tasks(struct reader *rd, int need_alloc)
{
    csvr *r = rd->r;
    int ct = csvr_require(r, "task");
    int ctime = ct < 0 ? -1 : csvr_require(r, "t");
    int cm = ctime < 0 ? -1 : csvr_require(r, "mem_mb");
    if (ct < 0 || ctime < 0 || cm < 0)
        return SLK_EDATA;
    int ca = -1;
    if (!opt.alloc_path) {
        ca = csvr_col(r, "alloc_mb");
        if (ca < 0 && need_alloc) {
            csvr_require(r, "alloc_mb");
            slk_error("the allocation is needed: give an alloc_mb column or --alloc FILE");
            return SLK_EDATA;
        }
    }
    group_tracker g;
    group_init(&g);
    char *cur = NULL;
    size_t cur_cap = 0;
    double cur_alloc = NAN;
    int have = 0;
    memprof_acc_init(&rd->acc);
    rd->min_dt = INFINITY;
    while (csvr_next(r) > 0) {
        const char *task = csvr_field(r, ct);
        if (!task) {
            csvr_fail(r, "column 'task': missing value");
            break;
        }
        double t, mem, alloc = NAN;
        /* the lib getters parse plain decimals by the exact fast path
         * (lib/base/parse); times beyond +-1e11 s and sizes beyond 1e15 MB are
         * data errors at the line */
        if (csvr_get_time(r, ctime, &t, CSVR_REQUIRED) < 0 ||
            csvr_get_double(r, cm, &mem, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0)
            break;
        if (ca >= 0 &&
            csvr_get_double(r, ca, &alloc, CSVR_POSITIVE | CSVR_BOUNDED | (need_alloc ? CSVR_REQUIRED : 0)) < 0)
            break;
        int gs = group_check(&g, task);
        if (gs < 0) {
            csvr_fail(r, "input not grouped by task: task '%s' appears again after other tasks "
                         "(sort it, e.g. sort -s -t, -k1,1)", task);
            break;
        }
        if (gs == 1) {
            if (have)
                finish_task(rd, cur, cur_alloc);
            size_t n = strlen(task) + 1;
            cur = xgrow(cur, &cur_cap, n, 1);
            memcpy(cur, task, n);
            have = 1;
            memprof_acc_reset(&rd->acc);
            if (opt.alloc_path) {
                alloc = find_alloc(&rd->allocs, task);
                if (isnan(alloc) && need_alloc) {
                    csvr_fail(r, "task '%s' has no allocation in '%s'", task, opt.alloc_path);
                    break;
                }
            }
            cur_alloc = alloc;
        } else {
            double last = memprof_acc_last_t(&rd->acc);
            if (!(t > last)) {
                csvr_fail(r, "task '%s': time %.17g is not after the previous sample's %.17g", task, t, last);
                break;
            }
            if (ca >= 0 && !(alloc == cur_alloc || (isnan(alloc) && isnan(cur_alloc)))) {
                char a0[40] = "missing", a1[40] = "missing";
                if (!isnan(cur_alloc))
                    snprintf(a0, sizeof a0, "%g", cur_alloc);
                if (!isnan(alloc))
                    snprintf(a1, sizeof a1, "%g", alloc);
                csvr_fail(r, "task '%s': alloc_mb changes within the task (%s, then %s)", task, a0, a1);
                break;
            }
            double dt = t - last;
            if (dt < rd->min_dt) {
                if (rd->min_dt < INFINITY && !rd->gap_task) {
                    rd->gap_task = xstrdup(task);
                    rd->gap_dt = rd->min_dt;
                }
                rd->min_dt = dt;
            } else if (dt > rd->min_dt * (1 + 1e-9) && !rd->gap_task) {
                rd->gap_task = xstrdup(task);
                rd->gap_dt = dt;
            }
        }
        memprof_acc_add(&rd->acc, t, mem);
        slk_progress("samples", rd->tot.samples + rd->acc.n, 0);
    }
    int st = csvr_status(r);
    if (!st && have)
        finish_task(rd, cur, cur_alloc);
    slk_progress_done();
    free(cur);
    group_free(&g);
    memprof_acc_free(&rd->acc);
    return st;
}

static void describe_rule(char *buf, size_t n)
{
    char normal[32];
    if (opt.prof.normal_pct < 0)
        snprintf(normal, sizeof normal, "mean");
    else
        snprintf(normal, sizeof normal, "p%g", opt.prof.normal_pct);
    snprintf(buf, n, "normal = %s; well-behaved: normal >= %g%% of alloc and peak <= %g%% of normal",
             normal, 100 * opt.prof.well_use, 100 * (1 + opt.prof.well_spread));
}

static void summarize_profiles(const struct totals *t)
{
    if (slk_opt.quiet)
        return;
    char rule[200];
    describe_rule(rule, sizeof rule);
    fprintf(stderr, "peakgate: %zu tasks from %zu samples: %zu well-behaved, %zu poorly-behaved (%s)\n",
            t->tasks, t->samples, t->well, t->poor, rule);
    if (t->alloc > 0)
        fprintf(stderr, "peakgate: allocated %.0f MB, normal use %.0f MB, waste %.0f MB (%.1f%% of the allocation)\n",
                t->alloc, t->normal, t->waste, 100 * t->waste / t->alloc);
    if (t->over_alloc)
        fprintf(stderr, "peakgate: warning: %zu task(s) went above their allocation (first: '%s')\n",
                t->over_alloc, t->first_over);
}

/* ---- --fillers -------------------------------------------------------------------- */

static int run_fillers(struct reader *rd, csvw *w)
{
    double growth = 0;
    size_t nwell = 0;
    for (size_t i = 0; i < rd->ntasks; i++)
        if (rd->tasks[i].prof.cls == MEMPROF_WELL) {
            nwell++;
            if (rd->tasks[i].prof.growth > growth)
                growth = rd->tasks[i].prof.growth;
        }
    int measured = opt.growth_mb_s < 0;
    if (!measured)
        growth = opt.growth_mb_s;
    struct memfill_in in = {
        .node_mb = opt.node_mb, .sum_alloc = rd->tot.alloc, .sum_normal = rd->tot.normal,
        .sum_unused = rd->tot.unused, .growth_mb_s = growth,
        .cost_s_per_mb = opt.migrate_ms_per_mb / 1000, .state_mb = opt.state_mb,
    };
    struct memfill f;
    memfill_size(&in, &f);
    static const char *const hdr[] = {
        "node_mb", "tasks", "well_behaved", "alloc_mb", "unallocated_mb", "normal_mb", "unused_mb",
        "headroom_mb", "growth_mb_s", "migrate_ms_per_mb", "migrate_s", "threshold_mb",
        "filler_normal_mb", "filler_peak_mb", NULL};
    csvw_header(w, hdr);
    csvw_num(w, opt.node_mb);
    csvw_int(w, (int64_t)rd->ntasks);
    csvw_int(w, (int64_t)nwell);
    csvw_num(w, rd->tot.alloc);
    csvw_num(w, f.unallocated);
    csvw_num(w, rd->tot.normal);
    csvw_num(w, f.unused);
    csvw_num(w, f.headroom);
    csvw_num(w, growth);
    csvw_num(w, opt.migrate_ms_per_mb);
    csvw_num(w, f.migrate_s);
    csvw_num(w, f.threshold_mb);
    csvw_num(w, f.filler_normal);
    csvw_num(w, f.filler_peak);
    csvw_end(w);
    if (!slk_opt.quiet) {
        fprintf(stderr, "peakgate: node %.0f MB: %zu tasks allocate %.0f MB (unallocated %.0f MB), use %.0f MB "
                        "normally (allocated but unused %.0f MB)\n",
                opt.node_mb, rd->ntasks, rd->tot.alloc, f.unallocated, rd->tot.normal, f.unused);
        if (f.unallocated < 0)
            fprintf(stderr, "peakgate: warning: the node is overcommitted by %.0f MB; no filler fits in "
                            "unallocated memory\n", -f.unallocated);
        fprintf(stderr, "peakgate: growth of the well-behaved tasks %g MB/s (%s); moving %.0f MB at %g ms/MB "
                        "takes %.3g s, so kill or migrate the filler when free memory falls below %.1f MB\n",
                growth, measured ? (nwell ? "largest measured rise" : "no well-behaved task: 0") : "--growth-mb-s",
                opt.state_mb > 0 ? opt.state_mb : f.filler_peak, opt.migrate_ms_per_mb, f.migrate_s,
                f.threshold_mb);
        fprintf(stderr, "peakgate: largest safe filler: normal %.0f MB (fits in unallocated memory even when every "
                        "task uses its allocation), peak %.0f MB (fits while the tasks are at their normal)\n",
                f.filler_normal, f.filler_peak);
    }
    return SLK_OK;
}

/* ---- --simulate ------------------------------------------------------------------- */

struct sim_out {
    csvw *series, *node;     /* NULL when not requested */
    const struct memgate_task *t;
    int k;
    double step_s, bound;
    const char *policy;
};

static int on_step(void *ctx, long long step, const double *mem, const unsigned char *state, size_t n)
{
    struct sim_out *so = ctx;
    double tt = (double)step * so->step_s;
    if (so->series)
        for (size_t i = 0; i < n; i++) {
            csvw_str(so->series, so->policy);
            csvw_int(so->series, so->k);
            csvw_num(so->series, tt);
            csvw_str(so->series, so->t[i].name);
            csvw_num(so->series, mem[i]);
            csvw_str(so->series, memgate_state_name(state[i]));
            csvw_end(so->series);
        }
    if (so->node) {
        double used = 0;
        int paused = 0;
        for (size_t i = 0; i < n; i++) {
            used += mem[i];
            paused += state[i] == MEMGATE_PAUSED;
        }
        csvw_str(so->node, so->policy);
        csvw_int(so->node, so->k);
        csvw_num(so->node, tt);
        csvw_num(so->node, used);
        csvw_num(so->node, so->bound);
        csvw_num(so->node, opt.node_mb);
        csvw_int(so->node, paused);
        csvw_end(so->node);
    }
    if ((so->series && csvw_error(so->series)) || (so->node && csvw_error(so->node)))
        return SLK_EIO;
    return 0;
}

/* open_side: an extra output file (-o rules: atomic). */
static int open_side(const char *path, outf **o, csvw **w, const char *const *hdr)
{
    int st = SLK_OK;
    if (!path)
        return SLK_OK;
    if (!(*o = outf_open(path, &st)))
        return st;
    *w = csvw_new_with(outf_fp(*o), cli_dialect(NULL));
    csvw_header(*w, hdr);
    return SLK_OK;
}

static int close_side(outf *o, csvw *w, int st)
{
    if (!o)
        return st;
    csvw_free(w);
    return outf_finish(o, st);
}

/* The per-task rows of one run; accumulates the slowdowns and the longest
 * pause for the summary. */
static void write_task_rows(csvw *w, const struct sim_out *so, const struct memgate_task_result *tr, size_t n,
                            double *sd_sum, double *sd_max, long long *longest)
{
    const struct memgate_task *t = so->t;
    int k = so->k;
    double step_s = so->step_s;
    for (size_t i = 0; i < n; i++) {
        double sd = tr[i].progress > 0 ? (double)tr[i].elapsed / (double)tr[i].progress : NAN;
        csvw_str(w, so->policy);
        csvw_int(w, k);
        csvw_str(w, t[i].name);
        csvw_num(w, t[i].normal);
        csvw_num(w, t[i].peak);
        csvw_num(w, opt.approach * t[i].normal);
        csvw_num(w, (double)tr[i].progress * step_s);
        csvw_num(w, (double)tr[i].elapsed * step_s);
        csvw_num(w, sd);
        csvw_num(w, (double)tr[i].paused * step_s);
        csvw_num(w, (double)tr[i].longest_pause * step_s);
        csvw_int(w, tr[i].peaks);
        csvw_int(w, tr[i].grants);
        csvw_end(w);
        double sdv = isnan(sd) ? INFINITY : sd;
        *sd_sum += sdv;
        if (sdv > *sd_max)
            *sd_max = sdv;
        if (tr[i].longest_pause > *longest)
            *longest = tr[i].longest_pause;
    }
}

/* Run the unpaced node and each gated one.  in_sample: the profiles come
 * from the replayed series, so the gate's bound must hold (a violation is a
 * bug); out of sample a violation is the learned profile's miss and is
 * reported (bound_held "no"). */
static int run_simulate(struct memgate_task *t, size_t n, double step_s, long long steps, csvw *w,
                        const char *source, int in_sample)
{
    static const char *const hdr[] = {
        "policy", "k", "task", "normal_mb", "peak_mb", "threshold_mb", "progress_s", "elapsed_s",
        "slowdown", "paused_s", "longest_pause_s", "peaks", "grants", NULL};
    static const char *const series_hdr[] = {"policy", "k", "t", "task", "mem_mb", "state", NULL};
    static const char *const node_hdr[] = {"policy", "k", "t", "used_mb", "bound_mb", "node_mb", "paused", NULL};
    static const char *const sum_hdr[] = {
        "policy", "k", "tasks", "node_mb", "steps", "step_s", "max_mem_mb", "mean_mem_mb", "bound_mb",
        "bound_held", "bound_simple_mb", "simple_held", "over_node_s", "mean_slowdown", "max_slowdown",
        "longest_pause_s", NULL};
    outf *os = NULL, *on = NULL, *osum = NULL;
    csvw *ws = NULL, *wn = NULL, *wsum = NULL;
    int st = open_side(opt.series_path, &os, &ws, series_hdr);
    if (!st)
        st = open_side(opt.node_series_path, &on, &wn, node_hdr);
    if (!st)
        st = open_side(opt.summary_path, &osum, &wsum, sum_hdr);
    if (!st)
        csvw_header(w, hdr);
    struct memgate_task_result *tr = xcalloc(n, sizeof *tr);
    int fail_node = 0;
    if (!slk_opt.quiet) {
        char len[64];
        if (steps > 0)
            snprintf(len, sizeof len, "%lld steps", steps);
        else
            snprintf(len, sizeof len, "until every series ends, in steps");
        fprintf(stderr, "peakgate: %zu tasks (%s) on a %.0f MB node, %s of %g s; a task approaches "
                        "its peak above %g x normal\n",
                n, source, opt.node_mb, len, step_s, opt.approach);
    }
    for (int run = 0; run <= opt.nk && !st; run++) {
        int k = run == 0 ? 0 : opt.k[run - 1];
        int kb = run == 0 ? opt.k[0] : k; /* the bound shown for the unpaced run: the first gate's */
        struct memgate_opts mo = {.k = k, .approach = opt.approach, .steps = steps};
        double bound = memgate_bound(t, n, kb, opt.approach);
        double simple = memgate_bound_simple(t, n, kb);
        struct sim_out so = {ws, wn, t, k, step_s, bound, run == 0 ? "unpaced" : "gated"};
        struct memgate_result res;
        st = memgate_run(t, n, &mo, opt.node_mb, (ws || wn) ? on_step : NULL, &so, tr, &res);
        if (st)
            break;
        double sd_sum = 0, sd_max = 0;
        long long longest = 0;
        write_task_rows(w, &so, tr, n, &sd_sum, &sd_max, &longest);
        int held = res.max_mem <= bound * (1 + 1e-12);
        int sheld = res.max_mem <= simple * (1 + 1e-12);
        if (k > 0 && res.over_node)
            fail_node = 1;
        if (k > 0 && !held && in_sample) {
            /* the gate guarantees the bound: a violation is a bug here, not in the data */
            slk_error("internal error: gated run k=%d used %.17g MB, above its bound %.17g MB", k, res.max_mem, bound);
            st = SLK_ESOFTWARE;
        }
        if (wsum) {
            csvw_str(wsum, so.policy);
            csvw_int(wsum, k);
            csvw_int(wsum, (int64_t)n);
            csvw_num(wsum, opt.node_mb);
            csvw_int(wsum, res.steps);
            csvw_num(wsum, step_s);
            csvw_num(wsum, res.max_mem);
            csvw_num(wsum, res.mean_mem);
            csvw_num(wsum, bound);
            csvw_str(wsum, held ? "yes" : "no");
            csvw_num(wsum, simple);
            csvw_str(wsum, sheld ? "yes" : "no");
            csvw_num(wsum, (double)res.over_node * step_s);
            csvw_num(wsum, sd_sum / (double)n);
            csvw_num(wsum, sd_max);
            csvw_num(wsum, (double)longest * step_s);
            csvw_end(wsum);
        }
        if (!slk_opt.quiet && k > 0 && !held && !in_sample)
            fprintf(stderr, "peakgate: gated k=%d: the bound %.0f MB from the learned profiles was exceeded "
                            "(max %.0f MB): the replayed series went above what the profiles saw\n",
                    k, bound, res.max_mem);
        if (!slk_opt.quiet) {
            if (k == 0)
                fprintf(stderr, "peakgate: unpaced: max %.0f MB, mean %.0f MB; above the %.0f MB node for %g s; "
                                "the k=%d gate's bound %.0f MB %s\n",
                        res.max_mem, res.mean_mem, opt.node_mb, (double)res.over_node * step_s, kb, bound,
                        held ? "held anyway" : "was exceeded");
            else
                fprintf(stderr, "peakgate: gated k=%d: max %.0f MB, mean %.0f MB, bound %.0f MB "
                                "(sum min(%g normal, peak) + %d largest rest) %s; sum(normal) + %s(peak - normal) "
                                "= %.0f MB %s; %s the node; slowdown mean %.3g, max %.3g; longest pause %g s\n",
                        k, res.max_mem, res.mean_mem, bound, opt.approach, k, held ? "held" : "EXCEEDED",
                        k == 1 ? "max" : "top-k", simple, sheld ? "held" : "was exceeded",
                        res.over_node ? "over" : "within", sd_sum / (double)n, sd_max,
                        (double)longest * step_s);
        }
    }
    free(tr);
    st = close_side(os, ws, st);
    st = close_side(on, wn, st);
    st = close_side(osum, wsum, st);
    if (!st && opt.strict && fail_node) {
        if (!slk_opt.quiet)
            fprintf(stderr, "peakgate: --strict: a gated run needed more than the %.0f MB node\n", opt.node_mb);
        st = SLK_FAIL;
    }
    return st;
}

/* --simulate --model: the paper's probabilistic tasks on one node. */
static int simulate_model(void)
{
    opt.mp.step_s = opt.step_s > 0 ? opt.step_s : 1;
    double dur = opt.duration_s > 0 ? opt.duration_s : 3600;
    long long steps = (long long)floor(dur / opt.mp.step_s + 1e-9);
    if (steps < 1) {
        slk_error("--duration %g s is shorter than one %g s step", dur, opt.mp.step_s);
        return SLK_EUSAGE;
    }
    if ((double)steps * (double)opt.tasks * (opt.nk + 1) > MAX_TASK_STEPS) {
        slk_error("simulation too large: %ld tasks x %lld steps x %d runs (at most %g task-steps; "
                  "use a longer --step or a shorter --duration)", opt.tasks, steps, opt.nk + 1, MAX_TASK_STEPS);
        return SLK_EUSAGE;
    }
    struct memgate_task *t = xcalloc((size_t)opt.tasks, sizeof *t);
    char **names = xcalloc((size_t)opt.tasks, sizeof *names);
    double top = opt.mp.normal_mb * (1 + opt.mp.noise);
    for (long i = 0; i < opt.tasks; i++) {
        char nm[32];
        snprintf(nm, sizeof nm, "task%04ld", i + 1);
        names[i] = xstrdup(nm);
        t[i] = (struct memgate_task){
            .name = names[i], .normal = opt.mp.normal_mb,
            .peak = opt.mp.peak_mb > top ? opt.mp.peak_mb : top,
            .model = &opt.mp, .seed = slk_opt.seed};
    }
    int st;
    outf *o = outf_open(slk_opt.output, &st);
    if (o) {
        csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
        char src[160];
        snprintf(src, sizeof src, "model: normal %g MB, peak %g MB, a peak every %g s for %g s",
                 opt.mp.normal_mb, opt.mp.peak_mb, opt.mp.gap_s, opt.mp.peak_s);
        st = run_simulate(t, (size_t)opt.tasks, opt.mp.step_s, steps, w, src, 1);
        csvw_free(w);
        st = outf_finish(o, st);
    }
    for (long i = 0; i < opt.tasks; i++)
        free(names[i]);
    free(names);
    free(t);
    return st;
}

/* --profiles: each replayed task's normal and peak from FILE
 * (task,normal_mb,peak_mb, e.g. peakgate's output on earlier runs). */
static int apply_profiles(struct reader *rd)
{
    int st;
    csvr *r = csvr_open_with(opt.profiles_path, cli_dialect("profiles"), 0, &st);
    if (!r)
        return st;
    int ct = csvr_require(r, "task"), cn = csvr_require(r, "normal_mb"), cp = csvr_require(r, "peak_mb");
    if (ct < 0 || cn < 0 || cp < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    keyset *seen = keyset_new();
    unsigned char *got = xcalloc(rd->ntasks ? rd->ntasks : 1, 1);
    while (csvr_next(r) > 0) {
        const char *task = csvr_field(r, ct);
        double normal, peak;
        if (!task) {
            csvr_fail(r, "column 'task': missing value");
            break;
        }
        if (csvr_get_double(r, cn, &normal, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0 ||
            csvr_get_double(r, cp, &peak, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0)
            break;
        if (peak < normal) {
            csvr_fail(r, "task '%s': peak_mb %g is below normal_mb %g", task, peak, normal);
            break;
        }
        if (!keyset_add(seen, task)) {
            csvr_fail(r, "task '%s' listed twice", task);
            break;
        }
        for (size_t i = 0; i < rd->ntasks; i++)
            if (strcmp(rd->tasks[i].name, task) == 0) {
                rd->tasks[i].normal = normal;
                rd->tasks[i].peak = peak;
                got[i] = 1;
            }
    }
    st = csvr_status(r);
    for (size_t i = 0; st == SLK_OK && i < rd->ntasks; i++)
        if (!got[i]) {
            slk_error_at(csvr_path(r), 0, "no profile for task '%s' of %s", rd->tasks[i].name, csvr_path(rd->r));
            st = SLK_EDATA;
        }
    free(got);
    keyset_free(seen);
    csvr_close(r);
    return st;
}

/* --simulate on recorded series: the tasks read, replayed one sample a step. */
static int simulate_series(struct reader *rd, csvw *w)
{
    int st = SLK_OK;
    double step = opt.step_s > 0 ? opt.step_s : (isfinite(rd->min_dt) ? rd->min_dt : 1);
    if (rd->gap_task && !opt.step_s)
        slk_warn_at(csvr_path(rd->r), 0, "uneven sample intervals (task '%s': %g s vs %g s); "
                    "samples are replayed one per %g s step", rd->gap_task, rd->gap_dt, rd->min_dt, step);
    long long steps = opt.duration_s > 0 ? (long long)floor(opt.duration_s / step + 1e-9) : 0;
    if (opt.duration_s > 0 && steps < 1) {
        slk_error("--duration %g s is shorter than one %g s step", opt.duration_s, step);
        return SLK_EUSAGE;
    }
    if (rd->short_task) {
        slk_error_at(csvr_path(rd->r), 0, "task '%s': %zu samples cannot be split by --train %g (both parts "
                     "need a sample)", rd->short_task, rd->short_n, opt.train);
        return SLK_EDATA;
    }
    if (opt.profiles_path && (st = apply_profiles(rd)) != SLK_OK)
        return st;
    struct memgate_task *t = xcalloc(rd->ntasks, sizeof *t);
    for (size_t i = 0; i < rd->ntasks; i++) {
        const struct task *k = &rd->tasks[i];
        t[i] = (struct memgate_task){.name = k->name, .normal = k->normal, .peak = k->peak,
                                     .series = k->series + k->off, .len = k->len - k->off};
    }
    char src[200];
    if (opt.train > 0)
        snprintf(src, sizeof src, "out of sample: profiles from the first %g of each series, the rest "
                 "replayed, from %s", opt.train, csvr_path(rd->r));
    else if (opt.profiles_path)
        snprintf(src, sizeof src, "out of sample: profiles from %s, series from %s", opt.profiles_path,
                 csvr_path(rd->r));
    else
        snprintf(src, sizeof src, "series from %s", csvr_path(rd->r));
    st = run_simulate(t, rd->ntasks, step, steps, w, src, !(opt.train > 0 || opt.profiles_path));
    free(t);
    return st;
}

static void reader_free(struct reader *rd)
{
    for (size_t i = 0; i < rd->ntasks; i++) {
        free(rd->tasks[i].name);
        free(rd->tasks[i].series);
    }
    free(rd->tasks);
    free(rd->tot.first_over);
    free(rd->gap_task);
    free(rd->short_task);
    csvr_close(rd->r);
    free_allocs(&rd->allocs);
}

/* Profiles, --fillers or --simulate over the input: read it task by task,
 * then run the mode. */
static int run_input(void)
{
    struct reader rd = {0};
    int st = SLK_OK;
    outf *o = NULL;
    csvw *w = NULL;
    if (opt.alloc_path)
        st = load_allocs(opt.alloc_path, &rd.allocs);
    if (st == SLK_OK)
        rd.r = csvr_open_with(opt.input, cli_dialect(NULL), 0, &st);
    if (rd.r)
        o = outf_open(slk_opt.output, &st);
    if (!o) {
        reader_free(&rd);
        return st;
    }
    w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
    if (opt.mode == MODE_PROFILE) {
        static const char *const hdr[] = {"task", "alloc_mb", "normal_mb", "p90_mb", "peak_mb", "waste_mb", "class",
                                          "samples", "mean_mb", "spread", "use", "growth_mb_s", NULL};
        const char *h[13];
        memcpy(h, hdr, sizeof h);
        if (!opt.details)
            h[7] = NULL;
        rd.w = w;
        csvw_header(w, h);
    }
    st = read_tasks(&rd, opt.mode == MODE_FILLERS);
    if (!st && rd.tot.tasks == 0 && opt.mode != MODE_PROFILE) {
        slk_error("%s: no samples", csvr_path(rd.r));
        st = SLK_EDATA;
    }
    if (!st)
        summarize_profiles(&rd.tot);
    if (!st && opt.mode == MODE_FILLERS)
        st = run_fillers(&rd, w);
    if (!st && opt.mode == MODE_SIMULATE)
        st = simulate_series(&rd, w);
    if (!st && csvw_error(w))
        st = SLK_EIO;
    csvw_free(w);
    reader_free(&rd);
    return outf_finish(o, st);
}

/* ---- main ---------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    slk_init("peakgate");
    opt.prof = memprof_opts_default();
    opt.mp = memmodel_params_paper();
    opt.nk = 1;
    opt.k[0] = 1;
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {
        options, parse_opt, "[FILE]",
        "Profile task memory (normal, p90, peak, waste, well- or poorly-behaved), simulate a node that lets "
        "only k tasks approach their peaks at once, and size filler tasks for wasted memory.\n"
        "Input: task,t,mem_mb[,alloc_mb] grouped by task; FILE defaults to standard input."
        "\vExamples:\n"
        "  tracegen taskmem --count 50 | peakgate > profiles.csv\n"
        "  peakgate --alloc allocs.csv --normal p50 usage.csv\n"
        "  # the paper's six tasks on 4500 MB:\n"
        "  peakgate --simulate --model --series series.csv\n"
        "  peakgate --simulate --model --k 1,2 --summary node.csv\n"
        "  tracegen taskmem --count 8 --set paper=1 | peakgate --simulate --normal p50\n"
        "  peakgate --fillers --node-mb 4500 --migrate-ms-per-mb 5 node7.csv",
        kids, NULL, NULL};
    cli_roles("usage", "alloc", "profiles", NULL);
    argp_parse(&argp, argc, argv, 0, NULL, NULL);

    int st = opt.mode == MODE_SIMULATE && opt.model ? simulate_model() : run_input();
    return slk_finish(st);
}
