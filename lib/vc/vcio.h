/* vcio — stretch's file formats: the capacities table (vc,capacity), the
 * jobs table (job,vc,submit,size_server_hours[,max_parallelism]) streamed
 * through vcsim with the per-job report written as jobs finish, and the
 * per-VC, per-day and summary reports of a finished run.
 * The simulator is lib/vc/vcsim and the per-VC statistics lib/vc/vcreport;
 * this module reads, checks and writes their values.
 *
 * Thread safety: no shared state; a table or writer belongs to one thread
 * at a time.
 *
 * Errors: readers report data errors at the line through csvr_fail and
 * return an exit status from base/diag.h; writers return SLK_EIO on a write
 * error.
 */
#ifndef SLOKIT_VCIO_H
#define SLOKIT_VCIO_H

#include "base/csvio.h"
#include "base/keyset.h"
#include "vc/vcreport.h"
#include "vc/vcsim.h"

#include <stddef.h>
#include <stdint.h>

#define VCIO_MAX_BINS 32

/* VCs in input order: names numbers VC k's name k (keyset_key, keyset_row). */
struct vcio_vcs {
    keyset *names;
    double *cap;
    size_t n, capn;
};

/* The columns each reader looks up by name, NULL-terminated: what a tool gives cli_keys as its --col KEYs
 * for that input.  vcio_capacity_keys: the capacities table (vcio_vcs_read); vcio_job_keys: the jobs table
 * (vcio_run). */
extern const char *const vcio_capacity_keys[];
extern const char *const vcio_job_keys[];

/* vcio_vcs_read: read vc,capacity from path (dialect d) into v (zeroed):
 * capacity positive and bounded, a vc once, 1 to 1,000,000 VCs; under
 * --on-error skip (the dialect's rejects) a bad row is skipped.  Returns
 * SLK_OK or an exit status; free v with vcio_vcs_free either way. */
int vcio_vcs_read(const char *path, const struct csv_dialect *d, struct vcio_vcs *v);
/* vcio_vcs_find: the index of VC name, or -1. */
long vcio_vcs_find(const struct vcio_vcs *v, const char *name);
void vcio_vcs_free(struct vcio_vcs *v);

/* The shortest run a job may have even on every server it can use, as a
 * fraction of |submit| (and in seconds near 0): below it the clock cannot
 * tell its finish from its submit, and vcio_run refuses the row. */
#define VCIO_MIN_RUN 1e-12

/* How vcio_run reads the jobs table. */
struct vcio_run_opts {
    const char *jobs_path;          /* NULL or "-": standard input */
    const struct csv_dialect *d;
    const char *cap_name;           /* the capacities file, for messages */
    long long max_jobs;             /* refuse more jobs than this */
    int keep;                       /* VCREP_KEEP_* for the reports asked for */
};

/* vcio_run: simulate the jobs table job,vc,submit,size_server_hours
 * [,max_parallelism] on the VCs V under cfg, reading it as the simulator
 * needs it (sorted by submit, or out of order by at most cfg->reorder
 * jobs), and write job,vc,submit,finish,stretch to out in input order as
 * jobs finish.  A row's vc must be in V, submit within +-1e12 s, size
 * positive and at most 1e15 server-hours (work = size * 3600
 * server-seconds), max_parallelism positive (missing: no limit), alone
 * done by CSVR_MAX_TIME (submit + size * 3600 / min(max_parallelism, its
 * VC's capacity + cfg->system_servers) <= 1e11 s), its id
 * not that of a job still held (read, and not yet written), at most
 * max_jobs jobs; under --on-error skip (the dialect's rejects) a bad row
 * is skipped.  Checks that the allocated server-time equals the work (up to
 * the rounding of absolute times; see conserved in vcio.c).
 * Fills acc (initialised here; free it with vcrep_acc_free either way),
 * vst[0..V->n) and *tot.  Returns SLK_OK or an exit status (reported). */
int vcio_run(const struct vcsim_config *cfg, const struct vcio_vcs *V, const struct vcio_run_opts *o, csvw *out,
             struct vcrep_acc *acc, struct vcsim_vc_stats *vst, struct vcsim_totals *tot);

/* What the per-VC and per-day reports read. */
struct vcio_report {
    struct vcrep_acc *acc;     /* vcio_write_daily sorts its days */
    const struct vcio_vcs *V;
    const struct vcrep_vc *rep;
    const struct vcsim_vc_stats *vst;
    double w0, h;    /* the measured window */
};

/* vcio_write_vcs: one row per VC (ctx: struct vcio_report). */
int vcio_write_vcs(csvw *w, const void *ctx);
/* vcio_write_daily: per (vc, UTC day of submission) of the jobs submitted
 * in the window: jobs, load (their work / capacity-day) and mean stretch,
 * sorted by VC (input order), then day (ctx: struct vcio_report; its acc
 * kept VCREP_KEEP_DAILY). */
int vcio_write_daily(csvw *w, const void *ctx);

/* The summary has the scope of --vcs: the jobs submitted in the window
 * (jobs, mean_stretch, floor_stretch, work_h: the --vcs rows' jobs and
 * work summed) and the window's time (utilization, contended, spread);
 * used_h is what the VCs used over the whole run, as --vcs's
 * used_server_hours (equal to the work of every job simulated), and
 * jobs_simulated, makespan and events_per_job describe the simulation, which
 * runs every job read. */
struct vcio_summary {
    const char *scheduler;
    size_t vcs, jobs, jobs_simulated;
    double owned, system, servers, horizon, start, utilization, contended, makespan, mean_stretch, spread;
    double floor_stretch; /* mean over the jobs of capacity / min(max_parallelism, servers) */
    double work_h, used_h, events_per_job, seconds;
    struct vcrep_bin bins[VCIO_MAX_BINS + 1];
    int nbins;
};

struct vcio_summary_opts {
    enum vcsim_policy policy;
    double system_servers;
    const double *bins;   /* load-bin edges, nbins <= VCIO_MAX_BINS */
    int nbins;
};

/* vcio_summarize: the summary of a finished run over its window (tot's;
 * rep filled by vcrep_acc_per_vc); sum->seconds is left 0 for the caller. */
void vcio_summarize(const struct vcio_vcs *V, const struct vcrep_acc *acc, const struct vcrep_vc *rep,
                    const struct vcsim_vc_stats *vst, const struct vcsim_totals *tot,
                    const struct vcio_summary_opts *o, struct vcio_summary *sum);
/* vcio_write_summary: metric,value rows (ctx: struct vcio_summary). */
int vcio_write_summary(csvw *w, const void *ctx);
/* vcio_print_summary: the summary as lines on stderr, with a warning (at
 * jobs_name) when max_parallelism caps explain most of the mean stretch;
 * horizon_derived: the window's length came from the submit span. */
void vcio_print_summary(const struct vcio_summary *sum, const struct vcsim_totals *tot, int horizon_derived,
                        const char *jobs_name);

#endif
