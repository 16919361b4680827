/* Unit tests of type inference and flops (runtime/infer.c): every shape
 * rule of lib/relay.byoc on the attribute forms TVM accepts, symbols and
 * unknown sizes, declared types checked against inferred ones, reasons for
 * nodes left untyped, and each flops rule's formula. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

static byoc_registry *reg;
static byoc_graph *g;
static byoc_error err;

static void setup(void)
{
    reg = byoc_registry_create();
    ck_assert_int_eq(byoc_register_relay(reg, &err), 0);
    g = byoc_graph_create(reg);
}

static void teardown(void)
{
    byoc_graph_destroy(g);
    byoc_registry_destroy(reg);
    g = NULL;
    reg = NULL;
}

/* ---- building ------------------------------------------------------------ */

#define COUNT(...) (sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t))
#define TT(dt, ...) ty_(BYOC_DT_##dt, (const int64_t[]){__VA_ARGS__}, (int)COUNT(__VA_ARGS__))
#define SCALAR(dt) ty_(BYOC_DT_##dt, NULL, 0)
#define SET_INTS(node, name, ...) \
    set_ints_((node), (name), (const int64_t[]){__VA_ARGS__}, COUNT(__VA_ARGS__))

static byoc_tensor_type ty_(byoc_dtype dt, const int64_t *dims, int rank)
{
    byoc_tensor_type t;
    memset(&t, 0, sizeof t);
    t.dtype = dt;
    t.rank = rank;
    for (int i = 0; i < rank; i++)
        t.dims[i] = dims[i];
    return t;
}

static int64_t sym(const char *name) { return BYOC_DIM_SYMBOL(byoc_graph_symbol(g, name)); }

static int in(const char *name, byoc_tensor_type t)
{
    int id = byoc_graph_add_input(g, name, &t, &err);
    ck_assert_int_ge(id, 0);
    return id;
}

static int untyped_in(const char *name)
{
    int id = byoc_graph_add_input(g, name, NULL, &err);
    ck_assert_int_ge(id, 0);
    return id;
}

static int opn(const char *op, const int *args, int n)
{
    int id = byoc_graph_add_call(g, op, args, n, &err);
    ck_assert_msg(id >= 0, "%s: %s", op, err.msg);
    return id;
}

static int op0(const char *op) { return opn(op, NULL, 0); }
static int op1(const char *op, int a) { return opn(op, &a, 1); }

static int op2(const char *op, int a, int b)
{
    int args[] = {a, b};
    return opn(op, args, 2);
}

static int op3(const char *op, int a, int b, int c)
{
    int args[] = {a, b, c};
    return opn(op, args, 3);
}

static int tuple(const int *fields, int n)
{
    int id = byoc_graph_add_tuple(g, fields, n, &err);
    ck_assert_int_ge(id, 0);
    return id;
}

static int proj(int t, int i)
{
    int id = byoc_graph_add_proj(g, t, i, &err);
    ck_assert_int_ge(id, 0);
    return id;
}

static void set(int node, const char *name, const byoc_value *v)
{
    ck_assert_msg(byoc_graph_set_attr(g, node, name, v, &err) == 0, "%s: %s", name, err.msg);
}

static void set_int(int node, const char *name, int64_t i)
{
    byoc_value v = {.kind = BYOC_V_INT, .u.i = i};
    set(node, name, &v);
}

static void set_bool(int node, const char *name, bool b)
{
    byoc_value v = {.kind = BYOC_V_BOOL, .u.b = b};
    set(node, name, &v);
}

static void set_float(int node, const char *name, double f)
{
    byoc_value v = {.kind = BYOC_V_FLOAT, .u.f = f};
    set(node, name, &v);
}

static void set_str(int node, const char *name, const char *s)
{
    byoc_value v = {.kind = BYOC_V_STRING, .u.s = s};
    set(node, name, &v);
}

static void set_dtype(int node, const char *name, byoc_dtype dt)
{
    byoc_value v = {.kind = BYOC_V_DTYPE, .u.dt = dt};
    set(node, name, &v);
}

static void set_ints_(int node, const char *name, const int64_t *vals, size_t n)
{
    byoc_value items[16];
    ck_assert_uint_le(n, 16);
    for (size_t i = 0; i < n; i++)
        items[i] = (byoc_value){.kind = BYOC_V_INT, .u.i = vals[i]};
    byoc_value v = {.kind = BYOC_V_LIST, .u.list = {items, n}};
    set(node, name, &v);
}

static void set_empty_list(int node, const char *name) { set_ints_(node, name, NULL, 0); }

/* An int[][] of pairs. */
static void set_pairs(int node, const char *name, const int64_t (*p)[2], size_t n)
{
    byoc_value items[8][2], rows[8];
    for (size_t i = 0; i < n; i++) {
        items[i][0] = (byoc_value){.kind = BYOC_V_INT, .u.i = p[i][0]};
        items[i][1] = (byoc_value){.kind = BYOC_V_INT, .u.i = p[i][1]};
        rows[i] = (byoc_value){.kind = BYOC_V_LIST, .u.list = {items[i], 2}};
    }
    byoc_value v = {.kind = BYOC_V_LIST, .u.list = {rows, n}};
    set(node, name, &v);
}

static void infer(void)
{
    ck_assert_msg(byoc_graph_infer_types(g, &err) == 0, "%s", err.msg);
}

/* ---- reading --------------------------------------------------------------- */

/* A type as "(1, 3, 224, 224) float32": symbols by name, '?' for what is
 * not known.  Rotating buffers, so one assertion can show several. */
static const char *show(int node, int field)
{
    static char bufs[8][160];
    static int next;
    char *b = bufs[next++ % 8];
    const byoc_tensor_type *t = byoc_node_type(g, node, field);
    if (!t)
        return "(no tensor type)";
    if (t->rank < 0) {
        snprintf(b, 160, "? %s", byoc_dtype_name(t->dtype));
        return b;
    }
    size_t len = 0;
    len += (size_t)snprintf(b + len, 160 - len, "(");
    for (int i = 0; i < t->rank; i++) {
        const char *sep = i ? ", " : "";
        if (t->dims[i] >= 0)
            len += (size_t)snprintf(b + len, 160 - len, "%s%lld", sep, (long long)t->dims[i]);
        else if (t->dims[i] == BYOC_DIM_UNKNOWN)
            len += (size_t)snprintf(b + len, 160 - len, "%s?", sep);
        else
            len += (size_t)snprintf(b + len, 160 - len, "%s%s", sep,
                                    byoc_graph_symbol_name(g, (int)(-2 - t->dims[i])));
    }
    snprintf(b + len, 160 - len, ") %s", byoc_dtype_name(t->dtype));
    return b;
}

#define EXPECT(node, text) ck_assert_str_eq(show((node), -1), (text))
#define EXPECT_FIELD(node, f, text) ck_assert_str_eq(show((node), (f)), (text))

/* The reason a node is untyped contains `part`. */
static void expect_untyped(int node, const char *part)
{
    const char *r = byoc_node_untyped_reason(g, node);
    ck_assert_msg(r != NULL, "node %d has a type %s", node, show(node, -1));
    ck_assert_msg(strstr(r, part) != NULL, "reason '%s' lacks '%s'", r, part);
    ck_assert_int_eq(byoc_node_type(g, node, -1)->rank, -1);
}

static void expect_typed(int node)
{
    const char *r = byoc_node_untyped_reason(g, node);
    ck_assert_msg(r == NULL, "node %d: %s", node, r);
}

/* ---- broadcasting and elementwise ------------------------------------------- */

START_TEST(broadcasting)
{
    int a = in("a", TT(FLOAT32, 1, 3, 1, 5));
    int b = in("b", TT(FLOAT32, 4, 1));
    int s = in("s", SCALAR(FLOAT32));
    int i = in("i", TT(INT32, 3));
    int add = op2("add", a, b);
    int rev = op2("multiply", b, a);
    int sc = op2("subtract", s, a);
    int cmp = op2("greater", a, b);
    int cond = in("cond", TT(BOOL, 4, 1));
    int wh = op3("where", cond, a, a);
    int same = op2("maximum", b, b);
    int bad = op2("add", in("c", TT(FLOAT32, 2, 3)), in("d", TT(FLOAT32, 4, 3)));
    int mixed = op2("add", i, in("f", TT(FLOAT32, 3)));
    int like = op2("broadcast_to_like", in("e", TT(FLOAT32, 3, 1)), in("l", TT(INT64, 2, 3, 4)));
    infer();
    EXPECT(add, "(1, 3, 4, 5) float32");
    EXPECT(rev, "(1, 3, 4, 5) float32");
    EXPECT(sc, "(1, 3, 1, 5) float32");
    EXPECT(cmp, "(1, 3, 4, 5) bool");
    EXPECT(wh, "(1, 3, 4, 5) float32");
    EXPECT(same, "(4, 1) float32");
    expect_untyped(bad, "dimensions 2 and 4 do not broadcast");
    EXPECT(mixed, "(3) int32"); /* TVM would reject it; see rule_broadcast */
    EXPECT(like, "(2, 3, 4) float32");
}
END_TEST

START_TEST(elementwise_and_cast)
{
    int x = in("x", TT(FLOAT16, 2, 3));
    int relu = op1("nn.relu", x);
    int nan = op1("isnan", x);
    int cast = op1("cast", x);
    set_dtype(cast, "dtype", BYOC_DT_INT8);
    int like = op2("cast_like", x, in("y", TT(FLOAT64, 7)));
    int q = op3("qnn.quantize", x, in("s", SCALAR(FLOAT32)), in("z", SCALAR(INT32)));
    int rq = opn("qnn.requantize", (int[]){x, x, x, x, x}, 5);
    set_dtype(rq, "out_dtype", BYOC_DT_UINT8);
    int dq = op3("qnn.dequantize", q, x, x);
    int unset = op1("cast", x);
    infer();
    EXPECT(relu, "(2, 3) float16");
    EXPECT(nan, "(2, 3) bool");
    EXPECT(cast, "(2, 3) int8");
    EXPECT(like, "(2, 3) float64");
    EXPECT(q, "(2, 3) int8");
    EXPECT(rq, "(2, 3) uint8");
    EXPECT(dq, "(2, 3) float32");
    expect_untyped(unset, "attribute 'dtype' is not set");
}
END_TEST

