/* ethosu.byoc's extern predicate, ethosu_weights_fit, on weights with data
 * (exact per-channel sums) and without (the dtype's worst case), for each
 * layout it reads the output channel from. */
#include <check.h>
#include <stdlib.h>

#include <byoc/byoc.h>

#include "devices.h"
#include "ethosu.h"

static byoc_registry *reg;
static byoc_graph *g;

static void setup(void)
{
    byoc_error err;
    reg = byoc_registry_create();
    ck_assert_int_eq(byoc_register_relay(reg, &err), 0);
    ck_assert_int_eq(byoc_register_devices(reg, &err), 0);
    ck_assert_int_eq(byoc_register_ethosu(reg, &err), 0);
    g = byoc_graph_create(reg);
}

static void teardown(void)
{
    byoc_graph_destroy(g);
    byoc_registry_destroy(reg);
}

static byoc_tensor_type ty(byoc_dtype dt, int rank, const int64_t *dims)
{
    byoc_tensor_type t = {.dtype = dt, .rank = rank};
    for (int i = 0; i < rank; i++)
        t.dims[i] = dims[i];
    return t;
}

/* A constant of the given shape; data: NULL (not loaded), or one value for
 * every element (flat: the extern reads any nesting row-major), or a
 * per-element function of the flat index. */
static int weights(byoc_dtype dt, int rank, const int64_t *dims, double (*f)(int64_t))
{
    byoc_error err;
    byoc_tensor_type t = ty(dt, rank, dims);
    if (!f)
        return byoc_graph_add_const(g, &t, NULL, &err);
    int64_t n = 1;
    for (int i = 0; i < rank; i++)
        n *= dims[i];
    byoc_value *items = calloc((size_t)n, sizeof *items);
    for (int64_t i = 0; i < n; i++)
        items[i] = (byoc_value){.kind = BYOC_V_INT, .u.i = (int64_t)f(i)};
    byoc_value v = {.kind = BYOC_V_LIST, .u.list = {items, (size_t)n}};
    int node = byoc_graph_add_const(g, &t, &v, &err);
    free(items);
    return node;
}

static int scalar(byoc_dtype dt, double x)
{
    byoc_error err;
    byoc_tensor_type t = ty(dt, 0, NULL);
    byoc_value v = dt == BYOC_DT_FLOAT32 ? (byoc_value){.kind = BYOC_V_FLOAT, .u.f = x}
                                         : (byoc_value){.kind = BYOC_V_INT, .u.i = (int64_t)x};
    return byoc_graph_add_const(g, &t, &v, &err);
}

static int zp_vector(const int64_t *zs, int n)
{
    byoc_error err;
    int64_t dims[] = {n};
    byoc_tensor_type t = ty(BYOC_DT_INT32, 1, dims);
    byoc_value items[8];
    for (int i = 0; i < n; i++)
        items[i] = (byoc_value){.kind = BYOC_V_INT, .u.i = zs[i]};
    byoc_value v = {.kind = BYOC_V_LIST, .u.list = {items, (size_t)n}};
    return byoc_graph_add_const(g, &t, &v, &err);
}

static int qcall(const char *op, int w, int kzp, const char *layout)
{
    byoc_error err;
    int64_t xd[] = {1, 4, 4, 2};
    byoc_tensor_type xt = ty(BYOC_DT_INT8, 4, xd);
    int x = byoc_graph_add_input(g, "x", &xt, &err);
    int args[] = {x, w, scalar(BYOC_DT_INT32, 0), kzp, scalar(BYOC_DT_FLOAT32, 0.5),
                  scalar(BYOC_DT_FLOAT32, 0.25)};
    int c = byoc_graph_add_call(g, op, args, 6, &err);
    ck_assert_int_ge(c, 0);
    if (layout) {
        byoc_value v = {.kind = BYOC_V_STRING, .u.s = layout};
        ck_assert_int_eq(byoc_graph_set_attr(g, c, "kernel_layout", &v, &err), 0);
    }
    return c;
}

