/* skyread — skyfit's inputs, job by job (see skyread.h). */
#include "morpheus/skyread.h"

#include "base/csvio.h"
#include "base/diag.h"
#include "base/group.h"
#include "morpheus/native.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

const char *const skyread_usage_keys[] = {"job", "run", "t", "containers", "cores", "mem_mb", NULL};

/* One parsed usage row. */
struct sample_row {
    double t, c, cores, mem;
};

/* A row held by -s: its run name (in the held store) and values. */
struct held_row {
    const char *run;
    struct sample_row x;
};

/* add_sample: a row of the current job. */
static void add_sample(skyjob *j, const char *run, const struct sample_row *x, int shape)
{
    int r = skyjob_run(j, run, x->t, NULL);
    skyjob_add(j, r, x->t, x->c);
    if (shape)
        skyjob_shape(j, r, x->c, x->cores, x->mem);
}

/* held_fit: fit every held job but the last, which is left in j; returns
 * whether j holds one. */
static int held_fit(group_held *h, skyjob *j, struct skyjob_out *out)
{
    size_t n = group_held_sort(h);
    const char *prev = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *job;
        const struct held_row *row = group_held_row(h, i, &job, NULL);
        if (!prev || strcmp(job, prev) != 0) {
            if (prev)
                skyjob_fit(j, out);
            skyjob_reset(j, job);
        }
        prev = job;
        add_sample(j, row->run, &row->x, out->shape_cols);
    }
    return n > 0;
}

/* usage_cols: the columns of r (job, run, t, containers; cores and mem_mb
 * both or neither).  0, or an exit status (reported). */
static int usage_cols(csvr *r, int c[6])
{
    if (csvr_require_cols(r, "job", &c[0], "run", &c[1], "t", &c[2], "containers", &c[3], (char *)NULL) < 0) {
        int st = csvr_status(r);
        return st ? st : SLK_EDATA;
    }
    c[4] = csvr_col(r, "cores");
    c[5] = csvr_col(r, "mem_mb");
    if ((c[4] >= 0) != (c[5] >= 0)) {
        slk_error_at(csvr_path(r), 1, "column '%s' without '%s': give both or neither",
                     c[4] >= 0 ? "cores" : "mem_mb", c[4] >= 0 ? "mem_mb" : "cores");
        return SLK_EDATA;
    }
    return SLK_OK;
}

/* Largest plausible containers, cores per container or MB per container: a
 * bigger value is a unit or parsing mistake, and sums of them (c x mem_mb
 * over a job's rows) would overflow to inf. */
#define USAGE_MAX 1e12

/* usage_value: column c[i] of the row into *v (flags as csvr_get_double),
 * then the plausibility bound; 0, or -1 (csvr_fail). */
static int usage_value(csvr *r, const int c[6], int i, double *v, int flags)
{
    if (csvr_get_double(r, c[i], v, flags) < 0)
        return -1;
    if (*v > USAGE_MAX)
        return csvr_fail_large(r, c[i], USAGE_MAX);
    return 0;
}

/* usage_row: the current row's values; 0, or -1 (csvr_fail).  A container
 * may have 0 cores or 0 MB (a Google 2011 task that requests no CPU), not
 * both: the rule of lcmpack's and replay's readers. */
