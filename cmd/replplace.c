/* replplace — place block replicas on harvested storage so that they are
 * diverse in reimage frequency, peak CPU utilization and environment
 * (Algorithm 2, seed 003 §4.2), and simulate a year of reimages and reads to
 * compare it with a stock HDFS-like policy (§6).
 *
 *   replplace [OPTIONS] TENANTS [BLOCKS]          blocks in, placements out
 *   replplace --simulate [OPTIONS] TENANTS        durability/availability table
 *
 * The model lives in lib/harvest/replica, the tables' readers and writers in
 * lib/harvest/rpfile; this file checks the options, drives the library and
 * words the results. */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "harvest/replica.h"
#include "harvest/rpfile.h"

#include <argp.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPT_POLICY = 1, OPT_SOFT, OPT_BLOCK_MB, OPT_RACK, OPT_CLASSES, OPT_SIMULATE, OPT_BLOCKS,
    OPT_DAYS, OPT_EVENTS, OPT_WRITE_EVENTS, OPT_RATE, OPT_DETECT, OPT_BUSY, OPT_UTIL_SCALE,
    OPT_ACCESSES, OPT_PICK, OPT_LOST, OPT_BURST, OPT_ENV_BURST, OPT_BURST_MIN, OPT_BURST_MAX, OPT_WINDOW,
    OPT_REBUILD, OPT_RACKS, OPT_BUSY_DEST
};

static const char *tenants_path, *blocks_path;
static const char *policy_arg, *replicas_arg;
static int soft, simulate, pick_space;
static double block_mb = 256;
static int rack_size = 20;
static const char *classes_path, *events_path, *write_events_path, *lost_path;
static long nblocks = 4000000, naccesses = 1000000;
static double days = 365;
static int days_given;
static double rate = 30, detect = 600, busy = 0.66, util_scale = 1;
static struct rp_burst_model burst = {0.5, 0.1, 0.05, 0.5, 7200};
static enum rp_rebuild rebuild = RP_REBUILD_SOURCES;
static int racks_mixed = 1, busy_dest_avoid = 1;

static const struct argp_option options[] = {
    {0, 0, 0, 0, "Placement:", 1},
    {"replicas", 'r', "N[,N...]", 0, "Replicas per block (default 3; with --simulate a list, default 3,4)", 1},
    {"policy", OPT_POLICY, "NAME[,NAME]", 0,
     "alg2 (Algorithm 2, default) or stock (HDFS-like: local, same rack, remote rack, random); "
     "with --simulate a list, default alg2,stock", 1},
    {"soft", OPT_SOFT, NULL, 0,
     "When diversity runs out, relax the row/column rule, then the environment rule, and count it "
     "(default: stop with exit 1)", 1},
    {"pick", OPT_PICK, "HOW", 0,
     "How alg2 draws a tenant inside a class: uniform (the paper, default) or space (in proportion to free "
     "space)", 1},
    {"block-mb", OPT_BLOCK_MB, "MB", 0, "Block size for space accounting (default 256)", 1},
    {"rack-size", OPT_RACK, "N", 0, "Servers per rack for the stock policy (default 20)", 1},
    {"racks", OPT_RACKS, "HOW", 0,
     "How servers form racks: mixed (shuffled from --seed, racks independent of tenants) or ids "
     "(ids 0..N-1 are rack 0, ...; mostly one tenant per rack) (default mixed)", 1},
    {"classes", OPT_CLASSES, "FILE", 0, "Also write the 3 x 3 class table to FILE", 1},
    {0, 0, 0, 0, "Simulation (--simulate):", 2},
    {"simulate", OPT_SIMULATE, NULL, 0, "Simulate reimages and reads; write one row per policy and replica count", 2},
    {"blocks", OPT_BLOCKS, "N", 0, "Blocks created at the start (default 4000000)", 2},
    {"days", OPT_DAYS, "D", 0, "Days simulated (default 365, or up to the last --events event, at least 1 h)", 2},
    {"events", OPT_EVENTS, "FILE", 0, "Replay these events (t,server,event) instead of drawing them from the rates", 2},
    {"write-events", OPT_WRITE_EVENTS, "FILE", 0, "Write the events that are simulated to FILE", 2},
    {"lost", OPT_LOST, "FILE", 0, "Write every lost block's replicas (where and when each copy was destroyed) to FILE", 2},
    {"rebuild", OPT_REBUILD, "HOW", 0,
     "How lost replicas are re-created: sources (every server holding a surviving copy sends, each at --rate, "
     "in parallel; HDFS-like) or server (the reimaged server's replicas one at a time at --rate) "
     "(default sources)", 2},
    {"rate", OPT_RATE, "N", 0, "Re-created blocks per hour per sending server (default 30)", 2},
    {"busy-dest", OPT_BUSY_DEST, "HOW", 0,
     "avoid: alg2 puts no new replica on a server above --busy at that time (HDFS-H); any: it may "
     "(default avoid).  stock never looks (HDFS-Stock)", 2},
    {"detect", OPT_DETECT, "DUR", 0, "Delay before re-creation starts (default 10m)", 2},
    {"busy", OPT_BUSY, "U", 0, "A server above this CPU utilization denies reads (default 0.66)", 2},
    {"util-scale", OPT_UTIL_SCALE, "K", 0, "Multiply every tenant's utilization curve by K (default 1)", 2},
    {"accesses", OPT_ACCESSES, "N", 0, "Random reads over the period (default 1000000)", 2},
    {"burst-share", OPT_BURST, "X", 0, "Share of reimages in tenant-wide bursts (default 0.5)", 2},
    {"env-burst-share", OPT_ENV_BURST, "X", 0, "Share of reimages in environment-wide bursts (default 0.1)", 2},
    {"burst-min", OPT_BURST_MIN, "F", 0, "Smallest fraction of servers a burst hits (default 0.05)", 2},
    {"burst-max", OPT_BURST_MAX, "F", 0, "Largest fraction of servers a burst hits (default 0.5)", 2},
    {"burst-window", OPT_WINDOW, "DUR", 0, "A burst's reimages spread over this long (default 2h)", 2},
    {0}
};

