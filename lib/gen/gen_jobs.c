/* gen_jobs — periodic production jobs for tracegen: the `runs`, `usage` and
 * `events` kinds over one shared model (see gen_jobs.h for the contract and
 * tracegen(1) for the schemas).
 *
 * The life of one period of a job (all times epoch seconds, ps = period start):
 *   1. its producer (src00042) writes each input file of the period one to
 *      three times; the last of these writes is at ps + a_base + U(0, a_width);
 *   2. the scheduler submits the run at ps + submit_off (+ a few seconds of
 *      cron delay); it starts after a queueing delay, and never before the
 *      input is complete;
 *   3. it runs for the job's runtime (drifting over the weeks, with a step at
 *      a large code change, lognormal noise, and sometimes a straggler tail),
 *      or fails part-way; a failed run is often retried, a period is
 *      sometimes skipped, and an operator sometimes adds a manual run;
 *   4. its consumer (rpt00042) reads the output around ps + d_off, or as
 *      soon as the output appears if the run is late (actionable jobs); at a
 *      random time (high_cv); right after the run ends (no_slack); or never
 *      (no_consumer).  A longer-period consumer reads the outputs of all the
 *      job's runs since its previous read at once.
 * input_avail and output_read are computed from the generated provenance
 * events by the rule of Morpheus §4, so the events kind reproduces them.
 */
#include "gen/gen_jobs.h"
#include "base/cli.h"
#include "base/diag.h"
#include "base/parse.h"
#include "base/rng.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEF_COUNT 100
#define DEF_DAYS 14.0
#define WEEK 604800.0

/* ---- the mix (--set keys) ------------------------------------------------ */

static const struct {
    const char *key;
    double def, min, max;
    size_t off;
} mix_keys[] = {
#define K(name, def, lo, hi) {#name, def, lo, hi, offsetof(struct gj_mix, name)}
    K(hourly_frac, 0.40, 0, 1),
    K(daily_frac, 0.30, 0, 1),
    K(offkilter_frac, 0.06, 0, 1),
    K(actionable_frac, 0.75, 0, 1),
    K(long_consumer_frac, 0.10, 0, 1),
    K(fail_prob, 0.02, 0, 1),
    K(retry_prob, 0.70, 0, 1),
    K(straggler_prob, 0.04, 0, 1),
    K(miss_prob, 0.01, 0, 1),
    K(extra_prob, 0.01, 0, 1),
    K(drift, 0.05, 0, 1),
    K(code_change_prob, 0.20, 0, 1),
    K(jitter, 1.0, 0, 10),
#undef K
};
#define NMIX (sizeof mix_keys / sizeof mix_keys[0])

/* The three kinds accept the same keys, so one --set list can be given to
 * all three (failed_usage only changes usage). */
static const char *const keys_jobs[] = {
    "hourly_frac", "daily_frac", "offkilter_frac", "actionable_frac", "long_consumer_frac",
    "fail_prob", "retry_prob", "straggler_prob", "miss_prob", "extra_prob", "drift",
    "code_change_prob", "jitter", "failed_usage", "preset", NULL};

int gj_mix_read(const struct gen_params *p, struct gj_mix *m)
{
    memset(m, 0, sizeof *m);
    for (size_t i = 0; i < NMIX; i++) {
        double v = mix_keys[i].def;
        const char *s = gen_get_str(p, mix_keys[i].key, NULL);
        if (s && (parse_double(s, &v, 0) < 0 || v < mix_keys[i].min || v > mix_keys[i].max)) {
            slk_error("invalid value for --set %s: '%s' (want a number in [%g, %g])", mix_keys[i].key, s,
                      mix_keys[i].min, mix_keys[i].max);
            return -1;
        }
        *(double *)((char *)m + mix_keys[i].off) = v;
    }
    const char *s = gen_get_str(p, "failed_usage", NULL);
    if (s) {
        if (strcmp(s, "0") && strcmp(s, "1")) {
            slk_error("invalid value for --set failed_usage: '%s' (want 0 or 1)", s);
            return -1;
        }
        m->failed_usage = s[0] == '1';
    }
    s = gen_get_str(p, "preset", NULL);
    if (s) {
        if (strcmp(s, "default") && strcmp(s, "morpheus")) {
            slk_error("invalid value for --set preset: '%s' (want default or morpheus)", s);
            return -1;
        }
        m->preset_morpheus = !strcmp(s, "morpheus");
    }
    /* the period fractions the user set are kept; the defaults of the others
     * shrink so that the three add up to at most 1 */
    double *fr[3] = {&m->hourly_frac, &m->daily_frac, &m->offkilter_frac};
    static const char *const frk[3] = {"hourly_frac", "daily_frac", "offkilter_frac"};
    double set = 0, unset = 0;
    for (int i = 0; i < 3; i++)
        *(gen_get_str(p, frk[i], NULL) ? &set : &unset) += *fr[i];
    if (set > 1 + 1e-9) {
        slk_error("invalid --set mix: hourly_frac + daily_frac + offkilter_frac = %g is more than 1", set);
        return -1;
    }
    if (set + unset > 1 && unset > 0)
        for (int i = 0; i < 3; i++)
            if (!gen_get_str(p, frk[i], NULL))
                *fr[i] *= (1 - set) / unset;
    return 0;
}

double gj_days(const struct gen_params *p) { return p->days > 0 ? p->days : DEF_DAYS; }
long gj_count(const struct gen_params *p) { return p->count > 0 ? p->count : DEF_COUNT; }

