/* charts — skyplot's charts built from the toolkit's CSV files (see charts.h). */
#include "plot/charts.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/keyset.h"
#include "base/keytab.h"
#include "base/stats.h"
#include "plot/linebins.h"
#include "plot/runband.h"
#include "plot/tenantbins.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const chart_input_keys[] = {"job",  "run", "t",    "containers",   "kind", "tenant",
                                        "util", "day", "load", "mean_stretch", "vc",   NULL};
const char *const chart_fit_keys[] = {"job", "offset", "alloc", "step", "kind", NULL};
const char *const chart_load_keys[] = {"t", "cost", "kind", NULL};
const char *const chart_classes_keys[] = {"tenant", "class", NULL};

/* tenants: at most about this many time bins across the chart */
#define CHART_BINS 500
/* tenants: past this many classes, one panel per pattern (2 to
 * CHART_PATTERN_PANELS patterns), as tenantclass names them; a panel of
 * more classes is cut in panels of at most this many, when that makes no
 * more than CHART_CLASS_PANELS panels in all */
#define CHART_PANEL_CLASSES 8
#define CHART_PATTERN_PANELS 6
#define CHART_CLASS_PANELS 8

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* by_area: group indices by area, largest first, ties in order of appearance
 * (what a stable sort by area gives) */
static int by_area(const void *a, const void *b, void *ctx)
{
    const double *area = ctx;
    int i = *(const int *)a, j = *(const int *)b;
    if (area[i] != area[j])
        return area[i] > area[j] ? -1 : 1;
    return (i > j) - (i < j);
}

/* ---- a string -> index table (names of jobs, runs, classes, tenants) ---- */
struct names {
    char **v;
    size_t n, cap;
    keyset *ks;  /* name -> index (hashed: a plan can hold 100,000 jobs) */
};

static int name_index(struct names *t, const char *s)
{
    if (t->n && strcmp(t->v[t->n - 1], s) == 0) /* inputs are grouped: the last name first */
        return (int)t->n - 1;
    if (!t->ks)
        t->ks = keyset_new();
    int added;
    long k = keyset_intern(t->ks, s, &added);
    if (!added)
        return (int)k;
    t->v = xgrow(t->v, &t->cap, t->n + 1, sizeof *t->v);
    t->v[t->n] = xstrdup(s);
    return (int)t->n++;
}

static void names_free(struct names *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i]);
    free(t->v);
    keyset_free(t->ks);
}

struct pt {
    int g;      /* group (run, job, class, ...) */
    double x, y;
};

static int cmp_pt(const void *a, const void *b)
{
    const struct pt *p = a, *q = b;
    if (p->g != q->g)
        return p->g - q->g;
    return (p->x > q->x) - (p->x < q->x);
}

/* split_names: the first max names of the comma-separated list (cut in
 * place; NULL: none) into names[*n..]; returns how many it put there */
static int split_names(char *list, const char **names, int *n, int max)
{
    char *save = NULL;
    int k = 0;
    for (char *t = list ? strtok_r(list, ",", &save) : NULL; t && k < max; t = strtok_r(NULL, ",", &save))
        names[(*n)++] = t, k++;
    return k;
}

/* Read (group, x, y) triples from a CSV; gcols, the group's columns, a
 * comma-separated list (NULL: none; a group is named by linebins_group; at
 * most CHART_MAX_BY, the caller checks).  With wcol set and in the input,
 * *w gets its value in the rows read (the step of a skyline: one per job).
 * Returns status. */
static int read_points(const char *path, const struct csv_dialect *d, const char *gcols, const char *xcol,
                       const char *ycol, const char *only_col, const char **only_val, struct names *groups,
                       struct pt **pts, size_t *npts, const char *wcol, double *w)
{
    int st;
    char *glist = gcols ? xstrdup(gcols) : NULL;
    /* every missing column in one line, the key first (job, run, t, containers) */
    const char *want[3 + LINEBINS_MAX_BY];
    int wc[3 + LINEBINS_MAX_BY], nw = 0;
    if (only_col)
        want[nw++] = only_col;
    int ng = split_names(glist, want, &nw, LINEBINS_MAX_BY);
    want[nw++] = xcol;
    want[nw++] = ycol;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r) {
        free(glist);
        return st;
    }
    int bad = csvr_require_list(r, want, wc, nw) < 0;
    free(glist);
    int k = 0, co = only_col ? wc[k++] : -1;
    int cg[LINEBINS_MAX_BY];
    for (int b = 0; b < ng; b++)
        cg[b] = wc[k++];
    int cx = wc[k++];
    int cy = wc[k++];
    int ck = csvr_col(r, "kind"); /* a slokit plan: skip its trailer row (kind "end") */
    int cw = wcol ? csvr_col(r, wcol) : -1;
    if (bad) {
        csvr_close(r);
        return SLK_EDATA;
    }
    char gbuf[512];
    size_t cap = 0;
    int xoff = strcmp(xcol, "offset") == 0;
    while (csvr_next(r) > 0) {
        csvr_progress(r, "rows");
        const char *kind = ck >= 0 ? csvr_field(r, ck) : NULL;
        if (kind && strcmp(kind, "end") == 0)
            continue;
        if (co >= 0) {
            const char *v = csvr_field(r, co);
            if (!v)
                continue;
            if (!*only_val)
                *only_val = xstrdup(v);
            else if (strcmp(v, *only_val) != 0)
                continue;
        }
        double x, y;
        /* every y read here is a quantity (containers, alloc, cost, util);
         * x is a time, or a skyline's offset, read as lcmpack reads it */
        int xbad = xoff ? csvr_get_double(r, cx, &x, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0
                        : csvr_get_time(r, cx, &x, CSVR_REQUIRED) < 0;
        if (xbad || csvr_get_double(r, cy, &y, CSVR_BOUNDED | CSVR_NONNEG) < 0 ||
            (cw >= 0 && csvr_get_duration(r, cw, w, CSVR_POSITIVE | CSVR_BOUNDED) < 0)) {
            if (csvr_skip(r))
                continue;
            break;
        }
        const char *g = linebins_group(r, cg, ng, gbuf, sizeof gbuf);
        *pts = xgrow(*pts, &cap, *npts + 1, sizeof **pts);
        (*pts)[(*npts)++] = (struct pt){name_index(groups, g), x, y};
    }
    st = csvr_status(r);
    csvr_close(r);
    slk_progress_done();
    if (*npts)
        qsort(*pts, *npts, sizeof **pts, cmp_pt);
    return st;
}

