/* replica — Algorithm 2 replica placement, the stock HDFS-like policy and the
 * durability/availability simulator (see replica.h for the model).
 *
 * Tuned for streams of millions of blocks over thousands of tenants: a
 * placement touches only the nine per-class lists of tenants that still have
 * space (kept as arrays with swap-remove), draws a handful of random numbers,
 * and falls back to a scan only when random draws keep hitting used
 * environments, full tenants or tenants with no usable server.  The
 * simulator keeps, per block, its replica slots and live count; per server,
 * the blocks it holds; and per reimage, a queue of destroyed replicas
 * drained at the re-creation rate. */
#include "harvest/replica.h"
#include "base/diag.h"
#include "base/heap.h"
#include "base/keyset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tenant {
    const char *name; /* owned by the cluster's tnames */
    int env;
    int32_t first, n;
    double space, rate, peak;
    int cls;
    int64_t cap, used;
    int pos; /* index in its class's active list, -1 when not a destination */
    int ci;  /* index among all tenants of its class (Fenwick tree slot) */
    double phase, trough;
};

struct rp_cluster {
    double block_mb;
    int rack_size;
    uint64_t seed;
    struct tenant *t;
    size_t nt, capt;
    keyset *tnames; /* tenant name -> its index in t */
    keyset *envs;   /* environment names, numbered as T->env */
    int32_t nservers;
    int *srv_tenant;
    uint8_t *down;
    int racks_mixed;             /* racks drawn across tenants (else runs of ids) */
    int32_t *rack_srv;           /* servers in rack order: rack r is [r*rack_size, ...) */
    int32_t *srv_rack;           /* the rack of each server */
    /* busy-destination filter, set by the simulator for policies that avoid
     * busy servers: a server above busy_thr at busy_now takes no new replica */
    int busy_on;
    double busy_now, busy_thr, busy_scale;
    int *cls_act[RP_NCLASS]; /* tenants of the class with free space */
    int cls_n[RP_NCLASS];
    int nactive;
    int *cls_all[RP_NCLASS];     /* every tenant of the class, by ci */
    int cls_alln[RP_NCLASS];
    int64_t *fen[RP_NCLASS];     /* Fenwick trees of free blocks, 1-based over ci */
    int by_space;                /* draw tenants in proportion to free space */
    int *env_start, *env_tenants; /* CSR: tenants of environment e */
    int built;
};

/* ---- cluster ------------------------------------------------------------------ */

rp_cluster *rp_cluster_new(double block_mb, int rack_size, uint64_t seed)
{
    rp_cluster *c = xcalloc(1, sizeof *c);
    c->block_mb = block_mb;
    c->rack_size = rack_size < 1 ? 1 : rack_size;
    c->seed = seed;
    c->tnames = keyset_new();
    c->envs = keyset_new();
    return c;
}

void rp_cluster_free(rp_cluster *c)
{
    if (!c)
        return;
    free(c->t);
    keyset_free(c->tnames);
    keyset_free(c->envs);
    free(c->srv_tenant);
    free(c->down);
    free(c->rack_srv);
    free(c->srv_rack);
    for (int k = 0; k < RP_NCLASS; k++) {
        free(c->cls_act[k]);
        free(c->cls_all[k]);
        free(c->fen[k]);
    }
    free(c->env_start);
    free(c->env_tenants);
    free(c);
}

int rp_cluster_add(rp_cluster *c, const char *tenant, const char *env, int64_t servers,
                   double space_gb, double reimage_rate, double peak_util)
{
    if (keyset_has(c->tnames, tenant))
        return -1;
    if (servers > (int64_t)INT32_MAX - 1 - c->nservers)
        return -2;
    c->t = xgrow(c->t, &c->capt, c->nt + 1, sizeof *c->t);
    struct tenant *T = &c->t[c->nt];
    memset(T, 0, sizeof *T);
    T->name = keyset_key(c->tnames, keyset_put(c->tnames, tenant, 0, NULL));
    T->env = (int)keyset_intern(c->envs, env, NULL);
    T->first = c->nservers;
    T->n = (int32_t)servers;
    T->space = space_gb;
    T->rate = reimage_rate;
    T->peak = peak_util;
    T->pos = -1;
    c->nservers += (int32_t)servers;
    return (int)c->nt++;
}

/* order for the rows: reimage rate, then peak, then name (total,
 * deterministic); qsort_r with the cluster as context */
