/* Unit tests of candidate generation on hand-built graphs, with the
 * targets of tests/cand/cand_spec.byoc: TVM's rules at depths 1 to 3,
 * `fusion none`, `fusion any` with node and exit bounds, a partition rule,
 * an option-guarded rule.  Every built set is also checked whole: sorted,
 * convex, free of duplicates. */
#include <check.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

#include "cand.h"
#include "cand_spec.h"

static byoc_registry *reg;
static byoc_graph *g;
static bx_cand_set set;
static bool built;

static void setup(void)
{
    byoc_error err;
    reg = byoc_registry_create();
    ck_assert_int_eq(byoc_register_cand_spec(reg, &err), 0);
    ck_assert_int_eq(byoc_registry_check(reg, &err), 0);
    g = byoc_graph_create(reg);
    built = false;
}

static void teardown(void)
{
    if (built)
        bx_cands_free(&set);
    byoc_graph_destroy(g);
    byoc_registry_destroy(reg);
}

/* ---- graphs ---- */

static int input(const char *name)
{
    byoc_error err;
    byoc_tensor_type t = {.dtype = BYOC_DT_FLOAT32, .rank = 4, .dims = {1, 8, 8, 8}};
    int n = byoc_graph_add_input(g, name, &t, &err);
    ck_assert_msg(n >= 0, "%s", err.msg);
    return n;
}

static int constant(void)
{
    byoc_error err;
    byoc_tensor_type t = {.dtype = BYOC_DT_FLOAT32, .rank = 4, .dims = {8, 8, 3, 3}};
    return byoc_graph_add_const(g, &t, NULL, &err);
}

static int call(const char *op, int a, int b)
{
    byoc_error err;
    int args[2] = {a, b};
    int n = byoc_graph_add_call(g, op, args, b < 0 ? 1 : 2, &err);
    ck_assert_msg(n >= 0, "%s", err.msg);
    return n;
}

static void output(int n)
{
    byoc_error err;
    ck_assert_int_eq(byoc_graph_set_output(g, n, &err), 0);
}

/* ---- building and looking ---- */

static int cmp_cand(const bx_cand *a, const bx_cand *b)
{
    if (a->nodes[0] != b->nodes[0])
        return a->nodes[0] < b->nodes[0] ? -1 : 1;
    if (a->target != b->target)
        return a->target < b->target ? -1 : 1;
    if (a->nnodes != b->nnodes)
        return a->nnodes < b->nnodes ? -1 : 1;
    int d = memcmp(a->nodes, b->nodes, sizeof(int) * (size_t)a->nnodes);
    if (d)
        return d;
    if (a->pattern != b->pattern) {
        /* The same nodes as a plain kernel and as composites. */
        if (!a->pattern || !b->pattern)
            return a->pattern ? 1 : -1;
        return strcmp(a->pattern->name, b->pattern->name);
    }
    /* then the composites inside a combined kernel */
    if (a->ncomps != b->ncomps)
        return a->ncomps < b->ncomps ? -1 : 1;
    for (int i = 0; i < a->ncomps; i++) {
        if (a->comps[i].nodes[0] != b->comps[i].nodes[0])
            return a->comps[i].nodes[0] < b->comps[i].nodes[0] ? -1 : 1;
        if (a->comps[i].nnodes != b->comps[i].nnodes)
            return a->comps[i].nnodes < b->comps[i].nnodes ? -1 : 1;
        int by_name = strcmp(a->comps[i].pattern->name, b->comps[i].pattern->name);
        if (by_name)
            return by_name;
    }
    return 0;
}

/* What holds of every set: ordered as documented (node set, pattern, composites), hence no duplicates,
 * every candidate convex, ascending and holding a call. */
static void check_sane(void)
{
    for (size_t i = 0; i < set.n; i++) {
        const bx_cand *c = &set.cands[i];
        ck_assert_msg(bx_convex(g, c->nodes, c->nnodes), "candidate %zu is not convex", i);
        int calls = 0;
        for (int k = 0; k < c->nnodes; k++) {
            calls += byoc_node_kind_of(g, c->nodes[k]) == BYOC_N_CALL;
            if (k > 0)
                ck_assert_int_lt(c->nodes[k - 1], c->nodes[k]);
        }
        ck_assert_int_gt(calls, 0);
        if (i > 0)
            ck_assert_msg(cmp_cand(&set.cands[i - 1], c) < 0, "candidates %zu and %zu out of order",
                          i - 1, i);
    }
}