/* ---- reductions ---------------------------------------------------------------- */

START_TEST(reductions)
{
    int x = in("x", TT(FLOAT32, 2, 3, 4, 5));
    int all = op1("sum", x);
    int keep = op1("mean", x);
    SET_INTS(keep, "axis", 1, -1);
    set_bool(keep, "keepdims", true);
    int drop = op1("max", x);
    SET_INTS(drop, "axis", -1, 1);
    int excl = op1("min", x);
    SET_INTS(excl, "axis", 1);
    set_bool(excl, "exclude", true);
    int excl_keep = op1("prod", x);
    SET_INTS(excl_keep, "axis", 0, 3);
    set_bool(excl_keep, "exclude", true);
    set_bool(excl_keep, "keepdims", true);
    int empty = op1("sum", x);
    set_empty_list(empty, "axis");
    int arg = op1("argmax", x);
    SET_INTS(arg, "axis", 2);
    int none_keep = op1("all", in("b", TT(BOOL, 2, 2)));
    set_bool(none_keep, "keepdims", true);
    int var = op2("variance", x, x);
    SET_INTS(var, "axis", 0);
    int out_of_range = op1("sum", x);
    SET_INTS(out_of_range, "axis", 4);
    infer();
    EXPECT(all, "() float32");
    EXPECT(keep, "(2, 1, 4, 1) float32");
    EXPECT(drop, "(2, 4) float32");
    EXPECT(excl, "(3) float32");
    EXPECT(excl_keep, "(2, 1, 1, 5) float32");
    EXPECT(empty, "() float32");
    EXPECT(arg, "(2, 3, 5) int32");
    EXPECT(none_keep, "(1, 1) bool");
    EXPECT(var, "(3, 4, 5) float32");
    expect_untyped(out_of_range, "axis 4 is out of range for rank 4");
}
END_TEST

/* ---- reshaping --------------------------------------------------------------- */

START_TEST(reshape_codes)
{
    int x = in("x", TT(FLOAT32, 2, 3, 4));
    int infer1 = op1("reshape", x);
    SET_INTS(infer1, "newshape", 6, -1);
    int copy0 = op1("reshape", x);
    SET_INTS(copy0, "newshape", 0, -1);
    int rest = op1("reshape", x);
    SET_INTS(rest, "newshape", -1, -2);
    int merge = op1("reshape", x);
    SET_INTS(merge, "newshape", -3, 4);
    int split = op1("reshape", x);
    SET_INTS(split, "newshape", -4, 1, 2, -2);
    int split_infer = op1("reshape", x);
    SET_INTS(split_infer, "newshape", 2, -4, -1, 3, 4);
    int mixed = op1("reshape", x);
    SET_INTS(mixed, "newshape", 0, -3);
    int flat = op1("reshape", x);
    SET_INTS(flat, "newshape", -1);
    int zero = op1("reshape", in("z", TT(FLOAT32, 0, 3)));
    SET_INTS(zero, "newshape", 0, 3);
    set_bool(zero, "allowzero", true);
    int rev = op1("contrib_reverse_reshape", x);
    SET_INTS(rev, "newshape", -1, 0);
    int rev2 = op1("contrib_reverse_reshape", in("r", TT(FLOAT32, 10, 5, 4)));
    SET_INTS(rev2, "newshape", -1, 0);
    int bad = op1("reshape", x);
    SET_INTS(bad, "newshape", 5, -1);
    int wrong = op1("reshape", x);
    SET_INTS(wrong, "newshape", 5, 5);
    int two = op1("reshape", x);
    SET_INTS(two, "newshape", -1, -1);
    int code = op1("reshape", x);
    SET_INTS(code, "newshape", -5);
    infer();
    EXPECT(infer1, "(6, 4) float32");
    EXPECT(copy0, "(2, 12) float32");
    EXPECT(rest, "(2, 3, 4) float32");
    EXPECT(merge, "(6, 4) float32");
    EXPECT(split, "(1, 2, 3, 4) float32");
    EXPECT(split_infer, "(2, 1, 3, 4) float32");
    EXPECT(mixed, "(2, 12) float32");
    EXPECT(flat, "(24) float32");
    EXPECT(zero, "(0, 3) float32");
    EXPECT(rev, "(6, 4) float32");
    EXPECT(rev2, "(50, 4) float32"); /* TVM's own example */
    expect_untyped(bad, "24 elements do not divide by 5");
    expect_untyped(wrong, "24 elements cannot become 25");
    expect_untyped(two, "more than one axis");
    expect_untyped(code, "newshape value -5");
}
END_TEST

START_TEST(reshape_like_and_flatten)
{
    int x = in("x", TT(FLOAT32, 2, 3, 4));
    int like = op2("reshape_like", x, in("l", TT(INT8, 6, 4)));
    int part = op2("reshape_like", x, in("m", TT(INT8, 9, 12, 7)));
    set_int(part, "lhs_begin", 1);
    set_int(part, "rhs_begin", 1);
    set_int(part, "rhs_end", -1);
    int flat = op1("nn.batch_flatten", x);
    int bad = op2("reshape_like", x, in("n", TT(INT8, 5)));
    infer();
    EXPECT(like, "(6, 4) float32");
    EXPECT(part, "(2, 12) float32");
    EXPECT(flat, "(2, 12) float32");
    expect_untyped(bad, "24 elements cannot become 5");
}
END_TEST

START_TEST(transpose_and_layout)
{
    int x = in("x", TT(FLOAT32, 1, 2, 3, 4));
    int rev = op1("transpose", x);
    int perm = op1("transpose", x);
    SET_INTS(perm, "axes", 0, 2, 3, 1);
    int neg = op1("transpose", x);
    SET_INTS(neg, "axes", 0, -1, 1, 2);
    int dup = op1("transpose", x);
    SET_INTS(dup, "axes", 0, 0, 1, 2);
    int nchw = in("nchw", TT(FLOAT32, 1, 32, 7, 9));
    int to_c = op1("layout_transform", nchw);
    set_str(to_c, "src_layout", "NCHW");
    set_str(to_c, "dst_layout", "NCHW8c");
    int back = op1("layout_transform", to_c);
    set_str(back, "src_layout", "NCHW8c");
    set_str(back, "dst_layout", "NHWC");
    int bad = op1("layout_transform", nchw);
    set_str(bad, "src_layout", "NCHW");
    set_str(bad, "dst_layout", "NCDHW");
    infer();
    EXPECT(rev, "(4, 3, 2, 1) float32");
    EXPECT(perm, "(1, 3, 4, 2) float32");
    EXPECT(neg, "(1, 4, 2, 3) float32");
    expect_untyped(dup, "axis 0 appears twice");
    EXPECT(to_c, "(1, 4, 7, 9, 8) float32");
    EXPECT(back, "(1, 7, 9, 32) float32");
    expect_untyped(bad, "cannot convert from NCHW to NCDHW");
}
END_TEST

START_TEST(squeeze_and_expand_dims)
{
    int x = in("x", TT(FLOAT32, 1, 3, 1, 5));
    int all = op1("squeeze", x);
    int some = op1("squeeze", x);
    SET_INTS(some, "axis", -2);
    int notone = op1("squeeze", x);
    SET_INTS(notone, "axis", 1);
    int e = op1("expand_dims", x);
    set_int(e, "axis", 1);
    int e_end = op1("expand_dims", x);
    set_int(e_end, "axis", -1);
    set_int(e_end, "num_newaxis", 2);
    int e_none = op1("expand_dims", x);
    set_int(e_none, "axis", 0);
    set_int(e_none, "num_newaxis", 0);
    int e_far = op1("expand_dims", x);
    set_int(e_far, "axis", 5);
    int n = in("n", TT(FLOAT32, 1, 1));
    byoc_graph_set_type(g, n, &(byoc_tensor_type){BYOC_DT_FLOAT32, 2, {1, BYOC_DIM_UNKNOWN}});
    int dyn = op1("squeeze", n);
    infer();
    EXPECT(all, "(3, 5) float32");
    EXPECT(some, "(1, 3, 5) float32");
    expect_untyped(notone, "axis 1 has size 3, not 1");
    EXPECT(e, "(1, 1, 3, 1, 5) float32");
    EXPECT(e_end, "(1, 3, 1, 5, 1, 1) float32");
    EXPECT(e_none, "(1, 3, 1, 5) float32");
    expect_untyped(e_far, "axis 5 is out of range");
    expect_untyped(dyn, "needs axis 1 known");
}
END_TEST

