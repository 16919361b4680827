/* byoc: the command line of libbyoc.
 *
 * One binary, one subcommand per job, each a function below that parses
 * its own options.  The bundled op vocabulary (relay.byoc, compiled into
 * libbyoc) is registered before anything else, so every model reader sees
 * every op. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>
#include <byoc/onnx.h>

static const char usage_text[] =
    "usage: byoc [--version] [--help] COMMAND [ARGS]\n"
    "\n"
    "commands:\n"
    "  info MODEL [--format relay|onnx]\n"
    "      load a model (TVM Relay text or ONNX) and print its typed graph:\n"
    "      node counts, the operator histogram, inputs and outputs with their\n"
    "      types, total FLOPs, and the nodes left untyped or opaque\n"
    "\n"
    "The format of MODEL comes from its extension (.relay, .txt: Relay text;\n"
    ".onnx: ONNX) unless --format says otherwise.\n";

static void usage(FILE *o) { fputs(usage_text, o); }

static void print_error(const byoc_error *e)
{
    char buf[1024];
    byoc_error_format(e, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
}

typedef enum { FMT_AUTO, FMT_RELAY, FMT_ONNX } model_format;

static model_format format_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (dot && (!strcmp(dot, ".onnx")))
        return FMT_ONNX;
    return FMT_RELAY;
}

/* Load a model; prints the error and returns NULL on failure. */
static byoc_graph *load_model(const byoc_registry *reg, const char *path, model_format fmt)
{
    byoc_error err;
    byoc_error_clear(&err);
    if (fmt == FMT_AUTO)
        fmt = format_of(path);
    byoc_graph *g;
    if (fmt == FMT_ONNX)
        g = byoc_onnx_read(reg, path, &err);
    else
        g = byoc_relay_read(reg, path, &err);
    if (!g)
        print_error(&err);
    return g;
}

static int parse_format(const char *s, model_format *out)
{
    if (!strcmp(s, "relay"))
        *out = FMT_RELAY;
    else if (!strcmp(s, "onnx"))
        *out = FMT_ONNX;
    else {
        fprintf(stderr, "byoc: error: unknown format '%s' (relay or onnx)\n", s);
        return -1;
    }
    return 0;
}

/* ---- info ------------------------------------------------------------------- */

typedef struct op_count {
    const char *name;
    int n;
} op_count;

static int by_count(const void *a, const void *b)
{
    const op_count *x = a, *y = b;
    if (x->n != y->n)
        return y->n - x->n;
    return strcmp(x->name, y->name);
}

static void print_type(const byoc_graph *g, int node)
{
    char buf[256];
    int nf = byoc_node_field_count(g, node);
    if (nf < 0) {
        byoc_relay_format_type(g, byoc_node_type(g, node, -1), buf, sizeof buf);
        fputs(buf, stdout);
        return;
    }
    fputc('(', stdout);
    for (int i = 0; i < nf; i++) {
        byoc_relay_format_type(g, byoc_node_type(g, node, i), buf, sizeof buf);
        printf("%s%s", i ? ", " : "", buf);
    }
    fputc(')', stdout);
}

static void print_flops(double f)
{
    static const char *const units[] = {"", "K", "M", "G", "T", "P"};
    int u = 0;
    while (f >= 1000 && u < 5) {
        f /= 1000;
        u++;
    }
    printf("%.3g %sFLOP", f, units[u]);
}

