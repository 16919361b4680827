/* Unit tests of the registry (runtime/registry.c), on module tables
 * written by hand the way byocc writes them: a module "base" with ops,
 * devices, a link and two targets, and a module "ext" that imports it and
 * refines one of its targets.  Lookups, refinement chains, inheritance,
 * options, the dump, and every way adding and checking modules fails. */
#include <check.h>
#include <stdio.h>
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

/* ---- module "base" ------------------------------------------------------ */

static const byoc_input_decl binary_inputs[] = {{"lhs", false}, {"rhs", false}};
static const byoc_input_decl conv_inputs[] = {{"data", false}, {"weight", false}};
static const byoc_input_decl tuple_input[] = {{"data", true}};
static const byoc_input_decl data_input[] = {{"data", false}};

static const byoc_value ones2[] = {INT(1), INT(1)};
static const byoc_attr_decl conv_attrs[] = {
    {.name = "strides", .type = {.base = BYOC_V_INT, .depth = 1}, .has_default = true,
     .def = LIST(ones2, 2)},
    {.name = "groups", .type = {.base = BYOC_V_INT}, .has_default = true, .def = INT(1)},
    {.name = "channels", .type = {.base = BYOC_V_INT, .optional = 1}},
    {.name = "data_layout", .type = {.base = BYOC_V_STRING}, .has_default = true,
     .def = STR("NCHW")},
    {.name = "out_dtype", .type = {.base = BYOC_V_DTYPE}, .has_default = true, .def = DT(VOID)},
};
static const byoc_attr_decl concat_attrs[] = {
    {.name = "axis", .type = {.base = BYOC_V_INT}, .has_default = true, .def = INT(0)},
};
static const byoc_attr_decl split_attrs[] = {
    {.name = "indices_or_sections",
     .type = {.base = BYOC_V_INT, .has_alt = 1, .alt_base = BYOC_V_INT, .alt_depth = 1},
     .has_default = true, .def = INT(1)},
    {.name = "axis", .type = {.base = BYOC_V_INT}},
};
static const byoc_op_decl base_ops[] = {
    {.name = "add", .kind = BYOC_OPK_BROADCAST, .ninputs = 2, .inputs = binary_inputs,
     .shape_rule = "broadcast", .flops_rule = "elemwise"},
    {.name = "nn.conv2d", .kind = BYOC_OPK_OUT_ELEMWISE_FUSABLE, .ninputs = 2,
     .inputs = conv_inputs, .nattrs = 5, .attrs = conv_attrs, .shape_rule = "conv2d",
     .flops_rule = "conv2d"},
    {.name = "concatenate", .kind = BYOC_OPK_INJECTIVE, .ninputs = 1, .inputs = tuple_input,
     .nattrs = 1, .attrs = concat_attrs, .shape_rule = "concatenate"},
    {.name = "split", .kind = BYOC_OPK_INJECTIVE, .ninputs = 1, .inputs = data_input,
     .nattrs = 2, .attrs = split_attrs},
};

static const byoc_peak gpu_peaks[] = {{BYOC_DT_FLOAT32, 19.5e12}, {BYOC_DT_FLOAT16, 312e12}};
static const byoc_peak cpu_peaks[] = {{BYOC_DT_FLOAT32, 2e12}};
static const byoc_device_decl base_devices[] = {
    {.name = "gpu", .npeaks = 2, .peaks = gpu_peaks, .bandwidth = 1.55e12, .launch = 5e-6},
    {.name = "cpu", .npeaks = 1, .peaks = cpu_peaks, .bandwidth = 1e11, .launch = 1e-6},
};
static const byoc_link_decl base_links[] = {
    {.from = "cpu", .to = "gpu", .both_ways = true, .bandwidth = 2.5e10, .latency = 1e-5},
};

/* A compiled `where target.use_fp16`, as byocc would write it. */
static const byoc_clause_decl fp16_clauses[] = {{"target.use_fp16", 31, 22}};
static bool pred_fp16(byoc_eval *ev)
{
    if (!byoc_ev_bool(ev, byoc_ev_option(ev, 0)) || ev->undef)
        return byoc_ev_fail(ev, 0);
    return true;
}

/* partition where contains(nn.conv2d) */
static const byoc_clause_decl contains_clauses[] = {{"contains(nn.conv2d)", 33, 21}};
static bool pred_contains_conv(byoc_eval *ev)
{
    static const char *const ops[] = {"nn.conv2d"};
    if (!(byoc_ev_count_ops(ev, ops, 1) > 0) || ev->undef)
        return byoc_ev_fail(ev, 0);
    return true;
}

static const char *const add_ops[] = {"add"};
static const char *const conv_ops[] = {"nn.conv2d"};
static const char *const concat_ops[] = {"concatenate"};
static const uint16_t kids01[] = {0, 1}, kids23[] = {2, 3}, kids0[] = {0};

/* supports add where target.use_fp16 */
static const byoc_pnode add_rule_nodes[] = {
    {.kind = BYOC_PAT_WILD, .slot = -1, .index = -1},
    {.kind = BYOC_PAT_WILD, .slot = -1, .index = -1},
    {.kind = BYOC_PAT_CALL, .slot = -1, .index = -1, .nops = 1, .nkids = 2, .ops = add_ops,
     .kids = kids01},
};
/* supports nn.conv2d */
static const byoc_pnode conv_rule_nodes[] = {
    {.kind = BYOC_PAT_WILD, .slot = -1, .index = -1},
    {.kind = BYOC_PAT_CONST, .slot = -1, .index = -1},
    {.kind = BYOC_PAT_CALL, .slot = -1, .index = -1, .nops = 1, .nkids = 2, .ops = conv_ops,
     .kids = kids01},
};
static const byoc_pattern_decl trt_rules[] = {
    {.root = 2, .nnodes = 3, .nodes = add_rule_nodes,
     .pred = {.fn = pred_fp16, .nclauses = 1, .clauses = fp16_clauses},
     .file = "base.byoc", .line = 31, .col = 5},
    {.root = 2, .nnodes = 3, .nodes = conv_rule_nodes, .file = "base.byoc", .line = 32, .col = 5},
};

/* pattern conv_add = add(c: nn.conv2d(x, _), _) */
static const byoc_pnode conv_add_nodes[] = {
    {.kind = BYOC_PAT_WILD, .slot = 0, .index = -1},
    {.kind = BYOC_PAT_WILD, .slot = -1, .index = -1},
    {.kind = BYOC_PAT_CALL, .slot = 1, .index = -1, .nops = 1, .nkids = 2, .ops = conv_ops,
     .kids = kids01},
    {.kind = BYOC_PAT_WILD, .slot = -1, .index = -1},
    {.kind = BYOC_PAT_CALL, .slot = -1, .index = -1, .nops = 1, .nkids = 2, .ops = add_ops,
     .kids = kids23, .flags = BYOC_PF_COMMUTE},
};
static const byoc_slot_decl conv_add_slots[] = {{"x", 0}, {"c", 2}};
static const byoc_pattern_decl trt_patterns[] = {
    {.name = "conv_add", .root = 4, .nnodes = 5, .nodes = conv_add_nodes, .nslots = 2,
     .slots = conv_add_slots, .file = "base.byoc", .line = 34, .col = 5},
};
static const byoc_predicate_decl trt_partition_rules[] = {
    {.fn = pred_contains_conv, .nclauses = 1, .clauses = contains_clauses},
};

static const byoc_value sizes12[] = {INT(1), INT(2)};
static const byoc_option_decl trt_options[] = {
    {.name = "use_fp16", .type = {.base = BYOC_V_BOOL}, .def = BOOL(false)},
    {.name = "version", .type = {.base = BYOC_V_VERSION}, .def = VER(8, 6, 1)},
    {.name = "workspace", .type = {.base = BYOC_V_INT}, .def = INT(1024)},
    {.name = "scale", .type = {.base = BYOC_V_FLOAT}, .def = FLOAT(0.5)},
    {.name = "precision", .type = {.base = BYOC_V_DTYPE}, .def = DT(FLOAT32)},
    {.name = "profile", .type = {.base = BYOC_V_STRING}, .def = STR("default")},
    {.name = "sizes", .type = {.base = BYOC_V_INT, .depth = 1}, .def = LIST(sizes12, 2)},
    {.name = "tag", .type = {.base = BYOC_V_STRING, .optional = 1}, .def = NONE},
};

