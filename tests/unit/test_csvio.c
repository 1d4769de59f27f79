/* Unit tests for lib/base: the CSV dialect (renames by role, time units),
 * the framing scan (csv_scan), --on-error skip (held errors, csvr_skip, csvr_reject_at), decompression
 * (zin: gzip, zstd, concatenation, truncation, live pipes) and timeunit. */
#include "base/csvio.h"
#include "base/diag.h"
#include "base/timeunit.h"
#include "base/zin.h"
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

static FILE *mem(const char *s) { return fmemopen((void *)s, strlen(s), "rb"); }

static void test_dialect(void)
{
    static const struct csv_rename ren[] = {
        {NULL, "job", "name"},          /* primary input */
        {"classes", "tenant", "user"},  /* only the classes input */
        {"classes", "job", "pipeline"}, /* wins over the primary's rename there */
    };
    struct csv_dialect d = csv_dialect_plain;
    d.rename = ren;
    d.nrename = 3;
    d.primary = 1;
    CHECK_STR(csv_dialect_lookup(&d, "job"), "name");
    CHECK_STR(csv_dialect_lookup(&d, "tenant"), "tenant");
    CHECK_STR(csv_dialect_lookup(&d, "other"), "other");
    d.primary = 0;
    d.role = "classes";
    CHECK_STR(csv_dialect_lookup(&d, "job"), "pipeline");
    CHECK_STR(csv_dialect_lookup(&d, "tenant"), "user");
    d.role = "servers";
    CHECK_STR(csv_dialect_lookup(&d, "job"), "job"); /* plain renames are the primary's only */
    CHECK_STR(csv_dialect_lookup(&csv_dialect_plain, "job"), "job");

    /* delimiter, names and time_scale reach the reader */
    struct csv_dialect t = csv_dialect_plain;
    t.delim = ';';
    t.no_header = 1;
    t.names = "t,v";
    t.time_scale = 1e3;
    FILE *fp = mem("1767574800500;1\n2026-01-05T00:00:00Z;2\n");
    int st;
    csvr *r = csvr_open_fp_with(fp, "m", &t, 0, &st);
    CHECK(r != NULL);
    double v;
    CHECK(csvr_next(r) == 1 && csvr_get_time(r, csvr_col(r, "t"), &v, CSVR_REQUIRED) == 1);
    CHECK_NEAR(v, 1767574800.5, 1e-6);
    CHECK(csvr_next(r) == 1 && csvr_get_time(r, 0, &v, CSVR_REQUIRED) == 1);
    CHECK_NEAR(v, 1767571200, 0); /* ISO text is absolute, never scaled */
    CHECK(csvr_next(r) == 0);
    csvr_close(r);
    fclose(fp);
}

/* A dialect's keys: the reader looks up the names listed (renamed), and a
 * name not listed is the tool's bug: exit 70, in a child. */
static void test_dialect_keys(void)
{
    static const char *const keys[] = {"job", "t", NULL};
    static const struct csv_rename ren[] = {{NULL, "job", "name"}};
    struct csv_dialect d = csv_dialect_plain;
    d.keys = keys;
    d.rename = ren;
    d.nrename = 1;
    d.primary = 1;
    FILE *fp = mem("name,t\na,1\n");
    int st;
    csvr *r = csvr_open_fp_with(fp, "m", &d, 0, &st);
    CHECK(r != NULL);
    CHECK(csvr_col(r, "job") == 0 && csvr_col(r, "t") == 1);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr))
            _exit(2);
        (void)csvr_col(r, "util"); /* not a key: exits 70 */
        _exit(0);
    }
    int ws = 0;
    CHECK(pid > 0 && waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) && WEXITSTATUS(ws) == SLK_ESOFTWARE);
    csvr_close(r);
    fclose(fp);
}

/* csvr_require_cols: every column found in order; the missing ones -1,
 * every other one still found, and the reader failed */
static void test_require_cols(void)
{
    FILE *fp = mem("a,b,c\n1,2,3\n");
    int st, ca = -9, cb = -9, cc = -9;
    csvr *r = csvr_open_fp_with(fp, "m", &csv_dialect_plain, 0, &st);
    CHECK(r != NULL);
    CHECK(csvr_require_cols(r, "c", &cc, "a", &ca, (char *)NULL) == 0 && cc == 2 && ca == 0);
    CHECK(csvr_status(r) == SLK_OK);
    CHECK(csvr_require_cols(r, "b", &cb, "x", &ca, "c", &cc, (char *)NULL) == -1);
    CHECK(cb == 1 && ca == -1 && cc == 2);
    CHECK(csvr_status(r) == SLK_EDATA);
    csvr_close(r);
    fclose(fp);
}

