/* memio — peakgate's file formats: the allocation table (task,alloc_mb),
 * the grouped sample reader (task,t,mem_mb[,alloc_mb]) that profiles tasks
 * as they stream, the profile table (task,normal_mb,peak_mb) read back for
 * out-of-sample replays, and the rows of the profile, filler and gate
 * reports.  The algorithms are lib/memory/memprof and memgate; this module
 * only reads, checks and writes their values.
 *
 * Thread safety: no shared state; a reader, table or writer belongs to one
 * thread at a time.
 *
 * Errors: readers report data errors at the line through csvr_fail (one
 * line "tool: FILE:LINE: ...") and return an exit status from base/diag.h.
 */
#ifndef SLOKIT_MEMIO_H
#define SLOKIT_MEMIO_H

#include "base/csvio.h"
#include "memory/memgate.h"
#include "memory/memprof.h"

#include <stddef.h>

/* ---- allocation table ---- */
struct memio_alloc {
    char *task;
    double mb;
};
struct memio_allocs {
    struct memio_alloc *e;
    size_t n;
};

/* The columns each reader looks up by name, NULL-terminated: what a tool gives cli_keys as its --col KEYs
 * for that input.  memio_alloc_keys: the --alloc table (memio_allocs_load); memio_sample_keys: the samples
 * (memio_read_tasks); memio_profile_keys: a profiles table (memio_apply_profiles). */
extern const char *const memio_alloc_keys[];
extern const char *const memio_sample_keys[];
extern const char *const memio_profile_keys[];

/* memio_allocs_load: read task,alloc_mb from path (dialect d) into A (zeroed
 * by the caller), sorted by task.  alloc_mb must be positive and bounded; a
 * task listed twice is a data error.  Returns SLK_OK or an exit status; A
 * holds what was read either way (free it with memio_allocs_free). */
int memio_allocs_load(const char *path, const struct csv_dialect *d, struct memio_allocs *A);
/* memio_alloc_find: task's allocation in A, or NAN when absent. */
double memio_alloc_find(const struct memio_allocs *A, const char *task);
void memio_allocs_free(struct memio_allocs *A);

/* ---- grouped sample reader ---- */

/* One finished task, kept when no profile writer is given. */
struct memio_task {
    char *name;
    struct memprof prof;
    double *series;        /* the samples (only with memio_read_opts.series) */
    size_t len;
    double normal, peak;   /* the profile the gate uses (learned out of sample with train) */
    size_t off;            /* first replayed sample (train: after the learning part) */
};

struct memio_totals {
    size_t tasks, samples, well, poor, over_alloc;
    double alloc, normal, unused; /* unused: the allocations' positive waste */
    size_t alloc_tasks;           /* tasks with an allocation */
    double alloc_normal;          /* their normal use */
    size_t under_tasks;           /* tasks whose normal use is above their allocation */
    double under;                 /* by how much, summed (MB) */
    char *first_over;      /* the first task above its allocation */
};

struct memio_read_opts {
    struct memprof_opts prof;
    const struct memio_allocs *allocs; /* NULL: the input's alloc_mb column, if any */
    const char *alloc_path;            /* the table's name, for messages */
    int need_alloc;                    /* every task needs an allocation */
    int series;                        /* keep each task's samples */
    double train;                      /* with series: share that learns the profile (0: none) */
    csvw *profiles;                    /* non-NULL: write one profile row per task, keep none */
    int details;                       /* profile rows with the detail columns */
    int sort;                          /* -s: rows in any order (held, then sorted by task and t) */
};

struct memio_reader {
    struct memio_totals tot;
    struct memio_task *tasks;  /* kept tasks, in input order */
    size_t ntasks, tcap;
    double min_dt;             /* smallest sample interval seen (INFINITY: none) */
    char *gap_task;            /* a task whose intervals are uneven (NULL: even) */
    double gap_dt;
    char *short_task;          /* train: a task too short to split */
    size_t short_n;
    long short_line;           /* ... and its first row's line */
    struct memprof_acc acc;
    const struct memio_read_opts *o;
};

/* memio_read_tasks: stream r (task,t,mem_mb[,alloc_mb], grouped by task,
 * times increasing within a task, alloc_mb constant within a task) into rd
 * (zeroed by the caller), profiling each task with o->prof as it ends: a row
 * to o->profiles, or a kept struct memio_task.  Grouping goes through
 * base/group (one "not grouped" message).  With o->sort the rows may come in
 * any order: they are held (base/group's group_held: about 80 bytes a row
 * plus the task name, no temporary files), sorted by task (bytewise) and
 * time, and then read as a grouped stream; messages name the input lines.
 * Under --on-error skip (the reader's dialect has rejects) a row with a bad
 * value, a time not after the previous sample's, or an alloc_mb that changes
 * within its task is skipped and rejected with its reason; so is every row
 * of a task without an allocation in o->allocs.  Returns SLK_OK or an exit
 * status; rd holds what was read either way (memio_reader_free). */
