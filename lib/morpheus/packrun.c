/* packrun — one run of lcmpack, up to the plan (see packrun.h). */
#include "morpheus/packrun.h"
#include "base/diag.h"
#include "base/parse.h"
#include "base/stats.h"
#include "morpheus/lookahead.h"
#include "morpheus/refusal.h"
#include "morpheus/stable.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* one request's outcome, reported once placing is over */
struct decision {
    const char *status; /* placed, kept, rejected; NULL: nothing to report */
    long start, len;
    double cost, pen;
    char *why;          /* rejected: owned */
};

void packrun_free(struct packrun *R)
{
    for (size_t i = 0; R->pre_why && i < R->nreq; i++)
        free(R->pre_why[i]);
    free(R->pre_why);
    free(R->pre);
    free(R->old);
    free(R->back);
    yarn_snapshot_free(&R->snap);
    keyset_free(R->have);
    free(R->have_ref);
    keyset_free(R->adhoc_open);
    keyset_free(R->gone);
    keyset_free(R->no_at);
    free(R->reqs);
    free(R->adhoc_a);
    stages_jobs_free(R->jobs, R->njobs);
    adhoc_free(R->adhoc, R->nadhoc);
    stages_jobs_free(R->adhoc_jobs, R->nadhoc_jobs);
    slo_reqs_free(&R->slos);
    plan_free(R->p);
    planidx_free(R->idx);
    if (R->rep)
        csvw_free(R->rep);
}

/* ---- report ------------------------------------------------------------------ */

static void report(struct packrun *R, const char *job, const char *kind, int64_t instance, const char *status,
                   long start, long len, double cost, double pen, const char *why)
{
    csvw *rep = R->rep;
    long step = R->p->step;
    if (!strcmp(status, "rejected") && !rep && !R->o->quiet) {
        if (strcmp(kind, "once") == 0)
            slk_note_many(&R->unplaced, "job '%s' instance %lld: not placed: %s", job, (long long)instance,
                          why);
        else
            slk_note_many(&R->unplaced, "job '%s': not placed: %s", job, why);
    }
    if (!rep)
        return;
    csvw_str(rep, job);
    csvw_str(rep, kind);
    if (instance >= 0)
        csvw_int(rep, instance);
    else
        csvw_str(rep, NULL);
    csvw_str(rep, status);
    if (len > 0) {
        csvw_int(rep, (int64_t)start * step);
        csvw_int(rep, (int64_t)(start + len) * step);
    } else {
        csvw_str(rep, NULL);
        csvw_str(rep, NULL);
    }
    csvw_num(rep, cost);
    csvw_num(rep, pen);
    csvw_str(rep, why);
    csvw_end(rep);
}

/* rep_start: r's first step as the report gives it: a one-off reservation
 * counted from the start of the cycle its window opens in, as LowCost placed
 * it (its plan rows, read back, count from the cycle of the first row), so a
 * reservation's row says the same night after night; a periodic one from
 * any cycle's start. */
static long rep_start(const plan *p, const struct plan_res *r)
{
    if (r->kind != PLAN_ONCE)
        return r->start;
    int64_t wc = (int64_t)floor(((double)r->instance * r->period + r->a) / (double)p->lcm);
    return (long)((r->cycle - wc) * (int64_t)p->nsteps + r->start);
}

/* skip: a job that is not a request, reported with why. */
static void skip(struct packrun *R, const char *job, const char *kind, const char *why)
{
    R->n.skipped++;
    report(R, job, kind, -1, "skipped", 0, 0, NAN, NAN, why);
}

static int open_report(struct packrun *R)
{
    int st = SLK_OK;
    if (!R->o->report)
        return SLK_OK;
    R->orep = outf_open(R->o->report, &st);
    if (!R->orep)
        return st;
    R->rep = csvw_new_with(outf_fp(R->orep), R->o->csv);
    static const char *const cols[] = {"job", "kind", "instance", "status", "t_start", "t_end",
                                       "cost", "penalty", "reason", NULL};
    csvw_header(R->rep, cols);
    return SLK_OK;
}

/* ---- inputs ------------------------------------------------------------------ */

/* same_file: a and b name one regular file (same device and inode). */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* run_now: the time of the run: --now, or --at without it (docs/lcmpack.md,
 * "The time of the run"). */
static double run_now(const struct packrun_opts *o) { return o->now > o->at ? o->now : o->at; }

/* after_now: the report's reason a, said of --at, or b, said of --now when
 * the run is later than --at (the time the decision was taken from). */
static const char *after_now(const struct packrun_opts *o, const char *a, const char *b)
{
    return o->now > o->at ? b : a;
}

/* fast_path_index: the index of --plan when this run only adds jobs to the
 * plan and writes it back to the same file: no --remove, --replan, --stable
 * or --yarn-delta, plan output (not --format yarn or --query), -o the --plan
 * file itself, an index that still describes it, and no once-reservation
 * ended by --now or --at (all of which rewrite the plan), and a plan file we
 * may write to.  NULL otherwise:
 * the plan is read and rewritten. */
static planidx *fast_path_index(const struct packrun_opts *o)
{
    const char *out = o->output;
    if (!o->plan_in || o->no_index || o->nremove || o->replan || o->yarn || o->have_query || o->stable >= 0 ||
        o->yarn_delta || !out ||
        strcmp(out, "-") == 0 || strncmp(out, "/dev/", 5) == 0 || strncmp(out, "/proc/", 6) == 0 ||
        !same_file(o->plan_in, out) || access(out, W_OK) != 0) /* read-only: replaced, as before */
        return NULL;
    planidx *x = planidx_load(o->plan_in);
    for (size_t k = 0; x && o->have_at && k < x->nres; k++) {
        const struct planidx_res *r = &x->res[k];
        double end = (double)r->cycle * x->lcm + (double)(r->start + r->len) * x->step;
        if (r->kind == PLAN_ONCE && end <= run_now(o)) {
            planidx_free(x);
            x = NULL;
        }
    }
    return x;
}

/* load_plan: --plan (from its index when it can stand in for the rows: the
 * plan starts with their load and gets only the new reservations). */
static int load_plan(struct packrun *R)
{
    const struct packrun_opts *o = R->o;
    if (!o->plan_in)
        return SLK_OK;
    int st;
    plan_lock(o->plan_in, o->quiet); /* held until lcmpack exits */
    R->idx = fast_path_index(o);
    if (R->idx)
        R->p = planidx_plan(R->idx);
    else if ((st = plan_read(o->plan_in, &R->p)) != SLK_OK)
        return st;
    plan *p = R->p;
    R->nres_read = p->nres;
    if (o->yarn_delta && !o->yarn_base) {
        struct yarn_opts yo = {.queue = o->queue, .at = o->at, .cluster_ts = o->cluster_ts};
        yarn_snapshot_take(p, &yo, &R->snap);
    }
    if ((o->have_step && (long)o->step != p->step) || (o->have_lcm && (long)o->lcm != p->lcm)) {
        slk_error("%s: plan has step %ld s and lcm %ld s, but --step %g --lcm %g were given", o->plan_in,
                  p->step, p->lcm, o->step, o->lcm);
        return SLK_EUSAGE;
    }
    if (o->have_at && fmod(o->at, (double)p->lcm) != 0) { /* argp checked --lcm, not the plan's */
        char b[32];
        slk_error("--at %s is not the start of a cycle (a multiple of the plan's lcm %ld s since the epoch)",
                  parse_time_format(o->at, b), p->lcm);
        return SLK_EUSAGE;
    }
    return SLK_OK;
}