/* lower before prep; lower lower_trt; as byocc would write them. */
static int noop_pass(const byoc_lower_ctx *cx, void *user, byoc_error *err)
{
    (void)cx;
    (void)user;
    (void)err;
    return 0;
}
static int other_pass(const byoc_lower_ctx *cx, void *user, byoc_error *err)
{
    return noop_pass(cx, user, err);
}
static const byoc_pass_decl trt_passes[] = {
    {.name = "prep", .point = BYOC_PASS_BEFORE, .fn = noop_pass},
    {.name = "lower_trt", .point = BYOC_PASS_PARTITION, .fn = noop_pass},
};

static const byoc_target_decl base_targets[] = {
    {.name = "native", .parent = "gpu", .parent_is_device = true, .fusion = BYOC_FUSION_TVM,
     .fusion_set = true, .max_depth = 8, .efficiency = 0.35, .supports_all = true,
     .file = "base.byoc", .line = 20, .col = 1},
    {.name = "trt", .parent = "gpu", .parent_is_device = true, .noptions = 8,
     .options = trt_options, .fusion = BYOC_FUSION_ANY, .fusion_set = true, .max_nodes = 256,
     .max_exits = 4, .efficiency = 0.6, .nrules = 2, .rules = trt_rules, .npatterns = 1,
     .patterns = trt_patterns, .npartition_rules = 1, .partition_rules = trt_partition_rules,
     .runtime = "onnxruntime:TensorrtExecutionProvider", .npasses = 2, .passes = trt_passes,
     .file = "base.byoc", .line = 30, .col = 1},
};

static const byoc_module_decl base_module = {
    .abi = BYOC_ABI_VERSION, .name = "base", .source = "base.byoc",
    .nops = 4, .ops = base_ops, .ndevices = 2, .devices = base_devices,
    .nlinks = 1, .links = base_links, .ntargets = 2, .targets = base_targets,
};

/* ---- module "ext" ------------------------------------------------------- */

static const byoc_device_decl ext_devices[] = {
    {.name = "npu", .bandwidth = 4e10, .launch = 2e-6},
};
static const byoc_link_decl ext_links[] = {
    {.from = "gpu", .to = "npu", .bandwidth = 1e9, .latency = 0.001},
};
/* supports concatenate(tuple(...)) */
static const byoc_pnode concat_rule_nodes[] = {
    {.kind = BYOC_PAT_TUPLE_ANY, .slot = -1, .index = -1},
    {.kind = BYOC_PAT_CALL, .slot = -1, .index = -1, .nops = 1, .nkids = 1, .ops = concat_ops,
     .kids = kids0},
};
static const byoc_pattern_decl trt10_rules[] = {
    {.root = 1, .nnodes = 2, .nodes = concat_rule_nodes, .file = "ext.byoc", .line = 6, .col = 5},
};
static const byoc_pattern_decl trt10_patterns[] = {
    {.name = "fast_add", .root = 2, .nnodes = 3, .nodes = add_rule_nodes, .efficiency = 0.9,
     .file = "ext.byoc", .line = 7, .col = 5},
};
static const byoc_clause_decl always_clauses[] = {{"true", 8, 21}};
static const byoc_predicate_decl trt10_partition_rules[] = {
    {.fn = NULL, .nclauses = 1, .clauses = always_clauses},
};
/* trt's options first, in trt's order, with a new default for version. */
static const byoc_option_decl trt10_options[] = {
    {.name = "use_fp16", .type = {.base = BYOC_V_BOOL}, .def = BOOL(false)},
    {.name = "version", .type = {.base = BYOC_V_VERSION}, .def = VER(10, 0, 1)},
    {.name = "workspace", .type = {.base = BYOC_V_INT}, .def = INT(1024)},
    {.name = "scale", .type = {.base = BYOC_V_FLOAT}, .def = FLOAT(0.5)},
    {.name = "precision", .type = {.base = BYOC_V_DTYPE}, .def = DT(FLOAT32)},
    {.name = "profile", .type = {.base = BYOC_V_STRING}, .def = STR("default")},
    {.name = "sizes", .type = {.base = BYOC_V_INT, .depth = 1}, .def = LIST(sizes12, 2)},
    {.name = "tag", .type = {.base = BYOC_V_STRING, .optional = 1}, .def = NONE},
    {.name = "use_bf16", .type = {.base = BYOC_V_BOOL}, .def = BOOL(true)},
};
static const byoc_target_decl ext_targets[] = {
    {.name = "trt10", .parent = "trt", .noptions = 9, .options = trt10_options,
     .ninherited_options = 8, .max_depth = 3, .nrules = 1, .rules = trt10_rules,
     .npatterns = 1, .patterns = trt10_patterns, .npartition_rules = 1,
     .partition_rules = trt10_partition_rules, .file = "ext.byoc", .line = 4, .col = 1},
    {.name = "host", .parent = "cpu", .parent_is_device = true,
     .runtime = "onnxruntime:CPUExecutionProvider", .file = "ext.byoc", .line = 10, .col = 1},
};
static const char *const ext_imports[] = {"base"};
static const byoc_module_decl ext_module = {
    .abi = BYOC_ABI_VERSION, .name = "ext", .source = "ext.byoc",
    .nimports = 1, .imports = ext_imports, .ndevices = 1, .devices = ext_devices,
    .nlinks = 1, .links = ext_links, .ntargets = 2, .targets = ext_targets,
};

/* ---- fixture ------------------------------------------------------------ */

static byoc_registry *reg;

static void setup(void)
{
    byoc_error err;
    reg = byoc_registry_create();
    ck_assert_ptr_nonnull(reg);
    ck_assert_int_eq(byoc_registry_add(reg, &base_module, &err), 0);
    ck_assert_int_eq(byoc_registry_add(reg, &ext_module, &err), 0);
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

static const char *formatted(const byoc_error *e)
{
    static char buf[1024];
    byoc_error_format(e, buf, sizeof buf);
    return buf;
}

static const char *option_text(const char *t, const char *name)
{
    static char buf[256];
    const byoc_value *v = byoc_target_option(reg, target(t), name);
    ck_assert_msg(v != NULL, "no option %s of %s", name, t);
    byoc_value_format(v, buf, sizeof buf);
    return buf;
}

static char *dump_text(const byoc_registry *r)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(byoc_registry_dump(r, f), 0);
    long n = ftell(f);
    rewind(f);
    char *s = calloc((size_t)n + 1, 1);
    ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return s;
}

/* ---- Core --------------------------------------------------------------- */

