/* Unit tests for the tenant-class steps of the harvesting paper (§4.1):
 * lib/harvest/pattern (resampling, lag correlation, high percentile, the
 * FFT rule), lib/harvest/classes (automatic k), lib/harvest/tenantio
 * (several readers == one reader, compressed input read by one reader) and
 * csvio's range readers.  Expected values are worked by hand or computed
 * here independently (a naive DFT, a sort-based percentile). */
#include "base/csvio.h"
#include "base/diag.h"
#include "base/rng.h"
#include "base/stats.h"
#include "harvest/classes.h"
#include "harvest/pattern.h"
#include "harvest/tenantio.h"
#include "unit.h"

#include <stdlib.h>
#include <unistd.h>

static void test_resample(void)
{
    pattern_ws ws = {0};
    size_t nb;
    long miss;
    /* 0.2 (t=0) and 0.4 (t=60) share step 0 (0.3); 0.8 at t=360 is step 3;
     * steps 1 and 2 are filled on the line from 0.3 to 0.8 */
    double t[] = {0, 60, 360}, u[] = {0.2, 0.4, 0.8};
    double *x = pattern_resample(&ws, t, u, 3, 120, &nb, &miss);
    CHECK(x && nb == 4 && miss == 2);
    CHECK_NEAR(x[0], 0.3, 1e-15);
    CHECK_NEAR(x[1], 0.3 + 0.5 / 3, 1e-15);
    CHECK_NEAR(x[2], 0.3 + 1.0 / 3, 1e-15);
    CHECK_NEAR(x[3], 0.8, 1e-15);
    /* samples out of order land in the same steps */
    double t2[] = {360, 0, 60}, u2[] = {0.8, 0.2, 0.4};
    x = pattern_resample(&ws, t2, u2, 3, 120, &nb, &miss);
    CHECK(x && nb == 4 && miss == 2 && fabs(x[0] - 0.3) < 1e-15);
    /* on the grid already: copied */
    double t3[] = {240, 360, 480}, u3[] = {0.1, 0.2, 0.3};
    x = pattern_resample(&ws, t3, u3, 3, 120, &nb, &miss);
    CHECK(x && nb == 3 && miss == 0 && x[2] == 0.3);
    /* a span of 1e15 s at 120 s: 8,333,333,333,334 steps, refused */
    double t4[] = {0, 1e15}, u4[] = {0.1, 0.2};
    CHECK(pattern_resample(&ws, t4, u4, 2, 120, &nb, &miss) == NULL && nb == 8333333333334ULL);
    size_t gnb;
    long gmiss;
    CHECK(pattern_gaps(&ws, t4, 2, 120, &gnb, &gmiss) == -1 && gnb == 8333333333334ULL);
    pattern_ws_free(&ws);

    /* pattern_gaps gives resample's steps and gaps without its grid: two
     * samples 5.4e9 s apart (fuzz round 10: 706 MB and 8.6 s through the
     * grid) are 45,000,001 steps of 120 s, all but the two ends gaps */
    double t5[] = {7167571200, 1767571260};
    CHECK(pattern_gaps(&ws, t5, 2, 120, &gnb, &gmiss) == 0 && gnb == 45000001 && gmiss == 44999999);
    CHECK(ws.cap_bin == 0 && ws.cap_cnt <= 16); /* no grid was made */
    pattern_ws_free(&ws);
    /* and the same answers as resample on the cases above and on random
     * series: any order, several samples a step, gaps, the fast path */
    CHECK(pattern_gaps(&ws, t, 3, 120, &gnb, &gmiss) == 0 && gnb == 4 && gmiss == 2);
    CHECK(pattern_gaps(&ws, t3, 3, 120, &gnb, &gmiss) == 0 && gnb == 3 && gmiss == 0);
    rng r;
    rng_seed(&r, 10);
    int same = 0;
    for (int k = 0; k < 200; k++) {
        double tt[64], uu[64];
        size_t n = 1 + rng_below(&r, 64);
        double step = k % 3 ? 60 : 7.5, base = (double)rng_below(&r, 1000) * (k % 2 ? 1 : 0.37);
        for (size_t i = 0; i < n; i++) {
            tt[i] = k % 5 == 0 ? base + (double)i * step : base + (double)rng_below(&r, 400) * 0.5 * step;
            uu[i] = rng_uniform(&r);
        }
        if (k % 7 == 0)
            tt[rng_below(&r, n)] = base + 3000 * step; /* a far sample: a long gap */
        pattern_resample(&ws, tt, uu, n, step, &nb, &miss);
        same += pattern_gaps(&ws, tt, n, step, &gnb, &gmiss) == 0 && gnb == nb && gmiss == miss;
    }
    CHECK(same == 200);
    pattern_ws_free(&ws);
}

