/* lcmpack — pack periodic reservations over the LCM of their periods with
 * LowCost (Morpheus §6, §7 "Adjusting LowCost").
 *
 *   lcmpack --slo SLO.csv --capacity cores=N,mem=M [--plan PLAN] [OPTION...] [SKYLINE]
 *
 * Joins skyfit's skylines (SKYLINE or stdin, turned into stages by
 * lib/morpheus/stages) with sloinfer's SLOs (--slo, lib/morpheus/slo), turns
 * each job into a request (periodic when its period divides the LCM, else one
 * request per instance in the --at cycle), places the requests with
 * lib/morpheus/lowcost into the plan (lib/morpheus/plan, loaded from --plan
 * when given, whose reservations stay put) and writes the plan
 * (lib/morpheus/planfile), or YARN reservation bodies with --format yarn
 * (lib/morpheus/yarn).  The summary's lower bound is lib/morpheus/planbound.
 * The run itself (inputs, requests, placing, report, outputs) is
 * lib/morpheus/packrun; this file parses the options and prints the
 * summary.  The model and the options are in lcmpack(1).
 */
#include "base/cli.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "base/parse.h"
#include "morpheus/adhoc.h"
#include "morpheus/packrun.h"
#include "morpheus/plan.h"
#include "morpheus/slo.h"
#include "morpheus/stages.h"

#include <argp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- options ----------------------------------------------------------------- */

/* The defaults of struct packrun_opts (argp's input). */
#define OPTS_DEFAULT { \
    .lcm = 86400, .step = 60, .cont_cores = 1, .cont_mem = 1024, .queue = "dedicated", \
    .problematic_cv = -1, .align_weight = 0.25, .ends = 48, .chunks = 16, .stretch = 0, \
    .max_requests = 10000000, .stable = -1, .now = NAN, }

enum {
    OPT_SLO = 0x100, OPT_PLAN, OPT_PLAN_OUT, OPT_LOAD, OPT_REPORT, OPT_CAP, OPT_CAP_FILE, OPT_LCM, OPT_STEP,
    OPT_AT, OPT_CONTAINER, OPT_REPLAN, OPT_REMOVE, OPT_STRICT, OPT_FORMAT, OPT_QUEUE, OPT_PROB,
    OPT_PROB_CV, OPT_ALIGN, OPT_ENDS, OPT_CHUNKS, OPT_STRATEGY, OPT_STRETCH, OPT_ORDER, OPT_QUERY, OPT_LOOKAHEAD,
    OPT_IMPROVE, OPT_MAX_REQ, OPT_NO_INDEX, OPT_STABLE, OPT_HORIZON, OPT_YARN_DELTA, OPT_YARN_BASE, OPT_CLUSTER_TS, OPT_NOW,
    OPT_ADHOC, OPT_ADHOC_SKY
};

