/* diag — exit codes, error messages, memory helpers and progress (see diag.h). */
#include "base/diag.h"
#include "base/cli.h"

#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef SLOKIT_VERSION
#define SLOKIT_VERSION "0.0.0"
#endif

const char *slk_progname = "slokit";
static char version_text[128];
static char stdout_buf[1 << 16];

/* hold_std_fds: a closed standard descriptor is the number the next open
 * gets, so an output's temporary could become fd 2 and take every warning
 * and the summary, or a side output (--truth, --stats) fd 1 and take the
 * main output.  Each closed one is held by /dev/null opened the other way
 * round (0 for writing, 1 and 2 for reading): using it fails with EBADF, as
 * the closed descriptor did, and no file can take its number.  Exits 74 if
 * /dev/null cannot be opened for a closed one. */
static void hold_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
            continue;
        int got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
        if (got != fd) {
            /* got is -1 (no /dev/null) or, impossibly, another number */
            if (got > 2)
                close(got);
            dprintf(2, "%s: standard descriptor %d is closed and /dev/null cannot hold it\n", slk_progname,
                    fd);
            exit(SLK_EIO);
        }
    }
}

void slk_init(const char *progname)
{
    slk_progname = progname;
    hold_std_fds();
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    /* Case and character classes are ASCII whatever the environment says
     * (in tr_TR tolower('I') is not 'i': FINISHED was no --ok-status, WRITE
     * no event op); UTF-8, so that the system's translated messages keep
     * their letters (glibc has C.UTF-8 built in since 2.35). */
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        setlocale(LC_CTYPE, "C");
    snprintf(version_text, sizeof version_text,
             "%s (slokit) %s\nLicense: MIT. There is NO WARRANTY, to the extent permitted by law.",
             progname, SLOKIT_VERSION);
    argp_program_version = version_text;
    argp_err_exit_status = SLK_EUSAGE;
    setvbuf(stdout, stdout_buf, _IOFBF, sizeof stdout_buf);
}

/* The progress line (slk_progress): when it was last drawn, and whether it
 * is on the terminal now (a message first clears it). */
static double progress_last;
static int progress_shown;

static void vmsg(const char *file, long line, const char *prefix, const char *fmt, va_list ap)
{
    /* Build the whole line first so concurrent tools in a pipeline do not interleave. */
    char buf[2048];
    int n = 0;
    if (file && line > 0)
        n = snprintf(buf, sizeof buf, "%s: %s:%ld: %s", slk_progname, file, line, prefix);
    else if (file)
        n = snprintf(buf, sizeof buf, "%s: %s: %s", slk_progname, file, prefix);
    else
        n = snprintf(buf, sizeof buf, "%s: %s", slk_progname, prefix);
    if (n < 0 || (size_t)n >= sizeof buf)
        n = (int)sizeof buf - 1;
    vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
    /* One line, and no terminal controls from the data (a job named with an
     * ESC sequence could recolour, retitle or hide the operator's terminal):
     * embedded newlines fold to spaces so a bad value cannot forge extra
     * lines, other control bytes are written \xHH. */
    char out[4 * sizeof buf + 2];
    size_t len = 0;
    for (const unsigned char *c = (const unsigned char *)buf; *c; c++) {
        if (*c == '\n' || *c == '\r')
            out[len++] = ' ';
        else if ((*c < 0x20 && *c != '\t') || *c == 0x7f)
            len += (size_t)snprintf(out + len, 5, "\\x%02x", *c);
        else
            out[len++] = (char)*c;
    }
    out[len++] = '\n';
    out[len] = 0;
    if (progress_shown) { /* the message starts a clean line; progress redraws below it */
        fputs("\r\033[K", stderr);
        progress_shown = 0;
    }
    fputs(out, stderr);
}

void slk_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(NULL, 0, "", fmt, ap);
    va_end(ap);
}

void slk_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(NULL, 0, "", fmt, ap);
    va_end(ap);
}

int slk_quiet(void) { return slk_opt.quiet; }

void slk_error_at(const char *file, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(file ? file : "<stdin>", line, "", fmt, ap);
    va_end(ap);
}

void slk_warn_at(const char *file, long line, const char *fmt, ...)
{
    if (slk_quiet())
        return;
    va_list ap;
    va_start(ap, fmt);
    vmsg(file, line, "warning: ", fmt, ap);
    va_end(ap);
}

/* many_shown: count one more of m's messages; 1 when it is to be printed */
static int many_shown(struct slk_many *m)
{
    return __atomic_fetch_add(&m->n, 1, __ATOMIC_RELAXED) < slk_many_shown(m) && !slk_quiet();
}

int slk_many_shown(const struct slk_many *m) { return m->limit > 0 ? m->limit : SLK_MANY_SHOWN; }

