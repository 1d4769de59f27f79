/* csvio — streaming CSV/TSV reading and writing over libcsv (see csvio.h).
 *
 * How line numbers are kept: libcsv does not count lines, so the reader
 * feeds it one physical line at a time (found with memchr in a 1 MiB read
 * buffer) and notes the line on which each record starts.  Feeding per line
 * costs one function call per line, a small fraction of libcsv's own
 * per-byte work.
 *
 * Record storage: completed records are queued (a line may end more than one
 * record when a lone CR is used as a terminator).  Field bytes live in one
 * arena and are referred to by offset while libcsv is running, because the
 * arena may move as it grows; pointers are made only when a record is handed
 * out.
 */
#include "base/csvio.h"
#include "base/diag.h"
#include "base/keyset.h"
#include "base/parse.h"
#include "base/timeunit.h"
#include "base/zin.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_CHUNK (1u << 20)
#define NO_FIELD ((size_t)-1)

struct csvr {
    FILE *fp;
    int own_fp;
    zin *in;              /* fp, decompressed when it is gzip or zstd */
    char *name;
    struct csv_parser p;
    int parser_live;

    char *buf;            /* read buffer */
    size_t blen, bpos;
    int at_eof, started;
    int stream;           /* csvr_open_stream: read(2) what is there, do not wait for a full chunk */

    char *arena;          /* field bytes, NUL-terminated */
    size_t alen, acap;
    size_t *foff;         /* field offsets into arena (NO_FIELD: empty) */
    size_t nf, fcap;
    size_t *rstart;       /* first field index of each completed record */
    long *rline;          /* its starting line */
    size_t nrec, rcap, rcur;
    size_t rec_bytes;     /* bytes of the record being built */
    size_t fed;           /* input bytes given to libcsv since that record began */

    long line;            /* physical line being fed (1-based) */
    long pend_line;       /* line where the record being built starts */
    int in_record;
    int cb_error;         /* set by callbacks: 1 NUL byte, 2 record too long */
    long cb_error_line;

    char **hdr;           /* header names */
    int ncols;
    const char **cur;     /* current record's fields */
    int cur_nf;
    long cur_line;
    int status;
    int have_pending;     /* --no-header: first record already parsed */
    int fast;             /* the fast path for plain lines is usable */
    int cr_done;          /* the header line's lone-CR scan has decided (or is not wanted: -H, a range) */
    struct csv_scan_state cr_scan; /* its framing so far */
    char delim;
    struct csv_dialect d; /* copied at open */
    char *held;           /* --on-error skip: the error of the current row, until csvr_skip */
    csvr_message_fn *msg; /* range readers: where data errors go instead of stderr */
    void *msg_ctx;
};

const struct csv_dialect csv_dialect_plain = {.delim = ',', .precision = -1};

static void settle(csvr *r);

static int same_role(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

const char *csv_dialect_lookup(const struct csv_dialect *d, const char *key)
{
    const char *primary = NULL;
    for (int i = 0; i < d->nrename; i++) {
        const struct csv_rename *e = &d->rename[i];
        if (strcmp(e->key, key) != 0)
            continue;
        if (e->role && same_role(e->role, d->role))
            return e->name;
        if (!e->role && d->primary)
            primary = e->name;
    }
    return primary ? primary : key;
}

/* ---- libcsv callbacks ------------------------------------------------------- */

/* copy_field: copy len bytes of a field to dst; returns whether they hold a
 * NUL byte.  libcsv has just written the field byte by byte, so wide loads
 * of it (memcpy, memchr) stall on store forwarding; short fields, the common
 * case, are copied and checked a byte at a time instead. */
static inline int copy_field(char *dst, const char *s, size_t len)
{
    if (len > 32) {
        memcpy(dst, s, len);
        return memchr(s, 0, len) != NULL;
    }
    unsigned char all = 1;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        all &= c != 0;
        dst[i] = c;
    }
    return !all;
}

static void on_field(void *data, size_t len, void *ud)
{
    csvr *r = ud;
    if (r->nf + 1 > r->fcap)
        r->foff = xgrow(r->foff, &r->fcap, r->nf + 1, sizeof *r->foff);
    if (!data || len == 0) {
        r->foff[r->nf++] = NO_FIELD;
        return;
    }
    if (r->alen + len + 1 > r->acap)
        r->arena = xgrow(r->arena, &r->acap, r->alen + len + 1, 1);
    if (copy_field(r->arena + r->alen, data, len) && !r->cb_error) {
        r->cb_error = 1;
        r->cb_error_line = r->line;
    }
    r->rec_bytes += len + 1;
    if (r->rec_bytes > CSVR_MAX_RECORD && !r->cb_error) {
        r->cb_error = 2;
        r->cb_error_line = r->pend_line;
    }
    r->arena[r->alen + len] = 0;
    r->foff[r->nf++] = r->alen;
    r->alen += len + 1;
}

static void on_record(int c, void *ud)
{
    csvr *r = ud;
    (void)c;
    /* rstart holds the end of each record: record k spans [end(k-1), end(k)). */
    if (r->nrec + 1 > r->rcap || !r->rline) {
        r->rstart = xgrow(r->rstart, &r->rcap, r->nrec + 1, sizeof *r->rstart);
        r->rline = xreallocarray(r->rline, r->rcap, sizeof *r->rline);
    }
    r->rstart[r->nrec] = r->nf;
    r->rline[r->nrec] = r->pend_line;
    r->nrec++;
    r->in_record = 0;
    r->rec_bytes = 0;
}

static int no_space(unsigned char c)
{
    (void)c;
    return 0; /* keep blanks: data stays exactly as written */
}

/* ---- reading ---------------------------------------------------------------- */

static int reader_error(csvr *r, long line, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int reader_error(csvr *r, long line, int status, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->msg)
        r->msg(r->msg_ctx, line, msg);
    else
        slk_error_at(r->name, line, "%s", msg);
    r->status = status;
    return -1;
}

/* Drop consumed records from the arena, keeping a partly built record. */
static void compact(csvr *r)
{
    size_t keep_from = r->nrec ? r->rstart[r->nrec - 1] : 0;
    if (keep_from == 0 && r->nrec == 0)
        return;
    size_t nkeep = r->nf - keep_from;
    size_t abase = NO_FIELD;
    for (size_t i = keep_from; i < r->nf; i++)
        if (r->foff[i] != NO_FIELD) {
            abase = r->foff[i];
            break;
        }
    if (abase == NO_FIELD) {
        r->alen = 0;
    } else {
        memmove(r->arena, r->arena + abase, r->alen - abase);
        r->alen -= abase;
    }
    for (size_t i = 0; i < nkeep; i++) {
        size_t o = r->foff[keep_from + i];
        r->foff[i] = o == NO_FIELD ? NO_FIELD : o - abase;
    }
    r->nf = nkeep;
    r->nrec = 0;
    r->rcur = 0;
}

