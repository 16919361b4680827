/* Unit tests of values, types and errors (runtime/value.c, error.c,
 * version.c): the dtype table, equality, conformance, and printing exactly
 * the way a .byoc file writes a value. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

static byoc_value vint(int64_t i) { byoc_value v = {.kind = BYOC_V_INT, .u.i = i}; return v; }
static byoc_value vfloat(double f) { byoc_value v = {.kind = BYOC_V_FLOAT, .u.f = f}; return v; }
static byoc_value vbool(bool b) { byoc_value v = {.kind = BYOC_V_BOOL, .u.b = b}; return v; }
static byoc_value vstr(const char *s) { byoc_value v = {.kind = BYOC_V_STRING, .u.s = s}; return v; }
static byoc_value vdt(byoc_dtype d) { byoc_value v = {.kind = BYOC_V_DTYPE, .u.dt = d}; return v; }
static byoc_value vver(uint64_t x) { byoc_value v = {.kind = BYOC_V_VERSION, .u.ver = x}; return v; }
static byoc_value vnone(void) { byoc_value v = {.kind = BYOC_V_NONE}; return v; }
static byoc_value vlist(const byoc_value *items, size_t n)
{
    byoc_value v = {.kind = BYOC_V_LIST};
    v.u.list.items = items;
    v.u.list.n = n;
    return v;
}

static byoc_type_desc ty(int base, int depth, int optional)
{
    byoc_type_desc t = {.base = (uint8_t)base, .depth = (uint8_t)depth,
                        .optional = (uint8_t)optional};
    return t;
}

/* The value as printed, in a buffer owned by the caller's frame. */
#define FMT(buf, v) (byoc_value_format((v), (buf), sizeof(buf)), (buf))

START_TEST(dtype_table)
{
    ck_assert_str_eq(byoc_dtype_name(BYOC_DT_FLOAT16), "float16");
    ck_assert_str_eq(byoc_dtype_name(BYOC_DT_BFLOAT16), "bfloat16");
    ck_assert_str_eq(byoc_dtype_name(BYOC_DT_VOID), "");
    ck_assert_int_eq(byoc_dtype_bits(BYOC_DT_INT8), 8);
    ck_assert_int_eq(byoc_dtype_bits(BYOC_DT_BOOL), 1);
    ck_assert_int_eq(byoc_dtype_bits(BYOC_DT_FLOAT64), 64);
    ck_assert_int_eq(byoc_dtype_bits(BYOC_DT_VOID), 0);
    ck_assert_int_eq(byoc_dtype_class(BYOC_DT_UINT16), 'u');
    ck_assert_int_eq(byoc_dtype_class(BYOC_DT_INT32), 'i');
    ck_assert_int_eq(byoc_dtype_class(BYOC_DT_BFLOAT16), 'f');
    ck_assert_int_eq(byoc_dtype_class(BYOC_DT_BOOL), 'b');
    ck_assert_int_eq(byoc_dtype_class(BYOC_DT_VOID), 'v');
    ck_assert_int_eq(byoc_dtype_lookup("float32"), BYOC_DT_FLOAT32);
    ck_assert_int_eq(byoc_dtype_lookup("uint64"), BYOC_DT_UINT64);
    ck_assert_int_eq(byoc_dtype_lookup(""), BYOC_DT_VOID);
    /* Every name reads back as its dtype. */
    for (int d = 1; d < BYOC_DT_COUNT_; d++)
        ck_assert_int_eq(byoc_dtype_lookup(byoc_dtype_name((byoc_dtype)d)), d);
}
END_TEST

