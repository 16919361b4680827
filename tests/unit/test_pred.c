/* Unit tests of the predicate evaluation interface (runtime/pred.c): what
 * byocc-generated code reads through it on a small graph, and - in Errors -
 * that everything absent or unknown reads as a neutral value with
 * ev->undef set, never as a crash. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

#define INT(x) {.kind = BYOC_V_INT, .u.i = (x)}
#define FLOAT(x) {.kind = BYOC_V_FLOAT, .u.f = (x)}
#define BOOL(x) {.kind = BYOC_V_BOOL, .u.b = (x)}
#define STR(x) {.kind = BYOC_V_STRING, .u.s = (x)}
#define DT(x) {.kind = BYOC_V_DTYPE, .u.dt = BYOC_DT_##x}
#define VER(a, b, c) {.kind = BYOC_V_VERSION, .u.ver = BYOC_VERSION(a, b, c)}
#define LIST(items, n) {.kind = BYOC_V_LIST, .u.list = {(items), (n)}}
#define NONE {.kind = BYOC_V_NONE}

static const byoc_input_decl two_inputs[] = {{"lhs", false}, {"rhs", false}};
static const byoc_input_decl one_input[] = {{"data", false}};
static const byoc_value ones2[] = {INT(1), INT(1)};
static const byoc_attr_decl conv_attrs[] = {
    {.name = "strides", .type = {.base = BYOC_V_INT, .depth = 1}, .has_default = true,
     .def = LIST(ones2, 2)},
    {.name = "groups", .type = {.base = BYOC_V_INT}, .has_default = true, .def = INT(1)},
    {.name = "channels", .type = {.base = BYOC_V_INT, .optional = 1}},
    {.name = "data_layout", .type = {.base = BYOC_V_STRING}, .has_default = true,
     .def = STR("NCHW")},
};
static const byoc_op_decl ops[] = {
    {.name = "nn.conv2d", .kind = BYOC_OPK_OUT_ELEMWISE_FUSABLE, .ninputs = 2,
     .inputs = two_inputs, .nattrs = 4, .attrs = conv_attrs},
    {.name = "add", .kind = BYOC_OPK_BROADCAST, .ninputs = 2, .inputs = two_inputs},
    {.name = "nn.relu", .kind = BYOC_OPK_ELEMWISE, .ninputs = 1, .inputs = one_input},
    {.name = "split", .kind = BYOC_OPK_INJECTIVE, .ninputs = 1, .inputs = one_input},
};
static const byoc_module_decl module = {
    .abi = BYOC_ABI_VERSION, .name = "ops", .source = "ops.byoc", .nops = 4, .ops = ops,
};

/* The graph:
 *   0 x = input [1, 3, 224, 224] float32     5 r = nn.relu(b)
 *   1 w = const [64, 3, 7, 7], no value       6 z = add(c, r)
 *   2 c = nn.conv2d(x, w) [1, 64, n, -1]      7 k = const scalar 6 (int)
 *   3 y = input [1, 64, 1, 1] float32         8 s = split(x), tuple-typed
 *   4 b = add(c, y)                           9 q = const [1] = [2.5]
 */
enum { X, W, C, Y, B, R, Z, K, S, Q, NNODES };
static byoc_registry *reg;
static byoc_graph *g;
static int sym_n;

static const byoc_value opt_values[] = {
    BOOL(true), INT(4), FLOAT(0.25), STR("fast"), DT(FLOAT16), VER(8, 6, 1), NONE,
};

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

