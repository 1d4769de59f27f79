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
 * arithmetic, the peak model), lib/memory/memgate (the gate simulator),
 * lib/memory/memio (the file formats and report rows) and lib/memory/memnode
 * (the --simulate and --fillers runs); this file parses the options, opens
 * the files and prints the profiles' summary. */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "memory/memgate.h"
#include "memory/memio.h"
#include "memory/memnode.h"
#include "memory/memprof.h"
#include "base/outfile.h"
#include "base/parse.h"

#include <argp.h>
#include <stdlib.h>
#include <string.h>

enum mode { MODE_PROFILE, MODE_SIMULATE, MODE_FILLERS };

#define MAX_K 16

static struct {
    enum mode mode;
    const char *input, *alloc_path;
    struct memprof_opts prof;
    int details, model, sort;
    int k[MAX_K];
    struct memnode_opts node;   /* --simulate and --fillers */
    int set_mode, set_model_opt;
    int set_sim_opt, set_node_mb, set_migrate; /* options of --simulate, of both modes, of --fillers */
} opt = {
    .node = {.approach = 1.10, .node_mb = 4500, .tasks = 6, .migrate_ms_per_mb = 5, .growth_mb_s = -1},
};

enum {
    OPT_SIMULATE = 1000, OPT_FILLERS, OPT_ALLOC, OPT_NORMAL, OPT_WELL_USE, OPT_WELL_SPREAD,
    OPT_DETAILS, OPT_MODEL, OPT_TASKS, OPT_M_NORMAL, OPT_M_PEAK, OPT_M_GAP, OPT_M_LEN, OPT_M_AMP,
    OPT_M_PERIOD, OPT_M_NOISE, OPT_K, OPT_APPROACH, OPT_NODE, OPT_STEP, OPT_DURATION, OPT_SERIES,
    OPT_NODE_SERIES, OPT_SUMMARY, OPT_STRICT, OPT_MIGRATE, OPT_GROWTH, OPT_STATE, OPT_TRAIN, OPT_PROFILES,
    OPT_SORT = 's'
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
    {"sort", OPT_SORT, NULL, 0, "Rows in any order: hold the input and group it by task and time first "
     "(memory: about 64 bytes a row plus the task name)", 2},
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
    opt.node.nk = 0;
    char *save = NULL;
    for (char *tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (opt.node.nk == MAX_K)
            argp_error(st, "invalid value for --k: at most %d values", MAX_K);
        opt.k[opt.node.nk++] = (int)cli_int(st, "k", tok, 1, 1000000);
    }
    if (opt.node.nk == 0)
        argp_error(st, "invalid value for --k: '' (want K or a list K,K)");
}

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    struct memnode_opts *n = &opt.node;
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
    case OPT_SORT: opt.sort = 1; break;
    case OPT_K:
        parse_k(st, arg);
        opt.set_sim_opt = 1;
        break;
    case OPT_APPROACH:
        n->approach = cli_double(st, "approach", arg, 1, 100);
        opt.set_sim_opt = 1;
        break;
    case OPT_NODE:
        n->node_mb = cli_double(st, "node-mb", arg, 1, 1e12);
        opt.set_node_mb = 1;
        break;
    case OPT_STEP:
        n->step_s = cli_duration(st, "step", arg, 1e-3);
        opt.set_sim_opt = 1;
        break;
    case OPT_DURATION:
        n->duration_s = cli_duration(st, "duration", arg, 1e-3);
        opt.set_sim_opt = 1;
        break;
    case OPT_SERIES: n->series_path = arg; break;
    case OPT_NODE_SERIES: n->node_series_path = arg; break;
    case OPT_SUMMARY: n->summary_path = arg; break;
    case OPT_STRICT: n->strict = 1; break;
    case OPT_TRAIN:
        n->train = cli_double(st, "train", arg, 0, 1);
        if (!(n->train > 0 && n->train < 1))
            argp_error(st, "invalid value for --train: '%s' (want 0 < F < 1)", arg);
        break;
    case OPT_PROFILES: n->profiles_path = arg; break;
    case OPT_MODEL: opt.model = 1; break;
    case OPT_TASKS: n->tasks = (long)cli_int(st, "tasks", arg, 1, 100000); opt.set_model_opt = 1; break;
    case OPT_M_NORMAL: n->mp.normal_mb = cli_double(st, "model-normal", arg, 1e-3, 1e9); opt.set_model_opt = 1; break;
    case OPT_M_PEAK: n->mp.peak_mb = cli_double(st, "model-peak", arg, 1e-3, 1e9); opt.set_model_opt = 1; break;
    case OPT_M_GAP: n->mp.gap_s = cli_duration(st, "model-gap", arg, 1e-3); opt.set_model_opt = 1; break;
    case OPT_M_LEN: n->mp.peak_s = cli_duration(st, "model-peak-len", arg, 1e-3); opt.set_model_opt = 1; break;
    case OPT_M_AMP: n->mp.amp = cli_double(st, "model-amp", arg, 0, 0.999); opt.set_model_opt = 1; break;
    case OPT_M_PERIOD: n->mp.period_s = cli_duration(st, "model-period", arg, 1e-3); opt.set_model_opt = 1; break;
    case OPT_M_NOISE: n->mp.noise = cli_double(st, "model-noise", arg, 0, 0.5); opt.set_model_opt = 1; break;
    case OPT_MIGRATE:
        n->migrate_ms_per_mb = cli_double(st, "migrate-ms-per-mb", arg, 0, 1e9);
        opt.set_migrate = 1;
        break;
    case OPT_GROWTH: n->growth_mb_s = cli_double(st, "growth-mb-s", arg, 0, 1e12); break;
    case OPT_STATE: n->state_mb = cli_double(st, "state-mb", arg, 1e-3, 1e12); break;
    case ARGP_KEY_ARG:
        if (opt.input)
            argp_error(st, "one input file only (got '%s' and '%s')", opt.input, arg);
        opt.input = arg;
        break;
    case ARGP_KEY_END:
        /* an option of another mode would be ignored: refused */
        if (opt.mode != MODE_SIMULATE &&
            (opt.model || n->series_path || n->node_series_path || n->summary_path || n->strict ||
             n->train > 0 || n->profiles_path))
            argp_error(st, "--model, --series, --node-series, --summary, --strict, --train and --profiles "
                           "need --simulate");
        if (opt.mode != MODE_SIMULATE && opt.set_sim_opt)
            argp_error(st, "--k, --approach, --step and --duration need --simulate");
        if (opt.mode == MODE_PROFILE && opt.set_node_mb)
            argp_error(st, "--node-mb needs --simulate or --fillers");
        if (opt.mode != MODE_PROFILE && opt.details)
            argp_error(st, "--details is for the profiles (the default mode), not --%s",
                       opt.mode == MODE_SIMULATE ? "simulate" : "fillers");
        if (n->train > 0 && n->profiles_path)
            argp_error(st, "--train and --profiles exclude each other");
        if (opt.model && (n->train > 0 || n->profiles_path))
            argp_error(st, "--model has no recorded series to learn from (drop --train/--profiles)");
        if (opt.set_model_opt && !opt.model)
            argp_error(st, "--tasks and --model-* options need --model");
        if (opt.model && (opt.input || opt.alloc_path || opt.sort))
            argp_error(st, "--model reads no input (drop '%s')",
                       opt.input ? opt.input : opt.alloc_path ? opt.alloc_path : "--sort");
        if (opt.model && n->mp.peak_mb < n->mp.normal_mb)
            argp_error(st, "--model-peak (%g) is below --model-normal (%g)", n->mp.peak_mb, n->mp.normal_mb);
        if (opt.mode != MODE_FILLERS && (n->growth_mb_s >= 0 || n->state_mb > 0 || opt.set_migrate))
            argp_error(st, "--migrate-ms-per-mb, --growth-mb-s and --state-mb need --fillers");
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* --simulate --model: the paper's probabilistic tasks on one node. */
static int simulate_model(void)
{
    long long steps;
    int st = memnode_model_steps(&opt.node, &steps);
    if (st)
        return st;
    outf *o = outf_open(slk_opt.output, &st);
    if (!o)
        return st;
    csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
    st = memnode_simulate_model(&opt.node, steps, w);
    csvw_free(w);
    return outf_finish(o, st);
}