/* Build for the targets named (NULL-terminated); returns bx_cands_build's
 * result, with err. */
static int build_err(byoc_error *err, ...)
{
    const byoc_target_decl *targets[16];
    int n = 0;
    va_list ap;
    va_start(ap, err);
    for (const char *name; (name = va_arg(ap, const char *)) && n < 16;) {
        targets[n] = byoc_registry_target(reg, name);
        ck_assert_msg(targets[n], "no target %s", name);
        n++;
    }
    va_end(ap);
    if (built)
        bx_cands_free(&set);
    int rc = bx_cands_build(&set, g, reg, targets, n, err);
    built = true;
    check_sane();
    return rc;
}

#define BUILD(...)                                                        \
    do {                                                                  \
        byoc_error err_;                                                  \
        int rc_ = build_err(&err_, __VA_ARGS__, (const char *)NULL);      \
        ck_assert_msg(rc_ == 0, "%s", err_.msg);                          \
    } while (0)

/* The candidate of target index ti with exactly these nodes (-1 ends). */
static const bx_cand *find(int ti, ...)
{
    int nodes[32], n = 0;
    va_list ap;
    va_start(ap, ti);
    for (int x; (x = va_arg(ap, int)) >= 0 && n < 32;)
        nodes[n++] = x;
    va_end(ap);
    for (size_t i = 0; i < set.n; i++) {
        const bx_cand *c = &set.cands[i];
        if (c->target == ti && c->nnodes == n
            && !memcmp(c->nodes, nodes, sizeof(int) * (size_t)n))
            return c;
    }
    return NULL;
}

static int count_of(int ti)
{
    int k = 0;
    for (size_t i = 0; i < set.n; i++)
        k += set.cands[i].target == ti;
    return k;
}

/* Does some candidate of ti contain both a and b? */
static bool together(int ti, int a, int b)
{
    for (size_t i = 0; i < set.n; i++) {
        const bx_cand *c = &set.cands[i];
        bool fa = false, fb = false;
        for (int k = 0; c->target == ti && k < c->nnodes; k++) {
            fa |= c->nodes[k] == a;
            fb |= c->nodes[k] == b;
        }
        if (fa && fb)
            return true;
    }
    return false;
}

#define END (-1)

/* ---- Core ---- */

/* conv -> add -> relu -> tanh: TVM's rules fuse every neighbouring pair
 * at depth 2 and the two triples that fit at depth 3, nothing at depth 1. */
START_TEST(tvm_chain_by_depth)
{
    int x = input("x");
    int c = call("nn.conv2d", x, constant());
    int a = call("add", c, constant());
    int r = call("nn.relu", a, -1);
    int t = call("tanh", r, -1);
    output(t);

    BUILD("tvm1");
    ck_assert_int_eq(count_of(0), 4);
    ck_assert_ptr_nonnull(find(0, c, END));
    ck_assert_ptr_nonnull(find(0, a, END));
    ck_assert_ptr_nonnull(find(0, r, END));
    ck_assert_ptr_nonnull(find(0, t, END));

    BUILD("tvm2");
    ck_assert_int_eq(count_of(0), 7);
    ck_assert_ptr_nonnull(find(0, c, a, END));
    ck_assert_ptr_nonnull(find(0, a, r, END));
    ck_assert_ptr_nonnull(find(0, r, t, END));

    BUILD("tvm3");
    ck_assert_int_eq(count_of(0), 9);
    ck_assert_ptr_nonnull(find(0, c, a, r, END));
    ck_assert_ptr_nonnull(find(0, a, r, t, END));
    ck_assert_ptr_null(find(0, c, a, r, t, END));
}
END_TEST

