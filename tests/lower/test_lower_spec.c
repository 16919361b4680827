/* Lowering keyed by target through generated code: tests/lower/lower_spec.byoc
 * declares its passes with `extern lower` and names them with `lower` in
 * a target hierarchy; byocc compiles it and this program (built with
 * -std=c11 -pedantic -Werror) writes the passes, partitions a model with
 * a cost callback that puts each op on a chosen target, lowers the result
 * and checks that each pass saw exactly its target's partitions, in
 * execution order, between the BEFORE and AFTER passes.
 *
 *   npu_base (npu)      before npu_begin; npu_kernel; after npu_end; nn.relu
 *   npu_v2 : npu_base   none of its own: runs npu_base's; add
 *   npu_fast : npu_base fast_kernel only; multiply
 *   host_native         none; everything else */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

#include "lower_spec.h"

/* ---- the passes: each records what it saw ------------------------------- */

#define MAX_SEEN 64

typedef struct seen {
    const char *pass;
    const char *target, *owner;
    int part;                   /* -1 at BEFORE and AFTER */
} seen;

static seen log_[MAX_SEEN];
static int nlog;

static int note(const byoc_lower_ctx *cx, byoc_error *err)
{
    if (nlog == MAX_SEEN) {
        strcpy(err->msg, "too many passes ran");
        return 1;
    }
    log_[nlog++] = (seen){cx->pass, cx->target->name, cx->owner ? cx->owner->name : NULL,
                          cx->part ? cx->part->index : -1};
    return 0;
}

int npu_begin(const byoc_lower_ctx *cx, void *user, byoc_error *err)
{
    (void)user;
    return note(cx, err);
}

int npu_end(const byoc_lower_ctx *cx, void *user, byoc_error *err)
{
    (void)user;
    return note(cx, err);
}

/* A partition pass checks what it is shown, as a code generator would:
 * every boundary tensor named and typed. */
static int kernel(const byoc_lower_ctx *cx, byoc_error *err)
{
    const byoc_lower_part *p = cx->part;
    for (int i = 0; i < p->ninputs + p->noutputs; i++) {
        const byoc_lower_tensor *t = i < p->ninputs ? &p->inputs[i] : &p->outputs[i - p->ninputs];
        if (!t->name || !t->type || t->type->rank != 2) {
            strcpy(err->msg, "a boundary tensor without a name or type");
            return 1;
        }
    }
    if (p->ninputs == 0 || p->noutputs == 0) {
        strcpy(err->msg, "a partition that reads or writes nothing");
        return 1;
    }
    return note(cx, err);
}

int npu_kernel(const byoc_lower_ctx *cx, void *user, byoc_error *err)
{
    (void)user;
    return kernel(cx, err);
}

int fast_kernel(const byoc_lower_ctx *cx, void *user, byoc_error *err)
{
    (void)user;
    return kernel(cx, err);
}

/* ---- placing each op on a chosen target ------------------------------------ */

static const char *chosen(const char *op)
{
    if (strcmp(op, "nn.relu") == 0)
        return "npu_base";
    if (strcmp(op, "add") == 0)
        return "npu_v2";
    if (strcmp(op, "multiply") == 0)
        return "npu_fast";
    return "host_native";
}

static double cost(const byoc_kernel *k, void *ctx)
{
    (void)ctx;
    for (int i = 0; i < k->nnodes; i++) {
        const char *op = byoc_node_op_name(k->graph, k->nodes[i]);
        if (op && strcmp(chosen(op), k->target->name) != 0)
            return INFINITY;
    }
    return 1e-6;
}

