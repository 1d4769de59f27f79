/* rawin — line-by-line reading of raw public trace files (see rawin.h). */
#include "import/rawin.h"

#include "base/diag.h"
#include "base/parse.h"
#include "base/zin.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct rawin {
    FILE *fp;    /* the file (NULL: stdin, not ours to close) */
    zin *z;      /* plain, gzip or zstd, told by the first bytes */
    char *path;
    char delim;
    long line;
    char *buf;   /* the line as read */
    char *work;  /* the line split in place */
    size_t cap;
    char *in;    /* decompressed bytes not yet returned as lines */
    size_t in_pos, in_len, in_cap;
    int eof;
    int status;           /* why the last read failed: SLK_EDATA or SLK_EIO */
    csv_rejects *rejects; /* --on-error skip: row errors are held for rawin_skip */
    char *held;           /* the held row error, or NULL */
    long held_line;
};

rawin *rawin_open(const char *path, char delim, int *status)
{
    int is_stdin = !path || strcmp(path, "-") == 0;
    FILE *fp = is_stdin ? stdin : fopen(path, "rb");
    if (!fp) {
        slk_error("%s: cannot open: %s", path, strerror(errno));
        *status = SLK_ENOINPUT;
        return NULL;
    }
    rawin *in = xcalloc(1, sizeof *in);
    in->fp = is_stdin ? NULL : fp;
    in->z = zin_open(fp, 0);
    in->path = xstrdup(is_stdin ? "<stdin>" : path);
    in->delim = delim;
    in->cap = 4096;
    in->buf = xmalloc(in->cap);
    in->work = xmalloc(in->cap);
    in->in_cap = 1 << 18;
    in->in = xmalloc(in->in_cap);
    return in;
}

/* read one physical line into in->buf (without its LF); 1, 0 at EOF, -1 error
 * (a read error, a truncated or corrupt compressed stream, a NUL byte) */
static int read_line(rawin *in)
{
    size_t len = 0;
    for (;;) {
        if (in->in_pos == in->in_len) {
            if (in->eof)
                break;
            ssize_t got = zin_read(in->z, in->in, in->in_cap);
            if (got < 0) {
                slk_error_at(in->path, in->line + 1 + zin_lost_lines(in->z), "%s", zin_error(in->z));
                in->status = zin_status(in->z); /* a corrupt stream is bad data (65), as in csvio */
                return -1;
            }
            in->in_pos = 0;
            in->in_len = (size_t)got;
            if (got == 0) {
                in->eof = 1;
                break;
            }
        }
        const char *p = in->in + in->in_pos;
        size_t avail = in->in_len - in->in_pos;
        const char *nl = memchr(p, '\n', avail);
        size_t take = nl ? (size_t)(nl - p) : avail;
        if (memchr(p, 0, take)) {
            slk_error_at(in->path, in->line + 1, "NUL byte in line");
            in->status = SLK_EDATA;
            return -1;
        }
        if (len + take > CSVR_MAX_RECORD) { /* bounded as csvr bounds a record (slokit(7)) */
            slk_error_at(in->path, in->line + 1, "record longer than %zu bytes", CSVR_MAX_RECORD);
            in->status = SLK_EDATA;
            return -1;
        }
        if (len + take + 1 > in->cap) {
            in->buf = xgrow(in->buf, &in->cap, len + take + 1, 1);
            in->work = xrealloc(in->work, in->cap);
        }
        memcpy(in->buf + len, p, take);
        len += take;
        in->in_pos += take + (nl ? 1 : 0);
        if (nl)
            goto line;
    }
    if (len == 0) {
        slk_progress_done(); /* before the caller's summary */
        return 0; /* the end of input (a last line without LF is still a line) */
    }
line:
    in->buf[len] = 0;
    if (len > 0 && in->buf[len - 1] == '\r')
        in->buf[--len] = 0;
    in->line++;
    if (slk_progress_due((uint64_t)in->line))
        slk_progress_read(in->path, (uint64_t)in->line, zin_fraction(in->z));
    if (in->line == 1 && len >= 3 && memcmp(in->buf, "\xef\xbb\xbf", 3) == 0) /* a UTF-8 BOM, as csvio drops it */
        memmove(in->buf, in->buf + 3, len - 2);
    return 1;
}

