/* lowcost — LowCost placement of one reservation request (see lowcost.h).
 *
 * Work per request: one pass over the window to build the job's view of the
 * cost (each instance's, and the worst over its instances), then for each
 * end point tried a greedy over the stages driven by a min-heap of eligible
 * steps, and a rigid try.  Scratch arrays live in the caller's workspace
 * (struct lowcost_ws), which grows to the largest window seen, so placing
 * 10,000 jobs allocates almost nothing and two threads with two workspaces
 * never share state.
 */
#include "morpheus/lowcost.h"
#include "base/diag.h"
#include "base/heap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per-stage figures derived from the request. */
struct stagefig {
    int64_t gangs;      /* whole gangs of the stage */
    int64_t perstep;    /* most gangs per step */
    long minlen;        /* steps needed at most parallelism */
    double dem;         /* containers (gangs * gang) */
};

/* The workspace: the job's view of its window, offset o in [0, W) meaning
 * step lo + o, and the scratch of one request's trials.  A one-off whose
 * window is longer than the cycle folds onto itself (fold): offsets o and
 * o + ns share a slot, and a trial's own containers there add up (xs). */
struct lowcost_ws {
    long lo, W, ni;
    long ns;     /* the plan's nsteps */
    int fold;    /* 1: a ONCE window of more than ns steps */
    int64_t *xs; /* fold: the trial's containers per slot [ns] */
    size_t xscap;
    double *um, *uc;        /* worst utilisation over instances (mem, cores) */
    double *im, *ic;        /* worst cost increment per container */
    int64_t *room;          /* free containers (min over instances) */
    int32_t *x;             /* trial: containers placed at o */
    int32_t *stg;           /* trial: stage at o */
    int32_t *bx, *bstg;     /* best trial */
    size_t cap;
    double *ium, *iuc, *iim, *iic; /* the same per instance, [o * ni + i] */
    size_t icap;
    double sharp;           /* B of the load score for this request (0: the peak) */
    struct stagefig *sf;
    size_t sfcap;
    long *minrest;          /* [k]: steps the stages before k need at least */
    size_t mrcap;
    heap h;
};

lowcost_ws *lowcost_ws_new(void)
{
    lowcost_ws *ws = xcalloc(1, sizeof *ws);
    heap_init(&ws->h);
    return ws;
}

void lowcost_ws_free(lowcost_ws *ws)
{
    if (!ws)
        return;
    free(ws->um), free(ws->uc), free(ws->im), free(ws->ic), free(ws->room);
    free(ws->x), free(ws->stg), free(ws->bx), free(ws->bstg);
    free(ws->ium), free(ws->iuc), free(ws->iim), free(ws->iic);
    free(ws->sf), free(ws->minrest), free(ws->xs);
    heap_free(&ws->h);
    free(ws);
}

static void view_reserve(lowcost_ws *ws, long W, long ni)
{
    if ((size_t)W > ws->cap) {
        size_t n = (size_t)W;
        ws->um = xreallocarray(ws->um, n, sizeof(double));
        ws->uc = xreallocarray(ws->uc, n, sizeof(double));
        ws->im = xreallocarray(ws->im, n, sizeof(double));
        ws->ic = xreallocarray(ws->ic, n, sizeof(double));
        ws->room = xreallocarray(ws->room, n, sizeof(int64_t));
        ws->x = xreallocarray(ws->x, n, sizeof(int32_t));
        ws->stg = xreallocarray(ws->stg, n, sizeof(int32_t));
        ws->bx = xreallocarray(ws->bx, n, sizeof(int32_t));
        ws->bstg = xreallocarray(ws->bstg, n, sizeof(int32_t));
        ws->cap = n;
    }
    size_t ni_n = (size_t)W * (size_t)ni;
    if (ni_n > ws->icap) {
        ws->ium = xreallocarray(ws->ium, ni_n, sizeof(double));
        ws->iuc = xreallocarray(ws->iuc, ni_n, sizeof(double));
        ws->iim = xreallocarray(ws->iim, ni_n, sizeof(double));
        ws->iic = xreallocarray(ws->iic, ni_n, sizeof(double));
        ws->icap = ni_n;
    }
}

static inline double over2(double c, double T)
{
    double d = c - T;
    return d > 0 ? d * d : 0;
}

static inline double vcost(const lowcost_ws *ws, long o, double x)
{
    double a = ws->um[o] + x * ws->im[o], b = ws->uc[o] + x * ws->ic[o];
    return a > b ? a : b;
}

/* own: the trial's containers on offset o's slot: x[o], or with a folded
 * window the sum over every offset of that slot (xs). */
static inline int64_t own(const lowcost_ws *ws, long o)
{
    return ws->fold ? ws->xs[(ws->lo + o) % ws->ns] : ws->x[o];
}

/* icost: the cost at offset o of instance i after adding x containers */
static inline double icost(const lowcost_ws *ws, long o, long i, double x)
{
    size_t k = (size_t)o * (size_t)ws->ni + (size_t)i;
    double a = ws->ium[k] + x * ws->iim[k], b = ws->iuc[k] + x * ws->iic[k];
    return a > b ? a : b;
}

