/* A plugin that refines byoc's standard cuda device:
 *     byoc --plugin ./.libs/libmygpu.so partition model.relay -t mygpu_gemm
 * byoc_register_mygpu first registers what mygpu.byoc imports (the Relay
 * ops from libbyoc, devices.byoc from libbyoc-backends); the byoc command
 * has registered both already, and registering a module again changes
 * nothing, so only mygpu_gemm is added. */
#include <byoc/plugin.h>

#include "mygpu.h"

BYOC_PLUGIN_EXPORT int byoc_plugin_register(byoc_registry *reg, byoc_error *err)
{
    return byoc_register_mygpu(reg, err);
}
