/* csvio — streaming CSV/TSV reading and writing over libcsv.
 *
 * Dialect.  How an input is read and an output written (delimiter, header,
 * names for header-less input, column renames, output precision) is a
 * struct csv_dialect value passed to csvr_open_with / csvw_new_with.  The
 * library never reads the command line: a tool gets the value the user's
 * options describe from cli_dialect(ROLE) (base/cli.h), and a module that
 * reads its own file format passes csv_dialect_plain.
 *
 * Reading.  A csvr reads one input (a file or stdin) record by record.  The
 * first record is the header unless the dialect says no_header; columns are
 * looked up by name, after the dialect's renames.  Fields are
 * NUL-terminated strings owned by the reader and valid until the next
 * csvr_next; an empty field is "missing" and reads as NULL.  A UTF-8 BOM,
 * CRLF line ends and quoted fields (with embedded delimiters, quotes and
 * newlines) are handled.  libcsv does not count lines: the reader does, so
 * every error names the physical line where the record starts.
 *
 * Errors.  Functions that find bad data print "tool: FILE:LINE: message",
 * set the reader's status (csvr_status: SLK_EDATA or SLK_EIO) and return -1;
 * after an error the reader returns no more records.
 *
 * Writing.  A csvw writes records to a FILE* with minimal quoting (only
 * fields holding the delimiter, a quote, CR or LF are quoted),
 * locale-independent numbers, and either the shortest text that reads back
 * as the same double or a fixed number of decimals (--precision).  NaN and
 * infinities are written as an empty (missing) field, never as "nan".
 *
 * Threads: a csvr or csvw belongs to one thread at a time; distinct readers
 * and writers may be used by different threads at once (messages go through
 * diag, one line per fprintf).  csv_dialect_plain is read-only.
 */
#ifndef SLOKIT_CSVIO_H
#define SLOKIT_CSVIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct csvr csvr;
typedef struct csvw csvw;
typedef struct csv_rejects csv_rejects;

/* ---- dialect ---------------------------------------------------------------- */

/* One column rename: the column a tool calls `key` is read from the input
 * column `name`.  role NULL: the rename applies to a tool's primary input;
 * otherwise only to the input read with that role (see csv_dialect.role). */
struct csv_rename {
    const char *role;
    const char *key;
    const char *name;
};

/* struct csv_dialect: a plain value; the reader and writer copy it at open.
 * Strings and the rename table are not copied: they must outlive the reader
 * (cli's come from argv and static storage). */
struct csv_dialect {
    char delim;                       /* field delimiter, ',' by default */
    int no_header;                    /* input has no header row */
    const char *names;                /* comma-separated names for header-less input, or NULL (c1,c2,...) */
    int no_output_header;             /* csvw_header writes nothing */
    int precision;                    /* output decimals; -1: shortest round-trip */
    const char *role;                 /* this input's role name, for ROLE:key renames (NULL: none) */
    int primary;                      /* the tool's primary input: renames with role NULL apply too */
    int nrename;
    const struct csv_rename *rename;  /* renames table (not owned) */
    const char *const *keys;          /* the columns the tool may look up in this input (its --col
                                       * KEYs), NULL-terminated, not owned; NULL: any name */
    double time_scale;                /* epoch numbers in time columns are in 1/time_scale s
                                       * (1e3: ms, 1e6: us); 0 or 1: seconds */
    int time_unit;                    /* enum timeunit_reach: whether --time-unit sets
                                       * time_scale (for the hint of a time out of range) */
    csv_rejects *rejects;             /* non-NULL: --on-error skip (see csvr_skip); not owned */
};

/* Plain CSV: ',' with a header, no renames, shortest numbers.  For files a
 * module reads in its own fixed format whatever the tool's options say. */
extern const struct csv_dialect csv_dialect_plain;

/* csv_dialect_lookup: the input column name that key is read from under d
 * (key itself when not renamed).  A rename for d's role wins over one for
 * the primary input. */
const char *csv_dialect_lookup(const struct csv_dialect *d, const char *key);

/* ---- rejected rows (--on-error skip) ---------------------------------------- */

