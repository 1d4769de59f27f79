/* Unit test for lowcost's re-entrancy (lib/morpheus/lowcost.h, "Threads"):
 * the same requests placed (1) in order with one workspace, (2) into two
 * plans at once, alternating two workspaces between them, and (3) by two
 * threads, each with its own plan and workspace, give the same plans; and
 * two threads choosing on one shared read-only plan get what one thread
 * gets.  State carried between calls outside the workspace makes the
 * interleaved runs differ; a shared static workspace is a data race the
 * threaded runs hit only by chance (valgrind --tool=helgrind reports it
 * every time; tests/cli/lowcost.sh checks the source has no file-scope
 * variable).
 *
 * Then one-off windows longer than the cycle (lowcost.h, "folded"): a
 * request whose allocation spans more than a cycle puts two of its steps on
 * one slot, and LowCost must count its own containers there.  Checked
 * against a brute force over every contiguous allocation (fold_brute, which
 * shares no code with lowcost.c) and hand-worked bounds. */
#include "morpheus/lowcost.h"
#include "unit.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#define NJOBS 40
#define MAXST 12

static struct lowcost_stage stages[NJOBS][MAXST];
static struct lowcost_req reqs[NJOBS];
static char names[NJOBS][16];

/* make_requests: a deterministic mix of daily and 4-hourly jobs, stretched
 * and gang stages, windows 1.5-3x their length */
static void make_requests(void)
{
    unsigned long s = 12345;
#define NEXT() (s = s * 6364136223846793005UL + 1442695040888963407UL, (long)((s >> 33) % 1000))
    for (int j = 0; j < NJOBS; j++) {
        long n = 2 + NEXT() % (MAXST - 1), h = 1 + NEXT() % 20;
        int32_t gang = NEXT() % 4 == 0 ? 2 : 1;
        for (long k = 0; k < n; k++)
            stages[j][k] = (struct lowcost_stage){h * gang * (1 + k % 2), (int32_t)(h * gang), gang};
        snprintf(names[j], sizeof names[j], "j%02d", j);
        double period = NEXT() % 3 == 0 ? 14400 : 86400;
        double a = 60.0 * (double)(NEXT() % (long)(period / 60 / 2));
        double len = 60.0 * (double)n * (1.5 + (double)(NEXT() % 15) / 10);
        reqs[j] = (struct lowcost_req){.job = names[j], .kind = PLAN_PERIODIC, .period = period, .a = a,
                                       .d = a + len, .cores = 1, .mem_mb = 1024, .nstages = n, .stage = stages[j]};
    }
}

static plan *new_plan(void)
{
    plan *p = plan_new(60, 86400);
    plan_set_capacity(p, 200, 1e9);
    return p;
}

static const struct lowcost_opts OPT = {.max_ends = 16, .chunks = 4, .align_weight = 0.25};

static void *place_all(void *arg)
{
    plan *p = arg;
    lowcost_ws *ws = lowcost_ws_new();
    struct lowcost_result res;
    for (int j = 0; j < NJOBS; j++)
        lowcost_place(ws, p, &reqs[j], &OPT, &res);
    lowcost_ws_free(ws);
    return NULL;
}

static int same_plans(const plan *a, const plan *b)
{
    if (a->nres != b->nres)
        return 0;
    for (size_t k = 0; k < a->nres; k++) {
        const struct plan_res *x = &a->res[k], *y = &b->res[k];
        if (x->start != y->start || x->len != y->len)
            return 0;
        for (long i = 0; i < x->len; i++)
            if (x->containers[i] != y->containers[i] || x->stage[i] != y->stage[i])
                return 0;
    }
    return 1;
}

/* the choices of every request on one read-only plan, one thread's share */
struct chooser {
    const plan *p;
    long start[NJOBS], len[NJOBS];
};

static void *choose_all(void *arg)
{
    struct chooser *c = arg;
    lowcost_ws *ws = lowcost_ws_new();
    for (int j = 0; j < NJOBS; j++) {
        struct lowcost_result res;
        struct plan_res r;
        c->start[j] = c->len[j] = -1;
        if (lowcost_choose(ws, c->p, &reqs[j], &OPT, &res, &r)) {
            c->start[j] = r.start, c->len[j] = r.len;
            plan_res_free(&r);
        }
    }
    lowcost_ws_free(ws);
    return NULL;
}