/* stderr_to: standard error into a temporary file (returned) until
 * stderr_back; *save keeps the real one */
static FILE *stderr_to(int *save)
{
    FILE *tmp = tmpfile();
    fflush(stderr);
    *save = dup(2);
    dup2(fileno(tmp), 2);
    return tmp;
}

/* stderr_back: the real standard error back, what was written since
 * stderr_to in msg */
static void stderr_back(FILE *tmp, int save, char *msg, size_t cap)
{
    fflush(stderr);
    dup2(save, 2);
    close(save);
    rewind(tmp);
    size_t n = fread(msg, 1, cap - 1, tmp);
    msg[n] = 0;
    fclose(tmp);
}

/* require_said: csvr_require_list on a reader of text (dialect d) with
 * what it prints to stderr in msg; returns its result */
static int require_said(const char *text, const struct csv_dialect *d, const char *const *names, int *cols,
                        int n, char *msg, size_t cap)
{
    FILE *fp = mem(text);
    int st, save;
    csvr *r = csvr_open_fp_with(fp, "m", d, 0, &st);
    FILE *tmp = stderr_to(&save);
    int rc = r ? csvr_require_list(r, names, cols, n) : -9;
    stderr_back(tmp, save, msg, cap);
    CHECK(!r || (csvr_status(r) == SLK_OK) == (rc == 0));
    csvr_close(r);
    fclose(fp);
    return rc;
}

/* csvr_require_list: one missing column as csvr_require says it (hint
 * included), several in one line naming them all, renamed ones with their
 * key, each header hint once */
static void test_require_list(void)
{
    static const char *const names[] = {"job", "t", "used", "alloc"};
    int c[4];
    char msg[512];
    CHECK(require_said("alloc,used,t,job\n", &csv_dialect_plain, names, c, 4, msg, sizeof msg) == 0);
    CHECK(msg[0] == 0 && c[0] == 3 && c[1] == 2 && c[2] == 1 && c[3] == 0);
    CHECK(require_said("job,T,alloc\n", &csv_dialect_plain, names, c, 2, msg, sizeof msg) == -1);
    CHECK_STR(msg, "test_csvio: m:1: missing required column 't': the header has 'T' (column names are "
                   "case-sensitive)\n");
    CHECK(c[0] == 0 && c[1] == -1);
    CHECK(require_said("job,alloc\n", &csv_dialect_plain, names, c, 4, msg, sizeof msg) == -1);
    CHECK_STR(msg, "test_csvio: m:1: missing required columns 't' and 'used'\n");
    CHECK(c[0] == 0 && c[1] == -1 && c[2] == -1 && c[3] == 1);
    CHECK(require_said("x\n", &csv_dialect_plain, names, c, 4, msg, sizeof msg) == -1);
    CHECK_STR(msg, "test_csvio: m:1: missing required columns 'job', 't', 'used' and 'alloc'\n");
    CHECK(require_said("job;t;used\n", &csv_dialect_plain, names, c, 3, msg, sizeof msg) == -1);
    CHECK_STR(msg, "test_csvio: m:1: missing required columns 'job', 't' and 'used': the header is one field "
                   "holding ';' (use -d ';')\n");
    CHECK(require_said(" job,T\n", &csv_dialect_plain, names, c, 3, msg, sizeof msg) == -1);
    CHECK_STR(msg, "test_csvio: m:1: missing required columns 'job', 't' and 'used': the header has ' job', "
                   "with blanks around the name; the header has 'T' (column names are case-sensitive)\n");
    static const struct csv_rename ren[] = {{NULL, "job", "name"}};
    struct csv_dialect d = csv_dialect_plain;
    d.rename = ren, d.nrename = 1, d.primary = 1;
    CHECK(require_said("t\n", &d, names, c, 3, msg, sizeof msg) == -1);
    CHECK_STR(msg, "test_csvio: m:1: missing required columns 'name' (for job) and 'used'\n");
    CHECK(require_said("t,used\n", &d, names, c, 3, msg, sizeof msg) == -1);
    CHECK_STR(msg, "test_csvio: m:1: missing required column 'name' (for job)\n");
}

