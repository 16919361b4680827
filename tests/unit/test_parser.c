/* Unit tests of the .byoc parser: the AST it builds, and recovery. */
#include "compiler_fixture.h"

static file_ast *parse(fixture *f, const char *text)
{
    const char *p = fx_file(f, "t.byoc", text);
    file_ast *a = parse_file(&f->c, p, "t.byoc");
    ck_assert_ptr_nonnull(a);
    return a;
}

static decl *nth(file_ast *a, int i)
{
    ck_assert_int_gt(a->decls.n, i);
    return a->decls.v[i];
}

START_TEST(op_declaration)
{
    fixture f;
    fx_init(&f);
    file_ast *a = parse(&f,
        "op nn.conv2d(data, weight) : out_elemwise_fusable {\n"
        "    attr strides: int[] = [1, 1];\n"
        "    attr channels: int?;\n"
        "    attr sections: int | int[] = 1;\n"
        "    attr pad_width: int[][] = [[0, 0]];\n"
        "    shape conv2d; flops conv2d;\n"
        "}\n"
        "op concatenate(data: tuple) : injective { shape concatenate; flops none; }\n");
    ck_assert_int_eq(f.c.diag.errors, 0);
    ck_assert_int_eq(a->decls.n, 2);
    decl *d = nth(a, 0);
    ck_assert_int_eq(d->kind, D_OP);
    ck_assert_str_eq(d->name, "nn.conv2d");
    ck_assert_int_eq(d->inputs.n, 2);
    ck_assert_str_eq(d->kind_name, "out_elemwise_fusable");
    ck_assert_int_eq(d->attrs.n, 4);
    attr_ast *at = d->attrs.v[0];
    ck_assert_int_eq(at->type.d.base, BYOC_V_INT);
    ck_assert_int_eq(at->type.d.depth, 1);
    ck_assert_int_eq(at->def->kind, E_LIST);
    at = d->attrs.v[1];
    ck_assert(at->type.d.optional);
    ck_assert_ptr_null(at->def);
    at = d->attrs.v[2];
    ck_assert(at->type.d.has_alt);
    ck_assert_int_eq(at->type.d.alt_depth, 1);
    at = d->attrs.v[3];
    ck_assert_int_eq(at->type.d.depth, 2);
    ck_assert_str_eq(d->shape_rule, "conv2d");
    ck_assert_str_eq(d->flops_rule, "conv2d");
    input_ast *in = ((decl *)nth(a, 1))->inputs.v[0];
    ck_assert(in->tuple);
    fx_free(&f);
}
END_TEST

START_TEST(device_link_target)
{
    fixture f;
    fx_init(&f);
    file_ast *a = parse(&f,
        "device cuda { flops float32 = 19.5e12, float16 = 312e12; bandwidth = 1.55e12; }\n"
        "link cpu <-> cuda { bandwidth = 2.5e10; latency = 1e-5; }\n"
        "link a -> b { }\n"
        "target trt : cuda {\n"
        "  option use_fp16: bool = false;\n"
        "  option version = 8.6.1;\n"
        "  fusion any; max_nodes 256;\n"
        "  supports *;\n"
        "  supports c: nn.conv2d(x, w: const) where c.groups == 1 && dtype(x) in {float16};\n"
        "  supports nn.relu, add;\n"
        "  partition where contains(nn.conv2d | nn.dense);\n"
        "}\n");
    ck_assert_int_eq(f.c.diag.errors, 0);
    decl *dev = nth(a, 0);
    ck_assert_int_eq(dev->params.n, 3);
    param_ast *p = dev->params.v[1];
    ck_assert_str_eq(p->key, "flops");
    ck_assert_str_eq(p->sub, "float16");
    decl *l = nth(a, 1);
    ck_assert(l->both_ways);
    ck_assert(!((decl *)nth(a, 2))->both_ways);
    decl *t = nth(a, 3);
    ck_assert_str_eq(t->parent, "cuda");
    ck_assert_int_eq(t->items.n, 8);
    int kinds[] = {TI_OPTION, TI_OPTION_SET, TI_SETTING, TI_SETTING, TI_SUPPORTS_ALL,
                   TI_SUPPORTS, TI_SUPPORTS, TI_PARTITION};
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(((titem *)t->items.v[i])->kind, kinds[i]);
    titem *sup = t->items.v[5];
    ck_assert_str_eq(sup->where->text, "c.groups == 1 && dtype(x) in {float16}");
    pat *pp = sup->pats.v[0];
    ck_assert_int_eq(pp->kind, P_BIND);
    ck_assert_int_eq(pp->a->kind, P_APPLY);
    ck_assert_str_eq(pp->a->a->name, "nn.conv2d");
    pat *w = pp->a->args.v[1];
    ck_assert_int_eq(w->kind, P_BIND);
    ck_assert_int_eq(w->a->kind, P_CONST);
    ck_assert_int_eq(((titem *)t->items.v[6])->pats.n, 2);
    fx_free(&f);
}
END_TEST

