/* Benchmark: how long loading a model takes (read, build, infer types).
 *
 *   bench/load_model [-n RUNS] MODEL...
 *
 * Prints, per model, the median and the minimum of RUNS loads (default 9)
 * in milliseconds, with the node count and how many times inference typed
 * each node (1 when loading is linear).  Not a test: nothing is asserted. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <byoc/byoc.h>
#include <byoc/onnx.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int runs = 9, first = 1;
    if (argc > 2 && !strcmp(argv[1], "-n")) {
        runs = atoi(argv[2]);
        first = 3;
    }
    if (runs < 1 || first >= argc) {
        fprintf(stderr, "usage: load_model [-n RUNS] MODEL...\n");
        return 2;
    }
    byoc_registry *reg = byoc_registry_create();
    byoc_error err;
    if (byoc_register_relay(reg, &err) != 0)
        return 1;
    double *t = malloc(sizeof(double) * (size_t)runs);
    printf("%-48s %8s %10s %10s %8s\n", "model", "nodes", "median ms", "min ms", "visits");
    for (int m = first; m < argc; m++) {
        const char *path = argv[m];
        const char *dot = strrchr(path, '.');
        bool onnx = dot && !strcmp(dot, ".onnx");
        int nodes = 0;
        long visits = 0;
        for (int r = 0; r < runs; r++) {
            double t0 = now();
            byoc_graph *g = onnx ? byoc_onnx_read(reg, path, &err) : byoc_relay_read(reg, path, &err);
            t[r] = (now() - t0) * 1e3;
            if (!g) {
                char buf[1024];
                byoc_error_format(&err, buf, sizeof buf);
                fprintf(stderr, "%s\n", buf);
                return 1;
            }
            nodes = byoc_graph_node_count(g);
            visits = byoc_graph_infer_visits(g);
            byoc_graph_destroy(g);
        }
        qsort(t, (size_t)runs, sizeof(double), cmp);
        const char *base = strrchr(path, '/');
        printf("%-48s %8d %10.3f %10.3f %8.2f\n", base ? base + 1 : path, nodes, t[runs / 2], t[0],
               nodes ? (double)visits / nodes : 0.0);
    }
    free(t);
    byoc_registry_destroy(reg);
    return 0;
}
