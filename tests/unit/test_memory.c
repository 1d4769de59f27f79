/* Unit tests of lib/memory: profiles of a series (the default normal is the
 * median) and the gate's bound, on hand-worked numbers. */
#include "unit.h"
#include "memory/memgate.h"
#include "memory/memprof.h"

#include <math.h>

int main(void)
{
    double x[4] = {400, 100, 100, 100};
    struct memprof_opts o = memprof_opts_default();
    struct memprof p;
    memprof_of_series(x, 4, NAN, &o, &p);
    CHECK_NEAR(p.normal, 100, 0);          /* median (the default) */
    CHECK_NEAR(p.mean, 175, 1e-12);
    CHECK_NEAR(p.peak, 400, 0);
    CHECK_NEAR(p.spread, 3, 1e-12);         /* (400 - 100) / 100 */
    CHECK(x[0] == 400 && x[3] == 100);      /* the series is not reordered */
    o.normal_pct = -1;
    memprof_of_series(x, 4, 1000, &o, &p);
    CHECK_NEAR(p.normal, 175, 1e-12);       /* --normal mean */
    CHECK_NEAR(p.waste, 825, 1e-12);
    memprof_of_series(x + 1, 2, NAN, &o, &p); /* a prefix: what --train learns from */
    CHECK_NEAR(p.peak, 100, 0);
    /* bound for k = 1, approach 1.1: min(110, 100) + min(110, 400) + (400 - 110) = 500 */
    struct memgate_task t[2] = {{.name = "a", .normal = 100, .peak = 100}, {.name = "b", .normal = 100, .peak = 400}};
    CHECK_NEAR(memgate_bound(t, 2, 1, 1.1), 500, 1e-9);
    CHECK_NEAR(memgate_bound_simple(t, 2, 1), 500, 1e-9); /* 200 + max(0, 300) */
    /* a peak process whose time runs to infinity (gap 1e308 s: the first
     * exponential draw is ~1e308) returns "no more peaks" instead of
     * thinning forever on a NaN rate: 1,000 steps of the base level only */
    struct memmodel_params mp = memmodel_params_paper();
    mp.gap_s = 1e308;
    struct memmodel m;
    memmodel_init(&m, &mp, 1, "far");
    double hi = 0;
    for (int i = 0; i < 1000; i++)
        hi = fmax(hi, memmodel_next(&m));
    CHECK(hi <= mp.normal_mb * (1 + mp.noise));
    CHECK(m.peaks == 0);
    return unit_done("memory");
}
