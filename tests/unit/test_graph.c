/* Unit tests of the graph (runtime/graph.c): building nodes checked
 * against a hand-written op table, attribute defaults and copies, types of
 * tuples and projections, symbols, and every way building fails. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

#define INT(x) {.kind = BYOC_V_INT, .u.i = (x)}
#define FLOAT(x) {.kind = BYOC_V_FLOAT, .u.f = (x)}
#define STR(x) {.kind = BYOC_V_STRING, .u.s = (x)}
#define DT(x) {.kind = BYOC_V_DTYPE, .u.dt = BYOC_DT_##x}
#define LIST(items, n) {.kind = BYOC_V_LIST, .u.list = {(items), (n)}}
#define NONE {.kind = BYOC_V_NONE}

static const byoc_input_decl two_inputs[] = {{"data", false}, {"weight", false}};
static const byoc_input_decl one_input[] = {{"data", false}};
static const byoc_input_decl tuple_input[] = {{"data", true}};
static const byoc_value ones2[] = {INT(1), INT(1)};
static const byoc_attr_decl conv_attrs[] = {
    {.name = "strides", .type = {.base = BYOC_V_INT, .depth = 1}, .has_default = true,
     .def = LIST(ones2, 2)},
    {.name = "groups", .type = {.base = BYOC_V_INT}, .has_default = true, .def = INT(1)},
    {.name = "channels", .type = {.base = BYOC_V_INT, .optional = 1}},
    {.name = "data_layout", .type = {.base = BYOC_V_STRING}, .has_default = true,
     .def = STR("NCHW")},
    {.name = "out_dtype", .type = {.base = BYOC_V_DTYPE}, .has_default = true, .def = DT(VOID)},
    {.name = "alpha", .type = {.base = BYOC_V_FLOAT}, .has_default = true, .def = FLOAT(1.0)},
    {.name = "kernel_size", .type = {.base = BYOC_V_INT, .depth = 1}},   /* required */
};
static const byoc_attr_decl split_attrs[] = {
    {.name = "indices_or_sections",
     .type = {.base = BYOC_V_INT, .has_alt = 1, .alt_base = BYOC_V_INT, .alt_depth = 1},
     .has_default = true, .def = INT(1)},
};
static const byoc_op_decl ops[] = {
    {.name = "nn.conv2d", .kind = BYOC_OPK_OUT_ELEMWISE_FUSABLE, .ninputs = 2,
     .inputs = two_inputs, .nattrs = 7, .attrs = conv_attrs},
    {.name = "nn.relu", .kind = BYOC_OPK_ELEMWISE, .ninputs = 1, .inputs = one_input},
    {.name = "split", .kind = BYOC_OPK_INJECTIVE, .ninputs = 1, .inputs = one_input,
     .nattrs = 1, .attrs = split_attrs},
    {.name = "concatenate", .kind = BYOC_OPK_INJECTIVE, .ninputs = 1, .inputs = tuple_input},
};
static const byoc_module_decl module = {
    .abi = BYOC_ABI_VERSION, .name = "ops", .source = "ops.byoc", .nops = 4, .ops = ops,
};

static byoc_registry *reg;
static byoc_graph *g;

static void setup(void)
{
    byoc_error err;
    reg = byoc_registry_create();
    ck_assert_int_eq(byoc_registry_add(reg, &module, &err), 0);
    g = byoc_graph_create(reg);
    ck_assert_ptr_nonnull(g);
}

static void teardown(void)
{
    byoc_graph_destroy(g);
    byoc_registry_destroy(reg);
    g = NULL;
    reg = NULL;
}

static byoc_tensor_type tensor(byoc_dtype dt, int rank, const int64_t *dims)
{
    byoc_tensor_type t;
    memset(&t, 0, sizeof t);
    t.dtype = dt;
    t.rank = rank;
    for (int i = 0; i < rank; i++)
        t.dims[i] = dims[i];
    return t;
}

static const char *text(const byoc_value *v)
{
    static char buf[256];
    ck_assert_ptr_nonnull(v);
    byoc_value_format(v, buf, sizeof buf);
    return buf;
}

