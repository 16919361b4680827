/* The partitioner's driver, shared with explain (internal, bx_ prefix).
 * See partition.c. */
#ifndef BX_PARTITION_IMPL_H
#define BX_PARTITION_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <byoc/partition.h>

#include "arena.h"
#include "cand.h"
#include "estimate.h"
#include "search.h"

struct bx_lower_parts;

/* A result and the arena that holds what it points to; pub.priv points at
 * pub, which tells it from a result built by hand. */
typedef struct byoc_result_impl {
    byoc_result pub;            /* first: a byoc_result * is one of these */
    bx_arena arena;
    struct bx_lower_parts *lower;   /* byoc_result_parts' arrays, made on
                                       first use (runtime/lower/parts.c) */
} byoc_result_impl;

/* Graph calls as search-problem nodes. */
typedef struct bx_pmap {
    const byoc_graph *graph;
    uint32_t *index;            /* graph node -> problem node, or UINT32_MAX */
    int *calls;                 /* problem node -> graph node */
    size_t ncalls;
    uint32_t *efrom, *eto;      /* call edges, as problem nodes */
    double *ebytes;             /* what each carries */
    size_t nedges;
} bx_pmap;

void bx_pmap_init(bx_pmap *pm, const byoc_graph *g, const bx_cand_set *cs);
void bx_pmap_free(bx_pmap *pm);
void bx_pmap_edges(bx_pmap *pm, bx_search_problem *p);

/* Incoming edges of one call: distinct (producer, field) pairs. */
typedef struct bx_edge_acc {
    uint32_t *from;
    int *field;                 /* -1: the whole result */
    double *bytes;
    size_t n, cap;
} bx_edge_acc;
void bx_edge_acc_add(bx_edge_acc *acc, uint32_t from, int field, double bytes);

/* The selected targets, highest priority first, natives added for every
 * device used.  *out is malloc'ed. */
int bx_select_targets(const byoc_registry *reg, const byoc_partition_options *o,
                      const byoc_target_decl ***out, int *nout, byoc_error *err);

/* One graph, its targets, candidates and their costs. */
typedef struct bx_session {
    const byoc_graph *graph;
    const byoc_registry *reg;
    byoc_partition_options opt;
    const byoc_target_decl **targets;
    int ntargets;
    bx_cand_set cands;
    bx_estimator *est;
    bx_estimate *costs;         /* per candidate */
    bx_pmap pmap;
    double candidate_seconds;
} bx_session;

/* o may be NULL: the defaults. */
int bx_session_open(bx_session *s, const byoc_graph *g, const byoc_partition_options *o,
                    byoc_error *err);
void bx_session_close(bx_session *s);
/* Search over the candidates with use[i] (all when use is NULL). */
byoc_result *bx_session_run(bx_session *s, const char *strategy, const bool *use,
                            byoc_error *err);

/* Every distinct kernel of the session - one per (target, signature), the
 * first candidate of each in candidate order - for the kernel writers
 * (byoc_write_kernels, byoc_write_kernels_onnx): fn gets the candidate's
 * index; a nonzero return stops the walk and is returned. */
typedef int (*bx_kernel_fn)(const bx_session *s, size_t cand, void *ctx);
int bx_session_each_kernel(const bx_session *s, bx_kernel_fn fn, void *ctx);

#endif
