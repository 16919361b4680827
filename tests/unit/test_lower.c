/* Unit tests of lowering (runtime/lower/): the pass runner, the boundary
 * tensors passes see, and the names they carry, on a registry and results
 * built by hand.
 *
 * Targets: `dev` on gpu with a pass at each point; `dev_fast`, refining
 * it, with none (it runs dev's); `dev_own`, refining it, with one of its
 * own named "onnx" (replacing the default of that name); `host` on cpu
 * with none.  The graph has a model input, a constant, a call with two
 * outputs (split), projections that no partition holds, a tuple node
 * read by a partition, and a tuple as the model's output:
 *
 *   0 x, 1 y: inputs;  2: constant
 *   3 a = add(x, c)                  P0 dev
 *   4 s = split(a, 2, axis=1)        P0 dev       (tuple of two)
 *   5 s.0 "s_first", 6 s.1           no partition
 *   7 r = nn.relu(s.0) "relu_out"    P1 dev_fast
 *   8 t = (r, s.1)                   no partition
 *   9 cat = concatenate(t)           P2 dev_own
 *  10 m = add(cat, y) "byoc.9"       P3 host      (a source name that a
 *                                                 made-up one must avoid)
 *  11 s.0 "again"                    no partition
 *  12 q = nn.relu(m)                 P4 dev
 *  13 (q, s.0, r)                    the output */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

#include "lower/lower_impl.h"

/* ---- what the passes saw ---------------------------------------------- */

static char log_text[8192];
static int fail_part = -1;          /* a pass fails on this partition ... */
static const char *fail_pass;       /* ... when it is this pass */
static const char *fail_msg = "boom";
static const byoc_lower_ctx *last_cx;

static int record(const byoc_lower_ctx *cx, void *user, byoc_error *err)
{
    (void)user;
    char line[160];
    snprintf(line, sizeof line, "%s:%s:%s:%s:%d\n", byoc_pass_point_name(cx->point), cx->pass,
             cx->target->name, cx->owner ? cx->owner->name : "-",
             cx->part ? cx->part->index : -1);
    strncat(log_text, line, sizeof log_text - strlen(log_text) - 1);
    /* What every pass is shown. */
    ck_assert_ptr_eq(cx->options, byoc_target_options(cx->registry, cx->target));
    ck_assert_ptr_eq(cx->graph, cx->result->graph);
    ck_assert_int_eq(cx->nparts, cx->result->npartitions);
    if (cx->part) {
        ck_assert_ptr_eq(cx->part, &cx->parts[cx->part->index]);
        ck_assert_ptr_eq(cx->part->partition->target, cx->target);
    }
    last_cx = cx;
    bool fail = fail_pass && strcmp(cx->pass, fail_pass) == 0
                && (fail_part < 0 ? !cx->part : cx->part && cx->part->index == fail_part);
    if (!fail)
        return 0;
    snprintf(err->msg, sizeof err->msg, "%s", fail_msg);
    snprintf(err->file, sizeof err->file, "model.onnx");
    err->line = 3;
    return 1;
}

/* ---- the registry --------------------------------------------------------- */