static void test_skip(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *log = open_memstream(&buf, &len);
    csv_rejects *j = csv_rejects_new(log);
    struct csv_dialect d = csv_dialect_plain;
    d.rejects = j;
    FILE *fp = mem("k,v\na,1\nb,x\nc\nd,4\na,5\n");
    int st;
    csvr *r = csvr_open_fp_with(fp, "in.csv", &d, 0, &st);
    double sum = 0, v;
    int rows = 0;
    while (csvr_next(r) > 0) {
        if (csvr_get_double(r, 1, &v, CSVR_REQUIRED) < 0) {
            CHECK(csvr_skip(r) == 1);
            CHECK(csvr_skip(r) == 0); /* nothing held any more */
            continue;
        }
        rows++;
        sum += v;
    }
    CHECK(csvr_status(r) == SLK_OK);
    CHECK(rows == 3 && sum == 10);
    CHECK(csvr_reject_at(r, 6, "duplicate key 'a' (first at line 2)") == 1);
    const char *group = "x";
    CHECK(csv_rejects_dropped(j, &group) == 0 && group == NULL);
    /* a good row dropped with its group's bad row: counted, and apart */
    CHECK(csvr_drop_at(r, 5, "job", "job 'd': dropped with line 3") == 1);
    CHECK(csv_rejects_count(j) == 4); /* line 3 bad number, line 4 short, line 6 duplicate, line 5 dropped */
    CHECK(csv_rejects_dropped(j, &group) == 1 && group && strcmp(group, "job") == 0);
    csvr_close(r);
    fclose(fp);
    csv_rejects_free(j);
    fclose(log);
    CHECK_STR(buf, "file,line,reason\nin.csv,3,column 'v': invalid number 'x'\n"
                   "in.csv,4,\"expected 2 fields (as in the header), found 1\"\n"
                   "in.csv,6,duplicate key 'a' (first at line 2)\n"
                   "in.csv,5,job 'd': dropped with line 3\n");
    free(buf);

    /* a held error the tool does not skip stops the reader as in strict mode */
    j = csv_rejects_new(NULL);
    d.rejects = j;
    fp = mem("k,v\na,x\nb,2\n");
    r = csvr_open_fp_with(fp, "in.csv", &d, 0, &st);
    CHECK(csvr_next(r) == 1 && csvr_get_double(r, 1, &v, CSVR_REQUIRED) < 0);
    CHECK(csvr_status(r) == SLK_EDATA);
    CHECK(csvr_next(r) == -1);
    CHECK(csv_rejects_count(j) == 0);
    csvr_close(r);
    fclose(fp);
    csv_rejects_free(j);

    /* strict: csvr_reject_at is an error */
    fp = mem("k\na\n");
    r = csvr_open_fp_with(fp, "in.csv", NULL, 0, &st);
    CHECK(csvr_next(r) == 1 && csvr_next(r) == 0);
    CHECK(csvr_reject_at(r, 2, "duplicate") == 0 && csvr_status(r) == SLK_EDATA);
    csvr_close(r);
    fclose(fp);
}

/* read all of z into a malloc'd buffer; *n its length; -1 on a zin error */
static int slurp(zin *z, char **out, size_t *n, size_t chunk)
{
    size_t cap = 1 << 16;
    char *b = malloc(cap);
    *n = 0;
    for (;;) {
        if (*n + chunk > cap)
            b = realloc(b, cap = 2 * (*n + chunk));
        ssize_t k = zin_read(z, b + *n, chunk);
        if (k < 0) {
            free(b);
            return -1;
        }
        if (k == 0)
            break;
        *n += (size_t)k;
    }
    *out = b;
    return 0;
}

static size_t gzip_bytes(const char *s, size_t n, unsigned char *out, size_t cap)
{
    z_stream zs = {0};
    deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    zs.next_in = (unsigned char *)s;
    zs.avail_in = (uInt)n;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    deflate(&zs, Z_FINISH);
    size_t len = cap - zs.avail_out;
    deflateEnd(&zs);
    return len;
}

