/* Printing pieces of Relay text: types, attribute values, literals and the
 * right-hand side of a statement.
 *
 * relay_write.c writes a plain dataflow module with these, and
 * writers/relay_module.c a partitioned one (global functions, composite
 * `fn` literals), so both print a node exactly the same way.  What a
 * reference to another node looks like depends on the function it sits in
 * (a statement number, a parameter, a meta constant), so the statement
 * printer asks the caller through a callback.  Internal (bx_ prefix); the
 * helpers live in libbyocpart so that tests of the partitioner's modules
 * can link them. */
#ifndef BX_RELAY_PRINT_H
#define BX_RELAY_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include <byoc/error.h>
#include <byoc/graph.h>
#include <byoc/value.h>

/* Is the type of the node (every field, for tuple-typed ones) known? */
bool bx_relay_type_known(const byoc_graph *g, int node);
/* The node's type: Tensor[(1, 3), float32], or (T1, T2) for tuples. */
void bx_relay_put_type(FILE *f, const byoc_graph *g, int node);
/* The same as a string to free. */
char *bx_relay_node_type_str(const byoc_graph *g, int node);
/* The shortest decimal that reads back as d (Relay and JSON both take it). */
void bx_relay_put_float(FILE *f, double d);
/* An attribute value as Relay prints it: True, 3, 0.5f, "NCHW", [1, 1]. */
void bx_relay_put_value(FILE *f, const byoc_value *v);

/* A scalar constant whose value is known is written as a literal (1f,
 * 50257i64, True) rather than as a meta constant. */
bool bx_relay_is_literal(const byoc_graph *g, int node);
void bx_relay_put_literal(FILE *f, const byoc_graph *g, int node);
/* A constant as an argument: its literal, or meta[relay.Constant][i] with
 * its type, numbering constants as first met (meta[node], -1 until then;
 * *nmeta counts them). */
void bx_relay_put_const_ref(FILE *f, const byoc_graph *g, int node, int *meta, int *nmeta);

/* Write how node `node` is referred to from the current function. */
typedef void (*bx_relay_ref_fn)(FILE *f, int node, void *ctx);
/* The expression of a call, tuple or projection: `op(args, attr=v)`,
 * `(a, b)`, `%3.0`; attributes equal to their default are left out, as
 * TVM leaves them out.  Arguments are written with ref. */
void bx_relay_put_expr(FILE *f, const byoc_graph *g, int node, bx_relay_ref_fn ref,
                       void *ctx);

/* Relay-safe names for the graph's inputs, indexed by node (NULL for
 * other nodes): identifiers, unsafe characters become '_', clashes get a
 * numeric suffix.  Free with bx_relay_free_names. */
char **bx_relay_input_names(const byoc_graph *g);
void bx_relay_free_names(const byoc_graph *g, char **names);

/* Can g be written as Relay at all: an output, no opaque calls, typed
 * inputs?  0, or -1 with err naming what is missing. */
int bx_relay_check_writable(const byoc_graph *g, byoc_error *err);

#endif