/* once_base: where a PLAN_ONCE instance's period starts, in seconds from the
 * start of its cycle (0 for PERIODIC: instance 0 starts the cycle). */
static double once_base(const plan *p, enum plan_kind kind, int64_t instance, double period, int64_t cycle)
{
    return kind == PLAN_ONCE ? (double)instance * period - (double)cycle * (double)p->lcm : 0;
}

/* align_penalty: the alignment penalty of an allocation of steps [start, end)
 * (see lowcost.h); 0 unless problematic. */
static double align_penalty(const plan *p, const struct lowcost_opts *o, int problematic, double base, double a,
                            double d, long start, long end)
{
    double halfw = (d - a) / 2;
    if (!problematic || !(o->align_weight > 0) || !(halfw > 0))
        return 0;
    double mid = ((double)start + (double)end) / 2 * (double)p->step;
    return o->align_weight * fabs(mid - (base + (a + d) / 2)) / halfw;
}

void lowcost_stage_full(const struct lowcost_stage *s, int64_t *g, int64_t *gangs, int64_t *per)
{
    *g = s->gang > 0 ? s->gang : 1;
    *gangs = (s->demand + *g - 1) / *g;
    *per = s->maxpar / *g;
    if (*per < 1)
        *per = 1;
}

long lowcost_need(const struct lowcost_req *q)
{
    long n = 0;
    for (long k = 0; k < q->nstages; k++) {
        int64_t g, gangs, per;
        lowcost_stage_full(&q->stage[k], &g, &gangs, &per);
        n += (long)((gangs + per - 1) / per);
    }
    return n;
}

int lowcost_window(const plan *p, const struct lowcost_req *q, long *lo, long *hi)
{
    return plan_window(p, once_base(p, q->kind, q->instance, q->period, q->cycle), q->a, q->d, lowcost_need(q), lo,
                       hi);
}

long lowcost_window_most(const plan *p, const struct lowcost_req *q)
{
    long lo, hi, whole = (long)floor((q->d - q->a) / (double)p->step + 1e-9);
    if (whole < 1 || plan_window(p, once_base(p, q->kind, q->instance, q->period, q->cycle), q->a, q->d,
                                 whole, &lo, &hi) < 0)
        return 0;
    return hi - lo;
}

double lowcost_least_deadline(const plan *p, const struct lowcost_req *q)
{
    double base = once_base(p, q->kind, q->instance, q->period, q->cycle), st = (double)p->step;
    long need = lowcost_need(q), lo, hi;
    /* the window starts a step early when the request fits in seconds, so
     * a + need steps is enough unless a is at the cycle's start (never
     * widened): then the grid step need past the first whole one */
    double d = q->a + (double)need * st;
    if (plan_window(p, base, q->a, d, need, &lo, &hi) == 0 && lo + need <= hi)
        return d;
    lo = (long)ceil((base + q->a) / st - 1e-9);
    return (double)(lo + need) * st - base;
}

static long instances(const plan *p, const struct lowcost_req *q, long *pp)
{
    if (q->kind == PLAN_ONCE) {
        *pp = 0;
        return 1;
    }
    *pp = (long)llround(q->period / (double)p->step);
    long n = *pp > 0 ? p->nsteps / *pp : 1;
    return n < 1 ? 1 : n;
}

/* slot_view: instance i's figures at slot s for q: utilisation (with the
 * pressure), cost per container, free containers. */
static int64_t slot_view(const plan *p, const struct lowcost_req *q, long s, const double *pres, double *a,
                         double *b, double *ia, double *ib)
{
    double cm = p->cap_mem[s], cc = p->cap_cores[s];
    *a = p->load_mem[s] > 0 ? (cm > 0 ? p->load_mem[s] / cm : INFINITY) : 0;
    *b = p->load_cores[s] > 0 ? (cc > 0 ? p->load_cores[s] / cc : INFINITY) : 0;
    if (pres) {
        *a += pres[s];
        *b += pres[s];
    }
    *ia = q->mem_mb > 0 ? (cm > 0 ? q->mem_mb / cm : INFINITY) : 0;
    *ib = q->cores > 0 ? (cc > 0 ? q->cores / cc : INFINITY) : 0;
    return plan_headroom(p, s, q->cores, q->mem_mb);
}

/* build_view: the job's view of its window [lo, lo + W) and the sharpness
 * of the load score: LOWCOST_SHARPNESS (or o->sharpness) over the plan's
 * peak so far (at least one container's cost). */
