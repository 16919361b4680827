/* The graph's representation, shared by graph.c and infer.c.  Internal. */
#ifndef BX_GRAPH_IMPL_H
#define BX_GRAPH_IMPL_H

#include <byoc/graph.h>

#include "arena.h"
#include "hash.h"

/* A subgraph a call holds (byoc_graph_add_subgraph). */
typedef struct bx_subgraph {
    const char *name;
    byoc_graph *graph;
} bx_subgraph;

typedef struct bx_node {
    byoc_node_kind kind;
    const byoc_op_decl *op;     /* CALL; NULL for an opaque call */
    const char *opname;         /* CALL: op->name, or the opaque op's name */
    int nargs;
    const int *args;            /* CALL args, TUPLE fields, PROJ's tuple */
    int proj_index;             /* PROJ */
    const char *name;           /* INPUT, or a name from the source */
    int line, col;              /* in the source; 0 when not known */
    const char *untyped;        /* why inference gave no type, or NULL */
    const char *note;           /* inference's note, until added to the graph's */
    byoc_value *attrs;          /* CALL: op->nattrs values */
    const byoc_value *value;    /* CONST: NULL when not known */
    const byoc_value *flat;     /* CONST: value's scalars in one list, row-major */
    /* A node is tensor-typed (nfields -1, type) or tuple-typed (tuple, with
     * nfields and fields repeating its n and fields for the many readers
     * of tensor fields).  Set them with bx_node_set_tensor/_tuple only. */
    int nfields;                /* tuple-typed: fields; -1: tensor-typed */
    byoc_tensor_type type;      /* tensor-typed */
    byoc_tensor_type *fields;   /* tuple-typed: tuple->fields */
    const byoc_tuple_type *tuple; /* tuple-typed; NULL otherwise */
    bx_subgraph *subs;          /* CALL: its subgraphs, in g's arena */
    int nsubs, capsubs;
    int origin;                 /* the source node it was made for (an
                                   ONNX node's index), -1 if none */
} bx_node;

/* An ONNX tensor of the main graph as the reader left it, for the ONNX
 * writers: the graph node standing for it (through Identity aliases), or
 * its contents when the reader computed it at load. */
typedef struct bx_onnx_value {
    const char *name;
    int node;                   /* -1: none was made */
    int producer;               /* the model node writing it; -1: an input
                                   or an initializer */
    bool is_init;               /* an initializer of the model */
    /* Contents known at load (a folded shape, a small constant); the
     * writers can write them as an initializer.  n == 0 when not known. */
    byoc_tensor_type type;
    size_t n;
    const int64_t *i;
    const double *f;
    /* A DequantizeLinear the reader kept as the integer tensor dq_data
     * with its scale and zero point (int32) constants, dq_data -1 if not. */
    int dq_data, dq_scale, dq_zp;
    int64_t dq_axis;
} bx_onnx_value;

typedef struct bx_onnx_source {
    uint64_t hash;              /* of the model's bytes (FNV-1a) */
    size_t size;
    int nnodes;                 /* in the model's main graph */
    int nvalues;
    const bx_onnx_value *values; /* sorted by name */
} bx_onnx_source;

/* FNV-1a over the first and last 64 KiB of a model's bytes and their
 * count: the writers check they are given the model that was read, at a
 * cost that does not grow with its weights. */