/* The fast path.  Most lines of real telemetry hold no quote, no CR (other
 * than a CRLF ending) and no NUL byte; for such a line, when libcsv is between
 * records, libcsv (with our options: strict, empty is NULL, blanks kept)
 * would give exactly the fields between the delimiters.  fast_line splits it
 * directly into the arena, several times faster than libcsv's byte-at-a-time
 * state machine, and returns 1; it returns 0 without side effects for any
 * other line, which then goes through libcsv as before.  libcsv's state is
 * read from its public struct: ROW_NOT_BEGUN is 0 in libcsv.c, and
 * csvr_open_fp turns the fast path off if a fresh parser does not say so. */
#define LIBCSV_ROW_NOT_BEGUN 0

/* add_field: the field of d from *from to end (exclusive) ends at a
 * delimiter or at the end of the line */
static inline void add_field(csvr *r, char *d, size_t end, size_t *from)
{
    if (r->nf + 1 > r->fcap)
        r->foff = xgrow(r->foff, &r->fcap, r->nf + 1, sizeof *r->foff);
    d[end] = 0;
    r->foff[r->nf++] = end > *from ? r->alen + *from : NO_FIELD;
    *from = end + 1;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FAST_WORDS 1
/* bytes_eq: 0x80 in each byte of w equal to the byte repeated in pat, 0
 * elsewhere (exact per byte: no carry crosses bytes) */
static inline uint64_t bytes_eq(uint64_t w, uint64_t pat)
{
    const uint64_t lo7 = 0x7F7F7F7F7F7F7F7FULL;
    uint64_t v = w ^ pat;
    return ~(((v & lo7) + lo7) | v | lo7);
}
#define REP8(c) (0x0101010101010101ULL * (uint64_t)(unsigned char)(c))
#else
#define FAST_WORDS 0
#endif

static int fast_line(csvr *r, const char *seg, size_t len)
{
    size_t clen = len - 1; /* without the LF */
    if (clen && seg[clen - 1] == '\r')
        clen--;
    if (clen == 0)
        return 1; /* a blank line: libcsv skips it too */
    if (r->alen + clen + 1 > r->acap)
        r->arena = xgrow(r->arena, &r->acap, r->alen + clen + 1, 1);
    char *d = r->arena + r->alen;
    memcpy(d, seg, clen);
    const unsigned char delim = (unsigned char)r->delim;
    size_t nf0 = r->nf, from = 0, i = 0;
#if FAST_WORDS
    /* eight bytes at a time: the delimiters, quotes, CRs and NULs of a word
     * as one mask, visited lowest address first */
    const uint64_t pd = REP8(delim), pq = REP8('"'), pr = REP8('\r');
    for (; i + 8 <= clen; i += 8) {
        uint64_t w;
        memcpy(&w, seg + i, 8);
        uint64_t m = bytes_eq(w, pd) | bytes_eq(w, pq) | bytes_eq(w, pr) | bytes_eq(w, 0);
        while (m) {
            size_t at = i + ((size_t)__builtin_ctzll(m) >> 3);
            m &= m - 1;
            if ((unsigned char)seg[at] != delim) {
                r->nf = nf0; /* not for the fast path: undo */
                return 0;
            }
            add_field(r, d, at, &from);
        }
    }
#endif
    for (; i < clen; i++) {
        unsigned char c = (unsigned char)seg[i];
        if (c == delim) {
            add_field(r, d, i, &from);
        } else if (c == '"' || c == '\r' || c == 0) {
            r->nf = nf0; /* not for the fast path: undo */
            return 0;
        }
    }
    add_field(r, d, clen, &from);
    r->alen += clen + 1;
    if (r->nrec + 1 > r->rcap || !r->rline) {
        r->rstart = xgrow(r->rstart, &r->rcap, r->nrec + 1, sizeof *r->rstart);
        r->rline = xreallocarray(r->rline, r->rcap, sizeof *r->rline);
    }
    r->rstart[r->nrec] = r->nf;
    r->rline[r->nrec] = r->line;
    r->nrec++;
    return 1;
}

/* header_lone_cr: scan the next n bytes of the header line (as they come:
 * a live stream's first read may end anywhere).  1 when the line ends in a
 * lone CR outside quotes and is text (binary garbage, which may hold one
 * too, is left to the parser); 0 otherwise, with r->cr_done set once the
 * line has ended or a verdict is reached. */
static int header_lone_cr(csvr *r, const char *s, size_t n)
{
    size_t used;
    int ev = csv_scan(&r->cr_scan, s, n, r->delim, &used);
    if (ev != CSV_SCAN_MORE)
        r->cr_done = 1;
    return ev == CSV_SCAN_LONE_CR && !r->cr_scan.ctl;
}

/* Feed input to libcsv until at least one record is complete or input ends.
 * Returns 1 if records are queued, 0 at end, -1 on error. */
static int fill(csvr *r)
{
    while (r->rcur >= r->nrec) {
        compact(r);
        if (r->bpos >= r->blen) {
            if (r->at_eof) {
                if (r->parser_live) {
                    int rc = csv_fini(&r->p, on_field, on_record, r);
                    r->parser_live = 0;
                    if (rc != 0 || csv_error(&r->p) == CSV_EPARSE)
                        return reader_error(r, r->pend_line, SLK_EDATA,
                                            "unterminated quoted field");
                    if (r->cb_error)
                        break;
                    if (r->nrec > 0)
                        break;
                }
                return 0;
            }
            ssize_t k = zin_read(r->in, r->buf, READ_CHUNK);
            if (k < 0)
                return reader_error(r, r->line + zin_lost_lines(r->in), zin_status(r->in), "%s",
                                    zin_error(r->in));
            size_t n = (size_t)k;
            /* zin fills the buffer unless input ends; a live stream gives what has arrived */
            if (r->stream ? n == 0 : n < READ_CHUNK)
                r->at_eof = 1;
            r->blen = n;
            r->bpos = 0;
            if (!r->started) {
                r->started = 1;
                if (n >= 3 && memcmp(r->buf, "\xEF\xBB\xBF", 3) == 0)
                    r->bpos = 3; /* UTF-8 byte order mark */
            }
            if (!r->cr_done && header_lone_cr(r, r->buf + r->bpos, n - r->bpos))
                return reader_error(r, 1, SLK_EDATA, CSV_LONE_CR_MSG);
            continue;
        }
        char *seg = r->buf + r->bpos;
        size_t avail = r->blen - r->bpos;
        char *nl = memchr(seg, '\n', avail);
        size_t len = nl ? (size_t)(nl - seg) + 1 : avail;
        if (nl && r->fast && r->p.pstate == LIBCSV_ROW_NOT_BEGUN && fast_line(r, seg, len)) {
            r->bpos += len;
            r->line++;
            continue;
        }
        if (r->fast && r->p.pstate == LIBCSV_ROW_NOT_BEGUN)
            r->in_record = 0; /* libcsv skipped the last line (e.g. "\r\r\n"): no record is open */
        if (!r->in_record) {
            int blank = (len == 1 && seg[0] == '\n') || (len == 2 && seg[0] == '\r' && seg[1] == '\n');
            if (!blank) {
                r->in_record = 1;
                r->pend_line = r->line;
                r->fed = 0;
            }
        }
        /* libcsv holds a field until it ends: bound it here, as it is fed,
         * or a stream with no line end grows memory without limit */
        r->fed += len;
        if (r->in_record && r->fed > CSVR_MAX_RECORD_INPUT)
            return reader_error(r, r->pend_line, SLK_EDATA, "record longer than %zu bytes%s", CSVR_MAX_RECORD,
                                r->p.quoted ? CSVR_OPEN_QUOTE_HINT : "");
        /* libcsv grows a field's buffer blk_size bytes at a time: keep the
         * step as large as the buffer, so it doubles (fixed steps copy a long
         * field quadratically where realloc cannot grow in place, as under
         * ASan: a 300 MB field took over 50 minutes) */
        csv_set_blk_size(&r->p, r->p.entry_size > 4096 ? r->p.entry_size : 4096);
        if (csv_parse(&r->p, seg, len, on_field, on_record, r) != len)
            return reader_error(r, r->line, SLK_EDATA, "malformed quoting (a quote inside an unquoted field, or text after a closing quote)");
        r->bpos += len;
        if (nl)
            r->line++;
        if (r->cb_error)
            break;
    }
    if (r->cb_error == 1)
        return reader_error(r, r->cb_error_line, SLK_EDATA, "NUL byte in field");
    if (r->cb_error == 2)
        return reader_error(r, r->cb_error_line, SLK_EDATA, "record longer than %zu bytes", CSVR_MAX_RECORD);
    return 1;
}

const char *csv_lone_cr(const char *s, size_t n)
{
    for (const char *e = s + n, *c = s; (c = memchr(c, '\r', (size_t)(e - c))) != NULL; c++)
        if (c + 1 < e && c[1] != '\r' && c[1] != '\n')
            return c;
    return NULL;
}

int csv_scan(struct csv_scan_state *st, const char *s, size_t n, char delim, size_t *used)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (st->cr) { /* the byte after a CR outside quotes */
            st->cr = c == '\r';
            if (c != '\r' && c != '\n') {
                *used = i;
                return CSV_SCAN_LONE_CR;
            }
        }
        switch (st->q) {
        case CSV_SCAN_QUOTED:
            if (c == '"')
                st->q = CSV_SCAN_QUOTE_SEEN;
            else if (c == '\n')
                st->inner++;
            continue;
        case CSV_SCAN_QUOTE_SEEN: /* "" is a doubled quote */
        case CSV_SCAN_START:      /* a quote opens a field only at its start */
            if (c == '"') {
                st->q = CSV_SCAN_QUOTED;
                continue;
            }
            break;
        }
        if (c == '\n') {
            st->q = CSV_SCAN_START;
            *used = i + 1;
            return CSV_SCAN_END;
        }
        if (c == '\r')
            st->cr = 1;
        else if (c == (unsigned char)delim)
            st->q = CSV_SCAN_START;
        else {
            st->ctl |= c < 0x20 && c != '\t';
            st->q = CSV_SCAN_PLAIN;
        }
    }
    *used = n;
    return CSV_SCAN_MORE;
}