START_TEST(lookups)
{
    ck_assert_int_eq(byoc_registry_op_count(reg), 4);
    ck_assert_str_eq(byoc_registry_op_at(reg, 1)->name, "nn.conv2d");
    ck_assert_ptr_eq(byoc_registry_op(reg, "split"), &base_ops[3]);
    ck_assert_int_eq(byoc_registry_op_id(reg, "concatenate"), 2);
    ck_assert_int_eq(byoc_op_attr_index(&base_ops[1], "groups"), 1);
    ck_assert_int_eq(byoc_op_attr_index(&base_ops[1], "out_dtype"), 4);
    ck_assert_str_eq(byoc_op_kind_name(byoc_registry_op(reg, "nn.conv2d")->kind),
                     "out_elemwise_fusable");
    ck_assert_str_eq(byoc_fusion_name(BYOC_FUSION_TVM), "tvm");

    ck_assert_int_eq(byoc_registry_device_count(reg), 3);
    ck_assert_str_eq(byoc_registry_device_at(reg, 2)->name, "npu");
    ck_assert_ptr_eq(byoc_registry_device(reg, "cpu"), &base_devices[1]);

    ck_assert_int_eq(byoc_registry_link_count(reg), 2);
    ck_assert_ptr_eq(byoc_registry_link(reg, "cpu", "gpu"), &base_links[0]);
    ck_assert_ptr_eq(byoc_registry_link(reg, "gpu", "cpu"), &base_links[0]);
    ck_assert_ptr_eq(byoc_registry_link(reg, "gpu", "npu"), &ext_links[0]);
    ck_assert_ptr_null(byoc_registry_link(reg, "npu", "gpu"));   /* one way */
    ck_assert_ptr_eq(byoc_registry_link_at(reg, 1), &ext_links[0]);

    /* Targets in registration order. */
    ck_assert_int_eq(byoc_registry_target_count(reg), 4);
    const char *order[] = {"native", "trt", "trt10", "host"};
    for (int i = 0; i < 4; i++) {
        ck_assert_str_eq(byoc_registry_target_at(reg, i)->name, order[i]);
        ck_assert_int_eq(byoc_registry_target_index(reg, order[i]), i);
    }
    ck_assert_ptr_eq(target("trt10"), &ext_targets[0]);
}
END_TEST

START_TEST(refinement_chains)
{
    const byoc_target_decl *trt = target("trt"), *trt10 = target("trt10");
    ck_assert_ptr_eq(byoc_target_parent(reg, trt10), trt);
    ck_assert_ptr_null(byoc_target_parent(reg, trt));
    ck_assert_ptr_eq(byoc_target_device(reg, trt10), &base_devices[0]);
    ck_assert_ptr_eq(byoc_target_device(reg, target("host")), &base_devices[1]);
    ck_assert(byoc_target_refines(reg, trt10, "trt10"));
    ck_assert(byoc_target_refines(reg, trt10, "trt"));
    ck_assert(byoc_target_refines(reg, trt10, "gpu"));
    ck_assert(!byoc_target_refines(reg, trt10, "cpu"));
    ck_assert(!byoc_target_refines(reg, trt10, "native"));
    ck_assert(!byoc_target_refines(reg, trt, "trt10"));
}
END_TEST

START_TEST(inherited_settings)
{
    const byoc_target_decl *trt10 = target("trt10"), *host = target("host");
    ck_assert_int_eq(byoc_target_fusion(reg, trt10), BYOC_FUSION_ANY);
    ck_assert_int_eq(byoc_target_max_depth(reg, trt10), 3);     /* its own */
    ck_assert_int_eq(byoc_target_max_nodes(reg, trt10), 256);   /* trt's */
    ck_assert_int_eq(byoc_target_max_exits(reg, trt10), 4);
    ck_assert_double_eq(byoc_target_efficiency(reg, trt10), 0.6);
    ck_assert(!byoc_target_supports_all(reg, trt10));
    ck_assert(byoc_target_supports_all(reg, target("native")));
    ck_assert_int_eq(byoc_target_fusion(reg, host), BYOC_FUSION_NONE);
    ck_assert_int_eq(byoc_target_max_nodes(reg, host), 0);
    ck_assert_double_eq(byoc_target_efficiency(reg, host), 1.0);   /* root default */
    ck_assert_double_eq(byoc_target_efficiency(reg, target("native")), 0.35);
}
END_TEST

START_TEST(runtime_and_passes)
{
    byoc_error err;
    const byoc_target_decl *trt = target("trt"), *trt10 = target("trt10");
    const byoc_target_decl *native = target("native"), *owner = native;
    ck_assert_str_eq(byoc_target_runtime(reg, trt), "onnxruntime:TensorrtExecutionProvider");
    ck_assert_str_eq(byoc_target_runtime(reg, trt10), "onnxruntime:TensorrtExecutionProvider");
    ck_assert_str_eq(byoc_target_runtime(reg, target("host")), "onnxruntime:CPUExecutionProvider");
    ck_assert_ptr_null(byoc_target_runtime(reg, native));
    ck_assert_str_eq(byoc_pass_point_name(BYOC_PASS_BEFORE), "before");
    ck_assert_str_eq(byoc_pass_point_name(BYOC_PASS_PARTITION), "partition");
    ck_assert_str_eq(byoc_pass_point_name(BYOC_PASS_AFTER), "after");

    /* trt's own; trt10 has none and runs trt's; native has none at all. */
    ck_assert_int_eq(byoc_target_pass_count(reg, trt, &owner), 2);
    ck_assert_ptr_eq(owner, trt);
    ck_assert_ptr_eq(byoc_target_pass_at(reg, trt, 0), &trt_passes[0]);
    ck_assert_ptr_eq(byoc_target_pass_at(reg, trt, 1), &trt_passes[1]);
    ck_assert_ptr_null(byoc_target_pass_at(reg, trt, 2));
    ck_assert_ptr_null(byoc_target_pass_at(reg, trt, -1));
    ck_assert_int_eq(byoc_target_pass_count(reg, trt10, &owner), 2);
    ck_assert_ptr_eq(owner, trt);
    ck_assert_ptr_eq(byoc_target_pass_at(reg, trt10, 1), &trt_passes[1]);
    ck_assert_int_eq(byoc_target_pass_count(reg, native, &owner), 0);
    ck_assert_ptr_null(owner);
    ck_assert_ptr_null(byoc_target_pass_at(reg, native, 0));
    ck_assert_int_eq(byoc_target_pass_count(reg, native, NULL), 0);

    /* Added passes come after the generated ones; the same name at another
     * point is another pass. */
    int tag = 7;
    ck_assert_int_eq(byoc_target_add_pass(reg, "trt", "prep", BYOC_PASS_AFTER, other_pass, &tag,
                                          &err), 0);
    const byoc_pass_decl *added = byoc_target_pass_at(reg, trt, 2);
    ck_assert_int_eq(byoc_target_pass_count(reg, trt, NULL), 3);
    ck_assert_str_eq(added->name, "prep");
    ck_assert_int_eq(added->point, BYOC_PASS_AFTER);
    ck_assert(added->fn == other_pass);
    ck_assert_ptr_eq(added->user, &tag);
    ck_assert_int_eq(byoc_target_pass_count(reg, trt10, NULL), 3);   /* still trt's */

    /* A pass of its own: trt10 no longer inherits any of trt's. */
    char name[] = "mine";
    ck_assert_int_eq(byoc_target_add_pass(reg, "trt10", name, BYOC_PASS_PARTITION, noop_pass, NULL,
                                          &err), 0);
    name[0] = 'x';   /* the registry keeps its own copy */
    ck_assert_int_eq(byoc_target_pass_count(reg, trt10, &owner), 1);
    ck_assert_ptr_eq(owner, trt10);
    ck_assert_str_eq(byoc_target_pass_at(reg, trt10, 0)->name, "mine");
    ck_assert_int_eq(byoc_target_pass_count(reg, trt, NULL), 3);
    for (int i = 0; i < 20; i++) {
        char more[16];
        snprintf(more, sizeof more, "p%d", i);
        ck_assert_int_eq(byoc_target_add_pass(reg, "trt", more, BYOC_PASS_BEFORE, noop_pass, NULL,
                                              &err), 0);
    }
    ck_assert_int_eq(byoc_target_pass_count(reg, trt, NULL), 23);
    ck_assert_ptr_eq(byoc_target_pass_at(reg, trt, 2), added);   /* pointers stay valid */
    ck_assert_str_eq(byoc_target_pass_at(reg, trt, 22)->name, "p19");
}
END_TEST

