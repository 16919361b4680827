/* A small partitioned graph for the report writers' tests, built by hand:
 * a composite on a backend, a native partition with two outputs (one a
 * tuple), a partition mixing a composite and a plain op, a partition on a
 * second device, and nodes no partition holds. */
#ifndef REPORT_FIXTURE_H
#define REPORT_FIXTURE_H

#include <byoc/byoc.h>

#define FIXTURE_PARTS 4

typedef struct fixture {
    byoc_registry *reg;
    byoc_graph *g;
    byoc_result r;
    byoc_partition parts[FIXTURE_PARTS];
    byoc_composite comps[2];
    int pnodes[FIXTURE_PARTS][4];
    int cnodes[2][3];
    const byoc_target_decl *targets[4];
    int *node_partition;
} fixture;

/* The fixture's graph as Relay text. */
extern const char *const fixture_relay;

/* 0, or -1 with err set. */
int fixture_open(fixture *fx, byoc_error *err);
void fixture_close(fixture *fx);
/* The node whose source name is `name` ("%5", "data"), or -1. */
int fixture_node(const byoc_graph *g, const char *name);
/* Partition p made of the named nodes (ascending), with node_partition
 * updated. */
void fixture_partition(fixture *fx, int p, const char *target, const char *const *names,
                       int n);

#endif
