/* classpick — Algorithm 1 (class selection) and DAG concurrency (see classpick.h).
 * Sized for tens of classes per decision (linear scans over the classes);
 * DAG vertices are hashed by name and traversed in linear time. */
#include "harvest/classpick.h"
#include "base/diag.h"
#include "base/keyset.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_names[CP_NTYPES] = {"short", "medium", "long"};
static const char *const pattern_names[CP_NPATTERNS] = {"periodic", "constant", "unpredictable"};

void cp_params_default(struct cp_params *p)
{
    memset(p, 0, sizeof *p);
    p->short_max = 173;
    p->long_min = 433;
    p->reserve = 0.33;
    p->cores = 12;
    p->weight[CP_LONG][CP_CONSTANT] = 3;
    p->weight[CP_LONG][CP_PERIODIC] = 2;
    p->weight[CP_LONG][CP_UNPREDICTABLE] = 1;
    p->weight[CP_MEDIUM][CP_PERIODIC] = 3;
    p->weight[CP_MEDIUM][CP_CONSTANT] = 2;
    p->weight[CP_MEDIUM][CP_UNPREDICTABLE] = 1;
    p->weight[CP_SHORT][CP_UNPREDICTABLE] = 3;
    p->weight[CP_SHORT][CP_PERIODIC] = 2;
    p->weight[CP_SHORT][CP_CONSTANT] = 1;
}

const char *cp_type_name(int t) { return t >= 0 && t < CP_NTYPES ? type_names[t] : "?"; }
const char *cp_pattern_name(int p) { return p >= 0 && p < CP_NPATTERNS ? pattern_names[p] : "?"; }

int cp_type_parse(const char *s)
{
    for (int i = 0; i < CP_NTYPES; i++)
        if (s && strcmp(s, type_names[i]) == 0)
            return i;
    return -1;
}

int cp_pattern_parse(const char *s)
{
    for (int i = 0; i < CP_NPATTERNS; i++)
        if (s && strcmp(s, pattern_names[i]) == 0)
            return i;
    return -1;
}

int cp_job_type(const struct cp_params *p, double d)
{
    if (!(d >= 0))
        return CP_MEDIUM; /* never ran (or NaN) */
    if (d < p->short_max)
        return CP_SHORT;
    if (d > p->long_min)
        return CP_LONG;
    return CP_MEDIUM;
}

double cp_headroom(int type, const struct cp_class *c)
{
    switch (type) {
    case CP_SHORT: return 1 - c->current;
    case CP_MEDIUM: return 1 - fmax(c->avg, c->current);
    default: return 1 - fmax(fmax(c->peak, c->avg), c->current);
    }
}

double cp_room(const struct cp_params *p, int type, const struct cp_class *c)
{
    double h = cp_headroom(type, c) - p->reserve;
    if (!(h > 0))
        return 0;
    /* the small epsilon keeps 0.67 x 12 x 25 = 201 from flooring to 200 */
    double room = floor(h * c->servers * p->cores + 1e-9) - c->used;
    return room > 0 ? room : 0;
}

/* Draw one index of cand[0..n) with probability proportional to w; returns
 * its position in cand, or -1 when all weights are 0. */
static long draw(rng *r, const size_t *cand, const double *w, size_t n)
{
    double tot = 0;
    for (size_t i = 0; i < n; i++)
        tot += w[cand[i]];
    if (!(tot > 0))
        return -1;
    double u = rng_uniform(r) * tot, acc = 0;
    long last = -1;
    for (size_t i = 0; i < n; i++) {
        if (w[cand[i]] <= 0)
            continue;
        acc += w[cand[i]];
        last = (long)i;
        if (u < acc)
            return (long)i;
    }
    return last; /* rounding at the end */
}

double cp_rooms(const struct cp_params *p, int type, const struct cp_class *cls, size_t ncls, double *room,
                double *wr)
{
    double sum = 0;
    for (size_t i = 0; i < ncls; i++) {
        double w = p->weight[type][cls[i].pattern];
        room[i] = w > 0 ? cp_room(p, type, &cls[i]) : 0;
        wr[i] = room[i] * w;
        sum += room[i];
    }
    return sum;
}

int cp_choose(double demand, const double *room, const double *wr, double sum, size_t ncls, rng *r,
              size_t *cand, size_t *chosen, size_t *nchosen, size_t *nfit)
{
    size_t nf = 0;
    *nchosen = 0;
    if (nfit)
        *nfit = 0;
    /* rooms are >= 0 (cp_room), so none alone and not all together hold
     * more than their sum: no choice and no draw, without the scan */
    if (sum < demand)
        return CP_NONE;
    for (size_t i = 0; i < ncls; i++)
        if (room[i] >= demand && wr[i] > 0)
            cand[nf++] = i;
    int outcome = CP_NONE;
    if (nf > 0) {
        long k = draw(r, cand, wr, nf);
        chosen[(*nchosen)++] = cand[k];
        outcome = CP_ONE;
    } else if (sum >= demand && demand > 0) {
        size_t nc = 0;
        for (size_t i = 0; i < ncls; i++)
            if (wr[i] > 0)
                cand[nc++] = i;
        double got = 0;
        while (got < demand && nc > 0) {
            long k = draw(r, cand, wr, nc);
            size_t c = cand[k];
            chosen[(*nchosen)++] = c;
            got += room[c];
            cand[k] = cand[--nc]; /* without replacement; order of the rest does not matter for the draw */
        }
        outcome = CP_SEVERAL;
    }
    if (nfit)
        *nfit = nf;
    return outcome;
}

