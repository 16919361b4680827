/* Shared helpers for the compiler's unit tests: a compilation whose
 * diagnostics go to a memory buffer, and source files written to a
 * temporary folder. */
#ifndef BYOC_TEST_COMPILER_FIXTURE_H
#define BYOC_TEST_COMPILER_FIXTURE_H

#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ast.h"

typedef struct fixture {
    compilation c;
    char *diag_buf;
    size_t diag_len;
    char dir[64];
} fixture;

static inline void fx_init(fixture *f)
{
    memset(f, 0, sizeof *f);
    bx_arena_init(&f->c.arena);
    f->c.diag.out = open_memstream(&f->diag_buf, &f->diag_len);
    bx_hash_init(&f->c.files);
    bx_hash_init(&f->c.ops);
    bx_hash_init(&f->c.devices);
    bx_hash_init(&f->c.targets);
    bx_hash_init(&f->c.externs);
    bx_hash_init(&f->c.lets);
    strcpy(f->dir, "/tmp/byoc-test-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(f->dir));
}

/* The diagnostics printed so far. */
static inline const char *fx_diags(fixture *f)
{
    fflush(f->c.diag.out);
    return f->diag_buf ? f->diag_buf : "";
}

/* Write a file into the fixture's folder; returns its path (arena). */
static inline const char *fx_file(fixture *f, const char *name, const char *text)
{
    const char *path = bx_arena_printf(&f->c.arena, "%s/%s", f->dir, name);
    FILE *o = fopen(path, "w");
    ck_assert_ptr_nonnull(o);
    fputs(text, o);
    fclose(o);
    return path;
}

static inline void fx_free(fixture *f)
{
    fclose(f->c.diag.out);
    free(f->diag_buf);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", f->dir);
    bx_hash_free(&f->c.files);
    bx_hash_free(&f->c.ops);
    bx_hash_free(&f->c.devices);
    bx_hash_free(&f->c.targets);
    bx_hash_free(&f->c.externs);
    bx_hash_free(&f->c.lets);
    bx_arena_free(&f->c.arena);
}

#define TEST_MAIN(make_suite)                                   \
    int main(void)                                              \
    {                                                           \
        SRunner *sr = srunner_create(make_suite());             \
        srunner_run_all(sr, CK_NORMAL);                         \
        int failed = srunner_ntests_failed(sr);                 \
        srunner_free(sr);                                       \
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;            \
    }

#endif
