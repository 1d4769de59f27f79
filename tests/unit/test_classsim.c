/* test_classsim — the month simulator (lib/harvest/classsim) and
 * classpick's tables (lib/harvest/cptable) on cases worked by hand. */
#include "harvest/classsim.h"
#include "harvest/cptable.h"
#include "base/diag.h"
#include "unit.h"

#include <stdlib.h>
#include <unistd.h>

static double zeros[16], busy_after0[16];

/* a tenant of one 12-core server with series u */
static struct cs_tenant tenant(const char *name, int cls, double avg, double peak, double *u)
{
    struct cs_tenant t = {.name = (char *)name, .cls = cls, .servers = 1, .avg = avg, .peak = peak, .u = u};
    return t;
}

/* a run killed `killed` tasks, started `tasks` and had mean job time `mean` s */
static void check_run(const struct cs_result *r, long killed, long tasks, double mean)
{
    CHECK(r->killed == killed);
    CHECK(r->tasks_run == tasks);
    CHECK_NEAR(r->mean, mean, 0);
}

/* One tenant (reserve ceil(0.33 x 12) = 4 cores: 8 containers), one job of 3
 * tasks of 250 s on 120 s ticks (3 ticks): placed at tick 0, done at tick 3. */
static void test_one_job(void)
{
    struct cp_params p;
    cp_params_default(&p);
    struct cp_class cls = {.name = "c", .pattern = CP_CONSTANT, .servers = 1};
    struct cs_tenant t = tenant("a", 0, 0, 0, zeros);
    struct cs_job j = {.submit = 0, .dur = 250, .last = 250, .tasks = 3, .type = CP_MEDIUM};
    struct cs_result r;
    cs_simulate(&p, 120, 1, 0, &t, 1, 10, &j, 1, &cls, 1, &r);
    CHECK(r.finished == 1);
    CHECK(r.tasks_run == 3);
    CHECK(r.killed == 0);
    CHECK_NEAR(r.mean, 360, 0);
    CHECK(r.waiting == 0);
    free(t.run);
}

/* Execution time as classpick(1) Simulation defines it: finish - arrival,
 * the arrival at its own (continuous) time, the finish on a tick.  A job of
 * 3 tasks of 250 s arriving at 150 s on 120 s ticks is seen at tick 2
 * (240 s), runs ceil(250 / 120) = 3 whole ticks and finishes at tick 5
 * (600 s): 450 s, 3.75 ticks, not a whole number of them. */
static void test_exec_off_tick(void)
{
    struct cp_params p;
    cp_params_default(&p);
    struct cp_class cls = {.name = "c", .pattern = CP_CONSTANT, .servers = 1};
    struct cs_tenant t = tenant("a", 0, 0, 0, zeros);
    struct cs_job j = {.submit = 150, .dur = 250, .last = 250, .tasks = 3, .type = CP_MEDIUM};
    struct cs_result r;
    for (int aware = 0; aware < 2; aware++) {
        cs_simulate(&p, 120, 1, aware, &t, 1, 10, &j, 1, &cls, 1, &r);
        CHECK(r.finished == 1);
        CHECK_NEAR(j.finish, 600, 0);
        CHECK_NEAR(r.mean, 450, 0);
        CHECK_NEAR(r.p50, 450, 0);
    }
    free(t.run);
}

/* The primary takes 9 of 12 cores from tick 2 to tick 3: 8 - 9 < 0 leaves
 * no room, so all 3 running tasks are killed at tick 2; the job runs again
 * from tick 4 (free again) and ends at tick 7 (840 s). */
static void test_kill(void)
{
    struct cp_params p;
    cp_params_default(&p);
    double u[10] = {0, 0, 0.75, 0.75, 0, 0, 0, 0, 0, 0};
    struct cp_class cls = {.name = "c", .pattern = CP_CONSTANT, .servers = 1};
    struct cs_tenant t = tenant("a", 0, 0, 0, u);
    struct cs_job j = {.submit = 0, .dur = 250, .last = 250, .tasks = 3, .type = CP_MEDIUM};
    struct cs_result r;
    cs_simulate(&p, 120, 1, 0, &t, 1, 10, &j, 1, &cls, 1, &r);
    CHECK(r.killed == 3);
    CHECK(r.tasks_run == 6);
    CHECK_NEAR(r.mean, 840, 0);
    free(t.run);
}

/* Saturation: one tenant of 8 containers, three jobs at 0 of 5, 5 and 4
 * tasks of 250 s (3 ticks of 120 s).  Tick 0: A takes 5, B the last 3 (no
 * tenant has room now), C none.  Tick 3: A and B's 3 end; B's other 2 and
 * C's 4 start and end at tick 6.  Times 360, 720, 720: mean 600. */
