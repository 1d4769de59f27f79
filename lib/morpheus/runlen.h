/* runlen — each run's recorded length from a runs table, for skyfit's
 * outlier rule (outlier.h): a run of 65 s spans 1 or 2 one-minute steps of
 * samples depending on its phase, so lengths counted in steps cannot tell a
 * 189 s straggler from the normal runs of a job of 60-69 s runs; the runs
 * table (sloinfer's input, tracegen runs) records start and end to the
 * second.
 *
 *   runs table   instance,start,end (other columns, job included, are not
 *                read), one row per run; the usage's run names are the
 *                table's instances.  start and end are epoch seconds or ISO
 *                8601, 0 <= start <= end < 1e11 (csvr_get_time).  An empty
 *                end (still running, a failed export) gives the run no
 *                recorded length: skyfit falls back to its samples.  A
 *                repeated instance is an error at the later row
 *                (base/keytab's rule, the first row kept).  Under --on-error
 *                skip a bad row is rejected and the table goes on without it.
 *
 * Memory: the instances in a keyset (base/keyset) and one double per run:
 * about 100 bytes a run plus its instance name (measured in docs/skyfit.md).
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

/* runlen_load: read the runs table at path ("-": stdin) with dialect d
 * (NULL: plain CSV).  Returns SLK_OK with *out the table, or the status of
 * the error it printed with *out NULL. */
int runlen_load(const char *path, const struct csv_dialect *d, runlen **out);

/* runlen_get: end - start in seconds of run `instance`, or NaN when the
 * table has no row for it or the row has no end.  t may be NULL (NaN). */
double runlen_get(const runlen *t, const char *instance);

/* runlen_rows: rows kept; runlen_lengths: those with a recorded length. */
size_t runlen_rows(const runlen *t);
size_t runlen_lengths(const runlen *t);

/* runlen_free: free t (NULL is fine). */
void runlen_free(runlen *t);

#endif
