/* Unit tests of quantized ONNX models (runtime/onnx_qdq.c): QDQ groups
 * (QuantizeLinear/DequantizeLinear around float ops) become Relay's QNN
 * ops, the form TVM's frontend plus FakeQuantizationToInteger gives.
 * Each test builds a model with the shared builder (onnx_mb.h) and checks
 * the ops, their key attributes, the inferred types and the FLOPs. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>
#include <byoc/onnx.h>

#include "runtime/onnx.pb-c.h"
#include "tests/unit/onnx_mb.h"

/* An integer initializer of type spec ("int8[]", "int32[4]") with its
 * values in int32_data. */
static void mb_qints(mb *m, const char *name, const char *spec, int count, ...)
{
    Onnx__TensorProto *x = mb_weight(m, name, spec);
    x->int32_data = mb_alloc(m, sizeof(int32_t) * (size_t)count);
    va_list ap;
    va_start(ap, count);
    for (int i = 0; i < count; i++)
        x->int32_data[i] = va_arg(ap, int);
    va_end(ap);
    x->n_int32_data = (size_t)count;
}

/* Quantize input "x" (float) to int8 with scale 0.5 and zero point zp,
 * and dequantize it again: "xd" is the dequantized tensor. */
static void qdq_input(mb *m, const char *spec, int zp)
{
    mb_input(m, "x", spec);
    mb_scalar(m, "xs", 0.5f);
    mb_qints(m, "xz", "int8[]", 1, zp);
    mb_node(m, "QuantizeLinear", "q_in", "x,xs,xz", "xq");
    mb_node(m, "DequantizeLinear", "dq_in", "xq,xs,xz", "xd");
}

/* Quantize "y" with scale 0.25 and zero point -10, dequantize to "out". */
static void qdq_output(mb *m, const char *y, const char *spec)
{
    char in[64];
    mb_scalar(m, "ys", 0.25f);
    mb_qints(m, "yz", "int8[]", 1, -10);
    snprintf(in, sizeof in, "%s,ys,yz", y);
    mb_node(m, "QuantizeLinear", "q_out", in, "yq");
    mb_node(m, "DequantizeLinear", "dq_out", "yq,ys,yz", "out");
    mb_output(m, "out", spec);
}

static bool flops_known(const byoc_graph *g)
{
    for (int i = 0; i < byoc_graph_node_count(g); i++)
        if (byoc_node_kind_of(g, i) == BYOC_N_CALL && !(byoc_node_flops(g, i) >= 0))
            return false;
    return true;
}

/* ---- Core ------------------------------------------------------------------------ */

/* DQ(x) -> Conv(DQ(w), DQ(b)) -> Relu -> Q: qnn.conv2d, nn.bias_add, the
 * requantize, and relu as a clip from the output zero point; the weight,
 * zero points and bias stay constants. */
