/* jobsim — the Jockey slides' remaining-time models C(p, a) built from a
 * job's structure: the primary one, an event-based simulator of the job
 * ("inputs: job algebra, distributions of task timings, probabilities of
 * failures, allocation"), and the analytic one with the slides' terms,
 * T = S + P/N, "S is remaining work on critical path, P is all remaining
 * work, N is number of machines".  Also learning both from past runs' task
 * records, and the ground-truth engine behind `tracegen jobruns`.
 *
 * JOB.  A chain of stages (the simplest job algebra: stage s+1 starts when
 * every task of stage s has finished, Dryad's barrier).  Stage s has n_s
 * tasks; an attempt takes a duration drawn from the stage's distribution
 * and fails with probability f_s, in which case the task is queued again.
 * With a tokens (the allocation, at least 1) the ready tasks run on the
 * earliest free token in queue order (list scheduling, as a job manager
 * does).  The simulator does not model input-size variation or speculative
 * re-execution (nor do the slides').
 *
 * STATE.  A job in progress is given as done[s] = tasks of stage s
 * completed; tasks running at that moment are counted as not started (the
 * progress indicator sees only completions).
 *
 * MODELS (learned from runs, jobsim_learn):
 *   simulator   mean over `reps` simulated runs from the state, drawing
 *               durations from the stage's observed durations (empirical
 *               distribution) and failures with the observed rate;
 *   amdahl      S_rem + P_rem / a, S_rem = sum over unfinished stages of
 *               the stage's mean attempt time / (1 - f_s) (one task per
 *               stage on the critical path), P_rem = sum over stages of
 *               (n_s - done_s) mean_s / (1 - f_s);
 *   whole-run Amdahl (the old reading): (1 - p)(S + P / a) with S and P of
 *               a whole run (kept for the comparison only).
 *
 * Ownership: a model owns its arrays (jobsim_model_free).  Thread safety:
 * no shared state; a model is read-only once learned and may be shared by
 * threads, each with its own rng.
 */
#ifndef SLOKIT_JOBSIM_H
#define SLOKIT_JOBSIM_H

struct csv_dialect;

#include "base/keyset.h"
#include "base/rng.h"

#include <stddef.h>
#include <stdio.h>

struct jobsim_stage {
    double ntasks;      /* tasks per run (a whole number) */
    double *dur;        /* observed attempt durations, seconds, sorted ascending */
    size_t ndur;
    double fail;        /* probability that an attempt fails, in [0, 1) */
    double mean;        /* mean of dur */
};

struct jobsim_model {
    struct jobsim_stage *st;
    size_t nst;
};

void jobsim_model_free(struct jobsim_model *m);

/* A source of attempt durations and failures for the engine. */
struct jobsim_src {
    size_t nst;
    const double *ntasks;                                 /* [nst] */
    double (*draw)(void *ctx, size_t stage, rng *r);     /* one attempt's duration, > 0 */
    double (*fail)(void *ctx, size_t stage);              /* failure probability, in [0, 1) */
    void *ctx;
};

/* Called for every attempt the engine runs (times from the state's moment). */
typedef void (*jobsim_attempt_fn)(void *ctx, size_t stage, double start, double end, int failed);

/* jobsim_engine: run the job from state done[0..nst) (NULL: from the start)
 * on floor(alloc) >= 1 tokens; returns the time until the last task ends.
 * fn (may be NULL) sees every attempt.  Deterministic for a given rng
 * state.  A stage whose attempts keep failing ends after 1000 attempts per
 * task (fail < 1 makes that vanishingly rare). */
double jobsim_engine(const struct jobsim_src *src, const double *done, double alloc, rng *r,
                     jobsim_attempt_fn fn, void *fctx);

/* jobsim_simulate: the simulator model: mean remaining time over reps >= 1
 * runs of the learned model from done[] at alloc, with the stream
 * rng_seed(seed).  0 when nothing is left. */
double jobsim_simulate(const struct jobsim_model *m, const double *done, double alloc, int reps, uint64_t seed);

/* jobsim_amdahl: S_rem + P_rem / alloc (the slides' terms, see above). */
double jobsim_amdahl(const struct jobsim_model *m, const double *done, double alloc);

/* jobsim_whole_sp: S and P of a whole run (done all zero), for the old
 * whole-run reading (1 - p)(S + P / a). */
void jobsim_whole_sp(const struct jobsim_model *m, double *S, double *P);

/* ---- task records of past runs ---- */

struct jobsim_attempt {
    size_t stage;
    double start, end;
    int failed;
};

