/* stages — skylines to LowCost stages at the plan step (see stages.h).
 * Moved out of lcmpack; the arithmetic and the messages are unchanged. */
#include "morpheus/stages.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/group.h"
#include "base/keyset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const stages_keys[] = {"job", "step", "offset", "alloc", "cores", "mem_mb", "gang", NULL};

/* The message of a row that breaks the spacing, for the reader and resample. */
#define UNEVEN_FMT "job '%s': skyline offsets are not evenly spaced by its step %g s (%g s, then %g s)"

/* one_step_after: offset off is one step dt after prev (to 1e-6 of the step). */
static int one_step_after(double prev, double off, double dt)
{
    return fabs((off - prev) - dt) <= 1e-6 * dt;
}

/* check_spacing: rows evenly spaced by the job's step.  0, or -1 with why.
 * stages_read checks each row as it comes (at its own line); this keeps
 * stages_resample safe for a caller that did not. */
static int check_spacing(const struct stages_job *j, const struct stages_row *rows, size_t n, char *why,
                         size_t whyn)
{
    for (size_t i = 1; i < n; i++)
        if (!one_step_after(rows[i - 1].off, rows[i].off, j->step)) {
            snprintf(why, whyn, UNEVEN_FMT, j->job, j->step, rows[i - 1].off, rows[i].off);
            return -1;
        }
    return 0;
}

