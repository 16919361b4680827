/* Unit tests of the binary heap (runtime/heap.c): it sorts like a stable
 * sort by key, so equal keys leave in the order they arrived, which is what
 * makes the search reproducible; and interleaved pushes and pops agree with
 * a slow reference. */
#include <check.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"

static uint64_t rng_state;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

START_TEST(empty_heap)
{
    bx_heap *h = bx_heap_create();
    double k = 1;
    uint32_t v = 7;
    ck_assert_uint_eq(bx_heap_size(h), 0);
    ck_assert(!bx_heap_peek(h, &k, &v));
    ck_assert(!bx_heap_pop(h, &k, &v));
    ck_assert(k == 1 && v == 7);        /* untouched */
    bx_heap_destroy(h);
    bx_heap_destroy(NULL);
}
END_TEST

START_TEST(pops_in_key_order)
{
    bx_heap *h = bx_heap_create();
    const double keys[] = { 5, 1, 4, 1.5, 9, 2, 6, 0, -3, INFINITY };
    for (uint32_t i = 0; i < 10; i++)
        bx_heap_push(h, keys[i], i);
    ck_assert_uint_eq(bx_heap_size(h), 10);
    double k, prev = -INFINITY;
    uint32_t v;
    ck_assert(bx_heap_peek(h, &k, &v));
    ck_assert(k == -3 && v == 8);
    ck_assert_uint_eq(bx_heap_size(h), 10);
    for (int i = 0; i < 10; i++) {
        ck_assert(bx_heap_pop(h, &k, &v));
        ck_assert(k >= prev);
        ck_assert(keys[v] == k);
        prev = k;
    }
    ck_assert(isinf(prev));
    ck_assert(!bx_heap_pop(h, NULL, NULL));
    bx_heap_destroy(h);
}
END_TEST

START_TEST(ties_leave_in_arrival_order)
{
    /* Many equal keys among others: payloads of each key come out in the
     * order pushed, whatever shape the heap had. */
    bx_heap *h = bx_heap_create();
    rng_state = 99;
    uint32_t last[4] = { 0, 0, 0, 0 };
    bool any[4] = { false, false, false, false };
    for (uint32_t i = 0; i < 3000; i++)
        bx_heap_push(h, (double)(rnd() % 4), i);
    double k;
    uint32_t v;
    double prev = -1;
    while (bx_heap_pop(h, &k, &v)) {
        int key = (int)k;
        ck_assert(k >= prev);
        prev = k;
        if (any[key])
            ck_assert_uint_gt(v, last[key]);
        any[key] = true;
        last[key] = v;
    }
    bx_heap_destroy(h);
}
END_TEST

START_TEST(agrees_with_a_reference)
{
    /* Interleaved pushes and pops against a linear scan for the least
     * (key, arrival) pair. */
    enum { N = 4000 };
    double *rk = calloc(N, sizeof(double));
    uint32_t *rv = calloc(N, sizeof(uint32_t));
    bool *gone = calloc(N, 1);
    size_t pushed = 0;
    bx_heap *h = bx_heap_create();
    rng_state = 7;
    for (int step = 0; step < 3 * N; step++) {
        bool push = pushed < N && (bx_heap_size(h) == 0 || rnd() % 3 != 0);
        if (push) {
            rk[pushed] = (double)(rnd() % 50) / 4;
            rv[pushed] = (uint32_t)rnd();
            bx_heap_push(h, rk[pushed], rv[pushed]);
            pushed++;
            continue;
        }
        if (bx_heap_size(h) == 0)
            break;
        size_t best = N;
        for (size_t i = 0; i < pushed; i++)
            if (!gone[i] && (best == N || rk[i] < rk[best]))
                best = i;
        double k;
        uint32_t v;
        ck_assert(bx_heap_pop(h, &k, &v));
        ck_assert(k == rk[best]);
        ck_assert_uint_eq(v, rv[best]);
        gone[best] = true;
    }
    bx_heap_clear(h);
    ck_assert_uint_eq(bx_heap_size(h), 0);
    bx_heap_push(h, 1, 1);
    ck_assert_uint_eq(bx_heap_size(h), 1);
    bx_heap_destroy(h);
    free(rk);
    free(rv);
    free(gone);
}
END_TEST

START_TEST(nan_key_aborts)
{
    bx_heap *h = bx_heap_create();
    bx_heap_push(h, NAN, 0);
}
END_TEST

static Suite *heap_suite(void)
{
    const char *fork_mode = getenv("CK_FORK");
    bool can_fork = !fork_mode || strcmp(fork_mode, "no") != 0;
    Suite *s = suite_create("heap");
    TCase *core = tcase_create("Core");
    tcase_set_timeout(core, 60);      /* sanitizers and valgrind are slow */
    tcase_add_test(core, empty_heap);
    tcase_add_test(core, pops_in_key_order);
    tcase_add_test(core, ties_leave_in_arrival_order);
    tcase_add_test(core, agrees_with_a_reference);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    if (can_fork)
        tcase_add_test_raise_signal(errors, nan_key_aborts, SIGABRT);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(heap_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