static int by_rate(const void *a, const void *b, void *ctx)
{
    const rp_cluster *c = ctx;
    const struct tenant *x = &c->t[*(const int *)a], *y = &c->t[*(const int *)b];
    if (x->rate != y->rate)
        return x->rate < y->rate ? -1 : 1;
    if (x->peak != y->peak)
        return x->peak < y->peak ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int by_peak(const void *a, const void *b, void *ctx)
{
    const rp_cluster *c = ctx;
    const struct tenant *x = &c->t[*(const int *)a], *y = &c->t[*(const int *)b];
    if (x->peak != y->peak)
        return x->peak < y->peak ? -1 : 1;
    if (x->rate != y->rate)
        return x->rate < y->rate ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* split idx[0..n-1] (already sorted) into thirds of equal weight; a tenant goes
 * to the third holding the midpoint of its weight.  Writes 0..2 to third[]. */
static void split_thirds(const rp_cluster *c, const int *idx, size_t n, int *third)
{
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total += c->t[idx[i]].space;
    int by_count = !(total > 0);
    if (by_count)
        total = (double)n;
    double cum = 0;
    for (size_t i = 0; i < n; i++) {
        double w = by_count ? 1.0 : c->t[idx[i]].space;
        double mid = cum + w / 2;
        int g = (int)floor(3.0 * mid / total);
        third[i] = g < 0 ? 0 : g > 2 ? 2 : g;
        cum += w;
    }
}

static void fen_add(rp_cluster *c, int k, int i, int64_t d)
{
    int n = c->cls_alln[k];
    for (i++; i <= n; i += i & -i)
        c->fen[k][i] += d;
}

/* the class-k tenant holding free block r (0 <= r < total free blocks of k) */
static int fen_find(const rp_cluster *c, int k, int64_t r)
{
    int n = c->cls_alln[k], pos = 0, step = 1;
    while (step * 2 <= n)
        step *= 2;
    for (; step > 0; step /= 2)
        if (pos + step <= n && c->fen[k][pos + step] <= r) {
            pos += step;
            r -= c->fen[k][pos];
        }
    return c->cls_all[k][pos];
}

static int64_t fen_total(const rp_cluster *c, int k)
{
    int64_t t = 0;
    for (int i = c->cls_alln[k]; i > 0; i -= i & -i)
        t += c->fen[k][i];
    return t;
}

static void act_add(rp_cluster *c, int ti)
{
    struct tenant *T = &c->t[ti];
    if (T->pos >= 0)
        return;
    T->pos = c->cls_n[T->cls];
    c->cls_act[T->cls][c->cls_n[T->cls]++] = ti;
    c->nactive++;
}

static void act_del(rp_cluster *c, int ti)
{
    struct tenant *T = &c->t[ti];
    if (T->pos < 0)
        return;
    int k = T->cls, last = c->cls_act[k][--c->cls_n[k]];
    c->cls_act[k][T->pos] = last;
    c->t[last].pos = T->pos;
    T->pos = -1;
    c->nactive--;
}

static void reset_space(rp_cluster *c)
{
    for (int k = 0; k < RP_NCLASS; k++) {
        c->cls_n[k] = 0;
        memset(c->fen[k], 0, ((size_t)c->cls_alln[k] + 1) * sizeof(int64_t));
    }
    c->nactive = 0;
    for (size_t i = 0; i < c->nt; i++) {
        c->t[i].used = 0;
        c->t[i].pos = -1;
        if (c->t[i].cap > 0) {
            act_add(c, (int)i);
            fen_add(c, c->t[i].cls, c->t[i].ci, c->t[i].cap);
        }
    }
    memset(c->down, 0, (size_t)c->nservers);
}

/* racks: runs of rack_size consecutive server ids (one tenant, mostly), or
 * with racks_mixed the servers in an order shuffled from the seed, so a rack
 * holds servers of several tenants as in a datacenter where tenants are
 * spread over racks */
static void build_racks(rp_cluster *c)
{
    size_t ns = (size_t)(c->nservers ? c->nservers : 1);
    c->rack_srv = xmalloc(ns * sizeof *c->rack_srv);
    c->srv_rack = xmalloc(ns * sizeof *c->srv_rack);
    for (int32_t s = 0; s < c->nservers; s++)
        c->rack_srv[s] = s;
    if (c->racks_mixed) {
        rng g;
        rng_seed_key(&g, c->seed, "racks");
        rng_shuffle(&g, c->rack_srv, (size_t)c->nservers, sizeof *c->rack_srv);
    }
    for (int32_t i = 0; i < c->nservers; i++)
        c->srv_rack[c->rack_srv[i]] = i / c->rack_size;
}

void rp_cluster_build(rp_cluster *c)
{
    size_t n = c->nt;
    int *idx = xmalloc(n * sizeof *idx), *third = xmalloc(n * sizeof *third);
    int *row = xmalloc(n * sizeof *row);
    for (size_t i = 0; i < n; i++)
        idx[i] = (int)i;
    qsort_r(idx, n, sizeof *idx, by_rate, c);
    split_thirds(c, idx, n, third);
    for (size_t i = 0; i < n; i++)
        row[idx[i]] = third[i];
    for (int r = 0; r < 3; r++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (row[i] == r)
                idx[m++] = (int)i;
        qsort_r(idx, m, sizeof *idx, by_peak, c);
        split_thirds(c, idx, m, third);
        for (size_t i = 0; i < m; i++)
            c->t[idx[i]].cls = 3 * r + third[i];
    }
    free(idx);
    free(third);
    free(row);

    c->srv_tenant = xmalloc((size_t)(c->nservers ? c->nservers : 1) * sizeof *c->srv_tenant);
    c->down = xcalloc((size_t)(c->nservers ? c->nservers : 1), 1);
    for (int k = 0; k < RP_NCLASS; k++) {
        c->cls_act[k] = xmalloc((n ? n : 1) * sizeof(int));
        c->cls_all[k] = xmalloc((n ? n : 1) * sizeof(int));
        c->fen[k] = xcalloc(n + 1, sizeof(int64_t));
        c->cls_alln[k] = 0;
    }
    for (size_t i = 0; i < n; i++) {
        int k = c->t[i].cls;
        c->t[i].ci = c->cls_alln[k];
        c->cls_all[k][c->cls_alln[k]++] = (int)i;
    }
    c->env_start = xcalloc(keyset_size(c->envs) + 1, sizeof(int));
    c->env_tenants = xmalloc((n ? n : 1) * sizeof(int));
    for (size_t i = 0; i < n; i++) {
        struct tenant *T = &c->t[i];
        for (int32_t s = 0; s < T->n; s++)
            c->srv_tenant[T->first + s] = (int)i;
        double blocks = floor(T->space * 1024.0 / c->block_mb);
        T->cap = blocks > 4e18 ? (int64_t)4e18 : (int64_t)blocks;
        rng g;
        char key[64];
        snprintf(key, sizeof key, "util:%zu:", i);
        rng_seed_key(&g, c->seed ^ rng_hash_str(T->name), key);
        T->phase = 14.0 / 24 + 0.1 * rng_normal(&g);
        T->trough = 0.3 + 0.5 * rng_uniform(&g);
        c->env_start[T->env + 1]++;
    }
    for (size_t e = 0; e < keyset_size(c->envs); e++)
        c->env_start[e + 1] += c->env_start[e];
    int *fill = xcalloc(keyset_size(c->envs) + 1, sizeof(int));
    for (size_t i = 0; i < n; i++) {
        int e = c->t[i].env;
        c->env_tenants[c->env_start[e] + fill[e]++] = (int)i;
    }
    free(fill);
    build_racks(c);
    reset_space(c);
    c->built = 1;
}

void rp_cluster_racks_mixed(rp_cluster *c, int on) { c->racks_mixed = on; }

void rp_cluster_pick_by_space(rp_cluster *c, int on) { c->by_space = on; }

int rp_ntenants(const rp_cluster *c) { return (int)c->nt; }
int32_t rp_nservers(const rp_cluster *c) { return c->nservers; }
int rp_nenvs(const rp_cluster *c) { return (int)keyset_size(c->envs); }
int rp_server_tenant(const rp_cluster *c, int32_t s) { return c->srv_tenant[s]; }
const char *rp_tenant_name(const rp_cluster *c, int t) { return c->t[t].name; }
const char *rp_tenant_env(const rp_cluster *c, int t) { return keyset_key(c->envs, c->t[t].env); }
int rp_tenant_class(const rp_cluster *c, int t) { return c->t[t].cls; }
int32_t rp_tenant_first_server(const rp_cluster *c, int t) { return c->t[t].first; }
int64_t rp_tenant_capacity(const rp_cluster *c, int t) { return c->t[t].cap; }
int64_t rp_tenant_used(const rp_cluster *c, int t) { return c->t[t].used; }

const char *rp_class_name(int k)
{
    static const char *const names[RP_NCLASS] = {"r0p0", "r0p1", "r0p2", "r1p0", "r1p1",
                                                 "r1p2", "r2p0", "r2p1", "r2p2"};
    return k >= 0 && k < RP_NCLASS ? names[k] : "?";
}

void rp_class_info(const rp_cluster *c, int k, struct rp_class_info *out)
{
    memset(out, 0, sizeof *out);
    out->rate_min = out->rate_max = out->peak_min = out->peak_max = NAN;
    for (size_t i = 0; i < c->nt; i++) {
        const struct tenant *T = &c->t[i];
        if (T->cls != k)
            continue;
        if (out->tenants == 0) {
            out->rate_min = out->rate_max = T->rate;
            out->peak_min = out->peak_max = T->peak;
        }
        out->tenants++;
        out->servers += T->n;
        out->space_gb += T->space;
        out->rate_min = fmin(out->rate_min, T->rate);
        out->rate_max = fmax(out->rate_max, T->rate);
        out->peak_min = fmin(out->peak_min, T->peak);
        out->peak_max = fmax(out->peak_max, T->peak);
    }
}

/* ---- placement ---------------------------------------------------------------- */

static inline void take(rp_cluster *c, int32_t s)
{
    int ti = c->srv_tenant[s];
    fen_add(c, c->t[ti].cls, c->t[ti].ci, -1);
    if (++c->t[ti].used >= c->t[ti].cap)
        act_del(c, ti);
}

static inline void give(rp_cluster *c, int ti, int64_t n)
{
    c->t[ti].used -= n;
    fen_add(c, c->t[ti].cls, c->t[ti].ci, n);
    if (c->t[ti].used < c->t[ti].cap)
        act_add(c, ti);
}

static inline int holds(const int32_t *slots, int R, int k, int32_t s)
{
    for (int j = 0; j < R; j++)
        if (j != k && slots[j] == s)
            return 1;
    return 0;
}

/* a server that can take a new replica now: up and, when the busy filter is
 * on, not above the busy threshold */
static inline int srv_ok(const rp_cluster *c, int32_t s)
{
    return !c->down[s] && !(c->busy_on && rp_util(c, s, c->busy_now, c->busy_scale) > c->busy_thr);
}

/* a usable destination: up, its tenant has space, not already holding the block */
static inline int usable(const rp_cluster *c, const int32_t *slots, int R, int k, int32_t s)
{
    return srv_ok(c, s) && c->t[c->srv_tenant[s]].pos >= 0 && !holds(slots, R, k, s);
}

/* a random usable server of tenant ti, or -1 */
static int32_t tenant_server(const rp_cluster *c, rng *g, int ti, const int32_t *slots, int R, int k)
{
    const struct tenant *T = &c->t[ti];
    for (int tries = 0; tries < 8; tries++) {
        int32_t s = T->first + (int32_t)rng_below(g, (uint64_t)T->n);
        if (srv_ok(c, s) && !holds(slots, R, k, s))
            return s;
    }
    int32_t off = (int32_t)rng_below(g, (uint64_t)T->n);
    for (int32_t i = 0; i < T->n; i++) {
        int32_t s = T->first + (off + i) % T->n;
        if (srv_ok(c, s) && !holds(slots, R, k, s))
            return s;
    }
    return -1;
}

static inline int env_used(const int *envs, int ne, int e)
{
    for (int i = 0; i < ne; i++)
        if (envs[i] == e)
            return 1;
    return 0;
}

/* a tenant Algorithm 2 may draw: its environment is not in envs (ne < 0:
 * any) and it is none of skip[0..nskip-1] */
static inline int eligible(const rp_cluster *c, int ti, const int *envs, int ne, const int *skip, int nskip)
{
    if (ne >= 0 && env_used(envs, ne, c->t[ti].env))
        return 0;
    for (int i = 0; i < nskip; i++)
        if (skip[i] == ti)
            return 0;
    return 1;
}

/* a tenant drawn among the active tenants of class cl that are eligible
 * (environment not in envs, ne < 0: any; not in skip[0..nskip-1]),
 * uniformly, or in proportion to its free space with --pick space
 * (c->by_space); -1 when there is none */
static int class_tenant(const rp_cluster *c, rng *g, int cl, const int *envs, int ne, const int *skip,
                        int nskip)
{
    int n = c->cls_n[cl];
    const int *list = c->cls_act[cl];
    if (n == 0)
        return -1;
    if (c->by_space) {
        int64_t total = fen_total(c, cl);
        if (total <= 0)
            return -1;
        for (int tries = 0; tries < 8; tries++) {
            int ti = fen_find(c, cl, (int64_t)rng_below(g, (uint64_t)total));
            if (eligible(c, ti, envs, ne, skip, nskip))
                return ti;
        }
        int64_t m = 0;
        for (int i = 0; i < n; i++)
            if (eligible(c, list[i], envs, ne, skip, nskip))
                m += c->t[list[i]].cap - c->t[list[i]].used;
        if (m <= 0)
            return -1;
        int64_t j = (int64_t)rng_below(g, (uint64_t)m);
        for (int i = 0; i < n; i++)
            if (eligible(c, list[i], envs, ne, skip, nskip) &&
                (j -= c->t[list[i]].cap - c->t[list[i]].used) < 0)
                return list[i];
        return -1;
    }
    for (int tries = 0; tries < 8; tries++) {
        int ti = list[rng_below(g, (uint64_t)n)];
        if (eligible(c, ti, envs, ne, skip, nskip))
            return ti;
    }
    int m = 0;
    for (int i = 0; i < n; i++)
        m += eligible(c, list[i], envs, ne, skip, nskip);
    if (m == 0)
        return -1;
    int j = (int)rng_below(g, (uint64_t)m);
    for (int i = 0; i < n; i++)
        if (eligible(c, list[i], envs, ne, skip, nskip) && j-- == 0)
            return list[i];
    return -1;
}

/* tenants of a class drawn at random for one slot before the class is scanned */
#define RP_CLASS_DRAWS 4

/* a usable server for slot k in class cl, or -1 when no eligible tenant of
 * the class (environment not in envs, ne < 0: any) has one.  A class is
 * given up only then (the paper's rules are about classes and
 * environments, not about the first tenant drawn): a tenant whose servers
 * are all down, busy or holding the block is set aside and another is drawn
 * the same way (class_tenant) among the rest, up to RP_CLASS_DRAWS tenants;
 * then the class's other eligible tenants are tried in list order from a
 * random offset. */
static int32_t class_server(const rp_cluster *c, rng *g, int cl, const int *envs, int ne,
                            const int32_t *slots, int R, int k)
{
    int failed[RP_CLASS_DRAWS], nf = 0;
    while (nf < RP_CLASS_DRAWS) {
        int ti = class_tenant(c, g, cl, envs, ne, failed, nf);
        if (ti < 0)
            return -1;
        int32_t s = tenant_server(c, g, ti, slots, R, k);
        if (s >= 0)
            return s;
        failed[nf++] = ti;
    }
    int n = c->cls_n[cl];
    int off = (int)rng_below(g, (uint64_t)n);
    for (int i = 0; i < n; i++) {
        int ti = c->cls_act[cl][(off + i) % n];
        if (!eligible(c, ti, envs, ne, failed, nf))
            continue;
        int32_t s = tenant_server(c, g, ti, slots, R, k);
        if (s >= 0)
            return s;
    }
    return -1;
}

/* Algorithm 2 destination for slot k given the other slots (-1: empty).
 * Level 0 obeys every rule; level 1 drops the row/column rule; level 2 also
 * the environment rule.  At each level the candidate classes are tried in
 * random order, a class being left only when none of its eligible tenants
 * has a usable server (class_server).  Returns the server and sets *level,
 * or -1. */
static int32_t alg2_slot(rp_cluster *c, rng *g, const int32_t *slots, int R, int k, int maxlevel,
                         int *level)
{
    int envs[RP_MAX_REPLICAS], ne = 0;
    unsigned rows = 0, cols = 0;
    for (int j = 0; j < R; j++) {
        if (j == k || slots[j] < 0)
            continue;
        const struct tenant *T = &c->t[c->srv_tenant[slots[j]]];
        envs[ne++] = T->env;
        if (j / 3 == k / 3) {
            rows |= 1u << (T->cls / 3);
            cols |= 1u << (T->cls % 3);
        }
    }
    for (int lv = 0; lv <= maxlevel; lv++) {
        int cand[RP_NCLASS], nc = 0;
        for (int cl = 0; cl < RP_NCLASS; cl++) {
            if (c->cls_n[cl] == 0)
                continue;
            if (lv == 0 && ((rows >> (cl / 3)) & 1 || (cols >> (cl % 3)) & 1))
                continue;
            cand[nc++] = cl;
        }
        while (nc > 0) {
            int i = (int)rng_below(g, (uint64_t)nc);
            int32_t s = class_server(c, g, cand[i], envs, lv < 2 ? ne : -1, slots, R, k);
            if (s >= 0) {
                *level = lv;
                return s;
            }
            cand[i] = cand[--nc];
        }
    }
    return -1;
}

/* a random usable server among positions [lo, hi) of the rack order whose
 * rack is none of racks[0..nr-1], or -1 */
static int32_t range_server(const rp_cluster *c, rng *g, int32_t lo, int32_t hi, const int32_t *slots,
                            int R, int k, const int32_t *racks, int nr)
{
    if (hi <= lo)
        return -1;
    uint64_t span = (uint64_t)(hi - lo);
    for (int tries = 0; tries < 32; tries++) {
        int32_t s = c->rack_srv[lo + (int32_t)rng_below(g, span)];
        int ok = usable(c, slots, R, k, s);
        for (int i = 0; ok && i < nr; i++)
            ok = c->srv_rack[s] != racks[i];
        if (ok)
            return s;
    }
    int32_t off = (int32_t)rng_below(g, span);
    for (uint64_t i = 0; i < span; i++) {
        int32_t s = c->rack_srv[lo + (int32_t)((off + i) % span)];
        int ok = usable(c, slots, R, k, s);
        for (int j = 0; ok && j < nr; j++)
            ok = c->srv_rack[s] != racks[j];
        if (ok)
            return s;
    }
    return -1;
}

/* stock HDFS-like destination for slot k.  Placement: slot 1 on the rack of
 * slot 0, slot 2 on another rack, later slots anywhere.  Re-creation: on
 * another rack when every surviving replica shares one rack, else anywhere. */
static int32_t stock_slot(rp_cluster *c, rng *g, const int32_t *slots, int R, int k, int recovery)
{
    int32_t racks[RP_MAX_REPLICAS];
    int nr = 0;
    for (int j = 0; j < R; j++)
        if (j != k && slots[j] >= 0)
            racks[nr++] = c->srv_rack[slots[j]];
    int32_t s = -1;
    int remote = 0;
    if (!recovery) {
        if (k == 1 && slots[0] >= 0) {
            int32_t lo = racks[0] * c->rack_size, hi = lo + c->rack_size;
            s = range_server(c, g, lo, hi < c->nservers ? hi : c->nservers, slots, R, k, NULL, 0);
            remote = s < 0;
        } else if (k == 2) {
            remote = 1;
        }
    } else if (nr > 0) {
        remote = 1;
        for (int j = 1; j < nr; j++)
            if (racks[j] != racks[0])
                remote = 0;
        nr = remote ? 1 : 0;
    }
    if (s < 0 && remote)
        s = range_server(c, g, 0, c->nservers, slots, R, k, racks, nr);
    if (s < 0)
        s = range_server(c, g, 0, c->nservers, slots, R, k, NULL, 0);
    return s;
}

/* one greedy pass over the R replicas; alg2 slots use relaxation levels up to
 * maxlevel.  Returns 0 with out[] placed (space taken), or the 1-based replica
 * that found no destination (nothing taken). */
static int place_pass(rp_cluster *c, rng *g, enum rp_policy policy, int32_t creator, int R, int maxlevel,
                      int32_t *out, int *levels)
{
    for (int j = 0; j < R; j++) {
        out[j] = -1;
        levels[j] = 0;
    }
    for (int k = 0; k < R; k++) {
        int32_t s;
        int lv = 0;
        if (k == 0 && usable(c, out, R, 0, creator))
            s = creator;
        else if (policy == RP_ALG2)
            s = alg2_slot(c, g, out, R, k, maxlevel, &lv);
        else
            s = stock_slot(c, g, out, R, k, 0);
        if (s < 0) {
            for (int j = 0; j < k; j++)
                give(c, c->srv_tenant[out[j]], 1);
            return k + 1;
        }
        out[k] = s;
        levels[k] = lv;
        take(c, s);
    }
    return 0;
}

/* Algorithm 2 is greedy: an early choice can leave no class for a later
 * replica although another choice would have worked, so a failed pass is
 * retried with fresh random choices before diversity is declared exhausted. */
#define RP_RETRIES 16

int rp_place(rp_cluster *c, rng *g, enum rp_policy policy, int32_t creator, int R, int soft,
             int32_t *out, int *failed_replica, struct rp_place_stats *st)
{
    int levels[RP_MAX_REPLICAS], fk = 0, worst = 0;
    if (policy == RP_ALG2) {
        for (int attempt = 0; attempt < RP_RETRIES; attempt++) {
            fk = place_pass(c, g, policy, creator, R, 0, out, levels);
            if (fk == 0 || c->nactive == 0)
                break;
            if (fk > worst)
                worst = fk;
        }
        if (fk != 0 && c->nactive > 0 && !soft) {
            *failed_replica = worst;
            return RP_EXHAUSTED;
        }
        if (fk != 0 && c->nactive > 0)
            fk = place_pass(c, g, policy, creator, R, 2, out, levels);
    } else {
        fk = place_pass(c, g, policy, creator, R, 0, out, levels);
    }
    if (fk != 0) {
        *failed_replica = fk;
        return RP_FULL;
    }
    if (out[0] != creator)
        st->relaxed_local++;
    for (int k = 1; k < R; k++) {
        st->relaxed_grid += levels[k] == 1;
        st->relaxed_env += levels[k] == 2;
    }
    st->blocks++;
    st->replicas += (uint64_t)R;
    return RP_OK;
}

/* ---- utilization model ----------------------------------------------------------- */

static inline double hash01(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return (double)(x >> 11) * 0x1.0p-53;
}

double rp_util(const rp_cluster *c, int32_t s, double t, double scale)
{
    const struct tenant *T = &c->t[c->srv_tenant[s]];
    double x = (1 + cos(2 * M_PI * (t / 86400.0 - T->phase))) / 2;
    double u = scale * T->peak * (T->trough + (1 - T->trough) * x * x);
    uint64_t hour = (uint64_t)(t / 3600.0);
    u *= 0.9 + 0.2 * hash01(c->seed ^ ((uint64_t)s * 0x9e3779b97f4a7c15ULL) ^ (hour * 0xd1b54a32d192ed03ULL));
    return u > 1 ? 1 : u < 0 ? 0 : u;
}

/* ---- reimage events --------------------------------------------------------------- */

const char *rp_event_kind_name(int kind)
{
    return kind == RP_EV_REIMAGE ? "reimage" : kind == RP_EV_FAIL ? "fail" : kind == RP_EV_ADD ? "add" : "?";
}

int rp_event_kind_parse(const char *s)
{
    if (strcmp(s, "reimage") == 0)
        return RP_EV_REIMAGE;
    if (strcmp(s, "fail") == 0)
        return RP_EV_FAIL;
    if (strcmp(s, "add") == 0)
        return RP_EV_ADD;
    return -1;
}

struct evbuf {
    struct rp_event *a;
    size_t n, cap;
    double horizon;
};

static void ev_push(struct evbuf *b, double t, int32_t s)
{
    if (!(t < b->horizon))
        return;
    b->a = xgrow(b->a, &b->cap, b->n + 1, sizeof *b->a);
    b->a[b->n++] = (struct rp_event){t, s, RP_EV_REIMAGE};
}

int rp_event_cmp(const void *a, const void *b)
{
    const struct rp_event *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->server != y->server)
        return x->server < y->server ? -1 : 1;
    return x->kind - y->kind;
}

/* reimage a random fraction f of tenant T's servers starting at t0.  The
   size is f x n rounded at random, floor(f x n) + [u < frac(f x n)], so its
   mean is exactly f x n (0 servers of a tiny tenant is possible): the burst
   rates of rp_gen_events assume mean_f x n servers per burst, and rounding
   to the nearest with at least 1 made tenants of 1-3 servers draw up to
   2.6x their reimage rate (docs/replplace.md, "Bursts on small tenants"). */
static void burst_tenant(struct evbuf *b, rng *g, const struct tenant *T, double t0, double f,
                         double window, int32_t *scratch)
{
    double want = f * T->n, fl = floor(want);
    int32_t size = (int32_t)fl + (rng_uniform(g) < want - fl);
    if (size > T->n)
        size = T->n;
    if (size <= 0)
        return;
    for (int32_t i = 0; i < T->n; i++)
        scratch[i] = T->first + i;
    for (int32_t i = 0; i < size; i++) {
        int32_t j = i + (int32_t)rng_below(g, (uint64_t)(T->n - i));
        int32_t x = scratch[i];
        scratch[i] = scratch[j];
        scratch[j] = x;
        ev_push(b, t0 + window * rng_uniform(g), scratch[i]);
    }
}

double rp_expected_reimages(const rp_cluster *c, double days)
{
    double sum = 0;
    for (size_t i = 0; i < c->nt; i++)
        sum += c->t[i].rate * c->t[i].n;
    return sum * days / 30.4375;
}

struct rp_event *rp_gen_events(const rp_cluster *c, uint64_t seed, double days,
                               const struct rp_burst_model *m, size_t *n)
{
    struct evbuf b = {NULL, 0, 0, days * 86400.0};
    double months = days / 30.4375, H = b.horizon;
    double ind = 1 - m->burst_share - m->env_burst_share;
    if (ind < 0)
        ind = 0;
    double mean_f = (m->frac_min + m->frac_max) / 2;
    int32_t maxn = 1;
    for (size_t i = 0; i < c->nt; i++)
        if (c->t[i].n > maxn)
            maxn = c->t[i].n;
    int32_t *scratch = xmalloc((size_t)maxn * sizeof *scratch);
    for (size_t i = 0; i < c->nt; i++) {
        const struct tenant *T = &c->t[i];
        rng g;
        rng_seed_key(&g, seed, T->name);
        rng_u64(&g); /* decorrelate from other uses of the name key */
        uint64_t k = rng_poisson(&g, ind * T->rate * T->n * months);
        for (uint64_t j = 0; j < k; j++)
            ev_push(&b, H * rng_uniform(&g), T->first + (int32_t)rng_below(&g, (uint64_t)T->n));
        if (mean_f > 0) {
            uint64_t nb = rng_poisson(&g, m->burst_share * T->rate * months / mean_f);
            for (uint64_t j = 0; j < nb; j++) {
                double t0 = H * rng_uniform(&g);
                double f = m->frac_min + (m->frac_max - m->frac_min) * rng_uniform(&g);
                burst_tenant(&b, &g, T, t0, f, m->window, scratch);
            }
        }
    }
    for (size_t e = 0; e < keyset_size(c->envs) && mean_f > 0 && m->env_burst_share > 0; e++) {
        double w = 0, ns = 0;
        for (int j = c->env_start[e]; j < c->env_start[e + 1]; j++) {
            const struct tenant *T = &c->t[c->env_tenants[j]];
            w += T->rate * T->n;
            ns += T->n;
        }
        rng g;
        char key[32];
        snprintf(key, sizeof key, "env-burst:%zu", e);
        rng_seed_key(&g, seed ^ rng_hash_str(keyset_key(c->envs, e)), key);
        uint64_t nb = rng_poisson(&g, m->env_burst_share * (ns > 0 ? w / ns : 0) * months / mean_f);
        for (uint64_t j = 0; j < nb; j++) {
            double t0 = H * rng_uniform(&g);
            double f = m->frac_min + (m->frac_max - m->frac_min) * rng_uniform(&g);
            for (int q = c->env_start[e]; q < c->env_start[e + 1]; q++)
                burst_tenant(&b, &g, &c->t[c->env_tenants[q]], t0, f, m->window, scratch);
        }
    }
    free(scratch);
    if (b.n > 1)
        qsort(b.a, b.n, sizeof *b.a, rp_event_cmp);
    *n = b.n;
    return b.a;
}

/* ---- simulation ------------------------------------------------------------------ */

#define UNPLACED 255

struct srvlist {
    uint32_t *b;
    uint32_t n, cap;
};

/* RP_REBUILD_SERVER: the re-creation queue of one reimage event */
struct rqueue {
    uint64_t *it; /* block << 5 | slot */
    size_t n, pos;
    int sorted;
};

/* RP_REBUILD_SOURCES: per source server and surviving-replica count at
 * enqueue time, one FIFO of new items and one of items retried an hour
 * later (two FIFOs, so a retried item never holds up the items behind it);
 * items become ready at their time */
struct srcitem {
    uint64_t it; /* block << 5 | slot */
    double ready;
};
struct srcfifo {
    struct srcitem *a;
    size_t n, pos, cap;
};
struct srcq {
    struct srcfifo f[2][RP_MAX_REPLICAS]; /* [0]: new, [1]: retried */
    size_t pending;
    int scheduled; /* in the heap, at `at` (older heap entries are stale) */
    double at;
    double free_at; /* its next send, one step after the last: no turn before it */
};

struct sim {
    rp_cluster *c;
    const struct rp_sim_config *cfg;
    struct rp_sim_result *res;
    int R;
    size_t N;
    int32_t *slots;
    uint8_t *live;
    double *dt;
    struct srvlist *sl;
    rng gp, gb, ga;
    heap h;
    struct rqueue *qs; /* RP_REBUILD_SERVER */
    size_t nq, capq;
    struct srcq *src;  /* RP_REBUILD_SOURCES, one per server */
    uint64_t backlog;
    double step;
};

static void sl_push(struct srvlist *l, uint32_t b)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->b = xreallocarray(l->b, l->cap, sizeof *l->b);
    }
    l->b[l->n++] = b;
}