static const struct argp_option options[] = {
    {0, 0, 0, 0, "Requests and plan:", 1},
    {"slo", OPT_SLO, "FILE", 0, "sloinfer output (columns job, period, a, d, optional status, source, cv, "
                                "problematic; the join with the skylines; required unless only "
                                "--plan/--remove)", 1},
    {"plan", OPT_PLAN, "FILE", 0, "Existing plan: its reservations stay where they are", 1},
    {"replan", OPT_REPLAN, 0, 0, "Re-place jobs of --plan that have a new request (default: keep them)", 1},
    {"remove", OPT_REMOVE, "JOB", 0, "Free every reservation of JOB (repeatable)", 1},
    {"stable", OPT_STABLE, "TOL", 0, "Keep a job's reservation of --plan while its new request is substantially "
                                     "the same (area within TOL, e.g. 10% or 0.1; inside the new window; same "
                                     "size), else move it; free reservations no longer requested.  Each job is "
                                     "reported kept, moved, placed (new) or removed, with why", 1},
    {"adhoc", OPT_ADHOC, "FILE", 0, "Ad-hoc requests (columns job, arrival, deadline, containers, duration, "
                                    "optional cores, mem_mb): "
                                    "placed after all others on the capacity they leave; dropped once their "
                                    "deadline is before --at (needs --at)", 1},
    {"adhoc-skyline", OPT_ADHOC_SKY, "FILE", 0, "Skylines of ad-hoc requests (skyfit's rows job,step,offset,alloc"
                                                "[,cores,mem_mb][,gang]): an --adhoc row with empty containers "
                                                "and duration is its job's skyline", 1},
    {"horizon", OPT_HORIZON, "DUR", 0, "Plan one-off instances whose window opens in [--at, --at + DUR) "
                                       "(default: one cycle, the lcm; needs --at)", 1},
    {"no-index", OPT_NO_INDEX, 0, 0, "Neither read nor write the plan's index PLAN.idx (which lets new jobs be "
                                     "appended to -o PLAN in place without reading it)", 1},
    {"at", OPT_AT, "TIME", 0, "Start of the cycle to plan one-off instances in (off-kilter jobs) and to date "
                              "YARN reservations from; once reservations that ended before it are dropped", 1},
    {0, 0, 0, 0, "Cluster and geometry:", 2},
    {"capacity", OPT_CAP, "cores=N,mem=M", 0, "Constant cluster capacity (mem in MB)", 2},
    {"capacity-file", OPT_CAP_FILE, "FILE", 0, "Capacity over the cycle: CSV t,cores,mem_mb (t = offset in s)", 2},
    {"lcm", OPT_LCM, "DUR", 0, "The plan's cycle (default 1d): jobs whose period divides it are periodic, "
                               "the others get one-off reservations per instance", 2},
    {"step", OPT_STEP, "DUR", 0, "Plan step (default 60s; with --plan: the plan's)", 2},
    {"max-requests", OPT_MAX_REQ, "N", 0, "Refuse more than N requests (skyline jobs and one-off "
                                          "instances; about 2.3 KB each; default 10000000)", 2},
    {"container", OPT_CONTAINER, "cores=C,mem=M", 0, "Container size when the skyline has no cores/mem_mb "
                                                     "columns (default cores=1,mem=1024)", 2},
    {0, 0, 0, 0, "Placement:", 3},
    {"problematic", OPT_PROB, "JOB", 0, "Treat JOB as problematic: alignment penalty (repeatable)", 3},
    {"problematic-cv", OPT_PROB_CV, "X", 0, "Jobs whose SLO cv exceeds X are problematic (default: off)", 3},
    {"align-weight", OPT_ALIGN, "W", 0, "Weight of the alignment penalty, cost units (default 0.25)", 3},
    {"ends", OPT_ENDS, "N", 0, "End points tried per job at most, spread evenly (default 48; 0: all)", 3},
    {"chunks", OPT_CHUNKS, "N", 0, "Gangs of a stage are placed in N chunks (default 16; 0: one gang at a time)", 3},
    {"max-stretch", OPT_STRETCH, "X", 0, "A job spans at most X times its length at full parallelism "
                                         "(default 0: no limit, the paper's min parallelism of one container)", 3},
    {"order", OPT_ORDER, "ORDER", 0, "input (default: online, in input order) or tight (least flexible "
                                     "first: window minus length at full parallelism, then input order)", 3},
    {"lookahead", OPT_LOOKAHEAD, "W", 0, "Offline help: each job also sees W times the demand of the requests "
                                        "not yet placed, spread evenly over their windows (ad-hoc ones only "
                                        "those of ad-hoc requests; default 0: off)", 3},
    {"improve", OPT_IMPROVE, "N", 0, "Offline polish: after placing this run's requests, up to N rounds that "
                                    "place each of them again (LowCost or rigid) against all the others and "
                                    "keep the move when it lowers the job's cost, then up to N flattening "
                                    "rounds; then the refused requests are tried again on the polished "
                                    "plan, all before --adhoc requests are placed (default 0: off, "
                                    "online)", 3},
    {"strategy", OPT_STRATEGY, "NAME", 0, "lowcost (default) or earliest (every job at its earliest start, "
                                          "the no-planning reference)", 3},
    {0, 0, 0, 0, "Output:", 4},
    {"format", OPT_FORMAT, "FMT", 0, "plan (default) or yarn: one JSON body per line for YARN's "
                                     "reservation/submit REST call", 4},
    {"queue", OPT_QUEUE, "NAME", 0, "YARN reservation queue (default dedicated)", 4},
    {"yarn-delta", OPT_YARN_DELTA, "DIR", 0, "Write DIR/submit.jsonl, update.jsonl, delete.jsonl: the YARN "
                                            "REST bodies that take the RM from --plan to this run's plan "
                                            "(needs --at)", 4},
    {"yarn-base", OPT_YARN_BASE, "PLAN", 0, "The plan the RM holds, for --yarn-delta (default --plan; e.g. "
                                           "the last plan whose delta was POSTed)", 4},
    {"cluster-timestamp", OPT_CLUSTER_TS, "MS", 0, "The RM's cluster timestamp in reservation ids "
                                                  "reservation_MS_HASH (default 0)", 4},
    {"now", OPT_NOW, "TIME", 0, "The time of the run, when it is after --at (default --at): ad-hoc requests "
                                "are placed from it on, one-off reservations that ended by it expire, and the "
                                "YARN bodies are written to be POSTed then", 4},
    {"plan-out", OPT_PLAN_OUT, "FILE", 0, "Also write the plan to FILE (with --format yarn or --query)", 4},
    {"load", OPT_LOAD, "FILE", 0, "Write the load profile t,cores,mem_mb,cost to FILE", 4},
    {"report", OPT_REPORT, "FILE", 0, "Write one row per decision (placed, kept, rejected, skipped, removed, "
                                      "expired) to FILE", 4},
    {"strict", OPT_STRICT, 0, 0, "Exit 1 when a request is rejected", 4},
    {"query", OPT_QUERY, "TIME", 0, "Instead of the plan, write what it allocates at absolute TIME: "
                                    "job,containers,cores,mem_mb (totals), one row per job", 4},
    {0}
};


