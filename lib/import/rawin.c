/* rawin — line-by-line reading of raw public trace files (see rawin.h). */
#include "import/rawin.h"

#include "base/diag.h"
#include "base/parse.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

struct rawin {
    gzFile gz;
    char *path;
    char delim;
    long line;
    char *buf;   /* the line as read */
    char *work;  /* the line split in place */
    size_t cap;
};

rawin *rawin_open(const char *path, char delim, int *status)
{
    int is_stdin = !path || strcmp(path, "-") == 0;
    gzFile gz = is_stdin ? gzdopen(dup(STDIN_FILENO), "rb") : gzopen(path, "rb");
    if (!gz) {
        slk_error("%s: cannot open: %s", is_stdin ? "<stdin>" : path,
                  errno ? strerror(errno) : "out of memory");
        *status = SLK_ENOINPUT;
        return NULL;
    }
    gzbuffer(gz, 1 << 18);
    rawin *in = xcalloc(1, sizeof *in);
    in->gz = gz;
    in->path = xstrdup(is_stdin ? "<stdin>" : path);
    in->delim = delim;
    in->cap = 4096;
    in->buf = xmalloc(in->cap);
    in->work = xmalloc(in->cap);
    return in;
}

/* read one physical line into in->buf (without its LF); 1, 0 at EOF, -1 error */
static int read_line(rawin *in)
{
    size_t len = 0;
    for (;;) {
        if (!gzgets(in->gz, in->buf + len, (int)(in->cap - len))) {
            int err;
            const char *msg = gzerror(in->gz, &err);
            if (err == Z_BUF_ERROR) { /* zlib: the input ended inside a gzip stream */
                slk_error_at(in->path, in->line + 1, "truncated gzip input");
                return -1;
            }
            if (err != Z_OK) {
                slk_error_at(in->path, in->line + 1, "read error: %s",
                             err == Z_ERRNO ? strerror(errno) : msg);
                return -1;
            }
            if (len == 0)
                return 0;
            break;
        }
        len += strlen(in->buf + len);
        if (len > 0 && in->buf[len - 1] == '\n') {
            in->buf[--len] = 0;
            break;
        }
        if (len + 1 < in->cap) /* a last line without LF */
            continue;
        in->buf = xgrow(in->buf, &in->cap, in->cap * 2, 1);
        in->work = xrealloc(in->work, in->cap);
    }
    if (len > 0 && in->buf[len - 1] == '\r')
        in->buf[--len] = 0;
    in->line++;
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

long rawin_line(const rawin *in) { return in->line; }
const char *rawin_path(const rawin *in) { return in->path; }
const char *rawin_text(const rawin *in) { return in->buf; }

static int vfail(const rawin *in, long line, const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    slk_error_at(in->path, line, "%s", msg);
    return SLK_EDATA;
}

int rawin_fail(const rawin *in, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(in, in->line, fmt, ap);
    va_end(ap);
    return rc;
}

int rawin_fail_file(const rawin *in, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(in, 0, fmt, ap);
    va_end(ap);
    return rc;
}

int rawin_int64(const rawin *in, const char *s, int field, const char *what, int64_t *out)
{
    if (parse_int64(s, out) == 0)
        return 0;
    return rawin_fail(in, "field %d (%s): invalid integer '%.40s'", field, what, s);
}

int rawin_double(const rawin *in, const char *s, int field, const char *what, double *out)
{
    if (parse_double(s, out, 0) == 0)
        return 0;
    return rawin_fail(in, "field %d (%s): invalid number '%.40s'", field, what, s);
}

void rawin_close(rawin *in)
{
    if (!in)
        return;
    gzclose(in->gz);
    free(in->path);
    free(in->buf);
    free(in->work);
    free(in);
}