static const char model[] =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(1, 16), float32], %y: Tensor[(1, 16), float32]) {\n"
    "  %0 = nn.relu(%x);\n"
    "  %1 = add(%0, %y);\n"
    "  %2 = nn.relu(%1);\n"
    "  %3 = multiply(%2, %2);\n"
    "  %4 = nn.softmax(%3);\n"
    "  %5 = nn.relu(%4);\n"
    "  %6 = add(%5, %1);\n"
    "  %7 = multiply(%6, %6);\n"
    "  (%7, %3)\n"
    "}\n";

static byoc_registry *reg;
static byoc_graph *g;
static byoc_result *res;

static void setup(void)
{
    byoc_error err;
    nlog = 0;
    reg = byoc_registry_create();
    ck_assert_int_eq(byoc_register_lower_spec(reg, &err), 0);
    ck_assert_int_eq(byoc_registry_check(reg, &err), 0);
    g = byoc_relay_read_string(reg, model, strlen(model), "model.relay", &err);
    ck_assert_msg(g != NULL, "%s", err.msg);
    byoc_partition_options o;
    byoc_partition_options_init(&o);
    static const char *const targets[] = {"npu_base", "npu_v2", "npu_fast", "host_native"};
    o.targets = targets;
    o.ntargets = 4;
    o.cost_fn = cost;
    res = byoc_partition_graph(g, &o, &err);
    ck_assert_msg(res != NULL, "%s", err.msg);
}

static void teardown(void)
{
    byoc_result_destroy(res);
    byoc_graph_destroy(g);
    byoc_registry_destroy(reg);
}

static int count_on(const char *target)
{
    int n = 0;
    for (int p = 0; p < res->npartitions; p++)
        n += strcmp(res->partitions[p].target->name, target) == 0;
    return n;
}

/* ---- Core ------------------------------------------------------------------ */

START_TEST(generated_passes_and_runtime)
{
    const byoc_target_decl *base = byoc_registry_target(reg, "npu_base");
    const byoc_target_decl *v2 = byoc_registry_target(reg, "npu_v2");
    const byoc_target_decl *fast = byoc_registry_target(reg, "npu_fast");
    const byoc_target_decl *owner = NULL;
    ck_assert_int_eq(byoc_target_pass_count(reg, v2, &owner), 3);
    ck_assert_ptr_eq(owner, base);
    ck_assert(byoc_target_pass_at(reg, v2, 1)->fn == npu_kernel);
    ck_assert_int_eq(byoc_target_pass_count(reg, fast, &owner), 1);
    ck_assert_ptr_eq(owner, fast);
    ck_assert(byoc_target_pass_at(reg, fast, 0)->fn == fast_kernel);
    ck_assert_str_eq(byoc_target_runtime(reg, v2), "npu_driver");
    ck_assert_str_eq(byoc_target_runtime(reg, fast), "npu_fast_driver");
    ck_assert_ptr_null(byoc_target_runtime(reg, byoc_registry_target(reg, "npu_native")));
}
END_TEST

START_TEST(each_pass_sees_its_targets_partitions)
{
    /* The cost callback placed each op where it was sent, one kernel per
     * call on the npu targets (fusion none). */
    ck_assert_int_eq(count_on("npu_base"), 3);
    ck_assert_int_eq(count_on("npu_v2"), 2);
    ck_assert_int_eq(count_on("npu_fast"), 2);
    ck_assert_int_eq(count_on("host_native"), 1);

    byoc_error err;
    ck_assert_msg(byoc_result_lower(res, NULL, &err) == 0, "%s", err.msg);

    /* npu_begin once per target that runs it and has a partition, in the
     * order of their first partitions, before any partition pass. */
    int first_base = -1, first_v2 = -1;
    for (int p = res->npartitions - 1; p >= 0; p--) {
        if (strcmp(res->partitions[p].target->name, "npu_base") == 0)
            first_base = p;
        if (strcmp(res->partitions[p].target->name, "npu_v2") == 0)
            first_v2 = p;
    }
    const char *begin_order[2] = {"npu_base", "npu_v2"};
    if (first_v2 < first_base) {
        begin_order[0] = "npu_v2";
        begin_order[1] = "npu_base";
    }
    int k = 0;
    for (int i = 0; i < 2; i++, k++) {
        ck_assert_str_eq(log_[k].pass, "npu_begin");
        ck_assert_str_eq(log_[k].target, begin_order[i]);
        ck_assert_str_eq(log_[k].owner, "npu_base");
        ck_assert_int_eq(log_[k].part, -1);
    }
    /* Then every npu partition in execution order, with its target's pass:
     * npu_v2 runs npu_base's, npu_fast only its own; host_native none. */
    for (int p = 0; p < res->npartitions; p++) {
        const char *t = res->partitions[p].target->name;
        if (strcmp(t, "host_native") == 0)
            continue;
        bool is_fast = strcmp(t, "npu_fast") == 0;
        ck_assert_int_lt(k, nlog);
        ck_assert_str_eq(log_[k].pass, is_fast ? "fast_kernel" : "npu_kernel");
        ck_assert_str_eq(log_[k].target, t);
        ck_assert_str_eq(log_[k].owner, is_fast ? "npu_fast" : "npu_base");
        ck_assert_int_eq(log_[k].part, p);
        k++;
    }
    /* Then npu_end in the npu_begin order, and nothing else. */
    for (int i = 0; i < 2; i++, k++) {
        ck_assert_int_lt(k, nlog);
        ck_assert_str_eq(log_[k].pass, "npu_end");
        ck_assert_str_eq(log_[k].target, begin_order[i]);
        ck_assert_int_eq(log_[k].part, -1);
    }
    ck_assert_int_eq(k, nlog);
}
END_TEST

/* The partitions' boundaries as the passes saw them, through the kept
 * parts: x comes from the model into the first relu; %3 is both read by
 * the host's softmax and returned. */
START_TEST(boundaries_between_targets)
{
    byoc_error err;
    int n;
    const byoc_lower_part *parts = byoc_result_parts(res, &n, &err);
    ck_assert_msg(parts != NULL, "%s", err.msg);
    ck_assert_int_eq(n, res->npartitions);
    ck_assert_str_eq(parts[0].inputs[0].name, "x");
    ck_assert_int_eq(parts[0].inputs[0].partition, -1);
    int returned = 0, from_npu_to_host = 0;
    for (int p = 0; p < n; p++)
        for (int i = 0; i < parts[p].noutputs; i++) {
            const byoc_lower_tensor *t = &parts[p].outputs[i];
            returned += t->model_output;
            if (strcmp(t->name, "%3") == 0) {
                ck_assert(t->model_output);
                ck_assert_int_eq(t->partition, -1);
                ck_assert_str_eq(parts[p].partition->target->name, "npu_fast");
                from_npu_to_host++;
            }
        }
    ck_assert_int_eq(returned, 2);
    ck_assert_int_eq(from_npu_to_host, 1);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("lower_spec");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, generated_passes_and_runtime);
    tcase_add_test(core, each_pass_sees_its_targets_partitions);
    tcase_add_test(core, boundaries_between_targets);
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