/* Pop the next raw record into r->cur. Returns 1, 0 at end, -1 on error. */
static int next_raw(csvr *r)
{
    int rc = fill(r);
    if (rc <= 0)
        return rc;
    size_t from = r->rcur ? r->rstart[r->rcur - 1] : 0;
    size_t to = r->rstart[r->rcur];
    r->cur_line = r->rline[r->rcur];
    r->rcur++;
    r->cur_nf = (int)(to - from);
    if (r->cur_nf > r->ncols || !r->cur) {
        int want = r->cur_nf > r->ncols ? r->cur_nf : r->ncols;
        r->cur = xreallocarray(r->cur, (size_t)want + 1, sizeof *r->cur);
    }
    for (size_t i = from; i < to; i++) {
        size_t o = r->foff[i];
        r->cur[i - from] = o == NO_FIELD ? NULL : r->arena + o;
    }
    return 1;
}

static int set_header_from_current(csvr *r)
{
    r->ncols = r->cur_nf;
    r->hdr = xcalloc((size_t)r->ncols + 1, sizeof *r->hdr);
    keyset *seen = keyset_new(); /* hashed: a header of 40,000 columns took 1.5 s pairwise */
    int rc = 0;
    for (int i = 0; i < r->ncols && rc == 0; i++) {
        const char *h = r->cur[i];
        if (!h || !*h)
            rc = reader_error(r, r->cur_line, SLK_EDATA, "empty name for column %d in header", i + 1);
        else if (!keyset_add(seen, h))
            rc = reader_error(r, r->cur_line, SLK_EDATA, "duplicate column '%s' in header", h);
        else
            r->hdr[i] = xstrdup(h);
    }
    keyset_free(seen);
    return rc;
}

static int set_header_from_names(csvr *r, int nfields)
{
    if (r->d.names) {
        char *copy = xstrdup(r->d.names);
        int n = 1;
        for (char *c = copy; *c; c++)
            n += *c == ',';
        r->hdr = xcalloc((size_t)n + 1, sizeof *r->hdr);
        char *save = NULL;
        int i = 0;
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
            r->hdr[i++] = xstrdup(t);
        r->ncols = i;
        free(copy);
    } else {
        r->ncols = nfields;
        r->hdr = xcalloc((size_t)nfields + 1, sizeof *r->hdr);
        for (int i = 0; i < nfields; i++) {
            char b[24];
            snprintf(b, sizeof b, "c%d", i + 1);
            r->hdr[i] = xstrdup(b);
        }
    }
    return 0;
}

static csvr *open_fp(FILE *fp, const char *name, const struct csv_dialect *d, int allow_empty, int *status,
                     int stream, const struct csvr_range *rg)
{
    csvr *r = xcalloc(1, sizeof *r);
    r->d = d ? *d : csv_dialect_plain;
    if (!r->d.delim)
        r->d.delim = ',';
    r->fp = fp;
    r->stream = stream;
    r->name = xstrdup(name ? name : "<stdin>");
    r->buf = xmalloc(READ_CHUNK);
    r->in = zin_open(fp, stream);
    r->line = 1;
    r->cr_done = r->d.no_header; /* line 1 is data: its CRs are the parser's */
    if (rg) { /* before the first read: its errors go to the range's handler too */
        r->msg = rg->message;
        r->msg_ctx = rg->message_ctx;
    }
    if (csv_init(&r->p, CSV_STRICT | CSV_STRICT_FINI | CSV_EMPTY_IS_NULL) != 0) {
        slk_error("cannot initialise the CSV parser");
        *status = SLK_ESOFTWARE;
        csvr_close(r);
        return NULL;
    }
    r->parser_live = 1;
    csv_set_delim(&r->p, (unsigned char)r->d.delim);
    csv_set_space_func(&r->p, no_space);
    r->delim = r->d.delim;
    r->fast = r->p.pstate == LIBCSV_ROW_NOT_BEGUN && r->delim != '"' && r->delim != '\r' && r->delim != '\n' &&
              r->delim != 0;
    int rc = next_raw(r);
    if (rc < 0) {
        *status = r->status;
        csvr_close(r);
        return NULL;
    }
    if (rc == 0) {
        if (allow_empty) {
            r->ncols = 0;
            r->hdr = xcalloc(1, sizeof *r->hdr);
            *status = SLK_OK;
            return r;
        }
        slk_error_at(r->name, 1, "empty input (no header row)");
        *status = SLK_EDATA;
        csvr_close(r);
        return NULL;
    }
    if (r->d.no_header) {
        set_header_from_names(r, r->cur_nf);
        r->have_pending = 1;
    } else if (set_header_from_current(r) < 0) {
        *status = r->status;
        csvr_close(r);
        return NULL;
    }
    *status = SLK_OK;
    return r;
}

