/* The evaluation interface of compiled predicates.
 *
 * byocc turns each `where` clause into C that calls the functions below;
 * the partitioner fills a byoc_eval with the graph, the nodes a match bound
 * to its slots and the target's current options, then calls the predicate.
 *
 * Reading something that is not there - an absent optional attribute, a
 * dimension that is unknown or symbolic, an index out of range, the value
 * of a non-constant - sets ev->undef, and a predicate that read an undefined
 * value is false: "the rule does not apply", never a crash. */
#ifndef BYOC_PRED_H
#define BYOC_PRED_H

#include <byoc/graph.h>
#include <byoc/registry.h>
#include <byoc/value.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A tensor: a node, or one field of a tuple-typed node (field >= 0). */
typedef struct byoc_tref {
    int node;
    int field;
} byoc_tref;

typedef struct byoc_eval {
    const byoc_graph *graph;
    const int *slots;           /* node bound to each slot, -1 unbound */
    int nslots;
    const byoc_value *options;  /* the target's options, by index */
    int noptions;
    const int *part;            /* partition rules: the candidate's nodes */
    int npart;
    int undef;                  /* set when an absent value was read */
    int failed_clause;          /* on false: the failing clause, else -1 */
    /* Partition rules, optional: the candidate's input and output nodes
     * (as inputs() and outputs() define them), when the caller computed
     * them once; NULL: computed on each use. */
    const int *pinputs;
    int npinputs;
    const int *poutputs;
    int npoutputs;
} byoc_eval;

/* A sequence a predicate can index, measure or quantify over. */
typedef enum byoc_seq_kind {
    BYOC_SEQ_VALUES,   /* a list value (attribute, option or literal) */
    BYOC_SEQ_SHAPE,    /* the dims of a tensor */
    BYOC_SEQ_INPUTS,   /* the arguments of a node, as tensors */
    BYOC_SEQ_OUTPUTS,  /* the result tensors of a node */
    BYOC_SEQ_NODES,    /* partition rules: the candidate's nodes */
    BYOC_SEQ_PINPUTS,  /* partition rules: the candidate's input tensors */
    BYOC_SEQ_POUTPUTS, /* partition rules: the candidate's output tensors */
    BYOC_SEQ_DATA,     /* values(t): a constant's elements, flattened */
    BYOC_SEQ_RANGE     /* range(n): 0, 1, ..., n - 1 */
} byoc_seq_kind;

typedef struct byoc_seq {
    byoc_seq_kind kind;
    const byoc_value *values;   /* VALUES; DATA: the constant's value */
    byoc_tref t;                /* SHAPE, INPUTS, OUTPUTS */
    int64_t n;
} byoc_seq;

/* An `extern predicate NAME;` is a C function the backend author writes,
 * of this type.  args are the nodes named at the call in the .byoc file. */
typedef bool byoc_extern_pred_fn(byoc_eval *ev, const byoc_tref *args,
                                 int nargs);

/* Clause bookkeeping. */
bool byoc_ev_fail(byoc_eval *ev, int clause);

/* Bound names and tensors. */
byoc_tref byoc_ev_slot(byoc_eval *ev, int slot);
byoc_dtype byoc_ev_dtype(byoc_eval *ev, byoc_tref t);
int64_t byoc_ev_rank(byoc_eval *ev, byoc_tref t);
int64_t byoc_ev_dim(byoc_eval *ev, byoc_tref t, int64_t i);
int64_t byoc_ev_numel(byoc_eval *ev, byoc_tref t);
bool byoc_ev_is_const(byoc_eval *ev, byoc_tref t);
double byoc_ev_value(byoc_eval *ev, byoc_tref t);
/* The op of the node, or NULL when it is not a call. */
const char *byoc_ev_op(byoc_eval *ev, byoc_tref t);
bool byoc_ev_tref_eq(byoc_tref a, byoc_tref b);

/* Attributes and options as values; NULL (and undef) when absent. */
const byoc_value *byoc_ev_attr(byoc_eval *ev, byoc_tref t, const char *name);
const byoc_value *byoc_ev_option(byoc_eval *ev, int index);
bool byoc_ev_bool(byoc_eval *ev, const byoc_value *v);
int64_t byoc_ev_int(byoc_eval *ev, const byoc_value *v);
double byoc_ev_float(byoc_eval *ev, const byoc_value *v);
const char *byoc_ev_str(byoc_eval *ev, const byoc_value *v);
byoc_dtype byoc_ev_dt(byoc_eval *ev, const byoc_value *v);
uint64_t byoc_ev_ver(byoc_eval *ev, const byoc_value *v);

