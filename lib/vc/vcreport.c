/* vcreport — stretch, load factor and consistency (see vcreport.h). */
#include "vc/vcreport.h"
#include "base/diag.h"
#include "base/stats.h"

#include <math.h>
#include <stdlib.h>

#define DAY 86400.0

double vcrep_stretch(const struct vcsim_job *j, double cap)
{
    return (j->finish - j->submit) / (j->work / cap);
}

double vcrep_floor(const struct vcsim_job *j, double cap, double servers)
{
    return cap / (j->maxpar < servers ? j->maxpar : servers);
}

int vcrep_in_window(double t, double w0, double h) { return t >= w0 && t <= w0 + h; }

void vcrep_window(const struct vcsim_job *jobs, size_t n, int have_start, double start, double horizon,
                  double *w0, double *h, int *derived)
{
    double first = INFINITY, last = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (jobs[i].submit < first)
            first = jobs[i].submit;
        if (jobs[i].submit > last)
            last = jobs[i].submit;
    }
    if (n == 0)
        first = last = 0;
    *w0 = have_start ? start : first;
    *h = horizon;
    *derived = horizon <= 0;
    if (*derived) {
        double days = ceil((last - *w0) / DAY);
        *h = (days < 1 ? 1 : days) * DAY;
    }
}

void vcrep_per_vc(const struct vcsim_job *jobs, size_t njobs, const double *cap, size_t nvc, double w0,
                  double h, struct vcrep_vc *rep)
{
    size_t *cnt = xcalloc(nvc + 1, sizeof *cnt);
    for (size_t i = 0; i < njobs; i++)
        if (vcrep_in_window(jobs[i].submit, w0, h))
            cnt[jobs[i].vc + 1]++;
    for (size_t k = 0; k < nvc; k++)
        cnt[k + 1] += cnt[k];
    double *s = xmalloc((cnt[nvc] ? cnt[nvc] : 1) * sizeof *s);
    size_t *fill = xcalloc(nvc, sizeof *fill);
    for (size_t k = 0; k < nvc; k++)
        rep[k] = (struct vcrep_vc){0};
    for (size_t i = 0; i < njobs; i++) {
        const struct vcsim_job *j = &jobs[i];
        if (!vcrep_in_window(j->submit, w0, h))
            continue;
        s[cnt[j->vc] + fill[j->vc]++] = vcrep_stretch(j, cap[j->vc]);
        rep[j->vc].work += j->work;
    }
    for (size_t k = 0; k < nvc; k++) {
        size_t n = cnt[k + 1] - cnt[k];
        double *x = s + cnt[k];
        rep[k].jobs = n;
        rep[k].load = rep[k].work / (cap[k] * h);
        double sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += x[i];
        rep[k].mean = n ? sum / (double)n : NAN;
        stats_sort(x, n);
        rep[k].median = stats_percentile_sorted(x, n, 50);
        rep[k].p95 = stats_percentile_sorted(x, n, 95);
    }
    free(fill);
    free(s);
    free(cnt);
}

double vcrep_consistency(const struct vcrep_vc *rep, size_t nvc, const double *edges, int nedges,
                         struct vcrep_bin *bins, int *nb)
{
    *nb = nedges + 1;
    for (int b = 0; b < *nb; b++)
        bins[b] = (struct vcrep_bin){b ? edges[b - 1] : 0, b < nedges ? edges[b] : INFINITY, INFINITY, 0, 0};
    for (size_t k = 0; k < nvc; k++) {
        if (!rep[k].jobs || !isfinite(rep[k].mean))
            continue;
        int b = 0;
        while (b < nedges && rep[k].load >= edges[b])
            b++;
        bins[b].n++;
        if (rep[k].mean < bins[b].min)
            bins[b].min = rep[k].mean;
        if (rep[k].mean > bins[b].max)
            bins[b].max = rep[k].mean;
    }
    double worst = NAN;
    for (int b = 0; b < *nb; b++)
        if (bins[b].n >= 2) {
            double s = bins[b].max / bins[b].min;
            if (!(worst >= s))
                worst = s;
        }
    return worst;
}
