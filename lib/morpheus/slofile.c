/* slofile — sloinfer's run table, events, overrides and SLO rows (see slofile.h). */
#include "morpheus/slofile.h"

#include "base/diag.h"
#include "base/keyset.h"
#include "base/keytab.h"
#include "base/timeunit.h"
#include "morpheus/slotable.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const slofile_run_keys[] = {"job",         "instance",    "submit", "start",           "end",
                                        "input_avail", "output_read", "status", "consumer_period", NULL};
const char *const slofile_event_keys[] = {"time", "job", "instance", "file", "op", NULL};
const char *const slofile_override_keys[] = {"job", "period", "a", "d", NULL};

/* Times beyond year 5000 (or before 1970) are typos, not telemetry; refusing
 * them keeps every period index an exact double. */
#define MAX_TIME 1e11

/* ---- reading runs ---------------------------------------------------------------- */

struct cols {
    int job, instance, submit, start, end, ia, rd, status, cp;
};

/* The successful status values (--ok-status). */
struct ok_list {
    char *buf;  /* v points into it */
    char **v;
    int n;
};

static void ok_list_parse(struct ok_list *ok, const char *list)
{
    char *s = ok->buf = xstrdup(list), *save = NULL;
    for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        ok->v = xreallocarray(ok->v, (size_t)ok->n + 1, sizeof *ok->v);
        ok->v[ok->n++] = tok;
    }
}

static void ok_list_free(struct ok_list *ok)
{
    free(ok->buf);
    free(ok->v);
}

/* status_ok: an empty status, or one of the list (case-insensitive). */
static int status_ok(const struct ok_list *ok, const char *s)
{
    if (!s)
        return 1;
    for (int i = 0; i < ok->n; i++)
        if (strcasecmp(s, ok->v[i]) == 0)
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
    static const char *const names[] = {"job", "submit", "start", "end", "instance"};
    int col[5];
    if (csvr_require_list(r, names, col, need_instance ? 5 : 4) < 0)
        return -1;
    c->job = col[0], c->submit = col[1], c->start = col[2], c->end = col[3];
    c->instance = need_instance ? col[4] : csvr_col(r, "instance");
    c->ia = form2 ? -1 : csvr_col(r, "input_avail");
    c->rd = form2 ? -1 : csvr_col(r, "output_read");
    c->status = csvr_col(r, "status");
    c->cp = csvr_col(r, "consumer_period");
    return 0;
}

/* read_run: the current record as a run; 0 ok, -1 on a data error (reported) */
static int read_run(csvr *r, const struct cols *c, const struct ok_list *ok, struct slo_run *run)
{
    run->input_avail = run->output_read = run->consumer_period = NAN;
    if (get_time(r, c->submit, &run->submit, CSVR_REQUIRED, "submit") < 0 ||
        get_time(r, c->start, &run->start, CSVR_REQUIRED, "start") < 0 ||
        get_time(r, c->end, &run->end, CSVR_REQUIRED, "end") < 0 ||
        get_time(r, c->ia, &run->input_avail, 0, "input_avail") < 0 ||
        get_time(r, c->rd, &run->output_read, 0, "output_read") < 0 ||
        csvr_get_duration(r, c->cp, &run->consumer_period, CSVR_POSITIVE | CSVR_BOUNDED) < 0)
        return -1;
    if (run->end < run->start)
        return csvr_fail(r, "end before start (start '%s', end '%s')", csvr_field(r, c->start), csvr_field(r, c->end));
    if (run->start < run->submit)
        return csvr_fail(r, "start before submit (submit '%s', start '%s')", csvr_field(r, c->submit),
                         csvr_field(r, c->start));
    run->ok = status_ok(ok, csvr_field(r, c->status));
    return 0;
}

/* ---- overrides ------------------------------------------------------------------------ */

