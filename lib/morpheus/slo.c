/* slo — SLO inference for periodic jobs and the provenance join (see slo.h).
 *
 * The period estimator is tuned for what schedulers produce: submit times on
 * a fixed grid with jitter of a few percent of the period, some periods
 * missing (the job did not run), some extra submits (re-runs, ad-hoc runs).
 * It costs O(n log n) per job for n submits plus O(n) per candidate period
 * (about 20 candidates). */
#include "morpheus/slo.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/keyset.h"
#include "base/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const slo_request_keys[] = {"job",    "period", "a",           "d", "status",
                                        "source", "cv",     "problematic", NULL};

static const double default_natural[] = {
    60, 300, 600, 900, 1200, 1800,                 /* 1, 5, 10, 15, 20, 30 min */
    3600, 7200, 10800, 14400, 21600, 28800, 43200, /* 1, 2, 3, 4, 6, 8, 12 h */
    86400, 604800                                  /* 1 d, 1 w */
};

void slo_opts_default(struct slo_opts *o)
{
    memset(o, 0, sizeof *o);
    o->anchor = 0; /* epoch-aligned periods, as tracegen(1) and lcmpack's plan (lib/plan.h) use */
    o->period = 0;
    o->nnatural = (int)(sizeof default_natural / sizeof default_natural[0]);
    for (int i = 0; i < o->nnatural; i++)
        o->natural[i] = default_natural[i];
    o->snap_tol = 0.05;
    o->match_tol = 0.25;
    o->score_tol = 0.1; /* random submit times land within 0.1 P of a grid 20% of the time */
    o->min_score = 0.5;
    o->min_runs = 5;
    o->max_cv = 0.1;
    o->min_slack = 0.25;
    o->a_pct = 95;
    o->d_pct = 50;
    o->done_pct = 95;
    o->done_slack = 0.25;
    /* MAD/median of exponential (memoryless) waits, asinh(1/2)/ln 2 = 0.694:
     * above it the waits are less predictable than random arrivals.  MAD/
     * median of non-negative waits is at most 1, so the flag is reachable. */
    o->problematic_cv = asinh(0.5) / M_LN2;
    o->basis = SLO_BASIS_PROVENANCE;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* sort_doubles: ascending; run logs are usually in submit order already, and
 * checking costs one pass where qsort costs n log n comparisons */
static void sort_doubles(double *x, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (x[i] < x[i - 1]) {
            qsort(x, n, sizeof *x, cmp_double);
            return;
        }
}

/* ---- period estimation ---------------------------------------------------- */

/* Circular location of phases ph[0..n-1] in [0, P): the window of width w
 * (< P) holding the most phases (the first such window on ties), and the
 * median of the phases in it.  A mode, not a median, so that a second cluster
 * (an hourly job seen with a 2 h period, manual runs at another hour) cannot
 * pull the phase into the empty space between clusters.  Sorts ph. */
static double circ_mode(double *ph, size_t n, double P, double w)
{
    sort_doubles(ph, n);
    /* element j of the doubled sequence ph[0..n-1], ph[0..n-1] + P */
#define PH2(j) ((j) < n ? ph[(j)] : ph[(j) - n] + P)
    size_t best_lo = 0, best_n = 0, hi = 0;
    for (size_t lo = 0; lo < n; lo++) {
        if (hi < lo)
            hi = lo;
        while (hi < lo + n && PH2(hi) <= PH2(lo) + w)
            hi++;
        if (hi - lo > best_n) {
            best_n = hi - lo;
            best_lo = lo;
        }
    }
    size_t a = best_lo + (best_n - 1) / 2, b = best_lo + best_n / 2;
    double m = 0.5 * (PH2(a) + PH2(b));
#undef PH2
    m = fmod(m, P);
    if (m < 0)
        m += P;
    return m;
}

double slo_phase(const double *t, size_t n, double anchor, double period)
{
    double *ph = xmalloc(n * sizeof *ph);
    for (size_t i = 0; i < n; i++) {
        double x = fmod(t[i] - anchor, period);
        ph[i] = x < 0 ? x + period : x;
        if (ph[i] >= period)
            ph[i] = 0;
    }
    double m = circ_mode(ph, n, period, 0.2 * period);
    free(ph);
    return m;
}

/* grid_slot: the slot k of the grid alpha + P k nearest t, and t's
 * residual t - alpha - k P in *r. */
static inline double grid_slot(double t, double alpha, double P, double *r)
{
    double k = floor((t - alpha) / P + 0.5);
    *r = t - alpha - k * P;
    return k;
}

/* Least-squares fit of u = alpha + P k over the submits within thr seconds
 * of the current grid among u[0..lim] (sorted).  Centred sums keep it exact
 * enough for 10^6 periods.  Returns 0 when fewer than two distinct periods
 * are on the grid (alpha, P untouched). */
static int fit_once(const double *u, size_t lim, double thr, double *alpha, double *P)
{
    double sk = 0, su = 0;
    size_t m = 0;
    double kmin = 0, kmax = 0;
    for (size_t i = 0; i < lim; i++) {
        double r, k = grid_slot(u[i], *alpha, *P, &r);
        if (fabs(r) > thr)
            continue;
        if (m == 0 || k < kmin)
            kmin = k;
        if (m == 0 || k > kmax)
            kmax = k;
        sk += k;
        su += u[i];
        m++;
    }
    if (m < 2 || kmax <= kmin)
        return 0;
    double mk = sk / (double)m, mu = su / (double)m, sxx = 0, sxy = 0;
    for (size_t i = 0; i < lim; i++) {
        double r, k = grid_slot(u[i], *alpha, *P, &r);
        if (fabs(r) > thr)
            continue;
        sxx += (k - mk) * (k - mk);
        sxy += (k - mk) * (u[i] - mu);
    }
    double slope = sxy / sxx;
    if (!(slope > 0.5 * *P && slope < 1.5 * *P))
        return 0;
    *P = slope;
    *alpha = mu - slope * mk;
    return 1;
}

/* band_count: the submits among u[0..n-1] within tol * P of the grid
 * alpha + P k that lie within thr of it. */
static size_t band_count(const double *u, size_t n, double alpha, double P, double tol, double thr)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++) {
        double r;
        grid_slot(u[i], alpha, P, &r);
        if (fabs(r) <= tol * P && fabs(r) <= thr)
            c++;
    }
    return c;
}

