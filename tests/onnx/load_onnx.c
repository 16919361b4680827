/* Load ONNX models and print what byoc made of them: node count, op
 * histogram (calls only, opaque ones marked), untyped nodes and notes.
 * With --twin RELAY, also read that Relay text and compare the two op
 * histograms and the output types: the Collage models exist in both
 * forms, and the ONNX reader's mapping should give the Relay graph back.
 *
 *   load_onnx [-q] MODEL.onnx [--twin MODEL.relay]
 *
 * Exit status: 0 when the model loads with every node typed (and, with
 * --twin, the histograms and output types agree), 1 otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>
#include <byoc/onnx.h>

typedef struct hist {
    const char *op[512];
    int count[512];
    int n;
} hist;

static void hist_add(hist *h, const char *op)
{
    for (int i = 0; i < h->n; i++)
        if (!strcmp(h->op[i], op)) {
            h->count[i]++;
            return;
        }
    if (h->n < 512) {
        h->op[h->n] = op;
        h->count[h->n++] = 1;
    }
}

static int hist_get(const hist *h, const char *op)
{
    for (int i = 0; i < h->n; i++)
        if (!strcmp(h->op[i], op))
            return h->count[i];
    return 0;
}

static int by_op(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void histogram(const byoc_graph *g, hist *h)
{
    h->n = 0;
    for (int i = 0; i < byoc_graph_node_count(g); i++)
        if (byoc_node_kind_of(g, i) == BYOC_N_CALL)
            hist_add(h, byoc_node_op_name(g, i));
}

static void print_histogram(const byoc_graph *g, const hist *h)
{
    const char *sorted[512];
    memcpy(sorted, h->op, sizeof(char *) * (size_t)h->n);
    qsort(sorted, (size_t)h->n, sizeof(char *), by_op);
    printf("  ops:");
    for (int i = 0; i < h->n; i++) {
        bool opaque = false;
        for (int k = 0; k < byoc_graph_node_count(g) && !opaque; k++)
            opaque = byoc_node_is_opaque(g, k) && !strcmp(byoc_node_op_name(g, k), sorted[i]);
        printf(" %s%s=%d", sorted[i], opaque ? "(opaque)" : "", hist_get(h, sorted[i]));
    }
    printf("\n");
}

/* The output's types, tensor or tuple, printed Relay's way. */
static void output_types(const byoc_graph *g, char *buf, size_t size)
{
    int out = byoc_graph_output(g);
    int nf = byoc_node_field_count(g, out);
    size_t at = 0;
    buf[0] = 0;
    for (int f = nf < 0 ? -1 : 0; f < (nf < 0 ? 0 : nf) && at < size; f++) {
        at += (size_t)snprintf(buf + at, size - at, "%s", f > 0 ? ", " : "");
        if (at < size)
            at += byoc_relay_format_type(g, byoc_node_type(g, out, f), buf + at, size - at);
    }
}

int main(int argc, char **argv)
{
    const char *path = NULL, *twin = NULL;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-q"))
            quiet = true;
        else if (!strcmp(argv[i], "--twin") && i + 1 < argc)
            twin = argv[++i];
        else
            path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "usage: load_onnx [-q] MODEL.onnx [--twin MODEL.relay]\n");
        return 2;
    }
    byoc_registry *reg = byoc_registry_create();
    byoc_error err;
    char msg[1024];
    if (byoc_register_relay(reg, &err) != 0) {
        byoc_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "%s\n", msg);
        return 2;
    }
    int status = 0;
    byoc_graph *g = byoc_onnx_read(reg, path, &err);
    if (!g) {
        byoc_error_format(&err, msg, sizeof msg);
        printf("%s\n", msg);
        byoc_registry_destroy(reg);
        return 1;
    }
    int untyped = 0;
    for (int i = 0; i < byoc_graph_node_count(g); i++)
        if (byoc_node_untyped_reason(g, i))
            untyped++;
    hist h;
    histogram(g, &h);
    printf("%s: %d nodes, %d untyped, %d notes\n", path, byoc_graph_node_count(g), untyped,
           byoc_graph_note_count(g));
    print_histogram(g, &h);
    if (!quiet) {
        for (int i = 0; i < byoc_graph_note_count(g); i++)
            printf("  note: %s\n", byoc_graph_note(g, i));
        for (int i = 0; i < byoc_graph_node_count(g); i++)
            if (byoc_node_untyped_reason(g, i))
                printf("  untyped: node %d (%s): %s\n", i,
                       byoc_node_op_name(g, i) ? byoc_node_op_name(g, i) : "-",
                       byoc_node_untyped_reason(g, i));
    }
    status = untyped ? 1 : 0;
    if (twin) {
        byoc_graph *t = byoc_relay_read(reg, twin, &err);
        if (!t) {
            byoc_error_format(&err, msg, sizeof msg);
            printf("  twin: %s\n", msg);
            status = 1;
        } else {
            hist th;
            histogram(t, &th);
            int diffs = 0;
            for (int i = 0; i < h.n; i++)
                if (hist_get(&th, h.op[i]) != h.count[i]) {
                    printf("  twin differs: %s onnx=%d relay=%d\n", h.op[i], h.count[i],
                           hist_get(&th, h.op[i]));
                    diffs++;
                }
            for (int i = 0; i < th.n; i++)
                if (!hist_get(&h, th.op[i])) {
                    printf("  twin differs: %s onnx=0 relay=%d\n", th.op[i], th.count[i]);
                    diffs++;
                }
            char a[4096], b[4096];
            output_types(g, a, sizeof a);
            output_types(t, b, sizeof b);
            if (strcmp(a, b)) {
                printf("  twin output types differ:\n    onnx:  %s\n    relay: %s\n", a, b);
                diffs++;
            }
            printf("  twin %s: %s\n", twin, diffs ? "DIFFERS" : "same op histogram and output types");
            status = diffs ? 1 : status;
            byoc_graph_destroy(t);
        }
    }
    byoc_graph_destroy(g);
    byoc_registry_destroy(reg);
    return status;
}
