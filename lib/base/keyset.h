/* keyset — a set of strings, used by per-key (grouped) tools to detect a key
 * that comes back after its group ended ("input not grouped by job").
 *
 * Memory is proportional to the number of distinct keys (about 32 bytes plus
 * the key length each), not to the data.  The set copies the keys it stores.
 */
#ifndef SLOKIT_KEYSET_H
#define SLOKIT_KEYSET_H

#include <stddef.h>

typedef struct keyset keyset;

keyset *keyset_new(void);
void keyset_free(keyset *ks);
/* keyset_add: add key; returns 1 if it was new, 0 if already present. */
int keyset_add(keyset *ks, const char *key);
/* keyset_has: 1 if present. */
int keyset_has(const keyset *ks, const char *key);
size_t keyset_size(const keyset *ks);

/* A grouped-input tracker: call group_check with each record's key; it returns
 * 1 when the key starts a new group, 0 when it continues the current one, and
 * -1 when the key already had a group that ended (input not grouped). */
typedef struct {
    keyset *done;
    char *cur;
    size_t cur_cap;
    int have;
} group_tracker;

void group_init(group_tracker *g);
void group_free(group_tracker *g);
int group_check(group_tracker *g, const char *key);

#endif
