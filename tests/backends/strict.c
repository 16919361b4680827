/* The generated code of every bundled backend spec, compiled with
 * -std=c11 -Wall -Wextra -Werror -pedantic (STRICT_CFLAGS), as a backend
 * team's build would compile it, with cli/bundled.c; then
 * registered, each with its imports. */
#include <stdio.h>
#include <stdlib.h>

#include <byoc/byoc.h>

#include "bundled.h"

int main(void)
{
    byoc_registry *reg = byoc_registry_create();
    byoc_error err;
    int rc = bundled_register(reg, &err);
    if (rc != 0)
        fprintf(stderr, "%s\n", err.msg);
    byoc_registry_destroy(reg);
    return rc == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
