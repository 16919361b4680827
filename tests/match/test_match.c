/* Unit tests of the matcher, one per pattern construct, on patterns that
 * byocc compiled from tests/match/match_spec.byoc. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

#include "match.h"
#include "match_spec.h"

static byoc_registry *reg;
static byoc_graph *g;
static const byoc_target_decl *tgt;

static void setup(void)
{
    byoc_error err;
    reg = byoc_registry_create();
    ck_assert_int_eq(byoc_register_match_spec(reg, &err), 0);
    tgt = byoc_registry_target(reg, "t");
    g = byoc_graph_create(reg);
}

static void teardown(void)
{
    byoc_graph_destroy(g);
    byoc_registry_destroy(reg);
}

static const byoc_pattern_decl *pattern(const char *name)
{
    for (int i = 0; i < tgt->npatterns; i++)
        if (!strcmp(tgt->patterns[i].name, name))
            return &tgt->patterns[i];
    ck_abort_msg("no pattern %s", name);
    return NULL;
}

static byoc_tensor_type ty(byoc_dtype dt, int rank, int64_t d0, int64_t d1)
{
    byoc_tensor_type t;
    memset(&t, 0, sizeof t);
    t.dtype = dt;
    t.rank = rank;
    t.dims[0] = d0;
    t.dims[1] = d1;
    return t;
}

static int input(void)
{
    byoc_error err;
    byoc_tensor_type t = ty(BYOC_DT_FLOAT32, 2, 4, 8);
    return byoc_graph_add_input(g, "x", &t, &err);
}

static int weight(void)
{
    byoc_error err;
    byoc_tensor_type t = ty(BYOC_DT_FLOAT32, 2, 8, 8);
    return byoc_graph_add_const(g, &t, NULL, &err);
}

static int scalar(byoc_dtype dt, double v)
{
    byoc_error err;
    byoc_tensor_type t = ty(dt, 0, 0, 0);
    byoc_value val = byoc_dtype_class(dt) == 'f' ? (byoc_value){.kind = BYOC_V_FLOAT, .u.f = v}
                                                 : (byoc_value){.kind = BYOC_V_INT, .u.i = (int64_t)v};
    return byoc_graph_add_const(g, &t, &val, &err);
}

static int call(const char *op, int a, int b)
{
    byoc_error err;
    int args[2] = {a, b};
    int n = byoc_graph_add_call(g, op, args, b < 0 ? 1 : 2, &err);
    ck_assert_msg(n >= 0, "%s", err.msg);
    return n;
}

typedef struct seen {
    int count;
    int members[8][16];
    int nmembers[8];
    int slots[8][16];
} seen;

static int collect(const bx_match *m, void *ctx)
{
    seen *s = ctx;
    if (s->count < 8) {
        s->nmembers[s->count] = m->nmembers;
        for (int i = 0; i < m->nmembers && i < 16; i++)
            s->members[s->count][i] = m->members[i];
        for (int i = 0; i < m->nslots && i < 16; i++)
            s->slots[s->count][i] = m->slots[i];
    }
    s->count++;
    return 0;
}

static int matches(const char *pat, int root, seen *s)
{
    memset(s, 0, sizeof *s);
    return bx_match_at(g, pattern(pat), root, collect, s);
}

static int count(const char *pat, int root)
{
    seen s;
    return matches(pat, root, &s);
}

START_TEST(single_call_and_alternatives)
{
    int x = input();
    int r = call("nn.relu", x, -1), sg = call("sigmoid", x, -1), t = call("tanh", x, -1);
    ck_assert_int_eq(count("call", r), 1);
    ck_assert_int_eq(count("call", sg), 0);
    ck_assert_int_eq(count("alt_pattern", r), 1);
    ck_assert_int_eq(count("alt_pattern", sg), 1);
    ck_assert_int_eq(count("alt_pattern", t), 0);
    ck_assert_int_eq(count("call", x), 0);
}
END_TEST

START_TEST(alternative_callee_through_a_let)
{
    int x = input(), w = weight(), b = weight();
    int d = call("nn.dense", x, w);
    int add = call("add", d, b), ba = call("nn.bias_add", d, b), mul = call("multiply", d, b);
    seen s;
    ck_assert_int_eq(matches("alt_callee", add, &s), 1);
    ck_assert_int_eq(s.nmembers[0], 2);
    ck_assert_int_eq(s.members[0][0], d);
    ck_assert_int_eq(s.members[0][1], add);
    ck_assert_int_eq(count("alt_callee", ba), 1);
    ck_assert_int_eq(count("alt_callee", mul), 0);
}
END_TEST

START_TEST(optional_op)
{
    int x = input(), w = weight();
    int d = call("nn.dense", x, w), r = call("nn.relu", d, -1);
    seen s;
    ck_assert_int_eq(matches("optional", r, &s), 1);
    ck_assert_int_eq(s.nmembers[0], 2);
    ck_assert_int_eq(matches("optional", d, &s), 1);
    ck_assert_int_eq(s.nmembers[0], 1);
}
END_TEST

START_TEST(shared_nodes)
{
    int x = input(), w = weight();
    int d = call("nn.dense", x, w), d2 = call("nn.dense", x, w);
    int ok = call("multiply", d, call("sigmoid", d, -1));
    int bad = call("multiply", d, call("sigmoid", d2, -1));
    ck_assert_int_eq(count("shared", ok), 1);
    ck_assert_int_eq(count("shared", bad), 0);
    int same = call("add", x, x), diff = call("add", x, d);
    seen s;
    ck_assert_int_eq(matches("shared_name", same, &s), 1);
    ck_assert_int_eq(s.slots[0][0], x);
    ck_assert_int_eq(count("shared_name", diff), 0);
}
END_TEST

START_TEST(bindings_and_predicate)
{
    byoc_error err;
    int x = input(), w = weight();
    int d = call("nn.dense", x, w);
    byoc_value units = {.kind = BYOC_V_INT, .u.i = 8};
    ck_assert_int_eq(byoc_graph_set_attr(g, d, "units", &units, &err), 0);
    int r = call("nn.relu", d, -1);
    ck_assert_int_eq(byoc_graph_infer_types(g, &err), 0);
    const byoc_pattern_decl *p = pattern("bound");
    seen s;
    ck_assert_int_eq(matches("bound", r, &s), 1);
    /* The slots the match bound, as the predicate sees them. */
    bx_match m0 = {p, r, 0, NULL, 0, NULL, p->nslots, s.slots[0]};
    int failed = -2;
    ck_assert(bx_match_holds(g, p, &m0, byoc_target_options(reg, tgt), tgt->noptions, &failed));
    ck_assert_int_eq(failed, -1);
    ck_assert_int_eq(byoc_target_set_option_text(reg, "t", "min_rank", "3", &err), 0);
    ck_assert(!bx_match_holds(g, p, &m0, byoc_target_options(reg, tgt), tgt->noptions,
                              &failed));
    ck_assert_int_eq(failed, 0);
}
END_TEST

