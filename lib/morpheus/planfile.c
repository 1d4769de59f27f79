/* planfile — the plan's file format slokit-plan/1 (see plan.h, FILE FORMAT
 * and SEGMENTS): CRC-32, writing, appending a segment in place, reading.
 *
 * Reading validates everything the file format promises, so a plan that
 * loads is one lcmpack could have written; a torn tail after the last
 * complete trailer is found by scanning the file's end backwards first, and
 * never parsed.  Writing goes through one row formatter (struct pwriter)
 * shared by plan_write and plan_append, so a segment appended in place has
 * the bytes a full rewrite gives.
 */
#include "morpheus/plan.h"
#include "base/cli.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "base/parse.h"
#include "base/rng.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- CRC-32 ------------------------------------------------------------------ */

/* Slicing-by-8: eight bytes per step (the plan reader checks one CRC per
 * row, so this is on the hot path); byte order independent.  The table is
 * built once, under pthread_once, so concurrent first calls are safe. */
static uint32_t crc_table[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[0][i] = c;
    }
    for (int k = 1; k < 8; k++)
        for (int i = 0; i < 256; i++)
            crc_table[k][i] = (crc_table[k - 1][i] >> 8) ^ crc_table[0][crc_table[k - 1][i] & 0xff];
}

uint32_t plan_crc32(uint32_t crc, const void *buf, size_t n)
{
    pthread_once(&crc_once, crc_init);
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
            int64_t cyc;
            long s = plan_cycle_step(p, r->cycle, abs, &cyc);
            char mid[256];
            int m = 0;
            m += fmt_i64(mid + m, r->kind == PLAN_PERIODIC ? i : r->instance);
            mid[m++] = ',';
            if (r->kind == PLAN_ONCE)
                m += fmt_i64(mid + m, cyc);
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

/* qsort_r comparator: reservation indices by segment, then index; ctx is
 * the plan */
static int seg_cmp(const void *a, const void *b, void *ctx)
{
    const plan *p = ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    long sx = p->res[x].seg, sy = p->res[y].seg;
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
        qsort_r(order, p->nres, sizeof *order, seg_cmp, (void *)p);
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

int plan_save_open(const plan *p, const char *path, struct plan_mark *mark, outf **out)
{
    int st;
    *out = NULL;
    outf *o = outf_open(path, &st);
    if (!o)
        return st;
    if ((st = plan_write(p, outf_fp(o), mark)) != SLK_OK)
        return outf_finish(o, st); /* the stream's error, said as outf_commit says it */
    *out = o;
    return SLK_OK;
}

int plan_save(const plan *p, const char *path, struct plan_mark *mark)
{
    outf *o;
    int st = plan_save_open(p, path, mark, &o);
    return o ? outf_finish(o, st) : st;
}

/* a side file's name stays within NAME_MAX (255 on Linux's file systems):
 * a longer one keeps the plan's first SIDE_NAME_KEEP bytes */
enum { SIDE_NAME_MAX = 255, SIDE_NAME_KEEP = 200 };

char *plan_side_path(const char *path, const char *suffix)
{
    struct stat ls;
    char *real = lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode) ? realpath(path, NULL) : NULL;
    const char *base = real ? real : path;
    const char *slash = strrchr(base, '/'), *name = slash ? slash + 1 : base;
    size_t n = strlen(base) + strlen(suffix) + 1;
    char *s = xmalloc(n);
    if (strlen(name) + strlen(suffix) <= SIDE_NAME_MAX)
        snprintf(s, n, "%s%s", base, suffix);
    else /* within NAME_MAX: the name's first bytes and a hash of all of it */
        snprintf(s, n, "%.*s%.*s.%016" PRIx64 "%s", (int)(name - base), base, SIDE_NAME_KEEP, name,
                 rng_hash_str(name), suffix);
    free(real);
    return s;
}

/* lock_file: open and flock lock file lp (waiting, said unless quiet): its
 * fd, or -1 (said unless quiet) */
static int lock_file(const char *lp, int quiet)
{
    int fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    /* another user's lock (0644 under the usual umask): flock(2) needs no
     * write access, and going on unlocked would let two runs interleave */
    if (fd < 0 && errno == EACCES)
        fd = open(lp, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (!quiet)
            slk_warn_at(lp, 0, "cannot create the plan's lock (%s): going on unlocked", strerror(errno));
    } else if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (!quiet)
            slk_note("waiting for %s: another lcmpack, or the nightly job, reads or writes this plan", lp);
        if (flock(fd, LOCK_EX) != 0) {
            close(fd);
            fd = -1;
        }
    }
    /* one line for whoever finds the file (never changed after) */
    static const char note[] =
        "lcmpack's lock of this plan: runs that read and write it flock(2) this file and "
        "take turns (lcmpack(1), The lock PLAN.lock)\n";
    struct stat ls;
    if (fd >= 0 && fstat(fd, &ls) == 0 && ls.st_size == 0 && write(fd, note, sizeof note - 1) < 0) {
        /* a full disk: the lock works without its note */
    }
    return fd;
}

