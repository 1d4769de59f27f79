/* vcjobs — stretch jobs and VC capacities built by importers (see vcjobs.h). */
#include "import/vcjobs.h"

#include "base/diag.h"
#include "base/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int vc_index(struct vcjobs *t, const char *name)
{
    if (!t->vcs)
        t->vcs = keyset_new();
    int added;
    long k = keyset_intern(t->vcs, name, &added); /* --vc-by user: a VC per user, thousands */
    if (!added)
        return (int)k;
    size_t c = t->vccap;
    t->vc = xgrow(t->vc, &c, t->nvc + 1, sizeof *t->vc);
    c = t->vccap;
    t->work_sh = xgrow(t->work_sh, &c, t->nvc + 1, sizeof *t->work_sh);
    c = t->vccap;
    t->capacity = xgrow(t->capacity, &c, t->nvc + 1, sizeof *t->capacity);
    t->vccap = c;
    t->vc[t->nvc] = xstrdup(name);
    t->work_sh[t->nvc] = 0;
    t->capacity[t->nvc] = 0;
    return (int)t->nvc++;
}

long vcjobs_add(struct vcjobs *t, const char *job, const char *vc, double submit,
                double size_sh, double maxpar, long line)
{
    long first = 0;
    if (!t->seen)
        t->seen = keyset_new();
    if (keyset_put(t->seen, job, line, &first) < 0)
        return first > 0 ? first : 1;
    t->jobs = xgrow(t->jobs, &t->cap, t->njobs + 1, sizeof *t->jobs);
    int v = vc_index(t, vc);
    t->jobs[t->njobs++] = (struct vcjob){xstrdup(job), v, submit, size_sh, maxpar};
    t->work_sh[v] += size_sh;
    if (t->njobs == 1 || submit < t->first)
        t->first = submit;
    if (t->njobs == 1 || submit > t->last)
        t->last = submit;
    return 0;
}

int vcjobs_capacity_share(struct vcjobs *t, long servers)
{
    if (servers < (long)t->nvc || t->nvc == 0)
        return -1;
    /* one server each first, the rest by work */
    stats_apportion(t->work_sh, t->nvc, servers - (long)t->nvc, t->capacity);
    for (size_t i = 0; i < t->nvc; i++)
        t->capacity[i] += 1;
    return 0;
}

void vcjobs_capacity_load(struct vcjobs *t, double load, double horizon_s)
{
    for (size_t i = 0; i < t->nvc; i++) {
        double c = floor(t->work_sh[i] * 3600 / (load * horizon_s) + 0.5);
        t->capacity[i] = c < 1 ? 1 : (long)c;
    }
}

double vcjobs_horizon(const struct vcjobs *t)
{
    double h = ceil((t->last - t->first) / 3600);
    return (h < 1 ? 1 : h) * 3600;
}

/* by submit, then input order: a stable order */
static int by_submit(const void *a, const void *b, void *ctx)
{
    const struct vcjob *jobs = ctx;
    size_t i = *(const size_t *)a, k = *(const size_t *)b;
    double x = jobs[i].submit, y = jobs[k].submit;
    if (x < y)
        return -1;
    if (x > y)
        return 1;
    return (i > k) - (i < k); /* the importers refuse a NaN submit */
}

void vcjobs_write_jobs(const struct vcjobs *t, csvw *w)
{
    static const char *const head[] = {"job", "vc", "submit", "size_server_hours",
                                       "max_parallelism", NULL};
    size_t *order = xcalloc(t->njobs ? t->njobs : 1, sizeof *order);
    for (size_t i = 0; i < t->njobs; i++)
        order[i] = i;
    qsort_r(order, t->njobs, sizeof *order, by_submit, t->jobs);
    csvw_header(w, head);
    for (size_t k = 0; k < t->njobs; k++) {
        const struct vcjob *j = &t->jobs[order[k]];
        csvw_str(w, j->job);
        csvw_str(w, t->vc[j->vc]);
        csvw_num(w, j->submit);
        csvw_num(w, j->size_sh);
        if (j->maxpar > 0)
            csvw_num(w, j->maxpar);
        else
            csvw_str(w, NULL);
        csvw_end(w);
    }
    free(order);
}

static int by_name(const void *a, const void *b, void *ctx)
{
    char *const *names = ctx;
    return strcmp(names[*(const size_t *)a], names[*(const size_t *)b]);
}

void vcjobs_write_capacities(const struct vcjobs *t, csvw *w)
{
    static const char *const head[] = {"vc", "capacity", NULL};
    size_t *order = xcalloc(t->nvc ? t->nvc : 1, sizeof *order);
    for (size_t i = 0; i < t->nvc; i++)
        order[i] = i;
    qsort_r(order, t->nvc, sizeof *order, by_name, t->vc);
    csvw_header(w, head);
    for (size_t k = 0; k < t->nvc; k++) {
        csvw_str(w, t->vc[order[k]]);
        csvw_int(w, t->capacity[order[k]]);
        csvw_end(w);
    }
    free(order);
}

void vcjobs_free(struct vcjobs *t)
{
    for (size_t i = 0; i < t->njobs; i++)
        free(t->jobs[i].job);
    for (size_t i = 0; i < t->nvc; i++)
        free(t->vc[i]);
    free(t->jobs);
    free(t->vc);
    free(t->work_sh);
    free(t->capacity);
    keyset_free(t->seen);
    keyset_free(t->vcs);
    memset(t, 0, sizeof *t);
}
