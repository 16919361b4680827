/* A string-keyed hash table: open addressing, linear probing, power-of-two
 * capacity, kept at most half full.  Keys are not copied (they live in an
 * arena or in static tables); values are pointers.  Iteration order is
 * insertion order, so anything printed from a table is deterministic.
 * Internal (bx_ prefix). */
#ifndef BX_HASH_H
#define BX_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct bx_hash {
    uint32_t *slots;      /* 0: empty; else 1 + index into entries */
    size_t cap;           /* slots, a power of two */
    struct bx_hash_entry { const char *key; uint64_t h; void *val; } *entries;
    size_t n, entries_cap;
} bx_hash;

void bx_hash_init(bx_hash *t);
void bx_hash_free(bx_hash *t);
uint64_t bx_hash_str(const char *s);
/* The value stored under key, or NULL. */
void *bx_hash_get(const bx_hash *t, const char *key);
/* Store val under key; returns the previous value (NULL if none). */
void *bx_hash_put(bx_hash *t, const char *key, void *val);
/* Entries in insertion order: for (i = 0; i < t->n; i++) t->entries[i]. */

#endif
