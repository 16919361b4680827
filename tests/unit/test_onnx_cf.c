/* Unit tests of ONNX control flow (runtime/onnx_cf.c and the subgraph
 * reading of runtime/onnx.c): an If whose condition is known becomes its
 * branch; otherwise If, Loop and Scan are one call holding typed
 * subgraphs (byoc_node_subgraph); nesting, outer-scope names, the depth
 * limit and malformed subgraphs. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>
#include <byoc/onnx.h>

#include "runtime/onnx.pb-c.h"
#include "tests/unit/onnx_mb.h"

/* The type of output i of a subgraph, printed Relay's way. */
static const char *sub_output_type(const byoc_graph *s, int i)
{
    static char buf[256];
    int out = byoc_graph_output(s);
    int n = byoc_node_field_count(s, out);
    const byoc_tensor_type *t = byoc_node_type(s, out, n < 0 ? -1 : i);
    ck_assert_ptr_nonnull(t);
    byoc_relay_format_type(s, t, buf, sizeof buf);
    return buf;
}

/* The type of input i of a subgraph (inputs in order), and its name. */
static int sub_input(const byoc_graph *s, int i)
{
    for (int k = 0; k < byoc_graph_node_count(s); k++)
        if (byoc_node_kind_of(s, k) == BYOC_N_INPUT && i-- == 0)
            return k;
    ck_abort_msg("no such subgraph input");
    return -1;
}

/* x: float[2,3]; If(cond) with then = Relu(x), else = Neg(x). */
static void if_model(mb *m, const char *cond)
{
    Onnx__NodeProto *n = mb_node(m, "If", "if", cond, "y");
    Onnx__GraphProto *t = mb_graph_attr(m, n, "then_branch");
    mb_sub_node(m, t, "Relu", "r", "x", "t");
    mb_sub_output(m, t, "t", NULL);
    Onnx__GraphProto *e = mb_graph_attr(m, n, "else_branch");
    mb_sub_node(m, e, "Neg", "ng", "x", "e");
    mb_sub_output(m, e, "e", NULL);
    mb_output(m, "y", NULL);
}

/* ---- Core ------------------------------------------------------------------------ */