/* x: input, w: const, c = nn.conv2d(x, w); returns c. */
static int conv(int *x, int *w)
{
    byoc_error err;
    int64_t xd[] = {1, 3, 224, 224}, wd[] = {64, 3, 7, 7};
    byoc_tensor_type xt = tensor(BYOC_DT_FLOAT32, 4, xd), wt = tensor(BYOC_DT_FLOAT32, 4, wd);
    *x = byoc_graph_add_input(g, "x", &xt, &err);
    *w = byoc_graph_add_const(g, &wt, NULL, &err);
    int args[] = {*x, *w};
    int c = byoc_graph_add_call(g, "nn.conv2d", args, 2, &err);
    ck_assert_msg(c >= 0, "%s", err.msg);
    return c;
}

/* ---- Core --------------------------------------------------------------- */

START_TEST(build_and_read)
{
    int x, w;
    int c = conv(&x, &w);
    ck_assert_int_eq(x, 0);
    ck_assert_int_eq(w, 1);
    ck_assert_int_eq(c, 2);
    ck_assert_int_eq(byoc_graph_node_count(g), 3);
    ck_assert_ptr_eq(byoc_graph_registry(g), reg);
    ck_assert_int_eq(byoc_node_kind_of(g, x), BYOC_N_INPUT);
    ck_assert_int_eq(byoc_node_kind_of(g, w), BYOC_N_CONST);
    ck_assert_int_eq(byoc_node_kind_of(g, c), BYOC_N_CALL);
    ck_assert_str_eq(byoc_node_name(g, x), "x");
    ck_assert_ptr_eq(byoc_node_op(g, c), &ops[0]);
    ck_assert_ptr_null(byoc_node_op(g, x));
    ck_assert_int_eq(byoc_node_arg_count(g, c), 2);
    ck_assert_int_eq(byoc_node_arg(g, c, 0), x);
    ck_assert_int_eq(byoc_node_arg(g, c, 1), w);
    ck_assert_int_eq(byoc_node_arg_count(g, x), 0);
    ck_assert_ptr_null(byoc_node_const_value(g, w));    /* weights not loaded */
    const byoc_tensor_type *xt = byoc_node_type(g, x, -1);
    ck_assert_int_eq(xt->dtype, BYOC_DT_FLOAT32);
    ck_assert_int_eq(xt->rank, 4);
    ck_assert_int_eq(xt->dims[3], 224);
    ck_assert_int_eq(byoc_node_field_count(g, x), -1);
    /* A call's type is not known until set. */
    const byoc_tensor_type *ct = byoc_node_type(g, c, -1);
    ck_assert_int_eq(ct->rank, -1);
    ck_assert_int_eq(ct->dtype, BYOC_DT_VOID);
    int64_t od[] = {1, 64, 109, 109};
    byoc_tensor_type ot = tensor(BYOC_DT_FLOAT32, 4, od);
    byoc_graph_set_type(g, c, &ot);
    ck_assert_int_eq(byoc_node_type(g, c, -1)->dims[2], 109);
}
END_TEST

START_TEST(attribute_defaults)
{
    int x, w;
    int c = conv(&x, &w);
    ck_assert_str_eq(text(byoc_node_attr(g, c, "strides")), "[1, 1]");
    ck_assert_str_eq(text(byoc_node_attr(g, c, "groups")), "1");
    ck_assert_str_eq(text(byoc_node_attr(g, c, "data_layout")), "\"NCHW\"");
    ck_assert_str_eq(text(byoc_node_attr(g, c, "out_dtype")), "\"\"");
    /* Optional without default, and required: None until set. */
    ck_assert_int_eq(byoc_node_attr(g, c, "channels")->kind, BYOC_V_NONE);
    ck_assert_int_eq(byoc_node_attr(g, c, "kernel_size")->kind, BYOC_V_NONE);
    ck_assert_ptr_eq(byoc_node_attr_at(g, c, 1), byoc_node_attr(g, c, "groups"));
    ck_assert_ptr_null(byoc_node_attr(g, c, "no_such"));
    ck_assert_ptr_null(byoc_node_attr(g, x, "groups"));
    ck_assert_ptr_null(byoc_node_attr_at(g, c, 7));
}
END_TEST

