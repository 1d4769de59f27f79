/* memprof — task memory profiles, filler sizing and the peak model (see memprof.h). */
#include "memory/memprof.h"
#include "base/diag.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- profiles ---------------------------------------------------------------- */

struct memprof_opts memprof_opts_default(void)
{
    struct memprof_opts o = {.normal_pct = 50, .well_use = 0.75, .well_spread = 0.30};
    return o;
}

void memprof_acc_init(struct memprof_acc *a) { memset(a, 0, sizeof *a); }

void memprof_acc_free(struct memprof_acc *a)
{
    free(a->mem);
    memset(a, 0, sizeof *a);
}

void memprof_acc_reset(struct memprof_acc *a)
{
    a->n = 0;
    memset(&a->st, 0, sizeof a->st);
    a->growth = 0;
}

void memprof_acc_add(struct memprof_acc *a, double t, double mem)
{
    if (a->n == a->cap)
        a->mem = xgrow(a->mem, &a->cap, a->n + 1, sizeof *a->mem);
    a->mem[a->n] = mem;
    if (a->n > 0 && t > a->last_t) {
        double g = (mem - a->last_mem) / (t - a->last_t);
        if (g > a->growth)
            a->growth = g;
    }
    a->n++;
    stats_acc_add(&a->st, mem);
    a->last_t = t;
    a->last_mem = mem;
}

enum memprof_class memprof_classify(double normal, double peak, double alloc,
                                    const struct memprof_opts *o)
{
    double spread = normal > 0 ? (peak - normal) / normal : (peak > 0 ? INFINITY : 0);
    if (spread > o->well_spread)
        return MEMPROF_POOR;
    if (!isnan(alloc) && !(alloc > 0 && normal / alloc >= o->well_use))
        return MEMPROF_POOR;
    return MEMPROF_WELL;
}

void memprof_of_series(const double *mem, size_t n, double alloc, const struct memprof_opts *o,
                       struct memprof *out)
{
    struct memprof_acc a;
    memprof_acc_init(&a);
    for (size_t i = 0; i < n; i++)
        memprof_acc_add(&a, (double)i, mem[i]);
    memprof_finish(&a, alloc, o, out);
    memprof_acc_free(&a);
}

/* short_decimals: the fewest decimals (0 to 15) whose decimal reads back as
 * x (1072: 0, 902.05: 2), or -1 when x needs more (a mean of many samples). */
static int short_decimals(double x)
{
    double p = 1;
    for (int d = 0; d <= 15; d++, p *= 10) {
        double m = nearbyint(x * p);
        if (fabs(m) < 0x1p53 && m / p == x)
            return d;
    }
    return -1;
}

/* decimal_diff: a - b, exact in decimal when both are short decimals: the
 * binary difference of 1072 and 902.05 is 169.95000000000005, the decimal
 * one 169.95 (the difference has no more decimals than the finer of the
 * two).  Otherwise (more than 15 decimals, or too large to scale) the
 * binary difference. */
static double decimal_diff(double a, double b)
{
    int da = short_decimals(a), db = short_decimals(b);
    double d = a - b;
    if (da < 0 || db < 0)
        return d;
    double p = pow(10, da > db ? da : db), m = nearbyint(d * p);
    return fabs(m) < 0x1p53 ? m / p : d;
}

void memprof_finish(struct memprof_acc *a, double alloc, const struct memprof_opts *o,
                    struct memprof *out)
{
    memset(out, 0, sizeof *out);
    out->n = a->n;
    out->alloc = alloc;
    out->mean = a->st.mean;
    out->peak = a->st.max;
    out->min = a->st.min;
    out->p90 = stats_percentile(a->mem, a->n, 90);
    out->normal = o->normal_pct < 0 ? a->st.mean : stats_percentile(a->mem, a->n, o->normal_pct);
    /* the running mean can differ from the exact sum / n in the last bit;
     * keep it inside the sample range so normal <= peak always holds */
    if (out->normal > out->peak)
        out->normal = out->peak;
    if (out->normal < out->min)
        out->normal = out->min;
    out->spread = out->normal > 0 ? (out->peak - out->normal) / out->normal
                                  : (out->peak > 0 ? INFINITY : 0);
    out->use = isnan(alloc) || alloc <= 0 ? NAN : out->normal / alloc;
    out->waste = isnan(alloc) ? NAN : decimal_diff(alloc, out->normal);
    out->growth = a->growth;
    out->cls = memprof_classify(out->normal, out->peak, alloc, o);
}

const char *memprof_class_name(enum memprof_class c)
{
    return c == MEMPROF_WELL ? "well-behaved" : "poorly-behaved";
}

