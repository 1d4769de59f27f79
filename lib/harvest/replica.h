/* replica — diversity-aware replica placement (Algorithm 2 of the harvesting
 * paper, seed 003 §4.2), the stock HDFS-like policy it is compared with, and a
 * durability/availability simulator for both (§6).
 *
 * The model.  A cluster is a list of primary tenants; tenant i owns servers
 * first[i] .. first[i]+servers[i]-1 (global server ids numbered in the order
 * the tenants were added), belongs to one environment, has space_gb of
 * harvestable storage, reimages each server reimage_rate times a month and
 * peaks at peak_util CPU.  rp_cluster_build splits the tenants into a 3 x 3
 * grid of classes with (as nearly as whole tenants allow) equal total space:
 * first into three reimage-frequency rows by cumulative space in increasing
 * rate order, then each row into three peak-utilization columns the same way.
 * A tenant belongs to the third that holds the midpoint of its space.  Racks
 * (for the stock policy only) are runs of rack_size servers, in id order or
 * shuffled (rp_cluster_racks_mixed).
 *
 * Space.  Each tenant holds at most floor(space_gb * 1024 / block_mb) replicas;
 * a tenant that is full is no longer a destination.  Servers inside a tenant
 * are drawn uniformly, so space is tracked per tenant, not per server.
 *
 * Ownership.  An rp_cluster owns everything it holds (it copies names).  The
 * simulator owns its state and frees it before returning.  Functions that can
 * fail return a negative rp_status and print nothing: callers word the error.
 * Determinism: every random choice comes from the rng the caller passes or
 * from streams derived from the seed with rng_seed_key.
 *
 * Threads: no module state.  An rp_cluster is mutated by rp_place and
 * rp_simulate (space, down servers), so each thread needs its own cluster;
 * rp_util, rp_class_info and the getters only read it.
 */
#ifndef SLOKIT_REPLICA_H
#define SLOKIT_REPLICA_H

#include "base/rng.h"

#include <stddef.h>
#include <stdint.h>

#define RP_MAX_REPLICAS 16
#define RP_NCLASS 9

enum rp_policy {
    RP_ALG2 = 0, /* Algorithm 2: classes with no repeated row/column per 3, distinct environments */
    RP_STOCK = 1 /* HDFS-like: local, same rack, remote rack, then random */
};

enum rp_status {
    RP_OK = 0,
    RP_EXHAUSTED = -1, /* no destination satisfies the diversity constraints (strict mode) */
    RP_FULL = -2       /* no destination has free space at all, even relaxed */
};

/* Relaxation levels used by --soft, counted per replica in rp_place_stats. */
struct rp_place_stats {
    uint64_t blocks, replicas;
    uint64_t relaxed_grid; /* placed in a class that repeats a row or column */
    uint64_t relaxed_env;  /* placed in an environment that already had a replica */
    uint64_t relaxed_local;/* replica 1 not on the creating server (its tenant was full) */
};

typedef struct rp_cluster rp_cluster;

/* rp_cluster_new: an empty cluster.  block_mb > 0, rack_size >= 1.  seed
 * drives the utilization model's per-tenant phase and trough (rp_util). */
rp_cluster *rp_cluster_new(double block_mb, int rack_size, uint64_t seed);
void rp_cluster_free(rp_cluster *c);

/* rp_cluster_add: append a tenant.  Returns its index, or -1 when the name is
 * already present, -2 when the total server count would pass INT32_MAX - 1.
 * Values are assumed validated (servers >= 1, space >= 0, rate >= 0,
 * 0 <= peak <= 1). */
int rp_cluster_add(rp_cluster *c, const char *tenant, const char *env, int64_t servers,
                   double space_gb, double reimage_rate, double peak_util);

/* rp_cluster_build: assign classes and capacities; call once after the last
 * rp_cluster_add and before anything below.  Needs at least one tenant. */
void rp_cluster_build(rp_cluster *c);

/* rp_cluster_pick_by_space: how Algorithm 2 draws a tenant inside a class:
 * uniformly among the eligible tenants (on == 0, the paper's rule and the
 * default), or in proportion to their free space (on != 0), which keeps the
 * replicas per server even when tenant sizes are skewed.  Any time. */
void rp_cluster_pick_by_space(rp_cluster *c, int on);

