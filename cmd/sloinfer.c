/* sloinfer — deadlines (SLOs) of periodic jobs from their run history
 * (Morpheus §4).  Reads one row per run, grouped by job, or raw provenance
 * events plus the run table (--events), in any order, and writes one row
 * per job, sorted by job:
 *   job,period,a,d,runs,cv,slack_ratio,status,consumer_period,source,
 *   basis,cv_start,cv_read,problematic
 * The inference is lib/morpheus/slo.c, the held run table
 * lib/morpheus/slotable.c, the files around them (run table, events,
 * overrides, the SLO rows) lib/morpheus/slofile.c; this file parses the
 * options, opens the files and prints the summary.
 * See sloinfer(1). */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "base/parse.h"
#include "morpheus/slo.h"
#include "morpheus/slofile.h"

#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *input = "-";
static const char *events_path;
static const char *override_path;
static struct slofile_opts fo = {.basis = -1, .ok_status = "ok,success,succeeded,completed,finished,done",
                                 .max_runs = 5000000};
static struct slofile_overrides ovs;

enum {
    OPT_EVENTS = 1, OPT_OVERRIDE, OPT_PERIOD, OPT_ANCHOR, OPT_NATURAL, OPT_SNAP_TOL, OPT_MATCH_TOL,
    OPT_MIN_SCORE, OPT_MIN_RUNS, OPT_MAX_CV, OPT_MIN_SLACK, OPT_A_PCT, OPT_D_PCT, OPT_OK_STATUS, OPT_JOB_COL,
    OPT_MAX_RUNS, OPT_BASIS, OPT_DONE_PCT, OPT_DONE_SLACK, OPT_PROB_CV
};

static const struct argp_option options[] = {
    {0, 0, 0, 0, "Inputs:", 1},
    {"events", OPT_EVENTS, "FILE", 0, "Provenance events time,job,instance,file,op (op=read|write; each file's "
                                      "events in time order): "
                                      "build input_avail and output_read from them instead of the run table's columns", 1},
    {"override", OPT_OVERRIDE, "FILE", 0, "User sign-off: rows job[,period][,a][,d] that replace inferred values "
                                          "(source 'overridden:FIELDS')", 1},
    {"ok-status", OPT_OK_STATUS, "LIST", 0, "Status values of successful runs, comma-separated, case-insensitive "
                                            "(default ok,success,succeeded,completed,finished,done; an empty status is successful)", 1},
    {"job-col", OPT_JOB_COL, "NAME", 0, "Read the job name from column NAME (same as --col job=NAME)", 1},
    {"max-runs", OPT_MAX_RUNS, "N", 0, "Hold at most N runs in memory, about 220 bytes each (default 5000000); "
                                       "more is an error", 1},
    {0, 0, 0, 0, "Period:", 2},
    {"period", OPT_PERIOD, "DURATION", 0, "Use this period for every job instead of estimating it (e.g. 1h, 1d)", 2},
    {"anchor", OPT_ANCHOR, "TIME", 0, "Periods start at ANCHOR + k*period (default 0: epoch-aligned, "
                                      "days at 00:00 UTC, weeks on Thursday 00:00 UTC)", 2},
    {"natural", OPT_NATURAL, "LIST", 0, "Natural periods to snap to, comma-separated durations (default: "
                                        "1, 5, 10, 15, 20 and 30 min, 1, 2, 3, 4, 6, 8 and 12 h, 1 d, 1 w)", 2},
    {"snap-tol", OPT_SNAP_TOL, "FRAC", 0, "Snap to a natural period (else a whole minute, else a second) within "
                                          "this relative distance (default 0.05), when the snapped grid drifts by "
                                          "at most max(3 jitters, period/1000, 1 s) over the history", 2},
    {"match-tol", OPT_MATCH_TOL, "FRAC", 0, "A submit within FRAC*period of the schedule is on schedule (default 0.25)", 2},
    {"min-score", OPT_MIN_SCORE, "X", 0, "A job with fewer than this fraction of its submits on the schedule "
                                         "is not_periodic (default 0.5)", 2},
    {0, 0, 0, 0, "Deadline:", 3},
    {"a-pct", OPT_A_PCT, "P", 0, "a is the P-th percentile of input_avail offsets (default 95)", 3},
    {"d-pct", OPT_D_PCT, "P", 0, "d is the P-th percentile of output_read offsets (default 50)", 3},
    {"min-runs", OPT_MIN_RUNS, "N", 0, "Fewer usable runs (or reads) than N: too_few_runs/too_few_reads (default 5)", 3},
    {"max-cv", OPT_MAX_CV, "X", 0, "CV = MAD/median of output_read offsets above X: high_cv (default 0.1)", 3},
    {"min-slack", OPT_MIN_SLACK, "X", 0, "median (output_read-end)/(end-start) below X: no_slack (default 0.25)", 3},
    {"basis", OPT_BASIS, "MODE", 0, "Where d comes from: provenance (output_read), completion (the runs' ends "
                                    "plus slack) or auto (default: provenance when the runs have an output_read column or --events)", 3},
    {"done-pct", OPT_DONE_PCT, "P", 0, "Completion basis: d is the P-th percentile of end offsets (default 95) ...", 3},
    {"done-slack", OPT_DONE_SLACK, "X", 0, "... plus X median run lengths (default 0.25)", 3},
    {"problematic-cv", OPT_PROB_CV, "X", 0, "cv_start or cv_read above X: problematic (default 0.694, the MAD/median of memoryless waits)", 3},
    {0}
};

