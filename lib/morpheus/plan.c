/* plan — the reservation plan: the model (reservations, load, capacity,
 * cost) of plan.h.  Its file format is lib/morpheus/planfile.c.
 *
 * The plan keeps the load profile up to date on every add; a removal
 * recomputes it from scratch so that the profile after add+remove is exactly
 * the sum of what is left (no floating-point residue from subtraction).
 */
#include "morpheus/plan.h"
#include "base/cli.h"
#include "base/diag.h"
#include "base/keyset.h"
#include "base/outfile.h"
#include "base/parse.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const plan_capacity_keys[] = {"t", "cores", "mem_mb", NULL};

/* ---- job index: job name -> list of reservation indices ---------------------- */

struct idx_entry {
    size_t *ids, n, cap;
};
struct idx {
    keyset *jobs; /* job name -> its entry in e */
    struct idx_entry *e;
    size_t cap;
};

/* idx_find: the entry of job, added (empty) when new and create is set; NULL
 * when the job has none and create is not set */
static struct idx_entry *idx_find(struct idx *x, const char *job, int create)
{
    long k = create ? keyset_intern(x->jobs, job, NULL) : keyset_row(x->jobs, job);
    if (k < 0)
        return NULL;
    if ((size_t)k >= x->cap) {
        size_t old = x->cap;
        x->e = xgrow(x->e, &x->cap, (size_t)k + 1, sizeof *x->e);
        memset(x->e + old, 0, (x->cap - old) * sizeof *x->e);
    }
    return &x->e[k];
}

static struct idx *idx_new(void)
{
    struct idx *x = xcalloc(1, sizeof *x);
    x->jobs = keyset_new();
    return x;
}

static void idx_free(struct idx *x)
{
    if (!x)
        return;
    for (size_t i = 0; i < keyset_size(x->jobs); i++)
        free(x->e[i].ids);
    keyset_free(x->jobs);
    free(x->e);
    free(x);
}

/* ---- construction ------------------------------------------------------------ */

plan *plan_new(long step, long lcm)
{
    if (step < 1 || lcm < step || lcm % step != 0)
        return NULL;
    plan *p = xcalloc(1, sizeof *p);
    p->step = step;
    p->lcm = lcm;
    p->nsteps = lcm / step;
    p->load_cores = xcalloc((size_t)p->nsteps, sizeof(double));
    p->load_mem = xcalloc((size_t)p->nsteps, sizeof(double));
    p->cap_cores = xmalloc((size_t)p->nsteps * sizeof(double));
    p->cap_mem = xmalloc((size_t)p->nsteps * sizeof(double));
    for (long s = 0; s < p->nsteps; s++)
        p->cap_cores[s] = p->cap_mem[s] = INFINITY;
    p->index = idx_new();
    return p;
}

void plan_res_init(struct plan_res *r, const char *job, enum plan_kind kind, long len)
{
    memset(r, 0, sizeof *r);
    r->job = xstrdup(job);
    r->kind = kind;
    r->len = len;
    size_t n = len > 0 ? (size_t)len : 1;
    r->containers = xcalloc(n, sizeof(int32_t));
    r->gang = xmalloc(n * sizeof(int32_t));
    r->stage = xmalloc(n * sizeof(int32_t));
    for (size_t j = 0; j < n; j++)
        r->gang[j] = r->stage[j] = 1;
}

void plan_res_free(struct plan_res *r)
{
    if (!r)
        return;
    free(r->job);
    free(r->containers);
    free(r->gang);
    free(r->stage);
    r->job = NULL;
    r->containers = r->gang = r->stage = NULL;
}

void plan_free(plan *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nres; i++)
        plan_res_free(&p->res[i]);
    free(p->res);
    free(p->load_cores);
    free(p->load_mem);
    free(p->cap_cores);
    free(p->cap_mem);
    idx_free(p->index);
    free(p);
}

/* ---- geometry ---------------------------------------------------------------- */

int plan_window(const plan *p, double base, double a, double d, long need, long *lo, long *hi)
{
    double st = (double)p->step;
    *lo = (long)ceil((base + a) / st - 1e-9);
    *hi = (long)floor((base + d) / st + 1e-9);
    long whole = (long)floor((d - a) / st + 1e-9);
    if (*hi - *lo < need && need <= whole && *lo > 0) /* the grid cut a needed step: start one early */
        (*lo)--;
    if (*lo < 0)
        *lo = 0;
    return *hi > *lo ? 0 : -1;
}