START_TEST(conv_per_tensor)
{
    mb m;
    mb_init(&m, 13, 7);
    qdq_input(&m, "float[1,3,8,8]", 0);
    mb_weight(&m, "w", "int8[4,3,3,3]");
    mb_scalar(&m, "ws", 0.1f);
    mb_qints(&m, "wz", "int8[]", 1, 0);
    mb_node(&m, "DequantizeLinear", "dq_w", "w,ws,wz", "wd");
    mb_qints(&m, "b", "int32[4]", 4, 1, 2, 3, 4);
    mb_scalar(&m, "bs", 0.05f);
    mb_node(&m, "DequantizeLinear", "dq_b", "b,bs", "bd");
    Onnx__NodeProto *n = mb_node(&m, "Conv", "conv", "xd,wd,bd", "c");
    attr_ints(&m, n, "pads", 4, 1, 1, 1, 1);
    mb_node(&m, "Relu", "relu", "c", "r");
    qdq_output(&m, "r", "float[1,4,8,8]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "qnn.conv2d"), 1);
    ck_assert_int_eq(count_op(g, "nn.conv2d"), 0);
    ck_assert_int_eq(count_op(g, "nn.bias_add"), 1);
    ck_assert_int_eq(count_op(g, "qnn.requantize"), 1);
    ck_assert_int_eq(count_op(g, "clip"), 1);
    ck_assert_int_eq(count_op(g, "nn.relu"), 0);
    ck_assert_int_eq(count_op(g, "qnn.quantize"), 1);
    ck_assert_int_eq(count_op(g, "qnn.dequantize"), 1);
    int c = find_op(g, "qnn.conv2d");
    ck_assert_str_eq(attr_text(g, c, "padding"), "[1, 1, 1, 1]");
    ck_assert_str_eq(attr_text(g, c, "channels"), "4");
    ck_assert_str_eq(attr_text(g, c, "out_dtype"), "int32");
    ck_assert_str_eq(type_text(g, c), "Tensor[(1, 4, 8, 8), int32]");
    ck_assert_int_eq(byoc_node_kind_of(g, byoc_node_arg(g, c, 1)), BYOC_N_CONST);
    ck_assert_str_eq(type_text(g, byoc_node_arg(g, c, 1)), "Tensor[(4, 3, 3, 3), int8]");
    ck_assert_int_eq(byoc_node_kind_of(g, byoc_node_arg(g, c, 3)), BYOC_N_CONST);
    ck_assert_str_eq(type_text(g, byoc_node_arg(g, c, 3)), "Tensor[(), int32]");
    ck_assert_double_gt(byoc_node_flops(g, c), 0);
    /* The bias is the int32 tensor itself: its scale 0.05 = 0.5 * 0.1. */
    int b = find_op(g, "nn.bias_add");
    ck_assert_int_eq(byoc_node_arg(g, b, 0), c);
    ck_assert_str_eq(type_text(g, byoc_node_arg(g, b, 1)), "Tensor[(4,), int32]");
    int rq = find_op(g, "qnn.requantize");
    ck_assert_int_eq(byoc_node_arg(g, rq, 0), b);
    ck_assert_str_eq(attr_text(g, rq, "out_dtype"), "int8");
    ck_assert_str_eq(type_text(g, rq), "Tensor[(1, 4, 8, 8), int8]");
    /* The requantize's input scale: the product of the two. */
    const byoc_value *s = byoc_node_const_value(g, byoc_node_arg(g, rq, 1));
    ck_assert_ptr_nonnull(s);
    ck_assert_double_eq_tol(s->u.f, 0.05, 1e-7);
    /* relu(y) quantized with zero point -10: clip(-10, 127). */
    int cl = find_op(g, "clip");
    ck_assert_int_eq(byoc_node_arg(g, cl, 0), rq);
    ck_assert_double_eq(byoc_node_attr(g, cl, "a_min")->u.f, -10);
    ck_assert_double_eq(byoc_node_attr(g, cl, "a_max")->u.f, 127);
    ck_assert_str_eq(output_type(g), "Tensor[(1, 4, 8, 8), float32]");
    ck_assert(flops_known(g));
    byoc_graph_destroy(g);
}
END_TEST

/* A per-channel weight (scale and zero point per output channel, axis 0)
 * and a float bias: the kernel scale is the list, the accumulator's scale
 * one per channel, requantized along axis 1; the bias is quantized into
 * an int32 constant.  A weight zero point that is not 0 is kept (the
 * backends decide). */
START_TEST(conv_per_channel)
{
    mb m;
    mb_init(&m, 13, 7);
    qdq_input(&m, "float[1,2,6,6]", 3);
    mb_weight(&m, "w", "int8[3,2,1,1]");
    mb_floats(&m, "ws", 3, 0.1, 0.2, 0.4);
    mb_qints(&m, "wz", "int8[3]", 3, 0, 1, 0);
    Onnx__NodeProto *d = mb_node(&m, "DequantizeLinear", "dq_w", "w,ws,wz", "wd");
    attr_int(&m, d, "axis", 0);
    mb_floats(&m, "b", 3, 0.5, 1.0, -2.0);
    mb_node(&m, "Conv", "conv", "xd,wd,b", "c");
    qdq_output(&m, "c", "float[1,3,6,6]");
    byoc_graph *g = read_ok(&m);
    int c = find_op(g, "qnn.conv2d");
    ck_assert_str_eq(type_text(g, byoc_node_arg(g, c, 3)), "Tensor[(3,), int32]");
    ck_assert_str_eq(type_text(g, byoc_node_arg(g, c, 5)), "Tensor[(3,), float32]");
    const byoc_value *kz = byoc_node_const_value(g, byoc_node_arg(g, c, 3));
    ck_assert_ptr_nonnull(kz);
    ck_assert_int_eq(kz->u.list.items[1].u.i, 1);
    int rq = find_op(g, "qnn.requantize");
    ck_assert_str_eq(attr_text(g, rq, "axis"), "1");
    const byoc_value *s = byoc_node_const_value(g, byoc_node_arg(g, rq, 1));
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(s->kind, BYOC_V_LIST);
    ck_assert_double_eq_tol(s->u.list.items[2].u.f, 0.2, 1e-7);
    /* round(b / (0.5 * ws)) = [10, 10, -10] */
    int b = find_op(g, "nn.bias_add");
    const byoc_value *bv = byoc_node_const_value(g, byoc_node_arg(g, b, 1));
    ck_assert_ptr_nonnull(bv);
    ck_assert_int_eq(bv->u.list.items[0].u.i, 10);
    ck_assert_int_eq(bv->u.list.items[1].u.i, 10);
    ck_assert_int_eq(bv->u.list.items[2].u.i, -10);
    ck_assert_int_eq(count_op(g, "clip"), 0);
    ck_assert(flops_known(g));
    byoc_graph_destroy(g);
}
END_TEST

/* Gemm(DQ(a), DQ(b), DQ(c)) with transB, and MatMul(DQ(a), DQ(b)) whose
 * [K, N] weight becomes a transposed constant: qnn.dense. */
START_TEST(gemm_and_matmul)
{
    mb m;
    mb_init(&m, 13, 7);
    qdq_input(&m, "float[2,5]", 0);
    mb_weight(&m, "w", "int8[3,5]");
    mb_scalar(&m, "ws", 0.2f);
    mb_node(&m, "DequantizeLinear", "dq_w", "w,ws", "wd");
    mb_weight(&m, "c", "int32[3]");
    mb_floats(&m, "cs", 3, 0.1, 0.1, 0.1);  /* per channel, axis 0 by default */
    mb_node(&m, "DequantizeLinear", "dq_c", "c,cs", "cd");
    Onnx__NodeProto *n = mb_node(&m, "Gemm", "fc", "xd,wd,cd", "y");
    attr_int(&m, n, "transB", 1);
    qdq_output(&m, "y", "float[2,3]");
    byoc_graph *g = read_ok(&m);
    int d = find_op(g, "qnn.dense");
    ck_assert_str_eq(attr_text(g, d, "units"), "3");
    ck_assert_str_eq(type_text(g, d), "Tensor[(2, 3), int32]");
    ck_assert_int_eq(count_op(g, "nn.bias_add"), 1);
    ck_assert_int_eq(count_op(g, "transpose"), 0);
    ck_assert_int_eq(count_op(g, "qnn.requantize"), 1);
    ck_assert_double_eq(byoc_node_flops(g, d), 2.0 * 2 * 3 * 5);
    byoc_graph_destroy(g);

    mb_init(&m, 13, 7);
    qdq_input(&m, "float[2,5]", 0);
    mb_weight(&m, "w", "uint8[5,3]");
    mb_scalar(&m, "ws", 0.2f);
    mb_qints(&m, "wz", "uint8[]", 1, 128);
    mb_node(&m, "DequantizeLinear", "dq_w", "w,ws,wz", "wd");
    mb_node(&m, "MatMul", "mm", "xd,wd", "y");
    qdq_output(&m, "y", "float[2,3]");
    g = read_ok(&m);
    d = find_op(g, "qnn.dense");
    ck_assert_int_eq(byoc_node_kind_of(g, byoc_node_arg(g, d, 1)), BYOC_N_CONST);
    ck_assert_str_eq(type_text(g, byoc_node_arg(g, d, 1)), "Tensor[(3, 5), uint8]");
    ck_assert_int_eq(count_op(g, "transpose"), 0);
    ck_assert_int_eq(count_op(g, "nn.matmul"), 0);
    ck_assert_str_eq(type_text(g, d), "Tensor[(2, 3), int32]");
    ck_assert(flops_known(g));
    byoc_graph_destroy(g);
}
END_TEST

/* Add and Mul of two dequantized tensors: qnn.add / qnn.mul with the
 * QuantizeLinear's scale and zero point as the output's. */
START_TEST(add_and_mul)
{
    static const char *const ops[][2] = {{"Add", "qnn.add"}, {"Mul", "qnn.mul"},
                                         {"Sub", "qnn.subtract"}};
    for (int k = 0; k < 3; k++) {
        mb m;
        mb_init(&m, 13, 7);
        qdq_input(&m, "float[1,4,2,2]", 0);
        mb_input(&m, "x2", "int8[1,4,2,2]");
        mb_scalar(&m, "x2s", 0.125f);
        mb_node(&m, "DequantizeLinear", "dq2", "x2,x2s", "x2d");
        mb_node(&m, ops[k][0], "bin", "xd,x2d", "s");
        qdq_output(&m, "s", "float[1,4,2,2]");
        byoc_graph *g = read_ok(&m);
        int a = find_op(g, ops[k][1]);
        ck_assert_int_eq(byoc_node_arg_count(g, a), 8);
        ck_assert_str_eq(type_text(g, a), "Tensor[(1, 4, 2, 2), int8]");
        const byoc_value *os = byoc_node_const_value(g, byoc_node_arg(g, a, 6));
        ck_assert_ptr_nonnull(os);
        ck_assert_double_eq(os->u.f, 0.25);
        const byoc_value *oz = byoc_node_const_value(g, byoc_node_arg(g, a, 7));
        ck_assert_ptr_nonnull(oz);
        ck_assert_int_eq(oz->u.i, -10);
        ck_assert_int_eq(count_op(g, "add") + count_op(g, "multiply") + count_op(g, "subtract"),
                         0);
        ck_assert_int_eq(count_op(g, "qnn.requantize"), 0);
        ck_assert(flops_known(g));
        byoc_graph_destroy(g);
    }
}
END_TEST

/* MaxPool runs on the integer tensor (nothing when the QuantizeLinear
 * after has the same quantization); AveragePool and GlobalAveragePool on
 * it cast to int32, cast back; Flatten on the integer tensor. */
START_TEST(pools)
{
    mb m;
    mb_init(&m, 13, 7);
    qdq_input(&m, "float[1,2,4,4]", 0);
    Onnx__NodeProto *n = mb_node(&m, "MaxPool", "mp", "xd", "p");
    attr_ints(&m, n, "kernel_shape", 2, 2, 2);
    attr_ints(&m, n, "strides", 2, 2, 2);
    mb_node(&m, "QuantizeLinear", "q1", "p,xs,xz", "pq");
    mb_node(&m, "DequantizeLinear", "dq1", "pq,xs,xz", "pd");
    n = mb_node(&m, "AveragePool", "ap", "pd", "a");
    attr_ints(&m, n, "kernel_shape", 2, 2, 2);
    mb_node(&m, "QuantizeLinear", "q2", "a,xs,xz", "aq");
    mb_node(&m, "DequantizeLinear", "dq2", "aq,xs,xz", "ad");
    mb_node(&m, "GlobalAveragePool", "gap", "ad", "gp");
    mb_node(&m, "Flatten", "fl", "gp", "f");
    qdq_output(&m, "f", "float[1,2]");
    byoc_graph *g = read_ok(&m);
    int mp = find_op(g, "nn.max_pool2d");
    ck_assert_str_eq(type_text(g, mp), "Tensor[(1, 2, 2, 2), int8]");
    int ap = find_op(g, "nn.avg_pool2d");
    ck_assert_str_eq(type_text(g, ap), "Tensor[(1, 2, 1, 1), int32]");
    ck_assert_str_eq(type_text(g, byoc_node_arg(g, ap, 0)), "Tensor[(1, 2, 2, 2), int32]");
    ck_assert_int_eq(byoc_node_arg(g, byoc_node_arg(g, ap, 0), 0), mp);
    int gp = find_op(g, "nn.global_avg_pool2d");
    ck_assert_str_eq(type_text(g, gp), "Tensor[(1, 2, 1, 1), int32]");
    int fl = find_op(g, "nn.batch_flatten");
    ck_assert_str_eq(type_text(g, fl), "Tensor[(1, 2), int32]");
    /* Same quantization: casts back for the first pool, the requantize to
     * the output's scale for the last. */
    ck_assert_int_eq(count_op(g, "cast"), 3);
    ck_assert_int_eq(count_op(g, "qnn.requantize"), 1);
    ck_assert_int_eq(byoc_node_arg(g, find_op(g, "qnn.requantize"), 0), fl);
    ck_assert_int_eq(count_op(g, "qnn.dequantize"), 1);
    ck_assert_int_eq(count_op(g, "qnn.quantize"), 1);
    ck_assert(flops_known(g));
    byoc_graph_destroy(g);
}
END_TEST

/* A float op with no integer form between DQ and Q keeps TVM's form:
 * qnn.dequantize, the op, qnn.quantize; so does a Conv whose weight is
 * not dequantized. */
START_TEST(float_ops_stay_float)
{
    mb m;
    mb_init(&m, 13, 7);
    qdq_input(&m, "float[1,2,4,4]", 0);
    mb_node(&m, "Sigmoid", "sig", "xd", "s");
    qdq_output(&m, "s", "float[1,2,4,4]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "qnn.dequantize"), 2);
    ck_assert_int_eq(count_op(g, "qnn.quantize"), 2);
    int s = find_op(g, "sigmoid");
    ck_assert_str_eq(byoc_node_op_name(g, byoc_node_arg(g, s, 0)), "qnn.dequantize");
    ck_assert_str_eq(type_text(g, s), "Tensor[(1, 2, 4, 4), float32]");
    byoc_graph_destroy(g);

    mb_init(&m, 13, 7);
    qdq_input(&m, "float[1,2,4,4]", 0);
    mb_weight(&m, "w", "float[2,2,1,1]");
    mb_node(&m, "Conv", "conv", "xd,w", "c");
    mb_node(&m, "Relu", "relu", "c", "out");
    mb_output(&m, "out", "float[1,2,4,4]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "qnn.conv2d"), 0);
    ck_assert_int_eq(count_op(g, "nn.conv2d"), 1);
    ck_assert_int_eq(count_op(g, "nn.relu"), 1);
    ck_assert_str_eq(byoc_node_op_name(g, byoc_node_arg(g, find_op(g, "nn.conv2d"), 0)),
                     "qnn.dequantize");
    byoc_graph_destroy(g);

    /* A Relu after a dequantize that a float op then reads: both built. */
    mb_init(&m, 13, 7);
    qdq_input(&m, "float[1,2,4,4]", 0);
    mb_node(&m, "Relu", "relu", "xd", "r");
    mb_node(&m, "Tanh", "tanh", "r", "out");
    mb_output(&m, "out", "float[1,2,4,4]");
    g = read_ok(&m);
    int t = find_op(g, "tanh");
    int r = byoc_node_arg(g, t, 0);
    ck_assert_str_eq(byoc_node_op_name(g, r), "nn.relu");
    ck_assert_str_eq(byoc_node_op_name(g, byoc_node_arg(g, r, 0)), "qnn.dequantize");
    byoc_graph_destroy(g);
}
END_TEST

/* QuantizeLinear of a float constant (weights quantized in the graph) is
 * an int8 constant, with its contents when known; a Cast to the dtype a
 * quantized tensor has (torch writes one after each QuantizeLinear) is
 * nothing; a DequantizeLinear per axis of an activation gives
 * qnn.dequantize's axis; no zero point means uint8. */
START_TEST(constants_casts_axes)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_floats(&m, "k", 3, 1.0, -1.0, 100.0);
    mb_scalar(&m, "ks", 0.5f);
    mb_qints(&m, "kz", "int8[]", 1, 0);
    mb_node(&m, "QuantizeLinear", "qk", "k,ks,kz", "kq");
    Onnx__NodeProto *c = mb_node(&m, "Cast", "cast", "kq", "out");
    attr_int(&m, c, "to", 3);
    mb_output(&m, "out", "int8[3]");
    byoc_graph *g = read_ok(&m);
    int out = byoc_graph_output(g);
    ck_assert_int_eq(byoc_node_kind_of(g, out), BYOC_N_CONST);
    ck_assert_str_eq(output_type(g), "Tensor[(3,), int8]");
    const byoc_value *v = byoc_node_const_value(g, out);
    ck_assert_ptr_nonnull(v);
    ck_assert_int_eq(v->u.list.items[0].u.i, 2);
    ck_assert_int_eq(v->u.list.items[1].u.i, -2);
    ck_assert_int_eq(v->u.list.items[2].u.i, 127);
    ck_assert_int_eq(count_calls(g), 0);
    byoc_graph_destroy(g);

    /* Float weights quantized in the graph (Q -> DQ -> Conv): the weight
     * is an int8 constant the qnn.conv2d takes. */
    mb_init(&m, 13, 7);
    qdq_input(&m, "float[1,2,4,4]", 0);
    mb_weight(&m, "wf", "float[2,2,1,1]");
    mb_scalar(&m, "ws", 0.1f);
    mb_qints(&m, "wz", "int8[]", 1, 0);
    mb_node(&m, "QuantizeLinear", "qw", "wf,ws,wz", "wq");
    mb_node(&m, "DequantizeLinear", "dqw", "wq,ws,wz", "wd");
    mb_node(&m, "Conv", "conv", "xd,wd", "c");
    qdq_output(&m, "c", "float[1,2,4,4]");
    g = read_ok(&m);
    int conv = find_op(g, "qnn.conv2d");
    ck_assert_int_eq(byoc_node_kind_of(g, byoc_node_arg(g, conv, 1)), BYOC_N_CONST);
    ck_assert_str_eq(type_text(g, byoc_node_arg(g, conv, 1)), "Tensor[(2, 2, 1, 1), int8]");
    ck_assert_int_eq(count_op(g, "qnn.quantize"), 1);
    byoc_graph_destroy(g);

    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[1,3,2,2]");
    mb_floats(&m, "s3", 3, 0.1, 0.2, 0.3);
    mb_node(&m, "QuantizeLinear", "qx", "x,s3", "xq");
    c = mb_node(&m, "Cast", "cast", "xq", "xc");
    attr_int(&m, c, "to", 2);
    mb_node(&m, "DequantizeLinear", "dqx", "xc,s3", "out");
    mb_output(&m, "out", "float[1,3,2,2]");
    g = read_ok(&m);
    int q = find_op(g, "qnn.quantize");
    ck_assert_str_eq(attr_text(g, q, "axis"), "1");
    ck_assert_str_eq(attr_text(g, q, "out_dtype"), "uint8");
    ck_assert_str_eq(type_text(g, q), "Tensor[(1, 3, 2, 2), uint8]");
    int d = find_op(g, "qnn.dequantize");
    ck_assert_int_eq(byoc_node_arg(g, d, 0), q);
    ck_assert_str_eq(attr_text(g, d, "axis"), "1");
    ck_assert_int_eq(count_op(g, "cast"), 0);
    ck_assert_str_eq(output_type(g), "Tensor[(1, 3, 2, 2), float32]");
    byoc_graph_destroy(g);
}
END_TEST

/* Clip with bounds becomes a clip in the integer domain (relu6: 0 and
 * 6 / 0.5 = 12 from the zero point); GlobalMaxPool, Reshape, Squeeze and
 * Unsqueeze run on the integer tensor; nothing is requantized when the
 * quantization does not change. */
START_TEST(clip_and_shape_ops)
{
    mb m;
    mb_init(&m, 13, 7);
    qdq_input(&m, "float[1,4,2,2]", -5);
    mb_scalar(&m, "lo", 0.0f);
    mb_scalar(&m, "hi", 6.0f);
    mb_node(&m, "Clip", "relu6", "xd,lo,hi", "c");
    mb_node(&m, "GlobalMaxPool", "gmp", "c_d", "g");
    mb_ints(&m, "shape", 2, 1, 4);
    mb_node(&m, "Reshape", "rs", "g,shape", "r");
    mb_ints(&m, "ax", 1, 0);
    mb_node(&m, "Squeeze", "sq", "r,ax", "s");
    mb_node(&m, "Unsqueeze", "usq", "s,ax", "u");
    mb_node(&m, "QuantizeLinear", "qc", "c,xs,xz", "c_q");
    mb_node(&m, "DequantizeLinear", "dqc", "c_q,xs,xz", "c_d");
    mb_node(&m, "QuantizeLinear", "qu", "u,xs,xz", "uq");
    mb_node(&m, "DequantizeLinear", "dqu", "uq,xs,xz", "out");
    mb_output(&m, "out", "float[1,4]");
    byoc_graph *g = read_ok(&m);
    int c = find_op(g, "clip");
    ck_assert_double_eq(byoc_node_attr(g, c, "a_min")->u.f, -5);
    ck_assert_double_eq(byoc_node_attr(g, c, "a_max")->u.f, 7);
    ck_assert_str_eq(byoc_node_op_name(g, byoc_node_arg(g, c, 0)), "qnn.quantize");
    int gp = find_op(g, "nn.global_max_pool2d");
    ck_assert_int_eq(byoc_node_arg(g, gp, 0), c);
    ck_assert_str_eq(type_text(g, gp), "Tensor[(1, 4, 1, 1), int8]");
    ck_assert_str_eq(type_text(g, find_op(g, "reshape")), "Tensor[(1, 4), int8]");
    ck_assert_str_eq(type_text(g, find_op(g, "squeeze")), "Tensor[(4,), int8]");
    ck_assert_str_eq(type_text(g, find_op(g, "expand_dims")), "Tensor[(1, 4), int8]");
    ck_assert_int_eq(count_op(g, "qnn.requantize"), 0);
    ck_assert_int_eq(count_op(g, "qnn.dequantize"), 1);
    ck_assert_str_eq(output_type(g), "Tensor[(1, 4), float32]");
    byoc_graph_destroy(g);
}
END_TEST

/* Opset 10 (no axis attribute), and opset 21's output_dtype and 16-bit
 * types: int16 activations through qnn.conv2d, a uint16 quantize. */
START_TEST(opsets)
{
    mb m;
    mb_init(&m, 10, 5);
    qdq_input(&m, "float[1,2]", 0);
    mb_node(&m, "Relu", "relu", "xd", "r");
    qdq_output(&m, "r", "float[1,2]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "qnn.quantize"), 1);
    ck_assert_int_eq(count_op(g, "qnn.dequantize"), 1);
    ck_assert_int_eq(count_op(g, "qnn.requantize"), 1);
    ck_assert_int_eq(count_op(g, "clip"), 1);
    byoc_graph_destroy(g);

    mb_init(&m, 21, 10);
    mb_input(&m, "x", "float[1,2,4,4]");
    mb_scalar(&m, "xs", 0.5f);
    Onnx__NodeProto *n = mb_node(&m, "QuantizeLinear", "q", "x,xs", "xq");
    attr_int(&m, n, "output_dtype", 5);
    mb_node(&m, "DequantizeLinear", "dq", "xq,xs", "xd");
    mb_weight(&m, "w", "int8[2,2,1,1]");
    mb_scalar(&m, "ws", 0.25f);
    mb_node(&m, "DequantizeLinear", "dqw", "w,ws", "wd");
    mb_node(&m, "Conv", "conv", "xd,wd", "c");
    n = mb_node(&m, "QuantizeLinear", "q2", "c,xs", "out");
    attr_int(&m, n, "output_dtype", 4);
    mb_output(&m, "out", "uint16[1,2,4,4]");
    g = read_ok(&m);
    ck_assert_str_eq(type_text(g, find_op(g, "qnn.quantize")), "Tensor[(1, 2, 4, 4), int16]");
    ck_assert_str_eq(type_text(g, byoc_node_arg(g, find_op(g, "qnn.conv2d"), 0)),
                     "Tensor[(1, 2, 4, 4), int16]");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 2, 4, 4), uint16]");
    ck_assert_str_eq(byoc_node_op_name(g, byoc_graph_output(g)), "qnn.requantize");
    byoc_graph_destroy(g);
}
END_TEST

/* Read with byoc_read_options.quantized_nhwc set. */
static byoc_graph *read_nhwc(mb *m)
{
    pack(m);
    mb_free(m);
    byoc_read_options o = {.quantized_nhwc = true};
    byoc_graph *g = byoc_onnx_read_bytes_with(reg, bytes, nbytes, "model.onnx", &o, &err);
    free(bytes);
    bytes = NULL;
    if (!g) {
        char msg[1024];
        byoc_error_format(&err, msg, sizeof msg);
        ck_abort_msg("reading failed: %s", msg);
    }
    return g;
}

static int count_layout(const byoc_graph *g, const char *op, const char *attr, const char *l)
{
    int n = 0;
    for (int i = 0; i < byoc_graph_node_count(g); i++)
        if (byoc_node_op_name(g, i) && !strcmp(byoc_node_op_name(g, i), op)
            && !strcmp(byoc_node_attr(g, i, attr)->u.s, l))
            n++;
    return n;
}

/* quantized_nhwc: the convolutions NHWC with HWIO (HWOI depthwise)
 * kernels, the pools NHWC, per-channel requantizes along axis 3, and
 * transposes only where the quantized region begins and where Flatten
 * needs NCHW again. */
START_TEST(nhwc_layout)
{
    mb m;
    mb_init(&m, 13, 7);
    qdq_input(&m, "float[1,4,8,8]", 0);
    mb_weight(&m, "w", "int8[4,4,3,3]");
    mb_floats(&m, "ws", 4, 0.1, 0.2, 0.3, 0.4);
    Onnx__NodeProto *n = mb_node(&m, "DequantizeLinear", "dq_w", "w,ws", "wd");
    attr_int(&m, n, "axis", 0);
    mb_weight(&m, "b", "int32[4]");
    mb_floats(&m, "bs", 4, 0.05, 0.1, 0.15, 0.2);
    n = mb_node(&m, "DequantizeLinear", "dq_b", "b,bs", "bd");
    attr_int(&m, n, "axis", 0);
    n = mb_node(&m, "Conv", "conv", "xd,wd,bd", "c");
    attr_ints(&m, n, "pads", 4, 1, 1, 1, 1);
    mb_node(&m, "Relu", "relu", "c", "r");
    mb_node(&m, "QuantizeLinear", "q1", "r,xs,xz", "rq");
    mb_node(&m, "DequantizeLinear", "dq1", "rq,xs,xz", "rd");
    n = mb_node(&m, "MaxPool", "mp", "rd", "p");
    attr_ints(&m, n, "kernel_shape", 2, 2, 2);
    attr_ints(&m, n, "strides", 2, 2, 2);
    mb_node(&m, "QuantizeLinear", "q2", "p,xs,xz", "pq");
    mb_node(&m, "DequantizeLinear", "dq2", "pq,xs,xz", "pd");
    mb_weight(&m, "dw", "int8[4,1,3,3]");
    mb_scalar(&m, "dws", 0.1f);
    mb_node(&m, "DequantizeLinear", "dq_dw", "dw,dws", "dwd");
    n = mb_node(&m, "Conv", "dwconv", "pd,dwd", "d");
    attr_int(&m, n, "group", 4);
    attr_ints(&m, n, "pads", 4, 1, 1, 1, 1);
    mb_node(&m, "QuantizeLinear", "q3", "d,xs,xz", "dq");
    mb_node(&m, "DequantizeLinear", "dq3", "dq,xs,xz", "dd");
    n = mb_node(&m, "AveragePool", "ap", "dd", "a");
    attr_ints(&m, n, "kernel_shape", 2, 2, 2);
    attr_ints(&m, n, "strides", 2, 2, 2);
    mb_node(&m, "QuantizeLinear", "q4", "a,xs,xz", "aq");
    mb_node(&m, "DequantizeLinear", "dq4", "aq,xs,xz", "ad");
    mb_node(&m, "Flatten", "fl", "ad", "f");
    qdq_output(&m, "f", "float[1,16]");
    byoc_graph *g = read_nhwc(&m);
    ck_assert_int_eq(count_layout(g, "qnn.conv2d", "data_layout", "NHWC"), 2);
    ck_assert_int_eq(count_layout(g, "qnn.conv2d", "kernel_layout", "HWIO"), 1);
    ck_assert_int_eq(count_layout(g, "qnn.conv2d", "kernel_layout", "HWOI"), 1);
    int c = find_op(g, "qnn.conv2d");
    ck_assert_str_eq(type_text(g, byoc_node_arg(g, c, 1)), "Tensor[(3, 3, 4, 4), int8]");
    ck_assert_str_eq(type_text(g, c), "Tensor[(1, 8, 8, 4), int32]");
    ck_assert_str_eq(attr_text(g, find_op(g, "nn.bias_add"), "axis"), "3");
    ck_assert_str_eq(attr_text(g, find_op(g, "qnn.requantize"), "axis"), "3");
    ck_assert_int_eq(count_op(g, "clip"), 1);
    int mp = find_op(g, "nn.max_pool2d");
    ck_assert_str_eq(attr_text(g, mp, "layout"), "\"NHWC\"");
    ck_assert_str_eq(type_text(g, mp), "Tensor[(1, 4, 4, 4), int8]");
    int ap = find_op(g, "nn.avg_pool2d");
    ck_assert_str_eq(attr_text(g, ap, "layout"), "\"NHWC\"");
    ck_assert_str_eq(type_text(g, ap), "Tensor[(1, 2, 2, 4), int32]");
    for (int i = 0; i < byoc_graph_node_count(g); i++)
        if (byoc_node_op_name(g, i) && !strcmp(byoc_node_op_name(g, i), "qnn.conv2d")
            && !strcmp(byoc_node_attr(g, i, "kernel_layout")->u.s, "HWOI"))
            ck_assert_str_eq(type_text(g, byoc_node_arg(g, i, 1)), "Tensor[(3, 3, 4, 1), int8]");
    /* The input's transpose into NHWC and the flatten's back. */
    ck_assert_int_eq(count_op(g, "transpose"), 2);
    int fl = find_op(g, "nn.batch_flatten");
    ck_assert_str_eq(byoc_node_op_name(g, byoc_node_arg(g, fl, 0)), "transpose");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 16), float32]");
    ck_assert(flops_known(g));
    byoc_graph_destroy(g);

    /* A float user of an NHWC tensor sees it in NCHW. */
    mb_init(&m, 13, 7);
    qdq_input(&m, "float[1,2,4,4]", 0);
    n = mb_node(&m, "MaxPool", "mp", "xd", "p");
    attr_ints(&m, n, "kernel_shape", 2, 2, 2);
    mb_node(&m, "Sigmoid", "sig", "p", "out");
    mb_output(&m, "out", "float[1,2,3,3]");
    g = read_nhwc(&m);
    int sg = find_op(g, "sigmoid");
    int t = byoc_node_arg(g, sg, 0);
    ck_assert_str_eq(byoc_node_op_name(g, t), "transpose");
    ck_assert_str_eq(attr_text(g, t, "axes"), "[0, 3, 1, 2]");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 2, 3, 3), float32]");
    byoc_graph_destroy(g);
}
END_TEST

