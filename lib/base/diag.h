/* diag — exit codes, error messages, memory helpers and progress for every tool.
 *
 * Every slokit tool reports problems the same way:
 *     tool: message                 (usage and environment problems)
 *     tool: FILE:LINE: message      (a problem in the input data)
 * Messages are lowercase, quote the bad value with '...', and fit on one line.
 * Exit codes follow sysexits.h and are listed under EXIT STATUS in every man page.
 *
 * Ownership: functions here own nothing the caller passes; x*alloc results
 * belong to the caller.  On allocation failure they print "out of memory" and
 * exit with SLK_ESOFTWARE: no tool can do anything sensible without memory.
 *
 * Threads: slk_init, the quiet/progress policy and slk_at_finish are set up
 * by main before any thread starts.  slk_error, slk_error_at and slk_warn_at may be called
 * from any thread (each message is built whole and written with one fputs);
 * slk_progress and slk_finish belong to the main thread.  x*alloc are as
 * thread-safe as malloc.
 */
#ifndef SLOKIT_DIAG_H
#define SLOKIT_DIAG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One enum of exit statuses for all tools (sysexits.h values). */
enum slk_exit {
    SLK_OK = 0,         /* success */
    SLK_FAIL = 1,       /* the tool ran, but a check the user asked for failed (e.g. --strict) */
    SLK_EUSAGE = 64,    /* bad command line (argp's default) */
    SLK_EDATA = 65,     /* bad input data */
    SLK_ENOINPUT = 66,  /* an input file cannot be opened */
    SLK_ESOFTWARE = 70, /* internal error, solver failure, out of memory */
    SLK_ECANTCREAT = 73,/* an output file cannot be created */
    SLK_EIO = 74        /* read or write error (full disk, I/O error) */
};

/* The tool's name as printed in messages ("skyfit"); set by slk_init. */
extern const char *slk_progname;

/* slk_init: first call of every main.  Sets the program name, the locale
 * (LC_ALL from the environment, but LC_NUMERIC stays "C" so numbers are
 * locale-independent, and LC_CTYPE is "C.UTF-8" so case and character
 * classes are ASCII: tr_TR's tolower('I') is not 'i'), argp's version/bug address and exit code, and a large
 * stdout buffer.  A closed standard descriptor (tool 2>&-) is held by
 * /dev/null opened so that using it fails with EBADF as before, and no file
 * the tool opens can take its number (the output's temporary would take the
 * summary on fd 2).  Fails only if /dev/null cannot be opened for a closed
 * descriptor: then it exits 74. */
void slk_init(const char *progname);

/* slk_error: print "tool: message\n" to stderr. */
void slk_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* slk_note: print "tool: message\n" for a note that names data (a job not
 * fitted or not placed); the caller decides about -q.  Every message of
 * these functions is one line with no terminal controls: newlines in it
 * fold to spaces, other control bytes are written \xHH. */
