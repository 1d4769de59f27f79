/* Unit tests of lib/morpheus/skyjob (a job's runs, their quantization and
 * fit) and lib/morpheus/skyread (the usage readers), on hand-worked cases. */
#include "unit.h"
#include "base/diag.h"
#include "morpheus/outlier.h"
#include "morpheus/runlen.h"
#include "morpheus/skyjob.h"
#include "morpheus/skyread.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* fit_text: the rows skyjob_fit writes for j (and its stats row in *stats). */
static char *fit_text(skyjob *j, const struct skyjob_opts *o, char **stats)
{
    char *buf = NULL, *sbuf = NULL;
    size_t len = 0, slen = 0;
    FILE *f = open_memstream(&buf, &len), *fs = open_memstream(&sbuf, &slen);
    struct skyjob_out out = {.o = o, .w = csvw_new_with(f, &csv_dialect_plain),
                             .ws = csvw_new_with(fs, &csv_dialect_plain)};
    skyjob_fit(j, &out);
    skyjob_out_release(&out, 0);
    csvw_free(out.w);
    csvw_free(out.ws);
    fclose(f);
    fclose(fs);
    *stats = sbuf;
    return buf;
}

/* write_tmp: text in a new temporary file, its path in path[] */
static void write_tmp(char *path, const char *text)
{
    FILE *f = fdopen(mkstemp(path), "w");
    fputs(text, f);
    fclose(f);
}

/* outlier_mark on job00057 of the headline (docs/skyfit.md): ten runs of
 * 67,60,144,60,189,60,69,60,64,64 s spanning 2,1,3,1,4,1,2,1,2,2 one-minute
 * steps.  The median and MAD are those of the values spread over the
 * rule's resolution (stats_median_spread; bisection on the mixture in
 * Python gives the same).  Steps (w = 1 step): median 1.75 (four 1s hold 4
 * of the 5 up to 1.5, the four 2s a quarter more), MAD 0.625, bound 1.75 +
 * 3 x max(1.4826 x 0.625, 0.175, 0.5) = 4.5299: none out.  Seconds (w = one
 * 60 s step): median 70.5, MAD 18.75, spread max(27.8, 7.05, 30) = 30, bound
 * 160.5: the 189 s run (index 4) is out, the 144 s run stays. */
static void test_outlier_units(void)
{
    const double sec[10] = {67, 60, 144, 60, 189, 60, 69, 60, 64, 64};
    const double steps[10] = {2, 1, 3, 1, 4, 1, 2, 1, 2, 2};
    unsigned char out[10];
    struct outlier_opts o;
    outlier_defaults(&o);
    CHECK(o.unit == 0.5 && o.k == 3);
    CHECK(outlier_mark(steps, steps, 10, 1, &o, out) == 0);
    CHECK(fabs(outlier_threshold(steps, 10, 1, &o) - (1.75 + 3 * 1.4826 * 0.625)) < 1e-12);
    CHECK(outlier_mark(sec, steps, 10, 60, &o, out) == 1 && out[4] == 1 && out[2] == 0);
    CHECK(fabs(outlier_threshold(sec, 10, 60, &o) - 160.5) < 1e-9);
    /* the same lengths counted in steps x 60 s decide as the steps do */
    double s60[10];
    for (int i = 0; i < 10; i++)
        s60[i] = steps[i] * 60;
    CHECK(outlier_mark(s60, steps, 10, 60, &o, out) == 0);
    CHECK(fabs(outlier_threshold(s60, 10, 60, &o) - 60 * outlier_threshold(steps, 10, 1, &o)) < 1e-9);
}

/* runlen: lengths end - start by (job, instance); an empty end or an
 * unknown pair is NaN; the same instance in two jobs is two runs; a
 * repeated pair is an error, or under --on-error skip a rejected row (the
 * first kept). */
static double len_of(const runlen *t, const char *job, const char *instance)
{
    struct runlen_row r;
    return runlen_find(t, job, instance, &r) < 0 ? NAN : r.len;
}

