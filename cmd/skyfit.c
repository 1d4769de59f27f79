/* skyfit — a job's resource model from its run history: the Morpheus skyline LP.
 *
 *   skyfit [OPTION...] [FILE]
 *
 * Reads usage rows job,run,t,containers[,cores,mem_mb] grouped by job (or the
 * Hadoop ResourceEstimator native skyline log with --format native) and
 * writes each job's allocation job,step,offset,alloc[,cores,mem_mb].  The
 * readers are lib/morpheus/skyread, a job's runs and their fit
 * lib/morpheus/skyjob (quantizing, outlier runs, the LP of
 * lib/morpheus/skyline; recorded run lengths for the outlier rule
 * lib/morpheus/runlen); this file parses the options, opens the files and
 * prints the summary.  The model and the options are in skyfit(1).
 */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "morpheus/runlen.h"
#include "morpheus/skyjob.h"
#include "morpheus/skyread.h"
#include "morpheus/stages.h"

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
    int sort;
    const char *stats;
    const char *runs;    /* --runs: the runs table */
    const char *prior;   /* --prior: last night's skylines */
    int strict;
    int native_memory;   /* --native-resource memory */
    struct skyjob_opts fit;
    const char *native_opt; /* the first --native-* option given */
    int have_beta_frac, have_prior_weight, have_outlier_k, keep_outliers;
} opt;

