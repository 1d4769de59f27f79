/* classpick — Algorithm 1 of seed 003: choose the utilization classes (from
 * tenantclass) that a batch job should harvest, and --simulate a month of
 * harvesting with and without the classes.
 *
 *   jobs: job[,last_duration][,containers]   (+ --dag FILE: job,vertex,tasks,parent)
 *   classes: class,pattern,avg_util,peak_util,servers[,current_util]
 *   ->  job,type,demand,classes,reason
 *
 *   --simulate: tenant series (tenant,t,util) + tenantclass's per-tenant
 *   output + class table -> policy,jobs,finished,tasks,killed,mean_exec_s,...
 *
 * The selection rules live in lib/harvest/classpick, the tables' readers in
 * lib/harvest/cptable, the month simulator in lib/harvest/classsim; this
 * file books containers across the jobs of a jobs file and prints the
 * summaries.  The model and every default are in classpick(1).
 */
#include "harvest/classpick.h"
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/keyset.h"
#include "base/keytab.h"
#include "base/outfile.h"
#include "base/parse.h"
#include "base/rng.h"
#include "harvest/classsim.h"
#include "harvest/cptable.h"
#include "harvest/tenantio.h"

#include <argp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct cp_params P;
static struct {
    const char *classes_path, *current_path, *dag_path;
    int percent;
    int no_book;
    int simulate;
    const char *series_path, *tenants_path, *servers_path;
    double step;
    long jobs;           /* 0: from --load */
    double load;
    double tasks_mean;
    double never_seen;   /* share of jobs without a last run */
    int in_sample;       /* replay the whole series (else from the split on) */
    double split;        /* first replayed time; NaN: the middle of the series */
    const char *sim_opt; /* the first option of --simulate's group given */
    int have_load;
} opt = {.step = 120, .load = 0.5, .tasks_mean = 40, .never_seen = 0.1, .split = NAN};
static const char *input;

enum {
    OPT_CLASSES = 1000,
    OPT_CURRENT,
    OPT_DAG,
    OPT_SCALE,
    OPT_SHORT_MAX,
    OPT_LONG_MIN,
    OPT_WEIGHT,
    OPT_RESERVE,
    OPT_CORES,
    OPT_NO_BOOK,
    OPT_SIMULATE,
    OPT_SERIES,
    OPT_TENANTS,
    OPT_SERVERS,
    OPT_STEP,
    OPT_JOBS,
    OPT_LOAD,
    OPT_TASKS,
    OPT_NEVER,
    OPT_SAMPLE,
    OPT_SPLIT
};

