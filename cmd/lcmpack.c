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
 * The model and the options are in lcmpack(1).
 */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/keyset.h"
#include "base/outfile.h"
#include "base/parse.h"
#include "base/stats.h"
#include "morpheus/adhoc.h"
#include "morpheus/lookahead.h"
#include "morpheus/lowcost.h"
#include "morpheus/plan.h"
#include "morpheus/planbound.h"
#include "morpheus/planidx.h"
#include "morpheus/refusal.h"
#include "morpheus/slo.h"
#include "morpheus/stable.h"
#include "morpheus/stages.h"
#include "morpheus/yarn.h"

#include <argp.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- options ----------------------------------------------------------------- */

#define MAX_LIST 4096

/* The options, as parsed (argp's input). */
struct opts {
    const char *input;
    const char *slo;
    const char *plan_in;
    const char *plan_out;
    const char *load_out;
    const char *report;
    const char *cap_file;
    double cap_cores, cap_mem;
    int have_cap;
    double lcm, step;
    int have_lcm, have_step;
    double at;
    int have_at;
    double cont_cores, cont_mem;
    int replan, strict, yarn, earliest, tight, have_query, no_index;
    double query;
    const char *queue;
    double problematic_cv;
    double align_weight;
    int ends, chunks;
    double stretch;
    double lookahead;
    int improve;
    long long max_requests;
    double stable;          /* --stable: tolerance (fraction); < 0: off */
    double horizon;         /* --horizon, seconds; 0: one cycle (the lcm) */
    const char *yarn_delta; /* --yarn-delta DIR */
    const char *adhoc;      /* --adhoc FILE */
    const char *adhoc_sky;  /* --adhoc-skyline FILE */
    long long cluster_ts;   /* --cluster-timestamp */
    int nremove, nprob;
    const char *remove[MAX_LIST];
    const char *prob[MAX_LIST];
};

#define OPTS_DEFAULT { \
    .lcm = 86400, .step = 60, .cont_cores = 1, .cont_mem = 1024, .queue = "dedicated", \
    .problematic_cv = -1, .align_weight = 0.25, .ends = 48, .chunks = 16, .stretch = 0, \
    .max_requests = 10000000, .stable = -1, }

enum {
    OPT_SLO = 1, OPT_PLAN, OPT_PLAN_OUT, OPT_LOAD, OPT_REPORT, OPT_CAP, OPT_CAP_FILE, OPT_LCM, OPT_STEP,
    OPT_AT, OPT_CONTAINER, OPT_REPLAN, OPT_REMOVE, OPT_STRICT, OPT_FORMAT, OPT_QUEUE, OPT_PROB,
    OPT_PROB_CV, OPT_ALIGN, OPT_ENDS, OPT_CHUNKS, OPT_STRATEGY, OPT_STRETCH, OPT_ORDER, OPT_QUERY, OPT_LOOKAHEAD,
    OPT_IMPROVE, OPT_MAX_REQ, OPT_NO_INDEX, OPT_STABLE, OPT_HORIZON, OPT_YARN_DELTA, OPT_CLUSTER_TS, OPT_ADHOC,
    OPT_ADHOC_SKY
};

static const struct argp_option options[] = {
    {0, 0, 0, 0, "Requests and plan:", 1},
    {"slo", OPT_SLO, "FILE", 0, "sloinfer output job,period,a,d[,status][,source][,cv][,problematic] (the join "
                                "with the skylines; required unless only --plan/--remove)", 1},
    {"plan", OPT_PLAN, "FILE", 0, "Existing plan: its reservations stay where they are", 1},
    {"replan", OPT_REPLAN, 0, 0, "Re-place jobs of --plan that have a new request (default: keep them)", 1},
    {"remove", OPT_REMOVE, "JOB", 0, "Free every reservation of JOB (repeatable)", 1},
    {"stable", OPT_STABLE, "TOL", 0, "Keep a job's reservation of --plan while its new request is substantially "
                                     "the same (area within TOL, e.g. 10% or 0.1; inside the new window; same "
                                     "size), else move it; free reservations no longer requested.  Each job is "
                                     "reported kept, moved, placed (new) or removed, with why", 1},
    {"adhoc", OPT_ADHOC, "FILE", 0, "Ad-hoc requests job,arrival,deadline,containers,duration[,cores,mem_mb]: "
                                    "placed after all others on the capacity they leave; dropped once their "
                                    "deadline is before --at (needs --at)", 1},
    {"adhoc-skyline", OPT_ADHOC_SKY, "FILE", 0, "Skylines of ad-hoc requests (skyfit's rows job,step,offset,alloc"
                                                "[,cores,mem_mb][,gang]): an --adhoc row with empty containers "
                                                "and duration is its job's skyline", 1},
    {"horizon", OPT_HORIZON, "DUR", 0, "Plan one-off instances whose window opens in [--at, --at + DUR) "
                                       "(default: one cycle, the lcm)", 1},
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
                                        "not yet placed, spread evenly over their windows (default 0: off)", 3},
    {"improve", OPT_IMPROVE, "N", 0, "Offline polish: after placing this run's requests, up to N rounds that "
                                    "place each of them again (LowCost or rigid) against all the others and "
                                    "keep the move when it lowers the job's cost, then up to N flattening "
                                    "rounds (default 0: off, online)", 3},
    {"strategy", OPT_STRATEGY, "NAME", 0, "lowcost (default) or earliest (every job at its earliest start, "
                                          "the no-planning reference)", 3},
    {0, 0, 0, 0, "Output:", 4},
    {"format", OPT_FORMAT, "FMT", 0, "plan (default) or yarn: one JSON body per line for YARN's "
                                     "reservation/submit REST call", 4},
    {"queue", OPT_QUEUE, "NAME", 0, "YARN reservation queue (default dedicated)", 4},
    {"yarn-delta", OPT_YARN_DELTA, "DIR", 0, "Write DIR/submit.jsonl, update.jsonl, delete.jsonl: the YARN "
                                            "REST bodies that take the RM from --plan to this run's plan "
                                            "(needs --at)", 4},
    {"cluster-timestamp", OPT_CLUSTER_TS, "MS", 0, "The RM's cluster timestamp in reservation ids "
                                                  "reservation_MS_HASH (default 0)", 4},
    {"plan-out", OPT_PLAN_OUT, "FILE", 0, "Also write the plan to FILE (with --format yarn or --query)", 4},
    {"load", OPT_LOAD, "FILE", 0, "Write the load profile t,cores,mem_mb,cost to FILE", 4},
    {"report", OPT_REPORT, "FILE", 0, "Write one row per decision (placed, kept, rejected, skipped, removed, "
                                      "expired) to FILE", 4},
    {"strict", OPT_STRICT, 0, 0, "Exit 1 when a request is rejected", 4},
    {"query", OPT_QUERY, "TIME", 0, "Instead of the plan, write what it allocates at absolute TIME: "
                                    "job,containers,cores,mem_mb (totals), one row per job", 4},
    {0}
};


