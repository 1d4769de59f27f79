/* plan — the reservation plan shared by lcmpack (writes it), reprov (reads it,
 * adds local extra allocations) and replay (reads it).
 *
 * TIME MODEL.  The plan covers one cycle of length `lcm` seconds (the LCM of
 * the periods, capped; default one day), cut into `nsteps = lcm / step` steps
 * of `step` seconds (integers, step divides lcm).  Cycles are epoch-aligned:
 * cycle c covers absolute times [c*lcm, (c+1)*lcm), so with lcm = 1d a cycle
 * is a UTC day.  Periods are epoch-aligned too: instance n of a job with
 * period p has the window [n*p + a, n*p + d] (a, d = earliest start and
 * deadline, offsets in seconds within the period, as sloinfer writes them).
 * The plan offset of an absolute time T is  t = T mod lcm  (floor modulo),
 * its step  s = floor(t / step).
 *
 * RESERVATIONS.  A reservation (struct plan_res) is a contiguous run of `len`
 * steps, step j holding containers[j] containers of (cores, mem_mb) each.
 *   PLAN_PERIODIC: the job's period divides lcm; the same allocation repeats
 *     for each of its lcm/period instances, at the same offset in every
 *     period, and in every cycle.  Instance i occupies the steps
 *     (start + i*period/step + j) mod nsteps.  Instance 0 is the instance
 *     whose window starts in [0, period): start*step >= a and
 *     (start+len)*step <= d (start may exceed nsteps when d > period: the
 *     allocation wraps into the next cycle and is folded modulo the cycle).
 *   PLAN_ONCE: one instance (`instance` = n above) in one cycle (`cycle`):
 *     absolute step of j = cycle*nsteps + start + j.  Used for jobs whose
 *     period does not divide the LCM, and for reprov's local additions (a
 *     PLAN_ONCE reservation with the job's name, period and instance n, and
 *     a, d spanning the addition, which may pass the SLO's deadline:
 *     plan_read checks start..start+len against [n*period + a, n*period + d]
 *     and d - a <= period).
 *     Its load is folded into the cyclic load profile too (conservative: the
 *     profile holds the worst case over the cycles the plan is used for).
 *     The DRA's extensions are the exception: one longer than the cycle
 *     counts once at each step (lib/morpheus/dra.c keeps their load).
 *
 * LOAD AND COST.  load_cores[s], load_mem[s] = sum over every reservation
 * slot folded onto step s of containers * cores (mem_mb).  With the capacity
 * profile cap_cores[s], cap_mem[s] (constant, or a capacity-over-time CSV),
 *     c(s) = max(load_mem[s] / cap_mem[s], load_cores[s] / cap_cores[s])
 * (a zero capacity with zero load counts 0, with some load +inf).  A plan is
 * feasible when c(s) <= 1 at every step.
 *
 * FILE FORMAT: morpheus/planfile.h (slokit-plan/1), included below.
 *
 * OWNERSHIP.  A plan owns its reservations, their arrays and job strings.
 * plan_add takes ownership of the reservation it is given.  Functions that
 * read files print their errors and return an exit status (diag.h).
 *
 * Threads: a plan that no thread changes may be read by several threads at
 * once; changes (plan_add, reads into it) by one thread at a time.
 * plan_crc32 is safe from any thread (its table is built once).
 */
#ifndef SLOKIT_PLAN_H
#define SLOKIT_PLAN_H

#include "base/csvio.h"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum plan_kind { PLAN_PERIODIC = 0, PLAN_ONCE = 1 };