/* ---- the QOperator ops ---------------------------------------------------------- */

/* QLinearConv with a per-channel weight and a bias: qnn.conv2d,
 * nn.bias_add, qnn.requantize along the channels to y's uint8.
 * ConvInteger: qnn.conv2d with unit scales, int32 out. */
START_TEST(qlinear_conv_and_conv_integer)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "uint8[1,3,8,8]");
    mb_scalar(&m, "xs", 0.5f);
    mb_qints(&m, "xz", "uint8[]", 1, 128);
    mb_weight(&m, "w", "int8[4,3,3,3]");
    mb_floats(&m, "ws", 4, 0.1, 0.2, 0.3, 0.4);
    mb_qints(&m, "wz", "int8[4]", 4, 0, 0, 0, 0);
    mb_scalar(&m, "ys", 0.25f);
    mb_qints(&m, "yz", "uint8[]", 1, 100);
    mb_weight(&m, "b", "int32[4]");
    Onnx__NodeProto *n = mb_node(&m, "QLinearConv", "qc", "x,xs,xz,w,ws,wz,ys,yz,b", "y");
    attr_ints(&m, n, "pads", 4, 1, 1, 1, 1);
    attr_ints(&m, n, "strides", 2, 2, 2);
    mb_output(&m, "y", "uint8[1,4,4,4]");
    byoc_graph *g = read_ok(&m);
    int c = find_op(g, "qnn.conv2d");
    ck_assert_str_eq(attr_text(g, c, "strides"), "[2, 2]");
    ck_assert_str_eq(type_text(g, c), "Tensor[(1, 4, 4, 4), int32]");
    /* Zero points all 0: one scalar. */
    ck_assert_str_eq(type_text(g, byoc_node_arg(g, c, 3)), "Tensor[(), int32]");
    ck_assert_int_eq(count_op(g, "nn.bias_add"), 1);
    int rq = find_op(g, "qnn.requantize");
    ck_assert_str_eq(attr_text(g, rq, "axis"), "1");
    ck_assert_str_eq(attr_text(g, rq, "out_dtype"), "uint8");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 4, 4, 4), uint8]");
    ck_assert(flops_known(g));
    byoc_graph_destroy(g);

    mb_init(&m, 13, 7);
    mb_input(&m, "x", "uint8[1,3,8,8]");
    mb_weight(&m, "w", "uint8[4,3,1,1]");
    mb_qints(&m, "xz", "uint8[]", 1, 3);
    mb_node(&m, "ConvInteger", "ci", "x,w,xz", "y");
    mb_output(&m, "y", "int32[1,4,8,8]");
    g = read_ok(&m);
    c = find_op(g, "qnn.conv2d");
    ck_assert_int_eq(byoc_graph_output(g), c);
    ck_assert_double_eq(byoc_node_const_value(g, byoc_node_arg(g, c, 4))->u.f, 1.0);
    ck_assert_int_eq(byoc_node_const_value(g, byoc_node_arg(g, c, 2))->u.i, 3);
    ck_assert_str_eq(output_type(g), "Tensor[(1, 4, 8, 8), int32]");
    byoc_graph_destroy(g);

    /* Per-channel weight zero points of different values stay a list. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "uint8[1,3,8,8]");
    mb_weight(&m, "w", "uint8[4,3,1,1]");
    mb_qints(&m, "wz", "uint8[4]", 4, 1, 2, 3, 4);
    mb_node(&m, "ConvInteger", "ci", "x,w,,wz", "y");
    mb_output(&m, "y", "int32[1,4,8,8]");
    g = read_ok(&m);
    c = find_op(g, "qnn.conv2d");
    const byoc_value *kz = byoc_node_const_value(g, byoc_node_arg(g, c, 3));
    ck_assert_ptr_nonnull(kz);
    ck_assert_int_eq(kz->kind, BYOC_V_LIST);
    ck_assert_int_eq(kz->u.list.items[3].u.i, 4);
    ck_assert_int_eq(byoc_node_const_value(g, byoc_node_arg(g, c, 2))->u.i, 0);
    byoc_graph_destroy(g);

    /* A 1-D convolution has no QNN form: opaque, with the reason. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "uint8[1,3,8]");
    mb_weight(&m, "w", "uint8[4,3,1]");
    mb_node(&m, "ConvInteger", "ci", "x,w", "y");
    mb_output(&m, "y", "int32[1,4,8]");
    g = read_ok(&m);
    ck_assert(has_note(g, "QNN has qnn.conv2d only"));
    ck_assert_int_eq(count_op(g, "qnn.conv2d"), 0);
    byoc_graph_destroy(g);
}
END_TEST

/* QLinearMatMul with a constant B: qnn.dense on the transposed constant
 * and qnn.requantize; MatMulInteger with a B computed at run time: a
 * transpose; a batched one stays opaque. */
