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
#include "base/outfile.h"
#include "base/parse.h"
#include "harvest/classes.h"
#include "harvest/pattern.h"
#include "harvest/tenantio.h"

#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- options ---------------------------------------------------------------- */

static struct {
    struct tenantio_opts io;  /* the per-tenant phase, pattern rules included */
    struct classes_opts cl;   /* the clustering phase */
    const char *classes_path;
    const char *servers_path;
    int features_only, from_features;
} opt = {
    .io = {.rules = {.step = 120, .nperiods = 2, .periods = {86400, 604800}, .min_cycles = 2, .harmonics = 6,
                     .periodic_min = 0.3, .repeat_min = 0.5, .constant_max = 0.03, .low_period = 3600,
                     .peak_pct = 99},
           .max_missing = 0.5, .min_samples = 16, .max_tenants = 10000000},
    .cl = {.k_max = 20, .tolerance = 0.05, .n_init = 4, .max_iter = 300},
};

static const char **inputs;
static int ninputs;

enum {
    OPT_STEP = 1000, OPT_SCALE, OPT_MAX_MISSING, OPT_MIN_SAMPLES, OPT_PERIODS, OPT_MIN_CYCLES, OPT_HARMONICS,
    OPT_PERIODIC_MIN, OPT_REPEAT_MIN, OPT_CONSTANT_MAX, OPT_LOW_PERIOD, OPT_PEAK_PCT, OPT_K, OPT_K_MAX,
    OPT_TOLERANCE, OPT_N_INIT, OPT_MAX_ITER, OPT_CLASSES, OPT_SERVERS, OPT_FEATURES_ONLY, OPT_FROM_FEATURES,
    OPT_THREADS, OPT_MAX_TENANTS, OPT_SORT = 's'
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
    {"sort", OPT_SORT, NULL, 0, "Rows in any order: hold the input and group it by tenant first (memory: about 80 bytes a row)", 4},
    {0}
};

static int parse_k(const char *k, const char *v, void *ctx)
{
    struct argp_state *st = ctx;
    int p = pattern_from_name(k);
    if (p >= 0) {
        opt.cl.k_fixed[p] = (int)cli_int(st, "k", v, 1, 1000);
        return 0;
    }
    argp_error(st, "invalid value for --k: unknown pattern '%s' (want periodic, constant or unpredictable)", k);
    return -1;
}

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    switch (key) {
    case OPT_STEP: opt.io.rules.step = cli_duration(st, "step", arg, 1); break;
    case OPT_SCALE:
        opt.io.percent = cli_choice(st, "scale", arg, (const char *const[]){"fraction", "percent", NULL});
        break;
    case OPT_MAX_MISSING: opt.io.max_missing = cli_double(st, "max-missing", arg, 0, 1); break;
    case OPT_MIN_SAMPLES: opt.io.min_samples = (long)cli_int(st, "min-samples", arg, 2, 100000000); break;
    case OPT_PERIODS: {
        char *s = xstrdup(arg), *save = NULL;
        opt.io.rules.nperiods = 0;
        for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if (opt.io.rules.nperiods >= PATTERN_MAX_PERIODS)
                argp_error(st, "invalid value for --periods: at most %d periods", PATTERN_MAX_PERIODS);
            opt.io.rules.periods[opt.io.rules.nperiods++] = cli_duration(st, "periods", tok, 1);
        }
        free(s);
        if (opt.io.rules.nperiods == 0)
            argp_error(st, "invalid value for --periods: '%s' (want durations like 1d,7d)", arg);
        break;
    }
    case OPT_MIN_CYCLES: opt.io.rules.min_cycles = cli_double(st, "min-cycles", arg, 1, 1e6); break;
    case OPT_HARMONICS: opt.io.rules.harmonics = (int)cli_int(st, "harmonics", arg, 1, 100); break;
    case OPT_PERIODIC_MIN: opt.io.rules.periodic_min = cli_double(st, "periodic-min", arg, 0, 1); break;
    case OPT_REPEAT_MIN: opt.io.rules.repeat_min = cli_double(st, "repeat-min", arg, -1, 1); break;
    case OPT_CONSTANT_MAX: opt.io.rules.constant_max = cli_double(st, "constant-max", arg, 0, 1); break;
    case OPT_LOW_PERIOD: opt.io.rules.low_period = cli_duration(st, "low-period", arg, 1); break;
    case OPT_PEAK_PCT: opt.io.rules.peak_pct = cli_double(st, "peak-pct", arg, 0, 100); break;
    case OPT_K:
        if (strcmp(arg, "auto") == 0) {
            memset(opt.cl.k_fixed, 0, sizeof opt.cl.k_fixed);
        } else if (!strchr(arg, '=')) {
            int k = (int)cli_int(st, "k", arg, 1, 1000);
            for (int p = 0; p < PATTERN_N; p++)
                opt.cl.k_fixed[p] = k;
        } else {
            char *s = xstrdup(arg);
            if (parse_kv_list(s, parse_k, st) < 0)
                argp_error(st, "invalid value for --k: '%s' (want auto, N, or pattern=N,...)", arg);
            free(s);
        }
        break;
    case OPT_K_MAX: opt.cl.k_max = (int)cli_int(st, "k-max", arg, 1, 1000); break;
    case OPT_TOLERANCE: opt.cl.tolerance = cli_double(st, "tolerance", arg, 0, 1); break;
    case OPT_N_INIT: opt.cl.n_init = (int)cli_int(st, "n-init", arg, 1, 1000); break;
    case OPT_MAX_ITER: opt.cl.max_iter = (int)cli_int(st, "max-iter", arg, 1, 1000000); break;
    case OPT_CLASSES: opt.classes_path = arg; break;
    case OPT_SERVERS: opt.servers_path = arg; break;
    case OPT_FEATURES_ONLY: opt.features_only = 1; break;
    case OPT_FROM_FEATURES: opt.from_features = 1; break;
    case OPT_MAX_TENANTS: opt.io.max_tenants = cli_int(st, "max-tenants", arg, 1, 1000000000000LL); break;
    case OPT_SORT: opt.io.sort = 1; break;
    case OPT_THREADS: opt.io.threads = (int)cli_int(st, "threads", arg, 1, 64); break;
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
        if (opt.io.sort && opt.from_features)
            argp_error(st, "--sort reads a series (not with --from-features: feature tables need no grouping)");
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* ---- the two phases ------------------------------------------------------------ */

