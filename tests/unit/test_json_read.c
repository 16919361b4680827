/* Unit tests of the JSON reader (runtime/json_read.c): every kind of value,
 * string escapes and surrogate pairs, numbers, where values start, and
 * errors with their line and column, the nesting limit among them. */
#define _POSIX_C_SOURCE 200809L   /* mkstemp */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"

static bx_arena arena;

static void setup(void) { bx_arena_init(&arena); }
static void teardown(void) { bx_arena_free(&arena); }

static bx_json *parse(const char *text, byoc_error *err)
{
    return bx_json_parse(&arena, text, strlen(text), "t.json", err);
}

/* The error text of a parse that must fail. */
static const char *error_of(const char *text)
{
    static char buf[1024];
    byoc_error err;
    ck_assert_msg(parse(text, &err) == NULL, "parsed: %s", text);
    byoc_error_format(&err, buf, sizeof buf);
    return buf;
}

START_TEST(scalars)
{
    byoc_error err;
    ck_assert_int_eq(parse("null", &err)->kind, BX_JSON_NULL);
    ck_assert_int_eq(parse(" true ", &err)->kind, BX_JSON_TRUE);
    ck_assert_int_eq(parse("\n\tfalse\r\n", &err)->kind, BX_JSON_FALSE);
    bx_json *v = parse("-12.5e-1", &err);
    ck_assert_int_eq(v->kind, BX_JSON_NUMBER);
    ck_assert_double_eq(v->num, -1.25);
    ck_assert_double_eq(parse("0", &err)->num, 0);
    ck_assert_double_eq(parse("1E3", &err)->num, 1000);
    ck_assert_double_eq(parse("2e+2", &err)->num, 200);
    ck_assert_double_eq(parse("1e-400", &err)->num, 0);   /* underflow is zero */
    v = parse("\"abc\"", &err);
    ck_assert_int_eq(v->kind, BX_JSON_STRING);
    ck_assert_str_eq(v->str, "abc");
    ck_assert_uint_eq(v->len, 3);
    /* A byte order mark is skipped. */
    ck_assert_int_eq(parse("\xef\xbb\xbf[]", &err)->kind, BX_JSON_ARRAY);
}
END_TEST

START_TEST(escapes)
{
    byoc_error err;
    bx_json *v = parse("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", &err);
    ck_assert_str_eq(v->str, "a\"b\\c/d\b\f\n\r\t");
    v = parse("\"\\u0041\\u00e9\\u20AC\"", &err);
    ck_assert_str_eq(v->str, "A\xc3\xa9\xe2\x82\xac");
    /* A surrogate pair is one code point: U+1F600 */
    v = parse("\"\\ud83d\\ude00\"", &err);
    ck_assert_str_eq(v->str, "\xf0\x9f\x98\x80");
    /* \u0000 is kept: the length says where the text ends. */
    v = parse("\"a\\u0000b\"", &err);
    ck_assert_uint_eq(v->len, 3);
    ck_assert(!memcmp(v->str, "a\0b", 3));
    /* Raw UTF-8 passes through. */
    v = parse("\"\xc3\xa9\xf0\x9f\x98\x80\"", &err);
    ck_assert_str_eq(v->str, "\xc3\xa9\xf0\x9f\x98\x80");
}
END_TEST

START_TEST(containers)
{
    byoc_error err;
    bx_json *v = parse("{\"a\": [1, 2, {\"b\": null}], \"c\": \"d\", \"a\": 3}", &err);
    ck_assert_ptr_nonnull(v);
    ck_assert_int_eq(v->kind, BX_JSON_OBJECT);
    ck_assert_uint_eq(v->n, 3);
    const bx_json *a = v->first;
    ck_assert_str_eq(a->key, "a");
    ck_assert_int_eq(a->kind, BX_JSON_ARRAY);
    ck_assert_uint_eq(a->n, 3);
    ck_assert_double_eq(a->first->num, 1);
    ck_assert_double_eq(a->first->next->num, 2);
    ck_assert_int_eq(bx_json_get(a->first->next->next, "b")->kind, BX_JSON_NULL);
    ck_assert_str_eq(bx_json_get(v, "c")->str, "d");
    /* A repeated name: the last one. */
    ck_assert_double_eq(bx_json_get(v, "a")->num, 3);
    ck_assert_ptr_null(bx_json_get(v, "z"));
    ck_assert_ptr_null(bx_json_get(a, "a"));
    v = parse("[[], {}, [[]]]", &err);
    ck_assert_uint_eq(v->n, 3);
    ck_assert_uint_eq(v->first->n, 0);
    ck_assert_ptr_null(v->first->first);
    ck_assert_int_eq(v->first->next->kind, BX_JSON_OBJECT);
    ck_assert_uint_eq(v->first->next->next->n, 1);
}
END_TEST

START_TEST(locations)
{
    byoc_error err;
    bx_json *v = parse("[\n  1,\n    {\"k\": true}]", &err);
    ck_assert_int_eq(v->line, 1);
    ck_assert_int_eq(v->col, 1);
    ck_assert_int_eq(v->first->line, 2);
    ck_assert_int_eq(v->first->col, 3);
    const bx_json *o = v->first->next;
    ck_assert_int_eq(o->line, 3);
    ck_assert_int_eq(o->col, 5);
    ck_assert_int_eq(o->first->line, 3);
    ck_assert_int_eq(o->first->col, 11);
}
END_TEST

/* Exactly BX_JSON_MAX_DEPTH levels parse; one more is an error naming
 * where the level too many opens. */
