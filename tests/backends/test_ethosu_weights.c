/* Ethos-U's weight-sum limit (WSUM in examples/ethosu.byoc), stated with
 * sum() and abs(): on weights with data (exact per-channel sums, for each
 * layout the output channel is read from) and without (the dtype's worst
 * case).  Relay text carries no weight data, so these graphs are built
 * through the API and the patterns' compiled predicates run on them. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

#include "devices.h"
#include "ethosu.h"
#include "match.h"

static byoc_registry *reg;
static byoc_graph *g;
static const byoc_target_decl *tgt;

static void setup(void)
{
    byoc_error err;
    reg = byoc_registry_create();
    ck_assert_int_eq(byoc_register_relay(reg, &err), 0);
    ck_assert_int_eq(byoc_register_devices(reg, &err), 0);
    ck_assert_int_eq(byoc_register_ethosu(reg, &err), 0);
    tgt = byoc_registry_target(reg, "ethosu");
    ck_assert_ptr_nonnull(tgt);
    g = byoc_graph_create(reg);
}

static void teardown(void)
{
    byoc_graph_destroy(g);
    byoc_registry_destroy(reg);
}

static byoc_tensor_type ty(byoc_dtype dt, int rank, const int64_t *dims)
{
    byoc_tensor_type t;
    memset(&t, 0, sizeof t);
    t.dtype = dt;
    t.rank = rank;
    for (int i = 0; i < rank; i++)
        t.dims[i] = dims[i];
    return t;
}

/* Weights of the given shape whose element at flat index i is f(i, o),
 * o its output channel (axis oaxis); f NULL: no data. */
static int weights(int rank, const int64_t *dims, int oaxis, double (*f)(int64_t o))
{
    byoc_error err;
    byoc_tensor_type t = ty(BYOC_DT_INT8, rank, dims);
    if (!f)
        return byoc_graph_add_const(g, &t, NULL, &err);
    int64_t n = 1, inner = 1;
    for (int i = 0; i < rank; i++) {
        n *= dims[i];
        if (i > oaxis)
            inner *= dims[i];
    }
    byoc_value *items = calloc((size_t)n, sizeof *items);
    for (int64_t i = 0; i < n; i++)
        items[i] = (byoc_value){.kind = BYOC_V_INT, .u.i = (int64_t)f((i / inner) % dims[oaxis])};
    byoc_value v = {.kind = BYOC_V_LIST, .u.list = {items, (size_t)n}};
    int node = byoc_graph_add_const(g, &t, &v, &err);
    free(items);
    return node;
}

static int scalar(byoc_dtype dt, double x)
{
    byoc_error err;
    byoc_tensor_type t = ty(dt, 0, NULL);
    byoc_value v = byoc_dtype_class(dt) == 'f' ? (byoc_value){.kind = BYOC_V_FLOAT, .u.f = x}
                                               : (byoc_value){.kind = BYOC_V_INT, .u.i = (int64_t)x};
    return byoc_graph_add_const(g, &t, &v, &err);
}

static int zp_pair(int64_t a, int64_t b)
{
    byoc_error err;
    int64_t d[] = {2};
    byoc_tensor_type t = ty(BYOC_DT_INT32, 1, d);
    byoc_value items[] = {{.kind = BYOC_V_INT, .u.i = a}, {.kind = BYOC_V_INT, .u.i = b}};
    byoc_value v = {.kind = BYOC_V_LIST, .u.list = {items, 2}};
    return byoc_graph_add_const(g, &t, &v, &err);
}

static void set_attr(int node, const char *name, byoc_value v)
{
    byoc_error err;
    ck_assert_msg(byoc_graph_set_attr(g, node, name, &v, &err) == 0, "%s", err.msg);
}

static byoc_value str(const char *s) { return (byoc_value){.kind = BYOC_V_STRING, .u.s = s}; }
static byoc_value dt(byoc_dtype d) { return (byoc_value){.kind = BYOC_V_DTYPE, .u.dt = d}; }

static byoc_value ints(const int64_t *v, int n, byoc_value *buf)
{
    for (int i = 0; i < n; i++)
        buf[i] = (byoc_value){.kind = BYOC_V_INT, .u.i = v[i]};
    return (byoc_value){.kind = BYOC_V_LIST, .u.list = {buf, (size_t)n}};
}

