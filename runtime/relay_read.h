/* Internal interface between the Relay text scanner, parser and the code
 * that builds the graph (relay_read.c).
 *
 * The parser builds a small syntax tree of the whole module - its global
 * functions, their statements and expressions - in the reader's arena;
 * relay_read.c then evaluates @main over it, inlining every call of a
 * function, into one flat graph.  A tree is needed because a function's
 * body becomes nodes once per call, with that call's arguments, and a
 * global may be called before the text defines it. */
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

/* A type as written: a tensor type, a tuple type (whose fields may be
 * tuples), or a function type (only ever read from ty= comments, and not
 * checked). */
typedef struct relay_type {
    int nfields;                    /* -1: a tensor or function type */
    bool is_fn;
    byoc_tensor_type t;
    const byoc_tuple_type *tuple;   /* nfields >= 0: the tuple type */
} relay_type;

/* The fields of a tuple type being parsed, in arrays that double. */
typedef struct relay_tlist {
    byoc_tensor_type *fields;
    const byoc_tuple_type **sub;
    int n, cap;
    bool nested;
} relay_tlist;

typedef struct relay_expr relay_expr;

/* One item of a parenthesized list: a call's argument or attribute, a
 * function header's parameter or attribute, a tuple's field. */
typedef struct relay_item {
    const char *attr;               /* an attribute: its name */
    const char *param;              /* a parameter: its name, "%x" */
    relay_expr *expr;               /* an argument or a field */
    byoc_value value;               /* an attribute's value */
    const relay_type *type;         /* a parameter's type, or NULL */
    int line, col;
    struct relay_item *next;
    struct relay_item *last;        /* of a list, on its first item: appends are O(1) */
} relay_item;

typedef struct relay_stmt {         /* %name = value; */
    const char *name;
    relay_expr *value;
    int line, col;
    struct relay_stmt *next;
} relay_stmt;

typedef struct relay_stmts {        /* a list under construction */
    relay_stmt *head, *tail;
} relay_stmts;

/* A function: a global `def @name(...)` or a `fn (...)` literal. */
typedef struct relay_fn {
    const char *name;               /* "@f"; NULL for a literal */
    relay_item *header;             /* parameters and attributes, in order */
    int nparams;
    const relay_type *ret;          /* the declared result type, or NULL */
    int ret_line, ret_col;
    relay_stmt *stmts;
    relay_expr *result;
    int line, col;                  /* of the name, or of `fn` */
    bool active;                    /* being inlined now: a call is recursion */
    int uses;
} relay_fn;

typedef enum relay_expr_kind {
    RX_LOCAL,       /* name */
    RX_GLOBAL,      /* name */
    RX_META,        /* meta */
    RX_NUMBER,      /* num, negate */
    RX_BOOL,        /* b */
    RX_OP,          /* name(items): an operator call */
    RX_CALL,        /* callee(items): a function call */
    RX_TUPLE,       /* (items) */
    RX_PROJ,        /* callee.index */
    RX_FN,          /* fn */
    RX_ANNOT        /* callee with a ty= comment: type */
} relay_expr_kind;

struct relay_expr {
    relay_expr_kind kind;
    int line, col;
    const char *name;
    long meta;
    relay_number_t num;
    bool negate, b;
    relay_expr *callee;
    relay_item *items;
    relay_type type;
    relay_fn *fn;
};

typedef struct relay_list {         /* a growing list of values */
    byoc_value *v;
    int n, cap;
} relay_list;

typedef struct relay_scope relay_scope;
typedef struct relay_check relay_check;

typedef struct relay_reader {
    const byoc_registry *reg;
    byoc_graph *g;
    bx_arena arena;                 /* scratch: the tree, names, values, lists */
    bx_hash globals;                /* "@f" -> relay_fn */
    relay_fn *first;                /* the first global, for messages */
    int *meta;                      /* meta constant index -> node id + 1 */
    int nmeta;
    const char *file;
    int line, col;                  /* scanner position */
    int cline, ccol;                /* start of an open comment */
    byoc_error *err;
    bool failed;
    relay_check *checks, *last_check; /* type checks left for after inference */
    long calls, limit;              /* functions inlined; most calls and nodes */
    int depth;                      /* of eval's recursion */
} relay_reader;

/* The deepest nesting of expressions and inlined calls evaluated (the
 * parser's stack, of YYMAXDEPTH entries, is a bound of its own). */
#define RELAY_MAX_DEPTH 1000

void relay_error_at(relay_reader *r, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
char *relay_strndup(relay_reader *r, const char *s, size_t n);
char *relay_unescape(relay_reader *r, const char *s, size_t n);
int relay_number(relay_reader *r, const char *text, relay_number_t *out);

/* Tree builders called by the parser. */
relay_expr *relay_expr_new(relay_reader *r, relay_expr_kind kind, int line, int col);
/* Register a global function; an error (returns -1) when defined twice. */
int relay_def(relay_reader *r, relay_fn *f);
/* Values and types. */
byoc_value relay_value_number(const relay_number_t *n, bool negate);
void relay_list_push(relay_reader *r, relay_list *l, const byoc_value *v);
byoc_value relay_value_list(relay_list *l);
int relay_dtype(relay_reader *r, const char *name, int line, int col);
int64_t relay_dim_symbol(relay_reader *r, const char *name);
/* Tuple types: add a field (-1 past BYOC_MAX_FIELDS, or for a function
 * type), then make the type (-1 past BYOC_MAX_TUPLE_DEPTH); errors are
 * located at line:col. */
int relay_tlist_push(relay_reader *r, relay_tlist *l, const relay_type *t, int line, int col);
int relay_tuple_type(relay_reader *r, const relay_tlist *l, relay_type *out, int line, int col);

#endif
