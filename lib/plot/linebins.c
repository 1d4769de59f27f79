/* linebins — the lines chart's series, thinned while read (see linebins.h).
 *
 * Tuned for the audit's input: peakgate --series on 160 tasks, 13.8 million
 * rows of a fixed 60 s step.  Memory: the group names, a few numbers and a
 * table of distinct steps per series, and the kept points (at most 4 per
 * column and stretch between gaps). */
#include "plot/linebins.h"
#include "base/diag.h"
#include "base/keyset.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the median step, exactly, from a count of each distinct step ----------- */
struct steps {
    double *v; /* open addressing on the step's bits; c[i] == 0: empty */
    size_t *c;
    size_t cap;  /* a power of two, or 0 */
    size_t used; /* distinct steps */
    size_t n;    /* steps counted */
};

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t bits(double v)
{
    uint64_t u;
    v += 0.0; /* -0 and 0 are one value */
    memcpy(&u, &v, sizeof u);
    return u;
}

static void steps_put(struct steps *s, double v, size_t count);

static void steps_grow(struct steps *s)
{
    struct steps old = *s;
    s->cap = old.cap ? 2 * old.cap : 4;
    s->v = xcalloc(s->cap, sizeof *s->v);
    s->c = xcalloc(s->cap, sizeof *s->c);
    s->used = 0;
    s->n = 0;
    for (size_t i = 0; i < old.cap; i++)
        if (old.c[i])
            steps_put(s, old.v[i], old.c[i]);
    free(old.v);
    free(old.c);
}

static void steps_put(struct steps *s, double v, size_t count)
{
    if (4 * (s->used + 1) > 3 * s->cap)
        steps_grow(s);
    size_t i = (size_t)mix64(bits(v)) & (s->cap - 1);
    while (s->c[i] && s->v[i] != v)
        i = (i + 1) & (s->cap - 1);
    if (!s->c[i]) {
        s->v[i] = v;
        s->used++;
    }
    s->c[i] += count;
    s->n += count;
}

struct step_count {
    double v;
    size_t c;
};

static int by_step(const void *a, const void *b)
{
    double x = ((const struct step_count *)a)->v, y = ((const struct step_count *)b)->v;
    return (x > y) - (x < y);
}

/* steps_median: stats_median of every step counted (type 7: the two middle
 * steps' mean for an even count), the same bits; NAN when none */
static double steps_median(const struct steps *s)
{
    if (s->n == 0)
        return NAN;
    struct step_count *sc = xmalloc(s->used * sizeof *sc);
    size_t m = 0;
    for (size_t i = 0; i < s->cap; i++)
        if (s->c[i])
            sc[m++] = (struct step_count){s->v[i], s->c[i]};
    qsort(sc, m, sizeof *sc, by_step);
    double h = (double)(s->n - 1) * 50 / 100.0;
    size_t lo = (size_t)floor(h), below = 0, i = 0;
    while (below + sc[i].c <= lo) /* sc[i] holds ranks below .. below + c - 1 */
        below += sc[i++].c;
    double a = sc[i].v, med = a;
    if (lo + 1 < s->n) {
        double b = lo + 1 < below + sc[i].c ? a : sc[i + 1].v;
        med = a + (h - (double)lo) * (b - a);
    }
    free(sc);
    return med;
}

/* ---- one series ------------------------------------------------------------- */

/* What the first pass learns of a series, and the second pass's state. */
struct acc {
    size_t n;           /* points */
    double xlo, last;   /* the first and the latest x */
    struct steps steps; /* its positive steps */
    uint64_t h1, h2;    /* its points, hashed in order */
    /* the second pass */
    double gap;     /* a step longer than this lifts the pen */
    int thin, skip; /* thinned; not drawn (a folded column's later group) */
    size_t seen;
    double prev;
    int have; /* the bucket: points of one column of one stretch */
    long col;
    size_t idx, at[4]; /* the bucket's points: first, lowest, highest, last */
    struct linebins_pt p[4];
    struct linebins_pt *out;
    size_t nout, cap;
};