START_TEST(qlinear_matmul_and_matmul_integer)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "a", "int8[2,5]");
    mb_scalar(&m, "as", 0.5f);
    mb_qints(&m, "az", "int8[]", 1, 0);
    mb_weight(&m, "b", "int8[5,3]");
    mb_scalar(&m, "bs", 0.5f);
    mb_qints(&m, "bz", "int8[]", 1, 0);
    mb_scalar(&m, "ys", 1.0f);
    mb_qints(&m, "yz", "int8[]", 1, 0);
    mb_node(&m, "QLinearMatMul", "qm", "a,as,az,b,bs,bz,ys,yz", "y");
    mb_output(&m, "y", "int8[2,3]");
    byoc_graph *g = read_ok(&m);
    int d = find_op(g, "qnn.dense");
    ck_assert_str_eq(type_text(g, byoc_node_arg(g, d, 1)), "Tensor[(3, 5), int8]");
    ck_assert_int_eq(byoc_node_kind_of(g, byoc_node_arg(g, d, 1)), BYOC_N_CONST);
    int rq = find_op(g, "qnn.requantize");
    ck_assert_double_eq(byoc_node_const_value(g, byoc_node_arg(g, rq, 1))->u.f, 0.25);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3), int8]");
    byoc_graph_destroy(g);

    mb_init(&m, 13, 7);
    mb_input(&m, "a", "uint8[2,5]");
    mb_input(&m, "b", "uint8[5,3]");
    mb_node(&m, "MatMulInteger", "mi", "a,b", "y");
    mb_output(&m, "y", "int32[2,3]");
    g = read_ok(&m);
    d = find_op(g, "qnn.dense");
    ck_assert_str_eq(byoc_node_op_name(g, byoc_node_arg(g, d, 1)), "transpose");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3), int32]");
    ck_assert(flops_known(g));
    byoc_graph_destroy(g);

    mb_init(&m, 13, 7);
    mb_input(&m, "a", "uint8[4,2,5]");
    mb_input(&m, "b", "uint8[4,5,3]");
    mb_node(&m, "MatMulInteger", "mi", "a,b", "y");
    mb_output(&m, "y", "int32[4,2,3]");
    g = read_ok(&m);
    ck_assert(has_note(g, "a product of other than two matrices"));
    byoc_graph_destroy(g);
}
END_TEST

