/* The lowering passes of tests/plugin/testnpu.byoc: a plugin carries its
 * passes as it carries its predicates, in the library beside the tables
 * that name them.  They only check that they are called as declared. */
#include "testnpu.h"

int testnpu_emit(const byoc_lower_ctx *cx, void *user, byoc_error *err)
{
    (void)user;
    (void)err;
    return cx->point == BYOC_PASS_PARTITION && cx->part ? 0 : 1;
}

int testnpu_link(const byoc_lower_ctx *cx, void *user, byoc_error *err)
{
    (void)user;
    (void)err;
    return cx->point == BYOC_PASS_AFTER && !cx->part ? 0 : 1;
}
