/* test_rpfile — replplace's tables (lib/harvest/rpfile) on hand-worked files. */
#include "harvest/rpfile.h"
#include "base/diag.h"
#include "unit.h"

#include <stdlib.h>
#include <unistd.h>

static char *write_tmp(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/test_rpfile.XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* Two tenants of 2 and 3 servers: servers 0-1 are a's, 2-4 b's.  Events are
 * sorted by time, then server; the latest time is 7200. */
static void test_read(void)
{
    char *tp = write_tmp("tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\n"
                         "a,e1,2,100,0.5,0.3\nb,e2,3,200,1,0.9\n");
    int st = -1;
    rp_cluster *c = rp_read_tenants(tp, NULL, 256, 20, 1, &st);
    unlink(tp);
    CHECK(c && st == SLK_OK);
    CHECK(rp_ntenants(c) == 2 && rp_nservers(c) == 5);
    rp_cluster_build(c);
    CHECK_STR(rp_tenant_name(c, rp_server_tenant(c, 4)), "b");
    CHECK_STR(rp_tenant_name(c, rp_server_tenant(c, 1)), "a");
    char *ep = write_tmp("t,server,event\n7200,4,add\n60,3,reimage\n60,1,fail\n");
    size_t n = 0;
    double tmax = 0;
    struct rp_event *ev = rp_read_events(c, ep, NULL, &n, &tmax, &st);
    unlink(ep);
    CHECK(ev && st == SLK_OK && n == 3);
    CHECK_NEAR(tmax, 7200, 0);
    CHECK(ev[0].server == 1 && ev[0].kind == RP_EV_FAIL);
    CHECK(ev[1].server == 3 && ev[1].kind == RP_EV_REIMAGE);
    CHECK(ev[2].server == 4 && ev[2].kind == RP_EV_ADD);
    free(ev);
    /* a server beyond the cluster is an error */
    ep = write_tmp("t,server,event\n0,5,fail\n");
    ev = rp_read_events(c, ep, NULL, &n, &tmax, &st);
    unlink(ep);
    CHECK(!ev && st == SLK_EDATA);
    rp_cluster_free(c);
    /* peak utilization above 1 is refused */
    tp = write_tmp("tenant,environment,servers,space_gb,reimages_per_server_month,peak_util\na,e1,2,100,0.5,30\n");
    c = rp_read_tenants(tp, NULL, 256, 20, 1, &st);
    unlink(tp);
    CHECK(!c && st == SLK_EDATA);
}

/* 3 lost of 1000 blocks = 0.3%; 5 failed of 2000 reads = 0.25%; the first
 * loss at 43200 s is day 0.5; mean util 0.8 / 2000 reads. */
static void test_result(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    csvw *w = csvw_new_with(f, NULL);
    struct rp_sim_result r = {0};
    r.blocks = 1000;
    r.lost = 3;
    r.accesses = 2000;
    r.failed_busy = 4;
    r.failed_lost = 1;
    r.first_loss = 43200;
    r.util_sum = 0.8;
    rp_write_result(w, "alg2", 3, &r);
    csvw_free(w);
    fclose(f);
    CHECK_STR(buf, "alg2,3,1000,3,0.3,2000,5,0.25,0,0,0,0,0,0.5,0.0004\n");
    free(buf);
}

int main(void)
{
    slk_init("test_rpfile");
    test_read();
    test_result();
    return unit_done("rpfile");
}
