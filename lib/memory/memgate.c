/* memgate — one-peak-at-a-time node simulation (see memgate.h).
 *
 * Tuned for long runs of few tasks (100 tasks x 604,800 one-second steps):
 * per step and task the loop does a comparison and, for model tasks, one
 * model step; the cyclic token scan runs only in steps where some task asks.
 * A step visits only the tasks still running (the active list, in task
 * order), so one long task among many short ones costs its own length, not
 * its length times the number of tasks. */
#include "memory/memgate.h"
#include "base/diag.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *memgate_state_name(int s)
{
    static const char *const names[] = {"run", "peak", "paused", "done"};
    return s >= 0 && s <= MEMGATE_DONE ? names[s] : "?";
}

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* sum(base) + sum of the k largest extras */
static double base_plus_topk(double sum_base, double *extra, size_t n, int k)
{
    qsort(extra, n, sizeof *extra, cmp_desc);
    double s = sum_base;
    for (size_t i = 0; i < n && (long long)i < k; i++)
        if (extra[i] > 0)
            s += extra[i];
    return s;
}

double memgate_bound(const struct memgate_task *t, size_t n, int k, double approach)
{
    double *extra = xcalloc(n ? n : 1, sizeof *extra), sum = 0;
    for (size_t i = 0; i < n; i++) {
        double b = approach * t[i].normal < t[i].peak ? approach * t[i].normal : t[i].peak;
        sum += b;
        extra[i] = t[i].peak - b;
    }
    double r = base_plus_topk(sum, extra, n, k);
    free(extra);
    return r;
}

double memgate_bound_simple(const struct memgate_task *t, size_t n, int k)
{
    double *extra = xcalloc(n ? n : 1, sizeof *extra), sum = 0;
    for (size_t i = 0; i < n; i++) {
        sum += t[i].normal;
        extra[i] = t[i].peak - t[i].normal;
    }
    double r = base_plus_topk(sum, extra, n, k);
    free(extra);
    return r;
}

/* The simulation state of one run (arrays of n). */
struct gate {
    const struct memgate_task *t;
    struct memgate_task_result *tr;
    double *cur, *thr, *nextv;
    size_t *pos;
    unsigned char *hold, *want, *done, *state;
    long long *pause_run;
    struct memmodel *models;
    size_t ndone;
    size_t *act, nact; /* the tasks not finished at the start of the step, in task order */
    int k, holders;    /* tokens, and how many are held */
    size_t ptr;        /* the last task served; the token scan starts after it */
};

/* advance task i by one step of its trajectory (it is allowed to). */
static void gate_advance(struct gate *g, size_t i, long long s)
{
    const struct memgate_task *t = &g->t[i];
    struct memgate_task_result *tr = &g->tr[i];
    double v = t->series ? t->series[g->pos[i]] : g->nextv[i];
    if (g->cur[i] <= g->thr[i] && v > g->thr[i])
        tr->peaks++;
    g->cur[i] = v;
    g->state[i] = (g->hold[i] || v > g->thr[i]) ? MEMGATE_PEAK : MEMGATE_RUN;
    tr->progress++;
    g->pause_run[i] = 0;
    if (v > tr->max_mem)
        tr->max_mem = v;
    if (t->series) {
        if (++g->pos[i] == t->len) {
            g->done[i] = 1;
            g->ndone++;
            tr->elapsed = s + 1;
        }
    } else {
        g->nextv[i] = memmodel_next(&g->models[i]);
    }
}

/* the step's token round: free tokens to the waiting tasks in cyclic order
 * after the last served (only active tasks can want one); returns how many
 * stay paused */
static size_t gate_tokens(struct gate *g, long long s)
{
    size_t first = 0, hi = g->nact, paused = 0; /* the first active task after ptr */
    while (first < hi) {
        size_t mid = first + (hi - first) / 2;
        if (g->act[mid] <= g->ptr)
            first = mid + 1;
        else
            hi = mid;
    }
    if (first == g->nact) /* every active task is at or before ptr: wrap */
        first = 0;
    for (size_t j = 0, at = first; j < g->nact; j++, at = at + 1 == g->nact ? 0 : at + 1) {
        size_t i = g->act[at];
        if (!g->want[i])
            continue;
        g->want[i] = 0;
        struct memgate_task_result *tr = &g->tr[i];
        if (g->holders < g->k) {
            g->hold[i] = 1;
            g->holders++;
            g->ptr = i;
            tr->grants++;
            gate_advance(g, i, s);
        } else {
            g->state[i] = MEMGATE_PAUSED;
            paused++;
            tr->paused++;
            if (++g->pause_run[i] > tr->longest_pause)
                tr->longest_pause = g->pause_run[i];
        }
    }
    return paused;
}