/* values(k) and range(n) in a compiled predicate. */
static bool holds(const char *pat, int root)
{
    const byoc_pattern_decl *p = pattern(pat);
    seen s;
    ck_assert_int_eq(matches(pat, root, &s), 1);
    bx_match m0 = {p, root, 0, NULL, 0, NULL, p->nslots, s.slots[0]};
    int failed = -2;
    return bx_match_holds(g, p, &m0, byoc_target_options(reg, tgt), tgt->noptions, &failed);
}

static int vector_const(const double *v, int n)
{
    byoc_error err;
    byoc_tensor_type t = ty(BYOC_DT_FLOAT32, 1, n, 0);
    byoc_value items[8];
    for (int i = 0; i < n; i++)
        items[i] = (byoc_value){.kind = BYOC_V_FLOAT, .u.f = v[i]};
    byoc_value val = {.kind = BYOC_V_LIST, .u.list = {items, (size_t)n}};
    return byoc_graph_add_const(g, &t, n ? &val : NULL, &err);
}

static int pad_call(int x, int64_t w10, int64_t w21)
{
    byoc_error err;
    int n = call("nn.pad", x, scalar(BYOC_DT_FLOAT32, 0));
    byoc_value r0[] = {{.kind = BYOC_V_INT, .u.i = 0}, {.kind = BYOC_V_INT, .u.i = 0}};
    byoc_value r1[] = {{.kind = BYOC_V_INT, .u.i = w10}, {.kind = BYOC_V_INT, .u.i = 0}};
    byoc_value r2[] = {{.kind = BYOC_V_INT, .u.i = 1}, {.kind = BYOC_V_INT, .u.i = w21}};
    byoc_value rows[] = {{.kind = BYOC_V_LIST, .u.list = {r0, 2}},
                         {.kind = BYOC_V_LIST, .u.list = {r1, 2}},
                         {.kind = BYOC_V_LIST, .u.list = {r2, 2}}};
    byoc_value pw = {.kind = BYOC_V_LIST, .u.list = {rows, 3}};
    ck_assert_int_eq(byoc_graph_set_attr(g, n, "pad_width", &pw, &err), 0);
    return n;
}