static void backlog_add(struct sim *S, uint64_t n)
{
    S->backlog += n;
    if (S->backlog > S->res->max_backlog)
        S->res->max_backlog = S->backlog;
}

/* turn the busy-destination filter on for time t (when the policy avoids busy servers) */
static void busy_at(struct sim *S, double t)
{
    S->c->busy_on = S->cfg->avoid_busy;
    S->c->busy_now = t;
    S->c->busy_thr = S->cfg->busy;
    S->c->busy_scale = S->cfg->util_scale;
}

/* create the cfg->blocks blocks at t = 0 on uniformly drawn servers.  When
 * busy servers are avoided and a block finds no destination, it is placed
 * without the filter (a block is never refused for load alone). */
static void sim_place_blocks(struct sim *S, const char *progress)
{
    const int R = S->R;
    struct rp_place_stats pst = {0};
    uint64_t unplaced = 0;
    for (size_t b = 0; b < S->N; b++) {
        int32_t creator = (int32_t)rng_below(&S->gb, (uint64_t)S->c->nservers);
        int32_t *o = S->slots + b * (size_t)R;
        int failed;
        busy_at(S, 0);
        int rc = rp_place(S->c, &S->gp, S->cfg->policy, creator, R, 1, o, &failed, &pst);
        if (rc != RP_OK && S->c->busy_on) {
            S->c->busy_on = 0;
            rc = rp_place(S->c, &S->gp, S->cfg->policy, creator, R, 1, o, &failed, &pst);
        }
        if (rc != RP_OK) {
            unplaced++;
            S->live[b] = UNPLACED;
            continue;
        }
        S->live[b] = (uint8_t)R;
        for (int k = 0; k < R; k++)
            sl_push(&S->sl[o[k]], (uint32_t)b);
        if (progress && (b & 0xffff) == 0)
            slk_progress(progress, b, S->N + S->cfg->nevents);
    }
    S->c->busy_on = 0;
    S->res->blocks = S->N - unplaced;
    S->res->unplaced = unplaced;
    S->res->relaxed += pst.relaxed_env + pst.relaxed_grid + pst.relaxed_local;
}

