/* ONNX models: reading a model file into a graph.
 *
 * The reader maps each ONNX node to Relay operators the way TVM's ONNX
 * frontend does (Conv becomes nn.conv2d and, with a bias, nn.bias_add;
 * BatchNormalization becomes nn.batch_norm and its projection .0; ...).
 * Only shapes are needed: initializers may carry no data or external data,
 * and become constants without values; small integer tensors that do carry
 * data (Reshape shapes, axes, pads) are read and used.  An op with no
 * mapping becomes an opaque call with the type the model declares, and a
 * note on the graph says so.  After reading, the graph is typed, and every
 * type the model declares (value_info, outputs) that disagrees with the
 * inferred one is recorded as a note.
 *
 * Quantized models become Relay's QNN ops: QuantizeLinear and
 * DequantizeLinear around a Conv, Gemm, MatMul, Add, pool or activation
 * give qnn.conv2d, qnn.dense, qnn.add, ... with qnn.requantize, as TVM's
 * frontend followed by its FakeQuantizationToInteger pass gives them;
 * QLinearConv and the other QOperator ops map directly.
 *
 * ONNX support needs protobuf-c at configure time; without it the library
 * still builds, byoc_onnx_available() is false and the readers fail with a
 * message saying so. */
#ifndef BYOC_ONNX_H
#define BYOC_ONNX_H

#include <stdbool.h>
#include <stddef.h>

#include <byoc/error.h>
#include <byoc/graph.h>
#include <byoc/registry.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Was the library built with ONNX support? */
bool byoc_onnx_available(void);
/* Read a .onnx file; NULL with err filled on any error.  The op
 * vocabulary (relay.byoc) must be registered in reg, which must outlive
 * the graph. */
byoc_graph *byoc_onnx_read(const byoc_registry *reg, const char *path, byoc_error *err);
/* The same from memory; `name` is used in messages. */
byoc_graph *byoc_onnx_read_bytes(const byoc_registry *reg, const void *data, size_t size,
                                 const char *name, byoc_error *err);
/* The same with options (opts may be NULL; byoc_read_options in
 * byoc/graph.h): free dimensions bound and input shapes given first - a
 * dim_param the bindings name reads as their size everywhere in the
 * model, and a given input shape replaces the declared one, binding the
 * names at its axes; naming a dimension the model does not have, or an
 * input it does not have, is an error - and quantized_nhwc. */
byoc_graph *byoc_onnx_read_with(const byoc_registry *reg, const char *path,
                                const byoc_read_options *opts, byoc_error *err);
byoc_graph *byoc_onnx_read_bytes_with(const byoc_registry *reg, const void *data, size_t size,
                                      const char *name, const byoc_read_options *opts,
                                      byoc_error *err);

/* ---- writing ------------------------------------------------------------ */

struct byoc_result;
struct byoc_lower_ctx;

typedef struct byoc_onnx_write_options {
    /* Write every call from the graph (each Relay op as the ONNX nodes
     * computing it) rather than the model's own nodes where they can be:
     * for checking the op emitter, or for a normalised model. */
    bool rewrite;
} byoc_onnx_write_options;

/* Write a placement as one ONNX model per partition, in execution order,
 * plus dir/plan.json (doc/plan.md).  model_path is the model the result's
 * graph was read from (needed when it was ONNX: partitions are written
 * with the model's own nodes, initializers and opsets; the file must be
 * the one read); for a graph from Relay text, NULL, and every call is
 * written at opset 17.  dir must not exist (or be empty); files are
 * written into a fresh folder beside it and renamed into place, so on any
 * error nothing is left.  External weights stay external: each data file
 * is linked into dir (hard link, else a symbolic one).  Each partition is
 * written by its target's "onnx" pass (byoc/lower.h) if it registered one
 * (it must call byoc_onnx_set_file), else by the built-in writer. */
int byoc_result_write_onnx(const struct byoc_result *r, const char *model_path, const char *dir,
                           const byoc_onnx_write_options *o, byoc_error *err);
/* The model at model_path (the one r's graph was read from), unchanged
 * but for metadata_props on every node of its main graph: byoc.target,
 * byoc.partition and byoc.kernel (doc/plan.md), written to out (all or
 * nothing). */
int byoc_result_write_onnx_annotated(const struct byoc_result *r, const char *model_path,
                                     const char *out, byoc_error *err);
/* From an "onnx" partition pass: the file (in cx->dir, a plain name) it
 * wrote for its partition, for plan.json. */
int byoc_onnx_set_file(const struct byoc_lower_ctx *cx, const char *file, byoc_error *err);

#ifdef __cplusplus
}
#endif
#endif
