/* lcmpack — pack periodic reservations over the LCM of their periods with
 * LowCost (Morpheus §6, §7 "Adjusting LowCost").
 *
 *   lcmpack --slo SLO.csv --capacity cores=N,mem=M [--plan PLAN] [OPTION...] [SKYLINE]
 *
 * Joins skyfit's skylines (SKYLINE or stdin: job,step,offset,alloc
 * [,cores,mem_mb][,gang]) with sloinfer's SLOs (--slo: job,period,a,d
 * [,status][,source][,cv][,problematic]), turns each job into a request
 * (periodic when its period divides the LCM, else one request per instance
 * in the --at cycle), places the requests with lib/morpheus/lowcost into the plan
 * (lib/morpheus/plan, loaded from --plan when given, whose reservations stay put) and
 * writes the plan, or YARN reservation bodies with --format yarn.  The model
 * and the options are in lcmpack(1).
 */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/keyset.h"
#include "morpheus/lowcost.h"
#include "base/outfile.h"
#include "base/parse.h"
#include "morpheus/plan.h"
#include "morpheus/planidx.h"
#include "morpheus/slo.h"
#include "base/stats.h"

#include <argp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- options ----------------------------------------------------------------- */

#define MAX_LIST 4096

static struct {
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
    int nremove, nprob;
    const char *remove[MAX_LIST];
    const char *prob[MAX_LIST];
} opt = {
    .lcm = 86400, .step = 60, .cont_cores = 1, .cont_mem = 1024, .queue = "dedicated",
    .problematic_cv = -1, .align_weight = 0.25, .ends = 48, .chunks = 16, .stretch = 0,
    .max_requests = 10000000,
};

enum {
    OPT_SLO = 1, OPT_PLAN, OPT_PLAN_OUT, OPT_LOAD, OPT_REPORT, OPT_CAP, OPT_CAP_FILE, OPT_LCM, OPT_STEP,
    OPT_AT, OPT_CONTAINER, OPT_REPLAN, OPT_REMOVE, OPT_STRICT, OPT_FORMAT, OPT_QUEUE, OPT_PROB,
    OPT_PROB_CV, OPT_ALIGN, OPT_ENDS, OPT_CHUNKS, OPT_STRATEGY, OPT_STRETCH, OPT_ORDER, OPT_QUERY, OPT_LOOKAHEAD,
    OPT_IMPROVE, OPT_MAX_REQ, OPT_NO_INDEX
};

