/* Unit test for lowcost's re-entrancy (lib/morpheus/lowcost.h, "Threads"):
 * the same requests placed (1) in order with one workspace, (2) into two
 * plans at once, alternating two workspaces between them, and (3) by two
 * threads, each with its own plan and workspace, give the same plans; and
 * two threads choosing on one shared read-only plan get what one thread
 * gets.  State carried between calls outside the workspace makes the
 * interleaved runs differ; a shared static workspace is a data race the
 * threaded runs hit only by chance (valgrind --tool=helgrind reports it
 * every time; tests/cli/lowcost.sh checks the source has no file-scope
 * variable). */
#include "morpheus/lowcost.h"
#include "unit.h"

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
    return unit_done("lowcost-reentrant");
}
