/* shard — split a grouped CSV input into shards of whole keys by a hash of
 * the key, and merge per-shard outputs back into input order (see shard.h). */
#include "base/shard.h"

#include "base/csvio.h"
#include "base/diag.h"
#include "base/group.h"
#include "base/keyset.h"
#include "base/outfile.h"
#include "base/zin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>

/* ---- raw record reader ---------------------------------------------------- */

/* A raw reader hands out whole records (with their line end) as byte ranges of
 * its buffer, valid until the next rin_next.  zin decompresses gzip and zstd
 * input and reports a truncated or corrupt stream as an error (the reader
 * every tool uses; a plain gzread took a truncated gzip as a clean end). */
typedef struct {
    FILE *fp;
    zin *z;
    int status; /* after a -1 from rin_next: SLK_EDATA or SLK_EIO */
    const char *name;
    char delim;
    char *buf;
    size_t cap, pos, end;
    int eof;
    const char *rec; /* current record */
    size_t n;        /* its length, line end included */
    int quoted;      /* it holds a quote character */
    long line, next_line;
    void (*before_fill)(void *); /* called before the buffer moves */
    void *ctx;
} rin;

static int rin_open(rin *r, const char *path, char delim)
{
    memset(r, 0, sizeof *r);
    r->delim = delim;
    r->next_line = 1;
    int use_stdin = !path || strcmp(path, "-") == 0;
    r->name = use_stdin ? "<stdin>" : path;
    int fd = use_stdin ? dup(0) : open(path, O_RDONLY);
    if (fd < 0 || !(r->fp = fdopen(fd, "rb"))) {
        slk_error("%s: cannot open: %s", r->name, strerror(errno));
        if (fd >= 0)
            close(fd);
        return SLK_ENOINPUT;
    }
    r->z = zin_open(r->fp, 0);
    r->cap = 4u << 20;
    r->buf = xmalloc(r->cap);
    return SLK_OK;
}

static void rin_close(rin *r)
{
    zin_close(r->z);
    if (r->fp)
        fclose(r->fp);
    free(r->buf);
    r->z = NULL;
    r->fp = NULL;
    r->buf = NULL;
}

/* rin_fill: keep [pos, end), read more behind it; grows the buffer when a
 * single record fills it.  Returns 0, or -1 on a read error (message printed). */
static int rin_fill(rin *r)
{
    if (r->before_fill)
        r->before_fill(r->ctx);
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->end - r->pos);
        r->end -= r->pos;
        r->pos = 0;
    }
    if (r->end == r->cap)
        r->buf = xgrow(r->buf, &r->cap, r->cap * 2, 1);
    size_t want = r->cap - r->end;
    if (want > (1u << 30))
        want = 1u << 30;
    ssize_t got = zin_read(r->z, r->buf + r->end, want);
    if (got < 0) {
        long held = 0; /* the newlines of the partial record still in the buffer */
        for (const char *q = r->buf, *e = r->buf + r->end; (q = memchr(q, '\n', (size_t)(e - q))) != NULL;
             q++)
            held++;
        slk_error_at(r->name, r->next_line + held + zin_lost_lines(r->z), "%s", zin_error(r->z));
        r->status = zin_status(r->z);
        return -1;
    }
    if (got == 0)
        r->eof = 1;
    r->end += (size_t)got;
    return 0;
}

/* rec_blank: whether s[0, n) is a line end alone: CRs and a final LF ("\n",
 * "\r\n", "\r\r\n", or CRs at the end of the input), which libcsv reads as
 * no record at all. */
static int rec_blank(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] == '\r')
        i++;
    return i == n || (i + 1 == n && s[i] == '\n');
}

