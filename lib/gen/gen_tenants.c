/* gen_tenants — tracegen kind `tenants`: CPU utilization of primary tenants
 * (the "average server" of each tenant) at fixed steps, with three patterns
 * as in seed 003 §3: periodic (a daily peak, or one weekly peak), roughly
 * constant, and unpredictable (rare, long episodes on a slowly wandering
 * level: energy concentrated at low frequencies).
 *
 *   tenant,t,util        util in 0-1 (or percent with --set percent=1)
 *
 * Utilization scaling (seed 003 §6, to study a spectrum of utilizations):
 * --set scale=K multiplies every value by K and saturates at 1 (linear);
 * --set root=N then takes the N-th root (N > 1 raises low values more than
 * high ones, so fewer saturate; N < 1 is a power and lowers them).
 *   truth: tenant,pattern,servers,environment
 *
 * Streams tenant by tenant; memory is a few dozen numbers per tenant, so
 * 10,000 tenants x 21,600 samples (one month at 2 minutes) is fine.  Each
 * tenant's numbers come from rng_seed_key(seed, name), so a shard made with
 * --set first=N --count M holds exactly the rows of those tenants in the full
 * trace (cat of the shards == the full trace, headers aside).
 */
#include "gen/gen.h"
#include "base/diag.h"
#include "base/rng.h"

#include <math.h>
#include <stdio.h>

static const char *const keys[] = {"step", "periodic", "unpredictable", "weekly", "noise", "decimals",
                                   "first", "percent", "drop", "scale", "root", NULL};

enum { P_DAILY, P_WEEKLY, P_CONSTANT, P_UNPRED };

#define MAX_EPISODES 64

struct tenant_model {
    int kind;
    double base, amp, peak_s, gamma, width, noise;
    double weekend;             /* daily: weekend amplitude factor */
    double day_factor;          /* daily: this day's amplitude factor */
    long day;                   /* day index day_factor belongs to */
    double ar, ar_phi, ar_sd;   /* slow AR(1) level (constant drift, unpredictable wander) */
    int nep;
    double ep_start[MAX_EPISODES], ep_end[MAX_EPISODES], ep_height[MAX_EPISODES];
};

/* --days, 30 by default. */
static double tenants_days(const struct gen_params *p) { return p->days > 0 ? p->days : 30; }

static double clamp01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

static void model_init(struct tenant_model *m, rng *r, int kind, double span, double step, double noise_max)
{
    *m = (struct tenant_model){0};
    m->kind = kind;
    m->noise = 0.005 + rng_uniform(r) * (noise_max - 0.005 > 0 ? noise_max - 0.005 : 0);
    m->day = -1;
    m->ar = 0;
    m->nep = 0;
    switch (kind) {
    case P_DAILY:
        m->base = 0.05 + 0.35 * rng_uniform(r);
        m->amp = 0.15 + 0.4 * rng_uniform(r);
        if (m->base + m->amp > 0.95)
            m->amp = 0.95 - m->base;
        m->peak_s = (10 + 10 * rng_uniform(r)) * 3600;  /* peak between 10:00 and 20:00 */
        m->gamma = 1 + 2 * rng_uniform(r);              /* sharper or broader peaks */
        m->weekend = rng_uniform(r) < 0.5 ? 1.0 : 0.5 + 0.4 * rng_uniform(r);
        break;
    case P_WEEKLY:
        m->base = 0.05 + 0.35 * rng_uniform(r);
        m->amp = 0.2 + 0.4 * rng_uniform(r);
        if (m->base + m->amp > 0.95)
            m->amp = 0.95 - m->base;
        m->peak_s = rng_uniform(r) * 7 * 86400;         /* when in the week */
        m->width = (4 + 10 * rng_uniform(r)) * 3600;    /* sd of the weekly bump */
        break;
    case P_CONSTANT:
        m->base = 0.02 + 0.7 * rng_uniform(r);
        m->ar_phi = exp(-step / 86400.0);
        m->ar_sd = 0.002 + 0.008 * rng_uniform(r);
        break;
    default: /* P_UNPRED */
        m->base = 0.05 + 0.3 * rng_uniform(r);
        m->ar_phi = exp(-step / ((2 + 10 * rng_uniform(r)) * 3600));
        m->ar_sd = 0.04 + 0.06 * rng_uniform(r);
        m->ar = m->ar_sd * rng_normal(r);
        int n = 4 + (int)rng_poisson(r, (2 + 8 * rng_uniform(r)) * span / (30 * 86400.0));
        if (n > MAX_EPISODES)
            n = MAX_EPISODES;
        double mean_len = (3 + 21 * rng_uniform(r)) * 3600;
        for (int i = 0; i < n; i++) {
            m->ep_start[i] = rng_uniform(r) * span;
            m->ep_end[i] = m->ep_start[i] + 1800 + rng_exp(r, mean_len);
            m->ep_height[i] = 0.15 + 0.3 * rng_uniform(r);
        }
        m->nep = n;
        break;
    }
}

