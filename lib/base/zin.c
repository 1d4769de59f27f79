/* zin — input decompressed on the fly when it is gzip or zstd (see zin.h).
 *
 * One compressed-input buffer of ZIN_BUF bytes; plain input bypasses it
 * after the first bytes (read straight into the caller's buffer), so plain
 * files pay one branch per chunk.  The end of a gzip member or zstd frame is
 * tracked so that input ending inside one is "truncated", never a short
 * success.
 */
#include "base/zin.h"
#include "base/diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define ZIN_BUF (256u << 10)

struct zin {
    FILE *fp;
    int partial;
    enum zin_kind kind;
    char *ibuf;             /* compressed bytes (and the sniffed start of plain input) */
    size_t ilen, ipos;
    int eof;
    int status;             /* SLK_OK, or the error that stopped the stream */
    char err[160];
    long lost;              /* newlines in the bytes the failing read dropped */
    int in_member;          /* gzip: inside a member; zstd: inside a frame */
    z_stream zs;
    int zs_live;
    ZSTD_DCtx *zd;
    unsigned long long at;   /* fp's offset: where it was at the open, plus every byte read since */
    unsigned long long size; /* a regular file's size at the open; 0 when unknown (pipe, terminal) */
};

static ssize_t fail(zin *z, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static ssize_t fail(zin *z, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(z->err, sizeof z->err, fmt, ap);
    va_end(ap);
    z->status = status;
    return -1;
}

/* raw_fill: read more compressed (or sniffed) bytes into ibuf after what is
 * there.  Returns the count read, 0 at end, -1 on a read error. */
static ssize_t raw_fill(zin *z, char *dst, size_t cap)
{
    if (z->partial) {
        ssize_t k;
        do
            k = read(fileno(z->fp), dst, cap);
        while (k < 0 && errno == EINTR);
        if (k < 0)
            return fail(z, SLK_EIO, "read error: %s", strerror(errno));
        if (k == 0)
            z->eof = 1;
        z->at += (unsigned long long)k;
        return k;
    }
    size_t n = fread(dst, 1, cap, z->fp);
    z->at += n;
    if (n < cap) {
        if (ferror(z->fp))
            return fail(z, SLK_EIO, "read error: %s", strerror(errno));
        z->eof = 1;
    }
    return (ssize_t)n;
}

/* refill: replace the consumed input buffer with new bytes. */
static int refill(zin *z)
{
    ssize_t n = raw_fill(z, z->ibuf, ZIN_BUF);
    if (n < 0)
        return -1;
    z->ilen = (size_t)n;
    z->ipos = 0;
    return 0;
}

static enum zin_kind kind_of(const unsigned char *b, size_t n)
{
    if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
        return ZIN_GZIP;
    if (n >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd)
        return ZIN_ZSTD;
    return ZIN_PLAIN;
}

zin *zin_open(FILE *fp, int partial)
{
    zin *z = xcalloc(1, sizeof *z);
    z->fp = fp;
    z->partial = partial;
    z->ibuf = xmalloc(ZIN_BUF);
    /* A regular file's size, for progress (zin_fraction); fp is fresh, so
     * the descriptor's offset is where its reading starts. */
    struct stat st;
    int fd = fileno(fp);
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        off_t off = lseek(fd, 0, SEEK_CUR);
        z->size = (unsigned long long)st.st_size;
        z->at = off > 0 ? (unsigned long long)off : 0;
    }
    /* Enough bytes to tell the kind (a pipe may give them one at a time). */
    while (z->ilen < 4 && !z->eof) {
        ssize_t n = raw_fill(z, z->ibuf + z->ilen, partial ? ZIN_BUF - z->ilen : 4 - z->ilen);
        if (n < 0)
            return z;
        z->ilen += (size_t)n;
    }
    z->kind = kind_of((const unsigned char *)z->ibuf, z->ilen);
    if (z->kind == ZIN_GZIP) {
        if (inflateInit2(&z->zs, 16 + MAX_WBITS) != Z_OK)
            fail(z, SLK_ESOFTWARE, "cannot initialise zlib");
        else
            z->zs_live = 1;
    } else if (z->kind == ZIN_ZSTD) {
        z->zd = ZSTD_createDCtx();
        if (!z->zd)
            fail(z, SLK_ESOFTWARE, "cannot initialise zstd");
    }
    return z;
}

double zin_fraction(const zin *z)
{
    if (!z || !z->size)
        return -1;
    return z->at >= z->size ? 1.0 : (double)z->at / (double)z->size;
}

void zin_close(zin *z)
{
    if (!z)
        return;
    if (z->zs_live)
        inflateEnd(&z->zs);
    ZSTD_freeDCtx(z->zd);
    free(z->ibuf);
    free(z);
}

