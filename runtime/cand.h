/* Candidates (doc/partitioner.md section 2): every kernel each selected
 * target could run on a graph.
 *
 * Sources, per target:
 *  - named patterns: each match whose predicate holds is a candidate with
 *    one composite (whatever the target's fusion style);
 *  - `supports` rules under `fusion none`: each match is a candidate;
 *  - `supports` rules under `fusion tvm` and `supports *` targets: TVM's
 *    FuseOps grouping over op kinds, and every convex sub-group of it the
 *    combiner rounds reach, bounded by max_depth;
 *  - `supports` rules under `fusion any`: rule matches combined with
 *    touching candidates in rounds, plus the maximal convex regions of
 *    supported nodes, bounded by max_nodes and max_depth; named-pattern
 *    matches join the rounds too, each kept as a composite inside the
 *    kernels it grows into (comps).
 * Every candidate is convex in the graph, within max_depth (calls on its
 * longest path), max_nodes (calls) and max_exits (nodes whose result is
 * used outside it or is the graph's output), and admitted by its target's
 * `partition where` rules; duplicates (same target, same nodes, same
 * composite) are removed, keeping the first.  A named pattern's match is a
 * candidate only when its root is its one result (no other member read
 * from outside).  Generation is polynomial in the graph's
 * size; the bound is documented in cand.c.
 *
 * A candidate's nodes are calls plus the tuples and projections it can
 * own: a projection whose tuple comes from a call inside it, a tuple all of
 * whose readers are calls inside it (so no two chosen candidates can share
 * one); constants matched by `const` are inputs of the kernel, not
 * members.  Internal (bx_ prefix). */
#ifndef BX_CAND_H
#define BX_CAND_H

#include <stddef.h>

#include <byoc/error.h>
#include <byoc/graph.h>
#include <byoc/registry.h>

#include "arena.h"

typedef struct bx_comp {
    const byoc_pattern_decl *pattern;   /* a named pattern */
    int nnodes;
    const int *nodes;                   /* ascending */
} bx_comp;

typedef struct bx_cand {
    int target;                 /* index into the targets given to build */
    int nnodes;
    const int *nodes;           /* ascending */
    int ncomps;
    const bx_comp *comps;       /* named-pattern matches inside it */
    const byoc_pattern_decl *pattern;   /* when one pattern match makes
                                           the whole candidate, else NULL */
    double efficiency;          /* that pattern's if it sets one, else the
                                   target's */
} bx_cand;

typedef struct bx_cand_stats {
    size_t matches;             /* pattern and rule matches found */
    size_t failed_predicate;    /* matches whose predicate was false */
    size_t rejected_nonconvex, rejected_depth, rejected_nodes,
           rejected_exits, rejected_partition_rule;
    size_t duplicates;
} bx_cand_stats;

typedef struct bx_cand_set {
    bx_arena arena;             /* everything below lives here */
    bx_cand *cands;
    size_t n, cap;
    bx_cand **chunks;           /* while building: cands in fixed chunks */
    size_t nchunks;
    bx_cand_stats stats;
} bx_cand_set;

/* Build the candidates of targets[0..ntargets) on g, with the targets'
 * current option values in reg.  Candidates come out ordered by their
 * first node, then target, then size, then nodes, then composite name
 * (deterministic).  Returns
 * 0; or -1 with err set when some call is in no candidate at all, naming
 * the first such node (its op and source location) and why (no selected
 * target supports the op; or the rules that name it failed, with the
 * first failing clause), or when a pattern's matching at one node passed
 * BX_MATCH_MAX_STEPS (match.h).  Either way out is the caller's to free
 * with bx_cands_free (its stats say what was tried). */
int bx_cands_build(bx_cand_set *out, const byoc_graph *g, const byoc_registry *reg,
                   const byoc_target_decl *const *targets, int ntargets, byoc_error *err);
void bx_cands_free(bx_cand_set *s);

/* The same set built with the straightforward (quadratic) growth of the
 * maximal `fusion any` regions, which every join re-merges and re-checks
 * whole: the reference the tests compare bx_cands_build with. */
int bx_cands_build_reference(bx_cand_set *out, const byoc_graph *g, const byoc_registry *reg,
                             const byoc_target_decl *const *targets, int ntargets,
                             byoc_error *err);

/* Is nodes[0..n) convex in g (no path leaves the set and comes back)? */
int bx_convex(const byoc_graph *g, const int *nodes, int n);

/* Does target t admit the node set (its `partition where` rules), with its
 * current options?  On false, *rule and *clause (may be NULL) say which
 * rule and clause failed. */
int bx_partition_rules_hold(const byoc_graph *g, const byoc_registry *reg,
                            const byoc_target_decl *t, const int *nodes, int n,
                            int *rule, int *clause);

#endif
