/* Lowering: what happens to a placement after the search.
 *
 * A target can register passes that run on exactly the partitions placed
 * on it - TVM's BYOC registered, besides a backend's patterns, the passes
 * that lower what it was given, run only on the functions annotated with
 * its target.  A pass is a C function with user data and a point of the
 * pipeline: once before all partitions, once per partition, or once after
 * all of them.  Passes come from the library (byoc_target_add_pass) or from
 * a .byoc file (`lower NAME;` in a target, naming an `extern lower NAME;`
 * C function of type byoc_pass_fn, as `extern predicate` does).
 *
 * A target's passes are its own, or, when it has none, its parent
 * target's, and so on up the refinement chain: a pass on a device-level
 * target also runs for the targets that refine it unless they set their
 * own.
 *
 * byoc_result_lower runs them: the BEFORE passes of every target that has
 * a partition, in the order of the targets' first partitions; then the
 * partitions in execution order, each with its target's PARTITION passes;
 * then the AFTER passes, in the BEFORE order.  The caller can give default
 * passes (byoc_lower_options.defaults): a default runs for every target
 * whose passes do not include one of the same name (at any point), so a
 * target replaces a built-in writer by registering a pass of its name
 * ("onnx": the ONNX writer of byoc_result_write_onnx).  At each point a
 * target's own passes run first, in order, then the defaults it keeps.
 *
 * What a pass sees (byoc_lower_ctx): the result and its graph, the target
 * and its option values, and for a partition pass the partition - its
 * nodes, composites, and the tensors it reads and writes across its
 * boundary, each with its type, name and the partition on the other side.
 * A pass returns 0, or nonzero with err filled; byoc_result_lower stops at
 * the first failure and reports it with the pass, the partition and the
 * target: "pass 'NAME' of target 'OWNER' on partition 3 (target 'T'):
 * MESSAGE", the file and line the pass gave kept.  doc/lowering.md is the
 * longer story. */
#ifndef BYOC_LOWER_H
#define BYOC_LOWER_H

#include <stdbool.h>

#include <byoc/error.h>
#include <byoc/graph.h>
#include <byoc/partition.h>
#include <byoc/pass.h>
#include <byoc/registry.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A tensor crossing a partition's boundary: the value of a graph node
 * (field -1), or field `field` of a tuple-typed call.  Tuples and
 * projections that no partition holds are seen through: a projection of a
 * call's tuple is that call's field, a tuple node stands for each of its
 * fields.  Constants are never boundary tensors: a partition reading one
 * holds it. */
typedef struct byoc_lower_tensor {
    int node;
    int field;
    const char *name;          /* unique in the model: its name in the
                                  source (an ONNX tensor name, a Relay
                                  variable) when it has one, else made up */
    const byoc_tensor_type *type;
    /* inputs: the partition producing it, -1 for a model input.
     * outputs: -1 when (also) a model output, else the first partition
     * reading it (in execution order). */
    int partition;
    bool model_output;         /* the model returns it (inputs and outputs) */
} byoc_lower_tensor;

/* A partition as passes see it. */
typedef struct byoc_lower_part {
    int index;                 /* in result->partitions */
    int order;                 /* position in the execution order */
    const byoc_partition *partition;
    int ninputs;
    const byoc_lower_tensor *inputs;    /* in order of first use */
    int noutputs;
    const byoc_lower_tensor *outputs;   /* in node and field order: what
                                           another partition reads or the
                                           model returns */
} byoc_lower_part;

/* byoc_lower_ctx is declared in <byoc/pass.h>, with byoc_pass_fn. */
struct byoc_lower_ctx {
    const byoc_result *result;
    const byoc_graph *graph;
    const byoc_registry *registry;
    /* The target the pass runs for (the partition's), and the target it
     * was registered on (the same, or one it refines; NULL for a default
     * pass). */
    const byoc_target_decl *target;
    const byoc_target_decl *owner;
    const byoc_value *options;  /* target's current values, as target->options */
    const char *pass;           /* the pass's name */
    byoc_pass_point point;
    /* PARTITION: the partition; NULL at BEFORE and AFTER. */
    const byoc_lower_part *part;
    /* Every partition, in execution order. */
    int nparts;
    const byoc_lower_part *parts;
    /* From byoc_lower_options. */
    const char *dir;
    void *run;
};

/* Register a pass on target `target` after those it has (generated ones
 * first); the name is copied.  A target that ran its parent's passes now
 * runs its own.  Fails on an unknown target (with a suggestion), a NULL or
 * empty name, a NULL fn, or a name the target already has at that
 * point. */
int byoc_target_add_pass(byoc_registry *reg, const char *target, const char *name,
                         byoc_pass_point point, byoc_pass_fn *fn, void *user,
                         byoc_error *err);
/* t's passes, its own or inherited (see above), in order; *owner (when
 * not NULL) is set to the target they are registered on, NULL when there
 * are none.  A pointer byoc_target_pass_at returns stays valid while the
 * registry lives. */
int byoc_target_pass_count(const byoc_registry *reg, const byoc_target_decl *t,
                           const byoc_target_decl **owner);
const byoc_pass_decl *byoc_target_pass_at(const byoc_registry *reg,
                                          const byoc_target_decl *t, int i);
/* The runtime that runs t's partitions (`runtime "onnxruntime:CUDAExecutionProvider";`),
 * inherited along the refinement chain; NULL when none declares one. */
const char *byoc_target_runtime(const byoc_registry *reg, const byoc_target_decl *t);

typedef struct byoc_lower_options {
    const char *dir;            /* handed to passes; may be NULL */
    void *run;                  /* handed to passes */
    /* Passes for every target that has none of the same name. */
    int ndefaults;
    const byoc_pass_decl *defaults;
} byoc_lower_options;

/* Run the passes of every partition's target over r (see above); o may
 * be NULL.  r may be built by hand.  Returns 0, or -1 with err filled: a
 * pass failed, a default pass has no name or function, r is malformed (a
 * node placed on a partition that does not list it), or out of memory.
 * Nothing is allocated while passes run. */
int byoc_result_lower(const byoc_result *r, const byoc_lower_options *o, byoc_error *err);

/* The partitions as passes see them, in execution order, for writers that
 * run outside byoc_result_lower; built on the first call (not thread-safe)
 * and kept with r, freed by byoc_result_destroy.  r must come from
 * byoc_partition_graph: a result built by hand has nowhere to keep them
 * (NULL with err filled).  *n (when not NULL) is set to the count. */
const byoc_lower_part *byoc_result_parts(const byoc_result *r, int *n, byoc_error *err);

#ifdef __cplusplus
}
#endif
#endif