/* Algorithm 2's destination for a re-created replica when busy servers are
 * avoided: diversity comes first, so when every destination that keeps the
 * rules is busy now, a queue that can retry later (can_defer) waits
 * instead of relaxing the rules; relaxed only when the rules cannot be kept
 * even counting busy servers.  -1: none now. */
static int32_t alg2_busy_slot(struct sim *S, int32_t *o, int k, int can_defer, int *lv)
{
    int32_t s = alg2_slot(S->c, &S->gp, o, S->R, k, 0, lv);
    if (s >= 0 || !can_defer)
        return s >= 0 ? s : alg2_slot(S->c, &S->gp, o, S->R, k, 2, lv);
    S->c->busy_on = 0;
    int32_t any = alg2_slot(S->c, &S->gp, o, S->R, k, 0, lv);
    S->c->busy_on = 1;
    if (any >= 0)
        return -1;
    return alg2_slot(S->c, &S->gp, o, S->R, k, 2, lv);
}

/* re-create slot k of block b at time t on a destination the policy
 * chooses.  Returns 1 when placed, 0 when no destination was found (or,
 * with can_defer, none that keeps the rules is free of load now). */
static int recreate(struct sim *S, size_t b, int k, double t, int can_defer)
{
    int32_t *o = S->slots + b * (size_t)S->R;
    int lv = 0;
    busy_at(S, t);
    int32_t s = S->cfg->policy != RP_ALG2 ? stock_slot(S->c, &S->gp, o, S->R, k, 1)
                : S->c->busy_on          ? alg2_busy_slot(S, o, k, can_defer, &lv)
                                         : alg2_slot(S->c, &S->gp, o, S->R, k, 2, &lv);
    S->c->busy_on = 0;
    if (s < 0)
        return 0;
    if (lv > 0)
        S->res->relaxed++;
    o[k] = s;
    S->live[b]++;
    take(S->c, s);
    sl_push(&S->sl[s], (uint32_t)b);
    S->res->rereplicated++;
    return 1;
}

