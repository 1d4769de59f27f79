/* outlier — which runs of a job are too long or too large to model as its
 * normal behaviour (Morpheus §2 Fig. 2b, §5, §7): skyfit keeps them out of the
 * skyline LP and leaves them to the dynamic reprovisioning (DRA), as the
 * paper does.
 *
 * The rule (one rule, documented in skyfit(1)): run i is an outlier when
 *     len_i  > median(len)  + k * spread(len)    or
 *     area_i > median(area) + k * spread(area)
 * where spread(x) = max(1.4826 * MAD(x), floor * median(x), unit * res(x)).
 * 1.4826 MAD is the robust standard deviation (a straggler cannot inflate it
 * the way it inflates a standard deviation); the floor (a fraction of the
 * median) keeps a job whose runs are nearly identical from losing runs to a
 * few percent of noise; unit * res(x), half the resolution the values are
 * measured at (res is one step for lengths, in the lengths' unit: step/2
 * seconds for lengths in seconds; one container-step for areas), keeps the
 * spread from falling below that resolution: lengths counted in whole steps
 * of a job whose runs take 3 or 4 steps in about equal numbers have MAD 0 or
 * 1 depending on which side of half the 3s fall, and without the unit a
 * one-day slide of the history would flip all its 4-step runs in or out of
 * the fit (and its reservation with them).  Lengths recorded to the second
 * (skyfit --runs, runlen.h) have a MAD below one step: that is what lets
 * the rule see the straggler of a job whose normal runs span 1 to 3 steps
 * by their phase alone.  Only long or large runs are outliers: short runs (early finishes,
 * light days) are normal behaviour the skyline must not over-cover anyway.
 * Fewer than min_runs runs: nothing is an outlier (a median of 3 is not a
 * norm).  Strictly fewer than half the runs can be outliers: each bound
 * lies above its median, so it marks fewer than half, and when the two
 * together mark half the runs or more (long runs and large runs that are
 * not the same ones) the job has no norm and nothing is an outlier.
 *
 * Pure functions over caller-owned arrays; nothing is kept between calls;
 * safe to call from several threads at once.
 */
#ifndef SLOKIT_OUTLIER_H
#define SLOKIT_OUTLIER_H

#include <stddef.h>

struct outlier_opts {
    double k;       /* spreads above the median; <= 0 turns the rule off */
    double floor;   /* minimum spread as a fraction of the median (0.1) */
    size_t min_runs;/* fewer runs: nothing is an outlier (5) */
    double unit;    /* minimum spread in resolutions of the values (0.5: half a step) */
};

/* outlier_defaults: k 3, floor 0.1, min_runs 5, unit 0.5 (see skyfit(1)). */
void outlier_defaults(struct outlier_opts *o);

/* outlier_mark: out[i] = 1 when run i (length len[i], area area[i] in
 * container-steps, both finite and >= 0) is an outlier by the rule above,
 * else 0.  len_step: one step in the unit of len (1 when lengths are step
 * counts, the step in seconds when they are seconds).  Returns the number
 * marked.  len and area are not modified. */
size_t outlier_mark(const double *len, const double *area, size_t n, double len_step,
                    const struct outlier_opts *o, unsigned char *out);

/* outlier_threshold: median(x) + k * spread(x) of x[0..n-1] (not modified),
 * the bound of the rule, for values measured at resolution res (spread at
 * least o->unit * res); NaN when n == 0. */
double outlier_threshold(const double *x, size_t n, double res, const struct outlier_opts *o);

#endif
