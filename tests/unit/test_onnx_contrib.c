/* Unit tests of ONNX Runtime's contrib ops and the newer default-domain
 * ops beside them (runtime/onnx_contrib.c).
 *
 * Each test builds a small model through the protobuf-c API (com.microsoft
 * and com.microsoft.nchwc imported with mb_opset, nodes put there with
 * mb_domain), reads it, and checks which Relay ops the fused op became,
 * their key attributes, and the inferred types, and FLOPs where the
 * product is what a cost model needs. */
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

#define MS "com.microsoft"
#define NCHWC "com.microsoft.nchwc"

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

/* A model importing com.microsoft (and its nchwc domain) at version 1. */
static void ms_init(mb *m, int opset)
{
    mb_init(m, opset, 8);
    mb_opset(m, MS, 1);
    mb_opset(m, NCHWC, 1);
}

static Onnx__NodeProto *ms_node(mb *m, const char *domain, const char *op, const char *in,
                                const char *out)
{
    Onnx__NodeProto *n = mb_node(m, op, op, in, out);
    mb_domain(m, n, domain);
    return n;
}

/* The graph node that is argument i of node n. */
static int arg(const byoc_graph *g, int n, int i)
{
    return byoc_node_arg(g, n, i);
}

static const char *op_of(const byoc_graph *g, int n)
{
    const char *op = byoc_node_op_name(g, n);
    return op ? op : "";
}

static int opaque_count(const byoc_graph *g)
{
    int n = 0;
    for (int i = 0; i < byoc_graph_node_count(g); i++)
        n += byoc_node_kind_of(g, i) == BYOC_N_CALL && byoc_node_is_opaque(g, i);
    return n;
}

/* ---- Core ------------------------------------------------------------------------ */