/* Sequences. */
byoc_seq byoc_ev_seq_values(byoc_eval *ev, const byoc_value *list);
byoc_seq byoc_ev_seq_shape(byoc_eval *ev, byoc_tref t);
byoc_seq byoc_ev_seq_inputs(byoc_eval *ev, byoc_tref t);
byoc_seq byoc_ev_seq_outputs(byoc_eval *ev, byoc_tref t);
byoc_seq byoc_ev_seq_part(byoc_eval *ev, byoc_seq_kind kind);
/* values(t): undefined unless t is a constant whose data was loaded. */
byoc_seq byoc_ev_seq_data(byoc_eval *ev, byoc_tref t);
/* range(n): empty for n <= 0. */
byoc_seq byoc_ev_seq_range(byoc_eval *ev, int64_t n);
int64_t byoc_ev_seq_len(byoc_eval *ev, byoc_seq s);
/* Element i (negative counts from the end). */
int64_t byoc_ev_seq_int(byoc_eval *ev, byoc_seq s, int64_t i);
const byoc_value *byoc_ev_seq_value(byoc_eval *ev, byoc_seq s, int64_t i);
byoc_tref byoc_ev_seq_tensor(byoc_eval *ev, byoc_seq s, int64_t i);
bool byoc_ev_seq_eq(byoc_eval *ev, byoc_seq a, byoc_seq b);

/* Strings: s[i] as a one-character string (negative counts from the end;
 * out of range is undefined), len(s), find(s, sub) (the byte offset of the
 * first occurrence, -1 when none), startswith(s, p), endswith(s, p). */
const char *byoc_ev_str_at(byoc_eval *ev, const char *s, int64_t i);
int64_t byoc_ev_str_len(byoc_eval *ev, const char *s);
int64_t byoc_ev_str_find(byoc_eval *ev, const char *s, const char *sub);
bool byoc_ev_str_starts(byoc_eval *ev, const char *s, const char *prefix);
bool byoc_ev_str_ends(byoc_eval *ev, const char *s, const char *suffix);

/* Small helpers for the generated code. */
bool byoc_ev_str_eq(const char *a, const char *b);
bool byoc_ev_in_int(int64_t v, const int64_t *set, int n);
bool byoc_ev_in_float(double v, const double *set, int n);
bool byoc_ev_in_str(const char *v, const char *const *set, int n);
bool byoc_ev_in_dt(byoc_dtype v, const byoc_dtype *set, int n);
/* Partition rules: does the candidate contain a call of one of ops? */
int64_t byoc_ev_count_ops(byoc_eval *ev, const char *const *ops, int n);

/* all(a in s: all(b in s: body(a, b))) for a sequence of the candidate
 * (inputs(), outputs(), its nodes), where body reads a and b only through
 * their types and constness and by comparing them with each other: byocc
 * emits this for such rules ("all inputs share one batch size").  Elements
 * of equal type and constness are interchangeable there, so body runs once
 * per pair of such classes, not per pair of elements; the result and
 * ev->undef are those of the nested loops, which stop at the first false
 * pair in order. */
typedef bool byoc_pair_fn(byoc_eval *ev, byoc_tref a, byoc_tref b);
bool byoc_ev_all_pairs(byoc_eval *ev, byoc_seq s, byoc_pair_fn *body);
/* Checked arithmetic: division by zero is undefined, not a crash. */
int64_t byoc_ev_div(byoc_eval *ev, int64_t a, int64_t b);
int64_t byoc_ev_mod(byoc_eval *ev, int64_t a, int64_t b);
double byoc_ev_fdiv(byoc_eval *ev, double a, double b);
/* Int + - *, unary -, sum() and abs(): an int64 overflow is undefined,
 * not a wrap. */
int64_t byoc_ev_add(byoc_eval *ev, int64_t a, int64_t b);
int64_t byoc_ev_sub(byoc_eval *ev, int64_t a, int64_t b);
int64_t byoc_ev_mul(byoc_eval *ev, int64_t a, int64_t b);
int64_t byoc_ev_neg(byoc_eval *ev, int64_t a);
int64_t byoc_ev_iabs(byoc_eval *ev, int64_t a);
double byoc_ev_fabs(byoc_eval *ev, double a);

#ifdef __cplusplus
}
#endif
#endif
