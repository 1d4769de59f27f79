/* keyset — a set of strings, used by per-key (grouped) tools to detect a key
 * that comes back after its group ended ("input not grouped by job").
 *
 * Memory is proportional to the number of distinct keys (about 80 bytes plus
 * the key length each), not to the data.  The set copies the keys it stores.
 *
 * Threads: no shared state; one keyset is used by one thread at a time.
 */
#ifndef SLOKIT_KEYSET_H
#define SLOKIT_KEYSET_H

#include <stddef.h>
#include <string.h>

typedef struct keyset keyset;

keyset *keyset_new(void);
void keyset_free(keyset *ks);
/* keyset_add: add key; returns 1 if it was new, 0 if already present. */
int keyset_add(keyset *ks, const char *key);
/* keyset_has: 1 if present. */
int keyset_has(const keyset *ks, const char *key);
/* keyset_put: add key with the line it was seen at; returns its row number
 * (0, 1, ... in the order keys were added) if it was new, or -1 if it was
 * present already (then *first_line, if non-NULL, gets the line it was first
 * added with). */
long keyset_put(keyset *ks, const char *key, long line, long *first_line);
/* keyset_row: the row number of key (see keyset_put), or -1. */
long keyset_row(const keyset *ks, const char *key);
/* keyset_intern: the row number of key, added (line 0) when new; *added
 * (may be NULL) says whether it was.  Numbers names 0, 1, ... in order of
 * first appearance: an index into the caller's arrays of per-name data. */
long keyset_intern(keyset *ks, const char *key, int *added);
/* keyset_key: the key with row number row (0 .. keyset_size - 1), owned by
 * the set and unchanged until keyset_free; NULL for any other row.  Lets a
 * caller that numbers names with keyset_intern print or sort them without a
 * second copy of its own. */
const char *keyset_key(const keyset *ks, long row);
/* keyset_find_grouped: the row number of key, *last (the previous record's,
 * -1: none) tried first, as grouped inputs repeat it; when new, added
 * (add) or -1.  *last gets the answer. */
long keyset_find_grouped(keyset *ks, const char *key, long *last, int add);
size_t keyset_size(const keyset *ks);

/* A grouped-input tracker: call group_check with each record's key; it returns
 * 1 when the key starts a new group, 0 when it continues the current one, and
 * -1 when the key already had a group that ended (input not grouped).  One
 * hash per group, none per record within one. */
typedef struct {
    keyset *seen;    /* every key that started a group, the current one too */
    const char *cur; /* the current group's key (seen's copy); NULL before the first */
} group_tracker;

void group_init(group_tracker *g);
void group_free(group_tracker *g);
/* group_check_other: group_check for a key that is not the current one */
int group_check_other(group_tracker *g, const char *key);
/* group_check: inline, so that the usual answer (the same group) is one
 * strcmp without a call */
static inline int group_check(group_tracker *g, const char *key)
{
    return g->cur && strcmp(g->cur, key) == 0 ? 0 : group_check_other(g, key);
}
/* group_current: the current group's key, owned by g (valid until
 * group_free), or "" before the first. */
static inline const char *group_current(const group_tracker *g) { return g->cur ? g->cur : ""; }

#endif
