/* skyplot — pictures of the toolkit's time series, drawn by gnuplot.
 *
 *   skyplot skyline [USAGE] --fit SKYLINE [--job J]   run skylines + the fitted skyline
 *   skyplot plan [PLAN] [--load LOAD] [--top N]        stacked reservations (+ cost vs capacity)
 *   skyplot tenants [UTIL] --classes TENANTS           mean utilization per tenant class
 *   skyplot vcs [DAILY]                                VC load and stretch per day
 *   skyplot memory [SERIES]                            a peakgate node's memory over time
 *   skyplot lines [CSV] --x COL --y COL[,COL] [--by COL] [--panels]   anything else
 *
 * Charts are built here from CSV; lib/plot/plot draws them (and keeps user text
 * out of the gnuplot script). */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "base/stats.h"
#include "plot/plot.h"
#include "plot/runband.h"

#include <argp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct {
    const char *chart, *input, *fit, *job, *load, *classes, *term, *x, *y, *by, *title;
    int top, top_set, width, height, panels, runs;
} opt = {.top = 8, .runs = 5};

enum { OPT_FIT = 1, OPT_JOB, OPT_LOAD, OPT_CLASSES, OPT_TERM, OPT_X, OPT_Y, OPT_BY, OPT_TOP,
       OPT_WIDTH, OPT_HEIGHT, OPT_PANELS, OPT_TITLE, OPT_RUNS };

