/* timeunit — the units times come in, and the checks that catch the wrong one.
 *
 * Telemetry exports write epoch times in seconds, milliseconds or
 * microseconds, and nothing in a CSV says which.  A tool reads times in
 * seconds; --time-unit ms|us says the input's epoch numbers are in ms or us
 * (the reader divides: see csv_dialect.time_scale).  When the unit is wrong
 * the magnitudes give it away: an epoch time of 1e12 s or more (beyond the
 * year 5138 by far) is really in ms, us or ns, and a derived period or duration of decades came
 * from times in a finer unit.  These helpers turn such values into a message
 * that names the likely unit.
 *
 * Threads: every function is pure (reads only its arguments).
 */
#ifndef SLOKIT_TIMEUNIT_H
#define SLOKIT_TIMEUNIT_H

#include <stddef.h>

/* timeunit_scale: input time units per second for a --time-unit name: "s" 1,
 * "ms" 1e3, "us" 1e6; 0 for any other name. */
double timeunit_scale(const char *name);

/* Whether --time-unit can fix an input's unit (csv_dialect.time_unit). */
enum timeunit_reach {
    TIMEUNIT_FIXED = 0, /* the tool has no --time-unit: the input is in seconds */
    TIMEUNIT_OTHER = 1, /* the tool's --time-unit applies to another input only */
    TIMEUNIT_OPTION = 2 /* --time-unit sets this input's unit */
};

/* timeunit_epoch_hint: for an epoch time read as `seconds` (after the
 * current scale) that is too large to be seconds, a hint naming the unit its
 * raw value `seconds * scale` most likely has, written to buf (cap bytes),
 * when the raw value is 1e9 to 1e11 seconds (2001 to 5138) in that unit:
 * [1e12, 1e14) ms, [1e15, 1e17) us, [1e18, 1e20) ns.  What it advises
 * depends on reach: TIMEUNIT_OPTION "it looks like milliseconds since the
 * epoch; use --time-unit ms"; otherwise "..., but this file takes epoch
 * seconds or ISO 8601: divide by 1000" (TIMEUNIT_OTHER adds "(--time-unit
 * is for the main input only)").  At most 160 bytes.  Returns buf, or NULL
 * (buf untouched) when the magnitude suggests no unit. */
const char *timeunit_epoch_hint(double seconds, double scale, enum timeunit_reach reach, char *buf,
                                size_t cap);

/* TIMEUNIT_MAX_SPAN: the longest period or duration (in seconds, 20 years)
 * a tool accepts as derived from real telemetry without a unit hint. */
#define TIMEUNIT_MAX_SPAN (20 * 365.25 * 86400)

/* timeunit_span_check: whether a period or duration a tool derived from the
 * input's times (what names it: "period", "duration") is plausible.
 * Returns 0 when |seconds| <= max_span (TIMEUNIT_MAX_SPAN if max_span <= 0);
 * else -1 with a message in buf: "derived period of 2739.7 years is
 * implausible: are the input times in ms or us? (use --time-unit ms or
 * --time-unit us)".  Tools print it with their FILE:LINE prefix. */
int timeunit_span_check(const char *what, double seconds, double max_span, char *buf, size_t cap);

#endif