START_TEST(fused_conv)
{
    static const struct {
        const char *act;
        int nparams;
        double p0, p1;
        const char *op;
    } acts[] = {
        {"Relu", 0, 0, 0, "nn.relu"},         {"Sigmoid", 0, 0, 0, "sigmoid"},
        {"Tanh", 0, 0, 0, "tanh"},            {"LeakyRelu", 1, 0.25, 0, "nn.leaky_relu"},
        {"Clip", 2, 0, 6, "clip"},            {"HardSigmoid", 2, 0.5, 0.25, "clip"},
    };
    for (size_t k = 0; k < sizeof acts / sizeof acts[0]; k++) {
        mb m;
        ms_init(&m, 13);
        mb_input(&m, "x", "float[1,3,8,8]");
        mb_weight(&m, "w", "float[4,3,3,3]");
        mb_weight(&m, "b", "float[4]");
        Onnx__NodeProto *n = ms_node(&m, MS, "FusedConv", "x,w,b", "y");
        attr_string(&m, n, "activation", acts[k].act);
        if (acts[k].nparams == 1)
            attr_floats(&m, n, "activation_params", 1, acts[k].p0);
        if (acts[k].nparams == 2)
            attr_floats(&m, n, "activation_params", 2, acts[k].p0, acts[k].p1);
        attr_ints(&m, n, "kernel_shape", 2, 3, 3);
        attr_ints(&m, n, "pads", 4, 1, 1, 1, 1);
        mb_output(&m, "y", "float[1,4,8,8]");
        byoc_graph *g = read_ok(&m);
        int out = byoc_graph_output(g), conv = find_op(g, "nn.conv2d");
        ck_assert_int_eq(opaque_count(g), 0);
        ck_assert_str_eq(op_of(g, out), acts[k].op);
        ck_assert_str_eq(attr_text(g, conv, "padding"), "[1, 1, 1, 1]");
        ck_assert_str_eq(attr_text(g, conv, "channels"), "4");
        ck_assert_int_eq(arg(g, find_op(g, "nn.bias_add"), 0), conv);
        ck_assert_str_eq(output_type(g), "Tensor[(1, 4, 8, 8), float32]");
        ck_assert_str_eq(byoc_node_name(g, out), "y");
        /* 2 * 256 outputs * 3 channels * 9 taps. */
        ck_assert_double_eq(byoc_node_flops(g, conv), 2.0 * 256 * 3 * 9);
        if (!strcmp(acts[k].act, "LeakyRelu"))
            ck_assert_str_eq(attr_text(g, out, "alpha"), "0.25");
        if (!strcmp(acts[k].act, "Clip")) {
            ck_assert_str_eq(attr_text(g, out, "a_min"), "0.0");
            ck_assert_str_eq(attr_text(g, out, "a_max"), "6.0");
        }
        if (!strcmp(acts[k].act, "HardSigmoid")) {
            ck_assert_int_eq(count_op(g, "multiply"), 1);
            ck_assert_int_eq(count_op(g, "add"), 1);
        }
        ck_assert_int_eq(byoc_graph_note_count(g), 0);
        byoc_graph_destroy(g);
    }

    /* Z, the summand, is added before the activation. */
    mb m;
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,3,8,8]");
    mb_input(&m, "z", "float[1,4,6,6]");
    mb_weight(&m, "w", "float[4,3,3,3]");
    mb_weight(&m, "b", "float[4]");
    Onnx__NodeProto *n = ms_node(&m, MS, "FusedConv", "x,w,b,z", "y");
    attr_string(&m, n, "activation", "Relu");
    mb_output(&m, "y", "float[1,4,6,6]");
    byoc_graph *g = read_ok(&m);
    int relu = byoc_graph_output(g), add = arg(g, relu, 0);
    ck_assert_str_eq(op_of(g, relu), "nn.relu");
    ck_assert_str_eq(op_of(g, add), "add");
    ck_assert_str_eq(op_of(g, arg(g, add, 0)), "nn.bias_add");
    ck_assert_str_eq(byoc_node_name(g, arg(g, add, 1)), "z");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 4, 6, 6), float32]");
    byoc_graph_destroy(g);

    /* No activation, no bias: the convolution alone. */
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,3,8,8]");
    mb_weight(&m, "w", "float[4,3,3,3]");
    ms_node(&m, MS, "FusedConv", "x,w", "y");
    mb_output(&m, "y", "float[1,4,6,6]");
    g = read_ok(&m);
    ck_assert_int_eq(count_calls(g), 1);
    ck_assert_str_eq(op_of(g, byoc_graph_output(g)), "nn.conv2d");
    byoc_graph_destroy(g);

    /* An activation MLAS has but the mapping does not: opaque, and nothing
     * half-built is left behind. */
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,3,8,8]");
    mb_weight(&m, "w", "float[4,3,3,3]");
    n = ms_node(&m, MS, "FusedConv", "x,w", "y");
    attr_string(&m, n, "activation", "Elu");
    mb_output(&m, "y", "float[1,4,6,6]");
    g = read_ok(&m);
    ck_assert_int_eq(count_calls(g), 1);
    ck_assert(byoc_node_is_opaque(g, find_op(g, "com.microsoft.FusedConv")));
    ck_assert(has_note(g, "activation 'Elu' is not mapped"));
    ck_assert_str_eq(output_type(g), "Tensor[(1, 4, 6, 6), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(fused_gemm)
{
    mb m;
    ms_init(&m, 13);
    mb_input(&m, "a", "float[2,5]");
    mb_weight(&m, "b", "float[3,5]");
    mb_weight(&m, "c", "float[3]");
    Onnx__NodeProto *n = ms_node(&m, MS, "FusedGemm", "a,b,c", "y");
    attr_int(&m, n, "transB", 1);
    attr_string(&m, n, "activation", "LeakyRelu");
    attr_float(&m, n, "activation_alpha", 0.125f);
    mb_output(&m, "y", "float[2,3]");
    byoc_graph *g = read_ok(&m);
    int out = byoc_graph_output(g);
    ck_assert_str_eq(op_of(g, out), "nn.leaky_relu");
    ck_assert_str_eq(attr_text(g, out, "alpha"), "0.125");
    ck_assert_str_eq(op_of(g, arg(g, out, 0)), "add");
    ck_assert_str_eq(attr_text(g, find_op(g, "nn.dense"), "units"), "3");
    ck_assert_int_eq(count_op(g, "transpose"), 0);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3), float32]");
    ck_assert_double_eq(byoc_node_flops(g, find_op(g, "nn.dense")), 2.0 * 6 * 5);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(fused_matmul)
{
    /* RoBERTa's attention scores as ORT fuses them: Q and K arrive as
     * [seq, heads, head] and are moved to [heads, seq, head] by
     * transBatch, K transposed, the product scaled. */
    mb m;
    ms_init(&m, 13);
    mb_input(&m, "q", "float[128,12,64]");
    mb_input(&m, "k", "float[128,12,64]");
    Onnx__NodeProto *n = ms_node(&m, MS, "FusedMatMul", "q,k", "y");
    attr_float(&m, n, "alpha", 0.125f);
    attr_int(&m, n, "transB", 1);
    attr_int(&m, n, "transBatchA", 1);
    attr_int(&m, n, "transBatchB", 1);
    mb_output(&m, "y", "float[12,128,128]");
    byoc_graph *g = read_ok(&m);
    int out = byoc_graph_output(g), bmm = find_op(g, "nn.batch_matmul");
    ck_assert_str_eq(op_of(g, out), "multiply");
    ck_assert_int_eq(arg(g, out, 0), bmm);
    ck_assert_str_eq(attr_text(g, bmm, "transpose_b"), "true");
    ck_assert_str_eq(attr_text(g, arg(g, bmm, 0), "axes"), "[1, 0, 2]");
    ck_assert_str_eq(attr_text(g, arg(g, bmm, 1), "axes"), "[1, 0, 2]");
    ck_assert_str_eq(output_type(g), "Tensor[(12, 128, 128), float32]");
    ck_assert_double_eq(byoc_node_flops(g, bmm), 2.0 * 12 * 128 * 128 * 64);
    ck_assert_int_eq(byoc_graph_note_count(g), 0);
    byoc_graph_destroy(g);

    /* The context: probabilities times V, V moved by transBatchB alone. */
    ms_init(&m, 13);
    mb_input(&m, "p", "float[12,128,128]");
    mb_input(&m, "v", "float[128,12,64]");
    n = ms_node(&m, MS, "FusedMatMul", "p,v", "y");
    attr_int(&m, n, "transBatchB", 1);
    mb_output(&m, "y", "float[12,128,64]");
    g = read_ok(&m);
    bmm = find_op(g, "nn.batch_matmul");
    ck_assert_int_eq(byoc_graph_output(g), bmm);
    ck_assert_str_eq(attr_text(g, arg(g, bmm, 1), "axes"), "[1, 2, 0]");
    ck_assert_int_eq(byoc_node_kind_of(g, arg(g, bmm, 0)), BYOC_N_INPUT);
    ck_assert_str_eq(output_type(g), "Tensor[(12, 128, 64), float32]");
    byoc_graph_destroy(g);

    /* No transposition: MatMul's ops, then alpha. */
    ms_init(&m, 13);
    mb_input(&m, "a", "float[2,3]");
    mb_weight(&m, "b", "float[3,4]");
    n = ms_node(&m, MS, "FusedMatMul", "a,b", "y");
    attr_float(&m, n, "alpha", 2.0f);
    mb_output(&m, "y", "float[2,4]");
    g = read_ok(&m);
    ck_assert_str_eq(op_of(g, byoc_graph_output(g)), "multiply");
    ck_assert_int_eq(count_op(g, "nn.dense"), 1);
    ck_assert_str_eq(attr_text(g, find_op(g, "transpose"), "axes"), "[1, 0]");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 4), float32]");
    byoc_graph_destroy(g);

    /* transA on matrices: A transposed, B already [N, K] with transB. */
    ms_init(&m, 13);
    mb_input(&m, "a", "float[3,2]");
    mb_weight(&m, "b", "float[4,3]");
    n = ms_node(&m, MS, "FusedMatMul", "a,b", "y");
    attr_int(&m, n, "transA", 1);
    attr_int(&m, n, "transB", 1);
    mb_output(&m, "y", "float[2,4]");
    g = read_ok(&m);
    int dense = byoc_graph_output(g);
    ck_assert_str_eq(op_of(g, dense), "nn.dense");
    ck_assert_str_eq(op_of(g, arg(g, dense, 0)), "transpose");
    ck_assert_int_eq(byoc_node_kind_of(g, arg(g, dense, 1)), BYOC_N_CONST);
    ck_assert_int_eq(count_op(g, "multiply"), 0);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 4), float32]");
    byoc_graph_destroy(g);

    /* Rank 4 (TransposeMatMul, the older name): flattened to 3-D around
     * nn.batch_matmul and reshaped back. */
    ms_init(&m, 13);
    mb_input(&m, "a", "float[2,3,5,4]");
    mb_input(&m, "b", "float[2,3,5,6]");
    n = ms_node(&m, MS, "TransposeMatMul", "a,b", "y");
    attr_int(&m, n, "transA", 1);
    mb_output(&m, "y", "float[2,3,4,6]");
    g = read_ok(&m);
    bmm = find_op(g, "nn.batch_matmul");
    ck_assert_str_eq(op_of(g, byoc_graph_output(g)), "reshape");
    ck_assert_int_eq(count_op(g, "reshape"), 3);
    ck_assert_str_eq(type_text(g, bmm), "Tensor[(6, 4, 6), float32]");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3, 4, 6), float32]");
    byoc_graph_destroy(g);

    /* A batched A against a matrix B: nn.dense on A flattened. */
    ms_init(&m, 13);
    mb_input(&m, "a", "float[2,5,3]");
    mb_weight(&m, "b", "float[5,4]");
    n = ms_node(&m, MS, "FusedMatMul", "a,b", "y");
    attr_int(&m, n, "transA", 1);
    mb_output(&m, "y", "float[2,3,4]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.dense"), 1);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3, 4), float32]");
    ck_assert_int_eq(byoc_graph_note_count(g), 0);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(gelu)
{
    /* Gelu (opset 20): x * (erf(x / sqrt(2)) * 0.5 + 0.5). */
    mb m;
    mb_init(&m, 20, 9);
    mb_input(&m, "x", "float[2,8]");
    mb_node(&m, "Gelu", "g", "x", "y");
    mb_output(&m, "y", "float[2,8]");
    byoc_graph *g = read_ok(&m);
    int out = byoc_graph_output(g), x = find_name(g, "x");
    ck_assert_str_eq(op_of(g, out), "multiply");
    ck_assert_int_eq(arg(g, out, 1), x);
    int add = arg(g, out, 0), half = arg(g, add, 0), erf = arg(g, half, 0);
    ck_assert_str_eq(op_of(g, add), "add");
    ck_assert_str_eq(op_of(g, half), "multiply");
    ck_assert_str_eq(op_of(g, erf), "erf");
    ck_assert_int_eq(arg(g, arg(g, erf, 0), 0), x);
    ck_assert_int_eq(count_calls(g), 5);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 8), float32]");
    ck_assert_double_eq(byoc_node_flops(g, erf), 16);
    byoc_graph_destroy(g);

    /* approximate="tanh": the tanh form. */
    mb_init(&m, 20, 9);
    mb_input(&m, "x", "float[2,8]");
    Onnx__NodeProto *n = mb_node(&m, "Gelu", "g", "x", "y");
    attr_string(&m, n, "approximate", "tanh");
    mb_output(&m, "y", "float[2,8]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "tanh"), 1);
    ck_assert_int_eq(count_op(g, "power"), 1);
    ck_assert_int_eq(count_op(g, "erf"), 0);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 8), float32]");
    byoc_graph_destroy(g);

    /* com.microsoft's Gelu is the erf form too. */
    ms_init(&m, 13);
    mb_input(&m, "x", "float16[4]");
    ms_node(&m, MS, "Gelu", "x", "y");
    mb_output(&m, "y", "float16[4]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "erf"), 1);
    ck_assert_int_eq(count_op(g, "tanh"), 0);
    ck_assert_str_eq(output_type(g), "Tensor[(4,), float16]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(gelu_variants)
{
    /* BiasGelu: add, then the erf form. */
    mb m;
    ms_init(&m, 13);
    mb_input(&m, "x", "float[2,8]");
    mb_weight(&m, "b", "float[8]");
    ms_node(&m, MS, "BiasGelu", "x,b", "y");
    mb_output(&m, "y", "float[2,8]");
    byoc_graph *g = read_ok(&m);
    int out = byoc_graph_output(g), sum = arg(g, out, 1);
    ck_assert_str_eq(op_of(g, sum), "add");
    ck_assert_str_eq(byoc_node_name(g, arg(g, sum, 1)), "b");
    ck_assert_int_eq(count_op(g, "erf"), 1);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 8), float32]");
    byoc_graph_destroy(g);

    /* FastGelu with and without its bias: the tanh form. */
    for (int bias = 0; bias < 2; bias++) {
        ms_init(&m, 13);
        mb_input(&m, "x", "float[2,8]");
        mb_weight(&m, "b", "float[8]");
        ms_node(&m, MS, "FastGelu", bias ? "x,b" : "x", "y");
        mb_output(&m, "y", "float[2,8]");
        g = read_ok(&m);
        ck_assert_int_eq(count_op(g, "tanh"), 1);
        ck_assert_int_eq(count_op(g, "add"), 2 + bias);
        ck_assert_int_eq(count_op(g, "multiply"), 4);
        ck_assert_str_eq(output_type(g), "Tensor[(2, 8), float32]");
        byoc_graph_destroy(g);
    }

    /* QuickGelu: x * sigmoid(1.702 x); with alpha 1, swish. */
    for (int one = 0; one < 2; one++) {
        ms_init(&m, 13);
        mb_input(&m, "x", "float[2,8]");
        Onnx__NodeProto *n = ms_node(&m, MS, "QuickGelu", "x", "y");
        if (one)
            attr_float(&m, n, "alpha", 1.0f);
        mb_output(&m, "y", "float[2,8]");
        g = read_ok(&m);
        out = byoc_graph_output(g);
        int sig = arg(g, out, 1);
        ck_assert_str_eq(op_of(g, sig), "sigmoid");
        ck_assert_int_eq(arg(g, out, 0), find_name(g, "x"));
        ck_assert_int_eq(count_op(g, "multiply"), one ? 1 : 2);
        if (one)
            ck_assert_int_eq(arg(g, sig, 0), find_name(g, "x"));
        ck_assert_str_eq(output_type(g), "Tensor[(2, 8), float32]");
        byoc_graph_destroy(g);
    }
}
END_TEST

