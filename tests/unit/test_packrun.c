/* Unit test for packrun/packout (lib/morpheus): one lcmpack run without the
 * CLI, worked by hand (the case "one job: spread from a" of
 * tests/cli/lcmpack.sh).  An hourly cycle of 60 s steps, 10 cores; job j1,
 * period 1 h, window [600, 3000] s, skyline one stage of 4 container-steps
 * at most 4 at once.  LowCost spreads it one container a step from a: steps
 * 10..13 (600..780 s), peak 0.1.  The lower bound is max(the tallest job
 * alone, 1 container = 0.1; area 4 / (60 x 10) = 1/150) = 0.1.  A second
 * job j2 in [0, 60] s needing 20 containers at once (gang 20) cannot fit 10
 * cores: rejected, reported, not placed. */
#include "morpheus/packrun.h"
#include "base/diag.h"
#include "unit.h"

#include <stdlib.h>
#include <unistd.h>

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static long count_lines(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    char line[512];
    long n = 0;
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, needle) != NULL;
    if (f)
        fclose(f);
    return n;
}

int main(void)
{
    char dir[] = "/tmp/test_packrun.XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char slo[64], sky[64], out[64], rep[64];
    snprintf(slo, sizeof slo, "%s/slo.csv", dir);
    snprintf(sky, sizeof sky, "%s/sky.csv", dir);
    snprintf(out, sizeof out, "%s/plan.csv", dir);
    snprintf(rep, sizeof rep, "%s/rep.csv", dir);
    write_file(slo, "job,period,a,d,status\nj1,3600,600,3000,actionable\nj2,3600,0,60,actionable\n");
    write_file(sky, "job,step,offset,alloc,gang\nj1,60,0,4,1\nj2,60,0,20,20\n");

    struct packrun_opts o = {.input = sky, .slo = slo, .report = rep, .cap_cores = 10, .cap_mem = 100000,
                             .have_cap = 1, .lcm = 3600, .step = 60, .cont_cores = 1, .cont_mem = 1024,
                             .align_weight = 0.25, .ends = 48, .chunks = 16, .max_requests = 1000, .stable = -1,
                             .problematic_cv = -1, .output = out, .quiet = 1, .csv = &csv_dialect_plain,
                             .slo_csv = &csv_dialect_plain, .cap_csv = &csv_dialect_plain};
    struct packrun R = {.o = &o, .how = ""};
    CHECK(packrun_plan(&R) == SLK_OK);
    CHECK(R.n.requests == 2 && R.n.placed == 1 && R.n.rejected == 1);
    CHECK(R.p->nres == 1);
    if (R.p->nres == 1) {
        const struct plan_res *r = &R.p->res[0];
        CHECK_STR(r->job, "j1");
        CHECK(r->start == 10 && r->len == 4);
        for (long j = 0; j < r->len; j++)
            CHECK(r->containers[j] == 1);
    }
    struct planbound bd;
    CHECK(packrun_bound(&R, &bd) == 1);
    CHECK_NEAR(planbound_value(&bd), 0.1, 1e-12);
    CHECK_NEAR(planbound_area(&bd), 4.0 / 600, 1e-12);
    CHECK(packout_write(&R) == SLK_OK);
    CHECK(packrun_close_report(&R, SLK_OK) == SLK_OK);
    CHECK(access(out, R_OK) == 0);
    CHECK(count_lines(out, ",j1,") == 4);        /* one row per step */
    CHECK(count_lines(rep, "j1,periodic,,placed,600,840,") == 1);
    CHECK(count_lines(rep, "j2,periodic,,rejected") == 1);
    packrun_free(&R);

    /* a missing skyline file: an exit status, nothing placed, R freed */
    struct packrun_opts o2 = o;
    char nosky[80];
    snprintf(nosky, sizeof nosky, "%s/none.csv", dir);
    o2.input = nosky;
    o2.report = NULL;
    struct packrun R2 = {.o = &o2, .how = ""};
    CHECK(packrun_plan(&R2) == SLK_ENOINPUT);
    CHECK(R2.n.placed == 0);
    packrun_free(&R2);

    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 1;
    return unit_done("packrun");
}
