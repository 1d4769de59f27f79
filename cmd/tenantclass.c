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
#include "cli.h"
#include "csvio.h"
#include "diag.h"
#include "fft.h"
#include "keyset.h"
#include "kmeans.h"
#include "outfile.h"
#include "parse.h"
#include "rng.h"
#include "stats.h"

#include <argp.h>
#include <errno.h>
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
} opt = {
    .step = 120, .max_missing = 0.5, .min_samples = 16, .nperiods = 2, .periods = {86400, 604800},
    .min_cycles = 2, .harmonics = 6, .periodic_min = 0.3, .repeat_min = 0.5, .constant_max = 0.03,
    .low_period = 3600, .peak_pct = 99, .k_max = 20, .tolerance = 0.05, .n_init = 4, .max_iter = 300,
};

static const char **inputs;
static int ninputs;

enum {
    OPT_STEP = 1000, OPT_SCALE, OPT_MAX_MISSING, OPT_MIN_SAMPLES, OPT_PERIODS, OPT_MIN_CYCLES, OPT_HARMONICS,
    OPT_PERIODIC_MIN, OPT_REPEAT_MIN, OPT_CONSTANT_MAX, OPT_LOW_PERIOD, OPT_PEAK_PCT, OPT_K, OPT_K_MAX,
    OPT_TOLERANCE, OPT_N_INIT, OPT_MAX_ITER, OPT_CLASSES, OPT_SERVERS, OPT_FEATURES_ONLY, OPT_FROM_FEATURES
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
        if (strcmp(arg, "fraction") == 0)
            opt.percent = 0;
        else if (strcmp(arg, "percent") == 0)
            opt.percent = 1;
        else
            argp_error(st, "invalid value for --scale: '%s' (want fraction or percent)", arg);
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
    csvr *r = csvr_open(path, 0, &st);
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
    size_t n = (size_t)floor((tmax - t0) / opt.step) + 1;
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

/* Features and pattern of one resampled series x[0..n-1] (0-1 units). */
static void tenant_classify(fft_cache *fc, struct series *s, const double *x, size_t n, struct feat *f)
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
    memcpy(s->tmp, x, n * sizeof *x);
    f->peak = stats_percentile(s->tmp, n, opt.peak_pct);

