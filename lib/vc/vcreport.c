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

/* half-open, so that windows end to end (--daily, a cron job at 00:00:00
 * every day) count a submit at their shared edge once, in the later one */
int vcrep_in_window(double t, double w0, double h) { return t >= w0 && t < w0 + h; }

void vcrep_acc_init(struct vcrep_acc *a, const double *cap, size_t nvc, double servers, int keep)
{
    *a = (struct vcrep_acc){.nvc = nvc, .cap = cap, .servers = servers, .keep = keep};
    a->wjobs = xcalloc(nvc ? nvc : 1, sizeof *a->wjobs);
    a->wwork = xcalloc(nvc ? nvc : 1, sizeof *a->wwork);
    a->wssum = xcalloc(nvc ? nvc : 1, sizeof *a->wssum);
    if (keep & VCREP_KEEP_STRETCH) {
        a->x = xcalloc(nvc ? nvc : 1, sizeof *a->x);
        a->xcap = xcalloc(nvc ? nvc : 1, sizeof *a->xcap);
    }
}

static uint64_t day_hash(uint32_t vc, double day)
{
    uint64_t h = (uint64_t)(int64_t)day * 0x9e3779b97f4a7c15ull ^ ((uint64_t)vc + 1) * 0xc2b2ae3d27d4eb4full;
    return h ^ (h >> 29);
}

/* The (vc, day) entry, created empty when new. */
static struct vcrep_day *day_entry(struct vcrep_acc *a, uint32_t vc, double day)
{
    if (2 * (a->nday + 1) > a->nslot) {
        free(a->slot);
        a->nslot = a->nslot ? 2 * a->nslot : 64;
        a->slot = xcalloc(a->nslot, sizeof *a->slot);
        for (size_t i = 0; i < a->nday; i++) {
            size_t h = day_hash(a->day[i].vc, a->day[i].day) & (a->nslot - 1);
            while (a->slot[h])
                h = (h + 1) & (a->nslot - 1);
            a->slot[h] = (uint32_t)(i + 1);
        }
    }
    size_t h = day_hash(vc, day) & (a->nslot - 1);
    for (; a->slot[h]; h = (h + 1) & (a->nslot - 1)) {
        struct vcrep_day *e = &a->day[a->slot[h] - 1];
        if (e->vc == vc && e->day == day)
            return e;
    }
    a->day = xgrow(a->day, &a->dcap, a->nday + 1, sizeof *a->day);
    a->slot[h] = (uint32_t)(a->nday + 1);
    a->day[a->nday] = (struct vcrep_day){.vc = vc, .day = day};
    return &a->day[a->nday++];
}

void vcrep_acc_add(struct vcrep_acc *a, const struct vcsim_job *j, double w0, double h)
{
    double cap = a->cap[j->vc], s = vcrep_stretch(j, cap);
    a->n++;
    a->work += j->work;
    if (!vcrep_in_window(j->submit, w0, h))
        return;
    a->win_n++;
    a->win_work += j->work;
    a->win_ssum += s;
    a->win_fsum += vcrep_floor(j, cap, a->servers);
    a->wjobs[j->vc]++;
    a->wwork[j->vc] += j->work;
    a->wssum[j->vc] += s;
    if (a->keep & VCREP_KEEP_STRETCH) {
        a->x[j->vc] = xgrow(a->x[j->vc], &a->xcap[j->vc], a->wjobs[j->vc], sizeof **a->x);
        a->x[j->vc][a->wjobs[j->vc] - 1] = s;
    }
    if (a->keep & VCREP_KEEP_DAILY) {
        struct vcrep_day *e = day_entry(a, j->vc, floor(j->submit / DAY));
        e->jobs++;
        e->work += j->work;
        e->ssum += s;
    }
}

void vcrep_acc_per_vc(struct vcrep_acc *a, double h, struct vcrep_vc *rep)
{
    for (size_t k = 0; k < a->nvc; k++) {
        size_t n = a->wjobs[k];
        rep[k] = (struct vcrep_vc){.jobs = n, .work = a->wwork[k], .median = NAN, .p95 = NAN};
        rep[k].load = rep[k].work / (a->cap[k] * h);
        rep[k].mean = n ? a->wssum[k] / (double)n : NAN;
        if ((a->keep & VCREP_KEEP_STRETCH) && n) {
            stats_sort(a->x[k], n);
            rep[k].median = stats_percentile_sorted(a->x[k], n, 50);
            rep[k].p95 = stats_percentile_sorted(a->x[k], n, 95);
        }
    }
}

static int cmp_day(const void *x, const void *y)
{
    const struct vcrep_day *a = x, *b = y;
    if (a->vc != b->vc)
        return a->vc < b->vc ? -1 : 1;
    return (a->day > b->day) - (a->day < b->day);
}

const struct vcrep_day *vcrep_acc_daily(struct vcrep_acc *a, size_t *n)
{
    if (a->nday)
        qsort(a->day, a->nday, sizeof *a->day, cmp_day);
    free(a->slot); /* the order changed: no more adds */
    a->slot = NULL;
    a->nslot = 0;
    *n = a->nday;
    return a->day;
}

void vcrep_acc_free(struct vcrep_acc *a)
{
    for (size_t k = 0; a->x && k < a->nvc; k++)
        free(a->x[k]);
    free(a->x);
    free(a->xcap);
    free(a->wjobs);
    free(a->wwork);
    free(a->wssum);
    free(a->day);
    free(a->slot);
}

void vcrep_per_vc(const struct vcsim_job *jobs, size_t njobs, const double *cap, size_t nvc, double w0,
                  double h, struct vcrep_vc *rep)
{
    struct vcrep_acc a;
    vcrep_acc_init(&a, cap, nvc, INFINITY, VCREP_KEEP_STRETCH);
    for (size_t i = 0; i < njobs; i++)
        vcrep_acc_add(&a, &jobs[i], w0, h);
    vcrep_acc_per_vc(&a, h, rep);
    vcrep_acc_free(&a);
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
