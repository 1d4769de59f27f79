/* plot — charts drawn by gnuplot (see plot.h for the model and the safety rule). */
#include "plot/plot.h"
#include "base/diag.h"
#include "base/outfile.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

/* The temporary directory's files: one per series (s0.dat, s1.dat, ...),
 * the script and gnuplot's stderr.  Fixed names, so that a signal handler
 * can remove them without reading the directory (see "Killed while
 * drawing"). */
#define SERIES_PREFIX "s"
#define SERIES_SUFFIX ".dat"
#define SCRIPT_NAME "plot.gp"
#define ERR_NAME "gnuplot.err"
/* The work directory's path: TMPDIR and ".skyplot.slokit.XXXXXX", and room
 * for the longest file name in it (the script names the data files
 * relative to it: gnuplot runs there, so TMPDIR's characters never reach
 * the script's quoted strings). */
#define DIR_MAX (PATH_MAX - 64)

struct series {
    char *name;
    enum plot_style style;
    int panel;
    double *x, *y, *lo, *mid;  /* mid: PLOT_RANGE only */
    size_t n, cap;
    double rank;   /* plot_rank's, else the peak (set by mark_titled) */
    int ranked;    /* plot_rank was called */
    int titled;    /* in its panel's key (mark_titled, while drawing) */
    size_t keypos; /* a thin line's place among its panel's: the key's order */
};

struct panel {
    char *xlabel, *ylabel;
    enum plot_xkind xkind;
    int yzero; /* plot_yzero */
};

/* Where a panel's key goes and what it leaves the plot (key_layout). */
struct key_layout {
    int below; /* under the plot, `rows` rows of `cols` entries; else beside it */
    int rows, cols;
    double plot_w; /* the plot area's width, in character cells */
    double key_w;  /* a key beside the plot: its width, in character cells */
};

struct plot {
    char *title;
    struct panel *panels;
    size_t npanels, pcap;
    struct series *s;
    size_t ns, scap;
    struct key_layout *keys; /* per panel, while plot_render draws */
    double key_align;        /* the panels' common right margin (align_keys), 0: none */
};

/* Keep what cannot change the meaning of a single-quoted gnuplot string. */
static char *safe_text(const char *s)
{
    if (!s)
        return xstrdup("");
    size_t n = strlen(s);
    if (n > 200)
        n = 200;
    char *d = xmalloc(n + 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        d[i] = (isalnum(c) || strchr(" _-.,:;/()[]+=#%<>", c)) ? (char)c : '?';
    }
    d[n] = 0;
    return d;
}

plot *plot_new(const char *title)
{
    plot *p = xcalloc(1, sizeof *p);
    p->title = safe_text(title);
    return p;
}

void plot_free(plot *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->ns; i++) {
        free(p->s[i].name);
        free(p->s[i].x);
        free(p->s[i].y);
        free(p->s[i].lo);
        free(p->s[i].mid);
    }
    for (size_t i = 0; i < p->npanels; i++) {
        free(p->panels[i].xlabel);
        free(p->panels[i].ylabel);
    }
    free(p->panels);
    free(p->s);
    free(p->keys);
    free(p->title);
    free(p);
}

void plot_panel(plot *p, const char *xlabel, const char *ylabel, enum plot_xkind xkind)
{
    p->panels = xgrow(p->panels, &p->pcap, p->npanels + 1, sizeof *p->panels);
    struct panel *pn = &p->panels[p->npanels++];
    pn->xlabel = safe_text(xlabel);
    pn->ylabel = safe_text(ylabel);
    pn->xkind = xkind;
    pn->yzero = 0;
}

void plot_yzero(plot *p)
{
    if (p->npanels == 0)
        plot_panel(p, NULL, NULL, PLOT_X_NUMBER);
    p->panels[p->npanels - 1].yzero = 1;
}

int plot_series(plot *p, const char *name, enum plot_style style)
{
    if (p->npanels == 0)
        plot_panel(p, NULL, NULL, PLOT_X_NUMBER);
    p->s = xgrow(p->s, &p->scap, p->ns + 1, sizeof *p->s);
    struct series *s = &p->s[p->ns];
    memset(s, 0, sizeof *s);
    s->name = xstrdup(name ? name : "");
    s->style = style;
    s->panel = (int)p->npanels - 1;
    return (int)p->ns++;
}

static void add(struct series *s, double x, double lo, double y)
{
    if (!isfinite(x) || !isfinite(y) || !isfinite(lo))
        return;
    if (s->n == s->cap) {
        size_t c = s->cap;
        if (s->style == PLOT_RANGE) {
            s->mid = xgrow(s->mid, &c, s->n + 1, sizeof *s->mid);
            c = s->cap;
        }
        s->x = xgrow(s->x, &c, s->n + 1, sizeof *s->x);
        c = s->cap;
        s->y = xgrow(s->y, &c, s->n + 1, sizeof *s->y);
        c = s->cap;
        s->lo = xgrow(s->lo, &c, s->n + 1, sizeof *s->lo);
        s->cap = c;
    }
    s->x[s->n] = x;
    s->lo[s->n] = lo;
    s->y[s->n] = y;
    s->n++;
}

void plot_point(plot *p, int s, double x, double y) { add(&p->s[s], x, 0, y); }

void plot_break(plot *p, int s)
{
    struct series *se = &p->s[s];
    if (se->n == 0 || isnan(se->x[se->n - 1]))
        return; /* nothing to lift the pen from */
    add(se, 0, 0, 0);
    se->x[se->n - 1] = NAN;
}
void plot_band(plot *p, int s, double x, double ylow, double yhigh) { add(&p->s[s], x, ylow, yhigh); }

void plot_range(plot *p, int s, double x, double low, double mid, double high)
{
    struct series *se = &p->s[s];
    size_t n = se->n;
    if (!isfinite(mid))
        return;
    add(se, x, low, high);
    if (se->n > n)
        se->mid[n] = mid;
}
int plot_nseries(const plot *p) { return (int)p->ns; }

