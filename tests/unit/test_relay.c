/* Unit tests of the Relay text reader and writer. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdbool.h>
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

static const char *PARTITIONED =
    "def @main(%x: Tensor[(1, 64), float32], %w: Tensor[(64, 64), float32]) {\n"
    "  %1 = fn (%p0: Tensor[(1, 64), float32], %p1, Primitive=1) -> Tensor[(1, 64), float32] {\n"
    "    %0 = nn.dense(%p0, %p1, units=None) /* ty=Tensor[(1, 64), float32] */;\n"
    "    nn.relu(%0)\n"
    "  } /* ty=fn (Tensor[(1, 64), float32], Tensor[(64, 64), float32]) -> Tensor[(1, 64), float32] */;\n"
    "  %2 = @trt_0(%1(%x, %w)) /* ty=Tensor[(1, 64), float32] */;\n"
    "  (%2, %2)\n"
    "}\n"
    "def @trt_0(%i0: Tensor[(1, 64), float32], Compiler=\"trt\", Primitive=1) {\n"
    "  %0 = fn (%q: Tensor[(1, 64), float32], Composite=\"trt.relu\") { nn.relu(%q) };\n"
    "  %0(%i0)\n"
    "}\n";

START_TEST(truncated_inputs_never_crash)
{
    /* Every prefix of a valid module is rejected with a message, or read. */
    const char *texts[] = {CONV, PARTITIONED};
    for (int t = 0; t < 2; t++) {
        size_t n = strlen(texts[t]);
        for (size_t k = 0; k <= n; k++) {
            byoc_error err;
            byoc_graph *g = byoc_relay_read_string(reg, texts[t], k, "t.relay", &err);
            if (g)
                byoc_graph_destroy(g);
            else
                ck_assert(err.msg[0] != 0);
            /* The whole text reads. */
            ck_assert(k < n || g != NULL);
        }
    }
}
END_TEST

/* ---- partitioned modules: functions are inlined ------------------------------ */