static void test_lag_and_percentile(void)
{
    double up[] = {1, 2, 3, 4}, alt[] = {1, -1, 1, -1}, flat[] = {2, 2, 2, 2};
    CHECK_NEAR(pattern_lag_correlation(up, 4, 1), 1, 1e-15);
    CHECK_NEAR(pattern_lag_correlation(alt, 4, 1), -1, 1e-15);
    CHECK(pattern_lag_correlation(flat, 4, 1) == 0);
    CHECK(pattern_lag_correlation(up, 4, 0) == 0 && pattern_lag_correlation(up, 4, 4) == 0);
    /* 1..101 shuffled: type 7 at p = 99 is the value of rank 99 (0-based) = 100 */
    double v[101], s[1000]; /* s: scratch for the longest series below */
    rng r;
    rng_seed(&r, 3);
    for (int i = 0; i < 101; i++)
        v[i] = i + 1;
    for (int i = 100; i > 0; i--) {
        int j = (int)(rng_uniform(&r) * (i + 1));
        double tmp = v[i];
        v[i] = v[j];
        v[j] = tmp;
    }
    CHECK(pattern_high_percentile(v, 101, 99, s) == 100);
    CHECK_NEAR(pattern_high_percentile(v, 101, 99.5, s), 100.5, 1e-12);
    /* against the sort-based stats_percentile on random data */
    double x[1000], c[1000];
    for (int i = 0; i < 1000; i++)
        x[i] = rng_uniform(&r);
    double ps[] = {0, 50, 90, 99, 99.9, 100};
    for (size_t k = 0; k < sizeof ps / sizeof *ps; k++) {
        memcpy(c, x, sizeof x);
        CHECK(pattern_high_percentile(x, 1000, ps[k], s) == stats_percentile(c, 1000, ps[k]));
    }
}

static const struct pattern_rules rules = {.step = 3600, .nperiods = 2, .periods = {86400, 604800}, .min_cycles = 2,
                                           .harmonics = 6, .periodic_min = 0.3, .repeat_min = 0.5,
                                           .constant_max = 0.03, .low_period = 3600, .peak_pct = 99};

/* the share of x's variance in the comb of period T, by a naive DFT */
static double naive_strength(const double *x, size_t n, double step, double T, int H)
{
    double mean = 0, p[200] = {0}, total = 0, comb = 0;
    for (size_t i = 0; i < n; i++)
        mean += x[i] / (double)n;
    for (size_t k = 1; k <= n / 2; k++) {
        double re = 0, im = 0;
        for (size_t j = 0; j < n; j++) {
            re += (x[j] - mean) * cos(2 * M_PI * (double)(k * j) / (double)n);
            im -= (x[j] - mean) * sin(2 * M_PI * (double)(k * j) / (double)n);
        }
        p[k] = (k * 2 == n ? 1 : 2) * (re * re + im * im) / ((double)n * (double)n);
        total += p[k];
    }
    double k0 = (double)n * step / T;
    char in[200] = {0};
    for (int m = 1; m <= H; m++)
        for (long k = lround(m * k0) - 1; k <= lround(m * k0) + 1; k++)
            if (k >= 1 && k <= (long)n / 2)
                in[k] = 1;
    for (size_t k = 1; k <= n / 2; k++)
        comb += in[k] ? p[k] : 0;
    return comb / total;
}

