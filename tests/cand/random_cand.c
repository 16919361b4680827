/* Candidate generation against straightforward references, on random
 * graphs and on long chains.
 *
 *  - The incremental growth of the maximal `fusion any` regions
 *    (bx_cands_build) must give exactly the candidates of the
 *    straightforward growth, which re-merges, re-glues and re-checks every
 *    union whole (bx_cands_build_reference): same sets, composites,
 *    patterns, efficiencies and statistics, on 1,500 random DAGs with
 *    tuples, projections, shared splits, skip connections and unsupported
 *    ops between supported ones.
 *  - bx_convex against reachability computed by brute force, on random
 *    node sets of random DAGs.
 *  - A 20,000-call chain and a 20,000-call residual chain are one region
 *    each (the whole graph), and a 3,000-call residual chain with
 *    unsupported ops in its skip paths gives the reference's set.
 * A fixed seed: every run checks the same graphs. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

#include "cand.h"
#include "cand_spec.h"

static int failures;

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (!(cond)) {                                                    \
            fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);               \
            fprintf(stderr, __VA_ARGS__);                                 \
            fputc('\n', stderr);                                          \
            failures++;                                                   \
        }                                                                 \
    } while (0)

static uint64_t rng = 0x243f6a8885a308d3ull;

static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

static const byoc_tensor_type tensor = {.dtype = BYOC_DT_FLOAT32, .rank = 4, .dims = {1, 8, 8, 8}};

static int must(int n, const byoc_error *err)
{
    if (n < 0) {
        fprintf(stderr, "graph: %s\n", err->msg);
        exit(1);
    }
    return n;
}

static int call1(byoc_graph *g, const char *op, int a)
{
    byoc_error err;
    return must(byoc_graph_add_call(g, op, &a, 1, &err), &err);
}

static int call2(byoc_graph *g, const char *op, int a, int b)
{
    byoc_error err;
    int args[2] = {a, b};
    return must(byoc_graph_add_call(g, op, args, 2, &err), &err);
}

/* A random DAG of about n nodes, every value of one tensor type.  vals
 * holds the tensor-valued nodes so far; most arguments are recent ones
 * (chains), some far ones (skip connections). */
static byoc_graph *random_graph(const byoc_registry *reg, int n)
{
    byoc_error err;
    byoc_graph *g = byoc_graph_create(reg);
    int *vals = calloc((size_t)n + 16, sizeof *vals), nv = 0;
    int *tups = calloc((size_t)n + 16, sizeof *tups), nt = 0;   /* one-field tuples */
    int *pairs = calloc((size_t)n + 16, sizeof *pairs), np = 0; /* two-field tuples */
    vals[nv++] = must(byoc_graph_add_input(g, "x", &tensor, &err), &err);
    if (rnd(2))
        vals[nv++] = must(byoc_graph_add_input(g, "y", &tensor, &err), &err);
    byoc_value one = {.kind = BYOC_V_INT, .u.i = 1};
    while (byoc_graph_node_count(g) < n) {
        int a = vals[nv - 1 - (int)rnd(nv < 3 ? (uint32_t)nv : 3)];
        int b = vals[rnd((uint32_t)nv)];
        int v;
        switch (rnd(nt && np ? 16 : 12)) {
        case 0: case 1: case 2: v = call1(g, "nn.relu", a); break;
        case 3: v = call1(g, rnd(2) ? "sigmoid" : "tanh", a); break;
        case 4: case 5: v = call2(g, "add", a, b); break;
        case 6: {
            int w = must(byoc_graph_add_const(g, &tensor, NULL, &err), &err);
            v = call2(g, "nn.conv2d", a, w);
            break;
        }
        case 7: {
            /* a split of one section, read by one or two projections */
            int s = call1(g, "split", a);
            must(byoc_graph_set_attr(g, s, "indices_or_sections", &one, &err), &err);
            v = must(byoc_graph_add_proj(g, s, 0, &err), &err);
            if (rnd(2)) {
                vals[nv++] = v;
                v = must(byoc_graph_add_proj(g, s, 0, &err), &err);
            }
            break;
        }
        case 8: {
            /* concatenate of a one-field tuple, which later ones may share */
            int t = must(byoc_graph_add_tuple(g, &a, 1, &err), &err);
            tups[nt++] = t;
            v = call1(g, "concatenate", t);
            break;
        }
        case 9: {
            /* glue in a row: a tuple and projections of it */
            int f[2] = {a, b};
            int t = must(byoc_graph_add_tuple(g, f, 2, &err), &err);
            pairs[np++] = t;
            v = must(byoc_graph_add_proj(g, t, (int)rnd(2), &err), &err);
            if (rnd(2)) {
                vals[nv++] = v;
                v = must(byoc_graph_add_proj(g, t, (int)rnd(2), &err), &err);
            }
            break;
        }
        case 10: {
            /* a tuple read by two calls */
            int t = must(byoc_graph_add_tuple(g, &a, 1, &err), &err);
            vals[nv++] = call1(g, "concatenate", t);
            v = call1(g, "concatenate", t);
            break;
        }
        case 12: {
            /* nested glue: a tuple holding a tuple, projected twice */
            int f[2] = {tups[rnd((uint32_t)nt)], a};
            int t = must(byoc_graph_add_tuple(g, f, 2, &err), &err);
            int p = must(byoc_graph_add_proj(g, t, 0, &err), &err);
            if (rnd(2))
                v = must(byoc_graph_add_proj(g, p, 0, &err), &err);
            else
                v = call1(g, "concatenate", p);
            break;
        }
        case 14: v = must(byoc_graph_add_proj(g, pairs[rnd((uint32_t)np)], (int)rnd(2), &err), &err); break;
        case 13: v = call1(g, "concatenate", tups[rnd((uint32_t)nt)]); break;
        default: v = call2(g, "add", b, a); break;
        }
        vals[nv++] = v;
    }
    /* the output: the last value, or a tuple of the last few */
    int out = vals[nv - 1];
    if (rnd(2) && nv > 3) {
        int f[3] = {vals[nv - 1], vals[nv - 2], vals[nv - 3]};
        out = must(byoc_graph_add_tuple(g, f, 3, &err), &err);
    }
    must(byoc_graph_set_output(g, out, &err), &err);
    free(vals);
    free(tups);
    free(pairs);
    return g;
}