static byoc_graph *read_file_ok(const char *name)
{
    const char *top = getenv("top_srcdir");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/relay/%s", top ? top : ".", name);
    byoc_error err;
    byoc_graph *g = byoc_relay_read(reg, path, &err);
    ck_assert_msg(g != NULL, "%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
    return g;
}

static int count_op(const byoc_graph *g, const char *op)
{
    int n = 0;
    for (int i = 0; i < byoc_graph_node_count(g); i++)
        n += byoc_node_op_name(g, i) && strcmp(byoc_node_op_name(g, i), op) == 0;
    return n;
}

static bool has_note(const byoc_graph *g, const char *text)
{
    for (int i = 0; i < byoc_graph_note_count(g); i++)
        if (strstr(byoc_graph_note(g, i), text))
            return true;
    return false;
}

/* @main applying `open` (a call's head or "(") depth times to %x. */
static void nest(char *text, const char *open, int depth)
{
    size_t n = (size_t)sprintf(text, "def @main(%%x: Tensor[(1, 4), float32]) {\n  ");
    for (int i = 0; i < depth; i++)
        n += (size_t)sprintf(text + n, "%s", open);
    n += (size_t)sprintf(text + n, "%%x");
    for (int i = 0; i < depth; i++)
        text[n++] = ')';
    strcpy(text + n, "\n}\n");
}

/* Inputs the fuzzers found (tests/fuzz/regressions/relay): each a located
 * error now, or a load with the right note. */
START_TEST(hostile_inputs_are_located)
{
    /* A NUL in the version header's quotes: strchr and strrchr found the
     * same quote, and a length of -1 was copied. */
    static const char nul_version[] = "#[version = \"0.0\0\"]\n"
                                      "def @main(%x: Tensor[(1), float32]) {\n  %x\n}\n";
    byoc_error err;
    ck_assert_ptr_null(byoc_relay_read_string(reg, nul_version, sizeof nul_version - 1,
                                              "t.relay", &err));
    char buf[1024];
    byoc_error_format(&err, buf, sizeof buf);
    ck_assert_str_eq(buf, "t.relay:1:17: error: a string holds a NUL byte");
    read_fails("def @main(%x: Tensor[(1, 4), float32]) {\n"
               "  %0 = split(%x, indices_or_sections=2, axis=1);\n  %1 = %0.5;\n  %1\n}\n",
               "t.relay:3:3: error: projection .5 of a tuple of 2 fields");
    read_fails("def @main(%x: Tensor[(1, 4), float32]) {\n  %1 = %x.0;\n  %1\n}\n",
               "t.relay:2:3: error: projection .0 of a tensor, not a tuple");

    /* Nesting: evaluation stops at RELAY_MAX_DEPTH, the parser at its
     * stack; one level less than the limit loads. */
    char *text = malloc(1 << 20);
    ck_assert_ptr_nonnull(text);
    for (int depth = 999; depth <= 1001; depth += 2) {
        nest(text, "nn.relu(", depth);
        byoc_graph *g = byoc_relay_read_string(reg, text, strlen(text), "t.relay", &err);
        if (depth < 1000) {
            ck_assert_msg(g != NULL, "%s", err.msg);
            byoc_graph_destroy(g);
        } else {
            ck_assert_ptr_null(g);
            ck_assert_str_eq(err.msg, "expressions and inlined calls nest more than 1000 deep");
        }
    }
    nest(text, "(", 12000);
    ck_assert_ptr_null(byoc_relay_read_string(reg, text, strlen(text), "t.relay", &err));
    ck_assert_str_eq(err.msg, "nesting too deep for the parser (its stack holds 10000 entries)");
    /* Chained global functions nest the same way. */
    size_t n = 0;
    for (int i = 0; i < 1200; i++)
        n += (size_t)sprintf(text + n, "def @f%d(%%x) { @f%d(%%x) }\n", i, i + 1);
    sprintf(text + n, "def @f1200(%%x) { nn.relu(%%x) }\n"
                      "def @main(%%x: Tensor[(1, 4), float32]) { @f0(%%x) }\n");
    ck_assert_ptr_null(byoc_relay_read_string(reg, text, strlen(text), "t.relay", &err));
    ck_assert_str_eq(err.msg, "expressions and inlined calls nest more than 1000 deep");
    free(text);

    /* A reshape whose new shape multiplies past 64 bits loads, untyped,
     * and says why (it said "150528 elements cannot become 0"). */
    byoc_graph *g = read_ok("def @main(%x: Tensor[(1, 3, 224, 224), float32]) {\n"
                            "  reshape(%x, newshape=[4611686018427387904, 4, 0])\n}\n");
    ck_assert(has_note(g, "the element count overflows 64 bits"));
    byoc_graph_destroy(g);

    /* A split's sections come from a number in the text: a few bytes a
     * call.  The graph's splits hold at most BYOC_MAX_FIELDS fields. */
    g = read_ok("def @main(%x: Tensor[(1, 400000), float32]) {\n"
                "  %0 = split(%x, indices_or_sections=400000, axis=1);\n"
                "  %1 = split(%x, indices_or_sections=400000, axis=1);\n"
                "  %2 = split(%x, indices_or_sections=400000, axis=1);\n"
                "  (%0, %1, %2)\n}\n");
    ck_assert_int_eq(byoc_node_field_count(g, 1), 400000);
    ck_assert_int_eq(byoc_node_field_count(g, 2), 400000);
    ck_assert(has_note(g, "400000 sections take the graph's splits past 1000000 fields in all"));
    byoc_graph_destroy(g);
}
END_TEST

static void assert_type(const byoc_graph *g, int node, int field, byoc_dtype dt, int rank,
                        int64_t d0, int64_t d1)
{
    const byoc_tensor_type *t = byoc_node_type(g, node, field);
    ck_assert_int_eq(t->dtype, dt);
    ck_assert_int_eq(t->rank, rank);
    ck_assert_int_eq(t->dims[0], d0);
    if (rank > 1)
        ck_assert_int_eq(t->dims[1], d1);
}

START_TEST(partitioned_module_reads_as_the_flat_one)
{
    /* What TVM prints after BYOC partitioning: a Primitive fn bound to a
     * local, a Compiler global defined after @main, a Composite inside it. */
    byoc_graph *g = read_file_ok("partitioned.relay");
    byoc_graph *flat = read_file_ok("flat.relay");
    assert_same(g, flat);
    ck_assert_int_eq(count_op(g, "nn.dense"), 1);
    ck_assert_int_eq(count_op(g, "nn.relu"), 2);
    int out = byoc_graph_output(g);
    ck_assert_str_eq(byoc_node_op_name(g, out), "nn.relu");
    assert_type(g, out, -1, BYOC_DT_FLOAT32, 2, 1, 64);
    /* The inner relu's argument is the outer function's relu. */
    ck_assert_str_eq(byoc_node_op_name(g, byoc_node_arg(g, out, 0)), "nn.relu");
    ck_assert(has_note(g, "partitioned.relay:7:8: inlined @tvmgen_default_trt_main_0 "
                          "(Compiler=\"trt\") as node 4"));
    ck_assert(has_note(g, ":15:3: inlined @tvmgen_default_trt_main_0/%3 "
                          "(Composite=\"trt.relu\") as node 4"));
    /* Nodes keep where they were written; a result bound in @main takes
     * @main's name and place. */
    ck_assert_int_eq(byoc_node_line(g, 2), 4);
    ck_assert_str_eq(byoc_node_name(g, 2), "%1/%0");
    ck_assert_int_eq(byoc_node_line(g, out), 7);
    ck_assert_str_eq(byoc_node_name(g, out), "%2");
    byoc_graph_destroy(flat);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(nested_composite_inside_a_global)
{
    /* The global comes first here; each body numbers its locals from %0. */
    byoc_graph *g = read_ok(
        "#[version = \"0.0.5\"]\n"
        "def @tvmgen_default_cutlass_main_0(%cutlass_0_i0: Tensor[(8, 32), float16],\n"
        "    %cutlass_0_i1: Tensor[(16, 32), float16], Inline=1, Compiler=\"cutlass\",\n"
        "    global_symbol=\"tvmgen_default_cutlass_main_0\", Primitive=1) -> Tensor[(8, 16), float16] {\n"
        "  %2 = fn (%FunctionVar_0_0: Tensor[(8, 32), float16], %FunctionVar_0_1: Tensor[(16, 32), float16],\n"
        "      PartitionedFromPattern=\"nn.dense_add_nn.relu_\", Composite=\"cutlass.dense_bias_relu\") {\n"
        "    %0 = nn.dense(%FunctionVar_0_0, %FunctionVar_0_1, units=16, out_dtype=\"float16\");\n"
        "    %1 = add(%0, meta[relay.Constant][0] /* ty=Tensor[(16,), float16] */);\n"
        "    nn.relu(%1)\n"
        "  };\n"
        "  %3 = %2(%cutlass_0_i0, %cutlass_0_i1, /* en_id=7 */);\n"
        "  %4 = multiply(%3, 2f16);\n"
        "  %4\n"
        "}\n"
        "\n"
        "def @main(%x: Tensor[(8, 32), float16], %w: Tensor[(16, 32), float16]) -> Tensor[(8, 16), float16] {\n"
        "  %0 = nn.relu(%x);\n"
        "  %1 = @tvmgen_default_cutlass_main_0(%0, %w) /* ty=Tensor[(8, 16), float16] */;\n"
        "  %2 = add(%1, meta[relay.Constant][0] /* ty=Tensor[(16,), float16] */);\n"
        "  sigmoid(%2)\n"
        "}\n");
    byoc_graph *flat = read_ok(
        "#[version = \"0.0.5\"]\n"
        "def @main(%x: Tensor[(8, 32), float16], %w: Tensor[(16, 32), float16]) -> Tensor[(8, 16), float16] {\n"
        "  %0 = nn.relu(%x);\n"
        "  %1 = nn.dense(%0, %w, units=16, out_dtype=\"float16\");\n"
        "  %2 = add(%1, meta[relay.Constant][0] /* ty=Tensor[(16,), float16] */);\n"
        "  %3 = nn.relu(%2);\n"
        "  %4 = multiply(%3, 2f16);\n"
        "  %5 = add(%4, meta[relay.Constant][0]);\n"
        "  sigmoid(%5)\n"
        "}\n");
    assert_same(g, flat);
    /* One constant node per meta index, shared by @main and the body. */
    int add = byoc_node_arg(g, byoc_graph_output(g), 0);
    int dense = 3;
    ck_assert_str_eq(byoc_node_op_name(g, dense), "nn.dense");
    ck_assert_int_eq(byoc_node_arg(g, add, 1), byoc_node_arg(g, dense + 2, 1));
    /* Inlined nodes are named by where they come from; @main's keep theirs. */
    ck_assert_str_eq(byoc_node_name(g, 2), "%0");
    ck_assert_str_eq(byoc_node_name(g, dense), "@tvmgen_default_cutlass_main_0/%2/%0");
    ck_assert(has_note(g, "inlined @tvmgen_default_cutlass_main_0/%2 "
                          "(Composite=\"cutlass.dense_bias_relu\") as nodes 3..6"));
    ck_assert(has_note(g, "t.relay:18:8: inlined @tvmgen_default_cutlass_main_0 "
                          "(Compiler=\"cutlass\") as nodes 3..8"));
    byoc_graph_destroy(flat);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(function_called_twice_is_inlined_twice)
{
    byoc_graph *g = read_ok(
        "def @main(%x: Tensor[(2, 3), float32]) {\n"
        "  %0 = fn (%p: Tensor[(2, 3), float32], Primitive=1) {\n"
        "    %0 = exp(%p);\n"
        "    negative(%0)\n"
        "  };\n"
        "  %1 = %0(%x);\n"
        "  %2 = %0(%1);\n"
        "  %3 = @twice(%2);\n"
        "  add(%3, %1)\n"
        "}\n"
        "def @twice(%a) {\n"
        "  %0 = nn.relu(%a);\n"
        "  %1 = @once(%0);\n"
        "  @once(%1)\n"
        "}\n"
        "def @once(%b) { sigmoid(%b) }\n");
    ck_assert_int_eq(byoc_graph_node_count(g), 1 + 4 + 3 + 1);
    ck_assert_int_eq(count_op(g, "exp"), 2);
    ck_assert_int_eq(count_op(g, "negative"), 2);
    ck_assert_int_eq(count_op(g, "sigmoid"), 2);
    /* The second call's exp takes the first call's result. */
    ck_assert_str_eq(byoc_node_op_name(g, 3), "exp");
    ck_assert_int_eq(byoc_node_arg(g, 3, 0), 2);
    ck_assert_int_eq(byoc_node_arg(g, 1, 0), 0);
    int out = byoc_graph_output(g);
    ck_assert_int_eq(byoc_node_arg(g, out, 1), 2);
    ck_assert_int_eq(byoc_node_arg(g, 7, 0), 6);
    assert_type(g, out, -1, BYOC_DT_FLOAT32, 2, 2, 3);
    ck_assert_str_eq(byoc_node_name(g, 6), "@twice/%1");
    ck_assert_int_eq(byoc_graph_note_count(g), 0);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(function_returns_a_tuple)
{
    byoc_graph *g = read_ok(
        "#[version = \"0.0.5\"]\n"
        "def @main(%x: Tensor[(4, 6), float32]) -> Tensor[(4, 3), float32] {\n"
        "  %5 = @halves(%x) /* ty=(Tensor[(4, 3), float32], Tensor[(4, 3), float32]) */;\n"
        "  %6 = %5.0;\n"
        "  add(%6, %5.1)\n"
        "}\n"
        "def @halves(%a: Tensor[(4, 6), float32], Compiler=\"dnnl\")\n"
        "    -> (Tensor[(4, 3), float32], Tensor[(4, 3), float32]) {\n"
        "  %0 = split(%a, indices_or_sections=2, axis=1);\n"
        "  %1 = %0.0;\n"
        "  %2 = %0.1;\n"
        "  %3 = nn.relu(%1);\n"
        "  (%3, sigmoid(%2))\n"
        "}\n");
    int out = byoc_graph_output(g);
    ck_assert_str_eq(byoc_node_op_name(g, out), "add");
    assert_type(g, out, -1, BYOC_DT_FLOAT32, 2, 4, 3);
    int p0 = byoc_node_arg(g, out, 0), p1 = byoc_node_arg(g, out, 1);
    ck_assert_int_eq(byoc_node_kind_of(g, p0), BYOC_N_PROJ);
    ck_assert_int_eq(byoc_node_proj_index(g, p1), 1);
    int tuple = byoc_node_arg(g, p0, 0);
    ck_assert_int_eq(byoc_node_kind_of(g, tuple), BYOC_N_TUPLE);
    ck_assert_int_eq(byoc_node_field_count(g, tuple), 2);
    ck_assert_str_eq(byoc_node_op_name(g, byoc_node_arg(g, tuple, 1)), "sigmoid");
    ck_assert(has_note(g, "inlined @halves (Compiler=\"dnnl\") as nodes 1..6"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(tuple_parameters_scalars_and_closures)
{
    /* A composite over a tuple (concatenate), a rank-0 parameter type
     * printed as its dtype, a literal called where it is written, and a
     * literal whose body uses a name from around it. */
    byoc_graph *g = read_ok(
        "def @main(%x: Tensor[(1, 2), float32], %s: float32) {\n"
        "  %0 = nn.relu(%x);\n"
        "  %1 = fn (%t: (Tensor[(1, 2), float32], Tensor[(1, 2), float32]), Composite=\"c\") {\n"
        "    concatenate(%t, axis=1)\n"
        "  };\n"
        "  %2 = %1((%x, %0));\n"
        "  %3 = fn (%k: float32) -> Tensor[(1, 4), float32] { multiply(%2, %k) }(%s);\n"
        "  fn (%u) { %0 = add(%u, %2); %0 }(%3)\n"
        "}\n");
    int out = byoc_graph_output(g);
    ck_assert_str_eq(byoc_node_op_name(g, out), "add");
    assert_type(g, out, -1, BYOC_DT_FLOAT32, 2, 1, 4);
    ck_assert_int_eq(byoc_node_type(g, 1, -1)->rank, 0);
    ck_assert_int_eq(count_op(g, "concatenate"), 1);
    /* The last body's %0 is its own; its %2 is @main's. */
    ck_assert_str_eq(byoc_node_op_name(g, byoc_node_arg(g, out, 1)), "concatenate");
    ck_assert_str_eq(byoc_node_name(g, out), "fn/%0");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(unused_function_is_accepted)
{
    byoc_graph *g = read_ok(
        "def @main(%x: Tensor[(3), float32]) { nn.relu(%x) }\n"
        "def @unused(%a: Tensor[(3), float32]) { nn.relux(%a) }\n");
    ck_assert_int_eq(byoc_graph_node_count(g), 2);
    ck_assert(has_note(g, "t.relay:2:5: @unused is never called"));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(function_errors_are_located)
{
    /* Each call calls the next twice: 2^24 copies of the last body. */
    char doubling[4096];
    size_t len = (size_t)snprintf(doubling, sizeof doubling,
                                  "def @main(%%x: Tensor[(1), float32]) { @f0(%%x) }\n");
    for (int i = 0; i < 24; i++)
        len += (size_t)snprintf(doubling + len, sizeof doubling - len,
                                "def @f%d(%%a) { %%0 = @f%d(%%a); @f%d(%%0) }\n", i, i + 1, i + 1);
    snprintf(doubling + len, sizeof doubling - len, "def @f24(%%a) { %%a }\n");
    /* Bodies that make no nodes: the calls are counted. */
    read_fails(doubling, "t.relay:25:31: error: inlining @f24 makes the graph too large "
                         "(over 65536 nodes or calls)");
    snprintf(doubling + len, sizeof doubling - len, "def @f24(%%a) { nn.relu(%%a) }\n");
    read_fails(doubling, "t.relay:25:31: error: inlining @f24 makes the graph too large "
                         "(over 65536 nodes or calls)");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  @tvmgen_f(%x)\n}\n",
               "t.relay:2:3: error: @tvmgen_f is not defined");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  @f(%x, %x)\n}\n"
               "def @f(%a) { %a }\n",
               "t.relay:2:3: error: @f takes 1 argument, got 2");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n"
               "  %0 = fn (%a, %b) { add(%a, %b) };\n  %0(%x)\n}\n",
               "t.relay:3:3: error: %0 takes 2 arguments, got 1");
    /* An argument's type, known when the call is read... */
    read_fails("def @main(%x: Tensor[(1, 32), float32]) {\n  @f(%x)\n}\n"
               "def @f(%a: Tensor[(1, 64), float32]) { nn.relu(%a) }\n",
               "t.relay:2:6: error: argument 1 of @f has type Tensor[(1, 32), float32], "
               "but parameter %a is declared Tensor[(1, 64), float32]");
    /* ...or only after inference. */
    read_fails("def @main(%x: Tensor[(1, 32), float32]) {\n"
               "  %0 = fn (%a: Tensor[(1, 32), float32], %b: Tensor[(2, 32), float16]) { %a };\n"
               "  %0(%x, nn.relu(%x))\n}\n",
               "t.relay:3:10: error: argument 2 of %0 has type Tensor[(1, 32), float32], "
               "but parameter %b is declared Tensor[(2, 32), float16]");
    read_fails("def @main(%x: Tensor[(2), float32]) {\n  @f((%x, %x))\n}\n"
               "def @f(%t: (Tensor[(2), float32], Tensor[(2), int8])) { %t.0 }\n",
               "t.relay:2:6: error: argument 1 of @f has type (Tensor[(2,), float32], "
               "Tensor[(2,), float32]), but parameter %t is declared (Tensor[(2,), float32], "
               "Tensor[(2,), int8])");
    read_fails("def @main(%x: Tensor[(2), float32]) {\n  @f(%x)\n}\n"
               "def @f(%a) -> Tensor[(2), int8] {\n  nn.relu(%a)\n}\n",
               "t.relay:5:3: error: the result's type differs from the type @f declares");
    /* A function where a tensor belongs. */
    read_fails("def @main(%x: Tensor[(1), float32]) {\n"
               "  %0 = fn (%a) { %a };\n  nn.relu(%0)\n}\n",
               "t.relay:3:11: error: %0 is a function, not a tensor");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  (%x, @f)\n}\n"
               "def @f(%a) { %a }\n",
               "t.relay:2:8: error: @f is a function, not a tensor");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  @f(@f)\n}\n"
               "def @f(%a) { %a }\n",
               "t.relay:2:6: error: @f is a function, not a tensor");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  @f(%x)\n}\n"
               "def @f(%a) { fn (%b) { %b } }\n",
               "t.relay:4:14: error: this fn is a function, not a tensor");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  %x(%x)\n}\n",
               "t.relay:2:3: error: %x is not a function");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  %0 = fn (%a) { %a };\n"
               "  %0(%x, axis=1)\n}\n",
               "t.relay:3:10: error: attribute 'axis' in a call of %0: functions take no attributes");
    /* Recursion, direct and through another function. */
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  @f(%x)\n}\n"
               "def @f(%a) {\n  %0 = nn.relu(%a);\n  @f(%0)\n}\n",
               "t.relay:6:3: error: recursive call of @f: byoc inlines functions, and cannot inline this one");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  @f(%x)\n}\n"
               "def @f(%a) { @g(%a) }\ndef @g(%b) { fn (%c) { @f(%c) }(%b) }\n",
               "t.relay:5:24: error: recursive call of @f: byoc inlines functions, and cannot inline this one");
    /* Scopes: a global does not see @main's names. */
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  %0 = nn.relu(%x);\n  @f(%0)\n}\n"
               "def @f(%a) { add(%a, %0) }\n",
               "t.relay:5:22: error: %0 is not defined");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  %x\n}\n"
               "def @main(%y: Tensor[(1), float32]) {\n  %y\n}\n",
               "t.relay:4:5: error: @main is defined twice");
    read_fails("def @f(%x: Tensor[(1), float32]) {\n  %x\n}\n",
               "t.relay:1:5: error: the module has no @main (its first function is @f)");
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  @f(%x, %x)\n}\n"
               "def @f(%a, %a) { %a }\n",
               "t.relay:4:12: error: parameter %a is declared twice");
    read_fails("def @main(%x) {\n  %x\n}\n",
               "t.relay:1:11: error: parameter %x of @main needs a type");
    /* What is still not supported keeps its message. */
    read_fails("def @main(%x: Tensor[(1), float32]) {\n  let %y = %x;\n  %y\n}\n",
               "t.relay:2:3: error: let expressions are not supported: give byoc a module in dataflow form");
    read_fails("def @main(%x: Tensor[(1), bool]) {\n  if (%x) { %x } else { %x }\n}\n",
               "t.relay:2:3: error: control flow (if) is not supported");
}
END_TEST