int stages_resample(struct stages_job *j, const struct stages_row *rows, size_t n, double S, char *why,
                    size_t whyn)
{
    double dt = j->step;
    if (check_spacing(j, rows, n, why, whyn) < 0)
        return -1;
    double t0 = rows[0].off, end = rows[n - 1].off - t0 + dt;
    if (end / S > 1e7) {
        snprintf(why, whyn, "job '%s': skyline spans %g s, more than 10,000,000 steps of %g s", j->job, end, S);
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
    int rc = 0;
    for (long k = 0; k < ns; k++) {
        int64_t dem = (int64_t)ceil(area[k] - 1e-9);
        if (dem <= 0)
            continue; /* idle steps: the allocation stays contiguous without them */
        if (dem > INT32_MAX / 2 || mx[k] > INT32_MAX / 2) {
            snprintf(why, whyn, "job '%s': demand too large", j->job);
            rc = -1;
            break;
        }
        struct lowcost_stage *s = &j->st[j->nst++];
        s->demand = dem;
        s->maxpar = (int32_t)ceil(mx[k] - 1e-9);
        s->gang = gg[k] > 0 ? gg[k] : 1;
        if (s->maxpar < s->gang)
            s->maxpar = s->gang;
    }
    free(area), free(mx), free(gg);
    return rc;
}

/* The columns of a skyline file. */
struct skycols {
    int job, step, off, alloc, cores, mem, gang;
};

static int open_columns(csvr *r, struct skycols *c)
{
    int bad = csvr_require_cols(r, "job", &c->job, "step", &c->step, "offset", &c->off, "alloc", &c->alloc,
                                (char *)NULL) < 0;
    c->cores = csvr_col(r, "cores"), c->mem = csvr_col(r, "mem_mb"), c->gang = csvr_col(r, "gang");
    if (bad) {
        int st = csvr_status(r);
        return st ? st : SLK_EDATA;
    }
    if ((c->cores >= 0) != (c->mem >= 0)) {
        slk_error_at(csvr_path(r), 1, "column '%s' without column '%s' (give both or neither)",
                     c->cores >= 0 ? "cores" : "mem_mb", c->cores >= 0 ? "mem_mb" : "cores");
        return SLK_EDATA;
    }
    return SLK_OK;
}

/* One skyline row's values. */
struct skyvals {
    double off, alloc, step, cores, mem;
    int64_t gang;
};

/* get_row: the current row's values, checked.  0 or -1 (printed). */
static int get_row(csvr *r, const struct skycols *c, const struct stages_opts *o, struct skyvals *v)
{
    v->cores = o->cont_cores, v->mem = o->cont_mem, v->gang = 1;
    if (csvr_get_double(r, c->step, &v->step, CSVR_REQUIRED | CSVR_POSITIVE | CSVR_BOUNDED) < 0 ||
        csvr_get_double(r, c->off, &v->off, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0 ||
        csvr_get_double(r, c->alloc, &v->alloc, CSVR_REQUIRED | CSVR_NONNEG) < 0)
        return -1;
    if (c->cores >= 0 && (csvr_get_double(r, c->cores, &v->cores, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0 ||
                          csvr_get_double(r, c->mem, &v->mem, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0))
        return -1;
    if (c->gang >= 0 && csvr_get_int64(r, c->gang, &v->gang, CSVR_POSITIVE) < 0)
        return -1;
    if (v->gang > 1000000)
        return csvr_fail_large(r, c->gang, 1e6);
    if (v->cores == 0 && v->mem == 0)
        return csvr_fail(r, "container of 0 cores and 0 MB");
    if (v->alloc > 1e8)
        return csvr_fail_large(r, c->alloc, 1e8);
    return 0;
}

/* same_job_row: a further row of the current job must keep its step, come
 * one step after the previous offset and keep the container size.  0 or -1
 * (reported at this row's own line, csvr_line: a quoted field holding a
 * newline does not shift it). */
static int same_job_row(csvr *r, const char *job, const struct stages_job *cur, const struct stages_row *prev,
                        const struct skyvals *v)
{
    /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): cur is the current job, set when its first row started it */
    if (v->step != cur->step)
        return csvr_fail(r, "job '%s': column 'step' changes within the job (%g s, then %g s)", job, cur->step,
                         v->step);
    if (v->off <= prev->off)
        return csvr_fail(r, "job '%s': offset %g not after the previous %g (rows sorted by offset)", job, v->off,
                         prev->off);
    if (!one_step_after(prev->off, v->off, cur->step))
        return csvr_fail(r, UNEVEN_FMT, job, cur->step, prev->off, v->off);
    if (v->cores != cur->cores || v->mem != cur->mem_mb)
        return csvr_fail(r, "job '%s': container size changes within the job", job);
    return 0;
}

/* The reader's state: the jobs so far and the current job's rows. */
struct skyread {
    csvr *r;
    double S;
    struct stages_job *jobs;
    size_t njobs, jobcap;
    struct stages_row *rows;
    size_t n, cap;
    long *lines; /* the current job's rows' lines (--on-error skip drops them, drop_current) */
    size_t lcap;
    int keep_rows;
};

/* finish: resample the current job (the last one added).  0 or -1. */
static int finish(struct skyread *R)
{
    if (!R->njobs || !R->n)
        return 0;
    struct stages_job *j = &R->jobs[R->njobs - 1];
    char why[512];
    if (stages_resample(j, R->rows, R->n, R->S > 0 ? R->S : j->step, why, sizeof why) == 0) {
        if (R->keep_rows) {
            j->rows = xmalloc(R->n * sizeof *j->rows);
            memcpy(j->rows, R->rows, R->n * sizeof *j->rows);
            j->nrows = R->n;
        }
        return 0;
    }
    slk_error_at(csvr_path(R->r), j->line, "%s", why);
    return -1;
}

/* drop_current: under --on-error skip, a job with a bad row is dropped
 * whole (a skyline with a row missing is not the job's skyline): when job
 * is the one being read, its rows so far go too, each to the rejects at its
 * own line, counted as dropped with the job (csvr_drop_at). */
static void drop_current(struct skyread *R, const char *job)
{
    struct stages_job *cur = R->njobs ? &R->jobs[R->njobs - 1] : NULL;
    if (!cur || cur->st || strcmp(cur->job, job) != 0)
        return;
    long bad = csvr_line(R->r);
    for (size_t i = 0; i < R->n; i++)
        csvr_drop_at(R->r, R->lines[i], "job", "job '%s': skyline dropped (its row at line %ld was skipped)",
                     job, bad);
    free(cur->job);
    R->njobs--;
    R->n = 0;
}

/* read_one: one row into the reader.  0, or -1 (printed; *st set when the
 * error is not the reader's). */
static int read_one(struct skyread *R, group_iter *g, const struct skycols *c, const struct stages_opts *o,
                    int *st)
{
    csvr *r = R->r;
    const char *job = csvr_field_required(r, c->job, "job");
    if (!job)
        return -1;
    int gc = group_row(g, r, job);
    if (gc == GROUP_ERROR)
        return -1;
    struct skyvals v;
    if (get_row(r, c, o, &v) < 0)
        return -1;
    if (gc == 1) {
        if (finish(R) < 0) {
            *st = SLK_EDATA;
            return -1;
        }
        if ((long long)R->njobs >= o->max_jobs) { /* a limit, not a bad row: never skipped */
            slk_error_at(csvr_path(r), csvr_line(r), "more than %lld requests (--max-requests)", o->max_jobs);
            *st = SLK_EDATA;
            return -1;
        }
        R->jobs = xgrow(R->jobs, &R->jobcap, R->njobs + 1, sizeof *R->jobs);
        struct stages_job *cur = &R->jobs[R->njobs++];
        *cur = (struct stages_job){.job = xstrdup(job), .line = csvr_line(r), .cores = v.cores, .mem_mb = v.mem,
                                   .step = v.step};
        R->n = 0;
    } else if (same_job_row(r, job, &R->jobs[R->njobs - 1], &R->rows[R->n - 1], &v) < 0) {
        return -1;
    }
    R->rows = xgrow(R->rows, &R->cap, R->n + 1, sizeof *R->rows);
    R->lines = xgrow(R->lines, &R->lcap, R->n + 1, sizeof *R->lines);
    R->lines[R->n] = csvr_line(r);
    R->rows[R->n++] = (struct stages_row){.off = v.off, .alloc = v.alloc, .gang = (int32_t)v.gang};
    return 0;
}

int stages_read(const char *path, double S, const struct stages_opts *o, struct stages_job **jobs,
                size_t *njobs)
{
    *jobs = NULL;
    *njobs = 0;
    int st;
    csvr *r = csvr_open_with(path, o->csv, 0, &st);
    if (!r)
        return st;
    struct skycols c;
    if ((st = open_columns(r, &c)) != SLK_OK) {
        csvr_close(r);
        return st;
    }
    group_iter g;
    group_begin(&g, "job", GROUP_STRICT);
    struct skyread R = {.r = r, .S = S, .keep_rows = o->keep_rows};
    char *dropped = NULL; /* --on-error skip: the job a bad row took out */
    while (csvr_next(r) > 0) {
        const char *job = csvr_field(r, c.job);
        if (dropped && job && strcmp(job, dropped) == 0) { /* only under --on-error skip */
            csvr_drop_at(r, csvr_line(r), "job", "job '%s': dropped (an earlier row of it was skipped)", job);
            continue;
        }
        if (read_one(&R, &g, &c, o, &st) == 0)
            continue;
        if (st != SLK_OK || !csvr_skip(r))
            break;
        if (job && (!dropped || strcmp(dropped, job) != 0)) {
            drop_current(&R, job);
            free(dropped);
            dropped = xstrdup(job);
        }
    }
    free(dropped);
    if (st == SLK_OK)
        st = csvr_status(r);
    if (st == SLK_OK && finish(&R) < 0)
        st = SLK_EDATA;
    free(R.rows);
    free(R.lines);
    group_end(&g);
    csvr_close(r);
    *jobs = R.jobs;
    *njobs = R.njobs;
    return st;
}

void stages_jobs_free(struct stages_job *jobs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(jobs[i].job);
        free(jobs[i].st);
        free(jobs[i].rows);
    }
    free(jobs);
}