/* trim_fit: extra runs that happen to fall inside the band pull the
 * slope; refit the grid over u[0..lim) on the submits within 3 robust
 * sigmas of it, or of the grid moved to the residuals' median when that
 * band holds more of them (an extra run r seconds off the grid, inside the
 * match band, shifts a least-squares grid through n submits about r/n off
 * the regular runs: a band of a few jitters around it then misses them,
 * docs/sloinfer.md "Period"), up to three times.  res holds lim values. */
static void trim_fit(const double *u, size_t lim, double tol, double *alpha, double *P, double *res)
{
    for (int it = 0; it < 3; it++) {
        size_t m2 = 0;
        for (size_t i = 0; i < lim; i++) {
            double r;
            grid_slot(u[i], *alpha, *P, &r);
            if (fabs(r) <= tol * *P)
                res[m2++] = r;
        }
        if (m2 < 3)
            break;
        double med = stats_median(res, m2);
        double thr = fmax(3 * 1.4826 * stats_mad(res, m2), 1.0);
        if (thr > tol * *P)
            thr = tol * *P;
        if (band_count(u, lim, *alpha + med, *P, tol, thr) > band_count(u, lim, *alpha, *P, tol, thr))
            *alpha += med;
        double before = *P;
        if (!fit_once(u, lim, thr, alpha, P) || fabs(*P - before) <= 1e-9 * *P)
            break; /* converged: the same submits are inliers again */
    }
}

/* Progressive fit from candidate c: start on the first 8 periods (so an
 * inexact c cannot drift by half a period before it is corrected), then
 * double the window until it covers every submit; each window's fit is
 * trimmed (trim_fit) before the next, so extra runs inside the band of
 * the first few periods cannot tilt the grid off the regular runs before
 * the window grows (review, 2026-12-04: an hourly job with 30% extra runs
 * fitted 3665 s from the 3600 s candidate, and was called 7200 s). */
static void fit_grid(const double *u, size_t n, double c, double tol, double *alpha_out, double *P_out)
{
    double P = c;
    size_t m = 0;
    while (m < n && u[m] <= 8 * c)
        m++;
    if (m == 0)
        m = 1;
    double *ph = xmalloc(m * sizeof *ph);
    for (size_t i = 0; i < m; i++) {
        ph[i] = fmod(u[i], c);
        if (ph[i] >= c || ph[i] < 0)
            ph[i] = 0;
    }
    double alpha = circ_mode(ph, m, c, 0.2 * c);
    free(ph);
    double *res = xmalloc(n * sizeof *res);
    int full_passes = 0;
    for (double span = 8 * c; full_passes < 2; span *= 2) {
        size_t lim = 0;
        while (lim < n && u[lim] <= span + 0.5 * P)
            lim++;
        if (lim == n)
            full_passes++;
        fit_once(u, lim, tol * P, &alpha, &P);
        trim_fit(u, lim, tol, &alpha, &P, res);
        if (!(span < 1e300))
            break;
    }
    free(res);
    *alpha_out = alpha;
    *P_out = P;
}

/* How well the grid alpha + P k explains the sorted submits u[0..n-1]. */
static double grid_eval(const double *u, size_t n, double alpha, double P, double tol, size_t *matched_out,
                        size_t *slots_out, double *jitter_out, double *se_out)
{
    double *res = xmalloc(n * sizeof *res);
    struct stats_acc ks = {0}; /* the matched slots: their spread Sxx is ks.m2 */
    size_t matched = 0;
    double kfirst = 0, klast = 0;
    for (size_t i = 0; i < n; i++) {
        double r, k = grid_slot(u[i], alpha, P, &r);
        if (fabs(r) > tol * P)
            continue;
        if (matched > 0 && k == klast) {
            if (fabs(r) < fabs(res[matched - 1]))
                res[matched - 1] = r;
            continue;
        }
        if (matched == 0)
            kfirst = k;
        klast = k;
        stats_acc_add(&ks, k);
        res[matched++] = r;
    }
    size_t slots = matched ? (size_t)(klast - kfirst) + 1 : 0;
    /* the period's standard error as a regression slope: s / sqrt(Sxx), s
     * from the residuals with n - 2 degrees of freedom (NAN below 3) */
    double se = NAN;
    if (matched > 2 && ks.m2 > 0) {
        double ssr = 0;
        for (size_t i = 0; i < matched; i++)
            ssr += res[i] * res[i];
        se = sqrt(ssr / (double)(matched - 2) / ks.m2);
    }
    double jitter = 0;
    if (matched > 0)
        jitter = 1.4826 * stats_mad(res, matched);
    free(res);
    *se_out = se;
    *matched_out = matched;
    *slots_out = slots;
    *jitter_out = jitter;
    if (matched == 0)
        return 0;
    return ((double)matched / (double)n) * ((double)matched / (double)slots);
}

/* Centre of the densest cluster of sorted gaps: the window [g, 1.2 g] holding
 * the most gaps (first one on ties); its median. */
