/* rpfile — replplace's tables: the tenants (into an rp_cluster), reimage
 * events, the class grid, lost blocks and the --simulate result rows (seed
 * 003 §4.2, §6; the model is in replica.h).
 *
 * Errors: the readers report "tool: FILE:LINE: what" through csvio /
 * slk_error_at and return NULL with *status set (lib/base/diag.h).  Under
 * --on-error skip (a dialect with rejects) a bad tenant or event row is
 * skipped and counted.  The writers write to a csvw the caller owns.
 *
 * Threads: no module state; a cluster is only read by the writers.
 */
#ifndef SLOKIT_RPFILE_H
#define SLOKIT_RPFILE_H

#include "base/csvio.h"
#include "harvest/replica.h"

#include <stddef.h>
#include <stdint.h>

/* The columns each reader looks up by name, NULL-terminated: what a tool gives cli_keys as its --col KEYs
 * for that input.  rp_tenant_keys: the tenants file (rp_read_tenants); rp_event_keys: the events file
 * (rp_read_events). */
extern const char *const rp_tenant_keys[];
extern const char *const rp_event_keys[];

/* rp_read_tenants: tenant,environment,servers,space_gb,
 * reimages_per_server_month,peak_util rows (peak a fraction <= 1, servers
 * at most 1e8 a tenant) into a new cluster of block_mb blocks and racks of
 * rack_size servers (seeded by seed), not yet built (rp_cluster_build).  At
 * least one tenant. */
rp_cluster *rp_read_tenants(const char *path, const struct csv_dialect *d, double block_mb, int rack_size,
                            uint64_t seed, int *status);

/* the longest simulation, in days (--days and the events' times) */
#define RP_MAX_DAYS 36600.0

/* rp_read_events: t,server,event rows (event reimage, fail or add; server a
 * server of c; t at most RP_MAX_DAYS) sorted by rp_event_cmp; *tmax the
 * latest time.  NULL with
 * *status SLK_OK when there are no events. */
struct rp_event *rp_read_events(const rp_cluster *c, const char *path, const struct csv_dialect *d, size_t *n,
                                double *tmax, int *status);

/* rp_write_events: t,server,event rows. */
void rp_write_events(csvw *w, const struct rp_event *ev, size_t n);

/* rp_write_classes: one row per class of the 3 x 3 grid: class,
 * reimage_row, peak_col, tenants, servers, space_gb, space_share,
 * reimages_min/max, peak_min/max. */
void rp_write_classes(csvw *w, const rp_cluster *c);

/* The --lost table: rp_lost_header writes its header; rp_write_lost, an
 * rp_sim_config on_loss callback with a struct rp_lost_ctx, one row per
 * replica of a lost block (its last server, tenant, environment, class and
 * the day it was destroyed; empty when it never had a server). */
struct rp_lost_ctx {
    const rp_cluster *c;
    csvw *w;
    const char *policy;
    int replicas;
};
void rp_lost_header(csvw *w);
void rp_write_lost(void *ctx, uint64_t block, double t, int R, const int32_t *last, const double *when);

/* The --simulate table: rp_result_header, then one rp_write_result row per
 * policy and replica count (lost and failed reads also in % of blocks and
 * reads; first loss and times in days). */
void rp_result_header(csvw *w);
void rp_write_result(csvw *w, const char *policy, int R, const struct rp_sim_result *r);

#endif
