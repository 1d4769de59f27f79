/* reprov — a streaming re-provisioning controller: reads live per-job samples
 * in time order and writes allocation decisions as soon as they are made.
 *
 *   reprov --policy dra --plan PLAN --capacity cores=N,mem=M [OPTION...] [SAMPLES]
 *   reprov --policy jockey [--table FILE | --amdahl S,P] --deadline DUR [OPTION...] [SAMPLES]
 *   reprov --build-table [OPTION...] [HISTORY]
 *   reprov --compare-models [--train F] [--reps N] [TASK-RECORDS]
 *   reprov --evaluate-loop [--train F] [--deadline-factor X] [OPTION...] [TASK-RECORDS]
 *
 * dra: Morpheus §7 (lib/morpheus/dra); jockey: the Jockey control loop (lib/jockey/jockey).
 * Output rows t,job,policy,old_alloc,new_alloc,until,reason, flushed one by
 * one (`tail -f samples.csv | reprov ...` sees each decision at once).
 */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "morpheus/dra.h"
#include "morpheus/draio.h"
#include "jockey/jobsim.h"
#include "jockey/jockey.h"
#include "jockey/jockeyio.h"
#include "jockey/loopeval.h"
#include "base/outfile.h"
#include "base/parse.h"
#include "morpheus/plan.h"

#include <argp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum policy { POL_DRA = 0, POL_JOCKEY };

static struct {
    const char *input, *plan, *table, *utility, *records;
    enum policy policy;
    int have_policy, build, compare, loop;
    double train, deadline_factor;
    int reps;
    double cap_cores, cap_mem;
    int have_cap;
    struct dra_opts dra;
    struct jockey_opts jk;
    int have_amdahl, have_deadline, have_max;
    const char *jk_opt; /* the first Jockey option given (their group), else NULL */
    int have_grid;
} opt;

enum { OPT_POLICY = 1, OPT_PLAN, OPT_CAP, OPT_TABLE, OPT_BUILD, OPT_AMDAHL,
       OPT_DEADLINE, OPT_PENALTY, OPT_UTILITY, OPT_SLACK, OPT_ALPHA, OPT_DEADZONE, OPT_MINA, OPT_MAXA,
       OPT_GRID, OPT_INTERVAL, OPT_LATE, OPT_COMPARE, OPT_TRAIN, OPT_REPS, OPT_SIMULATOR, OPT_STAGE_AMDAHL, OPT_LOOP, OPT_DFACTOR };

