/* jockeyio — the Jockey controller's sample stream: reads
 * job[,run],t,progress|completed+total,alloc rows, checks them, and feeds
 * them to a jockey (lib/jockey/jockey), handing each allocation change to a
 * callback as it is decided.
 *
 * Thread safety: no shared state; a call owns its reader and jockey.
 *
 * Errors: data errors are reported at the line through csvr_fail; the
 * return value is an exit status from base/diag.h.
 */
#ifndef SLOKIT_JOCKEYIO_H
#define SLOKIT_JOCKEYIO_H

#include "base/csvio.h"
#include "jockey/jockey.h"

/* the most stages a sample may list */
#define JOCKEY_MAX_STAGES 1024

/* Called for each decision with the sample's time and job. */
typedef void (*jockeyio_decide_fn)(void *ctx, double t, const char *job, const struct jockey_decision *dec);

/* jockeyio_keys: the columns looked up by name in the Jockey sample stream (jockeyio_run), NULL-
 * terminated: what a tool gives cli_keys as its --col KEYs for that input. */
extern const char *const jockeyio_keys[];

/* jockeyio_run: feed every sample of r to jk, in input order.  Columns:
 * job, t, alloc, and either progress (a fraction in [0, 1]) or completed
 * and total (';'-lists per stage, giving progress and the per-stage counts
 * the job models need); run optional.  t within +-1e11 s and
 * non-decreasing, alloc in [0, 1e9], at most JOCKEY_MAX_STAGES stages.
 * Returns SLK_OK or an exit status (the reader's status). */
int jockeyio_run(csvr *r, jockey *jk, jockeyio_decide_fn decide, void *ctx);

#endif
