/* Unit tests for lib/base/stats, lib/base/rng, lib/base/heap, lib/base/keyset against hand-worked values. */
#include "base/heap.h"
#include "base/keyset.h"
#include "base/rng.h"
#include "base/stats.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>

/* Reference for the spread median and MAD: bisection on the mixture's mass
 * (each value uniform over [x - w/2, x + w/2]) evaluated directly, not the
 * library's sweep over sorted ends. */
static double mass_below(const double *x, size_t n, double w, double t)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += fmin(fmax((t - (x[i] - w / 2)) / w, 0), 1);
    return s;
}

static double mass_within(const double *x, size_t n, double w, double m, double d)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += fmax(0, fmin(x[i] + w / 2, m + d) - fmax(x[i] - w / 2, m - d)) / w;
    return s;
}

/* bisect: the first t in [lo, hi] with f(t) >= target (upper: the last t
 * with f(t) <= target), f rising; f within 1e-9 of target counts as equal
 * (a mass summed in floating point over a gap is n/2 only to rounding). */
static double bisect(double (*f)(const double *, size_t, double, double, double), const double *x, size_t n,
                     double w, double m, double lo, double hi, double target, int upper)
{
    for (int it = 0; it < 200; it++) {
        double t = lo + (hi - lo) / 2, v = f(x, n, w, m, t);
        *((upper ? v <= target + 1e-9 : v < target - 1e-9) ? &lo : &hi) = t;
    }
    return lo + (hi - lo) / 2;
}

static double below(const double *x, size_t n, double w, double m, double t)
{
    (void)m;
    return mass_below(x, n, w, t);
}

/* spread_ref: the median and MAD as the middle of the positions where the
 * mass is half (a gap in the mixture at the median: its middle) */
static void spread_ref(const double *x, size_t n, double w, double *med, double *mad)
{
    double lo = x[0] - w, hi = x[0] + w;
    for (size_t i = 0; i < n; i++)
        lo = fmin(lo, x[i] - w), hi = fmax(hi, x[i] + w);
    double h = (double)n / 2;
    *med = (bisect(below, x, n, w, 0, lo, hi, h, 0) + bisect(below, x, n, w, 0, lo, hi, h, 1)) / 2;
    double dhi = 0;
    for (size_t i = 0; i < n; i++)
        dhi = fmax(dhi, fabs(x[i] - *med) + w);
    double dlo = bisect(mass_within, x, n, w, *med, 0, dhi, h, 0),
           dup = bisect(mass_within, x, n, w, *med, 0, dhi, h, 1);
    *mad = (dlo + dup) / 2;
}

/* stats_median_spread / stats_mad_spread: hand-worked cases (w = 1: two 13s
 * hold mass 2 up to 13.5, the third half of 5 comes a sixth into the 14s'
 * slope of 3), the degenerate ones, and random integer data against the
 * bisection reference. */
