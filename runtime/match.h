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

/* The most goals one enumeration (one pattern at one root) may try.
 * Alternatives multiply: a spec whose alternatives nest 30 deep, each
 * naming the one below twice, has 2^30 ways to match one node, all alike.
 * The bundled backends' patterns try at most 60; the bound keeps the
 * matching of a whole graph linear in its nodes (doc/limits.md). */
#define BX_MATCH_MAX_STEPS 100000

/* Enumerate every match of p rooted at graph node root, before the
 * predicate: alternatives yield all their matches, commutative calls both
 * argument orders, a node referenced twice in the pattern must be one
 * graph node.  Returns the number of matches reported (up to a stop), or
 * -1 when the enumeration passed BX_MATCH_MAX_STEPS and was cut short. */
int bx_match_at(const byoc_graph *g, const byoc_pattern_decl *p, int root, bx_match_fn fn,
                void *ctx);

/* Why a pattern does not match at a root: the failure that got furthest
 * (most pattern nodes matched before it) over every alternative tried. */
typedef enum bx_mismatch_kind {
    BX_MISMATCH_NONE,         /* it matches */
    BX_MISMATCH_OP,           /* not a call of one of the pattern's ops */
    BX_MISMATCH_ARITY,        /* a call with another number of arguments */
    BX_MISMATCH_ATTR,         /* an attribute differs (attr names which) */
    BX_MISMATCH_CONST,        /* not a constant, or another value or dtype */
    BX_MISMATCH_TUPLE,        /* not a tuple (of that arity) */
    BX_MISMATCH_PROJ,         /* not a projection (of that index) */
    BX_MISMATCH_SAME          /* must be the node bound before (slot) */
} bx_mismatch_kind;

typedef struct bx_mismatch {
    bx_mismatch_kind kind;
    int pnode;                /* the pattern node that failed */
    int node;                 /* the graph node it was tried against */
    int attr;                 /* ATTR: index into the pnode's attrs */
    int bound;                /* SAME: the node the slot holds */
    int progress;             /* pattern nodes matched before it */
    bool touched;             /* the attempt had reached the focus node */
} bx_mismatch;

/* Try p at root and describe in *why the furthest failure of an attempt
 * that reached graph node focus (matched it, or failed on it), else the
 * furthest failure of any attempt; returns the number of matches (0 when
 * it failed everywhere), or -1 when cut short as bx_match_at is. */
int bx_match_diagnose(const byoc_graph *g, const byoc_pattern_decl *p, int root, int focus,
                      bx_mismatch *why);

/* Evaluate p's predicate on m with a target's option values.  True when it
 * holds (or p has none); on false, *failed_clause (may be NULL) is the
 * clause that failed. */
bool bx_match_holds(const byoc_graph *g, const byoc_pattern_decl *p, const bx_match *m,
                    const byoc_value *options, int noptions, int *failed_clause);

#endif
