/* gen_storage — tracegen kind `storage`: the primary tenants whose disks
 * replplace(1) harvests.  One row per tenant:
 *
 *   tenant,environment,servers,space_gb,reimages_per_server_month,peak_util
 *
 * Shapes (seed 003 §3): tenant sizes are lognormal (median 10 servers, a few
 * tenants with hundreds), environments are shared by several tenants with a
 * skewed (quadratic) popularity, harvestable space is 500-4000 GB per server,
 * reimage rates are lognormal with median 0.35 per server per month (about 85%
 * of tenants at 1 or fewer, a tail of frequent reimagers up to ~10), and peak
 * CPU utilizations spread over 0.08-0.98, independent of reimage rates, so
 * every cell of replplace's 3 x 3 grid is populated.
 *
 * --count: tenants (default 300).  --set keys:
 *   envs=N            environments (default count/3, at least 1)
 *   servers=N         scale tenant sizes so they add up to exactly N (>= count)
 *   reimage_median=X  median reimages per server per month (default 0.35)
 *   reimage_sigma=X   lognormal sigma of the rates (default 1.0)
 * Memory is proportional to the number of tenants (sizes are drawn first so
 * servers=N can be met exactly). */
#include "base/diag.h"
#include "base/parse.h"
#include "base/rng.h"
#include "base/stats.h"
#include "gen/gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const storage_keys[] = {"envs", "servers", "reimage_median", "reimage_sigma", NULL};

static int storage_generate(const struct gen_params *p, csvw *out, csvw *truth)
{
    (void)truth;
    long n = p->count > 0 ? p->count : 300;
    for (const char *const *k = storage_keys; *k; k++) {
        const char *v = gen_get_str(p, *k, NULL);
        double x;
        if (v && parse_double(v, &x, 0) < 0) {
            slk_error("invalid value for --set %s: '%s' (want a number)", *k, v);
            return SLK_EUSAGE;
        }
    }
    double envs_d = gen_get(p, "envs", n / 3 > 0 ? (double)(n / 3) : 1);
    double servers_d = gen_get(p, "servers", 0);
    double med = gen_get(p, "reimage_median", 0.35);
    double sigma = gen_get(p, "reimage_sigma", 1.0);
    if (!(envs_d >= 1 && envs_d <= 1e7)) {
        slk_error("invalid --set envs=%g (want 1 to 10000000)", envs_d);
        return SLK_EUSAGE;
    }
    if (servers_d != 0 && !(servers_d >= (double)n && servers_d <= 2e9)) {
        slk_error("invalid --set servers=%g (want at least --count=%ld and at most 2e9)", servers_d, n);
        return SLK_EUSAGE;
    }
    if (!(med > 0 && med <= 1000) || !(sigma >= 0 && sigma <= 5)) {
        slk_error("invalid reimage_median or reimage_sigma (want 0 < median <= 1000, 0 <= sigma <= 5)");
        return SLK_EUSAGE;
    }
    long nenv = (long)envs_d;
    rng g;
    rng_seed_key(&g, p->seed, "storage");
    double *size = xmalloc((size_t)n * sizeof *size);
    long *servers = xmalloc((size_t)n * sizeof *servers);
    for (long i = 0; i < n; i++) {
        size[i] = exp(log(10.0) + 1.3 * rng_normal(&g));
        if (size[i] > 5000)
            size[i] = 5000;
    }
    if (servers_d > 0) {
        /* largest remainder over (N - n), then +1 each so nobody has 0 servers */
        stats_apportion(size, (size_t)n, (long)servers_d - n, servers);
        for (long i = 0; i < n; i++)
            servers[i] += 1;
    } else {
        for (long i = 0; i < n; i++)
            servers[i] = lround(size[i]) < 1 ? 1 : lround(size[i]);
    }

    csvw_header(out, (const char *const[]){"tenant", "environment", "servers", "space_gb",
                                           "reimages_per_server_month", "peak_util", NULL});
    char tname[32], ename[32];
    for (long i = 0; i < n; i++) {
        double u = rng_uniform(&g);
        long env = (long)floor((double)nenv * u * u);
        double per_server = 500 + 3500 * rng_uniform(&g);
        double rate = med * exp(sigma * rng_normal(&g));
        if (rate > 30)
            rate = 30;
        rate = fmax(0.001, round(rate * 1000) / 1000);
        double tri = (rng_uniform(&g) + rng_uniform(&g)) / 2;
        double peak = round((0.08 + 0.9 * tri) * 1000) / 1000;
        snprintf(tname, sizeof tname, "svc-%04ld", i + 1);
        snprintf(ename, sizeof ename, "env-%03ld", env + 1);
        csvw_str(out, tname);
        csvw_str(out, ename);
        csvw_int(out, servers[i]);
        csvw_int(out, (int64_t)llround(per_server * (double)servers[i]));
        csvw_num(out, rate);
        csvw_num(out, peak);
        csvw_end(out);
    }
    free(size);
    free(servers);
    return csvw_error(out) ? SLK_EIO : SLK_OK;
}

const struct gen_kind gen_kind_storage = {
    "storage",
    "primary tenants of harvested storage: size, environment, space, reimage rate, peak CPU (replplace)",
    "tenant,environment,servers,space_gb,reimages_per_server_month,peak_util",
    NULL,
    storage_keys,
    storage_generate,
    NULL, /* no time axis */
};