static void build_view(lowcost_ws *ws, const plan *p, const struct lowcost_req *q, long lo, long W,
                       const struct lowcost_opts *opt)
{
    long pp, ni = instances(p, q, &pp);
    view_reserve(ws, W, ni);
    ws->lo = lo;
    ws->W = W;
    ws->ni = ni;
    ws->ns = p->nsteps;
    ws->fold = q->kind == PLAN_ONCE && W > p->nsteps;
    if (ws->fold)
        ws->xs = xgrow(ws->xs, &ws->xscap, (size_t)p->nsteps, sizeof *ws->xs);
    double ref = plan_peak(p, NULL);
    for (long o = 0; o < W; o++) {
        double um = 0, uc = 0, im = 0, ic = 0;
        int64_t room = INT64_MAX;
        for (long i = 0; i < ni; i++) {
            size_t k = (size_t)o * (size_t)ni + (size_t)i;
            int64_t h = slot_view(p, q, plan_mod(lo + o + i * pp, p->nsteps), opt->pressure, &ws->ium[k],
                                  &ws->iuc[k], &ws->iim[k], &ws->iic[k]);
            um = fmax(um, ws->ium[k]);
            uc = fmax(uc, ws->iuc[k]);
            im = fmax(im, ws->iim[k]);
            ic = fmax(ic, ws->iic[k]);
            if (h < room)
                room = h;
        }
        ws->um[o] = um;
        ws->uc[o] = uc;
        ws->im[o] = im;
        ws->ic[o] = ic;
        ws->room[o] = room;
        ref = fmax(ref, fmax(fmax(um, uc), fmax(im, ic)));
    }
    double k = opt->sharpness > 0 ? opt->sharpness : LOWCOST_SHARPNESS;
    ws->sharp = isfinite(k) && ref > 0 && isfinite(ref) ? k / ref : 0;
}

/* stage_figures: ws->sf and ws->minrest for q; the steps all stages need at
 * their maximum parallelism in *total_minlen. */
static void stage_figures(lowcost_ws *ws, const struct lowcost_req *q, long *total_minlen)
{
    ws->sf = xgrow(ws->sf, &ws->sfcap, (size_t)q->nstages, sizeof *ws->sf);
    ws->minrest = xgrow(ws->minrest, &ws->mrcap, (size_t)q->nstages + 1, sizeof *ws->minrest);
    struct stagefig *sf = ws->sf;
    long tot = 0;
    for (long k = 0; k < q->nstages; k++) {
        int64_t g;
        lowcost_stage_full(&q->stage[k], &g, &sf[k].gangs, &sf[k].perstep);
        sf[k].minlen = (long)((sf[k].gangs + sf[k].perstep - 1) / sf[k].perstep);
        sf[k].dem = (double)(sf[k].gangs * g);
        ws->minrest[k] = tot;
        tot += sf[k].minlen;
    }
    ws->minrest[q->nstages] = tot;
    *total_minlen = tot;
}

/* request_window: clear res, then the window [*lo, *hi) and the steps the
 * request needs at full parallelism (*need; stage figures made).  Returns 1,
 * or 0 with res->why set when the window cannot hold the request. */
static int request_window(lowcost_ws *ws, const plan *p, const struct lowcost_req *q, long *lo, long *hi,
                          long *need, struct lowcost_result *res)
{
    memset(res, 0, sizeof *res);
    if (lowcost_window(p, q, lo, hi) < 0) {
        snprintf(res->why, sizeof res->why, "window [%g, %g] s holds no whole %ld s step", q->a, q->d, p->step);
        return 0;
    }
    stage_figures(ws, q, need);
    if (*lo + *need > *hi) {
        snprintf(res->why, sizeof res->why,
                 "window of %ld steps is shorter than the %ld steps the skyline needs at its maximum parallelism",
                 *hi - *lo, *need);
        return 0;
    }
    return 1;
}

/* res_of_request: r = a reservation of len steps from step start for q
 * (request fields copied; containers, gangs and stages left to fill). */
static void res_of_request(struct plan_res *r, const struct lowcost_req *q, long start, long len)
{
    plan_res_init(r, q->job, q->kind, len);
    r->instance = q->kind == PLAN_ONCE ? q->instance : 0;
    r->cycle = q->kind == PLAN_ONCE ? q->cycle : 0;
    r->period = q->period;
    r->a = q->a;
    r->d = q->d;
    r->cores = q->cores;
    r->mem_mb = q->mem_mb;
    r->problematic = q->problematic ? 1 : 0;
    r->start = start;
}

/* chunk_at: how many gangs of stage k a chunk puts at offset o now (the
 * free containers less the trial's own on o's slot) */
static int64_t chunk_at(const lowcost_ws *ws, long k, int32_t g, int64_t chunk, int64_t left, long o)
{
    int64_t a = chunk < left ? chunk : left;
    int64_t ps = ws->sf[k].perstep - ws->x[o] / g;
    int64_t rm = (ws->room[o] - own(ws, o)) / g;
    if (a > ps) a = ps;
    if (a > rm) a = rm;
    return a;
}

/* step_key: the heap key of the next chunk of a gangs at offset o: the cost
 * there after it, the trial's own containers on o's slot counted */
