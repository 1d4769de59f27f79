/* stats — percentiles, median, MAD, running moments (see stats.h). */
#include "base/stats.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void stats_sort(double *x, size_t n) { qsort(x, n, sizeof *x, cmp_double); }

double stats_percentile_sorted(const double *x, size_t n, double p)
{
    if (n == 0)
        return NAN;
    if (p <= 0)
        return x[0];
    if (p >= 100)
        return x[n - 1];
    double h = (double)(n - 1) * p / 100.0;
    size_t lo = (size_t)floor(h);
    if (lo + 1 >= n)
        return x[n - 1];
    double f = h - (double)lo;
    return x[lo] + f * (x[lo + 1] - x[lo]);
}

/* Hoare-style quickselect: place the k-th smallest at x[k]. */
static void select_kth(double *x, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (hi > lo) {
        /* median of three keeps sorted inputs linear */
        size_t mid = lo + (hi - lo) / 2;
        double a = x[lo], b = x[mid], c = x[hi];
        double pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        size_t i = lo, j = hi;
        while (i <= j) {
            while (x[i] < pivot)
                i++;
            while (x[j] > pivot)
                j--;
            if (i <= j) {
                double t = x[i];
                x[i] = x[j];
                x[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return;
    }
}

double stats_percentile(double *x, size_t n, double p)
{
    if (n == 0)
        return NAN;
    if (p <= 0)
        p = 0;
    if (p >= 100)
        p = 100;
    double h = (double)(n - 1) * p / 100.0;
    size_t lo = (size_t)floor(h);
    if (lo >= n - 1) {
        select_kth(x, n, n - 1);
        return x[n - 1];
    }
    select_kth(x, n, lo);
    double a = x[lo];
    /* the next order statistic is the minimum of the upper part */
    double b = x[lo + 1];
    for (size_t i = lo + 2; i < n; i++)
        if (x[i] < b)
            b = x[i];
    return a + (h - (double)lo) * (b - a);
}

double stats_median(double *x, size_t n) { return stats_percentile(x, n, 50); }

double stats_mad(double *x, size_t n)
{
    if (n == 0)
        return NAN;
    double m = stats_median(x, n);
    for (size_t i = 0; i < n; i++)
        x[i] = fabs(x[i] - m);
    return stats_median(x, n);
}

void stats_acc_add(struct stats_acc *a, double x)
{
    if (a->n == 0) {
        a->min = a->max = x;
    } else {
        if (x < a->min)
            a->min = x;
        if (x > a->max)
            a->max = x;
    }
    a->n++;
    a->sum += x;
    double d = x - a->mean;
    a->mean += d / (double)a->n;
    a->m2 += d * (x - a->mean);
}

double stats_acc_var(const struct stats_acc *a)
{
    return a->n < 2 ? 0.0 : a->m2 / (double)(a->n - 1);
}

double stats_acc_sd(const struct stats_acc *a) { return sqrt(stats_acc_var(a)); }

void stats_acc_merge(struct stats_acc *a, const struct stats_acc *b)
{
    if (b->n == 0)
        return;
    if (a->n == 0) {
        *a = *b;
        return;
    }
    double n = (double)(a->n + b->n);
    double d = b->mean - a->mean;
    a->m2 += b->m2 + d * d * (double)a->n * (double)b->n / n;
    a->mean += d * (double)b->n / n;
    a->n += b->n;
    a->sum += b->sum;
    if (b->min < a->min)
        a->min = b->min;
    if (b->max > a->max)
        a->max = b->max;
}

long long stats_gcd(long long a, long long b)
{
    if (a < 0)
        a = -a;
    if (b < 0)
        b = -b;
    while (b) {
        long long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

long long stats_lcm(long long a, long long b)
{
    if (a <= 0 || b <= 0)
        return 0;
    long long g = stats_gcd(a, b);
    long long q = a / g;
    if (q > __LONG_LONG_MAX__ / b)
        return 0;
    return q * b;
}