csvr *csvr_open_fp_with(FILE *fp, const char *name, const struct csv_dialect *d, int allow_empty, int *status)
{
    return open_fp(fp, name, d, allow_empty, status, 0, NULL);
}

static csvr *open_path(const char *path, const struct csv_dialect *d, int allow_empty, int *status, int stream)
{
    if (!path || strcmp(path, "-") == 0)
        return open_fp(stdin, csv_path_name(path), d, allow_empty, status, stream, NULL);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        slk_error("%s: cannot open: %s", path, strerror(errno));
        *status = SLK_ENOINPUT;
        return NULL;
    }
    csvr *r = open_fp(fp, path, d, allow_empty, status, stream, NULL);
    if (r)
        r->own_fp = 1;
    else
        fclose(fp);
    return r;
}

csvr *csvr_open_stream_with(const char *path, const struct csv_dialect *d, int allow_empty, int *status)
{
    return open_path(path, d, allow_empty, status, 1);
}

csvr *csvr_open_with(const char *path, const struct csv_dialect *d, int allow_empty, int *status)
{
    return open_path(path, d, allow_empty, status, 0);
}

csvr *csvr_open(const char *path, int allow_empty, int *status)
{
    return open_path(path, NULL, allow_empty, status, 0);
}

csvr *csvr_open_fp(FILE *fp, const char *name, int allow_empty, int *status)
{
    return open_fp(fp, name, NULL, allow_empty, status, 0, NULL);
}

csvr *csvr_open_stream(const char *path, int allow_empty, int *status)
{
    return open_path(path, NULL, allow_empty, status, 1);
}

void csvr_close(csvr *r)
{
    if (!r)
        return;
    settle(r);
    free(r->held);
    csv_free(&r->p);
    zin_close(r->in);
    if (r->own_fp)
        fclose(r->fp);
    if (r->hdr)
        for (int i = 0; i < r->ncols; i++)
            free(r->hdr[i]);
    free(r->hdr);
    free(r->cur);
    free(r->buf);
    free(r->arena);
    free(r->foff);
    free(r->rstart);
    free(r->rline);
    free(r->name);
    free(r);
}

int csvr_next(csvr *r)
{
    settle(r);
    if (r->status)
        return -1;
    int rc;
    if (r->have_pending) {
        r->have_pending = 0;
        rc = 1;
    } else {
        rc = next_raw(r);
    }
    if (rc <= 0)
        return rc;
    while (r->cur_nf != r->ncols) {
        if (!r->d.rejects)
            return reader_error(r, r->cur_line, SLK_EDATA, "expected %d fields (as in the header), found %d",
                                r->ncols, r->cur_nf);
        char why[96];
        snprintf(why, sizeof why, "expected %d fields (as in the header), found %d", r->ncols, r->cur_nf);
        csv_rejects_add(r->d.rejects, r->name, r->cur_line, why);
        if ((rc = next_raw(r)) <= 0)
            return rc;
    }
    return 1;
}

int csvr_col(const csvr *r, const char *name)
{
    if (r->d.keys) {
        const char *const *k = r->d.keys;
        while (*k && strcmp(*k, name) != 0)
            k++;
        if (!*k) {
            slk_error("internal error: column '%s' of %s is not among the input's keys for --col (a slokit "
                      "bug: please report it)",
                      name, r->name);
            exit(SLK_ESOFTWARE); /* outputs not yet complete are removed at exit */
        }
    }
    const char *want = csv_dialect_lookup(&r->d, name);
    for (int i = 0; i < r->ncols; i++)
        if (strcmp(r->hdr[i], want) == 0)
            return i;
    return -1;
}

static const char *shown(const char *s, char *buf, size_t cap);

int csvr_fail_large(csvr *r, int col, double limit)
{
    char b[80];
    const char *s = csvr_field(r, col);
    return csvr_fail(r, "column '%s': '%s' is too large (at most %g)", csvr_colname(r, col),
                     shown(s ? s : "", b, sizeof b), limit);
}

/* header_hint: why the header may lack column `want` when it is nearly
 * there: a name with blanks around it, in another case, or a header of one
 * field that holds another delimiter (TSV read as CSV).  "" when none. */
static const char *header_hint(const csvr *r, const char *want, char *buf, size_t cap)
{
    size_t wl = strlen(want);
    char b[80];
    for (int i = 0; i < r->ncols; i++) {
        const char *h = r->hdr[i];
        size_t hl = strlen(h), lead = strspn(h, " \t");
        while (hl > lead && (h[hl - 1] == ' ' || h[hl - 1] == '\t'))
            hl--;
        if (hl - lead == wl && memcmp(h + lead, want, wl) == 0) {
            snprintf(buf, cap, ": the header has '%s', with blanks around the name", shown(h, b, sizeof b));
            return buf;
        }
        if (strlen(h) == wl && strcasecmp(h, want) == 0) {
            snprintf(buf, cap, ": the header has '%s' (column names are case-sensitive)",
                     shown(h, b, sizeof b));
            return buf;
        }
    }
    static const char others[] = "\t;|,";
    for (const char *d = others; r->ncols == 1 && *d; d++)
        if (*d != r->delim && strchr(r->hdr[0], *d)) {
            if (*d == '\t')
                snprintf(buf, cap, ": the header is one field holding tabs (TSV? use --tsv)");
            else
                snprintf(buf, cap, ": the header is one field holding '%c' (use -d '%c')", *d, *d);
            return buf;
        }
    return "";
}

int csvr_require_for(csvr *r, const char *name, const char *why)
{
    int c = csvr_col(r, name);
    if (c >= 0)
        return c;
    const char *want = csv_dialect_lookup(&r->d, name);
    char hint[200], paren[400] = "";
    const char *h = header_hint(r, want, hint, sizeof hint);
    if (strcmp(want, name) != 0) /* renamed by --col */
        snprintf(paren, sizeof paren, " (for %s%s%s)", name, why ? "; " : "", why ? why : "");
    else if (why)
        snprintf(paren, sizeof paren, " (%s)", why);
    slk_error_at(r->name, 1, "missing required column '%s'%s%s", want, paren, h);
    r->status = SLK_EDATA;
    return -1;
}

