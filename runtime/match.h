/* The matcher: every way a compiled pattern matches a graph at a node.
 * Internal (bx_ prefix); the partitioner turns matches into candidates. */
#ifndef BX_MATCH_H
#define BX_MATCH_H

#include <stdbool.h>

#include <byoc/graph.h>
#include <byoc/pred.h>
#include <byoc/registry.h>

typedef struct bx_match {
    const byoc_pattern_decl *pattern;
    int root;                 /* the graph node the pattern's root matched */
    int nmembers;
    const int *members;       /* nodes inside the kernel, ascending */
    int ninputs;
    const int *inputs;        /* nodes the kernel reads (wildcards, constants), ascending */
    int nslots;
    const int *slots;         /* the node bound to each slot, -1 if unbound */
} bx_match;

/* Called for each match; the arrays are valid during the call only.
 * Return nonzero to stop the enumeration. */
typedef int (*bx_match_fn)(const bx_match *m, void *ctx);

/* Enumerate every match of p rooted at graph node root, before the
 * predicate: alternatives yield all their matches, commutative calls both
 * argument orders, a node referenced twice in the pattern must be one
 * graph node.  Returns the number of matches reported (up to a stop). */
int bx_match_at(const byoc_graph *g, const byoc_pattern_decl *p, int root, bx_match_fn fn,
                void *ctx);

/* Evaluate p's predicate on m with a target's option values.  True when it
 * holds (or p has none); on false, *failed_clause (may be NULL) is the
 * clause that failed. */
bool bx_match_holds(const byoc_graph *g, const byoc_pattern_decl *p, const bx_match *m,
                    const byoc_value *options, int noptions, int *failed_clause);

#endif
