/* tenantbins — the tenants chart's bin means, binned while read (see tenantbins.h).
 *
 * Tuned for the audit's input: 2000 tenants x 30 days of 2-minute samples,
 * 43 million rows in 1.3 GB, grouped by tenant.  Memory: the tenant names,
 * a few numbers per tenant, the long gaps of the first pass (at most
 * max_bins per tenant) and one point per tenant and bin with samples. */
#include "plot/tenantbins.h"
#include "base/diag.h"
#include "base/keyset.h"
#include "base/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the median gap, without keeping every gap ------------------------------
 * The chart's width is max(median gap, thr) with thr = span / max_bins, so
 * the median only matters when it is above thr.  Gaps at or below the
 * threshold seen so far (which only grows, so is at most the final one) are
 * counted, with their largest, and dropped; the longer ones are kept, and
 * pruned again as the threshold grows.  A tenant's gaps above thr add up
 * to at most the span, so fewer than max_bins of them per tenant stay. */
struct gapset {
    double *v; /* the gaps above the threshold of the last prune */
    size_t n, cap;
    size_t prune_at;
    size_t small; /* gaps dropped: each at or below the threshold */
    double small_max;
};

static void gapset_prune(struct gapset *g, double thr)
{
    size_t m = 0;
    for (size_t i = 0; i < g->n; i++)
        if (g->v[i] > thr)
            g->v[m++] = g->v[i];
        else
            g->small_max = g->small++ ? fmax(g->small_max, g->v[i]) : g->v[i];
    g->n = m;
    g->prune_at = 2 * m > 4096 ? 2 * m : 4096;
}

static void gapset_add(struct gapset *g, double gap, double thr)
{
    if (gap <= thr) {
        g->small_max = g->small++ ? fmax(g->small_max, gap) : gap;
        return;
    }
    g->v = xgrow(g->v, &g->cap, g->n + 1, sizeof *g->v);
    g->v[g->n++] = gap;
    if (g->n >= g->prune_at)
        gapset_prune(g, thr);
}

/* gapset_width: max(median of every gap added, thr) with the final thr;
 * max(otherwise, thr) when there were none.  The median is stats_median's
 * (type 7: the mean of the two middle gaps for an even count), the same
 * bits as over all the gaps sorted. */
static double gapset_width(struct gapset *g, double thr, double otherwise)
{
    g->prune_at = 0;
    gapset_prune(g, thr);
    size_t n = g->small + g->n;
    if (n == 0)
        return fmax(otherwise, thr);
    double h = (double)(n - 1) * 50 / 100.0;
    size_t lo = (size_t)floor(h);
    if (lo + 1 < g->small || (lo + 1 == g->small && h == (double)lo))
        return thr; /* the middle gaps are at or below thr */
    stats_sort(g->v, g->n);
    /* the sorted gaps: small ones (the last of them small_max), then v[] */
    double xlo = lo < g->small ? g->small_max : g->v[lo - g->small];
    double xhi = lo + 1 >= n ? xlo : lo + 1 < g->small ? g->small_max : g->v[lo + 1 - g->small];
    double med = xlo + (h - (double)lo) * (xhi - xlo);
    return fmax(med, thr);
}

/* ---- reading ---------------------------------------------------------------- */

struct util_reader {
    csvr *r;
    int ct, cx, cy, ck; /* tenant, t, util, kind (-1: none) */
    const char *what;   /* the progress line's count (--progress) */
};

static int util_open(struct util_reader *u, const char *path, const struct csv_dialect *d, const char *what)
{
    int st = SLK_EIO;
    *u = (struct util_reader){.ct = -1, .cx = -1, .cy = -1, .ck = -1, .what = what};
    u->r = csvr_open_with(path, d, 0, &st);
    if (!u->r)
        return st ? st : SLK_EIO;
    const char *want[3] = {"tenant", "t", "util"};
    int wc[3];
    if (csvr_require_list(u->r, want, wc, 3) < 0) {
        csvr_close(u->r);
        return SLK_EDATA;
    }
    u->ct = wc[0];
    u->cx = wc[1];
    u->cy = wc[2];
    u->ck = csvr_col(u->r, "kind");
    return SLK_OK;
}

/* util_next: the next data row's tenant (never NULL), t and util: 1; 0 at
 * the end or when the reader stopped (csvr_status says which). */
static int util_next(struct util_reader *u, const char **tenant, double *t, double *util)
{
    while (csvr_next(u->r) > 0) {
        csvr_progress(u->r, u->what);
        const char *kind = u->ck >= 0 ? csvr_field(u->r, u->ck) : NULL;
        if (kind && strcmp(kind, "end") == 0)
            continue;
        if (csvr_get_time(u->r, u->cx, t, CSVR_REQUIRED) < 0 ||
            csvr_get_double(u->r, u->cy, util, CSVR_BOUNDED | CSVR_NONNEG) < 0) {
            if (csvr_skip(u->r))
                continue;
            return 0;
        }
        const char *g = csvr_field(u->r, u->ct);
        *tenant = g ? g : "";
        return 1;
    }
    return 0;
}

/* What the first pass learns. */
struct scan {
    keyset *ks;   /* tenants, numbered in order of appearance */
    double *last; /* per tenant: its latest t */
    size_t cap;
    size_t rows;
    double t0, t1;
    int unordered; /* a tenant's times went back */
};

/* scan_pass: t0, t1, the tenants and the bin width *w; the dialect's
 * rejects (--on-error skip) replaced by a silent one, so that the second
 * pass lists each bad row once. */