static double densest_gap(const double *g, size_t n)
{
    size_t best_lo = 0, best_n = 0, hi = 0;
    for (size_t lo = 0; lo < n; lo++) {
        if (hi < lo)
            hi = lo;
        while (hi < n && g[hi] <= 1.2 * g[lo])
            hi++;
        if (hi - lo > best_n) {
            best_n = hi - lo;
            best_lo = lo;
        }
    }
    return g[best_lo + best_n / 2];
}

/* t_995: Student's t quantile 0.995 for dof degrees of freedom (2.576, the
 * normal's, from 31 on). */
static double t_995(size_t dof)
{
    static const double t[] = {63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.25,  3.169,
                               3.106,  3.055, 3.012, 2.977, 2.947, 2.921, 2.898, 2.878, 2.861, 2.845,
                               2.831,  2.819, 2.807, 2.797, 2.787, 2.779, 2.771, 2.763, 2.756, 2.75};
    return dof >= 1 && dof <= 30 ? t[dof - 1] : 2.576;
}

/* Accept a snapped period q when it is within snap_tol of the fit and
 * either the grid it implies drifts from the fitted one by at most `drift`
 * over the periods spanned, or it lies within `slack` of the fit (what a
 * short history cannot tell apart: the fit's own 99% interval). */
static int snap_ok(double raw, double q, double snap_tol, size_t slots, double drift, double slack)
{
    if (!(q > 0))
        return 0;
    double diff = fabs(raw - q);
    double span = slots > 1 ? (double)(slots - 1) : 1;
    return diff <= snap_tol * q && (diff * span <= drift || diff <= slack);
}

void slo_period_estimate(const double *submit, size_t n, const struct slo_opts *o, struct slo_period *out)
{
    memset(out, 0, sizeof *out);
    out->period = out->raw = NAN;
    if (n < 2)
        return;
    double *u = xmalloc(n * sizeof *u);
    memcpy(u, submit, n * sizeof *u);
    sort_doubles(u, n);
    size_t m = 1;
    for (size_t i = 1; i < n; i++)
        if (u[i] != u[m - 1])
            u[m++] = u[i];
    if (m < 2) {
        free(u);
        return;
    }
    double t0 = u[0];
    for (size_t i = 0; i < m; i++)
        u[i] -= t0;
    double span = u[m - 1];

    double *g = xmalloc((m - 1) * sizeof *g);
    for (size_t i = 0; i + 1 < m; i++)
        g[i] = u[i + 1] - u[i];
    qsort(g, m - 1, sizeof *g, cmp_double);
    double cand[2 + SLO_MAX_NATURAL];
    int nc = 0;
    cand[nc++] = stats_percentile_sorted(g, m - 1, 50);
    cand[nc++] = densest_gap(g, m - 1);
    /* natural periods near the gap statistics rescue jobs whose gaps are
     * dominated by missing or extra runs; far ones cannot win, skip them */
    double lo = fmin(cand[0], cand[1]), hi = fmax(cand[0], cand[1]);
    for (int i = 0; i < o->nnatural; i++) {
        double q = o->natural[i];
        if (q >= 0.5 * g[0] && q <= span && q >= 0.4 * lo && q <= 2.5 * hi)
            cand[nc++] = q;
    }
    free(g);

    double best_score = -1, best_P = NAN, best_jit = 0, best_se = NAN, nuniq = (double)m;
    size_t best_matched = 0, best_slots = 0;
    for (int c = 0; c < nc; c++) {
        if (!(cand[c] > 0))
            continue;
        /* the natural candidates (c >= 2) only rescue messy histories: a
         * multiple or divisor of a fit scoring 0.9 scores at most 0.5 */
        if (c >= 2 && best_score >= 0.9)
            break;
        int seen = 0; /* candidates within 1% converge to the same fit */
        for (int e = 0; e < c; e++)
            if (fabs(cand[e] - cand[c]) <= 0.01 * cand[c])
                seen = 1;
        if (seen)
            continue;
        double alpha, P, jit, se;
        size_t mt, sl;
        fit_grid(u, m, cand[c], o->match_tol, &alpha, &P);
        double s = grid_eval(u, m, alpha, P, o->score_tol, &mt, &sl, &jit, &se);
        if (s > best_score + 1e-12) {
            best_score = s;
            best_P = P;
            best_jit = jit;
            best_se = se;
            best_matched = mt;
            best_slots = sl;
        }
    }
    free(u);
    out->raw = best_P;
    out->score = best_score < 0 ? 0 : best_score;
    out->jitter = best_jit;
    out->matched = best_matched;
    out->precision = (double)best_matched / nuniq;
    out->slots = best_slots;
    if (!(best_P > 0)) {
        out->period = NAN;
        return;
    }

    /* the snapped grid may drift from the fit by what the data cannot tell
     * apart: three jitters, a thousandth of a period (timestamps in whole
     * seconds on a weekly job fitted from four runs), or one second */
    double drift = fmax(fmax(3 * best_jit, 1e-3 * best_P), 1.0);
    /* or lie inside the fitted period's 99% interval: with a few runs the
     * robust jitter can come out a third of the real one, and an hourly job
     * with 8 runs was snapped to 3599 s, its drift to 3600 "too large" */
    double slack = best_se > 0 ? t_995(best_matched - 2) * best_se : 0;
    double q = NAN, qd = INFINITY;
    for (int i = 0; i < o->nnatural; i++)
        if (snap_ok(best_P, o->natural[i], o->snap_tol, best_slots, drift, slack) &&
            fabs(best_P - o->natural[i]) < qd) {
            q = o->natural[i];
            qd = fabs(best_P - q);
        }
    if (q > 0) {
        out->period = q;
        out->snap = SLO_SNAP_NATURAL;
    } else if (snap_ok(best_P, 60 * floor(best_P / 60 + 0.5), o->snap_tol, best_slots, drift, slack)) {
        out->period = 60 * floor(best_P / 60 + 0.5);
        out->snap = SLO_SNAP_MINUTE;
    } else if (snap_ok(best_P, floor(best_P + 0.5), o->snap_tol, best_slots, drift, slack)) {
        out->period = floor(best_P + 0.5);
        out->snap = SLO_SNAP_SECOND;
    } else {
        out->period = best_P;
        out->snap = SLO_SNAP_NONE;
    }
}

