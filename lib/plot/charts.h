/* charts — skyplot's charts, built from the toolkit's CSV files into a plot
 * (lib/plot/plot draws it with gnuplot).
 *
 *   skyline  usage (job,run,t,containers): each run aligned at its start;
 *            with more than `runs` runs their 10-90% band and median per
 *            step (runband: the runs' sample step, else the fit's step,
 *            else 60 s), plus the latest `runs` runs by name and the
 *            fitted skyline (--fit: job,[step,]offset,alloc) as steps.
 *   plan     a plan (job,t,containers): the `top` largest jobs (or, with
 *            --by, groups: the values of up to 4 columns, kind say) by area
 *            stacked, the rest as "other (M more)"; with --load (t,cost) a
 *            cost panel.
 *   tenants  utilization (tenant,t,util) joined with --classes
 *            (tenant,class): per class, per time bin, the 10th-90th
 *            percentile band over its tenants and their median, one colour
 *            and one legend entry per class ("class K (N tenants)"), the
 *            classes in their names' natural order (strverscmp); past 8
 *            classes of 2 to 6 patterns (a name up to a final -N) a panel
 *            per pattern, and at most 8 classes a panel (a pattern of more
 *            cut in order, as long as that makes at most 8 panels).  The
 *            bin is the median gap between a tenant's samples, or 1/500 of
 *            the time span when that is longer (a week of 2-minute samples:
 *            20-minute bins), from the first sample; a tenant's samples in
 *            one bin are averaged first.  A file is binned as it is read
 *            (plot/tenantbins: two passes); standard input, a pipe or a
 *            tenant's times going back are held and sorted.
 *   vcs, memory, lines   x against y columns, one series per --by value
 *            (up to 4 columns), optionally one panel per y column; memory
 *            knows peakgate's key and memory columns (chart_memory).
 *            A series of more points than o->columns keeps, per column of
 *            its panel's x range and per stretch between gaps, its first,
 *            lowest, highest and last point (M4); fewer points: all.
 *            A file is thinned as it is read (plot/linebins: two passes);
 *            standard input, a pipe or a series' x going back are held.
 * Every chart's times: epoch times (> 1e9 s, after 2001) are drawn as UTC
 * dates, smaller ones as offsets from time 0 in a unit the axis title
 * names (plan, tenants: hours; a day column: days; lines and memory: a t
 * or offset column "(s)"); a step more than 3 times a series' usual step
 * is a gap (the pen is lifted).  The memory chart's y axis starts at 0,
 * titled "memory (MB)" for *_mb columns; lines' is titled by its y
 * column when there is one; in a panel of several y columns, a column
 * drawn the same for every --by value is one series named by it.
 *
 * Errors are printed ("tool: FILE:LINE: ...") and returned as exit statuses
 * (base/diag.h); bad rows follow each dialect's rejects (--on-error skip).
 * The plot owns what is added to it; nothing is kept between calls, so
 * different plots may be built in different threads.
 */
#ifndef SLOKIT_CHARTS_H
#define SLOKIT_CHARTS_H

#include "base/csvio.h"
#include "plot/linebins.h"
#include "plot/plot.h"

/* the most columns a --by list may name (the caller refuses more) */
#define CHART_MAX_BY LINEBINS_MAX_BY

struct chart_opts {
    const char *input;                     /* the chart's data; NULL: stdin */
    const struct csv_dialect *d_input;     /* dialects of each input (NULL: plain CSV) */
    const char *fit, *load, *classes;      /* skyline --fit, plan --load, tenants --classes (NULL: none) */
    const struct csv_dialect *d_fit, *d_load, *d_classes;
    const char *job;                       /* skyline: the job (NULL: the first in the input) */
    const char *x, *y, *by;                /* lines, vcs, memory; plan by: columns (NULL: default;
                                            * by: at most CHART_MAX_BY) */
    int runs;                              /* skyline: runs named; more are drawn as a band */
    int top;                               /* plan: jobs (--by groups) stacked, the rest "other" */
    int panels;                            /* lines: one panel per y column */
    int columns;                           /* lines, vcs, memory: the image's width in pixels or
                                            * characters; a series of more points is thinned to at
                                            * most 4 a column (0: every point drawn) */
    int quiet;                             /* no warnings */
};

/* The columns the charts look up by name, NULL-terminated: what skyplot
 * gives cli_keys as its --col KEYs for each input (every chart's, with the
 * default x, y and by columns of vcs and lines; the columns --x, --y and
 * --by name are the user's own, added by skyplot).  chart_input_keys: the
 * chart's data; chart_fit_keys: --fit; chart_load_keys: --load;
 * chart_classes_keys: --classes; chart_memory_keys: the memory chart's
 * default series keys (peakgate's policy, k and task), looked up in its
 * data when no --by is given. */
extern const char *const chart_input_keys[];
extern const char *const chart_memory_keys[];
extern const char *const chart_fit_keys[];
extern const char *const chart_load_keys[];
extern const char *const chart_classes_keys[];

/* chart_draw: build the chart named `chart` (skyline, plan, tenants, vcs,
 * memory, lines) into p.  Returns SLK_OK, SLK_EUSAGE for an unknown chart
 * or a missing required file (tenants without classes), SLK_EDATA for bad
 * or empty data (message printed), or an open error. */
int chart_draw(plot *p, const char *chart, const struct chart_opts *o);

/* The charts chart_draw dispatches to, same contract. */
int chart_skyline(plot *p, const struct chart_opts *o);
int chart_plan(plot *p, const struct chart_opts *o);
int chart_tenants(plot *p, const struct chart_opts *o);
/* chart_lines: xcol against ycols (comma-separated; NULL: every other
 * column), one series per value of `by` (NULL: one series per y). */
int chart_lines(plot *p, const struct chart_opts *o, const char *xcol, const char *ycols, const char *by,
                int panels);
/* chart_memory: chart_lines from x (default t) for peakgate's --node-series
 * and --series files: without by, one series per value of the peakgate
 * keys the input has (policy, k, task); without y, the memory columns
 * (named *_mb) when it has any, else every other column. */
int chart_memory(plot *p, const struct chart_opts *o);

#endif
