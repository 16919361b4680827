/* Unit tests of name resolution across files: the import search path,
 * cycles, missing files, duplicates and visibility; what may be read as a
 * source; the main file from memory. */
#include "compiler_fixture.h"

#include <fcntl.h>

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

START_TEST(main_file_from_memory)
{
    /* The fuzzers' way in: the main file's text in memory, its imports
     * from disk, the generated code to memory. */
    fixture f;
    fx_init(&f);
    fx_file(&f, "ops.byoc", OPS);
    const char *text = "import \"ops.byoc\";\ndevice d { bandwidth = 1; }\n"
                       "target t : d { supports x: nn.relu(y) where rank(y) - 1 > 0; }\n";
    const char *name = bx_arena_printf(&f.c.arena, "%s/mem.byoc", f.dir);
    ck_assert_int_eq(resolve_buffer(&f.c, name, text, strlen(text)), 0);
    ck_assert_int_eq(check(&f.c), 0);
    char *cbuf = NULL, *hbuf = NULL;
    size_t clen = 0, hlen = 0;
    FILE *cf = open_memstream(&cbuf, &clen), *hf = open_memstream(&hbuf, &hlen);
    ck_assert_int_eq(emit_c(&f.c, cf, hf, "mem.h"), 0);
    fclose(cf);
    fclose(hf);
    ck_assert_ptr_nonnull(strstr(cbuf, "int byoc_register_mem("));
    ck_assert_ptr_nonnull(strstr(cbuf, "byoc_register_ops(reg, err)"));
    /* Arithmetic on values known only at run time is checked. */
    ck_assert_ptr_nonnull(strstr(cbuf, "byoc_ev_sub(ev, byoc_ev_rank("));
    ck_assert_str_eq(fx_diags(&f), "");
    free(cbuf);
    free(hbuf);
    fx_free(&f);
}
END_TEST

START_TEST(diamond_imports_are_cheap)
{
    /* d0 imports d1 and e1, which both import d2 and e2, ...: 2^40 paths
     * down from d0, and a search through them for what d0 sees would not
     * end.  d0's target names a device d0 does not see. */
    fixture f;
    fx_init(&f);
    const int n = 40;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 2; k++)
            fx_file(&f, bx_arena_printf(&f.c.arena, "%c%d.byoc", "de"[k], i),
                    bx_arena_printf(&f.c.arena, "import \"d%d.byoc\";\nimport \"e%d.byoc\";\n%s",
                                    i + 1, i + 1, i == 0 && k == 0
                                    ? "target t : xdev { supports *; }\n" : ""));
    }
    fx_file(&f, bx_arena_printf(&f.c.arena, "d%d.byoc", n), "device dev { bandwidth = 1; }\n");
    fx_file(&f, bx_arena_printf(&f.c.arena, "e%d.byoc", n), "\n");
    fx_file(&f, "x.byoc", "device xdev { bandwidth = 1; }\n");
    const char *m = fx_file(&f, "m.byoc", "import \"d0.byoc\";\nimport \"x.byoc\";\n"
                                          "target u : dev { supports *; }\n");
    ck_assert_int_eq(resolve(&f.c, m), 0);
    ck_assert_int_ne(check(&f.c), 0);
    ck_assert_str_eq(strstr(fx_diags(&f), "error:"), "error: unknown parent 'xdev' of target 't'\n");
    fx_free(&f);
}
END_TEST

START_TEST(only_regular_files_are_read)
{
    fixture f;
    fx_init(&f);
    ck_assert_int_eq(mkdir(bx_arena_printf(&f.c.arena, "%s/sub", f.dir), 0700), 0);
    ck_assert_int_eq(mkfifo(bx_arena_printf(&f.c.arena, "%s/p.byoc", f.dir), 0600), 0);
    const char *m = fx_file(&f, "m.byoc", "import \"sub\";\nimport \"p.byoc\";\nimport \"/\";\n");
    ck_assert_int_ne(resolve(&f.c, m), 0);
    const char *d = fx_diags(&f);
    ck_assert_ptr_nonnull(strstr(d, "m.byoc:1:8: error: '"));
    ck_assert_ptr_nonnull(strstr(d, "/sub' is not a regular file\n"));
    ck_assert_ptr_nonnull(strstr(d, "m.byoc:2:8: error: '"));
    ck_assert_ptr_nonnull(strstr(d, "/p.byoc' is not a regular file\n"));
    ck_assert_ptr_nonnull(strstr(d, "m.byoc:3:8: error: '/' is not a regular file\n"));
    ck_assert_int_eq(f.c.diag.errors, 3);
    fx_free(&f);

    /* The main file too, which no import locates. */
    fx_init(&f);
    ck_assert_int_ne(resolve(&f.c, "/"), 0);
    ck_assert_str_eq(fx_diags(&f), "byocc: error: '/' is not a regular file\n");
    fx_free(&f);
}
END_TEST

START_TEST(unreadable_and_oversized_sources)
{
    fixture f;
    fx_init(&f);
    /* /proc/self/mem is a regular file that fails to read. */
    const char *m = fx_file(&f, "m.byoc", "import \"/proc/self/mem\";\n");
    if (access("/proc/self/mem", R_OK) == 0) {
        ck_assert_int_ne(resolve(&f.c, m), 0);
        ck_assert_ptr_nonnull(strstr(fx_diags(&f), "m.byoc:1:8: error: cannot read '/proc/self/mem': "));
    }
    fx_free(&f);

    fx_init(&f);
    const char *big = fx_file(&f, "big.byoc", "");
    int fd = open(big, O_WRONLY);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, (off_t)BYOCC_MAX_FILE_SIZE + 1), 0);
    close(fd);
    m = fx_file(&f, "m.byoc", "import \"big.byoc\";\n");
    ck_assert_int_ne(resolve(&f.c, m), 0);
    ck_assert_ptr_nonnull(strstr(fx_diags(&f), "/big.byoc' is too large (more than 16 MiB)\n"));
    fx_free(&f);
}
END_TEST

START_TEST(imports_nest_at_most_64_deep)
{
    fixture f;
    fx_init(&f);
    for (int i = 0; i < 70; i++)
        fx_file(&f, bx_arena_printf(&f.c.arena, "f%d.byoc", i),
                bx_arena_printf(&f.c.arena, "import \"f%d.byoc\";\n", i + 1));
    fx_file(&f, "f70.byoc", "\n");
    ck_assert_int_ne(resolve(&f.c, bx_arena_printf(&f.c.arena, "%s/f0.byoc", f.dir)), 0);
    ck_assert_int_eq(f.c.diag.errors, 1);
    ck_assert_ptr_nonnull(strstr(fx_diags(&f), "f63.byoc:1:8: error: imports nested too deeply "
                                              "(more than 64 files)\n"));
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
    tcase_add_test(core, main_file_from_memory);
    tcase_add_test(core, diamond_imports_are_cheap);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_test(errors, import_cycle_is_an_error);
    tcase_add_test(errors, missing_import_is_an_error);
    tcase_add_test(errors, duplicate_across_files);
    tcase_add_test(errors, names_need_an_import);
    tcase_add_test(errors, only_regular_files_are_read);
    tcase_add_test(errors, unreadable_and_oversized_sources);
    tcase_add_test(errors, imports_nest_at_most_64_deep);
    suite_add_tcase(s, errors);
    return s;
}

TEST_MAIN(suite)