static inline double step_key(const lowcost_ws *ws, int32_t g, int64_t a, long o)
{
    return vcost(ws, o, (double)own(ws, o) + (double)(a * g));
}

static void push_step(lowcost_ws *ws, long k, int32_t g, int64_t chunk, int64_t left, long o)
{
    int64_t a = chunk_at(ws, k, g, chunk, left, o);
    if (a > 0)
        heap_push_seq(&ws->h, step_key(ws, g, a, o), (uint64_t)(ws->W - o), (uint64_t)o);
}

/* stage_greedy: the gangs of stage k one chunk at a time on the cheapest
 * eligible offset of [tcur - 1, tr], never left of tl (see lowcost.h).
 * Returns the leftmost offset used, or -1 with why set (offsets a trial
 * touches are cleared as they become eligible, so a failed trial needs no
 * cleaning; xs is cleared by the trial).  With a folded window a chunk
 * placed at o raises the cost of the other offsets of o's slot, whose keys
 * in the heap are then too low: a popped key that is out of date is pushed
 * again with its own (the keys only grow, so the first one popped up to
 * date is the cheapest). */
static long stage_greedy(lowcost_ws *ws, const struct lowcost_req *q, const struct lowcost_opts *opt, long k, long tl,
                         long tr, char *why, size_t whylen)
{
    int32_t g = q->stage[k].gang;
    int64_t left = ws->sf[k].gangs;
    int64_t chunk = opt->chunks > 0 ? (left + opt->chunks - 1) / opt->chunks : 1;
    if (chunk < 1)
        chunk = 1;
    long tcur = tr + 1;
    ws->h.n = 0;
    ws->x[tr] = 0;
    push_step(ws, k, g, chunk, left, tr);
    while (left > 0) {
        struct heap_item it;
        if (!heap_pop(&ws->h, &it)) {
            snprintf(why, whylen, "stage %ld: no free capacity for %lld more container(s)", k + 1,
                     (long long)left * g);
            return -1;
        }
        long o = (long)it.val;
        int64_t a = chunk_at(ws, k, g, chunk, left, o);
        if (a <= 0)
            continue;
        if (ws->fold) {
            double key = step_key(ws, g, a, o);
            if (key > it.key) {
                heap_push_seq(&ws->h, key, it.seq, it.val);
                continue;
            }
        }
        if (o < tcur) { /* the stage grows one step to the left */
            tcur = o;
            ws->stg[o] = (int32_t)(k + 1);
            if (o - 1 >= tl) {
                ws->x[o - 1] = 0;
                push_step(ws, k, g, chunk, left, o - 1);
            }
        }
        ws->x[o] += (int32_t)(a * g);
        if (ws->fold)
            ws->xs[(ws->lo + o) % ws->ns] += a * g;
        left -= a;
        if (left > 0)
            push_step(ws, k, g, chunk, left, o);
    }
    return tcur;
}

/* rigid_fill: every stage of q at its maximum parallelism, in order, the
 * remainder of a stage on its last step: containers and stages of the
 * `need` steps into x and stg. */
static void rigid_fill(const lowcost_ws *ws, const struct lowcost_req *q, int32_t *x, int32_t *stg)
{
    long j = 0;
    for (long k = 0; k < q->nstages; k++) {
        int64_t left = ws->sf[k].gangs;
        for (long s = 0; s < ws->sf[k].minlen; s++, j++) {
            int64_t a = left < ws->sf[k].perstep ? left : ws->sf[k].perstep;
            x[j] = (int32_t)(a * q->stage[k].gang);
            stg[j] = (int32_t)(k + 1);
            left -= a;
        }
    }
}

/* trial_rigid: q rigid (rigid_fill), ending at step e - 1.  Returns 1 and
 * the first offset in *first when every step has room (every slot, with
 * a folded window: the steps on it summed). */
static int trial_rigid(lowcost_ws *ws, const struct lowcost_req *q, long e, long need, long *first)
{
    long o0 = e - ws->lo - need;
    rigid_fill(ws, q, ws->x + o0, ws->stg + o0);
    if (ws->fold) {
        memset(ws->xs, 0, (size_t)ws->ns * sizeof *ws->xs);
        for (long o = o0; o < o0 + need; o++)
            ws->xs[(ws->lo + o) % ws->ns] += ws->x[o];
    }
    for (long o = o0; o < o0 + need; o++)
        if (own(ws, o) > ws->room[o])
            return 0;
    *first = o0;
    return 1;
}

/* trial_stretch: LowCost's trial for end point e (absolute, e in (lo, hi]):
 * stages in reverse order, each in its demand-proportional interval ending
 * right before the next stage (stage_greedy).  Returns 1 and the first
 * offset in *first when every stage fits, else 0 with why set. */