/* The kinds decide, compared as TVM does on each side's largest kind:
 * out_elemwise_fusable takes broadcast consumers, not injective ones; a
 * reduction fuses its elemwise consumer (reduce <= out_elemwise_fusable)
 * but not another reduction. */
START_TEST(tvm_kinds_decide)
{
    int x = input("x");
    int c = call("nn.conv2d", x, constant());
    int tr = call("transpose", c, -1);
    int s = call("sum", x, -1);
    int s2 = call("sum", s, -1);
    int s3 = call("sum", x, -1);
    int r = call("nn.relu", s3, -1);
    int e = call("exp", x, -1);
    int s4 = call("sum", e, -1);
    output(byoc_graph_add_tuple(g, (int[]){tr, s2, r, s4}, 4, NULL));
    BUILD("tvm3");
    ck_assert_ptr_null(find(0, c, tr, END));
    ck_assert_ptr_null(find(0, s, s2, END));
    ck_assert_ptr_nonnull(find(0, s3, r, END));
    ck_assert_ptr_nonnull(find(0, e, s4, END));
    ck_assert_int_eq(count_of(0), 10);
}
END_TEST

/* A diamond whose middle has two exits or a tap: only the whole diamond
 * (one exit) and the taps-free pieces are valid TVM kernels. */
START_TEST(tvm_taps_and_exits)
{
    int x = input("x");
    int a = call("nn.relu", x, -1);
    int b = call("exp", a, -1);
    int c = call("tanh", a, -1);
    int d = call("add", b, c);
    output(d);
    BUILD("tvm3");
    ck_assert_ptr_null(find(0, a, b, END));     /* a is read outside and inside */
    ck_assert_ptr_null(find(0, a, b, c, END));  /* two exits */
    ck_assert_ptr_nonnull(find(0, b, d, END));
    ck_assert_ptr_nonnull(find(0, a, b, c, d, END));
    ck_assert_ptr_nonnull(find(0, a, END));
}
END_TEST

START_TEST(convexity)
{
    int x = input("x");
    int a = call("nn.relu", x, -1);
    int b = call("tanh", a, -1);
    int c = call("add", a, b);
    int d = call("exp", c, -1);
    output(d);
    ck_assert(!bx_convex(g, (int[]){a, c}, 2));
    ck_assert(!bx_convex(g, (int[]){c, a}, 2));
    ck_assert(!bx_convex(g, (int[]){a, d}, 2));
    ck_assert(bx_convex(g, (int[]){a, b, c}, 3));
    ck_assert(bx_convex(g, (int[]){b, c}, 2));
    ck_assert(bx_convex(g, (int[]){x, a}, 2));
    ck_assert(bx_convex(g, (int[]){a}, 1));
    /* one side of the split supported: no candidate may join a and c */
    BUILD("anyop", "tvm1");
    ck_assert_ptr_nonnull(find(0, a, END));
    ck_assert_ptr_nonnull(find(0, c, END));
    ck_assert(!together(0, a, c));
}
END_TEST

/* split -> projections -> relu -> tuple -> concatenate. */
START_TEST(tuples_and_projections)
{
    byoc_error err;
    int x = input("x");
    int s = call("split", x, -1);
    byoc_value two = {.kind = BYOC_V_INT, .u.i = 2}, one = {.kind = BYOC_V_INT, .u.i = 1};
    ck_assert_int_eq(byoc_graph_set_attr(g, s, "indices_or_sections", &two, &err), 0);
    int p0 = byoc_graph_add_proj(g, s, 0, &err), p1 = byoc_graph_add_proj(g, s, 1, &err);
    int r0 = call("nn.relu", p0, -1), r1 = call("nn.relu", p1, -1);
    int t = byoc_graph_add_tuple(g, (int[]){r0, r1}, 2, &err);
    int cat = call("concatenate", t, -1);
    ck_assert_int_eq(byoc_graph_set_attr(g, cat, "axis", &one, &err), 0);
    output(cat);

    BUILD("tvm3", "anyop");
    /* a multi-output split is one exit */
    ck_assert_ptr_nonnull(find(0, s, END));
    /* TupleProj: split with one projection taps the other: invalid */
    ck_assert_ptr_null(find(0, s, p0, END));
    /* TupleArg: the concatenation takes its tuple and its fields' producers */
    ck_assert_ptr_nonnull(find(0, r0, r1, t, cat, END));
    /* fusion any: glue joins across the projections and the tuple */
    ck_assert_ptr_nonnull(find(1, s, p0, END));
    ck_assert_ptr_nonnull(find(1, s, p0, p1, r0, r1, END));
    ck_assert_ptr_nonnull(find(1, r0, r1, t, cat, END));
    ck_assert_ptr_null(find(1, r0, cat, END));
}
END_TEST

