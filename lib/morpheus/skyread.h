/* skyread — skyfit's inputs read job by job into skyline fits (skyjob.h).
 *
 *   CSV usage rows  job,run,t,containers[,cores,mem_mb], grouped by job (the
 *                   one group-by iterator, base/group.h: a job that comes
 *                   back is an error), or in any order with sort (-s: the
 *                   rows held, base/group.h's group_held, then grouped by job,
 *                   each job's rows in input order).  cores and mem_mb come
 *                   both or neither.  Under --on-error skip (the reader's
 *                   dialect has rejects) a bad row is skipped and reported.
 *   native log      the Hadoop ResourceEstimator's skyline log (native.h),
 *                   one run a line, grouped by job; '#' and '//' lines are
 *                   comments.  A run whose skyline ends before the run does
 *                   is warned about; with memory the memory skyline is read
 *                   (containers x the log's MB per container, in the 1024 MB
 *                   containers written for this format).
 * Each job is fitted (skyjob_fit) as soon as it is complete, so without
 * sort one job is in memory at a time.  The readers write the headers of
 * out->w and out->ws.
 *
 * Errors: data errors are printed at FILE:LINE; the functions return SLK_OK
 * or an exit status (base/diag.h).  Thread safety: no shared state; one
 * reader per thread.
 */
#ifndef SLOKIT_SKYREAD_H
#define SLOKIT_SKYREAD_H

#include "base/csvio.h"
#include "morpheus/skyjob.h"

#include <stdio.h>

/* skyread_usage_keys: the columns looked up by name in skyfit's usage rows (skyread_csv), NULL-terminated:
 * what a tool gives cli_keys as its --col KEYs for that input. */
extern const char *const skyread_usage_keys[];

/* skyread_csv: fit every job of the usage rows in r (sort: any row order). */
int skyread_csv(csvr *r, struct skyjob_out *out, int sort);

/* skyread_native: fit every job of the native log fp (named file in
 * messages); memory: the memory skyline instead of the containers. */
int skyread_native(FILE *fp, const char *file, struct skyjob_out *out, int memory);

#endif