long plan_ninst(const plan *p, const struct plan_res *r)
{
    if (r->kind == PLAN_ONCE)
        return 1;
    long n = (long)llround((double)p->lcm / r->period);
    return n < 1 ? 1 : n;
}

long plan_slot(const plan *p, const struct plan_res *r, long i, long j)
{
    long pp = r->kind == PLAN_PERIODIC ? (long)llround(r->period / (double)p->step) : 0;
    return plan_mod(r->start + i * pp + j, p->nsteps);
}

long plan_offset(const plan *p, double T, int64_t *cycle)
{
    double c = floor(T / (double)p->lcm);
    double off = T - c * (double)p->lcm;
    long s = (long)floor(off / (double)p->step);
    if (s >= p->nsteps) { /* rounding at the very end of a cycle */
        s -= p->nsteps;
        c += 1;
    }
    if (s < 0)
        s = 0;
    if (cycle)
        *cycle = (int64_t)c;
    return s;
}

/* ---- load and cost ----------------------------------------------------------- */

/* fold: add sign x r's cores and memory at every folded step it covers */
static void fold(const plan *p, const struct plan_res *r, double sign, double *cores, double *mem_mb)
{
    long ni = plan_ninst(p, r);
    for (long i = 0; i < ni; i++)
        for (long j = 0; j < r->len; j++) {
            long s = plan_slot(p, r, i, j);
            cores[s] += sign * r->containers[j] * r->cores;
            mem_mb[s] += sign * r->containers[j] * r->mem_mb;
        }
}

/* add_load: r's load into the profile (sign -1 takes it out); a spent
 * reservation holds none, in and out alike */
static void add_load(plan *p, const struct plan_res *r, double sign)
{
    if (!r->spent)
        fold(p, r, sign, p->load_cores, p->load_mem);
}

static double ratio(double load, double cap)
{
    if (load <= 0)
        return 0;
    if (cap <= 0)
        return INFINITY;
    return load / cap; /* cap = +inf gives 0 */
}

double plan_cost(const plan *p, long s)
{
    double a = ratio(p->load_mem[s], p->cap_mem[s]), b = ratio(p->load_cores[s], p->cap_cores[s]);
    return a > b ? a : b;
}

double plan_cost_add(const plan *p, long s, double n, double cores, double mem_mb)
{
    double a = ratio(p->load_mem[s] + n * mem_mb, p->cap_mem[s]);
    double b = ratio(p->load_cores[s] + n * cores, p->cap_cores[s]);
    return a > b ? a : b;
}

int64_t plan_headroom(const plan *p, long s, double cores, double mem_mb)
{
    double best = (double)INT32_MAX;
    /* a tiny tolerance so that loads summed in another order still fit exactly */
    if (cores > 0 && isfinite(p->cap_cores[s])) {
        double h = floor((p->cap_cores[s] - p->load_cores[s]) / cores + 1e-9);
        if (h < best)
            best = h;
    }
    if (mem_mb > 0 && isfinite(p->cap_mem[s])) {
        double h = floor((p->cap_mem[s] - p->load_mem[s]) / mem_mb + 1e-9);
        if (h < best)
            best = h;
    }
    return best < 0 ? 0 : (int64_t)best;
}

int plan_fits(const plan *p, const struct plan_res *r, long *bad_step)
{
    long ni = plan_ninst(p, r);
    /* slots of different instances never coincide (len <= period), but a
     * ONCE reservation longer than the cycle could fold onto itself: sum
     * per slot first in that case */
    if (r->len > p->nsteps) {
        double *c = xcalloc((size_t)p->nsteps, sizeof(double));
        for (long j = 0; j < r->len; j++)
            c[plan_slot(p, r, 0, j)] += r->containers[j];
        int ok = 1;
        for (long s = 0; s < p->nsteps && ok; s++)
            if (c[s] > 0 && plan_headroom(p, s, r->cores, r->mem_mb) < (int64_t)c[s]) {
                ok = 0;
                if (bad_step)
                    *bad_step = s;
            }
        free(c);
        return ok;
    }
    for (long i = 0; i < ni; i++)
        for (long j = 0; j < r->len; j++) {
            long s = plan_slot(p, r, i, j);
            if (plan_headroom(p, s, r->cores, r->mem_mb) < r->containers[j]) {
                if (bad_step)
                    *bad_step = s;
                return 0;
            }
        }
    return 1;
}

