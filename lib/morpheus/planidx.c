/* planidx — the index sidecar of a plan file (see planidx.h).
 *
 * The index is read whole (about 1 MB for 10,000 reservations), its CRC
 * checked, then decoded with every length bounded by what is left, so a
 * truncated or garbled index is refused without reading past its end.
 */
#include "morpheus/planidx.h"
#include "base/diag.h"
#include "base/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define IDX_MAGIC "slkpidx"   /* 8 bytes with its NUL */
/* 2: a once reservation counted from the cycle of its first row, as
 * plan_read gives it back; the load summed as a re-run sums it */
#define IDX_VERSION 2u
#define IDX_BOM 0x01020304u

char *planidx_path(const char *plan_path) { return plan_side_path(plan_path, ".idx"); }

/* ---- encoding ---------------------------------------------------------------- */

struct obuf {
    char *s;
    size_t n, cap;
};
static void put(struct obuf *b, const void *v, size_t n)
{
    b->s = xgrow(b->s, &b->cap, b->n + n, 1);
    memcpy(b->s + b->n, v, n);
    b->n += n;
}
static void put_u32(struct obuf *b, uint32_t v) { put(b, &v, sizeof v); }
static void put_i64(struct obuf *b, int64_t v) { put(b, &v, sizeof v); }
static void put_f64(struct obuf *b, double v) { put(b, &v, sizeof v); }
static void put_u8(struct obuf *b, unsigned v)
{
    unsigned char c = (unsigned char)v;
    put(b, &c, 1);
}

static void put_res(struct obuf *b, const struct planidx_res *r)
{
    size_t n = strlen(r->job);
    put_u32(b, (uint32_t)n);
    put(b, r->job, n + 1); /* with its NUL: the loaded index points into its bytes */
    put_u8(b, r->kind == PLAN_ONCE);
    put_u8(b, r->problematic != 0);
    put_i64(b, r->instance);
    put_i64(b, r->cycle);
    put_i64(b, r->start);
    put_i64(b, r->len);
    put_f64(b, r->period);
    put_f64(b, r->a);
    put_f64(b, r->d);
    put_f64(b, r->cores);
    put_f64(b, r->mem_mb);
    put(b, &r->maxc, sizeof r->maxc);
    put_i64(b, r->csteps);
}

void planidx_summary(const plan *p, const struct plan_res *r, struct planidx_res *out)
{
    memset(out, 0, sizeof *out);
    out->job = r->job;
    out->kind = r->kind;
    out->problematic = r->problematic;
    out->instance = r->instance;
    out->cycle = r->cycle;
    out->start = r->start;
    if (r->kind == PLAN_ONCE) /* as plan_read gives it back: counted from the cycle of its first row */
        out->start = plan_cycle_step(p, r->cycle, r->start, &out->cycle);
    out->len = r->len;
    out->period = r->period;
    out->a = r->a;
    out->d = r->d;
    out->cores = r->cores;
    out->mem_mb = r->mem_mb;
    for (long j = 0; j < r->len; j++) {
        out->csteps += r->containers[j];
        if (r->containers[j] > out->maxc)
            out->maxc = r->containers[j];
    }
}

/* ends_at: 1 when the regular file `path` (stat in *st) ends with the
 * trailer row of *mark at the size of *mark. */
static int ends_at(const char *path, const struct stat *st, const struct plan_mark *mark)
{
    size_t n = strnlen(mark->trailer, sizeof mark->trailer);
    if (!S_ISREG(st->st_mode) || (int64_t)st->st_size != mark->size || n == 0 || (int64_t)n > mark->size)
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char b[sizeof mark->trailer];
    ssize_t k = pread(fd, b, n, (off_t)(mark->size - (int64_t)n));
    close(fd);
    return k == (ssize_t)n && memcmp(b, mark->trailer, n) == 0;
}

