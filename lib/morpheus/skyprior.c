/* skyprior — last night's skylines as priors (see skyprior.h). */
#include "morpheus/skyprior.h"

#include "base/diag.h"
#include "base/keyset.h"
#include "morpheus/stages.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct skyprior {
    keyset *names;              /* job -> index */
    struct stages_job *jobs;    /* as read */
    size_t njobs;
    double **alloc;             /* by index: the allocation at the job's step */
    int *k;                     /* by index: its steps */
};

/* spread: job x's rows as its allocation by step into t->alloc[x],
 * t->k[x]: rows evenly spaced from offset 0 (stages_read checked the
 * spacing).  0, or -1 (printed) when the first offset is not 0. */
static int spread(skyprior *t, size_t x, const char *path)
{
    const struct stages_job *j = &t->jobs[x];
    if (j->rows[0].off != 0) {
        slk_error_at(path, j->line, "job '%s': skyline starts at offset %g, not 0 (a prior is skyfit's output)",
                     j->job, j->rows[0].off);
        return -1;
    }
    if (j->nrows > INT_MAX) {
        slk_error_at(path, j->line, "job '%s': more than %d steps", j->job, INT_MAX);
        return -1;
    }
    double *a = xmalloc(j->nrows * sizeof *a);
    for (size_t r = 0; r < j->nrows; r++)
        a[r] = j->rows[r].alloc;
    t->alloc[x] = a;
    t->k[x] = (int)j->nrows;
    return 0;
}

int skyprior_load(const char *path, const struct csv_dialect *d, skyprior **out)
{
    *out = NULL;
    skyprior *t = xcalloc(1, sizeof *t);
    struct stages_opts so = {.csv = d, .cont_cores = 1, .cont_mem = 1024, .max_jobs = LLONG_MAX, .keep_rows = 1};
    int st = stages_read(path, 0, &so, &t->jobs, &t->njobs);
    if (st != SLK_OK) {
        skyprior_free(t);
        return st;
    }
    t->names = keyset_new();
    t->alloc = xcalloc(t->njobs ? t->njobs : 1, sizeof *t->alloc);
    t->k = xcalloc(t->njobs ? t->njobs : 1, sizeof *t->k);
    for (size_t x = 0; x < t->njobs; x++) {
        keyset_intern(t->names, t->jobs[x].job, NULL);
        if (spread(t, x, csv_path_name(path)) < 0) {
            skyprior_free(t);
            return SLK_EDATA;
        }
    }
    *out = t;
    return SLK_OK;
}

int skyprior_get(const skyprior *t, const char *job, double step, const double **p, int *k,
                 double *their_step)
{
    *p = NULL;
    *k = 0;
    if (!t)
        return 0;
    long x = keyset_row(t->names, job);
    if (x < 0)
        return 0;
    if (t->jobs[x].step != step) {
        if (their_step)
            *their_step = t->jobs[x].step;
        return -1;
    }
    *p = t->alloc[x];
    *k = t->k[x];
    return 1;
}

size_t skyprior_jobs(const skyprior *t)
{
    return t ? t->njobs : 0;
}

void skyprior_free(skyprior *t)
{
    if (!t)
        return;
    for (size_t x = 0; t->alloc && x < t->njobs; x++)
        free(t->alloc[x]);
    free(t->alloc);
    free(t->k);
    stages_jobs_free(t->jobs, t->njobs);
    keyset_free(t->names);
    free(t);
}
