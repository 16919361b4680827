/* Unit tests of the analytic cost model: kernel boundaries, the roofline,
 * and that fusing saves the traffic between fused ops. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

#include "cost.h"

static byoc_registry *reg;
static byoc_graph *g;
static int x, conv, bias, relu;

static byoc_tensor_type ty4(int64_t a, int64_t b, int64_t c, int64_t d)
{
    byoc_tensor_type t;
    memset(&t, 0, sizeof t);
    t.dtype = BYOC_DT_FLOAT32;
    t.rank = 4;
    t.dims[0] = a;
    t.dims[1] = b;
    t.dims[2] = c;
    t.dims[3] = d;
    return t;
}

static void setup(void)
{
    byoc_error err;
    reg = byoc_registry_create();
    ck_assert_int_eq(byoc_register_relay(reg, &err), 0);
    g = byoc_graph_create(reg);
    byoc_tensor_type xt = ty4(1, 64, 56, 56), wt = ty4(64, 64, 3, 3), bt;
    memset(&bt, 0, sizeof bt);
    bt.dtype = BYOC_DT_FLOAT32;
    bt.rank = 1;
    bt.dims[0] = 64;
    x = byoc_graph_add_input(g, "x", &xt, &err);
    int w = byoc_graph_add_const(g, &wt, NULL, &err);
    int b = byoc_graph_add_const(g, &bt, NULL, &err);
    int args[2] = {x, w};
    conv = byoc_graph_add_call(g, "nn.conv2d", args, 2, &err);
    byoc_value pad = {.kind = BYOC_V_LIST}, items[4];
    for (int i = 0; i < 4; i++)
        items[i] = (byoc_value){.kind = BYOC_V_INT, .u.i = 1};
    pad.u.list.items = items;
    pad.u.list.n = 4;
    ck_assert_int_eq(byoc_graph_set_attr(g, conv, "padding", &pad, &err), 0);
    int bargs[2] = {conv, b};
    bias = byoc_graph_add_call(g, "nn.bias_add", bargs, 2, &err);
    relu = byoc_graph_add_call(g, "nn.relu", &bias, 1, &err);
    ck_assert_int_eq(byoc_graph_set_output(g, relu, &err), 0);
    ck_assert_int_eq(byoc_graph_infer_types(g, &err), 0);
}

static void teardown(void)
{
    byoc_graph_destroy(g);
    byoc_registry_destroy(reg);
}

static const byoc_peak peaks[] = {{BYOC_DT_FLOAT32, 10e12}, {BYOC_DT_FLOAT16, 40e12}};
static const byoc_device_decl gpu = {.name = "gpu", .npeaks = 2, .peaks = peaks,
                                     .bandwidth = 1e12, .launch = 5e-6};

START_TEST(boundary_of_one_op)
{
    bx_kernel_io io;
    ck_assert_int_eq(bx_kernel_measure(g, &conv, 1, &io), 0);
    ck_assert_double_eq(io.flops, 2.0 * 64 * 56 * 56 * 64 * 9);
    ck_assert_double_eq(io.in_bytes, (64.0 * 56 * 56 + 64 * 64 * 9) * 4);
    ck_assert_double_eq(io.out_bytes, 64.0 * 56 * 56 * 4);
    ck_assert_int_eq(io.dtype, BYOC_DT_FLOAT32);
    double t = bx_cost_roofline(&gpu, 0.5, &io);
    double want = 5e-6 + io.flops / (10e12 * 0.5);
    ck_assert_double_eq_tol(t, want, 1e-15);
}
END_TEST

START_TEST(fusion_saves_the_intermediate_traffic)
{
    int all[3] = {conv, bias, relu};
    bx_kernel_io fused, a, b, c;
    ck_assert_int_eq(bx_kernel_measure(g, all, 3, &fused), 0);
    /* Reads x, the weights and the bias once; writes only the result. */
    ck_assert_double_eq(fused.in_bytes, (64.0 * 56 * 56 + 64 * 64 * 9 + 64) * 4);
    ck_assert_double_eq(fused.out_bytes, 64.0 * 56 * 56 * 4);
    ck_assert_int_eq(bx_kernel_measure(g, &conv, 1, &a), 0);
    ck_assert_int_eq(bx_kernel_measure(g, &bias, 1, &b), 0);
    ck_assert_int_eq(bx_kernel_measure(g, &relu, 1, &c), 0);
    ck_assert_double_eq(fused.flops, a.flops + b.flops + c.flops);
    double apart = bx_cost_roofline(&gpu, 1, &a) + bx_cost_roofline(&gpu, 1, &b)
                   + bx_cost_roofline(&gpu, 1, &c);
    ck_assert(bx_cost_roofline(&gpu, 1, &fused) < apart);
}
END_TEST

