/* Each collage_*.graph.onnx, read through byoc's ONNX mapping, has the same
 * operator histogram and the same output types as its Relay twin from
 * TVM's Collage tests.  Reads ../shared/models (BYOC_SHARED_MODELS);
 * skipped (exit 77) when it is absent or ONNX support is not built in. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>
#include <byoc/onnx.h>

typedef struct hist {
    const char *op[256];
    int n[256];
    int size;
} hist;

static void histogram(const byoc_graph *g, hist *h)
{
    memset(h, 0, sizeof *h);
    for (int i = 0; i < byoc_graph_node_count(g); i++) {
        const char *op = byoc_node_op_name(g, i);
        if (!op)
            continue;
        int k = 0;
        while (k < h->size && strcmp(h->op[k], op) != 0)
            k++;
        if (k == h->size && h->size < 256)
            h->op[h->size++] = op;
        h->n[k]++;
    }
}

static int count_of(const hist *h, const char *op)
{
    for (int k = 0; k < h->size; k++)
        if (!strcmp(h->op[k], op))
            return h->n[k];
    return 0;
}

/* The output tensors of g: the fields of an output tuple, or the output. */
static int outputs(const byoc_graph *g, const byoc_tensor_type **out, int max)
{
    int o = byoc_graph_output(g);
    if (byoc_node_kind_of(g, o) == BYOC_N_TUPLE) {
        int n = byoc_node_arg_count(g, o);
        for (int i = 0; i < n && i < max; i++)
            out[i] = byoc_node_type(g, byoc_node_arg(g, o, i), -1);
        return n;
    }
    out[0] = byoc_node_type(g, o, -1);
    return 1;
}

int main(void)
{
    static const char *const pairs[][2] = {
        {"collage_gpt2.graph.onnx", "gpt2.relay"},
        {"collage_mnist.graph.onnx", "mnist.relay"},
        {"collage_mobilenet.graph.onnx", "mobilenet.relay"},
        {"collage_resnet50.graph.onnx", "resnet50.relay"},
        {"collage_resnext50_32x4d_block.graph.onnx", "resnext50_32x4d.relay"},
    };
    if (!byoc_onnx_available()) {
        printf("SKIP: ONNX support is not built in\n");
        return 77;
    }
    const char *root = getenv("BYOC_SHARED_MODELS");
    if (!root)
        root = "../shared/models";
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/onnx/%s", root, pairs[0][0]);
    FILE *f = fopen(probe, "rb");
    if (!f) {
        printf("SKIP: %s/onnx is absent\n", root);
        return 77;
    }
    fclose(f);
    byoc_registry *reg = byoc_registry_create();
    byoc_error err;
    if (byoc_register_relay(reg, &err) != 0)
        return 99;
    int pass = 0, fail = 0;
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        char a[4096], b[4096], why[1024] = "";
        snprintf(a, sizeof a, "%s/onnx/%s", root, pairs[p][0]);
        snprintf(b, sizeof b, "%s/relay/%s", root, pairs[p][1]);
        byoc_graph *go = byoc_onnx_read(reg, a, &err);
        if (!go) {
            byoc_error_format(&err, why, sizeof why);
            printf("FAIL: %s: %s\n", pairs[p][0], why);
            fail++;
            continue;
        }
        byoc_graph *gr = byoc_relay_read(reg, b, &err);
        if (!gr) {
            byoc_error_format(&err, why, sizeof why);
            printf("FAIL: %s: %s\n", pairs[p][1], why);
            byoc_graph_destroy(go);
            fail++;
            continue;
        }
        hist ho, hr;
        histogram(go, &ho);
        histogram(gr, &hr);
        size_t len = 0;
        for (int k = 0; k < hr.size; k++)
            if (count_of(&ho, hr.op[k]) != hr.n[k])
                len += (size_t)snprintf(why + len, len < sizeof why ? sizeof why - len : 0,
                                        " %s: onnx %d, relay %d;", hr.op[k],
                                        count_of(&ho, hr.op[k]), hr.n[k]);
        for (int k = 0; k < ho.size; k++)
            if (!count_of(&hr, ho.op[k]))
                len += (size_t)snprintf(why + len, len < sizeof why ? sizeof why - len : 0,
                                        " %s: onnx %d, relay 0;", ho.op[k], ho.n[k]);
        const byoc_tensor_type *oo[64], *or_[64];
        int no = outputs(go, oo, 64), nr = outputs(gr, or_, 64);
        if (no != nr)
            len += (size_t)snprintf(why + len, len < sizeof why ? sizeof why - len : 0,
                                    " %d outputs against %d;", no, nr);
        for (int i = 0; i < no && i < nr && i < 64; i++)
            if (memcmp(oo[i], or_[i], sizeof(byoc_tensor_type)) != 0)
                len += (size_t)snprintf(why + len, len < sizeof why ? sizeof why - len : 0,
                                        " output %d type differs;", i);
        if (len == 0) {
            printf("PASS: %s matches %s\n", pairs[p][0], pairs[p][1]);
            pass++;
        } else {
            printf("FAIL: %s against %s:%s\n", pairs[p][0], pairs[p][1], why);
            fail++;
        }
        byoc_graph_destroy(go);
        byoc_graph_destroy(gr);
    }
    byoc_registry_destroy(reg);
    printf("%d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}