/* Profiles, --fillers or --simulate over the input: read it task by task,
 * then run the mode. */
static int run_input(void)
{
    struct memio_allocs allocs = {0};
    struct memio_reader rd = {0};
    struct memio_read_opts ro = {
        .prof = opt.prof, .allocs = opt.alloc_path ? &allocs : NULL, .alloc_path = opt.alloc_path,
        .need_alloc = opt.mode == MODE_FILLERS, .series = opt.mode == MODE_SIMULATE, .train = opt.node.train,
        .details = opt.details, .sort = opt.sort};
    int st = SLK_OK;
    csvr *r = NULL;
    outf *o = NULL;
    csvw *w = NULL;
    if (opt.alloc_path)
        st = memio_allocs_load(opt.alloc_path, cli_dialect("alloc"), &allocs);
    if (st == SLK_OK)
        r = csvr_open_with(opt.input, cli_dialect(NULL), 0, &st);
    if (r)
        o = outf_open_held(slk_opt.output, &st);
    if (o) {
        w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
        if (opt.mode == MODE_PROFILE) {
            ro.profiles = w;
            memio_profile_header(w, opt.details);
        }
        st = memio_read_tasks(r, &ro, &rd);
        if (!st && rd.tot.tasks == 0 && opt.mode != MODE_PROFILE) {
            slk_error("%s: no samples", csvr_path(r));
            st = SLK_EDATA;
        }
        if (!st && !slk_opt.quiet)
            memio_totals_summary(&rd.tot, &opt.prof);
        if (!st && opt.mode == MODE_FILLERS)
            st = memnode_fillers(&opt.node, &rd, w);
        if (!st && opt.mode == MODE_SIMULATE)
            st = memnode_simulate_series(&opt.node, &rd, csvr_path(r), w);
        if (!st && csvw_error(w))
            st = SLK_EIO;
        csvw_free(w);
    }
    memio_reader_free(&rd);
    csvr_close(r);
    memio_allocs_free(&allocs);
    return o ? outf_finish(o, st) : st;
}