/* rin_next: the next non-blank record.  1 ready, 0 end of input, -1 error. */
static int rin_next(rin *r)
{
    for (;;) {
        r->line = r->next_line;
        char *s = r->buf + r->pos;
        size_t avail = r->end - r->pos, len = 0;
        struct csv_scan_state st = {0};
        int ev = CSV_SCAN_MORE;
        char *nl = avail ? memchr(s, '\n', avail) : NULL;
        r->quoted = 0;
        if (nl && !memchr(s, '"', (size_t)(nl - s)))
            len = (size_t)(nl - s) + 1;
        else if (nl || (r->eof && avail)) {
            /* a record that holds quotes, framed as libcsv reads it */
            r->quoted = 1;
            ev = csv_scan(&st, s, avail, r->delim, &len);
            if (ev == CSV_SCAN_MORE && r->eof && st.q == CSV_SCAN_QUOTED) {
                slk_error_at(r->name, r->line, "unterminated quoted field");
                r->status = SLK_EDATA;
                return -1;
            }
            if (ev == CSV_SCAN_MORE)
                len = r->eof ? avail : 0;
        } else if (r->eof)
            return 0;
        /* the tools' reader ends a record at a lone CR; keyshard would keep
         * the rows on both sides together, under the first one's key */
        int lone;
        if (r->quoted)
            lone = ev == CSV_SCAN_LONE_CR;
        else if (len)
            lone = csv_lone_cr(s, len) != NULL;
        else /* no LF yet (a CR-only file has none): judged now, not as too long */
            lone = !r->eof && !memchr(s, '"', avail) && csv_lone_cr(s, avail);
        if (lone) {
            slk_error_at(r->name, r->line, CSV_LONE_CR_MSG);
            r->status = SLK_EDATA;
            return -1;
        }
        if (!len && avail > CSVR_MAX_RECORD_INPUT) {
            size_t used;
            if (!r->quoted)
                csv_scan(&st, s, avail, r->delim, &used);
            slk_error_at(r->name, r->line, "record longer than %zu bytes%s", CSVR_MAX_RECORD,
                         st.q == CSV_SCAN_QUOTED ? CSVR_OPEN_QUOTE_HINT : "");
            r->status = SLK_EDATA;
            return -1;
        }
        if (len) {
            r->rec = s;
            r->n = len;
            r->pos += len;
            r->next_line += 1 + st.inner;
            if (rec_blank(s, len))
                continue; /* a blank line, as libcsv skips it */
            return 1;
        }
        if (rin_fill(r) < 0)
            return -1;
    }
}

/* rec_content: the record's length without its line end. */
static size_t rec_content(const char *s, size_t n)
{
    if (n && s[n - 1] == '\n')
        n--;
    if (n && s[n - 1] == '\r')
        n--;
    return n;
}

/* rec_field: field `col` of a record (unquoted into *scratch when quoted).
 * Returns 0 with *f, *fl set, or -1 when the record has fewer fields. */
static int rec_field(const char *s, size_t n, int quoted, char delim, int col, char **scratch, size_t *scap,
                     const char **f, size_t *fl)
{
    n = rec_content(s, n);
    if (!quoted) {
        const char *p = s, *e = s + n;
        for (int i = 0; i < col; i++) {
            const char *d = memchr(p, delim, (size_t)(e - p));
            if (!d)
                return -1;
            p = d + 1;
        }
        const char *d = memchr(p, delim, (size_t)(e - p));
        *f = p;
        *fl = (size_t)((d ? d : e) - p);
        return 0;
    }
    size_t i = 0, k = 0;
    for (int c = 0; c < col; c++) { /* skip col fields */
        int q = i < n && s[i] == '"';
        for (i += (size_t)q; i < n; i++) {
            if (q && s[i] == '"') {
                if (i + 1 < n && s[i + 1] == '"') {
                    i++;
                    continue;
                }
                q = 0;
            } else if (!q && s[i] == delim)
                break;
        }
        if (i >= n)
            return -1;
        i++;
    }
    *scratch = xgrow(*scratch, scap, n + 1, 1);
    int q = i < n && s[i] == '"';
    for (i += (size_t)q; i < n; i++) {
        if (q && s[i] == '"') {
            if (i + 1 < n && s[i + 1] == '"') {
                (*scratch)[k++] = '"';
                i++;
                continue;
            }
            q = 0;
            continue;
        }
        if (!q && s[i] == delim)
            break;
        (*scratch)[k++] = s[i];
    }
    *f = *scratch;
    *fl = k;
    return 0;
}

/* rin_field: field col of the current record (as rec_field).  A UTF-8 BOM
 * that starts the input is no part of the first record's first field: the
 * tools' reader drops it with -H too, so the key must not keep it. */
static int rin_field(const rin *in, int col, char **scratch, size_t *scap, const char **f, size_t *fl)
{
    const char *s = in->rec;
    size_t n = in->n;
    if (in->line == 1 && n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
        s += 3;
        n -= 3;
    }
    return rec_field(s, n, in->quoted, in->delim, col, scratch, scap, f, fl);
}

/* find_column: the index of column `name` in a header record, or in the
 * comma-separated names (header-less input: c1, c2, ... without names);
 * -1 when no column has the name, -2 when two have it (which one is the
 * key would be a guess). */
static int find_column(const rin *hdr, const char *names, char delim, const char *name)
{
    if (!hdr) {
        if (!names) {
            char *end;
            long c = name[0] == 'c' ? strtol(name + 1, &end, 10) : 0;
            return c >= 1 && c < 100000 && !*end ? (int)c - 1 : -1;
        }
        hdr = NULL;
    }
    const char *s = hdr ? hdr->rec : names;
    size_t n = hdr ? hdr->n : strlen(names);
    int quoted = hdr ? hdr->quoted : 0;
    char d = hdr ? delim : ',';
    if (hdr && n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
        s += 3;
        n -= 3;
    }
    char *scratch = NULL;
    size_t cap = 0, fl;
    const char *f;
    int found = -1;
    for (int c = 0; found != -2 && rec_field(s, n, quoted, d, c, &scratch, &cap, &f, &fl) == 0; c++)
        if (fl == strlen(name) && memcmp(f, name, fl) == 0)
            found = found < 0 ? c : -2;
    free(scratch);
    return found;
}

