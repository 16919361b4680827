/* Benchmark of the placement search on synthetic layered DAGs.
 *
 * A graph of N nodes in layers of W nodes: each node takes one or two
 * inputs from the layer before and now and then a skip edge from two layers
 * back, the shape of a residual network.  Candidates are local, the way
 * pattern matches are: every node alone on each of two devices, and chains
 * of 2-4 nodes along edges (fused kernels), cheaper per node the longer they
 * are, on either device.  Some nodes are not supported on the accelerator.
 * The links cost a latency plus bytes over bandwidth, so transfers matter.
 *
 * usage: search_random [-r repeats] [-b max_states] [N:W ...]
 * Prints, per graph: candidates, states made and expanded, the best of the
 * repeats in milliseconds for Dijkstra and for A*, and the cost; every
 * result is verified by the independent checker.  The number of states
 * grows with the width W (the frontier), not with N: the defaults go to
 * 10,000 nodes at widths 1 and 2 and show the growth with width at 1,000.
 * With -b the exact search stops at that many states and a beam finishes;
 * "beam" then marks the line. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search.h"

typedef struct rng { uint64_t s; } rng;
static uint64_t next(rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return r->s;
}
static double uniform(rng *r) { return (double)(next(r) >> 11) / 9007199254740992.0; }

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static bx_search_problem *layered(uint32_t n, uint32_t w, uint64_t seed)
{
    rng r = { seed };
    bx_search_problem *p = bx_search_problem_create(n, 2);
    bx_search_set_link(p, 0, 1, 10e-6, 16e9);
    bx_search_set_link(p, 1, 0, 10e-6, 16e9);
    /* Successor lists, to grow chains along. */
    uint32_t *succ = calloc((size_t)n * 4, sizeof(uint32_t)), *nsucc = calloc(n, sizeof(uint32_t));
    for (uint32_t x = w; x < n; x++) {
        uint32_t layer = x / w, npred = 1 + (uint32_t)(next(&r) % 2);
        uint32_t prev[2] = { UINT32_MAX, UINT32_MAX };
        for (uint32_t k = 0; k < npred; k++) {
            uint32_t q = (layer - 1) * w + (uint32_t)(next(&r) % w);
            if (k == 1 && q == prev[0])
                continue;
            prev[k] = q;
            bx_search_add_edge(p, q, x, 1e5 + 1e6 * uniform(&r));
            if (nsucc[q] < 4)
                succ[(size_t)q * 4 + nsucc[q]++] = x;
        }
        if (layer >= 2 && next(&r) % 8 == 0)
            bx_search_add_edge(p, (layer - 2) * w + (uint32_t)(next(&r) % w), x, 4e5);
    }
    for (uint32_t x = 0; x < n; x++) {
        double base = 20e-6 + 60e-6 * uniform(&r);
        bool accel = next(&r) % 10 != 0;
        bx_search_add_candidate_nodes(p, &x, 1, 0, base, 0);
        if (accel)
            bx_search_add_candidate_nodes(p, &x, 1, 1, base * 0.4, 0);
        /* Chains starting at x. */
        for (uint32_t variant = 0; variant < 2 && nsucc[x]; variant++) {
            uint32_t chain[4] = { x }, len = 1, y = x;
            double cost = base;
            while (len < 4 && nsucc[y]) {
                y = succ[(size_t)y * 4 + (next(&r) % nsucc[y])];
                chain[len++] = y;
                cost += 20e-6 + 60e-6 * uniform(&r);
                double fused = cost * (1 - 0.1 * len);
                bx_search_add_candidate_nodes(p, chain, len, 0, fused, 0);
                if (accel)
                    bx_search_add_candidate_nodes(p, chain, len, 1, fused * 0.4, 0);
            }
        }
    }
    free(succ);
    free(nsucc);
    return p;
}

int main(int argc, char **argv)
{
    int repeats = 3, first = 1;
    size_t budget = 0;
    while (first + 1 < argc && argv[first][0] == '-') {
        if (!strcmp(argv[first], "-r"))
            repeats = atoi(argv[first + 1]);
        else if (!strcmp(argv[first], "-b"))
            budget = (size_t)strtoull(argv[first + 1], NULL, 10);
        else
            break;
        first += 2;
    }
    if (repeats < 1)
        repeats = 1;
    static const char *defaults[] = { "1000:1", "5000:1", "10000:1", "1000:2", "5000:2",
                                      "10000:2", "1000:3", "1000:4" };
    const char **specs = first < argc ? (const char **)argv + first : defaults;
    int nspecs = first < argc ? argc - first : (int)(sizeof defaults / sizeof *defaults);
    printf("%8s %3s %8s %9s %9s %10s %10s %10s  %s\n", "nodes", "W", "cands", "states",
           "expanded", "dijkstra", "A*", "A* states", "cost");
    int status = 0;
    for (int i = 0; i < nspecs; i++) {
        unsigned n = 0, w = 1;
        if (sscanf(specs[i], "%u:%u", &n, &w) < 1 || n == 0 || w == 0) {
            fprintf(stderr, "search_random: bad graph '%s' (want NODES:WIDTH)\n", specs[i]);
            return 2;
        }
        bx_search_problem *p = layered(n, w, 0x2545f4914f6cdd1du + n * 31 + w);
        double best[2] = { 1e300, 1e300 }, cost[2] = { 0, 0 };
        size_t gen[2] = { 0, 0 }, exp[2] = { 0, 0 };
        bool beam = false;
        for (int astar = 0; astar < 2; astar++)
            for (int k = 0; k < repeats; k++) {
                bx_search_options o = { .astar = astar, .max_states = budget };
                double t0 = now_ms();
                bx_search_result *r = bx_search_run(p, &o);
                double t = now_ms() - t0;
                if (t < best[astar])
                    best[astar] = t;
                char buf[256];
                /* The checker is slow (it is written to be obvious): once. */
                const char *err = !r->ok ? r->error : k ? NULL
                                : bx_search_check(p, r->chosen, r->nchosen, NULL, buf, sizeof buf);
                if (err) {
                    fprintf(stderr, "search_random: %u:%u: %s\n", n, w, err);
                    status = 1;
                }
                cost[astar] = r->cost;
                gen[astar] = r->generated;
                exp[astar] = r->expanded;
                beam |= r->budget_hit;
                bx_search_result_destroy(r);
            }
        if (!beam && fabs(cost[0] - cost[1]) > 1e-9 * cost[0]) {
            fprintf(stderr, "search_random: %u:%u: Dijkstra %g, A* %g\n", n, w, cost[0], cost[1]);
            status = 1;
        }
        printf("%8u %3u %8zu %9zu %9zu %8.2fms %8.2fms %10zu  %.6fs%s\n", n, w,
               bx_search_ncandidates(p), gen[0], exp[0], best[0], best[1], gen[1], cost[1],
               beam ? "  beam" : "");
        fflush(stdout);
        bx_search_problem_destroy(p);
    }
    return status;
}
