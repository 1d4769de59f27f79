/* gen_requests — tracegen kind "requests": reservation requests for lcmpack,
 * as the join of what skyfit and sloinfer would write, for workloads too
 * large to push through the whole pipeline (benchmarks of 10,000 jobs).
 *
 * Output (the skyline side): job,step,offset,alloc,cores,mem_mb,gang, one row
 * per one-minute step (--set step=S).  Truth (--truth FILE, the SLO side):
 * job,period,a,d,runs,cv,slack_ratio,status,problematic with status
 * "actionable" for every job.
 *
 * The workload is "enterprise-like" (Morpheus §2): most jobs are daily, some
 * hourly or every few hours, a few have off-kilter periods (58 min, 25 h);
 * daily jobs' earliest starts fall on the hour when upstream data lands,
 * `night` times more often in the nightly batch hours 0-6 (default 2) and
 * twice as often in hours 20-23 as during the day, so unplanned starts pile
 * up; other periods start any minute of their period; windows are the run
 * time times a slack factor (uniform in 1.3 to `slack`, default 4); skylines are map-like (tall) then
 * reduce-like (lower) stages with noise; `rigid` of the jobs have stages that
 * must run whole (gang = the stage's containers), `gangs` more have a gang of
 * 2 to 8 containers; `problematic` of them are flagged (high cv).
 * Deterministic for a seed; memory of one job.
 */
#include "base/diag.h"
#include "gen/gen.h"
#include "base/rng.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const keys_requests[] = {"hourly", "offkilter", "rigid", "gangs", "slack", "problematic",
                                            "step", "maxc", "night", NULL};

static int gen_requests(const struct gen_params *p, csvw *out, csvw *truth)
{
    long n = p->count > 0 ? p->count : 1000;
    double hourly = gen_get(p, "hourly", 0.15), offk = gen_get(p, "offkilter", 0.03);
    double rigid = gen_get(p, "rigid", 0.1), gangs = gen_get(p, "gangs", 0.1);
    double slack = gen_get(p, "slack", 4), probl = gen_get(p, "problematic", 0.1);
    double step = gen_get(p, "step", 60), maxc = gen_get(p, "maxc", 100), night = gen_get(p, "night", 2);
    /* step at most a day and maxc at most a million containers: beyond, the
     * rows held values (step 1e308) the next tool refuses */
    if (!(step >= 1 && step <= 86400) || step != floor(step) || !(slack >= 1.3) || !(maxc >= 1 && maxc <= 1e6) ||
        hourly < 0 || offk < 0 ||
        !(night >= 0) ||
        hourly + offk > 1 || rigid < 0 || gangs < 0 || rigid + gangs > 1 || probl < 0 || probl > 1) {
        slk_error("requests: invalid --set values (step a whole number in [1, 86400], slack >= 1.3, maxc in [1, 1e6], "
                  "shares in [0, 1] with hourly+offkilter <= 1 and rigid+gangs <= 1, night >= 0)");
        return SLK_EUSAGE;
    }
    static const char *const cols[] = {"job", "step", "offset", "alloc", "cores", "mem_mb", "gang", NULL};
    static const char *const tcols[] = {"job", "period", "a", "d", "runs", "cv", "slack_ratio", "status",
                                        "problematic", NULL};
    csvw_header(out, cols);
    if (truth)
        csvw_header(truth, tcols);
    /* data drops: upstream inputs land on the hour, more of them at night
     * (the nightly batch) than during the day */
    double dropw[24], wsum = 0;
    for (int h = 0; h < 24; h++)
        wsum += dropw[h] = h < 7 ? night : h < 20 ? 1 : 2;
    for (long i = 0; i < n; i++) {
        char job[32];
        snprintf(job, sizeof job, "job%05ld", i);
        rng r;
        rng_seed_key(&r, p->seed, job);
        double u = rng_uniform(&r), period, dur;
        if (u < hourly) {
            period = 3600;
            dur = 120 + rng_below(&r, 9) * 60; /* 2 to 10 min */
        } else if (u < hourly + offk) {
            period = rng_uniform(&r) < 0.5 ? 58 * 60 : 25 * 3600;
            dur = period < 7200 ? 600 : 1800 + rng_below(&r, 60) * 60;
        } else {
            double v = rng_uniform(&r);
            period = v < 0.85 ? 86400 : v < 0.93 ? 6 * 3600 : 4 * 3600;
            dur = 600 + floor(rng_exp(&r, 2400) / 60) * 60;
            if (dur > period / 3)
                dur = floor(period / 3 / 60) * 60;
        }
        double a;
        if (period == 86400) {
            double v = rng_uniform(&r) * wsum, acc = 0;
            int k = 0;
            for (; k < 23; k++) {
                acc += dropw[k];
                if (v < acc)
                    break;
            }
            a = k * 3600 + floor(rng_exp(&r, 300) / 60) * 60;
            if (a >= period)
                a = period - 60;
        } else {
            a = floor(rng_uniform(&r) * period / 60) * 60; /* inputs land any minute of the period */
        }
        double sf = 1.3 + rng_uniform(&r) * (slack - 1.3);
        double d = a + ceil(dur * sf / 60) * 60;
        if (d - a > period)
            d = a + period;
        int isprob = rng_uniform(&r) < probl;
        double kind = rng_uniform(&r);
        int32_t gang = 1;
        int isrigid = kind < rigid;
        if (!isrigid && kind < rigid + gangs)
            gang = 2 + (int32_t)rng_below(&r, 7);
        double height = 1 + floor(rng_uniform(&r) * rng_uniform(&r) * maxc);
        double cores = 1, mem = rng_uniform(&r) < 0.5 ? 2048 : 4096;
        long steps = (long)(dur / step);
        if (steps < 1)
            steps = 1;
        long mapsteps = (long)ceil(steps * (0.3 + 0.4 * rng_uniform(&r)));
        for (long k = 0; k < steps; k++) {
            double h = k < mapsteps ? height : ceil(height * (0.2 + 0.5 * rng_uniform(&r)));
            h = fmax(1, round(h * (0.85 + 0.3 * rng_uniform(&r))));
            int32_t g = isrigid ? (int32_t)h : gang;
            if (!isrigid && gang > 1)
                h = ceil(h / gang) * gang;
            csvw_str(out, job);
            csvw_num(out, step); /* the step's length, as in skyfit's output */
            csvw_int(out, (int64_t)(k * step));
            csvw_num(out, h);
            csvw_num(out, cores);
            csvw_num(out, mem);
            csvw_int(out, g);
            csvw_end(out);
        }
        if (truth) {
            csvw_str(truth, job);
            csvw_num(truth, period);
            csvw_num(truth, a);
            csvw_num(truth, d);
            csvw_int(truth, 30);
            csvw_num(truth, isprob ? 0.6 + 0.4 * rng_uniform(&r) : 0.05 + 0.2 * rng_uniform(&r));
            csvw_num(truth, (d - a) / dur);
            csvw_str(truth, "actionable");
            csvw_int(truth, isprob);
            csvw_end(truth);
        }
    }
    return csvw_error(out) || (truth && csvw_error(truth)) ? SLK_EIO : SLK_OK;
}

const struct gen_kind gen_kind_requests = {
    "requests",
    "reservation requests for lcmpack: skylines (out) and their SLOs (--truth), enterprise-like mix",
    "job,step,offset,alloc,cores,mem_mb,gang",
    "job,period,a,d,runs,cv,slack_ratio,status,problematic",
    keys_requests,
    gen_requests,
    NULL, /* offsets, periods and windows: no epoch times */
};
