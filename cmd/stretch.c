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
#include "base/keyset.h"
#include "base/outfile.h"
#include "base/parse.h"
#include "base/rng.h"
#include "base/stats.h"
#include "vc/vcreport.h"
#include "vc/vcsim.h"

#include <argp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DAY 86400.0
#define MAX_BINS 32
/* warn when the caps alone explain this share of the mean stretch, and
 * the jobs alone would have a mean stretch of at least FLOOR_MIN */
#define FLOOR_SHARE 0.8
#define FLOOR_MIN 1.5

static struct {
    const char *cap_path, *jobs_path;
    const char *vcs_out, *daily_out, *summary_out;
    enum vcsim_policy policy;
    enum vcsim_within within;
    double system_servers, quantum, credit_window, horizon, start;
    int have_start;
    double bins[MAX_BINS];
    int nbins;
    long long max_jobs;
} opt = {
    .policy = VCSIM_MAXMIN,
    .within = VCSIM_FAIR,
    .quantum = 300,
    .credit_window = 7 * DAY,
    .bins = {0.5, 0.8, 1.25, 2, 4},
    .nbins = 5,
    .max_jobs = 10000000,
};

enum { OPT_SCHED = 's', OPT_SYSTEM = 1, OPT_WITHIN, OPT_QUANTUM, OPT_WINDOW, OPT_HORIZON, OPT_START,
       OPT_VCS, OPT_DAILY, OPT_SUMMARY, OPT_BINS, OPT_JOBCOL, OPT_VCCOL, OPT_SUBMITCOL, OPT_SIZECOL,
       OPT_PARCOL, OPT_CAPCOL, OPT_MAXJOBS };

static const struct argp_option options[] = {
    {0, 0, 0, 0, "Scheduling:", 1},
    {"scheduler", OPT_SCHED, "NAME", 0, "maxmin (instantaneous max-min), drr (deficit/credit) or balanced "
     "(credit moves only while the cluster is contended); default maxmin", 1},
    {"within", OPT_WITHIN, "RULE", 0, "Sharing among a VC's jobs: fair (max-min with max_parallelism caps) or "
     "fifo (submit order); default fair", 1},
    {"system-servers", OPT_SYSTEM, "N", 0, "Shared servers owned by no VC, lent to any VC (default 0)", 1},
    {"quantum", OPT_QUANTUM, "DUR", 0, "drr/balanced: re-evaluate priorities at least this often while jobs "
     "run (default 5m; 0 = only at arrivals and completions)", 1},
    {"credit-window", OPT_WINDOW, "DUR", 0, "drr/balanced: a VC's credit is clamped to +-capacity x DUR "
     "(default 7d)", 1},
    {0, 0, 0, 0, "Reporting:", 2},
    {"vcs", OPT_VCS, "FILE", 0, "Write per-VC load and stretch to FILE", 2},
    {"daily", OPT_DAILY, "FILE", 0, "Write per-day per-VC load and mean stretch to FILE", 2},
    {"summary", OPT_SUMMARY, "FILE", 0, "Write the summary as metric,value rows to FILE", 2},
    {"max-jobs", OPT_MAXJOBS, "N", 0, "Refuse more than N jobs (about 110 bytes each; default 10000000)", 2},
    {"horizon", OPT_HORIZON, "DUR", 0, "Length of the accounting window (default: the submit-time span "
     "rounded up to whole days)", 2},
    {"start", OPT_START, "TIME", 0, "Start of the accounting window (default: the first submit)", 2},
    {"load-bins", OPT_BINS, "LIST", 0, "Increasing load-factor bin edges for the consistency figure "
     "(default 0.5,0.8,1.25,2,4)", 2},
    {0, 0, 0, 0, "Input columns (also --col KEY=NAME):", 3},
    {"job-col", OPT_JOBCOL, "NAME", 0, "Job id column (default job)", 3},
    {"vc-col", OPT_VCCOL, "NAME", 0, "VC column, in both inputs (default vc)", 3},
    {"submit-col", OPT_SUBMITCOL, "NAME", 0, "Submit time column (default submit)", 3},
    {"size-col", OPT_SIZECOL, "NAME", 0, "Job size column, server-hours (default size_server_hours)", 3},
    {"parallelism-col", OPT_PARCOL, "NAME", 0, "Max parallelism column, servers (default max_parallelism)", 3},
    {"capacity-col", OPT_CAPCOL, "NAME", 0, "VC capacity column, servers (default capacity)", 3},
    {0}
};