static const char *sim_opt; /* the first option of --simulate's group given */

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    if (!sim_opt && key != OPT_SIMULATE)
        sim_opt = cli_group_option(options, key, 2);
    switch (key) {
    case 'r': replicas_arg = arg; break;
    case OPT_POLICY: policy_arg = arg; break;
    case OPT_SOFT: soft = 1; break;
    case OPT_PICK:
        if (strcmp(arg, "uniform") != 0 && strcmp(arg, "space") != 0)
            argp_error(st, "invalid value for --pick: '%s' (want uniform or space)", arg);
        pick_space = strcmp(arg, "space") == 0;
        break;
    case OPT_BLOCK_MB: block_mb = cli_double(st, "block-mb", arg, 1e-3, 1e9); break;
    case OPT_RACK: rack_size = (int)cli_int(st, "rack-size", arg, 1, 1000000); break;
    case OPT_CLASSES: classes_path = arg; break;
    case OPT_SIMULATE: simulate = 1; break;
    case OPT_BLOCKS: nblocks = (long)cli_int(st, "blocks", arg, 1, 100000000); break;
    case OPT_DAYS: days = cli_double(st, "days", arg, 1.0 / 24, RP_MAX_DAYS); days_given = 1; break;
    case OPT_EVENTS: events_path = arg; break;
    case OPT_WRITE_EVENTS: write_events_path = arg; break;
    case OPT_LOST: lost_path = arg; break;
    case OPT_REBUILD:
        if (strcmp(arg, "sources") != 0 && strcmp(arg, "server") != 0)
            argp_error(st, "invalid value for --rebuild: '%s' (want sources or server)", arg);
        rebuild = strcmp(arg, "server") == 0 ? RP_REBUILD_SERVER : RP_REBUILD_SOURCES;
        break;
    case OPT_RACKS:
        if (strcmp(arg, "mixed") != 0 && strcmp(arg, "ids") != 0)
            argp_error(st, "invalid value for --racks: '%s' (want mixed or ids)", arg);
        racks_mixed = strcmp(arg, "mixed") == 0;
        break;
    case OPT_BUSY_DEST:
        if (strcmp(arg, "avoid") != 0 && strcmp(arg, "any") != 0)
            argp_error(st, "invalid value for --busy-dest: '%s' (want avoid or any)", arg);
        busy_dest_avoid = strcmp(arg, "avoid") == 0;
        break;
    case OPT_RATE: rate = cli_double(st, "rate", arg, 1e-6, 1e9); break;
    case OPT_DETECT: detect = cli_duration(st, "detect", arg, 0); break;
    case OPT_BUSY: busy = cli_double(st, "busy", arg, 0, 1); break;
    case OPT_UTIL_SCALE: util_scale = cli_double(st, "util-scale", arg, 0, 100); break;
    case OPT_ACCESSES: naccesses = (long)cli_int(st, "accesses", arg, 0, 1000000000); break;
    case OPT_BURST: burst.burst_share = cli_double(st, "burst-share", arg, 0, 1); break;
    case OPT_ENV_BURST: burst.env_burst_share = cli_double(st, "env-burst-share", arg, 0, 1); break;
    case OPT_BURST_MIN: burst.frac_min = cli_double(st, "burst-min", arg, 0, 1); break;
    case OPT_BURST_MAX: burst.frac_max = cli_double(st, "burst-max", arg, 0, 1); break;
    case OPT_WINDOW: burst.window = cli_duration(st, "burst-window", arg, 0); break;
    case ARGP_KEY_ARG:
        if (!tenants_path)
            tenants_path = arg;
        else if (!blocks_path)
            blocks_path = arg;
        else
            argp_error(st, "too many arguments ('%s'): want TENANTS [BLOCKS]", arg);
        break;
    case ARGP_KEY_END:
        if (!tenants_path)
            argp_error(st, "missing TENANTS file (tenant,environment,servers,space_gb,reimages_per_server_month,peak_util)");
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* ---- option lists ------------------------------------------------------------ */

static void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "replplace: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    fprintf(stderr, "Try 'replplace --help' for more information.\n");
    exit(slk_finish(SLK_EUSAGE));
}

