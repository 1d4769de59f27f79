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

enum {
    PARSE_ALLOW_NONFINITE = 1u << 0 /* accept nan, inf, -inf */
};

/* parse_double: a decimal or scientific number.  Rejects nan/inf unless
 * PARSE_ALLOW_NONFINITE; rejects hex floats; rejects overflow to inf. */
int parse_double(const char *s, double *out, unsigned flags);

/* parse_int64: a decimal integer that fits int64_t (no sign-wrapping). */
int parse_int64(const char *s, int64_t *out);

/* parse_time: epoch seconds UTC (integer or fractional), or ISO 8601 UTC:
 * YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS[.fff]] with optional 'Z' or +HH:MM/-HH:MM
 * offset (a space may replace the 'T').  Result in epoch seconds. */
int parse_time(const char *s, double *out);

/* parse_duration: seconds, either a plain number ("90", "1.5") or numbers with
 * units s, m, h, d, w that add up ("90s", "15m", "1h30m", "1d").  Must be >= 0. */
int parse_duration(const char *s, double *out);

/* parse_kv_list: split "k1=v1,k2=v2" in place; calls fn(key, value, ctx) for each
 * pair; stops and returns -1 when a pair has no '=' or fn returns non-zero. */
int parse_kv_list(char *s, int (*fn)(const char *k, const char *v, void *ctx), void *ctx);

/* parse_time_format: write t (epoch seconds) as "YYYY-MM-DDTHH:MM:SSZ" into buf
 * (at least 32 bytes); fractional seconds are dropped.  Returns buf. */
char *parse_time_format(double t, char *buf);

#endif