void plot_rank(plot *p, int s, double rank)
{
    p->s[s].rank = rank;
    p->s[s].ranked = 1;
}

/* A series name as a data-file header token: one double-quoted word.
 * gnuplot's data reader has no escape for '"', so it becomes '\''. */
static void write_name(FILE *f, const char *name, int range)
{
    fputc('"', f);
    for (const char *c = name; *c; c++) {
        unsigned char ch = (unsigned char)*c;
        fputc(ch == '"' ? '\'' : (ch < 32 || ch == 127) ? ' ' : ch, f);
    }
    fputs(range ? "\" \"low\" \"high\" \"mid\"\n" : "\" \"y\" \"z\"\n", f);
}

static void rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[PATH_MAX + 256];
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

static const char *const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                      "#e377c2", "#008080", "#bcbd22", "#17becf", "#393b79", "#e7ba52",
                                      "#843c39", "#637939", "#7b4173", "#3182bd"};

/* the thin lines a key leaves out, on an image: under the named ones, in
 * a grey no palette colour is */
#define UNNAMED_GREY "#c8c8c8"
/* the rest of a stack (PLOT_REST, "other"): a grey of its own */
#define REST_GREY "#999999"

static void script_head(const plot *p, const char *term, int w, int h, FILE *sc)
{
    if (strcmp(term, "svg") == 0)
        fprintf(sc, "set terminal svg size %d,%d dynamic background rgb 'white' font 'sans,11'\n", w, h);
    else if (strcmp(term, "png") == 0)
        fprintf(sc, "set terminal pngcairo size %d,%d background rgb 'white' font 'sans,10'\n", w, h);
    else
        fprintf(sc, "set terminal dumb size %d,%d\n", w, h);
    fprintf(sc, "set output\nset termoption noenhanced\nset datafile missing '?'\n"
                "set grid\nset style fill solid 0.6 noborder\n"
                "set offsets graph 0, graph 0, graph 0.08, graph 0\n"
                /* x from the data's first to its last point, not widened
                 * to the tics around them (a year from 2023-01-01 drawn
                 * from 2022-10-27) */
                "set autoscale xfix\n");
    if (p->npanels > 1)
        fprintf(sc, "set multiplot layout %zu,1 title '%s'\n", p->npanels, p->title);
    else if (strcmp(term, "dumb") == 0) /* above the y title's row (write_panel) */
        fprintf(sc, "set title '%s' offset 0,1\n", p->title);
    else
        fprintf(sc, "set title '%s'\n", p->title);
}

/* One data row: x lo y (mid). */
static void write_row(FILE *f, int range, double x, double lo, double y, double mid)
{
    if (range)
        fprintf(f, "%.10g %.10g %.10g %.10g\n", x, lo, y, mid);
    else
        fprintf(f, "%.10g %.10g %.10g\n", x, lo, y);
}

/* The rows between points j and j + 1 (both drawn, not across a break),
 * every dx apart: linear, or held from j for a step function.  A series
 * drawn as characters at its points looks like a line this way. */
static void write_between(FILE *f, const struct series *s, size_t j, double dx, int range)
{
    if (!(dx > 0) || j + 1 >= s->n || isnan(s->x[j + 1]))
        return;
    double x0 = s->x[j], x1 = s->x[j + 1], span = x1 - x0;
    int hold = s->style == PLOT_STEPS;
    double steps = ceil(span / dx - 0.5); /* the last row at least dx/2 before x1 */
    for (long i = 1; i < (long)steps; i++) {
        double x = x0 + (double)i * dx, u = hold ? 0 : (x - x0) / span;
#define LERP(v) ((v)[j] + u * ((v)[j + 1] - (v)[j]))
        write_row(f, range, x, LERP(s->lo), LERP(s->y), range ? LERP(s->mid) : 0);
#undef LERP
    }
    if (hold) /* the step's riser */
        write_row(f, range, x1, s->lo[j], s->y[j], range ? s->mid[j] : 0);
}

/* The series' data file: the name as header, then x lo y rows; a break
 * (plot_break) is a blank line, where gnuplot lifts the pen.  dx > 0 adds
 * rows every dx between the points (see write_between). */
static int write_data(const struct series *s, const char *path, double dx)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        slk_error("cannot write plot data: %s", strerror(errno));
        return -1;
    }
    int range = s->style == PLOT_RANGE;
    write_name(f, s->name, range);
    if (s->n == 0)
        fputs(range ? "? ? ? ?\n" : "? ? ?\n", f);  /* gnuplot refuses an empty file */
    for (size_t j = 0; j < s->n; j++) {
        if (isnan(s->x[j]))
            fputs("\n", f);
        else {
            write_row(f, range, s->x[j], s->lo[j], s->y[j], range ? s->mid[j] : 0);
            write_between(f, s, j, dx, range);
        }
    }
    /* a write that failed once (EIO, a moment of ENOSPC) shows in the error
     * flag only: fclose alone let a chart be drawn from the data before it */
    int bad = fflush(f) != 0 || ferror(f);
    int err = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    if (bad) {
        slk_error("cannot write plot data: %s", strerror(err));
        return -1;
    }
    return 0;
}

/* A text terminal draws a line in the character of its line type, and
 * gnuplot's dumb terminal has seven ("*#$%@&=", then lt 8 is '*' again).
 * The key series of a panel after those seven are drawn as characters of
 * their own at points every column or so (write_between), from DUMB_MARKS;
 * past all of them the marks repeat.  Untitled thin lines ("N more lines
 * not listed") are dotted, lt 0, like the grid behind them. */
#define DUMB_PENS 7
static const char DUMB_PEN_CHARS[] = "*#$%@&=";
static const char DUMB_MARKS[] = "ox~^?!;<>()[]{}ABCDEFGHJKLMNPQRSTUVWXYZ";

