/* skyjob — one job's run history turned into its skyline fit (Morpheus §5
 * as skyfit runs it): the job's samples are collected run by run, the runs
 * --window and --last keep are chosen (by start time), each run is aligned
 * at its start and quantized to steps of the model, the outlier runs
 * (outlier.h; a run's length is end - start from the runs table opts.runs
 * when it has the run, else its steps x step) are kept out, the LP
 * (skyline.h) is solved and the job's rows
 *   job,step,offset,alloc[,cores,mem_mb]
 * are written, with one --stats row
 *   job,runs,steps,objective,a_o,a_u,eps,beta,solve_ms,status,excluded,
 *   excluded_runs,longest_run,recorded_lengths,prior_cost
 * per job (status optimal, too_few_runs, too_many_steps or solver_failed;
 * prior_cost the prior's term at the fit, skyline.h, empty when the job
 * was fitted without a prior).
 *
 * Quantization (the skyline's usage matrix s_ik):
 *   CSV samples   the mean (or max) of the samples in each step, counted from
 *                 the run's first sample; a step without samples inside the
 *                 run keeps the value of the step before; the run has
 *                 floor((last - first) / step) + 1 steps (a sample a few
 *                 ulps short of a step's beginning counts as on it: the
 *                 decimal text put it there).
 *   native units  c containers during [offset, offset + interval) after the
 *                 run's start, overlapping units adding up; each step is the
 *                 time-weighted mean (or the max) of that step function; the
 *                 run ends with its last unit (at least one step).
 * A run that has ended uses 0 in the later steps of the matrix.  Its last
 * CSV sample counts for one step: samples more than a step apart (a usage
 * sampled every 300 s fitted with step 60) shrink every run's area by the
 * rest of its last sample's interval; such runs are counted in the totals
 * (sparse_runs, skyfit's warning), not refused.
 *
 * The container shape written beside the allocation is the
 * container-weighted mean of the samples' cores and mem_mb (the plain mean
 * when every sample has 0 containers); native jobs use the estimator's
 * container <1 core, 1024 MB>.
 *
 * Ownership: a skyjob owns copies of everything added to it and its work
 * arrays, reused from one job to the next (skyjob_reset).  Messages: jobs
 * not fitted are named on stderr (the first 10, unless opts.quiet).
 * Thread safety: no shared state; a skyjob and its skyjob_out belong to one
 * thread at a time.
 */
#ifndef SLOKIT_SKYJOB_H
#define SLOKIT_SKYJOB_H

#include "base/csvio.h"
#include "base/diag.h"
#include "morpheus/outlier.h"
#include "morpheus/runlen.h"
#include "morpheus/skyline.h"
#include "morpheus/skyprior.h"

#include <stddef.h>

struct skyjob_opts {
    double step;            /* seconds per step (> 0) */
    int agg_max;            /* a step's usage: max of its samples (else the mean) */
    int min_runs;           /* fewer selected runs: too_few_runs */
    long last;              /* > 0: only the last N runs by start */
    double window;          /* > 0: only runs started within this of the latest */
    int round_up;           /* allocations rounded up to whole containers */
    long max_steps;         /* a longer run: too_many_steps */
    int native;             /* samples are native units (else CSV samples) */
    double native_interval; /* native: seconds a unit lasts */
    int quiet;              /* no stderr messages */
    struct skyline_opts lp;
    struct outlier_opts outliers;
    const runlen *runs;     /* recorded run lengths for the outlier rule (NULL: steps x step) */
    const skyprior *prior;  /* last night's skylines (NULL: none): a job found in it at this step is
                             * fitted with it as the LP's prior (skyline.h), mu = prior_weight * alpha */
    double prior_weight;    /* > 0 */
};

/* skyjob_opts_default: step 60, min_runs 2, max_steps 100000, native
 * interval 5, the LP's and the outlier rule's defaults. */
void skyjob_opts_default(struct skyjob_opts *o);