/* A csv_rejects collects the rows a run skipped: each is counted and written
 * as a CSV row file,line,reason to fp (with a header), or, when fp is NULL,
 * reported on stderr as "tool: FILE:LINE: skipped: reason" (silent with -q).
 * Readers share one; adding is serialized (a mutex), so threads may share it.
 * The rejects do not own fp. */
csv_rejects *csv_rejects_new(FILE *fp);
void csv_rejects_free(csv_rejects *j);
/* csv_rejects_add: record one skipped row (without a file, a warning on
 * stderr: the first SLK_MANY_SHOWN printed, the rest counted). */
void csv_rejects_add(csv_rejects *j, const char *file, long line, const char *reason);
/* csv_rejects_count: how many rows were skipped so far (the dropped ones,
 * csvr_drop_at, included). */
long csv_rejects_count(const csv_rejects *j);
/* csv_rejects_dropped: how many of them were not bad themselves but dropped
 * along with a bad row of their group (csvr_drop_at), and the group's noun
 * ("job") in *group (NULL when none was). */
long csv_rejects_dropped(const csv_rejects *j, const char **group);
/* csv_rejects_hidden: how many of the skipped rows' warnings were not
 * printed (slk_warn_many); 0 with a rejects file. */
long csv_rejects_hidden(const csv_rejects *j);

/* ---- reading ---------------------------------------------------------------- */

/* csvr_open_with: open path ("-" or NULL: stdin) with dialect d (NULL:
 * csv_dialect_plain) and read the header.  On failure prints the reason and
 * returns NULL with *status set (SLK_ENOINPUT, SLK_EDATA for a bad or empty
 * header, SLK_EIO).  An input with no bytes at all is an error ("empty input")
 * unless allow_empty is set, in which case the reader has no columns and
 * csvr_next returns 0 at once. */
csvr *csvr_open_with(const char *path, const struct csv_dialect *d, int allow_empty, int *status);

/* csvr_open_fp_with: like csvr_open_with on an already open stream; name is
 * used in messages.  The reader does not close fp. */
csvr *csvr_open_fp_with(FILE *fp, const char *name, const struct csv_dialect *d, int allow_empty, int *status);

/* csvr_open_stream_with: like csvr_open_with, but input is read with
 * read(2), so a record is returned as soon as its line has arrived instead
 * of when a 1 MB chunk is full (for live streams: `tail -f log.csv | reprov`).
 * Same records, errors and speed on files; only the buffering differs. */
csvr *csvr_open_stream_with(const char *path, const struct csv_dialect *d, int allow_empty, int *status);

/* The dialect-less openers of before: they read plain CSV (csv_dialect_plain),
 * NOT the user's options, so they are deprecated (a compile error under
 * -Werror) to make every caller say which dialect it means. */
#define CSVIO_DEPRECATED(alt) __attribute__((deprecated("pass a dialect: " alt)))
csvr *csvr_open(const char *path, int allow_empty, int *status)
    CSVIO_DEPRECATED("csvr_open_with(path, cli_dialect(NULL), allow_empty, status)");
csvr *csvr_open_fp(FILE *fp, const char *name, int allow_empty, int *status)
    CSVIO_DEPRECATED("csvr_open_fp_with(fp, name, cli_dialect(NULL), allow_empty, status)");
csvr *csvr_open_stream(const char *path, int allow_empty, int *status)
    CSVIO_DEPRECATED("csvr_open_stream_with(path, cli_dialect(NULL), allow_empty, status)");

/* csvr_close: free the reader (and close its file if it opened it). NULL is fine. */
void csvr_close(csvr *r);

/* csvr_next: advance to the next record. Returns 1 when a record is ready,
 * 0 at end of input, -1 on error (message printed, csvr_status set).
 * Records must have exactly as many fields as the header. */
int csvr_next(csvr *r);

/* csvr_col: index of the column named `name` (after renames), or -1.
 * Renames: a dialect rename name->actual (the user's --col name=actual)
 * makes csvr_col("name") find "actual".  With a dialect that lists its
 * keys, a name not among them is the tool's bug (a --col KEY=NAME for it
 * would be refused as unknown): "internal error" and exit 70 (SLK_ESOFTWARE). */
int csvr_col(const csvr *r, const char *name);

