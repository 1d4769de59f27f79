/* parse — strict conversions of text to numbers, times and durations (see parse.h). */
#include "base/parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int parse_double(const char *s, double *out, unsigned flags)
{
    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    if (parse_decimal_fast(s, out) == 0)
        return 0;
    /* strtod accepts hex floats, "infinity" and "nan(...)": be stricter. */
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    if (!(flags & PARSE_ALLOW_NONFINITE)) {
        if (!isdigit((unsigned char)*p) && *p != '.')
            return -1;
    }
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end)
        return -1;
    if (errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL))
        return -1;
    if (!isfinite(v) && !(flags & PARSE_ALLOW_NONFINITE))
        return -1;
    *out = v;
    return 0;
}

int parse_int64(const char *s, int64_t *out)
{
    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno == ERANGE)
        return -1;
    *out = (int64_t)v;
    return 0;
}

static int digits(const char **p, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)(*p)[i]))
            return -1;
        v = v * 10 + ((*p)[i] - '0');
    }
    *p += n;
    *out = v;
    return 0;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (Howard Hinnant's days_from_civil). */
static long long days_from_civil(long long y, unsigned m, unsigned d)
{
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long long)doe - 719468;
}

/* with_fraction: whole seconds plus the n fraction digits fd ("375" for
 * .375), rounded once, as strtod rounds the decimal: the same double as the
 * epoch text of the instant (1970-01-01T00:00:00.375Z is 0.375, where
 * adding 0.3 + 0.07 + 0.005 gave 0.37500000000000006).  Digits beyond the
 * 40th are dropped (a zeptosecond). */
static double with_fraction(long long whole, const char *fd, int n)
{
    char b[96], c[48];
    if (n > 40)
        n = 40;
    int zero = 1;
    for (int i = 0; i < n; i++)
        zero &= fd[i] == '0';
    if (whole >= 0 || zero) {
        snprintf(b, sizeof b, "%lld.%.*s", whole, n, fd);
    } else {
        /* whole + 0.F = -((-whole - 1) + (1 - 0.F)): 1 - 0.F is the
         * complement of the digits, plus one in the last place */
        for (int i = 0; i < n; i++)
            c[i] = (char)('9' - fd[i] + '0');
        c[n] = 0;
        for (int i = n - 1; i >= 0; i--) {
            if (c[i] < '9') {
                c[i]++;
                break;
            }
            c[i] = '0';
        }
        snprintf(b, sizeof b, "-%lld.%s", -whole - 1, c);
    }
    return strtod(b, NULL);
}

static int parse_iso8601(const char *s, double *out)
{
    const char *p = s;
    int y, mo, d, h = 0, mi = 0, sec = 0, nfrac = 0, frac = 0;
    const char *fd = NULL;
    if (digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) || *p++ != '-' || digits(&p, 2, &d))
        return -1;
    if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > 31) /* the proleptic Gregorian year 0 is not read */
        return -1;
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (d > mdays[mo - 1])
        return -1;
    if (mo == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
        return -1;
    int offset = 0;
    if (*p == 'T' || *p == ' ') {
        p++;
        if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi))
            return -1;
        if (*p == ':') {
            p++;
            if (digits(&p, 2, &sec))
                return -1;
            if (*p == '.' || *p == ',') {
                fd = ++p;
                if (!isdigit((unsigned char)*p))
                    return -1;
                while (isdigit((unsigned char)*p)) {
                    frac |= *p != '0';
                    p++;
                }
                nfrac = (int)(p - fd);
            }
        }
        if (h > 24 || mi > 59 || sec > 60 || (h == 24 && (mi || sec || frac)))
            return -1;
        if (*p == 'Z') {
            p++;
        } else if (*p == '+' || *p == '-') {
            int sign = *p == '-' ? -1 : 1, oh, om = 0;
            p++;
            if (digits(&p, 2, &oh))
                return -1;
            if (*p == ':' && !p[1])
                return -1; /* "+02:" */
            if (*p == ':')
                p++;
            if (*p && digits(&p, 2, &om))
                return -1;
            if (oh > 23 || om > 59)
                return -1;
            offset = sign * (oh * 3600 + om * 60);
        }
    }
    if (*p)
        return -1;
    /* a leap second is 23:59:60 UTC (read as the next second), never
     * another minute's 60th second */
    if (sec == 60 && ((h * 3600 + mi * 60 - offset) % 86400 + 86400) % 86400 != 86340)
        return -1;
    long long days = days_from_civil(y, (unsigned)mo, (unsigned)d);
    long long whole = days * 86400LL + h * 3600LL + mi * 60LL + sec - offset;
    *out = nfrac ? with_fraction(whole, fd, nfrac) : (double)whole;
    return 0;
}

int parse_time(const char *s, double *out)
{
    if (!s || !*s)
        return -1;
    /* ISO dates have '-' at position 4; epoch numbers never do. */
    if (isdigit((unsigned char)s[0]) && s[1] && s[2] && s[3] && s[4] == '-' && strlen(s) >= 10)
        return parse_iso8601(s, out);
    return parse_double(s, out, 0);
}

int parse_duration(const char *s, double *out)
{
    if (!s || !*s)
        return -1;
    double v;
    if (parse_double(s, &v, 0) == 0) {
        if (v < 0)
            return -1;
        *out = v;
        return 0;
    }
    double total = 0;
    const char *p = s + (*s == '+'); /* "+90s" as "+90" */
    int parts = 0;
    while (*p) {
        /* decimal parts only: strtod alone would read "0xe10s" as hex */
        if ((!isdigit((unsigned char)*p) && *p != '.') || (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')))
            return -1;
        char *end;
        double x = strtod(p, &end);
        if (end == p)
            return -1;
        double unit;
        switch (*end) {
        case 's': unit = 1; break;
        case 'm': unit = 60; break;
        case 'h': unit = 3600; break;
        case 'd': unit = 86400; break;
        case 'w': unit = 604800; break;
        default: return -1;
        }
        total += x * unit;
        p = end + 1;
        parts++;
    }
    if (!parts || !isfinite(total))
        return -1;
    *out = total;
    return 0;
}

int parse_kv_list(char *s, int (*fn)(const char *k, const char *v, void *ctx), void *ctx)
{
    char *save = NULL;
    for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok)
            return -1;
        *eq = 0;
        if (fn(tok, eq + 1, ctx))
            return -1;
    }
    return 0;
}

char *parse_time_format(double t, char *buf)
{
    time_t tt = (time_t)floor(t);
    struct tm tm;
    if (!isfinite(t) || !gmtime_r(&tt, &tm)) {
        buf[0] = 0;
        return buf;
    }
    strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}