static void scan_point(struct acc *a, double x, double y)
{
    if (a->n == 0)
        a->xlo = x;
    else if (x > a->last)
        steps_put(&a->steps, x - a->last, 1);
    a->last = x;
    a->n++;
    uint64_t bx = bits(x), by = bits(y);
    a->h1 = (a->h1 ^ bx) * 0x100000001b3ULL;
    a->h1 = (a->h1 ^ by) * 0x100000001b3ULL;
    a->h2 = mix64(a->h2 + bx);
    a->h2 = mix64(a->h2 ^ by);
}

/* What a panel's x axis can show: ncols columns across [xlo, xhi]. */
struct columns {
    double xlo, xhi;
    int ncols;
};

static long column_of(const struct columns *c, double x)
{
    if (!(c->xhi > c->xlo))
        return 0;
    double k = floor((x - c->xlo) / (c->xhi - c->xlo) * c->ncols);
    return k < 0 ? 0 : k >= c->ncols ? c->ncols - 1 : (long)k;
}

static void keep(struct acc *a, double x, double y)
{
    a->out = xgrow(a->out, &a->cap, a->nout + 1, sizeof *a->out);
    a->out[a->nout++] = (struct linebins_pt){x, y};
}

/* flush: the bucket's first, lowest, highest and last point, in x order,
 * each once */
static void flush(struct acc *a)
{
    if (!a->have)
        return;
    int lo_first = a->at[1] < a->at[2];
    int order[4] = {0, lo_first ? 1 : 2, lo_first ? 2 : 1, 3};
    for (int e = 0; e < 4; e++)
        if (e == 0 || a->at[order[e]] != a->at[order[e - 1]])
            keep(a, a->p[order[e]].x, a->p[order[e]].y);
    a->have = 0;
}

static void thin_point(struct acc *a, const struct columns *c, double x, double y)
{
    long col = a->thin ? column_of(c, x) : 0;
    if (a->seen && x - a->prev > a->gap) {
        flush(a);
        keep(a, NAN, NAN); /* a break */
    } else if (a->have && col != a->col)
        flush(a);
    a->seen++;
    a->prev = x;
    if (!a->thin) {
        keep(a, x, y);
        return;
    }
    struct linebins_pt p = {x, y};
    if (!a->have) {
        a->have = 1;
        a->col = col;
        a->idx = 0;
        for (int e = 0; e < 4; e++) {
            a->p[e] = p;
            a->at[e] = 0;
        }
        return;
    }
    a->idx++;
    if (y < a->p[1].y) {
        a->p[1] = p;
        a->at[1] = a->idx;
    }
    if (y > a->p[2].y) {
        a->p[2] = p;
        a->at[2] = a->idx;
    }
    a->p[3] = p;
    a->at[3] = a->idx;
}

/* ---- the series of a file ----------------------------------------------------- */

struct reader {
    keyset *groups;  /* --by values, numbered in order of appearance */
    long last;       /* the previous row's group (inputs are grouped) */
    struct acc *acc; /* per group and y column: acc[group * ny + k] */
    size_t nacc, cap;
    size_t points;
    size_t rows; /* data rows read by this pass */
    struct linebins_cols c;
};

const char *linebins_group(const csvr *r, const int *cb, int nb, char *g, size_t gsize)
{
    if (nb == 1) {
        const char *v = csvr_field(r, cb[0]);
        return v ? v : "-";
    }
    g[0] = 0;
    for (int b = 0, len = 0; b < nb && len < (int)gsize; b++) {
        const char *v = csvr_field(r, cb[b]); /* several columns: "k=1 task=a" */
        len += snprintf(g + len, gsize - (size_t)len, "%s%s=", b ? " " : "", csvr_colname(r, cb[b]));
        if (len < (int)gsize)
            len += snprintf(g + len, gsize - (size_t)len, "%s", v ? v : "-");
    }
    return g;
}

/* row_next: the next row's x, group and y values (has[k]: column k not
 * empty): 1; 0 at the end or when the reader stopped (csvr_status says).
 * Progress (--progress) counts the rows as `what`. */
