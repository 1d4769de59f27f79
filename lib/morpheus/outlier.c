/* outlier — the outlier-run rule of skyfit (see outlier.h).  O(n log n) per
 * job for n runs (two medians and two MADs). */
#include "morpheus/outlier.h"
#include "base/stats.h"

#include <math.h>
#include <string.h>

void outlier_defaults(struct outlier_opts *o)
{
    o->k = 3;
    o->floor = 0.1;
    o->min_runs = 5;
    o->unit = 0.5;
}

double outlier_threshold(const double *x, size_t n, double res, const struct outlier_opts *o)
{
    if (n == 0)
        return NAN;
    double med = stats_median_spread(x, n, res);
    double spread = fmax(fmax(1.4826 * stats_mad_spread(x, n, med, res), o->floor * med), o->unit * res);
    /* only runs above the median are outliers, whatever K (the spread median
     * lies up to res/2 below the median of the values themselves) */
    return fmax(med + o->k * spread, stats_median_spread(x, n, 0));
}

size_t outlier_mark(const double *len, const double *area, size_t n, double len_step,
                    const struct outlier_opts *o, unsigned char *out)
{
    memset(out, 0, n);
    if (!(o->k > 0) || n < o->min_runs)
        return 0;
    double tl = outlier_threshold(len, n, len_step, o), ta = outlier_threshold(area, n, 1, o);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        out[i] = len[i] > tl || area[i] > ta;
        m += out[i];
    }
    /* each bound alone marks fewer than half the runs, their union may not:
     * when half the runs or more are off the norm there is no norm */
    if (2 * m >= n) {
        memset(out, 0, n);
        m = 0;
    }
    return m;
}
