/* The same backend as a plugin for the byoc command:
 *     byoc --plugin ./.libs/libmynpu.so partition model.relay -t mynpu_kernels
 * One function, the entry point of <byoc/plugin.h>, registers what byocc
 * generated from mynpu.byoc. */
#include <byoc/plugin.h>

#include "mynpu.h"

BYOC_PLUGIN_EXPORT int byoc_plugin_register(byoc_registry *reg, byoc_error *err)
{
    return byoc_register_mynpu(reg, err);
}