static int cmd_info(const byoc_registry *reg, int argc, char **argv)
{
    const char *path = NULL;
    model_format fmt = FMT_AUTO;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            if (parse_format(argv[++i], &fmt) != 0)
                return 2;
        } else if (!strncmp(argv[i], "--format=", 9)) {
            if (parse_format(argv[i] + 9, &fmt) != 0)
                return 2;
        } else if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "byoc: error: unknown option '%s' for info\n", argv[i]);
            return 2;
        } else if (path) {
            fprintf(stderr, "byoc: error: info takes one model\n");
            return 2;
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        fprintf(stderr, "byoc: error: info needs a model file\n");
        return 2;
    }
    byoc_graph *g = load_model(reg, path, fmt);
    if (!g)
        return 1;
    int n = byoc_graph_node_count(g);
    int counts[5] = {0};
    op_count *ops = calloc((size_t)n + 1, sizeof(*ops));
    int nops = 0, untyped = 0, opaque = 0;
    double flops = 0;
    bool flops_known = true;
    for (int i = 0; i < n; i++) {
        byoc_node_kind k = byoc_node_kind_of(g, i);
        counts[k]++;
        if (byoc_node_untyped_reason(g, i))
            untyped++;
        if (k != BYOC_N_CALL)
            continue;
        if (byoc_node_is_opaque(g, i))
            opaque++;
        const char *name = byoc_node_op_name(g, i);
        int j = 0;
        while (j < nops && strcmp(ops[j].name, name) != 0)
            j++;
        if (j == nops)
            ops[nops++] = (op_count){name, 0};
        ops[j].n++;
        double f = byoc_node_flops(g, i);
        if (f < 0)
            flops_known = false;
        else
            flops += f;
    }
    qsort(ops, (size_t)nops, sizeof(*ops), by_count);
    printf("model: %s\n", path);
    printf("nodes: %d (%d calls, %d constants, %d inputs, %d tuples, %d projections)\n", n,
           counts[BYOC_N_CALL], counts[BYOC_N_CONST], counts[BYOC_N_INPUT], counts[BYOC_N_TUPLE],
           counts[BYOC_N_PROJ]);
    printf("inputs:\n");
    for (int i = 0; i < n; i++)
        if (byoc_node_kind_of(g, i) == BYOC_N_INPUT) {
            printf("  %s: ", byoc_node_name(g, i));
            print_type(g, i);
            putchar('\n');
        }
    printf("outputs:\n");
    int out = byoc_graph_output(g);
    if (out >= 0) {
        int nf = byoc_node_kind_of(g, out) == BYOC_N_TUPLE ? byoc_node_arg_count(g, out) : -1;
        if (nf < 0) {
            printf("  ");
            print_type(g, out);
            putchar('\n');
        } else {
            for (int i = 0; i < nf; i++) {
                printf("  ");
                print_type(g, byoc_node_arg(g, out, i));
                putchar('\n');
            }
        }
    }
    printf("operators (%d kinds):\n", nops);
    for (int i = 0; i < nops; i++)
        printf("  %6d  %s%s\n", ops[i].n, ops[i].name,
               byoc_registry_op(reg, ops[i].name) ? "" : "  (opaque)");
    printf("total: ");
    print_flops(flops);
    printf("%s\n", flops_known ? "" : " (some calls have no known FLOP count)");
    printf("untyped nodes: %d\n", untyped);
    for (int i = 0; i < n; i++) {
        const char *why = byoc_node_untyped_reason(g, i);
        if (why)
            printf("  %s: %s\n", byoc_node_name(g, i) ? byoc_node_name(g, i) : "?", why);
    }
    printf("opaque calls: %d\n", opaque);
    int notes = byoc_graph_note_count(g);
    if (notes) {
        printf("notes:\n");
        for (int i = 0; i < notes; i++)
            printf("  %s\n", byoc_graph_note(g, i));
    }
    free(ops);
    byoc_graph_destroy(g);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("byoc %s\n", byoc_version());
        return 0;
    }
    byoc_registry *reg = byoc_registry_create();
    byoc_error err;
    if (byoc_register_relay(reg, &err) != 0) {
        print_error(&err);
        byoc_registry_destroy(reg);
        return 1;
    }
    int rc;
    if (!strcmp(cmd, "info")) {
        rc = cmd_info(reg, argc - 2, argv + 2);
    } else {
        fprintf(stderr, "byoc: error: unknown command '%s'\n", cmd);
        usage(stderr);
        rc = 2;
    }
    byoc_registry_destroy(reg);
    return rc;
}