START_TEST(depth_limit)
{
    byoc_error err;
    size_t n = BX_JSON_MAX_DEPTH;
    char *s = malloc(2 * n + 3);
    memset(s, '[', n);
    memset(s + n, ']', n);
    s[2 * n] = 0;
    ck_assert_ptr_nonnull(parse(s, &err));
    memset(s, '[', n + 1);
    memset(s + n + 1, ']', n + 1);
    s[2 * n + 2] = 0;
    char want[128];
    snprintf(want, sizeof want, "t.json:1:%zu: error: arrays and objects nest more than %d deep",
             n + 1, BX_JSON_MAX_DEPTH);
    ck_assert_str_eq(error_of(s), want);
    /* Objects count too, and a million open brackets fail as fast. */
    free(s);
    size_t big = 1000000;
    s = malloc(big + 1);
    for (size_t i = 0; i < big; i++)
        s[i] = i % 2 ? '[' : '{';
    s[big] = 0;
    ck_assert_ptr_null(parse(s, &err));
    free(s);
}
END_TEST

START_TEST(syntax_errors)
{
    ck_assert_str_eq(error_of(""), "t.json:1:1: error: expected a value, found the end of the input");
    ck_assert_str_eq(error_of("[1,]"), "t.json:1:4: error: expected a value, found ']'");
    ck_assert_str_eq(error_of("[1 2]"), "t.json:1:4: error: expected ',' or ']', found '2'");
    ck_assert_str_eq(error_of("{\"a\" 1}"),
                     "t.json:1:6: error: expected ':' after the member name, found '1'");
    ck_assert_str_eq(error_of("{1: 2}"),
                     "t.json:1:2: error: expected a member name (a string), found '1'");
    ck_assert_str_eq(error_of("{\"a\": 1,}"),
                     "t.json:1:9: error: expected a member name (a string), found '}'");
    ck_assert_str_eq(error_of("[1]\n x"), "t.json:2:2: error: unexpected 'x' after the value");
    ck_assert_str_eq(error_of("[\n\n  tru]"), "t.json:3:3: error: expected a value, found 't'");
    ck_assert_str_eq(error_of("nullx"), "t.json:1:1: error: expected a value, found 'n'");
    ck_assert_str_eq(error_of("[1"), "t.json:1:3: error: expected ',' or ']', found the end of "
                                     "the input");
    ck_assert_str_eq(error_of("'a'"), "t.json:1:1: error: expected a value, found '''");
    ck_assert_str_eq(error_of("\x01"), "t.json:1:1: error: expected a value, found byte 0x01");
}
END_TEST

START_TEST(number_errors)
{
    ck_assert_str_eq(error_of("01"), "t.json:1:1: error: bad number: no leading zeros");
    ck_assert_str_eq(error_of("-"), "t.json:1:1: error: bad number: expected a digit");
    ck_assert_str_eq(error_of("1."), "t.json:1:3: error: bad number: expected a digit after '.'");
    ck_assert_str_eq(error_of("[1e]"),
                     "t.json:1:4: error: bad number: expected a digit in the exponent");
    ck_assert_str_eq(error_of(".5"), "t.json:1:1: error: expected a value, found '.'");
    ck_assert_str_eq(error_of("+1"), "t.json:1:1: error: expected a value, found '+'");
    ck_assert_str_eq(error_of("[1e999]"), "t.json:1:2: error: number out of range");
}
END_TEST

START_TEST(string_errors)
{
    ck_assert_str_eq(error_of("[\"abc"), "t.json:1:2: error: unterminated string");
    ck_assert_str_eq(error_of("\"a\nb\""),
                     "t.json:1:3: error: newline in a string (write it as \\n)");
    ck_assert_str_eq(error_of("\"a\tb\""),
                     "t.json:1:3: error: control character 0x09 in a string (write it as "
                     "\\u0009)");
    ck_assert_str_eq(error_of("\"\\x\""), "t.json:1:2: error: bad escape '\\x'");
    ck_assert_str_eq(error_of("\"\\u12g4\""),
                     "t.json:1:2: error: bad escape: \\u needs four hexadecimal digits");
    ck_assert_str_eq(error_of("\"ab\\udc00\""),
                     "t.json:1:4: error: unpaired low surrogate \\udc00");
    ck_assert_str_eq(error_of("\"\\ud83dx\""),
                     "t.json:1:2: error: high surrogate \\ud83d not followed by a low one");
    ck_assert_str_eq(error_of("\"\\ud83d\\u0041\""),
                     "t.json:1:2: error: high surrogate \\ud83d not followed by a low one");
    /* Invalid UTF-8: a lone continuation byte, an overlong '/', an encoded
     * surrogate, a truncated sequence, past U+10FFFF. */
    static const char *const bad[] = {"\"\x80\"", "\"\xc0\xaf\"", "\"\xed\xa0\x80\"",
                                      "\"\xe2\x82\"", "\"\xf4\x90\x80\x80\""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ck_assert_str_eq(error_of(bad[i]), "t.json:1:2: error: invalid UTF-8 in a string");
}
END_TEST

START_TEST(files)
{
    byoc_error err;
    char path[] = "/tmp/test_json_readXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs("[{\"name\": \"x\"},\n {\"name\": }]\n", f);
    fclose(f);
    ck_assert_ptr_null(bx_json_read_file(&arena, path, &err));
    ck_assert_str_eq(err.file, path);
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.col, 11);
    remove(path);
    ck_assert_ptr_null(bx_json_read_file(&arena, path, &err));
    ck_assert_str_eq(err.file, path);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("json_read");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, scalars);
    tcase_add_test(core, escapes);
    tcase_add_test(core, containers);
    tcase_add_test(core, locations);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, depth_limit);
    tcase_add_test(errors, syntax_errors);
    tcase_add_test(errors, number_errors);
    tcase_add_test(errors, string_errors);
    tcase_add_test(errors, files);
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
