/* The exact minimum-cost placement search (doc/partitioner.md section 4).
 *
 * A problem is a DAG of n placeable nodes, numbered in topological order
 * (every edge goes from a lower to a higher index), with the bytes each edge
 * carries; ndevices devices and the links between them; and candidates, each
 * a set of nodes that one target could run as one kernel on one device, at a
 * cost.  A placement chooses candidates that cover every node exactly once
 * and whose partition graph is acyclic; its cost is the sum of the chosen
 * candidates' costs plus, for every edge whose endpoints sit on different
 * devices a and b, latency(a,b) + bytes / bandwidth(a,b).
 *
 * bx_search_run returns the cheapest placement over the given candidates
 * (exact: not over all conceivable kernels, only those offered), or, with a
 * state budget, the best it finds, flagged not optimal.  bx_search_check
 * verifies any placement independently of the search.
 *
 * Inputs, constants and other nodes that need no placement are not part of
 * a problem: the caller leaves them out and reduces the edges accordingly.
 * Internal (bx_ prefix); the public API will wrap it. */
#ifndef BX_SEARCH_H
#define BX_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitset.h"

typedef struct bx_search_problem bx_search_problem;

bx_search_problem *bx_search_problem_create(uint32_t nnodes, uint32_t ndevices);
void bx_search_problem_destroy(bx_search_problem *p);

/* Building a problem.  Each call returns 0 (or, for candidates, the new
 * candidate's index, counted from 0 in the order of the calls) on success
 * and -1 on a bad argument, whose message bx_search_problem_error then
 * gives; the first such error also makes every later bx_search_run fail
 * with it, so a caller may check once, at the end. */

/* An edge from -> to carrying bytes (>= 0); needs from < to. */
int bx_search_add_edge(bx_search_problem *p, uint32_t from, uint32_t to, double bytes);
/* The link from device a to device b (a != b): moving x bytes costs
 * latency + x / bandwidth.  Unset pairs are free (latency 0, infinite
 * bandwidth); bandwidth 0 or an infinite latency means there is no link,
 * and a placement that needs one is invalid. */
int bx_search_set_link(bx_search_problem *p, uint32_t a, uint32_t b,
                       double latency, double bandwidth);
/* A candidate: its nodes (a set of the problem's size, or a list without
 * repeats in any order), its device, its cost (>= 0; +inf marks it unusable)
 * and an opaque id for the caller.  Non-convex candidates are accepted
 * here and left out by the search, which counts them. */
int bx_search_add_candidate(bx_search_problem *p, const bx_bitset *nodes,
                            uint32_t device, double cost, uint64_t id);
int bx_search_add_candidate_nodes(bx_search_problem *p, const uint32_t *nodes,
                                  size_t nnodes, uint32_t device, double cost,
                                  uint64_t id);
/* The first bad argument's message, or NULL. */
const char *bx_search_problem_error(const bx_search_problem *p);

uint32_t bx_search_nnodes(const bx_search_problem *p);
uint32_t bx_search_ndevices(const bx_search_problem *p);
size_t bx_search_ncandidates(const bx_search_problem *p);
/* Candidate c's nodes in increasing order; *n receives their number. */
const uint32_t *bx_search_candidate_nodes(const bx_search_problem *p, size_t c, size_t *n);
uint32_t bx_search_candidate_device(const bx_search_problem *p, size_t c);
double bx_search_candidate_cost(const bx_search_problem *p, size_t c);
uint64_t bx_search_candidate_id(const bx_search_problem *p, size_t c);

typedef struct bx_search_options {
    bool astar;             /* guide by an admissible lower bound (A*) */
    size_t max_states;      /* states the exact search may make (it stops
                               at the first expansion past it); 0: none */
    size_t beam_width;      /* states kept per layer once over budget; 0:
                               max_states / nodes, between 1 and 64, so
                               the beam makes no more states than the
                               exact search could */
    size_t beam_memory;     /* bytes of state keys past which the beam drops
                               its finished layers (at least twice what
                               it keeps); 0: 64 MB */
    double time_limit;      /* seconds for the whole search, 0: none; past
                               it the exact search stops, and past it in
                               the beam the width drops to 1 */
} bx_search_options;

typedef struct bx_search_result {
    bool ok;                /* a complete, valid placement was found */
    bool optimal;           /* ... and it is proven cheapest */
    bool budget_hit;        /* the budget ran out: the beam finished the job */
    bool time_hit;          /* ... the time limit, that is */
    bool out_of_memory;     /* the search stopped for want of memory */
    double lower_bound;     /* no placement costs less: the cost when
                               optimal, else the least open priority when
                               the exact search stopped */
    size_t beam_width;      /* the beam's width, when it ran */
    double cost;            /* candidates' costs plus transfer_cost */
    double transfer_cost;   /* the edges between devices */
    size_t nchosen;
    uint32_t *chosen;       /* candidate indices, in the order placed */
    size_t expanded;        /* states whose successors were made */
    size_t generated;       /* distinct states made (some then found
                               redundant and never expanded) */
    size_t rejected_cyclic; /* steps refused for closing a cycle */
    size_t rejected_dead;   /* steps to a state that some open node's
                               candidates can no longer complete */
    size_t rejected_nonconvex;  /* candidates left out as non-convex */
    size_t skipped_infinite;    /* candidates left out for an infinite cost */
    char error[256];        /* why not ok; empty when ok */
} bx_search_result;

/* Search (options may be NULL: plain Dijkstra, no budget).  Returns NULL
 * only when even the result cannot be allocated; otherwise look at ok
 * (out of memory during the search is !ok with out_of_memory set).  The problem is not modified.  Memory: 72 bytes a
 * node for the ancestors within a band of 512 nodes, plus the states; time
 * grows with the number of states, which depends on how wide the graph is
 * (how many placed nodes still have unplaced neighbours), not on its
 * length. */
bx_search_result *bx_search_run(const bx_search_problem *p, const bx_search_options *opt);
void bx_search_result_destroy(bx_search_result *r);

/* The independent checker: every node covered exactly once, every chosen
 * candidate convex in the DAG, the partition graph acyclic, every transfer
 * over an existing link.  Returns NULL and sets *total (when not NULL) to
 * the placement's cost, recomputed; or writes the first problem found into
 * buf and returns it. */
const char *bx_search_check(const bx_search_problem *p, const uint32_t *chosen,
                            size_t nchosen, double *total, char *buf, size_t bufsize);

#endif