START_TEST(attribute_values_are_copied_and_converted)
{
    byoc_error err;
    int x, w;
    int c = conv(&x, &w);
    byoc_value items[] = {INT(2), INT(2)};
    byoc_value strides = LIST(items, 2);
    ck_assert_int_eq(byoc_graph_set_attr(g, c, "strides", &strides, &err), 0);
    items[0].u.i = 9;
    ck_assert_str_eq(text(byoc_node_attr(g, c, "strides")), "[2, 2]");
    char layout[] = "NHWC";
    byoc_value l = STR(layout);
    ck_assert_int_eq(byoc_graph_set_attr(g, c, "data_layout", &l, &err), 0);
    layout[1] = 'C';
    ck_assert_str_eq(text(byoc_node_attr(g, c, "data_layout")), "\"NHWC\"");
    /* An int for a float attribute becomes a float; a dtype's name a dtype. */
    byoc_value two = INT(2), f16 = STR("float16");
    ck_assert_int_eq(byoc_graph_set_attr(g, c, "alpha", &two, &err), 0);
    ck_assert_int_eq(byoc_node_attr(g, c, "alpha")->kind, BYOC_V_FLOAT);
    ck_assert_str_eq(text(byoc_node_attr(g, c, "alpha")), "2.0");
    ck_assert_int_eq(byoc_graph_set_attr(g, c, "out_dtype", &f16, &err), 0);
    ck_assert_int_eq(byoc_node_attr(g, c, "out_dtype")->kind, BYOC_V_DTYPE);
    ck_assert_int_eq(byoc_node_attr(g, c, "out_dtype")->u.dt, BYOC_DT_FLOAT16);
    byoc_value none = NONE, sixty_four = INT(64);
    ck_assert_int_eq(byoc_graph_set_attr(g, c, "channels", &sixty_four, &err), 0);
    ck_assert_str_eq(text(byoc_node_attr(g, c, "channels")), "64");
    ck_assert_int_eq(byoc_graph_set_attr(g, c, "channels", &none, &err), 0);
    ck_assert_str_eq(text(byoc_node_attr(g, c, "channels")), "None");
    /* A union attribute takes either alternative. */
    int s = byoc_graph_add_call(g, "split", &x, 1, &err);
    byoc_value idx[] = {INT(3), INT(7)};
    byoc_value sections = LIST(idx, 2);
    ck_assert_int_eq(byoc_graph_set_attr(g, s, "indices_or_sections", &sections, &err), 0);
    ck_assert_str_eq(text(byoc_node_attr(g, s, "indices_or_sections")), "[3, 7]");
    ck_assert_int_eq(byoc_graph_set_attr(g, s, "indices_or_sections", &two, &err), 0);
    ck_assert_str_eq(text(byoc_node_attr(g, s, "indices_or_sections")), "2");
    /* A second call of the op starts again at the defaults. */
    int args[] = {x, w};
    int c2 = byoc_graph_add_call(g, "nn.conv2d", args, 2, &err);
    ck_assert_str_eq(text(byoc_node_attr(g, c2, "strides")), "[1, 1]");
}
END_TEST

START_TEST(constant_values_are_copied)
{
    byoc_error err;
    int64_t d[] = {2};
    byoc_tensor_type t = tensor(BYOC_DT_FLOAT32, 1, d);
    byoc_value items[] = {FLOAT(0.5), FLOAT(-1.0)};
    byoc_value v = LIST(items, 2);
    int k = byoc_graph_add_const(g, &t, &v, &err);
    items[1].u.f = 3.0;
    ck_assert_str_eq(text(byoc_node_const_value(g, k)), "[0.5, -1.0]");
}
END_TEST

