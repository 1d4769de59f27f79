/* group — the one way slokit reads input grouped by a key, as GNU datamash
 * does: for each record, group_next says whether its key starts a new group
 * (flush the previous one, start the next), continues the current one, or
 * comes back after its group ended, which is an error with one message for
 * every tool:
 *   tool: FILE:LINE: input not grouped by WHAT: WHAT 'KEY' appears again
 *   after WHAT 'PREV' (sort by WHAT first, e.g. sort -s -t, -k1,1, or use -s)
 * The caller flushes the last group when the input ends.
 *
 * Memory: the keys of the groups seen (about 32 bytes plus the key each),
 * not the data.  One iterator per input; not shared between threads.
 */
#ifndef SLOKIT_GROUP_H
#define SLOKIT_GROUP_H

#include "base/keyset.h"

typedef struct {
    group_tracker t;
    const char *what; /* "job", "task", "tenant": not copied */
} group_iter;

enum { GROUP_SAME = 0, GROUP_NEW = 1, GROUP_ERROR = -1 };

/* group_begin: an iterator over records grouped by WHAT. */
void group_begin(group_iter *g, const char *what);

/* group_next: GROUP_NEW when key starts a group (the previous one, if any,
 * is complete), GROUP_SAME when it continues the current one, GROUP_ERROR
 * when key had a group that ended: the message above is printed at
 * file:line and the caller stops with SLK_EDATA. */
int group_next(group_iter *g, const char *file, long line, const char *key);

/* group_end: free what g holds. */
void group_end(group_iter *g);

#endif
