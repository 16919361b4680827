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

#ifdef __cplusplus
}
#endif
#endif
