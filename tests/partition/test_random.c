/* Properties of whole partitionings on random graphs, through the public
 * API: from a Relay text of random elementwise, broadcast, split and
 * concatenate nodes (tuples and projections included, tuples read twice),
 * with random but repeatable kernel costs, every strategy must return a
 * result that passes the checker (byoc_partition_graph runs it), the
 * optimum must cost no more than greedy or any single backend, and the
 * output must be the same bytes on a second run.  This is where the graph
 * meets the search: tuples and projections absorbed by two kernels, or an
 * edge counted twice, would show here (tests/unit/test_search.c checks the
 * search alone against brute force). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

#include "part_spec.h"

#define GRAPHS 300

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A random module of about n calls over (4, 8) tensors. */
static char *random_module(uint64_t seed, int n)
{
    size_t cap = 256 + (size_t)n * 200, len = 0;
    char *t = malloc(cap);
    ck_assert_ptr_nonnull(t);
#define OUT(...) (len += (size_t)snprintf(t + len, cap - len, __VA_ARGS__))
    OUT("#[version = \"0.0.5\"]\n"
        "def @main(%%x: Tensor[(4, 8), float32], %%y: Tensor[(4, 8), float32]) {\n");
    char vals[256][16];
    int nv = 0, k = 0;
    snprintf(vals[nv++], 16, "%%x");
    snprintf(vals[nv++], 16, "%%y");
    static const char *const unary[] = {"nn.relu", "tanh", "sigmoid", "exp"};
    static const char *const binary[] = {"add", "multiply", "subtract"};
    uint64_t s = seed * 2654435761u + 1;
    for (int i = 0; i < n && nv < 250; i++) {
        /* Mostly recent values, so chains and diamonds both appear. */
        const char *a = vals[nv - 1 - (int)(next(&s) % (uint64_t)(nv < 4 ? nv : 4))];
        const char *b = vals[next(&s) % (uint64_t)nv];
        switch (next(&s) % 6) {
        case 0: case 1:
            OUT("  %%%d = %s(%s);\n", k, unary[next(&s) % 4], a);
            snprintf(vals[nv++], 16, "%%%d", k++);
            break;
        case 2: case 3:
            OUT("  %%%d = %s(%s, %s);\n", k, binary[next(&s) % 3], a, b);
            snprintf(vals[nv++], 16, "%%%d", k++);
            break;
        case 4: /* split, both halves, a tuple read by one or two concats */
            OUT("  %%%d = split(%s, indices_or_sections=2, axis=1);\n", k, a);
            OUT("  %%%d = %%%d.0;\n", k + 1, k);
            OUT("  %%%d = %%%d.1;\n", k + 2, k);
            OUT("  %%%d = nn.relu(%%%d);\n", k + 3, k + 2);
            OUT("  %%%d = (%%%d, %%%d);\n", k + 4, k + 3, k + 1);
            OUT("  %%%d = concatenate(%%%d, axis=1);\n", k + 5, k + 4);
            snprintf(vals[nv++], 16, "%%%d", k + 5);
            if (next(&s) % 2) {
                OUT("  %%%d = concatenate(%%%d, axis=1);\n", k + 6, k + 4);
                snprintf(vals[nv++], 16, "%%%d", k + 6);
                k++;
            }
            k += 6;
            break;
        default: /* the same tensor twice in one tuple */
            OUT("  %%%d = (%s, %s);\n", k, a, a);
            OUT("  %%%d = concatenate(%%%d, axis=1);\n", k + 1, k);
            OUT("  %%%d = split(%%%d, indices_or_sections=2, axis=1);\n", k + 2, k + 1);
            OUT("  %%%d = %%%d.1;\n", k + 3, k + 2);
            snprintf(vals[nv++], 16, "%%%d", k + 3);
            k += 4;
            break;
        }
    }
    if (next(&s) % 2)
        OUT("  (%s, %s)\n}\n", vals[nv - 1], vals[nv / 2]);
    else
        OUT("  %s\n}\n", vals[nv - 1]);
#undef OUT
    return t;
}

/* Repeatable costs: a hash of target and signature, 1 to 100 us; now and
 * then a kernel cannot run. */
static double random_cost(const byoc_kernel *k, void *ctx)
{
    (void)ctx;
    uint64_t h = 1469598103934665603ull;
    for (const char *p = k->target->name; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    for (const char *p = k->signature; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    if (h % 17 == 0 && !byoc_target_supports_all(byoc_graph_registry(k->graph), k->target))
        return INFINITY;
    return (1 + (double)(h % 1000) / 10) * 1e-6;
}

static byoc_result *run(const byoc_graph *g, byoc_strategy st, const char *single)
{
    static const char *const targets[] = {"anyt", "lib", "ta", "tc", "native_d2",
                                          "acc_native"};
    byoc_partition_options o;
    byoc_partition_options_init(&o);
    o.targets = targets;
    o.ntargets = 6;
    o.strategy = st;
    o.single = single;
    o.cost_fn = random_cost;
    byoc_error err;
    byoc_result *r = byoc_partition_graph(g, &o, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    return r;
}

static char *json_of(const byoc_result *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    byoc_error err;
    ck_assert_int_eq(byoc_result_write_json(r, f, &err), 0);
    fclose(f);
    return buf;
}

START_TEST(random_graphs)
{
    byoc_registry *reg = byoc_registry_create();
    byoc_error err;
    ck_assert_int_eq(byoc_register_relay(reg, &err), 0);
    ck_assert_int_eq(byoc_register_part_spec(reg, &err), 0);
    for (int i = 0; i < GRAPHS; i++) {
        char *text = random_module((uint64_t)i + 1, 3 + i % 10);
        byoc_graph *g = byoc_relay_read_string(reg, text, strlen(text), "random.relay", &err);
        ck_assert_msg(g != NULL, "graph %d: %s\n%s", i, err.msg, text);
        byoc_result *opt = run(g, BYOC_SEARCH_OPTIMAL, NULL);
        ck_assert_msg(opt->optimal, "graph %d", i);
        byoc_result *greedy = run(g, BYOC_SEARCH_GREEDY, NULL);
        byoc_result *single = run(g, BYOC_SEARCH_SINGLE, "anyt");
        double eps = 1e-12;
        ck_assert_msg(opt->cost <= greedy->cost + eps, "graph %d: optimal %g > greedy %g\n%s", i,
                      opt->cost, greedy->cost, text);
        ck_assert_msg(opt->cost <= single->cost + eps, "graph %d: optimal %g > single %g\n%s",
                      i, opt->cost, single->cost, text);
        /* Same inputs, same bytes. */
        byoc_result *again = run(g, BYOC_SEARCH_OPTIMAL, NULL);
        char *a = json_of(opt), *b = json_of(again);
        ck_assert_msg(strcmp(a, b) == 0, "graph %d: two runs differ", i);
        free(a);
        free(b);
        byoc_result_destroy(again);
        byoc_result_destroy(single);
        byoc_result_destroy(greedy);
        byoc_result_destroy(opt);
        byoc_graph_destroy(g);
        free(text);
    }
    byoc_registry_destroy(reg);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("random partitionings");
    TCase *tc = tcase_create("properties");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_graphs);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