/* key_col_error: why find_column's result c < 0 for the key, at file:line
 * (--names when file is NULL).  Returns `status`. */
static int key_col_error(int c, const char *file, long line, const char *key, int status)
{
    const char *what = c == -2 ? "duplicate" : "missing";
    if (!file)
        slk_error("%s key column '%s' in --names", what, key);
    else if (c == -2)
        slk_error_at(file, line, "duplicate column '%s' in header (which one is the key?)", key);
    else
        slk_error_at(file, line, "missing key column '%s'", key);
    return status;
}

/* ---- the hash ---------------------------------------------------------------- */

uint64_t shard_hash(const char *key, size_t len)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)key[i];
        h *= 1099511628211ULL;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

int shard_of(const char *key, size_t len, int n) { return (int)(shard_hash(key, len) % (uint64_t)n); }

char *shard_path(const struct shard_opts *o, int i)
{
    const char *ext = o->delim == '\t' ? ".tsv" : ".csv";
    size_t n = strlen(o->prefix) + 32;
    char *p = xmalloc(n);
    snprintf(p, n, "%s%04d%s%s", o->prefix, i, ext, o->gzip_level ? ".gz" : "");
    return p;
}

/* ---- splitting ------------------------------------------------------------ */

struct sout {
    outf *o;
    FILE *fp;
    gzFile gz;
    uint64_t records;
};

struct splitter {
    const struct shard_opts *opt;
    rin in;
    struct sout *out;
    int keycol, cur, bad, bad_gz, bad_errno; /* a write failed (gzip: shard bad_gz, errno bad_errno) */
    size_t run_beg, run_end; /* pending bytes of in.buf for shard cur */
    char *prev, *scratch;
    size_t prevlen, prevcap, scap;
    int have_prev;
    outf *order_o;
};

static void sout_write(struct splitter *sp, int i, const char *p, size_t n)
{
    struct sout *s = &sp->out[i];
    if (!n)
        return;
    if (s->gz ? gzwrite(s->gz, p, (unsigned)n) != (int)n : fwrite_unlocked(p, 1, n, s->fp) != n) {
        /* a plain shard's stream keeps its error for outf_finish to say;
         * gzip writes beside the stream, so its error is said here */
        if (s->gz && !sp->bad) {
            sp->bad_gz = i;
            sp->bad_errno = errno;
        }
        sp->bad = 1;
    }
}

static void flush_run(void *ctx)
{
    struct splitter *sp = ctx;
    if (sp->run_end > sp->run_beg)
        sout_write(sp, sp->cur, sp->in.buf + sp->run_beg, sp->run_end - sp->run_beg);
    sp->run_beg = sp->run_end = 0;
}

/* write_order_row: "shard,key" with the key quoted when it must be. */
static void write_order_row(FILE *fp, int shard, const char *k, size_t n)
{
    fprintf(fp, "%d,", shard);
    if (memchr(k, ',', n) || memchr(k, '"', n) || memchr(k, '\n', n) || memchr(k, '\r', n)) {
        putc('"', fp);
        for (size_t i = 0; i < n; i++) {
            if (k[i] == '"')
                putc('"', fp);
            putc(k[i], fp);
        }
        putc('"', fp);
    } else
        fwrite(k, 1, n, fp);
    putc('\n', fp);
}

/* open_outputs: the shards (written aside) and the order file. */
static int open_outputs(struct splitter *sp)
{
    const struct shard_opts *o = sp->opt;
    struct rlimit rl;
    rlim_t need = (rlim_t)o->nshards + 32;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < need) {
        rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need ? need : rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    size_t bufsize = (64u << 20) / (size_t)o->nshards;
    bufsize = bufsize < (64u << 10) ? 64u << 10 : bufsize > (1u << 20) ? 1u << 20 : bufsize;
    int st = SLK_OK;
    sp->out = xcalloc((size_t)o->nshards, sizeof *sp->out);
    for (int i = 0; i < o->nshards && st == SLK_OK; i++) {
        char *path = shard_path(o, i);
        struct sout *s = &sp->out[i];
        if ((s->o = outf_open(path, &st))) {
            s->fp = outf_fp(s->o);
            setvbuf(s->fp, NULL, _IOFBF, bufsize);
            if (o->gzip_level) {
                char mode[8];
                snprintf(mode, sizeof mode, "wb%d", o->gzip_level);
                int fd = dup(fileno(s->fp));
                if (fd < 0 || !(s->gz = gzdopen(fd, mode))) {
                    slk_error("%s: cannot create: %s", path, strerror(errno));
                    st = SLK_ECANTCREAT;
                } else
                    gzbuffer(s->gz, (unsigned)bufsize);
            }
        }
        free(path);
    }
    if (st == SLK_OK && o->order && (sp->order_o = outf_open(o->order, &st)))
        fputs("shard,key\n", outf_fp(sp->order_o));
    return st;
}

