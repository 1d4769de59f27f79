/* swf — the Standard Workload Format of the Parallel Workloads Archive
 * (Feitelson et al., "Experience with using the Parallel Workloads Archive",
 * JPDC 2014; https://www.cs.huji.ac.il/labs/parallel/workload/swf.html) read
 * into stretch(1) jobs.
 *
 * A log is ASCII, one job per line, 18 blank-separated fields, -1 for a
 * missing value; header lines start with ';' and hold "; Label: value"
 * pairs.  Fields: 1 job number, 2 submit time (s, from the log start),
 * 3 wait time, 4 run time, 5 allocated processors, 6 average CPU time,
 * 7 used memory, 8 requested processors, 9 requested time, 10 requested
 * memory, 11 status, 12 user, 13 group, 14 executable, 15 queue,
 * 16 partition, 17 preceding job, 18 think time.
 *
 * Mapping: job = field 1; vc = the chosen field (user, group, queue or
 * partition) prefixed with its name ("group7"; "-1" reads "none");
 * submit = time 0 + field 2, time 0 = the caller's epoch when given (not
 * NaN), else the header's UnixStartTime, else 0; processors = field 5,
 * else field 8; size_server_hours = processors x run time / 3600;
 * max_parallelism = processors (HPC jobs are rigid).  Jobs with no run time
 * or no processors (cancelled before they ran) are skipped and counted.
 * The cluster size is the header's MaxProcs, else MaxNodes; a job with more
 * processors than that is a bad row ("job '7' uses 20 processors, more
 * than the log's MaxProcs 16").
 *
 * Not shared between threads.
 */
#ifndef SLOKIT_SWF_H
#define SLOKIT_SWF_H

#include "import/rawin.h"
#include "import/vcjobs.h"

enum swf_vc_by { SWF_VC_USER, SWF_VC_GROUP, SWF_VC_QUEUE, SWF_VC_PARTITION };

struct swf_stats {
    long jobs, skipped;       /* kept, and skipped for no run time/processors */
    long max_procs, max_nodes;/* from the header, -1 when absent */
    double unix_start;        /* time 0: from the header, 0 when absent */
};

/* swf_read: read a whole log into t, submit times from epoch (NaN: from the
 * header's UnixStartTime).  Returns 0, or SLK_EDATA/SLK_EIO after printing
 * "tool: FILE:LINE: message" (wrong field count, a non-number, a negative
 * submit time, a bad header value, a job wider than the cluster). */
int swf_read(rawin *in, enum swf_vc_by by, double epoch, struct vcjobs *t, struct swf_stats *st);

#endif