START_TEST(equality)
{
    byoc_value a = vint(3), b = vfloat(3.0), c = vfloat(3.5);
    ck_assert(byoc_value_equal(&a, &b));
    ck_assert(byoc_value_equal(&b, &a));
    ck_assert(!byoc_value_equal(&a, &c));
    /* 2^53 + 1 is no double: an int compares exactly, not via rounding. */
    byoc_value big = vint(9007199254740993LL), bigf = vfloat(9007199254740992.0);
    ck_assert(!byoc_value_equal(&big, &bigf));
    byoc_value t = vbool(true), one = vint(1);
    ck_assert(!byoc_value_equal(&t, &one));
    byoc_value s1 = vstr("NCHW"), s2 = vstr("NCHW"), s3 = vstr("NHWC");
    ck_assert(byoc_value_equal(&s1, &s2));
    ck_assert(!byoc_value_equal(&s1, &s3));
    byoc_value n1 = vnone(), n2 = vnone();
    ck_assert(byoc_value_equal(&n1, &n2));
    ck_assert(!byoc_value_equal(&n1, &a));
    byoc_value d1 = vdt(BYOC_DT_INT8), d2 = vdt(BYOC_DT_UINT8);
    ck_assert(!byoc_value_equal(&d1, &d2));
    byoc_value v1 = vver(BYOC_VERSION(8, 6, 1)), v2 = vver(BYOC_VERSION(8, 6, 1));
    ck_assert(byoc_value_equal(&v1, &v2));

    byoc_value i12[] = {vint(1), vint(2)}, f12[] = {vfloat(1.0), vfloat(2.0)};
    byoc_value i13[] = {vint(1), vint(3)};
    byoc_value l1 = vlist(i12, 2), l2 = vlist(f12, 2), l3 = vlist(i13, 2), l4 = vlist(i12, 1);
    ck_assert(byoc_value_equal(&l1, &l2));
    ck_assert(!byoc_value_equal(&l1, &l3));
    ck_assert(!byoc_value_equal(&l1, &l4));
    byoc_value e1 = vlist(NULL, 0), e2 = vlist(NULL, 0);
    ck_assert(byoc_value_equal(&e1, &e2));
}
END_TEST

START_TEST(conformance)
{
    byoc_type_desc tint = ty(BYOC_V_INT, 0, 0), tfloat = ty(BYOC_V_FLOAT, 0, 0);
    byoc_type_desc tints = ty(BYOC_V_INT, 1, 0), tintsopt = ty(BYOC_V_INT, 1, 1);
    byoc_type_desc tgrid = ty(BYOC_V_INT, 2, 0);
    byoc_value i = vint(2), f = vfloat(2.5), n = vnone(), s = vstr("x");
    ck_assert(byoc_value_conforms(&i, &tint));
    ck_assert(byoc_value_conforms(&i, &tfloat));    /* ints are floats */
    ck_assert(!byoc_value_conforms(&f, &tint));
    ck_assert(!byoc_value_conforms(&s, &tint));
    ck_assert(!byoc_value_conforms(&n, &tints));
    ck_assert(byoc_value_conforms(&n, &tintsopt));

    byoc_value items[] = {vint(1), vint(2)}, mixed[] = {vint(1), vfloat(2.0)};
    byoc_value l = vlist(items, 2), lm = vlist(mixed, 2), empty = vlist(NULL, 0);
    ck_assert(byoc_value_conforms(&l, &tints));
    ck_assert(!byoc_value_conforms(&lm, &tints));
    ck_assert(!byoc_value_conforms(&l, &tint));      /* depth must match */
    ck_assert(!byoc_value_conforms(&i, &tints));
    ck_assert(!byoc_value_conforms(&l, &tgrid));
    ck_assert(byoc_value_conforms(&empty, &tints));
    ck_assert(byoc_value_conforms(&empty, &tgrid));
    byoc_value rows[] = {vlist(items, 2), vlist(NULL, 0)};
    byoc_value grid = vlist(rows, 2);
    ck_assert(byoc_value_conforms(&grid, &tgrid));
    ck_assert(!byoc_value_conforms(&grid, &tints));

    /* Relay's split: int | int[]. */
    byoc_type_desc split = ty(BYOC_V_INT, 0, 0);
    split.has_alt = 1;
    split.alt_base = BYOC_V_INT;
    split.alt_depth = 1;
    ck_assert(byoc_value_conforms(&i, &split));
    ck_assert(byoc_value_conforms(&l, &split));
    ck_assert(!byoc_value_conforms(&grid, &split));
    ck_assert(!byoc_value_conforms(&n, &split));
    ck_assert(!byoc_value_conforms(NULL, &tint));
}
END_TEST

