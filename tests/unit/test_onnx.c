/* Unit tests of the ONNX reader (runtime/onnx.c, runtime/onnx_ops.c).
 *
 * Each test builds a small model with the protobuf-c API generated from
 * onnx.proto, packs it, reads it back with byoc_onnx_read_bytes and looks
 * at the graph: which Relay ops the ONNX ops became, their attributes,
 * the inferred types, the notes.  A tiny builder keeps the models short:
 * types are written as "float[1,3,N,?]" (N symbolic, ? unknown). */
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
#include "tests/onnx/onnx_gen.h"
#include "tests/unit/onnx_mb.h"

/* ---- Core ------------------------------------------------------------------------ */

START_TEST(available)
{
    ck_assert(byoc_onnx_available());
}
END_TEST

START_TEST(conv_bias_relu)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[1,3,8,8]");
    /* Weights stored outside the model: only name, dims and type count. */
    Onnx__TensorProto *w = mb_weight(&m, "w", "float[4,3,3,3]");
    w->has_data_location = 1;
    w->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    mb_weight(&m, "b", "float[4]");
    Onnx__NodeProto *c = mb_node(&m, "Conv", "conv", "x,w,b", "c");
    attr_ints(&m, c, "kernel_shape", 2, 3, 3);
    attr_ints(&m, c, "pads", 4, 1, 1, 1, 1);
    attr_ints(&m, c, "strides", 2, 1, 1);
    mb_node(&m, "Relu", "relu", "c", "y");
    mb_output(&m, "y", "float[1,4,8,8]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_calls(g), 3);
    int conv = find_op(g, "nn.conv2d"), bias = find_op(g, "nn.bias_add");
    ck_assert_str_eq(attr_text(g, conv, "padding"), "[1, 1, 1, 1]");
    ck_assert_str_eq(attr_text(g, conv, "kernel_size"), "[3, 3]");
    ck_assert_str_eq(attr_text(g, conv, "channels"), "4");
    ck_assert_int_eq(byoc_node_arg(g, bias, 0), conv);
    ck_assert_int_eq(byoc_node_kind_of(g, byoc_node_arg(g, conv, 1)), BYOC_N_CONST);
    ck_assert_ptr_null(byoc_node_const_value(g, byoc_node_arg(g, conv, 1)));
    ck_assert_str_eq(output_type(g), "Tensor[(1, 4, 8, 8), float32]");
    ck_assert_str_eq(byoc_node_name(g, byoc_graph_output(g)), "y");
    ck_assert_str_eq(byoc_node_name(g, bias), "c");
    ck_assert_str_eq(byoc_graph_source(g), "model.onnx");
    ck_assert_int_eq(byoc_graph_note_count(g), 0);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(conv_auto_pad_and_groups)
{
    mb m;
    mb_init(&m, 11, 6);
    mb_input(&m, "x", "float[1,8,7,7]");
    mb_weight(&m, "w", "float[8,1,3,3]");
    Onnx__NodeProto *c = mb_node(&m, "Conv", "dw", "x,w", "y");
    attr_string(&m, c, "auto_pad", "SAME_UPPER");
    attr_ints(&m, c, "strides", 2, 2, 2);
    attr_int(&m, c, "group", 8);
    mb_output(&m, "y", "float[1,8,4,4]");
    byoc_graph *g = read_ok(&m);
    int conv = find_op(g, "nn.conv2d");
    /* out 4 = ceil(7/2); total pad (4-1)*2 + 3 - 7 = 2, split evenly. */
    ck_assert_str_eq(attr_text(g, conv, "padding"), "[1, 1, 1, 1]");
    ck_assert_str_eq(attr_text(g, conv, "groups"), "8");
    ck_assert_str_eq(attr_text(g, conv, "kernel_size"), "[3, 3]");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 8, 4, 4), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(gemm)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "a", "float[2,5]");
    mb_weight(&m, "b", "float[3,5]");
    mb_weight(&m, "c", "float[3]");
    Onnx__NodeProto *n = mb_node(&m, "Gemm", "fc", "a,b,c", "y");
    attr_int(&m, n, "transB", 1);
    attr_float(&m, n, "alpha", 2.0f);
    mb_output(&m, "y", "float[2,3]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.dense"), 1);
    ck_assert_int_eq(count_op(g, "multiply"), 1);
    ck_assert_int_eq(count_op(g, "add"), 1);
    ck_assert_int_eq(count_op(g, "transpose"), 0);
    ck_assert_str_eq(attr_text(g, find_op(g, "nn.dense"), "units"), "3");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3), float32]");
    byoc_graph_destroy(g);

    /* Without transB, B is [k, units] and gets a transpose. */
    mb_init(&m, 9, 4);
    mb_input(&m, "a", "float[2,5]");
    mb_weight(&m, "b", "float[5,3]");
    mb_node(&m, "Gemm", "fc", "a,b", "y");
    mb_output(&m, "y", "float[2,3]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "transpose"), 1);
    ck_assert_int_eq(count_op(g, "add"), 0);
    ck_assert_str_eq(attr_text(g, find_op(g, "transpose"), "axes"), "[1, 0]");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(matmul)
{
    mb m;
    /* 2-D: nn.dense with B transposed, as TVM. */
    mb_init(&m, 13, 7);
    mb_input(&m, "a", "float[2,5]");
    mb_input(&m, "b", "float[5,3]");
    mb_node(&m, "MatMul", "mm", "a,b", "y");
    mb_output(&m, "y", "float[2,3]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.dense"), 1);
    ck_assert_int_eq(count_op(g, "transpose"), 1);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3), float32]");
    byoc_graph_destroy(g);

    /* 3-D: the NT batch_matmul, no reshapes. */
    mb_init(&m, 13, 7);
    mb_input(&m, "a", "float[4,2,5]");
    mb_input(&m, "b", "float[4,5,3]");
    mb_node(&m, "MatMul", "mm", "a,b", "y");
    mb_output(&m, "y", "float[4,2,3]");
    g = read_ok(&m);
    int bmm = find_op(g, "nn.batch_matmul");
    ck_assert_str_eq(attr_text(g, bmm, "transpose_b"), "true");
    ck_assert_int_eq(count_op(g, "transpose"), 1);
    ck_assert_int_eq(count_op(g, "reshape"), 0);
    ck_assert_str_eq(output_type(g), "Tensor[(4, 2, 3), float32]");
    byoc_graph_destroy(g);

    /* MatMul(a, Transpose(b)): the transposes cancel (GPT-2's form). */
    mb_init(&m, 13, 7);
    mb_input(&m, "a", "float[4,2,5]");
    mb_input(&m, "bt", "float[4,3,5]");
    Onnx__NodeProto *t = mb_node(&m, "Transpose", "t", "bt", "b");
    attr_ints(&m, t, "perm", 3, 0, 2, 1);
    mb_node(&m, "MatMul", "mm", "a,b", "y");
    mb_output(&m, "y", "float[4,2,3]");
    g = read_ok(&m);
    ck_assert_int_eq(count_calls(g), 1);
    bmm = find_op(g, "nn.batch_matmul");
    ck_assert_str_eq(byoc_node_name(g, byoc_node_arg(g, bmm, 1)), "bt");
    ck_assert_str_eq(output_type(g), "Tensor[(4, 2, 3), float32]");
    byoc_graph_destroy(g);

    /* 4-D: flattened to 3-D and reshaped back. */
    mb_init(&m, 13, 7);
    mb_input(&m, "a", "float[2,4,2,5]");
    mb_input(&m, "b", "float[2,4,5,3]");
    mb_node(&m, "MatMul", "mm", "a,b", "y");
    mb_output(&m, "y", "float[2,4,2,3]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.batch_matmul"), 1);
    ck_assert_int_eq(count_op(g, "reshape"), 3);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 4, 2, 3), float32]");
    byoc_graph_destroy(g);

    /* 3-D times 2-D: nn.dense on the flattened batch. */
    mb_init(&m, 13, 7);
    mb_input(&m, "a", "float[4,2,5]");
    mb_weight(&m, "w", "float[5,3]");
    mb_node(&m, "MatMul", "mm", "a,w", "y");
    mb_output(&m, "y", "float[4,2,3]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.dense"), 1);
    ck_assert_int_eq(count_op(g, "reshape"), 2);
    ck_assert_str_eq(output_type(g), "Tensor[(4, 2, 3), float32]");
    byoc_graph_destroy(g);

    /* A 2-D A times a batch of B is broadcast first. */
    mb_init(&m, 13, 7);
    mb_input(&m, "a", "float[2,5]");
    mb_input(&m, "b", "float[4,5,3]");
    mb_node(&m, "MatMul", "mm", "a,b", "y");
    mb_output(&m, "y", "float[4,2,3]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "broadcast_to"), 1);
    ck_assert_str_eq(output_type(g), "Tensor[(4, 2, 3), float32]");
    byoc_graph_destroy(g);

    /* A symbolic batch broadcasts against the 1 a 2-D B stands for (a
     * torch.onnx export with dynamic_axes): the model loads.  The symbol
     * is BYOC_DIM_SYMBOL(0) = -2, which the batch rule once took for its
     * own "does not broadcast" mark. */
    mb_init(&m, 13, 7);
    mb_input(&m, "a", "float[batch,2,5]");
    mb_weight(&m, "w", "float[5,3]");
    mb_node(&m, "MatMul", "mm", "a,w", "y");
    mb_output(&m, "y", "float[batch,2,3]");
    g = read_ok(&m);
    byoc_graph_destroy(g);

    /* Two sizes that differ, neither 1, still do not. */
    mb_init(&m, 13, 7);
    mb_input(&m, "a", "float[4,2,5]");
    mb_input(&m, "b", "float[3,5,3]");
    mb_node(&m, "MatMul", "mm", "a,b", "y");
    mb_output(&m, "y", "float[4,2,3]");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "batch axes 4 and 3 do not broadcast"));
}
END_TEST

START_TEST(batch_norm)
{
    mb m;
    mb_init(&m, 9, 3);
    mb_input(&m, "x", "float[1,4,5,5]");
    const char *stats[] = {"s", "b", "mean", "var"};
    for (int i = 0; i < 4; i++)
        mb_weight(&m, stats[i], "float[4]");
    Onnx__NodeProto *n = mb_node(&m, "BatchNormalization", "bn", "x,s,b,mean,var", "y");
    attr_float(&m, n, "epsilon", 1e-3f);
    mb_output(&m, "y", "float[1,4,5,5]");
    byoc_graph *g = read_ok(&m);
    int bn = find_op(g, "nn.batch_norm");
    int out = byoc_graph_output(g);
    ck_assert_int_eq(byoc_node_kind_of(g, out), BYOC_N_PROJ);
    ck_assert_int_eq(byoc_node_proj_index(g, out), 0);
    ck_assert_int_eq(byoc_node_arg(g, out, 0), bn);
    ck_assert(fabs(byoc_node_attr(g, bn, "epsilon")->u.f - 1e-3) < 1e-9);
    ck_assert_str_eq(output_type(g), "Tensor[(1, 4, 5, 5), float32]");
    byoc_graph_destroy(g);
}
END_TEST

/* The same little graph in an old and a new opset: split, squeeze. */
static byoc_graph *split_squeeze(int opset)
{
    mb m;
    mb_init(&m, opset, opset >= 13 ? 7 : 6);
    mb_input(&m, "x", "float[1,5]");
    Onnx__NodeProto *s;
    if (opset >= 13) {
        mb_ints(&m, "sizes", 2, 2, 3);
        mb_ints(&m, "axes", 1, 0);
        s = mb_node(&m, "Split", "split", "x,sizes", "p,q");
        mb_node(&m, "Squeeze", "sq", "q,axes", "y");
    } else {
        s = mb_node(&m, "Split", "split", "x", "p,q");
        attr_ints(&m, s, "split", 2, 2, 3);
        Onnx__NodeProto *q = mb_node(&m, "Squeeze", "sq", "q", "y");
        attr_ints(&m, q, "axes", 1, 0);
    }
    attr_int(&m, s, "axis", 1);
    mb_output(&m, "y", "float[3]");
    mb_output(&m, "p", "float[1,2]");
    return read_ok(&m);
}

START_TEST(opset_split_squeeze)
{
    for (int opset = 11; opset <= 13; opset += 2) {
        byoc_graph *g = split_squeeze(opset);
        int split = find_op(g, "split");
        ck_assert_str_eq(attr_text(g, split, "indices_or_sections"), "[2]");
        ck_assert_str_eq(attr_text(g, split, "axis"), "1");
        ck_assert_str_eq(attr_text(g, find_op(g, "squeeze"), "axis"), "[0]");
        ck_assert_int_eq(count_kind(g, BYOC_N_PROJ), 2);
        ck_assert_int_eq(count_kind(g, BYOC_N_CONST), 0);
        int out = byoc_graph_output(g);
        ck_assert_int_eq(byoc_node_field_count(g, out), 2);
        char a[64], b[64];
        byoc_relay_format_type(g, byoc_node_type(g, out, 0), a, sizeof a);
        byoc_relay_format_type(g, byoc_node_type(g, out, 1), b, sizeof b);
        ck_assert_str_eq(a, "Tensor[(3,), float32]");
        ck_assert_str_eq(b, "Tensor[(1, 2), float32]");
        byoc_graph_destroy(g);
    }
}
END_TEST

