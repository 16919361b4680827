/* Compile-and-run test of generated code.
 *
 * examples/tour_gpu.byoc and tour_npu.byoc are compiled by byocc at build
 * time; this driver (built with -std=c11 -pedantic -Werror) registers them,
 * checks what the registry then knows, and runs their compiled predicates
 * on hand-built graphs, in cases where they must hold and where they must
 * not. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

#include "tour_gpu.h"
#include "tour_npu.h"

static byoc_registry *reg;

static void setup(void)
{
    byoc_error err;
    reg = byoc_registry_create();
    ck_assert_ptr_nonnull(reg);
    ck_assert_int_eq(byoc_register_tour_gpu(reg, &err), 0);
    ck_assert_int_eq(byoc_register_tour_npu(reg, &err), 0);
    ck_assert_int_eq(byoc_registry_check(reg, &err), 0);
}

static void teardown(void)
{
    byoc_registry_destroy(reg);
    reg = NULL;
}

static const byoc_target_decl *target(const char *name)
{
    const byoc_target_decl *t = byoc_registry_target(reg, name);
    ck_assert_msg(t != NULL, "no target %s", name);
    return t;
}

static const byoc_pattern_decl *pattern(const byoc_target_decl *t, const char *name)
{
    int n = byoc_target_pattern_count(reg, t);
    for (int i = 0; i < n; i++) {
        const byoc_pattern_decl *p = byoc_target_pattern_at(reg, t, i);
        if (p->name && strcmp(p->name, name) == 0)
            return p;
    }
    ck_abort_msg("no pattern %s in %s", name, t->name);
    return NULL;
}

static int slot(const byoc_pattern_decl *p, const char *name)
{
    for (int i = 0; i < p->nslots; i++)
        if (strcmp(p->slots[i].name, name) == 0)
            return i;
    ck_abort_msg("no slot %s", name);
    return -1;
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

static byoc_value str(const char *s)
{
    byoc_value v = {.kind = BYOC_V_STRING, .u.s = s};
    return v;
}

static byoc_value integer(int64_t i)
{
    byoc_value v = {.kind = BYOC_V_INT, .u.i = i};
    return v;
}

/* Evaluate pattern p of target t with the named slots bound. */
static bool eval(const byoc_target_decl *t, const byoc_pattern_decl *p, const byoc_graph *g,
                 const char *const *names, const int *nodes, int n, int *failed)
{
    int slots[32];
    ck_assert_int_le(p->nslots, 32);
    for (int i = 0; i < p->nslots; i++)
        slots[i] = -1;
    for (int i = 0; i < n; i++)
        slots[slot(p, names[i])] = nodes[i];
    byoc_eval ev;
    memset(&ev, 0, sizeof ev);
    ev.graph = g;
    ev.slots = slots;
    ev.nslots = p->nslots;
    ev.options = byoc_target_options(reg, t);
    ev.noptions = t->noptions;
    ev.failed_clause = -1;
    ck_assert(p->pred.fn != NULL);
    bool r = p->pred.fn(&ev);
    if (failed)
        *failed = ev.failed_clause;
    return r;
}

