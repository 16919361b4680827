/* A plugin for tests/cli/select.sh that registers no targets and only
 * chooses the default device, as a backend's entry point would choose its
 * own after registering it (include/byoc/registry.h): the device named by
 * $BYOC_TEST_DEFAULT_DEVICE, or cpu. */
#include <stdlib.h>

#include <byoc/plugin.h>

BYOC_PLUGIN_EXPORT int byoc_plugin_register(byoc_registry *reg, byoc_error *err)
{
    const char *d = getenv("BYOC_TEST_DEFAULT_DEVICE");
    return byoc_registry_set_default_device(reg, d ? d : "cpu", err);
}
