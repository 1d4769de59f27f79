/* stages — a job's skyline (skyfit's job,step,offset,alloc[,cores,mem_mb]
 * [,gang] rows) turned into LowCost's stages at the plan step (Morpheus §6:
 * a request is a sequence of stages, each a demand in container-steps with
 * a maximum parallelism).
 *
 * Each skyline row holds its alloc during [offset, offset + step) (the
 * skyline's own step); stage j covers [j S, (j+1) S) of the job's own time
 * (S = the plan step); its demand is the area of the skyline there over S
 * (container-steps, rounded up), its maximum parallelism the highest alloc
 * overlapping it (at least its gang), its gang the largest gang.  Steps with
 * no demand are left out, so the allocation stays contiguous.
 *
 * OWNERSHIP.  stages_read returns jobs it owns (names and stage arrays);
 * free them with stages_jobs_free.  Errors are printed "tool: FILE:LINE: why"
 * and returned as exit statuses (diag.h).
 * Threads: no shared state; distinct calls may run at once.
 */
#ifndef SLOKIT_STAGES_H
#define SLOKIT_STAGES_H

#include "morpheus/lowcost.h"

struct csv_dialect;
#include <stddef.h>
#include <stdint.h>

/* One skyline row of a job. */
struct stages_row {
    double off, alloc;
    int32_t gang;
};

/* One job of the skyline file, with its stages at the plan step. */
struct stages_job {
    char *job;              /* owned */
    long line;              /* its first skyline line */
    double cores, mem_mb;   /* per container */
    double step;            /* the skyline's step, seconds */
    struct lowcost_stage *st;   /* [nst], owned */
    long nst;
    struct stages_row *rows;    /* [nrows] the rows as read (stages_opts.keep_rows), owned; else NULL */
    size_t nrows;
};

/* How to read a skyline file. */
struct stages_opts {
    double cont_cores, cont_mem;    /* container size when there are no cores/mem_mb columns */
    long long max_jobs;             /* refuse more jobs than this */
    const struct csv_dialect *csv;  /* how to read the file (NULL: plain CSV); its rejects
                                     * (--on-error skip) drop a job with a bad row whole */
    int keep_rows;                  /* keep each job's rows too (stages_job.rows) */
};

/* stages_resample: the stages of rows[0..n-1] (offsets evenly spaced by
 * j->step, sorted, n >= 1) at plan step S into j->st / j->nst (allocated).
 * Returns 0, or -1 with the reason written to why (size whyn): offsets not
 * evenly spaced, more than 10,000,000 steps, or a demand too large. */
int stages_resample(struct stages_job *j, const struct stages_row *rows, size_t n, double S, char *why,
                    size_t whyn);

/* stages_keys: the columns looked up by name in a skyline file (stages_read), NULL-terminated: what a tool
 * gives cli_keys as its --col KEYs for that input. */
extern const char *const stages_keys[];

/* stages_read: every job of the skyline file path (NULL or "-": stdin),
 * grouped by job, into *jobs / *njobs (allocated), stages at plan step S
 * (S <= 0: each job at its own step).
 * A row that breaks its job's rules (step, container size, an offset not
 * exactly one step after the previous) is reported at its own line and is
 * a bad row for --on-error skip (the job is dropped whole).
 * Returns SLK_OK or an exit status (message printed; *jobs still holds what
 * was read, free it with stages_jobs_free). */
int stages_read(const char *path, double S, const struct stages_opts *o, struct stages_job **jobs,
                size_t *njobs);

/* stages_jobs_free: free n jobs and the array.  NULL is fine. */
void stages_jobs_free(struct stages_job *jobs, size_t n);

#endif
