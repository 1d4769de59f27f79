/* keyset — open-addressing hash set of strings; grouped-input tracker (see keyset.h). */
#include "base/keyset.h"
#include "base/diag.h"
#include "base/rng.h"

#include <stdlib.h>
#include <string.h>

struct keyset {
    char **slot;
    size_t cap, n;
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
        free(ks->slot[i]);
    free(ks->slot);
    free(ks);
}

static size_t find(const keyset *ks, const char *key)
{
    size_t i = rng_hash_str(key) & (ks->cap - 1);
    while (ks->slot[i] && strcmp(ks->slot[i], key) != 0)
        i = (i + 1) & (ks->cap - 1);
    return i;
}

int keyset_has(const keyset *ks, const char *key) { return ks->slot[find(ks, key)] != NULL; }

int keyset_add(keyset *ks, const char *key)
{
    size_t i = find(ks, key);
    if (ks->slot[i])
        return 0;
    if ((ks->n + 1) * 2 > ks->cap) {
        size_t oldcap = ks->cap;
        char **old = ks->slot;
        ks->cap *= 2;
        ks->slot = xcalloc(ks->cap, sizeof *ks->slot);
        for (size_t j = 0; j < oldcap; j++)
            if (old[j])
                ks->slot[find(ks, old[j])] = old[j];
        free(old);
        i = find(ks, key);
    }
    ks->slot[i] = xstrdup(key);
    ks->n++;
    return 1;
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
