/* The graph's representation, shared by graph.c and infer.c.  Internal. */
#ifndef BX_GRAPH_IMPL_H
#define BX_GRAPH_IMPL_H

#include <byoc/graph.h>

#include "arena.h"
#include "hash.h"

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
    byoc_value *attrs;          /* CALL: op->nattrs values */
    const byoc_value *value;    /* CONST: NULL when not known */
    const byoc_value *flat;     /* CONST: value's scalars in one list, row-major */
    int nfields;                /* tuple-typed: fields; -1: tensor-typed */
    byoc_tensor_type type;      /* tensor-typed */
    byoc_tensor_type *fields;   /* tuple-typed */
} bx_node;

struct byoc_graph {
    const byoc_registry *reg;
    bx_arena arena;
    bx_node *nodes;
    int n, cap;
    bx_hash symbols;            /* name -> id + 1 */
    const char **symbol_names;
    int nsymbols, capsymbols;
    int output;                 /* -1: not set */
    const char *source;
    /* Consumers in CSR form, rebuilt lazily after the graph changes. */
    int *cons_start, *cons;
    int cons_n;                 /* node count they were built for; -1 stale */
    /* Notes from readers and inference: unmapped ops, untyped nodes. */
    const char **notes;
    int nnotes, capnotes;
};

/* The data of constant node, its scalars in one flat list (row-major), so
 * that element i is read in O(1); NULL when the data is not known. */
const byoc_value *bx_node_const_flat(const byoc_graph *g, int node);

/* Add a note to g (printf-style; copied into the graph's arena). */
void bx_graph_note(byoc_graph *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));


#endif
