/* kmeans — seeded, deterministic K-Means with k-means++ seeding (see kmeans.h).
 *
 * Tuned for small feature tables (thousands of tenants, 2 to a few features,
 * k up to a few dozen): plain O(n k dim) assignment per iteration. */
#include "harvest/kmeans.h"
#include "base/diag.h"
#include "base/rng.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

static double dist2(const double *a, const double *b, int dim)
{
    double s = 0;
    for (int j = 0; j < dim; j++) {
        double d = a[j] - b[j];
        s += d * d;
    }
    return s;
}

/* k-means++: first center uniform, each next one drawn with probability
 * proportional to the squared distance to the nearest chosen center. */
static void seed_plusplus(const double *x, size_t n, int dim, int k, rng *r, double *c, double *d2)
{
    size_t first = (size_t)rng_below(r, n);
    memcpy(c, x + first * (size_t)dim, (size_t)dim * sizeof *c);
    for (size_t i = 0; i < n; i++)
        d2[i] = dist2(x + i * (size_t)dim, c, dim);
    for (int j = 1; j < k; j++) {
        double tot = 0;
        for (size_t i = 0; i < n; i++)
            tot += d2[i];
        size_t pick = 0;
        if (tot > 0) {
            double u = rng_uniform(r) * tot, acc = 0;
            pick = n - 1;
            for (size_t i = 0; i < n; i++) {
                acc += d2[i];
                if (acc > u && d2[i] > 0) {
                    pick = i;
                    break;
                }
            }
            while (d2[pick] <= 0 && pick > 0) /* rounding at the very end */
                pick--;
        } else {
            pick = (size_t)rng_below(r, n); /* all points coincide with centers */
        }
        double *cj = c + (size_t)j * (size_t)dim;
        memcpy(cj, x + pick * (size_t)dim, (size_t)dim * sizeof *c);
        for (size_t i = 0; i < n; i++) {
            double d = dist2(x + i * (size_t)dim, cj, dim);
            if (d < d2[i])
                d2[i] = d;
        }
    }
}

/* One Lloyd run from the centers in c.  Returns iterations; sets *sse. */
static int lloyd(const double *x, size_t n, int dim, int k, int max_iter, double *c, int *a, double *sse,
                 double *sum, size_t *cnt)
{
    for (size_t i = 0; i < n; i++)
        a[i] = -1;
    int it;
    for (it = 1; it <= max_iter; it++) {
        int changed = 0;
        for (size_t i = 0; i < n; i++) {
            const double *xi = x + i * (size_t)dim;
            int best = 0;
            double bd = dist2(xi, c, dim);
            for (int j = 1; j < k; j++) {
                double d = dist2(xi, c + (size_t)j * (size_t)dim, dim);
                if (d < bd) {
                    bd = d;
                    best = j;
                }
            }
            if (a[i] != best) {
                a[i] = best;
                changed = 1;
            }
        }
        memset(sum, 0, (size_t)k * (size_t)dim * sizeof *sum);
        memset(cnt, 0, (size_t)k * sizeof *cnt);
        for (size_t i = 0; i < n; i++) {
            cnt[a[i]]++;
            for (int j = 0; j < dim; j++)
                sum[(size_t)a[i] * (size_t)dim + (size_t)j] += x[i * (size_t)dim + (size_t)j];
        }
        for (int j = 0; j < k; j++) {
            if (cnt[j] == 0) {
                /* re-seed an empty cluster with the point farthest from its center */
                size_t far = 0;
                double fd = -1;
                for (size_t i = 0; i < n; i++) {
                    double d = dist2(x + i * (size_t)dim, c + (size_t)a[i] * (size_t)dim, dim);
                    if (d > fd) {
                        fd = d;
                        far = i;
                    }
                }
                memcpy(c + (size_t)j * (size_t)dim, x + far * (size_t)dim, (size_t)dim * sizeof *c);
                a[far] = j;
                changed = 1;
                continue;
            }
            for (int m = 0; m < dim; m++)
                c[(size_t)j * (size_t)dim + (size_t)m] = sum[(size_t)j * (size_t)dim + (size_t)m] / (double)cnt[j];
        }
        if (!changed)
            break;
    }
    if (it > max_iter)
        it = max_iter;
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += dist2(x + i * (size_t)dim, c + (size_t)a[i] * (size_t)dim, dim);
    *sse = s;
    return it;
}

