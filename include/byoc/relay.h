/* TVM Relay text: reading a module into a graph, writing a graph out.
 *
 * The reader takes what TVM prints for a dataflow module: the version
 * header, `def @main(%x: Tensor[(1, 3, 224, 224), float32], ...) -> T`,
 * `%N = op(args, attr=value, ...);` statements, tuples, projections,
 * scalar literals (0f, 1e-05f, 50257i64, -1, True) and
 * `meta[relay.Constant][i]` with or without a ty= comment; and partitioned
 * modules as TVM (and `byoc partition -f relay`) prints them: any number of
 * `def @name(params, Attr=value, ...)` globals and `fn (...) { ... }`
 * literals, called from @main, which the reader inlines back into one
 * flat dataflow graph (a note per inlined call says which function and
 * which Compiler= or Composite= it carried).  Types written in the text
 * are checked against inference.  Anything else is an error with
 * file:line:col. */
#ifndef BYOC_RELAY_H
#define BYOC_RELAY_H

#include <stddef.h>
#include <stdio.h>

#include <byoc/error.h>
#include <byoc/graph.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Read a file; NULL with err filled on any error.  The graph is typed. */
byoc_graph *byoc_relay_read(const byoc_registry *reg, const char *path, byoc_error *err);
/* The same from memory; `name` is used in messages. */
byoc_graph *byoc_relay_read_string(const byoc_registry *reg, const char *text, size_t len,
                                   const char *name, byoc_error *err);
/* The same with named dimensions bound and @main's parameter shapes given
 * first (opts may be NULL; see byoc_read_options in byoc/graph.h). */
byoc_graph *byoc_relay_read_with(const byoc_registry *reg, const char *path,
                                 const byoc_read_options *opts, byoc_error *err);
byoc_graph *byoc_relay_read_string_with(const byoc_registry *reg, const char *text, size_t len,
                                        const char *name, const byoc_read_options *opts,
                                        byoc_error *err);
/* Write g as Relay text that byoc_relay_read reads back into the same
 * graph (constants' tensor values aside, which Relay keeps in a metadata
 * section byoc does not write).  Returns 0, or -1 with err filled. */
int byoc_relay_write(const byoc_graph *g, FILE *f, byoc_error *err);
/* Print a type the way Relay does: Tensor[(1, 3), float32]. */
size_t byoc_relay_format_type(const byoc_graph *g, const byoc_tensor_type *t, char *buf,
                              size_t size);
/* Print a tuple type, nested tuples included: (T1, (T2, T3)), and a tuple
 * of one field as (T,).  Like snprintf, returns the length of the whole
 * text, which may be more than fits in size. */
size_t byoc_relay_format_tuple_type(const byoc_graph *g, const byoc_tuple_type *t, char *buf,
                                    size_t size);
/* A node's type: its tensor type, or its tuple type. */
size_t byoc_relay_format_node_type(const byoc_graph *g, int node, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