static int trial_stretch(lowcost_ws *ws, const struct lowcost_req *q, const struct lowcost_opts *opt, long e,
                         long need, long *first, char *why, size_t whylen)
{
    long tr = e - 1 - ws->lo; /* view offsets from here on */
    /* the stages share [base, e): the whole window before e, or at most
     * max_stretch times the steps the job needs at full parallelism */
    long base = 0;
    if (opt->max_stretch > 0) {
        double span = opt->max_stretch * (double)need;
        if ((double)(tr + 1) > span)
            base = tr + 1 - (long)ceil(span);
    }
    double remaining = 0;
    for (long k = 0; k < q->nstages; k++)
        remaining += ws->sf[k].dem;
    if (ws->fold)
        memset(ws->xs, 0, (size_t)ws->ns * sizeof *ws->xs);
    for (long k = q->nstages - 1; k >= 0; k--) {
        long span = tr + 1 - base - ws->minrest[k]; /* steps stage k may use at most */
        if (span < ws->sf[k].minlen) {
            snprintf(why, whylen, "window too short for stage %ld", k + 1);
            return 0;
        }
        long L = (long)llround((double)(tr + 1 - base) * ws->sf[k].dem / remaining);
        if (L < ws->sf[k].minlen)
            L = ws->sf[k].minlen;
        if (L > span)
            L = span;
        long tcur = stage_greedy(ws, q, opt, k, tr - L + 1, tr, why, whylen);
        if (tcur < 0)
            return 0;
        remaining -= ws->sf[k].dem;
        tr = tcur - 1;
    }
    *first = tr + 1;
    return 1;
}

/* trial_score: the score of the trial on offsets [first, end) (see
 * lowcost.h): with target > 0 its overflow above the target, else the load
 * score peak + ln(S) / B with S = sum over its steps and instances of
 * exp(B (c - peak)) - exp(B (c0 - peak)) (c0, c: the cost there before and
 * after; the hard peak when B is 0).  The highest cost after it in *peak,
 * the tie-breaker (sum of cost x containers) in *sum.  With a folded
 * window, c is the cost with all the trial's containers on the slot (own),
 * and each slot counts once in the peak, the overflow and S: the offsets
 * [first, first + ns) hold every slot the trial uses once. */
static double trial_score(const lowcost_ws *ws, long first, long end, double target, double *peak, double *sum)
{
    double pk = 0, ov = 0, s = 0;
    long slot_end = ws->fold && end - first > ws->ns ? first + ws->ns : end;
    for (long o = first; o < end; o++) {
        double c = vcost(ws, o, own(ws, o));
        s += c * ws->x[o];
        if (o >= slot_end)
            continue;
        if (target > 0)
            ov += over2(c, target) - over2(vcost(ws, o, 0), target);
        for (long i = 0; i < ws->ni; i++)
            pk = fmax(pk, icost(ws, o, i, own(ws, o)));
    }
    *peak = pk;
    *sum = s;
    if (target > 0)
        return ov;
    double B = ws->sharp, S = 0;
    if (!(B > 0) || !isfinite(pk))
        return pk;
    for (long o = first; o < slot_end; o++)
        for (long i = 0; i < ws->ni; i++) {
            double c0 = icost(ws, o, i, 0), c = icost(ws, o, i, own(ws, o));
            S += exp(B * (c0 - pk)) * expm1(B * (c - c0));
        }
    return S > 0 ? pk + log(S) / B : pk;
}

/* The best trial so far. */
struct best {
    double score, sum, pen, peak;
    long first, e;
};

/* consider: score the trial ending at e whose allocation starts at offset
 * first; keep it in *b (and its allocation in bx, bstg) when it beats b:
 * a lower score, then a lower sum. */
static void consider(lowcost_ws *ws, const plan *p, const struct lowcost_req *q,
                     const struct lowcost_opts *opt, long first, long e, struct best *b)
{
    long end = e - ws->lo;
    double sum, peak, score = trial_score(ws, first, end, opt->target, &peak, &sum);
    double pen = align_penalty(p, opt, q->problematic, once_base(p, q->kind, q->instance, q->period, q->cycle),
                               q->a, q->d, first + ws->lo, e);
    if (opt->target > 0) {
        if (pen > opt->max_penalty + 1e-12)
            return;
    } else
        score += pen;
    if (score < b->score - 1e-12 || (score <= b->score + 1e-12 && sum < b->sum - 1e-9)) {
        *b = (struct best){score, sum, pen, peak, first, e};
        memcpy(ws->bx + first, ws->x + first, (size_t)(end - first) * sizeof(int32_t));
        memcpy(ws->bstg + first, ws->stg + first, (size_t)(end - first) * sizeof(int32_t));
    }
}

/* best_to_res: the reservation of the best trial into *out (res filled);
 * 0 with res->why when it does not fit the plan after all. */