/* ---- no fixed limits: wide calls and tuples, nested tuple types ------------ */

/* Text built with printf-style pieces; free with free(). */
typedef struct text {
    char *buf;
    size_t len;
    FILE *f;
} text;

static void text_open(text *t)
{
    t->buf = NULL;
    t->len = 0;
    t->f = open_memstream(&t->buf, &t->len);
    ck_assert_ptr_nonnull(t->f);
}

static char *text_close(text *t)
{
    fclose(t->f);
    return t->buf;
}

static char *type_of(const byoc_graph *g, int node)
{
    size_t n = byoc_relay_format_node_type(g, node, NULL, 0);
    char *s = malloc(n + 1);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(byoc_relay_format_node_type(g, node, s, n + 1), n);
    return s;
}

/* 300 tensors through a global of 300 parameters (a call of 300
 * arguments, once refused past 64) into one concatenate of a 300-field
 * tuple. */
START_TEST(call_of_300_arguments_and_concatenate_of_300)
{
    enum { N = 300 };
    text t;
    text_open(&t);
    fprintf(t.f, "def @main(%%x: Tensor[(1, 4), float32]) {\n");
    for (int i = 0; i < N; i++)
        fprintf(t.f, "  %%%d = add(%%x, %d.0f);\n", i, i);
    fprintf(t.f, "  @cat(");
    for (int i = 0; i < N; i++)
        fprintf(t.f, "%s%%%d", i ? ", " : "", i);
    fprintf(t.f, ")\n}\ndef @cat(");
    for (int i = 0; i < N; i++)
        fprintf(t.f, "%s%%p%d: Tensor[(1, 4), float32]", i ? ", " : "", i);
    fprintf(t.f, ", Compiler=\"trt\") -> Tensor[(1, %d), float32] {\n  %%0 = (", 4 * N);
    for (int i = 0; i < N; i++)
        fprintf(t.f, "%s%%p%d", i ? ", " : "", i);
    fprintf(t.f, ");\n  concatenate(%%0, axis=1)\n}\n");
    char *src = text_close(&t);
    byoc_graph *g = read_ok(src);
    int out = byoc_graph_output(g);
    ck_assert_str_eq(byoc_node_op_name(g, out), "concatenate");
    int tuple = byoc_node_arg(g, out, 0);
    ck_assert_int_eq(byoc_node_arg_count(g, tuple), N);
    ck_assert_int_eq(byoc_node_field_count(g, tuple), N);
    char *ty = type_of(g, out);
    ck_assert_str_eq(ty, "Tensor[(1, 1200), float32]");
    free(ty);
    /* Inlining and reading type each node once. */
    ck_assert_int_eq(byoc_graph_infer_visits(g), byoc_graph_node_count(g));
    byoc_graph *h = round_trip(g);
    assert_same(g, h);
    byoc_graph_destroy(h);
    byoc_graph_destroy(g);
    free(src);
}
END_TEST

