/* The byoc command's bundled targets: the Relay ops, the devices and the
 * seven real backends of examples/, compiled from their .byoc files. */
#ifndef BYOC_CLI_BUNDLED_H
#define BYOC_CLI_BUNDLED_H

#include <byoc/byoc.h>

/* Register them into reg: the Relay ops first, so that every model reader
 * sees them, then the devices (cuda's targets are the default set), then
 * the backends, the GPU ones in Collage's order.  0, or -1 with *err set. */
int bundled_register(byoc_registry *reg, byoc_error *err);

#endif
