/* slo — deadline (SLO) inference for periodic jobs from their run history
 * (Morpheus §4), the data plane of sloinfer(1).
 *
 * Two parts:
 *
 *   1. Per-job inference (slo_period_estimate, slo_infer_job).  Pure
 *      functions over the runs of ONE job, held by the caller in an array;
 *      nothing is kept between jobs, so memory is proportional to one job and
 *      the result for a job does not depend on which other jobs share the
 *      input (same output when the input is split by job).
 *
 *   2. The provenance join (slo_prov_*).  Builds each run's input_avail and
 *      output_read from raw provenance events (time, job, instance, file, op)
 *      the way a provenance graph does.  It keeps one small record per file
 *      (its current and previous version: writer, write time, whether a
 *      consumer has read it), one per job name and one per run registered
 *      from the run table: memory proportional to files + jobs + runs, never
 *      to the number of events.  The events of each file must come in time
 *      order (a time-sorted log, or one grouped by job as tracegen writes it,
 *      since a job's files are its own): a run's input_avail and output_read
 *      are a max and a min over files, which do not depend on how the files'
 *      events interleave.
 *
 * Times are epoch seconds (double).  NaN means "missing" everywhere in this
 * module.  Ownership: functions copy what they keep; arrays passed in are
 * read-only unless stated.  Nothing here prints or exits except through the
 * x*alloc helpers (out of memory).
 *
 * Threads: the per-job functions are pure; a slo_prov is used by one thread
 * at a time.
 */
#ifndef SLOKIT_SLO_H
#define SLOKIT_SLO_H

struct csv_dialect;

#include <stddef.h>

/* ---- options ------------------------------------------------------------- */

#define SLO_MAX_NATURAL 64

/* Where a job's deadline d comes from.  PROVENANCE: the output_read times
 * (Morpheus §4).  COMPLETION: the input has no output_read column (an
 * export without provenance): d is a high percentile of the runs' end
 * offsets plus slack (see sloinfer(1), "SLOs without provenance"); the
 * job's basis reads "completion" when its runs have input_avail (a from
 * them), "schedule" when not (a from the submits). */
enum slo_basis { SLO_BASIS_PROVENANCE = 0, SLO_BASIS_COMPLETION };

struct slo_opts {
    double anchor;       /* period k of a job spans [anchor + kP, anchor + (k+1)P) */
    double period;       /* > 0: use this period for every job (no estimation) */
    double natural[SLO_MAX_NATURAL]; /* natural periods (s), ascending */
    int nnatural;
    double snap_tol;     /* relative distance within which a natural period may be chosen */
    double match_tol;    /* a submit within match_tol*P of the job's schedule is on schedule */
    double score_tol;    /* ... and counts toward the periodicity score within score_tol*P */
    double min_score;    /* below this fraction of submits on the schedule the job is not_periodic */
    int min_runs;        /* fewer usable runs: too_few_runs */
    double max_cv;       /* cv above: high_cv */
    double min_slack;    /* slack ratio below: no_slack */
    double a_pct, d_pct; /* percentiles (0..100) of input_avail and output_read offsets */
    enum slo_basis basis; /* where d comes from (slo_basis_choose) */
    double done_pct;     /* completion basis: d = this percentile (0..100) of end offsets ... */
    double done_slack;   /* ... plus this many median run lengths */
    double problematic_cv; /* cv_start or cv_read above: problematic (Morpheus §7); default
                            * asinh(1/2)/ln 2 = 0.694, the MAD/median of exponential waits */
};

/* slo_is_request: whether an SLO row (sloinfer output) is a reservation
 * request for lcmpack and replay: status 'actionable' or 'overridden', or
 * source exactly 'overridden'; a file without a status column (has_status 0)
 * makes every row a request.  status and source may be NULL (empty field). */
int slo_is_request(int has_status, const char *status, const char *source);

/* ---- reading an SLO file (the requests of lcmpack and replay) ------------ */

/* One row of an SLO CSV (sloinfer's output: job, period, a, d, and optional
 * status, source, cv, problematic). */
