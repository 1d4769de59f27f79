/* pattern — the usage pattern of a tenant's utilization series (see
 * pattern.h): resampling to the grid, the FFT features and the rule. */
#include "harvest/pattern.h"
#include "base/diag.h"
#include "base/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[PATTERN_N] = {"periodic", "constant", "unpredictable"};

const char *pattern_name(int p) { return p >= 0 && p < PATTERN_N ? names[p] : "?"; }

int pattern_from_name(const char *s)
{
    for (int p = 0; p < PATTERN_N; p++)
        if (s && strcmp(s, names[p]) == 0)
            return p;
    return -1;
}

void pattern_ws_free(pattern_ws *ws)
{
    free(ws->bin);
    free(ws->cnt);
    free(ws->spec);
    free(ws->tmp);
    memset(ws, 0, sizeof *ws);
}

/* grid_of: the grid pattern_resample puts t[0..n) on: its first step *t0
 * and its number of steps (a double: it may pass any size_t); 1 when the
 * samples are that grid already, one per step in order from t0 */
static int grid_of(const double *t, size_t n, double step, double *t0, double *nd)
{
    double tmin = t[0], tmax = t[0];
    for (size_t i = 1; i < n; i++) {
        if (t[i] < tmin)
            tmin = t[i];
        if (t[i] > tmax)
            tmax = t[i];
    }
    *t0 = floor(tmin / step) * step;
    *nd = floor((tmax - *t0) / step) + 1;
    if (t[0] != *t0)
        return 0;
    size_t i = 1;
    while (i < n && t[i] == *t0 + (double)i * step)
        i++;
    return i == n;
}

/* too_many: *nb and *missing for a grid of nd steps over PATTERN_MAX_STEPS */
static int too_many(double nd, size_t *nb, long *missing)
{
    if (nd <= PATTERN_MAX_STEPS)
        return 0;
    *nb = nd > 1e18 ? (size_t)1e18 : (size_t)nd;
    *missing = 0;
    return 1;
}

int pattern_gaps(pattern_ws *ws, const double *t, size_t n, double step, size_t *nb, long *missing)
{
    double t0, nd;
    if (grid_of(t, n, step, &t0, &nd)) {
        *nb = n;
        *missing = 0;
        return 0;
    }
    if (too_many(nd, nb, missing))
        return -1;
    size_t m = (size_t)nd, filled = 0;
    ws->cnt = xgrow(ws->cnt, &ws->cap_cnt, n, sizeof *ws->cnt);
    double *b = ws->cnt;
    for (size_t i = 0; i < n; i++)
        b[i] = fmin(floor((t[i] - t0) / step), (double)(m - 1)); /* pattern_resample's bins */
    stats_sort(b, n);
    for (size_t i = 0; i < n; i++)
        filled += i == 0 || b[i] > b[i - 1];
    *nb = m;
    *missing = (long)(m - filled);
    return 0;
}

double *pattern_resample(pattern_ws *ws, const double *t, const double *u, size_t n, double step, size_t *nb,
                         long *missing)
{
    double t0, nd;
    /* the common case: one sample per step, in order, from a step boundary */
    if (grid_of(t, n, step, &t0, &nd)) {
        ws->bin = xgrow(ws->bin, &ws->cap_bin, n, sizeof *ws->bin);
        memcpy(ws->bin, u, n * sizeof *u);
        *nb = n;
        *missing = 0;
        return ws->bin;
    }
    if (too_many(nd, nb, missing)) /* refuse before allocating */
        return NULL;
    size_t m = (size_t)nd;
    ws->bin = xgrow(ws->bin, &ws->cap_bin, m, sizeof *ws->bin);
    ws->cnt = xgrow(ws->cnt, &ws->cap_cnt, m, sizeof *ws->cnt);
    double *bin = ws->bin, *cnt = ws->cnt;
    memset(bin, 0, m * sizeof *bin);
    memset(cnt, 0, m * sizeof *cnt);
    for (size_t i = 0; i < n; i++) {
        size_t b = (size_t)floor((t[i] - t0) / step);
        if (b >= m)
            b = m - 1;
        bin[b] += u[i];
        cnt[b] += 1;
    }
    long miss = 0;
    size_t last = 0; /* last filled step; step 0 always holds tmin */
    for (size_t b = 0; b < m; b++) {
        if (cnt[b] > 0) {
            bin[b] /= cnt[b];
            for (size_t g = last + 1; g < b; g++) {
                double f = (double)(g - last) / (double)(b - last);
                bin[g] = bin[last] + f * (bin[b] - bin[last]);
            }
            last = b;
        } else {
            miss++;
        }
    }
    *nb = m;
    *missing = miss;
    return bin;
}

/* Pearson correlation of x[0..n-lag) with x[lag..n): how well the series
 * repeats itself one period later (0 when either part is flat). */
double pattern_lag_correlation(const double *x, size_t n, size_t lag)
{
    if (lag == 0 || lag >= n)
        return 0;
    size_t m = n - lag;
    double ma = 0, mb = 0;
    for (size_t i = 0; i < m; i++) {
        ma += x[i];
        mb += x[i + lag];
    }
    ma /= (double)m;
    mb /= (double)m;
    double sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < m; i++) {
        double a = x[i] - ma, b = x[i + lag] - mb;
        sab += a * b;
        saa += a * a;
        sbb += b * b;
    }
    return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0;
}