/* parse "3,4" into out[]; returns the count */
static int parse_replicas(const char *s, int *out, int max)
{
    int n = 0;
    char *copy = xstrdup(s), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *end;
        long v = strtol(tok, &end, 10);
        if (*end || end == tok || v < 1 || v > RP_MAX_REPLICAS) {
            free(copy);
            usage_error("invalid value for --replicas: '%s' (want integers 1 to %d, comma-separated)", s,
                        RP_MAX_REPLICAS);
        }
        if (n >= max) {
            free(copy);
            usage_error("invalid value for --replicas: '%s' (at most %d values)", s, max);
        }
        out[n++] = (int)v;
    }
    free(copy);
    if (n == 0)
        usage_error("invalid value for --replicas: '%s' (empty)", s);
    return n;
}

static int parse_policies(const char *s, enum rp_policy *out, int max)
{
    int n = 0;
    char *copy = xstrdup(s), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (n >= max || (strcmp(tok, "alg2") != 0 && strcmp(tok, "stock") != 0)) {
            free(copy);
            usage_error("invalid value for --policy: '%s' (want alg2, stock, or both comma-separated)", s);
        }
        out[n++] = strcmp(tok, "alg2") == 0 ? RP_ALG2 : RP_STOCK;
    }
    free(copy);
    if (n == 0)
        usage_error("invalid value for --policy: '%s' (empty)", s);
    return n;
}

static const char *policy_name(enum rp_policy p) { return p == RP_ALG2 ? "alg2" : "stock"; }

/* ---- inputs ------------------------------------------------------------------ */

/* the tenants as a built cluster; NULL after printing why */
static rp_cluster *read_tenants(const char *path, int *status)
{
    rp_cluster *c = rp_read_tenants(path, cli_dialect("tenants"), block_mb, rack_size, slk_opt.seed, status);
    if (!c)
        return NULL;
    rp_cluster_racks_mixed(c, racks_mixed);
    rp_cluster_build(c);
    rp_cluster_pick_by_space(c, pick_space);
    return c;
}

/* write one table to path (replaced when complete) with the writer fn */
/* The outputs of the run (--classes, --write-events, --lost, -o), written
 * as the run goes and replaced together at its end, or none of them. */
