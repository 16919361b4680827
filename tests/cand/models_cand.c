/* Candidates on every shared Relay model (../shared/models/relay) for the
 * tour GPU's targets: every candidate convex and within its target's
 * bounds, every call covered.  The bounds are recomputed here, apart from
 * cand.c.  Exits 77 (skipped) when the models are absent; prints each
 * model's candidate count and generation time, which are not asserted. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <byoc/byoc.h>

#include "cand.h"
#include "tour_gpu.h"

static const char *const target_names[] = {"gpu_native", "trt", "trt10", "kernels"};
#define NTARGETS 4

static int failures;

static void fail(const char *model, const char *what, int cand)
{
    if (failures++ < 20)
        fprintf(stderr, "%s: candidate %d: %s\n", model, cand, what);
}

static int in_set(const bx_cand *c, int x)
{
    for (int i = 0; i < c->nnodes; i++)
        if (c->nodes[i] == x)
            return 1;
    return 0;
}

/* Calls on the longest path inside c, the plain way. */
static int depth_of(const byoc_graph *g, const bx_cand *c)
{
    int best = 0;
    int *d = calloc((size_t)c->nnodes, sizeof *d);
    for (int i = 0; i < c->nnodes; i++) {
        int x = c->nodes[i], m = 0;
        for (int k = 0; k < byoc_node_arg_count(g, x); k++)
            for (int j = 0; j < i; j++)
                if (c->nodes[j] == byoc_node_arg(g, x, k) && d[j] > m)
                    m = d[j];
        d[i] = m + (byoc_node_kind_of(g, x) == BYOC_N_CALL);
        best = d[i] > best ? d[i] : best;
    }
    free(d);
    return best;
}

static int exits_of(const byoc_graph *g, const bx_cand *c)
{
    int exits = 0;
    for (int i = 0; i < c->nnodes; i++) {
        int x = c->nodes[i], out = x == byoc_graph_output(g);
        for (int k = 0; k < byoc_node_consumer_count(g, x); k++)
            out |= !in_set(c, byoc_node_consumer(g, x, k));
        exits += out;
    }
    return exits;
}

static void check_model(const byoc_registry *reg, const byoc_target_decl *const *targets,
                        const char *path, const char *name)
{
    byoc_error err;
    byoc_graph *g = byoc_relay_read(reg, path, &err);
    if (!g) {
        fprintf(stderr, "%s: %s\n", name, err.msg);
        failures++;
        return;
    }
    bx_cand_set s;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = bx_cands_build(&s, g, reg, targets, NTARGETS, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    if (rc != 0)
        fail(name, err.msg, -1);
    int n = byoc_graph_node_count(g), *covered = calloc((size_t)n, sizeof *covered);
    size_t per_target[NTARGETS] = {0};
    for (size_t i = 0; i < s.n; i++) {
        const bx_cand *c = &s.cands[i];
        const byoc_target_decl *t = targets[c->target];
        per_target[c->target]++;
        if (!bx_convex(g, c->nodes, c->nnodes))
            fail(name, "not convex", (int)i);
        int md = byoc_target_max_depth(reg, t), mx = byoc_target_max_exits(reg, t);
        int mn = byoc_target_max_nodes(reg, t), calls = 0;
        for (int k = 0; k < c->nnodes; k++) {
            calls += byoc_node_kind_of(g, c->nodes[k]) == BYOC_N_CALL;
            covered[c->nodes[k]] = 1;
            if (k > 0 && c->nodes[k] <= c->nodes[k - 1])
                fail(name, "nodes not ascending", (int)i);
        }
        if (calls == 0)
            fail(name, "no call", (int)i);
        if (md > 0 && depth_of(g, c) > md)
            fail(name, "deeper than max_depth", (int)i);
        if (mn > 0 && calls > mn)
            fail(name, "more calls than max_nodes", (int)i);
        if (byoc_target_fusion(reg, t) == BYOC_FUSION_TVM && mx == 0)
            mx = 1;
        if (mx > 0 && exits_of(g, c) > mx)
            fail(name, "more exits than max_exits", (int)i);
        if (!bx_partition_rules_hold(g, reg, t, c->nodes, c->nnodes, NULL, NULL))
            fail(name, "fails a partition rule", (int)i);
        if (i > 0 && s.cands[i - 1].nodes[0] > c->nodes[0])
            fail(name, "not ordered by first node", (int)i);
    }
    for (int x = 0; x < n; x++)
        if (byoc_node_kind_of(g, x) == BYOC_N_CALL && !covered[x])
            fail(name, "a call is in no candidate", x);
    printf("%-36s %5d nodes %6zu candidates (", name, n, s.n);
    for (int t = 0; t < NTARGETS; t++)
        printf("%s%s %zu", t ? ", " : "", target_names[t], per_target[t]);
    printf(") %.2f ms\n", ms);
    free(covered);
    bx_cands_free(&s);
    byoc_graph_destroy(g);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    const char *root = getenv("BYOC_SHARED_MODELS");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/relay", root ? root : "../shared/models");
    DIR *d = opendir(dir);
    if (!d) {
        printf("SKIP: no shared models at %s\n", dir);
        return 77;
    }
    char *names[256];
    int nnames = 0;
    struct dirent *e;
    while ((e = readdir(d)) && nnames < 256) {
        size_t len = strlen(e->d_name);
        if (len > 6 && !strcmp(e->d_name + len - 6, ".relay"))
            names[nnames++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)nnames, sizeof *names, cmp_str);
    byoc_error err;
    byoc_registry *reg = byoc_registry_create();
    if (byoc_register_tour_gpu(reg, &err) != 0 || byoc_registry_check(reg, &err) != 0) {
        fprintf(stderr, "registry: %s\n", err.msg);
        return 1;
    }
    const byoc_target_decl *targets[NTARGETS];
    for (int t = 0; t < NTARGETS; t++)
        targets[t] = byoc_registry_target(reg, target_names[t]);
    for (int i = 0; i < nnames; i++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        check_model(reg, targets, path, names[i]);
        free(names[i]);
    }
    byoc_registry_destroy(reg);
    if (nnames == 0) {
        printf("SKIP: no .relay files in %s\n", dir);
        return 77;
    }
    printf("%d failures\n", failures);
    return failures ? 1 : 0;
}
