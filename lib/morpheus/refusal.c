/* refusal — the text of lcmpack's rejected rows (see refusal.h). */
#include "morpheus/refusal.h"
#include "base/diag.h"
#include "base/parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long refusal_steps(const struct lowcost_req *q)
{
    return lowcost_need(q);
}

/* the request's demand, container-steps */
static int64_t area(const struct lowcost_req *q)
{
    int64_t a = 0;
    for (long k = 0; k < q->nstages; k++)
        a += q->stage[k].demand;
    return a;
}

/* the request's largest gang, containers (at least 1) */
static int32_t largest_gang(const struct lowcost_req *q)
{
    int32_t g = 1;
    for (long k = 0; k < q->nstages; k++)
        if (q->stage[k].gang > g)
            g = q->stage[k].gang;
    return g;
}

/* *par: the fewest containers at once that hold the request's area in w
 * steps, ceil(area / w) rounded up to its largest gang (0 when w < 1);
 * *peak: its skyline's highest maximum parallelism */
static void min_parallelism(const struct lowcost_req *q, long w, long *par, long *peak)
{
    int64_t g = largest_gang(q), m = 0;
    for (long k = 0; k < q->nstages; k++)
        if (q->stage[k].maxpar > m)
            m = q->stage[k].maxpar;
    *peak = (long)m;
    *par = 0;
    if (w < 1)
        return;
    int64_t p = (area(q) + w - 1) / w;
    *par = (long)((p + g - 1) / g * g);
}

/* too_big: when one gang of q is larger than the capacity at every step of
 * the cycle, the reason saying so in buf (1), else 0 */
static int too_big(const plan *p, const struct lowcost_req *q, int adhoc, char *buf, size_t n)
{
    int32_t g = largest_gang(q);
    double cores = g * q->cores, mem = g * q->mem_mb, cc = 0, cm = 0;
    for (long s = 0; s < p->nsteps; s++) {
        if (p->cap_cores[s] >= cores && p->cap_mem[s] >= mem)
            return 0;
        cc = p->cap_cores[s] > cc ? p->cap_cores[s] : cc;
        cm = p->cap_mem[s] > cm ? p->cap_mem[s] : cm;
    }
    char what[160];
    if (g > 1)
        snprintf(what, sizeof what,
                 "one gang of %d containers of cores=%.10g, mem_mb=%.10g (cores=%.10g, mem_mb=%.10g)", (int)g,
                 q->cores, q->mem_mb, cores, mem);
    else
        snprintf(what, sizeof what, "a container of cores=%.10g, mem_mb=%.10g", cores, mem);
    if (cc <= 0 || cm <= 0) /* no container fits: only capacity helps */
        snprintf(buf, n,
                 "%s is larger than the capacity at every step (at most cores=%.10g, mem_mb=%.10g: no %s at "
                 "any step); fix: a capacity with %s (--capacity or --capacity-file)",
                 what, cc, cm, cc <= 0 ? "cores" : "memory", cc <= 0 ? "cores" : "memory");
    else
        snprintf(buf, n,
                 "%s is larger than the capacity at every step (at most cores=%.10g, mem_mb=%.10g); fixes: "
                 "smaller containers (%s) or a larger capacity",
                 what, cc, cm,
                 adhoc ? "the ad-hoc file's cores,mem_mb" : "the skyline's cores,mem_mb, or --container");
    return 1;
}

/* places: whether q, its deadline d instead, holds the steps it needs */
static int places(const plan *p, const struct lowcost_req *q, double d)
{
    struct lowcost_req r = *q;
    long lo, hi;
    r.d = d;
    return lowcost_window(p, &r, &lo, &hi) == 0 && lo + lowcost_need(&r) <= hi;
}

/* deadline_text: the least deadline dmin (lowcost_least_deadline) as the
 * user gives it back, in buf (at least 32 bytes): seconds in the fewest
 * digits (10 or more) that lcmpack then places, or, for an ad-hoc request,
 * the epoch time in whole seconds (ISO 8601) rounded up to one that does */
static void deadline_text(const plan *p, const struct lowcost_req *q, double dmin, int adhoc, char *buf,
                          size_t n)
{
    if (adhoc) {
        double base = (double)q->instance * (double)p->lcm, t = ceil(base + dmin - 1e-6);
        while (!places(p, q, t - base) && t < base + dmin + 2)
            t += 1;
        parse_time_format(t, buf);
        return;
    }
    for (int prec = 10; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, dmin);
        if (places(p, q, strtod(buf, NULL)))
            return;
    }
}

/* held_text: what window [lo, hi) holds, in buf ("no whole 60 s step",
 * "8 whole steps of 60 s"); none: lowcost_window found no whole step */
