/* Arena allocation.
 *
 * A list of blocks, each at least twice the size of the one before, so the
 * number of malloc calls is logarithmic in the bytes allocated.  Requests
 * larger than a block get a block of their own. */
#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"

struct bx_arena_block {
    bx_arena_block *next;
    size_t size, used;
    max_align_t data[];
};

enum { MIN_BLOCK = 4096 };

void bx_arena_init(bx_arena *a) { a->head = NULL; a->total = 0; }

void bx_arena_free(bx_arena *a)
{
    bx_arena_block *b = a->head;
    while (b) {
        bx_arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
    a->total = 0;
}

void *bx_arena_try_alloc(bx_arena *a, size_t size)
{
    const size_t align = sizeof(max_align_t);
    if (size > SIZE_MAX / 2 - align)
        return NULL;
    size = (size + align - 1) / align * align;
    if (size == 0)
        size = align;
    bx_arena_block *b = a->head;
    if (!b || b->size - b->used < size) {
        size_t want = b ? b->size * 2 : MIN_BLOCK;
        if (want < size)
            want = size;
        b = malloc(sizeof(*b) + want);
        if (!b && want > size) {    /* the doubling may ask too much */
            want = size > MIN_BLOCK ? size : MIN_BLOCK;
            b = malloc(sizeof(*b) + want);
        }
        if (!b)
            return NULL;
        b->size = want;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += size;
    a->total += size;
    memset(p, 0, size);
    return p;
}

void *bx_arena_alloc(bx_arena *a, size_t size)
{
    void *p = bx_arena_try_alloc(a, size);
    if (!p)
        bx_oom();
    return p;
}

void *bx_arena_memdup(bx_arena *a, const void *p, size_t size)
{
    void *q = bx_arena_alloc(a, size);
    if (size)
        memcpy(q, p, size);
    return q;
}

char *bx_arena_strndup(bx_arena *a, const char *s, size_t n)
{
    char *q = bx_arena_alloc(a, n + 1);
    memcpy(q, s, n);
    q[n] = 0;
    return q;
}

char *bx_arena_strdup(bx_arena *a, const char *s)
{
    return bx_arena_strndup(a, s, strlen(s));
}

char *bx_arena_printf(bx_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        bx_die("bad format");
    char *q = bx_arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(q, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return q;
}
