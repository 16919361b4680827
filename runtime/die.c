/* Internal errors and running out of memory (see die.h). */
#include "die.h"

#include <stdio.h>
#include <stdlib.h>

/* The innermost open guard of this thread: the one piece of state the
 * library keeps outside its objects, and only while a call is running. */
static _Thread_local bx_oom_guard *innermost;

void bx_die_at(const char *file, int line, const char *msg)
{
    fprintf(stderr, "byoc: internal error at %s:%d: %s\n", file, line, msg);
    fflush(stderr);
    abort();
}

void bx_oom_open(bx_oom_guard *g)
{
    g->outer = innermost;
    innermost = g;
}

void bx_oom_close(bx_oom_guard *g)
{
    if (innermost == g)
        innermost = g->outer;
}

void bx_oom(void)
{
    bx_oom_guard *g = innermost;
    if (g)
        longjmp(g->env, 1);
    fputs("byoc: error: out of memory\n", stderr);
    fflush(stderr);
    exit(1);
}