static int call(const char *op, const int *args, int n)
{
    byoc_error err;
    int c = byoc_graph_add_call(g, op, args, n, &err);
    ck_assert_msg(c >= 0, "%s", err.msg);
    return c;
}

/* [bias_add](q(x, w, 0, kzp, s, s)) -> requantize to int8; returns the
 * requantize.  q is qnn.conv2d (NHWC, layout), qnn.conv2d_transpose
 * (NHWC, IOHW, stride 2, padding (0, 0, 1, 1)) or qnn.dense. */
static int quantized(const char *q, const int64_t *xdims, int xrank, int w, int kzp,
                     const char *layout, int64_t nout, bool bias)
{
    byoc_error err;
    byoc_tensor_type xt = ty(BYOC_DT_INT8, xrank, xdims);
    int x = byoc_graph_add_input(g, "x", &xt, &err);
    int args[] = {x, w, scalar(BYOC_DT_INT32, 0), kzp, scalar(BYOC_DT_FLOAT32, 0.5),
                  scalar(BYOC_DT_FLOAT32, 0.25)};
    int c = call(q, args, 6);
    byoc_value buf[4];
    set_attr(c, "out_dtype", dt(BYOC_DT_INT32));
    if (layout) {
        set_attr(c, "data_layout", str("NHWC"));
        set_attr(c, "kernel_layout", str(layout));
    }
    if (!strcmp(q, "qnn.conv2d_transpose")) {
        set_attr(c, "strides", ints((int64_t[]){2, 2}, 2, buf));
        set_attr(c, "padding", ints((int64_t[]){0, 0, 1, 1}, 4, buf));
    }
    int y = c;
    if (bias) {
        int64_t bd[] = {nout};
        byoc_tensor_type bt = ty(BYOC_DT_INT32, 1, bd);
        int b = byoc_graph_add_const(g, &bt, NULL, &err);
        y = call("nn.bias_add", (int[]){c, b}, 2);
        set_attr(y, "axis", (byoc_value){.kind = BYOC_V_INT, .u.i = -1});
    }
    int rq_args[] = {y, scalar(BYOC_DT_FLOAT32, 0.125), scalar(BYOC_DT_INT32, 0),
                     scalar(BYOC_DT_FLOAT32, 0.5), scalar(BYOC_DT_INT32, 0)};
    int r = call("qnn.requantize", rq_args, 5);
    set_attr(r, "out_dtype", dt(BYOC_DT_INT8));
    ck_assert_msg(byoc_graph_infer_types(g, &err) == 0, "%s", err.msg);
    return r;
}

static const byoc_pattern_decl *pattern(const char *name)
{
    for (int i = 0; i < tgt->npatterns; i++)
        if (!strcmp(tgt->patterns[i].name, name))
            return &tgt->patterns[i];
    ck_abort_msg("no pattern %s", name);
    return NULL;
}

typedef struct { bool held; int n; } verdict;

static int judge(const bx_match *m, void *ctx)
{
    verdict *v = ctx;
    v->n++;
    int failed;
    v->held |= bx_match_holds(g, m->pattern, m, byoc_target_options(reg, tgt), tgt->noptions,
                              &failed);
    return 0;
}

/* Does pattern name match at root with its predicate holding? */
static bool takes(const char *name, int root)
{
    verdict v = {false, 0};
    bx_match_at(g, pattern(name), root, judge, &v);
    ck_assert_int_gt(v.n, 0); /* the structure matches: only the predicate decides */
    return v.held;
}

static double one(int64_t o) { (void)o; return 1; }
static double max8(int64_t o) { (void)o; return 127; }
static double split(int64_t o) { return o ? 127 : 10; }
static double chan28(int64_t o) { return o ? 28 : 1; }
static double chan29(int64_t o) { return o ? 29 : 1; }

