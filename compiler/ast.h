/* byocc's internal header: the AST, diagnostics, and the phases.
 *
 * One header, one section per file, as chibicc does.  The parser builds an
 * AST per file in the compilation's arena; resolve.c loads imports and
 * binds names across files; check.c lowers patterns (let expansion, for
 * families, optional ops) into pattern-node DAGs and type-checks
 * predicates; emit_c.c writes the tables and predicate functions. */
#ifndef BYOCC_AST_H
#define BYOCC_AST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <byoc/registry.h>
#include <byoc/value.h>

#include "arena.h"
#include "hash.h"

/* ---- limits (doc/language.md, "Limits") ------------------------------------
 *
 * A .byoc file is untrusted input: every way its size or nesting could turn
 * into C recursion, exponential expansion or unbounded output is capped, and
 * passing a cap is a located error.  The values are far beyond what real
 * descriptions use (the bundled ones stay under a tenth of each). */
enum {
    BYOCC_MAX_FILE_SIZE = 16 << 20,   /* bytes in one source file */
    BYOCC_MAX_DEPTH = 1000,           /* nesting of an expression or a pattern,
                                         also after let expansion */
    BYOCC_MAX_TYPE_DEPTH = 255,       /* [] of a type */
    BYOCC_MAX_NAME = 255,             /* characters in a name, dotted or made
                                         from a template */
    BYOCC_MAX_IMPORT_DEPTH = 64,      /* files importing files */
    BYOCC_MAX_REFINE = 64,            /* targets refining targets */
    BYOCC_MAX_PATTERN_NODES = 1000,   /* nodes of one lowered pattern: the matcher
                                         recurses once a node (runtime/match.c) */
    BYOCC_MAX_LOWER_STEPS = 100000,   /* work lowering one pattern */
    BYOCC_MAX_FAMILY = 10000,         /* patterns of one for family */
    BYOCC_MAX_FAMILY_VARS = 64,       /* variables of one for family */
    BYOCC_MAX_EXPANDED = 250000,      /* pattern nodes, predicate nodes and
                                         constant items made, in all */
    BYOCC_MAX_OUTPUT = 64 << 20,      /* bytes of generated C */
    BYOCC_MAX_ERRORS = 100,           /* errors reported before stopping */
    BYOCC_MAX_PRED_NESTING = 64       /* predicate macros used inside predicate
                                         macros */
};

/* ---- locations and diagnostics (diag.c) ---------------------------------- */

typedef struct loc {
    const char *file;
    int line, col;
} loc;

typedef struct diag {
    int errors;
    int warnings;          /* printed up to BYOCC_MAX_ERRORS; never fatal */
    bool dropped;          /* the last warning was not printed: nor its notes */
    FILE *out;             /* NULL: stderr */
} diag;

