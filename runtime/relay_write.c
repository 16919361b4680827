/* Writing a graph as TVM Relay text.
 *
 * The form is the one TVM's printer uses and relay_read.c reads: inputs
 * become typed parameters of @main, calls, tuples and projections become
 * `%N = ...;` statements numbered in graph order, scalar constants with a
 * known value are written inline as literals and every other constant as
 * `meta[relay.Constant][i]` with its type.  How each node prints is in
 * relay_print.c, shared with the partitioned writer of
 * writers/relay_module.c. */
#include <stdlib.h>

#include <byoc/relay.h>

#include "die.h"
#include "errfmt.h"
#include "relay_print.h"

typedef struct writer {
    const byoc_graph *g;
    int *local;       /* node -> statement number, -1 */
    int *meta;        /* node -> meta index, -1 */
    int nmeta;
    char **names;     /* inputs: a Relay-safe name */
} writer;

/* A reference to a node as an argument. */
static void write_ref(FILE *f, int node, void *ctx)
{
    writer *w = ctx;
    byoc_node_kind k = byoc_node_kind_of(w->g, node);
    if (k == BYOC_N_INPUT) {
        fprintf(f, "%%%s", w->names[node]);
    } else if (k == BYOC_N_CONST) {
        bx_relay_put_const_ref(f, w->g, node, w->meta, &w->nmeta);
    } else {
        fprintf(f, "%%%d", w->local[node]);
    }
}

static void write_params(writer *w, FILE *f)
{
    int n = byoc_graph_node_count(w->g);
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (byoc_node_kind_of(w->g, i) != BYOC_N_INPUT)
            continue;
        fprintf(f, "%s%%%s: ", first ? "" : ", ", w->names[i]);
        bx_relay_put_type(f, w->g, i);
        first = false;
    }
}

int byoc_relay_write(const byoc_graph *g, FILE *f, byoc_error *err)
{
    if (bx_relay_check_writable(g, err) < 0)
        return -1;
    int n = byoc_graph_node_count(g);
    int out = byoc_graph_output(g);
    writer w = {g, malloc(sizeof(int) * (size_t)(n + 1)), malloc(sizeof(int) * (size_t)(n + 1)),
                0, bx_relay_input_names(g)};
    if (!w.local || !w.meta)
        bx_oom();
    for (int i = 0; i < n; i++)
        w.local[i] = w.meta[i] = -1;

    fputs("#[version = \"0.0.5\"]\ndef @main(", f);
    write_params(&w, f);
    fputc(')', f);
    if (bx_relay_type_known(g, out)) {
        fputs(" -> ", f);
        bx_relay_put_type(f, g, out);
    }
    fputs(" {\n", f);
    int next = 0;
    for (int i = 0; i < n; i++) {
        byoc_node_kind k = byoc_node_kind_of(g, i);
        if (k == BYOC_N_INPUT || k == BYOC_N_CONST)
            continue;
        w.local[i] = next++;
        fprintf(f, "  %%%d = ", w.local[i]);
        bx_relay_put_expr(f, g, i, write_ref, &w);
        if (k == BYOC_N_CALL && bx_relay_type_known(g, i)) {
            fputs(" /* ty=", f);
            bx_relay_put_type(f, g, i);
            fputs(" */", f);
        }
        fputs(";\n", f);
    }
    fputs("  ", f);
    write_ref(f, out, &w);
    fputs("\n}\n", f);
    bx_relay_free_names(g, w.names);
    free(w.local);
    free(w.meta);
    if (ferror(f)) {
        bx_error_set(err, NULL, 0, 0, "write error");
        return -1;
    }
    return 0;
}