START_TEST(conv_exact_sums)
{
    /* HWIO (2, 1, 35000, 1): 70000 elements in the one channel.  All 1:
     * the sum 70000 fits, though the worst case (128 each) would not. */
    int64_t x[] = {1, 2, 1, 35000}, w[] = {2, 1, 35000, 1};
    ck_assert(takes("qnn_conv2d", quantized("qnn.conv2d", x, 4, weights(4, w, 3, one),
                                            scalar(BYOC_DT_INT32, 0), "HWIO", 1, true)));
    ck_assert(!takes("qnn_conv2d", quantized("qnn.conv2d", x, 4, weights(4, w, 3, NULL),
                                             scalar(BYOC_DT_INT32, 0), "HWIO", 1, true)));
    /* 66000 x |127 - 0| = 8,382,000 > 8,323,072; |127 - 127| = 0. */
    int64_t x2[] = {1, 2, 1, 33000}, w2[] = {2, 1, 33000, 1};
    ck_assert(!takes("qnn_conv2d", quantized("qnn.conv2d", x2, 4, weights(4, w2, 3, max8),
                                             scalar(BYOC_DT_INT32, 0), "HWIO", 1, true)));
    ck_assert(takes("qnn_conv2d", quantized("qnn.conv2d", x2, 4, weights(4, w2, 3, max8),
                                            scalar(BYOC_DT_INT32, 127), "HWIO", 1, true)));
}
END_TEST

START_TEST(conv_per_channel_zero_points)
{
    /* Two channels of 66000: channel 0 holds 10s, channel 1 127s.  Zero
     * points (10, 0): 0 and 8,382,000; (0, 127): 660,000 and 0. */
    int64_t x[] = {1, 2, 1, 33000}, w[] = {2, 1, 33000, 2};
    ck_assert(!takes("qnn_conv2d", quantized("qnn.conv2d", x, 4, weights(4, w, 3, split),
                                             zp_pair(10, 0), "HWIO", 2, true)));
    ck_assert(takes("qnn_conv2d", quantized("qnn.conv2d", x, 4, weights(4, w, 3, split),
                                            zp_pair(0, 127), "HWIO", 2, true)));
}
END_TEST

START_TEST(transpose_reads_iohw)
{
    /* IOHW (33000, 2, 3, 3): 297,000 elements per output channel; channel
     * 1 holds 28s (8,316,000: fits) or 29s (8,613,000: does not), channel
     * 0 ones.  Mixing the channels up would change both verdicts. */
    int64_t x[] = {1, 4, 4, 33000}, w[] = {33000, 2, 3, 3};
    ck_assert(takes("qnn_conv2d_transpose",
                    quantized("qnn.conv2d_transpose", x, 4, weights(4, w, 1, chan28),
                              scalar(BYOC_DT_INT32, 0), "IOHW", 2, true)));
    ck_assert(!takes("qnn_conv2d_transpose",
                     quantized("qnn.conv2d_transpose", x, 4, weights(4, w, 1, chan29),
                               scalar(BYOC_DT_INT32, 0), "IOHW", 2, true)));
}
END_TEST

START_TEST(dense_rows_at_the_limit)
{
    /* (2, 65536): row 1 of 127s sums to 8,323,072, the limit itself; with
     * zero point -1 it is 128 each, over it. */
    int64_t x[] = {1, 65536}, w[] = {2, 65536};
    ck_assert(takes("fully_connected", quantized("qnn.dense", x, 2, weights(2, w, 0, max8),
                                                 scalar(BYOC_DT_INT32, 0), NULL, 2, true)));
    ck_assert(!takes("fully_connected", quantized("qnn.dense", x, 2, weights(2, w, 0, max8),
                                                  scalar(BYOC_DT_INT32, -1), NULL, 2, false)));
    /* Without data: 65024 x 128 fits, 65025 x 128 does not. */
    int64_t xa[] = {1, 65024}, wa[] = {2, 65024}, xb[] = {1, 65025}, wb[] = {2, 65025};
    ck_assert(takes("fully_connected", quantized("qnn.dense", xa, 2, weights(2, wa, 0, NULL),
                                                 scalar(BYOC_DT_INT32, 0), NULL, 2, false)));
    ck_assert(!takes("fully_connected", quantized("qnn.dense", xb, 2, weights(2, wb, 0, NULL),
                                                  scalar(BYOC_DT_INT32, 0), NULL, 2, false)));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ethosu_weights");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, conv_exact_sums);
    tcase_add_test(tc, conv_per_channel_zero_points);
    tcase_add_test(tc, transpose_reads_iohw);
    tcase_add_test(tc, dense_rows_at_the_limit);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