static const byoc_peak gpu_peaks[] = {{BYOC_DT_FLOAT32, 19.5e12}};
static const byoc_peak cpu_peaks[] = {{BYOC_DT_FLOAT32, 2e12}};
static const byoc_device_decl devices[] = {
    {.name = "gpu", .npeaks = 1, .peaks = gpu_peaks, .bandwidth = 1.5e12, .launch = 5e-6},
    {.name = "cpu", .npeaks = 1, .peaks = cpu_peaks, .bandwidth = 1e11, .launch = 1e-6},
};
static const byoc_link_decl links[] = {
    {.from = "cpu", .to = "gpu", .both_ways = true, .bandwidth = 2.5e10, .latency = 1e-5},
};
static const byoc_pass_decl dev_passes[] = {
    {.name = "b_dev", .point = BYOC_PASS_BEFORE, .fn = record},
    {.name = "p_dev", .point = BYOC_PASS_PARTITION, .fn = record},
    {.name = "a_dev", .point = BYOC_PASS_AFTER, .fn = record},
};
static const byoc_pass_decl own_passes[] = {
    {.name = "onnx", .point = BYOC_PASS_PARTITION, .fn = record},
};
static const byoc_target_decl targets[] = {
    {.name = "dev", .parent = "gpu", .parent_is_device = true, .supports_all = true,
     .fusion = BYOC_FUSION_TVM, .fusion_set = true, .runtime = "onnxruntime:CUDAExecutionProvider",
     .npasses = 3, .passes = dev_passes, .file = "lw.byoc", .line = 1, .col = 1},
    {.name = "dev_fast", .parent = "dev", .file = "lw.byoc", .line = 2, .col = 1},
    {.name = "dev_own", .parent = "dev", .runtime = "onnxruntime:TensorrtExecutionProvider",
     .npasses = 1, .passes = own_passes, .file = "lw.byoc", .line = 3, .col = 1},
    {.name = "host", .parent = "cpu", .parent_is_device = true, .supports_all = true,
     .fusion = BYOC_FUSION_TVM, .fusion_set = true, .file = "lw.byoc", .line = 4, .col = 1},
};
static const char *const imports[] = {"relay"};
static const byoc_module_decl module = {
    .abi = BYOC_ABI_VERSION, .name = "lw", .source = "lw.byoc", .nimports = 1,
    .imports = imports, .ndevices = 2, .devices = devices, .nlinks = 1, .links = links,
    .ntargets = 4, .targets = targets,
};

static const byoc_pass_decl defaults[] = {
    {.name = "onnx", .point = BYOC_PASS_PARTITION, .fn = record},
    {.name = "plan", .point = BYOC_PASS_AFTER, .fn = record},
};

/* ---- the graph and a result built by hand ------------------------------- */

#define NPARTS 5

static byoc_registry *reg;
static byoc_graph *g;
static byoc_result res;
static byoc_partition parts[NPARTS];
static int pnodes[NPARTS][4];
static int node_part[64];

static byoc_tensor_type f32(int64_t a, int64_t b)
{
    byoc_tensor_type t;
    memset(&t, 0, sizeof t);
    t.dtype = BYOC_DT_FLOAT32;
    t.rank = 2;
    t.dims[0] = a;
    t.dims[1] = b;
    return t;
}

static int call(const char *op, const int *args, int n)
{
    byoc_error err;
    int id = byoc_graph_add_call(g, op, args, n, &err);
    ck_assert_msg(id >= 0, "%s: %s", op, err.msg);
    return id;
}

static void place(int p, const char *target, const int *nodes, int n)
{
    for (int i = 0; i < n; i++) {
        pnodes[p][i] = nodes[i];
        node_part[nodes[i]] = p;
    }
    parts[p].target = byoc_registry_target(reg, target);
    ck_assert_ptr_nonnull(parts[p].target);
    parts[p].device = byoc_target_device(reg, parts[p].target);
    parts[p].nnodes = n;
    parts[p].nodes = pnodes[p];
}

