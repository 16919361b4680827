/* The registry: what byocc-generated code registers into and what the
 * partitioner queries.
 *
 * Generated code describes a module as static const tables of the structs
 * below (ops, devices, links, targets with their options, rules and
 * patterns) and hands them to byoc_registry_add.  The registry keeps
 * pointers into those tables - they live as long as the program - and adds
 * what must change at run time: option values, and the resolution of names
 * across modules (a target's parent may come from another module). */
#ifndef BYOC_REGISTRY_H
#define BYOC_REGISTRY_H

#include <stdio.h>

#include <byoc/error.h>
#include <byoc/pass.h>
#include <byoc/value.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- operators ---------------------------------------------------------- */

/* TVM's TOpPattern, the fusion kind of an op. */
typedef enum byoc_op_kind {
    BYOC_OPK_ELEMWISE,
    BYOC_OPK_BROADCAST,
    BYOC_OPK_INJECTIVE,
    BYOC_OPK_REDUCE,
    BYOC_OPK_OUT_ELEMWISE_FUSABLE,
    BYOC_OPK_OPAQUE
} byoc_op_kind;
const char *byoc_op_kind_name(byoc_op_kind k);

typedef struct byoc_attr_decl {
    const char *name;
    byoc_type_desc type;
    bool has_default;       /* false: required, or optional when type.optional */
    byoc_value def;
} byoc_attr_decl;

typedef struct byoc_input_decl {
    const char *name;
    bool tuple;             /* takes a tuple */
} byoc_input_decl;

typedef struct byoc_op_decl {
    const char *name;
    byoc_op_kind kind;
    int ninputs;
    const byoc_input_decl *inputs;
    int nattrs;
    const byoc_attr_decl *attrs;
    const char *shape_rule;
    const char *flops_rule;
} byoc_op_decl;

/* Index of attribute `name` in op, or -1. */
int byoc_op_attr_index(const byoc_op_decl *op, const char *name);

/* ---- devices and links -------------------------------------------------- */

typedef struct byoc_peak {
    byoc_dtype dtype;
    double flops;           /* FLOP/s */
} byoc_peak;

typedef struct byoc_device_decl {
    const char *name;
    int npeaks;
    const byoc_peak *peaks;
    double bandwidth;       /* bytes/s of device memory */
    double launch;          /* seconds per kernel */
    /* Occupancy (doc/cost-model.md): a kernel's work is cut into grains
     * of `grain` FLOPs, run `units` at a time; a last partial wave leaves
     * units idle.  0: not modelled. */
    int units;              /* parallel units: streaming multiprocessors, cores */
    double grain;           /* FLOPs one unit computes as one piece of work */
    /* Seconds per further internal kernel of a graph compiler's kernel
     * (a TensorRT engine's layers, a oneDNN graph's primitives); 0: the
     * launch time. */
    double inner_launch;
} byoc_device_decl;

typedef struct byoc_link_decl {
    const char *from, *to;
    bool both_ways;
    double bandwidth;       /* bytes/s */
    double latency;         /* seconds */
} byoc_link_decl;

/* ---- patterns ----------------------------------------------------------- */

typedef enum byoc_pkind {
    BYOC_PAT_WILD,       /* anything; an input of the kernel */
    BYOC_PAT_CALL,       /* a call of one of ops[] with args kids[] */
    BYOC_PAT_ALT,        /* any one of kids[]; each alternative yields matches */
    BYOC_PAT_CONST,      /* a constant; value == NULL: any constant */
    BYOC_PAT_TUPLE,      /* a tuple of exactly kids[] */
    BYOC_PAT_TUPLE_ANY,  /* a tuple of any arity; its fields are inputs */
    BYOC_PAT_PROJ        /* projection kids[0].index (index < 0: any) */
} byoc_pkind;

#define BYOC_PF_COMMUTE 1u   /* CALL with two args: both orders */

typedef struct byoc_attr_eq {
    const char *name;
    byoc_value value;
} byoc_attr_eq;