START_TEST(strided_slice_forms)
{
    int x = in("x", TT(FLOAT32, 10, 20, 30));
    int basic = op1("strided_slice", x);
    SET_INTS(basic, "begin", 1, 2, 3);
    SET_INTS(basic, "end", 5, 12, 30);
    int stride = op1("strided_slice", x);
    SET_INTS(stride, "begin", 0, 0, 0);
    SET_INTS(stride, "end", 10, 20, 30);
    SET_INTS(stride, "strides", 3, 2, 7);
    int neg = op1("strided_slice", x);
    SET_INTS(neg, "begin", -3);
    SET_INTS(neg, "end", 100);
    int back = op1("strided_slice", x);
    SET_INTS(back, "begin", 9);
    SET_INTS(back, "end", -11);
    SET_INTS(back, "strides", -1);
    int size = op1("strided_slice", x);
    SET_INTS(size, "begin", 2, 5);
    SET_INTS(size, "end", 3, -1);
    set_str(size, "slice_mode", "size");
    int axes = op1("strided_slice", x);
    SET_INTS(axes, "begin", 4);
    SET_INTS(axes, "end", 8);
    SET_INTS(axes, "strides", 1);
    SET_INTS(axes, "axes", -1);
    int bad = op1("strided_slice", x);
    SET_INTS(bad, "begin", 5);
    SET_INTS(bad, "end", 2);
    int mismatch = op1("strided_slice", x);
    SET_INTS(mismatch, "begin", 0, 0);
    SET_INTS(mismatch, "end", 1, 1);
    SET_INTS(mismatch, "axes", 0);
    infer();
    EXPECT(basic, "(4, 10, 27) float32");
    EXPECT(stride, "(4, 10, 5) float32");
    EXPECT(neg, "(3, 20, 30) float32");
    EXPECT(back, "(10, 20, 30) float32");
    EXPECT(size, "(3, 15, 30) float32");
    EXPECT(axes, "(10, 20, 4) float32");
    expect_untyped(bad, "begin 5 and end 2 are invalid for axis 0");
    expect_untyped(mismatch, "must have the same length");
}
END_TEST

START_TEST(split_and_projection)
{
    int x = in("x", TT(FLOAT32, 4, 6));
    int sec = op1("split", x);
    set_int(sec, "indices_or_sections", 3);
    set_int(sec, "axis", -1);
    int idx = op1("split", x);
    SET_INTS(idx, "indices_or_sections", 1, 3);
    int p0 = proj(sec, 2);
    int p1 = proj(idx, 2);
    int uneven = op1("split", x);
    set_int(uneven, "indices_or_sections", 4);
    set_int(uneven, "axis", 1);
    int unsorted = op1("split", x);
    SET_INTS(unsorted, "indices_or_sections", 2, 2);
    int past = op1("split", x);
    SET_INTS(past, "indices_or_sections", 4);
    infer();
    ck_assert_int_eq(byoc_node_field_count(g, sec), 3);
    EXPECT_FIELD(sec, 0, "(4, 2) float32");
    EXPECT_FIELD(sec, 2, "(4, 2) float32");
    ck_assert_int_eq(byoc_node_field_count(g, idx), 3);
    EXPECT_FIELD(idx, 0, "(1, 6) float32");
    EXPECT_FIELD(idx, 1, "(2, 6) float32");
    EXPECT_FIELD(idx, 2, "(1, 6) float32");
    EXPECT(p0, "(4, 2) float32");
    EXPECT(p1, "(1, 6) float32");
    expect_untyped(uneven, "4 sections do not divide axis 1 of 6");
    expect_untyped(unsorted, "must ascend");
    expect_untyped(past, "split index 4 is not inside axis 0 of 4");
}
END_TEST

START_TEST(concatenate_and_stack)
{
    int a = in("a", TT(FLOAT32, 2, 3));
    int b = in("b", TT(FLOAT32, 2, 5));
    int t = tuple((int[]){a, b, a}, 3);
    int cat = op1("concatenate", t);
    set_int(cat, "axis", -1);
    int bad = op1("concatenate", t);
    int s = op1("stack", tuple((int[]){a, a}, 2));
    set_int(s, "axis", -1);
    int s0 = op1("stack", tuple((int[]){a, a, a}, 3));
    int sbad = op1("stack", t);
    int one = op1("concatenate", tuple((int[]){b}, 1));
    int notuple = op1("concatenate", a);
    infer();
    EXPECT(cat, "(2, 11) float32");
    expect_untyped(bad, "fields differ on axis 1");
    EXPECT(s, "(2, 3, 2) float32");
    EXPECT(s0, "(3, 2, 3) float32");
    expect_untyped(sbad, "fields differ on axis 1");
    EXPECT(one, "(2, 5) float32");
    expect_untyped(notuple, "data is not a tuple");
    ck_assert_int_eq(byoc_node_field_count(g, t), 3);
    EXPECT_FIELD(t, 1, "(2, 5) float32");
}
END_TEST

START_TEST(take_and_gather)
{
    int data = in("data", TT(FLOAT32, 5, 6, 7));
    int idx = in("idx", TT(INT32, 2, 3));
    int flat = op2("take", data, idx);
    int ax = op2("take", data, idx);
    set_int(ax, "axis", 1);
    int neg = op2("take", data, idx);
    set_int(neg, "axis", -1);
    int bidx = in("bidx", TT(INT64, 5, 4));
    int batch = op2("take", data, bidx);
    set_int(batch, "axis", 1);
    set_int(batch, "batch_dims", 1);
    int fidx = op2("take", data, in("f", TT(FLOAT32, 2)));
    set_int(fidx, "axis", 0);
    int gat = op2("gather", data, in("gi", TT(INT32, 5, 2, 7)));
    set_int(gat, "axis", 1);
    int gnd = op2("gather_nd", data, in("ni", TT(INT32, 2, 4)));
    int gnd_b = op2("gather_nd", data, in("nb", TT(INT32, 1, 5)));
    set_int(gnd_b, "batch_dims", 1);
    infer();
    EXPECT(flat, "(2, 3) float32");
    EXPECT(ax, "(5, 2, 3, 7) float32");
    EXPECT(neg, "(5, 6, 2, 3) float32");
    EXPECT(batch, "(5, 4, 7) float32");
    expect_untyped(fidx, "indices must be integers, not float32");
    EXPECT(gat, "(5, 2, 7) float32");
    EXPECT(gnd, "(4, 7) float32");
    EXPECT(gnd_b, "(5, 7) float32");
}
END_TEST

/* ---- matrix products -------------------------------------------------------- */

START_TEST(batch_matmul_flags)
{
    int a = in("a", TT(FLOAT32, 8, 2, 3)), at = in("at", TT(FLOAT32, 8, 3, 2));
    int b = in("b", TT(FLOAT32, 8, 3, 4)), bt = in("bt", TT(FLOAT32, 8, 4, 3));
    int nn = op2("nn.batch_matmul", a, b);
    int nt = op2("nn.batch_matmul", a, bt);
    set_bool(nt, "transpose_b", true);
    int tn = op2("nn.batch_matmul", at, b);
    set_bool(tn, "transpose_a", true);
    int tt = op2("nn.batch_matmul", at, bt);
    set_bool(tt, "transpose_a", true);
    set_bool(tt, "transpose_b", true);
    int bc = op2("nn.batch_matmul", in("one", TT(FLOAT32, 1, 2, 3)), b);
    set_dtype(bc, "out_dtype", BYOC_DT_FLOAT16);
    int bad_k = op2("nn.batch_matmul", a, bt);
    int bad_b = op2("nn.batch_matmul", in("c", TT(FLOAT32, 3, 2, 3)), b);
    int rank = op2("nn.batch_matmul", in("r", TT(FLOAT32, 2, 3)), b);
    infer();
    EXPECT(nn, "(8, 2, 4) float32");
    EXPECT(nt, "(8, 2, 4) float32");
    EXPECT(tn, "(8, 2, 4) float32");
    EXPECT(tt, "(8, 2, 4) float32");
    EXPECT(bc, "(8, 2, 4) float16");
    expect_untyped(bad_k, "reduction axes 3 and 4 differ");
    expect_untyped(bad_b, "batch dimensions 3 and 8 differ");
    expect_untyped(rank, "must have rank 3");
}
END_TEST

START_TEST(dense_and_matmul)
{
    int x = in("x", TT(FLOAT32, 4, 7, 16));
    int w = in("w", TT(FLOAT32, 32, 16));
    int d = op2("nn.dense", x, w);
    int du = op2("nn.dense", x, untyped_in("u"));
    set_int(du, "units", 10);
    set_dtype(du, "out_dtype", BYOC_DT_FLOAT64);
    int bad = op2("nn.dense", x, in("w2", TT(FLOAT32, 32, 15)));
    int bad_units = op2("nn.dense", x, w);
    set_int(bad_units, "units", 31);
    int mm = op2("nn.matmul", in("a", TT(FLOAT32, 5, 16)), w);
    set_bool(mm, "transpose_b", true);
    int mta = op2("nn.matmul", in("at", TT(FLOAT32, 16, 5)), in("b", TT(FLOAT32, 16, 9)));
    set_bool(mta, "transpose_a", true);
    int qd = opn("qnn.dense", (int[]){in("q", TT(INT8, 2, 16)), in("qw", TT(INT8, 8, 16)), x, x,
                                       x, x},
                 6);
    infer();
    EXPECT(d, "(4, 7, 32) float32");
    EXPECT(du, "(4, 7, 10) float64");
    expect_untyped(bad, "reduction axes 16 and 15 differ");
    expect_untyped(bad_units, "units 31 does not match the weight's 32");
    EXPECT(mm, "(5, 32) float32");
    EXPECT(mta, "(5, 9) float32");
    EXPECT(qd, "(2, 8) int32");
}
END_TEST

/* ---- convolution -------------------------------------------------------------- */