enum {
    OPT_FORMAT = 1, OPT_ALPHA, OPT_BETA, OPT_BETA_FRAC, OPT_STEP, OPT_AGG, OPT_MIN_RUNS,
    OPT_LAST, OPT_WINDOW, OPT_ROUND, OPT_STATS, OPT_STRICT, OPT_SOLVER, OPT_NATIVE_INTERVAL, OPT_NATIVE_RESOURCE,
    OPT_MAX_STEPS, OPT_JOB_COL, OPT_RUN_COL, OPT_T_COL, OPT_CONTAINERS_COL, OPT_CORES_COL,
    OPT_MEM_COL, OPT_OUTLIER_K, OPT_KEEP_OUTLIERS, OPT_RUNS, OPT_PRIOR, OPT_PRIOR_WEIGHT, OPT_SORT = 's'
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
    {"runs", OPT_RUNS, "FILE", 0, "Runs table (columns job, instance, start, end; sloinfer's input; times in --time-unit): the outlier rule measures a run's length as end - start, to the second, instead of its steps x step (runs not in it, or without an end, keep the latter); memory: about 120 bytes a run with 8- and 15-character job and instance names", 1},
    {"prior", OPT_PRIOR, "FILE", 0, "Last night's skylines (skyfit's output): a job in it at this --step is fitted with it as a prior, each step moving only when that gains more than --prior-weight x alpha per container in the LP's objective (steady reservations); memory: about 50 bytes a step of FILE", 1},
    {"prior-weight", OPT_PRIOR_WEIGHT, "W", 0, "The prior's weight per container of change, in units of alpha (default 0.1)", 1},
    {"max-steps", OPT_MAX_STEPS, "N", 0, "Jobs whose longest run spans more steps get status too_many_steps (default 100000)", 1},
    {"solver", OPT_SOLVER, "NAME", 0, "network (default: the LP's dual min-cost flow by network simplex, certified), glpk-flow (the same flow by GLPK) or glpk-plain (the LP as written, by GLPK)", 1},
    {0, 0, 0, 0, "Input and output:", 2},
    {"format", OPT_FORMAT, "csv|native", 0, "Input format: CSV usage rows (default) or the ResourceEstimator native skyline log", 2},
    {"native-interval", OPT_NATIVE_INTERVAL, "DUR", 0, "Native format: seconds each skyline unit lasts (default 5, the estimator's timeInterval)", 2},
    {"sort", OPT_SORT, NULL, 0, "Rows in any order: hold the input and group it by job first (memory: about 80 bytes a row plus the names; CSV only)", 2},
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
            opt.fit.native = 0;
        else if (strcmp(arg, "native") == 0)
            opt.fit.native = 1;
        else
            argp_error(st, "invalid value for --format: '%s' (want csv or native)", arg);
        break;
    case OPT_ALPHA: opt.fit.lp.alpha = cli_double(st, "alpha", arg, 0, 1); break;
    case OPT_BETA: opt.fit.lp.beta = cli_double(st, "beta", arg, 0, 1e12); break;
    case OPT_BETA_FRAC:
        opt.fit.lp.beta_frac = cli_double(st, "beta-frac", arg, 0, 1e6);
        opt.have_beta_frac = 1;
        break;
    case OPT_STEP:
        opt.fit.step = cli_duration(st, "step", arg, 0);
        if (!(opt.fit.step > 0))
            argp_error(st, "invalid value for --step: '%s' (must be positive)", arg);
        break;
    case OPT_AGG:
        if (strcmp(arg, "mean") == 0)
            opt.fit.agg_max = 0;
        else if (strcmp(arg, "max") == 0)
            opt.fit.agg_max = 1;
        else
            argp_error(st, "invalid value for --agg: '%s' (want mean or max)", arg);
        break;
    case OPT_MIN_RUNS: opt.fit.min_runs = (int)cli_int(st, "min-runs", arg, 1, 1000000); break;
    case OPT_LAST: opt.fit.last = (long)cli_int(st, "last", arg, 1, 100000000); break;
    case OPT_WINDOW:
        opt.fit.window = cli_duration(st, "window", arg, 0);
        if (!(opt.fit.window > 0))
            argp_error(st, "invalid value for --window: '%s' (must be positive)", arg);
        break;
    case OPT_ROUND: opt.fit.round_up = 1; break;
    case OPT_OUTLIER_K:
        opt.fit.outliers.k = cli_double(st, "outlier-k", arg, 0.5, 1e6);
        opt.have_outlier_k = 1;
        break;
    case OPT_KEEP_OUTLIERS:
        opt.fit.outliers.k = 0;
        opt.keep_outliers = 1;
        break;
    case OPT_MAX_STEPS: opt.fit.max_steps = (long)cli_int(st, "max-steps", arg, 1, 100000000); break;
    case OPT_SOLVER:
        if (strcmp(arg, "network") == 0)
            opt.fit.lp.solver = SKYLINE_NETWORK;
        else if (strcmp(arg, "glpk-flow") == 0)
            opt.fit.lp.solver = SKYLINE_FLOW;
        else if (strcmp(arg, "glpk-plain") == 0)
            opt.fit.lp.solver = SKYLINE_PLAIN;
        else
            argp_error(st, "invalid value for --solver: '%s' (want network, glpk-flow or glpk-plain)", arg);
        break;
    case OPT_NATIVE_INTERVAL:
        opt.fit.native_interval = cli_duration(st, "native-interval", arg, 0);
        opt.native_opt = opt.native_opt ? opt.native_opt : cli_option_name(options, key);
        if (!(opt.fit.native_interval > 0))
            argp_error(st, "invalid value for --native-interval: '%s' (must be positive)", arg);
        break;
    case OPT_NATIVE_RESOURCE: {
        static const char *const res[] = {"containers", "memory", NULL};
        opt.native_memory = cli_choice(st, "native-resource", arg, res);
        opt.native_opt = opt.native_opt ? opt.native_opt : cli_option_name(options, key);
        break;
    }
    case OPT_STATS: opt.stats = arg; break;
    case OPT_RUNS: opt.runs = arg; break;
    case OPT_PRIOR: opt.prior = arg; break;
    case OPT_PRIOR_WEIGHT:
        opt.fit.prior_weight = cli_double(st, "prior-weight", arg, 1e-9, 1e6);
        opt.have_prior_weight = 1;
        break;
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
    case ARGP_KEY_END: /* an option that would be ignored is refused */
        if (opt.fit.lp.beta >= 0 && opt.have_beta_frac)
            argp_error(st,
                       "--beta and --beta-frac exclude each other (--beta fixes the regularizer's weight, "
                       "--beta-frac sets the two-phase rule's)");
        if (opt.have_outlier_k && opt.keep_outliers)
            argp_error(st, "--outlier-k and --keep-outliers exclude each other (the rule's K, or no rule)");
        if (opt.have_prior_weight && !opt.prior)
            argp_error(st, "--prior-weight needs --prior FILE (last night's skylines)");
        if (opt.native_opt && !opt.fit.native)
            argp_error(st, "--%s needs --format native", opt.native_opt);
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}


/* ---- main ---------------------------------------------------------------------------- */

static const char *const solver_names[] = {"network", "glpk-flow", "glpk-plain"};

/* read_input: open the input and fit every job of it (the format's reader). */
static int read_input(struct skyjob_out *out)
{
    int st;
    if (!opt.fit.native) {
        csvr *r = csvr_open_with(opt.input, cli_dialect(NULL), 0, &st);
        if (!r)
            return st;
        st = skyread_csv(r, out, opt.sort);
        csvr_close(r);
        return st;
    }
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
    st = skyread_native(fp, file, out, opt.native_memory);
    if (fp != stdin)
        fclose(fp);
    return st;
}

