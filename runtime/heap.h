/* A binary min-heap of (key, payload) pairs, for the search's open list.
 *
 * Keys are doubles (path costs), payloads 32-bit indices.  Keys within a
 * relative BX_HEAP_TIE_EPS of each other tie; ties come out by a second,
 * integer key (lowest first; 0 for bx_heap_push), then in the order they
 * went in: every push gets a sequence number, so a search that uses it is
 * reproducible however its ties fall.  Internal (bx_ prefix). */
#ifndef BX_HEAP_H
#define BX_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bx_heap bx_heap;

bx_heap *bx_heap_create(void);
/* NULL when out of memory. */
bx_heap *bx_heap_try_create(void);
void bx_heap_destroy(bx_heap *h);

/* key must not be NaN (an internal error): NaN has no place in an order. */
void bx_heap_push(bx_heap *h, double key, uint32_t payload);
void bx_heap_push_tie(bx_heap *h, double key, uint32_t tie, uint32_t payload);
/* The same, false (and the heap unchanged) when out of memory. */
bool bx_heap_try_push_tie(bx_heap *h, double key, uint32_t tie, uint32_t payload);
#define BX_HEAP_TIE_EPS 1e-12
/* The least (key, sequence) entry; false when the heap is empty.  Either
 * output pointer may be NULL. */
bool bx_heap_peek(const bx_heap *h, double *key, uint32_t *payload);
bool bx_heap_pop(bx_heap *h, double *key, uint32_t *payload);
size_t bx_heap_size(const bx_heap *h);
/* Empty the heap, keeping its memory; sequence numbers restart. */
void bx_heap_clear(bx_heap *h);

#endif
