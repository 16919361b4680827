/* Unit tests of the Relay text reader and writer. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

static byoc_registry *reg;

static void setup(void)
{
    byoc_error err;
    reg = byoc_registry_create();
    ck_assert_int_eq(byoc_register_relay(reg, &err), 0);
}

static void teardown(void) { byoc_registry_destroy(reg); }

static byoc_graph *read_ok(const char *text)
{
    byoc_error err;
    byoc_graph *g = byoc_relay_read_string(reg, text, strlen(text), "t.relay", &err);
    ck_assert_msg(g != NULL, "%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
    return g;
}

static void read_fails(const char *text, const char *want)
{
    byoc_error err;
    byoc_graph *g = byoc_relay_read_string(reg, text, strlen(text), "t.relay", &err);
    ck_assert_ptr_null(g);
    char buf[1024];
    byoc_error_format(&err, buf, sizeof buf);
    ck_assert_str_eq(buf, want);
}

static const char *CONV =
    "#[version = \"0.0.5\"]\n"
    "def @main(%data: Tensor[(1, 3, 224, 224), float32]) -> Tensor[(1, 64, 112, 112), float32] {\n"
    "  %0 = nn.conv2d(%data, meta[relay.Constant][0] /* ty=Tensor[(64, 3, 7, 7), float32] */, "
    "strides=[2, 2], padding=[3, 3, 3, 3], channels=64, kernel_size=[7, 7]) "
    "/* ty=Tensor[(1, 64, 112, 112), float32] */;\n"
    "  %1 = nn.batch_norm(%0, meta[relay.Constant][1] /* ty=Tensor[(64,), float32] */, "
    "meta[relay.Constant][2] /* ty=Tensor[(64,), float32] */, meta[relay.Constant][3] "
    "/* ty=Tensor[(64,), float32] */, meta[relay.Constant][4] /* ty=Tensor[(64,), float32] */);\n"
    "  %2 = %1.0;\n"
    "  %3 = add(%2, 1f);\n"
    "  nn.relu(%3)\n"
    "}\n";

START_TEST(reads_calls_constants_projections)
{
    byoc_graph *g = read_ok(CONV);
    int n = byoc_graph_node_count(g);
    ck_assert_int_eq(n, 12);
    ck_assert_int_eq(byoc_node_kind_of(g, 0), BYOC_N_INPUT);
    ck_assert_str_eq(byoc_node_name(g, 0), "data");
    ck_assert_int_eq(byoc_node_kind_of(g, 1), BYOC_N_CONST);
    int conv = 2;
    ck_assert_str_eq(byoc_node_op_name(g, conv), "nn.conv2d");
    const byoc_value *s = byoc_node_attr(g, conv, "strides");
    ck_assert_int_eq(s->kind, BYOC_V_LIST);
    ck_assert_int_eq(s->u.list.items[0].u.i, 2);
    ck_assert_int_eq(byoc_node_attr(g, conv, "groups")->u.i, 1);
    ck_assert_str_eq(byoc_node_attr(g, conv, "data_layout")->u.s, "NCHW");
    ck_assert_int_eq(byoc_node_line(g, conv), 3);
    int out = byoc_graph_output(g);
    ck_assert_str_eq(byoc_node_op_name(g, out), "nn.relu");
    const byoc_tensor_type *t = byoc_node_type(g, out, -1);
    ck_assert_int_eq(t->rank, 4);
    ck_assert_int_eq(t->dims[1], 64);
    ck_assert_int_eq(t->dims[3], 112);
    /* The scalar literal 1f is a float32 constant with its value. */
    int add = byoc_node_arg(g, out, 0);
    int one = byoc_node_arg(g, add, 1);
    ck_assert_int_eq(byoc_node_kind_of(g, one), BYOC_N_CONST);
    ck_assert_int_eq(byoc_node_type(g, one, -1)->dtype, BYOC_DT_FLOAT32);
    ck_assert_double_eq(byoc_node_const_value(g, one)->u.f, 1.0);
    ck_assert_int_eq(byoc_node_kind_of(g, byoc_node_arg(g, add, 0)), BYOC_N_PROJ);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(tuples_literals_and_symbols)
{
    byoc_graph *g = read_ok(
        "#[version = \"0.0.5\"]\n"
        "def @main(%x: Tensor[(n, 50), int64], %y: Tensor[(?, 2), float16]) {\n"
        "  %0 = less(%x, 0i64);\n"
        "  %1 = add(%x, 50257i64);\n"
        "  %2 = where(%0, %1, %x);\n"
        "  %3 = split(%y, indices_or_sections=[1], axis=1);\n"
        "  (%2, %3.1, -1, True, 1e-05f)\n"
        "}\n");
    int out = byoc_graph_output(g);
    ck_assert_int_eq(byoc_node_kind_of(g, out), BYOC_N_TUPLE);
    ck_assert_int_eq(byoc_node_arg_count(g, out), 5);
    int lit = byoc_node_arg(g, out, 2);
    ck_assert_int_eq(byoc_node_type(g, lit, -1)->dtype, BYOC_DT_INT32);
    ck_assert_int_eq(byoc_node_const_value(g, lit)->u.i, -1);
    ck_assert_int_eq(byoc_node_type(g, byoc_node_arg(g, out, 3), -1)->dtype, BYOC_DT_BOOL);
    const byoc_tensor_type *x = byoc_node_type(g, 0, -1);
    ck_assert(x->dims[0] <= -2);
    ck_assert_str_eq(byoc_graph_symbol_name(g, (int)(-2 - x->dims[0])), "n");
    ck_assert_int_eq(byoc_node_type(g, 1, -1)->dims[0], BYOC_DIM_UNKNOWN);
    byoc_graph_destroy(g);
}
END_TEST

/* Structural equality of two graphs, up to input names. */
static void assert_same(const byoc_graph *a, const byoc_graph *b)
{
    int n = byoc_graph_node_count(a);
    ck_assert_int_eq(n, byoc_graph_node_count(b));
    ck_assert_int_eq(byoc_graph_output(a), byoc_graph_output(b));
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(byoc_node_kind_of(a, i), byoc_node_kind_of(b, i));
        ck_assert_int_eq(byoc_node_arg_count(a, i), byoc_node_arg_count(b, i));
        for (int k = 0; k < byoc_node_arg_count(a, i); k++)
            ck_assert_int_eq(byoc_node_arg(a, i, k), byoc_node_arg(b, i, k));
        int nf = byoc_node_field_count(a, i);
        ck_assert_int_eq(nf, byoc_node_field_count(b, i));
        for (int f = nf < 0 ? -1 : 0; f < (nf < 0 ? 0 : nf); f++)
            ck_assert_mem_eq(byoc_node_type(a, i, f), byoc_node_type(b, i, f),
                             sizeof(byoc_tensor_type));
        if (byoc_node_kind_of(a, i) == BYOC_N_PROJ)
            ck_assert_int_eq(byoc_node_proj_index(a, i), byoc_node_proj_index(b, i));
        if (byoc_node_kind_of(a, i) == BYOC_N_CALL) {
            const byoc_op_decl *op = byoc_node_op(a, i);
            ck_assert_ptr_eq(op, byoc_node_op(b, i));
            for (int k = 0; k < op->nattrs; k++)
                ck_assert_msg(byoc_value_equal(byoc_node_attr_at(a, i, k), byoc_node_attr_at(b, i, k)),
                              "node %d attribute %s", i, op->attrs[k].name);
        }
        if (byoc_node_kind_of(a, i) == BYOC_N_CONST) {
            const byoc_value *x = byoc_node_const_value(a, i), *y = byoc_node_const_value(b, i);
            ck_assert_int_eq(x == NULL, y == NULL);
            if (x)
                ck_assert(byoc_value_equal(x, y));
        }
    }
}