/* A tuple of 1000 fields returned from @main, once refused past 256. */
START_TEST(tuple_of_1000_fields_returned)
{
    enum { N = 1000 };
    text t;
    text_open(&t);
    fprintf(t.f, "def @main(%%x: Tensor[(2, 3), float32]) -> (");
    for (int i = 0; i < N; i++)
        fprintf(t.f, "%sTensor[(2, 3), float32]", i ? ", " : "");
    fprintf(t.f, ") {\n");
    for (int i = 0; i < N; i++)
        fprintf(t.f, "  %%%d = add(%%x, %d.0f);\n", i, i);
    fprintf(t.f, "  (");
    for (int i = 0; i < N; i++)
        fprintf(t.f, "%s%%%d", i ? ", " : "", i);
    fprintf(t.f, ")\n}\n");
    char *src = text_close(&t);
    byoc_graph *g = read_ok(src);
    int out = byoc_graph_output(g);
    ck_assert_int_eq(byoc_node_kind_of(g, out), BYOC_N_TUPLE);
    ck_assert_int_eq(byoc_node_field_count(g, out), N);
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(byoc_node_type(g, out, i)->rank, 2);
        ck_assert_int_eq(byoc_node_arg(g, out, i), 2 * i + 2);
    }
    ck_assert_ptr_null(byoc_node_tuple_type(g, out)->sub);
    byoc_graph *h = round_trip(g);
    assert_same(g, h);
    byoc_graph_destroy(h);
    byoc_graph_destroy(g);
    free(src);
}
END_TEST