int plan_lock(const char *path, int quiet)
{
    struct stat st;
    if (!path || strcmp(path, "-") == 0 || outf_is_special(path) || stat(path, &st) != 0 ||
        !S_ISREG(st.st_mode))
        return -1;
    for (int tries = 0;; tries++) {
        char *was = realpath(path, NULL), *lp = plan_side_path(path, ".lock");
        int fd = lock_file(lp, quiet);
        free(lp);
        char *now = realpath(path, NULL);
        /* while this run waited, the name came to lead to another file (a
         * link switched: the nightly job published): that file's lock */
        int moved = fd >= 0 && was && now && strcmp(was, now) != 0 && tries < 8;
        free(was);
        free(now);
        if (!moved)
            return fd;
        close(fd);
    }
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

static int get_i64(csvr *r, int col, int64_t *v, int64_t lo, int64_t hi)
{
    const char *s = csvr_field_required(r, col, NULL);
    if (!s)
        return -1;
    if (parse_int64(s, v) < 0 || *v < lo || *v > hi)
        return csvr_fail(r, "column '%s': invalid value '%s'", csvr_colname(r, col), s);
    return 0;
}

static int get_num(csvr *r, int col, double *v)
{
    const char *s = csvr_field_required(r, col, NULL);
    if (!s)
        return -1;
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
    /* the window: instance 0 (or the ONCE instance) lies inside plan_window */
    double base = r->kind == PLAN_PERIODIC ? 0 : (double)r->instance * r->period - (double)r->cycle * p->lcm;
    long lo, hi;
    if (plan_window(p, base, r->a, r->d, r->len, &lo, &hi) < 0)
        lo = hi = 0;
    if (r->kind == PLAN_PERIODIC && r->start < lo)
        r->start += p->nsteps; /* an allocation wrapped into the next cycle */
    if (r->start < lo || r->start + r->len > hi) {
        slk_error_at(csvr_path(rd), b->line0,
                     "job '%s': allocation [%g, %g) s lies outside its window [%g, %g] s", r->job,
                     (double)r->start * p->step, (double)(r->start + r->len) * p->step, base + r->a, base + r->d);
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

/* only_blank_after: 1 when the bytes from off to size are only line ends
 * (blank lines, which the reader skips anyway: no torn tail). */
static int only_blank_after(FILE *fp, int64_t off, int64_t size)
{
    if (fseeko(fp, (off_t)off, SEEK_SET) != 0)
        return 0;
    int c;
    for (; off < size && (c = getc(fp)) != EOF; off++)
        if (c != '\n' && c != '\r')
            return 0;
    return off == size && !ferror(fp);
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

/* The input of plan_read: the file (or stdin); a regular file limited to
 * its size when it was opened, or to before a torn tail when it has one.
 * Readers that do not take PLAN.lock (reprov, replay) may open the plan
 * while lcmpack appends to it: bytes written after the open are not read,
 * so such a reader sees the plan as it was, or the append as a torn tail,
 * never half a segment as rows. */
struct pinput {
    FILE *fp, *lim;
    int64_t torn_at;        /* a torn tail starts at this offset; -1: none */
};

static void pinput_close(struct pinput *in)
{
    if (in->lim)
        fclose(in->lim);
    if (in->fp)
        fclose(in->fp);
}

/* pinput_open: open path (NULL or "-": stdin, left to csvr_open) and find a
 * torn tail in a regular file.  Returns SLK_OK or prints and returns
 * SLK_ENOINPUT / SLK_EIO. */
static int pinput_open(const char *path, struct pinput *in)
{
    *in = (struct pinput){.torn_at = -1};
    if (!path || strcmp(path, "-") == 0)
        return SLK_OK;
    in->fp = fopen(path, "rb");
    if (!in->fp) {
        slk_error("%s: cannot open: %s", path, strerror(errno));
        return SLK_ENOINPUT;
    }
    struct stat sb;
    if (fstat(fileno(in->fp), &sb) != 0 || !S_ISREG(sb.st_mode))
        return SLK_OK;
    int64_t size = (int64_t)sb.st_size;
    if (size > 0) {
        int64_t end = last_trailer_end(in->fp, size);
        if (end >= 0 && end < size && !only_blank_after(in->fp, end, size))
            in->torn_at = end;
        rewind(in->fp);
    }
    struct limited *l = xmalloc(sizeof *l);
    *l = (struct limited){.fd = fileno(in->fp), .off = 0, .end = in->torn_at >= 0 ? in->torn_at : size};
    in->lim = fopencookie(l, "r", (cookie_io_functions_t){.read = limited_read, .close = limited_close});
    if (!in->lim) {
        free(l);
        slk_error("%s: cannot read: %s", path, strerror(errno));
        pinput_close(in);
        return SLK_EIO;
    }
    return SLK_OK;
}

/* check_header: the 18 columns of FILE FORMAT, in order.  0 or -1 (printed). */
static int check_header(csvr *rd)
{
    if (csvr_ncols(rd) != NFIELDS)
        return csvr_fail(rd, "not a slokit plan: expected %d columns '%s,%s,...,crc', found %d", NFIELDS,
                         plan_cols[0], plan_cols[1], csvr_ncols(rd));
    for (int i = 0; i < NFIELDS; i++)
        if (strcmp(csvr_colname(rd, i), plan_cols[i]) != 0) {
            slk_error_at(csvr_path(rd), 1, "not a slokit plan: column %d is '%s', expected '%s'", i + 1,
                         csvr_colname(rd, i), plan_cols[i]);
            return -1;
        }
    return 0;
}

/* The state of plan_read between rows. */
struct preader {
    csvr *rd;
    plan *p;                /* created by the first row */
    struct building b;      /* the reservation being read */
    uint32_t chain;         /* CRC chain over the data rows so far */
    long nrows;
    int trailer;            /* the last row read was a trailer */
    long trailer_line;      /* the last trailer row read */
};

/* One data row's values, checked one by one. */
struct prow {
    const char *job;
    enum plan_kind kind;
    int64_t inst, cyc, t, stage, gang, cont, prob;
    double cores, mem, period, a, d;
    long s;                 /* t / step */
    long pp;                /* periodic: the period in steps */
};

/* row_common: the format, crc, step and lcm every row carries (creating the
 * plan on the first row).  0 or -1 (printed). */
static int row_common(struct preader *R, const char *const *f)
{
    csvr *rd = R->rd;
    if (!f[0] || strcmp(f[0], PLAN_FORMAT) != 0)
        return csvr_fail(rd, "unsupported plan format '%s' (this slokit reads '%s')", f[0] ? f[0] : "",
                         PLAN_FORMAT);
    char hex[16];
    snprintf(hex, sizeof hex, "%08x", row_crc(f));
    if ((!f[17] || strcmp(f[17], hex) != 0) && !(f[2] && strcmp(f[2], "end") == 0))
        return csvr_fail(rd, "checksum mismatch (crc '%s', row gives '%s'): plan corrupted or edited",
                         f[17] ? f[17] : "", hex);
    int64_t step, lcm;
    if (get_i64(rd, 6, &step, 1, 100L * 366 * 86400) < 0 || get_i64(rd, 7, &lcm, 1, 100L * 366 * 86400) < 0)
        return -1;
    if (!R->p) {
        /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): get_i64 sets step and lcm when it returns 0 (checked above) */
        if (lcm % step != 0 || lcm / step > 100000000)
            return csvr_fail(rd, "lcm %lld is not a multiple of step %lld", (long long)lcm, (long long)step);
        R->p = plan_new((long)step, (long)lcm);
    /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): get_i64 sets step and lcm when it returns 0 (checked above) */
    } else if (step != R->p->step || lcm != R->p->lcm) {
        /* NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage): get_i64 sets step and lcm when it returns 0 (checked above) */
        return csvr_fail(rd, "step/lcm %lld/%lld differ from the first row's %ld/%ld", (long long)step,
                         (long long)lcm, R->p->step, R->p->lcm);
    }
    if (!f[2])
        return csvr_fail(rd, "column 'kind': missing value");
    return 0;
}

/* read_trailer: a trailer row must match the rows before it; it ends the
 * segment and the reservation being read.  0 or -1 (printed). */
static int read_trailer(struct preader *R, const char *const *f)
{
    int64_t n;
    if (get_i64(R->rd, 3, &n, 0, INT64_MAX) < 0)
        return -1;
    char ch[16];
    snprintf(ch, sizeof ch, "%08x", R->chain);
    /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): get_i64 sets n when it returns 0 (checked above) */
    if (n != R->nrows || !f[17] || strcmp(f[17], ch) != 0)
        return csvr_fail(R->rd, "trailer does not match the rows (%lld rows and crc '%s' announced, %ld rows "
                         "and crc '%s' read): plan corrupted", (long long)n, f[17] ? f[17] : "", R->nrows, ch);
    if (finish_res(R->p, &R->b, R->rd) < 0)
        return -1;
    R->p->nseg++;
    R->trailer = 1;
    R->trailer_line = csvr_line(R->rd);
    return 0;
}

/* parse_row: a data row's fields into *w, each in range.  0 or -1. */
static int parse_row(struct preader *R, const char *const *f, struct prow *w)
{
    csvr *rd = R->rd;
    int64_t step = R->p->step, lcm = R->p->lcm;
    *w = (struct prow){.job = f[1]};
    if (strcmp(f[2], "periodic") == 0)
        w->kind = PLAN_PERIODIC;
    else if (strcmp(f[2], "once") == 0)
        w->kind = PLAN_ONCE;
    else
        return csvr_fail(rd, "column 'kind': invalid value '%s' (periodic, once or end)", f[2]);
    if (!f[1])
        return csvr_fail(rd, "column 'job': missing value");
    if (get_i64(rd, 3, &w->inst, 0, INT64_MAX) < 0 || get_i64(rd, 5, &w->t, 0, lcm - 1) < 0 ||
        get_i64(rd, 8, &w->stage, 1, INT32_MAX) < 0 || get_i64(rd, 9, &w->gang, 1, INT32_MAX) < 0 ||
        get_i64(rd, 10, &w->cont, 1, INT32_MAX) < 0 || get_i64(rd, 16, &w->prob, 0, 1) < 0 ||
        get_num(rd, 11, &w->cores) < 0 || get_num(rd, 12, &w->mem) < 0 || get_num(rd, 13, &w->period) < 0 ||
        get_num(rd, 14, &w->a) < 0 || get_num(rd, 15, &w->d) < 0)
        return -1;
    /* a cycle starts within the times csvr reads (|t| <= CSVR_MAX_TIME), so
     * differences of cycles in steps stay far from overflowing */
    int64_t maxcyc = (int64_t)(CSVR_MAX_TIME / (double)lcm);
    if (w->kind == PLAN_ONCE && get_i64(rd, 4, &w->cyc, -maxcyc, maxcyc) < 0)
        return -1;
    if (w->kind == PLAN_PERIODIC && f[4])
        return csvr_fail(rd, "column 'cycle' must be empty on periodic rows");
    if (w->t % step != 0)
        return csvr_fail(rd, "t %lld is not a multiple of the step %lld", (long long)w->t, (long long)step);
    if (w->cont % w->gang != 0)
        return csvr_fail(rd, "containers %lld is not a multiple of the gang %lld", (long long)w->cont,
                         (long long)w->gang);
    if (!(w->period > 0) || !(w->a < w->d) || w->d - w->a > w->period + 1e-9 || (w->cores == 0 && w->mem == 0))
        return csvr_fail(rd, "invalid request: period %g, a %g, d %g, cores %g, mem_mb %g", w->period, w->a,
                         w->d, w->cores, w->mem);
    if (w->kind == PLAN_PERIODIC) {
        double q = (double)lcm / w->period, ps = w->period / (double)step;
        if (q != floor(q) || ps != floor(ps))
            return csvr_fail(rd, "periodic job with period %g that does not divide the lcm %lld in steps of %lld",
                             w->period, (long long)lcm, (long long)step);
        w->pp = (long)ps;
    }
    w->s = (long)(w->t / step);
    return 0;
}

/* repeat_instance: a row of instance >= 1 of the periodic reservation being
 * read must repeat instance 0.  1 when the row was such a repeat, 0 when it
 * is not one (still instance 0), -1 on error (printed). */
static int repeat_instance(struct preader *R, const struct prow *w)
{
    struct building *b = &R->b;
    if (w->inst == b->inst && b->inst == 0)
        return 0;
    if (w->inst != b->inst && w->inst != b->inst + 1)
        return csvr_fail(R->rd, "job '%s': instance %lld out of order (after %ld)", w->job, (long long)w->inst,
                         b->inst);
    if (w->inst == b->inst + 1) {
        if (b->j != b->r.len)
            return csvr_fail(R->rd, "job '%s': instance %lld has %ld steps, instance 0 has %ld", w->job,
                             (long long)b->inst, b->j, b->r.len);
        b->inst = w->inst;
        b->j = 0;
    }
    long j = b->j;
    if (j >= b->r.len || w->s != plan_slot(R->p, &b->r, w->inst, j) || b->r.containers[j] != w->cont ||
        b->r.gang[j] != w->gang || b->r.stage[j] != w->stage)
        return csvr_fail(R->rd, "job '%s': instance %lld differs from instance 0 at step %ld (a periodic "
                         "reservation repeats at the same offset)", w->job, (long long)w->inst, j);
    b->j++;
    return 1;
}

/* extend_res: the row continues the reservation being read by one step. */
static int extend_res(struct preader *R, const struct prow *w)
{
    struct building *b = &R->b;
    long abs = w->kind == PLAN_ONCE ? (long)((w->cyc - b->r.cycle) * R->p->nsteps) + w->s
                                    : b->r.start + plan_mod(w->s - b->r.start, R->p->nsteps);
    if (abs != b->r.start + b->r.len)
        return csvr_fail(R->rd, "job '%s': hole or overlap at t %lld (reservations are contiguous)", w->job,
                         (long long)w->t);
    if (w->stage < b->r.stage[b->r.len - 1])
        return csvr_fail(R->rd, "job '%s': stage %lld after stage %d (stages are in order)", w->job,
                         (long long)w->stage, (int)b->r.stage[b->r.len - 1]);
    if (w->kind == PLAN_PERIODIC && b->r.len >= w->pp)
        return csvr_fail(R->rd, "job '%s': reservation longer than its period", w->job);
    b->r.containers = xgrow(b->r.containers, &b->cap, (size_t)b->r.len + 1, sizeof(int32_t));
    b->r.gang = xreallocarray(b->r.gang, b->cap, sizeof(int32_t));
    b->r.stage = xreallocarray(b->r.stage, b->cap, sizeof(int32_t));
    b->r.containers[b->r.len] = (int32_t)w->cont;
    b->r.gang[b->r.len] = (int32_t)w->gang;
    b->r.stage[b->r.len] = (int32_t)w->stage;
    b->r.len++;
    if (w->kind == PLAN_PERIODIC)
        b->j = b->r.len;
    return 0;
}

/* start_res: the row starts a new reservation (the previous one is finished). */
static int start_res(struct preader *R, const struct prow *w)
{
    struct building *b = &R->b;
    if (finish_res(R->p, b, R->rd) < 0)
        return -1;
    if (w->kind == PLAN_PERIODIC && w->inst != 0)
        return csvr_fail(R->rd, "job '%s': periodic reservation must start with instance 0 (got %lld)", w->job,
                         (long long)w->inst);
    plan_res_init(&b->r, w->job, w->kind, 1);
    b->cap = 1;
    b->live = 1;
    b->line0 = csvr_line(R->rd);
    b->inst = 0;
    b->j = 1;
    b->r.instance = w->kind == PLAN_ONCE ? w->inst : 0;
    b->r.cycle = w->kind == PLAN_ONCE ? w->cyc : 0;
    b->r.period = w->period;
    b->r.a = w->a;
    b->r.d = w->d;
    b->r.cores = w->cores;
    b->r.mem_mb = w->mem;
    b->r.problematic = (int)w->prob;
    b->r.start = w->s;
    b->r.containers[0] = (int32_t)w->cont;
    b->r.gang[0] = (int32_t)w->gang;
    b->r.stage[0] = (int32_t)w->stage;
    b->ninst = w->kind == PLAN_PERIODIC ? (long)(R->p->lcm / (int64_t)llround(w->period)) : 1;
    return 0;
}

/* read_data_row: one data row: the next step of the reservation being read,
 * a repeat of its instance 0, or the first step of a new one. */
static int read_data_row(struct preader *R, const char *const *f)
{
    R->trailer = 0;
    R->chain = plan_crc32(R->chain, f[17], 8);
    R->nrows++;
    struct prow w;
    if (parse_row(R, f, &w) < 0)
        return -1;
    struct building *b = &R->b;
    int same = b->live && strcmp(b->r.job, w.job) == 0 && b->r.kind == w.kind &&
               (w.kind == PLAN_PERIODIC || b->r.instance == w.inst);
    if (!same)
        return start_res(R, &w);
    /* every row of a reservation, repeated instances too, carries its request */
    if (b->r.cores != w.cores || b->r.mem_mb != w.mem || b->r.period != w.period || b->r.a != w.a ||
        b->r.d != w.d || b->r.problematic != w.prob)
        return csvr_fail(R->rd, "job '%s': request fields differ between rows of one reservation", w.job);
    if (w.kind == PLAN_PERIODIC) {
        int rep = repeat_instance(R, &w);
        if (rep != 0)
            return rep < 0 ? -1 : 0;
    }
    return extend_res(R, &w);
}

/* read_rows: every row after the header, then the check that the file ends
 * with a trailer.  0 or -1 (printed). */
static int read_rows(struct preader *R)
{
    int rc;
    while ((rc = csvr_next(R->rd)) > 0) {
        const char *f[NFIELDS];
        for (int i = 0; i < NFIELDS; i++)
            f[i] = csvr_field(R->rd, i);
        if (row_common(R, f) < 0)
            return -1;
        if ((strcmp(f[2], "end") == 0 ? read_trailer(R, f) : read_data_row(R, f)) < 0)
            return -1;
    }
    if (rc < 0)
        return -1;
    if (R->trailer)
        return 0;
    long line = csvr_line(R->rd);
    if (R->trailer_line > 0)
        slk_error_at(csvr_path(R->rd), line, "no trailer row (kind 'end') after the rows that follow the "
                     "trailer at line %ld: plan truncated (an interrupted append is recognised in a regular file "
                     "only)", R->trailer_line);
    else
        slk_error_at(csvr_path(R->rd), line > 0 ? line : 0,
                     "no trailer row (kind 'end'): plan truncated or not written by lcmpack");
    return -1;
}

int plan_read(const char *path, plan **out)
{
    *out = NULL;
    struct pinput in;
    int st = pinput_open(path, &in);
    if (st != SLK_OK)
        return st;
    /* The plan is always read in plain CSV, whatever the user's --tsv/--col/-H
     * say about the tool's other inputs. */
    csvr *rd = in.fp ? csvr_open_fp_with(in.lim ? in.lim : in.fp, path, &csv_dialect_plain, 0, &st)
                     : csvr_open_with(path, &csv_dialect_plain, 0, &st);
    if (!rd) {
        pinput_close(&in);
        return st;
    }
    struct preader R = {.rd = rd};
    if (check_header(rd) < 0 || read_rows(&R) < 0) {
        st = csvr_status(rd);
        if (st == SLK_OK)
            st = SLK_EDATA;
        if (R.b.live)
            plan_res_free(&R.b.r);
        plan_free(R.p);
    } else {
        if (in.torn_at >= 0)
            slk_warn_at(csvr_path(rd), R.trailer_line + 1, "ignoring an incomplete append after the trailer at "
                        "line %ld", R.trailer_line);
        *out = R.p;
    }
    csvr_close(rd);
    pinput_close(&in);
    return st;
}