const char *gj_class_name(enum gj_class c)
{
    switch (c) {
    case GJ_ACTIONABLE: return "actionable";
    case GJ_HIGH_CV: return "high_cv";
    case GJ_NO_SLACK: return "no_slack";
    case GJ_NO_CONSUMER: return "no_consumer";
    }
    return "?";
}

char *gj_instance(const struct gj_job *j, long seq, char *buf)
{
    snprintf(buf, 40, "%s-%06ld", j->name, seq);
    return buf;
}

/* ---- the job ----------------------------------------------------------------- */

static double unif(rng *r, double lo, double hi) { return lo + (hi - lo) * rng_uniform(r); }

/* pick_period: the period mix.  Two uniforms are always drawn so that a
 * job's other parameters do not shift when the mix changes. */
static int64_t pick_period(rng *r, const struct gj_mix *m)
{
    double u = rng_uniform(r), v = rng_uniform(r);
    static const int64_t offkilter[] = {35 * 60, 50 * 60, 5 * 3600, 7 * 3600, 11 * 3600};
    static const int64_t other[] = {15 * 60, 2 * 3600, 4 * 3600, 6 * 3600, 12 * 3600, 7 * 86400};
    static const double other_w[] = {0.25, 0.20, 0.15, 0.15, 0.10, 0.15};
    if (u < m->hourly_frac)
        return 3600;
    u -= m->hourly_frac;
    if (u < m->daily_frac)
        return 86400;
    u -= m->daily_frac;
    if (u < m->offkilter_frac)
        return offkilter[(int)(v * 5) % 5];
    for (int i = 0; i < 6; i++) {
        if (v < other_w[i])
            return other[i];
        v -= other_w[i];
    }
    return other[5];
}


/* --set preset=morpheus (§2: "large under-provisioned jobs partially offset
 * the impact of over-provisioning"): an under-provisioned job is large, its
 * peak drawn log-uniform in [100, 600] containers when that is more than the
 * one it has; its stages keep their shape. */
static void underprov_big(struct gj_job *j, rng *r)
{
    int big = (int)lround(exp(unif(r, log(100), log(600))));
    if (big <= j->peak)
        return;
    double f = (double)big / (double)j->peak;
    for (int s = 0; s < j->nstages; s++)
        j->stage_par[s] *= f;
    j->peak = big;
}

/* job_schedule: when the job's input arrives, when it is submitted, how
 * long it runs and when its output is read (by class); ulong decides a
 * longer-period consumer. */
static void job_schedule(struct gj_job *j, const struct gj_mix *m, rng *r, double ulong)
{
    const int64_t P = j->period;
    double jit = m->jitter;
    j->a_base = (int64_t)(unif(r, 0, 0.2) * P * (j->cls == GJ_HIGH_CV ? 0.25 : 1));
    j->a_width = (int64_t)(unif(r, 0.01, 0.05) * P * jit);
    if (j->a_width < 2)
        j->a_width = 2;
    int64_t sub = j->a_base + j->a_width + (int64_t)(unif(r, 0, 0.04) * P);
    sub = (sub + 59) / 60 * 60;  /* cron: whole minutes */
    j->submit_off = sub;
    double rt = unif(r, 0.04, 0.25) * P;
    double sf = unif(r, 1.2, 3.0); /* actionable slack, in runtimes */
    double dsd = unif(r, 0.002, 0.008) * P * jit;
    int64_t queue = 30;
    switch (j->cls) {
    case GJ_ACTIONABLE:
        if (sub + queue + rt * (1 + sf) > 0.95 * P)
            rt = (0.95 * P - sub - queue) / (1 + sf);
        break;
    case GJ_HIGH_CV: /* ends early, so reads spread over most of the period */
        if (sub + queue + rt > 0.15 * P)
            rt = 0.15 * P - sub - queue;
        break;
    case GJ_NO_SLACK: /* long enough that a read a minute after the end is no slack */
        if (sub + queue + rt > 0.9 * P)
            rt = 0.9 * P - sub - queue;
        if (rt < 0.1 * P)
            rt = 0.1 * P;
        if (rt < 300)
            rt = 300;
        break;
    default:
        if (sub + queue + rt > 0.9 * P)
            rt = 0.9 * P - sub - queue;
        break;
    }
    if (rt < 60)
        rt = 60;
    j->runtime = (int64_t)rt;
    j->d_sd = (int64_t)(dsd < 5 ? 5 : dsd);
    int64_t end_nom = sub + queue + j->runtime;
    switch (j->cls) {
    case GJ_ACTIONABLE:
        j->d_off = end_nom + (int64_t)(sf * rt);
        if (j->d_off > P - 1 - 3 * j->d_sd)
            j->d_off = P - 1 - 3 * j->d_sd;
        j->d_true = (double)j->d_off;
        j->consumer_period = P;
        if (ulong < m->long_consumer_frac && P <= 86400 && 86400 % P == 0)
            j->consumer_period = P == 86400 ? 7 * 86400 : 86400;
        break;
    case GJ_HIGH_CV: /* read uniformly in [end + 60, 0.98 P] */
        j->d_off = end_nom + 60;
        j->d_true = (double)(end_nom + 60 + (int64_t)(0.98 * P)) / 2;
        j->consumer_period = P;
        break;
    case GJ_NO_SLACK: /* read right after the end */
        j->d_off = end_nom;
        j->d_true = (double)end_nom + 5 + (20 * jit + 1) * log(2);
        j->consumer_period = P;
        break;
    case GJ_NO_CONSUMER:
        j->d_true = -1;
        j->consumer_period = 0;
        break;
    }
    j->a_true = (double)j->a_base + 0.95 * (double)j->a_width;
}