START_TEST(conv2d_padding_forms)
{
    int x = in("x", TT(FLOAT32, 1, 3, 224, 224));
    int w = in("w", TT(FLOAT32, 64, 3, 7, 7));
    int none = op2("nn.conv2d", x, w);
    int p1 = op2("nn.conv2d", x, w);
    SET_INTS(p1, "padding", 3);
    SET_INTS(p1, "strides", 2, 2);
    int p2 = op2("nn.conv2d", x, w);
    SET_INTS(p2, "padding", 1, 2);
    int p4 = op2("nn.conv2d", x, w);
    SET_INTS(p4, "padding", 1, 2, 3, 4);
    int odd = op2("nn.conv2d", x, w);
    SET_INTS(odd, "padding", 3, 3, 3, 3);
    SET_INTS(odd, "strides", 2, 3);
    int dil = op2("nn.conv2d", x, w);
    SET_INTS(dil, "dilation", 2, 2);
    int bad = op2("nn.conv2d", x, w);
    SET_INTS(bad, "padding", 1, 2, 3);
    infer();
    EXPECT(none, "(1, 64, 218, 218) float32");
    EXPECT(p1, "(1, 64, 112, 112) float32");
    EXPECT(p2, "(1, 64, 220, 222) float32");
    EXPECT(p4, "(1, 64, 222, 224) float32");
    EXPECT(odd, "(1, 64, 112, 75) float32");
    EXPECT(dil, "(1, 64, 212, 212) float32");
    expect_untyped(bad, "'padding' has 3 values");
}
END_TEST

START_TEST(conv2d_layouts)
{
    int nhwc = in("nhwc", TT(FLOAT32, 1, 56, 56, 64));
    int ohwi = op2("nn.conv2d", nhwc, in("ohwi", TT(FLOAT32, 128, 3, 3, 64)));
    set_str(ohwi, "data_layout", "NHWC");
    set_str(ohwi, "kernel_layout", "OHWI");
    SET_INTS(ohwi, "padding", 1);
    int hwio = op2("nn.conv2d", nhwc, in("hwio", TT(FLOAT32, 1, 1, 64, 32)));
    set_str(hwio, "data_layout", "NHWC");
    set_str(hwio, "kernel_layout", "HWIO");
    SET_INTS(hwio, "strides", 2, 2);
    int nchw = in("nchw", TT(FLOAT32, 2, 64, 28, 28));
    int out_nhwc = op2("nn.conv2d", nchw, in("oihw", TT(FLOAT32, 16, 64, 3, 3)));
    set_str(out_nhwc, "out_layout", "NHWC");
    set_dtype(out_nhwc, "out_dtype", BYOC_DT_FLOAT16);
    int blocked = op2("nn.conv2d", in("b", TT(FLOAT32, 1, 8, 14, 14, 8)),
                      in("bw", TT(FLOAT32, 4, 8, 1, 1, 8, 8)));
    set_str(blocked, "data_layout", "NCHW8c");
    set_str(blocked, "kernel_layout", "OIHW8i8o");
    int rank = op2("nn.conv2d", in("r", TT(FLOAT32, 1, 3, 224)),
                   in("rw", TT(FLOAT32, 64, 3, 7, 7)));
    int mismatch = op2("nn.conv2d", nchw, in("mw", TT(FLOAT32, 16, 32, 3, 3)));
    int badlayout = op2("nn.conv2d", nchw, in("lw", TT(FLOAT32, 16, 64, 3, 3)));
    set_str(badlayout, "kernel_layout", "OIDHW");
    infer();
    EXPECT(ohwi, "(1, 56, 56, 128) float32");
    EXPECT(hwio, "(1, 28, 28, 32) float32");
    EXPECT(out_nhwc, "(2, 26, 26, 16) float16");
    EXPECT(blocked, "(1, 4, 14, 14, 8) float32");
    ck_assert_str_eq(byoc_node_untyped_reason(g, rank),
                     "nn.conv2d: cannot infer from inputs Tensor[(1, 3, 224), float32], "
                     "Tensor[(64, 3, 7, 7), float32]: data must have rank 4 for layout NCHW");
    expect_untyped(mismatch, "64 input channels / 1 groups do not match the weight's 32");
    expect_untyped(badlayout, "kernel layout OIDHW does not match data layout NCHW");
}
END_TEST

START_TEST(conv_groups_and_attributes)
{
    int x = in("x", TT(FLOAT32, 1, 32, 16, 16));
    int grouped = op2("nn.conv2d", x, in("gw", TT(FLOAT32, 64, 8, 3, 3)));
    set_int(grouped, "groups", 4);
    int dw = op2("nn.conv2d", x, in("dw", TT(FLOAT32, 32, 1, 3, 3)));
    set_int(dw, "groups", 32);
    SET_INTS(dw, "padding", 1, 1);
    int nhwc = in("nhwc", TT(FLOAT32, 1, 16, 16, 32));
    int dw_nhwc = op2("nn.conv2d", nhwc, in("hwoi", TT(FLOAT32, 3, 3, 32, 2)));
    set_int(dw_nhwc, "groups", 32);
    set_int(dw_nhwc, "channels", 64);
    SET_INTS(dw_nhwc, "kernel_size", 3, 3);
    set_str(dw_nhwc, "data_layout", "NHWC");
    set_str(dw_nhwc, "kernel_layout", "HWOI");
    int by_attrs = op2("nn.conv2d", x, untyped_in("u"));
    set_int(by_attrs, "channels", 10);
    SET_INTS(by_attrs, "kernel_size", 5, 5);
    int wrong_ch = op2("nn.conv2d", x, in("cw", TT(FLOAT32, 64, 32, 3, 3)));
    set_int(wrong_ch, "channels", 63);
    int wrong_ks = op2("nn.conv2d", x, in("kw", TT(FLOAT32, 64, 32, 3, 3)));
    SET_INTS(wrong_ks, "kernel_size", 5, 5);
    int groups_untyped = op2("nn.conv2d", x, untyped_in("v"));
    set_int(groups_untyped, "groups", 2);
    int c1 = op2("nn.conv1d", in("x1", TT(FLOAT32, 1, 4, 100)), in("w1", TT(FLOAT32, 8, 4, 5)));
    SET_INTS(c1, "padding", 2);
    SET_INTS(c1, "strides", 2);
    int c3 = op2("nn.conv3d", in("x3", TT(FLOAT32, 1, 4, 8, 16, 16)),
                 in("w3", TT(FLOAT32, 8, 4, 3, 3, 3)));
    SET_INTS(c3, "padding", 1, 0, 1);
    int q = opn("qnn.conv2d", (int[]){in("q", TT(INT8, 1, 3, 8, 8)), in("qw", TT(INT8, 4, 3, 3, 3)),
                                       x, x, x, x},
                6);
    int big = op2("nn.conv2d", in("s", TT(FLOAT32, 1, 3, 4, 4)), in("sw", TT(FLOAT32, 8, 3, 7, 7)));
    infer();
    EXPECT(grouped, "(1, 64, 14, 14) float32");
    EXPECT(dw, "(1, 32, 16, 16) float32");
    EXPECT(dw_nhwc, "(1, 14, 14, 64) float32");
    EXPECT(by_attrs, "(1, 10, 12, 12) float32");
    expect_untyped(wrong_ch, "channels 63 does not match the weight's 64");
    expect_untyped(wrong_ks, "kernel_size 5 does not match the weight's 3");
    expect_untyped(groups_untyped, "which groups > 1 needs");
    EXPECT(c1, "(1, 8, 50) float32");
    EXPECT(c3, "(1, 8, 8, 14, 16) float32");
    EXPECT(q, "(1, 4, 6, 6) int32");
    expect_untyped(big, "the window 7 is larger than the padded input 4 on axis H");
}
END_TEST

START_TEST(conv_transpose_and_backward)
{
    int x = in("x", TT(FLOAT32, 1, 16, 8, 8));
    int t = op2("nn.conv2d_transpose", x, in("w", TT(FLOAT32, 16, 4, 4, 4)));
    SET_INTS(t, "strides", 2, 2);
    SET_INTS(t, "padding", 1, 1, 1, 1);
    int tg = op2("nn.conv2d_transpose", x, in("wg", TT(FLOAT32, 16, 3, 3, 3)));
    set_int(tg, "groups", 2);
    SET_INTS(tg, "output_padding", 1, 0);
    SET_INTS(tg, "strides", 2, 2);
    int t1 = op2("nn.conv1d_transpose", in("x1", TT(FLOAT32, 1, 4, 10)),
                 in("w1", TT(FLOAT32, 4, 2, 3)));
    int bad = op2("nn.conv2d_transpose", x, in("wb", TT(FLOAT32, 8, 4, 4, 4)));
    int grad = in("grad", TT(FLOAT32, 2, 8, 14, 14));
    int data = in("data", TT(FLOAT32, 2, 4, 16, 16));
    int bw = op2("nn.conv2d_backward_weight", grad, data);
    SET_INTS(bw, "kernel_size", 3, 3);
    set_str(bw, "kernel_layout", "NCHW");
    set_str(bw, "out_layout", "OIHW");
    int bw_hwio = op2("nn.conv2d_backward_weight", grad, data);
    SET_INTS(bw_hwio, "kernel_size", 3, 3);
    set_str(bw_hwio, "out_layout", "HWIO");
    int bw_noks = op2("nn.conv2d_backward_weight", grad, data);
    infer();
    EXPECT(t, "(1, 4, 16, 16) float32");
    EXPECT(tg, "(1, 6, 18, 17) float32");
    EXPECT(t1, "(1, 2, 12) float32");
    expect_untyped(bad, "weight axis I is 8, expected 16");
    EXPECT(bw, "(8, 4, 3, 3) float32");
    EXPECT(bw_hwio, "(3, 3, 4, 8) float32");
    expect_untyped(bw_noks, "kernel_size is not set");
}
END_TEST

/* ---- pooling ------------------------------------------------------------------ */