START_TEST(nested_list_attributes)
{
    int x = input();
    ck_assert(holds("padded", pad_call(x, 0, 1)));
    ck_assert(!holds("padded", pad_call(x, 2, 1)));   /* pad_width[1] not all 0 */
    ck_assert(!holds("padded", pad_call(x, 0, 3)));   /* pad_width[2][1] != 1 */
}
END_TEST

START_TEST(wildcard_is_not_a_member)
{
    int x = input(), y = input();
    int a = call("nn.relu", x, -1);
    ck_assert_int_eq(count("self_input", call("multiply", a, a)), 0);
    ck_assert_int_eq(count("self_input", call("multiply", a, y)), 1);
}
END_TEST

START_TEST(data_and_range)
{
    byoc_error err;
    byoc_tensor_type sq = ty(BYOC_DT_FLOAT32, 2, 8, 8);
    int x = byoc_graph_add_input(g, "sq", &sq, &err), y = input();
    int ok = call("multiply", x, vector_const((double[]){0, 3, 9}, 3));
    int neg = call("multiply", x, vector_const((double[]){0, -1, 9}, 3));
    int big = call("multiply", x, vector_const((double[]){10, 3}, 2));
    int nodata = call("multiply", x, vector_const(NULL, 0));
    int rect = call("multiply", y, vector_const((double[]){1}, 1));
    /* No type inference: the predicate reads the inputs' declared types. */
    ck_assert(holds("data", ok));
    ck_assert(!holds("data", neg));       /* all(v in values(k): v >= 0) */
    ck_assert(!holds("data", big));       /* values(k)[0] < 10 */
    ck_assert(!holds("data", nodata));    /* no data: false, not a crash */
    ck_assert(!holds("data", rect));      /* 4 x 8: shape(a)[1] != shape(a)[0] */
}
END_TEST

/* A constant of shape (2, 2) whose data is nested rows, as readers give. */
static int matrix_const(double a, double b, double c, double d)
{
    byoc_error err;
    byoc_tensor_type t = ty(BYOC_DT_FLOAT32, 2, 2, 2);
    byoc_value r0[] = {{.kind = BYOC_V_FLOAT, .u.f = a}, {.kind = BYOC_V_FLOAT, .u.f = b}};
    byoc_value r1[] = {{.kind = BYOC_V_FLOAT, .u.f = c}, {.kind = BYOC_V_FLOAT, .u.f = d}};
    byoc_value rows[] = {{.kind = BYOC_V_LIST, .u.list = {r0, 2}},
                         {.kind = BYOC_V_LIST, .u.list = {r1, 2}}};
    byoc_value val = {.kind = BYOC_V_LIST, .u.list = {rows, 2}};
    return byoc_graph_add_const(g, &t, &val, &err);
}