/* ---- per-job inference ---------------------------------------------------------- */

struct slot_ref {
    double k, resid;
    size_t idx;
};

/* ascending, NaN (a missing time) after every number */
static int cmp_time(double x, double y)
{
    if (isnan(x) || isnan(y))
        return (isnan(x) != 0) - (isnan(y) != 0);
    return (x > y) - (x < y);
}

/* order of runs for choosing one per period (qsort_r comparator): by
 * period, successful first, nearest the schedule first; a tie goes to the
 * run whose output a consumer read (the run the deadline is about), then to
 * the earlier submit, output_read, end, start and input_avail (the run that
 * delivered the period's output first: a duplicate or re-run that finished
 * later does not loosen the deadline), then consumer_period.  A total order
 * on the run's own values, so the run chosen does not depend on input
 * order; array order only picks among runs equal in all of these, which
 * give the same offsets. */
static int cmp_slot(const void *a, const void *b, void *ctx)
{
    const struct slo_run *runs = ctx;
    const struct slot_ref *x = a, *y = b;
    if (x->k != y->k)
        return x->k < y->k ? -1 : 1;
    const struct slo_run *p = &runs[x->idx], *q = &runs[y->idx];
    if (p->ok != q->ok)
        return q->ok - p->ok; /* successful runs first */
    double rx = fabs(x->resid), ry = fabs(y->resid);
    if (rx != ry)
        return rx < ry ? -1 : 1;
    /* unread after read, then each time ascending (NaN last) */
    const double pv[] = {isnan(p->output_read) ? 1 : 0,
                         p->submit,
                         p->output_read,
                         p->end,
                         p->start,
                         p->input_avail,
                         p->consumer_period};
    const double qv[] = {isnan(q->output_read) ? 1 : 0,
                         q->submit,
                         q->output_read,
                         q->end,
                         q->start,
                         q->input_avail,
                         q->consumer_period};
    for (size_t i = 0; i < sizeof pv / sizeof pv[0]; i++) {
        int c = cmp_time(pv[i], qv[i]);
        if (c)
            return c;
    }
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* median of the finite values of x[0..n-1] (copied) */
static double median_of(const double *x, size_t n)
{
    double *c = xmalloc((n ? n : 1) * sizeof *c);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]))
            c[m++] = x[i];
    double r = m ? stats_median(c, m) : NAN;
    free(c);
    return r;
}

/* The consumers' period seen from the read times: reads closer than P/2
 * belong to the same consumer run.  Only when the consumer runs are clearly
 * fewer than the reads (1.5 runs' outputs per consumer run on average) is
 * the consumer slower than the job: one cluster means "longer than the
 * history" (INFINITY), else the period of the cluster starts.  Otherwise
 * every run has its own read and the consumer keeps the job's period P. */
static double consumer_period_from_reads(const double *reads, size_t n, double P, const struct slo_opts *o)
{
    if (n < 2)
        return NAN;
    double *c = xmalloc(n * sizeof *c);
    memcpy(c, reads, n * sizeof *c);
    sort_doubles(c, n);
    size_t k = 1;
    double last = c[0];
    for (size_t i = 1; i < n; i++) {
        if (c[i] - last > 0.5 * P)
            c[k++] = c[i];
        last = c[i];
    }
    double cp;
    if (1.5 * (double)k > (double)n) {
        cp = P;
    } else if (k == 1) {
        cp = INFINITY;
    } else {
        struct slo_period per;
        slo_period_estimate(c, k, o, &per);
        cp = per.period;
    }
    free(c);
    return cp;
}

/* A window lcmpack can place: 0 <= a < P, a < d, d - a <= P. */
static int window_ok(const struct slo_result *r)
{
    return r->a >= 0 && r->a < r->period && r->d > r->a && r->d - r->a <= r->period;
}

/* robust CV of x[0..n-1] (reordered): MAD / median, the median counted as at
 * least `floor` (a wait of a few seconds is not a scale); NaN when n == 0 */
static double robust_cv(double *x, size_t n, double floor)
{
    if (n == 0)
        return NAN;
    double med = stats_median(x, n);
    double mad = stats_mad(x, n);
    return mad / fmax(med, floor);
}

/* The usable runs of one job as offsets from their scheduled submit
 * T_k = anchor + phase + k P (the job's own phase, so a job shifted in time
 * has the same offsets), one array per quantity, u entries each. */
struct job_offsets {
    double *ia, *rd, *st, *en, *cpv, *rdabs, *wait_start;
    size_t u, nreads, nia;
};

static void offsets_alloc(struct job_offsets *x, size_t n)
{
    double *b = xmalloc(7 * (n ? n : 1) * sizeof *b);
    size_t m = n ? n : 1;
    x->ia = b;
    x->rd = b + m;
    x->st = b + 2 * m;
    x->en = b + 3 * m;
    x->cpv = b + 4 * m;
    x->rdabs = b + 5 * m;
    x->wait_start = b + 6 * m;
    x->u = x->nreads = x->nia = 0;
}