/* close_outputs: finish every shard; commit them all only when status is OK. */
static int close_outputs(struct splitter *sp, int st, struct shard_stats *stats)
{
    const struct shard_opts *o = sp->opt;
    if (st == SLK_OK && sp->bad) {
        if (o->gzip_level) {
            char *path = shard_path(o, sp->bad_gz);
            slk_error("%s: write error: %s (old file left unchanged)", path, strerror(sp->bad_errno));
            free(path);
        }
        st = SLK_EIO;
    }
    for (int i = 0; i < o->nshards; i++) {
        struct sout *s = &sp->out[i];
        if (s->gz && gzclose(s->gz) != Z_OK && st == SLK_OK) {
            char *path = shard_path(o, i);
            slk_error("%s: write error: %s (old file left unchanged)", path, strerror(errno));
            free(path);
            st = SLK_EIO;
        }
        if (stats && s->o) {
            if (i == 0 || s->records < stats->min_records)
                stats->min_records = s->records;
            if (s->records > stats->max_records)
                stats->max_records = s->records;
        }
    }
    /* every shard and the order file replaced, or none (keyshard(1)) */
    outf **all = xcalloc((size_t)o->nshards + 1, sizeof *all);
    for (int i = 0; i < o->nshards; i++)
        all[i] = sp->out[i].o;
    all[o->nshards] = sp->order_o;
    st = outf_finish_all(all, o->nshards + 1, st);
    free(all);
    free(sp->out);
    return st;
}

/* split_record: route the current record; same-key runs are written at once. */
static int split_record(struct splitter *sp, struct shard_stats *stats)
{
    rin *in = &sp->in;
    const char *k;
    size_t kl;
    if (rin_field(in, sp->keycol, &sp->scratch, &sp->scap, &k, &kl) < 0) {
        slk_error_at(in->name, in->line, "no column %d (the key '%s') in this record", sp->keycol + 1,
                     sp->opt->key);
        return SLK_EDATA;
    }
    size_t off = (size_t)(in->rec - in->buf);
    int same = sp->have_prev && kl == sp->prevlen && memcmp(k, sp->prev, kl) == 0;
    if (!same || off != sp->run_end) {
        flush_run(sp);
        if (!same) {
            sp->cur = shard_of(k, kl, sp->opt->nshards);
            sp->prev = xgrow(sp->prev, &sp->prevcap, kl + 1, 1);
            memcpy(sp->prev, k, kl);
            sp->prevlen = kl;
            sp->have_prev = 1;
            stats->groups++;
            if (sp->order_o)
                write_order_row(outf_fp(sp->order_o), sp->cur, k, kl);
        }
        sp->run_beg = off;
    }
    sp->run_end = off + in->n;
    sp->out[sp->cur].records++;
    stats->records++;
    stats->bytes += in->n;
    if (in->rec[in->n - 1] != '\n') { /* the last record, without a line end */
        flush_run(sp);
        sout_write(sp, sp->cur, "\n", 1);
    }
    return SLK_OK;
}

int shard_split(const struct shard_opts *o, struct shard_stats *stats_out)
{
    struct splitter sp = {.opt = o};
    struct shard_stats stats = {0};
    int st = rin_open(&sp.in, o->input, o->delim);
    if (st != SLK_OK)
        return st;
    int got = o->no_header ? 1 : rin_next(&sp.in);
    if (got == 0) {
        slk_error_at(sp.in.name, 1, "empty input (no header row)");
        st = SLK_EDATA;
    } else if (got < 0)
        st = sp.in.status;
    else if ((sp.keycol = find_column(o->no_header ? NULL : &sp.in, o->names, o->delim, o->key)) < 0)
        st = key_col_error(sp.keycol, sp.in.name, o->no_header ? 0 : 1, o->key, SLK_EDATA);
    if (st != SLK_OK) {
        rin_close(&sp.in);
        return st;
    }
    st = open_outputs(&sp);
    if (st == SLK_OK && !o->no_header) {
        int nl = sp.in.rec[sp.in.n - 1] == '\n';
        for (int i = 0; i < o->nshards; i++) {
            sout_write(&sp, i, sp.in.rec, sp.in.n);
            if (!nl)
                sout_write(&sp, i, "\n", 1);
        }
    }
    sp.in.before_fill = flush_run;
    sp.in.ctx = &sp;
    while (st == SLK_OK && !sp.bad && (got = rin_next(&sp.in)) > 0) {
        st = split_record(&sp, &stats);
        if (slk_progress_due((uint64_t)sp.in.line))
            slk_progress_read("lines split", (uint64_t)sp.in.line, zin_fraction(sp.in.z));
    }
    slk_progress_done();
    if (st == SLK_OK && got < 0)
        st = sp.in.status;
    if (st == SLK_OK)
        flush_run(&sp);
    st = close_outputs(&sp, st, &stats);
    rin_close(&sp.in);
    free(sp.prev);
    free(sp.scratch);
    if (stats_out)
        *stats_out = stats;
    return st;
}

