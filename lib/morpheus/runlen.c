/* runlen — recorded run lengths from a runs table (see runlen.h). */
#include "morpheus/runlen.h"

#include "base/diag.h"
#include "base/keyset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const runlen_keys[] = {"job", "instance", "start", "end", NULL};

struct runlen {
    keyset *k;               /* "job\x1finstance" -> row */
    struct runlen_row *rows; /* by row */
    size_t cap, nlen;
    char *path;
};

/* run_length: the current row's start and end - start (NaN: no end) into
 * *row; 0, or -1 after csvr_fail. */
static int run_length(csvr *r, int cs, int ce, struct runlen_row *row)
{
    double s, e;
    int he;
    if (csvr_get_time(r, cs, &s, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
        (he = csvr_get_time(r, ce, &e, CSVR_NONNEG)) < 0)
        return -1;
    *row = (struct runlen_row){s, NAN, csvr_line(r)};
    if (he == 0)
        return 0;
    if (e < s)
        return csvr_fail(r, "end before start (start '%s', end '%s')", csvr_field(r, cs), csvr_field(r, ce));
    row->len = e - s;
    return 0;
}

/* run_key: "job\x1finstance" (the project's pair key, as sloinfer's) in
 * buf when it fits in cap bytes, else in a malloc'd string the caller
 * frees (*heap set). */
static char *run_key(const char *job, const char *instance, char *buf, size_t cap, char **heap)
{
    size_t lj = strlen(job), li = strlen(instance);
    char *k = buf;
    *heap = NULL;
    if (lj + li + 2 > cap)
        k = *heap = xmalloc(lj + li + 2);
    /* NOLINTNEXTLINE(bugprone-not-null-terminated-result): the separator and the instance follow */
    memcpy(k, job, lj);
    k[lj] = '\x1f';
    /* NOLINTNEXTLINE(bugprone-not-null-terminated-result): the copy takes the instance's NUL too (li + 1 bytes) */
    memcpy(k + lj + 1, instance, li + 1);
    return k;
}

/* add_row: the current row's (job, instance) into t->k as its next row;
 * 0, or -1 after csvr_fail (a missing key, a pair seen before: the first
 * row is kept).  Called after the row's other checks: a rejected row does
 * not enter the set. */
static int add_row(runlen *t, csvr *r, int cj, int ci)
{
    const char *j, *in;
    if (!(j = csvr_field_required(r, cj, NULL)) || !(in = csvr_field_required(r, ci, NULL)))
        return -1;
    char buf[256], *heap;
    long first;
    long row = keyset_put(t->k, run_key(j, in, buf, sizeof buf, &heap), csvr_line(r), &first);
    free(heap);
    if (row < 0)
        return csvr_fail(r, "duplicate instance '%s' of job '%s' (first at line %ld)", in, j, first);
    return 0;
}

int runlen_load(const char *path, const struct csv_dialect *d, runlen **out)
{
    int st;
    *out = NULL;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int cj, ci, cs, ce;
    if (csvr_require_cols(r, "job", &cj, "instance", &ci, "start", &cs, "end", &ce, (char *)NULL) < 0) {
        st = csvr_status(r);
        csvr_close(r);
        return st ? st : SLK_EDATA;
    }
    runlen *t = xcalloc(1, sizeof *t);
    t->k = keyset_new();
    t->path = xstrdup(csvr_path(r));
    while (csvr_next(r) == 1) {
        struct runlen_row rr;
        /* add_row last: a rejected row does not enter the set */
        if (run_length(r, cs, ce, &rr) < 0 || add_row(t, r, cj, ci) < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        size_t row = keyset_size(t->k) - 1;
        t->rows = xgrow(t->rows, &t->cap, row + 1, sizeof *t->rows);
        t->rows[row] = rr;
        t->nlen += !isnan(rr.len);
    }
    st = csvr_status(r);
    csvr_close(r);
    if (st != SLK_OK) {
        runlen_free(t);
        return st;
    }
    *out = t;
    return SLK_OK;
}

int runlen_find(const runlen *t, const char *job, const char *instance, struct runlen_row *row)
{
    if (!t)
        return -1;
    char buf[256], *heap;
    long i = keyset_row(t->k, run_key(job, instance, buf, sizeof buf, &heap));
    free(heap);
    if (i < 0)
        return -1;
    *row = t->rows[i];
    return 0;
}

const char *runlen_path(const runlen *t) { return t ? t->path : ""; }

size_t runlen_rows(const runlen *t) { return t ? keyset_size(t->k) : 0; }

size_t runlen_lengths(const runlen *t) { return t ? t->nlen : 0; }

void runlen_free(runlen *t)
{
    if (!t)
        return;
    keyset_free(t->k);
    free(t->rows);
    free(t->path);
    free(t);
}