static void offsets_free(struct job_offsets *x) { free(x->ia); }

/* infer_period: the job's period (given by the override or --period, else
 * estimated) into res; returns it, and sets *given. */
static double infer_period(const struct slo_run *runs, size_t n, const struct slo_opts *o,
                           const struct slo_override *ov, struct slo_result *res, int *given)
{
    double P;
    *given = 0;
    if (ov && ov->has_period) {
        P = ov->period;
        *given = 1;
    } else if (o->period > 0) {
        P = o->period;
        *given = 1;
    } else {
        double *sub = xmalloc((n ? n : 1) * sizeof *sub);
        for (size_t i = 0; i < n; i++)
            sub[i] = runs[i].submit;
        slo_period_estimate(sub, n, o, &res->per);
        free(sub);
        P = res->per.period;
    }
    if (*given) {
        res->per.period = res->per.raw = P;
        res->per.snap = SLO_SNAP_GIVEN;
    }
    res->period = P;
    return P;
}

/* given_period_fit: diagnostics of a given period from the sorted slots:
 * how many periods have a submit */
static void given_period_fit(const struct slot_ref *sl, size_t n, double P, const struct slo_opts *o,
                             struct slo_period *per)
{
    size_t matched = 0;
    double kfirst = 0, klast = 0;
    for (size_t i = 0; i < n; i++) {
        if (fabs(sl[i].resid) > o->score_tol * P || (matched && sl[i].k == klast))
            continue;
        if (!matched)
            kfirst = sl[i].k;
        klast = sl[i].k;
        matched++;
    }
    per->matched = matched;
    per->slots = matched ? (size_t)(klast - kfirst) + 1 : 0;
    per->precision = (double)matched / (double)n;
    per->score = matched ? per->precision * ((double)matched / (double)per->slots) : 0;
}

/* usable_offsets: one usable run per period (the successful on-schedule run
 * nearest the schedule), as offsets from its scheduled submit; counts the
 * successful runs left out in res->extra. */
static void usable_offsets(const struct slo_run *runs, const struct slot_ref *sl, size_t n, double P,
                           double phase, const struct slo_opts *o, struct slo_result *res, struct job_offsets *x)
{
    for (size_t i = 0; i < n; i++) {
        const struct slo_run *r = &runs[sl[i].idx];
        if (!r->ok)
            continue;
        if (fabs(sl[i].resid) > o->match_tol * P || (i > 0 && sl[i - 1].k == sl[i].k && runs[sl[i - 1].idx].ok)) {
            res->extra++;
            continue;
        }
        double T = o->anchor + phase + sl[i].k * P;
        size_t u = x->u++;
        x->st[u] = r->start - T;
        x->en[u] = r->end - T;
        x->ia[u] = (isnan(r->input_avail) ? r->submit : r->input_avail) - T;
        x->rd[u] = isnan(r->output_read) ? NAN : r->output_read - T;
        x->cpv[u] = r->consumer_period;
        if (!isnan(r->input_avail))
            x->wait_start[x->nia++] = r->start - r->input_avail;
        if (!isnan(r->output_read))
            x->rdabs[x->nreads++] = r->output_read;
    }
}

/* fold_reads: footnote 5: a consumer with a longer period reads several
 * runs' outputs at once; the deadline then recurs with the job's own
 * (smaller) period: fold each read into the first recurrence after the
 * run's end. */
static void fold_reads(struct job_offsets *x, double P, const struct slo_opts *o, struct slo_result *res)
{
    double cp = median_of(x->cpv, x->u);
    if (isnan(cp))
        cp = consumer_period_from_reads(x->rdabs, x->nreads, P, o);
    res->consumer_period = cp;
    if (!(cp > P * (1 + o->snap_tol)))
        return;
    res->folded = 1;
    for (size_t i = 0; i < x->u; i++)
        if (!isnan(x->rd[i])) {
            double f = fmod(x->rd[i] - x->en[i], P);
            if (f < 0)
                f += P;
            x->rd[i] = x->en[i] + f;
        }
}

/* median_slack: the median over the runs of (read - end) / (end - start),
 * x->rd the read (the deadline, basis completion); NAN when no run has a
 * read and a length.  buf holds x->u values. */
static double median_slack(const struct job_offsets *x, double *buf)
{
    size_t ns = 0;
    for (size_t i = 0; i < x->u; i++)
        if (!isnan(x->rd[i]) && x->en[i] > x->st[i])
            buf[ns++] = (x->rd[i] - x->en[i]) / (x->en[i] - x->st[i]);
    return ns ? stats_median(buf, ns) : NAN;
}

/* window: d (offset from the scheduled submit), cv, slack ratio and the
 * problematic CVs from the offsets; a is already in res->a.  Basis
 * completion: d is the o->done_pct percentile of the end offsets plus
 * o->done_slack median run lengths, at most a + period (res->capped), and
 * cv is the CV of the end offsets. */
