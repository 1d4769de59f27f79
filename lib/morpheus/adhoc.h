/* adhoc — non-periodic (ad-hoc) reservation requests (Morpheus §6: "the
 * capacity left by periodic reservations ... non-periodic jobs").
 *
 * FILE.  CSV with columns job,arrival,deadline[,containers,duration]
 * [,cores,mem_mb]: the job runs somewhere in [arrival, deadline] (epoch
 * seconds or ISO 8601).  Two forms of its demand:
 *   - area: `containers` containers for `duration` seconds (at most
 *     `containers` at a time, LowCost may stretch it at fewer); cores,
 *     mem_mb: per container (default: lcmpack's --container);
 *   - skyline: containers and duration empty (or the columns absent): the
 *     job's skyline, skyfit's rows job,step,offset,alloc[,cores,mem_mb]
 *     [,gang] in a second file (lcmpack --adhoc-skyline), attached by
 *     adhoc_attach: its stages (stages.h) and container size.
 * Rows in any order; one row per (job, arrival); several rows of one job
 * share its skyline.
 *
 * AS A REQUEST.  A once request: in the area form of one stage (demand =
 * containers x ceil(duration / step) container-steps, maximum parallelism
 * `containers`, gang 1), in the skyline form of the skyline's stages; with
 * period = the plan's lcm and instance n = floor(arrival / lcm), the cycle
 * its arrival falls in: (job, n) is the request's identity, the same every
 * night whatever --at is (its reservation is "job#n" in YARN), so a job has
 * at most one request per cycle (adhoc_read refuses a second).  Its window
 * is [max(arrival, at), deadline]: a = max(arrival, at) - n lcm,
 * d = deadline - n lcm (the part before --at has passed).  lcmpack places
 * them after every periodic and off-kilter request (lower priority: they
 * get the capacity the others leave), in file order; a request whose
 * deadline is at or before --at has expired and is dropped (reported).  A
 * request whose reservation already ran (it ended before --at) while its
 * deadline is still ahead is served: lcmpack keeps that reservation in the
 * plan, without load, until the deadline passes, so a re-run does not
 * serve it again.
 *
 * OWNERSHIP.  adhoc_read returns an array it owns; free it with
 * adhoc_free.  Errors are printed "tool: FILE:LINE: why".
 * Threads: no shared state.
 */
#ifndef SLOKIT_ADHOC_H
#define SLOKIT_ADHOC_H

#include "morpheus/lowcost.h"
#include <stddef.h>

struct adhoc {
    char *job;              /* owned */
    long line;
    double arrival, deadline, duration, cores, mem_mb;
    int64_t containers;     /* 0: the skyline form */
    struct lowcost_stage stage;   /* area form: filled by adhoc_request */
    const struct lowcost_stage *st;   /* skyline form: set by adhoc_attach (not owned) */
    long nst;
};

struct stages_job;

/* adhoc_keys: the columns looked up by name in an ad-hoc file (adhoc_read),
 * NULL-terminated: what a tool reading one accepts as --col adhoc:KEY. */
extern const char *const adhoc_keys[];

/* adhoc_read: the requests of path, read with dialect d, into *out / *n
 * (allocated), with (cores, mem_mb) when the file has no such columns or a
 * row leaves both cells empty.  Refuses a deadline not after the arrival, a
 * window longer than lcm seconds, one of containers and duration without the
 * other (and cores or mem_mb), a second request of a job in one cycle of lcm
 * seconds (exit 65), at the row; under d's --on-error skip such a row is
 * skipped instead (csvr_skip: to the rejects; of a job's requests in one
 * cycle, the first is kept).  A duration longer than its window is read
 * (lcmpack reports it rejected).  Returns an exit status. */
int adhoc_read(const char *path, const struct csv_dialect *d, double cores, double mem_mb, double lcm,
               struct adhoc **out, size_t *n);

/* adhoc_attach: give every skyline-form request of a[0..n-1] the stages and
 * container size of its job in jobs[0..nj-1] (stages_read of the
 * --adhoc-skyline file; they must outlive a).  path names the ad-hoc file
 * in messages.  Returns SLK_OK, or SLK_EDATA (printed "tool: PATH:LINE:
 * ...") when a request has neither an area nor a skyline with demand. */
int adhoc_attach(struct adhoc *a, size_t n, const struct stages_job *jobs, size_t nj, const char *path);

/* adhoc_instance: the instance number of a (AS A REQUEST) in a plan whose
 * cycle is lcm seconds. */
int64_t adhoc_instance(const struct adhoc *a, double lcm);

/* adhoc_request: a's request in plan p at time `at` (AS A REQUEST) into
 * *q; q->stage points into a. */
void adhoc_request(const plan *p, struct adhoc *a, double at, struct lowcost_req *q);

/* adhoc_free: free n requests and the array.  NULL is fine. */
void adhoc_free(struct adhoc *a, size_t n);

#endif