int csvr_require(csvr *r, const char *name) { return csvr_require_for(r, name, NULL); }

/* append: printf into buf[*len, cap), the text cut at cap (the line is
 * capped by diag anyway) */
__attribute__((format(printf, 4, 5))) static void append(char *buf, size_t cap, size_t *len, const char *fmt,
                                                         ...)
{
    if (*len + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, cap - *len, fmt, ap);
    va_end(ap);
    *len = n < 0 ? *len : *len + (size_t)n < cap ? *len + (size_t)n : cap - 1;
}

int csvr_require_list(csvr *r, const char *const *names, int *cols, int n)
{
    int missing = 0, first = -1;
    for (int i = 0; i < n; i++)
        if ((cols[i] = csvr_col(r, names[i])) < 0 && missing++ == 0)
            first = i;
    if (missing == 0)
        return 0;
    if (missing == 1)
        return csvr_require(r, names[first]);
    /* several: every name in one line, each renamed one with the key it is
     * for, then the header hints (each once: a one-field header gives the
     * same hint for every name) */
    char msg[1536], hints[1024] = "", hint[200];
    size_t len = 0, hlen = 0;
    append(msg, sizeof msg, &len, "missing required columns ");
    for (int i = 0, k = 0; i < n; i++) {
        if (cols[i] >= 0)
            continue;
        const char *want = csv_dialect_lookup(&r->d, names[i]);
        append(msg, sizeof msg, &len, "%s'%s'", k == 0 ? "" : k == missing - 1 ? " and " : ", ", want);
        k++;
        if (strcmp(want, names[i]) != 0) /* renamed by --col */
            append(msg, sizeof msg, &len, " (for %s)", names[i]);
        const char *h = header_hint(r, want, hint, sizeof hint);
        if (*h && !strstr(hints, h + 2))
            append(hints, sizeof hints, &hlen, "%s%s", hlen ? "; " : ": ", h + 2);
    }
    slk_error_at(r->name, 1, "%s%s", msg, hints);
    r->status = SLK_EDATA;
    return -1;
}

int csvr_require_cols(csvr *r, const char *name, ...)
{
    va_list ap, ap2;
    va_start(ap, name);
    va_copy(ap2, ap);
    int n = 0;
    for (const char *s = name; s; s = va_arg(ap, const char *)) {
        (void)va_arg(ap, int *);
        n++;
    }
    va_end(ap);
    const char **names = xmalloc((size_t)(n ? n : 1) * sizeof *names);
    int **dest = xmalloc((size_t)(n ? n : 1) * sizeof *dest);
    int *cols = xmalloc((size_t)(n ? n : 1) * sizeof *cols);
    int i = 0;
    for (const char *s = name; s; s = va_arg(ap2, const char *)) {
        names[i] = s;
        dest[i++] = va_arg(ap2, int *);
    }
    va_end(ap2);
    int rc = csvr_require_list(r, names, cols, n);
    for (i = 0; i < n; i++)
        *dest[i] = cols[i];
    free(names);
    free(dest);
    free(cols);
    return rc;
}

const char *csvr_field(const csvr *r, int i)
{
    if (i < 0 || i >= r->cur_nf)
        return NULL;
    return r->cur[i];
}

int csvr_ncols(const csvr *r) { return r->ncols; }
const char *csvr_colname(const csvr *r, int i) { return i >= 0 && i < r->ncols ? r->hdr[i] : NULL; }

const char *csvr_field_required(csvr *r, int col, const char *name)
{
    const char *s = csvr_field(r, col);
    if (!s)
        csvr_fail(r, "column '%s': missing value", name ? name : csvr_colname(r, col));
    return s;
}
long csvr_line(const csvr *r) { return r->cur_line; }
const char *csvr_path(const csvr *r) { return r->name; }
char csvr_delimiter(const csvr *r) { return r->d.delim; }
int csvr_has_header(const csvr *r) { return !r->d.no_header; }

const char *csv_path_name(const char *path) { return !path || strcmp(path, "-") == 0 ? "<stdin>" : path; }

int csv_path_rereadable(const char *path)
{
    struct stat sb;
    return path && strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

int csv_quiet_open(struct csv_quiet *q, const struct csv_dialect *d)
{
    q->d = *d;
    q->sink = NULL;
    if (!d->rejects)
        return 0;
    q->sink = fopen("/dev/null", "w");
    q->d.rejects = q->sink ? csv_rejects_new(q->sink) : NULL;
    if (q->d.rejects)
        return 0;
    if (q->sink)
        fclose(q->sink);
    q->sink = NULL;
    return -1;
}

void csv_quiet_close(struct csv_quiet *q)
{
    if (q->sink) {
        csv_rejects_free(q->d.rejects);
        fclose(q->sink);
    }
    q->sink = NULL;
    q->d.rejects = NULL;
}
int csvr_status(const csvr *r)
{
    settle((csvr *)r); /* a held error the tool did not skip is an error now */
    return r->status;
}

/* rejectv: a data error at `line`.  Strict: printed, the reader stopped,
 * returns 0.  Under --on-error skip returns 1: the error is held for
 * csvr_skip (hold) or written to the rejects at once. */
static int rejectv(csvr *r, long line, int hold, const char *group, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));
static void rejects_add(csv_rejects *j, const char *file, long line, const char *group, const char *reason);

/* group: not NULL for a row dropped along with a bad row of its group
 * (csvr_drop_at) */
static int rejectv(csvr *r, long line, int hold, const char *group, const char *fmt, va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (r->d.rejects && !r->status) {
        if (!hold)
            rejects_add(r->d.rejects, r->name, line, group, msg);
        else if (!r->held) /* the first reason of a row is the one reported */
            r->held = xstrdup(msg);
        return 1;
    }
    reader_error(r, line, SLK_EDATA, "%s", msg);
    return 0;
}

int csvr_fail(csvr *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rejectv(r, r->cur_line, 1, NULL, fmt, ap);
    va_end(ap);
    return -1;
}

/* settle: a held error nobody skipped stops the reader as in strict mode. */
static void settle(csvr *r)
{
    if (!r->held)
        return;
    char *msg = r->held;
    r->held = NULL;
    reader_error(r, r->cur_line, SLK_EDATA, "%s", msg);
    free(msg);
}

int csvr_skip(csvr *r)
{
    if (!r->held)
        return 0;
    csv_rejects_add(r->d.rejects, r->name, r->cur_line, r->held);
    free(r->held);
    r->held = NULL;
    return 1;
}

int csvr_reject_at(csvr *r, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int skipped = rejectv(r, line, 0, NULL, fmt, ap);
    va_end(ap);
    return skipped;
}

int csvr_drop_at(csvr *r, long line, const char *group, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int skipped = rejectv(r, line, 0, group, fmt, ap);
    va_end(ap);
    return skipped;
}

/* ---- rejects ---------------------------------------------------------------- */