/* rp_cluster_racks_mixed: racks for the stock policy.  on == 0 (slokit <=
 * 0.1): rack r is server ids r*rack_size .. (r+1)*rack_size-1, so a rack is
 * mostly one tenant.  on != 0: the servers are shuffled from the seed before
 * being cut into racks, so racks are independent of tenants.  Call before
 * rp_cluster_build. */
void rp_cluster_racks_mixed(rp_cluster *c, int on);

int rp_ntenants(const rp_cluster *c);
int32_t rp_nservers(const rp_cluster *c);
int rp_nenvs(const rp_cluster *c);
/* rp_server_tenant: the tenant index of server s (0 <= s < rp_nservers). */
int rp_server_tenant(const rp_cluster *c, int32_t s);
const char *rp_tenant_name(const rp_cluster *c, int t);
const char *rp_tenant_env(const rp_cluster *c, int t);
int rp_tenant_class(const rp_cluster *c, int t);
int32_t rp_tenant_first_server(const rp_cluster *c, int t);
int64_t rp_tenant_capacity(const rp_cluster *c, int t);
int64_t rp_tenant_used(const rp_cluster *c, int t);
/* rp_class_name: "r<row>p<col>" for class k = 3*row + col (row: reimage
 * tercile 0 infrequent .. 2 frequent; col: peak tercile 0 low .. 2 high). */
const char *rp_class_name(int k);

/* rp_class_info: totals of class k over its tenants. */
struct rp_class_info {
    int tenants;
    int64_t servers;
    double space_gb;
    double rate_min, rate_max, peak_min, peak_max; /* NaN when the class is empty */
};
void rp_class_info(const rp_cluster *c, int k, struct rp_class_info *out);

/* rp_place: place the R replicas (1 <= R <= RP_MAX_REPLICAS) of one new block
 * created on server `creator` with the given policy; out[0..R-1] receive the
 * servers and each replica takes one block of its tenant's space.
 * Algorithm 2 leaves a candidate class only when none of its tenants that
 * keep the environment rule has a server that can take the replica (up, not
 * busy when the simulator's busy filter is on, not holding the block).  With
 * soft == 0 the Algorithm 2 constraints are hard: the greedy pass is retried
 * with fresh random choices (16 passes) and if none satisfies them, nothing is
 * placed, *failed_replica is set (1-based, the furthest replica no pass could
 * place) and RP_EXHAUSTED is returned.  With soft != 0 a last pass relaxes
 * the constraints one at a time where needed (first the row/column rule, then
 * the environment rule) and the relaxations are counted in *st.  When the creating server cannot take replica 1 (its
 * tenant is full, or the server is down) replica 1 is placed like the others
 * and counted in relaxed_local, in both modes.  RP_FULL: no tenant has any
 * space left (nothing placed).
 * The stock policy never returns RP_EXHAUSTED. */
int rp_place(rp_cluster *c, rng *g, enum rp_policy policy, int32_t creator, int R, int soft,
             int32_t *out, int *failed_replica, struct rp_place_stats *st);

/* rp_util: CPU utilization of server s at time t (seconds from the start), in
 * [0, 1]: the tenant's daily curve
 *     u(t) = scale * peak * (trough + (1 - trough) * ((1 + cos(2 pi (t/86400 - phase))) / 2)^2)
 * times a per-server, per-hour factor in [0.9, 1.1], capped at 1.  phase and
 * trough are drawn per tenant from the seed (phases cluster around 14:00, so
 * user-facing tenants peak together).  Deterministic. */
double rp_util(const rp_cluster *c, int32_t s, double t, double scale);

/* ---- durability / availability simulation ------------------------------- */

enum rp_event_kind { RP_EV_REIMAGE = 0, RP_EV_FAIL = 1, RP_EV_ADD = 2 };

struct rp_event {
    double t;       /* seconds from the start of the simulation */
    int32_t server;
    int kind;       /* enum rp_event_kind */
};

/* rp_event_cmp: qsort order of events: by time, then server, then kind
 * (the order rp_simulate expects). */
int rp_event_cmp(const void *a, const void *b);

/* rp_event_kind_name / rp_event_kind_parse: "reimage", "fail", "add". */
const char *rp_event_kind_name(int kind);
int rp_event_kind_parse(const char *s); /* -1 when unknown */

struct rp_burst_model {
    double burst_share;     /* share of a tenant's reimages that come in tenant-wide bursts */
    double env_burst_share; /* share that comes in environment-wide bursts */
    double frac_min, frac_max; /* a burst hits U(frac_min, frac_max) of the servers */
    double window;          /* seconds over which a burst's reimages spread */
};

