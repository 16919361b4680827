/* Unit tests of the internal arena and hash table (runtime/arena.c,
 * hash.c), which the compiler and the runtime both build on: zeroed and
 * aligned memory that survives growth, and a table whose iteration order
 * is insertion order however much it grows. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "errfmt.h"
#include "hash.h"

START_TEST(arena_alloc_is_zeroed_and_aligned)
{
    bx_arena a;
    bx_arena_init(&a);
    for (size_t size = 1; size < 300; size += 7) {
        unsigned char *p = bx_arena_alloc(&a, size);
        ck_assert_uint_eq((uintptr_t)p % _Alignof(max_align_t), 0);
        for (size_t i = 0; i < size; i++)
            ck_assert_uint_eq(p[i], 0);
        memset(p, 0xab, size);
    }
    ck_assert_uint_ge(a.total, 300);
    bx_arena_free(&a);
    ck_assert_ptr_null(a.head);
    ck_assert_uint_eq(a.total, 0);
}
END_TEST

START_TEST(arena_keeps_old_blocks_valid)
{
    /* Allocations far beyond the first block, and one larger than any
     * block, leave earlier pointers untouched. */
    bx_arena a;
    bx_arena_init(&a);
    int *first = BX_NEWN(&a, int, 16);
    for (int i = 0; i < 16; i++)
        first[i] = i * i;
    for (int i = 0; i < 1000; i++)
        BX_NEWN(&a, double, 10);
    char *huge = bx_arena_alloc(&a, 1 << 20);
    huge[(1 << 20) - 1] = 'z';
    for (int i = 0; i < 16; i++)
        ck_assert_int_eq(first[i], i * i);
    bx_arena_free(&a);
}
END_TEST

START_TEST(arena_strings)
{
    bx_arena a;
    bx_arena_init(&a);
    char src[] = "nn.conv2d";
    char *s = bx_arena_strdup(&a, src);
    src[0] = 'X';
    ck_assert_str_eq(s, "nn.conv2d");
    ck_assert_str_eq(bx_arena_strndup(&a, "abcdef", 3), "abc");
    ck_assert_str_eq(bx_arena_printf(&a, "%s:%d", "f.byoc", 12), "f.byoc:12");
    int nums[] = {4, 5, 6};
    int *copy = bx_arena_memdup(&a, nums, sizeof nums);
    nums[1] = 0;
    ck_assert_int_eq(copy[1], 5);
    ck_assert_str_eq(bx_arena_strdup(&a, ""), "");
    bx_arena_free(&a);
}
END_TEST

START_TEST(hash_put_get)
{
    bx_hash h;
    bx_hash_init(&h);
    int x = 1, y = 2;
    ck_assert_ptr_null(bx_hash_put(&h, "add", &x));
    ck_assert_ptr_null(bx_hash_put(&h, "nn.relu", &y));
    ck_assert_ptr_eq(bx_hash_get(&h, "add"), &x);
    ck_assert_ptr_eq(bx_hash_get(&h, "nn.relu"), &y);
    ck_assert_uint_eq(h.n, 2);
    /* Replacing returns the old value and keeps the entry's place. */
    ck_assert_ptr_eq(bx_hash_put(&h, "add", &y), &x);
    ck_assert_ptr_eq(bx_hash_get(&h, "add"), &y);
    ck_assert_uint_eq(h.n, 2);
    ck_assert_str_eq(h.entries[0].key, "add");
    bx_hash_free(&h);
    ck_assert_uint_eq(h.n, 0);
}
END_TEST

START_TEST(hash_grows_in_insertion_order)
{
    enum { N = 5000 };
    bx_hash h;
    bx_hash_init(&h);
    char (*keys)[16] = malloc(sizeof(*keys) * N);
    ck_assert_ptr_nonnull(keys);
    /* Reverse numeric order, so that no accident of hashing sorts them. */
    for (int i = 0; i < N; i++) {
        snprintf(keys[i], sizeof keys[i], "k%d", N - i);
        bx_hash_put(&h, keys[i], &keys[i]);
    }
    ck_assert_uint_eq(h.n, N);
    ck_assert_uint_le(h.n * 2, h.cap);
    for (int i = 0; i < N; i++) {
        ck_assert_str_eq(h.entries[i].key, keys[i]);
        ck_assert_ptr_eq(bx_hash_get(&h, keys[i]), &keys[i]);
    }
    bx_hash_free(&h);
    free(keys);
}
END_TEST