static void setup(void)
{
    byoc_error err;
    reg = byoc_registry_create();
    ck_assert_int_eq(byoc_registry_add(reg, &module, &err), 0);
    g = byoc_graph_create(reg);
    sym_n = byoc_graph_symbol(g, "n");
    int64_t xd[] = {1, 3, 224, 224}, wd[] = {64, 3, 7, 7}, yd[] = {1, 64, 1, 1};
    int64_t cd[] = {1, 64, BYOC_DIM_SYMBOL(sym_n), BYOC_DIM_UNKNOWN};
    byoc_tensor_type xt = tensor(BYOC_DT_FLOAT32, 4, xd), wt = tensor(BYOC_DT_FLOAT32, 4, wd);
    byoc_tensor_type yt = tensor(BYOC_DT_FLOAT32, 4, yd), ct = tensor(BYOC_DT_FLOAT32, 4, cd);
    byoc_tensor_type scalar = tensor(BYOC_DT_INT64, 0, NULL);
    ck_assert_int_eq(byoc_graph_add_input(g, "x", &xt, &err), X);
    ck_assert_int_eq(byoc_graph_add_const(g, &wt, NULL, &err), W);
    int xw[] = {X, W};
    ck_assert_int_eq(byoc_graph_add_call(g, "nn.conv2d", xw, 2, &err), C);
    byoc_graph_set_type(g, C, &ct);
    ck_assert_int_eq(byoc_graph_add_input(g, "y", &yt, &err), Y);
    int cy[] = {C, Y};
    ck_assert_int_eq(byoc_graph_add_call(g, "add", cy, 2, &err), B);
    int b = B;
    ck_assert_int_eq(byoc_graph_add_call(g, "nn.relu", &b, 1, &err), R);
    int cr[] = {C, R};
    ck_assert_int_eq(byoc_graph_add_call(g, "add", cr, 2, &err), Z);
    byoc_value six = INT(6);
    ck_assert_int_eq(byoc_graph_add_const(g, &scalar, &six, &err), K);
    int x = X;
    ck_assert_int_eq(byoc_graph_add_call(g, "split", &x, 1, &err), S);
    int64_t hd[] = {1, 3, 112, 224};
    byoc_tensor_type halves[] = {tensor(BYOC_DT_FLOAT32, 4, hd), tensor(BYOC_DT_INT8, 4, hd)};
    ck_assert_int_eq(byoc_graph_set_tuple_type(g, S, halves, 2, &err), 0);
    int64_t one[] = {1};
    byoc_tensor_type qt = tensor(BYOC_DT_FLOAT32, 1, one);
    byoc_value q_items[] = {FLOAT(2.5)};
    byoc_value q = LIST(q_items, 1);
    ck_assert_int_eq(byoc_graph_add_const(g, &qt, &q, &err), Q);
    byoc_value groups = INT(2);
    ck_assert_int_eq(byoc_graph_set_attr(g, C, "groups", &groups, &err), 0);
}

static void teardown(void)
{
    byoc_graph_destroy(g);
    byoc_registry_destroy(reg);
}

/* An evaluation context over the graph with slots bound. */
static byoc_eval eval_of(const int *slots, int nslots)
{
    byoc_eval ev;
    memset(&ev, 0, sizeof ev);
    ev.graph = g;
    ev.slots = slots;
    ev.nslots = nslots;
    ev.options = opt_values;
    ev.noptions = (int)(sizeof opt_values / sizeof opt_values[0]);
    ev.failed_clause = -1;
    return ev;
}

static byoc_tref T(int node) { byoc_tref t = {node, -1}; return t; }
static byoc_tref F(int node, int field) { byoc_tref t = {node, field}; return t; }

/* ---- Core --------------------------------------------------------------- */

