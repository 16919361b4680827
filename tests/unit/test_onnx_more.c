/* Unit tests of the converters in runtime/onnx_more.c: activations,
 * normalisations, reductions, scans, scatters, creation ops and the
 * unrolled recurrent layers.
 *
 * Each test builds a model with the shared builder (onnx_mb.h), reads it
 * and checks the Relay ops it became, their key attributes and the
 * inferred output type; a declared output type that inference disagrees
 * with would leave a note, so every test also checks there are none. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>
#include <byoc/onnx.h>

#include "runtime/onnx.pb-c.h"
#include "tests/unit/onnx_mb.h"

/* Every node typed and nothing noted: no opaque call, no disagreement
 * with a declared type. */
static void assert_clean(const byoc_graph *g)
{
    for (int i = 0; i < byoc_graph_node_count(g); i++)
        ck_assert_msg(byoc_node_untyped_reason(g, i) == NULL, "node %d (%s) untyped: %s", i,
                      byoc_node_op_name(g, i) ? byoc_node_op_name(g, i) : "-",
                      byoc_node_untyped_reason(g, i));
    if (byoc_graph_note_count(g))
        ck_abort_msg("note: %s", byoc_graph_note(g, 0));
}

/* A one-node model x -> OP -> y of the given types; the node for
 * attributes. */
static Onnx__NodeProto *unary(mb *m, int opset, const char *op, const char *in_type,
                              const char *out_type)
{
    mb_init(m, opset, 8);
    mb_input(m, "x", in_type);
    Onnx__NodeProto *n = mb_node(m, op, "n", "x", "y");
    mb_output(m, "y", out_type);
    return n;
}

static void attr_strings(mb *m, Onnx__NodeProto *n, const char *name, int count, ...)
{
    Onnx__AttributeProto *a = mb_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS);
    a->strings = mb_alloc(m, sizeof(ProtobufCBinaryData) * (size_t)count);
    va_list ap;
    va_start(ap, count);
    for (int i = 0; i < count; i++) {
        const char *s = va_arg(ap, const char *);
        a->strings[i].data = (uint8_t *)mb_str(m, s);
        a->strings[i].len = strlen(s);
    }
    va_end(ap);
    a->n_strings = (size_t)count;
}

static void attr_floats(mb *m, Onnx__NodeProto *n, const char *name, int count, ...)
{
    Onnx__AttributeProto *a = mb_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS);
    a->floats = mb_alloc(m, sizeof(float) * (size_t)count);
    va_list ap;
    va_start(ap, count);
    for (int i = 0; i < count; i++)
        a->floats[i] = (float)va_arg(ap, double);
    va_end(ap);
    a->n_floats = (size_t)count;
}

/* The op of node i's argument k. */
static const char *arg_op(const byoc_graph *g, int node, int k)
{
    const char *op = byoc_node_op_name(g, byoc_node_arg(g, node, k));
    return op ? op : "-";
}

/* Field i of a model with several outputs (a tuple). */
static int out_at(const byoc_graph *g, int i)
{
    return byoc_node_arg(g, byoc_graph_output(g), i);
}

/* ---- activations ------------------------------------------------------------------- */

START_TEST(elu_selu_celu)
{
    mb m;
    Onnx__NodeProto *n = unary(&m, 6, "Elu", "float[2,3]", "float[2,3]");
    attr_float(&m, n, "alpha", 0.5f);
    byoc_graph *g = read_ok(&m);
    /* -alpha * relu(1 - exp(x)) + relu(x) */
    ck_assert_int_eq(count_op(g, "nn.relu"), 2);
    ck_assert_int_eq(count_op(g, "exp"), 1);
    ck_assert_int_eq(count_op(g, "subtract"), 1);
    ck_assert_int_eq(count_op(g, "multiply"), 1);
    ck_assert_str_eq(byoc_node_op_name(g, byoc_graph_output(g)), "add");
    int mul = find_op(g, "multiply");
    const byoc_value *a = byoc_node_const_value(g, byoc_node_arg(g, mul, 0));
    ck_assert_ptr_nonnull(a);
    ck_assert_double_eq_tol(a->u.f, -0.5, 1e-6);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    unary(&m, 6, "Selu", "float[4]", "float[4]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.relu"), 2);
    ck_assert_int_eq(count_op(g, "multiply"), 2);
    int out = byoc_graph_output(g);
    ck_assert_str_eq(byoc_node_op_name(g, out), "multiply");
    ck_assert_double_eq_tol(byoc_node_const_value(g, byoc_node_arg(g, out, 0))->u.f, 1.0507,
                            1e-4);
    assert_clean(g);
    byoc_graph_destroy(g);

    n = unary(&m, 12, "Celu", "float[1,5]", "float[1,5]");
    attr_float(&m, n, "alpha", 2.0f);
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "maximum"), 1);
    ck_assert_int_eq(count_op(g, "minimum"), 1);
    ck_assert_int_eq(count_op(g, "exp"), 1);
    ck_assert_int_eq(count_op(g, "divide"), 1);
    ck_assert_str_eq(byoc_node_op_name(g, byoc_graph_output(g)), "add");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 5), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    n = unary(&m, 12, "Celu", "float[1,5]", "float[1,5]");
    attr_float(&m, n, "alpha", 0.0f);
    ck_assert_ptr_nonnull(strstr(read_error(&m), "'alpha' is 0"));
}
END_TEST

START_TEST(softplus_softsign_mish)
{
    mb m;
    unary(&m, 1, "Softplus", "float[3,4]", "float[3,4]");
    byoc_graph *g = read_ok(&m);
    int out = byoc_graph_output(g);
    ck_assert_str_eq(byoc_node_op_name(g, out), "log");
    ck_assert_str_eq(arg_op(g, out, 0), "add");
    ck_assert_int_eq(count_op(g, "exp"), 1);
    ck_assert_str_eq(output_type(g), "Tensor[(3, 4), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    unary(&m, 1, "Softsign", "float[3,4]", "float[3,4]");
    g = read_ok(&m);
    out = byoc_graph_output(g);
    ck_assert_str_eq(byoc_node_op_name(g, out), "divide");
    ck_assert_str_eq(arg_op(g, out, 1), "add");
    ck_assert_int_eq(count_op(g, "abs"), 1);
    assert_clean(g);
    byoc_graph_destroy(g);

    unary(&m, 18, "Mish", "float16[2,8]", "float16[2,8]");
    g = read_ok(&m);
    out = byoc_graph_output(g);
    ck_assert_str_eq(byoc_node_op_name(g, out), "multiply");
    ck_assert_str_eq(arg_op(g, out, 1), "tanh");
    ck_assert_int_eq(count_op(g, "log"), 1);
    ck_assert_int_eq(count_op(g, "exp"), 1);
    /* The constant 1 has the input's type. */
    ck_assert_str_eq(output_type(g), "Tensor[(2, 8), float16]");
    assert_clean(g);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(thresholded_relu_shrink)
{
    mb m;
    Onnx__NodeProto *n = unary(&m, 10, "ThresholdedRelu", "float[6]", "float[6]");
    attr_float(&m, n, "alpha", 2.0f);
    byoc_graph *g = read_ok(&m);
    int gt = find_op(g, "greater"), cast = find_op(g, "cast");
    ck_assert_double_eq_tol(byoc_node_const_value(g, byoc_node_arg(g, gt, 1))->u.f, 2.0, 1e-6);
    ck_assert_str_eq(attr_text(g, cast, "dtype"), "float32");
    ck_assert_str_eq(byoc_node_op_name(g, byoc_graph_output(g)), "multiply");
    ck_assert_str_eq(output_type(g), "Tensor[(6,), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    n = unary(&m, 9, "Shrink", "float[2,2]", "float[2,2]");
    attr_float(&m, n, "lambd", 1.5f);
    attr_float(&m, n, "bias", 0.25f);
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "where"), 2);
    ck_assert_int_eq(count_op(g, "zeros_like"), 1);
    int less = find_op(g, "less");
    ck_assert_double_eq_tol(byoc_node_const_value(g, byoc_node_arg(g, less, 1))->u.f, -1.5, 1e-6);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 2), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(is_inf_and_bits)
{
    mb m;
    unary(&m, 10, "IsInf", "float[4]", "bool[4]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_calls(g), 1);
    ck_assert_str_eq(byoc_node_op_name(g, byoc_graph_output(g)), "isinf");
    ck_assert_str_eq(output_type(g), "Tensor[(4,), bool]");
    assert_clean(g);
    byoc_graph_destroy(g);

    Onnx__NodeProto *n = unary(&m, 10, "IsInf", "float[4]", "bool[4]");
    attr_int(&m, n, "detect_negative", 0);
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "logical_and"), 1);
    ck_assert_int_eq(count_op(g, "greater"), 1);
    ck_assert_int_eq(count_op(g, "less"), 0);
    ck_assert_str_eq(output_type(g), "Tensor[(4,), bool]");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 18, 8);
    mb_input(&m, "a", "uint8[2,3]");
    mb_input(&m, "b", "uint8[3]");
    mb_node(&m, "BitwiseAnd", "and", "a,b", "c");
    mb_node(&m, "BitwiseOr", "or", "c,b", "d");
    mb_node(&m, "BitwiseXor", "xor", "d,a", "e");
    mb_node(&m, "BitwiseNot", "not", "e", "f");
    n = mb_node(&m, "BitShift", "shl", "f,b", "h");
    attr_string(&m, n, "direction", "LEFT");
    n = mb_node(&m, "BitShift", "shr", "h,b", "y");
    attr_string(&m, n, "direction", "RIGHT");
    mb_output(&m, "y", "uint8[2,3]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "bitwise_and"), 1);
    ck_assert_int_eq(count_op(g, "bitwise_or"), 1);
    ck_assert_int_eq(count_op(g, "bitwise_xor"), 1);
    ck_assert_int_eq(count_op(g, "bitwise_not"), 1);
    ck_assert_int_eq(count_op(g, "left_shift"), 1);
    ck_assert_str_eq(byoc_node_op_name(g, byoc_graph_output(g)), "right_shift");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3), uint8]");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 11, 8);
    mb_input(&m, "a", "uint8[2]");
    n = mb_node(&m, "BitShift", "s", "a,a", "y");
    attr_string(&m, n, "direction", "UP");
    mb_output(&m, "y", "uint8[2]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "expected LEFT or RIGHT"));
}
END_TEST