static int best_to_res(const lowcost_ws *ws, const plan *p, const struct lowcost_req *q, const struct best *b,
                       struct lowcost_result *res, struct plan_res *out)
{
    struct plan_res r;
    long len = b->e - ws->lo - b->first;
    res_of_request(&r, q, ws->lo + b->first, len);
    for (long j = 0; j < len; j++) {
        long o = b->first + j;
        r.containers[j] = ws->bx[o];
        r.stage[j] = ws->bstg[o];
        r.gang[j] = q->stage[ws->bstg[o] - 1].gang;
    }
    long bad;
    if (!plan_fits(p, &r, &bad)) {
        /* not expected: the trials count their own containers on a slot (own) */
        snprintf(res->why, sizeof res->why, "no capacity at t %ld s once folded onto the cycle", bad * p->step);
        plan_res_free(&r);
        return 0;
    }
    res->placed = 1;
    res->start = r.start;
    res->len = len;
    res->penalty = b->pen;
    res->cost = b->peak;
    *out = r;
    return 1;
}

int lowcost_choose(lowcost_ws *ws, const plan *p, const struct lowcost_req *q, const struct lowcost_opts *opt,
                   struct lowcost_result *res, struct plan_res *out)
{
    long lo, hi, need;
    if (!request_window(ws, p, q, &lo, &hi, &need, res))
        return 0;
    build_view(ws, p, q, lo, hi - lo, opt);
    long emin = ws->lo + need, ne = ws->lo + ws->W - emin + 1;
    long tries = opt->max_ends > 0 && ne > opt->max_ends ? opt->max_ends : ne;
    int rigid = !opt->no_rigid && opt->max_stretch != 1; /* else the stretched trial is rigid */
    struct best b = {INFINITY, INFINITY, 0, 0, -1, -1};
    char why[256] = "";
    for (long ti = 0; ti < tries; ti++) {
        long e = tries == ne ? emin + ti
                             : emin + (long)llround((double)ti * (double)(ne - 1) / (double)(tries - 1));
        if (tries == 1)
            e = emin;
        long first;
        why[0] = 0;
        res->tried++;
        if (trial_stretch(ws, q, opt, e, need, &first, why, sizeof why))
            consider(ws, p, q, opt, first, e, &b);
        if (rigid && trial_rigid(ws, q, e, need, &first))
            consider(ws, p, q, opt, first, e, &b);
    }
    if (b.first < 0) {
        snprintf(res->why, sizeof res->why, "no capacity: %.160s%s", why[0] ? why : "every end point failed",
                 tries < ne ? " (some end points not tried: --ends)" : "");
        return 0;
    }
    return best_to_res(ws, p, q, &b, res, out);
}

int lowcost_place(lowcost_ws *ws, plan *p, const struct lowcost_req *q, const struct lowcost_opts *opt,
                  struct lowcost_result *res)
{
    struct plan_res r;
    if (!lowcost_choose(ws, p, q, opt, res, &r))
        return 0;
    plan_add(p, &r);
    return 1;
}

/* res_costs: over the steps of reservation r (not in p's load) were it added
 * to p, with each step's cost the worst over r's instances: returns the sum
 * of cost x containers, puts the highest cost in *peak and, with T > 0, the
 * growth of the sum over slots of max(0, c(s) - T)^2 (each instance at its
 * own slot) in *ov (either pointer may be NULL).  A ONCE reservation longer
 * than the cycle folds onto itself: a step's cost counts all of r's
 * containers on its slot, and each slot's overflow counts once (steps
 * [0, nsteps) hold every slot once). */
static double res_costs(const plan *p, const struct plan_res *r, double T, double *peak, double *ov)
{
    long ni = plan_ninst(p, r);
    double pk = 0, o = 0, s = 0, *tot = NULL;
    if (r->kind == PLAN_ONCE && r->len > p->nsteps) {
        tot = xcalloc((size_t)p->nsteps, sizeof *tot);
        for (long j = 0; j < r->len; j++)
            tot[plan_slot(p, r, 0, j)] += r->containers[j];
    }
    for (long j = 0; j < r->len; j++) {
        double c = 0;
        for (long i = 0; i < ni; i++) {
            long sl = plan_slot(p, r, i, j);
            double ci = plan_cost_add(p, sl, tot ? tot[sl] : r->containers[j], r->cores, r->mem_mb);
            if (T > 0 && j < p->nsteps)
                o += over2(ci, T) - over2(plan_cost(p, sl), T);
            if (ci > c)
                c = ci;
        }
        if (c > pk)
            pk = c;
        s += c * r->containers[j];
    }
    free(tot);
    if (peak)
        *peak = pk;
    if (ov)
        *ov = o;
    return s;
}

double lowcost_score(const plan *p, const struct plan_res *r, const struct lowcost_opts *opt, double *sum)
{
    double peak, s = res_costs(p, r, 0, &peak, NULL);
    if (sum)
        *sum = s;
    return peak + lowcost_penalty(p, r, opt);
}

double lowcost_penalty(const plan *p, const struct plan_res *r, const struct lowcost_opts *opt)
{
    return align_penalty(p, opt, r->problematic, once_base(p, r->kind, r->instance, r->period, r->cycle), r->a,
                         r->d, r->start, r->start + r->len);
}

