/* sloinfer — deadlines (SLOs) of periodic jobs from their run history
 * (Morpheus §4).  Reads one row per run, grouped by job, or raw provenance
 * events plus the run table (--events), in any order, and writes one row
 * per job, sorted by job:
 *   job,period,a,d,runs,cv,slack_ratio,status,consumer_period,source,
 *   basis,cv_start,cv_read,problematic
 * The inference is lib/morpheus/slo.c, the held run table
 * lib/morpheus/slotable.c; this file reads, validates and writes.
 * See sloinfer(1). */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/keyset.h"
#include "base/outfile.h"
#include "base/parse.h"
#include "base/timeunit.h"
#include "morpheus/slo.h"
#include "morpheus/slotable.h"

#include <argp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Times beyond year 5000 (or before 1970) are typos, not telemetry; refusing
 * them keeps every period index an exact double. */
#define MAX_TIME 1e11

static const char *input = "-";
static const char *events_path;
static const char *override_path;
static const char *ok_status_list = "ok,success,succeeded,completed,finished,done";
static struct slo_opts so;
static size_t max_runs = 5000000;
static int basis_opt = -1; /* -1 auto, else enum slo_basis */

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
    {"basis", OPT_BASIS, "auto|provenance|completion", 0, "Where d comes from: output_read (provenance), or the "
                                                          "runs' ends plus slack (completion); auto (default): "
                                                          "completion when no run has an output_read", 3},
    {"done-pct", OPT_DONE_PCT, "P", 0, "Completion basis: d is the P-th percentile of end offsets (default 95) ...", 3},
    {"done-slack", OPT_DONE_SLACK, "X", 0, "... plus X median run lengths (default 0.25)", 3},
    {"problematic-cv", OPT_PROB_CV, "X", 0, "cv_start or cv_read above X: problematic (default 1)", 3},
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
    so.nnatural = 0;
    char *save = NULL;
    for (char *tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (so.nnatural >= SLO_MAX_NATURAL)
            argp_error(st, "invalid value for --natural: more than %d periods", SLO_MAX_NATURAL);
        double v;
        if (parse_duration(tok, &v) < 0 || !(v >= 1))
            argp_error(st, "invalid value for --natural: '%s' (want durations of at least 1 s, e.g. 1h,1d)", tok);
        so.natural[so.nnatural++] = v;
    }
    qsort(so.natural, (size_t)so.nnatural, sizeof so.natural[0], cmp_dbl);
}

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    switch (key) {
    case OPT_EVENTS: events_path = arg; break;
    case OPT_OVERRIDE: override_path = arg; break;
    case OPT_OK_STATUS: ok_status_list = arg; break;
    case OPT_JOB_COL:
        if (!*arg)
            argp_error(st, "invalid value for --job-col: '' (want a column name)");
        cli_colmap_add("job", arg);
        break;
    case OPT_PERIOD: so.period = cli_duration(st, "period", arg, 1); break;
    case OPT_ANCHOR: so.anchor = cli_time(st, "anchor", arg); break;
    case OPT_NATURAL: parse_natural(st, arg); break;
    case OPT_SNAP_TOL: so.snap_tol = cli_double(st, "snap-tol", arg, 0, 0.5); break;
    case OPT_MATCH_TOL: so.match_tol = cli_double(st, "match-tol", arg, 0.01, 0.5); break;
    case OPT_MIN_SCORE: so.min_score = cli_double(st, "min-score", arg, 0, 1); break;
    case OPT_MIN_RUNS: so.min_runs = (int)cli_int(st, "min-runs", arg, 1, 1000000); break;
    case OPT_MAX_CV: so.max_cv = cli_double(st, "max-cv", arg, 0, 1e9); break;
    case OPT_MIN_SLACK: so.min_slack = cli_double(st, "min-slack", arg, -1e9, 1e9); break;
    case OPT_A_PCT: so.a_pct = pct_arg(st, "a-pct", arg); break;
    case OPT_D_PCT: so.d_pct = pct_arg(st, "d-pct", arg); break;
    case OPT_DONE_PCT: so.done_pct = pct_arg(st, "done-pct", arg); break;
    case OPT_DONE_SLACK: so.done_slack = cli_double(st, "done-slack", arg, 0, 100); break;
    case OPT_PROB_CV: so.problematic_cv = cli_double(st, "problematic-cv", arg, 0, 1e9); break;
    case OPT_MAX_RUNS: max_runs = (size_t)cli_int(st, "max-runs", arg, 1, 1000000000); break;
    case OPT_BASIS:
        if (strcmp(arg, "auto") == 0)
            basis_opt = -1;
        else if (strcmp(arg, "provenance") == 0)
            basis_opt = SLO_BASIS_PROVENANCE;
        else if (strcmp(arg, "completion") == 0)
            basis_opt = SLO_BASIS_COMPLETION;
        else
            argp_error(st, "invalid value for --basis: '%s' (want auto, provenance or completion)", arg);
        break;
    case ARGP_KEY_ARG:
        if (st->arg_num > 0)
            argp_error(st, "one input file only (got '%s' and '%s')", input, arg);
        input = arg;
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
    "\n"
    "Examples:\n"
    "  tracegen runs --count 100 --days 30 | sloinfer > slo.csv\n"
    "  sloinfer --events events.csv runs.csv -o slo.csv\n"
    "  sloinfer --override signoff.csv --max-cv 0.2 runs.csv\n"
    "  sloinfer --period 1d --a-pct 90 --d-pct 25 runs.csv\n"
    "  sloinfer --basis completion --done-slack 0.5 runs.csv";

/* ---- reading runs ---------------------------------------------------------------- */

struct cols {
    int job, instance, submit, start, end, ia, rd, status, cp;
};

static char **ok_status;
static int n_ok_status;
static char *ok_status_buf; /* ok_status points into it */

static void split_ok_status(void)
{
    char *s = ok_status_buf = xstrdup(ok_status_list), *save = NULL;
    for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        ok_status = xreallocarray(ok_status, (size_t)n_ok_status + 1, sizeof *ok_status);
        ok_status[n_ok_status++] = tok;
    }
}

