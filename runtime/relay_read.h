/* Internal interface between the Relay text scanner, parser and the code
 * that builds the graph (relay_read.c). */
#ifndef BX_RELAY_READ_H
#define BX_RELAY_READ_H

#include <stdbool.h>
#include <stdint.h>

#include <byoc/graph.h>

#include "arena.h"
#include "hash.h"

typedef struct relay_number_t {
    bool is_float;
    int64_t i;
    double f;
    int dtype;          /* from a suffix (0i64, 2f), or -1 */
} relay_number_t;

/* A type as written: a tensor type, or a tuple of tensor types. */
typedef struct relay_type {
    int nfields;                    /* -1: a tensor type */
    byoc_tensor_type t;
    byoc_tensor_type *fields;
} relay_type;

/* One item of a call's argument list: an argument or an attribute. */
typedef struct relay_item {
    const char *attr;               /* NULL: a positional argument */
    int node;
    byoc_value value;
    int line, col;
    struct relay_item *next;
} relay_item;

typedef struct relay_list {         /* a growing list of values */
    byoc_value *v;
    int n, cap;
} relay_list;

typedef struct relay_reader {
    const byoc_registry *reg;
    byoc_graph *g;
    bx_arena arena;                 /* scratch: names, values, lists */
    bx_hash locals;                 /* "%x" -> node id + 1 */
    int *meta;                      /* meta constant index -> node id + 1 */
    int nmeta;
    const char *file;
    int line, col;                  /* scanner position */
    int cline, ccol;                /* start of an open comment */
    byoc_error *err;
    bool failed;
    const struct relay_type *ret;   /* the declared result type, or NULL */
    int ret_line, ret_col;
} relay_reader;

void relay_error_at(relay_reader *r, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
char *relay_strndup(relay_reader *r, const char *s, size_t n);
char *relay_unescape(relay_reader *r, const char *s, size_t n);
int relay_number(relay_reader *r, const char *text, relay_number_t *out);

/* Builders called by the parser; each returns a node id or -1 (after
 * reporting the error). */
int relay_param(relay_reader *r, const char *name, const relay_type *t, int line, int col);
int relay_local(relay_reader *r, const char *name, int line, int col);
int relay_bind(relay_reader *r, const char *name, int node, int line, int col);
int relay_meta(relay_reader *r, long index, int line, int col);
int relay_scalar(relay_reader *r, const relay_number_t *n, bool negate, int line, int col);
int relay_bool(relay_reader *r, bool b, int line, int col);
int relay_call(relay_reader *r, const char *op, relay_item *items, int line, int col);
int relay_tuple(relay_reader *r, relay_item *items, int line, int col);
int relay_proj(relay_reader *r, int tuple, const relay_number_t *index, int line, int col);
int relay_annotate(relay_reader *r, int node, const relay_type *t, int line, int col);
int relay_result(relay_reader *r, int node, const relay_type *declared, int line, int col);
/* Values and types. */
byoc_value relay_value_number(const relay_number_t *n, bool negate);
void relay_list_push(relay_reader *r, relay_list *l, const byoc_value *v);
byoc_value relay_value_list(relay_list *l);
int relay_dtype(relay_reader *r, const char *name, int line, int col);
int64_t relay_dim_symbol(relay_reader *r, const char *name);

#endif
