/* linebins — the lines chart's series (skyplot lines, vcs, memory) read and
 * thinned to what the image can show, so that memory follows the series and
 * the image's columns, not the rows (peakgate --series on 160 tasks is 13.8
 * million rows).
 *
 * The rule is the lines chart's (charts.h): a series is the points of one
 * y column and one --by value, in x order (points of one x in input order).
 * A step more than 3 times the series' median step (over its steps of
 * positive length) is a gap: the pen is lifted there.  A series of more
 * points than `ncols` is thinned: per column of its panel's x range (every
 * y column's points, or the column's own with a panel per y column; the
 * columns [xlo, xhi] cut in ncols equal parts) and per stretch between
 * gaps, only its first, lowest, highest and last point are kept, in x
 * order (M4; the lowest and highest are the first of their value); a
 * series of fewer points keeps them all.
 *
 * Reading: a regular file is read twice.  The first pass learns each
 * series' length, its x range, its median step (exactly: a count of each
 * distinct step, so a series sampled at a fixed step costs a few numbers)
 * and two 64-bit hashes of its points; the second thins each series as its
 * points come, holding one column's four points per series.  That needs
 * each series' points in x order in the file (series may be interleaved:
 * grouped by key, or sorted by time).  Standard input, a pipe, or a file
 * whose x goes back within a series are held instead: every point is kept
 * (24 bytes each), sorted, and thinned by the same code, so both ways draw
 * the same points.
 *
 * Errors: a bad row is the reader's message (FILE:LINE) and its status; a
 * bad y drops the whole row; under --on-error skip (the dialect's rejects)
 * the first pass skips silently and the second lists each rejected row
 * once.  A file with no point is refused: "FILE: nothing to plot (no data row
 * read)" (none, or every one skipped), or "(N rows, none with a value to
 * draw)".  A file
 * that changes between the passes is refused (exit 65), never drawn half
 * from each.
 *
 * Ownership: linebins_read fills a struct linebins the caller frees with
 * linebins_free.  No state is shared between calls: threads may read
 * different files at once (each call has its own readers).
 */
#ifndef SLOKIT_LINEBINS_H
#define SLOKIT_LINEBINS_H

#include "base/csvio.h"

#include <stddef.h>

#define LINEBINS_MAX_BY 4
#define LINEBINS_MAX_Y 32

/* Where a row's values are: the columns of the reader the callback was
 * given (the same header on every pass). */
struct linebins_cols {
    int cx;                      /* x (a time: epoch seconds, ISO 8601, or an offset) */
    int cb[LINEBINS_MAX_BY], nb; /* --by: a series per value; 0 columns: one per y column */
    int cy[LINEBINS_MAX_Y], ny;  /* y columns (ny >= 1) */
    const char *hint;            /* added to a bad y's message ("" or NULL: none) */
};

/* columns_fn: resolve the columns of reader r (its header read) into *c:
 * 0, or -1 with the reason printed.  Called once per pass. */
typedef int (*linebins_columns_fn)(csvr *r, void *ctx, struct linebins_cols *c);

/* A kept point, or a break (the pen lifted before the next point): x NaN. */
struct linebins_pt {
    double x, y;
};

struct linebins_series {
    int group, k;            /* the --by value (index into groups; 0 with no --by) and y column */
    struct linebins_pt *pts; /* what is drawn, in order */
    size_t n;
};

struct linebins {
    char **groups;                /* the --by values ("k=1 task=a" for several columns; "" */
    size_t ngroups;               /*   with none), in order of first appearance */
    char *ynames[LINEBINS_MAX_Y]; /* the y columns' names */
    int ny, nb;                   /* y and --by columns */
    struct linebins_series *s;    /* the series drawn, by group, then y column (of a */
                                  /*   folded column only the first group's) */
    size_t ns;
    size_t points;                                   /* points read */
    double x0;                                       /* the smallest x */
    double xlo[LINEBINS_MAX_Y], xhi[LINEBINS_MAX_Y]; /* per y column: its points' x range */
    int folds[LINEBINS_MAX_Y];                       /* column k is drawn once, as one series: with --by
                                         * columns, several y columns in one panel, and more
                                         * than one series of it, all with the same points
                                         * (equal length and both hashes: peakgate's node_mb) */
    int held; /* 1: every point was held (stdin, a pipe, x going back) */
};

/* linebins_group: the name of the series the reader's current row belongs
 * to, from the values of its nb --by columns cb: for one column the value
 * itself ("-" when empty; the reader's field, valid until its next row),
 * for several "k=1 task=a" written into g (gsize bytes, cut there), for
 * none "".  Every chart names its --by series so. */
const char *linebins_group(const csvr *r, const int *cb, int nb, char *g, size_t gsize);

/* linebins_read: read `path` (NULL or "-": standard input; dialect d, NULL
 * plain CSV), columns from columns_fn, into out per the rule above:
 * thinned to ncols columns (ncols <= 0: every point kept) of each panel,
 * a panel per y column when panels, else one for all.  Returns SLK_OK, or
 * an exit status with its message printed (out then empty). */
int linebins_read(const char *path, const struct csv_dialect *d, linebins_columns_fn columns_fn, void *ctx,
                  int ncols, int panels, struct linebins *out);

/* linebins_free: free what linebins_read filled in; a zeroed struct is fine. */
void linebins_free(struct linebins *b);

#endif
