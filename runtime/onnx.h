/* ONNX import, shared by the reader (onnx.c) and the op table
 * (onnx_ops.c).  Internal (ox_ prefix).
 *
 * The reader turns the protobuf model into the plain structs below, so the
 * converters never see protobuf-c and compile with or without it.  Each
 * ONNX tensor name has an ox_value; a converter reads its node's inputs
 * through them, builds graph nodes with the helpers here, and defines its
 * outputs.  Values are turned into graph nodes only when something uses
 * them as an argument: an initializer that only supplies a Reshape's shape
 * never becomes a node, and a Transpose waits to see whether a MatMul or
 * Gemm can fold it away. */
#ifndef BX_ONNX_H
#define BX_ONNX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <byoc/graph.h>

/* ONNX's AttributeProto.AttributeType numbering. */
enum {
    OX_AT_UNDEFINED = 0,
    OX_AT_FLOAT = 1,
    OX_AT_INT = 2,
    OX_AT_STRING = 3,
    OX_AT_TENSOR = 4,
    OX_AT_GRAPH = 5,
    OX_AT_FLOATS = 6,
    OX_AT_INTS = 7,
    OX_AT_STRINGS = 8,
    OX_AT_TENSORS = 9,
    OX_AT_GRAPHS = 10,
    OX_AT_SPARSE_TENSOR = 11,
    OX_AT_SPARSE_TENSORS = 12,
    OX_AT_TYPE_PROTO = 13,
    OX_AT_TYPE_PROTOS = 14
};

/* The contents of a small tensor whose data the model carries (shapes,
 * axes, pads, scalars).  Integer and bool elements are in i, float ones in
 * f; the other pointer is NULL.  A shape computed from free dimensions
 * (Shape of a [batch, seq, 768] tensor) is known only in part: then sym is
 * not NULL, and where sym[k] is set, i[k] is not a number but a dimension,
 * a symbol or BYOC_DIM_UNKNOWN (graph.h).  Such contents are no constant
 * (ox_data does not give them; ox_sym_data does): the reader computes with
 * them to type what they shape, and builds the nodes computing them only
 * if something needs their value at run time. */
typedef struct ox_tensor {
    byoc_tensor_type type;
    size_t n;
    const int64_t *i;
    const double *f;
    const uint8_t *sym;
} ox_tensor;

/* A graph attribute (If's branches, Loop's and Scan's bodies), decoded as
 * the main graph is; onnx_cf.c converts it with the ox_graph_ helpers. */
typedef struct ox_graph ox_graph;

typedef struct ox_attr {
    const char *name;
    int type;                   /* OX_AT_* */
    int64_t i;
    double f;
    const char *s;
    size_t n;                   /* INTS, FLOATS, STRINGS */
    const int64_t *ints;
    const double *floats;
    const char *const *strings;
    byoc_tensor_type ttype;     /* TENSOR: its type */
    const ox_tensor *t;         /* TENSOR: its contents; NULL when absent or large */
    const ox_graph *g;          /* GRAPH */
    const ox_graph *const *graphs; /* GRAPHS: n of them */
} ox_attr;

typedef struct ox_value ox_value;
typedef struct ox_reader ox_reader;

typedef struct ox_node {
    int index;                  /* in the model's node list */
    const char *name;           /* "" when the model gives none */
    const char *op_type;
    const char *domain;         /* "" for the default domain */
    int ninputs, noutputs, nattrs;
    /* The values of this graph that the node's subgraphs read (outer-scope
     * names), in inputs[ninputs .. ninputs + nimplicit): they order the
     * node after their producers, and control flow passes them in. */
    int nimplicit;
    const char *const *inputs;  /* "" is an absent optional input */
    const char *const *outputs;
    const ox_attr *attrs;
    /* The values inputs and outputs name, looked up once by the reader
     * that checked the names (cache_owner), for that reader only. */
    const ox_reader *cache_owner;
    ox_value **in_cache, **out_cache;
} ox_node;

typedef struct ox_op_map ox_op_map;

/* What a converter works on: one node of the model. */
typedef struct ox_cx {
    ox_reader *r;
    byoc_graph *g;
    const ox_node *node;
    const ox_op_map *map;
    int opset;                  /* of the default domain */
    const char *why;            /* set by ox_unsupported */
    bool quantized_nhwc;        /* byoc_read_options: quantized convs and pools NHWC */
} ox_cx;

