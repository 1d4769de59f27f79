/* memgate — the one-peak-at-a-time node simulator of seed 004.
 *
 * A node runs n tasks in lock-step time steps.  Each task has a memory
 * trajectory indexed by its own progress (a recorded series, or the peak
 * model of memprof.h), a normal level and a peak.  A task "approaches its
 * peak" when its next value would exceed approach * normal (approach 1.10 in
 * the paper).  The gate holds k tokens (k = 1: one peak at a time): a task
 * may cross its threshold only while holding a token; a task that would cross
 * without one is paused: it makes no progress and keeps its current memory
 * (at or below its threshold).  A holder gives its token back at the start of
 * a step when its memory is at or below its threshold again (or it ended).
 * Free tokens go to the waiting tasks in a fixed cyclic order, starting after
 * the last task served, so while a task waits every other task is served at
 * most once: nobody starves.  A task that has not yet started (its first
 * value is above its threshold) uses 0 MB until it gets a token; a finished
 * series uses 0 MB.
 *
 * The gate guarantees, in every step,
 *     sum(mem) <= sum_i b_i + (sum of the k largest (peak_i - b_i)),
 *     b_i = min(approach * normal_i, peak_i),
 * (memgate_bound); with approach = 1 and k = 1 this is the paper's
 * sum(normal) + max(peak - normal).  k = 0 runs the same tasks unpaced.
 *
 * Ownership: the caller owns the task array and its series; results are
 * written into caller-provided structs.  Errors: memgate_run returns SLK_OK,
 * or the callback's non-zero status.  Thread safety: no shared state;
 * concurrent runs are safe when each has its own result arrays (the tasks,
 * their series and model parameters are only read).
 */
#ifndef SLOKIT_MEMGATE_H
#define SLOKIT_MEMGATE_H

#include "memory/memprof.h"

#include <stddef.h>

struct memgate_task {
    const char *name;
    double normal, peak;            /* the profile the gate and the bound use (MB) */
    const double *series;           /* recorded trajectory, one value per step ... */
    size_t len;
    const struct memmodel_params *model; /* ... or the peak model (series NULL) */
    uint64_t seed;                  /* model stream: (seed, name) */
};

struct memgate_opts {
    int k;               /* tokens; 0 = unpaced */
    double approach;     /* threshold factor on normal, >= 1 */
    long long steps;     /* horizon; <= 0: until every series has ended (series only) */
};

enum memgate_state { MEMGATE_RUN = 0, MEMGATE_PEAK, MEMGATE_PAUSED, MEMGATE_DONE };

struct memgate_task_result {
    long long progress;  /* steps of its trajectory done */
    long long elapsed;   /* steps from the start until it ended (or the horizon) */
    long long paused;    /* steps paused */
    long long longest_pause;
    long long peaks;     /* crossings of its threshold from below */
    long long grants;    /* tokens received */
    double max_mem;
};

struct memgate_result {
    long long steps;
    double max_mem, mean_mem;
    double bound;        /* memgate_bound with the run's k (k = 0: with k = n) */
    long long over_bound;/* steps above the bound (always 0 when gated) */
    long long over_node; /* steps above node_mb */
};

/* One step as the callback sees it: every task's memory and state (a
 * finished task: 0 MB, MEMGATE_DONE), their sum in task order and the number
 * paused, so a per-node row costs nothing per finished task. */
struct memgate_step {
    long long step;
    const double *mem;
    const unsigned char *state;
    size_t n;
    double total;  /* sum of mem over the tasks, in task order */
    size_t paused; /* tasks in MEMGATE_PAUSED */
};

/* memgate_step_fn: called after every step; a non-zero return stops the run
 * with that status. */
typedef int (*memgate_step_fn)(void *ctx, const struct memgate_step *st);

/* memgate_bound: the guaranteed bound of the header comment for k tokens
 * (k >= n: every task at its peak). */
double memgate_bound(const struct memgate_task *t, size_t n, int k, double approach);

/* memgate_bound_simple: sum(normal) + sum of the k largest (peak - normal),
 * the paper's sum(normal) + max(peak - normal) for k = 1. */
double memgate_bound_simple(const struct memgate_task *t, size_t n, int k);

/* memgate_run: simulate; tr has n entries.  fn may be NULL. */
int memgate_run(const struct memgate_task *t, size_t n, const struct memgate_opts *o,
                double node_mb, memgate_step_fn fn, void *ctx,
                struct memgate_task_result *tr, struct memgate_result *res);

/* memgate_state_name: "run", "peak", "paused", "done". */
const char *memgate_state_name(int s);

#endif