/* stdin_inputs: how many inputs read standard input ("-"; the skyline also
 * when --slo is given without a skyline FILE): a second one would see it
 * already read (an SLO file "missing" every column, an empty skyline). */
static int stdin_inputs(const struct packrun_opts *o)
{
    const char *in[] = {o->slo ? (o->input ? o->input : "-") : NULL, o->slo, o->plan_in, o->adhoc, o->adhoc_sky,
                        o->cap_file, o->yarn_base};
    return cli_dash_count(in, sizeof in / sizeof in[0]);
}

/* one_stdout: SLK_OK, or SLK_EUSAGE (printed) when more than one output
 * writes standard output ("-"; the main output also when -o is absent):
 * their rows would interleave. */
static int one_stdout(const struct packrun_opts *o)
{
    const char *out[] = {o->output ? o->output : "-", o->report, o->load_out, o->plan_out};
    if (outf_stdout_count(out, sizeof out / sizeof out[0]) <= 1)
        return SLK_OK;
    slk_error("only one output can be standard output (the plan, --format yarn or --query is, "
              "unless -o FILE; give --report, --load and --plan-out as files)");
    return SLK_EUSAGE;
}

/* check_outputs: cli_outputs with lcmpack's side outputs: --report, --load,
 * --plan-out and --yarn-delta's files (the directory itself when it is yet
 * to be made: where it goes must be writable). */
static void check_outputs(const struct packrun_opts *o)
{
    char *delta[3] = {NULL, NULL, NULL};
    struct stat st;
    if (o->yarn_delta && stat(o->yarn_delta, &st) != 0)
        delta[0] = xstrdup(o->yarn_delta);
    else
        for (int i = 0; i < 3 && o->yarn_delta; i++)
            delta[i] = packout_delta_path(o->yarn_delta, i);
    cli_outputs((const char *const[]){o->report, o->load_out, o->plan_out, delta[0], delta[1], delta[2]}, 6);
    for (int i = 0; i < 3; i++)
        free(delta[i]);
}

/* the first option given that only the YARN outputs use (NULL: none):
 * refused without one, where it would be ignored (check_opts).  LowCost's
 * options are not refused with --strategy earliest: it is the baseline,
 * compared with the same command line. */
static const char *yarn_opt;

/* check_opts: the option combinations, once all are read (argp_error exits
 * 64 before any input is read). */
