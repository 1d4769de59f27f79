/* lowcost — the LowCost placement of one reservation request into a plan
 * (Morpheus, OSDI 2016, §6 and "Adjusting LowCost" in §7).
 *
 * A request is a job's skyline cut into stages (one per plan step of the
 * skyline), each with a demand in container-steps, a maximum parallelism
 * (the skyline's own height: the estimate is also the most the job can use)
 * and a gang size (minimum parallelism: containers come in whole gangs,
 * default 1).  The stage's demand is rounded up to whole gangs.
 *
 * The algorithm, for one request:
 *   - Window: the steps [lo, hi) that lie inside [a, d] (instance 0 of a
 *     periodic job, or the given instance of a PLAN_ONCE job).
 *   - Cost seen by the job at offset o: the worst over its instances in the
 *     cycle of c(slot) after adding x containers,
 *         cost(o, x) = max_i max((Lm_i + x m)/Cm_i, (Lc_i + x c)/Cc_i)
 *     bounded above by max(max_i Lm_i/Cm_i + x m max_i 1/Cm_i, same for
 *     cores), which is exact for a constant capacity; the capacity check
 *     (headroom) is always exact.
 *   - For each end point e (the step after the last stage; all feasible
 *     ones, or `max_ends` of them evenly spread when there are more), two
 *     trials.  Stretched (the paper's): stages are placed in reverse order.
 *     Stage k may use the interval ending
 *     right before stage k+1's first step, of length proportional to
 *     D_k / (D_1 + ... + D_k) of what remains of the window (at least the
 *     steps it needs at its maximum parallelism, and leaving room for the
 *     earlier stages).  Its gangs go one chunk at a time to the cheapest
 *     eligible step: the first chunk at the last step of the interval, then
 *     any step of [tcur - 1, tr] (tcur = the leftmost step the stage uses),
 *     so the allocation stays contiguous; a step takes at most the stage's
 *     maximum parallelism and never more than the free capacity.  A chunk is
 *     ceil(gangs / chunks) gangs (chunks = 0: one gang at a time, the paper's
 *     rule; larger chunks are faster on big stages).  Rigid: every stage at
 *     its maximum parallelism, ending at e (skipped when max_stretch is 1,
 *     where the stretched trial is rigid, or with no_rigid).
 *   - The trial's cost is its load score: what the job sees over all its
 *     time steps, every instance's slot counted (c0 before, c after it),
 *         score = peak + ln(S) / B,
 *         S = sum over its steps and instances of exp(B (c - peak)) - exp(B (c0 - peak)),
 *     peak = the highest c, B = sharpness / (the plan's peak so far, at
 *     least one container's cost).  It is the growth of sum_t exp(B c(t)),
 *     the exponential load cost of online load balancing, written in cost
 *     units: near the peak when one step dominates, and among placements of
 *     equal peak the one over the lower load wins (the paper's "sum of the
 *     costs"; the hard peak alone spreads every job thin over the window's
 *     start and fills the night early).  Plus, for problematic jobs, the
 *     alignment penalty
 *         align_weight * |mid - (a+d)/2| / ((d-a)/2)
 *     (mid = the allocation's mid-point); ties are broken by the sum of
 *     c x_o over its steps, then by the earliest end, then by the
 *     stretched trial (before the rigid one at the same end).  The cheapest trial wins.
 *   - Folded windows: a PLAN_ONCE window longer than the cycle (nsteps) folds
 *     onto itself, offsets o and o + nsteps sharing a slot.  A trial then
 *     counts its own containers already on a slot: the free capacity a chunk
 *     may take, the greedy's cost of a step and the load score (c with all
 *     its containers on the slot, each slot once in peak and S; the
 *     tie-breaker's sum still over its steps) all see them, and a rigid
 *     trial fits only when each slot holds its steps together.  Otherwise
 *     nothing changes (a window within the cycle, every PERIODIC request).
 *   - The trial kept is checked against the plan once more (plan_fits); one
 *     that fails (not expected: the trials check the same headroom) is not
 *     placed, and `why` names the step.
 *   - A request that fits in no trial is not placed; `why` says what stopped it.
 *
 * Ownership: lowcost never keeps pointers to the request; on success it adds
 * a new reservation (it owns nothing afterwards).  Scratch space lives in a
 * workspace (lowcost_ws_new) that grows to the largest window seen, so
 * placing many jobs allocates almost nothing.
 *
 * Threads: no function keeps state outside its arguments.  A workspace is
 * used by one thread at a time; a plan read by lowcost_choose or
 * lowcost_score may be shared by threads that only read it (each with its
 * own workspace), never while another thread changes it.
 */