START_TEST(bias_add_and_softmax)
{
    mb m;
    ms_init(&m, 13);
    mb_input(&m, "x", "float[2,4,8]");
    mb_input(&m, "s", "float[2,4,8]");
    mb_weight(&m, "b", "float[8]");
    ms_node(&m, MS, "BiasAdd", "x,b,s", "y");
    mb_output(&m, "y", "float[2,4,8]");
    byoc_graph *g = read_ok(&m);
    int out = byoc_graph_output(g);
    ck_assert_str_eq(op_of(g, out), "add");
    ck_assert_str_eq(op_of(g, arg(g, out, 0)), "add");
    ck_assert_int_eq(count_calls(g), 2);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 4, 8), float32]");
    byoc_graph_destroy(g);

    /* BiasSoftmax over the last axis: add, nn.softmax. */
    ms_init(&m, 13);
    mb_input(&m, "x", "float[2,4,8,8]");
    mb_input(&m, "mask", "float[2,1,1,8]");
    Onnx__NodeProto *n = ms_node(&m, MS, "BiasSoftmax", "x,mask", "y");
    attr_int(&m, n, "axis", 3);
    attr_int(&m, n, "is_inner_broadcast", 1);
    mb_output(&m, "y", "float[2,4,8,8]");
    g = read_ok(&m);
    out = byoc_graph_output(g);
    ck_assert_str_eq(op_of(g, out), "nn.softmax");
    ck_assert_str_eq(attr_text(g, out, "axis"), "-1");
    ck_assert_str_eq(op_of(g, arg(g, out, 0)), "add");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 4, 8, 8), float32]");
    ck_assert_double_eq(byoc_node_flops(g, out), 4.0 * 512);
    byoc_graph_destroy(g);

    /* Its default axis 1 spans several axes: opaque, said why. */
    ms_init(&m, 13);
    mb_input(&m, "x", "float[2,4,8,8]");
    mb_input(&m, "mask", "float[2,1,1,8]");
    ms_node(&m, MS, "BiasSoftmax", "x,mask", "y");
    mb_output(&m, "y", "float[2,4,8,8]");
    g = read_ok(&m);
    ck_assert_int_eq(count_calls(g), 1);
    ck_assert(has_note(g, "a softmax over axes 1.. is not mapped"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(skip_layer_norm)
{
    /* RoBERTa's form: input, skip, gamma, beta, no bias, one output. */
    mb m;
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,4,8]");
    mb_input(&m, "s", "float[1,4,8]");
    mb_weight(&m, "gamma", "float[8]");
    mb_weight(&m, "beta", "float[8]");
    Onnx__NodeProto *n = ms_node(&m, MS, "SkipLayerNormalization", "x,s,gamma,beta", "y");
    attr_float(&m, n, "epsilon", 0.25f);
    mb_output(&m, "y", "float[1,4,8]");
    byoc_graph *g = read_ok(&m);
    int ln = byoc_graph_output(g);
    ck_assert_str_eq(op_of(g, ln), "nn.layer_norm");
    ck_assert_str_eq(attr_text(g, ln, "epsilon"), "0.25");
    ck_assert_str_eq(attr_text(g, ln, "axis"), "-1");
    ck_assert_str_eq(op_of(g, arg(g, ln, 0)), "add");
    ck_assert_str_eq(byoc_node_name(g, arg(g, ln, 2)), "beta");
    ck_assert_int_eq(count_calls(g), 2);
    ck_assert_str_eq(output_type(g), "Tensor[(1, 4, 8), float32]");
    ck_assert_double_eq(byoc_node_flops(g, ln), 7.0 * 32);
    byoc_graph_destroy(g);

    /* With the bias and every optional output read. */
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,4,8]");
    mb_input(&m, "s", "float[1,4,8]");
    mb_weight(&m, "gamma", "float[8]");
    mb_weight(&m, "beta", "float[8]");
    mb_weight(&m, "bias", "float[8]");
    ms_node(&m, MS, "SkipLayerNormalization", "x,s,gamma,beta,bias", "y,mean,inv,sum");
    mb_output(&m, "y", "float[1,4,8]");
    mb_output(&m, "mean", "float[1,4,1]");
    mb_output(&m, "inv", "float[1,4,1]");
    mb_output(&m, "sum", "float[1,4,8]");
    g = read_ok(&m);
    int mean = find_name(g, "mean"), inv = find_name(g, "inv"), sum = find_name(g, "sum");
    ck_assert_str_eq(op_of(g, mean), "mean");
    ck_assert_str_eq(attr_text(g, mean, "keepdims"), "true");
    ck_assert_str_eq(op_of(g, inv), "rsqrt");
    ck_assert_int_eq(count_op(g, "variance"), 1);
    ck_assert_str_eq(op_of(g, sum), "add");
    ck_assert_str_eq(op_of(g, arg(g, sum, 0)), "add");
    ck_assert_str_eq(byoc_node_name(g, arg(g, sum, 1)), "bias");
    ck_assert_int_eq(arg(g, find_name(g, "y"), 0), sum);
    ck_assert_str_eq(type_text(g, mean), "Tensor[(1, 4, 1), float32]");
    ck_assert_str_eq(type_text(g, inv), "Tensor[(1, 4, 1), float32]");
    ck_assert_str_eq(type_text(g, sum), "Tensor[(1, 4, 8), float32]");
    ck_assert_int_eq(byoc_graph_note_count(g), 0);
    byoc_graph_destroy(g);

    /* SkipSimplifiedLayerNormalization: the sum, RMS-normalised. */
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,4,8]");
    mb_input(&m, "s", "float[1,4,8]");
    mb_weight(&m, "gamma", "float[8]");
    mb_weight(&m, "bias", "float[8]");
    ms_node(&m, MS, "SkipSimplifiedLayerNormalization", "x,s,gamma,bias", "y,,inv,sum");
    mb_output(&m, "y", "float[1,4,8]");
    mb_output(&m, "inv", "float[1,4,1]");
    mb_output(&m, "sum", "float[1,4,8]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.layer_norm"), 0);
    ck_assert_int_eq(count_op(g, "add"), 3);
    ck_assert_str_eq(op_of(g, find_name(g, "inv")), "rsqrt");
    ck_assert_str_eq(op_of(g, find_name(g, "y")), "multiply");
    ck_assert_str_eq(attr_text(g, find_op(g, "mean"), "axis"), "[-1]");
    ck_assert_str_eq(type_text(g, find_name(g, "y")), "Tensor[(1, 4, 8), float32]");
    ck_assert_str_eq(type_text(g, find_name(g, "inv")), "Tensor[(1, 4, 1), float32]");
    ck_assert_int_eq(byoc_graph_note_count(g), 0);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(rms_norm)
{
    /* RMSNormalization (opset 23) over the last axis. */
    mb m;
    mb_init(&m, 23, 11);
    mb_input(&m, "x", "float[2,4,8]");
    mb_weight(&m, "scale", "float[8]");
    Onnx__NodeProto *n = mb_node(&m, "RMSNormalization", "rms", "x,scale", "y");
    attr_float(&m, n, "epsilon", 0.5f);
    mb_output(&m, "y", "float[2,4,8]");
    byoc_graph *g = read_ok(&m);
    int out = byoc_graph_output(g), mean = find_op(g, "mean");
    ck_assert_str_eq(op_of(g, out), "multiply");
    ck_assert_str_eq(byoc_node_name(g, arg(g, out, 1)), "scale");
    ck_assert_str_eq(attr_text(g, mean, "axis"), "[-1]");
    ck_assert_str_eq(type_text(g, mean), "Tensor[(2, 4, 1), float32]");
    ck_assert_int_eq(count_op(g, "rsqrt"), 1);
    ck_assert_int_eq(count_op(g, "cast"), 0);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 4, 8), float32]");
    byoc_graph_destroy(g);

    /* From axis 1, over the trailing axes; float16 computes in float32. */
    mb_init(&m, 23, 11);
    mb_input(&m, "x", "float16[2,4,8]");
    mb_weight(&m, "scale", "float16[4,8]");
    n = mb_node(&m, "RMSNormalization", "rms", "x,scale", "y");
    attr_int(&m, n, "axis", 1);
    mb_output(&m, "y", "float16[2,4,8]");
    g = read_ok(&m);
    mean = find_op(g, "mean");
    ck_assert_str_eq(attr_text(g, mean, "axis"), "[1, 2]");
    ck_assert_str_eq(type_text(g, mean), "Tensor[(2, 1, 1), float32]");
    ck_assert_int_eq(count_op(g, "cast"), 2);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 4, 8), float16]");
    byoc_graph_destroy(g);

    /* ORT's SimplifiedLayerNormalization, in its default domain and in
     * com.microsoft, with the inverse deviation read. */
    for (int ms = 0; ms < 2; ms++) {
        ms_init(&m, 13);
        mb_input(&m, "x", "float[2,8]");
        mb_weight(&m, "scale", "float[8]");
        Onnx__NodeProto *s = mb_node(&m, "SimplifiedLayerNormalization", "sln", "x,scale",
                                     "y,inv");
        if (ms)
            mb_domain(&m, s, MS);
        mb_output(&m, "y", "float[2,8]");
        mb_output(&m, "inv", "float[2,1]");
        g = read_ok(&m);
        ck_assert_str_eq(op_of(g, find_name(g, "inv")), "rsqrt");
        ck_assert_str_eq(type_text(g, find_name(g, "inv")), "Tensor[(2, 1), float32]");
        ck_assert_str_eq(type_text(g, find_name(g, "y")), "Tensor[(2, 8), float32]");
        ck_assert_int_eq(opaque_count(g), 0);
        byoc_graph_destroy(g);
    }
}
END_TEST

