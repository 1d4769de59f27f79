/* classsim — the harvesting paper's month of task scheduling (seed 003 §6,
 * Figs. 13-14): class-aware placement (YARN-H, Algorithm 1 of classpick)
 * against YARN-PT on the primary tenants' replayed utilization, and the
 * readers of its inputs (tenantclass's per-tenant table, servers per
 * tenant, the utilization series).
 *
 * The model.  Each tenant is a pool of `servers` servers that follow its
 * average-server utilization u(t).  Per tick (the series step) the pool's
 * primary uses ceil(servers x u x cores) cores, rounded up once for the pool
 * as YARN-H's node manager does; the reserve is ceil(reserve x cores) cores
 * per server; secondary containers (one core each) may use what is left.
 * When the primary grows into the reserve, the youngest containers are
 * killed until the reserve is whole again, and their tasks go back to their
 * job's queue to run again from the start.  Jobs arrive as a Poisson stream
 * over the first 90% of the replay; a job has n = 1 + Exp(tasks_mean - 1)
 * tasks of one duration (short 57-173 s, medium 173-433 s, long 433-2000 s,
 * a third each), and its last run (what Algorithm 1 sees) took that duration
 * +-10% (or never ran, with probability never_seen).  Class-aware: at
 * arrival Algorithm 1 picks classes from the history (avg, peak) and the
 * classes' current utilization; the job's tasks then go only to tenants of
 * those classes, each tenant's room limited by its own history, spread in
 * proportion to room by systematic sampling.  A labelled job whose classes
 * are full asks Algorithm 1 again next tick; a job for which no combination
 * fits is placed by the default policy.  YARN-PT: tasks go to any tenant in
 * proportion to its free containers.  Both see the same jobs and the same
 * utilization.
 *
 * Errors: the readers report "tool: FILE:LINE: what" through csvio /
 * slk_error_at and return an exit status (lib/base/diag.h); the simulator
 * cannot fail.  Ownership: cs_tenants_free frees what the readers built;
 * callers own the job array of cs_stream_make (free()).
 *
 * Threads: no module state; a tenant array and a job array are mutated by
 * cs_simulate, so concurrent runs need their own copies.
 */
#ifndef SLOKIT_CLASSSIM_H
#define SLOKIT_CLASSSIM_H

#include "base/csvio.h"
#include "harvest/classpick.h"

#include <stddef.h>
#include <stdint.h>

#define CS_MAX_CHOSEN 64 /* classes a job's label keeps (the first drawn) */

/* containers of one job started on one tenant in one tick: same start, same end */
struct cs_batch { int32_t job, end; long count; };

struct cs_tenant {
    char *name;
    int cls;           /* class index into the class table */
    double servers;
    double avg, peak;  /* history (tenantclass output), 0-1 */
    double *u;         /* utilization per tick, 0-1, as read (util / uscale): a float's
                        * 0.6000000238 made ceil(5 servers x 0.6 x 12 cores) 37; 8 bytes a
                        * tick, 35 MB for 200 tenants over 30 days of 2-minute ticks */
    struct cs_batch *run; /* running containers in batches, oldest first */
    size_t nrun, cap;
    long ntask;        /* running containers */
};

struct cs_job {
    double submit, dur, last;
    long tasks;
    int type;
    /* per-run state */
    long pending, running, done;
    double finish;     /* < 0: not finished */
    int32_t slot;      /* the label's slot in the run's pool of labels, -1: none */
    int32_t nchosen;   /* classes in the label (at most CS_MAX_CHOSEN) */
    int decided;
};

struct cs_result { long finished, tasks_run, killed; double mean, p50, p95; long waiting; };

/* The job stream and the cluster's harvestable capacity over the replay. */
struct cs_stream {
    struct cs_job *jobs;
    long nj;
    double span;         /* replayed seconds */
    double harvest;      /* mean harvestable cores */
    double primary_util; /* the primary tenants' mean utilization, server-weighted */
    double mean_dur;     /* mean task duration of the three ranges */
};

