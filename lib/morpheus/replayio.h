/* replayio — replay(1)'s inputs, read into a replay set (lib/morpheus/replay).
 *
 *   SLO file          job,period,a,d[,status] (sloinfer): the usable requests
 *                     become the set's jobs (sorted by name); the others are
 *                     counted (n.unusable).
 *   --provisioned     job,provisioned: the static regime's containers per run
 *                     of the jobs already read (other jobs ignored).
 *   --runs            job,instance,input_avail: when each run's input was
 *                     available (for --align reservation).
 *   usage             job,run,t,containers[,cores,mem_mb], grouped by run
 *                     and sorted by t within a run: each run of a job with a
 *                     usable SLO whose first sample is within [from, until)
 *                     is resampled onto the grid of set.step seconds (its
 *                     recorded end is the last sample plus the gap before
 *                     it); runs of other jobs are counted (n.runs_noslo,
 *                     n.runs_outside).
 * Read the SLO file first (the others look jobs up in it) and set set.step
 * before the usage.
 *
 * Errors: "tool: FILE:LINE: message" and an exit status (base/diag.h).  A
 * dialect with rejects (--on-error skip) skips a bad usage, provisioned or
 * runs row (listed, counted there) and goes on; the SLO file follows
 * morpheus/slo.  Limits: a run over REPLAYIO_MAX_RUN_STEPS steps, or runs
 * spanning more than max_steps steps, stop the read (SLK_EDATA).
 *
 * The outputs (replay's per-run rows and --summary) are written here too,
 * so the tool's main only opens files and calls.
 *
 * Ownership: the replayio owns the set and the run table (replayio_free).
 * Not shared between threads; distinct replayios are independent.
 */
#ifndef SLOKIT_REPLAYIO_H
#define SLOKIT_REPLAYIO_H

#include "base/csvio.h"
#include "morpheus/plan.h"
#include "morpheus/replay.h"

#include <stdint.h>

struct replayio_opts {
    double cont_cores, cont_mem;  /* a container's size when the usage has no cores/mem_mb columns */
    double from, until;           /* runs whose first sample is in [from, until) (-inf, +inf: all) */
    long max_steps;               /* the most steps the runs may span, first to last */
};

struct replayio_counts {
    long rows;                    /* usage rows read */
    long runs_in;                 /* runs of jobs with a usable SLO (kept or outside) */
    long runs_noslo;              /* runs of jobs without one */
    long runs_outside;            /* runs outside [from, until) */
    long unusable;                /* SLO rows not usable */
};

struct replayio_avail;

struct replayio {
    struct replay_set set;        /* what was read (step: set by the caller) */
    struct replayio_counts n;
    /* private */
    struct replayio_opts o;
    struct replayio_avail *avails;
    size_t navail, jobcap, runcap;
    int64_t span_lo, span_hi;     /* grid steps covered by the runs read */
};

/* replayio_init: an empty replayio reading with o (copied). */
void replayio_init(struct replayio *io, const struct replayio_opts *o);
/* replayio_free: free the set and the run table; io may be initialised again. */
void replayio_free(struct replayio *io);

/* The columns each reader looks up by name, NULL-terminated: what a tool gives cli_keys as its --col KEYs
 * for that input.  replayio_provisioned_keys: replayio_read_provisioned; replayio_runs_keys:
 * replayio_read_runs; replayio_usage_keys: replayio_read_usage. */
extern const char *const replayio_provisioned_keys[];
extern const char *const replayio_runs_keys[];
extern const char *const replayio_usage_keys[];

/* The most containers per run a --provisioned row may give (a million
 * machines of 100 containers each): beyond any cluster, and it keeps a run's
 * over-allocation under CSVR_MAX_VALUE container-seconds for runs of up to
 * 1e7 s (116 days).  A larger value is refused as too large. */
#define REPLAYIO_MAX_PROVISIONED 1e8

/* The most steps one run may span, first sample to end, whatever max_steps:
 * a run holds one double per step (80 MB at this limit), so a run a bad
 * timestamp stretches over decades (10 years at 60 s is 5.3e6 steps) is
 * refused rather than allocated.  replay(1) documents it. */
#define REPLAYIO_MAX_RUN_STEPS 10000000L

/* The readers: each returns SLK_OK, or the status of the error it printed. */
int replayio_read_slo(struct replayio *io, const char *path, const struct csv_dialect *d);
int replayio_read_provisioned(struct replayio *io, const char *path, const struct csv_dialect *d);
int replayio_read_runs(struct replayio *io, const char *path, const struct csv_dialect *d);
int replayio_read_usage(struct replayio *io, const char *path, const struct csv_dialect *d);

/* replayio_aligned_starts: --align reservation: for each run of the set
 * (sorted, replay_set_sort), the grid step where it starts: the first step
 * plan p reserves for its job within its instance's window [period start +
 * a, period start + d), not before its input is available (--runs); runs
 * of jobs with nothing reserved there keep their recorded start.  *moved:
 * how many start elsewhere than recorded.  Returns a new array of nruns
 * steps (free it). */
int64_t *replayio_aligned_starts(const struct replayio *io, const plan *p, long *moved);

/* The outputs.  replayio_write_header: replay's columns regime,job,run,
 * start,deadline,finish,met,over_container_s,under_container_s.
 * replayio_write_results: one row per run of s (in set order) under regime,
 * res[s->nruns] from replay_run.  replayio_write_summary: header and one row
 * per regime i < n (idle[i]: idle sharing was on) with its totals: runs,
 * met, missed, unfinished, violation_rate, footprint, utilization, over,
 * under, DRA counts. */
void replayio_write_header(csvw *w);
void replayio_write_results(csvw *w, const struct replay_set *s, enum replay_regime regime,
                            const struct replay_result *res);
void replayio_write_summary(csvw *w, const enum replay_regime *regime, const int *idle,
                            const struct replay_totals *tot, int n);

#endif
