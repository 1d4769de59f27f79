/* gpupods — the Alibaba GPU cluster trace v2023 ("openb": Weng et al.,
 * "Beware of Fragmentation", USENIX ATC 2023) read into stretch(1) jobs, with
 * the VCs' capacities taken from the trace's node list.
 *
 * Pod list columns (by header name): name, cpu_milli, memory_mib, num_gpu,
 * gpu_milli (thousandths of one GPU), gpu_spec, qos, pod_phase,
 * creation_time, deletion_time, scheduled_time (seconds from the trace
 * start).  Node list: sn, cpu_milli, memory_mib, gpu, model.
 *
 * Mapping, with the resource unit GPUS (or CPUS: cores):
 *   job = name; vc = qos (LS, BE, Burstable, Guaranteed) or, with
 *   GPUPODS_VC_SPEC, gpu_spec ("any" when empty);
 *   submit = epoch + creation_time;
 *   demand = num_gpu x gpu_milli / 1000 GPUs (cpu_milli / 1000 cores);
 *   size_server_hours = demand x (deletion_time - scheduled_time) / 3600;
 *   max_parallelism = demand (a pod is rigid).
 * Pods never scheduled (Pending), with no demand of the unit, or deleted no
 * later than scheduled are skipped and counted.  The cluster size is the
 * node list's total of the unit (sum of gpu, or of cpu_milli / 1000).
 *
 * Both lists are CSV files (as pandas and the trace's own tools write them:
 * quoted fields, a comma inside quotes, CRLF) and are read with base/csvio's
 * reader; errors read "tool: FILE:LINE: message" as in every CSV tool.
 *
 * Not shared between threads.
 */
#ifndef SLOKIT_GPUPODS_H
#define SLOKIT_GPUPODS_H

#include "base/csvio.h"
#include "import/vcjobs.h"

enum gpupods_unit { GPUPODS_GPU, GPUPODS_CPU };
enum gpupods_vc_by { GPUPODS_VC_QOS, GPUPODS_VC_SPEC };

struct gpupods_stats {
    long pods, jobs;
    long unscheduled, no_demand, no_duration;
};

/* gpupods_read_nodes: the node list at path, read with dialect d (the
 * trace's plain CSV; its rejects, if any, take the bad rows), its total of
 * the unit (GPUs, or cores) into *total.  Returns 0, or SLK_ENOINPUT,
 * SLK_EDATA or SLK_EIO after "tool: FILE:LINE: message". */
int gpupods_read_nodes(const char *path, const struct csv_dialect *d, enum gpupods_unit unit, double *total);

/* gpupods_read: read the pod list at path (dialect d, as above) into t (see
 * the mapping above).  Returns 0, or SLK_ENOINPUT, SLK_EDATA or SLK_EIO
 * after a message naming the file and line. */
int gpupods_read(const char *path, const struct csv_dialect *d, enum gpupods_unit unit, enum gpupods_vc_by by,
                 double epoch, struct vcjobs *t, struct gpupods_stats *st);

#endif