START_TEST(registers_targets_and_parents)
{
    ck_assert_ptr_nonnull(byoc_registry_op(reg, "nn.conv2d"));
    ck_assert_ptr_nonnull(byoc_registry_device(reg, "gpu"));
    ck_assert_ptr_nonnull(byoc_registry_device(reg, "npu"));
    ck_assert_ptr_nonnull(byoc_registry_link(reg, "gpu", "host"));
    ck_assert_ptr_nonnull(byoc_registry_link(reg, "mcu", "npu"));
    ck_assert_ptr_nonnull(byoc_registry_link(reg, "npu", "mcu"));
    ck_assert_ptr_null(byoc_registry_link(reg, "gpu", "npu"));

    const byoc_target_decl *trt10 = target("trt10");
    ck_assert(byoc_target_refines(reg, trt10, "trt"));
    ck_assert(byoc_target_refines(reg, trt10, "gpu"));
    ck_assert(!byoc_target_refines(reg, trt10, "kernels"));
    ck_assert(!byoc_target_refines(reg, target("trt"), "trt10"));
    ck_assert_str_eq(byoc_target_device(reg, trt10)->name, "gpu");
    ck_assert_str_eq(byoc_target_device(reg, target("npu_kernels"))->name, "npu");
    ck_assert_ptr_eq(byoc_target_parent(reg, trt10), target("trt"));
    ck_assert_ptr_null(byoc_target_parent(reg, target("trt")));

    /* Settings are inherited along the chain. */
    ck_assert_int_eq(byoc_target_fusion(reg, trt10), BYOC_FUSION_ANY);
    ck_assert_int_eq(byoc_target_max_nodes(reg, trt10), 256);
    ck_assert_int_eq(byoc_target_max_exits(reg, trt10), 4);
    ck_assert_int_eq(byoc_target_max_depth(reg, target("gpu_native")), 8);
    ck_assert(byoc_target_supports_all(reg, target("gpu_native")));
    ck_assert(!byoc_target_supports_all(reg, trt10));
    ck_assert_double_eq_tol(byoc_target_efficiency(reg, trt10), 0.6, 1e-12);
    ck_assert_double_eq_tol(byoc_target_efficiency(reg, target("host_native")), 1.0, 1e-12);
}
END_TEST

START_TEST(counts_rules_and_patterns)
{
    /* trt: 8 supports statements with 11 patterns (one lists four ops). */
    const byoc_target_decl *trt = target("trt"), *trt10 = target("trt10");
    ck_assert_int_eq(byoc_target_rule_count(reg, trt), 11);
    ck_assert_int_eq(byoc_target_rule_count(reg, trt10), 12);
    ck_assert_int_eq(byoc_target_partition_rule_count(reg, trt), 2);
    ck_assert_int_eq(byoc_target_partition_rule_count(reg, trt10), 2);
    /* kernels: 1 + 4 (act family) + 2x2 (residual family) + 9 more. */
    const byoc_target_decl *k = target("kernels");
    ck_assert_int_eq(byoc_target_pattern_count(reg, k), 18);
    pattern(k, "conv2d_bias_hardswish");
    pattern(k, "conv2d_bias_residual_add_relu");
    pattern(k, "conv2d_bias_residual_multiply");
    /* npu: 4 patterns + the stride family. */
    ck_assert_int_eq(byoc_target_pattern_count(reg, target("npu_kernels")), 6);
    pattern(target("npu_kernels"), "strided_2");
}
END_TEST

START_TEST(runtime_and_passes)
{
    ck_assert_str_eq(byoc_target_runtime(reg, target("gpu_native")),
                     "onnxruntime:CUDAExecutionProvider");
    ck_assert_str_eq(byoc_target_runtime(reg, target("trt10")),
                     "onnxruntime:TensorrtExecutionProvider");   /* trt's */
    ck_assert_ptr_null(byoc_target_runtime(reg, target("kernels")));
    ck_assert_str_eq(byoc_target_runtime(reg, target("npu_kernels")), "npu_driver");

    const byoc_target_decl *npu = target("npu_kernels"), *owner = NULL;
    ck_assert_int_eq(byoc_target_pass_count(reg, npu, &owner), 3);
    ck_assert_ptr_eq(owner, npu);
    static const struct {
        const char *name;
        byoc_pass_point point;
        byoc_pass_fn *fn;
    } want[] = {
        {"plan_sram", BYOC_PASS_BEFORE, plan_sram},
        {"compile_kernel", BYOC_PASS_PARTITION, compile_kernel},
        {"link_image", BYOC_PASS_AFTER, link_image},
    };
    for (int i = 0; i < 3; i++) {
        const byoc_pass_decl *p = byoc_target_pass_at(reg, npu, i);
        ck_assert_str_eq(p->name, want[i].name);
        ck_assert_int_eq(p->point, want[i].point);
        ck_assert(p->fn == want[i].fn);
        ck_assert_ptr_null(p->user);
    }
    ck_assert_int_eq(byoc_target_pass_count(reg, target("npu_native"), &owner), 0);
    ck_assert_ptr_null(owner);
}
END_TEST