START_TEST(sum_and_abs)
{
    int x = input();
    /* |0-1| + |3-1| + |9-1| = 11 > 10; |1-1| + |-4-1| + |5-1| = 9. */
    ck_assert(!holds("summed", call("add", x, vector_const((double[]){0, 3, 9}, 3))));
    ck_assert(holds("summed", call("add", x, vector_const((double[]){1, -4, 5}, 3))));
    /* Nested data is read row-major: |2-1| + |-2-1| + |4-1| + |1-1| = 7,
     * and |12-1| alone is 11. */
    ck_assert(holds("summed", call("add", x, matrix_const(2, -2, 4, 1))));
    ck_assert(!holds("summed", call("add", x, matrix_const(1, 1, 1, 12))));
    /* No data: sum() reads absent values, so the predicate is false. */
    ck_assert(!holds("summed", call("add", x, vector_const(NULL, 0))));
}
END_TEST

START_TEST(constants)
{
    int x = input();
    ck_assert_int_eq(count("any_const", call("multiply", x, weight())), 1);
    ck_assert_int_eq(count("any_const", call("multiply", x, x)), 0);
    ck_assert_int_eq(count("exact_const", call("multiply", x, scalar(BYOC_DT_FLOAT32, 0.5))), 1);
    ck_assert_int_eq(count("exact_const", call("multiply", x, scalar(BYOC_DT_FLOAT32, 0.25))), 0);
    ck_assert_int_eq(count("typed_const", call("add", x, scalar(BYOC_DT_INT64, 1))), 1);
    ck_assert_int_eq(count("typed_const", call("add", x, scalar(BYOC_DT_INT32, 1))), 0);
}
END_TEST

START_TEST(tuples_and_projections)
{
    byoc_error err;
    int x = input(), y = input();
    int r = call("nn.relu", x, -1);
    int f1[2] = {r, y}, f2[2] = {y, r}, f3[3] = {x, y, r};
    int t1 = byoc_graph_add_tuple(g, f1, 2, &err), t2 = byoc_graph_add_tuple(g, f2, 2, &err);
    int t3 = byoc_graph_add_tuple(g, f3, 3, &err);
    int c1 = byoc_graph_add_call(g, "concatenate", &t1, 1, &err);
    int c2 = byoc_graph_add_call(g, "concatenate", &t2, 1, &err);
    int c3 = byoc_graph_add_call(g, "concatenate", &t3, 1, &err);
    ck_assert_int_eq(count("tuple_exact", c1), 1);
    ck_assert_int_eq(count("tuple_exact", c2), 0);
    ck_assert_int_eq(count("tuple_any", c3), 1);
    seen s;
    matches("tuple_any", c3, &s);
    ck_assert_int_eq(s.nmembers[0], 2);
    int bnargs[5] = {x, y, y, y, y};
    int bn = byoc_graph_add_call(g, "nn.batch_norm", bnargs, 5, &err);
    int p0 = byoc_graph_add_proj(g, bn, 0, &err), p1 = byoc_graph_add_proj(g, bn, 1, &err);
    ck_assert_int_eq(count("proj", p0), 1);
    ck_assert_int_eq(count("proj", p1), 0);
    byoc_value sec = {.kind = BYOC_V_INT, .u.i = 2};
    int sp = byoc_graph_add_call(g, "split", &x, 1, &err);
    ck_assert_int_eq(byoc_graph_set_attr(g, sp, "indices_or_sections", &sec, &err), 0);
    int s1 = byoc_graph_add_proj(g, sp, 1, &err);
    ck_assert_int_eq(count("proj_any", call("nn.relu", s1, -1)), 1);
}
END_TEST

START_TEST(attribute_equality)
{
    byoc_error err;
    int x = input();
    int a = call("nn.softmax", x, -1), b = call("nn.softmax", x, -1);
    byoc_value one = {.kind = BYOC_V_INT, .u.i = 1};
    ck_assert_int_eq(byoc_graph_set_attr(g, a, "axis", &one, &err), 0);
    ck_assert_int_eq(count("attr_eq", a), 1);
    ck_assert_int_eq(count("attr_eq", b), 0);
}
END_TEST

