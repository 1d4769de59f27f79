/* stretch — do teams with similar load get similar performance?  A
 * trace-driven simulation of virtual clusters (VCs) sharing one cluster
 * under an instantaneous (maxmin) or a history-based (drr, balanced)
 * scheduler, reporting each job's stretch, per-VC load and stretch, per-day
 * views, and how consistent stretch is among VCs of similar load.
 *
 *   stretch [OPTION...] CAPACITIES [JOBS]
 *
 * CAPACITIES: vc,capacity.  JOBS: job,vc,submit,size_server_hours[,max_parallelism].
 * The simulator is lib/vc/vcsim; this file reads, validates and reports. */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "base/parse.h"
#include "vc/vcio.h"
#include "vc/vcreport.h"
#include "vc/vcsim.h"

#include <argp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DAY 86400.0

static struct {
    const char *cap_path, *jobs_path;
    const char *vcs_out, *daily_out, *summary_out;
    enum vcsim_policy policy;
    enum vcsim_within within;
    double system_servers, quantum, credit_window, horizon, start;
    int have_start;
    double bins[VCIO_MAX_BINS];
    int nbins;
    long long max_jobs, reorder;
} opt = {
    .policy = VCSIM_MAXMIN,
    .within = VCSIM_FAIR,
    .quantum = 300,
    .credit_window = 7 * DAY,
    /* seed 002's three classes: under-utilized, fully utilized (load about
     * 1), over-utilized.  The edges sit between the loads the tools give VCs
     * by default (tracegen's paper VCs 0.3, 0.5 | 1.0 | 1.6, traceconv's and
     * the examples' 0.8), so sibling VCs share a bin: an edge at 0.8 split
     * traceconv's four SWIM VCs (0.794..0.809) into two pairs. */
    .bins = {0.65, 1.3},
    .nbins = 2,
    .max_jobs = UINT32_MAX - 2,
    .reorder = 10000,
};

enum { OPT_SCHED = 's', OPT_SYSTEM = 1, OPT_WITHIN, OPT_QUANTUM, OPT_WINDOW, OPT_HORIZON, OPT_START,
       OPT_VCS, OPT_DAILY, OPT_SUMMARY, OPT_BINS, OPT_JOBCOL, OPT_VCCOL, OPT_SUBMITCOL, OPT_SIZECOL,
       OPT_PARCOL, OPT_CAPCOL, OPT_MAXJOBS, OPT_REORDER };

