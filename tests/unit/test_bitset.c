/* Unit tests of the fixed-size bitsets (runtime/bitset.c): every operation
 * against a plain array of booleans, at sizes around word boundaries where
 * off-by-one errors live, and the internal errors a caller's bug must
 * trigger. */
#include <check.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "bitset.h"

static const size_t sizes[] = { 0, 1, 2, 63, 64, 65, 127, 128, 129, 200 };
#define NSIZES (sizeof sizes / sizeof sizes[0])

static uint64_t rng_state;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A random set and its model; density varies so that empty and full words
 * both occur. */
static void random_set(bx_bitset *s, bool *model, unsigned density)
{
    bx_bitset_clear_all(s);
    for (size_t i = 0; i < s->nbits; i++) {
        model[i] = rnd() % 100 < density;
        if (model[i])
            bx_bitset_set(s, i);
    }
}

static void assert_matches(const bx_bitset *s, const bool *model)
{
    size_t count = 0;
    for (size_t i = 0; i < s->nbits; i++) {
        ck_assert_int_eq(bx_bitset_test(s, i), model[i]);
        count += model[i];
    }
    ck_assert_uint_eq(bx_bitset_count(s), count);
    ck_assert_int_eq(bx_bitset_empty(s), count == 0);
    /* Iteration visits exactly the members, in order. */
    size_t seen = 0, prev = 0;
    for (size_t i = bx_bitset_first(s); i < s->nbits; i = bx_bitset_next(s, i + 1)) {
        ck_assert(model[i]);
        if (seen)
            ck_assert_uint_gt(i, prev);
        prev = i;
        seen++;
    }
    ck_assert_uint_eq(seen, count);
}

START_TEST(set_clear_test)
{
    for (size_t k = 0; k < NSIZES; k++) {
        size_t n = sizes[k];
        uint64_t buf[4] = { ~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0 };
        bx_bitset s;
        bx_bitset_init(&s, n, buf);     /* clears the caller's buffer */
        ck_assert(bx_bitset_empty(&s));
        ck_assert_uint_eq(bx_bitset_first(&s), n);
        for (size_t i = 0; i < n; i += 3)
            bx_bitset_set(&s, i);
        for (size_t i = 0; i < n; i++)
            ck_assert_int_eq(bx_bitset_test(&s, i), i % 3 == 0);
        for (size_t i = 0; i < n; i += 6)
            bx_bitset_clear(&s, i);
        for (size_t i = 0; i < n; i++)
            ck_assert_int_eq(bx_bitset_test(&s, i), i % 3 == 0 && i % 6 != 0);
        ck_assert_uint_eq(bx_bitset_count(&s), n / 6 + (n % 6 > 3));
    }
}
END_TEST

START_TEST(binary_operations_match_a_model)
{
    bx_arena a;
    bx_arena_init(&a);
    rng_state = 0x1234567;
    for (size_t k = 0; k < NSIZES; k++) {
        size_t n = sizes[k];
        bool *ma = calloc(n + 1, 1), *mb = calloc(n + 1, 1), *mr = calloc(n + 1, 1);
        bx_bitset *sa = bx_bitset_new(&a, n), *sb = bx_bitset_new(&a, n);
        bx_bitset *r = bx_bitset_new(&a, n);
        for (int round = 0; round < 20; round++) {
            random_set(sa, ma, (unsigned)(rnd() % 101));
            random_set(sb, mb, (unsigned)(rnd() % 101));
            assert_matches(sa, ma);

            bool inter = false, sub = true, eq = true;
            for (size_t i = 0; i < n; i++) {
                inter |= ma[i] && mb[i];
                sub &= !ma[i] || mb[i];
                eq &= ma[i] == mb[i];
            }
            ck_assert_int_eq(bx_bitset_intersects(sa, sb), inter);
            ck_assert_int_eq(bx_bitset_subset(sa, sb), sub);
            ck_assert_int_eq(bx_bitset_equal(sa, sb), eq);

            bx_bitset_copy(r, sa);
            bx_bitset_union(r, sb);
            for (size_t i = 0; i < n; i++)
                mr[i] = ma[i] || mb[i];
            assert_matches(r, mr);
            ck_assert(bx_bitset_subset(sa, r));
            ck_assert(bx_bitset_subset(sb, r));

            bx_bitset_copy(r, sa);
            bx_bitset_intersect(r, sb);
            for (size_t i = 0; i < n; i++)
                mr[i] = ma[i] && mb[i];
            assert_matches(r, mr);

            bx_bitset_copy(r, sa);
            bx_bitset_andnot(r, sb);
            for (size_t i = 0; i < n; i++)
                mr[i] = ma[i] && !mb[i];
            assert_matches(r, mr);
            ck_assert(!bx_bitset_intersects(r, sb));

            bx_bitset *d = bx_bitset_dup(&a, sa);
            ck_assert(bx_bitset_equal(d, sa));
            ck_assert_uint_eq(bx_bitset_hash(d), bx_bitset_hash(sa));
        }
        free(ma);
        free(mb);
        free(mr);
    }
    bx_arena_free(&a);
}
END_TEST

