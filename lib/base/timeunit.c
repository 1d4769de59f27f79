/* timeunit — time units and the checks that catch the wrong one (see timeunit.h). */
#include "base/timeunit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double timeunit_scale(const char *name)
{
    if (!name)
        return 0;
    if (strcmp(name, "s") == 0)
        return 1;
    if (strcmp(name, "ms") == 0)
        return 1e3;
    if (strcmp(name, "us") == 0)
        return 1e6;
    return 0;
}

const char *timeunit_epoch_hint(double seconds, double scale, enum timeunit_reach reach, char *buf,
                                size_t cap)
{
    double raw = fabs(seconds) * (scale > 0 ? scale : 1);
    /* A raw value looks like a unit when in it, it is epoch seconds of
     * telemetry: from 1e9 (2001) to 1e11 (year 5138).  So [1e12, 1e14) is
     * ms, [1e15, 1e17) us, [1e18, 1e20) ns; a value in between (1.00000073e11,
     * seconds just past the limit) looks like none. */
    static const struct {
        double lo;
        const char *name, *opt, *divide;
    } units[] = {{1e12, "milliseconds", "ms", "1000"},
                 {1e15, "microseconds", "us", "1000000"},
                 {1e18, "nanoseconds", NULL, "1000000000"}};
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        if (!(raw >= units[i].lo && raw < units[i].lo * 100))
            continue;
        if (reach == TIMEUNIT_OPTION)
            snprintf(buf, cap, "it looks like %s since the epoch; %s%s", units[i].name,
                     units[i].opt ? "use --time-unit " : "convert to us, ms or s first",
                     units[i].opt ? units[i].opt : "");
        else
            snprintf(buf, cap,
                     "it looks like %s since the epoch, but this file takes epoch seconds or ISO 8601%s: "
                     "divide by %s",
                     units[i].name,
                     reach == TIMEUNIT_OTHER ? " (--time-unit is for the main input only)" : "",
                     units[i].divide);
        return buf;
    }
    return NULL;
}

int timeunit_span_check(const char *what, double seconds, double max_span, char *buf, size_t cap)
{
    if (max_span <= 0)
        max_span = TIMEUNIT_MAX_SPAN;
    if (!isfinite(seconds)) {
        snprintf(buf, cap, "derived %s is not a finite number of seconds", what);
        return -1;
    }
    if (fabs(seconds) <= max_span)
        return 0;
    snprintf(buf, cap,
             "derived %s of %.1f years is implausible: are the input times in ms or us? "
             "(use --time-unit ms or --time-unit us)",
             what, fabs(seconds) / (365.25 * 86400));
    return -1;
}