static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    struct opts *o = st->input;
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
    case OPT_ADHOC: o->adhoc = arg; break;
    case OPT_ADHOC_SKY: o->adhoc_sky = arg; break;
    case OPT_CLUSTER_TS: o->cluster_ts = cli_int(st, "cluster-timestamp", arg, 0, 4000000000000000LL); break;
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
        if (o->have_cap && o->cap_file)
            argp_error(st, "--capacity and --capacity-file exclude each other");
        if (!o->have_cap && !o->cap_file)
            argp_error(st, "the cluster capacity is required: --capacity cores=N,mem=M or --capacity-file FILE");
        if (!o->slo && !o->plan_in)
            argp_error(st, "nothing to do: give --slo FILE (new requests) and/or --plan FILE");
        if (!o->slo && o->input)
            argp_error(st, "a skyline FILE needs --slo FILE (the SLOs to join it with)");
        if (o->lcm != floor(o->lcm) || o->step != floor(o->step))
            argp_error(st, "--lcm and --step must be whole seconds");
        if (fmod(o->lcm, o->step) != 0)
            argp_error(st, "--lcm %g s is not a multiple of --step %g s", o->lcm, o->step);
        if (o->lcm / o->step > 10000000)
            argp_error(st, "--lcm/--step gives more than 10,000,000 steps");
        if (o->plan_out && !o->yarn && !o->have_query)
            argp_error(st, "--plan-out goes with --format yarn or --query (the plan itself is the output otherwise)");
        if (o->yarn && o->have_query)
            argp_error(st, "--format yarn and --query exclude each other");
        if (o->stable >= 0 && o->replan)
            argp_error(st, "--stable and --replan exclude each other (--replan moves every job)");
        if (o->stable >= 0 && !o->slo)
            argp_error(st, "--stable needs --slo FILE (the requests to compare the plan with)");
        if (o->adhoc_sky && !o->adhoc)
            argp_error(st, "--adhoc-skyline needs --adhoc FILE (the requests' windows)");
        if (o->adhoc && !o->have_at)
            argp_error(st, "--adhoc needs --at TIME (now: ad-hoc requests whose deadline passed are dropped)");
        if (o->yarn_delta && !o->have_at)
            argp_error(st, "--yarn-delta needs --at TIME (the cycle to date the reservations from)");
        if (o->yarn && !o->have_at)
            argp_error(st, "--format yarn needs --at TIME (the cycle to date the reservations from)");
        if (o->have_at && fmod(o->at, o->lcm) != 0) {
            char b[32];
            argp_error(st, "--at %s is not the start of a cycle (a multiple of --lcm %g s since the epoch)",
                       parse_time_format(o->at, b), o->lcm);
        }
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* ---- one run ----------------------------------------------------------------- */

/* one request's outcome, reported once placing is over */
struct decision {
    const char *status; /* placed, kept, rejected; NULL: nothing to report */
    long start, len;
    double cost, pen;
    char *why;          /* rejected: owned */
};

struct counts {
    long placed, rejected, kept, skipped, removed, expired, requests;
};

/* Everything one run of lcmpack holds, freed by run_free. */
struct run {
    const struct opts *o;
    struct slo_reqs slos;       /* the SLO file */
    struct stages_job *jobs;    /* the skyline file */
    size_t njobs;
    struct adhoc *adhoc;        /* --adhoc */
    size_t nadhoc;
    struct stages_job *adhoc_jobs;  /* --adhoc-skyline */
    size_t nadhoc_jobs;
    size_t adhoc0;              /* reqs[adhoc0 ..] are the ad-hoc requests */
    plan *p;
    planidx *idx;               /* --plan's index when this run appends in place (else NULL) */
    keyset *have;               /* reservation keys the plan holds already */
    outf *orep;                 /* --report */
    csvw *rep;
    struct lowcost_req *reqs;
    size_t nreq, reqcap;
    int need_at;                /* a job needs --at and did not get it */
    long long lcm_periods;      /* the LCM of the periodic requests' periods, for the summary */
    double fixed_lb;            /* the tallest placed request, cost units */
    double elapsed;             /* placement time, seconds */
    struct lowcost_improve_stats imp;
    const char *how;            /* how the plan was written, for the summary */
    struct counts n;
    size_t nres_read;           /* reservations of --plan (the first ones of p->res) */
    struct yarn_snapshot snap;  /* --yarn-delta: --plan as read */
    struct yarn_delta_counts delta;
    /* --stable: per request, decided before placing */
    signed char *pre;           /* [nreq]: 0 no reservation, 1 kept, 2 moved */
    char **pre_why;             /* [nreq]: owned */
    long n_moved, n_gone, n_moved_placed;
};

