/* runlen — each run's recorded length from a runs table, for skyfit's
 * outlier rule (outlier.h): a run of 65 s spans 1 or 2 one-minute steps of
 * samples depending on its phase, so lengths counted in steps cannot tell a
 * 189 s straggler from the normal runs of a job of 60-69 s runs; the runs
 * table (sloinfer's input, tracegen runs) records start and end to the
 * second.
 *
 *   runs table   job,instance,start,end (other columns are not read), one
 *                row per run; a usage run (job, run) is the table's row
 *                (job, instance), so instance names need only be unique
 *                within a job, as in sloinfer.  start and end are epoch
 *                times or ISO 8601 in the dialect's --time-unit, 0 <= start
 *                <= end <= 1e11 s (csvr_get_time).  An empty end (still
 *                running, a failed export) gives the run no recorded
 *                length: skyfit falls back to its samples.  A repeated
 *                (job, instance) is an error at the later row, the first row
 *                kept.  Under --on-error skip a bad row is rejected and the
 *                table goes on without it.
 *
 * Memory: the "job\x1finstance" keys in a keyset (base/keyset) and 24
 * bytes per run (start, length, line): about 115 bytes a run plus its key
 * (docs/skyfit.md measured 100 with the length alone).
 *
 * Errors: "tool: FILE:LINE: message" (base/csvio) and an exit status
 * (base/diag.h).  Thread safety: a loaded table is read-only and may be
 * shared between threads; loading belongs to one thread.
 */
#ifndef SLOKIT_RUNLEN_H
#define SLOKIT_RUNLEN_H

#include "base/csvio.h"

#include <stddef.h>

typedef struct runlen runlen;

/* runlen_keys: the columns looked up by name in the runs table (runlen_load), NULL-terminated: what a tool
 * gives cli_keys as its --col KEYs for that input. */
extern const char *const runlen_keys[];

/* runlen_load: read the runs table at path ("-": stdin) with dialect d
 * (NULL: plain CSV).  Returns SLK_OK with *out the table, or the status of
 * the error it printed with *out NULL. */
int runlen_load(const char *path, const struct csv_dialect *d, runlen **out);

/* One run of the table: its start (seconds), end - start (NaN: no end)
 * and the line of its row. */
struct runlen_row {
    double start, len;
    long line;
};

/* runlen_find: the row of run `instance` of `job` into *row; 0, or -1 when
 * the table has none (or t is NULL). */
int runlen_find(const runlen *t, const char *job, const char *instance, struct runlen_row *row);

/* runlen_path: the table's file name, for messages ("<stdin>" for stdin). */
const char *runlen_path(const runlen *t);

/* runlen_rows: rows kept; runlen_lengths: those with a recorded length. */
size_t runlen_rows(const runlen *t);
size_t runlen_lengths(const runlen *t);

/* runlen_free: free t (NULL is fine). */
void runlen_free(runlen *t);

#endif