static void setup(void)
{
    byoc_error err;
    log_text[0] = 0;
    fail_part = -1;
    fail_pass = NULL;
    fail_msg = "boom";
    reg = byoc_registry_create();
    ck_assert_int_eq(byoc_register_relay(reg, &err), 0);
    ck_assert_int_eq(byoc_registry_add(reg, &module, &err), 0);
    ck_assert_int_eq(byoc_registry_check(reg, &err), 0);
    g = byoc_graph_create(reg);
    byoc_tensor_type t18 = f32(1, 8);
    int x = byoc_graph_add_input(g, "x", &t18, &err);
    int y = byoc_graph_add_input(g, "y", &t18, &err);
    int c = byoc_graph_add_const(g, &t18, NULL, &err);
    int a = call("add", (int[]){x, c}, 2);
    int s = call("split", &a, 1);
    byoc_value two = {.kind = BYOC_V_INT, .u.i = 2}, one = {.kind = BYOC_V_INT, .u.i = 1};
    ck_assert_int_eq(byoc_graph_set_attr(g, s, "indices_or_sections", &two, &err), 0);
    ck_assert_int_eq(byoc_graph_set_attr(g, s, "axis", &one, &err), 0);
    int s0 = byoc_graph_add_proj(g, s, 0, &err);
    byoc_graph_set_name(g, s0, "s_first");
    int s1 = byoc_graph_add_proj(g, s, 1, &err);
    int r = call("nn.relu", &s0, 1);
    byoc_graph_set_name(g, r, "relu_out");
    int t = byoc_graph_add_tuple(g, (int[]){r, s1}, 2, &err);
    int cat = call("concatenate", &t, 1);
    byoc_value axis1 = {.kind = BYOC_V_INT, .u.i = 1};
    ck_assert_int_eq(byoc_graph_set_attr(g, cat, "axis", &axis1, &err), 0);
    int m = call("add", (int[]){cat, y}, 2);
    byoc_graph_set_name(g, m, "byoc.9");
    int again = byoc_graph_add_proj(g, s, 0, &err);
    byoc_graph_set_name(g, again, "again");
    int q = call("nn.relu", &m, 1);
    int out = byoc_graph_add_tuple(g, (int[]){q, again, r}, 3, &err);
    ck_assert_int_eq(out, 13);
    ck_assert_int_eq(byoc_graph_set_output(g, out, &err), 0);
    ck_assert_msg(byoc_graph_infer_types(g, &err) == 0, "%s", err.msg);

    for (int i = 0; i < 64; i++)
        node_part[i] = -1;
    memset(parts, 0, sizeof parts);
    place(0, "dev", (int[]){a, s}, 2);
    place(1, "dev_fast", (int[]){r}, 1);
    place(2, "dev_own", (int[]){cat}, 1);
    place(3, "host", (int[]){m}, 1);
    place(4, "dev", (int[]){q}, 1);
    res = (byoc_result){.graph = g, .strategy = "optimal", .npartitions = NPARTS,
                        .partitions = parts, .node_partition = node_part};
}

static void teardown(void)
{
    byoc_graph_destroy(g);
    byoc_registry_destroy(reg);
    g = NULL;
    reg = NULL;
}

static const byoc_lower_options with_defaults = {.ndefaults = 2, .defaults = defaults};

/* ---- Core ------------------------------------------------------------------- */

START_TEST(points_in_order)
{
    byoc_error err;
    int token = 5;
    byoc_lower_options o = with_defaults;
    o.dir = "out";
    o.run = &token;
    ck_assert_msg(byoc_result_lower(&res, &o, &err) == 0, "%s", err.msg);
    ck_assert_str_eq(log_text,
        /* BEFORE, targets in the order of their first partitions: dev_own
         * has passes of its own, none before; host has none. */
        "before:b_dev:dev:dev:-1\n"
        "before:b_dev:dev_fast:dev:-1\n"
        /* Each partition in execution order; the default "onnx" runs
         * where the target has no pass of that name. */
        "partition:p_dev:dev:dev:0\n"
        "partition:onnx:dev:-:0\n"
        "partition:p_dev:dev_fast:dev:1\n"
        "partition:onnx:dev_fast:-:1\n"
        "partition:onnx:dev_own:dev_own:2\n"
        "partition:onnx:host:-:3\n"
        "partition:p_dev:dev:dev:4\n"
        "partition:onnx:dev:-:4\n"
        /* AFTER, in the BEFORE order, then the defaults. */
        "after:a_dev:dev:dev:-1\n"
        "after:plan:dev:-:-1\n"
        "after:a_dev:dev_fast:dev:-1\n"
        "after:plan:dev_fast:-:-1\n"
        "after:plan:dev_own:-:-1\n"
        "after:plan:host:-:-1\n");
    ck_assert_str_eq(last_cx->dir, "out");
    ck_assert_ptr_eq(last_cx->run, &token);
    ck_assert_ptr_eq(last_cx->result, &res);
    ck_assert_ptr_eq(last_cx->registry, reg);
    ck_assert_int_eq(last_cx->point, BYOC_PASS_AFTER);
    ck_assert_ptr_null(last_cx->part);
}
END_TEST

START_TEST(without_defaults)
{
    byoc_error err;
    ck_assert_int_eq(byoc_result_lower(&res, NULL, &err), 0);
    ck_assert_str_eq(log_text,
        "before:b_dev:dev:dev:-1\n"
        "before:b_dev:dev_fast:dev:-1\n"
        "partition:p_dev:dev:dev:0\n"
        "partition:p_dev:dev_fast:dev:1\n"
        "partition:onnx:dev_own:dev_own:2\n"
        "partition:p_dev:dev:dev:4\n"
        "after:a_dev:dev:dev:-1\n"
        "after:a_dev:dev_fast:dev:-1\n");
}
END_TEST