int plan_set_capacity(plan *p, double cores, double mem_mb)
{
    if (!(cores > 0) || !(mem_mb > 0) || !isfinite(cores) || !isfinite(mem_mb))
        return -1;
    for (long s = 0; s < p->nsteps; s++) {
        p->cap_cores[s] = cores;
        p->cap_mem[s] = mem_mb;
    }
    return 0;
}


int plan_read_capacity(plan *p, const char *path, const struct csv_dialect *d)
{
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int ct, cc, cm;
    if (csvr_require_cols(r, "t", &ct, "cores", &cc, "mem_mb", &cm, (char *)NULL) < 0) {
        st = csvr_status(r);
        csvr_close(r);
        return st ? st : SLK_EDATA;
    }
    long prev = -1;
    double pc = 0, pm = 0;
    int rc;
    while ((rc = csvr_next(r)) > 0) {
        double t, c, m;
        if (csvr_get_duration(r, ct, &t, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
            csvr_get_double(r, cc, &c, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0 ||
            csvr_get_double(r, cm, &m, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0)
            break;
        if (t >= (double)p->lcm) {
            csvr_fail(r, "t %g is not inside the cycle [0, %ld)", t, p->lcm);
            break;
        }
        long s = (long)floor(t / (double)p->step);
        if ((double)s * p->step != t) {
            csvr_fail(r, "t %g is not a multiple of the step %ld s", t, p->step);
            break;
        }
        if (prev < 0 && s != 0) {
            csvr_fail(r, "the first row must be at t = 0 (got %g)", t);
            break;
        }
        if (prev >= 0 && s <= prev) {
            csvr_fail(r, "rows not sorted by t (%g after %g)", t, (double)prev * p->step);
            break;
        }
        for (long k = prev + 1; k < s && prev >= 0; k++) {
            p->cap_cores[k] = pc;
            p->cap_mem[k] = pm;
        }
        p->cap_cores[s] = pc = c;
        p->cap_mem[s] = pm = m;
        prev = s;
    }
    st = csvr_status(r);
    if (rc == 0 && st == SLK_OK && prev < 0) {
        slk_error_at(csvr_path(r), 0, "no capacity rows");
        st = SLK_EDATA;
    }
    csvr_close(r);
    if (st != SLK_OK)
        return st;
    for (long k = prev + 1; k < p->nsteps; k++) {
        p->cap_cores[k] = pc;
        p->cap_mem[k] = pm;
    }
    return SLK_OK;
}

/* ---- adding and removing ----------------------------------------------------- */

size_t plan_add(plan *p, struct plan_res *r)
{
    p->res = xgrow(p->res, &p->rescap, p->nres + 1, sizeof *p->res);
    size_t id = p->nres++;
    p->res[id] = *r;
    p->res[id].seg = p->nseg;
    memset(r, 0, sizeof *r);
    struct idx_entry *e = idx_find(p->index, p->res[id].job, 1);
    e->ids = xgrow(e->ids, &e->cap, e->n + 1, sizeof *e->ids);
    e->ids[e->n++] = id;
    add_load(p, &p->res[id], 1.0);
    return id;
}

double plan_peak(const plan *p, long *at)
{
    double m = 0;
    long ms = 0;
    for (long s = 0; s < p->nsteps; s++) {
        double c = plan_cost(p, s);
        if (c > m) {
            m = c;
            ms = s;
        }
    }
    if (at)
        *at = ms;
    return m;
}

long plan_over_capacity(const plan *p, struct plan_over *o)
{
    memset(o, 0, sizeof *o);
    o->cost = plan_peak(p, &o->step);
    for (long s = 0; s < p->nsteps; s++)
        if (plan_cost(p, s) > 1 + 1e-9)
            o->nover++;
    if (p->nsteps > 0) {
        o->load_cores = p->load_cores[o->step];
        o->load_mem = p->load_mem[o->step];
        o->cap_cores = p->cap_cores[o->step];
        o->cap_mem = p->cap_mem[o->step];
    }
    return o->nover;
}

const char *plan_cost_text(double c, char buf[32])
{
    if (isinf(c))
        snprintf(buf, 32, "unbounded");
    else
        snprintf(buf, 32, "%.4f", c);
    return buf;
}

long plan_warn_over(const plan *p, const char *path, const char *what)
{
    struct plan_over o;
    char cb[32];
    if (plan_over_capacity(p, &o) == 0)
        return 0;
    /* both resources with their capacity: a capacity given in the wrong unit
     * (mem in GB for MB) shows as a load hundreds of times the capacity */
    slk_warn_at(
        path, 0,
        "the plan exceeds the capacity (cost %s at t=%ld s: cores %.10g of %.10g, mem_mb %.10g of %.10g; "
        "over at %ld of %ld steps): %s",
        plan_cost_text(o.cost, cb), o.step * p->step, o.load_cores, o.cap_cores, o.load_mem, o.cap_mem,
        o.nover, p->nsteps, what);
    return o.nover;
}

char *plan_res_key(const char *job, enum plan_kind kind, int64_t instance)
{
    size_t n = strlen(job) + 40;
    char *k = xmalloc(n);
    if (kind == PLAN_ONCE)
        snprintf(k, n, "%s\x1fo\x1f%lld", job, (long long)instance);
    else
        snprintf(k, n, "%s\x1fp", job);
    return k;
}

void plan_once_span(const plan *p, const struct plan_res *r, double *start, double *end)
{
    *start = (double)r->cycle * (double)p->lcm + (double)r->start * (double)p->step;
    *end = *start + (double)r->len * (double)p->step;
}

double plan_res_peak(const plan *p, const struct plan_res *r)
{
    double m = 0;
    if (r->spent)
        return 0;
    long ni = plan_ninst(p, r);
    for (long i = 0; i < ni; i++)
        for (long j = 0; j < r->len; j++) {
            double c = plan_cost(p, plan_slot(p, r, i, j));
            if (c > m)
                m = c;
        }
    return m;
}

void plan_lift(plan *p, size_t k)
{
    add_load(p, &p->res[k], -1.0);
}

void plan_settle(plan *p, size_t k, struct plan_res *r)
{
    struct plan_res *d = &p->res[k];
    if (r) {
        free(d->containers);
        free(d->gang);
        free(d->stage);
        d->start = r->start;
        d->len = r->len;
        d->containers = r->containers;
        d->gang = r->gang;
        d->stage = r->stage;
        free(r->job);
        memset(r, 0, sizeof *r);
    }
    add_load(p, d, 1.0);
}

const struct plan_res *plan_job_res(const plan *p, const char *job)
{
    struct idx_entry *e = idx_find(p->index, job, 0);
    for (size_t k = 0; e && k < e->n; k++)
        if (!p->res[e->ids[k]].removed)
            return &p->res[e->ids[k]];
    return NULL;
}

int plan_has_job(const plan *p, const char *job) { return plan_job_res(p, job) != NULL; }

int plan_remove_job(plan *p, const char *job)
{
    struct idx_entry *e = idx_find(p->index, job, 0);
    int n = 0;
    if (!e)
        return 0;
    for (size_t k = 0; k < e->n; k++)
        if (!p->res[e->ids[k]].removed) {
            p->res[e->ids[k]].removed = 1;
            n++;
        }
    if (n)
        plan_recompute_load(p);
    return n;
}

void plan_recompute_load(plan *p)
{
    memset(p->load_cores, 0, (size_t)p->nsteps * sizeof(double));
    memset(p->load_mem, 0, (size_t)p->nsteps * sizeof(double));
    for (size_t i = 0; i < p->nres; i++)
        if (!p->res[i].removed)
            add_load(p, &p->res[i], 1.0);
}

int plan_alloc_at(const plan *p, const char *job, double T, int64_t *containers, double *cores,
                  double *mem_mb)
{
    int64_t cyc;
    long s = plan_offset(p, T, &cyc);
    int64_t n = 0;
    double c = 0, m = 0;
    int hits = 0;
    struct idx_entry *e = idx_find(p->index, job, 0);
    for (size_t k = 0; e && k < e->n; k++) {
        const struct plan_res *r = &p->res[e->ids[k]];
        if (r->removed)
            continue;
        long j;
        if (r->kind == PLAN_PERIODIC) {
            long pp = (long)llround(r->period / (double)p->step);
            j = plan_mod(s - r->start, p->nsteps) % pp;
        } else {
            j = (long)((cyc - r->cycle) * p->nsteps + s - r->start);
        }
        if (j < 0 || j >= r->len)
            continue;
        hits++;
        n += r->containers[j];
        c += r->containers[j] * r->cores;
        m += r->containers[j] * r->mem_mb;
    }
    if (containers)
        *containers = n;
    if (cores)
        *cores = c;
    if (mem_mb)
        *mem_mb = m;
    return hits;
}

/* ---- writing ----------------------------------------------------------------- */
void plan_write_load(const plan *p, csvw *w)
{
    static const char *const cols[] = {"t", "cores", "mem_mb", "cost", NULL};
    csvw_header(w, cols);
    for (long s = 0; s < p->nsteps; s++) {
        csvw_int(w, (int64_t)s * p->step);
        csvw_num(w, p->load_cores[s]);
        csvw_num(w, p->load_mem[s]);
        csvw_num(w, plan_cost(p, s));
        csvw_end(w);
    }
}

/* ---- reading ----------------------------------------------------------------- */

/* res_at: add reservation r's containers at (cycle, off): a once
 * reservation if its own cycle and steps cover them, a periodic one in every
 * instance that covers off */
static void res_at(const plan *p, const struct plan_res *r, int64_t cycle, long off, double *c, double *m)
{
    if (r->removed)
        return;
    if (r->kind == PLAN_ONCE) {
        /* absolute step of j is cycle*nsteps + start + j */
        int64_t j = (cycle - r->cycle) * (int64_t)p->nsteps + off - r->start;
        if (j >= 0 && j < r->len) {
            *c += r->containers[j] * r->cores;
            *m += r->containers[j] * r->mem_mb;
        }
        return;
    }
    long ni = plan_ninst(p, r), pp = (long)llround(r->period / (double)p->step);
    for (long i = 0; i < ni; i++) {
        long j = plan_mod(off - r->start - i * pp, p->nsteps);
        if (j < r->len) {
            *c += r->containers[j] * r->cores;
            *m += r->containers[j] * r->mem_mb;
        }
    }
}

void plan_reserved_at(const plan *p, double T, double *cores, double *mem_mb)
{
    int64_t cycle;
    long off = plan_offset(p, T, &cycle);
    double c = 0, m = 0;
    for (size_t k = 0; k < p->nres; k++)
        res_at(p, &p->res[k], cycle, off, &c, &m);
    *cores = c;
    *mem_mb = m;
}

void plan_reserved_init(const plan *p, struct plan_reserved *pr)
{
    size_t n = p->nsteps > 0 ? (size_t)p->nsteps : 1, cap = 0;
    pr->cores = xcalloc(n, sizeof *pr->cores);
    pr->mem_mb = xcalloc(n, sizeof *pr->mem_mb);
    pr->once = NULL;
    pr->nonce = 0;
    pr->nres = p->nres;
    for (size_t k = 0; k < p->nres; k++) {
        const struct plan_res *r = &p->res[k];
        if (r->removed)
            continue;
        if (r->kind == PLAN_ONCE) {
            pr->once = xgrow(pr->once, &cap, pr->nonce + 1, sizeof *pr->once);
            pr->once[pr->nonce++] = k;
            continue;
        }
        fold(p, r, 1, pr->cores, pr->mem_mb);
    }
}

void plan_reserved_get(const plan *p, const struct plan_reserved *pr, double T, double *cores, double *mem_mb)
{
    int64_t cycle;
    long off = plan_offset(p, T, &cycle);
    double c = pr->cores[off], m = pr->mem_mb[off];
    for (size_t k = 0; k < pr->nonce; k++)
        res_at(p, &p->res[pr->once[k]], cycle, off, &c, &m);
    for (size_t k = pr->nres; k < p->nres; k++) /* added since (DRA extensions) */
        res_at(p, &p->res[k], cycle, off, &c, &m);
    *cores = c;
    *mem_mb = m;
}

void plan_reserved_free(struct plan_reserved *pr)
{
    free(pr->cores);
    free(pr->mem_mb);
    free(pr->once);
    memset(pr, 0, sizeof *pr);
}
