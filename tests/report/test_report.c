/* Unit tests of the report writers (runtime/writers/): golden outputs of
 * the fixture in every format, the text table's shortening and totals,
 * JSON escaping, and the errors - write errors, bad results, results
 * Relay cannot express. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <byoc/byoc.h>

#include "fixture.h"
#include "writers/writers.h"

typedef int (*writer_fn)(const byoc_result *, FILE *, byoc_error *);

static fixture fx;

static void setup(void)
{
    byoc_error err;
    ck_assert_msg(fixture_open(&fx, &err) == 0, "%s", err.msg);
}

static void teardown(void) { fixture_close(&fx); }

/* What a writer writes, NUL-terminated; the caller frees it. */
static char *capture(writer_fn write, const byoc_result *r, int *rc, byoc_error *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    *rc = write(r, f, err);
    fclose(f);
    return text;
}

static char *written(writer_fn write, const byoc_result *r)
{
    byoc_error err;
    int rc;
    char *text = capture(write, r, &rc, &err);
    ck_assert_msg(rc == 0, "%s", err.msg);
    return text;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t len = 0, cap = 0;
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (len + 2 > cap) {
            cap = cap ? 2 * cap : 4096;
            text = realloc(text, cap);
            ck_assert_ptr_nonnull(text);
        }
        text[len++] = (char)c;
    }
    fclose(f);
    if (!text)
        text = calloc(1, 1);
    text[len] = 0;
    return text;
}

/* Compare with tests/report/<name>; BYOC_REGEN=1 rewrites the file. */
static void check_golden(const char *name, const char *got)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", REPORT_GOLDEN_DIR, name);
    if (getenv("BYOC_REGEN")) {
        FILE *f = fopen(path, "wb");
        ck_assert_msg(f != NULL, "cannot write %s", path);
        fputs(got, f);
        fclose(f);
        return;
    }
    char *want = read_file(path);
    ck_assert_msg(want != NULL, "cannot read %s", path);
    ck_assert_msg(strcmp(want, got) == 0, "%s differs; got:\n%s", name, got);
    free(want);
}

static void golden(const char *name, writer_fn write)
{
    char *a = written(write, &fx.r), *b = written(write, &fx.r);
    ck_assert_str_eq(a, b);   /* same result, same bytes */
    check_golden(name, a);
    free(a);
    free(b);
}

START_TEST(golden_text) { golden("fixture.txt.golden", byoc_result_write_text); }
END_TEST

START_TEST(golden_json) { golden("fixture.json.golden", byoc_result_write_json); }
END_TEST

START_TEST(golden_relay) { golden("fixture.relay.golden", byoc_result_write_relay); }
END_TEST

START_TEST(golden_dot) { golden("fixture.dot.golden", byoc_result_write_dot); }
END_TEST

/* Each partition's nodes as a kernel to measure: the weights become
 * parameters, the literal 0.5f stays, several outputs make a tuple. */
START_TEST(golden_kernels)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    for (int p = 0; p < FIXTURE_PARTS; p++) {
        char name[16];
        snprintf(name, sizeof name, "k%d", p);
        ck_assert_int_eq(bx_relay_write_kernel(f, fx.g, fx.parts[p].nodes, fx.parts[p].nnodes,
                                               name), 0);
    }
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "def @k0(%k0_i0: Tensor[(1, 16, 8, 8), float32], "
                                       "%k0_i1: Tensor[(32, 16, 3, 3), float32]"));
    ck_assert_ptr_null(strstr(text, "meta["));
    check_golden("kernels.relay.golden", text);
    free(text);
}
END_TEST

START_TEST(text_lines_have_no_trailing_spaces)
{
    char *text = written(byoc_result_write_text, &fx.r);
    for (char *nl = strchr(text, '\n'); nl; nl = strchr(nl + 1, '\n'))
        ck_assert_msg(nl == text || nl[-1] != ' ', "trailing space before offset %ld",
                      (long)(nl - text));
    /* Timings vary between runs, so the text leaves them out. */
    ck_assert_ptr_null(strstr(text, "0.25"));
    ck_assert_ptr_null(strstr(text, "seconds"));
    free(text);
}
END_TEST