static outf *pending[4];
static int npending;

static int write_table(const char *path, void (*fn)(csvw *, const void *, size_t), const void *arg, size_t n)
{
    int st;
    outf *o = outf_open(path, &st);
    if (!o)
        return st;
    csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
    fn(w, arg, n);
    st = csvw_error(w) ? SLK_EIO : SLK_OK;
    csvw_free(w);
    pending[npending++] = o;
    return st;
}

static void classes_fn(csvw *w, const void *c, size_t n) { (void)n; rp_write_classes(w, c); }
static void events_fn(csvw *w, const void *ev, size_t n) { rp_write_events(w, ev, n); }

static void summarize_grid(const rp_cluster *c)
{
    if (slk_opt.quiet)
        return;
    double total = 0, mn = INFINITY, mx = 0;
    int empty = 0;
    struct rp_class_info ci;
    for (int k = 0; k < RP_NCLASS; k++) {
        rp_class_info(c, k, &ci);
        total += ci.space_gb;
        empty += ci.tenants == 0;
    }
    for (int k = 0; k < RP_NCLASS; k++) {
        rp_class_info(c, k, &ci);
        mn = fmin(mn, ci.space_gb);
        mx = fmax(mx, ci.space_gb);
    }
    fprintf(slk_summary(),
            "replplace: %d tenants, %d environments, %ld servers in a 3 x 3 grid (reimage rate x peak util); "
            "class space %.1f%% to %.1f%% of the total (ideal 11.1%%)%s\n",
            rp_ntenants(c), rp_nenvs(c), (long)rp_nservers(c), total > 0 ? 100 * mn / total : 0,
            total > 0 ? 100 * mx / total : 0,
            empty ? "; some classes are empty (too few or too uneven tenants)" : "");
}

/* ---- placement mode ------------------------------------------------------------ */

/* the blocks' columns, by name (its --col KEYs) */
static const char *const block_keys[] = {"block", "server", NULL};

