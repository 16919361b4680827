/* Files the ONNX writers share: external weights.  Internal. */
#ifndef BX_ONNX_FILES_H
#define BX_ONNX_FILES_H

#include <stdbool.h>

#include <byoc/error.h>

#include "arena.h"
#include "hash.h"

/* Make the external data file `location` (relative to data_dir, as ONNX
 * requires) readable from out_dir under its base name: a hard link, else a
 * symbolic one, nothing when it is the same file already.  links maps
 * locations already linked to their new names (in a).  The new location
 * goes to *linked, and *made (may be NULL) says whether a link was made.
 * A location that is absolute or climbs out of data_dir
 * is refused, as ONNX Runtime refuses it. */
int bx_onnx_link_data(bx_arena *a, bx_hash *links, const char *data_dir, const char *out_dir,
                      const char *location, const char **linked, bool *made, byoc_error *err);
#ifdef HAVE_ONNX
struct Onnx__ModelProto;
struct byoc_graph;
/* The ONNX model g was read from, read again from path (for what the graph
 * does not keep: node names, attributes, initializers' data), after
 * checking it is that model (size and hash); NULL with err filled (located
 * at path) otherwise.  Free with onnx__model_proto__free_unpacked. */
struct Onnx__ModelProto *bx_onnx_reread(const struct byoc_graph *g, const char *path,
                                         byoc_error *err);
#endif
/* Names the split writer makes (plan.json, pN_TARGET.onnx), which a
 * linked data file must not take. */
bool bx_onnx_reserved_name(const char *base);

#endif
