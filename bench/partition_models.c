/* Benchmark: the partitioner on real and synthetic models.
 *
 *   bench/partition_models [-n RUNS] [-t T1,T2,...] MODEL...
 *   bench/partition_models [-n RUNS] [-t ...] --synthetic NODES...
 *
 * With the bundled real backends (those of the byoc command) and the
 * Collage-like rules of bench/collage_like.byoc (select them with -t), prints per
 * model: nodes, calls, candidates, kernels priced, states expanded, the
 * median of RUNS (default 5) partitionings split into candidates+costs and
 * search, the total, and the estimated latency; then this process's peak
 * resident memory.  Run one model per process to read peak memory per
 * model (bench/local.mk does).  Synthetic models are chains of residual
 * blocks (conv, bias, relu, conv, add, relu) of about NODES nodes, written
 * as Relay text and read back.  Not a test: nothing is asserted. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <byoc/byoc.h>

#include "collage_like.h"
#include "bundled.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Residual blocks until about nodes nodes (9 per block: 6 calls, 3 weights). */
static char *synthetic(int nodes, size_t *len)
{
    int blocks = nodes / 9 > 0 ? nodes / 9 : 1;
    size_t cap = (size_t)blocks * 900 + 4096;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    size_t n = 0;
    n += (size_t)snprintf(s + n, cap - n, "#[version = \"0.0.5\"]\ndef @main(%%x: Tensor[(1, 64, 14, 14), float32]");
    for (int b = 0; b < blocks; b++)
        n += (size_t)snprintf(s + n, cap - n,
                              ", %%w%d: Tensor[(64, 64, 3, 3), float32], %%b%d: Tensor[(64), float32]"
                              ", %%v%d: Tensor[(64, 64, 3, 3), float32]", b, b, b);
    n += (size_t)snprintf(s + n, cap - n, ") {\n");
    const char *prev = "%x";
    char prevbuf[32];
    int t = 0;
    for (int b = 0; b < blocks; b++) {
        n += (size_t)snprintf(s + n, cap - n,
            "  %%%d = nn.conv2d(%s, %%w%d, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]);\n"
            "  %%%d = nn.bias_add(%%%d, %%b%d);\n"
            "  %%%d = nn.relu(%%%d);\n"
            "  %%%d = nn.conv2d(%%%d, %%v%d, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]);\n"
            "  %%%d = add(%%%d, %s);\n"
            "  %%%d = nn.relu(%%%d);\n",
            t, prev, b, t + 1, t, b, t + 2, t + 1, t + 3, t + 2, b, t + 4, t + 3, prev, t + 5,
            t + 4);
        snprintf(prevbuf, sizeof prevbuf, "%%%d", t + 5);
        prev = prevbuf;
        t += 6;
    }
    n += (size_t)snprintf(s + n, cap - n, "  %s\n}\n", prev);
    *len = n;
    return s;
}

int main(int argc, char **argv)
{
    int runs = 5, i = 1;
    const char *targets = NULL;
    bool synth = false;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-t") && i + 1 < argc)
            targets = argv[++i];
        else if (!strcmp(argv[i], "--synthetic"))
            synth = true;
        else
            break;
    }
    if (runs < 1 || i >= argc) {
        fprintf(stderr, "usage: partition_models [-n RUNS] [-t T1,T2,...] [--synthetic] MODEL|NODES...\n");
        return 2;
    }
    byoc_registry *reg = byoc_registry_create();
    byoc_error err;
    if (bundled_register(reg, &err) || byoc_register_collage_like(reg, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    const char *tv[32];
    int nt = 0;
    char *tcopy = targets ? strdup(targets) : NULL;
    for (char *tok = tcopy ? strtok(tcopy, ",") : NULL; tok && nt < 32; tok = strtok(NULL, ","))
        tv[nt++] = tok;
    double *cand = malloc(sizeof(double) * (size_t)runs);
    double *search = malloc(sizeof(double) * (size_t)runs);
    double *total = malloc(sizeof(double) * (size_t)runs);
    printf("%-28s %7s %6s %8s %7s %9s %9s %9s %9s %12s\n", "model", "nodes", "calls",
           "cands", "kernels", "expanded", "cand ms", "search ms", "total ms", "latency us");
    for (; i < argc; i++) {
        byoc_graph *g;
        char name[64];
        if (synth) {
            size_t len;
            char *text = synthetic(atoi(argv[i]), &len);
            g = text ? byoc_relay_read_string(reg, text, len, "synthetic.relay", &err) : NULL;
            free(text);
            snprintf(name, sizeof name, "synthetic %s", argv[i]);
        } else {
            g = byoc_relay_read(reg, argv[i], &err);
            const char *slash = strrchr(argv[i], '/');
            snprintf(name, sizeof name, "%s", slash ? slash + 1 : argv[i]);
        }
        if (!g) {
            char buf[1024];
            byoc_error_format(&err, buf, sizeof buf);
            fprintf(stderr, "%s\n", buf);
            return 1;
        }
        byoc_partition_options o;
        byoc_partition_options_init(&o);
        o.targets = tv;
        o.ntargets = nt;
        o.no_check = true; /* measure the partitioner, not the checker */
        byoc_result *last = NULL;
        for (int r = 0; r < runs; r++) {
            byoc_result *res = byoc_partition_graph(g, &o, &err);
            if (!res) {
                fprintf(stderr, "%s: %s\n", name, err.msg);
                return 1;
            }
            cand[r] = res->candidate_seconds;
            search[r] = res->search_seconds;
            total[r] = res->candidate_seconds + res->search_seconds;
            byoc_result_destroy(last);
            last = res;
        }
        int calls = 0;
        for (int v = 0; v < byoc_graph_node_count(g); v++)
            calls += byoc_node_kind_of(g, v) == BYOC_N_CALL;
        printf("%-28s %7d %6d %8zu %7zu %9zu %9.3f %9.3f %9.3f %12.3f%s\n", name,
               byoc_graph_node_count(g), calls, last->ncandidates, last->nkernels,
               last->expanded, median(cand, runs) * 1e3, median(search, runs) * 1e3,
               median(total, runs) * 1e3, last->cost * 1e6,
               last->optimal ? "" : " (not proven optimal)");
        byoc_result_destroy(last);
        byoc_graph_destroy(g);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak resident memory: %.1f MB\n", (double)ru.ru_maxrss / 1024.0);
    free(cand);
    free(search);
    free(total);
    free(tcopy);
    byoc_registry_destroy(reg);
    return 0;
}