/* DynamicQuantizeLinear: y, its scale and zero point from x's range. */
START_TEST(dynamic_quantize_linear)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_node(&m, "DynamicQuantizeLinear", "dq", "x", "y,s,z");
    mb_output(&m, "y", "uint8[2,3]");
    mb_output(&m, "s", "float[]");
    mb_output(&m, "z", "uint8[]");
    byoc_graph *g = read_ok(&m);
    int q = find_op(g, "qnn.quantize");
    ck_assert_str_eq(type_text(g, q), "Tensor[(2, 3), uint8]");
    ck_assert_int_eq(count_op(g, "max"), 1);
    ck_assert_int_eq(count_op(g, "min"), 1);
    ck_assert_int_eq(count_op(g, "round"), 1);
    int s = byoc_node_arg(g, q, 1);
    ck_assert_str_eq(byoc_node_op_name(g, s), "divide");
    ck_assert_str_eq(type_text(g, s), "Tensor[(), float32]");
    int out = byoc_graph_output(g);
    ck_assert_str_eq(type_text(g, byoc_node_arg(g, out, 2)), "Tensor[(), uint8]");
    ck_assert(flops_known(g));
    byoc_graph_destroy(g);
}
END_TEST

/* ONNX Runtime's QLinearAdd, QLinearMul, QLinearSigmoid, QLinearLeakyRelu
 * and QLinearConcat: their QNN ops with the scales and zero points. */
