/* The partitioner: where each operator of a graph runs.
 *
 * byoc_partition_graph takes a typed graph and a set of targets of the graph's
 * registry, finds every kernel each target could run (its candidates: the
 * matches of its patterns, its `supports` rules combined by its fusion
 * style, TVM's fusion rules for `supports *` targets), prices each with a
 * cost estimator, and searches for the placement of every operator call
 * with the lowest total estimated latency, transfers between devices
 * included.  The search is exact over the candidates it is given: the
 * result is the cheapest placement that can be built from them, and it is
 * valid by construction (every call placed once, every partition convex,
 * the partitions in an order that can run).
 *
 * Inputs, constants, tuples and projections are not placed: they cost
 * nothing and travel with their consumers; a kernel that matched a tuple
 * or a projection in one of its patterns lists it among its nodes.
 *
 * Ownership: a result owns everything it points to except the graph and
 * the registry, which must outlive it. */
#ifndef BYOC_PARTITION_H
#define BYOC_PARTITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <byoc/error.h>
#include <byoc/graph.h>
#include <byoc/registry.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- kernels and their costs ----------------------------------------- */

/* A kernel: what one target would run as one function. */
typedef struct byoc_kernel {
    const byoc_graph *graph;
    const byoc_target_decl *target;
    const byoc_device_decl *device;
    int nnodes;
    const int *nodes;          /* graph nodes, ascending */
    const char *pattern;       /* the composite when one pattern makes the
                                  whole kernel, else NULL */
    double efficiency;         /* the pattern's, else the target's */
    const char *signature;     /* canonical: ops, attributes, types and
                                  structure, not node numbers; equal kernels
                                  on one target have equal signatures */
} byoc_kernel;

/* Where a kernel's cost came from. */
typedef enum byoc_cost_source {
    BYOC_COST_ANALYTIC,        /* the roofline model of doc/partitioner.md section 3 */
    BYOC_COST_TABLE,           /* a measured-cost table */
    BYOC_COST_CALLBACK,        /* the user's function */
    BYOC_COST_UNKNOWN          /* no estimate: a type or FLOP count was not
                                  known; charged the device's launch time */
} byoc_cost_source;
const char *byoc_cost_source_name(byoc_cost_source s);

/* A user estimator: seconds for k, or +INFINITY when the target cannot run
 * it, or a negative number or NaN when it does not know (the next
 * estimator then answers: the table, then the analytic model). */
typedef double (*byoc_cost_fn)(const byoc_kernel *k, void *ctx);

/* A measured-cost table: CSV lines "target,signature,seconds" (a header
 * line starting with "target," and lines starting with '#' are skipped;
 * a signature containing commas or quotes is written in double quotes,
 * with "" for a quote).  Seconds may be "inf" for a kernel that cannot
 * run.  Errors name file:line:col. */
typedef struct byoc_cost_table byoc_cost_table;
byoc_cost_table *byoc_cost_table_read(const char *path, byoc_error *err);
byoc_cost_table *byoc_cost_table_read_string(const char *text, size_t len,
                                             const char *name, byoc_error *err);
void byoc_cost_table_destroy(byoc_cost_table *t);
size_t byoc_cost_table_size(const byoc_cost_table *t);

/* k as a Relay function `def @name(...) { ... }`, as byoc_write_kernels
 * writes each kernel: its inputs, constants included, are parameters
 * (%name_i0, %name_i1, ... in order of first use; scalar constants with a
 * known value stay inline), and it returns what the rest of the graph uses
 * of it.  No version header.  For a cost function that compiles and times
 * the kernel it is asked about (the Python package's Kernel.relay).  name
 * NULL: "kernel"; otherwise letters, digits and '_', not starting with a
 * digit.  Returns 0, or -1 with err set: a bad name, a node with no Relay
 * form (an opaque call; nothing is written), or a write error. */
int byoc_kernel_write_relay(const byoc_kernel *k, const char *name, FILE *f, byoc_error *err);

/* ---- options ------------------------------------------------------------ */