static bool fits(int c)
{
    int slots[1] = {c};
    byoc_eval ev = {.graph = g, .slots = slots, .nslots = 1, .failed_clause = -1};
    byoc_tref t = {c, -1};
    bool r = ethosu_weights_fit(&ev, &t, 1);
    ck_assert_int_eq(ev.undef, 0); /* it never reads an absent value */
    return r;
}

static double ones(int64_t i) { (void)i; return 1; }
static double maxed(int64_t i) { (void)i; return 127; }
static double by_channel(int64_t i) { return i % 2 ? 127 : 10; } /* HWIO, O = 2 */

START_TEST(exact_sums_with_data)
{
    /* 70000 weights of 1 per channel: the sum 70000 fits, although the
     * worst case for int8 (128 each) would not. */
    int64_t big[] = {1, 1, 70000, 1};
    ck_assert(fits(qcall("qnn.conv2d", weights(BYOC_DT_INT8, 4, big, ones),
                         scalar(BYOC_DT_INT32, 0), "HWIO")));
    ck_assert(!fits(qcall("qnn.conv2d", weights(BYOC_DT_INT8, 4, big, NULL),
                          scalar(BYOC_DT_INT32, 0), "HWIO")));
    /* 66000 x |127 - 0| = 8,382,000 > 8,323,072; with zero point 127 the
     * sum is 0. */
    int64_t k66[] = {1, 1, 66000, 1};
    ck_assert(!fits(qcall("qnn.conv2d", weights(BYOC_DT_INT8, 4, k66, maxed),
                          scalar(BYOC_DT_INT32, 0), "HWIO")));
    ck_assert(fits(qcall("qnn.conv2d", weights(BYOC_DT_INT8, 4, k66, maxed),
                         scalar(BYOC_DT_INT32, 127), "HWIO")));
}
END_TEST

START_TEST(per_channel_zero_points)
{
    /* HWIO (1, 1, 66000, 2): channel 0 holds 10s, channel 1 holds 127s.
     * Zero points (10, 0): channel 0 sums to 0, channel 1 to 8,382,000. */
    int64_t d[] = {1, 1, 66000, 2};
    int64_t z1[] = {10, 0}, z2[] = {0, 127};
    ck_assert(!fits(qcall("qnn.conv2d", weights(BYOC_DT_INT8, 4, d, by_channel),
                          zp_vector(z1, 2), "HWIO")));
    /* (0, 127): 660,000 and 0. */
    ck_assert(fits(qcall("qnn.conv2d", weights(BYOC_DT_INT8, 4, d, by_channel),
                         zp_vector(z2, 2), "HWIO")));
    /* A zero-point vector of the wrong length is refused. */
    int64_t z3[] = {0, 0, 0};
    ck_assert(!fits(qcall("qnn.conv2d", weights(BYOC_DT_INT8, 4, d, by_channel),
                          zp_vector(z3, 3), "HWIO")));
}
END_TEST

START_TEST(output_channel_axis_from_the_layout)
{
    /* The same data read as HWOI (O = axis 2 of 66000 channels of 2
     * elements) fits easily; as HWIO (O = axis 3) it does not. */
    int64_t d[] = {1, 1, 66000, 2};
    ck_assert(fits(qcall("qnn.conv2d", weights(BYOC_DT_INT8, 4, d, maxed),
                         scalar(BYOC_DT_INT32, 0), "HWOI")));
    ck_assert(!fits(qcall("qnn.conv2d", weights(BYOC_DT_INT8, 4, d, maxed),
                          scalar(BYOC_DT_INT32, 0), "HWIO")));
    /* conv2d_transpose, IOHW: O is axis 1. */
    int64_t t[] = {66000, 2, 1, 1};
    ck_assert(!fits(qcall("qnn.conv2d_transpose", weights(BYOC_DT_INT8, 4, t, maxed),
                          scalar(BYOC_DT_INT32, 0), "IOHW")));
    ck_assert(fits(qcall("qnn.conv2d_transpose", weights(BYOC_DT_INT8, 4, t, maxed),
                         scalar(BYOC_DT_INT32, 0), "OIHW")));
    /* qnn.dense: (units, K), O is axis 0. */
    int64_t w[] = {2, 66000};
    ck_assert(!fits(qcall("qnn.dense", weights(BYOC_DT_INT8, 2, w, maxed),
                          scalar(BYOC_DT_INT32, 0), NULL)));
    int64_t w2[] = {2, 60000};
    ck_assert(fits(qcall("qnn.dense", weights(BYOC_DT_INT8, 2, w2, maxed),
                         scalar(BYOC_DT_INT32, 0), NULL)));
}
END_TEST