START_TEST(added_passes_replace_inherited_ones)
{
    byoc_error err;
    /* dev_fast gets a pass of its own: it no longer runs dev's. */
    ck_assert_int_eq(byoc_target_add_pass(reg, "dev_fast", "mine", BYOC_PASS_PARTITION, record,
                                          NULL, &err), 0);
    /* host gets an "onnx" of its own, after the default would have run. */
    ck_assert_int_eq(byoc_target_add_pass(reg, "host", "onnx", BYOC_PASS_BEFORE, record, NULL,
                                          &err), 0);
    ck_assert_int_eq(byoc_result_lower(&res, &with_defaults, &err), 0);
    ck_assert_str_eq(log_text,
        "before:b_dev:dev:dev:-1\n"
        "before:onnx:host:host:-1\n"
        "partition:p_dev:dev:dev:0\n"
        "partition:onnx:dev:-:0\n"
        "partition:mine:dev_fast:dev_fast:1\n"
        "partition:onnx:dev_fast:-:1\n"
        "partition:onnx:dev_own:dev_own:2\n"
        "partition:p_dev:dev:dev:4\n"
        "partition:onnx:dev:-:4\n"
        "after:a_dev:dev:dev:-1\n"
        "after:plan:dev:-:-1\n"
        "after:plan:dev_fast:-:-1\n"
        "after:plan:dev_own:-:-1\n"
        "after:plan:host:-:-1\n");
}
END_TEST

/* The tensor of a part, as "name@node.field<-partition" plus "!" when the
 * model returns it. */
static const char *tensors(const byoc_lower_tensor *t, int n)
{
    static char buf[1024];
    buf[0] = 0;
    for (int i = 0; i < n; i++) {
        char one[128];
        snprintf(one, sizeof one, "%s%s@%d.%d:%d%s", i ? " " : "", t[i].name, t[i].node,
                 t[i].field, t[i].partition, t[i].model_output ? "!" : "");
        strncat(buf, one, sizeof buf - strlen(buf) - 1);
    }
    return buf;
}

/* The parts of a hand-built result, which *own holds. */
static const byoc_lower_part *parts_of(const byoc_result *r, bx_lower_parts **own)
{
    byoc_error err;
    const bx_lower_parts *lp = bx_result_lower_parts(r, own, &err);
    ck_assert_msg(lp != NULL, "%s", err.msg);
    ck_assert_ptr_eq(*own, lp);     /* a hand-built result keeps nothing */
    ck_assert_int_eq(lp->nparts, r->npartitions);
    return lp->parts;
}

START_TEST(boundary_tensors)
{
    bx_lower_parts *own;
    const byoc_lower_part *lp = parts_of(&res, &own);
    /* P0: x (the constant is not a boundary tensor); makes both fields of
     * the split: field 0 for P1 and the model, field 1 for P2. */
    ck_assert_str_eq(tensors(lp[0].inputs, lp[0].ninputs), "x@0.-1:-1");
    ck_assert_str_eq(tensors(lp[0].outputs, lp[0].noutputs),
                     "s_first@4.0:-1! byoc.4.1@4.1:2");
    /* P1 reads field 0 through its projection. */
    ck_assert_str_eq(tensors(lp[1].inputs, lp[1].ninputs), "s_first@4.0:0!");
    ck_assert_str_eq(tensors(lp[1].outputs, lp[1].noutputs), "relu_out@7.-1:-1!");
    /* P2 reads the tuple node's fields, in order. */
    ck_assert_str_eq(tensors(lp[2].inputs, lp[2].ninputs), "relu_out@7.-1:1! byoc.4.1@4.1:0");
    ck_assert_str_eq(tensors(lp[2].outputs, lp[2].noutputs), "byoc.9_@9.-1:3");
    ck_assert_str_eq(tensors(lp[3].inputs, lp[3].ninputs), "byoc.9_@9.-1:2 y@1.-1:-1");
    ck_assert_str_eq(tensors(lp[3].outputs, lp[3].noutputs), "byoc.9@10.-1:4");
    ck_assert_str_eq(tensors(lp[4].inputs, lp[4].ninputs), "byoc.9@10.-1:3");
    ck_assert_str_eq(tensors(lp[4].outputs, lp[4].noutputs), "byoc.12@12.-1:-1!");
    for (int p = 0; p < NPARTS; p++) {
        ck_assert_int_eq(lp[p].index, p);
        ck_assert_int_eq(lp[p].order, p);
        ck_assert_ptr_eq(lp[p].partition, &parts[p]);
    }
    /* Types are the graph's: a field of the split is [1, 4]. */
    const byoc_tensor_type *t = lp[0].outputs[1].type;
    ck_assert_ptr_eq(t, byoc_node_type(g, 4, 1));
    ck_assert_int_eq(t->rank, 2);
    ck_assert_int_eq(t->dims[1], 4);
    ck_assert_int_eq(lp[3].outputs[0].type->dims[1], 8);
    bx_lower_parts_destroy(own);
}
END_TEST