struct plan_res {
    char *job;              /* owned */
    enum plan_kind kind;
    int64_t instance;       /* ONCE: epoch instance number; PERIODIC: 0 */
    int64_t cycle;          /* ONCE: cycle the offsets count from; PERIODIC: 0 */
    double period, a, d;    /* request window, seconds (0 <= a < d, d - a <= period) */
    double cores, mem_mb;   /* per container (>= 0, not both 0) */
    int problematic;        /* 0 or 1 */
    long start;             /* first step, counted from the start of cycle `cycle` (>= 0) */
    long len;               /* number of steps (>= 1) */
    int32_t *containers;    /* [len], each >= 1; owned */
    int32_t *gang;          /* [len], each >= 1, divides containers[j]; owned */
    int32_t *stage;         /* [len], >= 1, non-decreasing; owned */
    int removed;            /* set by plan_remove_job; skipped everywhere */
    int spent;              /* a once reservation that ended before this run's
                               --at but is kept in the file as the record that
                               its ad-hoc request was served (lcmpack): written
                               like any other, never in the load profile */
    long seg;               /* file segment it was read from; set by plan_add to
                               the plan's nseg (the next segment) */
};

typedef struct plan {
    long step;              /* seconds per step (>= 1) */
    long lcm;               /* cycle length in seconds (multiple of step) */
    long nsteps;            /* lcm / step */
    struct plan_res *res;   /* reservations in plan order (file order, then added) */
    size_t nres, rescap;
    double *load_cores, *load_mem;   /* [nsteps], folded over the cycle */
    double *cap_cores, *cap_mem;     /* [nsteps]; +inf until a capacity is set */
    void *index;            /* job name -> reservations (private) */
    long nseg;              /* segments (trailers) of the file read; 0 for a new plan */
} plan;

/* plan_new: an empty plan of nsteps = lcm/step steps with infinite capacity.
 * Requires step >= 1, lcm a positive multiple of step (callers validate
 * options first); returns NULL when they are not. */
plan *plan_new(long step, long lcm);
/* plan_free: free the plan and everything it owns.  NULL is fine. */
void plan_free(plan *p);

/* plan_set_capacity: a constant capacity (cores > 0, mem_mb > 0; else -1). */
int plan_set_capacity(plan *p, double cores, double mem_mb);
/* plan_capacity_keys: the columns looked up by name in a capacity-over-time file (plan_read_capacity),
 * NULL-terminated: what a tool gives cli_keys as its --col KEYs for that input. */
extern const char *const plan_capacity_keys[];

/* plan_read_capacity: a capacity-over-time CSV with columns t,cores,mem_mb:
 * t = offset in seconds within the cycle, rows sorted by t, the first at
 * t = 0; each row holds from its t to the next row's t (the last to the end
 * of the cycle); values >= 0; read with dialect d (NULL: plain CSV).  Prints
 * errors, returns an exit status. */
int plan_read_capacity(plan *p, const char *path, const struct csv_dialect *d);

/* plan_cost: c(s) at step s in [0, nsteps) (see LOAD AND COST). */
double plan_cost(const plan *p, long s);
/* plan_cost_add: c(s) if n more containers of (cores, mem_mb) were added at s. */
double plan_cost_add(const plan *p, long s, double n, double cores, double mem_mb);
/* plan_headroom: how many more containers of (cores, mem_mb) fit at step s
 * (cost stays <= 1); a large number (INT32_MAX) when neither resource binds. */
int64_t plan_headroom(const plan *p, long s, double cores, double mem_mb);

/* plan_offset: the step within the cycle of absolute time T (epoch seconds),
 * and its cycle in *cycle (may be NULL). */
long plan_offset(const plan *p, double T, int64_t *cycle);

/* plan_window: the steps [*lo, *hi) of a window [base + a, base + d] s
 * (base: where the instance's period starts in its cycle) for a request of
 * need steps at its maximum parallelism: the whole steps inside it, except
 * that the grid never refuses a request whose length fits the window: when
 * need <= L = floor((d - a) / step) (it fits in seconds) but more than the
 * grid steps inside (a and d both off the grid, so there are L - 1), the
 * window starts one step early, at the grid step below a.  The reservation
 * then begins less than a step before its input is available (that part of
 * its first step idles); it never ends after d, the SLO deadline.  A plan
 * file's reservation of len steps is checked with need = len.  *lo is at
 * least 0 (a window at 0 is not widened).  Returns 0, or -1 when the window
 * holds no whole step.  docs/lcmpack.md, "Windows off the grid". */
