/* gen_taskmem — tracegen kind `taskmem`: per-task memory series of
 * well-behaved and poorly-behaved tasks (seed 004), the input of peakgate(1).
 *
 *   task,t,mem_mb,alloc_mb
 *   truth: task,class,normal_mb,peak_mb
 *
 * Every task follows the peak model of memprof.h (a noisy base level at
 * normal_mb and trapezoid peaks up to peak_mb whose start rate varies
 * sinusoidally with time).  The two classes differ in their parameters:
 *   poorly-behaved  normal uniform in [normal_min, normal_max], peak =
 *                   normal * uniform(1.8, 3.0), peaks every gap_s (210 s) for
 *                   peak_s (150 s) on average; alloc = peak * uniform(1, 1.05)
 *                   (the spikes approach the allocation)
 *   well-behaved    normal uniform in [2 normal_min, 2 normal_max], peak =
 *                   normal * uniform(1.10, 1.22), small bumps every 900 s for
 *                   300 s; alloc = peak / uniform(0.93, 0.97) (the paper's
 *                   Figure 3: the maximum about 5% below the allocation)
 * --set paper=1 makes every task the paper's simulated task: poorly-behaved,
 * normal 500 MB, peak 1200 MB, alloc 1200 MB.
 * The truth's normal_mb is the base level (recover it with peakgate --normal
 * p50; the mean includes the peaks) and peak_mb the plateau of the peaks.
 *
 * Keys: step (s, default 10), poor (fraction poorly-behaved, 0.6), normal_min
 * and normal_max (MB, 200 and 1500), gap_s, peak_s, amp (0.5), period_s
 * (3600), noise (0.03), first (number of the first task, 1), paper (0/1).
 *
 * Streams task by task; each task's numbers come from rng_seed_key(seed,
 * name), so --set first=N --count M gives exactly those tasks of the full
 * trace.  Memory is one task's model.
 */
#include "gen/gen.h"
#include "base/cli.h"
#include "base/diag.h"
#include "base/parse.h"
#include "memory/memprof.h"
#include "base/rng.h"

#include <math.h>
#include <stdio.h>

static const char *const keys[] = {"step", "poor", "normal_min", "normal_max", "gap_s", "peak_s",
                                   "amp", "period_s", "noise", "first", "paper", NULL};

static double unif(rng *r, double a, double b) { return a + (b - a) * rng_uniform(r); }

/* --days, 1 by default. */
static double taskmem_days(const struct gen_params *p) { return p->days > 0 ? p->days : 1; }

static int duration_ok(double v) { return v >= 1e-3 && v <= 1e15; }