static void test_classify(void)
{
    fft_cache *fc = fft_cache_new();
    pattern_ws ws = {0};
    double x[96];
    struct pattern_features f;
    /* daily cosine 0.5 + 0.2 cos(2 pi h / 24), hourly, 4 days: mean 0.5, sd 0.2/sqrt 2, all in the daily comb */
    for (int i = 0; i < 96; i++)
        x[i] = 0.5 + 0.2 * cos(2 * M_PI * i / 24.0);
    CHECK(pattern_classify(fc, &ws, x, 96, &rules, &f) == 0);
    CHECK(f.pattern == PATTERN_PERIODIC && f.period == 86400);
    CHECK_NEAR(f.avg, 0.5, 1e-12);
    CHECK_NEAR(f.sd, 0.2 / sqrt(2), 1e-12);
    CHECK_NEAR(f.strength, 1, 1e-12);
    CHECK_NEAR(f.repeat, 1, 1e-12);
    /* flat: constant, no variance, no period */
    for (int i = 0; i < 96; i++)
        x[i] = 0.3;
    CHECK(pattern_classify(fc, &ws, x, 96, &rules, &f) == 0);
    CHECK(f.pattern == PATTERN_CONSTANT && f.avg == 0.3 && f.sd == 0 && f.strength == 0);
    /* a ramp 0..0.95: slow variation (sd of the ramp), weak daily comb: unpredictable */
    double var = 0;
    for (int i = 0; i < 96; i++)
        x[i] = i / 100.0;
    for (int i = 0; i < 96; i++)
        var += (x[i] - 0.475) * (x[i] - 0.475) / 96;
    CHECK(pattern_classify(fc, &ws, x, 96, &rules, &f) == 0);
    CHECK_NEAR(f.sd, sqrt(var), 1e-12);
    CHECK_NEAR(f.strength, naive_strength(x, 96, 3600, 86400, 6), 1e-9);
    CHECK(f.strength < 0.3 && f.pattern == PATTERN_UNPREDICTABLE);
    CHECK_STR(pattern_name(PATTERN_UNPREDICTABLE), "unpredictable");
    CHECK(pattern_from_name("constant") == PATTERN_CONSTANT && pattern_from_name("bursty") == -1);
    pattern_ws_free(&ws);
    fft_cache_free(fc);
}

static void test_auto_k(void)
{
    /* two pairs 0.02 apart, 0.4 between the pairs */
    double x[] = {0.10, 0.10, 0.12, 0.12, 0.50, 0.50, 0.52, 0.52};
    int a[4], k;
    double rms;
    double *c = classes_kmeans_auto(x, 4, 2, 0, 20, 0.05, 1, 4, 300, a, &k, &rms);
    /* k = 1: squared distances to (0.31, 0.31) are 2(0.21^2), 2(0.19^2) twice, 2(0.21^2): rms 0.283 > 0.05 */
    CHECK(k == 2 && a[0] == a[1] && a[2] == a[3] && a[0] != a[2]);
    CHECK_NEAR(rms, 0.01 * sqrt(2), 1e-12);
    CHECK_NEAR(c[0], 0.11, 1e-12);
    CHECK_NEAR(c[2], 0.51, 1e-12);
    free(c);
    c = classes_kmeans_auto(x, 4, 2, 0, 20, 0.3, 1, 4, 300, a, &k, &rms);
    CHECK(k == 1);
    CHECK_NEAR(rms, sqrt((0.0882 + 0.0722 + 0.0722 + 0.0882) / 4), 1e-12);
    free(c);
    c = classes_kmeans_auto(x, 4, 2, 5, 20, 0.05, 1, 4, 300, a, &k, &rms); /* fixed 5, capped at 4 points */
    CHECK(k == 4 && rms == 0);
    free(c);
}

/* a small grouped series: 12 tenants x 3 days hourly, every third tenant periodic */
static void write_series(const char *path)
{
    FILE *f = fopen(path, "w");
    fprintf(f, "tenant,t,util\n");
    for (int i = 0; i < 12; i++)
        for (int h = 0; h < 72; h++)
            fprintf(f, "t%02d,%d,%.4f\n", i, h * 3600,
                    i % 3 == 0 ? 0.5 + 0.3 * cos(2 * M_PI * h / 24.0) : i % 3 == 1 ? 0.2 : (h * 37 % 11) / 11.0);
    fclose(f);
}

