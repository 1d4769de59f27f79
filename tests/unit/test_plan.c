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
    /* plan_reserved (replay's per-step form) answers what plan_reserved_at
     * does at every step of three cycles, also for a reservation added after
     * init (as the DRA's extensions are) and changed after that */
    {
        struct plan_reserved pr;
        plan_reserved_init(p, &pr);
        plan_res_init(&r, "X", PLAN_ONCE, 2);
        r.period = 3600, r.a = 0, r.d = 3600, r.cores = 3, r.mem_mb = 1, r.start = 1439, r.cycle = 20000;
        r.containers[0] = 4, r.containers[1] = 9; /* wraps into the next cycle's step 0 */
        size_t x = plan_add(p, &r);
        int same = 1;
        for (int round = 0; round < 2; round++) {
            for (long k = -1440; k < 2 * 1440 && same; k++) {
                double a1, a2, b1, b2;
                plan_reserved_at(p, day + k * 60.0 + 7, &a1, &a2);
                plan_reserved_get(p, &pr, day + k * 60.0 + 7, &b1, &b2);
                same = a1 == b1 && a2 == b2;
            }
            p->res[x].containers[1] = 2;
        }
        CHECK(same);
        plan_reserved_at(p, day + 86400, &c, &m);
        CHECK_NEAR(c, 2 * 3, 0); /* X's second step, at step 0 of cycle 20001 */
        plan_reserved_free(&pr);
        plan_remove_job(p, "X");
    }
    plan_remove_job(p, "Q");
    plan_reserved_at(p, day + 10 * 60, &c, &m);
    CHECK_NEAR(c, 6, 0);
    /* plan_window, worked by hand on 60 s steps (docs/lcmpack.md, "Windows
     * off the grid"): [78, 569.5] holds 8 steps in seconds, 7 on the grid
     * ([120, 540)): for a request of 8 steps it starts at 60, steps [1, 9);
     * for one of 7 or fewer it stays [2, 9) (the grid costs it nothing).
     * [100, 591.5], 8 steps: likewise [1, 9), never past d (not [2, 10)).
     * [78, 557] holds 7 steps in seconds: [2, 9) even for 8.  On the grid
     * nothing changes: [0, 150], 3 steps -> [0, 2).  [90, 570], 8 -> [1, 9).
     * base shifts the window: 3600 + [78, 569.5], 8 -> [61, 69); [10, 50]
     * holds no step. */
    long lo, hi;
    CHECK(plan_window(p, 0, 78, 569.5, 8, &lo, &hi) == 0 && lo == 1 && hi == 9);
    CHECK(plan_window(p, 0, 78, 569.5, 7, &lo, &hi) == 0 && lo == 2 && hi == 9);
    CHECK(plan_window(p, 0, 78, 569.5, 3, &lo, &hi) == 0 && lo == 2 && hi == 9);
    CHECK(plan_window(p, 0, 100, 591.5, 8, &lo, &hi) == 0 && lo == 1 && hi == 9);
    CHECK(plan_window(p, 0, 78, 557, 8, &lo, &hi) == 0 && lo == 2 && hi == 9);
    CHECK(plan_window(p, 0, 0, 150, 3, &lo, &hi) == 0 && lo == 0 && hi == 2);
    CHECK(plan_window(p, 0, 90, 570, 8, &lo, &hi) == 0 && lo == 1 && hi == 9);
    CHECK(plan_window(p, 3600, 78, 569.5, 8, &lo, &hi) == 0 && lo == 61 && hi == 69);
    CHECK(plan_window(p, 0, 10, 50, 1, &lo, &hi) == -1);
    plan_free(p);
    return unit_done("plan-reserved-at");
}
