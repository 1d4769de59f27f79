/* Unit tests for the modules lcmpack is built from, each against a
 * hand-worked example.
 *
 * stages_resample (lib/morpheus/stages): a skyline of 30 s rows
 *   alloc 4, 2, 0, 0, 6, 6 at offsets 0..150, plan step S = 60 s:
 *   stage 0 = [0,60): area (4*30 + 2*30)/60 = 3, max 4;
 *   [60,120) holds only zeros: no stage;  stage 1 = [120,180): 6, max 6.
 *   Uneven offsets are refused.
 * lowcost_need (lib/morpheus/lowcost), lookahead_slack (lib/morpheus/lookahead): stages
 *   (demand 10, maxpar 4, gang 2) and (demand 3, maxpar 1, gang 1):
 *   5 gangs of 2 at 2 gangs per step = 3 steps, then 3 steps = 6.
 *   Window [0, 600) s of 60 s steps = 10 steps: slack 4.
 * planbound (lib/morpheus/planbound): capacity 10 cores / 1000 MB over a
 *   10-step cycle (sums 100 and 10000); one periodic reservation (period =
 *   cycle) of csteps 20 containers of 1 core, 10 MB, tallest 5: area bound
 *   max(200/10000, 20/100) = 0.2; fixed: 5 cores of 10 = 0.5.
 * yarn_write_plan (lib/morpheus/yarn): a periodic reservation at step 2 of
 *   60 s steps, containers 3,3,5, period 600 s, at = 1000 s: arrival
 *   (1000 + 120) * 1000 ms, two request items of 120000 ms and 60000 ms.
 * stable_keep (lib/morpheus/stable): the reservation of 3,3,5 containers
 *   (area 11) at steps 2..4, window [0, 600) s: a request of one stage of
 *   demand 12 (+9.1%) is kept at tol 0.10 and moved at 0.05; a window that
 *   now starts at 180 s (step 3) moves it; 2-core containers instead of 1
 *   move it; at full parallelism the +9.1% request needs 2 steps (6 + 6),
 *   none past the 3; a stage of maxpar 1 needs 12 steps, 9 of its 12
 *   container-steps past the 3 (75%): moved; maxpar 3 needs 4 (3 + 3 + 3 +
 *   3), 3 past (25%): moved at 10%, kept at 25%; 10 at maxpar 3 (3, 3, 3,
 *   1) has 1 past 3 steps; 7 in gangs of 2 at maxpar 4 is 4 + 4, 4 past 1.  A request of
 *   demand 6 (area -45%) fits inside (3 + 3 of the first two steps): kept
 *   even at tol 0.  Stages (5, maxpar 3) then (5, maxpar 5): steps 1-2
 *   serve the first (3 + 3 >= 5), step 3 (5 containers) the second: fits.
 *   (7, maxpar 3) then (5, 5): the first needs all three steps (3 + 3 + 3),
 *   none is left for the second: does not fit. */
#include "morpheus/lookahead.h"
#include "morpheus/planbound.h"
#include "morpheus/stable.h"
#include "morpheus/stages.h"
#include "morpheus/yarn.h"
#include "unit.h"

#include <stdlib.h>

static void test_stages(void)
{
    struct stages_row rows[6] = {{0, 4, 1}, {30, 2, 1}, {60, 0, 1}, {90, 0, 1}, {120, 6, 2}, {150, 6, 1}};
    struct stages_job j = {.job = "j", .step = 30};
    char why[256] = "";
    CHECK(stages_resample(&j, rows, 6, 60, why, sizeof why) == 0);
    CHECK(j.nst == 2);
    CHECK(j.st[0].demand == 3 && j.st[0].maxpar == 4 && j.st[0].gang == 1);
    CHECK(j.st[1].demand == 6 && j.st[1].maxpar == 6 && j.st[1].gang == 2);
    free(j.st);
    rows[2].off = 70;
    CHECK(stages_resample(&j, rows, 6, 60, why, sizeof why) == -1);
    CHECK(strstr(why, "not evenly spaced") != NULL);
}

static void test_lookahead(void)
{
    struct lowcost_stage st[2] = {{10, 4, 2}, {3, 1, 1}};
    struct lowcost_req q = {.job = "q", .kind = PLAN_PERIODIC, .period = 86400, .a = 0, .d = 600, .cores = 1,
                            .mem_mb = 1, .nstages = 2, .stage = st};
    CHECK(lowcost_need(&q) == 6);
    plan *p = plan_new(60, 86400);
    plan_set_capacity(p, 10, 1000);
    CHECK(lookahead_slack(p, &q) == 4);
    plan_free(p);
}

static void test_bound(void)
{
    plan *p = plan_new(60, 600);
    plan_set_capacity(p, 10, 1000);
    struct planbound b;
    planbound_init(&b, p, 0);
    struct planidx_res r = {.job = "r", .kind = PLAN_PERIODIC, .period = 600, .cores = 1, .mem_mb = 10,
                            .maxc = 5, .csteps = 20};
    planbound_add(&b, p, &r, 0);
    CHECK_NEAR(planbound_area(&b), 0.2, 1e-12);
    CHECK_NEAR(planbound_value(&b), 0.2, 1e-12);
    planbound_add(&b, p, &r, 1);
    CHECK_NEAR(planbound_value(&b), 0.5, 1e-12);
    plan_free(p);
}

