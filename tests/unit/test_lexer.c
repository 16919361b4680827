/* Unit tests of the .byoc scanner: token kinds, values and locations. */
#include "compiler_fixture.h"
#include "parse_ctx.h"
#include "parser.h"
#include "lexer.h"

typedef struct tok {
    int kind;
    YYSTYPE v;
    YYLTYPE l;
} tok;

/* Scan src into toks (at most n); returns the count. */
static int scan(fixture *f, const char *src, tok *toks, int n)
{
    parse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.arena = &f->c.arena;
    ctx.diag = &f->c.diag;
    ctx.file = "t.byoc";
    ctx.line = 1;
    ctx.col = 1;
    yyscan_t sc;
    ck_assert_int_eq(yylex_init_extra(&ctx, &sc), 0);
    YY_BUFFER_STATE b = yy_scan_string(src, sc);
    int k = 0;
    for (; k < n; k++) {
        toks[k].kind = yylex(&toks[k].v, &toks[k].l, sc);
        if (toks[k].kind == 0)
            break;
    }
    yy_delete_buffer(b, sc);
    yylex_destroy(sc);
    return k;
}

START_TEST(dotted_names_are_separate_tokens)
{
    fixture f;
    fx_init(&f);
    tok t[16];
    int n = scan(&f, "nn.conv2d(x, _)", t, 16);
    int kinds[] = {IDENT, '.', IDENT, '(', IDENT, ',', '_', ')'};
    ck_assert_int_eq(n, 8);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(t[i].kind, kinds[i]);
    ck_assert_str_eq(t[0].v.IDENT, "nn");
    ck_assert_str_eq(t[2].v.IDENT, "conv2d");
    ck_assert_int_eq(t[2].l.first_column, 4);
    ck_assert_int_eq(f.c.diag.errors, 0);
    fx_free(&f);
}
END_TEST

START_TEST(numbers_versions_and_typed_constants)
{
    fixture f;
    fx_init(&f);
    tok t[16];
    int n = scan(&f, "42 1.5 1e-05 8.6.1 0i32 0.044715f 3f16 7u8 0..5", t, 16);
    ck_assert_int_eq(n, 11);
    ck_assert_int_eq(t[0].kind, INT);
    ck_assert_int_eq(t[0].v.INT, 42);
    ck_assert_int_eq(t[1].kind, FLOAT);
    ck_assert_double_eq(t[1].v.FLOAT, 1.5);
    ck_assert_int_eq(t[2].kind, FLOAT);
    ck_assert_double_eq_tol(t[2].v.FLOAT, 1e-05, 1e-20);
    ck_assert_int_eq(t[3].kind, VERSION);
    ck_assert(t[3].v.VERSION == BYOC_VERSION(8, 6, 1));
    ck_assert_int_eq(t[4].kind, TLIT);
    ck_assert_int_eq(t[4].v.TLIT.dtype, BYOC_DT_INT32);
    ck_assert(!t[4].v.TLIT.is_float);
    ck_assert_int_eq(t[5].kind, TLIT);
    ck_assert_int_eq(t[5].v.TLIT.dtype, BYOC_DT_FLOAT32);
    ck_assert_double_eq_tol(t[5].v.TLIT.f, 0.044715, 1e-12);
    ck_assert_int_eq(t[6].v.TLIT.dtype, BYOC_DT_FLOAT16);
    ck_assert(t[6].v.TLIT.is_float);
    ck_assert_int_eq(t[7].v.TLIT.dtype, BYOC_DT_UINT8);
    ck_assert_int_eq(t[8].kind, INT);
    ck_assert_int_eq(t[9].kind, DOTDOT);
    ck_assert_int_eq(t[10].kind, INT);
    ck_assert_int_eq(f.c.diag.errors, 0);
    fx_free(&f);
}
END_TEST

START_TEST(keywords_templates_strings_operators)
{
    fixture f;
    fx_init(&f);
    tok t[32];
    int n = scan(&f, "target pattern dense_bias_{act} \"a\\\"b\" <-> -> ... == != <= >= && || ?",
                 t, 32);
    int kinds[] = {TARGET, PATTERN, NAMETPL, STRING, BOTHWAYS, ARROW, ELLIPSIS,
                   EQ, NE, LE, GE, ANDAND, OROR, '?'};
    ck_assert_int_eq(n, 14);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(t[i].kind, kinds[i]);
    ck_assert_str_eq(t[2].v.NAMETPL, "dense_bias_{act}");
    ck_assert_str_eq(t[3].v.STRING, "a\"b");
    fx_free(&f);
}
END_TEST

START_TEST(templates_may_open_with_a_variable)
{
    fixture f;
    fx_init(&f);
    tok t[16];
    /* "{base}_bias" and "{a}{b}" are templates; "{float32}" followed by a
       space or ')' is a set literal. */
    int n = scan(&f, "{base}_bias {a}{b} in {float32} {x})", t, 16);
    int kinds[] = {NAMETPL, NAMETPL, IN, '{', IDENT, '}', '{', IDENT, '}', ')'};
    ck_assert_int_eq(n, 10);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(t[i].kind, kinds[i]);
    ck_assert_str_eq(t[0].v.NAMETPL, "{base}_bias");
    ck_assert_str_eq(t[1].v.NAMETPL, "{a}{b}");
    fx_free(&f);
}
END_TEST