/* A decoder's result: logits and a tuple of present tensors. */
static const char *NESTED =
    "def @main(%x: Tensor[(1, 4), float32], %y: Tensor[(1, 4), float16]) -> "
    "(Tensor[(1, 4), float32], (Tensor[(1, 4), float32], (Tensor[(1, 4), float16],))) {\n"
    "  %0 = add(%x, %x);\n"
    "  %1 = nn.relu(%0);\n"
    "  %2 = (%y,);\n"
    "  %3 = (%1, %2);\n"
    "  %4 = (%0, %3);\n"
    "  %5 = %4.1;\n"
    "  %6 = %5.1;\n"
    "  %7 = %6.0;\n"
    "  %4\n"
    "}\n";

START_TEST(nested_tuple_types)
{
    byoc_graph *g = read_ok(NESTED);
    int out = byoc_graph_output(g);
    char *ty = type_of(g, out);
    ck_assert_str_eq(ty, "(Tensor[(1, 4), float32], (Tensor[(1, 4), float32], "
                         "(Tensor[(1, 4), float16],)))");
    free(ty);
    const byoc_tuple_type *t = byoc_node_tuple_type(g, out);
    ck_assert_int_eq(t->n, 2);
    ck_assert_int_eq(t->depth, 3);
    ck_assert_ptr_null(t->sub[0]);
    ck_assert_int_eq(t->sub[1]->n, 2);
    /* A nested field reads as unknown to code that wants tensor fields. */
    ck_assert_int_eq(byoc_node_type(g, out, 1)->rank, -1);
    ck_assert_int_eq(byoc_node_type(g, out, 0)->rank, 2);
    /* Projections of nested fields: %4.1 is a tuple, %4.1.1.0 a tensor. */
    int p1 = out + 1, p2 = out + 2, p3 = out + 3;
    ck_assert_int_eq(byoc_node_kind_of(g, p1), BYOC_N_PROJ);
    ck_assert_int_eq(byoc_node_field_count(g, p1), 2);
    ck_assert_int_eq(byoc_node_field_count(g, p2), 1);
    ck_assert_int_eq(byoc_node_field_count(g, p3), -1);
    ck_assert_int_eq(byoc_node_type(g, p3, -1)->dtype, BYOC_DT_FLOAT16);
    ck_assert_ptr_null(byoc_node_untyped_reason(g, p3));
    byoc_graph *h = round_trip(g);
    ty = type_of(h, byoc_graph_output(h));
    ck_assert_str_eq(ty, "(Tensor[(1, 4), float32], (Tensor[(1, 4), float32], "
                         "(Tensor[(1, 4), float16],)))");
    free(ty);
    byoc_graph_destroy(h);
    byoc_graph_destroy(g);
    /* A declared nested type is checked, field by field. */
    read_fails("def @main(%x: Tensor[(1, 4), float32]) -> (Tensor[(1, 4), float32], "
               "(Tensor[(1, 4), float32], Tensor[(1, 5), float32])) {\n"
               "  %0 = (%x, %x);\n  (%x, %0)\n}\n",
               "t.relay:3:3: error: the result's type differs from the type @main declares");
    read_fails("def @main(%x: Tensor[(1, 4), float32]) -> (Tensor[(1, 4), float32], "
               "Tensor[(1, 4), float32]) {\n"
               "  %0 = (%x, %x);\n  (%x, %0)\n}\n",
               "t.relay:3:3: error: the result's type differs from the type @main declares");
    /* A global returning a nested tuple, its result projected by the caller. */
    g = read_ok("def @main(%x: Tensor[(2), float32]) {\n"
                "  %0 = @f(%x);\n  %1 = %0.1;\n  %1.0\n}\n"
                "def @f(%a: Tensor[(2), float32]) -> (Tensor[(2), float32], (Tensor[(2), float32],)) {\n"
                "  %0 = nn.relu(%a);\n  %1 = (%0,);\n  (%a, %1)\n}\n");
    ty = type_of(g, byoc_graph_output(g));
    ck_assert_str_eq(ty, "Tensor[(2,), float32]");
    free(ty);
    byoc_graph_destroy(g);
}
END_TEST