static const struct argp_option options[] = {
    {"policy", OPT_POLICY, "NAME", 0, "dra (Morpheus) or jockey (default dra)", 1},
    {0, 0, 0, 0, "DRA (--policy dra; samples job,t,used[,pending]):", 2},
    {"plan", OPT_PLAN, "FILE", 0, "The reservation plan (lcmpack); required", 2},
    {"capacity", OPT_CAP, "cores=N,mem=M", 0, "Cluster capacity the plan is checked against (mem in MB); "
                                              "required", 2},
    {0, 0, 0, 0, "Jockey (--policy jockey; samples job[,run],t,progress|completed+total,alloc):", 3},
    {"table", OPT_TABLE, "FILE", 0, "Remaining-time table [job,]progress,alloc,remaining (seconds); the "
                                    "allocations in it are the candidates", 3},
    {"amdahl", OPT_AMDAHL, "S,P", 0, "Amdahl model instead: remaining = (1-p)(S + P/a) seconds, S the critical "
                                     "path and P the total work of a whole run (container-seconds)", 3},
    {"simulator", OPT_SIMULATOR, "RECORDS", 0, "The slides' event-based job simulator, learned per job from task "
                                               "records (job,run,alloc,stage,start,end,failed); samples need "
                                               "per-stage completed;total lists", 3},
    {"stage-amdahl", OPT_STAGE_AMDAHL, "RECORDS", 0, "Amdahl with the remaining critical path and work, learned "
                                                     "from task records; samples need per-stage lists", 3},
    {"deadline", OPT_DEADLINE, "DUR", 0, "Deadline after the job's first sample (utility 1 before, -penalty "
                                         "after); required unless --utility", 3},
    {"penalty", OPT_PENALTY, "X", 0, "Utility of missing the deadline is -X (default 1), times the lateness "
                                     "factor with --late linear", 3},
    {"late", OPT_LATE, "RULE", 0, "After the deadline: linear (default; -X (1 + lateness / deadline), so a "
                                  "late job gets the allocation that minimizes its lateness) or flat (-X, "
                                  "a late job falls back to the smallest allocation)", 3},
    {"utility", OPT_UTILITY, "FILE", 0, "Piecewise-linear utility [job,]t,utility of the completion time t after "
                                        "the first sample (non-increasing; replaces --deadline)", 3},
    {"slack", OPT_SLACK, "X", 0, "Predictions are multiplied by X >= 1 (default 1.2)", 3},
    {"alpha", OPT_ALPHA, "X", 0, "Hysteresis: A_t = A_t-1 + X (A_r - A_t-1), X in (0,1] (default 0.5)", 3},
    {"dead-zone", OPT_DEADZONE, "X", 0, "No change while |A_t - A_t-1| < X * A_t-1 (default 0.1)", 3},
    {"min-alloc", OPT_MINA, "N", 0, "Smallest allocation (default 1)", 3},
    {"max-alloc", OPT_MAXA, "N", 0, "Largest allocation (default: 1000 with --amdahl, the table's largest with "
                                    "--table)", 3},
    {"interval", OPT_INTERVAL, "DUR", 0, "At most one decision per job per DUR (default 0: every sample; else at least 1s)", 3},
    {0, 0, 0, 0, "Building a table (--build-table; history job,run,t,progress,alloc):", 4},
    {"build-table", OPT_BUILD, 0, 0, "Read past runs and write the table job,progress,alloc,remaining", 4},
    {"grid", OPT_GRID, "X", 0, "Progress points every X (default 0.01)", 4},
    {0, 0, 0, 0, "Comparing remaining-time models (--compare-models; task records "
                 "job,run,alloc,stage,start,end,failed):", 5},
    {"compare-models", OPT_COMPARE, 0, 0, "Learn the table, the Amdahl model and the job simulator from the "
                                          "first runs of each job and predict the remaining time of the rest", 5},
    {"train", OPT_TRAIN, "F", 0, "Share of each job's runs (in input order) to learn from (default 0.75)", 5},
    {"reps", OPT_REPS, "N", 0, "Simulated runs per prediction (default 30)", 5},
    {"evaluate-loop", OPT_LOOP, 0, 0, "Replay the held-back runs under the control loop with each model "
                                      "(static, Amdahl whole-run, Amdahl remaining, simulator): deadlines met "
                                      "and tokens used; the Jockey options apply", 5},
    {"deadline-factor", OPT_DFACTOR, "X", 0, "--evaluate-loop: deadline = X times the median training run "
                                             "(default 1)", 5},
    {0}};

/* the DRA's options (--capacity and dra_argp's; --plan has a message of its
 * own) outside it, where they would be ignored: refused */
static void no_dra_options(struct argp_state *st)
{
    if (opt.have_cap || opt.dra.given)
        argp_error(st, "--%s goes with --policy dra", opt.have_cap ? "capacity" : opt.dra.given);
}

/* Option combinations, checked before any input is read.  An option of
 * another mode, which would be ignored, is refused. */
