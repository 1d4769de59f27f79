/* Unit tests for lib/harvest/replica's durability simulation: re-creation
 * from the surviving copies (RP_REBUILD_SOURCES), cases worked by hand. */
#include "base/diag.h"
#include "harvest/replica.h"
#include "unit.h"

#include <stdio.h>

static int nlost;
static double lost_at;

static void on_loss(void *ctx, uint64_t b, double t, int R, const int32_t *ls, const double *d)
{
    (void)ctx, (void)b, (void)R, (void)ls, (void)d;
    nlost++;
    lost_at = t;
}

/* run: the full three-server cluster both cases use (block size 1024 MB,
 * so a tenant's space in GB is its capacity in blocks: P 2, Q 1, S 1), 2
 * replicas of 2 blocks, stock policy, re-creation from the sources, with
 * the three events, --detect and --rate given; nlost reset. */
static void run(const struct rp_event ev[3], double horizon, double detect, double rate,
                struct rp_sim_result *r)
{
    rp_cluster *c = rp_cluster_new(1024, 1, 1);
    rp_cluster_add(c, "P", "e1", 1, 2, 1, 0.5);
    rp_cluster_add(c, "Q", "e2", 1, 1, 1, 0.5);
    rp_cluster_add(c, "S", "e3", 1, 1, 1, 0.5);
    rp_cluster_build(c);
    struct rp_sim_config cfg = {.policy = RP_STOCK,
                                .replicas = 2,
                                .blocks = 2,
                                .horizon = horizon,
                                .detect = detect,
                                .rate = rate,
                                .busy = 1,
                                .util_scale = 1,
                                .seed = 7,
                                .events = ev,
                                .nevents = 3,
                                .on_loss = on_loss,
                                .rebuild = RP_REBUILD_SOURCES};
    nlost = 0;
    rp_simulate(c, &cfg, r, NULL);
    rp_cluster_free(c);
}

/* A re-creation that must wait an hour (no destination) does not hold up
 * the sender's other items.  Block size 1024 MB, so a tenant's space in GB
 * is its capacity in blocks: P (1 server, 2 blocks), Q (1, 1), S (1, 1);
 * stock policy, 2 replicas of 2 blocks: the cluster is full, P holds one
 * copy of each block.  t=10: Q fails; its block's copy on P has nowhere to
 * go (S full, Q down): tried again at 3610.  t=100: S is reimaged; its
 * block's copy on P can go back to S at 160 (detect 60 s), and does.
 * t=2000: P is reimaged: Q's block, still at one copy on P, is lost; S's
 * block keeps its copy on S and is re-created on P at 2060.  So 1 block
 * lost (at 2000), 2 replicas re-created.  Before, the retried item at the
 * head of P's queue (and P's turn booked for 3610) held S's block back
 * until P's reimage: both blocks lost, none re-created. */
static void test_retry_does_not_block(void)
{
    struct rp_event ev[] = {{10, 1, RP_EV_FAIL}, {100, 2, RP_EV_REIMAGE}, {2000, 0, RP_EV_REIMAGE}};
    struct rp_sim_result r;
    run(ev, 10000, 60, 3600, &r);
    CHECK_NEAR((double)r.lost, 1, 0);
    CHECK_NEAR((double)nlost, 1, 0);
    CHECK_NEAR(lost_at, 2000, 0);
    CHECK_NEAR((double)r.rereplicated, 2, 0);
}

/* A sender keeps its rate when a new item arrives while it waits out its
 * step.  P (1 server, 2 blocks), Q (1, 1), S (1, 1): the cluster is full,
 * P holds one copy of each block.  Stock policy, detect 0, rate 1 an hour
 * (P sends one block every 3600 s).  t=10: Q is reimaged; its block goes
 * back to Q from P at 10, P's next turn at 3610.  t=20: S is reimaged; its
 * block waits on P until 3610.  t=1000: P is reimaged: S's block, still at
 * one copy on P, is lost; Q's block goes back to P from Q at 1000.  So 1
 * block lost, 2 replicas re-created.  Before, the item queued at 20 moved
 * P's turn forward to 20: two blocks sent 10 s apart at 1 an hour, nothing
 * lost (4 re-created). */
