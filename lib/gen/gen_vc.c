/* gen_vc — tracegen kinds `vcs` and `vcjobs`: virtual clusters and their jobs,
 * the input of stretch(1) (seed 002).
 *
 *   vcs:     vc,capacity                                        (servers)
 *   vcjobs:  job,vc,submit,size_server_hours,max_parallelism    (epoch s, server-hours, servers)
 *
 * Both kinds build the same scenario from the same --set keys and --seed, so
 *   tracegen vcs --set scenario=S ... > vcs.csv; tracegen vcjobs --set scenario=S ... > jobs.csv
 * are consistent.  Scenarios:
 *
 *   paper (default)  six VCs like the paper's §3 study: vc_a and vc_b
 *                    under-utilized (load 0.3, 0.5), vc_c, vc_d, vc_e fully
 *                    utilized (load 1.0; vc_c large and very bursty, vc_d
 *                    steady, vc_e moderately bursty), vc_f over-utilized
 *                    (load 1.6, steady); 2,750 owned servers (run stretch
 *                    with --system-servers 1250 for the paper's 4,000); 30 days.
 *   mixed            --set vcs=N VCs (default 115) over --set servers=N
 *                    (default 50,000) owned servers: lognormal capacities and
 *                    load factors scaled so that the cluster's mean
 *                    utilization is --set util (default 0.7), burstiness
 *                    uniform in [0, 1]; the bench's month of 1M jobs.
 *
 * Load.  VC i's work arrives as a Poisson process whose rate is constant
 * within a UTC day: lambda_i m_i(day), with lambda_i = load_i / D jobs per
 * hour, D the mean ideal duration (size / capacity) in hours.  A VC of
 * burstiness b has round(q x days) busy days (q = --set busy_days, default
 * 0.3; which days is random) with m = 1 + b (1/q - 1), and quiet days with
 * m = 1 - b; the m of a VC are then scaled to mean exactly 1 over the trace,
 * so the month's load factor is load_i up to Poisson and job-size noise.  Job size =
 * capacity x D x lognormal(sigma 1, mean 1) server-hours; max_parallelism =
 * capacity x uniform(par_min, par_max) servers (default 1, 1: a job alone
 * in its VC has stretch 1), rounded, at least 1.
 * D is --set size_h (default 0.25 h), or derived from --count jobs.
 *
 * Streams: one pending arrival per VC in a heap, so memory is O(VCs).  Each
 * VC's draws come from rng_seed_key(seed, vc) and its busy days from
 * rng_seed_key(seed, "<vc>/busy"), so a VC's jobs do not depend on the others.
 */
#include "base/diag.h"
#include "gen/gen.h"
#include "base/heap.h"
#include "base/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const keys[] = {"scenario", "vcs", "servers", "util", "size_h", "burst", "busy_days",
                                   "par_min", "par_max", NULL};

struct vcmodel {
    char name[32];
    double cap, load, burst;
};

struct scenario {
    struct vcmodel *vc;
    size_t n;
    double days, D, q, par_min, par_max, start;
};

/* --days, 30 by default. */
static double vc_days(const struct gen_params *p) { return p->days > 0 ? p->days : 30; }