/* ---- folded one-off windows ---------------------------------------------------- */

/* A plan of ns 60 s steps and cap cores (memory unbounded), with bg[s]
 * cores of background load at slot s. */
static plan *fold_plan(long ns, double cap, const double *bg)
{
    plan *p = plan_new(60, 60 * ns);
    plan_set_capacity(p, cap, 1e12);
    for (long s = 0; s < ns; s++)
        p->load_cores[s] = bg ? bg[s] : 0;
    return p;
}

/* A one-off request of one container size (1 core) over steps [0, w). */
static struct lowcost_req fold_req(long w, long nst, const struct lowcost_stage *st)
{
    return (struct lowcost_req){.job = "Q",
                                .kind = PLAN_ONCE,
                                .period = 60.0 * (double)w,
                                .a = 0,
                                .d = 60.0 * (double)w,
                                .cores = 1,
                                .mem_mb = 0,
                                .nstages = nst,
                                .stage = st};
}

/* fold_brute: the lowest plan peak over every contiguous allocation of q in
 * steps [0, w) (each stage a run of steps of whole gangs, at most its
 * maximum parallelism a step) that fits the capacity once folded onto the
 * cycle; INFINITY when none fits. */
struct brute {
    long ns, w;
    double cap;
    const double *bg;
    const struct lowcost_req *q;
    long s0;
    int32_t x[64];
    double best;
};

static void brute_eval(struct brute *b, long end)
{
    double tot[16] = {0}, pk = 0;
    for (long t = b->s0; t < end; t++)
        tot[t % b->ns] += b->x[t];
    for (long s = 0; s < b->ns; s++) {
        double l = (b->bg ? b->bg[s] : 0) + tot[s];
        if (l > b->cap + 1e-9)
            return;
        pk = fmax(pk, l / b->cap);
    }
    b->best = fmin(b->best, pk);
}

static int64_t brute_gangs(const struct lowcost_stage *st) { return (st->demand + st->gang - 1) / st->gang; }

static void brute_step(struct brute *b, long t, long k, int64_t left)
{
    if (k == b->q->nstages) {
        brute_eval(b, t);
        return;
    }
    if (t >= b->w)
        return;
    const struct lowcost_stage *st = &b->q->stage[k];
    int64_t per = st->maxpar / st->gang > 0 ? st->maxpar / st->gang : 1;
    for (int64_t a = 1; a <= per && a <= left; a++) {
        b->x[t] = (int32_t)(a * st->gang);
        if (a == left)
            brute_step(b, t + 1, k + 1, k + 1 < b->q->nstages ? brute_gangs(&b->q->stage[k + 1]) : 0);
        else
            brute_step(b, t + 1, k, left - a);
    }
}

static double fold_brute(long ns, double cap, const double *bg, const struct lowcost_req *q, long w)
{
    struct brute b = {.ns = ns, .w = w, .cap = cap, .bg = bg, .q = q, .best = INFINITY};
    for (b.s0 = 0; b.s0 < w; b.s0++)
        brute_step(&b, b.s0, 0, brute_gangs(&q->stage[0]));
    return b.best;
}

/* fold_case: q placed by LowCost (lcmpack's defaults) on the plan of
 * fold_plan(ns, cap, bg): placed, within the capacity once folded, at the
 * brute force's lowest peak (exact; else not below it: LowCost is a
 * heuristic), and the cost it reports is the cost of its slots as they are
 * after it (lowcost_result.cost); returns the peak. */
static double fold_case(long ns, double cap, const double *bg, const struct lowcost_req *q, long w, int exact)
{
    static const struct lowcost_opts O = {.max_ends = 48, .chunks = 16, .align_weight = 0.25};
    plan *p = fold_plan(ns, cap, bg);
    lowcost_ws *ws = lowcost_ws_new();
    struct lowcost_result res;
    double want = fold_brute(ns, cap, bg, q, w), got = NAN;
    CHECK(isfinite(want));
    int ok = lowcost_place(ws, p, q, &O, &res);
    CHECK(ok);
    if (ok) {
        struct plan_over ov;
        CHECK(plan_over_capacity(p, &ov) == 0);
        got = plan_peak(p, NULL);
        if (exact)
            CHECK_NEAR(got, want, 1e-12);
        else
            CHECK(got >= want - 1e-12);
        CHECK_NEAR(res.cost, plan_res_peak(p, &p->res[p->nres - 1]), 1e-12);
    } else
        fprintf(stderr, "not placed: %s\n", res.why);
    lowcost_ws_free(ws);
    plan_free(p);
    return got;
}