static void window(struct job_offsets *x, const struct slo_opts *o, int completion, struct slo_result *res)
{
    size_t u = x->u, m = 0;
    double *dv = xmalloc((u ? u : 1) * sizeof *dv), *slack = xmalloc((u ? u : 1) * sizeof *slack);
    if (completion) {
        for (size_t i = 0; i < u; i++)
            slack[i] = x->en[i] - x->st[i];
        double len = u ? stats_median(slack, u) : NAN;
        memcpy(dv, x->en, u * sizeof *dv);
        if (u)
            res->d = stats_percentile(dv, u, o->done_pct) + o->done_slack * len;
        /* lowered to a + P now (as to_grid would), so that the slack is
         * taken against the d written */
        if (res->d - res->a > res->period) {
            res->d = res->a + res->period;
            res->capped = 1;
        }
        for (size_t i = 0; i < u; i++)
            x->rd[i] = res->d; /* the deadline stands in for the read */
        memcpy(dv, x->en, u * sizeof *dv);
        m = u;
    } else {
        for (size_t i = 0; i < u; i++)
            if (!isnan(x->rd[i]))
                dv[m++] = x->rd[i];
        if (m)
            res->d = stats_percentile(dv, m, o->d_pct);
        m = 0;
        for (size_t i = 0; i < u; i++)
            if (!isnan(x->rd[i]))
                dv[m++] = x->rd[i];
    }
    res->cv = m ? robust_cv(dv, m, 1) : NAN;
    res->slack_ratio = median_slack(x, slack);
    size_t nw = 0;
    if (!completion) {
        for (size_t i = 0; i < u; i++)
            if (!isnan(x->rd[i]))
                dv[nw++] = x->rd[i] - x->en[i];
        res->cv_read = robust_cv(dv, nw, 60);
    }
    res->cv_start = robust_cv(x->wait_start, x->nia, 60);
    res->problematic = res->cv_start > o->problematic_cv || res->cv_read > o->problematic_cv;
    free(dv);
    free(slack);
}

/* job_status: "actionable" or the first reason it is not. */
static const char *job_status(const struct slo_result *res, const struct slo_opts *o, int given)
{
    int completion = strcmp(res->basis, "provenance") != 0;
    if (res->runs < (size_t)o->min_runs)
        return "too_few_runs";
    if (!given && res->per.precision < o->min_score)
        return "not_periodic";
    if (!completion && res->reads == 0)
        return "no_consumer";
    if (!completion && res->reads < (size_t)o->min_runs)
        return "too_few_reads";
    if (!(res->cv <= o->max_cv))
        return "high_cv";
    if (completion && res->capped)
        return "no_window"; /* the runs need more than a period: its capped d leaves them no slack */
    if (!(res->slack_ratio >= o->min_slack))
        return "no_slack";
    if (!window_ok(res))
        return "no_window";
    return "actionable";
}

/* to_grid: a and d from offsets of the scheduled submit to offsets of the
 * epoch grid anchor + k P that lcmpack and replay use: a in [0, P), d - a
 * kept (d may pass the period's end; windows longer than P are capped). */
static void to_grid(struct slo_result *res, double phase)
{
    double P = res->period;
    if (!isfinite(res->a))
        return;
    double w = res->d - res->a;
    if (w > P) {
        /* a window longer than the period would overlap the next
         * instance's: the run must be done when the next one may start */
        w = P;
        res->capped = 1;
    }
    double a = fmod(phase + res->a, P);
    if (a < 0)
        a += P;
    if (a >= P)
        a = 0;
    res->a = a;
    if (isfinite(w))
        res->d = a + w;
}

/* signed_off_slack: basis completion or schedule, an overridden d: the
 * slack ratio taken against it as window takes it against an inferred d
 * (the deadline stands in for every run's read), d_sched being the
 * override's d as an offset from the scheduled submit. */
static void signed_off_slack(struct job_offsets *x, double d_sched, struct slo_result *res)
{
    double *buf = xmalloc((x->u ? x->u : 1) * sizeof *buf);
    for (size_t i = 0; i < x->u; i++)
        x->rd[i] = d_sched;
    res->slack_ratio = median_slack(x, buf);
    free(buf);
}

static void apply_override(const struct slo_override *ov, struct slo_result *res)
{
    if (ov->has_a)
        res->a = ov->a;
    if (ov->has_d)
        res->d = ov->d;
    if (ov->has_d) {
        /* the user signed the deadline off: usable whatever the statistics say */
        if (res->period > 0 && isfinite(res->a))
            res->status = window_ok(res) ? "actionable" : "no_window";
    } else if (ov->has_a && strcmp(res->status, "actionable") == 0 && !window_ok(res)) {
        res->status = "no_window";
    }
    res->overridden = (ov->has_period ? SLO_OV_PERIOD : 0) | (ov->has_a ? SLO_OV_A : 0) | (ov->has_d ? SLO_OV_D : 0);
}

void slo_infer_job(struct slo_run *runs, size_t n, const struct slo_opts *o, const struct slo_override *ov,
                   struct slo_result *res)
{
    memset(res, 0, sizeof *res);
    res->period = res->a = res->d = res->cv = res->slack_ratio = res->consumer_period = NAN;
    res->cv_start = res->cv_read = NAN;
    res->per.period = res->per.raw = NAN;
    res->submits = n;
    int has_input = 0; /* the job's own runs: the label never depends on other jobs */
    for (size_t i = 0; i < n; i++) {
        if (!runs[i].ok)
            res->failed++;
        has_input |= !isnan(runs[i].input_avail);
    }
    res->basis = o->basis == SLO_BASIS_PROVENANCE ? "provenance" : has_input ? "completion" : "schedule";
    int given;
    double P = infer_period(runs, n, o, ov, res, &given);
    if (!(P > 0) || n == 0) {
        res->runs = n - res->failed;
        res->status = "too_few_runs";
        if (ov)
            apply_override(ov, res);
        return;
    }

    /* slot (period index) of every run, relative to the job's schedule */
    double *sub = xmalloc(n * sizeof *sub);
    for (size_t i = 0; i < n; i++)
        sub[i] = runs[i].submit;
    double phase = slo_phase(sub, n, o->anchor, P);
    free(sub);
    struct slot_ref *sl = xmalloc(n * sizeof *sl);
    for (size_t i = 0; i < n; i++) {
        double kf = (runs[i].submit - o->anchor - phase) / P;
        sl[i].k = floor(kf + 0.5);
        sl[i].resid = (kf - sl[i].k) * P;
        sl[i].idx = i;
    }
    qsort_r(sl, n, sizeof *sl, cmp_slot, runs);
    if (given)
        given_period_fit(sl, n, P, o, &res->per);

