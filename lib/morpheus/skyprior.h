/* skyprior — last night's skylines as priors for skyfit's fit (skyline.h,
 * "A prior"): a skyline file in skyfit's own format
 *   job,step,offset,alloc[,cores,mem_mb][,gang]
 * read by stages_read (same rules, same messages), each job's allocation
 * kept step by step, looked up by job name.
 *
 * Step k of a job's prior is its row at offset k * step (the rows are
 * evenly spaced from offset 0; a skyline that starts elsewhere is an
 * error: it is not skyfit's output).  A job whose prior was written at another step than the fit's
 * has no usable prior (skyprior_get says so): the prior is not resampled,
 * the fit stands on its own.
 *
 * Memory: every job's rows, stages and allocation, about 50 bytes a step
 * (measured: 1,000 jobs of 1,440 steps, 68 MB).
 *
 * Errors: "tool: FILE:LINE: why" (stages.h) and an exit status (diag.h).
 * Threads: a loaded table is read-only and may be shared between threads.
 */
#ifndef SLOKIT_SKYPRIOR_H
#define SLOKIT_SKYPRIOR_H

#include "base/csvio.h"

#include <stddef.h>

typedef struct skyprior skyprior;

/* skyprior_load: read the skyline file at path ("-": stdin) with dialect d
 * (NULL: plain CSV).  Returns SLK_OK with *out the table, or the status of
 * the error it printed with *out NULL. */
int skyprior_load(const char *path, const struct csv_dialect *d, skyprior **out);

/* skyprior_get: the prior of `job` at step `step` seconds: *p (owned by t,
 * read-only) and *k its steps.  Returns 1, 0 when t has no such job (t may
 * be NULL), or -1 when t's skyline of the job has another step (*p NULL,
 * *k 0; *their_step that step, when their_step is not NULL). */
int skyprior_get(const skyprior *t, const char *job, double step, const double **p, int *k,
                 double *their_step);

/* skyprior_jobs: jobs in t. */
size_t skyprior_jobs(const skyprior *t);

/* skyprior_free: free t (NULL is fine). */
void skyprior_free(skyprior *t);

#endif