START_TEST(format_scalars)
{
    char buf[128];
    byoc_value v;
    v = vbool(true);
    ck_assert_str_eq(FMT(buf, &v), "true");
    v = vbool(false);
    ck_assert_str_eq(FMT(buf, &v), "false");
    v = vint(-42);
    ck_assert_str_eq(FMT(buf, &v), "-42");
    v = vint(INT64_MIN);
    ck_assert_str_eq(FMT(buf, &v), "-9223372036854775808");
    v = vnone();
    ck_assert_str_eq(FMT(buf, &v), "None");
    v = vdt(BYOC_DT_FLOAT16);
    ck_assert_str_eq(FMT(buf, &v), "float16");
    v = vdt(BYOC_DT_VOID);
    ck_assert_str_eq(FMT(buf, &v), "\"\"");
    v = vver(BYOC_VERSION(8, 6, 1));
    ck_assert_str_eq(FMT(buf, &v), "8.6.1");
    v = vver(BYOC_VERSION(10, 0, 0));
    ck_assert_str_eq(FMT(buf, &v), "10.0.0");
    v = vstr("a\"b\\c\nd\te");
    ck_assert_str_eq(FMT(buf, &v), "\"a\\\"b\\\\c\\nd\\te\"");
    v = vstr("\001x");
    ck_assert_str_eq(FMT(buf, &v), "\"\\001x\"");
    v = vstr("");
    ck_assert_str_eq(FMT(buf, &v), "\"\"");
}
END_TEST

START_TEST(format_floats)
{
    char buf[64];
    byoc_value v;
    /* Shortest form that reads back, always recognisable as a float. */
    v = vfloat(1.0);
    ck_assert_str_eq(FMT(buf, &v), "1.0");
    v = vfloat(0.1);
    ck_assert_str_eq(FMT(buf, &v), "0.1");
    v = vfloat(-2.5);
    ck_assert_str_eq(FMT(buf, &v), "-2.5");
    v = vfloat(1e100);
    ck_assert_str_eq(FMT(buf, &v), "1e+100");
    v = vfloat(1.95e13);
    ck_assert_str_eq(FMT(buf, &v), "1.95e+13");
    v = vfloat(5e-6);
    ck_assert_str_eq(FMT(buf, &v), "5e-06");
    v = vfloat(123456.0);
    ck_assert_str_eq(FMT(buf, &v), "123456.0");
    v = vfloat(0.0);
    ck_assert_str_eq(FMT(buf, &v), "0.0");
    /* Round trip of values that need all 17 digits. */
    const double hard[] = {1.0 / 3.0, 0.1 + 0.2, 2.0 / 7.0 * 1e-300, 1.7976931348623157e308};
    for (size_t i = 0; i < sizeof hard / sizeof hard[0]; i++) {
        v = vfloat(hard[i]);
        FMT(buf, &v);
        ck_assert_msg(strtod(buf, NULL) == hard[i], "%s does not read back", buf);
        ck_assert_ptr_nonnull(strpbrk(buf, ".e"));
    }
    v = vfloat(1.0 / 3.0);
    ck_assert_str_eq(FMT(buf, &v), "0.3333333333333333");
    v = vfloat(0.1 + 0.2);
    ck_assert_str_eq(FMT(buf, &v), "0.30000000000000004");
}
END_TEST

START_TEST(format_lists_and_types)
{
    char buf[128];
    byoc_value items[] = {vint(1), vint(2)};
    byoc_value v = vlist(items, 2);
    ck_assert_str_eq(FMT(buf, &v), "[1, 2]");
    byoc_value rows[] = {vlist(items, 2), vlist(NULL, 0), vlist(items, 1)};
    v = vlist(rows, 3);
    ck_assert_str_eq(FMT(buf, &v), "[[1, 2], [], [1]]");
    byoc_value mixed[] = {vfloat(1.0), vstr("s"), vdt(BYOC_DT_INT8)};
    v = vlist(mixed, 3);
    ck_assert_str_eq(FMT(buf, &v), "[1.0, \"s\", int8]");

    byoc_type_desc t = ty(BYOC_V_INT, 1, 1);
    byoc_type_format(&t, buf, sizeof buf);
    ck_assert_str_eq(buf, "int[]?");
    t = ty(BYOC_V_INT, 0, 0);
    t.has_alt = 1;
    t.alt_base = BYOC_V_INT;
    t.alt_depth = 1;
    byoc_type_format(&t, buf, sizeof buf);
    ck_assert_str_eq(buf, "int | int[]");
    t.optional = 1;
    byoc_type_format(&t, buf, sizeof buf);
    ck_assert_str_eq(buf, "int | int[]?");
    t = ty(BYOC_V_FLOAT, 2, 0);
    byoc_type_format(&t, buf, sizeof buf);
    ck_assert_str_eq(buf, "float[][]");
    const char *names[] = {"bool", "int", "float", "string", "dtype", "version"};
    for (int k = BYOC_V_BOOL; k <= BYOC_V_VERSION; k++) {
        t = ty(k, 0, 0);
        ck_assert_uint_eq(byoc_type_format(&t, buf, sizeof buf), strlen(names[k - 1]));
        ck_assert_str_eq(buf, names[k - 1]);
    }
}
END_TEST

