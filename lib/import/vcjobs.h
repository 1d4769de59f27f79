/* vcjobs — a table of stretch(1) jobs built by an importer, and the virtual
 * clusters' capacities derived from it.
 *
 * Importers (SWF, Alibaba GPU pods, SWIM) add one job at a time; VCs are
 * named by the importer and created on first use.  Capacities come either
 * from a real cluster size split among the VCs in proportion to their work
 * (largest remainder: integers that add up to the size exactly, each at
 * least 1), or, when a trace has no cluster size, from a target load factor
 * over the horizon.  The writers emit exactly stretch's input columns.
 *
 * Ownership: the table owns copies of every string.  Not shared between
 * threads.
 */
#ifndef SLOKIT_VCJOBS_H
#define SLOKIT_VCJOBS_H

#include "base/csvio.h"
#include "base/keyset.h"

#include <stddef.h>

struct vcjob {
    char *job;
    int vc;               /* index into the table's VCs */
    double submit;        /* epoch seconds */
    double size_sh;       /* server-hours, > 0 */
    double maxpar;        /* servers, > 0; 0 = no limit */
};

struct vcjobs {
    struct vcjob *jobs;
    size_t njobs, cap;
    char **vc;            /* VC names, in order of first use */
    double *work_sh;      /* work per VC, server-hours */
    long *capacity;       /* filled by vcjobs_capacity_* */
    size_t nvc, vccap;
    double first, last;   /* submit span */
    keyset *seen;         /* job names -> the line that added them */
    keyset *vcs;          /* VC names -> their index in vc[] */
};

/* vcjobs_add: append a job (strings copied), read at the trace's line;
 * vc is created on first use.  Returns 0, or, when the job name was added
 * already (stretch refuses a duplicate job), the line that added it and
 * nothing is added. */
long vcjobs_add(struct vcjobs *t, const char *job, const char *vc, double submit,
                double size_sh, double maxpar, long line);

/* vcjobs_capacity_share: split `servers` (>= number of VCs) among the VCs in
 * proportion to their work, largest remainder, each at least 1; the
 * capacities add up to `servers`.  Returns 0, or -1 when servers < nvc. */
int vcjobs_capacity_share(struct vcjobs *t, long servers);

/* vcjobs_capacity_load: each VC's capacity = its work / (load x horizon_s),
 * rounded to the nearest integer, at least 1. */
void vcjobs_capacity_load(struct vcjobs *t, double load, double horizon_s);

/* vcjobs_horizon: the submit span rounded up to whole hours, at least one. */
double vcjobs_horizon(const struct vcjobs *t);

/* vcjobs_write_jobs: job,vc,submit,size_server_hours,max_parallelism
 * sorted by submit, ties in input order (stretch(1) reads jobs in submit
 * order; a pod list is in pod order), max_parallelism empty when 0. */
void vcjobs_write_jobs(const struct vcjobs *t, csvw *w);
/* vcjobs_write_capacities: vc,capacity sorted by VC name. */
void vcjobs_write_capacities(const struct vcjobs *t, csvw *w);

/* vcjobs_free: free everything; the struct itself is the caller's. */
void vcjobs_free(struct vcjobs *t);

#endif