/* check_record: write the current record to out and check that its key
 * does not come back after its group ended and that it is one line. */
static int check_record(rin *in, int keycol, group_iter *g, char **scratch, size_t *scap, char **key,
                        size_t *kcap, FILE *out)
{
    const char *k;
    size_t kl;
    if (in->n > 1 && memchr(in->rec, '\n', in->n - 1)) {
        slk_error_at(
            in->name, in->line,
            "a quoted field holds a line end: a splitter that cuts at line ends (GNU parallel --pipe) "
            "would cut this record; split such input with keyshard (examples/parallel-shards.sh)");
        return SLK_EDATA;
    }
    /* a record without the key column is the tool's to report (or skip) */
    if (rin_field(in, keycol, scratch, scap, &k, &kl) == 0) {
        *key = xgrow(*key, kcap, kl + 1, 1);
        memcpy(*key, k, kl);
        (*key)[kl] = 0;
        if (group_next(g, in->name, in->line, *key) == GROUP_ERROR)
            return SLK_EDATA;
    }
    /* a write error is the caller's to report (outf_finish sees the stream's error flag) */
    if (fwrite(in->rec, 1, in->n, out) != in->n || (in->rec[in->n - 1] != '\n' && putc('\n', out) == EOF))
        return SLK_EIO;
    return SLK_OK;
}

int shard_check(const struct shard_opts *o, FILE *out, struct shard_stats *stats_out)
{
    rin in;
    struct shard_stats stats = {0};
    int st = rin_open(&in, o->input, o->delim);
    if (st != SLK_OK)
        return st;
    int keycol = -1, got = o->no_header ? 1 : rin_next(&in);
    if (got == 0) {
        slk_error_at(in.name, 1, "empty input (no header row)");
        st = SLK_EDATA;
    } else if (got < 0)
        st = in.status;
    else if ((keycol = find_column(o->no_header ? NULL : &in, o->names, o->delim, o->key)) < 0)
        st = key_col_error(keycol, in.name, o->no_header ? 0 : 1, o->key, SLK_EDATA);
    else if (!o->no_header &&
               (fwrite(in.rec, 1, in.n, out) != in.n || (in.rec[in.n - 1] != '\n' && putc('\n', out) == EOF)))
        st = SLK_EIO;
    group_iter g;
    group_begin(&g, o->key, 0);
    group_where(&g, in.name, keycol + 1, o->delim, !o->no_header); /* keycol -1: no example (not used) */
    char *scratch = NULL, *key = NULL;
    size_t scap = 0, kcap = 0;
    while (st == SLK_OK && (got = rin_next(&in)) > 0) {
        st = check_record(&in, keycol, &g, &scratch, &scap, &key, &kcap, out);
        stats.records++;
        stats.bytes += in.n;
        if (slk_progress_due((uint64_t)in.line))
            slk_progress_read("lines checked", (uint64_t)in.line, zin_fraction(in.z));
    }
    slk_progress_done();
    if (st == SLK_OK && got < 0)
        st = in.status;
    stats.groups = keyset_size(g.t.seen);
    group_end(&g);
    free(scratch);
    free(key);
    rin_close(&in);
    if (stats_out)
        *stats_out = stats;
    return st;
}

/* ---- merging -------------------------------------------------------------- */

struct merger {
    const struct shard_merge_opts *m;
    rin *in;
    int *pending; /* input i holds an unconsumed record */
    int keycol;
    char *scratch;
    size_t scap;
    FILE *out;
    uint64_t rows;
};