static int status_ok(const char *s)
{
    if (!s)
        return 1;
    for (int i = 0; i < n_ok_status; i++)
        if (strcasecmp(s, ok_status[i]) == 0)
            return 1;
    return 0;
}

static int get_time(csvr *r, int col, double *out, unsigned flags, const char *what)
{
    int rc = csvr_get_time(r, col, out, flags | CSVR_NONNEG);
    if (rc == 1 && *out > MAX_TIME)
        return csvr_fail(r, "column '%s': time out of range '%s' (after year 5000)", what, csvr_field(r, col));
    return rc;
}

static int find_cols(csvr *r, struct cols *c, int need_instance, int form2)
{
    if ((c->job = csvr_require(r, "job")) < 0 || (c->submit = csvr_require(r, "submit")) < 0 ||
        (c->start = csvr_require(r, "start")) < 0 || (c->end = csvr_require(r, "end")) < 0)
        return -1;
    c->instance = need_instance ? csvr_require(r, "instance") : csvr_col(r, "instance");
    if (need_instance && c->instance < 0)
        return -1;
    c->ia = form2 ? -1 : csvr_col(r, "input_avail");
    c->rd = form2 ? -1 : csvr_col(r, "output_read");
    c->status = csvr_col(r, "status");
    c->cp = csvr_col(r, "consumer_period");
    return 0;
}

/* read_run: the current record as a run; 0 ok, -1 on a data error (reported) */
static int read_run(csvr *r, const struct cols *c, struct slo_run *run)
{
    run->input_avail = run->output_read = run->consumer_period = NAN;
    if (get_time(r, c->submit, &run->submit, CSVR_REQUIRED, "submit") < 0 ||
        get_time(r, c->start, &run->start, CSVR_REQUIRED, "start") < 0 ||
        get_time(r, c->end, &run->end, CSVR_REQUIRED, "end") < 0 ||
        get_time(r, c->ia, &run->input_avail, 0, "input_avail") < 0 ||
        get_time(r, c->rd, &run->output_read, 0, "output_read") < 0 ||
        csvr_get_duration(r, c->cp, &run->consumer_period, CSVR_POSITIVE) < 0)
        return -1;
    if (run->end < run->start)
        return csvr_fail(r, "end before start (start '%s', end '%s')", csvr_field(r, c->start), csvr_field(r, c->end));
    if (run->start < run->submit)
        return csvr_fail(r, "start before submit (submit '%s', start '%s')", csvr_field(r, c->submit),
                         csvr_field(r, c->start));
    run->ok = status_ok(csvr_field(r, c->status));
    return 0;
}

/* ---- overrides ------------------------------------------------------------------------ */

