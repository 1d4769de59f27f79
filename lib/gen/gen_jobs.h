/* gen_jobs — the periodic production job model behind tracegen's `runs`,
 * `usage` and `events` kinds (Morpheus §2-§5).
 *
 * One deterministic model, shared by the three kinds, so that for the same
 * --seed, --count, --days and --start they describe the SAME jobs and the SAME
 * runs: `runs` is the run table, `usage` the per-minute resource skylines of
 * those runs, `events` the provenance events from which the input_avail and
 * output_read of `runs` are reconstructed exactly (Morpheus §4).
 *
 * A job is drawn from its own random stream, rng_seed_key(seed, "job00042"),
 * so its data does not depend on --count (job00042 is the same in a trace of
 * 50 jobs and of 10,000).  Its runs come from a second stream
 * ("job00042/runs"), its usage noise from a third ("job00042/usage"), so the
 * kinds that need only part of the model draw the same numbers.
 *
 * Time convention: the period of a job starts at floor(t / period) * period
 * in epoch seconds (UTC), so daily periods start at midnight UTC and hourly
 * periods on the hour; the truth offsets a and d are seconds after that
 * period start.
 *
 * Memory: one job at a time (its runs and events), never the whole trace.
 * Ownership: gj_trace_make fills a caller-owned gj_trace; gj_trace_free
 * releases what it allocated.  Nothing here prints or fails except through
 * xmalloc (out of memory exits).
 *
 * Threads: no shared state; one gj_trace is used by one thread at a time.
 */
#ifndef SLOKIT_GEN_JOBS_H
#define SLOKIT_GEN_JOBS_H

#include "gen/gen.h"
#include <stdint.h>

/* The workload mix (the --set keys; defaults in gen_jobs.c and tracegen(1)). */
struct gj_mix {
    double hourly_frac, daily_frac, offkilter_frac; /* period mix; the rest: 15m/2h/4h/6h/12h/weekly */
    double actionable_frac;    /* jobs with an actionable deadline; the rest split high_cv/no_slack/no_consumer */
    double long_consumer_frac; /* of actionable jobs: read by a consumer with a longer period */
    double fail_prob, retry_prob, straggler_prob, miss_prob, extra_prob;
    double drift;              /* max |weekly log-change| of runtime */
    double code_change_prob;   /* probability of one large code change (runtime step) in the trace */
    double jitter;             /* multiplier of every timing jitter */
    int failed_usage;          /* usage: also the (truncated) skylines of failed runs */
    int preset_morpheus;       /* --set preset=morpheus: Morpheus §2 Fig. 2a provisioning (tracegen(1)) */
};

/* Why a job is (not) actionable — the truth's `reason` column. */
enum gj_class { GJ_ACTIONABLE, GJ_HIGH_CV, GJ_NO_SLACK, GJ_NO_CONSUMER };
const char *gj_class_name(enum gj_class c);

#define GJ_MAX_STAGES 5
#define GJ_MAX_INPUTS 3

struct gj_job {
    char name[24];           /* "job00042" */
    char producer[24];       /* "src00042": writes the job's input files */
    char consumer[24];       /* "rpt00042": reads the job's output */
    int64_t period;          /* s */
    int64_t submit_off;      /* scheduled submit, s after period start */
    int64_t a_base, a_width; /* input arrival: a_base + U(0, a_width) after period start */
    int64_t runtime;         /* median runtime at trace start, s */
    int64_t d_off, d_sd;     /* consumer read: d_off + N(0, d_sd) after period start */
    int64_t consumer_period; /* 0: no consumer */
    enum gj_class cls;
    double a_true, d_true;   /* the truth (d_true < 0: none) */
    int ninputs, nparts, has_state;
    double drift_rate;       /* log-change of runtime per week */
    int64_t code_change_t;   /* time of the large code change, or INT64_MAX */
    double code_change_factor;
    /* usage shape */
    int nstages;
    double stage_frac[GJ_MAX_STAGES]; /* fraction of the runtime, sums to 1 */
    double stage_par[GJ_MAX_STAGES];  /* containers */
    int cores, mem_mb, peak, provisioned;
    double usage_noise;      /* relative sd of containers per sample */
};

enum { GJ_OK = 0, GJ_FAILED = 1 };
enum { GJ_SCHEDULED = 0, GJ_RETRY = 1, GJ_MANUAL = 2 };

struct gj_run {
    long seq;                /* 1-based, in submit order: instance = "<job>-<seq %06>" */
    int status, kind, straggler;
    int64_t period_start;
    int64_t submit, start, end;
    int64_t input_avail;     /* last write by the producer of an input before start */
    int64_t output_read;     /* first read by the consumer of an output; -1: none */
    int64_t nominal;         /* runtime without straggling (the skyline's stages) */
};

/* One provenance event (the events kind).  who: 0 the job, 1 its producer,
 * 2 its consumer.  file: an index into the job's file naming (see gen_jobs.c). */
struct gj_event {
    int64_t time;
    long order;              /* insertion order: ties are broken by it */
    int who, op;             /* op: 0 read, 1 write */
    long run;                /* index into runs (who == 0 or consumer reads), or producer instance */
    int ftype;               /* file type: 0 input, 1 output part, 2 state, 3 tmp, 4 reference */
    int64_t fkey;            /* period start (input), run index (output/tmp) */
    int fidx;                /* input number or part number */
};

struct gj_trace {
    struct gj_job job;
    struct gj_run *runs;
    size_t nruns, caprun;
    struct gj_event *ev;     /* filled only when asked (gj_trace_make with events) */
    size_t nev, capev;
};

/* gj_mix_read: the mix from --set keys (defaults for the missing ones).
 * Returns 0, or -1 after printing "tracegen: invalid value for --set KEY: ..." */
int gj_mix_read(const struct gen_params *p, struct gj_mix *m);

/* gj_days / gj_count: the trace length and job count with the kinds' defaults. */
double gj_days(const struct gen_params *p);
long gj_count(const struct gen_params *p);

/* gj_trace_make: job number `index` and all its runs in [start, start+days)
 * (runs sorted by submit), and its provenance events (sorted by time) when
 * `events` is set.  Reuses tr's arrays; call gj_trace_free once at the end. */
void gj_trace_make(const struct gen_params *p, const struct gj_mix *m, long index, int events,
                   struct gj_trace *tr);
void gj_trace_free(struct gj_trace *tr);

/* gj_instance: "<job>-<seq>" into buf (at least 40 bytes); returns buf. */
char *gj_instance(const struct gj_job *j, long seq, char *buf);

extern const struct gen_kind gen_kind_runs, gen_kind_usage, gen_kind_events;

#endif