static void test_yarn(void)
{
    plan *p = plan_new(60, 600);
    struct plan_res r;
    plan_res_init(&r, "etl", PLAN_PERIODIC, 3);
    r.period = 600, r.a = 0, r.d = 600, r.cores = 2, r.mem_mb = 1024, r.start = 2;
    r.containers[0] = r.containers[1] = 3, r.containers[2] = 5;
    plan_add(p, &r);
    char *buf = NULL;
    size_t n = 0;
    FILE *fp = open_memstream(&buf, &n);
    struct yarn_opts yo = {.queue = "dedicated", .at = 1000};
    CHECK(yarn_write_plan(p, fp, &yo) == 0);
    fclose(fp);
    CHECK(strstr(buf, "\"arrival\":1120000,") != NULL);
    CHECK(strstr(buf, "\"recurrence-expression\":\"600000\"") != NULL);
    CHECK(strstr(buf, "{\"duration\":120000,\"num-containers\":3,\"min-concurrency\":3,"
                      "\"capability\":{\"memory\":1024,\"vCores\":2}},{\"duration\":60000,") != NULL);
    free(buf);
    plan_free(p);
}

static void test_stable(void)
{
    plan *p = plan_new(60, 600);
    plan_set_capacity(p, 100, 100000);
    struct plan_res r;
    plan_res_init(&r, "j", PLAN_PERIODIC, 3);
    r.period = 600, r.a = 0, r.d = 600, r.cores = 1, r.mem_mb = 10, r.start = 2;
    r.containers[0] = r.containers[1] = 3, r.containers[2] = 5;
    size_t k = plan_add(p, &r);
    struct lowcost_stage st = {12, 6, 1};
    struct lowcost_req q = {.job = "j", .kind = PLAN_PERIODIC, .period = 600, .a = 0, .d = 600, .cores = 1,
                            .mem_mb = 10, .nstages = 1, .stage = &st};
    char why[200];
    CHECK(stable_keep(p, &p->res[k], &q, 0.10, why, sizeof why) == 1);
    CHECK_STR(why, "area +9.1%, needs 2 of 3 steps (0.0% of the work past them), inside [a, d]");
    CHECK(stable_keep(p, &p->res[k], &q, 0.05, why, sizeof why) == 0);
    CHECK_STR(why, "area +9.1% (more than 5%)");
    q.a = 180; /* the window opens one step after the reservation: slack */
    CHECK(stable_keep(p, &p->res[k], &q, 0.10, why, sizeof why) == 1);
    CHECK_STR(why, "area +9.1%, needs 2 of 3 steps (0.0% of the work past them), within a step of [a, d]");
    q.a = 0, q.d = 240; /* ends at step 5, window closes at 4: slack */
    CHECK(stable_keep(p, &p->res[k], &q, 0.10, why, sizeof why) == 1);
    q.d = 230; /* closes at step 3: two steps short */
    CHECK(stable_keep(p, &p->res[k], &q, 0.10, why, sizeof why) == 0);
    CHECK_STR(why, "no longer inside the new window [0, 230] s (one step of slack)");
    q.d = 600, q.a = 181; /* opens at step 4: two steps late */
    CHECK(stable_keep(p, &p->res[k], &q, 0.10, why, sizeof why) == 0);
    q.a = 0, q.cores = 2;
    CHECK(stable_keep(p, &p->res[k], &q, 0.10, why, sizeof why) == 0);
    CHECK_STR(why, "request changed: container size");
    q.cores = 1, st.maxpar = 1;
    CHECK(stable_keep(p, &p->res[k], &q, 0.10, why, sizeof why) == 0);
    CHECK_STR(why, "needs 12 steps at full parallelism, the reservation spans 3 "
                   "(75.0% of the work past it, more than 10%)");
    st = (struct lowcost_stage){12, 3, 1}; /* 4 steps of 3 into 3, 3, 5: one step short */
    CHECK(stable_keep(p, &p->res[k], &q, 0.10, why, sizeof why) == 0);
    CHECK_STR(why, "needs 4 steps at full parallelism, the reservation spans 3 "
                   "(25.0% of the work past it, more than 10%)");
    CHECK(stable_tail(&q, 3) == 3 && stable_tail(&q, 4) == 0 && stable_tail(&q, 0) == 12);
    CHECK(stable_keep(p, &p->res[k], &q, 0.25, why, sizeof why) == 1);
    CHECK_STR(why, "area +9.1%, needs 4 of 3 steps (25.0% of the work past them), inside [a, d]");
    CHECK(stable_keep(p, &p->res[k], &q, 0.24, why, sizeof why) == 0);
    st = (struct lowcost_stage){10, 3, 1};
    CHECK(stable_tail(&q, 3) == 1);
    st = (struct lowcost_stage){7, 4, 2};
    CHECK(stable_tail(&q, 1) == 4 && stable_tail(&q, 2) == 0);
    st = (struct lowcost_stage){6, 6, 1};
    CHECK(stable_keep(p, &p->res[k], &q, 0, why, sizeof why) == 1);
    CHECK_STR(why, "the new stages fit inside the reservation (area -45.5%), inside [a, d]");
    struct lowcost_stage two[2] = {{5, 3, 1}, {5, 5, 1}};
    q.nstages = 2, q.stage = two;
    CHECK(stable_fits_inside(&p->res[k], &q) == 1);
    CHECK(stable_tail(&q, 3) == 0 && stable_tail(&q, 2) == 5); /* 3 + 2, then 5 */
    two[0].demand = 7;
    CHECK(stable_fits_inside(&p->res[k], &q) == 0);
    plan_free(p);
}

int main(void)
{
    test_stable();
    test_stages();
    test_lookahead();
    test_bound();
    test_yarn();
    return unit_done("lcmpack_parts");
}
