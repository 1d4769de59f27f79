/* tenantclass — classes of primary tenants from their CPU utilization
 * history (seed 003 §3 and §4.1).
 *
 *   tenant,t,util[,servers]  ->  tenant,pattern,class,avg,peak,strength
 *                                (--classes FILE: class,pattern,avg_util,peak_util,tenants,servers)
 *
 * Two phases.  The per-tenant phase (grouped input, memory for one tenant)
 * resamples each tenant to a fixed step, fills gaps, takes the FFT (FFTW,
 * one plan per length) and decides the pattern: periodic, constant or
 * unpredictable.  It can stop there and write the feature table
 * (--features-only), which is shard-safe.  The clustering phase runs K-Means
 * inside each pattern on the (avg, peak) of its tenants, over the feature
 * table of one process or over the concatenated tables of many shards
 * (--from-features); the result is the same either way, because rows are
 * clustered in tenant-name order and the seed depends only on --seed and the
 * pattern.  The model, the rules and every default are in tenantclass(1).
 */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "harvest/fft.h"
#include "base/keyset.h"
#include "harvest/kmeans.h"
#include "base/outfile.h"
#include "base/parse.h"
#include "base/rng.h"
#include "base/stats.h"
#include "base/zin.h"

#include <argp.h>
#include <errno.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { PAT_PERIODIC, PAT_CONSTANT, PAT_UNPREDICTABLE, NPAT };
static const char *const pat_name[NPAT] = {"periodic", "constant", "unpredictable"};

#define MAX_PERIODS 8

/* ---- options ---------------------------------------------------------------- */

static struct {
    double step;          /* resampling step, s */
    int percent;          /* util scale: 0 fraction (0-1), 1 percent (0-100) */
    double max_missing;   /* largest fraction of filled (missing) steps */
    long min_samples;     /* fewest steps after resampling */
    int nperiods;
    double periods[MAX_PERIODS];
    double min_cycles;
    int harmonics;
    double periodic_min;  /* comb energy share for periodic */
    double repeat_min;    /* lag-one-period correlation for periodic */
    double constant_max;  /* sd of slow variation for constant */
    double low_period;    /* "slow" = periods at least this long */
    double peak_pct;
    int k_fixed[NPAT];    /* 0: auto */
    int k_max;
    double tolerance;     /* auto k: RMS distance to class center */
    int n_init, max_iter;
    const char *classes_path;
    const char *servers_path;
    int features_only, from_features;
    long long max_tenants; /* tenants kept for the clustering phase */
} opt = {
    .step = 120, .max_missing = 0.5, .min_samples = 16, .nperiods = 2, .periods = {86400, 604800},
    .min_cycles = 2, .harmonics = 6, .periodic_min = 0.3, .repeat_min = 0.5, .constant_max = 0.03,
    .low_period = 3600, .peak_pct = 99, .k_max = 20, .tolerance = 0.05, .n_init = 4, .max_iter = 300,
    .max_tenants = 10000000,
};

static const char **inputs;
static int ninputs;
static int nthreads_opt; /* --threads; 0: the online processors, at most 8 */

enum {
    OPT_STEP = 1000, OPT_SCALE, OPT_MAX_MISSING, OPT_MIN_SAMPLES, OPT_PERIODS, OPT_MIN_CYCLES, OPT_HARMONICS,
    OPT_PERIODIC_MIN, OPT_REPEAT_MIN, OPT_CONSTANT_MAX, OPT_LOW_PERIOD, OPT_PEAK_PCT, OPT_K, OPT_K_MAX,
    OPT_TOLERANCE, OPT_N_INIT, OPT_MAX_ITER, OPT_CLASSES, OPT_SERVERS, OPT_FEATURES_ONLY, OPT_FROM_FEATURES,
    OPT_THREADS, OPT_MAX_TENANTS
};

static const struct argp_option options[] = {
    {0, 0, 0, 0, "Resampling:", 1},
    {"step", OPT_STEP, "DUR", 0, "Resample every tenant to this step (default 2m)", 1},
    {"scale", OPT_SCALE, "fraction|percent", 0, "Scale of util: 0-1 or 0-100 (default fraction); output uses the same scale", 1},
    {"max-missing", OPT_MAX_MISSING, "F", 0, "Skip a tenant when more than this share of its steps is gap (default 0.5)", 1},
    {"min-samples", OPT_MIN_SAMPLES, "N", 0, "Skip a tenant with fewer steps than this after resampling (default 16)", 1},
    {0, 0, 0, 0, "Pattern rules:", 2},
    {"periods", OPT_PERIODS, "LIST", 0, "Candidate periods, comma-separated durations (default 1d,7d)", 2},
    {"min-cycles", OPT_MIN_CYCLES, "N", 0, "A period is tested only when the series holds N cycles of it (default 2)", 2},
    {"harmonics", OPT_HARMONICS, "H", 0, "Harmonics of a period counted in its strength (default 6)", 2},
    {"periodic-min", OPT_PERIODIC_MIN, "S", 0, "Periodic when the strength of the best period is at least S (default 0.3)", 2},
    {"repeat-min", OPT_REPEAT_MIN, "R", 0, "...and the series correlates at least R with itself one period later (default 0.5)", 2},
    {"constant-max", OPT_CONSTANT_MAX, "SD", 0, "Constant when the slow variation has at most this standard deviation, in 0-1 units (default 0.03)", 2},
    {"low-period", OPT_LOW_PERIOD, "DUR", 0, "Slow variation: periods at least this long (default 1h)", 2},
    {"peak-pct", OPT_PEAK_PCT, "P", 0, "Peak utilization is this percentile of the resampled series (default 99)", 2},
    {0, 0, 0, 0, "Clustering:", 3},
    {"k", OPT_K, "SPEC", 0, "Classes per pattern: auto, N, or periodic=N,constant=N,unpredictable=N (default auto)", 3},
    {"k-max", OPT_K_MAX, "N", 0, "Most classes per pattern for auto (default 20)", 3},
    {"tolerance", OPT_TOLERANCE, "D", 0, "Auto k: the smallest k whose RMS distance to the class center is at most D (default 0.05)", 3},
    {"n-init", OPT_N_INIT, "N", 0, "K-Means++ seedings per fit, best SSE wins (default 4)", 3},
    {"max-iter", OPT_MAX_ITER, "N", 0, "Lloyd iterations per seeding (default 300)", 3},
    {0, 0, 0, 0, "Input and output:", 4},
    {"classes", OPT_CLASSES, "FILE", 0, "Also write the class table to FILE", 4},
    {"servers", OPT_SERVERS, "FILE", 0, "Servers per tenant from FILE (columns tenant,servers), e.g. tracegen's truth", 4},
    {"features-only", OPT_FEATURES_ONLY, 0, 0, "Per-tenant phase only: write the feature table (shard-safe)", 4},
    {"from-features", OPT_FROM_FEATURES, 0, 0, "Clustering phase only: read feature tables (FILEs are concatenated)", 4},
    {"max-tenants", OPT_MAX_TENANTS, "N", 0, "Clustering: refuse more than N tenants (about 170 bytes each; default 10000000)", 4},
    {"threads", OPT_THREADS, "N", 0, "Readers for a regular input file over 32 MiB, cut between tenants (default: the processors, at most 8)", 4},
    {0}
};