/* improve_score: what an improve round compares for reservation r (not in
 * p's load): with o->target 0 the job's cost (lowcost_score), with a target
 * its overflow above it (res_costs); the tie-breaker, the sum of cost x
 * containers, in *sum. */
static double improve_score(const plan *p, const struct plan_res *r, const struct lowcost_opts *o, double *sum)
{
    if (!(o->target > 0))
        return lowcost_score(p, r, o, sum);
    double ov;
    *sum = res_costs(p, r, o->target, NULL, &ov);
    return ov;
}

/* Change stamps, so a round skips a job nothing has changed around.  A
 * heuristic: placing it again depends on the load over its window and,
 * through the load score's sharpness B = K / the plan's peak (build_view),
 * on the peak, which may lie outside it; a skipped job might have moved
 * after the peak changed, so a phase may end "without moves" a round early.
 * chg[s] = the clock when the load at slot s last changed; seen[i] = the
 * clock when job i was last tried (-1: never, or the score has changed
 * since). */
struct stamps {
    int64_t clock, *chg, *seen;
};

/* stamps_forget: every job is to be tried again (a new score). */
static void stamps_forget(struct stamps *sp, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sp->seen[i] = -1;
}

static int window_changed(const plan *p, const struct lowcost_req *q, const struct stamps *sp, int64_t since)
{
    long lo, hi, pp;
    if (since < 0 || lowcost_window(p, q, &lo, &hi) < 0)
        return 1;
    long ni = instances(p, q, &pp);
    for (long t = lo; t < hi; t++)
        for (long i = 0; i < ni; i++)
            if (sp->chg[plan_mod(t + i * pp, p->nsteps)] > since)
                return 1;
    return 0;
}

static void mark_changed(const plan *p, const struct plan_res *r, struct stamps *sp)
{
    long ni = plan_ninst(p, r);
    for (long j = 0; j < r->len; j++)
        for (long i = 0; i < ni; i++)
            sp->chg[plan_slot(p, r, i, j)] = sp->clock;
}

/* improve_round: one round of lowcost_improve: every request whose window
 * changed since it was last tried is lifted and placed again twice -- with
 * LowCost's own stretch (o->max_stretch) and rigid (every stage at its
 * maximum parallelism: max_stretch 1) -- and the better of the two kept
 * when it lowers the job's improve_score, then the sum.  Returns the moves. */
static long improve_round(lowcost_ws *ws, plan *p, const struct lowcost_req *q, size_t n, const size_t *ids,
                          const struct lowcost_opts *user, struct lowcost_opts *o, struct stamps *sp)
{
    const double stretch[2] = {o->max_stretch, 1};
    int nshapes = o->max_stretch == 1 ? 1 : 2;
    double eps = o->target > 0 ? 1e-15 : 1e-12;
    long moved = 0;
    for (size_t i = 0; i < n; i++) {
        if (ids[i] == (size_t)-1)
            continue;
        size_t k = ids[i];
        if (!window_changed(p, &q[i], sp, sp->seen[i]))
            continue;
        sp->seen[i] = ++sp->clock;
        plan_lift(p, k);
        if (o->target > 0)
            o->max_penalty = lowcost_penalty(p, &p->res[k], user);
        double best_sum, best = improve_score(p, &p->res[k], o, &best_sum);
        struct plan_res cand;
        int better = 0;
        for (int si = 0; si < nshapes; si++) {
            struct lowcost_result res;
            struct plan_res c;
            o->max_stretch = stretch[si];
            if (!lowcost_choose(ws, p, &q[i], o, &res, &c))
                continue;
            double sum, sc = improve_score(p, &c, o, &sum);
            if (sc < best - eps || (sc <= best + eps && sum < best_sum * (1 - 1e-9) - 1e-12)) {
                if (better)
                    plan_res_free(&cand);
                cand = c;
                better = 1;
                best = sc;
                best_sum = sum;
            } else
                plan_res_free(&c);
        }
        o->max_stretch = stretch[0];
        if (better) {
            sp->clock++;
            mark_changed(p, &p->res[k], sp);
            mark_changed(p, &cand, sp);
            sp->seen[i] = sp->clock;
        }
        plan_settle(p, k, better ? &cand : NULL);
        moved += better;
    }
    return moved;
}

/* snap_take: copy the placements of the requests' reservations into s
 * (n entries, allocated when s is NULL; older copies freed); returns s. */
static struct plan_res *snap_take(const plan *p, size_t n, const size_t *ids, struct plan_res *s)
{
    if (!s)
        s = xcalloc(n ? n : 1, sizeof *s);
    for (size_t i = 0; i < n; i++) {
        if (ids[i] == (size_t)-1)
            continue;
        const struct plan_res *r = &p->res[ids[i]];
        size_t len = (size_t)(r->len > 0 ? r->len : 1);
        plan_res_free(&s[i]);
        plan_res_init(&s[i], r->job, r->kind, r->len);
        s[i].start = r->start;
        memcpy(s[i].containers, r->containers, len * sizeof(int32_t));
        memcpy(s[i].gang, r->gang, len * sizeof(int32_t));
        memcpy(s[i].stage, r->stage, len * sizeof(int32_t));
    }
    return s;
}