static ssize_t plain_read(zin *z, char *buf, size_t cap)
{
    size_t got = 0;
    if (z->ipos < z->ilen) { /* the sniffed first bytes */
        got = z->ilen - z->ipos < cap ? z->ilen - z->ipos : cap;
        memcpy(buf, z->ibuf + z->ipos, got);
        z->ipos += got;
        if (z->partial)
            return (ssize_t)got;
    }
    while (got < cap && !z->eof) {
        ssize_t n = raw_fill(z, buf + got, cap - got);
        if (n < 0)
            return -1;
        got += (size_t)n;
        if (z->partial && got)
            break;
    }
    return (ssize_t)got;
}

/* need_input: whether to read more compressed bytes now: the buffer is used
 * up, input has not ended, and (for live input) nothing is ready to return. */
static int need_input(const zin *z, size_t produced)
{
    return z->ipos == z->ilen && !z->eof && (produced == 0 || !z->partial);
}

/* drop: a failing read's decoded bytes buf[0, n) are dropped; count their
 * newlines for zin_lost_lines.  Returns -1. */
static ssize_t drop(zin *z, const char *buf, size_t n)
{
    for (const char *e = buf + n; (buf = memchr(buf, '\n', (size_t)(e - buf))) != NULL; buf++)
        z->lost++;
    return -1;
}

static ssize_t gzip_read(zin *z, char *buf, size_t cap)
{
    z->zs.next_out = (unsigned char *)buf;
    z->zs.avail_out = (uInt)cap;
    for (;;) {
        size_t produced = cap - z->zs.avail_out;
        if (need_input(z, produced) && refill(z) < 0)
            return -1;
        if (z->ipos == z->ilen && (z->eof ? !z->in_member : produced > 0))
            break; /* clean end, or live input with bytes ready */
        if (!z->in_member) {
            inflateReset(&z->zs);
            z->in_member = 1;
        }
        z->zs.next_in = (unsigned char *)z->ibuf + z->ipos;
        z->zs.avail_in = (uInt)(z->ilen - z->ipos);
        int rc = inflate(&z->zs, Z_NO_FLUSH);
        z->ipos = z->ilen - z->zs.avail_in;
        if (rc == Z_STREAM_END)
            z->in_member = 0;
        else if (rc == Z_BUF_ERROR && z->zs.avail_out > 0 && z->ipos == z->ilen && z->eof)
            return fail(z, SLK_EDATA, "truncated gzip input (unexpected end of compressed data)"),
                   drop(z, buf, cap - z->zs.avail_out);
        else if (rc != Z_OK && rc != Z_BUF_ERROR)
            return fail(z, SLK_EDATA, "corrupt gzip input: %s", z->zs.msg ? z->zs.msg : "invalid data"),
                   drop(z, buf, cap - z->zs.avail_out);
        if (z->zs.avail_out == 0)
            break;
    }
    return (ssize_t)(cap - z->zs.avail_out);
}


static ssize_t zstd_read(zin *z, char *buf, size_t cap)
{
    ZSTD_outBuffer out = {buf, cap, 0};
    for (;;) {
        if (need_input(z, out.pos) && refill(z) < 0)
            break;
        if (z->ipos == z->ilen && (z->eof ? !z->in_member : out.pos > 0))
            break;
        ZSTD_inBuffer in = {z->ibuf, z->ilen, z->ipos};
        size_t before = out.pos, ibefore = z->ipos;
        size_t rc = ZSTD_decompressStream(z->zd, &out, &in);
        z->ipos = in.pos;
        if (ZSTD_isError(rc)) {
            fail(z, SLK_EDATA, "corrupt zstd input: %s", ZSTD_getErrorName(rc));
            break;
        }
        z->in_member = rc != 0;
        if (out.pos == out.size)
            break;
        if (z->in_member && z->eof && z->ipos == z->ilen && out.pos == before && ibefore == z->ipos) {
            fail(z, SLK_EDATA, "truncated zstd input (unexpected end of compressed data)");
            break;
        }
    }
    /* Bytes decoded before an error are dropped: a partial last line would
     * otherwise be reported as a short record instead of as the damage. */
    return z->status ? drop(z, buf, out.pos) : (ssize_t)out.pos;
}

ssize_t zin_read(zin *z, char *buf, size_t cap)
{
    if (z->status)
        return -1;
    if (cap == 0)
        return 0;
    switch (z->kind) {
    case ZIN_GZIP: return gzip_read(z, buf, cap);
    case ZIN_ZSTD: return zstd_read(z, buf, cap);
    default: return plain_read(z, buf, cap);
    }
}

enum zin_kind zin_kind(const zin *z) { return z->kind; }

long zin_lost_lines(const zin *z) { return z->lost; }

const char *zin_kind_name(enum zin_kind k)
{
    return k == ZIN_GZIP ? "gzip" : k == ZIN_ZSTD ? "zstd" : "plain";
}

int zin_sniff(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return -1;
    unsigned char b[4];
    size_t n = fread(b, 1, sizeof b, fp);
    int bad = ferror(fp);
    fclose(fp);
    return bad ? -1 : (int)kind_of(b, n);
}

const char *zin_error(const zin *z) { return z->err; }
int zin_status(const zin *z) { return z->status; }