/* A converter returns 0 with every output defined, -1 with the error
 * filled (a malformed node), or 1 through ox_unsupported when it cannot
 * express this node (its shape input is not a constant, say): the node
 * then becomes an opaque call and the graph gets a note, as for an op with
 * no mapping at all. */
typedef int (*ox_convert_fn)(ox_cx *cx);

struct ox_op_map {
    const char *onnx;           /* op_type, after "DOMAIN." outside the default domain */
    ox_convert_fn convert;
    const char *relay;          /* the op for converters that rename */
};

/* The table entry for op_type in domain ("" or "ai.onnx" for the default
 * one), or NULL. */
const ox_op_map *ox_op_lookup(const char *domain, const char *op_type);
/* Compute the node now if it is integer arithmetic on constants (shape
 * computations); returns 1 with its output defined as a constant, else 0.
 * On contents known only in part the output is defined by ox_define_partial. */
int ox_fold(ox_cx *cx);
/* When a node cannot be expressed, the type its output has anyway, from
 * contents known in part (a Reshape to [batch, seq, 12, 64]); false when
 * nothing is known. */
bool ox_symbolic_type(ox_cx *cx, byoc_tensor_type *out);
/* The same for output i of a node of several (RNN, GRU, LSTM). */
bool ox_symbolic_output_type(ox_cx *cx, int i, byoc_tensor_type *out);

/* ---- reading a node ----------------------------------------------------- */

/* Input i, or NULL when absent (past the end, or named ""). */
ox_value *ox_in(ox_cx *cx, int i);
/* The graph node of input i, made on first use; -1 with the error set
 * when the input is absent. */
int ox_arg(ox_cx *cx, int i);
/* The graph node of v, made on first use. */
int ox_node_of(ox_cx *cx, ox_value *v);
/* The best type known for v: its node's (typed when the converter that
 * made it was done), else the model's declaration; rank -1 when none. */
byoc_tensor_type ox_type(ox_cx *cx, ox_value *v);
/* The contents of v when the model gives them; NULL otherwise. */
const ox_tensor *ox_data(ox_cx *cx, ox_value *v);
/* The same, also when only known in part (a shape from free dimensions). */
const ox_tensor *ox_sym_data(ox_cx *cx, ox_value *v);
/* The type the model declares for output i; rank -1 when none. */
byoc_tensor_type ox_out_decl(ox_cx *cx, int i);
/* Zeroed memory that lives as long as the reader. */
void *ox_alloc(ox_cx *cx, size_t size);
/* v[0, n) as "1, 2, 3", cut short with "..." past 200 characters, in
 * memory that lives as long as the reader; for messages. */
const char *ox_ints_str(ox_cx *cx, const int64_t *v, size_t n);
/* Do the known sizes among dims[0, rank) (those >= 0) multiply to at
 * most INT64_MAX, or to 0?  No tensor has more elements: ONNX Runtime
 * counts them in 64 bits and refuses a shape past that. */
bool ox_count_fits(const int64_t *dims, int rank);
/* Does anything read output i (a later node, or the graph's result)? */
bool ox_output_used(ox_cx *cx, int i);
/* Does v hold a transpose not yet built?  Then *src and perm say of what. */
bool ox_pending_transpose(ox_value *v, ox_value **src, int64_t *perm, int *rank);

/* Attributes.  Each returns 1 when present, 0 when absent (*out = def,
 * where there is a def), and -1 with the error set when the attribute has
 * the wrong type.  An int is taken where a float is expected. */
const ox_attr *ox_attr_find(const ox_node *n, const char *name);
int ox_attr_int(ox_cx *cx, const char *name, int64_t def, int64_t *out);
int ox_attr_float(ox_cx *cx, const char *name, double def, double *out);
int ox_attr_string(ox_cx *cx, const char *name, const char *def, const char **out);
int ox_attr_ints(ox_cx *cx, const char *name, const int64_t **out, size_t *n);
int ox_attr_floats(ox_cx *cx, const char *name, const double **out, size_t *n);

/* ---- building ----------------------------------------------------------- */