static void test_new_item_keeps_rate(void)
{
    struct rp_event ev[] = {{10, 1, RP_EV_REIMAGE}, {20, 2, RP_EV_REIMAGE}, {1000, 0, RP_EV_REIMAGE}};
    struct rp_sim_result r;
    run(ev, 3000, 0, 1, &r);
    CHECK_NEAR((double)r.lost, 1, 0);
    CHECK_NEAR(lost_at, 1000, 0);
    CHECK_NEAR((double)r.rereplicated, 2, 0);
}

/* Algorithm 2 gives up a class only when none of its eligible tenants has a
 * usable server, not when the one tenant it drew has none.  18 tenants of
 * one server each, each in its own environment, 1000 blocks of space each
 * (block size 1024 MB), reimage rate i + 1 and peak 0.1 + 0.1 * (i % 6) for
 * tenant i: equal space, so rows are i / 6 and columns (i % 6) / 2, and
 * class 3 * (i / 6) + (i % 6) / 2 holds exactly tenants i and i + 1 for
 * even i.  300 blocks of 2 replicas; at t = 100 every even tenant's server
 * fails (down for good).  Re-creation starts 60 s later, after all nine
 * failures.  A block whose two replicas were both on even servers is lost
 * (both destroyed, R = 2); every other destroyed replica has one survivor,
 * on an odd tenant of some class C, and Algorithm 2 can keep every rule: the
 * four classes outside C's row and column each hold one odd tenant that is
 * up, in an environment without a replica.  So every re-creation is at
 * level 0: relaxed = 0 and rereplicated = destroyed - 2 x lost.  Before, a
 * class whose drawn tenant was the failed one was dropped (probability 1/2
 * per class), all four with probability 1/16, and the replica went to a
 * class that repeats the survivor's row or column (relaxed > 0). */
static void test_class_kept_after_failed_tenant(int by_space)
{
    rp_cluster *c = rp_cluster_new(1024, 1, 1);
    for (int i = 0; i < 18; i++) {
        char name[16], env[16];
        snprintf(name, sizeof name, "t%d", i);
        snprintf(env, sizeof env, "e%d", i);
        rp_cluster_add(c, name, env, 1, 1000, i + 1, 0.1 + 0.1 * (i % 6));
    }
    rp_cluster_build(c);
    rp_cluster_pick_by_space(c, by_space);
    for (int i = 0; i < 18; i++)
        CHECK_NEAR(rp_tenant_class(c, i), 3 * (i / 6) + (i % 6) / 2, 0);
    struct rp_event ev[9];
    for (int i = 0; i < 9; i++)
        ev[i] = (struct rp_event){100, 2 * i, RP_EV_FAIL};
    struct rp_sim_config cfg = {.policy = RP_ALG2,
                                .replicas = 2,
                                .blocks = 300,
                                .horizon = 100000,
                                .detect = 60,
                                .rate = 3600,
                                .busy = 1,
                                .util_scale = 1,
                                .seed = 7,
                                .events = ev,
                                .nevents = 9,
                                .rebuild = RP_REBUILD_SOURCES};
    struct rp_sim_result r;
    rp_simulate(c, &cfg, &r, NULL);
    CHECK_NEAR((double)r.unplaced, 0, 0);
    CHECK_NEAR((double)r.relaxed, 0, 0);
    CHECK(r.rereplicated >= 100);
    CHECK_NEAR((double)r.rereplicated, (double)(r.replicas_destroyed - 2 * r.lost), 0);
    rp_cluster_free(c);
}

int main(void)
{
    slk_init("test_replsim");
    test_retry_does_not_block();
    test_new_item_keeps_rate();
    test_class_kept_after_failed_tenant(0);
    test_class_kept_after_failed_tenant(1);
    return unit_done("replsim");
}