int plan_window(const plan *p, double base, double a, double d, long need, long *lo, long *hi);

/* plan_ninst: instances of r in one cycle (lcm/period for PERIODIC, 1 for ONCE). */
long plan_ninst(const plan *p, const struct plan_res *r);
/* plan_mod: a modulo m in [0, m) for m > 0 (C's % keeps a's sign). */
static inline long plan_mod(long a, long m)
{
    long r = a % m;
    return r < 0 ? r + m : r;
}

/* plan_cycle_step: step abs, counted from the start of cycle `cycle`, as the
 * cycle it falls in (*cyc) and its step within that cycle (returned, in
 * [0, nsteps)): how a ONCE reservation's rows are dated in the plan file. */
static inline long plan_cycle_step(const plan *p, int64_t cycle, long abs, int64_t *cyc)
{
    long s = plan_mod(abs, p->nsteps);
    *cyc = cycle + (abs - s) / p->nsteps;
    return s;
}

/* plan_slot: the folded step in [0, nsteps) of step j of instance i of r. */
long plan_slot(const plan *p, const struct plan_res *r, long i, long j);

/* plan_reserved_at: the capacity reserved at absolute time T (epoch seconds):
 * every periodic reservation (they repeat in every cycle) plus the once
 * reservations whose own cycle and steps cover T -- unlike load_cores[] and
 * load_mem[], which fold every once reservation onto the one cycle (the
 * conservative profile used for placement).  Sets *cores and *mem_mb.
 * O(reservations x instances per cycle). */
void plan_reserved_at(const plan *p, double T, double *cores, double *mem_mb);

/* plan_reserved: plan_reserved_at for many times T (replay asks at every
 * step): the periodic reservations folded once into a per-step profile, the
 * once reservations kept as a list.  plan_reserved_init builds it from p
 * (O(reserved steps)); plan_reserved_get answers at T what
 * plan_reserved_at(p, T) does, in O(once reservations + reservations added
 * since init); plan_reserved_free releases it.  Between init and get, p may
 * gain reservations (the DRA's extensions, which it may also change or
 * remove) but those present at init must not change. */
struct plan_reserved {
    double *cores, *mem_mb; /* [nsteps]: the periodic reservations only */
    size_t *once, nonce;    /* indices of the once reservations in p->res */
    size_t nres;            /* p->nres at init: later ones are looked at each time */
};
void plan_reserved_init(const plan *p, struct plan_reserved *pr);
void plan_reserved_get(const plan *p, const struct plan_reserved *pr, double T, double *cores, double *mem_mb);
void plan_reserved_free(struct plan_reserved *pr);

/* plan_alloc_at: the allocation planned for `job` at absolute time T, summed
 * over its reservations (periodic ones in every cycle, once ones only in
 * their cycle): containers, and total cores and mem_mb.  Returns the number
 * of reservations that contribute (0: nothing planned at T; outputs 0). */
int plan_alloc_at(const plan *p, const char *job, double T, int64_t *containers,
                  double *cores, double *mem_mb);

/* plan_peak: the highest c(s) over the cycle, and its first step in *at
 * (may be NULL); 0 and step 0 for an empty plan. */
double plan_peak(const plan *p, long *at);
/* plan_over_capacity: whether the plan as it stands exceeds its capacity:
 * the peak c(s) (plan_peak) in o->cost and its first step in o->step, the
 * load and capacity of both resources at that step, and o->nover, the steps
 * with c(s) > 1 (a tolerance of 1e-9 for loads summed in another order).
 * Returns o->nover (0: the plan fits).  The one check behind the warning of
 * lcmpack, reprov and replay (plan_warn_over). */