static void test_range_reader(const char *path)
{
    int st;
    csvr *h = csvr_open_with(path, NULL, 0, &st);
    CHECK(h != NULL);
    /* line 1 is the header, line 2 starts at byte 14 ("tenant,t,util\n") */
    CHECK(csvr_line_start(path, 0, 2) == 14);
    long long cut = csvr_line_start(path, 0, 11); /* the start of line 11 */
    struct csvr_range r0 = {0, cut, NULL, NULL, NULL}, r1 = {cut, -1, h, NULL, NULL};
    csvr *a = csvr_open_range(path, NULL, &r0, &st), *b = csvr_open_range(path, NULL, &r1, &st);
    CHECK(a && b);
    long na = 0, nb = 0;
    while (csvr_next(a) > 0)
        na++;
    CHECK(csvr_next(b) > 0 && csvr_line(b) == 1 && strcmp(csvr_field(b, 0), "t00") == 0);
    nb = 1;
    while (csvr_next(b) > 0)
        nb++;
    CHECK(na == 9 && nb == 12 * 72 - 9);
    CHECK(csvr_lines(a) == 10 && csvr_lines(b) == 12 * 72 - 9);
    CHECK(csvr_col(b, "util") == 2);
    csvr_close(a);
    csvr_close(b);
    csvr_close(h);
}

static long nmsg, msg_line;
static void on_msg(void *ctx, long line, const char *m)
{
    (void)ctx;
    (void)m;
    nmsg++;
    msg_line = line;
}

static void test_range_errors(void)
{
    char path[] = "/tmp/test_tenants_bad_XXXXXX";
    int fd = mkstemp(path);
    const char text[] = "tenant,t,util\na,0,0.1\na,60,0.1\nb,0\n";
    CHECK(write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
    close(fd);
    int st;
    csvr *h = csvr_open_with(path, NULL, 0, &st);
    struct csvr_range rg = {csvr_line_start(path, 0, 3), -1, h, on_msg, NULL};
    csvr *r = csvr_open_range(path, NULL, &rg, &st);
    CHECK(r && csvr_next(r) == 1 && csvr_next(r) == -1); /* the ragged row, line 2 of the range */
    CHECK(nmsg == 1 && msg_line == 2 && csvr_status(r) == SLK_EDATA);
    csvr_close(r);
    struct csvr_range empty = {10, 10, h, on_msg, NULL};
    r = csvr_open_range(path, NULL, &empty, &st);
    CHECK(r && csvr_next(r) == 0);
    csvr_close(r);
    csvr_close(h);
    unlink(path);
}

static int same_sets(const struct tenant_set *a, const struct tenant_set *b)
{
    if (a->n != b->n || a->samples != b->samples)
        return 0;
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->rows[i].tenant, b->rows[i].tenant) != 0 || a->rows[i].pf.avg != b->rows[i].pf.avg ||
            a->rows[i].pf.pattern != b->rows[i].pf.pattern || a->rows[i].pf.strength != b->rows[i].pf.strength)
            return 0;
    return 1;
}

static void test_readers(const char *path, const char *gz)
{
    struct tenantio_opts o = {.rules = rules, .max_missing = 0.5, .min_samples = 16, .max_tenants = 1000,
                              .threads = 1, .range_min = 1};
    struct tenant_set one = {0}, three = {0}, z = {0};
    CHECK(tenantio_readers(path, &o) == 1);
    CHECK(tenantio_read_series(path, &o, &one, NULL) == SLK_OK);
    o.threads = 3;
    CHECK(tenantio_readers(path, &o) == 3);
    CHECK(tenantio_readers(gz, &o) == 1); /* compressed: one stream */
    CHECK(tenantio_read_series(path, &o, &three, NULL) == SLK_OK);
    CHECK(tenantio_read_series(gz, &o, &z, NULL) == SLK_OK);
    CHECK(one.n == 12 && one.samples == 12 * 72);
    CHECK(same_sets(&one, &three) && same_sets(&one, &z));
    int periodic = 0;
    for (size_t i = 0; i < one.n; i++)
        periodic += one.rows[i].pf.pattern == PATTERN_PERIODIC;
    CHECK(periodic == 4);
    tenant_set_free(&one);
    tenant_set_free(&three);
    tenant_set_free(&z);
}

int main(void)
{
    slk_init("test_tenants");
    test_resample();
    test_lag_and_percentile();
    test_classify();
    test_auto_k();
    char path[] = "/tmp/test_tenants_XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    write_series(path);
    char gz[64], cmd[160];
    snprintf(gz, sizeof gz, "%s.gz", path);
    snprintf(cmd, sizeof cmd, "gzip -c %s > %s", path, gz);
    CHECK(system(cmd) == 0);
    test_range_reader(path);
    test_range_errors();
    test_readers(path, gz);
    unlink(path);
    unlink(gz);
    return unit_done("tenants-pattern-classes-ranges");
}