static int parse_k(const char *k, const char *v, void *ctx)
{
    struct argp_state *st = ctx;
    for (int p = 0; p < NPAT; p++)
        if (strcmp(k, pat_name[p]) == 0) {
            opt.k_fixed[p] = (int)cli_int(st, "k", v, 1, 1000);
            return 0;
        }
    argp_error(st, "invalid value for --k: unknown pattern '%s' (want periodic, constant or unpredictable)", k);
    return -1;
}

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    switch (key) {
    case OPT_STEP: opt.step = cli_duration(st, "step", arg, 1); break;
    case OPT_SCALE:
        opt.percent = cli_choice(st, "scale", arg, (const char *const[]){"fraction", "percent", NULL});
        break;
    case OPT_MAX_MISSING: opt.max_missing = cli_double(st, "max-missing", arg, 0, 1); break;
    case OPT_MIN_SAMPLES: opt.min_samples = (long)cli_int(st, "min-samples", arg, 2, 100000000); break;
    case OPT_PERIODS: {
        char *s = xstrdup(arg), *save = NULL;
        opt.nperiods = 0;
        for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if (opt.nperiods >= MAX_PERIODS)
                argp_error(st, "invalid value for --periods: at most %d periods", MAX_PERIODS);
            opt.periods[opt.nperiods++] = cli_duration(st, "periods", tok, 1);
        }
        free(s);
        if (opt.nperiods == 0)
            argp_error(st, "invalid value for --periods: '%s' (want durations like 1d,7d)", arg);
        break;
    }
    case OPT_MIN_CYCLES: opt.min_cycles = cli_double(st, "min-cycles", arg, 1, 1e6); break;
    case OPT_HARMONICS: opt.harmonics = (int)cli_int(st, "harmonics", arg, 1, 100); break;
    case OPT_PERIODIC_MIN: opt.periodic_min = cli_double(st, "periodic-min", arg, 0, 1); break;
    case OPT_REPEAT_MIN: opt.repeat_min = cli_double(st, "repeat-min", arg, -1, 1); break;
    case OPT_CONSTANT_MAX: opt.constant_max = cli_double(st, "constant-max", arg, 0, 1); break;
    case OPT_LOW_PERIOD: opt.low_period = cli_duration(st, "low-period", arg, 1); break;
    case OPT_PEAK_PCT: opt.peak_pct = cli_double(st, "peak-pct", arg, 0, 100); break;
    case OPT_K:
        if (strcmp(arg, "auto") == 0) {
            memset(opt.k_fixed, 0, sizeof opt.k_fixed);
        } else if (!strchr(arg, '=')) {
            int k = (int)cli_int(st, "k", arg, 1, 1000);
            for (int p = 0; p < NPAT; p++)
                opt.k_fixed[p] = k;
        } else {
            char *s = xstrdup(arg);
            if (parse_kv_list(s, parse_k, st) < 0)
                argp_error(st, "invalid value for --k: '%s' (want auto, N, or pattern=N,...)", arg);
            free(s);
        }
        break;
    case OPT_K_MAX: opt.k_max = (int)cli_int(st, "k-max", arg, 1, 1000); break;
    case OPT_TOLERANCE: opt.tolerance = cli_double(st, "tolerance", arg, 0, 1); break;
    case OPT_N_INIT: opt.n_init = (int)cli_int(st, "n-init", arg, 1, 1000); break;
    case OPT_MAX_ITER: opt.max_iter = (int)cli_int(st, "max-iter", arg, 1, 1000000); break;
    case OPT_CLASSES: opt.classes_path = arg; break;
    case OPT_SERVERS: opt.servers_path = arg; break;
    case OPT_FEATURES_ONLY: opt.features_only = 1; break;
    case OPT_FROM_FEATURES: opt.from_features = 1; break;
    case OPT_MAX_TENANTS: opt.max_tenants = cli_int(st, "max-tenants", arg, 1, 1000000000000LL); break;
    case OPT_THREADS: nthreads_opt = (int)cli_int(st, "threads", arg, 1, 64); break;
    case ARGP_KEY_ARG:
        inputs = xreallocarray(inputs, (size_t)ninputs + 1, sizeof *inputs);
        inputs[ninputs++] = arg;
        break;
    case ARGP_KEY_END:
        if (opt.features_only && opt.from_features)
            argp_error(st, "--features-only and --from-features exclude each other");
        if (opt.features_only && opt.classes_path)
            argp_error(st, "--classes needs the clustering phase (not with --features-only)");
        if (!opt.from_features && ninputs > 1)
            argp_error(st, "one input series at a time (several FILEs only with --from-features)");
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* ---- the feature row of one tenant ------------------------------------------ */

struct feat {
    char *tenant;
    double servers;
    long steps, missing;
    double avg, peak, sd, sd_low, strength, period, repeat; /* util in 0-1 */
    int pattern;
    int cls; /* class index within the pattern (clustering phase) */
};

/* ---- servers per tenant ----------------------------------------------------- */

struct srv { char *tenant; double servers; };
static struct srv *srv_tab;
static size_t nsrv;

static int cmp_srv(const void *a, const void *b)
{
    return strcmp(((const struct srv *)a)->tenant, ((const struct srv *)b)->tenant);
}

