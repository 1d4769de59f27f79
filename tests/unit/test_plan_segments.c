/* Unit test for plan segments (lib/morpheus/plan: plan_write, plan_read, plan_append)
 * and the plan index (lib/morpheus/planidx).  Cycle: 10 minutes of 60 s steps.
 *   A: periodic, period 600, steps 0-1, 4 containers of 1 core / 1024 MB.
 *   B: periodic, period 300 (2 instances), step 2, 3 containers of 2 cores.
 * f1 = A (one segment); f2 = f1 read back + B (two segments: A, then B);
 * f3 = f1 with B appended in place: byte for byte f2.  The expected trailer
 * rows are written out by hand: "end,<rows so far>" and the CRC chain, the
 * chain checked against zlib-style CRC-32 of the concatenated row crcs. */
#include "base/diag.h"
#include "morpheus/plan.h"
#include "morpheus/planidx.h"
#include "unit.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char *slurp(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *s = malloc((1 << 16) + 1);
    *n = fread(s, 1, 1 << 16, fp);
    fclose(fp);
    s[*n] = 0;
    return s;
}

static int same_bytes(const char *a, const char *b)
{
    size_t na, nb;
    char *sa = slurp(a, &na), *sb = slurp(b, &nb);
    int same = sa && sb && na == nb && memcmp(sa, sb, na) == 0;
    free(sa);
    free(sb);
    return same;
}

static void add_a(plan *p)
{
    struct plan_res r;
    plan_res_init(&r, "A", PLAN_PERIODIC, 2);
    r.period = 600, r.a = 0, r.d = 600, r.cores = 1, r.mem_mb = 1024, r.start = 0;
    r.containers[0] = r.containers[1] = 4;
    plan_add(p, &r);
}

static void add_b(plan *p)
{
    struct plan_res r;
    plan_res_init(&r, "B", PLAN_PERIODIC, 1);
    r.period = 300, r.a = 0, r.d = 300, r.cores = 2, r.mem_mb = 10, r.start = 2;
    r.containers[0] = 3;
    plan_add(p, &r);
}

/* the CRC chain over the crc fields (last column) of the data rows of a file */
static uint32_t chain_of(const char *text, long *rows)
{
    uint32_t c = 0;
    *rows = 0;
    for (const char *l = strchr(text, '\n') + 1; *l; l = strchr(l, '\n') + 1) {
        const char *e = strchr(l, '\n');
        if (strstr(l, ",end,") && strstr(l, ",end,") < e)
            continue;
        c = plan_crc32(c, e - 8, 8);
        ++*rows;
    }
    return c;
}