/* ---- RP_REBUILD_SERVER: the reimaged server's queue, one block at a time */

/* fewest surviving replicas first (stable counting sort of the rest of q) */
static void rq_sort(struct sim *S, struct rqueue *q)
{
    size_t cnt[RP_MAX_REPLICAS + 2] = {0};
    for (size_t i = q->pos; i < q->n; i++) {
        if (i + 16 < q->n)
            __builtin_prefetch(S->live + (q->it[i + 16] >> 5));
        cnt[S->live[q->it[i] >> 5] + 1]++;
    }
    for (int v = 1; v <= S->R + 1; v++)
        cnt[v] += cnt[v - 1];
    uint64_t *tmp = xmalloc((q->n - q->pos) * sizeof *tmp);
    for (size_t i = q->pos; i < q->n; i++)
        tmp[cnt[S->live[q->it[i] >> 5]]++] = q->it[i];
    memcpy(q->it + q->pos, tmp, (q->n - q->pos) * sizeof *tmp);
    free(tmp);
    q->sorted = 1;
}

/* one step of queue qi at time t: re-create its next still-needed replica
 * (a replica with no destination is dropped: the block stays
 * under-replicated), then come back one step later while items remain */
static void rq_step(struct sim *S, uint64_t qi, double t)
{
    struct rqueue *q = &S->qs[qi];
    if (!q->sorted)
        rq_sort(S, q);
    while (q->pos < q->n) {
        uint64_t it = q->it[q->pos++];
        size_t b = (size_t)(it >> 5);
        int k = (int)(it & 31);
        S->backlog--;
        if (S->live[b] == 0 || S->slots[b * (size_t)S->R + k] >= 0)
            continue;
        if (recreate(S, b, k, t, 0))
            break;
    }
    if (q->pos < q->n) {
        heap_push(&S->h, t + S->step, qi);
    } else {
        free(q->it);
        q->it = NULL;
    }
}