static void run_free(struct run *R)
{
    for (size_t i = 0; R->pre_why && i < R->nreq; i++)
        free(R->pre_why[i]);
    free(R->pre_why);
    free(R->pre);
    yarn_snapshot_free(&R->snap);
    keyset_free(R->have);
    free(R->reqs);
    stages_jobs_free(R->jobs, R->njobs);
    adhoc_free(R->adhoc, R->nadhoc);
    stages_jobs_free(R->adhoc_jobs, R->nadhoc_jobs);
    slo_reqs_free(&R->slos);
    plan_free(R->p);
    planidx_free(R->idx);
    if (R->rep)
        csvw_free(R->rep);
}

/* ---- report ------------------------------------------------------------------ */

static void report(struct run *R, const char *job, const char *kind, int64_t instance, const char *status,
                   long start, long len, double cost, double pen, const char *why)
{
    csvw *rep = R->rep;
    long step = R->p->step;
    if (!strcmp(status, "rejected") && !rep && !slk_opt.quiet) {
        if (strcmp(kind, "once") == 0)
            fprintf(stderr, "%s: job '%s' instance %lld: not placed: %s\n", slk_progname, job, (long long)instance,
                    why);
        else
            fprintf(stderr, "%s: job '%s': not placed: %s\n", slk_progname, job, why);
    }
    if (!rep)
        return;
    csvw_str(rep, job);
    csvw_str(rep, kind);
    if (instance >= 0)
        csvw_int(rep, instance);
    else
        csvw_str(rep, NULL);
    csvw_str(rep, status);
    if (len > 0) {
        csvw_int(rep, (int64_t)start * step);
        csvw_int(rep, (int64_t)(start + len) * step);
    } else {
        csvw_str(rep, NULL);
        csvw_str(rep, NULL);
    }
    csvw_num(rep, cost);
    csvw_num(rep, pen);
    csvw_str(rep, why);
    csvw_end(rep);
}

/* skip: a job that is not a request, reported with why. */
static void skip(struct run *R, const char *job, const char *kind, const char *why)
{
    R->n.skipped++;
    report(R, job, kind, -1, "skipped", 0, 0, NAN, NAN, why);
}

static int open_report(struct run *R)
{
    int st = SLK_OK;
    if (!R->o->report)
        return SLK_OK;
    R->orep = outf_open(R->o->report, &st);
    if (!R->orep)
        return st;
    R->rep = csvw_new_with(outf_fp(R->orep), cli_dialect(NULL));
    static const char *const cols[] = {"job", "kind", "instance", "status", "t_start", "t_end",
                                       "cost", "penalty", "reason", NULL};
    csvw_header(R->rep, cols);
    return SLK_OK;
}

/* ---- inputs ------------------------------------------------------------------ */

/* same_file: a and b name one regular file (same device and inode). */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* fast_path_index: the index of --plan when this run only adds jobs to the
 * plan and writes it back to the same file: no --remove, no --replan, plan
 * output (not --format yarn or --query), -o the --plan file itself, an index
 * that still describes it, and no once-reservation expiring at --at (all of
 * which rewrite the plan), and a plan file we may write to.  NULL otherwise:
 * the plan is read and rewritten. */
static planidx *fast_path_index(const struct opts *o)
{
    const char *out = slk_opt.output;
    if (!o->plan_in || o->no_index || o->nremove || o->replan || o->yarn || o->have_query || o->stable >= 0 ||
        o->yarn_delta || !out ||
        strcmp(out, "-") == 0 || strncmp(out, "/dev/", 5) == 0 || strncmp(out, "/proc/", 6) == 0 ||
        !same_file(o->plan_in, out) || access(out, W_OK) != 0) /* read-only: replaced, as before */
        return NULL;
    planidx *x = planidx_load(o->plan_in);
    for (size_t k = 0; x && o->have_at && k < x->nres; k++) {
        const struct planidx_res *r = &x->res[k];
        double end = (double)r->cycle * x->lcm + (double)(r->start + r->len) * x->step;
        if (r->kind == PLAN_ONCE && end <= o->at) {
            planidx_free(x);
            x = NULL;
        }
    }
    return x;
}

/* load_plan: --plan (from its index when it can stand in for the rows: the
 * plan starts with their load and gets only the new reservations). */
static int load_plan(struct run *R)
{
    const struct opts *o = R->o;
    if (!o->plan_in)
        return SLK_OK;
    int st;
    R->idx = fast_path_index(o);
    if (R->idx)
        R->p = planidx_plan(R->idx);
    else if ((st = plan_read(o->plan_in, &R->p)) != SLK_OK)
        return st;
    plan *p = R->p;
    R->nres_read = p->nres;
    if (o->yarn_delta) {
        struct yarn_opts yo = {.queue = o->queue, .at = o->at, .cluster_ts = o->cluster_ts};
        yarn_snapshot_take(p, &yo, &R->snap);
    }
    if ((o->have_step && (long)o->step != p->step) || (o->have_lcm && (long)o->lcm != p->lcm)) {
        slk_error("%s: plan has step %ld s and lcm %ld s, but --step %g --lcm %g were given", o->plan_in,
                  p->step, p->lcm, o->step, o->lcm);
        return SLK_EUSAGE;
    }
    if (o->have_at && p->lcm != (long)o->lcm && fmod(o->at, (double)p->lcm) != 0) {
        slk_error("--at is not the start of a cycle of the plan's lcm %ld s", p->lcm);
        return SLK_EUSAGE;
    }
    return SLK_OK;
}

/* periodic_in: the SLO's period divides the plan's lcm in whole steps. */
static int periodic_in(const plan *p, const struct slo_req *s)
{
    return s->period == floor(s->period) && fmod(s->period, (double)p->step) == 0 &&
           fmod((double)p->lcm, s->period) == 0;
}

/* read_inputs: the SLOs and skylines, then the plan (new unless --plan),
 * the LCM of the periods for the summary, and the capacity. */