static const struct argp_option options[] = {
    {0, 0, 0, 0, "Requests and plan:", 1},
    {"slo", OPT_SLO, "FILE", 0, "sloinfer output job,period,a,d[,status][,source][,cv][,problematic] (the join "
                                "with the skylines; required unless only --plan/--remove)", 1},
    {"plan", OPT_PLAN, "FILE", 0, "Existing plan: its reservations stay where they are", 1},
    {"replan", OPT_REPLAN, 0, 0, "Re-place jobs of --plan that have a new request (default: keep them)", 1},
    {"remove", OPT_REMOVE, "JOB", 0, "Free every reservation of JOB (repeatable)", 1},
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
    switch (key) {
    case OPT_SLO: opt.slo = arg; break;
    case OPT_PLAN: opt.plan_in = arg; break;
    case OPT_PLAN_OUT: opt.plan_out = arg; break;
    case OPT_LOAD: opt.load_out = arg; break;
    case OPT_REPORT: opt.report = arg; break;
    case OPT_CAP: cli_resources(st, "capacity", arg, &opt.cap_cores, &opt.cap_mem); opt.have_cap = 1; break;
    case OPT_CAP_FILE: opt.cap_file = arg; break;
    case OPT_LCM: opt.lcm = cli_duration(st, "lcm", arg, 1); opt.have_lcm = 1; break;
    case OPT_STEP: opt.step = cli_duration(st, "step", arg, 1); opt.have_step = 1; break;
    case OPT_MAX_REQ: opt.max_requests = cli_int(st, "max-requests", arg, 1, 1000000000000LL); break;
    case OPT_AT: opt.at = cli_time(st, "at", arg); opt.have_at = 1; break;
    case OPT_CONTAINER: cli_resources(st, "container", arg, &opt.cont_cores, &opt.cont_mem); break;
    case OPT_REPLAN: opt.replan = 1; break;
    case OPT_NO_INDEX: opt.no_index = 1; break;
    case OPT_STRICT: opt.strict = 1; break;
    case OPT_REMOVE:
        if (opt.nremove >= MAX_LIST)
            argp_error(st, "too many --remove options");
        opt.remove[opt.nremove++] = arg;
        break;
    case OPT_PROB:
        if (opt.nprob >= MAX_LIST)
            argp_error(st, "too many --problematic options");
        opt.prob[opt.nprob++] = arg;
        break;
    case OPT_PROB_CV: opt.problematic_cv = cli_double(st, "problematic-cv", arg, 0, 1e300); break;
    case OPT_ALIGN: opt.align_weight = cli_double(st, "align-weight", arg, 0, 1e6); break;
    case OPT_ENDS: opt.ends = (int)cli_int(st, "ends", arg, 0, 1000000); break;
    case OPT_STRETCH: opt.stretch = cli_double(st, "max-stretch", arg, 0, 1e6);
        if (opt.stretch > 0 && opt.stretch < 1)
            argp_error(st, "invalid value for --max-stretch: '%s' (0, or at least 1)", arg);
        break;
    case OPT_LOOKAHEAD: opt.lookahead = cli_double(st, "lookahead", arg, 0, 1e6); break;
    case OPT_IMPROVE: opt.improve = (int)cli_int(st, "improve", arg, 0, 1000000); break;
    case OPT_CHUNKS: opt.chunks = (int)cli_int(st, "chunks", arg, 0, 1000000); break;
    case OPT_FORMAT:
        opt.yarn = cli_choice(st, "format", arg, (const char *const[]){"plan", "yarn", NULL});
        break;
    case OPT_STRATEGY:
        opt.earliest = cli_choice(st, "strategy", arg, (const char *const[]){"lowcost", "earliest", NULL});
        break;
    case OPT_QUEUE: opt.queue = arg; break;
    case OPT_QUERY: opt.query = cli_time(st, "query", arg); opt.have_query = 1; break;
    case OPT_ORDER:
        opt.tight = cli_choice(st, "order", arg, (const char *const[]){"input", "tight", NULL});
        break;
    case ARGP_KEY_ARG:
        if (opt.input)
            argp_error(st, "one skyline FILE only (got '%s' and '%s')", opt.input, arg);
        opt.input = arg;
        break;
    case ARGP_KEY_END:
        if (opt.have_cap && opt.cap_file)
            argp_error(st, "--capacity and --capacity-file exclude each other");
        if (!opt.have_cap && !opt.cap_file)
            argp_error(st, "the cluster capacity is required: --capacity cores=N,mem=M or --capacity-file FILE");
        if (!opt.slo && !opt.plan_in)
            argp_error(st, "nothing to do: give --slo FILE (new requests) and/or --plan FILE");
        if (!opt.slo && opt.input)
            argp_error(st, "a skyline FILE needs --slo FILE (the SLOs to join it with)");
        if (opt.lcm != floor(opt.lcm) || opt.step != floor(opt.step))
            argp_error(st, "--lcm and --step must be whole seconds");
        if (fmod(opt.lcm, opt.step) != 0)
            argp_error(st, "--lcm %g s is not a multiple of --step %g s", opt.lcm, opt.step);
        if (opt.lcm / opt.step > 10000000)
            argp_error(st, "--lcm/--step gives more than 10,000,000 steps");
        if (opt.plan_out && !opt.yarn && !opt.have_query)
            argp_error(st, "--plan-out goes with --format yarn or --query (the plan itself is the output otherwise)");
        if (opt.yarn && opt.have_query)
            argp_error(st, "--format yarn and --query exclude each other");
        if (opt.yarn && !opt.have_at)
            argp_error(st, "--format yarn needs --at TIME (the cycle to date the reservations from)");
        if (opt.have_at && fmod(opt.at, opt.lcm) != 0) {
            char b[32];
            argp_error(st, "--at %s is not the start of a cycle (a multiple of --lcm %g s since the epoch)",
                       parse_time_format(opt.at, b), opt.lcm);
        }
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* ---- requests ---------------------------------------------------------------- */


struct job {
    char *job;
    long line;              /* first skyline line */
    double cores, mem_mb;
    double step;            /* the skyline's step: each row lasts this long */
    struct lowcost_stage *st;
    long nst;
};

static struct slo_reqs slos; /* the SLO file */
static struct job *jobs;
static size_t njobs, jobcap;

/* The skyline of one job, resampled to the plan step: each skyline row holds
 * its alloc during [offset, offset + step) (the skyline's own step column);
 * stage j covers [j S, (j+1) S) of the job's own time; its demand is the area
 * of the skyline there over S (container-steps, rounded up), its maximum
 * parallelism the highest alloc overlapping it, its gang the largest gang. */
struct skyrow {
    double off, alloc;
    int32_t gang;
};

static int finish_job(csvr *r, struct job *j, struct skyrow *rows, size_t n, double S)
{
    double dt = j->step;
    for (size_t i = 1; i < n; i++)
        if (fabs((rows[i].off - rows[i - 1].off) - dt) > 1e-6 * dt) {
            slk_error_at(csvr_path(r), j->line,
                         "job '%s': skyline offsets are not evenly spaced by its step %g s (%g s, then %g s)",
                         j->job, dt, rows[i - 1].off, rows[i].off);
            return -1;
        }
    double t0 = rows[0].off, end = rows[n - 1].off - t0 + dt;
    if (end / S > 1e7) {
        slk_error_at(csvr_path(r), j->line, "job '%s': skyline spans %g s, more than 10,000,000 steps of %g s",
                     j->job, end, S);
        return -1;
    }
    long ns = (long)ceil(end / S - 1e-9);
    double *area = xcalloc((size_t)ns, sizeof(double));
    double *mx = xcalloc((size_t)ns, sizeof(double));
    int32_t *gg = xcalloc((size_t)ns, sizeof(int32_t));
    for (size_t i = 0; i < n; i++) {
        double s0 = rows[i].off - t0, s1 = s0 + dt;
        for (long k = (long)floor(s0 / S); k < ns && k * S < s1; k++) {
            double lo = fmax(s0, k * S), hi = fmin(s1, (k + 1) * S);
            if (hi <= lo || rows[i].alloc <= 0)
                continue;
            area[k] += rows[i].alloc * (hi - lo) / S;
            if (rows[i].alloc > mx[k])
                mx[k] = rows[i].alloc;
            if (rows[i].gang > gg[k])
                gg[k] = rows[i].gang;
        }
    }
    j->st = xcalloc((size_t)ns, sizeof *j->st);
    j->nst = 0;
    for (long k = 0; k < ns; k++) {
        int64_t dem = (int64_t)ceil(area[k] - 1e-9);
        if (dem <= 0)
            continue; /* idle steps: the allocation stays contiguous without them */
        if (dem > INT32_MAX / 2 || mx[k] > INT32_MAX / 2) {
            slk_error_at(csvr_path(r), j->line, "job '%s': demand too large", j->job);
            free(area), free(mx), free(gg);
            return -1;
        }
        struct lowcost_stage *s = &j->st[j->nst++];
        s->demand = dem;
        s->maxpar = (int32_t)ceil(mx[k] - 1e-9);
        s->gang = gg[k] > 0 ? gg[k] : 1;
        if (s->maxpar < s->gang)
            s->maxpar = s->gang;
    }
    free(area), free(mx), free(gg);
    return 0;
}

static int read_skylines(const char *path, double S)
{
    int st;
    csvr *r = csvr_open(path, 0, &st);
    if (!r)
        return st;
    int cj = csvr_require(r, "job"), cs = csvr_require(r, "step"), co = csvr_require(r, "offset"),
        ca = csvr_require(r, "alloc");
    int cc = csvr_col(r, "cores"), cm = csvr_col(r, "mem_mb"), cg = csvr_col(r, "gang");
    if (cj < 0 || cs < 0 || co < 0 || ca < 0) {
        st = csvr_status(r);
        csvr_close(r);
        return st ? st : SLK_EDATA;
    }
    if ((cc >= 0) != (cm >= 0)) {
        slk_error_at(csvr_path(r), 1, "column '%s' without column '%s' (give both or neither)",
                     cc >= 0 ? "cores" : "mem_mb", cc >= 0 ? "mem_mb" : "cores");
        csvr_close(r);
        return SLK_EDATA;
    }
    group_tracker g;
    group_init(&g);
    struct skyrow *rows = NULL;
    size_t n = 0, cap = 0;
    struct job *cur = NULL;
    int rc;
    while ((rc = csvr_next(r)) > 0) {
        const char *job = csvr_field(r, cj);
        if (!job) {
            csvr_fail(r, "column 'job': missing value");
            break;
        }
        int gc = group_check(&g, job);
        if (gc < 0) {
            csvr_fail(r, "job '%s' comes back after other jobs: input not grouped by job", job);
            break;
        }
        double off, alloc, step, c = opt.cont_cores, m = opt.cont_mem;
        int64_t gang = 1;
        if (csvr_get_double(r, cs, &step, CSVR_REQUIRED | CSVR_POSITIVE | CSVR_BOUNDED) < 0 ||
            csvr_get_double(r, co, &off, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0 ||
            csvr_get_double(r, ca, &alloc, CSVR_REQUIRED | CSVR_NONNEG) < 0)
            break;
        if (cc >= 0 && (csvr_get_double(r, cc, &c, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0 ||
                        csvr_get_double(r, cm, &m, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0))
            break;
        if (cg >= 0 && csvr_get_int64(r, cg, &gang, CSVR_POSITIVE) < 0)
            break;
        if (gang > 1000000) {
            csvr_fail(r, "column 'gang': %lld is too large", (long long)gang);
            break;
        }
        if (c == 0 && m == 0) {
            csvr_fail(r, "container of 0 cores and 0 MB");
            break;
        }
        if (alloc > 1e8) {
            csvr_fail(r, "column 'alloc': %g containers is too large", alloc);
            break;
        }
        if (gc == 1) {
            if (cur && n && finish_job(r, cur, rows, n, S) < 0) {
                st = SLK_EDATA;
                break;
            }
            if ((long long)njobs >= opt.max_requests) {
                csvr_fail(r, "more than %lld requests (--max-requests)", opt.max_requests);
                break;
            }
            jobs = xgrow(jobs, &jobcap, njobs + 1, sizeof *jobs);
            cur = &jobs[njobs++];
            memset(cur, 0, sizeof *cur);
            cur->job = xstrdup(job);
            cur->line = csvr_line(r);
            cur->cores = c;
            cur->mem_mb = m;
            cur->step = step;
            n = 0;
        } else {
            if (step != cur->step) {
                csvr_fail(r, "job '%s': column 'step' changes within the job (%g s, then %g s)", job, cur->step,
                          step);
                break;
            }
            if (off <= rows[n - 1].off) {
                csvr_fail(r, "job '%s': offset %g not after the previous %g (rows sorted by offset)", job, off,
                          rows[n - 1].off);
                break;
            }
            if (c != cur->cores || m != cur->mem_mb) {
                csvr_fail(r, "job '%s': container size changes within the job", job);
                break;
            }
        }
        rows = xgrow(rows, &cap, n + 1, sizeof *rows);
        rows[n].off = off;
        rows[n].alloc = alloc;
        rows[n].gang = (int32_t)gang;
        n++;
    }
    if (st == SLK_OK)
        st = csvr_status(r);
    if (st == SLK_OK && cur && n && finish_job(r, cur, rows, n, S) < 0)
        st = SLK_EDATA;
    free(rows);
    group_free(&g);
    csvr_close(r);
    return st;
}

/* ---- report ------------------------------------------------------------------ */

static csvw *rep;
/* one request's outcome, reported once placing is over */
struct decision {
    const char *status; /* placed, kept, rejected; NULL: nothing to report */
    long start, len;
    double cost, pen;
    char *why;          /* rejected: owned */
};

static long n_placed, n_rejected, n_kept, n_skipped, n_removed, n_expired, n_requests;

static void report(const char *job, const char *kind, int64_t instance, const char *status, long start, long len,
                   long step, double cost, double pen, const char *why)
{
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

/* ---- YARN -------------------------------------------------------------------- */

static void json_str(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(fp, "\\%c", c);
        else if (c < 0x20)
            fprintf(fp, "\\u%04x", c);
        else
            fputc(c, fp);
    }
    fputc('"', fp);
}

/* One JSON body per reservation: the exact allocation as consecutive
 * requests (R_ORDER_NO_GAP = 3), arrival/deadline its own first and last
 * instant, periodic ones with recurrence-expression = period in ms. */
static void write_yarn(const plan *p, FILE *fp)
{
    for (size_t k = 0; k < p->nres; k++) {
        const struct plan_res *r = &p->res[k];
        if (r->removed)
            continue;
        double base = r->kind == PLAN_PERIODIC ? opt.at : (double)r->cycle * (double)p->lcm;
        long long arr = llround((base + (double)r->start * p->step) * 1000);
        long long dl = arr + (long long)r->len * p->step * 1000;
        fprintf(fp, "{\"queue\":");
        json_str(fp, opt.queue);
        fprintf(fp, ",\"reservation-definition\":{\"arrival\":%lld,\"deadline\":%lld,\"reservation-name\":", arr, dl);
        if (r->kind == PLAN_ONCE) {
            size_t nlen = strlen(r->job) + 32;
            char *nm = xmalloc(nlen);
            snprintf(nm, nlen, "%s#%lld", r->job, (long long)r->instance);
            json_str(fp, nm);
            free(nm);
        } else {
            json_str(fp, r->job);
        }
        if (r->kind == PLAN_PERIODIC)
            fprintf(fp, ",\"recurrence-expression\":\"%lld\"", llround(r->period * 1000));
        fprintf(fp, ",\"reservation-requests\":{\"reservation-request-interpreter\":3,\"reservation-request\":[");
        long long vc = (long long)ceil(r->cores - 1e-9), mem = (long long)ceil(r->mem_mb - 1e-9);
        for (long j = 0; j < r->len;) {
            long e = j + 1;
            while (e < r->len && r->containers[e] == r->containers[j])
                e++;
            fprintf(fp, "%s{\"duration\":%lld,\"num-containers\":%d,\"min-concurrency\":%d,"
                        "\"capability\":{\"memory\":%lld,\"vCores\":%lld}}",
                    j ? "," : "", (long long)(e - j) * p->step * 1000, (int)r->containers[j], (int)r->containers[j],
                    mem, vc);
            j = e;
        }
        fprintf(fp, "]}}}\n");
    }
}

/* ---- main -------------------------------------------------------------------- */

static int is_problematic(const struct slo_req *s)
{
    for (int i = 0; i < opt.nprob; i++)
        if (strcmp(opt.prob[i], s->job) == 0)
            return 1;
    if (s->problematic >= 0)
        return s->problematic;
    if (opt.problematic_cv >= 0 && s->cv > opt.problematic_cv)
        return 1;
    return 0;
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

/* req_need: steps the request needs at full parallelism (whole gangs). */
static long req_need(const struct lowcost_req *q)
{
    long n = 0;
    for (long k = 0; k < q->nstages; k++) {
        int64_t g = q->stage[k].gang, gangs = (q->stage[k].demand + g - 1) / g;
        int64_t per = q->stage[k].maxpar / g;
        if (per < 1)
            per = 1;
        n += (long)((gangs + per - 1) / per);
    }
    return n;
}

/* spread_pressure: add w times q's demand (cost units, at the largest
 * capacity) spread evenly over each of its instances' windows to pres. */
static void spread_pressure(const plan *p, const struct lowcost_req *q, double *pres, double w)
{
    long lo, hi;
    if (lowcost_window(p, q, &lo, &hi) < 0)
        return;
    double cm = 0, cc = 0, area = 0;
    for (long s = 0; s < p->nsteps; s++) {
        if (p->cap_mem[s] > cm) cm = p->cap_mem[s];
        if (p->cap_cores[s] > cc) cc = p->cap_cores[s];
    }
    double unit = fmax(cm > 0 ? q->mem_mb / cm : 0, cc > 0 ? q->cores / cc : 0);
    for (long k = 0; k < q->nstages; k++) {
        int64_t g = q->stage[k].gang;
        area += (double)((q->stage[k].demand + g - 1) / g * g);
    }
    double per = w * area * unit / (double)(hi - lo);
    long pp = q->kind == PLAN_PERIODIC ? (long)llround(q->period / (double)p->step) : 0;
    long ni = q->kind == PLAN_PERIODIC ? p->nsteps / pp : 1;
    for (long i = 0; i < ni; i++)
        for (long o = lo; o < hi; o++) {
            long s = (o + i * pp) % p->nsteps;
            pres[s] += per;
        }
}

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

/* The lower bound's sums, reservation by reservation (from the plan or from
 * its index: the same numbers in the same order give the same bound). */
struct bound {
    double area_c, area_m;      /* container-steps x size over the cycle */
    double fixed_lb;            /* the tallest fixed (kept) demand, cost units */
    double maxcap_c, maxcap_m;  /* the largest capacity over the cycle */
};

static void bound_add(const plan *p, const struct planidx_res *r, int fixed, struct bound *b)
{
    struct plan_res shape = {.kind = r->kind, .period = r->period};
    double ni = (double)plan_ninst(p, &shape);
    b->area_c += (double)r->csteps * r->cores * ni;
    b->area_m += (double)r->csteps * r->mem_mb * ni;
    if (fixed) {
        double h = fmax(r->maxc * r->mem_mb / b->maxcap_m, r->maxc * r->cores / b->maxcap_c);
        if (h > b->fixed_lb)
            b->fixed_lb = h;
    }
}

/* ---- the plan's index: adding to a plan file in place ------------------------ */

/* save_plan: write the whole plan to path (atomically) and, unless
 * --no-index, its index next to it (regular files only). */
static int save_plan(const plan *p, const char *path)
{
    struct plan_mark m;
    int st = plan_save(p, path, &m);
    if (st == SLK_OK && !opt.no_index)
        st = planidx_save(NULL, p, path, &m);
    return st;
}

static planidx *idx;    /* --plan's index when this run appends in place (else NULL) */

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
static planidx *fast_path_index(void)
{
    const char *out = slk_opt.output;
    if (!opt.plan_in || opt.no_index || opt.nremove || opt.replan || opt.yarn || opt.have_query || !out ||
        strcmp(out, "-") == 0 || strncmp(out, "/dev/", 5) == 0 || strncmp(out, "/proc/", 6) == 0 ||
        !same_file(opt.plan_in, out) || access(out, W_OK) != 0) /* read-only: replaced, as before */
        return NULL;
    planidx *x = planidx_load(opt.plan_in);
    for (size_t k = 0; x && opt.have_at && k < x->nres; k++) {
        const struct planidx_res *r = &x->res[k];
        double end = (double)r->cycle * x->lcm + (double)(r->start + r->len) * x->step;
        if (r->kind == PLAN_ONCE && end <= opt.at) {
            planidx_free(x);
            x = NULL;
        }
    }
    return x;
}

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
        "  lcmpack --plan plan.csv --slo slo.csv --capacity cores=2000,mem=8192000 sky.csv -o plan.csv\n"
        "  lcmpack --plan plan.csv --remove etl_daily --capacity cores=2000,mem=8192000 -o plan.csv\n"
        "  lcmpack --plan plan.csv --capacity cores=2000,mem=8192000 --format yarn --at 2026-01-06 > yarn.jsonl",
        kids, NULL, NULL};
    argp_parse(&argp, argc, argv, 0, NULL, NULL);

    int st = SLK_OK;
    plan *p = NULL;
    if (opt.plan_in) {
        /* the index, when it can be used, stands in for the plan's rows: the
         * plan starts with their load and gets only the new reservations */
        idx = fast_path_index();
        if (idx)
            p = planidx_plan(idx);
        else if ((st = plan_read(opt.plan_in, &p)) != SLK_OK)
            return slk_finish(st);
        if ((opt.have_step && (long)opt.step != p->step) || (opt.have_lcm && (long)opt.lcm != p->lcm)) {
            slk_error("%s: plan has step %ld s and lcm %ld s, but --step %g --lcm %g were given", opt.plan_in,
                      p->step, p->lcm, opt.step, opt.lcm);
            plan_free(p);
            return slk_finish(SLK_EUSAGE);
        }
        if (opt.have_at && p->lcm != (long)opt.lcm && fmod(opt.at, (double)p->lcm) != 0) {
            slk_error("--at is not the start of a cycle of the plan's lcm %ld s", p->lcm);
            plan_free(p);
            return slk_finish(SLK_EUSAGE);
        }
    }
    if (opt.slo) {
        st = slo_read_requests(opt.slo, &slos);
        if (st == SLK_OK)
            st = read_skylines(opt.input, p ? (double)p->step : opt.step);
        if (st != SLK_OK) {
            plan_free(p);
            return slk_finish(st);
        }
    }
    if (!p) {
        /* The plan spans the whole --lcm, a multiple of the LCM of the periods
         * that divide it: the LCM-long pattern repeated, and a cycle that stays
         * the same from one night to the next whatever jobs come. */
        p = plan_new((long)opt.step, (long)opt.lcm);
    }
    long long lcm_periods = 0; /* the LCM of the periodic requests' periods, for the summary */
    for (size_t i = 0; i < njobs; i++) {
        struct slo_req *s = slo_find_request(&slos, jobs[i].job);
        if (!s || !s->usable || s->period != floor(s->period) || fmod(s->period, (double)p->step) != 0 ||
            fmod((double)p->lcm, s->period) != 0)
            continue;
        lcm_periods = lcm_periods ? stats_lcm(lcm_periods, (long long)s->period) : (long long)s->period;
    }
    if (opt.cap_file)
        st = plan_read_capacity(p, opt.cap_file);
    else if (plan_set_capacity(p, opt.cap_cores, opt.cap_mem) < 0)
        st = SLK_EUSAGE;
    if (st != SLK_OK) {
        plan_free(p);
        return slk_finish(st);
    }

    outf *orep = NULL;
    if (opt.report) {
        orep = outf_open(opt.report, &st);
        if (!orep) {
            plan_free(p);
            return slk_finish(st);
        }
        rep = csvw_new(outf_fp(orep));
        static const char *const cols[] = {"job", "kind", "instance", "status", "t_start", "t_end",
                                           "cost", "penalty", "reason", NULL};
        csvw_header(rep, cols);
    }

    /* removals and expiry */
    for (int i = 0; i < opt.nremove; i++) {
        int n = plan_remove_job(p, opt.remove[i]);
        if (n) {
            n_removed += n;
            report(opt.remove[i], "", -1, "removed", 0, 0, p->step, NAN, NAN, "--remove");
        } else if (!slk_opt.quiet) {
            fprintf(stderr, "%s: warning: --remove %s: no such job in the plan\n", slk_progname, opt.remove[i]);
        }
    }
    if (opt.have_at) {
        for (size_t k = 0; k < p->nres; k++) {
            struct plan_res *r = &p->res[k];
            double end = (double)r->cycle * p->lcm + (double)(r->start + r->len) * p->step;
            if (!r->removed && r->kind == PLAN_ONCE && end <= opt.at) {
                r->removed = 1;
                n_expired++;
                report(r->job, "once", r->instance, "expired", r->start, r->len, p->step, NAN, NAN,
                       "ended before --at");
            }
        }
        if (n_expired)
            plan_recompute_load(p);
    }

    /* what the plan holds already */
    keyset *have = keyset_new();
    for (size_t k = 0; idx && k < idx->nres; k++) {
        char *key = res_key(idx->res[k].job, idx->res[k].kind == PLAN_ONCE, idx->res[k].instance);
        keyset_add(have, key);
        free(key);
    }
    for (size_t k = 0; k < p->nres; k++)
        if (!p->res[k].removed) {
            char *key = res_key(p->res[k].job, p->res[k].kind == PLAN_ONCE, p->res[k].instance);
            keyset_add(have, key);
            free(key);
        }

    /* build the requests: periodic first (input order), then one-off instances */
    struct lowcost_req *reqs = NULL;
    size_t nreq = 0, reqcap = 0;
    int need_at = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < njobs; i++) {
            struct job *j = &jobs[i];
            struct slo_req *s = slo_find_request(&slos, j->job);
            if (!s) {
                if (pass == 0) {
                    n_skipped++;
                    report(j->job, "", -1, "skipped", 0, 0, p->step, NAN, NAN, "no SLO row for the job");
                }
                continue;
            }
            s->mark = 1; /* has a skyline */
            if (!s->usable) {
                if (pass == 0) {
                    n_skipped++;
                    char why[160];
                    snprintf(why, sizeof why, "SLO status '%.100s' is not a reservation request", s->status);
                    report(j->job, "", -1, "skipped", 0, 0, p->step, NAN, NAN, why);
                }
                continue;
            }
            if (j->nst == 0) {
                if (pass == 0) {
                    n_skipped++;
                    report(j->job, "", -1, "skipped", 0, 0, p->step, NAN, NAN, "skyline has no demand");
                }
                continue;
            }
            if (s->period < (double)p->step) {
                if (pass == 0) {
                    n_skipped++;
                    report(j->job, "", -1, "skipped", 0, 0, p->step, NAN, NAN,
                           "period shorter than the plan step");
                }
                continue;
            }
            int periodic = s->period == floor(s->period) && fmod(s->period, (double)p->step) == 0 &&
                           fmod((double)p->lcm, s->period) == 0;
            struct lowcost_req q = {.job = j->job, .period = s->period, .a = s->a, .d = s->d, .cores = j->cores,
                                    .mem_mb = j->mem_mb, .problematic = is_problematic(s), .nstages = j->nst,
                                    .stage = j->st};
            if (periodic && pass == 0) {
                q.kind = PLAN_PERIODIC;
                reqs = xgrow(reqs, &reqcap, nreq + 1, sizeof *reqs);
                reqs[nreq++] = q;
            } else if (!periodic && pass == 1) {
                if (!opt.have_at) {
                    need_at = 1;
                    n_skipped++;
                    report(j->job, "once", -1, "skipped", 0, 0, p->step, NAN, NAN,
                           "period does not divide the lcm and no --at cycle was given");
                    continue;
                }
                /* instances whose window opens inside [at, at + lcm) */
                double c0 = opt.at, c1 = opt.at + (double)p->lcm;
                int64_t n0 = (int64_t)ceil((c0 - s->a) / s->period - 1e-9);
                if (!((double)n0 * s->period + s->a < c1)) {
                    n_skipped++;
                    report(j->job, "once", -1, "skipped", 0, 0, p->step, NAN, NAN,
                           "no instance of the job opens in the --at cycle");
                    continue;
                }
                for (int64_t n = n0; (double)n * s->period + s->a < c1; n++) {
                    if ((long long)nreq >= opt.max_requests) {
                        slk_error_at(opt.input && strcmp(opt.input, "-") ? opt.input : "<stdin>", j->line,
                                     "more than %lld requests (--max-requests; job '%s' has one per instance)",
                                     opt.max_requests, j->job);
                        free(reqs);
                        keyset_free(have);
                        if (rep)
                            csvw_free(rep);
                        if (orep)
                            outf_finish(orep, SLK_EDATA); /* the old report stays */
                        plan_free(p);
                        return slk_finish(SLK_EDATA);
                    }
                    q.kind = PLAN_ONCE;
                    q.instance = n;
                    q.cycle = (int64_t)floor(((double)n * s->period + s->a) / (double)p->lcm);
                    reqs = xgrow(reqs, &reqcap, nreq + 1, sizeof *reqs);
                    reqs[nreq++] = q;
                }
            }
        }
    for (size_t i = 0; i < slos.n; i++)
        if (!slos.v[i].mark && slos.v[i].usable) {
            n_skipped++;
            report(slos.v[i].job, "", -1, "skipped", 0, 0, p->step, NAN, NAN, "no skyline for the job");
        }
    if (need_at && !slk_opt.quiet)
        fprintf(stderr, "%s: warning: some jobs have periods that do not divide the lcm %ld s: give --at TIME to "
                        "plan their instances\n", slk_progname, p->lcm);

    /* --order tight: least flexible first, periodic before once, stable */
    if (opt.tight && nreq > 1) {
        struct slack_ix *ix = xmalloc(nreq * sizeof *ix);
        for (size_t i = 0; i < nreq; i++) {
            long lo, hi;
            ix[i].i = i;
            ix[i].once = reqs[i].kind == PLAN_ONCE;
            ix[i].slack = lowcost_window(p, &reqs[i], &lo, &hi) < 0 ? -1 : hi - lo - req_need(&reqs[i]);
        }
        qsort(ix, nreq, sizeof *ix, slack_cmp);
        struct lowcost_req *sorted = xmalloc(nreq * sizeof *sorted);
        for (size_t i = 0; i < nreq; i++)
            sorted[i] = reqs[ix[i].i];
        free(reqs);
        free(ix);
        reqs = sorted;
    }

    /* --replan: free the jobs that are requested again before placing anything */
    if (opt.replan) {
        /* mark first, rebuild the load once: replanning 10,000 jobs must not
         * rebuild it 10,000 times */
        keyset *again = keyset_new();
        for (size_t i = 0; i < nreq; i++) {
            char *key = res_key(reqs[i].job, reqs[i].kind == PLAN_ONCE, reqs[i].instance);
            if (keyset_has(have, key))
                keyset_add(again, reqs[i].job);
            free(key);
        }
        if (keyset_size(again)) {
            for (size_t k = 0; k < p->nres; k++)
                if (!p->res[k].removed && keyset_has(again, p->res[k].job))
                    p->res[k].removed = 1;
            plan_recompute_load(p);
        }
        keyset_free(again);
    }

    /* place */
    double fixed_lb = 0;
    struct lowcost_opts lo = {.max_ends = opt.ends, .chunks = opt.chunks, .align_weight = opt.align_weight,
                              .max_stretch = opt.stretch};
    double *pres = NULL;
    if (opt.lookahead > 0 && !opt.earliest) {
        pres = xcalloc((size_t)p->nsteps, sizeof(double));
        for (size_t i = 0; i < nreq; i++)
            spread_pressure(p, &reqs[i], pres, opt.lookahead);
        lo.pressure = pres;
    }
    double t0 = slk_now();
    lowcost_ws *ws = lowcost_ws_new();
    /* decisions are reported once placing (and --improve) is over */
    struct decision *dec = xcalloc(nreq ? nreq : 1, sizeof *dec);
    size_t *ids = xcalloc(nreq ? nreq : 1, sizeof *ids);
    for (size_t i = 0; i < nreq; i++) {
        struct lowcost_req *q = &reqs[i];
        ids[i] = (size_t)-1;
        if (pres)
            spread_pressure(p, q, pres, -opt.lookahead);
        char *key = res_key(q->job, q->kind == PLAN_ONCE, q->instance);
        int had = keyset_has(have, key);
        free(key);
        n_requests++;
        if (had && !opt.replan) {
            n_kept++;
            dec[i].status = "kept";
            continue;
        }
        struct lowcost_result res;
        int ok = opt.earliest ? lowcost_place_earliest(ws, p, q, &res) : lowcost_place(ws, p, q, &lo, &res);
        if (ok) {
            n_placed++;
            ids[i] = p->nres - 1;
            double h = lowcost_min_height(p, q);
            if (h > fixed_lb)
                fixed_lb = h;
            dec[i] = (struct decision){"placed", res.start, res.len, res.cost, res.penalty, NULL};
        } else {
            n_rejected++;
            dec[i] = (struct decision){"rejected", 0, 0, NAN, NAN, xstrdup(res.why)};
        }
        slk_progress("requests placed", i + 1, nreq);
    }
    slk_progress_done();
    struct lowcost_improve_stats imp = {0};
    if (opt.improve > 0 && !opt.earliest && n_placed) {
        lowcost_improve(ws, p, reqs, nreq, ids, &lo, opt.improve, &imp);
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
    for (size_t i = 0; i < nreq; i++) {
        const struct lowcost_req *q = &reqs[i];
        const char *kind = q->kind == PLAN_ONCE ? "once" : "periodic";
        int64_t inst = q->kind == PLAN_ONCE ? q->instance : -1;
        if (!dec[i].status)
            continue;
        report(q->job, kind, inst, dec[i].status, dec[i].start, dec[i].len, p->step, dec[i].cost, dec[i].pen,
               dec[i].why ? dec[i].why
                          : strcmp(dec[i].status, "kept") == 0 ? "already in the plan (--replan moves it)" : "");
        free(dec[i].why);
    }
    free(dec);
    free(ids);
    lowcost_ws_free(ws);
    double elapsed = slk_now() - t0;
    free(pres);

    /* lower bound: kept reservations are fixed demands; area over the cycle */
    struct bound bd = {.fixed_lb = fixed_lb};
    double capsum_c = 0, capsum_m = 0;
    for (long s = 0; s < p->nsteps; s++) {
        capsum_c += p->cap_cores[s];
        capsum_m += p->cap_mem[s];
        if (p->cap_cores[s] > bd.maxcap_c) bd.maxcap_c = p->cap_cores[s];
        if (p->cap_mem[s] > bd.maxcap_m) bd.maxcap_m = p->cap_mem[s];
    }
    /* the plan's reservations in file order: from the index, or read */
    size_t nres_live = 0;
    for (size_t k = 0; idx && k < idx->nres; k++) {
        const struct planidx_res *r = &idx->res[k];
        char *key = res_key(r->job, r->kind == PLAN_ONCE, r->instance);
        bound_add(p, r, keyset_has(have, key) && !opt.replan, &bd);
        free(key);
        nres_live++;
    }
    for (size_t k = 0; k < p->nres; k++) {
        const struct plan_res *r = &p->res[k];
        if (r->removed)
            continue;
        struct planidx_res sum;
        planidx_summary(p, r, &sum);
        char *key = res_key(r->job, r->kind == PLAN_ONCE, r->instance);
        bound_add(p, &sum, keyset_has(have, key) && !opt.replan, &bd);
        free(key);
        nres_live++;
    }
    fixed_lb = bd.fixed_lb;
    double area_lb = fmax(capsum_m > 0 ? bd.area_m / capsum_m : 0, capsum_c > 0 ? bd.area_c / capsum_c : 0);
    double lb = fmax(fixed_lb, area_lb);
    long peak_s;
    double peak = plan_peak(p, &peak_s);

    /* outputs */
    const char *how = ""; /* how the plan was written, for the summary */
    if (st == SLK_OK && opt.load_out) {
        outf *ol = outf_open(opt.load_out, &st);
        if (ol) {
            csvw *w = csvw_new(outf_fp(ol));
            plan_write_load(p, w);
            csvw_free(w);
            st = outf_finish(ol, st);
        }
    }
    if (st == SLK_OK && opt.plan_out)
        st = save_plan(p, opt.plan_out);
    if (st == SLK_OK) {
        if (opt.have_query) {
            outf *o = outf_open(slk_opt.output, &st);
            if (o) {
                csvw *w = csvw_new(outf_fp(o));
                static const char *const qcols[] = {"job", "containers", "cores", "mem_mb", NULL};
                csvw_header(w, qcols);
                keyset *seen = keyset_new();
                for (size_t k = 0; k < p->nres; k++) {
                    const struct plan_res *r = &p->res[k];
                    int64_t nc;
                    double qc, qm;
                    if (r->removed || !keyset_add(seen, r->job))
                        continue;
                    if (plan_alloc_at(p, r->job, opt.query, &nc, &qc, &qm) > 0 && nc > 0) {
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
                st = outf_finish(o, werr ? SLK_EIO : SLK_OK);
            }
        } else if (opt.yarn) {
            outf *o = outf_open(slk_opt.output, &st);
            if (o) {
                write_yarn(p, outf_fp(o));
                st = outf_finish(o, ferror(outf_fp(o)) ? SLK_EIO : SLK_OK);
            }
        } else if (idx) {
            /* in place: the new reservations are one more segment of the file */
            if (p->nres) {
                struct plan_mark m;
                st = plan_append(p, slk_opt.output, &idx->mark, &m);
                if (st == SLK_OK) {
                    how = " (appended in place)";
                    st = planidx_save(idx, p, slk_opt.output, &m);
                }
            } else {
                how = " (from the index: plan file unchanged)";
            }
        } else {
            st = save_plan(p, slk_opt.output);
        }
    }
    if (orep) {
        csvw_free(rep);
        rep = NULL;
        st = outf_finish(orep, st);
    }
    if (!slk_opt.quiet && peak > 1 + 1e-9)
        fprintf(stderr,
                "%s: warning: the plan exceeds the capacity (cost %.4f at t=%ld s): existing reservations stay where "
                "they are; free some with --remove or move them with --replan\n",
                slk_progname, peak, peak_s * p->step);
    char lcm_text[48] = "none";
    if (lcm_periods > 0)
        snprintf(lcm_text, sizeof lcm_text, "%lld s", lcm_periods);
    if (!slk_opt.quiet) {
        fprintf(stderr,
                "%s: %ld requests: %ld placed, %ld rejected, %ld kept; %ld skipped, %ld removed, %ld expired; "
                "plan: %zu reservations over a %ld s cycle (LCM of the new periods %s) in %ld s steps%s\n",
                slk_progname, n_requests, n_placed, n_rejected, n_kept, n_skipped, n_removed, n_expired, nres_live,
                p->lcm, lcm_text, p->step, how);
        fprintf(stderr,
                "%s: peak cost %.4f at t=%ld s; lower bound %.4f (fixed demand %.4f, area/lcm %.4f): %.3fx; "
                "placement %.4f s (%s)\n",
                slk_progname, peak, peak_s * p->step, lb, fixed_lb, area_lb, lb > 0 ? peak / lb : 1.0, elapsed,
                opt.earliest ? "earliest start" : "lowcost");
        if (opt.improve > 0 && !opt.earliest)
            fprintf(stderr,
                    "%s: --improve: %ld moves in %ld rounds, then %ld moves in %ld flattening rounds "
                    "(peak %.4f before, %.4f after descent, %.4f after)\n",
                    slk_progname, imp.moves, imp.rounds, imp.flat_moves, imp.flat_rounds, imp.peak_before,
                    imp.peak_descent, peak);
    }
    keyset_free(have);
    free(reqs);
    for (size_t i = 0; i < njobs; i++) {
        free(jobs[i].job);
        free(jobs[i].st);
    }
    free(jobs);
    slo_reqs_free(&slos);
    plan_free(p);
    planidx_free(idx);
    if (st == SLK_OK && opt.strict && n_rejected)
        st = SLK_FAIL;
    return slk_finish(st);
}