/* ---- main ---------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    slk_init("peakgate");
    opt.prof = memprof_opts_default();
    opt.node.mp = memmodel_params_paper();
    opt.node.nk = 1;
    opt.k[0] = 1;
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {
        options, parse_opt, "[FILE]",
        "Profile task memory (normal, p90, peak, waste, well- or poorly-behaved), simulate a node that lets "
        "only k tasks approach their peaks at once, and size filler tasks for wasted memory.\n"
        "Input: task,t,mem_mb[,alloc_mb] grouped by task (any order with -s); FILE defaults to standard "
        "input.  " OUTF_HELD_HELP
        "\vExamples:\n"
        "  tracegen taskmem --count 50 | peakgate > profiles.csv\n"
        "  peakgate --alloc allocs.csv --normal p50 usage.csv\n"
        "  # the paper's six tasks on 4500 MB:\n"
        "  peakgate --simulate --model --series series.csv\n"
        "  peakgate --simulate --model --k 1,2 --summary node.csv\n"
        "  tracegen taskmem --count 8 --set paper=1 | peakgate --simulate --normal p50\n"
        "  peakgate --fillers --node-mb 4500 --migrate-ms-per-mb 5 node7.csv\n"
        "  peakgate -s --on-error skip --rejects bad.csv export.csv > profiles.csv",
        kids, NULL, NULL};
    cli_roles("usage", "alloc", "profiles", (const char *)NULL);
    cli_keys("usage", memio_sample_keys);
    cli_keys("alloc", memio_alloc_keys);
    cli_keys("profiles", memio_profile_keys);
    cli_parse(&argp, argc, argv, NULL);
    cli_outputs((const char *const[]){opt.node.series_path, opt.node.node_series_path, opt.node.summary_path},
                3);
    opt.node.k = opt.k;
    opt.node.quiet = slk_opt.quiet;
    opt.node.seed = slk_opt.seed;
    opt.node.profiles_dialect = opt.node.profiles_path ? cli_dialect("profiles") : NULL;
    opt.node.out_dialect = cli_dialect(NULL);

    int st = opt.mode == MODE_SIMULATE && opt.model ? simulate_model() : run_input();
    return slk_finish(st);
}
