/* slotable — sloinfer's run table held in memory, so its rows may come in
 * any order (the usual export is time-ordered, not grouped by job).
 *
 * Rows are added as they are read (job, instance, one slo_run, the input
 * line, a caller tag); slotab_dup_instance finds a repeated (job, instance);
 * slotab_group then sorts the rows by job name (rows of a job keep their
 * input order) and slotab_job hands out each job's runs as one array, so the
 * per-job inference sees exactly what a grouped stream would give it.
 *
 * Memory: about 220 bytes a run at peak (the run, its row, its instance
 * name; job names once); slotab_add refuses rows beyond max_runs, so
 * a caller can stop with a clear message before the machine swaps.
 * The table copies the strings it is given.  One table per thread.
 */
#ifndef SLOKIT_SLOTABLE_H
#define SLOKIT_SLOTABLE_H

#include "morpheus/slo.h"

#include <stddef.h>

typedef struct slotab slotab;

/* slotab_new: an empty table holding at most max_runs rows (>= 1). */
slotab *slotab_new(size_t max_runs);
void slotab_free(slotab *t);

/* slotab_add: append a row (instance may be NULL: no duplicate check for
 * it).  Returns 0, or -1 (nothing added) when the table holds max_runs rows. */
int slotab_add(slotab *t, const char *job, const char *instance, const struct slo_run *run, long line, long tag);

/* slotab_dup_instance: 1 when some (job, instance) occurs twice, with the
 * line of the repeat that comes first in the input in *line and the names
 * in *job, *instance (owned by the table); else 0.  Call before
 * slotab_group. */
int slotab_dup_instance(slotab *t, long *line, const char **job, const char **instance);

/* slotab_group: sort the rows by job name (bytewise), each job's rows in
 * input order.  Returns the number of jobs. */
size_t slotab_group(slotab *t);

/* slotab_job: job i (0 .. slotab_group() - 1) after slotab_group: its name,
 * its runs (*n of them, contiguous, owned by the table) and the tags of
 * those runs in the same order. */
const char *slotab_job(slotab *t, size_t i, struct slo_run **runs, const long **tags, size_t *n);

/* slotab_runs: rows held. */
size_t slotab_runs(const slotab *t);

#endif