START_TEST(slots_and_tensor_reads)
{
    int slots[] = {C, X, W};
    byoc_eval ev = eval_of(slots, 3);
    byoc_tref c = byoc_ev_slot(&ev, 0), x = byoc_ev_slot(&ev, 1);
    ck_assert_int_eq(c.node, C);
    ck_assert_int_eq(c.field, -1);
    ck_assert_int_eq(byoc_ev_dtype(&ev, x), BYOC_DT_FLOAT32);
    ck_assert_int_eq(byoc_ev_rank(&ev, x), 4);
    ck_assert_int_eq(byoc_ev_dim(&ev, x, 1), 3);
    ck_assert_int_eq(byoc_ev_dim(&ev, x, -1), 224);
    ck_assert_int_eq(byoc_ev_dim(&ev, x, -4), 1);
    ck_assert_int_eq(byoc_ev_numel(&ev, x), 3 * 224 * 224);
    ck_assert_int_eq(byoc_ev_dim(&ev, c, 1), 64);
    ck_assert_int_eq(byoc_ev_rank(&ev, c), 4);
    ck_assert_int_eq(byoc_ev_numel(&ev, T(K)), 1);          /* a scalar */
    ck_assert_int_eq(byoc_ev_rank(&ev, T(K)), 0);
    ck_assert_int_eq(byoc_ev_dtype(&ev, F(S, 1)), BYOC_DT_INT8);
    ck_assert_int_eq(byoc_ev_dim(&ev, F(S, 0), 2), 112);
    ck_assert(byoc_ev_is_const(&ev, T(W)));
    ck_assert(!byoc_ev_is_const(&ev, x));
    ck_assert_str_eq(byoc_ev_op(&ev, c), "nn.conv2d");
    ck_assert_ptr_null(byoc_ev_op(&ev, x));
    ck_assert(byoc_ev_tref_eq(c, T(C)));
    ck_assert(!byoc_ev_tref_eq(F(S, 0), F(S, 1)));
    ck_assert(!byoc_ev_tref_eq(T(S), F(S, 0)));
    ck_assert_double_eq(byoc_ev_value(&ev, T(K)), 6.0);
    ck_assert_double_eq(byoc_ev_value(&ev, T(Q)), 2.5);     /* a list of one */
    ck_assert_int_eq(ev.undef, 0);
}
END_TEST

START_TEST(attributes_and_options)
{
    byoc_eval ev = eval_of(NULL, 0);
    ck_assert_int_eq(byoc_ev_int(&ev, byoc_ev_attr(&ev, T(C), "groups")), 2);
    ck_assert_str_eq(byoc_ev_str(&ev, byoc_ev_attr(&ev, T(C), "data_layout")), "NCHW");
    ck_assert(byoc_ev_bool(&ev, byoc_ev_option(&ev, 0)));
    ck_assert_int_eq(byoc_ev_int(&ev, byoc_ev_option(&ev, 1)), 4);
    ck_assert_double_eq(byoc_ev_float(&ev, byoc_ev_option(&ev, 2)), 0.25);
    ck_assert_double_eq(byoc_ev_float(&ev, byoc_ev_option(&ev, 1)), 4.0);   /* int as float */
    ck_assert_str_eq(byoc_ev_str(&ev, byoc_ev_option(&ev, 3)), "fast");
    ck_assert_int_eq(byoc_ev_dt(&ev, byoc_ev_option(&ev, 4)), BYOC_DT_FLOAT16);
    ck_assert(byoc_ev_ver(&ev, byoc_ev_option(&ev, 5)) == BYOC_VERSION(8, 6, 1));
    ck_assert(byoc_ev_ver(&ev, byoc_ev_option(&ev, 5)) >= BYOC_VERSION(7, 0, 0));
    byoc_value integral = FLOAT(3.0);
    ck_assert_int_eq(byoc_ev_int(&ev, &integral), 3);
    ck_assert_int_eq(ev.undef, 0);
}
END_TEST

