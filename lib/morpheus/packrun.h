/* packrun — one run of lcmpack: the nightly planning pipeline around
 * LowCost (Morpheus §6, §7 "Adjusting LowCost"; lcmpack(1)).
 *
 *   packrun_plan   --plan (from its index when only adding in place), the
 *                  SLOs and skylines (stages), --adhoc, the capacity; the
 *                  --report file; --remove and expired one-offs; the
 *                  requests (periodic jobs in input order, then the one-off
 *                  instances of the others, then the ad-hoc ones); --order
 *                  tight; --replan; --stable's keep/move decisions; LowCost
 *                  (or --strategy earliest) in order with --lookahead's
 *                  pressure: the periodic and once requests, --improve
 *                  and their refused ones tried again on the polished
 *                  plan, then the ad-hoc ones on what is left (with
 *                  --improve the polish again, and every refused request
 *                  tried again, periodic first): a fixed point, a re-run
 *                  places nothing; a moved request that is refused gets
 *                  its old reservation back when it still fits; one
 *                  report row per decision.
 *   packout_write  the outputs: the --report rows flushed (a write error
 *                  there stops it before any file is replaced), --load,
 *                  --plan-out, --yarn-delta, then the
 *                  plan (-o; appended in place through PLAN.idx when it
 *                  can), --query's rows or YARN bodies (--format yarn).
 *   packrun_bound  the summary's lower bound over the plan's reservations.
 *
 * Nothing here reads the CLI's globals: the output path, -q and the CSV
 * dialects come in packrun_opts.  Errors are printed "tool: FILE:LINE: why"
 * and returned as exit statuses (base/diag.h).
 * Threads: a packrun is used by one thread; distinct runs share nothing.
 */
#ifndef SLOKIT_PACKRUN_H
#define SLOKIT_PACKRUN_H

#include "base/csvio.h"
#include "base/diag.h"
#include "base/keyset.h"
#include "base/outfile.h"
#include "morpheus/adhoc.h"
#include "morpheus/lowcost.h"
#include "morpheus/plan.h"
#include "morpheus/planbound.h"
#include "morpheus/planidx.h"
#include "morpheus/slo.h"
#include "morpheus/stages.h"
#include "morpheus/yarn.h"

#include <stddef.h>

#define MAX_LIST 4096

/* The options of one run, as lcmpack(1) describes them (the caller fills
 * them; the last five are what the CLI would otherwise keep in globals). */
struct packrun_opts {
    const char *input;
    const char *slo;
    const char *plan_in;
    const char *plan_out;
    const char *load_out;
    const char *report;
    const char *cap_file;
    double cap_cores, cap_mem;
    int have_cap;
    double lcm, step;
    int have_lcm, have_step;
    double at;
    int have_at;
    double cont_cores, cont_mem;
    int replan, strict, yarn, earliest, tight, have_query, no_index;
    double query;
    const char *queue;
    double problematic_cv;
    double align_weight;
    int ends, chunks;
    double stretch;
    double lookahead;
    int improve;
    long long max_requests;
    double stable;          /* --stable: tolerance (fraction); < 0: off */
    double horizon;         /* --horizon, seconds; 0: one cycle (the lcm) */
    const char *yarn_delta; /* --yarn-delta DIR */
    const char *yarn_base;  /* --yarn-base PLAN: the plan the RM holds (default --plan) */
    const char *adhoc;      /* --adhoc FILE */
    const char *adhoc_sky;  /* --adhoc-skyline FILE */
    long long cluster_ts;   /* --cluster-timestamp */
    double now;             /* --now (epoch seconds; NAN without it: --at is now) */
    int nremove, nprob;
    const char *remove[MAX_LIST];
    const char *prob[MAX_LIST];
    const char *output;     /* -o (NULL or "-": stdout) */
    int quiet;              /* -q: no warnings, no rejections on stderr */
    const struct csv_dialect *csv, *slo_csv, *cap_csv, *adhoc_csv; /* skylines and outputs; --slo;
                                                                      --capacity-file; --adhoc */
};

/* The summary's counts. */
struct packrun_counts {
    long placed, rejected, kept, skipped, removed, expired, requests;
};

/* Where a reservation the plan held before this run is: in --plan's index
 * (x) or p->res[k]. */
struct packrun_ref {
    const struct planidx_res *x;
    size_t k;
};