START_TEST(if_constant_true_is_its_then_branch)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_bool(&m, "c", true);
    if_model(&m, "c");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "If"), 0);
    ck_assert_int_eq(count_op(g, "nn.relu"), 1);
    ck_assert_int_eq(count_op(g, "negative"), 0);
    ck_assert_int_eq(byoc_graph_output(g), find_op(g, "nn.relu"));
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3), float32]");
    ck_assert(has_note(g, "node 'if' (If): the condition is always true: replaced by its "
                          "then_branch"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(if_constant_false_is_its_else_branch)
{
    /* The condition is a Constant node's, and the branch's result is an
     * enclosing value itself. */
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    Onnx__NodeProto *k = mb_node(&m, "Constant", "k", "", "c");
    Onnx__AttributeProto *a =
        mb_attr(&m, k, "value", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
    a->t = mb_tensor(&m, "", "bool[1]");
    a->t->int32_data = mb_alloc(&m, sizeof(int32_t));
    a->t->n_int32_data = 1;
    Onnx__NodeProto *n = mb_node(&m, "If", "if", "c", "y,z");
    Onnx__GraphProto *t = mb_graph_attr(&m, n, "then_branch");
    mb_sub_node(&m, t, "Relu", "r", "x", "t");
    mb_sub_output(&m, t, "t", NULL);
    mb_sub_output(&m, t, "t", NULL);
    Onnx__GraphProto *e = mb_graph_attr(&m, n, "else_branch");
    mb_sub_node(&m, e, "Neg", "ng", "x", "e");
    mb_sub_output(&m, e, "e", NULL);
    mb_sub_output(&m, e, "x", NULL);
    mb_node(&m, "Add", "add", "y,z", "w");
    mb_output(&m, "w", NULL);
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "If"), 0);
    ck_assert_int_eq(count_op(g, "nn.relu"), 0);
    int add = find_op(g, "add");
    ck_assert_int_eq(byoc_node_arg(g, add, 0), find_op(g, "negative"));
    ck_assert_int_eq(byoc_node_arg(g, add, 1), find_name(g, "x"));
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3), float32]");
    ck_assert(has_note(g, "always false: replaced by its else_branch"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(if_condition_folded_from_shapes)
{
    /* Shape arithmetic the reader folds: Shape(x)[0] - 2 is known.  (A
     * valid model casts it to bool; the reader takes any number, nonzero
     * being true.) */
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_node(&m, "Shape", "sh", "x", "s");
    mb_ints(&m, "i0", 1, 0);
    mb_ints(&m, "two", 1, 2);
    mb_node(&m, "Gather", "ga", "s,i0", "d");
    mb_node(&m, "Sub", "sub", "d,two", "zero");
    mb_node(&m, "Squeeze", "sq", "zero", "c");
    if_model(&m, "c");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "If"), 0);
    /* 2 - 2 = 0: false. */
    ck_assert_int_eq(count_op(g, "negative"), 1);
    ck_assert_int_eq(count_op(g, "nn.relu"), 0);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(if_computed_condition_is_kept_with_typed_branches)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_input(&m, "a", "float[]");
    mb_scalar(&m, "zero", 0);
    mb_node(&m, "Greater", "gt", "a,zero", "c");
    Onnx__NodeProto *n = mb_node(&m, "If", "if", "c", "y,z");
    Onnx__GraphProto *t = mb_graph_attr(&m, n, "then_branch");
    mb_sub_node(&m, t, "Relu", "r", "x", "t");
    mb_sub_output(&m, t, "t", NULL);
    mb_sub_output(&m, t, "x", NULL);
    Onnx__GraphProto *e = mb_graph_attr(&m, n, "else_branch");
    mb_sub_node(&m, e, "Neg", "ng", "x", "e");
    Onnx__NodeProto *cc = mb_sub_node(&m, e, "Concat", "cat", "x,x", "e2");
    attr_int(&m, cc, "axis", 0);
    mb_sub_output(&m, e, "e", NULL);
    mb_sub_output(&m, e, "e2", NULL);
    mb_output(&m, "y", NULL);
    mb_output(&m, "z", NULL);
    byoc_graph *g = read_ok(&m);
    int h = find_op(g, "If");
    ck_assert(byoc_node_is_opaque(g, h));
    /* The condition, then x, which the branches read. */
    ck_assert_int_eq(byoc_node_arg_count(g, h), 2);
    ck_assert_int_eq(byoc_node_arg(g, h, 0), find_op(g, "greater"));
    ck_assert_int_eq(byoc_node_arg(g, h, 1), find_name(g, "x"));
    ck_assert_int_eq(byoc_node_subgraph_count(g, h), 2);
    ck_assert_str_eq(byoc_node_subgraph_name(g, h, 0), "then_branch");
    ck_assert_str_eq(byoc_node_subgraph_name(g, h, 1), "else_branch");
    ck_assert_ptr_null(byoc_node_subgraph(g, h, 2));
    const byoc_graph *then_g = byoc_node_subgraph(g, h, 0), *else_g = byoc_node_subgraph(g, h, 1);
    ck_assert_ptr_eq(byoc_graph_parent(then_g), g);
    ck_assert_int_eq(count_op(then_g, "nn.relu"), 1);
    ck_assert_int_eq(count_op(else_g, "negative"), 1);
    ck_assert_int_eq(count_op(else_g, "concatenate"), 1);
    /* The enclosing x is each branch's input, typed as it is outside. */
    int xi = sub_input(then_g, 0);
    ck_assert_str_eq(byoc_node_name(then_g, xi), "x");
    ck_assert_str_eq(type_text(then_g, xi), "Tensor[(2, 3), float32]");
    ck_assert_str_eq(sub_output_type(then_g, 0), "Tensor[(2, 3), float32]");
    ck_assert_str_eq(sub_output_type(else_g, 1), "Tensor[(4, 3), float32]");
    /* Undeclared outputs: what both branches agree on. */
    int y = find_name(g, "y"), z = find_name(g, "z");
    ck_assert_str_eq(type_text(g, y), "Tensor[(2, 3), float32]");
    ck_assert_str_eq(type_text(g, z), "Tensor[(?, 3), float32]");
    ck_assert(has_note(g, "node 'if' (If): kept as one opaque call holding 2 subgraphs"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(if_declared_outputs_win)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_input(&m, "c", "bool[]");
    Onnx__NodeProto *n = mb_node(&m, "If", "if", "c", "y");
    Onnx__GraphProto *t = mb_graph_attr(&m, n, "then_branch");
    mb_sub_node(&m, t, "Relu", "r", "x", "t");
    mb_sub_output(&m, t, "t", NULL);
    Onnx__GraphProto *e = mb_graph_attr(&m, n, "else_branch");
    Onnx__NodeProto *cc = mb_sub_node(&m, e, "Concat", "cat", "x,x", "e");
    attr_int(&m, cc, "axis", 0);
    mb_sub_output(&m, e, "e", NULL);
    mb_output(&m, "y", "float[N,3]");
    byoc_graph *g = read_ok(&m);
    ck_assert_str_eq(output_type(g), "Tensor[(N, 3), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(if_branch_declarations_fill_inference)
{
    /* Relu of an input of no known shape is untyped; the branch's
     * declaration of its output stands in when the branches are joined. */
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_input(&m, "u", "float");
    mb_input(&m, "c", "bool[]");
    Onnx__NodeProto *n = mb_node(&m, "If", "if", "c", "y");
    Onnx__GraphProto *t = mb_graph_attr(&m, n, "then_branch");
    mb_sub_node(&m, t, "Relu", "f", "u", "t");
    mb_sub_output(&m, t, "t", "float[2,3]");
    Onnx__GraphProto *e = mb_graph_attr(&m, n, "else_branch");
    mb_sub_node(&m, e, "Relu", "r", "x", "e");
    mb_sub_output(&m, e, "e", NULL);
    mb_output(&m, "y", NULL);
    byoc_graph *g = read_ok(&m);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(loop_is_kept_with_its_body_typed)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_input(&m, "n", "int64[]");
    mb_input(&m, "go", "bool[]");
    Onnx__NodeProto *n = mb_node(&m, "Loop", "loop", "n,go,x", "y,ys");
    Onnx__GraphProto *b = mb_graph_attr(&m, n, "body");
    mb_sub_input(&m, b, "i", NULL);
    mb_sub_input(&m, b, "cond", NULL);
    mb_sub_input(&m, b, "v", NULL);
    mb_sub_node(&m, b, "Identity", "id", "cond", "cond_out");
    mb_sub_node(&m, b, "Add", "add", "v,v", "v_out");
    mb_sub_node(&m, b, "Relu", "r", "v", "s");
    mb_sub_output(&m, b, "cond_out", NULL);
    mb_sub_output(&m, b, "v_out", NULL);
    mb_sub_output(&m, b, "s", NULL);
    mb_output(&m, "y", NULL);
    mb_output(&m, "ys", NULL);
    byoc_graph *g = read_ok(&m);
    int h = find_op(g, "Loop");
    ck_assert_int_eq(byoc_node_arg_count(g, h), 3);
    ck_assert_int_eq(byoc_node_subgraph_count(g, h), 1);
    ck_assert_str_eq(byoc_node_subgraph_name(g, h, 0), "body");
    const byoc_graph *body = byoc_node_subgraph(g, h, 0);
    ck_assert_str_eq(type_text(body, sub_input(body, 0)), "Tensor[(), int64]");
    ck_assert_str_eq(type_text(body, sub_input(body, 1)), "Tensor[(), bool]");
    ck_assert_str_eq(type_text(body, sub_input(body, 2)), "Tensor[(2, 3), float32]");
    ck_assert_str_eq(sub_output_type(body, 1), "Tensor[(2, 3), float32]");
    ck_assert_int_eq(count_op(body, "add"), 1);
    ck_assert_int_eq(count_op(body, "nn.relu"), 1);
    /* A carried value keeps its type; a scan output stacks its slices. */
    ck_assert_str_eq(type_text(g, find_name(g, "y")), "Tensor[(2, 3), float32]");
    ck_assert_str_eq(type_text(g, find_name(g, "ys")), "Tensor[(?, 2, 3), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(scan_is_kept_with_its_body_typed)
{
    mb m;
    mb_init(&m, 11, 7);
    mb_input(&m, "s0", "float[3]");
    mb_input(&m, "xs", "float[5,3]");
    Onnx__NodeProto *n = mb_node(&m, "Scan", "scan", "s0,xs", "s,ys");
    attr_int(&m, n, "num_scan_inputs", 1);
    attr_ints(&m, n, "scan_output_axes", 1, -1);
    Onnx__GraphProto *b = mb_graph_attr(&m, n, "body");
    mb_sub_input(&m, b, "st", NULL);
    mb_sub_input(&m, b, "x", NULL);
    mb_sub_node(&m, b, "Add", "add", "st,x", "st_out");
    mb_sub_node(&m, b, "Relu", "r", "x", "y");
    mb_sub_output(&m, b, "st_out", NULL);
    mb_sub_output(&m, b, "y", NULL);
    mb_output(&m, "s", NULL);
    mb_output(&m, "ys", NULL);
    byoc_graph *g = read_ok(&m);
    int h = find_op(g, "Scan");
    const byoc_graph *body = byoc_node_subgraph(g, h, 0);
    ck_assert_ptr_nonnull(body);
    /* The scan input's slice: its first axis removed. */
    ck_assert_str_eq(type_text(body, sub_input(body, 0)), "Tensor[(3,), float32]");
    ck_assert_str_eq(type_text(body, sub_input(body, 1)), "Tensor[(3,), float32]");
    ck_assert_str_eq(sub_output_type(body, 0), "Tensor[(3,), float32]");
    ck_assert_str_eq(type_text(g, find_name(g, "s")), "Tensor[(3,), float32]");
    /* Stacked on the last axis, five iterations. */
    ck_assert_str_eq(type_text(g, find_name(g, "ys")), "Tensor[(3, 5), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(scan_8_body_typed_as_declared)
{
    /* Scan 8 has sequence lengths and a batch axis: the body's inputs are
     * typed only as declared. */
    mb m;
    mb_init(&m, 8, 3);
    mb_input(&m, "s0", "float[1,3]");
    mb_input(&m, "xs", "float[1,5,3]");
    Onnx__NodeProto *n = mb_node(&m, "Scan", "scan", ",s0,xs", "s,ys");
    attr_int(&m, n, "num_scan_inputs", 1);
    Onnx__GraphProto *b = mb_graph_attr(&m, n, "body");
    mb_sub_input(&m, b, "st", "float[3]");
    mb_sub_input(&m, b, "x", NULL);
    mb_sub_node(&m, b, "Add", "add", "st,x", "st_out");
    mb_sub_node(&m, b, "Relu", "r", "x", "y");
    mb_sub_output(&m, b, "st_out", NULL);
    mb_sub_output(&m, b, "y", NULL);
    mb_output(&m, "s", "float[1,3]");
    mb_output(&m, "ys", NULL);
    byoc_graph *g = read_ok(&m);
    int h = find_op(g, "Scan");
    ck_assert_int_eq(byoc_node_arg_count(g, h), 2);
    const byoc_graph *body = byoc_node_subgraph(g, h, 0);
    ck_assert_str_eq(type_text(body, sub_input(body, 0)), "Tensor[(3,), float32]");
    ck_assert_ptr_nonnull(byoc_node_untyped_reason(body, find_op(body, "nn.relu")));
    ck_assert_str_eq(type_text(g, find_name(g, "s")), "Tensor[(1, 3), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(nested_subgraphs_and_outer_values)
{
    /* A kept If whose then_branch holds an If on a constant of the main
     * graph (taken in place, inside the subgraph) and an If on a
     * computed condition (kept: a subgraph of a subgraph, reading x two
     * levels up).  The else_branch reshapes with a shape of the main
     * graph, which stays a constant inside, so the Reshape maps. */
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_input(&m, "c", "bool[]");
    mb_input(&m, "d", "bool[]");
    mb_bool(&m, "yes", true);
    mb_ints(&m, "shape", 1, 6);
    Onnx__NodeProto *n = mb_node(&m, "If", "outer", "c", "y");
    Onnx__GraphProto *t = mb_graph_attr(&m, n, "then_branch");
    Onnx__NodeProto *i1 = mb_sub_node(&m, t, "If", "inner_const", "yes", "t1");
    Onnx__GraphProto *t1 = mb_graph_attr(&m, i1, "then_branch");
    mb_sub_node(&m, t1, "Relu", "r", "x", "r1");
    mb_sub_output(&m, t1, "r1", NULL);
    Onnx__GraphProto *e1 = mb_graph_attr(&m, i1, "else_branch");
    mb_sub_output(&m, e1, "x", NULL);
    Onnx__NodeProto *i2 = mb_sub_node(&m, t, "If", "inner_kept", "d", "t2");
    Onnx__GraphProto *t2 = mb_graph_attr(&m, i2, "then_branch");
    mb_sub_node(&m, t2, "Sigmoid", "sg", "x", "s2");
    mb_sub_output(&m, t2, "s2", NULL);
    Onnx__GraphProto *e2 = mb_graph_attr(&m, i2, "else_branch");
    mb_sub_node(&m, e2, "Tanh", "th", "t1", "h2");
    mb_sub_output(&m, e2, "h2", NULL);
    mb_sub_node(&m, t, "Reshape", "flat", "t2,shape", "t3");
    mb_sub_output(&m, t, "t3", NULL);
    Onnx__GraphProto *e = mb_graph_attr(&m, n, "else_branch");
    mb_sub_node(&m, e, "Reshape", "flat2", "x,shape", "e3");
    mb_sub_output(&m, e, "e3", NULL);
    mb_output(&m, "y", NULL);
    byoc_graph *g = read_ok(&m);
    int h = find_op(g, "If");
    /* c, then what the branches read: x, d, yes and shape. */
    ck_assert_int_eq(byoc_node_arg_count(g, h), 5);
    const byoc_graph *then_g = byoc_node_subgraph(g, h, 0);
    ck_assert_int_eq(count_op(then_g, "If"), 1);
    ck_assert_int_eq(count_op(then_g, "nn.relu"), 1);
    ck_assert_int_eq(count_op(then_g, "reshape"), 1);
    ck_assert_str_eq(attr_text(then_g, find_op(then_g, "reshape"), "newshape"), "[6]");
    int k = find_op(then_g, "If");
    ck_assert_int_eq(byoc_node_subgraph_count(then_g, k), 2);
    const byoc_graph *deep = byoc_node_subgraph(then_g, k, 0);
    ck_assert_ptr_eq(byoc_graph_parent(deep), then_g);
    ck_assert_int_eq(count_op(deep, "sigmoid"), 1);
    ck_assert_str_eq(byoc_node_name(deep, sub_input(deep, 0)), "x");
    ck_assert_str_eq(type_text(deep, sub_input(deep, 0)), "Tensor[(2, 3), float32]");
    /* The else_branch of the inner If reads t1, the relu of its parent. */
    const byoc_graph *deep_else = byoc_node_subgraph(then_g, k, 1);
    ck_assert_str_eq(byoc_node_name(deep_else, sub_input(deep_else, 0)), "t1");
    ck_assert_str_eq(sub_output_type(deep_else, 0), "Tensor[(2, 3), float32]");
    ck_assert_str_eq(output_type(g), "Tensor[(6,), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(symbolic_dims_in_subgraphs)
{
    /* x is [N, 3]: a kept branch's input has N too, named as outside, and
     * a branch taken in place reads a shape known only in part (Shape of
     * x), whose nodes the enclosing graph builds when a Neg needs it. */
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[N,3]");
    mb_input(&m, "c", "bool[]");
    mb_bool(&m, "yes", true);
    mb_node(&m, "Shape", "sh", "x", "s");
    Onnx__NodeProto *n = mb_node(&m, "If", "kept", "c", "y");
    Onnx__GraphProto *t = mb_graph_attr(&m, n, "then_branch");
    mb_sub_node(&m, t, "Relu", "r", "x", "t");
    mb_sub_output(&m, t, "t", NULL);
    Onnx__GraphProto *e = mb_graph_attr(&m, n, "else_branch");
    mb_sub_output(&m, e, "x", NULL);
    Onnx__NodeProto *k = mb_node(&m, "If", "taken", "yes", "z");
    t = mb_graph_attr(&m, k, "then_branch");
    mb_sub_node(&m, t, "Neg", "ng", "s", "ns");
    mb_sub_output(&m, t, "ns", NULL);
    e = mb_graph_attr(&m, k, "else_branch");
    mb_sub_output(&m, e, "s", NULL);
    mb_output(&m, "y", NULL);
    mb_output(&m, "z", NULL);
    byoc_graph *g = read_ok(&m);
    int h = find_op(g, "If");
    const byoc_graph *then_g = byoc_node_subgraph(g, h, 0);
    ck_assert_str_eq(type_text(then_g, sub_input(then_g, 0)), "Tensor[(N, 3), float32]");
    ck_assert_str_eq(sub_output_type(then_g, 0), "Tensor[(N, 3), float32]");
    ck_assert_str_eq(type_text(g, find_name(g, "y")), "Tensor[(N, 3), float32]");
    int neg = find_op(g, "negative");
    ck_assert_int_eq(byoc_node_arg(g, neg, 0), find_op(g, "shape_of"));
    int out = byoc_graph_output(g);
    ck_assert_int_eq(byoc_node_arg(g, out, 1), neg);
    ck_assert_str_eq(type_text(g, neg), "Tensor[(2,), int64]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(subgraph_names_shadow_outer_ones)
{
    /* The taken branch writes 't', which the main graph also writes
     * later: each scope keeps its own. */
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_bool(&m, "c", true);
    Onnx__NodeProto *n = mb_node(&m, "If", "if", "c", "y");
    Onnx__GraphProto *t = mb_graph_attr(&m, n, "then_branch");
    mb_sub_node(&m, t, "Relu", "r", "x", "t");
    mb_sub_output(&m, t, "t", NULL);
    Onnx__GraphProto *e = mb_graph_attr(&m, n, "else_branch");
    mb_sub_output(&m, e, "x", NULL);
    mb_node(&m, "Sigmoid", "sg", "y", "t");
    mb_output(&m, "t", NULL);
    byoc_graph *g = read_ok(&m);
    int s = find_op(g, "sigmoid");
    ck_assert_int_eq(byoc_graph_output(g), s);
    ck_assert_int_eq(byoc_node_arg(g, s, 0), find_op(g, "nn.relu"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(subgraph_order_follows_outer_reads)
{
    /* The If comes first in the model, but its branch reads 'r', which a
     * later node writes: the implicit input orders it after. */
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_input(&m, "c", "bool[]");
    Onnx__NodeProto *n = mb_node(&m, "If", "if", "c", "y");
    Onnx__GraphProto *t = mb_graph_attr(&m, n, "then_branch");
    mb_sub_node(&m, t, "Neg", "ng", "r", "t");
    mb_sub_output(&m, t, "t", NULL);
    Onnx__GraphProto *e = mb_graph_attr(&m, n, "else_branch");
    mb_sub_output(&m, e, "r", NULL);
    mb_node(&m, "Relu", "relu", "x", "r");
    mb_output(&m, "y", NULL);
    byoc_graph *g = read_ok(&m);
    int h = find_op(g, "If"), r = find_op(g, "nn.relu");
    ck_assert_int_lt(r, h);
    ck_assert_int_eq(byoc_node_arg(g, h, 1), r);
    ck_assert_str_eq(output_type(g), "Tensor[(2, 3), float32]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(graphs_attribute_of_an_unmapped_op)
{
    /* A list of graphs on an op byoc does not map: read, and what they
     * read from outside orders the node, which stays opaque. */
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    Onnx__NodeProto *n = mb_node(&m, "Frob", "frob", "x", "y");
    Onnx__GraphProto *g0 = mb_graph_attr(&m, n, "bodies");
    Onnx__GraphProto *g1 = mb_graph_attr(&m, n, "other");
    mb_sub_node(&m, g1, "Neg", "ng", "r", "t");
    mb_sub_output(&m, g1, "t", NULL);
    mb_sub_output(&m, g0, "x", NULL);
    /* Make the two one GRAPHS attribute. */
    Onnx__AttributeProto *a = n->attribute[0];
    a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPHS;
    a->g = NULL;
    a->graphs = mb_alloc(&m, sizeof(Onnx__GraphProto *) * 2);
    a->graphs[0] = g0;
    a->graphs[1] = g1;
    a->n_graphs = 2;
    n->n_attribute = 1;
    mb_node(&m, "Relu", "relu", "x", "r");
    mb_output(&m, "y", "float[2,3]");
    byoc_graph *g = read_ok(&m);
    ck_assert_int_lt(find_op(g, "nn.relu"), find_op(g, "Frob"));
    ck_assert_int_eq(byoc_node_subgraph_count(g, find_op(g, "Frob")), 0);
    byoc_graph_destroy(g);
    /* Nesting past the limit through such a list is refused too. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    n = mb_node(&m, "Frob", "f0", "x", "y");
    mb_output(&m, "y", NULL);
    for (int d = 1; d <= BYOC_MAX_GRAPH_DEPTH; d++) {
        Onnx__GraphProto *sub = mb_graph_attr(&m, n, "gs");
        Onnx__AttributeProto *at = n->attribute[n->n_attribute - 1];
        at->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPHS;
        at->g = NULL;
        at->graphs = mb_alloc(&m, sizeof(Onnx__GraphProto *));
        at->graphs[0] = sub;
        at->n_graphs = 1;
        char name[16];
        snprintf(name, sizeof name, "f%d", d);
        n = mb_sub_node(&m, sub, "Frob", name, "x", "o");
        mb_sub_output(&m, sub, "o", NULL);
    }
    ck_assert_ptr_nonnull(strstr(read_error(&m), "node 'f31' (Frob): attribute 'gs[0]': "
                                                 "subgraphs nest more than 32 deep"));
}
END_TEST

START_TEST(subgraph_api)
{
    byoc_graph *g = byoc_graph_create(reg), *s = byoc_graph_create(reg);
    byoc_tensor_type t = {BYOC_DT_FLOAT32, 1, {4}};
    int x = byoc_graph_add_input(g, "x", &t, &err);
    int call = byoc_graph_add_opaque(g, "If", &x, 1, &err);
    ck_assert_int_lt(byoc_graph_add_subgraph(g, x, "body", s, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.msg, "not a call"));
    ck_assert_int_lt(byoc_graph_add_subgraph(g, call, "body", g, &err), 0);
    ck_assert_int_eq(byoc_graph_add_subgraph(g, call, "body", s, &err), 0);
    ck_assert_int_lt(byoc_graph_add_subgraph(g, call, "again", s, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.msg, "already held"));
    /* g holds s: s cannot hold g. */
    int y = byoc_graph_add_input(s, "y", &t, &err);
    int inner = byoc_graph_add_opaque(s, "Loop", &y, 1, &err);
    ck_assert_int_lt(byoc_graph_add_subgraph(s, inner, "body", g, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.msg, "itself"));
    /* A chain as deep as allowed, and one more. */
    byoc_graph *chain[BYOC_MAX_GRAPH_DEPTH];
    int node[BYOC_MAX_GRAPH_DEPTH];
    for (int i = 0; i < BYOC_MAX_GRAPH_DEPTH; i++) {
        chain[i] = byoc_graph_create(reg);
        node[i] = byoc_graph_add_opaque(chain[i], "If", NULL, 0, &err);
    }
    for (int i = BYOC_MAX_GRAPH_DEPTH - 1; i > 0; i--)
        ck_assert_int_eq(byoc_graph_add_subgraph(chain[i - 1], node[i - 1], "b", chain[i], &err),
                         0);
    ck_assert_int_lt(byoc_graph_add_subgraph(s, inner, "body", chain[0], &err), 0);
    ck_assert_ptr_nonnull(strstr(err.msg, "nest"));
    ck_assert_int_eq(byoc_node_subgraph_count(g, call), 1);
    ck_assert_int_eq(byoc_node_subgraph_count(g, x), 0);
    ck_assert_ptr_eq(byoc_node_subgraph(g, call, 0), s);
    ck_assert_ptr_null(byoc_graph_parent(g));
    byoc_graph_destroy(chain[0]);
    byoc_graph_destroy(g);
}
END_TEST

/* ---- Errors ---------------------------------------------------------------------- */

START_TEST(nesting_past_the_limit)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2]");
    mb_input(&m, "c", "bool[]");
    /* Each then_branch holds the next If: depth 2, 3, ... */
    Onnx__NodeProto *n = mb_node(&m, "If", "if0", "c", "y");
    mb_output(&m, "y", NULL);
    for (int d = 1; d <= BYOC_MAX_GRAPH_DEPTH; d++) {
        char name[16], out[16];
        Onnx__GraphProto *t = mb_graph_attr(&m, n, "then_branch");
        Onnx__GraphProto *e = mb_graph_attr(&m, n, "else_branch");
        mb_sub_output(&m, e, "x", NULL);
        snprintf(name, sizeof name, "if%d", d);
        snprintf(out, sizeof out, "o%d", d);
        n = mb_sub_node(&m, t, "If", name, "c", out);
        mb_sub_output(&m, t, out, NULL);
    }
    const char *msg = read_error(&m);
    ck_assert_ptr_nonnull(strstr(msg, "model.onnx: error: node 'if0' (If): then_branch: "
                                      "node 'if1' (If): then_branch: "));
    ck_assert_ptr_nonnull(strstr(msg, "then_branch: ...: node 'if29' (If): then_branch: "
                                      "node 'if30' (If): then_branch: node 'if31' (If): "
                                      "attribute 'then_branch': subgraphs nest more than 32 "
                                      "deep"));
}
END_TEST

START_TEST(nesting_at_the_limit)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2]");
    mb_input(&m, "c", "bool[]");
    Onnx__NodeProto *n = mb_node(&m, "If", "if0", "c", "y");
    mb_output(&m, "y", NULL);
    for (int d = 1; d < BYOC_MAX_GRAPH_DEPTH; d++) {
        char name[16], out[16];
        Onnx__GraphProto *t = mb_graph_attr(&m, n, "then_branch");
        Onnx__GraphProto *e = mb_graph_attr(&m, n, "else_branch");
        mb_sub_output(&m, e, "x", NULL);
        snprintf(name, sizeof name, "if%d", d);
        snprintf(out, sizeof out, "o%d", d);
        if (d == BYOC_MAX_GRAPH_DEPTH - 1) {
            mb_sub_node(&m, t, "Relu", name, "x", out);
        } else {
            n = mb_sub_node(&m, t, "If", name, "c", out);
        }
        mb_sub_output(&m, t, out, NULL);
    }
    byoc_graph *g = read_ok(&m);
    const byoc_graph *s = g;
    int depth = 1;
    for (;;) {
        int h = -1;
        for (int i = 0; i < byoc_graph_node_count(s); i++)
            if (byoc_node_subgraph_count(s, i))
                h = i;
        if (h < 0)
            break;
        s = byoc_node_subgraph(s, h, 0);
        depth++;
    }
    ck_assert_int_eq(depth, BYOC_MAX_GRAPH_DEPTH);
    ck_assert_int_eq(count_op(s, "nn.relu"), 1);
    ck_assert_str_eq(output_type(g), "Tensor[(2,), float32]");
    byoc_graph_destroy(g);
}
END_TEST

/* Relu(x) -> y, with y declared as a sequence of sequences ... levels
 * deep: protobuf messages that nest without any subgraph. */
static void nested_types_model(mb *m, int levels)
{
    mb_init(m, 13, 7);
    mb_input(m, "x", "float[2]");
    Onnx__ValueInfoProto *v = mb_vi(m, "y", NULL);
    Onnx__TypeProto **slot = &v->type;
    for (int i = 0; i < levels; i++) {
        Onnx__TypeProto *t = mb_alloc(m, sizeof *t);
        Onnx__TypeProto__Sequence *sq = mb_alloc(m, sizeof *sq);
        onnx__type_proto__init(t);
        onnx__type_proto__sequence__init(sq);
        t->value_case = ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE;
        t->sequence_type = sq;
        *slot = t;
        slot = &sq->elem_type;
    }
    m->infos[m->graph.n_value_info++] = v;
    mb_node(m, "Relu", "r", "x", "y");
    mb_output(m, "y", NULL);
}

START_TEST(messages_nested_past_the_limit)
{
    /* protobuf-c would recurse once per level: the reader refuses first. */
    mb m;
    nested_types_model(&m, 20);
    byoc_graph *g = read_ok(&m);
    ck_assert_int_eq(count_op(g, "nn.relu"), 1);
    byoc_graph_destroy(g);
    nested_types_model(&m, 1000);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: the model's messages nest more than "
                                     "160 deep (subgraphs or types nested far past what byoc "
                                     "reads)");
}
END_TEST

/* The same for maps of maps, optionals of optionals, and a type held by an
 * attribute: each a path through which protobuf-c would recurse. */
START_TEST(types_nested_past_the_limit)
{
    for (int form = 0; form < 3; form++) {
        mb m;
        mb_init(&m, 13, 7);
        mb_input(&m, "x", "float[2]");
        Onnx__NodeProto *n = mb_node(&m, "Relu", "r", "x", "y");
        mb_output(&m, "y", NULL);
        Onnx__TypeProto *top = NULL, **slot = &top;
        for (int i = 0; i < 1000; i++) {
            Onnx__TypeProto *t = mb_alloc(&m, sizeof *t);
            onnx__type_proto__init(t);
            *slot = t;
            if (form == 1) {
                Onnx__TypeProto__Optional *o = mb_alloc(&m, sizeof *o);
                onnx__type_proto__optional__init(o);
                t->value_case = ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE;
                t->optional_type = o;
                slot = &o->elem_type;
            } else {
                Onnx__TypeProto__Map *mp = mb_alloc(&m, sizeof *mp);
                onnx__type_proto__map__init(mp);
                mp->has_key_type = 1;
                mp->key_type = 7;
                t->value_case = ONNX__TYPE_PROTO__VALUE_MAP_TYPE;
                t->map_type = mp;
                slot = &mp->value_type;
            }
        }
        if (form < 2) {
            Onnx__ValueInfoProto *v = mb_vi(&m, "y", NULL);
            v->type = top;
            m.infos[m.graph.n_value_info++] = v;
        } else {
            mb_attr(&m, n, "t", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TYPE_PROTO)->tp = top;
        }
        ck_assert_str_eq(read_error(&m), "model.onnx: error: the model's messages nest more "
                                         "than 160 deep (subgraphs or types nested far past "
                                         "what byoc reads)");
    }
}
END_TEST

/* A subgraph's declarations are checked as the main graph's, the message
 * naming where the subgraph is. */
START_TEST(subgraph_negative_size)
{
    mb m;
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_input(&m, "c", "bool[]");
    if_model(&m, "c");
    Onnx__GraphProto *t = m.nodes[0]->attribute[0]->g;
    t->output[0]->type = mb_type(&m, "float[2,3]");
    t->output[0]->type->tensor_type->shape->dim[1]->dim_value = -3;
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'if' (If): then_branch: graph "
                                     "output 't' has size -3 at axis 1; a size is 0 or more");
}
END_TEST

START_TEST(malformed_subgraphs)
{
    mb m;
    /* A missing branch. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_input(&m, "c", "bool[]");
    Onnx__NodeProto *n = mb_node(&m, "If", "if", "c", "y");
    Onnx__GraphProto *t = mb_graph_attr(&m, n, "then_branch");
    mb_sub_output(&m, t, "x", NULL);
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m),
                     "model.onnx: error: node 'if' (If): has no attribute 'else_branch'");
    /* Branch outputs that do not match the node's. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_input(&m, "c", "bool[]");
    n = mb_node(&m, "If", "if", "c", "y");
    t = mb_graph_attr(&m, n, "then_branch");
    mb_sub_output(&m, t, "x", NULL);
    mb_sub_output(&m, t, "x", NULL);
    Onnx__GraphProto *e = mb_graph_attr(&m, n, "else_branch");
    mb_sub_output(&m, e, "x", NULL);
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m),
                     "model.onnx: error: node 'if' (If): then_branch has 2 outputs; the node has 1");
    /* The same when the condition is known. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_bool(&m, "c", false);
    n = mb_node(&m, "If", "if", "c", "y,z");
    t = mb_graph_attr(&m, n, "then_branch");
    mb_sub_output(&m, t, "x", NULL);
    mb_sub_output(&m, t, "x", NULL);
    e = mb_graph_attr(&m, n, "else_branch");
    mb_sub_output(&m, e, "x", NULL);
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m),
                     "model.onnx: error: node 'if' (If): else_branch has 1 output; the node has 2");
    /* A graph attribute that holds no graph. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_input(&m, "c", "bool[]");
    n = mb_node(&m, "If", "if", "c", "y");
    mb_attr(&m, n, "then_branch", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH);
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'if' (If): attribute "
                                     "'then_branch' is a graph but holds none");
    /* A branch that is not a graph. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_input(&m, "c", "bool[]");
    n = mb_node(&m, "If", "if", "c", "y");
    attr_int(&m, n, "then_branch", 1);
    e = mb_graph_attr(&m, n, "else_branch");
    mb_sub_output(&m, e, "x", NULL);
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'if' (If): attribute "
                                     "'then_branch' is not a graph");
    /* A branch reading a name nobody writes: located at the If. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_input(&m, "c", "bool[]");
    if_model(&m, "c");
    mb_sub_node(&m, m.nodes[0]->attribute[0]->g, "Relu", "bad", "nope", "unused");
    ck_assert_ptr_nonnull(strstr(read_error(&m), "node 'if' (If): input 'nope' is not written"));
    /* A node inside a branch that cannot be read with its input's shape:
     * the message names the path.  Only one branch runs, so while the other
     * reads this one is left out with that message as a note; in a taken
     * branch it is the model's error. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_input(&m, "c", "bool[]");
    if_model(&m, "c");
    Onnx__NodeProto *bad = mb_sub_node(&m, m.nodes[0]->attribute[1]->g, "Transpose", "tr", "x",
                                       "unused");
    attr_ints(&m, bad, "perm", 1, 0);
    byoc_graph *g = read_ok(&m);
    ck_assert(has_note(g, "node 'if' (If): its else_branch is left out, since it cannot be read "
                          "with these shapes: else_branch: node 'tr' (Transpose): "));
    byoc_graph_destroy(g);
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_bool(&m, "c", false);
    if_model(&m, "c");
    bad = mb_sub_node(&m, m.nodes[0]->attribute[1]->g, "Transpose", "tr", "x", "unused");
    attr_ints(&m, bad, "perm", 1, 0);
    ck_assert_ptr_nonnull(strstr(read_error(&m), "model.onnx: error: node 'if' (If): "
                                                 "else_branch: node 'tr' (Transpose): "));
    /* A condition of two elements. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    Onnx__TensorProto *c2 = mb_weight(&m, "c", "bool[2]");
    c2->int32_data = mb_alloc(&m, 2 * sizeof(int32_t));
    c2->n_int32_data = 2;
    if_model(&m, "c");
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'if' (If): the condition has 2 "
                                     "elements; If takes one");
    /* A taken branch with inputs. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_bool(&m, "c", true);
    if_model(&m, "c");
    mb_sub_input(&m, m.nodes[0]->attribute[0]->g, "w", "float[2,3]");
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'if' (If): then_branch has 1 "
                                     "inputs; a branch takes none");
}
END_TEST

START_TEST(malformed_loop_and_scan)
{
    mb m;
    /* A body without the condition's input. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    Onnx__NodeProto *n = mb_node(&m, "Loop", "loop", ",,x", "y");
    Onnx__GraphProto *b = mb_graph_attr(&m, n, "body");
    mb_sub_input(&m, b, "i", NULL);
    mb_sub_input(&m, b, "v", NULL);
    mb_sub_output(&m, b, "v", NULL);
    mb_sub_output(&m, b, "v", NULL);
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'loop' (Loop): body has 2 inputs; "
                                     "with 1 loop-carried values it takes 3");
    /* No body. */
    mb_init(&m, 13, 7);
    mb_input(&m, "x", "float[2,3]");
    mb_node(&m, "Loop", "loop", ",,x", "y");
    mb_output(&m, "y", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'loop' (Loop): has no attribute "
                                     "'body'");
    /* A scan without num_scan_inputs, and with too many. */
    for (int k = 0; k < 2; k++) {
        mb_init(&m, 11, 7);
        mb_input(&m, "xs", "float[5,3]");
        n = mb_node(&m, "Scan", "scan", "xs", "ys");
        if (k)
            attr_int(&m, n, "num_scan_inputs", 3);
        b = mb_graph_attr(&m, n, "body");
        mb_sub_input(&m, b, "x", NULL);
        mb_sub_output(&m, b, "x", NULL);
        mb_output(&m, "ys", NULL);
        ck_assert_str_eq(read_error(&m),
                         k ? "model.onnx: error: node 'scan' (Scan): num_scan_inputs is 3; the "
                             "node has 1 inputs"
                           : "model.onnx: error: node 'scan' (Scan): has no attribute "
                             "'num_scan_inputs'");
    }
    /* A scan axis out of range. */
    mb_init(&m, 11, 7);
    mb_input(&m, "xs", "float[5,3]");
    n = mb_node(&m, "Scan", "scan", "xs", "ys");
    attr_int(&m, n, "num_scan_inputs", 1);
    attr_ints(&m, n, "scan_input_axes", 1, 2);
    b = mb_graph_attr(&m, n, "body");
    mb_sub_input(&m, b, "x", NULL);
    mb_sub_output(&m, b, "x", NULL);
    mb_output(&m, "ys", NULL);
    ck_assert_str_eq(read_error(&m), "model.onnx: error: node 'scan' (Scan): attribute "
                                     "'scan_input_axes': axis 2 is out of range for rank 2");
}
END_TEST

static Suite *onnx_cf_suite(void)
{
    Suite *s = suite_create("onnx_cf");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, if_constant_true_is_its_then_branch);
    tcase_add_test(core, if_constant_false_is_its_else_branch);
    tcase_add_test(core, if_condition_folded_from_shapes);
    tcase_add_test(core, if_computed_condition_is_kept_with_typed_branches);
    tcase_add_test(core, if_declared_outputs_win);
    tcase_add_test(core, if_branch_declarations_fill_inference);
    tcase_add_test(core, loop_is_kept_with_its_body_typed);
    tcase_add_test(core, scan_is_kept_with_its_body_typed);
    tcase_add_test(core, scan_8_body_typed_as_declared);
    tcase_add_test(core, nested_subgraphs_and_outer_values);
    tcase_add_test(core, symbolic_dims_in_subgraphs);
    tcase_add_test(core, subgraph_names_shadow_outer_ones);
    tcase_add_test(core, subgraph_order_follows_outer_reads);
    tcase_add_test(core, graphs_attribute_of_an_unmapped_op);
    tcase_add_test(core, subgraph_api);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, nesting_past_the_limit);
    tcase_add_test(errors, nesting_at_the_limit);
    tcase_add_test(errors, messages_nested_past_the_limit);
    tcase_add_test(errors, types_nested_past_the_limit);
    tcase_add_test(errors, subgraph_negative_size);
    tcase_add_test(errors, malformed_subgraphs);
    tcase_add_test(errors, malformed_loop_and_scan);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(onnx_cf_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