START_TEST(embed_layer_norm)
{
    mb m;
    ms_init(&m, 13);
    mb_input(&m, "ids", "int32[2,16]");
    mb_input(&m, "seg", "int32[2,16]");
    mb_input(&m, "mask", "int32[2,16]");
    mb_weight(&m, "word", "float[100,32]");
    mb_weight(&m, "pos", "float[64,32]");
    mb_weight(&m, "segemb", "float[2,32]");
    mb_weight(&m, "gamma", "float[32]");
    mb_weight(&m, "beta", "float[32]");
    ms_node(&m, MS, "EmbedLayerNormalization", "ids,seg,word,pos,segemb,gamma,beta,mask",
            "y,mask_index,emb");
    mb_output(&m, "y", "float[2,16,32]");
    mb_output(&m, "mask_index", "int32[2]");
    mb_output(&m, "emb", "float[2,16,32]");
    byoc_graph *g = read_ok(&m);
    int y = find_name(g, "y"), mi = find_name(g, "mask_index"), pos = find_op(g, "strided_slice");
    ck_assert_str_eq(op_of(g, y), "nn.layer_norm");
    ck_assert_str_eq(attr_text(g, y, "epsilon"), "1e-12");
    ck_assert_int_eq(count_op(g, "take"), 2);
    ck_assert_str_eq(attr_text(g, pos, "end"), "[16]");
    ck_assert_str_eq(type_text(g, pos), "Tensor[(16, 32), float32]");
    ck_assert_str_eq(op_of(g, mi), "sum");
    ck_assert_str_eq(type_text(g, mi), "Tensor[(2,), int32]");
    ck_assert_int_eq(arg(g, y, 0), find_name(g, "emb"));
    ck_assert_str_eq(type_text(g, y), "Tensor[(2, 16, 32), float32]");
    ck_assert_int_eq(byoc_graph_note_count(g), 0);
    byoc_graph_destroy(g);

    /* Without segments and mask, position_ids given: zeros for the mask
     * index, a take of the positions. */
    ms_init(&m, 13);
    mb_input(&m, "ids", "int32[2,16]");
    mb_input(&m, "pids", "int32[2,16]");
    mb_weight(&m, "word", "float[100,32]");
    mb_weight(&m, "pos", "float[64,32]");
    mb_weight(&m, "gamma", "float[32]");
    mb_weight(&m, "beta", "float[32]");
    ms_node(&m, MS, "EmbedLayerNormalization", "ids,,word,pos,,gamma,beta,,pids",
            "y,mask_index");
    mb_output(&m, "y", "float[2,16,32]");
    mb_output(&m, "mask_index", "int32[2]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "take"), 2);
    ck_assert_int_eq(count_op(g, "strided_slice"), 0);
    ck_assert_str_eq(op_of(g, find_name(g, "mask_index")), "full");
    ck_assert_str_eq(type_text(g, find_name(g, "mask_index")), "Tensor[(2,), int32]");
    ck_assert_int_eq(byoc_graph_note_count(g), 0);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(attention)
{
    /* BERT's Attention: 2 x 16 tokens, 32 features, 4 heads of 8. */
    mb m;
    ms_init(&m, 13);
    mb_input(&m, "x", "float[2,16,32]");
    mb_input(&m, "mask", "int32[2,16]");
    mb_weight(&m, "w", "float[32,96]");
    mb_weight(&m, "b", "float[96]");
    Onnx__NodeProto *n = ms_node(&m, MS, "Attention", "x,w,b,mask", "y,present");
    attr_int(&m, n, "num_heads", 4);
    mb_output(&m, "y", "float[2,16,32]");
    mb_output(&m, "present", "float[2,2,4,16,8]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "split"), 2);
    ck_assert_int_eq(count_op(g, "nn.dense"), 3);
    ck_assert_int_eq(count_op(g, "nn.batch_matmul"), 2);
    ck_assert_int_eq(count_op(g, "nn.softmax"), 1);
    ck_assert_int_eq(count_op(g, "divide"), 1);
    ck_assert_int_eq(count_op(g, "stack"), 1);
    ck_assert_str_eq(attr_text(g, find_op(g, "nn.dense"), "units"), "32");
    int soft = find_op(g, "nn.softmax");
    ck_assert_str_eq(type_text(g, soft), "Tensor[(8, 16, 16), float32]");
    ck_assert_str_eq(type_text(g, find_name(g, "y")), "Tensor[(2, 16, 32), float32]");
    ck_assert_str_eq(type_text(g, find_name(g, "present")), "Tensor[(2, 2, 4, 16, 8), float32]");
    for (int i = 0; i < byoc_graph_node_count(g); i++)
        if (!strcmp(op_of(g, i), "nn.batch_matmul"))
            ck_assert_double_eq(byoc_node_flops(g, i), 2.0 * 8 * 16 * 16 * 8);
    ck_assert_int_eq(byoc_graph_note_count(g), 0);
    byoc_graph_destroy(g);

    /* Causal attention (GPT-2's), no bias, no mask: a lower-triangular
     * trilu of ones masks the scores. */
    ms_init(&m, 13);
    mb_input(&m, "x", "float[2,16,32]");
    mb_weight(&m, "w", "float[32,96]");
    n = ms_node(&m, MS, "Attention", "x,w", "y");
    attr_int(&m, n, "num_heads", 4);
    attr_int(&m, n, "unidirectional", 1);
    mb_output(&m, "y", "float[2,16,32]");
    g = read_ok(&m);
    int tril = find_op(g, "trilu");
    ck_assert_str_eq(attr_text(g, tril, "upper"), "false");
    ck_assert_str_eq(type_text(g, tril), "Tensor[(16, 16), float32]");
    ck_assert_str_eq(op_of(g, arg(g, tril, 0)), "full");
    ck_assert_int_eq(count_op(g, "add"), 1);
    ck_assert_int_eq(opaque_count(g), 0);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 16, 32), float32]");
    ck_assert_int_eq(byoc_graph_note_count(g), 0);
    byoc_graph_destroy(g);

    /* Past state is not mapped: opaque, with a note. */
    ms_init(&m, 13);
    mb_input(&m, "x", "float[2,16,32]");
    mb_input(&m, "past", "float[2,2,4,8,8]");
    mb_weight(&m, "w", "float[32,96]");
    n = ms_node(&m, MS, "Attention", "x,w,,,past", "y");
    attr_int(&m, n, "num_heads", 4);
    mb_output(&m, "y", "float[2,16,32]");
    g = read_ok(&m);
    ck_assert_int_eq(count_calls(g), 1);
    ck_assert(has_note(g, "past state is not mapped"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(multi_head_attention)
{
    /* Cross attention: 16 queries over 10 keys, V wider than Q and K. */
    mb m;
    ms_init(&m, 13);
    mb_input(&m, "q", "float[2,16,32]");
    mb_input(&m, "k", "float[2,10,32]");
    mb_input(&m, "v", "float[2,10,48]");
    mb_input(&m, "kpm", "int32[2,10]");
    mb_weight(&m, "b", "float[112]");
    Onnx__NodeProto *n = ms_node(&m, MS, "MultiHeadAttention", "q,k,v,b,kpm", "y");
    attr_int(&m, n, "num_heads", 4);
    attr_float(&m, n, "scale", 0.5f);
    mb_output(&m, "y", "float[2,16,48]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.batch_matmul"), 2);
    ck_assert_int_eq(count_op(g, "divide"), 0);
    ck_assert_int_eq(count_op(g, "split"), 1);
    ck_assert_str_eq(type_text(g, find_op(g, "nn.softmax")), "Tensor[(8, 16, 10), float32]");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 16, 48), float32]");
    ck_assert_int_eq(byoc_graph_note_count(g), 0);
    byoc_graph_destroy(g);

    /* Causal with 4 queries over 6 keys: query i sees keys ..i + 2. */
    ms_init(&m, 13);
    mb_input(&m, "q", "float[1,4,16]");
    mb_input(&m, "k", "float[1,6,16]");
    mb_input(&m, "v", "float[1,6,16]");
    n = ms_node(&m, MS, "MultiHeadAttention", "q,k,v", "y");
    attr_int(&m, n, "num_heads", 2);
    attr_int(&m, n, "unidirectional", 1);
    mb_output(&m, "y", "float[1,4,16]");
    g = read_ok(&m);
    int tril = find_op(g, "trilu");
    char buf[32];
    byoc_value_format(byoc_node_const_value(g, arg(g, tril, 1)), buf, sizeof buf);
    ck_assert_str_eq(buf, "2");
    ck_assert_str_eq(type_text(g, tril), "Tensor[(4, 6), float32]");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 4, 16), float32]");
    byoc_graph_destroy(g);

    /* Packed QKV stays opaque. */
    ms_init(&m, 13);
    mb_input(&m, "q", "float[2,16,4,3,8]");
    n = ms_node(&m, MS, "MultiHeadAttention", "q", "y");
    attr_int(&m, n, "num_heads", 4);
    mb_output(&m, "y", "float[2,16,32]");
    g = read_ok(&m);
    ck_assert(has_note(g, "packed query, key and value are not mapped"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(nhwc_conv)
{
    for (int ohwi = 0; ohwi < 2; ohwi++) {
        mb m;
        ms_init(&m, 13);
        mb_input(&m, "x", "float[1,8,8,5]");
        mb_weight(&m, "w", ohwi ? "float[4,3,3,5]" : "float[4,5,3,3]");
        mb_weight(&m, "b", "float[4]");
        Onnx__NodeProto *n = ms_node(&m, MS, "NhwcConv", "x,w,b", "y");
        attr_ints(&m, n, "pads", 4, 1, 1, 1, 1);
        mb_output(&m, "y", "float[1,8,8,4]");
        byoc_graph *g = read_ok(&m);
        int conv = find_op(g, "nn.conv2d"), bias = byoc_graph_output(g);
        ck_assert_str_eq(attr_text(g, conv, "data_layout"), "\"NHWC\"");
        ck_assert_str_eq(attr_text(g, conv, "kernel_layout"), ohwi ? "\"OHWI\"" : "\"OIHW\"");
        ck_assert_str_eq(op_of(g, bias), "nn.bias_add");
        ck_assert_str_eq(attr_text(g, bias, "axis"), "3");
        ck_assert_str_eq(output_type(g), "Tensor[(1, 8, 8, 4), float32]");
        ck_assert_double_eq(byoc_node_flops(g, conv), 2.0 * 256 * 5 * 9);
        byoc_graph_destroy(g);
    }

    /* NhwcFusedConv: the same, then Z added and the activation. */
    mb m;
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,8,8,5]");
    mb_input(&m, "z", "float[1,6,6,4]");
    mb_weight(&m, "w", "float[4,5,3,3]");
    mb_weight(&m, "b", "float[4]");
    Onnx__NodeProto *n = ms_node(&m, MS, "NhwcFusedConv", "x,w,b,z", "y");
    attr_string(&m, n, "activation", "Sigmoid");
    mb_output(&m, "y", "float[1,6,6,4]");
    byoc_graph *g = read_ok(&m);
    int out = byoc_graph_output(g), add = arg(g, out, 0);
    ck_assert_str_eq(op_of(g, out), "sigmoid");
    ck_assert_str_eq(op_of(g, add), "add");
    ck_assert_str_eq(op_of(g, arg(g, add, 0)), "nn.bias_add");
    ck_assert_str_eq(attr_text(g, find_op(g, "nn.conv2d"), "data_layout"), "\"NHWC\"");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 6, 6, 4), float32]");
    ck_assert_str_eq(byoc_node_name(g, out), "y");
    byoc_graph_destroy(g);

    /* A weight [4, 3, 3, 3] over 3 channels fits both layouts. */
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,8,8,3]");
    mb_weight(&m, "w", "float[4,3,3,3]");
    ms_node(&m, MS, "NhwcConv", "x,w", "y");
    mb_output(&m, "y", "float[1,6,6,4]");
    g = read_ok(&m);
    ck_assert_int_eq(count_calls(g), 1);
    ck_assert(has_note(g, "OIHW or OHWI"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(rotary_embedding)
{
    /* [B, S, N * D] with 2 heads of 8, rotated in halves. */
    mb m;
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,4,16]");
    mb_input(&m, "pos", "int64[1,4]");
    mb_weight(&m, "cos", "float[32,4]");
    mb_weight(&m, "sin", "float[32,4]");
    Onnx__NodeProto *n = ms_node(&m, MS, "RotaryEmbedding", "x,pos,cos,sin", "y");
    attr_int(&m, n, "num_heads", 2);
    mb_output(&m, "y", "float[1,4,16]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "take"), 2);
    ck_assert_int_eq(count_op(g, "strided_slice"), 2);
    ck_assert_int_eq(count_op(g, "subtract"), 1);
    ck_assert_int_eq(count_op(g, "stack"), 0);
    int cat = find_op(g, "concatenate");
    ck_assert_str_eq(type_text(g, cat), "Tensor[(1, 4, 2, 8), float32]");
    ck_assert_str_eq(type_text(g, find_op(g, "expand_dims")), "Tensor[(1, 4, 1, 4), float32]");
    ck_assert_str_eq(op_of(g, byoc_graph_output(g)), "reshape");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 4, 16), float32]");
    ck_assert_int_eq(byoc_graph_note_count(g), 0);
    byoc_graph_destroy(g);

    /* [B, N, S, D], interleaved pairs over the first 4 of 8 features, the
     * positions a constant offset. */
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,2,4,8]");
    Onnx__TensorProto *off = mb_weight(&m, "pos", "int64[1]");
    off->int64_data = mb_alloc(&m, sizeof(int64_t));
    off->int64_data[0] = 3;
    off->n_int64_data = 1;
    mb_weight(&m, "cos", "float[32,2]");
    mb_weight(&m, "sin", "float[32,2]");
    n = ms_node(&m, MS, "RotaryEmbedding", "x,pos,cos,sin", "y");
    attr_int(&m, n, "interleaved", 1);
    attr_int(&m, n, "rotary_embedding_dim", 4);
    mb_output(&m, "y", "float[1,2,4,8]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "take"), 0);
    ck_assert_int_eq(count_op(g, "strided_slice"), 5);
    ck_assert_int_eq(count_op(g, "stack"), 1);
    ck_assert_str_eq(type_text(g, find_op(g, "stack")), "Tensor[(1, 2, 4, 2, 2), float32]");
    ck_assert_str_eq(type_text(g, find_op(g, "expand_dims")), "Tensor[(1, 1, 4, 2), float32]");
    ck_assert_str_eq(op_of(g, byoc_graph_output(g)), "concatenate");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 2, 4, 8), float32]");
    ck_assert_int_eq(byoc_graph_note_count(g), 0);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(range_and_trilu)
{
    mb m;
    ms_init(&m, 13);
    mb_scalar(&m, "start", 0.0f);
    mb_scalar(&m, "limit", 4.0f);
    ms_node(&m, MS, "Range", "start,limit", "y");
    mb_output(&m, "y", "float[4]");
    byoc_graph *g = read_ok(&m);
    int out = byoc_graph_output(g);
    ck_assert_str_eq(op_of(g, out), "arange");
    ck_assert_str_eq(attr_text(g, out, "dtype"), "float32");
    ck_assert_int_eq(byoc_node_kind_of(g, arg(g, out, 2)), BYOC_N_CONST);
    byoc_graph_destroy(g);

    ms_init(&m, 13);
    mb_input(&m, "x", "float[4,4]");
    Onnx__NodeProto *n = ms_node(&m, MS, "Trilu", "x", "y");
    attr_int(&m, n, "upper", 0);
    mb_output(&m, "y", "float[4,4]");
    g = read_ok(&m);
    out = byoc_graph_output(g);
    ck_assert_str_eq(op_of(g, out), "trilu");
    ck_assert_str_eq(attr_text(g, out, "upper"), "false");
    ck_assert_str_eq(output_type(g), "Tensor[(4, 4), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(nchwc)
{
    /* A trunk as ORT's NCHWc transformer writes it: the first convolution
     * reads plain NCHW, the rest stay blocked until ReorderOutput. */
    mb m;
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,3,8,8]");
    mb_weight(&m, "w1", "float[16,3,3,3]");
    mb_weight(&m, "b1", "float[16]");
    mb_weight(&m, "w2", "float[16,16,1,1]");
    Onnx__NodeProto *n = ms_node(&m, NCHWC, "Conv", "x,w1,b1", "c1");
    attr_string(&m, n, "activation", "Relu");
    attr_ints(&m, n, "pads", 4, 1, 1, 1, 1);
    n = ms_node(&m, NCHWC, "MaxPool", "c1", "p");
    attr_ints(&m, n, "kernel_shape", 2, 2, 2);
    attr_ints(&m, n, "strides", 2, 2, 2);
    n = ms_node(&m, NCHWC, "Upsample", "p", "u");
    attr_ints(&m, n, "scales", 4, 1, 1, 2, 2);
    n = ms_node(&m, NCHWC, "AveragePool", "u", "a");
    attr_ints(&m, n, "kernel_shape", 2, 3, 3);
    attr_string(&m, n, "auto_pad", "SAME_UPPER");
    n = ms_node(&m, NCHWC, "Conv", "a,w2,,c1", "c2");
    attr_string(&m, n, "activation", "Clip");
    attr_floats(&m, n, "activation_params", 2, 0.0, 6.0);
    ms_node(&m, NCHWC, "GlobalMaxPool", "c2", "gp");
    n = ms_node(&m, NCHWC, "ReorderOutput", "gp", "y");
    attr_int(&m, n, "channels", 12);
    /* ORT declares its blocked tensors 4-D, channels padded. */
    mb_info(&m, "c1", "float[1,16,8,8]");
    mb_info(&m, "p", "float[1,16,4,4]");
    mb_info(&m, "c2", "float[1,16,8,8]");
    mb_output(&m, "y", "float[1,12,1,1]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(opaque_count(g), 0);
    int c1 = find_name(g, "c1"), conv1 = arg(g, c1, 0);
    ck_assert_str_eq(op_of(g, c1), "nn.relu");
    ck_assert_str_eq(type_text(g, c1), "Tensor[(1, 2, 8, 8, 8), float32]");
    int bias = conv1;
    ck_assert_str_eq(op_of(g, bias), "add");
    ck_assert_str_eq(type_text(g, arg(g, bias, 1)), "Tensor[(1, 2, 1, 1, 8), float32]");
    conv1 = arg(g, bias, 0);
    ck_assert_str_eq(attr_text(g, conv1, "data_layout"), "\"NCHW\"");
    ck_assert_str_eq(attr_text(g, conv1, "kernel_layout"), "\"OIHW8o\"");
    ck_assert_str_eq(attr_text(g, conv1, "out_layout"), "\"NCHW8c\"");
    ck_assert_str_eq(type_text(g, arg(g, conv1, 1)), "Tensor[(2, 3, 3, 3, 8), float32]");
    ck_assert_double_eq(byoc_node_flops(g, conv1), 2.0 * 1024 * 3 * 9);
    ck_assert_str_eq(type_text(g, find_name(g, "p")), "Tensor[(1, 2, 4, 4, 8), float32]");
    ck_assert_str_eq(attr_text(g, find_name(g, "p"), "layout"), "\"NCHW8c\"");
    ck_assert_str_eq(type_text(g, find_name(g, "u")), "Tensor[(1, 2, 8, 8, 8), float32]");
    int a = find_name(g, "a");
    ck_assert_str_eq(op_of(g, a), "nn.avg_pool2d");
    ck_assert_str_eq(attr_text(g, a, "padding"), "[1, 1, 1, 1]");
    ck_assert_str_eq(type_text(g, a), "Tensor[(1, 2, 8, 8, 8), float32]");
    int c2 = find_name(g, "c2"), sum = arg(g, c2, 0), conv2 = arg(g, sum, 0);
    ck_assert_str_eq(op_of(g, c2), "clip");
    ck_assert_int_eq(arg(g, sum, 1), c1);
    ck_assert_str_eq(attr_text(g, conv2, "kernel_layout"), "\"OIHW8i8o\"");
    ck_assert_str_eq(type_text(g, arg(g, conv2, 1)), "Tensor[(2, 2, 1, 1, 8, 8), float32]");
    ck_assert_double_eq(byoc_node_flops(g, conv2), 2.0 * 1024 * 16);
    ck_assert_str_eq(type_text(g, find_name(g, "gp")), "Tensor[(1, 2, 1, 1, 8), float32]");
    int out = byoc_graph_output(g);
    ck_assert_str_eq(op_of(g, out), "strided_slice");
    ck_assert_str_eq(op_of(g, arg(g, out, 0)), "layout_transform");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 12, 1, 1), float32]");
    ck_assert_int_eq(byoc_graph_note_count(g), 0);
    byoc_graph_destroy(g);

    /* ReorderInput padding 3 channels to 8; NHWC in and out; a depthwise
     * convolution (OIHW1i8o); GlobalAveragePool. */
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,3,8,8]");
    mb_input(&m, "h", "float[1,8,8,16]");
    mb_weight(&m, "dw", "float[16,1,3,3]");
    ms_node(&m, NCHWC, "ReorderInput", "x", "rx");
    n = ms_node(&m, NCHWC, "ReorderInput", "h", "rh");
    attr_int(&m, n, "channels_last", 1);
    n = ms_node(&m, NCHWC, "Conv", "rh,dw", "d");
    attr_int(&m, n, "group", 16);
    attr_ints(&m, n, "pads", 4, 1, 1, 1, 1);
    ms_node(&m, NCHWC, "GlobalAveragePool", "d", "gp");
    n = ms_node(&m, NCHWC, "ReorderOutput", "gp", "y");
    attr_int(&m, n, "channels", 16);
    attr_int(&m, n, "channels_last", 1);
    mb_output(&m, "rx", "float[1,8,8,8]");
    mb_output(&m, "y", "float[1,1,1,16]");
    g = read_ok(&m);
    int rx = find_name(g, "rx");
    ck_assert_str_eq(op_of(g, rx), "layout_transform");
    ck_assert_str_eq(op_of(g, arg(g, rx, 0)), "nn.pad");
    ck_assert_str_eq(attr_text(g, arg(g, rx, 0), "pad_width"), "[[0, 0], [0, 5], [0, 0], [0, 0]]");
    ck_assert_str_eq(type_text(g, rx), "Tensor[(1, 1, 8, 8, 8), float32]");
    ck_assert_str_eq(attr_text(g, find_name(g, "rh"), "src_layout"), "\"NHWC\"");
    int d = find_name(g, "d");
    ck_assert_str_eq(attr_text(g, d, "kernel_layout"), "\"OIHW1i8o\"");
    ck_assert_str_eq(type_text(g, d), "Tensor[(1, 2, 8, 8, 8), float32]");
    ck_assert_double_eq(byoc_node_flops(g, d), 2.0 * 1024 * 9);
    ck_assert_str_eq(op_of(g, find_name(g, "gp")), "nn.global_avg_pool2d");
    ck_assert_str_eq(op_of(g, find_name(g, "y")), "layout_transform");
    ck_assert_str_eq(type_text(g, find_name(g, "y")), "Tensor[(1, 1, 1, 16), float32]");
    ck_assert_int_eq(opaque_count(g), 0);
    byoc_graph_destroy(g);

    /* Linear upsampling: image.resize2d with the node's coordinate
     * transformation (asymmetric by default). */
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,2,4,4,8]");
    n = ms_node(&m, NCHWC, "Upsample", "x", "y");
    attr_ints(&m, n, "scales", 4, 1, 1, 2, 3);
    attr_string(&m, n, "mode", "linear");
    mb_output(&m, "y", "float[1,2,8,12,8]");
    g = read_ok(&m);
    out = byoc_graph_output(g);
    ck_assert_str_eq(op_of(g, out), "image.resize2d");
    ck_assert_str_eq(attr_text(g, out, "size"), "[8, 12]");
    ck_assert_str_eq(attr_text(g, out, "coordinate_transformation_mode"), "\"asymmetric\"");
    ck_assert_str_eq(attr_text(g, out, "layout"), "\"NCHW8c\"");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 2, 8, 12, 8), float32]");
    byoc_graph_destroy(g);

    /* A blocked tensor declared with another element count is a note. */
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,3,8,8]");
    ms_node(&m, NCHWC, "ReorderInput", "x", "r");
    mb_output(&m, "r", "float[1,16,8,8]");
    g = read_ok(&m);
    ck_assert(has_note(g, "'r': the model declares Tensor[(1, 16, 8, 8), float32], inference "
                          "gives Tensor[(1, 1, 8, 8, 8), float32]"));
    byoc_graph_destroy(g);

    /* Output channels that do not block stay opaque. */
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,3,8,8]");
    mb_weight(&m, "w", "float[12,3,3,3]");
    ms_node(&m, NCHWC, "Conv", "x,w", "y");
    mb_output(&m, "y", "float[1,16,6,6]");
    g = read_ok(&m);
    ck_assert(byoc_node_is_opaque(g, find_op(g, "com.microsoft.nchwc.Conv")));
    ck_assert(has_note(g, "12 output channels are not a multiple of 8"));
    byoc_graph_destroy(g);
}
END_TEST