/* ---- time axes -------------------------------------------------------------
 * Every chart's x axis of times follows one rule: times after 2001 (above
 * EPOCH_MIN seconds) are epoch times, drawn as UTC dates; smaller ones are
 * offsets from a time 0 (a trace's first sample, a plan's LCM, a
 * simulation's start), drawn as numbers in a unit the axis title names. */
#define EPOCH_MIN 1e9

/* the smallest x of pts[0..n) (sorted by group, then x) */
static double first_x(const struct pt *pts, size_t n)
{
    double x0 = INFINITY;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || pts[i].g != pts[i - 1].g)
            x0 = fmin(x0, pts[i].x);
    return x0;
}

static int is_epoch(double x0) { return x0 > EPOCH_MIN; }

/* time_panel: a new panel whose x axis is times starting at x0: dates
 * titled `dates` for epoch times, else offsets titled `offsets`, to be
 * drawn times `scale` (1/3600: hours).  Returns the scale the chart's
 * x values are drawn with (1 for dates). */
static double time_panel(plot *p, double x0, const char *dates, const char *offsets, double scale,
                         const char *ylabel)
{
    int epoch = is_epoch(x0);
    plot_panel(p, epoch ? dates : offsets, ylabel, epoch ? PLOT_X_EPOCH : PLOT_X_NUMBER);
    return epoch ? 1 : scale;
}

/* the usage sample step: the most common gap between a run's samples, or
 * `otherwise` when no run has two */
static double sample_step(const struct pt *pts, size_t n, double otherwise)
{
    double *d = xmalloc((n + 1) * sizeof *d);
    size_t m = 0;
    for (size_t i = 1; i < n; i++)
        if (pts[i].g == pts[i - 1].g && pts[i].x > pts[i - 1].x)
            d[m++] = pts[i].x - pts[i - 1].x;
    double step = m ? stats_median(d, m) : otherwise;
    free(d);
    return step;
}

/* Many runs: a 10-90% band and the median per step (the runs' sample step,
 * else `step`: runs of one sample each), plus the latest nnamed runs by
 * name; few runs: every run by name. */
static void draw_runs(plot *p, const struct names *runs, const struct pt *pts, size_t n, int nnamed,
                      double step)
{
    size_t nr = runs->n, *cnt = xcalloc(nr, sizeof *cnt), *first = xcalloc(nr, sizeof *first);
    double **x = xcalloc(nr, sizeof *x), **y = xcalloc(nr, sizeof *y);
    for (size_t i = n; i-- > 0;) {
        first[pts[i].g] = i;
        cnt[pts[i].g]++;
    }
    for (size_t r = 0; r < nr; r++) {
        x[r] = xcalloc(cnt[r] + 1, sizeof **x);
        y[r] = xcalloc(cnt[r] + 1, sizeof **y);
        for (size_t k = 0; k < cnt[r]; k++) {
            x[r][k] = pts[first[r] + k].x - pts[first[r]].x;
            y[r][k] = pts[first[r] + k].y;
        }
    }
    struct runband b;
    if (nr > (size_t)nnamed && runband_compute(nr, cnt, x, y, sample_step(pts, n, step), 10, 90, &b) == 0) {
        char name[96];
        snprintf(name, sizeof name, "10-90%% of %zu runs", nr);
        int sb = plot_series(p, name, PLOT_SHADE);
        snprintf(name, sizeof name, "median of %zu runs", nr);
        int sm = plot_series(p, name, PLOT_BOLD);
        for (size_t k = 0; k < b.nbins; k++)
            for (int e = 0; e < 2; e++) { /* each step held for its whole width */
                double t = (double)(k + (size_t)e) * b.width / 60.0;
                plot_band(p, sb, t, b.lo[k], b.hi[k]);
                plot_point(p, sm, t, b.mid[k]);
            }
        runband_free(&b);
    }
    /* the named runs: the latest nnamed by start time (all when few), i.e.
     * those starting no earlier than the nnamed-th latest start */
    double cut = -INFINITY;
    if (nnamed <= 0)
        cut = INFINITY;
    else if (nr > (size_t)nnamed) {
        double *start = xmalloc(nr * sizeof *start);
        for (size_t r = 0; r < nr; r++)
            start[r] = pts[first[r]].x;
        qsort(start, nr, sizeof *start, cmp_double);
        cut = start[nr - (size_t)nnamed];
        free(start);
    }
    for (size_t r = 0; r < nr; r++) {
        if (!(pts[first[r]].x >= cut))
            continue;
        char name[256];
        snprintf(name, sizeof name, "run %s", runs->v[r]);
        int s = plot_series(p, name, PLOT_LINES);
        plot_rank(p, s, pts[first[r]].x); /* a key too short for them names the latest */
        for (size_t k = 0; k < cnt[r]; k++)
            plot_point(p, s, x[r][k] / 60.0, y[r][k]);
    }
    for (size_t r = 0; r < nr; r++) {
        free(x[r]);
        free(y[r]);
    }
    free(x);
    free(y);
    free(cnt);
    free(first);
}