static void test_runlen(void)
{
    char path[] = "/tmp/test_runlen_XXXXXX";
    write_tmp(path, "job,instance,start,end\nj,a,100,165\nj,b,2026-01-05T00:00:00Z,2026-01-05T00:03:09Z\nj,c,50,\nk,a,100,130\n");
    runlen *t;
    CHECK(runlen_load(path, NULL, &t) == SLK_OK && t);
    CHECK(len_of(t, "j", "a") == 65 && len_of(t, "j", "b") == 189 && len_of(t, "k", "a") == 30);
    CHECK(isnan(len_of(t, "j", "c")) && isnan(len_of(t, "j", "zz")) && isnan(len_of(t, "k", "b")));
    CHECK(isnan(len_of(NULL, "j", "a")) && runlen_rows(t) == 4 && runlen_lengths(t) == 3);
    struct runlen_row row; /* the start and the row's line are kept too (for the start check) */
    CHECK(runlen_find(t, "j", "b", &row) == 0 && row.start == 1767571200 && row.line == 3 && row.len == 189);
    CHECK(runlen_find(t, "j", "c", &row) == 0 && row.start == 50 && isnan(row.len) && row.line == 4);
    CHECK(strcmp(runlen_path(t), path) == 0);
    runlen_free(t);
    unlink(path);

    /* a key longer than runlen's stack buffer (256 bytes) */
    char p3[] = "/tmp/test_runlen_XXXXXX", longjob[301], text[400];
    memset(longjob, 'j', 300);
    longjob[300] = '\0';
    snprintf(text, sizeof text, "job,instance,start,end\n%s,a,0,42\n", longjob);
    write_tmp(p3, text);
    CHECK(runlen_load(p3, NULL, &t) == SLK_OK && t);
    CHECK(len_of(t, longjob, "a") == 42 && isnan(len_of(t, "j", "a")));
    runlen_free(t);
    unlink(p3);

    char p2[] = "/tmp/test_runlen_XXXXXX";
    write_tmp(p2, "job,instance,start,end\nj,a,0,10\nj,b,0,20\nj,a,0,99\n");
    fprintf(stderr, "(the 'duplicate instance' message below is expected)\n");
    CHECK(runlen_load(p2, NULL, &t) == SLK_EDATA && t == NULL);
    FILE *rf = tmpfile();
    csv_rejects *rj = csv_rejects_new(rf);
    struct csv_dialect d = csv_dialect_plain;
    d.rejects = rj;
    fprintf(stderr, "(the 'skipped' warning below is expected)\n");
    CHECK(runlen_load(p2, &d, &t) == SLK_OK && t);
    CHECK(len_of(t, "j", "a") == 10 && len_of(t, "j", "b") == 20 && runlen_rows(t) == 2);
    CHECK(csv_rejects_count(rj) == 1);
    runlen_free(t);
    csv_rejects_free(rj);
    fclose(rf);
    unlink(p2);
}