/* job_history: its inputs and outputs, and how its runtime changes over the
 * weeks (drift, a code change). */
static void job_history(struct gj_job *j, const struct gen_params *p, const struct gj_mix *m, rng *r)
{
    j->ninputs = 1 + (int)rng_below(r, GJ_MAX_INPUTS);
    j->nparts = 1 + (int)rng_below(r, 2);
    j->has_state = rng_uniform(r) < 0.3;
    j->drift_rate = unif(r, -m->drift, m->drift);
    double days = gj_days(p);
    double ucc = rng_uniform(r), tcc = unif(r, 0.2, 0.9), fcc = exp(unif(r, -0.4, 0.4));
    j->code_change_t = INT64_MAX;
    if (ucc < m->code_change_prob) {
        j->code_change_t = (int64_t)(p->start + tcc * days * 86400);
        j->code_change_factor = fcc;
    }
}

/* job_shape: its usage (stages of different parallelism), container size
 * and the users' provisioning (Morpheus Fig. 2a). */
static void job_shape(struct gj_job *j, const struct gj_mix *m, rng *r)
{
    static const int nst_w[] = {1, 2, 2, 3, 3, 4, 5};
    j->nstages = nst_w[rng_below(r, 7)];
    double wsum = 0;
    for (int s = 0; s < j->nstages; s++)
        wsum += (j->stage_frac[s] = unif(r, 0.3, 1.0));
    j->peak = (int)lround(exp(unif(r, log(2), log(300))));
    int top = (int)rng_below(r, (uint64_t)j->nstages);
    for (int s = 0; s < j->nstages; s++) {
        j->stage_frac[s] /= wsum;
        j->stage_par[s] = s == top ? j->peak : j->peak * unif(r, 0.1, 1.0);
    }
    static const int cores_w[] = {1, 1, 2, 2, 4};
    j->cores = cores_w[rng_below(r, 5)];
    j->mem_mb = j->cores * (rng_uniform(r) < 0.5 ? 2048 : 4096);
    /* Morpheus Fig. 2a: 75% of jobs over-provisioned, 20% more than 10x
     * (log-normal: P(ratio > 1) = 0.75, P(ratio > 10) = 0.20) */
    double ratio = exp(1.024 + 1.519 * rng_normal(r));
    if (m->preset_morpheus) {
        /* the same draw, calibrated against the peak the usage shows (noise
         * and stragglers put it about 1.37x above `peak`, so the ratio is
         * scaled by that), and large under-provisioned jobs */
        ratio *= 1.37;
        if (ratio < 1)
            underprov_big(j, r);
    }
    double prov = ceil(j->peak * ratio);
    j->provisioned = (int)(prov < 1 ? 1 : prov > 1e6 ? 1e6 : prov);
    j->usage_noise = unif(r, 0.05, 0.2);
}

/* job_make: job number index of the trace, every parameter drawn from its
 * own stream (seed, job name) in a fixed order: period, class, schedule,
 * history, shape. */
static void job_make(const struct gen_params *p, const struct gj_mix *m, long index, struct gj_job *j)
{
    memset(j, 0, sizeof *j);
    snprintf(j->name, sizeof j->name, "job%05ld", index);
    snprintf(j->producer, sizeof j->producer, "src%05ld", index);
    snprintf(j->consumer, sizeof j->consumer, "rpt%05ld", index);
    rng r;
    rng_seed_key(&r, p->seed, j->name);

    j->period = pick_period(&r, m);
    double u = rng_uniform(&r);
    if (u < m->actionable_frac)
        j->cls = GJ_ACTIONABLE;
    else {
        int c = (int)(3 * (u - m->actionable_frac) / (1 - m->actionable_frac));
        j->cls = (enum gj_class)(1 + (c > 2 ? 2 : c));
    }
    double ulong = rng_uniform(&r);
    job_schedule(j, m, &r, ulong);
    job_history(j, p, m, &r);
    job_shape(j, m, &r);
}

/* ---- the runs of a job -------------------------------------------------------- */

/* producer writes of the current period, for the input_avail rule */
struct pwrite {
    int64_t t;
    int input;
};

static struct gj_event *ev_add(struct gj_trace *tr)
{
    tr->ev = xgrow(tr->ev, &tr->capev, tr->nev + 1, sizeof *tr->ev);
    struct gj_event *e = &tr->ev[tr->nev];
    memset(e, 0, sizeof *e);
    e->order = (long)tr->nev++;
    return e;
}

static struct gj_run *run_add(struct gj_trace *tr)
{
    tr->runs = xgrow(tr->runs, &tr->caprun, tr->nruns + 1, sizeof *tr->runs);
    struct gj_run *r = &tr->runs[tr->nruns++];
    memset(r, 0, sizeof *r);
    r->output_read = -1;
    return r;
}