static void rq_add(struct sim *S, uint64_t *items, size_t ni, double t)
{
    if (ni == 0) {
        free(items);
        return;
    }
    S->qs = xgrow(S->qs, &S->capq, S->nq + 1, sizeof *S->qs);
    S->qs[S->nq] = (struct rqueue){items, ni, 0, 0};
    heap_push(&S->h, t + S->cfg->detect, S->nq++);
    backlog_add(S, ni);
}

/* ---- RP_REBUILD_SOURCES: every server holding a surviving copy sends,
 * each throttled to cfg->rate blocks an hour, all in parallel */

static void src_schedule(struct sim *S, int32_t q, double t)
{
    if (t < S->src[q].free_at) /* a turn moved earlier still keeps the rate */
        t = S->src[q].free_at;
    if (!S->src[q].scheduled || t < S->src[q].at) {
        S->src[q].scheduled = 1;
        S->src[q].at = t;
        heap_push(&S->h, t, (uint64_t)q);
    }
}

/* queue slot k of block b on the surviving holder with the fewest pending
 * items (the first slot on ties), ready at time `ready`.  0 when no copy is
 * left. */
static int src_enqueue(struct sim *S, size_t b, int k, double ready, int retry)
{
    const int32_t *o = S->slots + b * (size_t)S->R;
    int32_t best = -1;
    for (int j = 0; j < S->R; j++)
        if (o[j] >= 0 && (best < 0 || S->src[o[j]].pending < S->src[best].pending))
            best = o[j];
    if (best < 0)
        return 0;
    int lv = S->live[b] > 0 ? S->live[b] - 1 : 0;
    struct srcfifo *f = &S->src[best].f[retry][lv];
    f->a = xgrow(f->a, &f->cap, f->n + 1, sizeof *f->a);
    f->a[f->n++] = (struct srcitem){(uint64_t)b << 5 | (uint64_t)k, ready};
    S->src[best].pending++;
    backlog_add(S, 1);
    src_schedule(S, best, ready);
    return 1;
}