START_TEST(pooling)
{
    int x = in("x", TT(FLOAT32, 1, 64, 112, 112));
    int mp = op1("nn.max_pool2d", x);
    SET_INTS(mp, "pool_size", 3, 3);
    SET_INTS(mp, "strides", 2, 2);
    SET_INTS(mp, "padding", 1);
    int p2 = op1("nn.max_pool2d", x);
    SET_INTS(p2, "pool_size", 3, 3);
    SET_INTS(p2, "strides", 2, 2);
    SET_INTS(p2, "padding", 1, 0);
    int p4 = op1("nn.avg_pool2d", x);
    SET_INTS(p4, "pool_size", 2, 2);
    SET_INTS(p4, "strides", 2, 2);
    SET_INTS(p4, "padding", 0, 0, 1, 1);
    int floor_m = op1("nn.max_pool2d", in("y", TT(FLOAT32, 1, 8, 10, 10)));
    SET_INTS(floor_m, "pool_size", 3, 3);
    SET_INTS(floor_m, "strides", 2, 2);
    int ceil_m = op1("nn.max_pool2d", in("z", TT(FLOAT32, 1, 8, 10, 10)));
    SET_INTS(ceil_m, "pool_size", 3, 3);
    SET_INTS(ceil_m, "strides", 2, 2);
    set_bool(ceil_m, "ceil_mode", true);
    int nhwc = op1("nn.avg_pool2d", in("n", TT(FLOAT32, 1, 32, 32, 16)));
    SET_INTS(nhwc, "pool_size", 2, 2);
    SET_INTS(nhwc, "strides", 2, 2);
    set_str(nhwc, "layout", "NHWC");
    int dil = op1("nn.max_pool2d", in("d", TT(FLOAT32, 1, 1, 9, 9)));
    SET_INTS(dil, "pool_size", 3, 3);
    SET_INTS(dil, "dilation", 2, 2);
    int p1d = op1("nn.max_pool1d", in("o", TT(FLOAT32, 1, 4, 11)));
    SET_INTS(p1d, "pool_size", 3);
    SET_INTS(p1d, "strides", 2);
    SET_INTS(p1d, "padding", 0, 1);
    int p3d = op1("nn.avg_pool3d", in("t", TT(FLOAT32, 1, 4, 8, 8, 8)));
    SET_INTS(p3d, "pool_size", 2, 2, 2);
    SET_INTS(p3d, "strides", 2, 2, 2);
    SET_INTS(p3d, "padding", 1, 0, 0);
    int gp = op1("nn.global_avg_pool2d", x);
    int gp_nhwc = op1("nn.global_max_pool2d", in("gn", TT(FLOAT32, 1, 7, 7, 512)));
    set_str(gp_nhwc, "layout", "NHWC");
    int ap = op1("nn.adaptive_avg_pool2d", x);
    SET_INTS(ap, "output_size", 7);
    int ap2 = op1("nn.adaptive_max_pool2d", x);
    SET_INTS(ap2, "output_size", 3, 5);
    int ap_keep = op1("nn.adaptive_avg_pool1d", in("k", TT(FLOAT32, 1, 3, 9)));
    int split = op1("nn.max_pool2d", in("s", TT(FLOAT32, 1, 8, 8, 8, 4)));
    set_str(split, "layout", "NCHW4h");
    infer();
    EXPECT(mp, "(1, 64, 56, 56) float32");
    EXPECT(p2, "(1, 64, 56, 55) float32");
    EXPECT(p4, "(1, 64, 56, 56) float32");
    EXPECT(floor_m, "(1, 8, 4, 4) float32");
    EXPECT(ceil_m, "(1, 8, 5, 5) float32");
    EXPECT(nhwc, "(1, 16, 16, 16) float32");
    EXPECT(dil, "(1, 1, 5, 5) float32");
    EXPECT(p1d, "(1, 4, 5) float32");
    EXPECT(p3d, "(1, 4, 5, 4, 4) float32");
    EXPECT(gp, "(1, 64, 1, 1) float32");
    EXPECT(gp_nhwc, "(1, 1, 1, 512) float32");
    EXPECT(ap, "(1, 64, 7, 7) float32");
    EXPECT(ap2, "(1, 64, 3, 5) float32");
    EXPECT(ap_keep, "(1, 3, 9) float32");
    expect_untyped(split, "splits a spatial axis");
}
END_TEST

/* ---- tuples out -------------------------------------------------------------- */

START_TEST(batch_norm_and_tuple_results)
{
    int x = in("x", TT(FLOAT32, 1, 64, 56, 56));
    int v = in("v", TT(FLOAT32, 64));
    int bn = opn("nn.batch_norm", (int[]){x, v, v, v, v}, 5);
    int p0 = proj(bn, 0), p2 = proj(bn, 2);
    int c = in("c", TT(FLOAT32, 56));
    int bn3 = opn("nn.batch_norm", (int[]){x, c, c, c, c}, 5);
    set_int(bn3, "axis", -1);
    int wrong = opn("nn.batch_norm", (int[]){x, in("w", TT(FLOAT32, 32)), v, v, v}, 5);
    int dr = op1("nn.dropout", x);
    int tk = op1("topk", x);
    set_int(tk, "k", 5);
    int tv = op1("topk", x);
    set_int(tv, "k", 0);
    set_str(tv, "ret_type", "values");
    int ti = op1("topk", x);
    set_str(ti, "ret_type", "indices");
    set_int(ti, "axis", 1);
    set_dtype(ti, "dtype", BYOC_DT_INT64);
    int tbad = op1("topk", x);
    set_str(tbad, "ret_type", "all");
    int pt = proj(x, 0);
    infer();
    ck_assert_int_eq(byoc_node_field_count(g, bn), 3);
    EXPECT_FIELD(bn, 0, "(1, 64, 56, 56) float32");
    EXPECT_FIELD(bn, 1, "(64) float32");
    EXPECT(p0, "(1, 64, 56, 56) float32");
    EXPECT(p2, "(64) float32");
    EXPECT_FIELD(bn3, 2, "(56) float32");
    ck_assert_ptr_nonnull(byoc_node_untyped_reason(g, wrong));
    ck_assert_ptr_nonnull(strstr(byoc_node_untyped_reason(g, wrong), "gamma must be a vector"));
    EXPECT_FIELD(dr, 1, "(1, 64, 56, 56) float32");
    EXPECT_FIELD(tk, 0, "(1, 64, 56, 5) float32");
    EXPECT_FIELD(tk, 1, "(1, 64, 56, 5) int32");
    EXPECT(tv, "(1, 64, 56, 56) float32");
    EXPECT(ti, "(1, 1, 56, 56) int64");
    expect_untyped(tbad, "ret_type 'all'");
    expect_untyped(pt, "projection .0 of a tensor");
}
END_TEST

/* ---- the remaining rules ------------------------------------------------------ */

START_TEST(spatial_rearrangements)
{
    int x = in("x", TT(FLOAT32, 2, 16, 6, 8));
    int pad = op2("nn.pad", x, in("pv", SCALAR(FLOAT32)));
    set_pairs(pad, "pad_width", (const int64_t[][2]){{0, 0}, {1, 2}, {3, 0}, {-1, -1}}, 4);
    int mpad = op1("nn.mirror_pad", x);
    set_pairs(mpad, "pad_width", (const int64_t[][2]){{0, 0}, {0, 0}, {1, 1}, {1, 1}}, 4);
    int badpad = op1("nn.mirror_pad", x);
    set_pairs(badpad, "pad_width", (const int64_t[][2]){{0, 0}}, 1);
    int d2s = op1("nn.depth_to_space", x);
    set_int(d2s, "block_size", 2);
    int s2d = op1("nn.space_to_depth", x);
    set_int(s2d, "block_size", 2);
    int s2d_nhwc = op1("nn.space_to_depth", in("n", TT(FLOAT32, 1, 4, 4, 3)));
    set_int(s2d_nhwc, "block_size", 2);
    set_str(s2d_nhwc, "layout", "NHWC");
    int s2b = op1("nn.space_to_batch_nd", x);
    SET_INTS(s2b, "block_shape", 2, 2);
    set_pairs(s2b, "paddings", (const int64_t[][2]){{0, 0}, {1, 1}}, 2);
    int b2s = op1("nn.batch_to_space_nd", in("b", TT(FLOAT32, 8, 3, 4, 5)));
    SET_INTS(b2s, "block_shape", 2, 2);
    set_pairs(b2s, "crops", (const int64_t[][2]){{0, 0}, {1, 1}}, 2);
    int bad_s2b = op1("nn.space_to_batch_nd", x);
    SET_INTS(bad_s2b, "block_shape", 3, 4);
    set_pairs(bad_s2b, "paddings", (const int64_t[][2]){{0, 0}, {0, 0}}, 2);
    int up = op1("nn.upsampling", x);
    set_float(up, "scale_h", 2.0);
    set_float(up, "scale_w", 1.5);
    int up3 = op1("nn.upsampling3d", in("u", TT(FLOAT32, 1, 2, 3, 4, 5)));
    set_float(up3, "scale_d", 2.0);
    set_float(up3, "scale_h", 0.5);
    set_float(up3, "scale_w", 3.0);
    int rs = op1("image.resize2d", x);
    SET_INTS(rs, "size", 12, 20);
    int rs_nhwc = op1("image.resize2d", in("r", TT(FLOAT32, 1, 7, 7, 3)));
    SET_INTS(rs_nhwc, "size", 14, 14);
    set_str(rs_nhwc, "layout", "NHWC");
    set_dtype(rs_nhwc, "out_dtype", BYOC_DT_FLOAT16);
    int rs1 = op1("image.resize1d", in("r1", TT(FLOAT32, 1, 3, 10)));
    SET_INTS(rs1, "size", 40);
    int rs_nosize = op1("image.resize2d", x);
    int crop = op3("image.crop_and_resize", x, in("boxes", TT(FLOAT32, 5, 4)),
                   in("bi", TT(INT32, 5)));
    SET_INTS(crop, "crop_size", 3, 3);
    infer();
    EXPECT(pad, "(2, 19, 9, 6) float32");
    EXPECT(mpad, "(2, 16, 8, 10) float32");
    expect_untyped(badpad, "pad_width has 1 pairs for rank 4");
    EXPECT(d2s, "(2, 4, 12, 16) float32");
    EXPECT(s2d, "(2, 64, 3, 4) float32");
    EXPECT(s2d_nhwc, "(1, 2, 2, 12) float32");
    EXPECT(s2b, "(8, 8, 4, 8) float32");
    EXPECT(b2s, "(2, 6, 6, 5) float32");
    expect_untyped(bad_s2b, "padded axis 1 (16) does not divide by 3");
    EXPECT(up, "(2, 16, 12, 12) float32");
    EXPECT(up3, "(1, 2, 6, 2, 15) float32");
    EXPECT(rs, "(2, 16, 12, 20) float32");
    EXPECT(rs_nhwc, "(1, 14, 14, 3) float16");
    EXPECT(rs1, "(1, 3, 40) float32");
    expect_untyped(rs_nosize, "size is not set");
    EXPECT(crop, "(5, 16, 3, 3) float32");
}
END_TEST