static byoc_graph *round_trip(const byoc_graph *g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    byoc_error err;
    ck_assert_int_eq(byoc_relay_write(g, f, &err), 0);
    fclose(f);
    byoc_graph *h = byoc_relay_read_string(reg, buf, len, "written.relay", &err);
    ck_assert_msg(h != NULL, "%d:%d: %s\n%s", err.line, err.col, err.msg, buf);
    free(buf);
    return h;
}

START_TEST(writer_round_trips)
{
    byoc_graph *g = read_ok(CONV);
    byoc_graph *h = round_trip(g);
    assert_same(g, h);
    byoc_graph_destroy(h);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(errors_are_located)
{
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  nn.relux(%x)\n}\n",
               "t.relay:2:3: error: unknown operator 'nn.relux' (did you mean 'nn.relu'?)");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  nn.relu(%y)\n}\n",
               "t.relay:2:11: error: %y is not defined");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  nn.relu(%x, %x)\n}\n",
               "t.relay:2:3: error: nn.relu takes 1 argument, got 2");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  nn.softmax(%x, axs=1)\n}\n",
               "t.relay:2:18: error: nn.softmax has no attribute 'axs' (did you mean 'axis'?)");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  nn.softmax(%x, axis=\"a\")\n}\n",
               "t.relay:2:18: error: attribute 'axis' of nn.softmax has type int, not string");
    read_fails("def @main(%x: Tensor[(1), float33]) {\n  %x\n}\n",
               "t.relay:1:27: error: unknown dtype 'float33'");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  %0 = nn.relu(%x)\n  %0\n}\n",
               "t.relay:3:3: error: unexpected local name, expected ';'");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  fn (%y) { %y }\n}\n",
               "t.relay:2:3: error: this fn is a function, not a tensor");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  %x $\n}\n",
               "t.relay:2:6: error: stray '$' in program");
    read_fails("def @main(%x: Tensor[(4), float32]) {\n"
               "  nn.relu(%x) /* ty=Tensor[(5), float32] */\n}\n",
               "t.relay:2:3: error: %0 = nn.relu: type annotation Tensor[(5,), float32] differs from the inferred Tensor[(4,), float32]");
}
END_TEST

START_TEST(truncated_inputs_never_crash)
{
    /* Every prefix of a valid module is rejected with a message, or read. */
    size_t n = strlen(CONV);
    for (size_t k = 0; k < n; k++) {
        byoc_error err;
        byoc_graph *g = byoc_relay_read_string(reg, CONV, k, "t.relay", &err);
        if (g)
            byoc_graph_destroy(g);
        else
            ck_assert(err.msg[0] != 0);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("relay");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, reads_calls_constants_projections);
    tcase_add_test(core, tuples_literals_and_symbols);
    tcase_add_test(core, writer_round_trips);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, errors_are_located);
    tcase_add_test(errors, truncated_inputs_never_crash);
    tcase_set_timeout(errors, 60);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