START_TEST(sequences)
{
    byoc_eval ev = eval_of(NULL, 0);
    byoc_seq strides = byoc_ev_seq_values(&ev, byoc_ev_attr(&ev, T(C), "strides"));
    ck_assert_int_eq(byoc_ev_seq_len(&ev, strides), 2);
    ck_assert_int_eq(byoc_ev_seq_int(&ev, strides, 0), 1);
    ck_assert_int_eq(byoc_ev_seq_int(&ev, strides, -1), 1);
    ck_assert_int_eq(byoc_ev_seq_value(&ev, strides, 1)->kind, BYOC_V_INT);

    byoc_seq shape = byoc_ev_seq_shape(&ev, T(X));
    ck_assert_int_eq(byoc_ev_seq_len(&ev, shape), 4);
    ck_assert_int_eq(byoc_ev_seq_int(&ev, shape, 2), 224);
    ck_assert_int_eq(byoc_ev_seq_int(&ev, shape, -3), 3);

    byoc_seq in = byoc_ev_seq_inputs(&ev, T(C));
    ck_assert_int_eq(byoc_ev_seq_len(&ev, in), 2);
    ck_assert(byoc_ev_tref_eq(byoc_ev_seq_tensor(&ev, in, 0), T(X)));
    ck_assert(byoc_ev_tref_eq(byoc_ev_seq_tensor(&ev, in, -1), T(W)));
    ck_assert_int_eq(byoc_ev_seq_len(&ev, byoc_ev_seq_inputs(&ev, T(X))), 0);

    byoc_seq outs = byoc_ev_seq_outputs(&ev, T(S));
    ck_assert_int_eq(byoc_ev_seq_len(&ev, outs), 2);
    ck_assert(byoc_ev_tref_eq(byoc_ev_seq_tensor(&ev, outs, 1), F(S, 1)));
    byoc_seq one = byoc_ev_seq_outputs(&ev, T(C));
    ck_assert_int_eq(byoc_ev_seq_len(&ev, one), 1);
    ck_assert(byoc_ev_tref_eq(byoc_ev_seq_tensor(&ev, one, 0), T(C)));

    /* shape(y) == [1, 64, 1, 1]; shape(x) != it; a shape equals itself. */
    byoc_value lit_items[] = {INT(1), INT(64), INT(1), INT(1)};
    byoc_value lit = LIST(lit_items, 4);
    byoc_seq l = byoc_ev_seq_values(&ev, &lit);
    ck_assert(byoc_ev_seq_eq(&ev, byoc_ev_seq_shape(&ev, T(Y)), l));
    ck_assert(byoc_ev_seq_eq(&ev, l, byoc_ev_seq_shape(&ev, T(Y))));
    ck_assert(!byoc_ev_seq_eq(&ev, shape, l));
    ck_assert(byoc_ev_seq_eq(&ev, shape, byoc_ev_seq_shape(&ev, T(X))));
    ck_assert(!byoc_ev_seq_eq(&ev, strides, l));            /* lengths differ */
    ck_assert(byoc_ev_seq_eq(&ev, in, byoc_ev_seq_inputs(&ev, T(C))));
    ck_assert(!byoc_ev_seq_eq(&ev, in, byoc_ev_seq_inputs(&ev, T(B))));
    ck_assert_int_eq(ev.undef, 0);
}
END_TEST

