/* Building ONNX graphs for the ONNX writers.  Internal (bx_ prefix).
 *
 * A bx_ob collects the nodes, initializers and declarations of one ONNX
 * graph as protobuf-c messages, all allocated in one arena that
 * bx_ob_destroy frees; strings are copied.  The split writer
 * (onnx_split.c) fills one per partition, partly with the model's own
 * nodes, partly through bx_onnx_emit_call (onnx_emit.c), which writes a
 * graph call - a Relay op - as the ONNX nodes that compute it. */
#ifndef BX_ONNX_BUILD_H
#define BX_ONNX_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include <byoc/error.h>
#include <byoc/graph.h>

#include "arena.h"
#include "runtime/onnx.pb-c.h"

typedef struct bx_ob {
    bx_arena *arena;            /* the caller's; everything lives there */
    int opset;                  /* of the default domain being written */
    const char *temp_prefix;    /* made-up names start with it ("byoc.") */
    int ntemps;
    /* Grown as added. */
    Onnx__NodeProto **nodes;
    size_t nnodes, capnodes;
    Onnx__TensorProto **inits;
    size_t ninits, capinits;
    /* Domains other than the default one used by emitted nodes, for the
     * model's opset_import ("com.microsoft", version 1). */
    const char *domains[8];
    int ndomains;
} bx_ob;

void bx_ob_init(bx_ob *b, bx_arena *a, int opset, const char *temp_prefix);

/* A node op_type (in domain, "" for the default one) reading in[0..nin)
 * ("" for an absent optional input) and writing out[0..nout); names are
 * copied.  Attributes are added to the node returned. */
Onnx__NodeProto *bx_ob_node(bx_ob *b, const char *op_type, const char *domain,
                            const char *const *in, int nin, const char *const *out, int nout);
/* The same with up to three inputs and one output, the common case;
 * in2/in3 may be NULL (then fewer inputs). */
Onnx__NodeProto *bx_ob_node1(bx_ob *b, const char *op_type, const char *in1, const char *in2,
                             const char *in3, const char *out);
/* Append a node built elsewhere (a model's own, already renamed). */
void bx_ob_add_node(bx_ob *b, Onnx__NodeProto *n);

void bx_ob_attr_int(bx_ob *b, Onnx__NodeProto *n, const char *name, int64_t v);
void bx_ob_attr_ints(bx_ob *b, Onnx__NodeProto *n, const char *name, const int64_t *v, size_t k);
void bx_ob_attr_float(bx_ob *b, Onnx__NodeProto *n, const char *name, double v);
void bx_ob_attr_floats(bx_ob *b, Onnx__NodeProto *n, const char *name, const double *v, size_t k);
void bx_ob_attr_string(bx_ob *b, Onnx__NodeProto *n, const char *name, const char *s);
/* A TENSOR attribute (Constant's value, ConstantOfShape's). */
void bx_ob_attr_tensor(bx_ob *b, Onnx__NodeProto *n, const char *name, Onnx__TensorProto *t);

/* A fresh name for an intermediate tensor: temp_prefix + a number. */
const char *bx_ob_temp(bx_ob *b);

/* A tensor of dtype with dims[0..rank) and its n elements from v (ints
 * for integer and bool dtypes, doubles for floating ones; the other may be
 * NULL), named `name` (NULL: a fresh one); not yet added anywhere. */
Onnx__TensorProto *bx_ob_tensor(bx_ob *b, const char *name, byoc_dtype dt, const int64_t *dims,
                                int rank, const int64_t *iv, const double *fv, size_t n);
/* Add a tensor as an initializer; returns its name. */
const char *bx_ob_add_init(bx_ob *b, Onnx__TensorProto *t);
/* Shorthands: an int64 1-D initializer (Reshape's shape, Unsqueeze's
 * axes), and a scalar of dtype dt; return the name. */
const char *bx_ob_const_i64s(bx_ob *b, const int64_t *v, size_t n);
const char *bx_ob_const_scalar(bx_ob *b, byoc_dtype dt, double v);

/* A double as an integer element: NaN 0, the rest clamped to int64's
 * range (converting one outside it is undefined). */
int64_t bx_ob_to_int(double d);

/* ONNX's TensorProto.DataType for a byoc dtype, 0 when ONNX has none. */
int bx_onnx_elem_type(byoc_dtype dt);

/* Write call `node` of g - its op and attributes, its arguments' types -
 * as ONNX nodes into b, at b->opset: they read in[0..nin), the tensor
 * names of the call's arguments in order (a tuple argument's fields one
 * by one, flattened), and write out[0..nout), one per field of the call's
 * value (one for a tensor-typed call).  A field the caller does not need
 * may have NULL or "" for its name, or lie past nout (1 <= nout <= the
 * number of fields): nothing is written for it where nothing needs to be
 * (nn.batch_norm's moving statistics, nn.dropout's mask), and a fresh name
 * is used where ONNX writes it anyway (split's sections, topk's values or
 * indices).  Returns 0; or -1 with err filled ("no ONNX form for
 * 'nn.foo'", "'nn.conv2d' with data_layout 'NCHW8c' has no ONNX form",
 * "'cumsum' needs ONNX CumSum, which opset 9 lacks ...") when the op or
 * the attribute values it has cannot be written, and b as it was. */
int bx_onnx_emit_call(bx_ob *b, const byoc_graph *g, int node, const char *const *in, int nin,
                      const char *const *out, int nout, byoc_error *err);
/* Whether op has an ONNX form at all (some attribute values may still
 * have none). */
int bx_onnx_emit_known(const char *op);

#endif
