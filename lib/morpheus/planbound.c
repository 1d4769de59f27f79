/* planbound — a lower bound on the peak cost of a plan (see planbound.h). */
#include "morpheus/planbound.h"

#include <math.h>

void planbound_init(struct planbound *b, const plan *p, double fixed_lb)
{
    *b = (struct planbound){.fixed_lb = fixed_lb};
    for (long s = 0; s < p->nsteps; s++) {
        b->capsum_c += p->cap_cores[s];
        b->capsum_m += p->cap_mem[s];
        if (p->cap_cores[s] > b->maxcap_c) b->maxcap_c = p->cap_cores[s];
        if (p->cap_mem[s] > b->maxcap_m) b->maxcap_m = p->cap_mem[s];
    }
}

void planbound_add(struct planbound *b, const plan *p, const struct planidx_res *r, int fixed)
{
    struct plan_res shape = {.kind = r->kind, .period = r->period};
    double ni = (double)plan_ninst(p, &shape);
    b->area_c += (double)r->csteps * r->cores * ni;
    b->area_m += (double)r->csteps * r->mem_mb * ni;
    if (fixed) {
        double h = fmax(r->maxc * r->mem_mb / b->maxcap_m, r->maxc * r->cores / b->maxcap_c);
        if (h > b->fixed_lb)
            b->fixed_lb = h;
    }
}

double planbound_area(const struct planbound *b)
{
    return fmax(b->capsum_m > 0 ? b->area_m / b->capsum_m : 0, b->capsum_c > 0 ? b->area_c / b->capsum_c : 0);
}

double planbound_value(const struct planbound *b)
{
    return fmax(b->fixed_lb, planbound_area(b));
}
