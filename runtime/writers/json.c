/* The JSON writer: a partitioning for tools, in the format doc/json.md
 * describes - the targets, the totals and the search's statistics, each
 * partition with its nodes and composites, then every node of the graph
 * with the partition that holds it.
 *
 * The output is always valid JSON: strings are escaped and made valid
 * UTF-8, and numbers JSON cannot hold (NaN, infinity) are null. */
#include <math.h>
#include <stdlib.h>

#include <byoc/partition.h>

#include "die.h"
#include "errfmt.h"
#include "relay_print.h"
#include "writers.h"

/* RFC 8259 strings: quotes, backslashes and control characters escaped;
 * bytes that are not UTF-8 (an ONNX name may hold anything) become
 * U+FFFD, so the output is always valid UTF-8. */
static void json_str(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = bx_utf8_len(p);
        if (n == 0) {
            fputs("\\ufffd", f);
            p++;
            continue;
        }
        unsigned char c = *p;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c == '\r')
            fputs("\\r", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fwrite(p, 1, (size_t)n, f);
        p += n;
    }
    fputc('"', f);
}

/* The shortest decimal that reads back to the same double; JSON has no
 * NaN or infinity, so those are null. */
static void json_num(FILE *f, double d)
{
    if (!isfinite(d))
        fputs("null", f);
    else
        bx_relay_put_float(f, d);
}

static void json_ints(FILE *f, const int *v, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%d", i ? ", " : "", v[i]);
    fputc(']', f);
}

/* A node's type as Relay prints it, or null when not known. */
static void json_type(FILE *f, const byoc_graph *g, int node)
{
    if (!bx_relay_type_known(g, node)) {
        fputs("null", f);
        return;
    }
    char *s = bx_relay_node_type_str(g, node);
    json_str(f, s);
    free(s);
}

static void json_targets(const byoc_result *r, FILE *f)
{
    const byoc_registry *reg = byoc_graph_registry(r->graph);
    fputs("  \"targets\": [", f);
    for (int k = 0; k < r->ntargets; k++) {
        const byoc_target_decl *t = r->targets[k];
        fprintf(f, "%s\n    {\"name\": ", k ? "," : "");
        json_str(f, t->name);
        fputs(", \"device\": ", f);
        const byoc_device_decl *d = byoc_target_device(reg, t);
        json_str(f, d ? d->name : NULL);
        fprintf(f, ", \"native\": %s}", bx_target_native(r, t) ? "true" : "false");
    }
    fputs(r->ntargets ? "\n  ],\n" : "],\n", f);
}

static void json_partition(const byoc_result *r, FILE *f, int p)
{
    const byoc_partition *P = &r->partitions[p];
    const byoc_graph *g = r->graph;
    const byoc_device_decl *d = bx_part_device(r, P);
    fprintf(f, "    {\n      \"index\": %d,\n      \"target\": ", p);
    json_str(f, P->target->name);
    fputs(",\n      \"device\": ", f);
    json_str(f, d ? d->name : NULL);
    fputs(",\n      \"cost\": ", f);
    json_num(f, P->cost);
    fputs(",\n      \"cost_source\": ", f);
    json_str(f, byoc_cost_source_name(P->cost_source));
    fputs(",\n      \"signature\": ", f);
    json_str(f, P->signature);
    fputs(",\n      \"nodes\": ", f);
    json_ints(f, P->nodes, P->nnodes);
    fputs(",\n      \"names\": [", f);
    for (int i = 0; i < P->nnodes; i++) {
        fputs(i ? ", " : "", f);
        json_str(f, byoc_node_name(g, P->nodes[i]));
    }
    fputs("],\n      \"ops\": [", f);
    for (int i = 0; i < P->nnodes; i++) {
        fputs(i ? ", " : "", f);
        json_str(f, byoc_node_op_name(g, P->nodes[i]));
    }
    fputs("],\n      \"composites\": [", f);
    for (int c = 0; c < P->ncomposites; c++) {
        fprintf(f, "%s\n        {\"pattern\": ", c ? "," : "");
        json_str(f, P->composites[c].pattern);
        fputs(", \"nodes\": ", f);
        json_ints(f, P->composites[c].nodes, P->composites[c].nnodes);
        fputc('}', f);
    }
    fputs(P->ncomposites ? "\n      ]\n    }" : "]\n    }", f);
}

static void json_nodes(const byoc_result *r, FILE *f)
{
    const byoc_graph *g = r->graph;
    int n = byoc_graph_node_count(g);
    fputs("  \"nodes\": [", f);
    for (int i = 0; i < n; i++) {
        fprintf(f, "%s\n    {\"id\": %d, \"name\": ", i ? "," : "", i);
        json_str(f, byoc_node_name(g, i));
        fprintf(f, ", \"kind\": \"%s\", \"op\": ", bx_node_kind_name(byoc_node_kind_of(g, i)));
        json_str(f, byoc_node_op_name(g, i));
        fputs(", \"type\": ", f);
        json_type(f, g, i);
        int p = bx_part_of(r, i);
        if (p >= 0)
            fprintf(f, ", \"partition\": %d}", p);
        else
            fputs(", \"partition\": null}", f);
    }
    fputs(n ? "\n  ]\n" : "]\n", f);
}

static int byoc_result_write_json_unguarded(const byoc_result *r, FILE *f, byoc_error *err)
{
    if (bx_result_check(r, err) < 0)
        return -1;
    fputs("{\n  \"format\": \"byoc-partitioning\",\n  \"version\": 1,\n  \"model\": ", f);
    json_str(f, byoc_graph_source(r->graph));
    fputs(",\n  \"strategy\": ", f);
    json_str(f, r->strategy);
    fputs(",\n", f);
    json_targets(r, f);
    fputs("  \"cost\": ", f);
    json_num(f, r->cost);
    fputs(",\n  \"transfer_cost\": ", f);
    json_num(f, r->transfer_cost);
    fprintf(f, ",\n  \"optimal\": %s,\n  \"budget_hit\": %s,\n", r->optimal ? "true" : "false",
            r->budget_hit ? "true" : "false");
    fprintf(f, "  \"time_limit_hit\": %s,\n  \"lower_bound\": ", r->time_hit ? "true" : "false");
    json_num(f, r->lower_bound);
    fputs(",\n  \"gap\": ", f);
    double gap = byoc_result_gap(r);
    if (isinf(gap))
        fputs("null", f);
    else
        json_num(f, gap);
    fputs(",\n", f);
    fprintf(f,
            "  \"stats\": {\"candidates\": %zu, \"kernels\": %zu, \"expanded\": %zu, "
            "\"generated\": %zu, \"from_table\": %zu, \"from_callback\": %zu, "
            "\"unknown\": %zu, \"cost_table\": %s},\n",
            r->ncandidates, r->nkernels, r->expanded, r->generated, r->from_table,
            r->from_callback, r->unknown, r->cost_table ? "true" : "false");
    fputs("  \"partitions\": [", f);
    for (int p = 0; p < r->npartitions; p++) {
        fputs(p ? ",\n" : "\n", f);
        json_partition(r, f, p);
    }
    fputs(r->npartitions ? "\n  ],\n" : "],\n", f);
    json_nodes(r, f);
    fputs("}\n", f);
    return bx_writer_finish(f, err, "JSON output");
}

int byoc_result_write_json(const byoc_result *r, FILE *f, byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, -1);
    int result = byoc_result_write_json_unguarded(r, f, err);
    bx_oom_close(&guard);
    return result;
}