struct csv_rejects {
    FILE *fp;
    csvw *w;
    long n, dropped;       /* dropped: of n, along with a bad row of their group */
    const char *group;     /* the group's noun (csvr_drop_at) */
    struct slk_many shown; /* no rejects file: the warnings, the first ones printed */
    pthread_mutex_t mu;
};

csv_rejects *csv_rejects_new(FILE *fp)
{
    csv_rejects *j = xcalloc(1, sizeof *j);
    j->fp = fp;
    pthread_mutex_init(&j->mu, NULL);
    if (fp) {
        j->w = csvw_new_with(fp, &csv_dialect_plain);
        static const char *const hdr[] = {"file", "line", "reason", NULL};
        csvw_header(j->w, hdr);
    }
    return j;
}

void csv_rejects_free(csv_rejects *j)
{
    if (!j)
        return;
    csvw_free(j->w);
    pthread_mutex_destroy(&j->mu);
    free(j);
}

void csv_rejects_add(csv_rejects *j, const char *file, long line, const char *reason)
{
    rejects_add(j, file, line, NULL, reason);
}

static void rejects_add(csv_rejects *j, const char *file, long line, const char *group, const char *reason)
{
    pthread_mutex_lock(&j->mu);
    j->n++;
    if (group) {
        j->dropped++;
        j->group = group;
    }
    if (j->w) {
        csvw_str(j->w, file);
        csvw_int(j->w, line);
        csvw_str(j->w, reason);
        csvw_end(j->w);
    } else {
        slk_warn_many(&j->shown, file, line, "skipped: %s", reason);
    }
    pthread_mutex_unlock(&j->mu);
}

long csv_rejects_count(const csv_rejects *j) { return j ? j->n : 0; }

long csv_rejects_dropped(const csv_rejects *j, const char **group)
{
    *group = j ? j->group : NULL;
    return j ? j->dropped : 0;
}

long csv_rejects_hidden(const csv_rejects *j) { return j ? slk_many_hidden(&j->shown) : 0; }

/* Quote at most 60 bytes of a bad value so one message stays one line. */
static const char *shown(const char *s, char *buf, size_t cap)
{
    size_t n = strlen(s);
    if (n + 1 <= cap && n <= 60)
        return s;
    snprintf(buf, cap, "%.57s...", s);
    return buf;
}

/* The getters' failures are formatted out of line (cold), so the per-field
 * path is a parse and two comparisons. */
static int range_fail(csvr *r, int col, double v, const char *s, unsigned flags) __attribute__((cold, noinline));
static int range_fail(csvr *r, int col, double v, const char *s, unsigned flags)
{
    char b[80];
    if ((flags & CSVR_POSITIVE) && !(v > 0))
        return csvr_fail(r, "column '%s': must be positive, got '%s'", r->hdr[col], shown(s, b, sizeof b));
    return csvr_fail(r, "column '%s': must not be negative, got '%s'", r->hdr[col], shown(s, b, sizeof b));
}

static inline int check_range(csvr *r, int col, double v, const char *s, unsigned flags)
{
    if (((flags & CSVR_POSITIVE) && !(v > 0)) || ((flags & CSVR_NONNEG) && v < 0))
        return range_fail(r, col, v, s, flags);
    return 1;
}

/* value_fail: "column 'C': FMT1 'VALUE'FMT2" for a bad field value. */
static int value_fail(csvr *r, int col, const char *what, const char *s, const char *tail) __attribute__((cold, noinline));
static int value_fail(csvr *r, int col, const char *what, const char *s, const char *tail)
{
    char b[80];
    return csvr_fail(r, "column '%s': %s '%s'%s", r->hdr[col], what, shown(s, b, sizeof b), tail);
}

static int get_common(csvr *r, int col, unsigned flags, const char **s)
{
    if (col < 0 || col >= r->cur_nf)
        return 0;
    *s = r->cur[col];
    if (!*s) {
        if (flags & CSVR_REQUIRED)
            return csvr_fail(r, "column '%s': missing value", r->hdr[col]);
        return 0;
    }
    return 1;
}

/* The double-valued getters differ only in the parser and what they call the
 * value in messages. */
static int parse_number(const char *s, double *out)
{
    return parse_decimal_fast(s, out) == 0 ? 0 : parse_double(s, out, 0);
}
static int parse_any_number(const char *s, double *out)
{
    return parse_decimal_fast(s, out) == 0 ? 0 : parse_double(s, out, PARSE_ALLOW_NONFINITE);
}

/* get_parsed: inline, so that each getter's parse (a constant) is inlined
 * into it: the per-field path has no indirect call. */
static inline __attribute__((always_inline)) int get_parsed(csvr *r, int col, double *out, unsigned flags,
                                                          int (*parse)(const char *, double *), const char *what,
                                                          const char *hint, double limit)
{
    const char *s;
    int rc = get_common(r, col, flags, &s);
    if (rc <= 0)
        return rc;
    double v;
    if (parse(s, &v) < 0) {
        char invalid[64];
        snprintf(invalid, sizeof invalid, "invalid %s", what);
        return value_fail(r, col, invalid, s, hint);
    }
    if (check_range(r, col, v, s, flags) < 0)
        return -1;
    if (fabs(v) > limit) {
        char range[64];
        snprintf(range, sizeof range, " out of range (|value| <= %g)", limit);
        return value_fail(r, col, what, s, range);
    }
    *out = v;
    return 1;
}

int csvr_get_double_hint(csvr *r, int col, double *out, unsigned flags, const char *hint)
{
    double limit = (flags & CSVR_BOUNDED) ? CSVR_MAX_VALUE : INFINITY;
    if (flags & CSVR_NONFINITE)
        return get_parsed(r, col, out, flags, parse_any_number, "number", hint, limit);
    return get_parsed(r, col, out, flags, parse_number, "number", hint, limit);
}

int csvr_get_double(csvr *r, int col, double *out, unsigned flags)
{
    return csvr_get_double_hint(r, col, out, flags, "");
}

/* time_fail: a time field that is not a time (v NaN) or out of range. */
static int time_fail(csvr *r, int col, const char *s, double v, double scale) __attribute__((cold, noinline));
static int time_fail(csvr *r, int col, const char *s, double v, double scale)
{
    char b[80], hint[160];
    if (isnan(v))
        return csvr_fail(r, "column '%s': invalid time '%s' (want epoch %s or ISO 8601 UTC)", r->hdr[col],
                         shown(s, b, sizeof b),
                         scale == 1e3 ? "milliseconds" : scale == 1e6 ? "microseconds" : "seconds");
    double num; /* an ISO time is absolute: no unit hint for it, and its limit as a date */
    if (parse_double(s, &num, 0) != 0) {
        char lim[32];
        return csvr_fail(r, "column '%s': time '%s' out of range (the latest is %s)", r->hdr[col],
                         shown(s, b, sizeof b), parse_time_format(CSVR_MAX_TIME, lim));
    }
    const char *h = timeunit_epoch_hint(v, scale, (enum timeunit_reach)r->d.time_unit, hint, sizeof hint);
    return csvr_fail(r, "column '%s': time '%s' out of range (|value| <= %g)%s%s", r->hdr[col],
                     shown(s, b, sizeof b), CSVR_MAX_TIME, h ? ": " : "", h ? h : "");
}