/* util at offset s (seconds from the start) for a model; draws noise from r. */
static double model_util(struct tenant_model *m, rng *r, double s)
{
    double v;
    switch (m->kind) {
    case P_DAILY: {
        long day = (long)floor(s / 86400);
        if (day != m->day) {
            m->day = day;
            m->day_factor = 1 + 0.1 * rng_normal(r);
        }
        double ph = (s - m->peak_s) / 86400.0;
        double shape = pow((1 + cos(2 * M_PI * ph)) / 2, m->gamma);
        double wk = (day % 7 >= 5) ? m->weekend : 1.0; /* the trace starts on a Monday by default */
        v = m->base + m->amp * m->day_factor * wk * shape;
        break;
    }
    case P_WEEKLY: {
        double week = 7 * 86400.0;
        double d = fmod(s - m->peak_s, week);
        if (d < 0)
            d += week;
        if (d > week / 2)
            d = week - d;
        v = m->base + m->amp * exp(-d * d / (2 * m->width * m->width));
        break;
    }
    case P_CONSTANT:
        m->ar = m->ar_phi * m->ar + sqrt(1 - m->ar_phi * m->ar_phi) * m->ar_sd * rng_normal(r);
        v = m->base + m->ar;
        break;
    default:
        m->ar = m->ar_phi * m->ar + sqrt(1 - m->ar_phi * m->ar_phi) * m->ar_sd * rng_normal(r);
        v = m->base + m->ar;
        for (int i = 0; i < m->nep; i++)
            if (s >= m->ep_start[i] && s < m->ep_end[i])
                v += m->ep_height[i];
        break;
    }
    return clamp01(v + m->noise * rng_normal(r));
}

/* linear scaling with saturation, then the root-th root (seed 003 §6) */
static double scale_util(double v, double scale, double root)
{
    if (scale != 1)
        v = clamp01(v * scale);
    if (root != 1)
        v = pow(v, 1 / root);
    return v;
}

static int generate(const struct gen_params *p, csvw *out, csvw *truth)
{
    double step = gen_get(p, "step", 120);
    double f_per = gen_get(p, "periodic", 0.25), f_unp = gen_get(p, "unpredictable", 0.2);
    double f_week = gen_get(p, "weekly", 0.3), noise = gen_get(p, "noise", 0.03);
    double dec = gen_get(p, "decimals", 4), first = gen_get(p, "first", 1);
    double percent = gen_get(p, "percent", 0), drop = gen_get(p, "drop", 0);
    double scale = gen_get(p, "scale", 1), root = gen_get(p, "root", 1);
    if (!(step >= 1 && step <= 86400) || !(f_per >= 0 && f_unp >= 0 && f_per + f_unp <= 1) ||
        !(f_week >= 0 && f_week <= 1) || !(noise >= 0 && noise <= 0.5) || !(dec >= 0 && dec <= 12) ||
        !(first >= 1 && first <= 1e9) || !(drop >= 0 && drop < 1) || !(scale >= 0 && scale <= 100) ||
        !(root >= 0.01 && root <= 100)) {
        slk_error("tenants: --set values out of range (step 1..86400 s, periodic+unpredictable <= 1, "
                  "weekly 0..1, noise 0..0.5, decimals 0..12, first >= 1, drop 0..<1, scale 0..100, "
                  "root 0.01..100)");
        return SLK_EUSAGE;
    }
    double days = tenants_days(p);
    long count = p->count > 0 ? p->count : 100;
    double span = days * 86400;
    long nsamp = (long)floor(span / step);
    int decimals = (int)dec - (percent != 0 ? 2 : 0);
    if (decimals < 0)
        decimals = 0;

    static const char *const hdr[] = {"tenant", "t", "util", NULL};
    static const char *const thdr[] = {"tenant", "pattern", "servers", "environment", NULL};
    csvw_header(out, hdr);
    if (truth)
        csvw_header(truth, thdr);
    long nenv = count / 3 + 1;
    for (long i = 0; i < count; i++) {
        char name[32], env[32];
        long idx = (long)first + i;
        snprintf(name, sizeof name, "tenant%05ld", idx);
        rng r;
        rng_seed_key(&r, p->seed, name);
        double u = rng_uniform(&r);
        int kind = u < f_per ? (rng_uniform(&r) < f_week ? P_WEEKLY : P_DAILY) : u < f_per + f_unp ? P_UNPRED : P_CONSTANT;
        /* periodic (user-facing) tenants are few but large (seed 003 §3) */
        long servers = 1 + (long)floor(exp(2.5 + 1.2 * rng_normal(&r)) * (kind <= P_WEEKLY ? 4 : 1));
        if (servers > 5000)
            servers = 5000;
        snprintf(env, sizeof env, "env%04ld", (long)rng_below(&r, (uint64_t)nenv) + 1);
        struct tenant_model m;
        model_init(&m, &r, kind, span, step, noise);
        for (long k = 0; k < nsamp; k++) {
            double s = (double)k * step;
            double v = scale_util(model_util(&m, &r, s), scale, root);
            if (drop > 0 && rng_uniform(&r) < drop)
                continue;
            csvw_str(out, name);
            csvw_int(out, (int64_t)llround(p->start + s));
            csvw_num_prec(out, percent != 0 ? v * 100 : v, decimals);
            csvw_end(out);
        }
        if (truth) {
            csvw_str(truth, name);
            csvw_str(truth, kind <= P_WEEKLY ? "periodic" : kind == P_CONSTANT ? "constant" : "unpredictable");
            csvw_int(truth, servers);
            csvw_str(truth, env);
            csvw_end(truth);
        }
        if (csvw_error(out))
            return SLK_EIO; /* outf_finish names the output and the error */
        slk_progress("tenants", (uint64_t)(i + 1), (uint64_t)count);
    }
    slk_progress_done();
    return SLK_OK;
}

/* The samples: from --start, every step, before start + days. */
static void reach(const struct gen_params *p, double *before, double *after)
{
    *before = 0;
    *after = tenants_days(p) * 86400;
}

const struct gen_kind gen_kind_tenants = {
    "tenants",
    "primary-tenant CPU utilization (periodic, constant, unpredictable) at fixed steps",
    "tenant,t,util",
    "tenant,pattern,servers,environment",
    keys,
    generate,
    reach,
};