static void test_folded(void)
{
    /* A 4-step cycle of 4 cores with 1 core of load at every step; Q, 12
     * containers at most 3 a step, may use 7 steps (a window of 1.75
     * cycles).  The free capacity is 3 x 4 = 12, Q's demand: a placement
     * fits only when it fills every slot exactly (peak 1), as the rigid
     * 3, 3, 3, 3 does.  LowCost before the fix spread Q over 7 steps at 1-2
     * a step, saw a cost of 0.75 at each step, and refused Q at the final
     * fit ("once folded onto the cycle"). */
    const double one[4] = {1, 1, 1, 1};
    struct lowcost_stage s12 = {12, 3, 1};
    struct lowcost_req q = fold_req(7, 1, &s12);
    CHECK_NEAR(fold_case(4, 4, one, &q, 7, 1), 1.0, 1e-12);

    /* The same Q on an empty cycle of 100 cores: 12 containers on 4 slots
     * put 3 on some slot, so the peak is at least 0.03 (the rigid
     * allocation's); before the fix LowCost spread Q at 2 a step over 6 or 7
     * steps (0.02 a step in its view) and left 4 on three slots: 0.04,
     * reported 0.02. */
    CHECK_NEAR(fold_case(4, 100, NULL, &q, 7, 1), 0.03, 1e-12);

    /* Two stages with gangs, on a 5-step cycle of 20 cores with load 2, 5,
     * 2, 8, 2, a window of 9 steps: the brute force's best is 0.55, LowCost
     * (before and after the fix) reaches 0.60; before the fix it reported
     * 0.50, its view without its own containers on a slot. */
    const double bg5[5] = {2, 5, 2, 8, 2};
    struct lowcost_stage s2[2] = {{8, 4, 2}, {24, 6, 1}};
    struct lowcost_req q2 = fold_req(9, 2, s2);
    fold_case(5, 20, bg5, &q2, 9, 0);

    /* lowcost_score of a reservation longer than the cycle counts its own
     * containers on a slot: 2 a step over 7 steps of a 4-step cycle of 100
     * cores is 4 on slots 0-2 (0.04; the sum, 2 x 0.04 x 6 + 2 x 0.02). */
    plan *p = fold_plan(4, 100, NULL);
    struct plan_res r;
    plan_res_init(&r, "Q", PLAN_ONCE, 7);
    r.cores = 1;
    r.period = r.d = 420;
    for (long j = 0; j < 7; j++)
        r.containers[j] = 2;
    double sum, sc = lowcost_score(p, &r, &(struct lowcost_opts){0}, &sum);
    CHECK_NEAR(sc, 0.04, 1e-12);
    CHECK_NEAR(sum, 2 * 0.04 * 6 + 2 * 0.02, 1e-12);
    plan_res_free(&r);
    plan_free(p);
}

/* test_folded_sweep: random small folded cases (3-6 step cycles of 4-15
 * cores with some load at each step, 1-2 stages with gangs, a window of 1-2
 * cycles and a step) against the brute force: a request is placed only when
 * some allocation fits, a placement fits, never beats the brute force's
 * best peak, and reports its real cost.  Prints (not checked: LowCost is a
 * heuristic) how many were placed and at the best peak. */