    struct job_offsets x;
    offsets_alloc(&x, n);
    usable_offsets(runs, sl, n, P, phase, o, res, &x);
    free(sl);
    res->runs = x.u;
    res->reads = x.nreads;
    int completion = o->basis != SLO_BASIS_PROVENANCE;
    if (!completion)
        fold_reads(&x, P, o, res);
    if (x.u > 0)
        res->a = stats_percentile(x.ia, x.u, o->a_pct);
    window(&x, o, completion, res);
    double a_sched = res->a;
    to_grid(res, phase);
    res->status = job_status(res, o, given);
    if (ov)
        apply_override(ov, res);
    if (ov && ov->has_d && completion && isfinite(res->a - a_sched))
        signed_off_slack(&x, res->d - (res->a - a_sched), res);
    offsets_free(&x);
}

/* ---- provenance join ---------------------------------------------------------------- */

struct prov_ver {
    double wtime; /* NaN: no such version */
    long writer_run, writer_job;
    int read_seen;
};

struct prov_file {
    struct prov_ver cur, prev;
    double last; /* time of the file's latest event, to check their order */
};

struct prov_run {
    double start, ia, rd;
};

struct slo_prov {
    keyset *files, *runs, *jobs; /* name -> index into f, r; job -> its number */
    struct prov_file *f;
    size_t nf, capf;
    struct prov_run *r;
    size_t nr, capr;
    char *key;
    size_t keycap;
    long last_job, last_run; /* the previous lookup's answers: a run's events come together */
    size_t foreign;          /* reads by a job's run that is not in the run table */
    char *foreign_first;     /* the first of them: "job instance" */
};

slo_prov *slo_prov_new(void)
{
    slo_prov *p = xcalloc(1, sizeof *p);
    p->files = keyset_new();
    p->runs = keyset_new();
    p->jobs = keyset_new();
    p->last_job = p->last_run = -1;
    return p;
}

void slo_prov_free(slo_prov *p)
{
    if (!p)
        return;
    keyset_free(p->files);
    keyset_free(p->runs);
    keyset_free(p->jobs);
    free(p->f);
    free(p->r);
    free(p->key);
    free(p->foreign_first);
    free(p);
}

static long job_id(slo_prov *p, const char *job)
{
    return keyset_find_grouped(p->jobs, job, &p->last_job, 1);
}

/* "job\x1finstance" in p->key */
static const char *run_key(slo_prov *p, const char *job, const char *instance)
{
    size_t lj = strlen(job), li = strlen(instance);
    p->key = xgrow(p->key, &p->keycap, lj + li + 2, 1);
    memcpy(p->key, job, lj);
    p->key[lj] = '\x1f';
    memcpy(p->key + lj + 1, instance, li + 1);
    return p->key;
}

long slo_prov_add_run(slo_prov *p, const char *job, const char *instance, double start)
{
    job_id(p, job);
    if (keyset_put(p->runs, run_key(p, job, instance), 0, NULL) < 0)
        return -1;
    p->r = xgrow(p->r, &p->capr, p->nr + 1, sizeof *p->r);
    p->r[p->nr] = (struct prov_run){start, NAN, NAN};
    return (long)p->nr++;
}

int slo_prov_event(slo_prov *p, double t, const char *job, const char *instance, const char *file,
                   enum slo_op op)
{
    int added;
    long fid = keyset_intern(p->files, file, &added);
    if (added) {
        p->f = xgrow(p->f, &p->capf, p->nf + 1, sizeof *p->f);
        p->f[p->nf].cur = p->f[p->nf].prev = (struct prov_ver){NAN, -1, -1, 0};
        p->f[p->nf].last = t;
        p->nf++;
    }
    struct prov_file *f = &p->f[fid];
    if (t < f->last)
        return -1;
    f->last = t;
    long jid = job_id(p, job);
    long rid = keyset_find_grouped(p->runs, run_key(p, job, instance), &p->last_run, 0);
    if (op == SLO_WRITE) {
        if (!isnan(f->cur.wtime) && rid >= 0 && f->cur.writer_run == rid) {
            f->cur.wtime = t; /* the same run writing again: its last write counts */
            return 0;
        }
        f->prev = f->cur;
        f->cur = (struct prov_ver){t, rid, jid, 0};
        return 0;
    }
    /* a read: the version the run saw is the newest written by its start
     * (unknown for a run not in the table: the newest, counted) */
    if (rid < 0 && *job && !p->foreign++) {
        size_t n = strlen(job) + strlen(instance) + 2;
        p->foreign_first = xmalloc(n);
        snprintf(p->foreign_first, n, "%s %s", job, instance);
    }
    struct prov_ver *v = &f->cur;
    if (rid >= 0 && !isnan(v->wtime) && v->wtime > p->r[rid].start)
        v = &f->prev;
    if (isnan(v->wtime) || (rid >= 0 && v->wtime > p->r[rid].start))
        return 0;
    if (v->writer_job == jid)
        return 0; /* a job reading its own output is neither producer nor consumer */
    if (rid >= 0 && !(p->r[rid].ia >= v->wtime))
        p->r[rid].ia = v->wtime;
    if (!v->read_seen) {
        v->read_seen = 1;
        if (v->writer_run >= 0 && !(p->r[v->writer_run].rd <= t))
            p->r[v->writer_run].rd = t;
    }
    return 0;
}