static int merge_headers(struct merger *g)
{
    const struct shard_merge_opts *m = g->m;
    size_t h0 = 0;
    for (int i = 0; i < m->ninputs; i++) {
        int got = rin_next(&g->in[i]);
        if (got < 0)
            return g->in[i].status;
        if (got == 0) {
            slk_error_at(g->in[i].name, 1, "empty output (no header row): did its task fail?");
            return SLK_EDATA;
        }
        size_t hl = rec_content(g->in[i].rec, g->in[i].n);
        if (i == 0) {
            h0 = hl;
            fwrite(g->in[0].rec, 1, hl, g->out);
            putc('\n', g->out);
            g->keycol = m->key ? find_column(&g->in[0], NULL, m->delim, m->key) : 0;
            if (g->keycol < 0)
                return key_col_error(g->keycol, g->in[0].name, 1, m->key, SLK_EDATA);
            /* keep a copy: input 0's buffer moves */
            g->scratch = xgrow(g->scratch, &g->scap, hl + 1, 1);
            memcpy(g->scratch, g->in[0].rec, hl);
        } else if (hl != h0 || memcmp(g->in[i].rec, g->scratch, hl) != 0) {
            slk_error_at(g->in[i].name, 1, "header differs from %s's", g->in[0].name);
            return SLK_EDATA;
        }
    }
    return SLK_OK;
}

static void merge_write(struct merger *g, const rin *r)
{
    fwrite_unlocked(r->rec, 1, r->n, g->out);
    if (r->rec[r->n - 1] != '\n')
        putc('\n', g->out);
    g->rows++;
    slk_progress("rows merged", g->rows, 0);
}

/* merge_group: copy input s's leading rows whose key is k. */
static int merge_group(struct merger *g, int s, const char *k, size_t kl)
{
    rin *r = &g->in[s];
    for (;;) {
        if (!g->pending[s]) {
            int got = rin_next(r);
            if (got <= 0)
                return got < 0 ? r->status : SLK_OK;
            g->pending[s] = 1;
        }
        const char *f;
        size_t fl;
        if (rin_field(r, g->keycol, &g->scratch, &g->scap, &f, &fl) < 0) {
            slk_error_at(r->name, r->line, "no key column %d in this record", g->keycol + 1);
            return SLK_EDATA;
        }
        if (fl != kl || memcmp(f, k, kl) != 0)
            return SLK_OK;
        merge_write(g, r);
        g->pending[s] = 0;
    }
}

/* An order file being read: its reader and the scratch its fields unquote into. */
struct order_reader {
    rin r;
    char *kbuf, *sbuf;
    size_t kcap, scap;
};

/* order_open: open m->order and check its header.  SLK_OK or a status after
 * one message. */
static int order_open(struct order_reader *o, const char *path)
{
    memset(o, 0, sizeof *o);
    int st = rin_open(&o->r, path, ',');
    if (st != SLK_OK)
        return st;
    int got = rin_next(&o->r);
    if (got < 0)
        return o->r.status;
    if (got == 0) {
        slk_error_at(o->r.name, 1, "empty order file");
        return SLK_EDATA;
    }
    if (rec_content(o->r.rec, o->r.n) != 9 || memcmp(o->r.rec, "shard,key", 9) != 0) {
        slk_error_at(o->r.name, 1, "not an order file (want the header 'shard,key')");
        return SLK_EDATA;
    }
    return SLK_OK;
}

/* order_next: the next row's shard (below ninputs) and key, NUL-terminated in
 * o->kbuf (kept until the next call).  1 a row, 0 the end, -1 an error after
 * one message (*st set). */
static int order_next(struct order_reader *o, int ninputs, int *shard, size_t *kl, int *st)
{
    rin *ord = &o->r;
    int got = rin_next(ord);
    if (got <= 0) {
        if (got < 0)
            *st = ord->status;
        return got;
    }
    const char *f, *k;
    size_t fl;
    char *end;
    long s = -1;
    if (rec_field(ord->rec, ord->n, ord->quoted, ',', 0, &o->sbuf, &o->scap, &f, &fl) == 0 && fl > 0 &&
        fl < 12) {
        char num[16];
        memcpy(num, f, fl);
        num[fl] = 0;
        s = strtol(num, &end, 10);
        if (*end)
            s = -1;
    }
    if (s < 0 || s >= ninputs ||
        rec_field(ord->rec, ord->n, ord->quoted, ',', 1, &o->kbuf, &o->kcap, &k, kl) < 0) {
        slk_error_at(ord->name, ord->line, "bad row (want a shard below %d and a key)", ninputs);
        *st = SLK_EDATA;
        return -1;
    }
    if (k != o->kbuf) /* keep the key: the order buffer may move */
        o->kbuf = xgrow(o->kbuf, &o->kcap, *kl + 1, 1);
    memmove(o->kbuf, k, *kl);
    o->kbuf[*kl] = 0;
    *shard = (int)s;
    return 1;
}

static void order_close(struct order_reader *o)
{
    rin_close(&o->r);
    free(o->kbuf);
    free(o->sbuf);
}