/* Fit every job of the input into -o (and --stats); both files are
 * replaced only when complete.  Returns an exit status; *tot the counts. */
static int fit_outputs(struct skyjob_totals *tot)
{
    int st;
    outf *os = NULL;
    if (opt.stats && !(os = outf_open_held(opt.stats, &st)))
        return st;
    outf *o = outf_open_held(slk_opt.output, &st);
    if (!o) {
        outf_abort(os);
        return st;
    }
    opt.fit.quiet = slk_opt.quiet;
    struct skyjob_out out = {.o = &opt.fit, .w = csvw_new_with(outf_fp(o), cli_dialect(NULL)),
                             .ws = os ? csvw_new_with(outf_fp(os), cli_dialect(NULL)) : NULL};
    st = read_input(&out);
    if (st == SLK_OK && out.tot.runs_apart) { /* held: nothing was written */
        char more[64] = "";
        if (out.tot.runs_apart > 1)
            snprintf(more, sizeof more, ", and %ld more runs are over a day off theirs",
                     out.tot.runs_apart - 1);
        slk_error_at(runlen_path(opt.fit.runs), out.tot.apart_line,
                     "%s%s: the runs table's times are not the usage's (another unit or clock? --time-unit "
                     "applies to both)",
                     out.tot.apart, more);
        st = SLK_EDATA;
    }
    *tot = out.tot;
    csvw_free(out.w);
    csvw_free(out.ws);
    outf *both[2] = {os, o};
    st = outf_finish_all(both, 2, st);
    skyjob_out_release(&out, st == SLK_OK);
    return st;
}

/* fit_all: load --runs (if given; its times in --time-unit, as the
 * usage's) and --prior, then fit_outputs. */
static int fit_all(struct skyjob_totals *tot)
{
    int st;
    runlen *runs = NULL;
    skyprior *prior = NULL;
    if (opt.runs && (st = runlen_load(opt.runs, cli_dialect("runs"), &runs)) != SLK_OK)
        return st;
    if (opt.prior && (st = skyprior_load(opt.prior, cli_dialect("prior"), &prior)) != SLK_OK) {
        runlen_free(runs);
        return st;
    }
    opt.fit.runs = runs;
    opt.fit.prior = prior;
    st = fit_outputs(tot);
    runlen_free(runs);
    skyprior_free(prior);
    opt.fit.runs = NULL;
    opt.fit.prior = NULL;
    return st;
}

/* The summary on stderr: what was fitted, with which model, and why not. */
static void print_summary(const struct skyjob_totals *tot, double seconds)
{
    char beta[64];
    if (opt.fit.lp.beta >= 0)
        snprintf(beta, sizeof beta, "beta %g (fixed)", opt.fit.lp.beta);
    else
        snprintf(beta, sizeof beta, "beta %g*V (two-phase)", opt.fit.lp.beta_frac);
    fprintf(slk_summary(),
            "%s: %ld jobs: %ld fitted, %ld too few runs, %ld too long, %ld solver failures; "
            "alpha %g, %s, step %g s, agg %s, solver %s; LP %.3f s of %.3f s\n",
            slk_progname, tot->jobs, tot->fitted, tot->too_few, tot->too_long, tot->failed, opt.fit.lp.alpha,
            beta, opt.fit.step, opt.fit.agg_max ? "max" : "mean", solver_names[opt.fit.lp.solver],
            tot->solve_s, seconds);
    if (slk_many_hidden(&tot->not_fitted))
        fprintf(slk_summary(),
                "%s: jobs not fitted: the first %d are named above, %ld more are not (--stats FILE lists "
                "every job)\n",
                slk_progname, SLK_MANY_SHOWN, slk_many_hidden(&tot->not_fitted));
    if (slk_many_hidden(&tot->cut_short))
        fprintf(slk_summary(),
                "%s: warning: %ld runs in all have a skyline that ends before the run does (the first %d "
                "named above): fitted as runs that short\n",
                slk_progname, tot->cut_short.n, SLK_MANY_SHOWN);
    if (tot->excluded_runs)
        fprintf(slk_summary(),
                "%s: %ld outlier runs of %ld jobs kept out of the fit (median + %g spreads; "
                "listed in --stats)\n",
                slk_progname, tot->excluded_runs, tot->excluded_jobs, opt.fit.outliers.k);
    if (opt.runs && opt.fit.outliers.k == 0)
        fprintf(slk_summary(), "%s: outlier rule off (--keep-outliers): the run lengths in %s are not used\n",
                slk_progname, opt.runs);
    else if (opt.runs)
        fprintf(slk_summary(),
                "%s: outlier rule: %ld of %ld run lengths recorded in %s (end - start), "
                "the rest from their samples (steps x step)\n",
                slk_progname, tot->recorded, tot->measured, opt.runs);
    if (opt.prior)
        fprintf(slk_summary(),
                "%s: prior %s (weight %g x alpha): %ld of %ld fitted jobs had one, %ld of them kept it "
                "exactly, %ld moved\n",
                slk_progname, opt.prior, opt.fit.prior_weight, tot->prior_jobs, tot->fitted, tot->prior_kept,
                tot->prior_jobs - tot->prior_kept);
    if (tot->prior_other_step)
        fprintf(slk_summary(),
                "%s: warning: %ld jobs of %s have another step than --step %g s: fitted without "
                "their prior\n",
                slk_progname, tot->prior_other_step, opt.prior, opt.fit.step);
    if (tot->sparse_runs)
        fprintf(slk_summary(),
                "%s: warning: %ld runs of %ld jobs have samples more than --step %g s apart "
                "(the closest %g s): a run ends at its last sample, so their areas shrink; give --step "
                "the input's sample step (traceconv's --step)\n",
                slk_progname, tot->sparse_runs, tot->sparse_jobs, opt.fit.step, tot->sparse_gap);
    if (tot->fallback)
        fprintf(slk_summary(),
                "%s: %ld jobs solved again by GLPK after the optimality certificate of %s failed\n",
                slk_progname, tot->fallback, solver_names[opt.fit.lp.solver]);
}