static bool same_comps(const bx_cand *a, const bx_cand *b)
{
    if (a->ncomps != b->ncomps)
        return false;
    for (int i = 0; i < a->ncomps; i++) {
        const bx_comp *x = &a->comps[i], *y = &b->comps[i];
        if (x->pattern != y->pattern || x->nnodes != y->nnodes
            || memcmp(x->nodes, y->nodes, sizeof(int) * (size_t)x->nnodes))
            return false;
    }
    return true;
}

/* Build both ways and compare; returns the candidate count. */
static size_t compare_builds(const byoc_graph *g, const byoc_registry *reg,
                             const byoc_target_decl *const *targets, int nt, const char *what)
{
    bx_cand_set a, b;
    byoc_error ea, eb;
    int ra = bx_cands_build(&a, g, reg, targets, nt, &ea);
    int rb = bx_cands_build_reference(&b, g, reg, targets, nt, &eb);
    CHECK(ra == rb, "%s: return codes %d and %d", what, ra, rb);
    if (ra != 0 && rb != 0)
        CHECK(!strcmp(ea.msg, eb.msg), "%s: errors '%s' and '%s'", what, ea.msg, eb.msg);
    CHECK(a.n == b.n, "%s: %zu candidates, the reference %zu", what, a.n, b.n);
    for (size_t i = 0; i < a.n && i < b.n; i++) {
        const bx_cand *x = &a.cands[i], *y = &b.cands[i];
        bool same = x->target == y->target && x->nnodes == y->nnodes
                    && !memcmp(x->nodes, y->nodes, sizeof(int) * (size_t)x->nnodes)
                    && x->pattern == y->pattern && x->efficiency == y->efficiency
                    && same_comps(x, y);
        CHECK(same, "%s: candidate %zu differs (target %d, %d nodes; reference target %d, %d nodes)",
              what, i, x->target, x->nnodes, y->target, y->nnodes);
        if (!same)
            break;
    }
    CHECK(!memcmp(&a.stats, &b.stats, sizeof a.stats), "%s: statistics differ", what);
    size_t n = a.n;
    bx_cands_free(&a);
    bx_cands_free(&b);
    return n;
}

static void random_regions(const byoc_registry *reg)
{
    static const char *names[] = {"anyall", "anydeep", "anyop", "oneexit", "needconv", "tvm2"};
    const byoc_target_decl *targets[6];
    for (int i = 0; i < 6; i++)
        targets[i] = byoc_registry_target(reg, names[i]);
    size_t total = 0;
    for (int k = 0; k < 1500; k++) {
        byoc_graph *g = random_graph(reg, 6 + (int)rnd(60));
        char what[64];
        snprintf(what, sizeof what, "random graph %d", k);
        /* each target alone (its own regions) and all together */
        int t = k % 7;
        if (t < 6)
            total += compare_builds(g, reg, &targets[t], 1, what);
        else
            total += compare_builds(g, reg, targets, 6, what);
        byoc_graph_destroy(g);
    }
    printf("random graphs: 1500, %zu candidates compared\n", total);
}

static bool member(const bx_cand *c, int x)
{
    for (int i = 0; i < c->nnodes; i++)
        if (c->nodes[i] == x)
            return true;
    return false;
}