static int row_next(csvr *r, const struct linebins_cols *c, double *x, char *g, size_t gsize, double *y,
                    int *has, const char *what)
{
    while (csvr_next(r) > 0) {
        csvr_progress(r, what);
        if (csvr_get_time(r, c->cx, x, CSVR_REQUIRED) < 0) {
            if (csvr_skip(r))
                continue;
            return 0;
        }
        const char *name = linebins_group(r, c->cb, c->nb, g, gsize);
        if (name != g) /* one column: its value, held as the caller's g */
            snprintf(g, gsize, "%s", name);
        int bad = 0;
        for (int k = 0; k < c->ny && !bad; k++) {
            int rc = csvr_get_double_hint(r, c->cy[k], &y[k], CSVR_BOUNDED, c->hint ? c->hint : "");
            bad = rc < 0;
            has[k] = rc > 0;
        }
        if (!bad)
            return 1;
        if (csvr_skip(r))
            continue;
        return 0;
    }
    return 0;
}

static struct acc *acc_of(struct reader *rd, long group, int k)
{
    size_t i = (size_t)group * (size_t)rd->c.ny + (size_t)k;
    if (i >= rd->nacc) {
        rd->acc = xgrow(rd->acc, &rd->cap, i + 1, sizeof *rd->acc);
        memset(rd->acc + rd->nacc, 0, (i + 1 - rd->nacc) * sizeof *rd->acc);
        rd->nacc = i + 1;
    }
    return &rd->acc[i];
}

static void reader_free(struct reader *rd)
{
    for (size_t i = 0; i < rd->nacc; i++) {
        free(rd->acc[i].steps.v);
        free(rd->acc[i].steps.c);
        free(rd->acc[i].out);
    }
    free(rd->acc);
    keyset_free(rd->groups);
}

static csvr *open_pass(const char *path, const struct csv_dialect *d, linebins_columns_fn columns_fn,
                       void *ctx, struct linebins_cols *c, int *st)
{
    csvr *r = csvr_open_with(path, d, 0, st);
    if (r && columns_fn(r, ctx, c) < 0) {
        csvr_close(r);
        *st = SLK_EDATA;
        return NULL;
    }
    return r;
}

static int nothing(csvr *r, const struct reader *rd, int st)
{
    if (!st && rd->points == 0) {
        if (rd->rows == 0)
            slk_error("%s: nothing to plot (no data row read)", csvr_path(r));
        else
            slk_error("%s: nothing to plot (%zu row%s, none with a value to draw)", csvr_path(r), rd->rows,
                      rd->rows == 1 ? "" : "s");
        st = SLK_EDATA;
    }
    return st;
}

/* scan_file: the first pass over r: each series' scan.  *unordered: a
 * series' x went back (the pass stops there). */
static int scan_file(csvr *r, struct reader *rd, int *unordered)
{
    char g[512];
    double x, y[LINEBINS_MAX_Y];
    int has[LINEBINS_MAX_Y] = {0};
    rd->rows = 0;
    while (row_next(r, &rd->c, &x, g, sizeof g, y, has, "rows (the first of two passes)")) {
        rd->rows++;
        long gi = keyset_find_grouped(rd->groups, g, &rd->last, 1);
        for (int k = 0; k < rd->c.ny; k++) {
            if (!has[k])
                continue;
            struct acc *a = acc_of(rd, gi, k);
            if (a->n && x < a->last) {
                *unordered = 1;
                return SLK_OK;
            }
            scan_point(a, x, y[k]);
            rd->points++;
        }
    }
    return nothing(r, rd, csvr_status(r));
}

/* One held point: its series, x, y and row (ties of x in input order). */
struct hpt {
    int s;
    unsigned seq;
    double x, y;
};