START_TEST(peaks_and_devices)
{
    bx_kernel_io io = {.flops = 1e9, .in_bytes = 0, .out_bytes = 0, .dtype = BYOC_DT_INT8};
    /* No int8 peak: the lowest listed one. */
    ck_assert_double_eq_tol(bx_cost_roofline(&gpu, 1, &io), 5e-6 + 1e9 / 10e12, 1e-15);
    io.dtype = BYOC_DT_FLOAT16;
    ck_assert_double_eq_tol(bx_cost_roofline(&gpu, 1, &io), 5e-6 + 1e9 / 40e12, 1e-15);
    const byoc_device_decl none = {.name = "none", .bandwidth = 1e9};
    ck_assert(isinf(bx_cost_roofline(&none, 1, &io)));
    io.flops = 0;
    io.in_bytes = 1e9;
    ck_assert_double_eq_tol(bx_cost_roofline(&none, 1, &io), 1.0, 1e-12);
    byoc_link_decl l = {"a", "b", true, 1e10, 1e-5};
    ck_assert_double_eq_tol(bx_cost_transfer(&l, 1e10), 1 + 1e-5, 1e-12);
    ck_assert(isinf(bx_cost_transfer(NULL, 1)));
}
END_TEST

START_TEST(unknown_types)
{
    byoc_error err;
    byoc_tensor_type unk;
    memset(&unk, 0, sizeof unk);
    unk.rank = -1;
    int y = byoc_graph_add_input(g, "y", &unk, &err);
    int r = byoc_graph_add_call(g, "nn.relu", &y, 1, &err);
    ck_assert_int_eq(byoc_graph_infer_types(g, &err), 0);
    bx_kernel_io io;
    ck_assert_int_eq(bx_kernel_measure(g, &r, 1, &io), -1);
    ck_assert_double_eq(bx_tensor_bytes(&unk), -1);
}
END_TEST

/* Occupancy: grains of work over the units, the last wave partly idle. */
START_TEST(occupancy_waves)
{
    byoc_device_decl d = gpu;
    ck_assert_double_eq(bx_cost_occupancy(&d, 1e9), 1);   /* no units: not modelled */
    d.units = 100;
    d.grain = 1e6;
    ck_assert_double_eq_tol(bx_cost_occupancy(&d, 50e6), 0.5, 1e-12);
    ck_assert_double_eq_tol(bx_cost_occupancy(&d, 150e6), 0.75, 1e-12);
    ck_assert_double_eq_tol(bx_cost_occupancy(&d, 0.5e6), 0.01, 1e-12);
    ck_assert_double_eq_tol(bx_cost_occupancy(&d, 100e6), 1, 1e-12);
    /* A small kernel is slower per FLOP than a big one. */
    bx_kernel_io io = {.flops = 10e6, .dtype = BYOC_DT_FLOAT32};
    double small = bx_cost_roofline(&d, 1, &io) - d.launch;
    ck_assert_double_eq_tol(small, 10e6 / (10e12 * 0.1), 1e-15);
}
END_TEST

/* Element-wise work runs at the vector rate (float32 here), not at the
 * float16 tensor-core peak; matrix work at the dtype's peak. */
START_TEST(vector_rate)
{
    bx_kernel_io io = {.flops = 1e9, .dtype = BYOC_DT_FLOAT16, .vector = true};
    ck_assert_double_eq_tol(bx_cost_roofline(&gpu, 1, &io), 5e-6 + 1e9 / 10e12, 1e-15);
    io.vector = false;
    ck_assert_double_eq_tol(bx_cost_roofline(&gpu, 1, &io), 5e-6 + 1e9 / 40e12, 1e-15);
    bx_kernel_io m;
    ck_assert_int_eq(bx_kernel_measure(g, &relu, 1, &m), 0);
    ck_assert(m.vector);
    ck_assert_int_eq(bx_kernel_measure(g, &conv, 1, &m), 0);
    ck_assert(!m.vector);
}
END_TEST

