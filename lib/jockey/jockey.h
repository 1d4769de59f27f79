/* jockey — the Jockey control loop (Ferguson et al., EuroSys 2012), the data
 * plane of `reprov --policy jockey`.
 *
 * MODEL.  For a running job at progress p (fraction of its work done) that
 * has run t_r seconds since its first sample, a remaining-time model C(p, a)
 * predicts the seconds left at allocation a, either
 *   - a table of (progress, alloc, remaining) rows, per job or for all jobs:
 *     linear in p between rows of the same alloc, the first row's value
 *     below it, scaled by (1-p)/(1-p_last) above the last; the candidate
 *     allocations are the table's own (within --min/--max-alloc); or
 *   - Amdahl: C(p, a) = (1 - p) (S + P / a), S the critical path and P the
 *     total work of a whole run; candidates min_alloc .. max_alloc; or
 *   - a job model learned from task records (lib/jockey/jobsim): the
 *     slides' event-based simulator (SIM) or Amdahl with the remaining
 *     critical path and work (STAGE_AMDAHL), from the sample's per-stage
 *     completed task counts; candidates min_alloc .. max_alloc, searched by
 *     bisection (the prediction falls with the allocation; the simulator
 *     uses the same random stream for every candidate).
 * A utility U of the completion time T = t_r + slack * C(p, a) (seconds after
 * the first sample) is either the deadline's (1 up to the deadline D; after
 * it, with late = LINEAR (default), -penalty (1 + (T - D) / D), which keeps
 * falling with lateness; with late = FLAT, -penalty whatever the lateness),
 * or a piecewise-linear curve (t, utility) that must be non-increasing.  Each
 * decision takes  A_r = the smallest a with U_a = max_b U_b, then
 *   hysteresis  A_t = A_t-1 + alpha (A_r - A_t-1)   (A_0 = the sample's alloc)
 *   dead zone   no change while |A_t - A_t-1| < dead_zone * A_t-1,
 * and reports ceil(A_t) when it differs from the allocation in force.  A
 * job that can no longer make its deadline gets, under LINEAR, the
 * allocation that minimizes its predicted lateness (the smallest one among
 * equals); under FLAT every allocation has the same utility and it falls
 * back to the smallest (the behaviour before LINEAR, kept as an option).
 *
 * OWNERSHIP.  A jockey owns its tables, curves and per-job state.  Loading
 * functions print "tool: FILE:LINE: why" and return an exit status (diag.h).
 * Thread safety: a jockey belongs to one thread at a time (jockey_sample
 * updates its per-run state); distinct jockeys are independent, and the
 * module has no file-static state.
 */
#ifndef SLOKIT_JOCKEY_H
#define SLOKIT_JOCKEY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { JOCKEY_SIM = 0, JOCKEY_STAGE_AMDAHL = 1 };
struct csv_dialect;

struct jockey_opts {
    double deadline;        /* seconds after the first sample (0: use a utility file) */
    double penalty;         /* utility after the deadline is -penalty (default 1) */
    double slack;           /* predictions are multiplied by this (>= 1, default 1.2) */
    double alpha;           /* hysteresis gain in (0, 1] (default 0.5) */
    double dead_zone;       /* relative dead zone (default 0.1) */
    double min_alloc, max_alloc; /* candidate range (default 1 .. 1000) */
    double interval;        /* at most one decision per job per interval seconds (default 0) */
    double serial, parallel;/* Amdahl S and P (parallel > 0 selects Amdahl) */
    double grid;            /* --build-table: progress step (default 0.01) */
    int late_flat;          /* 1: -penalty after the deadline (FLAT); 0: LINEAR (default) */
    int job_model;          /* with a records file: JOCKEY_SIM (default) or JOCKEY_STAGE_AMDAHL */
    int reps;               /* simulated runs per prediction (default 30) */
    uint64_t seed;          /* the simulator's stream */
    /* How to read the CSV inputs, by role: "table", "utility", and NULL for
     * --build-table's input (the tool passes cli_dialect); NULL: plain CSV. */
    const struct csv_dialect *(*dialect)(const char *role);
};

/* jockey_opts_default: the defaults above. */
void jockey_opts_default(struct jockey_opts *o);