START_TEST(options_get_set)
{
    byoc_error err;
    const byoc_target_decl *trt = target("trt"), *trt10 = target("trt10");
    const byoc_value *v = byoc_target_option(reg, trt, "version");
    ck_assert_int_eq(v->kind, BYOC_V_VERSION);
    ck_assert(v->u.ver == BYOC_VERSION(8, 6, 1));
    v = byoc_target_option(reg, trt10, "version");
    ck_assert(v->u.ver == BYOC_VERSION(10, 0, 1));
    /* Inherited options keep their index. */
    ck_assert_str_eq(trt10->options[1].name, "version");
    ck_assert_str_eq(trt10->options[trt10->noptions - 1].name, "use_bf16");

    ck_assert_int_eq(byoc_registry_set_option_spec(reg, "trt:use_fp16=true", &err), 0);
    ck_assert(byoc_target_option(reg, trt, "use_fp16")->u.b);
    ck_assert(!byoc_target_option(reg, trt10, "use_fp16")->u.b);
    ck_assert_int_ne(byoc_target_set_option_text(reg, "trt", "use_fp16", "maybe", &err), 0);
    ck_assert_int_ne(byoc_target_set_option_text(reg, "trt", "no_such", "1", &err), 0);
    ck_assert_int_eq(byoc_target_set_option_text(reg, "trt", "precision", "float16", &err), 0);
    ck_assert_int_eq(byoc_target_option(reg, trt, "precision")->u.dt, BYOC_DT_FLOAT16);
}
END_TEST

/* A conv2d in NHWC/OHWI with a bias add and relu, as kernels expects. */
typedef struct conv_graph {
    byoc_graph *g;
    int x, w, conv, b, bias, relu;
} conv_graph;

static conv_graph make_conv(byoc_dtype dt, int64_t cin, int64_t cout, int64_t groups,
                            int64_t kw_last)
{
    byoc_error err;
    conv_graph c;
    c.g = byoc_graph_create(reg);
    int64_t xd[] = {1, 56, 56, cin}, wd[] = {cout, 3, 3, kw_last}, bd[] = {cout};
    int64_t od[] = {1, 56, 56, cout};
    byoc_tensor_type xt = tensor(dt, 4, xd), wt = tensor(dt, 4, wd), bt = tensor(dt, 1, bd);
    byoc_tensor_type ot = tensor(dt, 4, od);
    c.x = byoc_graph_add_input(c.g, "x", &xt, &err);
    c.w = byoc_graph_add_const(c.g, &wt, NULL, &err);
    int args[2] = {c.x, c.w};
    c.conv = byoc_graph_add_call(c.g, "nn.conv2d", args, 2, &err);
    ck_assert_int_ge(c.conv, 0);
    byoc_value nhwc = str("NHWC"), ohwi = str("OHWI"), gr = integer(groups);
    ck_assert_int_eq(byoc_graph_set_attr(c.g, c.conv, "data_layout", &nhwc, &err), 0);
    ck_assert_int_eq(byoc_graph_set_attr(c.g, c.conv, "kernel_layout", &ohwi, &err), 0);
    ck_assert_int_eq(byoc_graph_set_attr(c.g, c.conv, "groups", &gr, &err), 0);
    byoc_graph_set_type(c.g, c.conv, &ot);
    c.b = byoc_graph_add_const(c.g, &bt, NULL, &err);
    int bargs[2] = {c.conv, c.b};
    c.bias = byoc_graph_add_call(c.g, "nn.bias_add", bargs, 2, &err);
    byoc_graph_set_type(c.g, c.bias, &ot);
    c.relu = byoc_graph_add_call(c.g, "nn.relu", &c.bias, 1, &err);
    byoc_graph_set_type(c.g, c.relu, &ot);
    return c;
}

