/* memprof — per-task memory profiles (normal, p90, peak, spread, class), the
 * filler-sizing arithmetic, and the probabilistic peak model of seed 004
 * ("Consuming wasted resources in large clusters").
 *
 * Profiles.  A memprof_acc collects one task's samples (t, mem_mb) as they
 * stream in; memprof_finish turns them into a struct memprof.  Memory is
 * proportional to one task's samples; the accumulator is reused task after
 * task (memprof_acc_reset), so a grouped input of any length is profiled in
 * one pass.  Definitions (all in MB):
 *     normal  = the type-7 percentile of the samples (default the median, p50) or their mean
 *     p90     = type-7 90th percentile;  peak = maximum
 *     spread  = (peak - normal) / normal           (0 when both are 0)
 *     use     = normal / alloc
 *     waste   = alloc - normal (in decimal when both are short decimals:
 *               1072 - 902.05 is 169.95, not 169.95000000000005)
 *     class   = well-behaved when use >= well_use and spread <= well_spread,
 *               else poorly-behaved
 * The default thresholds (well_use 0.75, well_spread 0.30) separate the
 * paper's two example tasks: the well-behaved one (normal 1100, peak 1350,
 * alloc about 1420: use 0.77, spread 0.23) and the poorly-behaved one (normal
 * 1375, peak 2000, alloc 2000: use 0.69, spread 0.45).
 *
 * Peak model.  A struct memmodel generates one task's memory, one step at a
 * time, as a function of the task's own progress (so pausing a task delays
 * its trajectory but does not change it): a base level normal * (1 + noise *
 * tri) with tri triangular on (-1, 1), and peaks that start as a Poisson
 * process whose rate varies sinusoidally with progress, rate(tau) = (1 + amp
 * sin(2 pi tau / period + phase)) / gap_s, drawn by thinning.  A peak lasts
 * uniform(0.5, 1.5) * peak_s seconds and is a trapezoid: a linear rise over a
 * quarter of it from the base level to exactly peak, a plateau, and a linear
 * fall over the last quarter.  Same parameters, seed and key give the same
 * trajectory.
 *
 * Thread safety: no shared state; an accumulator or a struct memmodel
 * belongs to one thread at a time, parameters are only read.
 *
 * Errors: nothing here prints or fails; callers validate parameters (the
 * ranges are in the contract comments).
 */
#ifndef SLOKIT_MEMPROF_H
#define SLOKIT_MEMPROF_H

#include "base/rng.h"
#include "base/stats.h"

#include <stddef.h>

/* ---- profiles ---------------------------------------------------------------- */

enum memprof_class { MEMPROF_WELL = 0, MEMPROF_POOR = 1 };

struct memprof_opts {
    double normal_pct;   /* < 0: normal is the mean; else the percentile in [0, 100] */
    double well_use;     /* well-behaved needs normal/alloc >= this (default 0.75) */
    double well_spread;  /* ... and (peak - normal)/normal <= this (default 0.30) */
};

/* memprof_opts_default: normal = the median (p50), well_use 0.75, well_spread 0.30. */
struct memprof_opts memprof_opts_default(void);

struct memprof {
    size_t n;            /* samples */
    double alloc;        /* the task's allocation (MB); NaN when unknown */
    double mean, normal, p90, peak, min;
    double spread;       /* (peak - normal) / normal */
    double use;          /* normal / alloc (NaN without alloc) */
    double waste;        /* alloc - normal (NaN without alloc) */
    double growth;       /* largest rise between consecutive samples, MB/s (0 with < 2 samples) */
    enum memprof_class cls;
};

/* One task's samples.  Zero-initialise or memprof_acc_init; the accumulator
 * owns its arrays (memprof_acc_free). */
struct memprof_acc {
    double *mem;         /* samples in arrival order (reordered by memprof_finish) */
    size_t n, cap;
    struct stats_acc st;
    double last_t, last_mem, growth;
};

void memprof_acc_init(struct memprof_acc *a);
void memprof_acc_free(struct memprof_acc *a);
/* memprof_acc_reset: forget the samples, keep the storage. */
void memprof_acc_reset(struct memprof_acc *a);
/* memprof_acc_add: one sample.  t must be greater than the previous sample's
 * t (the caller checks: memprof_acc_last_t); mem must be finite and >= 0. */
void memprof_acc_add(struct memprof_acc *a, double t, double mem);
/* memprof_acc_last_t: t of the last sample added (undefined when n == 0). */
static inline double memprof_acc_last_t(const struct memprof_acc *a) { return a->last_t; }