/* The character series number `mark` (0-based, among a panel's titled
 * series) is drawn with on a text terminal. */
static char dumb_char(int mark)
{
    return mark < DUMB_PENS ? DUMB_PEN_CHARS[mark]
                            : DUMB_MARKS[(mark - DUMB_PENS) % (int)(sizeof DUMB_MARKS - 1)];
}

/* "using ... with ..." of one series on a text terminal, which cannot fill
 * a band (every band would be the same 'X'): bands are drawn as their top
 * edge, a range as its middle line; mark as dumb_char, -1 untitled. */
static void series_style_dumb(FILE *sc, const struct series *s, int mark)
{
    const char *col = s->style == PLOT_RANGE ? "1:4" : "1:3";
    if (mark < 0)
        fprintf(sc, "using %s with lines lt 0", col);
    else if (s->style == PLOT_POINTS || mark >= DUMB_PENS)
        fprintf(sc, "using %s with points pt \"%c\"", col, dumb_char(mark));
    else
        fprintf(sc, "using %s with %s lt %d", col, s->style == PLOT_STEPS ? "steps" : "lines", mark + 1);
}

/* series_style: "using ... with ..." of series s on an image terminal,
 * in colour col; round > 0 when the
 * palette has come round that many times: its lines are dashed (dash type
 * 2-5), its points another shape and its bands hatched (a fill pattern),
 * so no two series of a key look alike (21 tenant classes drew five pairs
 * in one colour; 50 plan jobs, 16 colours three times). */
static void series_style(FILE *sc, const struct series *s, const char *path, const char *col, int round)
{
    static const int shapes[] = {7, 5, 9, 11, 13};
    /* gnuplot's fill patterns: hatches / and \, crosshatch, light / and
     * \, dense crosshatch (3 is solid, 0 empty) */
    static const int band_patterns[] = {4, 5, 1, 6, 7, 2};
    char dt[16] = "";
    if (round > 0)
        snprintf(dt, sizeof dt, " dt %d", 2 + (round - 1) % 4);
    int pt = shapes[round % 5];
    switch (s->style) {
    case PLOT_BAND: /* past the palette, hatched: a fill cannot be dashed */
        if (round > 0)
            fprintf(sc, "using 1:2:3 with filledcurves fs pattern %d noborder lc rgb '%s'",
                    band_patterns[(round - 1) % (int)(sizeof band_patterns / sizeof *band_patterns)], col);
        else
            fprintf(sc, "using 1:2:3 with filledcurves lc rgb '%s'", col);
        break;
    case PLOT_REST:
        fprintf(sc, "using 1:2:3 with filledcurves lc rgb '" REST_GREY "'");
        break;
    case PLOT_SHADE: fprintf(sc, "using 1:2:3 with filledcurves lc rgb '#b0c4de'"); break;
    case PLOT_RANGE: /* the band untitled, then its middle line (titled by the caller) */
        fprintf(sc,
                "using 1:2:3 with filledcurves fs transparent solid 0.2 noborder lc rgb '%s' notitle, \\\n"
                "    '%s' using 1:4 with lines lw 2%s lc rgb '%s'",
                col, path, dt, col);
        break;
    case PLOT_STEPS: fprintf(sc, "using 1:3 with steps lw 3 lc rgb '#000000'"); break;
    case PLOT_BOLD:
        fprintf(sc, "using 1:3 with lines lw 2.5%s lc rgb '%s'", dt, col);
        break;
    case PLOT_POINTS:
        fprintf(sc, "using 1:3 with points pt %d ps 0.5 lc rgb '%s'", pt, col);
        break;
    default: /* few points (days): marked, so a lone point is still seen */
        if (s->n < 60)
            fprintf(sc, "using 1:3 with linespoints pt %d ps 0.5 lw 1%s lc rgb '%s'", pt, dt, col);
        else
            fprintf(sc, "using 1:3 with lines lw 1%s lc rgb '%s'", dt, col);
        break;
    }
}

/* gnuplot lays out margins and keys in character cells: at the fonts
 * script_head sets, a cell is about CELL_W x CELL_H pixels (GPVAL_TERM_HCHAR
 * and _VCHAR over GPVAL_TERM_SCALE: pngcairo sans 10 8 x 15.5, svg sans 11
 * 7.7 x 16.5); on a text terminal it is one character. */
#define CELL_W 8.0
#define CELL_H 16.0
/* the left margin (y tic labels, y label) and the right one, in cells; with
 * no key beside the plot, the right one holds half a date label */
#define MARGIN_CELLS 16
#define RMARGIN_CELLS 6
/* the left margin of every panel of a chart of several (characters): room
 * for y tic labels of up to 8 characters ("-1.5e+06") and the y title, the
 * same in each panel so that their plot areas line up */
#define LMARGIN_CELLS 12
/* a key column: its longest title and this many cells (sample line, gaps;
 * gnuplot gave 25 titles of 35 characters two columns of 43 cells) */
#define KEY_COL_EXTRA 9
/* an image's key wider than this share of the chart goes below the plot */
#define KEY_BESIDE_MAX (1.0 / 3)
/* the lines a panel's height loses to the title, tic labels and x label */
#define PANEL_TEXT_ROWS 8
/* a date label's width ("2011-03-03"; "%H:%M" below it) and the gap after it */
#define LABEL_CELLS 12

/* panel_xrange: the smallest and largest x of panel k's points (lo > hi
 * when it has none) */
static void panel_xrange(const plot *p, size_t k, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < p->ns; i++)
        for (size_t j = 0; (size_t)p->s[i].panel == k && j < p->s[i].n; j++)
            if (!isnan(p->s[i].x[j])) {
                *lo = fmin(*lo, p->s[i].x[j]);
                *hi = fmax(*hi, p->s[i].x[j]);
            }
}

/* tic_width: the widest label ("%g") of the tics every step in [lo, hi]
 * (the first 100: a caller asks for a few) */