static void held_text(const plan *p, int none, long lo, long hi, char *buf, size_t n)
{
    if (none)
        snprintf(buf, n, "no whole %ld s step", p->step);
    else
        snprintf(buf, n, "%ld whole steps of %ld s", hi - lo, p->step);
}

char *refusal_text(const plan *p, const struct lowcost_req *q, const char *why, int adhoc, double a_full,
                   const char *cut_by)
{
    long need = refusal_steps(q), lo = 0, hi = 0;
    char buf[800], more[256] = "", dl[40], held[64];
    if (too_big(p, q, adhoc, buf, sizeof buf))
        return xstrdup(buf);
    int none = lowcost_window(p, q, &lo, &hi) < 0;
    if (none)
        lo = hi = 0;
    else if (lo + need <= hi)
        return xstrdup(why);
    held_text(p, none, lo, hi, held, sizeof held);
    if (a_full < q->a) { /* --now (or, for an ad-hoc request, --at) cut the window */
        struct lowcost_req full = *q;
        full.a = a_full; /* and the cycle it opens in, as once_requests and adhoc_request count it */
        full.cycle = (int64_t)floor(((double)q->instance * q->period + a_full) / (double)p->lcm);
        if (places(p, &full, q->d)) {
            snprintf(buf, sizeof buf,
                     "%s %s: %s leaves [%g, %g] s of its window [%g, %g] s, %s, fewer than the %ld the %s",
                     adhoc ? "cut by" : "under way at", cut_by, cut_by, q->a, q->d, a_full, q->d, held, need,
                     adhoc ? "request needs" : "skyline needs at its maximum parallelism");
            return xstrdup(buf);
        }
        /* the request's own window is too short: say so, and its fixes */
        return refusal_text(p, &full, why, adhoc, a_full, cut_by);
    }
    long par, peak, most = lowcost_window_most(p, q);
    min_parallelism(q, most, &par, &peak);
    if (adhoc && need > (long)p->nsteps) {
        snprintf(
            buf, sizeof buf,
            "its duration is longer than the plan's cycle (%ld s): fixes in the ad-hoc file: requests of "
            "at most a cycle each, or more containers at once",
            p->lcm);
        return xstrdup(buf);
    }
    double dmin = lowcost_least_deadline(p, q);
    deadline_text(p, q, dmin, adhoc, dl, sizeof dl);
    if (adhoc) {
        if (par > 0)
            snprintf(more, sizeof more, ", or at least %ld containers at once for its %lld container-steps", par,
                     (long long)area(q));
        snprintf(buf, sizeof buf,
                 "window [%g, %g] s holds %s, fewer than the %ld the request needs; "
                 "fixes in the ad-hoc file: a deadline of at least %s%s",
                 q->a, q->d, held, need, dl, more);
        return xstrdup(buf);
    }
    if (par > 0)
        snprintf(
            more, sizeof more,
            ", or a job that runs at least %ld containers at once (its %lld container-steps over the "
            "%ld step%s its window can hold; its skyline peaks at %ld), so its runs and next skyline are "
            "shorter",
            par, (long long)area(q), most, most == 1 ? "" : "s", peak);
    static const char runs_fix[] =
        "a skyline of fewer or more recent runs (skyfit --last N, a lower --outlier-k: "
        "it is as long as the longest run kept, see longest_run in skyfit --stats)";
    /* d - a is at most the period (the SLO reader's rule: instance windows
     * never overlap), so a deadline fix past it is none */
    if (dmin - q->a > q->period + 1e-6)
        snprintf(
            buf, sizeof buf,
            "window [%g, %g] s holds %s, fewer than the %ld the skyline needs at its maximum parallelism, "
            "and no deadline d gives it them: d - a would be at least %.10g s, more than its period of "
            "%g s (the most d - a can be); fixes: %s%s",
            q->a, q->d, held, need, dmin - q->a, q->period, runs_fix, more);
    else if (q->d - q->a < (double)p->step) /* not even a skyline of one step fits */
        snprintf(buf, sizeof buf,
                 "window [%g, %g] s holds %s, fewer than the %ld the skyline needs at its "
                 "maximum parallelism; fix: a deadline d of at least %s s (sloinfer --override)",
                 q->a, q->d, held, need, dl);
    else
        snprintf(buf, sizeof buf,
                 "window [%g, %g] s holds %s, fewer than the %ld the skyline needs at its "
                 "maximum parallelism; fixes: a deadline d of at least %s s (sloinfer --override), %s%s",
                 q->a, q->d, held, need, dl, runs_fix, more);
    return xstrdup(buf);
}