/* rp_expected_reimages: how many reimage events rp_gen_events draws for
 * `days`, on average: the sum over tenants of rate x servers x months (the
 * bursts redistribute reimages in time, they do not add any). */
double rp_expected_reimages(const rp_cluster *c, double days);

/* rp_gen_events: draw `days` of reimage events from the tenants' rates
 * (a month is 30.4375 days): independent per-server Poisson reimages plus
 * tenant-wide and environment-wide bursts (see rp_burst_model), sorted by
 * time.  Returns a malloc'ed array (caller frees) and sets *n. */
struct rp_event *rp_gen_events(const rp_cluster *c, uint64_t seed, double days,
                               const struct rp_burst_model *m, size_t *n);

/* How lost replicas are re-created (see rp_simulate). */
enum rp_rebuild {
    RP_REBUILD_SOURCES = 0, /* every server holding a surviving copy sends, each throttled (HDFS-like) */
    RP_REBUILD_SERVER = 1   /* the reimaged server's replicas one at a time (slokit <= 0.1) */
};

struct rp_sim_config {
    enum rp_policy policy;
    int replicas;
    long blocks;             /* created at t = 0 on uniformly drawn servers */
    double horizon;          /* seconds simulated */
    double detect;           /* seconds before a lost replica's re-creation starts */
    double rate;             /* re-created blocks per hour per reimaged server */
    double busy;             /* a server with utilization above this denies access */
    double util_scale;       /* multiplies every tenant's utilization curve */
    long accesses;           /* uniformly random (block, time) reads */
    uint64_t seed;
    const struct rp_event *events; /* sorted by time */
    size_t nevents;
    /* on_loss, when not NULL, is called for every lost block with the time of
     * the loss and, per replica slot, the server that last held it and when
     * that copy was destroyed (costs 8 bytes per replica of memory). */
    void (*on_loss)(void *ctx, uint64_t block, double t, int R, const int32_t *last_server,
                    const double *destroyed_at);
    void *on_loss_ctx;
    enum rp_rebuild rebuild;
    int avoid_busy;          /* new replicas never go to a server above `busy` at that time */
};

struct rp_sim_result {
    uint64_t blocks, lost;
    uint64_t unplaced;       /* blocks that found no space at all (not simulated) */
    uint64_t accesses, failed_busy, failed_lost;
    uint64_t reimages, replicas_destroyed, rereplicated;
    uint64_t relaxed;        /* placements (initial or re-creation) that broke a constraint */
    uint64_t max_backlog;    /* most replicas waiting for re-creation at once */
    double first_loss;       /* time of the first loss, NaN when none */
    double util_sum;         /* utilization of a random server at each access (mean = util_sum / accesses) */
};

/* rp_simulate: place cfg->blocks blocks, then replay the events and the
 * accesses over cfg->horizon.  A reimage or fail destroys the replicas on the
 * server; each destroyed replica is re-created at a destination the policy
 * chooses, starting cfg->detect later.  A block with no surviving replica is
 * lost.
 *   RP_REBUILD_SOURCES (HDFS-like): each destroyed replica is queued on the
 *   server holding a surviving copy that has the fewest items queued (the
 *   first slot on ties); every server sends one block every 3600/cfg->rate
 *   seconds from its own queue, all servers in parallel, blocks with the
 *   fewest surviving replicas first.  An item whose source lost its copy
 *   meanwhile moves to another holder; one that finds no destination (all
 *   full, down or busy) is retried an hour later.
 *   RP_REBUILD_SERVER: the replicas destroyed by one event form one queue,
 *   re-created one every 3600/cfg->rate seconds, fewest survivors first; a
 *   replica with no destination is dropped (the block stays
 *   under-replicated).
 * With cfg->avoid_busy no new replica (initial or re-created) goes to a
 * server whose utilization is above cfg->busy at that moment; an initial
 * block that finds no such server is placed without the filter.  Algorithm
 * 2 keeps diversity first: under RP_REBUILD_SOURCES a re-creation whose
 * rule-keeping destinations are all busy waits an hour rather than relax
 * the rules.  A
 * failed server takes no new replicas until its next add event.  Placements
 * inside the simulation are always soft (relaxations counted).  The cluster's
 * space accounting is reset at the start, so one cluster can be simulated
 * several times.  progress: label for slk_progress, or NULL. */
void rp_simulate(rp_cluster *c, const struct rp_sim_config *cfg, struct rp_sim_result *res,
                 const char *progress);

#endif