START_TEST(ort_qlinear_elementwise)
{
    static const char *const ops[][2] = {{"QLinearAdd", "qnn.add"}, {"QLinearMul", "qnn.mul"}};
    for (int k = 0; k < 2; k++) {
        mb m;
        mb_init(&m, 13, 7);
        mb_opset(&m, "com.microsoft", 1);
        mb_input(&m, "a", "int8[1,4]");
        mb_input(&m, "b", "int8[1,4]");
        mb_scalar(&m, "s1", 0.5f);
        mb_scalar(&m, "s2", 0.25f);
        mb_qints(&m, "z", "int8[]", 1, 2);
        mb_domain(&m, mb_node(&m, ops[k][0], "bin", "a,s1,z,b,s2,z,s1,z", "y"), "com.microsoft");
        mb_output(&m, "y", "int8[1,4]");
        byoc_graph *g = read_ok(&m);
        int a = find_op(g, ops[k][1]);
        ck_assert_double_eq(byoc_node_const_value(g, byoc_node_arg(g, a, 4))->u.f, 0.25);
        ck_assert_int_eq(byoc_node_const_value(g, byoc_node_arg(g, a, 3))->u.i, 2);
        ck_assert_str_eq(output_type(g), "Tensor[(1, 4), int8]");
        byoc_graph_destroy(g);
    }
    mb m;
    mb_init(&m, 13, 7);
    mb_opset(&m, "com.microsoft", 1);
    mb_input(&m, "x", "uint8[1,4]");
    mb_scalar(&m, "s", 0.5f);
    mb_qints(&m, "z", "uint8[]", 1, 128);
    mb_domain(&m, mb_node(&m, "QLinearSigmoid", "sig", "x,s,z,s,z", "y1"), "com.microsoft");
    Onnx__NodeProto *n = mb_node(&m, "QLinearLeakyRelu", "lr", "y1,s,z,s,z", "y2");
    mb_domain(&m, n, "com.microsoft");
    attr_float(&m, n, "alpha", 0.125f);
    n = mb_node(&m, "QLinearConcat", "cat", "s,z,y1,s,z,y2,s,z", "y");
    mb_domain(&m, n, "com.microsoft");
    attr_int(&m, n, "axis", 1);
    mb_output(&m, "y", "uint8[1,8]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "qnn.sigmoid"), 1);
    int lr = find_op(g, "qnn.leaky_relu");
    ck_assert_double_eq(byoc_node_attr(g, lr, "alpha")->u.f, 0.125);
    int cat = find_op(g, "qnn.concatenate");
    ck_assert_str_eq(attr_text(g, cat, "axis"), "1");
    ck_assert_int_eq(byoc_node_kind_of(g, byoc_node_arg(g, cat, 1)), BYOC_N_TUPLE);
    ck_assert_str_eq(output_type(g), "Tensor[(1, 8), uint8]");
    ck_assert(flops_known(g));
    byoc_graph_destroy(g);

    /* QLinearSoftmax to CMSIS-NN's output quantization (1/256, -128). */
    mb_init(&m, 13, 7);
    mb_opset(&m, "com.microsoft", 1);
    mb_input(&m, "x", "int8[1,10]");
    mb_scalar(&m, "s", 0.5f);
    mb_scalar(&m, "ys", 1.0f / 256);
    mb_qints(&m, "yz", "int8[]", 1, -128);
    n = mb_node(&m, "QLinearSoftmax", "sm", "x,s,,ys,yz", "y");
    mb_domain(&m, n, "com.microsoft");
    attr_int(&m, n, "opset", 13);
    mb_output(&m, "y", "int8[1,10]");
    g = read_ok(&m);
    int q = byoc_graph_output(g);
    ck_assert_str_eq(byoc_node_op_name(g, q), "qnn.quantize");
    int sm = byoc_node_arg(g, q, 0);
    ck_assert_str_eq(byoc_node_op_name(g, sm), "nn.softmax");
    ck_assert_str_eq(attr_text(g, sm, "axis"), "1");
    ck_assert_str_eq(byoc_node_op_name(g, byoc_node_arg(g, sm, 0)), "qnn.dequantize");
    ck_assert_int_eq(byoc_node_const_value(g, byoc_node_arg(g, q, 2))->u.i, -128);
    ck_assert_str_eq(output_type(g), "Tensor[(1, 10), int8]");
    byoc_graph_destroy(g);
}
END_TEST

/* QLinearAveragePool and QLinearGlobalAveragePool: the pool on the
 * int32 cast, cast back (same quantization) or requantized; channels_last
 * stays opaque. */
START_TEST(ort_qlinear_pools)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_opset(&m, "com.microsoft", 1);
    mb_input(&m, "x", "int8[1,2,4,4]");
    mb_scalar(&m, "s", 0.5f);
    mb_scalar(&m, "s2", 0.25f);
    mb_qints(&m, "z", "int8[]", 1, 0);
    Onnx__NodeProto *n = mb_node(&m, "QLinearAveragePool", "ap", "x,s,z,s,z", "a");
    mb_domain(&m, n, "com.microsoft");
    attr_ints(&m, n, "kernel_shape", 2, 2, 2);
    attr_ints(&m, n, "strides", 2, 2, 2);
    mb_domain(&m, mb_node(&m, "QLinearGlobalAveragePool", "gp", "a,s,z,s2,z", "y"),
              "com.microsoft");
    mb_output(&m, "y", "int8[1,2,1,1]");
    byoc_graph *g = read_ok(&m);
    int ap = find_op(g, "nn.avg_pool2d");
    ck_assert_str_eq(type_text(g, ap), "Tensor[(1, 2, 2, 2), int32]");
    int gp = find_op(g, "nn.global_avg_pool2d");
    ck_assert_str_eq(type_text(g, gp), "Tensor[(1, 2, 1, 1), int32]");
    ck_assert_int_eq(count_op(g, "cast"), 3);
    int rq = find_op(g, "qnn.requantize");
    ck_assert_int_eq(byoc_node_arg(g, rq, 0), gp);
    ck_assert_str_eq(output_type(g), "Tensor[(1, 2, 1, 1), int8]");
    byoc_graph_destroy(g);

    mb_init(&m, 13, 7);
    mb_opset(&m, "com.microsoft", 1);
    mb_input(&m, "x", "int8[1,4,4,2]");
    mb_scalar(&m, "s", 0.5f);
    n = mb_node(&m, "QLinearGlobalAveragePool", "gp", "x,s,,s", "y");
    mb_domain(&m, n, "com.microsoft");
    attr_int(&m, n, "channels_last", 1);
    mb_output(&m, "y", "int8[1,1,1,2]");
    g = read_ok(&m);
    ck_assert(has_note(g, "channels_last"));
    byoc_graph_destroy(g);
}
END_TEST