START_TEST(opset_clip)
{
    mb m;
    /* Opset 6: attributes. */
    mb_init(&m, 6, 3);
    mb_input(&m, "x", "float[2,2]");
    Onnx__NodeProto *c = mb_node(&m, "Clip", "clip", "x", "y");
    attr_float(&m, c, "min", 0.0f);
    attr_float(&m, c, "max", 6.0f);
    mb_output(&m, "y", "float[2,2]");
    byoc_graph *g = read_ok(&m);
    int clip = find_op(g, "clip");
    ck_assert_str_eq(attr_text(g, clip, "a_min"), "0.0");
    ck_assert_str_eq(attr_text(g, clip, "a_max"), "6.0");
    byoc_graph_destroy(g);

    /* Opset 11: constant inputs, the same clip. */
    mb_init(&m, 11, 6);
    mb_input(&m, "x", "float[2,2]");
    mb_scalar(&m, "lo", 0.0f);
    mb_scalar(&m, "hi", 6.0f);
    mb_node(&m, "Clip", "clip", "x,lo,hi", "y");
    mb_output(&m, "y", "float[2,2]");
    g = read_ok(&m);
    clip = find_op(g, "clip");
    ck_assert_int_eq(count_calls(g), 1);
    ck_assert_int_eq(count_kind(g, BYOC_N_CONST), 0);
    ck_assert_str_eq(attr_text(g, clip, "a_max"), "6.0");
    byoc_graph_destroy(g);

    /* Opset 12: no min, a max computed at run time: minimum. */
    mb_init(&m, 12, 7);
    mb_input(&m, "x", "float[2,2]");
    mb_input(&m, "hi", "float[]");
    mb_node(&m, "Clip", "clip", "x,,hi", "y");
    mb_output(&m, "y", "float[2,2]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "minimum"), 1);
    ck_assert_int_eq(count_op(g, "clip"), 0);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 2), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(opset_pad)
{
    mb m;
    for (int opset = 2; opset <= 11; opset += 9) {
        mb_init(&m, opset, opset >= 11 ? 6 : 3);
        mb_input(&m, "x", "float[1,1,4,4]");
        Onnx__NodeProto *p;
        if (opset >= 11) {
            mb_ints(&m, "pads", 8, 0, 0, 1, 2, 0, 0, 3, 4);
            mb_scalar(&m, "v", 0.5f);
            p = mb_node(&m, "Pad", "pad", "x,pads,v", "y");
        } else {
            p = mb_node(&m, "Pad", "pad", "x", "y");
            attr_ints(&m, p, "pads", 8, 0, 0, 1, 2, 0, 0, 3, 4);
            attr_float(&m, p, "value", 0.5f);
        }
        mb_output(&m, "y", "float[1,1,8,10]");
        byoc_graph *g = read_ok(&m);
        int pad = find_op(g, "nn.pad");
        ck_assert_str_eq(attr_text(g, pad, "pad_width"), "[[0, 0], [0, 0], [1, 3], [2, 4]]");
        const byoc_value *v = byoc_node_const_value(g, byoc_node_arg(g, pad, 1));
        ck_assert_ptr_nonnull(v);
        ck_assert(v->kind == BYOC_V_FLOAT && v->u.f == 0.5);
        ck_assert_str_eq(output_type(g), "Tensor[(1, 1, 8, 10), float32]");
        byoc_graph_destroy(g);
    }
}
END_TEST

START_TEST(opset_unsqueeze_slice_reduce)
{
    mb m;
    for (int opset = 9; opset <= 13; opset += 4) {
        mb_init(&m, opset, 6);
        mb_input(&m, "x", "float[4,6]");
        Onnx__NodeProto *u, *s, *r;
        if (opset >= 13) {
            mb_ints(&m, "uaxes", 2, 0, -1);
            u = mb_node(&m, "Unsqueeze", "u", "x,uaxes", "ux");
            mb_ints(&m, "starts", 1, 1);
            mb_ints(&m, "ends", 1, 3);
            mb_ints(&m, "axes", 1, -1);
            s = mb_node(&m, "Slice", "s", "x,starts,ends,axes", "sx");
            mb_ints(&m, "raxes", 1, 1);
            r = mb_node(&m, "ReduceSum", "r", "x,raxes", "rx");
        } else {
            u = mb_node(&m, "Unsqueeze", "u", "x", "ux");
            attr_ints(&m, u, "axes", 2, 0, -1);
            s = mb_node(&m, "Slice", "s", "x", "sx");
            attr_ints(&m, s, "starts", 1, 1);
            attr_ints(&m, s, "ends", 1, 3);
            attr_ints(&m, s, "axes", 1, -1);
            r = mb_node(&m, "ReduceSum", "r", "x", "rx");
            attr_ints(&m, r, "axes", 1, 1);
        }
        attr_int(&m, r, "keepdims", 0);
        mb_output(&m, "ux", "float[1,4,6,1]");
        mb_output(&m, "sx", "float[4,2]");
        mb_output(&m, "rx", "float[4]");
        byoc_graph *g = read_ok(&m);
        ck_assert_int_eq(count_op(g, "expand_dims"), 2);
        int ss = find_op(g, "strided_slice");
        ck_assert_str_eq(attr_text(g, ss, "axes"), "[1]");
        ck_assert_str_eq(attr_text(g, ss, "begin"), "[1]");
        ck_assert_str_eq(attr_text(g, find_op(g, "sum"), "axis"), "[1]");
        ck_assert_str_eq(type_text(g, find_name(g, "ux")), "Tensor[(1, 4, 6, 1), float32]");
        ck_assert_str_eq(type_text(g, find_name(g, "sx")), "Tensor[(4, 2), float32]");
        ck_assert_str_eq(type_text(g, find_name(g, "rx")), "Tensor[(4,), float32]");
        ck_assert_int_eq(byoc_graph_note_count(g), 0);
        byoc_graph_destroy(g);
    }
}
END_TEST

START_TEST(out_of_order_nodes)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[1,3,8,8]");
    mb_weight(&m, "w", "float[4,3,1,1]");
    mb_node(&m, "Relu", "relu", "c", "y");   /* before its producer */
    mb_node(&m, "Add", "add", "r,r", "c");
    mb_node(&m, "Conv", "conv", "x,w", "r");
    mb_output(&m, "y", "float[1,4,8,8]");
    byoc_graph *g = read_ok(&m);
    int relu = find_op(g, "nn.relu"), add = find_op(g, "add"), conv = find_op(g, "nn.conv2d");
    ck_assert_int_lt(conv, add);
    ck_assert_int_lt(add, relu);
    ck_assert_int_eq(byoc_graph_output(g), relu);
    ck_assert_str_eq(output_type(g), "Tensor[(1, 4, 8, 8), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(initializer_listed_as_input)
{
    mb m;
    mb_init(&m, 9, 3);
    mb_input(&m, "x", "float[2,3]");
    mb_input(&m, "w", "float[3]");
    mb_weight(&m, "w", "float[3]");
    mb_node(&m, "Add", "add", "x,w", "y");
    mb_output(&m, "y", "float[2,3]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_kind(g, BYOC_N_INPUT), 1);
    ck_assert_int_eq(count_kind(g, BYOC_N_CONST), 1);
    int add = find_op(g, "add");
    ck_assert_int_eq(byoc_node_kind_of(g, byoc_node_arg(g, add, 1)), BYOC_N_CONST);
    ck_assert_str_eq(byoc_node_name(g, byoc_node_arg(g, add, 1)), "w");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(constant_as_reshape_shape)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3,4]");
    Onnx__NodeProto *k = mb_node(&m, "Constant", "k", "", "shape");
    Onnx__AttributeProto *a =
        mb_attr(&m, k, "value", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
    a->t = mb_tensor(&m, "", "int64[2]");
    a->t->raw_data.data = mb_alloc(&m, 16);
    a->t->raw_data.len = 16;
    a->t->has_raw_data = 1;
    /* 2 and -1, little-endian int64. */
    a->t->raw_data.data[0] = 2;
    memset(a->t->raw_data.data + 8, 0xff, 8);
    mb_node(&m, "Reshape", "r", "x,shape", "y");
    mb_output(&m, "y", "float[2,12]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_kind(g, BYOC_N_CONST), 0);
    ck_assert_str_eq(attr_text(g, find_op(g, "reshape"), "newshape"), "[2, -1]");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 12), float32]");
    byoc_graph_destroy(g);

    /* A scalar Constant used as an operand becomes a constant node with
     * its value. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2]");
    k = mb_node(&m, "Constant", "k", "", "two");
    a = mb_attr(&m, k, "value_float", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    a->has_f = 1;
    a->f = 2.0f;
    mb_node(&m, "Mul", "mul", "x,two", "y");
    mb_output(&m, "y", "float[2]");
    g = read_ok(&m);
    int mul = find_op(g, "multiply");
    const byoc_value *v = byoc_node_const_value(g, byoc_node_arg(g, mul, 1));
    ck_assert_ptr_nonnull(v);
    ck_assert(v->kind == BYOC_V_FLOAT && v->u.f == 2.0);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(symbolic_dims)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[N,3,?]");
    mb_node(&m, "Relu", "relu", "x", "y");
    mb_output(&m, "y", "float[N,3,?]");
    byoc_graph *g = read_ok(&m);
    const byoc_tensor_type *t = byoc_node_type(g, 0, -1);
    ck_assert_int_eq(t->rank, 3);
    ck_assert(t->dims[0] <= -2);
    ck_assert_str_eq(byoc_graph_symbol_name(g, (int)(-2 - t->dims[0])), "N");
    ck_assert_int_eq(t->dims[1], 3);
    ck_assert_int_eq(t->dims[2], BYOC_DIM_UNKNOWN);
    const byoc_tensor_type *o = byoc_node_type(g, byoc_graph_output(g), -1);
    ck_assert_int_eq(o->dims[0], t->dims[0]);
    ck_assert_int_eq(byoc_graph_note_count(g), 0);
    byoc_graph_destroy(g);
}
END_TEST

static byoc_graph *read_with(mb *m, const byoc_read_options *o)
{
    pack(m);
    mb_free(m);
    byoc_graph *g = byoc_onnx_read_bytes_with(reg, bytes, nbytes, "model.onnx", o, &err);
    free(bytes);
    bytes = NULL;
    return g;
}

/* A dynamic-batch conv net and a shape chain on it (Shape -> Gather ->
 * Unsqueeze -> Concat -> Reshape): free, the chain is computed at run time;
 * bound by --dim or --input-shape, it folds away and every size is known. */
static void dynamic_model(mb *m)
{
    mb_init(m, 13, 7);
    mb_input(m, "x", "float[batch,3,H,W]");
    mb_weight(m, "w", "float[8,3,3,3]");
    Onnx__NodeProto *c = mb_node(m, "Conv", "conv", "x,w", "c");
    attr_ints(m, c, "kernel_shape", 2, 3, 3);
    attr_ints(m, c, "pads", 4, 1, 1, 1, 1);
    mb_info(m, "c", "float[batch,8,H,W]");
    mb_node(m, "Shape", "shape", "c", "s");
    mb_ints(m, "zero", 1, 0);
    mb_node(m, "Gather", "gather", "s,zero", "n");
    mb_ints(m, "minus1", 1, -1);
    mb_node(m, "Concat", "concat", "n,minus1", "target");
    attr_int(m, m->nodes[m->graph.n_node - 1], "axis", 0);
    mb_node(m, "Reshape", "reshape", "c,target", "y");
    mb_output(m, "y", "float[batch,?]");
}

START_TEST(dimension_bindings)
{
    mb m;
    dynamic_model(&m);
    byoc_dim_binding dims[] = {{"batch", 2}, {"H", 16}, {"W", 16}};
    byoc_read_options o = {.dims = dims, .ndims = 3};
    byoc_graph *g = read_with(&m, &o);
    ck_assert_msg(g != NULL, "%s", err.msg);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 2048), float32]");
    ck_assert_int_eq(count_op(g, "shape_of"), 0);
    ck_assert_int_eq(count_op(g, "reshape"), 1);
    ck_assert_int_eq(count_calls(g), 2);
    ck_assert_int_eq(byoc_graph_folded_count(g), 3);
    ck_assert_int_eq(byoc_graph_symbol_count(g), 3);
    for (int id = 0; id < 3; id++)
        ck_assert_int_eq(byoc_graph_symbol_value(g, id), id == 0 ? 2 : 16);
    ck_assert_double_eq(byoc_node_flops(g, find_op(g, "nn.conv2d")), 2.0 * 2 * 8 * 16 * 16 * 27);
    byoc_graph_destroy(g);

    /* The same through the input's shape, which binds the names at its axes. */
    dynamic_model(&m);
    byoc_input_shape shapes[] = {{"x", 4, {1, 3, 8, 8}}};
    byoc_read_options o2 = {.shapes = shapes, .nshapes = 1};
    g = read_with(&m, &o2);
    ck_assert_msg(g != NULL, "%s", err.msg);
    ck_assert_str_eq(type_text(g, 0), "Tensor[(1, 3, 8, 8), float32]");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 512), float32]");
    ck_assert_int_eq(byoc_graph_symbol_value(g, 0), 1);
    ck_assert_int_eq(count_op(g, "shape_of"), 0);
    byoc_graph_destroy(g);

    /* A name an input's shape binds is its size in the inputs before it
     * and in a branch's declarations too (they kept 'batch'). */
    mb_init(&m, 13, 7);
    mb_input(&m, "y", "float[batch]");
    mb_input(&m, "x", "float[batch,3]");
    mb_input(&m, "cond", "bool[]");
    mb_node(&m, "Relu", "relu", "y", "r");
    mb_output(&m, "r", "float[batch]");
    Onnx__NodeProto *n = mb_node(&m, "If", "if", "cond", "z");
    Onnx__GraphProto *then = mb_graph_attr(&m, n, "then_branch");
    mb_sub_node(&m, then, "Neg", "neg", "x", "t");
    mb_sub_output(&m, then, "t", "float[batch,3]");
    Onnx__GraphProto *els = mb_graph_attr(&m, n, "else_branch");
    mb_sub_node(&m, els, "Abs", "abs", "x", "e");
    mb_sub_output(&m, els, "e", "float[batch,3]");
    mb_output(&m, "z", "float[batch,3]");
    byoc_input_shape xs[] = {{"x", 2, {2, 3}}};
    byoc_read_options o3 = {.shapes = xs, .nshapes = 1};
    g = read_with(&m, &o3);
    ck_assert_msg(g != NULL, "%s", err.msg);
    ck_assert_str_eq(type_text(g, find_op(g, "nn.relu")), "Tensor[(2,), float32]");
    int host = find_op(g, "If");
    for (int b = 0; b < 2; b++) {
        const byoc_graph *sub = byoc_node_subgraph(g, host, b);
        ck_assert_str_eq(output_type(sub), "Tensor[(2, 3), float32]");
    }
    byoc_graph_destroy(g);

    /* IR 3 lists an initializer as an input too; a --dim naming its
     * declared size is not a shape given for it ("--input-shape w: 'w' is
     * an initializer"). */
    mb_init(&m, 13, 3);
    mb_input(&m, "x", "float[batch]");
    mb_weight(&m, "w", "float[2]");
    mb_input(&m, "w", "float[batch]");
    mb_node(&m, "Add", "add", "x,w", "y");
    mb_output(&m, "y", "float[batch]");
    byoc_dim_binding bd[] = {{"batch", 2}};
    byoc_read_options o4 = {.dims = bd, .ndims = 1};
    g = read_with(&m, &o4);
    ck_assert_msg(g != NULL, "%s", err.msg);
    ck_assert_str_eq(output_type(g), "Tensor[(2,), float32]");
    byoc_graph_destroy(g);

    /* Mistakes are errors that say what is wrong. */
    static const struct {
        byoc_dim_binding dim;
        byoc_input_shape shape;
        const char *want;
    } bad[] = {
        {{"batch ", 1}, {NULL, 0, {0}},
         "model.onnx: error: --dim batch : the model names no such dimension (it names batch, "
         "H, W)"},
        {{"batch", -1}, {NULL, 0, {0}},
         "model.onnx: error: --dim: size -1 of 'batch' is not between 0 and 2^40"},
        {{NULL, 0}, {"x", 3, {1, 3, 8}},
         "model.onnx: error: --input-shape x: 3 axes given, the model declares 4"},
        {{NULL, 0}, {"x", 4, {1, 4, 8, 8}},
         "model.onnx: error: --input-shape x: axis 1 is 3 in the model, not 4"},
        {{"H", 9}, {"x", 4, {1, 3, 8, 8}},
         "model.onnx: error: --input-shape x: axis 2 is 'H', bound to 9, not 8"},
        {{NULL, 0}, {"w", 4, {8, 3, 3, 3}},
         "model.onnx: error: --input-shape: the model has no input 'w'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dynamic_model(&m);
        byoc_read_options ob = {.dims = &bad[i].dim, .ndims = bad[i].dim.name ? 1 : 0,
                                .shapes = &bad[i].shape, .nshapes = bad[i].shape.input ? 1 : 0};
        ck_assert_ptr_null(read_with(&m, &ob));
        char msg[512];
        byoc_error_format(&err, msg, sizeof msg);
        ck_assert_str_eq(msg, bad[i].want);
    }
}
END_TEST

