/* refusal — what lcmpack writes when it cannot place a request: the cause
 * and what the user can do about it (Morpheus §5, §7: a window shorter than
 * the skyline is usually one long run in the history, not the job).
 *
 * Pure text generation over a request; no state; safe from any thread.
 */
#ifndef SLOKIT_REFUSAL_H
#define SLOKIT_REFUSAL_H

#include "morpheus/lowcost.h"

/* refusal_steps: the steps request q needs at its maximum parallelism (the
 * sum over its stages of ceil(gangs / gangs per step)). */
long refusal_steps(const struct lowcost_req *q);

/* refusal_text: the reason for a rejected request q of plan p (malloc'd;
 * caller frees).  When one gang of q (gang x cores, gang x mem_mb) is
 * larger than the capacity at every step of the cycle, it says so, with the
 * capacity's most, and the fixes (smaller containers, a larger capacity).
 * Otherwise, when its window (lowcost_window) holds fewer whole steps
 * than refusal_steps(q), or none, it names both and the fixes: a later d
 * (at least the value given, lowcost_least_deadline: the least d that is
 * then placed, printed in the fewest digits, 10 or more, that place; the
 * only fix when d - a is shorter than a step; none when that d would make
 * d - a longer than q's period, the most an SLO window may be: the reason
 * says so), fitting fewer or more
 * recent runs (skyfit --last, a
 * lower --outlier-k; skyfit --stats names the longest run kept), or a job
 * that runs with more containers at once (at least ceil(area / window
 * steps), rounded up to its largest gang, named with its area and its
 * skyline's peak); otherwise it is lowcost's reason `why` as given.  For
 * an ad-hoc request (adhoc != 0) the fixes are the ad-hoc file's: a later
 * deadline (the epoch time, ISO 8601, the least whole second that is
 * then placed) or more containers at once; one
 * longer than the plan's cycle (adhoc_request caps it at a cycle and a
 * step) says so.  a_full: where q's window starts in its SLO or ad-hoc
 * file (q->a unless the run's time cut it: a once instance under way at
 * --now, an ad-hoc request whose window opened before --at or --now), and
 * cut_by the option that did ("--at" or "--now"): when the window is too
 * short only because it was cut (the full [a_full, d] would hold the
 * steps), the reason says so ("under way at --now: --now leaves ...", for
 * an ad-hoc request "cut by --now: --now leaves ...") and names no fix of
 * the SLO, the skyline or the ad-hoc file; when the full window is too
 * short as well, the reason is that of the full window, with its fixes. */
char *refusal_text(const plan *p, const struct lowcost_req *q, const char *why, int adhoc, double a_full,
                   const char *cut_by);

#endif