START_TEST(commutative_calls)
{
    int x = input(), y = input();
    int ra = call("nn.relu", x, -1), rb = call("nn.relu", y, -1);
    ck_assert_int_eq(count("commuted", call("subtract", ra, y)), 1);
    ck_assert_int_eq(count("commuted", call("subtract", y, ra)), 1);
    ck_assert_int_eq(count("commuted", call("subtract", ra, rb)), 2);
    ck_assert_int_eq(count("commuted", call("subtract", x, y)), 0);
}
END_TEST

/* A tuple of 25 references to one relu, under a relu: 2^24 ways. */
static int tuple_of_25(void)
{
    byoc_error err;
    int r = call("nn.relu", input(), -1);
    int fields[25];
    for (int i = 0; i < 25; i++)
        fields[i] = r;
    int t = byoc_graph_add_tuple(g, fields, 25, &err);
    ck_assert_msg(t >= 0, "%s", err.msg);
    return call("nn.relu", t, -1);
}

START_TEST(multiplying_alternatives_are_cut)
{
    const byoc_target_decl *many = byoc_registry_target(reg, "many");
    ck_assert_ptr_nonnull(many);
    int root = tuple_of_25();
    ck_assert_int_eq(bx_match_at(g, &many->patterns[0], root, NULL, NULL), -1);
    /* The search over that target stops with an error at the node. */
    byoc_graph_set_loc(g, root, 3, 5);
    byoc_graph_set_source(g, "m.relay");
    const char *targets[] = {"many", "native"};
    byoc_partition_options o;
    byoc_partition_options_init(&o);
    o.targets = targets;
    o.ntargets = 2;
    byoc_error err;
    ck_assert_ptr_null(byoc_partition_graph(g, &o, &err));
    char buf[1024];
    byoc_error_format(&err, buf, sizeof buf);
    ck_assert_msg(strstr(buf, "m.relay:3:5: error: pattern 'multiplying' of target 'many' ("),
                  "%s", buf);
    ck_assert_msg(strstr(buf, "takes more than 100000 steps to match node 3; its "
                              "alternatives multiply past byoc's limit"), "%s", buf);
}
END_TEST

START_TEST(wide_calls)
{
    byoc_error err;
    const byoc_target_decl *many = byoc_registry_target(reg, "many");
    const byoc_pattern_decl *rule = byoc_target_rule_at(reg, many, 0);
    ck_assert_ptr_nonnull(rule);
    int x = input(), y = input(), args[70];
    for (int i = 0; i < 70; i++)
        args[i] = i % 3 ? x : y;
    int w = byoc_graph_add_call(g, "wide70", args, 70, &err);
    ck_assert_msg(w >= 0, "%s", err.msg);
    seen s;
    memset(&s, 0, sizeof s);
    ck_assert_int_eq(bx_match_at(g, rule, w, collect, &s), 1);
    ck_assert_int_eq(s.nmembers[0], 1);
    ck_assert_int_eq(s.members[0][0], w);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("match");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, single_call_and_alternatives);
    tcase_add_test(core, alternative_callee_through_a_let);
    tcase_add_test(core, optional_op);
    tcase_add_test(core, shared_nodes);
    tcase_add_test(core, bindings_and_predicate);
    tcase_add_test(core, constants);
    tcase_add_test(core, data_and_range);
    tcase_add_test(core, sum_and_abs);
    tcase_add_test(core, wildcard_is_not_a_member);
    tcase_add_test(core, nested_list_attributes);
    tcase_add_test(core, tuples_and_projections);
    tcase_add_test(core, attribute_equality);
    tcase_add_test(core, commutative_calls);
    tcase_add_test(core, wide_calls);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, multiplying_alternatives_are_cut);
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
