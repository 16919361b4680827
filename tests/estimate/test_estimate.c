/* Tests of kernel costs: canonical signatures, the cost table's reader,
 * and the estimator's order (callback, table through parent targets,
 * analytic) and cache.  Targets come from estimate_spec.byoc, compiled by
 * byocc; graphs from Relay text. */
#define _POSIX_C_SOURCE 200809L   /* mkstemp */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <byoc/byoc.h>

#include "cost.h"
#include "estimate.h"
#include "estimate_spec.h"
#include "strbuf.h"

static byoc_registry *reg;
static bx_arena arena;

static void setup(void)
{
    byoc_error err;
    reg = byoc_registry_create();
    ck_assert_int_eq(byoc_register_estimate_spec(reg, &err), 0);
    bx_arena_init(&arena);
}

static void teardown(void)
{
    bx_arena_free(&arena);
    byoc_registry_destroy(reg);
}

static byoc_graph *relay(const char *body)
{
    char text[4096];
    snprintf(text, sizeof text, "#[version = \"0.0.5\"]\n%s", body);
    byoc_error err;
    byoc_graph *g = byoc_relay_read_string(reg, text, strlen(text), "t.relay", &err);
    ck_assert_msg(g != NULL, "%d:%d: %s", err.line, err.col, err.msg);
    return g;
}

static const char *sig(const byoc_graph *g, const int *nodes, int n, const char *pattern)
{
    return bx_kernel_signature(&arena, g, nodes, n, pattern);
}

#define SIG(g, pattern, ...) \
    sig((g), (const int[]){__VA_ARGS__}, (int)(sizeof((int[]){__VA_ARGS__}) / sizeof(int)), \
        (pattern))

/* Two dense+relu blocks: nodes {0,1} and {3,4} are the same kernel. */
static const char *TWO_BLOCKS =
    "def @main(%x: Tensor[(1, 16), float32], %y: Tensor[(1, 16), float32]) {\n"
    "  %0 = nn.dense(%x, meta[relay.Constant][0] /* ty=Tensor[(16, 16), float32] */, units=16);\n"
    "  %1 = nn.relu(%0);\n"
    "  %2 = add(%1, %y);\n"
    "  %3 = nn.dense(%2, meta[relay.Constant][1] /* ty=Tensor[(16, 16), float32] */, units=16);\n"
    "  %4 = nn.relu(%3);\n"
    "  add(%4, %x)\n"
    "}\n";

/* Node ids in TWO_BLOCKS: inputs x=0 y=1, const 2, %0=3, %1=4, %2=5,
 * const 6, %3=7, %4=8, result 9. */
