/* native — the ResourceEstimator native skyline log, one line (see native.h). */
#include "morpheus/native.h"

#include "base/diag.h"
#include "base/parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* "memoryMB:vcores" with an optional trailing '|' */
static int container_spec(char *s, struct native_run *r, char *err, size_t len)
{
    size_t n = strlen(s);
    if (n && s[n - 1] == '|')
        s[--n] = 0;
    char *colon = strchr(s, ':');
    if (colon)
        *colon = 0;
    if (!colon || parse_double(s, &r->mem_mb, 0) < 0 || parse_double(colon + 1, &r->vcores, 0) < 0 ||
        r->mem_mb < 0 || r->vcores < 0 || r->mem_mb > 1e12 || r->vcores > 1e9) {
        if (colon)
            *colon = ':';
        return fail(err, len, "field 7 (container): invalid spec '%s' (want memoryMB:vcores)", s);
    }
    return 0;
}

static int skyline(char *s, struct native_run *r, char *err, size_t len)
{
    r->n = 0;
    for (char *u = s, *next; *u; u = next) {
        next = strchr(u, '|');
        if (next)
            *next++ = 0;
        else
            next = u + strlen(u);
        if (!*u) {
            if (*next)
                return fail(err, len, "field 8 (skyline): empty unit ('||')");
            break;
        }
        char *colon = strchr(u, ':');
        int64_t c, off;
        if (colon)
            *colon = 0;
        if (!colon || parse_int64(u, &c) < 0 || parse_int64(colon + 1, &off) < 0 || c < 0 || off < 0 ||
            c > 1000000000 || off > 100000000000LL) {
            if (colon)
                *colon = ':';
            return fail(err, len, "field 8 (skyline): invalid unit '%s' (want containers:offset, "
                        "non-negative integers)", u);
        }
        r->u = xgrow(r->u, &r->cap, r->n + 1, sizeof *r->u);
        r->u[r->n++] = (struct native_unit){(double)c, (double)off};
    }
    if (!r->n)
        return fail(err, len, "field 8 (skyline): no containers:offset units");
    return 0;
}

int native_parse(char *line, struct native_run *r, char *err, size_t len)
{
    char *f[9];
    int nf = 0;
    int rm_log = strstr(line, "resourcemanager") || strstr(line, "String1=") || strstr(line, "APPID=");
    char *save = NULL;
    for (char *p = strtok_r(line, " \t\r\n", &save); p; p = strtok_r(NULL, " \t\r\n", &save)) {
        if (nf < 9)
            f[nf] = p;
        nf++;
    }
    if (nf == 0)
        return 0;
    if (nf != 8 && rm_log)
        return fail(err, len, "this is a YARN ResourceManager log line, not a native skyline log "
                    "(skyfit reads only the ResourceEstimator native format)");
    if (nf != 8)
        return fail(err, len, "expected 8 blank-separated fields "
                    "(name instances submit start end runId mem skyline), found %d", nf);
    r->job = f[0];
    r->run = f[5];
    if (parse_int64(f[3], &r->start_ms) < 0 || r->start_ms < 0)
        return fail(err, len, "field 4 (start): invalid time '%s' (want epoch milliseconds)", f[3]);
    if (parse_int64(f[4], &r->end_ms) < 0 || r->end_ms < r->start_ms)
        return fail(err, len, "field 5 (end): invalid time '%s' (want epoch milliseconds, "
                    "not before the start)", f[4]);
    if (container_spec(f[6], r, err, len) < 0 || skyline(f[7], r, err, len) < 0)
        return -1;
    return 1;
}

void native_coverage(const struct native_run *r, double interval, double *covered, double *length)
{
    double last = 0;
    for (size_t i = 0; i < r->n; i++)
        if (r->u[i].offset > last)
            last = r->u[i].offset;
    *covered = r->n ? last + interval : 0;
    *length = (double)(r->end_ms - r->start_ms) / 1000;
}

void native_free(struct native_run *r)
{
    free(r->u);
    r->u = NULL;
    r->n = r->cap = 0;
}
