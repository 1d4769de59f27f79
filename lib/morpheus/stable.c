/* stable — keep a reservation whose request is substantially the same (see stable.h). */
#include "morpheus/stable.h"

#include <math.h>
#include <stdio.h>

double stable_area(const struct lowcost_req *q)
{
    double a = 0;
    for (long k = 0; k < q->nstages; k++) {
        int64_t g = q->stage[k].gang;
        a += (double)((q->stage[k].demand + g - 1) / g * g);
    }
    return a;
}

/* rel: (x - ref) / ref, 0 when both are 0, +inf when only ref is. */
static double rel(double x, double ref)
{
    if (ref == 0)
        return x == 0 ? 0 : INFINITY;
    return (x - ref) / ref;
}

int stable_fits_inside(const struct plan_res *r, const struct lowcost_req *q)
{
    long j = 0;
    for (long k = 0; k < q->nstages; k++) {
        int64_t g = q->stage[k].gang, rem = (q->stage[k].demand + g - 1) / g * g;
        while (rem > 0) {
            if (j >= r->len)
                return 0;
            int64_t c = r->containers[j] < q->stage[k].maxpar ? r->containers[j] : q->stage[k].maxpar;
            rem -= c / g * g;
            j++;
        }
    }
    return 1;
}

double stable_tail(const struct lowcost_req *q, long len)
{
    int64_t j = 0;
    double tail = 0;
    for (long k = 0; k < q->nstages; k++) {
        int64_t g, gangs, per;
        lowcost_stage_full(&q->stage[k], &g, &gangs, &per);
        /* the stage's full steps j .. j + full - 1, then its partial one;
         * counted, not walked: a stage of 1e12 gangs at maxpar 1 is one
         * multiplication */
        int64_t full = gangs / per, before = len > j ? (len - j < full ? len - j : full) : 0;
        tail += (double)(full - before) * (double)(per * g);
        j += full;
        if (gangs % per)
            tail += j++ >= len ? (double)(gangs % per * g) : 0;
    }
    return tail;
}

int stable_keep(const plan *p, const struct plan_res *r, const struct lowcost_req *q, double tol, char *why,
                size_t n)
{
    if (r->kind != q->kind || r->period != q->period || r->cores != q->cores || r->mem_mb != q->mem_mb) {
        snprintf(why, n, "request changed: %s", r->kind != q->kind ? "kind" : r->period != q->period ? "period"
                                                                                                    : "container size");
        return 0;
    }
    long lo, hi;
    /* a once reservation read back counts from the cycle of its first row,
     * the request from the cycle its window opens in */
    long shift = r->kind == PLAN_ONCE ? (long)(r->cycle - q->cycle) * p->nsteps : 0;
    /* one step of slack at each end: the window is held in whole steps, so
     * an a or d estimate that moved by less than a step (a median of 30
     * runs after a one-day slide) must not move the reservation */
    if (lowcost_window(p, q, &lo, &hi) < 0 || r->start + shift < lo - 1 || r->start + shift + r->len > hi + 1) {
        snprintf(why, n, "no longer inside the new window [%g, %g] s (one step of slack)", q->a, q->d);
        return 0;
    }
    int edge = r->start + shift < lo || r->start + shift + r->len > hi;
    static const char *const inside[2] = {"inside [a, d]", "within a step of [a, d]"};
    double old_area = 0;
    for (long j = 0; j < r->len; j++)
        old_area += r->containers[j];
    double area = stable_area(q), da = rel(area, old_area);
    if (stable_fits_inside(r, q)) {
        snprintf(why, n, "the new stages fit inside the reservation (area %+.1f%%), %s", 100 * da, inside[edge]);
        return 1;
    }
    if (fabs(da) > tol + 1e-12) {
        snprintf(why, n, "area %+.1f%% (more than %g%%)", 100 * da, 100 * tol);
        return 0;
    }
    /* the span gets the same tolerance as the area, counted in work: a new
     * longest run a few percent longer is not a substantial change, its
     * tail is the DRA's.  Work, not steps: a job of 8 steps whose skyline
     * gained a ninth of 1 container has 1% of its work past the span, where
     * the step is 12.5% of it */
    long need = lowcost_need(q);
    double share = area > 0 ? stable_tail(q, r->len) / area : 0;
    if (share > tol + 1e-12) {
        snprintf(why, n,
                 "needs %ld steps at full parallelism, the reservation spans %ld "
                 "(%.1f%% of the work past it, more than %g%%)",
                 need, r->len, 100 * share, 100 * tol);
        return 0;
    }
    snprintf(why, n, "area %+.1f%%, needs %ld of %ld steps (%.1f%% of the work past them), %s", 100 * da,
             need, r->len, 100 * share, inside[edge]);
    return 1;
}
