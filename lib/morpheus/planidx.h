/* planidx — the index sidecar PLAN.idx: what lcmpack needs of a plan file
 * without reading its rows.
 *
 * A plan of 10,000 jobs is about 1.5 M rows (140 MB); reading and checking
 * them takes most of a second, while adding one job needs only the folded
 * load profile, where the file ends, and a few numbers per reservation (to
 * tell kept requests, expired reservations and the lower bound).  lcmpack
 * writes that summary next to every plan file it writes (PLAN.idx for PLAN)
 * and, when it finds one that still describes the plan, places new jobs from
 * it and appends them to the plan in place (plan_append).
 *
 * STAMP.  The index describes one state of one file: its st_dev, st_ino,
 * st_size, st_mtim (seconds and nanoseconds) and the bytes of its last
 * trailer row.  planidx_load checks them against the file as it is now; any
 * difference (the plan rewritten, edited, touched, copied over, appended to
 * by a run that did not finish) makes the index stale, and a stale, missing,
 * unreadable, short, corrupt or other-version index is ignored silently: the
 * caller reads the plan itself and writes a new index.
 *
 * FILE FORMAT (binary, native byte order; version 2; a version-1 index, whose
 * once reservations could be counted from their window's cycle, is ignored).
 *   char[8]  magic "slkpidx\0";  u32 version (2);  u32 0x01020304 (byte order)
 *   stamp    u64 dev, u64 ino, i64 size, i64 mtime_sec, i64 mtime_nsec,
 *            u32 n, n bytes: the last trailer row ('\n' included)
 *   geometry i64 step, i64 lcm
 *   mark     i64 nrows, u32 chain, i64 nseg (see struct plan_mark)
 *   load     f64 load_cores[lcm/step], f64 load_mem[lcm/step] (the exact
 *            doubles plan_read would sum, in file order)
 *   i64 nres, then per reservation in file order:
 *            u32 n, n bytes job and a NUL; u8 kind (0 periodic, 1 once); u8 problematic;
 *            i64 instance, cycle, start, len; f64 period, a, d, cores, mem_mb;
 *            i32 maxc (the most containers of one step); i64 csteps (the
 *            container-steps of one instance)
 *   u32      CRC-32 (plan_crc32) of every byte before it
 * About 100 bytes per reservation plus 16 per plan step.
 *
 * OWNERSHIP.  A planidx owns its arrays and job strings; planidx_free frees
 * them.  planidx_plan returns a new plan the caller owns.  Loading never
 * prints; saving prints its errors and returns an exit status (diag.h).
 *
 * Threads: no shared state; an index is loaded or written by one thread at
 * a time.
 */
#ifndef SLOKIT_PLANIDX_H
#define SLOKIT_PLANIDX_H

#include "morpheus/plan.h"
#include <stdint.h>

/* One reservation, summarised. */
struct planidx_res {
    const char *job;        /* points into the index */
    enum plan_kind kind;
    int problematic;
    int64_t instance, cycle;
    long start, len;
    double period, a, d, cores, mem_mb;
    int32_t maxc;           /* the largest containers[j] */
    int64_t csteps;         /* sum of containers[j]: container-steps of one instance */
};

typedef struct planidx {
    long step, lcm, nsteps;
    struct plan_mark mark;  /* where the plan file ends */
    double *load_cores, *load_mem;   /* [nsteps] */
    struct planidx_res *res;
    size_t nres;
    char *data;             /* the index file's bytes (the job strings live here) */
} planidx;

/* planidx_path: the index file of plan_path ("PLAN.idx", beside a link's
 * target: plan_side_path), malloc'd. */
char *planidx_path(const char *plan_path);

/* planidx_load: the index of plan_path, or NULL (silently) when there is
 * none or it cannot be used: unreadable, wrong magic/version/byte order,
 * short, bad CRC, inconsistent, or its stamp does not match plan_path as it
 * is now (STAMP).  plan_path must be a regular file. */
planidx *planidx_load(const char *plan_path);

/* planidx_free: free the index.  NULL is fine. */
void planidx_free(planidx *x);

/* planidx_plan: a new plan with the index's geometry, folded load profile
 * and nseg, and no reservations: new ones added with plan_add go to the next
 * segment, and plan_append writes them.  Capacity infinite, as plan_new. */
plan *planidx_plan(const planidx *x);

/* planidx_summary: the summary of reservation r of plan p. */
void planidx_summary(const plan *p, const struct plan_res *r, struct planidx_res *out);

/* planidx_save: write the index of the plan file plan_path, which was just
 * written (plan_save, plan_append) and ends at *mark: the reservations of
 * `old` (may be NULL) followed by the live reservations of p, and p's load
 * profile (which must be the load of all of them, in that order).  Written
 * atomically (outfile).  Does nothing (SLK_OK) when plan_path is NULL, "-",
 * under /dev or /proc, not a regular file, or no longer ends at *mark
 * (another writer: no index is better than a wrong one).  Returns an exit
 * status, with a message on errors. */
int planidx_save(const planidx *old, const plan *p, const char *plan_path, const struct plan_mark *mark);

#endif