/* A chain of 40 relus split into two interleaved partitions: both the
 * ops and the node names are too long to list. */
START_TEST(text_shortens_long_partitions)
{
    char src[8192];
    size_t len = (size_t)snprintf(src, sizeof src, "#[version = \"0.0.5\"]\n"
                                  "def @main(%%x: Tensor[(4,), float32]) {\n"
                                  "  %%0 = nn.relu(%%x);\n");
    for (int i = 1; i < 40; i++)
        len += (size_t)snprintf(src + len, sizeof src - len, "  %%%d = nn.relu(%%%d);\n", i, i - 1);
    snprintf(src + len, sizeof src - len, "  %%39\n}\n");
    byoc_error err;
    byoc_graph *g = byoc_relay_read_string(fx.reg, src, strlen(src), "chain.relay", &err);
    ck_assert_msg(g != NULL, "%s", err.msg);
    int nodes[2][20], np[41];
    for (int i = 0; i < 40; i++) {
        np[1 + i] = i % 2;
        nodes[i % 2][i / 2] = 1 + i;
    }
    np[0] = -1;
    byoc_partition parts[2] = {
        {.target = fx.targets[2], .nnodes = 20, .nodes = nodes[0], .cost = 1e-6},
        {.target = fx.targets[3], .nnodes = 20, .nodes = nodes[1], .cost = 2e-6},
    };
    byoc_result r = fx.r;
    r.graph = g;
    r.npartitions = 2;
    r.partitions = parts;
    r.node_partition = np;
    char *text = written(byoc_result_write_text, &r);
    ck_assert_ptr_nonnull(strstr(text, "nn.relu+nn.relu+"));
    ck_assert_ptr_nonnull(strstr(text, "...(+"));
    ck_assert_ptr_nonnull(strstr(text, "%0,%2,%4,"));
    for (char *line = text; *line;) {
        char *nl = strchr(line, '\n');
        ck_assert_msg(nl - line < 110, "line too long: %.*s", (int)(nl - line), line);
        line = nl + 1;
    }
    free(text);
    /* Consecutive names compress to a range instead. */
    int all[40];
    for (int i = 0; i < 40; i++)
        all[i] = 1 + i;
    parts[0].nnodes = 40;
    parts[0].nodes = all;
    r.npartitions = 1;
    text = written(byoc_result_write_text, &r);
    ck_assert_ptr_nonnull(strstr(text, "%0..%39"));
    free(text);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(text_totals_follow_the_result)
{
    for (int p = 0; p < FIXTURE_PARTS; p++)
        fx.parts[p].cost_source = BYOC_COST_ANALYTIC;
    fx.r.from_table = fx.r.from_callback = fx.r.unknown = 0;
    fx.r.optimal = false;
    fx.r.budget_hit = true;
    fx.r.lower_bound = 25e-6;   /* cost 31.75e-6: 27% above it at most */
    char *text = written(byoc_result_write_text, &fx.r);
    ck_assert_ptr_nonnull(strstr(text, "search             within 27.0% of optimal (state budget)\n"));
    free(text);
    fx.r.time_hit = true;
    text = written(byoc_result_write_text, &fx.r);
    ck_assert_ptr_nonnull(strstr(text, "search             within 27.0% of optimal (time limit)\n"));
    free(text);
    fx.r.time_hit = false;
    fx.r.lower_bound = 0;       /* nothing proven */
    text = written(byoc_result_write_text, &fx.r);
    ck_assert_ptr_nonnull(strstr(text, "search             not proven optimal (state budget)\n"));
    ck_assert(isinf(byoc_result_gap(&fx.r)));
    ck_assert_ptr_nonnull(strstr(text, "kernels            12\n"));
    ck_assert_ptr_null(strstr(text, "source"));
    free(text);
    fx.r.budget_hit = false;
    fx.parts[0].cost = NAN;
    text = written(byoc_result_write_text, &fx.r);
    ck_assert_ptr_nonnull(strstr(text, "search             not proven optimal\n"));
    ck_assert_ptr_nonnull(strstr(text, "n/a"));
    free(text);
}
END_TEST

START_TEST(json_escapes_strings_and_nulls_non_finite)
{
    byoc_graph_set_source(fx.g, "a\"b\\c\nd\x01\xff\xc3\xa9.relay");
    fx.parts[0].cost = NAN;
    fx.r.cost = INFINITY;
    fx.parts[1].signature = NULL;
    char *text = written(byoc_result_write_json, &fx.r);
    ck_assert_ptr_nonnull(strstr(text, "\"model\": \"a\\\"b\\\\c\\nd\\u0001\\ufffd\xc3\xa9.relay\""));
    ck_assert_ptr_nonnull(strstr(text, "\"cost\": null,\n  \"transfer_cost\": 1.05e-05"));
    ck_assert_ptr_nonnull(strstr(text, "\"cost\": null,\n      \"cost_source\": \"analytic\""));
    ck_assert_ptr_nonnull(strstr(text, "\"signature\": null"));
    free(text);
}
END_TEST

START_TEST(json_numbers_round_trip)
{
    fx.r.cost = 0.1 + 0.2;
    char *text = written(byoc_result_write_json, &fx.r);
    const char *at = strstr(text, "\"cost\": ");
    ck_assert_ptr_nonnull(at);
    ck_assert(strtod(at + 8, NULL) == 0.1 + 0.2);
    free(text);
}
END_TEST

START_TEST(relay_native_partitions_have_no_compiler)
{
    char *text = written(byoc_result_write_relay, &fx.r);
    const char *native = strstr(text, "def @cuda_native_1(");
    ck_assert_ptr_nonnull(native);
    const char *eol = strchr(native, '\n');
    const char *compiler = strstr(native, "Compiler=");
    ck_assert(compiler == NULL || compiler > eol);
    ck_assert_ptr_nonnull(strstr(text, "Compiler=\"cutlass\", Primitive=1, "
                                       "global_symbol=\"cutlass_0\")"));
    /* Functions sorted by name, as TVM prints a module. */
    ck_assert(strstr(text, "def @cpu_native_3") < strstr(text, "def @main"));
    ck_assert(strstr(text, "def @main") < strstr(text, "def @tensorrt_2"));
    free(text);
}
END_TEST

START_TEST(dot_colours_targets_by_position)
{
    char *text = written(byoc_result_write_dot, &fx.r);
    /* cutlass is target 0, tensorrt 1; the native ones grey. */
    ck_assert_ptr_nonnull(strstr(text, "#0 cutlass (gpu)\\n12.500 us\";\n    style=filled;\n"
                                       "    fillcolor=\"#a6cee3\""));
    ck_assert_ptr_nonnull(strstr(text, "#2 tensorrt (gpu)\\n4.000 us\";\n    style=filled;\n"
                                       "    fillcolor=\"#b2df8a\""));
    ck_assert_ptr_nonnull(strstr(text, "#1 cuda_native (gpu)\\n3.250 us\";\n    style=filled;\n"
                                       "    fillcolor=\"#d9d9d9\""));
    free(text);
}
END_TEST

/* ---- errors ------------------------------------------------------------- */

static const writer_fn writers[] = {byoc_result_write_text, byoc_result_write_json,
                                    byoc_result_write_relay, byoc_result_write_dot};

static void fails_with(writer_fn write, const byoc_result *r, const char *want)
{
    byoc_error err;
    int rc;
    char *text = capture(write, r, &rc, &err);
    ck_assert_int_eq(rc, -1);
    ck_assert_msg(strstr(err.msg, want) != NULL, "message '%s' lacks '%s'", err.msg, want);
    free(text);
}

START_TEST(write_error_is_reported)
{
    char path[] = "/tmp/byoc_report_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++) {
        FILE *f = fopen(path, "r");   /* writing a read-only stream fails */
        byoc_error err;
        ck_assert_int_eq(writers[i](&fx.r, f, &err), -1);
        ck_assert_ptr_nonnull(strstr(err.msg, "write error"));
        fclose(f);
    }
    FILE *f = fopen(path, "r");
    ck_assert_int_eq(bx_relay_write_kernel(f, fx.g, fx.parts[0].nodes, 3, "k"), -1);
    fclose(f);
    unlink(path);
}
END_TEST