int planidx_save(const planidx *old, const plan *p, const char *plan_path, const struct plan_mark *mark)
{
    if (!plan_path || strcmp(plan_path, "-") == 0 || outf_is_special(plan_path))
        return SLK_OK;
    struct stat st;
    if (stat(plan_path, &st) != 0 || !ends_at(plan_path, &st, mark))
        return SLK_OK;
    struct obuf b = {0};
    put(&b, IDX_MAGIC, 8);
    put_u32(&b, IDX_VERSION);
    put_u32(&b, IDX_BOM);
    put_i64(&b, (int64_t)st.st_dev);
    put_i64(&b, (int64_t)st.st_ino);
    put_i64(&b, (int64_t)st.st_size);
    put_i64(&b, (int64_t)st.st_mtim.tv_sec);
    put_i64(&b, (int64_t)st.st_mtim.tv_nsec);
    size_t tn = strnlen(mark->trailer, sizeof mark->trailer);
    put_u32(&b, (uint32_t)tn);
    put(&b, mark->trailer, tn);
    put_i64(&b, p->step);
    put_i64(&b, p->lcm);
    put_i64(&b, mark->nrows);
    put_u32(&b, mark->chain);
    put_i64(&b, mark->nseg);
    put(&b, p->load_cores, (size_t)p->nsteps * sizeof(double));
    put(&b, p->load_mem, (size_t)p->nsteps * sizeof(double));
    int64_t nres = old ? (int64_t)old->nres : 0;
    for (size_t k = 0; k < p->nres; k++)
        nres += !p->res[k].removed;
    put_i64(&b, nres);
    for (size_t k = 0; old && k < old->nres; k++)
        put_res(&b, &old->res[k]);
    for (size_t k = 0; k < p->nres; k++)
        if (!p->res[k].removed) {
            struct planidx_res s;
            planidx_summary(p, &p->res[k], &s);
            put_res(&b, &s);
        }
    put_u32(&b, plan_crc32(0, b.s, b.n));

    char *path = planidx_path(plan_path);
    int rc;
    outf *o = outf_open(path, &rc);
    if (o) {
        /* a failed write stays in the stream's error flag: outf_finish says it */
        rc = outf_finish(o, fwrite(b.s, 1, b.n, outf_fp(o)) == b.n ? SLK_OK : SLK_EIO);
    }
    free(path);
    free(b.s);
    return rc;
}

/* ---- decoding ---------------------------------------------------------------- */

struct ibuf {
    const char *s;
    size_t n, pos;
    int bad;
};
static void get(struct ibuf *b, void *v, size_t n)
{
    if (b->bad || n > b->n - b->pos) {
        b->bad = 1;
        memset(v, 0, n);
        return;
    }
    memcpy(v, b->s + b->pos, n);
    b->pos += n;
}
static uint32_t get_u32(struct ibuf *b)
{
    uint32_t v;
    get(b, &v, sizeof v);
    return v;
}
static int64_t get_i64(struct ibuf *b)
{
    int64_t v;
    get(b, &v, sizeof v);
    return v;
}
static double get_f64(struct ibuf *b)
{
    double v;
    get(b, &v, sizeof v);
    return v;
}
static unsigned get_u8(struct ibuf *b)
{
    unsigned char c;
    get(b, &c, 1);
    return c;
}