/* one step s; returns how many tasks it left paused */
static size_t gate_step(struct gate *g, long long s)
{
    /* A: holders back at or below their threshold give their token back */
    if (g->holders)
        for (size_t a = 0; a < g->nact; a++) {
            size_t i = g->act[a];
            if (g->hold[i] && (g->done[i] || g->cur[i] <= g->thr[i])) {
                g->hold[i] = 0;
                g->holders--;
            }
        }
    /* B: tasks that stay at or below their threshold (or hold a token)
     * advance; those that finished last step leave the active list */
    int nreq = 0;
    size_t keep = 0;
    for (size_t a = 0; a < g->nact; a++) {
        size_t i = g->act[a];
        if (g->done[i]) {
            g->state[i] = MEMGATE_DONE;
            g->cur[i] = 0;
            continue;
        }
        g->act[keep++] = i;
        double v = g->t[i].series ? g->t[i].series[g->pos[i]] : g->nextv[i];
        if (g->k > 0 && !g->hold[i] && v > g->thr[i]) {
            g->want[i] = 1;
            nreq++;
        } else {
            gate_advance(g, i, s);
        }
    }
    g->nact = keep;
    /* C: the token round */
    return nreq ? gate_tokens(g, s) : 0;
}

int memgate_run(const struct memgate_task *t, size_t n, const struct memgate_opts *o,
                double node_mb, memgate_step_fn fn, void *ctx,
                struct memgate_task_result *tr, struct memgate_result *res)
{
    memset(res, 0, sizeof *res);
    memset(tr, 0, n * sizeof *tr);
    if (n == 0)
        return SLK_OK;
    struct gate g = {
        .t = t,
        .tr = tr,
        .k = o->k,
        .ptr = n - 1,
        .cur = xcalloc(n, sizeof(double)),
        .thr = xcalloc(n, sizeof(double)),
        .nextv = xcalloc(n, sizeof(double)),
        .pos = xcalloc(n, sizeof(size_t)),
        .hold = xcalloc(n, 1),
        .want = xcalloc(n, 1),
        .done = xcalloc(n, 1),
        .state = xcalloc(n, 1),
        .pause_run = xcalloc(n, sizeof(long long)),
        .models = xcalloc(n, sizeof(struct memmodel)),
        .act = xcalloc(n, sizeof(size_t)),
    };
    int status = SLK_OK;
    long long horizon = o->steps, cap = 1;
    for (size_t i = 0; i < n; i++) {
        g.thr[i] = o->approach * t[i].normal;
        if (!t[i].series) {
            memmodel_init(&g.models[i], t[i].model, t[i].seed, t[i].name);
            g.nextv[i] = memmodel_next(&g.models[i]);
        } else {
            cap += (long long)t[i].len + 1;
            if (t[i].len == 0) {
                g.done[i] = 1;
                g.ndone++;
                g.state[i] = MEMGATE_DONE;
            }
        }
        if (!g.done[i])
            g.act[g.nact++] = i;
    }
    if (horizon <= 0)
        horizon = cap;  /* every step some task progresses, so all series end before this */
    res->bound = memgate_bound(t, n, g.k > 0 ? g.k : (int)n, o->approach);
    /* a relative slack absorbs the rounding of the sums */
    double bound_tol = res->bound * (1 + 1e-12);
    double total_sum = 0;

    long long s;
    for (s = 0; s < horizon; s++) {
        if (o->steps <= 0 && g.ndone == n)
            break;
        size_t paused = gate_step(&g, s);
        /* finished tasks hold 0 MB, so the sum over the active ones in task
         * order is the sum over all of them, bit for bit */
        double total = 0;
        for (size_t a = 0; a < g.nact; a++)
            total += g.cur[g.act[a]];
        total_sum += total;
        if (total > res->max_mem)
            res->max_mem = total;
        if (total > node_mb)
            res->over_node++;
        if (total > bound_tol)
            res->over_bound++;
        struct memgate_step st = {s, g.cur, g.state, n, total, paused};
        if (fn && (status = fn(ctx, &st)) != 0)
            break;
    }
    res->steps = s;
    res->mean_mem = s > 0 ? total_sum / (double)s : 0;
    for (size_t i = 0; i < n; i++)
        if (!g.done[i] || tr[i].elapsed == 0)
            tr[i].elapsed = s;
    free(g.cur);
    free(g.thr);
    free(g.nextv);
    free(g.pos);
    free(g.hold);
    free(g.want);
    free(g.done);
    free(g.state);
    free(g.pause_run);
    free(g.models);
    free(g.act);
    return status;
}