static void test_zin(void)
{
    /* 200 KB of CSV text: bigger than one compressed-input buffer when stored */
    size_t n = 0, cap = 300000;
    char *text = malloc(cap);
    for (int i = 0; n < 200000; i++)
        n += (size_t)snprintf(text + n, cap - n, "job%d,%d,%d\n", i % 97, i, i * 7);
    unsigned char *gz = malloc(cap), *zs = malloc(cap), *two = malloc(2 * cap);
    size_t gn = gzip_bytes(text, n, gz, cap);
    size_t zn = ZSTD_compress(zs, cap, text, n, 3);
    CHECK(!ZSTD_isError(zn));

    struct {
        const unsigned char *b;
        size_t n;
        enum zin_kind k;
    } cases[] = {{(const unsigned char *)text, n, ZIN_PLAIN}, {gz, gn, ZIN_GZIP}, {zs, zn, ZIN_ZSTD}};
    for (int c = 0; c < 3; c++) {
        for (size_t chunk = 1000; chunk <= 1000000; chunk *= 1000) {
            FILE *fp = fmemopen((void *)cases[c].b, cases[c].n, "rb");
            zin *z = zin_open(fp, 0);
            CHECK(zin_kind(z) == cases[c].k);
            char *got;
            size_t gl;
            CHECK(slurp(z, &got, &gl, chunk) == 0);
            CHECK(gl == n && memcmp(got, text, n) == 0);
            free(got);
            zin_close(z);
            fclose(fp);
        }
    }
    /* concatenated members / frames read as one stream */
    for (int c = 1; c < 3; c++) {
        memcpy(two, cases[c].b, cases[c].n);
        memcpy(two + cases[c].n, cases[c].b, cases[c].n);
        FILE *fp = fmemopen(two, 2 * cases[c].n, "rb");
        zin *z = zin_open(fp, 0);
        char *got;
        size_t gl;
        CHECK(slurp(z, &got, &gl, 65536) == 0);
        CHECK(gl == 2 * n && memcmp(got, text, n) == 0 && memcmp(got + n, text, n) == 0);
        free(got);
        zin_close(z);
        fclose(fp);
    }
    /* truncation anywhere inside is an error with the kind's message, never a short success */
    size_t cuts[] = {2, 10, 100, 1000};
    for (int c = 1; c < 3; c++)
        for (int i = 0; i < 4; i++) {
            size_t cut = cases[c].n - cuts[i];
            FILE *fp = fmemopen((void *)cases[c].b, cut, "rb");
            zin *z = zin_open(fp, 0);
            char *got;
            size_t gl;
            CHECK(slurp(z, &got, &gl, 65536) == -1);
            CHECK(zin_status(z) == SLK_EDATA);
            CHECK(strstr(zin_error(z), c == 1 ? "truncated gzip input" : "truncated zstd input") != NULL);
            zin_close(z);
            fclose(fp);
        }
    /* corrupt data */
    memcpy(two, gz, gn);
    memset(two + gn / 2, 0xff, 64);
    FILE *fp = fmemopen(two, gn, "rb");
    zin *z = zin_open(fp, 0);
    char *got;
    size_t gl;
    CHECK(slurp(z, &got, &gl, 65536) == -1 && strstr(zin_error(z), "gzip input") != NULL);
    zin_close(z);
    fclose(fp);

    /* live input (partial reads) through a pipe, a few bytes at a time */
    int pfd[2];
    CHECK(pipe(pfd) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(pfd[0]);
        for (size_t off = 0; off < gn; off += 7)
            if (write(pfd[1], gz + off, gn - off < 7 ? gn - off : 7) < 0)
                _exit(1);
        _exit(0);
    }
    close(pfd[1]);
    FILE *pf = fdopen(pfd[0], "rb");
    z = zin_open(pf, 1);
    CHECK(zin_kind(z) == ZIN_GZIP);
    CHECK(slurp(z, &got, &gl, 1 << 20) == 0);
    CHECK(gl == n && memcmp(got, text, n) == 0);
    free(got);
    zin_close(z);
    fclose(pf);

    free(text);
    free(gz);
    free(zs);
    free(two);
}