static int run_place(rp_cluster *c, enum rp_policy policy, int R, csvw *w)
{
    int st;
    csvr *r = csvr_open_with(blocks_path, cli_dialect(NULL), 1, &st);
    if (!r)
        return st;
    int cb = -1, cs = -1, found = -1;
    if (csvr_ncols(r) > 0)
        found = csvr_require_cols(r, "block", &cb, "server", &cs, (char *)NULL);
    else
        slk_error_at(csvr_path(r), 1, "empty input (no header row; want block,server)");
    if (found < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    csvw_header(w, (const char *const[]){"block", "replica", "server", "tenant", "class", NULL});
    rng g;
    rng_seed_key(&g, slk_opt.seed, policy == RP_ALG2 ? "place-alg2" : "place-stock");
    struct rp_place_stats ps = {0};
    int32_t out[RP_MAX_REPLICAS];
    int32_t nserv = rp_nservers(c);
    st = SLK_OK;
    while (csvr_next(r) == 1) {
        const char *block = csvr_field_required(r, cb, "block");
        int64_t creator = 0;
        int bad = 0;
        if (!block || csvr_get_int64(r, cs, &creator, CSVR_REQUIRED | CSVR_NONNEG) < 0)
            bad = -1;
        else if (creator >= nserv)
            bad = csvr_fail(r, "column 'server': %lld is not a server (the tenants have servers 0 to %ld)",
                            (long long)creator, (long)nserv - 1);
        if (bad < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        int failed = 0;
        int pr = rp_place(c, &g, policy, (int32_t)creator, R, soft, out, &failed, &ps);
        if (pr == RP_EXHAUSTED) {
            slk_error_at(csvr_path(r), csvr_line(r),
                         "block '%s': diversity exhausted at replica %d of %d: no class outside the rows and "
                         "columns already used has a tenant with free space in an environment without a "
                         "replica (--soft relaxes the constraints; or use fewer replicas or more tenants)",
                         block, failed, R);
            st = SLK_FAIL;
            break;
        }
        if (pr == RP_FULL) {
            slk_error_at(csvr_path(r), csvr_line(r),
                         "block '%s': no space left for replica %d of %d (no server outside the block's other "
                         "replicas has a tenant with free space at %g MB blocks)",
                         block, failed, R, block_mb);
            st = SLK_FAIL;
            break;
        }
        for (int k = 0; k < R; k++) {
            int t = rp_server_tenant(c, out[k]);
            csvw_str(w, block);
            csvw_int(w, k + 1);
            csvw_int(w, out[k]);
            csvw_str(w, rp_tenant_name(c, t));
            csvw_str(w, rp_class_name(rp_tenant_class(c, t)));
            csvw_end(w);
        }
        if ((ps.blocks & 0xffff) == 0)
            slk_progress("blocks", ps.blocks, 0);
    }
    slk_progress_done();
    if (st == SLK_OK)
        st = csvr_status(r);
    csvr_close(r);
    if (!slk_opt.quiet && st == SLK_OK) {
        fprintf(slk_summary(), "replplace: placed %llu blocks x %d replicas with policy %s",
                (unsigned long long)ps.blocks, R, policy_name(policy));
        if (soft || policy == RP_ALG2)
            fprintf(slk_summary(),
                    "; relaxed: %llu replicas in a repeated row/column, %llu in a repeated environment, "
                    "%llu first replicas not local",
                    (unsigned long long)ps.relaxed_grid, (unsigned long long)ps.relaxed_env,
                    (unsigned long long)ps.relaxed_local);
        fprintf(slk_summary(), "\n");
    }
    return st;
}

/* ---- simulation mode ----------------------------------------------------------- */

/* one row of the --simulate table, and its line on stderr */
static void write_result(csvw *w, enum rp_policy p, int R, const struct rp_sim_result *r, double secs)
{
    rp_write_result(w, policy_name(p), R, r);
    if (!slk_opt.quiet)
        /* the reads this run simulated (the table's accesses), not --accesses:
         * a Poisson count around it, less the reads of blocks never placed */
        fprintf(slk_summary(),
                "replplace: %-5s x%d: %llu lost blocks, %llu failed reads of %llu (%llu busy, %llu lost), "
                "%llu relaxed placements, %.1fs\n",
                policy_name(p), R, (unsigned long long)r->lost,
                (unsigned long long)r->failed_busy + (unsigned long long)r->failed_lost,
                (unsigned long long)r->accesses, (unsigned long long)r->failed_busy,
                (unsigned long long)r->failed_lost, (unsigned long long)r->relaxed, secs);
}

static int run_simulate(rp_cluster *c, const enum rp_policy *pol, int npol, const int *reps, int nrep, csvw *w)
{
    struct rp_event *ev;
    size_t nev;
    int st = SLK_OK;
    if (events_path) {
        double tmax = 0;
        ev = rp_read_events(c, events_path, cli_dialect("events"), &nev, &tmax, &st);
        if (!ev && st != SLK_OK)
            return st;
        /* without --days: up to the last event, but at least the --days
         * minimum, 1 hour (an event at t=100 simulated 101 s) */
        if (!days_given)
            days = fmax(tmax + 1, 3600) / 86400.0;
        size_t nloss = 0, nlate = 0;
        for (size_t i = 0; i < nev; i++)
            /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): ev holds nev events (NULL only when nev is 0) */
            if (ev[i].kind != RP_EV_ADD)
                *(ev[i].t < days * 86400 ? &nloss : &nlate) += 1;
        if (!nloss) { /* a header-only file simulated 1 s and wrote a table of zeros */
            if (nlate)
                slk_error_at(events_path, 0,
                             "no reimage or fail event in the first %g days (--days): nothing to simulate",
                             days);
            else
                slk_error_at(
                    events_path, 0,
                    "no reimage or fail event: nothing to simulate (leave out --events to draw events "
                    "from the tenants' rates)");
            free(ev);
            return SLK_EDATA;
        }
    } else {
        /* 16 bytes an event, held and sorted: refuse what cannot fit rather than run out of memory */
        double want = rp_expected_reimages(c, days);
        if (!(want <= 1e8)) {
            char n[32] = "over 1e300";
            if (want < 1e300)
                snprintf(n, sizeof n, "about %.3g", want);
            slk_error_at(tenants_path, 0, "the reimage rates give %s reimages in %g days (at most 1e8 can be "
                         "simulated): lower reimages_per_server_month or --days", n, days);
            return SLK_EDATA;
        }
        ev = rp_gen_events(c, slk_opt.seed, days, &burst, &nev);
    }
    if (write_events_path && (st = write_table(write_events_path, events_fn, ev, nev)) != SLK_OK) {
        free(ev);
        return st;
    }
    outf *lo = NULL;
    csvw *lw = NULL;
    if (lost_path) {
        if (!(lo = outf_open(lost_path, &st))) {
            free(ev);
            return st;
        }
        lw = csvw_new_with(outf_fp(lo), cli_dialect(NULL));
        rp_lost_header(lw);
    }
    size_t nre = 0;
    for (size_t i = 0; i < nev; i++)
        /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): ev holds nev events (NULL only when nev is 0) */
        nre += ev[i].kind != RP_EV_ADD && ev[i].t < days * 86400;
    if (!slk_opt.quiet)
        fprintf(slk_summary(),
                "replplace: simulating %.4g days: %zu reimage/fail events (%s), %ld blocks, "
                "reads at Poisson times, %ld expected (--accesses; each run below gives its count), "
                "re-creation %g blocks/h per %s server after %gs, busy above %g\n",
                days, nre, events_path ? events_path : "drawn from the tenants' rates with bursts", nblocks,
                naccesses, rate, rebuild == RP_REBUILD_SERVER ? "reimaged" : "sending", detect, busy);
    rp_result_header(w);
    struct rp_sim_result res[8][RP_MAX_REPLICAS];
    for (int i = 0; i < nrep; i++) {
        for (int p = 0; p < npol; p++) {
            struct rp_sim_config cfg = {pol[p], reps[i], nblocks, days * 86400, detect, rate, busy, util_scale,
                                        naccesses, slk_opt.seed, ev, nev, NULL, NULL, rebuild,
                                        busy_dest_avoid && pol[p] == RP_ALG2};
            struct rp_lost_ctx lc = {c, lw, policy_name(pol[p]), reps[i]};
            if (lw) {
                cfg.on_loss = rp_write_lost;
                cfg.on_loss_ctx = &lc;
            }
            char label[64];
            snprintf(label, sizeof label, "%s x%d", policy_name(pol[p]), reps[i]);
            double t0 = slk_now();
            struct rp_sim_result *r = &res[p][i];
            rp_simulate(c, &cfg, r, label);
            if (r->unplaced) {
                slk_error("%s with %d replicas: %llu of %ld blocks found no space (a tenant holds "
                          "floor(space_gb x 1024 / --block-mb) replicas: use fewer --blocks or a smaller "
                          "--block-mb)",
                          policy_name(pol[p]), reps[i], (unsigned long long)r->unplaced, nblocks);
                free(ev);
                if (lw) {
                    csvw_free(lw);
                    outf_abort(lo);
                }
                return SLK_FAIL;
            }
            write_result(w, pol[p], reps[i], r, slk_now() - t0);
        }
        int pa = -1, ps = -1;
        for (int p = 0; p < npol; p++)
            *(pol[p] == RP_ALG2 ? &pa : &ps) = p;
        if (!slk_opt.quiet && pa >= 0 && ps >= 0) {
            const struct rp_sim_result *a = &res[pa][i], *s = &res[ps][i];
            if (a->lost)
                fprintf(slk_summary(), "replplace: x%d: stock loses %.1fx the blocks alg2 loses\n", reps[i],
                        (double)s->lost / (double)a->lost);
            else
                fprintf(slk_summary(), "replplace: x%d: alg2 loses no block, stock loses %llu\n", reps[i],
                        (unsigned long long)s->lost);
        }
    }
    free(ev);
    if (lw) {
        csvw_free(lw);
        pending[npending++] = lo;
    }
    return SLK_OK;
}