static const struct argp_option options[] = {
    {0, 0, 0, 0, "Scheduling:", 1},
    {"scheduler", OPT_SCHED, "NAME", 0,
     "maxmin (instantaneous max-min), drr (deficit/credit) or balanced "
     "(credit moves only while the cluster is contended); default maxmin",
     1},
    {"within", OPT_WITHIN, "RULE", 0,
     "Sharing among a VC's jobs: fair (max-min with max_parallelism caps) or "
     "fifo (submit order); default fair",
     1},
    {"system-servers", OPT_SYSTEM, "N", 0, "Shared servers owned by no VC, lent to any VC (default 0)", 1},
    {"quantum", OPT_QUANTUM, "DUR", 0,
     "drr/balanced: re-evaluate priorities at least this often while jobs "
     "run (default 5m, at least 1s; 0 = only at arrivals and completions)",
     1},
    {"credit-window", OPT_WINDOW, "DUR", 0,
     "drr/balanced: a VC's credit is clamped to +-capacity x DUR "
     "(default 7d)",
     1},
    {0, 0, 0, 0, "Reporting:", 2},
    {"vcs", OPT_VCS, "FILE", 0, "Write per-VC load and stretch to FILE", 2},
    {"daily", OPT_DAILY, "FILE", 0, "Write per-day per-VC load and mean stretch to FILE", 2},
    {"summary", OPT_SUMMARY, "FILE", 0, "Write the summary as metric,value rows to FILE", 2},
    {"max-jobs", OPT_MAXJOBS, "N", 0, "Refuse more than N jobs (default and most 4294967293)", 2},
    {"reorder", OPT_REORDER, "N", 0,
     "JOBS may be out of submit order by up to N rows (read ahead; "
     "default 10000)",
     2},
    {"horizon", OPT_HORIZON, "DUR", 0,
     "Length of the accounting window [start, start + DUR) (default: the "
     "whole days from the start that hold the last submit)",
     2},
    {"start", OPT_START, "TIME", 0, "Start of the accounting window (default: the first submit)", 2},
    {"load-bins", OPT_BINS, "LIST", 0,
     "Increasing load-factor bin edges for the consistency figure "
     "(default 0.65,1.3: under-utilized, fully utilized, over-utilized)",
     2},
    {0, 0, 0, 0, "Input columns (also --col KEY=NAME):", 3},
    {"job-col", OPT_JOBCOL, "NAME", 0, "Job id column (default job)", 3},
    {"vc-col", OPT_VCCOL, "NAME", 0, "VC column, in both inputs (default vc)", 3},
    {"submit-col", OPT_SUBMITCOL, "NAME", 0, "Submit time column (default submit)", 3},
    {"size-col", OPT_SIZECOL, "NAME", 0, "Job size column, server-hours (default size_server_hours)", 3},
    {"parallelism-col", OPT_PARCOL, "NAME", 0, "Max parallelism column, servers (default max_parallelism)",
     3},
    {"capacity-col", OPT_CAPCOL, "NAME", 0, "VC capacity column, servers (default capacity)", 3},
    {0}};