static void test_timeunit(void)
{
    char b[160];
    CHECK(timeunit_scale("s") == 1 && timeunit_scale("ms") == 1e3 && timeunit_scale("us") == 1e6);
    CHECK(timeunit_scale("ns") == 0 && timeunit_scale(NULL) == 0);
    CHECK(timeunit_epoch_hint(1.7e9, 1, TIMEUNIT_OPTION, b, sizeof b) == NULL);
    CHECK(timeunit_epoch_hint(1.7e12, 1, TIMEUNIT_OPTION, b, sizeof b) && strstr(b, "--time-unit ms"));
    CHECK(timeunit_epoch_hint(1.7e15, 1, TIMEUNIT_OPTION, b, sizeof b) && strstr(b, "--time-unit us"));
    CHECK(timeunit_epoch_hint(1.7e12, 1e3, TIMEUNIT_OPTION, b, sizeof b) &&
          strstr(b, "--time-unit us")); /* ms given, us meant */
    CHECK(timeunit_epoch_hint(1.7e18, 1, TIMEUNIT_OPTION, b, sizeof b) && strstr(b, "nanoseconds"));
    CHECK(timeunit_epoch_hint(-1e300, 1, TIMEUNIT_OPTION, b, sizeof b) == NULL);
    /* seconds just past the limit (a trace started near it) are no unit:
     * the ms hint came for anything from 1e11 on */
    CHECK(timeunit_epoch_hint(1.00000073174e11, 1, TIMEUNIT_OPTION, b, sizeof b) == NULL);
    CHECK(timeunit_epoch_hint(9.99e11, 1, TIMEUNIT_OPTION, b, sizeof b) == NULL);
    CHECK(timeunit_epoch_hint(1e12, 1, TIMEUNIT_OPTION, b, sizeof b) && strstr(b, "--time-unit ms"));
    CHECK(timeunit_epoch_hint(5e14, 1, TIMEUNIT_OPTION, b, sizeof b) == NULL);
    /* an input --time-unit does not reach: no advice to use it */
    CHECK(timeunit_epoch_hint(1.7e12, 1, TIMEUNIT_FIXED, b, sizeof b) && !strstr(b, "--time-unit") &&
          strstr(b, "milliseconds") && strstr(b, "divide by 1000") && strstr(b, "epoch seconds or ISO 8601"));
    CHECK(timeunit_epoch_hint(1.7e15, 1, TIMEUNIT_OTHER, b, sizeof b) && strstr(b, "divide by 1000000") &&
          strstr(b, "--time-unit is for the main input only") && strlen(b) < sizeof b - 1);
    CHECK(timeunit_epoch_hint(1.7e18, 1, TIMEUNIT_FIXED, b, sizeof b) && strstr(b, "divide by 1000000000"));
    CHECK(timeunit_epoch_hint(1.7e9, 1, TIMEUNIT_FIXED, b, sizeof b) == NULL);
    CHECK(timeunit_span_check("period", 86400, 0, b, sizeof b) == 0);
    /* a daily job whose times were microseconds: "period" 8.64e10 s */
    CHECK(timeunit_span_check("period", 8.64e10, 0, b, sizeof b) == -1);
    CHECK(strstr(b, "derived period of 2737.9 years is implausible") != NULL);
    CHECK(timeunit_span_check("duration", 400 * 86400.0, 365 * 86400.0, b, sizeof b) == -1);
}

static void test_writer(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    struct csv_dialect d = csv_dialect_plain;
    d.delim = ';';
    csvw *w = csvw_new_with(fp, &d);
    csvw_str(w, "plain");
    csvw_str(w, "a;b");      /* the delimiter: quoted */
    csvw_str(w, "a,b");      /* a comma is plain text under ';' */
    csvw_str(w, "say \"hi\""); /* quotes doubled */
    csvw_str(w, "two\nlines");
    csvw_str(w, NULL);
    csvw_str(w, "");
    csvw_strn(w, "cr\rx", 4);
    csvw_end(w);
    csvw_int(w, INT64_MIN);
    csvw_int(w, 0);
    csvw_int(w, -42);
    csvw_num(w, 3);
    csvw_num(w, -0.0);
    csvw_num(w, 0.1);
    csvw_num(w, NAN);
    csvw_num_prec(w, 2.5, 2);
    csvw_end(w);
    /* a field longer than the writer's first buffer, with a quote at its end */
    char *big = malloc(10001);
    memset(big, 'x', 10000);
    big[9999] = '"';
    big[10000] = 0;
    csvw_str(w, big);
    csvw_end(w);
    csvw_free(w);
    fclose(fp);
    const char *want = "plain;\"a;b\";a,b;\"say \"\"hi\"\"\";\"two\nlines\";;;\"cr\rx\"\n"
                       "-9223372036854775808;0;-42;3;0;0.1;;2.50\n";
    size_t wl = strlen(want);
    CHECK(len == wl + 10000 + 3 + 1);
    CHECK(len > wl && memcmp(buf, want, wl) == 0);
    CHECK(len == wl + 10004 && buf[wl] == '"' && buf[wl + 1] == 'x' && memcmp(buf + wl + 9999, "x\"\"\"\n", 5) == 0);
    free(big);
    free(buf);
}