/* QGemm with and without y_scale; MatMulIntegerToFloat and
 * DynamicQuantizeMatMul on a 3-D A: flattened, qnn.dense, dequantized,
 * reshaped back, the bias added. */
START_TEST(ort_quantized_gemm_and_matmuls)
{
    for (int with_y = 0; with_y < 2; with_y++) {
        mb m;
        mb_init(&m, 13, 7);
        mb_opset(&m, "com.microsoft", 1);
        mb_input(&m, "a", "uint8[2,5]");
        mb_scalar(&m, "as", 0.5f);
        mb_qints(&m, "az", "uint8[]", 1, 128);
        mb_weight(&m, "b", "int8[3,5]");
        mb_scalar(&m, "bs", 0.5f);
        mb_weight(&m, "c", "int32[3]");
        mb_scalar(&m, "ys", 0.1f);
        mb_qints(&m, "yz", "uint8[]", 1, 0);
        Onnx__NodeProto *n = mb_node(&m, "QGemm", "qg", with_y ? "a,as,az,b,bs,,c,ys,yz"
                                                               : "a,as,az,b,bs,,c", "y");
        mb_domain(&m, n, "com.microsoft");
        attr_int(&m, n, "transB", 1);
        mb_output(&m, "y", with_y ? "uint8[2,3]" : "float[2,3]");
        byoc_graph *g = read_ok(&m);
        int d = find_op(g, "qnn.dense");
        ck_assert_str_eq(attr_text(g, d, "units"), "3");
        ck_assert_int_eq(count_op(g, "nn.bias_add"), 1);
        ck_assert_int_eq(count_op(g, "qnn.requantize"), with_y);
        ck_assert_int_eq(count_op(g, "qnn.dequantize"), !with_y);
        ck_assert_str_eq(output_type(g),
                         with_y ? "Tensor[(2, 3), uint8]" : "Tensor[(2, 3), float32]");
        byoc_graph_destroy(g);
    }
    for (int dyn = 0; dyn < 2; dyn++) {
        mb m;
        mb_init(&m, 13, 7);
        mb_opset(&m, "com.microsoft", 1);
        mb_input(&m, "a", dyn ? "float[2,4,5]" : "uint8[2,4,5]");
        mb_weight(&m, "b", "int8[5,3]");
        mb_scalar(&m, "as", 0.5f);
        mb_floats(&m, "bs", 3, 0.1, 0.2, 0.3);
        mb_floats(&m, "bias", 3, 1.0, 2.0, 3.0);
        Onnx__NodeProto *n =
            dyn ? mb_node(&m, "DynamicQuantizeMatMul", "mm", "a,b,bs,,bias", "y")
                : mb_node(&m, "MatMulIntegerToFloat", "mm", "a,b,as,bs,,,bias", "y");
        mb_domain(&m, n, "com.microsoft");
        mb_output(&m, "y", "float[2,4,3]");
        byoc_graph *g = read_ok(&m);
        int d = find_op(g, "qnn.dense");
        ck_assert_str_eq(type_text(g, byoc_node_arg(g, d, 0)), "Tensor[(8, 5), uint8]");
        ck_assert_str_eq(type_text(g, byoc_node_arg(g, d, 1)), "Tensor[(3, 5), int8]");
        int dq = find_op(g, "qnn.dequantize");
        ck_assert_str_eq(attr_text(g, dq, "axis"), "1");
        /* The scale: computed from A's range, or a constant product. */
        int s = byoc_node_arg(g, dq, 1);
        if (dyn) {
            ck_assert_str_eq(byoc_node_op_name(g, s), "multiply");
        } else {
            const byoc_value *v = byoc_node_const_value(g, s);
            ck_assert_ptr_nonnull(v);
            ck_assert_double_eq_tol(v->u.list.items[2].u.f, 0.15, 1e-7);
        }
        ck_assert_int_eq(count_op(g, "add"), 1);
        ck_assert_int_eq(count_op(g, "qnn.quantize"), dyn);
        ck_assert_str_eq(output_type(g), "Tensor[(2, 4, 3), float32]");
        ck_assert(flops_known(g));
        byoc_graph_destroy(g);
    }
}
END_TEST

