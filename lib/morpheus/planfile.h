/* planfile — the plan's file format (slokit-plan/1): reading, writing,
 * appending a segment in place, and the CRC-32 the rows carry.  The model
 * (struct plan, reservations, load) is morpheus/plan.h, which includes this
 * header, so a caller of plan.h sees both.
 *
 * FILE FORMAT (version "slokit-plan/1").  Pure CSV with this header, one row
 * per allocated step of each instance:
 *   plan,job,kind,instance,cycle,t,step,lcm,stage,gang,containers,cores,mem_mb,period,a,d,problematic,crc
 *   plan        the literal "slokit-plan/1" on every row (format and version)
 *   job         job name
 *   kind        "periodic" or "once" ("end" on the trailer row, see below)
 *   instance    periodic: 0 .. lcm/period-1; once: the epoch instance number n
 *   cycle       once: the cycle c of this row (absolute time = c*lcm + t);
 *               periodic: empty (the row repeats in every cycle)
 *   t           offset in seconds from the cycle start, 0 <= t < lcm, a multiple of step
 *   step, lcm   the plan geometry, seconds (the same on every row)
 *   stage       skyline stage (1-based) this step allocates (non-decreasing in time)
 *   gang        minimum parallelism of the stage: containers is a multiple of gang
 *   containers  containers allocated during [t, t+step)  (>= 1)
 *   cores, mem_mb  per container
 *   period, a, d   the request window (seconds; a, d offsets within the period)
 *   problematic 0 or 1 (the alignment penalty applied when placing)
 *   crc         CRC-32 (IEEE, 8 lowercase hex digits) of the row's other 17
 *               field values joined by ',' (unquoted, as read)
 * Rows of a reservation are consecutive, by instance then time.
 *
 * SEGMENTS.  After the header, a plan is one or more segments, each = data
 * rows followed by a trailer row: kind "end", instance = the number of data
 * rows in the file SO FAR, step and lcm set, crc = CRC-32 of the
 * concatenated crc fields of all data rows so far (a chain over the whole
 * file, not the segment), the other fields empty.  A plan written in one go
 * is one segment (the single trailer of every plan before segments existed);
 * lcmpack adds jobs to a plan file in place by appending one segment (its
 * rows and a cumulative trailer) after the last trailer.  A reservation
 * never spans a trailer.  Every trailer must match the rows before it.
 *   Which segment a reservation goes to: plan_read records the segment each
 *   reservation came from (plan_res.seg) and the number of segments
 *   (plan.nseg); reservations added afterwards get seg = nseg, a new
 *   segment.  plan_write writes segments 0, 1, ... in order, each followed
 *   by its trailer (an empty segment is a trailer alone).  When any
 *   reservation was removed (plan_remove_job, or `removed` set by hand) it
 *   compacts instead: every live reservation, in plan order, in one segment.
 *   So the bytes written depend only on the file read and the changes made,
 *   and appending a segment in place (plan_append) gives the very bytes
 *   plan_write gives.
 *   Interrupted append: the file must end with a trailer, except that bytes
 *   after the last complete trailer row ('\n'-terminated) which hold no
 *   complete trailer row are the torn tail of an append that did not finish:
 *   plan_read warns once ("tool: FILE:LINE: warning: ignoring an incomplete
 *   append after the trailer at line N", silent with -q) and returns the
 *   plan as of that trailer.  A tail that does hold a complete trailer row is
 *   not a torn append (an append writes its trailer last): it is read and
 *   checked like the rest.  A torn tail is recognised in regular files only
 *   (read from a pipe, it is refused as a truncated plan), and a file with no
 *   valid trailer at all is refused as truncated, as before.
 *
 * Any CSV tool reads the plan; filter kind != "end".
 * Reading refuses (exit 65, "tool: FILE:LINE: ...") a wrong header or
 * version, a bad crc, a missing/short trailer (truncation), a trailer that
 * does not match the rows before it, a row out of place, a non-contiguous
 * reservation, instances that differ, and values out of range.  Edited plans
 * are refused: regenerate them with lcmpack.
 *
 * Threads: plan_read and plan_write may run on different plans at once (the
 * reader passes its own plain CSV dialect; nothing global is touched).
 * plan_crc32 builds its table on the first call (call it once before
 * starting threads).
 */
#ifndef SLOKIT_PLANFILE_H
#define SLOKIT_PLANFILE_H

#include "base/outfile.h"

#include <stdint.h>
#include <stdio.h>

#define PLAN_FORMAT "slokit-plan/1"