/* The type-7 percentile p of x[0..n-1] (as stats_percentile, same result),
 * without reordering x.  For a high p only the top n - floor(h) values
 * matter: they are kept in a min-heap in scratch, one comparison per value
 * for most values, instead of a selection over a copy of the whole series. */
double pattern_high_percentile(const double *x, size_t n, double p, double *scratch)
{
    double h = (double)(n - 1) * p / 100.0;
    size_t lo = (size_t)floor(h);
    size_t k = n - lo; /* order statistics lo .. n-1 */
    if (p <= 0 || p >= 100 || k > 64 + n / 16) {
        memcpy(scratch, x, n * sizeof *x);
        return stats_percentile(scratch, n, p);
    }
    double *hp = scratch;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        double v = x[i];
        if (m < k) { /* sift up */
            size_t c = m++;
            while (c > 0 && hp[(c - 1) / 2] > v) {
                hp[c] = hp[(c - 1) / 2];
                c = (c - 1) / 2;
            }
            hp[c] = v;
        } else if (v > hp[0]) { /* replace the minimum, sift down */
            size_t c = 0;
            for (;;) {
                size_t l = 2 * c + 1, r = l + 1, s = c;
                double sv = v;
                if (l < m && hp[l] < sv)
                    s = l, sv = hp[l];
                if (r < m && hp[r] < sv)
                    s = r;
                if (s == c)
                    break;
                hp[c] = hp[s];
                c = s;
            }
            hp[c] = v;
        }
    }
    double a = hp[0]; /* order statistic lo */
    if (k == 1)
        return a;
    double b = hp[1]; /* order statistic lo + 1: the smaller child of the root */
    if (k > 2 && hp[2] < b)
        b = hp[2];
    return a + (h - (double)lo) * (b - a);
}


/* the strength of the strongest candidate period (ties to the first) and the
 * series' correlation with itself one such period later */
static void best_period(const double *x, size_t n, const double *p, double total, const struct pattern_rules *r,
                        struct pattern_features *f)
{
    size_t half = n / 2;
    double span = (double)n * r->step;
    /* strength of a period T: the share of the variance in its comb, the
     * bins within one of m*k0 (k0 = span/T cycles) for harmonics m = 1..H. */
    f->strength = 0;
    f->period = 0;
    f->repeat = 0;
    for (int pi = 0; pi < r->nperiods; pi++) {
        double k0 = span / r->periods[pi];
        if (k0 < r->min_cycles || total <= 0)
            continue;
        double comb = 0;
        long prev_hi = 0;
        for (int m = 1; m <= r->harmonics; m++) {
            long c = lround(m * k0);
            long lo = c - 1 > prev_hi + 1 ? c - 1 : prev_hi + 1, hi = c + 1;
            if (lo < 1)
                lo = 1;
            if (hi > (long)half)
                hi = (long)half;
            for (long k = lo; k <= hi; k++)
                comb += p[k];
            if (hi > prev_hi)
                prev_hi = hi;
        }
        double strength = comb / total;
        if (strength > 1)
            strength = 1;
        if (strength > f->strength || (strength == f->strength && f->period == 0)) {
            f->strength = strength;
            f->period = r->periods[pi];
            f->repeat = pattern_lag_correlation(x, n, (size_t)lround(r->periods[pi] / r->step));
        }
    }
}

int pattern_classify(fft_cache *fc, pattern_ws *ws, const double *x, size_t n, const struct pattern_rules *r,
                     struct pattern_features *f)
{
    /* compensated (Kahan) sum: a flat series averages to its value exactly */
    double sum = 0, comp = 0;
    for (size_t i = 0; i < n; i++) {
        double y = x[i] - comp, t = sum + y;
        comp = (t - sum) - y;
        sum = t;
    }
    f->avg = sum / (double)n;
    ws->tmp = xgrow(ws->tmp, &ws->cap_tmp, n, sizeof *ws->tmp);
    f->peak = pattern_high_percentile(x, n, r->peak_pct, ws->tmp);

    ws->spec = xgrow(ws->spec, &ws->cap_spec, n / 2 + 1, sizeof *ws->spec);
    double *p = ws->spec;
    if (fft_power(fc, x, n, p) < 0)
        return -1;
    size_t half = n / 2;
    double total = 0;
    for (size_t k = 1; k <= half; k++)
        total += p[k];
    /* variance below (1e-9)^2 is rounding, not signal: no periods in it */
    if (total < 1e-18)
        total = 0;
    f->sd = sqrt(total);
    double span = (double)n * r->step;
    size_t klow = (size_t)floor(span / r->low_period);
    if (klow > half)
        klow = half;
    double low = 0;
    for (size_t k = 1; k <= klow; k++)
        low += p[k];
    f->sd_low = sqrt(low);

    best_period(x, n, p, total, r, f);
    if (f->period > 0 && f->strength >= r->periodic_min && f->repeat >= r->repeat_min)
        f->pattern = PATTERN_PERIODIC;
    else if (f->sd_low <= r->constant_max)
        f->pattern = PATTERN_CONSTANT;
    else
        f->pattern = PATTERN_UNPREDICTABLE;
    return 0;
}
