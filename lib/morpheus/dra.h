/* dra — the Morpheus Dynamic Reprovisioning Algorithm (OSDI 2016, §7), the
 * data plane of `reprov --policy dra` and of replay's plan+dra regime (both
 * call this code; there is no second copy).
 *
 * MODEL.  A job runs inside its reservation in a plan (lib/plan).  For every
 * sample (job, t, used containers, pending ask), in time order:
 *   - base(t) = plan_alloc_at(job, t): the containers its reservations plan
 *     at t (the DRA's own extensions excluded);
 *   - trigger: used + pending > base(t), when no extension is in force and
 *     no refusal is being held;
 *   - the extra is the instantaneous demand above the plan, capped:
 *         extra = min(used + pending - base(t),  floor(rho * R))
 *     with R the largest allocation of the job over the plan steps covering
 *     [t - window, t] (the allocation of the skyline in the recent window),
 *     so the job never gets more than it asks for and at most rho times its
 *     recent allocation.  Two readings of "allocation" (opts.recent):
 *       DRA_RECENT_INSTANCE (default, the paper's): the current instance as
 *         the DRA has increased it locally: at plan step k, base(k) plus the
 *         extra of a granted extension in force during the step (its
 *         [granted, until) meets [k*step, (k+1)*step)), so a job that keeps
 *         straggling past its reservation keeps its R ("stretches" the
 *         skyline, Morpheus §7 and Fig. 8);
 *       DRA_RECENT_PLAN: base(k) only (the original plan), so nothing can be
 *         granted once the job is more than `window` past its reservation;
 *     with the instance reading, when R is 0 (the job ran past its
 *     reservation and its extensions lapsed while it was refused: without
 *     this it would be refused for good, "no allocation to scale", even once
 *     capacity frees), R is the allocation in force at the job's last
 *     sample that had one (> 0): the reservation's own recent allocation;
 *   - the extra containers are a PLAN_ONCE reservation of the job's
 *     container size over the plan steps covering [t, t + grant); it is
 *     granted in full when the plan has free capacity for it at every step
 *     (plan_headroom, the check lcmpack makes for a placement); when only
 *     part fits, the part that fits at every step (the least headroom over
 *     them, >= 1 container) is granted: a partial grant (the row says
 *     "partial", with what was wanted and what fit); when not one container
 *     fits, it is refused (plan full).  A grant is added to the plan
 *     (plan_add: the current instance grows locally).  A grant longer than
 *     the plan's cycle covers every step of it and counts once at each, in
 *     the room check and in the load (it holds its extra once at any
 *     moment; folding it onto the cycle as plan_add folds a once
 *     reservation would count it once per cycle it spans);
 *   - each decision's reason starts with what was decided: "granted
 *     (extend|renew): ...", "partial (extend|renew): ..." or "refused: ...";
 *   - at `until` = t + grant the extension lapses: it leaves the plan (its
 *     load is subtracted) and the next sample of the job re-evaluates;
 *   - a refused extension (plan full, no recent allocation to scale, or a
 *     cap floor(rho * R) of 0 with R > 0: rho below 1/R) is not retried
 *     before t + grant.
 * Samples of jobs without a reservation in the plan are ignored (counted).
 *
 * OWNERSHIP.  A dra borrows the plan (not freed by dra_free).  It adds at
 * most one PLAN_ONCE reservation per job to it, reused for every grant;
 * while no extension is in force it is marked removed (its arrays stay with
 * the plan, which frees them).  Nothing here
 * prints; errors are impossible after dra_new (out of memory exits).
 *
 * Threads: one dra (and the plan it extends) is used by one thread at a
 * time; distinct dra values share nothing.
 */
#ifndef SLOKIT_DRA_H
#define SLOKIT_DRA_H

#include "morpheus/plan.h"

#include <argp.h>
#include <stddef.h>
#include <stdint.h>

struct dra_opts {
    double grant;       /* T: seconds an extension lasts before re-evaluation (default 60) */
    double window;      /* seconds of recent skyline whose max allocation is scaled (default 120) */
    double rho;         /* fudge factor on the recent allocation (default 2) */
    int recent;         /* DRA_RECENT_INSTANCE (default) or DRA_RECENT_PLAN: what R counts */
    const char *given;  /* dra_argp: the first of its options given (its name), else NULL: a
                           tool refuses it in a mode without the DRA, where it would be ignored */
};

