/* Scenario tests of the partitioner through the public API, after the
 * tests of Apache TVM's Collage partitioner, rebuilt in C: fusion benefit,
 * max_depth limiting fusion, a diamond whose split would be non-convex,
 * doc/partitioner.md section 4's counterexample, transfers between devices, the
 * baselines, and the errors of target selection.  Costs come from a
 * callback keyed by target and kernel, so every expected figure is known
 * exactly; the checker runs on every result (it is on by default). */
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

#include "part_spec.h"

static byoc_registry *reg;

static void setup(void)
{
    byoc_error err;
    reg = byoc_registry_create();
    ck_assert_int_eq(byoc_register_relay(reg, &err), 0);
    ck_assert_msg(byoc_register_part_spec(reg, &err) == 0, "%s", err.msg);
}

static void teardown(void) { byoc_registry_destroy(reg); }

static byoc_graph *graph(const char *text)
{
    byoc_error err;
    byoc_graph *g = byoc_relay_read_string(reg, text, strlen(text), "test.relay", &err);
    ck_assert_msg(g != NULL, "%s", err.msg);
    return g;
}

/* ---- a cost callback from a table of (target, kernel) -> microseconds ---- */

typedef struct price {
    const char *target;
    const char *kernel;      /* a pattern name, or the calls' ops joined by '+'
                                in node order; "*": any kernel */
    double us;
} price;

typedef struct prices {
    const price *v;
    int n;
    int calls;
} prices;

static double priced(const byoc_kernel *k, void *ctx)
{
    prices *p = ctx;
    p->calls++;
    char ops[512] = "";
    for (int i = 0; i < k->nnodes; i++) {
        if (byoc_node_kind_of(k->graph, k->nodes[i]) != BYOC_N_CALL)
            continue;
        if (*ops)
            strcat(ops, "+");
        strcat(ops, byoc_node_op_name(k->graph, k->nodes[i]));
    }
    for (int i = 0; i < p->n; i++) {
        if (strcmp(p->v[i].target, k->target->name) != 0)
            continue;
        const char *want = p->v[i].kernel;
        if (!strcmp(want, "*") || (k->pattern && !strcmp(want, k->pattern)) ||
            (!k->pattern && !strcmp(want, ops)))
            return p->v[i].us * 1e-6;
    }
    return INFINITY; /* not priced: cannot run, so tests see only what they price */
}

