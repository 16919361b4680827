/* A binary min-heap with deterministic ties.
 *
 * The textbook array heap: entry i has children 2i+1 and 2i+2, push sifts up,
 * pop moves the last entry to the root and sifts it down.  The one addition
 * is the sequence number in each entry, which makes the order total: no two
 * entries compare equal, so which of several equal keys comes out first
 * depends only on the order of the pushes, never on the heap's shape. */
#include "heap.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "die.h"

typedef struct bx_heap_item {
    double key;
    uint64_t seq;
    uint32_t payload, tie;
} bx_heap_item;

struct bx_heap {
    bx_heap_item *items;
    size_t n, cap;
    uint64_t seq;
};

bx_heap *bx_heap_try_create(void)
{
    return calloc(1, sizeof(bx_heap));
}

bx_heap *bx_heap_create(void)
{
    bx_heap *h = bx_heap_try_create();
    if (!h)
        bx_oom();
    return h;
}

void bx_heap_destroy(bx_heap *h)
{
    if (!h)
        return;
    free(h->items);
    free(h);
}

/* Keys within BX_HEAP_TIE_EPS of each other, relatively, are a tie: sums
 * of the same costs added in another order differ in their last bits, and
 * a search's plateau of equal-cost states should be broken by the tie key,
 * not by rounding. */
static bool before(const bx_heap_item *a, const bx_heap_item *b)
{
    double ka = a->key, kb = b->key;
    double tol = BX_HEAP_TIE_EPS * (fabs(ka) > fabs(kb) ? fabs(ka) : fabs(kb));
    if (ka < kb - tol)
        return true;
    if (kb < ka - tol)
        return false;
    if (a->tie != b->tie)
        return a->tie < b->tie;
    return a->seq < b->seq;
}

void bx_heap_push(bx_heap *h, double key, uint32_t payload)
{
    bx_heap_push_tie(h, key, 0, payload);
}

void bx_heap_push_tie(bx_heap *h, double key, uint32_t tie, uint32_t payload)
{
    if (!bx_heap_try_push_tie(h, key, tie, payload))
        bx_oom();
}

bool bx_heap_try_push_tie(bx_heap *h, double key, uint32_t tie, uint32_t payload)
{
    bx_assert(key == key);
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 64;
        if (cap > SIZE_MAX / sizeof(bx_heap_item))
            return false;
        bx_heap_item *items = realloc(h->items, cap * sizeof(*items));
        if (!items)
            return false;
        h->items = items;
        h->cap = cap;
    }
    bx_heap_item it = { key, h->seq++, payload, tie };
    size_t i = h->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!before(&it, &h->items[parent]))
            break;
        h->items[i] = h->items[parent];
        i = parent;
    }
    h->items[i] = it;
    return true;
}

bool bx_heap_peek(const bx_heap *h, double *key, uint32_t *payload)
{
    if (h->n == 0)
        return false;
    if (key)
        *key = h->items[0].key;
    if (payload)
        *payload = h->items[0].payload;
    return true;
}

bool bx_heap_pop(bx_heap *h, double *key, uint32_t *payload)
{
    if (!bx_heap_peek(h, key, payload))
        return false;
    bx_heap_item last = h->items[--h->n];
    size_t i = 0, n = h->n;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n)
            break;
        if (child + 1 < n && before(&h->items[child + 1], &h->items[child]))
            child++;
        if (!before(&h->items[child], &last))
            break;
        h->items[i] = h->items[child];
        i = child;
    }
    if (n)
        h->items[i] = last;
    return true;
}

size_t bx_heap_size(const bx_heap *h) { return h->n; }

void bx_heap_clear(bx_heap *h)
{
    h->n = 0;
    h->seq = 0;
}