/* One node of a compiled pattern.  Patterns are DAGs: a node referenced
 * twice must match the same graph node both times, and byocc gives such a
 * node a slot so the matcher can check it. */
typedef struct byoc_pnode {
    uint8_t kind;           /* byoc_pkind */
    uint8_t flags;
    int16_t slot;           /* binding slot, -1 if none */
    int32_t index;          /* PROJ: field index, -1 any; CONST: the literal's
                             * dtype (a typed literal such as 0i32), else -1 */
    uint16_t nops, nkids, nattrs;
    const char *const *ops; /* CALL: callee alternatives */
    const uint16_t *kids;
    const byoc_attr_eq *attrs;
    const byoc_value *value; /* CONST: exact value, or NULL */
} byoc_pnode;

struct byoc_eval;
/* A compiled `where` predicate.  Returns true when it holds; on false,
 * ev->failed_clause names the top-level `&&` clause that failed. */
typedef bool (*byoc_pred_fn)(struct byoc_eval *ev);

typedef struct byoc_slot_decl {
    const char *name;       /* source name; hidden slots are "$n" */
    int16_t pnode;          /* pattern node bound to it */
} byoc_slot_decl;

typedef struct byoc_clause_decl {
    const char *text;       /* the clause as written, for explain */
    int line, col;
    /* A clause from inside a `predicate` macro: the file it is written in
     * (NULL: the pattern's), and the uses of macros it came through, as
     * the pattern wrote them ("depthwise(conv, w)"); its text has the
     * pattern's names in place of the macro's parameters. */
    const char *file;
    const char *via;
} byoc_clause_decl;

typedef struct byoc_predicate_decl {
    byoc_pred_fn fn;        /* NULL: always true */
    int nclauses;
    const byoc_clause_decl *clauses;
} byoc_predicate_decl;

typedef struct byoc_pattern_decl {
    const char *name;       /* composite name; NULL for a supports rule */
    int root;               /* index of the root in nodes[] */
    int nnodes;
    const byoc_pnode *nodes;
    int nslots;
    const byoc_slot_decl *slots;
    byoc_predicate_decl pred;
    double efficiency;      /* 0: the target's */
    const char *file;       /* source file name as given to byocc */
    int line, col;
} byoc_pattern_decl;

/* ---- targets ------------------------------------------------------------ */

typedef enum byoc_fusion {
    BYOC_FUSION_NONE,       /* each rule match is one kernel */
    BYOC_FUSION_TVM,        /* TVM FuseOps rules over op kinds */
    BYOC_FUSION_ANY         /* any convex connected set of supported nodes */
} byoc_fusion;
const char *byoc_fusion_name(byoc_fusion f);

typedef struct byoc_option_decl {
    const char *name;
    byoc_type_desc type;
    byoc_value def;
} byoc_option_decl;

/* A target's table lists all its options, inherited ones first in the
 * parent's order, so an option has the same index in a target and in every
 * target that refines it; predicates index options by that number. */
typedef struct byoc_target_decl {
    const char *name;
    const char *parent;     /* a device or a target */
    bool parent_is_device;
    int noptions;           /* inherited + own */
    const byoc_option_decl *options;
    int ninherited_options;
    byoc_fusion fusion;
    bool fusion_set;        /* false: inherit the parent's */
    int max_depth, max_nodes, max_exits;   /* 0: inherit / unbounded */
    double efficiency;      /* 0: inherit (1.0 at the root) */
    bool supports_all;      /* `supports *` */
    int nrules;             /* supports rules (pattern decls, name NULL) */
    const byoc_pattern_decl *rules;
    int npatterns;
    const byoc_pattern_decl *patterns;
    int npartition_rules;
    const byoc_predicate_decl *partition_rules;
    /* `runtime "...";`: what runs the target's partitions (an ONNX Runtime
     * execution provider, "onnxruntime:CUDAExecutionProvider"); NULL:
     * inherit (none at the root).  See byoc_target_runtime. */
    const char *runtime;
    /* `lower` passes, in source order; none: inherit the parent's whole
     * list (byoc_target_pass_count in <byoc/lower.h>). */
    int npasses;
    const byoc_pass_decl *passes;
    const char *file;
    int line, col;
} byoc_target_decl;

