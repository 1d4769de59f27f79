/* plan — the reservation plan: model, file format, load and capacity (see plan.h).
 *
 * The plan keeps the load profile up to date on every add; a removal
 * recomputes it from scratch so that the profile after add+remove is exactly
 * the sum of what is left (no floating-point residue from subtraction).
 * Reading validates everything the file format promises, so a plan that
 * loads is one lcmpack could have written; a torn tail after the last
 * complete trailer is found by scanning the file's end backwards first, and
 * never parsed.  Writing goes through one row formatter (struct pwriter)
 * shared by plan_write and plan_append, so a segment appended in place has
 * the bytes a full rewrite gives.
 */
#include "morpheus/plan.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "base/parse.h"
#include "base/rng.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- CRC-32 ------------------------------------------------------------------ */

/* Slicing-by-8: eight bytes per step (the plan reader checks one CRC per
 * row, so this is on the hot path); byte order independent. */
static uint32_t crc_table[8][256];
static int crc_ready;

uint32_t plan_crc32(uint32_t crc, const void *buf, size_t n)
{
    if (!crc_ready) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            crc_table[0][i] = c;
        }
        for (int k = 1; k < 8; k++)
            for (int i = 0; i < 256; i++)
                crc_table[k][i] = (crc_table[k - 1][i] >> 8) ^ crc_table[0][crc_table[k - 1][i] & 0xff];
        crc_ready = 1;
    }
    const unsigned char *b = buf;
    crc = ~crc;
    while (n >= 8) {
        uint32_t one = crc ^ ((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
        uint32_t two = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
        crc = crc_table[7][one & 0xff] ^ crc_table[6][(one >> 8) & 0xff] ^ crc_table[5][(one >> 16) & 0xff] ^
              crc_table[4][one >> 24] ^ crc_table[3][two & 0xff] ^ crc_table[2][(two >> 8) & 0xff] ^
              crc_table[1][(two >> 16) & 0xff] ^ crc_table[0][two >> 24];
        b += 8;
        n -= 8;
    }
    while (n--)
        crc = crc_table[0][(crc ^ *b++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

/* ---- job index: job name -> list of reservation indices ---------------------- */

struct idx_entry {
    const char *job;        /* points into a reservation's job (NULL: empty slot) */
    size_t *ids, n, cap;
};
struct idx {
    struct idx_entry *e;
    size_t cap, used;
};

static struct idx_entry *idx_find(struct idx *x, const char *job, int create)
{
    if (create && (x->used + 1) * 2 > x->cap) {
        size_t ncap = x->cap ? x->cap * 2 : 64;
        struct idx_entry *ne = xcalloc(ncap, sizeof *ne);
        for (size_t i = 0; i < x->cap; i++) {
            if (!x->e[i].job)
                continue;
            size_t h = rng_hash_str(x->e[i].job) & (ncap - 1);
            while (ne[h].job)
                h = (h + 1) & (ncap - 1);
            ne[h] = x->e[i];
        }
        free(x->e);
        x->e = ne;
        x->cap = ncap;
    }
    if (!x->cap)
        return NULL;
    size_t h = rng_hash_str(job) & (x->cap - 1);
    while (x->e[h].job) {
        if (strcmp(x->e[h].job, job) == 0)
            return &x->e[h];
        h = (h + 1) & (x->cap - 1);
    }
    if (!create)
        return NULL;
    x->e[h].job = job;
    x->used++;
    return &x->e[h];
}

static void idx_free(struct idx *x)
{
    if (!x)
        return;
    for (size_t i = 0; i < x->cap; i++)
        free(x->e[i].ids);
    free(x->e);
    free(x);
}

/* ---- construction ------------------------------------------------------------ */

plan *plan_new(long step, long lcm)
{
    if (step < 1 || lcm < step || lcm % step != 0)
        return NULL;
    plan *p = xcalloc(1, sizeof *p);
    p->step = step;
    p->lcm = lcm;
    p->nsteps = lcm / step;
    p->load_cores = xcalloc((size_t)p->nsteps, sizeof(double));
    p->load_mem = xcalloc((size_t)p->nsteps, sizeof(double));
    p->cap_cores = xmalloc((size_t)p->nsteps * sizeof(double));
    p->cap_mem = xmalloc((size_t)p->nsteps * sizeof(double));
    for (long s = 0; s < p->nsteps; s++)
        p->cap_cores[s] = p->cap_mem[s] = INFINITY;
    p->index = xcalloc(1, sizeof(struct idx));
    return p;
}

void plan_res_init(struct plan_res *r, const char *job, enum plan_kind kind, long len)
{
    memset(r, 0, sizeof *r);
    r->job = xstrdup(job);
    r->kind = kind;
    r->len = len;
    size_t n = len > 0 ? (size_t)len : 1;
    r->containers = xcalloc(n, sizeof(int32_t));
    r->gang = xmalloc(n * sizeof(int32_t));
    r->stage = xmalloc(n * sizeof(int32_t));
    for (size_t j = 0; j < n; j++)
        r->gang[j] = r->stage[j] = 1;
}

void plan_res_free(struct plan_res *r)
{
    if (!r)
        return;
    free(r->job);
    free(r->containers);
    free(r->gang);
    free(r->stage);
    r->job = NULL;
    r->containers = r->gang = r->stage = NULL;
}

void plan_free(plan *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nres; i++)
        plan_res_free(&p->res[i]);
    free(p->res);
    free(p->load_cores);
    free(p->load_mem);
    free(p->cap_cores);
    free(p->cap_mem);
    idx_free(p->index);
    free(p);
}

/* ---- geometry ---------------------------------------------------------------- */

static long lmod(long a, long m)
{
    long r = a % m;
    return r < 0 ? r + m : r;
}

long plan_ninst(const plan *p, const struct plan_res *r)
{
    if (r->kind == PLAN_ONCE)
        return 1;
    long n = (long)llround((double)p->lcm / r->period);
    return n < 1 ? 1 : n;
}

long plan_slot(const plan *p, const struct plan_res *r, long i, long j)
{
    long pp = r->kind == PLAN_PERIODIC ? (long)llround(r->period / (double)p->step) : 0;
    return lmod(r->start + i * pp + j, p->nsteps);
}

long plan_offset(const plan *p, double T, int64_t *cycle)
{
    double c = floor(T / (double)p->lcm);
    double off = T - c * (double)p->lcm;
    long s = (long)floor(off / (double)p->step);
    if (s >= p->nsteps) { /* rounding at the very end of a cycle */
        s -= p->nsteps;
        c += 1;
    }
    if (s < 0)
        s = 0;
    if (cycle)
        *cycle = (int64_t)c;
    return s;
}

/* ---- load and cost ----------------------------------------------------------- */

static void add_load(plan *p, const struct plan_res *r, double sign)
{
    long ni = plan_ninst(p, r);
    for (long i = 0; i < ni; i++)
        for (long j = 0; j < r->len; j++) {
            long s = plan_slot(p, r, i, j);
            p->load_cores[s] += sign * r->containers[j] * r->cores;
            p->load_mem[s] += sign * r->containers[j] * r->mem_mb;
        }
}

static double ratio(double load, double cap)
{
    if (load <= 0)
        return 0;
    if (cap <= 0)
        return INFINITY;
    return load / cap; /* cap = +inf gives 0 */
}

double plan_cost(const plan *p, long s)
{
    double a = ratio(p->load_mem[s], p->cap_mem[s]), b = ratio(p->load_cores[s], p->cap_cores[s]);
    return a > b ? a : b;
}

double plan_cost_add(const plan *p, long s, double n, double cores, double mem_mb)
{
    double a = ratio(p->load_mem[s] + n * mem_mb, p->cap_mem[s]);
    double b = ratio(p->load_cores[s] + n * cores, p->cap_cores[s]);
    return a > b ? a : b;
}

int64_t plan_headroom(const plan *p, long s, double cores, double mem_mb)
{
    double best = (double)INT32_MAX;
    /* a tiny tolerance so that loads summed in another order still fit exactly */
    if (cores > 0 && isfinite(p->cap_cores[s])) {
        double h = floor((p->cap_cores[s] - p->load_cores[s]) / cores + 1e-9);
        if (h < best)
            best = h;
    }
    if (mem_mb > 0 && isfinite(p->cap_mem[s])) {
        double h = floor((p->cap_mem[s] - p->load_mem[s]) / mem_mb + 1e-9);
        if (h < best)
            best = h;
    }
    return best < 0 ? 0 : (int64_t)best;
}

int plan_fits(const plan *p, const struct plan_res *r, long *bad_step)
{
    long ni = plan_ninst(p, r);
    /* slots of different instances never coincide (len <= period), but a
     * ONCE reservation longer than the cycle could fold onto itself: sum
     * per slot first in that case */
    if (r->len > p->nsteps) {
        double *c = xcalloc((size_t)p->nsteps, sizeof(double));
        for (long j = 0; j < r->len; j++)
            c[plan_slot(p, r, 0, j)] += r->containers[j];
        int ok = 1;
        for (long s = 0; s < p->nsteps && ok; s++)
            if (c[s] > 0 && plan_headroom(p, s, r->cores, r->mem_mb) < (int64_t)c[s]) {
                ok = 0;
                if (bad_step)
                    *bad_step = s;
            }
        free(c);
        return ok;
    }
    for (long i = 0; i < ni; i++)
        for (long j = 0; j < r->len; j++) {
            long s = plan_slot(p, r, i, j);
            if (plan_headroom(p, s, r->cores, r->mem_mb) < r->containers[j]) {
                if (bad_step)
                    *bad_step = s;
                return 0;
            }
        }
    return 1;
}

int plan_set_capacity(plan *p, double cores, double mem_mb)
{
    if (!(cores > 0) || !(mem_mb > 0) || !isfinite(cores) || !isfinite(mem_mb))
        return -1;
    for (long s = 0; s < p->nsteps; s++) {
        p->cap_cores[s] = cores;
        p->cap_mem[s] = mem_mb;
    }
    return 0;
}

int plan_read_capacity(plan *p, const char *path, const struct csv_dialect *d)
{
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int ct = csvr_require(r, "t"), cc = csvr_require(r, "cores"), cm = csvr_require(r, "mem_mb");
    if (ct < 0 || cc < 0 || cm < 0) {
        st = csvr_status(r);
        csvr_close(r);
        return st ? st : SLK_EDATA;
    }
    long prev = -1;
    double pc = 0, pm = 0;
    int rc;
    while ((rc = csvr_next(r)) > 0) {
        double t, c, m;
        if (csvr_get_duration(r, ct, &t, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
            csvr_get_double(r, cc, &c, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
            csvr_get_double(r, cm, &m, CSVR_REQUIRED | CSVR_NONNEG) < 0)
            break;
        if (t >= (double)p->lcm) {
            csvr_fail(r, "t %g is not inside the cycle [0, %ld)", t, p->lcm);
            break;
        }
        long s = (long)floor(t / (double)p->step);
        if ((double)s * p->step != t) {
            csvr_fail(r, "t %g is not a multiple of the step %ld s", t, p->step);
            break;
        }
        if (prev < 0 && s != 0) {
            csvr_fail(r, "the first row must be at t = 0 (got %g)", t);
            break;
        }
        if (prev >= 0 && s <= prev) {
            csvr_fail(r, "rows not sorted by t (%g after %g)", t, (double)prev * p->step);
            break;
        }
        for (long k = prev + 1; k < s && prev >= 0; k++) {
            p->cap_cores[k] = pc;
            p->cap_mem[k] = pm;
        }
        p->cap_cores[s] = pc = c;
        p->cap_mem[s] = pm = m;
        prev = s;
    }
    st = csvr_status(r);
    if (rc == 0 && st == SLK_OK && prev < 0) {
        slk_error_at(csvr_path(r), 0, "no capacity rows");
        st = SLK_EDATA;
    }
    csvr_close(r);
    if (st != SLK_OK)
        return st;
    for (long k = prev + 1; k < p->nsteps; k++) {
        p->cap_cores[k] = pc;
        p->cap_mem[k] = pm;
    }
    return SLK_OK;
}

/* ---- adding and removing ----------------------------------------------------- */

size_t plan_add(plan *p, struct plan_res *r)
{
    p->res = xgrow(p->res, &p->rescap, p->nres + 1, sizeof *p->res);
    size_t id = p->nres++;
    p->res[id] = *r;
    p->res[id].seg = p->nseg;
    memset(r, 0, sizeof *r);
    struct idx_entry *e = idx_find(p->index, p->res[id].job, 1);
    e->ids = xgrow(e->ids, &e->cap, e->n + 1, sizeof *e->ids);
    e->ids[e->n++] = id;
    add_load(p, &p->res[id], 1.0);
    return id;
}

double plan_peak(const plan *p, long *at)
{
    double m = 0;
    long ms = 0;
    for (long s = 0; s < p->nsteps; s++) {
        double c = plan_cost(p, s);
        if (c > m) {
            m = c;
            ms = s;
        }
    }
    if (at)
        *at = ms;
    return m;
}

double plan_res_peak(const plan *p, const struct plan_res *r)
{
    double m = 0;
    long ni = plan_ninst(p, r);
    for (long i = 0; i < ni; i++)
        for (long j = 0; j < r->len; j++) {
            double c = plan_cost(p, plan_slot(p, r, i, j));
            if (c > m)
                m = c;
        }
    return m;
}

void plan_lift(plan *p, size_t k)
{
    add_load(p, &p->res[k], -1.0);
}

void plan_settle(plan *p, size_t k, struct plan_res *r)
{
    struct plan_res *d = &p->res[k];
    if (r) {
        free(d->containers);
        free(d->gang);
        free(d->stage);
        d->start = r->start;
        d->len = r->len;
        d->containers = r->containers;
        d->gang = r->gang;
        d->stage = r->stage;
        free(r->job);
        memset(r, 0, sizeof *r);
    }
    add_load(p, d, 1.0);
}

int plan_has_job(const plan *p, const char *job)
{
    struct idx_entry *e = idx_find(p->index, job, 0);
    if (!e)
        return 0;
    for (size_t k = 0; k < e->n; k++)
        if (!p->res[e->ids[k]].removed)
            return 1;
    return 0;
}

int plan_remove_job(plan *p, const char *job)
{
    struct idx_entry *e = idx_find(p->index, job, 0);
    int n = 0;
    if (!e)
        return 0;
    for (size_t k = 0; k < e->n; k++)
        if (!p->res[e->ids[k]].removed) {
            p->res[e->ids[k]].removed = 1;
            n++;
        }
    if (n)
        plan_recompute_load(p);
    return n;
}

void plan_recompute_load(plan *p)
{
    memset(p->load_cores, 0, (size_t)p->nsteps * sizeof(double));
    memset(p->load_mem, 0, (size_t)p->nsteps * sizeof(double));
    for (size_t i = 0; i < p->nres; i++)
        if (!p->res[i].removed)
            add_load(p, &p->res[i], 1.0);
}

int plan_alloc_at(const plan *p, const char *job, double T, int64_t *containers, double *cores,
                  double *mem_mb)
{
    int64_t cyc;
    long s = plan_offset(p, T, &cyc);
    int64_t n = 0;
    double c = 0, m = 0;
    int hits = 0;
    struct idx_entry *e = idx_find(p->index, job, 0);
    for (size_t k = 0; e && k < e->n; k++) {
        const struct plan_res *r = &p->res[e->ids[k]];
        if (r->removed)
            continue;
        long j;
        if (r->kind == PLAN_PERIODIC) {
            long pp = (long)llround(r->period / (double)p->step);
            j = lmod(s - r->start, p->nsteps) % pp;
        } else {
            j = (long)((cyc - r->cycle) * p->nsteps + s - r->start);
        }
        if (j < 0 || j >= r->len)
            continue;
        hits++;
        n += r->containers[j];
        c += r->containers[j] * r->cores;
        m += r->containers[j] * r->mem_mb;
    }
    if (containers)
        *containers = n;
    if (cores)
        *cores = c;
    if (mem_mb)
        *mem_mb = m;
    return hits;
}

/* ---- writing ----------------------------------------------------------------- */

#define NFIELDS 18
static const char *const plan_cols[NFIELDS + 1] = {
    "plan", "job", "kind", "instance", "cycle", "t", "step", "lcm", "stage", "gang",
    "containers", "cores", "mem_mb", "period", "a", "d", "problematic", "crc", NULL
};

/* The row-crc covers fields 0..16 joined by ',' (unquoted, as read). */
static uint32_t row_crc(const char *const *fields)
{
    uint32_t c = 0;
    for (int i = 0; i < NFIELDS - 1; i++) {
        if (i)
            c = plan_crc32(c, ",", 1);
        if (fields[i])
            c = plan_crc32(c, fields[i], strlen(fields[i]));
    }
    return c;
}

/* fmt_i64: decimal text of v into b (at least 24 bytes); returns the length. */
static int fmt_i64(char *b, int64_t v)
{
    char t[24];
    int n = 0, k = 0;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do
        t[n++] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        b[k++] = '-';
    while (n)
        b[k++] = t[--n];
    b[k] = 0;
    return k;
}

/* A growable text buffer for one row. */
struct tbuf {
    char *s;
    size_t n, cap;
};
static void tb_put(struct tbuf *t, const char *s, size_t n)
{
    t->s = xgrow(t->s, &t->cap, t->n + n + 1, 1);
    memcpy(t->s + t->n, s, n);
    t->n += n;
}
static void tb_field(struct tbuf *t, const char *s) /* CSV-quoted when needed */
{
    if (!strpbrk(s, ",\"\r\n")) {
        tb_put(t, s, strlen(s));
        return;
    }
    tb_put(t, "\"", 1);
    for (; *s; s++) {
        if (*s == '"')
            tb_put(t, "\"", 1);
        tb_put(t, s, 1);
    }
    tb_put(t, "\"", 1);
}

/* The state of a plan being written: everything plan_write and plan_append
 * share, so that both give the same bytes (one way to format a row). */
struct pwriter {
    const plan *p;
    FILE *fp;
    uint32_t chain;         /* over every data row of the file so far */
    long nrows;
    long nseg;              /* trailers written (or in the file before) */
    int64_t bytes;          /* the file's size so far */
    char trailer[160];      /* the last trailer written */
    char steps[32], lcms[32];
    struct tbuf pre, suf, row;
};

static void pw_init(struct pwriter *w, const plan *p, FILE *fp)
{
    memset(w, 0, sizeof *w);
    w->p = p;
    w->fp = fp;
    fmt_i64(w->steps, p->step);
    fmt_i64(w->lcms, p->lcm);
}

static void pw_free(struct pwriter *w)
{
    free(w->pre.s);
    free(w->suf.s);
    free(w->row.s);
}

static void pw_header(struct pwriter *w)
{
    char h[256];
    int n = 0;
    for (int i = 0; i < NFIELDS; i++)
        n += snprintf(h + n, sizeof h - (size_t)n, "%s%s", i ? "," : "", plan_cols[i]);
    h[n++] = '\n';
    fwrite(h, 1, (size_t)n, w->fp);
    w->bytes += n;
}

/* pw_res: the rows of one reservation.  Rows of one reservation share
 * everything but instance, cycle, t, stage, gang and containers: the text
 * and CRC state of the shared prefix (plan, job, kind) and suffix (cores ..
 * problematic) are made once per reservation. */
static void pw_res(struct pwriter *w, const struct plan_res *r)
{
    const plan *p = w->p;
    char b[40];
    const char *kind = r->kind == PLAN_PERIODIC ? "periodic" : "once";
    w->pre.n = w->suf.n = 0;
    tb_put(&w->pre, PLAN_FORMAT ",", sizeof PLAN_FORMAT);
    tb_field(&w->pre, r->job);
    tb_put(&w->pre, ",", 1);
    tb_put(&w->pre, kind, strlen(kind));
    tb_put(&w->pre, ",", 1);
    uint32_t crc_pre = plan_crc32(0, PLAN_FORMAT ",", sizeof PLAN_FORMAT);
    crc_pre = plan_crc32(crc_pre, r->job, strlen(r->job));
    crc_pre = plan_crc32(crc_pre, ",", 1);
    crc_pre = plan_crc32(crc_pre, kind, strlen(kind));
    crc_pre = plan_crc32(crc_pre, ",", 1);
    const double sufv[5] = {r->cores, r->mem_mb, r->period, r->a, r->d};
    for (int q = 0; q < 5; q++) {
        tb_put(&w->suf, ",", 1);
        tb_put(&w->suf, b, (size_t)csv_format_double(b, sufv[q], -1));
    }
    tb_put(&w->suf, r->problematic ? ",1" : ",0", 2);
    long ni = plan_ninst(p, r);
    long pp = r->kind == PLAN_PERIODIC ? (long)llround(r->period / (double)p->step) : 0;
    for (long i = 0; i < ni; i++)
        for (long j = 0; j < r->len; j++) {
            long abs = r->start + i * pp + j; /* steps from the start of cycle r->cycle */
            long s = lmod(abs, p->nsteps);
            char mid[256];
            int m = 0;
            m += fmt_i64(mid + m, r->kind == PLAN_PERIODIC ? i : r->instance);
            mid[m++] = ',';
            if (r->kind == PLAN_ONCE)
                m += fmt_i64(mid + m, r->cycle + (abs - s) / p->nsteps);
            mid[m++] = ',';
            m += fmt_i64(mid + m, (int64_t)s * p->step);
            mid[m++] = ',';
            m += (int)strlen(strcpy(mid + m, w->steps));
            mid[m++] = ',';
            m += (int)strlen(strcpy(mid + m, w->lcms));
            mid[m++] = ',';
            m += fmt_i64(mid + m, r->stage[j]);
            mid[m++] = ',';
            m += fmt_i64(mid + m, r->gang[j]);
            mid[m++] = ',';
            m += fmt_i64(mid + m, r->containers[j]);
            uint32_t c = plan_crc32(crc_pre, mid, (size_t)m);
            c = plan_crc32(c, w->suf.s, w->suf.n);
            char hex[16];
            snprintf(hex, sizeof hex, "%08x", c);
            w->row.n = 0;
            tb_put(&w->row, w->pre.s, w->pre.n);
            tb_put(&w->row, mid, (size_t)m);
            tb_put(&w->row, w->suf.s, w->suf.n);
            tb_put(&w->row, ",", 1);
            tb_put(&w->row, hex, 8);
            tb_put(&w->row, "\n", 1);
            fwrite(w->row.s, 1, w->row.n, w->fp);
            w->bytes += (int64_t)w->row.n;
            w->chain = plan_crc32(w->chain, hex, 8);
            w->nrows++;
        }
}

/* pw_trailer: the trailer closing a segment: cumulative rows and chain. */
static void pw_trailer(struct pwriter *w)
{
    int n = snprintf(w->trailer, sizeof w->trailer, "%s,,end,%ld,,,%s,%s,,,,,,,,,,%08x\n", PLAN_FORMAT, w->nrows,
                     w->steps, w->lcms, w->chain);
    fwrite(w->trailer, 1, (size_t)n, w->fp);
    w->bytes += n;
    w->nseg++;
}

static void pw_mark(const struct pwriter *w, struct plan_mark *m)
{
    if (!m)
        return;
    m->size = w->bytes;
    m->nrows = w->nrows;
    m->chain = w->chain;
    m->nseg = w->nseg;
    memcpy(m->trailer, w->trailer, sizeof m->trailer);
}

static const plan *seg_sort_plan;
static int seg_cmp(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    long sx = seg_sort_plan->res[x].seg, sy = seg_sort_plan->res[y].seg;
    if (sx != sy)
        return sx < sy ? -1 : 1;
    return x < y ? -1 : x > y;
}

int plan_write(const plan *p, FILE *fp, struct plan_mark *mark)
{
    struct pwriter w;
    pw_init(&w, p, fp);
    pw_header(&w);
    int compact = 0;
    long nseg = p->nseg > 1 ? p->nseg : 1;
    for (size_t k = 0; k < p->nres; k++) {
        if (p->res[k].removed)
            compact = 1;
        else if (p->res[k].seg + 1 > nseg)
            nseg = p->res[k].seg + 1;
    }
    if (compact) {
        for (size_t k = 0; k < p->nres; k++)
            if (!p->res[k].removed)
                pw_res(&w, &p->res[k]);
        pw_trailer(&w);
    } else {
        /* segments in order (reservations are in segment order in practice:
         * read in file order, added after; a stable sort keeps any other
         * order deterministic), a trailer after each, empty ones too */
        size_t *order = xmalloc((p->nres ? p->nres : 1) * sizeof *order);
        for (size_t k = 0; k < p->nres; k++)
            order[k] = k;
        seg_sort_plan = p;
        qsort(order, p->nres, sizeof *order, seg_cmp);
        size_t k = 0;
        for (long sg = 0; sg < nseg; sg++) {
            for (; k < p->nres && p->res[order[k]].seg == sg; k++)
                pw_res(&w, &p->res[order[k]]);
            pw_trailer(&w);
        }
        free(order);
    }
    pw_mark(&w, mark);
    pw_free(&w);
    return ferror(fp) ? SLK_EIO : SLK_OK;
}

int plan_save(const plan *p, const char *path, struct plan_mark *mark)
{
    int st;
    outf *o = outf_open(path, &st);
    if (!o)
        return st;
    st = plan_write(p, outf_fp(o), mark);
    if (st != SLK_OK)
        slk_error("%s: write error", path && strcmp(path, "-") ? path : "<stdout>");
    return outf_finish(o, st);
}

/* write_all: pwrite n bytes at off; 0, or -1 with errno set. */
static int write_all(int fd, const char *b, size_t n, off_t off)
{
    while (n) {
        ssize_t k = pwrite(fd, b, n, off);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (k == 0) {
            errno = EIO;
            return -1;
        }
        b += k;
        n -= (size_t)k;
        off += k;
    }
    return 0;
}

int plan_append(const plan *p, const char *path, const struct plan_mark *at, struct plan_mark *out)
{
    /* format in memory first: the file is touched only by a few pwrites */
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) {
        slk_error("%s: write error: %s (plan left as it was)", path, strerror(errno));
        return SLK_EIO;
    }
    struct pwriter w;
    pw_init(&w, p, mem);
    w.nrows = at->nrows;
    w.chain = at->chain;
    w.nseg = at->nseg;
    w.bytes = at->size;
    for (size_t k = 0; k < p->nres; k++)
        if (!p->res[k].removed && p->res[k].seg == at->nseg)
            pw_res(&w, &p->res[k]);
    pw_trailer(&w);
    int bad = ferror(mem) || fclose(mem) != 0;
    pw_free(&w);
    if (bad) {
        free(buf);
        slk_error("%s: write error: out of memory (plan left as it was)", path);
        return SLK_EIO;
    }
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        free(buf);
        slk_error("%s: cannot open: %s (plan left as it was)", path, strerror(e));
        return e == ENOENT ? SLK_ENOINPUT : SLK_EIO;
    }
    int rc = ftruncate(fd, (off_t)at->size);
    if (rc == 0)
        rc = write_all(fd, buf, len, (off_t)at->size);
    if (rc == 0)
        rc = fsync(fd);
    int e = errno;
    free(buf);
    if (rc != 0) {
        /* the old plan ends at at->size: cut whatever part of the append got there */
        if (ftruncate(fd, (off_t)at->size) == 0)
            (void)fsync(fd);
        close(fd);
        slk_error("%s: write error: %s (plan left as it was)", path, strerror(e));
        return SLK_EIO;
    }
    if (close(fd) != 0) {
        slk_error("%s: write error: %s", path, strerror(errno));
        return SLK_EIO;
    }
    pw_mark(&w, out);
    return SLK_OK;
}

void plan_write_load(const plan *p, csvw *w)
{
    static const char *const cols[] = {"t", "cores", "mem_mb", "cost", NULL};
    csvw_header(w, cols);
    for (long s = 0; s < p->nsteps; s++) {
        csvw_int(w, (int64_t)s * p->step);
        csvw_num(w, p->load_cores[s]);
        csvw_num(w, p->load_mem[s]);
        csvw_num(w, plan_cost(p, s));
        csvw_end(w);
    }
}

/* ---- reading ----------------------------------------------------------------- */

static int get_i64(csvr *r, int col, int64_t *v, int64_t lo, int64_t hi)
{
    const char *s = csvr_field(r, col);
    if (!s)
        return csvr_fail(r, "column '%s': missing value", csvr_colname(r, col));
    if (parse_int64(s, v) < 0 || *v < lo || *v > hi)
        return csvr_fail(r, "column '%s': invalid value '%s'", csvr_colname(r, col), s);
    return 0;
}

static int get_num(csvr *r, int col, double *v)
{
    const char *s = csvr_field(r, col);
    if (!s)
        return csvr_fail(r, "column '%s': missing value", csvr_colname(r, col));
    if (parse_double(s, v, 0) < 0 || *v < 0)
        return csvr_fail(r, "column '%s': invalid value '%s'", csvr_colname(r, col), s);
    return 0;
}

/* A reservation being read: grows as its rows arrive. */
struct building {
    int live;
    struct plan_res r;
    size_t cap;
    long inst;        /* current instance (periodic) */
    long j;           /* next step expected within the instance */
    long ninst;
    long line0;       /* first line, for messages */
};

static int finish_res(plan *p, struct building *b, csvr *rd)
{
    if (!b->live)
        return 0;
    b->live = 0;
    struct plan_res *r = &b->r;
    if (r->kind == PLAN_PERIODIC && (b->inst != b->ninst - 1 || b->j != r->len)) {
        slk_error_at(csvr_path(rd), b->line0, "job '%s': periodic reservation has %ld of %ld instances",
                     r->job, b->inst + (b->j == r->len ? 1 : 0), b->ninst);
        plan_res_free(r);
        return -1;
    }
    /* the window: instance 0 (or the ONCE instance) lies inside [a, d] */
    double lo, hi;
    if (r->kind == PLAN_PERIODIC) {
        lo = r->a;
        hi = r->d;
        if ((double)r->start * p->step < lo - 1e-9)
            r->start += p->nsteps; /* an allocation wrapped into the next cycle */
    } else {
        double base = (double)r->instance * r->period - (double)r->cycle * p->lcm;
        lo = base + r->a;
        hi = base + r->d;
    }
    double s0 = (double)r->start * p->step, s1 = (double)(r->start + r->len) * p->step;
    if (s0 < lo - 1e-6 || s1 > hi + 1e-6) {
        slk_error_at(csvr_path(rd), b->line0,
                     "job '%s': allocation [%g, %g) s lies outside its window [%g, %g] s", r->job, s0, s1,
                     lo, hi);
        plan_res_free(r);
        return -1;
    }
    plan_add(p, r);
    return 0;
}

/* ---- where a plan file ends ---------------------------------------------------
 *
 * An append that did not finish leaves rows (maybe a partial one, maybe
 * zeros) after the last trailer.  Before parsing, the end of the file is
 * scanned backwards for the last complete ('\n'-terminated) trailer row; the
 * parser reads up to there only, so a torn tail is never parsed (its bytes
 * may be anything). */

#define SCAN_CHUNK 65536
#define SCAN_LINE 1024 /* longer lines are not trailers (a trailer is about 100 bytes) */

/* is_trailer_line: the third CSV field of the line s[0..n) is "end". */
static int is_trailer_line(const char *s, size_t n)
{
    size_t i = 0;
    for (int field = 0; field < 2; field++) {
        if (i < n && s[i] == '"') {
            for (i++;; i++) {
                if (i >= n)
                    return 0;
                if (s[i] == '"') {
                    if (i + 1 < n && s[i + 1] == '"')
                        i++;
                    else
                        break;
                }
            }
            i++;
        } else {
            while (i < n && s[i] != ',' && s[i] != '\n')
                i++;
        }
        if (i >= n || s[i] != ',')
            return 0;
        i++;
    }
    return n - i >= 4 && memcmp(s + i, "end,", 4) == 0;
}

/* last_trailer_end: the offset just past the last complete trailer row of
 * the file fp of `size` bytes, or -1 when it has none (or on a read error:
 * the parser then reads the whole file and finds what is wrong). */
static int64_t last_trailer_end(FILE *fp, int64_t size)
{
    char *buf = xmalloc(SCAN_CHUNK);
    char line[SCAN_LINE];
    int64_t found = -1, nl_after = -1; /* the nearest '\n' after the scan point */
    for (int64_t hi = size; hi > 0 && found < 0;) {
        int64_t lo = hi > SCAN_CHUNK ? hi - SCAN_CHUNK : 0;
        size_t n = (size_t)(hi - lo);
        if (fseeko(fp, (off_t)lo, SEEK_SET) != 0 || fread(buf, 1, n, fp) != n)
            break;
        for (size_t i = n; i-- > 0;) {
            if (buf[i] != '\n')
                continue;
            int64_t k = lo + (int64_t)i; /* the line (k, nl_after] is complete */
            if (nl_after >= 0 && nl_after - k <= SCAN_LINE) {
                size_t len = (size_t)(nl_after - k);
                const char *s = buf + i + 1;
                if (nl_after >= hi) { /* the line straddles two chunks */
                    if (fseeko(fp, (off_t)(k + 1), SEEK_SET) != 0 || fread(line, 1, len, fp) != len)
                        break;
                    s = line;
                }
                if (is_trailer_line(s, len)) {
                    found = nl_after + 1;
                    break;
                }
            }
            nl_after = k;
        }
        hi = lo;
    }
    free(buf);
    return found;
}

/* only_blank_after: 1 when the bytes from off to the end are only line ends
 * (blank lines, which the reader skips anyway: no torn tail). */
static int only_blank_after(FILE *fp, int64_t off)
{
    if (fseeko(fp, (off_t)off, SEEK_SET) != 0)
        return 0;
    int c;
    while ((c = getc(fp)) != EOF)
        if (c != '\n' && c != '\r')
            return 0;
    return !ferror(fp);
}

/* A stream over the first `end` bytes of a file descriptor. */
struct limited {
    int fd;
    int64_t off, end;
};
static ssize_t limited_read(void *cookie, char *buf, size_t n)
{
    struct limited *l = cookie;
    if (l->off >= l->end)
        return 0;
    if ((int64_t)n > l->end - l->off)
        n = (size_t)(l->end - l->off);
    ssize_t k;
    do
        k = pread(l->fd, buf, n, (off_t)l->off);
    while (k < 0 && errno == EINTR);
    if (k > 0)
        l->off += k;
    return k;
}
static int limited_close(void *cookie)
{
    free(cookie);
    return 0;
}

int plan_read(const char *path, plan **out)
{
    int st;
    *out = NULL;
    FILE *fp = NULL, *lim = NULL;
    int64_t torn_at = -1; /* a torn tail starts at this offset */
    if (path && strcmp(path, "-") != 0) {
        fp = fopen(path, "rb");
        if (!fp) {
            slk_error("%s: cannot open: %s", path, strerror(errno));
            return SLK_ENOINPUT;
        }
        struct stat sb;
        if (fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0) {
            int64_t end = last_trailer_end(fp, (int64_t)sb.st_size);
            if (end >= 0 && end < (int64_t)sb.st_size && !only_blank_after(fp, end))
                torn_at = end;
            rewind(fp);
        }
        if (torn_at >= 0) {
            struct limited *l = xmalloc(sizeof *l);
            *l = (struct limited){.fd = fileno(fp), .off = 0, .end = torn_at};
            lim = fopencookie(l, "r", (cookie_io_functions_t){.read = limited_read, .close = limited_close});
            if (!lim) {
                free(l);
                slk_error("%s: cannot read: %s", path, strerror(errno));
                fclose(fp);
                return SLK_EIO;
            }
        }
    }
    /* The plan is always read in plain CSV, whatever the user's --tsv/--col/-H
     * say about the tool's other inputs. */
    csvr *rd = fp ? csvr_open_fp_with(lim ? lim : fp, path, &csv_dialect_plain, 0, &st)
                  : csvr_open_with(path, &csv_dialect_plain, 0, &st);
    if (!rd) {
        if (lim)
            fclose(lim);
        if (fp)
            fclose(fp);
        return st;
    }
    int col[NFIELDS];
    plan *p = NULL;
    struct building b = {0};
    long trailer_line = 0; /* the last trailer row read */
    if (csvr_ncols(rd) != NFIELDS) {
        csvr_fail(rd, "not a slokit plan: expected %d columns '%s,%s,...,crc', found %d", NFIELDS,
                  plan_cols[0], plan_cols[1], csvr_ncols(rd));
        goto fail;
    }
    for (int i = 0; i < NFIELDS; i++) {
        col[i] = i;
        if (strcmp(csvr_colname(rd, i), plan_cols[i]) != 0) {
            slk_error_at(csvr_path(rd), 1, "not a slokit plan: column %d is '%s', expected '%s'", i + 1,
                         csvr_colname(rd, i), plan_cols[i]);
            goto fail;
        }
    }
    uint32_t chain = 0;
    long nrows = 0;
    int trailer = 0, rc;
    while ((rc = csvr_next(rd)) > 0) {
        const char *f[NFIELDS];
        for (int i = 0; i < NFIELDS; i++)
            f[i] = csvr_field(rd, i);
        if (!f[0] || strcmp(f[0], PLAN_FORMAT) != 0) {
            csvr_fail(rd, "unsupported plan format '%s' (this slokit reads '%s')", f[0] ? f[0] : "",
                      PLAN_FORMAT);
            goto fail;
        }
        char hex[16];
        snprintf(hex, sizeof hex, "%08x", row_crc(f));
        if (!f[17] || strcmp(f[17], hex) != 0) {
            if (!(f[2] && strcmp(f[2], "end") == 0)) {
                csvr_fail(rd, "checksum mismatch (crc '%s', row gives '%s'): plan corrupted or edited",
                          f[17] ? f[17] : "", hex);
                goto fail;
            }
        }
        int64_t step, lcm;
        if (get_i64(rd, col[6], &step, 1, 100L * 366 * 86400) < 0 ||
            get_i64(rd, col[7], &lcm, 1, 100L * 366 * 86400) < 0)
            goto fail;
        if (!p) {
            if (lcm % step != 0 || lcm / step > 100000000) {
                csvr_fail(rd, "lcm %lld is not a multiple of step %lld", (long long)lcm, (long long)step);
                goto fail;
            }
            p = plan_new((long)step, (long)lcm);
        } else if (step != p->step || lcm != p->lcm) {
            csvr_fail(rd, "step/lcm %lld/%lld differ from the first row's %ld/%ld", (long long)step,
                      (long long)lcm, p->step, p->lcm);
            goto fail;
        }
        if (!f[2]) {
            csvr_fail(rd, "column 'kind': missing value");
            goto fail;
        }
        if (strcmp(f[2], "end") == 0) {
            int64_t n;
            if (get_i64(rd, col[3], &n, 0, INT64_MAX) < 0)
                goto fail;
            char ch[16];
            snprintf(ch, sizeof ch, "%08x", chain);
            if (n != nrows || !f[17] || strcmp(f[17], ch) != 0) {
                csvr_fail(rd, "trailer does not match the rows (%lld rows and crc '%s' announced, %ld rows "
                          "and crc '%s' read): plan corrupted",
                          (long long)n, f[17] ? f[17] : "", nrows, ch);
                goto fail;
            }
            /* a segment ends: its last reservation ends with it */
            if (finish_res(p, &b, rd) < 0)
                goto fail;
            p->nseg++;
            trailer = 1;
            trailer_line = csvr_line(rd);
            continue;
        }
        trailer = 0;
        chain = plan_crc32(chain, f[17], 8);
        nrows++;
        enum plan_kind kind;
        if (strcmp(f[2], "periodic") == 0)
            kind = PLAN_PERIODIC;
        else if (strcmp(f[2], "once") == 0)
            kind = PLAN_ONCE;
        else {
            csvr_fail(rd, "column 'kind': invalid value '%s' (periodic, once or end)", f[2]);
            goto fail;
        }
        if (!f[1]) {
            csvr_fail(rd, "column 'job': missing value");
            goto fail;
        }
        int64_t inst, cyc = 0, t, stage, gang, cont, prob;
        double cores, mem, period, a, d;
        if (get_i64(rd, col[3], &inst, 0, INT64_MAX) < 0 || get_i64(rd, col[5], &t, 0, lcm - 1) < 0 ||
            get_i64(rd, col[8], &stage, 1, INT32_MAX) < 0 || get_i64(rd, col[9], &gang, 1, INT32_MAX) < 0 ||
            get_i64(rd, col[10], &cont, 1, INT32_MAX) < 0 || get_i64(rd, col[16], &prob, 0, 1) < 0 ||
            get_num(rd, col[11], &cores) < 0 || get_num(rd, col[12], &mem) < 0 ||
            get_num(rd, col[13], &period) < 0 || get_num(rd, col[14], &a) < 0 || get_num(rd, col[15], &d) < 0)
            goto fail;
        if (kind == PLAN_ONCE && get_i64(rd, col[4], &cyc, INT64_MIN / 2, INT64_MAX / 2) < 0)
            goto fail;
        if (kind == PLAN_PERIODIC && f[4]) {
            csvr_fail(rd, "column 'cycle' must be empty on periodic rows");
            goto fail;
        }
        if (t % step != 0) {
            csvr_fail(rd, "t %lld is not a multiple of the step %lld", (long long)t, (long long)step);
            goto fail;
        }
        if (cont % gang != 0) {
            csvr_fail(rd, "containers %lld is not a multiple of the gang %lld", (long long)cont, (long long)gang);
            goto fail;
        }
        if (!(period > 0) || !(a < d) || d - a > period + 1e-9 || (cores == 0 && mem == 0)) {
            csvr_fail(rd, "invalid request: period %g, a %g, d %g, cores %g, mem_mb %g", period, a, d, cores, mem);
            goto fail;
        }
        long pp = 0;
        if (kind == PLAN_PERIODIC) {
            double q = (double)lcm / period, ps = period / (double)step;
            if (q != floor(q) || ps != floor(ps)) {
                csvr_fail(rd, "periodic job with period %g that does not divide the lcm %lld in steps of %lld",
                          period, (long long)lcm, (long long)step);
                goto fail;
            }
            pp = (long)ps;
        }
        long s = (long)(t / step);
        /* does this row continue the reservation being built? */
        int cont_res = b.live && strcmp(b.r.job, f[1]) == 0 && b.r.kind == kind &&
                       (kind == PLAN_PERIODIC || b.r.instance == inst);
        if (cont_res && kind == PLAN_PERIODIC) {
            if (inst == b.inst && b.inst == 0) {
                /* still growing instance 0 */
            } else if (inst == b.inst || inst == b.inst + 1) {
                if (inst == b.inst + 1) {
                    if (b.j != b.r.len) {
                        csvr_fail(rd, "job '%s': instance %lld has %ld steps, instance 0 has %ld", f[1],
                                  (long long)b.inst, b.j, b.r.len);
                        goto fail;
                    }
                    b.inst = inst;
                    b.j = 0;
                }
                long j = b.j;
                if (j >= b.r.len || s != plan_slot(p, &b.r, inst, j) || b.r.containers[j] != cont ||
                    b.r.gang[j] != gang || b.r.stage[j] != stage) {
                    csvr_fail(rd, "job '%s': instance %lld differs from instance 0 at step %ld (a periodic "
                              "reservation repeats at the same offset)", f[1], (long long)inst, j);
                    goto fail;
                }
                b.j++;
                continue;
            } else {
                csvr_fail(rd, "job '%s': instance %lld out of order (after %ld)", f[1], (long long)inst, b.inst);
                goto fail;
            }
        }
        if (cont_res) {
            if (b.r.cores != cores || b.r.mem_mb != mem || b.r.period != period || b.r.a != a || b.r.d != d ||
                b.r.problematic != prob) {
                csvr_fail(rd, "job '%s': request fields differ between rows of one reservation", f[1]);
                goto fail;
            }
            long abs = kind == PLAN_ONCE ? (long)((cyc - b.r.cycle) * p->nsteps) + s
                                         : b.r.start + lmod(s - b.r.start, p->nsteps);
            if (abs != b.r.start + b.r.len) {
                csvr_fail(rd, "job '%s': hole or overlap at t %lld (reservations are contiguous)", f[1],
                          (long long)t);
                goto fail;
            }
            if (stage < b.r.stage[b.r.len - 1]) {
                csvr_fail(rd, "job '%s': stage %lld after stage %d (stages are in order)", f[1], (long long)stage,
                          (int)b.r.stage[b.r.len - 1]);
                goto fail;
            }
            if (kind == PLAN_PERIODIC && b.r.len >= pp) {
                csvr_fail(rd, "job '%s': reservation longer than its period", f[1]);
                goto fail;
            }
            b.r.containers = xgrow(b.r.containers, &b.cap, (size_t)b.r.len + 1, sizeof(int32_t));
            b.r.gang = xreallocarray(b.r.gang, b.cap, sizeof(int32_t));
            b.r.stage = xreallocarray(b.r.stage, b.cap, sizeof(int32_t));
            b.r.containers[b.r.len] = (int32_t)cont;
            b.r.gang[b.r.len] = (int32_t)gang;
            b.r.stage[b.r.len] = (int32_t)stage;
            b.r.len++;
            if (kind == PLAN_PERIODIC)
                b.j = b.r.len;
            continue;
        }
        /* a new reservation starts here */
        if (finish_res(p, &b, rd) < 0)
            goto fail;
        if (kind == PLAN_PERIODIC && inst != 0) {
            csvr_fail(rd, "job '%s': periodic reservation must start with instance 0 (got %lld)", f[1],
                      (long long)inst);
            goto fail;
        }
        plan_res_init(&b.r, f[1], kind, 1);
        b.cap = 1;
        b.live = 1;
        b.line0 = csvr_line(rd);
        b.inst = 0;
        b.j = 1;
        b.r.instance = kind == PLAN_ONCE ? inst : 0;
        b.r.cycle = kind == PLAN_ONCE ? cyc : 0;
        b.r.period = period;
        b.r.a = a;
        b.r.d = d;
        b.r.cores = cores;
        b.r.mem_mb = mem;
        b.r.problematic = (int)prob;
        b.r.start = s;
        b.r.containers[0] = (int32_t)cont;
        b.r.gang[0] = (int32_t)gang;
        b.r.stage[0] = (int32_t)stage;
        b.ninst = kind == PLAN_PERIODIC ? (long)(lcm / (int64_t)llround(period)) : 1;
    }
    if (rc < 0)
        goto fail;
    if (!trailer) {
        if (trailer_line > 0)
            slk_error_at(csvr_path(rd), csvr_line(rd), "no trailer row (kind 'end') after the rows that follow the "
                         "trailer at line %ld: plan truncated (an interrupted append is recognised in a regular file "
                         "only)", trailer_line);
        else
            slk_error_at(csvr_path(rd), csvr_line(rd) > 0 ? csvr_line(rd) : 0,
                         "no trailer row (kind 'end'): plan truncated or not written by lcmpack");
        goto fail;
    }
    if (torn_at >= 0)
        slk_warn_at(csvr_path(rd), trailer_line + 1, "ignoring an incomplete append after the trailer at line %ld",
                    trailer_line);
    csvr_close(rd);
    if (lim)
        fclose(lim);
    if (fp)
        fclose(fp);
    *out = p;
    return SLK_OK;
fail:
    st = csvr_status(rd);
    if (st == SLK_OK)
        st = SLK_EDATA;
    if (b.live)
        plan_res_free(&b.r);
    plan_free(p);
    csvr_close(rd);
    if (lim)
        fclose(lim);
    if (fp)
        fclose(fp);
    return st;
}

void plan_reserved_at(const plan *p, double T, double *cores, double *mem_mb)
{
    int64_t cycle;
    long off = plan_offset(p, T, &cycle);
    double c = 0, m = 0;
    for (size_t k = 0; k < p->nres; k++) {
        const struct plan_res *r = &p->res[k];
        if (r->removed)
            continue;
        if (r->kind == PLAN_ONCE) {
            /* absolute step of j is cycle*nsteps + start + j */
            int64_t j = (cycle - r->cycle) * (int64_t)p->nsteps + off - r->start;
            if (j >= 0 && j < r->len) {
                c += r->containers[j] * r->cores;
                m += r->containers[j] * r->mem_mb;
            }
            continue;
        }
        long ni = plan_ninst(p, r), pp = (long)llround(r->period / (double)p->step);
        for (long i = 0; i < ni; i++) {
            long j = lmod(off - r->start - i * pp, p->nsteps);
            if (j < r->len) {
                c += r->containers[j] * r->cores;
                m += r->containers[j] * r->mem_mb;
            }
        }
    }
    *cores = c;
    *mem_mb = m;
}