START_TEST(hash_str_is_a_function_of_the_bytes)
{
    char a[] = "nn.conv2d", b[] = "nn.conv2d";
    ck_assert(bx_hash_str(a) == bx_hash_str(b));
    ck_assert(bx_hash_str("nn.conv2d") != bx_hash_str("nn.conv3d"));
    ck_assert(bx_hash_str("ab") != bx_hash_str("ba"));
    ck_assert(bx_hash_str("") != bx_hash_str("a"));
}
END_TEST

/* ---- Errors ------------------------------------------------------------- */

START_TEST(hash_missing_keys)
{
    bx_hash h;
    bx_hash_init(&h);
    ck_assert_ptr_null(bx_hash_get(&h, "anything"));   /* empty table */
    int x;
    bx_hash_put(&h, "nn.conv2d", &x);
    ck_assert_ptr_null(bx_hash_get(&h, "nn.conv2"));
    ck_assert_ptr_null(bx_hash_get(&h, "nn.conv2d "));
    ck_assert_ptr_null(bx_hash_get(&h, ""));
    bx_hash_free(&h);
    bx_hash_free(&h);                                  /* twice is harmless */
}
END_TEST

START_TEST(arena_zero_size_and_empty_free)
{
    bx_arena a;
    bx_arena_init(&a);
    bx_arena_free(&a);                                 /* nothing allocated */
    void *p = bx_arena_alloc(&a, 0), *q = bx_arena_alloc(&a, 0);
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_ne(p, q);                            /* distinct objects */
    void *e = bx_arena_memdup(&a, NULL, 0);
    ck_assert_ptr_nonnull(e);
    bx_arena_free(&a);
}
END_TEST

/* The bounded edit distance of "did you mean" agrees with the full one
 * wherever that is within the bound, on random words of a small alphabet
 * (so that near misses, swaps included, are common). */
START_TEST(edit_distance_within_agrees)
{
    ck_assert_int_eq(bx_edit_distance_within("cuda", "cdua", 2), 1);
    ck_assert_int_eq(bx_edit_distance_within("nn.relu", "nn.relux", 1), 1);
    ck_assert_int_eq(bx_edit_distance_within("abc", "xyz", 2), 3);
    ck_assert_int_eq(bx_edit_distance_within("", "ab", 3), 2);
    unsigned seed = 12345;
    char a[12], b[12];
    for (int t = 0; t < 20000; t++) {
        int n = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 10;
        int m = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 10;
        for (int i = 0; i < n; i++)
            a[i] = (char)('a' + ((seed = seed * 1103515245u + 12345u) >> 16) % 3);
        for (int i = 0; i < m; i++)
            b[i] = (char)('a' + ((seed = seed * 1103515245u + 12345u) >> 16) % 3);
        a[n] = b[m] = 0;
        int full = bx_edit_distance(a, b);
        for (int max = 0; max <= 4; max++)
            ck_assert_msg(bx_edit_distance_within(a, b, max) == (full <= max ? full : max + 1),
                          "'%s' '%s' max %d: %d, full %d", a, b, max,
                          bx_edit_distance_within(a, b, max), full);
    }
}
END_TEST

static Suite *arena_hash_suite(void)
{
    Suite *s = suite_create("arena_hash");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, arena_alloc_is_zeroed_and_aligned);
    tcase_add_test(core, arena_keeps_old_blocks_valid);
    tcase_add_test(core, arena_strings);
    tcase_add_test(core, hash_put_get);
    tcase_add_test(core, hash_grows_in_insertion_order);
    tcase_add_test(core, hash_str_is_a_function_of_the_bytes);
    tcase_add_test(core, edit_distance_within_agrees);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_test(errors, hash_missing_keys);
    tcase_add_test(errors, arena_zero_size_and_empty_free);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(arena_hash_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