/* A full disk: the error shows only when the buffer is flushed. */
START_TEST(full_disk_is_reported)
{
    FILE *f = fopen("/dev/full", "w");
    if (!f) {
        fprintf(stderr, "full_disk_is_reported: skipped, no /dev/full\n");
        return;
    }
    byoc_error err;
    ck_assert_int_eq(byoc_result_write_json(&fx.r, f, &err), -1);
    ck_assert_str_eq(err.msg, "cannot write the JSON output: write error");
    fclose(f);
}
END_TEST

START_TEST(nodes_outside_the_graph_are_refused)
{
    fx.pnodes[3][0] = 999;
    for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++)
        fails_with(writers[i], &fx.r, "partition 3 lists node 999");
}
END_TEST

START_TEST(relay_refuses_calls_in_no_partition)
{
    fx.r.npartitions = 3;
    fails_with(byoc_result_write_relay, &fx.r, "call %9 (nn.softmax) is in no partition");
    /* The other formats show such a result as it is. */
    char *text = written(byoc_result_write_text, &fx.r);
    free(text);
}
END_TEST

START_TEST(relay_refuses_overlapping_composites)
{
    /* The silu composite claims %6, which partition 2 holds outside it. */
    byoc_composite both[2] = {fx.comps[1], {"scale", 2, (int[]){fx.pnodes[2][0], fx.pnodes[2][1]}}};
    fx.parts[2].composites = both;
    fx.parts[2].ncomposites = 2;
    fails_with(byoc_result_write_relay, &fx.r, "another composite holds");
}
END_TEST

