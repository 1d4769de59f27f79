/* draio — the DRA's sample stream (Morpheus §7, reprov --policy dra): reads
 * job,t,used[,pending] rows, checks them, and feeds them to a dra
 * (lib/morpheus/dra), handing each decision to a callback as it is made.
 *
 * Thread safety: no shared state; a call owns its reader and dra.
 *
 * Errors: data errors are reported at the line through csvr_fail; with a
 * dialect that has rejects (--on-error skip) a bad sample is skipped and
 * the stream goes on.  The return value is an exit status (base/diag.h).
 */
#ifndef SLOKIT_DRAIO_H
#define SLOKIT_DRAIO_H

#include "base/csvio.h"
#include "morpheus/dra.h"

/* Called for each decision with the sample's time and job, and the
 * decision's reason as text (dra_reason). */
typedef void (*draio_decide_fn)(void *ctx, double t, const char *job, const struct dra_decision *dec,
                                const char *why);

/* draio_keys: the columns looked up by name in the DRA sample stream (draio_run), NULL-terminated: what a
 * tool gives cli_keys as its --col KEYs for that input. */
extern const char *const draio_keys[];

/* draio_run: feed every sample of r to d, in input order.  Columns: job, t,
 * used, and optionally pending (0 when absent).  t within +-1e11 s and
 * non-decreasing, used and pending >= 0 and at most 1e12.  Returns SLK_OK or
 * the reader's status. */
int draio_run(csvr *r, dra *d, draio_decide_fn decide, void *ctx);

#endif
