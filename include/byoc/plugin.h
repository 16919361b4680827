/* Plugins: targets loaded at run time from a shared library.
 *
 * A plugin is a shared library built from one or more byocc-generated
 * FILE.c files plus one function, the entry point, that registers them:
 *
 *     #include <byoc/plugin.h>
 *     #include "mynpu.h"
 *
 *     BYOC_PLUGIN_EXPORT int byoc_plugin_register(byoc_registry *reg, byoc_error *err)
 *     {
 *         return byoc_register_mynpu(reg, err);
 *     }
 *
 * Build it against libbyoc (e.g. `libtool --mode=link cc -module
 * -avoid-version ... $(pkg-config --libs byoc)`) and load it with
 * `byoc --plugin ./libmynpu.so COMMAND ...`.  A host (the byoc command, or
 * any program using libbyoc) dlopen()s the library, looks up
 * BYOC_PLUGIN_ENTRY with dlsym() and calls it once with its registry,
 * after its own modules are registered.
 *
 * The contract:
 *   - return 0 on success; on failure return nonzero and fill err (the
 *     byoc_register_* functions do both), leaving no state behind that the
 *     host must free;
 *   - register only through byoc_registry_add (the generated
 *     byoc_register_* functions); the registry refuses a name another
 *     module already registered, and the host reports that error;
 *   - after registering, it may make one of its devices the default (the
 *     device whose targets are searched when none are named) with
 *     byoc_registry_set_default_device (<byoc/registry.h>); the last
 *     plugin to do so wins, and the host's own choice (byoc
 *     --default-device) comes after both;
 *   - the library must stay loaded while the registry is in use: the
 *     registry points into its tables (the host never dlclose()s it before
 *     byoc_registry_destroy);
 *   - ABI: generated tables record the BYOC_ABI_VERSION they were made for
 *     and byoc_registry_add refuses another, so a plugin built against an
 *     incompatible libbyoc fails to register with a clear error rather
 *     than misbehaving.  An entry point that registers hand-written tables
 *     should check `BYOC_ABI_VERSION` (of <byoc/version.h>, at compile
 *     time) the same way. */
#ifndef BYOC_PLUGIN_H
#define BYOC_PLUGIN_H

#include <byoc/error.h>
#include <byoc/registry.h>
#include <byoc/version.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The name of the entry point, for dlsym(). */
#define BYOC_PLUGIN_ENTRY "byoc_plugin_register"

/* The entry point's type: register the plugin's modules into reg; 0 on
 * success, nonzero with err filled on failure. */
typedef int byoc_plugin_fn(byoc_registry *reg, byoc_error *err);

/* Mark the entry point visible even under -fvisibility=hidden. */
#if defined(__GNUC__) || defined(__clang__)
#define BYOC_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define BYOC_PLUGIN_EXPORT
#endif

/* A declaration for the definition to match, so the compiler checks the
 * entry point's type: a plugin includes this header and defines it. */
BYOC_PLUGIN_EXPORT byoc_plugin_fn byoc_plugin_register;

#ifdef __cplusplus
}
#endif
#endif
