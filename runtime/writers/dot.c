/* The Graphviz DOT writer: a partitioning as a picture for people - one
 * cluster per partition, filled with its target's colour, a dashed cluster
 * per composite inside it, and edges labelled with the shapes of the
 * tensors they carry when those are short.
 *
 * Strings are made safe for dot (escaped, bytes that are not UTF-8 as
 * '?'), so any model's names give a file dot reads without a warning. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/partition.h>

#include "die.h"
#include "errfmt.h"
#include "relay_print.h"
#include "strbuf.h"
#include "writers.h"

/* Pastel fills light enough for black text, one per target by its place in
 * r->targets; native code generators are grey, since they are the
 * fallback a reader's eye should skip. */
static const char *const palette[] = {
    "#a6cee3", "#b2df8a", "#fdbf6f", "#cab2d6", "#fb9a99", "#ffff99",
    "#8dd3c7", "#bebada", "#80b1d3", "#fccde5", "#ccebc5", "#ffed6f",
};
#define NATIVE_FILL "#d9d9d9"

/* The inside of a DOT string: quotes and backslashes escaped, control
 * characters as spaces, bytes that are not UTF-8 as '?' (dot warns). */
static void dot_str(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = bx_utf8_len(p);
        if (n == 0)
            fputc('?', f);
        else if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            fputc(' ', f);
        else
            fwrite(p, 1, (size_t)n, f);
        p += n ? n : 1;
    }
}

static const char *target_fill(const byoc_result *r, const byoc_target_decl *t)
{
    if (bx_target_native(r, t))
        return NATIVE_FILL;
    for (int k = 0; k < r->ntargets; k++)
        if (strcmp(r->targets[k]->name, t->name) == 0)
            return palette[(size_t)k % (sizeof palette / sizeof palette[0])];
    return "#ffffff";
}

/* A tensor's shape as an edge label, "1x64x56x56", when it is known and
 * short enough not to clutter the picture. */
static bool short_shape(const byoc_graph *g, int node, char *buf, size_t size)
{
    if (byoc_node_field_count(g, node) >= 0)
        return false;
    const byoc_tensor_type *t = byoc_node_type(g, node, -1);
    if (!t || t->rank < 1)
        return false;
    size_t len = 0;
    for (int i = 0; i < t->rank && len < size; i++) {
        int64_t d = t->dims[i];
        const char *sep = i ? "x" : "";
        if (d >= 0)
            len += (size_t)snprintf(buf + len, size - len, "%s%lld", sep, (long long)d);
        else if (d == BYOC_DIM_UNKNOWN)
            len += (size_t)snprintf(buf + len, size - len, "%s?", sep);
        else
            len += (size_t)snprintf(buf + len, size - len, "%s%s", sep,
                                    byoc_graph_symbol_name(g, (int)(-2 - d)));
    }
    return len < size && len <= 20;
}

static void dot_node(const byoc_graph *g, FILE *f, int x, int indent)
{
    bx_strbuf b = {0};
    char shape[32];
    bx_put_node_label(&b, g, x, BX_LABEL_BARE_CONST);
    fprintf(f, "%*sn%d [label=\"", indent, "", x);
    switch (byoc_node_kind_of(g, x)) {
    case BYOC_N_INPUT:
        dot_str(f, bx_sb_str(&b));
        if (short_shape(g, x, shape, sizeof shape))
            fprintf(f, "\\n%s", shape);
        fputs("\", shape=ellipse", f);
        break;
    case BYOC_N_CONST:
        if (bx_relay_is_literal(g, x))
            bx_relay_put_literal(f, g, x);
        else
            fprintf(f, "const%s%s", short_shape(g, x, shape, sizeof shape) ? " " : "",
                    short_shape(g, x, shape, sizeof shape) ? shape : "");
        fputs("\", shape=plaintext", f);
        break;
    case BYOC_N_CALL:
        dot_str(f, bx_sb_str(&b));
        fputs("\\n", f);
        dot_str(f, byoc_node_op_name(g, x));
        fputs("\", shape=box, style=filled, fillcolor=\"#ffffff\"", f);
        break;
    case BYOC_N_TUPLE:
        dot_str(f, bx_sb_str(&b));
        fputs("\\ntuple\", shape=box, style=dashed", f);
        break;
    case BYOC_N_PROJ:
        dot_str(f, bx_sb_str(&b));
        fprintf(f, "\\n.%d\", shape=box, style=\"rounded,dashed\"", byoc_node_proj_index(g, x));
        break;
    }
    fputs(x == byoc_graph_output(g) ? ", penwidth=2];\n" : "];\n", f);
    bx_sb_free(&b);
}