static size_t tic_width(double lo, double hi, double step)
{
    size_t w = 1;
    char label[64];
    double first = ceil(lo / step - 1e-9), count = floor(hi / step + 1e-9) - first + 1;
    for (int i = 0; i < 100 && i < count; i++) { /* counted: first + 1 == first past 2^53 */
        int n = snprintf(label, sizeof label, "%g", (first + i) * step + 0.0); /* + 0.0: no "-0" */
        w = n > 0 && (size_t)n > w ? (size_t)n : w;
    }
    return w;
}

/* A number x axis: tics every 1, 2 or 5 times a power of ten, the
 * smallest step whose labels ("%g") fit the plot area's width (plot_w
 * cells, what the key leaves) with two cells between them, at most 10
 * labels (8 on a text terminal): gnuplot's own choice ignored the width
 * ("0 5010150200250303500" on a 60-column text chart). */
static void number_axis(const plot *p, size_t k, int dumb, double plot_w, FILE *sc)
{
    double lo, hi;
    panel_xrange(p, k, &lo, &hi);
    fprintf(sc, "set xdata\nset format x '%%g'\n");
    double span = hi - lo, most = dumb ? 8 : 10;
    if (!(span > 0) || !isfinite(span)) { /* no points or a single x: gnuplot's choice */
        fprintf(sc, "set xtics autofreq norotate\n");
        return;
    }
    double mag = pow(10, floor(log10(span / most))), step = 0;
    for (int i = 0; step == 0 && i < 60; i++) {
        double m = (i % 3 == 0 ? 1 : i % 3 == 1 ? 2 : 5) * mag * pow(10, i / 3);
        if (!isfinite(m) || !(m > 0))
            break;
        if (span / m <= most && m * fmax(plot_w, 1) / span >= (double)tic_width(lo, hi, m) + 2)
            step = m;
    }
    if (step > 0)
        fprintf(sc, "set xtics %.10g norotate\n", step);
    else
        fprintf(sc, "set xtics autofreq norotate\n");
}

/* An epoch x axis: dates, with a tic interval from a fixed ladder so that
 * the labels fit the plot area's width (plot_w cells, what the key leaves:
 * 25 tenant classes beside the plot left it a third of the chart, and the
 * labels of 8 tics ran into each other), at most about 8 labels (5 on a
 * text terminal), and a date-only format for whole days. */
static void epoch_axis(const plot *p, size_t k, int dumb, double plot_w, FILE *sc)
{
    static const double ladder[] = {60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600,
                                    86400, 2 * 86400, 7 * 86400, 14 * 86400, 28 * 86400,
                                    91 * 86400, 364 * 86400};
    double lo, hi;
    panel_xrange(p, k, &lo, &hi);
    double span = hi > lo ? hi - lo : 0, labels = plot_w / LABEL_CELLS;
    if (labels > (dumb ? 5 : 8))
        labels = dumb ? 5 : 8;
    double want = span > 0 ? span / fmax(labels, 1) : 0, step = 0;
    for (size_t i = 0; i < sizeof ladder / sizeof *ladder && step == 0; i++)
        if (ladder[i] >= want)
            step = ladder[i];
    fprintf(sc, "set xdata time\nset timefmt '%%s'\n");
    if (step == 0 || want == 0) /* beyond years or a single time: gnuplot's choice */
        fprintf(sc, "set format x \"%%Y-%%m-%%d\\n%%H:%%M\"\nset xtics norotate\n");
    else
        fprintf(sc, "set format x \"%s\"\nset xtics %.0f norotate\n",
                step >= 86400 ? "%Y-%m-%d" : dumb ? "%d %H:%M" : "%Y-%m-%d\\n%H:%M", step);
}

/* on a text terminal, a key of more entries than this goes below the plot */
#define DUMB_KEY_BESIDE 4

/* the thin lines of panel k, and how many of them go untitled (the cap) */
static int panel_lines(const plot *p, size_t k, int dumb, int *untitled)
{
    int nlines = 0, cap = dumb ? PLOT_KEY_MAX_DUMB : PLOT_KEY_MAX;
    for (size_t i = 0; i < p->ns; i++)
        nlines += (size_t)p->s[i].panel == k && p->s[i].style == PLOT_LINES;
    *untitled = nlines > cap + 1 ? nlines - cap : 0;
    return nlines;
}

/* by_rank: thin lines (indices into the series ctx) by rank, highest
 * first, ties by name in its natural order (strverscmp: vc2 before vc10),
 * then in the order they were added */
static int by_rank(const void *a, const void *b, void *ctx)
{
    const struct series *s = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (s[i].rank != s[j].rank)
        return s[i].rank > s[j].rank ? -1 : 1;
    int c = strverscmp(s[i].name, s[j].name);
    return c ? c : (i > j) - (i < j);
}

/* mark_titled: which series of panel k its key names (titled) and the
 * thin lines' order (keypos): every series but thin lines; of the thin
 * lines, all when they fit the cap, else the cap's number of the highest
 * rank (plot_rank, else the peak: the largest y), ordered by rank. */
static void mark_titled(plot *p, size_t k, int dumb)
{
    int untitled, nlines = panel_lines(p, k, dumb, &untitled);
    size_t *line = xmalloc(((size_t)nlines + 1) * sizeof *line), m = 0;
    for (size_t i = 0; i < p->ns; i++) {
        struct series *s = &p->s[i];
        if ((size_t)s->panel != k)
            continue;
        s->titled = 1;
        if (s->style != PLOT_LINES)
            continue;
        if (!s->ranked) {
            s->rank = -INFINITY;
            for (size_t j = 0; j < s->n; j++)
                if (!isnan(s->x[j]))
                    s->rank = fmax(s->rank, s->y[j]);
        }
        line[m++] = i;
    }
    if (untitled)
        qsort_r(line, m, sizeof *line, by_rank, p->s);
    for (size_t q = 0; q < m; q++) {
        p->s[line[q]].keypos = q;
        p->s[line[q]].titled = (int)q < nlines - untitled;
    }
    free(line);
}