int main(int argc, char **argv)
{
    slk_init("skyfit");
    skyjob_opts_default(&opt.fit);
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {
        options, parse_opt, "[FILE]",
        "Fit each job's resource allocation skyline from the usage of its past runs "
        "(the Morpheus skyline LP, solved by network simplex, by GLPK where --solver says so or a "
        "certificate fails).  Input rows job,run,t,containers"
        "[,cores,mem_mb] grouped by job; output job,step,offset,alloc[,cores,mem_mb].  " OUTF_HELD_HELP
        "\vExamples:\n"
        "  tracegen usage --count 50 --days 30 | skyfit > skylines.csv\n"
        "  skyfit --alpha 0.1 --last 20 --round --stats fit.csv usage.csv \\\n"
        "      > skylines.csv\n"
        "  skyfit --format native --step 5 tinySample.txt\n"
        "  skyfit --job-col pipeline --containers-col used pipelines.csv\n"
        "  skyfit -s time-ordered-usage.csv > skylines.csv\n"
        "  skyfit --runs runs.csv --stats fit.csv usage.csv > skylines.csv\n"
        "  skyfit --prior last/skyline.csv usage.csv -o skyline.csv",
        kids, NULL, NULL};
    cli_roles("usage", "runs", "prior", (const char *)NULL);
    cli_keys("usage", skyread_usage_keys);
    cli_keys("runs", runlen_keys);
    cli_time_unit_also("runs"); /* the same runs' start and end as the usage's t */
    cli_keys("prior", stages_keys);
    cli_parse(&argp, argc, argv, NULL);
    cli_outputs((const char *const[]){opt.stats}, 1);
    struct skyjob_totals tot = {0};
    double t0 = slk_now();
    int st = SLK_OK;
    if (opt.sort && opt.fit.native) {
        slk_error("--sort reads CSV input only (the native log has one run per line: sort it by name)");
        st = SLK_EUSAGE;
    } else if (cli_dash_count((const char *const[]){opt.runs, opt.prior, opt.input ? opt.input : "-"}, 3) > 1) {
        slk_error("--runs -, --prior - and the usage: only one of them can read stdin");
        st = SLK_EUSAGE;
    } else if (outf_stdout_count((const char *const[]){opt.stats, slk_opt.output ? slk_opt.output : "-"}, 2) >
               1) {
        /* both held, the two tables came out one after the other */
        slk_error("--stats and the skylines both write standard output (--stats - or /dev/stdout): give one "
                  "of them as a file (-o FILE)");
        st = SLK_EUSAGE;
    } else
        st = fit_all(&tot);
    if (st == SLK_OK && !slk_opt.quiet)
        print_summary(&tot, slk_now() - t0);
    if (st == SLK_OK && opt.strict && (tot.too_few || tot.too_long || tot.failed))
        st = SLK_FAIL;
    return slk_finish(st);
}