static int usage_row(csvr *r, const int c[6], int shape, struct sample_row *x)
{
    *x = (struct sample_row){.cores = 0, .mem = 0};
    if (csvr_get_time(r, c[2], &x->t, CSVR_REQUIRED) < 0 ||
        usage_value(r, c, 3, &x->c, CSVR_REQUIRED | CSVR_NONNEG) < 0)
        return -1;
    if (!shape)
        return 0;
    if (usage_value(r, c, 4, &x->cores, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
        usage_value(r, c, 5, &x->mem, CSVR_REQUIRED | CSVR_NONNEG) < 0)
        return -1;
    return x->cores == 0 && x->mem == 0 ? csvr_fail(r, "container of 0 cores and 0 MB") : 0;
}

int skyread_csv(csvr *r, struct skyjob_out *out, int sort)
{
    int c[6];
    int st = usage_cols(r, c);
    if (st)
        return st;
    int shape = out->shape_cols = c[4] >= 0;
    csvw_header(out->w, shape ? skyjob_cols : skyjob_cols_plain);
    if (out->ws)
        csvw_header(out->ws, skyjob_stats_cols);

    group_iter g;
    group_begin(&g, "job", GROUP_SORTABLE);
    group_where(&g, csvr_path(r), c[0] + 1, csvr_delimiter(r), csvr_has_header(r));
    skyjob *j = skyjob_new();
    group_held *h = sort ? group_held_new(sizeof(struct held_row)) : NULL;
    int have = 0;
    while (csvr_next(r) == 1) {
        const char *job, *run;
        if (!(job = csvr_field_required(r, c[0], "job")) || !(run = csvr_field_required(r, c[1], "run"))) {
            if (csvr_skip(r))
                continue;
            break;
        }
        int gc = h ? GROUP_SAME : group_next(&g, csvr_path(r), csvr_line(r), job);
        if (gc == GROUP_ERROR) {
            st = SLK_EDATA;
            break;
        }
        struct sample_row x;
        int bad = usage_row(r, c, shape, &x) < 0;
        if (bad && !csvr_skip(r))
            break;
        if (h) {
            if (!bad)
                group_held_add(h, job, 0, csvr_line(r), &(struct held_row){group_held_strdup(h, run), x});
            continue;
        }
        if (gc == GROUP_NEW) {
            if (have)
                skyjob_fit(j, out);
            skyjob_reset(j, job);
            have = 0;
        }
        if (bad)
            continue; /* skipped (--on-error skip); the job starts here, fitted once a row is good (as -s) */
        have = 1;
        add_sample(j, run, &x, shape);
        csvr_progress(r, "rows");
    }
    slk_progress_done();
    if (st == SLK_OK)
        st = csvr_status(r);
    if (st == SLK_OK && h)
        have = held_fit(h, j, out);
    if (st == SLK_OK && have)
        skyjob_fit(j, out);
    group_held_free(h);
    skyjob_free(j);
    group_end(&g);
    return st;
}

/* The native reader's state between lines. */
struct native_ctx {
    const char *file;
    struct skyjob_out *out;
    skyjob *j;
    group_iter g;
    int have, memory;
    struct native_run nr;
};

/* One line of the native format (lib/morpheus/native): warn when its skyline
 * stops before the run's end, then add its units to the job. */
static int native_line(struct native_ctx *x, long line, char *s)
{
    char err[512];
    struct native_run *nr = &x->nr;
    double interval = x->out->o->native_interval;
    int rc = native_parse(s, nr, err, sizeof err);
    if (rc <= 0) {
        if (rc < 0)
            slk_error_at(x->file, line, "%s", err);
        return rc < 0 ? SLK_EDATA : SLK_OK;
    }
    int gc = group_next(&x->g, x->file, line, nr->job);
    if (gc == GROUP_ERROR)
        return SLK_EDATA;
    if (gc == GROUP_NEW) {
        if (x->have)
            skyjob_fit(x->j, x->out);
        skyjob_reset(x->j, nr->job);
        x->have = 1;
    }
    int created;
    int run = skyjob_run(x->j, nr->run, (double)nr->start_ms / 1000.0, &created);
    if (!created) {
        slk_error_at(x->file, line, "run '%s' of job '%s' appears twice", nr->run, nr->job);
        return SLK_EDATA;
    }
    double covered, length;
    native_coverage(nr, interval, &covered, &length);
    if (covered + interval < length)
        slk_warn_many(&x->out->tot.cut_short, x->file, line,
                      "run '%s' of job '%s': the %s skyline ends at %g s of a %g s run "
                      "(the rest is not in the log; fitted as a %g s run)",
                      nr->run, nr->job, x->memory ? "memory" : "container", covered, length, covered);
    /* memory: the units' containers x the log's MB per container, counted in
     * the 1024 MB containers skyfit writes for this format */
    double scale = x->memory ? nr->mem_mb / 1024 : 1;
    for (size_t u = 0; u < nr->n; u++)
        skyjob_add(x->j, run, nr->u[u].offset, nr->u[u].containers * scale);
    return SLK_OK;
}

/* read_line: the next line of fp with its LF into *buf (grown as needed,
 * NUL-terminated; it may hold NUL bytes).  Returns its length, -1 at the end
 * of input, or -2 once it exceeds CSVR_MAX_RECORD bytes (the rest of the
 * line unread), so a stream with no line end cannot fill memory. */
static ssize_t read_line(FILE *fp, char **buf, size_t *cap)
{
    size_t n = 0;
    int c = EOF;
    while ((c = getc_unlocked(fp)) != EOF) {
        if (n + 2 > *cap)
            *buf = xgrow(*buf, cap, n + 2, 1);
        (*buf)[n++] = (char)c;
        if (c == '\n')
            break;
        if (n > CSVR_MAX_RECORD)
            return -2;
    }
    if (n == 0)
        return -1;
    (*buf)[n] = 0;
    return (ssize_t)n;
}

int skyread_native(FILE *fp, const char *file, struct skyjob_out *out, int memory)
{
    out->shape_cols = 1;
    csvw_header(out->w, skyjob_cols);
    if (out->ws)
        csvw_header(out->ws, skyjob_stats_cols);
    struct native_ctx x = {.file = file, .out = out, .j = skyjob_new(), .memory = memory};
    group_begin(&x.g, "job", GROUP_STRICT); /* -s reads CSV only */
    group_where(&x.g, file, 1, 0, 0); /* blank-separated lines, the job first */
    int st = SLK_OK;
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    ssize_t len;
    while ((len = read_line(fp, &line, &cap)) != -1) {
        lineno++;
        if (len == -2) {
            slk_error_at(file, lineno, "line longer than %zu bytes", CSVR_MAX_RECORD);
            st = SLK_EDATA;
            break;
        }
        if ((size_t)len != strlen(line)) {
            slk_error_at(file, lineno, "NUL byte in line");
            st = SLK_EDATA;
            break;
        }
        char *l =
            line + (lineno == 1 && strncmp(line, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0); /* a byte order mark */
        const char *p = l + strspn(l, " \t\r\n");
        if (*p == '#' || (p[0] == '/' && p[1] == '/'))
            continue;
        st = native_line(&x, lineno, l);
        if (st != SLK_OK)
            break;
    }
    if (st == SLK_OK && ferror(fp)) {
        slk_error("%s: read error: %s", file, strerror(errno));
        st = SLK_EIO;
    }
    if (st == SLK_OK && lineno == 0) {
        slk_error_at(file, 1, "empty input");
        st = SLK_EDATA;
    }
    if (st == SLK_OK && x.have)
        skyjob_fit(x.j, out);
    free(line);
    native_free(&x.nr);
    skyjob_free(x.j);
    group_end(&x.g);
    return st;
}