START_TEST(creation_and_queries)
{
    int x = in("x", TT(FLOAT32, 2, 3, 4));
    int shp = op1("shape_of", x);
    int shp64 = op1("shape_of", x);
    set_dtype(shp64, "dtype", BYOC_DT_INT64);
    int size = op1("ndarray_size", x);
    int ones = op0("ones");
    SET_INTS(ones, "shape", 3, 2);
    int zeros = op0("zeros");
    SET_INTS(zeros, "shape", 5);
    set_dtype(zeros, "dtype", BYOC_DT_INT8);
    int full = op1("full", in("fv", SCALAR(FLOAT16)));
    SET_INTS(full, "shape", 1, 2);
    byoc_value v0 = {.kind = BYOC_V_INT, .u.i = 0}, v10 = {.kind = BYOC_V_INT, .u.i = 10},
               v3 = {.kind = BYOC_V_FLOAT, .u.f = 3.0};
    byoc_tensor_type scalar = SCALAR(INT32);
    int c0 = byoc_graph_add_const(g, &scalar, &v0, &err);
    int c10 = byoc_graph_add_const(g, &scalar, &v10, &err);
    int c3 = byoc_graph_add_const(g, &scalar, &v3, &err);
    int ar = op3("arange", c0, c10, c3);
    set_dtype(ar, "dtype", BYOC_DT_INT32);
    int ar_dyn = op3("arange", c0, x, c3);
    int cs = op1("cumsum", x);
    int cp = op1("cumprod", x);
    set_int(cp, "axis", 1);
    set_dtype(cp, "dtype", BYOC_DT_FLOAT64);
    int as = op1("argsort", x);
    int srt = op1("sort", x);
    int oh = op3("one_hot", in("ids", TT(INT32, 4, 5)), in("on", SCALAR(FLOAT32)),
                 in("off", SCALAR(FLOAT32)));
    set_int(oh, "depth", 10);
    int oh1 = op3("one_hot", in("ids1", TT(INT32, 4, 5)), in("on1", SCALAR(FLOAT32)),
                  in("off1", SCALAR(FLOAT32)));
    set_int(oh1, "depth", 3);
    set_int(oh1, "axis", 0);
    set_dtype(oh1, "dtype", BYOC_DT_INT8);
    int bt = op1("broadcast_to", in("b", TT(FLOAT32, 3, 1)));
    SET_INTS(bt, "shape", 2, 3, 4);
    int tile = op1("tile", x);
    SET_INTS(tile, "reps", 2, 1, 1, 3);
    int tile_short = op1("tile", x);
    SET_INTS(tile_short, "reps", 5);
    int rep = op1("repeat", x);
    set_int(rep, "repeats", 3);
    set_int(rep, "axis", -2);
    int rep_flat = op1("repeat", x);
    set_int(rep_flat, "repeats", 2);
    int sl = op2("slice_like", in("big", TT(FLOAT32, 10, 10, 10)), x);
    int sl_axes = op2("slice_like", in("big2", TT(FLOAT32, 10, 10, 10)), x);
    SET_INTS(sl_axes, "axes", -1);
    int sl_bad = op2("slice_like", x, in("big3", TT(FLOAT32, 10, 10)));
    infer();
    EXPECT(shp, "(3) int32");
    EXPECT(shp64, "(3) int64");
    EXPECT(size, "() int32");
    EXPECT(ones, "(3, 2) float32");
    EXPECT(zeros, "(5) int8");
    EXPECT(full, "(1, 2) float16");
    EXPECT(ar, "(4) int32");
    EXPECT(ar_dyn, "(?) float32");
    EXPECT(cs, "(24) float32");
    EXPECT(cp, "(2, 3, 4) float64");
    EXPECT(as, "(2, 3, 4) int32");
    EXPECT(srt, "(2, 3, 4) float32");
    EXPECT(oh, "(4, 5, 10) float32");
    EXPECT(oh1, "(3, 4, 5) int8");
    EXPECT(bt, "(2, 3, 4) float32");
    EXPECT(tile, "(2, 2, 3, 12) float32");
    EXPECT(tile_short, "(2, 3, 20) float32");
    EXPECT(rep, "(2, 9, 4) float32");
    EXPECT(rep_flat, "(48) float32");
    EXPECT(sl, "(2, 3, 4) float32");
    EXPECT(sl_axes, "(10, 10, 4) float32");
    expect_untyped(sl_bad, "axis 0: 10 exceeds the data's 2");
}
END_TEST

/* Every op of relay.byoc names rules that exist: with inputs of no type,
 * each reports a missing input type, never a missing rule. */
START_TEST(every_rule_exists)
{
    int x = untyped_in("x");
    int t = tuple(&x, 1);
    int n = byoc_registry_op_count(reg);
    ck_assert_int_ge(n, 190);
    int first = byoc_graph_node_count(g);
    for (int i = 0; i < n; i++) {
        const byoc_op_decl *op = byoc_registry_op_at(reg, i);
        int args[16];
        ck_assert_int_le(op->ninputs, 16);
        for (int k = 0; k < op->ninputs; k++)
            args[k] = op->inputs[k].tuple ? t : x;
        opn(op->name, args, op->ninputs);
    }
    infer();
    for (int i = first; i < byoc_graph_node_count(g); i++) {
        const char *r = byoc_node_untyped_reason(g, i);
        if (r)
            ck_assert_msg(strstr(r, "no shape rule") == NULL, "%s", r);
        double f = byoc_node_flops(g, i);
        if (strcmp(byoc_node_op(g, i)->flops_rule, "none") == 0)
            ck_assert_double_eq(f, 0);
        else
            ck_assert_msg(f == -1, "%s: %g", byoc_node_op_name(g, i), f);
    }
}
END_TEST

/* ---- symbols and unknown sizes -------------------------------------------------- */

START_TEST(symbolic_batch)
{
    int64_t n = sym("n");
    int x = in("x", TT(FLOAT32, n, 3, 224, 224));
    int conv = op2("nn.conv2d", x, in("w", TT(FLOAT32, 64, 3, 7, 7)));
    SET_INTS(conv, "padding", 3);
    SET_INTS(conv, "strides", 2, 2);
    int relu = op1("nn.relu", conv);
    int pool = op1("nn.global_avg_pool2d", relu);
    int flat = op1("nn.batch_flatten", pool);
    int rs = op1("reshape", pool);
    SET_INTS(rs, "newshape", 0, -1);
    int rs_infer = op1("reshape", pool);
    SET_INTS(rs_infer, "newshape", -1, 64);
    int dense = op2("nn.dense", flat, in("dw", TT(FLOAT32, 10, 64)));
    int bias = op2("add", dense, in("b", TT(FLOAT32, 10)));
    int sm = op1("nn.softmax", bias);
    int same = op2("add", sm, in("y", TT(FLOAT32, n, 10)));
    int other = op2("add", sm, in("z", TT(FLOAT32, sym("m"), 10)));
    int against = op2("add", sm, in("k", TT(FLOAT32, 4, 10)));
    int mm = op2("nn.batch_matmul", in("q", TT(FLOAT32, n, 5, 8)), in("r", TT(FLOAT32, 1, 8, 2)));
    int sl = op1("strided_slice", x);
    SET_INTS(sl, "begin", 0, 1);
    SET_INTS(sl, "end", 2147483647, 3);
    int sl_part = op1("strided_slice", x);
    SET_INTS(sl_part, "begin", 1);
    SET_INTS(sl_part, "end", 3);
    int merge = op1("reshape", x);
    SET_INTS(merge, "newshape", -3, -2);
    int cat = op1("concatenate", tuple((int[]){x, x}, 2));
    int cat1 = op1("concatenate", tuple((int[]){x, x}, 2));
    set_int(cat1, "axis", 1);
    int t = op1("transpose", x);
    int sq = op1("squeeze", in("s", TT(FLOAT32, n, 1)));
    SET_INTS(sq, "axis", 1);
    int un = in("u", TT(FLOAT32, BYOC_DIM_UNKNOWN, 8));
    int unk = op2("add", un, in("v", TT(FLOAT32, 5, 1)));
    int unk_red = op1("sum", un);
    SET_INTS(unk_red, "axis", 1);
    infer();
    EXPECT(conv, "(n, 64, 112, 112) float32");
    EXPECT(relu, "(n, 64, 112, 112) float32");
    EXPECT(pool, "(n, 64, 1, 1) float32");
    EXPECT(flat, "(n, 64) float32");
    EXPECT(rs, "(n, 64) float32");
    EXPECT(rs_infer, "(n, 64) float32");
    EXPECT(dense, "(n, 10) float32");
    EXPECT(sm, "(n, 10) float32");
    EXPECT(same, "(n, 10) float32");
    EXPECT(other, "(?, 10) float32");
    EXPECT(against, "(4, 10) float32");
    EXPECT(mm, "(n, 5, 2) float32");
    EXPECT(sl, "(n, 2, 224, 224) float32");
    EXPECT(sl_part, "(?, 3, 224, 224) float32");
    EXPECT(merge, "(?, 224, 224) float32");
    EXPECT(cat, "(?, 3, 224, 224) float32");
    EXPECT(cat1, "(n, 6, 224, 224) float32");
    EXPECT(t, "(224, 224, 3, n) float32");
    EXPECT(sq, "(n) float32");
    EXPECT(unk, "(5, 8) float32");
    EXPECT(unk_red, "(?) float32");
    ck_assert_double_eq(byoc_node_flops(g, conv), -1);
}
END_TEST