static int cmp_ovrow(const void *a, const void *b)
{
    const struct slofile_ovrow *x = a, *y = b;
    int c = strcmp(x->job, y->job);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* override_row: the current override row's fields, checked: 0, or -1
 * (csvr_fail). */
static int override_row(csvr *r, int cp, int ca, int cd, struct slo_override *ov)
{
    int hp = csvr_get_duration(r, cp, &ov->period, CSVR_POSITIVE | CSVR_BOUNDED);
    int ha = hp < 0 ? -1 : csvr_get_duration(r, ca, &ov->a, CSVR_NONNEG | CSVR_BOUNDED);
    int hd = ha < 0 ? -1 : csvr_get_duration(r, cd, &ov->d, CSVR_NONNEG | CSVR_BOUNDED);
    if (hp < 0 || ha < 0 || hd < 0)
        return -1;
    ov->has_period = hp == 1;
    ov->has_a = ha == 1;
    ov->has_d = hd == 1;
    if (ov->has_a && ov->has_d && !(ov->d > ov->a))
        return csvr_fail(r, "d must be after a (a '%s', d '%s')", csvr_field(r, ca), csvr_field(r, cd));
    if (ov->has_period && ov->has_a && !(ov->a < ov->period))
        return csvr_fail(r, "a must be inside the period (a '%s', period '%s')", csvr_field(r, ca),
                         csvr_field(r, cp));
    if (ov->has_period && ov->has_a && ov->has_d && ov->d - ov->a > ov->period)
        return csvr_fail(r, "the window from a to d is longer than the period (a '%s', d '%s', period '%s')",
                         csvr_field(r, ca), csvr_field(r, cd), csvr_field(r, cp));
    return 0;
}

int slofile_overrides_load(const char *path, const struct csv_dialect *d, struct slofile_overrides *O)
{
    int st;
    O->path = path;
    csvr *r = csvr_open_with(path, d, 0, &st);
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
    keyset *seen = keyset_new();
    while (csvr_next(r) > 0) {
        struct slo_override ov = {0};
        const char *job;
        if (override_row(r, cp, ca, cd, &ov) < 0 || !(job = keytab_row(seen, r, cj))) {
            if (csvr_skip(r))
                continue;
            break;
        }
        O->v = xgrow(O->v, &cap, O->n + 1, sizeof *O->v);
        O->v[O->n++] = (struct slofile_ovrow){xstrdup(job), csvr_line(r), 0, ov};
    }
    keyset_free(seen);
    st = csvr_status(r);
    if (st == SLK_OK && O->n > 1) /* a header-only file: v is NULL */
        qsort(O->v, O->n, sizeof *O->v, cmp_ovrow);
    csvr_close(r);
    return st;
}

struct slofile_ovrow *slofile_override_find(struct slofile_overrides *O, const char *job)
{
    size_t lo = 0, hi = O->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(O->v[mid].job, job);
        if (c == 0) {
            O->v[mid].used = 1;
            return &O->v[mid];
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

void slofile_overrides_free(struct slofile_overrides *O)
{
    for (size_t i = 0; i < O->n; i++)
        free(O->v[i].job);
    free(O->v);
    O->v = NULL;
    O->n = 0;
}

/* ---- output and summary ------------------------------------------------------------------- */

const char *const slofile_statuses[] = {"actionable", "too_few_runs", "not_periodic", "no_consumer",
                                        "too_few_reads", "high_cv", "no_slack", "no_window", NULL};

const char *const slofile_header[] = {"job", "period", "a", "d", "runs", "cv", "slack_ratio", "status",
                                      "consumer_period", "source", "basis", "cv_start", "cv_read",
                                      "problematic", NULL};

/* seconds for a message: whole seconds, unless rounding would make x look
 * equal to the bound it is compared with (d - a = 43200.4 against a period
 * of 43200) */
static void secs(char *buf, size_t n, double x, double bound)
{
    if (x == floor(x) || round(x) != round(bound))
        snprintf(buf, n, "%.0f", x);
    else
        snprintf(buf, n, "%.15g", x);
}

/* warn_override_no_window: an overridden job ends no_window (the user's
 * values, or the window inferred with the user's period, are not one
 * lcmpack can place, so the job is no request): say which job and why,
 * at the override's own path:line, since the summary only counts it. */
static void warn_override_no_window(const char *path, const struct slofile_ovrow *ov, const struct slo_result *res)
{
    double P = res->period, a = res->a, d = res->d;
    char x[40], y[40], why[160];
    if (!(d > a)) {
        secs(x, sizeof x, d, a);
        secs(y, sizeof y, a, a);
        snprintf(why, sizeof why, "the override gives d = %s s, not after a = %s s", x, y);
    } else if (a < 0 || !(a < P)) {
        secs(x, sizeof x, a, P);
        secs(y, sizeof y, P, P);
        snprintf(why, sizeof why, "the override gives a = %s s, outside the period [0, %s s)", x, y);
    } else if (d - a > P) {
        secs(x, sizeof x, d - a, P);
        secs(y, sizeof y, P, P);
        snprintf(why, sizeof why, "the override gives d - a = %s s > period %s s", x, y);
    } else {
        secs(y, sizeof y, P, P);
        snprintf(why, sizeof why, "with the override, the runs need more than the period %s s", y);
    }
    slk_warn_at(path, ov->line, "job '%s': %s: no_window", ov->job, why);
}

/* warn_override_unplaced: an overridden d that leaves the job no request
 * (apply_override makes it actionable or no_window only with a period
 * and an a to place it by): say which of them is missing. */
static void warn_override_unplaced(const char *path, const struct slofile_ovrow *ov,
                                   const struct slo_result *res)
{
    int per = isfinite(res->period), a = isfinite(res->a);
    const char *no = per ? "a"
                     : a ? "period"
                         : "period and a",
               *give = per ? "a"
                       : a ? "the period"
                           : "the period and a";
    slk_warn_at(path, ov->line,
                "job '%s': the override's d leaves it %s: no %s to place it by (give %s in the override too)",
                ov->job, res->status, no, give);
}

/* emit: infer one job's SLO from its n runs, write its row, count it. */
static void emit(csvw *w, const char *job, struct slo_run *runs, size_t n, const struct slofile_opts *o,
                 const struct slo_opts *so, struct slofile_tally *t)
{
    struct slofile_ovrow *ov = o->ov && o->ov->n ? slofile_override_find(o->ov, job) : NULL;
    struct slo_result res;
    slo_infer_job(runs, n, so, ov ? &ov->ov : NULL, &res);
    if (ov && res.overridden && strcmp(res.status, "no_window") == 0)
        warn_override_no_window(o->ov->path, ov, &res);
    else if (ov && ov->ov.has_d && strcmp(res.status, "actionable") != 0)
        warn_override_unplaced(o->ov->path, ov, &res);
    else if (ov && ov->ov.has_d && res.slack_ratio < 0)
        slk_warn_at(o->ov->path, ov->line,
                    "job '%s': most of its runs end after the override's d (slack_ratio %.3g)", job,
                    res.slack_ratio);
    char why[200];
    if (isfinite(res.period) && timeunit_span_check("period", res.period, 0, why, sizeof why) < 0)
        slk_warn_many(&t->implausible, NULL, 0, "job '%s': %s", job, why);
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
    t->nproblematic += res.problematic;
    t->basis_count[res.basis[0] == 'p' ? 0 : res.basis[0] == 'c' ? 1 : 2]++;

    t->njobs++;
    t->nrows += n;
    t->nextra += res.extra;
    t->nfailed += res.failed;
    t->nfolded += res.folded;
    t->noverridden += res.overridden != 0;
    if (res.period > 0)
        t->snap_count[res.per.snap]++;
    for (int i = 0; slofile_statuses[i]; i++)
        if (strcmp(slofile_statuses[i], res.status) == 0)
            t->status_count[i]++;
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
    /* NOLINTNEXTLINE(bugprone-not-null-terminated-result): the copy takes the instance's NUL too (li + 1 bytes) */
    memcpy(k, job, lj);
    k[lj] = '\x1f';
    memcpy(k + lj + 1, instance, li + 1);
    int dup = !keyset_add(seen, k);
    free(k);
    return dup;
}

/* table_row: the current row as a run and its join tag, checked: 0, or -1
 * (csvr_fail: a missing key, a bad value, a duplicate instance). */
static int table_row(csvr *r, const struct cols *c, const struct ok_list *ok, slo_prov *prov, keyset *seen,
                     struct slo_run *run, long *tag)
{
    const char *j = csvr_field(r, c->job), *in = csvr_field(r, c->instance);
    if (!j || (prov && !in))
        return csvr_fail(r, "column '%s': missing value%s", !j ? "job" : "instance",
                         prov ? " (the events are joined on job and instance)" : "");
    if (read_run(r, c, ok, run) < 0)
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
/* read_table: every run of r into t (tagged for prov's join); *has_rd says
 * whether the runs carry output_read: the table's column, or the events. */
static int read_table(csvr *r, slotab *t, slo_prov *prov, const struct slofile_opts *o, int *has_rd)
{
    struct cols c;
    if (find_cols(r, &c, prov != NULL, prov != NULL) < 0)
        return SLK_EDATA;
    *has_rd = prov != NULL || c.rd >= 0;
    struct ok_list ok = {0};
    ok_list_parse(&ok, o->ok_status);
    keyset *seen = o->skip && !prov ? keyset_new() : NULL;
    while (csvr_next(r) > 0) {
        const char *j = csvr_field(r, c.job), *in = csvr_field(r, c.instance);
        struct slo_run run;
        long tag = 0;
        if (table_row(r, &c, &ok, prov, seen, &run, &tag) < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        if (slotab_add(t, j, in, &run, csvr_line(r), tag) < 0) {
            csvr_fail(r, "more than %zu runs (--max-runs): sloinfer holds its input, about 220 bytes a run; "
                         "raise --max-runs or split the runs by job (the output is per job)", o->max_runs);
            break;
        }
        csvr_progress(r, "runs");
    }
    slk_progress_done();
    keyset_free(seen);
    ok_list_free(&ok);
    int st = csvr_status(r);
    long line;
    const char *dj, *di;
    if (st == SLK_OK && !prov && slotab_dup_instance(t, &line, &dj, &di)) {
        slk_error_at(csvr_path(r), line, "duplicate instance '%s' of job '%s'", di, dj);
        st = SLK_EDATA;
    }
    return st;
}

/* read_events: apply the provenance events of path to prov. */
static int read_events(const char *path, const struct csv_dialect *d, slo_prov *prov, size_t *nev)
{
    int st;
    csvr *e = csvr_open_with(path, d, 0, &st);
    if (!e)
        return st;
    int ct, cj, ci, cf, co;
    int ok = csvr_require_cols(e, "time", &ct, "job", &cj, "instance", &ci, "file", &cf, "op", &co,
                               (char *)NULL) == 0;
    while (ok && csvr_next(e) > 0) {
        double t;
        if (get_time(e, ct, &t, CSVR_REQUIRED, "time") < 0)
            break;
        const char *f = csvr_field_required(e, cf, "file"), *op = csvr_field(e, co);
        const char *ej = csvr_field(e, cj), *ei = csvr_field(e, ci);
        if (!f) {
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
        csvr_progress(e, "events");
    }
    slk_progress_done();
    st = co < 0 ? SLK_EDATA : csvr_status(e);
    csvr_close(e);
    return st;
}

/* join_events: the joined input_avail and output_read into every run. */
static void join_events(slotab *t, size_t ngroups, const slo_prov *prov, size_t nev, int quiet)
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
    const char *first;
    size_t nf = slo_prov_foreign_reads(prov, &first);
    if (quiet)
        return;
    fprintf(slk_summary(),
            "%s: %zu events on %zu files joined to %zu runs: %zu got an input_avail, %zu an output_read",
            slk_progname, nev, slo_prov_nfiles(prov), slotab_runs(t), got_ia, got_rd);
    if (nf) /* consumers outside the export, or runs in another worker's share */
        fprintf(slk_summary(),
                "; %zu reads by runs not in the run table (the first: job instance %s) read the newest "
                "version, their start unknown",
                nf, first);
    fputc('\n', slk_summary());
}

/* choose_basis: --basis, or auto: provenance when the runs carry
 * output_read (has_rd: the column, or --events), else completion.  From the
 * columns, not the values: the values of a part of the input say nothing
 * of the export, and a worker given only jobs that nobody reads decided
 * completion where one process decided provenance (no_consumer).  A
 * column empty in every run is warned of: every job is then no_consumer. */
static void choose_basis(slotab *t, size_t ngroups, int basis, int has_rd, const char *path, int events,
                         struct slo_opts *so)
{
    so->basis = basis >= 0 ? (enum slo_basis)basis : has_rd ? SLO_BASIS_PROVENANCE : SLO_BASIS_COMPLETION;
    if (basis >= 0 || !has_rd)
        return;
    for (size_t j = 0; j < ngroups; j++) {
        struct slo_run *runs;
        size_t n;
        slotab_job(t, j, &runs, NULL, &n);
        for (size_t i = 0; i < n; i++)
            if (!isnan(runs[i].output_read))
                return;
    }
    if (ngroups > 0 && events) /* path: the events file, which has no read of a run's output */
        slk_warn_at(path, 0,
                    "no run's output is read by another job's run: every job is no_consumer (nobody "
                    "reads it); without provenance, drop --events or give --basis completion");
    else if (ngroups > 0)
        slk_warn_at(path, 0,
                    "output_read is empty in every run: every job is no_consumer (nobody reads it); "
                    "if the export has no provenance, drop the column or give --basis completion");
}

int slofile_infer(csvr *r, const struct slofile_opts *o, csvw *w, struct slofile_tally *tally)
{
    tally->implausible.limit = SLOFILE_UNIT_WARNINGS; /* a wrong --time-unit makes every job's */
    slotab *t = slotab_new(o->max_runs);
    slo_prov *prov = o->events_path ? slo_prov_new() : NULL;
    size_t nev = 0;
    int has_rd = 0;
    int st = read_table(r, t, prov, o, &has_rd);
    if (st == SLK_OK && prov)
        st = read_events(o->events_path, o->events_dialect, prov, &nev);
    if (st == SLK_OK) {
        size_t ngroups = slotab_group(t);
        struct slo_opts so = o->so;
        if (prov)
            join_events(t, ngroups, prov, nev, o->quiet);
        choose_basis(t, ngroups, o->basis, has_rd, prov ? o->events_path : csvr_path(r), prov != NULL, &so);
        for (size_t j = 0; j < ngroups; j++) {
            struct slo_run *runs;
            size_t n;
            const char *job = slotab_job(t, j, &runs, NULL, &n);
            emit(w, job, runs, n, o, &so, tally);
        }
    }
    slo_prov_free(prov);
    slotab_free(t);
    return st;
}
