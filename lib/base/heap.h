/* heap — a binary min-heap of (key, seq, value) items, for event queues.
 *
 * Ties on key are broken by seq (insertion order unless the caller sets it),
 * so simulations that pop equal-time events are deterministic.
 * The heap owns its array; values are opaque to it.
 *
 * Threads: no shared state; one heap is used by one thread at a time.
 */
#ifndef SLOKIT_HEAP_H
#define SLOKIT_HEAP_H

#include <stddef.h>
#include <stdint.h>

struct heap_item {
    double key;
    uint64_t seq;
    uint64_t val;
};

typedef struct {
    struct heap_item *a;
    size_t n, cap;
    uint64_t next_seq;
} heap;

void heap_init(heap *h);
void heap_free(heap *h);
/* heap_push: insert (key, val); seq is the next insertion number. */
void heap_push(heap *h, double key, uint64_t val);
/* heap_push_seq: insert with an explicit tie-break. */
void heap_push_seq(heap *h, double key, uint64_t seq, uint64_t val);
/* heap_pop: remove the smallest item into *out; returns 0 if empty. */
int heap_pop(heap *h, struct heap_item *out);
/* heap_peek: the smallest item, or NULL if empty. */
const struct heap_item *heap_peek(const heap *h);
static inline size_t heap_size(const heap *h) { return h->n; }

#endif
