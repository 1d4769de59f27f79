/* runband — percentiles of many runs per time step (see runband.h). */
#include "plot/runband.h"

#include "base/diag.h"
#include "base/stats.h"

#include <math.h>
#include <stdlib.h>

/* run r's value in every bin, into v[0..nbins) */
static void run_bins(size_t n, const double *x, const double *y, double width, size_t nbins, double *v)
{
    size_t j = 0, last = n ? (size_t)floor(x[n - 1] / width) : 0;
    double carry = 0;
    for (size_t k = 0; k < nbins; k++) {
        double sum = 0;
        size_t cnt = 0;
        for (; j < n && (size_t)floor(x[j] / width) == k; j++) {
            sum += y[j];
            cnt++;
        }
        if (cnt)
            carry = sum / (double)cnt;
        v[k] = k <= last && n ? carry : 0;
    }
}

int runband_compute(size_t nruns, const size_t *n, double *const *x, double *const *y,
                    double width, double lo_p, double hi_p, struct runband *b)
{
    double end = -1;
    for (size_t r = 0; r < nruns; r++)
        if (n[r] && x[r][n[r] - 1] > end)
            end = x[r][n[r] - 1];
    if (end < 0 || !(width > 0))
        return -1;
    b->width = width;
    b->nbins = (size_t)floor(end / width) + 1;
    b->lo = xcalloc(b->nbins, sizeof *b->lo);
    b->mid = xcalloc(b->nbins, sizeof *b->mid);
    b->hi = xcalloc(b->nbins, sizeof *b->hi);
    double *v = xcalloc(nruns * b->nbins, sizeof *v), *col = xcalloc(nruns, sizeof *col);
    for (size_t r = 0; r < nruns; r++)
        run_bins(n[r], x[r], y[r], width, b->nbins, v + r * b->nbins);
    for (size_t k = 0; k < b->nbins; k++) {
        for (size_t r = 0; r < nruns; r++)
            col[r] = v[r * b->nbins + k];
        stats_sort(col, nruns);
        b->lo[k] = stats_percentile_sorted(col, nruns, lo_p);
        b->mid[k] = stats_percentile_sorted(col, nruns, 50);
        b->hi[k] = stats_percentile_sorted(col, nruns, hi_p);
    }
    free(v);
    free(col);
    return 0;
}

void runband_free(struct runband *b)
{
    free(b->lo);
    free(b->mid);
    free(b->hi);
    b->lo = b->mid = b->hi = NULL;
}