/* doc/partitioner.md section 4's example: A = {a1, a4} and C = {c2, c3} are both
 * convex, but A needs C's c2 and C needs A's a1. */
START_TEST(relay_refuses_cyclic_partitions)
{
    static const char *src =
        "#[version = \"0.0.5\"]\n"
        "def @main(%x: Tensor[(4,), float32]) {\n"
        "  %0 = nn.relu(%x);\n"
        "  %1 = sigmoid(%x);\n"
        "  %2 = add(%1, %0);\n"
        "  %3 = multiply(%0, %1);\n"
        "  (%2, %3)\n"
        "}\n";
    byoc_error err;
    byoc_graph *g = byoc_relay_read_string(fx.reg, src, strlen(src), "cycle.relay", &err);
    ck_assert_msg(g != NULL, "%s", err.msg);
    int a[2] = {fixture_node(g, "%0"), fixture_node(g, "%3")};
    int c[2] = {fixture_node(g, "%1"), fixture_node(g, "%2")};
    int np[8] = {-1, 0, 1, 1, 0, -1, -1, -1};
    byoc_partition parts[2] = {{.target = fx.targets[2], .nnodes = 2, .nodes = a},
                               {.target = fx.targets[1], .nnodes = 2, .nodes = c}};
    byoc_result r = fx.r;
    r.graph = g;
    r.npartitions = 2;
    r.partitions = parts;
    r.node_partition = np;
    fails_with(byoc_result_write_relay, &r, "no order of them can run");
    byoc_graph_destroy(g);
}
END_TEST

static Suite *report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, golden_text);
    tcase_add_test(core, golden_json);
    tcase_add_test(core, golden_relay);
    tcase_add_test(core, golden_dot);
    tcase_add_test(core, golden_kernels);
    tcase_add_test(core, text_lines_have_no_trailing_spaces);
    tcase_add_test(core, text_shortens_long_partitions);
    tcase_add_test(core, text_totals_follow_the_result);
    tcase_add_test(core, json_escapes_strings_and_nulls_non_finite);
    tcase_add_test(core, json_numbers_round_trip);
    tcase_add_test(core, relay_native_partitions_have_no_compiler);
    tcase_add_test(core, dot_colours_targets_by_position);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("Errors");
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_test(errors, write_error_is_reported);
    tcase_add_test(errors, full_disk_is_reported);
    tcase_add_test(errors, nodes_outside_the_graph_are_refused);
    tcase_add_test(errors, relay_refuses_calls_in_no_partition);
    tcase_add_test(errors, relay_refuses_overlapping_composites);
    tcase_add_test(errors, relay_refuses_cyclic_partitions);
    suite_add_tcase(s, errors);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(report_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