#ifndef SLOKIT_LOWCOST_H
#define SLOKIT_LOWCOST_H

#include "morpheus/plan.h"
#include <stdint.h>

struct lowcost_stage {
    int64_t demand;     /* container-steps (>= 1) */
    int32_t maxpar;     /* most containers per step (>= 1) */
    int32_t gang;       /* containers come in multiples of this (>= 1) */
};

struct lowcost_req {
    const char *job;
    enum plan_kind kind;        /* PERIODIC: period divides the plan's lcm */
    int64_t instance, cycle;    /* ONCE: epoch instance number and the cycle to count from */
    double period, a, d;        /* seconds; a, d offsets within the period */
    double cores, mem_mb;       /* per container */
    int problematic;
    long nstages;
    const struct lowcost_stage *stage;
};

struct lowcost_opts {
    int max_ends;           /* end points tried at most (0: all) */
    int chunks;             /* chunks per stage (0: one gang at a time) */
    double align_weight;    /* weight of the alignment penalty (cost units) */
    double max_stretch;     /* a job spans at most this times the steps it needs at
                               full parallelism (0: its whole window before the end point) */
    const double *pressure; /* [nsteps] or NULL: expected cost still to come at each
                               step, added to the cost the job sees (lookahead) */
    double target;          /* 0 (callers): a trial's score is its peak.  > 0 (set by
                               lowcost_improve's flattening): its overflow, the growth
                               of the sum over its steps of max(0, cost - target)^2,
                               and trials whose alignment penalty exceeds max_penalty
                               are not taken */
    double max_penalty;     /* with target > 0 only (see above) */
    double sharpness;       /* K of the load score's B = K / peak (0: LOWCOST_SHARPNESS;
                               INFINITY: the hard peak, the trial's highest cost) */
    int no_rigid;           /* 1: no rigid trials (lowcost_improve tries shapes itself) */
};

/* The default sharpness of the load score: a step 10% of the plan's peak
 * above another weighs e (2.7) times as much.  Measured on tracegen's
 * enterprise mix, seeds 7, 1, 2, 3 (docs/lcmpack.md): 5 to 20 are within
 * 0.01 of each other, the hard peak (INFINITY) 0.03-0.05 worse. */
#define LOWCOST_SHARPNESS 10

/* The workspace: scratch arrays for one thread's placements. */
typedef struct lowcost_ws lowcost_ws;

/* lowcost_ws_new: an empty workspace (never NULL: exits on no memory).
 * lowcost_ws_free: frees it (NULL is fine). */
lowcost_ws *lowcost_ws_new(void);
void lowcost_ws_free(lowcost_ws *ws);

struct lowcost_result {
    int placed;             /* 1 placed, 0 not */
    long start, len;        /* steps, from the cycle start (instance 0 / the ONCE cycle) */
    double cost;            /* the highest cost over the job's slots after placing */
    double penalty;         /* alignment penalty of the chosen placement */
    long tried;             /* end points tried */
    char why[256];          /* when not placed: the reason */
};

/* lowcost_need: the steps q needs with every stage at its maximum
 * parallelism (whole gangs; a gang of 0 counts as 1). */
long lowcost_need(const struct lowcost_req *q);

/* lowcost_stage_full: stage s at its maximum parallelism: *g its gang
 * (>= 1), *gangs its demand in whole gangs, *per the gangs one step holds
 * (>= 1); it takes ceil(*gangs / *per) steps. */
void lowcost_stage_full(const struct lowcost_stage *s, int64_t *g, int64_t *gangs, int64_t *per);

/* lowcost_window: the request's window in steps [*lo, *hi) from the start of
 * its cycle (instance 0 for PERIODIC): plan_window of its [a, d] for
 * lowcost_need(q) steps.  Returns 0, or -1 when it holds no whole step. */
int lowcost_window(const plan *p, const struct lowcost_req *q, long *lo, long *hi);

/* lowcost_window_most: the most steps a request with q's window [a, d] may
 * hold, whatever its skyline: the window's whole steps in seconds,
 * floor((d - a) / step), where plan_window starts it a step early, else
 * the grid steps inside it; 0 when it holds none ("Windows off the grid").
 * The steps a job needs may shrink (more containers at once) to this. */
long lowcost_window_most(const plan *p, const struct lowcost_req *q);