START_TEST(max_exits)
{
    byoc_error err;
    int x = input("x");
    int a = call("nn.relu", x, -1);
    int b = call("nn.relu", a, -1);
    int t = byoc_graph_add_tuple(g, (int[]){a, b}, 2, &err);
    output(t);
    BUILD("oneexit", "anyop");
    ck_assert_ptr_null(find(0, a, b, END));
    ck_assert_ptr_nonnull(find(0, a, END));
    ck_assert_ptr_nonnull(find(1, a, b, END));
    ck_assert_uint_gt(set.stats.rejected_exits, 0);
}
END_TEST

START_TEST(max_nodes)
{
    int x = input("x");
    int n[5];
    n[0] = call("nn.relu", x, -1);
    for (int i = 1; i < 5; i++)
        n[i] = call("nn.relu", n[i - 1], -1);
    output(n[4]);
    BUILD("anyop");
    ck_assert_ptr_nonnull(find(0, n[0], n[1], n[2], END));
    ck_assert_ptr_nonnull(find(0, n[2], n[3], n[4], END));
    for (size_t i = 0; i < set.n; i++)
        ck_assert_int_le(set.cands[i].nnodes, 3);
}
END_TEST

/* Kernels of needconv must hold a convolution; the relus alone are grown
 * from but not emitted. */
START_TEST(partition_rules)
{
    int x = input("x");
    int ra = call("nn.relu", x, -1);
    int rb = call("nn.relu", ra, -1);
    int c = call("nn.conv2d", rb, constant());
    output(c);
    BUILD("needconv");
    ck_assert_ptr_null(find(0, ra, END));
    ck_assert_ptr_null(find(0, ra, rb, END));
    ck_assert_ptr_nonnull(find(0, c, END));
    ck_assert_ptr_nonnull(find(0, rb, c, END));
    ck_assert_ptr_nonnull(find(0, ra, rb, c, END));
    ck_assert_uint_gt(set.stats.rejected_partition_rule, 0);
    const byoc_target_decl *t = byoc_registry_target(reg, "needconv");
    int rule, clause;
    ck_assert(!bx_partition_rules_hold(g, reg, t, (int[]){ra, rb}, 2, &rule, &clause));
    ck_assert_int_eq(rule, 0);
    ck_assert(bx_partition_rules_hold(g, reg, t, (int[]){rb, c}, 2, &rule, &clause));
    ck_assert_int_eq(rule, -1);
}
END_TEST

START_TEST(fusion_none_and_any)
{
    int x = input("x");
    int r = call("nn.relu", x, -1);
    int a = call("add", r, x);
    output(a);
    BUILD("single", "anyop");
    ck_assert_int_eq(count_of(0), 2);
    ck_assert_ptr_nonnull(find(0, r, END));
    ck_assert_ptr_nonnull(find(0, a, END));
    ck_assert_int_eq(count_of(1), 3);
    ck_assert_ptr_nonnull(find(1, r, a, END));
}
END_TEST

/* Under fusion any a composite grows with its neighbours, as TVM's
 * MergeCompilerRegions merges it into the surrounding region; the same
 * nodes grown from rule matches alone stay a candidate of their own. */