static void test_saturated(void)
{
    struct cp_params p;
    cp_params_default(&p);
    struct cp_class cls = {.name = "c", .pattern = CP_CONSTANT, .servers = 1};
    struct cs_tenant t = tenant("a", 0, 0, 0, zeros);
    struct cs_job j[3] = {{.submit = 0, .dur = 250, .last = 250, .tasks = 5, .type = CP_MEDIUM},
                          {.submit = 0, .dur = 250, .last = 250, .tasks = 5, .type = CP_MEDIUM},
                          {.submit = 0, .dur = 250, .last = 250, .tasks = 4, .type = CP_MEDIUM}};
    struct cs_result r;
    cs_simulate(&p, 120, 1, 0, &t, 1, 14, j, 3, &cls, 1, &r);
    CHECK(r.finished == 3);
    CHECK(r.tasks_run == 14);
    CHECK(r.killed == 0);
    CHECK_NEAR(j[0].finish, 360, 0);
    CHECK_NEAR(j[1].finish, 720, 0);
    CHECK_NEAR(j[2].finish, 720, 0);
    CHECK_NEAR(r.mean, 600, 0);
    free(t.run);
}

/* Two tenants, 8 free containers each.  Class A (peak 0.9) has no room for a
 * long job (1 - 0.9 < reserve 0.33), class B (peak 0.1) has
 * floor(0.57 x 12) = 6 >= 4: Algorithm 1 labels the 4-task long job B.
 * YARN-PT spreads 4 over rooms 8 + 8: systematic points x, x+4, x+8, x+12
 * (x < 4) give 2 and 2.  At tick 1 A's primary takes 9 cores: YARN-PT loses
 * A's 2 tasks and reruns them on B (end tick 1 + 9 = 10, 1200 s); the
 * class-aware run kills nothing and ends at tick 9 (1080 s). */
static void test_aware_vs_pt(void)
{
    struct cp_params p;
    cp_params_default(&p);
    struct cp_class cls[2] = {{.name = "A", .pattern = CP_CONSTANT, .avg = 0.5, .peak = 0.9, .servers = 1},
                              {.name = "B", .pattern = CP_CONSTANT, .avg = 0.1, .peak = 0.1, .servers = 1}};
    struct cs_tenant t[2] = {tenant("a", 0, 0.5, 0.9, busy_after0), tenant("b", 1, 0.1, 0.1, zeros)};
    struct cs_job j = {.submit = 0, .dur = 1000, .last = 1000, .tasks = 4, .type = CP_LONG};
    struct cs_result r[2];
    for (int a = 0; a < 2; a++)
        cs_simulate(&p, 120, 7, a, t, 2, 16, &j, 1, cls, 2, &r[a]);
    check_run(&r[0], 2, 6, 1200);
    check_run(&r[1], 0, 4, 1080);
    free(t[0].run);
    free(t[1].run);
}

/* Two classes of one tenant each for the tests below: X (tenant x, class
 * history 0) and Y (tenant y, class history 0 unless set).  Medium jobs of
 * 250 s run 3 ticks of 120 s; a tenant idle has 8 free containers, one at
 * u = 0.75 (9 cores) none; a class's medium room is floor((1 - max(avg,
 * current) - 0.33) x 12) - used. */
static void two_classes(struct cp_class cls[2], double yavg)
{
    cls[0] = (struct cp_class){.name = "X", .pattern = CP_CONSTANT, .servers = 1};
    cls[1] = (struct cp_class){.name = "Y", .pattern = CP_CONSTANT, .avg = yavg, .peak = yavg, .servers = 1};
}

/* jobs j[0..nj) on tenants x (own history xavg, series ux) and y (yavg,
 * uy) of two_classes(yavg): 10 ticks of 120 s, seed 1, class-aware or not */
static void run_xy(double xavg, const double *ux, double yavg, const double *uy, struct cs_job *j, size_t nj,
                   int aware, struct cs_result *r)
{
    struct cp_params p;
    cp_params_default(&p);
    struct cp_class cls[2];
    two_classes(cls, yavg);
    struct cs_tenant t[2] = {tenant("x", 0, xavg, xavg, (double *)ux),
                             tenant("y", 1, yavg, yavg, (double *)uy)};
    cs_simulate(&p, 120, 1, aware, t, 2, 10, j, nj, cls, 2, r);
    free(t[0].run);
    free(t[1].run);
}

/* Algorithm 1's class rooms are kept while the classes do not change;
 * a booking changes them.  Tick 0: A (8 tasks) finds X's room 8 (Y: 1 -
 * 0.9 < 0.33, none), books it and fills x.  B (1 task) then sees X's room
 * 8 - 8 = 0 and Y's 0: no class, so the default policy puts it on y at
 * tick 0 (done at tick 3, 360 s).  Had B seen X's room from before A's
 * booking it would be labelled X, find x full and wait a tick (480 s). */