int main(void)
{
    slk_init("test_skyjob");

    /* CSV samples at 0 (2), 30 (4), 130 (6), step 60 from 0: steps
     * floor(130/60) + 1 = 3; means 3, 3 (no sample: the step before), 6;
     * maxima 4, 4, 6 */
    struct skyjob_sample s[3] = {{0, 0, 2}, {0, 30, 4}, {0, 130, 6}};
    double u[4];
    CHECK(skyjob_steps_csv(s, 3, 0, 60) == 3);
    skyjob_quantize_csv(s, 3, 0, 60, 0, u, 3);
    CHECK_NEAR(u[0], 3, 0);
    CHECK_NEAR(u[1], 3, 0);
    CHECK_NEAR(u[2], 6, 0);
    skyjob_quantize_csv(s, 3, 0, 60, 1, u, 3);
    CHECK_NEAR(u[0], 4, 0);
    CHECK_NEAR(u[2], 6, 0);

    /* native units (2 at 0, 1 at 5) lasting 10 s, step 10: the level is 2
     * on [0,5), 3 on [5,10), 1 on [10,15); 2 steps; time-weighted means
     * (2*5 + 3*5)/10 = 2.5 and 1*5/10 = 0.5; maxima 3 and 1 */
    struct skyjob_sample nu[2] = {{0, 0, 2}, {0, 5, 1}};
    CHECK(skyjob_steps_native(nu, 2, 10, 10) == 2);
    skyjob_quantize_native(nu, 2, 10, 10, 0, u, 2);
    CHECK_NEAR(u[0], 2.5, 1e-12);
    CHECK_NEAR(u[1], 0.5, 1e-12);
    skyjob_quantize_native(nu, 2, 10, 10, 1, u, 2);
    CHECK_NEAR(u[0], 3, 0);
    CHECK_NEAR(u[1], 1, 0);

    /* two identical runs 2,2,2: objective 0 only at s = the usage (no
     * over-allocation, no debt), so the fit is 2,2,2 */
    struct skyjob_opts o;
    skyjob_opts_default(&o);
    o.quiet = 1;
    skyjob *j = skyjob_new();
    skyjob_reset(j, "j");
    for (int r = 0; r < 2; r++) {
        int created;
        int ri = skyjob_run(j, r ? "r2" : "r1", 1000.0 * r, &created);
        CHECK(created == 1 && ri == r);
        for (int k = 0; k < 3; k++)
            skyjob_add(j, ri, 1000.0 * r + 60 * k, 2);
    }
    int again;
    CHECK(skyjob_run(j, "r1", 5, &again) == 0 && again == 0);
    char *st, *t = fit_text(j, &o, &st);
    CHECK_STR(t, "j,60,0,2\nj,60,60,2\nj,60,120,2\n");
    CHECK(strstr(st, ",optimal,0,,r1,0,\n") != NULL);
    free(t);
    free(st);

    /* --last 1 keeps the latest run only (starts 0 and 1000: r2, usage 5) */
    skyjob_reset(j, "k");
    int a = skyjob_run(j, "r1", 0, NULL), b = skyjob_run(j, "r2", 1000, NULL);
    skyjob_add(j, a, 0, 1);
    skyjob_add(j, b, 1000, 5);
    o.last = 1;
    o.min_runs = 1;
    t = fit_text(j, &o, &st);
    CHECK_STR(t, "k,60,0,5\n");
    free(t);
    free(st);

    /* too few runs: no rows, a stats row with the status */
    o.min_runs = 2;
    o.last = 0;
    skyjob_reset(j, "m");
    skyjob_add(j, skyjob_run(j, "only", 0, NULL), 0, 1);
    t = fit_text(j, &o, &st);
    CHECK_STR(t, "");
    CHECK_STR(st, "m,1,0,,,,,,,too_few_runs,0,,,0,\n");
    free(t);
    free(st);

    /* outlier runs: five 2-step runs and one of 20 steps; lengths (steps x
     * 60 s) median 120 s, MAD 0, spread max(0, 0.1*120, half a step 30) =
     * 30 s, bound 120 + 3*30 = 210 s: the 1200 s run is kept out and the
     * fit is 2 steps long */
    skyjob_reset(j, "n");
    for (int r = 0; r < 6; r++) {
        char name[16];
        snprintf(name, sizeof name, "r%d", r);
        int ri = skyjob_run(j, name, 1000.0 * r, NULL);
        int len = r == 3 ? 20 : 2;
        for (int k = 0; k < len; k++)
            skyjob_add(j, ri, 1000.0 * r + 60 * k, 1);
    }
    t = fit_text(j, &o, &st);
    CHECK_STR(t, "n,60,0,1\nn,60,60,1\n");
    CHECK(strstr(st, ",optimal,1,r3,r0,0,\n") != NULL);
    free(t);
    free(st);
    skyjob_free(j);

    /* skyread_csv with sort: job b's and a's rows interleaved give a's fit
     * (two identical runs of 3 containers: 3) then b's (4) */
    char path[] = "/tmp/test_skyjob_XXXXXX";
    FILE *f = fdopen(mkstemp(path), "w");
    fputs("job,run,t,containers\nb,x,0,4\na,p,0,3\nb,y,500,4\na,q,500,3\n", f);
    fclose(f);
    int rs;
    csvr *r = csvr_open_with(path, &csv_dialect_plain, 0, &rs);
    char *buf = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&buf, &len);
    struct skyjob_out out = {.o = &o, .w = csvw_new_with(mf, &csv_dialect_plain)};
    CHECK(skyread_csv(r, &out, 1) == SLK_OK);
    skyjob_out_release(&out, 0);
    csvw_free(out.w);
    fclose(mf);
    CHECK_STR(buf, "job,step,offset,alloc\na,60,0,3\nb,60,0,4\n");
    CHECK(out.tot.jobs == 2 && out.tot.fitted == 2);
    free(buf);
    csvr_close(r);
    /* without sort the same rows are not grouped: a data error */
    r = csvr_open_with(path, &csv_dialect_plain, 0, &rs);
    mf = open_memstream(&buf, &len);
    out = (struct skyjob_out){.o = &o, .w = csvw_new_with(mf, &csv_dialect_plain)};
    fprintf(stderr, "(the 'not grouped' message below is expected)\n");
    CHECK(skyread_csv(r, &out, 0) == SLK_EDATA);
    skyjob_out_release(&out, 0);
    csvw_free(out.w);
    fclose(mf);
    free(buf);
    csvr_close(r);
    unlink(path);
    test_outlier_units();
    test_runlen();
    return unit_done("skyjob");
}
