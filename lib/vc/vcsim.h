/* vcsim — a discrete-event simulator of virtual clusters (VCs) sharing one
 * cluster, with malleable jobs (seed 002, "performance inconsistency among
 * virtual clusters").  It is the engine behind stretch(1).
 *
 * Model.  VC i owns c_i servers; the cluster has M = sum c_i + S servers (S
 * shared "system" servers owned by no VC).  A job j of VC i arrives at
 * submit_j, needs work_j server-seconds and can use at most p_j servers at
 * once (malleable: its allocation may change at any time).  The demand of VC i
 * is d_i = sum of p_j over its unfinished arrived jobs.  At every decision
 * point the scheduler gives each VC an allocation a_i:
 *
 *   base:    a_i = min(d_i, c_i)            (a VC always gets its own servers)
 *   extra:   E = M - sum a_i idle servers go to over-demanding VCs (d_i > c_i):
 *     MAXMIN    max-min fairness of total allocation, each VC's capacity its
 *               guaranteed (minimum) share: a_i = min(d_i, max(c_i, x)), x
 *               the level at which E is used up (water-filling; the Hadoop
 *               Fair Scheduler's fair share with min shares = capacities).
 *               Capacities 100/300/600, demands 400/500/500, M = 1000:
 *               x = 200, allocations 200/300/500;
 *     DRR       in order of normalised credit k_i / c_i, highest first, each
 *               taking min(d_i - c_i, what is left) (deficit round robin;
 *               VCs of equal credit share as MAXMIN does);
 *     BALANCED  as DRR; only the credit differs (below).
 *
 *   Credit (server-seconds, DRR and BALANCED) starts at 0 and is clamped to
 *   [-c_i W, +c_i W] (W = credit_window).  It moves at rate
 *     DRR       c_i - a_i: leaving own servers idle earns, using more than
 *               c_i spends, whatever the rest of the cluster does;
 *     BALANCED  (c_i - a_i) u when a_i < c_i, where u = min(1, B / I) is
 *               the fraction of the owners' idle servers that other VCs
 *               actually use (B = sum of max(0, a_k - c_k) borrowed, I = sum
 *               of max(0, c_k - a_k) idle owned; borrowers are served from
 *               owned idle servers first, every lender in proportion, and
 *               from the system servers last); -(a_i - c_i) when a_i > c_i and the
 *               cluster is contended (sum d > M); 0 otherwise.  So a VC is
 *               credited only for servers it lent that someone used, and
 *               using idle servers while nobody else waits costs nothing.
 *   Priorities are re-evaluated at every arrival and completion and every
 *   `quantum` seconds while jobs run.
 *
 * Inside a VC, a_i is shared among its jobs by max-min fairness with the caps
 * p_j (FAIR: water-filling; jobs below the level get p_j), or in submit order
 * (FIFO: each job takes min(p_j, what is left)).  Since a_i <= d_i, the jobs
 * use all of a_i: allocated server-time equals work done.
 *
 * Events are kept in a lib/heap queue (one entry per VC: its next job
 * completion), arrivals come from the jobs in (submit, input order);
 * ties are processed completions first, then arrivals, so runs are
 * deterministic.  Rates are piecewise constant, so completions are exact
 * (up to floating point; a job whose remaining time is below 8 ulp of the
 * clock, or whose remaining work is below 1e-9 of its size, is finished).
 *
 * Streaming (vcsim_stream): jobs are read from a feed as the clock needs
 * them (input sorted by submit, or out of order by at most cfg->reorder
 * places) and handed back finished, in input order.  Memory is the jobs from
 * the oldest unfinished one (in input order) to the last read: the jobs
 * alive, those submitted since the oldest of them started and finished
 * already, and the reorder read-ahead; 64 bytes each.
 *
 * Ownership: vcsim_run reads the caller's arrays and writes only
 * jobs[].finish and the stats arrays; it allocates and frees its own state.
 * Thread safety: no file-static state (comparators take their keys through
 * qsort_r); concurrent runs on distinct job and stats arrays are safe.
 */
#ifndef SLOKIT_VCSIM_H
#define SLOKIT_VCSIM_H

#include <stddef.h>
#include <stdint.h>

enum vcsim_policy { VCSIM_MAXMIN, VCSIM_DRR, VCSIM_BALANCED };
enum vcsim_within { VCSIM_FAIR, VCSIM_FIFO };