/* snap_restore: put back the placements snap_take copied (their arrays go
 * to the plan). */
static void snap_restore(plan *p, size_t n, const size_t *ids, struct plan_res *s)
{
    for (size_t i = 0; i < n; i++) {
        if (ids[i] == (size_t)-1)
            continue;
        plan_lift(p, ids[i]);
        plan_settle(p, ids[i], &s[i]);
    }
}

void lowcost_improve(lowcost_ws *ws, plan *p, const struct lowcost_req *q, size_t n, const size_t *ids,
                     const struct lowcost_opts *opt, int rounds, struct lowcost_improve_stats *st)
{
    struct lowcost_opts o = *opt;
    o.pressure = NULL; /* everything is placed now: no demand to come */
    o.target = 0;
    o.no_rigid = 1;    /* each round tries the two shapes itself */
    memset(st, 0, sizeof *st);
    st->peak_before = plan_peak(p, NULL);
    struct stamps sp = {0, xcalloc((size_t)p->nsteps, sizeof(int64_t)), xmalloc((n ? n : 1) * sizeof(int64_t))};
    stamps_forget(&sp, n);
    /* descent: no job's own score ever rises */
    while (st->rounds < rounds) {
        st->rounds++;
        long moved = improve_round(ws, p, q, n, ids, opt, &o, &sp);
        st->moves += moved;
        if (!moved)
            break;
    }
    st->peak_descent = plan_peak(p, NULL);
    /* flattening: push down everything above LOWCOST_FLAT_TARGET x the best
     * peak so far; the best plan seen is the one kept */
    double best = st->peak_descent;
    struct plan_res *snap = NULL;
    o.target = LOWCOST_FLAT_TARGET * best;
    stamps_forget(&sp, n);
    while (best > 0 && st->flat_rounds < rounds) {
        if (!snap)
            snap = snap_take(p, n, ids, NULL);
        st->flat_rounds++;
        long moved = improve_round(ws, p, q, n, ids, opt, &o, &sp);
        st->flat_moves += moved;
        double pk = plan_peak(p, NULL);
        if (pk < best - 1e-12) {
            best = pk;
            snap_take(p, n, ids, snap);
            o.target = LOWCOST_FLAT_TARGET * best;
            stamps_forget(&sp, n);
        }
        if (!moved)
            break;
    }
    if (snap) {
        if (plan_peak(p, NULL) > best + 1e-12)
            snap_restore(p, n, ids, snap);
        for (size_t i = 0; i < n; i++)
            plan_res_free(&snap[i]);
        free(snap);
    }
    free(sp.chg);
    free(sp.seen);
    /* no plan_recompute_load here: p may hold only the load of reservations
     * it does not list (lcmpack's in-place append starts from the index) */
}

int lowcost_place_earliest(lowcost_ws *ws, plan *p, const struct lowcost_req *q, struct lowcost_result *res)
{
    long lo, hi, need;
    if (!request_window(ws, p, q, &lo, &hi, &need, res))
        return 0;
    struct plan_res r;
    res_of_request(&r, q, lo, need);
    rigid_fill(ws, q, r.containers, r.stage);
    for (long j = 0; j < need; j++)
        r.gang[j] = q->stage[r.stage[j] - 1].gang;
    long bad;
    if (!plan_fits(p, &r, &bad)) {
        snprintf(res->why, sizeof res->why, "no capacity at t %ld s", bad * p->step);
        plan_res_free(&r);
        return 0;
    }
    res->placed = 1;
    res->start = lo;
    res->len = need;
    res->cost = lowcost_score(p, &r, &(struct lowcost_opts){0}, NULL);
    res->tried = 1;
    plan_add(p, &r);
    return 1;
}

double lowcost_min_height(const plan *p, const struct lowcost_req *q)
{
    double cm = 0, cc = 0;
    for (long s = 0; s < p->nsteps; s++) {
        if (p->cap_mem[s] > cm) cm = p->cap_mem[s];
        if (p->cap_cores[s] > cc) cc = p->cap_cores[s];
    }
    double unit = 0;
    if (q->mem_mb > 0 && cm > 0 && isfinite(cm))
        unit = q->mem_mb / cm;
    if (q->cores > 0 && cc > 0 && isfinite(cc) && q->cores / cc > unit)
        unit = q->cores / cc;
    long lo, hi;
    if (lowcost_window(p, q, &lo, &hi) < 0)
        return 0;
    double h = 0, area = 0;
    for (long k = 0; k < q->nstages; k++) {
        int64_t g = q->stage[k].gang;
        /* a stage cannot be spread thinner than one gang per step */
        if ((double)g > h)
            h = (double)g;
        area += (double)((q->stage[k].demand + g - 1) / g * g);
    }
    double spread = area / (double)(hi - lo);
    if (spread > h)
        h = spread;
    return h * unit;
}