typedef enum byoc_strategy {
    BYOC_SEARCH_OPTIMAL,       /* the exact search (default) */
    BYOC_SEARCH_GREEDY,        /* targets in priority order take maximal
                                  regions of what is left (ONNX Runtime) */
    BYOC_SEARCH_SINGLE         /* one backend plus the native targets */
} byoc_strategy;

typedef struct byoc_partition_options {
    /* The targets, by name, highest priority first (greedy's order);
     * ntargets == 0: every target of the registry on its default device
     * (byoc_registry_default_device: unless set, the device of the first
     * target that supports every op).  Otherwise exactly these, plus the
     * native target of each device they use. */
    const char *const *targets;
    int ntargets;
    byoc_strategy strategy;
    const char *single;        /* SINGLE: the backend */
    const byoc_cost_table *table;   /* NULL: none */
    byoc_cost_fn cost_fn;      /* NULL: none */
    void *cost_ctx;
    size_t max_states;         /* 0: 2,000,000; past it the search becomes
                                  a beam and the result is not proven
                                  optimal, but carries a lower bound */
    size_t beam_width;         /* 0: max_states / calls, between 1 and 64 */
    bool no_astar;             /* plain Dijkstra instead of A* */
    bool no_check;             /* skip the independent checker (it runs
                                  by default) */
    double time_limit;         /* seconds for each search, 0: none; past it
                                  the exact search stops and a beam finishes,
                                  in one greedy pass once the time is up */
    bool strict_table;         /* with a table: a kernel priced that it
                                  lacks (and no callback priced) is an
                                  error naming it, instead of falling back
                                  to the analytic model */
} byoc_partition_options;

void byoc_partition_options_init(byoc_partition_options *o);
/* Every function below that takes options accepts NULL for the defaults. */

/* The targets o selects in reg, highest priority first, with the native
 * target of every device they use added when none of them is native there.
 * Writes up to max of them to out and returns how many there are (which
 * may exceed max), or -1 with err set (an unknown target, with a
 * suggestion; a device without a native target). */
int byoc_partition_targets(const byoc_registry *reg, const byoc_partition_options *o,
                           const byoc_target_decl **out, int max, byoc_error *err);

/* ---- the result -------------------------------------------------------- */

/* A named pattern's match inside a partition (TVM's Composite function). */
typedef struct byoc_composite {
    const char *pattern;
    int nnodes;
    const int *nodes;          /* ascending */
} byoc_composite;

typedef struct byoc_partition {
    const byoc_target_decl *target;
    const byoc_device_decl *device;
    int nnodes;
    const int *nodes;          /* graph nodes, ascending */
    int ncomposites;
    const byoc_composite *composites;
    double cost;               /* seconds, the kernel alone */
    byoc_cost_source cost_source;
    const char *signature;
} byoc_partition;

typedef struct byoc_result {
    const byoc_graph *graph;
    const char *strategy;      /* "optimal", "greedy", "single:NAME" */
    int ntargets;
    const byoc_target_decl *const *targets;   /* the targets searched */
    int npartitions;
    const byoc_partition *partitions;   /* in an order that can run */
    const int *node_partition; /* per graph node: its partition, or -1
                                  (inputs, constants, tuples and
                                  projections no kernel absorbed) */
    double cost;               /* kernels plus transfers, seconds */
    double transfer_cost;
    bool optimal;              /* proven cheapest over the candidates */
    bool budget_hit;           /* the state budget ran out */
    size_t ncandidates;        /* distinct candidates priced */
    size_t nkernels;           /* distinct signatures priced */
    size_t expanded, generated;   /* search states */
    size_t from_table, from_callback, unknown;  /* partitions by where their
                                                   cost came from (the rest:
                                                   the analytic model) */
    bool cost_table;           /* a measured-cost table was given */
    size_t kernels_from_table; /* distinct kernels (of nkernels) priced by
                                  the table ... */
    size_t kernels_fallback;   /* ... and those the given table lacked,
                                  priced by the analytic model instead (0
                                  without a table) */
    double candidate_seconds, search_seconds;  /* wall time */
    double lower_bound;        /* no placement over the candidates costs
                                  less: cost itself when optimal, else what
                                  the exact search proved when its budget
                                  ran out (see byoc_result_gap) */
    bool time_hit;             /* the budget that ran out was the time */
    /* libbyoc's own: in a result byoc_partition_graph made, the result
     * itself, whose hidden part keeps what byoc_result_parts builds
     * (<byoc/lower.h>); NULL in a result built by hand. */
    const void *priv;
} byoc_result;