/* panel_order: the series of panel k in the order they are drawn into
 * order[], their count: as added, but the thin lines together where the
 * first one is, those left out of the key first (under the named ones),
 * then the named ones by keypos (0, 1, ...: mark_titled), as the key lists
 * them. */
static size_t panel_order(const plot *p, size_t k, size_t *order)
{
    size_t n = 0;
    int placed = 0;
    for (size_t i = 0; i < p->ns; i++) {
        const struct series *s = &p->s[i];
        if ((size_t)s->panel != k || (s->style == PLOT_LINES && placed))
            continue;
        if (s->style != PLOT_LINES) {
            order[n++] = i;
            continue;
        }
        placed = 1;
        for (size_t j = 0; j < p->ns; j++) /* untitled */
            if ((size_t)p->s[j].panel == k && p->s[j].style == PLOT_LINES && !p->s[j].titled)
                order[n++] = j;
        size_t t0 = n;
        for (size_t j = 0; j < p->ns; j++)
            if ((size_t)p->s[j].panel == k && p->s[j].style == PLOT_LINES && p->s[j].titled) {
                order[t0 + p->s[j].keypos] = j;
                n++;
            }
    }
    return n;
}

/* the key entries of panel k: every summary series, thin lines up to the
 * cap (mark_titled), and the key's own title when it counts the others
 * ("(N more lines not listed)"); *maxlen: the longest of them */
static int key_entries(const plot *p, size_t k, int dumb, size_t *maxlen)
{
    int untitled, n = 0;
    panel_lines(p, k, dumb, &untitled);
    *maxlen = untitled ? sizeof "(99999 more lines not listed)" - 1 : 0;
    for (size_t i = 0; i < p->ns; i++)
        if ((size_t)p->s[i].panel == k && p->s[i].titled) {
            n++;
            *maxlen = strlen(p->s[i].name) > *maxlen ? strlen(p->s[i].name) : *maxlen;
        }
    return n + (untitled > 0);
}

/* key_layout: where panel k's key goes in a chart of width x height
 * (pixels, or characters on a text terminal; height before any key below
 * adds to it).  A text terminal's key of more than DUMB_KEY_BESIDE entries
 * goes below (two a row); an image's goes below when beside the plot it
 * would take more than KEY_BESIDE_MAX of the width (its columns as many as
 * the panel's height needs).  below: a text terminal's key goes below
 * whatever its length (once another panel's does). */
static void key_layout(const plot *p, size_t k, int dumb, int below, int width, int height,
                       struct key_layout *kl)
{
    size_t maxlen;
    int n = key_entries(p, k, dumb, &maxlen);
    double cells = width / (dumb ? 1 : CELL_W), colw = (double)maxlen + KEY_COL_EXTRA;
    *kl = (struct key_layout){.cols = 1, .rows = n};
    if (dumb) {
        kl->below = n > 0 && (below || n > DUMB_KEY_BESIDE);
        if (kl->below)
            *kl = (struct key_layout){.below = 1, .cols = 2, .rows = (n + 1) / 2};
    } else if (n > 0) {
        double rows = height / (p->npanels ? (double)p->npanels : 1) / CELL_H - PANEL_TEXT_ROWS;
        int fit = rows >= 1 ? (int)rows : 1;
        kl->cols = (n + fit - 1) / fit;
        kl->rows = (n + kl->cols - 1) / kl->cols;
        if (kl->cols * colw > KEY_BESIDE_MAX * cells) {
            kl->below = 1;
            kl->cols = cells - MARGIN_CELLS >= colw ? (int)((cells - MARGIN_CELLS) / colw) : 1;
            kl->rows = (n + kl->cols - 1) / kl->cols;
        }
    }
    kl->key_w = kl->below || n == 0 ? 0 : kl->cols * colw;
    kl->plot_w = cells - MARGIN_CELLS - kl->key_w;
}

/* align_keys: a chart's panels all end where the widest key beside a plot
 * begins, so that stacked time axes line up (each panel's plot_w the
 * same); the right margin in character cells, 0 when no panel has a key
 * beside it (or there is one panel: nothing to line up) */
static double align_keys(plot *p, int dumb, int width)
{
    double w = 0, cells = width / (dumb ? 1 : CELL_W);
    for (size_t k = 0; p->npanels > 1 && k < p->npanels; k++)
        w = fmax(w, p->keys[k].key_w);
    for (size_t k = 0; w > 0 && k < p->npanels; k++)
        p->keys[k].plot_w = cells - MARGIN_CELLS - w;
    return w;
}

/* y_range: panel k's y range: from 0 (or its smallest value) with
 * plot_yzero, else gnuplot's autoscale (set again: a range of the panel
 * before stays set in a multiplot) */
static void y_range(const plot *p, size_t k, FILE *sc)
{
    if (!p->panels[k].yzero) {
        fprintf(sc, "set autoscale y\n");
        return;
    }
    double lo = 0;
    for (size_t i = 0; i < p->ns; i++)
        for (size_t j = 0; (size_t)p->s[i].panel == k && j < p->s[i].n; j++)
            if (!isnan(p->s[i].x[j]))
                lo = fmin(lo, fmin(p->s[i].y[j], p->s[i].lo[j]));
    fprintf(sc, "set yrange [%.10g:*]\n", lo);
}