int memio_read_tasks(csvr *r, const struct memio_read_opts *o, struct memio_reader *rd);
void memio_reader_free(struct memio_reader *rd);

/* memio_totals_summary: the profiles' summary on stderr (tasks, samples,
 * classes under the rule p, the allocation's waste, the first task above
 * its allocation), each line prefixed with the program's name. */
void memio_totals_summary(const struct memio_totals *t, const struct memprof_opts *p);

/* memio_gate_tasks: the kept tasks as gate tasks (names and series are
 * borrowed from rd: free only the array; the series start at each task's
 * off). */
struct memgate_task *memio_gate_tasks(const struct memio_reader *rd);

/* memio_well_growth: the largest growth_mb_s among the kept well-behaved
 * tasks (0 when none), their count in *nwell. */
double memio_well_growth(const struct memio_reader *rd, size_t *nwell);

/* memio_model_tasks: n tasks task0001.. of the peak model mp (normal
 * mp->normal_mb, peak the larger of mp->peak_mb and the noise's top), model
 * stream seed.  Free with memio_model_tasks_free. */
struct memgate_task *memio_model_tasks(const struct memmodel_params *mp, size_t n, uint64_t seed);
void memio_model_tasks_free(struct memgate_task *t, size_t n);

/* memio_profile_header: the profile table's header (with the detail
 * columns samples, mean_mb, spread, use, growth_mb_s when details). */
void memio_profile_header(csvw *w, int details);

/* memio_apply_profiles: set each kept task's normal and peak from path
 * (task,normal_mb,peak_mb; peak >= normal >= 0; a task once).  Every kept
 * task needs a row (series_path names the input in that message); extra
 * rows are ignored.  Returns SLK_OK or an exit status. */
int memio_apply_profiles(const char *path, const struct csv_dialect *d, struct memio_reader *rd,
                         const char *series_path);

/* ---- report rows ---- */

/* memio_fillers_write: the --fillers table (header and its one row). */
void memio_fillers_write(csvw *w, double node_mb, const struct memio_reader *rd, size_t nwell,
                         const struct memfill *f, double growth, double migrate_ms_per_mb);

/* One simulated run's report outputs (NULL: not requested). */
struct memio_sim_out {
    csvw *series, *node;
    const struct memgate_task *t;
    int k;
    double step_s, bound, node_mb, approach;
    const char *policy;
};

extern const char *const memio_task_hdr[], *const memio_series_hdr[], *const memio_node_hdr[],
    *const memio_summary_hdr[];

/* memio_on_step: a memgate_step_fn (ctx: struct memio_sim_out) writing the
 * per-task series and per-node rows of one step; SLK_EIO on a write error. */
int memio_on_step(void *ctx, const struct memgate_step *st);

/* Slowdowns and pauses over one run's tasks (a task without progress counts
 * as an infinite slowdown). */
struct memio_run_stats {
    double sd_sum, sd_max;
    long long longest;     /* steps */
};

/* memio_task_rows: one run's per-task rows to w; returns their statistics. */
struct memio_run_stats memio_task_rows(csvw *w, const struct memio_sim_out *so,
                                       const struct memgate_task_result *tr, size_t n);

/* memio_summary_row: one run's summary row (held, sheld: whether the
 * bound and the simple bound held). */
void memio_summary_row(csvw *w, const struct memio_sim_out *so, size_t n, const struct memgate_result *res,
                       double simple, int held, int sheld, const struct memio_run_stats *s);

/* One run of memio_gate_runs. */
struct memio_run {
    int k, kb;                 /* tokens (0: unpaced); the k whose bound is shown */
    struct memgate_result res;
    double bound, simple;      /* memgate_bound and memgate_bound_simple for kb */
    int held, sheld;           /* max memory within them (relative 1e-12) */
    struct memio_run_stats s;
};

/* The runs to make and where their rows go (series, node, summary: NULL
 * when not requested; rows: the per-task rows, always). */
struct memio_gate_cfg {
    const int *k;              /* the gated runs' token counts, nk >= 1 */
    int nk;
    double approach, node_mb, step_s;
    long long steps;
    int in_sample;             /* the profiles come from the replayed series */
    csvw *rows, *series, *node, *summary;
};

/* memio_gate_runs: the unpaced run (k = 0, its bound shown for k[0]), then
 * one gated run per k, each writing its rows and calling done(ctx, run)
 * after them.  In sample a gated run above its bound is a bug: reported as
 * an internal error, SLK_ESOFTWARE, no further runs.  Returns SLK_OK or an
 * exit status (a write error from the step rows stops the runs). */
int memio_gate_runs(const struct memgate_task *t, size_t n, const struct memio_gate_cfg *c,
                    void (*done)(void *ctx, const struct memio_run *run), void *ctx);

#endif