/* ---- normalisation, pooling, reductions ------------------------------------------------ */

START_TEST(group_normalization)
{
    mb m;
    /* Opset 21: one scale per channel, straight to nn.group_norm. */
    mb_init(&m, 21, 10);
    mb_input(&m, "x", "float[2,8,5,5]");
    mb_weight(&m, "s", "float[8]");
    mb_weight(&m, "b", "float[8]");
    Onnx__NodeProto *n = mb_node(&m, "GroupNormalization", "gn", "x,s,b", "y");
    attr_int(&m, n, "num_groups", 4);
    attr_float(&m, n, "epsilon", 1e-3f);
    mb_output(&m, "y", "float[2,8,5,5]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_calls(g), 1);
    int gn = find_op(g, "nn.group_norm");
    ck_assert_str_eq(attr_text(g, gn, "num_groups"), "4");
    ck_assert_str_eq(attr_text(g, gn, "axis"), "1");
    ck_assert_double_eq_tol(byoc_node_attr(g, gn, "epsilon")->u.f, 1e-3, 1e-9);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 8, 5, 5), float32]");
    ck_assert_double_eq(byoc_node_flops(g, gn), 7.0 * 2 * 8 * 5 * 5);
    assert_clean(g);
    byoc_graph_destroy(g);

    /* Opset 18: one per group, repeated over each group's 2 channels. */
    mb_init(&m, 18, 8);
    mb_input(&m, "x", "float[2,8,5]");
    mb_weight(&m, "s", "float[4]");
    mb_weight(&m, "b", "float[4]");
    n = mb_node(&m, "GroupNormalization", "gn", "x,s,b", "y");
    attr_int(&m, n, "num_groups", 4);
    mb_output(&m, "y", "float[2,8,5]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "repeat"), 2);
    int rep = find_op(g, "repeat");
    ck_assert_str_eq(attr_text(g, rep, "repeats"), "2");
    ck_assert_str_eq(type_text(g, rep), "Tensor[(8,), float32]");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 8, 5), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* Per-group scales with an unknown channel count stay opaque. */
    mb_init(&m, 18, 8);
    mb_input(&m, "x", "float[2,C,5]");
    mb_weight(&m, "s", "float[4]");
    mb_weight(&m, "b", "float[4]");
    n = mb_node(&m, "GroupNormalization", "gn", "x,s,b", "y");
    attr_int(&m, n, "num_groups", 4);
    mb_output(&m, "y", "float[2,C,5]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "GroupNormalization"), 1);
    ck_assert(has_note(g, "need the number of channels"));
    byoc_graph_destroy(g);

    mb_init(&m, 21, 10);
    mb_input(&m, "x", "float[2,6,5]");
    mb_weight(&m, "s", "float[6]");
    mb_weight(&m, "b", "float[6]");
    n = mb_node(&m, "GroupNormalization", "gn", "x,s,b", "y");
    attr_int(&m, n, "num_groups", 4);
    mb_output(&m, "y", "float[2,6,5]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "6 channels do not split into 4 groups"));
}
END_TEST

START_TEST(layer_norm_spelled_out)
{
    mb m;
    /* Over axes 1 and 2: TVM's mean, variance and arithmetic. */
    mb_init(&m, 17, 8);
    mb_input(&m, "x", "float[2,3,4]");
    mb_weight(&m, "s", "float[3,4]");
    mb_weight(&m, "b", "float[3,4]");
    Onnx__NodeProto *n = mb_node(&m, "LayerNormalization", "ln", "x,s,b", "y");
    attr_int(&m, n, "axis", 1);
    mb_output(&m, "y", "float[2,3,4]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.layer_norm"), 0);
    int mean = find_op(g, "mean"), var = find_op(g, "variance");
    ck_assert_str_eq(attr_text(g, mean, "axis"), "[1, 2]");
    ck_assert_str_eq(type_text(g, mean), "Tensor[(2, 1, 1), float32]");
    ck_assert_int_eq(byoc_node_arg(g, var, 1), mean);
    ck_assert_int_eq(count_op(g, "sqrt"), 1);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3, 4), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* Over the last axis with the mean read: spelled out too. */
    mb_init(&m, 17, 8);
    mb_input(&m, "x", "float[2,3,4]");
    mb_weight(&m, "s", "float[4]");
    mb_node(&m, "LayerNormalization", "ln", "x,s", "y,mean");
    mb_output(&m, "y", "float[2,3,4]");
    mb_output(&m, "mean", "float[2,3,1]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.layer_norm"), 0);
    ck_assert_int_eq(count_op(g, "add"), 1);
    ck_assert_str_eq(byoc_node_op_name(g, out_at(g, 1)), "mean");
    ck_assert_str_eq(type_text(g, out_at(g, 1)), "Tensor[(2, 3, 1), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(mvn_and_lp_normalization)
{
    mb m;
    unary(&m, 13, "MeanVarianceNormalization", "float[2,3,4,4]", "float[2,3,4,4]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "mean"), 2);
    ck_assert_int_eq(count_op(g, "power"), 2);
    ck_assert_int_eq(count_op(g, "sqrt"), 1);
    int mean = find_op(g, "mean");
    ck_assert_str_eq(attr_text(g, mean, "axis"), "[0, 2, 3]");
    ck_assert_str_eq(type_text(g, mean), "Tensor[(1, 3, 1, 1), float32]");
    ck_assert_str_eq(byoc_node_op_name(g, byoc_graph_output(g)), "divide");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3, 4, 4), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    Onnx__NodeProto *n = unary(&m, 13, "MeanVarianceNormalization", "float[2,3,4]",
                               "float[2,3,4]");
    attr_ints(&m, n, "axes", 1, 2);
    g = read_ok(&m);
    ck_assert_str_eq(attr_text(g, find_op(g, "mean"), "axis"), "[2]");
    assert_clean(g);
    byoc_graph_destroy(g);

    n = unary(&m, 1, "LpNormalization", "float[2,10]", "float[2,10]");
    attr_int(&m, n, "axis", 1);
    g = read_ok(&m);
    ck_assert_int_eq(count_calls(g), 1);
    int l2 = find_op(g, "nn.l2_normalize");
    ck_assert_str_eq(attr_text(g, l2, "axis"), "[1]");
    ck_assert_double_eq(byoc_node_attr(g, l2, "eps")->u.f, 0.0);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 10), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    n = unary(&m, 1, "LpNormalization", "float[2,10]", "float[2,10]");
    attr_int(&m, n, "p", 1);
    g = read_ok(&m);
    int sum = find_op(g, "sum");
    ck_assert_str_eq(arg_op(g, sum, 0), "abs");
    ck_assert_str_eq(attr_text(g, sum, "axis"), "[-1]");
    ck_assert_str_eq(type_text(g, sum), "Tensor[(2, 1), float32]");
    ck_assert_str_eq(byoc_node_op_name(g, byoc_graph_output(g)), "divide");
    assert_clean(g);
    byoc_graph_destroy(g);

    n = unary(&m, 1, "LpNormalization", "float[2,10]", "float[2,10]");
    attr_int(&m, n, "p", 3);
    ck_assert_ptr_nonnull(strstr(read_error(&m), "expected 1 or 2"));
}
END_TEST