START_TEST(lower_and_runtime)
{
    fixture f;
    fx_init(&f);
    file_ast *a = parse(&f,
        "extern predicate fits;\n"
        "extern lower emit;\n"
        "target t : d {\n"
        "  runtime \"onnxruntime:CPUExecutionProvider\";\n"
        "  lower emit; lower before emit; lower after emit;\n"
        "  supports before: nn.relu(after) where fits(before);\n"
        "}\n");
    ck_assert_int_eq(f.c.diag.errors, 0);
    ck_assert(!((decl *)nth(a, 0))->lower);
    decl *ex = nth(a, 1);
    ck_assert_int_eq(ex->kind, D_EXTERN);
    ck_assert(ex->lower);
    ck_assert_str_eq(ex->name, "emit");
    decl *t = nth(a, 2);
    ck_assert_int_eq(t->items.n, 5);
    titem *rt = t->items.v[0];
    ck_assert_int_eq(rt->kind, TI_SETTING);
    ck_assert_str_eq(rt->name, "runtime");
    ck_assert_int_eq(rt->value->kind, E_STR);
    byoc_pass_point points[] = {BYOC_PASS_PARTITION, BYOC_PASS_BEFORE, BYOC_PASS_AFTER};
    for (int i = 0; i < 3; i++) {
        titem *it = t->items.v[1 + i];
        ck_assert_int_eq(it->kind, TI_LOWER);
        ck_assert_str_eq(it->name, "emit");
        ck_assert_int_eq(it->point, points[i]);
    }
    ck_assert_int_eq(((titem *)t->items.v[1])->name_at.col, 9);
    ck_assert_int_eq(((titem *)t->items.v[2])->name_at.col, 28);
    /* before and after stay names elsewhere. */
    ck_assert_int_eq(((titem *)t->items.v[4])->kind, TI_SUPPORTS);

    a = parse(&f, "target t : d { lower during emit; lower; }\n");
    ck_assert_str_eq(fx_diags(&f),
        "t.byoc:1:22: error: unknown pass point 'during' (expected 'before' or 'after')\n"
        "t.byoc:1:40: error: syntax error: unexpected ';', expected identifier\n");
    fx_free(&f);
}
END_TEST