/* the next ready item of source q at time t (fewest survivors first), or
 * NULL with *next the earliest time one becomes ready (INFINITY: none) */
static struct srcitem *src_next(struct sim *S, int32_t q, double t, double *next)
{
    *next = INFINITY;
    for (int v = 0; v < S->R * 2; v++) {
        struct srcfifo *f = &S->src[q].f[v % 2][v / 2];
        if (f->pos == f->n)
            continue;
        if (f->a[f->pos].ready <= t) {
            S->src[q].pending--;
            S->backlog--;
            struct srcitem *it = &f->a[f->pos++];
            if (f->pos == f->n) {
                f->pos = f->n = 0;
            } else if (f->pos > 4096 && f->pos > f->n / 2) {
                /* compact a queue that never drains; *it is read before
                 * anything is pushed, so it stays valid at its new place */
                memmove(f->a, f->a + f->pos - 1, (f->n - f->pos + 1) * sizeof *f->a);
                f->n -= f->pos - 1;
                f->pos = 1;
                it = &f->a[0];
            }
            return it;
        }
        if (f->a[f->pos].ready < *next)
            *next = f->a[f->pos].ready;
    }
    return NULL;
}

/* source q's turn at time t: send one still-needed replica, then wait one
 * step.  An item whose source lost its copy meanwhile moves to another
 * holder; one with no destination now (all busy or full) is retried an
 * hour later. */
static void src_step(struct sim *S, int32_t q, double t)
{
    S->src[q].scheduled = 0;
    double next;
    struct srcitem *it;
    while ((it = src_next(S, q, t, &next)) != NULL) {
        size_t b = (size_t)(it->it >> 5);
        int k = (int)(it->it & 31);
        const int32_t *o = S->slots + b * (size_t)S->R;
        if (S->live[b] == 0 || o[k] >= 0)
            continue;
        if (!holds(o, S->R, -1, q)) {
            src_enqueue(S, b, k, t, 0);
            continue;
        }
        S->src[q].free_at = t + S->step;
        if (!recreate(S, b, k, t, 1))
            src_enqueue(S, b, k, t + 3600, 1);
        src_schedule(S, q, t + S->step);
        return;
    }
    if (next < INFINITY)
        src_schedule(S, q, next);
}

/* ---- events and reads ---------------------------------------------------------- */