static int scan_pass(const char *path, const struct csv_dialect *d, int max_bins, struct scan *s, double *w)
{
    struct csv_quiet quiet;
    if (csv_quiet_open(&quiet, d) < 0)
        return TENANTBINS_HELD;
    struct util_reader u;
    int st = util_open(&u, path, &quiet.d, "rows (the first of two passes)");
    struct gapset g = {.prune_at = 4096};
    s->t0 = INFINITY;
    s->t1 = -INFINITY;
    const char *name;
    double t, y;
    long cur = -1;
    while (!st && util_next(&u, &name, &t, &y)) {
        size_t known = keyset_size(s->ks);
        long k = keyset_find_grouped(s->ks, name, &cur, 1);
        s->last = xgrow(s->last, &s->cap, (size_t)k + 1, sizeof *s->last);
        if ((size_t)k < known && t < s->last[k]) {
            s->unordered = 1;
            break;
        }
        s->t0 = fmin(s->t0, t);
        s->t1 = fmax(s->t1, t);
        if ((size_t)k < known && t > s->last[k])
            gapset_add(&g, t - s->last[k], (s->t1 - s->t0) / max_bins);
        s->last[k] = t;
        s->rows++;
    }
    if (!st) {
        st = csvr_status(u.r);
        csvr_close(u.r);
    }
    *w = gapset_width(&g, s->rows ? (s->t1 - s->t0) / max_bins : 0, 60);
    free(g.v);
    csv_quiet_close(&quiet);
    return st;
}

/* Per tenant in the second pass: its class and the bin it is in. */
struct tenant_acc {
    int cls;  /* -1: not drawn */
    long bin; /* -1: no sample yet */
    double sum;
    size_t count;
};

static void emit(struct tenantbins *b, size_t *cap, struct tenant_acc *a)
{
    if (a->count && a->cls >= 0) {
        b->pts = xgrow(b->pts, cap, b->n + 1, sizeof *b->pts);
        b->pts[b->n++] =
            (struct tenantbins_pt){a->cls, b->t0 + (double)a->bin * b->w, a->sum / (double)a->count};
    }
    a->sum = 0;
    a->count = 0;
}

static int by_class_bin(const void *x, const void *y)
{
    const struct tenantbins_pt *p = x, *q = y;
    if (p->cls != q->cls)
        return p->cls - q->cls;
    return (p->bin > q->bin) - (p->bin < q->bin);
}

/* bin_pass: each tenant's mean per bin of b->w from b->t0 into b, reading
 * the file again with its own dialect (its rejects list the bad rows). */
static int bin_pass(const char *path, const struct csv_dialect *d, const struct scan *s,
                    struct tenant_acc *acc, struct tenantbins *b)
{
    struct util_reader u;
    int st = util_open(&u, path, d, "rows (the second of two passes)");
    if (st)
        return st;
    long nbins = (long)floor((s->t1 - s->t0) / b->w) + 1, cur = -1;
    size_t cap = 0, rows = 0, nt = keyset_size(s->ks);
    const char *name;
    double t, y;
    int changed = 0;
    while (util_next(&u, &name, &t, &y)) {
        long k = keyset_find_grouped(s->ks, name, &cur, 0);
        long bin = (long)floor((t - b->t0) / b->w);
        if (k < 0 || bin < 0 || bin >= nbins || bin < acc[k].bin) {
            changed = 1;
            break;
        }
        if (bin != acc[k].bin) {
            emit(b, &cap, &acc[k]);
            acc[k].bin = bin;
        }
        acc[k].sum += y;
        acc[k].count++;
        rows++;
    }
    st = csvr_status(u.r);
    csvr_close(u.r);
    if (!st && (changed || rows != s->rows)) {
        slk_error("%s: the file changed while it was read (skyplot tenants reads it twice)", path);
        st = SLK_EDATA;
    }
    for (size_t k = 0; k < nt && !st; k++)
        emit(b, &cap, &acc[k]);
    if (b->n)
        qsort(b->pts, b->n, sizeof *b->pts, by_class_bin);
    return st;
}

int tenantbins_read(const char *path, const struct csv_dialect *d,
                    int (*class_of)(const char *tenant, void *ctx), void *ctx, size_t nclasses, int max_bins,
                    struct tenantbins *out)
{
    memset(out, 0, sizeof *out);
    if (!csv_path_rereadable(path))
        return TENANTBINS_HELD;
    if (!d)
        d = &csv_dialect_plain;
    struct scan s = {.ks = keyset_new()};
    double w;
    int st = scan_pass(path, d, max_bins, &s, &w);
    if (!st && s.unordered)
        st = TENANTBINS_HELD;
    if (!st && s.rows) {
        size_t nt = keyset_size(s.ks);
        struct tenant_acc *acc = xcalloc(nt + 1, sizeof *acc);
        out->ntenants = xcalloc(nclasses + 1, sizeof *out->ntenants);
        for (size_t k = 0; k < nt; k++) {
            acc[k] = (struct tenant_acc){class_of(keyset_key(s.ks, (long)k), ctx), -1, 0, 0};
            tenantbins_count(out, acc[k].cls, keyset_key(s.ks, (long)k));
        }
        out->rows = s.rows;
        out->t0 = s.t0;
        out->w = w;
        st = bin_pass(path, d, &s, acc, out);
        free(acc);
    }
    keyset_free(s.ks);
    free(s.last);
    slk_progress_done();
    if (st)
        tenantbins_free(out);
    return st;
}

void tenantbins_count(struct tenantbins *b, int cls, const char *tenant)
{
    b->tenants++;
    if (cls >= 0)
        b->ntenants[cls]++;
    else if (b->unclassed++ == 0)
        b->first_unclassed = xstrdup(tenant);
}

void tenantbins_free(struct tenantbins *b)
{
    free(b->pts);
    free(b->ntenants);
    free(b->first_unclassed);
    memset(b, 0, sizeof *b);
}
