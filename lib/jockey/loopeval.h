/* loopeval — Jockey's control loop against held-back runs, trace-driven:
 * the slides' end-to-end question ("SLO met?  cluster impact?") on task
 * records.
 *
 * Each held-back run of a job is replayed with its own recorded attempts
 * (per stage, in the order they started: durations and failures), but on an
 * allocation that the controller may change every `interval` seconds: when
 * a token is free and the allocation allows, the stage's next recorded
 * attempt starts; a stage starts when the previous one has finished; a
 * lowered allocation takes effect as running attempts end (no preemption).
 * Policies:
 *   static        the run's recorded allocation throughout (the baseline);
 *   amdahl-whole  Jockey with (1 - p)(S + P/a), S and P of a whole run;
 *   stage-amdahl  Jockey with S + P/a, the remaining critical path and work;
 *   simulator     Jockey with the event-based job simulator.
 * The models are learned from the job's first `train` share of runs; the
 * deadline is deadline_factor x the median duration of those runs, from the
 * run's start.  Each Jockey run starts at the recorded allocation.  The
 * controller decides every `interval` for the first LOOPEVAL_TICKS
 * decisions of a replay, then twice as far apart for every LOOPEVAL_TICKS
 * more, so that a run recorded over years (a start exported as 0) replays in
 * seconds, not hours; runs shorter than LOOPEVAL_TICKS intervals (a week at
 * 60 s) are decided at every interval.
 *
 * Thread safety: no shared state.
 */
#ifndef SLOKIT_LOOPEVAL_H
#define SLOKIT_LOOPEVAL_H

#include "jockey/jockey.h"

#include <stdio.h>

#define LOOPEVAL_TICKS 10000

struct loopeval_opts {
    double train;            /* share of each job's runs that learn (0, 1) */
    double deadline_factor;  /* deadline = this x median training duration (> 0) */
    double interval;         /* seconds between control decisions (> 0) */
};

/* loopeval_run: read task records from path (see jobsim_read_runs), replay
 * every held-back run under each policy with the controller options jo
 * (deadline and utility are set here; reps and seed are the simulator's),
 * write job,run,policy,finish_s,deadline_s,met,token_s (token_s: the
 * integral of the allocation) to fp and a summary per policy to stderr
 * (unless quiet).  Returns an exit status after printing why. */
int loopeval_run(const char *path, const struct csv_dialect *d, const struct jockey_opts *jo, const struct loopeval_opts *o,
                 FILE *fp);

#endif
