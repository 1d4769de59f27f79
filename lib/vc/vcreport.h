/* vcreport — the measures of seed 002 over a finished vcsim run: each job's
 * stretch, each VC's load factor and stretch statistics, and the
 * consistency figure (how different the mean stretch of VCs of similar load
 * is).  Used by stretch(1).
 *
 *   stretch     = (finish - submit) / (work / capacity of the job's VC)
 *   load factor = work submitted in the window / (capacity x window length)
 *   consistency = over load bins holding at least two VCs, the largest
 *                 max / min of their mean stretch (1: similar load, same
 *                 stretch)
 *
 * Ownership: the functions read the caller's arrays and fill the caller's
 * outputs; nothing is kept.  Thread safety: no shared state; concurrent
 * calls on distinct outputs are safe.
 */
#ifndef SLOKIT_VCREPORT_H
#define SLOKIT_VCREPORT_H

#include "vc/vcsim.h"

#include <stddef.h>
#include <stdint.h>

/* vcrep_stretch: the job's stretch in a VC of capacity cap (> 0). */
double vcrep_stretch(const struct vcsim_job *j, double cap);

/* vcrep_floor: the job's stretch alone in an idle cluster of `servers`:
 * cap / min(maxpar, servers).  Above 1 the job's own parallelism cap, not
 * sharing, keeps it from its ideal time. */
double vcrep_floor(const struct vcsim_job *j, double cap, double servers);

/* vcrep_in_window: 1 when w0 <= t < w0 + h (h may be INFINITY). */
int vcrep_in_window(double t, double w0, double h);

struct vcrep_vc {
    size_t jobs;        /* jobs submitted in the window */
    double work;        /* their work, server-seconds */
    double load;        /* work / (capacity x h) */
    double mean, median, p95; /* of their stretch; NaN without jobs */
};

/* vcrep_per_vc: rep[0..nvc) over the finished jobs submitted in [w0, w0+h]
 * (every jobs[i].vc < nvc, cap[k] > 0, h > 0): vcrep_acc over an array. */
void vcrep_per_vc(const struct vcsim_job *jobs, size_t njobs, const double *cap, size_t nvc, double w0,
                  double h, struct vcrep_vc *rep);

/* One (VC, UTC day of submission) of the jobs submitted in the window. */
struct vcrep_day {
    uint32_t vc;
    double day;           /* floor(submit / 86400) */
    size_t jobs;
    double work, ssum;    /* their work (server-seconds) and sum of stretch */
};

/* The sums of a run over its finished jobs, added one at a time in input
 * order (so every sum is the one over the array in input order).  Memory is
 * O(VCs), plus one double per job in the window with VCREP_KEEP_STRETCH
 * (the per-VC median and p95 need them all), plus one entry per (VC, day)
 * with VCREP_KEEP_DAILY. */
enum { VCREP_KEEP_STRETCH = 1, VCREP_KEEP_DAILY = 2 };
struct vcrep_acc {
    size_t nvc;
    const double *cap;     /* not owned */
    double servers;        /* for the parallelism floor */
    int keep;
    size_t n;              /* every job added */
    double work;           /* their work (the conservation check) */
    size_t win_n;          /* the jobs in the window: their count, work, stretch and floor sums */
    double win_work, win_ssum, win_fsum;
    size_t *wjobs;         /* per VC: jobs in the window, their work and stretch sum */
    double *wwork, *wssum;
    double **x;            /* per VC: stretches in the window (VCREP_KEEP_STRETCH) */
    size_t *xcap;
    struct vcrep_day *day; /* VCREP_KEEP_DAILY */
    size_t nday, dcap, nslot;
    uint32_t *slot;
};

/* vcrep_acc_init: an empty accumulator for nvc VCs of capacity cap[] (kept
 * by reference) in a cluster of `servers`; keep: VCREP_KEEP_* flags. */
void vcrep_acc_init(struct vcrep_acc *a, const double *cap, size_t nvc, double servers, int keep);
/* vcrep_acc_add: a finished job; it counts for its VC, its day and the
 * window's sums (win_*) when its submit is in [w0, w0 + h) (h may be
 * INFINITY). */
void vcrep_acc_add(struct vcrep_acc *a, const struct vcsim_job *j, double w0, double h);
/* vcrep_acc_per_vc: rep[0..nvc) for a window of length h (median and p95
 * NaN without VCREP_KEEP_STRETCH; sorts the kept stretches). */
void vcrep_acc_per_vc(struct vcrep_acc *a, double h, struct vcrep_vc *rep);
/* vcrep_acc_daily: the (VC, day) entries sorted by VC, then day. */
const struct vcrep_day *vcrep_acc_daily(struct vcrep_acc *a, size_t *n);
void vcrep_acc_free(struct vcrep_acc *a);

struct vcrep_bin {
    double lo, hi;      /* load-factor edges: lo <= load < hi */
    double min, max;    /* of the VCs' mean stretch */
    size_t n;           /* VCs with jobs in the bin */
};

/* vcrep_consistency: bin the VCs with jobs by load factor on the increasing
 * edges[0..nedges) into bins[0..nedges] (*nb = nedges + 1; the first from
 * 0, the last to infinity) and return the largest max/min mean stretch over
 * bins with two VCs or more, NaN when there is none. */
double vcrep_consistency(const struct vcrep_vc *rep, size_t nvc, const double *edges, int nedges,
                         struct vcrep_bin *bins, int *nb);

#endif
