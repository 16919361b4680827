/* Fixed-size bitsets.
 *
 * Everything is a loop over words; the one invariant to keep in mind is that
 * the bits past nbits in the last word stay zero.  Only bx_bitset_set can put
 * a bit into a word and it refuses indices past the size, so every whole-set
 * operation (which combines two sets of the same size) keeps the invariant
 * for free, and bx_bitset_next never reports a member that is not one. */
#include "bitset.h"

#include <string.h>

#include "die.h"

void bx_bitset_init(bx_bitset *s, size_t nbits, uint64_t *buf)
{
    s->nbits = nbits;
    s->words = buf;
    bx_bitset_clear_all(s);
}

bx_bitset *bx_bitset_new(bx_arena *a, size_t nbits)
{
    bx_bitset *s = BX_NEW(a, bx_bitset);
    s->nbits = nbits;
    s->words = BX_NEWN(a, uint64_t, BX_BITSET_WORDS(nbits)); /* zeroed */
    return s;
}

bx_bitset *bx_bitset_dup(bx_arena *a, const bx_bitset *src)
{
    bx_bitset *s = bx_bitset_new(a, src->nbits);
    bx_bitset_copy(s, src);
    return s;
}

void bx_bitset_set(bx_bitset *s, size_t i)
{
    bx_assert(i < s->nbits);
    s->words[i / 64] |= (uint64_t)1 << (i % 64);
}

void bx_bitset_clear(bx_bitset *s, size_t i)
{
    bx_assert(i < s->nbits);
    s->words[i / 64] &= ~((uint64_t)1 << (i % 64));
}

bool bx_bitset_test(const bx_bitset *s, size_t i)
{
    bx_assert(i < s->nbits);
    return (s->words[i / 64] >> (i % 64)) & 1;
}

void bx_bitset_clear_all(bx_bitset *s)
{
    size_t nw = BX_BITSET_WORDS(s->nbits);
    if (nw)
        memset(s->words, 0, nw * sizeof(uint64_t));
}

/* Binary operations on sets of different sizes are a caller's bug: the
 * result would silently drop members. */
static size_t same_words(const bx_bitset *a, const bx_bitset *b)
{
    bx_assert(a->nbits == b->nbits);
    return BX_BITSET_WORDS(a->nbits);
}

void bx_bitset_copy(bx_bitset *dst, const bx_bitset *src)
{
    size_t nw = same_words(dst, src);
    if (nw && dst->words != src->words)
        memcpy(dst->words, src->words, nw * sizeof(uint64_t));
}

void bx_bitset_union(bx_bitset *dst, const bx_bitset *src)
{
    size_t nw = same_words(dst, src);
    for (size_t i = 0; i < nw; i++)
        dst->words[i] |= src->words[i];
}

void bx_bitset_intersect(bx_bitset *dst, const bx_bitset *src)
{
    size_t nw = same_words(dst, src);
    for (size_t i = 0; i < nw; i++)
        dst->words[i] &= src->words[i];
}

void bx_bitset_andnot(bx_bitset *dst, const bx_bitset *src)
{
    size_t nw = same_words(dst, src);
    for (size_t i = 0; i < nw; i++)
        dst->words[i] &= ~src->words[i];
}

bool bx_bitset_equal(const bx_bitset *a, const bx_bitset *b)
{
    size_t nw = same_words(a, b);
    return nw == 0 || memcmp(a->words, b->words, nw * sizeof(uint64_t)) == 0;
}

bool bx_bitset_subset(const bx_bitset *a, const bx_bitset *b)
{
    size_t nw = same_words(a, b);
    for (size_t i = 0; i < nw; i++)
        if (a->words[i] & ~b->words[i])
            return false;
    return true;
}

bool bx_bitset_intersects(const bx_bitset *a, const bx_bitset *b)
{
    size_t nw = same_words(a, b);
    for (size_t i = 0; i < nw; i++)
        if (a->words[i] & b->words[i])
            return true;
    return false;
}

bool bx_bitset_empty(const bx_bitset *s)
{
    size_t nw = BX_BITSET_WORDS(s->nbits);
    for (size_t i = 0; i < nw; i++)
        if (s->words[i])
            return false;
    return true;
}

size_t bx_bitset_count(const bx_bitset *s)
{
    size_t nw = BX_BITSET_WORDS(s->nbits), c = 0;
    for (size_t i = 0; i < nw; i++)
        c += (size_t)__builtin_popcountll(s->words[i]);
    return c;
}

size_t bx_bitset_next(const bx_bitset *s, size_t i)
{
    if (i >= s->nbits)
        return s->nbits;
    size_t nw = BX_BITSET_WORDS(s->nbits), wi = i / 64;
    uint64_t w = s->words[wi] & (~(uint64_t)0 << (i % 64));
    for (;;) {
        if (w)
            return wi * 64 + (size_t)__builtin_ctzll(w);
        if (++wi == nw)
            return s->nbits;
        w = s->words[wi];
    }
}

size_t bx_bitset_first(const bx_bitset *s) { return bx_bitset_next(s, 0); }

/* Trailing zero words are skipped so that the same members hash the same
 * whatever the set's size; the finaliser is splitmix64's. */
uint64_t bx_bits_hash(const uint64_t *w, size_t nwords)
{
    while (nwords && w[nwords - 1] == 0)
        nwords--;
    uint64_t h = 0x243f6a8885a308d3u ^ nwords;
    for (size_t i = 0; i < nwords; i++) {
        h = (h ^ w[i]) * 0x9e3779b97f4a7c15u;
        h ^= h >> 32;
    }
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebu;
    h ^= h >> 31;
    return h;
}

uint64_t bx_bitset_hash(const bx_bitset *s)
{
    return bx_bits_hash(s->words, BX_BITSET_WORDS(s->nbits));
}