/* The columns each reader looks up by name, NULL-terminated: what a tool gives cli_keys as its --col KEYs
 * for that input.  cs_tenant_keys: the tenants table (cs_read_tenants); cs_series_keys: the series
 * (cs_read_series). */
extern const char *const cs_tenant_keys[];
extern const char *const cs_series_keys[];

/* cs_read_tenants: tenant,class,avg,peak rows (tenantclass's per-tenant
 * output) into a name-sorted array; classes are looked up in cls[0..ncls)
 * by name (classes_path names the table in the message when one is
 * missing).  Utilizations are divided by uscale (1 or 100).  Each tenant
 * has 1 server until cs_read_servers.  Returns SLK_OK or an exit status;
 * *out holds what was read either way (cs_tenants_free). */
int cs_read_tenants(const char *path, const struct csv_dialect *d, const struct cp_class *cls, size_t ncls,
                    const char *classes_path, double uscale, struct cs_tenant **out, size_t *nout);

/* cs_read_servers: tenant,servers rows read by tenant_servers_load (a bad,
 * too large, fractional or duplicate row is an error there); tenants not in
 * t are ignored.  *unlisted: the tenants of t it does not list (they keep 1
 * server), *first the first of them in t's order (NULL when none). */
int cs_read_servers(const char *path, const struct csv_dialect *d, struct cs_tenant *t, size_t n,
                    size_t *unlisted, const char **first);

/* cs_read_series: tenant,t,util rows grouped by tenant onto the tick grid
 * of `step` seconds that starts at the first tenant's first sample
 * (floored to the step): a tick's value is the last sample at or before
 * it; before a tenant's first sample, its first.  A tenant's rows must be
 * in time order (equal times: the last row wins); a row before its
 * tenant's previous one is a bad row.  Rows of tenants not in t are
 * skipped; every tenant in t must have a sample.  Sets *nticks and *t0. */
int cs_read_series(const char *path, const struct csv_dialect *d, double uscale, double step, struct cs_tenant *t,
                   size_t n, long *nticks, double *t0);

/* cs_replay_window: keep the ticks from tick ks on, where ks is
 * ceil((split - t0) / step) or, when split is NaN, nticks / 2; *skipped =
 * ks.  An error (reported against path) when ks leaves no history or
 * nothing to replay. */
int cs_replay_window(const char *path, struct cs_tenant *t, size_t n, long *nticks, double t0, double step,
                     double split, long *skipped);

void cs_tenants_free(struct cs_tenant *t, size_t n);

/* cs_stream_make: the job stream for tenants t over nticks ticks: njobs
 * jobs, or when njobs is 0, round(load x harvest x 0.9 span / (tasks_mean x
 * mean_dur)) (at least 1); arrivals and jobs drawn from the stream
 * rng_seed_key(seed, "sim-jobs"). */
void cs_stream_make(const struct cp_params *p, const struct cs_tenant *t, size_t n, long nticks, double step,
                    long njobs, double load, double tasks_mean, double never_seen, uint64_t seed,
                    struct cs_stream *s);

/* cs_simulate: one policy's month (aware: class-aware, else YARN-PT) over
 * the tenants and jobs; resets their run state first, so the same arrays
 * serve both policies.  Classes' `servers` should be the sum of their
 * tenants'; `used` and `current` are overwritten.  Draws from
 * rng_seed_key(seed, "sim-class-aware" or "sim-yarn-pt"). */
void cs_simulate(const struct cp_params *p, double step, uint64_t seed, int aware, struct cs_tenant *t, size_t n,
                 long nticks, struct cs_job *jobs, size_t nj, struct cp_class *cls, size_t ncls,
                 struct cs_result *res);

/* cs_write_results: the --simulate table: policy (yarn-pt, class-aware),
 * jobs, finished, tasks_started, tasks_killed, mean/p50/p95_exec_s and
 * primary_util (times uscale: 1 or 100), one row per policy of res[2]. */
void cs_write_results(csvw *w, const struct cs_stream *s, const struct cs_result *res, double uscale);

#endif