/* read_all: the whole file, or NULL. */
static char *read_all(const char *path, size_t *n)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 64 || st.st_size > ((int64_t)1 << 40)) {
        close(fd);
        return NULL;
    }
    size_t size = (size_t)st.st_size, got = 0;
    char *s = xmalloc(size);
    while (got < size) {
        ssize_t k = read(fd, s + got, size - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    close(fd);
    if (got != size) {
        free(s);
        return NULL;
    }
    *n = size;
    return s;
}

plan *planidx_plan(const planidx *x)
{
    plan *p = plan_new(x->step, x->lcm);
    memcpy(p->load_cores, x->load_cores, (size_t)x->nsteps * sizeof(double));
    memcpy(p->load_mem, x->load_mem, (size_t)x->nsteps * sizeof(double));
    p->nseg = x->mark.nseg;
    return p;
}

void planidx_free(planidx *x)
{
    if (!x)
        return;
    free(x->load_cores);
    free(x->load_mem);
    free(x->res);
    free(x->data);
    free(x);
}

planidx *planidx_load(const char *plan_path)
{
    struct stat st;
    if (stat(plan_path, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    char *path = planidx_path(plan_path);
    size_t n = 0;
    char *data = read_all(path, &n);
    free(path);
    if (!data)
        return NULL;
    uint32_t crc;
    memcpy(&crc, data + n - 4, 4);
    if (memcmp(data, IDX_MAGIC, 8) != 0 || plan_crc32(0, data, n - 4) != crc) {
        free(data);
        return NULL;
    }
    planidx *x = xcalloc(1, sizeof *x);
    x->data = data;
    struct ibuf b = {.s = data, .n = n - 4, .pos = 8};
    if (get_u32(&b) != IDX_VERSION || get_u32(&b) != IDX_BOM)
        goto stale;
    /* the stamp */
    int64_t dev = get_i64(&b), ino = get_i64(&b), size = get_i64(&b), msec = get_i64(&b), mnsec = get_i64(&b);
    uint32_t tn = get_u32(&b);
    if (b.bad || tn == 0 || tn >= sizeof x->mark.trailer || dev != (int64_t)st.st_dev ||
        ino != (int64_t)st.st_ino || size != (int64_t)st.st_size || msec != (int64_t)st.st_mtim.tv_sec ||
        mnsec != (int64_t)st.st_mtim.tv_nsec)
        goto stale;
    get(&b, x->mark.trailer, tn);
    x->mark.size = size;
    /* geometry and mark */
    int64_t step = get_i64(&b), lcm = get_i64(&b);
    x->mark.nrows = (long)get_i64(&b);
    x->mark.chain = get_u32(&b);
    x->mark.nseg = (long)get_i64(&b);
    if (b.bad || step < 1 || lcm < step || lcm % step != 0 || lcm / step > 100000000 || x->mark.nrows < 0 ||
        x->mark.nseg < 1)
        goto stale;
    x->step = (long)step;
    x->lcm = (long)lcm;
    x->nsteps = (long)(lcm / step);
    size_t nb = (size_t)x->nsteps * sizeof(double);
    if (nb * 2 > b.n - b.pos)
        goto stale;
    x->load_cores = xmalloc(nb);
    x->load_mem = xmalloc(nb);
    get(&b, x->load_cores, nb);
    get(&b, x->load_mem, nb);
    int64_t nres = get_i64(&b);
    /* every reservation takes at least 92 bytes: bound nres before allocating */
    if (b.bad || nres < 0 || (uint64_t)nres > (b.n - b.pos) / 92)
        goto stale;
    x->nres = (size_t)nres;
    x->res = xcalloc(x->nres ? x->nres : 1, sizeof *x->res);
    for (size_t k = 0; k < x->nres; k++) {
        struct planidx_res *r = &x->res[k];
        uint32_t jn = get_u32(&b);
        /* the job is stored with its NUL: point into the index's bytes */
        if (b.bad || jn == 0 || (size_t)jn + 1 > b.n - b.pos || b.s[b.pos + jn] != 0 || memchr(b.s + b.pos, 0, jn))
            goto stale;
        r->job = b.s + b.pos;
        b.pos += (size_t)jn + 1;
        r->kind = get_u8(&b) ? PLAN_ONCE : PLAN_PERIODIC;
        r->problematic = (int)get_u8(&b);
        r->instance = get_i64(&b);
        r->cycle = get_i64(&b);
        r->start = (long)get_i64(&b);
        r->len = (long)get_i64(&b);
        r->period = get_f64(&b);
        r->a = get_f64(&b);
        r->d = get_f64(&b);
        r->cores = get_f64(&b);
        r->mem_mb = get_f64(&b);
        get(&b, &r->maxc, sizeof r->maxc);
        r->csteps = get_i64(&b);
        if (b.bad || r->len < 1 || r->start < 0 || !(r->period > 0) || !isfinite(r->period) || r->maxc < 1 ||
            r->csteps < r->len)
            goto stale;
    }
    if (b.bad || b.pos != b.n)
        goto stale;
    return x;
stale:
    planidx_free(x);
    return NULL;
}