/* run_time: a run's duration drawn for submission time t. */
static void run_duration(const struct gj_job *j, const struct gj_mix *m, rng *r, double trace_start, int64_t t,
                         struct gj_run *run)
{
    double mult = exp(j->drift_rate * (double)(t - trace_start) / WEEK);
    if (t >= j->code_change_t)
        mult *= j->code_change_factor;
    double cap = 0.9 * (double)j->period;
    double rn = (double)j->runtime * mult * exp(0.08 * m->jitter * rng_normal(r));
    rn = rn < 60 ? 60 : rn > cap ? cap : rn;
    double rr = rn;
    if (rng_uniform(r) < m->straggler_prob) {
        rr = rn * unif(r, 1.5, 3.0);
        if (rr > cap)
            rr = cap;
        run->straggler = rr > rn + 60;
    }
    run->nominal = (int64_t)rn;
    int64_t dur = (int64_t)rr;
    if (rng_uniform(r) < m->fail_prob) {
        run->status = GJ_FAILED;
        dur = (int64_t)(dur * unif(r, 0.05, 0.9));
        if (dur < 1)
            dur = 1;
        if (run->nominal > dur)
            run->nominal = dur;
    }
    run->end = run->start + dur;
}

/* input_avail rule: the last producer write of an input before start. */
static int64_t last_write_before(const struct pwrite *w, size_t n, int64_t start)
{
    int64_t best = INT64_MIN;
    for (size_t i = 0; i < n; i++)
        if (w[i].t < start && w[i].t > best)
            best = w[i].t;
    return best;
}