int chart_skyline(plot *p, const struct chart_opts *o)
{
    struct names runs = {0}, dummy = {0};
    struct pt *pts = NULL, *f = NULL;
    size_t n = 0, nf = 0;
    const char *job = o->job, *fj = NULL;
    double stepc = 0; /* skyfit's step column, when it has one */
    int st =
        read_points(o->input, o->d_input, "run", "t", "containers", "job", &job, &runs, &pts, &n, NULL, NULL);
    if (st)
        goto out;
    if (n == 0) {
        slk_error("%s: no usage rows%s%s", o->input ? o->input : "<stdin>", job ? " for job " : "", job ? job : "");
        st = SLK_EDATA;
        goto out;
    }
    /* the fit first: its step is the band's when every run has one sample */
    fj = job;
    if (o->fit)
        st = read_points(o->fit, o->d_fit, NULL, "offset", "alloc", "job", &fj, &dummy, &f, &nf, "step",
                         &stepc);
    if (st)
        goto out;
    /* the fit's step: its step column, else the offsets' spacing, else 60 s
     * (skyfit's default step) */
    double fstep = stepc > 0 ? stepc : nf > 1 ? f[nf - 1].x - f[nf - 2].x : 60;
    plot_panel(p, "minutes since run start", "containers", PLOT_X_NUMBER);
    draw_runs(p, &runs, pts, n, o->runs, fstep);
    if (o->fit) {
        char fname[300];
        snprintf(fname, sizeof fname, "%s fitted skyline", job);
        int s = plot_series(p, fname, PLOT_STEPS);
        for (size_t i = 0; i < nf; i++)
            plot_point(p, s, f[i].x / 60.0, f[i].y);
        if (nf) /* the last step held for its whole step */
            plot_point(p, s, (f[nf - 1].x + fstep) / 60.0, f[nf - 1].y);
        if (nf == 0 && !o->quiet)
            slk_error("warning: %s has no skyline for job %s", o->fit, job);
    }
out:
    if (fj && fj != job)
        free((char *)fj);
    names_free(&dummy);
    free(f);
    if (job != o->job)
        free((char *)job);
    names_free(&runs);
    free(pts);
    return st;
}

/* Stack per-group step functions: groups ranked by area, the top N drawn as
 * bands and the rest summed as "other (M more)", M the groups it holds. */
static void stack_bands(plot *p, struct names *groups, struct pt *pts, size_t n, int top, double scale)
{
    size_t ng = groups->n;
    double *area = xcalloc(ng, sizeof *area);
    double *xs = xmalloc((n + 1) * sizeof *xs);
    for (size_t i = 0; i < n; i++) {
        area[pts[i].g] += pts[i].y;
        xs[i] = pts[i].x;
    }
    qsort(xs, n, sizeof *xs, cmp_double);
    size_t nx = 0;
    for (size_t i = 0; i < n; i++)
        if (nx == 0 || xs[i] != xs[nx - 1])
            xs[nx++] = xs[i];
    double stepw = nx > 1 ? xs[1] - xs[0] : 60;
    for (size_t i = 2; i < nx; i++)
        if (xs[i] - xs[i - 1] < stepw)
            stepw = xs[i] - xs[i - 1];
    /* rank groups by area (ties by name order of appearance) */
    int *rank = xmalloc(ng * sizeof *rank), *order = xmalloc(ng * sizeof *order);
    for (size_t i = 0; i < ng; i++)
        order[i] = (int)i;
    qsort_r(order, ng, sizeof *order, by_area, area);
    int nb = (int)ng > top ? top + 1 : (int)ng;
    for (size_t i = 0; i < ng; i++)
        rank[order[i]] = (int)i < top ? (int)i : top;
    /* value[band][x] */
    double *val = xcalloc((size_t)nb * nx, sizeof *val);
    for (size_t i = 0; i < n; i++) {
        double *pos = bsearch(&pts[i].x, xs, nx, sizeof *xs, cmp_double);
        val[(size_t)rank[pts[i].g] * nx + (size_t)(pos - xs)] += pts[i].y;
    }
    double *cum = xcalloc(nx, sizeof *cum);
    char rest[64];
    snprintf(rest, sizeof rest, "other (%zu more)", ng - (size_t)(nb - 1));
    for (int b = 0; b < nb; b++) {
        int s = b < top ? plot_series(p, groups->v[order[b]], PLOT_BAND) : plot_series(p, rest, PLOT_REST);
        for (size_t k = 0; k < nx; k++) {
            double lo = cum[k], hi = cum[k] + val[(size_t)b * nx + k];
            double xend = (k + 1 < nx && xs[k + 1] - xs[k] <= stepw * 1.001) ? xs[k + 1] : xs[k] + stepw;
            plot_band(p, s, xs[k] * scale, lo, hi);
            plot_band(p, s, xend * scale, lo, hi);
            if (k + 1 < nx && xs[k + 1] > xend) { /* a gap: drop to the stack below */
                plot_band(p, s, xend * scale, lo, lo);
                plot_band(p, s, xs[k + 1] * scale, lo, lo);
            }
            cum[k] = hi;
        }
    }
    free(cum);
    free(val);
    free(rank);
    free(order);
    free(xs);
    free(area);
}