/* periodic_in: the SLO's period divides the plan's lcm in whole steps. */
static int periodic_in(const plan *p, const struct slo_req *s)
{
    return s->period == floor(s->period) && fmod(s->period, (double)p->step) == 0 &&
           fmod((double)p->lcm, s->period) == 0;
}

/* read_inputs: the SLOs and skylines, then the plan (new unless --plan),
 * the LCM of the periods for the summary, and the capacity. */
static int read_inputs(struct packrun *R)
{
    const struct packrun_opts *o = R->o;
    int st;
    if (o->slo) {
        if ((st = slo_read_requests(o->slo, o->slo_csv, &R->slos)) != SLK_OK)
            return st;
        struct stages_opts so = {.csv = o->csv, .cont_cores = o->cont_cores, .cont_mem = o->cont_mem,
                                 .max_jobs = o->max_requests};
        if ((st = stages_read(o->input, R->p ? (double)R->p->step : o->step, &so, &R->jobs, &R->njobs)) != SLK_OK)
            return st;
    }
    if (o->adhoc && (st = adhoc_read(o->adhoc, o->adhoc_csv, o->cont_cores, o->cont_mem,
                                     R->p ? (double)R->p->lcm : o->lcm, &R->adhoc, &R->nadhoc)) != SLK_OK)
        return st;
    if (o->adhoc_sky) {
        struct stages_opts so = {.csv = o->csv, .cont_cores = o->cont_cores, .cont_mem = o->cont_mem,
                                 .max_jobs = o->max_requests};
        if ((st = stages_read(o->adhoc_sky, R->p ? (double)R->p->step : o->step, &so, &R->adhoc_jobs,
                              &R->nadhoc_jobs)) != SLK_OK)
            return st;
    }
    if (o->adhoc && (st = adhoc_attach(R->adhoc, R->nadhoc, R->adhoc_jobs, R->nadhoc_jobs,
                                       csv_path_name(o->adhoc))) != SLK_OK)
        return st;
    /* The plan spans the whole --lcm, a multiple of the LCM of the periods
     * that divide it: the LCM-long pattern repeated, and a cycle that stays
     * the same from one night to the next whatever jobs come. */
    if (!R->p)
        R->p = plan_new((long)o->step, (long)o->lcm);
    for (size_t i = 0; i < R->njobs; i++) {
        struct slo_req *s = slo_find_request(&R->slos, R->jobs[i].job);
        if (s && s->usable && periodic_in(R->p, s))
            R->lcm_periods = R->lcm_periods ? stats_lcm(R->lcm_periods, (long long)s->period) : (long long)s->period;
    }
    if (o->cap_file)
        return plan_read_capacity(R->p, o->cap_file, o->cap_csv);
    return plan_set_capacity(R->p, o->cap_cores, o->cap_mem) < 0 ? SLK_EUSAGE : SLK_OK;
}

/* ---- what the plan holds ----------------------------------------------------- */

static int key_in(const keyset *ks, const char *job, enum plan_kind kind, int64_t inst)
{
    char *key = plan_res_key(job, kind, inst);
    int r = keyset_has(ks, key);
    free(key);
    return r;
}

/* res_kind: a reservation's kind in the report: "adhoc" for a one-off whose
 * period is the plan's cycle (an ad-hoc request's, adhoc_request: an
 * off-kilter job's period never divides the cycle), so one whose request
 * has left the --adhoc file is still named for what it was; else "once" or
 * "periodic". */
static const char *res_kind(const plan *p, const struct plan_res *r)
{
    if (r->kind != PLAN_ONCE)
        return "periodic";
    return r->period == (double)p->lcm ? "adhoc" : "once";
}

/* remove_and_expire: --remove (one report row per reservation freed, with
 * its kind, instance and place, as every other row about a reservation),
 * then once reservations that ended before the run's time (--at, or --now). */
static void remove_and_expire(struct packrun *R)
{
    const struct packrun_opts *o = R->o;
    plan *p = R->p;
    for (int i = 0; i < o->nremove; i++) {
        for (size_t k = 0; R->rep && k < p->nres; k++) {
            const struct plan_res *r = &p->res[k];
            if (!r->removed && strcmp(r->job, o->remove[i]) == 0)
                report(R, r->job, res_kind(p, r), r->kind == PLAN_ONCE ? r->instance : -1, "removed",
                       rep_start(p, r), r->len, NAN, NAN, "--remove");
        }
        int n = plan_remove_job(p, o->remove[i]);
        if (n) {
            R->n.removed += n;
        } else if (!R->o->quiet) {
            fprintf(stderr, "%s: warning: --remove %s: no such job in the plan\n", slk_progname, o->remove[i]);
        }
    }
    if (!o->have_at)
        return;
    /* the ad-hoc requests by identity (adhoc.h): a reservation that ran
     * for one still open stays, spent, so the request is not served again */
    keyset *adhoc = keyset_new();
    R->adhoc_open = keyset_new();
    R->gone = keyset_new();
    for (size_t i = 0; i < R->nadhoc; i++) {
        char *key = plan_res_key(R->adhoc[i].job, PLAN_ONCE, adhoc_instance(&R->adhoc[i], (double)p->lcm));
        keyset_add(adhoc, key);
        if (R->adhoc[i].deadline > run_now(o))
            keyset_add(R->adhoc_open, key);
        free(key);
    }
    long spent = 0;
    for (size_t k = 0; k < p->nres; k++) {
        struct plan_res *r = &p->res[k];
        double start, end;
        plan_once_span(p, r, &start, &end);
        if (r->removed || r->kind != PLAN_ONCE || end > run_now(o))
            continue;
        char *key = plan_res_key(r->job, PLAN_ONCE, r->instance);
        /* served: a listed ad-hoc request still open, or an instance that
         * opened since --at and ran before --now while its window is still
         * open (tonight's requests ask for it again: it must not be served
         * twice) */
        double base = (double)r->instance * r->period;
        int served = keyset_has(adhoc, key) ? keyset_has(R->adhoc_open, key)
                                            : base + r->a >= o->at && base + r->d > run_now(o);
        if (served) {
            r->spent = 1;
            spent++;
        } else {
            r->removed = 1;
            R->n.expired++;
            keyset_add(R->gone, key);
            report(R, r->job, res_kind(p, r), r->instance, "expired", rep_start(p, r), r->len, NAN, NAN,
                   after_now(o, "ended before --at", "ended before --now"));
        }
        free(key);
    }
    keyset_free(adhoc);
    if (R->n.expired || spent)
        plan_recompute_load(p);
}