/* epoch_scaled: the epoch number text s (read as v) in the input's unit
 * (scale per second, 10^e10 when e10 > 0) as seconds, rounded once: the
 * text with its exponent lowered by e10 (an "e-E10" added, or its own
 * exponent less e10), read by strtod, where v / scale would round twice. */
static double epoch_scaled(const char *s, double v, double scale, int e10)
{
    char b[96];
    double x;
    const char *e = strpbrk(s, "eE");
    if (e10 > 0 && strlen(s) + 8 < sizeof b) {
        if (!e)
            snprintf(b, sizeof b, "%se-%d", s, e10);
        else { /* "1.767571469473029e12" ms: "1.767571469473029e9" */
            char *end;
            errno = 0;
            long x10 = strtol(e + 1, &end, 10);
            if (*end || errno || x10 < -100000 || x10 > 100000)
                return v / scale;
            snprintf(b, sizeof b, "%.*se%ld", (int)(e - s), s, x10 - e10);
        }
        if (parse_double(b, &x, 0) == 0)
            return x;
    }
    return v / scale;
}

int csvr_get_time(csvr *r, int col, double *out, unsigned flags)
{
    const char *s;
    int rc = get_common(r, col, flags, &s);
    if (rc <= 0)
        return rc;
    double v, scale = r->d.time_scale > 0 ? r->d.time_scale : 1;
    /* an epoch number in ms or us is divided in its decimal text, so that it
     * reads as the same double as the instant written in seconds */
    int e10 = scale == 1e3 ? 3 : scale == 1e6 ? 6 : 0;
    if (parse_decimal_fast_scaled(s, e10, &v) == 0) {
        if (scale != 1 && !e10)
            v /= scale;
    } else {
        if (parse_time(s, &v) < 0)
            return time_fail(r, col, s, NAN, scale);
        if (scale != 1 && parse_double(s, &v, 0) == 0)
            v = epoch_scaled(s, v, scale, e10); /* ISO text is absolute */
    }
    if (check_range(r, col, v, s, flags) < 0)
        return -1;
    if (fabs(v) > CSVR_MAX_TIME)
        return time_fail(r, col, s, v, scale);
    *out = v;
    return 1;
}

int csvr_get_duration(csvr *r, int col, double *out, unsigned flags)
{
    return get_parsed(r, col, out, flags, parse_duration, "duration",
                      " (want seconds, or e.g. 90s, 15m, 1h, 1d)", (flags & CSVR_BOUNDED) ? CSVR_MAX_VALUE : INFINITY);
}

int csvr_get_int64(csvr *r, int col, int64_t *out, unsigned flags)
{
    const char *s;
    int rc = get_common(r, col, flags, &s);
    if (rc <= 0)
        return rc;
    int64_t v;
    char b[80];
    if (parse_int64(s, &v) < 0)
        return csvr_fail(r, "column '%s': invalid integer '%s'", r->hdr[col], shown(s, b, sizeof b));
    if (check_range(r, col, (double)v, s, flags) < 0)
        return -1;
    if ((flags & CSVR_BOUNDED) && fabs((double)v) > CSVR_MAX_VALUE)
        return csvr_fail(r, "column '%s': integer '%s' out of range (|value| <= %g)", r->hdr[col],
                         shown(s, b, sizeof b), CSVR_MAX_VALUE);
    *out = v;
    return 1;
}

/* ---- writing ---------------------------------------------------------------- */

/* The writer builds each record in its own buffer (no stdio call, strlen or
 * memmove per field: fields are copied and checked for quoting in one pass)
 * and hands the record to stdio in one fwrite at csvw_end, so that after
 * csvw_end every byte is in the FILE* (callers may write to it directly
 * between records). */
struct csvw {
    FILE *fp;
    char delim;
    int prec;
    int no_header;
    int nf;
    char *buf;                  /* the record being built */
    size_t len, cap;
    unsigned char special[256]; /* bytes that make a field quoted */
};

csvw *csvw_new_with(FILE *fp, const struct csv_dialect *d)
{
    if (!d)
        d = &csv_dialect_plain;
    csvw *w = xcalloc(1, sizeof *w);
    w->fp = fp;
    w->delim = d->delim ? d->delim : ',';
    w->prec = d->precision;
    w->no_header = d->no_output_header;
    w->cap = 4096;
    w->buf = xmalloc(w->cap);
    w->special[(unsigned char)w->delim] = w->special['"'] = w->special['\n'] = w->special['\r'] = 1;
    return w;
}

csvw *csvw_new(FILE *fp) { return csvw_new_with(fp, NULL); }

/* flush: hand the bytes built so far to stdio. */
static void flush(csvw *w)
{
    if (w->len)
        fwrite_unlocked(w->buf, 1, w->len, w->fp);
    w->len = 0;
}

void csvw_free(csvw *w)
{
    if (!w)
        return;
    flush(w); /* a record left unfinished is written as it is, as before */
    free(w->buf);
    free(w);
}

void csvw_header(csvw *w, const char *const *names)
{
    if (w->no_header)
        return;
    for (; *names; names++)
        csvw_str(w, *names);
    csvw_end(w);
}

/* reserve: room for n more bytes. */
static inline char *reserve(csvw *w, size_t n)
{
    if (w->len + n > w->cap)
        w->buf = xgrow(w->buf, &w->cap, w->len + n, 1);
    return w->buf + w->len;
}

/* sep: the delimiter before every field but the first; room for n more. */
static inline char *sep(csvw *w, size_t n)
{
    char *d = reserve(w, n + 1);
    if (w->nf++) {
        *d++ = w->delim;
        w->len++;
    }
    return d;
}

/* quoted: s (n bytes) as a quoted field at the end of the buffer. */
static void quoted(csvw *w, const char *s, size_t n)
{
    char *d = reserve(w, 2 * n + 2);
    *d++ = '"';
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            *d++ = '"';
        *d++ = s[i];
    }
    *d++ = '"';
    w->len = (size_t)(d - w->buf);
}

void csvw_strn(csvw *w, const char *s, size_t n)
{
    char *d = sep(w, n);
    if (!s)
        return;
    unsigned char any = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        d[i] = (char)c;
        any |= w->special[c];
    }
    if (any)
        quoted(w, s, n);
    else
        w->len += n;
}

void csvw_str(csvw *w, const char *s)
{
    char *d = sep(w, 64);
    if (!s)
        return;
    /* copy and check in one pass; the buffer grows when a field is long */
    size_t start = w->len, i = 0, room = w->cap - start;
    unsigned char any = 0, c;
    while ((c = (unsigned char)s[i]) != 0) {
        if (i == room) {
            w->len = start + i;
            d = reserve(w, 64) - i;
            room = w->cap - start;
        }
        d[i++] = (char)c;
        any |= w->special[c];
    }
    w->len = start;
    if (any)
        quoted(w, s, i);
    else
        w->len += i;
}