/* Nesting past BYOC_MAX_TUPLE_DEPTH: in a written type, and built from
 * tuple expressions.  Both are located errors, not deep recursion. */
START_TEST(tuple_nesting_is_bounded)
{
    text t;
    text_open(&t);
    fprintf(t.f, "def @main(%%x: Tensor[(1), float32]) -> ");
    for (int i = 0; i < BYOC_MAX_TUPLE_DEPTH + 1; i++)
        fprintf(t.f, "(");
    fprintf(t.f, "Tensor[(1), float32]");
    for (int i = 0; i < BYOC_MAX_TUPLE_DEPTH + 1; i++)
        fprintf(t.f, ",)");
    fprintf(t.f, " {\n  %%x\n}\n");
    char *src = text_close(&t);
    char want[200];
    /* The innermost tuple is at column 40 + BYOC_MAX_TUPLE_DEPTH; the one
     * past the limit is the outermost, at column 40. */
    snprintf(want, sizeof want, "t.relay:1:40: error: tuple types nest more than %d deep (byoc's limit)",
             BYOC_MAX_TUPLE_DEPTH);
    read_fails(src, want);
    free(src);
    /* Exactly at the limit, the same type reads. */
    text_open(&t);
    fprintf(t.f, "def @main(%%x: Tensor[(1), float32]) -> ");
    for (int i = 0; i < BYOC_MAX_TUPLE_DEPTH; i++)
        fprintf(t.f, "(");
    fprintf(t.f, "Tensor[(1,), float32]");
    for (int i = 0; i < BYOC_MAX_TUPLE_DEPTH; i++)
        fprintf(t.f, ",)");
    fprintf(t.f, " {\n  %%0 = (%%x,);\n");
    for (int i = 1; i < BYOC_MAX_TUPLE_DEPTH; i++)
        fprintf(t.f, "  %%%d = (%%%d,);\n", i, i - 1);
    fprintf(t.f, "  %%%d\n}\n", BYOC_MAX_TUPLE_DEPTH - 1);
    src = text_close(&t);
    byoc_graph *g = read_ok(src);
    ck_assert_int_eq(byoc_node_tuple_type(g, byoc_graph_output(g))->depth, BYOC_MAX_TUPLE_DEPTH);
    byoc_graph_destroy(g);
    free(src);
    /* One tuple expression more is refused where it is built. */
    text_open(&t);
    fprintf(t.f, "def @main(%%x: Tensor[(1), float32]) {\n  %%0 = (%%x,);\n");
    for (int i = 1; i <= BYOC_MAX_TUPLE_DEPTH; i++)
        fprintf(t.f, "  %%%d = (%%%d,);\n", i, i - 1);
    fprintf(t.f, "  %%%d\n}\n", BYOC_MAX_TUPLE_DEPTH);
    src = text_close(&t);
    char name[16];
    int col = 6 + snprintf(name, sizeof name, "%%%d", BYOC_MAX_TUPLE_DEPTH); /* "  %64 = (" */
    snprintf(want, sizeof want, "t.relay:%d:%d: error: tuples nest more than %d deep",
             BYOC_MAX_TUPLE_DEPTH + 2, col, BYOC_MAX_TUPLE_DEPTH);
    read_fails(src, want);
    free(src);
}
END_TEST

