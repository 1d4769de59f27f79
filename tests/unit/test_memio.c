/* Unit tests of lib/memory/memio: the allocation table and the grouped
 * sample reader on a hand-written input (totals and kept tasks worked by
 * hand). */
#include "unit.h"
#include "base/diag.h"
#include "memory/memio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char *write_tmp(const char *text)
{
    static char path[8][64];
    static int which;
    char *p = path[which++ & 7];
    snprintf(p, sizeof path[0], "/tmp/test_memio_XXXXXX");
    int fd = mkstemp(p);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return p;
}

struct got_runs {
    struct memio_run *r;
    int n;
};

static void keep_run(void *ctx, const struct memio_run *run)
{
    struct got_runs *g = ctx;
    g->r[g->n++] = *run;
}

int main(void)
{
    slk_init("test_memio");
    char *ap = write_tmp("task,alloc_mb\nb,400\na,200\n");
    struct memio_allocs A = {0};
    CHECK(memio_allocs_load(ap, &csv_dialect_plain, &A) == SLK_OK);
    CHECK(A.n == 2);
    CHECK_NEAR(memio_alloc_find(&A, "a"), 200, 0);
    CHECK_NEAR(memio_alloc_find(&A, "b"), 400, 0);
    CHECK(isnan(memio_alloc_find(&A, "c")));

    /* a: 100,100,300 (median 100, peak 300, above its 200 MB); b: 300,300 */
    char *sp = write_tmp("task,t,mem_mb\na,0,100\na,10,100\na,20,300\nb,0,300\nb,10,300\n");
    int st;
    csvr *r = csvr_open_with(sp, &csv_dialect_plain, 0, &st);
    CHECK(r != NULL);
    struct memio_read_opts o = {.prof = memprof_opts_default(), .allocs = &A, .alloc_path = ap,
                                .need_alloc = 1, .series = 1};
    struct memio_reader rd = {0};
    CHECK(memio_read_tasks(r, &o, &rd) == SLK_OK);
    CHECK(rd.ntasks == 2 && rd.tot.tasks == 2 && rd.tot.samples == 5);
    CHECK_STR(rd.tasks[0].name, "a");
    CHECK_NEAR(rd.tasks[0].normal, 100, 0);
    CHECK_NEAR(rd.tasks[0].peak, 300, 0);
    CHECK(rd.tasks[0].len == 3 && rd.tasks[0].series[2] == 300);
    CHECK_NEAR(rd.tot.alloc, 600, 0);
    CHECK_NEAR(rd.tot.normal, 400, 0);     /* 100 + 300 */
    CHECK_NEAR(rd.tot.unused, 200, 0);     /* (200 - 100) + (400 - 300) */
    CHECK(rd.tot.over_alloc == 1);
    CHECK_STR(rd.tot.first_over, "a");
    CHECK_NEAR(rd.min_dt, 10, 0);
    CHECK(rd.gap_task == NULL);
    struct memgate_task *gt = memio_gate_tasks(&rd);
    CHECK_STR(gt[1].name, "b");
    CHECK(gt[0].len == 3 && gt[0].series == rd.tasks[0].series);
    free(gt);
    size_t nwell = 9;
    memio_well_growth(&rd, &nwell);
    CHECK(nwell == (size_t)(rd.tasks[0].prof.cls == MEMPROF_WELL) + (rd.tasks[1].prof.cls == MEMPROF_WELL));
    memio_reader_free(&rd);
    csvr_close(r);

    /* model tasks: peak is the larger of peak_mb and normal * (1 + noise) */
    struct memmodel_params mp = memmodel_params_paper();
    mp.normal_mb = 1000;
    mp.noise = 0.5;
    mp.peak_mb = 1200;
    struct memgate_task *mt = memio_model_tasks(&mp, 2, 7);
    CHECK_STR(mt[1].name, "task0002");
    CHECK_NEAR(mt[0].peak, 1500, 1e-9);
    CHECK(mt[0].model == &mp && mt[0].seed == 7);
    memio_model_tasks_free(mt, 2);

    /* the same input out of order is a data error */
    char *bp = write_tmp("task,t,mem_mb\na,0,100\nb,0,300\na,10,100\n");
    r = csvr_open_with(bp, &csv_dialect_plain, 0, &st);
    struct memio_reader rd2 = {0};
    o.need_alloc = 0;
    CHECK(memio_read_tasks(r, &o, &rd2) == SLK_EDATA);
    memio_reader_free(&rd2);
    csvr_close(r);

    /* -s: the same rows reversed (tasks and times out of order) read like
     * the grouped input: a then b, a's samples 100,100,300 in time order */
    char *rp = write_tmp("task,t,mem_mb\nb,10,300\nb,0,300\na,20,300\na,10,100\na,0,100\n");
    r = csvr_open_with(rp, &csv_dialect_plain, 0, &st);
    struct memio_reader rd3 = {0};
    o.sort = 1;
    CHECK(memio_read_tasks(r, &o, &rd3) == SLK_OK);
    CHECK(rd3.ntasks == 2 && rd3.tot.samples == 5);
    CHECK_STR(rd3.tasks[0].name, "a");
    CHECK(rd3.tasks[0].len == 3 && rd3.tasks[0].series[0] == 100 && rd3.tasks[0].series[2] == 300);
    CHECK_NEAR(rd3.tasks[0].peak, 300, 0);
    CHECK_NEAR(rd3.tot.unused, 200, 0);
    memio_reader_free(&rd3);
    csvr_close(r);

    /* --on-error skip: a bad number (line 3) and a time that goes back
     * (line 5) are rejected; the rest is the table above */
    char *kp = write_tmp("task,t,mem_mb\na,0,100\na,5,1x\na,10,100\na,7,100\na,20,300\nb,0,300\nb,10,300\n");
    FILE *rejf = tmpfile();
    csv_rejects *rej = csv_rejects_new(rejf);
    struct csv_dialect dk = csv_dialect_plain;
    dk.rejects = rej;
    r = csvr_open_with(kp, &dk, 0, &st);
    struct memio_reader rd4 = {0};
    o.sort = 0;
    CHECK(memio_read_tasks(r, &o, &rd4) == SLK_OK);
    CHECK(csv_rejects_count(rej) == 2);
    CHECK(rd4.ntasks == 2 && rd4.tot.samples == 5);
    CHECK_NEAR(rd4.tasks[0].peak, 300, 0);
    CHECK_NEAR(rd4.tot.unused, 200, 0);
    memio_reader_free(&rd4);
    csvr_close(r);
    csv_rejects_free(rej);
    fclose(rejf);
    unlink(rp);
    unlink(kp);
    unlink(ap);
    unlink(sp);
    unlink(bp);
    memio_allocs_free(&A);

    /* gate runs: unpaced sums 200, 500, 500, 200 (max 500, within the k=1
     * bound min(110,400) + min(110,400) + (400 - 110) = 510) in 4 steps;
     * gated, a waits one step for b's token: 5 steps, still max 500 */
    double sa[4] = {100, 100, 400, 100}, sb[4] = {100, 400, 100, 100};
    struct memgate_task gt2[2] = {{.name = "a", .normal = 100, .peak = 400, .series = sa, .len = 4},
                                  {.name = "b", .normal = 100, .peak = 400, .series = sb, .len = 4}};
    FILE *tf = tmpfile();
    csvw *w = csvw_new_with(tf, &csv_dialect_plain);
    int ks[1] = {1};
    struct memio_gate_cfg cfg = {ks, 1, 1.1, 1000, 1, 0, 1, w, NULL, NULL, NULL};
    struct memio_run runs[2];
    struct got_runs gr = {runs, 0};
    CHECK(memio_gate_runs(gt2, 2, &cfg, keep_run, &gr) == SLK_OK);
    CHECK(gr.n == 2);
    CHECK(runs[0].k == 0 && runs[0].kb == 1);
    CHECK_NEAR(runs[0].res.max_mem, 500, 1e-9);
    CHECK_NEAR(runs[0].bound, 510, 1e-9);
    CHECK(runs[0].held && runs[0].res.steps == 4);
    CHECK(runs[1].k == 1 && runs[1].held && runs[1].res.steps == 5);
    CHECK_NEAR(runs[1].res.max_mem, 500, 1e-9);
    CHECK_NEAR(runs[1].s.sd_max, 1.25, 1e-12);  /* a: 5 steps for 4 of progress */
    csvw_free(w);
    fclose(tf);
    return unit_done("memio");
}