int chart_plan(plot *p, const struct chart_opts *o)
{
    struct names jobs = {0};
    struct pt *pts = NULL;
    size_t n = 0;
    int st = read_points(o->input, o->d_input, o->by ? o->by : "job", "t", "containers", NULL, NULL, &jobs,
                         &pts, &n, NULL, NULL);
    if (!st && n == 0) {
        slk_error("%s: the plan has no reservations", o->input ? o->input : "<stdin>");
        st = SLK_EDATA;
    }
    if (!st) {
        double x0 = first_x(pts, n);
        double scale =
            time_panel(p, x0, "time (UTC)", "hours into the plan", 1.0 / 3600, "reserved containers");
        stack_bands(p, &jobs, pts, n, o->top, scale);
        if (o->load) {
            struct names g = {0};
            struct pt *lp = NULL;
            size_t nl = 0;
            st = read_points(o->load, o->d_load, NULL, "t", "cost", NULL, NULL, &g, &lp, &nl, NULL, NULL);
            if (!st) {
                time_panel(p, x0, "time (UTC)", "hours into the plan", 1.0 / 3600,
                           "cost = max(load/capacity)");
                int s = plot_series(p, "cost", PLOT_BOLD), c = plot_series(p, "capacity", PLOT_LINES);
                for (size_t i = 0; i < nl; i++) {
                    plot_point(p, s, lp[i].x * scale, lp[i].y);
                    plot_point(p, c, lp[i].x * scale, 1.0);
                }
            }
            names_free(&g);
            free(lp);
        }
    }
    names_free(&jobs);
    free(pts);
    return st;
}

/* the tenant -> class table of --classes: cls[i] is the class (index into
 * classes) of tenant tenants->v[i] */
static int read_classes(const struct chart_opts *o, struct names *tenants, struct names *classes,
                        int **cls)
{
    int st;
    csvr *c = csvr_open_with(o->classes, o->d_classes, 0, &st);
    if (!c)
        return st;
    int ct, cc;
    if (csvr_require_cols(c, "tenant", &ct, "class", &cc, (char *)NULL) < 0) {
        csvr_close(c);
        return SLK_EDATA;
    }
    size_t ccap = 0;
    keyset *seen = keyset_new();
    while (csvr_next(c) > 0) {
        /* the one rule for keyed side tables (base/keytab): a class is
         * required, a tenant's second row an error, its first row kept */
        const char *k = csvr_field_required(c, cc, NULL), *t = NULL;
        if (k)
            t = keytab_row(seen, c, ct);
        if (!t) {
            if (csvr_skip(c))
                continue;
            break;
        }
        size_t ti = (size_t)name_index(tenants, t);
        *cls = xgrow(*cls, &ccap, ti + 1, sizeof **cls);
        (*cls)[ti] = name_index(classes, k);
    }
    keyset_free(seen);
    st = csvr_status(c);
    csvr_close(c);
    return st;
}

/* by_name: class indices in the natural order of their names (strverscmp:
 * "constant-2" before "constant-10", "2" before "10") */
static int by_name(const void *a, const void *b, void *ctx)
{
    char *const *v = ctx;
    return strverscmp(v[*(const int *)a], v[*(const int *)b]);
}

/* classes_in_order: renumber the classes of cls[0..ntenants) by their names'
 * natural order, so that the key (and the colours) do not depend on the
 * order of the tenants in --classes; classes->v is reordered to match
 * (classes->ks is left stale: nothing looks a class up after this). */
static void classes_in_order(struct names *classes, int *cls, size_t ntenants)
{
    size_t n = classes->n;
    if (n == 0) /* no class: nothing to order (classes->v may be NULL) */
        return;
    int *order = xmalloc((n + 1) * sizeof *order), *rank = xmalloc((n + 1) * sizeof *rank);
    char **v = xmalloc((n + 1) * sizeof *v);
    for (size_t i = 0; i < n; i++)
        order[i] = (int)i;
    qsort_r(order, n, sizeof *order, by_name, classes->v);
    for (size_t i = 0; i < n; i++) {
        rank[order[i]] = (int)i;
        v[i] = classes->v[order[i]];
    }
    memcpy(classes->v, v, n * sizeof *v);
    for (size_t t = 0; t < ntenants; t++)
        cls[t] = rank[cls[t]];
    free(v);
    free(rank);
    free(order);
}

/* Points sorted by (tenant, t) -> one point per (class, time bin): each
 * tenant's mean over a bin of width w from t0, tagged with its class
 * (tenants without a class dropped); sorted by (class, bin).  Returns the
 * count; every tenant (name[g]) is counted into out (tenantbins_count). */
