/* rpfile — replplace's tables (see rpfile.h). */
#include "harvest/rpfile.h"
#include "base/diag.h"
#include "base/keytab.h"

#include <math.h>
#include <stdlib.h>

const char *const rp_tenant_keys[] = {
    "tenant", "environment", "servers", "space_gb", "reimages_per_server_month", "peak_util", NULL};
const char *const rp_event_keys[] = {"t", "server", "event", NULL};

/* one tenant row into c; -1 (reported) on a bad row */
static int tenant_row(csvr *r, rp_cluster *c, keyset *seen, const int *col)
{
    const char *name, *env;
    int64_t servers;
    double space, rt, peak;
    if (!(name = csvr_field_required(r, col[0], "tenant")) ||
        !(env = csvr_field_required(r, col[1], "environment")))
        return -1;
    if (csvr_get_int64(r, col[2], &servers, CSVR_REQUIRED | CSVR_POSITIVE) < 0 ||
        csvr_get_double(r, col[3], &space, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
        csvr_get_double(r, col[4], &rt, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
        csvr_get_double(r, col[5], &peak, CSVR_REQUIRED | CSVR_NONNEG) < 0)
        return -1;
    if (peak > 1)
        return csvr_fail(r, "column 'peak_util': '%s' is above 1 (write utilization as a fraction, 0.85 not 85)",
                         csvr_field(r, col[5]));
    if (space > 1e12)
        return csvr_fail_large(r, col[3], 1e12);
    if (servers > 100000000)
        return csvr_fail_large(r, col[2], 1e8);
    if (!keytab_row(seen, r, col[0])) /* the one duplicate rule, after the row's other checks */
        return -1;
    /* -1 (a name again) cannot come: keytab_row refused it above */
    if (rp_cluster_add(c, name, env, servers, space, rt, peak) == -2)
        return csvr_fail(r, "more than 2147483646 servers in total");
    return 0;
}

rp_cluster *rp_read_tenants(const char *path, const struct csv_dialect *d, double block_mb, int rack_size,
                            uint64_t seed, int *status)
{
    csvr *r = csvr_open_with(path, d, 0, status);
    if (!r)
        return NULL;
    static const char *const names[6] = {"tenant", "environment", "servers", "space_gb",
                                         "reimages_per_server_month", "peak_util"};
    int col[6];
    if (csvr_require_list(r, names, col, 6) < 0) {
        *status = SLK_EDATA;
        csvr_close(r);
        return NULL;
    }
    rp_cluster *c = rp_cluster_new(block_mb, rack_size, seed);
    keyset *seen = keyset_new();
    while (csvr_next(r) == 1)
        if (tenant_row(r, c, seen, col) < 0 && !csvr_skip(r))
            break;
    keyset_free(seen);
    *status = csvr_status(r);
    if (*status == SLK_OK && rp_ntenants(c) == 0) {
        slk_error_at(csvr_path(r), 0, "no tenants");
        *status = SLK_EDATA;
    }
    csvr_close(r);
    if (*status != SLK_OK) {
        rp_cluster_free(c);
        return NULL;
    }
    return c;
}

/* one event row into *e; -1 (reported) on a bad row */
static int event_row(csvr *r, const rp_cluster *c, const int *col, struct rp_event *e)
{
    double t;
    int64_t s;
    if (csvr_get_double(r, col[0], &t, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
        csvr_get_int64(r, col[1], &s, CSVR_REQUIRED | CSVR_NONNEG) < 0)
        return -1;
    if (t > RP_MAX_DAYS * 86400) /* 1e308 made the run 1e303 days long and the event itself vanished */
        return csvr_fail(r, "column 't': '%s' is beyond %g days (the longest simulation)", csvr_field(r, col[0]),
                         RP_MAX_DAYS);
    if (s >= rp_nservers(c))
        return csvr_fail(r, "column 'server': %lld is not a server (the tenants have servers 0 to %ld)",
                         (long long)s, (long)rp_nservers(c) - 1);
    const char *k = csvr_field(r, col[2]);
    int kind = k ? rp_event_kind_parse(k) : -1;
    if (kind < 0)
        return csvr_fail(r, "column 'event': invalid event '%s' (want reimage, fail or add)", k ? k : "");
    *e = (struct rp_event){t, (int32_t)s, kind};
    return 0;
}

struct rp_event *rp_read_events(const rp_cluster *c, const char *path, const struct csv_dialect *d, size_t *n,
                                double *tmax, int *status)
{
    csvr *r = csvr_open_with(path, d, 0, status);
    if (!r)
        return NULL;
    int col[3];
    if (csvr_require_cols(r, "t", &col[0], "server", &col[1], "event", &col[2], (char *)NULL) < 0) {
        *status = SLK_EDATA;
        csvr_close(r);
        return NULL;
    }
    struct rp_event *ev = NULL;
    size_t cap = 0;
    *n = 0;
    *tmax = 0;
    while (csvr_next(r) == 1) {
        struct rp_event e;
        if (event_row(r, c, col, &e) < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        ev = xgrow(ev, &cap, *n + 1, sizeof *ev);
        ev[(*n)++] = e;
        /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): event_row fills e when it returns 0 */
        if (e.t > *tmax)
            *tmax = e.t;
    }
    *status = csvr_status(r);
    csvr_close(r);
    if (*status != SLK_OK) {
        free(ev);
        return NULL;
    }
    if (*n > 1)
        qsort(ev, *n, sizeof *ev, rp_event_cmp);
    return ev;
}

void rp_write_events(csvw *w, const struct rp_event *ev, size_t n)
{
    csvw_header(w, (const char *const[]){"t", "server", "event", NULL});
    for (size_t i = 0; i < n; i++) {
        csvw_num(w, ev[i].t);
        csvw_int(w, ev[i].server);
        csvw_str(w, rp_event_kind_name(ev[i].kind));
        csvw_end(w);
    }
}

void rp_write_classes(csvw *w, const rp_cluster *c)
{
    csvw_header(w, (const char *const[]){"class", "reimage_row", "peak_col", "tenants", "servers", "space_gb",
                                         "space_share", "reimages_min", "reimages_max", "peak_min", "peak_max",
                                         NULL});
    double total = 0;
    struct rp_class_info ci[RP_NCLASS];
    for (int k = 0; k < RP_NCLASS; k++) {
        rp_class_info(c, k, &ci[k]);
        total += ci[k].space_gb;
    }
    for (int k = 0; k < RP_NCLASS; k++) {
        csvw_str(w, rp_class_name(k));
        csvw_int(w, k / 3);
        csvw_int(w, k % 3);
        csvw_int(w, ci[k].tenants);
        csvw_int(w, ci[k].servers);
        csvw_num(w, ci[k].space_gb);
        csvw_num(w, total > 0 ? ci[k].space_gb / total : NAN);
        csvw_num(w, ci[k].rate_min);
        csvw_num(w, ci[k].rate_max);
        csvw_num(w, ci[k].peak_min);
        csvw_num(w, ci[k].peak_max);
        csvw_end(w);
    }
}

void rp_lost_header(csvw *w)
{
    csvw_header(w, (const char *const[]){"policy", "replicas", "block", "lost_day", "replica", "server", "tenant",
                                         "environment", "class", "destroyed_day", NULL});
}

void rp_write_lost(void *ctx, uint64_t block, double t, int R, const int32_t *last, const double *when)
{
    struct rp_lost_ctx *lc = ctx;
    for (int k = 0; k < R; k++) {
        int ti = last[k] >= 0 ? rp_server_tenant(lc->c, last[k]) : -1;
        csvw_str(lc->w, lc->policy);
        csvw_int(lc->w, lc->replicas);
        csvw_int(lc->w, (int64_t)block);
        csvw_num(lc->w, t / 86400);
        csvw_int(lc->w, k + 1);
        if (ti >= 0) {
            csvw_int(lc->w, last[k]);
            csvw_str(lc->w, rp_tenant_name(lc->c, ti));
            csvw_str(lc->w, rp_tenant_env(lc->c, ti));
            csvw_str(lc->w, rp_class_name(rp_tenant_class(lc->c, ti)));
            csvw_num(lc->w, when[k] / 86400);
        } else {
            for (int j = 0; j < 5; j++)
                csvw_str(lc->w, NULL);
        }
        csvw_end(lc->w);
    }
}

void rp_result_header(csvw *w)
{
    csvw_header(w, (const char *const[]){"policy", "replicas", "blocks", "lost_blocks", "lost_pct", "accesses",
                                         "failed_accesses", "failed_pct", "reimages", "replicas_destroyed",
                                         "rereplicated", "relaxed", "max_backlog", "first_loss_day", "mean_util",
                                         NULL});
}

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : NAN; }

void rp_write_result(csvw *w, const char *policy, int R, const struct rp_sim_result *r)
{
    uint64_t failed = r->failed_busy + r->failed_lost;
    csvw_str(w, policy);
    csvw_int(w, R);
    csvw_int(w, (int64_t)r->blocks);
    csvw_int(w, (int64_t)r->lost);
    csvw_num(w, pct(r->lost, r->blocks));
    csvw_int(w, (int64_t)r->accesses);
    csvw_int(w, (int64_t)failed);
    csvw_num(w, pct(failed, r->accesses));
    csvw_int(w, (int64_t)r->reimages);
    csvw_int(w, (int64_t)r->replicas_destroyed);
    csvw_int(w, (int64_t)r->rereplicated);
    csvw_int(w, (int64_t)r->relaxed);
    csvw_int(w, (int64_t)r->max_backlog);
    csvw_num(w, r->first_loss / 86400);
    csvw_num(w, r->accesses ? r->util_sum / (double)r->accesses : NAN);
    csvw_end(w);
}
