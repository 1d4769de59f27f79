/* stable — does a reservation already in the plan still serve its job's new
 * request?  (Morpheus §6 keeps reservations steady from one planning run to
 * the next unless the demand changes substantially; this is the test.)
 *
 * A kept reservation stays exactly as it is: its rows (and the window a, d
 * they record) are not rewritten, so a plan with nothing moved is the same
 * bytes.  The request is "substantially the same", and the reservation kept,
 * when 1 and 2 hold and either 3 or 4 and 5 do:
 *   1. the same kind (periodic / once), period and container size (cores,
 *      mem_mb);
 *   2. the reservation still lies inside the new window: its steps within
 *      lowcost_window of the new request (the new [a, d]), give or take one
 *      step at each end (the window is held in whole steps; an a or d that
 *      moved by less than a step, e.g. a median of 30 reads after a one-day
 *      slide, must not move a reservation; the reason then says "within a
 *      step of [a, d]");
 *   3. the new stages fit inside the existing allocation (stable_fits_inside:
 *      the job, stage after stage, runs within the reservation's steps) --
 *      a job that shrank keeps its reservation (it is over-reserved, never
 *      short);
 *   4. the area (container-steps at the plan step, gangs rounded up) of the
 *      new request is within tol (a fraction, lcmpack --stable) of the
 *      reservation's: |new - old| <= tol * old;
 *   5. the new request can nearly finish in the reservation's span: run at
 *      its maximum parallelism (lowcost_need steps), the work it does past
 *      the reservation's length (stable_tail) is at most tol of its area
 *      (the same tolerance as the area: a new longest run a few percent
 *      longer is not a substantial change; the tail beyond the span is the
 *      DRA's, as for any run longer than its skyline).  Work, not steps: a
 *      job of 8 steps whose skyline gained a ninth step of 1 container has
 *      1% of its work past the span, where the step is 12.5% of the span
 *      and would move the job whenever a slide of the history adds or drops
 *      such a tail.  (The skyline's own peak is not compared: the plan keeps
 *      the allocation, not the skyline it came from, and LowCost's
 *      allocation is usually flatter than the skyline.)
 * Otherwise the job is moved: its reservation is freed and the new request
 * placed by LowCost like a new one.
 *
 * Threads: no shared state.
 */
#ifndef SLOKIT_STABLE_H
#define SLOKIT_STABLE_H

#include "morpheus/lowcost.h"
#include <stddef.h>

/* stable_area: q's area in container-steps (each stage's demand rounded up
 * to whole gangs). */
double stable_area(const struct lowcost_req *q);

/* stable_fits_inside: 1 when request q can run inside reservation r's
 * allocation: its stages in order, each step of r serving one stage with
 * min(containers, the stage's maximum parallelism) rounded down to whole
 * gangs, until each stage's demand (rounded up to gangs) is met within r's
 * length; 0 otherwise. */
int stable_fits_inside(const struct plan_res *r, const struct lowcost_req *q);

/* stable_tail: the work (container-steps, whole gangs) q does in its steps
 * from len on when each stage runs at its maximum parallelism, in order
 * (a stage's full steps, then its partial one): 0 when lowcost_need(q) <=
 * len. */
double stable_tail(const struct lowcost_req *q, long len);

/* stable_keep: 1 when reservation r (in p) still serves request q within
 * tol (>= 0), 0 when it must move.  why (n bytes; 160 is enough) says which
 * test decided, with the numbers ("area +3.2%, needs 53 of 52
 * steps (1.9% of the work past them), inside [a, d]" or "area +35.0% (more
 * than 10%)"). */
int stable_keep(const plan *p, const struct plan_res *r, const struct lowcost_req *q, double tol, char *why,
                size_t n);

#endif