START_TEST(composites_grow_under_fusion_any)
{
    int x = input("x"), y = input("y");
    int c = call("nn.conv2d", x, constant());
    int r = call("nn.relu", c, -1);
    int a = call("add", r, y);
    output(a);
    BUILD("single", "anyop");
    int with = 0, without = 0;
    for (size_t i = 0; i < set.n; i++) {
        const bx_cand *q = &set.cands[i];
        if (q->target != 1 || q->nnodes != 3 || q->nodes[0] != c || q->nodes[2] != a)
            continue;
        ck_assert_ptr_null(q->pattern);
        if (q->ncomps) {
            ck_assert_int_eq(q->ncomps, 1);
            ck_assert_str_eq(q->comps[0].pattern->name, "conv_relu");
            ck_assert_int_eq(q->comps[0].nnodes, 2);
            ck_assert_int_eq(q->comps[0].nodes[1], r);
            with++;
        } else {
            without++;
        }
    }
    ck_assert_int_eq(with, 1);
    ck_assert_int_eq(without, 1);
    /* the composite alone is still one candidate, named */
    int alone = 0;
    for (size_t i = 0; i < set.n; i++) {
        const bx_cand *q = &set.cands[i];
        alone += q->target == 1 && q->nnodes == 2 && q->pattern && q->nodes[0] == c;
    }
    ck_assert_int_eq(alone, 1);
    /* under fusion none (target single) a composite never grows */
    for (size_t i = 0; i < set.n; i++)
        ck_assert(set.cands[i].target != 0 || set.cands[i].pattern
                  || set.cands[i].ncomps == 0);
}
END_TEST

START_TEST(named_pattern_composites)
{
    int x = input("x");
    int c = call("nn.conv2d", x, constant());
    int r = call("nn.relu", c, -1);
    output(r);
    BUILD("single", "anyop");
    const bx_cand *k = find(0, c, r, END);
    ck_assert_ptr_nonnull(k);
    ck_assert_ptr_nonnull(k->pattern);
    ck_assert_str_eq(k->pattern->name, "conv_relu");
    ck_assert_int_eq(k->ncomps, 1);
    ck_assert_int_eq(k->comps[0].nnodes, 2);
    ck_assert_int_eq(k->comps[0].nodes[0], c);
    ck_assert_int_eq(k->comps[0].nodes[1], r);
    ck_assert_double_eq(k->efficiency, 0.9);
    const bx_cand *lone = find(0, r, END);
    ck_assert_ptr_nonnull(lone);
    ck_assert_ptr_null(lone->pattern);
    ck_assert_int_eq(lone->ncomps, 0);
    ck_assert_double_eq(lone->efficiency, 0.5);
    /* under fusion any the same set is both a composite and a plain kernel
     * grown from rule matches: two candidates, since they may cost
     * differently; the plain one sorts first */
    int composite = 0, plain = 0;
    for (size_t i = 0; i < set.n; i++) {
        const bx_cand *q = &set.cands[i];
        if (q->target != 1 || q->nnodes != 2 || q->nodes[0] != c || q->nodes[1] != r)
            continue;
        if (q->pattern) {
            ck_assert_str_eq(q->pattern->name, "conv_relu");
            ck_assert_int_eq(plain, 1);
            composite++;
        } else {
            plain++;
        }
    }
    ck_assert_int_eq(composite, 1);
    ck_assert_int_eq(plain, 1);
}
END_TEST

START_TEST(opaque_calls)
{
    byoc_error err;
    int x = input("x");
    int o = byoc_graph_add_opaque(g, "MyOp", &x, 1, &err);
    ck_assert_int_ge(o, 0);
    int r = call("nn.relu", o, -1);
    output(r);
    BUILD("tvm3");
    ck_assert_ptr_nonnull(find(0, o, END));
    ck_assert_ptr_null(find(0, o, r, END)); /* opaque fuses with nothing */
}
END_TEST

