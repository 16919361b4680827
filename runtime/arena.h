/* Arena allocation: many small objects freed in one call.
 *
 * The compiler allocates its whole AST here, the runtime its graphs. Blocks
 * grow geometrically; nothing is freed singly.  Internal (bx_ prefix: not
 * exported from libbyoc). */
#ifndef BX_ARENA_H
#define BX_ARENA_H

#include <stddef.h>

typedef struct bx_arena_block bx_arena_block;
typedef struct bx_arena {
    bx_arena_block *head;
    size_t total;       /* bytes handed out, for statistics */
} bx_arena;

void bx_arena_init(bx_arena *a);
void bx_arena_free(bx_arena *a);
/* Zeroed memory aligned for any object; aborts when out of memory. */
void *bx_arena_alloc(bx_arena *a, size_t size);
/* The same, NULL when out of memory (or size is too large). */
void *bx_arena_try_alloc(bx_arena *a, size_t size);
void *bx_arena_memdup(bx_arena *a, const void *p, size_t size);
char *bx_arena_strdup(bx_arena *a, const char *s);
char *bx_arena_strndup(bx_arena *a, const char *s, size_t n);
/* printf into the arena. */
char *bx_arena_printf(bx_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#define BX_NEW(a, T) ((T *)bx_arena_alloc((a), sizeof(T)))
#define BX_NEWN(a, T, n) ((T *)bx_arena_alloc((a), sizeof(T) * (size_t)(n)))

#endif