void slk_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* slk_error_at: print "tool: FILE:LINE: message\n"; line <= 0 prints "tool: FILE: message". */
void slk_error_at(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* slk_at_finish: have slk_finish call fn(status) and use what it returns as
 * the status (for outputs that belong to the whole run, such as the rejects
 * of --on-error skip).  At most 4 functions, called in the order added. */
void slk_at_finish(int (*fn)(int status));

/* slk_quiet: whether the user asked for no summaries or warnings (-q).  The
 * message policy (-q, --progress) is process-wide, like the program name,
 * so diag reads it from cli; library modules ask here, never slk_opt. */
int slk_quiet(void);

/* slk_warn_at: like slk_error_at with "warning: " before the message; silent with -q. */
void slk_warn_at(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* One kind of warning or note that may come once per row or per key (a
 * skipped row or tenant, a job not fitted or not placed): a million of them
 * would bury the summary and slow the run.  slk_warn_many prints the first SLK_MANY_SHOWN of its kind as
 * slk_warn_at does (or m->limit of them) and only counts the rest; the caller's summary says
 * how many were not shown (slk_many_hidden) and where they all are.
 * Zero-initialize; any thread may call it. */
#define SLK_MANY_SHOWN 10 /* --rejects's help and slokit(7) say 10 */
struct slk_many {
    long n;    /* warnings of the kind so far, shown or not */
    int limit; /* how many to print; 0: SLK_MANY_SHOWN */
};
/* slk_many_shown: how many of m's kind are printed (its limit). */
int slk_many_shown(const struct slk_many *m);
void slk_warn_many(struct slk_many *m, const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* slk_note_many: slk_note, capped as slk_warn_many (a job not fitted, a
 * request not placed); silent with -q. */
void slk_note_many(struct slk_many *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* slk_many_hold: count one of m's kind as slk_note_many does, but return
 * the note (malloc'd) instead of printing it when it is one of those
 * shown, else NULL: for a note that is only true once the whole input is
 * read (the caller prints it then with slk_note("%s", s), or drops it, and
 * frees it). */
char *slk_many_hold(struct slk_many *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* slk_many_hidden: how many of m's warnings were not printed (0 with -q:
 * none was meant to be). */
long slk_many_hidden(const struct slk_many *m);

/* slk_finish: last call of every main.  Flushes and closes stdout; a write
 * error there (full disk) becomes SLK_EIO with a message (slk_stdout_error,
 * so not a second one).  Then writes the held summary (slk_summary) to
 * stderr if the final status is SLK_OK or SLK_FAIL (the run went through; a
 * check such as --strict failed), else drops it.  Returns the exit status to
 * use: `status` unless closing stdout failed. */
int slk_finish(int status);

/* slk_summary: the stream a tool writes its summary to (what the run read,
 * decided and wrote: "tool: 60 jobs: 58 fitted ...").  It is held in memory
 * and slk_finish writes it to stderr after the outputs are complete, and only
 * if the run went through: a run never summarizes output it did not write (a
 * full disk at the last write leaves one error line).  Warnings and notes
 * about the input are not summary: they go out at once (a warning about the
 * summary's own numbers goes with it).  The caller decides about -q.  One
 * exception: reprov's live policies print theirs directly, since their
 * decisions went out as they were made.  Main thread only. */
FILE *slk_summary(void);

/* slk_stdout_error: report "write error on standard output: <strerror(err)>"
 * the first time it is called in the process (later calls, and EPIPE: the
 * reader went away, say nothing).  Main thread only. */
void slk_stdout_error(int err);

/* Allocation that never returns NULL (see the header comment). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
/* xaligned: n bytes aligned to `align` (a power of two, a multiple of
 * sizeof(void *)), for SIMD buffers; release with free(). */
void *xaligned(size_t align, size_t n);

/* Growable array helper: make *cap at least `need` elements of `size` bytes,
 * doubling; returns the (possibly moved) array. */
void *xgrow(void *p, size_t *cap, size_t need, size_t size);

/* slk_progress: report progress on stderr ("tool: what: 1234 of 5000 (24%)")
 * at most a few times a second, and only when progress is on (--progress, or
 * stderr is a terminal and not -q).  total == 0 means unknown.  slk_progress_done
 * clears the line.  Cheap enough to call per record. */
void slk_progress(const char *what, uint64_t done, uint64_t total);
/* slk_progress_read: the same for a reader whose total is the input file:
 * "tool: rows: 438272 (12% of the input)", the share from csvr_fraction or
 * zin_fraction (bytes of the file read so far); a negative fraction (a
 * pipe) prints the count alone, as slk_progress with total 0.  Call it
 * under slk_progress_due(done), so the share is worked out only then:
 *     if (slk_progress_due(n)) slk_progress_read("rows", n, csvr_fraction(r)); */
void slk_progress_read(const char *what, uint64_t done, double fraction);
/* slk_progress_due: 1 when progress is on and done is a count at which a
 * progress call may draw (every 1,024th), else 0.  As cheap as slk_progress. */
int slk_progress_due(uint64_t done);
void slk_progress_done(void);

/* slk_now: monotonic wall-clock seconds, for timings in summaries and benches. */
double slk_now(void);

#endif
