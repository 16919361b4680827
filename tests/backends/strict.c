/* The generated code of every bundled backend spec, compiled with
 * -std=c11 -Wall -Wextra -Werror -pedantic (STRICT_CFLAGS), as a backend
 * team's build would compile it; then registered, each with its imports. */
#include <stdio.h>
#include <stdlib.h>

#include <byoc/byoc.h>

#include "cmsisnn.h"
#include "cublas.h"
#include "cudnn.h"
#include "cutlass.h"
#include "devices.h"
#include "dnnl.h"
#include "ethosu.h"
#include "tensorrt.h"

int main(void)
{
    byoc_registry *reg = byoc_registry_create();
    byoc_error err;
    int (*const fns[])(byoc_registry *, byoc_error *) = {
        byoc_register_relay, byoc_register_devices, byoc_register_tensorrt,
        byoc_register_cutlass, byoc_register_cudnn, byoc_register_cublas,
        byoc_register_dnnl, byoc_register_cmsisnn, byoc_register_ethosu,
    };
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (fns[i](reg, &err) != 0) {
            fprintf(stderr, "%s\n", err.msg);
            byoc_registry_destroy(reg);
            return EXIT_FAILURE;
        }
    byoc_registry_destroy(reg);
    return EXIT_SUCCESS;
}