void slo_prov_result(const slo_prov *p, long idx, double *input_avail, double *output_read)
{
    *input_avail = p->r[idx].ia;
    *output_read = p->r[idx].rd;
}

size_t slo_prov_nfiles(const slo_prov *p) { return p->nf; }

size_t slo_prov_foreign_reads(const slo_prov *p, const char **first)
{
    *first = p->foreign_first;
    return p->foreign;
}

int slo_is_request(int has_status, const char *status, const char *source)
{
    return !has_status || (status && (!strcmp(status, "actionable") || !strcmp(status, "overridden"))) ||
           (source && !strcmp(source, "overridden"));
}

/* ---- reading an SLO file ------------------------------------------------- */

static int req_cmp(const void *a, const void *b)
{
    return strcmp(((const struct slo_req *)a)->job, ((const struct slo_req *)b)->job);
}

struct slo_req *slo_find_request(const struct slo_reqs *r, const char *job)
{
    struct slo_req key = {.job = (char *)job};
    return r->n ? bsearch(&key, r->v, r->n, sizeof *r->v, req_cmp) : NULL;
}

void slo_reqs_free(struct slo_reqs *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->v[i].job);
        free(r->v[i].status);
    }
    free(r->v);
    memset(r, 0, sizeof *r);
}

static int parse_bool(const char *s, int *v)
{
    if (!strcasecmp(s, "1") || !strcasecmp(s, "true") || !strcasecmp(s, "yes"))
        *v = 1;
    else if (!strcasecmp(s, "0") || !strcasecmp(s, "false") || !strcasecmp(s, "no"))
        *v = 0;
    else
        return -1;
    return 0;
}

/* check_request: the checks of a usable row (see slo_read_requests). */
static int check_request(csvr *r, struct slo_req *s, int cp, int ca, int cd, int ccv, int cpr)
{
    if (csvr_get_duration(r, cp, &s->period, CSVR_REQUIRED | CSVR_POSITIVE) < 0 ||
        csvr_get_duration(r, ca, &s->a, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0 ||
        csvr_get_duration(r, cd, &s->d, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0)
        return -1;
    const char *job = s->job;
    if (s->period > 366 * 86400.0)
        return csvr_fail(r, "job '%s': period %g s is longer than a year", job, s->period);
    if (!(s->a < s->d))
        return csvr_fail(r, "job '%s': deadline d %g is not after the earliest start a %g", job, s->d, s->a);
    if (s->a >= s->period)
        return csvr_fail(r, "job '%s': earliest start a %g is not inside the period %g", job, s->a, s->period);
    if (s->d - s->a > s->period)
        return csvr_fail(r, "job '%s': window d - a = %g s is longer than the period %g s", job, s->d - s->a,
                         s->period);
    if (ccv >= 0 && csvr_get_double(r, ccv, &s->cv, CSVR_NONNEG) < 0)
        return -1;
    const char *pv = cpr >= 0 ? csvr_field(r, cpr) : NULL;
    if (pv && parse_bool(pv, &s->problematic) < 0)
        return csvr_fail(r, "column 'problematic': invalid value '%s' (0/1, true/false, yes/no)", pv);
    return 0;
}

int slo_read_requests(const char *path, const struct csv_dialect *d, struct slo_reqs *out)
{
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int cj, cp, ca, cd;
    int bad = csvr_require_cols(r, "job", &cj, "period", &cp, "a", &ca, "d", &cd, (char *)NULL) < 0;
    int cs = csvr_col(r, "status"), csrc = csvr_col(r, "source"), ccv = csvr_col(r, "cv"),
        cpr = csvr_col(r, "problematic");
    if (bad) {
        st = csvr_status(r);
        csvr_close(r);
        return st ? st : SLK_EDATA;
    }
    while (csvr_next(r) > 0) {
        const char *job = csvr_field_required(r, cj, "job");
        if (!job) {
            if (csvr_skip(r))
                continue;
            break;
        }
        const char *status = cs >= 0 ? csvr_field(r, cs) : NULL;
        const char *source = csrc >= 0 ? csvr_field(r, csrc) : NULL;
        struct slo_req s = {.job = (char *)job, .line = csvr_line(r), .problematic = -1, .cv = NAN};
        s.usable = slo_is_request(cs >= 0, status, source);
        if (s.usable && check_request(r, &s, cp, ca, cd, ccv, cpr) < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        s.job = xstrdup(job);
        s.status = xstrdup(status ? status : "");
        out->v = xgrow(out->v, &out->cap, out->n + 1, sizeof *out->v);
        out->v[out->n++] = s;
    }
    st = csvr_status(r);
    if (st == SLK_OK && out->n) {
        qsort(out->v, out->n, sizeof *out->v, req_cmp);
        /* one row per job: the first (lowest line) is kept, a later one is an
         * error, or dropped under --on-error skip (csvr_reject_at) */
        size_t k = 0;
        for (size_t i = 0; i < out->n; i++) {
            struct slo_req *keep = k ? &out->v[k - 1] : NULL;
            if (!keep || strcmp(out->v[i].job, keep->job) != 0) {
                out->v[k++] = out->v[i];
                continue;
            }
            struct slo_req dup = out->v[i];
            if (dup.line < keep->line) {
                out->v[i] = *keep;
                *keep = dup;
                dup = out->v[i];
            }
            if (!csvr_reject_at(r, dup.line, "job '%s' has a second SLO row (first at line %ld)", dup.job,
                                keep->line)) {
                st = SLK_EDATA; /* nothing has moved yet: k == i */
                break;
            }
            free(dup.job);
            free(dup.status);
        }
        if (st == SLK_OK)
            out->n = k;
    }
    csvr_close(r);
    return st;
}