/* unnamed: into b, the summary's note on the skipped tenants' warnings
 * when only the first were printed (slk_warn_many), else ""; returns b. */
static const char *unnamed(const struct tenant_set *ts, char b[static 96])
{
    long hidden = slk_many_hidden(&ts->warned);
    b[0] = 0;
    if (hidden > 0)
        snprintf(b, 96, "; the first %d are named above, %ld more are not", SLK_MANY_SHOWN, hidden);
    return b;
}

/* When every tenant read was skipped, say so plainly, and name --step when
 * the tenants' samples are further apart than it (the common cause: 5-minute
 * data at the default 2m step).  Exit status stays 0, as when some are
 * skipped (skyfit and sloinfer do the same when no job can be fitted);
 * classpick refuses the empty class table. */
static void none_left(const struct tenant_set *ts, long classified)
{
    long skipped = ts->skipped_gaps + ts->skipped_short;
    if (classified || !skipped)
        return;
    fprintf(slk_summary(),
            "tenantclass: warning: no tenant classified: all %ld were skipped (%ld for gaps, %ld too short)",
            skipped, ts->skipped_gaps, ts->skipped_short);
    if (ts->skipped_sparse)
        fprintf(slk_summary(),
                "; %ld of them have samples further apart than --step %g s: give --step their interval "
                "(see the warnings)",
                ts->skipped_sparse, opt.io.rules.step);
    fprintf(slk_summary(), "\n");
}

/* The tenants --servers does not list, every one of them (it counted only
 * those of 1 server), and where their servers came from. */
static void unlisted_warning(const struct tenant_set *ts)
{
    if (ts->unlisted == ts->unlisted_one && ts->unlisted)
        fprintf(slk_summary(),
                "tenantclass: warning: %ld tenants are not in --servers %s; counted as 1 server\n",
                ts->unlisted, opt.servers_path);
    else if (ts->unlisted)
        fprintf(slk_summary(),
                "tenantclass: warning: %ld tenants are not in --servers %s: %ld with the servers column of "
                "the input, %ld counted as 1 server\n",
                ts->unlisted, opt.servers_path, ts->unlisted - ts->unlisted_one, ts->unlisted_one);
}

