/* The byoc command's bundled targets (bundled.h). */
#include "bundled.h"

#include "cmsisnn.h"
#include "cublas.h"
#include "cudnn.h"
#include "cutlass.h"
#include "devices.h"
#include "dnnl.h"
#include "ethosu.h"
#include "tensorrt.h"

int bundled_register(byoc_registry *reg, byoc_error *err)
{
    int (*const fns[])(byoc_registry *, byoc_error *) = {
        byoc_register_relay, byoc_register_devices, byoc_register_tensorrt,
        byoc_register_cutlass, byoc_register_cudnn, byoc_register_cublas,
        byoc_register_dnnl, byoc_register_cmsisnn, byoc_register_ethosu,
    };
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (fns[i](reg, err) != 0)
            return -1;
    return 0;
}
