/* parse — strict conversions of text to numbers, times and durations.
 *
 * Every function takes a NUL-terminated string and returns 0 on success or -1
 * when the whole string is not a valid value (leading/trailing blanks, "1x",
 * empty, overflow).  No function prints anything: callers add the file, line
 * and column (csvio does this for fields, cli for options).
 *
 * Threads: pure functions; safe from any thread.
 */
#ifndef SLOKIT_PARSE_H
#define SLOKIT_PARSE_H

#include <stdint.h>

/* parse_digits: append the decimal digits at p to *m (m = m * 10 + digit,
 * modulo 2^64), four at a time so that the multiply chain is a quarter as
 * long; returns the first non-digit.  Reads no byte past the NUL. */
static inline const char *parse_digits(const char *p, uint64_t *mp)
{
    uint64_t m = *mp;
    for (;;) {
        unsigned a = (unsigned)(p[0] - '0'), b, c, d;
        if (a > 9)
            break;
        if ((b = (unsigned)(p[1] - '0')) > 9) {
            m = m * 10 + a;
            p += 1;
            break;
        }
        if ((c = (unsigned)(p[2] - '0')) > 9) {
            m = m * 100 + a * 10 + b;
            p += 2;
            break;
        }
        if ((d = (unsigned)(p[3] - '0')) > 9) {
            m = m * 1000 + a * 100 + b * 10 + c;
            p += 3;
            break;
        }
        m = m * 10000 + (a * 1000 + b * 100 + c * 10 + d);
        p += 4;
    }
    *mp = m;
    return p;
}

/* Clinger's exact fast path: an optional '-', digits, optionally '.' and
 * more digits, at most 19 digits in all with mantissa m <= 2^53 and at most
 * 22 decimals, is exactly m / 10^k with m and 10^k exact doubles, so one
 * IEEE division rounds correctly: the same double strtod gives, several
 * times faster.  Telemetry is mostly such numbers.  Returns 0 with *out set,
 * -1 when the text is not of that form (the caller uses strtod).
 * parse_decimal_fast: that fast path alone, inline for the per-field
 * getters (csvio): where it succeeds, parse_double and parse_time give the
 * same value; where it fails, call them.
 * parse_decimal_fast_scaled: the same text divided by 10^e10 (0 <= e10 <= 22)
 * with the one rounding, m / 10^(k + e10) (what strtod gives for the text
 * with "e-E10" added): an epoch time in milliseconds (e10 3) becomes the
 * double that the same instant written in seconds reads as, where dividing
 * the parsed number by 1000 would round twice (6281857.268 ms would not be
 * 6281.857268 s).  -1 also when k + e10 > 22. */
static inline int parse_decimal_fast_scaled(const char *s, int e10, double *out)
{
    static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *p = s;
    int neg = *p == '-';
    p += neg;
    const char *digits = p;
    uint64_t m = 0;
    p = parse_digits(p, &m);
    long ni = p - digits, nf = 0;
    if (ni == 0 || ni > 19)
        return -1;
    if (*p == '.') {
        const char *f = ++p;
        p = parse_digits(p, &m);
        nf = p - f;
        if (nf == 0)
            return -1;
    }
    if (*p || ni + nf > 19 || nf + e10 > 22 || m > ((uint64_t)1 << 53))
        return -1;
    /* an integer (the usual epoch time or size) needs no division */
    double v = nf + e10 ? (double)m / p10[nf + e10] : (double)m;
    *out = neg ? -v : v;
    return 0;
}

static inline int parse_decimal_fast(const char *s, double *out)
{
    return parse_decimal_fast_scaled(s, 0, out);
}

enum {
    PARSE_ALLOW_NONFINITE = 1u << 0 /* accept nan, inf, -inf */
};

/* parse_double: a decimal or scientific number.  Rejects nan/inf unless
 * PARSE_ALLOW_NONFINITE; rejects hex floats; rejects overflow to inf. */
int parse_double(const char *s, double *out, unsigned flags);

/* parse_int64: a decimal integer that fits int64_t (no sign-wrapping). */
int parse_int64(const char *s, int64_t *out);

/* parse_time: epoch seconds UTC (integer or fractional), or ISO 8601 in
 * the extended format: YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS[.fff]] with an
 * optional 'Z' or offset +HH, +HHMM or +HH:MM (a space may replace the 'T';
 * ',' the '.'; no zone is UTC).  Years 0001-9999; 24:00:00 is the next
 * midnight; a second of 60 only as the leap second 23:59:60 UTC (the next
 * second).  The basic format (20260105, 20260105T000000Z) is not a date:
 * "20260105" is an epoch number.  Result in epoch seconds; a fraction is
 * rounded once, so the result is the double the instant's epoch text
 * ("0.375") gives. */
int parse_time(const char *s, double *out);

/* parse_duration: seconds, either a plain number ("90", "1.5") or decimal
 * numbers with units s, m, h, d, w that add up ("90s", "15m", "1h30m",
 * "1d"), an optional '+' first either way (no hex: "0xe10s" is refused, as
 * parse_double refuses "0xe10").  Must be >= 0. */
int parse_duration(const char *s, double *out);

/* parse_kv_list: split "k1=v1,k2=v2" in place; calls fn(key, value, ctx) for each
 * pair; stops and returns -1 when a pair has no '=' or fn returns non-zero. */
int parse_kv_list(char *s, int (*fn)(const char *k, const char *v, void *ctx), void *ctx);

/* parse_time_format: write t (epoch seconds) as "YYYY-MM-DDTHH:MM:SSZ" into buf
 * (at least 32 bytes); fractional seconds are dropped.  Returns buf. */
char *parse_time_format(double t, char *buf);

#endif