/* --features-only: the per-tenant phase, each feature row written as soon as
 * its tenant is complete (to the held output: stdout sees it at the end).
 * The summary gives the tenants per pattern (no classes: that is the
 * clustering phase), the samples and the tenants skipped. */
static int features_only(csvw *w, double t0)
{
    struct tenant_set ts = {0};
    csvw_header(w, tenantio_feature_header);
    int st = tenantio_read_series(ninputs ? inputs[0] : "-", &opt.io, &ts, w);
    long n = 0;
    for (int p = 0; p < PATTERN_N; p++)
        n += ts.classified[p];
    if (!st && !slk_opt.quiet) {
        char note[96];
        fprintf(slk_summary(), "tenantclass: features of %ld tenants written (", n);
        for (int p = 0; p < PATTERN_N; p++)
            fprintf(slk_summary(), "%s %ld, ", pattern_name(p), ts.classified[p]);
        fprintf(slk_summary(), "%zu samples; %ld skipped for gaps, %ld too short%s) in %.2f s\n", ts.samples,
                ts.skipped_gaps, ts.skipped_short, unnamed(&ts, note), slk_now() - t0);
        none_left(&ts, n);
        unlisted_warning(&ts);
    }
    tenant_set_free(&ts);
    return st;
}

/* the tenants of the series, or of the feature tables, sorted by name */
static int read_tenants(struct tenant_set *ts)
{
    int st = SLK_OK;
    if (!opt.from_features)
        st = tenantio_read_series(ninputs ? inputs[0] : "-", &opt.io, ts, NULL);
    else if (ninputs == 0)
        st = tenantio_read_features("-", &opt.io, ts);
    for (int i = 0; opt.from_features && i < ninputs && !st; i++)
        st = tenantio_read_features(inputs[i], &opt.io, ts);
    /* a tenant in two groups or feature tables was refused at its row (the
     * grouping check, tenantio_read_features): a duplicate here is a bug */
    const char *dup = st ? NULL : tenant_set_sort(ts);
    if (dup) {
        slk_error("internal error: tenant '%s' read twice", dup);
        st = SLK_ESOFTWARE;
    }
    return st;
}

static void summary(const struct tenant_set *ts, const struct pattern_classes *pcs, double t0)
{
    long cnt[PATTERN_N] = {0};
    for (size_t i = 0; i < ts->n; i++)
        cnt[ts->rows[i].pf.pattern]++;
    char note[96];
    fprintf(slk_summary(), "tenantclass: %zu tenants", ts->n);
    if (ts->skipped_gaps || ts->skipped_short)
        fprintf(slk_summary(), " (%ld more skipped: %ld for gaps, %ld too short%s)",
                ts->skipped_gaps + ts->skipped_short, ts->skipped_gaps, ts->skipped_short, unnamed(ts, note));
    fprintf(slk_summary(), ":");
    for (int p = 0; p < PATTERN_N; p++)
        fprintf(slk_summary(), " %s %ld (%d class%s, rms %.3g)%s", pattern_name(p), cnt[p], pcs[p].k,
                pcs[p].k == 1 ? "" : "es", cnt[p] ? pcs[p].rms : 0.0, p + 1 < PATTERN_N ? "," : "\n");
    const int *kf = opt.cl.k_fixed;
    /* rms, the slow sd and the tolerance are all in 0-1 units, whatever
     * --scale says, so the summary's numbers compare with each other */
    char kwhy[160];
    int nfixed = (kf[0] > 0) + (kf[1] > 0) + (kf[2] > 0);
    if (nfixed == PATTERN_N)
        snprintf(kwhy, sizeof kwhy, "fixed by --k");
    else
        snprintf(kwhy, sizeof kwhy, "%sthe smallest with rms distance to the class center <= --tolerance %g",
                 nfixed ? "fixed by --k for some patterns, else " : "", opt.cl.tolerance);
    fprintf(slk_summary(),
            "tenantclass: patterns: periodic when a period in --periods has strength >= %g and "
            "repeat >= %g, else constant when the slow sd <= %g, else unpredictable; k %s "
            "(rms and sd in 0-1 units); in %.2f s\n",
            opt.io.rules.periodic_min, opt.io.rules.repeat_min, opt.io.rules.constant_max, kwhy,
            slk_now() - t0);
    none_left(ts, (long)ts->n);
    unlisted_warning(ts);
}

/* the tenant table to w, the class table to --classes (into *oc, committed
 * with -o by the caller) */