/* values(t) and range(n): a constant's data flattened, and 0..n-1. */
START_TEST(data_and_range_sequences)
{
    byoc_eval ev = eval_of(NULL, 0);
    byoc_seq q = byoc_ev_seq_data(&ev, T(Q));                  /* [2.5] */
    ck_assert_int_eq(byoc_ev_seq_len(&ev, q), 1);
    ck_assert(byoc_ev_float(&ev, byoc_ev_seq_value(&ev, q, 0)) == 2.5);
    byoc_seq k = byoc_ev_seq_data(&ev, T(K));                  /* scalar 6 */
    ck_assert_int_eq(byoc_ev_seq_len(&ev, k), 1);
    ck_assert_int_eq(byoc_ev_seq_int(&ev, k, 0), 6);
    ck_assert_int_eq(byoc_ev_seq_int(&ev, k, -1), 6);

    /* A 2 x 3 constant reads row-major, rows of different kinds alike. */
    byoc_error err;
    int64_t d[] = {2, 3};
    byoc_tensor_type t = tensor(BYOC_DT_INT32, 2, d);
    byoc_value r0[] = {INT(1), INT(-2), INT(3)}, r1[] = {INT(4), FLOAT(5.0), INT(-6)};
    byoc_value rows[] = {LIST(r0, 3), LIST(r1, 3)};
    byoc_value m = LIST(rows, 2);
    int mk = byoc_graph_add_const(g, &t, &m, &err);
    byoc_seq ms = byoc_ev_seq_data(&ev, T(mk));
    ck_assert_int_eq(byoc_ev_seq_len(&ev, ms), 6);
    int64_t want[] = {1, -2, 3, 4, 5, -6};
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(byoc_ev_seq_int(&ev, ms, i), want[i]);
    ck_assert_int_eq(byoc_ev_seq_int(&ev, ms, -2), 5);
    ck_assert_int_eq(ev.undef, 0);

    byoc_seq r = byoc_ev_seq_range(&ev, 4);
    ck_assert_int_eq(byoc_ev_seq_len(&ev, r), 4);
    ck_assert_int_eq(byoc_ev_seq_int(&ev, r, 0), 0);
    ck_assert_int_eq(byoc_ev_seq_int(&ev, r, 3), 3);
    ck_assert_int_eq(byoc_ev_seq_int(&ev, r, -1), 3);
    ck_assert_int_eq(byoc_ev_seq_len(&ev, byoc_ev_seq_range(&ev, 0)), 0);
    ck_assert_int_eq(byoc_ev_seq_len(&ev, byoc_ev_seq_range(&ev, -3)), 0);
    /* range(4) == [0, 1, 2, 3]; values(m) compares as numbers */
    byoc_value lit_items[] = {INT(0), INT(1), INT(2), INT(3)};
    byoc_value lit = LIST(lit_items, 4);
    ck_assert(byoc_ev_seq_eq(&ev, r, byoc_ev_seq_values(&ev, &lit)));
    byoc_value w_items[] = {INT(1), INT(-2), INT(3), INT(4), INT(5), INT(-6)};
    byoc_value w = LIST(w_items, 6);
    ck_assert(byoc_ev_seq_eq(&ev, ms, byoc_ev_seq_values(&ev, &w)));
    ck_assert(!byoc_ev_seq_eq(&ev, ms, byoc_ev_seq_values(&ev, &lit)));
    ck_assert_int_eq(ev.undef, 0);

    /* Out of range, no data, not a constant, a field: undefined. */
    byoc_ev_seq_int(&ev, r, 4);
    ck_assert_int_eq(ev.undef, 1);
    ev.undef = 0;
    ck_assert_int_eq(byoc_ev_seq_len(&ev, byoc_ev_seq_data(&ev, T(W))), 0);
    ck_assert_int_eq(ev.undef, 1);
    ev.undef = 0;
    byoc_ev_seq_data(&ev, T(X));
    ck_assert_int_eq(ev.undef, 1);
    ev.undef = 0;
    byoc_ev_seq_data(&ev, F(K, 0));
    ck_assert_int_eq(ev.undef, 1);
}
END_TEST

/* The tensors of a candidate, as a list of "node.field" pairs. */
static void expect_part(const int *part, int npart, byoc_seq_kind kind, const byoc_tref *want,
                        int nwant)
{
    byoc_eval ev = eval_of(NULL, 0);
    ev.part = part;
    ev.npart = npart;
    byoc_seq s = byoc_ev_seq_part(&ev, kind);
    ck_assert_int_eq(byoc_ev_seq_len(&ev, s), nwant);
    for (int i = 0; i < nwant; i++) {
        byoc_tref t = byoc_ev_seq_tensor(&ev, s, i);
        ck_assert_msg(byoc_ev_tref_eq(t, want[i]), "element %d is %d.%d, not %d.%d", i, t.node,
                      t.field, want[i].node, want[i].field);
    }
    ck_assert_int_eq(ev.undef, 0);
}

START_TEST(partition_sequences)
{
    /* {c, b, r}: inputs x, w, y in first-use order; outputs c (z uses it)
     * and r (z uses it), not b (only r does). */
    int part[] = {C, B, R};
    const byoc_tref nodes[] = {T(C), T(B), T(R)};
    const byoc_tref inputs[] = {T(X), T(W), T(Y)};
    const byoc_tref outputs[] = {T(C), T(R)};
    expect_part(part, 3, BYOC_SEQ_NODES, nodes, 3);
    expect_part(part, 3, BYOC_SEQ_PINPUTS, inputs, 3);
    expect_part(part, 3, BYOC_SEQ_POUTPUTS, outputs, 2);
    /* {b, z}: c is used by both but listed once; z has no consumers, so it
     * is a graph output. */
    int part2[] = {B, Z};
    const byoc_tref inputs2[] = {T(C), T(Y), T(R)};
    const byoc_tref outputs2[] = {T(B), T(Z)};
    expect_part(part2, 2, BYOC_SEQ_PINPUTS, inputs2, 3);
    expect_part(part2, 2, BYOC_SEQ_POUTPUTS, outputs2, 2);
    /* Quantifying over the nodes' ops, as generated code does. */
    byoc_eval ev = eval_of(NULL, 0);
    ev.part = part;
    ev.npart = 3;
    static const char *const macs[] = {"nn.conv2d", "nn.dense"};
    static const char *const adds[] = {"add"};
    ck_assert_int_eq(byoc_ev_count_ops(&ev, macs, 2), 1);
    ck_assert_int_eq(byoc_ev_count_ops(&ev, adds, 1), 1);
    ck_assert_int_eq(byoc_ev_count_ops(&ev, NULL, 0), 0);
    ck_assert_int_eq(ev.undef, 0);
}
END_TEST