/* ---- flops -------------------------------------------------------------------- */

START_TEST(flops_rules)
{
    int x = in("x", TT(FLOAT32, 1, 32, 16, 16));
    int conv = op2("nn.conv2d", x, in("w", TT(FLOAT32, 64, 8, 3, 3)));
    set_int(conv, "groups", 4);
    SET_INTS(conv, "padding", 1);
    int nhwc = op2("nn.conv2d", in("xh", TT(FLOAT32, 1, 8, 8, 4)),
                   in("wh", TT(FLOAT32, 3, 3, 4, 16)));
    set_str(nhwc, "data_layout", "NHWC");
    set_str(nhwc, "kernel_layout", "HWIO");
    int ct = op2("nn.conv2d_transpose", in("ci", TT(FLOAT32, 1, 16, 8, 8)),
                 in("cw", TT(FLOAT32, 16, 4, 2, 2)));
    SET_INTS(ct, "strides", 2, 2);
    int bw = op2("nn.conv2d_backward_weight", in("g", TT(FLOAT32, 2, 8, 14, 14)),
                 in("d", TT(FLOAT32, 2, 4, 16, 16)));
    SET_INTS(bw, "kernel_size", 3, 3);
    set_str(bw, "kernel_layout", "NCHW");
    set_str(bw, "out_layout", "OIHW");
    int dense = op2("nn.dense", in("a", TT(FLOAT32, 4, 100)), in("dw", TT(FLOAT32, 10, 100)));
    int bmm = op2("nn.batch_matmul", in("p", TT(FLOAT32, 2, 7, 3)), in("q", TT(FLOAT32, 2, 5, 7)));
    set_bool(bmm, "transpose_a", true);
    set_bool(bmm, "transpose_b", true);
    int mm = op2("nn.matmul", in("ma", TT(FLOAT32, 6, 4)), in("mb", TT(FLOAT32, 6, 9)));
    set_bool(mm, "transpose_a", true);
    int pool = op1("nn.max_pool2d", x);
    SET_INTS(pool, "pool_size", 2, 2);
    SET_INTS(pool, "strides", 2, 2);
    int gpool = op1("nn.global_avg_pool2d", x);
    int red = op1("sum", x);
    int relu = op1("nn.relu", x);
    int add = op2("add", x, in("b", TT(FLOAT32, 32, 1, 1)));
    int sm = op1("nn.softmax", x);
    int v = in("v", TT(FLOAT32, 32));
    int bn = opn("nn.batch_norm", (int[]){x, v, v, v, v}, 5);
    int ln = op3("nn.layer_norm", x, v, v);
    int lrn = op1("nn.lrn", x);
    set_int(lrn, "size", 3);
    int up = op1("nn.upsampling", x);
    set_float(up, "scale_h", 2);
    set_float(up, "scale_w", 2);
    set_str(up, "method", "bilinear");
    int rs = op1("image.resize2d", x);
    SET_INTS(rs, "size", 4, 4);
    set_str(rs, "method", "cubic");
    int rn = op1("image.resize1d", in("r1", TT(FLOAT32, 1, 2, 5)));
    SET_INTS(rn, "size", 10);
    set_str(rn, "method", "nearest_neighbor");
    int srt = op1("argsort", in("s", TT(FLOAT32, 3, 8)));
    int rsh = op1("reshape", x);
    SET_INTS(rsh, "newshape", -1);
    int opaque = byoc_graph_add_opaque(g, "Custom", &x, 1, &err);
    infer();
    ck_assert_double_eq(byoc_node_flops(g, conv), 2.0 * 64 * 16 * 16 * 8 * 9);
    ck_assert_double_eq(byoc_node_flops(g, nhwc), 2.0 * 6 * 6 * 16 * 4 * 9);
    ck_assert_double_eq(byoc_node_flops(g, ct), 2.0 * 16 * 8 * 8 * 4 * 4);
    ck_assert_double_eq(byoc_node_flops(g, bw), 2.0 * (8 * 4 * 3 * 3) * 2 * 14 * 14);
    ck_assert_double_eq(byoc_node_flops(g, dense), 2.0 * 40 * 100);
    ck_assert_double_eq(byoc_node_flops(g, bmm), 2.0 * (2 * 3 * 5) * 7);
    ck_assert_double_eq(byoc_node_flops(g, mm), 2.0 * (4 * 9) * 6);
    ck_assert_double_eq(byoc_node_flops(g, pool), 32.0 * 8 * 8 * 4);
    ck_assert_double_eq(byoc_node_flops(g, gpool), 32.0 * 16 * 16);
    ck_assert_double_eq(byoc_node_flops(g, red), 32.0 * 16 * 16);
    ck_assert_double_eq(byoc_node_flops(g, relu), 32.0 * 16 * 16);
    ck_assert_double_eq(byoc_node_flops(g, add), 32.0 * 16 * 16);
    ck_assert_double_eq(byoc_node_flops(g, sm), 4.0 * 32 * 16 * 16);
    ck_assert_double_eq(byoc_node_flops(g, bn), 2.0 * 32 * 16 * 16);
    ck_assert_double_eq(byoc_node_flops(g, ln), 7.0 * 32 * 16 * 16);
    ck_assert_double_eq(byoc_node_flops(g, lrn), 10.0 * 32 * 16 * 16);
    ck_assert_double_eq(byoc_node_flops(g, up), 12.0 * 32 * 32 * 32);
    ck_assert_double_eq(byoc_node_flops(g, rs), 48.0 * 32 * 4 * 4);
    ck_assert_double_eq(byoc_node_flops(g, rn), 1.0 * 2 * 10);
    ck_assert_double_eq(byoc_node_flops(g, srt), 24.0 * 3);
    ck_assert_double_eq(byoc_node_flops(g, rsh), 0);
    ck_assert_double_eq(byoc_node_flops(g, x), 0);
    ck_assert_double_eq(byoc_node_flops(g, opaque), -1);
    ck_assert_double_eq(byoc_node_flops(g, 9999), 0);
}
END_TEST

/* ---- declared types ---------------------------------------------------------- */

START_TEST(annotation_agrees)
{
    int x = in("x", TT(FLOAT32, 1, 3, 8, 8));
    int relu = op1("nn.relu", x);
    byoc_tensor_type partial = {BYOC_DT_VOID, 4, {1, BYOC_DIM_UNKNOWN, 8, 8}};
    byoc_graph_set_type(g, relu, &partial);
    int un = in("u", TT(FLOAT32, BYOC_DIM_UNKNOWN, 4));
    int neg = op1("negative", un);
    byoc_graph_set_type(g, neg, &(byoc_tensor_type){BYOC_DT_FLOAT32, 2, {6, 4}});
    int sp = op1("split", x);
    set_int(sp, "indices_or_sections", 2);
    set_int(sp, "axis", 2);
    byoc_tensor_type f[2] = {TT(FLOAT32, 1, 3, 4, 8), TT(FLOAT32, 1, 3, 4, 8)};
    ck_assert_int_eq(byoc_graph_set_tuple_type(g, sp, f, 2, &err), 0);
    /* A rule that cannot infer keeps what the source declared. */
    int rs = op1("image.resize2d", x);
    byoc_graph_set_type(g, rs, &(byoc_tensor_type){BYOC_DT_FLOAT32, 4, {1, 3, 16, 16}});
    int opq = byoc_graph_add_opaque(g, "Mystery", &x, 1, &err);
    byoc_graph_set_type(g, opq, &(byoc_tensor_type){BYOC_DT_INT8, 1, {7}});
    int after = op1("nn.relu", opq);
    infer();
    EXPECT(relu, "(1, 3, 8, 8) float32");
    EXPECT(neg, "(6, 4) float32");
    EXPECT_FIELD(sp, 1, "(1, 3, 4, 8) float32");
    EXPECT(rs, "(1, 3, 16, 16) float32");
    expect_typed(rs);
    EXPECT(after, "(7) int8");
    bool noted = false;
    for (int i = 0; i < byoc_graph_note_count(g); i++)
        noted = noted || strstr(byoc_graph_note(g, i), "kept the declared type");
    ck_assert(noted);
    /* Inference again finds the same types. */
    infer();
    EXPECT(relu, "(1, 3, 8, 8) float32");
}
END_TEST

/* ---- errors -------------------------------------------------------------------- */

