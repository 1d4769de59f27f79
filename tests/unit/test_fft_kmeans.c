/* Unit tests for lib/harvest/fft (against a naive O(n^2) DFT) and lib/kmeans
 * (against hand-worked clusterings). */
#include "harvest/fft.h"
#include "harvest/kmeans.h"
#include "base/rng.h"
#include "unit.h"

#include <stdlib.h>

static void naive_dft(const double *x, size_t n, double *re, double *im)
{
    for (size_t k = 0; k <= n / 2; k++) {
        long double sr = 0, si = 0;
        for (size_t j = 0; j < n; j++) {
            long double a = -2.0L * 3.141592653589793238462643383279L * (long double)((k * j) % n) / (long double)n;
            sr += (long double)x[j] * cosl(a);
            si += (long double)x[j] * sinl(a);
        }
        re[k] = (double)sr;
        im[k] = (double)si;
    }
}

int main(void)
{
    fft_cache *c = fft_cache_new();
    rng r;
    rng_seed(&r, 7);
    size_t lens[] = {1, 2, 3, 5, 8, 12, 17, 30, 97, 100, 360};
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
        size_t n = lens[li];
        double *x = malloc(n * sizeof *x), *re = malloc((n / 2 + 1) * sizeof *re), *im = malloc((n / 2 + 1) * sizeof *im);
        double *nr = malloc((n / 2 + 1) * sizeof *nr), *ni = malloc((n / 2 + 1) * sizeof *ni);
        double *p = malloc((n / 2 + 1) * sizeof *p);
        double mean = 0;
        for (size_t i = 0; i < n; i++) {
            x[i] = rng_uniform(&r) * 2 - 0.5;
            mean += x[i];
        }
        mean /= (double)n;
        CHECK(fft_r2c(c, x, n, re, im) == 0);
        naive_dft(x, n, nr, ni);
        double err = 0;
        for (size_t k = 0; k <= n / 2; k++) {
            err = fmax(err, fabs(re[k] - nr[k]));
            err = fmax(err, fabs(im[k] - ni[k]));
        }
        CHECK_NEAR(err, 0, 1e-9 * (double)n);
        /* Parseval: the one-sided power spectrum sums to the population variance */
        double var = 0;
        for (size_t i = 0; i < n; i++)
            var += (x[i] - mean) * (x[i] - mean);
        var /= (double)n;
        CHECK(fft_power(c, x, n, p) == 0);
        double sp = 0;
        for (size_t k = 0; k <= n / 2; k++)
            sp += p[k];
        CHECK_NEAR(sp, var, 1e-12);
        free(x); free(re); free(im); free(nr); free(ni); free(p);
    }
    /* a pure cosine of 3 cycles in 24 samples, amplitude 2: all power (a^2/2 = 2) at k = 3 */
    {
        double x[24], p[13];
        for (int i = 0; i < 24; i++)
            x[i] = 5 + 2 * cos(2 * M_PI * 3 * i / 24.0);
        CHECK(fft_power(c, x, 24, p) == 0);
        CHECK_NEAR(p[3], 2.0, 1e-12);
        double rest = 0;
        for (int k = 0; k <= 12; k++)
            if (k != 3)
                rest += p[k];
        CHECK_NEAR(rest, 0, 1e-12);
    }
    /* plans are reused: lengths 100 and 360 were planned once each above */
    size_t before = fft_cache_plans(c);
    double y[100], yr[51], yi[51];
    for (int i = 0; i < 100; i++)
        y[i] = i % 7;
    CHECK(fft_r2c(c, y, 100, yr, yi) == 0);
    CHECK(fft_cache_plans(c) == before);
    CHECK(fft_r2c(c, y, 0, yr, yi) == -1);
    fft_cache_free(c);

    /* K-Means, hand-worked: {0, 1, 10, 11}, k = 2 -> centers 0.5 and 10.5, SSE 4 x 0.25 = 1 */
    {
        double x[] = {11, 0, 10, 1}, cent[2], sse;
        int a[4];
        CHECK(kmeans_fit(x, 4, 1, 2, 1, 1, 100, cent, a, &sse) >= 1);
        CHECK_NEAR(cent[0], 0.5, 1e-15);
        CHECK_NEAR(cent[1], 10.5, 1e-15);
        CHECK_NEAR(sse, 1.0, 1e-15);
        CHECK(a[0] == 1 && a[1] == 0 && a[2] == 1 && a[3] == 0);
    }
    /* 2-D, hand-worked: three tight pairs; k = 3 finds the pairs whatever the seed.
     * (0,0),(0,2) -> (0,1); (10,0),(10,2) -> (10,1); (5,10),(7,10) -> (6,10); SSE = 6 x 1 = 6 */
    for (uint64_t seed = 1; seed <= 20; seed++) {
        double x[] = {10, 0, 0, 0, 5, 10, 0, 2, 10, 2, 7, 10}, cent[6], sse;
        int a[6];
        CHECK(kmeans_fit(x, 6, 2, 3, seed, 4, 100, cent, a, &sse) >= 1);
        CHECK_NEAR(sse, 6.0, 1e-12);
        CHECK_NEAR(cent[0], 0, 0); CHECK_NEAR(cent[1], 1, 0);
        CHECK_NEAR(cent[2], 6, 0); CHECK_NEAR(cent[3], 10, 0);
        CHECK_NEAR(cent[4], 10, 0); CHECK_NEAR(cent[5], 1, 0);
    }
    /* k = 1: the mean; k = n: every point its own center, SSE 0 */
    {
        double x[] = {1, 2, 6}, cent[3], sse;
        int a[3];
        CHECK(kmeans_fit(x, 3, 1, 1, 9, 1, 10, cent, a, &sse) >= 1);
        CHECK_NEAR(cent[0], 3, 1e-15);
        CHECK_NEAR(sse, 4 + 1 + 9, 1e-12);
        CHECK(kmeans_fit(x, 3, 1, 3, 9, 1, 10, cent, a, &sse) >= 1);
        CHECK_NEAR(sse, 0, 0);
        CHECK(a[0] == 0 && a[1] == 1 && a[2] == 2);
        CHECK(kmeans_fit(x, 3, 1, 4, 9, 1, 10, cent, a, &sse) == -1);
        CHECK(kmeans_fit(x, 0, 1, 1, 9, 1, 10, cent, a, &sse) == -1);
    }
    /* duplicates: k larger than the distinct points still terminates */
    {
        double x[] = {3, 3, 3, 3}, cent[2];
        int a[4];
        CHECK(kmeans_distinct(x, 4, 1) == 1);
        CHECK(kmeans_fit(x, 4, 1, 2, 5, 2, 10, cent, a, NULL) >= 1);
        CHECK_NEAR(cent[0], 3, 0);
    }
    /* determinism: same seed, same result on random data */
    {
        size_t n = 500;
        double *x = malloc(n * 2 * sizeof *x), c1[10], c2[10];
        int *a1 = malloc(n * sizeof *a1), *a2 = malloc(n * sizeof *a2);
        for (size_t i = 0; i < 2 * n; i++)
            x[i] = rng_uniform(&r);
        kmeans_fit(x, n, 2, 5, 42, 3, 100, c1, a1, NULL);
        kmeans_fit(x, n, 2, 5, 42, 3, 100, c2, a2, NULL);
        CHECK(memcmp(c1, c2, sizeof c1) == 0);
        CHECK(memcmp(a1, a2, n * sizeof *a1) == 0);
        free(x); free(a1); free(a2);
    }
    return unit_done("fft_kmeans");
}