START_TEST(worst_case_without_data)
{
    /* int8 with zero point 0: at most 128 per element, so 65024 fit and
     * 65025 do not; uint8 with zero point 0: 255 per element. */
    int64_t a[] = {65024, 1}, b[] = {65025, 1}, c[] = {32639, 1}, e[] = {32640, 1};
    ck_assert(fits(qcall("qnn.dense", weights(BYOC_DT_INT8, 2, (int64_t[]){1, a[0]}, NULL),
                         scalar(BYOC_DT_INT32, 0), NULL)));
    ck_assert(!fits(qcall("qnn.dense", weights(BYOC_DT_INT8, 2, (int64_t[]){1, b[0]}, NULL),
                          scalar(BYOC_DT_INT32, 0), NULL)));
    ck_assert(fits(qcall("qnn.dense", weights(BYOC_DT_UINT8, 2, (int64_t[]){1, c[0]}, NULL),
                         scalar(BYOC_DT_INT32, 0), NULL)));
    ck_assert(!fits(qcall("qnn.dense", weights(BYOC_DT_UINT8, 2, (int64_t[]){1, e[0]}, NULL),
                          scalar(BYOC_DT_INT32, 0), NULL)));
    /* A zero point that is not a constant cannot be bounded. */
    byoc_error err;
    int64_t zd[] = {1};
    byoc_tensor_type zt = ty(BYOC_DT_INT32, 0, zd);
    int zin = byoc_graph_add_input(g, "zp", &zt, &err);
    int64_t s[] = {1, 16};
    ck_assert(!fits(qcall("qnn.dense", weights(BYOC_DT_INT8, 2, s, NULL), zin, NULL)));
}
END_TEST

START_TEST(wrong_use)
{
    int64_t s[] = {1, 16};
    int c = qcall("qnn.dense", weights(BYOC_DT_INT8, 2, s, ones), scalar(BYOC_DT_INT32, 0), NULL);
    int slots[1] = {c};
    byoc_eval ev = {.graph = g, .slots = slots, .nslots = 1, .failed_clause = -1};
    byoc_tref t[2] = {{c, -1}, {c, -1}};
    ck_assert(!ethosu_weights_fit(&ev, t, 2)); /* one argument */
    ck_assert(!ethosu_weights_fit(&ev, t, 0));
    /* A layout without O, or of another rank than the weights. */
    int64_t d[] = {1, 1, 2, 2};
    ck_assert(!fits(qcall("qnn.conv2d", weights(BYOC_DT_INT8, 4, d, ones),
                          scalar(BYOC_DT_INT32, 0), "HWI")));
    ck_assert(!fits(qcall("qnn.conv2d", weights(BYOC_DT_INT8, 4, d, ones),
                          scalar(BYOC_DT_INT32, 0), "HWIX")));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ethosu_extern");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, exact_sums_with_data);
    tcase_add_test(tc, per_channel_zero_points);
    tcase_add_test(tc, output_channel_axis_from_the_layout);
    tcase_add_test(tc, worst_case_without_data);
    tcase_add_test(tc, wrong_use);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