static int write_tenants(csvw *w, const struct tenant_set *ts, const struct pattern_classes *pcs, outf **oc)
{
    static const char *const hdr[] = {"tenant", "pattern", "class", "avg", "peak", "strength", NULL};
    double s = opt.io.percent ? 100 : 1;
    csvw_header(w, hdr);
    for (size_t i = 0; i < ts->n; i++) {
        const struct tenant_feat *f = &ts->rows[i];
        char name[64];
        classes_name(name, sizeof name, f->pf.pattern, f->cls);
        csvw_str(w, f->tenant);
        csvw_str(w, pattern_name(f->pf.pattern));
        csvw_str(w, name);
        csvw_num(w, f->pf.avg * s);
        csvw_num(w, f->pf.peak * s);
        csvw_num(w, f->pf.strength);
        csvw_end(w);
    }
    if (!opt.classes_path)
        return SLK_OK;
    int st;
    if (!(*oc = outf_open(opt.classes_path, &st)))
        return st;
    csvw *cw = csvw_new_with(outf_fp(*oc), cli_dialect(NULL));
    classes_write(cw, ts, pcs, opt.io.percent);
    st = csvw_error(cw) ? SLK_EIO : SLK_OK;
    csvw_free(cw);
    return st;
}

int main(int argc, char **argv)
{
    slk_init("tenantclass");
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {
        options, parse_opt, "[FILE...]",
        "Classify primary tenants by their CPU utilization history: resample, FFT, pattern "
        "(periodic, constant, unpredictable), then K-Means classes inside each pattern.\n"
        "Input columns: tenant,t,util[,servers], grouped by tenant (or -s); util in 0-1 (or --scale percent).\n"
        "Output: tenant,pattern,class,avg,peak,strength, sorted by tenant.  " OUTF_HELD_HELP
        "\vExamples:\n"
        "  tracegen tenants --count 500 --truth truth.csv -o util.csv\n"
        "  tenantclass --servers truth.csv --classes cl.csv util.csv > tenants.csv\n"
        "  tenantclass --step 5m --scale percent --periods 1h,2h usage.csv\n"
        "  tenantclass -s --on-error skip --rejects bad.csv shuffled.csv\n"
        "  # sharded: per-tenant phase per shard, clustering on the feature tables\n"
        "  parallel 'tenantclass --features-only {} > {.}.feat' ::: shard*.csv\n"
        "  tenantclass --from-features --classes cl.csv shard*.feat > tenants.csv",
        kids, NULL, NULL};
    cli_roles("series", "servers", (const char *)NULL);
    /* the series, or with --from-features the feature tables, which a run
     * reads with the options of its --features-only runs */
    cli_keys("series", tenantio_series_keys);
    cli_keys("series", tenantio_feature_header);
    cli_keys("servers", tenantio_server_keys);
    cli_parse(&argp, argc, argv, NULL);
    cli_outputs((const char *const[]){opt.classes_path}, 1);

    opt.io.dialect = cli_dialect(NULL);
    opt.cl.seed = slk_opt.seed;
    double t0 = slk_now();
    int st = SLK_OK;
    tenant_servers *srv = NULL;
    struct tenant_set ts = {0};
    struct pattern_classes pcs[PATTERN_N] = {{0}};
    outf *o = NULL, *oc = NULL;
    csvw *w = NULL;
    if (opt.servers_path)
        st = tenant_servers_load(opt.servers_path, cli_dialect("servers"), &srv);
    opt.io.servers = srv;
    if (!st && (o = outf_open_held(slk_opt.output, &st)) != NULL)
        w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
    if (w && opt.features_only) {
        st = features_only(w, t0);
    } else if (w && (st = read_tenants(&ts)) == SLK_OK) {
        classes_cluster(&ts, &opt.cl, pcs);
        st = write_tenants(w, &ts, pcs, &oc);
        if (!st && !slk_opt.quiet)
            summary(&ts, pcs, t0);
    }
    if (w && !st && csvw_error(w))
        st = SLK_EIO;
    if (w)
        csvw_free(w);
    outf *both[2] = {oc, o}; /* --classes and -o: both replaced, or neither */
    st = outf_finish_all(both, 2, st);
    for (int p = 0; p < PATTERN_N; p++)
        free(pcs[p].center);
    tenant_set_free(&ts);
    tenant_servers_free(srv);
    free(inputs);
    return slk_finish(st);
}