/* Past BYOC_MAX_FIELDS, a documented limit, a tuple expression, a call and
 * a tuple type are located errors at the first item too many. */
START_TEST(field_limit_is_located)
{
    text t;
    text_open(&t);
    fprintf(t.f, "def @main(%%x: Tensor[(1), float32]) {\n  (");
    for (int i = 0; i <= BYOC_MAX_FIELDS; i++)
        fputs(i ? ", %x" : "%x", t.f);
    fprintf(t.f, ")\n}\n");
    char *src = text_close(&t);
    char want[200];
    /* Item k (from 0) starts at column 4 + 4k. */
    snprintf(want, sizeof want, "t.relay:2:%d: error: a tuple of more than %d fields (byoc's limit)",
             4 + 4 * BYOC_MAX_FIELDS, BYOC_MAX_FIELDS);
    read_fails(src, want);
    free(src);
    text_open(&t);
    fprintf(t.f, "def @main(%%x: Tensor[(1), float32]) -> (");
    for (int i = 0; i <= BYOC_MAX_FIELDS; i++)
        fputs(i ? ", float32" : "float32", t.f);
    fprintf(t.f, ") {\n  %%x\n}\n");
    src = text_close(&t);
    snprintf(want, sizeof want,
             "t.relay:1:%d: error: a tuple type of more than %d fields (byoc's limit)",
             41 + 9 * BYOC_MAX_FIELDS, BYOC_MAX_FIELDS);
    read_fails(src, want);
    free(src);
    /* The graph API keeps the same limit. */
    byoc_graph *g = byoc_graph_create(reg);
    byoc_tensor_type ty = {BYOC_DT_FLOAT32, 1, {4}};
    byoc_error err;
    int x = byoc_graph_add_input(g, "x", &ty, &err);
    int *fields = calloc(BYOC_MAX_FIELDS + 1, sizeof(int));
    ck_assert_ptr_nonnull(fields);
    for (int i = 0; i <= BYOC_MAX_FIELDS; i++)
        fields[i] = x;
    ck_assert_int_lt(byoc_graph_add_tuple(g, fields, BYOC_MAX_FIELDS + 1, &err), 0);
    ck_assert_str_eq(err.msg, "tuple has 1000001 fields; byoc takes at most 1000000");
    ck_assert_int_lt(byoc_graph_add_opaque(g, "custom", fields, BYOC_MAX_FIELDS + 1, &err), 0);
    ck_assert_str_eq(err.msg, "custom has 1000001 arguments; byoc takes at most 1000000");
    free(fields);
    byoc_graph_destroy(g);
}
END_TEST