/* have_put: note the key of a reservation the plan holds and where it is
 * (the first of a key wins). */
static void have_put(struct packrun *R, const char *job, enum plan_kind kind, int64_t inst,
                     struct packrun_ref ref)
{
    char *key = plan_res_key(job, kind, inst);
    long row = keyset_put(R->have, key, 0, NULL);
    free(key);
    if (row < 0)
        return;
    R->have_ref = xgrow(R->have_ref, &R->have_cap, (size_t)row + 1, sizeof *R->have_ref);
    R->have_ref[row] = ref;
}

/* note_have: the keys of the reservations the plan (or its index) holds. */
static void note_have(struct packrun *R)
{
    R->have = keyset_new();
    for (size_t k = 0; R->idx && k < R->idx->nres; k++)
        have_put(R, R->idx->res[k].job, R->idx->res[k].kind, R->idx->res[k].instance,
                 (struct packrun_ref){&R->idx->res[k], 0});
    for (size_t k = 0; k < R->p->nres; k++)
        if (!R->p->res[k].removed)
            have_put(R, R->p->res[k].job, R->p->res[k].kind, R->p->res[k].instance,
                     (struct packrun_ref){NULL, k});
}

/* idx_view: reservation x of the index as a plan_res without its
 * containers (enough for its slots, place and window) into *tmp. */
static struct plan_res *idx_view(const struct planidx_res *x, struct plan_res *tmp)
{
    *tmp = (struct plan_res){.job = (char *)x->job,
                             .kind = x->kind,
                             .instance = x->instance,
                             .cycle = x->cycle,
                             .period = x->period,
                             .a = x->a,
                             .d = x->d,
                             .cores = x->cores,
                             .mem_mb = x->mem_mb,
                             .problematic = x->problematic,
                             .start = x->start,
                             .len = x->len};
    return tmp;
}

/* have_res: the reservation the plan held for q's key (from the index:
 * idx_view into tmp), or NULL. */
static const struct plan_res *have_res(const struct packrun *R, const struct lowcost_req *q,
                                       struct plan_res *tmp)
{
    char *key = plan_res_key(q->job, q->kind, q->instance);
    long row = keyset_row(R->have, key);
    free(key);
    if (row < 0)
        return NULL;
    const struct planidx_res *x = R->have_ref[row].x;
    return x ? idx_view(x, tmp) : &R->p->res[R->have_ref[row].k];
}

/* started: a once reservation whose first step lies before the run's time
 * (--at, or --now): under way, or spent (it ran); it is never moved or freed
 * by tonight's run. */
static int started(const struct packrun *R, const struct plan_res *r)
{
    double start, end;
    plan_once_span(R->p, r, &start, &end);
    return r->kind == PLAN_ONCE && R->o->have_at && start < run_now(R->o);
}

/* started_why: why a started reservation stays. */
static const char *started_why(const struct packrun *R, const struct plan_res *r)
{
    return r->spent
               ? after_now(R->o,
                           "ran before --at: its request is served (kept, without load, until its deadline)",
                           "ran before --now: its request is served (kept, without load, until its deadline)")
               : after_now(R->o, "under way at --at: kept until it ends",
                           "under way at --now: kept until it ends");
}

/* ---- requests ---------------------------------------------------------------- */

static int is_problematic(const struct packrun_opts *o, const struct slo_req *s)
{
    for (int i = 0; i < o->nprob; i++)
        if (strcmp(o->prob[i], s->job) == 0)
            return 1;
    if (s->problematic >= 0)
        return s->problematic;
    if (o->problematic_cv >= 0 && s->cv > o->problematic_cv)
        return 1;
    return 0;
}

/* warn_unknown_problematic: a --problematic JOB that names no job of the
 * SLO file or the skylines (a typo, a job gone) has no effect: one warning
 * each, unless -q, as --remove's for a job not in the plan. */
static void warn_unknown_problematic(const struct packrun *R)
{
    const struct packrun_opts *o = R->o;
    keyset *sky = NULL; /* the skyline jobs, built at the first name the SLO file lacks */
    for (int i = 0; !o->quiet && i < o->nprob; i++) {
        if (slo_find_request(&R->slos, o->prob[i]))
            continue;
        if (!sky) {
            sky = keyset_new();
            for (size_t j = 0; j < R->njobs; j++)
                keyset_add(sky, R->jobs[j].job);
        }
        if (!keyset_has(sky, o->prob[i]))
            fprintf(stderr, "%s: warning: --problematic %s: no such job in the SLO file or the skylines\n",
                    slk_progname, o->prob[i]);
    }
    keyset_free(sky);
}

static void push_req(struct packrun *R, const struct lowcost_req *q)
{
    R->reqs = xgrow(R->reqs, &R->reqcap, R->nreq + 1, sizeof *R->reqs);
    R->reqs[R->nreq++] = *q;
}

/* job_request: job j's request (periodic or not in *periodic), or NULL when
 * the job is not one (reported as skipped on pass 0). */
static struct slo_req *job_request(struct packrun *R, struct stages_job *j, int pass, struct lowcost_req *q,
                                   int *periodic)
{
    plan *p = R->p;
    struct slo_req *s = slo_find_request(&R->slos, j->job);
    const char *why = NULL;
    char buf[160];
    if (!s) {
        why = "no SLO row for the job";
    } else if ((s->mark = 1, !s->usable)) { /* mark: has a skyline */
        snprintf(buf, sizeof buf, "SLO status '%.100s' is not a reservation request", s->status);
        why = buf;
    } else if (j->nst == 0) {
        why = "skyline has no demand";
    } else if (s->period < (double)p->step) {
        why = "period shorter than the plan step";
    }
    if (why) {
        if (pass == 0)
            skip(R, j->job, "", why);
        return NULL;
    }
    *periodic = periodic_in(p, s);
    *q = (struct lowcost_req){.job = j->job, .period = s->period, .a = s->a, .d = s->d, .cores = j->cores,
                              .mem_mb = j->mem_mb, .problematic = is_problematic(R->o, s), .nstages = j->nst,
                              .stage = j->st};
    return s;
}

/* once_requests: one request per instance of q whose window opens inside
 * [--at, --at + horizon), in [max(its opening, --now), its deadline]: one
 * whose window has closed by --now is not requested (reported skipped,
 * unless its reservation expired tonight), since a reservation in the past
 * serves nothing, and one under way is placed from --now on, so a re-run at
 * the same --now finds it where it was.  SLK_OK, or SLK_EDATA past
 * --max-requests (printed). */