START_TEST(inherited_lists)
{
    const byoc_target_decl *trt = target("trt"), *trt10 = target("trt10");
    ck_assert_int_eq(byoc_target_rule_count(reg, trt), 2);
    ck_assert_int_eq(byoc_target_rule_count(reg, trt10), 3);
    ck_assert_ptr_eq(byoc_target_rule_at(reg, trt10, 0), &trt_rules[0]);
    ck_assert_ptr_eq(byoc_target_rule_at(reg, trt10, 1), &trt_rules[1]);
    ck_assert_ptr_eq(byoc_target_rule_at(reg, trt10, 2), &trt10_rules[0]);
    ck_assert_ptr_null(byoc_target_rule_at(reg, trt10, 3));
    ck_assert_int_eq(byoc_target_pattern_count(reg, trt10), 2);
    ck_assert_str_eq(byoc_target_pattern_at(reg, trt10, 0)->name, "conv_add");
    ck_assert_str_eq(byoc_target_pattern_at(reg, trt10, 1)->name, "fast_add");
    ck_assert_int_eq(byoc_target_partition_rule_count(reg, trt10), 2);
    ck_assert_ptr_eq(byoc_target_partition_rule_at(reg, trt10, 0), &trt_partition_rules[0]);
    ck_assert_ptr_eq(byoc_target_partition_rule_at(reg, trt10, 1), &trt10_partition_rules[0]);
    ck_assert_int_eq(byoc_target_rule_count(reg, target("native")), 0);
    ck_assert_ptr_null(byoc_target_rule_at(reg, target("native"), 0));
}
END_TEST

START_TEST(option_defaults)
{
    const byoc_target_decl *trt = target("trt"), *trt10 = target("trt10");
    ck_assert_str_eq(option_text("trt", "version"), "8.6.1");
    ck_assert_str_eq(option_text("trt10", "version"), "10.0.1");
    ck_assert_str_eq(option_text("trt", "sizes"), "[1, 2]");
    ck_assert_str_eq(option_text("trt", "tag"), "None");
    ck_assert_str_eq(option_text("trt10", "use_bf16"), "true");
    /* An option has the same index down the chain. */
    ck_assert_str_eq(trt10->options[1].name, "version");
    const byoc_value *v = byoc_target_options(reg, trt10);
    ck_assert_int_eq(v[8].kind, BYOC_V_BOOL);
    ck_assert(v[8].u.b);
    ck_assert_ptr_eq(byoc_target_option(reg, trt, "scale"), &byoc_target_options(reg, trt)[3]);
    ck_assert_ptr_null(byoc_target_option(reg, trt, "use_bf16"));
}
END_TEST

START_TEST(option_set_is_per_target)
{
    byoc_error err;
    const byoc_target_decl *trt = target("trt"), *trt10 = target("trt10");
    byoc_value on = BOOL(true);
    ck_assert_int_eq(byoc_target_set_option(reg, "trt", "use_fp16", &on, &err), 0);
    ck_assert_str_eq(option_text("trt", "use_fp16"), "true");
    ck_assert_str_eq(option_text("trt10", "use_fp16"), "false");

    /* trt10 inherits trt's rule; the rule's predicate reads each target's
     * own option values. */
    const byoc_pattern_decl *rule = byoc_target_rule_at(reg, trt10, 0);
    byoc_eval ev;
    memset(&ev, 0, sizeof ev);
    ev.failed_clause = -1;
    ev.options = byoc_target_options(reg, trt);
    ev.noptions = trt->noptions;
    ck_assert(rule->pred.fn(&ev));
    ck_assert_int_eq(ev.failed_clause, -1);
    memset(&ev, 0, sizeof ev);
    ev.failed_clause = -1;
    ev.options = byoc_target_options(reg, trt10);
    ev.noptions = trt10->noptions;
    ck_assert(!rule->pred.fn(&ev));
    ck_assert_int_eq(ev.failed_clause, 0);
    ck_assert_int_eq(ev.undef, 0);

    /* An int where a float is declared is stored as the float. */
    byoc_value three = INT(3);
    ck_assert_int_eq(byoc_target_set_option(reg, "trt10", "scale", &three, &err), 0);
    const byoc_value *scale = byoc_target_option(reg, trt10, "scale");
    ck_assert_int_eq(scale->kind, BYOC_V_FLOAT);
    ck_assert_double_eq(scale->u.f, 3.0);

    /* Values are copied: the caller's list may change afterwards. */
    byoc_value items[] = {INT(7), INT(8), INT(9)};
    byoc_value list = LIST(items, 3);
    ck_assert_int_eq(byoc_target_set_option(reg, "trt", "sizes", &list, &err), 0);
    items[0].u.i = 0;
    ck_assert_str_eq(option_text("trt", "sizes"), "[7, 8, 9]");
    char name[] = "engine";
    byoc_value s = STR(name);
    ck_assert_int_eq(byoc_target_set_option(reg, "trt", "profile", &s, &err), 0);
    name[0] = 'E';
    ck_assert_str_eq(option_text("trt", "profile"), "\"engine\"");
    /* Setting from the registry's own current value is safe. */
    ck_assert_int_eq(byoc_target_set_option(reg, "trt", "sizes",
                                            byoc_target_option(reg, trt, "sizes"), &err), 0);
    ck_assert_str_eq(option_text("trt", "sizes"), "[7, 8, 9]");
    byoc_value none = NONE, tag = STR("t1");
    ck_assert_int_eq(byoc_target_set_option(reg, "trt", "tag", &tag, &err), 0);
    ck_assert_str_eq(option_text("trt", "tag"), "\"t1\"");
    ck_assert_int_eq(byoc_target_set_option(reg, "trt", "tag", &none, &err), 0);
    ck_assert_str_eq(option_text("trt", "tag"), "None");
    /* A string naming a dtype is that dtype. */
    byoc_value f16 = STR("float16");
    ck_assert_int_eq(byoc_target_set_option(reg, "trt", "precision", &f16, &err), 0);
    ck_assert_int_eq(byoc_target_option(reg, trt, "precision")->kind, BYOC_V_DTYPE);
    ck_assert_str_eq(option_text("trt", "precision"), "float16");

    byoc_registry_reset_options(reg);
    ck_assert_str_eq(option_text("trt", "use_fp16"), "false");
    ck_assert_str_eq(option_text("trt", "sizes"), "[1, 2]");
    ck_assert_str_eq(option_text("trt", "profile"), "\"default\"");
    ck_assert_str_eq(option_text("trt10", "scale"), "0.5");
    ck_assert_str_eq(option_text("trt", "precision"), "float32");
}
END_TEST

START_TEST(option_from_text)
{
    static const struct {
        const char *target, *option, *text, *expect;
    } cases[] = {
        {"trt", "use_fp16", "true", "true"},
        {"trt", "use_fp16", "0", "false"},
        {"trt", "use_fp16", "1", "true"},
        {"trt", "use_fp16", "false", "false"},
        {"trt", "version", "8.6", "8.6.0"},
        {"trt", "version", "8", "8.0.0"},
        {"trt", "version", " 7.1.2 ", "7.1.2"},
        {"trt", "version", "65535.0.65535", "65535.0.65535"},
        {"trt", "workspace", "-7", "-7"},
        {"trt", "workspace", "9223372036854775807", "9223372036854775807"},
        {"trt", "scale", "3", "3.0"},
        {"trt", "scale", "2.5e-3", "0.0025"},
        {"trt", "precision", "float16", "float16"},
        {"trt", "precision", "", "\"\""},
        {"trt", "profile", " spaced \"text\" ", "\" spaced \\\"text\\\" \""},
        {"trt", "profile", "", "\"\""},
        {"trt", "sizes", "[3, 4, 5]", "[3, 4, 5]"},
        {"trt", "sizes", "[3,4]", "[3, 4]"},
        {"trt", "sizes", " [ ] ", "[]"},
        {"trt", "tag", "None", "None"},
        {"trt", "tag", "x y", "\"x y\""},
        {"trt10", "use_bf16", "false", "false"},
    };
    byoc_error err;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = byoc_target_set_option_text(reg, cases[i].target, cases[i].option,
                                             cases[i].text, &err);
        ck_assert_msg(rc == 0, "%s: %s", cases[i].text, err.msg);
        ck_assert_str_eq(option_text(cases[i].target, cases[i].option), cases[i].expect);
    }
    ck_assert_int_eq(byoc_target_option(reg, target("trt"), "scale")->kind, BYOC_V_FLOAT);
}
END_TEST