void slk_warn_many(struct slk_many *m, const char *file, long line, const char *fmt, ...)
{
    if (!many_shown(m))
        return;
    va_list ap;
    va_start(ap, fmt);
    vmsg(file, line, "warning: ", fmt, ap);
    va_end(ap);
}

void slk_note_many(struct slk_many *m, const char *fmt, ...)
{
    if (!many_shown(m))
        return;
    va_list ap;
    va_start(ap, fmt);
    vmsg(NULL, 0, "", fmt, ap);
    va_end(ap);
}

char *slk_many_hold(struct slk_many *m, const char *fmt, ...)
{
    if (!many_shown(m))
        return NULL;
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = xmalloc(len > 0 ? (size_t)len + 1 : 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)len + 1, fmt, ap);
    va_end(ap);
    return s;
}

long slk_many_hidden(const struct slk_many *m)
{
    long n = __atomic_load_n(&m->n, __ATOMIC_RELAXED);
    return slk_quiet() || n <= slk_many_shown(m) ? 0 : n - slk_many_shown(m);
}

static int stdout_error_said;

void slk_stdout_error(int err)
{
    if (err == EPIPE || stdout_error_said)
        return;
    stdout_error_said = 1;
    slk_error("write error on standard output: %s", strerror(err));
}

static int (*finish_fn[4])(int);
static int nfinish;

void slk_at_finish(int (*fn)(int status))
{
    if (nfinish < 4)
        finish_fn[nfinish++] = fn;
}

static void oom(void);

static FILE *summary_fp;
static char *summary_buf;
static size_t summary_len;

FILE *slk_summary(void)
{
    if (!summary_fp && !(summary_fp = open_memstream(&summary_buf, &summary_len)))
        oom();
    return summary_fp;
}

/* summary_end: write the held summary to stderr when the run went through
 * (SLK_OK, or SLK_FAIL: a check the user asked for failed on outputs that
 * were written), and free it either way */
static void summary_end(int status)
{
    if (!summary_fp)
        return;
    if (fclose(summary_fp) != 0)
        oom(); /* open_memstream's only failure is growing its buffer */
    if ((status == SLK_OK || status == SLK_FAIL) && summary_len)
        fwrite(summary_buf, 1, summary_len, stderr);
    free(summary_buf);
    summary_fp = NULL;
    summary_buf = NULL;
    summary_len = 0;
}

int slk_finish(int status)
{
    slk_progress_done();
    for (int i = 0; i < nfinish; i++)
        status = finish_fn[i](status);
    nfinish = 0;
    if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
        slk_stdout_error(errno);
        status = status ? status : SLK_EIO;
    }
    summary_end(status);
    return status;
}

static void oom(void)
{
    fprintf(stderr, "%s: out of memory\n", slk_progname);
    exit(SLK_ESOFTWARE);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        oom();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        oom();
    return p;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        oom();
    return xrealloc(p, n * size);
}

void *xaligned(size_t align, size_t n)
{
    void *p = NULL;
    if (posix_memalign(&p, align, n ? n : 1) != 0)
        oom();
    return p;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = xmalloc(n);
    memcpy(d, s, n);
    return d;
}

void *xgrow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            oom();
        c *= 2;
    }
    p = xreallocarray(p, c, size);
    *cap = c;
    return p;
}

double slk_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* progress_gate: whether a progress line is drawn now, and if so mark it
 * drawn.  Reading the clock on every call would cost more than the work
 * itself, so it is read at every 1,024th count; a last count (the total
 * reached) is always drawn. */
static int progress_gate(uint64_t done, int last)
{
    if (!cli_progress_on() || ((done & 1023) != 0 && !last))
        return 0;
    double now = slk_now();
    if (now - progress_last < 0.25 && !last)
        return 0;
    progress_last = now;
    progress_shown = 1;
    return 1;
}

void slk_progress(const char *what, uint64_t done, uint64_t total)
{
    if (!progress_gate(done, done == total))
        return;
    if (total)
        fprintf(stderr, "\r%s: %s: %llu of %llu (%.0f%%)\033[K", slk_progname, what,
                (unsigned long long)done, (unsigned long long)total, 100.0 * (double)done / (double)total);
    else
        fprintf(stderr, "\r%s: %s: %llu\033[K", slk_progname, what, (unsigned long long)done);
}

int slk_progress_due(uint64_t done) { return (done & 1023) == 0 && cli_progress_on(); }

void slk_progress_read(const char *what, uint64_t done, double fraction)
{
    if (!(fraction >= 0)) {
        slk_progress(what, done, 0);
        return;
    }
    if (!progress_gate(done, 0))
        return;
    fprintf(stderr, "\r%s: %s: %llu (%.0f%% of the input)\033[K", slk_progname, what,
            (unsigned long long)done, 100.0 * (fraction > 1 ? 1 : fraction));
}

void slk_progress_done(void)
{
    if (progress_shown) {
        fputs("\r\033[K", stderr);
        progress_shown = 0;
    }
}