/* A call of a registry op; -1 with the error set (prefixed by the node). */
int ox_call(ox_cx *cx, const char *op, const int *args, int nargs);
int ox_set_int(ox_cx *cx, int node, const char *attr, int64_t v);
int ox_set_float(ox_cx *cx, int node, const char *attr, double v);
int ox_set_bool(ox_cx *cx, int node, const char *attr, bool v);
int ox_set_string(ox_cx *cx, int node, const char *attr, const char *v);
int ox_set_dtype(ox_cx *cx, int node, const char *attr, byoc_dtype v);
int ox_set_ints(ox_cx *cx, int node, const char *attr, const int64_t *v, size_t n);
int ox_set_floats(ox_cx *cx, int node, const char *attr, const double *v, size_t n);
/* A list of pairs (nn.pad's pad_width): v holds 2n values. */
int ox_set_pairs(ox_cx *cx, int node, const char *attr, const int64_t *v, size_t n);
/* A scalar constant of dtype dt. */
int ox_scalar(ox_cx *cx, byoc_dtype dt, double v);
/* transpose(v, perm), folding a transpose v is pending on; when the two
 * cancel, v's source itself. */
int ox_transpose(ox_cx *cx, ox_value *v, const int64_t *perm, int rank);
int ox_tuple(ox_cx *cx, const int *fields, int n);
int ox_proj(ox_cx *cx, int tuple, int index);

/* Output i of the node is graph node `node`. */
void ox_define(ox_cx *cx, int i, int node);
/* Take back output i, defined by the converter this one built on, and
 * return its graph node (-1 when it has none): FusedConv runs Conv's
 * converter and puts the activation after the result, which then defines
 * the output.  The node loses the output's name. */
int ox_take_output(ox_cx *cx, int i);
/* Output i is graph node `node`, which holds the value in another layout
 * than the model declares (ONNX Runtime's blocked NCHWc tensors, declared
 * 4-D, as Relay's NCHW8c): the declaration is checked only for its element
 * type and count. */
void ox_define_relaid(ox_cx *cx, int i, int node);
/* Output i is input value v itself (Identity, Dropout). */
void ox_alias(ox_cx *cx, int i, ox_value *v);
/* Output i is a constant made on first use, with contents when t->n > 0
 * or t->i/f are set. */
void ox_define_const(ox_cx *cx, int i, const byoc_tensor_type *type, const ox_tensor *t);
/* Output i has contents t known in part (t->sym set): its node, the
 * converter's, is built only when something uses it as an argument. */
void ox_define_partial(ox_cx *cx, int i, const ox_tensor *t);
/* Output i is transpose(v, perm), built only if something other than a
 * transpose-folding MatMul or Gemm uses it. */
void ox_define_transpose(ox_cx *cx, int i, ox_value *v, const int64_t *perm, int rank);

/* "node 'conv1' (Conv)", or for a nameless node "the Conv node writing
 * 'y'", into buf. */
const char *ox_node_desc(const ox_node *n, char *buf, size_t size);

/* ---- values built on first use (the QDQ rewrite, onnx_qdq.c) ----------- */

/* A value whose graph node waits until something uses it as an argument,
 * as a pending transpose does: a DequantizeLinear's output stays
 * "x dequantized" so that a Conv, a MatMul or a QuantizeLinear after it
 * can take x itself.  build makes the node (the cx is its user's); type is
 * the node's type, for ox_type before then.  The struct lives as long as
 * the reader (ox_alloc) and is usually the first member of a larger one. */
typedef struct ox_lazy ox_lazy;
struct ox_lazy {
    int (*build)(ox_cx *cx, const ox_lazy *l);
    byoc_tensor_type type;      /* its dtype; its shape unless `like` is set */
    int like;                   /* a graph node of the same shape, or -1 */
    int nperm;                  /* > 0: like's dims permuted, dims[k] = like's[perm[k]] */
    int64_t perm[BYOC_MAX_RANK];
};
/* Output i is l, built on first use. */
void ox_define_lazy(ox_cx *cx, int i, const ox_lazy *l);
/* The lazy value v holds, NULL when it holds none or it is built. */
const ox_lazy *ox_lazy_of(ox_value *v);
/* Is v an initializer or a Constant's output, with or without contents? */
bool ox_is_const(ox_value *v);
/* The graph node of output i as the converter defined it, or -1. */
int ox_out_node(ox_cx *cx, int i);
/* Run the converter of the default-domain op op_type on this node's
 * attributes and outputs, with graph nodes as its n inputs (-1 absent,
 * OX_KEEP this node's own input i): a quantized op's integer twin, or its
 * float form on dequantized inputs.  The nodes built so far are typed
 * first, so they must be complete.  Returns what the converter returns. */