START_TEST(option_spec)
{
    byoc_error err;
    ck_assert_int_eq(byoc_registry_set_option_spec(reg, "trt:workspace=2048", &err), 0);
    ck_assert_str_eq(option_text("trt", "workspace"), "2048");
    ck_assert_int_eq(byoc_registry_set_option_spec(reg, "trt10:profile=a=b", &err), 0);
    ck_assert_str_eq(option_text("trt10", "profile"), "\"a=b\"");
    ck_assert_int_eq(byoc_registry_set_option_spec(reg, "trt10:version=10.2", &err), 0);
    ck_assert_str_eq(option_text("trt10", "version"), "10.2.0");
    ck_assert_int_eq(byoc_registry_set_option_spec(reg, "trt:sizes=[]", &err), 0);
    ck_assert_str_eq(option_text("trt", "sizes"), "[]");
    ck_assert_str_eq(option_text("trt10", "sizes"), "[1, 2]");
}
END_TEST

static const char expected_dump[] =
    "module base (base.byoc)\n"
    "module ext (ext.byoc), imports base\n"
    "op add: broadcast\n"
    "  input lhs\n"
    "  input rhs\n"
    "  shape broadcast\n"
    "  flops elemwise\n"
    "op nn.conv2d: out_elemwise_fusable\n"
    "  input data\n"
    "  input weight\n"
    "  attr strides: int[] = [1, 1]\n"
    "  attr groups: int = 1\n"
    "  attr channels: int?\n"
    "  attr data_layout: string = \"NCHW\"\n"
    "  attr out_dtype: dtype = \"\"\n"
    "  shape conv2d\n"
    "  flops conv2d\n"
    "op concatenate: injective\n"
    "  input data: tuple\n"
    "  attr axis: int = 0\n"
    "  shape concatenate\n"
    "op split: injective\n"
    "  input data\n"
    "  attr indices_or_sections: int | int[] = 1\n"
    "  attr axis: int\n"
    "device gpu\n"
    "  flops float32 1.95e+13\n"
    "  flops float16 3.12e+14\n"
    "  bandwidth 1.55e+12\n"
    "  launch 5e-06\n"
    "device cpu\n"
    "  flops float32 2e+12\n"
    "  bandwidth 1e+11\n"
    "  launch 1e-06\n"
    "device npu\n"
    "  bandwidth 4e+10\n"
    "  launch 2e-06\n"
    "link cpu <-> gpu: bandwidth 2.5e+10, latency 1e-05\n"
    "link gpu -> npu: bandwidth 1e+09, latency 0.001\n"
    "target native : gpu\n"
    "  module base\n"
    "  fusion tvm\n"
    "  max_depth 8\n"
    "  max_nodes 0\n"
    "  max_exits 0\n"
    "  efficiency 0.35\n"
    "  supports *\n"
    "  rules 0\n"
    "  patterns 0\n"
    "  partition rules 0\n"
    "  passes 0\n"
    "target trt : gpu\n"
    "  module base\n"
    "  fusion any\n"
    "  max_depth 0\n"
    "  max_nodes 256\n"
    "  max_exits 4\n"
    "  efficiency 0.6\n"
    "  option use_fp16: bool = false, now true\n"
    "  option version: version = 8.6.1, now 8.6.1\n"
    "  option workspace: int = 1024, now 1024\n"
    "  option scale: float = 0.5, now 0.5\n"
    "  option precision: dtype = float32, now float32\n"
    "  option profile: string = \"default\", now \"default\"\n"
    "  option sizes: int[] = [1, 2], now [1, 2]\n"
    "  option tag: string? = None, now None\n"
    "  rules 2\n"
    "  patterns 1\n"
    "    pattern conv_add: 5 nodes\n"
    "  partition rules 1\n"
    "  runtime \"onnxruntime:TensorrtExecutionProvider\"\n"
    "  passes 2\n"
    "    pass before prep\n"
    "    pass partition lower_trt\n"
    "target trt10 : trt : gpu\n"
    "  module ext\n"
    "  fusion any\n"
    "  max_depth 3\n"
    "  max_nodes 256\n"
    "  max_exits 4\n"
    "  efficiency 0.6\n"
    "  option use_fp16: bool = false, now false\n"
    "  option version: version = 10.0.1, now 10.0.1\n"
    "  option workspace: int = 1024, now 1024\n"
    "  option scale: float = 0.5, now 0.5\n"
    "  option precision: dtype = float32, now float32\n"
    "  option profile: string = \"default\", now \"default\"\n"
    "  option sizes: int[] = [1, 2], now [3]\n"
    "  option tag: string? = None, now \"x\"\n"
    "  option use_bf16: bool = true, now true\n"
    "  rules 3\n"
    "  patterns 2\n"
    "    pattern conv_add: 5 nodes\n"
    "    pattern fast_add: 3 nodes\n"
    "  partition rules 2\n"
    "  runtime \"onnxruntime:TensorrtExecutionProvider\"\n"
    "  passes 2, inherited from trt\n"
    "    pass before prep\n"
    "    pass partition lower_trt\n"
    "target host : cpu\n"
    "  module ext\n"
    "  fusion none\n"
    "  max_depth 0\n"
    "  max_nodes 0\n"
    "  max_exits 0\n"
    "  efficiency 1.0\n"
    "  rules 0\n"
    "  patterns 0\n"
    "  partition rules 0\n"
    "  runtime \"onnxruntime:CPUExecutionProvider\"\n"
    "  passes 0\n";

START_TEST(dump)
{
    byoc_error err;
    ck_assert_int_eq(byoc_registry_set_option_spec(reg, "trt:use_fp16=true", &err), 0);
    ck_assert_int_eq(byoc_registry_set_option_spec(reg, "trt10:sizes=[3]", &err), 0);
    ck_assert_int_eq(byoc_registry_set_option_spec(reg, "trt10:tag=x", &err), 0);
    char *text = dump_text(reg);
    ck_assert_str_eq(text, expected_dump);
    free(text);
    /* Deterministic: the same registry built again dumps the same bytes. */
    byoc_registry *again = byoc_registry_create();
    ck_assert_int_eq(byoc_registry_add(again, &base_module, &err), 0);
    ck_assert_int_eq(byoc_registry_add(again, &ext_module, &err), 0);
    char *a = dump_text(again), *b = (byoc_registry_reset_options(reg), dump_text(reg));
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    byoc_registry_destroy(again);
}
END_TEST

/* ---- Errors ------------------------------------------------------------- */

static const byoc_op_decl dup_ops[] = {
    {.name = "fresh", .kind = BYOC_OPK_OPAQUE},
    {.name = "add", .kind = BYOC_OPK_OPAQUE},
};
static const byoc_module_decl dup_op_module = {
    .abi = BYOC_ABI_VERSION, .name = "dupop", .source = "dupop.byoc", .nops = 2, .ops = dup_ops,
};
static const byoc_module_decl dup_device_module = {
    .abi = BYOC_ABI_VERSION, .name = "dupdev", .source = "dupdev.byoc", .ndevices = 1,
    .devices = ext_devices, /* npu, already added by ext */
};
static const byoc_target_decl dup_targets[] = {
    {.name = "brand_new", .parent = "gpu", .parent_is_device = true, .file = "dup.byoc",
     .line = 2, .col = 1},
    {.name = "trt", .parent = "gpu", .parent_is_device = true, .file = "dup.byoc", .line = 3,
     .col = 8},
};
static const byoc_module_decl dup_target_module = {
    .abi = BYOC_ABI_VERSION, .name = "duptarget", .source = "dup.byoc", .nops = 1,
    .ops = dup_ops, .ntargets = 2, .targets = dup_targets,
};
static const byoc_op_decl twice_ops[] = {
    {.name = "foo", .kind = BYOC_OPK_OPAQUE},
    {.name = "foo", .kind = BYOC_OPK_OPAQUE},
};
static const byoc_module_decl twice_module = {
    .abi = BYOC_ABI_VERSION, .name = "twice", .source = "twice.byoc", .nops = 2,
    .ops = twice_ops,
};

