/* The entry point of the test plugins (include/byoc/plugin.h): register
 * the byocc-generated module PLUGIN_MODULE, set by the build to testnpu
 * or dupnpu.  This is all a plugin needs besides the generated code. */
#include <byoc/plugin.h>

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(a) #a
#define STR(a) STR_(a)

#include STR(PLUGIN_MODULE.h)

int byoc_plugin_register(byoc_registry *reg, byoc_error *err)
{
    return CAT(byoc_register_, PLUGIN_MODULE)(reg, err);
}
