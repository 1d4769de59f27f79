/* Unit tests of lib/jockey/jobsim on hand-worked jobs. */
#include "unit.h"
#include "jockey/jobsim.h"

#include <math.h>
#include <stdlib.h>

static double fixed_draw(void *ctx, size_t s, rng *r)
{
    (void)r;
    return ((const double *)ctx)[s];
}
static double no_fail(void *ctx, size_t s)
{
    (void)ctx, (void)s;
    return 0;
}

int main(void)
{
    /* two stages: 4 tasks of 10 s, then 1 task of 5 s */
    double nt[2] = {4, 1}, dur[2] = {10, 5};
    struct jobsim_src src = {2, nt, fixed_draw, no_fail, dur};
    rng r;
    rng_seed(&r, 1);
    /* 2 tokens: 10 + 10, then 5 -> 25 */
    CHECK_NEAR(jobsim_engine(&src, NULL, 2, &r, NULL, NULL), 25, 1e-12);
    /* 3 tokens: 3 tasks at 0-10, 1 at 10-20, then 5 -> 25 */
    CHECK_NEAR(jobsim_engine(&src, NULL, 3, &r, NULL, NULL), 25, 1e-12);
    /* 4 tokens: 10 + 5 = 15; from 2 of stage 0 done on 3 tokens: 10 + 5 */
    CHECK_NEAR(jobsim_engine(&src, NULL, 4, &r, NULL, NULL), 15, 1e-12);
    double done[2] = {2, 0};
    CHECK_NEAR(jobsim_engine(&src, done, 3, &r, NULL, NULL), 15, 1e-12);
    double all[2] = {4, 1};
    CHECK_NEAR(jobsim_engine(&src, all, 3, &r, NULL, NULL), 0, 0);
    /* an allocation below 1 runs on one token: 4 x 10 + 5 */
    CHECK_NEAR(jobsim_engine(&src, NULL, 0.5, &r, NULL, NULL), 45, 1e-12);

    /* the learned model with one observed duration per stage behaves the same */
    struct jobsim_model m = {calloc(2, sizeof(struct jobsim_stage)), 2};
    double d0[1] = {10}, d1[1] = {5};
    m.st[0] = (struct jobsim_stage){.ntasks = 4, .dur = d0, .ndur = 1, .fail = 0, .mean = 10};
    m.st[1] = (struct jobsim_stage){.ntasks = 1, .dur = d1, .ndur = 1, .fail = 0, .mean = 5};
    CHECK_NEAR(jobsim_simulate(&m, NULL, 3, 5, 7), 25, 1e-12);
    CHECK_NEAR(jobsim_simulate(&m, done, 3, 5, 7), 15, 1e-12);
    /* Amdahl with the slides' terms: S = 10 + 5, P = 4 x 10 + 5 = 45:
     * 15 + 45 / 3 = 30; from done {2, 0}: S 15, P 25 -> 15 + 25/3 */
    CHECK_NEAR(jobsim_amdahl(&m, NULL, 3), 30, 1e-12);
    CHECK_NEAR(jobsim_amdahl(&m, done, 3), 15 + 25.0 / 3, 1e-12);
    /* stage 0 finished: S 5, P 5 -> 5 + 5/3 */
    double st1[2] = {4, 0};
    CHECK_NEAR(jobsim_amdahl(&m, st1, 3), 5 + 5.0 / 3, 1e-12);
    double S, P;
    jobsim_whole_sp(&m, &S, &P);
    CHECK_NEAR(S, 15, 1e-12);
    CHECK_NEAR(P, 45, 1e-12);
    /* failures: an attempt fails with probability 0.5 -> expected time per
     * task 10 / 0.5 = 20: Amdahl 20 + 5 + (80 + 5) / 3 */
    m.st[0].fail = 0.5;
    CHECK_NEAR(jobsim_amdahl(&m, NULL, 3), 25 + 85.0 / 3, 1e-12);
    free(m.st);
    return unit_done("jobsim");
}
