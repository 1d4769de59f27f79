/* group — the one way slokit reads input grouped by a key, as GNU datamash
 * does: for each record, group_next says whether its key starts a new group
 * (flush the previous one, start the next), continues the current one, or
 * comes back after its group ended, which is an error with one message for
 * every tool:
 *   tool: FILE:LINE: input not grouped by WHAT: WHAT 'KEY' appears again
 *   after WHAT 'PREV' (sort by WHAT first[, the header kept on top], e.g.
 *   SORT COMMAND[, or use -s])   (group_message: the command)
 * (", or use -s" where the tool has it)
 * The caller flushes the last group when the input ends.
 *
 * Memory: the keys of the groups seen (a keyset: about 80 bytes plus the key each),
 * not the data.  One iterator per input; not shared between threads.
 *
 * group_held is the -s/--sort of the per-key tools (GNU datamash -s): the
 * rows are held in memory, then sorted stably by key (bytewise) and by an
 * optional number within a key, and the caller feeds them to its grouped
 * code in that order.  Memory: the rows (rec_size + about 40 bytes each,
 * plus the key and any string the caller keeps with group_held_strdup);
 * no temporary files.  A group_held belongs to one thread.
 */
#ifndef SLOKIT_GROUP_H
#define SLOKIT_GROUP_H

#include "base/csvio.h"
#include "base/keyset.h"

/* How to sort the input, for the message's example: file (NULL or "-":
 * standard input, named FILE), the key's column (1-based; 0: no example),
 * the field delimiter (0: fields separated by blanks), and whether the
 * first line is a header to keep on top.  Not copied. */
struct group_sort {
    const char *file;
    int col;
    char sep;
    int header;
};

typedef struct {
    group_tracker t;
    const char *what;      /* "job", "task", "tenant": not copied */
    int sortable;          /* the tool has -s: the message offers it */
    struct group_sort how; /* group_where; col 0 until then */
} group_iter;

enum { GROUP_SAME = 0, GROUP_NEW = 1, GROUP_ERROR = -1 };

/* group_begin: an iterator over records grouped by WHAT; sortable: the
 * tool has -s (GROUP_SORTABLE) or not (GROUP_STRICT), for the message. */
enum { GROUP_STRICT = 0, GROUP_SORTABLE = 1 };
void group_begin(group_iter *g, const char *what, int sortable);

/* group_where: for group_next's message, where the key is (see struct
 * group_sort; group_row finds it in its reader itself). */
void group_where(group_iter *g, const char *file, int col, char sep, int header);

/* group_next: GROUP_NEW when key starts a group (the previous one, if any,
 * is complete), GROUP_SAME when it continues the current one, GROUP_ERROR
 * when key had a group that ended: the message above is printed at
 * file:line and the caller stops with SLK_EDATA. */
int group_next(group_iter *g, const char *file, long line, const char *key);

/* group_row: group_next for the current row of a CSV reader: on
 * GROUP_ERROR the message above goes through csvr_fail (the reader stops
 * with SLK_EDATA; under --on-error skip it is still an error: an ungrouped
 * input cannot be repaired by skipping rows). */
int group_row(group_iter *g, csvr *r, const char *key);

/* group_message: the one message (without the "tool: FILE:LINE: " prefix)
 * into buf[0..n-1], for a reader that reports through its own channel
 * (tenantclass's threads): key came back after prev, input grouped by what;
 * how (NULL, or col 0: none) gives a sort command that groups the input,
 * the header kept on top:
 *   (sort by job first, the header kept on top, e.g. (head -1 u.csv; tail -n +2 u.csv | sort -s -t, -k2,2), or use -s) */
void group_message(char *buf, size_t n, const char *what, const char *key, const char *prev, int sortable,
                   const struct group_sort *how);

/* the room group_message's longest message needs (two keys of 60 bytes,
 * the sort command naming the file twice) */
enum { GROUP_MSG_MAX = 768 };

/* group_end: free what g holds. */
void group_end(group_iter *g);

typedef struct group_held group_held;

/* group_held_new: an empty row store for records of rec_size bytes. */
group_held *group_held_new(size_t rec_size);

/* group_held_add: hold one row: its key, an order within the key, the input
 * line (for messages after the sort) and a copy of rec (rec_size bytes). */
void group_held_add(group_held *h, const char *key, double order, long line, const void *rec);

/* group_held_strdup: a copy of s owned by h (freed with it), for strings a
 * record keeps (e.g. a run name). */
const char *group_held_strdup(group_held *h, const char *s);

/* group_held_sort: order the rows by key (strcmp), then order, then input
 * position, so rows with equal key and order keep their input order.
 * Returns the number of rows. */
size_t group_held_sort(group_held *h);

/* group_held_row: row i (after group_held_sort): its record (owned by h),
 * its key in *key and its line in *line (either may be NULL). */
const void *group_held_row(const group_held *h, size_t i, const char **key, long *line);

/* group_held_free: free h (NULL is fine). */
void group_held_free(group_held *h);

#endif
