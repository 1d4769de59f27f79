/* runband — many runs of one job summarised as percentiles per time step,
 * for charts that must stay readable with hundreds of runs (skyplot
 * skyline: an hourly job over two weeks is 338 runs).
 *
 * Each run is a series of (offset, value) samples, offsets in seconds from
 * the run's start.  Time is cut into bins of `width` seconds; a run's value
 * in a bin is the mean of its samples there, the previous bin's value when
 * it has none (a sample holds until the next), and 0 after its last sample's
 * bin (the run is over).  Per bin, the type-7 percentiles lo_p, 50 and hi_p
 * over all runs are returned.
 *
 * Ownership: runband_compute allocates the three arrays (free them with
 * runband_free).  Not shared between threads.
 */
#ifndef SLOKIT_RUNBAND_H
#define SLOKIT_RUNBAND_H

#include <stddef.h>

struct runband {
    size_t nbins;
    double width;             /* seconds */
    double *lo, *mid, *hi;    /* per bin */
};

/* runband_compute: runs r = 0..nruns-1 have n[r] samples x[r][], y[r][]
 * (x ascending, >= 0); width > 0; 0 <= lo_p <= hi_p <= 100.  Returns 0, or -1
 * when there are no samples. */
int runband_compute(size_t nruns, const size_t *n, double *const *x, double *const *y,
                    double width, double lo_p, double hi_p, struct runband *b);

void runband_free(struct runband *b);

#endif