/* merge_ordered: the order file's key order.  A key that comes back in the
 * order file (the input was not grouped by it) is refused: a per-key tool
 * either failed on that input or, with -s, wrote its keys sorted, so no
 * output of it is in this order (that merge is --sorted's). */
static int merge_ordered(struct merger *g)
{
    const struct shard_merge_opts *m = g->m;
    struct order_reader o;
    int st = order_open(&o, m->order), s, got = 0;
    size_t kl;
    keyset *seen = keyset_new();
    while (st == SLK_OK && (got = order_next(&o, m->ninputs, &s, &kl, &st)) > 0) {
        long first;
        if (keyset_put(seen, o.kbuf, o.r.line, &first) < 0) {
            slk_error_at(
                o.r.name, o.r.line,
                "key '%s' comes back after other keys (first at line %ld): the input was not "
                "grouped by key, so no process wrote this order (a tool run with -s: merge with --sorted)",
                o.kbuf, first);
            st = SLK_EDATA;
            break;
        }
        st = merge_group(g, s, o.kbuf, kl);
    }
    for (int i = 0; st == SLK_OK && i < m->ninputs; i++)
        if (g->pending[i] || (got = rin_next(&g->in[i])) != 0) {
            if (got < 0 && !g->pending[i])
                st = g->in[i].status;
            else {
                slk_error_at(g->in[i].name, g->in[i].line,
                             "row out of the order file's key order (an output of another split, or of a "
                             "tool run with -s: merge with --sorted?)");
                st = SLK_EDATA;
            }
        }
    keyset_free(seen);
    order_close(&o);
    return st;
}

/* ---- merging in key order (--sorted) -------------------------------------- */

/* The head of one output in a sorted merge: its current key, NUL-terminated. */
struct head {
    char *key;
    size_t kl, kcap;
    long line;
};

/* key_cmp: bytewise, as strcmp orders the keys of -s (group_held_sort). */
static int key_cmp(const char *a, size_t al, const char *b, size_t bl)
{
    int c = memcmp(a, b, al < bl ? al : bl);
    return c ? c : (al > bl) - (al < bl);
}

static int head_less(const struct head *h, int a, int b)
{
    int c = key_cmp(h[a].key, h[a].kl, h[b].key, h[b].kl);
    return c ? c < 0 : a < b;
}

/* A binary min-heap of input numbers by their head keys. */
static void heap_down(const struct head *h, int *heap, int n, int i)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, min = i;
        if (l < n && head_less(h, heap[l], heap[min]))
            min = l;
        if (r < n && head_less(h, heap[r], heap[min]))
            min = r;
        if (min == i)
            return;
        int t = heap[i];
        heap[i] = heap[min];
        heap[min] = t;
        i = min;
    }
}

static void heap_up(const struct head *h, int *heap, int i)
{
    while (i > 0 && head_less(h, heap[i], heap[(i - 1) / 2])) {
        int p = (i - 1) / 2, t = heap[i];
        heap[i] = heap[p];
        heap[p] = t;
        i = p;
    }
}

/* next_key: read input i's next record into its head.  1 a record whose key
 * differs from the head's (the head now holds it), 2 a record of the same key,
 * 0 the end, -1 an error (message printed; *st set).  A key below the head's
 * is an error: the output is not sorted by key. */
static int next_key(struct merger *g, struct head *h, int i, int *st)
{
    rin *r = &g->in[i];
    int got = rin_next(r);
    if (got <= 0) {
        if (got < 0)
            *st = r->status;
        return got;
    }
    const char *f;
    size_t fl;
    if (rin_field(r, g->keycol, &g->scratch, &g->scap, &f, &fl) < 0) {
        slk_error_at(r->name, r->line, "no key column %d in this record", g->keycol + 1);
        *st = SLK_EDATA;
        return -1;
    }
    struct head *x = &h[i];
    if (x->line) {
        int c = key_cmp(f, fl, x->key, x->kl);
        if (c == 0)
            return 2;
        if (c < 0) {
            slk_error_at(r->name, r->line,
                         "key '%.*s' after '%s': output not sorted by key (--sorted merges the outputs "
                         "of a tool run with -s)",
                         (int)fl, f, x->key);
            *st = SLK_EDATA;
            return -1;
        }
    }
    x->key = xgrow(x->key, &x->kcap, fl + 1, 1);
    memcpy(x->key, f, fl);
    x->key[fl] = 0;
    x->kl = fl;
    x->line = r->line;
    return 1;
}

/* sorted_order_keys: with --sorted and an order file, the shard of every key
 * it names (a key repeats when the input was not grouped: it must name one
 * shard).  Fills ks, and (*shards)[row] with the shard of ks's key number
 * row.  SLK_OK or a status after one message. */