/* One panel: axes, key placement, and its series (titles capped). */
static int write_panel(const plot *p, size_t k, const char *dir, int dumb, int width, FILE *sc)
{
    const struct panel *pn = &p->panels[k];
    const struct key_layout *kl = &p->keys[k];
    /* thin lines beyond the cap go untitled; the summary series keep theirs */
    int untitled;
    panel_lines(p, k, dumb, &untitled);
    if (untitled) /* digits only: safe in the script */
        fprintf(sc, "set key title '(%d more lines not listed)'\n", untitled);
    else
        fprintf(sc, "set key title ''\n");
    fprintf(sc, "set xlabel '%s'\n", pn->xlabel);
    /* a text terminal writes the y title across, left of the tic labels,
     * and drops one that does not fit there ("mean stretch" beside "3.5"
     * in a 12-character margin): it goes in a row of its own above the
     * panel's frame instead (plot_render grows the chart by it), from the
     * first column, whatever its length */
    if (dumb)
        fprintf(sc, "set ylabel ''\nset tmargin 2\nset label 1 '%s' at screen 0, graph 1 left offset 0,1\n",
                pn->ylabel);
    else
        fprintf(sc, "set ylabel '%s'\n", pn->ylabel);
    y_range(p, k, sc);
    /* a long key goes below the plot, not beside it (key_layout) */
    if (kl->below && dumb) /* width 1: a space between an entry's sample and the next title */
        fprintf(sc, "set key below horizontal noenhanced width 1\n");
    else if (kl->below)
        fprintf(sc, "set key below horizontal maxcols %d maxrows auto noenhanced\n", kl->cols);
    else
        fprintf(sc, "set key outside right top vertical maxcols auto maxrows %d noenhanced\n",
                kl->rows > 0 ? kl->rows : 1);
    if (p->npanels > 1)
        fprintf(sc, "set lmargin %d\n", LMARGIN_CELLS);
    if (p->key_align > 0) /* the panels line up (align_keys) */
        fprintf(sc, "set rmargin at screen %.4f\n", 1 - (p->key_align + 1) * (dumb ? 1 : CELL_W) / width);
    else if (kl->below)
        fprintf(sc, "set rmargin %d\n", RMARGIN_CELLS);
    else
        fprintf(sc, "set rmargin -1\n");
    if (pn->xkind == PLOT_X_EPOCH)
        epoch_axis(p, k, dumb, kl->plot_w, sc);
    else
        number_axis(p, k, dumb, kl->plot_w, sc);
    /* points every half column of a text chart's x range, for the series
     * drawn as characters at points */
    double xlo, xhi;
    panel_xrange(p, k, &xlo, &xhi);
    double dx = xhi > xlo ? (xhi - xlo) / (2.0 * (width > 10 ? width : 10)) : 0;
    int first = 1, color = 0, marks = 0;
    size_t *order = xmalloc((p->ns + 1) * sizeof *order), norder = panel_order(p, k, order);
    for (size_t o = 0; o < norder; o++) {
        size_t i = order[o];
        const struct series *s = &p->s[i];
        int titled = s->titled, mark = titled ? marks++ : -1;
        char name[64], path[PATH_MAX];
        snprintf(name, sizeof name, SERIES_PREFIX "%zu" SERIES_SUFFIX, i);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        int dense = dumb && mark >= DUMB_PENS && s->style != PLOT_POINTS;
        if (write_data(s, path, dense ? dx : 0) < 0) {
            free(order);
            return -1;
        }
        /* the lines the key leaves out: light grey, like one another */
        size_t npal = sizeof palette / sizeof *palette;
        int round = titled && s->style != PLOT_REST ? (int)((size_t)color / npal) : 0;
        const char *col = !titled                 ? UNNAMED_GREY
                          : s->style == PLOT_REST ? REST_GREY
                                                  : palette[(size_t)color++ % npal];
        fprintf(sc, "%s '%s' ", first ? "plot" : ", \\\n    ", name);
        if (dumb)
            series_style_dumb(sc, s, mark);
        else
            series_style(sc, s, name, col, round);
        fprintf(sc, titled ? " title columnheader(1)" : " notitle");
        first = 0;
    }
    free(order);
    if (first) /* an empty panel (a column with no values): gnuplot needs a y range */
        fprintf(sc, "set yrange [0:1]\nplot NaN notitle");
    fprintf(sc, "\n");
    return 0;
}

static int write_script(plot *p, const char *dir, const char *term, int w, int h, FILE *sc)
{
    int dumb = strcmp(term, "dumb") == 0;
    script_head(p, term, w, h, sc);
    for (size_t k = 0; k < p->npanels; k++)
        if (write_panel(p, k, dir, dumb, w, sc) < 0)
            return -1;
    if (p->npanels > 1)
        fprintf(sc, "unset multiplot\n");
    return 0;
}

/* save_script: the gnuplot script and its data files into dir; prints why
 * on failure (a full TMPDIR too: the script is checked when closed). */