static void parse_bins(struct argp_state *st, const char *arg)
{
    char *copy = xstrdup(arg), *save = NULL;
    opt.nbins = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        double v;
        if (parse_double(tok, &v, 0) < 0 || v <= 0)
            argp_error(st, "invalid value for --load-bins: '%s' (want positive numbers)", tok);
        if (opt.nbins >= MAX_BINS)
            argp_error(st, "invalid value for --load-bins: more than %d edges", MAX_BINS);
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
    case OPT_WITHIN:
        if (strcmp(arg, "fair") == 0)
            opt.within = VCSIM_FAIR;
        else if (strcmp(arg, "fifo") == 0)
            opt.within = VCSIM_FIFO;
        else
            argp_error(st, "invalid value for --within: '%s' (want fair or fifo)", arg);
        break;
    case OPT_SYSTEM: opt.system_servers = cli_double(st, "system-servers", arg, 0, 1e12); break;
    case OPT_QUANTUM: opt.quantum = cli_duration(st, "quantum", arg, 0); break;
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

/* ---- VCs: names, capacities, and a name -> index hash ------------------ */

struct vcs {
    char **name;
    double *cap;
    size_t n, capn;
    uint32_t *slot; /* open addressing, index + 1, 0 = empty */
    size_t nslot;
};

static long vcs_find(const struct vcs *v, const char *name)
{
    size_t mask = v->nslot - 1;
    for (size_t h = rng_hash_str(name) & mask;; h = (h + 1) & mask) {
        uint32_t s = v->slot[h];
        if (!s)
            return -1;
        if (strcmp(v->name[s - 1], name) == 0)
            return (long)s - 1;
    }
}

static void vcs_index(struct vcs *v)
{
    v->nslot = 16;
    while (v->nslot < 2 * v->n)
        v->nslot *= 2;
    v->slot = xcalloc(v->nslot, sizeof *v->slot);
    size_t mask = v->nslot - 1;
    for (size_t i = 0; i < v->n; i++) {
        size_t h = rng_hash_str(v->name[i]) & mask;
        while (v->slot[h])
            h = (h + 1) & mask;
        v->slot[h] = (uint32_t)(i + 1);
    }
}

static int read_vcs(struct vcs *v)
{
    int st;
    csvr *r = csvr_open_with(opt.cap_path, cli_dialect("capacities"), 0, &st);
    if (!r)
        return st;
    int cvc = csvr_require(r, "vc"), ccap = csvr_require(r, "capacity");
    if (cvc < 0 || ccap < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    keyset *seen = keyset_new();
    int rc;
    while ((rc = csvr_next(r)) == 1) {
        const char *name = csvr_field(r, cvc);
        double cap;
        if (!name) {
            csvr_fail(r, "column 'vc': missing value");
            break;
        }
        if (csvr_get_double(r, ccap, &cap, CSVR_REQUIRED | CSVR_POSITIVE | CSVR_BOUNDED) < 0)
            break;
        if (!keyset_add(seen, name)) {
            csvr_fail(r, "duplicate vc '%s'", name);
            break;
        }
        v->name = xgrow(v->name, &v->capn, v->n + 1, sizeof *v->name);
        v->cap = xreallocarray(v->cap, v->capn, sizeof *v->cap);
        v->name[v->n] = xstrdup(name);
        v->cap[v->n++] = cap;
    }
    keyset_free(seen);
    st = csvr_status(r);
    if (st == SLK_OK && v->n == 0) {
        slk_error_at(csvr_path(r), 0, "no VCs");
        st = SLK_EDATA;
    }
    if (st == SLK_OK && v->n > 1000000) {
        slk_error_at(csvr_path(r), 0, "too many VCs (%zu; at most 1000000)", v->n);
        st = SLK_EDATA;
    }
    csvr_close(r);
    if (st == SLK_OK)
        vcs_index(v);
    return st;
}

/* ---- jobs -------------------------------------------------------------- */

struct jobs {
    struct vcsim_job *j;
    size_t *id;      /* offset of the job id in ids */
    char *ids;
    size_t n, capn, ids_len, ids_cap;
};

static int read_jobs(struct jobs *J, const struct vcs *V)
{
    int st;
    csvr *r = csvr_open_with(opt.jobs_path, cli_dialect(NULL), 0, &st);
    if (!r)
        return st;
    int cjob = csvr_require(r, "job"), cvc = csvr_require(r, "vc"), csub = csvr_require(r, "submit"),
        csize = csvr_require(r, "size_server_hours"), cpar = csvr_col(r, "max_parallelism");
    if (cjob < 0 || cvc < 0 || csub < 0 || csize < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    keyset *seen = keyset_new();
    size_t idcap = 0;
    int rc;
    while ((rc = csvr_next(r)) == 1) {
        const char *job = csvr_field(r, cjob), *vc = csvr_field(r, cvc);
        double submit, size, par = INFINITY;
        if (!job) {
            csvr_fail(r, "column 'job': missing value");
            break;
        }
        if (!vc) {
            csvr_fail(r, "column 'vc': missing value");
            break;
        }
        long k = vcs_find(V, vc);
        if (k < 0) {
            csvr_fail(r, "unknown vc '%s' (not in %s)", vc, strcmp(opt.cap_path, "-") ? opt.cap_path : "<stdin>");
            break;
        }
        if (csvr_get_time(r, csub, &submit, CSVR_REQUIRED) < 0 ||
            csvr_get_double(r, csize, &size, CSVR_REQUIRED | CSVR_POSITIVE) < 0 ||
            (cpar >= 0 && csvr_get_double(r, cpar, &par, CSVR_POSITIVE) < 0))
            break;
        if (size > 1e15) {
            csvr_fail(r, "column 'size_server_hours': '%s' is too large", csvr_field(r, csize));
            break;
        }
        if (fabs(submit) > 1e12) {
            csvr_fail(r, "column 'submit': '%s' is out of range", csvr_field(r, csub));
            break;
        }
        if (!keyset_add(seen, job)) {
            csvr_fail(r, "duplicate job '%s'", job);
            break;
        }
        if ((long long)J->n >= opt.max_jobs) {
            csvr_fail(r, "more than %lld jobs (--max-jobs)", opt.max_jobs);
            break;
        }
        J->j = xgrow(J->j, &J->capn, J->n + 1, sizeof *J->j);
        J->id = xgrow(J->id, &idcap, J->n + 1, sizeof *J->id);
        size_t len = strlen(job) + 1;
        J->ids = xgrow(J->ids, &J->ids_cap, J->ids_len + len, 1);
        memcpy(J->ids + J->ids_len, job, len);
        J->id[J->n] = J->ids_len;
        J->ids_len += len;
        J->j[J->n++] = (struct vcsim_job){.vc = (uint32_t)k, .submit = submit, .work = size * 3600, .maxpar = par};
    }
    keyset_free(seen);
    st = csvr_status(r);
    csvr_close(r);
    return st;
}

/* ---- reports ----------------------------------------------------------- */

static int write_jobs(csvw *w, const struct jobs *J, const struct vcs *V)
{
    static const char *const hdr[] = {"job", "vc", "submit", "finish", "stretch", NULL};
    csvw_header(w, hdr);
    for (size_t i = 0; i < J->n; i++) {
        const struct vcsim_job *j = &J->j[i];
        csvw_str(w, J->ids + J->id[i]);
        csvw_str(w, V->name[j->vc]);
        csvw_num(w, j->submit);
        csvw_num(w, j->finish);
        csvw_num(w, vcrep_stretch(j, V->cap[j->vc]));
        csvw_end(w);
    }
    return csvw_error(w) ? SLK_EIO : SLK_OK;
}

/* Open a side output, run fn into it, commit it (or abort on error). */
static int side_output(const char *path, int (*fn)(csvw *, const void *), const void *ctx)
{
    int st;
    outf *o = outf_open(path, &st);
    if (!o)
        return st;
    csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
    st = fn(w, ctx);
    csvw_free(w);
    return outf_finish(o, st);
}

struct report_ctx {
    const struct jobs *J;
    const struct vcs *V;
    const struct vcrep_vc *rep;
    const struct vcsim_vc_stats *vst;
    double w0, h;
};

static int write_vcs(csvw *w, const void *p)
{
    const struct report_ctx *c = p;
    static const char *const hdr[] = {"vc", "capacity", "jobs", "work_server_hours", "load_factor",
                                      "mean_stretch", "median_stretch", "p95_stretch", "overdemand_share",
                                      "used_server_hours", "borrowed_server_hours", "credit_end_server_hours",
                                      NULL};
    csvw_header(w, hdr);
    for (size_t k = 0; k < c->V->n; k++) {
        csvw_str(w, c->V->name[k]);
        csvw_num(w, c->V->cap[k]);
        csvw_int(w, (int64_t)c->rep[k].jobs);
        csvw_num(w, c->rep[k].work / 3600);
        csvw_num(w, c->rep[k].load);
        csvw_num(w, c->rep[k].mean);
        csvw_num(w, c->rep[k].median);
        csvw_num(w, c->rep[k].p95);
        csvw_num(w, c->vst[k].overdemand / c->h);
        csvw_num(w, c->vst[k].used / 3600);
        csvw_num(w, c->vst[k].borrowed / 3600);
        csvw_num(w, c->vst[k].credit_end / 3600);
        csvw_end(w);
    }
    return csvw_error(w) ? SLK_EIO : SLK_OK;
}

/* Per (vc, UTC day) of submission: jobs, load (their work / capacity-day)
 * and mean stretch.  Sorted by VC (input order), then day. */
static int cmp_vc_day(const void *x, const void *y, void *ctx)
{
    const struct vcsim_job *J = ctx;
    const struct vcsim_job *a = &J[*(const uint32_t *)x], *b = &J[*(const uint32_t *)y];
    if (a->vc != b->vc)
        return a->vc < b->vc ? -1 : 1;
    double da = floor(a->submit / DAY), db = floor(b->submit / DAY);
    return (da > db) - (da < db);
}

static int write_daily(csvw *w, const void *p)
{
    const struct report_ctx *c = p;
    static const char *const hdr[] = {"vc", "day", "jobs", "load", "mean_stretch", NULL};
    csvw_header(w, hdr);
    size_t n = 0;
    uint32_t *idx = xmalloc((c->J->n ? c->J->n : 1) * sizeof *idx);
    for (size_t i = 0; i < c->J->n; i++)
        if (vcrep_in_window(c->J->j[i].submit, c->w0, c->h))
            idx[n++] = (uint32_t)i;
    qsort_r(idx, n, sizeof *idx, cmp_vc_day, (void *)c->J->j);
    for (size_t i = 0; i < n;) {
        const struct vcsim_job *first = &c->J->j[idx[i]];
        double day = floor(first->submit / DAY), cap = c->V->cap[first->vc], work = 0, ssum = 0;
        size_t e = i;
        while (e < n && c->J->j[idx[e]].vc == first->vc && floor(c->J->j[idx[e]].submit / DAY) == day) {
            work += c->J->j[idx[e]].work;
            ssum += vcrep_stretch(&c->J->j[idx[e]], cap);
            e++;
        }
        csvw_str(w, c->V->name[first->vc]);
        csvw_num(w, day * DAY);
        csvw_int(w, (int64_t)(e - i));
        csvw_num(w, work / (cap * DAY));
        csvw_num(w, ssum / (double)(e - i));
        csvw_end(w);
        i = e;
    }
    free(idx);
    return csvw_error(w) ? SLK_EIO : SLK_OK;
}

struct summary {
    const char *scheduler;
    size_t vcs, jobs;
    double owned, servers, horizon, start, utilization, contended, makespan, mean_stretch, spread;
    double floor_stretch; /* mean over jobs of capacity / min(max_parallelism, servers) */
    double work_h, used_h, events_per_job, seconds;
    struct vcrep_bin bins[MAX_BINS + 1];
    int nbins;
};

static int write_summary(csvw *w, const void *p)
{
    const struct summary *s = p;
    static const char *const hdr[] = {"metric", "value", NULL};
    csvw_header(w, hdr);
#define ROWS(name, str) do { csvw_str(w, name); csvw_str(w, str); csvw_end(w); } while (0)
#define ROWN(name, v) do { csvw_str(w, name); csvw_num(w, v); csvw_end(w); } while (0)
    ROWS("scheduler", s->scheduler);
    ROWN("vcs", (double)s->vcs);
    ROWN("jobs", (double)s->jobs);
    ROWN("owned_servers", s->owned);
    ROWN("servers", s->servers);
    ROWN("start", s->start);
    ROWN("horizon_s", s->horizon);
    ROWN("utilization", s->utilization);
    ROWN("contended_share", s->contended);
    ROWN("makespan_s", s->makespan);
    ROWN("mean_stretch", s->mean_stretch);
    ROWN("parallelism_floor_stretch", s->floor_stretch);
    ROWN("consistency", s->spread);
    ROWN("work_server_hours", s->work_h);
    ROWN("used_server_hours", s->used_h);
    ROWN("events_per_job", s->events_per_job);
    for (int b = 0; b < s->nbins; b++) {
        char name[96];
        snprintf(name, sizeof name, "spread_load_%g_%g", s->bins[b].lo, s->bins[b].hi);
        ROWN(name, s->bins[b].n >= 2 ? s->bins[b].max / s->bins[b].min : NAN);
    }
#undef ROWS
#undef ROWN
    return csvw_error(w) ? SLK_EIO : SLK_OK;
}

static void free_inputs(struct vcs *V, struct jobs *J)
{
    for (size_t k = 0; k < V->n; k++)
        free(V->name[k]);
    free(V->name);
    free(V->cap);
    free(V->slot);
    free(J->j);
    free(J->id);
    free(J->ids);
}

static void progress(uint64_t done, uint64_t total) { slk_progress("simulating", done, total); }

static void fmt_dur(double s, char *buf, size_t n)
{
    if (s >= DAY)
        snprintf(buf, n, "%.4g d", s / DAY);
    else if (s >= 3600)
        snprintf(buf, n, "%.4g h", s / 3600);
    else
        snprintf(buf, n, "%.4g s", s);
}


/* Run the simulator over the window [w0, w0+h] and check conservation (the
 * servers allocated to VCs over time did exactly the work). */
static int simulate(const struct vcs *V, struct jobs *J, double w0, double h, struct vcsim_vc_stats *vst,
                    struct vcsim_totals *tot, double *secs)
{
    struct vcsim_config cfg = {
        .policy = opt.policy, .within = opt.within, .system_servers = opt.system_servers,
        .quantum = opt.quantum, .credit_window = opt.credit_window,
        .window_start = w0, .window_len = h,
        .progress = cli_progress_on() ? progress : NULL,
    };
    double t0 = slk_now();
    if (vcsim_run(&cfg, V->n, V->cap, J->n, J->j, vst, tot) < 0) {
        slk_error("internal error: simulator rejected its input");
        return SLK_ESOFTWARE;
    }
    *secs = slk_now() - t0;
    slk_progress_done();
    double work = 0, used = 0;
    for (size_t i = 0; i < J->n; i++)
        work += J->j[i].work;
    for (size_t k = 0; k < V->n; k++)
        used += vst[k].used;
    if (fabs(used - work) > 1e-6 * work) {
        slk_error("internal error: allocated %.17g server-seconds for %.17g of work", used, work);
        return SLK_ESOFTWARE;
    }
    return SLK_OK;
}

/* The summary of a finished run (rep filled by vcrep_per_vc). */
static void summarize(const struct vcs *V, const struct jobs *J, const struct vcrep_vc *rep,
                      const struct vcsim_vc_stats *vst, const struct vcsim_totals *tot, double w0, double h,
                      struct summary *sum)
{
    double work = 0, used = 0, owned = 0, used_w = 0, ssum = 0, fsum = 0;
    for (size_t k = 0; k < V->n; k++) {
        used += vst[k].used;
        used_w += vst[k].used_window;
        owned += V->cap[k];
    }
    for (size_t i = 0; i < J->n; i++) {
        work += J->j[i].work;
        ssum += vcrep_stretch(&J->j[i], V->cap[J->j[i].vc]);
        fsum += vcrep_floor(&J->j[i], V->cap[J->j[i].vc], owned + opt.system_servers);
    }
    *sum = (struct summary){.scheduler = vcsim_policy_name(opt.policy), .vcs = V->n, .jobs = J->n,
                            .owned = owned, .servers = owned + opt.system_servers, .horizon = h, .start = w0,
                            .work_h = work / 3600, .used_h = used / 3600};
    sum->utilization = used_w / (sum->servers * h);
    sum->contended = tot->contended / h;
    sum->makespan = J->n ? tot->end - tot->start : 0;
    sum->mean_stretch = J->n ? ssum / (double)J->n : NAN;
    sum->floor_stretch = J->n ? fsum / (double)J->n : NAN;
    sum->spread = vcrep_consistency(rep, V->n, opt.bins, opt.nbins, sum->bins, &sum->nbins);
    sum->events_per_job = J->n ? (double)tot->events / (double)J->n : 0;
}

/* The per-job output and the side outputs asked for. */
static int write_outputs(const struct report_ctx *ctx, const struct summary *sum)
{
    int st;
    outf *o = outf_open(slk_opt.output, &st);
    if (!o)
        return st;
    csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
    st = write_jobs(w, ctx->J, ctx->V);
    csvw_free(w);
    if (st == SLK_OK && opt.vcs_out)
        st = side_output(opt.vcs_out, write_vcs, ctx);
    if (st == SLK_OK && opt.daily_out)
        st = side_output(opt.daily_out, write_daily, ctx);
    if (st == SLK_OK && opt.summary_out)
        st = side_output(opt.summary_out, write_summary, sum);
    return outf_finish(o, st);
}

static void print_summary(const struct summary *sum, const struct vcsim_totals *tot, int horizon_derived)
{
    char hb[32], mb[32], tb[32];
    fmt_dur(sum->horizon, hb, sizeof hb);
    fmt_dur(sum->makespan, mb, sizeof mb);
    parse_time_format(sum->start, tb);
    fprintf(stderr, "stretch: %s: %zu VCs (%g servers) + %g system = %g servers; %zu jobs, "
            "%.6g server-hours of work\n", sum->scheduler, sum->vcs, sum->owned, opt.system_servers, sum->servers,
            sum->jobs, sum->work_h);
    fprintf(stderr, "stretch: window %s from %s%s; utilization %.1f%%; contended (demand > servers) "
            "%.1f%% of the time; makespan %s\n", hb, tb,
            horizon_derived ? " (submit span rounded up to days)" : "", 100 * sum->utilization,
            100 * sum->contended, mb);
    for (int b = 0; b < sum->nbins; b++)
        if (sum->bins[b].n >= 2)
            fprintf(stderr, "stretch: load %g..%g: %zu VCs, mean stretch %.4g..%.4g (spread %.3gx)\n",
                    sum->bins[b].lo, sum->bins[b].hi, sum->bins[b].n, sum->bins[b].min, sum->bins[b].max,
                    sum->bins[b].max / sum->bins[b].min);
    if (isfinite(sum->spread))
        fprintf(stderr, "stretch: consistency (worst max/min mean stretch within a load bin): %.3gx\n",
                sum->spread);
    else
        fprintf(stderr, "stretch: consistency: no load bin holds two VCs\n");
    if (sum->floor_stretch >= FLOOR_MIN && sum->floor_stretch >= FLOOR_SHARE * sum->mean_stretch)
        slk_warn_at(opt.jobs_path && strcmp(opt.jobs_path, "-") ? opt.jobs_path : "<stdin>", 0,
                    "the result is dominated by max_parallelism caps: jobs alone in an idle cluster would "
                    "have mean stretch %.4g of the %.4g measured (contended %.1f%% of the time); the "
                    "schedulers can only differ in the rest", sum->floor_stretch, sum->mean_stretch,
                    100 * sum->contended);
    fprintf(stderr, "stretch: %llu events (%.3g per job), %llu decisions, %llu job rate updates in "
            "%.3f s (%.3g us per job)\n", (unsigned long long)tot->events, sum->events_per_job,
            (unsigned long long)tot->decisions, (unsigned long long)tot->job_updates, sum->seconds,
            sum->jobs ? 1e6 * sum->seconds / (double)sum->jobs : 0.0);
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
        "a missing max_parallelism means no limit).  Output: job,vc,submit,finish,stretch."
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
    cli_roles("jobs", "capacities", NULL);
    argp_parse(&argp, argc, argv, 0, NULL, NULL);

    struct vcs V = {0};
    struct jobs J = {0};
    struct vcsim_vc_stats *vst = NULL;
    struct vcrep_vc *rep = NULL;
    struct vcsim_totals tot;
    struct summary sum;
    double w0, h, secs = 0;
    int derived;
    int st = read_vcs(&V);
    if (st == SLK_OK)
        st = read_jobs(&J, &V);
    if (st == SLK_OK) {
        vcrep_window(J.j, J.n, opt.have_start, opt.start, opt.horizon, &w0, &h, &derived);
        vst = xcalloc(V.n, sizeof *vst);
        st = simulate(&V, &J, w0, h, vst, &tot, &secs);
    }
    if (st == SLK_OK) {
        rep = xcalloc(V.n, sizeof *rep);
        vcrep_per_vc(J.j, J.n, V.cap, V.n, w0, h, rep);
        summarize(&V, &J, rep, vst, &tot, w0, h, &sum);
        sum.seconds = secs;
        struct report_ctx ctx = {&J, &V, rep, vst, w0, h};
        st = write_outputs(&ctx, &sum);
    }
    if (st == SLK_OK && !slk_opt.quiet)
        print_summary(&sum, &tot, derived);
    free(rep);
    free(vst);
    free_inputs(&V, &J);
    return slk_finish(st);
}