static int sorted_order_keys(const struct shard_merge_opts *m, keyset *ks, int **shards)
{
    struct order_reader o;
    int st = order_open(&o, m->order), s;
    size_t kl, cap = 0;
    while (st == SLK_OK && order_next(&o, m->ninputs, &s, &kl, &st) > 0) {
        int added;
        long row = keyset_intern(ks, o.kbuf, &added);
        if (added) {
            *shards = xgrow(*shards, &cap, (size_t)row + 1, sizeof **shards);
            (*shards)[row] = s;
        } else if (*shards && (*shards)[row] != s) { /* (*shards holds every earlier row) */
            slk_error_at(o.r.name, o.r.line, "key '%s' in shard %d here, in shard %d before", o.kbuf, s,
                         (*shards)[row]);
            st = SLK_EDATA;
        }
    }
    order_close(&o);
    return st;
}

/* merge_sorted: a k-way merge of outputs each sorted by key: every key's
 * rows, keys in bytewise order.  A key in two outputs is an error (the
 * outputs of one split hold disjoint keys), and so, with an order file, is a
 * key it does not name or names for another shard. */
static int merge_sorted(struct merger *g)
{
    const struct shard_merge_opts *m = g->m;
    int n = m->ninputs, live = 0, st = SLK_OK, *shards = NULL;
    keyset *ks = NULL;
    if (m->order) {
        ks = keyset_new();
        st = sorted_order_keys(m, ks, &shards);
    }
    struct head *h = xcalloc((size_t)n, sizeof *h);
    int *heap = xcalloc((size_t)n, sizeof *heap);
    for (int i = 0; st == SLK_OK && i < n; i++)
        if (next_key(g, h, i, &st) > 0) {
            heap[live] = i;
            heap_up(h, heap, live++);
        }
    while (st == SLK_OK && live > 0) {
        int i = heap[0];
        rin *r = &g->in[i];
        if (live > 1) {
            int j = heap[1];
            if (live > 2 && head_less(h, heap[2], j))
                j = heap[2];
            if (key_cmp(h[i].key, h[i].kl, h[j].key, h[j].kl) == 0) {
                slk_error_at(r->name, h[i].line,
                             "key '%s' is also in %s (line %ld): outputs of one split "
                             "hold disjoint keys",
                             h[i].key, g->in[j].name, h[j].line);
                st = SLK_EDATA;
                break;
            }
        }
        if (ks) {
            long row = keyset_row(ks, h[i].key);
            if (row < 0)
                slk_error_at(r->name, h[i].line,
                             "key '%s' is not in the order file %s (an output of another split?)", h[i].key,
                             m->order);
            else if (shards[row] != i)
                slk_error_at(
                    r->name, h[i].line,
                    "key '%s' belongs to shard %d, not %d, by the order file %s (outputs given in the "
                    "wrong shard order?)",
                    h[i].key, shards[row], i, m->order);
            if (row < 0 || shards[row] != i) {
                st = SLK_EDATA;
                break;
            }
        }
        int got;
        do
            merge_write(g, r);
        while ((got = next_key(g, h, i, &st)) == 2);
        if (got < 0)
            break;
        if (got == 0)
            heap[0] = heap[--live];
        heap_down(h, heap, live, 0);
    }
    for (int i = 0; i < n; i++)
        free(h[i].key);
    free(h);
    free(heap);
    free(shards);
    keyset_free(ks);
    return st;
}

int shard_merge(const struct shard_merge_opts *m, FILE *out, uint64_t *rows)
{
    struct merger g = {.m = m, .out = out};
    g.in = xcalloc((size_t)m->ninputs, sizeof *g.in);
    g.pending = xcalloc((size_t)m->ninputs, sizeof *g.pending);
    int st = SLK_OK, opened = 0;
    for (; opened < m->ninputs && st == SLK_OK; opened++)
        st = rin_open(&g.in[opened], m->inputs[opened], m->delim);
    if (st == SLK_OK && !m->no_header)
        st = merge_headers(&g);
    else if (st == SLK_OK && m->key && (g.keycol = find_column(NULL, m->names, m->delim, m->key)) < 0)
        st = key_col_error(g.keycol, NULL, 0, m->key, SLK_EUSAGE);
    if (st == SLK_OK && m->sorted)
        st = merge_sorted(&g);
    else if (st == SLK_OK && m->order)
        st = merge_ordered(&g);
    for (int i = 0; st == SLK_OK && !m->order && !m->sorted && i < m->ninputs; i++) {
        int got;
        while ((got = rin_next(&g.in[i])) > 0)
            merge_write(&g, &g.in[i]);
        if (got < 0)
            st = g.in[i].status;
    }
    slk_progress_done();
    for (int i = 0; i < opened; i++)
        rin_close(&g.in[i]);
    free(g.in);
    free(g.pending);
    free(g.scratch);
    if (rows)
        *rows = g.rows;
    return st;
}