void diag_error(diag *d, loc at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void diag_warning(diag *d, loc at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void diag_note(diag *d, loc at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The closest of `n` names to `name` within a small edit distance, or
 * NULL.  Used for "did you mean" notes. */
const char *diag_suggest(const char *name, const char *const *names, int n);
/* The same, one candidate at a time, for names that are not in an array. */
typedef struct suggester {
    const char *name;
    const char *best;
    int limit, bestd;
} suggester;
void suggest_begin(suggester *s, const char *name);
void suggest_offer(suggester *s, const char *candidate);
/* One error past BYOCC_MAX_ERRORS, "too many errors" is printed instead,
 * nothing after it, and the phases stop at their next item. */
bool diag_stopped(const diag *d);

/* ---- vectors -------------------------------------------------------------- */

typedef struct vec {
    void **v;
    int n, cap;
} vec;
void vec_push(bx_arena *a, vec *x, void *p);

/* ---- expressions (predicates and constant values) ------------------------- */

typedef enum expr_kind {
    E_INT, E_FLOAT, E_STR, E_BOOL, E_VERSION, E_NONE,
    E_NAME,     /* name (may be dotted: an op name, or x.attr resolved later) */
    E_MEMBER,   /* a.name */
    E_INDEX,    /* a[i] */
    E_CALL,     /* name(args) */
    E_QUANT,    /* all/any/sum(var in seq: body); i: 1 all, 0 any, 2 sum */
    E_UNARY,    /* op a: '!' or '-' */
    E_BINARY,   /* a op b */
    E_IN_SET,   /* a in {items} */
    E_IN_RANGE, /* a in lo..hi */
    E_IN_LIST,  /* a in b, b a list value: typed into any($in in b: $in == a) */
    E_LIST,     /* [items] */
    E_TUPLE,    /* (a, b) - only as for-family values */
    E_OPALT,    /* a | b - op sets in contains() */
    E_MACRO     /* a use of a `predicate` macro, expanded by check.c: a is
                   the expanded body, items the arguments (for texts), sym
                   the pred_ast */
} expr_kind;

enum {
    OP_OR = 256, OP_AND, OP_EQ, OP_NE, OP_LE, OP_GE
};

typedef struct expr expr;
struct expr {
    expr_kind kind;
    loc at, end;       /* first and last character */
    loc op_at;         /* UNARY/BINARY: the operator */
    int depth;         /* 1 for a leaf, else one more than the deepest operand */
    int op;            /* UNARY/BINARY: operator ('+', OP_EQ, ...) */
    int64_t i;         /* INT, BOOL; QUANT: 1 all, 0 any */
    double f;          /* FLOAT */
    uint64_t ver;      /* VERSION */
    int dtype;         /* INT/FLOAT typed literal suffix, else -1 */
    const char *s;     /* STR, NAME, MEMBER name, CALL name, QUANT var */
    expr *a, *b, *c;   /* operands; QUANT: a = seq, b = body */
    vec items;         /* CALL args, IN_SET items, LIST, TUPLE */
    const char *text;  /* source text of a top-level clause */
    const char *via;   /* a clause from inside predicate macros: the uses it
                          came through ("depthwise(c, w)"), else NULL */

    /* filled in by check.c */
    int ty;            /* T_* below */
    int slot;          /* NAME bound to a pattern slot / quantifier var */
    int qvar;          /* NAME: quantifier variable depth, -1 none */
    int opt;           /* target.X: option index */
    void *sym;         /* resolved op, extern, ... */
    bool cst;          /* an int known at compile time: cval */
    bool nosubst;      /* part of a for-family value: not substituted */
    bool fixed;        /* an argument of a predicate macro, typed where it
                          was written: not typed again */
    int height;        /* typed: levels of the tree below, itself included */
    int64_t cval;
};

/* Predicate types. */
enum {
    T_ERROR, T_BOOL, T_INT, T_FLOAT, T_STRING, T_DTYPE, T_VERSION,
    T_TENSOR, T_OP, T_NONE,
    T_LIST_INT, T_LIST_FLOAT, T_LIST_STRING, T_LIST_BOOL, T_LIST_DTYPE,
    T_LIST_ANY,    /* a list of lists, or of unions: only len() and == */
    T_LIST_LIST_INT, /* int[][]: indexing gives int[] */
    T_LIST_TENSOR, T_OPSET
};

/* ---- types of attributes and options -------------------------------------- */

typedef struct type_ast {
    loc at;
    byoc_type_desc d;
    bool ok;
} type_ast;

/* ---- patterns -------------------------------------------------------------- */

typedef enum pat_kind {
    P_WILD,       /* _ */
    P_NAME,       /* a name: variable, op, let, loop variable */
    P_APPLY,      /* callee(args), callee{attrs}(args) */
    P_OPTIONAL,   /* callee? (only as a callee) */
    P_ALT,        /* a | b */
    P_CONST,      /* const, const(v) */
    P_LIT,        /* a literal constant */
    P_TUPLE,      /* (a, b) */
    P_TUPLE_ANY,  /* tuple(...) */
    P_PROJ,       /* a.i, a.* */
    P_BIND,       /* name: a */
    P_COMMUTE     /* commute a */
} pat_kind;

typedef struct attr_eq_ast {
    loc at;
    const char *name;
    expr *value;
} attr_eq_ast;

typedef struct pat pat;
struct pat {
    pat_kind kind;
    loc at;
    const char *name;  /* NAME, BIND */
    pat *a, *b;        /* APPLY callee; ALT sides; PROJ/BIND/COMMUTE/OPTIONAL inner */
    vec args;          /* APPLY args, TUPLE fields */
    vec attrs;         /* APPLY attribute equalities (attr_eq_ast) */
    int index;         /* PROJ: index, -1 for * */
    expr *value;       /* CONST value, LIT */
    int depth;         /* as expr's */
};

/* ---- declarations ----------------------------------------------------------- */

typedef enum decl_kind {
    D_IMPORT, D_OP, D_DEVICE, D_LINK, D_TARGET, D_EXTERN, D_LET, D_PRED
} decl_kind;

typedef struct input_ast {
    loc at;
    const char *name;
    bool tuple;
} input_ast;

typedef struct attr_ast {
    loc at;
    const char *name;
    type_ast type;
    expr *def;         /* NULL: none */
} attr_ast;

typedef struct param_ast {   /* device/link settings: key [dtype] = value */
    loc at;
    const char *key;
    const char *sub;   /* flops <dtype> */
    loc sub_at;
    expr *value;
} param_ast;

typedef enum titem_kind {
    TI_OPTION,         /* option name: type = default; */
    TI_OPTION_SET,     /* option name = default;  (override inherited) */
    TI_SETTING,        /* fusion/max_depth/max_nodes/max_exits/efficiency */
    TI_SUPPORTS_ALL,
    TI_SUPPORTS,       /* supports p, q where e; */
    TI_LET,
    TI_PATTERN,        /* pattern (possibly a for family) */
    TI_PARTITION,      /* partition where e; */
    TI_LOWER,          /* lower [before|after] NAME; */
    TI_PRED            /* predicate NAME(params) = expr; */
} titem_kind;

typedef struct forgen_ast {  /* one generator of a for family */
    loc at;
    vec vars;          /* names (char *); more than one: tuple destructuring */
    vec values;        /* expr * */
} forgen_ast;

typedef struct let_ast {
    loc at;
    const char *name;
    vec params;        /* char * */
    vec param_locs;    /* loc * */
    pat *body;
} let_ast;

typedef struct pred_param {
    loc at;
    const char *name;
    const char *type;  /* node, or a value type: int, float[], ... */
    loc type_at;
    int depth;         /* [] after the type */
} pred_param;

/* `predicate NAME(x: node, n: int) = EXPR;`: a typed predicate macro,
 * expanded at each use with its parameters bound to the arguments. */
typedef struct pred_ast {
    loc at;
    const char *name;
    vec params;        /* pred_param * */
    expr *body;
    struct file_ast *file;
    bool checked;      /* its declaration was checked */
    bool ok;           /* and had no errors */
} pred_ast;

typedef struct titem {
    titem_kind kind;
    loc at;
    const char *name;  /* option/setting/pattern name (pattern: a template) */
    loc name_at;
    type_ast type;     /* OPTION */
    expr *value;       /* OPTION default, SETTING value */
    vec pats;          /* SUPPORTS: pat *; PATTERN: one */
    expr *where;
    vec settings;      /* PATTERN: param_ast * (efficiency) */
    vec gens;          /* PATTERN family generators (forgen_ast *) */
    let_ast *let;
    pred_ast *pred;    /* PRED */
    byoc_pass_point point;   /* LOWER (name: the pass) */
    /* check.c: where's top-level && clauses, their texts set, once for
     * every copy of it */
    vec clauses;
    bool split;
    bool warned;       /* check.c: clause warnings given (once per item) */
} titem;

typedef struct decl decl;
struct decl {
    decl_kind kind;
    loc at;
    const char *name;      /* op/device/target/extern/let name; IMPORT: path */
    loc name_at;
    struct file_ast *file; /* where it was declared */
    /* op */
    vec inputs;            /* input_ast * */
    byoc_op_kind opkind;
    loc kind_at;
    const char *kind_name;
    vec attrs;             /* attr_ast * */
    const char *shape_rule, *flops_rule;
    loc shape_at, flops_at;
    /* device / link */
    vec params;            /* param_ast * */
    const char *to;        /* link */
    loc to_at;
    bool both_ways;
    /* target */
    const char *parent;
    loc parent_at;
    vec items;             /* titem * */
    /* let */
    let_ast *let;
    /* predicate macro */
    pred_ast *pred;
    /* extern: `extern lower NAME;` (a pass), else a predicate */
    bool lower;

    /* filled by resolve/check */
    bx_hash *attr_index;   /* op: attribute name -> attr_ast, first wins */
    bx_hash *let_index;    /* target: its lets' names -> titem, first wins */
    bx_hash *pred_index;   /* target: its predicates' names -> titem, first wins */
    bx_hash *opt_index;    /* target: option name -> index in options */
    decl *parent_decl;
    bool checked, checking;
    int chain;             /* target: targets in its refinement chain, itself included */
    vec options;           /* flattened: option_info * */
    int ninherited;
    struct target_info *info;
};

typedef struct file_ast {
    const char *path;      /* as opened */
    const char *module;    /* module name: file stem as a C identifier */
    const char *base;      /* file name without folders */
    const char *src;       /* the text, for clause texts */
    size_t srclen;
    int *line_starts;
    int nlines;
    vec decls;             /* decl * */
    vec imports;           /* file_ast * (resolved) */
    int state;             /* 0 new, 1 loading, 2 done: import cycles */
    loc importing_at;      /* while loading: the import being followed */
    bool parsed_ok;
    int index;             /* in all_files */
    unsigned char *reach;  /* bit per all_files index: the files it sees */
} file_ast;

/* ---- the compilation --------------------------------------------------------- */

typedef struct compilation {
    bx_arena arena;
    diag diag;
    vec include_dirs;      /* char * */
    const char *datadir;   /* installed data folder */
    bx_hash files;         /* canonical path -> file_ast */
    file_ast *main;
    vec all_files;         /* every file, in load order */
    /* global namespaces across all loaded files */
    bx_hash ops, devices, targets, externs, lets, preds;
    vec deps;              /* paths read, for -MD */
    int next_pattern_id;
    size_t expanded;       /* BYOCC_MAX_EXPANDED's count */
    bool too_large;        /* passed it: check stops */
    const char *expanding; /* what is being expanded, for its message */
    loc expanding_at;
    vec indexes;           /* bx_hash * that check() built and frees */
    bx_hash *op_spaces;    /* "nn" for nn.conv2d: first parts of op names */
} compilation;

/* compilation_init sets up an empty compilation: its arena and namespaces,
 * diagnostics to stderr (set diag.out to any FILE * before use; it stays
 * the caller's), the data folder from $BYOC_DATADIR or the installed one.
 * compilation_free frees everything it holds; init again to reuse it. */
void compilation_init(compilation *c);
void compilation_free(compilation *c);

/* parser.y / lexer.l: parse the text src[0..n) (NUL-terminated, in the
 * arena: the AST keeps it) of the file called display. */
file_ast *parse_source(compilation *c, const char *display, const char *src, size_t n);
/* read_source and parse_source; NULL after an unlocated error when path
 * cannot be read. */
file_ast *parse_file(compilation *c, const char *path, const char *display);
/* resolve.c: read a source file whole into the arena, NUL-terminated; NULL
 * with an error located at `from` (none: "byocc: error:") when it is not a
 * regular file, is larger than BYOCC_MAX_FILE_SIZE or cannot be read. */
char *read_source(compilation *c, const char *path, loc from, size_t *len);

/* resolve.c: load main and its imports, build the namespaces.  0, or -1
 * after errors. */
int resolve(compilation *c, const char *path);
/* The same with the main file's text in memory: display_name names it in
 * diagnostics and is where its relative imports are looked for first;
 * imports are read from disk.  For tests and fuzzing. */
int resolve_buffer(compilation *c, const char *display_name, const char *data, size_t len);
/* Is decl d visible from file f (declared in f or a file it imports,
 * directly or not)? */
bool visible_from(const file_ast *f, const decl *d);

/* check.c: lowered forms consumed by emit_c.c. */
typedef struct option_info {
    const char *name;
    byoc_type_desc type;
    byoc_value def;
    decl *owner;
    loc at;
} option_info;

typedef struct lpnode {    /* a lowered pattern node */
    byoc_pkind kind;
    uint8_t flags;
    int slot;
    int index;
    vec ops;               /* char * */
    vec kids;              /* intptr_t indices */
    vec attrs;             /* attr_eq_ast with value lowered: byoc_value * */
    vec attr_names;        /* char * */
    byoc_value *value;
    int refs;
    loc at;
} lpnode;

typedef struct lpattern {
    const char *name;      /* NULL: supports rule */
    loc at;
    vec nodes;             /* lpnode * */
    int root;
    vec slot_names;        /* char * */
    vec slot_nodes;        /* intptr_t */
    expr *where;           /* checked */
    vec clauses;           /* expr * top-level && clauses */
    double efficiency;
    int id;                /* unique in the module, for C names */
} lpattern;

typedef struct pass_info {  /* a checked `lower` item */
    const char *name;      /* the extern's, and so the C function's */
    byoc_pass_point point;
    loc at;
} pass_info;

typedef struct target_info {
    vec rules;             /* lpattern * */
    vec patterns;          /* lpattern * */
    vec partition;         /* lpattern * (nodes empty, where set) */
    bool supports_all;
    byoc_fusion fusion;
    bool fusion_set;
    int max_depth, max_nodes, max_exits;
    double efficiency;
    const char *runtime;   /* NULL: none given */
    loc runtime_at;
    vec passes;            /* pass_info *, in source order */
} target_info;

int check(compilation *c);

/* emit_c.c */
int emit_c(compilation *c, FILE *cf, FILE *hf, const char *header_name);

/* Compile-time constants (check.c) */
bool const_value(compilation *c, expr *e, byoc_value *out, bx_arena *a);
byoc_op_kind op_kind_from_name(const char *s, bool *ok);

#endif