START_TEST(helpers)
{
    byoc_eval ev = eval_of(NULL, 0);
    ck_assert(byoc_ev_str_eq("NHWC", "NHWC"));
    ck_assert(!byoc_ev_str_eq("NHWC", "NCHW"));
    ck_assert(byoc_ev_str_eq(NULL, ""));
    static const int64_t ints[] = {1, 3, 5};
    ck_assert(byoc_ev_in_int(3, ints, 3));
    ck_assert(!byoc_ev_in_int(4, ints, 3));
    static const double floats[] = {0.5, 1.0};
    ck_assert(byoc_ev_in_float(1.0, floats, 2));
    ck_assert(!byoc_ev_in_float(1.5, floats, 2));
    static const char *const strs[] = {"NCHW", "NHWC"};
    ck_assert(byoc_ev_in_str("NHWC", strs, 2));
    ck_assert(!byoc_ev_in_str("HWIO", strs, 2));
    static const byoc_dtype dts[] = {BYOC_DT_FLOAT16, BYOC_DT_FLOAT32};
    ck_assert(byoc_ev_in_dt(BYOC_DT_FLOAT32, dts, 2));
    ck_assert(!byoc_ev_in_dt(BYOC_DT_FLOAT64, dts, 2));
    ck_assert_int_eq(byoc_ev_div(&ev, 7, 2), 3);
    ck_assert_int_eq(byoc_ev_div(&ev, -7, 2), -3);          /* C's truncation */
    ck_assert_int_eq(byoc_ev_mod(&ev, 64, 8), 0);
    ck_assert_int_eq(byoc_ev_mod(&ev, -7, 2), -1);
    ck_assert_double_eq(byoc_ev_fdiv(&ev, 1.0, 4.0), 0.25);
    ck_assert_int_eq(ev.undef, 0);
    ck_assert(!byoc_ev_fail(&ev, 3));
    ck_assert_int_eq(ev.failed_clause, 3);
}
END_TEST

/* ---- Errors: absent things are undefined, never a crash ----------------- */

START_TEST(unbound_slots)
{
    int slots[] = {C, -1};
    byoc_eval ev = eval_of(slots, 2);
    byoc_tref t = byoc_ev_slot(&ev, 1);
    ck_assert_int_eq(ev.undef, 1);
    ck_assert_int_eq(t.node, -1);
    /* Reading through it stays undefined and neutral. */
    ck_assert_int_eq(byoc_ev_dtype(&ev, t), BYOC_DT_VOID);
    ck_assert_int_eq(byoc_ev_rank(&ev, t), 0);
    ck_assert_ptr_null(byoc_ev_op(&ev, t));
    ck_assert(!byoc_ev_is_const(&ev, t));
    ck_assert_ptr_null(byoc_ev_attr(&ev, t, "groups"));
    ev = eval_of(slots, 2);
    byoc_ev_slot(&ev, 2);
    ck_assert_int_eq(ev.undef, 1);
    ev = eval_of(slots, 2);
    byoc_ev_slot(&ev, -1);
    ck_assert_int_eq(ev.undef, 1);
    ev = eval_of(NULL, 0);
    byoc_ev_slot(&ev, 0);
    ck_assert_int_eq(ev.undef, 1);
}
END_TEST