static double pct_arg(struct argp_state *st, const char *opt, const char *arg)
{
    return cli_double(st, opt, arg, 0, 100);
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void parse_natural(struct argp_state *st, char *arg)
{
    fo.so.nnatural = 0;
    char *save = NULL;
    for (char *tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (fo.so.nnatural >= SLO_MAX_NATURAL)
            argp_error(st, "invalid value for --natural: more than %d periods", SLO_MAX_NATURAL);
        double v;
        if (parse_duration(tok, &v) < 0 || !(v >= 1))
            argp_error(st, "invalid value for --natural: '%s' (want durations of at least 1 s, e.g. 1h,1d)", tok);
        fo.so.natural[fo.so.nnatural++] = v;
    }
    qsort(fo.so.natural, (size_t)fo.so.nnatural, sizeof fo.so.natural[0], cmp_dbl);
}

/* the first option given that only an estimated period uses, or only the
 * completion basis (NULL: none) */
static const char *estimate_opt, *done_opt;

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    switch (key) {
    case OPT_EVENTS: events_path = arg; break;
    case OPT_OVERRIDE: override_path = arg; break;
    case OPT_OK_STATUS: fo.ok_status = arg; break;
    case OPT_JOB_COL:
        if (!*arg)
            argp_error(st, "invalid value for --job-col: '' (want a column name)");
        cli_colmap_add("job", arg);
        break;
    case OPT_PERIOD: fo.so.period = cli_duration(st, "period", arg, 1); break;
    case OPT_ANCHOR: fo.so.anchor = cli_time(st, "anchor", arg); break;
    case OPT_NATURAL:
        parse_natural(st, arg);
        estimate_opt = estimate_opt ? estimate_opt : cli_option_name(options, key);
        break;
    case OPT_SNAP_TOL: fo.so.snap_tol = cli_double(st, "snap-tol", arg, 0, 0.5); break;
    case OPT_MATCH_TOL: fo.so.match_tol = cli_double(st, "match-tol", arg, 0.01, 0.5); break;
    case OPT_MIN_SCORE:
        fo.so.min_score = cli_double(st, "min-score", arg, 0, 1);
        estimate_opt = estimate_opt ? estimate_opt : cli_option_name(options, key);
        break;
    case OPT_MIN_RUNS: fo.so.min_runs = (int)cli_int(st, "min-runs", arg, 1, 1000000); break;
    case OPT_MAX_CV: fo.so.max_cv = cli_double(st, "max-cv", arg, 0, 1e9); break;
    case OPT_MIN_SLACK: fo.so.min_slack = cli_double(st, "min-slack", arg, -1e9, 1e9); break;
    case OPT_A_PCT: fo.so.a_pct = pct_arg(st, "a-pct", arg); break;
    case OPT_D_PCT: fo.so.d_pct = pct_arg(st, "d-pct", arg); break;
    case OPT_DONE_PCT:
        fo.so.done_pct = pct_arg(st, "done-pct", arg);
        done_opt = done_opt ? done_opt : cli_option_name(options, key);
        break;
    case OPT_DONE_SLACK:
        fo.so.done_slack = cli_double(st, "done-slack", arg, 0, 100);
        done_opt = done_opt ? done_opt : cli_option_name(options, key);
        break;
    case OPT_PROB_CV: fo.so.problematic_cv = cli_double(st, "problematic-cv", arg, 0, 1e9); break;
    case OPT_MAX_RUNS: fo.max_runs = (size_t)cli_int(st, "max-runs", arg, 1, 1000000000); break;
    case OPT_BASIS:
        if (strcmp(arg, "auto") == 0)
            fo.basis = -1;
        else if (strcmp(arg, "provenance") == 0)
            fo.basis = SLO_BASIS_PROVENANCE;
        else if (strcmp(arg, "completion") == 0)
            fo.basis = SLO_BASIS_COMPLETION;
        else
            argp_error(st, "invalid value for --basis: '%s' (want auto, provenance or completion)", arg);
        break;
    case ARGP_KEY_ARG:
        if (st->arg_num > 0)
            argp_error(st, "one input file only (got '%s' and '%s')", input, arg);
        input = arg;
        break;
    case ARGP_KEY_END: /* an option that would be ignored is refused */
        if (fo.so.period > 0 && estimate_opt)
            argp_error(st,
                       "--%s applies to an estimated period: not with --period (every job's period is given)",
                       estimate_opt);
        if (fo.basis == SLO_BASIS_PROVENANCE && done_opt)
            argp_error(st, "--%s goes with --basis completion or auto (provenance takes d from the reads)",
                       done_opt);
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const char doc[] =
    "Infer the deadline (SLO) of each periodic job from its run history (Morpheus §4).\v"
    "Input: one row per run, in any order, with the columns\n"
    "  job,instance,submit,start,end,input_avail,output_read,status\n"
    "  and optionally consumer_period (input_avail, output_read, status and\n"
    "  the instance may be empty or absent); with --events, the run table\n"
    "  plus provenance events time,job,instance,file,op.\n"
    "Output: one row per job, sorted by job,\n"
    "  job,period,a,d,runs,cv,slack_ratio,status,consumer_period,source,\n"
    "  basis,cv_start,cv_read,problematic\n"
    "  where a and d are offsets in seconds from the start of the period\n"
    "  (epoch grid), status is 'actionable' or why not (too_few_runs,\n"
    "  not_periodic, no_consumer, too_few_reads, high_cv, no_slack,\n"
    "  no_window) and basis says where d came from: provenance\n"
    "  (output_read), completion (the runs' ends; a from input_avail) or\n"
    "  schedule (the runs' ends; a from the submits).\n"
    OUTF_HELD_HELP "\n"
    "\n"
    "Examples:\n"
    "  tracegen runs --count 100 --days 30 | sloinfer > slo.csv\n"
    "  sloinfer --events events.csv runs.csv -o slo.csv\n"
    "  sloinfer --override signoff.csv --max-cv 0.2 runs.csv\n"
    "  sloinfer --period 1d --a-pct 90 --d-pct 25 runs.csv\n"
    "  sloinfer --basis completion --done-slack 0.5 runs.csv";

/* ---- summary and main ---------------------------------------------------------------- */

static void summary(const struct slofile_tally *t)
{
    if (slk_opt.quiet)
        return;
    char buf[512];
    int len = 0;
    for (int i = 0; slofile_statuses[i]; i++)
        if (t->status_count[i])
            len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%zu %s", len ? ", " : "", t->status_count[i],
                            slofile_statuses[i]);
    fprintf(slk_summary(), "sloinfer: %zu jobs from %zu runs: %s\n", t->njobs, t->nrows, len ? buf : "none");
    fprintf(slk_summary(),
            "sloinfer: periods: %zu natural, %zu whole minutes, %zu whole seconds, %zu unsnapped, %zu given; "
            "%zu failed and %zu extra or off-schedule runs not used\n",
            t->snap_count[SLO_SNAP_NATURAL], t->snap_count[SLO_SNAP_MINUTE], t->snap_count[SLO_SNAP_SECOND],
            t->snap_count[SLO_SNAP_NONE], t->snap_count[SLO_SNAP_GIVEN], t->nfailed, t->nextra);
    if (t->nfolded)
        fprintf(slk_summary(),
                "sloinfer: %zu jobs read by consumers with a longer period: deadline folded into the "
                "job's own period (footnote 5)\n",
                t->nfolded);
    if (t->noverridden)
        fprintf(slk_summary(), "sloinfer: %zu jobs overridden by %s\n", t->noverridden, override_path);
    if (t->basis_count[1] + t->basis_count[2])
        fprintf(
            slk_summary(), "sloinfer: %s: d from the runs' ends (%zu jobs basis completion, %zu schedule)\n",
            fo.basis == SLO_BASIS_COMPLETION ? "--basis completion" : "no output_read column in the input",
            t->basis_count[1], t->basis_count[2]);
    if (slk_many_hidden(&t->implausible))
        fprintf(slk_summary(),
                "sloinfer: warning: %ld jobs in all have a period of over 20 years (%d shown above): "
                "are the input times in ms or us? (use --time-unit ms or --time-unit us)\n",
                t->implausible.n, slk_many_shown(&t->implausible));
    fprintf(slk_summary(), "sloinfer: %zu jobs problematic (cv_start or cv_read above %.3g)\n",
            t->nproblematic, fo.so.problematic_cv);
    for (size_t i = 0; i < ovs.n; i++)
        if (!ovs.v[i].used)
            slk_warn_at(override_path, ovs.v[i].line, "override for job '%s' matches no job in the input",
                        ovs.v[i].job);
}

/* Infer every job's SLO from the runs into -o (replaced only when
 * complete) and print the summary.  Returns an exit status. */
static int infer_file(void)
{
    int st = SLK_OK;
    if (override_path && (st = slofile_overrides_load(override_path, cli_dialect("override"), &ovs)) != SLK_OK)
        return st;
    csvr *r = csvr_open_with(input, cli_dialect(NULL), 0, &st);
    if (!r)
        return st;
    outf *o = outf_open_held(slk_opt.output, &st);
    if (!o) {
        csvr_close(r);
        return st;
    }
    csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
    csvw_header(w, slofile_header);
    fo.skip = slk_opt.on_error_skip;
    fo.quiet = slk_opt.quiet;
    fo.ov = override_path ? &ovs : NULL;
    fo.events_dialect = events_path ? cli_dialect("events") : NULL;
    fo.events_path = events_path;
    struct slofile_tally tally = {0};
    st = slofile_infer(r, &fo, w, &tally);
    csvr_close(r);
    if (st == SLK_OK && csvw_error(w))
        st = SLK_EIO; /* outf_finish names the output and the error */
    csvw_free(w);
    st = outf_finish(o, st);
    if (st == SLK_OK) /* no summary of SLOs that were not written */
        summary(&tally);
    return st;
}

int main(int argc, char **argv)
{
    slk_init("sloinfer");
    slo_opts_default(&fo.so);
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {options, parse_opt, "[RUNS]", doc, kids, 0, 0};
    cli_roles("runs", "events", "override", (const char *)NULL);
    cli_keys("runs", slofile_run_keys);
    cli_keys("events", slofile_event_keys);
    cli_keys("override", slofile_override_keys);
    cli_parse(&argp, argc, argv, NULL);
    cli_outputs(NULL, 0);
    const char *in[] = {input, events_path, override_path};
    int st = SLK_OK;
    if (cli_dash_count(in, 3) > 1) {
        slk_error("only one input can be standard input (give the runs, --events and --override as files)");
        st = SLK_EUSAGE;
    } else {
        st = infer_file();
    }
    slofile_overrides_free(&ovs);
    return slk_finish(st);
}