    s->spec = xgrow(s->spec, &s->cap_spec, n / 2 + 1, sizeof *s->spec);
    double *p = s->spec;
    if (fft_power(fc, x, n, p) < 0) {
        slk_error("fftw could not plan a transform of length %zu", n);
        exit(slk_finish(SLK_ESOFTWARE));
    }
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

/* Finish the tenant whose samples are in s: classify, and either write its
 * feature row (features-only) or keep it. */
static int tenant_done(struct run *rs, fft_cache *fc, struct series *s, const char *tenant, double servers,
                       const char *path, long line, csvw *fw)
{
    if (s->n == 0) {
        slk_warn_at(path, line, "tenant '%s' has no util values; skipped", tenant);
        rs->skipped_gaps++;
        return 0;
    }
    size_t nb;
    long missing;
    double *x = resample(s, &nb, &missing);
    if (nb > (size_t)50000000) {
        slk_error_at(path, line, "tenant '%s' spans %zu steps of %g s (more than 50 million); use a larger --step",
                     tenant, nb, opt.step);
        return SLK_EDATA;
    }
    if ((long)nb < opt.min_samples) {
        slk_warn_at(path, line, "tenant '%s': %zu steps after resampling, fewer than --min-samples %ld; skipped",
                    tenant, nb, opt.min_samples);
        rs->skipped_short++;
        return 0;
    }
    if ((double)missing > opt.max_missing * (double)nb) {
        slk_warn_at(path, line, "tenant '%s': %ld of %zu steps are gaps (more than --max-missing %g); skipped",
                    tenant, missing, nb, opt.max_missing);
        rs->skipped_gaps++;
        return 0;
    }
    struct feat f = {0};
    f.tenant = xstrdup(tenant);
    f.servers = servers;
    f.steps = (long)nb;
    f.missing = missing;
    tenant_classify(fc, s, x, nb, &f);
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
    int own;
    const char *name;
    char *buf;
    size_t cap, len, pos;
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
    slk_error_at(r->name, r->line, "%s", msg);
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
        size_t got = fread(r->buf + r->len, 1, r->cap - r->len, r->fp);
        if (got < r->cap - r->len) {
            if (ferror(r->fp)) {
                slk_error_at(r->name, r->line + 1, "read error: %s", strerror(errno));
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

/* Exact fast paths: digits with an optional '.' and more digits, at most 19
 * digits in all (so the integer m of all digits fits in 64 bits), with
 * m <= 2^53 and at most 22 decimals, is exactly m / 10^k with both m and 10^k
 * exact doubles, so one division rounds correctly (Clinger) and gives what
 * strtod gives.  Returns 0 with *out set, -1 when the text is not of that
 * form (the caller then uses the full parser). */
static int fast_number(const char *s, double *out)
{
    static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
                                 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    uint64_t m = 0;
    const char *p = s;
    unsigned d;
    while ((d = (unsigned)(*p - '0')) < 10) {
        m = m * 10 + d;
        p++;
    }
    long ni = p - s, nf = 0;
    if (ni == 0)
        return -1;
    if (*p == '.') {
        const char *f = ++p;
        while ((d = (unsigned)(*p - '0')) < 10) {
            m = m * 10 + d;
            p++;
        }
        nf = p - f;
        if (nf == 0)
            return -1;
    }
    if (*p || ni + nf > 19 || nf > 22 || m > ((uint64_t)1 << 53))
        return -1;
    *out = (double)m / p10[nf];
    return 0;
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

/* Read the series input (grouped by tenant) and classify every tenant. */
static int read_series(const char *path, struct run *rs, csvw *fw)
{
    struct sreader sr = {0};
    sr.own = path && strcmp(path, "-") != 0;
    sr.name = sr.own ? path : "<stdin>";
    sr.fp = sr.own ? fopen(path, "rb") : stdin;
    if (!sr.fp) {
        slk_error("%s: cannot open: %s", path, strerror(errno));
        return SLK_ENOINPUT;
    }
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
        free(sr.buf);
        if (sr.own)
            fclose(sr.fp);
        return st;
    }
    int st;
    char *hcopy = xmalloc(hn + 2);
    memcpy(hcopy, hl, hn);
    hcopy[hn] = '\n';
    hcopy[hn + 1] = 0;
    FILE *hf = fmemopen(hcopy, hn + 1, "r");
    csvr *h = hf ? csvr_open_fp(hf, sr.name, 0, &st) : NULL;
    if (!hf) {
        slk_error("cannot read the header: %s", strerror(errno));
        st = SLK_ESOFTWARE;
    }
    int ct = -1, ctime = -1, cu = -1, cs = -1;
    char cname_t[256] = "t", cname_u[256] = "util", cname_s[256] = "servers";
    if (h) {
        ct = csvr_require(h, "tenant");
        ctime = ct < 0 ? -1 : csvr_require(h, "t");
        cu = ctime < 0 ? -1 : csvr_require(h, "util");
        cs = csvr_col(h, "servers");
        sr.ncols = csvr_ncols(h);
        if (ctime >= 0)
            snprintf(cname_t, sizeof cname_t, "%s", csvr_colname(h, ctime));
        if (cu >= 0)
            snprintf(cname_u, sizeof cname_u, "%s", csvr_colname(h, cu));
        if (cs >= 0)
            snprintf(cname_s, sizeof cname_s, "%s", csvr_colname(h, cs));
        st = (ct < 0 || ctime < 0 || cu < 0) ? SLK_EDATA : SLK_OK;
        csvr_close(h);
    }
    if (hf)
        fclose(hf);
    free(hcopy);
    if (st) {
        free(sr.buf);
        if (sr.own)
            fclose(sr.fp);
        return st;
    }
    sr.field = xcalloc((size_t)sr.ncols + 1, sizeof *sr.field);
    if (slk_opt.no_header) { /* the first line is data: read it again */
        if (sr.pos > (size_t)(hl - sr.buf) + hn)
            hl[hn] = '\n';
        sr.pos = (size_t)(hl - sr.buf);
        sr.line--;
    }

    double umax = opt.percent ? 100 : 1;
    fft_cache *fc = fft_cache_new();
    struct series s = {0};
    group_tracker g;
    group_init(&g);
    char *cur = NULL;
    double cur_servers = 1;
    long cur_line = 0;
    char b[80];
    st = SLK_OK;
    for (;;) {
        size_t n;
        char *line = sr_line(&sr, &n);
        if (!line)
            break;
        if (n == 0 || (n == 1 && line[0] == '\r'))
            continue;
        if (sr_split(&sr, line, n) < 0)
            break;
        const char *tenant = sr.field[ct];
        if (!tenant) {
            sr_error(&sr, "column 'tenant': missing value");
            break;
        }
        if (!cur || !same_str(cur, tenant)) {
            if (group_check(&g, tenant) < 0) {
                sr_error(&sr, "tenant '%s' appears again after other tenants: input not grouped by tenant "
                              "(sort it, e.g. sort -t, -k1,1 -s)", shown(tenant, b, sizeof b));
                break;
            }
            if (cur) {
                st = tenant_done(rs, fc, &s, cur, cur_servers, sr.name, cur_line, fw);
                free(cur);
                cur = NULL;
                if (st)
                    break;
            }
            cur = xstrdup(tenant);
            cur_line = sr.line;
            s.n = 0;
            cur_servers = 1;
            double sv = servers_lookup(tenant);
            if (sv >= 0) {
                cur_servers = sv;
            } else if (cs >= 0 && sr.field[cs]) {
                const char *f = sr.field[cs];
                if (parse_double(f, &cur_servers, 0) < 0) {
                    sr_error(&sr, "column '%s': invalid number '%s'", cname_s, shown(f, b, sizeof b));
                    break;
                }
                if (cur_servers < 0) {
                    sr_error(&sr, "column '%s': must not be negative, got '%s'", cname_s, shown(f, b, sizeof b));
                    break;
                }
            } else if (nsrv) {
                rs->unlisted++;
            }
            slk_progress("tenants", rs->n + 1, 0);
        }
        const char *ft = sr.field[ctime], *fu = sr.field[cu];
        double t, u;
        if (!ft) {
            sr_error(&sr, "column '%s': missing value", cname_t);
            break;
        }
        if (fast_number(ft, &t) < 0 && parse_time(ft, &t) < 0) {
            sr_error(&sr, "column '%s': invalid time '%s' (want epoch seconds or ISO 8601 UTC)", cname_t,
                     shown(ft, b, sizeof b));
            break;
        }
        if (!fu) { /* an empty util is a gap */
            rs->missing_util++;
            continue;
        }
        if (fast_number(fu, &u) < 0 && parse_double(fu, &u, 0) < 0) {
            sr_error(&sr, "column '%s': invalid number '%s'", cname_u, shown(fu, b, sizeof b));
            break;
        }
        if (u < 0) {
            sr_error(&sr, "column '%s': must not be negative, got '%s'", cname_u, shown(fu, b, sizeof b));
            break;
        }
        if (u > umax) {
            sr_error(&sr, "column '%s': %s is above %g%s", cname_u, shown(fu, b, sizeof b), umax,
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
        st = sr.status;
    if (!st && cur)
        st = tenant_done(rs, fc, &s, cur, cur_servers, sr.name, cur_line, fw);
    slk_progress_done();
    free(cur);
    group_free(&g);
    fft_cache_free(fc);
    free(s.t); free(s.u); free(s.bin); free(s.cnt); free(s.spec); free(s.tmp);
    free(sr.field);
    free(sr.buf);
    if (sr.own)
        fclose(sr.fp);
    return st;
}

/* Read feature tables written by --features-only. */
static int read_features(const char *path, struct run *rs)
{
    int st;
    csvr *r = csvr_open(path, 1, &st);
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
    csvw *w = csvw_new(outf_fp(o));
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
        "  tracegen tenants --count 500 --truth truth.csv | tenantclass --servers truth.csv --classes classes.csv\n"
        "  tenantclass --step 5m --scale percent --periods 1h,2h usage.csv\n"
        "  # sharded: the per-tenant phase on each shard, clustering on the small feature table\n"
        "  parallel 'tenantclass --features-only {} > {.}.feat' ::: shard*.csv\n"
        "  tenantclass --from-features --classes classes.csv shard*.feat > tenants.csv",
        kids, NULL, NULL};
    argp_parse(&argp, argc, argv, 0, NULL, NULL);

    int st = SLK_OK;
    double t0 = slk_now();
    if (opt.servers_path && (st = load_servers(opt.servers_path)) != SLK_OK)
        return slk_finish(st);
    outf *o = outf_open(slk_opt.output, &st);
    if (!o)
        return slk_finish(st);
    csvw *w = csvw_new(outf_fp(o));
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
    for (size_t i = 0; i < nsrv; i++)
        free(srv_tab[i].tenant);
    free(srv_tab);
    free(inputs);
    return slk_finish(outf_finish(o, st));
}