static inline uint64_t bx_onnx_hash(const void *data, size_t size)
{
    const unsigned char *p = data;
    uint64_t h = 1469598103934665603ull ^ (uint64_t)size;
    size_t head = size < 65536 ? size : 65536;
    size_t tail = size - head < 65536 ? size - head : 65536;
    for (size_t i = 0; i < head; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    for (size_t i = size - tail; i < size; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

struct byoc_graph {
    const byoc_registry *reg;
    bx_arena arena;
    bx_node *nodes;
    int n, cap;
    bx_hash symbols;            /* name -> id + 1 */
    const char **symbol_names;
    int64_t *symbol_values;     /* the size bound to each; -1 when free */
    bool *symbol_seen;          /* named by the model (not only bound) */
    int nsymbols, capsymbols;
    /* Shapes given for inputs before reading (byoc_read_options). */
    struct bx_input_shape *input_shapes;
    int ninput_shapes;
    long folded;                /* model nodes the reader computed at load */
    int output;                 /* -1: not set */
    const char *source;
    /* Consumers in CSR form, rebuilt lazily after the graph changes. */
    int *cons_start, *cons;
    int cons_n;                 /* node count they were built for; -1 stale */
    long infer_visits;          /* nodes typed by inference, over the graph's life */
    long split_fields;          /* fields of split's int-sections results, in all
                                   (infer.c bounds them by BYOC_MAX_FIELDS) */
    int typed;                  /* nodes [0, typed) typed by bx_graph_infer_new */
    /* Notes from readers and inference: unmapped ops, untyped nodes. */
    const char **notes;
    int nnotes, capnotes;
    byoc_graph *parent;         /* the graph holding this one, or NULL */
    int cur_origin;             /* stamped on new nodes as their origin */
    const bx_onnx_source *onnx; /* ONNX models: what the writers need; in arena */
    int height;                 /* 1, or one more than its deepest subgraph's */
};

struct bx_input_shape {
    const char *input;
    byoc_tensor_type type;      /* dtype void */
    bool used;
};

/* Take the bindings of o (NULL: none) before a reader starts: checks them
 * (a name, a size >= 0, no name bound twice to different sizes) and keeps
 * copies; -1 with err filled. */
int bx_graph_bind(byoc_graph *g, const byoc_read_options *o, byoc_error *err);
/* A dimension a model names: the size bound to it, else its symbol; marks
 * the name as seen. */
int64_t bx_graph_dim(byoc_graph *g, const char *name);
/* Intern a dimension name a model uses, marking it seen; its id. */
int bx_graph_symbol_seen(byoc_graph *g, const char *name);
/* The type input `name` is read with: *t with the shape given for it, if
 * any, replacing it.  A given shape must agree with the declared one where
 * the model fixes a size or the rank; its sizes bind the symbols the
 * declaration names at those axes.  Then every bound symbol left in *t
 * reads as its size.  1 when a shape was given, 0 when not, -1 with err
 * filled. */
int bx_graph_input_type(byoc_graph *g, const char *name, byoc_tensor_type *t, byoc_error *err);
/* After reading: every binding was used (a --dim the model does not name,
 * a shape for an input it does not have, is the user's mistake).  -1 with
 * err filled. */
int bx_graph_bind_check(const byoc_graph *g, byoc_error *err);

/* The data of constant node, its scalars in one flat list (row-major), so
 * that element i is read in O(1); NULL when the data is not known. */
const byoc_value *bx_node_const_flat(const byoc_graph *g, int node);

/* A tuple type of n fields in g's arena, fields[i] unknown: the caller
 * fills fields and, for nested fields, sub (allocated on first need with
 * bx_tuple_sub), then calls bx_tuple_finish to set depth.  n is checked by
 * the caller against BYOC_MAX_FIELDS. */
byoc_tuple_type *bx_tuple_new(byoc_graph *g, int n);
void bx_tuple_set_sub(byoc_graph *g, byoc_tuple_type *t, int i, const byoc_tuple_type *sub);
/* Sets t->depth; false when it would pass BYOC_MAX_TUPLE_DEPTH. */
bool bx_tuple_finish(byoc_tuple_type *t);
/* A deep copy of t into g's arena; NULL with err filled when t nests
 * deeper than BYOC_MAX_TUPLE_DEPTH or has too many fields. */
const byoc_tuple_type *bx_tuple_copy(byoc_graph *g, const byoc_tuple_type *t, byoc_error *err);
void bx_node_set_tensor(bx_node *n, const byoc_tensor_type *t);
void bx_node_set_tuple(bx_node *n, const byoc_tuple_type *t);
/* Set a node's tuple type, nested fields included (a deep copy); -1 with
 * err filled past the limits. */
int bx_graph_set_tuple(byoc_graph *g, int node, const byoc_tuple_type *t, byoc_error *err);

/* Typing while building (a reader): type the nodes added since the last
 * call, each once, in id order, as byoc_graph_infer_types would; they must
 * be complete (attributes set).  Their notes wait until
 * bx_graph_infer_notes adds them, in node order.  0, or -1 with err filled
 * (a declared type that inference contradicts). */
int bx_graph_infer_new(byoc_graph *g, byoc_error *err);
void bx_graph_infer_notes(byoc_graph *g);

/* Add a note to g (printf-style; copied into the graph's arena). */
void bx_graph_note(byoc_graph *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));


#endif
