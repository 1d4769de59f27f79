/* runlen — recorded run lengths from a runs table (see runlen.h). */
#include "morpheus/runlen.h"

#include "base/diag.h"
#include "base/keyset.h"
#include "base/keytab.h"

#include <math.h>
#include <stdlib.h>

struct runlen {
    keyset *k;      /* instance -> row (keytab's rule) */
    double *len;    /* by row: end - start, NaN without an end */
    size_t cap, nlen;
};

/* run_length: the current row's end - start (NaN: no end); 0, or -1 after
 * csvr_fail. */
static int run_length(csvr *r, int cs, int ce, double *len)
{
    double s, e;
    int he;
    if (csvr_get_time(r, cs, &s, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
        (he = csvr_get_time(r, ce, &e, CSVR_NONNEG)) < 0)
        return -1;
    if (he == 0) {
        *len = NAN;
        return 0;
    }
    if (e < s)
        return csvr_fail(r, "end before start (start '%s', end '%s')", csvr_field(r, cs), csvr_field(r, ce));
    *len = e - s;
    return 0;
}

int runlen_load(const char *path, const struct csv_dialect *d, runlen **out)
{
    int st;
    *out = NULL;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int ci = csvr_require(r, "instance");
    int cs = ci < 0 ? -1 : csvr_require(r, "start");
    int ce = cs < 0 ? -1 : csvr_require(r, "end");
    if (ce < 0) {
        st = csvr_status(r);
        csvr_close(r);
        return st ? st : SLK_EDATA;
    }
    runlen *t = xcalloc(1, sizeof *t);
    t->k = keyset_new();
    while (csvr_next(r) == 1) {
        double len = NAN;
        /* keytab_row last: a rejected row does not enter the set */
        if (run_length(r, cs, ce, &len) < 0 || !keytab_row(t->k, r, ci)) {
            if (csvr_skip(r))
                continue;
            break;
        }
        size_t row = keyset_size(t->k) - 1;
        t->len = xgrow(t->len, &t->cap, row + 1, sizeof *t->len);
        t->len[row] = len;
        t->nlen += !isnan(len);
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

double runlen_get(const runlen *t, const char *instance)
{
    long row = t ? keyset_row(t->k, instance) : -1;
    return row < 0 ? NAN : t->len[row];
}

size_t runlen_rows(const runlen *t) { return t ? keyset_size(t->k) : 0; }

size_t runlen_lengths(const runlen *t) { return t ? t->nlen : 0; }

void runlen_free(runlen *t)
{
    if (!t)
        return;
    keyset_free(t->k);
    free(t->len);
    free(t);
}