START_TEST(unmapped_op_is_opaque)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_node(&m, "FancyNorm", "fancy", "x", "f");
    mb_node(&m, "Relu", "relu", "f", "y");
    mb_info(&m, "f", "float[2,3]");
    mb_output(&m, "y", "float[2,3]");
    byoc_graph *g = read_ok(&m);
    int f = find_op(g, "FancyNorm");
    ck_assert(byoc_node_is_opaque(g, f));
    ck_assert_str_eq(type_text(g, f), "Tensor[(2, 3), float32]");
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3), float32]");
    ck_assert(has_note(g, "node 'fancy' (FancyNorm): no mapping for ONNX op 'FancyNorm'"));
    byoc_graph_destroy(g);

    /* A mapped op it cannot express (a shape computed at run time) is
     * opaque too, and the note says why. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_input(&m, "s", "int64[2]");
    mb_node(&m, "Reshape", "r", "x,s", "y");
    mb_output(&m, "y", "float[?,?]");
    g = read_ok(&m);
    ck_assert(byoc_node_is_opaque(g, find_op(g, "Reshape")));
    ck_assert(has_note(g, "the shape is computed at run time"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(declared_type_mismatch_is_a_note)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_node(&m, "Relu", "relu", "x", "r");
    mb_node(&m, "Sigmoid", "sig", "r", "y");
    mb_info(&m, "r", "float[2,4]");
    mb_output(&m, "y", "float[2,3]");
    byoc_graph *g = read_ok(&m);
    ck_assert(has_note(g, "'r': the model declares Tensor[(2, 4), float32], inference gives "
                          "Tensor[(2, 3), float32]"));
    ck_assert_int_eq(byoc_graph_note_count(g), 1);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(dropout_identity_and_softmax)
{
    mb m;
    mb_init(&m, 9, 3);
    mb_input(&m, "x", "float[1,10,1,1]");
    mb_node(&m, "Dropout", "drop", "x", "d,mask");
    mb_node(&m, "Identity", "id", "d", "i");
    mb_node(&m, "Softmax", "sm", "i", "y");
    mb_output(&m, "y", "float[1,10,1,1]");
    byoc_graph *g = read_ok(&m);
    /* Opset 9 softmax at axis 1 of a 4-D tensor: reshape, softmax,
     * reshape, as TVM. */
    ck_assert_int_eq(count_calls(g), 3);
    ck_assert_int_eq(count_op(g, "nn.softmax"), 1);
    ck_assert_int_eq(count_op(g, "reshape"), 2);
    ck_assert_int_eq(byoc_node_arg(g, find_op(g, "reshape"), 0), 0);
    ck_assert_str_eq(output_type(g), "Tensor[(1, 10, 1, 1), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(pools_concat_flatten)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[1,4,8,8]");
    Onnx__NodeProto *p = mb_node(&m, "MaxPool", "mp", "x", "a");
    attr_ints(&m, p, "kernel_shape", 2, 2, 2);
    attr_ints(&m, p, "strides", 2, 2, 2);
    p = mb_node(&m, "AveragePool", "ap", "x", "b");
    attr_ints(&m, p, "kernel_shape", 2, 2, 2);
    attr_ints(&m, p, "strides", 2, 2, 2);
    p = mb_node(&m, "Concat", "cat", "a,b", "c");
    attr_int(&m, p, "axis", 1);
    mb_node(&m, "GlobalAveragePool", "gap", "c", "g");
    mb_node(&m, "Flatten", "flat", "g", "y");
    mb_output(&m, "y", "float[1,8]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.max_pool2d"), 1);
    ck_assert_int_eq(count_op(g, "nn.avg_pool2d"), 1);
    ck_assert_int_eq(count_op(g, "concatenate"), 1);
    ck_assert_int_eq(count_kind(g, BYOC_N_TUPLE), 1);
    ck_assert_int_eq(count_op(g, "nn.global_avg_pool2d"), 1);
    ck_assert_int_eq(count_op(g, "nn.batch_flatten"), 1);
    ck_assert_str_eq(attr_text(g, find_op(g, "nn.max_pool2d"), "pool_size"), "[2, 2]");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 8), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(shape_arithmetic_folds)
{
    /* What exporters write for x.reshape(x.shape[0], -1). */
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3,4]");
    mb_node(&m, "Shape", "shape", "x", "s");
    Onnx__NodeProto *k = mb_node(&m, "Constant", "zero", "", "i0");
    Onnx__AttributeProto *a =
        mb_attr(&m, k, "value_int", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
    a->has_i = 1;
    mb_node(&m, "Gather", "gather", "s,i0", "d0");
    mb_ints(&m, "axes", 1, 0);
    mb_node(&m, "Unsqueeze", "unsq", "d0,axes", "d0v");
    mb_ints(&m, "minus1", 1, -1);
    Onnx__NodeProto *c = mb_node(&m, "Concat", "cat", "d0v,minus1", "shape");
    attr_int(&m, c, "axis", 0);
    mb_node(&m, "Reshape", "r", "x,shape", "y");
    mb_output(&m, "y", "float[2,12]");
    /* x.reshape(x.shape[0], x.shape[1] * x.shape[2]) and
     * x.reshape(x.shape[0], *x.shape[1:]). */
    mb_ints(&m, "one", 1, 1);
    mb_ints(&m, "two", 1, 2);
    mb_ints(&m, "three", 1, 3);
    mb_node(&m, "Gather", "g1", "s,one", "d1");
    mb_node(&m, "Gather", "g2", "s,two", "d2");
    mb_node(&m, "Mul", "mul", "d1,d2", "d12");
    c = mb_node(&m, "Concat", "cat2", "d0v,d12", "shape2");
    attr_int(&m, c, "axis", 0);
    mb_node(&m, "Reshape", "r2", "x,shape2", "y2");
    mb_output(&m, "y2", "float[2,12]");
    mb_node(&m, "Slice", "tail", "s,one,three", "rest");
    c = mb_node(&m, "Concat", "cat3", "d0v,rest", "shape3");
    attr_int(&m, c, "axis", 0);
    mb_node(&m, "Reshape", "r3", "x,shape3", "y3");
    mb_output(&m, "y3", "float[2,3,4]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_calls(g), 3);
    ck_assert_int_eq(count_kind(g, BYOC_N_CONST), 0);
    ck_assert_str_eq(attr_text(g, find_name(g, "y"), "newshape"), "[2, -1]");
    ck_assert_str_eq(attr_text(g, find_name(g, "y2"), "newshape"), "[2, 12]");
    ck_assert_str_eq(attr_text(g, find_name(g, "y3"), "newshape"), "[2, 3, 4]");
    ck_assert_str_eq(type_text(g, find_name(g, "y")), "Tensor[(2, 12), float32]");
    byoc_graph_destroy(g);

    /* With a symbolic batch the shape is known in part: the batch is
     * carried as itself, the Reshape copies it (0), and no shape_of is
     * built. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[N,3,4]");
    mb_node(&m, "Shape", "shape", "x", "s");
    mb_node(&m, "Reshape", "r", "x,s", "y");
    mb_output(&m, "y", "float[N,3,4]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "shape_of"), 0);
    ck_assert_str_eq(attr_text(g, find_op(g, "reshape"), "newshape"), "[0, 3, 4]");
    ck_assert_str_eq(output_type(g), "Tensor[(N, 3, 4), float32]");
    ck_assert_int_eq(byoc_graph_folded_count(g), 1);
    byoc_graph_destroy(g);
}
END_TEST

/* Free dimensions flow through shape arithmetic as themselves: torch's
 * x.view(x.size(0), x.size(1), 12, -1) on [batch, seq, 768], the causal
 * mask's arange(seq), an Expand to the shape the tensor has, d * 1 and
 * d + 0; a value that is needed at run time (a shape cast to float and
 * multiplied) still gets its nodes. */
START_TEST(free_dimensions_flow_through_shape_arithmetic)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[batch,seq,768]");
    mb_node(&m, "Shape", "shape", "x", "s");
    mb_ints(&m, "i0", 1, 0);
    mb_ints(&m, "i1", 1, 1);
    mb_ints(&m, "heads", 1, 12);
    mb_ints(&m, "minus1", 1, -1);
    mb_ints(&m, "one", 1, 1);
    mb_ints(&m, "zero", 1, 0);
    mb_node(&m, "Gather", "g0", "s,i0", "b");
    mb_node(&m, "Gather", "g1", "s,i1", "q");
    mb_node(&m, "Mul", "times1", "q,one", "q1");
    mb_node(&m, "Add", "plus0", "q1,zero", "q2");
    Onnx__NodeProto *c = mb_node(&m, "Concat", "cat", "b,q2,heads,minus1", "target");
    attr_int(&m, c, "axis", 0);
    mb_node(&m, "Reshape", "view", "x,target", "y");
    mb_output(&m, "y", "float[batch,seq,12,64]");
    /* Range(0, seq, 1) */
    mb_node(&m, "Squeeze", "sq", "q2,i0", "qs");
    Onnx__TensorProto *z = mb_weight(&m, "start", "int64[]");
    z->int64_data = mb_alloc(&m, sizeof(int64_t));
    z->n_int64_data = 1;
    Onnx__TensorProto *d = mb_weight(&m, "delta", "int64[]");
    d->int64_data = mb_alloc(&m, sizeof(int64_t));
    d->int64_data[0] = 1;
    d->n_int64_data = 1;
    mb_node(&m, "Range", "pos", "start,qs,delta", "positions");
    mb_output(&m, "positions", "int64[seq]");
    /* Expand(x, Shape(x)) is x. */
    mb_node(&m, "Expand", "same", "x,s", "e");
    mb_node(&m, "Relu", "relu", "e", "r");
    mb_output(&m, "r", "float[batch,seq,768]");
    /* A shape needed as a value at run time. */
    Onnx__NodeProto *cast = mb_node(&m, "Cast", "tofloat", "s", "sf");
    attr_int(&m, cast, "to", 1);
    mb_input(&m, "w", "float[3]");
    mb_node(&m, "Mul", "scale", "sf,w", "scaled");
    mb_output(&m, "scaled", "float[3]");
    byoc_graph *g = read_ok(&m);
    int y = find_name(g, "y");
    ck_assert_str_eq(attr_text(g, y, "newshape"), "[0, 0, 12, -1]");
    ck_assert_str_eq(type_text(g, y), "Tensor[(batch, seq, 12, 64), float32]");
    ck_assert_str_eq(type_text(g, find_op(g, "arange")), "Tensor[(seq,), int64]");
    ck_assert_str_eq(type_text(g, find_op(g, "nn.relu")), "Tensor[(batch, seq, 768), float32]");
    ck_assert_int_eq(count_op(g, "broadcast_to"), 0);
    /* Only what run time needs is built: the cast shape for the multiply,
     * seq for arange (shape_of, take, the * 1, the + 0, squeeze); not the
     * batch's Gather or the Concat, which only shape the Reshape. */
    ck_assert_int_eq(count_op(g, "shape_of"), 1);
    ck_assert_int_eq(count_op(g, "cast"), 1);
    ck_assert_int_eq(count_op(g, "take"), 1);
    ck_assert_int_eq(count_op(g, "concatenate"), 0);
    ck_assert_str_eq(type_text(g, find_name(g, "scaled")), "Tensor[(3,), float32]");
    ck_assert_int_eq(byoc_graph_folded_count(g), 2);
    for (int i = 0; i < byoc_graph_node_count(g); i++)
        ck_assert_ptr_null(byoc_node_untyped_reason(g, i));
    byoc_graph_destroy(g);
}
END_TEST

/* torch's F.pad at opset 13: the pads [left, right, top, bottom] of the
 * last axes padded with zeros, made a [4, 2] matrix, reversed along its
 * rows by a Slice with step -1, transposed and flattened into ONNX's
 * [begin..., end...] order, then cast; all of it folds, and Pad gets its
 * pads. */
START_TEST(torch_pad_pattern_folds)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[1,56,56,96]");
    mb_ints(&m, "given", 4, 0, 0, 0, 7);        /* last axis (0, 0), the one before (0, 7) */
    mb_ints(&m, "zeros", 4, 0, 0, 0, 0);
    Onnx__NodeProto *c = mb_node(&m, "Concat", "cat", "given,zeros", "flat");
    attr_int(&m, c, "axis", 0);
    mb_ints(&m, "pairs", 2, -1, 2);
    mb_node(&m, "Reshape", "r", "flat,pairs", "mat");
    mb_ints(&m, "st", 1, -1);
    Onnx__TensorProto *en = mb_ints(&m, "en", 1, 0);
    en->int64_data[0] = -INT64_MAX;
    mb_ints(&m, "ax", 1, 0);
    mb_ints(&m, "sp", 1, -1);
    mb_node(&m, "Slice", "rev", "mat,st,en,ax,sp", "revd");
    Onnx__NodeProto *t = mb_node(&m, "Transpose", "tr", "revd", "cols");
    attr_ints(&m, t, "perm", 2, 1, 0);
    mb_ints(&m, "m1", 1, -1);
    mb_node(&m, "Reshape", "r2", "cols,m1", "pads64");
    Onnx__NodeProto *cast = mb_node(&m, "Cast", "cast", "pads64", "pads");
    attr_int(&m, cast, "to", 7);
    mb_node(&m, "Pad", "pad", "x,pads", "y");
    mb_output(&m, "y", "float[1,56,63,96]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_calls(g), 1);
    ck_assert_str_eq(attr_text(g, find_op(g, "nn.pad"), "pad_width"),
                     "[[0, 0], [0, 0], [0, 7], [0, 0]]");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 56, 63, 96), float32]");
    ck_assert_int_eq(byoc_graph_folded_count(g), 6);
    byoc_graph_destroy(g);
}
END_TEST

/* ---- every op of the table --------------------------------------------------- */

/* One ONNX node on graph inputs a, b, c... ("float[1,3,8,8]"), or on
 * initializers with data ("=1,2": int64; "f=0.5": float), with integer,
 * float or string attributes ("axis=1", "alpha:0.2", "mode'linear"); the
 * node's first output must be the Relay op `relay` of type `type`. */
typedef struct op_case {
    const char *op;
    int opset;
    const char *inputs;         /* ';'-separated */
    const char *attrs;          /* ';'-separated, or NULL */
    const char *relay;
    const char *type;
} op_case;