START_TEST(predicate_true_and_false)
{
    const byoc_target_decl *k = target("kernels");
    const byoc_pattern_decl *p = pattern(k, "conv2d_bias_relu_aligned");
    ck_assert_int_eq(p->pred.nclauses, 3);
    static const char *const names[] = {"x", "w", "c"};
    int failed;

    conv_graph ok = make_conv(BYOC_DT_FLOAT16, 64, 64, 1, 64);
    int nodes[] = {ok.x, ok.w, ok.conv};
    ck_assert(eval(k, p, ok.g, names, nodes, 3, &failed));
    ck_assert_int_eq(failed, -1);
    byoc_graph_destroy(ok.g);

    conv_graph f64 = make_conv(BYOC_DT_FLOAT64, 64, 64, 1, 64);
    int n2[] = {f64.x, f64.w, f64.conv};
    ck_assert(!eval(k, p, f64.g, names, n2, 3, &failed));
    ck_assert_int_eq(failed, 0);
    ck_assert_str_eq(p->pred.clauses[0].text, "dtype(x) in {float16, float32}");
    /* Clause 0 comes from inside the predicate macro half_or_single(x):
     * its text in the pattern's names, the use, and the macro's file. */
    ck_assert_str_eq(p->pred.clauses[0].via, "half_or_single(x)");
    ck_assert_str_eq(p->pred.clauses[0].file, "tour_gpu.byoc");
    ck_assert_ptr_null(p->pred.clauses[2].via);
    ck_assert_str_eq(p->pred.clauses[1].text, "!depthwise(c, x)");
    byoc_graph_destroy(f64.g);

    conv_graph dw = make_conv(BYOC_DT_FLOAT32, 64, 64, 64, 64);
    int n3[] = {dw.x, dw.w, dw.conv};
    ck_assert(!eval(k, p, dw.g, names, n3, 3, &failed));
    ck_assert_int_eq(failed, 1);
    byoc_graph_destroy(dw.g);

    conv_graph grouped = make_conv(BYOC_DT_FLOAT32, 64, 64, 2, 64);
    int n4[] = {grouped.x, grouped.w, grouped.conv};
    ck_assert(eval(k, p, grouped.g, names, n4, 3, &failed));
    byoc_graph_destroy(grouped.g);

    conv_graph odd = make_conv(BYOC_DT_FLOAT32, 64, 64, 1, 3);
    int n5[] = {odd.x, odd.w, odd.conv};
    ck_assert(!eval(k, p, odd.g, names, n5, 3, &failed));
    ck_assert_int_eq(failed, 2);
    byoc_graph_destroy(odd.g);
}
END_TEST

