/* Unit tests of lib/vc/vcio: the capacities and jobs readers on
 * hand-written inputs, the name -> index hash, and the rejections. */
#include "unit.h"
#include "base/diag.h"
#include "vc/vcio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char *write_tmp(const char *text)
{
    static char path[4][64];
    static int which;
    char *p = path[which++ & 3];
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

    char *jp = write_tmp("job,vc,submit,size_server_hours,max_parallelism\nj1,a,100,2,\nj2,b,200,0.5,4\n");
    struct vcio_jobs J = {0};
    CHECK(vcio_jobs_read(jp, &csv_dialect_plain, &V, cp, 10, &J) == SLK_OK);
    CHECK(J.n == 2);
    CHECK_STR(J.ids + J.id[1], "j2");
    CHECK(J.j[0].vc == 1 && J.j[1].vc == 0);
    CHECK_NEAR(J.j[0].work, 7200, 0);           /* 2 server-hours */
    CHECK(isinf(J.j[0].maxpar));                /* missing: no limit */
    CHECK_NEAR(J.j[1].maxpar, 4, 0);
    vcio_jobs_free(&J);

    /* an unknown VC and too many jobs are data errors */
    char *bp = write_tmp("job,vc,submit,size_server_hours\nj1,zz,100,2\n");
    struct vcio_jobs J2 = {0};
    CHECK(vcio_jobs_read(bp, &csv_dialect_plain, &V, cp, 10, &J2) == SLK_EDATA);
    vcio_jobs_free(&J2);
    struct vcio_jobs J3 = {0};
    CHECK(vcio_jobs_read(jp, &csv_dialect_plain, &V, cp, 1, &J3) == SLK_EDATA);
    CHECK(J3.n == 1);
    vcio_jobs_free(&J3);
    vcio_vcs_free(&V);
    unlink(cp);
    unlink(jp);
    unlink(bp);
    return unit_done("vcio");
}
