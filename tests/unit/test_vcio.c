/* Unit tests of lib/vc/vcio: the capacities reader and a streamed run on
 * hand-written inputs, the name -> index hash, and the rejections. */
#include "unit.h"
#include "base/diag.h"
#include "vc/vcio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *write_tmp(const char *text)
{
    static char path[8][64];
    static int which;
    char *p = path[which++ & 7];
    snprintf(p, sizeof path[0], "/tmp/test_vcio_XXXXXX");
    int fd = mkstemp(p);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return p;
}

int main(void)
{
    slk_init("test_vcio");
    char *cp = write_tmp("vc,capacity\nb,10\na,30\n");
    struct vcio_vcs V = {0};
    CHECK(vcio_vcs_read(cp, &csv_dialect_plain, &V) == SLK_OK);
    CHECK(V.n == 2);
    CHECK(vcio_vcs_find(&V, "b") == 0);
    CHECK(vcio_vcs_find(&V, "a") == 1);
    CHECK(vcio_vcs_find(&V, "c") == -1);
    CHECK_NEAR(V.cap[1], 30, 0);

    /* j1 (a, 2 sh, no limit) alone on all 40 servers from 100 s; at 200 s it
     * has 3200 server-s left and j2 (b, 0.5 sh, at most 4) arrives: a keeps
     * 30 + the 6 spare -> j1 ends at 200 + 3200/36; j2 runs on 4 servers:
     * 1800/4 = 450 s -> 650, stretch 450 / (1800/10) = 2.5 */
    char *jp = write_tmp("job,vc,submit,size_server_hours,max_parallelism\nj1,a,100,2,\nj2,b,200,0.5,4\n");
    struct vcsim_config cfg = {.credit_window = 86400, .window_start = NAN};
    struct vcio_run_opts ro = {jp, &csv_dialect_plain, cp, 10, VCREP_KEEP_STRETCH | VCREP_KEEP_DAILY};
    struct vcrep_acc acc;
    struct vcsim_vc_stats vst[2];
    struct vcsim_totals tot;
    char *out = NULL;
    size_t outlen = 0;
    FILE *of = open_memstream(&out, &outlen);
    csvw *w = csvw_new_with(of, &csv_dialect_plain);
    CHECK(vcio_run(&cfg, &V, &ro, w, &acc, vst, &tot) == SLK_OK);
    csvw_free(w);
    fclose(of);
    CHECK(acc.n == 2 && acc.win_n == 2); /* the default window holds every submit */
    CHECK_NEAR(acc.work, 9000, 1e-9);
    CHECK(strncmp(out, "job,vc,submit,finish,stretch\nj1,a,100,", 38) == 0);
    CHECK(strstr(out, "\nj2,b,200,650,2.5\n") != NULL);
    struct vcrep_vc rep[2];
    vcrep_acc_per_vc(&acc, tot.window_len, rep);
    CHECK(rep[0].jobs == 1 && rep[1].jobs == 1);
    CHECK_NEAR(rep[0].median, 2.5, 1e-12);
    vcrep_acc_free(&acc);
    free(out);

    /* an unknown VC, a duplicate job, too many jobs and out-of-order submits
     * are data errors */
    const char *bad[] = {"job,vc,submit,size_server_hours\nj1,zz,100,2\n",
                         "job,vc,submit,size_server_hours\nj1,a,100,2\nj1,b,100,2\n",
                         "job,vc,submit,size_server_hours\nj1,a,100,2\nj2,b,200,2\nj3,b,300,2\n",
                         "job,vc,submit,size_server_hours\nj1,a,100,2\nj2,b,50,2\n"};
    for (int i = 0; i < 4; i++) {
        char *bp = write_tmp(bad[i]);
        struct vcio_run_opts bo = {bp, &csv_dialect_plain, cp, 2, 0};
        of = fopen("/dev/null", "w");
        w = csvw_new_with(of, &csv_dialect_plain);
        CHECK(vcio_run(&cfg, &V, &bo, w, &acc, vst, &tot) == SLK_EDATA);
        vcrep_acc_free(&acc);
        csvw_free(w);
        fclose(of);
        unlink(bp);
    }
    vcio_vcs_free(&V);
    unlink(cp);
    unlink(jp);
    return unit_done("vcio");
}