START_TEST(tuples_and_projections)
{
    byoc_error err;
    int x, w;
    int c = conv(&x, &w);
    int64_t od[] = {1, 64, 109, 109};
    byoc_tensor_type ot = tensor(BYOC_DT_FLOAT16, 4, od);
    byoc_graph_set_type(g, c, &ot);
    int fields[] = {x, c};
    int t = byoc_graph_add_tuple(g, fields, 2, &err);
    ck_assert_int_eq(byoc_node_kind_of(g, t), BYOC_N_TUPLE);
    ck_assert_int_eq(byoc_node_field_count(g, t), 2);
    ck_assert_int_eq(byoc_node_arg(g, t, 1), c);
    /* A tuple-typed node has no type of its own, only its fields'. */
    ck_assert_ptr_null(byoc_node_type(g, t, -1));
    ck_assert_int_eq(byoc_node_type(g, t, 1)->dtype, BYOC_DT_FLOAT16);
    ck_assert_int_eq(byoc_node_type(g, t, 0)->dims[1], 3);
    ck_assert_ptr_null(byoc_node_type(g, t, 2));
    int p = byoc_graph_add_proj(g, t, 1, &err);
    ck_assert_int_eq(byoc_node_kind_of(g, p), BYOC_N_PROJ);
    ck_assert_int_eq(byoc_node_proj_index(g, p), 1);
    ck_assert_int_eq(byoc_node_arg(g, p, 0), t);
    ck_assert_int_eq(byoc_node_type(g, p, -1)->dtype, BYOC_DT_FLOAT16);
    int cat = byoc_graph_add_call(g, "concatenate", &t, 1, &err);
    ck_assert_int_ge(cat, 0);

    /* A call with several results: untyped projections until the call's
     * tuple type is set. */
    int s = byoc_graph_add_call(g, "split", &x, 1, &err);
    int early = byoc_graph_add_proj(g, s, 1, &err);
    ck_assert_int_eq(byoc_node_type(g, early, -1)->rank, -1);
    int64_t hd[] = {1, 3, 112, 224};
    byoc_tensor_type halves[] = {tensor(BYOC_DT_FLOAT32, 4, hd), tensor(BYOC_DT_INT8, 4, hd)};
    ck_assert_int_eq(byoc_graph_set_tuple_type(g, s, halves, 2, &err), 0);
    ck_assert_int_eq(byoc_node_field_count(g, s), 2);
    ck_assert_ptr_null(byoc_node_type(g, s, -1));
    int late = byoc_graph_add_proj(g, s, 1, &err);
    ck_assert_int_eq(byoc_node_type(g, late, -1)->dtype, BYOC_DT_INT8);
    ck_assert_int_eq(byoc_node_type(g, late, -1)->dims[2], 112);
    /* set_type makes a node tensor-typed again. */
    byoc_graph_set_type(g, s, &ot);
    ck_assert_int_eq(byoc_node_field_count(g, s), -1);
    ck_assert_int_eq(byoc_node_type(g, s, -1)->dtype, BYOC_DT_FLOAT16);
    ck_assert_int_eq(byoc_node_proj_index(g, s), -1);
}
END_TEST

START_TEST(symbols)
{
    byoc_error err;
    int n = byoc_graph_symbol(g, "n");
    int seq = byoc_graph_symbol(g, "seq_len");
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(seq, 1);
    char again[] = "n";
    ck_assert_int_eq(byoc_graph_symbol(g, again), n);
    again[0] = 'm';
    ck_assert_str_eq(byoc_graph_symbol_name(g, n), "n");
    ck_assert_str_eq(byoc_graph_symbol_name(g, seq), "seq_len");
    ck_assert_ptr_null(byoc_graph_symbol_name(g, 2));
    int64_t d[] = {BYOC_DIM_SYMBOL(n), BYOC_DIM_UNKNOWN, 768};
    byoc_tensor_type t = tensor(BYOC_DT_FLOAT32, 3, d);
    int x = byoc_graph_add_input(g, "tokens", &t, &err);
    ck_assert_int_eq(byoc_node_type(g, x, -1)->dims[0], -2);
    ck_assert_int_eq(byoc_node_type(g, x, -1)->dims[1], -1);
    /* Many symbols: the table grows and keeps ids. */
    char name[16];
    for (int i = 0; i < 200; i++) {
        snprintf(name, sizeof name, "s%d", i);
        ck_assert_int_eq(byoc_graph_symbol(g, name), i + 2);
    }
    ck_assert_str_eq(byoc_graph_symbol_name(g, 101), "s99");
}
END_TEST

