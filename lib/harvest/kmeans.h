/* kmeans — K-Means clustering (Lloyd's algorithm with k-means++ seeding),
 * seeded and deterministic.
 *
 * Points are rows of a row-major n x dim array.  For a given (points, k,
 * seed) the result is the same on every run and machine: seeding draws from
 * the slokit rng (xoshiro256**), ties in nearest-center assignment go to the
 * lower center index, and an empty cluster is re-seeded with the point
 * farthest from its center (lowest index on ties).  With n_init > 1 the fit
 * with the lowest SSE wins (the first on ties).  Centers come back sorted by
 * their first coordinate (then the next ones), so class numbers are stable.
 *
 * Ownership: the caller owns all arrays.  Errors: -1 for bad arguments
 * (n == 0, k < 1, k > n, dim < 1); nothing is printed.
 *
 * Threads: the module keeps no state; calls on different arrays may run in
 * parallel threads (tenantclass clusters its patterns that way).
 */
#ifndef SLOKIT_KMEANS_H
#define SLOKIT_KMEANS_H

#include <stddef.h>
#include <stdint.h>

/* kmeans_fit: cluster x (n x dim) into k clusters.  Writes centers (k x dim),
 * assign[i] in 0..k-1 for each point, and *sse (sum of squared Euclidean
 * distances of points to their centers) when sse is not NULL.  Runs n_init
 * seedings (>= 1) of at most max_iter Lloyd iterations each.  Returns the
 * number of Lloyd iterations of the winning fit, or -1 on bad arguments. */
int kmeans_fit(const double *x, size_t n, int dim, int k, uint64_t seed, int n_init, int max_iter,
               double *centers, int *assign, double *sse);

/* kmeans_distinct: how many distinct points x holds (an upper bound for a
 * useful k).  x is not modified. */
size_t kmeans_distinct(const double *x, size_t n, int dim);

#endif