static size_t class_bins(struct pt *pts, size_t n, const int *tclass, char *const *name, double t0, double w,
                         struct tenantbins *out)
{
    size_t m = 0;
    int last = -1; /* the previous tenant (pts[] below i is overwritten) */
    for (size_t i = 0; i < n;) {
        int g = pts[i].g, c = tclass[g];
        if (g != last)
            tenantbins_count(out, c, name[g]);
        last = g;
        double b = t0 + floor((pts[i].x - t0) / w) * w, sum = 0;
        size_t j = i;
        for (; j < n && pts[j].g == g && t0 + floor((pts[j].x - t0) / w) * w == b; j++)
            sum += pts[j].y;
        if (c >= 0)
            pts[m++] = (struct pt){c, b, sum / (double)(j - i)};
        i = j;
    }
    if (m)
        qsort(pts, m, sizeof *pts, cmp_pt);
    return m;
}

/* One class's bins [i, j) (sorted by time): per bin the 10th, 50th and 90th
 * percentiles over its tenants, drawn as a band and its median line; the pen
 * is lifted where more than 3 bins are missing (as linebins does for a line). */
static void draw_class(plot *p, const char *name, const struct tenantbins_pt *pts, size_t i, size_t j,
                       double w, double scale)
{
    int s = plot_series(p, name, PLOT_RANGE);
    double *v = xmalloc((j - i + 1) * sizeof *v);
    for (size_t a = i, b; a < j; a = b) {
        size_t k = 0;
        for (b = a; b < j && pts[b].bin == pts[a].bin; b++)
            v[k++] = pts[b].mean;
        stats_sort(v, k);
        if (a > i && pts[a].bin - pts[a - 1].bin > 3 * w)
            plot_break(p, s);
        plot_range(p, s, pts[a].bin * scale, stats_percentile_sorted(v, k, 10),
                   stats_percentile_sorted(v, k, 50), stats_percentile_sorted(v, k, 90));
    }
    free(v);
}

/* The --classes table for tenantbins: a tenant's class, or -1. */
struct class_table {
    const struct names *tenants;
    const int *cls;
};

static int class_lookup(const char *tenant, void *ctx)
{
    const struct class_table *c = ctx;
    long k = c->tenants->ks ? keyset_row(c->tenants->ks, tenant) : -1;
    return k >= 0 ? c->cls[k] : -1;
}

/* held_bins: tenantbins_read's result for an input it cannot read twice
 * (standard input, a pipe) or whose tenants' times go back: every row held
 * and sorted, then binned by the same rule. */
static int held_bins(const struct chart_opts *o, const struct class_table *ct, size_t nclasses,
                     struct tenantbins *out)
{
    struct names seen = {0};
    struct pt *pts = NULL;
    size_t n = 0;
    int st =
        read_points(o->input, o->d_input, "tenant", "t", "util", NULL, NULL, &seen, &pts, &n, NULL, NULL);
    if (!st && n && seen.v) { /* (every point's tenant is in seen) */
        /* each tenant of the series -> its class (-1: not in --classes) */
        int *tclass = xmalloc(seen.n * sizeof *tclass);
        for (size_t g = 0; g < seen.n; g++)
            tclass[g] = class_lookup(seen.v[g], (void *)ct);
        double t0 = INFINITY, t1 = -INFINITY, w = sample_step(pts, n, 60);
        for (size_t i = 0; i < n; i++) {
            t0 = fmin(t0, pts[i].x);
            t1 = fmax(t1, pts[i].x);
        }
        if ((t1 - t0) / CHART_BINS > w) /* a long span: coarser bins, a readable line */
            w = (t1 - t0) / CHART_BINS;
        out->rows = n;
        out->t0 = t0;
        out->w = w;
        out->ntenants = xcalloc(nclasses + 1, sizeof *out->ntenants);
        out->n = class_bins(pts, n, tclass, seen.v, t0, w, out);
        out->pts = xmalloc((out->n + 1) * sizeof *out->pts);
        for (size_t i = 0; i < out->n; i++)
            out->pts[i] = (struct tenantbins_pt){pts[i].g, pts[i].x, pts[i].y};
        free(tclass);
    }
    names_free(&seen);
    free(pts);
    return st;
}

/* pattern_len: the length of a class name's pattern: the name without a
 * final "-N" (tenantclass's "periodic-3" is of pattern "periodic"), else the
 * whole name */
static size_t pattern_len(const char *name)
{
    size_t n = strlen(name), i = n;
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        i--;
    return i < n && i > 1 && name[i - 1] == '-' ? i - 1 : n;
}

/* One panel of the tenants chart: its classes are the from-th to the
 * to-th (from 1) of the `of` classes of its group (a pattern, or all), of
 * == 0 when the group is not cut; `first` is its first class, whose name's
 * first `len` characters are the group's pattern (0: the group has none). */
struct class_panel {
    size_t first, len;
    size_t from, to, of;
};

/* same_pattern: the classes' pattern length when all n share one, else 0 */
static size_t same_pattern(char *const *name, size_t n)
{
    size_t len = pattern_len(name[0]);
    for (size_t c = 1; c < n; c++)
        if (pattern_len(name[c]) != len || memcmp(name[c], name[0], len) != 0)
            return 0;
    return len;
}

/* class_panels: panel[c] for each of the n classes (in their order) and
 * the panels into cp (at most CHART_CLASS_PANELS); returns their number.
 * Groups: one per pattern, in order of first appearance, when there are
 * more than CHART_PANEL_CLASSES classes of 2 to CHART_PATTERN_PANELS
 * patterns, else one of all.  A group of more than CHART_PANEL_CLASSES
 * classes is cut, in order, into ceil(m / CHART_PANEL_CLASSES) panels of
 * sizes differing by at most one, unless that makes more than
 * CHART_CLASS_PANELS panels in all (then no group is cut). */