static void test_rooms_after_booking(void)
{
    struct cs_job j[2] = {{.submit = 0, .dur = 250, .last = 250, .tasks = 8, .type = CP_MEDIUM},
                          {.submit = 0, .dur = 250, .last = 250, .tasks = 1, .type = CP_MEDIUM}};
    struct cs_result r;
    run_xy(0, zeros, 0.9, zeros, j, 2, 1, &r);
    CHECK(r.finished == 2);
    CHECK(r.killed == 0);
    CHECK_NEAR(j[0].finish, 360, 0);
    CHECK_NEAR(j[1].finish, 360, 0);
}

/* ... and each tick changes them.  Tick 0: x and y at u = 0.75, no free
 * container and no class room: the job (4 tasks) waits.  Tick 1: both
 * idle; X's room is 8 (Y's none: avg 0.9), so the job is labelled X and
 * runs on x, untouched when y's primary comes back at tick 2: no kill,
 * done at tick 4 (480 s).  With tick 0's rooms it would get no class, the
 * default policy would spread it 2 + 2 over x and y, and y's 2 would be
 * killed at tick 2 — as YARN-PT does (they rerun on x from tick 2: 600 s). */
static void test_rooms_each_tick(void)
{
    double ux[10] = {0.75}, uy[10] = {0.75, 0, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75};
    struct cs_job j = {.submit = 0, .dur = 250, .last = 250, .tasks = 4, .type = CP_MEDIUM};
    struct cs_result r[2];
    for (int a = 0; a < 2; a++)
        run_xy(0, ux, 0.9, uy, &j, 1, a, &r[a]);
    check_run(&r[1], 0, 4, 480);
    check_run(&r[0], 2, 6, 600);
}

/* A saturated tick still visits a labelled job with pending tasks, and the
 * visit drops its label.  Tick 0: the job (6 tasks) is labelled X (Y at
 * u = 0.75 has no room) but x's own history (avg 0.5) leaves room for 2:
 * 2 run on x until tick 3, 4 wait.  Tick 1: x at u = 0.5 (6 cores; 8 - 6 -
 * 2 running = 0 free) and y at 0.75: no tenant has a free container; the
 * job finds none and drops its label.  Tick 2: y idle, X's room 2 - 2 = 0,
 * Y's 8: the job asks Algorithm 1 again, gets Y and its 4 run on y until
 * tick 5 (600 s).  Kept label X, it would find x full at tick 2 and start
 * only at tick 3 (720 s). */
static void test_saturated_label(void)
{
    double ux[10], uy[10] = {0.75, 0.75};
    for (int k = 0; k < 10; k++)
        ux[k] = k ? 0.5 : 0;
    struct cs_job j = {.submit = 0, .dur = 250, .last = 250, .tasks = 6, .type = CP_MEDIUM};
    struct cs_result r;
    run_xy(0.5, ux, 0, uy, &j, 1, 1, &r);
    CHECK(r.finished == 1);
    CHECK(r.killed == 0);
    CHECK(r.tasks_run == 6);
    CHECK_NEAR(j.finish, 600, 0);
}