START_TEST(duplicate_names)
{
    byoc_error err;
    ck_assert_int_eq(byoc_registry_add(reg, &dup_op_module, &err), -1);
    ck_assert_str_eq(formatted(&err), "dupop.byoc: error: operator 'add' of module 'dupop' is "
                                      "already registered by module 'base'");
    /* Nothing of a refused module is kept. */
    ck_assert_ptr_null(byoc_registry_op(reg, "fresh"));
    ck_assert_int_eq(byoc_registry_op_count(reg), 4);

    ck_assert_int_eq(byoc_registry_add(reg, &dup_device_module, &err), -1);
    ck_assert_str_eq(err.msg, "device 'npu' of module 'dupdev' is already registered by "
                              "module 'ext'");

    ck_assert_int_eq(byoc_registry_add(reg, &dup_target_module, &err), -1);
    ck_assert_str_eq(formatted(&err), "dup.byoc:3:8: error: target 'trt' of module 'duptarget' "
                                      "is already registered by module 'base'");
    ck_assert_ptr_null(byoc_registry_target(reg, "brand_new"));
    ck_assert_ptr_null(byoc_registry_op(reg, "fresh"));
    ck_assert_int_eq(byoc_registry_target_count(reg), 4);

    ck_assert_int_eq(byoc_registry_add(reg, &twice_module, &err), -1);
    ck_assert_str_eq(err.msg, "operator 'foo' is declared twice in module 'twice'");
    ck_assert_ptr_null(byoc_registry_op(reg, "foo"));
    ck_assert_int_eq(byoc_registry_add(reg, &twice_module, NULL), -1);   /* err may be NULL */
}
END_TEST

START_TEST(same_module_twice_is_a_no_op)
{
    byoc_error err;
    ck_assert_int_eq(byoc_registry_add(reg, &base_module, &err), 0);
    /* Another table under a registered name: also a no-op. */
    byoc_module_decl copy = ext_module;
    ck_assert_int_eq(byoc_registry_add(reg, &copy, &err), 0);
    ck_assert_int_eq(byoc_registry_op_count(reg), 4);
    ck_assert_int_eq(byoc_registry_target_count(reg), 4);
    ck_assert_int_eq(byoc_registry_link_count(reg), 2);
    ck_assert_ptr_eq(byoc_registry_target(reg, "trt10"), &ext_targets[0]);
}
END_TEST

START_TEST(missing_import_and_abi)
{
    byoc_error err;
    byoc_registry *r = byoc_registry_create();
    ck_assert_int_eq(byoc_registry_add(r, &ext_module, &err), -1);
    ck_assert_str_eq(formatted(&err), "ext.byoc: error: module 'ext' imports module 'base', "
                                      "which is not registered");
    ck_assert_int_eq(byoc_registry_target_count(r), 0);
    byoc_module_decl future = base_module;
    future.abi = BYOC_ABI_VERSION + 1;
    future.name = "future";
    ck_assert_int_eq(byoc_registry_add(r, &future, &err), -1);
    char want[200];
    snprintf(want, sizeof want,
             "module 'future' was generated for ABI %d, but this libbyoc has ABI %d",
             BYOC_ABI_VERSION + 1, BYOC_ABI_VERSION);
    ck_assert_str_eq(err.msg, want);
    ck_assert_int_eq(byoc_registry_op_count(r), 0);
    /* In the right order both go in. */
    ck_assert_int_eq(byoc_registry_add(r, &base_module, &err), 0);
    ck_assert_int_eq(byoc_registry_add(r, &ext_module, &err), 0);
    byoc_registry_destroy(r);
}
END_TEST

static const byoc_target_decl orphan_targets[] = {
    {.name = "lost", .parent = "trtt", .file = "orphan.byoc", .line = 2, .col = 1},
};
static const byoc_module_decl orphan_module = {
    .abi = BYOC_ABI_VERSION, .name = "orphan", .source = "orphan.byoc", .ntargets = 1,
    .targets = orphan_targets,
};
static const byoc_target_decl stray_targets[] = {
    {.name = "stray", .parent = "gpux", .parent_is_device = true, .file = "stray.byoc",
     .line = 5, .col = 3},
};
static const byoc_module_decl stray_module = {
    .abi = BYOC_ABI_VERSION, .name = "stray", .source = "stray.byoc", .ntargets = 1,
    .targets = stray_targets,
};

START_TEST(check_missing_parent)
{
    byoc_error err;
    /* Parents resolve lazily: a target may name one that comes later. */
    byoc_registry *r = byoc_registry_create();
    ck_assert_int_eq(byoc_registry_add(r, &orphan_module, &err), 0);
    const byoc_target_decl *lost = byoc_registry_target(r, "lost");
    ck_assert_ptr_null(byoc_target_parent(r, lost));
    ck_assert_ptr_null(byoc_target_device(r, lost));
    ck_assert_int_eq(byoc_registry_check(r, &err), -1);
    ck_assert_str_eq(formatted(&err),
                     "orphan.byoc:2:1: error: target 'lost' refines unknown target 'trtt'");
    ck_assert_int_eq(byoc_registry_add(r, &base_module, &err), 0);
    ck_assert_int_eq(byoc_registry_check(r, &err), -1);
    ck_assert_str_eq(formatted(&err), "orphan.byoc:2:1: error: target 'lost' refines unknown "
                                      "target 'trtt' (did you mean 'trt'?)");
    byoc_registry_destroy(r);

    r = byoc_registry_create();
    ck_assert_int_eq(byoc_registry_add(r, &base_module, &err), 0);
    ck_assert_int_eq(byoc_registry_add(r, &stray_module, &err), 0);
    ck_assert_int_eq(byoc_registry_check(r, &err), -1);
    ck_assert_str_eq(formatted(&err), "stray.byoc:5:3: error: target 'stray' refines unknown "
                                      "device 'gpux' (did you mean 'gpu'?)");
    byoc_registry_destroy(r);
}
END_TEST

static const byoc_pattern_decl loop_rules[] = {
    {.root = 2, .nnodes = 3, .nodes = add_rule_nodes},
};
static const byoc_target_decl loop_targets[] = {
    {.name = "d", .parent = "a", .file = "loop.byoc", .line = 1, .col = 1, .nrules = 1,
     .rules = loop_rules},
    {.name = "a", .parent = "b", .file = "loop.byoc", .line = 2, .col = 1, .nrules = 1,
     .rules = loop_rules},
    {.name = "b", .parent = "c", .file = "loop.byoc", .line = 3, .col = 1},
    {.name = "c", .parent = "a", .file = "loop.byoc", .line = 4, .col = 1},
};
static const byoc_module_decl loop_module = {
    .abi = BYOC_ABI_VERSION, .name = "loop", .source = "loop.byoc", .ntargets = 4,
    .targets = loop_targets,
};
static const byoc_target_decl self_targets[] = {
    {.name = "s", .parent = "s", .file = "self.byoc", .line = 7, .col = 1},
};
static const byoc_module_decl self_module = {
    .abi = BYOC_ABI_VERSION, .name = "self", .source = "self.byoc", .ntargets = 1,
    .targets = self_targets,
};