static void dot_cluster(const byoc_result *r, FILE *f, int p, bool *drawn)
{
    const byoc_partition *P = &r->partitions[p];
    char us[32];
    fprintf(f, "  subgraph cluster_%d {\n    label=\"#%d ", p, p);
    dot_str(f, P->target->name);
    fputs(" (", f);
    dot_str(f, bx_device_name(bx_part_device(r, P)));
    fprintf(f, ")\\n%s us\";\n    style=filled;\n    fillcolor=\"%s\";\n    color=\"#7f7f7f\";\n",
            bx_fmt_us(us, sizeof us, P->cost), target_fill(r, P->target));
    for (int c = 0; c < P->ncomposites; c++) {
        const byoc_composite *C = &P->composites[c];
        fprintf(f, "    subgraph cluster_%d_%d {\n      label=\"", p, c);
        dot_str(f, C->pattern ? C->pattern : "");
        fputs("\";\n      style=dashed;\n", f);
        for (int i = 0; i < C->nnodes; i++)
            if (!drawn[C->nodes[i]]) {
                drawn[C->nodes[i]] = true;
                dot_node(r->graph, f, C->nodes[i], 6);
            }
        fputs("    }\n", f);
    }
    for (int i = 0; i < P->nnodes; i++)
        if (!drawn[P->nodes[i]]) {
            drawn[P->nodes[i]] = true;
            dot_node(r->graph, f, P->nodes[i], 4);
        }
    fputs("  }\n", f);
}

static void dot_edges(const byoc_graph *g, FILE *f)
{
    int n = byoc_graph_node_count(g);
    char shape[32];
    for (int x = 0; x < n; x++)
        for (int a = 0; a < byoc_node_arg_count(g, x); a++) {
            int y = byoc_node_arg(g, x, a);
            fprintf(f, "  n%d -> n%d", y, x);
            if (short_shape(g, y, shape, sizeof shape))
                fprintf(f, " [label=\"%s\"]", shape);
            fputs(";\n", f);
        }
}

static int byoc_result_write_dot_unguarded(const byoc_result *r, FILE *f, byoc_error *err)
{
    if (bx_result_check(r, err) < 0)
        return -1;
    const byoc_graph *g = r->graph;
    int n = byoc_graph_node_count(g);
    const char *model = byoc_graph_source(g);
    char us[32];
    fputs("digraph byoc {\n  graph [label=\"", f);
    dot_str(f, model && *model ? model : "-");
    fputs(": ", f);
    dot_str(f, r->strategy ? r->strategy : "-");
    fprintf(f, ", %s us\", labelloc=t, fontname=\"Helvetica\", fontsize=11];\n",
            bx_fmt_us(us, sizeof us, r->cost));
    fputs("  node [fontname=\"Helvetica\", fontsize=10];\n"
          "  edge [fontname=\"Helvetica\", fontsize=8, color=\"#555555\"];\n", f);
    bool *drawn = bx_xcalloc((size_t)n + 1, sizeof(bool));
    for (int p = 0; p < r->npartitions; p++)
        dot_cluster(r, f, p, drawn);
    for (int x = 0; x < n; x++)
        if (!drawn[x])
            dot_node(g, f, x, 2);
    free(drawn);
    dot_edges(g, f);
    fputs("}\n", f);
    return bx_writer_finish(f, err, "DOT output");
}

int byoc_result_write_dot(const byoc_result *r, FILE *f, byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, -1);
    int result = byoc_result_write_dot_unguarded(r, f, err);
    bx_oom_close(&guard);
    return result;
}