static int by_series_x(const void *p, const void *q)
{
    const struct hpt *a = p, *b = q;
    if (a->s != b->s)
        return (a->s > b->s) - (a->s < b->s);
    if (a->x != b->x)
        return (a->x > b->x) - (a->x < b->x);
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* hold_file: every point of r, sorted by series, x and row */
static int hold_file(csvr *r, struct reader *rd, struct hpt **pts, size_t *n)
{
    char g[512];
    double x, y[LINEBINS_MAX_Y];
    int has[LINEBINS_MAX_Y] = {0};
    size_t cap = 0;
    unsigned seq = 0;
    rd->rows = 0;
    while (row_next(r, &rd->c, &x, g, sizeof g, y, has, "rows")) {
        rd->rows++;
        long gi = keyset_find_grouped(rd->groups, g, &rd->last, 1);
        for (int k = 0; k < rd->c.ny; k++) {
            if (!has[k])
                continue;
            acc_of(rd, gi, k); /* the series exists */
            *pts = xgrow(*pts, &cap, *n + 1, sizeof **pts);
            (*pts)[(*n)++] = (struct hpt){(int)(gi * rd->c.ny + k), seq++, x, y[k]};
        }
    }
    rd->points = *n;
    if (*n)
        qsort(*pts, *n, sizeof **pts, by_series_x);
    return nothing(r, rd, csvr_status(r));
}

/* plan: after the scan, each series' gap, whether it is thinned or drawn,
 * each column's x range and folds, into out; the panels' columns into cols */
static void plan(struct reader *rd, int ncols, int panels, struct linebins *out, struct columns *cols)
{
    int ny = rd->c.ny, count[LINEBINS_MAX_Y] = {0};
    struct acc *first[LINEBINS_MAX_Y] = {0};
    out->x0 = INFINITY;
    for (int k = 0; k < ny; k++) {
        out->xlo[k] = INFINITY;
        out->xhi[k] = -INFINITY;
        out->folds[k] = 1;
    }
    for (size_t i = 0; i < rd->nacc; i++) {
        struct acc *a = &rd->acc[i];
        int k = (int)(i % (size_t)ny);
        if (!a->n)
            continue;
        double med = steps_median(&a->steps);
        a->gap = isnan(med) ? INFINITY : 3 * med;
        a->thin = ncols > 0 && a->n > (size_t)ncols;
        out->xlo[k] = fmin(out->xlo[k], a->xlo);
        out->xhi[k] = fmax(out->xhi[k], a->last);
        out->x0 = fmin(out->x0, a->xlo);
        if (count[k]++ == 0)
            first[k] = a;
        else if (a->n != first[k]->n || a->h1 != first[k]->h1 || a->h2 != first[k]->h2)
            out->folds[k] = 0;
    }
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < ny; k++) {
        out->folds[k] = out->folds[k] && count[k] > 1 && rd->c.nb && !panels && ny > 1;
        lo = fmin(lo, out->xlo[k]);
        hi = fmax(hi, out->xhi[k]);
    }
    for (int k = 0; k < ny; k++)
        cols[k] =
            panels ? (struct columns){out->xlo[k], out->xhi[k], ncols} : (struct columns){lo, hi, ncols};
    for (size_t i = 0; i < rd->nacc; i++) {
        int k = (int)(i % (size_t)ny);
        rd->acc[i].skip = rd->acc[i].n && out->folds[k] && &rd->acc[i] != first[k];
    }
}

/* thin_file: the second pass over r: each series thinned as it comes */
static int thin_file(csvr *r, struct reader *rd, const struct columns *cols)
{
    char g[512];
    double x, y[LINEBINS_MAX_Y];
    int has[LINEBINS_MAX_Y] = {0}, changed = 0;
    size_t points = 0;
    rd->last = -1;
    while (!changed && row_next(r, &rd->c, &x, g, sizeof g, y, has, "rows (the second of two passes)")) {
        long gi = keyset_find_grouped(rd->groups, g, &rd->last, 0);
        for (int k = 0; k < rd->c.ny && !changed; k++) {
            if (!has[k])
                continue;
            size_t i = (size_t)gi * (size_t)rd->c.ny + (size_t)k;
            struct acc *a = gi >= 0 && i < rd->nacc ? &rd->acc[i] : NULL;
            changed = !a || a->seen >= a->n || (a->seen && x < a->prev);
            if (changed)
                break;
            if (!a->skip)
                thin_point(a, &cols[k], x, y[k]);
            else { /* a folded column's later group: only counted */
                a->seen++;
                a->prev = x;
            }
            points++;
        }
    }
    int st = csvr_status(r);
    for (size_t i = 0; i < rd->nacc && !changed; i++)
        changed = rd->acc[i].seen != rd->acc[i].n;
    if (!st && (changed || points != rd->points)) {
        slk_error("%s: the file changed while it was read (skyplot reads it twice)", csvr_path(r));
        st = SLK_EDATA;
    }
    return st;
}

