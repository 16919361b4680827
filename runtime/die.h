/* Internal errors: a broken invariant, not a bad input.  Prints where and
 * aborts, the way QBE's die() does; user errors never come here.
 *
 * Running out of memory is neither: it is an error the caller hears of.
 * A public entry point that allocates opens a guard (BX_OOM_GUARD) and
 * reports "out of memory" through its byoc_error when bx_oom() unwinds
 * to it; the search has a finer guard of its own that frees what it holds
 * (search.c).  What the interrupted call had allocated is not returned:
 * after running out of memory the process should end, cleanly.  Guards
 * nest, one chain per thread; bx_oom() with no guard open prints the
 * error and exits with status 1, never aborts. */
#ifndef BX_DIE_H
#define BX_DIE_H

#include <setjmp.h>

_Noreturn void bx_die_at(const char *file, int line, const char *msg);
#define bx_die(msg) bx_die_at(__FILE__, __LINE__, (msg))
#define bx_assert(c) ((c) ? (void)0 : bx_die_at(__FILE__, __LINE__, "assertion failed: " #c))

typedef struct bx_oom_guard {
    jmp_buf env;
    struct bx_oom_guard *outer;
} bx_oom_guard;

_Noreturn void bx_oom(void);
void bx_oom_open(bx_oom_guard *g);
void bx_oom_close(bx_oom_guard *g);

/* In a function returning VALUE on error with a byoc_error *ERR:
 *     bx_oom_guard guard;
 *     BX_OOM_GUARD(&guard, err, NULL);
 *     ... work ...
 *     bx_oom_close(&guard);
 * Only locals not changed after the guard may be read on the way out, so
 * the macro returns at once. */
#define BX_OOM_GUARD(g, err, value)                                        \
    do {                                                                   \
        if (setjmp((g)->env)) {                                            \
            bx_oom_close(g);                                               \
            bx_error_set((err), NULL, 0, 0, "out of memory");              \
            return value;                                                  \
        }                                                                  \
        bx_oom_open(g);                                                    \
    } while (0)

#endif
