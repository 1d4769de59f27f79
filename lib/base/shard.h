/* shard — split a grouped CSV input into N shards of whole keys, and merge
 * the per-shard outputs back into one process's order.
 *
 * Splitting.  Every record goes to shard shard_of(key, N), a hash of the key
 * column's value (unquoted), so all rows of a key land in one shard whatever
 * their order in the input, and the same key goes to the same shard on every
 * machine and in every version (the hash is fixed, see shard_hash).  Records
 * are copied byte for byte (quotes, CRLF, the UTF-8 BOM of the header); the
 * header is written at the top of every shard, even an empty one.  Records
 * are found by a quote-aware scanner (quoted fields may hold delimiters,
 * quotes and newlines) that copies runs of same-key records with one write,
 * so the split runs at the speed of memchr, not of a CSV parser.  Optional
 * gzip output (zlib).  Input may be plain, gzip or zstd (base/zin).
 *
 * The order file.  Beside the shards, an optional order file lists the key
 * groups in input order, one row "shard,key" per group.  Merging.  Per-key
 * tools write each key's rows together and in input order within their
 * shard; shard_merge reads the order file and takes each group's rows from
 * its shard's output, so the merged output is byte for byte what one process
 * writes on the whole input.  A key whose tool wrote no row is skipped; a row
 * whose key is not where the order file says is a data error (exit 65), so a
 * missing, truncated or foreign output cannot merge silently.  Without an
 * order file the outputs are concatenated in the given order, the header
 * kept once.
 *
 * A key that comes back in the order file (an input not grouped by key) is
 * refused: no process wrote that order.  With m->sorted the outputs are
 * those of a tool run with -s, which writes its keys sorted bytewise
 * (strcmp, group_held_sort): a k-way merge by key, each output checked to be
 * sorted and no key in two outputs; with an order file too, every key must
 * be in it, in that output's shard.
 *
 * Memory: one input buffer (grown only for a record longer than it), one
 * write buffer per shard; nothing proportional to the data.  A merge with an
 * order file keeps its keys (keyset: what a tool's own grouping check keeps);
 * the split and the concatenation keep nothing per key.  Errors print "keyshard: FILE:LINE: message" (or "tool: ...").
 * Threads: nothing is shared; every call works on its own state.
 */
#ifndef SLOKIT_SHARD_H
#define SLOKIT_SHARD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The most shards one split writes (Slurm's MaxArraySize is 1001 by default). */
#define SHARD_MAX 4000

struct shard_opts {
    const char *input;  /* path, "-" or NULL for stdin; plain, gzip or zstd */
    const char *key;    /* key column name (after --col renames; c1.. with -H) */
    int nshards;        /* 1..SHARD_MAX */
    const char *prefix; /* shard i is PREFIX%04d.csv (".tsv" with --tsv), ".gz" with gzip */
    int gzip_level;     /* 0: plain; 1..9: gzip at this level */
    const char *order;  /* order file path, or NULL */
    char delim;         /* field delimiter */
    int no_header;      /* input has no header row (key found in names) */
    const char *names;  /* column names for header-less input, or NULL */
};

struct shard_stats {
    uint64_t records, groups, bytes;
    uint64_t min_records, max_records; /* over the shards */
};

/* shard_hash: the fixed hash of a key's bytes: FNV-1a 64 of the bytes, then
 * the 64-bit finalizer of MurmurHash3 (fmix64) so that the low bits mix. */
uint64_t shard_hash(const char *key, size_t len);

/* shard_of: the shard of a key among n: shard_hash(key) % n. */
int shard_of(const char *key, size_t len, int n);

/* shard_path: the name of shard i (PREFIX%04d.csv[.gz]) in a new string. */
char *shard_path(const struct shard_opts *o, int i);

/* shard_split: split o->input into o->nshards files.  Every shard (and the
 * order file) is written aside and renamed into place only when all of them
 * are complete; on any error none is replaced.  Returns SLK_OK or an exit
 * status (65 bad data, 66 no input, 73 cannot create, 74 I/O) after printing
 * one message; fills *st (may be NULL). */
int shard_split(const struct shard_opts *o, struct shard_stats *st);

/* shard_check: copy o->input to out record by record (blank lines dropped,
 * a missing last line end added) and stop where a key comes back after its
 * group ended: the one message of base/group ("input not grouped by KEY:
 * ..." at FILE:LINE) and SLK_EDATA, after the records before it were
 * written.  A record without the key column is copied unchecked (the tool
 * reading the copy reports it).  For a stream cut into blocks at key
 * changes (GNU parallel --group-by), where every block passes the tool's
 * own check.  Memory: the keys seen (as a tool's own check keeps), one
 * input buffer.  o->nshards, prefix, gzip_level and order are not used.
 * Returns SLK_OK or an exit status (65, 66, 74) after one message. */
int shard_check(const struct shard_opts *o, FILE *out, struct shard_stats *st);

struct shard_merge_opts {
    const char *const *inputs; /* the per-shard outputs, shard 0 first */
    int ninputs;
    const char *order; /* order file from shard_split, or NULL: concatenate (or --sorted) */
    int sorted;        /* the outputs are sorted by key (a tool's -s): merge them in key order */
    const char *key;   /* key column of the outputs (NULL: the first column) */
    char delim;
    int no_header;     /* outputs have no header row */
    const char *names; /* their column names when no_header */
};

/* shard_merge: write the merged outputs to out (see the header comment).
 * Headers must be identical.  Returns SLK_OK or an exit status after one
 * message (65 a header or a key out of place, 66 an output missing, 74 I/O). */
int shard_merge(const struct shard_merge_opts *m, FILE *out, uint64_t *rows);

#endif