/* qsort_r context for cmp_center: the centers being ordered */
struct center_ctx { const double *cent; int dim; };

static int cmp_center(const void *pa, const void *pb, void *arg)
{
    const struct center_ctx *cx = arg;
    const double *a = cx->cent + (size_t)*(const int *)pa * (size_t)cx->dim;
    const double *b = cx->cent + (size_t)*(const int *)pb * (size_t)cx->dim;
    for (int j = 0; j < cx->dim; j++)
        if (a[j] != b[j])
            return a[j] < b[j] ? -1 : 1;
    return *(const int *)pa - *(const int *)pb;
}

int kmeans_fit(const double *x, size_t n, int dim, int k, uint64_t seed, int n_init, int max_iter,
               double *centers, int *assign, double *sse)
{
    if (!x || n == 0 || dim < 1 || k < 1 || (size_t)k > n || n_init < 1 || max_iter < 1)
        return -1;
    size_t kd = (size_t)k * (size_t)dim;
    double *c = xmalloc(kd * sizeof *c), *sum = xmalloc(kd * sizeof *sum);
    double *d2 = xmalloc(n * sizeof *d2);
    size_t *cnt = xmalloc((size_t)k * sizeof *cnt);
    int *a = xmalloc(n * sizeof *a);
    rng r;
    rng_seed(&r, seed);
    double best = DBL_MAX;
    int best_it = 0;
    for (int run = 0; run < n_init; run++) {
        seed_plusplus(x, n, dim, k, &r, c, d2);
        double s;
        int it = lloyd(x, n, dim, k, max_iter, c, a, &s, sum, cnt);
        if (s < best) {
            best = s;
            best_it = it;
            memcpy(centers, c, kd * sizeof *c);
            memcpy(assign, a, n * sizeof *a);
        }
    }
    /* renumber clusters in center order */
    int *order = xmalloc((size_t)k * sizeof *order), *rank = xmalloc((size_t)k * sizeof *rank);
    for (int j = 0; j < k; j++)
        order[j] = j;
    memcpy(c, centers, kd * sizeof *c);
    struct center_ctx cx = {c, dim};
    qsort_r(order, (size_t)k, sizeof *order, cmp_center, &cx);
    for (int j = 0; j < k; j++) {
        rank[order[j]] = j;
        memcpy(centers + (size_t)j * (size_t)dim, c + (size_t)order[j] * (size_t)dim, (size_t)dim * sizeof *c);
    }
    for (size_t i = 0; i < n; i++)
        assign[i] = rank[assign[i]];
    if (sse)
        *sse = best;
    free(order);
    free(rank);
    free(c);
    free(sum);
    free(d2);
    free(cnt);
    free(a);
    return best_it;
}

/* rows of dim doubles in lexicographic order; arg points to dim */
static int cmp_row(const void *pa, const void *pb, void *arg)
{
    const double *a = pa, *b = pb;
    int dim = *(const int *)arg;
    for (int j = 0; j < dim; j++)
        if (a[j] != b[j])
            return a[j] < b[j] ? -1 : 1;
    return 0;
}

size_t kmeans_distinct(const double *x, size_t n, int dim)
{
    if (n == 0)
        return 0;
    double *y = xmalloc(n * (size_t)dim * sizeof *y);
    memcpy(y, x, n * (size_t)dim * sizeof *y);
    qsort_r(y, n, (size_t)dim * sizeof *y, cmp_row, &dim);
    size_t d = 1;
    for (size_t i = 1; i < n; i++)
        if (cmp_row(y + (i - 1) * (size_t)dim, y + i * (size_t)dim, &dim) != 0)
            d++;
    free(y);
    return d;
}
