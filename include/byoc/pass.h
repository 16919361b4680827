/* Lowering passes as the registry holds them: a pass's function type, the
 * point of the pipeline it runs at, and the table entry byocc writes for
 * `lower NAME;` in a target.
 *
 * This header is small so that <byoc/registry.h> can include it; the
 * context a pass is given (byoc_lower_ctx) and the functions that register
 * and run passes are in <byoc/lower.h>, which a pass's author includes. */
#ifndef BYOC_PASS_H
#define BYOC_PASS_H

#include <byoc/error.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum byoc_pass_point {
    BYOC_PASS_BEFORE,          /* once, before any partition */
    BYOC_PASS_PARTITION,       /* once per partition of the target */
    BYOC_PASS_AFTER            /* once, after every partition */
} byoc_pass_point;
/* "before", "partition", "after"; "?" for anything else. */
const char *byoc_pass_point_name(byoc_pass_point p);

/* What a pass sees; defined in <byoc/lower.h>. */
typedef struct byoc_lower_ctx byoc_lower_ctx;

/* A pass: 0, or nonzero with err filled.  A function type, as
 * byoc_extern_pred_fn is, so that generated headers declare the author's
 * functions with it (`byoc_pass_fn my_pass;`). */
typedef int byoc_pass_fn(const byoc_lower_ctx *cx, void *user, byoc_error *err);

/* A pass as generated code, byoc_target_add_pass and byoc_lower_options
 * list it. */
typedef struct byoc_pass_decl {
    const char *name;
    byoc_pass_point point;
    byoc_pass_fn *fn;
    void *user;                /* handed to fn; NULL in generated tables */
} byoc_pass_decl;

#ifdef __cplusplus
}
#endif
#endif
