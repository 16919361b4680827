/* Quantized ONNX (onnx_qdq.c): the QuantizeLinear/DequantizeLinear
 * converters, the QOperator ops (QLinearConv and friends), and the QDQ
 * rewrite the reader runs before a node's own converter.  Internal (ox_
 * prefix). */
#ifndef BX_ONNX_QDQ_H
#define BX_ONNX_QDQ_H

#include "onnx.h"

/* ox_qdq_rewrite's answer when the node is not a QDQ group's float op. */
enum { OX_QDQ_NONE = 2 };

/* Called by the reader for every node before its converter: when the
 * node's inputs are dequantized tensors (DequantizeLinear outputs not yet
 * built) and its op has an integer form, build that and return as a
 * converter does; else OX_QDQ_NONE, and the node's converter runs. */
int ox_qdq_rewrite(ox_cx *cx);

/* Whether lazy value l is a plain DequantizeLinear of graph node data,
 * with scale and zero point (int32) constant nodes and axis (-1: per
 * tensor); false for anything else (an activation riding along, NHWC). */
bool ox_qdq_plain_dequantize(const ox_lazy *l, int *data, int *scale, int *zp, int64_t *axis);

/* The table's entries (onnx_ops.c). */
int ox_conv_quantize(ox_cx *cx);        /* QuantizeLinear */
int ox_conv_dequantize(ox_cx *cx);      /* DequantizeLinear */
int ox_conv_qlinear_conv(ox_cx *cx);    /* QLinearConv, ConvInteger */
int ox_conv_qlinear_matmul(ox_cx *cx);  /* QLinearMatMul, MatMulInteger */
int ox_conv_qlinear_binary(ox_cx *cx);  /* com.microsoft QLinearAdd, QLinearMul */
int ox_conv_qlinear_unary(ox_cx *cx);   /* com.microsoft QLinearSigmoid, QLinearLeakyRelu */
int ox_conv_qlinear_pool(ox_cx *cx);    /* com.microsoft QLinear(Global)AveragePool */
int ox_conv_qlinear_concat(ox_cx *cx);  /* com.microsoft QLinearConcat */
int ox_conv_qlinear_softmax(ox_cx *cx); /* com.microsoft QLinearSoftmax */
int ox_conv_dynamic_quantize(ox_cx *cx); /* DynamicQuantizeLinear */
int ox_conv_qgemm(ox_cx *cx);           /* com.microsoft QGemm */
int ox_conv_matmul_integer_to_float(ox_cx *cx);  /* com.microsoft MatMulIntegerToFloat */
int ox_conv_dynamic_quantize_matmul(ox_cx *cx);  /* com.microsoft DynamicQuantizeMatMul */

/* From onnx_ops.c: the attribute readers of Conv and the pools. */
int ox_spatial_ints(ox_cx *cx, const char *name, int nd, int per, int64_t def, int64_t *out);
int ox_read_pads(ox_cx *cx, int nd, const int64_t *k, const int64_t *s, const int64_t *d,
                 int64_t *pads);

#endif