START_TEST(many_nodes)
{
    /* A long chain: the node array grows, ids stay dense and topological. */
    byoc_error err;
    int64_t d[] = {16};
    byoc_tensor_type t = tensor(BYOC_DT_FLOAT32, 1, d);
    int prev = byoc_graph_add_input(g, "x", &t, &err);
    for (int i = 1; i < 1000; i++) {
        int r = byoc_graph_add_call(g, "nn.relu", &prev, 1, &err);
        ck_assert_int_eq(r, i);
        byoc_graph_set_type(g, r, &t);
        prev = r;
    }
    ck_assert_int_eq(byoc_graph_node_count(g), 1000);
    ck_assert_int_eq(byoc_node_arg(g, 999, 0), 998);
    ck_assert_int_eq(byoc_node_type(g, 500, -1)->dims[0], 16);
}
END_TEST

/* ---- Errors ------------------------------------------------------------- */

START_TEST(unknown_operator)
{
    byoc_error err;
    int x, w;
    conv(&x, &w);
    int args[] = {x, w};
    ck_assert_int_eq(byoc_graph_add_call(g, "nn.conv2", args, 2, &err), -1);
    ck_assert_str_eq(err.msg, "unknown operator 'nn.conv2' (did you mean 'nn.conv2d'?)");
    ck_assert_int_eq(byoc_graph_add_call(g, "softmax", args, 1, &err), -1);
    ck_assert_str_eq(err.msg, "unknown operator 'softmax'");
    char buf[600];
    byoc_error_format(&err, buf, sizeof buf);
    ck_assert_str_eq(buf, "error: unknown operator 'softmax'");
    ck_assert_int_eq(byoc_graph_node_count(g), 3);
}
END_TEST

START_TEST(wrong_arguments)
{
    byoc_error err;
    int x, w;
    int c = conv(&x, &w);
    int three[] = {x, w, c};
    ck_assert_int_eq(byoc_graph_add_call(g, "nn.conv2d", three, 3, &err), -1);
    ck_assert_str_eq(err.msg, "nn.conv2d takes 2 arguments, got 3");
    ck_assert_int_eq(byoc_graph_add_call(g, "nn.relu", three, 2, &err), -1);
    ck_assert_str_eq(err.msg, "nn.relu takes 1 argument, got 2");
    /* Arguments must exist already: the graph stays topological. */
    int ahead[] = {x, 3};
    ck_assert_int_eq(byoc_graph_add_call(g, "nn.conv2d", ahead, 2, &err), -1);
    ck_assert_str_eq(err.msg, "argument 2 of nn.conv2d is node 3, which does not exist");
    int negative = -1;
    ck_assert_int_eq(byoc_graph_add_call(g, "nn.relu", &negative, 1, &err), -1);
    ck_assert_str_eq(err.msg, "argument 1 of nn.relu is node -1, which does not exist");
    int fields[] = {x, 42};
    ck_assert_int_eq(byoc_graph_add_tuple(g, fields, 2, &err), -1);
    ck_assert_str_eq(err.msg, "argument 2 of tuple is node 42, which does not exist");
    ck_assert_int_eq(byoc_graph_add_proj(g, 7, 0, &err), -1);
    ck_assert_str_eq(err.msg, "argument 1 of projection is node 7, which does not exist");
    ck_assert_int_eq(byoc_graph_add_call(g, "nn.relu", &x, 1, NULL), 3);   /* still works */
    ck_assert_int_eq(byoc_graph_node_count(g), 4);
}
END_TEST