static int once_requests(struct packrun *R, const struct stages_job *j, const struct slo_req *s,
                         struct lowcost_req q)
{
    const struct packrun_opts *o = R->o;
    plan *p = R->p;
    if (!o->have_at) {
        R->need_at = 1;
        if (!R->no_at)
            R->no_at = keyset_new();
        keyset_add(R->no_at, j->job);
        skip(R, j->job, "once",
             "period is not a whole number of steps that divides the lcm, and no --at cycle was given");
        return SLK_OK;
    }
    double c0 = o->at, c1 = o->at + (o->horizon > 0 ? o->horizon : (double)p->lcm);
    int64_t n0 = (int64_t)ceil((c0 - s->a) / s->period - 1e-9);
    if (!((double)n0 * s->period + s->a < c1)) {
        char why[160];
        double span = c1 - c0;
        if (o->horizon > 0 && fmod(span, 3600) == 0)
            snprintf(why, sizeof why, "no instance of the job opens within the --horizon of %.0f h from --at",
                     span / 3600);
        else if (o->horizon > 0)
            snprintf(why, sizeof why, "no instance of the job opens within the --horizon of %.0f s from --at", span);
        else
            snprintf(why, sizeof why, "no instance of the job opens in the --at cycle (%.0f s)", span);
        skip(R, j->job, "once", why);
        return SLK_OK;
    }
    for (int64_t n = n0; (double)n * s->period + s->a < c1; n++) {
        double base = (double)n * s->period, now = run_now(o);
        if (base + s->d <= now) { /* not a request: never over the limit */
            if (!key_in(R->gone, j->job, PLAN_ONCE, n)) {
                R->n.skipped++;
                report(R, j->job, "once", n, "skipped", 0, 0, NAN, NAN, "its window closed before --now");
            }
            continue;
        }
        if ((long long)R->nreq >= o->max_requests) {
            slk_error_at(csv_path_name(o->input), j->line,
                         "more than %lld requests (--max-requests; job '%s' has one per instance)",
                         o->max_requests, j->job);
            return SLK_EDATA;
        }
        q.kind = PLAN_ONCE;
        q.instance = n;
        q.a = base + s->a < now ? now - base : s->a;
        q.cycle = (int64_t)floor((base + q.a) / (double)p->lcm);
        push_req(R, &q);
    }
    return SLK_OK;
}

/* removed_tonight: job was given to --remove (freed tonight, not placed
 * again by the same run). */
static int removed_tonight(const struct packrun *R, const char *job)
{
    for (int i = 0; i < R->o->nremove; i++)
        if (strcmp(R->o->remove[i], job) == 0)
            return 1;
    return 0;
}

/* build_requests: periodic requests first (input order), then one-off
 * instances; every job that is not a request is reported as skipped. */
static int build_requests(struct packrun *R)
{
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < R->njobs; i++) {
            struct lowcost_req q;
            int periodic, st;
            struct slo_req *s = job_request(R, &R->jobs[i], pass, &q, &periodic);
            if (!s)
                continue;
            if (removed_tonight(R, R->jobs[i].job)) {
                if (pass == 0)
                    skip(R, R->jobs[i].job, "", "--remove: freed tonight, not placed again");
                continue;
            }
            if (periodic && pass == 0) {
                q.kind = PLAN_PERIODIC;
                push_req(R, &q);
            } else if (!periodic && pass == 1 && (st = once_requests(R, &R->jobs[i], s, q)) != SLK_OK) {
                return st;
            }
        }
    for (size_t i = 0; i < R->slos.n; i++)
        if (!R->slos.v[i].mark && R->slos.v[i].usable)
            skip(R, R->slos.v[i].job, "", "no skyline for the job");
    /* ad-hoc requests last: lower priority, the capacity the others leave */
    R->adhoc0 = R->nreq;
    for (size_t i = 0; i < R->nadhoc; i++) {
        struct lowcost_req q;
        adhoc_request(R->p, &R->adhoc[i], run_now(R->o), &q);
        if (R->adhoc[i].deadline <= run_now(R->o)) {
            if (key_in(R->gone, q.job, q.kind, q.instance))
                continue; /* reported with its reservation */
            R->n.expired++;
            report(R, q.job, "adhoc", q.instance, "expired", 0, 0, NAN, NAN,
                   after_now(R->o, "deadline before --at", "deadline before --now"));
            continue;
        }
        if (removed_tonight(R, q.job)) {
            skip(R, q.job, "adhoc", "--remove: freed tonight, not placed again");
            continue;
        }
        if ((long long)R->nreq >= R->o->max_requests) {
            slk_error_at(csv_path_name(R->o->adhoc), R->adhoc[i].line,
                         "more than %lld requests (--max-requests)", R->o->max_requests);
            return SLK_EDATA;
        }
        R->adhoc_a = xgrow(R->adhoc_a, &R->adhoc_acap, R->nreq - R->adhoc0 + 1, sizeof *R->adhoc_a);
        R->adhoc_a[R->nreq - R->adhoc0] = R->adhoc[i].arrival - (double)q.instance * (double)R->p->lcm;
        push_req(R, &q);
    }
    if (R->need_at && !R->o->quiet)
        fprintf(
            stderr,
            "%s: warning: some jobs' periods are not whole numbers of %ld s steps that divide the lcm %ld s: "
            "give --at TIME to plan their instances\n",
            slk_progname, R->p->step, R->p->lcm);
    return SLK_OK;
}

struct slack_ix {
    size_t i;
    int once;
    long slack;
};

