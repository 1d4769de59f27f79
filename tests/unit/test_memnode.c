/* Unit tests of lib/memory/memnode: the --fillers and --simulate runs of
 * one node, on the hand-worked inputs of tests/cli/peakgate.sh (worked out
 * there step by step). */
#include "unit.h"
#include "base/diag.h"
#include "memory/memnode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* read_node: the tasks of text (series kept, train as given) into rd. */
static int read_node(const char *text, double train, int need_alloc, struct memio_reader *rd)
{
    char path[] = "/tmp/test_memnode_XXXXXX";
    FILE *f = fdopen(mkstemp(path), "w");
    fputs(text, f);
    fclose(f);
    int st;
    csvr *r = csvr_open_with(path, &csv_dialect_plain, 0, &st);
    struct memprof_opts p = memprof_opts_default();
    p.normal_pct = 50;
    struct memio_read_opts o = {.prof = p, .need_alloc = need_alloc, .series = 1, .train = train};
    st = memio_read_tasks(r, &o, rd);
    csvr_close(r);
    unlink(path);
    return st;
}

int main(void)
{
    slk_init("test_memnode");
    int k1[1] = {1};
    struct memnode_opts o = {.k = k1, .nk = 1, .approach = 1.1, .node_mb = 4500, .quiet = 1,
                             .out_dialect = &csv_dialect_plain, .mp = memmodel_params_paper(), .tasks = 6,
                             .migrate_ms_per_mb = 5, .growth_mb_s = 0};

    /* --model steps: 1 h of 1 s steps; shorter than a step and too much
     * work are usage errors */
    long long steps;
    CHECK(memnode_model_steps(&o, &steps) == SLK_OK && steps == 3600);
    o.step_s = 10;
    o.duration_s = 5;
    fprintf(stderr, "(two usage errors below are expected)\n");
    CHECK(memnode_model_steps(&o, &steps) == SLK_EUSAGE);
    o.step_s = 1e-3;
    o.duration_s = 1e9;
    CHECK(memnode_model_steps(&o, &steps) == SLK_EUSAGE);
    o.step_s = o.duration_s = 0;

    /* fillers (node.csv): 4500 MB; allocated 4050, normal 3600; growth 0:
     * filler normal 450, peak 900, migrate 900 MB x 5 ms = 4.5 s */
    struct memio_reader rd = {0};
    CHECK(read_node("task,t,mem_mb,alloc_mb\nw1,0,1750,2000\nw1,10,1800,2000\nw1,20,1850,2000\n"
               "w2,0,1800,2050\nw2,10,1800,2050\nw2,20,1800,2050\n", 0, 1, &rd) == SLK_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&buf, &len);
    csvw *w = csvw_new_with(mf, &csv_dialect_plain);
    CHECK(memnode_fillers(&o, &rd, w) == SLK_OK);
    csvw_free(w);
    fclose(mf);
    CHECK(strstr(buf, "\n4500,2,2,4050,450,3600,450,900,0,5,4.5,0,450,900\n") != NULL);
    free(buf);
    memio_reader_free(&rd);

    /* out of sample (oos.csv, --train 0.5): each task 100 100 | 100 400;
     * gated k=1, b waits one step: elapsed 180 s for 120 s of progress,
     * slowdown 1.5, one 60 s pause */
    struct memio_reader rd2 = {0};
    CHECK(read_node("task,t,mem_mb\na,0,100\na,60,100\na,120,100\na,180,400\n"
               "b,0,100\nb,60,100\nb,120,100\nb,180,400\n", 0.5, 0, &rd2) == SLK_OK);
    o.train = 0.5;
    buf = NULL;
    mf = open_memstream(&buf, &len);
    w = csvw_new_with(mf, &csv_dialect_plain);
    CHECK(memnode_simulate_series(&o, &rd2, "oos.csv", w) == SLK_OK);
    csvw_free(w);
    fclose(mf);
    CHECK(strstr(buf, "unpaced,0,a,100,100,") != NULL);
    CHECK(strstr(buf, "\ngated,1,b,100,100,") != NULL);
    CHECK(strstr(buf, ",120,180,1.5,60,60,1,1\n") != NULL);
    free(buf);
    memio_reader_free(&rd2);
    return unit_done("memnode");
}