static const op_case op_cases[] = {
    {"Abs", 13, "float[2,3]", NULL, "abs", "Tensor[(2, 3), float32]"},
    {"Acos", 13, "float[2,3]", NULL, "acos", "Tensor[(2, 3), float32]"},
    {"Acosh", 13, "float[2,3]", NULL, "acosh", "Tensor[(2, 3), float32]"},
    {"Asin", 13, "float[2,3]", NULL, "asin", "Tensor[(2, 3), float32]"},
    {"Asinh", 13, "float[2,3]", NULL, "asinh", "Tensor[(2, 3), float32]"},
    {"Atan", 13, "float[2,3]", NULL, "atan", "Tensor[(2, 3), float32]"},
    {"Atanh", 13, "float[2,3]", NULL, "atanh", "Tensor[(2, 3), float32]"},
    {"Ceil", 13, "float[2,3]", NULL, "ceil", "Tensor[(2, 3), float32]"},
    {"Cos", 13, "float[2,3]", NULL, "cos", "Tensor[(2, 3), float32]"},
    {"Cosh", 13, "float[2,3]", NULL, "cosh", "Tensor[(2, 3), float32]"},
    {"Erf", 13, "float[2,3]", NULL, "erf", "Tensor[(2, 3), float32]"},
    {"Exp", 13, "float[2,3]", NULL, "exp", "Tensor[(2, 3), float32]"},
    {"Floor", 13, "float[2,3]", NULL, "floor", "Tensor[(2, 3), float32]"},
    {"IsNaN", 13, "float[2,3]", NULL, "isnan", "Tensor[(2, 3), bool]"},
    {"Log", 13, "float[2,3]", NULL, "log", "Tensor[(2, 3), float32]"},
    {"Not", 13, "bool[2,3]", NULL, "logical_not", "Tensor[(2, 3), bool]"},
    {"Round", 13, "float[2,3]", NULL, "round", "Tensor[(2, 3), float32]"},
    {"Sign", 13, "float[2,3]", NULL, "sign", "Tensor[(2, 3), float32]"},
    {"Sin", 13, "float[2,3]", NULL, "sin", "Tensor[(2, 3), float32]"},
    {"Sinh", 13, "float[2,3]", NULL, "sinh", "Tensor[(2, 3), float32]"},
    {"Sqrt", 13, "float[2,3]", NULL, "sqrt", "Tensor[(2, 3), float32]"},
    {"Tan", 13, "float[2,3]", NULL, "tan", "Tensor[(2, 3), float32]"},
    {"Reciprocal", 13, "float[2,3]", NULL, "divide", "Tensor[(2, 3), float32]"},
    {"And", 13, "bool[2,3];bool[3]", NULL, "logical_and", "Tensor[(2, 3), bool]"},
    {"Or", 13, "bool[2,3];bool[3]", NULL, "logical_or", "Tensor[(2, 3), bool]"},
    {"Xor", 13, "bool[2,3];bool[3]", NULL, "logical_xor", "Tensor[(2, 3), bool]"},
    {"Less", 13, "float[2,3];float[2,1]", NULL, "less", "Tensor[(2, 3), bool]"},
    {"LessOrEqual", 16, "float[2,3];float[2,1]", NULL, "less_equal", "Tensor[(2, 3), bool]"},
    {"CastLike", 15, "float[2,3];float16[1]", NULL, "cast_like", "Tensor[(2, 3), float16]"},
    {"Pow", 15, "float[2,3];float[]", NULL, "power", "Tensor[(2, 3), float32]"},
    {"Max", 13, "float[2,3];float[3];float[2,1]", NULL, "maximum", "Tensor[(2, 3), float32]"},
    {"Sum", 13, "float[2,3];float[3];float[2,1]", NULL, "add", "Tensor[(2, 3), float32]"},
    {"Mean", 13, "float[2,3];float[2,3]", NULL, "mean", "Tensor[(2, 3), float32]"},
    {"ArgMax", 13, "float[2,3,4]", "axis=1;keepdims=0", "cast", "Tensor[(2, 4), int64]"},
    {"ArgMin", 13, "float[2,3,4]", "axis=-1", "cast", "Tensor[(2, 3, 1), int64]"},
    {"ReduceMax", 13, "float[2,3,4]", "axes=1,", "max", "Tensor[(2, 1, 4), float32]"},
    {"ReduceMean", 13, "float[2,3,4]", "axes=2,;keepdims=0", "mean", "Tensor[(2, 3), float32]"},
    {"ReduceMin", 13, "float[2,3,4]", NULL, "min", "Tensor[(1, 1, 1), float32]"},
    {"ReduceProd", 13, "float[2,3,4]", "axes=0,", "prod", "Tensor[(1, 3, 4), float32]"},
    {"HardSigmoid", 13, "float[2,3]", "alpha:0.25", "clip", "Tensor[(2, 3), float32]"},
    {"HardSwish", 14, "float[2,3]", NULL, "multiply", "Tensor[(2, 3), float32]"},
    {"LeakyRelu", 16, "float[2,3]", "alpha:0.1", "nn.leaky_relu", "Tensor[(2, 3), float32]"},
    {"LogSoftmax", 13, "float[2,3]", "axis=-1", "nn.log_softmax", "Tensor[(2, 3), float32]"},
    {"LayerNormalization", 17, "float[2,5,8];float[8];float[8]", "axis=-1;epsilon:1e-5",
     "nn.layer_norm", "Tensor[(2, 5, 8), float32]"},
    {"InstanceNormalization", 6, "float[1,4,8,8];float[4];float[4]", NULL, "nn.instance_norm",
     "Tensor[(1, 4, 8, 8), float32]"},
    {"LRN", 13, "float[1,8,4,4]", "size=3", "nn.lrn", "Tensor[(1, 8, 4, 4), float32]"},
    {"GlobalMaxPool", 1, "float[1,8,7,7]", NULL, "nn.global_max_pool2d",
     "Tensor[(1, 8, 1, 1), float32]"},
    {"ConvTranspose", 11, "float[1,4,8,8];float[4,2,3,3]", "strides=2,2;pads=1,1,1,1;output_padding=1,1",
     "nn.conv2d_transpose", "Tensor[(1, 2, 16, 16), float32]"},
    {"DepthToSpace", 13, "float[1,8,2,3]", "blocksize=2;mode'CRD", "nn.depth_to_space",
     "Tensor[(1, 2, 4, 6), float32]"},
    {"SpaceToDepth", 13, "float[1,2,4,6]", "blocksize=2", "nn.space_to_depth",
     "Tensor[(1, 8, 2, 3), float32]"},
    {"GatherElements", 13, "float[3,4];int64[3,2]", "axis=1", "gather", "Tensor[(3, 2), float32]"},
    {"GatherND", 13, "float[3,4,5];int64[2,2]", NULL, "gather_nd", "Tensor[(2, 5), float32]"},
    {"ScatterElements", 16, "float[3,4];int64[3,2];float[3,2]", "axis=1;reduction'add",
     "scatter_elements", "Tensor[(3, 4), float32]"},
    {"Size", 13, "float[2,N]", NULL, "ndarray_size", "Tensor[(), int64]"},
    {"Tile", 13, "float[2,3];=2,1", NULL, "tile", "Tensor[(4, 3), float32]"},
    {"TopK", 11, "float[2,10];=3", "axis=-1", "topk", NULL},
    {"Resize", 13, "float[1,3,8,8];;f=1,1,2,2", "mode'linear", "image.resize2d",
     "Tensor[(1, 3, 16, 16), float32]"},
    {"Resize", 13, "float[1,3,8,8];;;=1,3,4,6", "mode'nearest", "image.resize2d",
     "Tensor[(1, 3, 4, 6), float32]"},
};

static void op_case_attrs(mb *m, Onnx__NodeProto *n, const char *spec)
{
    for (const char *p = spec; p && *p;) {
        size_t len = strcspn(p, ";");
        char buf[128];
        snprintf(buf, sizeof buf, "%.*s", (int)len, p);
        char *eq = strpbrk(buf, "=:'");
        ck_assert_ptr_nonnull(eq);
        char kind = *eq;
        *eq = '\0';
        const char *v = eq + 1;
        if (kind == ':')
            attr_float(m, n, buf, (float)atof(v));
        else if (kind == '\'')
            attr_string(m, n, buf, v);
        else if (!strchr(v, ','))
            attr_int(m, n, buf, atoll(v));
        else {
            Onnx__AttributeProto *a =
                mb_attr(m, n, buf, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
            a->ints = mb_alloc(m, sizeof(int64_t) * 16);
            for (const char *q = v; *q; q += strcspn(q, ","), q += *q == ',')
                if (*q != ',')
                    a->ints[a->n_ints++] = atoll(q);
        }
        p += len;
        p += *p == ';';
    }
}

/* Every op of the table that no other test builds: its Relay op and its
 * output type, read through the API. */
START_TEST(every_mapped_op)
{
    for (size_t c = 0; c < sizeof op_cases / sizeof op_cases[0]; c++) {
        const op_case *oc = &op_cases[c];
        mb m;
        mb_init(&m, oc->opset, 8);
        char names[256] = "";
        int k = 0;
        for (const char *p = oc->inputs; ; k++) {
            size_t len = strcspn(p, ";");
            char spec[64], name[8];
            snprintf(spec, sizeof spec, "%.*s", (int)len, p);
            snprintf(name, sizeof name, "%c", 'a' + k);
            if (!spec[0]) {
                /* an absent optional input */
            } else if (spec[0] == '=' || !strncmp(spec, "f=", 2)) {
                bool flt = spec[0] == 'f';
                const char *v = spec + (flt ? 2 : 1);
                int cnt = 1;
                for (const char *q = v; *q; q++)
                    cnt += *q == ',';
                char ty[32];
                snprintf(ty, sizeof ty, "%s[%d]", flt ? "float" : "int64", cnt);
                Onnx__TensorProto *x = mb_weight(&m, name, ty);
                if (flt) {
                    x->float_data = mb_alloc(&m, sizeof(float) * (size_t)cnt);
                    for (const char *q = v; *q; q += strcspn(q, ","), q += *q == ',')
                        x->float_data[x->n_float_data++] = (float)atof(q);
                } else {
                    x->int64_data = mb_alloc(&m, sizeof(int64_t) * (size_t)cnt);
                    for (const char *q = v; *q; q += strcspn(q, ","), q += *q == ',')
                        x->int64_data[x->n_int64_data++] = atoll(q);
                }
            } else {
                mb_input(&m, name, spec);
            }
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? "," : "",
                     spec[0] ? name : "");
            p += len;
            if (!*p)
                break;
            p++;
        }
        Onnx__NodeProto *n = mb_node(&m, oc->op, "n", names,
                                     !strcmp(oc->op, "TopK") ? "y,idx" : "y");
        op_case_attrs(&m, n, oc->attrs);
        mb_output(&m, "y", NULL);
        byoc_graph *g = read_model(&m);
        if (!g) {
            char msg[512];
            byoc_error_format(&err, msg, sizeof msg);
            ck_abort_msg("%s: %s", oc->op, msg);
        }
        int out = byoc_graph_output(g);
        if (byoc_node_kind_of(g, out) == BYOC_N_PROJ)
            out = byoc_node_arg(g, out, 0);
        ck_assert_msg(byoc_node_op_name(g, out) && !strcmp(byoc_node_op_name(g, out), oc->relay),
                      "%s became %s, not %s", oc->op, byoc_node_op_name(g, out), oc->relay);
        ck_assert_msg(!byoc_node_is_opaque(g, out), "%s is opaque", oc->op);
        if (oc->type)
            ck_assert_msg(!strcmp(type_text(g, out), oc->type), "%s: %s, not %s", oc->op,
                          type_text(g, out), oc->type);
        for (int i = 0; i < byoc_graph_node_count(g); i++)
            ck_assert_msg(!byoc_node_untyped_reason(g, i), "%s: node %d untyped: %s", oc->op, i,
                          byoc_node_untyped_reason(g, i));
        byoc_graph_destroy(g);
    }
}
END_TEST

/* Only one branch of an If runs: a kept If whose branch cannot be read
 * with the shapes it gets (a MatMul of [2, 3] by [4, 5]) keeps the other,
 * with a note; when neither reads, the model is refused. */
START_TEST(if_branch_that_cannot_be_read_is_left_out)
{
    for (int both = 0; both < 2; both++) {
        mb m;
        mb_init(&m, 13, 7);
        mb_input(&m, "x", "float[2,3]");
        mb_input(&m, "cond", "bool[]");
        mb_weight(&m, "w", "float[1,16,3]");
        mb_weight(&m, "r", "float[1,16,4]");
        Onnx__NodeProto *n = mb_node(&m, "If", "if", "cond", "y");
        Onnx__GraphProto *then = mb_graph_attr(&m, n, "then_branch");
        /* An LSTM of a [2, 3] X, where it takes [seq, batch, input]. */
        Onnx__NodeProto *l = mb_sub_node(&m, then, "LSTM", "mm", "x,w,r", "t");
        attr_int(&m, l, "hidden_size", 4);
        mb_sub_output(&m, then, "t", "float");
        Onnx__GraphProto *els = mb_graph_attr(&m, n, "else_branch");
        l = mb_sub_node(&m, els, both ? "LSTM" : "Relu", "e", both ? "x,w,r" : "x", "f");
        if (both)
            attr_int(&m, l, "hidden_size", 4);
        mb_sub_output(&m, els, "f", "float");
        mb_output(&m, "y", "float");
        if (both) {
            const char *msg = read_error(&m);
            ck_assert_msg(strstr(msg, "node 'if' (If): neither branch can be read: then_branch: "
                                      "node 'mm' (LSTM)") != NULL, "%s", msg);
            continue;
        }
        byoc_graph *g = read_ok(&m);
        int host = find_op(g, "If");
        ck_assert_int_eq(byoc_node_subgraph_count(g, host), 1);
        ck_assert_str_eq(byoc_node_subgraph_name(g, host, 0), "else_branch");
        ck_assert_str_eq(type_text(g, host), "Tensor[(2, 3), float32]");
        ck_assert(has_note(g, "node 'if' (If): its then_branch is left out, since it cannot be "
                              "read with these shapes: then_branch: node 'mm' (LSTM)"));
        byoc_graph_destroy(g);
    }

    /* A cycle in a branch is its structure, not its shapes: an error. */
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2]");
    mb_input(&m, "cond", "bool[]");
    Onnx__NodeProto *n = mb_node(&m, "If", "if", "cond", "y");
    Onnx__GraphProto *then = mb_graph_attr(&m, n, "then_branch");
    mb_sub_node(&m, then, "Add", "add", "x,b", "a");
    mb_sub_node(&m, then, "Relu", "relu", "a", "b");
    mb_sub_output(&m, then, "a", "float[2]");
    Onnx__GraphProto *els = mb_graph_attr(&m, n, "else_branch");
    mb_sub_node(&m, els, "Neg", "neg", "x", "e");
    mb_sub_output(&m, els, "e", "float[2]");
    mb_output(&m, "y", "float[2]");
    const char *msg = read_error(&m);
    ck_assert_msg(strstr(msg, "then_branch: node 'add' (Add) is part of a cycle") != NULL, "%s",
                  msg);
}
END_TEST

