/* cptable — classpick's class, current-utilization and DAG tables (see
 * cptable.h).  Tens of classes: linear lookups. */
#include "harvest/cptable.h"
#include "base/diag.h"
#include "base/keytab.h"
#include "base/group.h"
#include "base/keyset.h"
#include "base/rng.h"

#include <stdio.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const cp_class_keys[] = {"class",   "pattern",      "avg_util", "peak_util",
                                     "servers", "current_util", NULL};
const char *const cp_current_keys[] = {"class", "current_util", NULL};
const char *const cp_dag_keys[] = {"job", "vertex", "tasks", "parent", NULL};

long cp_table_find(const struct cp_table *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->c[i].name, name) == 0)
            return (long)i;
    return -1;
}

/* one class row into c (name not yet copied); -1 (reported) on a bad row */
static int class_row(csvr *r, keyset *seen, const int *col, double uscale, int *got_current, struct cp_class *c)
{
    const char *name = csvr_field_required(r, col[0], "class"), *pn = csvr_field(r, col[1]);
    if (!name)
        return -1;
    int pat = cp_pattern_parse(pn);
    if (pat < 0)
        return csvr_fail(r, "column 'pattern': '%s' is not periodic, constant or unpredictable", pn ? pn : "");
    double a, k, s, cur = NAN;
    if (csvr_get_double(r, col[2], &a, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
        csvr_get_double(r, col[3], &k, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
        csvr_get_double(r, col[4], &s, CSVR_REQUIRED | CSVR_NONNEG) < 0)
        return -1;
    int got = col[5] >= 0 ? csvr_get_double(r, col[5], &cur, CSVR_NONNEG) : 0;
    if (got < 0)
        return -1;
    if (s > 1e12) /* a class of tenants of at most 1e8 servers each; beyond, rooms overflow to inf */
        return csvr_fail_large(r, col[4], 1e12);
    if (a > uscale || k > uscale || (got > 0 && cur > uscale))
        return csvr_fail(r, "utilization above %g%s", uscale,
                         uscale > 1 ? "" : " (for 0-100 tables use --scale percent)");
    if (k < a) /* long jobs would get more room than medium ones: swapped columns? */
        return csvr_fail(r, "peak_util '%s' is below avg_util '%s' (a class's peak is at least its average)",
                         csvr_field(r, col[3]), csvr_field(r, col[2]));
    memset(c, 0, sizeof *c);
    c->name = name;
    c->pattern = pat;
    c->avg = a / uscale;
    c->peak = k / uscale;
    c->servers = s;
    c->current = got > 0 ? cur / uscale : NAN;
    *got_current = got > 0;
    if (!keytab_row(seen, r, col[0])) /* the one duplicate rule, after the row's other checks */
        return -1;
    return 0;
}

int cp_read_classes(const char *path, const struct csv_dialect *d, double uscale, struct cp_table *t)
{
    int st;
    memset(t, 0, sizeof *t);
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int col[6];
    col[5] = csvr_col(r, "current_util");
    if (csvr_require_cols(r, "class", &col[0], "pattern", &col[1], "avg_util", &col[2], "peak_util", &col[3],
                          "servers", &col[4], (char *)NULL) < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    size_t cap = 0;
    t->have_current = col[5] >= 0;
    keyset *seen = keyset_new();
    while (csvr_next(r) > 0) {
        struct cp_class c = {0};
        int gotc = 0;
        if (class_row(r, seen, col, uscale, &gotc, &c) < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        if (!gotc)
            t->have_current = 0;
        c.name = xstrdup(c.name);
        t->c = xgrow(t->c, &cap, t->n + 1, sizeof *t->c);
        t->c[t->n++] = c;
    }
    keyset_free(seen);
    st = csvr_status(r);
    csvr_close(r);
    if (!st && t->n == 0) {
        slk_error_at(path, 0, "no classes");
        st = SLK_EDATA;
    }
    return st;
}

int cp_read_current(const char *path, const struct csv_dialect *d, double uscale, const char *classes_path,
                    struct cp_table *t)
{
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int cc, cu;
    if (csvr_require_cols(r, "class", &cc, "current_util", &cu, (char *)NULL) < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    keyset *seen = keyset_new(); /* a class given twice is an error, not "the last wins" */
    while (csvr_next(r) > 0) {
        const char *name = csvr_field_required(r, cc, NULL);
        long i = name ? cp_table_find(t, name) : -1;
        double u = 0;
        if (name && i < 0)
            csvr_fail(r, "class '%s' is not in --classes %s", name, classes_path);
        else if (i >= 0 &&
                 (csvr_get_double(r, cu, &u, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
                  (u > uscale && csvr_fail(r, "column 'current_util': %g is above %g", u, uscale) < 0) ||
                  !keytab_row(seen, r, cc)))
            i = -1;
        if (i < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        t->c[i].current = u / uscale;
    }
    keyset_free(seen);
    st = csvr_status(r);
    csvr_close(r);
    return st;
}

void cp_table_free(struct cp_table *t)
{
    for (size_t i = 0; i < t->n; i++)
        free((char *)t->c[i].name);
    free(t->c);
    memset(t, 0, sizeof *t);
}

/* Why no class was chosen for a job of `type` and `demand` (free room
 * `total` in the classes --weight allows): the room, and the classes a
 * weight of 0 kept out; when every class is kept out, that and nothing else
 * (the room of 0 is not a lack of room). */
static void none_reason(const struct cp_params *p, const struct cp_table *t, int type, double demand,
                        double total, char *reason, size_t rsize)
{
    size_t excluded = 0;
    int seen[CP_NPATTERNS] = {0};
    for (size_t i = 0; i < t->n; i++)
        if (!(p->weight[type][t->c[i].pattern] > 0)) {
            excluded++;
            seen[t->c[i].pattern] = 1;
        }
    if (excluded == 0) {
        snprintf(reason, rsize, "no combination fits: demand %g > free room %g containers", demand, total);
        return;
    }
    char pats[64] = "";
    for (int q = 0; q < CP_NPATTERNS; q++)
        if (seen[q])
            snprintf(pats + strlen(pats), sizeof pats - strlen(pats), "%s%s", pats[0] ? " and " : "",
                     cp_pattern_name(q));
    if (excluded == t->n)
        snprintf(reason, rsize,
                 "no class allowed: --weight gives %s jobs weight 0 on every pattern of the classes (%s)",
                 cp_type_name(type), pats);
    else
        snprintf(reason, rsize,
                 "no combination fits: demand %g > free room %g containers (%zu of %zu classes excluded: "
                 "--weight 0 "
                 "for %s jobs on %s)",
                 demand, total, excluded, t->n, cp_type_name(type), pats);
}

int cp_pick(const struct cp_params *p, struct cp_table *t, uint64_t seed, const char *job, int type, double demand,
            int book, size_t *chosen, char *names, size_t nsize, char *reason, size_t rsize)
{
    rng rr;
    rng_seed_key(&rr, seed, job);
    size_t nch = 0, nfit = 0;
    double total = 0;
    int out =
        demand > 0 ? cp_select(p, type, demand, t->c, t->n, &rr, chosen, &nch, &nfit, &total) : CP_NO_DEMAND;
    names[0] = 0;
    for (size_t i = 0; i < nch; i++) {
        if (i)
            strncat(names, "+", nsize - strlen(names) - 1);
        strncat(names, t->c[chosen[i]].name, nsize - strlen(names) - 1);
    }
    if (out == CP_NO_DEMAND)
        snprintf(reason, rsize, "no containers needed");
    else if (out == CP_ONE)
        snprintf(reason, rsize, "fits in %zu of %zu classes; drawn by weighted headroom", nfit, t->n);
    else if (out == CP_SEVERAL)
        snprintf(reason, rsize, "no class fits alone; %zu classes hold it together", nch);
    else
        none_reason(p, t, type, demand, total, reason, rsize);
    if (book && (out == CP_ONE || out == CP_SEVERAL))
        cp_book(p, type, demand, t->c, chosen, nch);
    return out;
}

/* ---- DAGs ---------------------------------------------------------------------- */

static int cmp_dag(const void *a, const void *b)
{
    return strcmp(((const struct cp_dagdemand *)a)->job, ((const struct cp_dagdemand *)b)->job);
}

/* the edges of the job being read, kept until the job ends */
struct edges { char **parent, **child; long *line; size_t n, cap, cap2, cap3; };

static void edges_add(struct edges *e, const char *parent, const char *child, long line)
{
    e->parent = xgrow(e->parent, &e->cap, e->n + 1, sizeof *e->parent);
    e->child = xgrow(e->child, &e->cap2, e->n + 1, sizeof *e->child);
    e->line = xgrow(e->line, &e->cap3, e->n + 1, sizeof *e->line);
    e->parent[e->n] = xstrdup(parent);
    e->child[e->n] = xstrdup(child);
    e->line[e->n++] = line;
}

static void edges_clear(struct edges *e)
{
    for (size_t i = 0; i < e->n; i++) {
        free(e->parent[i]);
        free(e->child[i]);
    }
    e->n = 0;
}

/* a job ended: add its edges, compute its demand into t */
static int dag_finish(struct cp_dagtab *t, const char *job, cp_dag *d, struct edges *e, const char *path, long line)
{
    for (size_t i = 0; i < e->n; i++)
        if (cp_dag_edge(d, e->parent[i], e->child[i]) < 0) {
            slk_error_at(path, e->line[i], "job '%s': parent '%s' is not a vertex of the job", job, e->parent[i]);
            return SLK_EDATA;
        }
    int levels = 0;
    double m = cp_dag_max_concurrency(d, &levels);
    if (m < 0) {
        slk_error_at(path, line, "job '%s': the DAG has a cycle", job);
        return SLK_EDATA;
    }
    if (m > CSVR_MAX_VALUE) {
        slk_error_at(path, line, "job '%s': the DAG's demand, %g containers, is beyond %g", job, m,
                     CSVR_MAX_VALUE);
        return SLK_EDATA;
    }
    t->d = xgrow(t->d, &t->cap, t->n + 1, sizeof *t->d);
    t->d[t->n].job = xstrdup(job);
    t->d[t->n].demand = m;
    t->d[t->n++].levels = levels;
    return SLK_OK;
}

/* one DAG row into d (and e); -1 (reported) on a bad row */
static int dag_row(csvr *r, const char *job, int cv, int ct, int cp, cp_dag *d, struct edges *e)
{
    const char *v = csvr_field_required(r, cv, "vertex"), *par = csvr_field(r, cp);
    double tasks;
    if (!v)
        return -1;
    if (csvr_get_double(r, ct, &tasks, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0)
        return -1;
    if (tasks != floor(tasks))
        return csvr_fail(r, "column 'tasks': a whole number of tasks, got %g", tasks);
    if (cp_dag_vertex(d, v, tasks) < 0)
        return csvr_fail(r, "job '%s': vertex '%s' is given two different task counts", job, v);
    if (par)
        edges_add(e, par, v, csvr_line(r));
    return 0;
}

int cp_read_dags(const char *path, const struct csv_dialect *dl, struct cp_dagtab *t)
{
    int st;
    csvr *r = csvr_open_with(path, dl, 0, &st);
    if (!r)
        return st;
    int cj, cv, ct, cp;
    if (csvr_require_cols(r, "job", &cj, "vertex", &cv, "tasks", &ct, "parent", &cp, (char *)NULL) < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    group_iter g;
    group_begin(&g, "job", GROUP_STRICT);
    cp_dag *d = NULL;
    char *cur = NULL;
    long cur_line = 0;
    struct edges e = {0};
    st = SLK_OK;
    for (;;) {
        int rc = csvr_next(r);
        const char *job = rc > 0 ? csvr_field_required(r, cj, "job") : NULL;
        if (rc > 0 && !job)
            rc = -1;
        int gc = rc > 0 ? group_row(&g, r, job) : GROUP_NEW;
        if (gc == GROUP_ERROR)
            rc = -1;
        if (rc < 0)
            break;
        if (gc == 1 && cur) {
            st = dag_finish(t, cur, d, &e, csvr_path(r), cur_line);
            edges_clear(&e);
            cp_dag_free(d);
            d = NULL;
            free(cur);
            cur = NULL;
            if (st)
                break;
        }
        if (rc == 0)
            break;
        if (!cur) {
            cur = xstrdup(job);
            cur_line = csvr_line(r);
            d = cp_dag_new();
        }
        if (dag_row(r, job, cv, ct, cp, d, &e) < 0)
            break;
    }
    if (!st)
        st = csvr_status(r);
    edges_clear(&e);
    free(e.parent);
    free(e.child);
    free(e.line);
    cp_dag_free(d);
    free(cur);
    group_end(&g);
    csvr_close(r);
    if (!st && t->n > 1)
        qsort(t->d, t->n, sizeof *t->d, cmp_dag);
    return st;
}

const struct cp_dagdemand *cp_dag_lookup(const struct cp_dagtab *t, const char *job)
{
    struct cp_dagdemand key = {(char *)job, 0, 0};
    return t->n ? bsearch(&key, t->d, t->n, sizeof *t->d, cmp_dag) : NULL;
}

void cp_dagtab_free(struct cp_dagtab *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->d[i].job);
    free(t->d);
    memset(t, 0, sizeof *t);
}