START_TEST(comments_and_lines)
{
    fixture f;
    fx_init(&f);
    tok t[8];
    int n = scan(&f, "// one\n/* two\n three */ op\n  x", t, 8);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(t[0].kind, OP);
    ck_assert_int_eq(t[0].l.first_line, 3);
    ck_assert_int_eq(t[0].l.first_column, 11);
    ck_assert_int_eq(t[1].l.first_line, 4);
    ck_assert_int_eq(t[1].l.first_column, 3);
    fx_free(&f);
}
END_TEST

START_TEST(bad_characters_are_located_errors)
{
    fixture f;
    fx_init(&f);
    tok t[8];
    scan(&f, "x @ y", t, 8);
    ck_assert_int_eq(f.c.diag.errors, 1);
    ck_assert_str_eq(fx_diags(&f), "t.byoc:1:3: error: stray '@' in program\n");
    fx_free(&f);
}
END_TEST

START_TEST(unterminated_comment_and_string)
{
    fixture f;
    fx_init(&f);
    tok t[8];
    scan(&f, "x \"abc\n/* open", t, 8);
    ck_assert_int_eq(f.c.diag.errors, 2);
    ck_assert_str_eq(fx_diags(&f),
                     "t.byoc:1:3: error: missing terminating '\"' character\n"
                     "t.byoc:2:1: error: unterminated comment\n");
    fx_free(&f);
}
END_TEST

START_TEST(out_of_range_numbers)
{
    fixture f;
    fx_init(&f);
    tok t[8];
    scan(&f, "99999999999999999999 70000.1.1 1.5i32", t, 8);
    ck_assert_int_eq(f.c.diag.errors, 3);
    fx_free(&f);
}
END_TEST

START_TEST(typed_constants_fit_their_type)
{
    fixture f;
    fx_init(&f);
    tok t[16];
    int n = scan(&f, "127i8 255u8 9223372036854775807i64 65504f16 1e308f64 1e300", t, 16);
    ck_assert_int_eq(n, 6);
    ck_assert_int_eq(f.c.diag.errors, 0);
    ck_assert_int_eq(t[0].v.TLIT.i, 127);
    ck_assert_int_eq(t[2].v.TLIT.i, INT64_MAX);
    ck_assert_double_eq(t[3].v.TLIT.f, 65504);
    ck_assert_double_eq(t[5].v.FLOAT, 1e300);
    fx_free(&f);
}
END_TEST

START_TEST(constants_out_of_their_type_range)
{
    fixture f;
    fx_init(&f);
    tok t[16];
    /* Each is an error, and none carries a wrapped or infinite value. */
    scan(&f, "128i8 256u8 18446744073709551615u64 1e39f32 70000f16 1e400\n"
             "99999999999999999999999999999999999999999999999999999999999999999999i64", t, 16);
    ck_assert_int_eq(f.c.diag.errors, 7);
    ck_assert_int_eq(t[0].v.TLIT.i, 0);
    ck_assert_int_eq(t[2].v.TLIT.i, 0);
    ck_assert_double_eq(t[3].v.TLIT.f, 0);
    ck_assert_double_eq(t[5].v.FLOAT, 0);
    ck_assert_str_eq(fx_diags(&f),
        "t.byoc:1:1: error: integer constant '128i8' out of range for int8\n"
        "t.byoc:1:7: error: integer constant '256u8' out of range for uint8\n"
        "t.byoc:1:13: error: integer constant '18446744073709551615u64' out of range for uint64\n"
        "t.byoc:1:37: error: floating constant '1e39f32' out of range for float32\n"
        "t.byoc:1:45: error: floating constant '70000f16' out of range for float16\n"
        "t.byoc:1:54: error: floating constant '1e400' out of range\n"
        "t.byoc:2:1: error: integer constant '9999999999999999999999999999999999999...' "
        "out of range for int64\n");
    fx_free(&f);
}
END_TEST

START_TEST(versions_with_long_parts)
{
    fixture f;
    fx_init(&f);
    tok t[4];
    scan(&f, "99999999999999999999999999.0.65535", t, 4);
    ck_assert_int_eq(f.c.diag.errors, 1);
    ck_assert_str_eq(fx_diags(&f), "t.byoc:1:1: error: version '99999999999999999999999999.0.65535' "
                                   "out of range (each part at most 65535)\n");
    fx_free(&f);
}
END_TEST

START_TEST(long_names_are_cut)
{
    fixture f;
    fx_init(&f);
    char src[600];
    memset(src, 'a', 300);
    src[300] = 0;
    tok t[4];
    int n = scan(&f, src, t, 4);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(t[0].kind, IDENT);
    ck_assert_int_eq((int)strlen(t[0].v.IDENT), BYOCC_MAX_NAME);
    ck_assert_str_eq(fx_diags(&f), "t.byoc:1:1: error: name too long (more than 255 characters)\n");
    fx_free(&f);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("lexer");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, dotted_names_are_separate_tokens);
    tcase_add_test(core, numbers_versions_and_typed_constants);
    tcase_add_test(core, keywords_templates_strings_operators);
    tcase_add_test(core, templates_may_open_with_a_variable);
    tcase_add_test(core, comments_and_lines);
    tcase_add_test(core, typed_constants_fit_their_type);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_test(errors, bad_characters_are_located_errors);
    tcase_add_test(errors, unterminated_comment_and_string);
    tcase_add_test(errors, out_of_range_numbers);
    tcase_add_test(errors, constants_out_of_their_type_range);
    tcase_add_test(errors, versions_with_long_parts);
    tcase_add_test(errors, long_names_are_cut);
    suite_add_tcase(s, errors);
    return s;
}

TEST_MAIN(suite)
