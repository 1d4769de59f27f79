/* classes — K-Means classes inside each pattern (see classes.h). */
#include "harvest/classes.h"
#include "base/diag.h"
#include "base/rng.h"
#include "harvest/kmeans.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

double *classes_kmeans_auto(const double *x, size_t n, int dim, int k_fixed, int k_max, double tolerance,
                            uint64_t seed, int n_init, int max_iter, int *assign, int *k, double *rms)
{
    size_t distinct = kmeans_distinct(x, n, dim);
    int kmax = k_fixed ? k_fixed : k_max;
    if ((size_t)kmax > distinct)
        kmax = (int)distinct;
    double *c = xmalloc((size_t)kmax * (size_t)dim * sizeof *c);
    int kk = k_fixed ? kmax : 1;
    double sse = 0;
    for (;; kk++) {
        kmeans_fit(x, n, dim, kk, seed, n_init, max_iter, c, assign, &sse);
        if (k_fixed || kk >= kmax || sqrt(sse / (double)n) <= tolerance)
            break;
    }
    *k = kk;
    *rms = sqrt(sse / (double)n);
    return c;
}

/* K-Means on (avg, peak) of the tenants of pattern p */
static void cluster_pattern(struct tenant_set *ts, const struct classes_opts *o, int p, struct pattern_classes *pc)
{
    size_t n = 0;
    for (size_t i = 0; i < ts->n; i++)
        n += ts->rows[i].pf.pattern == p;
    *pc = (struct pattern_classes){0};
    if (n == 0)
        return;
    double *x = xmalloc(2 * n * sizeof *x);
    size_t *idx = xmalloc(n * sizeof *idx);
    size_t j = 0;
    for (size_t i = 0; i < ts->n; i++)
        if (ts->rows[i].pf.pattern == p) {
            idx[j] = i;
            x[2 * j] = ts->rows[i].pf.avg;
            x[2 * j + 1] = ts->rows[i].pf.peak;
            j++;
        }
    rng r;
    rng_seed_key(&r, o->seed, pattern_name(p));
    uint64_t seed = rng_u64(&r);
    int *a = xmalloc(n * sizeof *a);
    pc->center = classes_kmeans_auto(x, n, 2, o->k_fixed[p], o->k_max, o->tolerance, seed, o->n_init, o->max_iter,
                                     a, &pc->k, &pc->rms);
    for (j = 0; j < n; j++)
        ts->rows[idx[j]].cls = a[j];
    free(x);
    free(idx);
    free(a);
}

void classes_cluster(struct tenant_set *ts, const struct classes_opts *o, struct pattern_classes pcs[PATTERN_N])
{
    for (int p = 0; p < PATTERN_N; p++)
        cluster_pattern(ts, o, p, &pcs[p]);
}

void classes_name(char *buf, size_t cap, int p, int cls) { snprintf(buf, cap, "%s-%d", pattern_name(p), cls + 1); }

void classes_write(csvw *w, const struct tenant_set *ts, const struct pattern_classes pcs[PATTERN_N], int percent)
{
    static const char *const hdr[] = {"class", "pattern", "avg_util", "peak_util", "tenants", "servers", NULL};
    double s = percent ? 100 : 1;
    csvw_header(w, hdr);
    for (int p = 0; p < PATTERN_N; p++)
        for (int k = 0; k < pcs[p].k; k++) {
            double srv = 0, sa = 0, sp = 0, ua = 0, up = 0;
            long nt = 0;
            for (size_t i = 0; i < ts->n; i++) {
                const struct tenant_feat *f = &ts->rows[i];
                if (f->pf.pattern != p || f->cls != k)
                    continue;
                nt++;
                srv += f->servers;
                sa += f->servers * f->pf.avg;
                sp += f->servers * f->pf.peak;
                ua += f->pf.avg;
                up += f->pf.peak;
            }
            char name[64];
            classes_name(name, sizeof name, p, k);
            double avg = srv > 0 ? sa / srv : ua / (double)nt, peak = srv > 0 ? sp / srv : up / (double)nt;
            /* a tenant whose spikes are rarer than 1 - --peak-pct has a peak
             * (p99) below its mean; a class's peak is never below its
             * average, so classpick never gives long jobs more room than
             * medium ones (and refuses a table that says otherwise) */
            if (peak < avg)
                peak = avg;
            csvw_str(w, name);
            csvw_str(w, pattern_name(p));
            csvw_num(w, avg * s);
            csvw_num(w, peak * s);
            csvw_int(w, nt);
            csvw_num(w, srv);
            csvw_end(w);
        }
}