/* ---- Errors ------------------------------------------------------------------------ */

START_TEST(bad_quantization)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "int8[1,3]");
    mb_node(&m, "DequantizeLinear", "dq", "x", "out");
    mb_output(&m, "out", "float[1,3]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "node 'dq' (DequantizeLinear): inputs x and "
                                                 "x_scale are required"));

    mb_init(&m, 13, 7);
    mb_input(&m, "x", "int8[1,3]");
    mb_floats(&m, "s", 3, 0.1, 0.2, 0.3);
    Onnx__NodeProto *n = mb_node(&m, "DequantizeLinear", "dq", "x,s", "out");
    attr_int(&m, n, "axis", 5);
    mb_output(&m, "out", "float[1,3]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "axis 5 is out of range for rank 2"));

    /* A per-axis scale or zero point of the wrong length is the model's
     * error (it became a qnn.dequantize that no channel count matched). */
    for (int zp = 0; zp < 2; zp++) {
        mb_init(&m, 13, 7);
        mb_input(&m, "x", "int8[1,3]");
        mb_floats(&m, "s", zp ? 3 : 2, 0.1, 0.2, 0.3);
        mb_qints(&m, "z", "int8[2]", 2, 0, 0);
        n = mb_node(&m, "DequantizeLinear", "dq", zp ? "x,s,z" : "x,s", "out");
        attr_int(&m, n, "axis", 1);
        mb_output(&m, "out", "float[1,3]");
        const char *msg = read_error(&m);
        ck_assert_msg(strstr(msg, zp ? "the zero point holds 2 values for the 3 of axis 1"
                                     : "the scale holds 2 values for the 3 of axis 1") != NULL,
                      "%s", msg);
    }

    /* Blocked quantization (opset 21) stays opaque, with the reason. */
    mb_init(&m, 21, 10);
    mb_input(&m, "x", "int8[4,4]");
    mb_weight(&m, "s", "float[4,2]");
    n = mb_node(&m, "DequantizeLinear", "dq", "x,s", "out");
    attr_int(&m, n, "block_size", 2);
    mb_output(&m, "out", "float[4,4]");
    byoc_graph *g = read_ok(&m);
    ck_assert(has_note(g, "blocked quantization (block_size 2)"));
    byoc_graph_destroy(g);
}
END_TEST

/* Attributes from the model that no quantized op can have: a negative
 * block_size (read as none), QLinearConcat's axis past the rank, and
 * QLinearConv's group against the weight (they became notes). */
START_TEST(bad_quantized_attributes)
{
    mb m;
    mb_init(&m, 21, 10);
    mb_input(&m, "x", "int8[4,4]");
    mb_floats(&m, "s", 4, 0.1, 0.2, 0.3, 0.4);
    Onnx__NodeProto *n = mb_node(&m, "DequantizeLinear", "dq", "x,s", "out");
    attr_int(&m, n, "block_size", -1);
    mb_output(&m, "out", "float[4,4]");
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'dq' (DequantizeLinear): "
                                     "attribute 'block_size' is -1");

    mb_init(&m, 13, 7);
    mb_opset(&m, "com.microsoft", 1);
    mb_input(&m, "x", "uint8[1,4]");
    mb_scalar(&m, "s", 0.5f);
    mb_qints(&m, "z", "uint8[]", 1, 128);
    n = mb_node(&m, "QLinearConcat", "cat", "s,z,x,s,z,x,s,z", "y");
    mb_domain(&m, n, "com.microsoft");
    attr_int(&m, n, "axis", 2);
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'cat' (QLinearConcat): attribute "
                                     "'axis' is 2 for a tensor of rank 2");

    mb_init(&m, 13, 7);
    mb_input(&m, "x", "uint8[1,3,8,8]");
    mb_scalar(&m, "xs", 0.5f);
    mb_qints(&m, "xz", "uint8[]", 1, 128);
    mb_weight(&m, "w", "int8[4,3,3,3]");
    mb_scalar(&m, "ws", 0.1f);
    mb_qints(&m, "wz", "int8[]", 1, 0);
    mb_scalar(&m, "ys", 0.25f);
    mb_qints(&m, "yz", "uint8[]", 1, 100);
    n = mb_node(&m, "QLinearConv", "qc", "x,xs,xz,w,ws,wz,ys,yz", "y");
    attr_int(&m, n, "group", 3);
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'qc' (QLinearConv): group 3 does "
                                     "not divide the weight's 4 output channels");
}
END_TEST

static Suite *qdq_suite(void)
{
    Suite *s = suite_create("onnx_qdq");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, conv_per_tensor);
    tcase_add_test(core, conv_per_channel);
    tcase_add_test(core, gemm_and_matmul);
    tcase_add_test(core, add_and_mul);
    tcase_add_test(core, pools);
    tcase_add_test(core, float_ops_stay_float);
    tcase_add_test(core, constants_casts_axes);
    tcase_add_test(core, clip_and_shape_ops);
    tcase_add_test(core, opsets);
    tcase_add_test(core, nhwc_layout);
    tcase_add_test(core, qlinear_conv_and_conv_integer);
    tcase_add_test(core, qlinear_matmul_and_matmul_integer);
    tcase_add_test(core, dynamic_quantize_linear);
    tcase_add_test(core, ort_qlinear_elementwise);
    tcase_add_test(core, ort_qlinear_pools);
    tcase_add_test(core, ort_quantized_gemm_and_matmuls);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, bad_quantization);
    tcase_add_test(errors, bad_quantized_attributes);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(qdq_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