static int slack_cmp(const void *a, const void *b)
{
    const struct slack_ix *x = a, *y = b;
    if (x->once != y->once)
        return x->once - y->once;
    if (x->slack != y->slack)
        return x->slack < y->slack ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* order_tight: --order tight: least flexible first, periodic before once, stable. */
static void order_tight(struct packrun *R)
{
    size_t nreq = R->adhoc0; /* the ad-hoc requests stay last, in file order */
    if (!R->o->tight || nreq < 2)
        return;
    struct slack_ix *ix = xmalloc(nreq * sizeof *ix);
    for (size_t i = 0; i < nreq; i++)
        ix[i] = (struct slack_ix){i, R->reqs[i].kind == PLAN_ONCE, lookahead_slack(R->p, &R->reqs[i])};
    qsort(ix, nreq, sizeof *ix, slack_cmp);
    struct lowcost_req *sorted = xmalloc(R->nreq * sizeof *sorted);
    for (size_t i = 0; i < nreq; i++)
        sorted[i] = R->reqs[ix[i].i];
    for (size_t i = nreq; i < R->nreq; i++)
        sorted[i] = R->reqs[i];
    free(R->reqs);
    free(ix);
    R->reqs = sorted;
    R->reqcap = R->nreq;
}

static int under_way(const struct packrun *R, const struct plan_res *r);

/* replan_free: --replan frees the jobs that are requested again before
 * anything is placed (marked first, the load rebuilt once: replanning
 * 10,000 jobs must not rebuild it 10,000 times), except their one-offs
 * under way (under_way: started, or whose window opened before --at): no
 * request of tonight asks for those again, so freed they would be lost. */
static void replan_free(struct packrun *R)
{
    if (!R->o->replan)
        return;
    keyset *again = keyset_new();
    for (size_t i = 0; i < R->nreq; i++)
        if (key_in(R->have, R->reqs[i].job, R->reqs[i].kind, R->reqs[i].instance))
            keyset_add(again, R->reqs[i].job);
    if (keyset_size(again)) {
        for (size_t k = 0; k < R->p->nres; k++)
            if (!R->p->res[k].removed && !under_way(R, &R->p->res[k]) && keyset_has(again, R->p->res[k].job))
                R->p->res[k].removed = 1;
        plan_recompute_load(R->p);
    }
    keyset_free(again);
}

/* ---- --stable ---------------------------------------------------------------- */

struct keyed {
    char *key;
    struct plan_res *r;
};

static int keyed_cmp(const void *a, const void *b)
{
    return strcmp(((const struct keyed *)a)->key, ((const struct keyed *)b)->key);
}

/* under_way: a once reservation whose window opened before --at, or that
 * started before the run's time: no request asks for it any more (its
 * window is not tonight's to open), yet it stays until it ends. */
static int under_way(const struct packrun *R, const struct plan_res *r)
{
    return r->kind == PLAN_ONCE && R->o->have_at &&
           ((double)r->instance * r->period + r->a < R->o->at || started(R, r));
}

/* keep_unasked: report reservation r, which no request of the night asks
 * for, kept (with its place, cost and why), and count it (a request of the
 * night, kept). */
static void keep_unasked(struct packrun *R, const struct plan_res *r, const char *why)
{
    struct lowcost_opts lo = {.align_weight = R->o->align_weight};
    R->n.requests++;
    R->n.kept++;
    report(R, r->job, res_kind(R->p, r), r->kind == PLAN_ONCE ? r->instance : -1, "kept", rep_start(R->p, r),
           r->len, plan_res_peak(R->p, r), lowcost_penalty(R->p, r, &lo), why);
}

/* no_skyline: r's job still has an SLO that is a request but no skyline
 * (and so no request) tonight: a usage export cut short, a fit that
 * failed; a gap in the data, not a job that left. */
static int no_skyline(struct packrun *R, const struct plan_res *r, keyset *jobs)
{
    const struct slo_req *s = slo_find_request(&R->slos, r->job);
    return s && s->usable && !s->mark && !keyset_has(jobs, r->job);
}

/* no_slo: r's job has a skyline tonight (in sky) but no SLO row at all: an
 * SLO file or runs export cut short, the mirror of no_skyline.  A job whose
 * SLO row says it is no longer a request is not this (a real change), nor
 * an ad-hoc reservation (its request is the --adhoc file's). */
static int no_slo(struct packrun *R, const struct plan_res *r, keyset *sky)
{
    return strcmp(res_kind(R->p, r), "adhoc") != 0 && !slo_find_request(&R->slos, r->job) &&
           keyset_has(sky, r->job);
}

/* not_planned: r is a once reservation of a job still requested whose
 * instances this run could not plan (no --at: skipped, once_requests): not
 * unrequested, so kept as the run without --stable keeps it. */
static int not_planned(const struct packrun *R, const struct plan_res *r)
{
    return r->kind == PLAN_ONCE && R->no_at && keyset_has(R->no_at, r->job);
}

/* shape_key: a job's request kind and period as a string (malloc'd): a
 * reservation of the same shape no request asks for is an instance not
 * requested tonight, not one replaced by a request of another shape. */
static char *shape_key(const char *job, enum plan_kind kind, double period)
{
    size_t n = strlen(job) + 48;
    char *k = xmalloc(n);
    snprintf(k, n, "%s\x1f%d\x1f%.17g", job, (int)kind, period);
    return k;
}

/* unasked_why: why reservation r, which no request of tonight asks for, is
 * removed: its job has no request tonight; or requests of the same kind and
 * period, but none for this instance (a one-off beyond --horizon, or no
 * longer requested); or a request of another kind or period, placed as a
 * new one. */
static const char *unasked_why(const struct plan_res *r, keyset *jobs, keyset *shapes)
{
    if (!keyset_has(jobs, r->job))
        return "no request tonight (--stable)";
    char *k = shape_key(r->job, r->kind, r->period);
    int same = keyset_has(shapes, k);
    free(k);
    return same ? "no request for this instance tonight (beyond --horizon, or no longer requested)"
                : "replaced: the job's request tonight has another kind or period, placed as a new one";
}

/* stable_decide: the reservations last night's plan holds.  With --stable:
 * for each request the plan holds a reservation for, keep it (stable_keep)
 * or free it to be placed again (moved); free the reservations no request
 * asks for tonight, except a once one under way (its window opened before
 * --at, or it started: kept until it ends), a once one whose job's
 * instances were not planned (no --at: not_planned, kept) and one whose job has its SLO
 * but no skyline tonight (no_skyline: kept) or its skyline but no SLO row
 * (no_slo: kept, one warning).  Without --stable nothing is
 * freed, and the under-way ones no request asks for are reported kept.
 * The load is rebuilt once. */
static void stable_decide(struct packrun *R)
{
    plan *p = R->p;
    int stable = R->o->stable >= 0;
    if (!stable && !R->o->have_at)
        return;
    size_t n = 0,
           nidx = R->idx ? R->idx->nres : 0; /* from PLAN.idx: --plan's reservations (never --stable) */
    struct plan_res *view = xcalloc(nidx ? nidx : 1, sizeof *view);
    struct keyed *ix = xcalloc(p->nres + nidx ? p->nres + nidx : 1, sizeof *ix);
    for (size_t k = 0; k < p->nres; k++)
        if (!p->res[k].removed && (stable || under_way(R, &p->res[k])))
            ix[n++] =
                (struct keyed){plan_res_key(p->res[k].job, p->res[k].kind, p->res[k].instance), &p->res[k]};
    for (size_t k = 0; k < nidx; k++)
        if (under_way(R, idx_view(&R->idx->res[k], &view[k])))
            ix[n++] = (struct keyed){plan_res_key(view[k].job, view[k].kind, view[k].instance), &view[k]};
    qsort(ix, n, sizeof *ix, keyed_cmp);
    char *asked = xcalloc(n ? n : 1, 1);
    if (stable) {
        R->pre = xcalloc(R->nreq ? R->nreq : 1, 1);
        R->pre_why = xcalloc(R->nreq ? R->nreq : 1, sizeof *R->pre_why);
        R->old = xcalloc(R->nreq ? R->nreq : 1, sizeof *R->old);
        R->back = xcalloc(R->nreq ? R->nreq : 1, 1);
    }
    int changed = 0;
    for (size_t i = 0; i < R->nreq; i++) {
        const struct lowcost_req *q = &R->reqs[i];
        struct keyed key = {plan_res_key(q->job, q->kind, q->instance), 0};
        struct keyed *hit = n ? bsearch(&key, ix, n, sizeof *ix, keyed_cmp) : NULL;
        free(key.key);
        if (!hit)
            continue;
        asked[hit - ix] = 1;
        if (!stable)
            continue;
        char why[200];
        struct plan_res *r = hit->r;
        if (started(R, r)) { /* its past cannot move: kept whatever the new request says */
            R->pre[i] = 1;
            R->pre_why[i] = xstrdup(started_why(R, r));
            continue;
        }
        R->pre[i] = stable_keep(p, r, q, R->o->stable, why, sizeof why) ? 1 : 2;
        R->pre_why[i] = xstrdup(why);
        if (R->pre[i] == 2) {
            r->removed = 1;
            R->old[i] = (size_t)(r - p->res); /* with --stable every reservation is read: no index */
            R->n_moved++;
            changed = 1;
        }
    }
    keyset *jobs = keyset_new(), *shapes = keyset_new(), *sky = keyset_new(), *kept_nos = keyset_new();
    for (size_t i = 0; stable && i < R->nreq; i++) { /* the jobs with a request tonight, and its shape */
        keyset_add(jobs, R->reqs[i].job);
        char *k = shape_key(R->reqs[i].job, R->reqs[i].kind, R->reqs[i].period);
        keyset_add(shapes, k);
        free(k);
    }
    for (size_t j = 0; stable && j < R->njobs; j++) /* the jobs with a skyline tonight */
        keyset_add(sky, R->jobs[j].job);
    for (size_t x = 0; x < n; x++) {
        struct plan_res *r = ix[x].r;
        free(ix[x].key);
        if (asked[x])
            continue;
        if (under_way(R, r)) {
            keep_unasked(R, r,
                         started(R, r) ? started_why(R, r)
                                       : "its window opened before --at: kept, expires when it ends");
        } else if (no_skyline(R, r, jobs)) {
            keep_unasked(R, r,
                         "no skyline tonight, its SLO is still a request: last night's reservation stands");
        } else if (not_planned(R, r)) {
            keep_unasked(R, r,
                         "no --at was given: its job's once instances were not planned tonight, last night's "
                         "reservation stands");
        } else if (no_slo(R, r, sky)) {
            keep_unasked(R, r,
                         "no SLO row tonight (a cut-short runs export?), its skyline is still there: last "
                         "night's reservation stands");
            keyset_add(kept_nos, r->job);
        } else {
            r->removed = 1;
            R->n_gone++;
            changed = 1;
            report(R, r->job, res_kind(p, r), r->kind == PLAN_ONCE ? r->instance : -1, "removed",
                   rep_start(p, r), r->len, NAN, NAN, unasked_why(r, jobs, shapes));
        }
    }
    if (keyset_size(kept_nos) && !R->o->quiet)
        fprintf(
            stderr,
            "%s: warning: %zu job(s) with reservations and a skyline have no SLO row tonight (an SLO file "
            "or runs export cut short?): their reservations kept\n",
            slk_progname, keyset_size(kept_nos));
    keyset_free(jobs);
    keyset_free(shapes);
    keyset_free(sky);
    keyset_free(kept_nos);
    if (changed)
        plan_recompute_load(p);
    free(ix);
    free(view);
    free(asked);
}

/* ---- placing ----------------------------------------------------------------- */

/* place_new: LowCost (or --strategy earliest) for request i: on success
 * counts it placed (moved when --stable freed its old reservation), sets
 * dec[i] and ids[i] and returns 1; otherwise sets dec[i] rejected with the
 * refusal on the plan as it stands and returns 0 (the caller counts it). */
static int place_new(struct packrun *R, lowcost_ws *ws, size_t i, const struct lowcost_opts *lo,
                     struct decision *dec, size_t *ids)
{
    const struct lowcost_req *q = &R->reqs[i];
    int pre = R->pre ? R->pre[i] : -1;
    struct lowcost_result res;
    int ok = R->o->earliest ? lowcost_place_earliest(ws, R->p, q, &res) : lowcost_place(ws, R->p, q, lo, &res);
    free(dec[i].why);
    if (!ok) {
        /* a once instance under way starts at --now, not at its SLO's a; an
         * ad-hoc request whose window opened before --at or --now at either,
         * not at its arrival */
        const struct slo_req *s =
            q->kind == PLAN_ONCE && i < R->adhoc0 ? slo_find_request(&R->slos, q->job) : NULL;
        double a_full = i >= R->adhoc0 ? R->adhoc_a[i - R->adhoc0] : s ? s->a : q->a;
        char *why = refusal_text(R->p, q, res.why, i >= R->adhoc0, a_full, after_now(R->o, "--at", "--now"));
        dec[i] = (struct decision){"rejected", 0, 0, NAN, NAN, why};
        return 0;
    }
    R->n.placed++;
    R->n_moved_placed += pre == 2;
    ids[i] = R->p->nres - 1;
    double h = lowcost_min_height(R->p, q);
    if (h > R->fixed_lb)
        R->fixed_lb = h;
    dec[i] = (struct decision){pre == 2 ? "moved" : "placed", res.start, res.len, res.cost, res.penalty,
                               pre == 2 ? xstrdup(R->pre_why[i]) : NULL};
    return 1;
}

static void resum_load(struct packrun *R);

/* both_why: "its request changed (WHY) ... (REFUSAL)TAIL", malloc'd. */
static char *both_why(const char *moved, const char *mid, const char *refusal, const char *tail)
{
    size_t n = strlen(moved) + strlen(mid) + strlen(refusal) + strlen(tail) + 32;
    char *why = xmalloc(n);
    snprintf(why, n, "its request changed (%s)%s(%s)%s", moved, mid, refusal, tail);
    return why;
}

/* refused: request i was refused (dec[i] rejected, with the refusal).  When
 * --stable freed its reservation because its request changed (moved),
 * something reserved beats nothing: the old reservation is put back if it
 * still fits the plan as it stands (kept, back[i] = 1, both reasons given);
 * else it is lost (rejected with both reasons, back[i] = 2; report_decisions
 * reports the reservation removed).  Counts the request kept or rejected. */
static void refused(struct packrun *R, size_t i, struct decision *dec)
{
    if (!R->pre || R->pre[i] != 2) {
        R->n.rejected++;
        return;
    }
    struct plan_res *r = &R->p->res[R->old[i]];
    char *refusal = dec[i].why;
    R->back[i] = plan_fits(R->p, r, NULL) ? 1 : 2;
    if (R->back[i] == 1) {
        r->removed = 0;
        plan_settle(R->p, R->old[i], NULL); /* adds its load back */
        R->n.kept++;
        dec[i].status = "kept";
        dec[i].why = both_why(R->pre_why[i], " but the new one could not be placed ", refusal,
                              ": its old reservation is kept");
    } else {
        R->n.rejected++;
        dec[i].why = both_why(R->pre_why[i], " and the new one could not be placed ", refusal,
                              "; its old reservation no longer fits the plan: removed");
    }
    free(refusal);
}

/* take_back: free again the old reservations refused() put back among the
 * first `end` requests (each counted rejected again), the load recomputed in
 * plan order: a retry pass starts from the plan a re-run would see before
 * its first request, which frees them (still moved) before placing. */
static void take_back(struct packrun *R, struct decision *dec, size_t end)
{
    long n = 0;
    for (size_t i = 0; R->back && i < end; i++)
        if (R->back[i] == 1) {
            R->p->res[R->old[i]].removed = 1;
            R->back[i] = 0;
            R->n.kept--;
            R->n.rejected++;
            dec[i].status = "rejected";
            n++;
        }
    if (n)
        resum_load(R);
}

/* any_back: a moved request among the first `end` was refused and has its
 * old reservation back (a request to try again after the polish, as a
 * refused one is). */
static int any_back(const struct packrun *R, size_t end)
{
    for (size_t i = 0; R->back && i < end; i++)
        if (R->back[i] == 1)
            return 1;
    return 0;
}

/* place_one: request i: kept when the plan has it (and no --replan), else
 * placed or rejected (refused); ids[i] = its reservation when placed. */
static void place_one(struct packrun *R, lowcost_ws *ws, size_t i, const struct lowcost_opts *lo, struct decision *dec,
                      size_t *ids)
{
    const struct lowcost_req *q = &R->reqs[i];
    ids[i] = (size_t)-1;
    R->n.requests++;
    int pre = R->pre ? R->pre[i] : -1;
    struct plan_res tmp;
    const struct plan_res *h;
    /* --replan freed the job's reservations, except those already started */
    if (pre == 1 || (pre < 0 && (h = have_res(R, q, &tmp)) != NULL && !h->removed)) {
        R->n.kept++;
        dec[i].status = "kept";
        if (pre == 1)
            dec[i].why = xstrdup(R->pre_why[i]);
        return;
    }
    if (!place_new(R, ws, i, lo, dec, ids))
        refused(R, i, dec);
}

/* take_pressure: --lookahead's pressure as request i sees it: the demand
 * of the requests of its group (periodic and once, or ad-hoc) from i on,
 * each spread once: rebuilt at the group's first request, then the
 * request's own taken off.  Ad-hoc demand never steers a periodic or once
 * placement (they have priority), and the main loop, the retry and a
 * re-run build it by the same additions in the same order. */
static void take_pressure(struct packrun *R, double *pres, size_t i)
{
    if (!pres)
        return;
    if (i == 0 || i == R->adhoc0) {
        size_t to = i < R->adhoc0 ? R->adhoc0 : R->nreq;
        memset(pres, 0, (size_t)R->p->nsteps * sizeof *pres);
        for (size_t k = i; k < to; k++)
            lookahead_spread(R->p, &R->reqs[k], pres, R->o->lookahead);
    }
    lookahead_spread(R->p, &R->reqs[i], pres, -R->o->lookahead);
}

/* resum_load: the load summed as a re-run sums it, after --improve's lifts
 * and settles left rounding residue in it: over every reservation in plan
 * order, or, when the plan came from its index (PLAN.idx: p->res then holds
 * only this run's reservations), the index's load plus this run's in plan
 * order, as the index written after the append and a re-run reading the
 * plan both have it. */
static void resum_load(struct packrun *R)
{
    plan *p = R->p;
    if (!R->idx) {
        plan_recompute_load(p);
        return;
    }
    memcpy(p->load_cores, R->idx->load_cores, (size_t)p->nsteps * sizeof *p->load_cores);
    memcpy(p->load_mem, R->idx->load_mem, (size_t)p->nsteps * sizeof *p->load_mem);
    for (size_t k = 0; k < p->nres; k++)
        if (!p->res[k].removed)
            plan_settle(p, k, NULL); /* adds k's load (none for a spent one) */
}

/* retry_refused: after --improve, this run's refused requests among the
 * first `end` again, in input order, on the polished plan (with
 * --lookahead's pressure as a re-run would see it, take_pressure), pass
 * after pass until a pass places nothing.  Each pass first frees the old
 * reservations of moved requests put back (take_back), and a moved request
 * refused again gets its old one back at its turn (refused), as a re-run
 * does.  The last pass tried every
 * request still refused on the final plan exactly as a re-run on the same
 * input tries it (same plan, load summed in the same order, same
 * pressure), so a re-run places nothing: the plan is a fixed point
 * (docs/lcmpack.md, --improve).  end = adhoc0 retries the periodic and
 * once requests before any ad-hoc one is placed (they have priority). */
static void retry_refused(struct packrun *R, lowcost_ws *ws, struct lowcost_opts *lo, double *pres,
                          struct decision *dec, size_t *ids, size_t end)
{
    long got;
    do {
        got = 0;
        take_back(R, dec, end);
        for (size_t i = 0; i < end; i++) {
            take_pressure(R, pres, i);
            if (!dec[i].status || strcmp(dec[i].status, "rejected") != 0)
                continue;
            R->n.rejected--;
            if (!place_new(R, ws, i, lo, dec, ids)) {
                refused(R, i, dec);
                continue;
            }
            if (R->back)
                R->back[i] = 0; /* placed after all: moved */
            got++;
            R->n_after_polish++;
            const char *was = dec[i].why ? dec[i].why : "";
            size_t n = strlen(was) + 80;
            char *why = xmalloc(n);
            snprintf(why, n, "%s%srefused before the --improve polish, placed after it", was, *was ? "; " : "");
            free(dec[i].why);
            dec[i].why = why;
        }
    } while (got);
}

/* report_decisions: one report row per request, as the plan ends up (a
 * kept request with its reservation's place and cost in the final plan);
 * a moved request refused whose old reservation no longer fits gets a row
 * "removed" for that reservation first. */
static void report_decisions(struct packrun *R, struct decision *dec, const struct lowcost_opts *lo)
{
    for (size_t i = 0; i < R->nreq; i++) {
        const struct lowcost_req *q = &R->reqs[i];
        const char *kind = i >= R->adhoc0 ? "adhoc" : q->kind == PLAN_ONCE ? "once" : "periodic";
        int64_t inst = q->kind == PLAN_ONCE ? q->instance : -1;
        if (!dec[i].status)
            continue;
        struct plan_res tmp;
        const struct plan_res *r;
        const char *why = dec[i].why ? dec[i].why : "";
        if (R->back && R->back[i] == 2) { /* the reservation it had: removed */
            r = &R->p->res[R->old[i]];
            size_t n = strlen(R->pre_why[i]) + 96;
            char *text = xmalloc(n);
            snprintf(text, n,
                     "its request changed (%s), the new one was refused and this reservation no longer fits "
                     "the plan",
                     R->pre_why[i]);
            report(R, r->job, res_kind(R->p, r), r->kind == PLAN_ONCE ? r->instance : -1, "removed",
                   rep_start(R->p, r), r->len, NAN, NAN, text);
            free(text);
        }
        if (strcmp(dec[i].status, "kept") == 0 && (r = have_res(R, q, &tmp)) != NULL) {
            dec[i].start = rep_start(R->p, r);
            dec[i].len = r->len;
            dec[i].cost = plan_res_peak(R->p, r);
            dec[i].pen = lowcost_penalty(R->p, r, lo);
            if (!dec[i].why)
                why = started(R, r) ? started_why(R, r) : "already in the plan (--replan moves it)";
        }
        report(R, q->job, kind, inst, dec[i].status, dec[i].start, dec[i].len, dec[i].cost, dec[i].pen, why);
        free(dec[i].why);
    }
}

/* place_range: requests [from, to) in order, each with --lookahead's
 * pressure (take_pressure). */
static void place_range(struct packrun *R, lowcost_ws *ws, const struct lowcost_opts *lo, double *pres,
                        struct decision *dec, size_t *ids, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        take_pressure(R, pres, i);
        place_one(R, ws, i, lo, dec, ids);
        slk_progress("requests placed", i + 1, R->nreq);
    }
}

