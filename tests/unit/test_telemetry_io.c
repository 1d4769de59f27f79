/* Unit tests of the telemetry inputs: lib/import/rawin's held row errors
 * (--on-error skip), lib/morpheus/replayio's resampling of usage onto the
 * replay grid (hand-worked), its rejects, and lib/plot/charts' contract on
 * bad requests and the tenant-class series count. */
#include "unit.h"
#include "base/diag.h"
#include "import/rawin.h"
#include "morpheus/replayio.h"
#include "plot/charts.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char *write_tmp(const char *text)
{
    static char path[8][64];
    static int which;
    char *p = path[which++ & 7];
    snprintf(p, sizeof path[0], "/tmp/test_telemetry_io_XXXXXX");
    int fd = mkstemp(p);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return p;
}

/* rawin: a bad number is held under rejects and skipped; without rejects
 * there is nothing to skip (the message is out, strict). */
static void test_rawin_skip(void)
{
    char *p = write_tmp("1,2\n3,x\n5,6\n");
    FILE *rf = tmpfile();
    csv_rejects *j = csv_rejects_new(rf);
    int st = 0;
    rawin *in = rawin_open(p, ',', &st);
    rawin_set_rejects(in, j);
    char *f[3];
    int64_t v, sum = 0;
    while (rawin_next(in, f, 2) > 0) {
        if (rawin_int64(in, f[0], 1, "a", &v) != 0 || rawin_int64(in, f[1], 2, "b", &v) != 0) {
            CHECK(rawin_skip(in) == 1);
            CHECK(rawin_skip(in) == 0); /* once only */
            continue;
        }
        sum += v;
    }
    CHECK(sum == 8);  /* 2 + 6: line 2 left out */
    CHECK(csv_rejects_count(j) == 1);
    rawin_close(in);
    csv_rejects_free(j);
    fclose(rf);

    in = rawin_open(p, ',', &st);
    CHECK(rawin_next(in, f, 2) == 2 && rawin_next(in, f, 2) == 2);
    CHECK(rawin_int64(in, f[1], 2, "b", &v) == SLK_EDATA); /* prints the error (strict) */
    CHECK(rawin_skip(in) == 0);
    rawin_close(in);
    unlink(p);
}

/* replayio: runs resampled onto 60 s steps.  Run r1 (samples at 0, 60, 120:
 * 2, 1, 2 containers; the last lasts as long as the gap before it): use 2,
 * 1, 2 from step 0, end 180.  Run r2 (30 s: 2, 90 s: 4, end 150): step 0
 * holds 2 x 30/60 = 1, step 1 2 x 30/60 + 4 x 30/60 = 3, step 2 4 x 30/60 =
 * 2.  Run r3's job has no usable SLO: counted, not kept. */
static void test_replayio_usage(void)
{
    char *slo = write_tmp("job,period,a,d,status\nA,3600,0,600,actionable\nX,3600,0,600,high_cv\n");
    char *use = write_tmp("job,run,t,containers\nA,r1,0,2\nA,r1,60,1\nA,r1,120,2\n"
                          "A,r2,30,2\nA,r2,90,4\nB,r3,0,1\n");
    struct replayio_opts o = {1, 1024, -INFINITY, INFINITY, 1000000};
    struct replayio io;
    replayio_init(&io, &o);
    CHECK(replayio_read_slo(&io, slo, &csv_dialect_plain) == SLK_OK);
    CHECK(io.set.njobs == 1 && io.n.unusable == 1);
    io.set.step = 60;
    CHECK(replayio_read_usage(&io, use, &csv_dialect_plain) == SLK_OK);
    CHECK(io.set.nruns == 2 && io.n.rows == 6 && io.n.runs_noslo == 1);
    if (io.set.nruns == 2) {
        const struct replay_run *a = &io.set.runs[0], *b = &io.set.runs[1];
        CHECK(a->g0 == 0 && a->len == 3 && a->end == 180);
        CHECK_NEAR(a->use[0], 2, 1e-12);
        CHECK_NEAR(a->use[1], 1, 1e-12);
        CHECK_NEAR(a->use[2], 2, 1e-12);
        CHECK(b->g0 == 0 && b->len == 3 && b->end == 150);
        CHECK_NEAR(b->use[0], 1, 1e-12);
        CHECK_NEAR(b->use[1], 3, 1e-12);
        CHECK_NEAR(b->use[2], 2, 1e-12);
        CHECK(a->cores == 1 && a->mem_mb == 1024);
    }
    replayio_free(&io);
    unlink(use);

    /* with rejects: a bad value and an out-of-order sample are skipped */
    use = write_tmp("job,run,t,containers\nA,r1,0,2\nA,r1,60,x\nA,r1,60,1\nA,r1,30,5\nA,r1,120,2\n");
    FILE *rf = tmpfile();
    struct csv_dialect d = csv_dialect_plain;
    d.rejects = csv_rejects_new(rf);
    replayio_init(&io, &o);
    CHECK(replayio_read_slo(&io, slo, &csv_dialect_plain) == SLK_OK);
    io.set.step = 60;
    CHECK(replayio_read_usage(&io, use, &d) == SLK_OK);
    CHECK(csv_rejects_count(d.rejects) == 2);
    CHECK(io.set.nruns == 1 && io.set.runs[0].len == 3);
    if (io.set.nruns == 1)
        CHECK_NEAR(io.set.runs[0].use[1], 1, 1e-12);
    replayio_free(&io);
    csv_rejects_free(d.rejects);
    fclose(rf);
    unlink(use);
    unlink(slo);
}

/* charts: an unknown chart and tenants without classes are usage errors;
 * tenants draws one series per class (band and median in one), not one per
 * tenant. */
static void test_charts(void)
{
    struct chart_opts o = {.runs = 5, .top = 8, .quiet = 1};
    plot *p = plot_new("t");
    CHECK(chart_draw(p, "pie", &o) == SLK_EUSAGE);
    CHECK(chart_draw(p, "tenants", &o) == SLK_EUSAGE);
    plot_free(p);
    char *util = write_tmp("tenant,t,util\na,1767571200,0.1\nb,1767571200,0.2\nc,1767571200,0.3\n"
                           "a,1767571260,0.1\nb,1767571260,0.2\nc,1767571260,0.3\nd,1767571200,0.9\n");
    char *cls = write_tmp("tenant,class\na,k1\nb,k1\nc,k2\nd,k2\n");
    o.input = util;
    o.classes = cls;
    p = plot_new("t");
    CHECK(chart_draw(p, "tenants", &o) == SLK_OK);
    CHECK(plot_nseries(p) == 2);
    plot_free(p);
    unlink(util);
    unlink(cls);
}

int main(void)
{
    slk_init("test_telemetry_io");
    test_rawin_skip();
    test_replayio_usage();
    test_charts();
    return unit_done("telemetry_io");
}