START_TEST(sig_same_kernel_anywhere)
{
    byoc_graph *g = relay(TWO_BLOCKS);
    const char *a = SIG(g, NULL, 3, 4);
    const char *b = SIG(g, NULL, 7, 8);
    ck_assert_str_eq(a, "nn.relu(nn.dense{units=16}(%0:float32[1,16],const:float32[16,16])"
                        ":float32[1,16]):float32[1,16]");
    ck_assert_str_eq(a, b);
    ck_assert_str_eq(SIG(g, "dense_relu", 3, 4), "dense_relu|nn.relu(nn.dense{units=16}("
                     "%0:float32[1,16],const:float32[16,16]):float32[1,16]):float32[1,16]");
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(sig_differs)
{
    byoc_graph *g = relay(
        "def @main(%x: Tensor[(1, 16), float32], %h: Tensor[(1, 16), float16],"
        " %w: Tensor[(2, 16), float32]) {\n"
        "  %0 = nn.relu(%x);\n"                        /* 3 */
        "  %1 = nn.relu(%h);\n"                        /* 4: dtype */
        "  %2 = nn.relu(%w);\n"                        /* 5: shape */
        "  %3 = nn.softmax(%x);\n"                     /* 6: op */
        "  %4 = nn.softmax(%x, axis=0);\n"             /* 7: attribute */
        "  %5 = nn.softmax(%x, axis=-1);\n"            /* 8: the default */
        "  %6 = add(%x, %x);\n"                        /* 9: one input twice */
        "  %7 = add(%x, %0);\n"                        /* 10: two inputs */
        "  %8 = (%0, %1, %2, %3, %4, %5, %6, %7);\n"
        "  %8\n"
        "}\n");
    const char *s[] = {SIG(g, NULL, 3), SIG(g, NULL, 4), SIG(g, NULL, 5), SIG(g, NULL, 6),
                       SIG(g, NULL, 7), SIG(g, NULL, 9), SIG(g, NULL, 10)};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        for (size_t j = 0; j < i; j++)
            ck_assert_msg(strcmp(s[i], s[j]), "%zu and %zu: %s", i, j, s[i]);
    ck_assert_str_eq(s[1], "nn.relu(%0:float16[1,16]):float16[1,16]");
    ck_assert_str_eq(s[4], "nn.softmax{axis=0}(%0:float32[1,16]):float32[1,16]");
    /* An attribute written with its default value prints as absent. */
    ck_assert_str_eq(SIG(g, NULL, 8), s[3]);
    ck_assert_str_eq(s[5], "add(%0:float32[1,16],%0):float32[1,16]");
    ck_assert_str_eq(s[6], "add(%0:float32[1,16],%1:float32[1,16]):float32[1,16]");
    /* Structure: relu inside the kernel is not relu as an input. */
    ck_assert_str_eq(SIG(g, NULL, 3, 10),
                     "add(%0:float32[1,16],$0=nn.relu(%0):float32[1,16]):float32[1,16];$0");
    byoc_graph_destroy(g);
}
END_TEST

/* Inputs are numbered by the traversal, not by node id or name. */
START_TEST(sig_inputs_canonical)
{
    byoc_graph *g = relay(
        "def @main(%b: Tensor[(4), float32], %a: Tensor[(4), float16]) {\n"
        "  %0 = cast(%a, dtype=\"float32\");\n"   /* 2 */
        "  %1 = subtract(%0, %b);\n"              /* 3 */
        "  %2 = cast(%a, dtype=\"float32\");\n"   /* 4 */
        "  subtract(%b, %2)\n"                    /* 5 */
        "}\n");
    ck_assert_str_eq(SIG(g, NULL, 2, 3),
                     "subtract(cast{dtype=float32}(%0:float16[4]):float32[4],%1:float32[4])"
                     ":float32[4]");
    ck_assert_str_eq(SIG(g, NULL, 4, 5),
                     "subtract(%0:float32[4],cast{dtype=float32}(%1:float16[4]):float32[4])"
                     ":float32[4]");
    /* The same subtraction with its inputs' names swapped. */
    byoc_graph *h = relay(
        "def @main(%a: Tensor[(4), float32], %b: Tensor[(4), float16]) {\n"
        "  %0 = cast(%b, dtype=\"float32\");\n"
        "  subtract(%0, %a)\n"
        "}\n");
    ck_assert_str_eq(SIG(h, NULL, 2, 3), SIG(g, NULL, 2, 3));
    byoc_graph_destroy(h);
    byoc_graph_destroy(g);
}
END_TEST

/* A member used twice prints once and is referred to by its label. */
START_TEST(sig_dag)
{
    byoc_graph *g = relay(
        "def @main(%x: Tensor[(2, 8), float32]) {\n"
        "  %0 = nn.dense(%x, meta[relay.Constant][0] /* ty=Tensor[(8, 8), float32] */);\n"
        "  %1 = sigmoid(%0);\n"
        "  multiply(%0, %1)\n"
        "}\n");
    ck_assert_str_eq(SIG(g, NULL, 2, 3, 4),
                     "multiply($0=nn.dense(%0:float32[2,8],const:float32[8,8]):float32[2,8],"
                     "sigmoid($0):float32[2,8]):float32[2,8]");
    byoc_graph_destroy(g);
}
END_TEST

/* Outputs are ordered by structure, not by node id. */
START_TEST(sig_multi_output)
{
    byoc_graph *g = relay(
        "def @main(%x: Tensor[(4), float32]) {\n"
        "  %0 = nn.relu(%x);\n"
        "  %1 = sigmoid(%x);\n"
        "  (%0, %1)\n"
        "}\n");
    byoc_graph *h = relay(
        "def @main(%x: Tensor[(4), float32]) {\n"
        "  %0 = sigmoid(%x);\n"
        "  %1 = nn.relu(%x);\n"
        "  (%1, %0)\n"
        "}\n");
    const char *a = SIG(g, NULL, 1, 2), *b = SIG(h, NULL, 1, 2);
    ck_assert_str_eq(a, b);
    ck_assert_ptr_nonnull(strchr(a, ';'));
    ck_assert_ptr_nonnull(strstr(a, "%0:float32[4]"));
    /* A member also used outside is an output of its own. */
    byoc_graph *e = relay(
        "def @main(%x: Tensor[(4), float32]) {\n"
        "  %0 = nn.relu(%x);\n"
        "  %1 = sigmoid(%0);\n"
        "  (%0, %1)\n"
        "}\n");
    const char *s = SIG(e, NULL, 1, 2);
    ck_assert_msg(!strcmp(s, "$0=nn.relu(%0:float32[4]):float32[4];sigmoid($0):float32[4]")
                      || !strcmp(s, "sigmoid($0=nn.relu(%0:float32[4]):float32[4]):float32[4];$0"),
                  "%s", s);
    byoc_graph_destroy(e);
    byoc_graph_destroy(h);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(sig_tuples_consts_opaque)
{
    byoc_graph *g = relay(
        "def @main(%x: Tensor[(1, 2, 4, 4), float32], %m: Tensor[(2), float32]) {\n"
        "  %0 = nn.batch_norm(%x, %m, %m, %m, %m);\n"   /* 2 */
        "  %1 = %0.0;\n"                                /* 3 */
        "  %2 = multiply(%1, 0.5f);\n"                  /* const 4, call 5 */
        "  %3 = (%2, %x);\n"                            /* 6 */
        "  concatenate(%3, axis=1)\n"                   /* 7 */
        "}\n");
    ck_assert_str_eq(SIG(g, NULL, 2, 3),
                     "nn.batch_norm(%0:float32[1,2,4,4],%1:float32[2],%1,%1,%1)"
                     ":(float32[1,2,4,4],float32[2],float32[2]).0");
    ck_assert_str_eq(SIG(g, NULL, 4, 5, 6, 7),
                     "concatenate{axis=1}((multiply(%0:float32[1,2,4,4],const:float32[]=0.5)"
                     ":float32[1,2,4,4],%1:float32[1,2,4,4])):float32[1,4,4,4]");
    byoc_graph_destroy(g);

    /* An opaque call prints its op name as it came. */
    g = byoc_graph_create(reg);
    byoc_error err;
    byoc_tensor_type t = {.dtype = BYOC_DT_FLOAT32, .rank = 1, .dims = {3}};
    int x = byoc_graph_add_input(g, "x", &t, &err);
    int o = byoc_graph_add_opaque(g, "NonMaxSuppression", &x, 1, &err);
    ck_assert_int_ge(o, 0);
    ck_assert_str_eq(SIG(g, NULL, o), "NonMaxSuppression(%0:float32[3]):?");
    byoc_graph_set_type(g, o, &t);
    ck_assert_str_eq(SIG(g, NULL, o), "NonMaxSuppression(%0:float32[3]):float32[3]");
    byoc_graph_destroy(g);
}
END_TEST

/* The estimator builds the same text as bx_kernel_signature, with its
 * reused buffers, for many kernels in a row. */
START_TEST(sig_estimator_agrees)
{
    byoc_graph *g = relay(TWO_BLOCKS);
    bx_estimator *e = bx_estimator_create(g, NULL, NULL, NULL);
    const byoc_target_decl *t = byoc_registry_target(reg, "native");
    const int kernels[][3] = {{3, 4, 5}, {4}, {3, 4}, {5, 7, 8}, {7, 8, 9}, {3, 4, 5}};
    const int sizes[] = {3, 1, 2, 3, 3, 3};
    for (int i = 0; i < 6; i++) {
        bx_estimate r = bx_estimate_kernel(e, t, NULL, kernels[i], sizes[i], NULL, 0);
        ck_assert_str_eq(r.signature, sig(g, kernels[i], sizes[i], NULL));
    }
    /* {7,8,9} is {3,4,5} again: dense, relu, add of an input. */
    ck_assert_uint_eq(bx_estimator_get_stats(e).kernels, 4);
    bx_estimator_destroy(e);
    byoc_graph_destroy(g);
}
END_TEST

/* ---- the table ---------------------------------------------------------- */

static byoc_cost_table *table(const char *text)
{
    byoc_error err;
    byoc_cost_table *t = byoc_cost_table_read_string(text, strlen(text), "c.csv", &err);
    ck_assert_msg(t != NULL, "%d:%d: %s", err.line, err.col, err.msg);
    return t;
}

static void table_fails(const char *text, const char *want)
{
    byoc_error err;
    byoc_cost_table *t = byoc_cost_table_read_string(text, strlen(text), "c.csv", &err);
    ck_assert_ptr_null(t);
    char buf[1024];
    byoc_error_format(&err, buf, sizeof buf);
    ck_assert_str_eq(buf, want);
}

/* BOM, header, comments, blank lines, CRLF, quotes, spaces, inf, and
 * an equal repeat, which is not a conflict. */
START_TEST(table_good)
{
    byoc_cost_table *t = table(
        "\xEF\xBB\xBFtarget,signature,seconds\r\n"
        "# measured on the bench machine\r\n"
        "\r\n"
        "base,\"nn.relu(%0:float32[4]):float32[4]\",1.5e-6\r\n"
        "  base , \"add(%0:float32[4],%0):float32[4]\" , 2\r\n"
        "base,\"q|say \"\"hi\"\", twice\",inf\n"
        "base,plain,.25\n"
        "base,plain,0.25\n"                       /* an equal repeat */
        "native,\"two\nlines\",INF\n"
        "   \t\n"
        "child,x,0");
    ck_assert_uint_eq(byoc_cost_table_size(t), 6);
    const struct { const char *target, *sig; double s; } want[] = {
        {"base", "nn.relu(%0:float32[4]):float32[4]", 1.5e-6},
        {"base", "add(%0:float32[4],%0):float32[4]", 2},
        {"base", "q|say \"hi\", twice", INFINITY},
        {"base", "plain", 0.25},
        {"native", "two\nlines", INFINITY},
        {"child", "x", 0},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        double s = -1;
        ck_assert_msg(bx_cost_table_lookup(t, want[i].target, want[i].sig, &s), "%zu", i);
        ck_assert_double_eq(s, want[i].s);
    }
    double s;
    ck_assert(!bx_cost_table_lookup(t, "child", "plain", &s));
    ck_assert(!bx_cost_table_lookup(t, "base", "x", &s));
    byoc_cost_table_destroy(t);
    ck_assert_uint_eq(byoc_cost_table_size(NULL), 0);
    byoc_cost_table_destroy(NULL);
}
END_TEST

START_TEST(table_errors)
{
    table_fails("base,sig\n", "c.csv:1:9: error: expected 3 fields (target,signature,seconds), "
                              "found 2");
    table_fails("# c\nbase,sig,1,2\n", "c.csv:2:12: error: expected 3 fields "
                                       "(target,signature,seconds), found 4");
    table_fails("base,sig,fast\n", "c.csv:1:10: error: bad time 'fast': not a number "
                                   "(expected seconds, a non-negative decimal or inf)");
    table_fails("base,sig,1e\n", "c.csv:1:10: error: bad time '1e': not a number "
                                 "(expected seconds, a non-negative decimal or inf)");
    table_fails("base,sig,nan\n", "c.csv:1:10: error: bad time 'nan': not a number "
                                  "(expected seconds, a non-negative decimal or inf)");
    table_fails("base,sig, -1.5\n", "c.csv:1:11: error: bad time '-1.5': negative "
                                    "(expected seconds, a non-negative decimal or inf)");
    table_fails("base,sig,1e999\n", "c.csv:1:10: error: bad time '1e999': out of range "
                                    "(expected seconds, a non-negative decimal or inf)");
    table_fails("base,\"sig,1\n\n", "c.csv:1:6: error: unterminated quoted field");
    table_fails("base,\"sig\"x,1\n", "c.csv:1:11: error: unexpected 'x' after a closing quote");
    table_fails("base,s\"g,1\n", "c.csv:1:7: error: quote inside an unquoted field (quote the "
                                 "whole field, writing \"\" for a quote)");
    table_fails("base,,1\n", "c.csv:1:6: error: empty signature");
    table_fails(",sig,1\n", "c.csv:1:1: error: empty target");
    table_fails("base,sig,1\r\nbase,other,2\r\nbase,sig,1.0\r\nbase,sig,3\r\n",
                "c.csv:4:10: error: conflicting time '3' for target 'base' and this "
                "signature; it was '1' at c.csv:1:10");
    /* A header is only a header on the first line. */
    table_fails("base,sig,1\ntarget,signature,seconds\n",
                "c.csv:2:18: error: bad time 'seconds': not a number "
                "(expected seconds, a non-negative decimal or inf)");
    /* Lines are counted inside quoted fields. */
    table_fails("base,\"a\nb\",1\nbase,x,y\n", "c.csv:3:8: error: bad time 'y': not a number "
                                              "(expected seconds, a non-negative decimal or inf)");
}
END_TEST

START_TEST(table_file)
{
    char path[] = "/tmp/byoc-cost-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *text = "target,signature,seconds\nbase,k,3e-6\nbase,k,4e-6\n";
    ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
    close(fd);
    byoc_error err;
    ck_assert_ptr_null(byoc_cost_table_read(path, &err));
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 8);
    ck_assert_str_eq(err.file, path);
    unlink(path);
    ck_assert_ptr_null(byoc_cost_table_read(path, &err));
    char buf[1024], want[1024];
    byoc_error_format(&err, buf, sizeof buf);
    snprintf(want, sizeof want, "%s: error: cannot open: No such file or directory", path);
    ck_assert_str_eq(buf, want);
}
END_TEST

/* ---- the estimator -------------------------------------------------------- */

typedef struct probe {
    int calls;
    double answer;
    const char *want_target;   /* answer only for this target; NULL: all */
    byoc_kernel last;
} probe;

static double probe_fn(const byoc_kernel *k, void *ctx)
{
    probe *p = ctx;
    p->calls++;
    p->last = *k;
    if (p->want_target && strcmp(k->target->name, p->want_target))
        return -1;
    return p->answer;
}

/* A CSV line giving sig on target the time s, quoted as the format asks. */
static void table_line(bx_strbuf *b, const char *target, const char *s, const char *seconds)
{
    bx_sb_printf(b, "%s,\"", target);
    for (; *s; s++)
        bx_sb_printf(b, *s == '"' ? "\"\"" : "%c", *s);
    bx_sb_printf(b, "\",%s\n", seconds);
}

static const int RELU_K[] = {4}, DENSE_RELU_K[] = {3, 4};

START_TEST(est_table_through_parents)
{
    byoc_graph *g = relay(TWO_BLOCKS);
    const char *s_relu = sig(g, RELU_K, 1, NULL);
    const char *s_dr = sig(g, DENSE_RELU_K, 2, NULL);
    bx_strbuf b = {0};
    table_line(&b, "base", s_relu, "1e-3");
    table_line(&b, "base", s_dr, "2e-3");
    table_line(&b, "child", s_dr, "5e-4");
    byoc_cost_table *t = table(b.s);
    bx_sb_free(&b);
    bx_estimator *e = bx_estimator_create(g, t, NULL, NULL);
    const byoc_target_decl *base = byoc_registry_target(reg, "base"),
                           *child = byoc_registry_target(reg, "child"),
                           *native = byoc_registry_target(reg, "native");
    bx_estimate r = bx_estimate_kernel(e, child, NULL, RELU_K, 1, NULL, 0);
    ck_assert_int_eq(r.source, BYOC_COST_TABLE);
    ck_assert_double_eq(r.seconds, 1e-3);   /* the parent's */
    r = bx_estimate_kernel(e, child, NULL, DENSE_RELU_K, 2, NULL, 0);
    ck_assert_double_eq(r.seconds, 5e-4);   /* its own */
    r = bx_estimate_kernel(e, base, NULL, DENSE_RELU_K, 2, NULL, 0);
    ck_assert_double_eq(r.seconds, 2e-3);
    r = bx_estimate_kernel(e, native, NULL, RELU_K, 1, NULL, 0);
    ck_assert_int_eq(r.source, BYOC_COST_ANALYTIC);
    /* A pattern name makes it another kernel. */
    r = bx_estimate_kernel(e, base, NULL, RELU_K, 1, "relu", 0);
    ck_assert_int_eq(r.source, BYOC_COST_ANALYTIC);
    bx_estimator_stats st = bx_estimator_get_stats(e);
    ck_assert_uint_eq(st.kernels, 5);
    ck_assert_uint_eq(st.from_table, 3);
    ck_assert_uint_eq(st.analytic, 2);
    bx_estimator_destroy(e);
    byoc_cost_table_destroy(t);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(est_callback_first)
{
    byoc_graph *g = relay(TWO_BLOCKS);
    bx_strbuf b = {0};
    table_line(&b, "base", sig(g, RELU_K, 1, NULL), "1e-3");
    byoc_cost_table *t = table(b.s);
    bx_sb_free(&b);
    const byoc_target_decl *base = byoc_registry_target(reg, "base"),
                           *native = byoc_registry_target(reg, "native");
    probe p = {.answer = 7e-6, .want_target = "base"};
    bx_estimator *e = bx_estimator_create(g, t, probe_fn, &p);
    bx_estimate r = bx_estimate_kernel(e, base, NULL, RELU_K, 1, NULL, 0.25);
    ck_assert_int_eq(r.source, BYOC_COST_CALLBACK);
    ck_assert_double_eq(r.seconds, 7e-6);
    /* The callback saw the whole kernel. */
    ck_assert_ptr_eq(p.last.graph, g);
    ck_assert_ptr_eq(p.last.target, base);
    ck_assert_ptr_eq(p.last.device, byoc_registry_device(reg, "dev"));
    ck_assert_int_eq(p.last.nnodes, 1);
    ck_assert_int_eq(p.last.nodes[0], 4);
    ck_assert_ptr_null(p.last.pattern);
    ck_assert_double_eq(p.last.efficiency, 0.25);
    ck_assert_str_eq(p.last.signature, r.signature);
    /* "Don't know" (negative) falls through to the analytic model. */
    r = bx_estimate_kernel(e, native, NULL, RELU_K, 1, NULL, 0);
    ck_assert_int_eq(r.source, BYOC_COST_ANALYTIC);
    ck_assert_double_eq(p.last.efficiency, 0.5);   /* the target's */
    bx_estimator_destroy(e);

    /* NaN is "don't know" too; the table answers. */
    p = (probe){.answer = NAN};
    e = bx_estimator_create(g, t, probe_fn, &p);
    r = bx_estimate_kernel(e, base, NULL, RELU_K, 1, NULL, 0);
    ck_assert_int_eq(r.source, BYOC_COST_TABLE);
    ck_assert_double_eq(r.seconds, 1e-3);
    ck_assert_int_eq(p.calls, 1);
    bx_estimator_destroy(e);
    byoc_cost_table_destroy(t);
    byoc_graph_destroy(g);
}
END_TEST

/* +inf (cannot run) is an answer; unknown is not having one. */
START_TEST(est_inf_and_unknown)
{
    byoc_graph *g = relay(TWO_BLOCKS);
    bx_strbuf b = {0};
    table_line(&b, "base", sig(g, RELU_K, 1, NULL), "inf");
    byoc_cost_table *t = table(b.s);
    bx_sb_free(&b);
    const byoc_target_decl *base = byoc_registry_target(reg, "base");
    probe p = {.answer = INFINITY, .want_target = "native"};
    bx_estimator *e = bx_estimator_create(g, t, probe_fn, &p);
    bx_estimate r = bx_estimate_kernel(e, base, NULL, RELU_K, 1, NULL, 0);
    ck_assert_int_eq(r.source, BYOC_COST_TABLE);
    ck_assert(isinf(r.seconds) && r.seconds > 0);
    r = bx_estimate_kernel(e, byoc_registry_target(reg, "native"), NULL, RELU_K, 1, NULL, 0);
    ck_assert_int_eq(r.source, BYOC_COST_CALLBACK);
    ck_assert(isinf(r.seconds));
    bx_estimator_destroy(e);
    byoc_cost_table_destroy(t);
    byoc_graph_destroy(g);

    /* An opaque call has no FLOP count: unknown, charged a launch. */
    g = byoc_graph_create(reg);
    byoc_error err;
    byoc_tensor_type ty = {.dtype = BYOC_DT_FLOAT32, .rank = 1, .dims = {3}};
    int x = byoc_graph_add_input(g, "x", &ty, &err);
    int o = byoc_graph_add_opaque(g, "Mystery", &x, 1, &err);
    byoc_graph_set_type(g, o, &ty);
    e = bx_estimator_create(g, NULL, NULL, NULL);
    r = bx_estimate_kernel(e, base, NULL, &o, 1, NULL, 0);
    ck_assert_int_eq(r.source, BYOC_COST_UNKNOWN);
    ck_assert_double_eq(r.seconds, byoc_registry_device(reg, "dev")->launch);
    ck_assert_uint_eq(bx_estimator_get_stats(e).unknown, 1);
    bx_estimator_destroy(e);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(est_cache)
{
    byoc_graph *g = relay(TWO_BLOCKS);
    probe p = {.answer = 1e-5};
    bx_estimator *e = bx_estimator_create(g, NULL, probe_fn, &p);
    const byoc_target_decl *base = byoc_registry_target(reg, "base"),
                           *child = byoc_registry_target(reg, "child");
    const int second[] = {7, 8};
    bx_estimate r1 = bx_estimate_kernel(e, base, NULL, DENSE_RELU_K, 2, NULL, 0);
    bx_estimate r2 = bx_estimate_kernel(e, base, NULL, second, 2, NULL, 0);
    ck_assert_int_eq(p.calls, 1);
    ck_assert_ptr_eq(r1.signature, r2.signature);
    ck_assert_double_eq(r2.seconds, 1e-5);
    ck_assert_int_eq(r2.source, BYOC_COST_CALLBACK);
    bx_estimate_kernel(e, child, NULL, second, 2, NULL, 0);
    ck_assert_int_eq(p.calls, 2);
    bx_estimate_kernel(e, base, NULL, RELU_K, 1, NULL, 0);
    bx_estimate_kernel(e, base, NULL, RELU_K, 1, NULL, 0);
    ck_assert_int_eq(p.calls, 3);
    bx_estimator_stats st = bx_estimator_get_stats(e);
    ck_assert_uint_eq(st.kernels, 3);
    ck_assert_uint_eq(st.from_callback, 3);
    ck_assert_uint_eq(st.analytic + st.from_table + st.unknown, 0);
    bx_estimator_destroy(e);
    byoc_graph_destroy(g);
}
END_TEST

START_TEST(est_analytic_is_roofline)
{
    byoc_graph *g = relay(TWO_BLOCKS);
    bx_estimator *e = bx_estimator_create(g, NULL, NULL, NULL);
    const byoc_target_decl *child = byoc_registry_target(reg, "child");
    const byoc_device_decl *dev = byoc_registry_device(reg, "dev");
    const int k[] = {3, 4, 5};
    bx_kernel_io io;
    ck_assert_int_eq(bx_kernel_measure(g, k, 3, &io), 0);
    bx_estimate r = bx_estimate_kernel(e, child, dev, k, 3, NULL, 0.9);
    ck_assert_int_eq(r.source, BYOC_COST_ANALYTIC);
    ck_assert_double_eq(r.seconds, bx_cost_roofline(dev, 0.9, &io));
    ck_assert(r.seconds > dev->launch);
    bx_estimator_destroy(e);
    byoc_graph_destroy(g);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("estimate");
    TCase *c = tcase_create("Core");
    tcase_add_checked_fixture(c, setup, teardown);
    tcase_add_test(c, sig_same_kernel_anywhere);
    tcase_add_test(c, sig_differs);
    tcase_add_test(c, sig_inputs_canonical);
    tcase_add_test(c, sig_dag);
    tcase_add_test(c, sig_multi_output);
    tcase_add_test(c, sig_tuples_consts_opaque);
    tcase_add_test(c, sig_estimator_agrees);
    tcase_add_test(c, table_good);
    tcase_add_test(c, est_table_through_parents);
    tcase_add_test(c, est_callback_first);
    tcase_add_test(c, est_inf_and_unknown);
    tcase_add_test(c, est_cache);
    tcase_add_test(c, est_analytic_is_roofline);
    suite_add_tcase(s, c);
    TCase *x = tcase_create("Errors");
    tcase_add_checked_fixture(x, setup, teardown);
    tcase_add_test(x, table_errors);
    tcase_add_test(x, table_file);
    suite_add_tcase(s, x);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