/* Read the tenants, write --classes, and place BLOCKS (or simulate) into
 * -o, replaced only when complete.  Returns an exit status. */
static int place_or_simulate(const enum rp_policy *pol, int npol, const int *reps, int nrep)
{
    int st;
    rp_cluster *c = read_tenants(tenants_path, &st);
    if (!c)
        return st;
    summarize_grid(c);
    if (classes_path && (st = write_table(classes_path, classes_fn, c, 0)) != SLK_OK) {
        rp_cluster_free(c);
        return outf_finish_all(pending, npending, st);
    }
    /* held: a bad row or exit 1 late in BLOCKS leaves stdout empty, as -o FILE keeps the old file */
    outf *o = outf_open_held(slk_opt.output, &st);
    if (!o) {
        rp_cluster_free(c);
        return outf_finish_all(pending, npending, st);
    }
    csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
    st = simulate ? run_simulate(c, pol, npol, reps, nrep, w) : run_place(c, pol[0], reps[0], w);
    if (st == SLK_OK && csvw_error(w))
        st = SLK_EIO;
    csvw_free(w);
    pending[npending++] = o;
    st = outf_finish_all(pending, npending, st);
    rp_cluster_free(c);
    return st;
}

int main(int argc, char **argv)
{
    slk_init("replplace");
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {
        options, parse_opt, "TENANTS [BLOCKS]",
        "Place block replicas on harvested storage with Algorithm 2: tenants split into a 3 x 3 grid of "
        "reimage frequency x peak CPU utilization with equal space; replica 1 on the creating server, the "
        "others in classes with no repeated row or column (per group of 3) and in environments without a "
        "replica.  BLOCKS (default standard input) has columns block,server; servers are numbered 0, 1, ... "
        "through the tenants in file order.  Output: block,replica,server,tenant,class.  " OUTF_HELD_HELP
        "\vExamples:\n"
        "  tracegen storage --count 300 > tenants.csv\n"
        "  printf 'block,server\\nb1,0\\nb2,17\\n' | replplace tenants.csv\n"
        "  replplace -r 4 --soft --classes classes.csv tenants.csv blocks.csv \\\n"
        "      > placements.csv\n"
        "  # alg2 vs stock at 3 and 4 replicas:\n"
        "  replplace --simulate --blocks 4000000 tenants.csv\n"
        "  replplace --simulate --events events.csv --days 29 tenants.csv\n"
        "\nExit status: 0 ok, 1 diversity or space exhausted, 64 usage, 65 bad data,\n"
        "66 no input, 73 cannot create output, 74 I/O error.",
        kids, NULL, NULL};
    cli_roles("blocks", "tenants", "events", (const char *)NULL);
    cli_keys("blocks", block_keys);
    cli_keys("tenants", rp_tenant_keys);
    cli_keys("events", rp_event_keys);
    cli_refuse("time-unit", "its inputs hold no epoch times (the --events t is seconds from the start)");
    cli_parse(&argp, argc, argv, NULL);
    cli_outputs((const char *const[]){classes_path, write_events_path, lost_path}, 3);

    enum rp_policy pol[2];
    int reps[8];
    int npol = parse_policies(policy_arg ? policy_arg : simulate ? "alg2,stock" : "alg2", pol, 2);
    int nrep = parse_replicas(replicas_arg ? replicas_arg : simulate ? "3,4" : "3", reps, 8);
    if (!simulate && (npol > 1 || nrep > 1))
        usage_error("%s", "lists of --policy or --replicas need --simulate (placement uses one of each)");
    if (simulate && blocks_path)
        usage_error("--simulate creates its own blocks; drop the BLOCKS argument ('%s')", blocks_path);
    if (!simulate && sim_opt) /* it would be ignored */
        usage_error("--%s needs --simulate", sim_opt);
    if (burst.frac_min > burst.frac_max)
        usage_error("%s", "--burst-min must not exceed --burst-max");
    if (burst.burst_share + burst.env_burst_share > 1)
        usage_error("%s", "--burst-share plus --env-burst-share must not exceed 1");
    if (blocks_path && strcmp(blocks_path, "-") != 0 && strcmp(blocks_path, tenants_path) == 0)
        usage_error("TENANTS and BLOCKS are the same file ('%s')", blocks_path);
    if (!blocks_path && strcmp(tenants_path, "-") == 0 && !simulate)
        usage_error("%s", "TENANTS and BLOCKS cannot both be standard input");

    return slk_finish(place_or_simulate(pol, npol, reps, nrep));
}
