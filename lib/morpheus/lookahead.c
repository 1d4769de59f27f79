/* lookahead — pressure and slack of requests not yet placed (see lookahead.h). */
#include "morpheus/lookahead.h"

#include <math.h>

long lookahead_slack(const plan *p, const struct lowcost_req *q)
{
    long lo, hi;
    return lowcost_window(p, q, &lo, &hi) < 0 ? -1 : hi - lo - lowcost_need(q);
}

void lookahead_spread(const plan *p, const struct lowcost_req *q, double *pres, double w)
{
    long lo, hi;
    if (lowcost_window(p, q, &lo, &hi) < 0)
        return;
    double cm = 0, cc = 0, area = 0;
    for (long s = 0; s < p->nsteps; s++) {
        if (p->cap_mem[s] > cm) cm = p->cap_mem[s];
        if (p->cap_cores[s] > cc) cc = p->cap_cores[s];
    }
    double unit = fmax(cm > 0 ? q->mem_mb / cm : 0, cc > 0 ? q->cores / cc : 0);
    for (long k = 0; k < q->nstages; k++) {
        int64_t g = q->stage[k].gang;
        area += (double)((q->stage[k].demand + g - 1) / g * g);
    }
    double per = w * area * unit / (double)(hi - lo);
    long pp = q->kind == PLAN_PERIODIC ? (long)llround(q->period / (double)p->step) : 0;
    long ni = q->kind == PLAN_PERIODIC ? p->nsteps / pp : 1;
    for (long i = 0; i < ni; i++)
        for (long o = lo; o < hi; o++)
            pres[(o + i * pp) % p->nsteps] += per;
}