static int class_panels(char *const *name, size_t n, int *panel, struct class_panel *cp)
{
    int *grp = xmalloc((n + 1) * sizeof *grp), ng = 0;
    size_t gfirst[CHART_PATTERN_PANELS + 1] = {0}, m[CHART_PATTERN_PANELS + 1] = {0};
    for (size_t c = 0; c < n && ng <= CHART_PATTERN_PANELS; c++) {
        size_t len = pattern_len(name[c]);
        int k = 0;
        while (k < ng && !(pattern_len(name[gfirst[k]]) == len && memcmp(name[gfirst[k]], name[c], len) == 0))
            k++;
        if (k == ng && ng++ < CHART_PATTERN_PANELS)
            gfirst[k] = c;
        grp[c] = k;
    }
    if (!(n > CHART_PANEL_CLASSES && ng >= 2 && ng <= CHART_PATTERN_PANELS)) {
        ng = 1;
        gfirst[0] = 0;
        for (size_t c = 0; c < n; c++)
            grp[c] = 0;
    }
    for (size_t c = 0; c < n; c++)
        m[grp[c]]++;
    size_t q[CHART_PATTERN_PANELS + 1] = {0}, base[CHART_PATTERN_PANELS + 1] = {0}, total = 0;
    for (int k = 0; k < ng; k++)
        total += q[k] = (m[k] + CHART_PANEL_CLASSES - 1) / CHART_PANEL_CLASSES;
    for (int k = 0; k < ng && total > CHART_CLASS_PANELS; k++)
        q[k] = 1; /* too many panels: no group is cut */
    total = 0;
    for (int k = 0; k < ng; k++) {
        base[k] = total;
        total += q[k];
    }
    size_t seen[CHART_PATTERN_PANELS + 1] = {0};
    for (size_t c = 0; c < n; c++) {
        int k = grp[c];
        size_t r = seen[k]++, id = base[k] + r * q[k] / m[k];
        panel[c] = (int)id;
        if (r == 0 || id != base[k] + (r - 1) * q[k] / m[k])
            cp[id] = (struct class_panel){c, ng > 1 ? pattern_len(name[gfirst[k]]) : same_pattern(name, n),
                                          r + 1, r + 1, q[k] > 1 ? m[k] : 0};
        cp[id].to = r + 1;
    }
    free(grp);
    return total ? (int)total : 1;
}

/* draw_classes: the classes' bands, one panel per pattern, cut in panels
 * of at most CHART_PANEL_CLASSES classes (class_panels) */
static void draw_classes(plot *p, const struct tenantbins *tb, char *const *classes, size_t nclasses)
{
    int *panel = xmalloc((nclasses + 1) * sizeof *panel);
    struct class_panel cp[CHART_CLASS_PANELS] = {{0, 0, 0, 0, 0}};
    /* no class at all: one empty panel (no point has a class to draw) */
    int np = classes && nclasses ? class_panels(classes, nclasses, panel, cp) : 1;
    for (int k = 0; k < np; k++) {
        char ytitle[300], part[64] = "";
        if (cp[k].of)
            snprintf(part, sizeof part, " %zu-%zu", cp[k].from, cp[k].to);
        if (np > 1) /* a cut panel's title is longer: its band said shorter, to fit its height */
            snprintf(ytitle, sizeof ytitle, "utilization, %.*s%sclasses%s (median, 10-90%%%s)",
                     (int)cp[k].len, classes[cp[k].first], cp[k].len ? " " : "", part,
                     cp[k].of ? "" : " of tenants");
        double scale = time_panel(p, tb->t0, "time (UTC)", "hours since time 0", 1.0 / 3600,
                                  np > 1 ? ytitle : "utilization (per class: median, 10-90% of its tenants)");
        for (size_t i = 0, j; classes && i < tb->n; i = j) {
            for (j = i; j < tb->n && tb->pts[j].cls == tb->pts[i].cls; j++)
                ;
            if (panel[tb->pts[i].cls] != k)
                continue;
            char name[300];
            size_t nt = tb->ntenants[tb->pts[i].cls];
            snprintf(name, sizeof name, "class %s (%zu tenant%s)", classes[tb->pts[i].cls], nt,
                     nt == 1 ? "" : "s");
            draw_class(p, name, tb->pts, i, j, tb->w, scale);
        }
    }
    free(panel);
}

int chart_tenants(plot *p, const struct chart_opts *o)
{
    if (!o->classes) {
        slk_error("tenants: --classes FILE (tenantclass output) is required");
        return SLK_EUSAGE;
    }
    struct names tenants = {0}, classes = {0};
    int *cls = NULL;
    struct tenantbins tb = {0};
    int st = read_classes(o, &tenants, &classes, &cls);
    struct class_table ct = {&tenants, cls};
    if (!st) {
        classes_in_order(&classes, cls, tenants.n);
        /* binned while read (two passes over a file), else held */
        st = tenantbins_read(o->input, o->d_input, class_lookup, &ct, classes.n, CHART_BINS, &tb);
        if (st == TENANTBINS_HELD)
            st = held_bins(o, &ct, classes.n, &tb);
    }
    const char *in = csv_path_name(o->input);
    if (!st && tb.rows == 0) {
        slk_error("%s: no utilization rows", in);
        st = SLK_EDATA;
    }
    /* tenants the chart cannot draw: all of them an error (an empty chart
     * is no answer), some a warning (new tenants since the classes) */
    const char *first = tb.first_unclassed ? tb.first_unclassed : "";
    if (!st && tb.unclassed == tb.tenants) {
        if (tb.tenants == 1)
            slk_error("%s: its one tenant, '%s', is not in %s: nothing to draw", in, first, o->classes);
        else
            slk_error("%s: none of its %zu tenants is in %s (the first: '%s'): nothing to draw", in,
                      tb.tenants, o->classes, first);
        st = SLK_EDATA;
    } else if (!st && tb.unclassed && !slk_quiet()) {
        int one = tb.unclassed == 1;
        slk_warn_at(in, 0, "%zu of its %zu tenants %s not in %s and %s not drawn (the first: '%s')",
                    tb.unclassed, tb.tenants, one ? "is" : "are", o->classes, one ? "is" : "are", first);
    }
    if (!st)
        draw_classes(p, &tb, classes.v, classes.n);
    tenantbins_free(&tb);
    free(cls);
    names_free(&tenants);
    names_free(&classes);
    return st;
}