enum { DRA_RECENT_INSTANCE = 0, DRA_RECENT_PLAN = 1 };

/* dra_opts_default: grant 60 s, window 120 s, rho 2, recent instance (the paper's defaults). */
void dra_opts_default(struct dra_opts *o);

/* dra_argp: the DRA's options (--grant, --window, --rho, --recent) as one argp
 * child, shared by reprov and replay.  The parent passes its struct dra_opts,
 * already set by dra_opts_default, as the child's input: in its ARGP_KEY_INIT,
 * state->child_inputs[k] = &opts (k = the child's index).  Bad values exit 64. */
extern const struct argp dra_argp;

enum dra_action {
    DRA_NONE = 0,       /* nothing to decide (demand within the plan, or holding) */
    DRA_EXTEND,         /* a new extension was granted */
    DRA_RENEW,          /* an extension that just lapsed was granted again */
    DRA_REFUSE,         /* the demand exceeds the plan but nothing could be granted */
    DRA_NOPLAN          /* the job has no reservation in the plan */
};

struct dra_decision {
    enum dra_action action;
    int64_t old_alloc;  /* containers in force at t before the decision: base (a decision is made only
                           while no extension is in force; for RENEW the last one lapsed by t) */
    int64_t new_alloc;  /* containers in force after it (base + extra; = base when refused) */
    int64_t alloc;      /* containers in force for the job at t after the sample (always set) */
    int64_t base, demand, extra, cap;
    double until;       /* end of the extension, or of the refusal hold */
    int full;           /* REFUSE: 1 the plan is full (else nothing allocated recently, or rho cap 0) */
    int64_t rmax;       /* R, the largest recent allocation (cap = floor(rho * R)) */
    double rho;         /* the opts.rho in force, for the reason */
    int recent;         /* the opts.recent in force, for the reason */
    int64_t bad_offset; /* REFUSE full: the first plan offset (s) without room */
    int64_t room;       /* ... and how many containers still fit there */
    double window;      /* the recent window (s), for the reason */
    int partial;        /* EXTEND/RENEW: only part of `wanted` fit (extra = what did) */
    int64_t wanted;     /* the extra asked for (min(demand - base, cap)) */
    int from_last;      /* R came from the job's last allocation (nothing recent) */
};

/* dra_reason: the decision's reason as text ("extend: ...", "renew: ...",
 * "refused: ...") into buf (n bytes; 200 is enough).  Kept out of
 * dra_sample so that replay, which needs no text, does not pay for it. */
void dra_reason(const struct dra_decision *d, char *buf, size_t n);

typedef struct dra dra;

/* dra_new: a controller over plan p (its capacity set; p is borrowed and
 * modified: extensions are added and removed).  The job table is built from
 * the reservations p holds now. */
dra *dra_new(plan *p, const struct dra_opts *o);
/* dra_free: remove the extensions still in force from the plan, free the
 * controller.  NULL is fine. */
void dra_free(dra *d);

/* dra_sample: one sample of `job` at time t (seconds, non-decreasing across
 * calls: the caller checks order), with `used` containers running and
 * `pending` asked for (both >= 0, finite).  Fills *out; returns 1 when the
 * decision is one to report (EXTEND, RENEW, REFUSE), 0 otherwise. */
int dra_sample(dra *d, const char *job, double t, double used, double pending, struct dra_decision *out);

/* dra_expire: let every extension with until <= t lapse (dra_sample does it
 * first; replay calls it to advance time without samples). */
void dra_expire(dra *d, double t);

/* dra_extra_at: the extension of job in force at t (0 when none). */
int64_t dra_extra_at(const dra *d, const char *job, double t);

/* Counters for summaries. */
struct dra_stats {
    uint64_t samples, noplan, triggers, extended, renewed, refused_full, refused_nocap;
    uint64_t refused_rho;       /* R > 0 but floor(rho * R) = 0 (refused_nocap: R = 0) */
    uint64_t partial;           /* grants (extended or renewed) of only part of the ask */
    double extra_container_s;   /* granted containers x seconds */
};
void dra_get_stats(const dra *d, struct dra_stats *s);

#endif