static void test_folded_sweep(int n)
{
    static const struct lowcost_opts O = {.max_ends = 48, .chunks = 16, .align_weight = 0.25};
    unsigned long seed = 2026;
#define RND(m)                                                                                               \
    (seed = seed * 6364136223846793005UL + 1442695040888963407UL, (long)((seed >> 33) % (unsigned long)(m)))
    long feasible = 0, placed = 0, best = 0, bad_place = 0, bad_fit = 0, bad_peak = 0, bad_cost = 0;
    lowcost_ws *ws = lowcost_ws_new();
    for (int it = 0; it < n; it++) {
        long ns = 3 + RND(4);
        double cap = (double)(4 + RND(12)), bg[6];
        for (long s = 0; s < ns; s++)
            bg[s] = (double)RND((long)cap / 2 + 1);
        long nst = 1 + RND(2);
        struct lowcost_stage st[2];
        for (long k = 0; k < nst; k++) {
            int32_t g = RND(3) == 0 ? 2 : 1;
            st[k] = (struct lowcost_stage){g * (1 + RND(3 * ns / nst + 1)), g * (int32_t)(1 + RND(3)), g};
        }
        long w = ns + 1 + RND(ns + 1);
        struct lowcost_req q = fold_req(w, nst, st);
        double want = fold_brute(ns, cap, bg, &q, w);
        plan *p = fold_plan(ns, cap, bg);
        struct lowcost_result res;
        int ok = lowcost_place(ws, p, &q, &O, &res);
        feasible += isfinite(want);
        placed += ok;
        if (ok) {
            struct plan_over ov;
            double pk = plan_peak(p, NULL);
            bad_place += !isfinite(want);
            bad_fit += plan_over_capacity(p, &ov) != 0;
            bad_peak += pk < want - 1e-12;
            bad_cost += fabs(res.cost - plan_res_peak(p, &p->res[p->nres - 1])) > 1e-12;
            best += fabs(pk - want) <= 1e-12;
        }
        plan_free(p);
    }
#undef RND
    lowcost_ws_free(ws);
    CHECK(bad_place == 0);
    CHECK(bad_fit == 0);
    CHECK(bad_peak == 0);
    CHECK(bad_cost == 0);
    CHECK(feasible > n / 2); /* the sweep means something */
    printf("# folded sweep: %d cases, %ld feasible, %ld placed, %ld at the best peak\n", n, feasible, placed,
           best);
}

int main(void)
{
    make_requests();
    plan *a = new_plan();
    place_all(a);
    CHECK(a->nres > NJOBS / 2); /* the test means something: most placed */

    /* two plans at once, two workspaces swapped at every request */
    plan *b = new_plan(), *c = new_plan();
    lowcost_ws *w1 = lowcost_ws_new(), *w2 = lowcost_ws_new();
    for (int j = 0; j < NJOBS; j++) {
        struct lowcost_result res;
        lowcost_place(j % 2 ? w1 : w2, b, &reqs[j], &OPT, &res);
        lowcost_place(j % 2 ? w2 : w1, c, &reqs[j], &OPT, &res);
    }
    lowcost_ws_free(w1);
    lowcost_ws_free(w2);
    CHECK(same_plans(a, b));
    CHECK(same_plans(a, c));

    /* two threads, each with its own plan */
    plan *d = new_plan(), *e = new_plan();
    pthread_t t1, t2;
    CHECK(pthread_create(&t1, NULL, place_all, d) == 0);
    CHECK(pthread_create(&t2, NULL, place_all, e) == 0);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    CHECK(same_plans(a, d));
    CHECK(same_plans(a, e));

    /* two threads choosing on one shared plan (a half-full one) */
    plan *h = new_plan();
    lowcost_ws *w = lowcost_ws_new();
    for (int j = 0; j < NJOBS / 2; j++) {
        struct lowcost_result res;
        lowcost_place(w, h, &reqs[j], &OPT, &res);
    }
    lowcost_ws_free(w);
    static struct chooser one, c1, c2;
    one.p = c1.p = c2.p = h;
    choose_all(&one);
    CHECK(pthread_create(&t1, NULL, choose_all, &c1) == 0);
    CHECK(pthread_create(&t2, NULL, choose_all, &c2) == 0);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    int same = 1;
    for (int j = 0; j < NJOBS; j++)
        same &= one.start[j] == c1.start[j] && one.start[j] == c2.start[j] && one.len[j] == c1.len[j] &&
                one.len[j] == c2.len[j];
    CHECK(same);

    plan_free(a), plan_free(b), plan_free(c), plan_free(d), plan_free(e), plan_free(h);

    test_folded();
    test_folded_sweep(2000);
    return unit_done("lowcost-reentrant");
}