struct slo_req {
    char *job, *status;     /* owned; status "" when absent */
    long line;
    int usable;             /* slo_is_request: a reservation request */
    double period, a, d;    /* seconds; checked on usable rows only */
    double cv;              /* NaN when absent */
    int problematic;        /* -1 when absent, else 0/1 */
    int mark;               /* 0; free for the caller */
};

struct slo_reqs {
    struct slo_req *v;      /* sorted by job, one row per job */
    size_t n, cap;
};

/* slo_request_keys: the columns looked up by name in an SLO file (slo_read_requests), NULL-terminated:
 * what a tool gives cli_keys as its --col KEYs for that input. */
extern const char *const slo_request_keys[];

/* slo_read_requests: read the SLO CSV at path ("-" for stdin) with dialect d
 * (NULL: plain CSV) into *out
 * (zero it first; free with slo_reqs_free, also after an error).  Usable
 * rows must hold 0 < period <= 366 days, 0 <= a < d, a inside the period
 * and d - a no longer than it, cv >= 0, problematic 0/1 true/false yes/no;
 * a job may have one row only.  Prints `PATH:LINE: what is wrong` on the
 * first problem and returns its SLK_* status; SLK_OK otherwise. */
int slo_read_requests(const char *path, const struct csv_dialect *d, struct slo_reqs *out);

/* slo_find_request: the row of job in r, or NULL. */
struct slo_req *slo_find_request(const struct slo_reqs *r, const char *job);

/* slo_reqs_free: free what r holds and zero it. */
void slo_reqs_free(struct slo_reqs *r);

/* slo_opts_default: the documented defaults (see sloinfer(1)). */
void slo_opts_default(struct slo_opts *o);

/* ---- period ---------------------------------------------------------------- */

enum slo_snap { SLO_SNAP_NONE = 0, SLO_SNAP_NATURAL, SLO_SNAP_MINUTE, SLO_SNAP_SECOND, SLO_SNAP_GIVEN };

struct slo_period {
    double period;   /* the period in seconds, NaN when it cannot be estimated */
    double raw;      /* the fitted period before snapping */
    double jitter;   /* robust spread (1.4826 MAD) of submit times around the schedule, s */
    double score;    /* fit score in [0,1]: precision x (on-schedule periods / periods spanned); picks the period */
    double precision;/* on-schedule periods / distinct submits: below min_score the job is not_periodic */
    enum slo_snap snap;
    size_t slots;    /* periods spanned by the on-schedule submits */
    size_t matched;  /* periods that have an on-schedule submit */
};

/* slo_period_estimate: the period of a job from its n submit times (any
 * order, duplicates allowed; not modified).  Candidates come from the
 * inter-arrival gaps (median, densest cluster) and the natural periods near
 * them; each is refined by a progressive, trimmed least-squares fit of
 * submit = alpha + P k on the on-schedule submits and scored; the best is
 * snapped to a natural period, else a whole minute, else a whole second, when
 * the snapped value lies within snap_tol of the fit and its grid drifts from
 * the fitted one by at most max(3 jitter, P/1000, 1 s) over the periods
 * spanned.  Fewer than 2 distinct submit times: period NaN. */
void slo_period_estimate(const double *submit, size_t n, const struct slo_opts *o, struct slo_period *out);

/* slo_phase: the schedule offset in [0, P) of submit times relative to
 * anchor: the circular mode of (t - anchor) mod P (the median of the phases
 * in the densest window of width P/5).  n > 0. */
double slo_phase(const double *t, size_t n, double anchor, double period);

/* ---- per-job inference -------------------------------------------------------- */

struct slo_run {
    double submit, start, end;    /* required */
    double input_avail;           /* NaN: no recorded input (the submit time is used) */
    double output_read;           /* NaN: nobody read the output */
    double consumer_period;       /* NaN: unknown (inferred from output_read) */
    int ok;                       /* 1 successful run, 0 failed */
};

enum { SLO_OV_PERIOD = 1, SLO_OV_A = 2, SLO_OV_D = 4 };

