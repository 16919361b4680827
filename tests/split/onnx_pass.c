/* A target's own "onnx" pass replaces the built-in ONNX writer for its
 * partitions: registered on llvm (the CPU's native target), it sees
 * exactly llvm's partitions, in execution order, writes a file of its own
 * for each and names it with byoc_onnx_set_file, and plan.json lists those
 * files while dnnl's partitions are written by byoc.  A pass registered on
 * a device-level target is inherited by its refinements: covered by
 * tests/lower.  Usage: onnx_pass MODEL.relay DIR (DIR must not exist). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>
#include <byoc/lower.h>
#include <byoc/onnx.h>
#include <byoc/relay.h>

#include "bundled.h"

typedef struct seen {
    int n;
    int order[256];
} seen;

static int llvm_onnx(const byoc_lower_ctx *cx, void *user, byoc_error *err)
{
    seen *s = user;
    if (strcmp(cx->target->name, "llvm") != 0) {
        snprintf(err->msg, sizeof err->msg, "llvm's pass ran on %s", cx->target->name);
        return -1;
    }
    if (s->n < 256)
        s->order[s->n++] = cx->part->order;
    char name[64], path[4096];
    snprintf(name, sizeof name, "llvm_%d.txt", cx->part->order);
    snprintf(path, sizeof path, "%s/%s", cx->dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return snprintf(err->msg, sizeof err->msg, "cannot write %.400s", path), -1;
    fprintf(f, "%d inputs, %d outputs\n", cx->part->ninputs, cx->part->noutputs);
    fclose(f);
    return byoc_onnx_set_file(cx, name, err);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: onnx_pass MODEL.relay DIR\n");
        return 2;
    }
    byoc_error err;
    byoc_registry *reg = byoc_registry_create();
    seen s = {0};
    if (bundled_register(reg, &err) != 0 ||
        byoc_target_add_pass(reg, "llvm", "onnx", BYOC_PASS_PARTITION, llvm_onnx, &s, &err) != 0) {
        fprintf(stderr, "onnx_pass: %s\n", err.msg);
        return 1;
    }
    byoc_graph *g = byoc_relay_read(reg, argv[1], &err);
    const char *targets[] = {"dnnl"};
    byoc_partition_options o;
    byoc_partition_options_init(&o);
    o.targets = targets;
    o.ntargets = 1;
    byoc_result *r = g ? byoc_partition_graph(g, &o, &err) : NULL;
    int rc = 1;
    if (r && byoc_result_write_onnx(r, NULL, argv[2], NULL, &err) == 0) {
        rc = 0;
        int want = 0;
        for (int p = 0; p < r->npartitions; p++)
            if (!strcmp(r->partitions[p].target->name, "llvm")) {
                if (want >= s.n || s.order[want] != p) {
                    fprintf(stderr, "FAIL: llvm's pass did not see partition %d in order\n", p);
                    rc = 1;
                }
                want++;
            }
        if (want != s.n || want == 0) {
            fprintf(stderr, "FAIL: llvm has %d partitions, its pass saw %d\n", want, s.n);
            rc = 1;
        }
        printf("%d partitions, %d on llvm\n", r->npartitions, want);
    } else
        fprintf(stderr, "onnx_pass: %s\n", err.msg);
    byoc_result_destroy(r);
    byoc_graph_destroy(g);
    byoc_registry_destroy(reg);
    return rc;
}