/* A shape of free dimensions computed outside an If reaches its branch:
 * a condition folded from it (seq >= 0 is sure) takes the branch in
 * place, whose Reshape copies the dimensions; a branch of a kept If (its
 * condition is a graph input) sees the shape as an input of its own. */
START_TEST(free_dimensions_reach_subgraphs)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[batch,seq,64]");
    mb_node(&m, "Shape", "shape", "x", "s");
    mb_ints(&m, "i1", 1, 1);
    mb_ints(&m, "zero", 1, 0);
    mb_node(&m, "Gather", "g", "s,i1", "seq");
    mb_node(&m, "GreaterOrEqual", "ge", "seq,zero", "c1");
    mb_ints(&m, "i0", 1, 0);
    mb_node(&m, "Squeeze", "sq", "c1,i0", "cond");
    Onnx__NodeProto *n = mb_node(&m, "If", "if", "cond", "y");
    Onnx__GraphProto *then = mb_graph_attr(&m, n, "then_branch");
    mb_sub_node(&m, then, "Reshape", "view", "x,s", "t");
    mb_sub_output(&m, then, "t", "float[batch,seq,64]");
    Onnx__GraphProto *els = mb_graph_attr(&m, n, "else_branch");
    mb_sub_node(&m, els, "Relu", "relu", "x", "e");
    mb_sub_output(&m, els, "e", "float[batch,seq,64]");
    mb_output(&m, "y", "float[batch,seq,64]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "If"), 0);
    ck_assert_int_eq(count_op(g, "shape_of"), 0);
    ck_assert_str_eq(attr_text(g, find_op(g, "reshape"), "newshape"), "[0, 0, 64]");
    ck_assert_str_eq(output_type(g), "Tensor[(batch, seq, 64), float32]");
    byoc_graph_destroy(g);

    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[batch,seq,64]");
    mb_input(&m, "cond", "bool[]");
    mb_node(&m, "Shape", "shape", "x", "s");
    n = mb_node(&m, "If", "if", "cond", "y");
    then = mb_graph_attr(&m, n, "then_branch");
    mb_sub_node(&m, then, "Reshape", "view", "x,s", "t");
    mb_sub_output(&m, then, "t", "float[batch,seq,64]");
    els = mb_graph_attr(&m, n, "else_branch");
    mb_sub_node(&m, els, "Relu", "relu", "x", "e");
    mb_sub_output(&m, els, "e", "float[batch,seq,64]");
    mb_output(&m, "y", "float[batch,seq,64]");
    g = read_ok(&m);
    int host = find_op(g, "If");
    ck_assert_int_eq(byoc_node_subgraph_count(g, host), 2);
    /* The host reads the shape at run time: its nodes are built. */
    ck_assert_int_eq(count_op(g, "shape_of"), 1);
    const byoc_graph *b = byoc_node_subgraph(g, host, 0);
    ck_assert_int_eq(count_op(b, "reshape"), 1);
    ck_assert_str_eq(output_type(g), "Tensor[(batch, seq, 64), float32]");
    byoc_graph_destroy(g);
}
END_TEST

/* Attention scores on free dimensions, [batch, 12, seq, 64] by the keys
 * transposed: no Relay form (nn.batch_matmul is 3-D, and flattening would
 * need batch * 12), so an opaque call - typed, MatMul as ONNX Runtime's
 * FusedMatMul with transB, so that what follows is typed too. */
START_TEST(free_dimension_matmuls_stay_typed)
{
    for (int fused = 0; fused < 2; fused++) {
        mb m;
        mb_init(&m, 13, 7);
        if (fused)
            mb_opset(&m, "com.microsoft", 1);
        mb_input(&m, "q", "float[batch,12,seq,64]");
        mb_input(&m, "k", fused ? "float[batch,12,seq,64]" : "float[batch,12,64,seq]");
        Onnx__NodeProto *n = mb_node(&m, fused ? "FusedMatMul" : "MatMul", "scores", "q,k", "s");
        if (fused) {
            mb_domain(&m, n, "com.microsoft");
            attr_int(&m, n, "transB", 1);
            attr_float(&m, n, "alpha", 0.125f);
        }
        Onnx__NodeProto *sm = mb_node(&m, "Softmax", "sm", "s", "p");
        attr_int(&m, sm, "axis", -1);
        mb_output(&m, "p", NULL);
        byoc_graph *g = read_ok(&m);
        int mm = find_name(g, "s");
        ck_assert(byoc_node_is_opaque(g, mm));
        ck_assert_str_eq(type_text(g, mm), "Tensor[(batch, 12, seq, seq), float32]");
        ck_assert_str_eq(output_type(g), "Tensor[(batch, 12, seq, seq), float32]");
        for (int i = 0; i < byoc_graph_node_count(g); i++)
            ck_assert_ptr_null(byoc_node_untyped_reason(g, i));
        byoc_graph_destroy(g);
    }
}
END_TEST

/* A Resize by scales of free spatial sizes (PaddleOCR's detector, before
 * its input is bound): opaque, typed with the axes it keeps. */
START_TEST(free_dimension_resize_stays_typed)
{
    mb m;
    mb_init(&m, 11, 7);
    mb_input(&m, "x", "float[1,96,H,W]");
    mb_floats(&m, "scales", 4, 1.0, 1.0, 2.0, 2.0);
    mb_node(&m, "Resize", "up", "x,,scales", "y");
    mb_node(&m, "Relu", "relu", "y", "z");
    mb_output(&m, "z", NULL);
    byoc_graph *g = read_ok(&m);
    int up = find_name(g, "y");
    ck_assert(byoc_node_is_opaque(g, up));
    ck_assert_str_eq(type_text(g, up), "Tensor[(1, 96, ?, ?), float32]");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 96, ?, ?), float32]");
    ck_assert(has_note(g, "scaling needs the input's spatial sizes"));
    byoc_graph_destroy(g);
}
END_TEST

/* An LSTM over a free sequence length cannot be unrolled: it stays one
 * opaque call, its outputs typed from X, hidden_size and direction. */
START_TEST(free_sequence_lstm_stays_typed)
{
    mb m;
    mb_init(&m, 14, 8);
    mb_input(&m, "x", "float[seq,batch,8]");
    mb_weight(&m, "w", "float[2,16,8]");
    mb_weight(&m, "r", "float[2,16,4]");
    Onnx__NodeProto *n = mb_node(&m, "LSTM", "lstm", "x,w,r", "y,yh,yc");
    attr_int(&m, n, "hidden_size", 4);
    attr_string(&m, n, "direction", "bidirectional");
    mb_output(&m, "y", NULL);
    mb_output(&m, "yh", NULL);
    mb_output(&m, "yc", NULL);
    byoc_graph *g = read_ok(&m);
    ck_assert(byoc_node_is_opaque(g, find_op(g, "LSTM")));
    ck_assert_str_eq(type_text(g, find_name(g, "y")), "Tensor[(seq, 2, batch, 4), float32]");
    ck_assert_str_eq(type_text(g, find_name(g, "yh")), "Tensor[(2, batch, 4), float32]");
    ck_assert_str_eq(type_text(g, find_name(g, "yc")), "Tensor[(2, batch, 4), float32]");
    ck_assert(has_note(g, "the sequence length is not known"));
    byoc_graph_destroy(g);
}
END_TEST

/* Recurrent layers unroll into at most OX_UNROLL_BUDGET (32768) steps in
 * a model: five bidirectional RNNs of 4096 steps are 40960; the first four
 * unroll, the fifth stays opaque with a note, typed. */
START_TEST(recurrent_unrolling_has_a_model_budget)
{
    mb m;
    mb_init(&m, 14, 8);
    mb_input(&m, "x", "float[4096,1,2]");
    mb_weight(&m, "w", "float[2,2,2]");
    mb_weight(&m, "r", "float[2,2,2]");
    char out[16];
    for (int i = 0; i < 5; i++) {
        snprintf(out, sizeof out, "y%d", i);
        Onnx__NodeProto *n = mb_node(&m, "RNN", out, "x,w,r", out);
        attr_int(&m, n, "hidden_size", 2);
        attr_string(&m, n, "direction", "bidirectional");
        mb_output(&m, out, NULL);
    }
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "RNN"), 1);
    ck_assert(has_note(g, "node 'y4' (RNN): kept as an opaque call: the model's recurrent layers "
                          "unroll into more than 32768 steps in all"));
    ck_assert_str_eq(type_text(g, find_name(g, "y4")), "Tensor[(4096, 2, 1, 2), float32]");
    byoc_graph_destroy(g);
}
END_TEST

/* Integer and boolean arithmetic on constants folds: the pattern torch
 * writes for Expand's shape (Where(Equal(ConstantOfShape * -1, shape), 1,
 * shape)), Mod and Div for window padding, Min, Neg, Range, and a chain
 * Shape -> Gather -> Concat -> Reshape; a Reshape whose target has two
 * free dimensions that are not the input's stays opaque, typed. */
/* A converter may define a shape known in part as another value (an
 * Identity, an Expand to the shape it has) or as a pending transpose; when
 * run time needs it, that is its node ('v': its node was not built). */