/* ---- Errors ---------------------------------------------------------------------- */

/* Sizes from the model past 64 bits, or below 0: Attention's three hidden
 * sizes summed, ReorderInput's channels padded to a block (UBSan reported
 * both), RotaryEmbedding's num_heads and rotary_embedding_dim (taken as
 * absent). */
START_TEST(sizes_past_64_bits)
{
    mb m;
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,4,1]");
    mb_input(&m, "w", "float[1,4611686018427387905]");
    Onnx__NodeProto *n = ms_node(&m, MS, "Attention", "x,w", "y");
    attr_int(&m, n, "num_heads", 1);
    attr_ints(&m, n, "qkv_hidden_sizes", 3, 0, 0, 0);
    for (int k = 0; k < 3; k++)
        n->attribute[1]->ints[k] = INT64_C(1) << 62;
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'Attention' (Attention): hidden "
                                     "sizes 4611686018427387904, 4611686018427387904, "
                                     "4611686018427387904 do not split 4611686018427387905 "
                                     "weights over 1 heads");
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,9223372036854775807,1,1]");
    ms_node(&m, NCHWC, "ReorderInput", "x", "y");
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'ReorderInput' (ReorderInput): "
                                     "9223372036854775807 channels pad to blocks of 8 past 2^63 "
                                     "- 1");
    static const char *const attrs[2] = {"num_heads", "rotary_embedding_dim"};
    for (int k = 0; k < 2; k++) {
        ms_init(&m, 13);
        mb_input(&m, "x", "float[1,4,16]");
        mb_input(&m, "pos", "int64[1,4]");
        mb_weight(&m, "cos", "float[32,4]");
        mb_weight(&m, "sin", "float[32,4]");
        n = ms_node(&m, MS, "RotaryEmbedding", "x,pos,cos,sin", "y");
        attr_int(&m, n, attrs[k], -2);
        mb_output(&m, "y", NULL);
        char want[200];
        snprintf(want, sizeof want, "model.onnx: error: node 'RotaryEmbedding' (RotaryEmbedding): "
                                    "attribute '%s' is -2", attrs[k]);
        ck_assert_str_eq(read_error(&m), want);
    }
}
END_TEST

