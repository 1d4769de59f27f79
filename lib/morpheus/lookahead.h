/* lookahead — what the requests not yet placed will ask of the plan, for
 * lcmpack's offline options: the expected pressure (--lookahead: each
 * request's demand spread evenly over its windows) and the slack of a
 * request (--order tight: its window minus the steps it needs at full
 * parallelism).  Neither is in the paper: Morpheus §6 places requests online,
 * one at a time; these only reorder or bias that same placement.
 *
 * Threads: no shared state; the pressure array is the caller's.
 */
#ifndef SLOKIT_LOOKAHEAD_H
#define SLOKIT_LOOKAHEAD_H

#include "morpheus/lowcost.h"

/* lookahead_slack: the steps of q's window minus the steps q needs at full
 * parallelism (lowcost_need(q)); -1 when
 * q has no window in p (lowcost_window fails). */
long lookahead_slack(const plan *p, const struct lowcost_req *q);

/* lookahead_spread: add w times q's demand (in cost units at the largest
 * capacity of p) spread evenly over each of its instances' windows to
 * pres[0..nsteps-1]; w < 0 takes it away again (after q is placed).  Does
 * nothing when q has no window. */
void lookahead_spread(const plan *p, const struct lowcost_req *q, double *pres, double w);

#endif