static const struct argp_option options[] = {
    {"fit", OPT_FIT, "FILE", 0, "skyline: skyfit output (job,step,offset,alloc) to draw over the runs", 0},
    {"job", OPT_JOB, "NAME", 0, "skyline: the job to draw (default: the first in the input)", 0},
    {"runs", OPT_RUNS, "N", 0, "skyline: name at most N runs, the latest (default 5); with more runs, also draw their 10-90% band and median", 0},
    {"load", OPT_LOAD, "FILE", 0, "plan: lcmpack --load output (t,cost) for a cost-vs-capacity panel", 0},
    {"top", OPT_TOP, "N", 0, "plan: stack the N largest jobs, the rest as 'other' (default 8; 6 with --term dumb)", 0},
    {"classes", OPT_CLASSES, "FILE", 0, "tenants: tenantclass output (tenant,class) mapping tenants to classes", 0},
    {"x", OPT_X, "COL", 0, "lines: the x column (default t)", 0},
    {"y", OPT_Y, "COLS", 0, "lines: comma-separated y columns (default: every other numeric column)", 0},
    {"by", OPT_BY, "COL[,COL]", 0, "lines, memory, vcs: one series per value of COL (per combination of up to 4 columns)", 0},
    {"panels", OPT_PANELS, NULL, 0, "lines: one panel per y column", 0},
    {"title", OPT_TITLE, "TEXT", 0, "Chart title", 0},
    {"term", OPT_TERM, "T", 0, "svg, png or dumb (text for a terminal); default from -o's extension, else svg", 0},
    {"width", OPT_WIDTH, "N", 0, "Width in pixels (svg, png) or characters (dumb)", 0},
    {"height", OPT_HEIGHT, "N", 0, "Height in pixels or characters", 0},
    {0}
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    switch (key) {
    case OPT_FIT: opt.fit = arg; break;
    case OPT_JOB: opt.job = arg; break;
    case OPT_LOAD: opt.load = arg; break;
    case OPT_CLASSES: opt.classes = arg; break;
    case OPT_X: opt.x = arg; break;
    case OPT_Y: opt.y = arg; break;
    case OPT_BY: opt.by = arg; break;
    case OPT_PANELS: opt.panels = 1; break;
    case OPT_TITLE: opt.title = arg; break;
    case OPT_RUNS: opt.runs = (int)cli_int(st, "runs", arg, 0, 50); break;
    case OPT_TOP:
        opt.top = (int)cli_int(st, "top", arg, 1, 50);
        opt.top_set = 1;
        break;
    case OPT_WIDTH: opt.width = (int)cli_int(st, "width", arg, 20, 10000); break;
    case OPT_HEIGHT: opt.height = (int)cli_int(st, "height", arg, 10, 10000); break;
    case OPT_TERM:
        if (strcmp(arg, "svg") && strcmp(arg, "png") && strcmp(arg, "dumb"))
            argp_error(st, "invalid value for --term: '%s' (want svg, png or dumb)", arg);
        opt.term = arg;
        break;
    case ARGP_KEY_ARG:
        if (!opt.chart)
            opt.chart = arg;
        else if (!opt.input)
            opt.input = arg;
        else
            argp_error(st, "too many arguments ('%s')", arg);
        break;
    case ARGP_KEY_END:
        if (!opt.chart)
            argp_error(st, "which chart? (skyline, plan, tenants, vcs, memory, lines)");
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const char *pick_term(void)
{
    if (opt.term)
        return opt.term;
    const char *o = slk_opt.output;
    size_t n = o ? strlen(o) : 0;
    if (n > 4 && strcmp(o + n - 4, ".png") == 0)
        return "png";
    return "svg";
}

/* ---- a small string -> index table (names of jobs, runs, classes) ---- */
struct names {
    char **v;
    size_t n, cap;
};

static int name_index(struct names *t, const char *s)
{
    for (size_t i = t->n; i-- > 0;)  /* recent names first: inputs are grouped */
        if (strcmp(t->v[i], s) == 0)
            return (int)i;
    t->v = xgrow(t->v, &t->cap, t->n + 1, sizeof *t->v);
    t->v[t->n] = xstrdup(s);
    return (int)t->n++;
}

static void names_free(struct names *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i]);
    free(t->v);
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

/* Read (group, x, y) triples from a CSV; group column optional. Returns status. */
static int read_points(const char *path, const char *gcol, const char *xcol, const char *ycol,
                       const char *only_col, const char **only_val, struct names *groups,
                       struct pt **pts, size_t *npts)
{
    int st;
    csvr *r = csvr_open_with(path, cli_dialect(path == opt.input ? NULL : path == opt.fit ? "fit" : "load"), 0, &st);
    if (!r)
        return st;
    int cg = gcol ? csvr_require(r, gcol) : -1, cx = csvr_require(r, xcol), cy = csvr_require(r, ycol);
    int co = only_col ? csvr_require(r, only_col) : -1;
    int ck = csvr_col(r, "kind"); /* a slokit plan: skip its trailer row (kind "end") */
    if ((gcol && cg < 0) || cx < 0 || cy < 0 || (only_col && co < 0)) {
        csvr_close(r);
        return SLK_EDATA;
    }
    size_t cap = 0;
    while (csvr_next(r) > 0) {
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
        if (csvr_get_time(r, cx, &x, CSVR_REQUIRED) < 0 || csvr_get_double(r, cy, &y, CSVR_BOUNDED) < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        const char *g = cg >= 0 ? csvr_field(r, cg) : "";
        *pts = xgrow(*pts, &cap, *npts + 1, sizeof **pts);
        (*pts)[(*npts)++] = (struct pt){name_index(groups, g ? g : ""), x, y};
    }
    st = csvr_status(r);
    csvr_close(r);
    if (*npts)
        qsort(*pts, *npts, sizeof **pts, cmp_pt);
    return st;
}

/* Points [i, j) of one series, with the pen lifted across gaps: a step
 * more than 3 times the series' median step (a VC idle for days, a tenant
 * missing from the export) is not drawn as a line. */
static void draw_with_gaps(plot *p, int s, const struct pt *pts, size_t i, size_t j, double xscale)
{
    double *d = xmalloc((j - i + 1) * sizeof *d);
    size_t m = 0;
    for (size_t q = i + 1; q < j; q++)
        if (pts[q].x > pts[q - 1].x)
            d[m++] = pts[q].x - pts[q - 1].x;
    double gap = m ? 3 * stats_median(d, m) : INFINITY;
    free(d);
    for (size_t q = i; q < j; q++) {
        if (q > i && pts[q].x - pts[q - 1].x > gap)
            plot_break(p, s);
        plot_point(p, s, pts[q].x * xscale, pts[q].y);
    }
}

/* the usage sample step: the most common gap between a run's samples */
static double sample_step(const struct pt *pts, size_t n)
{
    double *d = xmalloc((n + 1) * sizeof *d);
    size_t m = 0;
    for (size_t i = 1; i < n; i++)
        if (pts[i].g == pts[i - 1].g && pts[i].x > pts[i - 1].x)
            d[m++] = pts[i].x - pts[i - 1].x;
    double step = m ? stats_median(d, m) : 60;
    free(d);
    return step;
}

/* Many runs: a 10-90% band and the median per step, plus the latest
 * opt.runs runs by name; few runs: every run by name. */
static void draw_runs(plot *p, const struct names *runs, const struct pt *pts, size_t n)
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
    if (nr > (size_t)opt.runs && runband_compute(nr, cnt, x, y, sample_step(pts, n), 10, 90, &b) == 0) {
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
    /* the named runs: the latest opt.runs by start time (all when few) */
    for (size_t r = 0; r < nr; r++) {
        size_t later = 0;
        for (size_t q = 0; q < nr; q++)
            later += pts[first[q]].x > pts[first[r]].x;
        if (later >= (size_t)opt.runs)
            continue;
        char name[256];
        snprintf(name, sizeof name, "run %s", runs->v[r]);
        int s = plot_series(p, name, PLOT_LINES);
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

/* skyline: each run aligned at its start, and the fitted skyline as steps. */
static int chart_skyline(plot *p)
{
    struct names runs = {0};
    struct pt *pts = NULL;
    size_t n = 0;
    const char *job = opt.job;
    int st = read_points(opt.input, "run", "t", "containers", "job", &job, &runs, &pts, &n);
    if (st)
        goto out;
    if (n == 0) {
        slk_error("%s: no usage rows%s%s", opt.input ? opt.input : "<stdin>", job ? " for job " : "", job ? job : "");
        st = SLK_EDATA;
        goto out;
    }
    plot_panel(p, "minutes since run start", "containers", PLOT_X_NUMBER);
    draw_runs(p, &runs, pts, n);
    if (opt.fit) {
        struct names dummy = {0};
        struct pt *f = NULL;
        size_t nf = 0;
        const char *fj = job;
        st = read_points(opt.fit, NULL, "offset", "alloc", "job", &fj, &dummy, &f, &nf);
        int stepc = 60;
        if (!st) {
            char fname[300];
            snprintf(fname, sizeof fname, "%s fitted skyline", job);
            int s = plot_series(p, fname, PLOT_STEPS);
            for (size_t i = 0; i < nf; i++)
                plot_point(p, s, f[i].x / 60.0, f[i].y);
            if (nf)
                plot_point(p, s, (f[nf - 1].x + (nf > 1 ? f[nf - 1].x - f[nf - 2].x : stepc)) / 60.0, f[nf - 1].y);
            if (nf == 0 && !slk_opt.quiet)
                slk_error("warning: %s has no skyline for job %s", opt.fit, job);
        }
        if (fj != job)
            free((char *)fj);
        names_free(&dummy);
        free(f);
    }
out:
    if (job != opt.job)
        free((char *)job);
    names_free(&runs);
    free(pts);
    return st;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Stack per-group step functions: groups ranked by area, the top N drawn as
 * bands and the rest summed as "other". */
static void stack_bands(plot *p, struct names *groups, struct pt *pts, size_t n, int top)
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
    for (size_t i = 1; i < ng; i++)
        for (size_t j = i; j > 0 && area[order[j]] > area[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
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
    double scale = xs[0] > 1e9 ? 1 : 1.0 / 3600;
    for (int b = 0; b < nb; b++) {
        int s = plot_series(p, b < top ? groups->v[order[b]] : "other", PLOT_BAND);
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

/* plan: stacked reservations per job, and cost against capacity. */
static int chart_plan(plot *p)
{
    struct names jobs = {0};
    struct pt *pts = NULL;
    size_t n = 0;
    int st = read_points(opt.input, "job", "t", "containers", NULL, NULL, &jobs, &pts, &n);
    if (!st && n == 0) {
        slk_error("%s: the plan has no reservations", opt.input ? opt.input : "<stdin>");
        st = SLK_EDATA;
    }
    if (!st) {
        int epoch = pts[0].x > 1e9;
        plot_panel(p, epoch ? "time (UTC)" : "hours into the plan", "reserved containers",
                   epoch ? PLOT_X_EPOCH : PLOT_X_NUMBER);
        /* a text terminal has 7 line characters: 6 jobs + "other" stay apart */
        int dumb = strcmp(pick_term(), "dumb") == 0;
        stack_bands(p, &jobs, pts, n, dumb && !opt.top_set ? 6 : opt.top);
        if (opt.load) {
            struct names g = {0};
            struct pt *lp = NULL;
            size_t nl = 0;
            st = read_points(opt.load, NULL, "t", "cost", NULL, NULL, &g, &lp, &nl);
            if (!st) {
                plot_panel(p, epoch ? "time (UTC)" : "hours into the plan", "cost = max(load/capacity)",
                           epoch ? PLOT_X_EPOCH : PLOT_X_NUMBER);
                int s = plot_series(p, "cost", PLOT_BOLD), c = plot_series(p, "capacity", PLOT_LINES);
                double scale = epoch ? 1 : 1.0 / 3600;
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

/* tenants: mean utilization over time of each tenant class. */
static int chart_tenants(plot *p)
{
    if (!opt.classes) {
        slk_error("tenants: --classes FILE (tenantclass output) is required");
        return SLK_EUSAGE;
    }
    int st;
    csvr *c = csvr_open_with(opt.classes, cli_dialect("classes"), 0, &st);
    if (!c)
        return st;
    int ct = csvr_require(c, "tenant"), cc = csvr_require(c, "class");
    if (ct < 0 || cc < 0) {
        csvr_close(c);
        return SLK_EDATA;
    }
    struct names tenants = {0}, classes = {0};
    int *cls = NULL;
    size_t ccap = 0;
    while (csvr_next(c) > 0) {
        const char *t = csvr_field(c, ct), *k = csvr_field(c, cc);
        if (!t || !k)
            continue;
        size_t ti = (size_t)name_index(&tenants, t);
        cls = xgrow(cls, &ccap, ti + 1, sizeof *cls);
        cls[ti] = name_index(&classes, k);
    }
    st = csvr_status(c);
    csvr_close(c);
    struct names seen = {0};
    struct pt *pts = NULL;
    size_t n = 0;
    if (!st)
        st = read_points(opt.input, "tenant", "t", "util", NULL, NULL, &seen, &pts, &n);
    if (!st) {
        /* map each point's tenant to its class; points of unclassified tenants are dropped */
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            int ti = -1;
            for (size_t k = 0; k < tenants.n; k++)
                if (strcmp(tenants.v[k], seen.v[pts[i].g]) == 0) {
                    ti = (int)k;
                    break;
                }
            if (ti >= 0)
                pts[m++] = (struct pt){cls[ti], pts[i].x, pts[i].y};
        }
        n = m;
        if (n)
            qsort(pts, n, sizeof *pts, cmp_pt);
        plot_panel(p, "time (UTC)", "mean utilization", PLOT_X_EPOCH);
        for (size_t i = 0; i < n;) {
            char name[256];
            snprintf(name, sizeof name, "class %s", classes.v[pts[i].g]);
            int s = plot_series(p, name, PLOT_LINES);
            size_t j = i, e = i; /* class means per time, in place over [i, e) */
            while (j < n && pts[j].g == pts[i].g) {
                size_t k = j;
                double sum = 0;
                for (; k < n && pts[k].g == pts[j].g && pts[k].x == pts[j].x; k++)
                    sum += pts[k].y;
                pts[e++] = (struct pt){pts[j].g, pts[j].x, sum / (double)(k - j)};
                j = k;
            }
            draw_with_gaps(p, s, pts, i, e, 1);
            i = j;
        }
    }
    free(cls);
    names_free(&tenants);
    names_free(&classes);
    names_free(&seen);
    free(pts);
    return st;
}

/* --by COL[,COL...]: the columns' indices into cb (at most 4).  Returns
 * how many, or -1 after a message (a missing column, too many). */
static int by_columns(csvr *r, const char *by, int *cb)
{
    char *list = xstrdup(by), *save = NULL;
    int nb = 0;
    for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (nb == 4) {
            slk_error("--by: at most 4 columns ('%s')", by);
            nb = -1;
            break;
        }
        if ((cb[nb++] = csvr_require(r, t)) < 0) {
            nb = -1;
            break;
        }
    }
    free(list);
    return nb;
}

static int in_list(int i, const int *v, int n)
{
    for (int k = 0; k < n; k++)
        if (v[k] == i)
            return 1;
    return 0;
}

/* lines (and the vcs and memory presets): x against y columns, by group. */
static int chart_lines(plot *p, const char *xcol, const char *ycols, const char *by, int panels)
{
    int st;
    csvr *r = csvr_open_with(opt.input, cli_dialect(NULL), 0, &st);
    if (!r)
        return st;
    int cx = csvr_require(r, xcol), cb[4], nb = by ? by_columns(r, by, cb) : 0;
    if (cx < 0 || nb < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    int ny = 0, cy[32];
    char *ylist = ycols ? xstrdup(ycols) : NULL;
    if (ylist) {
        char *save = NULL;
        for (char *t = strtok_r(ylist, ",", &save); t && ny < 32; t = strtok_r(NULL, ",", &save))
            if ((cy[ny++] = csvr_require(r, t)) < 0) {
                free(ylist);
                csvr_close(r);
                return SLK_EDATA;
            }
    } else {
        for (int i = 0; i < csvr_ncols(r) && ny < 32; i++)
            if (i != cx && !in_list(i, cb, nb))
                cy[ny++] = i;
    }
    free(ylist);
    struct names groups = {0};
    struct pt *pts = NULL;
    size_t n = 0, cap = 0;
    while (csvr_next(r) > 0) {
        double x;
        size_t n0 = n; /* a bad y drops the whole row */
        int bad = 0;
        if (csvr_get_time(r, cx, &x, CSVR_REQUIRED) < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        char g[512] = "";
        for (int b = 0, len = 0; b < nb && len < (int)sizeof g; b++) {
            const char *v = csvr_field(r, cb[b]);
            if (nb > 1) /* several columns: "k=1 task=a" */
                len += snprintf(g + len, sizeof g - (size_t)len, "%s%s=", b ? " " : "",
                                csvr_colname(r, cb[b]));
            if (len < (int)sizeof g)
                len += snprintf(g + len, sizeof g - (size_t)len, "%s", v ? v : "-");
        }
        int gi = name_index(&groups, g);
        for (int k = 0; k < ny; k++) {
            double y;
            int rc = csvr_get_double(r, cy[k], &y, CSVR_BOUNDED);
            if (rc < 0) {
                n = n0;
                bad = 1;
                break;
            }
            if (rc == 0)
                continue;
            pts = xgrow(pts, &cap, n + 1, sizeof *pts);
            pts[n++] = (struct pt){gi * 32 + k, x, y};
        }
        if (bad && csvr_skip(r))
            continue;
        if (csvr_status(r))
            break;
    }
    st = csvr_status(r);
    if (!st && n == 0) {
        slk_error("%s: nothing to plot", csvr_path(r));
        st = SLK_EDATA;
    }
    if (!st) {
        if (n)
            qsort(pts, n, sizeof *pts, cmp_pt);
        int epoch = pts[0].x > 1e9;
        /* a "day" column before 2001 (a trace with time 0 at its start) is
         * shown in days, not seconds */
        int days = !epoch && strcmp(xcol, "day") == 0;
        const char *xlabel = days ? "day (days since time 0)" : xcol;
        for (int k = 0; k < ny; k++) {
            if (panels || k == 0)
                plot_panel(p, xlabel, panels ? csvr_colname(r, cy[k]) : "", epoch ? PLOT_X_EPOCH : PLOT_X_NUMBER);
            for (size_t i = 0; i < n;) {
                size_t j = i;
                while (j < n && pts[j].g == pts[i].g)
                    j++;
                if (pts[i].g % 32 == k) {
                    char name[512];
                    const char *gname = groups.v[pts[i].g / 32];
                    if (by && (panels || ny == 1))
                        snprintf(name, sizeof name, "%s", gname);
                    else if (by)
                        snprintf(name, sizeof name, "%s %s", gname, csvr_colname(r, cy[k]));
                    else
                        snprintf(name, sizeof name, "%s", csvr_colname(r, cy[k]));
                    draw_with_gaps(p, plot_series(p, name, PLOT_LINES), pts, i, j, days ? 1.0 / 86400 : 1);
                }
                i = j;
            }
        }
    }
    names_free(&groups);
    free(pts);
    csvr_close(r);
    return st;
}

/* build the chart named by opt.chart into p */
static int draw(plot *p)
{
    const char *c = opt.chart;
    if (strcmp(c, "skyline") == 0)
        return chart_skyline(p);
    if (strcmp(c, "plan") == 0)
        return chart_plan(p);
    if (strcmp(c, "tenants") == 0)
        return chart_tenants(p);
    if (strcmp(c, "vcs") == 0)
        return chart_lines(p, opt.x ? opt.x : "day", opt.y ? opt.y : "load,mean_stretch",
                           opt.by ? opt.by : "vc", 1);
    if (strcmp(c, "memory") == 0 || strcmp(c, "lines") == 0)
        return chart_lines(p, opt.x ? opt.x : "t", opt.y, opt.by, opt.panels);
    slk_error("unknown chart '%s' (want skyline, plan, tenants, vcs, memory or lines)", c);
    return SLK_EUSAGE;
}

/* draw p with gnuplot into -o (atomically) or stdout, and say so */
static int render(plot *p, const char *term)
{
    int st = SLK_OK;
    outf *o = outf_open(slk_opt.output, &st);
    if (o) {
        st = plot_render(p, term, opt.width, opt.height, outf_fp(o));
        st = outf_finish(o, st);
    }
    if (st == SLK_OK && !slk_opt.quiet && slk_opt.output)
        fprintf(stderr, "skyplot: %s chart, %d series, %s -> %s\n", opt.chart, plot_nseries(p), term,
                slk_opt.output);
    return st;
}

int main(int argc, char **argv)
{
    slk_init("skyplot");
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {
        options, parse_opt, "CHART [FILE]",
        "Draw the toolkit's CSV time series as SVG, PNG or a text chart, with gnuplot.\n"
        "CHART is skyline, plan, tenants, vcs, memory or lines; FILE defaults to standard input."
        "\vExamples:\n"
        "  # the runs' 10-90% band, median, 5 latest runs and the fitted skyline\n"
        "  skyplot skyline usage.csv --fit skyline.csv --job job00001 -o job1.png\n"
        "  skyplot plan plan.csv --load load.csv -o plan.png\n"
        "  skyplot plan plan.csv --term dumb          # one character per job\n"
        "  skyplot tenants util.csv --classes tenants.csv --term dumb\n"
        "  skyplot vcs daily.csv -o vcs.svg           # dates on the x axis\n"
        "  skyplot memory mem.csv --y used_mb,bound_mb --by policy,k -o mem.svg",
        kids, NULL, NULL};
    cli_roles("input", "fit", "load", "classes", (const char *)NULL);
    argp_parse(&argp, argc, argv, 0, NULL, NULL);

    plot *p = plot_new(opt.title ? opt.title : opt.chart);
    int st = draw(p);
    if (st == SLK_OK)
        st = render(p, pick_term());
    plot_free(p);
    return slk_finish(st);
}
