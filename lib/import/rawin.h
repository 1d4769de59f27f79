/* rawin — line-by-line reading of raw public trace files.
 *
 * Public traces are not slokit CSV: Google 2011 tables have no header, SWF
 * logs are blank-separated with ';' comment lines, SWIM is TSV without a
 * header.  None of them quotes fields (the Google tables hold numbers and
 * base64 hashes; the Alibaba GPU lists are CSV, read by base/csvio), so a
 * rawin splits each physical line on one delimiter (or on runs of blanks)
 * and counts lines, so every error reads "tool: FILE:LINE: message".  A
 * UTF-8 byte-order mark at the start is dropped, CR before LF too.  Input
 * may be plain, gzip or zstd (told by its first bytes and decompressed as a
 * stream by base/zin); "-" is standard input.
 *
 * Ownership: a rawin owns its buffers; fields returned by rawin_next point
 * into them and are valid until the next call.  Not shared between threads
 * (one reader per thread is fine).
 */
#ifndef SLOKIT_RAWIN_H
#define SLOKIT_RAWIN_H

#include "base/csvio.h"

#include <stdint.h>

typedef struct rawin rawin;

/* RAWIN_BLANKS as the delimiter splits on runs of spaces and tabs and
 * ignores leading and trailing blanks (SWF). */
#define RAWIN_BLANKS 0

/* rawin_open: open path ("-": stdin), plain, gzip or zstd.  On failure prints
 * "tool: PATH: cannot open: why" and returns NULL with *status =
 * SLK_ENOINPUT. */
rawin *rawin_open(const char *path, char delim, int *status);

/* rawin_next: read the next non-empty line and split it.  Returns the field
 * count (> 0) with *fields set (at most max fields are stored; a line with
 * more fields returns max + 1 so the caller can say "too many"), 0 at end of
 * input, -1 on a read error, a truncated or corrupt compressed stream or a
 * NUL byte (message printed; the caller's status is rawin_status).  A
 * trailing CR is removed. */
int rawin_next(rawin *in, char **fields, int max);

/* rawin_count: the field count n that rawin_next(..., max) returned, as a
 * message says it: "7", or "more than 13" for max + 1; in buf, returned. */
const char *rawin_count(int n, int max, char *buf, size_t len);

/* rawin_status: the exit status for the read that made rawin_next return
 * -1: SLK_EDATA for a corrupt or truncated gzip/zstd stream or a NUL byte
 * (as the CSV tools say), SLK_EIO for a read error. */
int rawin_status(const rawin *in);
/* rawin_line: the current line number (1-based); rawin_path: the name used
 * in messages ("<stdin>" for "-"). */
long rawin_line(const rawin *in);
const char *rawin_path(const rawin *in);
/* rawin_text: the whole current line before splitting (for SWF comments). */
const char *rawin_text(const rawin *in);

/* rawin_set_rejects: --on-error skip (j non-NULL, not owned): from now on a
 * row error (rawin_fail and the conversions below) is held, not printed,
 * until the caller decides: rawin_skip writes it to j and the caller goes
 * on with the next line; an error no caller skips (a bad header) is printed
 * at rawin_close, so a reader that cannot skip stops as in strict mode.
 * File errors (rawin_fail_file) and read errors are never held. */
void rawin_set_rejects(rawin *in, csv_rejects *j);
/* rawin_skip: after a row error: 1 when it was held and is now in the
 * rejects (skip the line: `if (rawin_skip(in)) continue;`), 0 when there is
 * none to skip (strict mode: the message is out, return the error). */
int rawin_skip(rawin *in);

/* rawin_fail: print "tool: FILE:LINE: message" (LINE 1 before any line was
 * read: "empty.csv:1: empty input"), returns SLK_EDATA.
 * rawin_fail_file: the same for a problem of the whole file ("tool: FILE:
 * message": no MaxProcs in an SWF header, no jobs at all). */
int rawin_fail(rawin *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int rawin_fail_file(rawin *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Strict field conversions: return 0 and set *out, or print
 * "tool: FILE:LINE: field N (what): invalid number 'x'" and return SLK_EDATA.
 * An empty field is invalid unless the caller checks for it first. */
int rawin_int64(rawin *in, const char *s, int field, const char *what, int64_t *out);
int rawin_double(rawin *in, const char *s, int field, const char *what, double *out);
/* rawin_time: 0 when the time t written for field N (text s) is within
 * CSVR_MAX_TIME of 1970, as every reader of the output wants; else
 * "field N (what): 's' is at T s, beyond 1e11 s ..." and SLK_EDATA. */
int rawin_time(rawin *in, double t, const char *s, int field, const char *what);

/* rawin_close: close and free; NULL is fine. */
void rawin_close(rawin *in);

#endif