START_TEST(names)
{
    byoc_error err;
    bx_names *nm = bx_names_build(g, &err);
    ck_assert_ptr_nonnull(nm);
    ck_assert_str_eq(bx_value_name(nm, 0, -1), "x");
    ck_assert_str_eq(bx_value_name(nm, 2, -1), "byoc.2");        /* the constant */
    ck_assert_str_eq(bx_value_name(nm, 3, -1), "byoc.3");
    /* Field 0 of the split: its first named projection's name, however
     * it is reached. */
    ck_assert_str_eq(bx_value_name(nm, 4, 0), "s_first");
    ck_assert_str_eq(bx_value_name(nm, 5, -1), "s_first");
    ck_assert_str_eq(bx_value_name(nm, 11, -1), "s_first");
    ck_assert_str_eq(bx_value_name(nm, 13, 1), "s_first");
    ck_assert_str_eq(bx_value_name(nm, 4, 1), "byoc.4.1");
    ck_assert_str_eq(bx_value_name(nm, 6, -1), "byoc.4.1");
    ck_assert_str_eq(bx_value_name(nm, 8, 0), "relu_out");
    /* A source name taken by a node stays its; a made-up name avoids it. */
    ck_assert_str_eq(bx_value_name(nm, 10, -1), "byoc.9");
    ck_assert_str_eq(bx_value_name(nm, 9, -1), "byoc.9_");
    /* Not one tensor: a whole tuple, a field out of range, a tensor's
     * field, a node that is not there. */
    ck_assert_ptr_null(bx_value_name(nm, 4, -1));
    ck_assert_ptr_null(bx_value_name(nm, 8, -1));
    ck_assert_ptr_null(bx_value_name(nm, 4, 2));
    ck_assert_ptr_null(bx_value_name(nm, 3, 0));
    ck_assert_ptr_null(bx_value_name(nm, 14, -1));
    ck_assert_ptr_null(bx_value_name(nm, -1, -1));
    /* Values in node and field order. */
    int vn, vf;
    ck_assert(bx_value_canon(nm, 13, 2, &vn, &vf));
    ck_assert_int_eq(vn, 7);
    ck_assert_int_eq(vf, -1);
    ck_assert_int_eq(bx_value_slot(nm, 4, 1), bx_value_slot(nm, 4, 0) + 1);
    ck_assert_int_eq(bx_value_slot(nm, 5, -1), -1);   /* an alias is no value */
    bx_value_at(nm, bx_value_slot(nm, 4, 1), &vn, &vf);
    ck_assert_int_eq(vn, 4);
    ck_assert_int_eq(vf, 1);
    /* x y c a s.0 s.1 r cat m q: ten values. */
    ck_assert_int_eq(bx_value_count(nm), 10);
    bx_names_destroy(nm);
}
END_TEST

/* A result byoc_partition_graph made keeps its parts; a hand-built one
 * is still lowered. */