/* --dim and --input-shape for Relay: a named dimension reads as its size
 * everywhere; a parameter's shape replaces the declared one. */
START_TEST(dimension_bindings)
{
    static const char *dyn =
        "#[version = \"0.0.5\"]\n"
        "def @main(%x: Tensor[(n, 50), float32], %y: Tensor[(?, 50), float32]) {\n"
        "  %0 = add(%x, %y);\n"
        "  nn.dense(%0, meta[relay.Constant][0] /* ty=Tensor[(10, 50), float32] */)\n"
        "}\n";
    byoc_dim_binding dims[] = {{"n", 4}};
    byoc_input_shape shapes[] = {{"y", 2, {4, 50}}};
    byoc_read_options o = {.dims = dims, .ndims = 1, .shapes = shapes, .nshapes = 1};
    byoc_error err;
    byoc_graph *g = byoc_relay_read_string_with(reg, dyn, strlen(dyn), "t.relay", &o, &err);
    ck_assert_msg(g != NULL, "%s", err.msg);
    ck_assert_int_eq(byoc_node_type(g, 0, -1)->dims[0], 4);
    ck_assert_int_eq(byoc_node_type(g, 1, -1)->dims[0], 4);
    int out = byoc_graph_output(g);
    ck_assert_int_eq(byoc_node_type(g, out, -1)->dims[0], 4);
    ck_assert_double_eq(byoc_node_flops(g, out), 2.0 * 4 * 50 * 10);
    ck_assert_int_eq(byoc_graph_symbol_count(g), 1);
    ck_assert_int_eq(byoc_graph_symbol_value(g, 0), 4);
    byoc_graph_destroy(g);

    /* Mistakes are errors, with the parameter's place when there is one. */
    char buf[512];
    byoc_dim_binding typo[] = {{"m", 4}};
    byoc_read_options bad = {.dims = typo, .ndims = 1};
    ck_assert_ptr_null(byoc_relay_read_string_with(reg, dyn, strlen(dyn), "t.relay", &bad, &err));
    byoc_error_format(&err, buf, sizeof buf);
    ck_assert_str_eq(buf, "error: --dim m: the model names no such dimension (it names n)");
    byoc_input_shape wrong[] = {{"x", 2, {4, 51}}};
    byoc_read_options bad2 = {.shapes = wrong, .nshapes = 1};
    ck_assert_ptr_null(byoc_relay_read_string_with(reg, dyn, strlen(dyn), "t.relay", &bad2, &err));
    byoc_error_format(&err, buf, sizeof buf);
    ck_assert_str_eq(buf, "t.relay:2:11: error: --input-shape x: axis 1 is 50 in the model, not 51");
    byoc_input_shape none[] = {{"z", 1, {4}}};
    byoc_read_options bad3 = {.shapes = none, .nshapes = 1};
    ck_assert_ptr_null(byoc_relay_read_string_with(reg, dyn, strlen(dyn), "t.relay", &bad3, &err));
    byoc_error_format(&err, buf, sizeof buf);
    ck_assert_str_eq(buf, "error: --input-shape: the model has no input 'z'");

    /* A name a later parameter's shape binds is its size in the earlier
     * parameters too (%y stayed (n, 50) while n was bound to 4). */
    static const char *two =
        "#[version = \"0.0.5\"]\n"
        "def @main(%y: Tensor[(n, 50), float32], %x: Tensor[(n, 50), float32]) {\n"
        "  add(%x, %y)\n"
        "}\n";
    byoc_input_shape xs[] = {{"x", 2, {4, 50}}};
    byoc_read_options o2 = {.shapes = xs, .nshapes = 1};
    g = byoc_relay_read_string_with(reg, two, strlen(two), "t.relay", &o2, &err);
    ck_assert_msg(g != NULL, "%s", err.msg);
    ck_assert_int_eq(byoc_node_type(g, 0, -1)->dims[0], 4);
    ck_assert_int_eq(byoc_node_type(g, 1, -1)->dims[0], 4);
    byoc_graph_destroy(g);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("relay");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, reads_calls_constants_projections);
    tcase_add_test(core, tuples_literals_and_symbols);
    tcase_add_test(core, dimension_bindings);
    tcase_add_test(core, writer_round_trips);
    tcase_add_test(core, partitioned_module_reads_as_the_flat_one);
    tcase_add_test(core, nested_composite_inside_a_global);
    tcase_add_test(core, function_called_twice_is_inlined_twice);
    tcase_add_test(core, function_returns_a_tuple);
    tcase_add_test(core, tuple_parameters_scalars_and_closures);
    tcase_add_test(core, unused_function_is_accepted);
    tcase_add_test(core, call_of_300_arguments_and_concatenate_of_300);
    tcase_add_test(core, tuple_of_1000_fields_returned);
    tcase_add_test(core, nested_tuple_types);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, errors_are_located);
    tcase_add_test(errors, hostile_inputs_are_located);
    tcase_add_test(errors, function_errors_are_located);
    tcase_add_test(errors, truncated_inputs_never_crash);
    tcase_add_test(errors, tuple_nesting_is_bounded);
    tcase_add_test(errors, field_limit_is_located);
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