START_TEST(free_dimension_shapes_passed_through)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[N,3]");
    mb_node(&m, "Shape", "shape", "x", "s");
    mb_node(&m, "Identity", "id", "s", "v");
    mb_output(&m, "v", "int64[2]");
    mb_node(&m, "Transpose", "tr", "s", "t");
    Onnx__NodeProto *cast = mb_node(&m, "Cast", "tofloat", "t", "tf");
    attr_int(&m, cast, "to", 1);
    mb_node(&m, "Relu", "relu", "tf", "r");
    mb_output(&m, "r", "float[2]");
    mb_ints(&m, "two", 1, 2);
    mb_node(&m, "Expand", "same", "s,two", "e");
    mb_node(&m, "Neg", "neg", "e", "y");
    mb_output(&m, "y", "int64[2]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "shape_of"), 1);
    ck_assert_int_eq(count_op(g, "transpose"), 1);
    ck_assert_str_eq(type_text(g, find_op(g, "nn.relu")), "Tensor[(2,), float32]");
    ck_assert_str_eq(type_text(g, find_op(g, "negative")), "Tensor[(2,), int64]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(constant_arithmetic_folds)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[1,56,56,96]");
    mb_ints(&m, "target", 4, 1, 56, 56, 96);
    mb_ints(&m, "n4", 1, 4);
    Onnx__NodeProto *cs = mb_node(&m, "ConstantOfShape", "ones", "n4", "o");
    Onnx__AttributeProto *v = mb_attr(&m, cs, "value", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
    v->t = mb_tensor(&m, "v", "int64[1]");
    v->t->int64_data = mb_alloc(&m, sizeof(int64_t));
    v->t->int64_data[0] = 1;
    v->t->n_int64_data = 1;
    mb_ints(&m, "m1", 1, -1);
    mb_node(&m, "Mul", "neg", "o,m1", "negs");
    mb_node(&m, "Equal", "eq", "target,negs", "isneg");
    mb_node(&m, "Where", "wh", "isneg,o,target", "shape");
    mb_node(&m, "Expand", "ex", "x,shape", "xe");
    /* pad = (7 - 56 % 7) % 7, one of Swin's window paddings */
    mb_node(&m, "Shape", "sh", "x", "s");
    mb_ints(&m, "i1", 1, 1);
    mb_node(&m, "Gather", "w", "s,i1", "width");
    mb_ints(&m, "seven", 1, 7);
    mb_node(&m, "Mod", "mod", "width,seven", "rem");
    mb_node(&m, "Sub", "sub", "seven,rem", "left");
    mb_node(&m, "Mod", "mod2", "left,seven", "pad");
    mb_node(&m, "Div", "div", "width,seven", "windows");
    mb_node(&m, "Min", "min", "windows,pad", "least");
    mb_node(&m, "Neg", "ng", "least", "minus");
    mb_ints(&m, "c96", 1, 96);
    mb_ints(&m, "cm", 1, -1);
    Onnx__NodeProto *c = mb_node(&m, "Concat", "cat", "windows,windows,cm,c96,minus", "t2");
    attr_int(&m, c, "axis", 0);
    mb_ints(&m, "s4", 4, 0, 1, 2, 3);
    mb_ints(&m, "s0", 1, 0);
    mb_ints(&m, "s4e", 1, 4);
    mb_node(&m, "Slice", "sl", "t2,s0,s4e", "t3");
    mb_node(&m, "Reshape", "rs", "xe,t3", "y");
    mb_output(&m, "y", "float[8,8,49,96]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_calls(g), 1);
    ck_assert_str_eq(attr_text(g, find_op(g, "reshape"), "newshape"), "[8, 8, -1, 96]");
    ck_assert_str_eq(output_type(g), "Tensor[(8, 8, 49, 96), float32]");
    ck_assert_int_eq(byoc_graph_folded_count(g), 14);
    byoc_graph_destroy(g);

    /* [batch * seq, 768] from [batch, seq, 768]: not a newshape; typed. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[batch,seq,768]");
    mb_node(&m, "Shape", "shape", "x", "s");
    mb_ints(&m, "i0", 1, 0);
    mb_ints(&m, "i1", 1, 1);
    mb_ints(&m, "w", 1, 768);
    mb_node(&m, "Gather", "g0", "s,i0", "b");
    mb_node(&m, "Gather", "g1", "s,i1", "q");
    c = mb_node(&m, "Concat", "cat", "q,b,w", "target");
    attr_int(&m, c, "axis", 0);
    mb_node(&m, "Reshape", "swap", "x,target", "y");
    mb_output(&m, "y", "float[seq,batch,768]");
    g = read_ok(&m);
    int y = find_op(g, "Reshape");
    ck_assert(byoc_node_is_opaque(g, y));
    ck_assert_str_eq(type_text(g, y), "Tensor[(seq, batch, 768), float32]");
    ck_assert(has_note(g, "computed at run time from several free dimensions"));
    byoc_graph_destroy(g);
}
END_TEST

/* Folding stops where the arithmetic has no result of its type: Range's
 * length (INT64_MIN - 0) / -1 divided on the machine was SIGFPE. */
START_TEST(folds_stop_where_arithmetic_overflows)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_ints(&m, "start", 1, 0);
    mb_ints(&m, "limit", 1, 0)->int64_data[0] = INT64_MIN;
    mb_ints(&m, "delta", 1, -1);
    mb_node(&m, "Range", "r", "start,limit,delta", "y");
    mb_output(&m, "y", "int64[?]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "arange"), 1);
    ck_assert_int_eq(byoc_graph_folded_count(g), 0);
    byoc_graph_destroy(g);

    /* A shape of [4, 2^62] has 2^64 elements, not the 0 that a size_t
     * product wraps to: its ConstantOfShape and Expand are not folded
     * (which folded a Reshape of them to [-1] to an empty tensor), and
     * since no tensor has that many elements, they are errors. */
    mb_init(&m, 13, 7);
    mb_ints(&m, "huge", 2, 4, 0)->int64_data[1] = INT64_C(1) << 62;
    mb_ints(&m, "flat", 1, -1);
    mb_node(&m, "ConstantOfShape", "cos", "huge", "c");
    mb_node(&m, "Reshape", "r1", "c,flat", "y1");
    mb_output(&m, "y1", "float[?]");
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'cos' (ConstantOfShape): its "
                                     "result Tensor[(4, 4611686018427387904), float32] has "
                                     "more than 2^63 - 1 elements");
    mb_init(&m, 13, 7);
    mb_ints(&m, "huge", 2, 4, 0)->int64_data[1] = INT64_C(1) << 62;
    mb_ints(&m, "flat", 1, -1);
    mb_ints(&m, "one", 1, 1);
    mb_node(&m, "Expand", "ex", "one,huge", "e");
    mb_node(&m, "Reshape", "r2", "e,flat", "y2");
    mb_output(&m, "y2", "int64[?]");
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'ex' (Expand): its result "
                                     "Tensor[(4, 4611686018427387904), int64] has more than "
                                     "2^63 - 1 elements");

    /* INT32_MAX + 1 overflows int32: an add at run time. */
    mb_init(&m, 13, 7);
    Onnx__TensorProto *a = mb_weight(&m, "a", "int32[1]");
    a->int32_data = mb_alloc(&m, sizeof(int32_t));
    a->int32_data[0] = INT32_MAX;
    a->n_int32_data = 1;
    Onnx__TensorProto *b = mb_weight(&m, "b", "int32[1]");
    b->int32_data = mb_alloc(&m, sizeof(int32_t));
    b->int32_data[0] = 1;
    b->n_int32_data = 1;
    mb_node(&m, "Add", "add", "a,b", "y");
    mb_output(&m, "y", "int32[1]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "add"), 1);
    ck_assert_int_eq(byoc_graph_folded_count(g), 0);
    byoc_graph_destroy(g);
}
END_TEST

/* What folding cannot know it leaves to run time: (seq - 5) >= 0 is not
 * sure as seq >= 0 is, and a dimension cast to bool is d != 0, not d.
 * Known values are cast as Cast does: 300 as uint8 is 44. */
START_TEST(folds_are_not_guesses)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[seq]");
    mb_node(&m, "Shape", "shape", "x", "s");
    mb_ints(&m, "five", 1, 5);
    mb_ints(&m, "zero", 1, 0);
    mb_node(&m, "Sub", "sub", "s,five", "d");
    mb_node(&m, "GreaterOrEqual", "ge", "d,zero", "c");
    Onnx__NodeProto *n = mb_node(&m, "Cast", "c2i", "c", "ci");
    attr_int(&m, n, "to", 7);
    mb_node(&m, "ConstantOfShape", "cos", "ci", "y1");
    mb_output(&m, "y1", "float[?]");
    n = mb_node(&m, "Cast", "tobool", "s", "b");
    attr_int(&m, n, "to", 9);
    n = mb_node(&m, "Cast", "toint", "b", "bi");
    attr_int(&m, n, "to", 7);
    mb_node(&m, "ConstantOfShape", "cos2", "bi", "y2");
    mb_output(&m, "y2", "float[?]");
    mb_ints(&m, "big", 1, 300);
    n = mb_node(&m, "Cast", "tou8", "big", "b8");
    attr_int(&m, n, "to", 2);
    n = mb_node(&m, "Cast", "back", "b8", "b64");
    attr_int(&m, n, "to", 7);
    mb_node(&m, "ConstantOfShape", "cos3", "b64", "y3");
    mb_output(&m, "y3", "float[44]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "greater_equal"), 1);
    ck_assert_str_eq(type_text(g, find_name(g, "y1")), "Tensor[(?,), float32]");
    ck_assert_str_eq(type_text(g, find_name(g, "y2")), "Tensor[(?,), float32]");
    ck_assert_str_eq(type_text(g, find_name(g, "y3")), "Tensor[(44,), float32]");
    byoc_graph_destroy(g);

    /* A Slice whose ends hold a free dimension stays opaque; the axis it
     * cuts by known bounds, [1, 3), is 2 long (it was typed as the input's
     * 10). */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[N,10]");
    mb_node(&m, "Shape", "shape", "x", "s");
    mb_ints(&m, "i0", 1, 0);
    mb_node(&m, "Gather", "g", "s,i0", "n");
    mb_ints(&m, "three", 1, 3);
    n = mb_node(&m, "Concat", "cat", "n,three", "ends");
    attr_int(&m, n, "axis", 0);
    mb_ints(&m, "starts", 2, 0, 1);
    mb_ints(&m, "axes", 2, 0, 1);
    mb_node(&m, "Slice", "cut", "x,starts,ends,axes", "y");
    mb_output(&m, "y", "float[N,?]");
    g = read_ok(&m);
    ck_assert_str_eq(output_type(g), "Tensor[(N, 2), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(types_without_value_info)
{
    /* MatMul and Gemm need ranks the model does not declare; provisional
     * inference gives them, and leaves no notes behind. */
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,5]");
    mb_weight(&m, "w", "float[5,3]");
    mb_input(&m, "z", "float[2,3,2,2]");
    mb_weight(&m, "v", "float[4,12]");
    mb_node(&m, "Relu", "relu", "x", "r");
    mb_node(&m, "MatMul", "mm", "r,w", "y");
    mb_node(&m, "Sigmoid", "sig", "z", "s");
    Onnx__NodeProto *n = mb_node(&m, "Gemm", "fc", "s,v", "u");
    attr_int(&m, n, "transB", 1);
    mb_output(&m, "y", "float[2,3]");
    mb_output(&m, "u", "float[2,4]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.dense"), 2);
    ck_assert_int_eq(count_op(g, "nn.batch_flatten"), 1);
    ck_assert_int_eq(byoc_graph_note_count(g), 0);
    ck_assert_str_eq(type_text(g, find_name(g, "y")), "Tensor[(2, 3), float32]");
    ck_assert_str_eq(type_text(g, find_name(g, "u")), "Tensor[(2, 4), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(upsample_and_prelu)
{
    mb m;
    mb_init(&m, 9, 4);
    mb_input(&m, "x", "float[1,2,4,4]");
    mb_floats(&m, "scales", 4, 1.0, 1.0, 2.0, 2.0);
    mb_weight(&m, "slope", "float[2,1,1]");
    mb_node(&m, "Upsample", "up", "x,scales", "u");
    mb_node(&m, "PRelu", "prelu", "u,slope", "y");
    mb_output(&m, "y", "float[1,2,8,8]");
    byoc_graph *g = read_ok(&m);
    int up = find_op(g, "nn.upsampling");
    ck_assert_str_eq(attr_text(g, up, "scale_h"), "2.0");
    ck_assert_str_eq(attr_text(g, up, "method"), "\"nearest_neighbor\"");
    int prelu = find_op(g, "nn.prelu");
    ck_assert_str_eq(attr_text(g, byoc_node_arg(g, prelu, 1), "newshape"), "[2]");
    ck_assert_str_eq(output_type(g), "Tensor[(1, 2, 8, 8), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(read_from_file)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2]");
    mb_node(&m, "Tanh", "t", "x", "y");
    mb_output(&m, "y", "float[2]");
    pack(&m);
    mb_free(&m);
    char path[] = "test_onnx_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "wb");
    ck_assert_uint_eq(fwrite(bytes, 1, nbytes, f), nbytes);
    fclose(f);
    free(bytes);
    byoc_graph *g = byoc_onnx_read(reg, path, &err);
    remove(path);
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(count_op(g, "tanh"), 1);
    ck_assert_str_eq(byoc_graph_source(g), path);
    byoc_graph_destroy(g);
}
END_TEST

/* ---- Errors ------------------------------------------------------------------------ */

START_TEST(truncated_bytes)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_node(&m, "Relu", "relu", "x", "y");
    mb_output(&m, "y", "float[2,3]");
    pack(&m);
    mb_free(&m);
    for (size_t cut = 1; cut < nbytes; cut += 3) {
        byoc_graph *g = byoc_onnx_read_bytes(reg, bytes, cut, "model.onnx", &err);
        /* Some prefixes are whole messages (an empty graph, say); those
         * fail later, but none may crash or succeed with a graph. */
        ck_assert_ptr_null(g);
        ck_assert_str_eq(err.file, "model.onnx");
        ck_assert_int_eq(err.line, 0);
    }
    free(bytes);
    byoc_graph *g = byoc_onnx_read_bytes(reg, "\x0a\x05\x01", 3, "model.onnx", &err);
    ck_assert_ptr_null(g);
    ck_assert_str_eq(err.msg, "not an ONNX model: the protobuf data is truncated or malformed");
}
END_TEST

START_TEST(wrong_field_types)
{
    /* ModelProto.graph (field 7) as a varint instead of a message. */
    static const uint8_t wrong[] = {0x08, 0x07, 0x38, 0x01};
    byoc_graph *g = byoc_onnx_read_bytes(reg, wrong, sizeof wrong, "model.onnx", &err);
    ck_assert_ptr_null(g);
    ck_assert_str_eq(err.msg, "not an ONNX model: the protobuf data is truncated or malformed");
    /* A model with no graph at all. */
    static const uint8_t nograph[] = {0x08, 0x07};
    g = byoc_onnx_read_bytes(reg, nograph, sizeof nograph, "model.onnx", &err);
    ck_assert_ptr_null(g);
    ck_assert_str_eq(err.msg, "the model has no graph");
}
END_TEST

START_TEST(cycle)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2]");
    mb_node(&m, "Add", "a", "x,c", "b");
    mb_node(&m, "Relu", "r", "b", "c");
    mb_node(&m, "Relu", "out", "c", "y");
    mb_output(&m, "y", "float[2]");
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'a' (Add) is part of a cycle");
}
END_TEST

START_TEST(dangling_input)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2]");
    mb_node(&m, "Add", "add", "x,ghost", "y");
    mb_output(&m, "y", "float[2]");
    ck_assert_str_eq(read_error(&m),
                     "model.onnx: error: node 'add' (Add): input 'ghost' is not written by any "
                     "node and is not a graph input or initializer");

    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2]");
    mb_node(&m, "Relu", "", "x", "y");
    mb_output(&m, "z", "float[2]");
    ck_assert_str_eq(read_error(&m),
                     "model.onnx: error: graph output 'z' is not written by any node and is "
                     "not a graph input or initializer");

    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2]");
    mb_node(&m, "Relu", "", "x", "y");
    mb_node(&m, "Sigmoid", "", "x", "y");
    mb_output(&m, "y", "float[2]");
    ck_assert_str_eq(read_error(&m), "model.onnx: error: the Relu node writing 'y' and the "
                                     "Sigmoid node writing 'y' both write 'y'");
}
END_TEST

START_TEST(bad_attributes)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[1,3,8,8]");
    mb_weight(&m, "w", "float[4,3,3,3]");
    Onnx__NodeProto *c = mb_node(&m, "Conv", "conv", "x,w", "y");
    attr_float(&m, c, "group", 2.0f);
    mb_output(&m, "y", "float[1,4,6,6]");
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'conv' (Conv): attribute 'group' "
                                     "should be an int, not a float");

    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[1,3,8,8]");
    mb_weight(&m, "w", "float[4,3,3,3]");
    c = mb_node(&m, "Conv", "conv", "x,w", "y");
    attr_ints(&m, c, "pads", 3, 1, 1, 1);
    mb_output(&m, "y", "float[1,4,6,6]");
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'conv' (Conv): attribute 'pads' "
                                     "has 3 values; a 2-D Conv needs 4");

    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    c = mb_node(&m, "Transpose", "t", "x", "y");
    attr_ints(&m, c, "perm", 2, 0, 0);
    mb_output(&m, "y", "float[3,2]");
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 't' (Transpose): attribute 'perm' "
                                     "is not a permutation of 0..1");

    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    c = mb_node(&m, "Cast", "cast", "x", "y");
    attr_int(&m, c, "to", 8);
    mb_output(&m, "y", "string[2,3]");
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'cast' (Cast): attribute 'to' is "
                                     "ONNX element type 8, which byoc does not support");
}
END_TEST

START_TEST(bad_tensors)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    Onnx__TensorProto *t = mb_ints(&m, "shape", 2, 3, 2);
    t->dims[0] = 3;   /* three elements claimed, two given */
    mb_node(&m, "Reshape", "r", "x,shape", "y");
    mb_output(&m, "y", "float[3,2]");
    ck_assert_str_eq(read_error(&m), "model.onnx: error: initializer 'shape': int64_data holds "
                                     "2 elements, but its dims give 3");

    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2]");
    t = mb_weight(&m, "w", "float[2]");
    t->has_raw_data = 1;
    t->raw_data.len = 7;
    t->raw_data.data = mb_alloc(&m, 7);
    mb_node(&m, "Add", "a", "x,w", "y");
    mb_output(&m, "y", "float[2]");
    ck_assert_str_eq(read_error(&m), "model.onnx: error: initializer 'w': raw_data holds 7 "
                                     "bytes, but 2 elements of float32 need 8");

    mb_init(&m, 13, 7);
    mb_input(&m, "x", "string[2]");
    mb_node(&m, "Identity", "i", "x", "y");
    mb_output(&m, "y", "string[2]");
    ck_assert_str_eq(read_error(&m), "model.onnx: error: graph input 'x' has element type "
                                     "string, which byoc does not support");

    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2]");
    t = mb_weight(&m, "w", "float[2]");
    t->data_type = 14;   /* complex64 */
    mb_node(&m, "Add", "a", "x,w", "y");
    mb_output(&m, "y", "float[2]");
    ck_assert_str_eq(read_error(&m), "model.onnx: error: initializer 'w' has element type "
                                     "complex64, which byoc does not support");
}
END_TEST

/* Sizes are 0 or more, and a tensor has at most 2^63 - 1 elements (ONNX
 * Runtime's count): a size below 0 was read as unknown, a product past 64
 * bits wrapped. */
