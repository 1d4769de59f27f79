/* Unit tests of lib/morpheus/slofile: the override table, and the run
 * table read in any order, tallied and written one row per job in job
 * order (counts worked by hand). */
#include "unit.h"
#include "base/diag.h"
#include "morpheus/slo.h"
#include "morpheus/slofile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *write_tmp(const char *text)
{
    static char path[8][64];
    static int which;
    char *p = path[which++ & 7];
    snprintf(p, sizeof path[0], "/tmp/test_slofile_XXXXXX");
    FILE *f = fdopen(mkstemp(p), "w");
    fputs(text, f);
    fclose(f);
    return p;
}

/* infer: slofile_infer over the table at path; the rows in *out. */
static int infer(const char *path, const struct csv_dialect *d, const struct slofile_opts *o,
                 struct slofile_tally *t, char **out)
{
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    size_t len = 0;
    FILE *f = open_memstream(out, &len);
    csvw *w = csvw_new_with(f, &csv_dialect_plain);
    st = slofile_infer(r, o, w, t);
    csvw_free(w);
    fclose(f);
    csvr_close(r);
    return st;
}

int main(void)
{
    slk_init("test_slofile");

    /* overrides: sorted by job, found and marked used */
    struct slofile_overrides O = {0};
    char *op = write_tmp("job,d\nb,100\na,50\n");
    CHECK(slofile_overrides_load(op, &csv_dialect_plain, &O) == SLK_OK);
    CHECK(O.n == 2);
    CHECK_STR(O.v[0].job, "a");
    struct slofile_ovrow *ov = slofile_override_find(&O, "a");
    CHECK(ov && ov->used && ov->ov.has_d && !ov->ov.has_a && ov->ov.d == 50);
    CHECK(slofile_override_find(&O, "c") == NULL);
    CHECK(!O.v[1].used);
    slofile_overrides_free(&O);
    fprintf(stderr, "(three data errors below are expected)\n");
    char *dp = write_tmp("job,d\na,1\na,2\n");
    CHECK(slofile_overrides_load(dp, &csv_dialect_plain, &O) == SLK_EDATA);  /* a twice */
    slofile_overrides_free(&O);
    char *bp = write_tmp("job,a,d\na,10,5\n");
    CHECK(slofile_overrides_load(bp, &csv_dialect_plain, &O) == SLK_EDATA);  /* d before a */
    slofile_overrides_free(&O);

    /* runs of b before a's, interleaved; b's second run FAILED: 2 jobs, 5
     * rows, 1 failed run, rows in job order a, b */
    char *rp = write_tmp("job,instance,submit,start,end,status\n"
                         "b,1,86400,86400,86500,done\n"
                         "a,1,0,10,100,\n"
                         "b,2,172800,172800,172900,FAILED\n"
                         "a,2,86400,86410,86500,OK\n"
                         "a,3,172800,172810,172900,ok\n");
    struct slofile_opts o = {.basis = -1, .ok_status = "ok,done", .max_runs = 100, .quiet = 1};
    slo_opts_default(&o.so);
    struct slofile_tally t = {0};
    char *out = NULL;
    CHECK(infer(rp, &csv_dialect_plain, &o, &t, &out) == SLK_OK);
    CHECK(t.njobs == 2 && t.nrows == 5 && t.nfailed == 1);
    CHECK(out && strncmp(out, "a,", 2) == 0 && strstr(out, "\nb,") != NULL);
    size_t counted = 0;
    for (int i = 0; i < SLOFILE_NSTATUS; i++)
        counted += t.status_count[i];
    CHECK(counted == 2);
    CHECK(t.basis_count[0] == 0 && t.basis_count[1] + t.basis_count[2] == 2); /* no output_read */
    free(out);

    /* a repeated instance: a data error; under --on-error skip the later
     * row is rejected and the run goes on */
    char *up = write_tmp("job,instance,submit,start,end\na,1,0,1,2\na,1,10,11,12\n");
    struct slofile_tally t2 = {0};
    out = NULL;
    CHECK(infer(up, &csv_dialect_plain, &o, &t2, &out) == SLK_EDATA);
    CHECK(t2.njobs == 0);
    free(out);
    FILE *rf = tmpfile();
    csv_rejects *rej = csv_rejects_new(rf);
    struct csv_dialect dk = csv_dialect_plain;
    dk.rejects = rej;
    o.skip = 1;
    struct slofile_tally t3 = {0};
    out = NULL;
    CHECK(infer(up, &dk, &o, &t3, &out) == SLK_OK);
    CHECK(csv_rejects_count(rej) == 1 && t3.njobs == 1 && t3.nrows == 1);
    free(out);
    csv_rejects_free(rej);
    fclose(rf);
    unlink(op);
    unlink(dp);
    unlink(bp);
    unlink(rp);
    unlink(up);
    /* the period fit's trim: a daily job submitted at 01:15 UTC + 0-10 s on
     * 30 days, and one manual run at 20:48 the evening before day 15, 4.4 h
     * early: inside the match band, so the least-squares grid through all
     * 31 is 518 s off the regular runs and 3.4 s a day too short.  The
     * trim must take its band around the runs (the residuals' median), not
     * around that grid, where a band of a few jitters holds none of them
     * and the fit stayed at 86396.6 s (snapped to 86400 only because the
     * skewed grid's jitter, 41 s, allowed it; job00607 of a sliding dump
     * got 86396 and became off-kilter for a night) */
    {
        double sub[31];
        int k = 0;
        for (int i = 0; i < 30; i++)
            sub[k++] = 1768176000.0 + i * 86400.0 + 4500 + (i * 7) % 11;
        sub[k++] = 1768176000.0 + 14 * 86400.0 + 74901;
        struct slo_opts so;
        slo_opts_default(&so);
        struct slo_period per;
        slo_period_estimate(sub, 31, &so, &per);
        CHECK_NEAR(per.raw, 86400, 0.5); /* least squares on the 30: 86400.03 */
        CHECK(per.jitter < 10);
        CHECK(per.period == 86400);
        CHECK(per.matched == 30 && per.slots == 30);
    }

    return unit_done("slofile");
}