struct jobsim_run {
    char *job, *name;
    double alloc;
    struct jobsim_attempt *a; /* by stage, start, end, then failed (any input order) */
    size_t n, cap;
    double t0, end;             /* first start, last end */
    double *done_t;             /* completion times of successful attempts, sorted */
    size_t ndone;
    size_t nst;                 /* highest stage + 1 (callers may overwrite it as a mark) */
    size_t next;                /* index of the next run of the same job (n: none) */
};

/* The largest allocation, in tokens, a task record may have (and the
 * controllers' --max-alloc): beyond any real job, small enough that a
 * replay's token-seconds stay below CSVR_MAX_VALUE for runs of months. */
#define JOBSIM_MAX_ALLOC 1e8

/* jobsim_record_keys: the columns looked up by name in task records (jobsim_read_runs), NULL-terminated:
 * what a tool gives cli_keys as its --col KEYs for that input. */
extern const char *const jobsim_record_keys[];

/* jobsim_read_runs: read task records (path or "-": job,run,alloc,stage,
 * start,end,failed, one row per attempt, grouped by run, a run's rows in
 * any order (sorted here: struct jobsim_run); alloc in
 * (0, JOBSIM_MAX_ALLOC]; start and end in epoch seconds or ISO 8601, at
 * most CSVR_MAX_TIME).  Returns an exit
 * status after printing why; *runs and *n are set either way (free with
 * jobsim_free_runs). */
int jobsim_read_runs(const char *path, const struct csv_dialect *d, struct jobsim_run **runs, size_t *n);
void jobsim_free_runs(struct jobsim_run *runs, size_t n);
/* jobsim_ntrain: how many of a job's k runs (its first ones) learn when a
 * `train` share does; the rest are held back.  The one split every mode
 * and jobsim_check_splits use. */
size_t jobsim_ntrain(double train, size_t k);
/* jobsim_check_splits: every job of runs (as read, linked by next) has a
 * training run and a held-back one when its first `train` share learns;
 * checked before a tool writes any row, so that a later job's error cannot
 * contradict rows already written.  Returns an exit status after printing
 * "job 'J': K runs cannot be split by --train T" for the first job that
 * has not. */
int jobsim_check_splits(const char *path, const struct jobsim_run *runs, size_t n, double train);
/* jobsim_job_runs: the runs of runs[i]'s job from i on (input order), skipping
 * runs whose nst is (size_t)-1, into job[]; their stage count into *nst.
 * Returns how many.  Follows the runs' next links (set by jobsim_read_runs):
 * time proportional to the job's runs, not to n. */
size_t jobsim_job_runs(struct jobsim_run *runs, size_t n, size_t i, struct jobsim_run **job, size_t *nst);
/* jobsim_learn: the model of one job from its runs[0..n) with nst stages:
 * per stage the attempt durations, the failure rate and the median count of
 * successful tasks. */
void jobsim_learn(struct jobsim_run *const *runs, size_t n, size_t nst, struct jobsim_model *m);

/* A learned model per job. */
struct jobsim_set {
    char **job;
    struct jobsim_model *m;
    size_t n;
    keyset *names;  /* job -> its index (jobsim_learn_file; NULL: looked up by scan) */
};

/* jobsim_learn_file: learn one model per job from every run of the task
 * records at path (the format of jobsim_compare).  Returns an exit status
 * after printing why; *out is filled (free with jobsim_set_free) on SLK_OK. */
int jobsim_learn_file(const char *path, const struct csv_dialect *d, struct jobsim_set *out);
/* jobsim_set_find: the model of job, or NULL. */
const struct jobsim_model *jobsim_set_find(const struct jobsim_set *s, const char *job);
void jobsim_set_free(struct jobsim_set *s);

/* jobsim_compare: read task records (path or "-": job,run,alloc,stage,start,
 * end,failed, one row per attempt, grouped by run; stages numbered 0, 1, ...
 * in the order they run), split each job's runs in input order into the
 * first `train` share (learning) and the rest (held back), and for every
 * held-back run at progress 0, 0.1, ..., 0.9 (progress = completed tasks /
 * all tasks) write job,run,alloc,progress,actual_s,table_s,amdahl_s,
 * amdahl_whole_s,simulator_s to fp, then a summary of each predictor's
 * error to stderr (unless quiet): the table (the median over training runs
 * at the same allocation of the remaining time at that progress, as
 * `reprov --build-table`), amdahl, the whole-run amdahl and the simulator
 * (reps runs, seed).  Returns an exit status (diag.h) after printing why. */
int jobsim_compare(const char *path, const struct csv_dialect *d, double train, int reps, uint64_t seed, FILE *fp);

#endif