static void parse_bins(struct argp_state *st, const char *arg)
{
    char *copy = xstrdup(arg), *save = NULL;
    opt.nbins = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        double v;
        if (parse_double(tok, &v, 0) < 0 || v <= 0)
            argp_error(st, "invalid value for --load-bins: '%s' (want positive numbers)", tok);
        if (opt.nbins >= VCIO_MAX_BINS)
            argp_error(st, "invalid value for --load-bins: more than %d edges", VCIO_MAX_BINS);
        if (opt.nbins > 0 && v <= opt.bins[opt.nbins - 1])
            argp_error(st, "invalid value for --load-bins: '%s' (edges must increase)", arg);
        opt.bins[opt.nbins++] = v;
    }
    free(copy);
    if (opt.nbins == 0)
        argp_error(st, "invalid value for --load-bins: '%s' (empty)", arg);
}

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    switch (key) {
    case OPT_SCHED:
        if (vcsim_policy_parse(arg, &opt.policy) < 0)
            argp_error(st, "invalid value for --scheduler: '%s' (want maxmin, drr or balanced)", arg);
        break;
    case OPT_WITHIN: {
        static const char *const rules[] = {"fair", "fifo", NULL}; /* VCSIM_FAIR, VCSIM_FIFO */
        opt.within = cli_choice(st, "within", arg, rules) ? VCSIM_FIFO : VCSIM_FAIR;
        break;
    }
    case OPT_SYSTEM: opt.system_servers = cli_double(st, "system-servers", arg, 0, 1e12); break;
    case OPT_QUANTUM:
        opt.quantum = cli_duration_or_zero(st, "quantum", arg, 1); /* a tick per quantum while jobs run */
        break;
    case OPT_WINDOW:
        opt.credit_window = cli_duration(st, "credit-window", arg, 0);
        if (opt.credit_window <= 0)
            argp_error(st, "invalid value for --credit-window: '%s' (must be positive)", arg);
        break;
    case OPT_HORIZON:
        opt.horizon = cli_duration(st, "horizon", arg, 0);
        if (opt.horizon <= 0)
            argp_error(st, "invalid value for --horizon: '%s' (must be positive)", arg);
        break;
    case OPT_START: opt.start = cli_time(st, "start", arg); opt.have_start = 1; break;
    case OPT_VCS: opt.vcs_out = arg; break;
    case OPT_DAILY: opt.daily_out = arg; break;
    case OPT_SUMMARY: opt.summary_out = arg; break;
    case OPT_MAXJOBS: opt.max_jobs = cli_int(st, "max-jobs", arg, 1, UINT32_MAX - 2); break;
    case OPT_REORDER: opt.reorder = cli_int(st, "reorder", arg, 0, UINT32_MAX - 2); break;
    case OPT_BINS: parse_bins(st, arg); break;
    case OPT_JOBCOL: cli_colmap_add("job", arg); break;
    case OPT_VCCOL: cli_colmap_add("vc", arg), cli_colmap_add_role("capacities", "vc", arg); break;
    case OPT_SUBMITCOL: cli_colmap_add("submit", arg); break;
    case OPT_SIZECOL: cli_colmap_add("size_server_hours", arg); break;
    case OPT_PARCOL: cli_colmap_add("max_parallelism", arg); break;
    case OPT_CAPCOL: cli_colmap_add_role("capacities", "capacity", arg); break;
    case ARGP_KEY_ARG:
        if (!opt.cap_path)
            opt.cap_path = arg;
        else if (!opt.jobs_path)
            opt.jobs_path = arg;
        else
            argp_error(st, "too many arguments ('%s'): want CAPACITIES [JOBS]", arg);
        break;
    case ARGP_KEY_END:
        if (!opt.cap_path)
            argp_error(st, "missing CAPACITIES file (vc,capacity)");
        if ((!opt.jobs_path || strcmp(opt.jobs_path, "-") == 0) && strcmp(opt.cap_path, "-") == 0)
            argp_error(st, "CAPACITIES and JOBS cannot both be standard input");
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static void progress(uint64_t done, uint64_t total) { slk_progress("simulating", done, total); }

/* The side outputs asked for, after a run: each written into so[] (NULL
 * when not asked for), committed with the main output by the caller. */
static int side_outputs(const struct vcio_report *ctx, const struct vcio_summary *sum, outf *so[3])
{
    const struct { const char *path; int (*fn)(csvw *, const void *); const void *ctx; } out[] = {
        {opt.vcs_out, vcio_write_vcs, ctx}, {opt.daily_out, vcio_write_daily, ctx},
        {opt.summary_out, vcio_write_summary, sum}};
    int st = SLK_OK;
    for (size_t i = 0; i < sizeof out / sizeof out[0] && st == SLK_OK; i++) {
        so[i] = out[i].path ? outf_open(out[i].path, &st) : NULL;
        if (!so[i])
            continue;
        csvw *w = csvw_new_with(outf_fp(so[i]), cli_dialect(NULL));
        st = out[i].fn(w, out[i].ctx);
        csvw_free(w);
    }
    return st;
}

/* Stream the jobs through the simulator into the per-job output w, then
 * the reports into side[]; the summary is filled on success. */
static int run(const struct vcio_vcs *V, csvw *w, struct vcio_summary *sum, struct vcsim_totals *tot,
               outf *side[3])
{
    struct vcsim_config cfg = {
        .policy = opt.policy, .within = opt.within, .system_servers = opt.system_servers,
        .quantum = opt.quantum, .credit_window = opt.credit_window, .reorder = opt.reorder,
        .window_start = opt.have_start ? opt.start : NAN, .window_len = opt.horizon,
        .progress = cli_progress_on() ? progress : NULL,
    };
    /* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): the capacities path is set: parse_opt's ARGP_KEY_END refuses a run without it */
    const char *cap_name = strcmp(opt.cap_path, "-") ? opt.cap_path : "<stdin>";
    struct vcio_run_opts ro = {opt.jobs_path, cli_dialect(NULL), cap_name, opt.max_jobs,
                               (opt.vcs_out ? VCREP_KEEP_STRETCH : 0) | (opt.daily_out ? VCREP_KEEP_DAILY : 0)};
    struct vcsim_vc_stats *vst = xcalloc(V->n, sizeof *vst);
    struct vcrep_vc *rep = xcalloc(V->n, sizeof *rep);
    struct vcrep_acc acc;
    double t0 = slk_now();
    int st = vcio_run(&cfg, V, &ro, w, &acc, vst, tot);
    double secs = slk_now() - t0;
    slk_progress_done();
    if (st == SLK_OK) {
        vcrep_acc_per_vc(&acc, tot->window_len, rep);
        struct vcio_summary_opts so = {opt.policy, opt.system_servers, opt.bins, opt.nbins};
        vcio_summarize(V, &acc, rep, vst, tot, &so, sum);
        sum->seconds = secs;
        struct vcio_report ctx = {&acc, V, rep, vst, tot->window_start, tot->window_len};
        st = side_outputs(&ctx, sum, side);
    }
    vcrep_acc_free(&acc);
    free(rep);
    free(vst);
    return st;
}

int main(int argc, char **argv)
{
    slk_init("stretch");
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {
        options, parse_opt, "CAPACITIES [JOBS]",
        "Simulate virtual clusters sharing a cluster and report each job's stretch "
        "(execution time / (size / VC capacity)), per-VC load and stretch, and how consistent "
        "stretch is among VCs of similar load.\n\n"
        "CAPACITIES is a CSV of vc,capacity (servers); JOBS (default standard input) a CSV of "
        "job,vc,submit,size_server_hours[,max_parallelism] (submit in epoch seconds or ISO 8601; "
        "a missing max_parallelism means no limit), sorted by submit or out of order by at most "
        "--reorder rows: it is read as the simulation goes, and memory follows the jobs in "
        "flight, not the trace.  Output: job,vc,submit,finish,stretch, in input order.  " OUTF_HELD_HELP
        "\vExamples:\n"
        "  # the paper-like scenario: six VCs, 2,750 owned + 1,250 system\n"
        "  # servers, 30 days\n"
        "  tracegen vcs -o vcs.csv && tracegen vcjobs -o jobs.csv\n"
        "  stretch vcs.csv jobs.csv --system-servers 1250 --vcs per-vc.csv \\\n"
        "      -o jobs-out.csv\n"
        "  stretch -s balanced vcs.csv jobs.csv --system-servers 1250 \\\n"
        "      --daily daily.csv > /dev/null\n"
        "  skyplot vcs daily.csv -o daily.svg\n"
        "  # a real trace (SWIM Facebook 2009), converted by traceconv(1):\n"
        "  traceconv swim FB-2009_samples_24_times_1hr_0.tsv \\\n"
        "      --capacities vcs.csv > jobs.csv\n"
        "  stretch -s drr --horizon 86400s vcs.csv jobs.csv --vcs per-vc.csv \\\n"
        "      > /dev/null",
        kids, NULL, NULL};
    cli_roles("jobs", "capacities", (const char *)NULL);
    cli_keys("jobs", vcio_job_keys);
    cli_keys("capacities", vcio_capacity_keys);
    cli_parse(&argp, argc, argv, NULL);
    cli_outputs((const char *const[]){opt.vcs_out, opt.daily_out, opt.summary_out}, 3);

    struct vcio_vcs V = {0};
    struct vcsim_totals tot;
    struct vcio_summary sum;
    outf *o = NULL;
    int st = vcio_vcs_read(opt.cap_path, cli_dialect("capacities"), &V);
    if (st == SLK_OK)
        o = outf_open_held(slk_opt.output, &st);
    if (o) {
        /* every output replaced, or none: stretch(1) "Output files" */
        outf *all[4] = {NULL, NULL, NULL, o};
        csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
        st = run(&V, w, &sum, &tot, all);
        csvw_free(w);
        st = outf_finish_all(all, 4, st);
    }
    if (st == SLK_OK && !slk_opt.quiet)
        vcio_print_summary(&sum, &tot, opt.horizon <= 0,
                           opt.jobs_path && strcmp(opt.jobs_path, "-") ? opt.jobs_path : "<stdin>");
    vcio_vcs_free(&V);
    return slk_finish(st);
}