START_TEST(next_crosses_words)
{
    uint64_t buf[4];
    bx_bitset s;
    bx_bitset_init(&s, 200, buf);
    bx_bitset_set(&s, 0);
    bx_bitset_set(&s, 63);
    bx_bitset_set(&s, 64);
    bx_bitset_set(&s, 199);
    ck_assert_uint_eq(bx_bitset_first(&s), 0);
    ck_assert_uint_eq(bx_bitset_next(&s, 1), 63);
    ck_assert_uint_eq(bx_bitset_next(&s, 64), 64);
    ck_assert_uint_eq(bx_bitset_next(&s, 65), 199);
    ck_assert_uint_eq(bx_bitset_next(&s, 199), 199);
    ck_assert_uint_eq(bx_bitset_next(&s, 200), 200);
    ck_assert_uint_eq(bx_bitset_next(&s, 1000), 200);
}
END_TEST

START_TEST(hash_depends_on_members_only)
{
    /* The same members in sets of different sizes hash alike; different
     * members (almost always) do not. */
    uint64_t b1[1], b2[4], b3[4];
    bx_bitset s1, s2, s3;
    bx_bitset_init(&s1, 10, b1);
    bx_bitset_init(&s2, 250, b2);
    bx_bitset_init(&s3, 250, b3);
    bx_bitset_set(&s1, 3);
    bx_bitset_set(&s2, 3);
    bx_bitset_set(&s3, 3);
    bx_bitset_set(&s3, 130);
    ck_assert_uint_eq(bx_bitset_hash(&s1), bx_bitset_hash(&s2));
    ck_assert_uint_ne(bx_bitset_hash(&s2), bx_bitset_hash(&s3));
    bx_bitset_clear(&s3, 130);
    ck_assert_uint_eq(bx_bitset_hash(&s2), bx_bitset_hash(&s3));
    /* Distinct singletons of one size all hash differently. */
    uint64_t seen[200];
    for (size_t i = 0; i < 200; i++) {
        bx_bitset_clear_all(&s2);
        bx_bitset_set(&s2, i);
        seen[i] = bx_bitset_hash(&s2);
        for (size_t j = 0; j < i; j++)
            ck_assert_uint_ne(seen[i], seen[j]);
    }
}
END_TEST

START_TEST(empty_size)
{
    bx_arena a;
    bx_arena_init(&a);
    bx_bitset *s = bx_bitset_new(&a, 0), *t = bx_bitset_new(&a, 0);
    ck_assert(bx_bitset_empty(s));
    ck_assert(bx_bitset_equal(s, t));
    ck_assert(bx_bitset_subset(s, t));
    ck_assert_uint_eq(bx_bitset_count(s), 0);
    ck_assert_uint_eq(bx_bitset_first(s), 0);
    bx_bitset_union(s, t);
    bx_bitset_copy(s, t);
    bx_arena_free(&a);
}
END_TEST

/* Errors: a caller's bug is an internal error, which aborts. */

START_TEST(set_past_the_end_aborts)
{
    uint64_t buf[2];
    bx_bitset s;
    bx_bitset_init(&s, 65, buf);
    bx_bitset_set(&s, 65);
}
END_TEST

START_TEST(test_past_the_end_aborts)
{
    uint64_t buf[1];
    bx_bitset s;
    bx_bitset_init(&s, 64, buf);
    (void)bx_bitset_test(&s, 64);
}
END_TEST

START_TEST(mixed_sizes_abort)
{
    uint64_t b1[2], b2[2];
    bx_bitset s, t;
    bx_bitset_init(&s, 70, b1);
    bx_bitset_init(&t, 71, b2);
    bx_bitset_union(&s, &t);
}
END_TEST

static Suite *bitset_suite(void)
{
    /* Aborting tests need Check's fork mode (off under valgrind runs). */
    const char *fork_mode = getenv("CK_FORK");
    bool can_fork = !fork_mode || strcmp(fork_mode, "no") != 0;
    Suite *s = suite_create("bitset");
    TCase *core = tcase_create("Core");
    tcase_set_timeout(core, 60);      /* sanitizers and valgrind are slow */
    tcase_add_test(core, set_clear_test);
    tcase_add_test(core, binary_operations_match_a_model);
    tcase_add_test(core, next_crosses_words);
    tcase_add_test(core, hash_depends_on_members_only);
    tcase_add_test(core, empty_size);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    if (can_fork) {
        tcase_add_test_raise_signal(errors, set_past_the_end_aborts, SIGABRT);
        tcase_add_test_raise_signal(errors, test_past_the_end_aborts, SIGABRT);
        tcase_add_test_raise_signal(errors, mixed_sizes_abort, SIGABRT);
    }
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(bitset_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
