/* pattern — the usage pattern of one primary tenant's CPU utilization
 * series (harvesting paper, seed 003 §4.1): periodic, constant or
 * unpredictable, decided from the FFT of the series resampled to a fixed
 * step.
 *
 * The steps.  pattern_resample puts raw (t, util) samples on a grid of one
 * step (a step's value is the mean of its samples, steps without one are
 * filled by linear interpolation).  pattern_classify computes the features of
 * the resampled series: mean, a high percentile (the peak), the standard
 * deviation from the power spectrum, the "slow" standard deviation (periods
 * at least rules.low_period long), and for each candidate period T the
 * strength (the share of the variance in the comb of bins around T's first
 * `harmonics` harmonics) and, for the strongest, the correlation of the
 * series with itself one period later.  The rule:
 *   periodic      when strength >= periodic_min and repeat >= repeat_min,
 *   constant      else when the slow sd <= constant_max,
 *   unpredictable otherwise.
 * Utilization is in 0-1 units throughout.
 *
 * Ownership: callers own the arrays they pass; a pattern_ws owns its scratch
 * arrays and is reused across tenants (pattern_ws_free releases them).
 * Errors: pattern_classify returns -1 only when FFTW cannot plan; nothing is
 * printed.
 * Threads: no state of its own; a pattern_ws and an fft_cache belong to one
 * thread (one of each per reader thread); rules are read-only and may be
 * shared.
 */
#ifndef SLOKIT_PATTERN_H
#define SLOKIT_PATTERN_H

#include "harvest/fft.h"

#include <stddef.h>

enum { PATTERN_PERIODIC, PATTERN_CONSTANT, PATTERN_UNPREDICTABLE, PATTERN_N };
#define PATTERN_MAX_PERIODS 8
/* the most steps pattern_resample makes for one series */
#define PATTERN_MAX_STEPS 50000000.0

/* pattern_name: "periodic", "constant" or "unpredictable" (p in 0..PATTERN_N-1). */
const char *pattern_name(int p);
/* pattern_from_name: the pattern called s, or -1. */
int pattern_from_name(const char *s);

/* The decision rules and their parameters (tenantclass(1) documents each). */
struct pattern_rules {
    double step;                          /* resampling step, s */
    int nperiods;
    double periods[PATTERN_MAX_PERIODS];  /* candidate periods, s */
    double min_cycles;                    /* a period is tested with at least this many cycles */
    int harmonics;                        /* harmonics counted in a period's strength */
    double periodic_min, repeat_min;      /* periodic thresholds */
    double constant_max;                  /* constant threshold on the slow sd */
    double low_period;                    /* "slow": periods at least this long, s */
    double peak_pct;                      /* peak = this percentile */
};

/* The features of one resampled series. */
struct pattern_features {
    double avg, peak, sd, sd_low, strength, period, repeat;
    int pattern;
};

/* Scratch space reused across series; zero-initialise it. */
typedef struct {
    double *bin, *cnt, *spec, *tmp;
    size_t cap_bin, cap_cnt, cap_spec, cap_tmp;
} pattern_ws;

/* pattern_ws_free: release the scratch arrays (ws itself is the caller's). */
void pattern_ws_free(pattern_ws *ws);

/* pattern_resample: samples (t[i], u[i]), i < n (n >= 1, any order), on the
 * grid t0 + j * step with t0 = floor(min t / step) * step: step j's value is
 * the mean of the samples in [t0 + j step, t0 + (j+1) step); empty steps are
 * filled linearly between the nearest steps that have samples (the first and
 * last steps always do).  Returns the grid (in ws, valid until the next call)
 * with *nb steps, *missing of them filled; NULL when the grid would exceed
 * PATTERN_MAX_STEPS (then *nb says how many it would have, capped at 1e18). */
double *pattern_resample(pattern_ws *ws, const double *t, const double *u, size_t n, double step, size_t *nb,
                         long *missing);

/* pattern_gaps: the *nb and *missing that pattern_resample would give for
 * the times t[0..n) (n >= 1, any order), without making the grid: time
 * O(n log n) and memory O(n) whatever the span, so that a series too sparse
 * to classify is turned down before a grid of up to PATTERN_MAX_STEPS steps
 * is filled for it (two samples 5.4e9 s apart: 706 MB and 8.6 s at 120 s
 * steps).  Uses ws->cnt; returns 0, or -1 when the grid would exceed
 * PATTERN_MAX_STEPS (*nb as pattern_resample's). */
int pattern_gaps(pattern_ws *ws, const double *t, size_t n, double step, size_t *nb, long *missing);

/* pattern_lag_correlation: Pearson correlation of x[0..n-lag) with
 * x[lag..n); 0 when lag is 0 or >= n or either part is flat. */
double pattern_lag_correlation(const double *x, size_t n, size_t lag);

/* pattern_high_percentile: the type-7 percentile p (0-100) of x[0..n-1],
 * equal to stats_percentile's, without reordering x; scratch holds n
 * doubles.  Fast for high p (a heap of the top values). */
double pattern_high_percentile(const double *x, size_t n, double p, double *scratch);

/* pattern_classify: the features and pattern of the resampled series
 * x[0..n-1] (n >= 1) under rules r.  Returns 0, or -1 when FFTW could not
 * plan a transform of length n. */
int pattern_classify(fft_cache *fc, pattern_ws *ws, const double *x, size_t n, const struct pattern_rules *r,
                     struct pattern_features *f);

#endif