static int load_servers(const char *path)
{
    int st;
    csvr *r = csvr_open_with(path, cli_dialect("servers"), 0, &st);
    if (!r)
        return st;
    int ct = csvr_require(r, "tenant"), cs = ct < 0 ? -1 : csvr_require(r, "servers");
    if (ct < 0 || cs < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    size_t cap = 0;
    int rc;
    while ((rc = csvr_next(r)) > 0) {
        const char *t = csvr_field(r, ct);
        double s;
        if (!t) {
            csvr_fail(r, "column 'tenant': missing value");
            break;
        }
        if (csvr_get_double(r, cs, &s, CSVR_REQUIRED | CSVR_NONNEG) < 0)
            break;
        srv_tab = xgrow(srv_tab, &cap, nsrv + 1, sizeof *srv_tab);
        srv_tab[nsrv].tenant = xstrdup(t);
        srv_tab[nsrv++].servers = s;
    }
    st = csvr_status(r);
    if (!st) {
        if (nsrv > 1)
            qsort(srv_tab, nsrv, sizeof *srv_tab, cmp_srv);
        for (size_t i = 1; i < nsrv; i++)
            if (strcmp(srv_tab[i - 1].tenant, srv_tab[i].tenant) == 0) {
                slk_error_at(csvr_path(r), 0, "tenant '%s' is listed twice", srv_tab[i].tenant);
                st = SLK_EDATA;
                break;
            }
    }
    csvr_close(r);
    return st;
}

/* servers of tenant from --servers, or -1 when not listed */
static double servers_lookup(const char *tenant)
{
    struct srv key = {(char *)tenant, 0};
    struct srv *s = nsrv ? bsearch(&key, srv_tab, nsrv, sizeof *srv_tab, cmp_srv) : NULL;
    return s ? s->servers : -1;
}

/* ---- the per-tenant phase ---------------------------------------------------- */

struct series {
    double *t, *u;
    size_t n, cap_t, cap_u;
    /* scratch */
    double *bin, *cnt, *spec, *tmp;
    size_t cap_bin, cap_cnt, cap_spec, cap_tmp;
};

/* Resample (t,u) to opt.step: a step's value is the mean of its samples;
 * steps with no sample are filled by linear interpolation between the nearest
 * steps that have one (the series starts and ends at a sample, so both
 * exist).  Sets *nb and *missing; returns the bins. */
static double *resample(struct series *s, size_t *nb, long *missing)
{
    double tmin = s->t[0], tmax = s->t[0];
    for (size_t i = 1; i < s->n; i++) {
        if (s->t[i] < tmin)
            tmin = s->t[i];
        if (s->t[i] > tmax)
            tmax = s->t[i];
    }
    double t0 = floor(tmin / opt.step) * opt.step;
    /* the common case: one sample per step, in order, from a step boundary */
    if (s->t[0] == t0) {
        size_t i = 1;
        while (i < s->n && s->t[i] == t0 + (double)i * opt.step)
            i++;
        if (i == s->n) {
            s->bin = xgrow(s->bin, &s->cap_bin, s->n, sizeof *s->bin);
            memcpy(s->bin, s->u, s->n * sizeof *s->u);
            *nb = s->n;
            *missing = 0;
            return s->bin;
        }
    }
    double nd = floor((tmax - t0) / opt.step) + 1;
    if (!(nd <= 50000000)) { /* refuse before allocating */
        *nb = nd > 1e18 ? (size_t)1e18 : (size_t)nd;
        *missing = 0;
        return NULL;
    }
    size_t n = (size_t)nd;
    s->bin = xgrow(s->bin, &s->cap_bin, n, sizeof *s->bin);
    s->cnt = xgrow(s->cnt, &s->cap_cnt, n, sizeof *s->cnt);
    memset(s->bin, 0, n * sizeof *s->bin);
    memset(s->cnt, 0, n * sizeof *s->cnt);
    for (size_t i = 0; i < s->n; i++) {
        size_t b = (size_t)floor((s->t[i] - t0) / opt.step);
        if (b >= n)
            b = n - 1;
        s->bin[b] += s->u[i];
        s->cnt[b] += 1;
    }
    long miss = 0;
    size_t last = 0; /* last filled step; step 0 always holds tmin */
    for (size_t b = 0; b < n; b++) {
        if (s->cnt[b] > 0) {
            s->bin[b] /= s->cnt[b];
            for (size_t g = last + 1; g < b; g++) {
                double f = (double)(g - last) / (double)(b - last);
                s->bin[g] = s->bin[last] + f * (s->bin[b] - s->bin[last]);
            }
            last = b;
        } else {
            miss++;
        }
    }
    *nb = n;
    *missing = miss;
    return s->bin;
}

/* Pearson correlation of x[0..n-lag) with x[lag..n): how well the series
 * repeats itself one period later (0 when either part is flat). */
static double lag_correlation(const double *x, size_t n, size_t lag)
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
static double high_percentile(const double *x, size_t n, double p, double *scratch)
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

/* Features and pattern of one resampled series x[0..n-1] (0-1 units). */
static int tenant_classify(fft_cache *fc, struct series *s, const double *x, size_t n, struct feat *f)
{
    /* compensated (Kahan) sum: a flat series averages to its value exactly */
    double sum = 0, comp = 0;
    for (size_t i = 0; i < n; i++) {
        double y = x[i] - comp, t = sum + y;
        comp = (t - sum) - y;
        sum = t;
    }
    f->avg = sum / (double)n;
    s->tmp = xgrow(s->tmp, &s->cap_tmp, n, sizeof *s->tmp);
    f->peak = high_percentile(x, n, opt.peak_pct, s->tmp);

    s->spec = xgrow(s->spec, &s->cap_spec, n / 2 + 1, sizeof *s->spec);
    double *p = s->spec;
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
    double span = (double)n * opt.step;
    size_t klow = (size_t)floor(span / opt.low_period);
    if (klow > half)
        klow = half;
    double low = 0;
    for (size_t k = 1; k <= klow; k++)
        low += p[k];
    f->sd_low = sqrt(low);

    /* strength of a period T: the share of the variance in its comb, the
     * bins within one of m*k0 (k0 = span/T cycles) for harmonics m = 1..H.
     * Of the candidate periods the strongest wins; ties go to the first. */
    f->strength = 0;
    f->period = 0;
    for (int pi = 0; pi < opt.nperiods; pi++) {
        double k0 = span / opt.periods[pi];
        if (k0 < opt.min_cycles || total <= 0)
            continue;
        double comb = 0;
        long prev_hi = 0;
        for (int m = 1; m <= opt.harmonics; m++) {
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
            f->period = opt.periods[pi];
            f->repeat = lag_correlation(x, n, (size_t)lround(opt.periods[pi] / opt.step));
        }
    }
    if (f->period > 0 && f->strength >= opt.periodic_min && f->repeat >= opt.repeat_min)
        f->pattern = PAT_PERIODIC;
    else if (f->sd_low <= opt.constant_max)
        f->pattern = PAT_CONSTANT;
    else
        f->pattern = PAT_UNPREDICTABLE;
    return 0;
}

/* ---- feature table I/O ------------------------------------------------------ */

static const char *const feat_hdr[] = {"tenant", "servers", "steps", "missing", "avg", "peak", "sd", "sd_low",
                                       "strength", "period", "repeat", "pattern", NULL};

/* numbers in the feature table are always shortest-exact, so the clustering
 * phase sees the same doubles as a single process would */
static void put_exact(csvw *w, double v)
{
    char b[48];
    int n = csv_format_double(b, v, -1);
    csvw_strn(w, b, (size_t)n);
}

static double scale_out(double v) { return opt.percent ? v * 100 : v; }

static void write_feature(csvw *w, const struct feat *f)
{
    csvw_str(w, f->tenant);
    put_exact(w, f->servers);
    csvw_int(w, f->steps);
    csvw_int(w, f->missing);
    put_exact(w, scale_out(f->avg));
    put_exact(w, scale_out(f->peak));
    put_exact(w, scale_out(f->sd));
    put_exact(w, scale_out(f->sd_low));
    put_exact(w, f->strength);
    put_exact(w, f->period);
    csvw_num_prec(w, f->repeat, -1); /* may be negative */
    csvw_str(w, pat_name[f->pattern]);
    csvw_end(w);
}

struct run {
    struct feat *rows;
    size_t n, cap;
    long skipped_gaps, skipped_short, unlisted, missing_util;
    size_t samples;
};

/* ---- messages ------------------------------------------------------------------
 * Worker threads cannot print as they go (a later range's warning would come
 * before an earlier one's, and lines are only known relative to the range),
 * so a sink either prints at once (one reader) or keeps the messages for the
 * main thread to print in input order. */

struct msg { long line; int warn; char *text; };

struct msgsink {
    int buffer;
    long line_base;   /* lines before the first line of the range */
    const char *name;
    struct msg *m;
    size_t n, cap;
};

static void sink_put(struct msgsink *k, int warn, long line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void sink_put(struct msgsink *k, int warn, long line, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    long abs_line = line > 0 ? k->line_base + line : line;
    if (!k->buffer) {
        if (warn)
            slk_warn_at(k->name, abs_line, "%s", text);
        else
            slk_error_at(k->name, abs_line, "%s", text);
        return;
    }
    k->m = xgrow(k->m, &k->cap, k->n + 1, sizeof *k->m);
    k->m[k->n].line = line;
    k->m[k->n].warn = warn;
    k->m[k->n++].text = xstrdup(text);
}

/* print the kept messages (lines made absolute with line_base) and free them */
static void sink_flush(struct msgsink *k, int print)
{
    for (size_t i = 0; i < k->n; i++) {
        if (print) {
            long abs_line = k->m[i].line > 0 ? k->line_base + k->m[i].line : k->m[i].line;
            if (k->m[i].warn)
                slk_warn_at(k->name, abs_line, "%s", k->m[i].text);
            else
                slk_error_at(k->name, abs_line, "%s", k->m[i].text);
        }
        free(k->m[i].text);
    }
    free(k->m);
    k->m = NULL;
    k->n = k->cap = 0;
}

/* Finish the tenant whose samples are in s: classify, and either write its
 * feature row (features-only) or keep it. */
static int tenant_done(struct run *rs, fft_cache *fc, struct series *s, const char *tenant, double servers,
                       struct msgsink *k, long line, csvw *fw)
{
    if (!fw && (long long)rs->n >= opt.max_tenants) { /* before the work: the limit is on memory */
        sink_put(k, 0, line, "more than %lld tenants (--max-tenants)", opt.max_tenants);
        return SLK_EDATA;
    }
    if (s->n == 0) {
        sink_put(k, 1, line, "tenant '%s' has no util values; skipped", tenant);
        rs->skipped_gaps++;
        return 0;
    }
    size_t nb;
    long missing;
    double *x = resample(s, &nb, &missing);
    if (!x) {
        sink_put(k, 0, line, "tenant '%s' spans %zu steps of %g s (more than 50 million); use a larger --step",
                     tenant, nb, opt.step);
        return SLK_EDATA;
    }
    if ((long)nb < opt.min_samples) {
        sink_put(k, 1, line, "tenant '%s': %zu steps after resampling, fewer than --min-samples %ld; skipped",
                    tenant, nb, opt.min_samples);
        rs->skipped_short++;
        return 0;
    }
    if ((double)missing > opt.max_missing * (double)nb) {
        sink_put(k, 1, line, "tenant '%s': %ld of %zu steps are gaps (more than --max-missing %g); skipped",
                    tenant, missing, nb, opt.max_missing);
        rs->skipped_gaps++;
        return 0;
    }
    struct feat f = {0};
    f.tenant = xstrdup(tenant);
    f.servers = servers;
    f.steps = (long)nb;
    f.missing = missing;
    if (tenant_classify(fc, s, x, nb, &f) < 0) {
        sink_put(k, 0, 0, "fftw could not plan a transform of length %zu", nb);
        free(f.tenant);
        return SLK_ESOFTWARE;
    }
    if (fw) {
        write_feature(fw, &f);
        free(f.tenant);
    } else {
        rs->rows = xgrow(rs->rows, &rs->cap, rs->n + 1, sizeof *rs->rows);
        rs->rows[rs->n++] = f;
    }
    return 0;
}

/* ---- the series reader --------------------------------------------------------
 *
 * Why not csvr for the data rows: the per-tenant phase must read a month of
 * 2-minute samples for 10,000 tenants (216 million rows, 5 GB) in seconds,
 * and csvr (libcsv callbacks, a copy per field, strtod per number) reads
 * about 150 MB/s.  This reader splits each line in place and converts the
 * common number forms (integer epoch seconds, plain decimals) exactly by hand,
 * handing anything else to parse_time/parse_double, so it accepts and rejects
 * exactly what csvr's typed getters do and gives the same doubles.  The
 * header line still goes through csvr (renames, --no-header/--names,
 * duplicate names, BOM).  Quoted fields are handled when they fit on one
 * line; a quoted field with a line break inside is refused with a message
 * (no tenant name needs one).  Blank lines are skipped, CRLF is accepted,
 * and errors name the file and line as csvr's do. */

#define SR_CHUNK ((size_t)4 << 20)

struct sreader {
    FILE *fp;
    zin *z;            /* the whole input read as one stream (gzip, zstd or plain); NULL for a range */
    int own;
    const char *name;
    struct msgsink *sink;
    char *buf;
    size_t cap, len, pos;
    long long remain;  /* bytes left to read in the range, -1: to the end */
    long long buf_off; /* file offset of buf[0] */
    int eof, started;
    long line;        /* line number of the line last returned */
    char **field;
    int ncols;
    int status;
};

static int sr_error(struct sreader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int sr_error(struct sreader *r, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sink_put(r->sink, 0, r->line, "%s", msg);
    if (!r->status)
        r->status = SLK_EDATA;
    return -1;
}

/* The next physical line (without its LF), NUL-terminated in the buffer;
 * *n its length.  NULL at end of input or on a read error (status set). */
static char *sr_line(struct sreader *r, size_t *n)
{
    for (;;) {
        if (!r->started && (r->len >= 3 || r->eof)) {
            r->started = 1;
            if (r->len >= 3 && memcmp(r->buf, "\xEF\xBB\xBF", 3) == 0)
                r->pos = 3; /* UTF-8 byte order mark */
        }
        char *start = r->buf + r->pos;
        char *nl = r->len > r->pos ? memchr(start, '\n', r->len - r->pos) : NULL;
        if (nl || (r->eof && r->len > r->pos)) {
            size_t l = nl ? (size_t)(nl - start) : r->len - r->pos;
            r->pos += l + (nl ? 1 : 0);
            start[l] = 0; /* the buffer keeps one spare byte for the last line */
            r->line++;
            *n = l;
            return start;
        }
        if (r->eof)
            return NULL;
        if (r->pos > 0) { /* keep the partial line, read more behind it */
            r->buf_off += (long long)r->pos;
            memmove(r->buf, r->buf + r->pos, r->len - r->pos);
            r->len -= r->pos;
            r->pos = 0;
        }
        if (r->cap - r->len < SR_CHUNK / 2) {
            if (r->cap >= ((size_t)64 << 20) * 2) {
                r->line++;
                sr_error(r, "line longer than 64 MiB");
                return NULL;
            }
            r->cap *= 2;
            r->buf = xrealloc(r->buf, r->cap + 1);
        }
        size_t want = r->cap - r->len;
        if (r->remain >= 0 && (long long)want > r->remain)
            want = (size_t)r->remain;
        size_t got = 0;
        if (want && r->z) {
            ssize_t g = zin_read(r->z, r->buf + r->len, want);
            if (g < 0) {
                sink_put(r->sink, 0, r->line + 1, "%s", zin_error(r->z));
                r->status = zin_status(r->z);
                return NULL;
            }
            got = (size_t)g;
        } else if (want)
            got = fread(r->buf + r->len, 1, want, r->fp);
        if (r->remain >= 0)
            r->remain -= (long long)got;
        if (got < want || r->remain == 0) {
            if (!r->z && ferror(r->fp)) {
                sink_put(r->sink, 0, r->line + 1, "read error: %s", strerror(errno));
                r->status = SLK_EIO;
                return NULL;
            }
            r->eof = 1;
        }
        r->len += got;
    }
}

/* Split line s (length n) into r->field; empty fields are NULL (missing).
 * Returns 1, or -1 with a message. */
static int sr_split(struct sreader *r, char *s, size_t n)
{
    char d = slk_opt.delim ? slk_opt.delim : ',';
    if (n > 0 && s[n - 1] == '\r')
        s[--n] = 0;
    int nf = 0;
    char *p = s, *end = s + n;
    /* one pass for the common line: no quote, no NUL */
    int simple = 1;
    for (char *q = s; q < end; q++) {
        char c = *q;
        if (c == d) {
            if (nf < r->ncols)
                r->field[nf] = q > p ? p : NULL;
            nf++;
            *q = 0;
            p = q + 1;
        } else if (c == '"' || c == 0) {
            simple = 0;
            break;
        }
    }
    if (simple) {
        if (nf < r->ncols)
            r->field[nf] = end > p ? p : NULL;
        nf++;
    } else {
        /* undo the partial split (the scan stopped at the first quote or
         * NUL, so every NUL before p was a delimiter) and parse with quotes */
        for (char *q = s; q < p; q++)
            if (*q == 0)
                *q = d;
        for (size_t i = 0; i < n; i++)
            if (s[i] == 0)
                return sr_error(r, "NUL byte in field");
        nf = 0;
        p = s;
        for (;;) {
            char *out = p, *fs = p;
            if (*p == '"') {
                p++;
                for (;;) {
                    if (p >= end)
                        return sr_error(r, "unterminated quoted field (tenantclass does not accept line breaks inside quotes)");
                    if (*p == '"') {
                        if (p + 1 < end && p[1] == '"') {
                            *out++ = '"';
                            p += 2;
                            continue;
                        }
                        p++;
                        break;
                    }
                    *out++ = *p++;
                }
                if (p < end && *p != d)
                    return sr_error(r, "malformed quoting (a quote inside an unquoted field, or text after a closing quote)");
            } else {
                while (p < end && *p != d) {
                    if (*p == '"')
                        return sr_error(r, "malformed quoting (a quote inside an unquoted field, or text after a closing quote)");
                    out++, p++;
                }
            }
            int last = p >= end;
            *out = 0;
            if (nf < r->ncols)
                r->field[nf] = out > fs ? fs : NULL;
            nf++;
            if (last)
                break;
            p++;
        }
    }
    if (nf != r->ncols)
        return sr_error(r, "expected %d fields (as in the header), found %d", r->ncols, nf);
    return 1;
}

static const char *shown(const char *s, char *buf, size_t cap)
{
    if (strlen(s) <= 60)
        return s;
    snprintf(buf, cap, "%.57s...", s);
    return buf;
}

/* a plain byte loop: glibc's vector strcmp costs more per call than these
 * short tenant names take to compare, and this runs once per row */
static int same_str(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

/* What the header tells the data readers. */
struct layout {
    int ct, ctime, cu, cs, ncols;
    char cname_t[256], cname_u[256], cname_s[256];
};

/* One reader over one byte range of the input (or all of it). */
struct worker {
    const struct layout *lay;
    const char *path;          /* NULL: use sr as set up by the caller */
    long long start, end;      /* byte range [start, end) */
    struct sreader sr;
    struct msgsink sink;
    struct run rs;
    csvw *fw;                  /* features written at once (one reader only) */
    int progress;
    int st;
    int keep_keys;             /* record each group's key and line (several readers) */
    char **key;
    long *key_line;
    size_t nkey, cap_key, cap_key_line;
};

/* Classify every tenant of the worker's lines. */
static int scan_series(struct worker *w)
{
    const struct layout *L = w->lay;
    struct sreader *sr = &w->sr;
    struct run *rs = &w->rs;
    double umax = opt.percent ? 100 : 1;
    fft_cache *fc = fft_cache_new();
    struct series s = {0};
    group_tracker g;
    group_init(&g);
    char *cur = NULL;
    double cur_servers = 1;
    long cur_line = 0;
    char b[80];
    int st = SLK_OK;
    for (;;) {
        size_t n;
        char *line = sr_line(sr, &n);
        if (!line)
            break;
        if (n == 0 || (n == 1 && line[0] == '\r'))
            continue;
        if (sr_split(sr, line, n) < 0)
            break;
        const char *tenant = sr->field[L->ct];
        if (!tenant) {
            sr_error(sr, "column 'tenant': missing value");
            break;
        }
        if (!cur || !same_str(cur, tenant)) {
            if (group_check(&g, tenant) < 0) {
                sr_error(sr, "tenant '%s' appears again after other tenants: input not grouped by tenant "
                             "(sort it, e.g. sort -t, -k1,1 -s)", shown(tenant, b, sizeof b));
                break;
            }
            if (cur) {
                st = tenant_done(rs, fc, &s, cur, cur_servers, &w->sink, cur_line, w->fw);
                free(cur);
                cur = NULL;
                if (st)
                    break;
            }
            cur = xstrdup(tenant);
            cur_line = sr->line;
            if (w->keep_keys) {
                w->key = xgrow(w->key, &w->cap_key, w->nkey + 1, sizeof *w->key);
                w->key_line = xgrow(w->key_line, &w->cap_key_line, w->nkey + 1, sizeof *w->key_line);
                w->key[w->nkey] = xstrdup(tenant);
                w->key_line[w->nkey++] = sr->line;
            }
            s.n = 0;
            cur_servers = 1;
            double sv = servers_lookup(tenant);
            if (sv >= 0) {
                cur_servers = sv;
            } else if (L->cs >= 0 && sr->field[L->cs]) {
                const char *f = sr->field[L->cs];
                if (parse_double(f, &cur_servers, 0) < 0) {
                    sr_error(sr, "column '%s': invalid number '%s'", L->cname_s, shown(f, b, sizeof b));
                    break;
                }
                if (cur_servers < 0) {
                    sr_error(sr, "column '%s': must not be negative, got '%s'", L->cname_s, shown(f, b, sizeof b));
                    break;
                }
            } else if (nsrv) {
                rs->unlisted++;
            }
            if (w->progress)
                slk_progress("tenants", rs->n + 1, 0);
        }
        const char *ft = sr->field[L->ctime], *fu = sr->field[L->cu];
        double t, u;
        if (!ft) {
            sr_error(sr, "column '%s': missing value", L->cname_t);
            break;
        }
        if (parse_time(ft, &t) < 0) { /* lib/base/parse: exact fast path for plain decimals */
            sr_error(sr, "column '%s': invalid time '%s' (want epoch seconds or ISO 8601 UTC)", L->cname_t,
                     shown(ft, b, sizeof b));
            break;
        }
        if (!fu) { /* an empty util is a gap */
            rs->missing_util++;
            continue;
        }
        if (parse_double(fu, &u, 0) < 0) {
            sr_error(sr, "column '%s': invalid number '%s'", L->cname_u, shown(fu, b, sizeof b));
            break;
        }
        if (u < 0) {
            sr_error(sr, "column '%s': must not be negative, got '%s'", L->cname_u, shown(fu, b, sizeof b));
            break;
        }
        if (u > umax) {
            sr_error(sr, "column '%s': %s is above %g%s", L->cname_u, shown(fu, b, sizeof b), umax,
                     opt.percent ? "" : " (for 0-100 data use --scale percent)");
            break;
        }
        if (s.n == s.cap_t) {
            s.t = xgrow(s.t, &s.cap_t, s.n + 1, sizeof *s.t);
            s.u = xgrow(s.u, &s.cap_u, s.n + 1, sizeof *s.u);
        }
        s.t[s.n] = t;
        s.u[s.n++] = opt.percent ? u / 100 : u;
        rs->samples++;
    }
    if (!st)
        st = sr->status;
    if (!st && cur)
        st = tenant_done(rs, fc, &s, cur, cur_servers, &w->sink, cur_line, w->fw);
    free(cur);
    group_free(&g);
    fft_cache_free(fc);
    free(s.t); free(s.u); free(s.bin); free(s.cnt); free(s.spec); free(s.tmp);
    return st;
}

static int sr_open_range(struct sreader *sr, const char *path, long long start, long long end, struct msgsink *k)
{
    memset(sr, 0, sizeof *sr);
    sr->own = 1;
    sr->name = path;
    sr->sink = k;
    sr->fp = fopen(path, "rb");
    if (!sr->fp || fseeko(sr->fp, (off_t)start, SEEK_SET) != 0) {
        sink_put(k, 0, 0, "cannot read: %s", strerror(errno));
        if (sr->fp)
            fclose(sr->fp);
        sr->fp = NULL;
        return SLK_EIO;
    }
    sr->cap = SR_CHUNK;
    sr->buf = xmalloc(sr->cap + 1);
    sr->remain = end - start;
    sr->buf_off = start;
    sr->started = start > 0; /* a byte order mark can only open the file */
    return SLK_OK;
}

static void sr_close(struct sreader *sr)
{
    free(sr->field);
    free(sr->buf);
    zin_close(sr->z);
    if (sr->own && sr->fp)
        fclose(sr->fp);
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    if (w->path && (w->st = sr_open_range(&w->sr, w->path, w->start, w->end, &w->sink)) != SLK_OK)
        return NULL;
    if (w->path) {
        w->sr.ncols = w->lay->ncols;
        w->sr.field = xcalloc((size_t)w->lay->ncols + 1, sizeof *w->sr.field);
    }
    w->st = scan_series(w);
    return NULL;
}

/* The start of the first line at or after `from` whose tenant differs from
 * the line before it: a place to cut the input between two tenants.
 * Returns -1 when there is none before `end` (or the lines do not parse:
 * then the readers will report them). */
static long long tenant_boundary(const char *path, const struct layout *L, long long from, long long end)
{
    struct msgsink quiet = {.buffer = 1, .name = path};
    struct sreader sr;
    long long cut = -1;
    if (sr_open_range(&sr, path, from, end, &quiet) != SLK_OK) {
        sink_flush(&quiet, 0);
        return -1;
    }
    sr.ncols = L->ncols;
    sr.field = xcalloc((size_t)L->ncols + 1, sizeof *sr.field);
    size_t n;
    char *prev = NULL;
    char *line = sr_line(&sr, &n); /* from `from` to the end of its line: not a whole line */
    if (line && from > 0) {
        while ((line = sr_line(&sr, &n)) != NULL) {
            long long at = sr.buf_off + (long long)(line - sr.buf);
            if (n == 0 || (n == 1 && line[0] == '\r'))
                continue;
            if (sr_split(&sr, line, n) < 0 || !sr.field[L->ct])
                break;
            if (prev && strcmp(prev, sr.field[L->ct]) != 0) {
                cut = at;
                break;
            }
            if (!prev)
                prev = xstrdup(sr.field[L->ct]);
        }
    }
    free(prev);
    sr_close(&sr);
    sink_flush(&quiet, 0);
    return cut;
}


/* Read the series input (grouped by tenant) and classify every tenant.  A
 * regular file of more than 32 MiB is cut between tenants into --threads
 * ranges read in parallel; rows, messages and summaries are merged in input
 * order, so the result is the one of a single reader. */
static int read_series(const char *path, struct run *rs, csvw *fw)
{
    struct msgsink hsink = {0};
    struct sreader sr = {0};
    sr.own = path && strcmp(path, "-") != 0;
    sr.name = sr.own ? path : "<stdin>";
    hsink.name = sr.name;
    sr.sink = &hsink;
    sr.remain = -1;
    sr.fp = sr.own ? fopen(path, "rb") : stdin;
    if (!sr.fp) {
        slk_error("%s: cannot open: %s", path, strerror(errno));
        return SLK_ENOINPUT;
    }
    sr.z = zin_open(sr.fp, 0); /* gzip and zstd are read as one stream, never by ranges */
    sr.cap = SR_CHUNK;
    sr.buf = xmalloc(sr.cap + 1);
    /* the header (or, with --no-header, the column count) goes through csvr */
    size_t hn;
    char *hl;
    do
        hl = sr_line(&sr, &hn);
    while (hl && (hn == 0 || (hn == 1 && hl[0] == '\r')));
    if (!hl) {
        int st = sr.status;
        if (!st) {
            slk_error_at(sr.name, 1, "empty input (no header row)");
            st = SLK_EDATA;
        }
        sr_close(&sr);
        return st;
    }
    int st;
    struct layout L = {.ct = -1, .ctime = -1, .cu = -1, .cs = -1};
    snprintf(L.cname_t, sizeof L.cname_t, "t");
    snprintf(L.cname_u, sizeof L.cname_u, "util");
    snprintf(L.cname_s, sizeof L.cname_s, "servers");
    char *hcopy = xmalloc(hn + 2);
    memcpy(hcopy, hl, hn);
    hcopy[hn] = '\n';
    hcopy[hn + 1] = 0;
    FILE *hf = fmemopen(hcopy, hn + 1, "r");
    csvr *h = hf ? csvr_open_fp_with(hf, sr.name, cli_dialect(NULL), 0, &st) : NULL;
    if (!hf) {
        slk_error("cannot read the header: %s", strerror(errno));
        st = SLK_ESOFTWARE;
    }
    if (h) {
        L.ct = csvr_require(h, "tenant");
        L.ctime = L.ct < 0 ? -1 : csvr_require(h, "t");
        L.cu = L.ctime < 0 ? -1 : csvr_require(h, "util");
        L.cs = csvr_col(h, "servers");
        L.ncols = csvr_ncols(h);
        if (L.ctime >= 0)
            snprintf(L.cname_t, sizeof L.cname_t, "%s", csvr_colname(h, L.ctime));
        if (L.cu >= 0)
            snprintf(L.cname_u, sizeof L.cname_u, "%s", csvr_colname(h, L.cu));
        if (L.cs >= 0)
            snprintf(L.cname_s, sizeof L.cname_s, "%s", csvr_colname(h, L.cs));
        st = (L.ct < 0 || L.ctime < 0 || L.cu < 0) ? SLK_EDATA : SLK_OK;
        csvr_close(h);
    }
    if (hf)
        fclose(hf);
    free(hcopy);
    if (st) {
        sr_close(&sr);
        return st;
    }
    sr.ncols = L.ncols;
    sr.field = xcalloc((size_t)L.ncols + 1, sizeof *sr.field);
    if (slk_opt.no_header) { /* the first line is data: read it again */
        if (sr.pos > (size_t)(hl - sr.buf) + hn)
            hl[hn] = '\n';
        sr.pos = (size_t)(hl - sr.buf);
        sr.line--;
    }
    long long data_start = sr.buf_off + (long long)sr.pos;
    long lines_before = sr.line;

    /* how many readers */
    int nth = nthreads_opt;
    if (nth == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        nth = c < 1 ? 1 : c > 8 ? 8 : (int)c;
    }
    struct stat fst;
    long long size = 0;
    if (nth > 1 && sr.own && zin_kind(sr.z) == ZIN_PLAIN && fstat(fileno(sr.fp), &fst) == 0 && S_ISREG(fst.st_mode))
        size = (long long)fst.st_size;
    if (size - data_start < ((long long)32 << 20))
        nth = 1;
    long long *cut = xmalloc(((size_t)nth + 1) * sizeof *cut);
    int nr = 1;
    cut[0] = data_start;
    for (int i = 1; i < nth; i++) {
        long long from = data_start + (size - data_start) / nth * i;
        if (from <= cut[nr - 1])
            continue;
        long long c = tenant_boundary(path, &L, from, size);
        if (c > cut[nr - 1])
            cut[nr++] = c;
    }
    cut[nr] = size;

    if (nr == 1) {
        struct worker w = {.lay = &L, .fw = fw, .progress = 1};
        w.sink.name = sr.name;
        w.sink.line_base = 0;
        w.sr = sr;
        w.sr.sink = &w.sink;
        st = scan_series(&w);
        slk_progress_done();
        *rs = w.rs;
        sr_close(&w.sr);
        free(cut);
        return st;
    }
    sr_close(&sr);

    struct worker *w = xcalloc((size_t)nr, sizeof *w);
    pthread_t *tid = xcalloc((size_t)nr, sizeof *tid);
    char *started = xcalloc((size_t)nr, 1);
    for (int i = 0; i < nr; i++) {
        w[i].lay = &L;
        w[i].path = path;
        w[i].start = cut[i];
        w[i].end = cut[i + 1];
        w[i].sink.buffer = 1;
        w[i].keep_keys = 1;
        w[i].sink.name = path;
        w[i].sr.sink = &w[i].sink;
        if (pthread_create(&tid[i], NULL, worker_main, &w[i]) == 0)
            started[i] = 1;
        else
            worker_main(&w[i]); /* no thread to be had: read the range here */
    }
    for (int i = 0; i < nr; i++)
        if (started[i])
            pthread_join(tid[i], NULL);
    /* ranges are cut between groups, so a key in two ranges is ungrouped input */
    keyset *seen = keyset_new();
    /* merge in input order; stop where a single reader would have stopped */
    long base = lines_before;
    st = SLK_OK;
    for (int i = 0; i < nr; i++) {
        w[i].sink.line_base = base;
        long dup_line = 0;
        const char *dup = NULL;
        for (size_t j = 0; j < w[i].nkey && st == SLK_OK; j++)
            if (!dup && keyset_has(seen, w[i].key[j])) {
                dup = w[i].key[j];
                dup_line = w[i].key_line[j];
            }
        if (dup) { /* a single reader would have stopped there */
            for (size_t j = 0; j < w[i].sink.n; j++)
                if (w[i].sink.m[j].line >= dup_line)
                    w[i].sink.m[j].line = -1; /* mark: not reached */
            struct msgsink *k = &w[i].sink;
            size_t keep = 0;
            for (size_t j = 0; j < k->n; j++) {
                if (k->m[j].line == -1)
                    free(k->m[j].text);
                else
                    k->m[keep++] = k->m[j];
            }
            k->n = keep;
            sink_flush(k, 1);
            char b[80];
            slk_error_at(path, base + dup_line, "tenant '%s' appears again after other tenants: input not grouped by tenant "
                                                "(sort it, e.g. sort -t, -k1,1 -s)", shown(dup, b, sizeof b));
            st = SLK_EDATA;
        } else {
            sink_flush(&w[i].sink, st == SLK_OK);
        }
        for (size_t j = 0; j < w[i].nkey; j++) {
            if (st == SLK_OK)
                keyset_add(seen, w[i].key[j]);
            free(w[i].key[j]);
        }
        free(w[i].key);
        free(w[i].key_line);
        base += w[i].sr.line;
        if (st == SLK_OK) {
            st = w[i].st;
            struct run *r = &w[i].rs;
            rs->skipped_gaps += r->skipped_gaps;
            rs->skipped_short += r->skipped_short;
            rs->unlisted += r->unlisted;
            rs->missing_util += r->missing_util;
            rs->samples += r->samples;
            for (size_t j = 0; j < r->n; j++) {
                if (fw) {
                    if (st == SLK_OK)
                        write_feature(fw, &r->rows[j]);
                    free(r->rows[j].tenant);
                } else if (st == SLK_OK && (long long)rs->n >= opt.max_tenants) {
                    /* each reader kept at most the limit; together they may pass it */
                    slk_error_at(path, base, "more than %lld tenants (--max-tenants)", opt.max_tenants);
                    st = SLK_EDATA;
                    free(r->rows[j].tenant);
                } else if (st != SLK_OK) {
                    free(r->rows[j].tenant);
                } else {
                    rs->rows = xgrow(rs->rows, &rs->cap, rs->n + 1, sizeof *rs->rows);
                    rs->rows[rs->n++] = r->rows[j];
                }
            }
        } else {
            for (size_t j = 0; j < w[i].rs.n; j++)
                free(w[i].rs.rows[j].tenant);
        }
        free(w[i].rs.rows);
        sr_close(&w[i].sr);
    }
    keyset_free(seen);
    free(w);
    free(tid);
    free(started);
    free(cut);
    return st;
}

/* Read feature tables written by --features-only. */
static int read_features(const char *path, struct run *rs)
{
    int st;
    csvr *r = csvr_open_with(path, cli_dialect(NULL), 1, &st);
    if (!r)
        return st;
    if (csvr_ncols(r) == 0) { /* an empty shard */
        csvr_close(r);
        return SLK_OK;
    }
    int c[12];
    for (int i = 0; feat_hdr[i]; i++)
        if ((c[i] = csvr_require(r, feat_hdr[i])) < 0) {
            csvr_close(r);
            return SLK_EDATA;
        }
    double div = opt.percent ? 100 : 1;
    int rc;
    while ((rc = csvr_next(r)) > 0) {
        struct feat f = {0};
        const char *t = csvr_field(r, c[0]), *pn = csvr_field(r, c[11]);
        if (!t) {
            csvr_fail(r, "column 'tenant': missing value");
            break;
        }
        f.pattern = -1;
        for (int p = 0; p < NPAT; p++)
            if (pn && strcmp(pn, pat_name[p]) == 0)
                f.pattern = p;
        if (f.pattern < 0) {
            csvr_fail(r, "column 'pattern': '%s' is not periodic, constant or unpredictable", pn ? pn : "");
            break;
        }
        int64_t steps, miss;
        double v[7];
        if (csvr_get_double(r, c[1], &f.servers, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
            csvr_get_int64(r, c[2], &steps, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
            csvr_get_int64(r, c[3], &miss, CSVR_REQUIRED | CSVR_NONNEG) < 0)
            break;
        int bad = 0;
        for (int i = 0; i < 7; i++)
            if (csvr_get_double(r, c[4 + i], &v[i], CSVR_REQUIRED | (i < 6 ? CSVR_NONNEG : 0)) < 0) {
                bad = 1;
                break;
            }
        if (bad)
            break;
        if (v[0] > (opt.percent ? 100 : 1) || v[1] > (opt.percent ? 100 : 1)) {
            csvr_fail(r, "avg or peak above %s (was the table written with another --scale?)", opt.percent ? "100" : "1");
            break;
        }
        if ((long long)rs->n >= opt.max_tenants) {
            csvr_fail(r, "more than %lld tenants (--max-tenants)", opt.max_tenants);
            break;
        }
        double sv = servers_lookup(t);
        if (sv >= 0)
            f.servers = sv;
        f.tenant = xstrdup(t);
        f.steps = (long)steps;
        f.missing = (long)miss;
        f.avg = v[0] / div;
        f.peak = v[1] / div;
        f.sd = v[2] / div;
        f.sd_low = v[3] / div;
        f.strength = v[4];
        f.period = v[5];
        f.repeat = v[6];
        rs->rows = xgrow(rs->rows, &rs->cap, rs->n + 1, sizeof *rs->rows);
        rs->rows[rs->n++] = f;
    }
    st = csvr_status(r);
    csvr_close(r);
    return st;
}

/* ---- the clustering phase ----------------------------------------------------- */

static int cmp_feat(const void *a, const void *b)
{
    return strcmp(((const struct feat *)a)->tenant, ((const struct feat *)b)->tenant);
}

struct pattern_classes {
    int k;
    double rms;
    double *center; /* k x 2 */
};

/* K-Means on (avg, peak) of the tenants of pattern p (rows sorted by
 * tenant).  k fixed by --k, or the smallest k <= k-max (and <= distinct
 * points) whose RMS distance to the class centers is at most --tolerance. */
static void cluster_pattern(struct run *rs, int p, struct pattern_classes *pc)
{
    size_t n = 0;
    for (size_t i = 0; i < rs->n; i++)
        n += rs->rows[i].pattern == p;
    pc->k = 0;
    pc->center = NULL;
    if (n == 0)
        return;
    double *x = xmalloc(2 * n * sizeof *x);
    size_t *idx = xmalloc(n * sizeof *idx);
    size_t j = 0;
    for (size_t i = 0; i < rs->n; i++)
        if (rs->rows[i].pattern == p) {
            idx[j] = i;
            x[2 * j] = rs->rows[i].avg;
            x[2 * j + 1] = rs->rows[i].peak;
            j++;
        }
    size_t distinct = kmeans_distinct(x, n, 2);
    rng r;
    rng_seed_key(&r, slk_opt.seed, pat_name[p]);
    uint64_t seed = rng_u64(&r);
    int *a = xmalloc(n * sizeof *a);
    int kmax = opt.k_fixed[p] ? opt.k_fixed[p] : opt.k_max;
    if ((size_t)kmax > distinct)
        kmax = (int)distinct;
    double *c = xmalloc((size_t)kmax * 2 * sizeof *c);
    int k = opt.k_fixed[p] ? kmax : 1;
    double sse = 0;
    for (;; k++) {
        kmeans_fit(x, n, 2, k, seed, opt.n_init, opt.max_iter, c, a, &sse);
        if (opt.k_fixed[p] || k >= kmax || sqrt(sse / (double)n) <= opt.tolerance)
            break;
    }
    pc->k = k;
    pc->rms = sqrt(sse / (double)n);
    pc->center = c;
    for (j = 0; j < n; j++)
        rs->rows[idx[j]].cls = a[j];
    free(x);
    free(idx);
    free(a);
}

static void class_name(char *buf, size_t cap, int p, int cls)
{
    snprintf(buf, cap, "%s-%d", pat_name[p], cls + 1);
}

static int write_classes(const char *path, struct run *rs, struct pattern_classes *pcs)
{
    int st;
    outf *o = outf_open(path, &st);
    if (!o)
        return st;
    csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
    static const char *const hdr[] = {"class", "pattern", "avg_util", "peak_util", "tenants", "servers", NULL};
    csvw_header(w, hdr);
    for (int p = 0; p < NPAT; p++)
        for (int k = 0; k < pcs[p].k; k++) {
            double srv = 0, sa = 0, sp = 0, ua = 0, up = 0;
            long nt = 0;
            for (size_t i = 0; i < rs->n; i++) {
                const struct feat *f = &rs->rows[i];
                if (f->pattern != p || f->cls != k)
                    continue;
                nt++;
                srv += f->servers;
                sa += f->servers * f->avg;
                sp += f->servers * f->peak;
                ua += f->avg;
                up += f->peak;
            }
            char name[64];
            class_name(name, sizeof name, p, k);
            csvw_str(w, name);
            csvw_str(w, pat_name[p]);
            /* the class's average server: server-weighted means (plain means when no servers) */
            csvw_num(w, scale_out(srv > 0 ? sa / srv : ua / (double)nt));
            csvw_num(w, scale_out(srv > 0 ? sp / srv : up / (double)nt));
            csvw_int(w, nt);
            csvw_num(w, srv);
            csvw_end(w);
        }
    st = csvw_error(w) ? SLK_EIO : SLK_OK;
    csvw_free(w);
    return outf_finish(o, st);
}

/* Read the series (or the feature tables), classify every tenant and write
 * -o (and --classes), replaced only when complete; the summary on stderr.
 * Returns an exit status. */
static int classify_all(double t0)
{
    int st = SLK_OK;
    outf *o = outf_open(slk_opt.output, &st);
    if (!o)
        return st;
    csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
    struct run rs = {0};

    if (opt.features_only) {
        csvw_header(w, feat_hdr);
        st = read_series(ninputs ? inputs[0] : "-", &rs, w);
        if (!st && !slk_opt.quiet)
            fprintf(stderr, "tenantclass: features of the tenants written (%zu samples; %ld skipped for gaps, %ld too short) in %.2f s\n",
                    rs.samples, rs.skipped_gaps, rs.skipped_short, slk_now() - t0);
    } else {
        if (opt.from_features) {
            if (ninputs == 0)
                st = read_features("-", &rs);
            for (int i = 0; i < ninputs && !st; i++)
                st = read_features(inputs[i], &rs);
        } else {
            st = read_series(ninputs ? inputs[0] : "-", &rs, NULL);
        }
        if (!st) {
            if (rs.n > 1)
                qsort(rs.rows, rs.n, sizeof *rs.rows, cmp_feat);
            for (size_t i = 1; i < rs.n; i++)
                if (strcmp(rs.rows[i - 1].tenant, rs.rows[i].tenant) == 0) {
                    slk_error("tenant '%s' appears in more than one group or feature table", rs.rows[i].tenant);
                    st = SLK_EDATA;
                    break;
                }
        }
        struct pattern_classes pcs[NPAT] = {{0}};
        if (!st) {
            for (int p = 0; p < NPAT; p++)
                cluster_pattern(&rs, p, &pcs[p]);
            static const char *const hdr[] = {"tenant", "pattern", "class", "avg", "peak", "strength", NULL};
            csvw_header(w, hdr);
            for (size_t i = 0; i < rs.n; i++) {
                const struct feat *f = &rs.rows[i];
                char name[64];
                class_name(name, sizeof name, f->pattern, f->cls);
                csvw_str(w, f->tenant);
                csvw_str(w, pat_name[f->pattern]);
                csvw_str(w, name);
                csvw_num(w, scale_out(f->avg));
                csvw_num(w, scale_out(f->peak));
                csvw_num(w, f->strength);
                csvw_end(w);
            }
            if (opt.classes_path)
                st = write_classes(opt.classes_path, &rs, pcs);
        }
        if (!st && !slk_opt.quiet) {
            long cnt[NPAT] = {0};
            for (size_t i = 0; i < rs.n; i++)
                cnt[rs.rows[i].pattern]++;
            fprintf(stderr, "tenantclass: %zu tenants", rs.n);
            if (rs.skipped_gaps || rs.skipped_short)
                fprintf(stderr, " (%ld more skipped: %ld for gaps, %ld too short)", rs.skipped_gaps + rs.skipped_short,
                        rs.skipped_gaps, rs.skipped_short);
            fprintf(stderr, ":");
            for (int p = 0; p < NPAT; p++)
                fprintf(stderr, " %s %ld (%d class%s, rms %.3g)%s", pat_name[p], cnt[p], pcs[p].k,
                        pcs[p].k == 1 ? "" : "es", cnt[p] ? scale_out(pcs[p].rms) : 0.0, p + 1 < NPAT ? "," : "\n");
            fprintf(stderr, "tenantclass: patterns: periodic when a period in --periods has strength >= %g and "
                            "repeat >= %g, else constant when the slow sd <= %g, else unpredictable; k %s; %.2f s\n",
                    opt.periodic_min, opt.repeat_min, opt.constant_max,
                    opt.k_fixed[0] || opt.k_fixed[1] || opt.k_fixed[2] ? "fixed by --k" : "by --tolerance (smallest k with rms distance to class center <= tolerance)",
                    slk_now() - t0);
            if (rs.unlisted)
                fprintf(stderr, "tenantclass: warning: %ld tenants are not in --servers %s; counted as 1 server\n",
                        rs.unlisted, opt.servers_path);
        }
        for (int p = 0; p < NPAT; p++)
            free(pcs[p].center);
    }
    if (!st && csvw_error(w))
        st = SLK_EIO;
    csvw_free(w);
    for (size_t i = 0; i < rs.n; i++)
        free(rs.rows[i].tenant);
    free(rs.rows);
    return outf_finish(o, st);
}

int main(int argc, char **argv)
{
    slk_init("tenantclass");
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {
        options, parse_opt, "[FILE...]",
        "Classify primary tenants by their CPU utilization history: resample, FFT, pattern "
        "(periodic, constant, unpredictable), then K-Means classes inside each pattern.\n"
        "Input columns: tenant,t,util[,servers], grouped by tenant; util in 0-1 (or --scale percent).\n"
        "Output: tenant,pattern,class,avg,peak,strength, sorted by tenant."
        "\vExamples:\n"
        "  tracegen tenants --count 500 --truth truth.csv -o util.csv\n"
        "  tenantclass --servers truth.csv --classes cl.csv util.csv > tenants.csv\n"
        "  tenantclass --step 5m --scale percent --periods 1h,2h usage.csv\n"
        "  # sharded: per-tenant phase per shard, clustering on the feature tables\n"
        "  parallel 'tenantclass --features-only {} > {.}.feat' ::: shard*.csv\n"
        "  tenantclass --from-features --classes cl.csv shard*.feat > tenants.csv",
        kids, NULL, NULL};
    cli_roles("series", "servers", (const char *)NULL);
    argp_parse(&argp, argc, argv, 0, NULL, NULL);

    int st = SLK_OK;
    double t0 = slk_now();
    if (!opt.servers_path || (st = load_servers(opt.servers_path)) == SLK_OK)
        st = classify_all(t0);
    for (size_t i = 0; i < nsrv; i++)
        free(srv_tab[i].tenant);
    free(srv_tab);
    free(inputs);
    return slk_finish(st);
}