static int scenario_build(const struct gen_params *p, struct scenario *s, int for_jobs)
{
    const char *name = gen_get_str(p, "scenario", "paper");
    double burst_scale = gen_get(p, "burst", 1);
    s->q = gen_get(p, "busy_days", 0.3);
    s->par_min = gen_get(p, "par_min", 1.0);
    s->par_max = gen_get(p, "par_max", 1.0);
    s->days = vc_days(p);
    s->start = p->start;
    if (!(burst_scale >= 0 && burst_scale <= 1) || !(s->q > 0 && s->q < 1) ||
        !(s->par_min > 0 && s->par_max >= s->par_min && s->par_max <= 100)) {
        slk_error("invalid --set values: want 0 <= burst <= 1, 0 < busy_days < 1, 0 < par_min <= par_max <= 100");
        return SLK_EUSAGE;
    }
    if (strcmp(name, "paper") == 0) {
        static const struct { const char *n; double cap, load, burst; } six[] = {
            {"vc_a", 250, 0.3, 0.3}, {"vc_b", 300, 0.5, 0.2}, {"vc_c", 800, 1.0, 0.6},
            {"vc_d", 400, 1.0, 0.05}, {"vc_e", 300, 1.0, 0.35}, {"vc_f", 700, 1.6, 0.1},
        };
        double servers = gen_get(p, "servers", 2750);
        if (!(servers >= 6 && servers <= 1e8)) {
            slk_error("invalid --set servers: want 6 to 1e8");
            return SLK_EUSAGE;
        }
        s->n = 6;
        s->vc = xcalloc(6, sizeof *s->vc);
        for (size_t i = 0; i < 6; i++) {
            snprintf(s->vc[i].name, sizeof s->vc[i].name, "%s", six[i].n);
            s->vc[i].cap = fmax(1, round(six[i].cap * servers / 2750));
            s->vc[i].load = six[i].load;
            s->vc[i].burst = six[i].burst * burst_scale;
        }
    } else if (strcmp(name, "mixed") == 0) {
        double nv = gen_get(p, "vcs", p->count > 0 && !for_jobs ? (double)p->count : 115);
        double servers = gen_get(p, "servers", 50000), util = gen_get(p, "util", 0.7);
        if (!(nv >= 1 && nv <= 100000 && nv == floor(nv)) || !(servers >= nv && servers <= 1e9) ||
            !(util > 0 && util <= 5)) {
            slk_error("invalid --set values: want 1 <= vcs <= 100000, vcs <= servers <= 1e9, 0 < util <= 5");
            return SLK_EUSAGE;
        }
        s->n = (size_t)nv;
        s->vc = xcalloc(s->n, sizeof *s->vc);
        rng r;
        rng_seed_key(&r, p->seed, "mixed-vcs");
        double wsum = 0, lsum = 0;
        for (size_t i = 0; i < s->n; i++) {
            snprintf(s->vc[i].name, sizeof s->vc[i].name, "vc%03u", (unsigned)(i + 1));
            s->vc[i].cap = exp(rng_normal(&r));                 /* lognormal sizes */
            s->vc[i].load = 0.6 * exp(0.9 * rng_normal(&r));    /* median 0.6, some > 3 */
            s->vc[i].burst = rng_uniform(&r) * burst_scale;
            wsum += s->vc[i].cap;
        }
        for (size_t i = 0; i < s->n; i++) {
            s->vc[i].cap = fmax(1, round(s->vc[i].cap * servers / wsum));
            lsum += s->vc[i].load * s->vc[i].cap;
        }
        double total = 0;
        for (size_t i = 0; i < s->n; i++)
            total += s->vc[i].cap;
        for (size_t i = 0; i < s->n; i++)
            s->vc[i].load *= util * total / lsum;
    } else {
        slk_error("unknown --set scenario '%s' (want paper or mixed)", name);
        return SLK_EUSAGE;
    }
    double size_h = gen_get(p, "size_h", 0.25);
    if (!(size_h > 0 && size_h < 1e6)) {
        slk_error("invalid --set size_h: want a positive number of hours");
        free(s->vc);
        s->vc = NULL;
        return SLK_EUSAGE;
    }
    s->D = size_h;
    if (for_jobs && p->count > 0) {
        double lsum = 0;
        for (size_t i = 0; i < s->n; i++)
            lsum += s->vc[i].load;
        s->D = lsum * s->days * 24 / (double)p->count;
    }
    return SLK_OK;
}

static int gen_vcs(const struct gen_params *p, csvw *out, csvw *truth)
{
    struct scenario s;
    int st = scenario_build(p, &s, 0);
    if (st != SLK_OK)
        return st;
    static const char *const hdr[] = {"vc", "capacity", NULL};
    csvw_header(out, hdr);
    for (size_t i = 0; i < s.n; i++) {
        csvw_str(out, s.vc[i].name);
        csvw_num(out, s.vc[i].cap);
        csvw_end(out);
    }
    if (truth) {
        static const char *const th[] = {"vc", "capacity", "load_factor", "burstiness", NULL};
        csvw_header(truth, th);
        for (size_t i = 0; i < s.n; i++) {
            csvw_str(truth, s.vc[i].name);
            csvw_num(truth, s.vc[i].cap);
            csvw_num_prec(truth, s.vc[i].load, 4);
            csvw_num_prec(truth, s.vc[i].burst, 4);
            csvw_end(truth);
        }
    }
    free(s.vc);
    return csvw_error(out) || (truth && csvw_error(truth)) ? SLK_EIO : SLK_OK;
}

struct vcstream {
    rng r;
    double *mult;  /* per day, normalised to mean 1 over the trace */
    double t;      /* next arrival, seconds from start */
};

/* The day multipliers of one VC: exactly round(q x days) busy days, chosen
 * at random (rng_seed_key(seed, "<vc>/busy")), with m = 1 + b (1/q - 1), the
 * others quiet with m = 1 - b; then scaled so that their mean over the
 * trace's days is exactly 1, so the month's load factor is the VC's target
 * up to Poisson and job-size noise. */