/* Everything one run of lcmpack holds (packrun_free frees it).  Zero it,
 * then set o and how ("") before packrun_plan. */
struct packrun {
    const struct packrun_opts *o;
    struct slo_reqs slos;       /* the SLO file */
    struct stages_job *jobs;    /* the skyline file */
    size_t njobs;
    struct adhoc *adhoc;        /* --adhoc */
    size_t nadhoc;
    struct stages_job *adhoc_jobs;  /* --adhoc-skyline */
    size_t nadhoc_jobs;
    size_t adhoc0;              /* reqs[adhoc0 ..] are the ad-hoc requests */
    double *adhoc_a;            /* [i - adhoc0]: where ad-hoc request i's window starts in its file
                                   (its arrival; reqs[i].a is later when --at or --now cut it) */
    size_t adhoc_acap;
    plan *p;
    planidx *idx;               /* --plan's index when this run appends in place (else NULL) */
    keyset *have;               /* reservation keys the plan holds already */
    struct packrun_ref *have_ref; /* [keyset row of have]: where that reservation is */
    size_t have_cap;
    keyset *adhoc_open;         /* keys of the ad-hoc requests whose deadline is after --now (or --at) */
    keyset *gone;               /* keys of once reservations expired tonight (one report row each) */
    outf *orep;                 /* --report */
    csvw *rep;
    struct lowcost_req *reqs;
    size_t nreq, reqcap;
    int need_at;                /* a job needs --at and did not get it */
    keyset *no_at;              /* the jobs skipped for want of --at (their once instances not planned) */
    long long lcm_periods;      /* the LCM of the periodic requests' periods, for the summary */
    double fixed_lb;            /* the tallest placed request, cost units */
    double elapsed;             /* placement time, seconds */
    struct lowcost_improve_stats imp;       /* --improve: the polish of the periodic and once requests */
    struct lowcost_improve_stats imp_adhoc; /* --improve: the polish again once ad-hoc ones are placed */
    int polished, adhoc_polished;           /* which of the two polishes ran */
    const char *how;            /* how the plan was written, for the summary */
    struct packrun_counts n;
    struct slk_many unplaced;   /* without --report: the rejections named on stderr (the first few) */
    size_t nres_read;           /* reservations of --plan (the first ones of p->res) */
    struct yarn_snapshot snap;  /* --yarn-delta: --plan as read */
    struct yarn_delta_counts delta;
    /* --stable: per request, decided before placing */
    signed char *pre;           /* [nreq]: 0 no reservation, 1 kept, 2 moved */
    char **pre_why;             /* [nreq]: owned */
    size_t *old;                /* [nreq]: a moved request's freed reservation (index in p->res) */
    signed char *back;          /* [nreq]: a moved request refused: 1 its old reservation put
                                   back (kept), 2 it no longer fits (rejected, removed) */
    long n_moved, n_gone, n_moved_placed;
    long n_after_polish;        /* --improve: refused requests placed after the polish */
    double peak_polished;       /* --improve: the plan's peak after the polish of the periodic
                                   and once requests, before any ad-hoc one and the retries */
};


/* packrun_plan: everything up to the plan (see the top): R->p holds the
 * plan, R->n the counts, the report rows are written.  Returns SLK_OK or an
 * exit status (printed); on an error nothing is placed. */
int packrun_plan(struct packrun *R);

/* packout_delta_path: --yarn-delta dir's file i (0 submit.jsonl, 1
 * update.jsonl, 2 delete.jsonl), malloc'd. */
char *packout_delta_path(const char *dir, int i);

/* packout_write: the outputs of a planned run (see the top), each file
 * replaced atomically.  Returns SLK_OK or an exit status (printed; SLK_EIO
 * unprinted when the report's flush failed: packrun_close_report says so). */
int packout_write(struct packrun *R);

/* packrun_bound: the lower bound over the plan's live reservations in file
 * order (from the index, or read) into *bd; kept reservations are fixed
 * demands.  Returns the number of live reservations. */
size_t packrun_bound(struct packrun *R, struct planbound *bd);

/* packrun_close_report: finish the --report file with status st (on an
 * error the old report stays).  Returns the status. */
int packrun_close_report(struct packrun *R, int st);

/* packrun_free: free what R holds (not R).  A zeroed R is fine. */
void packrun_free(struct packrun *R);

#endif