START_TEST(lp_pools)
{
    mb m;
    Onnx__NodeProto *n = unary(&m, 11, "LpPool", "float[1,3,8,8]", "float[1,3,4,4]");
    attr_ints(&m, n, "kernel_shape", 2, 2, 2);
    attr_ints(&m, n, "strides", 2, 2, 2);
    attr_int(&m, n, "p", 3);
    byoc_graph *g = read_ok(&m);
    int pool = find_op(g, "nn.avg_pool2d");
    ck_assert_str_eq(attr_text(g, pool, "pool_size"), "[2, 2]");
    ck_assert_str_eq(attr_text(g, pool, "strides"), "[2, 2]");
    ck_assert_str_eq(attr_text(g, pool, "count_include_pad"), "true");
    ck_assert_str_eq(arg_op(g, pool, 0), "power");
    ck_assert_int_eq(count_op(g, "power"), 2);
    ck_assert_int_eq(count_op(g, "abs"), 1);
    int out = byoc_graph_output(g);
    ck_assert_str_eq(byoc_node_op_name(g, out), "power");
    ck_assert_double_eq_tol(byoc_node_const_value(g, byoc_node_arg(g, out, 1))->u.f, 1.0 / 3,
                            1e-9);
    int mul = find_op(g, "multiply");
    ck_assert_double_eq(byoc_node_const_value(g, byoc_node_arg(g, mul, 1))->u.f, 4.0);
    ck_assert_double_eq(byoc_node_flops(g, pool), 1 * 3 * 4 * 4 * 4);
    ck_assert_str_eq(output_type(g), "Tensor[(1, 3, 4, 4), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* SAME_UPPER on 7 with stride 2: out 4, total pad 2*3+3-7 = 2. */
    n = unary(&m, 18, "LpPool", "float[1,2,7]", "float[1,2,4]");
    attr_ints(&m, n, "kernel_shape", 1, 3);
    attr_ints(&m, n, "strides", 1, 2);
    attr_string(&m, n, "auto_pad", "SAME_UPPER");
    g = read_ok(&m);
    ck_assert_str_eq(attr_text(g, find_op(g, "nn.avg_pool1d"), "padding"), "[1, 1]");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 2, 4), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    unary(&m, 2, "GlobalLpPool", "float[1,4,5,6]", "float[1,4,1,1]");
    g = read_ok(&m);
    pool = find_op(g, "nn.avg_pool2d");
    ck_assert_str_eq(attr_text(g, pool, "pool_size"), "[5, 6]");
    int mul2 = find_op(g, "multiply");
    ck_assert_double_eq(byoc_node_const_value(g, byoc_node_arg(g, mul2, 1))->u.f, 30.0);
    ck_assert_str_eq(output_type(g), "Tensor[(1, 4, 1, 1), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    unary(&m, 2, "GlobalLpPool", "float[1,4,H,W]", "float[1,4,1,1]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "GlobalLpPool"), 1);
    ck_assert(has_note(g, "spatial extent"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(max_unpool)
{
    mb m;
    mb_init(&m, 11, 8);
    mb_input(&m, "x", "float[1,2,3,3]");
    mb_input(&m, "i", "int64[1,2,3,3]");
    Onnx__NodeProto *n = mb_node(&m, "MaxUnpool", "u", "x,i", "y");
    attr_ints(&m, n, "kernel_shape", 2, 2, 2);
    attr_ints(&m, n, "strides", 2, 2, 2);
    attr_ints(&m, n, "pads", 4, 0, 0, 1, 1);
    mb_output(&m, "y", "float[1,2,5,5]");
    byoc_graph *g = read_ok(&m);
    /* (3 - 1) * 2 + 2 - 1 = 5 on each axis; 50 elements in all. */
    ck_assert_str_eq(attr_text(g, find_op(g, "zeros"), "shape"), "[50]");
    int s = find_op(g, "scatter_elements");
    ck_assert_str_eq(attr_text(g, s, "axis"), "0");
    ck_assert_str_eq(arg_op(g, s, 1), "reshape");
    ck_assert_str_eq(attr_text(g, byoc_graph_output(g), "newshape"), "[1, 2, 5, 5]");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 2, 5, 5), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 11, 8);
    mb_input(&m, "x", "float[1,2,3,3]");
    mb_input(&m, "i", "int64[1,2,3,3]");
    mb_ints(&m, "os", 4, 1, 2, 7, 7);
    n = mb_node(&m, "MaxUnpool", "u", "x,i,os", "y");
    attr_ints(&m, n, "kernel_shape", 2, 2, 2);
    attr_ints(&m, n, "strides", 2, 2, 2);
    mb_output(&m, "y", "float[1,2,7,7]");
    g = read_ok(&m);
    ck_assert_str_eq(attr_text(g, find_op(g, "zeros"), "shape"), "[98]");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 2, 7, 7), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 11, 8);
    mb_input(&m, "x", "float[N,2,3,3]");
    mb_input(&m, "i", "int64[N,2,3,3]");
    n = mb_node(&m, "MaxUnpool", "u", "x,i", "y");
    attr_ints(&m, n, "kernel_shape", 2, 2, 2);
    mb_output(&m, "y", "float");
    g = read_ok(&m);
    ck_assert(has_note(g, "input's shape is not known"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(reductions)
{
    static const struct {
        const char *op, *last, *first;
    } cases[] = {
        {"ReduceL1", "sum", "abs"},
        {"ReduceL2", "sqrt", "multiply"},
        {"ReduceLogSum", "log", "-"},
        {"ReduceSumSquare", "sum", "multiply"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        mb m;
        /* Axes an attribute before opset 18. */
        Onnx__NodeProto *n = unary(&m, 13, cases[k].op, "float[2,3,4]", "float[2,4]");
        attr_ints(&m, n, "axes", 1, 1);
        attr_int(&m, n, "keepdims", 0);
        byoc_graph *g = read_ok(&m);
        ck_assert_str_eq(byoc_node_op_name(g, byoc_graph_output(g)), cases[k].last);
        int sum = find_op(g, "sum");
        ck_assert_str_eq(attr_text(g, sum, "axis"), "[1]");
        ck_assert_str_eq(attr_text(g, sum, "keepdims"), "false");
        ck_assert_str_eq(arg_op(g, sum, 0), cases[k].first);
        ck_assert_str_eq(output_type(g), "Tensor[(2, 4), float32]");
        assert_clean(g);
        byoc_graph_destroy(g);

        /* An input from opset 18; keepdims by default. */
        mb_init(&m, 18, 8);
        mb_input(&m, "x", "float[2,3,4]");
        mb_ints(&m, "axes", 2, 0, -1);
        mb_node(&m, cases[k].op, "n", "x,axes", "y");
        mb_output(&m, "y", "float[1,3,1]");
        g = read_ok(&m);
        ck_assert_str_eq(attr_text(g, find_op(g, "sum"), "axis"), "[0, -1]");
        ck_assert_str_eq(output_type(g), "Tensor[(1, 3, 1), float32]");
        assert_clean(g);
        byoc_graph_destroy(g);
    }

    mb m;
    Onnx__NodeProto *n = unary(&m, 13, "ReduceLogSumExp", "float[2,5]", "float[2]");
    attr_ints(&m, n, "axes", 1, 1);
    attr_int(&m, n, "keepdims", 0);
    byoc_graph *g = read_ok(&m);
    int max = find_op(g, "max"), sum = find_op(g, "sum");
    ck_assert_str_eq(attr_text(g, max, "keepdims"), "true");
    ck_assert_str_eq(attr_text(g, sum, "keepdims"), "true");
    ck_assert_str_eq(arg_op(g, sum, 0), "exp");
    int out = byoc_graph_output(g);
    ck_assert_str_eq(byoc_node_op_name(g, out), "squeeze");
    ck_assert_str_eq(attr_text(g, out, "axis"), "[1]");
    ck_assert_str_eq(arg_op(g, out, 0), "add");
    ck_assert_str_eq(output_type(g), "Tensor[(2,), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* No axes: all of them. */
    unary(&m, 11, "ReduceLogSumExp", "float[2,5]", "float[1,1]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "squeeze"), 0);
    ck_assert_str_eq(output_type(g), "Tensor[(1, 1), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 18, 8);
    mb_input(&m, "x", "float[2,3]");
    mb_input(&m, "axes", "int64[1]");
    mb_node(&m, "ReduceL2", "n", "x,axes", "y");
    mb_output(&m, "y", "float");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "ReduceL2"), 1);
    ck_assert(has_note(g, "axes are computed at run time"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(hardmax)
{
    mb m;
    unary(&m, 13, "Hardmax", "float[2,3,5]", "float[2,3,5]");
    byoc_graph *g = read_ok(&m);
    int am = find_op(g, "argmax"), oh = find_op(g, "one_hot");
    ck_assert_str_eq(attr_text(g, am, "axis"), "[2]");
    ck_assert_str_eq(attr_text(g, oh, "depth"), "5");
    ck_assert_str_eq(attr_text(g, oh, "axis"), "2");
    ck_assert_int_eq(count_op(g, "reshape"), 0);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3, 5), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* Before opset 13: flattened to [2, 15] at axis 1, and back. */
    unary(&m, 11, "Hardmax", "float[2,3,5]", "float[2,3,5]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "reshape"), 2);
    ck_assert_str_eq(attr_text(g, find_op(g, "reshape"), "newshape"), "[2, 15]");
    ck_assert_str_eq(attr_text(g, find_op(g, "one_hot"), "depth"), "15");
    ck_assert_str_eq(attr_text(g, find_op(g, "argmax"), "axis"), "[1]");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3, 5), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    unary(&m, 13, "Hardmax", "float[2,N]", "float[2,N]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "Hardmax"), 1);
    ck_assert(has_note(g, "size of the axis is not known"));
    byoc_graph_destroy(g);
}
END_TEST

/* ---- scans, scatters, creation ------------------------------------------------------- */

START_TEST(cumsum)
{
    mb m;
    mb_init(&m, 14, 8);
    mb_input(&m, "x", "int64[1,N]");
    mb_ints(&m, "axis", 1, 1);
    mb_node(&m, "CumSum", "cs", "x,axis", "y");
    mb_output(&m, "y", "int64[1,N]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_calls(g), 1);
    int cs = find_op(g, "cumsum");
    ck_assert_str_eq(attr_text(g, cs, "axis"), "1");
    ck_assert_str_eq(attr_text(g, cs, "exclusive"), "false");
    ck_assert_str_eq(output_type(g), "Tensor[(1, N), int64]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* reverse: reverse, cumsum, reverse; a scalar axis. */
    mb_init(&m, 11, 8);
    mb_input(&m, "x", "float[3,4]");
    Onnx__TensorProto *ax = mb_weight(&m, "axis", "int32[]");
    ax->int32_data = mb_alloc(&m, sizeof(int32_t));
    ax->int32_data[0] = -1;
    ax->n_int32_data = 1;
    Onnx__NodeProto *n = mb_node(&m, "CumSum", "cs", "x,axis", "y");
    attr_int(&m, n, "reverse", 1);
    attr_int(&m, n, "exclusive", 1);
    mb_output(&m, "y", "float[3,4]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "reverse"), 2);
    cs = find_op(g, "cumsum");
    ck_assert_str_eq(attr_text(g, cs, "axis"), "-1");
    ck_assert_str_eq(attr_text(g, cs, "exclusive"), "true");
    ck_assert_str_eq(arg_op(g, cs, 0), "reverse");
    ck_assert_str_eq(byoc_node_op_name(g, byoc_graph_output(g)), "reverse");
    ck_assert_str_eq(output_type(g), "Tensor[(3, 4), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 14, 8);
    mb_input(&m, "x", "float[3,4]");
    mb_input(&m, "axis", "int64[]");
    mb_node(&m, "CumSum", "cs", "x,axis", "y");
    mb_output(&m, "y", "float[3,4]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "CumSum"), 1);
    ck_assert(has_note(g, "axis is computed at run time"));
    byoc_graph_destroy(g);

    mb_init(&m, 14, 8);
    mb_input(&m, "x", "float[3,4]");
    mb_ints(&m, "axis", 1, 2);
    mb_node(&m, "CumSum", "cs", "x,axis", "y");
    mb_output(&m, "y", "float[3,4]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "the axis is 2 for a tensor of rank 2"));
}
END_TEST

START_TEST(trilu)
{
    mb m;
    mb_init(&m, 14, 8);
    mb_input(&m, "x", "float[4,4]");
    mb_node(&m, "Trilu", "t", "x", "y");
    mb_output(&m, "y", "float[4,4]");
    byoc_graph *g = read_ok(&m);
    int t = find_op(g, "trilu");
    ck_assert_str_eq(attr_text(g, t, "upper"), "true");
    ck_assert_int_eq(byoc_node_kind_of(g, byoc_node_arg(g, t, 1)), BYOC_N_CONST);
    ck_assert_int_eq(byoc_node_const_value(g, byoc_node_arg(g, t, 1))->u.i, 0);
    ck_assert_str_eq(output_type(g), "Tensor[(4, 4), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 14, 8);
    mb_input(&m, "x", "float[2,3,3]");
    mb_input(&m, "k", "int64[]");
    Onnx__NodeProto *n = mb_node(&m, "Trilu", "t", "x,k", "y");
    attr_int(&m, n, "upper", 0);
    mb_output(&m, "y", "float[2,3,3]");
    g = read_ok(&m);
    t = find_op(g, "trilu");
    ck_assert_str_eq(attr_text(g, t, "upper"), "false");
    ck_assert_int_eq(byoc_node_kind_of(g, byoc_node_arg(g, t, 1)), BYOC_N_INPUT);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3, 3), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(scatter_nd)
{
    mb m;
    mb_init(&m, 16, 8);
    mb_input(&m, "data", "float[4,5,6]");
    mb_input(&m, "idx", "int64[2,3,2]");
    mb_input(&m, "upd", "float[2,3,6]");
    Onnx__NodeProto *n = mb_node(&m, "ScatterND", "s", "data,idx,upd", "y");
    attr_string(&m, n, "reduction", "add");
    mb_output(&m, "y", "float[4,5,6]");
    byoc_graph *g = read_ok(&m);
    int s = find_op(g, "scatter_nd");
    ck_assert_str_eq(attr_text(g, s, "mode"), "\"add\"");
    /* ONNX's index tuple on the last axis, Relay's on the first. */
    int tr = byoc_node_arg(g, s, 1);
    ck_assert_str_eq(byoc_node_op_name(g, tr), "transpose");
    ck_assert_str_eq(attr_text(g, tr, "axes"), "[2, 0, 1]");
    ck_assert_str_eq(type_text(g, tr), "Tensor[(2, 2, 3), int64]");
    ck_assert_str_eq(output_type(g), "Tensor[(4, 5, 6), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* 1-D indices need no transpose; no reduction is "update". */
    mb_init(&m, 11, 8);
    mb_input(&m, "data", "float[4,5]");
    mb_input(&m, "idx", "int64[2]");
    mb_input(&m, "upd", "float[]");
    mb_node(&m, "ScatterND", "s", "data,idx,upd", "y");
    mb_output(&m, "y", "float[4,5]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "transpose"), 0);
    ck_assert_str_eq(attr_text(g, find_op(g, "scatter_nd"), "mode"), "\"update\"");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 18, 8);
    mb_input(&m, "data", "float[4]");
    mb_input(&m, "idx", "int64[1,1]");
    mb_input(&m, "upd", "float[1]");
    n = mb_node(&m, "ScatterND", "s", "data,idx,upd", "y");
    attr_string(&m, n, "reduction", "avg");
    mb_output(&m, "y", "float[4]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "attribute 'reduction' is 'avg'"));

    /* Scatter, ScatterElements' old name. */
    mb_init(&m, 9, 4);
    mb_input(&m, "data", "float[3,3]");
    mb_input(&m, "idx", "int64[1,2]");
    mb_input(&m, "upd", "float[1,2]");
    n = mb_node(&m, "Scatter", "s", "data,idx,upd", "y");
    attr_int(&m, n, "axis", 1);
    mb_output(&m, "y", "float[3,3]");
    g = read_ok(&m);
    s = find_op(g, "scatter_elements");
    ck_assert_str_eq(attr_text(g, s, "axis"), "1");
    ck_assert_str_eq(attr_text(g, s, "reduction"), "\"update\"");
    ck_assert_str_eq(output_type(g), "Tensor[(3, 3), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(one_hot)
{
    mb m;
    mb_init(&m, 11, 8);
    mb_input(&m, "i", "int64[2,3]");
    mb_ints(&m, "depth", 1, 10);
    mb_floats(&m, "vals", 2, 0.0, 5.0);
    Onnx__NodeProto *n = mb_node(&m, "OneHot", "oh", "i,depth,vals", "y");
    attr_int(&m, n, "axis", 1);
    mb_output(&m, "y", "float[2,10,3]");
    byoc_graph *g = read_ok(&m);
    int oh = find_op(g, "one_hot");
    ck_assert_str_eq(attr_text(g, oh, "depth"), "10");
    ck_assert_str_eq(attr_text(g, oh, "axis"), "1");
    ck_assert_str_eq(attr_text(g, oh, "dtype"), "float32");
    /* on is values[1], off values[0]. */
    ck_assert_double_eq(byoc_node_const_value(g, byoc_node_arg(g, oh, 1))->u.f, 5.0);
    ck_assert_double_eq(byoc_node_const_value(g, byoc_node_arg(g, oh, 2))->u.f, 0.0);
    /* Negative indices wrap by depth. */
    ck_assert_str_eq(arg_op(g, oh, 0), "where");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 10, 3), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* Values computed at run time are taken from the tensor; axis -1. */
    mb_init(&m, 11, 8);
    mb_input(&m, "i", "int32[4]");
    mb_ints(&m, "depth", 1, 3);
    mb_input(&m, "vals", "int64[2]");
    mb_node(&m, "OneHot", "oh", "i,depth,vals", "y");
    mb_output(&m, "y", "int64[4,3]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "take"), 2);
    ck_assert_str_eq(attr_text(g, find_op(g, "one_hot"), "axis"), "1");
    ck_assert_str_eq(output_type(g), "Tensor[(4, 3), int64]");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 11, 8);
    mb_input(&m, "i", "int64[4]");
    mb_input(&m, "depth", "int64[1]");
    mb_floats(&m, "vals", 2, 0.0, 1.0);
    mb_node(&m, "OneHot", "oh", "i,depth,vals", "y");
    mb_output(&m, "y", "float[4,?]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "OneHot"), 1);
    ck_assert(has_note(g, "depth is computed at run time"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(eye_like)
{
    mb m;
    unary(&m, 9, "EyeLike", "float[3,4]", "float[3,4]");
    byoc_graph *g = read_ok(&m);
    int s = find_op(g, "scatter_nd");
    ck_assert_str_eq(arg_op(g, s, 0), "zeros");
    ck_assert_str_eq(arg_op(g, s, 1), "stack");
    ck_assert_str_eq(arg_op(g, s, 2), "full");
    ck_assert_str_eq(type_text(g, byoc_node_arg(g, s, 1)), "Tensor[(2, 3), int64]");
    ck_assert_str_eq(attr_text(g, find_op(g, "zeros"), "shape"), "[3, 4]");
    ck_assert_str_eq(output_type(g), "Tensor[(3, 4), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* k = -2 on 3x4: rows 2..2, one element; dtype from the attribute. */
    Onnx__NodeProto *n = unary(&m, 9, "EyeLike", "float[3,4]", "int32[3,4]");
    attr_int(&m, n, "k", -2);
    attr_int(&m, n, "dtype", 6);
    g = read_ok(&m);
    ck_assert_str_eq(attr_text(g, find_op(g, "full"), "shape"), "[1]");
    int ar = find_op(g, "arange");
    ck_assert_int_eq(byoc_node_const_value(g, byoc_node_arg(g, ar, 0))->u.i, 2);
    ck_assert_int_eq(byoc_node_const_value(g, byoc_node_arg(g, ar, 1))->u.i, 3);
    ck_assert_str_eq(output_type(g), "Tensor[(3, 4), int32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* A diagonal off the matrix: zeros alone. */
    n = unary(&m, 9, "EyeLike", "float[3,4]", "float[3,4]");
    attr_int(&m, n, "k", 7);
    g = read_ok(&m);
    ck_assert_int_eq(count_calls(g), 1);
    ck_assert_str_eq(byoc_node_op_name(g, byoc_graph_output(g)), "zeros");
    assert_clean(g);
    byoc_graph_destroy(g);

    unary(&m, 9, "EyeLike", "float[N,4]", "float[N,4]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "EyeLike"), 1);
    ck_assert(has_note(g, "shape or type is not known"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(center_crop_pad)
{
    mb m;
    /* Axis 1 cropped 6 -> 3 from 1, axis 2 padded 4 -> 9 by 2 and 3. */
    mb_init(&m, 18, 8);
    mb_input(&m, "x", "float[2,6,4]");
    mb_ints(&m, "shape", 2, 3, 9);
    Onnx__NodeProto *n = mb_node(&m, "CenterCropPad", "c", "x,shape", "y");
    attr_ints(&m, n, "axes", 2, 1, -1);
    mb_output(&m, "y", "float[2,3,9]");
    byoc_graph *g = read_ok(&m);
    int sl = find_op(g, "strided_slice"), pad = find_op(g, "nn.pad");
    ck_assert_str_eq(attr_text(g, sl, "begin"), "[1]");
    ck_assert_str_eq(attr_text(g, sl, "end"), "[4]");
    ck_assert_str_eq(attr_text(g, sl, "axes"), "[1]");
    ck_assert_str_eq(attr_text(g, pad, "pad_width"), "[[0, 0], [0, 0], [2, 3]]");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3, 9), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* The same shape: the input itself. */
    mb_init(&m, 18, 8);
    mb_input(&m, "x", "float[2,6]");
    mb_ints(&m, "shape", 2, 2, 6);
    mb_node(&m, "CenterCropPad", "c", "x,shape", "y");
    mb_output(&m, "y", "float[2,6]");
    g = read_ok(&m);
    ck_assert_int_eq(count_calls(g), 0);
    ck_assert_int_eq(byoc_node_kind_of(g, byoc_graph_output(g)), BYOC_N_INPUT);
    byoc_graph_destroy(g);

    /* Two axes cropped: one stride each, which strided_slice needs with
     * its axes (it was left untyped). */
    mb_init(&m, 18, 8);
    mb_input(&m, "x", "float[4,9]");
    mb_ints(&m, "shape", 2, 0, 2);
    mb_node(&m, "CenterCropPad", "c", "x,shape", "y");
    mb_output(&m, "y", NULL);
    g = read_ok(&m);
    sl = find_op(g, "strided_slice");
    ck_assert_str_eq(attr_text(g, sl, "begin"), "[2, 3]");
    ck_assert_str_eq(attr_text(g, sl, "strides"), "[1, 1]");
    ck_assert_str_eq(output_type(g), "Tensor[(0, 2), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 18, 8);
    mb_input(&m, "x", "float[2,N]");
    mb_ints(&m, "shape", 2, 2, 6);
    mb_node(&m, "CenterCropPad", "c", "x,shape", "y");
    mb_output(&m, "y", "float[2,6]");
    g = read_ok(&m);
    ck_assert(has_note(g, "size of axis 1 is not known"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(windows)
{
    static const struct {
        const char *op, *fn;
        int cos;
    } cases[] = {
        {"HannWindow", "sin", 0}, {"HammingWindow", "cos", 1}, {"BlackmanWindow", "cos", 2}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        mb m;
        mb_init(&m, 17, 8);
        Onnx__TensorProto *size = mb_weight(&m, "n", "int64[]");
        size->int64_data = mb_alloc(&m, sizeof(int64_t));
        size->int64_data[0] = 16;
        size->n_int64_data = 1;
        Onnx__NodeProto *n = mb_node(&m, cases[k].op, "w", "n", "y");
        attr_int(&m, n, "periodic", 0);
        attr_int(&m, n, "output_datatype", 10);
        mb_output(&m, "y", "float16[16]");
        byoc_graph *g = read_ok(&m);
        int ar = find_op(g, "arange");
        ck_assert_str_eq(type_text(g, ar), "Tensor[(16,), float32]");
        ck_assert_int_eq(count_op(g, "cos"), cases[k].cos);
        ck_assert_int_eq(count_op(g, cases[k].fn), cases[k].cos ? cases[k].cos : 1);
        /* Not periodic: the period is 15. */
        int mul = find_op(g, "multiply");
        double step = byoc_node_const_value(g, byoc_node_arg(g, mul, 1))->u.f;
        ck_assert_double_eq_tol(step, (k ? 2 : 1) * 3.14159265358979 / 15, 1e-9);
        ck_assert_str_eq(byoc_node_op_name(g, byoc_graph_output(g)), "cast");
        ck_assert_str_eq(output_type(g), "Tensor[(16,), float16]");
        assert_clean(g);
        byoc_graph_destroy(g);
    }
}
END_TEST

START_TEST(einsum)
{
    mb m;
    /* Attention scores: b, h batch; q, k free; d contracted. */
    mb_init(&m, 12, 7);
    mb_input(&m, "q", "float[2,3,5,8]");
    mb_input(&m, "k", "float[2,3,7,8]");
    Onnx__NodeProto *n = mb_node(&m, "Einsum", "e", "q,k", "y");
    attr_string(&m, n, "equation", "bhqd,bhkd->bhqk");
    mb_output(&m, "y", "float[2,3,5,7]");
    byoc_graph *g = read_ok(&m);
    int mm = find_op(g, "nn.batch_matmul");
    ck_assert_str_eq(attr_text(g, mm, "transpose_b"), "true");
    ck_assert_str_eq(type_text(g, mm), "Tensor[(6, 5, 7), float32]");
    ck_assert_double_eq(byoc_node_flops(g, mm), 2.0 * 6 * 5 * 7 * 8);
    ck_assert_int_eq(count_op(g, "transpose"), 0);
    ck_assert_int_eq(count_op(g, "reshape"), 3);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3, 5, 7), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* A letter only one side has is summed first; the output transposed;
     * the implicit output of "ijk,kl" is "ijl". */
    mb_init(&m, 12, 7);
    mb_input(&m, "a", "float[2,4,5]");
    mb_input(&m, "b", "float[5,6]");
    n = mb_node(&m, "Einsum", "e", "a,b", "y");
    attr_string(&m, n, "equation", "ijk,kl->li");
    mb_output(&m, "y", "float[6,2]");
    g = read_ok(&m);
    int sum = find_op(g, "sum");
    ck_assert_str_eq(attr_text(g, sum, "axis"), "[1]");
    ck_assert_str_eq(attr_text(g, byoc_graph_output(g), "axes"), "[1, 0]");
    ck_assert_str_eq(output_type(g), "Tensor[(6, 2), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 12, 7);
    mb_input(&m, "a", "float[2,4,5]");
    mb_input(&m, "b", "float[5,6]");
    n = mb_node(&m, "Einsum", "e", "a,b", "y");
    attr_string(&m, n, "equation", "ijk,kl");
    mb_output(&m, "y", "float[2,4,6]");
    g = read_ok(&m);
    /* B is already [contracted, free]: no transpose, NN form. */
    ck_assert_int_eq(count_op(g, "transpose"), 0);
    ck_assert_str_eq(attr_text(g, find_op(g, "nn.batch_matmul"), "transpose_b"), "false");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 4, 6), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    static const char *const opaque[][2] = {
        {"ii->i", "diagonal"}, {"...ij->...ji", "ellipsis"}, {"ij,jk,kl->il", "more than two"}};
    for (size_t k = 0; k < sizeof opaque / sizeof opaque[0]; k++) {
        mb_init(&m, 12, 7);
        mb_input(&m, "a", "float[4,4]");
        n = mb_node(&m, "Einsum", "e", k == 2 ? "a,a,a" : "a", "y");
        attr_string(&m, n, "equation", opaque[k][0]);
        mb_output(&m, "y", "float");
        g = read_ok(&m);
        ck_assert_int_eq(count_op(g, "Einsum"), 1);
        ck_assert_msg(has_note(g, opaque[k][1]), "no note for %s", opaque[k][0]);
        byoc_graph_destroy(g);
    }

    /* Operands with no elements: the reshapes to 3-D would read their 0s
     * as "copy this axis" (they were left untyped). */
    mb_init(&m, 12, 7);
    mb_input(&m, "a", "float[0,3]");
    mb_input(&m, "b", "float[3,0]");
    n = mb_node(&m, "Einsum", "e", "a,b", "y");
    attr_string(&m, n, "equation", "ij,jk->ik");
    mb_output(&m, "y", "float[0,0]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "Einsum"), 1);
    ck_assert_int_eq(count_op(g, "reshape"), 0);
    ck_assert(has_note(g, "an operand with no elements"));
    byoc_graph_destroy(g);

    mb_init(&m, 12, 7);
    mb_input(&m, "a", "float[2,4]");
    mb_input(&m, "b", "float[5,6]");
    n = mb_node(&m, "Einsum", "e", "a,b", "y");
    attr_string(&m, n, "equation", "ij,jk->ik");
    mb_output(&m, "y", "float");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "letter 'j' has sizes 4 and 5"));
}
END_TEST

START_TEST(reverse_sequence)
{
    mb m;
    mb_init(&m, 10, 8);
    mb_input(&m, "x", "float[4,2,3]");
    mb_input(&m, "lens", "int64[4]");
    Onnx__NodeProto *n = mb_node(&m, "ReverseSequence", "r", "x,lens", "y");
    attr_int(&m, n, "time_axis", 1);
    attr_int(&m, n, "batch_axis", 0);
    mb_output(&m, "y", "float[4,2,3]");
    byoc_graph *g = read_ok(&m);
    int r = find_op(g, "reverse_sequence");
    ck_assert_str_eq(attr_text(g, r, "seq_axis"), "1");
    ck_assert_str_eq(attr_text(g, r, "batch_axis"), "0");
    ck_assert_str_eq(output_type(g), "Tensor[(4, 2, 3), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 10, 8);
    mb_input(&m, "x", "float[4,2,3]");
    mb_input(&m, "lens", "int64[4]");
    n = mb_node(&m, "ReverseSequence", "r", "x,lens", "y");
    attr_int(&m, n, "time_axis", 1);
    mb_output(&m, "y", "float[4,2,3]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "time_axis 1 and batch_axis 1"));
}
END_TEST

/* ---- recurrent layers ---------------------------------------------------------------- */

START_TEST(lstm_forward)
{
    mb m;
    mb_init(&m, 14, 8);
    mb_input(&m, "x", "float[3,2,5]");
    mb_weight(&m, "w", "float[1,16,5]");
    mb_weight(&m, "r", "float[1,16,4]");
    mb_weight(&m, "b", "float[1,32]");
    Onnx__NodeProto *n = mb_node(&m, "LSTM", "lstm", "x,w,r,b", "y,yh,yc");
    attr_int(&m, n, "hidden_size", 4);
    mb_output(&m, "y", "float[3,1,2,4]");
    mb_output(&m, "yh", "float[1,2,4]");
    mb_output(&m, "yc", "float[1,2,4]");
    byoc_graph *g = read_ok(&m);
    /* One dense per step on [x_t h] against [W R]. */
    ck_assert_int_eq(count_op(g, "nn.dense"), 3);
    ck_assert_int_eq(count_op(g, "sigmoid"), 9);
    ck_assert_int_eq(count_op(g, "tanh"), 6);
    /* The [W R] concatenate once, and one [x_t h] per step. */
    ck_assert_int_eq(count_op(g, "concatenate"), 4);
    int d = find_op(g, "nn.dense");
    ck_assert_str_eq(type_text(g, d), "Tensor[(2, 16), float32]");
    ck_assert_double_eq(byoc_node_flops(g, d), 2.0 * 2 * 16 * 9);
    ck_assert_str_eq(type_text(g, byoc_node_arg(g, d, 1)), "Tensor[(16, 9), float32]");
    ck_assert_str_eq(attr_text(g, find_op(g, "zeros"), "shape"), "[2, 4]");
    ck_assert_int_eq(count_op(g, "zeros_like"), 1);
    ck_assert_int_eq(byoc_node_arg_count(g, byoc_graph_output(g)), 3);
    ck_assert_str_eq(type_text(g, out_at(g, 0)), "Tensor[(3, 1, 2, 4), float32]");
    ck_assert_str_eq(type_text(g, out_at(g, 1)), "Tensor[(1, 2, 4), float32]");
    ck_assert_str_eq(type_text(g, out_at(g, 2)), "Tensor[(1, 2, 4), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(lstm_bidirectional_peepholes_layout)
{
    mb m;
    /* layout 1: X [batch, seq, input]; initial states [batch, nd, hidden]. */
    mb_init(&m, 14, 8);
    mb_input(&m, "x", "float[2,4,3]");
    mb_weight(&m, "w", "float[2,8,3]");
    mb_weight(&m, "r", "float[2,8,2]");
    mb_input(&m, "h0", "float[2,2,2]");
    mb_input(&m, "c0", "float[2,2,2]");
    mb_weight(&m, "p", "float[2,6]");
    Onnx__NodeProto *n = mb_node(&m, "LSTM", "lstm", "x,w,r,,,h0,c0,p", "y,yh");
    attr_int(&m, n, "layout", 1);
    attr_string(&m, n, "direction", "bidirectional");
    attr_float(&m, n, "clip", 3.0f);
    mb_output(&m, "y", "float[2,4,2,2]");
    mb_output(&m, "yh", "float[2,2,2]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.dense"), 8);
    /* Each of 5 activations per step is clipped. */
    ck_assert_int_eq(count_op(g, "clip"), 40);
    ck_assert_str_eq(attr_text(g, find_op(g, "clip"), "a_max"), "3.0");
    ck_assert_int_eq(count_op(g, "zeros"), 0);
    /* Peepholes: three multiplies by the cell state per step. */
    ck_assert_int_eq(count_op(g, "multiply"), 8 * (3 + 3));
    ck_assert_str_eq(type_text(g, out_at(g, 0)), "Tensor[(2, 4, 2, 2), float32]");
    ck_assert_str_eq(type_text(g, out_at(g, 1)), "Tensor[(2, 2, 2), float32]");
    int y = out_at(g, 0);
    ck_assert_str_eq(byoc_node_op_name(g, y), "transpose");
    ck_assert_str_eq(attr_text(g, y, "axes"), "[2, 0, 1, 3]");
    assert_clean(g);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(gru_and_rnn)
{
    mb m;
    /* GRU, linear_before_reset 0: r and z from separate denses on h. */
    mb_init(&m, 7, 4);
    mb_input(&m, "x", "float[2,1,3]");
    mb_weight(&m, "w", "float[1,12,3]");
    mb_weight(&m, "r", "float[1,12,4]");
    mb_weight(&m, "b", "float[1,24]");
    Onnx__NodeProto *n = mb_node(&m, "GRU", "gru", "x,w,r,b", "y,yh");
    attr_int(&m, n, "hidden_size", 4);
    mb_output(&m, "yh", "float[1,1,4]");
    byoc_graph *g = read_ok(&m);
    /* Per step: x W, h Rz, h Rr, (r h) Rh. */
    ck_assert_int_eq(count_op(g, "nn.dense"), 8);
    ck_assert_int_eq(count_op(g, "sigmoid"), 4);
    ck_assert_int_eq(count_op(g, "tanh"), 2);
    /* Y is not read, so nothing stacks it. */
    ck_assert_int_eq(count_op(g, "stack"), 0);
    ck_assert_int_eq(byoc_node_kind_of(g, byoc_graph_output(g)), BYOC_N_CALL);
    ck_assert_str_eq(output_type(g), "Tensor[(1, 1, 4), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* linear_before_reset 1, reverse: two denses per step. */
    mb_init(&m, 14, 8);
    mb_input(&m, "x", "float[3,2,3]");
    mb_weight(&m, "w", "float[1,12,3]");
    mb_weight(&m, "r", "float[1,12,4]");
    n = mb_node(&m, "GRU", "gru", "x,w,r", "y");
    attr_int(&m, n, "linear_before_reset", 1);
    attr_string(&m, n, "direction", "reverse");
    attr_strings(&m, n, "activations", 2, "HardSigmoid", "Softsign");
    attr_floats(&m, n, "activation_alpha", 1, 0.3);
    mb_output(&m, "y", "float[3,1,2,4]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.dense"), 6);
    ck_assert_int_eq(count_op(g, "sigmoid"), 0);
    /* Two hard sigmoids (one clip each) and one softsign per step. */
    ck_assert_int_eq(count_op(g, "clip"), 6);
    ck_assert_int_eq(count_op(g, "abs"), 3);
    int hs = find_op(g, "clip");
    int mul = byoc_node_arg(g, byoc_node_arg(g, hs, 0), 0);
    ck_assert_double_eq_tol(byoc_node_const_value(g, byoc_node_arg(g, mul, 1))->u.f, 0.3, 1e-6);
    ck_assert_str_eq(output_type(g), "Tensor[(3, 1, 2, 4), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* RNN: tanh(x W + b_w + h R + b_r) per step, bidirectional. */
    mb_init(&m, 14, 8);
    mb_input(&m, "x", "float[2,1,3]");
    mb_weight(&m, "w", "float[2,5,3]");
    mb_weight(&m, "r", "float[2,5,5]");
    mb_weight(&m, "b", "float[2,10]");
    n = mb_node(&m, "RNN", "rnn", "x,w,r,b", "y,yh");
    attr_string(&m, n, "direction", "bidirectional");
    mb_output(&m, "y", "float[2,2,1,5]");
    mb_output(&m, "yh", "float[2,1,5]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.dense"), 8);
    ck_assert_int_eq(count_op(g, "tanh"), 4);
    ck_assert_int_eq(count_op(g, "add"), 12);
    ck_assert_str_eq(type_text(g, out_at(g, 0)), "Tensor[(2, 2, 1, 5), float32]");
    ck_assert_str_eq(type_text(g, out_at(g, 1)), "Tensor[(2, 1, 5), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(rnn_sequence_lens)
{
    mb m;
    /* Bidirectional LSTM with per-sequence lengths: masks from arange <
     * lens, the backward pass over reverse_sequence'd inputs. */
    mb_init(&m, 14, 8);
    mb_input(&m, "x", "float[3,2,4]");
    mb_weight(&m, "w", "float[2,8,4]");
    mb_weight(&m, "r", "float[2,8,2]");
    mb_input(&m, "lens", "int32[2]");
    Onnx__NodeProto *n = mb_node(&m, "LSTM", "lstm", "x,w,r,,lens", "y,yh");
    attr_string(&m, n, "direction", "bidirectional");
    mb_output(&m, "y", "float[3,2,2,2]");
    mb_output(&m, "yh", "float[2,2,2]");
    byoc_graph *g = read_ok(&m);
    /* Once on the input, once on the backward pass's output. */
    ck_assert_int_eq(count_op(g, "reverse_sequence"), 2);
    int less = find_op(g, "less");
    ck_assert_str_eq(type_text(g, less), "Tensor[(3, 2), bool]");
    ck_assert_str_eq(arg_op(g, less, 0), "expand_dims");
    ck_assert_str_eq(type_text(g, byoc_node_arg(g, less, 0)), "Tensor[(3, 1), int32]");
    ck_assert_int_eq(count_op(g, "nn.dense"), 6);
    ck_assert_str_eq(type_text(g, out_at(g, 0)), "Tensor[(3, 2, 2, 2), float32]");
    ck_assert_str_eq(type_text(g, out_at(g, 1)), "Tensor[(2, 2, 2), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 14, 8);
    mb_input(&m, "x", "float[3,2,4]");
    mb_weight(&m, "w", "float[1,2,4]");
    mb_weight(&m, "r", "float[1,2,2]");
    mb_input(&m, "lens", "float[2]");
    mb_node(&m, "RNN", "rnn", "x,w,r,,lens", "y");
    mb_output(&m, "y", "float");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "sequence_lens should hold integers"));
}
END_TEST

START_TEST(rnn_symbolic_batch)
{
    mb m;
    /* No initial state and an unknown batch: the zeros take the batch
     * from a slice of the input. */
    mb_init(&m, 14, 8);
    mb_input(&m, "x", "float[2,B,3]");
    mb_weight(&m, "w", "float[1,12,3]");
    mb_weight(&m, "r", "float[1,12,3]");
    mb_node(&m, "LSTM", "lstm", "x,w,r", "y");
    mb_output(&m, "y", "float[2,1,B,3]");
    byoc_graph *g = read_ok(&m);
    int sl = find_op(g, "strided_slice");
    ck_assert_str_eq(attr_text(g, sl, "axes"), "[0, 2]");
    ck_assert_str_eq(type_text(g, find_op(g, "zeros")), "Tensor[(3,), float32]");
    ck_assert_int_eq(count_op(g, "nn.dense"), 2);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 1, B, 3), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(rnn_left_opaque)
{
    static const struct {
        const char *x, *extra_in, *why;
    } cases[] = {
        {"float[S,2,3]", "", "sequence length is not known"},
        {"float[0,2,3]", "", "sequence is empty"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        mb m;
        mb_init(&m, 14, 8);
        mb_input(&m, "x", cases[k].x);
        mb_weight(&m, "w", "float[1,4,3]");
        mb_weight(&m, "r", "float[1,4,4]");
        mb_input(&m, "lens", "int32[2]");
        char ins[64];
        snprintf(ins, sizeof ins, "x,w,r,,%s", cases[k].extra_in);
        mb_node(&m, "RNN", "rnn", ins, "y");
        mb_output(&m, "y", "float");
        byoc_graph *g = read_ok(&m);
        ck_assert_int_eq(count_op(g, "RNN"), 1);
        ck_assert_int_eq(count_op(g, "nn.dense"), 0);
        ck_assert_msg(has_note(g, cases[k].why), "no note '%s'", cases[k].why);
        byoc_graph_destroy(g);
    }

    mb m;
    mb_init(&m, 14, 8);
    mb_input(&m, "x", "float[3,2,3]");
    mb_weight(&m, "w", "float[1,4,3]");
    mb_weight(&m, "r", "float[1,4,4]");
    Onnx__NodeProto *n = mb_node(&m, "RNN", "rnn", "x,w,r", "y");
    attr_strings(&m, n, "activations", 1, "Gelu");
    mb_output(&m, "y", "float");
    byoc_graph *g = read_ok(&m);
    ck_assert(has_note(g, "activation 'Gelu' is not mapped"));
    byoc_graph_destroy(g);

    /* Malformed: gates that do not fit hidden_size. */
    mb_init(&m, 14, 8);
    mb_input(&m, "x", "float[3,2,3]");
    mb_weight(&m, "w", "float[1,12,3]");
    mb_weight(&m, "r", "float[1,12,3]");
    n = mb_node(&m, "LSTM", "lstm", "x,w,r", "y");
    attr_int(&m, n, "hidden_size", 4);
    mb_output(&m, "y", "float");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "do not hold 4 gates of hidden size 4"));
}
END_TEST

START_TEST(attention)
{
    mb m;
    /* 3-D, grouped queries (4 heads over 2), causal, with a past: Q
     * [2, 3, 4 x 8], K and V [2, 5, 2 x 8], 6 cached keys. */
    mb_init(&m, 23, 10);
    mb_input(&m, "q", "float[2,3,32]");
    mb_input(&m, "k", "float[2,5,16]");
    mb_input(&m, "v", "float[2,5,16]");
    mb_input(&m, "pk", "float[2,2,6,8]");
    mb_input(&m, "pv", "float[2,2,6,8]");
    Onnx__NodeProto *n = mb_node(&m, "Attention", "att", "q,k,v,,pk,pv", "y,pko,pvo");
    attr_int(&m, n, "q_num_heads", 4);
    attr_int(&m, n, "kv_num_heads", 2);
    attr_int(&m, n, "is_causal", 1);
    mb_output(&m, "y", "float[2,3,32]");
    mb_output(&m, "pko", "float[2,2,11,8]");
    mb_output(&m, "pvo", "float[2,2,11,8]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.batch_matmul"), 2);
    ck_assert_int_eq(count_op(g, "nn.softmax"), 1);
    ck_assert_int_eq(count_op(g, "repeat"), 2);
    ck_assert_int_eq(count_op(g, "concatenate"), 2);
    int qk = find_op(g, "nn.batch_matmul");
    ck_assert_str_eq(attr_text(g, qk, "transpose_b"), "true");
    ck_assert_str_eq(type_text(g, qk), "Tensor[(8, 3, 11), float32]");
    ck_assert_double_eq(byoc_node_flops(g, qk), 2.0 * 8 * 3 * 11 * 8);
    /* Q and K each scaled by sqrt(1 / sqrt(8)). */
    int mul = find_op(g, "multiply");
    ck_assert_double_eq_tol(byoc_node_const_value(g, byoc_node_arg(g, mul, 1))->u.f,
                            sqrt(1 / sqrt(8.0)), 1e-9);
    /* The causal frontier is offset by the 6 cached keys. */
    int tri = find_op(g, "trilu");
    ck_assert_int_eq(byoc_node_const_value(g, byoc_node_arg(g, tri, 1))->u.i, 6);
    ck_assert_str_eq(attr_text(g, tri, "upper"), "false");
    ck_assert_str_eq(type_text(g, out_at(g, 0)), "Tensor[(2, 3, 32), float32]");
    ck_assert_str_eq(type_text(g, out_at(g, 1)), "Tensor[(2, 2, 11, 8), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* 4-D with a boolean mask, softcap, and the scores after softmax. */
    mb_init(&m, 23, 10);
    mb_input(&m, "q", "float[1,2,4,8]");
    mb_input(&m, "k", "float[1,2,6,8]");
    mb_input(&m, "v", "float[1,2,6,3]");
    mb_input(&m, "mask", "bool[4,6]");
    n = mb_node(&m, "Attention", "att", "q,k,v,mask", "y,,,s");
    attr_float(&m, n, "softcap", 30.0f);
    attr_float(&m, n, "scale", 0.25f);
    attr_int(&m, n, "qk_matmul_output_mode", 3);
    mb_output(&m, "y", "float[1,2,4,3]");
    mb_output(&m, "s", "float[1,2,4,6]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "tanh"), 1);
    ck_assert_int_eq(count_op(g, "transpose"), 0);
    ck_assert_int_eq(count_op(g, "repeat"), 0);
    /* The mask as a bias (where), and its fully masked rows zeroed. */
    ck_assert_int_eq(count_op(g, "where"), 2);
    ck_assert_str_eq(byoc_node_op_name(g, out_at(g, 1)), "where");
    mul = find_op(g, "multiply");
    ck_assert_double_eq_tol(byoc_node_const_value(g, byoc_node_arg(g, mul, 1))->u.f, 0.5, 1e-9);
    ck_assert_str_eq(type_text(g, out_at(g, 0)), "Tensor[(1, 2, 4, 3), float32]");
    ck_assert_str_eq(type_text(g, out_at(g, 1)), "Tensor[(1, 2, 4, 6), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* An unknown batch size is inferred by the reshapes. */
    mb_init(&m, 23, 10);
    mb_input(&m, "q", "float[B,3,8]");
    mb_input(&m, "k", "float[B,4,8]");
    mb_input(&m, "v", "float[B,4,8]");
    n = mb_node(&m, "Attention", "att", "q,k,v", "y");
    attr_int(&m, n, "q_num_heads", 2);
    attr_int(&m, n, "kv_num_heads", 2);
    mb_output(&m, "y", "float[B,3,8]");
    g = read_ok(&m);
    ck_assert_str_eq(attr_text(g, find_op(g, "reshape"), "newshape"), "[-1, 3, 2, 4]");
    /* The batch of [batch * heads, ...] products is not a symbol again. */
    ck_assert_str_eq(output_type(g), "Tensor[(?, 3, 8), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 23, 10);
    mb_input(&m, "q", "float[1,S,8]");
    mb_input(&m, "k", "float[1,S,8]");
    mb_input(&m, "v", "float[1,S,8]");
    n = mb_node(&m, "Attention", "att", "q,k,v", "y");
    attr_int(&m, n, "q_num_heads", 2);
    attr_int(&m, n, "kv_num_heads", 2);
    mb_output(&m, "y", "float[1,S,8]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "Attention"), 1);
    ck_assert(has_note(g, "shapes of Q, K and V are not known"));
    byoc_graph_destroy(g);

    mb_init(&m, 23, 10);
    mb_input(&m, "q", "float[1,3,8]");
    mb_input(&m, "k", "float[1,3,8]");
    mb_input(&m, "v", "float[1,3,8]");
    mb_node(&m, "Attention", "att", "q,k,v", "y");
    mb_output(&m, "y", "float[1,3,8]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "need q_num_heads and kv_num_heads"));
}
END_TEST

START_TEST(rotary_embedding)
{
    mb m;
    /* 4-D, halves, position ids into [max_pos, 4] caches. */
    mb_init(&m, 23, 10);
    mb_input(&m, "x", "float[2,4,6,8]");
    mb_weight(&m, "cos", "float[32,4]");
    mb_weight(&m, "sin", "float[32,4]");
    mb_input(&m, "pos", "int64[2,6]");
    mb_node(&m, "RotaryEmbedding", "rope", "x,cos,sin,pos", "y");
    mb_output(&m, "y", "float[2,4,6,8]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "take"), 2);
    ck_assert_int_eq(count_op(g, "split"), 1);
    ck_assert_int_eq(count_op(g, "multiply"), 4);
    ck_assert_int_eq(count_op(g, "transpose"), 2);
    int take = find_op(g, "take");
    ck_assert_str_eq(type_text(g, take), "Tensor[(2, 6, 4), float32]");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 4, 6, 8), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* 3-D, interleaved pairs, half the head rotated. */
    mb_init(&m, 23, 10);
    mb_input(&m, "x", "float[1,5,16]");
    mb_input(&m, "cos", "float[1,5,2]");
    mb_input(&m, "sin", "float[1,5,2]");
    Onnx__NodeProto *n = mb_node(&m, "RotaryEmbedding", "rope", "x,cos,sin", "y");
    attr_int(&m, n, "interleaved", 1);
    attr_int(&m, n, "num_heads", 2);
    attr_int(&m, n, "rotary_embedding_dim", 4);
    mb_output(&m, "y", "float[1,5,16]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "take"), 0);
    ck_assert_int_eq(count_op(g, "stack"), 1);
    /* The rotated part, its even and odd channels, and the rest. */
    ck_assert_int_eq(count_op(g, "strided_slice"), 4);
    ck_assert_int_eq(count_op(g, "concatenate"), 1);
    int first = find_op(g, "reshape");
    ck_assert_str_eq(attr_text(g, first, "newshape"), "[1, 5, 2, 8]");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 5, 16), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* An unknown batch size. */
    mb_init(&m, 23, 10);
    mb_input(&m, "x", "float[B,5,16]");
    mb_weight(&m, "cos", "float[64,4]");
    mb_weight(&m, "sin", "float[64,4]");
    mb_input(&m, "pos", "int64[B,5]");
    n = mb_node(&m, "RotaryEmbedding", "rope", "x,cos,sin,pos", "y");
    attr_int(&m, n, "num_heads", 2);
    mb_output(&m, "y", "float[B,5,16]");
    g = read_ok(&m);
    ck_assert_str_eq(attr_text(g, byoc_graph_output(g), "newshape"), "[-1, 5, 16]");
    ck_assert_str_eq(output_type(g), "Tensor[(B, 5, 16), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 23, 10);
    mb_input(&m, "x", "float[1,5,16]");
    mb_input(&m, "cos", "float[1,5,4]");
    mb_input(&m, "sin", "float[1,5,4]");
    n = mb_node(&m, "RotaryEmbedding", "rope", "x,cos,sin", "y");
    attr_int(&m, n, "num_heads", 2);
    attr_int(&m, n, "rotary_embedding_dim", 5);
    mb_output(&m, "y", "float[1,5,16]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "rotary_embedding_dim 5 for heads of 8"));
}
END_TEST

/* ---- opset 18-19 changes to ops onnx_ops.c maps ------------------------------------------ */

START_TEST(batch_norm_training_mode)
{
    mb m;
    mb_init(&m, 15, 8);
    mb_input(&m, "x", "float[2,3,4]");
    mb_weight(&m, "s", "float[3]");
    mb_weight(&m, "b", "float[3]");
    mb_weight(&m, "mean", "float[3]");
    mb_weight(&m, "var", "float[3]");
    Onnx__NodeProto *n = mb_node(&m, "BatchNormalization", "bn", "x,s,b,mean,var", "y");
    attr_int(&m, n, "training_mode", 1);
    mb_output(&m, "y", "float[2,3,4]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.batch_norm"), 0);
    ck_assert(has_note(g, "training_mode"));
    byoc_graph_destroy(g);

    mb_init(&m, 15, 8);
    mb_input(&m, "x", "float[2,3,4]");
    mb_weight(&m, "s", "float[3]");
    mb_weight(&m, "b", "float[3]");
    mb_weight(&m, "mean", "float[3]");
    mb_weight(&m, "var", "float[3]");
    n = mb_node(&m, "BatchNormalization", "bn", "x,s,b,mean,var", "y");
    attr_int(&m, n, "training_mode", 0);
    mb_output(&m, "y", "float[2,3,4]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.batch_norm"), 1);
    assert_clean(g);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(split_num_outputs)
{
    mb m;
    /* 10 in 3 parts: 4, 4, 2, as cut points. */
    mb_init(&m, 18, 8);
    mb_input(&m, "x", "float[10,2]");
    Onnx__NodeProto *n = mb_node(&m, "Split", "s", "x", "a,b,c");
    attr_int(&m, n, "num_outputs", 3);
    mb_output(&m, "a", "float[4,2]");
    mb_output(&m, "b", "float[4,2]");
    mb_output(&m, "c", "float[2,2]");
    byoc_graph *g = read_ok(&m);
    int s = find_op(g, "split");
    ck_assert_str_eq(attr_text(g, s, "indices_or_sections"), "[4, 8]");
    ck_assert_str_eq(type_text(g, out_at(g, 2)), "Tensor[(2, 2), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* Divisible: equal sections as before. */
    mb_init(&m, 18, 8);
    mb_input(&m, "x", "float[2,9]");
    n = mb_node(&m, "Split", "s", "x", "a,b,c");
    attr_int(&m, n, "num_outputs", 3);
    attr_int(&m, n, "axis", -1);
    mb_output(&m, "a", "float[2,3]");
    mb_output(&m, "b", "float[2,3]");
    mb_output(&m, "c", "float[2,3]");
    g = read_ok(&m);
    ck_assert_str_eq(attr_text(g, find_op(g, "split"), "indices_or_sections"), "3");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 18, 8);
    mb_input(&m, "x", "float[10,2]");
    n = mb_node(&m, "Split", "s", "x", "a,b");
    attr_int(&m, n, "num_outputs", 3);
    mb_output(&m, "a", "float");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "num_outputs is 3 for 2 outputs"));

    /* 4 parts of 5 (2, 2, 2, -1) do not exist. */
    mb_init(&m, 18, 8);
    mb_input(&m, "x", "float[5]");
    n = mb_node(&m, "Split", "s", "x", "a,b,c,d");
    attr_int(&m, n, "num_outputs", 4);
    mb_output(&m, "a", "float");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "leave no last part"));
}
END_TEST

START_TEST(pad_axes_and_wrap)
{
    mb m;
    /* Opset 18: pads [1, 2] before and [3, 4] after axes 1 and -1. */
    mb_init(&m, 18, 8);
    mb_input(&m, "x", "float[1,3,4,5]");
    mb_ints(&m, "pads", 4, 1, 2, 3, 4);
    mb_ints(&m, "axes", 2, 1, -1);
    mb_node(&m, "Pad", "p", "x,pads,,axes", "y");
    mb_output(&m, "y", "float[1,7,4,11]");
    byoc_graph *g = read_ok(&m);
    int p = find_op(g, "nn.pad");
    ck_assert_str_eq(attr_text(g, p, "pad_width"), "[[0, 0], [1, 3], [0, 0], [2, 4]]");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 7, 4, 11), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    mb_init(&m, 19, 9);
    mb_input(&m, "x", "float[4,5]");
    mb_ints(&m, "pads", 4, 1, 1, 1, 1);
    Onnx__NodeProto *n = mb_node(&m, "Pad", "p", "x,pads", "y");
    attr_string(&m, n, "mode", "wrap");
    mb_output(&m, "y", "float[6,7]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "Pad"), 1);
    ck_assert(has_note(g, "mode 'wrap'"));
    byoc_graph_destroy(g);

    mb_init(&m, 18, 8);
    mb_input(&m, "x", "float[4,5]");
    mb_ints(&m, "pads", 2, 1, 1);
    mb_ints(&m, "axes", 1, 2);
    mb_node(&m, "Pad", "p", "x,pads,,axes", "y");
    mb_output(&m, "y", "float");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "axis 2 is out of range for rank 2"));
}
END_TEST

START_TEST(resize_axes_and_policies)
{
    mb m;
    /* Opset 18: sizes for axes 2 and 3 only. */
    mb_init(&m, 18, 8);
    mb_input(&m, "x", "float[1,3,8,8]");
    mb_ints(&m, "sizes", 2, 16, 12);
    Onnx__NodeProto *n = mb_node(&m, "Resize", "r", "x,,,sizes", "y");
    attr_ints(&m, n, "axes", 2, 2, 3);
    attr_string(&m, n, "mode", "linear");
    mb_output(&m, "y", "float[1,3,16,12]");
    byoc_graph *g = read_ok(&m);
    int r = find_op(g, "image.resize2d");
    ck_assert_str_eq(attr_text(g, r, "size"), "[16, 12]");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 3, 16, 12), float32]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* not_larger: the smaller ratio, 12/8, for both axes: 12 x 12. */
    mb_init(&m, 18, 8);
    mb_input(&m, "x", "float[1,3,8,8]");
    mb_ints(&m, "sizes", 2, 16, 12);
    n = mb_node(&m, "Resize", "r", "x,,,sizes", "y");
    attr_ints(&m, n, "axes", 2, 2, 3);
    attr_string(&m, n, "keep_aspect_ratio_policy", "not_larger");
    mb_output(&m, "y", "float[1,3,12,12]");
    g = read_ok(&m);
    ck_assert_str_eq(attr_text(g, find_op(g, "image.resize2d"), "size"), "[12, 12]");
    assert_clean(g);
    byoc_graph_destroy(g);

    /* Scales for one axis of a 1-D resize. */
    mb_init(&m, 18, 8);
    mb_input(&m, "x", "float[2,3,10]");
    mb_floats(&m, "scales", 1, 0.5);
    n = mb_node(&m, "Resize", "r", "x,,scales", "y");
    attr_ints(&m, n, "axes", 1, -1);
    mb_output(&m, "y", "float[2,3,5]");
    g = read_ok(&m);
    ck_assert_str_eq(attr_text(g, find_op(g, "image.resize1d"), "size"), "[5]");
    assert_clean(g);
    byoc_graph_destroy(g);

    static const char *const opaque[][2] = {
        {"antialias", "antialias"},
        {"half_pixel_symmetric", "half_pixel_symmetric"},
        {"channels", "batch or channel axis"},
    };
    for (size_t k = 0; k < sizeof opaque / sizeof opaque[0]; k++) {
        mb_init(&m, 19, 9);
        mb_input(&m, "x", "float[1,3,8,8]");
        if (k == 2)
            mb_ints(&m, "sizes", 4, 1, 6, 16, 16);
        else
            mb_ints(&m, "sizes", 4, 1, 3, 16, 16);
        n = mb_node(&m, "Resize", "r", "x,,,sizes", "y");
        if (k == 0)
            attr_int(&m, n, "antialias", 1);
        if (k == 1)
            attr_string(&m, n, "coordinate_transformation_mode", "half_pixel_symmetric");
        mb_output(&m, "y", "float");
        g = read_ok(&m);
        ck_assert_int_eq(count_op(g, "Resize"), 1);
        ck_assert_msg(has_note(g, opaque[k][1]), "no note on %s", opaque[k][0]);
        byoc_graph_destroy(g);
    }
}
END_TEST

/* ---- Errors ------------------------------------------------------------------------ */

/* LpPool's SAME padding of a kernel dilated past 64 bits (UBSan reported
 * it), and GlobalLpPool over an empty axis, whose window of 0 divided by
 * zero. */
START_TEST(lp_pool_windows)
{
    mb m;
    Onnx__NodeProto *n = unary(&m, 18, "LpPool", "float[1,4,8,8]", NULL);
    attr_ints(&m, n, "kernel_shape", 2, 2, 2);
    attr_ints(&m, n, "dilations", 2, 1, 1);
    n->attribute[0]->ints[0] = INT64_C(1) << 40;
    n->attribute[1]->ints[0] = INT64_C(1) << 40;
    attr_string(&m, n, "auto_pad", "SAME_LOWER");
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'n' (LpPool): kernel_shape and "
                                     "dilations take spatial axis 0 past 2^63 - 1");
    n = unary(&m, 18, "LpPool", "float[1,4,8,8]", NULL);
    attr_ints(&m, n, "kernel_shape", 2, 2, 2);
    attr_ints(&m, n, "pads", 4, 0, 0, 0, 0);
    n->attribute[1]->ints[2] = INT64_MAX;
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'n' (LpPool): kernel_shape, "
                                     "dilations and pads take spatial axis 0 past 2^63 - 1");
    unary(&m, 2, "GlobalLpPool", "float[1,4,0,6]", "float[1,4,1,1]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "GlobalLpPool"), 1);
    ck_assert(has_note(g, "spatial axis 0 is empty"));
    byoc_graph_destroy(g);
}
END_TEST

/* A hidden_size below 1 was ignored for R's (-5 loaded as 4). */
START_TEST(rnn_hidden_size)
{
    mb m;
    mb_init(&m, 7, 4);
    mb_input(&m, "x", "float[2,1,3]");
    mb_weight(&m, "w", "float[1,4,3]");
    mb_weight(&m, "r", "float[1,4,4]");
    attr_int(&m, mb_node(&m, "RNN", "rnn", "x,w,r", "y"), "hidden_size", -5);
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'rnn' (RNN): attribute "
                                     "'hidden_size' is -5");
}
END_TEST

/* Scatter's axis, any value of which was taken. */
START_TEST(scatter_axis)
{
    mb m;
    mb_init(&m, 9, 8);
    mb_input(&m, "x", "float[4,9]");
    mb_input(&m, "i", "int64[1,1]");
    mb_input(&m, "u", "float[1,1]");
    attr_int(&m, mb_node(&m, "Scatter", "s", "x,i,u", "y"), "axis", INT64_MAX);
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 's' (Scatter): attribute 'axis' "
                                     "is 9223372036854775807 for a tensor of rank 2");
}
END_TEST

static Suite *onnx_more_suite(void)
{
    Suite *s = suite_create("onnx_more");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, elu_selu_celu);
    tcase_add_test(core, softplus_softsign_mish);
    tcase_add_test(core, thresholded_relu_shrink);
    tcase_add_test(core, is_inf_and_bits);
    tcase_add_test(core, group_normalization);
    tcase_add_test(core, layer_norm_spelled_out);
    tcase_add_test(core, mvn_and_lp_normalization);
    tcase_add_test(core, lp_pools);
    tcase_add_test(core, max_unpool);
    tcase_add_test(core, reductions);
    tcase_add_test(core, hardmax);
    tcase_add_test(core, cumsum);
    tcase_add_test(core, trilu);
    tcase_add_test(core, scatter_nd);
    tcase_add_test(core, one_hot);
    tcase_add_test(core, eye_like);
    tcase_add_test(core, einsum);
    tcase_add_test(core, reverse_sequence);
    tcase_add_test(core, center_crop_pad);
    tcase_add_test(core, windows);
    tcase_add_test(core, lstm_forward);
    tcase_add_test(core, lstm_bidirectional_peepholes_layout);
    tcase_add_test(core, gru_and_rnn);
    tcase_add_test(core, rnn_sequence_lens);
    tcase_add_test(core, rnn_symbolic_batch);
    tcase_add_test(core, rnn_left_opaque);
    tcase_add_test(core, attention);
    tcase_add_test(core, rotary_embedding);
    tcase_add_test(core, batch_norm_training_mode);
    tcase_add_test(core, split_num_outputs);
    tcase_add_test(core, pad_axes_and_wrap);
    tcase_add_test(core, resize_axes_and_policies);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, lp_pool_windows);
    tcase_add_test(errors, rnn_hidden_size);
    tcase_add_test(errors, scatter_axis);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(onnx_more_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
