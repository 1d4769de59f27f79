/* slotable — sloinfer's run table in memory (see slotable.h).  Job names are
 * numbered by a keyset; rows are grouped by one sort of an index, O(n log n)
 * for n runs. */
#include "morpheus/slotable.h"
#include "base/diag.h"
#include "base/keyset.h"

#include <stdlib.h>
#include <string.h>

struct slotab_row {
    size_t job;     /* the job name's number in names */
    char *inst;     /* owned, may be NULL */
    long line, tag;
};

struct slotab {
    size_t max;
    struct slotab_row *row;
    struct slo_run *run;
    size_t n, cap_row, cap_run;
    keyset *names;     /* job names, numbered in order of first appearance */
    long last;         /* the previous row's job number (exports come grouped by job) */
    const char **name; /* during slotab_group: keyset_key of each number, for the sort */
    /* after slotab_group */
    size_t *first;  /* first row of job j (in name order) */
    size_t *jorder; /* name index of job j */
    long *tags;
    size_t njobs;
};

slotab *slotab_new(size_t max_runs)
{
    slotab *t = xcalloc(1, sizeof *t);
    t->max = max_runs;
    t->names = keyset_new();
    t->last = -1;
    return t;
}

void slotab_free(slotab *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++)
        free(t->row[i].inst);
    keyset_free(t->names);
    free(t->row);
    free(t->run);
    free(t->first);
    free(t->jorder);
    free(t->tags);
    free(t);
}

int slotab_add(slotab *t, const char *job, const char *instance, const struct slo_run *run, long line, long tag)
{
    if (t->n >= t->max)
        return -1;
    t->row = xgrow(t->row, &t->cap_row, t->n + 1, sizeof *t->row);
    t->run = xgrow(t->run, &t->cap_run, t->n + 1, sizeof *t->run);
    size_t j = (size_t)keyset_find_grouped(t->names, job, &t->last, 1);
    t->row[t->n] = (struct slotab_row){j, instance ? xstrdup(instance) : NULL, line, tag};
    t->run[t->n] = *run;
    t->n++;
    return 0;
}

size_t slotab_runs(const slotab *t) { return t->n; }

/* rows by job name, then instance (NULL first), then input line */
static int by_job_inst(const void *a, const void *b, void *ctx)
{
    const slotab *t = ctx;
    const struct slotab_row *x = &t->row[*(const size_t *)a], *y = &t->row[*(const size_t *)b];
    if (x->job != y->job)
        return x->job < y->job ? -1 : 1;
    if (!x->inst || !y->inst) {
        if (x->inst != y->inst)
            return x->inst ? 1 : -1;
    } else {
        int c = strcmp(x->inst, y->inst);
        if (c)
            return c;
    }
    return (x->line > y->line) - (x->line < y->line);
}

int slotab_dup_instance(slotab *t, long *line, const char **job, const char **instance)
{
    size_t *ix = xmalloc((t->n ? t->n : 1) * sizeof *ix);
    for (size_t i = 0; i < t->n; i++)
        ix[i] = i;
    qsort_r(ix, t->n, sizeof *ix, by_job_inst, t);
    int found = 0;
    for (size_t i = 1; i < t->n; i++) {
        const struct slotab_row *x = &t->row[ix[i - 1]], *y = &t->row[ix[i]];
        if (x->job == y->job && x->inst && y->inst && strcmp(x->inst, y->inst) == 0 && (!found || y->line < *line)) {
            found = 1;
            *line = y->line;
            *job = keyset_key(t->names, (long)y->job);
            *instance = y->inst;
        }
    }
    free(ix);
    return found;
}

/* rows by job NAME, then input line */
static int by_name_line(const void *a, const void *b, void *ctx)
{
    const slotab *t = ctx;
    const struct slotab_row *x = &t->row[*(const size_t *)a], *y = &t->row[*(const size_t *)b];
    if (x->job != y->job) {
        int c = strcmp(t->name[x->job], t->name[y->job]);
        if (c)
            return c;
    }
    return (x->line > y->line) - (x->line < y->line);
}

size_t slotab_group(slotab *t)
{
    size_t n = t->n;
    size_t *ix = xmalloc((n ? n : 1) * sizeof *ix);
    for (size_t i = 0; i < n; i++)
        ix[i] = i;
    size_t nnames = keyset_size(t->names);
    t->name = xmalloc((nnames ? nnames : 1) * sizeof *t->name);
    for (size_t j = 0; j < nnames; j++)
        t->name[j] = keyset_key(t->names, (long)j);
    qsort_r(ix, n, sizeof *ix, by_name_line, t);
    free(t->name);
    t->name = NULL;
    struct slotab_row *row = xmalloc((n ? n : 1) * sizeof *row);
    struct slo_run *run = xmalloc((n ? n : 1) * sizeof *run);
    t->tags = xmalloc((n ? n : 1) * sizeof *t->tags);
    for (size_t i = 0; i < n; i++) {
        row[i] = t->row[ix[i]];
        run[i] = t->run[ix[i]];
        t->tags[i] = row[i].tag;
    }
    free(ix);
    free(t->row);
    free(t->run);
    t->row = row;
    t->run = run;
    t->cap_row = t->cap_run = n;
    t->first = xmalloc((nnames + 1) * sizeof *t->first);
    t->jorder = xmalloc((nnames + 1) * sizeof *t->jorder);
    t->njobs = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || row[i].job != row[i - 1].job) {
            t->first[t->njobs] = i;
            t->jorder[t->njobs++] = row[i].job;
        }
    t->first[t->njobs] = n;
    return t->njobs;
}

const char *slotab_job(slotab *t, size_t i, struct slo_run **runs, const long **tags, size_t *n)
{
    *runs = t->run + t->first[i];
    if (tags)
        *tags = t->tags + t->first[i];
    *n = t->first[i + 1] - t->first[i];
    return keyset_key(t->names, (long)t->jorder[i]);
}
