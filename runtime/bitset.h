/* Fixed-size bitsets over node indices.
 *
 * A set of nodes is an array of 64-bit words; bit i of word i/64 is node i.
 * The size is fixed when the set is made and binary operations require two
 * sets of the same size.  Bits past the size are always zero, so equality,
 * hashing and counting can work a word at a time.  The words live in an arena
 * or in a buffer the caller owns; nothing here calls malloc.  Internal (bx_
 * prefix). */
#ifndef BX_BITSET_H
#define BX_BITSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

typedef struct bx_bitset {
    size_t nbits;
    uint64_t *words;    /* BX_BITSET_WORDS(nbits) of them */
} bx_bitset;

#define BX_BITSET_WORDS(nbits) (((size_t)(nbits) + 63) / 64)

/* An empty set of nbits bits over the caller's buffer of
 * BX_BITSET_WORDS(nbits) words. */
void bx_bitset_init(bx_bitset *s, size_t nbits, uint64_t *buf);
/* An empty set whose header and words live in the arena. */
bx_bitset *bx_bitset_new(bx_arena *a, size_t nbits);
/* A copy of src in the arena. */
bx_bitset *bx_bitset_dup(bx_arena *a, const bx_bitset *src);

/* Element operations; an index at or past nbits is an internal error. */
void bx_bitset_set(bx_bitset *s, size_t i);
void bx_bitset_clear(bx_bitset *s, size_t i);
bool bx_bitset_test(const bx_bitset *s, size_t i);

/* Whole-set operations.  dst and src must have the same size. */
void bx_bitset_clear_all(bx_bitset *s);
void bx_bitset_copy(bx_bitset *dst, const bx_bitset *src);
void bx_bitset_union(bx_bitset *dst, const bx_bitset *src);      /* dst |= src */
void bx_bitset_intersect(bx_bitset *dst, const bx_bitset *src);  /* dst &= src */
void bx_bitset_andnot(bx_bitset *dst, const bx_bitset *src);     /* dst &= ~src */

bool bx_bitset_equal(const bx_bitset *a, const bx_bitset *b);
bool bx_bitset_subset(const bx_bitset *a, const bx_bitset *b);   /* a ⊆ b */
bool bx_bitset_intersects(const bx_bitset *a, const bx_bitset *b);
bool bx_bitset_empty(const bx_bitset *s);
size_t bx_bitset_count(const bx_bitset *s);

/* The first member at or after i, or nbits when there is none; iterate with
 * for (i = bx_bitset_first(s); i < s->nbits; i = bx_bitset_next(s, i + 1)). */
size_t bx_bitset_next(const bx_bitset *s, size_t i);
size_t bx_bitset_first(const bx_bitset *s);

/* A hash of the members (not of the size): equal sets hash equally. */
uint64_t bx_bitset_hash(const bx_bitset *s);

/* The same hash over raw words, for callers that keep bare word arrays. */
uint64_t bx_bits_hash(const uint64_t *w, size_t nwords);

#endif