static int generate(const struct gen_params *p, csvw *out, csvw *truth)
{
    double step = gen_get(p, "step", 10), poor = gen_get(p, "poor", 0.6);
    double nmin = gen_get(p, "normal_min", 200), nmax = gen_get(p, "normal_max", 1500);
    double gap = gen_get(p, "gap_s", -1), plen = gen_get(p, "peak_s", -1);
    double amp = gen_get(p, "amp", 0.5), period = gen_get(p, "period_s", 3600);
    double noise = gen_get(p, "noise", 0.03), first = gen_get(p, "first", 1);
    int paper = gen_get(p, "paper", 0) != 0;
    /* durations as peakgate --model takes them: 1 ms to 1e15 s (a gap of
     * 1e308 s sent the peak process's time to infinity) */
    if (!(step >= 1e-3 && step <= 86400) || !(poor >= 0 && poor <= 1) || !(nmin > 0 && nmax >= nmin && nmax <= 1e9) ||
        !(amp >= 0 && amp < 1) || !duration_ok(period) || !(noise >= 0 && noise <= 0.05) ||
        !(first >= 1 && first < 1e9) || (gap != -1 && !duration_ok(gap)) || (plen != -1 && !duration_ok(plen))) {
        slk_error("taskmem: out of range: need step in [0.001, 86400], poor in [0, 1], "
                  "0 < normal_min <= normal_max <= 1e9, amp in [0, 1), noise in [0, 0.05], "
                  "period_s, gap_s and peak_s in [0.001, 1e15], first >= 1");
        return SLK_EUSAGE;
    }
    double days = taskmem_days(p);
    long count = p->count > 0 ? p->count : (paper ? 6 : 20);
    long long nsteps = (long long)floor(days * 86400 / step);
    if (nsteps < 1)
        nsteps = 1;

    static const char *const hdr[] = {"task", "t", "mem_mb", "alloc_mb", NULL};
    static const char *const thdr[] = {"task", "class", "normal_mb", "peak_mb", NULL};
    csvw_header(out, hdr);
    if (truth)
        csvw_header(truth, thdr);
    long npoor = 0;
    for (long i = 0; i < count; i++) {
        char name[32], pkey[48];
        snprintf(name, sizeof name, "task%04ld", (long)first + i);
        snprintf(pkey, sizeof pkey, "%s/params", name);
        rng r;
        rng_seed_key(&r, p->seed, pkey);
        struct memmodel_params mp = memmodel_params_paper();
        mp.step_s = step;
        mp.amp = amp;
        mp.period_s = period;
        mp.noise = noise;
        int is_poor = paper || rng_uniform(&r) < poor;
        npoor += is_poor;
        double alloc;
        if (paper) {
            alloc = mp.peak_mb;
        } else if (is_poor) {
            mp.normal_mb = round(unif(&r, nmin, nmax));
            mp.peak_mb = round(mp.normal_mb * unif(&r, 1.8, 3.0));
            alloc = round(mp.peak_mb * unif(&r, 1.0, 1.05));
        } else {
            mp.normal_mb = round(unif(&r, 2 * nmin, 2 * nmax));
            mp.peak_mb = round(mp.normal_mb * unif(&r, 1.10, 1.22));
            alloc = round(mp.peak_mb / unif(&r, 0.93, 0.97));
            mp.gap_s = 900;
            mp.peak_s = 300;
        }
        if (gap > 0)
            mp.gap_s = gap;
        if (plen > 0)
            mp.peak_s = plen;
        struct memmodel m;
        memmodel_init(&m, &mp, p->seed, name);
        for (long long s = 0; s < nsteps; s++) {
            double v = round(memmodel_next(&m) * 10) / 10;
            csvw_str(out, name);
            csvw_num(out, p->start + (double)s * step);
            csvw_num(out, v);
            csvw_num(out, alloc);
            csvw_end(out);
        }
        if (truth) {
            csvw_str(truth, name);
            csvw_str(truth, is_poor ? "poorly-behaved" : "well-behaved");
            csvw_num(truth, mp.normal_mb);
            csvw_num(truth, mp.peak_mb);
            csvw_end(truth);
        }
        if (csvw_error(out) || (truth && csvw_error(truth)))
            return SLK_EIO;
        slk_progress("tasks", (uint64_t)(i + 1), (uint64_t)count);
    }
    slk_progress_done();
    if (!slk_quiet()) {
        char when[32];
        fprintf(slk_summary(),
                "tracegen: taskmem: %ld tasks (%ld poorly-behaved, %ld well-behaved%s) over %g days "
                "from %s, %lld samples each at %g s, %lld rows\n",
                count, npoor, count - npoor, paper ? ", the paper's 500/1200 MB task" : "", days,
                parse_time_format(p->start, when), nsteps, step, (long long)count * nsteps);
    }
    return SLK_OK;
}

/* The samples: from --start, every step, before start + days. */
static void reach(const struct gen_params *p, double *before, double *after)
{
    *before = 0;
    *after = taskmem_days(p) * 86400;
}

const struct gen_kind gen_kind_taskmem = {
    .name = "taskmem",
    .summary = "per-task memory series of well- and poorly-behaved tasks (peakgate)",
    .columns = "task,t,mem_mb,alloc_mb",
    .truth_columns = "task,class,normal_mb,peak_mb",
    .keys = keys,
    .generate = generate,
    .reach = reach,
};