static int split(rawin *in, char **fields, int max)
{
    strcpy(in->work, in->buf);
    int n = 0;
    char *p = in->work;
    if (in->delim == RAWIN_BLANKS) {
        for (;;) {
            while (*p == ' ' || *p == '\t')
                p++;
            if (!*p)
                return n;
            if (n == max)
                return max + 1;
            fields[n++] = p;
            while (*p && *p != ' ' && *p != '\t')
                p++;
            if (*p)
                *p++ = 0;
        }
    }
    for (;;) {
        if (n == max)
            return max + 1;
        fields[n++] = p;
        char *d = strchr(p, in->delim);
        if (!d)
            return n;
        *d = 0;
        p = d + 1;
    }
}

int rawin_next(rawin *in, char **fields, int max)
{
    for (;;) {
        int rc = read_line(in);
        if (rc <= 0)
            return rc;
        if (in->buf[strspn(in->buf, " \t")] == 0)
            continue; /* blank line */
        int n = split(in, fields, max);
        if (n > 0)
            return n;
    }
}

int rawin_status(const rawin *in) { return in->status ? in->status : SLK_EIO; }
long rawin_line(const rawin *in) { return in->line; }
const char *rawin_path(const rawin *in) { return in->path; }
const char *rawin_text(const rawin *in) { return in->buf; }

/* vfail: the message at line (0: the whole file); row: a row's error, which
 * --on-error skip may hold for the caller to skip. */
static int vfail(rawin *in, long line, int row, const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (in->rejects && row && !in->held) { /* a row error: the caller may skip it */
        in->held = xstrdup(msg);
        in->held_line = line;
    } else
        slk_error_at(in->path, line, "%s", msg);
    return SLK_EDATA;
}

void rawin_set_rejects(rawin *in, csv_rejects *j)
{
    in->rejects = j;
}

int rawin_skip(rawin *in)
{
    if (!in->held)
        return 0;
    csv_rejects_add(in->rejects, in->path, in->held_line, in->held);
    free(in->held);
    in->held = NULL;
    return 1;
}

const char *rawin_count(int n, int max, char *buf, size_t len)
{
    snprintf(buf, len, n > max ? "more than %d" : "%d", n > max ? max : n);
    return buf;
}

int rawin_fail(rawin *in, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    /* before any line (an empty input): line 1, as csvr says it, no row to skip */
    int rc = vfail(in, in->line > 0 ? in->line : 1, in->line > 0, fmt, ap);
    va_end(ap);
    return rc;
}

int rawin_fail_file(rawin *in, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(in, 0, 0, fmt, ap);
    va_end(ap);
    return rc;
}

int rawin_int64(rawin *in, const char *s, int field, const char *what, int64_t *out)
{
    if (parse_int64(s, out) == 0)
        return 0;
    return rawin_fail(in, "field %d (%s): invalid integer '%.40s'", field, what, s);
}

int rawin_double(rawin *in, const char *s, int field, const char *what, double *out)
{
    if (parse_double(s, out, 0) == 0)
        return 0;
    return rawin_fail(in, "field %d (%s): invalid number '%.40s'", field, what, s);
}

int rawin_time(rawin *in, double t, const char *s, int field, const char *what)
{
    if (fabs(t) <= CSVR_MAX_TIME)
        return 0;
    return rawin_fail(in, "field %d (%s): '%.40s' is at %.17g s, beyond 1e11 s of 1970 (the epoch "
                      "or start time added; the next tool refuses it)", field, what, s, t);
}

void rawin_close(rawin *in)
{
    if (!in)
        return;
    slk_progress_done();
    if (in->held) /* a row error no caller skipped: it stands */
        slk_error_at(in->path, in->held_line, "%s", in->held);
    free(in->held);
    zin_close(in->z);
    if (in->fp)
        fclose(in->fp);
    free(in->in);
    free(in->path);
    free(in->buf);
    free(in->work);
    free(in);
}