START_TEST(bad_sizes)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[1,2]");
    m.inputs[0]->type->tensor_type->shape->dim[1]->dim_value = -5;
    mb_node(&m, "Relu", "r", "x", "y");
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: graph input 'x' has size -5 at axis 1; "
                                     "a size is 0 or more");
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[1,2]");
    m.inputs[0]->type->tensor_type->shape->dim[0]->dim_value = INT64_MIN;
    mb_node(&m, "Relu", "r", "x", "y");
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: graph input 'x' has size "
                                     "-9223372036854775808 at axis 0; a size is 0 or more");
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[1,2]");
    mb_node(&m, "Relu", "r", "x", "h");
    mb_node(&m, "Relu", "r2", "h", "y");
    mb_info(&m, "h", "float[1,2]");
    m.infos[0]->type->tensor_type->shape->dim[1]->dim_value = -1;
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: value_info 'h' has size -1 at axis 1; "
                                     "a size is 0 or more");
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[1,2]");
    mb_node(&m, "Relu", "r", "x", "y");
    mb_output(&m, "y", "float[1,2]");
    m.outputs[0]->type->tensor_type->shape->dim[0]->dim_value = -3;
    ck_assert_str_eq(read_error(&m), "model.onnx: error: graph output 'y' has size -3 at axis "
                                     "0; a size is 0 or more");
    /* 2^96 elements; with a size 0 among them, none. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[4294967296,4294967296,4294967296]");
    mb_node(&m, "Relu", "r", "x", "y");
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: graph input 'x' has more than 2^63 - 1 "
                                     "elements");
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[4294967296,4294967296,0]");
    mb_node(&m, "Relu", "r", "x", "y");
    mb_output(&m, "y", NULL);
    byoc_graph *g = read_ok(&m);
    ck_assert_str_eq(output_type(g), "Tensor[(4294967296, 4294967296, 0), float32]");
    byoc_graph_destroy(g);
    /* Initializers and a Constant's tensor, without data. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2]");
    mb_weight(&m, "w", "float[1099511627776,1099511627776]");
    mb_node(&m, "Add", "a", "x,w", "y");
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: initializer 'w' has more than 2^63 - 1 "
                                     "elements");
    mb_init(&m, 13, 7);
    Onnx__NodeProto *c = mb_node(&m, "Constant", "c", "", "y");
    Onnx__AttributeProto *a =
        mb_attr(&m, c, "value", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
    a->t = mb_tensor(&m, "v", "float[3037000500,3037000500]");
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'c' (Constant): the tensor of "
                                     "attribute 'value' has more than 2^63 - 1 elements");
    /* Sparse tensors, which no op reads: their shapes all the same. */
    mb_init(&m, 13, 7);
    c = mb_node(&m, "Constant", "c", "", "y");
    a = mb_attr(&m, c, "sparse_value", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSOR);
    Onnx__SparseTensorProto *sp = mb_alloc(&m, sizeof *sp);
    onnx__sparse_tensor_proto__init(sp);
    sp->values = mb_tensor(&m, "v", "float[1]");
    sp->dims = mb_alloc(&m, sizeof(int64_t));
    sp->dims[0] = -5;
    sp->n_dims = 1;
    a->sparse_tensor = sp;
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'c' (Constant): the sparse tensor "
                                     "of attribute 'sparse_value' has a negative dimension (-5)");
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2]");
    mb_node(&m, "Relu", "r", "x", "y");
    mb_output(&m, "y", NULL);
    sp = mb_alloc(&m, sizeof *sp);
    onnx__sparse_tensor_proto__init(sp);
    sp->values = mb_tensor(&m, "s", "float[1]");
    sp->indices = mb_tensor(&m, "i", "int64[1]");
    sp->indices->dims[0] = -1;
    Onnx__SparseTensorProto *sps[1] = {sp};
    m.graph.sparse_initializer = sps;
    m.graph.n_sparse_initializer = 1;
    ck_assert_str_eq(read_error(&m), "model.onnx: error: sparse initializer 's': its indices has "
                                     "a negative dimension (-1)");
}
END_TEST

/* An opset version is 1 or more, and fits the int ONNX's own registry
 * keeps it in; INT64_MAX read as opset -1. */
START_TEST(bad_opset_versions)
{
    static const int64_t bad[] = {-5, 0, INT64_MAX, INT64_C(1) << 31};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        mb m;
        mb_init(&m, 13, 7);
        m.opset.version = bad[k];
        mb_input(&m, "x", "float[2]");
        mb_node(&m, "Relu", "r", "x", "y");
        mb_output(&m, "y", NULL);
        char want[200];
        snprintf(want, sizeof want, "model.onnx: error: opset_import: the default domain has "
                                    "version %lld; a version is 1 to 2147483647",
                 (long long)bad[k]);
        ck_assert_str_eq(read_error(&m), want);
    }
    mb m;
    mb_init(&m, 13, 7);
    mb_opset(&m, "com.microsoft", -1);
    mb_input(&m, "x", "float[2]");
    mb_node(&m, "Relu", "r", "x", "y");
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: opset_import: domain 'com.microsoft' "
                                     "has version -1; a version is 1 to 2147483647");
    /* Past the newest byoc knows: read as the newest. */
    mb_init(&m, 99, 7);
    mb_input(&m, "x", "float[2]");
    mb_node(&m, "Relu", "r", "x", "y");
    mb_output(&m, "y", NULL);
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.relu"), 1);
    byoc_graph_destroy(g);
}
END_TEST

/* The error a one-node model gives: op on x ("float[4,9]" unless xtype
 * says), its attributes set by `attrs`, initializers by `inits`. */
typedef void (*mb_fill)(mb *m, Onnx__NodeProto *n);

static const char *node_error(const char *op, const char *xtype, const char *inputs,
                              void (*inits)(mb *m), mb_fill attrs)
{
    mb m;
    mb_init(&m, 17, 8);
    mb_input(&m, "x", xtype ? xtype : "float[4,9]");
    if (inits)
        inits(&m);
    Onnx__NodeProto *n = mb_node(&m, op, "n", inputs, "y");
    if (attrs)
        attrs(&m, n);
    mb_output(&m, "y", NULL);
    return read_error(&m);
}

static void k_max(mb *m) { mb_ints(m, "k", 1, 0)->int64_data[0] = INT64_MAX; }
static void k_minus(mb *m) { mb_ints(m, "k", 1, -3); }
static void k_ten(mb *m) { mb_ints(m, "k", 1, 10); }
static void axis_1(mb *m, Onnx__NodeProto *n) { attr_int(m, n, "axis", 1); }
static void axis_huge(mb *m, Onnx__NodeProto *n) { attr_int(m, n, "axis", INT64_MIN); }

/* TopK's k, from the model, at most the axis (ONNX Runtime's check): k of
 * INT64_MAX gave a (4, 9223372036854775807) result. */
START_TEST(topk_k_past_the_axis)
{
    ck_assert_str_eq(node_error("TopK", NULL, "x,k", k_max, axis_1),
                     "model.onnx: error: node 'n' (TopK): k is 9223372036854775807, more than "
                     "the 9 elements of axis 1");
    ck_assert_str_eq(node_error("TopK", NULL, "x,k", k_ten, axis_1),
                     "model.onnx: error: node 'n' (TopK): k is 10, more than the 9 elements of "
                     "axis 1");
    ck_assert_str_eq(node_error("TopK", NULL, "x,k", k_minus, axis_1),
                     "model.onnx: error: node 'n' (TopK): k is -3; it must be 0 or more");
    ck_assert_str_eq(node_error("TopK", NULL, "x,k", k_ten, axis_huge),
                     "model.onnx: error: node 'n' (TopK): attribute 'axis' is "
                     "-9223372036854775808 for a tensor of rank 2");
}
END_TEST

static void shape_overflow(mb *m)
{
    Onnx__TensorProto *t = mb_ints(m, "s", 3, 0, 4, 0);
    t->int64_data[0] = INT64_C(1) << 62;
}

/* A Reshape to sizes that multiply past 64 bits: an overflow, not a
 * product that wrapped to 0 and "does not divide". */
START_TEST(reshape_shape_overflows)
{
    ck_assert_str_eq(node_error("Reshape", "float[1,3,224,224]", "x,s", shape_overflow, NULL),
                     "model.onnx: error: node 'n' (Reshape): the shape [4611686018427387904, 4, "
                     "0] has more than 2^63 - 1 elements");
}
END_TEST

static void kernel_2x2(mb *m, Onnx__NodeProto *n) { attr_ints(m, n, "kernel_shape", 2, 2, 2); }

static void pads_max(mb *m, Onnx__NodeProto *n)
{
    kernel_2x2(m, n);
    attr_ints(m, n, "pads", 4, 0, 0, 0, 0);
    n->attribute[1]->ints[0] = INT64_MAX;
}

static void same_strides_max(mb *m, Onnx__NodeProto *n)
{
    kernel_2x2(m, n);
    attr_ints(m, n, "strides", 2, 1, 1);
    n->attribute[1]->ints[0] = INT64_MAX;
    attr_string(m, n, "auto_pad", "SAME_UPPER");
}

static void same_dilated_max(mb *m, Onnx__NodeProto *n)
{
    attr_ints(m, n, "kernel_shape", 2, 2, 2);
    attr_ints(m, n, "dilations", 2, 1, 1);
    n->attribute[0]->ints[0] = INT64_C(1) << 40;
    n->attribute[1]->ints[0] = INT64_C(1) << 40;
    attr_string(m, n, "auto_pad", "SAME_LOWER");
}

static void kernel_past_input(mb *m, Onnx__NodeProto *n)
{
    attr_ints(m, n, "kernel_shape", 2, 9, 2);
}

/* Windows whose arithmetic passed 64 bits (UBSan reports in the SAME
 * padding and in inference's message), and windows larger than their
 * input. */
START_TEST(pool_windows)
{
    ck_assert_str_eq(node_error("MaxPool", "float[1,4,8,8]", "x", NULL, pads_max),
                     "model.onnx: error: node 'n' (MaxPool): kernel_shape, dilations and pads "
                     "take spatial axis 0 past 2^63 - 1");
    ck_assert_str_eq(node_error("AveragePool", "float[1,4,8,8]", "x", NULL, same_dilated_max),
                     "model.onnx: error: node 'n' (AveragePool): kernel_shape and dilations take "
                     "spatial axis 0 past 2^63 - 1");
    ck_assert_str_eq(node_error("MaxPool", "float[1,4,8,8]", "x", NULL, kernel_past_input),
                     "model.onnx: error: node 'n' (MaxPool): the window of 9 on spatial axis 0 "
                     "is larger than the padded input of 8");
    /* A stride of INT64_MAX is a valid one: one output. */
    mb m;
    mb_init(&m, 17, 8);
    mb_input(&m, "x", "float[1,4,8,8]");
    same_strides_max(&m, mb_node(&m, "MaxPool", "n", "x", "y"));
    mb_output(&m, "y", NULL);
    byoc_graph *g = read_ok(&m);
    ck_assert_str_eq(output_type(g), "Tensor[(1, 4, 1, 8), float32]");
    byoc_graph_destroy(g);
}
END_TEST

static void weight_4x4(mb *m) { mb_weight(m, "w", "float[4,4,3,3]"); }
static void group_3(mb *m, Onnx__NodeProto *n) { attr_int(m, n, "group", 3); }
static void group_huge(mb *m, Onnx__NodeProto *n) { attr_int(m, n, "group", INT64_C(1) << 62); }
static void kernel_5(mb *m, Onnx__NodeProto *n) { attr_ints(m, n, "kernel_shape", 2, 5, 3); }

static void output_shape_min(mb *m, Onnx__NodeProto *n)
{
    attr_ints(m, n, "output_shape", 2, 0, 8);
    n->attribute[0]->ints[0] = INT64_MIN;
}

static void pads_all(mb *m, Onnx__NodeProto *n)
{
    attr_ints(m, n, "pads", 4, 9, 0, 9, 0);
}

/* A convolution's group and kernel against its weight, and a transposed
 * convolution's sizes, as ONNX Runtime checks them; the group of INT64_MAX
 * overflowed the output channels. */
START_TEST(conv_attributes)
{
    ck_assert_str_eq(node_error("Conv", "float[1,4,8,8]", "x,w", weight_4x4, group_3),
                     "model.onnx: error: node 'n' (Conv): group 3 does not divide the weight's 4 "
                     "output channels");
    ck_assert_str_eq(node_error("Conv", "float[1,4,8,8]", "x,w", weight_4x4, kernel_5),
                     "model.onnx: error: node 'n' (Conv): attribute 'kernel_shape' has 5 on "
                     "spatial axis 0, but the weight has 3");
    ck_assert_str_eq(node_error("ConvTranspose", "float[1,4,8,8]", "x,w", weight_4x4, group_huge),
                     "model.onnx: error: node 'n' (ConvTranspose): group 4611686018427387904 "
                     "does not divide the input's 4 channels");
    ck_assert_str_eq(node_error("ConvTranspose", "float[1,4,8,8]", "x,w", weight_4x4,
                                output_shape_min),
                     "model.onnx: error: node 'n' (ConvTranspose): attribute 'output_shape' has "
                     "the value -9223372036854775808");
    ck_assert_str_eq(node_error("ConvTranspose", "float[1,4,8,8]", "x,w", weight_4x4, pads_all),
                     "model.onnx: error: node 'n' (ConvTranspose): pads 9 and 9 leave spatial "
                     "axis 0 no output");
}
END_TEST

static void axes_minus5(mb *m) { mb_ints(m, "a", 1, -5); }
static void axes_twice(mb *m) { mb_ints(m, "a", 2, 1, -3); }
static void axes_0(mb *m) { mb_ints(m, "a", 1, 0); }
static void index_9(mb *m) { mb_ints(m, "i", 1, 9); }
static void index_0(mb *m) { mb_ints(m, "i", 1, 0); }

static void scatter_inits(mb *m)
{
    mb_ints(m, "i", 1, 0);
    mb_floats(m, "u", 1, 1.0);
}

static void batch_dims_2(mb *m, Onnx__NodeProto *n) { attr_int(m, n, "batch_dims", 2); }
static void axis_2(mb *m, Onnx__NodeProto *n) { attr_int(m, n, "axis", 2); }

/* Axes outside the tensor: errors, as in ONNX Runtime, where Unsqueeze of
 * axis -5 on a rank 2 tensor gave (4, 1, 9) and ScatterElements took any
 * axis; the others left the node untyped with a note. */
START_TEST(axes_out_of_range)
{
    ck_assert_str_eq(node_error("Unsqueeze", NULL, "x,a", axes_minus5, NULL),
                     "model.onnx: error: node 'n' (Unsqueeze): axis -5 is out of range for an "
                     "output of rank 3");
    ck_assert_str_eq(node_error("Unsqueeze", NULL, "x,a", axes_twice, NULL),
                     "model.onnx: error: node 'n' (Unsqueeze): axis 1 is given twice");
    ck_assert_str_eq(node_error("Squeeze", NULL, "x,a", axes_minus5, NULL),
                     "model.onnx: error: node 'n' (Squeeze): an axis is -5 for a tensor of rank "
                     "2");
    ck_assert_str_eq(node_error("Squeeze", NULL, "x,a", axes_0, NULL),
                     "model.onnx: error: node 'n' (Squeeze): axis 0 has size 4, not 1");
    ck_assert_str_eq(node_error("Concat", NULL, "x,x", NULL, axis_huge),
                     "model.onnx: error: node 'n' (Concat): attribute 'axis' is "
                     "-9223372036854775808 for a tensor of rank 2");
    ck_assert_str_eq(node_error("Gather", NULL, "x,i", index_0, axis_2),
                     "model.onnx: error: node 'n' (Gather): attribute 'axis' is 2 for a tensor "
                     "of rank 2");
    ck_assert_str_eq(node_error("Gather", NULL, "x,i", index_9, axis_1),
                     "model.onnx: error: node 'n' (Gather): index 9 is out of range for axis 1 "
                     "of size 9");
    ck_assert_str_eq(node_error("GatherElements", NULL, "x,i", index_0, axis_2),
                     "model.onnx: error: node 'n' (GatherElements): attribute 'axis' is 2 for a "
                     "tensor of rank 2");
    ck_assert_str_eq(node_error("ScatterElements", NULL, "x,i,u", scatter_inits, axis_2),
                     "model.onnx: error: node 'n' (ScatterElements): attribute 'axis' is 2 for "
                     "a tensor of rank 2");
    ck_assert_str_eq(node_error("GatherND", NULL, "x,i", index_0, batch_dims_2),
                     "model.onnx: error: node 'n' (GatherND): attribute 'batch_dims' is 2 for "
                     "data of rank 2 and indices of rank 1");
    ck_assert_str_eq(node_error("ArgMax", NULL, "x", NULL, axis_2),
                     "model.onnx: error: node 'n' (ArgMax): attribute 'axis' is 2 for a tensor "
                     "of rank 2");
    ck_assert_str_eq(node_error("ReduceSum", NULL, "x,a", axes_minus5, NULL),
                     "model.onnx: error: node 'n' (ReduceSum): an axis is -5 for a tensor of "
                     "rank 2");
}
END_TEST

