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

/* vcrep_stretch: the job's stretch in a VC of capacity cap (> 0). */
double vcrep_stretch(const struct vcsim_job *j, double cap);

/* vcrep_floor: the job's stretch alone in an idle cluster of `servers`:
 * cap / min(maxpar, servers).  Above 1 the job's own parallelism cap, not
 * sharing, keeps it from its ideal time. */
double vcrep_floor(const struct vcsim_job *j, double cap, double servers);

/* vcrep_in_window: 1 when w0 <= t <= w0 + h. */
int vcrep_in_window(double t, double w0, double h);

/* vcrep_window: the accounting window.  With have_start the window starts at
 * start, else at the first submit (0 without jobs); with horizon > 0 it is
 * that long, else the span from its start to the last submit rounded up to
 * whole days (at least one).  *derived is 1 in that last case. */
void vcrep_window(const struct vcsim_job *jobs, size_t n, int have_start, double start, double horizon,
                  double *w0, double *h, int *derived);

struct vcrep_vc {
    size_t jobs;        /* jobs submitted in the window */
    double work;        /* their work, server-seconds */
    double load;        /* work / (capacity x h) */
    double mean, median, p95; /* of their stretch; NaN without jobs */
};

/* vcrep_per_vc: rep[0..nvc) over the finished jobs submitted in [w0, w0+h]
 * (every jobs[i].vc < nvc, cap[k] > 0, h > 0). */
void vcrep_per_vc(const struct vcsim_job *jobs, size_t njobs, const double *cap, size_t nvc, double w0,
                  double h, struct vcrep_vc *rep);

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