/* collect: the drawn series into out, by group, then y column */
static void collect(struct reader *rd, const csvr *r, struct linebins *out)
{
    int ny = rd->c.ny;
    out->ny = ny;
    out->nb = rd->c.nb;
    for (int k = 0; k < ny; k++)
        out->ynames[k] = xstrdup(csvr_colname(r, rd->c.cy[k]));
    out->ngroups = keyset_size(rd->groups);
    out->groups = xcalloc(out->ngroups + 1, sizeof *out->groups);
    for (size_t gi = 0; gi < out->ngroups; gi++)
        out->groups[gi] = xstrdup(keyset_key(rd->groups, (long)gi));
    out->s = xcalloc(rd->nacc + 1, sizeof *out->s);
    for (size_t i = 0; i < rd->nacc; i++) {
        struct acc *a = &rd->acc[i];
        if (!a->n || a->skip)
            continue;
        flush(a);
        out->s[out->ns++] =
            (struct linebins_series){(int)(i / (size_t)ny), (int)(i % (size_t)ny), a->out, a->nout};
        a->out = NULL;
    }
    out->points = rd->points;
}

int linebins_read(const char *path, const struct csv_dialect *d, linebins_columns_fn columns_fn, void *ctx,
                  int ncols, int panels, struct linebins *out)
{
    memset(out, 0, sizeof *out);
    if (!d)
        d = &csv_dialect_plain;
    struct columns cols[LINEBINS_MAX_Y] = {{0, 0, 0}};
    struct reader rd = {.groups = keyset_new(), .last = -1};
    int st = SLK_OK, unordered = 0, held = 1;
    struct csv_quiet quiet;
    if (csv_path_rereadable(path) && csv_quiet_open(&quiet, d) == 0) {
        csvr *r = open_pass(path, &quiet.d, columns_fn, ctx, &rd.c, &st);
        if (r) {
            st = scan_file(r, &rd, &unordered);
            csvr_close(r);
        }
        csv_quiet_close(&quiet);
        held = unordered;
        if (!st && !unordered) {
            plan(&rd, ncols, panels, out, cols);
            r = open_pass(path, d, columns_fn, ctx, &rd.c, &st);
            if (r) {
                st = thin_file(r, &rd, cols);
                if (!st)
                    collect(&rd, r, out);
                csvr_close(r);
            }
        }
    }
    if (!st && held) {
        reader_free(&rd);
        rd = (struct reader){.groups = keyset_new(), .last = -1};
        csvr *r = open_pass(path, d, columns_fn, ctx, &rd.c, &st);
        if (r) {
            struct hpt *pts = NULL;
            size_t n = 0;
            st = hold_file(r, &rd, &pts, &n);
            if (!st) {
                for (size_t i = 0; i < n; i++)
                    scan_point(&rd.acc[pts[i].s], pts[i].x, pts[i].y);
                plan(&rd, ncols, panels, out, cols);
                for (size_t i = 0; i < n; i++) {
                    struct acc *a = &rd.acc[pts[i].s];
                    if (!a->skip)
                        thin_point(a, &cols[pts[i].s % rd.c.ny], pts[i].x, pts[i].y);
                }
                collect(&rd, r, out);
                out->held = 1;
            }
            free(pts);
            csvr_close(r);
        }
    }
    reader_free(&rd);
    slk_progress_done();
    if (st)
        linebins_free(out);
    return st;
}

void linebins_free(struct linebins *b)
{
    for (size_t i = 0; i < b->ngroups; i++)
        free(b->groups[i]);
    free(b->groups);
    for (int k = 0; k < b->ny; k++)
        free(b->ynames[k]);
    for (size_t i = 0; i < b->ns; i++)
        free(b->s[i].pts);
    free(b->s);
    memset(b, 0, sizeof *b);
}