static int read_inputs(struct run *R)
{
    const struct opts *o = R->o;
    int st;
    if (o->slo) {
        if ((st = slo_read_requests(o->slo, cli_dialect("slo"), &R->slos)) != SLK_OK)
            return st;
        struct stages_opts so = {.csv = cli_dialect(NULL), .cont_cores = o->cont_cores, .cont_mem = o->cont_mem,
                                 .max_jobs = o->max_requests};
        if ((st = stages_read(o->input, R->p ? (double)R->p->step : o->step, &so, &R->jobs, &R->njobs)) != SLK_OK)
            return st;
    }
    if (o->adhoc && (st = adhoc_read(o->adhoc, o->cont_cores, o->cont_mem, R->p ? (double)R->p->lcm : o->lcm,
                                      &R->adhoc, &R->nadhoc)) != SLK_OK)
        return st;
    if (o->adhoc_sky) {
        struct stages_opts so = {.csv = cli_dialect(NULL), .cont_cores = o->cont_cores, .cont_mem = o->cont_mem,
                                 .max_jobs = o->max_requests};
        if ((st = stages_read(o->adhoc_sky, R->p ? (double)R->p->step : o->step, &so, &R->adhoc_jobs,
                              &R->nadhoc_jobs)) != SLK_OK)
            return st;
    }
    if (o->adhoc && (st = adhoc_attach(R->adhoc, R->nadhoc, R->adhoc_jobs, R->nadhoc_jobs, o->adhoc)) != SLK_OK)
        return st;
    /* The plan spans the whole --lcm, a multiple of the LCM of the periods
     * that divide it: the LCM-long pattern repeated, and a cycle that stays
     * the same from one night to the next whatever jobs come. */
    if (!R->p)
        R->p = plan_new((long)o->step, (long)o->lcm);
    for (size_t i = 0; i < R->njobs; i++) {
        struct slo_req *s = slo_find_request(&R->slos, R->jobs[i].job);
        if (s && s->usable && periodic_in(R->p, s))
            R->lcm_periods = R->lcm_periods ? stats_lcm(R->lcm_periods, (long long)s->period) : (long long)s->period;
    }
    if (o->cap_file)
        return plan_read_capacity(R->p, o->cap_file, cli_dialect("capacity-file"));
    return plan_set_capacity(R->p, o->cap_cores, o->cap_mem) < 0 ? SLK_EUSAGE : SLK_OK;
}

/* ---- what the plan holds ----------------------------------------------------- */

static char *res_key(const char *job, int once, int64_t inst)
{
    size_t n = strlen(job) + 40;
    char *k = xmalloc(n);
    if (once)
        snprintf(k, n, "%s\x1fo\x1f%lld", job, (long long)inst);
    else
        snprintf(k, n, "%s\x1fp", job);
    return k;
}

static int key_in(const keyset *ks, const char *job, enum plan_kind kind, int64_t inst)
{
    char *key = res_key(job, kind == PLAN_ONCE, inst);
    int r = keyset_has(ks, key);
    free(key);
    return r;
}

static void key_add(keyset *ks, const char *job, enum plan_kind kind, int64_t inst)
{
    char *key = res_key(job, kind == PLAN_ONCE, inst);
    keyset_add(ks, key);
    free(key);
}

/* remove_and_expire: --remove, then once reservations that ended before --at. */
static void remove_and_expire(struct run *R)
{
    const struct opts *o = R->o;
    plan *p = R->p;
    for (int i = 0; i < o->nremove; i++) {
        int n = plan_remove_job(p, o->remove[i]);
        if (n) {
            R->n.removed += n;
            report(R, o->remove[i], "", -1, "removed", 0, 0, NAN, NAN, "--remove");
        } else if (!slk_opt.quiet) {
            fprintf(stderr, "%s: warning: --remove %s: no such job in the plan\n", slk_progname, o->remove[i]);
        }
    }
    if (!o->have_at)
        return;
    for (size_t k = 0; k < p->nres; k++) {
        struct plan_res *r = &p->res[k];
        double end = (double)r->cycle * p->lcm + (double)(r->start + r->len) * p->step;
        if (!r->removed && r->kind == PLAN_ONCE && end <= o->at) {
            r->removed = 1;
            R->n.expired++;
            report(R, r->job, "once", r->instance, "expired", r->start, r->len, NAN, NAN, "ended before --at");
        }
    }
    if (R->n.expired)
        plan_recompute_load(p);
}

/* note_have: the keys of the reservations the plan (or its index) holds. */
static void note_have(struct run *R)
{
    R->have = keyset_new();
    for (size_t k = 0; R->idx && k < R->idx->nres; k++)
        key_add(R->have, R->idx->res[k].job, R->idx->res[k].kind, R->idx->res[k].instance);
    for (size_t k = 0; k < R->p->nres; k++)
        if (!R->p->res[k].removed)
            key_add(R->have, R->p->res[k].job, R->p->res[k].kind, R->p->res[k].instance);
}

/* ---- requests ---------------------------------------------------------------- */

static int is_problematic(const struct opts *o, const struct slo_req *s)
{
    for (int i = 0; i < o->nprob; i++)
        if (strcmp(o->prob[i], s->job) == 0)
            return 1;
    if (s->problematic >= 0)
        return s->problematic;
    if (o->problematic_cv >= 0 && s->cv > o->problematic_cv)
        return 1;
    return 0;
}

static void push_req(struct run *R, const struct lowcost_req *q)
{
    R->reqs = xgrow(R->reqs, &R->reqcap, R->nreq + 1, sizeof *R->reqs);
    R->reqs[R->nreq++] = *q;
}

/* job_request: job j's request (periodic or not in *periodic), or NULL when
 * the job is not one (reported as skipped on pass 0). */
