/* heap — binary min-heap with deterministic tie-breaking (see heap.h). */
#include "base/heap.h"
#include "base/diag.h"

#include <stdlib.h>

void heap_init(heap *h)
{
    h->a = NULL;
    h->n = h->cap = 0;
    h->next_seq = 0;
}

void heap_free(heap *h)
{
    free(h->a);
    heap_init(h);
}

static inline int less(const struct heap_item *x, const struct heap_item *y)
{
    return x->key < y->key || (x->key == y->key && x->seq < y->seq);
}

void heap_push_seq(heap *h, double key, uint64_t seq, uint64_t val)
{
    h->a = xgrow(h->a, &h->cap, h->n + 1, sizeof *h->a);
    size_t i = h->n++;
    struct heap_item it = {key, seq, val};
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!less(&it, &h->a[p]))
            break;
        h->a[i] = h->a[p];
        i = p;
    }
    h->a[i] = it;
}

void heap_push(heap *h, double key, uint64_t val) { heap_push_seq(h, key, h->next_seq++, val); }

int heap_pop(heap *h, struct heap_item *out)
{
    if (h->n == 0)
        return 0;
    *out = h->a[0];
    struct heap_item last = h->a[--h->n];
    size_t i = 0, n = h->n;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && less(&h->a[c + 1], &h->a[c]))
            c++;
        if (!less(&h->a[c], &last))
            break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (n)
        h->a[i] = last;
    return 1;
}

const struct heap_item *heap_peek(const heap *h) { return h->n ? &h->a[0] : NULL; }