START_TEST(parts_kept_with_the_result)
{
    byoc_error err;
    byoc_partition_options o;
    byoc_partition_options_init(&o);
    const char *host[] = {"host"};
    o.targets = host;
    o.ntargets = 1;
    byoc_result *r = byoc_partition_graph(g, &o, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    int n = -1;
    const byoc_lower_part *p = byoc_result_parts(r, &n, &err);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(n, r->npartitions);
    ck_assert_int_gt(n, 0);
    int again = -1;
    ck_assert_ptr_eq(byoc_result_parts(r, &again, &err), p);
    ck_assert_int_eq(again, n);
    /* Every call on host: the model's inputs come in, its outputs go out. */
    int ins = 0, outs = 0;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < p[i].ninputs; k++)
            ins += p[i].inputs[k].partition == -1;
        for (int k = 0; k < p[i].noutputs; k++)
            outs += p[i].outputs[k].model_output;
    }
    ck_assert_int_eq(ins, 2);
    ck_assert_int_eq(outs, 3);
    ck_assert_int_eq(byoc_result_lower(r, &with_defaults, &err), 0);
    ck_assert_ptr_nonnull(strstr(log_text, "partition:onnx:host:-:0\n"));
    ck_assert_ptr_nonnull(strstr(log_text, "after:plan:host:-:-1\n"));
    byoc_result_destroy(r);
}
END_TEST

/* Tuples that share tuples, 60 deep: each expanded once, not 2^60 times;
 * and a line of 100,000 tuples and projections: no recursion. */
START_TEST(deep_and_shared_tuples)
{
    byoc_error err;
    byoc_graph *h = byoc_graph_create(reg);
    byoc_tensor_type t18 = f32(1, 8);
    int x = byoc_graph_add_input(h, "x", &t18, &err);
    int t = byoc_graph_add_tuple(h, (int[]){x, x}, 2, &err);
    for (int i = 0; i < 60; i++) {
        t = byoc_graph_add_tuple(h, (int[]){t, t}, 2, &err);
        ck_assert_msg(t >= 0, "%s", err.msg);
    }
    int v = x;
    for (int i = 0; i < 50000; i++) {
        int w = byoc_graph_add_tuple(h, &v, 1, &err);
        v = byoc_graph_add_proj(h, w, 0, &err);
        ck_assert_msg(v >= 0, "%s", err.msg);
    }
    byoc_graph_set_name(h, v, "end");
    int k = byoc_graph_add_opaque(h, "mystery", (int[]){t, v}, 2, &err);
    byoc_graph_set_type(h, k, &t18);
    ck_assert_int_eq(byoc_graph_set_output(h, byoc_graph_add_tuple(h, (int[]){k, t}, 2, &err),
                                           &err), 0);
    int nn = byoc_graph_node_count(h);
    int *np = malloc(sizeof(int) * (size_t)nn);
    for (int i = 0; i < nn; i++)
        np[i] = -1;
    np[k] = 0;
    byoc_partition one = {.target = byoc_registry_target(reg, "host"), .nnodes = 1, .nodes = &k};
    byoc_result r = {.graph = h, .npartitions = 1, .partitions = &one, .node_partition = np};
    bx_lower_parts *own;
    const byoc_lower_part *lp = parts_of(&r, &own);
    /* x once, whichever way it came; the name of x, not the line's. */
    ck_assert_str_eq(tensors(lp[0].inputs, lp[0].ninputs), "x@0.-1:-1!");
    ck_assert_str_eq(tensors(lp[0].outputs, lp[0].noutputs), "byoc.100062@100062.-1:-1!");
    bx_lower_parts_destroy(own);
    free(np);
    byoc_graph_destroy(h);
}
END_TEST

/* ---- Errors ----------------------------------------------------------------- */