/* memprof_finish: the profile of the samples in a (n >= 1) with allocation
 * alloc (NaN when unknown: use/waste are NaN and the class only looks at the
 * spread).  Reorders a->mem.  Never fails. */
void memprof_finish(struct memprof_acc *a, double alloc, const struct memprof_opts *o,
                    struct memprof *out);

/* memprof_of_series: the profile of mem[0..n) (n >= 1) as if streamed one
 * sample a second, with allocation alloc; mem is not modified.  Used to
 * learn a task's profile from the earlier part of its series (peakgate
 * --simulate --train) and replay the rest.  Never fails. */
void memprof_of_series(const double *mem, size_t n, double alloc, const struct memprof_opts *o,
                       struct memprof *out);

/* memprof_classify: the class rule of the header comment on given numbers
 * (alloc NaN: only the spread counts). */
enum memprof_class memprof_classify(double normal, double peak, double alloc,
                                    const struct memprof_opts *o);

/* memprof_class_name: "well-behaved" or "poorly-behaved". */
const char *memprof_class_name(enum memprof_class c);

/* ---- filler sizing ----------------------------------------------------------- */

/* What the node can give a filler task.  Inputs: node memory, the sums over
 * the node's tasks, the largest growth rate of its well-behaved tasks and the
 * migration cost.  Model (seed 004, "Small filler processes"):
 *   unallocated = node - sum(alloc)
 *   unused      = sum(max(alloc - normal, 0))        allocated but unused
 *   headroom    = node - sum(normal)                 free while tasks sit at normal
 *   migrate_s   = state_mb * cost_s_per_mb           time to move the filler
 *   threshold   = growth * migrate_s                 kill/migrate when free < threshold
 *   filler_peak = headroom - threshold               (fits while the others are normal)
 *   filler_normal = min(unallocated - threshold, filler_peak)
 *                                                    (fits even when every task uses its
 *                                                     whole allocation)
 * The filler's state size is its peak unless state_mb > 0 is given; then
 * filler_peak = headroom / (1 + growth * cost), solved in closed form.
 * Negative sizes are clamped to 0. */
struct memfill_in {
    double node_mb;
    double sum_alloc, sum_normal, sum_unused;
    double growth_mb_s;      /* >= 0 */
    double cost_s_per_mb;    /* >= 0 (the paper: 0.005) */
    double state_mb;         /* > 0: fixed filler state size; <= 0: the filler's peak */
};
struct memfill {
    double unallocated, unused, headroom;
    double migrate_s, threshold_mb;
    double filler_normal, filler_peak;
};
/* memfill_size: the numbers above.  Never fails. */
void memfill_size(const struct memfill_in *in, struct memfill *out);

/* ---- the probabilistic peak model ------------------------------------------------ */

struct memmodel_params {
    double normal_mb;    /* base level, > 0 */
    double peak_mb;      /* plateau of every peak, >= normal_mb */
    double gap_s;        /* mean time between peaks at the average rate, > 0 */
    double peak_s;       /* mean peak length, > 0 */
    double amp;          /* rate variation amplitude in [0, 1) */
    double period_s;     /* period of the rate variation, > 0 */
    double noise;        /* base-level noise, fraction of normal in [0, 0.5] */
    double step_s;       /* seconds per step, > 0 */
};

/* memmodel_params_paper: the paper's simulated task: normal 500 MB, peak
 * 1200 MB, gap 210 s, peak 150 s (about 10 peaks an hour), amp 0.5 over an
 * hour, noise 0.03, 1 s steps. */
struct memmodel_params memmodel_params_paper(void);

struct memmodel {
    struct memmodel_params p;
    rng r;
    double phase;        /* of the rate variation, radians */
    long long tau;       /* steps generated so far */
    long long next_start;/* step at which the next peak starts */
    long long pk_start, pk_len; /* current peak (pk_len 0: none yet) */
    long long peaks;     /* peaks whose plateau has been reached */
    double base;         /* base level at the peak's start (the ramp's foot) */
};

/* memmodel_init: a task's model from (seed, key): its own random stream, so a
 * task's trajectory does not depend on the other tasks. */
void memmodel_init(struct memmodel *m, const struct memmodel_params *p, uint64_t seed,
                   const char *key);
/* memmodel_next: the memory (MB) at the next step; advances the model. */
double memmodel_next(struct memmodel *m);
/* memmodel_in_peak: 1 when the last value returned was part of a peak. */
int memmodel_in_peak(const struct memmodel *m);

#endif