/* Counts over the jobs fitted (skyfit's summary). */
struct skyjob_totals {
    long jobs, fitted, failed, too_few, too_long, fallback, excluded_runs, excluded_jobs;
    long measured, recorded;   /* runs measured by the outlier rule; their lengths from opts.runs */
    long sparse_runs, sparse_jobs; /* CSV runs whose samples are all more than a step apart */
    double sparse_gap;             /* the closest samples of those runs, seconds */
    long prior_jobs;               /* fitted with a prior */
    long prior_kept;               /* of those, written exactly as the prior (every step) */
    long prior_other_step;         /* in the prior at another step: fitted without it */
    double solve_s;
    struct slk_many not_fitted; /* the jobs named on stderr as not fitted (the first few) */
    struct slk_many cut_short;  /* native log runs whose skyline ends before the run (warned) */
    /* runs whose recorded start lies over a day (plus their length) from
     * their first sample: the runs table is in another unit or clock; the
     * first one's line of the runs table and what to say of it */
    long runs_apart, apart_line;
    char apart[320];
};

/* Where the jobs' rows go: w the allocations (shape_cols: with cores and
 * mem_mb), ws the --stats rows (NULL: none). */
struct skyjob_out {
    const struct skyjob_opts *o;
    csvw *w, *ws;
    int shape_cols;
    struct skyjob_totals tot;
    /* the jobs not fitted, named (the first SLK_MANY_SHOWN) only once the
     * whole input was read: a job that comes back later (input not
     * grouped) was not the whole job when it was fitted */
    char *held[SLK_MANY_SHOWN];
    int nheld;
};

/* skyjob_out_release: print the held "job 'X': not fitted" notes on stderr
 * when print (the input was read to its end without error) and free them. */
void skyjob_out_release(struct skyjob_out *out, int print);

/* The headers of the allocation rows (with and without the shape) and of
 * the --stats rows. */
extern const char *const skyjob_cols[], *const skyjob_cols_plain[], *const skyjob_stats_cols[];

/* One sample of a run: c containers at time t (CSV) or during
 * [t, t + interval) after the run's start (native). */
struct skyjob_sample {
    int run;
    double t, c;
};

/* skyjob_steps_csv: steps of a run whose n samples (sorted by t) start at
 * start: floor((s[n-1].t - start) / step) + 1, capped at 1e15; a sample
 * within a few ulps of a step's beginning counts as on it (decimal times a
 * whole number of steps apart may differ by a hair less as doubles). */
long skyjob_steps_csv(const struct skyjob_sample *s, size_t n, double start, double step);
/* skyjob_quantize_csv: the run's usage in u[0..k-1] (see the header). */
void skyjob_quantize_csv(const struct skyjob_sample *s, size_t n, double start, double step, int agg_max,
                         double *u, long k);
/* skyjob_steps_native: steps covering the last unit's end (at least 1). */
long skyjob_steps_native(const struct skyjob_sample *s, size_t n, double interval, double step);
/* skyjob_quantize_native: the run's usage in u[0..k-1] (see the header). */
void skyjob_quantize_native(const struct skyjob_sample *s, size_t n, double interval, double step,
                            int agg_max, double *u, long k);

typedef struct skyjob skyjob;

/* skyjob_new: an empty job; skyjob_free frees it (NULL is fine). */
skyjob *skyjob_new(void);
void skyjob_free(skyjob *j);

/* skyjob_reset: start job `name` (no runs, no samples). */
void skyjob_reset(skyjob *j, const char *name);
/* skyjob_name: the current job's name. */
const char *skyjob_name(const skyjob *j);

/* skyjob_run: the index of run `name`, created with start time `start` when
 * new (*created set to 1, else 0; created may be NULL).  The start of a CSV
 * run is replaced by its first sample's time when it is fitted. */
int skyjob_run(skyjob *j, const char *name, double start, int *created);

/* skyjob_add: a sample of run `run` (from skyjob_run). */
void skyjob_add(skyjob *j, int run, double t, double c);

/* skyjob_shape: a CSV sample's container shape (c containers of cores
 * cores and mem MB each) in run `run` (from skyjob_run), for the shape
 * columns: the mean over the samples of the runs the fit keeps. */
void skyjob_shape(skyjob *j, int run, double c, double cores, double mem);

/* skyjob_fit: select, quantize and fit the current job, write its rows to
 * out->w and its stats row to out->ws, count it in out->tot.  A job that
 * cannot be fitted gets a stats row with its status and no rows. */
void skyjob_fit(skyjob *j, struct skyjob_out *out);

#endif