static struct slo_req *job_request(struct run *R, struct stages_job *j, int pass, struct lowcost_req *q,
                                   int *periodic)
{
    plan *p = R->p;
    struct slo_req *s = slo_find_request(&R->slos, j->job);
    const char *why = NULL;
    char buf[160];
    if (!s) {
        why = "no SLO row for the job";
    } else if ((s->mark = 1, !s->usable)) { /* mark: has a skyline */
        snprintf(buf, sizeof buf, "SLO status '%.100s' is not a reservation request", s->status);
        why = buf;
    } else if (j->nst == 0) {
        why = "skyline has no demand";
    } else if (s->period < (double)p->step) {
        why = "period shorter than the plan step";
    }
    if (why) {
        if (pass == 0)
            skip(R, j->job, "", why);
        return NULL;
    }
    *periodic = periodic_in(p, s);
    *q = (struct lowcost_req){.job = j->job, .period = s->period, .a = s->a, .d = s->d, .cores = j->cores,
                              .mem_mb = j->mem_mb, .problematic = is_problematic(R->o, s), .nstages = j->nst,
                              .stage = j->st};
    return s;
}

/* once_requests: one request per instance of q whose window opens inside
 * the --at cycle.  SLK_OK, or SLK_EDATA past --max-requests (printed). */
static int once_requests(struct run *R, const struct stages_job *j, const struct slo_req *s,
                         struct lowcost_req q)
{
    const struct opts *o = R->o;
    plan *p = R->p;
    if (!o->have_at) {
        R->need_at = 1;
        skip(R, j->job, "once", "period does not divide the lcm and no --at cycle was given");
        return SLK_OK;
    }
    double c0 = o->at, c1 = o->at + (o->horizon > 0 ? o->horizon : (double)p->lcm);
    int64_t n0 = (int64_t)ceil((c0 - s->a) / s->period - 1e-9);
    if (!((double)n0 * s->period + s->a < c1)) {
        skip(R, j->job, "once", "no instance of the job opens in the --at cycle");
        return SLK_OK;
    }
    for (int64_t n = n0; (double)n * s->period + s->a < c1; n++) {
        if ((long long)R->nreq >= o->max_requests) {
            slk_error_at(o->input && strcmp(o->input, "-") ? o->input : "<stdin>", j->line,
                         "more than %lld requests (--max-requests; job '%s' has one per instance)",
                         o->max_requests, j->job);
            return SLK_EDATA;
        }
        q.kind = PLAN_ONCE;
        q.instance = n;
        q.cycle = (int64_t)floor(((double)n * s->period + s->a) / (double)p->lcm);
        push_req(R, &q);
    }
    return SLK_OK;
}

/* build_requests: periodic requests first (input order), then one-off
 * instances; every job that is not a request is reported as skipped. */
static int build_requests(struct run *R)
{
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < R->njobs; i++) {
            struct lowcost_req q;
            int periodic, st;
            struct slo_req *s = job_request(R, &R->jobs[i], pass, &q, &periodic);
            if (!s)
                continue;
            if (periodic && pass == 0) {
                q.kind = PLAN_PERIODIC;
                push_req(R, &q);
            } else if (!periodic && pass == 1 && (st = once_requests(R, &R->jobs[i], s, q)) != SLK_OK) {
                return st;
            }
        }
    for (size_t i = 0; i < R->slos.n; i++)
        if (!R->slos.v[i].mark && R->slos.v[i].usable)
            skip(R, R->slos.v[i].job, "", "no skyline for the job");
    /* ad-hoc requests last: lower priority, the capacity the others leave */
    R->adhoc0 = R->nreq;
    for (size_t i = 0; i < R->nadhoc; i++) {
        struct lowcost_req q;
        adhoc_request(R->p, &R->adhoc[i], &q);
        if (R->adhoc[i].deadline <= R->o->at) {
            R->n.expired++;
            report(R, q.job, "adhoc", q.instance, "expired", 0, 0, NAN, NAN, "deadline before --at");
            continue;
        }
        if ((long long)R->nreq >= R->o->max_requests) {
            slk_error_at(R->o->adhoc, R->adhoc[i].line, "more than %lld requests (--max-requests)",
                         R->o->max_requests);
            return SLK_EDATA;
        }
        push_req(R, &q);
    }
    if (R->need_at && !slk_opt.quiet)
        fprintf(stderr, "%s: warning: some jobs have periods that do not divide the lcm %ld s: give --at TIME to "
                        "plan their instances\n", slk_progname, R->p->lcm);
    return SLK_OK;
}

struct slack_ix {
    size_t i;
    int once;
    long slack;
};

