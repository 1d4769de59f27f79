/* replay — what-if replay of recorded job runs under an allocation regime
 * (Morpheus §9), the data plane of replay(1).
 *
 * MODEL.  Time is cut into steps of `step` seconds, epoch-aligned (step g
 * covers [g*step, (g+1)*step)).  A run is the recorded usage skyline of one
 * instance of a periodic job, resampled onto the grid: use[k] containers
 * (of the job's cores and mem_mb each) during its k-th step, starting at the
 * step of its first sample.  Jobs are elastic, with the skyline LP's debt
 * model: at its k-th step a run demands  dem = use[k] + debt  (after the
 * skyline ends, dem = debt), receives alloc <= dem, and debt = dem - alloc
 * carries over.  A run served in full finishes at its recorded end (shifted
 * by as much as its start was moved), not at the end of its last grid step;
 * a run left with debt finishes at the end of the first later step where
 * its debt is zero.
 *
 * REGIMES give each job a guaranteed allocation G at every step:
 *   static    the user's fixed provisioned containers, for each running run;
 *   plan      plan_alloc_at(job, t) of the reservation plan (lcmpack);
 *             a job the plan holds nothing for (skipped or refused by
 *             lcmpack) keeps its manual provisioning, as in static, when
 *             it is known (replay_job.provisioned), else 0;
 *   plan+dra  the plan, corrected at each step by the DRA (lib/dra, the code
 *             reprov runs): the job's demand is its DRA sample, and G is
 *             what the DRA has in force (plan + extension).
 * A job's G is shared by its running runs oldest first (each up to its
 * demand; the last one gets the rest).  When the runs' guaranteed
 * allocations exceed the capacity (static quotas on a small cluster), all
 * are scaled down by the same factor to fit.  With idle sharing on, the capacity
 * no run consumes is then shared among runs with unmet demand, max-min fair
 * on dominant (cores, mem) share, as a fluid.
 *
 * START.  A run starts at the step of its first sample, or where o->start
 * says (replay(1) --align reservation: the job is submitted into its
 * reservation); its deadline stays that of the period of its first sample.
 *
 * RESULTS.  Per run: the deadline (period containing the first sample, plus
 * d), finish, met (finish <= deadline), over = sum of (G_run - dem)+ over
 * its steps and under = its debt when the skyline ends (both container x
 * seconds: the skyline LP's over- and under-allocation).  A run not done by
 * deadline + period is cut off (unfinished, missed).  Totals: missed runs,
 * footprint = the peak of reserved capacity (static: sum of the running
 * runs' provisioned containers; plan regimes: the plan's load, DRA
 * extensions included, plus the provisioning of the jobs it falls back on), and utilization = used / reserved (cores x s).
 *
 * OWNERSHIP.  The caller owns the set; replay_run only reads it (the plan
 * it points to is modified during plan+dra and restored before returning).
 * Nothing prints.  THREADS: no static state; replay_run calls may run
 * concurrently on distinct plans (one set may be shared; a plan may not
 * under plan+dra).
 */
#ifndef SLOKIT_REPLAY_H
#define SLOKIT_REPLAY_H

#include "morpheus/dra.h"
#include "morpheus/plan.h"
#include <stdint.h>

enum replay_regime { REPLAY_STATIC = 0, REPLAY_PLAN, REPLAY_PLAN_DRA };

/* replay_regime_name: "static", "plan", "plan+dra". */
const char *replay_regime_name(enum replay_regime r);

struct replay_job {
    char *name;                 /* owned */
    double period, a, d;        /* the SLO (seconds; a, d offsets in the period) */
    double provisioned;         /* static regime: containers per run (NaN: unknown) */
};

struct replay_run {
    char *run;                  /* run id, owned */
    size_t job;                 /* index into jobs */
    double first;               /* time of the first sample */
    double end;                 /* recorded end: last sample + its duration (>= first) */
    int64_t g0;                 /* grid step of use[0] */
    long len;                   /* steps of the skyline (>= 1) */
    double *use;                /* [len] containers, owned */
    double cores, mem_mb;       /* per container */
};

struct replay_set {
    double step;                /* seconds */
    struct replay_job *jobs;
    size_t njobs;
    struct replay_run *runs;    /* sorted by g0, then input order */
    size_t nruns;
};

struct replay_opts {
    enum replay_regime regime;
    int idle;                   /* 1: share idle capacity fairly; 0: guarantees only */
    double cap_cores, cap_mem;  /* cluster capacity (idle sharing) */
    plan *plan;                 /* plan regimes (capacity set: the DRA checks it) */
    struct dra_opts dra;
    const int64_t *start;       /* [nruns] grid step where each run starts (NULL: g0, as recorded) */
};

struct replay_result {          /* one per run */
    double start;               /* when it started (o->start, else its first sample) */
    double deadline, finish;    /* finish NaN when unfinished */
    int met;
    double over, under;         /* container x seconds */
};

struct replay_totals {
    long runs, met, missed, unfinished;
    double over, under;         /* container x seconds, summed */
    double peak_cores, peak_mem;/* footprint */
    double used_core_s, reserved_core_s;
    double t0, t1;              /* replayed span */
    long squeezed_steps;        /* steps where the guarantees exceeded the capacity */
    /* plan regimes: the runs (and jobs) the plan holds nothing for, which
     * fall back on --provisioned; of them, those with no provisioned row
     * (0 containers), and those that met their deadline */
    long unplanned_runs, unplanned_jobs, unprovisioned_runs, unplanned_met;
    struct dra_stats dra;       /* plan+dra */
};

/* replay_run: replay set s under o; res[s->nruns] (may be NULL) and *tot are
 * filled.  Returns 0, or -1 when the regime needs what o lacks (a plan, a
 * provisioned value for every job of static). */
int replay_run(const struct replay_set *s, const struct replay_opts *o, struct replay_result *res,
               struct replay_totals *tot);

/* replay_instance_start: the start (epoch seconds) of the instance of job j
 * that a run first seen at t belongs to: the period holding t, or the one
 * before when d > period and t lies in the previous window's part past
 * this period's start and before this period's a (a daily job's window
 * [23:30, 02:00]: a run at 01:00 is yesterday's, due at 02:00 today). */
double replay_instance_start(const struct replay_job *j, double t);

/* replay_reservation_start: the first step at or after `from` (absolute grid
 * step) and before `to` where the plan holds containers for job, or -1. */
int64_t replay_reservation_start(const plan *p, const char *job, int64_t from, int64_t to, double step);

/* replay_set_sort: sort runs by g0, then first sample, then run id (run
 * ids are unique): the order depends on the runs, not on the input order. */
void replay_set_sort(struct replay_set *s);
/* replay_set_jobs_run: how many of s's jobs have at least one run in s (the
 * jobs a replay replays; njobs also counts jobs whose SLO has no run). */
size_t replay_set_jobs_run(const struct replay_set *s);
/* replay_set_free: free what the set owns (jobs, runs and their arrays). */
void replay_set_free(struct replay_set *s);

#endif
