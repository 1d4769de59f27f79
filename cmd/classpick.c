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
 * The selection rules live in lib/harvest/classpick; this file reads the tables,
 * computes DAG demands, books containers across jobs, and holds the
 * simulator.  The model and every default are in classpick(1).
 */
#include "harvest/classpick.h"
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/keyset.h"
#include "base/outfile.h"
#include "base/parse.h"
#include "base/rng.h"
#include "base/stats.h"

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
} opt = {.step = 120, .load = 0.5, .tasks_mean = 40, .never_seen = 0.1, .split = NAN};
static const char *input;

enum {
    OPT_CLASSES = 1000, OPT_CURRENT, OPT_DAG, OPT_SCALE, OPT_SHORT_MAX, OPT_LONG_MIN, OPT_WEIGHT, OPT_RESERVE,
    OPT_CORES, OPT_NO_BOOK, OPT_SIMULATE, OPT_SERIES, OPT_TENANTS, OPT_SERVERS, OPT_STEP, OPT_JOBS, OPT_LOAD,
    OPT_TASKS, OPT_NEVER, OPT_SAMPLE, OPT_SPLIT
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
    {"tenants", OPT_TENANTS, "FILE", 0, "tenantclass's per-tenant output (tenant,pattern,class)", 3},
    {"servers", OPT_SERVERS, "FILE", 0, "Servers per tenant (tenant,servers), e.g. tracegen's truth; default 1", 3},
    {"step", OPT_STEP, "DUR", 0, "Simulation tick = series step (default 2m)", 3},
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
    case OPT_STEP: opt.step = cli_duration(st, "step", arg, 1); break;
    case OPT_JOBS: opt.jobs = (long)cli_int(st, "jobs", arg, 1, 10000000); break;
    case OPT_LOAD: opt.load = cli_double(st, "load", arg, 0.001, 10); break;
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
        if (opt.simulate && (input || opt.dag_path))
            argp_error(st, "--simulate makes its own job stream (no jobs FILE or --dag)");
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* ---- the class table ---------------------------------------------------------- */

struct classtab {
    struct cp_class *c;
    size_t n;
    int have_current;
};

static double util_in(double v) { return opt.percent ? v / 100 : v; }

static long class_find(const struct classtab *ct, const char *name)
{
    for (size_t i = 0; i < ct->n; i++)
        if (strcmp(ct->c[i].name, name) == 0)
            return (long)i;
    return -1;
}

static int read_classes(struct classtab *ct)
{
    int st;
    csvr *r = csvr_open_with(opt.classes_path, cli_dialect("classes"), 0, &st);
    if (!r)
        return st;
    int cc = csvr_require(r, "class"), cp = cc < 0 ? -1 : csvr_require(r, "pattern");
    int ca = cp < 0 ? -1 : csvr_require(r, "avg_util"), ck = ca < 0 ? -1 : csvr_require(r, "peak_util");
    int cs = ck < 0 ? -1 : csvr_require(r, "servers");
    int ccur = csvr_col(r, "current_util");
    if (cs < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    size_t cap = 0;
    double umax = opt.percent ? 100 : 1;
    ct->have_current = ccur >= 0;
    while (csvr_next(r) > 0) {
        const char *name = csvr_field(r, cc), *pn = csvr_field(r, cp);
        if (!name) {
            csvr_fail(r, "column 'class': missing value");
            break;
        }
        if (class_find(ct, name) >= 0) {
            csvr_fail(r, "class '%s' is listed twice", name);
            break;
        }
        int pat = cp_pattern_parse(pn);
        if (pat < 0) {
            csvr_fail(r, "column 'pattern': '%s' is not periodic, constant or unpredictable", pn ? pn : "");
            break;
        }
        double a, k, s, cur = NAN;
        if (csvr_get_double(r, ca, &a, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
            csvr_get_double(r, ck, &k, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
            csvr_get_double(r, cs, &s, CSVR_REQUIRED | CSVR_NONNEG) < 0)
            break;
        int got = ccur >= 0 ? csvr_get_double(r, ccur, &cur, CSVR_NONNEG) : 0;
        if (got < 0)
            break;
        if (got == 0)
            ct->have_current = 0;
        if (a > umax || k > umax || (got > 0 && cur > umax)) {
            csvr_fail(r, "utilization above %g%s", umax, opt.percent ? "" : " (for 0-100 tables use --scale percent)");
            break;
        }
        ct->c = xgrow(ct->c, &cap, ct->n + 1, sizeof *ct->c);
        struct cp_class *c = &ct->c[ct->n++];
        memset(c, 0, sizeof *c);
        c->name = xstrdup(name);
        c->pattern = pat;
        c->avg = util_in(a);
        c->peak = util_in(k);
        c->servers = s;
        c->current = got > 0 ? util_in(cur) : NAN;
    }
    st = csvr_status(r);
    csvr_close(r);
    if (!st && ct->n == 0) {
        slk_error_at(opt.classes_path, 0, "no classes");
        st = SLK_EDATA;
    }
    return st;
}

static int read_current(struct classtab *ct)
{
    int st;
    csvr *r = csvr_open_with(opt.current_path, cli_dialect("current"), 0, &st);
    if (!r)
        return st;
    int cc = csvr_require(r, "class"), cu = cc < 0 ? -1 : csvr_require(r, "current_util");
    if (cu < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    while (csvr_next(r) > 0) {
        const char *name = csvr_field(r, cc);
        long i = name ? class_find(ct, name) : -1;
        if (i < 0) {
            csvr_fail(r, "class '%s' is not in --classes %s", name ? name : "", opt.classes_path);
            break;
        }
        double u;
        if (csvr_get_double(r, cu, &u, CSVR_REQUIRED | CSVR_NONNEG) < 0)
            break;
        if (u > (opt.percent ? 100 : 1)) {
            csvr_fail(r, "column 'current_util': %g is above %g", u, opt.percent ? 100.0 : 1.0);
            break;
        }
        ct->c[i].current = util_in(u);
    }
    st = csvr_status(r);
    csvr_close(r);
    return st;
}

/* ---- DAGs ---------------------------------------------------------------------- */

struct dagdemand { char *job; double demand; int levels; };
static struct dagdemand *dags;
static size_t ndags;

static int cmp_dag(const void *a, const void *b)
{
    return strcmp(((const struct dagdemand *)a)->job, ((const struct dagdemand *)b)->job);
}

static int dag_finish(const char *job, cp_dag *d, const char *path, long line)
{
    int levels = 0;
    double m = cp_dag_max_concurrency(d, &levels);
    if (m < 0) {
        slk_error_at(path, line, "job '%s': the DAG has a cycle", job);
        return SLK_EDATA;
    }
    static size_t cap;
    dags = xgrow(dags, &cap, ndags + 1, sizeof *dags);
    dags[ndags].job = xstrdup(job);
    dags[ndags].demand = m;
    dags[ndags++].levels = levels;
    return SLK_OK;
}

/* Read job,vertex,tasks,parent (grouped by job); two passes per job are not
 * needed because an edge may name a parent declared later: edges are kept
 * until the job ends. */
static int read_dags(void)
{
    int st;
    csvr *r = csvr_open_with(opt.dag_path, cli_dialect("dag"), 0, &st);
    if (!r)
        return st;
    int cj = csvr_require(r, "job"), cv = cj < 0 ? -1 : csvr_require(r, "vertex");
    int ct = cv < 0 ? -1 : csvr_require(r, "tasks"), cp = ct < 0 ? -1 : csvr_require(r, "parent");
    if (cp < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    group_tracker g;
    group_init(&g);
    cp_dag *d = NULL;
    char *cur = NULL;
    long cur_line = 0;
    char **ep = NULL, **ec = NULL;
    long *eline = NULL;
    size_t ne = 0, ecap = 0, ecap2 = 0, ecap3 = 0;
    st = SLK_OK;
    for (;;) {
        int rc = csvr_next(r);
        const char *job = rc > 0 ? csvr_field(r, cj) : NULL;
        if (rc > 0 && !job) {
            csvr_fail(r, "column 'job': missing value");
            rc = -1;
        }
        int gc = rc > 0 ? group_check(&g, job) : 1;
        if (gc < 0) {
            csvr_fail(r, "job '%s' appears again after other jobs: --dag not grouped by job", job);
            rc = -1;
        }
        if (rc < 0)
            break;
        if (gc == 1 && cur) { /* a job ended: add its edges, compute */
            for (size_t i = 0; i < ne && !st; i++)
                if (cp_dag_edge(d, ep[i], ec[i]) < 0) {
                    slk_error_at(csvr_path(r), eline[i], "job '%s': parent '%s' is not a vertex of the job", cur, ep[i]);
                    st = SLK_EDATA;
                }
            if (!st)
                st = dag_finish(cur, d, csvr_path(r), cur_line);
            for (size_t i = 0; i < ne; i++) {
                free(ep[i]);
                free(ec[i]);
            }
            ne = 0;
            cp_dag_free(d);
            d = NULL;
            free(cur);
            cur = NULL;
            if (st)
                break;
        }
        if (rc == 0)
            break;
        if (!cur) {
            cur = xstrdup(job);
            cur_line = csvr_line(r);
            d = cp_dag_new();
        }
        const char *v = csvr_field(r, cv), *par = csvr_field(r, cp);
        double tasks;
        if (!v) {
            csvr_fail(r, "column 'vertex': missing value");
            break;
        }
        if (csvr_get_double(r, ct, &tasks, CSVR_REQUIRED | CSVR_NONNEG) < 0)
            break;
        if (cp_dag_vertex(d, v, tasks) < 0) {
            csvr_fail(r, "job '%s': vertex '%s' is given two different task counts", job, v);
            break;
        }
        if (par) {
            ep = xgrow(ep, &ecap, ne + 1, sizeof *ep);
            ec = xgrow(ec, &ecap2, ne + 1, sizeof *ec);
            eline = xgrow(eline, &ecap3, ne + 1, sizeof *eline);
            ep[ne] = xstrdup(par);
            ec[ne] = xstrdup(v);
            eline[ne++] = csvr_line(r);
        }
    }
    if (!st)
        st = csvr_status(r);
    for (size_t i = 0; i < ne; i++) {
        free(ep[i]);
        free(ec[i]);
    }
    free(ep);
    free(ec);
    free(eline);
    cp_dag_free(d);
    free(cur);
    group_free(&g);
    csvr_close(r);
    if (!st)
        if (ndags > 1)
            qsort(dags, ndags, sizeof *dags, cmp_dag);
    return st;
}

static const struct dagdemand *dag_lookup(const char *job)
{
    struct dagdemand key = {(char *)job, 0, 0};
    return ndags ? bsearch(&key, dags, ndags, sizeof *dags, cmp_dag) : NULL;
}

/* ---- picking classes for a jobs file -------------------------------------------- */

static int pick_jobs(struct classtab *ct, csvw *w)
{
    int st;
    csvr *r = csvr_open_with(input ? input : "-", cli_dialect(NULL), 0, &st);
    if (!r)
        return st;
    int cj = csvr_require(r, "job");
    if (cj < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    int cd = csvr_col(r, "last_duration"), cc = csvr_col(r, "containers");
    if (cc < 0 && !opt.dag_path) {
        slk_error_at(csvr_path(r), 1, "no 'containers' column and no --dag: cannot tell the jobs' demand");
        csvr_close(r);
        return SLK_EDATA;
    }
    static const char *const hdr[] = {"job", "type", "demand", "classes", "reason", NULL};
    csvw_header(w, hdr);
    size_t *chosen = xmalloc(ct->n * sizeof *chosen);
    long count[3] = {0}, bytype[CP_NTYPES] = {0};
    keyset *seen = keyset_new();
    while (csvr_next(r) > 0) {
        const char *job = csvr_field(r, cj);
        if (!job) {
            csvr_fail(r, "column 'job': missing value");
            break;
        }
        if (!keyset_add(seen, job)) {
            csvr_fail(r, "job '%s' is listed twice", job);
            break;
        }
        double last = -1, demand = -1;
        if (cd >= 0 && csvr_get_duration(r, cd, &last, CSVR_NONNEG) < 0)
            break;
        int got = cc >= 0 ? csvr_get_double(r, cc, &demand, CSVR_NONNEG) : 0;
        if (got < 0)
            break;
        if (got == 0) {
            const struct dagdemand *dd = dag_lookup(job);
            if (!dd) {
                csvr_fail(r, "job '%s': no containers value and no DAG in --dag", job);
                break;
            }
            demand = dd->demand;
        }
        if (demand != floor(demand)) {
            csvr_fail(r, "job '%s': containers must be a whole number, got %g", job, demand);
            break;
        }
        int type = cp_job_type(&P, last);
        rng rr;
        rng_seed_key(&rr, slk_opt.seed, job);
        size_t nch = 0, nfit = 0;
        double total = 0;
        int out = demand > 0 ? cp_select(&P, type, demand, ct->c, ct->n, &rr, chosen, &nch, &nfit, &total) : CP_ONE;
        char names[4096] = "", reason[512];
        for (size_t i = 0; i < nch; i++) {
            if (i)
                strncat(names, "+", sizeof names - strlen(names) - 1);
            strncat(names, ct->c[chosen[i]].name, sizeof names - strlen(names) - 1);
        }
        if (demand == 0)
            snprintf(reason, sizeof reason, "no containers needed");
        else if (out == CP_ONE)
            snprintf(reason, sizeof reason, "fits in %zu of %zu classes; drawn by weighted headroom", nfit, ct->n);
        else if (out == CP_SEVERAL)
            snprintf(reason, sizeof reason, "no class fits alone; %zu classes hold it together", nch);
        else
            snprintf(reason, sizeof reason, "no combination fits: demand %g > free room %g containers", demand, total);
        csvw_str(w, job);
        csvw_str(w, cp_type_name(type));
        csvw_num(w, demand);
        csvw_str(w, names);
        csvw_str(w, reason);
        csvw_end(w);
        count[out]++;
        bytype[type]++;
        if (!opt.no_book && out != CP_NONE)
            cp_book(&P, type, demand, ct->c, chosen, nch);
    }
    st = csvr_status(r);
    if (!st && !slk_opt.quiet)
        fprintf(stderr, "classpick: %ld jobs (%ld short, %ld medium, %ld long by %gs/%gs): %ld in one class, %ld across classes, %ld not placed%s\n",
                bytype[0] + bytype[1] + bytype[2], bytype[0], bytype[1], bytype[2], P.short_max, P.long_min, count[CP_ONE],
                count[CP_SEVERAL], count[CP_NONE], opt.no_book ? " (--no-book: rooms not reduced between jobs)" : "");
    keyset_free(seen);
    free(chosen);
    csvr_close(r);
    return st;
}

/* ---- the simulator --------------------------------------------------------------- */
/*
 * Each tenant is a pool of `servers` servers that follow its average-server
 * utilization u(t).  Per tick (the series step) the pool's primary uses
 * ceil(servers x u x cores) cores, rounded up as YARN-H's node manager does;
 * the reserve is ceil(reserve x cores) cores per server; secondary
 * containers (one core each) may use what is left.  When the primary grows into the reserve,
 * the youngest containers are killed until the reserve is whole again, and
 * their tasks go back to their job's queue to run again from the start.
 * Jobs arrive as a Poisson stream; a job has n tasks of one duration, and its
 * last run (what Algorithm 1 sees) took that duration +-10% (or never ran).
 * Class-aware (YARN-H): at arrival Algorithm 1 picks classes from the
 * history table (avg, peak) and the classes' current utilization; the job's
 * tasks then go only to tenants of those classes, each to a tenant drawn in
 * proportion to its free containers.  A job for which no combination fits
 * waits and asks again next tick.  YARN-PT: tasks go to any tenant, drawn in
 * proportion to free containers (primary-aware, history-blind).  Both see
 * the same jobs and the same utilization.
 */

/* containers of one job started on one tenant in one tick: same start, same end */
struct batch { long job, start, end, count; };

struct simtenant {
    char *name;
    int cls;          /* class index, -1: not in the table */
    double servers;
    double avg, peak; /* history (tenantclass output) */
    float *u;         /* utilization per tick */
    struct batch *run; /* running containers in batches, oldest first */
    size_t nrun, cap;
    long ntask;        /* running containers */
};

struct simjob {
    double submit, dur, last;
    long tasks;
    int type;
    /* per-run state */
    long pending, running, done;
    double finish;
    size_t chosen[64];
    size_t nchosen;
    int decided;
};


static int cmp_tenant_name(const void *a, const void *b)
{
    return strcmp(((const struct simtenant *)a)->name, ((const struct simtenant *)b)->name);
}

static long tenant_find(struct simtenant *t, size_t n, const char *name)
{
    struct simtenant key = {.name = (char *)name};
    struct simtenant *f = n ? bsearch(&key, t, n, sizeof *t, cmp_tenant_name) : NULL;
    return f ? f - t : -1;
}

/* free containers of tenant t at tick k (< 0: over its allowance).  The
 * pool's primary usage is rounded up to whole cores once for the pool
 * (servers x u x cores), not per server: the servers of a tenant do not
 * cross a core boundary in lockstep. */
static double tenant_free(const struct simtenant *t, long k, double reserve_cores)
{
    double prim = ceil(t->servers * (double)t->u[k] * P.cores - 1e-9);
    double allow = t->servers * (P.cores - reserve_cores) - prim;
    if (allow < 0)
        allow = 0;
    return floor(allow + 1e-9) - (double)t->ntask;
}

struct simresult { long finished, tasks_run, killed; double mean, p50, p95; long waiting; };

/* Spread n containers over candidates cand[0..nc) in proportion to room[]
 * (n <= sum of room), by systematic sampling: points (j + u) S / n on the
 * cumulative room; a candidate gets the points in its stretch, never more
 * than its room.  Writes the counts to got[]. */
static void spread(rng *r, const size_t *cand, size_t nc, const double *room, long n, long *got)
{
    double tot = 0;
    for (size_t q = 0; q < nc; q++)
        tot += room[cand[q]];
    double stepw = tot / (double)n, x = rng_uniform(r) * stepw, lo = 0;
    long placed = 0;
    for (size_t q = 0; q < nc; q++) {
        double hi = lo + room[cand[q]];
        long g = 0;
        while (placed < n && x < hi) {
            g++;
            placed++;
            x += stepw;
        }
        if (g > (long)room[cand[q]])
            g = (long)room[cand[q]];
        got[q] = g;
        lo = hi;
    }
}

/* one policy's run over the month: the tenants, the jobs, the class table
 * and the per-tick scratch arrays */
struct simrun {
    int aware;
    struct simtenant *tn;
    size_t nt;
    struct simjob *jobs;
    size_t nj;
    struct classtab *ct;
    rng r;
    double reserve_cores;
    long killed, run;
    size_t next_job, nactive;
    size_t *active, *cand, *chosen;
    double *roomh, *freec, *clsum, *clsrv;
    long *got, *clrun;
};

/* 1. finish containers whose time is up (tick k, time now) */
static void sim_finish(struct simrun *S, long k, double now)
{
    for (size_t i = 0; i < S->nt; i++) {
        struct simtenant *t = &S->tn[i];
        size_t w = 0;
        for (size_t q = 0; q < t->nrun; q++) {
            struct batch *b = &t->run[q];
            if (b->end <= k) {
                struct simjob *jb = &S->jobs[b->job];
                jb->running -= b->count;
                jb->done += b->count;
                if (jb->done == jb->tasks)
                    jb->finish = now;
                t->ntask -= b->count;
                if (t->cls >= 0)
                    S->clrun[t->cls] -= b->count;
            } else {
                t->run[w++] = *b;
            }
        }
        t->nrun = w;
    }
}

/* 2. the primary grows: kill the youngest containers over the allowance;
 * sets each tenant's free containers */
static void sim_kill(struct simrun *S, long k)
{
    for (size_t i = 0; i < S->nt; i++) {
        struct simtenant *t = &S->tn[i];
        double f = tenant_free(t, k, S->reserve_cores);
        while (f < 0 && t->nrun > 0) {
            struct batch *b = &t->run[t->nrun - 1];
            long kill = (long)fmin((double)b->count, ceil(-f));
            struct simjob *jb = &S->jobs[b->job];
            jb->running -= kill;
            jb->pending += kill;
            S->killed += kill;
            t->ntask -= kill;
            if (t->cls >= 0)
                S->clrun[t->cls] -= kill;
            b->count -= kill;
            if (b->count == 0)
                t->nrun--;
            f += (double)kill;
        }
        S->freec[i] = f > 0 ? f : 0;
    }
}

/* the classes' current utilization (server-weighted) and containers in use at tick k */
static void sim_class_now(struct simrun *S, long k)
{
    struct classtab *ct = S->ct;
    memset(S->clsum, 0, ct->n * sizeof *S->clsum);
    memset(S->clsrv, 0, ct->n * sizeof *S->clsrv);
    for (size_t i = 0; i < S->nt; i++)
        if (S->tn[i].cls >= 0) {
            S->clsum[S->tn[i].cls] += S->tn[i].servers * (double)S->tn[i].u[k];
            S->clsrv[S->tn[i].cls] += S->tn[i].servers;
        }
    for (size_t c = 0; c < ct->n; c++) {
        ct->c[c].current = S->clsrv[c] > 0 ? S->clsum[c] / S->clsrv[c] : ct->c[c].avg;
        ct->c[c].used = (double)S->clrun[c];
    }
}

/* the tenants job jb may use at tick k and their room; returns how many
 * (cand[], roomh[]) and their total room in *tot */
static size_t sim_candidates(struct simrun *S, const struct simjob *jb, int labelled, long k, double *tot)
{
    size_t nc = 0;
    *tot = 0;
    for (size_t i = 0; i < S->nt; i++) {
        const struct simtenant *t = &S->tn[i];
        if (S->freec[i] < 1)
            continue;
        if (labelled) {
            int in = 0;
            for (size_t q = 0; q < jb->nchosen && !in; q++)
                in = t->cls >= 0 && (size_t)t->cls == jb->chosen[q];
            if (!in)
                continue;
            /* the tenant's own room for this job type, from its history */
            struct cp_class one = {.avg = t->avg, .peak = t->peak, .current = t->u[k], .servers = t->servers,
                                   .used = (double)t->ntask};
            S->roomh[i] = floor(fmin(S->freec[i], cp_room(&P, jb->type, &one)));
        } else {
            S->roomh[i] = floor(S->freec[i]);
        }
        if (S->roomh[i] >= 1) {
            S->cand[nc++] = i;
            *tot += S->roomh[i];
        }
    }
    return nc;
}

/* 4. place job jb's pending containers at tick k */
static void sim_place_job(struct simrun *S, struct simjob *jb, long k)
{
    if (S->aware && !jb->decided) {
        size_t nfit, nch = 0;
        double total;
        int out = cp_select(&P, jb->type, (double)jb->pending, S->ct->c, S->ct->n, &S->r, S->chosen, &nch, &nfit,
                            &total);
        if (out != CP_NONE) {
            jb->decided = 1;
            jb->nchosen = nch < 64 ? nch : 64;
            memcpy(jb->chosen, S->chosen, jb->nchosen * sizeof *S->chosen);
            cp_book(&P, jb->type, (double)jb->pending, S->ct->c, S->chosen, nch);
        }
    }
    /* a job for which Algorithm 1 picks no class names no label, and the
     * scheduler's default policy places it (seed 003 §5) */
    int labelled = S->aware && jb->decided;
    double tot;
    size_t nc = sim_candidates(S, jb, labelled, k, &tot);
    if (labelled && nc == 0) {
        jb->decided = 0; /* its classes are full: ask Algorithm 1 again next tick */
        return;
    }
    if (nc == 0)
        return;
    long n = jb->pending < (long)tot ? jb->pending : (long)tot;
    spread(&S->r, S->cand, nc, S->roomh, n, S->got);
    long dur_ticks = (long)ceil(jb->dur / opt.step - 1e-9);
    if (dur_ticks < 1)
        dur_ticks = 1;
    for (size_t q = 0; q < nc; q++) {
        if (S->got[q] == 0)
            continue;
        struct simtenant *t = &S->tn[S->cand[q]];
        t->run = xgrow(t->run, &t->cap, t->nrun + 1, sizeof *t->run);
        t->run[t->nrun++] = (struct batch){(long)(jb - S->jobs), k, k + dur_ticks, S->got[q]};
        t->ntask += S->got[q];
        S->freec[S->cand[q]] -= (double)S->got[q];
        if (t->cls >= 0)
            S->clrun[t->cls] += S->got[q];
        jb->pending -= S->got[q];
        jb->running += S->got[q];
        S->run += S->got[q];
    }
}

/* one tick: finish, kill, arrivals, then place pending containers, oldest job first */
static void sim_tick(struct simrun *S, long k)
{
    double now = (double)k * opt.step;
    sim_finish(S, k, now);
    sim_kill(S, k);
    while (S->next_job < S->nj && S->jobs[S->next_job].submit <= now) {
        S->jobs[S->next_job].pending = S->jobs[S->next_job].tasks;
        S->active[S->nactive++] = S->next_job++;
    }
    if (S->aware)
        sim_class_now(S, k);
    size_t wa = 0;
    for (size_t a = 0; a < S->nactive; a++) {
        struct simjob *jb = &S->jobs[S->active[a]];
        if (jb->finish >= 0)
            continue; /* done: leaves the active list */
        S->active[wa++] = S->active[a];
        if (jb->pending > 0)
            sim_place_job(S, jb, k);
    }
    S->nactive = wa;
}

static void sim_result(const struct simrun *S, struct simresult *res)
{
    double *times = xmalloc((S->nj ? S->nj : 1) * sizeof *times);
    size_t nf = 0;
    double sum = 0;
    for (size_t j = 0; j < S->nj; j++)
        if (S->jobs[j].finish >= 0) {
            times[nf] = S->jobs[j].finish - S->jobs[j].submit;
            sum += times[nf++];
        }
    res->finished = (long)nf;
    res->tasks_run = S->run;
    res->killed = S->killed;
    res->mean = nf ? sum / (double)nf : NAN;
    stats_sort(times, nf);
    res->p50 = stats_percentile_sorted(times, nf, 50);
    res->p95 = stats_percentile_sorted(times, nf, 95);
    res->waiting = (long)S->nj - (long)nf;
    free(times);
}

static void simulate_policy(int aware, struct simtenant *tn, size_t nt, long nticks, struct simjob *jobs, size_t nj,
                            struct classtab *ct, struct simresult *res)
{
    size_t ncl = ct->n ? ct->n : 1;
    struct simrun S = {.aware = aware, .tn = tn, .nt = nt, .jobs = jobs, .nj = nj, .ct = ct,
                       .reserve_cores = ceil(P.reserve * P.cores - 1e-9)};
    rng_seed_key(&S.r, slk_opt.seed, aware ? "sim-class-aware" : "sim-yarn-pt");
    for (size_t j = 0; j < nj; j++) {
        jobs[j].pending = jobs[j].running = jobs[j].done = 0;
        jobs[j].finish = -1;
        jobs[j].decided = 0;
        jobs[j].nchosen = 0;
    }
    for (size_t i = 0; i < nt; i++)
        tn[i].nrun = 0, tn[i].ntask = 0;
    S.active = xmalloc((nj ? nj : 1) * sizeof *S.active);
    S.roomh = xmalloc(nt * sizeof *S.roomh);
    S.freec = xmalloc(nt * sizeof *S.freec);
    S.clsum = xcalloc(ncl, sizeof *S.clsum);
    S.clsrv = xcalloc(ncl, sizeof *S.clsrv);
    S.cand = xmalloc(nt * sizeof *S.cand);
    S.got = xmalloc(nt * sizeof *S.got);
    S.clrun = xcalloc(ncl, sizeof *S.clrun);
    S.chosen = xmalloc(ncl * sizeof *S.chosen);
    for (long k = 0; k < nticks; k++)
        sim_tick(&S, k);
    sim_result(&S, res);
    free(S.active);
    free(S.freec);
    free(S.roomh);
    free(S.clsum);
    free(S.clsrv);
    free(S.cand);
    free(S.got);
    free(S.clrun);
    free(S.chosen);
}

static int read_sim_tenants(struct classtab *ct, struct simtenant **out, size_t *nout)
{
    int st;
    csvr *r = csvr_open_with(opt.tenants_path, cli_dialect("tenants"), 0, &st);
    if (!r)
        return st;
    int ct_ = csvr_require(r, "tenant"), cc = ct_ < 0 ? -1 : csvr_require(r, "class");
    int ca = cc < 0 ? -1 : csvr_require(r, "avg"), cpk = ca < 0 ? -1 : csvr_require(r, "peak");
    if (cpk < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    struct simtenant *t = NULL;
    size_t n = 0, cap = 0;
    while (csvr_next(r) > 0) {
        const char *name = csvr_field(r, ct_), *cls = csvr_field(r, cc);
        if (!name || !cls) {
            csvr_fail(r, "missing tenant or class");
            break;
        }
        long ci = class_find(ct, cls);
        if (ci < 0) {
            csvr_fail(r, "class '%s' is not in --classes %s", cls, opt.classes_path);
            break;
        }
        double a, pk;
        if (csvr_get_double(r, ca, &a, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
            csvr_get_double(r, cpk, &pk, CSVR_REQUIRED | CSVR_NONNEG) < 0)
            break;
        t = xgrow(t, &cap, n + 1, sizeof *t);
        memset(&t[n], 0, sizeof *t);
        t[n].avg = util_in(a);
        t[n].peak = util_in(pk);
        t[n].name = xstrdup(name);
        t[n].cls = (int)ci;
        t[n].servers = 1;
        n++;
    }
    st = csvr_status(r);
    csvr_close(r);
    if (n > 1)
        qsort(t, n, sizeof *t, cmp_tenant_name);
    for (size_t i = 1; !st && i < n; i++)
        if (strcmp(t[i - 1].name, t[i].name) == 0) {
            slk_error_at(opt.tenants_path, 0, "tenant '%s' is listed twice", t[i].name);
            st = SLK_EDATA;
        }
    if (!st && opt.servers_path) {
        r = csvr_open_with(opt.servers_path, cli_dialect("servers"), 0, &st);
        if (!r)
            return st;
        int a = csvr_require(r, "tenant"), b = a < 0 ? -1 : csvr_require(r, "servers");
        if (b < 0)
            st = SLK_EDATA;
        while (!st && csvr_next(r) > 0) {
            const char *name = csvr_field(r, a);
            double s;
            if (csvr_get_double(r, b, &s, CSVR_REQUIRED | CSVR_NONNEG) < 0)
                break;
            long i = name ? tenant_find(t, n, name) : -1;
            if (i >= 0)
                t[i].servers = s;
        }
        if (!st)
            st = csvr_status(r);
        csvr_close(r);
    }
    *out = t;
    *nout = n;
    return st;
}

/* Load the series onto the tick grid: a tick's value is the last sample at
 * or before it (a tenant's value before its first sample is its first). */
static int read_sim_series(struct simtenant *t, size_t n, long *nticks, double *t0out)
{
    int st;
    csvr *r = csvr_open_with(opt.series_path, cli_dialect("series"), 0, &st);
    if (!r)
        return st;
    int ct_ = csvr_require(r, "tenant"), ctime = ct_ < 0 ? -1 : csvr_require(r, "t");
    int cu = ctime < 0 ? -1 : csvr_require(r, "util");
    if (cu < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    /* every tenant goes on the grid that starts at the first tenant's first sample */
    double t0 = NAN;
    long nk = 0;
    long cur = -2;
    double umax = opt.percent ? 100 : 1;
    long early = 0;
    group_tracker g;
    group_init(&g);
    st = SLK_OK;
    while (csvr_next(r) > 0) {
        const char *name = csvr_field(r, ct_);
        double tt, u;
        if (!name) {
            csvr_fail(r, "column 'tenant': missing value");
            break;
        }
        int gc = group_check(&g, name);
        if (gc < 0) {
            csvr_fail(r, "tenant '%s' appears again after other tenants: --series not grouped by tenant", name);
            break;
        }
        if (csvr_get_time(r, ctime, &tt, CSVR_REQUIRED) < 0 || csvr_get_double(r, cu, &u, CSVR_REQUIRED | CSVR_NONNEG) < 0)
            break;
        if (u > umax) {
            csvr_fail(r, "column 'util': %g is above %g", u, umax);
            break;
        }
        if (gc == 1) {
            cur = tenant_find(t, n, name);
            if (isnan(t0))
                t0 = floor(tt / opt.step) * opt.step;
        }
        if (cur < 0)
            continue; /* not classified: not simulated */
        double k = floor((tt - t0) / opt.step);
        if (k < 0) { /* the replay starts with the first tenant's first sample */
            early++;
            continue;
        }
        if (k > 5000000) {
            csvr_fail(r, "time %.0f is more than 5 million ticks of %g s after the start of the replay (%.0f)", tt,
                      opt.step, t0);
            break;
        }
        long ki = (long)k;
        struct simtenant *tn = &t[cur];
        /* a growable array per tenant; cap counts its ticks while loading */
        if ((size_t)ki >= tn->cap) {
            size_t ncap = tn->cap ? tn->cap : 1024;
            while (ncap <= (size_t)ki)
                ncap *= 2;
            tn->u = xreallocarray(tn->u, ncap, sizeof *tn->u);
            for (size_t q = tn->cap; q < ncap; q++)
                tn->u[q] = -1;
            tn->cap = ncap;
        }
        tn->u[ki] = (float)util_in(u);
        if (ki + 1 > nk)
            nk = ki + 1;
    }
    if (!st)
        st = csvr_status(r);
    group_free(&g);
    csvr_close(r);
    if (st)
        return st;
    if (early)
        slk_warn_at(opt.series_path, 0, "%ld samples before the first tenant's first sample (%.0f) are not replayed", early, t0);
    for (size_t i = 0; i < n; i++) {
        if (!t[i].u) {
            slk_error_at(opt.series_path, 0, "tenant '%s' has no series", t[i].name);
            return SLK_EDATA;
        }
        if (t[i].cap < (size_t)nk) {
            t[i].u = xreallocarray(t[i].u, (size_t)nk, sizeof *t[i].u);
            for (size_t q = t[i].cap; q < (size_t)nk; q++)
                t[i].u[q] = -1;
        }
        /* hold the last value over gaps; before the first sample, the first */
        float first = -1;
        for (long q = 0; q < nk && first < 0; q++)
            first = t[i].u[q];
        float prev = first;
        for (long q = 0; q < nk; q++) {
            if (t[i].u[q] < 0)
                t[i].u[q] = prev;
            prev = t[i].u[q];
        }
        t[i].cap = 0; /* from here cap counts task slots */
    }
    *nticks = nk;
    *t0out = t0;
    return SLK_OK;
}

/* --sample out: keep only the ticks from the split on (the replayed
 * period); the history before it is what --tenants and --classes were
 * learned from.  *skipped: the ticks dropped. */
static int replay_window(struct simtenant *tn, size_t nt, long *nticks, double t0, long *skipped)
{
    *skipped = 0;
    if (opt.in_sample)
        return SLK_OK;
    long ks = isnan(opt.split) ? *nticks / 2 : (long)ceil((opt.split - t0) / opt.step - 1e-9);
    if (ks <= 0 || ks >= *nticks) {
        slk_error_at(opt.series_path, 0,
                     "--split %.0f leaves nothing to replay or no history (the series spans %.0f to %.0f); "
                     "use --sample in to replay it all",
                     isnan(opt.split) ? t0 + (double)ks * opt.step : opt.split, t0,
                     t0 + (double)*nticks * opt.step);
        return SLK_EDATA;
    }
    for (size_t i = 0; i < nt; i++)
        memmove(tn[i].u, tn[i].u + ks, (size_t)(*nticks - ks) * sizeof *tn[i].u);
    *nticks -= ks;
    *skipped = ks;
    return SLK_OK;
}

static int run_simulation(struct classtab *ct, csvw *w)
{
    struct simtenant *tn = NULL;
    size_t nt = 0;
    int st = read_sim_tenants(ct, &tn, &nt);
    long nticks = 0;
    double t0 = 0;
    if (!st && nt == 0) {
        slk_error_at(opt.tenants_path, 0, "no tenants");
        st = SLK_EDATA;
    }
    long skipped = 0;
    if (!st)
        st = read_sim_series(tn, nt, &nticks, &t0);
    if (!st)
        st = replay_window(tn, nt, &nticks, t0, &skipped);
    if (st) {
        for (size_t i = 0; i < nt; i++) {
            free(tn[i].name);
            free(tn[i].u);
        }
        free(tn);
        return st;
    }
    /* a class's servers are its simulated tenants' servers (the table may have
     * been made without --servers) */
    for (size_t c = 0; c < ct->n; c++)
        ct->c[c].servers = 0;
    for (size_t i = 0; i < nt; i++)
        ct->c[tn[i].cls].servers += tn[i].servers;
    /* the job stream: arrivals over the first 90% of the month so that most finish */
    double span = (double)nticks * opt.step;
    double reserve_cores = ceil(P.reserve * P.cores - 1e-9), harvest = 0, usum = 0, srvsum = 0;
    for (size_t i = 0; i < nt; i++) {
        double s = 0, us = 0;
        for (long k = 0; k < nticks; k++) {
            double per = P.cores - reserve_cores - ceil((double)tn[i].u[k] * P.cores - 1e-9);
            s += per > 0 ? per : 0;
            us += (double)tn[i].u[k];
        }
        harvest += tn[i].servers * s / (double)nticks;
        usum += tn[i].servers * us / (double)nticks;
        srvsum += tn[i].servers;
    }
    /* the primary tenants' mean utilization over the replay, server-weighted
     * (the x axis of the paper's Figs. 13-16) */
    double primary_util = srvsum > 0 ? usum / srvsum : NAN;
    rng r;
    rng_seed_key(&r, slk_opt.seed, "sim-jobs");
    double mean_dur = (115 + 303 + 1216.5) / 3; /* the three duration ranges below */
    long nj = opt.jobs ? opt.jobs
                       : (long)floor(opt.load * harvest * 0.9 * span / (opt.tasks_mean * mean_dur) + 0.5);
    if (nj < 1)
        nj = 1;
    struct simjob *jobs = xcalloc((size_t)nj, sizeof *jobs);
    double gap = 0.9 * span / (double)nj, tsub = 0;
    for (long j = 0; j < nj; j++) {
        tsub += rng_exp(&r, gap);
        struct simjob *jb = &jobs[j];
        jb->submit = fmin(tsub, 0.9 * span);
        double u = rng_uniform(&r);
        /* task durations: short 57-173 s, medium 173-433 s, long 433-2000 s */
        jb->dur = u < 1.0 / 3 ? 57 + 116 * rng_uniform(&r) : u < 2.0 / 3 ? 173 + 260 * rng_uniform(&r) : 433 + 1567 * rng_uniform(&r);
        jb->tasks = 1 + (long)floor(rng_exp(&r, opt.tasks_mean - 1 > 0 ? opt.tasks_mean - 1 : 1e-9));
        jb->last = rng_uniform(&r) < opt.never_seen ? -1 : jb->dur * (0.9 + 0.2 * rng_uniform(&r));
        jb->type = cp_job_type(&P, jb->last);
    }
    struct simresult res[2];
    static const char *const pname[2] = {"yarn-pt", "class-aware"};
    for (int a = 0; a < 2; a++) {
        for (size_t c = 0; c < ct->n; c++)
            ct->c[c].used = 0;
        simulate_policy(a, tn, nt, nticks, jobs, (size_t)nj, ct, &res[a]);
        slk_progress("policies", (uint64_t)a + 1, 2);
    }
    slk_progress_done();
    static const char *const hdr[] = {"policy", "jobs", "finished", "tasks_started", "tasks_killed", "mean_exec_s", "p50_exec_s", "p95_exec_s", "primary_util", NULL};
    csvw_header(w, hdr);
    for (int a = 0; a < 2; a++) {
        csvw_str(w, pname[a]);
        csvw_int(w, nj);
        csvw_int(w, res[a].finished);
        csvw_int(w, res[a].tasks_run);
        csvw_int(w, res[a].killed);
        csvw_num(w, res[a].mean);
        csvw_num(w, res[a].p50);
        csvw_num(w, res[a].p95);
        csvw_num(w, opt.percent ? primary_util * 100 : primary_util);
        csvw_end(w);
    }
    if (!slk_opt.quiet && !opt.in_sample)
        fprintf(stderr, "classpick: out of sample: replaying from %.0f (%ld ticks of history before it)\n",
                t0 + (double)skipped * opt.step, skipped);
    if (!slk_opt.quiet) {
        double srv = 0;
        for (size_t i = 0; i < nt; i++)
            srv += tn[i].servers;
        fprintf(stderr, "classpick: simulated %zu tenants (%g servers x %g cores, reserve %g cores) over %ld ticks of %g s; "
                        "%ld jobs (mean %g tasks) offered at %g of the mean harvestable %.0f cores\n",
                nt, srv, P.cores, reserve_cores, nticks, opt.step, nj, opt.tasks_mean,
                opt.jobs ? nj * opt.tasks_mean * mean_dur / (0.9 * span) / (harvest > 0 ? harvest : 1) : opt.load, harvest);
        fprintf(stderr, "classpick: killed tasks: yarn-pt %ld, class-aware %ld (%+.1f%%)", res[0].killed, res[1].killed,
                res[0].killed ? 100.0 * (double)(res[1].killed - res[0].killed) / (double)res[0].killed : 0.0);
        if (res[0].finished > 0 && res[1].finished > 0)
            fprintf(stderr, "; mean job time: yarn-pt %.0f s, class-aware %.0f s (%+.1f%%)", res[0].mean, res[1].mean,
                    100.0 * (res[1].mean - res[0].mean) / res[0].mean);
        fprintf(stderr, "; unfinished jobs: yarn-pt %ld, class-aware %ld\n", res[0].waiting, res[1].waiting);
    }
    for (size_t i = 0; i < nt; i++) {
        free(tn[i].name);
        free(tn[i].u);
        free(tn[i].run);
    }
    free(tn);
    free(jobs);
    (void)t0;
    return SLK_OK;
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
        "Output: job,type,demand,classes,reason ('+' joins several classes; empty: none fits)."
        "\vExamples:\n"
        "  tenantclass --servers truth.csv --classes cl.csv util.csv > tenants.csv\n"
        "  classpick --classes cl.csv --current now.csv jobs.csv\n"
        "  classpick --classes cl.csv --dag dags.csv jobs.csv   # demand by BFS\n"
        "  classpick --simulate --classes cl.csv --tenants tenants.csv \\\n"
        "      --series util.csv --servers truth.csv",
        kids, NULL, NULL};
    cli_roles("jobs", "classes", "current", "dag", "tenants", "servers", "series", (const char *)NULL);
    argp_parse(&argp, argc, argv, 0, NULL, NULL);

    struct classtab ct = {0};
    int st = read_classes(&ct);
    if (!st && opt.current_path) {
        st = read_current(&ct);
        ct.have_current = 1;
        for (size_t i = 0; i < ct.n; i++)
            if (isnan(ct.c[i].current))
                ct.have_current = 0;
    }
    if (!st && !opt.simulate) {
        int filled = 0;
        for (size_t i = 0; i < ct.n; i++)
            if (isnan(ct.c[i].current)) {
                ct.c[i].current = ct.c[i].avg;
                filled++;
            }
        if (filled && !slk_opt.quiet)
            fprintf(stderr, "classpick: warning: no current utilization for %d of %zu classes (no current_util column "
                            "or --current); using their avg_util\n", filled, ct.n);
    }
    if (!st && opt.dag_path)
        st = read_dags();
    outf *o = NULL;
    if (!st)
        o = outf_open(slk_opt.output, &st);
    if (o) {
        csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
        st = opt.simulate ? run_simulation(&ct, w) : pick_jobs(&ct, w);
        if (!st && csvw_error(w))
            st = SLK_EIO;
        csvw_free(w);
        st = outf_finish(o, st);
    }
    for (size_t i = 0; i < ct.n; i++)
        free((char *)ct.c[i].name);
    free(ct.c);
    for (size_t i = 0; i < ndags; i++)
        free(dags[i].job);
    free(dags);
    return slk_finish(st);
}