START_TEST(check_parent_cycle)
{
    byoc_error err;
    byoc_registry *r = byoc_registry_create();
    ck_assert_int_eq(byoc_registry_add(r, &loop_module, &err), 0);
    ck_assert_int_eq(byoc_registry_check(r, &err), -1);
    /* d leads into the cycle but is not on it: a is the first that is. */
    ck_assert_str_eq(formatted(&err), "loop.byoc:2:1: error: parent cycle: target 'a' refines "
                                      "itself through 'b'");
    /* Before check, walks up the chain still end. */
    const byoc_target_decl *d = byoc_registry_target(r, "d");
    ck_assert_ptr_null(byoc_target_device(r, d));
    ck_assert(!byoc_target_refines(r, d, "gpu"));
    ck_assert(byoc_target_refines(r, d, "c"));
    ck_assert_double_eq(byoc_target_efficiency(r, d), 1.0);
    ck_assert_int_gt(byoc_target_rule_count(r, d), 0);
    ck_assert_int_le(byoc_target_rule_count(r, d), 5);
    ck_assert_ptr_eq(byoc_target_rule_at(r, d, 0), &loop_rules[0]);
    char *text = dump_text(r);
    ck_assert_ptr_nonnull(strstr(text, "target d : a : b : c : a (cycle)\n"));
    ck_assert_ptr_nonnull(strstr(text, "target a : b : c : a (cycle)\n"));
    free(text);
    byoc_registry_destroy(r);

    r = byoc_registry_create();
    ck_assert_int_eq(byoc_registry_add(r, &self_module, &err), 0);
    ck_assert_int_eq(byoc_registry_check(r, &err), -1);
    ck_assert_str_eq(formatted(&err), "self.byoc:7:1: error: target 's' refines itself");
    byoc_registry_destroy(r);
}
END_TEST

START_TEST(option_errors)
{
    byoc_error err;
    byoc_value three = INT(3), on = BOOL(true), none = NONE;
    ck_assert_int_eq(byoc_target_set_option(reg, "trtx", "use_fp16", &on, &err), -1);
    ck_assert_str_eq(err.msg, "unknown target 'trtx' (did you mean 'trt'?)");
    ck_assert_int_eq(byoc_target_set_option(reg, "nothing", "use_fp16", &on, &err), -1);
    ck_assert_str_eq(err.msg, "unknown target 'nothing'");
    ck_assert_int_eq(byoc_target_set_option(reg, "trt", "use_fp61", &on, &err), -1);
    ck_assert_str_eq(err.msg, "target 'trt' has no option 'use_fp61' (did you mean 'use_fp16'?)");
    ck_assert_int_eq(byoc_target_set_option(reg, "trt", "use_bf16", &on, &err), -1);
    ck_assert_str_eq(err.msg, "target 'trt' has no option 'use_bf16' (did you mean 'use_fp16'?)");
    ck_assert_int_eq(byoc_target_set_option(reg, "trt", "x", &on, &err), -1);
    ck_assert_str_eq(err.msg, "target 'trt' has no option 'x'");
    ck_assert_int_eq(byoc_target_set_option(reg, "trt", "use_fp16", &three, &err), -1);
    ck_assert_str_eq(err.msg, "option 'use_fp16' of target 'trt' has type bool, not int");
    ck_assert_str_eq(formatted(&err),
                     "error: option 'use_fp16' of target 'trt' has type bool, not int");
    byoc_value floats[] = {FLOAT(1.5)};
    byoc_value fl = LIST(floats, 1);
    ck_assert_int_eq(byoc_target_set_option(reg, "trt", "sizes", &fl, &err), -1);
    ck_assert_str_eq(err.msg, "option 'sizes' of target 'trt' has type int[], not float[]");
    ck_assert_int_eq(byoc_target_set_option(reg, "trt", "workspace", &none, &err), -1);
    ck_assert_str_eq(err.msg, "option 'workspace' of target 'trt' has type int, not None");
    ck_assert_int_eq(byoc_target_set_option(reg, "trt", "version", &three, NULL), -1);
    /* Nothing changed. */
    ck_assert_str_eq(option_text("trt", "use_fp16"), "false");
    ck_assert_str_eq(option_text("trt", "sizes"), "[1, 2]");
    ck_assert_str_eq(option_text("trt", "workspace"), "1024");
}
END_TEST

START_TEST(option_text_errors)
{
    static const struct {
        const char *option, *text;
    } bad[] = {
        {"use_fp16", "maybe"}, {"use_fp16", "TRUE"}, {"use_fp16", ""},
        {"version", "8.6.1.2"}, {"version", "70000"}, {"version", "8..1"}, {"version", "v8"},
        {"version", "8."}, {"version", ""},
        {"workspace", "12abc"}, {"workspace", ""}, {"workspace", "99999999999999999999"},
        {"workspace", "1.5"}, {"workspace", "None"},
        {"scale", "x"}, {"scale", "1e999"}, {"scale", "nan"},
        {"precision", "float17"}, {"precision", "Float32"},
        {"sizes", "[1, 2"}, {"sizes", "[1, x]"}, {"sizes", "1"}, {"sizes", "[1,,2]"},
        {"sizes", "[1] 2"}, {"sizes", "[[1]]"}, {"sizes", ""},
    };
    byoc_error err;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(byoc_target_set_option_text(reg, "trt", bad[i].option, bad[i].text, &err)
                          == -1,
                      "'%s' accepted for %s", bad[i].text, bad[i].option);
    ck_assert_int_eq(byoc_target_set_option_text(reg, "trt", "use_fp16", "maybe", &err), -1);
    ck_assert_str_eq(err.msg, "invalid value 'maybe' for option 'use_fp16' of target 'trt' "
                              "(type bool)");
    ck_assert_int_eq(byoc_target_set_option_text(reg, "trt", "sizes", "[1, x]", &err), -1);
    ck_assert_str_eq(err.msg, "invalid value '[1, x]' for option 'sizes' of target 'trt' "
                              "(type int[])");
    ck_assert_int_eq(byoc_target_set_option_text(reg, "trt", "nope", "1", &err), -1);
    ck_assert_str_eq(err.msg, "target 'trt' has no option 'nope'");
    ck_assert_str_eq(option_text("trt", "version"), "8.6.1");
    ck_assert_str_eq(option_text("trt", "sizes"), "[1, 2]");
}
END_TEST

START_TEST(option_spec_errors)
{
    byoc_error err;
    static const char *const bad[] = {"trt", "trt:x", ":x=1", "trt:=1", "", "=1", "trt=1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(byoc_registry_set_option_spec(reg, bad[i], &err), -1);
        char want[200];
        snprintf(want, sizeof want,
                 "invalid option setting '%s' (expected target:name=value)", bad[i]);
        ck_assert_str_eq(err.msg, want);
    }
    ck_assert_int_eq(byoc_registry_set_option_spec(reg, "nope:x=1", &err), -1);
    ck_assert_str_eq(err.msg, "unknown target 'nope'");
    ck_assert_int_eq(byoc_registry_set_option_spec(reg, "trt10:use_bf16=yes", &err), -1);
    ck_assert_str_eq(err.msg, "invalid value 'yes' for option 'use_bf16' of target 'trt10' "
                              "(type bool)");
    ck_assert_int_eq(byoc_registry_set_option_spec(reg, NULL, NULL), -1);
}
END_TEST

/* --device-param: a device's cost figures, changed in the registry's own
 * copy; the module's tables stay as they were. */
