/* vcio — stretch's file formats (see vcio.h). */
#include "vc/vcio.h"

#include "base/diag.h"
#include "base/keyset.h"
#include "base/keytab.h"
#include "base/parse.h"
#include "base/strhash.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const vcio_capacity_keys[] = {"vc", "capacity", NULL};
const char *const vcio_job_keys[] = {"job", "vc", "submit", "size_server_hours", "max_parallelism", NULL};

#define DAY 86400.0

/* ---- VCs ---- */

long vcio_vcs_find(const struct vcio_vcs *v, const char *name) { return keyset_row(v->names, name); }

int vcio_vcs_read(const char *path, const struct csv_dialect *d, struct vcio_vcs *v)
{
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int cvc, ccap;
    if (csvr_require_cols(r, "vc", &cvc, "capacity", &ccap, (char *)NULL) < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    v->names = keyset_new(); /* keytab_row numbers the rows it keeps: VC k is row k */
    while (csvr_next(r) == 1) {
        double cap;
        if (csvr_get_double(r, ccap, &cap, CSVR_REQUIRED | CSVR_POSITIVE | CSVR_BOUNDED) < 0 ||
            !keytab_row(v->names, r, cvc)) {
            if (csvr_skip(r))
                continue;
            break;
        }
        v->cap = xgrow(v->cap, &v->capn, v->n + 1, sizeof *v->cap);
        v->cap[v->n++] = cap;
    }
    st = csvr_status(r);
    if (st == SLK_OK && v->n == 0) {
        slk_error_at(csvr_path(r), 0, "no VCs");
        st = SLK_EDATA;
    }
    if (st == SLK_OK && v->n > 1000000) {
        slk_error_at(csvr_path(r), 0, "too many VCs (%zu; at most 1000000)", v->n);
        st = SLK_EDATA;
    }
    csvr_close(r);
    return st;
}

/* ---- jobs, streamed through the simulator ---- */

/* The feed of a run: the jobs file read a row at a time, the ids of the
 * jobs read and not yet written (a ring by input sequence number, with a
 * hash over it for duplicate ids), the per-job writer and the sums.
 * The id hash is not a keyset: it forgets each id once its job is written
 * (ids_drop), so memory follows the jobs held, not the jobs read, and an id
 * may come back after its job is out; a keyset never forgets a key. */
struct feed {
    csvr *r;
    const struct vcio_vcs *V;
    const struct vcio_run_opts *o;
    int cjob, cvc, csub, csize, cpar;
    long long n;           /* jobs read */
    struct held { char *id; long line; } *id; /* jobs head..tail-1 at seq & mask */
    uint32_t mask, head, tail;
    uint32_t *slot;        /* open addressing over the held ids: seq + 1, 0 = empty */
    size_t nslot;
    csvw *w;
    int header_done;       /* written with the first row: a run that fails at once writes nothing */
    struct vcrep_acc *acc;
    double system_servers; /* lent to any VC: with the VC's own, the most a job can get */
    double servers;        /* every server: the most a job can get when the others are idle */
};

static void jobs_header(struct feed *f)
{
    static const char *const hdr[] = {"job", "vc", "submit", "finish", "stretch", NULL};
    if (!f->header_done++)
        csvw_header(f->w, hdr);
}

static size_t id_home(const struct feed *f, const char *id) { return strhash_str(id) & (f->nslot - 1); }

static void ids_rehash(struct feed *f, size_t nslot)
{
    free(f->slot);
    f->nslot = nslot;
    f->slot = xcalloc(nslot, sizeof *f->slot);
    for (uint32_t q = f->head; q != f->tail; q++) {
        size_t h = id_home(f, f->id[q & f->mask].id);
        while (f->slot[h])
            h = (h + 1) & (nslot - 1);
        f->slot[h] = q + 1;
    }
}

/* Hold id (read at line) as job number tail: 0, or the line of the held
 * job that has that id. */
static long ids_add(struct feed *f, const char *id, long line)
{
    if (f->tail - f->head > f->mask) {
        uint32_t mask = f->mask * 2 + 1;
        struct held *ring = xcalloc((size_t)mask + 1, sizeof *ring);
        for (uint32_t q = f->head; q != f->tail; q++)
            ring[q & mask] = f->id[q & f->mask];
        free(f->id);
        f->id = ring;
        f->mask = mask;
    }
    if (2 * ((size_t)(f->tail - f->head) + 1) > f->nslot)
        ids_rehash(f, f->nslot ? 2 * f->nslot : 1024);
    size_t h = id_home(f, id);
    for (; f->slot[h]; h = (h + 1) & (f->nslot - 1))
        if (strcmp(f->id[(f->slot[h] - 1) & f->mask].id, id) == 0)
            return f->id[(f->slot[h] - 1) & f->mask].line;
    f->id[f->tail & f->mask] = (struct held){xstrdup(id), line};
    f->slot[h] = ++f->tail;
    return 0;
}

/* Forget the oldest held id (linear probing: shift back what follows). */
static void ids_drop(struct feed *f)
{
    size_t m = f->nslot - 1, i = id_home(f, f->id[f->head & f->mask].id);
    while (f->slot[i] != f->head + 1)
        i = (i + 1) & m;
    for (size_t j = (i + 1) & m; f->slot[j]; j = (j + 1) & m) {
        size_t k = id_home(f, f->id[(f->slot[j] - 1) & f->mask].id);
        if ((j > i && (k <= i || k > j)) || (j < i && k <= i && k > j)) {
            f->slot[i] = f->slot[j];
            i = j;
        }
    }
    f->slot[i] = 0;
    free(f->id[f->head & f->mask].id);
    f->head++;
}

/* One job row into *job: 0, or -1 with the error reported (csvr_fail). */
static int job_row(struct feed *f, struct vcsim_job *job)
{
    csvr *r = f->r;
    const char *id, *vc;
    double submit, size, par = INFINITY;
    if (!(id = csvr_field_required(r, f->cjob, "job")) || !(vc = csvr_field_required(r, f->cvc, "vc")))
        return -1;
    long k = vcio_vcs_find(f->V, vc);
    if (k < 0)
        return csvr_fail(r, "unknown vc '%s' (not in %s)", vc, f->o->cap_name);
    if (csvr_get_time(r, f->csub, &submit, CSVR_REQUIRED) < 0 ||
        csvr_get_double(r, f->csize, &size, CSVR_REQUIRED | CSVR_POSITIVE) < 0 ||
        (f->cpar >= 0 && csvr_get_double(r, f->cpar, &par, CSVR_POSITIVE) < 0))
        return -1;
    if (size > 1e15)
        return csvr_fail_large(r, f->csize, 1e15);
    if (fabs(submit) > 1e12)
        return csvr_fail(r, "column 'submit': '%s' is out of range", csvr_field(r, f->csub));
    /* Even alone (its VC's and the system servers, up to its parallelism)
     * a job takes size / min(parallelism, servers): a finish beyond the
     * time range is a data error (it printed 3.6e+303, and drr/balanced
     * re-evaluated every --quantum until then: a hang). */
    double servers = fmin(par, f->V->cap[k] + f->system_servers), alone = size * 3600 / servers;
    if (!(submit + alone <= CSVR_MAX_TIME)) {
        char until[40] = "forever"; /* a subnormal capacity: alone is inf */
        if (isfinite(submit + alone))
            snprintf(until, sizeof until, "until %.3g s", submit + alone);
        return csvr_fail(
            r,
            "job '%s' would run %s even alone (size %s server-hours at %.3g servers: its "
            "max_parallelism, or the capacity of VC '%s' plus the system servers): beyond the time range "
            "(%g s)",
            id, until, csvr_field(r, f->csize), servers, vc, CSVR_MAX_TIME);
    }
    /* Nor may it end sooner than the clock can tell apart from its submit:
     * times are absolute (an ulp is 2.2e-16 of |t|, 2.4e-7 s in 2026), and
     * a shorter run came out finished at its submit (stretch 0).  At the
     * floor, 1e-12 of |submit| and at least 1e-12 s (no cluster runs a job
     * in a picosecond: a unit error), its run is good to about 0.2%. */
    double fastest = fmin(par, f->servers), shortest = size * 3600 / fastest;
    double floor_s = VCIO_MIN_RUN * fmax(fabs(submit), 1);
    if (!(shortest >= floor_s))
        return csvr_fail(
            r,
            "column '%s': '%s' is too small: job '%s' would run %.3g s even at %.3g servers, under "
            "the floor of %.3g s (%g of |submit|, at least %g s: the clock cannot time a shorter run)",
            csvr_colname(r, f->csize), csvr_field(r, f->csize), id, shortest, fastest, floor_s, VCIO_MIN_RUN,
            VCIO_MIN_RUN);
    long first = ids_add(f, id, csvr_line(r));
    if (first)
        return csvr_fail(r, "duplicate job '%s' (first at line %ld)", id, first);
    *job = (struct vcsim_job){.vc = (uint32_t)k, .submit = submit, .work = size * 3600, .maxpar = par};
    return 0;
}

static int feed_next(void *ctx, struct vcsim_job *job)
{
    struct feed *f = ctx;
    int rc;
    while ((rc = csvr_next(f->r)) == 1) {
        if (f->n >= f->o->max_jobs) {
            csvr_fail(f->r, "more than %lld jobs (--max-jobs)", f->o->max_jobs);
            return csvr_status(f->r);
        }
        if (job_row(f, job) == 0) {
            f->n++;
            return 1;
        }
        if (!csvr_skip(f->r))
            return csvr_status(f->r);
    }
    return rc == 0 ? 0 : csvr_status(f->r);
}

static int feed_retire(void *ctx, const struct vcsim_job *j, double w0, double h)
{
    struct feed *f = ctx;
    const struct vcio_vcs *V = f->V;
    jobs_header(f);
    csvw_str(f->w, f->id[f->head & f->mask].id);
    csvw_str(f->w, keyset_key(V->names, j->vc));
    csvw_num(f->w, j->submit);
    csvw_num(f->w, j->finish);
    csvw_num(f->w, vcrep_stretch(j, V->cap[j->vc]));
    csvw_end(f->w);
    ids_drop(f);
    vcrep_acc_add(f->acc, j, w0, h);
    return csvw_error(f->w) ? SLK_EIO : 0;
}

/* The servers allocated to VCs over time did exactly the work, up to the
 * rounding of the times: each interval's length is the difference of two
 * absolute times (epoch seconds, an ulp of 2.4e-7 s in 2026), so each event
 * can move the integral by up to M servers x 2 ulps.  That matters only for
 * jobs of a fraction of a second on a large cluster (20,000 VCs of 10
 * servers, 1 server-hour jobs each alone: 0.018 s long, 6e-6 of the work). */
static int conserved(const struct vcio_vcs *V, const struct vcsim_vc_stats *vst, double work,
                     const struct vcsim_totals *tot, double system_servers)
{
    double used = 0, M = system_servers;
    for (size_t k = 0; k < V->n; k++) {
        used += vst[k].used;
        M += V->cap[k];
    }
    double tmax = fmax(fabs(tot->start), fabs(tot->end));
    double slack = 2.0 * (double)tot->events * M * (nextafter(tmax, INFINITY) - tmax);
    if (fabs(used - work) > 1e-6 * work + slack) {
        slk_error("internal error: allocated %.17g server-seconds for %.17g of work", used, work);
        return SLK_ESOFTWARE;
    }
    return SLK_OK;
}

int vcio_run(const struct vcsim_config *cfg, const struct vcio_vcs *V, const struct vcio_run_opts *o, csvw *out,
             struct vcrep_acc *acc, struct vcsim_vc_stats *vst, struct vcsim_totals *tot)
{
    double owned = 0;
    for (size_t k = 0; k < V->n; k++)
        owned += V->cap[k];
    vcrep_acc_init(acc, V->cap, V->n, owned + cfg->system_servers, o->keep);
    int st;
    csvr *r = csvr_open_with(o->jobs_path, o->d, 0, &st);
    if (!r)
        return st;
    struct feed f = {.r = r, .V = V, .o = o, .mask = 1023, .w = out, .acc = acc,
                     .system_servers = cfg->system_servers};
    f.servers = owned + cfg->system_servers;
    f.cpar = csvr_col(r, "max_parallelism");
    if (csvr_require_cols(r, "job", &f.cjob, "vc", &f.cvc, "submit", &f.csub, "size_server_hours", &f.csize,
                          (char *)NULL) < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    f.id = xcalloc((size_t)f.mask + 1, sizeof *f.id);
    struct vcsim_feed feed = {&f, feed_next, feed_retire};
    st = vcsim_stream(cfg, V->n, V->cap, &feed, vst, tot);
    if (st == VCSIM_EORDER) {
        csvr_fail(r, "submit '%s' is before that of a job already started: jobs must be sorted by submit, or out "
                  "of order by at most --reorder %zu jobs", csvr_field(r, f.csub), cfg->reorder);
        st = csvr_status(r);
    } else if (st < 0) {
        slk_error("internal error: simulator rejected its input");
        st = SLK_ESOFTWARE;
    }
    if (st == SLK_OK)
        st = csvr_status(r);
    if (st == SLK_OK)
        st = conserved(V, vst, acc->work, tot, cfg->system_servers);
    if (st == SLK_OK)
        jobs_header(&f);
    while (f.head != f.tail)
        free(f.id[f.head++ & f.mask].id);
    free(f.id);
    free(f.slot);
    csvr_close(r);
    return st;
}

void vcio_vcs_free(struct vcio_vcs *V)
{
    keyset_free(V->names);
    free(V->cap);
}

/* ---- reports ---- */

int vcio_write_vcs(csvw *w, const void *p)
{
    const struct vcio_report *c = p;
    static const char *const hdr[] = {"vc", "capacity", "jobs", "work_server_hours", "load_factor",
                                      "mean_stretch", "median_stretch", "p95_stretch", "overdemand_share",
                                      "used_server_hours", "borrowed_server_hours", "credit_end_server_hours",
                                      NULL};
    csvw_header(w, hdr);
    for (size_t k = 0; k < c->V->n; k++) {
        csvw_str(w, keyset_key(c->V->names, (long)k));
        csvw_num(w, c->V->cap[k]);
        csvw_int(w, (int64_t)c->rep[k].jobs);
        csvw_num(w, c->rep[k].work / 3600);
        csvw_num(w, c->rep[k].load);
        csvw_num(w, c->rep[k].mean);
        csvw_num(w, c->rep[k].median);
        csvw_num(w, c->rep[k].p95);
        csvw_num(w, c->vst[k].overdemand / c->h);
        csvw_num(w, c->vst[k].used / 3600);
        csvw_num(w, c->vst[k].borrowed / 3600);
        csvw_num(w, c->vst[k].credit_end / 3600);
        csvw_end(w);
    }
    return csvw_error(w) ? SLK_EIO : SLK_OK;
}

int vcio_write_daily(csvw *w, const void *p)
{
    const struct vcio_report *c = p;
    static const char *const hdr[] = {"vc", "day", "jobs", "load", "mean_stretch", NULL};
    csvw_header(w, hdr);
    size_t n;
    const struct vcrep_day *d = vcrep_acc_daily(c->acc, &n);
    for (size_t i = 0; i < n; i++) {
        double cap = c->V->cap[d[i].vc];
        csvw_str(w, keyset_key(c->V->names, d[i].vc));
        csvw_num(w, d[i].day * DAY);
        csvw_int(w, (int64_t)d[i].jobs);
        csvw_num(w, d[i].work / (cap * DAY));
        csvw_num(w, d[i].ssum / (double)d[i].jobs);
        csvw_end(w);
    }
    return csvw_error(w) ? SLK_EIO : SLK_OK;
}

int vcio_write_summary(csvw *w, const void *p)
{
    const struct vcio_summary *s = p;
    static const char *const hdr[] = {"metric", "value", NULL};
    csvw_header(w, hdr);
#define ROWS(name, str) do { csvw_str(w, name); csvw_str(w, str); csvw_end(w); } while (0)
#define ROWN(name, v) do { csvw_str(w, name); csvw_num(w, v); csvw_end(w); } while (0)
    ROWS("scheduler", s->scheduler);
    ROWN("vcs", (double)s->vcs);
    ROWN("jobs", (double)s->jobs);
    ROWN("jobs_simulated", (double)s->jobs_simulated);
    ROWN("owned_servers", s->owned);
    ROWN("servers", s->servers);
    ROWN("start", s->start);
    ROWN("horizon_s", s->horizon);
    ROWN("utilization", s->utilization);
    ROWN("contended_share", s->contended);
    ROWN("makespan_s", s->makespan);
    ROWN("mean_stretch", s->mean_stretch);
    ROWN("parallelism_floor_stretch", s->floor_stretch);
    ROWN("consistency", s->spread);
    ROWN("work_server_hours", s->work_h);
    ROWN("used_server_hours", s->used_h);
    ROWN("events_per_job", s->events_per_job);
    for (int b = 0; b < s->nbins; b++) {
        char name[96];
        snprintf(name, sizeof name, "spread_load_%g_%g", s->bins[b].lo, s->bins[b].hi);
        ROWN(name, s->bins[b].n >= 2 ? s->bins[b].max / s->bins[b].min : NAN);
    }
#undef ROWS
#undef ROWN
    return csvw_error(w) ? SLK_EIO : SLK_OK;
}

void vcio_summarize(const struct vcio_vcs *V, const struct vcrep_acc *acc, const struct vcrep_vc *rep,
                    const struct vcsim_vc_stats *vst, const struct vcsim_totals *tot,
                    const struct vcio_summary_opts *o, struct vcio_summary *sum)
{
    double used = 0, owned = 0, used_w = 0, h = tot->window_len;
    for (size_t k = 0; k < V->n; k++) {
        used += vst[k].used;
        used_w += vst[k].used_window;
        owned += V->cap[k];
    }
    size_t n = acc->n, wn = acc->win_n;
    *sum = (struct vcio_summary){.scheduler = vcsim_policy_name(o->policy),
                                 .vcs = V->n,
                                 .jobs = wn,
                                 .jobs_simulated = n,
                                 .owned = owned,
                                 .system = o->system_servers,
                                 .servers = owned + o->system_servers,
                                 .horizon = h,
                                 .start = tot->window_start,
                                 .work_h = acc->win_work / 3600,
                                 .used_h = used / 3600};
    sum->utilization = used_w / (sum->servers * h);
    sum->contended = tot->contended / h;
    sum->makespan = n ? tot->end - tot->start : 0;
    sum->mean_stretch = wn ? acc->win_ssum / (double)wn : NAN;
    sum->floor_stretch = wn ? acc->win_fsum / (double)wn : NAN;
    sum->spread = vcrep_consistency(rep, V->n, o->bins, o->nbins, sum->bins, &sum->nbins);
    sum->events_per_job = n ? (double)tot->events / (double)n : 0;
}

/* ---- the summary on stderr ---- */

/* warn when the caps alone explain this share of the mean stretch, and
 * the jobs alone would have a mean stretch of at least FLOOR_MIN */
#define FLOOR_SHARE 0.8
#define FLOOR_MIN 1.5

static void fmt_dur(double s, char *buf, size_t n)
{
    if (s >= DAY)
        snprintf(buf, n, "%.4g d", s / DAY);
    else if (s >= 3600)
        snprintf(buf, n, "%.4g h", s / 3600);
    else
        snprintf(buf, n, "%.4g s", s);
}

void vcio_print_summary(const struct vcio_summary *sum, const struct vcsim_totals *tot, int horizon_derived,
                        const char *jobs_name)
{
    char hb[32], mb[32], tb[32];
    fmt_dur(sum->horizon, hb, sizeof hb);
    fmt_dur(sum->makespan, mb, sizeof mb);
    parse_time_format(sum->start, tb);
    fprintf(slk_summary(),
            "%s: %s: %zu VCs (%g servers) + %g system = %g servers; %zu jobs simulated, %zu of them "
            "submitted in the window (%.6g server-hours of work)\n",
            slk_progname, sum->scheduler, sum->vcs, sum->owned, sum->system, sum->servers,
            sum->jobs_simulated, sum->jobs, sum->work_h);
    fprintf(slk_summary(),
            "%s: window %s from %s%s; utilization %.1f%%; contended (demand > servers) "
            "%.1f%% of the time; makespan %s\n",
            slk_progname, hb, tb, horizon_derived ? " (the whole days that hold the last submit)" : "",
            100 * sum->utilization, 100 * sum->contended, mb);
    for (int b = 0; b < sum->nbins; b++)
        if (sum->bins[b].n >= 2)
            fprintf(slk_summary(), "%s: load %g..%g: %zu VCs, mean stretch %.4g..%.4g (spread %.3gx)\n",
                    slk_progname, sum->bins[b].lo, sum->bins[b].hi, sum->bins[b].n, sum->bins[b].min,
                    sum->bins[b].max, sum->bins[b].max / sum->bins[b].min);
    if (isfinite(sum->spread))
        fprintf(slk_summary(), "%s: consistency (worst max/min mean stretch within a load bin): %.3gx\n",
                slk_progname, sum->spread);
    else
        fprintf(slk_summary(), "%s: consistency: no load bin holds two VCs\n", slk_progname);
    if (sum->floor_stretch >= FLOOR_MIN && sum->floor_stretch >= FLOOR_SHARE * sum->mean_stretch)
        slk_warn_at(jobs_name, 0,
                    "the result is dominated by max_parallelism caps: jobs alone in an idle cluster would "
                    "have mean stretch %.4g of the %.4g measured (contended %.1f%% of the time); the "
                    "schedulers can only differ in the rest", sum->floor_stretch, sum->mean_stretch,
                    100 * sum->contended);
    fprintf(slk_summary(),
            "%s: %llu events (%.3g per job), %llu decisions, %llu job rate updates in "
            "%.3f s (%.3g us per job; at most %llu jobs held)\n",
            slk_progname, (unsigned long long)tot->events, sum->events_per_job,
            (unsigned long long)tot->decisions, (unsigned long long)tot->job_updates, sum->seconds,
            sum->jobs_simulated ? 1e6 * sum->seconds / (double)sum->jobs_simulated : 0.0,
            (unsigned long long)tot->held_max);
}

