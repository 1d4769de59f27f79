/* native — one line of the Hadoop ResourceEstimator's native skyline log
 * (hadoop-tools/hadoop-resourceestimator, NativeSingleLineParser), the
 * input of `skyfit --format native`.
 *
 *   name instances submit_ms start_ms end_ms runId containerSpec skyline
 *   tpch_q12 50 1462148517000 1462148527345 1462148952345 tpch_q12_0 8192:0| 1:0|1:5|1074:10|
 *
 * containerSpec is "memoryMB:vcores" of one container (a trailing '|' is
 * allowed); the skyline is "containers:offset" units joined (and optionally
 * ended) by '|', offsets in seconds after the start, each unit lasting the
 * estimator's timeInterval; in any order (the estimator writes them
 * increasing, but its reader adds each unit into a sorted map, so neither
 * it nor skyfit requires that).  The log says nothing after the last unit,
 * so a skyline that ends long before end_ms (the real tpch_q12 runs: 25 s
 * of 245-425 s) is a truncated record, which native_coverage reports.
 *
 * Ownership: native_parse splits the caller's line in place; the parsed run
 * points into it and into a unit array it owns (freed by native_free).  Not
 * shared between threads; one struct per thread is fine.
 */
#ifndef SLOKIT_NATIVE_H
#define SLOKIT_NATIVE_H

#include <stddef.h>
#include <stdint.h>

struct native_unit { double containers, offset; };

struct native_run {
    const char *job, *run;
    int64_t start_ms, end_ms;
    double mem_mb, vcores;      /* one container, from containerSpec */
    struct native_unit *u;      /* in line order */
    size_t n, cap;
};

/* native_parse: parse line (modified in place) into r.  Returns 1 with r
 * filled, 0 for a blank line, -1 with a one-line reason in err (lowercase,
 * the bad value quoted, naming the field: "field 8 (skyline): invalid unit
 * '1x:0' (...)").  A YARN ResourceManager log line is recognised and said to
 * be one. */
int native_parse(char *line, struct native_run *r, char *err, size_t errlen);

/* native_coverage: the seconds of the run the skyline covers (the last unit's
 * offset + interval) and the run's length (end - start, seconds). */
void native_coverage(const struct native_run *r, double interval, double *covered, double *length);

/* native_free: free the unit array (r may be reused after it). */
void native_free(struct native_run *r);

#endif