static int cmp_run(const void *a, const void *b)
{
    const struct gj_run *x = a, *y = b;
    if (x->submit != y->submit)
        return x->submit < y->submit ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_ev(const void *a, const void *b)
{
    const struct gj_event *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Every consumer read of a run: its first read (output_read), the part
 * reads after it, and sometimes a later re-read, which must not count. */
struct cread {
    long run;        /* index in runs (before sorting: creation order) */
    int64_t t;       /* first read */
    int64_t key;     /* consumer instance key */
    int64_t reread;  /* -1 or time of a re-read */
};

/* One trace being made: the job's run stream and the working lists. */
struct tmake {
    const struct gj_mix *m;
    const struct gj_job *j;
    struct gj_trace *tr;
    rng r;
    double t0;            /* trace start */
    int64_t mcons;        /* consumer period in job periods (0: none) */
    struct pwrite *pw;    /* producer writes of the current period */
    size_t npw, cappw;
    struct cread *cr;     /* consumer reads */
    size_t ncr, capcr;
    long *pending;        /* long consumer: ok runs not read yet */
    size_t npend, cappend;
};

static void pw_add(struct tmake *x, int64_t t, int input)
{
    x->pw = xgrow(x->pw, &x->cappw, x->npw + 1, sizeof *x->pw);
    x->pw[x->npw++] = (struct pwrite){t, input};
}

static void cr_add(struct tmake *x, struct cread c)
{
    x->cr = xgrow(x->cr, &x->capcr, x->ncr + 1, sizeof *x->cr);
    x->cr[x->ncr++] = c;
}

/* Step 1: the producer writes the period's inputs; returns the time of the
 * last write. */
static int64_t period_inputs(struct tmake *x, int64_t ps)
{
    const struct gj_job *j = x->j;
    rng *r = &x->r;
    x->npw = 0;
    int last = (int)rng_below(r, (uint64_t)j->ninputs);
    int64_t t_last = ps + j->a_base + (int64_t)rng_below(r, (uint64_t)j->a_width + 1);
    for (int i = 0; i < j->ninputs; i++) {
        int64_t tf = i == last ? t_last : t_last - 1 - (int64_t)rng_below(r, (uint64_t)(j->a_base + j->a_width + 1));
        int nw = 1 + (int)rng_below(r, 3);
        for (int w = 0; w < nw; w++)
            pw_add(x, w == 0 ? tf : tf - 1 - (int64_t)rng_below(r, (uint64_t)(j->period / 4 + 1)), i);
    }
    return t_last;
}

/* A run of kind submitted at sub (not scheduled: those wait for their
 * input), queued a few seconds. */
static struct gj_run *extra_run(struct tmake *x, int kind, int64_t ps, int64_t sub)
{
    struct gj_run *run = run_add(x->tr);
    run->seq = (long)x->tr->nruns;
    run->kind = kind;
    run->period_start = ps;
    run->submit = sub;
    run->start = sub + 1 + (int64_t)rng_exp(&x->r, 20 * x->m->jitter + 1);
    run_duration(x->j, x->m, &x->r, x->t0, sub, run);
    return run;
}

/* Steps 2-3: the scheduled run (unless the period is skipped), its retry if
 * it failed, and sometimes a manual run; returns the index of the run the
 * consumer reads this period, or -1. */
static long period_runs(struct tmake *x, int64_t ps, int64_t t_last)
{
    const struct gj_job *j = x->j;
    const struct gj_mix *m = x->m;
    struct gj_trace *tr = x->tr;
    rng *r = &x->r;
    long cand = -1;
    double umiss = rng_uniform(r);
    if (umiss >= m->miss_prob) {
        struct gj_run *run = run_add(tr);
        run->seq = (long)tr->nruns; /* creation order until sorted */
        run->kind = GJ_SCHEDULED;
        run->period_start = ps;
        run->submit = ps + j->submit_off + (int64_t)rng_below(r, (uint64_t)(10 * m->jitter) + 1);
        int64_t queued = run->submit + 1 + (int64_t)rng_exp(r, 20 * m->jitter + 1);
        int64_t ready = t_last + 1 + (int64_t)rng_below(r, 30);
        run->start = queued > ready ? queued : ready;
        run_duration(j, m, r, x->t0, run->submit, run);
        if (run->status == GJ_OK)
            cand = (long)(run - tr->runs);
        else if (rng_uniform(r) < m->retry_prob) {
            int64_t sub = run->end + 60 + (int64_t)rng_below(r, 600);
            if (sub < ps + j->period - 60) {
                struct gj_run *re = extra_run(x, GJ_RETRY, ps, sub);
                if (re->status == GJ_OK)
                    cand = (long)(re - tr->runs);
            }
        }
    }
    if (rng_uniform(r) < m->extra_prob) {
        int64_t sub = ps + (int64_t)rng_below(r, (uint64_t)j->period);
        if (sub < t_last + 60)
            sub = t_last + 60;
        if (sub < ps + j->period - 60)
            extra_run(x, GJ_MANUAL, ps, sub);
    }
    return cand;
}

/* input_avail of the period's runs (from first_run on) by the rule, after
 * sometimes a late append to an input once the scheduled run started (a
 * later run sees it, the scheduled one must not); with events, the
 * producer's writes become events. */
static void period_avail(struct tmake *x, int64_t ps, size_t first_run, int events)
{
    struct gj_trace *tr = x->tr;
    if (tr->nruns > first_run && rng_uniform(&x->r) < 0.05) {
        const struct gj_run *run = &tr->runs[first_run];
        int64_t tl = run->start + 1 + (int64_t)rng_below(&x->r, (uint64_t)(run->end - run->start) / 2 + 1);
        pw_add(x, tl, (int)rng_below(&x->r, (uint64_t)x->j->ninputs));
    }
    for (size_t i = first_run; i < tr->nruns; i++)
        tr->runs[i].input_avail = last_write_before(x->pw, x->npw, tr->runs[i].start);
    if (events)
        for (size_t i = 0; i < x->npw; i++) {
            struct gj_event *e = ev_add(tr);
            e->time = x->pw[i].t;
            e->who = 1;
            e->op = 1;
            e->ftype = 0;
            e->fkey = ps;
            e->fidx = x->pw[i].input;
            e->run = ps;
        }
}

/* Step 4: the consumer reads run cand of period k (by the job's class), or
 * a longer-period consumer reads everything new in the last job period of
 * its own period. */
static void period_consumer(struct tmake *x, int64_t k, int64_t ps, long cand)
{
    const struct gj_job *j = x->j;
    const int64_t P = j->period;
    const double jit = x->m->jitter;
    rng *r = &x->r;
    if (cand >= 0 && j->cls != GJ_NO_CONSUMER) {
        const struct gj_run *c = &x->tr->runs[cand];
        int64_t t = -1;
        double reread = rng_uniform(r);
        switch (j->cls) {
        case GJ_ACTIONABLE:
            if (x->mcons > 1) {
                x->pending = xgrow(x->pending, &x->cappend, x->npend + 1, sizeof *x->pending);
                x->pending[x->npend++] = cand;
            } else {
                t = ps + j->d_off + (int64_t)lround(rng_normal(r) * (double)j->d_sd);
                if (t <= c->end)
                    t = c->end + 5 + (int64_t)rng_exp(r, 60 * jit + 1);
            }
            break;
        case GJ_HIGH_CV: {
            /* spread over the rest of the period, with no typical time: a
             * golden-ratio sequence keeps even a short trace spread out */
            int64_t lo = c->end + 60, hi = ps + (int64_t)(0.98 * P);
            double u = fmod((double)k * 0.6180339887498949 + 0.1 * rng_uniform(r), 1.0);
            t = hi > lo ? lo + (int64_t)(u * (double)(hi - lo)) : lo;
            break;
        }
        case GJ_NO_SLACK:
            t = c->end + 5 + (int64_t)rng_exp(r, 20 * jit + 1);
            break;
        default:
            break;
        }
        if (t >= 0)
            cr_add(x, (struct cread){cand, t, ps, reread < 0.3 ? t + 60 + (int64_t)(reread * P) : -1});
    }
    if (x->mcons > 1 && (k % x->mcons) == x->mcons - 1 && x->npend > 0) {
        int64_t t = ps + j->d_off + (int64_t)lround(rng_normal(r) * (double)j->d_sd);
        size_t keep = 0;
        for (size_t i = 0; i < x->npend; i++) {
            if (x->tr->runs[x->pending[i]].end < t)
                cr_add(x, (struct cread){x->pending[i], t, ps, -1});
            else
                x->pending[keep++] = x->pending[i];
        }
        x->npend = keep;
    }
}

/* The events of the job's runs (their reads and writes) and of the
 * consumer's reads; runs are referenced by creation index, remapped by
 * trace_sort. */
static void run_events(struct tmake *x)
{
    const struct gj_job *j = x->j;
    struct gj_trace *tr = x->tr;
    for (size_t i = 0; i < tr->nruns; i++) {
        const struct gj_run *run = &tr->runs[i];
        for (int f = 0; f < j->ninputs; f++) {
            struct gj_event *e = ev_add(tr);
            *e = (struct gj_event){run->start, e->order, 0, 0, (long)i, 0, run->period_start, f};
        }
        struct gj_event *e = ev_add(tr);
        *e = (struct gj_event){run->start, e->order, 0, 0, (long)i, 4, 0, 0};
        if (j->has_state) {
            e = ev_add(tr);
            *e = (struct gj_event){run->start, e->order, 0, 0, (long)i, 2, 0, 0};
        }
        if (run->status == GJ_OK) {
            int64_t dur = run->end - run->start;
            for (int part = 0; part < j->nparts; part++) {
                e = ev_add(tr);
                int64_t tw = part == j->nparts - 1 ? run->end : run->start + dur * 6 / 10;
                *e = (struct gj_event){tw, e->order, 0, 1, (long)i, 1, (int64_t)i, part};
            }
            /* the job validates its own output: a read that is not a consumer's */
            e = ev_add(tr);
            *e = (struct gj_event){run->end, e->order, 0, 0, (long)i, 1, (int64_t)i, j->nparts - 1};
            if (j->has_state) {
                e = ev_add(tr);
                *e = (struct gj_event){run->end, e->order, 0, 1, (long)i, 2, 0, 0};
            }
        } else {
            e = ev_add(tr);
            *e = (struct gj_event){run->start + (run->end - run->start) / 2, e->order, 0, 1, (long)i, 3,
                                   (int64_t)i, 0};
        }
    }
    for (size_t i = 0; i < x->ncr; i++)
        for (int part = 0; part < j->nparts; part++) {
            struct gj_event *e = ev_add(tr);
            *e = (struct gj_event){x->cr[i].t + part, e->order, 2, 0, x->cr[i].key, 1, (int64_t)x->cr[i].run, part};
            if (part == 0 && x->cr[i].reread >= 0) {
                e = ev_add(tr);
                *e = (struct gj_event){x->cr[i].reread, e->order, 2, 0, x->cr[i].key, 1, (int64_t)x->cr[i].run, 0};
            }
        }
}

/* trace_sort: runs by submit, numbered from 1, and the events' references
 * remapped to the new order (events sorted by time). */
static void trace_sort(struct gj_trace *tr, int events)
{
    qsort(tr->runs, tr->nruns, sizeof *tr->runs, cmp_run);
    if (events) {
        long *newidx = xmalloc((tr->nruns + 1) * sizeof *newidx);
        for (size_t i = 0; i < tr->nruns; i++)
            newidx[tr->runs[i].seq - 1] = (long)i;
        for (size_t i = 0; i < tr->nev; i++) {
            struct gj_event *e = &tr->ev[i];
            if (e->who == 0)
                e->run = newidx[e->run];
            if (e->ftype == 1 || e->ftype == 3)
                e->fkey = newidx[e->fkey];
        }
        free(newidx);
        qsort(tr->ev, tr->nev, sizeof *tr->ev, cmp_ev);
    }
    for (size_t i = 0; i < tr->nruns; i++)
        tr->runs[i].seq = (long)i + 1;
}

void gj_trace_make(const struct gen_params *p, const struct gj_mix *m, long index, int events,
                   struct gj_trace *tr)
{
    struct gj_job *j = &tr->job;
    job_make(p, m, index, j);
    tr->nruns = 0;
    tr->nev = 0;

    char key[48];
    snprintf(key, sizeof key, "%s/runs", j->name);
    struct tmake x = {.m = m, .j = j, .tr = tr, .t0 = p->start};
    rng_seed_key(&x.r, p->seed, key);
    x.mcons = j->consumer_period > 0 ? j->consumer_period / j->period : 0;

    const int64_t P = j->period;
    const double t1 = p->start + gj_days(p) * 86400;
    if (events) {
        struct gj_event *e = ev_add(tr); /* the reference file, written long before the trace */
        e->time = (int64_t)x.t0 - 8 * 86400;
        e->who = 1;
        e->op = 1;
        e->ftype = 4;
        e->run = -1;
    }
    for (int64_t k = (int64_t)ceil(x.t0 / (double)P); (double)(k * P) < t1; k++) {
        const int64_t ps = k * P;
        int64_t t_last = period_inputs(&x, ps);
        size_t first_run = tr->nruns;
        long cand = period_runs(&x, ps, t_last);
        period_avail(&x, ps, first_run, events);
        period_consumer(&x, k, ps, cand);
    }
    for (size_t i = 0; i < x.ncr; i++)
        tr->runs[x.cr[i].run].output_read = x.cr[i].t;
    if (events)
        run_events(&x);
    trace_sort(tr, events);
    free(x.pw);
    free(x.cr);
    free(x.pending);
}

void gj_trace_free(struct gj_trace *tr)
{
    free(tr->runs);
    free(tr->ev);
    memset(tr, 0, sizeof *tr);
}

/* ---- the kinds --------------------------------------------------------------- */

static void write_truth_runs(csvw *t, const struct gj_job *j)
{
    csvw_str(t, j->name);
    csvw_int(t, j->period);
    csvw_int(t, llround(j->a_true));
    if (j->d_true >= 0)
        csvw_int(t, llround(j->d_true));
    else
        csvw_str(t, NULL);
    if (j->consumer_period > 0)
        csvw_int(t, j->consumer_period);
    else
        csvw_str(t, NULL);
    csvw_int(t, j->cls == GJ_ACTIONABLE);
    csvw_str(t, gj_class_name(j->cls));
    csvw_end(t);
}

static const char *const truth_runs_cols[] = {"job", "period", "a", "d", "consumer_period", "actionable", "reason", NULL};

struct tally {
    long jobs, runs, failed, retries, manual, stragglers, missing, unread, rows;
};

static void summary(const char *kind, const struct gen_params *p, const struct tally *t)
{
    if (slk_quiet())
        return;
    char when[32];
    fprintf(slk_summary(),
            "tracegen: %s: %ld jobs over %g days from %s: %ld runs (%ld failed, %ld retries, %ld manual, "
            "%ld stragglers, %ld periods skipped, %ld outputs never read), %ld rows\n",
            kind, t->jobs, gj_days(p), parse_time_format(p->start, when), t->runs, t->failed, t->retries,
            t->manual, t->stragglers, t->missing, t->unread, t->rows);
}

static void tally_job(struct tally *t, const struct gj_trace *tr, const struct gen_params *p)
{
    t->jobs++;
    t->runs += (long)tr->nruns;
    long sched = 0;
    for (size_t i = 0; i < tr->nruns; i++) {
        const struct gj_run *r = &tr->runs[i];
        t->failed += r->status == GJ_FAILED;
        t->retries += r->kind == GJ_RETRY;
        t->manual += r->kind == GJ_MANUAL;
        t->stragglers += r->straggler;
        t->unread += r->status == GJ_OK && r->output_read < 0;
        sched += r->kind == GJ_SCHEDULED;
    }
    int64_t P = tr->job.period;
    int64_t k0 = (int64_t)ceil(p->start / (double)P);
    long periods = 0;
    for (int64_t k = k0; (double)(k * P) < p->start + gj_days(p) * 86400; k++)
        periods++;
    t->missing += periods - sched;
}

/* How one kind writes a job: its columns, its rows for the job's trace
 * (returns how many), and its truth row. */
struct job_writer {
    const char *kind;
    const char *const *cols, *const *tcols;
    int events; /* the trace needs its provenance events */
    long (*rows)(const struct gen_params *p, const struct gj_mix *m, const struct gj_trace *tr, csvw *out);
    void (*truth)(csvw *t, const struct gj_job *j);
};

/* gen_each_job: the jobs of the mix in order, each traced and written by jw,
 * with progress and the summary; SLK_EUSAGE on a bad mix. */
static int gen_each_job(const struct gen_params *p, const struct job_writer *jw, csvw *out, csvw *truth)
{
    struct gj_mix m;
    if (gj_mix_read(p, &m) < 0)
        return SLK_EUSAGE;
    csvw_header(out, jw->cols);
    if (truth)
        csvw_header(truth, jw->tcols);
    struct gj_trace tr = {0};
    struct tally t = {0};
    long n = gj_count(p);
    for (long i = 0; i < n; i++) {
        gj_trace_make(p, &m, i, jw->events, &tr);
        tally_job(&t, &tr, p);
        t.rows += jw->rows(p, &m, &tr, out);
        if (truth)
            jw->truth(truth, &tr.job);
        if (csvw_error(out))
            break;
        slk_progress("jobs", (uint64_t)i + 1, (uint64_t)n);
    }
    slk_progress_done();
    gj_trace_free(&tr);
    summary(jw->kind, p, &t);
    return SLK_OK;
}

static long runs_rows(const struct gen_params *p, const struct gj_mix *m, const struct gj_trace *tr,
                      csvw *out)
{
    char inst[40];
    for (size_t k = 0; k < tr->nruns; k++) {
        const struct gj_run *r = &tr->runs[k];
        csvw_str(out, tr->job.name);
        csvw_str(out, gj_instance(&tr->job, r->seq, inst));
        csvw_int(out, r->submit);
        csvw_int(out, r->start);
        csvw_int(out, r->end);
        csvw_int(out, r->input_avail);
        if (r->output_read >= 0)
            csvw_int(out, r->output_read);
        else
            csvw_str(out, NULL);
        csvw_str(out, r->status == GJ_OK ? "ok" : "failed");
        csvw_end(out);
    }
    return (long)tr->nruns;
}

static int gen_runs(const struct gen_params *p, csvw *out, csvw *truth)
{
    const struct job_writer jw = {
        "runs",
        (const char *const[]){"job", "instance", "submit", "start", "end", "input_avail", "output_read",
                              "status", NULL},
        truth_runs_cols,
        0,
        runs_rows,
        write_truth_runs,
    };
    return gen_each_job(p, &jw, out, truth);
}

static long usage_rows(const struct gen_params *p, const struct gj_mix *m, const struct gj_trace *tr,
                       csvw *out)
{
    const struct gj_job *j = &tr->job;
    char inst[40], key[48];
    long rows = 0;
    rng r;
    snprintf(key, sizeof key, "%s/usage", j->name);
    rng_seed_key(&r, p->seed, key);
    double nz = j->usage_noise;
    for (size_t k = 0; k < tr->nruns; k++) {
        const struct gj_run *run = &tr->runs[k];
        if (run->status != GJ_OK && !m->failed_usage)
            continue;
        gj_instance(j, run->seq, inst);
        int64_t dur = run->end - run->start;
        double nominal = (double)(run->nominal > 0 ? run->nominal : 1);
        for (int64_t s = 0; s * 60 < dur; s++) {
            double mid = (double)s * 60 + 30;
            double c;
            if (mid < nominal) {
                double x = mid / nominal, acc = 0;
                int st = 0;
                for (; st < j->nstages - 1; st++) {
                    acc += j->stage_frac[st];
                    if (x < acc)
                        break;
                }
                c = j->stage_par[st];
            } else /* the straggler's tail: a few slow tasks */
                c = j->stage_par[j->nstages - 1] * 0.05;
            c *= exp(nz * rng_normal(&r) - nz * nz / 2);
            int64_t ci = (int64_t)lround(c);
            if (ci < 1)
                ci = 1;
            csvw_str(out, j->name);
            csvw_str(out, inst);
            csvw_int(out, run->start + s * 60);
            csvw_int(out, ci);
            csvw_int(out, j->cores);
            csvw_int(out, j->mem_mb);
            csvw_end(out);
            rows++;
        }
    }
    return rows;
}

static void write_truth_usage(csvw *t, const struct gj_job *j)
{
    csvw_str(t, j->name);
    csvw_int(t, j->period);
    csvw_int(t, j->nstages);
    csvw_int(t, j->peak);
    csvw_int(t, j->provisioned);
    csvw_int(t, j->cores);
    csvw_int(t, j->mem_mb);
    csvw_int(t, j->runtime);
    csvw_end(t);
}

static int gen_usage(const struct gen_params *p, csvw *out, csvw *truth)
{
    const struct job_writer jw = {
        "usage",
        (const char *const[]){"job", "run", "t", "containers", "cores", "mem_mb", NULL},
        (const char *const[]){"job", "period", "stages", "peak_containers", "provisioned", "cores", "mem_mb",
                              "runtime", NULL},
        0,
        usage_rows,
        write_truth_usage,
    };
    return gen_each_job(p, &jw, out, truth);
}

/* event_file: the path of an event's file. */
static void event_file(const struct gj_trace *tr, const struct gj_event *e, char *buf, size_t n)
{
    const struct gj_job *j = &tr->job;
    char inst[40];
    switch (e->ftype) {
    case 0: snprintf(buf, n, "/data/%s/in%d/%lld", j->name, e->fidx, (long long)e->fkey); break;
    case 1:
        snprintf(buf, n, "/out/%s/%s/part-%05d", j->name, gj_instance(j, tr->runs[e->fkey].seq, inst), e->fidx);
        break;
    case 2: snprintf(buf, n, "/state/%s", j->name); break;
    case 3: snprintf(buf, n, "/tmp/%s/%s", j->name, gj_instance(j, tr->runs[e->fkey].seq, inst)); break;
    default: snprintf(buf, n, "/ref/%s/dim", j->name); break;
    }
}

static long events_rows(const struct gen_params *p, const struct gj_mix *m, const struct gj_trace *tr,
                        csvw *out)
{
    const struct gj_job *j = &tr->job;
    char inst[64], file[128];
    for (size_t k = 0; k < tr->nev; k++) {
        const struct gj_event *e = &tr->ev[k];
        csvw_int(out, e->time);
        switch (e->who) {
        case 0:
            csvw_str(out, j->name);
            csvw_str(out, gj_instance(j, tr->runs[e->run].seq, inst));
            break;
        case 1:
            csvw_str(out, j->producer);
            if (e->ftype == 4)
                snprintf(inst, sizeof inst, "%s-ref", j->producer);
            else
                snprintf(inst, sizeof inst, "%s-%lld", j->producer, (long long)e->run);
            csvw_str(out, inst);
            break;
        default:
            csvw_str(out, j->consumer);
            snprintf(inst, sizeof inst, "%s-%lld", j->consumer, (long long)e->run);
            csvw_str(out, inst);
            break;
        }
        event_file(tr, e, file, sizeof file);
        csvw_str(out, file);
        csvw_str(out, e->op ? "write" : "read");
        csvw_end(out);
    }
    return (long)tr->nev;
}

static int gen_events(const struct gen_params *p, csvw *out, csvw *truth)
{
    const struct job_writer jw = {
        "events",        (const char *const[]){"time", "job", "instance", "file", "op", NULL},
        truth_runs_cols, 1,
        events_rows,     write_truth_runs,
    };
    return gen_each_job(p, &jw, out, truth);
}

/* The times of a trace: the reference file 8 days before --start (every
 * producer write is less than a period, at most a week, before it), and
 * nothing later than 2.3 periods (runs end within 1.9 periods of their
 * period's start, a re-read comes up to 0.3 periods after a read) plus the
 * longest queueing and reading delays the draws can give (under a day)
 * after the last period starts: 3 weeks (13.3 days measured with weekly
 * jobs, jitter 10 and every run failing, retried and straggling). */
static void gj_reach(const struct gen_params *p, double *before, double *after)
{
    *before = 8 * 86400.0;
    *after = gj_days(p) * 86400 + 3 * WEEK;
}

const struct gen_kind gen_kind_runs = {
    "runs",
    "periodic job runs: submit/start/end, input available, output first read, status (Morpheus §4)",
    "job,instance,submit,start,end,input_avail,output_read,status",
    "job,period,a,d,consumer_period,actionable,reason",
    keys_jobs,
    gen_runs,
    gj_reach,
};

const struct gen_kind gen_kind_usage = {
    "usage",
    "per-run resource skylines of the runs kind's ok runs at 1-minute steps (Morpheus §5)",
    "job,run,t,containers,cores,mem_mb",
    "job,period,stages,peak_containers,provisioned,cores,mem_mb,runtime",
    keys_jobs,
    gen_usage,
    gj_reach,
};

const struct gen_kind gen_kind_events = {
    "events",
    "provenance events (reads and writes of files) behind the runs kind's input_avail/output_read",
    "time,job,instance,file,op",
    "job,period,a,d,consumer_period,actionable,reason",
    keys_jobs,
    gen_events,
    gj_reach,
};
