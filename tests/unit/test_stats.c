/* Unit tests for lib/base/stats, lib/base/rng, lib/base/heap, lib/base/keyset against hand-worked values. */
#include "base/heap.h"
#include "base/keyset.h"
#include "base/rng.h"
#include "base/stats.h"
#include "unit.h"

#include <stdlib.h>

int main(void)
{
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
    group_tracker g;
    group_init(&g);
    CHECK(group_check(&g, "a") == 1);
    CHECK(group_check(&g, "a") == 0);
    CHECK(group_check(&g, "b") == 1);
    CHECK(group_check(&g, "a") == -1);
    group_free(&g);
    return unit_done("stats-rng-heap-keyset");
}