struct plan;

/* Where a plan file ends: what appending one more segment needs. */
struct plan_mark {
    int64_t size;           /* bytes up to and including the last trailer row */
    long nrows;             /* data rows in the file (the last trailer's instance) */
    uint32_t chain;         /* CRC chain over their crc fields (the last trailer's crc) */
    long nseg;              /* segments (trailer rows) */
    char trailer[160];      /* the last trailer row's text, '\n' included */
};

/* plan_read: read a plan file written by plan_write (path "-" = stdin) into a
 * new plan, validating everything listed under FILE FORMAT.  The geometry
 * comes from the file; nseg and each reservation's seg from its segments.
 * Returns SLK_OK with *out set, or prints "tool: FILE:LINE: why" and returns
 * SLK_EDATA (SLK_ENOINPUT, SLK_EIO).  A torn tail (SEGMENTS) is ignored with
 * a warning.  A file with only the header and trailer is a valid empty plan.
 * The capacity is left infinite: set it after reading. */
int plan_read(const char *path, struct plan **out);

/* plan_write: write the plan (header, segments, a trailer after each) to fp
 * in the FILE FORMAT (always ','-separated, whatever --tsv says: it is a
 * machine format).  Removed reservations are skipped, and compact the plan
 * into one segment (see SEGMENTS).  When mark is not NULL it receives where
 * the written file ends.  Returns SLK_OK or SLK_EIO (nothing printed). */
int plan_write(const struct plan *p, FILE *fp, struct plan_mark *mark);
/* plan_save: plan_write into path atomically (outfile: the old file stays
 * intact on any error); NULL or "-" is stdout.  mark as for plan_write (may
 * be NULL).  Returns an exit status (message printed once). */
int plan_save(const struct plan *p, const char *path, struct plan_mark *mark);
/* plan_save_open: plan_save without the commit, for a run that replaces
 * several outputs together: the plan written into *out, left for the
 * caller's outf_finish or outf_finish_all.  On an error, the message
 * printed, *out NULL and the old file untouched. */
int plan_save_open(const struct plan *p, const char *path, struct plan_mark *mark, outf **out);
/* plan_side_path: PATH followed by suffix (".lock", ".idx"), beside the
 * file path names: for a symbolic link, beside its target (its real path),
 * so that every name of one plan has one lock and one index (the nightly
 * state's plan.csv is a link into the current generation).  When the name
 * and this suffix would pass NAME_MAX (a plan name of 251-255 bytes), the
 * side file is the name's first 200 bytes, '.', 16 hex digits of the whole
 * name's FNV-1a hash and the suffix: every run finds the same one;
 * malloc'd. */
char *plan_side_path(const char *path, const char *suffix);
/* plan_lock: hold PATH.lock (created beside a regular plan file, a link's
 * beside its target: plan_side_path) with an exclusive flock until the
 * process ends, so that lcmpack runs that read and write one plan go one
 * after another: two at once lost an in-place append, or cut a rewritten
 * plan back and appended after NUL bytes, with an index vouching for it.
 * Waits, saying so on stderr unless quiet; when path leads to another file
 * once the lock is held (a link switched meanwhile: the nightly job
 * published), that file's lock is taken instead.  Nothing for stdin,
 * devices, or where the lock cannot be made (a read-only directory: said
 * once, the run goes on unlocked).  Returns the lock's fd, or -1. */
int plan_lock(const char *path, int quiet);
/* plan_append: add p's reservations of segment at->nseg (those added since
 * the file was read, or since the index described it) to the plan file
 * `path` in place, as one new segment: the file is cut back to at->size
 * (dropping a torn tail), the rows and a cumulative trailer are written after
 * it and fsynced.  The bytes are those plan_write would give.  The caller
 * makes sure the file is the one `at` describes (planidx stamps) and that no
 * reservation was removed (that needs a compacting rewrite: plan_save).
 * Reservations of other segments are ignored.  On success fills *out (may be
 * `at` itself) and returns SLK_OK; on any error the file is cut back to
 * at->size, the message is "tool: PATH: write error: why (plan left as it
 * was)" and the status SLK_EIO (SLK_ENOINPUT when it cannot be opened). */
int plan_append(const struct plan *p, const char *path, const struct plan_mark *at, struct plan_mark *out);

/* plan_crc32: CRC-32 (IEEE 802.3) of n bytes, continuing from crc (start 0). */
uint32_t plan_crc32(uint32_t crc, const void *buf, size_t n);

#endif
