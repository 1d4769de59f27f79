/* memnode — one node's tasks under peakgate's two node modes (seed 004):
 *
 *   --simulate  the node unpaced, then under the one-peak-at-a-time gate with
 *               each k (memgate.h), over the recorded series read by memio
 *               (in sample; out of sample with --train or --profiles) or over
 *               the paper's probabilistic peak model (--model); per-task
 *               rows to the main output, optional per-step series, per-node
 *               series and summary files, one line per run on stderr.
 *   --fillers   the largest safe filler task for the node's unallocated and
 *               allocated-but-unused memory and its kill/migrate threshold
 *               (memprof.h's memfill_size), one row and its explanation.
 *
 * The side files are replaced only when complete (base/outfile).  Messages
 * go to stderr prefixed with the program's name (silent with quiet).
 * Errors: SLK_OK or an exit status from base/diag.h.  Thread safety: no
 * shared state; one call per thread with its own reader and writer.
 */
#ifndef SLOKIT_MEMNODE_H
#define SLOKIT_MEMNODE_H

#include "base/csvio.h"
#include "memory/memio.h"
#include "memory/memprof.h"

#include <stdint.h>

/* a bound on the work of one --model run (about 4 minutes at 11 ns a task-step) */
#define MEMNODE_MAX_TASK_STEPS 2e10

struct memnode_opts {
    const int *k;             /* the gated runs' token counts */
    int nk;
    double approach, node_mb;
    double step_s;            /* 0: 1 s for the model, else the smallest sample interval */
    double duration_s;        /* 0: 1 h for the model, else until every series ends */
    double train;             /* > 0: learn from this share of each series */
    const char *profiles_path;/* non-NULL: the profiles from this file */
    const struct csv_dialect *profiles_dialect, *out_dialect;
    const char *series_path, *node_series_path, *summary_path; /* NULL: not written */
    int strict;               /* a gated run above the node is a failure (SLK_FAIL) */
    int quiet;
    struct memmodel_params mp;/* --model */
    long tasks;
    uint64_t seed;
    double migrate_ms_per_mb, growth_mb_s, state_mb; /* --fillers (growth < 0: measured) */
};

/* memnode_model_steps: the --model run's steps in *steps, or SLK_EUSAGE
 * (reported) when the duration is under one step or the run would exceed
 * MEMNODE_MAX_TASK_STEPS. */
int memnode_model_steps(const struct memnode_opts *o, long long *steps);

/* memnode_simulate_model: o->tasks model tasks over steps (from
 * memnode_model_steps), per-task rows to w. */
int memnode_simulate_model(const struct memnode_opts *o, long long steps, csvw *w);

/* memnode_simulate_series: the tasks kept by memio_read_tasks (series on,
 * train as in o) from the input named path, per-task rows to w. */
int memnode_simulate_series(const struct memnode_opts *o, struct memio_reader *rd, const char *path, csvw *w);

/* memnode_fillers: the filler table for the tasks read (allocations
 * required) to w, the explanation on stderr. */
int memnode_fillers(const struct memnode_opts *o, struct memio_reader *rd, csvw *w);

#endif
