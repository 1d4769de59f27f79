/* plot — charts drawn by gnuplot, for skyplot(1).
 *
 * A plot is one or more panels stacked vertically; each panel holds series of
 * (x, y) points (or (x, ylow, yhigh) bands for stacked areas).  plot_render
 * writes every series to its own data file in a private temporary directory,
 * writes a gnuplot script, runs gnuplot and copies the image to `out`.
 *
 * Safety: text that comes from user data (series names: job, tenant, VC
 * names) is never put in the gnuplot script.  It goes into the first line of
 * the series' data file and is shown through `title columnheader(1)`, which
 * gnuplot reads as data, never as commands.  The only user-influenced text in
 * the script, the chart title, is reduced to letters, digits and harmless
 * punctuation first.  So a job named `"; system "rm -rf ~` is just a name.
 *
 * Legends: a panel shows at most PLOT_KEY_MAX thin lines (PLOT_KEY_MAX_DUMB
 * on a text terminal), those of the highest rank (plot_rank: by default
 * the largest peak) when there are more, plus every summary series; the
 * lines left out are drawn first, under the named ones; beside the plot, or below
 * it (the chart grows to make room) when beside it would take more than a
 * third of an image's width, or on a text terminal when there are more
 * than four entries; a text terminal draws every titled series of a panel
 * with its own character (bands as their top edge, PLOT_RANGE as its middle
 * line): seven line characters, then characters at points every half
 * column; untitled lines dotted; a panel's y title stands in the row
 * above its frame (gnuplot's dumb terminal drops one that does not fit
 * left of the tic labels).
 * Colours: a panel's named series take the palette's 16 colours in turn
 * (none of them grey: grey is the rest of a stack, PLOT_REST, and the lines
 * a key leaves out); past 16, lines are dashed and bands hatched (fill
 * patterns), so no two key entries of a panel look alike (up to 80 lines,
 * 112 bands).
 * Panels line up: the same left margin, and each plot area ends where the
 * widest key beside a plot begins; on a text terminal, every key goes
 * below once one does.
 * Epoch x axes are labelled with UTC dates (and times when the tics are
 * less than a day apart), at most about 8 labels (5 on a text terminal),
 * fewer when the plot area the key leaves is too narrow for them.  Every x
 * axis spans its panel's data exactly (gnuplot's autoscale xfix).
 *
 * Ownership: the plot copies every string it is given and owns its points.
 * Not shared between threads; plot_render installs process-wide signal
 * handlers while it draws, so only one may run at a time in a process.
 */
#ifndef SLOKIT_PLOT_H
#define SLOKIT_PLOT_H

#include <stdio.h>

typedef struct plot plot;

enum plot_style {
    PLOT_LINES, /* thin lines */
    PLOT_BOLD,  /* thick lines, drawn on top */
    PLOT_STEPS, /* thick step function (a skyline): value holds until the next x */
    PLOT_BAND,  /* filled band between ylow and y (stacked areas) */
    PLOT_POINTS,
    PLOT_SHADE, /* a light filled band between ylow and y (a percentile range) */
    PLOT_RANGE, /* a band and its middle line in one colour, one key entry
                   * (a class's percentiles): points from plot_range */
    PLOT_REST   /* a PLOT_BAND in a grey no other series has: the rest of
                   * a stack ("other") */
};

/* At most this many key entries per panel (the rest are drawn untitled and
 * counted as "... and N more"); fewer on a text terminal. */
#define PLOT_KEY_MAX 12
#define PLOT_KEY_MAX_DUMB 6

/* The width plot_render draws at when given 0: pixels (svg, png) and
 * characters (dumb). */
#define PLOT_WIDTH 1100
#define PLOT_WIDTH_DUMB 120

enum plot_xkind {
    PLOT_X_NUMBER,   /* plain numbers */
    PLOT_X_EPOCH     /* epoch seconds, shown as dates/times (UTC) */
};

/* plot_new: an empty plot with a chart title (sanitized, may be NULL). */
plot *plot_new(const char *title);
void plot_free(plot *p);

/* plot_panel: start a new panel below the previous ones; later series go in it. */
void plot_panel(plot *p, const char *xlabel, const char *ylabel, enum plot_xkind xkind);

/* plot_yzero: the current panel's y axis starts at 0 (or lower, at the
 * smallest value drawn), not where gnuplot's autoscale would: for
 * quantities whose heights are compared (memory: 6400 MB must not look 4
 * times 3800). */
void plot_yzero(plot *p);

/* plot_series: add a series to the current panel (creating a panel if none);
 * returns its index for plot_point. */
int plot_series(plot *p, const char *name, enum plot_style style);

/* plot_point: append (x, y) to series s; non-finite values are skipped. */
void plot_point(plot *p, int s, double x, double y);
/* plot_break: lift the pen: no line (or fill) joins the points before and
 * after (a gap in the data).  Nothing happens on an empty series. */
void plot_break(plot *p, int s);
/* plot_band: append (x, ylow, yhigh) to a PLOT_BAND, PLOT_REST or PLOT_SHADE series. */
void plot_band(plot *p, int s, double x, double ylow, double yhigh);

/* plot_range: append (x, low, middle, high) to a PLOT_RANGE series: the band
 * low-high is filled lightly and middle drawn as a line over it, both in the
 * series' colour (a text terminal draws the middle line only). */
void plot_range(plot *p, int s, double x, double low, double mid, double high);

/* plot_rank: series s's rank for the key (default: its peak, the largest
 * y): when a panel has more thin lines than its key names, the key names
 * those of the highest rank (ties in the natural order of their names,
 * strverscmp), highest first; the others are
 * drawn first, under them, in light grey (dotted on a text terminal). */
void plot_rank(plot *p, int s, double rank);

/* plot_nseries: total series over all panels (what the chart will draw). */
int plot_nseries(const plot *p);

/* plot_render: draw with gnuplot.  term is "svg", "png" or "dumb"; width and
 * height are pixels (svg, png) or characters (dumb); 0 picks a default.
 * Returns SLK_OK, or SLK_ESOFTWARE with a message when gnuplot is missing or
 * fails, SLK_ECANTCREAT with a message when the temporary script cannot be
 * written, SLK_EIO when writing `out` fails: then nothing is printed (plot
 * does not know out's name) and errno says why, for the caller's message
 * (skyplot: "FILE: write error: why").  gnuplot's image comes through a
 * pipe, never a temporary file.  With SKYPLOT_KEEP set in the
 * environment the temporary directory (plot.gp and the data) is kept and
 * named on stderr, to debug a chart or to run gnuplot on it alone.  A
 * closed pipe on out (EPIPE) removes the temporary directory, then raises
 * SIGPIPE when its action is the default (the process ends as killed by it).
 * While it draws, SIGHUP, SIGINT and SIGTERM (unless ignored) are caught by
 * a handler that removes the directory, passes the signal on to gnuplot and
 * raises it again with its default action; the old actions are back when
 * plot_render returns.  One plot_render at a time per process. */
int plot_render(plot *p, const char *term, int width, int height, FILE *out);

#endif