/* What a user override supplies (--override); has_* say which fields. */
struct slo_override {
    int has_period, has_a, has_d;
    double period, a, d;
};

struct slo_result {
    double period, a, d, cv, slack_ratio, consumer_period; /* NaN when unknown */
    size_t runs;          /* usable runs: successful, one per period, on schedule */
    size_t submits;       /* rows of the job */
    size_t failed;        /* rows with a non-successful status */
    size_t extra;         /* successful rows not used: second run in a period or off schedule */
    size_t reads;         /* usable runs with an output_read */
    int folded;           /* 1 when footnote 5 applied (consumer period longer than P) */
    int capped;           /* 1 when d was lowered to a + period (window longer than the period) */
    int overridden;       /* which fields the override supplied: SLO_OV_* bits, 0 for none */
    struct slo_period per;
    const char *status;   /* "actionable" or the reason (static string) */
    const char *basis;    /* "provenance", "completion" (a from input_avail) or "schedule" (a from submit) */
    double cv_start;      /* robust CV (MAD/median, median >= 60 s) of start - input_avail; NaN: no input_avail */
    double cv_read;       /* the same of output_read - end; NaN: no reads (or basis completion) */
    int problematic;      /* cv_start or cv_read above o->problematic_cv (Morpheus §7) */
};

/* slo_infer_job: infer the SLO of one job from its n runs, in any order
 * (the array is not changed): the result depends on the runs' values only,
 * even when two runs of a period are equally near the schedule (the tie
 * rule of sloinfer(1), "one run is usable").  ov may be NULL.  Always fills *res (a job never disappears:
 * when nothing can be inferred the status says why).  Offsets are taken
 * from the job's scheduled submit anchor + phase + k P (phase: slo_phase of
 * its submits), so the same history shifted by any time gets the same
 * d - a, cv and status; a and d are then written as offsets of the epoch
 * grid anchor + k P (0 <= a < P; d may pass P). */
void slo_infer_job(struct slo_run *runs, size_t n, const struct slo_opts *o, const struct slo_override *ov,
                   struct slo_result *res);

/* ---- provenance join ---------------------------------------------------------- */

typedef struct slo_prov slo_prov;

enum slo_op { SLO_READ = 1, SLO_WRITE = 2 };

slo_prov *slo_prov_new(void);
void slo_prov_free(slo_prov *p);

/* slo_prov_add_run: register a run of the run table before any event.
 * Returns its index (0, 1, ... in call order), or -1 when (job, instance) was
 * already registered. */
long slo_prov_add_run(slo_prov *p, const char *job, const char *instance, double start);

/* slo_prov_event: apply one event.  Returns 0, or -1 (nothing applied) when
 * the event is earlier than the file's previous event: the events of each
 * file must be in time order (events at the same time apply in call order).
 * job may be "" for ingress/egress (an external producer or consumer);
 * instance may be "".  A write starts a new version of the file (several
 * writes by the same run update its write time).  A read by a run R of a file
 * version written by another job: R's input_avail becomes at least that
 * version's write time, where the version is the newest written at or before
 * R's start (the current or the previous one; the current one for a run
 * not in the table, counted in slo_prov_foreign_reads); and the first such
 * read of a version sets its writer's output_read to at most the read time. */
int slo_prov_event(slo_prov *p, double t, const char *job, const char *instance, const char *file,
                   enum slo_op op);

/* slo_prov_result: the built times of run idx (NaN when there is none). */
void slo_prov_result(const slo_prov *p, long idx, double *input_avail, double *output_read);

/* slo_prov_nfiles: distinct files seen (for the summary). */
size_t slo_prov_nfiles(const slo_prov *p);

/* slo_prov_foreign_reads: the reads by runs of a named job that are not in
 * the run table, whose start, and so the version they read, is unknown
 * (taken as the newest); *first gets the first as "job instance" (NULL
 * when none; owned by p). */
size_t slo_prov_foreign_reads(const slo_prov *p, const char **first);

#endif