static double *day_mults(const struct gen_params *p, const struct scenario *s, size_t i)
{
    size_t nd = (size_t)ceil(s->days);
    double *m = xcalloc(nd, sizeof *m), sum = 0, wsum = 0;
    size_t *order = xcalloc(nd, sizeof *order);
    for (size_t d = 0; d < nd; d++)
        order[d] = d;
    char key[64];
    snprintf(key, sizeof key, "%s/busy", s->vc[i].name);
    rng r;
    rng_seed_key(&r, p->seed, key);
    rng_shuffle(&r, order, nd, sizeof *order);
    size_t busy = (size_t)round(s->q * (double)nd);
    double b = s->vc[i].burst;
    for (size_t k = 0; k < nd; k++)
        m[order[k]] = k < busy ? 1 + b * (1 / s->q - 1) : 1 - b;
    for (size_t d = 0; d < nd; d++) {
        double len = fmin(s->days - (double)d, 1); /* a partial last day weighs less */
        sum += m[d] * len;
        wsum += len;
    }
    for (size_t d = 0; d < nd && sum > 0; d++)
        m[d] *= wsum / sum;
    free(order);
    return m;
}

/* Advance stream i to its next arrival after its current time: an
 * exponential amount of "rate-time" spent across days of different rates
 * (exact for a piecewise-constant Poisson rate).  INFINITY past the end. */
static void next_arrival(const struct gen_params *p, const struct scenario *s, size_t i, struct vcstream *vs)
{
    double lambda = s->vc[i].load / (s->D * 3600); /* jobs per second at m = 1 */
    double need = -log1p(-rng_uniform(&vs->r)), t = vs->t, end = s->days * 86400;
    while (t < end) {
        long day = (long)floor(t / 86400);
        double rate = lambda * vs->mult[day], day_end = fmin((double)(day + 1) * 86400, end);
        if (rate > 0 && need <= rate * (day_end - t)) {
            vs->t = t + need / rate;
            return;
        }
        if (rate > 0)
            need -= rate * (day_end - t);
        t = day_end;
    }
    vs->t = INFINITY;
}

static int gen_vcjobs(const struct gen_params *p, csvw *out, csvw *truth)
{
    (void)truth;
    struct scenario s;
    int st = scenario_build(p, &s, 1);
    if (st != SLK_OK)
        return st;
    static const char *const hdr[] = {"job", "vc", "submit", "size_server_hours", "max_parallelism", NULL};
    csvw_header(out, hdr);
    struct vcstream *vs = xcalloc(s.n, sizeof *vs);
    heap h;
    heap_init(&h);
    for (size_t i = 0; i < s.n; i++) {
        rng_seed_key(&vs[i].r, p->seed, s.vc[i].name);
        vs[i].mult = day_mults(p, &s, i);
        vs[i].t = 0;
        next_arrival(p, &s, i, &vs[i]);
        if (vs[i].t < INFINITY)
            heap_push_seq(&h, vs[i].t, i, i);
    }
    const double sigma = 1.0;
    unsigned long long n = 0;
    struct heap_item it;
    char id[32];
    while (heap_pop(&h, &it)) {
        size_t i = it.val;
        struct vcstream *v = &vs[i];
        double size = s.vc[i].cap * s.D * exp(sigma * rng_normal(&v->r) - sigma * sigma / 2);
        double par = round(s.vc[i].cap * (s.par_min + (s.par_max - s.par_min) * rng_uniform(&v->r)));
        snprintf(id, sizeof id, "j%07llu", n++);
        csvw_str(out, id);
        csvw_str(out, s.vc[i].name);
        csvw_num(out, floor(p->start + v->t));
        csvw_num_prec(out, fmax(size, 0.001), 3);
        csvw_num(out, par < 1 ? 1 : par);
        csvw_end(out);
        if (csvw_error(out))
            break;
        next_arrival(p, &s, i, v);
        if (v->t < INFINITY)
            heap_push_seq(&h, v->t, i, i);
    }
    heap_free(&h);
    for (size_t i = 0; i < s.n; i++)
        free(vs[i].mult);
    free(vs);
    free(s.vc);
    return csvw_error(out) ? SLK_EIO : SLK_OK;
}

/* vcjobs' submits: from --start, before start + days. */
static void vcjobs_reach(const struct gen_params *p, double *before, double *after)
{
    *before = 0;
    *after = vc_days(p) * 86400;
}

const struct gen_kind gen_kind_vcs = {
    "vcs",         "virtual clusters and their capacities (stretch's CAPACITIES input)",
    "vc,capacity", "vc,capacity,load_factor,burstiness",
    keys,          gen_vcs,
    NULL};

const struct gen_kind gen_kind_vcjobs = {"vcjobs",
                                         "jobs of virtual clusters, malleable (stretch's JOBS input)",
                                         "job,vc,submit,size_server_hours,max_parallelism",
                                         NULL,
                                         keys,
                                         gen_vcjobs,
                                         vcjobs_reach};
