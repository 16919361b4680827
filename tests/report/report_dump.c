/* Writes the fixture's partitioning in one format to stdout, for the shell
 * tests that hand it to other tools (python3's json, Graphviz's dot), and
 * reads the partitioned Relay back (mode `readback`): a failure to read
 * it is a failure of the test, not a skip. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

#include "fixture.h"

static int fail(const char *what, const byoc_error *err)
{
    char buf[1024];
    byoc_error_format(err, buf, sizeof buf);
    fprintf(stderr, "report_dump: %s: %s\n", what, buf);
    return 1;
}

/* How many calls of each op, in op name order: what inlining the
 * functions back must preserve. */
static void op_census(const byoc_graph *g, char *buf, size_t size)
{
    const byoc_registry *reg = byoc_graph_registry(g);
    size_t len = 0;
    buf[0] = 0;
    for (int o = 0; o < byoc_registry_op_count(reg) && len < size; o++) {
        const char *name = byoc_registry_op_at(reg, o)->name;
        int count = 0;
        for (int i = 0; i < byoc_graph_node_count(g); i++)
            count += byoc_node_op_name(g, i) && strcmp(byoc_node_op_name(g, i), name) == 0;
        if (count)
            len += (size_t)snprintf(buf + len, size - len, "%s=%d ", name, count);
    }
}

/* The graph's result type: its fields' types for a tuple. */
static void result_type(const byoc_graph *g, char *buf, size_t size)
{
    int out = byoc_graph_output(g), nf = byoc_node_field_count(g, out);
    size_t len = (size_t)snprintf(buf, size, "-> %d:", nf);
    for (int k = nf < 0 ? -1 : 0; k < (nf < 0 ? 0 : nf) && len < size; k++) {
        char t[256];
        byoc_relay_format_type(g, byoc_node_type(g, out, k), t, sizeof t);
        len += (size_t)snprintf(buf + len, size - len, " %s", t);
    }
}

static int readback(fixture *fx)
{
    byoc_error err;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (byoc_result_write_relay(&fx->r, f, &err) < 0)
        return fail("write_relay", &err);
    fclose(f);
    byoc_graph *g = byoc_relay_read_string(fx->reg, text, len, "partitioned.relay", &err);
    if (!g) {
        fputs(text, stderr);
        free(text);
        return fail("reading the partitioned module back", &err);
    }
    free(text);
    char want[1024], got[1024];
    op_census(fx->g, want, sizeof want);
    op_census(g, got, sizeof got);
    /* And the same result type: what the functions return reaches @main. */
    result_type(fx->g, want + strlen(want), sizeof want - strlen(want));
    result_type(g, got + strlen(got), sizeof got - strlen(got));
    int rc = 0;
    if (strcmp(want, got) != 0) {
        fprintf(stderr, "report_dump: calls differ after reading back:\n  want %s\n  got  %s\n",
                want, got);
        rc = 1;
    }
    byoc_graph_destroy(g);
    if (rc == 0)
        printf("read back: %s\n", got);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: report_dump text|json|relay|dot|readback\n");
        return 2;
    }
    fixture fx;
    byoc_error err;
    if (fixture_open(&fx, &err) < 0)
        return fail("fixture", &err);
    int rc = 0;
    const char *m = argv[1];
    if (strcmp(m, "readback") == 0)
        rc = readback(&fx);
    else if ((strcmp(m, "text") == 0 && byoc_result_write_text(&fx.r, stdout, &err) < 0)
             || (strcmp(m, "json") == 0 && byoc_result_write_json(&fx.r, stdout, &err) < 0)
             || (strcmp(m, "relay") == 0 && byoc_result_write_relay(&fx.r, stdout, &err) < 0)
             || (strcmp(m, "dot") == 0 && byoc_result_write_dot(&fx.r, stdout, &err) < 0))
        rc = fail(m, &err);
    fixture_close(&fx);
    return rc;
}