static const struct argp_option options[] = {
    {0, 0, 0, 0, "Classes and jobs:", 1},
    {"classes", OPT_CLASSES, "FILE", 0, "The class table (tenantclass --classes); required", 1},
    {"current", OPT_CURRENT, "FILE", 0, "Current utilization per class (class,current_util); else the table's current_util column, else avg_util", 1},
    {"dag", OPT_DAG, "FILE", 0, "Job DAGs as edges job,vertex,tasks,parent (empty parent: a source); demand by breadth-first traversal", 1},
    {"scale", OPT_SCALE, "fraction|percent", 0, "Scale of utilizations in the tables (default fraction)", 1},
    {"no-book", OPT_NO_BOOK, 0, 0, "Decide every job against the same free room (default: containers given to a job are booked, later jobs see less)", 1},
    {0, 0, 0, 0, "Algorithm 1:", 2},
    {"short-max", OPT_SHORT_MAX, "DUR", 0, "A job whose last run took less is short (default 173s)", 2},
    {"long-min", OPT_LONG_MIN, "DUR", 0, "A job whose last run took more is long (default 433s)", 2},
    {"weight", OPT_WEIGHT, "TYPE.PATTERN=W", 0, "Ranking weight (repeatable); defaults 3,2,1: long constant>periodic>unpredictable, medium periodic>constant>unpredictable, short unpredictable>periodic>constant", 2},
    {"reserve", OPT_RESERVE, "F", 0, "Share of each server's cores kept for the primary tenant (default 0.33)", 2},
    {"cores", OPT_CORES, "N", 0, "Cores per server; a container is one core (default 12)", 2},
    {0, 0, 0, 0, "Simulation (--simulate):", 3},
    {"simulate", OPT_SIMULATE, 0, 0, "Replay the tenants' utilization with a stream of jobs; compare class-aware placement with YARN-PT", 3},
    {"series", OPT_SERIES, "FILE", 0, "Utilization series tenant,t,util to replay (grouped by tenant)", 3},
    {"tenants", OPT_TENANTS, "FILE", 0, "tenantclass's per-tenant output (columns tenant,class,avg,peak)", 3},
    {"servers", OPT_SERVERS, "FILE", 0, "Servers per tenant (tenant,servers), e.g. tracegen's truth; default 1", 3},
    {"step", OPT_STEP, "DUR", 0, "Simulation tick = series step (default 2m, at most 1d)", 3},
    {"jobs", OPT_JOBS, "N", 0, "Jobs to submit (default: from --load)", 3},
    {"load", OPT_LOAD, "F", 0, "Offered load as a share of the mean harvestable cores (default 0.5)", 3},
    {"tasks", OPT_TASKS, "N", 0, "Mean tasks (containers) per job (default 40)", 3},
    {"never-seen", OPT_NEVER, "F", 0, "Share of jobs with no last run (default 0.1)", 3},
    {"sample", OPT_SAMPLE, "out|in", 0,
     "out: replay --series from --split on, the part after the history --tenants and --classes were "
     "learned from (default); in: replay all of it (the history is the replayed period)", 3},
    {"split", OPT_SPLIT, "TIME", 0,
     "First replayed time with --sample out (default: the middle of the series)", 3},
    {0}
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    if (!opt.sim_opt && key != OPT_SIMULATE)
        opt.sim_opt = cli_group_option(options, key, 3);
    switch (key) {
    case OPT_CLASSES: opt.classes_path = arg; break;
    case OPT_CURRENT: opt.current_path = arg; break;
    case OPT_DAG: opt.dag_path = arg; break;
    case OPT_SCALE:
        opt.percent = cli_choice(st, "scale", arg, (const char *const[]){"fraction", "percent", NULL});
        break;
    case OPT_NO_BOOK: opt.no_book = 1; break;
    case OPT_SHORT_MAX: P.short_max = cli_duration(st, "short-max", arg, 0); break;
    case OPT_LONG_MIN: P.long_min = cli_duration(st, "long-min", arg, 0); break;
    case OPT_WEIGHT: {
        char *s = xstrdup(arg), *dot = strchr(s, '.'), *eq = strchr(s, '=');
        if (!dot || !eq || eq < dot)
            argp_error(st, "invalid value for --weight: '%s' (want TYPE.PATTERN=W, e.g. long.constant=3)", arg);
        *dot = 0;
        *eq = 0;
        int t = cp_type_parse(s), p = cp_pattern_parse(dot + 1);
        if (t < 0)
            argp_error(st, "invalid value for --weight: unknown job type '%s' (want short, medium or long)", s);
        if (p < 0)
            argp_error(st, "invalid value for --weight: unknown pattern '%s' (want periodic, constant or unpredictable)", dot + 1);
        P.weight[t][p] = cli_double(st, "weight", eq + 1, 0, 1e9);
        free(s);
        break;
    }
    case OPT_RESERVE: P.reserve = cli_double(st, "reserve", arg, 0, 0.99); break;
    case OPT_CORES: P.cores = (double)cli_int(st, "cores", arg, 1, 100000); break;
    case OPT_SIMULATE: opt.simulate = 1; break;
    case OPT_SERIES: opt.series_path = arg; break;
    case OPT_TENANTS: opt.tenants_path = arg; break;
    case OPT_SERVERS: opt.servers_path = arg; break;
    case OPT_STEP: opt.step = cli_duration_max(st, "step", arg, 1, 86400); break; /* the jobs scale with ticks x step */
    case OPT_JOBS: opt.jobs = (long)cli_int(st, "jobs", arg, 1, 10000000); break;
    case OPT_LOAD:
        opt.load = cli_double(st, "load", arg, 0.001, 10);
        opt.have_load = 1;
        break;
    case OPT_TASKS: opt.tasks_mean = cli_double(st, "tasks", arg, 1, 1e6); break;
    case OPT_NEVER: opt.never_seen = cli_double(st, "never-seen", arg, 0, 1); break;
    case OPT_SAMPLE:
        opt.in_sample = cli_choice(st, "sample", arg, (const char *const[]){"out", "in", NULL});
        break;
    case OPT_SPLIT: opt.split = cli_time(st, "split", arg); break;
    case ARGP_KEY_ARG:
        if (input)
            argp_error(st, "one jobs file at a time (got '%s' and '%s')", input, arg);
        input = arg;
        break;
    case ARGP_KEY_END:
        if (!opt.classes_path)
            argp_error(st, "--classes FILE is required (the class table from tenantclass --classes)");
        if (P.short_max > P.long_min)
            argp_error(st, "--short-max (%g s) must not exceed --long-min (%g s)", P.short_max, P.long_min);
        if (opt.simulate && (!opt.series_path || !opt.tenants_path))
            argp_error(st, "--simulate needs --series FILE and --tenants FILE");
        if (opt.in_sample && !isnan(opt.split))
            argp_error(st, "--split needs --sample out (an in-sample run replays the whole series)");
        if (!opt.simulate && opt.sim_opt) /* it would be ignored */
            argp_error(st, "--%s needs --simulate", opt.sim_opt);
        if (opt.jobs && opt.have_load)
            argp_error(
                st, "--jobs and --load exclude each other (--jobs sets the count, else --load derives it)");
        if (opt.simulate && (input || opt.dag_path))
            argp_error(st, "--simulate makes its own job stream (no jobs FILE or --dag)");
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static double uscale(void) { return opt.percent ? 100 : 1; }

/* ---- picking classes for a jobs file -------------------------------------------- */

/* the demand of a job row: its containers, or its DAG's; -1 (reported) on a bad row */
static int job_demand(csvr *r, const struct cp_dagtab *dags, int cc, const char *job, double *demand)
{
    *demand = -1;
    int got = cc >= 0 ? csvr_get_double(r, cc, demand, CSVR_NONNEG | CSVR_BOUNDED) : 0;
    if (got < 0)
        return -1;
    if (got == 0) {
        const struct cp_dagdemand *dd = cp_dag_lookup(dags, job);
        if (!dd)
            return csvr_fail(r, "job '%s': no containers value and no DAG in --dag", job);
        *demand = dd->demand;
    }
    if (*demand != floor(*demand))
        return csvr_fail(r, "job '%s': containers must be a whole number, got %g", job, *demand);
    return 0;
}

/* Algorithm 1 for one job (cp_pick); writes its row.  Returns the outcome. */
static int pick_one(struct cp_table *ct, csvw *w, size_t *chosen, const char *job, int type, double demand)
{
    char names[4096], reason[512];
    int out = cp_pick(&P, ct, slk_opt.seed, job, type, demand, !opt.no_book, chosen, names, sizeof names, reason,
                      sizeof reason);
    csvw_str(w, job);
    csvw_str(w, cp_type_name(type));
    csvw_num(w, demand);
    csvw_str(w, names);
    csvw_str(w, reason);
    csvw_end(w);
    return out;
}

/* the jobs' columns, by name (its --col KEYs) */
static const char *const job_keys[] = {"job", "last_duration", "containers", NULL};

static int pick_jobs(struct cp_table *ct, const struct cp_dagtab *dags, csvw *w)
{
    int st;
    csvr *r = csvr_open_with(input ? input : "-", cli_dialect(NULL), 0, &st);
    if (!r)
        return st;
    int cj = csvr_require(r, "job");
    int cd = csvr_col(r, "last_duration"), cc = csvr_col(r, "containers");
    if (cj >= 0 && cc < 0 && !opt.dag_path) {
        slk_error_at(csvr_path(r), 1, "no 'containers' column and no --dag: cannot tell the jobs' demand");
        cj = -1;
    }
    if (cj < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    static const char *const hdr[] = {"job", "type", "demand", "classes", "reason", NULL};
    csvw_header(w, hdr);
    size_t *chosen = xmalloc(ct->n * sizeof *chosen);
    long count[CP_NO_DEMAND + 1] = {0}, bytype[CP_NTYPES] = {0};
    keyset *seen = keyset_new();
    while (csvr_next(r) > 0) {
        const char *job = csvr_field_required(r, cj, "job");
        double last = -1, demand = -1;
        int bad = !job                                                                         ? -1
                  : cd >= 0 && csvr_get_duration(r, cd, &last, CSVR_NONNEG | CSVR_BOUNDED) < 0 ? -1
                  : job_demand(r, dags, cc, job, &demand) < 0                                  ? -1
                  : !keytab_row(seen, r, cj)                                                   ? -1
                                                                                               : 0;
        if (bad < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        int type = cp_job_type(&P, last);
        count[pick_one(ct, w, chosen, job, type, demand)]++;
        bytype[type]++;
    }
    st = csvr_status(r);
    if (!st && !slk_opt.quiet) {
        char nodemand[64] = ""; /* a job of no containers is none of the three */
        if (count[CP_NO_DEMAND])
            snprintf(nodemand, sizeof nodemand, ", %ld needed no containers", count[CP_NO_DEMAND]);
        fprintf(slk_summary(),
                "classpick: %ld jobs (%ld short, %ld medium, %ld long by %gs/%gs): %ld in one class, %ld "
                "across classes, %ld not placed%s%s\n",
                bytype[0] + bytype[1] + bytype[2], bytype[0], bytype[1], bytype[2], P.short_max, P.long_min,
                count[CP_ONE], count[CP_SEVERAL], count[CP_NONE], nodemand,
                opt.no_book ? " (--no-book: rooms not reduced between jobs)" : "");
    }
    keyset_free(seen);
    free(chosen);
    csvr_close(r);
    return st;
}

/* ---- the simulation ---------------------------------------------------------------- */

static void sim_summary(size_t nt, const struct cs_tenant *tn, long nticks, const struct cs_stream *s,
                        const struct cs_result *res, double t0, long skipped)
{
    if (slk_opt.quiet)
        return;
    if (!opt.in_sample)
        fprintf(slk_summary(),
                "classpick: out of sample: replaying from %.0f (%ld ticks of history before it)\n",
                t0 + (double)skipped * opt.step, skipped);
    double srv = 0, reserve_cores = ceil(P.reserve * P.cores - 1e-9);
    for (size_t i = 0; i < nt; i++)
        srv += tn[i].servers;
    fprintf(
        slk_summary(),
        "classpick: simulated %zu tenants (%g servers x %g cores, reserve %g cores) over %ld ticks of %g s; "
        "%ld jobs (mean %g tasks) offered at %g of the mean harvestable %.0f cores\n",
        nt, srv, P.cores, reserve_cores, nticks, opt.step, s->nj, opt.tasks_mean,
        opt.jobs ? s->nj * opt.tasks_mean * s->mean_dur / (0.9 * s->span) / (s->harvest > 0 ? s->harvest : 1)
                 : opt.load,
        s->harvest);
    /* the change in percent only when yarn-pt killed some */
    fprintf(slk_summary(), "classpick: killed tasks: yarn-pt %ld, class-aware %ld", res[0].killed,
            res[1].killed);
    if (res[0].killed > 0)
        fprintf(slk_summary(), " (%+.1f%%)",
                100.0 * (double)(res[1].killed - res[0].killed) / (double)res[0].killed);
    if (res[0].finished > 0 && res[1].finished > 0)
        fprintf(slk_summary(), "; mean job time: yarn-pt %.0f s, class-aware %.0f s (%+.1f%%)", res[0].mean,
                res[1].mean, 100.0 * (res[1].mean - res[0].mean) / res[0].mean);
    fprintf(slk_summary(), "; unfinished jobs: yarn-pt %ld, class-aware %ld\n", res[0].waiting,
            res[1].waiting);
}

static int run_simulation(struct cp_table *ct, csvw *w)
{
    struct cs_tenant *tn = NULL;
    size_t nt = 0;
    long nticks = 0, skipped = 0;
    double t0 = 0;
    int st = cs_read_tenants(opt.tenants_path, cli_dialect("tenants"), ct->c, ct->n, opt.classes_path, uscale(),
                             &tn, &nt);
    if (!st && nt == 0) {
        slk_error_at(opt.tenants_path, 0, "no tenants");
        st = SLK_EDATA;
    }
    if (!st && opt.servers_path) {
        size_t unlisted = 0;
        const char *first = NULL;
        st = cs_read_servers(opt.servers_path, cli_dialect("servers"), tn, nt, &unlisted, &first);
        /* as tenantclass: a tenant --servers misses (a typo, another truth
         * file) is simulated, with the default 1 server, and counted */
        if (!st && unlisted && !slk_opt.quiet)
            fprintf(stderr,
                    "classpick: warning: %zu of %zu tenants are not in --servers %s (first: '%s'); counted "
                    "as 1 server\n",
                    unlisted, nt, opt.servers_path, first);
    }
    if (!st)
        st = cs_read_series(opt.series_path, cli_dialect("series"), uscale(), opt.step, tn, nt, &nticks, &t0);
    if (!st && !opt.in_sample)
        st = cs_replay_window(opt.series_path, tn, nt, &nticks, t0, opt.step, opt.split, &skipped);
    if (!st) {
        /* a class's servers are its simulated tenants' servers (the table
         * may have been made without --servers) */
        for (size_t c = 0; c < ct->n; c++)
            ct->c[c].servers = 0;
        for (size_t i = 0; i < nt; i++)
            ct->c[tn[i].cls].servers += tn[i].servers;
        struct cs_stream s;
        cs_stream_make(&P, tn, nt, nticks, opt.step, opt.jobs, opt.load, opt.tasks_mean, opt.never_seen, slk_opt.seed,
                       &s);
        struct cs_result res[2];
        for (int a = 0; a < 2; a++) {
            cs_simulate(&P, opt.step, slk_opt.seed, a, tn, nt, nticks, s.jobs, (size_t)s.nj, ct->c, ct->n, &res[a]);
            slk_progress("policies", (uint64_t)a + 1, 2);
        }
        slk_progress_done();
        cs_write_results(w, &s, res, uscale());
        sim_summary(nt, tn, nticks, &s, res, t0, skipped);
        free(s.jobs);
    }
    cs_tenants_free(tn, nt);
    return st;
}

/* the classes' current utilization: --current, else the table's; a pick
 * without one uses avg_util (with a warning) */
static int current_util(struct cp_table *ct)
{
    int st = SLK_OK;
    if (opt.current_path) {
        st = cp_read_current(opt.current_path, cli_dialect("current"), uscale(), opt.classes_path, ct);
        ct->have_current = 1;
        for (size_t i = 0; i < ct->n; i++)
            if (isnan(ct->c[i].current))
                ct->have_current = 0;
    }
    if (!st && !opt.simulate) {
        int filled = 0;
        for (size_t i = 0; i < ct->n; i++)
            if (isnan(ct->c[i].current)) {
                ct->c[i].current = ct->c[i].avg;
                filled++;
            }
        if (filled && !slk_opt.quiet)
            fprintf(stderr, "classpick: warning: no current utilization for %d of %zu classes (no current_util column "
                            "or --current); using their avg_util\n", filled, ct->n);
    }
    return st;
}

int main(int argc, char **argv)
{
    slk_init("classpick");
    cp_params_default(&P);
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {
        options, parse_opt, "[JOBS.csv]",
        "Choose the utilization classes a batch job should harvest (Algorithm 1 of the harvesting paper), "
        "or --simulate a month of harvesting with and without the classes.\n"
        "Jobs: job[,last_duration][,containers]; classes: tenantclass --classes output.\n"
        "Output: job,type,demand,classes,reason ('+' joins several classes; empty: none fits).  "
        OUTF_HELD_HELP
        "\vExamples:\n"
        "  tenantclass --servers truth.csv --classes cl.csv util.csv > tenants.csv\n"
        "  classpick --classes cl.csv --current now.csv jobs.csv\n"
        "  classpick --classes cl.csv --dag dags.csv dagjobs.csv   # demand by BFS\n"
        "  classpick --simulate --classes cl.csv --tenants tenants.csv \\\n"
        "      --series util.csv --servers truth.csv",
        kids, NULL, NULL};
    cli_roles("jobs", "classes", "current", "dag", "tenants", "servers", "series", (const char *)NULL);
    cli_keys("jobs", job_keys);
    cli_keys("classes", cp_class_keys);
    cli_keys("current", cp_current_keys);
    cli_keys("dag", cp_dag_keys);
    cli_keys("tenants", cs_tenant_keys);
    cli_keys("servers", tenantio_server_keys);
    cli_keys("series", cs_series_keys);
    cli_refuse("time-unit", "its jobs hold no times (the --series times are epoch seconds or ISO 8601)");
    cli_parse(&argp, argc, argv, NULL);
    cli_outputs(NULL, 0);

    struct cp_table ct = {0};
    struct cp_dagtab dags = {0};
    int st = cp_read_classes(opt.classes_path, cli_dialect("classes"), uscale(), &ct);
    if (!st)
        st = current_util(&ct);
    if (!st && opt.dag_path)
        st = cp_read_dags(opt.dag_path, cli_dialect("dag"), &dags);
    outf *o = NULL;
    if (!st)
        o = outf_open_held(slk_opt.output, &st); /* a late bad job row leaves stdout empty */
    if (o) {
        csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
        st = opt.simulate ? run_simulation(&ct, w) : pick_jobs(&ct, &dags, w);
        if (!st && csvw_error(w))
            st = SLK_EIO;
        csvw_free(w);
        st = outf_finish(o, st);
    }
    cp_table_free(&ct);
    cp_dagtab_free(&dags);
    return slk_finish(st);
}
