/* stats — small numerics every tool shares: percentiles, median, MAD,
 * numerically stable mean/variance.
 *
 * Percentiles use linear interpolation between closest ranks (Hyndman & Fan
 * type 7, numpy's and R's default): for sorted x[0..n-1] and p in [0,100],
 * h = (n-1) p/100, result = x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
 * Functions that take a non-const array may reorder it (documented on each).
 * An empty input gives NaN.  Inputs must not contain NaN.
 *
 * Threads: pure functions over the caller's arrays; safe from any thread.
 */
#ifndef SLOKIT_STATS_H
#define SLOKIT_STATS_H

#include <stddef.h>

/* stats_sort: sort ascending in place; x may be NULL when n is 0. */
void stats_sort(double *x, size_t n);
/* stats_percentile_sorted: type-7 percentile of sorted x; p clamped to [0,100]. */
double stats_percentile_sorted(const double *x, size_t n, double p);
/* stats_percentile: same on unsorted x; x is reordered (selection, O(n) average). */
double stats_percentile(double *x, size_t n, double p);
/* stats_median: the 50th percentile; x is reordered. */
double stats_median(double *x, size_t n);
/* stats_mad: median absolute deviation from the median, unscaled
 * (multiply by 1.4826 for a normal-consistent sigma); x is overwritten. */
double stats_mad(double *x, size_t n);

/* stats_median_spread, stats_mad_spread: the median and the MAD (unscaled,
 * about m) of x[0..n-1] read as measured at resolution w: each value stands
 * for a uniform spread over [x - w/2, x + w/2], and the results are those of
 * the mixture of the n spreads, found exactly by a sweep over the spreads'
 * ends (O(n log n)).  Integer-valued data (areas in whole container-steps,
 * lengths in whole steps) has a median and MAD that jump by a whole unit when
 * the counts on either side of a tie shift by one; these move continuously
 * with the counts instead (w = 1: 13, 13, 14, 14, 14 has median 13 2/3,
 * not 14, and 13, 13, 13, 14, 14 has 13 1/3; n equal values give the value
 * and MAD w/4).  w <= 0 (or not finite) gives stats_median / stats_mad.  x
 * is not modified; NaN when n is 0. */
double stats_median_spread(const double *x, size_t n, double w);
double stats_mad_spread(const double *x, size_t n, double m, double w);

/* Running mean/variance/min/max (Welford's algorithm). Zero-initialise. */
struct stats_acc {
    size_t n;
    double mean, m2, min, max, sum;
};
void stats_acc_add(struct stats_acc *a, double x);
/* Sample variance (n-1 denominator); 0 for n < 2. */
double stats_acc_var(const struct stats_acc *a);
double stats_acc_sd(const struct stats_acc *a);
/* Merge b into a (Chan et al. parallel update). */
void stats_acc_merge(struct stats_acc *a, const struct stats_acc *b);

/* stats_gcd / stats_lcm on positive 64-bit integers; lcm returns 0 on overflow. */
/* stats_apportion: split total (>= 0) among n shares in proportion to w
 * (w[i] >= 0, sum > 0) by largest remainder: out[i] = floor(total w[i] /
 * sum), then one more each to the largest remainders, ties to the earlier
 * share, until the parts add up to total.  O(n log n). */
void stats_apportion(const double *w, size_t n, long total, long *out);
long long stats_gcd(long long a, long long b);
long long stats_lcm(long long a, long long b);

#endif
