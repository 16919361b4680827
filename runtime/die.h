/* Internal errors: a broken invariant, not a bad input.  Prints where and
 * aborts, the way QBE's die() does; user errors never come here. */
#ifndef BX_DIE_H
#define BX_DIE_H

_Noreturn void bx_die_at(const char *file, int line, const char *msg);
#define bx_die(msg) bx_die_at(__FILE__, __LINE__, (msg))
#define bx_assert(c) ((c) ? (void)0 : bx_die_at(__FILE__, __LINE__, "assertion failed: " #c))

#endif