static void check_opts(struct argp_state *st, struct packrun_opts *o)
{
    if (!o->yarn && !o->yarn_delta && yarn_opt)
        argp_error(st, "--%s goes with --format yarn or --yarn-delta (the reservation bodies)", yarn_opt);
    if (o->have_cap && o->cap_file)
        argp_error(st, "--capacity and --capacity-file exclude each other");
    if (!o->have_cap && !o->cap_file)
        argp_error(st, "the cluster capacity is required: --capacity cores=N,mem=M or --capacity-file FILE");
    if (!o->slo && !o->plan_in)
        argp_error(st, "nothing to do: give --slo FILE (new requests) and/or --plan FILE");
    if (!o->slo && o->input)
        argp_error(st, "a skyline FILE needs --slo FILE (the SLOs to join it with)");
    if (stdin_inputs(o) > 1)
        argp_error(st, "only one input can be standard input (the skyline is, unless given as a FILE; "
                       "give --slo, --plan, --adhoc, --adhoc-skyline and --capacity-file as files)");
    if (o->lcm != floor(o->lcm) || o->step != floor(o->step))
        argp_error(st, "--lcm and --step must be whole seconds");
    if (fmod(o->lcm, o->step) != 0)
        argp_error(st, "--lcm %g s is not a multiple of --step %g s", o->lcm, o->step);
    if (o->lcm / o->step > 10000000)
        argp_error(st, "--lcm/--step gives more than 10,000,000 steps");
    if (o->plan_out && !o->yarn && !o->have_query)
        argp_error(st,
                   "--plan-out goes with --format yarn or --query (the plan itself is the output otherwise)");
    if (o->yarn && o->have_query)
        argp_error(st, "--format yarn and --query exclude each other");
    if (o->stable >= 0 && o->replan)
        argp_error(st, "--stable and --replan exclude each other (--replan moves every job)");
    if (o->stable >= 0 && !o->slo)
        argp_error(st, "--stable needs --slo FILE (the requests to compare the plan with)");
    if (o->adhoc_sky && !o->adhoc)
        argp_error(st, "--adhoc-skyline needs --adhoc FILE (the requests' windows)");
    if (o->horizon > 0 && !o->have_at)
        argp_error(st, "--horizon needs --at TIME (the one-off instances are planned from it)");
    if (o->adhoc && !o->have_at)
        argp_error(st, "--adhoc needs --at TIME (now: ad-hoc requests whose deadline passed are dropped)");
    if (o->yarn_base && !o->yarn_delta)
        argp_error(st, "--yarn-base needs --yarn-delta DIR (the delta it is the base of)");
    if (o->yarn_delta && !o->have_at)
        argp_error(st, "--yarn-delta needs --at TIME (the cycle to date the reservations from)");
    if (o->yarn && !o->have_at)
        argp_error(st, "--format yarn needs --at TIME (the cycle to date the reservations from)");
    if (!isnan(o->now) && !o->have_at)
        argp_error(st, "--now needs --at TIME (the cycle the plan starts at, before or at --now)");
    if (!isnan(o->now) && o->now < o->at)
        argp_error(st, "--now is before --at (the plan starts at --at: give --now at or after it)");
    if (o->have_at && o->at < 0) /* a plan's instances count cycles since the epoch */
        argp_error(st, "--at is before the epoch (1970-01-01T00:00:00Z): the plan's instances count from it");
    if (o->have_at && (o->have_lcm || !o->plan_in) &&
        fmod(o->at, o->lcm) != 0) { /* --plan: its lcm, load_plan */
        char b[32];
        argp_error(st, "--at %s is not the start of a cycle (a multiple of --lcm %g s since the epoch)",
                   parse_time_format(o->at, b), o->lcm);
    }
}

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    struct packrun_opts *o = st->input;
    if (!yarn_opt && (key == OPT_QUEUE || key == OPT_CLUSTER_TS))
        yarn_opt = cli_option_name(options, key);
    switch (key) {
    case OPT_SLO: o->slo = arg; break;
    case OPT_PLAN: o->plan_in = arg; break;
    case OPT_PLAN_OUT: o->plan_out = arg; break;
    case OPT_LOAD: o->load_out = arg; break;
    case OPT_REPORT: o->report = arg; break;
    case OPT_CAP: cli_resources(st, "capacity", arg, &o->cap_cores, &o->cap_mem); o->have_cap = 1; break;
    case OPT_CAP_FILE: o->cap_file = arg; break;
    case OPT_LCM: o->lcm = cli_duration(st, "lcm", arg, 1); o->have_lcm = 1; break;
    case OPT_STEP: o->step = cli_duration(st, "step", arg, 1); o->have_step = 1; break;
    case OPT_MAX_REQ: o->max_requests = cli_int(st, "max-requests", arg, 1, 1000000000000LL); break;
    case OPT_AT: o->at = cli_time(st, "at", arg); o->have_at = 1; break;
    case OPT_CONTAINER: cli_resources(st, "container", arg, &o->cont_cores, &o->cont_mem); break;
    case OPT_REPLAN: o->replan = 1; break;
    case OPT_NO_INDEX: o->no_index = 1; break;
    case OPT_STRICT: o->strict = 1; break;
    case OPT_REMOVE:
        if (o->nremove >= MAX_LIST)
            argp_error(st, "too many --remove options");
        o->remove[o->nremove++] = arg;
        break;
    case OPT_PROB:
        if (o->nprob >= MAX_LIST)
            argp_error(st, "too many --problematic options");
        o->prob[o->nprob++] = arg;
        break;
    case OPT_PROB_CV: o->problematic_cv = cli_double(st, "problematic-cv", arg, 0, 1e300); break;
    case OPT_ALIGN: o->align_weight = cli_double(st, "align-weight", arg, 0, 1e6); break;
    case OPT_ENDS: o->ends = (int)cli_int(st, "ends", arg, 0, 1000000); break;
    case OPT_STRETCH: o->stretch = cli_double(st, "max-stretch", arg, 0, 1e6);
        if (o->stretch > 0 && o->stretch < 1)
            argp_error(st, "invalid value for --max-stretch: '%s' (0, or at least 1)", arg);
        break;
    case OPT_LOOKAHEAD: o->lookahead = cli_double(st, "lookahead", arg, 0, 1e6); break;
    case OPT_IMPROVE: o->improve = (int)cli_int(st, "improve", arg, 0, 1000000); break;
    case OPT_CHUNKS: o->chunks = (int)cli_int(st, "chunks", arg, 0, 1000000); break;
    case OPT_FORMAT:
        o->yarn = cli_choice(st, "format", arg, (const char *const[]){"plan", "yarn", NULL});
        break;
    case OPT_STRATEGY:
        o->earliest = cli_choice(st, "strategy", arg, (const char *const[]){"lowcost", "earliest", NULL});
        break;
    case OPT_QUEUE: o->queue = arg; break;
    case OPT_STABLE: {
        size_t n = strlen(arg);
        int pct = n > 0 && arg[n - 1] == '%';
        char buf[64];
        snprintf(buf, sizeof buf, "%.*s", (int)(pct ? n - 1 : n), arg);
        o->stable = cli_double(st, "stable", buf, 0, pct ? 1e6 : 1e4) / (pct ? 100 : 1);
        break;
    }
    case OPT_HORIZON: o->horizon = cli_duration(st, "horizon", arg, 1); break;
    case OPT_YARN_DELTA: o->yarn_delta = arg; break;
    case OPT_YARN_BASE: o->yarn_base = arg; break;
    case OPT_ADHOC: o->adhoc = arg; break;
    case OPT_ADHOC_SKY: o->adhoc_sky = arg; break;
    case OPT_CLUSTER_TS: o->cluster_ts = cli_int(st, "cluster-timestamp", arg, 0, 4000000000000000LL); break;
    case OPT_NOW: o->now = cli_time(st, "now", arg); break;
    case OPT_QUERY: o->query = cli_time(st, "query", arg); o->have_query = 1; break;
    case OPT_ORDER:
        o->tight = cli_choice(st, "order", arg, (const char *const[]){"input", "tight", NULL});
        break;
    case ARGP_KEY_ARG:
        if (o->input)
            argp_error(st, "one skyline FILE only (got '%s' and '%s')", o->input, arg);
        o->input = arg;
        break;
    case ARGP_KEY_END:
        check_opts(st, o);
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* ---- summary ---------------------------------------------------------------- */

/* ratio_text: peak / lb as the summary prints it ("1.143x"; lb 0: 1). */
static const char *ratio_text(double peak, double lb, char buf[32])
{
    if (isinf(peak))
        return plan_cost_text(peak, buf);
    snprintf(buf, 32, "%.3fx", lb > 0 ? peak / lb : 1.0);
    return buf;
}

/* print_summary: what the run decided, on stderr, once its outputs (and so
 * the YARN delta) are committed. */
static void print_summary(struct packrun *R)
{
    const struct packrun_opts *o = R->o;
    char b[5][32];
    plan *p = R->p;
    struct planbound bd;
    size_t nres_live = packrun_bound(R, &bd);
    double lb = planbound_value(&bd), area_lb = planbound_area(&bd);
    long peak_s;
    double peak = plan_peak(p, &peak_s);
    plan_warn_over(p, NULL,
                   "existing reservations stay where they are; free some with --remove or move them "
                   "with --replan");
    if (slk_opt.quiet)
        return;
    char lcm_text[48] = "none";
    if (R->lcm_periods > 0)
        snprintf(lcm_text, sizeof lcm_text, "%lld s", R->lcm_periods);
    fprintf(slk_summary(),
            "%s: %ld requests: %ld placed, %ld rejected, %ld kept; %ld skipped, %ld removed, %ld expired; "
            "plan: %zu reservations over a %ld s cycle (LCM of the new periods %s) in %ld s steps%s\n",
            slk_progname, R->n.requests, R->n.placed, R->n.rejected, R->n.kept, R->n.skipped,
            R->n.removed + R->n_gone, R->n.expired, nres_live, p->lcm, lcm_text, p->step, R->how);
    if (slk_many_hidden(&R->unplaced))
        fprintf(
            slk_summary(),
            "%s: requests not placed: the first %d are named above, %ld more are not (--report FILE lists "
            "every decision)\n",
            slk_progname, SLK_MANY_SHOWN, slk_many_hidden(&R->unplaced));
    fprintf(slk_summary(),
            "%s: peak cost %s at t=%ld s; lower bound %.4f (fixed demand %.4f, area/lcm %.4f): %s; "
            "placement %.4f s (%s)\n",
            slk_progname, plan_cost_text(peak, b[0]), peak_s * p->step, lb, bd.fixed_lb, area_lb,
            ratio_text(peak, lb, b[1]), R->elapsed, o->earliest ? "earliest start" : "lowcost");
    if (o->stable >= 0)
        fprintf(slk_summary(),
                "%s: --stable %g%%: %ld kept, %ld moved (%ld placed again), %ld new, %ld removed\n",
                slk_progname, 100 * o->stable, R->n.kept, R->n_moved, R->n_moved_placed,
                R->n.placed - R->n_moved_placed, R->n_gone);
    if (o->yarn_delta)
        fprintf(slk_summary(),
                "%s: YARN delta in %s: %ld submit, %ld update, %ld delete (%ld unchanged, %ld expired)\n",
                slk_progname, o->yarn_delta, R->delta.submit, R->delta.update, R->delta.del, R->delta.same,
                R->delta.expired);
    if (o->improve > 0 && !o->earliest && !R->polished)
        fprintf(slk_summary(), "%s: --improve: nothing to polish (no request placed tonight%s)\n",
                slk_progname, o->adhoc ? " before the ad-hoc ones" : "");
    else if (o->improve > 0 && !o->earliest)
        fprintf(slk_summary(),
                "%s: --improve: %ld moves in %ld rounds, then %ld moves in %ld flattening rounds "
                "(peak %s before, %s after descent, %s after)\n",
                slk_progname, R->imp.moves, R->imp.rounds, R->imp.flat_moves, R->imp.flat_rounds,
                plan_cost_text(R->imp.peak_before, b[2]), plan_cost_text(R->imp.peak_descent, b[3]),
                plan_cost_text(R->polished ? R->peak_polished : peak, b[4]));
    if (R->adhoc_polished)
        fprintf(slk_summary(),
                "%s: --improve: with the ad-hoc placements: %ld moves in %ld rounds, then %ld moves in %ld "
                "flattening "
                "rounds (peak %s before, %s after descent)\n",
                slk_progname, R->imp_adhoc.moves, R->imp_adhoc.rounds, R->imp_adhoc.flat_moves,
                R->imp_adhoc.flat_rounds, plan_cost_text(R->imp_adhoc.peak_before, b[2]),
                plan_cost_text(R->imp_adhoc.peak_descent, b[3]));
    if (R->n_after_polish)
        fprintf(slk_summary(),
                "%s: --improve: %ld refused request(s) placed after the polish (peak %s with them)\n",
                slk_progname, R->n_after_polish, plan_cost_text(peak, b[0]));
}
/* ---- main -------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    slk_init("lcmpack");
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {
        options, parse_opt, "[SKYLINE]",
        "Pack periodic reservations over the LCM of their periods with LowCost (Morpheus §6).\n"
        "Reads skyfit skylines (SKYLINE or stdin: job,step,offset,alloc[,cores,mem_mb][,gang]) and joins them "
        "with sloinfer SLOs (--slo); writes the plan (lib/morpheus/plan format slokit-plan/1).  Only SLO rows with status "
        "'actionable' or 'overridden' are requests; the others are skipped and reported.  Exit status: 0 done "
        "(even with rejected requests, unless --strict), 1 --strict and a request rejected, 64 usage, 65 bad "
        "input or plan, 66 missing file, 73/74 output errors."
        "\vExamples:\n"
        "  sloinfer runs.csv > slo.csv; skyfit usage.csv > sky.csv\n"
        "  lcmpack --slo slo.csv --capacity cores=2000,mem=8192000 sky.csv -o plan.csv\n"
        "  # next night: new jobs join, old reservations stay where they are\n"
        "  lcmpack --plan plan.csv --slo slo.csv \\\n"
        "      --capacity cores=2000,mem=8192000 sky.csv -o plan.csv\n"
        "  lcmpack --plan plan.csv --remove job00003 \\\n"
        "      --capacity cores=2000,mem=8192000 -o plan.csv\n"
        "  lcmpack --plan plan.csv --capacity cores=2000,mem=8192000 \\\n"
        "      --format yarn --at 2026-01-06 > yarn.jsonl\n"
        "  # ad-hoc requests: boxes, or skylines (empty containers,duration)\n"
        "  lcmpack --plan plan.csv --capacity cores=2000,mem=8192000 \\\n"
        "      --at 2026-01-06 --adhoc adhoc.csv --adhoc-skyline adhoc-sky.csv \\\n"
        "      -o plan.csv",
        kids, NULL, NULL};
    struct packrun_opts o = OPTS_DEFAULT;
    cli_roles("skylines", "slo", "capacity-file", "adhoc", (const char *)NULL);
    cli_keys("skylines", stages_keys);
    cli_keys("slo", slo_request_keys);
    cli_keys("capacity-file", plan_capacity_keys);
    cli_keys("adhoc", adhoc_keys);
    cli_refuse("time-unit", "skylines hold offsets and durations, not epoch times (--at and "
                            "the --adhoc times are epoch seconds or ISO 8601)");
    cli_parse(&argp, argc, argv, &o);
    check_outputs(&o);

    o.output = slk_opt.output;
    o.quiet = slk_opt.quiet;
    o.csv = cli_dialect(NULL);
    o.slo_csv = cli_dialect("slo");
    o.cap_csv = cli_dialect("capacity-file");
    o.adhoc_csv = cli_dialect("adhoc");
    struct packrun R = {.o = &o, .how = ""};
    int st = one_stdout(&o);
    if (st == SLK_OK)
        st = packrun_plan(&R);
    if (st == SLK_OK)
        st = packout_write(&R);
    if (st == SLK_OK) /* a failed write threw the plan and the delta away: no summary of them */
        print_summary(&R);
    st = packrun_close_report(&R, st);
    if (st == SLK_OK && o.strict && R.n.rejected)
        st = SLK_FAIL;
    packrun_free(&R);
    return slk_finish(st);
}