static char *write_tmp(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/test_classsim.XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* Series on 120 s ticks from t0 = 0: a's tick 1 holds its tick-0 value, b's
 * tick 0 takes its first sample; rows of a tenant not simulated are
 * skipped.  The default split (nticks / 2 = 1) keeps ticks 1-2. */
static void test_series(void)
{
    struct cp_class cls = {.name = "c"};
    char *tp = write_tmp("tenant,class,avg,peak\nb,c,0.2,0.3\na,c,0.5,0.7\n");
    struct cs_tenant *t;
    size_t n;
    CHECK(cs_read_tenants(tp, NULL, &cls, 1, "cl.csv", 1, &t, &n) == SLK_OK);
    unlink(tp);
    CHECK(n == 2);
    CHECK_STR(t[0].name, "a");
    CHECK_NEAR(t[1].peak, 0.3, 0);
    char *sp = write_tmp("tenant,t,util\na,0,0.5\na,240,0.75\nz,0,1\nb,120,0.25\n");
    long nk = 0;
    double t0 = -1;
    CHECK(cs_read_series(sp, NULL, 1, 120, t, n, &nk, &t0) == SLK_OK);
    unlink(sp);
    CHECK(nk == 3);
    CHECK_NEAR(t0, 0, 0);
    CHECK_NEAR(t[0].u[1], 0.5, 0);
    CHECK_NEAR(t[0].u[2], 0.75, 0);
    CHECK_NEAR(t[1].u[0], 0.25, 0);
    long skipped = 0;
    CHECK(cs_replay_window("s.csv", t, n, &nk, t0, 120, NAN, &skipped) == SLK_OK);
    CHECK(skipped == 1 && nk == 2);
    CHECK_NEAR(t[0].u[0], 0.5, 0);
    CHECK_NEAR(t[0].u[1], 0.75, 0);
    cs_tenants_free(t, n);
}

/* The job stream: --jobs fixes the count; arrivals within 90% of the span,
 * in order, durations in the three ranges, types from the last run. */
static void test_stream(void)
{
    struct cp_params p;
    cp_params_default(&p);
    struct cs_tenant t = tenant("a", 0, 0, 0, zeros);
    struct cs_stream s;
    cs_stream_make(&p, &t, 1, 16, 120, 50, 0.5, 40, 0.1, 3, &s);
    CHECK(s.nj == 50);
    CHECK_NEAR(s.span, 1920, 0);
    CHECK_NEAR(s.harvest, 8, 0); /* 12 - 4 reserved - 0 primary */
    CHECK_NEAR(s.primary_util, 0, 0);
    int ok = 1;
    for (long j = 0; j < s.nj; j++) {
        const struct cs_job *jb = &s.jobs[j];
        ok &= jb->submit <= 0.9 * s.span && (j == 0 || jb->submit >= s.jobs[j - 1].submit);
        ok &= jb->dur >= 57 && jb->dur <= 2000 && jb->tasks >= 1;
        ok &= jb->type == cp_job_type(&p, jb->last);
    }
    CHECK(ok);
    free(s.jobs);
}

/* DAG a -> {b, c} -> d with 2, 3, 4, 1 tasks: levels 2 | 7 | 1, max 7. */
static void test_tables(void)
{
    char *cp = write_tmp("class,pattern,avg_util,peak_util,servers\nx,constant,50,80,10\n");
    struct cp_table ct;
    CHECK(cp_read_classes(cp, NULL, 100, &ct) == SLK_OK);
    unlink(cp);
    CHECK(ct.n == 1 && !ct.have_current);
    CHECK_NEAR(ct.c[0].avg, 0.5, 1e-12);
    CHECK(isnan(ct.c[0].current));
    CHECK(cp_table_find(&ct, "x") == 0 && cp_table_find(&ct, "y") == -1);
    cp_table_free(&ct);
    char *dp = write_tmp("job,vertex,tasks,parent\nj,d,1,b\nj,d,1,c\nj,b,3,a\nj,c,4,a\nj,a,2,\nk,v,5,\n");
    struct cp_dagtab dt = {0};
    CHECK(cp_read_dags(dp, NULL, &dt) == SLK_OK);
    unlink(dp);
    const struct cp_dagdemand *j = cp_dag_lookup(&dt, "j");
    CHECK(j && j->demand == 7 && j->levels == 3);
    CHECK(cp_dag_lookup(&dt, "k") && cp_dag_lookup(&dt, "k")->demand == 5);
    CHECK(cp_dag_lookup(&dt, "z") == NULL);
    cp_dagtab_free(&dt);
}

/* A long job's headroom counts a peak below the mean as the mean: a
 * spiky tenant (p99 0.1, mean 0.3) has 1 - 0.3 = 0.7 for long jobs, like
 * medium ones, not 1 - 0.1 = 0.9.  By hand, 10 servers x 12 cores, reserve
 * 0: long room floor(0.7 x 120) = 84, medium 84, short 1 - 0.2 -> 96. */
static void test_peak_below_avg(void)
{
    struct cp_params p;
    cp_params_default(&p);
    p.reserve = 0;
    p.cores = 12;
    struct cp_class c = {.name = "spiky", .pattern = CP_CONSTANT, .avg = 0.3, .peak = 0.1, .current = 0.2,
                         .servers = 10};
    CHECK_NEAR(cp_headroom(CP_LONG, &c), 0.7, 1e-12);
    CHECK_NEAR(cp_room(&p, CP_LONG, &c), 84, 0);
    CHECK_NEAR(cp_room(&p, CP_MEDIUM, &c), 84, 0);
    CHECK_NEAR(cp_room(&p, CP_SHORT, &c), 96, 0);
    c.peak = 0.5; /* an ordinary class: the peak rules long jobs */
    CHECK_NEAR(cp_room(&p, CP_LONG, &c), 60, 0);
}

int main(void)
{
    slk_init("test_classsim");
    for (int k = 1; k < 16; k++)
        busy_after0[k] = 0.75;
    test_one_job();
    test_exec_off_tick();
    test_kill();
    test_saturated();
    test_aware_vs_pt();
    test_rooms_after_booking();
    test_rooms_each_tick();
    test_saturated_label();
    test_series();
    test_stream();
    test_tables();
    test_peak_below_avg();
    return unit_done("classsim");
}