/* How far from optimal r may be, as a fraction of the lower bound: 0 when
 * optimal, (cost - lower_bound) / lower_bound otherwise (+inf when nothing
 * was proven). */
double byoc_result_gap(const byoc_result *r);
/* "optimal", or how far from it r may be and which budget ran out
 * ("within 3.2% of optimal (state budget)"), written into buf (and
 * returned; "optimal" is a constant string). */
const char *byoc_result_optimality(const byoc_result *r, char *buf, size_t size);

/* Partition g over the targets of its registry, with their current option
 * values.  Returns NULL with err set when the options are bad (an unknown
 * target, with a suggestion), when some call cannot be placed on any
 * selected target (naming the node and why), or when the checker rejects
 * the result (a bug). */
byoc_result *byoc_partition_graph(const byoc_graph *g, const byoc_partition_options *o,
                                  byoc_error *err);
void byoc_result_destroy(byoc_result *r);

/* The independent checker (doc/partitioner.md section 5): every call in exactly one
 * partition, each partition convex, the partition graph acyclic and in
 * order, each partition admitted by its target's `partition where` rules.
 * NULL when the result passes, else the first problem, written to buf. */
const char *byoc_result_check(const byoc_result *r, char *buf, size_t size);

/* ---- output ------------------------------------------------------------- */

/* A table: one line per partition (target, kernel, nodes, cost), then the
 * totals. */
int byoc_result_write_text(const byoc_result *r, FILE *f, byoc_error *err);
/* JSON (RFC 8259), documented in doc/json.md. */
int byoc_result_write_json(const byoc_result *r, FILE *f, byoc_error *err);
/* Relay text: each partition a function with Primitive=1 and
 * Compiler="<target>" (none for native targets), each composite an inner
 * function with Composite="<pattern>", as TVM's partitioning prints. */
int byoc_result_write_relay(const byoc_result *r, FILE *f, byoc_error *err);
/* Graphviz DOT, partitions as clusters coloured by target. */
int byoc_result_write_dot(const byoc_result *r, FILE *f, byoc_error *err);

/* ---- kernels, for measuring -------------------------------------------- */

/* Every distinct kernel the targets could run on g (one per target and
 * signature), written as "# signature" lines each followed by the kernel as
 * a Relay function, so users can measure them and write a cost table. */
int byoc_write_kernels(const byoc_graph *g, const byoc_partition_options *o, FILE *f,
                       byoc_error *err);

/* The same kernels, each as a standalone ONNX model in a folder, for a
 * measuring harness to run (doc/cost-table.md, "The measurement loop"):
 * the kernel's inputs are the model's graph inputs, its constants
 * initializers - the model's own data where the model carries it, else
 * deterministic pseudo-random data of their shape and type - and what
 * the rest of the graph reads of it the outputs.  An ONNX model's nodes
 * are written as themselves wherever `byoc partition -f onnx` would write
 * them so; the rest (every call of a Relay model) through the op emitter.
 * dir/kernels.json lists them (doc/cost-table.md). */
typedef struct byoc_kernel_file {
    const char *target;       /* the target's name */
    const char *device;       /* the name of the device at the root of its chain */
    const char *runtime;      /* byoc_target_runtime(), or NULL */
    const char *signature;    /* exactly as cost tables key it */
    const char *file;         /* the model's file name inside dir ("k12_dnnl.onnx"); NULL
                                 when the kernel has no ONNX form (then why says why) */
    int nops;                 /* the kernel's calls' op names, in node order */
    const char *const *ops;
    double estimate;          /* seconds, what the partitioner's costs say now */
    byoc_cost_source source;  /* ... and where that came from */
    const char *why;          /* file == NULL: why the kernel could not be written */
} byoc_kernel_file;