START_TEST(deterministic)
{
    byoc_error err;
    int x = input("x");
    int a = call("nn.relu", x, -1);
    int b = call("exp", a, -1);
    int c = call("tanh", a, -1);
    int d = call("add", b, c);
    int t = byoc_graph_add_tuple(g, (int[]){b, d}, 2, &err);
    output(t);
    BUILD("tvm3", "anyop", "single", "tvm2");
    size_t n = set.n;
    int *first = malloc(sizeof(int) * n * 16);
    for (size_t i = 0; i < n; i++) {
        first[i * 16] = set.cands[i].target;
        for (int k = 0; k < 15; k++)
            first[i * 16 + 1 + k] = k < set.cands[i].nnodes ? set.cands[i].nodes[k] : -1;
    }
    BUILD("tvm3", "anyop", "single", "tvm2");
    ck_assert_uint_eq(set.n, n);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(first[i * 16], set.cands[i].target);
        for (int k = 0; k < 15; k++)
            ck_assert_int_eq(first[i * 16 + 1 + k],
                             k < set.cands[i].nnodes ? set.cands[i].nodes[k] : -1);
    }
    free(first);
}
END_TEST

/* ---- Errors ---- */

START_TEST(unsupported_op)
{
    int x = input("x");
    int t = call("tanh", x, -1);
    byoc_graph_set_name(g, t, "%3");
    byoc_graph_set_loc(g, t, 4, 7);
    byoc_graph_set_source(g, "model.relay");
    output(t);
    byoc_error err;
    ck_assert_int_eq(build_err(&err, "single", (const char *)NULL), -1);
    ck_assert_str_eq(err.file, "model.relay");
    ck_assert_int_eq(err.line, 4);
    ck_assert_int_eq(err.col, 7);
    ck_assert_str_eq(err.msg, "no candidate for %3 (tanh): no selected target supports op 'tanh'");
}
END_TEST

START_TEST(failed_predicate)
{
    int x = input("x");
    int e = call("erf", x, -1);
    output(e);
    byoc_error err;
    ck_assert_int_eq(build_err(&err, "guarded", (const char *)NULL), -1);
    ck_assert_msg(strstr(err.msg, "no candidate for node 1 (erf): rule at ")
                  && strstr(err.msg, "cand_spec.byoc:") && strstr(err.msg, " failed: target.ok"),
                  "%s", err.msg);
    ck_assert_uint_eq(set.stats.failed_predicate, 1);
    /* with the option set the rule holds */
    ck_assert_int_eq(byoc_target_set_option_text(reg, "guarded", "ok", "true", &err), 0);
    ck_assert_int_eq(build_err(&err, "guarded", (const char *)NULL), 0);
    ck_assert_ptr_nonnull(find(0, e, END));
}
END_TEST

START_TEST(failed_partition_rule)
{
    int x = input("x");
    int r = call("nn.relu", x, -1);
    output(r);
    byoc_error err;
    ck_assert_int_eq(build_err(&err, "needconv", (const char *)NULL), -1);
    ck_assert_msg(strstr(err.msg, "partition rule of target 'needconv'")
                  && strstr(err.msg, "contains(nn.conv2d)"), "%s", err.msg);
}
END_TEST

START_TEST(opaque_needs_supports_all)
{
    byoc_error err;
    int x = input("x");
    int o = byoc_graph_add_opaque(g, "MyOp", &x, 1, &err);
    output(o);
    ck_assert_int_eq(build_err(&err, "single", "anyop", (const char *)NULL), -1);
    ck_assert_msg(strstr(err.msg, "no selected target supports op 'MyOp'"), "%s", err.msg);
}
END_TEST

static Suite *cand_suite(void)
{
    Suite *s = suite_create("cand");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, tvm_chain_by_depth);
    tcase_add_test(core, tvm_kinds_decide);
    tcase_add_test(core, tvm_taps_and_exits);
    tcase_add_test(core, convexity);
    tcase_add_test(core, tuples_and_projections);
    tcase_add_test(core, max_exits);
    tcase_add_test(core, max_nodes);
    tcase_add_test(core, partition_rules);
    tcase_add_test(core, fusion_none_and_any);
    tcase_add_test(core, named_pattern_composites);
    tcase_add_test(core, composites_grow_under_fusion_any);
    tcase_add_test(core, opaque_calls);
    tcase_add_test(core, deterministic);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, unsupported_op);
    tcase_add_test(errors, failed_predicate);
    tcase_add_test(errors, failed_partition_rule);
    tcase_add_test(errors, opaque_needs_supports_all);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cand_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