/* polish_adhoc: --improve once the ad-hoc requests are placed: the polish
 * again, now over all of tonight's placements (a periodic or once one
 * moves, never loses its place), then every refused request tried again,
 * periodic and once first. */
static void polish_adhoc(struct packrun *R, lowcost_ws *ws, struct lowcost_opts *lo, double *pres,
                         struct decision *dec, size_t *ids)
{
    lowcost_improve(ws, R->p, R->reqs, R->nreq, ids, lo, R->o->improve, &R->imp_adhoc);
    resum_load(R);
    R->adhoc_polished = 1;
    if (R->n.rejected || any_back(R, R->nreq))
        retry_refused(R, ws, lo, pres, dec, ids, R->nreq);
}

/* place_all: the periodic and once requests in order (with --lookahead's
 * pressure), --improve and their retry; then the ad-hoc requests on what
 * they leave (lower priority: a refused periodic request is retried before
 * any ad-hoc one takes room), with --improve a second polish and a retry
 * of everything still refused.  Decisions are reported once placing is
 * over. */
static void place_all(struct packrun *R)
{
    const struct packrun_opts *o = R->o;
    plan *p = R->p;
    size_t nreq = R->nreq;
    struct lowcost_opts lo = {.max_ends = o->ends, .chunks = o->chunks, .align_weight = o->align_weight,
                              .max_stretch = o->stretch};
    double *pres = NULL;
    if (o->lookahead > 0 && !o->earliest) {
        pres = xcalloc((size_t)p->nsteps, sizeof(double)); /* filled by take_pressure */
        lo.pressure = pres;
    }
    double t0 = slk_now();
    lowcost_ws *ws = lowcost_ws_new();
    struct decision *dec = xcalloc(nreq ? nreq : 1, sizeof *dec);
    size_t *ids = xcalloc(nreq ? nreq : 1, sizeof *ids);
    int improving = o->improve > 0 && !o->earliest;
    place_range(R, ws, &lo, pres, dec, ids, 0, R->adhoc0);
    if (improving && R->n.placed) {
        lowcost_improve(ws, p, R->reqs, R->adhoc0, ids, &lo, o->improve, &R->imp);
        resum_load(R);
        R->polished = 1;
        R->peak_polished = plan_peak(p, NULL);
        if (R->n.rejected || any_back(R, R->adhoc0))
            retry_refused(R, ws, &lo, pres, dec, ids, R->adhoc0);
    }
    long before = R->n.placed;
    place_range(R, ws, &lo, pres, dec, ids, R->adhoc0, nreq);
    slk_progress_done();
    if (improving && R->n.placed > before)
        polish_adhoc(R, ws, &lo, pres, dec, ids);
    for (size_t i = 0; R->back && i < nreq; i++) { /* refused moved requests: kept, or removed */
        R->n_moved -= R->back[i] != 0;
        R->n_gone += R->back[i] == 2;
    }
    if (R->polished || R->adhoc_polished)
        /* the report gives each job's cost in the final plan */
        for (size_t i = 0; i < nreq; i++)
            if (ids[i] != (size_t)-1) {
                const struct plan_res *r = &p->res[ids[i]];
                dec[i].start = rep_start(p, r);
                dec[i].len = r->len;
                dec[i].cost = plan_res_peak(p, r);
                dec[i].pen = lowcost_penalty(p, r, &lo);
            }
    report_decisions(R, dec, &lo);
    lowcost_ws_free(ws);
    free(dec);
    free(ids);
    R->elapsed = slk_now() - t0;
    free(pres);
}