static int in_list(int i, const int *v, int n)
{
    for (int k = 0; k < n; k++)
        if (v[k] == i)
            return 1;
    return 0;
}

/* What a chart knows of its input's columns, for what --by and --y leave
 * out: the memory chart knows peakgate's files. */
struct lines_defaults {
    const char *const *keys; /* series keys, those the input has, in this order (at most 4) */
    const char *ysuffix;     /* y: the columns named so, when the input has any */
    const char *ylabel;      /* the y title of a panel of columns all named *ysuffix */
    int yzero;               /* y axes from 0: quantities whose heights are compared */
    int words;               /* y titles as words: mean_stretch -> "mean stretch" */
};

/* peakgate --node-series (policy,k,t,used_mb,bound_mb,node_mb,paused) and
 * --series (policy,k,t,task,mem_mb,state): a run is (policy, k), a task's
 * line (policy, k, task); the memory is in the _mb columns (paused counts
 * tasks, state is a word) */
const char *const chart_memory_keys[] = {"policy", "k", "task", NULL};
static const struct lines_defaults memory_defaults = {chart_memory_keys, "_mb", "memory (MB)", 1, 0};
/* stretch --daily: a panel per column, each titled by it */
static const struct lines_defaults vcs_defaults = {NULL, NULL, NULL, 0, 1};

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* the default y columns into cy (at most 32): every column but x and the
 * keys, only those named *def->ysuffix when there are any */
static int default_ys(const csvr *r, int cx, const int *cb, int nb, const struct lines_defaults *def, int *cy)
{
    int named = 0, ny = 0;
    for (int i = 0; def && def->ysuffix && i < csvr_ncols(r); i++)
        named += i != cx && !in_list(i, cb, nb) && ends_with(csvr_colname(r, i), def->ysuffix);
    for (int i = 0; i < csvr_ncols(r) && ny < LINEBINS_MAX_Y; i++)
        if (i != cx && !in_list(i, cb, nb) && (!named || ends_with(csvr_colname(r, i), def->ysuffix)))
            cy[ny++] = i;
    return ny;
}

/* lines_columns: the lines chart's columns: x into *cx; the --by columns
 * (at most CHART_MAX_BY, the caller checks; without --by, def's keys the
 * input has) into cb, *nbp of them; the --y columns (the first 32; without
 * --y, default_ys) into cy, *nyp of them.  Every missing one is reported in
 * one line.  0, or -1 (reported). */
static int lines_columns(csvr *r, const char *xcol, const char *ycols, const char *by,
                         const struct lines_defaults *def, int *cx, int *cb, int *nbp, int *cy, int *nyp)
{
    char *bylist = by ? xstrdup(by) : NULL, *ylist = ycols ? xstrdup(ycols) : NULL;
    const char *want[1 + LINEBINS_MAX_BY + LINEBINS_MAX_Y];
    int wc[1 + LINEBINS_MAX_BY + LINEBINS_MAX_Y], nw = 0;
    want[nw++] = xcol;
    int nb = split_names(bylist, want, &nw, LINEBINS_MAX_BY);
    split_names(ylist, want, &nw, LINEBINS_MAX_Y); /* the first 32 y columns */
    int ny = nw - 1 - nb;
    int refused = csvr_require_list(r, want, wc, nw) < 0;
    free(bylist);
    free(ylist);
    if (refused)
        return -1;
    *cx = wc[0];
    for (int b = 0; b < nb; b++)
        cb[b] = wc[1 + b];
    for (int y = 0; y < ny; y++)
        cy[y] = wc[1 + nb + y];
    for (int k = 0; !by && def && def->keys && def->keys[k]; k++) {
        int c = csvr_col(r, def->keys[k]);
        if (c >= 0 && c != *cx && nb < LINEBINS_MAX_BY)
            cb[nb++] = c;
    }
    if (!ycols)
        ny = default_ys(r, *cx, cb, nb, def, cy);
    *nbp = nb;
    *nyp = ny;
    return 0;
}

/* lines_xtitle: the x title of column xcol whose values start at x0, and
 * the scale its values are drawn with: an epoch axis (dates) is titled by
 * the column; offsets of a "day" column are drawn in days, of the time
 * columns t and offset (seconds in the data language) titled "(s)". */
static const char *lines_xtitle(const char *xcol, double x0, char *buf, size_t size, double *scale)
{
    *scale = 1;
    if (is_epoch(x0))
        return xcol;
    if (strcmp(xcol, "day") == 0) { /* a trace with time 0 at its start */
        *scale = 1.0 / 86400;
        return "day (days since time 0)";
    }
    if (strcmp(xcol, "t") == 0 || strcmp(xcol, "offset") == 0) {
        snprintf(buf, size, "%s (s)", xcol);
        return buf;
    }
    return xcol;
}