enum { OX_KEEP = -2 };
int ox_convert_as(ox_cx *cx, const char *op_type, const int *nodes, int n);

/* After a failure of this node's reading that need not stop the model
 * (a branch that may never run): the message, into buf, and the reader
 * goes on as if nothing had failed.  -1 when the failure cannot be
 * recovered from (no message: out of memory). */
int ox_recover(ox_cx *cx, char *buf, size_t size);
/* Recurrent layers unroll into at most this many time steps per model
 * (directions counted apart). */
enum { OX_UNROLL_BUDGET = 32768 };
/* Take `steps` of the model's unrolling budget; false, taking none, when
 * fewer are left. */
bool ox_unroll_budget(ox_cx *cx, int64_t steps);
/* Fail: "node 'n' (Op): <message>". */
int ox_fail(ox_cx *cx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Give up on mapping this node (returns 1); the message becomes the note. */
int ox_unsupported(ox_cx *cx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- windows (Conv and the pools, in onnx_ops.c) ------------------------ */

/* ONNX's auto_pad SAME on one axis: the total padding that makes the
 * output ceil(in / s) long for kernel k dilated by d (s, k, d >= 1, in >=
 * 0); false when the dilated kernel passes 2^63 - 1. */
bool ox_same_pad_total(int64_t in, int64_t k, int64_t s, int64_t d, int64_t *total);
/* A window over the last nd axes of input 0: kernel k dilated by d, and
 * the padding (nd befores, then nd afters) added to the input's size
 * where known, must stay within 2^63 - 1, which inference then never
 * passes; a sliding window (`slides`: not ConvTranspose's) must also fit
 * in the padded input.  0, or -1 with the error set. */
int ox_check_window(ox_cx *cx, int nd, const int64_t *k, const int64_t *d, const int64_t *pads,
                    bool slides);
/* An axis of a tensor of rank `rank` (-1: not known, no check): in
 * [-rank, rank), else "<what> is <axis> for a tensor of rank <rank>".
 * 0, or -1 with the error set. */
int ox_check_axis(ox_cx *cx, const char *what, int64_t axis, int rank);
/* A convolution's group against its input x ([N, C, ...]) and weight w
 * ([M, C / group, ...]), as ONNX Runtime checks them: group divides M,
 * and C is group times the weight's channels, where known.  0, or -1
 * with the error set. */
int ox_check_groups(ox_cx *cx, const byoc_tensor_type *x, const byoc_tensor_type *w,
                    int64_t group);

/* ---- subgraphs (control flow: onnx_cf.c) -------------------------------- */

/* If, Loop and Scan of the default domain: 1 when n is one. */
bool ox_is_control_flow(const ox_node *n);
/* Convert a control-flow node: 0, or -1 with the error set. */
int ox_convert_control_flow(ox_cx *cx);
/* The node's implicit input k (a value its subgraphs read). */
ox_value *ox_implicit(ox_cx *cx, int k);
/* A subgraph's formal inputs and outputs, with their declared types
 * (rank -1 when none). */
int ox_graph_input_count(const ox_graph *sg);
int ox_graph_output_count(const ox_graph *sg);
byoc_tensor_type ox_graph_input_decl(const ox_graph *sg, int i);
byoc_tensor_type ox_graph_output_decl(const ox_graph *sg, int i);
/* A declared type, what it leaves unknown (dtype, rank, sizes) taken
 * from known. */
byoc_tensor_type ox_type_fill(byoc_tensor_type decl, const byoc_tensor_type *known);
/* Convert sg's nodes into cx's graph, as if they were the enclosing
 * graph's, and define the node's outputs as sg's (same count, checked by
 * the caller).  `attr` names sg in messages.  0, or -1 with the error
 * set. */
int ox_graph_inline(ox_cx *cx, const char *attr, const ox_graph *sg);
/* Convert sg into a graph of its own: its formal inputs typed as they
 * declare, with what they leave unknown from formals[0..nformals), then
 * the enclosing values it reads as inputs (constants stay constants).
 * NULL with the error set. */
byoc_graph *ox_graph_build(ox_cx *cx, const char *attr, const ox_graph *sg,
                           const byoc_tensor_type *formals, int nformals);

/* ONNX TensorProto.DataType to a byoc dtype; -1 when byoc has none. */
int ox_dtype(int64_t onnx_type);

#endif
