/* The graph: what libbyoc partitions.
 *
 * Nodes are inputs, constants, operator calls, tuples and projections,
 * numbered densely in the order they are added; since a node can only use
 * nodes that exist, that order is topological.  Every node carries a type
 * (a tensor type, or a tuple of tensor types).  Calls are checked against
 * the op declarations of the registry: unknown attributes and values of the
 * wrong type are errors, and absent attributes take their defaults. */
#ifndef BYOC_GRAPH_H
#define BYOC_GRAPH_H

#include <byoc/error.h>
#include <byoc/registry.h>
#include <byoc/value.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BYOC_MAX_RANK 8
/* Limits that bound what untrusted input can make, far above real models
 * (a decoder returns about a hundred tensors, a concatenate takes a few
 * hundred, tuples nest two or three deep): the fields of a tuple and the
 * arguments of a call, and how deep tuple types nest in tuple types.
 * Readers report a located error past them; the graph API fills err. */
#define BYOC_MAX_FIELDS 1000000
#define BYOC_MAX_TUPLE_DEPTH 64
/* How deep subgraphs nest (control flow: an If in a Loop's body is at
 * depth 3, the main graph being depth 1); real models nest two to five
 * deep.  Readers report a located error past it. */
#define BYOC_MAX_GRAPH_DEPTH 32
/* A dimension is a size >= 0, BYOC_DIM_UNKNOWN, or a symbol (<= -2), whose
 * name byoc_graph_symbol gives. */
#define BYOC_DIM_UNKNOWN (-1)
#define BYOC_DIM_SYMBOL(id) (-2 - (int64_t)(id))

typedef struct byoc_tensor_type {
    byoc_dtype dtype;       /* BYOC_DT_VOID: not known */
    int rank;               /* -1: not known */
    int64_t dims[BYOC_MAX_RANK];
} byoc_tensor_type;

/* The type of a tuple.  Field i is a tensor of type fields[i], or, when sub
 * is not NULL and sub[i] is not, itself a tuple of type *sub[i]; fields[i]
 * is then the unknown type (rank -1), so code that reads only tensor fields
 * sees a field it knows nothing about.  depth is 1 for a tuple of tensors,
 * else one more than its deepest field's; it is at most
 * BYOC_MAX_TUPLE_DEPTH. */
typedef struct byoc_tuple_type {
    int n;
    const byoc_tensor_type *fields;
    const struct byoc_tuple_type *const *sub;
    int depth;
} byoc_tuple_type;

typedef enum byoc_node_kind {
    BYOC_N_INPUT,
    BYOC_N_CONST,
    BYOC_N_CALL,
    BYOC_N_TUPLE,
    BYOC_N_PROJ
} byoc_node_kind;

typedef struct byoc_graph byoc_graph;

/* The graph reads op declarations from reg, which must outlive it. */
byoc_graph *byoc_graph_create(const byoc_registry *reg);
void byoc_graph_destroy(byoc_graph *g);
const byoc_registry *byoc_graph_registry(const byoc_graph *g);

/* ---- building ----------------------------------------------------------- */
/* Each returns the new node's id, or -1 with err filled. */
int byoc_graph_add_input(byoc_graph *g, const char *name,
                         const byoc_tensor_type *t, byoc_error *err);
/* value may be NULL (weights not loaded); it is copied. */
int byoc_graph_add_const(byoc_graph *g, const byoc_tensor_type *t,
                         const byoc_value *value, byoc_error *err);
/* A call of op `name`; attributes start at their defaults.  Calls and
 * tuples take at most BYOC_MAX_FIELDS arguments; a tuple whose fields are
 * tuples nests at most BYOC_MAX_TUPLE_DEPTH deep. */
int byoc_graph_add_call(byoc_graph *g, const char *op, const int *args,
                        int nargs, byoc_error *err);
int byoc_graph_add_tuple(byoc_graph *g, const int *fields, int n,
                         byoc_error *err);
int byoc_graph_add_proj(byoc_graph *g, int tuple, int index, byoc_error *err);
/* Set attribute `name` of call `node`; the value is checked and copied. */
int byoc_graph_set_attr(byoc_graph *g, int node, const char *name,
                        const byoc_value *v, byoc_error *err);