static void check_options(struct argp_state *st)
{
    if (opt.deadline_factor > 0 && !opt.loop)
        argp_error(st, "--deadline-factor goes with --evaluate-loop");
    if (opt.have_grid && !opt.build)
        argp_error(st, "--grid goes with --build-table");
    if (opt.compare || opt.loop) {
        if (opt.compare && opt.loop)
            argp_error(st, "--compare-models and --evaluate-loop exclude each other");
        if (opt.have_deadline || opt.utility || opt.records || opt.have_amdahl)
            argp_error(st, "--compare-models and --evaluate-loop learn their models and set the deadline "
                           "(no --deadline, --utility, --amdahl, --simulator or --stage-amdahl)");
        if (opt.build || opt.have_policy || opt.plan || opt.table)
            argp_error(st, "--compare-models reads task records only (no --build-table, --policy, --plan "
                           "or --table)");
        if (opt.compare && opt.jk_opt) /* the loop runs the Jockey controller, the comparison none */
            argp_error(st, "--%s goes with --policy jockey", opt.jk_opt);
        no_dra_options(st);
        return;
    }
    if (opt.train > 0)
        argp_error(st, "--train goes with --compare-models");
    if (opt.reps && !opt.loop && !(opt.records && opt.jk.job_model == JOCKEY_SIM))
        argp_error(st, "--reps goes with --compare-models or --simulator");
    if (opt.build) {
        if (opt.have_policy || opt.plan || opt.table)
            argp_error(st, "--build-table reads run history only (no --policy, --plan or --table)");
        if (opt.jk_opt)
            argp_error(st, "--%s goes with --policy jockey", opt.jk_opt);
        no_dra_options(st);
        return;
    }
    if (opt.policy == POL_DRA) {
        if (!opt.plan)
            argp_error(st, "--policy dra needs --plan FILE (the reservations to extend)");
        if (!opt.have_cap)
            argp_error(st, "--policy dra needs --capacity cores=N,mem=M (what the plan may use)");
        if (opt.records)
            argp_error(st, "--simulator and --stage-amdahl go with --policy jockey");
        if (opt.table || opt.have_amdahl || opt.have_deadline || opt.utility)
            argp_error(st, "--table, --amdahl, --deadline and --utility go with --policy jockey");
        if (opt.jk_opt)
            argp_error(st, "--%s goes with --policy jockey", opt.jk_opt);
    } else {
        if (opt.plan)
            argp_error(st, "--plan goes with --policy dra");
        no_dra_options(st);
        if ((opt.table != NULL) + opt.have_amdahl + (opt.records != NULL) != 1)
            argp_error(st, "--policy jockey needs one remaining-time model: --table FILE, --amdahl S,P, "
                           "--simulator RECORDS or --stage-amdahl RECORDS");
        if (!opt.have_deadline && !opt.utility)
            argp_error(st, "--policy jockey needs --deadline DUR or --utility FILE");
        if (opt.have_deadline && opt.utility)
            argp_error(st, "--deadline and --utility exclude each other");
        if (opt.table && !opt.have_max)
            opt.jk.max_alloc = INFINITY; /* every allocation of the table */
        if (opt.jk.min_alloc > opt.jk.max_alloc)
            argp_error(st, "--min-alloc %g is above --max-alloc %g", opt.jk.min_alloc, opt.jk.max_alloc);
    }
}

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    if (!opt.jk_opt)
        opt.jk_opt = cli_group_option(options, key, 3);
    switch (key) {
    case OPT_POLICY:
        if (!strcmp(arg, "dra"))
            opt.policy = POL_DRA;
        else if (!strcmp(arg, "jockey"))
            opt.policy = POL_JOCKEY;
        else
            argp_error(st, "invalid value for --policy: '%s' (dra or jockey)", arg);
        opt.have_policy = 1;
        break;
    case OPT_PLAN: opt.plan = arg; break;
    case OPT_CAP:
        cli_resources(st, "capacity", arg, &opt.cap_cores, &opt.cap_mem);
        opt.have_cap = 1;
        break;
    case ARGP_KEY_INIT:
        st->child_inputs[0] = &opt.dra;
        break;
    case OPT_TABLE: opt.table = arg; break;
    case OPT_SIMULATOR:
    case OPT_STAGE_AMDAHL:
        if (opt.records)
            argp_error(st, "--simulator and --stage-amdahl exclude each other");
        opt.records = arg;
        opt.jk.job_model = key == OPT_SIMULATOR ? JOCKEY_SIM : JOCKEY_STAGE_AMDAHL;
        break;
    case OPT_AMDAHL: {
        char *s = xstrdup(arg), *comma = strchr(s, ',');
        double a, b;
        /* bounded like any size read from a file (CSVR_MAX_VALUE): a larger S
         * or P predicts inf seconds left and prints garbage in the reason */
        if (!comma || (*comma = 0, parse_double(s, &a, 0) < 0) || parse_double(comma + 1, &b, 0) < 0 || a < 0 ||
            !(b > 0) || a > CSVR_MAX_VALUE || b > CSVR_MAX_VALUE)
            argp_error(st, "invalid value for --amdahl: '%s' (want S,P: 0 <= S <= %g and 0 < P <= %g seconds)", arg,
                       CSVR_MAX_VALUE, CSVR_MAX_VALUE);
        free(s);
        opt.jk.serial = a;
        opt.jk.parallel = b;
        opt.have_amdahl = 1;
        break;
    }
    case OPT_DEADLINE: opt.jk.deadline = cli_duration(st, "deadline", arg, 1); opt.have_deadline = 1; break;
    case OPT_LATE:
        if (!strcmp(arg, "linear"))
            opt.jk.late_flat = 0;
        else if (!strcmp(arg, "flat"))
            opt.jk.late_flat = 1;
        else
            argp_error(st, "invalid value for --late: '%s' (linear or flat)", arg);
        break;
    case OPT_PENALTY: opt.jk.penalty = cli_double(st, "penalty", arg, 0, CSVR_MAX_VALUE); break;
    case OPT_UTILITY: opt.utility = arg; break;
    case OPT_SLACK: opt.jk.slack = cli_double(st, "slack", arg, 1, 1e6); break;
    case OPT_ALPHA: opt.jk.alpha = cli_double(st, "alpha", arg, 1e-9, 1); break;
    case OPT_DEADZONE: opt.jk.dead_zone = cli_double(st, "dead-zone", arg, 0, 1e6); break;
    case OPT_MINA:
        opt.jk.min_alloc = (double)cli_int(st, "min-alloc", arg, 1, (long)JOBSIM_MAX_ALLOC);
        break;
    case OPT_MAXA:
        opt.jk.max_alloc = (double)cli_int(st, "max-alloc", arg, 1, (long)JOBSIM_MAX_ALLOC);
        opt.have_max = 1;
        break;
    case OPT_INTERVAL: opt.jk.interval = cli_duration_or_zero(st, "interval", arg, 1); break; /* ticks the loop */
    case OPT_BUILD: opt.build = 1; break;
    case OPT_COMPARE: opt.compare = 1; break;
    case OPT_LOOP: opt.loop = 1; break;
    case OPT_DFACTOR: opt.deadline_factor = cli_double(st, "deadline-factor", arg, 1e-3, 1e3); break;
    case OPT_TRAIN:
        opt.train = cli_double(st, "train", arg, 0, 1);
        if (!(opt.train > 0 && opt.train < 1))
            argp_error(st, "invalid value for --train: '%s' (want 0 < F < 1)", arg);
        break;
    case OPT_REPS: opt.reps = (int)cli_int(st, "reps", arg, 1, 100000); break;
    case OPT_GRID:
        opt.jk.grid = cli_double(st, "grid", arg, 1e-6, 1);
        opt.have_grid = 1;
        break;
    case ARGP_KEY_ARG:
        if (opt.input)
            argp_error(st, "one SAMPLES file only (got '%s' and '%s')", opt.input, arg);
        opt.input = arg;
        break;
    case ARGP_KEY_END: check_options(st); break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* ---- output ------------------------------------------------------------------------ */

static csvw *w;
static FILE *wfp;
static uint64_t nrows_out;

static void emit(double t, const char *job, const char *policy, double old_alloc, double new_alloc, double until,
                 const char *reason)
{
    csvw_num(w, t);
    csvw_str(w, job);
    csvw_str(w, policy);
    csvw_num(w, old_alloc);
    csvw_num(w, new_alloc);
    csvw_num(w, until);
    csvw_str(w, reason);
    csvw_end(w);
    fflush(wfp); /* a decision is acted on now, not when a buffer fills */
    nrows_out++;
}

/* ---- DRA --------------------------------------------------------------------------- */

/* The live policies' summaries go straight to stderr, not to the held
 * slk_summary: each decision went out as it was made, so a run stopped by a
 * bad row still says what it decided before the row. */
static void dra_emit(void *ctx, double t, const char *job, const struct dra_decision *dec, const char *why)
{
    emit(t, job, "dra", (double)dec->old_alloc, (double)dec->new_alloc, dec->until, why);
}

static int run_dra(csvr *r, plan *p)
{
    dra *d = dra_new(p, &opt.dra);
    double t0 = slk_now();
    int st = draio_run(r, d, dra_emit, NULL);
    struct dra_stats s;
    dra_get_stats(d, &s);
    dra_free(d);
    if (!slk_opt.quiet && (st == SLK_OK || csvr_line(r) > 1)) { /* not after a bad header */
        double el = slk_now() - t0;
        fprintf(
            stderr,
            "%s: dra: %llu samples (%llu of jobs without a reservation, ignored); %llu triggers: %llu "
            "extended, %llu renewed, %llu refused (plan full), %llu refused (no recent allocation), %llu "
            "refused (rho*max recent < 1); %.0f extra container-seconds granted (%llu grants partial); %.0f "
            "samples/s\n",
            slk_progname, (unsigned long long)s.samples, (unsigned long long)s.noplan,
            (unsigned long long)s.triggers, (unsigned long long)s.extended, (unsigned long long)s.renewed,
            (unsigned long long)s.refused_full, (unsigned long long)s.refused_nocap,
            (unsigned long long)s.refused_rho, s.extra_container_s, (unsigned long long)s.partial,
            el > 0 ? (double)s.samples / el : 0.0);
    }
    return st;
}

/* ---- Jockey ------------------------------------------------------------------------ */

static void jockey_emit(void *ctx, double t, const char *job, const struct jockey_decision *dec)
{
    emit(t, job, "jockey", dec->old_alloc, dec->new_alloc, dec->until, dec->reason);
}

static int run_jockey(csvr *r, jockey *jk)
{
    double t0 = slk_now();
    int st = jockeyio_run(r, jk, jockey_emit, NULL);
    struct jockey_stats s;
    jockey_get_stats(jk, &s);
    if (!slk_opt.quiet && (st == SLK_OK || csvr_line(r) > 1)) { /* not after a bad header */
        double el = slk_now() - t0;
        fprintf(
            stderr,
            "%s: jockey: %llu samples of %llu runs (%llu told apart by progress going back); %llu decisions, "
            "%llu more held by the dead zone; %llu runs without a model; %llu runs whose table has no "
            "allocation in [--min-alloc, --max-alloc]; %.0f samples/s\n",
            slk_progname, (unsigned long long)s.samples, (unsigned long long)s.runs,
            (unsigned long long)s.restarts, (unsigned long long)s.changes, (unsigned long long)s.dead_zone,
            (unsigned long long)s.nomodel, (unsigned long long)s.outside,
            el > 0 ? (double)s.samples / el : 0.0);
        if (s.nostages)
            fprintf(stderr, "%s: jockey: %llu samples without the per-stage task counts the job model needs "
                            "(columns completed and total as ';'-lists, one per stage of the model)\n",
                    slk_progname, (unsigned long long)s.nostages);
    }
    return st;
}

/* --compare-models, --evaluate-loop and --build-table: read history, write one table. */
static int run_offline(void)
{
    int st;
    outf *o = outf_open(slk_opt.output, &st);
    if (!o)
        return st;
    if (opt.loop) {
        struct loopeval_opts lo = {opt.train > 0 ? opt.train : 0.75,
                                   opt.deadline_factor > 0 ? opt.deadline_factor : 1,
                                   opt.jk.interval > 0 ? opt.jk.interval : 60};
        opt.jk.seed = slk_opt.seed;
        if (opt.reps)
            opt.jk.reps = opt.reps;
        opt.jk.interval = 0; /* the loop decides every lo.interval */
        st = loopeval_run(opt.input, cli_dialect(NULL), &opt.jk, &lo, outf_fp(o));
    } else if (opt.compare)
        st = jobsim_compare(opt.input, cli_dialect(NULL), opt.train > 0 ? opt.train : 0.75, opt.reps ? opt.reps : 30, slk_opt.seed,
                            outf_fp(o));
    else
        st = jockey_build_table(opt.input, &opt.jk, outf_fp(o));
    return outf_finish(o, st);
}

/* A plan above --capacity is run, not refused: lcmpack writes one when the
 * capacity shrank under kept reservations, and the DRA still grants at the
 * steps with room; but every extension that meets a full step is refused,
 * and a capacity in the wrong unit refuses nearly all of them, so say so. */
#define REPROV_OVER                                                                                          \
    "every extension that meets one of those steps is refused (is --capacity right? mem is in MB)"

/* The controllers: read the model (a bad plan or table fails before any
 * input is read), then the samples, writing decisions as they are made. */
static int run_stream(void)
{
    int st;
    /* the model first: a bad plan or table fails before any input is read */
    plan *p = NULL;
    jockey *jk = NULL;
    if (opt.policy == POL_DRA) {
        st = plan_read(opt.plan, &p);
        if (st == SLK_OK && plan_set_capacity(p, opt.cap_cores, opt.cap_mem) < 0)
            st = SLK_EUSAGE;
        if (st == SLK_OK)
            plan_warn_over(p, opt.plan, REPROV_OVER);
    } else {
        opt.jk.seed = slk_opt.seed;
        if (opt.reps)
            opt.jk.reps = opt.reps;
        st = jockey_new(&opt.jk, opt.table, opt.records, opt.utility, &jk);
    }
    csvr *r = st == SLK_OK ? csvr_open_stream_with(opt.input, cli_dialect(NULL), 0, &st) : NULL;
    outf *o = r ? outf_open(slk_opt.output, &st) : NULL;
    if (!o) {
        csvr_close(r);
        plan_free(p);
        jockey_free(jk);
        return st;
    }
    wfp = outf_fp(o);
    w = csvw_new_with(wfp, cli_dialect(NULL));
    static const char *const cols[] = {"t", "job", "policy", "old_alloc", "new_alloc", "until", "reason", NULL};
    csvw_header(w, cols);
    fflush(wfp);
    st = opt.policy == POL_DRA ? run_dra(r, p) : run_jockey(r, jk);
    plan_free(p);
    jockey_free(jk);
    if (csvw_error(w) && st == SLK_OK)
        st = SLK_EIO;
    csvw_free(w);
    csvr_close(r);
    return outf_finish(o, st);
}

int main(int argc, char **argv)
{
    slk_init("reprov");
    dra_opts_default(&opt.dra);
    jockey_opts_default(&opt.jk);
    opt.jk.dialect = cli_dialect;
    static const struct argp_child kids[] = {{&dra_argp, 0, "DRA tuning (--policy dra):", 2}, CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {
        options, parse_opt, "[SAMPLES]",
        "Re-provision running jobs from a live stream of samples (in time order), writing each decision at once: "
        "--policy dra extends a job's reservation when its demand exceeds the plan (Morpheus DRA); --policy "
        "jockey picks the smallest allocation that maximizes the utility of the predicted completion time "
        "(Jockey).  Output: t,job,policy,old_alloc,new_alloc,until,reason.  Exit status: 0 done, 64 usage, "
        "65 bad input, plan or table, 66 missing file, 73/74 output errors."
        "\vExamples:\n"
        "  tail -f telemetry.csv | reprov --policy dra --plan plan.csv \\\n"
        "      --capacity cores=2000,mem=8192000\n"
        "  reprov --recent plan --plan plan.csv --capacity cores=2000,mem=1e9 \\\n"
        "      samples.csv\n"
        "  reprov --build-table history.csv > remaining.csv\n"
        "  reprov --policy jockey --table remaining.csv --deadline 60m progress.csv\n"
        "  reprov --policy jockey --amdahl 300,36000 --deadline 1h --slack 1.2 \\\n"
        "      progress.csv\n"
        "  tracegen jobruns > tasks.csv && reprov --compare-models tasks.csv > pred.csv",
        kids, NULL, NULL};
    cli_roles("samples", "table", "utility", "records", (const char *)NULL);
    /* the samples of either policy, or the history --build-table,
     * --compare-models and --evaluate-loop read: one set of options may
     * serve every mode */
    cli_keys("samples", draio_keys);
    cli_keys("samples", jockeyio_keys);
    cli_keys("samples", jockey_history_keys);
    cli_keys("samples", jobsim_record_keys);
    cli_keys("table", jockey_table_keys);
    cli_keys("utility", jockey_utility_keys);
    cli_keys("records", jobsim_record_keys);
    static const char short_streams[] = "it shows no progress (it reads live or short streams)";
    cli_refuse("progress", short_streams);
    cli_refuse("no-progress", short_streams);
    cli_parse(&argp, argc, argv, NULL);
    cli_outputs(NULL, 0);

    return slk_finish(opt.compare || opt.loop || opt.build ? run_offline() : run_stream());
}