START_TEST(bad_attributes)
{
    byoc_error err;
    int x, w;
    int c = conv(&x, &w);
    byoc_value one = INT(1), s = STR("x");
    ck_assert_int_eq(byoc_graph_set_attr(g, c, "grups", &one, &err), -1);
    ck_assert_str_eq(err.msg, "nn.conv2d has no attribute 'grups' (did you mean 'groups'?)");
    ck_assert_int_eq(byoc_graph_set_attr(g, c, "foo", &one, &err), -1);
    ck_assert_str_eq(err.msg, "nn.conv2d has no attribute 'foo'");
    ck_assert_int_eq(byoc_graph_set_attr(g, c, "groups", &s, &err), -1);
    ck_assert_str_eq(err.msg, "attribute 'groups' of nn.conv2d has type int, not string");
    byoc_value floats[] = {FLOAT(1.5)};
    byoc_value fl = LIST(floats, 1), none = NONE;
    ck_assert_int_eq(byoc_graph_set_attr(g, c, "strides", &fl, &err), -1);
    ck_assert_str_eq(err.msg, "attribute 'strides' of nn.conv2d has type int[], not float[]");
    ck_assert_int_eq(byoc_graph_set_attr(g, c, "groups", &none, &err), -1);
    ck_assert_str_eq(err.msg, "attribute 'groups' of nn.conv2d has type int, not None");
    byoc_value bad_dt = STR("float17");
    ck_assert_int_eq(byoc_graph_set_attr(g, c, "out_dtype", &bad_dt, &err), -1);
    ck_assert_str_eq(err.msg, "attribute 'out_dtype' of nn.conv2d has type dtype, not string");
    ck_assert_int_eq(byoc_graph_set_attr(g, x, "groups", &one, &err), -1);
    ck_assert_str_eq(err.msg, "node 0 is not an operator call");
    ck_assert_int_eq(byoc_graph_set_attr(g, 99, "groups", &one, &err), -1);
    ck_assert_str_eq(err.msg, "node 99 is not an operator call");
    /* The values are unchanged. */
    ck_assert_str_eq(text(byoc_node_attr(g, c, "groups")), "1");
    ck_assert_str_eq(text(byoc_node_attr(g, c, "strides")), "[1, 1]");
}
END_TEST

START_TEST(bad_types_and_projections)
{
    byoc_error err;
    byoc_tensor_type big;
    memset(&big, 0, sizeof big);
    big.dtype = BYOC_DT_FLOAT32;
    big.rank = BYOC_MAX_RANK + 1;
    ck_assert_int_eq(byoc_graph_add_input(g, "x", &big, &err), -1);
    ck_assert_str_eq(err.msg, "rank 9 exceeds the maximum of 8");
    ck_assert_int_eq(byoc_graph_add_const(g, &big, NULL, &err), -1);
    ck_assert_int_eq(byoc_graph_node_count(g), 0);
    /* No type at all is "not known". */
    int x = byoc_graph_add_input(g, "x", NULL, &err);
    ck_assert_int_eq(byoc_node_type(g, x, -1)->rank, -1);
    /* set_type cannot fail: a rank it cannot hold becomes "not known". */
    byoc_graph_set_type(g, x, &big);
    ck_assert_int_eq(byoc_node_type(g, x, -1)->rank, -1);
    ck_assert_int_eq(byoc_graph_set_tuple_type(g, x, &big, 1, &err), -1);
    ck_assert_str_eq(err.msg, "rank 9 exceeds the maximum of 8");
    ck_assert_int_eq(byoc_graph_set_tuple_type(g, 5, NULL, 0, &err), -1);
    ck_assert_str_eq(err.msg, "node 5 does not exist");
    int fields[] = {x, x};
    int t = byoc_graph_add_tuple(g, fields, 2, &err);
    ck_assert_int_eq(byoc_graph_add_proj(g, t, 2, &err), -1);
    ck_assert_str_eq(err.msg, "projection .2 of node 1, a tuple of 2 fields");
    ck_assert_int_eq(byoc_graph_add_proj(g, t, -1, &err), -1);
    ck_assert_str_eq(err.msg, "projection index -1 is negative");
    ck_assert_ptr_null(byoc_node_type(g, 77, -1));
    ck_assert_int_eq(byoc_node_arg(g, t, 2), -1);
    ck_assert_int_eq(byoc_graph_symbol(g, NULL), -1);
    byoc_graph_destroy(NULL);
}
END_TEST

static Suite *graph_suite(void)
{
    Suite *s = suite_create("graph");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, build_and_read);
    tcase_add_test(core, attribute_defaults);
    tcase_add_test(core, attribute_values_are_copied_and_converted);
    tcase_add_test(core, constant_values_are_copied);
    tcase_add_test(core, tuples_and_projections);
    tcase_add_test(core, symbols);
    tcase_add_test(core, many_nodes);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, unknown_operator);
    tcase_add_test(errors, wrong_arguments);
    tcase_add_test(errors, bad_attributes);
    tcase_add_test(errors, bad_types_and_projections);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(graph_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
