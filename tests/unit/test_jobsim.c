/* Unit tests of lib/jockey/jobsim on hand-worked jobs, and of Jockey's
 * simulator controller, which keeps the model's predictions while a job's
 * stages stay where they were. */
#include "base/diag.h"
#include "jockey/jobsim.h"
#include "jockey/jockey.h"
#include "unit.h"

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

/* One job "j": 4 tasks of 10 s, then 1 task of 5 s, never failing. */
static void hand_model(struct jobsim_set *set)
{
    static const double dur[2] = {10, 5}, ntasks[2] = {4, 1};
    *set = (struct jobsim_set){xcalloc(1, sizeof(char *)), xcalloc(1, sizeof(struct jobsim_model)), 1, NULL};
    set->job[0] = xstrdup("j");
    set->m[0] = (struct jobsim_model){xcalloc(2, sizeof(struct jobsim_stage)), 2};
    for (size_t s = 0; s < 2; s++) {
        double *d = xmalloc(sizeof *d);
        *d = dur[s];
        set->m[0].st[s] = (struct jobsim_stage){.ntasks = ntasks[s], .dur = d, .ndur = 1, .mean = dur[s]};
    }
}

/* The target of a first sample of run `run` at done[] (a fresh state, so
 * the target depends on done[] alone), or -1 when no decision is made. */
static double target_at(jockey *jk, const char *run, const double *done)
{
    struct jockey_decision dec;
    return jockey_sample(jk, "j", run, 0, 0, done, 2, 1, &dec) ? dec.target : -1;
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

    /* The simulator controller with a 20 s deadline and slack 1.2 (a
     * prediction of at most 16.7 s meets it).  From nothing done 2 or 3
     * tokens take 25 s and 4 take 15: the target is 4.  From 2 tasks of
     * stage 0 done 1 token takes 25 s and 2 take 15: the target is 2.  The
     * states are asked in turn in one array changed in place, as a replay
     * does, on one controller (its kept predictions must follow the state)
     * and each on a fresh controller. */
    struct jockey_opts o;
    jockey_opts_default(&o);
    o.deadline = 20;
    jockey *kept = NULL;
    CHECK(jockey_new(&o, NULL, NULL, NULL, &kept) == SLK_OK);
    struct jobsim_set set;
    hand_model(&set);
    jockey_adopt_models(kept, &set);
    double state[2] = {0, 0}, want[4] = {4, 2, 2, 4}, got[4];
    static const double stage0[4] = {0, 2, 2, 0};
    static const char *const runs[4] = {"r1", "r2", "r3", "r4"};
    for (int i = 0; i < 4; i++) {
        state[0] = stage0[i];
        got[i] = target_at(kept, runs[i], state);
        jockey *fresh = NULL;
        CHECK(jockey_new(&o, NULL, NULL, NULL, &fresh) == SLK_OK);
        hand_model(&set);
        jockey_adopt_models(fresh, &set);
        CHECK_NEAR(target_at(fresh, runs[i], state), want[i], 0);
        CHECK_NEAR(got[i], want[i], 0);
        jockey_free(fresh);
    }
    /* new models on the same controller: the kept predictions go with the
     * old ones (4 s tasks in the first stage: from nothing done 2 tokens
     * take 8 + 5 s, 1 takes 21: the target is 2, where the old model's is 4) */
    hand_model(&set);
    *set.m[0].st[0].dur = 4;
    jockey_adopt_models(kept, &set);
    state[0] = 0;
    double fresh_target;
    {
        jockey *fresh = NULL;
        CHECK(jockey_new(&o, NULL, NULL, NULL, &fresh) == SLK_OK);
        hand_model(&set);
        *set.m[0].st[0].dur = 4;
        jockey_adopt_models(fresh, &set);
        fresh_target = target_at(fresh, "r5", state);
        jockey_free(fresh);
    }
    CHECK_NEAR(fresh_target, 2, 0);
    CHECK_NEAR(target_at(kept, "r5", state), fresh_target, 0);
    jockey_free(kept);
    return unit_done("jobsim");
}
