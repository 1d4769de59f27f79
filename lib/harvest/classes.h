/* classes — the classes of primary tenants (seed 003 §4.1): K-Means on the
 * (avg, peak) utilization of the tenants of each pattern, with k chosen
 * automatically, and the class table classpick and replplace read.
 *
 * Automatic k: the smallest k (from 1, at most k_max and the number of
 * distinct points) whose RMS distance of the points to their class centers
 * is at most the tolerance; k_max when none is.  A fixed k is capped at the
 * distinct points too.  The K-Means seed of a pattern is derived from the
 * run's seed and the pattern's name only, and rows are clustered in tenant
 * order, so the classes do not depend on how the input was sharded.
 *
 * Ownership: centers returned are the caller's (free); the tenant_set is the
 * caller's and only its cls fields are written.  Errors: none (arguments are
 * validated by the caller); nothing is printed except by classes_write's
 * csvw.  Threads: no state; calls on different data may run in parallel.
 */
#ifndef SLOKIT_CLASSES_H
#define SLOKIT_CLASSES_H

#include "base/csvio.h"
#include "harvest/tenantio.h"

#include <stddef.h>
#include <stdint.h>

/* classes_kmeans_auto: K-Means on x (n x dim, n >= 1) with k = k_fixed when
 * k_fixed > 0, else the automatic k above (k_max >= 1).  Writes assign[0..n)
 * and returns the k x dim centers (malloc'd), *k and *rms (the RMS distance
 * of points to their centers, sqrt(SSE / n)). */
double *classes_kmeans_auto(const double *x, size_t n, int dim, int k_fixed, int k_max, double tolerance,
                            uint64_t seed, int n_init, int max_iter, int *assign, int *k, double *rms);

/* How to cluster. */
struct classes_opts {
    int k_fixed[PATTERN_N]; /* 0: automatic */
    int k_max;
    double tolerance;       /* in 0-1 utilization units */
    int n_init, max_iter;
    uint64_t seed;
};

/* The classes of one pattern. */
struct pattern_classes {
    int k;          /* 0 when the pattern has no tenant */
    double rms;
    double *center; /* k x 2 (avg, peak); free it */
};

/* classes_cluster: cluster the tenants of every pattern of ts (rows sorted
 * by tenant) and set each row's cls; pcs[p] gets pattern p's classes. */
void classes_cluster(struct tenant_set *ts, const struct classes_opts *o, struct pattern_classes pcs[PATTERN_N]);

/* classes_name: "PATTERN-N" for class cls (0-based) of pattern p. */
void classes_name(char *buf, size_t cap, int p, int cls);

/* classes_write: the class table (class,pattern,avg_util,peak_util,
 * tenants,servers), one row per class: the class's average server, that is
 * server-weighted means of avg and peak (plain means when no servers), the
 * peak never below the avg (a class of spiky tenants, whose p99 is below
 * their mean, gets its avg as peak), in 0-100 when percent. */
void classes_write(csvw *w, const struct tenant_set *ts, const struct pattern_classes pcs[PATTERN_N], int percent);

#endif
