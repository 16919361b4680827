/* Internal errors (see die.h). */
#include "die.h"

#include <stdio.h>
#include <stdlib.h>

void bx_die_at(const char *file, int line, const char *msg)
{
    fprintf(stderr, "byoc: internal error at %s:%d: %s\n", file, line, msg);
    fflush(stderr);
    abort();
}