/* Set the type of a tensor-typed node, or of a tuple-typed node (n fields). */
void byoc_graph_set_type(byoc_graph *g, int node, const byoc_tensor_type *t);
int byoc_graph_set_tuple_type(byoc_graph *g, int node,
                              const byoc_tensor_type *fields, int n,
                              byoc_error *err);
/* An opaque call: an op the registry does not know (an ONNX op with no
 * mapping).  It has no attributes and no shape rule; its type is whatever
 * the source declares, and only `supports *` targets take it. */
int byoc_graph_add_opaque(byoc_graph *g, const char *op, const int *args,
                          int nargs, byoc_error *err);
/* The graph's result: one node (a tuple node for several results). */
int byoc_graph_set_output(byoc_graph *g, int node, byoc_error *err);
/* A name from the source for a node ("%42", an ONNX tensor name); inputs
 * are named when added.  The string is copied. */
void byoc_graph_set_name(byoc_graph *g, int node, const char *name);
/* Where the node is in its source file; 0 when not known. */
void byoc_graph_set_loc(byoc_graph *g, int node, int line, int col);
/* The source file's name, for messages; copied. */
void byoc_graph_set_source(byoc_graph *g, const char *file);
/* Intern a symbolic dimension name; returns its id. */
int byoc_graph_symbol(byoc_graph *g, const char *name);
const char *byoc_graph_symbol_name(const byoc_graph *g, int id);
/* The symbolic dimensions the model names, ids 0 to count - 1. */
int byoc_graph_symbol_count(const byoc_graph *g);
/* The size a reader bound symbol id to (byoc_read_options), or -1 when the
 * dimension stayed free. */
int64_t byoc_graph_symbol_value(const byoc_graph *g, int id);
/* How many model nodes the reader computed at load instead of adding
 * (ONNX shape arithmetic on known shapes and constants): they cost
 * nothing when the model runs and are not placed. */
long byoc_graph_folded_count(const byoc_graph *g);

/* ---- sizes fixed before reading ------------------------------------------
 * What ONNX Runtime's free-dimension overrides do: a model's named free
 * dimensions (ONNX dim_param, Relay's named dims) bound to sizes, and whole
 * input shapes given, before the reader types the graph, so that every
 * shape computed from them is known.  Readers take these through their
 * *_with entry points (byoc/onnx.h, byoc/relay.h). */
typedef struct byoc_dim_binding {
    const char *name;           /* the dimension's name in the model */
    int64_t value;              /* >= 0 */
} byoc_dim_binding;

typedef struct byoc_input_shape {
    const char *input;          /* a graph input's name */
    int rank;                   /* 0 to BYOC_MAX_RANK */
    int64_t dims[BYOC_MAX_RANK]; /* each >= 0 */
} byoc_input_shape;

typedef struct byoc_read_options {
    const byoc_dim_binding *dims;
    size_t ndims;
    const byoc_input_shape *shapes;
    size_t nshapes;
    /* ONNX only: quantized 2-D convolutions and pools laid out NHWC
     * (kernels HWIO, depthwise HWOI), with the transposes at the edges of
     * the quantized region: what TVM's ConvertLayout pass made of an ONNX
     * model before partition_for_cmsisnn or partition_for_ethosu, whose
     * kernels take only that layout.  Off: ONNX's NCHW, as TVM's frontend
     * gives. */
    bool quantized_nhwc;
} byoc_read_options;

/* ---- reading ------------------------------------------------------------ */
int byoc_graph_node_count(const byoc_graph *g);
/* The result node, or -1 when none was set. */
int byoc_graph_output(const byoc_graph *g);
const char *byoc_graph_source(const byoc_graph *g);
/* The nodes that use `node`, in increasing id order.  Computed on first
 * use after the graph last changed. */
int byoc_node_consumer_count(const byoc_graph *g, int node);
int byoc_node_consumer(const byoc_graph *g, int node, int i);
/* CALL: the op's name, for opaque calls too; NULL for other nodes. */
const char *byoc_node_op_name(const byoc_graph *g, int node);
bool byoc_node_is_opaque(const byoc_graph *g, int node);
int byoc_node_line(const byoc_graph *g, int node);
int byoc_node_col(const byoc_graph *g, int node);
byoc_node_kind byoc_node_kind_of(const byoc_graph *g, int node);
/* CALL: its op; otherwise NULL. */
const byoc_op_decl *byoc_node_op(const byoc_graph *g, int node);
/* CALL args, TUPLE fields, PROJ's tuple (one arg). */
int byoc_node_arg_count(const byoc_graph *g, int node);
int byoc_node_arg(const byoc_graph *g, int node, int i);
/* PROJ: the field index. */
int byoc_node_proj_index(const byoc_graph *g, int node);
/* The node's name: an input's, or one set with byoc_graph_set_name;
 * NULL when it has none. */