START_TEST(pass_errors_are_wrapped)
{
    byoc_error err;
    char buf[1024];
    /* A pass inherited from dev, on dev_fast's partition. */
    fail_pass = "p_dev";
    fail_part = 1;
    ck_assert_int_eq(byoc_result_lower(&res, &with_defaults, &err), -1);
    ck_assert_str_eq(err.msg, "pass 'p_dev' of target 'dev' on partition 1 (target 'dev_fast'): "
                              "boom");
    ck_assert_str_eq(err.file, "model.onnx");   /* where the pass said */
    ck_assert_int_eq(err.line, 3);
    byoc_error_format(&err, buf, sizeof buf);
    ck_assert_str_eq(buf, "model.onnx:3: error: pass 'p_dev' of target 'dev' on partition 1 "
                          "(target 'dev_fast'): boom");
    /* It stopped there. */
    ck_assert_ptr_null(strstr(log_text, "partition:onnx:dev_fast"));
    ck_assert_ptr_nonnull(strstr(log_text, "partition:p_dev:dev_fast:dev:1\n"));

    /* A pass of the partition's own target, with no message. */
    log_text[0] = 0;
    fail_pass = "p_dev";
    fail_part = 4;
    fail_msg = "";
    ck_assert_int_eq(byoc_result_lower(&res, NULL, &err), -1);
    ck_assert_str_eq(err.msg, "pass 'p_dev' of target 'dev' on partition 4: failed");

    /* A default; a pass before and after the partitions. */
    fail_msg = "no room";
    fail_pass = "onnx";
    fail_part = 3;
    ck_assert_int_eq(byoc_result_lower(&res, &with_defaults, &err), -1);
    ck_assert_str_eq(err.msg, "default pass 'onnx' on partition 3 (target 'host'): no room");
    fail_pass = "b_dev";
    fail_part = -1;
    ck_assert_int_eq(byoc_result_lower(&res, &with_defaults, &err), -1);
    ck_assert_str_eq(err.msg, "pass 'b_dev' of target 'dev' before the partitions: no room");
    fail_pass = "plan";
    ck_assert_int_eq(byoc_result_lower(&res, &with_defaults, &err), -1);
    ck_assert_str_eq(err.msg, "default pass 'plan' after the partitions (target 'dev'): no room");
}
END_TEST

START_TEST(bad_arguments)
{
    byoc_error err;
    ck_assert_int_eq(byoc_result_lower(NULL, NULL, &err), -1);
    ck_assert_str_eq(err.msg, "no result to lower");
    byoc_pass_decl bad[] = {{.name = "w", .point = BYOC_PASS_AFTER}};
    byoc_lower_options o = {.ndefaults = 1, .defaults = bad};
    ck_assert_int_eq(byoc_result_lower(&res, &o, &err), -1);
    ck_assert_str_eq(err.msg, "default pass 'w' has no function");
    bad[0] = (byoc_pass_decl){.point = BYOC_PASS_AFTER, .fn = record};
    ck_assert_int_eq(byoc_result_lower(&res, &o, &err), -1);
    ck_assert_str_eq(err.msg, "default pass 0 has no name");
    ck_assert_str_eq(log_text, "");   /* nothing ran */

    /* byoc_result_parts keeps its arrays in a result byoc_partition_graph
     * made; a result built by hand has no room for them. */
    int n = 7;
    ck_assert_ptr_null(byoc_result_parts(&res, &n, &err));
    ck_assert_int_eq(n, 0);
    ck_assert_ptr_nonnull(strstr(err.msg, "built by hand"));

    /* A node placed on a partition that does not list it. */
    node_part[1] = 2;
    ck_assert_int_eq(byoc_result_lower(&res, NULL, &err), -1);
    ck_assert_str_eq(err.msg, "malformed result: partition 2 holds 1 of the 2 nodes placed on it");
    node_part[1] = -1;
    node_part[9] = 3;
    ck_assert_int_eq(byoc_result_lower(&res, NULL, &err), -1);
    ck_assert_str_eq(err.msg, "malformed result: node 9 of partition 2 is not placed there");
    node_part[1] = 9;
    ck_assert_int_eq(byoc_result_lower(&res, NULL, &err), -1);
    ck_assert_str_eq(err.msg, "malformed result: node 1 is on partition 9 of 5");
}
END_TEST

static Suite *lower_suite(void)
{
    Suite *s = suite_create("lower");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_set_timeout(core, 60);      /* sanitizers and valgrind are slow */
    tcase_add_test(core, points_in_order);
    tcase_add_test(core, without_defaults);
    tcase_add_test(core, added_passes_replace_inherited_ones);
    tcase_add_test(core, boundary_tensors);
    tcase_add_test(core, names);
    tcase_add_test(core, parts_kept_with_the_result);
    tcase_add_test(core, deep_and_shared_tuples);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, pass_errors_are_wrapped);
    tcase_add_test(errors, bad_arguments);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lower_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
