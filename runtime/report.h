/* Showing a partitioning: what report.c offers beyond the public writers
 * of <byoc/partition.h> (byoc_result_write_text, _json, _relay, _dot).
 * Internal (bx_ prefix). */
#ifndef BX_REPORT_H
#define BX_REPORT_H

#include <stdio.h>

#include <byoc/graph.h>

/* One kernel, nodes[0..n) of g (ascending), as a standalone Relay
 * function `def @<name>(...) -> T { ... }` that a user can compile and
 * time: its parameters are the kernel's inputs - the arguments its nodes
 * take from outside it, constants included, since weights may be absent -
 * named %<name>_i0, %<name>_i1, ... in order of first use; scalar
 * constants with a known value stay inline as literals.  It returns what
 * the rest of the graph uses of it (a tuple when several values).  No
 * version header: callers write several kernels into one file.  Returns
 * 0; or -1 when a node has no Relay form (an opaque call: nothing is
 * written) or writing failed (ferror(f) is then set), for the caller to
 * report. */
int bx_relay_write_kernel(FILE *f, const byoc_graph *g, const int *nodes, int n,
                          const char *name);

#endif