/* ---- filler sizing ----------------------------------------------------------- */

static double clamp0(double x) { return x > 0 ? x : 0; }

void memfill_size(const struct memfill_in *in, struct memfill *out)
{
    memset(out, 0, sizeof *out);
    out->unallocated = in->node_mb - in->sum_alloc;
    out->unused = in->sum_unused;
    out->headroom = in->node_mb - in->sum_normal;
    double gc = in->growth_mb_s * in->cost_s_per_mb;
    if (in->state_mb > 0) {
        out->migrate_s = in->state_mb * in->cost_s_per_mb;
        out->threshold_mb = in->growth_mb_s * out->migrate_s;
        out->filler_peak = clamp0(out->headroom - out->threshold_mb);
    } else {
        /* the filler's state is its peak P: P = headroom - g c P */
        out->filler_peak = clamp0(out->headroom / (1 + gc));
        out->migrate_s = out->filler_peak * in->cost_s_per_mb;
        out->threshold_mb = in->growth_mb_s * out->migrate_s;
    }
    double fn = clamp0(out->unallocated - out->threshold_mb);
    out->filler_normal = fn < out->filler_peak ? fn : out->filler_peak;
}

/* ---- the probabilistic peak model ------------------------------------------------ */

struct memmodel_params memmodel_params_paper(void)
{
    struct memmodel_params p = {
        .normal_mb = 500, .peak_mb = 1200, .gap_s = 210, .peak_s = 150,
        .amp = 0.5, .period_s = 3600, .noise = 0.03, .step_s = 1,
    };
    return p;
}

/* Steps until the next peak starts, from step `from`: thinning of a Poisson
 * process with rate (1 + amp sin(...)) / gap per second.  LLONG_MAX (no
 * peak any more) once the time leaves the steps a long long counts: with
 * absurd parameters the time would reach infinity and the thinning, whose
 * rate is then NaN, never accept. */
static long long next_peak_start(struct memmodel *m, long long from)
{
    double lmax = (1 + m->p.amp) / m->p.gap_s;
    double t = (double)from * m->p.step_s;
    for (;;) {
        t += rng_exp(&m->r, 1 / lmax);
        if (!(t / m->p.step_s < 9e18))
            return LLONG_MAX;
        double lam = (1 + m->p.amp * sin(2 * M_PI * t / m->p.period_s + m->phase)) / m->p.gap_s;
        if (rng_uniform(&m->r) * lmax <= lam)
            break;
    }
    long long s = (long long)ceil(t / m->p.step_s);
    return s > from ? s : from + 1;
}

void memmodel_init(struct memmodel *m, const struct memmodel_params *p, uint64_t seed,
                   const char *key)
{
    memset(m, 0, sizeof *m);
    m->p = *p;
    rng_seed_key(&m->r, seed, key);
    m->phase = 2 * M_PI * rng_uniform(&m->r);
    m->next_start = next_peak_start(m, 0);
    m->pk_start = -1;
}

static double base_level(struct memmodel *m)
{
    /* triangular on (-1, 1): sum of two uniforms from one 64-bit draw */
    uint64_t u = rng_u64(&m->r);
    double a = (double)(u >> 32) * (1.0 / 4294967296.0);
    double b = (double)(u & 0xffffffffu) * (1.0 / 4294967296.0);
    return m->p.normal_mb * (1 + m->p.noise * (a + b - 1));
}

double memmodel_next(struct memmodel *m)
{
    long long s = m->tau++;
    if (s == m->next_start) {
        m->pk_start = s;
        double len = m->p.peak_s * (0.5 + rng_uniform(&m->r)) / m->p.step_s;
        m->pk_len = len < 3 ? 3 : (long long)llround(len);
        m->base = m->p.normal_mb;
        m->next_start = next_peak_start(m, s + m->pk_len);
    }
    if (m->pk_start >= 0 && s < m->pk_start + m->pk_len) {
        long long i = s - m->pk_start, L = m->pk_len;
        long long ramp = L / 4 > 0 ? L / 4 : 1;
        double top = m->p.peak_mb;
        if (i == ramp)
            m->peaks++;
        if (i < ramp)
            return m->base + (top - m->base) * (double)(i + 1) / (double)(ramp + 1);
        if (i >= L - ramp)
            return m->base + (top - m->base) * (double)(L - i) / (double)(ramp + 1);
        return top;
    }
    return base_level(m);
}

int memmodel_in_peak(const struct memmodel *m)
{
    long long s = m->tau - 1;
    return m->pk_start >= 0 && s >= m->pk_start && s < m->pk_start + m->pk_len;
}
