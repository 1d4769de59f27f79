/* keyset — open-addressing hash set of strings; grouped-input tracker (see keyset.h). */
#include "base/keyset.h"
#include "base/diag.h"
#include "base/strhash.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct ks_slot { /* 16 bytes: a probe reads few cache lines */
    char *key;   /* NULL: empty */
    long row;   /* its row number: how many keys came before it */
};

struct ks_row {
    char *key;     /* the slot's key (keyset_key) */
    long line;     /* keyset_put's line for the key */
    uint64_t hash; /* strhash_str(key): growing the table hashes nothing again */
};

struct keyset {
    struct ks_slot *slot;
    size_t cap, n;
    struct ks_row *rows; /* [row] */
    size_t rowcap;
};

keyset *keyset_new(void)
{
    keyset *ks = xcalloc(1, sizeof *ks);
    ks->cap = 64;
    ks->slot = xcalloc(ks->cap, sizeof *ks->slot);
    return ks;
}

void keyset_free(keyset *ks)
{
    if (!ks)
        return;
    for (size_t i = 0; i < ks->cap; i++)
        free(ks->slot[i].key);
    free(ks->slot);
    free(ks->rows);
    free(ks);
}

/* find_hashed: the slot holding key (of hash h), or the empty slot where it
 * would go */
static size_t find_hashed(const keyset *ks, const char *key, uint64_t h)
{
    size_t i = (size_t)h & (ks->cap - 1);
    while (ks->slot[i].key && strcmp(ks->slot[i].key, key) != 0)
        i = (i + 1) & (ks->cap - 1);
    return i;
}

static size_t find(const keyset *ks, const char *key) { return find_hashed(ks, key, strhash_str(key)); }

int keyset_has(const keyset *ks, const char *key) { return ks->slot[find(ks, key)].key != NULL; }

/* insert: add key (of hash h, not present) at slot i, its empty slot;
 * its row number */
static long insert(keyset *ks, size_t i, const char *key, uint64_t h, long line)
{
    if ((ks->n + 1) * 2 > ks->cap) {
        free(ks->slot);
        ks->cap *= 2;
        ks->slot = xcalloc(ks->cap, sizeof *ks->slot);
        for (size_t r = 0; r < ks->n; r++)
            ks->slot[find_hashed(ks, ks->rows[r].key, ks->rows[r].hash)] =
                (struct ks_slot){ks->rows[r].key, (long)r};
        i = find_hashed(ks, key, h);
    }
    ks->rows = xgrow(ks->rows, &ks->rowcap, ks->n + 1, sizeof *ks->rows);
    ks->rows[ks->n] = (struct ks_row){xstrdup(key), line, h};
    ks->slot[i] = (struct ks_slot){ks->rows[ks->n].key, (long)ks->n};
    return (long)ks->n++;
}

long keyset_put(keyset *ks, const char *key, long line, long *first_line)
{
    uint64_t h = strhash_str(key);
    size_t i = find_hashed(ks, key, h);
    if (ks->slot[i].key) {
        if (first_line)
            *first_line = ks->rows[ks->slot[i].row].line;
        return -1;
    }
    return insert(ks, i, key, h, line);
}

int keyset_add(keyset *ks, const char *key) { return keyset_put(ks, key, 0, NULL) >= 0; }

long keyset_row(const keyset *ks, const char *key)
{
    size_t i = find(ks, key);
    return ks->slot[i].key ? ks->slot[i].row : -1;
}

long keyset_intern(keyset *ks, const char *key, int *added)
{
    uint64_t h = strhash_str(key);
    size_t i = find_hashed(ks, key, h);
    if (added)
        *added = !ks->slot[i].key;
    return ks->slot[i].key ? ks->slot[i].row : insert(ks, i, key, h, 0);
}

const char *keyset_key(const keyset *ks, long row)
{
    return row >= 0 && (size_t)row < ks->n ? ks->rows[row].key : NULL;
}

long keyset_find_grouped(keyset *ks, const char *key, long *last, int add)
{
    const char *k = keyset_key(ks, *last);
    if (!k || strcmp(k, key) != 0)
        *last = add ? keyset_intern(ks, key, NULL) : keyset_row(ks, key);
    return *last;
}

size_t keyset_size(const keyset *ks) { return ks->n; }

void group_init(group_tracker *g)
{
    g->seen = keyset_new();
    g->cur = NULL;
}

void group_free(group_tracker *g)
{
    keyset_free(g->seen);
    g->seen = NULL;
    g->cur = NULL;
}

int group_check_other(group_tracker *g, const char *key)
{
    int added;
    long row = keyset_intern(g->seen, key, &added);
    if (!added)
        return -1;
    g->cur = keyset_key(g->seen, row);
    return 1;
}