/* anyrules' rules by brute force: at most 3 inputs, at most 2 outputs, the
 * first input (in order of first use) not a constant, and every two
 * inputs of one batch size. */
static bool rule_by_hand(const byoc_graph *g, const bx_cand *c)
{
    int in[256], nin = 0, nout = 0;
    for (int i = 0; i < c->nnodes; i++) {
        int v = c->nodes[i];
        for (int k = 0; k < byoc_node_arg_count(g, v); k++) {
            int a = byoc_node_arg(g, v, k);
            bool seen = member(c, a);
            for (int j = 0; j < nin && !seen; j++)
                seen = in[j] == a;
            if (!seen && nin < 256)
                in[nin++] = a;
        }
        bool out = byoc_node_consumer_count(g, v) == 0;
        for (int k = 0; k < byoc_node_consumer_count(g, v); k++)
            out |= !member(c, byoc_node_consumer(g, v, k));
        nout += out;
    }
    if (!(nin >= 1 && nin <= 3 && nout <= 2 && byoc_node_kind_of(g, in[0]) != BYOC_N_CONST))
        return false;
    /* the pair rule, reading as the predicate does (an unknown rank or
     * dimension read makes it false) */
    for (int i = 0; i < nin; i++)
        for (int j = 0; j < nin; j++) {
            int t = in[i], u = in[j];
            if (t == u || byoc_node_kind_of(g, t) == BYOC_N_CONST
                || byoc_node_kind_of(g, u) == BYOC_N_CONST)
                continue;
            const byoc_tensor_type *x = byoc_node_type(g, t, -1), *y = byoc_node_type(g, u, -1);
            if (!x || x->rank < 0)
                return false;
            if (x->rank == 0)
                continue;
            if (!y || y->rank < 0)
                return false;
            if (y->rank == 0)
                continue;
            if (x->dims[0] < 0 || y->dims[0] < 0 || x->dims[0] != y->dims[0])
                return false;
        }
    return true;
}

/* A partition rule decides only what is emitted: anyrules' candidates are
 * anyall's that pass the rule, counted by hand. */
static void random_rules(const byoc_registry *reg)
{
    const byoc_target_decl *all = byoc_registry_target(reg, "anyall");
    const byoc_target_decl *ruled = byoc_registry_target(reg, "anyrules");
    size_t kept = 0, total = 0;
    for (int k = 0; k < 500; k++) {
        byoc_graph *g = random_graph(reg, 6 + (int)rnd(40));
        bx_cand_set a, b;
        byoc_error err;
        int ra = bx_cands_build(&a, g, reg, &all, 1, &err);
        int rb = bx_cands_build(&b, g, reg, &ruled, 1, &err);
        size_t j = 0;
        for (size_t i = 0; ra == 0 && i < a.n; i++) {
            const bx_cand *c = &a.cands[i];
            bool want = rule_by_hand(g, c);
            /* the checker's way to the same rules (inputs by sorting) */
            CHECK(bx_partition_rules_hold(g, reg, ruled, c->nodes, c->nnodes, NULL, NULL) == want,
                  "random graph %d: bx_partition_rules_hold disagrees on candidate %zu", k, i);
            if (!want)
                continue;
            const bx_cand *d = j < b.n ? &b.cands[j] : NULL;
            CHECK(d && d->nnodes == c->nnodes
                      && !memcmp(d->nodes, c->nodes, sizeof(int) * (size_t)c->nnodes),
                  "random graph %d: anyall's candidate %zu passes the rule by hand, anyrules "
                  "has no such candidate", k, i);
            j++;
        }
        CHECK(rb != 0 || j == b.n, "random graph %d: anyrules has %zu candidates, by hand %zu", k,
              b.n, j);
        kept += j;
        total += a.n;
        bx_cands_free(&a);
        bx_cands_free(&b);
        byoc_graph_destroy(g);
    }
    printf("partition rules: %zu of %zu candidates pass, as counted by hand\n", kept, total);
}

/* bx_convex against brute force: a set is convex when no node outside it
 * is reachable from it and reaches it. */