START_TEST(version_string)
{
    ck_assert_str_eq(byoc_version(), BYOC_VERSION_STRING);
    char buf[32];
    snprintf(buf, sizeof buf, "%d.%d.%d", BYOC_VERSION_MAJOR, BYOC_VERSION_MINOR,
             BYOC_VERSION_PATCH);
    ck_assert_str_eq(byoc_version(), buf);
}
END_TEST

/* ---- Errors ------------------------------------------------------------- */

START_TEST(format_truncates_like_snprintf)
{
    byoc_value items[] = {vint(100), vint(200), vint(300)};
    byoc_value v = vlist(items, 3);
    char buf[6];
    memset(buf, 'x', sizeof buf);
    ck_assert_uint_eq(byoc_value_format(&v, buf, sizeof buf), strlen("[100, 200, 300]"));
    ck_assert_str_eq(buf, "[100,");
    ck_assert_uint_eq(byoc_value_format(&v, NULL, 0), 15);
    char one[1] = {'x'};
    ck_assert_uint_eq(byoc_value_format(&v, one, 1), 15);
    ck_assert_int_eq(one[0], 0);
    byoc_value s = vstr("abcdef");
    char four[4];
    ck_assert_uint_eq(byoc_value_format(&s, four, sizeof four), 8);
    ck_assert_str_eq(four, "\"ab");
    byoc_type_desc t = ty(BYOC_V_VERSION, 2, 1);
    char tb[5];
    ck_assert_uint_eq(byoc_type_format(&t, tb, sizeof tb), strlen("version[][]?"));
    ck_assert_str_eq(tb, "vers");
}
END_TEST

START_TEST(unknown_dtype_names)
{
    ck_assert_int_eq(byoc_dtype_lookup("float"), -1);
    ck_assert_int_eq(byoc_dtype_lookup("Float32"), -1);
    ck_assert_int_eq(byoc_dtype_lookup(NULL), -1);
    ck_assert_str_eq(byoc_dtype_name((byoc_dtype)999), "");
    ck_assert_int_eq(byoc_dtype_bits((byoc_dtype)-1), 0);
}
END_TEST

START_TEST(error_format)
{
    byoc_error e;
    char buf[700];
    byoc_error_clear(&e);
    ck_assert_str_eq(e.msg, "");
    ck_assert_int_eq(e.line, 0);
    snprintf(e.msg, sizeof e.msg, "unknown operator 'nn.conv2'");
    ck_assert_int_eq(byoc_error_format(&e, buf, sizeof buf), 34);
    ck_assert_str_eq(buf, "error: unknown operator 'nn.conv2'");
    snprintf(e.file, sizeof e.file, "mynpu.byoc");
    e.line = 12;
    e.col = 7;
    byoc_error_format(&e, buf, sizeof buf);
    ck_assert_str_eq(buf, "mynpu.byoc:12:7: error: unknown operator 'nn.conv2'");
    e.line = 0;
    e.col = 0;
    byoc_error_format(&e, buf, sizeof buf);
    ck_assert_str_eq(buf, "mynpu.byoc: error: unknown operator 'nn.conv2'");
    char small[8];
    ck_assert_int_eq(byoc_error_format(&e, small, sizeof small),
                     (int)strlen("mynpu.byoc: error: unknown operator 'nn.conv2'"));
    ck_assert_str_eq(small, "mynpu.b");
    byoc_error_clear(&e);
    ck_assert_str_eq(e.file, "");
    byoc_error_clear(NULL);     /* tolerated */
}
END_TEST

static Suite *value_suite(void)
{
    Suite *s = suite_create("value");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, dtype_table);
    tcase_add_test(core, equality);
    tcase_add_test(core, conformance);
    tcase_add_test(core, format_scalars);
    tcase_add_test(core, format_floats);
    tcase_add_test(core, format_lists_and_types);
    tcase_add_test(core, version_string);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_test(errors, format_truncates_like_snprintf);
    tcase_add_test(errors, unknown_dtype_names);
    tcase_add_test(errors, error_format);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(value_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