static int slack_cmp(const void *a, const void *b)
{
    const struct slack_ix *x = a, *y = b;
    if (x->once != y->once)
        return x->once - y->once;
    if (x->slack != y->slack)
        return x->slack < y->slack ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* order_tight: --order tight: least flexible first, periodic before once, stable. */
static void order_tight(struct run *R)
{
    size_t nreq = R->adhoc0; /* the ad-hoc requests stay last, in file order */
    if (!R->o->tight || nreq < 2)
        return;
    struct slack_ix *ix = xmalloc(nreq * sizeof *ix);
    for (size_t i = 0; i < nreq; i++)
        ix[i] = (struct slack_ix){i, R->reqs[i].kind == PLAN_ONCE, lookahead_slack(R->p, &R->reqs[i])};
    qsort(ix, nreq, sizeof *ix, slack_cmp);
    struct lowcost_req *sorted = xmalloc(R->nreq * sizeof *sorted);
    for (size_t i = 0; i < nreq; i++)
        sorted[i] = R->reqs[ix[i].i];
    for (size_t i = nreq; i < R->nreq; i++)
        sorted[i] = R->reqs[i];
    free(R->reqs);
    free(ix);
    R->reqs = sorted;
    R->reqcap = R->nreq;
}

/* replan_free: --replan frees the jobs that are requested again before
 * anything is placed (marked first, the load rebuilt once: replanning
 * 10,000 jobs must not rebuild it 10,000 times). */
static void replan_free(struct run *R)
{
    if (!R->o->replan)
        return;
    keyset *again = keyset_new();
    for (size_t i = 0; i < R->nreq; i++)
        if (key_in(R->have, R->reqs[i].job, R->reqs[i].kind, R->reqs[i].instance))
            keyset_add(again, R->reqs[i].job);
    if (keyset_size(again)) {
        for (size_t k = 0; k < R->p->nres; k++)
            if (!R->p->res[k].removed && keyset_has(again, R->p->res[k].job))
                R->p->res[k].removed = 1;
        plan_recompute_load(R->p);
    }
    keyset_free(again);
}

/* ---- --stable ---------------------------------------------------------------- */

struct keyed {
    char *key;
    size_t k;
};

static int keyed_cmp(const void *a, const void *b)
{
    return strcmp(((const struct keyed *)a)->key, ((const struct keyed *)b)->key);
}

/* stable_decide: --stable: for each request the plan holds a reservation
 * for, keep it (stable_keep) or free it to be placed again (moved); free
 * the reservations no request asks for tonight (a once reservation only
 * when its window opens at or after --at: one that opened before is under
 * way and expires when it ends).  The load is rebuilt once. */
static void stable_decide(struct run *R)
{
    plan *p = R->p;
    if (R->o->stable < 0)
        return;
    size_t n = 0;
    struct keyed *ix = xcalloc(p->nres ? p->nres : 1, sizeof *ix);
    for (size_t k = 0; k < p->nres; k++)
        if (!p->res[k].removed)
            ix[n++] = (struct keyed){res_key(p->res[k].job, p->res[k].kind == PLAN_ONCE, p->res[k].instance), k};
    qsort(ix, n, sizeof *ix, keyed_cmp);
    char *asked = xcalloc(n ? n : 1, 1);
    R->pre = xcalloc(R->nreq ? R->nreq : 1, 1);
    R->pre_why = xcalloc(R->nreq ? R->nreq : 1, sizeof *R->pre_why);
    int changed = 0;
    for (size_t i = 0; i < R->nreq; i++) {
        const struct lowcost_req *q = &R->reqs[i];
        struct keyed key = {res_key(q->job, q->kind == PLAN_ONCE, q->instance), 0};
        struct keyed *hit = n ? bsearch(&key, ix, n, sizeof *ix, keyed_cmp) : NULL;
        free(key.key);
        if (!hit)
            continue;
        asked[hit - ix] = 1;
        char why[200];
        struct plan_res *r = &p->res[hit->k];
        R->pre[i] = stable_keep(p, r, q, R->o->stable, why, sizeof why) ? 1 : 2;
        R->pre_why[i] = xstrdup(why);
        if (R->pre[i] == 2) {
            r->removed = 1;
            R->n_moved++;
            changed = 1;
        }
    }
    for (size_t x = 0; x < n; x++) {
        struct plan_res *r = &p->res[ix[x].k];
        int under_way = r->kind == PLAN_ONCE && R->o->have_at && (double)r->instance * r->period + r->a < R->o->at;
        if (!asked[x] && !under_way) {
            r->removed = 1;
            R->n_gone++;
            changed = 1;
            report(R, r->job, r->kind == PLAN_ONCE ? "once" : "periodic", r->kind == PLAN_ONCE ? r->instance : -1,
                   "removed", r->start, r->len, NAN, NAN, "no request tonight (--stable)");
        }
        free(ix[x].key);
    }
    if (changed)
        plan_recompute_load(p);
    free(ix);
    free(asked);
}

/* ---- placing ----------------------------------------------------------------- */

/* place_one: request i: kept when the plan has it (and no --replan), else
 * placed or rejected; ids[i] = its reservation when placed. */
static void place_one(struct run *R, lowcost_ws *ws, size_t i, const struct lowcost_opts *lo, struct decision *dec,
                      size_t *ids)
{
    const struct lowcost_req *q = &R->reqs[i];
    ids[i] = (size_t)-1;
    R->n.requests++;
    int pre = R->pre ? R->pre[i] : -1;
    if (pre == 1 || (pre < 0 && key_in(R->have, q->job, q->kind, q->instance) && !R->o->replan)) {
        R->n.kept++;
        dec[i].status = "kept";
        if (pre == 1)
            dec[i].why = xstrdup(R->pre_why[i]);
        return;
    }
    struct lowcost_result res;
    int ok = R->o->earliest ? lowcost_place_earliest(ws, R->p, q, &res) : lowcost_place(ws, R->p, q, lo, &res);
    if (ok) {
        R->n.placed++;
        R->n_moved_placed += pre == 2;
        ids[i] = R->p->nres - 1;
        double h = lowcost_min_height(R->p, q);
        if (h > R->fixed_lb)
            R->fixed_lb = h;
        dec[i] = (struct decision){pre == 2 ? "moved" : "placed", res.start, res.len, res.cost, res.penalty,
                                   pre == 2 ? xstrdup(R->pre_why[i]) : NULL};
    } else {
        R->n.rejected++;
        dec[i] = (struct decision){"rejected", 0, 0, NAN, NAN, refusal_text(R->p, q, res.why)};
    }
}

/* report_decisions: one report row per request, as the plan ends up. */
static void report_decisions(struct run *R, struct decision *dec)
{
    for (size_t i = 0; i < R->nreq; i++) {
        const struct lowcost_req *q = &R->reqs[i];
        const char *kind = i >= R->adhoc0 ? "adhoc" : q->kind == PLAN_ONCE ? "once" : "periodic";
        int64_t inst = q->kind == PLAN_ONCE ? q->instance : -1;
        if (!dec[i].status)
            continue;
        report(R, q->job, kind, inst, dec[i].status, dec[i].start, dec[i].len, dec[i].cost, dec[i].pen,
               dec[i].why ? dec[i].why
                          : strcmp(dec[i].status, "kept") == 0 ? "already in the plan (--replan moves it)" : "");
        free(dec[i].why);
    }
}

/* place_all: every request in order (with --lookahead's pressure), then
 * --improve; decisions are reported once placing is over. */
static void place_all(struct run *R)
{
    const struct opts *o = R->o;
    plan *p = R->p;
    size_t nreq = R->nreq;
    struct lowcost_opts lo = {.max_ends = o->ends, .chunks = o->chunks, .align_weight = o->align_weight,
                              .max_stretch = o->stretch};
    double *pres = NULL;
    if (o->lookahead > 0 && !o->earliest) {
        pres = xcalloc((size_t)p->nsteps, sizeof(double));
        for (size_t i = 0; i < nreq; i++)
            lookahead_spread(p, &R->reqs[i], pres, o->lookahead);
        lo.pressure = pres;
    }
    double t0 = slk_now();
    lowcost_ws *ws = lowcost_ws_new();
    struct decision *dec = xcalloc(nreq ? nreq : 1, sizeof *dec);
    size_t *ids = xcalloc(nreq ? nreq : 1, sizeof *ids);
    for (size_t i = 0; i < nreq; i++) {
        if (pres)
            lookahead_spread(p, &R->reqs[i], pres, -o->lookahead);
        place_one(R, ws, i, &lo, dec, ids);
        slk_progress("requests placed", i + 1, nreq);
    }
    slk_progress_done();
    if (o->improve > 0 && !o->earliest && R->n.placed) {
        lowcost_improve(ws, p, R->reqs, nreq, ids, &lo, o->improve, &R->imp);
        /* the report gives each job's cost in the final plan */
        for (size_t i = 0; i < nreq; i++)
            if (ids[i] != (size_t)-1) {
                const struct plan_res *r = &p->res[ids[i]];
                dec[i].start = r->start;
                dec[i].len = r->len;
                dec[i].cost = plan_res_peak(p, r);
                dec[i].pen = lowcost_penalty(p, r, &lo);
            }
    }
    report_decisions(R, dec);
    lowcost_ws_free(ws);
    free(dec);
    free(ids);
    R->elapsed = slk_now() - t0;
    free(pres);
}

/* ---- outputs ----------------------------------------------------------------- */

/* bound: the lower bound over the plan's reservations in file order (from
 * the index, or read); kept reservations are fixed demands.  Returns the
 * number of live reservations. */
static size_t bound(struct run *R, struct planbound *bd)
{
    plan *p = R->p;
    int fixed_ok = !R->o->replan;
    size_t nres_live = 0;
    planbound_init(bd, p, R->fixed_lb);
    for (size_t k = 0; R->idx && k < R->idx->nres; k++) {
        const struct planidx_res *r = &R->idx->res[k];
        planbound_add(bd, p, r, fixed_ok && key_in(R->have, r->job, r->kind, r->instance));
        nres_live++;
    }
    for (size_t k = 0; k < p->nres; k++) {
        const struct plan_res *r = &p->res[k];
        if (r->removed)
            continue;
        struct planidx_res sum;
        planidx_summary(p, r, &sum);
        planbound_add(bd, p, &sum, fixed_ok && k < R->nres_read);
        nres_live++;
    }
    return nres_live;
}

/* save_plan: write the whole plan to path (atomically) and, unless
 * --no-index, its index next to it (regular files only). */
static int save_plan(const plan *p, const char *path, int no_index)
{
    struct plan_mark m;
    int st = plan_save(p, path, &m);
    if (st == SLK_OK && !no_index)
        st = planidx_save(NULL, p, path, &m);
    return st;
}

static int write_load(const plan *p, const char *path)
{
    int st;
    outf *ol = outf_open(path, &st);
    if (!ol)
        return st;
    csvw *w = csvw_new_with(outf_fp(ol), cli_dialect(NULL));
    plan_write_load(p, w);
    csvw_free(w);
    return outf_finish(ol, st);
}

/* write_query: --query: what the plan allocates at that time, per job. */
static int write_query(const plan *p, double T)
{
    int st;
    outf *o = outf_open(slk_opt.output, &st);
    if (!o)
        return st;
    csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
    static const char *const qcols[] = {"job", "containers", "cores", "mem_mb", NULL};
    csvw_header(w, qcols);
    keyset *seen = keyset_new();
    for (size_t k = 0; k < p->nres; k++) {
        const struct plan_res *r = &p->res[k];
        int64_t nc;
        double qc, qm;
        if (r->removed || !keyset_add(seen, r->job))
            continue;
        if (plan_alloc_at(p, r->job, T, &nc, &qc, &qm) > 0 && nc > 0) {
            csvw_str(w, r->job);
            csvw_int(w, nc);
            csvw_num(w, qc);
            csvw_num(w, qm);
            csvw_end(w);
        }
    }
    keyset_free(seen);
    int werr = csvw_error(w);
    csvw_free(w);
    return outf_finish(o, werr ? SLK_EIO : SLK_OK);
}

static int write_yarn(const struct run *R)
{
    int st;
    outf *o = outf_open(slk_opt.output, &st);
    if (!o)
        return st;
    struct yarn_opts yo = {.queue = R->o->queue, .at = R->o->at};
    return outf_finish(o, yarn_write_plan(R->p, outf_fp(o), &yo) < 0 ? SLK_EIO : SLK_OK);
}

/* write_in_place: the new reservations as one more segment of the file. */
static int write_in_place(struct run *R)
{
    if (!R->p->nres) {
        R->how = " (from the index: plan file unchanged)";
        return SLK_OK;
    }
    struct plan_mark m;
    int st = plan_append(R->p, slk_opt.output, &R->idx->mark, &m);
    if (st == SLK_OK) {
        R->how = " (appended in place)";
        st = planidx_save(R->idx, R->p, slk_opt.output, &m);
    }
    return st;
}

/* write_delta: --yarn-delta DIR: submit, update and delete bodies, each
 * file replaced atomically. */
static int write_delta(struct run *R)
{
    const struct opts *o = R->o;
    if (mkdir(o->yarn_delta, 0777) != 0 && errno != EEXIST) {
        slk_error("%s: cannot create: %s", o->yarn_delta, strerror(errno));
        return SLK_ECANTCREAT;
    }
    static const char *const names[3] = {"submit.jsonl", "update.jsonl", "delete.jsonl"};
    outf *f[3] = {NULL, NULL, NULL};
    int st = SLK_OK;
    for (int i = 0; i < 3 && st == SLK_OK; i++) {
        size_t n = strlen(o->yarn_delta) + 32;
        char *path = xmalloc(n);
        snprintf(path, n, "%s/%s", o->yarn_delta, names[i]);
        f[i] = outf_open(path, &st);
        free(path);
    }
    if (st == SLK_OK) {
        struct yarn_opts yo = {.queue = o->queue, .at = o->at, .cluster_ts = o->cluster_ts};
        if (yarn_write_delta(R->p, &R->snap, &yo, outf_fp(f[0]), outf_fp(f[1]), outf_fp(f[2]), &R->delta) < 0)
            st = SLK_EIO;
    }
    for (int i = 0; i < 3; i++)
        if (f[i])
            st = outf_finish(f[i], st);
    return st;
}

static int write_outputs(struct run *R)
{
    const struct opts *o = R->o;
    int st = SLK_OK;
    if (o->load_out)
        st = write_load(R->p, o->load_out);
    if (st == SLK_OK && o->plan_out)
        st = save_plan(R->p, o->plan_out, o->no_index);
    if (st == SLK_OK && o->yarn_delta)
        st = write_delta(R);
    if (st != SLK_OK)
        return st;
    if (o->have_query)
        return write_query(R->p, o->query);
    if (o->yarn)
        return write_yarn(R);
    if (R->idx)
        return write_in_place(R);
    return save_plan(R->p, slk_opt.output, o->no_index);
}

static void print_summary(struct run *R)
{
    const struct opts *o = R->o;
    plan *p = R->p;
    struct planbound bd;
    size_t nres_live = bound(R, &bd);
    double lb = planbound_value(&bd), area_lb = planbound_area(&bd);
    long peak_s;
    double peak = plan_peak(p, &peak_s);
    if (slk_opt.quiet)
        return;
    if (peak > 1 + 1e-9)
        fprintf(stderr,
                "%s: warning: the plan exceeds the capacity (cost %.4f at t=%ld s): existing reservations stay where "
                "they are; free some with --remove or move them with --replan\n",
                slk_progname, peak, peak_s * p->step);
    char lcm_text[48] = "none";
    if (R->lcm_periods > 0)
        snprintf(lcm_text, sizeof lcm_text, "%lld s", R->lcm_periods);
    fprintf(stderr,
            "%s: %ld requests: %ld placed, %ld rejected, %ld kept; %ld skipped, %ld removed, %ld expired; "
            "plan: %zu reservations over a %ld s cycle (LCM of the new periods %s) in %ld s steps%s\n",
            slk_progname, R->n.requests, R->n.placed, R->n.rejected, R->n.kept, R->n.skipped, R->n.removed,
            R->n.expired, nres_live, p->lcm, lcm_text, p->step, R->how);
    fprintf(stderr,
            "%s: peak cost %.4f at t=%ld s; lower bound %.4f (fixed demand %.4f, area/lcm %.4f): %.3fx; "
            "placement %.4f s (%s)\n",
            slk_progname, peak, peak_s * p->step, lb, bd.fixed_lb, area_lb, lb > 0 ? peak / lb : 1.0, R->elapsed,
            o->earliest ? "earliest start" : "lowcost");
    if (o->stable >= 0)
        fprintf(stderr, "%s: --stable %g%%: %ld kept, %ld moved (%ld placed again), %ld new, %ld removed (no "
                "request)\n", slk_progname, 100 * o->stable, R->n.kept, R->n_moved, R->n_moved_placed,
                R->n.placed - R->n_moved_placed, R->n_gone);
    if (o->yarn_delta)
        fprintf(stderr, "%s: YARN delta in %s: %ld submit, %ld update, %ld delete (%ld unchanged, %ld expired)\n",
                slk_progname, o->yarn_delta, R->delta.submit, R->delta.update, R->delta.del, R->delta.same,
                R->delta.expired);
    if (o->improve > 0 && !o->earliest)
        fprintf(stderr,
                "%s: --improve: %ld moves in %ld rounds, then %ld moves in %ld flattening rounds "
                "(peak %.4f before, %.4f after descent, %.4f after)\n",
                slk_progname, R->imp.moves, R->imp.rounds, R->imp.flat_moves, R->imp.flat_rounds,
                R->imp.peak_before, R->imp.peak_descent, peak);
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
        "  lcmpack --plan plan.csv --remove etl_daily \\\n"
        "      --capacity cores=2000,mem=8192000 -o plan.csv\n"
        "  lcmpack --plan plan.csv --capacity cores=2000,mem=8192000 \\\n"
        "      --format yarn --at 2026-01-06 > yarn.jsonl",
        kids, NULL, NULL};
    struct opts o = OPTS_DEFAULT;
    cli_roles("skylines", "slo", "capacity-file", (const char *)NULL);
    argp_parse(&argp, argc, argv, 0, NULL, &o);

    struct run R = {.o = &o, .how = ""};
    int st = load_plan(&R);
    if (st == SLK_OK)
        st = read_inputs(&R);
    if (st == SLK_OK)
        st = open_report(&R);
    if (st == SLK_OK) {
        remove_and_expire(&R);
        note_have(&R);
        st = build_requests(&R);
    }
    if (st == SLK_OK) {
        order_tight(&R);
        replan_free(&R);
        stable_decide(&R);
        place_all(&R);
        st = write_outputs(&R);
        print_summary(&R);
    }
    if (R.orep) {
        csvw_free(R.rep);
        R.rep = NULL;
        st = outf_finish(R.orep, st); /* on an error the old report stays */
    }
    if (st == SLK_OK && o.strict && R.n.rejected)
        st = SLK_FAIL;
    run_free(&R);
    return slk_finish(st);
}