/* ---- modules ------------------------------------------------------------ */

typedef struct byoc_module_decl {
    int abi;                /* BYOC_ABI_VERSION of the generator */
    const char *name;       /* module name (file stem) */
    const char *source;     /* source file name */
    int nimports;
    const char *const *imports;   /* module names it needs */
    int nops;
    const byoc_op_decl *ops;
    int ndevices;
    const byoc_device_decl *devices;
    int nlinks;
    const byoc_link_decl *links;
    int ntargets;
    const byoc_target_decl *targets;
} byoc_module_decl;

/* ---- the registry ------------------------------------------------------- */

typedef struct byoc_registry byoc_registry;

byoc_registry *byoc_registry_create(void);
void byoc_registry_destroy(byoc_registry *reg);

/* Add a module's tables.  Fails (returns -1, fills err) on an ABI
 * mismatch, a name registered twice, or a module it imports not yet
 * added.  Adding the same module twice is a no-op.  Parents are resolved
 * lazily, so modules may be added in any order that respects imports. */
int byoc_registry_add(byoc_registry *reg, const byoc_module_decl *mod,
                      byoc_error *err);

int byoc_registry_op_count(const byoc_registry *reg);
const byoc_op_decl *byoc_registry_op_at(const byoc_registry *reg, int i);
const byoc_op_decl *byoc_registry_op(const byoc_registry *reg, const char *name);
/* Dense id of an op (0..op_count-1) or -1. */
int byoc_registry_op_id(const byoc_registry *reg, const char *name);

int byoc_registry_device_count(const byoc_registry *reg);
const byoc_device_decl *byoc_registry_device_at(const byoc_registry *reg, int i);
const byoc_device_decl *byoc_registry_device(const byoc_registry *reg, const char *name);

int byoc_registry_link_count(const byoc_registry *reg);
const byoc_link_decl *byoc_registry_link_at(const byoc_registry *reg, int i);
/* The link from device a to device b (either direction if both_ways). */
const byoc_link_decl *byoc_registry_link(const byoc_registry *reg,
                                         const char *a, const char *b);

int byoc_registry_target_count(const byoc_registry *reg);
/* Targets in registration order. */
const byoc_target_decl *byoc_registry_target_at(const byoc_registry *reg, int i);
const byoc_target_decl *byoc_registry_target(const byoc_registry *reg, const char *name);
/* Index of a target, or -1. */
int byoc_registry_target_index(const byoc_registry *reg, const char *name);

/* The parent target of t, or NULL when t's parent is a device (or the
 * parent is not registered; byoc_registry_check reports that). */
const byoc_target_decl *byoc_target_parent(const byoc_registry *reg,
                                           const byoc_target_decl *t);
/* The device at the root of t's refinement chain, or NULL. */
const byoc_device_decl *byoc_target_device(const byoc_registry *reg,
                                           const byoc_target_decl *t);
/* Does t refine `ancestor` (a target or device name)?  A target refines
 * itself. */
bool byoc_target_refines(const byoc_registry *reg, const byoc_target_decl *t,
                         const char *ancestor);
/* Effective settings, inherited along the chain. */
byoc_fusion byoc_target_fusion(const byoc_registry *reg, const byoc_target_decl *t);
int byoc_target_max_depth(const byoc_registry *reg, const byoc_target_decl *t);
int byoc_target_max_nodes(const byoc_registry *reg, const byoc_target_decl *t);
int byoc_target_max_exits(const byoc_registry *reg, const byoc_target_decl *t);
double byoc_target_efficiency(const byoc_registry *reg, const byoc_target_decl *t);
bool byoc_target_supports_all(const byoc_registry *reg, const byoc_target_decl *t);

/* Rules and patterns of t including those inherited, parent's first.
 * `i` runs over 0..count-1. */