static byoc_result *run(const byoc_graph *g, const char *const *targets, int n,
                        byoc_strategy s, const char *single, prices *p)
{
    byoc_partition_options o;
    byoc_partition_options_init(&o);
    o.targets = targets;
    o.ntargets = n;
    o.strategy = s;
    o.single = single;
    o.cost_fn = priced;
    o.cost_ctx = p;
    byoc_error err;
    byoc_result *r = byoc_partition_graph(g, &o, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    char buf[512];
    ck_assert_msg(byoc_result_check(r, buf, sizeof buf) == NULL, "%s", buf);
    return r;
}

static int count_on(const byoc_result *r, const char *target)
{
    int n = 0;
    for (int i = 0; i < r->npartitions; i++)
        n += !strcmp(r->partitions[i].target->name, target);
    return n;
}

#define US(x) ((x) * 1e-6)
#define ck_assert_us(got, want) \
    ck_assert_msg(fabs((got) - US(want)) < 1e-12, "got %.9g us, want %.9g us", (got) * 1e6, \
                  (double)(want))

/* ---- fusion benefit ----------------------------------------------------------- */

static const char conv_relu[] =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(1, 8, 16, 16), float32], %w: Tensor[(8, 8, 3, 3), float32]) {\n"
    "  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]);\n"
    "  nn.relu(%0)\n"
    "}\n";

START_TEST(fusion_benefit)
{
    /* lib is dearer op by op, but its fused kernel beats native's two. */
    static const price v[] = {
        {"native_d1", "nn.conv2d", 10}, {"native_d1", "nn.relu", 5},
        {"lib", "nn.conv2d", 12},       {"lib", "nn.relu", 6},
        {"lib", "conv_relu", 11},
    };
    prices p = {v, 5, 0};
    byoc_graph *g = graph(conv_relu);
    const char *both[] = {"lib", "native_d1"};
    byoc_result *r = run(g, both, 2, BYOC_SEARCH_OPTIMAL, NULL, &p);
    ck_assert_int_eq(r->npartitions, 1);
    ck_assert_str_eq(r->partitions[0].target->name, "lib");
    ck_assert_int_eq(r->partitions[0].ncomposites, 1);
    ck_assert_str_eq(r->partitions[0].composites[0].pattern, "conv_relu");
    ck_assert_us(r->cost, 11);
    ck_assert(r->optimal);
    byoc_result_destroy(r);

    const char *native[] = {"native_d1"};
    r = run(g, native, 1, BYOC_SEARCH_OPTIMAL, NULL, &p);
    ck_assert_int_eq(r->npartitions, 2);
    ck_assert_us(r->cost, 15);
    byoc_result_destroy(r);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(fusion_without_benefit)
{
    static const price v[] = {
        {"native_d1", "nn.conv2d", 10}, {"native_d1", "nn.relu", 5},
        {"lib", "nn.conv2d", 12},       {"lib", "nn.relu", 6},
        {"lib", "conv_relu", 16},
    };
    prices p = {v, 5, 0};
    byoc_graph *g = graph(conv_relu);
    const char *both[] = {"lib", "native_d1"};
    byoc_result *r = run(g, both, 2, BYOC_SEARCH_OPTIMAL, NULL, &p);
    ck_assert_int_eq(count_on(r, "native_d1"), 2);
    ck_assert_us(r->cost, 15);
    byoc_result_destroy(r);

    /* Greedy lets lib take its largest kernel first, whatever it costs. */
    r = run(g, both, 2, BYOC_SEARCH_GREEDY, NULL, &p);
    ck_assert_str_eq(r->strategy, "greedy");
    ck_assert_int_eq(r->npartitions, 1);
    ck_assert_us(r->cost, 16);
    ck_assert(!r->optimal);
    byoc_result_destroy(r);

    r = run(g, both, 2, BYOC_SEARCH_SINGLE, "lib", &p);
    ck_assert_str_eq(r->strategy, "single:lib");
    ck_assert_us(r->cost, 15); /* lib, with the listed native beside it */
    byoc_result_destroy(r);
    byoc_graph_destroy(g);
}
END_TEST

/* ---- max_depth limits TVM-style fusion -------------------------------------------- */

static const char chain6[] =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(64), float32]) {\n"
    "  %0 = nn.relu(%x);\n"
    "  %1 = tanh(%0);\n"
    "  %2 = sigmoid(%1);\n"
    "  %3 = nn.relu(%2);\n"
    "  %4 = tanh(%3);\n"
    "  sigmoid(%4)\n"
    "}\n";

START_TEST(max_depth_limits_fusion)
{
    static const char *const natives[] = {"native_d1", "native_d2", "native_d3", "native"};
    static const int expect[] = {6, 3, 2, 1};
    byoc_graph *g = graph(chain6);
    for (int i = 0; i < 4; i++) {
        /* Every kernel costs the same: the fewest kernels win. */
        price v[] = {{natives[i], "*", 10}};
        prices p = {v, 1, 0};
        byoc_result *r = run(g, &natives[i], 1, BYOC_SEARCH_OPTIMAL, NULL, &p);
        ck_assert_msg(r->npartitions == expect[i], "%s: %d partitions", natives[i],
                      r->npartitions);
        ck_assert_us(r->cost, 10 * expect[i]);
        byoc_result_destroy(r);
    }
    byoc_graph_destroy(g);
}
END_TEST

/* ---- doc/partitioner.md section 4: two convex kernels that need each other ---- */

static const char crossing[] =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(4), float32], %y: Tensor[(4), float32]) {\n"
    "  %0 = nn.relu(%x);\n"        /* a1 */
    "  %1 = tanh(%y);\n"           /* c2 */
    "  %2 = add(%1, %0);\n"        /* c3: tc's kernel {c2, c3} reads a1 */
    "  %3 = multiply(%0, %1);\n"   /* a4: ta's kernel {a1, a4} reads c2 */
    "  subtract(%2, %3)\n"
    "}\n";

START_TEST(cycle_counterexample)
{
    static const price v[] = {
        {"ta", "nn.relu+multiply", 1}, {"tc", "tanh+add", 1}, {"native_d1", "*", 100},
    };
    prices p = {v, 3, 0};
    byoc_graph *g = graph(crossing);
    const char *t[] = {"ta", "tc", "native_d1"};
    byoc_result *r = run(g, t, 3, BYOC_SEARCH_OPTIMAL, NULL, &p);
    /* Both pairs would cost 1 + 1 + 100 but cannot run: each needs the
     * other's output.  The best valid placement keeps one pair. */
    ck_assert_int_eq(count_on(r, "ta") + count_on(r, "tc"), 1);
    ck_assert_us(r->cost, 1 + 3 * 100);
    byoc_result_destroy(r);
    /* Greedy must not produce the cycle either. */
    r = run(g, t, 3, BYOC_SEARCH_GREEDY, NULL, &p);
    ck_assert_int_eq(count_on(r, "ta") + count_on(r, "tc"), 1);
    byoc_result_destroy(r);
    byoc_graph_destroy(g);
}
END_TEST

/* ---- a diamond: the supported nodes around an unsupported one ---------------------- */

static const char diamond[] =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(4), float32]) {\n"
    "  %0 = nn.relu(%x);\n"
    "  %1 = tanh(%0);\n"
    "  %2 = exp(%0);\n"
    "  add(%1, %2)\n"
    "}\n";

START_TEST(diamond_split_stays_convex)
{
    static const price v[] = {{"anyt", "*", 1}, {"acc_native", "*", 50}};
    prices p = {v, 2, 0};
    byoc_graph *g = graph(diamond);
    const char *t[] = {"anyt", "acc_native"};
    byoc_result *r = run(g, t, 2, BYOC_SEARCH_OPTIMAL, NULL, &p);
    /* {relu, tanh, add} is connected and supported but not convex (relu ->
     * exp -> add); a partition with add cannot hold relu. */
    int relu = r->node_partition[1], add = r->node_partition[4];
    ck_assert_int_ne(relu, add);
    ck_assert_int_eq(r->node_partition[3] == add, 0);
    /* exp on the native; {tanh, add} on anyt (it must contain add); relu
     * alone on the native since anyt needs an add in each partition. */
    ck_assert_us(r->cost, 50 + 1 + 50);
    byoc_result_destroy(r);
    byoc_graph_destroy(g);
}
END_TEST

/* ---- transfers between devices ----------------------------------------------------- */

static const char three[] =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(4), float32]) {\n"
    "  %0 = nn.relu(%x);\n"
    "  %1 = tanh(%0);\n"
    "  nn.relu(%1)\n"
    "}\n";

START_TEST(transfers_are_charged)
{
    static const price v[] = {
        {"acc_native", "nn.relu", 1}, {"acc_native", "tanh", 1000},
        {"native_d1", "tanh", 1},     {"native_d1", "nn.relu", 1000},
    };
    prices p = {v, 4, 0};
    byoc_graph *g = graph(three);
    const char *t[] = {"acc_native", "native_d1"};
    byoc_result *r = run(g, t, 2, BYOC_SEARCH_OPTIMAL, NULL, &p);
    ck_assert_int_eq(r->npartitions, 3);
    ck_assert_str_eq(r->partitions[1].target->name, "native_d1");
    /* Two crossings of 16 bytes: 10 us latency + 16 B / 10 GB/s each. */
    double hop = 1e-5 + 16 / 1e10;
    ck_assert_msg(fabs(r->transfer_cost - 2 * hop) < 1e-15, "%.12g", r->transfer_cost);
    ck_assert_msg(fabs(r->cost - (US(3) + 2 * hop)) < 1e-15, "%.12g", r->cost);
    byoc_result_destroy(r);
    byoc_graph_destroy(g);
}
END_TEST

/* The same tensor twice in one tuple moves once. */
static const char twice[] =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(4), float32]) {\n"
    "  %0 = nn.relu(%x);\n"
    "  %1 = (%0, %0);\n"
    "  concatenate(%1)\n"
    "}\n";

START_TEST(transfer_once_per_tensor)
{
    static const price v[] = {
        {"acc_native", "nn.relu", 1}, {"acc_native", "concatenate", 1000},
        {"native_d1", "concatenate", 1}, {"native_d1", "nn.relu", 1000},
    };
    prices p = {v, 4, 0};
    byoc_graph *g = graph(twice);
    const char *t[] = {"acc_native", "native_d1"};
    byoc_result *r = run(g, t, 2, BYOC_SEARCH_OPTIMAL, NULL, &p);
    ck_assert_int_eq(r->npartitions, 2);
    double hop = 1e-5 + 16 / 1e10;
    ck_assert_msg(fabs(r->transfer_cost - hop) < 1e-15, "%.12g", r->transfer_cost);
    byoc_result_destroy(r);
    byoc_graph_destroy(g);
}
END_TEST

/* ---- target selection ---------------------------------------------------------------- */

START_TEST(selection_errors)
{
    byoc_graph *g = graph(three);
    byoc_partition_options o;
    byoc_partition_options_init(&o);
    byoc_error err;
    const char *typo[] = {"lbi"};
    o.targets = typo;
    o.ntargets = 1;
    ck_assert_ptr_null(byoc_partition_graph(g, &o, &err));
    ck_assert_str_eq(err.msg, "unknown target 'lbi' (did you mean 'lib'?)");
    const char *orphan[] = {"orphan"};
    o.targets = orphan;
    ck_assert_ptr_null(byoc_partition_graph(g, &o, &err));
    ck_assert_str_eq(err.msg, "device 'island' of target 'orphan' has no native target (one "
                              "that 'supports *') and no link to and from a device with one, "
                              "so some calls could go nowhere");
    const char *fed[] = {"fed"};
    o.targets = fed;
    ck_assert_ptr_null(byoc_partition_graph(g, &o, &err));
    ck_assert_str_eq(err.msg, "device 'sink' of target 'fed' has no native target (one "
                              "that 'supports *') and no link to and from a device with one, "
                              "so some calls could go nowhere");
    const char *listed_twice[] = {"lib", "lib"};
    o.targets = listed_twice;
    o.ntargets = 2;
    ck_assert_ptr_null(byoc_partition_graph(g, &o, &err));
    ck_assert_str_eq(err.msg, "target 'lib' is listed twice");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(hosted_accelerator)
{
    /* npu has no native target: dev's, linked both ways, takes the rest. */
    byoc_partition_options o;
    byoc_partition_options_init(&o);
    const char *t[] = {"hosted"};
    o.targets = t;
    o.ntargets = 1;
    const byoc_target_decl *v[32];
    byoc_error err;
    int n = byoc_partition_targets(reg, &o, v, 32, &err);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(v[0]->name, "hosted");
    ck_assert_str_eq(v[1]->name, "native");
    /* A native of the host already listed is not added twice. */
    const char *t2[] = {"hosted", "native_d2"};
    o.targets = t2;
    o.ntargets = 2;
    n = byoc_partition_targets(reg, &o, v, 32, &err);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(v[1]->name, "native_d2");
    byoc_graph *g = graph(three);
    o.targets = t;
    o.ntargets = 1;
    byoc_result *r = byoc_partition_graph(g, &o, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    char buf[256];
    ck_assert_ptr_null(byoc_result_check(r, buf, sizeof buf));
    byoc_result_destroy(r);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(default_targets)
{
    /* No -t: every target of the first native's device, backends first. */
    byoc_partition_options o;
    byoc_partition_options_init(&o);
    const byoc_target_decl *v[32];
    byoc_error err;
    int n = byoc_partition_targets(reg, &o, v, 32, &err);
    ck_assert_int_eq(n, 7);
    ck_assert_str_eq(v[0]->name, "lib");
    ck_assert_str_eq(v[1]->name, "ta");
    ck_assert_str_eq(v[2]->name, "tc");
    ck_assert_str_eq(v[3]->name, "native");
    ck_assert_str_eq(v[6]->name, "native_d3");
    /* A backend alone gets its device's first native. */
    const char *lib[] = {"lib"};
    o.targets = lib;
    o.ntargets = 1;
    n = byoc_partition_targets(reg, &o, v, 32, &err);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(v[1]->name, "native");
}
END_TEST

/* ---- the estimator is asked once per distinct kernel ----------------------------- */

START_TEST(costs_are_cached)
{
    price v[] = {{"native_d1", "*", 10}};
    prices p = {v, 1, 0};
    byoc_graph *g = graph(chain6);
    const char *t[] = {"native_d1"};
    byoc_result *r = run(g, t, 1, BYOC_SEARCH_OPTIMAL, NULL, &p);
    /* Three distinct kernels (relu, tanh, sigmoid on one tensor type). */
    ck_assert_int_eq(p.calls, 3);
    ck_assert_uint_eq(r->nkernels, 3);
    byoc_result_destroy(r);
    byoc_graph_destroy(g);
}
END_TEST

/* ---- a kernel as Relay, from inside a cost callback -------------------------------- */

typedef struct relay_seen {
    int kernels, failed;
    char first[1024];        /* the first kernel as @kernel */
    char main[1024];         /* ... and as @main */
} relay_seen;

static double write_each(const byoc_kernel *k, void *ctx)
{
    relay_seen *rs = ctx;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    byoc_error err;
    int rc = byoc_kernel_write_relay(k, NULL, f, &err);
    fclose(f);
    rs->failed += rc != 0;
    if (rc == 0 && rs->kernels++ == 0) {
        snprintf(rs->first, sizeof rs->first, "%s", buf);
        char *m = NULL;
        size_t mlen = 0;
        FILE *mf = open_memstream(&m, &mlen);
        ck_assert_ptr_nonnull(mf);
        ck_assert_int_eq(byoc_kernel_write_relay(k, "main", mf, &err), 0);
        fclose(mf);
        snprintf(rs->main, sizeof rs->main, "%s", m);
        free(m);
    }
    /* Every call of the kernel appears in its function. */
    for (int i = 0; rc == 0 && i < k->nnodes; i++)
        if (byoc_node_kind_of(k->graph, k->nodes[i]) == BYOC_N_CALL)
            ck_assert_msg(strstr(buf, byoc_node_op_name(k->graph, k->nodes[i])) != NULL,
                          "%s", buf);
    /* A bad name is an error, and writes nothing. */
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &len);
    ck_assert_int_eq(byoc_kernel_write_relay(k, "9lives", f, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "9lives"));
    fclose(f);
    ck_assert_uint_eq(len, 0);
    free(buf);
    return -1;   /* unknown: the analytic model prices it */
}

START_TEST(kernel_as_relay)
{
    byoc_graph *g = graph(conv_relu);
    relay_seen rs = {0};
    byoc_partition_options o;
    byoc_partition_options_init(&o);
    o.cost_fn = write_each;
    o.cost_ctx = &rs;
    byoc_error err;
    byoc_result *r = byoc_partition_graph(g, &o, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    ck_assert_int_gt(rs.kernels, 0);
    ck_assert_int_eq(rs.failed, 0);
    ck_assert_msg(!strncmp(rs.first, "def @kernel(%kernel_i0", 22), "%s", rs.first);
    /* With a version header it reads back as a model. */
    char text[1200];
    snprintf(text, sizeof text, "#[version = \"0.0.5\"]\n%s", rs.main);
    byoc_graph *back = byoc_relay_read_string(reg, text, strlen(text), "kernel.relay", &err);
    ck_assert_msg(back != NULL, "%s: %s", err.msg, text);
    byoc_graph_destroy(back);
    byoc_result_destroy(r);
    byoc_graph_destroy(g);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("partition");
    TCase *tc = tcase_create("scenarios");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, fusion_benefit);
    tcase_add_test(tc, fusion_without_benefit);
    tcase_add_test(tc, max_depth_limits_fusion);
    tcase_add_test(tc, cycle_counterexample);
    tcase_add_test(tc, diamond_split_stays_convex);
    tcase_add_test(tc, transfers_are_charged);
    tcase_add_test(tc, transfer_once_per_tensor);
    tcase_add_test(tc, selection_errors);
    tcase_add_test(tc, hosted_accelerator);
    tcase_add_test(tc, default_targets);
    tcase_add_test(tc, costs_are_cached);
    tcase_add_test(tc, kernel_as_relay);
    suite_add_tcase(s, tc);
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
