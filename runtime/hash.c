/* String-keyed hash table (see hash.h).
 *
 * The slot array holds indices into a dense entry array; the entry array is
 * what gives insertion order for free and keeps probing cache-friendly. */
#include "hash.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"

void bx_hash_init(bx_hash *t) { memset(t, 0, sizeof(*t)); }

void bx_hash_free(bx_hash *t)
{
    free(t->slots);
    free(t->entries);
    memset(t, 0, sizeof(*t));
}

uint64_t bx_hash_str(const char *s)
{
    /* Eight bytes a step: keys are often long (kernel signatures run to
     * hundreds of bytes), and a byte-at-a-time hash was the partitioner's
     * largest single cost.  Multiply-xorshift mixing per word, the length
     * folded in, and a final avalanche. */
    size_t n = strlen(s);
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)n;
    const unsigned char *p = (const unsigned char *)s;
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    uint64_t tail = 0;
    for (size_t i = 0; i < n; i++)
        tail |= (uint64_t)p[i] << (8 * i);
    h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 29;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 32;
    return h;
}

static size_t find(const bx_hash *t, const char *key, uint64_t h)
{
    size_t mask = t->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        uint32_t s = t->slots[i];
        if (s == 0)
            return i;
        const struct bx_hash_entry *e = &t->entries[s - 1];
        if (e->h == h && strcmp(e->key, key) == 0)
            return i;
    }
}

static void grow(bx_hash *t)
{
    size_t cap = t->cap ? t->cap * 2 : 16;
    uint32_t *slots = calloc(cap, sizeof(*slots));
    if (!slots)
        bx_oom();
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    for (size_t k = 0; k < t->n; k++) {
        size_t i = (size_t)t->entries[k].h & (cap - 1);
        while (slots[i])
            i = (i + 1) & (cap - 1);
        slots[i] = (uint32_t)(k + 1);
    }
}

void *bx_hash_get(const bx_hash *t, const char *key)
{
    if (t->n == 0)
        return NULL;
    size_t i = find(t, key, bx_hash_str(key));
    return t->slots[i] ? t->entries[t->slots[i] - 1].val : NULL;
}

void *bx_hash_put(bx_hash *t, const char *key, void *val)
{
    if ((t->n + 1) * 2 > t->cap)
        grow(t);
    uint64_t h = bx_hash_str(key);
    size_t i = find(t, key, h);
    if (t->slots[i]) {
        struct bx_hash_entry *e = &t->entries[t->slots[i] - 1];
        void *old = e->val;
        e->val = val;
        return old;
    }
    if (t->n == t->entries_cap) {
        size_t cap = t->entries_cap ? t->entries_cap * 2 : 16;
        struct bx_hash_entry *es = realloc(t->entries, cap * sizeof(*es));
        if (!es)
            bx_oom();
        t->entries = es;
        t->entries_cap = cap;
    }
    t->entries[t->n] = (struct bx_hash_entry){key, h, val};
    t->slots[i] = (uint32_t)(++t->n);
    return NULL;
}