struct ovrow {
    char *job;
    long line;
    int used;
    struct slo_override ov;
};

static struct ovrow *ovs;
static size_t novs;

static int cmp_ovrow(const void *a, const void *b)
{
    const struct ovrow *x = a, *y = b;
    int c = strcmp(x->job, y->job);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int load_overrides(const char *path)
{
    int st;
    csvr *r = csvr_open_with(path, cli_dialect("override"), 0, &st);
    if (!r)
        return st;
    int cj = csvr_require(r, "job");
    int cp = csvr_col(r, "period"), ca = csvr_col(r, "a"), cd = csvr_col(r, "d");
    if (cj < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    if (cp < 0 && ca < 0 && cd < 0) {
        slk_error_at(csvr_path(r), 1, "override file has none of the columns 'period', 'a', 'd'");
        csvr_close(r);
        return SLK_EDATA;
    }
    size_t cap = 0;
    int rc;
    while ((rc = csvr_next(r)) > 0) {
        const char *job = csvr_field(r, cj);
        if (!job) {
            csvr_fail(r, "column 'job': missing value");
            break;
        }
        struct slo_override ov = {0};
        int hp = csvr_get_duration(r, cp, &ov.period, CSVR_POSITIVE);
        int ha = hp < 0 ? -1 : csvr_get_duration(r, ca, &ov.a, CSVR_NONNEG);
        int hd = ha < 0 ? -1 : csvr_get_duration(r, cd, &ov.d, CSVR_NONNEG);
        if (hp < 0 || ha < 0 || hd < 0)
            break;
        ov.has_period = hp == 1;
        ov.has_a = ha == 1;
        ov.has_d = hd == 1;
        if (ov.has_a && ov.has_d && !(ov.d > ov.a)) {
            csvr_fail(r, "d must be after a (a '%s', d '%s')", csvr_field(r, ca), csvr_field(r, cd));
            break;
        }
        if (ov.has_period && ov.has_a && !(ov.a < ov.period)) {
            csvr_fail(r, "a must be inside the period (a '%s', period '%s')", csvr_field(r, ca), csvr_field(r, cp));
            break;
        }
        if (ov.has_period && ov.has_a && ov.has_d && ov.d - ov.a > ov.period) {
            csvr_fail(r, "the window from a to d is longer than the period (a '%s', d '%s', period '%s')",
                      csvr_field(r, ca), csvr_field(r, cd), csvr_field(r, cp));
            break;
        }
        ovs = xgrow(ovs, &cap, novs + 1, sizeof *ovs);
        ovs[novs++] = (struct ovrow){xstrdup(job), csvr_line(r), 0, ov};
    }
    st = csvr_status(r);
    if (rc == 0 && st == SLK_OK) {
        qsort(ovs, novs, sizeof *ovs, cmp_ovrow);
        for (size_t i = 1; i < novs; i++)
            if (strcmp(ovs[i].job, ovs[i - 1].job) == 0) {
                slk_error_at(csvr_path(r), ovs[i].line, "duplicate job '%s' (first at line %ld)", ovs[i].job,
                             ovs[i - 1].line);
                st = SLK_EDATA;
                break;
            }
    }
    csvr_close(r);
    return st == SLK_OK ? SLK_OK : st;
}

static struct ovrow *find_override(const char *job)
{
    size_t lo = 0, hi = novs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(ovs[mid].job, job);
        if (c == 0)
            return &ovs[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* ---- output and summary ------------------------------------------------------------------- */

static const char *const statuses[] = {"actionable", "too_few_runs", "not_periodic", "no_consumer",
                                       "too_few_reads", "high_cv", "no_slack", "no_window", NULL};
static size_t status_count[sizeof statuses / sizeof statuses[0]];
static size_t njobs, nrows, nfolded, noverridden, snap_count[SLO_SNAP_GIVEN + 1], nextra, nfailed;

static size_t nproblematic, basis_count[3];

static void emit(csvw *w, const char *job, struct slo_run *runs, size_t n)
{
    struct ovrow *ov = novs ? find_override(job) : NULL;
    if (ov)
        ov->used = 1;
    struct slo_result res;
    slo_infer_job(runs, n, &so, ov ? &ov->ov : NULL, &res);
    char why[200];
    if (isfinite(res.period) && timeunit_span_check("period", res.period, 0, why, sizeof why) < 0)
        slk_warn_at(NULL, 0, "job '%s': %s", job, why);
    csvw_str(w, job);
    csvw_num(w, res.period);
    csvw_num(w, res.a);
    csvw_num(w, res.d);
    csvw_int(w, (int64_t)res.runs);
    csvw_num(w, res.cv);
    csvw_num(w, res.slack_ratio);
    csvw_str(w, res.status);
    csvw_num(w, res.consumer_period);
    char src[48] = "inferred";
    if (res.overridden)
        snprintf(src, sizeof src, "overridden:%s%s%s%s%s", res.overridden & SLO_OV_PERIOD ? "period" : "",
                 (res.overridden & SLO_OV_PERIOD) && (res.overridden & (SLO_OV_A | SLO_OV_D)) ? "+" : "",
                 res.overridden & SLO_OV_A ? "a" : "", (res.overridden & SLO_OV_A) && (res.overridden & SLO_OV_D) ? "+" : "",
                 res.overridden & SLO_OV_D ? "d" : "");
    csvw_str(w, src);
    csvw_str(w, res.basis);
    csvw_num(w, res.cv_start);
    csvw_num(w, res.cv_read);
    csvw_int(w, res.problematic);
    csvw_end(w);
    nproblematic += res.problematic;
    basis_count[res.basis[0] == 'p' ? 0 : res.basis[0] == 'c' ? 1 : 2]++;

    njobs++;
    nrows += n;
    nextra += res.extra;
    nfailed += res.failed;
    nfolded += res.folded;
    noverridden += res.overridden != 0;
    if (res.period > 0)
        snap_count[res.per.snap]++;
    for (int i = 0; statuses[i]; i++)
        if (strcmp(statuses[i], res.status) == 0)
            status_count[i]++;
}

static void summary(void)
{
    if (slk_opt.quiet)
        return;
    char buf[512];
    int len = 0;
    for (int i = 0; statuses[i]; i++)
        if (status_count[i])
            len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%zu %s", len ? ", " : "", status_count[i],
                            statuses[i]);
    fprintf(stderr, "sloinfer: %zu jobs from %zu runs: %s\n", njobs, nrows, len ? buf : "none");
    fprintf(stderr,
            "sloinfer: periods: %zu natural, %zu whole minutes, %zu whole seconds, %zu unsnapped, %zu given; "
            "%zu failed and %zu extra or off-schedule runs not used\n",
            snap_count[SLO_SNAP_NATURAL], snap_count[SLO_SNAP_MINUTE], snap_count[SLO_SNAP_SECOND],
            snap_count[SLO_SNAP_NONE], snap_count[SLO_SNAP_GIVEN], nfailed, nextra);
    if (nfolded)
        fprintf(stderr, "sloinfer: %zu jobs read by consumers with a longer period: deadline folded into the "
                        "job's own period (footnote 5)\n", nfolded);
    if (noverridden)
        fprintf(stderr, "sloinfer: %zu jobs overridden by %s\n", noverridden, override_path);
    if (basis_count[1] + basis_count[2])
        fprintf(stderr, "sloinfer: no output_read in the input: d from the runs' ends (%zu jobs basis "
                        "completion, %zu schedule)\n", basis_count[1], basis_count[2]);
    fprintf(stderr, "sloinfer: %zu jobs problematic (cv_start or cv_read above %g)\n", nproblematic,
            so.problematic_cv);
    for (size_t i = 0; i < novs; i++)
        if (!ovs[i].used)
            slk_warn_at(override_path, ovs[i].line, "override for job '%s' matches no job in the input", ovs[i].job);
}

/* ---- the two input forms ------------------------------------------------------------------------ */

/* seen_before: under --on-error skip, whether (job, instance) was read
 * already (a later duplicate is the row skipped; strict runs find
 * duplicates after reading, with slotab_dup_instance). */
static int seen_before(keyset *seen, const char *job, const char *instance)
{
    if (!seen || !instance)
        return 0;
    size_t lj = strlen(job), li = strlen(instance);
    char *k = xmalloc(lj + li + 2);
    memcpy(k, job, lj);
    k[lj] = '\x1f';
    memcpy(k + lj + 1, instance, li + 1);
    int dup = !keyset_add(seen, k);
    free(k);
    return dup;
}

/* table_row: the current row as a run and its join tag, checked: 0, or -1
 * (csvr_fail: a missing key, a bad value, a duplicate instance). */
static int table_row(csvr *r, const struct cols *c, slo_prov *prov, keyset *seen, struct slo_run *run, long *tag)
{
    const char *j = csvr_field(r, c->job), *in = csvr_field(r, c->instance);
    if (!j || (prov && !in))
        return csvr_fail(r, "column '%s': missing value%s", !j ? "job" : "instance",
                         prov ? " (the events are joined on job and instance)" : "");
    if (read_run(r, c, run) < 0)
        return -1;
    *tag = prov ? slo_prov_add_run(prov, j, in, run->start) : 0;
    if (*tag < 0 || seen_before(seen, j, in))
        return csvr_fail(r, "duplicate instance '%s' of job '%s'", in, j);
    return 0;
}

/* read_table: every run of the table into t (any order).  With prov (form
 * 2) each run is also registered for the provenance join, its tag the
 * join's index.  Under --on-error skip a bad row is skipped (csvr_skip).
 * 0, or a data error (reported). */
static int read_table(csvr *r, slotab *t, slo_prov *prov)
{
    struct cols c;
    if (find_cols(r, &c, prov != NULL, prov != NULL) < 0)
        return SLK_EDATA;
    keyset *seen = slk_opt.on_error_skip && !prov ? keyset_new() : NULL;
    int rc;
    while ((rc = csvr_next(r)) > 0) {
        const char *j = csvr_field(r, c.job), *in = csvr_field(r, c.instance);
        struct slo_run run;
        long tag = 0;
        if (table_row(r, &c, prov, seen, &run, &tag) < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        if (slotab_add(t, j, in, &run, csvr_line(r), tag) < 0) {
            csvr_fail(r, "more than %zu runs (--max-runs): sloinfer holds its input, about 220 bytes a run; "
                         "raise --max-runs or split the runs by job (the output is per job)", max_runs);
            break;
        }
        slk_progress("runs", (uint64_t)csvr_line(r), 0);
    }
    slk_progress_done();
    keyset_free(seen);
    int st = csvr_status(r);
    long line;
    const char *dj, *di;
    if (st == SLK_OK && !prov && slotab_dup_instance(t, &line, &dj, &di)) {
        slk_error_at(csvr_path(r), line, "duplicate instance '%s' of job '%s'", di, dj);
        st = SLK_EDATA;
    }
    return st;
}

/* read_events: apply the provenance events at events_path to prov. */
static int read_events(slo_prov *prov, size_t *nev)
{
    int st, rc = 0;
    csvr *e = csvr_open_with(events_path, cli_dialect("events"), 0, &st);
    if (!e)
        return st;
    int ct = csvr_require(e, "time"), cj = ct < 0 ? -1 : csvr_require(e, "job");
    int ci = cj < 0 ? -1 : csvr_require(e, "instance"), cf = ci < 0 ? -1 : csvr_require(e, "file");
    int co = cf < 0 ? -1 : csvr_require(e, "op");
    while (co >= 0 && (rc = csvr_next(e)) > 0) {
        double t;
        if (get_time(e, ct, &t, CSVR_REQUIRED, "time") < 0)
            break;
        const char *f = csvr_field(e, cf), *op = csvr_field(e, co);
        const char *ej = csvr_field(e, cj), *ei = csvr_field(e, ci);
        if (!f) {
            csvr_fail(e, "column 'file': missing value");
            break;
        }
        enum slo_op o;
        if (op && (strcasecmp(op, "read") == 0 || strcasecmp(op, "r") == 0))
            o = SLO_READ;
        else if (op && (strcasecmp(op, "write") == 0 || strcasecmp(op, "w") == 0))
            o = SLO_WRITE;
        else {
            csvr_fail(e, "column 'op': want 'read' or 'write', got '%s'", op ? op : "");
            break;
        }
        if (slo_prov_event(prov, t, ej ? ej : "", ei ? ei : "", f, o) < 0) {
            csvr_fail(e, "events of file '%s' not in time order ('%s' after a later event); "
                         "sort the events by time first", f, csvr_field(e, ct));
            break;
        }
        (*nev)++;
        slk_progress("events", (uint64_t)csvr_line(e), 0);
    }
    slk_progress_done();
    st = co < 0 ? SLK_EDATA : csvr_status(e);
    csvr_close(e);
    return st;
}

/* join_events: the joined input_avail and output_read into every run. */
static void join_events(slotab *t, size_t ngroups, const slo_prov *prov, size_t nev)
{
    size_t got_ia = 0, got_rd = 0;
    for (size_t j = 0; j < ngroups; j++) {
        struct slo_run *runs;
        const long *tags;
        size_t n;
        slotab_job(t, j, &runs, &tags, &n);
        for (size_t i = 0; i < n; i++) {
            slo_prov_result(prov, tags[i], &runs[i].input_avail, &runs[i].output_read);
            got_ia += !isnan(runs[i].input_avail);
            got_rd += !isnan(runs[i].output_read);
        }
    }
    if (!slk_opt.quiet)
        fprintf(stderr, "sloinfer: %zu events on %zu files joined to %zu runs: %zu got an input_avail, %zu an "
                        "output_read\n", nev, slo_prov_nfiles(prov), slotab_runs(t), got_ia, got_rd);
}

/* choose_basis: --basis, or auto: completion when no run has an output_read. */
static void choose_basis(slotab *t, size_t ngroups)
{
    int has_rd = 0, has_ia = 0;
    for (size_t j = 0; j < ngroups; j++) {
        struct slo_run *runs;
        size_t n;
        slotab_job(t, j, &runs, NULL, &n);
        for (size_t i = 0; i < n; i++) {
            has_rd |= !isnan(runs[i].output_read);
            has_ia |= !isnan(runs[i].input_avail);
        }
    }
    so.basis = basis_opt >= 0 ? (enum slo_basis)basis_opt : has_rd ? SLO_BASIS_PROVENANCE : SLO_BASIS_COMPLETION;
    so.has_input = has_ia;
}

/* infer_all: read the runs (and events), then one row per job, sorted. */
static int infer_all(csvr *r, csvw *w)
{
    slotab *t = slotab_new(max_runs);
    slo_prov *prov = events_path ? slo_prov_new() : NULL;
    size_t nev = 0;
    int st = read_table(r, t, prov);
    if (st == SLK_OK && prov)
        st = read_events(prov, &nev);
    if (st == SLK_OK) {
        size_t ngroups = slotab_group(t);
        if (prov)
            join_events(t, ngroups, prov, nev);
        choose_basis(t, ngroups);
        for (size_t j = 0; j < ngroups; j++) {
            struct slo_run *runs;
            size_t n;
            const char *job = slotab_job(t, j, &runs, NULL, &n);
            emit(w, job, runs, n);
        }
    }
    slo_prov_free(prov);
    slotab_free(t);
    return st;
}

/* Infer every job's SLO from the runs into -o (replaced only when
 * complete) and print the summary.  Returns an exit status. */
static int infer_file(void)
{
    int st = SLK_OK;
    if (override_path && (st = load_overrides(override_path)) != SLK_OK)
        return st;
    csvr *r = csvr_open_with(input, cli_dialect(NULL), 0, &st);
    if (!r)
        return st;
    outf *o = outf_open(slk_opt.output, &st);
    if (!o) {
        csvr_close(r);
        return st;
    }
    csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
    static const char *const header[] = {"job", "period", "a", "d", "runs", "cv", "slack_ratio", "status",
                                         "consumer_period", "source", "basis", "cv_start", "cv_read",
                                         "problematic", NULL};
    csvw_header(w, header);
    st = infer_all(r, w);
    csvr_close(r);
    if (st == SLK_OK)
        summary();
    if (st == SLK_OK && csvw_error(w)) {
        slk_error("write error");
        st = SLK_EIO;
    }
    csvw_free(w);
    return outf_finish(o, st);
}

int main(int argc, char **argv)
{
    slk_init("sloinfer");
    slo_opts_default(&so);
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {options, parse_opt, "[RUNS]", doc, kids, 0, 0};
    cli_roles("runs", "events", "override", (const char *)NULL);
    argp_parse(&argp, argc, argv, 0, NULL, NULL);
    int stdin_uses = (strcmp(input, "-") == 0) + (events_path && strcmp(events_path, "-") == 0) +
                     (override_path && strcmp(override_path, "-") == 0);
    int st = SLK_OK;
    if (stdin_uses > 1) {
        slk_error("only one input can be standard input (give the runs, --events and --override as files)");
        st = SLK_EUSAGE;
    } else {
        split_ok_status();
        st = infer_file();
    }
    for (size_t i = 0; i < novs; i++)
        free(ovs[i].job);
    free(ovs);
    free(ok_status_buf);
    free(ok_status);
    return slk_finish(st);
}