static int format_int(char *d, int64_t v);

int csv_format_double(char *buf, double v, int prec)
{
    if (!isfinite(v)) {
        buf[0] = 0;
        return 0;
    }
    if (prec >= 0) {
        int n = snprintf(buf, 40, "%.*f", prec > 17 ? 17 : prec, v);
        if (n >= 40)
            n = snprintf(buf, 40, "%.17g", v);
        /* "-0.00" reads badly; a rounded zero is zero. */
        if (buf[0] == '-') {
            int allzero = 1;
            for (int i = 1; buf[i]; i++)
                if (buf[i] != '0' && buf[i] != '.')
                    allzero = 0;
            if (allzero) {
                memmove(buf, buf + 1, (size_t)n);
                n--;
            }
        }
        return n;
    }
    if (v == 0) {
        buf[0] = '0';
        buf[1] = 0;
        return 1;
    }
    if (fabs(v) < 9007199254740992.0 && v == floor(v)) {
        int n = format_int(buf, (int64_t)v);
        buf[n] = 0;
        return n;
    }
    /* 15 digits hold the shortest form of a normal double when it has at
     * most 15; a subnormal has fewer bits, so its shortest may be shorter
     * ("1e-320", where %.15g gives 9.99988867182683e-321) */
    for (int p = fabs(v) < DBL_MIN ? 1 : 15; p <= 17; p++) {
        int n = snprintf(buf, 40, "%.*g", p, v);
        if (p == 17 || strtod(buf, NULL) == v)
            return n;
    }
    return (int)strlen(buf);
}

/* format_int: v in decimal at d (at least 21 bytes); returns the length. */
static int format_int(char *d, int64_t v)
{
    char t[24];
    int n = 0;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do
        t[n++] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    int len = 0;
    if (v < 0)
        d[len++] = '-';
    while (n)
        d[len++] = t[--n];
    return len;
}

void csvw_num(csvw *w, double v)
{
    char *d = sep(w, 48);
    w->len += (size_t)csv_format_double(d, v, w->prec);
}

void csvw_num_prec(csvw *w, double v, int decimals)
{
    char *d = sep(w, 48);
    w->len += (size_t)csv_format_double(d, v, decimals);
}

void csvw_int(csvw *w, int64_t v)
{
    char *d = sep(w, 24);
    w->len += (size_t)format_int(d, v);
}

void csvw_end(csvw *w)
{
    *reserve(w, 1) = '\n';
    w->len++;
    flush(w);
    w->nf = 0;
}

int csvw_error(const csvw *w) { return ferror(w->fp); }

/* ---- range readers -----------------------------------------------------------
 * A range is read through a stdio cookie stream that preads [start, end) of
 * the file, so the reader above (zin, the fast path, libcsv) runs unchanged
 * on it: one parser for whole inputs and for ranges. */

struct range_src {
    int fd;
    long long pos, end;
};

static ssize_t range_read(void *cookie, char *buf, size_t n)
{
    struct range_src *s = cookie;
    size_t got = 0;
    while (got < n && s->pos < s->end) {
        size_t want = n - got;
        if ((long long)want > s->end - s->pos)
            want = (size_t)(s->end - s->pos);
        ssize_t k = pread(s->fd, buf + got, want, (off_t)s->pos);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return got ? (ssize_t)got : -1;
        if (k == 0)
            break;
        got += (size_t)k;
        s->pos += k;
    }
    return (ssize_t)got;
}

static int range_close(void *cookie)
{
    struct range_src *s = cookie;
    int rc = close(s->fd);
    free(s);
    return rc;
}

static void range_say(const struct csvr_range *rg, const char *path, const char *what)
{
    if (rg->message) {
        char b[512];
        snprintf(b, sizeof b, "%s: %s", what, strerror(errno));
        rg->message(rg->message_ctx, 0, b);
    } else {
        slk_error("%s: %s: %s", path, what, strerror(errno));
    }
}

/* give a data-only range reader the columns (and dialect) of like */
static void adopt_columns(csvr *r, const csvr *like, const struct csv_dialect *d)
{
    for (int i = 0; i < r->ncols; i++)
        free(r->hdr[i]);
    free(r->hdr);
    r->ncols = like->ncols;
    r->hdr = xcalloc((size_t)r->ncols + 1, sizeof *r->hdr);
    for (int i = 0; i < r->ncols; i++)
        r->hdr[i] = xstrdup(like->hdr[i]);
    r->d = d ? *d : csv_dialect_plain;
    if (!r->d.delim)
        r->d.delim = ',';
}

csvr *csvr_open_range(const char *path, const struct csv_dialect *d, const struct csvr_range *rg, int *status)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        range_say(rg, path, "cannot open");
        *status = SLK_ENOINPUT;
        return NULL;
    }
    long long end = rg->end;
    struct stat st;
    if (end < 0)
        end = fstat(fd, &st) == 0 ? (long long)st.st_size : 0;
    struct range_src *src = xmalloc(sizeof *src);
    *src = (struct range_src){fd, rg->start, end};
    FILE *fp = fopencookie(src, "r", (cookie_io_functions_t){.read = range_read, .close = range_close});
    if (!fp) {
        range_say(rg, path, "cannot read");
        range_close(src);
        *status = SLK_EIO;
        return NULL;
    }
    setvbuf(fp, NULL, _IOFBF, READ_CHUNK); /* one pread per chunk zin asks for */
    struct csv_dialect dd = d ? *d : csv_dialect_plain;
    if (rg->like) { /* data only: no header, the columns come from like */
        dd.no_header = 1;
        dd.names = NULL;
    }
    csvr *r = open_fp(fp, path, &dd, rg->like != NULL, status, 0, rg);
    if (!r) {
        fclose(fp);
        return NULL;
    }
    r->own_fp = 1;
    if (rg->like)
        adopt_columns(r, rg->like, d);
    return r;
}

long csvr_lines(const csvr *r) { return r->line - 1; }

double csvr_fraction(const csvr *r) { return zin_fraction(r->in); }

void csvr_progress(const csvr *r, const char *what)
{
    if (slk_progress_due((uint64_t)r->cur_line))
        slk_progress_read(what, (uint64_t)r->cur_line, csvr_fraction(r));
}

const char *const *csvr_row(const csvr *r) { return r->cur; }

long long csvr_line_start(const char *path, long long start, long line)
{
    if (line <= 1)
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char *buf = xmalloc(READ_CHUNK);
    long seen = 0;
    long long at = -1, off = start;
    for (;;) {
        ssize_t k = pread(fd, buf, READ_CHUNK, (off_t)off);
        if (k <= 0)
            break;
        const char *p = buf, *e = buf + k, *nl;
        while ((nl = memchr(p, '\n', (size_t)(e - p))) != NULL) {
            p = nl + 1;
            if (++seen == line - 1) {
                at = off + (p - buf) - start;
                break;
            }
        }
        if (at >= 0)
            break;
        off += k;
    }
    free(buf);
    close(fd);
    return at;
}