START_TEST(malformed_nodes)
{
    mb m;
    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,3,8,8]");
    mb_weight(&m, "w", "float[4,3,3,3]");
    Onnx__NodeProto *n = ms_node(&m, MS, "FusedConv", "x,w", "y");
    attr_string(&m, n, "activation", "LeakyRelu");
    attr_floats(&m, n, "activation_params", 2, 0.1, 0.2);
    mb_output(&m, "y", "float[1,4,6,6]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "'activation_params' has 2 values; LeakyRelu "
                                                 "takes 1"));

    mb_init(&m, 20, 9);
    mb_input(&m, "x", "float[2]");
    n = mb_node(&m, "Gelu", "g", "x", "y");
    attr_string(&m, n, "approximate", "erf");
    mb_output(&m, "y", "float[2]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "node 'g' (Gelu): attribute 'approximate' is "
                                                 "'erf'"));

    ms_init(&m, 13);
    mb_input(&m, "x", "float[2,16,32]");
    mb_weight(&m, "w", "float[32,96]");
    ms_node(&m, MS, "Attention", "x,w", "y");
    mb_output(&m, "y", "float[2,16,32]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "'num_heads' is required"));

    ms_init(&m, 13);
    mb_input(&m, "x", "float[2,16,32]");
    mb_weight(&m, "w", "float[32,90]");
    n = ms_node(&m, MS, "Attention", "x,w", "y");
    attr_int(&m, n, "num_heads", 4);
    mb_output(&m, "y", "float[2,16,32]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "do not split 90 weights over 4 heads"));

    ms_init(&m, 13);
    mb_input(&m, "a", "float[2,3,4]");
    mb_input(&m, "b", "float[2,5,6]");
    n = ms_node(&m, MS, "FusedMatMul", "a,b", "y");
    attr_int(&m, n, "transA", 1);
    mb_output(&m, "y", "float[2,4,6]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "reduced axes 3 and 5 differ"));

    ms_init(&m, 13);
    mb_input(&m, "x", "float[2,8]");
    mb_weight(&m, "b", "float[2,8]");
    ms_node(&m, MS, "BiasGelu", "x,b", "y");
    mb_output(&m, "y", "float[2,8]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "input 2 (the bias) has rank 2; expected 1"));

    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,2,4,4,8]");
    ms_node(&m, NCHWC, "ReorderOutput", "x", "y");
    mb_output(&m, "y", "float[1,16,4,4]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "'channels' is required"));

    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,2,4,4,8]");
    n = ms_node(&m, NCHWC, "ReorderOutput", "x", "y");
    attr_int(&m, n, "channels", 17);
    mb_output(&m, "y", "float[1,17,4,4]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "17 channels from a tensor of 2 blocks"));

    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,2,4,4,8]");
    n = ms_node(&m, NCHWC, "Upsample", "x", "y");
    attr_ints(&m, n, "scales", 2, 2, 2);
    mb_output(&m, "y", "float[1,16,8,8]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "'scales' must give the 4 axes' scales"));

    ms_init(&m, 13);
    mb_input(&m, "x", "float[1,2,4,4,8]");
    n = ms_node(&m, NCHWC, "MaxPool", "x", "y");
    attr_ints(&m, n, "kernel_shape", 2, 2, 2);
    attr_ints(&m, n, "pads", 2, 1, 1);
    mb_output(&m, "y", "float[1,16,8,8]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "'pads' has 2 values; a 2-D MaxPool needs 4"));
}
END_TEST

static Suite *onnx_contrib_suite(void)
{
    Suite *s = suite_create("onnx_contrib");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, fused_conv);
    tcase_add_test(core, fused_gemm);
    tcase_add_test(core, fused_matmul);
    tcase_add_test(core, gelu);
    tcase_add_test(core, gelu_variants);
    tcase_add_test(core, bias_add_and_softmax);
    tcase_add_test(core, skip_layer_norm);
    tcase_add_test(core, rms_norm);
    tcase_add_test(core, embed_layer_norm);
    tcase_add_test(core, attention);
    tcase_add_test(core, multi_head_attention);
    tcase_add_test(core, nhwc_conv);
    tcase_add_test(core, rotary_embedding);
    tcase_add_test(core, range_and_trilu);
    tcase_add_test(core, nchwc);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, malformed_nodes);
    tcase_add_test(errors, sizes_past_64_bits);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(onnx_contrib_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