static void report_loss(struct sim *S, size_t b, double t)
{
    S->res->lost++;
    if (isnan(S->res->first_loss))
        S->res->first_loss = t;
    if (S->cfg->on_loss) {
        const int32_t *o = S->slots + b * (size_t)S->R;
        int32_t last[RP_MAX_REPLICAS];
        for (int j = 0; j < S->R; j++)
            last[j] = o[j] <= -2 ? -2 - o[j] : -1;
        S->cfg->on_loss(S->cfg->on_loss_ctx, b, t, S->R, last, S->dt + b * (size_t)S->R);
    }
}

/* a reimage or failure of server s at time t: destroy its replicas, count
 * the blocks that lost their last copy, queue the others' re-creation */
static void sim_destroy(struct sim *S, int32_t s, double t)
{
    const int R = S->R;
    struct srvlist *l = &S->sl[s];
    int by_server = S->cfg->rebuild == RP_REBUILD_SERVER;
    uint64_t *items = by_server && l->n ? xmalloc(l->n * sizeof *items) : NULL;
    size_t ni = 0;
    S->res->reimages++;
    for (uint32_t i = 0; i < l->n; i++) {
        uint32_t b = l->b[i];
        /* the lists are mostly in block order but the blocks are far apart:
         * fetch ahead, the loop is bound by these misses */
        if (i + 16 < l->n) {
            __builtin_prefetch(S->slots + (size_t)l->b[i + 16] * R, 1);
            __builtin_prefetch(S->live + l->b[i + 16], 1);
        }
        int32_t *o = S->slots + (size_t)b * R;
        for (int k = 0; k < R; k++) {
            if (o[k] != s)
                continue;
            o[k] = -2 - s; /* destroyed: remember where it was */
            S->live[b]--;
            S->res->replicas_destroyed++;
            if (S->dt)
                S->dt[(size_t)b * R + k] = t;
            if (S->live[b] == 0)
                report_loss(S, b, t);
            else if (by_server)
                items[ni++] = (uint64_t)b << 5 | (uint64_t)k;
            else
                src_enqueue(S, b, k, t + S->cfg->detect, 0);
        }
    }
    give(S->c, S->c->srv_tenant[s], (int64_t)l->n);
    l->n = 0;
    if (by_server)
        rq_add(S, items, ni, t);
}

/* one uniformly random read at time t: refused when the block is lost or
 * every replica is down or busy; *ta advances to the next read */
static void sim_read(struct sim *S, double t, double *ta)
{
    const struct rp_sim_config *cfg = S->cfg;
    size_t b = (size_t)rng_below(&S->ga, (uint64_t)S->N);
    *ta += rng_exp(&S->ga, cfg->horizon / (double)cfg->accesses);
    if (S->live[b] == UNPLACED)
        return; /* never created (cluster full): nothing to read */
    S->res->accesses++;
    S->res->util_sum += rp_util(S->c, (int32_t)rng_below(&S->ga, (uint64_t)S->c->nservers), t, cfg->util_scale);
    if (S->live[b] == 0) {
        S->res->failed_lost++;
        return;
    }
    const int32_t *o = S->slots + b * (size_t)S->R;
    int ok = 0;
    for (int k = 0; k < S->R && !ok; k++)
        ok = o[k] >= 0 && !S->c->down[o[k]] && rp_util(S->c, o[k], t, cfg->util_scale) <= cfg->busy;
    if (!ok)
        S->res->failed_busy++;
}

static void sim_free(struct sim *S)
{
    for (size_t i = 0; i < S->nq; i++)
        free(S->qs[i].it);
    free(S->qs);
    if (S->src)
        for (int32_t s = 0; s < S->c->nservers; s++)
            for (int v = 0; v < RP_MAX_REPLICAS; v++)
                free(S->src[s].f[0][v].a), free(S->src[s].f[1][v].a);
    free(S->src);
    heap_free(&S->h);
    for (int32_t s = 0; s < S->c->nservers; s++)
        free(S->sl[s].b);
    free(S->sl);
    free(S->slots);
    free(S->live);
    free(S->dt);
}

void rp_simulate(rp_cluster *c, const struct rp_sim_config *cfg, struct rp_sim_result *res,
                 const char *progress)
{
    memset(res, 0, sizeof *res);
    res->first_loss = NAN;
    reset_space(c);
    struct sim S = {.c = c, .cfg = cfg, .res = res, .R = cfg->replicas, .N = (size_t)cfg->blocks};
    size_t n1 = S.N ? S.N : 1;
    S.slots = xmalloc(n1 * (size_t)S.R * sizeof *S.slots);
    S.live = xcalloc(n1, 1);
    S.dt = cfg->on_loss ? xcalloc(n1 * (size_t)S.R, sizeof *S.dt) : NULL;
    S.sl = xcalloc((size_t)c->nservers, sizeof *S.sl);
    if (cfg->rebuild != RP_REBUILD_SERVER)
        S.src = xcalloc((size_t)c->nservers, sizeof *S.src);
    S.step = 3600.0 / cfg->rate;
    rng_seed_key(&S.gp, cfg->seed, cfg->policy == RP_ALG2 ? "sim-place-alg2" : "sim-place-stock");
    rng_seed_key(&S.gb, cfg->seed, "sim-creators");
    rng_seed_key(&S.ga, cfg->seed, "sim-accesses");
    heap_init(&S.h);
    sim_place_blocks(&S, progress);

    double ta = cfg->accesses > 0 && res->blocks > 0 ? rng_exp(&S.ga, cfg->horizon / (double)cfg->accesses)
                                                     : INFINITY;
    size_t ei = 0;
    for (;;) {
        const struct heap_item *top = heap_peek(&S.h);
        double tq = top ? top->key : INFINITY;
        double te = ei < cfg->nevents ? cfg->events[ei].t : INFINITY;
        double t = fmin(tq, fmin(te, ta));
        if (!(t < cfg->horizon))
            break;
        if (tq <= te && tq <= ta) {
            struct heap_item hi;
            heap_pop(&S.h, &hi);
            if (S.src && (!S.src[hi.val].scheduled || hi.key != S.src[hi.val].at))
                continue; /* superseded by an earlier turn */
            if (S.src)
                src_step(&S, (int32_t)hi.val, t);
            else
                rq_step(&S, hi.val, t);
        } else if (te <= ta) {
            const struct rp_event *ev = &cfg->events[ei++];
            if (ev->kind == RP_EV_ADD) {
                c->down[ev->server] = 0;
                continue;
            }
            if (ev->kind == RP_EV_FAIL)
                c->down[ev->server] = 1;
            sim_destroy(&S, ev->server, ev->t);
            if (progress && (ei & 0xff) == 0)
                slk_progress(progress, S.N + ei, S.N + cfg->nevents);
        } else {
            sim_read(&S, t, &ta);
        }
    }
    if (progress)
        slk_progress_done();
    sim_free(&S);
}
