/* Lowering's internal header (bx_ prefix): the tensors of a graph and
 * their names, and the partitions as passes see them, for the pass runner
 * (lower.c) and the writers that emit partitions as sub-models.
 *
 * One idea runs through it: a tensor is a *value*, (node, field), of the
 * node that makes it - a call, an input, a constant - with field -1 for a
 * tensor-typed node and the field index for a tuple-typed one.  Tuples
 * and projections make no tensor of their own: a projection of a call's
 * tuple is that call's field, and a field of a tuple node is whatever the
 * tuple was built from.  bx_names resolves every node to the values it
 * stands for once, in node order (each node's answer is built from those
 * of lower-numbered nodes, so nothing recurses), and names each value
 * once, so that every writer and pass calls one tensor by one name.
 * Only a projection of a field that is itself a tuple (a call returning
 * nested tuples) is a value of its own: its fields are (projection,
 * field). */
#ifndef BX_LOWER_IMPL_H
#define BX_LOWER_IMPL_H

#include <stdbool.h>

#include <byoc/error.h>
#include <byoc/graph.h>
#include <byoc/lower.h>
#include <byoc/partition.h>

#include "arena.h"

/* ---- values and names (names.c) ------------------------------------------ */

typedef struct bx_names bx_names;

/* Resolve and name every value of g.  NULL with err filled when out of
 * memory. */
bx_names *bx_names_build(const byoc_graph *g, byoc_error *err);
void bx_names_destroy(bx_names *n);

/* The name of tensor (node, field) - any way of referring to it: a
 * projection node, a field of a tuple node, the value itself - unique in
 * the model: the source name of the first node in node order that refers
 * to it and whose name no earlier value took (an ONNX tensor name, a
 * Relay variable; for a call's field, its first named projection), else
 * "byoc.N" or "byoc.N.F" after the node making it, with '_' appended
 * until no name of the graph is the same.  NULL when (node, field) is not
 * one tensor (a whole tuple, a field out of range).  The string lives as
 * long as n and the graph. */
const char *bx_value_name(bx_names *n, int node, int field);

/* The value (node, field) stands for, as *vnode and *vfield; false when
 * it is not one tensor. */
bool bx_value_canon(const bx_names *n, int node, int field, int *vnode, int *vfield);
/* A tuple-typed node: the node whose fields its fields are - a tuple node,
 * or the node making the tuple (a value: its fields are values) - else -1. */
int bx_value_tuple(const bx_names *n, int node);
/* The call, input or constant a value comes from: the node itself, or for
 * a projection that is a value, the call whose nested tuple it takes. */
int bx_value_root(const bx_names *n, int vnode);
/* Values are numbered densely in node and field order: the number of
 * value (vnode, vfield), or -1 when it is none; how many there are; and
 * the value of a number. */
int bx_value_slot(const bx_names *n, int vnode, int vfield);
int bx_value_count(const bx_names *n);
void bx_value_at(const bx_names *n, int slot, int *vnode, int *vfield);

/* ---- the partitions as passes see them (parts.c) --------------------------- */

/* What byoc_result_parts returns, with the names its tensors carry. */
typedef struct bx_lower_parts {
    bx_arena arena;
    bx_names *names;
    int nparts;
    byoc_lower_part *parts;     /* in execution order */
} bx_lower_parts;

/* The boundary tensors of every partition of r: inputs in order of first
 * use, outputs in node and field order (include/byoc/lower.h).  r may be
 * built by hand; NULL with err filled on a malformed result or when out
 * of memory. */
bx_lower_parts *bx_lower_parts_build(const byoc_result *r, byoc_error *err);
void bx_lower_parts_destroy(bx_lower_parts *lp);

/* r's parts: those r keeps (byoc_result_parts) when byoc_partition_graph
 * made it, else built into *own, which the caller destroys.  NULL with err
 * filled on failure. */
const bx_lower_parts *bx_result_lower_parts(const byoc_result *r, bx_lower_parts **own,
                                            byoc_error *err);

#endif
