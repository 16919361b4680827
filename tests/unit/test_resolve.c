/* Unit tests of name resolution across files: the import search path,
 * cycles, missing files, duplicates and visibility. */
#include "compiler_fixture.h"

static const char *OPS =
    "op nn.relu(x) : elemwise { shape same; flops elemwise; }\n"
    "op add(a, b) : broadcast { shape broadcast; flops elemwise; }\n";

START_TEST(imports_from_own_folder_and_include_dirs)
{
    fixture f;
    fx_init(&f);
    fx_file(&f, "ops.byoc", OPS);
    const char *dev = bx_arena_printf(&f.c.arena, "%s/inc", f.dir);
    ck_assert_int_eq(mkdir(dev, 0700), 0);
    fx_file(&f, "inc/dev.byoc", "device d { bandwidth = 1; }\n");
    const char *main_path = fx_file(&f, "main.byoc",
        "import \"ops.byoc\";\nimport \"dev.byoc\";\ntarget t : d { supports nn.relu; }\n");
    vec_push(&f.c.arena, &f.c.include_dirs, (void *)dev);
    ck_assert_int_eq(resolve(&f.c, main_path), 0);
    ck_assert_int_eq(f.c.all_files.n, 3);
    ck_assert_ptr_nonnull(bx_hash_get(&f.c.ops, "nn.relu"));
    ck_assert_ptr_nonnull(bx_hash_get(&f.c.devices, "d"));
    ck_assert_ptr_nonnull(bx_hash_get(&f.c.devices, "t"));
    ck_assert_str_eq(f.c.main->module, "main");
    ck_assert_int_eq(check(&f.c), 0);
    ck_assert_str_eq(fx_diags(&f), "");
    fx_free(&f);
}
END_TEST

START_TEST(datadir_is_searched_last)
{
    fixture f;
    fx_init(&f);
    const char *data = bx_arena_printf(&f.c.arena, "%s/data", f.dir);
    ck_assert_int_eq(mkdir(data, 0700), 0);
    fx_file(&f, "data/relay.byoc", OPS);
    f.c.datadir = data;
    const char *m = fx_file(&f, "m.byoc", "import \"relay.byoc\";\n");
    ck_assert_int_eq(resolve(&f.c, m), 0);
    ck_assert_ptr_nonnull(bx_hash_get(&f.c.ops, "add"));
    fx_free(&f);
}
END_TEST

START_TEST(shared_import_loaded_once)
{
    fixture f;
    fx_init(&f);
    fx_file(&f, "ops.byoc", OPS);
    fx_file(&f, "a.byoc", "import \"ops.byoc\";\n");
    fx_file(&f, "b.byoc", "import \"ops.byoc\";\n");
    const char *m = fx_file(&f, "m.byoc", "import \"a.byoc\";\nimport \"b.byoc\";\n");
    ck_assert_int_eq(resolve(&f.c, m), 0);
    ck_assert_int_eq(f.c.all_files.n, 4);
    ck_assert_int_eq(f.c.diag.errors, 0);
    fx_free(&f);
}
END_TEST

START_TEST(import_cycle_is_an_error)
{
    fixture f;
    fx_init(&f);
    fx_file(&f, "a.byoc", "import \"b.byoc\";\n");
    fx_file(&f, "b.byoc", "import \"a.byoc\";\n");
    const char *a = fx_file(&f, "m.byoc", "import \"a.byoc\";\n");
    ck_assert_int_ne(resolve(&f.c, a), 0);
    ck_assert_int_eq(f.c.diag.errors, 1);
    ck_assert_ptr_nonnull(strstr(fx_diags(&f), "error: import cycle"));
    fx_free(&f);
}
END_TEST

START_TEST(missing_import_is_an_error)
{
    fixture f;
    fx_init(&f);
    const char *m = fx_file(&f, "m.byoc", "\nimport \"nope.byoc\";\n");
    ck_assert_int_ne(resolve(&f.c, m), 0);
    const char *d = fx_diags(&f);
    ck_assert_ptr_nonnull(strstr(d, "m.byoc:2:8: error: cannot find imported file 'nope.byoc'"));
    fx_free(&f);
}
END_TEST

START_TEST(duplicate_across_files)
{
    fixture f;
    fx_init(&f);
    fx_file(&f, "ops.byoc", OPS);
    const char *m = fx_file(&f, "m.byoc",
        "import \"ops.byoc\";\nop add(a, b) : broadcast { shape broadcast; flops elemwise; }\n");
    ck_assert_int_ne(resolve(&f.c, m), 0);
    const char *d = fx_diags(&f);
    ck_assert_ptr_nonnull(strstr(d, "m.byoc:2:4: error: redefinition of op 'add'"));
    ck_assert_ptr_nonnull(strstr(d, "ops.byoc:2:4: note: previous definition of 'add' is here"));
    fx_free(&f);
}
END_TEST

START_TEST(names_need_an_import)
{
    /* m imports a and b; a uses b's device without importing b. */
    fixture f;
    fx_init(&f);
    fx_file(&f, "b.byoc", "device d { bandwidth = 1; }\n");
    fx_file(&f, "a.byoc", "target t : d { supports *; }\n");
    const char *m = fx_file(&f, "m.byoc", "import \"b.byoc\";\nimport \"a.byoc\";\n");
    ck_assert_int_eq(resolve(&f.c, m), 0);
    ck_assert_int_ne(check(&f.c), 0);
    ck_assert_ptr_nonnull(strstr(fx_diags(&f), "a.byoc:1:12: error: unknown parent 'd' of target 't'"));
    fx_free(&f);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("resolve");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, imports_from_own_folder_and_include_dirs);
    tcase_add_test(core, datadir_is_searched_last);
    tcase_add_test(core, shared_import_loaded_once);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_test(errors, import_cycle_is_an_error);
    tcase_add_test(errors, missing_import_is_an_error);
    tcase_add_test(errors, duplicate_across_files);
    tcase_add_test(errors, names_need_an_import);
    suite_add_tcase(s, errors);
    return s;
}

TEST_MAIN(suite)