static void test_spread(void)
{
    const double a[] = {13, 13, 14, 14, 14}, b[] = {14, 13, 14, 13, 13};
    CHECK_NEAR(stats_median_spread(a, 5, 1), 13 + 2.0 / 3, 1e-12);
    CHECK_NEAR(stats_median_spread(b, 5, 1), 13 + 1.0 / 3, 1e-12);
    /* MAD of a about 13 2/3: the 14s' spread [13.5, 14.5] reaches 1/6 below
     * m, the 13s' [12.5, 13.5] starts 1/6 below it: mass within d is 6d for
     * d <= 1/6, then 1 + 3(d - 1/6) + ... = 2.5 at d = 7/15 */
    CHECK_NEAR(stats_mad_spread(a, 5, 13 + 2.0 / 3, 1), 7.0 / 15, 1e-12);
    const double eq[] = {5, 5, 5, 5};
    CHECK_NEAR(stats_median_spread(eq, 4, 2), 5, 1e-12);
    CHECK_NEAR(stats_mad_spread(eq, 4, 5, 2), 0.5, 1e-12);
    /* w <= 0 or not finite: the plain median and MAD, x untouched */
    const double p[] = {1, 10, 2, 4};
    CHECK_NEAR(stats_median_spread(p, 4, 0), 3, 0);
    CHECK_NEAR(stats_mad_spread(p, 4, 3, -1), 1.5, 0);
    CHECK_NEAR(stats_median_spread(p, 4, INFINITY), 3, 0);
    CHECK(p[0] == 1 && p[1] == 10 && p[2] == 2 && p[3] == 4);
    CHECK(isnan(stats_median_spread(NULL, 0, 1)) && isnan(stats_mad_spread(NULL, 0, 0, 1)));
    /* continuity: one more run at 14 moves the median by a fraction, where
     * the plain median jumps from 13 to 14 */
    const double c5[] = {12, 13, 13, 14, 14, 15}, c6[] = {12, 13, 13, 14, 14, 14, 15};
    double m5 = stats_median_spread(c5, 6, 1), m6 = stats_median_spread(c6, 7, 1);
    CHECK(m5 < m6 && m6 - m5 < 0.25);
    rng r;
    rng_seed(&r, 7);
    for (int t = 0; t < 200; t++) {
        size_t n = 1 + (size_t)(rng_uniform(&r) * 60);
        double x[60], w = t % 3 ? 1 : 60 * rng_uniform(&r) + 0.5, med, mad;
        for (size_t i = 0; i < n; i++)
            x[i] = floor(rng_uniform(&r) * 12) * (t % 3 ? 1 : 60);
        spread_ref(x, n, w, &med, &mad);
        CHECK_NEAR(stats_median_spread(x, n, w), med, 1e-9 * (1 + fabs(med)));
        CHECK_NEAR(stats_mad_spread(x, n, stats_median_spread(x, n, w), w), mad, 1e-9 * (1 + mad));
    }
}

/* stats_apportion, worked by hand: 7 over 5:3:2 is 3.5, 2.1, 1.4: floors
 * 3, 2, 1 (6), the one left to the largest remainder (0.5): 4, 2, 1.  2
 * over 1:1:1 is 0.67 each: ties to the earlier shares: 1, 1, 0.  0 over
 * anything: zeros; a zero weight gets 0. */
static void test_apportion(void)
{
    long out[3];
    stats_apportion((const double[]){5, 3, 2}, 3, 7, out);
    CHECK(out[0] == 4 && out[1] == 2 && out[2] == 1);
    stats_apportion((const double[]){1, 1, 1}, 3, 2, out);
    CHECK(out[0] == 1 && out[1] == 1 && out[2] == 0);
    stats_apportion((const double[]){1, 2, 3}, 3, 0, out);
    CHECK(out[0] == 0 && out[1] == 0 && out[2] == 0);
    stats_apportion((const double[]){0, 1, 1}, 3, 3, out);
    CHECK(out[0] == 0 && out[1] + out[2] == 3 && out[1] == 2);
}