struct jockey_decision {
    double old_alloc, new_alloc;    /* integers (containers/tokens) */
    double until;                   /* next evaluation (t + interval), NaN when interval is 0 */
    double target;                  /* A_r before hysteresis */
    char reason[200];
};

struct jockey_stats {
    uint64_t samples;
    uint64_t runs;          /* runs seen: one per job (or job and run) plus the restarts */
    uint64_t restarts;      /* runs told apart by progress going back (no run column) */
    uint64_t changes;       /* decisions written (the allocation changed) */
    uint64_t dead_zone;     /* evaluations whose target would change the allocation, held by the dead zone */
    uint64_t nomodel;       /* runs without a model (or utility curve) */
    uint64_t outside;       /* runs whose table has no allocation in [min_alloc, max_alloc]: no decision */
    uint64_t nostages;      /* samples a job model could not use (no or other per-stage counts) */
};

typedef struct jockey jockey;

/* The columns each reader looks up by name, NULL-terminated: what a tool gives cli_keys as its --col KEYs
 * for that input.  jockey_table_keys: a C(p, a) table (jockey_new's table); jockey_utility_keys: a utility
 * curve file (jockey_new's utility); jockey_history_keys: run history (jockey_build_table). */
extern const char *const jockey_table_keys[];
extern const char *const jockey_utility_keys[];
extern const char *const jockey_history_keys[];

/* jockey_new: a controller with options o, the table file (NULL with
 * Amdahl or records), the task records to learn job models from (NULL
 * unless that model) and the utility file (NULL with a deadline).  Returns
 * SLK_OK with *out set, or prints the problem and returns
 * SLK_EDATA/SLK_ENOINPUT. */
int jockey_new(const struct jockey_opts *o, const char *table, const char *records, const char *utility,
               jockey **out);
void jockey_free(jockey *j);

struct jobsim_set;
/* jockey_adopt_models: use the learned job models in *set (the controller
 * takes them over; *set is emptied) instead of a table or Amdahl. */
void jockey_adopt_models(jockey *j, struct jobsim_set *set);

/* jockey_sample: one sample (t non-decreasing across calls; 0 <= p <= 1;
 * alloc >= 0, the allocation the job has now) of a run of job.  run names
 * the run (NULL: runs are told apart by progress going back, a new run of
 * the recurring job).  A run's elapsed time counts from its first sample,
 * and its allocation state starts at that sample's alloc.  done[0..nst)
 * (NULL, 0 when unknown) are the completed tasks per stage, which the job
 * models need (without them, or with another stage count than the model's,
 * the sample has no model).  Returns 1 when the allocation changes (*out
 * filled), 0 otherwise. */
int jockey_sample(jockey *j, const char *job, const char *run, double t, double p, const double *done,
                  size_t nst, double alloc, struct jockey_decision *out);

/* jockey_predict: C(p, a) for job under the loaded model (NaN: no model). */
double jockey_predict(const jockey *j, const char *job, double p, double a);

void jockey_get_stats(const jockey *j, struct jockey_stats *s);

/* jockey_progress: the progress indicator from per-stage completed and total
 * task counts, each a number or a ';'-separated list of one per stage:
 * sum(completed) / sum(total).  done (may be NULL) receives the completed
 * counts of the first maxst stages and *nst the number of stages.  Returns
 * 0, or -1 with a message in why. */
int jockey_progress(const char *completed, const char *total, double *p, double *done, size_t maxst,
                    size_t *nst, char *why, size_t whylen);

/* jockey_build_table: read run history (path or "-": rows job,run,t,
 * progress,alloc, grouped by run, t increasing, progress non-decreasing)
 * and write the table job,progress,alloc,remaining to fp: for each job and
 * allocation (a run's mean alloc, rounded), at progress 0, grid, 2 grid, ...
 * below 1, the median over its runs of (run end - time the run reached that
 * progress, interpolated).  The run ends at its first sample with progress 1;
 * runs that never get there are skipped (counted on stderr).  Returns an
 * exit status. */
int jockey_build_table(const char *path, const struct jockey_opts *o, FILE *fp);

#endif
