/* Unit tests for lib/harvest/replica's durability simulation: re-creation
 * from the surviving copies (RP_REBUILD_SOURCES), a case worked by hand. */
#include "base/diag.h"
#include "harvest/replica.h"
#include "unit.h"

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

int main(void)
{
    slk_init("test_replsim");
    test_retry_does_not_block();
    test_new_item_keeps_rate();
    return unit_done("replsim");
}