/* csvr_require: like csvr_col, but a missing column is an error:
 * "tool: FILE:1: missing required column 'name'" and returns -1. */
int csvr_require(csvr *r, const char *name);
/* csvr_require_for: csvr_require for a column needed for a reason the
 * message gives, on the same line: "tool: FILE:1: missing required column
 * 'alloc_mb' (the allocation: give an alloc_mb column or --alloc FILE)". */
int csvr_require_for(csvr *r, const char *name, const char *why);

/* csvr_require_list: csvr_require for the n columns names[0..n-1] at once.
 * cols[i] gets the index of names[i], or -1 when it is missing.  Every
 * missing column is reported, in one line: one as csvr_require does
 * ("missing required column 'a'" and its hint), several as "tool: FILE:1:
 * missing required columns 'a', 'b' and 'c'" (a renamed one with the key
 * it is for, "'jobid' (for job)"; the header hints after, each once).
 * Returns 0 when every column is there, else -1 (status SLK_EDATA). */
int csvr_require_list(csvr *r, const char *const *names, int *cols, int n);

/* csvr_require_cols: csvr_require_list for (name, int *col) pairs up to a
 * NULL name: each col is set (found: its index; missing: -1) and all the
 * missing ones are reported in one line.  Returns 0 when every column is
 * there, else -1:
 *     if (csvr_require_cols(r, "job", &cj, "t", &ct, (char *)NULL) < 0) ... */
int csvr_require_cols(csvr *r, const char *name, ...);

/* csvr_field: field i of the current record, or NULL when it is empty or i < 0. */
const char *csvr_field(const csvr *r, int i);

/* csvr_field_required: field col of the current record, or NULL after the
 * data error "column 'NAME': missing value" (csvr_fail) when it is empty.
 * NAME is name, or when name is NULL the column's header name (csvr_colname;
 * col must then be a column of r).  The one check of a required string
 * field:  if (!(job = csvr_field_required(r, cj, "job"))) ...  */
const char *csvr_field_required(csvr *r, int col, const char *name);

/* csvr_ncols: number of columns (header fields). */
int csvr_ncols(const csvr *r);
/* csvr_colname: the header name of column i (as in the file). */
const char *csvr_colname(const csvr *r, int i);

/* csvr_line: physical line number where the current record starts (header = 1). */
long csvr_line(const csvr *r);
/* csvr_path: the name used in messages ("-" reads as "<stdin>"). */
const char *csvr_path(const csvr *r);

/* csvr_delimiter: the field delimiter r reads; csvr_has_header: 1 when its
 * input has a header line (not -H). */
char csvr_delimiter(const csvr *r);
int csvr_has_header(const csvr *r);
/* csv_path_name: the same name for a path with no reader open: path, or
 * "<stdin>" for NULL or "-" (what the readers read then). */
const char *csv_path_name(const char *path);
/* csv_path_rereadable: whether path can be read twice from the start (a
 * regular file; not NULL, "-", a pipe or a device): for a tool that reads
 * a file twice to keep its memory small and holds what it reads otherwise. */
int csv_path_rereadable(const char *path);

/* A dialect for the first pass of a file read twice: d's, with its rejects
 * (--on-error skip), if any, replaced by a sink that writes nowhere, so
 * that the second pass lists each rejected row once.  csv_quiet_open: 0,
 * or -1 (no sink could be made: read once instead); q->d is the dialect to
 * read with until csv_quiet_close(q). */
struct csv_quiet {
    struct csv_dialect d;
    FILE *sink;
};
int csv_quiet_open(struct csv_quiet *q, const struct csv_dialect *d);
void csv_quiet_close(struct csv_quiet *q);

/* csvr_status: SLK_OK, or the exit status of the error that stopped the reader. */
int csvr_status(const csvr *r);

/* csvr_fail: report a data error at the current record and stop the reader:
 * prints "tool: FILE:LINE: message", sets status SLK_EDATA, returns -1.
 * With a dialect that has rejects (--on-error skip) the error is held
 * instead: a tool that can go on without the row calls csvr_skip; anything
 * else the tool does with the reader next (csvr_next, csvr_status,
 * csvr_close) turns it into the error above, so a tool that does not
 * support skipping stops exactly as in strict mode. */
