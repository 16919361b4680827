/* Kernel costs (doc/partitioner.md section 3): canonical kernel signatures,
 * the measured-cost table, the user's callback and the analytic model,
 * asked in that order (callback, table, analytic) and cached by (target,
 * signature).  Internal (bx_ prefix); the table's reader is public
 * (byoc_cost_table_read in <byoc/partition.h>). */
#ifndef BX_ESTIMATE_H
#define BX_ESTIMATE_H

#include <byoc/graph.h>
#include <byoc/partition.h>
#include <byoc/registry.h>

#include "arena.h"

/* The canonical signature of the kernel made of nodes[0..n) (ascending):
 * the pattern's name when one is given, then the kernel as a small
 * expression over numbered inputs, with each call's op, its attributes
 * that differ from their defaults... in a fixed order, and every tensor
 * type; independent of node numbers and names, so equal kernels anywhere
 * in any graph have equal signatures.  Allocated in a. */
const char *bx_kernel_signature(bx_arena *a, const byoc_graph *g, const int *nodes, int n,
                                const char *pattern);

/* The time a cost table gives target t (not its parents) for the
 * signature; false when it has none. */
bool bx_cost_table_lookup(const byoc_cost_table *table, const char *target, const char *signature,
                          double *seconds);

typedef struct bx_estimator bx_estimator;

/* table and fn may be NULL.  g's registry gives devices. */
bx_estimator *bx_estimator_create(const byoc_graph *g, const byoc_cost_table *table,
                                  byoc_cost_fn fn, void *ctx);
void bx_estimator_destroy(bx_estimator *e);

typedef struct bx_estimate {
    double seconds;             /* +inf: cannot run */
    byoc_cost_source source;
    const char *signature;      /* owned by the estimator */
} bx_estimate;

/* The cost of the kernel nodes[0..n) on target t (device d); pattern may
 * be NULL, efficiency is the candidate's. */
bx_estimate bx_estimate_kernel(bx_estimator *e, const byoc_target_decl *t,
                               const byoc_device_decl *d, const int *nodes, int n,
                               const char *pattern, double efficiency);

/* Distinct (target, signature) pairs priced so far, and how many of them
 * each source answered. */
typedef struct bx_estimator_stats {
    size_t kernels, from_table, from_callback, analytic, unknown;
} bx_estimator_stats;
bx_estimator_stats bx_estimator_get_stats(const bx_estimator *e);

#endif