/* Run `expr` on a fresh context and check it set undef and gave `want`. */
#define UNDEF(want, expr)                                                   \
    do {                                                                    \
        byoc_eval ev = eval_of(NULL, 0);                                    \
        byoc_eval *e = &ev;                                                 \
        (void)e;                                                            \
        ck_assert_msg((expr) == (want), "%s: wrong neutral value", #expr);  \
        ck_assert_msg(ev.undef == 1, "%s: undef not set", #expr);           \
    } while (0)

START_TEST(unknown_types_and_dims)
{
    UNDEF(0, byoc_ev_dim(e, T(C), 2));          /* symbolic */
    UNDEF(0, byoc_ev_dim(e, T(C), 3));          /* unknown */
    UNDEF(0, byoc_ev_dim(e, T(C), -1));
    UNDEF(0, byoc_ev_dim(e, T(X), 4));          /* out of range */
    UNDEF(0, byoc_ev_dim(e, T(X), -5));
    UNDEF(0, byoc_ev_numel(e, T(C)));
    UNDEF(BYOC_DT_VOID, byoc_ev_dtype(e, T(S)));  /* a tuple as a whole */
    UNDEF(0, byoc_ev_rank(e, T(S)));
    UNDEF(0, byoc_ev_rank(e, F(S, 2)));         /* no such field */
    UNDEF(0, byoc_ev_rank(e, F(X, 0)));         /* not a tuple */
    UNDEF(0, byoc_ev_rank(e, T(99)));
    UNDEF(0, byoc_ev_seq_len(e, byoc_ev_seq_shape(e, T(S))));
    UNDEF(0, byoc_ev_seq_int(e, byoc_ev_seq_shape(e, T(C)), 3));
    UNDEF(false, byoc_ev_seq_eq(e, byoc_ev_seq_shape(e, T(C)), byoc_ev_seq_shape(e, T(C))));

    /* A call with no type set reads as unknown too. */
    byoc_error err;
    int x = X;
    int r = byoc_graph_add_call(g, "nn.relu", &x, 1, &err);
    UNDEF(BYOC_DT_VOID, byoc_ev_dtype(e, T(r)));
    UNDEF(0, byoc_ev_rank(e, T(r)));
    UNDEF(0, byoc_ev_numel(e, T(r)));
}
END_TEST

START_TEST(non_scalar_values)
{
    UNDEF(0.0, byoc_ev_value(e, T(W)));         /* const without a value */
    UNDEF(0.0, byoc_ev_value(e, T(X)));         /* not a constant */
    UNDEF(0.0, byoc_ev_value(e, F(K, 0)));
    byoc_error err;
    int64_t d[] = {2};
    byoc_tensor_type t = tensor(BYOC_DT_FLOAT32, 1, d);
    byoc_value items[] = {FLOAT(1.0), FLOAT(2.0)};
    byoc_value two = LIST(items, 2);
    int k = byoc_graph_add_const(g, &t, &two, &err);
    UNDEF(0.0, byoc_ev_value(e, T(k)));
    byoc_value s = STR("x");
    int ks = byoc_graph_add_const(g, &t, &s, &err);
    UNDEF(0.0, byoc_ev_value(e, T(ks)));
}
END_TEST

START_TEST(absent_attributes_and_options)
{
    UNDEF(NULL, byoc_ev_attr(e, T(C), "channels"));     /* optional, None */
    UNDEF(NULL, byoc_ev_attr(e, T(C), "no_such"));
    UNDEF(NULL, byoc_ev_attr(e, T(X), "groups"));        /* not a call */
    UNDEF(NULL, byoc_ev_option(e, 7));
    UNDEF(NULL, byoc_ev_option(e, -1));
    /* Reading an attribute that is absent, as generated code does. */
    UNDEF(0, byoc_ev_int(e, byoc_ev_attr(e, T(C), "channels")));
    UNDEF(false, byoc_ev_bool(e, NULL));
    UNDEF(0.0, byoc_ev_float(e, NULL));
    UNDEF(BYOC_DT_VOID, byoc_ev_dt(e, NULL));
    UNDEF(0u, byoc_ev_ver(e, NULL));
    UNDEF(0, strcmp(byoc_ev_str(e, NULL), ""));
    /* The wrong kind: the option at 6 is None, 3 a string. */
    UNDEF(false, byoc_ev_bool(e, byoc_ev_option(e, 6)));
    UNDEF(0, byoc_ev_int(e, byoc_ev_option(e, 3)));
    UNDEF(0.0, byoc_ev_float(e, byoc_ev_option(e, 0)));
    UNDEF(0, strcmp(byoc_ev_str(e, byoc_ev_option(e, 1)), ""));
    UNDEF(BYOC_DT_VOID, byoc_ev_dt(e, byoc_ev_option(e, 3)));
    UNDEF(0u, byoc_ev_ver(e, byoc_ev_option(e, 1)));
    byoc_value half = FLOAT(2.5), huge = FLOAT(1e30);
    UNDEF(0, byoc_ev_int(e, &half));
    UNDEF(0, byoc_ev_int(e, &huge));
}
END_TEST

START_TEST(bad_sequences)
{
    byoc_value three = INT(3);
    UNDEF(0, byoc_ev_seq_len(e, byoc_ev_seq_values(e, NULL)));
    UNDEF(0, byoc_ev_seq_len(e, byoc_ev_seq_values(e, &three)));
    UNDEF(0, byoc_ev_seq_int(e, byoc_ev_seq_values(e, byoc_ev_attr(e, T(C), "strides")), 2));
    UNDEF(0, byoc_ev_seq_int(e, byoc_ev_seq_values(e, byoc_ev_attr(e, T(C), "strides")), -3));
    UNDEF(NULL, byoc_ev_seq_value(e, byoc_ev_seq_values(e, NULL), 0));
    UNDEF(-1, byoc_ev_seq_tensor(e, byoc_ev_seq_inputs(e, T(C)), 2).node);
    UNDEF(-1, byoc_ev_seq_tensor(e, byoc_ev_seq_inputs(e, T(99)), 0).node);
    UNDEF(0, byoc_ev_seq_int(e, byoc_ev_seq_inputs(e, T(C)), 0));       /* tensors */
    UNDEF(NULL, byoc_ev_seq_value(e, byoc_ev_seq_shape(e, T(X)), 0));   /* not values */
    /* Partition sequences outside a partition rule. */
    UNDEF(0, byoc_ev_seq_len(e, byoc_ev_seq_part(e, BYOC_SEQ_NODES)));
    UNDEF(0, byoc_ev_count_ops(e, NULL, 0));
    /* A list of non-ints read as ints. */
    byoc_value strs[] = {STR("a")};
    byoc_value l = LIST(strs, 1);
    UNDEF(0, byoc_ev_seq_int(e, byoc_ev_seq_values(e, &l), 0));
}
END_TEST

START_TEST(undefined_arithmetic)
{
    UNDEF(0, byoc_ev_div(e, 1, 0));
    UNDEF(0, byoc_ev_mod(e, 1, 0));
    UNDEF(0, byoc_ev_div(e, INT64_MIN, -1));
    UNDEF(0, byoc_ev_mod(e, INT64_MIN, -1));
    UNDEF(0.0, byoc_ev_fdiv(e, 1.0, 0.0));
    int64_t d[] = {INT64_MAX / 2, 3};
    byoc_tensor_type t = tensor(BYOC_DT_INT8, 2, d);
    byoc_error err;
    int big = byoc_graph_add_input(g, "big", &t, &err);
    UNDEF(0, byoc_ev_numel(e, T(big)));          /* overflows int64 */
}
END_TEST

static Suite *pred_suite(void)
{
    Suite *s = suite_create("pred");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, slots_and_tensor_reads);
    tcase_add_test(core, attributes_and_options);
    tcase_add_test(core, sequences);
    tcase_add_test(core, data_and_range_sequences);
    tcase_add_test(core, partition_sequences);
    tcase_add_test(core, helpers);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, unbound_slots);
    tcase_add_test(errors, unknown_types_and_dims);
    tcase_add_test(errors, non_scalar_values);
    tcase_add_test(errors, absent_attributes_and_options);
    tcase_add_test(errors, bad_sequences);
    tcase_add_test(errors, undefined_arithmetic);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(pred_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