static void slice_axes_out(mb *m)
{
    mb_ints(m, "s", 1, 0);
    mb_ints(m, "e", 1, 2);
    mb_ints(m, "a", 1, 0)->int64_data[0] = INT64_MIN;
}

static void slice_axes_twice(mb *m)
{
    mb_ints(m, "s", 2, 0, 0);
    mb_ints(m, "e", 2, 2, 2);
    mb_ints(m, "a", 2, 1, -1);
}

static void split_negative(mb *m) { mb_ints(m, "s", 2, -1, 10); }
static void split_short(mb *m) { mb_ints(m, "s", 2, 4, 4); }
/* Split of x [4, 9] on axis 1 into two, by the sizes `inits` gives. */
static const char *split_error(void (*inits)(mb *m))
{
    mb m;
    mb_init(&m, 17, 8);
    mb_input(&m, "x", "float[4,9]");
    inits(&m);
    attr_int(&m, mb_node(&m, "Split", "n", "x,s", "y,z"), "axis", 1);
    mb_output(&m, "y", NULL);
    mb_output(&m, "z", NULL);
    return read_error(&m);
}

static void pads_crop(mb *m) { mb_ints(m, "p", 4, 0, -5, 0, -5); }

static void pads_over(mb *m)
{
    mb_ints(m, "p", 4, 0, 0, 0, 0)->int64_data[1] = INT64_MAX;
}

static void reps_negative(mb *m) { mb_ints(m, "r", 2, 1, -2); }

static void reps_over(mb *m)
{
    mb_ints(m, "r", 2, 1, 0)->int64_data[1] = INT64_C(1) << 62;
}

static void shape_negative(mb *m) { mb_ints(m, "s", 2, -1, 9); }
static void step_0(mb *m)
{
    mb_ints(m, "d", 1, 0);
    m->inits[0]->n_dims = 0;
}

static void blocksize_3(mb *m, Onnx__NodeProto *n) { attr_int(m, n, "blocksize", 3); }

static void sizes_negative(mb *m)
{
    mb_ints(m, "z", 4, 1, 4, -8, 8);
}

static void scales_zero(mb *m) { mb_floats(m, "sc", 4, 1.0, 1.0, 0.0, 1.0); }
static void scales_huge(mb *m) { mb_floats(m, "sc", 4, 1.0, 1.0, 1e30, 1.0); }

/* Sizes a model's constants give: below 0, past 64 bits, or not adding
 * up, each an error naming the node (they were notes, untyped nodes, or
 * shapes silently taken). */
START_TEST(sizes_from_constants)
{
    ck_assert_str_eq(node_error("Slice", NULL, "x,s,e,a", slice_axes_out, NULL),
                     "model.onnx: error: node 'n' (Slice): an axis is -9223372036854775808 for a "
                     "tensor of rank 2");
    ck_assert_str_eq(node_error("Slice", NULL, "x,s,e,a", slice_axes_twice, NULL),
                     "model.onnx: error: node 'n' (Slice): axis 1 is sliced twice");
    ck_assert_str_eq(split_error(split_negative),
                     "model.onnx: error: node 'n' (Split): the split sizes [-1, 10] are not "
                     "sizes");
    ck_assert_str_eq(split_error(split_short),
                     "model.onnx: error: node 'n' (Split): the split sizes [4, 4] do not add up "
                     "to the 9 of axis 1");
    ck_assert_str_eq(node_error("Pad", NULL, "x,p", pads_crop, NULL),
                     "model.onnx: error: node 'n' (Pad): pads -5 and -5 crop more than all of "
                     "axis 1");
    ck_assert_str_eq(node_error("Pad", NULL, "x,p", pads_over, NULL),
                     "model.onnx: error: node 'n' (Pad): pads 9223372036854775807 and 0 take "
                     "axis 1 past 2^63 - 1");
    ck_assert_str_eq(node_error("Tile", NULL, "x,r", reps_negative, NULL),
                     "model.onnx: error: node 'n' (Tile): the repeats hold -2");
    ck_assert_str_eq(node_error("Tile", NULL, "x,r", reps_over, NULL),
                     "model.onnx: error: node 'n' (Tile): 4611686018427387904 repeats take axis "
                     "1 of 9 past 2^63 - 1");
    ck_assert_str_eq(node_error("Expand", NULL, "x,s", shape_negative, NULL),
                     "model.onnx: error: node 'n' (Expand): the shape holds -1");
    ck_assert_str_eq(node_error("ConstantOfShape", NULL, "s", shape_negative, NULL),
                     "model.onnx: error: node 'n' (ConstantOfShape): the shape holds -1");
    ck_assert_str_eq(node_error("Range", NULL, "x,x,d", step_0, NULL),
                     "model.onnx: error: node 'n' (Range): the step is 0");
    ck_assert_str_eq(node_error("DepthToSpace", "float[1,4,8,8]", "x", NULL, blocksize_3),
                     "model.onnx: error: node 'n' (DepthToSpace): the input's 4 channels do not "
                     "divide by blocksize 3 squared");
    ck_assert_str_eq(node_error("SpaceToDepth", "float[1,4,8,8]", "x", NULL, blocksize_3),
                     "model.onnx: error: node 'n' (SpaceToDepth): the input's axis 2 of 8 does "
                     "not divide by blocksize 3");
    ck_assert_str_eq(node_error("Resize", "float[1,4,8,8]", "x,,,z", sizes_negative, NULL),
                     "model.onnx: error: node 'n' (Resize): the sizes hold -8");
    ck_assert_str_eq(node_error("Upsample", "float[1,4,8,8]", "x,sc", scales_zero, NULL),
                     "model.onnx: error: node 'n' (Upsample): scale 0 is not a positive number");
    ck_assert_str_eq(node_error("Upsample", "float[1,4,8,8]", "x,sc", scales_huge, NULL),
                     "model.onnx: error: node 'n' (Upsample): scale 1e+30 takes axis 2 of 8 past "
                     "2^63 - 1");
}
END_TEST

START_TEST(missing_file)
{
    byoc_graph *g = byoc_onnx_read(reg, "no/such/model.onnx", &err);
    ck_assert_ptr_null(g);
    ck_assert_str_eq(err.file, "no/such/model.onnx");
    ck_assert_ptr_nonnull(strstr(err.msg, "cannot open"));
}
END_TEST

/* ---- generated models: wide concatenates, linear loading ------------------- */

static byoc_graph *read_generated(uint8_t *buf, size_t size)
{
    byoc_graph *g = byoc_onnx_read_bytes(reg, buf, size, "gen.onnx", &err);
    ck_assert_msg(g != NULL, "%s", err.msg);
    free(buf);
    return g;
}

/* A Concat of 300 inputs is one concatenate of a 300-field tuple. */
START_TEST(concat_of_300_inputs)
{
    size_t size;
    uint8_t *buf = gen_concat(300, &size);
    byoc_graph *g = read_generated(buf, size);
    int out = byoc_graph_output(g);
    ck_assert_str_eq(byoc_node_op_name(g, out), "concatenate");
    int tuple = byoc_node_arg(g, out, 0);
    ck_assert_int_eq(byoc_node_kind_of(g, tuple), BYOC_N_TUPLE);
    ck_assert_int_eq(byoc_node_arg_count(g, tuple), 300);
    const byoc_tensor_type *t = byoc_node_type(g, out, -1);
    ck_assert_int_eq(t->rank, 2);
    ck_assert_int_eq(t->dims[1], 1200);
    byoc_graph_destroy(g);
}
END_TEST

/* Long lines of Transposes and Identities read in linear time and
 * without recursion: a Transpose of a held-back transpose is one composed
 * transpose (20,001 of [1, 0] are one; 10,000 recursed ox_node_of out of an
 * 8 MB stack), and an Identity's alias is resolved when made (a line of
 * 100,000 took 48 s). */
START_TEST(long_lines_are_not_recursed)
{
    size_t size;
    uint8_t *buf = gen_unary_chain("Transpose", 20001, &size);
    byoc_graph *g = read_generated(buf, size);
    ck_assert_int_eq(count_op(g, "transpose"), 1);
    ck_assert_str_eq(output_type(g), "Tensor[(3, 2), float32]");
    byoc_graph_destroy(g);
    buf = gen_unary_chain("Identity", 20000, &size);
    g = read_generated(buf, size);
    ck_assert_int_eq(count_calls(g), 1);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3), float32]");
    byoc_graph_destroy(g);

    /* [2, 3, 4] by [1, 0, 2] and then [0, 2, 1]: one transpose, axes
     * [1, 2, 0]. */
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3,4]");
    Onnx__NodeProto *t = mb_node(&m, "Transpose", "t1", "x", "a");
    attr_ints(&m, t, "perm", 3, 1, 0, 2);
    t = mb_node(&m, "Transpose", "t2", "a", "b");
    attr_ints(&m, t, "perm", 3, 0, 2, 1);
    mb_node(&m, "Relu", "relu", "b", "y");
    mb_output(&m, "y", "float[3,4,2]");
    g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "transpose"), 1);
    ck_assert_str_eq(attr_text(g, find_op(g, "transpose"), "axes"), "[1, 2, 0]");
    ck_assert_str_eq(output_type(g), "Tensor[(3, 4, 2), float32]");
    byoc_graph_destroy(g);
}
END_TEST

/* The shape chains of every layer fold away, and inference types each
 * node once however many layers: loading is linear in the model.  A
 * second, whole-graph inference finds every type the same. */
START_TEST(shape_chains_are_inferred_once)
{
    int layers[] = {1, 10, 100};
    for (size_t k = 0; k < sizeof layers / sizeof layers[0]; k++) {
        size_t size;
        uint8_t *buf = gen_chains(layers[k], &size);
        byoc_graph *g = read_generated(buf, size);
        int n = byoc_graph_node_count(g);
        /* Per layer: MatMul as reshape, transpose of W, nn.dense, reshape;
         * bias add; two reshapes, two transposes, softmax, residual add;
         * and the two weights. */
        ck_assert_int_eq(n, 1 + 13 * layers[k]);
        ck_assert_int_eq(byoc_graph_infer_visits(g), n);
        byoc_tensor_type *types = malloc(sizeof *types * (size_t)n);
        ck_assert_ptr_nonnull(types);
        for (int i = 0; i < n; i++) {
            ck_assert_ptr_null(byoc_node_untyped_reason(g, i));
            types[i] = *byoc_node_type(g, i, -1);
        }
        ck_assert_int_eq(types[n - 1].rank, 3);
        ck_assert_int_eq(types[n - 1].dims[2], GEN_C);
        ck_assert_int_eq(byoc_graph_infer_types(g, &err), 0);
        ck_assert_int_eq(byoc_graph_infer_visits(g), 2 * n);
        for (int i = 0; i < n; i++)
            ck_assert_mem_eq(byoc_node_type(g, i, -1), &types[i], sizeof types[i]);
        free(types);
        byoc_graph_destroy(g);
    }
}
END_TEST

static Suite *onnx_suite(void)
{
    Suite *s = suite_create("onnx");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, available);
    tcase_add_test(core, concat_of_300_inputs);
    tcase_add_test(core, shape_chains_are_inferred_once);
    tcase_add_test(core, long_lines_are_not_recursed);
    tcase_add_test(core, conv_bias_relu);
    tcase_add_test(core, conv_auto_pad_and_groups);
    tcase_add_test(core, gemm);
    tcase_add_test(core, matmul);
    tcase_add_test(core, batch_norm);
    tcase_add_test(core, opset_split_squeeze);
    tcase_add_test(core, opset_clip);
    tcase_add_test(core, opset_pad);
    tcase_add_test(core, opset_unsqueeze_slice_reduce);
    tcase_add_test(core, out_of_order_nodes);
    tcase_add_test(core, initializer_listed_as_input);
    tcase_add_test(core, constant_as_reshape_shape);
    tcase_add_test(core, symbolic_dims);
    tcase_add_test(core, dimension_bindings);
    tcase_add_test(core, unmapped_op_is_opaque);
    tcase_add_test(core, declared_type_mismatch_is_a_note);
    tcase_add_test(core, dropout_identity_and_softmax);
    tcase_add_test(core, pools_concat_flatten);
    tcase_add_test(core, shape_arithmetic_folds);
    tcase_add_test(core, free_dimensions_flow_through_shape_arithmetic);
    tcase_add_test(core, free_dimension_shapes_passed_through);
    tcase_add_test(core, constant_arithmetic_folds);
    tcase_add_test(core, free_dimensions_reach_subgraphs);
    tcase_add_test(core, torch_pad_pattern_folds);
    tcase_add_test(core, every_mapped_op);
    tcase_add_test(core, if_branch_that_cannot_be_read_is_left_out);
    tcase_add_test(core, free_dimension_matmuls_stay_typed);
    tcase_add_test(core, free_dimension_resize_stays_typed);
    tcase_add_test(core, free_sequence_lstm_stays_typed);
    tcase_add_test(core, recurrent_unrolling_has_a_model_budget);
    tcase_add_test(core, folds_stop_where_arithmetic_overflows);
    tcase_add_test(core, folds_are_not_guesses);
    tcase_add_test(core, types_without_value_info);
    tcase_add_test(core, upsample_and_prelu);
    tcase_add_test(core, read_from_file);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, truncated_bytes);
    tcase_add_test(errors, wrong_field_types);
    tcase_add_test(errors, cycle);
    tcase_add_test(errors, dangling_input);
    tcase_add_test(errors, bad_attributes);
    tcase_add_test(errors, bad_tensors);
    tcase_add_test(errors, missing_file);
    tcase_add_test(errors, bad_sizes);
    tcase_add_test(errors, bad_opset_versions);
    tcase_add_test(errors, topk_k_past_the_axis);
    tcase_add_test(errors, reshape_shape_overflows);
    tcase_add_test(errors, pool_windows);
    tcase_add_test(errors, conv_attributes);
    tcase_add_test(errors, axes_out_of_range);
    tcase_add_test(errors, sizes_from_constants);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(onnx_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
