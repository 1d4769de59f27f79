/* stable — keep a reservation whose request is substantially the same (see stable.h). */
#include "morpheus/stable.h"
#include "morpheus/lookahead.h"

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
    if (lowcost_window(p, q, &lo, &hi) < 0 || r->start + shift < lo || r->start + shift + r->len > hi) {
        snprintf(why, n, "no longer inside the new window [%g, %g] s", q->a, q->d);
        return 0;
    }
    double old_area = 0;
    for (long j = 0; j < r->len; j++)
        old_area += r->containers[j];
    double da = rel(stable_area(q), old_area);
    long need = lookahead_need(q);
    if (stable_fits_inside(r, q)) {
        snprintf(why, n, "the new stages fit inside the reservation (area %+.1f%%), inside [a, d]", 100 * da);
        return 1;
    }
    if (fabs(da) > tol + 1e-12) {
        snprintf(why, n, "area %+.1f%% (more than %g%%)", 100 * da, 100 * tol);
        return 0;
    }
    if (need > r->len) {
        snprintf(why, n, "needs %ld steps at full parallelism, the reservation spans %ld", need, r->len);
        return 0;
    }
    snprintf(why, n, "area %+.1f%%, needs %ld of %ld steps, inside [a, d]", 100 * da, need, r->len);
    return 1;
}