START_TEST(pattern_constructs)
{
    fixture f;
    fx_init(&f);
    file_ast *a = parse(&f,
        "target k : cuda {\n"
        "  let bias(x) = (add | nn.bias_add)(x, _);\n"
        "  pattern p1 = nn.relu?(x) | commute add(x, 1i32);\n"
        "  pattern p2 = split(_).0 | split(_).*;\n"
        "  pattern p3 = (a, b) | tuple(...) | tuple(a, b);\n"
        "  pattern p4 = nn.conv2d{groups=1, data_layout=\"NHWC\"}(x, const(0f));\n"
        "  for act in {nn.relu, sigmoid}, (o, s) in {(add, \"a\")}\n"
        "    pattern d_{act}{s} = act(x) where true efficiency 0.5;\n"
        "}\n");
    ck_assert_int_eq(f.c.diag.errors, 0);
    decl *t = nth(a, 0);
    titem *let = t->items.v[0];
    ck_assert_int_eq(let->kind, TI_LET);
    ck_assert_int_eq(let->let->params.n, 1);
    ck_assert_int_eq(let->let->body->a->kind, P_ALT);
    titem *p1 = t->items.v[1];
    pat *alt = p1->pats.v[0];
    ck_assert_int_eq(alt->kind, P_ALT);
    ck_assert_int_eq(alt->a->kind, P_APPLY);
    ck_assert_int_eq(alt->a->a->kind, P_OPTIONAL);
    ck_assert_int_eq(alt->b->kind, P_COMMUTE);
    pat *lit = alt->b->a->args.v[1];
    ck_assert_int_eq(lit->kind, P_LIT);
    ck_assert_int_eq(lit->value->dtype, BYOC_DT_INT32);
    pat *p2 = ((titem *)t->items.v[2])->pats.v[0];
    ck_assert_int_eq(p2->a->kind, P_PROJ);
    ck_assert_int_eq(p2->a->index, 0);
    ck_assert_int_eq(p2->b->index, -1);
    pat *p3 = ((titem *)t->items.v[3])->pats.v[0];
    ck_assert_int_eq(p3->a->a->kind, P_TUPLE);
    ck_assert_int_eq(p3->a->b->kind, P_TUPLE_ANY);
    ck_assert_int_eq(p3->b->kind, P_TUPLE);
    pat *p4 = ((titem *)t->items.v[4])->pats.v[0];
    ck_assert_int_eq(p4->attrs.n, 2);
    titem *fam = t->items.v[5];
    ck_assert_str_eq(fam->name, "d_{act}{s}");
    ck_assert_int_eq(fam->gens.n, 2);
    ck_assert_int_eq(((forgen_ast *)fam->gens.v[1])->vars.n, 2);
    ck_assert_int_eq(fam->settings.n, 1);
    fx_free(&f);
}
END_TEST

START_TEST(predicate_precedence)
{
    fixture f;
    fx_init(&f);
    file_ast *a = parse(&f,
        "target k : c { supports x where !a || b && c == 1 + 2 * 3 && d in 1..4; }\n");
    ck_assert_int_eq(f.c.diag.errors, 0);
    expr *w = ((titem *)((decl *)nth(a, 0))->items.v[0])->where;
    ck_assert_int_eq(w->kind, E_BINARY);
    ck_assert_int_eq(w->op, OP_OR);
    ck_assert_int_eq(w->a->kind, E_UNARY);
    expr *and = w->b;
    ck_assert_int_eq(and->op, OP_AND);
    ck_assert_int_eq(and->b->kind, E_IN_RANGE);
    expr *eq = and->a->b;
    ck_assert_int_eq(eq->op, OP_EQ);
    ck_assert_int_eq(eq->b->op, '+');
    ck_assert_int_eq(eq->b->b->op, '*');
    fx_free(&f);
}
END_TEST

START_TEST(recovers_at_declarations)
{
    fixture f;
    fx_init(&f);
    file_ast *a = parse(&f,
        "device d { bandwidth = ; }\n"
        "op o(x) : elemwise { attr a: int = ; shape same; flops none; }\n"
        "target t : d { supports x where ; fusion none; }\n"
        "target u : d { supports *; }\n");
    ck_assert_int_eq(f.c.diag.errors, 3);
    /* The declarations after the errors are still there. */
    decl *u = nth(a, a->decls.n - 1);
    ck_assert_str_eq(u->name, "u");
    decl *t = nth(a, a->decls.n - 2);
    ck_assert_str_eq(t->name, "t");
    ck_assert_int_eq(((titem *)t->items.v[0])->kind, TI_SETTING);
    ck_assert_str_eq(fx_diags(&f),
        "t.byoc:1:24: error: syntax error: unexpected ';'\n"
        "t.byoc:2:36: error: syntax error: unexpected ';'\n"
        "t.byoc:3:33: error: syntax error: unexpected ';'\n");
    fx_free(&f);
}
END_TEST

START_TEST(unknown_type_suggests)
{
    fixture f;
    fx_init(&f);
    parse(&f, "op o(x) : elemwise { attr a: strng = \"\"; shape same; flops none; }\n");
    ck_assert_int_eq(f.c.diag.errors, 1);
    ck_assert_str_eq(fx_diags(&f),
        "t.byoc:1:30: error: unknown type 'strng'\n"
        "t.byoc:1:30: note: did you mean 'string'?\n");
    fx_free(&f);
}
END_TEST

