/* keyset — open-addressing hash set of strings; grouped-input tracker (see keyset.h). */
#include "base/keyset.h"
#include "base/diag.h"
#include "base/strhash.h"

#include <stdlib.h>
#include <string.h>

struct ks_slot { /* 16 bytes: a probe reads few cache lines */
    char *key;   /* NULL: empty */
    long row;   /* its row number: how many keys came before it */
};

struct ks_row {
    char *key; /* the slot's key (keyset_key) */
    long line; /* keyset_put's line for the key */
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

/* find: the slot holding key, or the empty slot where it would go */
static size_t find(const keyset *ks, const char *key)
{
    size_t i = strhash_str(key) & (ks->cap - 1);
    while (ks->slot[i].key && strcmp(ks->slot[i].key, key) != 0)
        i = (i + 1) & (ks->cap - 1);
    return i;
}

int keyset_has(const keyset *ks, const char *key) { return ks->slot[find(ks, key)].key != NULL; }

long keyset_put(keyset *ks, const char *key, long line, long *first_line)
{
    size_t i = find(ks, key);
    if (ks->slot[i].key) {
        if (first_line)
            *first_line = ks->rows[ks->slot[i].row].line;
        return -1;
    }
    if ((ks->n + 1) * 2 > ks->cap) {
        size_t oldcap = ks->cap;
        struct ks_slot *old = ks->slot;
        ks->cap *= 2;
        ks->slot = xcalloc(ks->cap, sizeof *ks->slot);
        for (size_t j = 0; j < oldcap; j++)
            if (old[j].key)
                ks->slot[find(ks, old[j].key)] = old[j];
        free(old);
        i = find(ks, key);
    }
    ks->rows = xgrow(ks->rows, &ks->rowcap, ks->n + 1, sizeof *ks->rows);
    ks->rows[ks->n] = (struct ks_row){xstrdup(key), line};
    ks->slot[i] = (struct ks_slot){ks->rows[ks->n].key, (long)ks->n};
    return (long)ks->n++;
}

int keyset_add(keyset *ks, const char *key) { return keyset_put(ks, key, 0, NULL) >= 0; }

long keyset_row(const keyset *ks, const char *key)
{
    size_t i = find(ks, key);
    return ks->slot[i].key ? ks->slot[i].row : -1;
}

long keyset_intern(keyset *ks, const char *key, int *added)
{
    long k = keyset_row(ks, key);
    if (added)
        *added = k < 0;
    return k >= 0 ? k : keyset_put(ks, key, 0, NULL);
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
    g->done = keyset_new();
    g->cur = NULL;
    g->cur_cap = 0;
    g->have = 0;
}

void group_free(group_tracker *g)
{
    keyset_free(g->done);
    free(g->cur);
    g->done = NULL;
    g->cur = NULL;
}

int group_check(group_tracker *g, const char *key)
{
    if (g->have && strcmp(g->cur, key) == 0)
        return 0;
    if (keyset_has(g->done, key))
        return -1;
    if (g->have)
        keyset_add(g->done, g->cur);
    size_t n = strlen(key) + 1;
    g->cur = xgrow(g->cur, &g->cur_cap, n, 1);
    memcpy(g->cur, key, n);
    g->have = 1;
    return 1;
}