static int save_script(plot *p, const char *dir, const char *script, const char *term, int width, int height)
{
    FILE *sc = fopen(script, "w");
    if (!sc) {
        slk_error("cannot write the gnuplot script %s: %s", script, strerror(errno));
        return -1;
    }
    if (write_script(p, dir, term, width, height, sc) < 0) {
        fclose(sc);
        return -1;
    }
    if (ferror(sc) | (fclose(sc) != 0)) {
        slk_error("cannot write the gnuplot script %s: %s", script, strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- Killed while drawing --------------------------------------------------
 * SIGHUP, SIGINT or SIGTERM while plot_render holds its temporary directory
 * (the whole chart's data) must not leave it behind.  The handler does only
 * what is async-signal-safe: it passes the signal on to gnuplot, unlinks
 * the directory's fixed file names and removes it, then restores the
 * signal's previous action (the default, or outfile's handler for -o FILE)
 * and raises the signal again, so the process still ends as killed by it
 * (exit 143 in a shell for SIGTERM).  A signal the process was
 * started ignoring (nohup, a background job's SIGINT) stays ignored.  The
 * state is process-wide, as a handler's must be: one plot_render at a time. */
static const int guard_sigs[] = {SIGHUP, SIGINT, SIGTERM};
#define NGUARD (sizeof guard_sigs / sizeof *guard_sigs)
static struct {
    char dir[DIR_MAX];
    size_t nseries;                 /* series files s0.dat .. s<nseries-1>.dat */
    volatile sig_atomic_t live;     /* dir exists and is ours to remove */
    volatile pid_t child;           /* gnuplot while it runs (set with the signals blocked) */
    struct sigaction old[NGUARD];
    int installed[NGUARD];
} guard;

/* guard_unlink: unlink dir/PREFIX[num]SUFFIX (num < 0: no number), with
 * nothing but async-signal-safe code (no snprintf). */
static void guard_unlink(const char *prefix, long num, const char *suffix)
{
    char path[sizeof guard.dir + 64];
    size_t n = 0;
    for (const char *c = guard.dir; *c; c++) /* NUL-terminated within its size */
        path[n++] = *c;
    path[n++] = '/';
    for (const char *c = prefix; *c; c++)
        path[n++] = *c;
    if (num >= 0) {
        size_t w = 1;
        for (long v = num; v >= 10; v /= 10)
            w++;
        for (size_t k = w; k > 0; k--, num /= 10)
            path[n + k - 1] = (char)('0' + num % 10);
        n += w;
    }
    for (const char *c = suffix; *c; c++)
        path[n++] = *c;
    path[n] = 0;
    unlink(path);
}

/* guard_handler: clean up, then the action the signal had before (the
 * default, or outfile's handler, which removes -o FILE's temporary and then
 * ends the process the same way) and the signal again, delivered when this
 * handler returns. */
static void guard_handler(int sig)
{
    if (guard.live) {
        guard.live = 0;
        if (guard.child > 0)
            kill(guard.child, sig);
        for (size_t i = 0; i < guard.nseries; i++)
            guard_unlink(SERIES_PREFIX, (long)i, SERIES_SUFFIX);
        guard_unlink(SCRIPT_NAME, -1, "");
        guard_unlink(ERR_NAME, -1, "");
        rmdir(guard.dir);
    }
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    sigemptyset(&dfl.sa_mask);
    const struct sigaction *next = &dfl;
    for (size_t i = 0; i < NGUARD; i++)
        if (guard_sigs[i] == sig && guard.old[i].sa_handler != guard_handler)
            next = &guard.old[i];
    sigaction(sig, next, NULL);
    raise(sig);
}

/* guard_block / guard_unblock: hold the guarded signals off around a change
 * of the guard's state (mkdtemp and arming it, fork, disarming). */
static void guard_block(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < NGUARD; i++)
        sigaddset(&set, guard_sigs[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

static void guard_unblock(const sigset_t *old)
{
    sigprocmask(SIG_SETMASK, old, NULL);
}

/* guard_arm: the handler owns dir (with nseries series files) from now on.
 * Call with the signals blocked, right after mkdtemp. */
static void guard_arm(const char *dir, size_t nseries)
{
    snprintf(guard.dir, sizeof guard.dir, "%s", dir);
    guard.nseries = nseries;
    guard.child = 0;
    guard.live = 1;
    struct sigaction sa = {.sa_handler = guard_handler};
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NGUARD; i++)
        sigaddset(&sa.sa_mask, guard_sigs[i]);
    for (size_t i = 0; i < NGUARD; i++) {
        sigaction(guard_sigs[i], NULL, &guard.old[i]);
        guard.installed[i] = guard.old[i].sa_handler != SIG_IGN;
        if (guard.installed[i])
            sigaction(guard_sigs[i], &sa, NULL);
    }
}

/* guard_child: in gnuplot's process (forked with the signals blocked): the
 * default actions back before they are unblocked, so the handler never runs
 * there. */
static void guard_child(void)
{
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    sigemptyset(&dfl.sa_mask);
    for (size_t i = 0; i < NGUARD; i++)
        if (guard.live && guard.installed[i])
            sigaction(guard_sigs[i], &dfl, NULL);
}

/* guard_disarm: the directory is gone (or kept): the old actions back. */
static void guard_disarm(void)
{
    sigset_t om;
    guard_block(&om);
    if (guard.live)
        for (size_t i = 0; i < NGUARD; i++)
            if (guard.installed[i])
                sigaction(guard_sigs[i], &guard.old[i], NULL);
    guard.live = 0;
    guard.child = 0;
    guard_unblock(&om);
}

/* gnuplot_failed: the message for a gnuplot that did not exit 0 (the first
 * error or warning line it printed into errf). */
static void gnuplot_failed(int ws, const char *errf)
{
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127) {
        slk_error("gnuplot not found (install it: apt-get install gnuplot-nox)");
        return;
    }
    /* the first error or warning line, else the last non-blank one (gnuplot
     * ends its message with a blank line: that was reported as none) */
    char line[512] = "", last[512] = "";
    FILE *e = fopen(errf, "r");
    if (e) {
        while (fgets(line, sizeof line, e)) {
            line[strcspn(line, "\n")] = 0;
            if (strstr(line, "rror") || strstr(line, "arning"))
                break;
            if (line[strspn(line, " \t\r^")])
                snprintf(last, sizeof last, "%s", line);
            line[0] = 0;
        }
        fclose(e);
    }
    const char *m = line[0] ? line : last;
    slk_error("gnuplot failed: %s", m[0] ? m : "no message");
}

/* run_gnuplot: gnuplot on script, its image read from a pipe straight into
 * out (no temporary image: a full TMPDIR cannot truncate it unseen); its
 * stderr into errf.  A write error on out is kept in *werr (errno) while
 * the pipe is drained to the end.  Returns SLK_OK or an exit status
 * (printed) when gnuplot cannot start or fails. */
static int run_gnuplot(const char *dir, const char *script, const char *errf, FILE *out, int *werr)
{
    int fds[2];
    if (pipe(fds) < 0) {
        slk_error("cannot start gnuplot: %s", strerror(errno));
        return SLK_ESOFTWARE;
    }
    sigset_t om;
    guard_block(&om);
    pid_t pid = fork();
    if (pid < 0) {
        guard_unblock(&om);
        slk_error("cannot start gnuplot: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return SLK_ESOFTWARE;
    }
    if (pid == 0) {
        guard_child();
        guard_unblock(&om);
        close(fds[0]);
        if (dup2(fds[1], STDOUT_FILENO) < 0)
            _exit(126);
        close(fds[1]);
        signal(SIGPIPE, SIG_DFL); /* the parent ignores it while drawing */
        FILE *e = freopen(errf, "w", stderr);
        (void)e;
        if (chdir(dir) < 0) /* the script names its data files in dir */
            _exit(126);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    guard.child = pid;
    guard_unblock(&om);
    close(fds[1]);
    char buf[1 << 16];
    ssize_t n;
    *werr = 0;
    while ((n = read(fds[0], buf, sizeof buf)) != 0) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            *werr = *werr ? *werr : errno;
            break;
        }
        if (!*werr && fwrite(buf, 1, (size_t)n, out) != (size_t)n)
            *werr = errno ? errno : EIO;
    }
    close(fds[0]);
    /* wait without reaping first: the handler must not signal a reaped
     * (and maybe reused) process id */
    siginfo_t si;
    while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
        ;
    guard.child = 0;
    int ws;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        gnuplot_failed(ws, errf);
        return SLK_ESOFTWARE;
    }
    return SLK_OK;
}

int plot_render(plot *p, const char *term, int width, int height, FILE *out)
{
    int dumb = strcmp(term, "dumb") == 0;
    if (width <= 0)
        width = dumb ? PLOT_WIDTH_DUMB : PLOT_WIDTH;
    if (height <= 0)
        height = dumb ? (int)(12 * (p->npanels ? p->npanels : 1) + 4) : (int)(420 * (p->npanels ? p->npanels : 1) + 60);
    /* room for the keys below their plots: on a text terminal, their rows;
     * an image's panels share the height equally, so each gets the rows of
     * the largest key */
    free(p->keys);
    p->keys = xcalloc(p->npanels ? p->npanels : 1, sizeof *p->keys);
    int grow = 0, below = 0;
    for (size_t k = 0; k < p->npanels; k++) {
        mark_titled(p, k, dumb);
        key_layout(p, k, dumb, 0, width, height, &p->keys[k]);
        below |= p->keys[k].below;
    }
    for (size_t k = 0; k < p->npanels; k++) {
        /* a text chart's keys all go below once one does: its stacked
         * axes line up without a margin of blanks beside every panel */
        if (dumb && below && !p->keys[k].below)
            key_layout(p, k, dumb, 1, width, height, &p->keys[k]);
        if (p->keys[k].below && dumb)
            grow += p->keys[k].rows;
        else if (p->keys[k].below && (p->keys[k].rows + 1) * (int)CELL_H > grow)
            grow = (p->keys[k].rows + 1) * (int)CELL_H;
    }
    if (dumb && p->npanels > 1) /* each panel's y title row (write_panel); one panel's takes a
                                 * row of the three above it that held the title */
        grow += (int)p->npanels;
    height += dumb ? grow : grow * (int)p->npanels;
    p->key_align = align_keys(p, dumb, width);
    const char *tmp = getenv("TMPDIR");
    tmp = tmp && *tmp ? tmp : "/tmp";
    char dir[DIR_MAX];
    int keep = getenv("SKYPLOT_KEEP") != NULL;
    if (strlen(tmp) + sizeof "/.skyplot" OUTF_TMP_MARK "XXXXXX" > sizeof dir) {
        slk_error("TMPDIR is %zu bytes long, too long for a work directory in it (at most %zu): %.60s...",
                  strlen(tmp), sizeof dir - sizeof "/.skyplot" OUTF_TMP_MARK "XXXXXX", tmp);
        return SLK_ECANTCREAT;
    }
    /* a kept directory (to debug a chart) is not named as a temporary: no
     * later run sweeps it; the others are, and their flock (held until they
     * are removed) tells a later run's outf_sweep_stale that they are live */
    if (keep)
        snprintf(dir, sizeof dir, "%s/skyplot.kept.XXXXXX", tmp);
    else
        snprintf(dir, sizeof dir, "%s/.skyplot" OUTF_TMP_MARK "XXXXXX", tmp);
    outf_sweep_stale(tmp);
    sigset_t om;
    guard_block(&om);
    if (!mkdtemp(dir)) {
        int e = errno;
        guard_unblock(&om);
        slk_error("%s: cannot make a temporary directory in it (TMPDIR): %s", tmp, strerror(e));
        return SLK_ECANTCREAT;
    }
    int lockfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (lockfd >= 0)
        (void)flock(lockfd, LOCK_EX | LOCK_NB);
    if (!keep) /* kept on purpose: a killed run keeps it too */
        guard_arm(dir, p->ns);
    guard_unblock(&om);
    char script[PATH_MAX], errf[PATH_MAX];
    snprintf(script, sizeof script, "%s/" SCRIPT_NAME, dir);
    snprintf(errf, sizeof errf, "%s/" ERR_NAME, dir);
    int werr = 0;
    /* a reader that goes away (skyplot ... | head) must not kill us before
     * the temporary directory (the whole chart's data) is removed: SIGPIPE
     * is ignored while drawing and raised again once it is gone */
    struct sigaction ign = {.sa_handler = SIG_IGN}, old;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old);
    int status = save_script(p, dir, script, term, width, height) < 0
                     ? SLK_ECANTCREAT
                     : run_gnuplot(dir, script, errf, out, &werr);
    if (keep)
        fprintf(stderr, "%s: kept the gnuplot script and data in %s\n", slk_progname, dir);
    else
        rm_tree(dir);
    if (lockfd >= 0)
        close(lockfd);
    guard_disarm();
    sigaction(SIGPIPE, &old, NULL);
    if (status == SLK_OK && werr == EPIPE && old.sa_handler == SIG_DFL)
        raise(SIGPIPE); /* ends here, as every tool does on a closed pipe */
    if (status == SLK_OK && werr) {
        errno = werr;
        return SLK_EIO;
    }
    return status;
}