int csvr_fail(csvr *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* csvr_fail_large: csvr_fail for field `col` beyond a tool's plausibility
 * bound `limit`, in the one wording every tool uses: "column 'NAME': 'TEXT'
 * is too large (at most LIMIT)" (NAME as in the header, TEXT as written).
 * Returns -1. */
int csvr_fail_large(csvr *r, int col, double limit);

/* csvr_skip: after a getter or csvr_fail returned -1 for the current row:
 * 1 when the row has been skipped (--on-error skip: written to the rejects,
 * counted) and the read loop should `continue`; 0 when the error stands
 * (message printed, reader stopped) and the loop should stop.  The idiom:
 *     if (csvr_get_double(r, c, &v, CSVR_REQUIRED) < 0) {
 *         if (csvr_skip(r)) continue;
 *         break;
 *     }
 * Records with the wrong number of fields are skipped by csvr_next itself
 * under --on-error skip; broken quoting or a NUL byte always stops the
 * reader (where the next record starts is unknown). */
int csvr_skip(csvr *r);

/* csvr_reject_at: a data error about an earlier row, found after the fact
 * (a duplicate key seen once a keyed table is loaded and sorted): under
 * --on-error skip the row at `line` goes to the rejects and 1 is returned
 * (the caller drops that row and goes on); otherwise "tool: FILE:LINE:
 * message" is printed, the reader stops (status SLK_EDATA) and 0 is
 * returned.  One duplicate rule for keyed tables: the first row (lowest
 * line) is kept, every later one is the rejected one. */
int csvr_reject_at(csvr *r, long line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* csvr_drop_at: under --on-error skip, the row at `line`, not bad itself,
 * goes to the rejects with the bad row of its group it is dropped along
 * with (a skyline missing a row is not its job's skyline: every row of the
 * job goes); counted among the skipped rows and, apart, as dropped with
 * their `group` (a static noun, "job": the summary names it), and 1 is
 * returned.  Otherwise as csvr_reject_at (printed, the reader stopped, 0). */
int csvr_drop_at(csvr *r, long line, const char *group, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Flags for the typed getters. */
enum {
    CSVR_REQUIRED = 1u << 0, /* a missing value is an error (else returns 0) */
    CSVR_NONNEG   = 1u << 1, /* must be >= 0 */
    CSVR_POSITIVE = 1u << 2, /* must be > 0 */
    CSVR_NONFINITE = 1u << 3, /* allow nan/inf (rarely wanted) */
    CSVR_BOUNDED  = 1u << 4  /* |value| <= CSVR_MAX_VALUE (1e15): sizes, memory, counts */
};

/* The largest magnitude a CSVR_BOUNDED value may have: beyond any real
 * container count, memory in MB or server-hours, small enough that sums of
 * millions of them stay exact to the unit. */
#define CSVR_MAX_VALUE 1e15
/* The largest |time| csvr_get_time accepts, in epoch seconds (year 5138):
 * times beyond it are data errors, never real telemetry, and would make
 * per-step loops and 64-bit conversions misbehave. */
#define CSVR_MAX_TIME 1e11
/* The longest record (its fields' bytes) the reader accepts, and the
 * longest line of the line-based formats (skyfit --format native): beyond
 * it the input is refused (exit 65) before it can fill memory. */
#define CSVR_MAX_RECORD ((size_t)64 << 20)
/* The most input a record of CSVR_MAX_RECORD can take (every byte a doubled
 * quote, plus its line end).  A reader that holds a record while it is read
 * (csvr as libcsv collects a field, keyshard) refuses it once its input
 * passes this, so no accepted record is refused and memory stays bounded. */
#define CSVR_MAX_RECORD_INPUT (2 * CSVR_MAX_RECORD + 2)
/* What "record longer than CSVR_MAX_RECORD bytes" adds when the record ends
 * inside an open quote. */
#define CSVR_OPEN_QUOTE_HINT " (a quoted field is still open: a missing closing quote?)"

/* csv_lone_cr: the first lone CR in s[0, n): a CR followed by a byte other
 * than CR or LF ("\r\n" and "\r\r\n" end a line as LF does), or NULL.
 * libcsv ends a record at a lone CR where every line count and keyshard's
 * framing see none, so lone-CR line ends (classic Mac OS) are refused with
 * CSV_LONE_CR_MSG: by csvr when the header's line is text (no control
 * byte but tab) ending in one outside quotes (not with -H), by keyshard
 * wherever one is outside quotes. */
const char *csv_lone_cr(const char *s, size_t n);

/* csv_scan: frame CSV text as libcsv reads it (a quote opens a field only
 * at the field's start; "" inside quotes is a quote), fed in pieces: *st
 * starts zeroed and carries the state from one call to the next.  Scans
 * s[0, n) up to the first event outside quotes and returns it:
 *   CSV_SCAN_END      an LF that ends the record; *used counts it;
 *   CSV_SCAN_LONE_CR  a lone CR (as csv_lone_cr); *used stops at the byte
 *                     after it;
 *   CSV_SCAN_MORE     s ended first; *used = n (a CR as the last byte
 *                     waits for the next piece).
 * st->inner counts the LFs inside quotes, st->ctl is set by a control byte
 * other than tab, CR, LF and the delimiter outside quotes, st->q ==
 * CSV_SCAN_QUOTED while a quoted field is open.  The one framing scan of
 * csvr's header check and keyshard's quoted records. */
enum { CSV_SCAN_MORE, CSV_SCAN_END, CSV_SCAN_LONE_CR };
enum { CSV_SCAN_START, CSV_SCAN_PLAIN, CSV_SCAN_QUOTED, CSV_SCAN_QUOTE_SEEN };
struct csv_scan_state {
    unsigned char q;   /* CSV_SCAN_START .. CSV_SCAN_QUOTE_SEEN */
    unsigned char cr;  /* a CR outside quotes waits for the byte after it */
    unsigned char ctl; /* a control byte seen outside quotes (binary, not text) */
    long inner;        /* LFs inside quotes */
};
int csv_scan(struct csv_scan_state *st, const char *s, size_t n, char delim, size_t *used);
#define CSV_LONE_CR_MSG                                                                                      \
    "a line ends in a lone CR (classic Mac OS line ends): convert them to LF first (tr '\\r' '\\n')"

/* csvr_get_double / _int64 / _time / _duration: convert field `col` of the
 * current record.  csvr_get_time divides epoch numbers by the dialect's
 * time_scale (ISO 8601 text is absolute) and refuses |t| > CSVR_MAX_TIME
 * with a hint naming the likely unit when timeunit_epoch_hint sees one ("... out of range (|value| <= 1e+11):
 * it looks like milliseconds since the epoch; use --time-unit ms").  Return 1 with *out set, 0 when the field is missing and not
 * CSVR_REQUIRED (*out untouched), -1 on error:
 * "tool: FILE:LINE: column 'value': invalid number '1x'" (reader stopped). */
int csvr_get_double(csvr *r, int col, double *out, unsigned flags);
/* csvr_get_double_hint: csvr_get_double, with `hint` appended to the
 * message of a field that is not a number, for a tool that knows what the
 * likely cause is and how to fix it ("column 'policy': invalid number
 * 'gated' (a y column must hold numbers: ...)"); hint starts with its own
 * separator (" (...)"). */
int csvr_get_double_hint(csvr *r, int col, double *out, unsigned flags, const char *hint);
int csvr_get_int64(csvr *r, int col, int64_t *out, unsigned flags);
int csvr_get_time(csvr *r, int col, double *out, unsigned flags);
int csvr_get_duration(csvr *r, int col, double *out, unsigned flags);

/* ---- range readers (one file read by several threads) ------------------------ */

/* A range reader is a csvr over the bytes [start, end) of a plain file, so
 * that each thread parses its own part of one input with the one parser.
 * Cut the file at line starts between records (a range starting inside a
 * quoted field with a line break reads garbage).  Compressed files cannot be
 * read by ranges: ask zin_sniff first and read a gzip or zstd file as one
 * stream with csvr_open_with.
 *
 * With `like` set, the range holds data records only: it gets like's columns
 * (like must stay open while the range reader is used) and its line numbers
 * count from 1 at `start`; csvr_lines tells the caller how many lines a range
 * had, to make later ranges' numbers absolute.  With `like` NULL the range
 * starts at byte 0 and is read as a whole input (header and all).
 *
 * With `message` set, the reader's data errors (those csvr would print as
 * "tool: FILE:LINE: message", csvr_fail's included) are handed to it instead,
 * with the line as the reader counts it, so that a thread can keep them and
 * the caller print them in input order with absolute lines.  Rejected rows
 * (--on-error skip) still go to the dialect's rejects with range-relative
 * lines: a tool that skips rows reads with one reader. */
typedef void csvr_message_fn(void *ctx, long line, const char *message);

struct csvr_range {
    long long start, end;         /* bytes [start, end); end < 0: to the end of the file */
    const csvr *like;             /* data only, with like's columns; NULL: start 0, header first */
    csvr_message_fn *message;     /* NULL: print errors as usual */
    void *message_ctx;
};

/* csvr_open_range: a reader over part of the plain file path (not "-") with
 * dialect d (NULL: csv_dialect_plain).  An empty range is fine (csvr_next
 * returns 0).  On failure prints (or hands to rg->message) the reason and
 * returns NULL with *status set (SLK_ENOINPUT when the file cannot be
 * opened, else as csvr_open_with). */
csvr *csvr_open_range(const char *path, const struct csv_dialect *d, const struct csvr_range *rg, int *status);

/* csvr_row: the fields of the current record as an array of csvr_ncols
 * strings (NULL: empty), the same as csvr_field(r, 0..ncols-1) without a
 * call per field; valid until the next csvr_next.  For per-row hot loops. */
const char *const *csvr_row(const csvr *r);

/* csvr_fraction: how much of the input file has been read, 0 to 1, or -1
 * when its end is unknown (standard input from a pipe); see zin_fraction.
 * For progress lines (slk_progress_read). */
double csvr_fraction(const csvr *r);
/* csvr_progress: the progress line of a reader (--progress: "tool: what:
 * N (x% of the input)", slk_progress_read) at its current line, drawn only
 * when one is due; cheap enough to call for every record. */
void csvr_progress(const csvr *r, const char *what);
/* csvr_lines: how many line ends the reader has consumed so far; at the end
 * of a range cut at line starts, the number of lines in it. */
long csvr_lines(const csvr *r);

/* csvr_line_start: the byte offset, counted from the range's start, of the
 * start of the range's line `line` (1-based: line 1 starts at 0), found by
 * counting line ends in the file; -1 when the range has fewer lines or on a
 * read error.  For cutting a file where a record begins. */
long long csvr_line_start(const char *path, long long start, long line);

/* ---- writing ---------------------------------------------------------------- */

/* csvw_new_with: a writer on fp using d's delimiter, precision and
 * no_output_header (NULL: csv_dialect_plain).  The writer does not own fp. */
csvw *csvw_new_with(FILE *fp, const struct csv_dialect *d);
csvw *csvw_new(FILE *fp) CSVIO_DEPRECATED("csvw_new_with(fp, cli_dialect(NULL))");
/* csvw_free: write what the writer still buffers (an unfinished record as
 * it is) into fp, then free it; fp is neither flushed nor closed. */
void csvw_free(csvw *w);

/* csvw_header: write a header row from a NULL-terminated list of names, unless
 * the dialect says no_output_header. */
void csvw_header(csvw *w, const char *const *names);
/* csvw_str: one field (NULL writes an empty field). */
void csvw_str(csvw *w, const char *s);
void csvw_strn(csvw *w, const char *s, size_t n);
/* csvw_num: a double (see header comment for the format). */
void csvw_num(csvw *w, double v);
/* csvw_num_prec: a double with exactly `decimals` decimals (ignores --precision). */
void csvw_num_prec(csvw *w, double v, int decimals);
/* csvw_int: an integer. */
void csvw_int(csvw *w, int64_t v);
/* csvw_end: end the record. */
void csvw_end(csvw *w);
/* csvw_error: non-zero if a write on the stream has failed. */
int csvw_error(const csvw *w);

/* csv_format_double: the shortest round-trip (prec < 0) or fixed text of v in
 * buf (at least 40 bytes); NaN and infinities give "".  Returns the length. */
int csv_format_double(char *buf, double v, int prec);

#endif
