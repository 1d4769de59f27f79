/* Unit test for plan_reserved_at (lib/morpheus/plan): capacity reserved at an absolute
 * time, worked by hand.  Cycle: 1 day of 60 s steps (1440 steps).
 *   P: periodic, period 6 h (4 instances a day), start step 10, 2 steps of
 *      3 and 5 containers of 2 cores / 100 MB.
 *   Q: once, cycle 20000 (2024-10-04), start step 10, 3 steps of 7
 *      containers of 1 core / 10 MB.
 * At step 10 of cycle 20000: P's instance 0 (3 x 2 cores) + Q (7 x 1) = 13
 * cores; the same step of cycle 20001: P only = 6 cores (the folded load
 * profile says 13 for both).  Step 11 + 360 (instance 1, second step): 5 x 2
 * = 10 cores.  Step 12 of cycle 20000: Q only (P's 2 steps are 10, 11) = 7. */
#include "morpheus/plan.h"
#include "unit.h"

int main(void)
{
    plan *p = plan_new(60, 86400);
    struct plan_res r;
    plan_res_init(&r, "P", PLAN_PERIODIC, 2);
    r.period = 21600, r.a = 0, r.d = 21600, r.cores = 2, r.mem_mb = 100, r.start = 10;
    r.containers[0] = 3, r.containers[1] = 5;
    plan_add(p, &r);
    plan_res_init(&r, "Q", PLAN_ONCE, 3);
    r.period = 25200, r.a = 0, r.d = 25200, r.cores = 1, r.mem_mb = 10, r.start = 10, r.cycle = 20000;
    r.instance = 0;
    r.containers[0] = r.containers[1] = r.containers[2] = 7;
    plan_add(p, &r);
    double day = 86400.0 * 20000, c, m;
    plan_reserved_at(p, day + 10 * 60, &c, &m);
    CHECK_NEAR(c, 13, 0);
    CHECK_NEAR(m, 3 * 100 + 7 * 10, 0);
    plan_reserved_at(p, day + 86400 + 10 * 60 + 30, &c, &m);
    CHECK_NEAR(c, 6, 0);
    CHECK_NEAR(m, 300, 0);
    CHECK_NEAR(p->load_cores[10], 13, 0); /* the folded profile keeps Q in every cycle */
    plan_reserved_at(p, day + (11 + 360) * 60, &c, &m);
    CHECK_NEAR(c, 10, 0);
    plan_reserved_at(p, day + 12 * 60, &c, &m);
    CHECK_NEAR(c, 7, 0);
    plan_reserved_at(p, day - 86400 + 12 * 60, &c, &m);
    CHECK_NEAR(c, 0, 0);
    plan_reserved_at(p, day + 13 * 60, &c, &m);
    CHECK_NEAR(c, 0, 0);
    plan_remove_job(p, "Q");
    plan_reserved_at(p, day + 10 * 60, &c, &m);
    CHECK_NEAR(c, 6, 0);
    plan_free(p);
    return unit_done("plan-reserved-at");
}
