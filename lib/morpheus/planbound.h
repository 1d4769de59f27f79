/* planbound — a lower bound on the peak cost of any plan of the same
 * reservations (lcmpack's summary "lower bound ... : N.NNNx"):
 *   max( the tallest fixed demand (a kept reservation's, or the least height
 *        a placed request can have), the total area over the cycle / the
 *        total capacity over the cycle )
 * in cost units (Morpheus §6's cost c(s) = max over resources of load over
 * capacity).  Summed reservation by reservation, from the plan or from its
 * index (the same numbers in the same order give the same bound).
 *
 * Threads: a planbound is the caller's value; no shared state.
 */
#ifndef SLOKIT_PLANBOUND_H
#define SLOKIT_PLANBOUND_H

#include "morpheus/planidx.h"

struct planbound {
    double area_c, area_m;      /* container-steps x size over the cycle */
    double fixed_lb;            /* the tallest fixed demand, cost units */
    double maxcap_c, maxcap_m;  /* the largest capacity over the cycle */
    double capsum_c, capsum_m;  /* the capacity summed over the cycle */
};

/* planbound_init: start a bound for p's capacity, with fixed_lb the tallest
 * fixed demand known so far (e.g. lowcost_min_height of the placed requests). */
void planbound_init(struct planbound *b, const plan *p, double fixed_lb);

/* planbound_add: count reservation r (a summary, planidx_summary) of p; when
 * fixed, its tallest step is a fixed demand too. */
void planbound_add(struct planbound *b, const plan *p, const struct planidx_res *r, int fixed);

/* planbound_area: the area bound (total area / total capacity), 0 with no
 * capacity. */
double planbound_area(const struct planbound *b);

/* planbound_value: max(fixed_lb, planbound_area). */
double planbound_value(const struct planbound *b);

#endif