/* The reader's fast path splits a plain line eight bytes at a time: against
 * a naive split, on random lines of 1-40 bytes over an alphabet that holds
 * the delimiter, its neighbours in the byte table (',' ^ 1 is '-') and the
 * bytes that must leave the fast path, ',' and TAB as delimiters.  Lines
 * with a quote, a CR or a NUL go through libcsv: here only that they do not
 * split at a wrong place (a quoted line is checked against its own fields). */
static void test_fast_split(void)
{
    const char alpha[] = {'a', '-', '.', '0', '1', ' ', '+', '/', 'z'};
    uint64_t x = 12345;
    int bad = 0, lines = 0;
    for (int dl = 0; dl < 2; dl++) {
        char delim = dl ? '\t' : ',';
        struct csv_dialect d = csv_dialect_plain;
        d.delim = delim;
        d.no_header = 1;
        for (int rep = 0; rep < 400; rep++) {
            char line[64];
            int n = 1 + rep % 40;
            for (int i = 0; i < n; i++) {
                x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                int k = (int)((x >> 33) % 12);
                line[i] = k < 9 ? alpha[k] : delim;
            }
            line[n] = 0;
            char text[80];
            snprintf(text, sizeof text, "%s\n", line);
            FILE *fp = mem(text);
            int st;
            csvr *r = csvr_open_fp_with(fp, "fast", &d, 1, &st);
            int ok = r && csvr_next(r) == 1;
            /* the naive split */
            int nf = 0;
            const char *from = line;
            for (const char *p = line;; p++)
                if (*p == delim || !*p) {
                    size_t len = (size_t)(p - from);
                    const char *got = ok && nf < csvr_ncols(r) ? csvr_field(r, nf) : "?";
                    if (len == 0 ? got != NULL : !got || strlen(got) != len || memcmp(got, from, len) != 0)
                        ok = 0;
                    nf++;
                    from = p + 1;
                    if (!*p)
                        break;
                }
            if (!ok || nf != csvr_ncols(r))
                bad++;
            lines++;
            if (r)
                csvr_close(r);
            fclose(fp);
        }
    }
    CHECK(lines == 800 && bad == 0);
    /* a quote after the first eight bytes leaves the fast path for libcsv */
    FILE *fp = mem("abcdefghij,\"k,l\",m\n");
    int st;
    csvr *r = csvr_open_fp_with(fp, "q", &(struct csv_dialect){.delim = ',', .no_header = 1, .precision = -1}, 1, &st);
    CHECK(r && csvr_next(r) == 1 && csvr_ncols(r) == 3);
    if (r) {
        CHECK_STR(csvr_field(r, 1), "k,l");
        csvr_close(r);
    }
    fclose(fp);
}

/* csv_scan: hand-worked framings, then every case fed one byte at a time
 * must stop at the same event and byte as fed whole. */