const char *byoc_node_name(const byoc_graph *g, int node);
/* CALL: attribute value (NONE when absent); NULL if the op has no such
 * attribute. */
const byoc_value *byoc_node_attr(const byoc_graph *g, int node, const char *name);
const byoc_value *byoc_node_attr_at(const byoc_graph *g, int node, int i);
/* CONST: its value, or NULL when not known. */
const byoc_value *byoc_node_const_value(const byoc_graph *g, int node);
/* Tuple-typed nodes: number of fields; -1 for tensor-typed ones. */
int byoc_node_field_count(const byoc_graph *g, int node);
/* The tensor type of field `field` (-1: the node itself if tensor-typed);
 * for a field that is itself a tuple, the unknown type. */
const byoc_tensor_type *byoc_node_type(const byoc_graph *g, int node, int field);
/* Tuple-typed nodes: the whole type, nested tuples included; NULL for
 * tensor-typed ones. */
const byoc_tuple_type *byoc_node_tuple_type(const byoc_graph *g, int node);

/* Notes left by readers and inference: ops with no mapping that became
 * opaque calls, nodes left untyped, types that disagree.  In order. */
int byoc_graph_note_count(const byoc_graph *g);
const char *byoc_graph_note(const byoc_graph *g, int i);

/* ---- subgraphs -------------------------------------------------------------- */
/* Control flow a reader keeps (ONNX If, Loop, Scan) is one call holding
 * its subgraphs - the branches, the loop body - each a graph of its own,
 * under the name of the attribute it came from ("then_branch", "body").
 * A subgraph's inputs are its formal inputs, then the values of enclosing
 * graphs it reads; the ONNX reader gives it the enclosing graph's
 * symbolic dimensions under the same ids.  The partitioner does not look inside: it places the
 * call as one node, as any opaque call. */
/* Give sub to call `node` of g, under `name` (copied): g owns it from
 * then on and destroys it with itself.  -1 with err filled, sub not taken,
 * when node is not a call, sub is already held or is g or a graph holding
 * g, or the nesting would pass BYOC_MAX_GRAPH_DEPTH. */
int byoc_graph_add_subgraph(byoc_graph *g, int node, const char *name,
                            byoc_graph *sub, byoc_error *err);
/* The subgraphs of `node`, in the order given; 0 for nodes with none. */
int byoc_node_subgraph_count(const byoc_graph *g, int node);
/* Subgraph i of `node`, and its attribute name; NULL out of range. */
const byoc_graph *byoc_node_subgraph(const byoc_graph *g, int node, int i);
const char *byoc_node_subgraph_name(const byoc_graph *g, int node, int i);
/* The graph holding g's host node, or NULL for a main graph. */
const byoc_graph *byoc_graph_parent(const byoc_graph *g);

/* ---- types ---------------------------------------------------------------- */
/* Infer the type of every call, tuple and projection from its inputs with
 * the shape rule its op declares.  A type already set on a call (Relay's
 * ty= comments, ONNX value_info) is checked against the inferred one and a
 * difference is an error (-1, err names the node).  A node whose type
 * cannot be inferred - an unknown rule, inputs of unknown type, attributes
 * the rule cannot use - keeps an unknown type and a reason; it is not an
 * error.  Returns 0, or -1. */
int byoc_graph_infer_types(byoc_graph *g, byoc_error *err);
/* How many times inference has typed a node of g, over the graph's life:
 * the readers type each node once, so a graph just read has visited each
 * of its nodes once; each byoc_graph_infer_types adds the node count.
 * For tests and benchmarks of the readers' cost. */
long byoc_graph_infer_visits(const byoc_graph *g);
/* Why the node has no type after inference, or NULL when it has one. */
const char *byoc_node_untyped_reason(const byoc_graph *g, int node);
/* Floating-point operations of a call by its op's flops rule; 0 for other
 * nodes and for data movement; -1 when not known (no type, unknown rule). */
double byoc_node_flops(const byoc_graph *g, int node);

#ifdef __cplusplus
}
#endif
#endif
