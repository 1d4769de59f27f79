/* google — Google cluster-usage trace 2011 (clusterdata-2011-2: Reiss,
 * Wilkes and Hellerstein, "Google cluster-usage traces: format + schema",
 * 2011) job_events and task_events read into sloinfer(1) runs and skyfit(1)
 * usage.
 *
 * Tables are comma-separated without a header or quoting (numbers and base64
 * hashes, never a comma or a quote), times in microseconds since 600 s before
 * the trace start (0 = before the window, 2^63-1 = after it).
 *   job_events (8 fields): time, missing info, job ID, event type, user,
 *     scheduling class, job name, logical job name.
 *   task_events (13 fields): time, missing info, job ID, task index, machine
 *     ID, event type, user, scheduling class, priority, CPU request, memory
 *     request, disk request, different-machine constraint.
 *   Event types: 0 SUBMIT, 1 SCHEDULE, 2 EVICT, 3 FAIL, 4 FINISH, 5 KILL,
 *     6 LOST, 7 UPDATE_PENDING, 8 UPDATE_RUNNING.
 *
 * Runs: one per job ID (a run of the recurring job named by its logical job
 * name): submit = its first SUBMIT, start = its first SCHEDULE, end and
 * status = its last EVICT/FAIL/FINISH/KILL/LOST (finished, evicted, failed,
 * killed, lost) when nothing follows it.  Jobs submitted before the window,
 * never scheduled, or not ended by the end of the input are counted, not
 * written.
 *
 * Usage: one sample per step of each run whose every task was scheduled and
 * ended inside the task events read: containers = the mean number of
 * running tasks over the step (SCHEDULE to EVICT/FAIL/FINISH/KILL/LOST;
 * task-seconds / step, so the area is exact); with machine sizes, cores and
 * mem_mb = the running tasks' mean CPU and memory requests (normalised to the
 * largest machine in the trace) times those sizes.
 *
 * Refused (SLK_EDATA at the row): a job event earlier than the job's
 * previous one, a task ending before its SCHEDULE, a run whose tasks span
 * more than 10^7 steps.
 *
 * Times are written exactly: epoch + microseconds / 10^6 as decimal text, no
 * rounding.  Every table is streamed line by line; memory holds one record
 * per job ID (runs) or per task interval (usage), because the output is
 * grouped by logical job name and the trace is sorted by time.
 *
 * Not shared between threads.
 */
#ifndef SLOKIT_GOOGLE_H
#define SLOKIT_GOOGLE_H

#include "base/csvio.h"
#include "import/rawin.h"

#include <stdint.h>

struct google_opts {
    int64_t epoch;       /* epoch seconds of trace time 0 */
    double step;         /* usage step, seconds (> 0) */
    double cores, mem_mb;/* the largest machine; 0: no cores/mem_mb columns */
};

struct google_stats {
    long events, jobs, runs;         /* job events, job IDs, runs written */
    long before_window, never_started, not_ended;
    long task_events, tasks, usage_runs, usage_rows;
    long usage_incomplete, usage_unnamed, usage_norequest;
};

typedef struct google_trace google_trace;

/* google_new / google_free: an empty trace (free accepts NULL). */
google_trace *google_new(const struct google_opts *o);
void google_free(google_trace *g);

/* google_read: add one table file (plain or gzip), job_events or
 * task_events as told by the field count of its first line (8 or 13).  Job
 * files must come in time order (part 1 before part 2) and before the task
 * files; task files are an error unless tasks is set.  Returns 0, or
 * SLK_EDATA/SLK_EIO after "tool: FILE:LINE: message". */
int google_read(google_trace *g, rawin *in, int tasks);

/* google_write_runs: job,instance,submit,start,end,status sorted by job,
 * submit, instance.  google_write_usage: job,run,t,containers[,cores,mem_mb]
 * sorted by job, run start, run, t. */
void google_write_runs(google_trace *g, csvw *w);
void google_write_usage(google_trace *g, csvw *w);

/* google_stats: the counts so far. */
const struct google_stats *google_stats(const google_trace *g);

#endif