static void random_convexity(const byoc_registry *reg)
{
    int checked = 0, convex = 0;
    for (int k = 0; k < 300; k++) {
        byoc_graph *g = random_graph(reg, 8 + (int)rnd(40));
        int n = byoc_graph_node_count(g);
        unsigned char *reach = calloc((size_t)n * (size_t)n, 1);
        for (int x = n - 1; x >= 0; x--)
            for (int i = 0; i < byoc_node_consumer_count(g, x); i++) {
                int c = byoc_node_consumer(g, x, i);
                reach[(size_t)x * (size_t)n + (size_t)c] = 1;
                for (int y = 0; y < n; y++)
                    reach[(size_t)x * (size_t)n + (size_t)y] |= reach[(size_t)c * (size_t)n + (size_t)y];
            }
        int *v = calloc((size_t)n, sizeof *v);
        bool *in = calloc((size_t)n, sizeof *in);
        for (int trial = 0; trial < 20; trial++) {
            int m = 0, lo = (int)rnd((uint32_t)n), span = 1 + (int)rnd(12);
            memset(in, 0, (size_t)n * sizeof *in);
            for (int x = lo; x < n && x < lo + span; x++)
                if (rnd(2))
                    in[x] = true, v[m++] = x;
            if (m == 0)
                continue;
            bool want = true;
            for (int w = 0; w < n && want; w++) {
                if (in[w])
                    continue;
                bool from = false, to = false;
                for (int i = 0; i < m; i++) {
                    from |= reach[(size_t)v[i] * (size_t)n + (size_t)w] != 0;
                    to |= reach[(size_t)w * (size_t)n + (size_t)v[i]] != 0;
                }
                want = !(from && to);
            }
            bool got = bx_convex(g, v, m) != 0;
            CHECK(got == want, "graph %d: bx_convex says %d, brute force %d", k, got, want);
            checked++;
            convex += want;
        }
        free(v);
        free(in);
        free(reach);
        byoc_graph_destroy(g);
    }
    printf("convexity: %d sets (%d convex) against brute force\n", checked, convex);
}

/* Residual blocks: conv2d, add, relu, conv2d, add, add(skip), relu; with
 * odd, each skip path passes through a sigmoid the target does not take. */
static byoc_graph *residual_chain(const byoc_registry *reg, int calls, bool odd)
{
    byoc_error err;
    byoc_graph *g = byoc_graph_create(reg);
    int x = must(byoc_graph_add_input(g, "x", &tensor, &err), &err);
    while (byoc_graph_node_count(g) < calls) {
        int skip = odd && rnd(3) == 0 ? call1(g, "sigmoid", x) : x;
        int w0 = must(byoc_graph_add_const(g, &tensor, NULL, &err), &err);
        int c0 = call2(g, "nn.conv2d", x, w0);
        int a0 = call2(g, "add", c0, w0);
        int r0 = call1(g, "nn.relu", a0);
        int w1 = must(byoc_graph_add_const(g, &tensor, NULL, &err), &err);
        int c1 = call2(g, "nn.conv2d", r0, w1);
        int a1 = call2(g, "add", c1, w1);
        int a2 = call2(g, "add", a1, skip);
        x = call1(g, "nn.relu", a2);
    }
    must(byoc_graph_set_output(g, x, &err), &err);
    return g;
}

/* The one candidate of the only target holding every call, if any. */
static bool whole_graph_candidate(const byoc_graph *g, const bx_cand_set *s)
{
    int calls = 0;
    for (int i = 0; i < byoc_graph_node_count(g); i++)
        calls += byoc_node_kind_of(g, i) == BYOC_N_CALL;
    for (size_t i = 0; i < s->n; i++)
        if (s->cands[i].nnodes == calls)
            return true;
    return false;
}

static void long_chains(const byoc_registry *reg)
{
    const byoc_target_decl *any = byoc_registry_target(reg, "anyall");
    byoc_error err;
    bx_cand_set s;

    byoc_graph *g = byoc_graph_create(reg);
    int x = must(byoc_graph_add_input(g, "x", &tensor, &err), &err);
    for (int i = 0; i < 20000; i++)
        x = call1(g, "nn.relu", x);
    must(byoc_graph_set_output(g, x, &err), &err);
    CHECK(bx_cands_build(&s, g, reg, &any, 1, &err) == 0, "relu chain: %s", err.msg);
    CHECK(whole_graph_candidate(g, &s), "relu chain: no candidate holds all 20000 calls");
    bx_cands_free(&s);
    byoc_graph_destroy(g);

    g = residual_chain(reg, 20000, false);
    CHECK(bx_cands_build(&s, g, reg, &any, 1, &err) == 0, "residual chain: %s", err.msg);
    CHECK(whole_graph_candidate(g, &s), "residual chain: no candidate holds every call");
    bx_cands_free(&s);
    byoc_graph_destroy(g);

    g = residual_chain(reg, 3000, true);
    compare_builds(g, reg, &any, 1, "residual chain with sigmoids");
    byoc_graph_destroy(g);
    printf("long chains: 20000-call chain and residual chain, 3000-call residual chain\n");
}

int main(void)
{
    byoc_error err;
    byoc_registry *reg = byoc_registry_create();
    if (byoc_register_cand_spec(reg, &err) != 0 || byoc_registry_check(reg, &err) != 0) {
        fprintf(stderr, "registry: %s\n", err.msg);
        return 1;
    }
    random_regions(reg);
    random_rules(reg);
    random_convexity(reg);
    long_chains(reg);
    byoc_registry_destroy(reg);
    printf("%d failures\n", failures);
    return failures ? 1 : 0;
}