typedef struct byoc_kernel_write_options {
    const char *model_path;   /* the ONNX file g was read from (for its weights and verbatim
                                 nodes; it must be the file read); NULL for Relay */
    /* Write only kernels for which want() is true (NULL: all); the others
     * are not listed either. */
    bool (*want)(const char *target, const char *signature, void *ctx);
    void *ctx;
    uint64_t seed;            /* of the random data for constants without data; 0 is a
                                 fine default */
    bool rewrite;             /* every call from the graph, none of the model's own nodes
                                 (as byoc_onnx_write_options.rewrite) */
} byoc_kernel_write_options;

typedef struct byoc_kernel_files byoc_kernel_files;
/* Create dir (must not exist, or be empty), write the kernels and
 * dir/kernels.json; NULL and err on failure, leaving no dir behind.  A
 * kernel the writer cannot express fails only itself: it is listed with
 * file NULL and why set.  wo may be NULL (a Relay graph, every kernel,
 * seed 0). */
byoc_kernel_files *byoc_write_kernels_onnx(const byoc_graph *g, const byoc_partition_options *o,
                                           const byoc_kernel_write_options *wo, const char *dir,
                                           byoc_error *err);
size_t byoc_kernel_files_count(const byoc_kernel_files *k);
const byoc_kernel_file *byoc_kernel_files_at(const byoc_kernel_files *k, size_t i);
void byoc_kernel_files_destroy(byoc_kernel_files *k);

/* ---- matches ------------------------------------------------------------ */

/* What each target could take on g, whatever the search then chooses: per
 * target, how many calls of each op some kernel of it can contain, every
 * named pattern's holding matches (by their root nodes), and the calls it
 * can take.  The targets are o's (the natives they bring along are not
 * shown unless listed); with none listed, every registered target that is
 * not native. */
int byoc_write_matches(const byoc_graph *g, const byoc_partition_options *o, FILE *f,
                       byoc_error *err);

/* ---- explain ------------------------------------------------------------ */

/* Why node is, or is not, placed on each searched target (or only on
 * targets[0..ntargets), when ntargets > 0, each of which must be searched):
 * no rule names its op; which pattern failed at which node; which
 * predicate clause was false and the values it saw; a partition rule that
 * refused; or that it was possible but cost more (both costs). */
int byoc_explain(const byoc_graph *g, int node, const char *const *targets, int ntargets,
                 const byoc_partition_options *o, FILE *f, byoc_error *err);

/* ---- measured costs from an ONNX Runtime profile ------------------------ */

typedef struct byoc_profile_options {
    /* The ONNX model g was read from (the profile names its nodes; it must
     * be the file that was read); NULL: byoc_graph_source(g). */
    const char *model_path;
    /* Attribute every profiled node to this target, whatever provider ran
     * it; NULL: to each target whose runtime is "onnxruntime:PROVIDER" for
     * the event's provider.  With no targets in o, the targets are this
     * one alone. */
    const char *target;
} byoc_profile_options;

/* Read an ONNX Runtime profile (enable_profiling's Chrome-trace JSON) of
 * g's model and write cost-table lines (doc/cost-table.md) for the kernels
 * that correspond to profiled nodes: for each profiled node, or node ORT
 * fused from model nodes in a way its name and op say for certain, the
 * graph calls that came from those model nodes; each target (see po) with
 * a candidate kernel made of exactly those calls gets a line
 * "target,signature,seconds": the median over the node's runs, and over
 * the nodes when several give one kernel.  Lines are sorted by target and
 * signature.  What could not be mapped (a node ORT made, a fusion that
 * covers several byoc kernels, no target for the provider) and model
 * nodes that made no call are reported one line each, then a summary
 * line, to report (may be NULL).  po may be NULL.  Returns 0, or -1 with
 * err set (malformed JSON with its line and column, a profile that is not
 * one, a graph not read from ONNX, an unknown target). */
int byoc_cost_from_ort_profile(const byoc_graph *g, const byoc_partition_options *o,
                               const char *profile_path, const byoc_profile_options *po,
                               FILE *table, FILE *report, byoc_error *err);

#ifdef __cplusplus
}
#endif
#endif