/* lowcost_least_deadline: the least deadline d (seconds, an offset within
 * q's period as q->d is) at which lowcost_window holds the lowcost_need(q)
 * steps q needs, its a unchanged: a + need x step ("Windows off the grid"),
 * or, when a is at the start of the cycle (a window not widened), the end
 * of the need-th whole step after a.  Whether d - a fits in q's period is
 * the caller's to check. */
double lowcost_least_deadline(const plan *p, const struct lowcost_req *q);

/* lowcost_place: place q into p with LowCost (see the header comment).
 * On success adds the reservation to p, fills res (placed = 1) and returns 1;
 * otherwise leaves p unchanged, sets res->why and returns 0.  The request
 * must be valid (stages >= 1, window inside the period, PERIODIC period
 * dividing the lcm in whole steps): callers validate input first. */
int lowcost_place(lowcost_ws *ws, plan *p, const struct lowcost_req *q, const struct lowcost_opts *o,
                  struct lowcost_result *res);

/* lowcost_choose: lowcost_place without the last step: on success fills
 * *out with the chosen reservation (the caller owns it: plan_add it or
 * plan_res_free it) and leaves p unchanged. */
int lowcost_choose(lowcost_ws *ws, const plan *p, const struct lowcost_req *q, const struct lowcost_opts *o,
                   struct lowcost_result *res, struct plan_res *out);

/* lowcost_score: what LowCost minimises, for reservation r (not in p's load)
 * were it added to p as it stands: the highest cost over its steps (worst
 * over its instances) plus the alignment penalty when r is problematic; the
 * tie-breaker, the sum of cost x containers over its steps, in *sum (may be
 * NULL).  A step's cost counts all of r's containers on its slot (a
 * PLAN_ONCE r longer than the cycle folds onto itself). */
double lowcost_score(const plan *p, const struct plan_res *r, const struct lowcost_opts *o, double *sum);

/* lowcost_penalty: the alignment penalty of reservation r (0 unless r is
 * problematic): align_weight * |mid - (a+d)/2| / ((d-a)/2). */
double lowcost_penalty(const plan *p, const struct plan_res *r, const struct lowcost_opts *o);

/* The flattening target of lowcost_improve, as a fraction of the best peak
 * so far. */
#define LOWCOST_FLAT_TARGET 0.97

struct lowcost_improve_stats {
    long rounds, moves;             /* descent */
    long flat_rounds, flat_moves;   /* flattening */
    double peak_before, peak_descent;
};

/* lowcost_improve: offline polish of reservations already placed (lcmpack
 * --improve); fills *st.  Each request q[i] (ids[i] = its reservation in p,
 * or (size_t)-1 to skip) is in turn lifted out of the plan and placed again
 * against everything else, twice: with LowCost's stretched trials as
 * configured and rigid (max_stretch 1: every stage at its maximum
 * parallelism), each choosing by the load score (flattening: the overflow);
 * the better of the two replaces the old placement only when it scores
 * lower.  Two phases of
 * at most `rounds` rounds each, a phase ending early after a round without
 * moves:
 *   - descent: the score is lowcost_score (the job's peak plus its
 *     alignment penalty, then the sum), so no job's own score ever rises;
 *   - flattening: the score is the job's overflow, the growth of the sum
 *     over its slots of max(0, c - T)^2 with T = LOWCOST_FLAT_TARGET x the
 *     best peak so far (then the sum), and a problematic job never takes a
 *     larger alignment penalty.  A single job may end costlier; the plan
 *     kept is the best seen, so the plan's peak never rises above the
 *     descent's.
 * A job never loses its place; reservations stay at their index (plan
 * order is kept). */
void lowcost_improve(lowcost_ws *ws, plan *p, const struct lowcost_req *q, size_t n, const size_t *ids,
                     const struct lowcost_opts *opt, int rounds, struct lowcost_improve_stats *st);

/* lowcost_place_earliest: the no-planning reference: every stage at its
 * maximum parallelism, the first stage at the window's first step.  Same
 * return and effects as lowcost_place (not placed when capacity is short). */
int lowcost_place_earliest(lowcost_ws *ws, plan *p, const struct lowcost_req *q, struct lowcost_result *res);

/* lowcost_min_height: a lower bound, in cost units, on the peak that q alone
 * causes wherever it is placed: the largest of its stages' minimum per-step
 * allocation (one gang, or the whole stage when it cannot be stretched) and
 * its area spread evenly over its window, divided by the capacity (the
 * largest capacity over the cycle, so the bound holds for any profile). */
double lowcost_min_height(const plan *p, const struct lowcost_req *q);

#endif