START_TEST(annotation_mismatch)
{
    byoc_graph_set_source(g, "resnet50.relay");
    int x = in("data", TT(FLOAT32, 1, 3, 224, 224));
    int conv = op2("nn.conv2d", x, in("w", TT(FLOAT32, 64, 3, 7, 7)));
    SET_INTS(conv, "strides", 2, 2);
    SET_INTS(conv, "padding", 3);
    byoc_graph_set_name(g, conv, "%5");
    byoc_graph_set_loc(g, conv, 12, 8);
    byoc_graph_set_type(g, conv, &(byoc_tensor_type){BYOC_DT_FLOAT32, 4, {1, 64, 56, 56}});
    ck_assert_int_eq(byoc_graph_infer_types(g, &err), -1);
    char buf[512];
    byoc_error_format(&err, buf, sizeof buf);
    ck_assert_str_eq(buf, "resnet50.relay:12:8: error: %5 = nn.conv2d: type annotation "
                          "Tensor[(1, 64, 56, 56), float32] differs from the inferred "
                          "Tensor[(1, 64, 112, 112), float32]");
}
END_TEST

START_TEST(annotation_mismatch_dtype_and_tuple)
{
    int x = in("x", TT(FLOAT32, 4, 6));
    int cast = op1("cast", x);
    set_dtype(cast, "dtype", BYOC_DT_INT32);
    byoc_graph_set_type(g, cast, &(byoc_tensor_type){BYOC_DT_INT64, 2, {4, 6}});
    ck_assert_int_eq(byoc_graph_infer_types(g, &err), -1);
    ck_assert_str_eq(err.msg, "%0 = cast: type annotation Tensor[(4, 6), int64] differs "
                              "from the inferred Tensor[(4, 6), int32]");
    ck_assert_str_eq(err.file, "");

    byoc_graph_destroy(g);
    g = byoc_graph_create(reg);
    x = in("x", TT(FLOAT32, 4, 6));
    int sp = op1("split", x);
    set_int(sp, "indices_or_sections", 2);
    byoc_tensor_type f[3] = {TT(FLOAT32, 2, 6), TT(FLOAT32, 2, 6), TT(FLOAT32, 2, 6)};
    ck_assert_int_eq(byoc_graph_set_tuple_type(g, sp, f, 3, &err), 0);
    ck_assert_int_eq(byoc_graph_infer_types(g, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "differs from the inferred "
                                          "(Tensor[(2, 6), float32], Tensor[(2, 6), float32])"));

    byoc_graph_destroy(g);
    g = byoc_graph_create(reg);
    x = in("x", TT(FLOAT32, 4, 6));
    int rank = op1("nn.relu", x);
    byoc_graph_set_type(g, rank, &(byoc_tensor_type){BYOC_DT_FLOAT32, 3, {4, 6, 1}});
    ck_assert_int_eq(byoc_graph_infer_types(g, &err), -1);
}
END_TEST

START_TEST(untyped_reasons)
{
    int x = in("x", TT(FLOAT32, 1, 64, 8, 8));
    int conv = op2("nn.conv2d", x, in("w", TT(FLOAT32, 16, 32, 3, 3)));
    int after = op1("nn.relu", conv);
    int fields[] = {x, conv};
    int t = tuple(fields, 2);
    int p = proj(t, 1);
    int opq = byoc_graph_add_opaque(g, "MyOp", &x, 1, &err);
    int after_opq = op2("add", opq, x);
    int nothing = untyped_in("nothing");
    int sym_name = in("s", TT(FLOAT32, sym("batch"), 3));
    int vec = op2("add", in("p", TT(FLOAT32, 3)), in("q", TT(FLOAT32, 4)));
    int nest = op1("concatenate", tuple((int[]){x, conv}, 2));
    int bad = op2("add", sym_name, in("y", TT(FLOAT32, 2, 4)));
    infer();
    ck_assert_str_eq(byoc_node_untyped_reason(g, conv),
                     "nn.conv2d: cannot infer from inputs Tensor[(1, 64, 8, 8), float32], "
                     "Tensor[(16, 32, 3, 3), float32]: 64 input channels / 1 groups do not "
                     "match the weight's 32");
    ck_assert_str_eq(byoc_node_untyped_reason(g, after),
                     "nn.relu: cannot infer from inputs ?: data has no type");
    ck_assert_str_eq(byoc_node_untyped_reason(g, t), "tuple field 1 has no type");
    ck_assert_str_eq(byoc_node_untyped_reason(g, p), "field .1 of the tuple has no type");
    ck_assert_str_eq(byoc_node_untyped_reason(g, opq), "opaque op 'MyOp'");
    expect_untyped(after_opq, "lhs has no type");
    ck_assert_str_eq(byoc_node_untyped_reason(g, nothing), "input 'nothing' has no type");
    ck_assert_str_eq(byoc_node_untyped_reason(g, bad),
                     "add: cannot infer from inputs Tensor[(batch, 3), float32], "
                     "Tensor[(2, 4), float32]: dimensions 3 and 4 do not broadcast");
    ck_assert_str_eq(byoc_node_untyped_reason(g, vec),
                     "add: cannot infer from inputs Tensor[(3,), float32], Tensor[(4,), "
                     "float32]: dimensions 3 and 4 do not broadcast");
    ck_assert_str_eq(byoc_node_untyped_reason(g, nest),
                     "concatenate: cannot infer from inputs (Tensor[(1, 64, 8, 8), float32], ?): "
                     "field 1 of data has no type");
    expect_typed(x);
    ck_assert_ptr_null(byoc_node_untyped_reason(g, 12345));
    /* Each call left untyped is noted, in order. */
    ck_assert_int_ge(byoc_graph_note_count(g), 4);
    ck_assert_str_eq(byoc_graph_note(g, 0), byoc_node_untyped_reason(g, conv));
    ck_assert_str_eq(byoc_graph_note(g, 1), byoc_node_untyped_reason(g, after));
    ck_assert_double_eq(byoc_node_flops(g, conv), -1);
    ck_assert_double_eq(byoc_node_flops(g, after), -1);
    ck_assert_double_eq(byoc_node_flops(g, t), 0);
}
END_TEST

START_TEST(bad_attribute_values)
{
    int x = in("x", TT(FLOAT32, 2, 3, 8, 8));
    int w = in("w", TT(FLOAT32, 4, 3, 3, 3));
    int strides0 = op2("nn.conv2d", x, w);
    SET_INTS(strides0, "strides", 0, 1);
    int layout = op2("nn.conv2d", x, w);
    set_str(layout, "data_layout", "NCHW8");
    int sections0 = op1("split", x);
    set_int(sections0, "indices_or_sections", 0);
    int tile0 = op1("tile", x);
    SET_INTS(tile0, "reps", 0);
    int rep0 = op1("repeat", x);
    set_int(rep0, "repeats", 0);
    int deep = op1("expand_dims", x);
    set_int(deep, "axis", 0);
    set_int(deep, "num_newaxis", 5);
    int big = op1("reshape", in("b", TT(INT8, 3037000500, 3037000500)));
    SET_INTS(big, "newshape", -3);
    int up = op1("nn.upsampling", x);
    set_float(up, "scale_h", -1);
    int bcast = op1("broadcast_to", x);
    SET_INTS(bcast, "shape", 2, -3);
    int stride0 = op1("strided_slice", x);
    SET_INTS(stride0, "begin", 0);
    SET_INTS(stride0, "end", 1);
    SET_INTS(stride0, "strides", 0);
    int noaxis = op1("expand_dims", x);
    int mode = op1("strided_slice", x);
    SET_INTS(mode, "begin", 0);
    SET_INTS(mode, "end", 1);
    set_str(mode, "slice_mode", "steps");
    int take_bd = op2("take", x, in("i", TT(INT32, 2)));
    set_int(take_bd, "axis", 0);
    set_int(take_bd, "batch_dims", 1);
    infer();
    expect_untyped(strides0, "strides and dilation must be positive");
    expect_untyped(layout, "invalid layout 'NCHW8'");
    expect_untyped(sections0, "0 sections");
    expect_untyped(tile0, "reps 0 is not positive");
    expect_untyped(rep0, "repeats 0 is not positive");
    expect_untyped(deep, "more than 8 axes");
    expect_untyped(big, "overflows");
    expect_untyped(up, "is not a positive scale");
    expect_untyped(bcast, "negative size -3");
    expect_untyped(stride0, "stride 0 on axis 0");
    expect_untyped(noaxis, "axis is not set");
    expect_untyped(mode, "slice_mode 'steps'");
    expect_untyped(take_bd, "batch_dims 1 is out of range");
    ck_assert_int_eq(byoc_graph_infer_types(NULL, &err), -1);
}
END_TEST

static Suite *infer_suite(void)
{
    Suite *s = suite_create("infer");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, broadcasting);
    tcase_add_test(core, elementwise_and_cast);
    tcase_add_test(core, reductions);
    tcase_add_test(core, reshape_codes);
    tcase_add_test(core, reshape_like_and_flatten);
    tcase_add_test(core, transpose_and_layout);
    tcase_add_test(core, squeeze_and_expand_dims);
    tcase_add_test(core, strided_slice_forms);
    tcase_add_test(core, split_and_projection);
    tcase_add_test(core, concatenate_and_stack);
    tcase_add_test(core, take_and_gather);
    tcase_add_test(core, batch_matmul_flags);
    tcase_add_test(core, dense_and_matmul);
    tcase_add_test(core, conv2d_padding_forms);
    tcase_add_test(core, conv2d_layouts);
    tcase_add_test(core, conv_groups_and_attributes);
    tcase_add_test(core, conv_transpose_and_backward);
    tcase_add_test(core, pooling);
    tcase_add_test(core, batch_norm_and_tuple_results);
    tcase_add_test(core, spatial_rearrangements);
    tcase_add_test(core, creation_and_queries);
    tcase_add_test(core, every_rule_exists);
    tcase_add_test(core, symbolic_batch);
    tcase_add_test(core, flops_rules);
    tcase_add_test(core, annotation_agrees);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, annotation_mismatch);
    tcase_add_test(errors, annotation_mismatch_dtype_and_tuple);
    tcase_add_test(errors, untyped_reasons);
    tcase_add_test(errors, bad_attribute_values);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(infer_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