/* lines_ytitle: the y title of the panel that starts at y column k: with a
 * panel per column, its name; else def's title when every column is named
 * *def->ysuffix ("memory (MB)"), the column's name when there is one,
 * none when the key names several.  Words (def->words) for underscores. */
static const char *lines_ytitle(const struct linebins *d, int k, int panels, const struct lines_defaults *def,
                                char *buf, size_t size)
{
    int all = def && def->ylabel && def->ysuffix;
    for (int i = 0; all && i < d->ny; i++)
        all = ends_with(d->ynames[i], def->ysuffix);
    if (!panels && all)
        return def->ylabel;
    if (!panels && d->ny > 1)
        return "";
    snprintf(buf, size, "%s", d->ynames[k]);
    for (char *c = buf; def && def->words && *c; c++)
        if (*c == '_')
            *c = ' ';
    return buf;
}

/* lines_plot: the lines chart's panels (one, or one per y column) and a
 * series per group and y column (plot/linebins: thinned, a NaN x where the
 * pen lifts); a column whose every group draws the same line, in a panel
 * of several columns, is one series named by it (d->folds). */
static void lines_plot(plot *p, const struct linebins *d, const char *xcol, int panels,
                       const struct lines_defaults *def)
{
    char xbuf[300], ybuf[300];
    double scale;
    const char *xtitle = lines_xtitle(xcol, d->x0, xbuf, sizeof xbuf, &scale);
    for (int k = 0; k < d->ny; k++) {
        if (panels || k == 0) {
            plot_panel(p, xtitle, lines_ytitle(d, k, panels, def, ybuf, sizeof ybuf),
                       is_epoch(d->x0) ? PLOT_X_EPOCH : PLOT_X_NUMBER);
            if (def && def->yzero)
                plot_yzero(p);
        }
        for (size_t i = 0; i < d->ns; i++) {
            const struct linebins_series *ls = &d->s[i];
            if (ls->k != k)
                continue;
            char name[512];
            const char *gname = d->groups[ls->group];
            if (d->nb && !d->folds[k] && (panels || d->ny == 1))
                snprintf(name, sizeof name, "%s", gname);
            else if (d->nb && !d->folds[k])
                snprintf(name, sizeof name, "%s %s", gname, d->ynames[k]);
            else
                snprintf(name, sizeof name, "%s", d->ynames[k]);
            int s = plot_series(p, name, PLOT_LINES);
            for (size_t q = 0; q < ls->n; q++)
                if (isnan(ls->pts[q].x))
                    plot_break(p, s);
                else
                    plot_point(p, s, ls->pts[q].x * scale, ls->pts[q].y);
        }
    }
}

/* What draw_lines' columns callback needs. */
struct lines_req {
    const char *xcol, *ycols, *by;
    const struct lines_defaults *def;
};

/* a word in a column taken as y by default: say how to leave it out */
static const char not_y[] = " (a y column must hold numbers: choose the y columns with --y, or draw a series "
                            "per value of this one with --by)";

static int lines_cols(csvr *r, void *ctx, struct linebins_cols *c)
{
    const struct lines_req *q = ctx;
    if (lines_columns(r, q->xcol, q->ycols, q->by, q->def, &c->cx, c->cb, &c->nb, c->cy, &c->ny) < 0)
        return -1;
    c->hint = q->ycols ? "" : not_y;
    return 0;
}

/* chart_lines with what def knows (NULL: nothing) when by or ycols is NULL */
static int draw_lines(plot *p, const struct chart_opts *o, const char *xcol, const char *ycols,
                      const char *by, int panels, const struct lines_defaults *def)
{
    struct lines_req q = {xcol, ycols, by, def};
    struct linebins b;
    int st = linebins_read(o->input, o->d_input, lines_cols, &q, o->columns, panels, &b);
    if (!st)
        lines_plot(p, &b, xcol, panels, def);
    linebins_free(&b);
    return st;
}

int chart_lines(plot *p, const struct chart_opts *o, const char *xcol, const char *ycols, const char *by,
                int panels)
{
    return draw_lines(p, o, xcol, ycols, by, panels, NULL);
}

int chart_memory(plot *p, const struct chart_opts *o)
{
    return draw_lines(p, o, o->x ? o->x : "t", o->y, o->by, o->panels, &memory_defaults);
}

int chart_draw(plot *p, const char *chart, const struct chart_opts *o)
{
    if (strcmp(chart, "skyline") == 0)
        return chart_skyline(p, o);
    if (strcmp(chart, "plan") == 0)
        return chart_plan(p, o);
    if (strcmp(chart, "tenants") == 0)
        return chart_tenants(p, o);
    if (strcmp(chart, "vcs") == 0)
        return draw_lines(p, o, o->x ? o->x : "day", o->y ? o->y : "load,mean_stretch", o->by ? o->by : "vc",
                          1, &vcs_defaults);
    if (strcmp(chart, "memory") == 0)
        return chart_memory(p, o);
    if (strcmp(chart, "lines") == 0)
        return chart_lines(p, o, o->x ? o->x : "t", o->y, o->by, o->panels);
    slk_error("unknown chart '%s' (want skyline, plan, tenants, vcs, memory or lines)", chart);
    return SLK_EUSAGE;
}