int main(void)
{
    test_apportion();
    test_spread();
    /* Type-7 percentiles: numpy.percentile([1,2,3,4], [0,25,50,90,100]) = 1, 1.75, 2.5, 3.7, 4 */
    double s[] = {1, 2, 3, 4};
    CHECK_NEAR(stats_percentile_sorted(s, 4, 0), 1, 0);
    CHECK_NEAR(stats_percentile_sorted(s, 4, 25), 1.75, 1e-12);
    CHECK_NEAR(stats_percentile_sorted(s, 4, 50), 2.5, 1e-12);
    CHECK_NEAR(stats_percentile_sorted(s, 4, 90), 3.7, 1e-12);
    CHECK_NEAR(stats_percentile_sorted(s, 4, 100), 4, 0);
    CHECK(isnan(stats_percentile_sorted(s, 0, 50)));
    double one[] = {7};
    CHECK_NEAR(stats_percentile_sorted(one, 1, 95), 7, 0);
    /* No values may come as NULL (a job stage without a recorded attempt:
     * AFL++ target reprov-compare, 2026-11-25, where UBSan flagged
     * qsort(NULL, 0, ...) in stats_sort) */
    stats_sort(NULL, 0);
    CHECK(isnan(stats_median(NULL, 0)) && isnan(stats_percentile(NULL, 0, 90)) && isnan(stats_mad(NULL, 0)));

    /* Selection-based percentile agrees with sort-based one on random data. */
    rng r;
    rng_seed(&r, 42);
    for (int trial = 0; trial < 50; trial++) {
        size_t n = 1 + rng_below(&r, 200);
        double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] = floor(rng_uniform(&r) * 20); /* many ties */
        stats_sort(b, n);
        double p = rng_uniform(&r) * 100;
        CHECK_NEAR(stats_percentile(a, n, p), stats_percentile_sorted(b, n, p), 1e-9);
        free(a);
        free(b);
    }

    /* From 64 samples on, stats_percentile selects by buckets over [min, max]
     * (lib/base/stats.c): the same value as the sorted percentile, bit for
     * bit, whatever the distribution: ties, one outlier far away, a range of
     * a few ulps, huge magnitudes, negative values, n at the thresholds. */
    for (int trial = 0; trial < 400; trial++) {
        size_t sizes[] = {63, 64, 65, 511, 512, 513, 4096, 8640, 40000};
        size_t n = sizes[trial % 9];
        double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        int kind = trial / 9 % 6;
        for (size_t i = 0; i < n; i++) {
            double u = rng_uniform(&r);
            double v = kind == 0 ? floor(u * 7)                          /* heavy ties */
                     : kind == 1 ? (i == 0 ? 1e12 : 500 + u)             /* one far outlier */
                     : kind == 2 ? 1 + (double)rng_below(&r, 4) * 2.220446049250313e-16 /* a few ulps */
                     : kind == 3 ? (u - 0.5) * 1e300                     /* huge, both signs */
                     : kind == 4 ? -exp(u * 40)                          /* skewed, negative */
                                 : 904.1;                               /* all equal */
            a[i] = b[i] = v;
        }
        stats_sort(b, n);
        double ps[] = {0, 1e-9, 50, 90, 99.9, 100, rng_uniform(&r) * 100};
        for (size_t j = 0; j < sizeof ps / sizeof *ps; j++) {
            double got = stats_percentile(a, n, ps[j]), want = stats_percentile_sorted(b, n, ps[j]);
            CHECK(got == want);
        }
        free(a);
        free(b);
    }
    /* a range that overflows (-1e308 .. 1e308) and infinities: the buckets
     * cannot be formed, quickselect answers */
    {
        size_t n = 100;
        double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] = i % 3 == 0 ? -1e308 : i % 3 == 1 ? 1e308 : (double)i;
        a[7] = b[7] = INFINITY;
        stats_sort(b, n);
        CHECK(stats_percentile(a, n, 50) == stats_percentile_sorted(b, n, 50));
        CHECK(stats_percentile(a, n, 100) == INFINITY);
        free(a);
        free(b);
    }

    /* median and MAD: x = 1 1 2 2 4 6 9 -> median 2, |x-2| = 1 1 0 0 2 4 7 -> MAD 1 */
    double m[] = {9, 1, 2, 6, 1, 4, 2};
    CHECK_NEAR(stats_median(m, 7), 2, 0);
    double m2[] = {9, 1, 2, 6, 1, 4, 2};
    CHECK_NEAR(stats_mad(m2, 7), 1, 0);

    /* Welford: mean 5, sample variance 32/7 for 2 4 4 4 5 5 7 9 */
    struct stats_acc acc = {0}, a1 = {0}, a2 = {0};
    double w[] = {2, 4, 4, 4, 5, 5, 7, 9};
    for (int i = 0; i < 8; i++) {
        stats_acc_add(&acc, w[i]);
        stats_acc_add(i < 3 ? &a1 : &a2, w[i]);
    }
    CHECK_NEAR(acc.mean, 5, 1e-12);
    CHECK_NEAR(stats_acc_var(&acc), 32.0 / 7, 1e-12);
    CHECK_NEAR(acc.min, 2, 0);
    CHECK_NEAR(acc.max, 9, 0);
    stats_acc_merge(&a1, &a2);
    CHECK_NEAR(a1.mean, 5, 1e-12);
    CHECK_NEAR(stats_acc_var(&a1), 32.0 / 7, 1e-12);
    /* stability: large offset */
    struct stats_acc big = {0};
    for (int i = 0; i < 8; i++)
        stats_acc_add(&big, 1e9 + w[i]);
    CHECK_NEAR(stats_acc_var(&big), 32.0 / 7, 1e-6);

    CHECK(stats_gcd(3600, 86400) == 3600);
    CHECK(stats_lcm(3600, 5400) == 10800);
    CHECK(stats_lcm(1099511627777LL, 1099511627779LL) == 0); /* coprime, product overflows */

    /* RNG: same seed same stream, different keys different streams, ranges */
    rng x, y;
    rng_seed(&x, 7);
    rng_seed(&y, 7);
    int same = 1;
    for (int i = 0; i < 100; i++)
        same &= rng_u64(&x) == rng_u64(&y);
    CHECK(same);
    rng_seed_key(&x, 7, "job-a");
    rng_seed_key(&y, 7, "job-b");
    CHECK(rng_u64(&x) != rng_u64(&y));
    double sum = 0, sum2 = 0;
    int inrange = 1;
    for (int i = 0; i < 100000; i++) {
        double u = rng_uniform(&x);
        inrange &= u >= 0 && u < 1;
        double g = rng_normal(&x);
        sum += g;
        sum2 += g * g;
        inrange &= rng_below(&x, 10) < 10;
    }
    CHECK(inrange);
    CHECK_NEAR(sum / 100000, 0, 0.02);
    CHECK_NEAR(sum2 / 100000, 1, 0.03);
    double ps = 0;
    for (int i = 0; i < 20000; i++)
        ps += (double)rng_poisson(&x, 3.5);
    CHECK_NEAR(ps / 20000, 3.5, 0.06);

    /* heap: pops in key order, ties in insertion order */
    heap h;
    heap_init(&h);
    double keys[] = {5, 1, 3, 1, 4, 1};
    for (int i = 0; i < 6; i++)
        heap_push(&h, keys[i], (uint64_t)i);
    struct heap_item it;
    uint64_t order[6];
    int k = 0;
    while (heap_pop(&h, &it))
        order[k++] = it.val;
    CHECK(k == 6);
    CHECK(order[0] == 1 && order[1] == 3 && order[2] == 5 && order[3] == 2 && order[4] == 4 && order[5] == 0);
    heap_free(&h);

    /* keyset and group tracking */
    keyset *ks = keyset_new();
    char name[32];
    int added = 0;
    for (int i = 0; i < 1000; i++) {
        snprintf(name, sizeof name, "k%d", i % 700);
        added += keyset_add(ks, name);
    }
    CHECK(added == 700);
    CHECK(keyset_size(ks) == 700);
    CHECK(keyset_has(ks, "k699") && !keyset_has(ks, "k700"));
    keyset_free(ks);
    /* keyset_key: the key of each row number, rows numbered in order of first
     * appearance and kept through the table's growth (5000 keys: several
     * rehashes of the 64-slot start) */
    ks = keyset_new();
    int keys_ok = 1;
    for (int i = 0; i < 10000; i++) {
        int kk = (i * 7919) % 5000; /* 7919 is prime to 5000: each kk once in i < 5000, then again */
        snprintf(name, sizeof name, "n%d", kk);
        int was_new;
        long row = keyset_intern(ks, name, &was_new);
        keys_ok &= was_new == (i < 5000) && row == (i < 5000 ? i : i - 5000);
    }
    CHECK(keys_ok);
    for (long row = 0; row < 5000; row++) {
        snprintf(name, sizeof name, "n%ld", (row * 7919) % 5000);
        keys_ok &= keyset_key(ks, row) && strcmp(keyset_key(ks, row), name) == 0 &&
                   keyset_row(ks, keyset_key(ks, row)) == row;
    }
    CHECK(keys_ok);
    CHECK_STR(keyset_key(ks, 0), "n0");
    CHECK_STR(keyset_key(ks, 1), "n2919");
    CHECK(keyset_key(ks, -1) == NULL && keyset_key(ks, 5000) == NULL);
    keyset_free(ks);
    group_tracker g;
    group_init(&g);
    CHECK(group_check(&g, "a") == 1);
    CHECK(group_check(&g, "a") == 0);
    CHECK(group_check(&g, "b") == 1);
    CHECK(group_check(&g, "a") == -1);
    group_free(&g);
    return unit_done("stats-rng-heap-keyset");
}
