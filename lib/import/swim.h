/* swim — SWIM workloads (Chen et al., "The Case for Evaluating MapReduce
 * Performance Using Workload Suites", MASCOTS 2011; the Facebook 2009
 * samples) read into stretch(1) jobs.
 *
 * A SWIM workload is TSV without a header: job id (jobN), submit time (s from
 * the workload start), the gap since the previous submission, map input
 * bytes, shuffle bytes, reduce output bytes.
 *
 * Mapping (SWIM has no users, no task counts and no cluster size):
 *   job = field 1; vc = "fb" (N mod vcs) for jobN: vcs teams with
 *   statistically identical workloads;
 *   submit = epoch + field 2;
 *   size_server_hours = (1 + (input + shuffle + output) / rate) / 3600: a
 *   server moves `rate` bytes a second, plus one server-second of start-up;
 *   max_parallelism = ceil(input / 128 MiB), at least 1, when asked (the map
 *   task count), else no limit.
 *
 * Not shared between threads.
 */
#ifndef SLOKIT_SWIM_H
#define SLOKIT_SWIM_H

#include "import/rawin.h"
#include "import/vcjobs.h"

struct swim_params {
    int vcs;          /* >= 1 */
    double rate;      /* bytes per server-second, > 0 */
    int parallelism;  /* 1: max_parallelism = map tasks */
    double epoch;     /* added to the submit times */
};

/* swim_read: read a whole workload into t.  Returns 0, or SLK_EDATA/SLK_EIO
 * after "tool: FILE:LINE: message" (not 6 fields, a job id not jobN, a
 * non-number or negative value). */
int swim_read(rawin *in, const struct swim_params *p, struct vcjobs *t);

#endif