int cp_select(const struct cp_params *p, int type, double demand, const struct cp_class *cls, size_t ncls,
              rng *r, size_t *chosen, size_t *nchosen, size_t *nfit, double *total)
{
    double *room = xmalloc((ncls ? ncls : 1) * sizeof *room), *wr = xmalloc((ncls ? ncls : 1) * sizeof *wr);
    size_t *cand = xmalloc((ncls ? ncls : 1) * sizeof *cand);
    double sum = cp_rooms(p, type, cls, ncls, room, wr);
    int outcome = cp_choose(demand, room, wr, sum, ncls, r, cand, chosen, nchosen, nfit);
    if (total)
        *total = sum;
    free(room);
    free(wr);
    free(cand);
    return outcome;
}

void cp_book(const struct cp_params *p, int type, double demand, struct cp_class *cls, const size_t *chosen,
             size_t nchosen)
{
    double left = demand;
    for (size_t i = 0; i < nchosen && left > 0; i++) {
        struct cp_class *c = &cls[chosen[i]];
        double take = i + 1 == nchosen ? left : fmin(left, cp_room(p, type, c));
        c->used += take;
        left -= take;
    }
}

/* ---- DAG ---------------------------------------------------------------------- */

struct cp_edge { size_t from, to; };

/* Vertices are numbered in the order they are declared (the keyset's row
 * numbers), so lookups are hashed and the traversal below is linear in
 * vertices plus edges: a DAG of 300,000 vertices takes well under a second. */
struct cp_dag {
    keyset *names; /* vertex name -> its number; how many vertices */
    double *tasks; /* [number]: the vertex's tasks */
    size_t cap;
    struct cp_edge *e;
    size_t ne, ecap;
};

cp_dag *cp_dag_new(void)
{
    cp_dag *d = xcalloc(1, sizeof(cp_dag));
    d->names = keyset_new();
    return d;
}

void cp_dag_free(cp_dag *d)
{
    if (!d)
        return;
    keyset_free(d->names);
    free(d->tasks);
    free(d->e);
    free(d);
}

size_t cp_dag_size(const cp_dag *d) { return keyset_size(d->names); }

int cp_dag_vertex(cp_dag *d, const char *name, double tasks)
{
    int added;
    long i = keyset_intern(d->names, name, &added);
    if (!added)
        return d->tasks[i] == tasks ? 0 : -1;
    d->tasks = xgrow(d->tasks, &d->cap, (size_t)i + 1, sizeof *d->tasks);
    d->tasks[i] = tasks;
    return 0;
}

int cp_dag_edge(cp_dag *d, const char *parent, const char *child)
{
    long a = keyset_row(d->names, parent), b = keyset_row(d->names, child);
    if (a < 0 || b < 0)
        return -1;
    d->e = xgrow(d->e, &d->ecap, d->ne + 1, sizeof *d->e);
    d->e[d->ne].from = (size_t)a;
    d->e[d->ne++].to = (size_t)b;
    return 0;
}

double cp_dag_max_concurrency(cp_dag *d, int *levels)
{
    size_t n = cp_dag_size(d);
    if (n == 0)
        return -1;
    size_t *indeg = xcalloc(n, sizeof *indeg), *level = xcalloc(n, sizeof *level);
    size_t *queue = xmalloc(n * sizeof *queue);
    /* children by parent (counting sort of the edges by their parent) */
    size_t *first = xcalloc(n + 1, sizeof *first), *child = xmalloc((d->ne ? d->ne : 1) * sizeof *child);
    for (size_t e = 0; e < d->ne; e++) {
        indeg[d->e[e].to]++;
        first[d->e[e].from + 1]++;
    }
    for (size_t i = 0; i < n; i++)
        first[i + 1] += first[i];
    size_t *at = xmalloc(n * sizeof *at);
    memcpy(at, first, n * sizeof *at);
    for (size_t e = 0; e < d->ne; e++)
        child[at[d->e[e].from]++] = d->e[e].to;
    free(at);
    size_t qh = 0, qt = 0;
    for (size_t i = 0; i < n; i++)
        if (indeg[i] == 0)
            queue[qt++] = i;
    size_t maxlev = 0;
    while (qh < qt) {
        size_t v = queue[qh++];
        for (size_t c = first[v]; c < first[v + 1]; c++) {
            size_t w = child[c];
            if (level[v] + 1 > level[w])
                level[w] = level[v] + 1;
            if (--indeg[w] == 0)
                queue[qt++] = w;
        }
        if (level[v] > maxlev)
            maxlev = level[v];
    }
    double best = -1;
    if (qt == n) { /* every vertex reached: no cycle */
        double *sum = xcalloc(maxlev + 1, sizeof *sum);
        for (size_t i = 0; i < n; i++)
            sum[level[i]] += d->tasks[i];
        best = 0;
        for (size_t l = 0; l <= maxlev; l++)
            if (sum[l] > best)
                best = sum[l];
        free(sum);
        if (levels)
            *levels = maxlev + 1 > INT_MAX ? INT_MAX : (int)maxlev + 1;
    }
    free(indeg);
    free(level);
    free(queue);
    free(first);
    free(child);
    return best;
}