static void test_scan(void)
{
    static const struct {
        const char *s;
        int ev;
        size_t used;
        long inner;
        int q, ctl;
    } cases[] = {
        {"a,b\nc", CSV_SCAN_END, 4, 0, CSV_SCAN_START, 0},
        {"a,b\r\nc", CSV_SCAN_END, 5, 0, CSV_SCAN_START, 0},
        {"a,b\r\r\nc", CSV_SCAN_END, 6, 0, CSV_SCAN_START, 0},
        {"a,b\rc\n", CSV_SCAN_LONE_CR, 4, 0, CSV_SCAN_PLAIN, 0}, /* stops at the byte after the CR */
        {"\"a\rb\",c\n", CSV_SCAN_END, 8, 0, CSV_SCAN_START, 0}, /* a CR inside quotes is data */
        {"\"a\nb\"\"\nc\",d\nx", CSV_SCAN_END, 12, 2, CSV_SCAN_START, 0},
        {"a\"b,\"c\nd\",e\n", CSV_SCAN_END, 12, 1, CSV_SCAN_START,
         0}, /* a quote inside a field opens nothing */
        {"\"open,\nstill", CSV_SCAN_MORE, 12, 1, CSV_SCAN_QUOTED, 0},
        {"a,b\r", CSV_SCAN_MORE, 4, 0, CSV_SCAN_PLAIN, 0},         /* the CR waits for the next byte */
        {"a\x01,b\rc", CSV_SCAN_LONE_CR, 5, 0, CSV_SCAN_PLAIN, 1}, /* binary: a control byte */
        {"a\tb\n", CSV_SCAN_END, 4, 0, CSV_SCAN_START, 0},         /* tab is text */
        {"\"q\"\r\n", CSV_SCAN_END, 5, 0, CSV_SCAN_START, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *s = cases[i].s;
        size_t n = strlen(s), used = 0;
        struct csv_scan_state st = {0};
        int ev = csv_scan(&st, s, n, ',', &used);
        CHECK_NEAR(ev, cases[i].ev, 0);
        CHECK_NEAR(used, cases[i].used, 0);
        CHECK_NEAR(st.inner, cases[i].inner, 0);
        CHECK_NEAR(st.q, cases[i].q, 0);
        CHECK_NEAR(st.ctl, cases[i].ctl, 0);
        struct csv_scan_state b = {0};
        size_t at = 0;
        int evb = CSV_SCAN_MORE;
        while (at < n && evb == CSV_SCAN_MORE) {
            size_t u;
            evb = csv_scan(&b, s + at, 1, ',', &u);
            at += u;
        }
        CHECK_NEAR(evb, ev, 0);
        CHECK_NEAR(at, used, 0);
        CHECK_NEAR(b.inner, st.inner, 0);
    }
    /* the delimiter is never a control byte, even when it is one */
    struct csv_scan_state st = {0};
    size_t used;
    CHECK_NEAR(csv_scan(&st,
                        "a\x1f"
                        "b\n",
                        4, '\x1f', &used),
               CSV_SCAN_END, 0);
    CHECK_NEAR(st.ctl, 0, 0);
}

/* required_quoted: csvr_field_required(r, col, name) with what it prints
 * to stderr in msg */
static const char *required_quoted(csvr *r, int col, const char *name, char *msg, size_t cap)
{
    int save;
    FILE *tmp = stderr_to(&save);
    const char *got = csvr_field_required(r, col, name);
    stderr_back(tmp, save, msg, cap);
    return got;
}

/* csvr_field_required: the field when present; when empty, NULL after
 * exactly "column 'NAME': missing value" at the row (NAME as given, or the
 * header's name when NULL), the reader stopped */
static void test_field_required(void)
{
    FILE *fp = mem("job,b\nj1,x\n,y\nj3,\n");
    int st;
    char msg[256];
    csvr *r = csvr_open_fp_with(fp, "m", &csv_dialect_plain, 0, &st);
    CHECK(r != NULL && csvr_next(r) == 1);
    CHECK_STR(required_quoted(r, 0, "job", msg, sizeof msg), "j1");
    CHECK_STR(required_quoted(r, 1, NULL, msg, sizeof msg), "x");
    CHECK(msg[0] == 0 && csvr_status(r) == SLK_OK);
    CHECK(csvr_next(r) == 1);
    CHECK(required_quoted(r, 0, "job", msg, sizeof msg) == NULL && csvr_status(r) == SLK_EDATA);
    CHECK_STR(msg, "test_csvio: m:3: column 'job': missing value\n");
    csvr_close(r);
    rewind(fp);
    r = csvr_open_fp_with(fp, "m", &csv_dialect_plain, 0, &st);
    CHECK(csvr_next(r) == 1 && csvr_next(r) == 1 && csvr_next(r) == 1);
    CHECK(required_quoted(r, 1, NULL, msg, sizeof msg) == NULL && csvr_status(r) == SLK_EDATA);
    CHECK_STR(msg, "test_csvio: m:4: column 'b': missing value\n");
    csvr_close(r);
    fclose(fp);
}

int main(void)
{
    slk_init("test_csvio");
    test_fast_split();
    test_scan();
    test_dialect();
    test_dialect_keys();
    test_require_cols();
    test_require_list();
    test_field_required();
    test_skip();
    test_zin();
    test_timeunit();
    test_writer();
    return unit_done("csvio-dialect-skip-zin-timeunit");
}