START_TEST(predicate_reads_options)
{
    byoc_error err;
    const byoc_target_decl *trt = target("trt"), *trt10 = target("trt10");
    /* Rule 0 of trt: the conv2d rule, which reads target.use_fp16. */
    const byoc_pattern_decl *r = byoc_target_rule_at(reg, trt, 0);
    byoc_graph *g = byoc_graph_create(reg);
    int64_t xd[] = {1, 3, 224, 224}, wd[] = {64, 3, 7, 7};
    byoc_tensor_type xt = tensor(BYOC_DT_FLOAT16, 4, xd), wt = tensor(BYOC_DT_FLOAT16, 4, wd);
    int x = byoc_graph_add_input(g, "x", &xt, &err);
    int w = byoc_graph_add_const(g, &wt, NULL, &err);
    int args[] = {x, w};
    int c = byoc_graph_add_call(g, "nn.conv2d", args, 2, &err);
    static const char *const names[] = {"c", "x", "w"};
    int nodes[] = {c, x, w};
    int failed;
    ck_assert(!eval(trt, r, g, names, nodes, 3, &failed));
    ck_assert_int_eq(failed, 2);
    ck_assert_int_eq(byoc_target_set_option_text(reg, "trt", "use_fp16", "true", &err), 0);
    ck_assert(eval(trt, r, g, names, nodes, 3, &failed));
    /* trt10 inherits the rule but has its own option values. */
    ck_assert_ptr_eq(byoc_target_rule_at(reg, trt10, 0), r);
    ck_assert(!eval(trt10, r, g, names, nodes, 3, &failed));

    /* Version gates: supports erf where target.version >= 7.0.0. */
    const byoc_pattern_decl *erf = NULL;
    for (int i = 0; i < byoc_target_rule_count(reg, trt); i++) {
        const byoc_pattern_decl *q = byoc_target_rule_at(reg, trt, i);
        const byoc_pnode *root = &q->nodes[q->root];
        if (root->kind == BYOC_PAT_CALL && !strcmp(root->ops[0], "erf"))
            erf = q;
    }
    ck_assert_ptr_nonnull(erf);
    ck_assert(eval(trt, erf, g, NULL, NULL, 0, NULL));
    ck_assert_int_eq(byoc_target_set_option_text(reg, "trt", "version", "6.0.1", &err), 0);
    ck_assert(!eval(trt, erf, g, NULL, NULL, 0, NULL));
    ck_assert(eval(trt10, erf, g, NULL, NULL, 0, NULL));
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(absent_attribute_is_false)
{
    /* kernels.batch_matmul reads bm.out_dtype; a graph whose call lacks a
     * type makes shape() unknown, which must make the predicate false. */
    byoc_error err;
    const byoc_target_decl *k = target("kernels");
    const byoc_pattern_decl *p = pattern(k, "batch_matmul");
    byoc_graph *g = byoc_graph_create(reg);
    int64_t d[] = {8, 128, 64};
    byoc_tensor_type t = tensor(BYOC_DT_FLOAT16, 3, d), unk;
    memset(&unk, 0, sizeof unk);
    unk.rank = -1;
    int a = byoc_graph_add_input(g, "a", &t, &err);
    int b = byoc_graph_add_input(g, "b", &unk, &err);
    int args[] = {a, b};
    int bm = byoc_graph_add_call(g, "nn.batch_matmul", args, 2, &err);
    static const char *const names[] = {"bm", "p", "q"};
    int nodes[] = {bm, a, b};
    int failed;
    ck_assert(!eval(k, p, g, names, nodes, 3, &failed));
    ck_assert_int_eq(failed, 0);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(extern_predicate_and_partition_rules)
{
    byoc_error err;
    const byoc_target_decl *npu = target("npu_kernels");
    int n = byoc_target_partition_rule_count(reg, npu);
    ck_assert_int_eq(n, 2);
    const byoc_predicate_decl *pr = byoc_target_partition_rule_at(reg, npu, 0);
    byoc_graph *g = byoc_graph_create(reg);
    int64_t d[] = {1, 16};
    byoc_tensor_type t = tensor(BYOC_DT_INT8, 2, d);
    int x = byoc_graph_add_input(g, "x", &t, &err);
    int r = byoc_graph_add_call(g, "nn.relu", &x, 1, &err);
    byoc_graph_set_type(g, r, &t);
    byoc_eval ev;
    memset(&ev, 0, sizeof ev);
    ev.graph = g;
    ev.options = byoc_target_options(reg, npu);
    ev.noptions = npu->noptions;
    ev.part = &r;
    ev.npart = 1;
    ev.failed_clause = -1;
    /* No qnn.conv2d in the candidate: the first clause fails. */
    ck_assert(!pr->fn(&ev));
    ck_assert_int_eq(ev.failed_clause, 0);
    /* Outputs are int8: the second rule holds. */
    const byoc_predicate_decl *pr2 = byoc_target_partition_rule_at(reg, npu, 1);
    memset(&ev, 0, sizeof ev);
    ev.graph = g;
    ev.part = &r;
    ev.npart = 1;
    ck_assert(pr2->fn(&ev));
    byoc_graph_destroy(g);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tour");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, registers_targets_and_parents);
    tcase_add_test(core, counts_rules_and_patterns);
    tcase_add_test(core, runtime_and_passes);
    tcase_add_test(core, options_get_set);
    tcase_add_test(core, predicate_true_and_false);
    tcase_add_test(core, predicate_reads_options);
    tcase_add_test(core, absent_attribute_is_false);
    tcase_add_test(core, extern_predicate_and_partition_rules);
    suite_add_tcase(s, core);
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