struct plan_over {
    double cost;                                     /* the peak c(s) */
    long step;                                       /* its first step */
    long nover;                                      /* steps with c(s) > 1 */
    double load_cores, load_mem, cap_cores, cap_mem; /* at that step */
};
long plan_over_capacity(const plan *p, struct plan_over *o);
/* plan_warn_over: when the plan exceeds its capacity, print the one warning
 * (slk_warn_at: silent with -q) "[FILE: ]warning: the plan exceeds the
 * capacity (cost C at t=T s: cores L of N, mem_mb L of M; over at K of S
 * steps): WHAT", WHAT saying what the tool does about it (path may be NULL).
 * Returns the steps over, as plan_over_capacity. */
long plan_warn_over(const plan *p, const char *path, const char *what);
/* plan_cost_text: a cost c(s) as messages print it, in buf (32 bytes,
 * returned): "%.4f", or "unbounded" when a load sits on a step of zero
 * capacity (c infinite; a --capacity-file may give such steps). */
const char *plan_cost_text(double c, char buf[32]);
/* plan_res_key: the identity of a reservation as a string (malloc'd; the
 * caller frees it): job and kind, and for a once reservation its instance
 * (two reservations of a plan never share one; an ad-hoc request's is its
 * reservation's, adhoc.h).  For sets and maps of reservations. */
char *plan_res_key(const char *job, enum plan_kind kind, int64_t instance);
/* plan_once_span: the allocation of once reservation r (its own cycle),
 * [*start, *end) in epoch seconds. */
void plan_once_span(const plan *p, const struct plan_res *r, double *start, double *end);
/* plan_res_peak: the highest c(s) over the slots reservation r occupies
 * (all its instances), with the load as it stands; 0 for a spent one. */
double plan_res_peak(const plan *p, const struct plan_res *r);
/* plan_fits: 1 when adding r (not yet in the plan) keeps c(s) <= 1 at every
 * slot it occupies, 0 otherwise, with the first offending step in *bad_step
 * (may be NULL).  This is the check reprov's DRA makes before growing an
 * instance locally (build a PLAN_ONCE reservation for the extra containers). */
int plan_fits(const plan *p, const struct plan_res *r, long *bad_step);

/* plan_res_init: zero r and allocate its three arrays for len steps
 * (containers 0, gang 1, stage 1); job is copied. */
void plan_res_init(struct plan_res *r, const char *job, enum plan_kind kind, long len);
/* plan_res_free: free what r owns (not r itself). */
void plan_res_free(struct plan_res *r);

/* plan_add: append r to the plan (taking ownership of its arrays and job:
 * the caller must not free them), in segment p->nseg, and add its load.  No capacity check: call
 * plan_fits first when that matters.  Returns the reservation's index. */
size_t plan_add(plan *p, struct plan_res *r);
/* plan_lift: take reservation k's load out of the profile, to try moving it
 * (lowcost_improve).  Until plan_settle(p, k, ...) it stays in res[] but its
 * load is not counted: settle it before writing, lifting or removing again. */
void plan_lift(plan *p, size_t k);
/* plan_settle: end plan_lift(p, k).  When r is not NULL, reservation k takes
 * r's placement (start, len and the arrays, which the plan now owns; r's
 * other fields are ignored and its job string freed) -- r must be a placement
 * of the same request.  Then k's load is added back. */
void plan_settle(plan *p, size_t k, struct plan_res *r);
/* plan_remove_job: mark every reservation of job removed and subtract its
 * load; returns how many were removed. */
int plan_remove_job(plan *p, const char *job);
/* plan_recompute_load: rebuild the load profile from the reservations not
 * marked removed (a spent one holds no load; call it after setting either
 * flag by hand). */
void plan_recompute_load(plan *p);
/* plan_has_job: 1 when job has a (not removed) reservation. */
int plan_has_job(const plan *p, const char *job);

/* plan_job_res: job's first reservation that is not removed (in file
 * order), or NULL. */
const struct plan_res *plan_job_res(const plan *p, const char *job);

/* plan_write_load: write the load profile "t,cores,mem_mb,cost" (one row per
 * step, t in seconds within the cycle) with w. */
void plan_write_load(const plan *p, csvw *w);

#include "morpheus/planfile.h"

#endif
