/* zin — an input byte stream that is decompressed on the fly when it is
 * gzip or zstd.
 *
 * The kind is told from the first bytes, never from the file name: gzip
 * (1f 8b), zstd (28 b5 2f fd), anything else is read as it is.  Reading
 * streams: memory is one input buffer and the decompressor's window, the
 * same for a 1 KB file and a 100 GB one.  Concatenated gzip members and
 * zstd frames (what `cat a.gz b.gz` and pzstd make) read as one stream.
 *
 * Errors.  A corrupt or truncated compressed stream is an error, never
 * garbage: zin_read returns -1, zin_error() says why in one lowercase line
 * ("truncated gzip input (unexpected end of compressed data)", "corrupt
 * zstd input: ...") and zin_status() gives the exit status (SLK_EDATA for
 * bad data, SLK_EIO for a failed read).  The caller prints the message with
 * its own FILE:LINE prefix.  The bytes the failing read decoded are dropped
 * (a partial last line would read as a short record, not as the damage);
 * zin_lost_lines() counts their newlines, so the caller's LINE can be the
 * line where the damage is.
 *
 * Ownership: zin does not own or close the FILE* it reads.
 * Threads: one zin belongs to one thread; distinct zins are independent.
 */
#ifndef SLOKIT_ZIN_H
#define SLOKIT_ZIN_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

typedef struct zin zin;

enum zin_kind { ZIN_PLAIN, ZIN_GZIP, ZIN_ZSTD };

/* zin_open: a stream over fp.  With partial set, zin_read returns as soon as
 * some bytes have arrived (read(2) on fp's descriptor, for live pipes);
 * otherwise it fills the caller's buffer unless input ends.  The first bytes
 * are read at once to tell the kind: a read error there is reported by the
 * first zin_read. */
zin *zin_open(FILE *fp, int partial);
/* zin_close: free the stream (fp stays open).  NULL is fine. */
void zin_close(zin *z);

/* zin_read: up to cap decompressed bytes into buf.  Returns the count (0 only
 * at the end of input), or -1 on error (see zin_error / zin_status). */
ssize_t zin_read(zin *z, char *buf, size_t cap);

/* zin_kind: what the input turned out to be. */
enum zin_kind zin_kind(const zin *z);
/* zin_kind_name: "plain", "gzip" or "zstd". */
const char *zin_kind_name(enum zin_kind k);

/* zin_sniff: the kind of the bytes at the start of a file, without keeping
 * anything open: ZIN_PLAIN also when the file is empty; -1 when it cannot be
 * opened or read.  For readers that want byte ranges of a file (threads over
 * parts of one file): only a ZIN_PLAIN regular file may be read by ranges; a
 * compressed one has to be read as one stream. */
int zin_sniff(const char *path);

/* zin_fraction: how much of a regular file has been read, 0 to 1 (of the
 * compressed bytes when it is compressed; a file that grew since the open
 * stays at 1); -1 when the end is unknown (a pipe, a terminal, a stream
 * without a descriptor).  For progress lines only. */
double zin_fraction(const zin *z);

/* zin_error: why the last zin_read failed (a static message in z). */
const char *zin_error(const zin *z);
/* zin_status: SLK_EDATA or SLK_EIO after a failed zin_read, else SLK_OK. */
int zin_status(const zin *z);
/* zin_lost_lines: the newlines in the bytes the failed zin_read decoded and
 * dropped (0 before a failure): the caller's line count plus this is the
 * line the damage is on. */
long zin_lost_lines(const zin *z);

#endif
