/* Unit tests for lib/base/parse and number formatting in lib/csvio. */
#include "base/csvio.h"
#include "base/parse.h"
#include "unit.h"

#include <stdlib.h>

int main(void)
{
    double v;
    int64_t i;
    CHECK(parse_double("1.5", &v, 0) == 0 && v == 1.5);
    CHECK(parse_double("-2e3", &v, 0) == 0 && v == -2000);
    CHECK(parse_double(".5", &v, 0) == 0 && v == 0.5);
    CHECK(parse_double("1x", &v, 0) < 0);
    CHECK(parse_double("", &v, 0) < 0);
    CHECK(parse_double(" 1", &v, 0) < 0);
    CHECK(parse_double("1 ", &v, 0) < 0);
    CHECK(parse_double("nan", &v, 0) < 0);
    CHECK(parse_double("inf", &v, 0) < 0);
    CHECK(parse_double("-inf", &v, 0) < 0);
    CHECK(parse_double("0x10", &v, 0) < 0);
    CHECK(parse_double("1e400", &v, 0) < 0);
    CHECK(parse_double("1e300", &v, 0) == 0 && v == 1e300);
    CHECK(parse_double("nan", &v, PARSE_ALLOW_NONFINITE) == 0 && isnan(v));
    CHECK(parse_int64("9223372036854775807", &i) == 0 && i == INT64_MAX);
    CHECK(parse_int64("9223372036854775808", &i) < 0);
    CHECK(parse_int64("12.0", &i) < 0);

    /* The fast path must agree with strtod bit for bit on every plain decimal
     * (random mantissas and decimal counts, signs, leading zeros, the 2^53 and
     * 19-digit edges), and leave everything else to strtod. */
    {
        unsigned long long x = 0x9E3779B97F4A7C15ULL;
        int same = 1;
        char txt[64];
        for (int k = 0; k < 200000; k++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            int nd = 1 + (int)(x % 19), dot = (int)((x >> 8) % (unsigned)(nd + 1));
            int n = 0;
            if ((x >> 20) & 1)
                txt[n++] = '-';
            unsigned long long y = x;
            for (int q = 0; q < nd; q++) {
                if (q == dot && q > 0)
                    txt[n++] = '.';
                txt[n++] = (char)('0' + (y % 10));
                y = y / 10 ^ (y << 7);
            }
            txt[n] = 0;
            double a, b = strtod(txt, NULL);
            if (parse_double(txt, &a, 0) < 0 || memcmp(&a, &b, sizeof a) != 0) {
                fprintf(stderr, "fast path differs on '%s'\n", txt);
                same = 0;
                break;
            }
        }
        CHECK(same);
        const char *edge[] = {"9007199254740992", "9007199254740993", "1234567890123456789", "0.0000000000000000000001",
                              "12345678901234567890", "-0", "-0.0", "00001.50", "0.1", "1767571200", "1e5"};
        for (size_t e = 0; e < sizeof edge / sizeof *edge; e++) {
            double a, b = strtod(edge[e], NULL);
            CHECK(parse_double(edge[e], &a, 0) == 0 && memcmp(&a, &b, sizeof a) == 0);
        }
        /* parse_decimal_fast itself, 1 to 26 characters of digits, a dot
         * anywhere, a junk byte after any digit: where it answers it answers
         * strtod's double, it answers every short plain decimal, it refuses
         * junk (its digit loop takes four at a time: every remainder) */
        int fast_ok = 1, answered = 0, short_plain = 0;
        for (int k = 0; k < 200000 && fast_ok; k++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            int nd = 1 + (int)(x % 26), dot = (int)((x >> 8) % (unsigned)(nd + 1));
            int junk = (x >> 21) % 8 == 0 ? (int)((x >> 24) % (unsigned)nd) : -1;
            int n = 0;
            unsigned long long y = x;
            for (int q = 0; q < nd; q++) {
                if (q == dot && q > 0)
                    txt[n++] = '.';
                txt[n++] = (char)('0' + (y % 10));
                if (q == junk)
                    txt[n++] = "x -+e/:"[y % 7];
                y = y / 10 ^ (y << 7);
            }
            txt[n] = 0;
            double a, b = strtod(txt, NULL);
            int rc = parse_decimal_fast(txt, &a);
            int plain = junk < 0 && nd <= 15;
            short_plain += plain;
            if (rc == 0) {
                answered++;
                fast_ok = junk < 0 && memcmp(&a, &b, sizeof a) == 0;
            } else if (plain)
                fast_ok = 0;
            if (!fast_ok)
                fprintf(stderr, "parse_decimal_fast wrong on '%s' (rc %d)\n", txt, rc);
        }
        CHECK(fast_ok && short_plain > 50000 && answered >= short_plain);
        CHECK(parse_double("1.", &v, 0) < 0 || v == 1);
        CHECK(parse_double("-", &v, 0) < 0);
        CHECK(parse_double("--1", &v, 0) < 0);
        CHECK(parse_double("1.2.3", &v, 0) < 0);
    }

    /* times: epoch, ISO with Z, offsets, fractional, date only */
    CHECK(parse_time("1480000000", &v) == 0 && v == 1480000000);
    CHECK(parse_time("1480000000.25", &v) == 0 && v == 1480000000.25);
    CHECK(parse_time("1970-01-01T00:00:00Z", &v) == 0 && v == 0);
    CHECK(parse_time("2016-11-24T15:06:40Z", &v) == 0 && v == 1480000000);
    CHECK(parse_time("2016-11-24 15:06:40", &v) == 0 && v == 1480000000);
    CHECK(parse_time("2016-11-24T16:06:40+01:00", &v) == 0 && v == 1480000000);
    CHECK(parse_time("2016-11-24T10:06:40-0500", &v) == 0 && v == 1480000000);
    CHECK(parse_time("2016-11-24T15:06:40.5Z", &v) == 0 && v == 1480000000.5);
    /* a fraction is read as the epoch text of the instant is (one rounding) */
    CHECK(parse_time("1970-01-01T00:00:00.375Z", &v) == 0 && v == strtod("0.375", NULL));
    CHECK(parse_time("1970-01-01T01:44:40.370102Z", &v) == 0 && v == strtod("6280.370102", NULL));
    CHECK(parse_time("1970-01-01T03:44:40.370102+02:00", &v) == 0 && v == strtod("6280.370102", NULL));
    CHECK(parse_time("2026-01-05T00:35:09.123456789Z", &v) == 0 && v == strtod("1767573309.123456789", NULL));
    CHECK(parse_time("1969-12-31T23:59:50.375Z", &v) == 0 && v == strtod("-9.625", NULL));
    CHECK(parse_time("1969-12-31T23:59:50,000Z", &v) == 0 && v == -10);
    CHECK(parse_time("1969-12-31T23:59:59.9Z", &v) == 0 && v == strtod("-0.1", NULL));
    CHECK(parse_time("2016-11-24T24:00:00.0Z", &v) == 0 && v == 1480032000);
    CHECK(parse_time("2016-11-24T24:00:00.01Z", &v) < 0);
    CHECK(parse_time("2000-02-29", &v) == 0 && v == 951782400);
    CHECK(parse_time("2001-02-29", &v) < 0);
    CHECK(parse_time("2016-13-01", &v) < 0);
    CHECK(parse_time("2016-11-24T25:00", &v) < 0);
    CHECK(parse_time("2016-11-24Tx", &v) < 0);
    CHECK(parse_time("yesterday", &v) < 0);
    /* the audit's malformed forms (Python's fromisoformat refuses them too) */
    CHECK(parse_time("2026-01-05T00:00:00+02:", &v) < 0);
    CHECK(parse_time("2026-01-05T00:00:00+02", &v) == 0 && v == 1767564000);
    CHECK(parse_time("2026-01-05T12:34:60Z", &v) < 0);
    CHECK(parse_time("2016-12-31T23:59:60Z", &v) == 0 && v == 1483228800);
    CHECK(parse_time("2017-01-01T01:59:60+02:00", &v) == 0 && v == 1483228800);
    CHECK(parse_time("2016-12-31T23:59:60+02:00", &v) < 0);
    CHECK(parse_time("0000-01-01", &v) < 0);
    CHECK(parse_time("0001-01-01", &v) == 0 && v == -62135596800.0);
    CHECK(parse_time("20260105", &v) == 0 && v == 20260105); /* basic format: an epoch number */
    CHECK(parse_time("20260105T000000Z", &v) < 0);
    char buf[32];
    CHECK_STR(parse_time_format(1480000000, buf), "2016-11-24T15:06:40Z");

    /* durations */
    CHECK(parse_duration("90", &v) == 0 && v == 90);
    CHECK(parse_duration("90s", &v) == 0 && v == 90);
    CHECK(parse_duration("15m", &v) == 0 && v == 900);
    CHECK(parse_duration("1h30m", &v) == 0 && v == 5400);
    CHECK(parse_duration("1d", &v) == 0 && v == 86400);
    CHECK(parse_duration("1w", &v) == 0 && v == 604800);
    CHECK(parse_duration("-5", &v) < 0);
    CHECK(parse_duration("5x", &v) < 0);
    CHECK(parse_duration("m", &v) < 0);
    CHECK(parse_duration("+3600", &v) == 0 && v == 3600);
    CHECK(parse_duration("+3600s", &v) == 0 && v == 3600);
    CHECK(parse_duration("+1h30m", &v) == 0 && v == 5400);
    CHECK(parse_duration("+", &v) < 0);
    CHECK(parse_duration("0xe10s", &v) < 0);
    CHECK(parse_duration("0x1p0h", &v) < 0);
    CHECK(parse_duration("1h0x1s", &v) < 0);
    CHECK(parse_duration("0.5h", &v) == 0 && v == 1800);

    /* number formatting: shortest round trip, integers, NaN as empty, fixed precision */
    char b[48];
    csv_format_double(b, 0.1, -1);
    CHECK_STR(b, "0.1");
    csv_format_double(b, 1.0 / 3, -1);
    CHECK(strtod(b, NULL) == 1.0 / 3);
    csv_format_double(b, 42, -1);
    CHECK_STR(b, "42");
    csv_format_double(b, -7, -1);
    CHECK_STR(b, "-7");
    csv_format_double(b, 1e300, -1);
    CHECK(strtod(b, NULL) == 1e300);
    csv_format_double(b, NAN, -1);
    CHECK_STR(b, "");
    csv_format_double(b, INFINITY, 3);
    CHECK_STR(b, "");
    csv_format_double(b, 2.0 / 3, 3);
    CHECK_STR(b, "0.667");
    csv_format_double(b, -0.0001, 2);
    CHECK_STR(b, "0.00");
    /* random round trips */
    unsigned long long x = 88172645463325252ULL;
    int ok = 1;
    for (int k = 0; k < 10000; k++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        double d;
        memcpy(&d, &x, sizeof d);
        if (!isfinite(d))
            continue;
        csv_format_double(b, d, -1);
        ok &= strtod(b, NULL) == d;
    }
    CHECK(ok);
    return unit_done("parse-format");
}