/* head, then piece n times, then tail (in the fixture's arena). */
static const char *repeat(fixture *f, const char *head, const char *piece, int n,
                          const char *tail)
{
    size_t hl = strlen(head), pl = strlen(piece), tl = strlen(tail);
    char *s = bx_arena_alloc(&f->c.arena, hl + pl * (size_t)n + tl + 1), *o = s;
    memcpy(o, head, hl);
    o += hl;
    for (int i = 0; i < n; i++, o += pl)
        memcpy(o, piece, pl);
    memcpy(o, tail, tl + 1);
    return s;
}

START_TEST(depth_of_a_left_chain)
{
    fixture f;
    fx_init(&f);
    /* a && a && ... with 1000 terms is 1000 deep: the limit, and fine. */
    file_ast *a = parse(&f, repeat(&f, "target k : c { supports x where a", " && a", 999, "; }\n"));
    ck_assert_int_eq(f.c.diag.errors, 0);
    expr *w = ((titem *)((decl *)nth(a, 0))->items.v[0])->where;
    ck_assert_int_eq(w->depth, BYOCC_MAX_DEPTH);
    fx_free(&f);
}
END_TEST

START_TEST(too_deep_is_reported_once)
{
    fixture f;
    fx_init(&f);
    /* 1050 terms: the 1000th && passes the limit; the 49 after it do not
     * repeat the error. */
    parse(&f, repeat(&f, "target k : c { supports x where a", "&&a", 1049, "; }\n"));
    ck_assert_str_eq(fx_diags(&f),
        "t.byoc:1:3031: error: expression nested too deeply (more than 1000 levels)\n");
    fx_free(&f);
}
END_TEST

START_TEST(right_nesting_fills_the_parser_stack)
{
    fixture f;
    fx_init(&f);
    /* 20000 '!' stay open until the end: Bison's stack, not the tree,
     * runs out first, and that is the same error. */
    parse(&f, repeat(&f, "target k : c { supports x where ", "!", 20000, "a; }\n"));
    ck_assert_int_eq(f.c.diag.errors, 1);
    ck_assert(strstr(fx_diags(&f), "error: expression or pattern nested too deeply for the "
                                   "parser (its stack holds 10000 entries)\n"));
    fx_free(&f);
}
END_TEST

START_TEST(pattern_depth)
{
    fixture f;
    fx_init(&f);
    parse(&f, repeat(&f, "target k : c { supports ", "f(", 999, "x"));
    ck_assert_int_eq(f.c.diag.errors, 1);  /* only the missing ')' */
    fx_free(&f);
    fx_init(&f);
    parse(&f, repeat(&f, "target k : c { supports x", " | x", 1000, "; }\n"));
    ck_assert_str_eq(fx_diags(&f),
        "t.byoc:1:4023: error: pattern nested too deeply (more than 1000 levels)\n");
    fx_free(&f);
}
END_TEST

START_TEST(names_types_and_fields_out_of_range)
{
    fixture f;
    fx_init(&f);
    parse(&f, repeat(&f, "op a", ".bcdefghij", 30, "(x) : elemwise { shape s; flops f; }\n"
                     "op o(x) : elemwise { attr a: int[][][][][][][][][][][][][][][][][][][][][][][][]"
                     "[][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][]"
                     "[][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][]"
                     "[][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][]"
                     "[][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][]"
                     "[][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][]"
                     "[][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][]"
                     "[][][]; shape s; flops f; }\n"
                     "target k : c { supports t(x).4294967296; }\n"));
    ck_assert_str_eq(fx_diags(&f),
        "t.byoc:1:256: error: name too long (more than 255 characters)\n"
        "t.byoc:2:543: error: type nested too deeply (more than 255 levels)\n"
        "t.byoc:3:30: error: field index 4294967296 out of range\n");
    fx_free(&f);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("parser");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, op_declaration);
    tcase_add_test(core, device_link_target);
    tcase_add_test(core, pattern_constructs);
    tcase_add_test(core, predicate_precedence);
    tcase_add_test(core, lower_and_runtime);
    tcase_add_test(core, depth_of_a_left_chain);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_test(errors, recovers_at_declarations);
    tcase_add_test(errors, unknown_type_suggests);
    tcase_add_test(errors, too_deep_is_reported_once);
    tcase_add_test(errors, right_nesting_fills_the_parser_stack);
    tcase_add_test(errors, pattern_depth);
    tcase_add_test(errors, names_types_and_fields_out_of_range);
    suite_add_tcase(s, errors);
    return s;
}

TEST_MAIN(suite)