START_TEST(device_params)
{
    byoc_error err;
    byoc_registry *r = byoc_registry_create();
    ck_assert_int_eq(byoc_registry_add(r, &base_module, &err), 0);
    ck_assert_int_eq(byoc_registry_set_device_spec(r, "gpu:units=108", &err), 0);
    ck_assert_int_eq(byoc_registry_set_device_spec(r, "gpu:flops.int8=624e12", &err), 0);
    ck_assert_int_eq(byoc_registry_set_device_spec(r, "gpu:flops.float16=1e15", &err), 0);
    ck_assert_int_eq(byoc_registry_set_device_spec(r, "gpu:bandwidth=2.039e12", &err), 0);
    ck_assert_int_eq(byoc_registry_set_device_spec(r, "gpu:launch=3e-6", &err), 0);
    ck_assert_int_eq(byoc_registry_set_device_spec(r, "gpu:inner_launch=1e-6", &err), 0);
    ck_assert_int_eq(byoc_registry_set_device_spec(r, "gpu:grain=2e6", &err), 0);
    /* More modules after a change: the copies survive the tables' growth. */
    ck_assert_int_eq(byoc_registry_add(r, &ext_module, &err), 0);
    ck_assert_int_eq(byoc_registry_set_device_spec(r, "npu:units=2", &err), 0);
    const byoc_device_decl *g = byoc_registry_device(r, "gpu");
    ck_assert_int_eq(g->units, 108);
    ck_assert_int_eq(g->npeaks, 3);
    ck_assert_int_eq(g->peaks[0].dtype, BYOC_DT_FLOAT32);
    ck_assert_double_eq(g->peaks[0].flops, 19.5e12);
    ck_assert_double_eq(g->peaks[1].flops, 1e15);
    ck_assert_int_eq(g->peaks[2].dtype, BYOC_DT_INT8);
    ck_assert_double_eq(g->peaks[2].flops, 624e12);
    ck_assert_double_eq(g->bandwidth, 2.039e12);
    ck_assert_double_eq(g->launch, 3e-6);
    ck_assert_double_eq(g->inner_launch, 1e-6);
    ck_assert_double_eq(g->grain, 2e6);
    ck_assert_int_eq(byoc_registry_device(r, "npu")->units, 2);
    /* Once copied, the device stays where it is, new dtypes included. */
    ck_assert_int_eq(byoc_registry_set_device_spec(r, "gpu:flops.bfloat16=1e15", &err), 0);
    ck_assert_ptr_eq(byoc_registry_device(r, "gpu"), g);
    ck_assert_int_eq(g->npeaks, 4);
    ck_assert_ptr_eq(byoc_target_device(r, byoc_registry_target(r, "trt")), g);
    ck_assert_int_eq(base_devices[0].npeaks, 2);
    ck_assert_int_eq(base_devices[0].units, 0);
    ck_assert_double_eq(gpu_peaks[1].flops, 312e12);
    static const char *const bad[][2] = {
        {"gpu", "invalid device setting"},
        {"gpu:units", "invalid device setting"},
        {"tpu:units=1", "unknown device 'tpu'"},
        {"gpu:unit=1", "unknown device key 'unit'"},
        {"gpu:units.float16=1", "unknown device key"},
        {"gpu:flops=1", "a peak is set as flops.DTYPE"},
        {"gpu:flops.float33=1", "unknown dtype 'float33'"},
        {"gpu:units=1.5", "whole number"},
        {"gpu:units=2000000", "whole number"},
        {"gpu:launch=-1", "negative"},
        {"gpu:launch=inf", "not finite"},
        {"gpu:flops.float16=inf", "not finite"},
        {"gpu:bandwidth=fast", "not a number"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(byoc_registry_set_device_spec(r, bad[i][0], &err), -1);
        ck_assert_msg(strstr(err.msg, bad[i][1]), "%s: %s", bad[i][0], err.msg);
    }
    ck_assert_int_eq(g->units, 108);
    byoc_registry_destroy(r);
}
END_TEST

START_TEST(pass_errors)
{
    byoc_error err;
    ck_assert_int_eq(byoc_target_add_pass(reg, "trx", "p", BYOC_PASS_BEFORE, noop_pass, NULL, &err),
                     -1);
    ck_assert_str_eq(err.msg, "unknown target 'trx' (did you mean 'trt'?)");
    ck_assert_int_eq(byoc_target_add_pass(reg, NULL, "p", BYOC_PASS_BEFORE, noop_pass, NULL, &err),
                     -1);
    ck_assert_str_eq(err.msg, "unknown target ''");
    ck_assert_int_eq(byoc_target_add_pass(reg, "trt", "p", BYOC_PASS_BEFORE, NULL, NULL, &err), -1);
    ck_assert_str_eq(err.msg, "pass 'p' of target 'trt' has no function");
    ck_assert_int_eq(byoc_target_add_pass(reg, "trt", "", BYOC_PASS_BEFORE, noop_pass, NULL, &err),
                     -1);
    ck_assert_str_eq(err.msg, "a pass of target 'trt' needs a name");
    ck_assert_int_eq(byoc_target_add_pass(reg, "trt", "p", (byoc_pass_point)9, noop_pass, NULL,
                                          &err), -1);
    ck_assert_str_eq(err.msg, "pass 'p' of target 'trt' has no point 9");
    /* A name it has at that point: generated, or added. */
    ck_assert_int_eq(byoc_target_add_pass(reg, "trt", "lower_trt", BYOC_PASS_PARTITION, other_pass,
                                          NULL, &err), -1);
    ck_assert_str_eq(err.msg, "target 'trt' already has pass 'lower_trt' at point 'partition'");
    ck_assert_int_eq(byoc_target_add_pass(reg, "host", "w", BYOC_PASS_AFTER, noop_pass, NULL, &err),
                     0);
    ck_assert_int_eq(byoc_target_add_pass(reg, "host", "w", BYOC_PASS_AFTER, other_pass, NULL, &err),
                     -1);
    ck_assert_str_eq(err.msg, "target 'host' already has pass 'w' at point 'after'");
    ck_assert_int_eq(byoc_target_add_pass(NULL, "trt", "p", BYOC_PASS_BEFORE, noop_pass, NULL, &err),
                     -1);
    ck_assert_str_eq(err.msg, "no registry");
    /* Nothing changed but host's one pass. */
    ck_assert_int_eq(byoc_target_pass_count(reg, target("trt"), NULL), 2);
    ck_assert_int_eq(byoc_target_pass_count(reg, target("host"), NULL), 1);
    /* Tables the registry does not hold: their generated passes only. */
    ck_assert_int_eq(byoc_target_pass_count(reg, &dup_targets[1], NULL), 0);
    ck_assert_int_eq(byoc_target_pass_count(NULL, target("trt"), NULL), 0);
    ck_assert_ptr_null(byoc_target_runtime(NULL, target("trt")));
}
END_TEST

START_TEST(unregistered_tables)
{
    /* A table that was never added (or another table under a registered
     * name) has no options in this registry. */
    ck_assert_ptr_null(byoc_target_options(reg, &dup_targets[1]));
    ck_assert_ptr_null(byoc_target_option(reg, &dup_targets[1], "use_fp16"));
    ck_assert_ptr_null(byoc_registry_target(reg, "nothing"));
    ck_assert_int_eq(byoc_registry_target_index(reg, "nothing"), -1);
    ck_assert_ptr_null(byoc_registry_op(reg, "nn.conv3d"));
    ck_assert_int_eq(byoc_registry_op_id(reg, "nn.conv3d"), -1);
    ck_assert_ptr_null(byoc_registry_op_at(reg, 4));
    ck_assert_ptr_null(byoc_registry_device_at(reg, -1));
    ck_assert_ptr_null(byoc_registry_link(reg, "cpu", "npu"));
    byoc_error err;
    ck_assert_int_eq(byoc_registry_add(reg, NULL, &err), -1);
    ck_assert_str_eq(err.msg, "no module to register");
    byoc_registry_destroy(NULL);
}
END_TEST

static Suite *registry_suite(void)
{
    Suite *s = suite_create("registry");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, lookups);
    tcase_add_test(core, refinement_chains);
    tcase_add_test(core, inherited_settings);
    tcase_add_test(core, runtime_and_passes);
    tcase_add_test(core, inherited_lists);
    tcase_add_test(core, option_defaults);
    tcase_add_test(core, option_set_is_per_target);
    tcase_add_test(core, option_from_text);
    tcase_add_test(core, option_spec);
    tcase_add_test(core, dump);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, duplicate_names);
    tcase_add_test(errors, same_module_twice_is_a_no_op);
    tcase_add_test(errors, missing_import_and_abi);
    tcase_add_test(errors, check_missing_parent);
    tcase_add_test(errors, check_parent_cycle);
    tcase_add_test(errors, option_errors);
    tcase_add_test(errors, option_text_errors);
    tcase_add_test(errors, option_spec_errors);
    tcase_add_test(errors, pass_errors);
    tcase_add_test(errors, device_params);
    tcase_add_test(errors, unregistered_tables);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(registry_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