size_t packrun_bound(struct packrun *R, struct planbound *bd)
{
    plan *p = R->p;
    int fixed_ok = !R->o->replan;
    size_t nres_live = 0;
    planbound_init(bd, p, R->fixed_lb);
    for (size_t k = 0; R->idx && k < R->idx->nres; k++) {
        const struct planidx_res *r = &R->idx->res[k];
        planbound_add(bd, p, r, fixed_ok && key_in(R->have, r->job, r->kind, r->instance));
        nres_live++;
    }
    for (size_t k = 0; k < p->nres; k++) {
        const struct plan_res *r = &p->res[k];
        if (r->removed)
            continue;
        nres_live++; /* a spent one is in the file, with no demand */
        if (r->spent)
            continue;
        struct planidx_res sum;
        planidx_summary(p, r, &sum);
        planbound_add(bd, p, &sum, fixed_ok && k < R->nres_read);
    }
    return nres_live;
}

/* load_yarn_base: the delta's snapshot from --yarn-base (read, not kept). */
static int load_yarn_base(struct packrun *R)
{
    const struct packrun_opts *o = R->o;
    if (!o->yarn_base)
        return SLK_OK;
    plan *b;
    int st = plan_read(o->yarn_base, &b);
    if (st != SLK_OK)
        return st;
    struct yarn_opts yo = {.queue = o->queue, .at = o->at, .cluster_ts = o->cluster_ts};
    yarn_snapshot_take(b, &yo, &R->snap);
    plan_free(b);
    return SLK_OK;
}

int packrun_plan(struct packrun *R)
{
    int st = load_plan(R);
    if (st == SLK_OK)
        st = load_yarn_base(R);
    if (st == SLK_OK)
        st = read_inputs(R);
    if (st == SLK_OK)
        st = open_report(R);
    if (st == SLK_OK) {
        warn_unknown_problematic(R);
        remove_and_expire(R);
        note_have(R);
        st = build_requests(R);
    }
    if (st != SLK_OK)
        return st;
    order_tight(R);
    replan_free(R);
    stable_decide(R);
    place_all(R);
    return SLK_OK;
}

int packrun_close_report(struct packrun *R, int st)
{
    if (!R->orep)
        return st;
    csvw_free(R->rep);
    R->rep = NULL;
    st = outf_finish(R->orep, st); /* on an error the old report stays */
    R->orep = NULL;
    return st;
}