int main(void)
{
    /* f1: A alone, one segment */
    plan *p1 = plan_new(60, 600);
    add_a(p1);
    CHECK(p1->res[0].seg == 0);
    struct plan_mark m1, m2, m3;
    CHECK(plan_save(p1, "seg1.csv", &m1) == SLK_OK);
    size_t n;
    char *t1 = slurp("seg1.csv", &n);
    CHECK(m1.size == (int64_t)n && m1.nseg == 1 && m1.nrows == 2);
    CHECK(n > strlen(m1.trailer) && strcmp(t1 + n - strlen(m1.trailer), m1.trailer) == 0);
    long rows;
    char want[160];
    snprintf(want, sizeof want, "slokit-plan/1,,end,2,,,60,600,,,,,,,,,,%08x\n", chain_of(t1, &rows));
    CHECK_STR(m1.trailer, want);
    CHECK(rows == 2 && m1.chain == chain_of(t1, &rows));

    /* f2: read back (segment 0) + B (segment 1) */
    plan *p2;
    CHECK(plan_read("seg1.csv", &p2) == SLK_OK);
    CHECK(p2->nseg == 1 && p2->nres == 1 && p2->res[0].seg == 0);
    add_b(p2);
    CHECK(p2->res[1].seg == 1);
    CHECK(plan_save(p2, "seg2.csv", &m2) == SLK_OK);
    CHECK(m2.nseg == 2 && m2.nrows == 4);
    char *t2 = slurp("seg2.csv", &n);
    CHECK(strncmp(t2, t1, strlen(t1) - 0) == 0); /* f1 is a prefix of f2 */
    snprintf(want, sizeof want, "slokit-plan/1,,end,4,,,60,600,,,,,,,,,,%08x\n", chain_of(t2, &rows));
    CHECK_STR(m2.trailer, want);
    CHECK(rows == 4);

    /* f3: f1 again, B appended in place = f2 byte for byte, same mark */
    CHECK(plan_save(p1, "seg3.csv", NULL) == SLK_OK);
    CHECK(plan_append(p2, "seg3.csv", &m1, &m3) == SLK_OK);
    CHECK(same_bytes("seg2.csv", "seg3.csv"));
    CHECK(m3.size == m2.size && m3.nrows == m2.nrows && m3.chain == m2.chain && m3.nseg == m2.nseg);
    CHECK_STR(m3.trailer, m2.trailer);

    /* reading two segments: seg per reservation, the same load to the bit */
    plan *p3;
    CHECK(plan_read("seg2.csv", &p3) == SLK_OK);
    CHECK(p3->nseg == 2 && p3->nres == 2 && p3->res[0].seg == 0 && p3->res[1].seg == 1);
    CHECK(memcmp(p3->load_cores, p2->load_cores, 10 * sizeof(double)) == 0);
    CHECK_NEAR(p3->load_cores[2], 6, 0);
    CHECK_NEAR(p3->load_cores[7], 6, 0);
    CHECK_NEAR(p3->load_cores[0], 4, 0);

    /* removal compacts: one segment, the bytes of a fresh plan of B alone */
    plan_remove_job(p3, "A");
    struct plan_mark m4;
    CHECK(plan_save(p3, "seg4.csv", &m4) == SLK_OK);
    CHECK(m4.nseg == 1 && m4.nrows == 2);
    plan *pb = plan_new(60, 600);
    add_b(pb);
    CHECK(plan_save(pb, "segb.csv", NULL) == SLK_OK);
    CHECK(same_bytes("seg4.csv", "segb.csv"));

    /* an empty plan is one segment (a trailer alone); adding to it keeps it */
    plan *pe = plan_new(60, 600), *pe2;
    CHECK(plan_save(pe, "sege.csv", NULL) == SLK_OK);
    CHECK(plan_read("sege.csv", &pe2) == SLK_OK);
    CHECK(pe2->nseg == 1);
    add_b(pe2);
    CHECK(plan_save(pe2, "sege2.csv", NULL) == SLK_OK);
    char *te = slurp("sege2.csv", &n);
    CHECK(strstr(te, "\nslokit-plan/1,,end,0,,,60,600,,,,,,,,,,00000000\nslokit-plan/1,B,") != NULL);

    /* a torn tail: the plan as of the last trailer */
    FILE *fp = fopen("seg5.csv", "wb");
    fwrite(t2, 1, strlen(t2), fp);
    fputs("slokit-plan/1,C,periodic,0,,0,60,600,1,1,1,1,1,600", fp);
    fclose(fp);
    plan *p5;
    CHECK(plan_read("seg5.csv", &p5) == SLK_OK);
    CHECK(p5 && p5->nres == 2 && p5->nseg == 2);

    /* the index: what it holds, and when it is stale */
    CHECK(planidx_save(NULL, p2, "seg2.csv", &m2) == SLK_OK);
    planidx *x = planidx_load("seg2.csv");
    CHECK(x != NULL);
    if (x) {
        CHECK(x->step == 60 && x->lcm == 600 && x->nres == 2);
        CHECK(x->mark.size == m2.size && x->mark.nrows == 4 && x->mark.chain == m2.chain && x->mark.nseg == 2);
        CHECK_STR(x->mark.trailer, m2.trailer);
        CHECK(memcmp(x->load_cores, p2->load_cores, 10 * sizeof(double)) == 0);
        CHECK(memcmp(x->load_mem, p2->load_mem, 10 * sizeof(double)) == 0);
        CHECK_STR(x->res[1].job, "B");
        CHECK(x->res[0].maxc == 4 && x->res[0].csteps == 8 && x->res[1].csteps == 3 && x->res[1].start == 2);
        plan *pi = planidx_plan(x);
        CHECK(pi->nseg == 2 && pi->nres == 0 && pi->load_mem[1] == 4096);
        plan_free(pi);
        planidx_free(x);
    }
    /* stale: another mtime */
    struct timespec ts[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};
    utimensat(AT_FDCWD, "seg2.csv", ts, 0);
    CHECK(planidx_load("seg2.csv") == NULL);
    /* corrupt: a fresh index, then cut short, then one byte changed */
    CHECK(planidx_save(NULL, p2, "seg2.csv", &m2) == SLK_OK);
    CHECK((x = planidx_load("seg2.csv")) != NULL);
    planidx_free(x);
    struct stat sb;
    stat("seg2.csv.idx", &sb);
    char *ti = slurp("seg2.csv.idx", &n);
    CHECK(truncate("seg2.csv.idx", sb.st_size - 9) == 0);
    CHECK(planidx_load("seg2.csv") == NULL);
    ti[100] ^= 1;
    fp = fopen("seg2.csv.idx", "wb");
    fwrite(ti, 1, n, fp);
    fclose(fp);
    CHECK(planidx_load("seg2.csv") == NULL);
    /* no index for a file that does not end at the mark */
    unlink("seg2.csv.idx");
    CHECK(planidx_save(NULL, p2, "seg5.csv", &m2) == SLK_OK);
    CHECK(access("seg5.csv.idx", F_OK) != 0);

    free(t1), free(t2), free(te), free(ti);
    plan_free(p1), plan_free(p2), plan_free(p3), plan_free(pb), plan_free(pe), plan_free(pe2), plan_free(p5);
    return unit_done("plan-segments");
}