/* A graph compiler's kernel runs as its fusion groups: conv+bias+relu is
 * one, a second conv another; each group is a roofline of its own, the
 * second after an inner launch, and the tensor between them is traffic. */
START_TEST(groups_of_a_graph_compiler)
{
    byoc_error err;
    byoc_tensor_type wt = ty4(64, 64, 3, 3);
    int w2 = byoc_graph_add_const(g, &wt, NULL, &err);
    int args[2] = {relu, w2};
    int conv2 = byoc_graph_add_call(g, "nn.conv2d", args, 2, &err);
    byoc_value pad = {.kind = BYOC_V_LIST}, items[4];
    for (int i = 0; i < 4; i++)
        items[i] = (byoc_value){.kind = BYOC_V_INT, .u.i = 1};
    pad.u.list.items = items;
    pad.u.list.n = 4;
    ck_assert_int_eq(byoc_graph_set_attr(g, conv2, "padding", &pad, &err), 0);
    ck_assert_int_eq(byoc_graph_set_output(g, conv2, &err), 0);
    ck_assert_int_eq(byoc_graph_infer_types(g, &err), 0);
    byoc_device_decl d = gpu;
    d.inner_launch = 1e-6;
    int first[3] = {conv, bias, relu}, all[4] = {conv, bias, relu, conv2};
    double one, whole, grouped;
    int n;
    ck_assert_int_eq(bx_cost_kernel(g, first, 3, &d, 0.5, true, &one, &n), 0);
    ck_assert_int_eq(n, 1);
    bx_kernel_io a, b, io;
    ck_assert_int_eq(bx_kernel_measure(g, first, 3, &a), 0);
    ck_assert_double_eq_tol(one, bx_cost_roofline(&d, 0.5, &a), 1e-15);
    ck_assert_int_eq(bx_kernel_measure(g, &conv2, 1, &b), 0);
    ck_assert_int_eq(bx_cost_kernel(g, all, 4, &d, 0.5, true, &grouped, &n), 0);
    ck_assert_int_eq(n, 2);
    ck_assert_double_eq_tol(grouped, bx_cost_roofline(&d, 0.5, &a) + 1e-6 +
                                         bx_cost_roofline(&d, 0.5, &b) - d.launch, 1e-12);
    ck_assert_int_eq(bx_cost_kernel(g, all, 4, &d, 0.5, false, &whole, &n), 0);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(bx_kernel_measure(g, all, 4, &io), 0);
    ck_assert_double_eq_tol(whole, bx_cost_roofline(&d, 0.5, &io), 1e-15);
    ck_assert(whole < grouped);
    /* Without an inner launch each group costs a full launch. */
    d.inner_launch = 0;
    double full;
    ck_assert_int_eq(bx_cost_kernel(g, all, 4, &d, 0.5, true, &full, &n), 0);
    ck_assert_double_eq_tol(full - grouped, d.launch - 1e-6, 1e-12);
}
END_TEST

/* A tuple's bytes are its fields', nested tuples included. */
START_TEST(bytes_of_nested_tuples)
{
    byoc_error err;
    int inner_f[2] = {conv, relu};
    int inner = byoc_graph_add_tuple(g, inner_f, 2, &err);
    int outer_f[2] = {x, inner};
    int outer = byoc_graph_add_tuple(g, outer_f, 2, &err);
    ck_assert_int_ge(outer, 0);
    ck_assert_int_eq(byoc_graph_infer_types(g, &err), 0);
    double t = 4.0 * 64 * 56 * 56;
    ck_assert_double_eq(bx_node_bytes(g, inner), 2 * t);
    ck_assert_double_eq(bx_node_bytes(g, outer), 3 * t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cost");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, boundary_of_one_op);
    tcase_add_test(core, fusion_saves_the_intermediate_traffic);
    tcase_add_test(core, peaks_and_devices);
    tcase_add_test(core, bytes_of_nested_tuples);
    tcase_add_test(core, occupancy_waves);
    tcase_add_test(core, vector_rate);
    tcase_add_test(core, groups_of_a_graph_compiler);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, unknown_types);
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
