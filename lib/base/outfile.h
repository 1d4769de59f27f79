/* outfile — outputs that are either complete or not there at all.
 *
 * outf_open("plan.csv") writes into a temporary file in the same directory
 * (".plan.csv.slokit.XXXXXX"); outf_commit flushes, fsyncs and renames it over
 * plan.csv, so the old plan stays intact until the new one is complete.
 * outf_abort (and SIGINT/SIGTERM/SIGHUP/SIGABRT, and exit without commit) removes the
 * temporary file; one that a SIGKILL left is removed by the next outf_open
 * in that directory (unlocked and over a minute old).  A NULL or "-" path
 * means stdout, written directly.
 *
 * outf_open_held is the same for a regular file; for stdout (and a device,
 * FIFO or /dev/stdout, which cannot be replaced) it spools the output into a
 * temporary file in $TMPDIR (default /tmp), unlinked as soon as it is made
 * (so no signal, crash or SIGKILL can leave it behind), and copies it to the
 * real output at outf_commit; outf_abort discards it.  So stdout gets nothing
 * unless the run succeeded: the mode of the per-key tools (skyfit, peakgate,
 * stretch, sloinfer, tenantclass --features-only), whose rows for a key could
 * be contradicted by a later grouping or ordering error.  Memory stays
 * constant; temporary space is the size of the output.  No opt-out (a
 * --stream): -o FILE already has the same all-or-nothing rule, the consumers
 * of these tools (lcmpack, replay, skyplot) read their whole input anyway,
 * and a caller who wants rows early can split the input by key (keyshard) and
 * run one part at a time.
 *
 * Ownership: the outf owns its FILE*; never fclose it yourself.
 *
 * Threads: open, commit and abort outputs (and sweep) from the main thread only (a
 * process-wide table of temporary names serves the signal handlers); a
 * committed-to-be outf's FILE* may be written by one thread at a time.
 */
#ifndef SLOKIT_OUTFILE_H
#define SLOKIT_OUTFILE_H

#include <stdio.h>

typedef struct outf outf;

/* outf_is_special: 1 when path names something outfile writes in place
 * instead of replacing it (anything under /dev/ or /proc/), else 0. */
int outf_is_special(const char *path);

/* outf_is_stdout: 1 when path is "-", or a path under /dev/ or /proc/ that
 * names the regular file, pipe or socket standard output writes
 * (/dev/stdout, /dev/fd/1, /proc/self/fd/1 with stdout redirected):
 * outf_open writes it through stdout, as "-", not through a second open
 * that would truncate what stdout wrote or be overwritten by it; else 0
 * (a terminal or /dev/null loses nothing to a second open). */
int outf_is_stdout(const char *path);

/* outf_stdout_count: how many of paths[0..n) outf_is_stdout (NULL: not
 * given; a main output given by default is passed as "-").  A tool whose
 * outputs must not share standard output refuses more than one. */
int outf_stdout_count(const char *const *paths, size_t n);
/* outf_open: open an output.  A file it will replace lends the new one its
 * mode, and its owner and group as far as the process may give them (a
 * group it cannot keep is one warning, and an owner it cannot keep drops
 * the set-id bits).  On failure prints "tool: PATH: cannot create: why",
 * sets *status to SLK_ECANTCREAT and returns NULL. */
outf *outf_open(const char *path, int *status);
/* outf_open_held: outf_open, but stdout and in-place outputs are held in an
 * unlinked temporary file in $TMPDIR until outf_commit (above).  When the
 * spool cannot be made prints "tool: cannot hold standard output in DIR:
 * why", sets *status to SLK_ECANTCREAT and returns NULL. */
outf *outf_open_held(const char *path, int *status);
/* OUTF_HELD_HELP: the sentence every tool that opens its output with
 * outf_open_held puts in its --help, so they all say it the same way. */
#define OUTF_HELD_HELP                                                                             \
    "Standard output is held in a temporary file in $TMPDIR (the output's size) until the whole " \
    "input is read: on an error it gets nothing."

/* OUTF_TMP_MARK: the temporaries of slokit's outputs (and skyplot's work
 * directories) are hidden, named ".NAME" MARK plus six characters (mkstemp,
 * mkdtemp). */
#define OUTF_TMP_MARK ".slokit."
/* outf_sweep_stale: remove from dir what runs killed by SIGKILL or a power
 * loss left there: hidden files and flat directories (plain files only)
 * named as OUTF_TMP_MARK says, owned by this user, over a minute old and not locked
 * by any process (the writer holds an flock on its temporary, or on its
 * directory, from its creation until it ends; the age covers the instant
 * between the two).  Says what it removed on stderr unless -q.  Once per
 * directory per process; outf_open calls it on its output's directory. */
void outf_sweep_stale(const char *dir);

/* outf_check_outputs: before any input is read, SLK_OK when each of the n
 * outputs paths[0..n) (NULL: not given; "-", a device or a FIFO: written
 * in place, not checked) can be created and they name n different files;
 * else the message outf_open would print and its status: SLK_ECANTCREAT
 * (no such directory, not a directory, not writable; the output itself a
 * directory) or SLK_EUSAGE (two name one file, however spelled, links
 * followed).  For a run that opens an output only after reading its
 * input: the refusal comes first. */
int outf_check_outputs(const char *const *paths, int n);

/* outf_fp: the stream to write to. */
FILE *outf_fp(outf *o);
/* outf_commit: finish the output (flush, fsync, rename into place; for
 * stdout only flush; a held output is first copied from its spool).  Returns SLK_OK or SLK_EIO/SLK_ECANTCREAT with a message
 * (and the old file untouched).  Frees o. */
int outf_commit(outf *o);
/* outf_ready: the first half of outf_commit, for runs that replace several
 * outputs together: a file's temporary flushed and fsynced (kept open, so
 * still locked against the sweep, until its rename), so that only the
 * rename is left; stdout, a device or a held output flushed.
 * SLK_OK, or SLK_EIO (a file's error said here, as outf_commit says it;
 * a stream's left in its error flag for outf_finish).  o stays open for
 * outf_commit, outf_abort or outf_finish. */
int outf_ready(outf *o);
/* outf_abort: throw the output away (temporary removed, old file untouched;
 * a held stdout gets nothing).  Frees o. NULL is fine. */
void outf_abort(outf *o);
/* outf_finish: commit when status is SLK_OK, else abort; returns the final
 * status.  An abort because the output's own stream failed (a full disk or
 * $TMPDIR) is reported as outf_commit reports it, never silently. */
int outf_finish(outf *o, int status);
/* outf_finish_all: outf_finish for the n outputs of one run (NULL entries
 * skipped), all or none: when status is SLK_OK every one is made ready, and
 * only if all are the files are renamed into place, then standard output,
 * devices and held outputs are written out; otherwise (or when a ready
 * fails) every one is thrown away, each error said once, and no old file is
 * replaced.  A rename failing after another succeeded cannot be undone:
 * the rest are thrown away, and a second line names the files already
 * replaced.  Files are renamed in the order of v.  Returns the final status. */
int outf_finish_all(outf *const *v, int n, int status);

#endif