int byoc_target_rule_count(const byoc_registry *reg, const byoc_target_decl *t);
const byoc_pattern_decl *byoc_target_rule_at(const byoc_registry *reg,
                                             const byoc_target_decl *t, int i);
int byoc_target_pattern_count(const byoc_registry *reg, const byoc_target_decl *t);
const byoc_pattern_decl *byoc_target_pattern_at(const byoc_registry *reg,
                                                const byoc_target_decl *t, int i);
int byoc_target_partition_rule_count(const byoc_registry *reg,
                                     const byoc_target_decl *t);
const byoc_predicate_decl *byoc_target_partition_rule_at(
    const byoc_registry *reg, const byoc_target_decl *t, int i);

/* Verify every parent is registered and the parent graph is acyclic.
 * byoc_registry_add cannot, since modules may arrive in any order. */
int byoc_registry_check(const byoc_registry *reg, byoc_error *err);

/* ---- options ------------------------------------------------------------ */

/* The current values of t's options, indexed as t->options. */
const byoc_value *byoc_target_options(const byoc_registry *reg,
                                      const byoc_target_decl *t);
const byoc_value *byoc_target_option(const byoc_registry *reg,
                                     const byoc_target_decl *t,
                                     const char *name);
/* Set an option from a value; the value must conform to its type. */
int byoc_target_set_option(byoc_registry *reg, const char *target,
                           const char *name, const byoc_value *v,
                           byoc_error *err);
/* Set an option from text as a user writes it on a command line:
 * "true", "3", "2.5", "float16", "8.6.1", a string, or a list "[1,2]".
 * Besides its declared options, every target has four fusion settings
 * that stand in for its declaration's (doc/partitioner.md, "Fusion
 * limits"): fusion (none, tvm or any), max_depth, max_nodes and max_exits
 * (a whole number up to 1000000; 0: unbounded).  Refinements that set
 * none of their own inherit them; a declared option of the same name
 * comes first.  byoc_target_set_option takes them too, as a string and
 * ints. */
int byoc_target_set_option_text(byoc_registry *reg, const char *target,
                                 const char *name, const char *text,
                                 byoc_error *err);
/* Parse "target:name=value" and set it. */
int byoc_registry_set_option_spec(byoc_registry *reg, const char *spec,
                                  byoc_error *err);
/* Change a device's cost parameters, "device:key=value" with key one of
 * flops.DTYPE (a peak, added when the device has none for DTYPE),
 * bandwidth, launch, inner_launch, units, grain (doc/cost-model.md): what
 * the analytic model would say on another machine of the kind.  Values are
 * non-negative and finite; units a whole number up to 1000000.  Results
 * computed before keep the figures they were computed with. */
int byoc_registry_set_device_spec(byoc_registry *reg, const char *spec, byoc_error *err);
/* Reset every option and fusion setting of every target to its default. */
void byoc_registry_reset_options(byoc_registry *reg);

/* The default device: when no targets are named, the partitioner searches
 * this device's targets (its backends, then its native targets).  Unless
 * set, it is the device of the first registered target that supports
 * every op: with the byoc command's bundled targets, cuda.  A plugin's
 * entry point (<byoc/plugin.h>) may set it, after registering its
 * modules, to one of its own devices; the last setting wins, and NULL
 * restores the rule above.  Fails, with err set, for an unknown device
 * (with a suggestion) or one without a native target. */
int byoc_registry_set_default_device(byoc_registry *reg, const char *device, byoc_error *err);
/* The default device as above, or NULL when no device has a native target. */
const byoc_device_decl *byoc_registry_default_device(const byoc_registry *reg);

/* The Relay op vocabulary (lib/relay.byoc), compiled into libbyoc.  Backend
 * modules that import relay.byoc register it first themselves. */
extern const byoc_module_decl byoc_module_relay;
int byoc_register_relay(byoc_registry *reg, byoc_error *err);

/* Write a deterministic, human-readable listing of everything registered
 * (ops, devices, links, targets with parents, options with current
 * values, rules, patterns, runtime and lowering passes) to f; tests diff
 * it. */
int byoc_registry_dump(const byoc_registry *reg, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
