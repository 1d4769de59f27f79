/* slofile — sloinfer's files around the inference of lib/morpheus/slo:
 *
 *   run table   job,instance,submit,start,end[,input_avail,output_read,
 *               status,consumer_period], one row per run, in any order,
 *               held in a slotab (slotable.h) and handed out job by job;
 *               a run is successful when its status is empty or in the
 *               --ok-status list (case-insensitive).  Times after year
 *               5000 are refused (so every period index is an exact double);
 *               end >= start >= submit.  A repeated (job, instance) is a data
 *               error (under --on-error skip the later row is rejected).
 *   events      --events: provenance events time,job,instance,file,op
 *               (op read|write, r|w), each file's events in time order,
 *               joined onto the runs (slo_prov_*) to build input_avail and
 *               output_read; the run table then needs the instance and its
 *               own input_avail/output_read columns are ignored.
 *   overrides   --override: job[,period][,a][,d] rows a user signed off,
 *               one per job (base/keytab's rule: a repeated job is an error
 *               at the later row, rejected under --on-error skip), checked
 *               (d after a, a in the period, the window no longer than the
 *               period; bad rows rejected under --on-error skip).
 *   SLO rows    job,period,a,d,runs,cv,slack_ratio,status,consumer_period,
 *               source,basis,cv_start,cv_read,problematic, one per job
 *               sorted by job, tallied for the summary.
 *
 * Errors: data errors are printed at FILE:LINE (base/csvio); functions
 * return SLK_OK or an exit status.  Thread safety: no shared state; the
 * tables and tallies belong to one thread.
 */
#ifndef SLOKIT_SLOFILE_H
#define SLOKIT_SLOFILE_H

#include "base/csvio.h"
#include "base/diag.h"
#include "morpheus/slo.h"

#include <stddef.h>

/* ---- overrides ---- */

struct slofile_ovrow {
    char *job;
    long line;
    int used;               /* set when a job of the input matched it */
    struct slo_override ov;
};

struct slofile_overrides {
    struct slofile_ovrow *v; /* sorted by job */
    size_t n;
    const char *path;        /* the file read (for warnings naming a row's line) */
};

/* The columns each reader looks up by name, NULL-terminated: what a tool gives cli_keys as its --col KEYs
 * for that input.  slofile_run_keys: the runs table; slofile_event_keys: the --events
 * table; slofile_override_keys: the --override table. */
extern const char *const slofile_run_keys[];
extern const char *const slofile_event_keys[];
extern const char *const slofile_override_keys[];

/* slofile_overrides_load: read path (dialect d) into O (zeroed by the
 * caller).  A job listed twice is a data error naming both lines (under
 * --on-error skip the later row is rejected).  Returns SLK_OK or an exit
 * status; free O either way. */
int slofile_overrides_load(const char *path, const struct csv_dialect *d, struct slofile_overrides *O);
/* slofile_override_find: the row of job (marked used), or NULL. */
struct slofile_ovrow *slofile_override_find(struct slofile_overrides *O, const char *job);
void slofile_overrides_free(struct slofile_overrides *O);

/* ---- the inference over a run table ---- */

/* The SLO statuses, in the order the summary counts them (NULL-ended). */
extern const char *const slofile_statuses[];
#define SLOFILE_NSTATUS 8

/* Counts over the jobs written (sloinfer's summary). */
struct slofile_tally {
    size_t status_count[SLOFILE_NSTATUS];
    size_t njobs, nrows, nfolded, noverridden, nextra, nfailed, nproblematic;
    size_t snap_count[SLO_SNAP_GIVEN + 1];
    size_t basis_count[3];  /* provenance, completion, schedule */
    struct slk_many implausible; /* jobs whose period suggests a finer time unit (the first
                                    SLOFILE_UNIT_WARNINGS named: slofile_infer sets the limit) */
};

/* SLOFILE_UNIT_WARNINGS: jobs warned one by one about an implausible period
 * (a wrong --time-unit makes every job's); the rest are counted. */
#define SLOFILE_UNIT_WARNINGS 3

struct slofile_opts {
    struct slo_opts so; /* its basis is set from the input's columns (auto) or basis */
    int basis; /* -1: auto (provenance when the runs have an output_read column), else enum slo_basis */
    const char *ok_status;    /* comma-separated successful statuses */
    size_t max_runs;          /* runs held at most */
    int skip;                 /* --on-error skip: a repeated instance is rejected, not fatal */
    const char *events_path;  /* NULL: no --events */
    const struct csv_dialect *events_dialect;
    struct slofile_overrides *ov; /* NULL: no --override */
    int quiet;                /* no join line on stderr */
};

/* The SLO rows' header. */
extern const char *const slofile_header[];

/* slofile_infer: read every run of r (and o->events_path), then infer each
 * job's SLO (slo_infer_job, its override from o->ov) and write its row to w
 * in job order, counting it in *t.  A derived period that looks like a time
 * unit mistake is warned about.  Returns SLK_OK or an exit status; nothing
 * is written when reading fails. */
int slofile_infer(csvr *r, const struct slofile_opts *o, csvw *w, struct slofile_tally *t);

#endif