struct vcsim_config {
    enum vcsim_policy policy;
    enum vcsim_within within;
    double system_servers; /* S >= 0 */
    double quantum;        /* seconds between priority re-evaluations (DRR/BALANCED); 0 = only at events */
    double credit_window;  /* W > 0, seconds: credit is clamped to +-c_i W */
    double window_start;   /* accounting window for used_window / overdemand / busy;
                              vcsim_stream: NAN = the first submit */
    double window_len;     /* seconds, > 0; vcsim_stream: 0 = the whole days from the
                              window's start that hold the last submit, at least one
                              (the window [start, start + len) is half-open: a last
                              submit on a day's edge opens one more day) */
    size_t reorder;        /* vcsim_stream: how far out of submit order the input may be */
    void (*progress)(uint64_t arrived, uint64_t total); /* or NULL */
};

struct vcsim_job {
    uint32_t vc;     /* index into the capacity array */
    double submit;   /* seconds */
    double work;     /* server-seconds, > 0 */
    double maxpar;   /* servers, > 0; values above M (or infinity) mean M */
    double finish;   /* output: completion time */
};

struct vcsim_vc_stats {
    double used;        /* integral of a_i dt over the whole run, server-seconds */
    double used_window; /* the same within the accounting window */
    double borrowed;    /* integral of max(0, a_i - c_i) dt, server-seconds */
    double overdemand;  /* seconds within the window with d_i > c_i */
    double credit_end;  /* credit at the end (0 for MAXMIN) */
};

struct vcsim_totals {
    double start, end;      /* first submit, last completion */
    double window_start, window_len; /* the accounting window used */
    double contended;       /* seconds within the window with sum d_i > M */
    double work_done;       /* sum of per-job progress (server-seconds) */
    double work_rounding;   /* work dropped by the finish tolerance */
    uint64_t events;        /* arrivals + completions + quantum ticks */
    uint64_t decisions;     /* distinct decision times (allocation recomputed) */
    uint64_t vc_updates;    /* VC reallocations (job rates recomputed) */
    uint64_t job_updates;   /* per-job rate assignments */
    uint64_t held_max;      /* vcsim_stream: most jobs held at once (read, not yet retired) */
};

/* vcsim_run: simulate jobs[0..njobs) on nvc VCs with capacity[0..nvc) (> 0),
 * all in memory (vcsim_stream with the array as its feed, cfg->reorder
 * ignored).  Jobs need not be sorted; every jobs[j].vc must be < nvc.  Fills
 * jobs[j].finish, vcstats[0..nvc) (may be NULL) and *tot (may be NULL).
 * Returns 0, or -1 if the configuration is invalid (nothing printed). */
int vcsim_run(const struct vcsim_config *cfg, size_t nvc, const double *capacity, size_t njobs,
              struct vcsim_job *jobs, struct vcsim_vc_stats *vcstats, struct vcsim_totals *tot);

/* A source of jobs for vcsim_stream and a sink for the finished ones. */
struct vcsim_feed {
    void *ctx;
    /* next: the next job of the input into *job (vc, submit, work, maxpar):
     * 1, 0 at its end, or an exit status (> 1, already reported). */
    int (*next)(void *ctx, struct vcsim_job *job);
    /* retire: job finished (job->finish set) and so did every job read
     * before it; called once per job, in input order.  w0, h: the
     * accounting window (h is INFINITY while it depends on jobs not read
     * yet: every job with submit >= w0 is in it).  0, or an exit status
     * that stops the run. */
    int (*retire)(void *ctx, const struct vcsim_job *job, double w0, double h);
};

#define VCSIM_EORDER (-2) /* a job read was submitted before one already arrived */

/* vcsim_stream: simulate the jobs of feed on nvc VCs with capacity[0..nvc)
 * (> 0), reading them as the clock needs them: every job must come at most
 * cfg->reorder places after its place in (submit, input order).  Fills
 * vcstats[0..nvc) (may be NULL) and *tot (may be NULL).  Returns 0, -1 for
 * an invalid configuration or job (nothing printed), VCSIM_EORDER (the job
 * just read is out of order beyond cfg->reorder; nothing printed), or the
 * status a feed function returned. */
int vcsim_stream(const struct vcsim_config *cfg, size_t nvc, const double *capacity, const struct vcsim_feed *feed,
                 struct vcsim_vc_stats *vcstats, struct vcsim_totals *tot);

/* vcsim_policy_name: "maxmin", "drr", "balanced". */
const char *vcsim_policy_name(enum vcsim_policy p);
/* vcsim_policy_parse: 0 and *out set for a known name, else -1. */
int vcsim_policy_parse(const char *s, enum vcsim_policy *out);

/* vcsim_waterfill: the level x with sum_i min(cap[i], x) = amount, for
 * amount <= sum cap[i] (x = max cap when amount >= sum cap).  cap must be
 * sorted ascending; n >= 1.  Used for both VC extras and jobs inside a VC. */
double vcsim_waterfill(const double *cap_sorted, size_t n, double amount);

#endif
