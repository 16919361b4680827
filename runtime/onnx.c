/* Reading ONNX models into a graph.
 *
 * Two phases.  Decoding unpacks the protobuf with the code protoc-c
 * generates from onnx.proto and copies what byoc needs - nodes, attributes,
 * declared types, initializers and the few tensor contents that matter -
 * into the plain structs of onnx.h; it is the only part that needs
 * protobuf-c, and without it the readers fail with a message instead.
 * Building then checks the node list (every input produced once, no
 * cycles), sorts it topologically, since the graph wants arguments before
 * their users and ONNX does not promise that, and hands each node to its
 * converter in the op table (onnx_ops.c).
 *
 * The idea needed to read it: every ONNX tensor name is an ox_value that
 * becomes a graph node only when a converter first uses it as an argument.
 * Initializers that are only ever read as data (Reshape's shape, Split's
 * sizes) therefore never reach the graph, as in TVM, where they become
 * attributes; and a Transpose is held back until its user is known, so that
 * MatMul and Gemm can fold it the way TVM's SimplifyExpr does.  Types come
 * from the graph, which types each node's nodes once, when its converter
 * is done, so that loading is linear however many shapes the converters
 * ask for; else from the model's declarations (inputs, value_info,
 * outputs).  After the last node every declaration that disagrees with
 * inference leaves a note. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/onnx.h>
#include <byoc/relay.h>

#include "arena.h"
#include "die.h"
#include "errfmt.h"
#include "file.h"
#include "graph_impl.h"
#include "hash.h"
#include "onnx.h"
#include "onnx_qdq.h"

#ifdef HAVE_ONNX
#include "runtime/onnx.pb-c.h"
#endif

/* Tensors with more elements than this keep no contents: shapes, axes and
 * pads are far smaller, and weights are never needed. */
enum { OX_DATA_MAX = 4096 };
/* Constants get a value on the graph when scalar or a short 1-D list. */
enum { OX_VALUE_MAX = 64 };

struct ox_value {
    const char *name;
    int node;                   /* graph node; -1 until made */
    int producer;               /* model node writing it; -1 if none */
    int uses;                   /* node inputs and graph outputs naming it */
    bool is_input;
    bool is_const;              /* an initializer or a Constant's output */
    bool partial;               /* data known in part; node built on first use */
    ox_reader *owner;           /* whose model's node `producer` indexes */
    byoc_tensor_type type;      /* is_const: its type */
    const ox_tensor *data;      /* is_const: contents, or NULL */
    bool declared;              /* the model declares decl */
    byoc_tensor_type decl;
    ox_value *alias;            /* the value this one is (Identity's output) */
    bool relaid;                /* node holds it in another layout than decl */
    ox_value *tr_src;           /* a pending transpose of tr_src */
    int tr_rank;
    int64_t tr_perm[BYOC_MAX_RANK];
    const ox_lazy *lazy;        /* built by lazy->build on first use */
};

/* A declared tensor type: a graph input, output or value_info entry. */
typedef struct ox_decl {
    const char *name;
    byoc_tensor_type type;
    int64_t onnx_elem;          /* the element type as the model gives it */
    bool bad_dtype;             /* one byoc does not have */
    bool bad_rank;              /* more axes than BYOC_MAX_RANK */
    bool shape_given;           /* an input whose shape byoc_read_options gave */
} ox_decl;

typedef struct ox_init {
    const char *name;
    byoc_tensor_type type;
    const ox_tensor *data;
} ox_init;

/* The model as decoding leaves it. */
typedef struct ox_model {
    int opset;                  /* of the default domain */
    int nnodes, ninputs, noutputs, ninfos, ninits;
    ox_node *nodes;
    ox_decl *inputs, *outputs, *infos;
    ox_init *inits;
} ox_model;

/* A graph attribute: a subgraph decoded as the main graph is, and the
 * names it reads from enclosing graphs (its own subgraphs' included), in
 * the order first read. */
struct ox_graph {
    ox_model m;
    int nfree;
    const char **free;
};

struct ox_reader {
    byoc_graph *g;
    ox_value **partial_stack;   /* materialize's work list, values.n long */
    int partial_depth;          /* materialize calls open */
    const char *file;
    byoc_error *err;
    bool failed;
    bx_arena arena;
    bx_hash values;             /* name -> ox_value */
    bx_hash ops;                /* "domain op" -> ox_op_map, or &no_map */
    ox_model m;
    /* In a subgraph: how many graphs enclose it, and what its messages
     * start with ("node 'if' (If): then_branch: "), with its first two
     * levels and its last one (scope_enter). */
    int depth;
    const char *scope, *scope_head, *scope_last;
    bool quantized_nhwc;        /* byoc_read_options.quantized_nhwc */
    /* The failure came from converting or typing a subgraph's nodes, not
     * from its structure: a branch that may never run (ox_recover). */
    bool recoverable;
    int64_t *unrolled;          /* recurrent steps unrolled so far, the main reader's */
    int64_t unrolled_here;      /* the main reader's count, which unrolled points to */
};

/* ---- errors ------------------------------------------------------------- */

static void reader_error(ox_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reader_error(ox_reader *r, const char *fmt, ...)
{
    if (r->failed)
        return;
    r->failed = true;
    char msg[480];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    bx_error_set(r->err, r->file, 0, 0, "%s%s", r->scope ? r->scope : "", msg);
}

/* "node 'conv1' (Conv)", or for a nameless node "the Conv node writing
 * 'y'": names are optional in ONNX, output names are not. */
static const char *node_desc(const ox_node *n, char *buf, size_t size)
{
    if (n->name[0])
        snprintf(buf, size, "node '%s' (%s)", n->name, n->op_type);
    else if (n->noutputs > 0 && n->outputs[0][0])
        snprintf(buf, size, "the %s node writing '%s'", n->op_type, n->outputs[0]);
    else
        snprintf(buf, size, "node %d (%s)", n->index, n->op_type);
    return buf;
}

/* r is to read attribute `attr` of outer's node n: the path to it, for
 * messages, in full up to four levels deep, else the first two levels,
 * "...", and the last two, so that it fits an error.  r may be outer. */
static void scope_enter(ox_reader *r, bx_arena *a, const ox_reader *outer, const ox_node *n,
                        const char *attr)
{
    char desc[200];
    const char *level =
        bx_arena_printf(a, "%s: %.64s: ", node_desc(n, desc, sizeof desc), attr);
    int levels = outer->depth + 1;
    const char *scope =
        levels <= 4 ? bx_arena_printf(a, "%s%s", outer->scope ? outer->scope : "", level)
                    : bx_arena_printf(a, "%s...: %s%s", outer->scope_head, outer->scope_last,
                                      level);
    r->scope_head = levels <= 2 ? scope : outer->scope_head;
    r->scope_last = level;
    r->scope = scope;
}

const char *ox_node_desc(const ox_node *n, char *buf, size_t size)
{
    return node_desc(n, buf, size);
}

static void vnode_error(ox_reader *r, const ox_node *n, const char *fmt, va_list ap)
{
    char desc[200], msg[400];
    vsnprintf(msg, sizeof msg, fmt, ap);
    reader_error(r, "%s: %s", node_desc(n, desc, sizeof desc), msg);
}

int ox_fail(ox_cx *cx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vnode_error(cx->r, cx->node, fmt, ap);
    va_end(ap);
    return -1;
}

bool ox_unroll_budget(ox_cx *cx, int64_t steps)
{
    ox_reader *r = cx->r;
    int64_t *used = r->unrolled ? r->unrolled : &r->unrolled_here;
    if (steps < 0 || steps > OX_UNROLL_BUDGET - *used)
        return false;
    *used += steps;
    return true;
}

int ox_recover(ox_cx *cx, char *buf, size_t size)
{
    ox_reader *r = cx->r;
    if (!r->failed || !r->recoverable || !r->err || !r->err->msg[0])
        return -1;
    snprintf(buf, size, "%s", r->err->msg);
    r->failed = false;
    r->recoverable = false;
    byoc_error_clear(r->err);
    return 0;
}

int ox_unsupported(ox_cx *cx, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cx->why = bx_arena_strdup(&cx->r->arena, msg);
    return 1;
}

/* An error from the graph API, located at the node. */
static int graph_fail(ox_cx *cx, const byoc_error *e)
{
    return ox_fail(cx, "%s", e->msg);
}

/* ---- dtypes ------------------------------------------------------------- */

int ox_dtype(int64_t t)
{
    switch (t) {
    case 1: return BYOC_DT_FLOAT32;
    case 2: return BYOC_DT_UINT8;
    case 3: return BYOC_DT_INT8;
    case 4: return BYOC_DT_UINT16;
    case 5: return BYOC_DT_INT16;
    case 6: return BYOC_DT_INT32;
    case 7: return BYOC_DT_INT64;
    case 9: return BYOC_DT_BOOL;
    case 10: return BYOC_DT_FLOAT16;
    case 11: return BYOC_DT_FLOAT64;
    case 12: return BYOC_DT_UINT32;
    case 13: return BYOC_DT_UINT64;
    case 16: return BYOC_DT_BFLOAT16;
    default: return -1;
    }
}

/* For messages about element types byoc lacks. */
static const char *onnx_dtype_name(int64_t t)
{
    static const char *const names[] = {
        "undefined", "float", "uint8", "int8", "uint16", "int16", "int32", "int64",
        "string", "bool", "float16", "double", "uint32", "uint64", "complex64",
        "complex128", "bfloat16", "float8e4m3fn", "float8e4m3fnuz", "float8e5m2",
        "float8e5m2fnuz", "uint4", "int4",
    };
    return t >= 0 && t < (int64_t)(sizeof names / sizeof names[0]) ? names[t] : "unknown";
}

static const byoc_tensor_type unknown_type = {BYOC_DT_VOID, -1, {0}};

bool ox_count_fits(const int64_t *dims, int rank)
{
    int64_t n = 1;
    bool overflow = false;
    for (int k = 0; k < rank; k++) {
        if (dims[k] == 0)
            return true;
        if (dims[k] > 0 && !overflow)
            overflow = __builtin_mul_overflow(n, dims[k], &n);
    }
    return !overflow;
}

/* ---- values --------------------------------------------------------------- */

static ox_value *value_get(ox_reader *r, const char *name)
{
    return bx_hash_get(&r->values, name);
}

static ox_value *value_make(ox_reader *r, const char *name)
{
    ox_value *v = value_get(r, name);
    if (v)
        return v;
    v = BX_NEW(&r->arena, ox_value);
    v->name = bx_arena_strdup(&r->arena, name);
    v->owner = r;
    v->node = -1;
    v->producer = -1;
    v->type = unknown_type;
    v->decl = unknown_type;
    bx_hash_put(&r->values, v->name, v);
    return v;
}

static ox_value *resolve(ox_value *v)
{
    while (v && v->alias)
        v = v->alias;
    return v;
}

static ox_value *out_value(ox_cx *cx, int i)
{
    const ox_node *n = cx->node;
    if (i < 0 || i >= n->noutputs || !n->outputs[i][0])
        return NULL;
    if (n->cache_owner == cx->r)
        return n->out_cache[i];
    return value_get(cx->r, n->outputs[i]);
}

ox_value *ox_in(ox_cx *cx, int i)
{
    const ox_node *n = cx->node;
    if (i < 0 || i >= n->ninputs || !n->inputs[i][0])
        return NULL;
    if (n->cache_owner == cx->r)
        return n->in_cache[i];
    return value_get(cx->r, n->inputs[i]);
}

/* A graph value for a constant's contents: a scalar, or a short list. */
static bool const_value(const ox_tensor *t, byoc_value *v, byoc_value *items, size_t cap)
{
    if (!t || (!t->i && !t->f))
        return false;
    bool is_bool = t->type.dtype == BYOC_DT_BOOL;
    byoc_value *out = t->type.rank == 0 ? v : items;
    size_t n = t->type.rank == 0 ? 1 : t->n;
    if (t->type.rank > 1 || n > cap || (t->type.rank == 0 && t->n != 1))
        return false;
    for (size_t k = 0; k < n; k++) {
        memset(&out[k], 0, sizeof out[k]);
        if (t->f) {
            out[k].kind = BYOC_V_FLOAT;
            out[k].u.f = t->f[k];
        } else if (is_bool) {
            out[k].kind = BYOC_V_BOOL;
            out[k].u.b = t->i[k] != 0;
        } else {
            out[k].kind = BYOC_V_INT;
            out[k].u.i = t->i[k];
        }
    }
    if (t->type.rank == 1) {
        memset(v, 0, sizeof *v);
        v->kind = BYOC_V_LIST;
        v->u.list.items = items;
        v->u.list.n = n;
    }
    return true;
}

static int convert_node(ox_reader *r, const ox_node *n);

/* Whether v has a node, or what ox_node_of needs to make one: a converter
 * may define a partial value as another (Identity's output, an Expand to
 * the shape it has) or as a pending transpose rather than as a node. */
static bool has_node(const ox_value *v)
{
    return v->node >= 0 || v->alias || v->is_const || v->tr_src || v->lazy;
}

/* Lazy values nest this deep at most: materialize runs converters, which
 * meet partial values only through pending transposes. */
enum { OX_PARTIAL_DEPTH = 64 };

/* Build the nodes a partial value stands for: its producer's converter, after
 * the producers of every partial value it reads, deepest first, from a work
 * list rather than by recursion.  The list holds no value twice (that
 * would be a cycle), so values.n entries are enough.  0 once v has_node. */
static int materialize(ox_reader *r, ox_value *v)
{
    if (r->partial_depth >= OX_PARTIAL_DEPTH) {
        reader_error(r, "'%s': shape computations nest more than %d deep", v->name,
                     OX_PARTIAL_DEPTH);
        return -1;
    }
    if (!r->partial_stack)
        r->partial_stack = BX_NEWN(&r->arena, ox_value *, r->values.n + 1);
    r->partial_depth++;
    int base = 0;
    while (r->partial_stack[base])
        base++;                 /* an outer call's entries */
    int sp = base;
    r->partial_stack[sp++] = v;
    int rc = 0;
    while (sp > base && rc == 0) {
        ox_value *t = r->partial_stack[sp - 1];
        if (has_node(t)) {
            r->partial_stack[--sp] = NULL;
            continue;
        }
        const ox_node *n = &r->m.nodes[t->producer];
        ox_value *need = NULL;
        for (int k = 0; k < n->ninputs && !need; k++) {
            ox_value *u = n->inputs[k][0] ? resolve(value_get(r, n->inputs[k])) : NULL;
            if (u && u->partial && !has_node(u))
                need = u;
        }
        if (need && need->owner != r) {
            /* An enclosing graph's value, read by a branch taken in place:
             * its own reader builds it (at most BYOC_MAX_GRAPH_DEPTH up). */
            if (materialize(need->owner, need) < 0)
                rc = -1;
            continue;
        }
        if (need) {
            if ((size_t)sp >= r->values.n) {
                reader_error(r, "'%s': shape computations form a cycle", v->name);
                rc = -1;
                break;
            }
            r->partial_stack[sp++] = need;
            continue;
        }
        r->g->folded--;
        if (convert_node(r, n) < 0)
            rc = -1;
        else if (!has_node(t)) {
            reader_error(r, "'%s': its node was not built", t->name);
            rc = -1;
        }
    }
    while (sp > base)
        r->partial_stack[--sp] = NULL;
    r->partial_depth--;
    return rc < 0 ? -1 : 0;
}

static int node_of(ox_cx *cx, ox_value *v);

/* A node made for a value on first use is the value's producer's. */
int ox_node_of(ox_cx *cx, ox_value *v)
{
    v = resolve(v);
    if (!v)
        return -1;
    if (v->node >= 0)
        return v->node;
    int saved = cx->g->cur_origin;
    if (v->owner && v->owner->depth == 0 && v->owner->g == cx->g && v->producer >= 0)
        cx->g->cur_origin = v->producer;
    int node = node_of(cx, v);
    cx->g->cur_origin = saved;
    return node;
}

static int node_of(ox_cx *cx, ox_value *v)
{
    byoc_error e;
    if (v->is_const) {
        byoc_value val, items[OX_VALUE_MAX];
        bool has = const_value(v->data, &val, items, OX_VALUE_MAX);
        int node = byoc_graph_add_const(cx->g, &v->type, has ? &val : NULL, &e);
        if (node < 0)
            return graph_fail(cx, &e);
        byoc_graph_set_name(cx->g, node, v->name);
        v->node = node;
        return node;
    }
    if (v->partial && !has_node(v))     /* an enclosing graph's, maybe */
        return materialize(v->owner, v) < 0 ? -1 : ox_node_of(cx, v);
    if (v->tr_src) {
        int src = ox_node_of(cx, v->tr_src);
        if (src < 0)
            return -1;
        int node = byoc_graph_add_call(cx->g, "transpose", &src, 1, &e);
        if (node < 0)
            return graph_fail(cx, &e);
        v->node = node;
        if (ox_set_ints(cx, node, "axes", v->tr_perm, (size_t)v->tr_rank) < 0)
            return -1;
        byoc_graph_set_name(cx->g, node, v->name);
        return node;
    }
    if (v->lazy) {
        int node = v->lazy->build(cx, v->lazy);
        if (node < 0)
            return -1;
        v->node = node;
        if (!byoc_node_name(cx->g, node))
            byoc_graph_set_name(cx->g, node, v->name);
        return node;
    }
    /* Topological order makes producers come first. */
    bx_die("ONNX value used before its producer was converted");
}

int ox_arg(ox_cx *cx, int i)
{
    ox_value *v = ox_in(cx, i);
    if (!v)
        return ox_fail(cx, "input %d is missing", i + 1);
    return ox_node_of(cx, v);
}

byoc_tensor_type ox_out_decl(ox_cx *cx, int i)
{
    ox_value *v = out_value(cx, i);
    return v && v->declared ? v->decl : unknown_type;
}

void *ox_alloc(ox_cx *cx, size_t size)
{
    return bx_arena_alloc(&cx->r->arena, size ? size : 1);
}

const char *ox_ints_str(ox_cx *cx, const int64_t *v, size_t n)
{
    char buf[200];
    size_t at = 0;
    buf[0] = 0;
    for (size_t k = 0; k < n && at < sizeof buf; k++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%lld", k ? ", " : "",
                               (long long)v[k]);
    if (at >= sizeof buf)
        snprintf(buf + sizeof buf - 5, 5, "...");
    return bx_arena_strdup(&cx->r->arena, buf);
}

bool ox_output_used(ox_cx *cx, int i)
{
    ox_value *v = out_value(cx, i);
    return v && v->uses > 0;
}

bool ox_pending_transpose(ox_value *v, ox_value **src, int64_t *perm, int *rank)
{
    v = resolve(v);
    if (!v || !v->tr_src || v->node >= 0)
        return false;
    *src = v->tr_src;
    *rank = v->tr_rank;
    memcpy(perm, v->tr_perm, sizeof(int64_t) * (size_t)v->tr_rank);
    return true;
}

byoc_tensor_type ox_type(ox_cx *cx, ox_value *v)
{
    v = resolve(v);
    if (!v)
        return unknown_type;
    const byoc_tensor_type *t = v->node >= 0 ? byoc_node_type(cx->g, v->node, -1) : NULL;
    if (t && t->rank >= 0)
        return *t;
    if (v->is_const || v->partial)
        return v->is_const ? v->type : v->data->type;
    if (v->lazy) {
        const byoc_tensor_type *like =
            v->lazy->like >= 0 ? byoc_node_type(cx->g, v->lazy->like, -1) : NULL;
        if (!like || like->rank < 0 || (v->lazy->nperm && v->lazy->nperm != like->rank))
            return v->lazy->type;
        byoc_tensor_type out = *like;
        out.dtype = v->lazy->type.dtype;
        for (int k = 0; k < v->lazy->nperm; k++)
            out.dims[k] = like->dims[v->lazy->perm[k]];
        return out;
    }
    /* A transpose built by this node's converter is not typed yet. */
    if (v->tr_src) {
        byoc_tensor_type s = ox_type(cx, v->tr_src), out = s;
        if (s.rank == v->tr_rank)
            for (int k = 0; k < s.rank; k++)
                out.dims[k] = s.dims[v->tr_perm[k]];
        else
            out.rank = -1;
        return out;
    }
    return v->declared ? v->decl : unknown_type;
}

const ox_tensor *ox_data(ox_cx *cx, ox_value *v)
{
    (void)cx;
    v = resolve(v);
    return v && v->is_const ? v->data : NULL;
}

const ox_tensor *ox_sym_data(ox_cx *cx, ox_value *v)
{
    (void)cx;
    v = resolve(v);
    return v && (v->is_const || v->partial || v->is_input) ? v->data : NULL;
}

/* ---- defining outputs ----------------------------------------------------- */

void ox_define(ox_cx *cx, int i, int node)
{
    ox_value *v = out_value(cx, i);
    if (!v)
        return;
    v->node = node;
    if (!byoc_node_name(cx->g, node))
        byoc_graph_set_name(cx->g, node, v->name);
}

void ox_define_relaid(ox_cx *cx, int i, int node)
{
    ox_define(cx, i, node);
    ox_value *v = out_value(cx, i);
    if (v)
        v->relaid = true;
}

int ox_take_output(ox_cx *cx, int i)
{
    ox_value *v = out_value(cx, i);
    if (!v || (v->node < 0 && !v->alias && !v->is_const && !v->tr_src))
        return -1;
    int node = ox_node_of(cx, v);
    if (node < 0)
        return -1;
    const char *name = byoc_node_name(cx->g, node);
    if (name && !strcmp(name, v->name))
        byoc_graph_set_name(cx->g, node, NULL);
    v->node = -1;
    v->relaid = false;
    v->alias = NULL;
    v->tr_src = NULL;
    v->is_const = false;
    v->data = NULL;
    return node;
}

void ox_alias(ox_cx *cx, int i, ox_value *src)
{
    ox_value *v = out_value(cx, i);
    src = resolve(src);
    if (v && src && src != v)
        v->alias = src;     /* resolved: a chain of Identities stays one deep */
}

void ox_define_const(ox_cx *cx, int i, const byoc_tensor_type *type, const ox_tensor *t)
{
    ox_value *v = out_value(cx, i);
    if (!v)
        return;
    v->is_const = true;
    v->type = *type;
    v->data = t;
}

void ox_define_partial(ox_cx *cx, int i, const ox_tensor *t)
{
    ox_value *v = out_value(cx, i);
    if (!v)
        return;
    v->partial = true;
    v->data = t;
}

void ox_define_lazy(ox_cx *cx, int i, const ox_lazy *l)
{
    ox_value *v = out_value(cx, i);
    if (!v)
        return;
    v->lazy = l;
    v->node = -1;
    v->alias = NULL;
    v->tr_src = NULL;
}

bool ox_is_const(ox_value *v)
{
    v = resolve(v);
    return v && v->is_const;
}

int ox_out_node(ox_cx *cx, int i)
{
    ox_value *v = out_value(cx, i);
    return v ? ox_node_of(cx, v) : -1;
}

const ox_lazy *ox_lazy_of(ox_value *v)
{
    v = resolve(v);
    return v && v->lazy && v->node < 0 ? v->lazy : NULL;
}

int ox_convert_as(ox_cx *cx, const char *op_type, const int *nodes, int n)
{
    const ox_op_map *map = ox_op_lookup("", op_type);
    if (!map)
        bx_die("ox_convert_as: no converter for the ONNX op");
    /* The converter reads its inputs' types: type what was built so far. */
    byoc_error e;
    if (bx_graph_infer_new(cx->g, &e) < 0)
        return graph_fail(cx, &e);
    const char **in = BX_NEWN(&cx->r->arena, const char *, n + 1);
    for (int i = 0; i < n; i++) {
        if (nodes[i] == OX_KEEP) {
            in[i] = i < cx->node->ninputs ? cx->node->inputs[i] : "";
            continue;
        }
        if (nodes[i] < 0) {
            in[i] = "";
            continue;
        }
        /* The stand-in's name cannot be an ONNX tensor's: none starts
         * with a control character. */
        char name[40];
        snprintf(name, sizeof name, "\x1fnode %d", nodes[i]);
        ox_value *v = value_make(cx->r, name);
        v->node = nodes[i];
        in[i] = v->name;
    }
    ox_node copy = *cx->node;
    copy.op_type = op_type;
    copy.domain = "";
    copy.inputs = in;
    copy.ninputs = n;
    copy.cache_owner = NULL;    /* other inputs: looked up by name */
    ox_cx sub = *cx;
    sub.node = &copy;
    sub.map = map;
    int rc = map->convert(&sub);
    cx->why = sub.why;
    return rc;
}

void ox_define_transpose(ox_cx *cx, int i, ox_value *src, const int64_t *perm, int rank)
{
    ox_value *v = out_value(cx, i);
    if (!v)
        return;
    v->tr_src = src;
    v->tr_rank = rank;
    memcpy(v->tr_perm, perm, sizeof(int64_t) * (size_t)rank);
}

/* ---- attributes ------------------------------------------------------------ */

const ox_attr *ox_attr_find(const ox_node *n, const char *name)
{
    for (int i = 0; i < n->nattrs; i++)
        if (strcmp(n->attrs[i].name, name) == 0)
            return n->attrs[i].type == OX_AT_UNDEFINED ? NULL : &n->attrs[i];
    return NULL;
}

static const char *attr_type_name(int t)
{
    static const char *const names[] = {
        "undefined", "a float", "an int", "a string", "a tensor", "a graph",
        "a list of floats", "a list of ints", "a list of strings", "a list of tensors",
        "a list of graphs", "a sparse tensor", "a list of sparse tensors", "a type",
        "a list of types",
    };
    return t >= 0 && t < (int)(sizeof names / sizeof names[0]) ? names[t] : "of unknown type";
}

static int attr_wrong(ox_cx *cx, const ox_attr *a, const char *want)
{
    return ox_fail(cx, "attribute '%s' should be %s, not %s", a->name, want,
                   attr_type_name(a->type));
}

int ox_attr_int(ox_cx *cx, const char *name, int64_t def, int64_t *out)
{
    const ox_attr *a = ox_attr_find(cx->node, name);
    *out = def;
    if (!a)
        return 0;
    if (a->type != OX_AT_INT)
        return attr_wrong(cx, a, "an int");
    *out = a->i;
    return 1;
}

int ox_attr_float(ox_cx *cx, const char *name, double def, double *out)
{
    const ox_attr *a = ox_attr_find(cx->node, name);
    *out = def;
    if (!a)
        return 0;
    if (a->type == OX_AT_INT)
        *out = (double)a->i;
    else if (a->type == OX_AT_FLOAT)
        *out = a->f;
    else
        return attr_wrong(cx, a, "a float");
    return 1;
}

int ox_attr_string(ox_cx *cx, const char *name, const char *def, const char **out)
{
    const ox_attr *a = ox_attr_find(cx->node, name);
    *out = def;
    if (!a)
        return 0;
    if (a->type != OX_AT_STRING)
        return attr_wrong(cx, a, "a string");
    *out = a->s;
    return 1;
}

int ox_attr_ints(ox_cx *cx, const char *name, const int64_t **out, size_t *n)
{
    const ox_attr *a = ox_attr_find(cx->node, name);
    *out = NULL;
    *n = 0;
    if (!a)
        return 0;
    if (a->type != OX_AT_INTS)
        return attr_wrong(cx, a, "a list of ints");
    *out = a->ints;
    *n = a->n;
    return 1;
}

int ox_attr_floats(ox_cx *cx, const char *name, const double **out, size_t *n)
{
    const ox_attr *a = ox_attr_find(cx->node, name);
    *out = NULL;
    *n = 0;
    if (!a)
        return 0;
    if (a->type != OX_AT_FLOATS)
        return attr_wrong(cx, a, "a list of floats");
    *out = a->floats;
    *n = a->n;
    return 1;
}

/* ---- building ---------------------------------------------------------------- */

int ox_call(ox_cx *cx, const char *op, const int *args, int nargs)
{
    for (int i = 0; i < nargs; i++)
        if (args[i] < 0)
            return -1;
    byoc_error e;
    int node = byoc_graph_add_call(cx->g, op, args, nargs, &e);
    return node < 0 ? graph_fail(cx, &e) : node;
}

static int set_attr(ox_cx *cx, int node, const char *attr, const byoc_value *v)
{
    byoc_error e;
    if (node < 0)
        return -1;
    return byoc_graph_set_attr(cx->g, node, attr, v, &e) < 0 ? graph_fail(cx, &e) : 0;
}

int ox_set_int(ox_cx *cx, int node, const char *attr, int64_t v)
{
    byoc_value x = {.kind = BYOC_V_INT, .u.i = v};
    return set_attr(cx, node, attr, &x);
}

int ox_set_float(ox_cx *cx, int node, const char *attr, double v)
{
    byoc_value x = {.kind = BYOC_V_FLOAT, .u.f = v};
    return set_attr(cx, node, attr, &x);
}

int ox_set_bool(ox_cx *cx, int node, const char *attr, bool v)
{
    byoc_value x = {.kind = BYOC_V_BOOL, .u.b = v};
    return set_attr(cx, node, attr, &x);
}

int ox_set_string(ox_cx *cx, int node, const char *attr, const char *v)
{
    byoc_value x = {.kind = BYOC_V_STRING, .u.s = v};
    return set_attr(cx, node, attr, &x);
}

int ox_set_dtype(ox_cx *cx, int node, const char *attr, byoc_dtype v)
{
    byoc_value x = {.kind = BYOC_V_DTYPE, .u.dt = v};
    return set_attr(cx, node, attr, &x);
}

int ox_set_ints(ox_cx *cx, int node, const char *attr, const int64_t *v, size_t n)
{
    byoc_value *items = BX_NEWN(&cx->r->arena, byoc_value, n ? n : 1);
    for (size_t k = 0; k < n; k++) {
        items[k].kind = BYOC_V_INT;
        items[k].u.i = v[k];
    }
    byoc_value x = {.kind = BYOC_V_LIST, .u.list = {items, n}};
    return set_attr(cx, node, attr, &x);
}

int ox_set_floats(ox_cx *cx, int node, const char *attr, const double *v, size_t n)
{
    byoc_value *items = BX_NEWN(&cx->r->arena, byoc_value, n ? n : 1);
    for (size_t k = 0; k < n; k++) {
        items[k].kind = BYOC_V_FLOAT;
        items[k].u.f = v[k];
    }
    byoc_value x = {.kind = BYOC_V_LIST, .u.list = {items, n}};
    return set_attr(cx, node, attr, &x);
}

int ox_set_pairs(ox_cx *cx, int node, const char *attr, const int64_t *v, size_t n)
{
    byoc_value *rows = BX_NEWN(&cx->r->arena, byoc_value, n ? n : 1);
    byoc_value *cells = BX_NEWN(&cx->r->arena, byoc_value, 2 * n + 1);
    for (size_t k = 0; k < n; k++) {
        cells[2 * k].kind = cells[2 * k + 1].kind = BYOC_V_INT;
        cells[2 * k].u.i = v[2 * k];
        cells[2 * k + 1].u.i = v[2 * k + 1];
        rows[k].kind = BYOC_V_LIST;
        rows[k].u.list.items = &cells[2 * k];
        rows[k].u.list.n = 2;
    }
    byoc_value x = {.kind = BYOC_V_LIST, .u.list = {rows, n}};
    return set_attr(cx, node, attr, &x);
}

int ox_scalar(ox_cx *cx, byoc_dtype dt, double v)
{
    byoc_tensor_type t = {dt, 0, {0}};
    byoc_value x;
    memset(&x, 0, sizeof x);
    if (dt == BYOC_DT_BOOL) {
        x.kind = BYOC_V_BOOL;
        x.u.b = v != 0;
    } else if (byoc_dtype_class(dt) == 'f') {
        x.kind = BYOC_V_FLOAT;
        x.u.f = v;
    } else {
        x.kind = BYOC_V_INT;
        x.u.i = (int64_t)v;
    }
    byoc_error e;
    int node = byoc_graph_add_const(cx->g, &t, &x, &e);
    return node < 0 ? graph_fail(cx, &e) : node;
}

int ox_transpose(ox_cx *cx, ox_value *v, const int64_t *perm, int rank)
{
    ox_value *src;
    int64_t inner[BYOC_MAX_RANK], composed[BYOC_MAX_RANK];
    int irank;
    if (ox_pending_transpose(v, &src, inner, &irank) && irank == rank) {
        /* transpose(transpose(x, p), q) = transpose(x, p[q[i]]). */
        bool identity = true;
        for (int k = 0; k < rank; k++) {
            composed[k] = inner[perm[k]];
            identity = identity && composed[k] == k;
        }
        if (identity)
            return ox_node_of(cx, src);
        int s = ox_node_of(cx, src);
        int node = ox_call(cx, "transpose", &s, 1);
        return ox_set_ints(cx, node, "axes", composed, (size_t)rank) < 0 ? -1 : node;
    }
    int s = ox_node_of(cx, v);
    int node = ox_call(cx, "transpose", &s, 1);
    return ox_set_ints(cx, node, "axes", perm, (size_t)rank) < 0 ? -1 : node;
}

int ox_tuple(ox_cx *cx, const int *fields, int n)
{
    for (int i = 0; i < n; i++)
        if (fields[i] < 0)
            return -1;
    byoc_error e;
    int node = byoc_graph_add_tuple(cx->g, fields, n, &e);
    return node < 0 ? graph_fail(cx, &e) : node;
}

int ox_proj(ox_cx *cx, int tuple, int index)
{
    if (tuple < 0)
        return -1;
    byoc_error e;
    int node = byoc_graph_add_proj(cx->g, tuple, index, &e);
    return node < 0 ? graph_fail(cx, &e) : node;
}

/* ---- building the graph ------------------------------------------------------ */

/* An op byoc cannot map: an opaque call on all its inputs, typed as the
 * model declares its outputs, one projection per output if several. */
static int build_opaque(ox_cx *cx, const char *why)
{
    const ox_node *n = cx->node;
    char desc[200];
    node_desc(n, desc, sizeof desc);
    bool other_domain = n->domain[0] && strcmp(n->domain, "ai.onnx") != 0;
    const char *op = other_domain ? bx_arena_printf(&cx->r->arena, "%s.%s", n->domain, n->op_type)
                                  : n->op_type;
    int *args = BX_NEWN(&cx->r->arena, int, n->ninputs + 1), nargs = 0;
    for (int i = 0; i < n->ninputs; i++) {
        ox_value *v = ox_in(cx, i);
        if (v && (args[nargs++] = ox_node_of(cx, v)) < 0)
            return -1;
    }
    byoc_error e;
    int call = byoc_graph_add_opaque(cx->g, op, args, nargs, &e);
    if (call < 0)
        return graph_fail(cx, &e);
    if (why)
        bx_graph_note(cx->g, "%s: kept as an opaque call: %s", desc, why);
    else
        bx_graph_note(cx->g, "%s: no mapping for ONNX op '%s'; kept as an opaque call", desc, op);
    if (n->noutputs == 1) {
        ox_value *v = out_value(cx, 0);
        if (v && v->declared)
            byoc_graph_set_type(cx->g, call, &v->decl);
        ox_define(cx, 0, call);
        return 0;
    }
    byoc_tensor_type *fields = BX_NEWN(&cx->r->arena, byoc_tensor_type, n->noutputs + 1);
    for (int i = 0; i < n->noutputs; i++) {
        ox_value *v = out_value(cx, i);
        fields[i] = v && v->declared ? v->decl : unknown_type;
    }
    if (byoc_graph_set_tuple_type(cx->g, call, fields, n->noutputs, &e) < 0)
        return graph_fail(cx, &e);
    if (n->name[0])
        byoc_graph_set_name(cx->g, call, n->name);
    for (int i = 0; i < n->noutputs; i++)
        if (out_value(cx, i)) {
            int p = ox_proj(cx, call, i);
            if (p < 0)
                return -1;
            ox_define(cx, i, p);
        }
    return 0;
}

/* A table lookup per distinct op, not per node: the table has hundreds
 * of entries, a model tens of ops. */
static const ox_op_map no_map;

static const ox_op_map *lookup(ox_reader *r, const ox_node *n)
{
    const char *key = n->domain[0] ? bx_arena_printf(&r->arena, "%s %s", n->domain, n->op_type)
                                   : n->op_type;
    const ox_op_map *m = bx_hash_get(&r->ops, key);
    if (!m) {
        m = ox_op_lookup(n->domain, n->op_type);
        bx_hash_put(&r->ops, n->domain[0] ? key : bx_arena_strdup(&r->arena, key),
                    (void *)(m ? m : &no_map));
    }
    return m == &no_map ? NULL : m;
}

/* A declared type and one from contents known in part: numbers over
 * symbols over unknowns, the declaration's where both know. */
static byoc_tensor_type merge_known(byoc_tensor_type decl, const byoc_tensor_type *t)
{
    if (decl.rank != t->rank)
        return ox_type_fill(decl, t);
    if (decl.dtype == BYOC_DT_VOID)
        decl.dtype = t->dtype;
    for (int k = 0; k < decl.rank; k++) {
        int64_t a = decl.dims[k], b = t->dims[k];
        decl.dims[k] = a >= 0 ? a : b >= 0 ? b : a <= -2 ? a : b;
    }
    return decl;
}

/* The node's converter, or an opaque call when it has none or it gives
 * up (typed, where contents known in part say what its output is). */
static int convert_node_here(ox_reader *r, const ox_node *n);

/* The graph nodes a model node's converter makes carry its index as their
 * origin, for the ONNX writers; the nodes of a branch taken in place carry
 * the index of the If that held it. */
static int convert_node(ox_reader *r, const ox_node *n)
{
    int saved = r->g->cur_origin;
    if (r->depth == 0)
        r->g->cur_origin = n->index;
    int rc = convert_node_here(r, n);
    r->g->cur_origin = saved;
    return rc;
}

static int convert_node_here(ox_reader *r, const ox_node *n)
{
    ox_cx cx = {.r = r, .g = r->g, .node = n, .opset = r->m.opset,
                .quantized_nhwc = r->quantized_nhwc};
    if (ox_is_control_flow(n))
        return ox_convert_control_flow(&cx);
    cx.map = lookup(r, n);
    if (!cx.map)
        return build_opaque(&cx, NULL);
    int rc = ox_qdq_rewrite(&cx);
    if (rc == OX_QDQ_NONE)
        rc = cx.map->convert(&cx);
    if (rc < 0)
        return -1;
    if (rc > 0) {
        byoc_tensor_type t;
        ox_value *v = out_value(&cx, 0);
        /* What the model declares wins; contents known in part fill the
         * rest. */
        if (n->noutputs == 1 && v && ox_symbolic_type(&cx, &t)) {
            v->decl = v->declared ? merge_known(v->decl, &t) : t;
            v->declared = true;
        }
        for (int i = 0; n->noutputs > 1 && i < n->noutputs; i++) {
            ox_value *o = out_value(&cx, i);
            if (o && ox_symbolic_output_type(&cx, i, &t)) {
                o->decl = o->declared ? merge_known(o->decl, &t) : t;
                o->declared = true;
            }
        }
        return build_opaque(&cx, cx.why);
    }
    for (int i = 0; i < n->noutputs; i++) {
        ox_value *v = out_value(&cx, i);
        /* Outputs nobody reads may stay undefined (Dropout's mask); one
         * that is read but that the op does not give is the model's
         * mistake (an Identity with three outputs). */
        if (v && v->uses > 0 && v->node < 0 && !v->alias && !v->is_const && !v->tr_src
            && !v->partial && !v->lazy)
            return ox_fail(&cx, "%s gives no output %d ('%s')", n->op_type, i + 1, v->name);
    }
    return 0;
}

/* The graph nodes from `from` on, which node n's converter made and
 * inference typed: none may have more elements than 64 bits count (a
 * TopK's k, a Pad's pads or an Expand's shape that no tensor can have),
 * which ONNX Runtime refuses too.  -1 with the error set. */
static int check_results(ox_reader *r, const ox_node *n, int from)
{
    for (int i = from; i < r->g->n; i++) {
        int nf = byoc_node_field_count(r->g, i);
        for (int f = nf < 0 ? -1 : 0; f < (nf < 0 ? 0 : nf); f++) {
            const byoc_tensor_type *t = byoc_node_type(r->g, i, f);
            if (!t || t->rank < 0 || ox_count_fits(t->dims, t->rank))
                continue;
            char desc[200], type[160];
            byoc_relay_format_type(r->g, t, type, sizeof type);
            reader_error(r, "%s: its result %s has more than 2^63 - 1 elements",
                         node_desc(n, desc, sizeof desc), type);
            return -1;
        }
    }
    return 0;
}

static int build_node(ox_reader *r, const ox_node *n)
{
    ox_cx cx = {.r = r, .g = r->g, .node = n, .opset = r->m.opset};
    cx.map = lookup(r, n);
    if (cx.map && ox_fold(&cx)) {
        r->g->folded++;
        return 0;
    }
    return convert_node(r, n);
}

/* Depth-first post-order over the producers of each node's inputs, roots
 * taken in model order: a model already in order stays in it.  A producer
 * met again while still on the stack closes a cycle. */
static int *topological_order(ox_reader *r)
{
    const ox_model *m = &r->m;
    int *order = BX_NEWN(&r->arena, int, m->nnodes + 1), norder = 0;
    char *state = BX_NEWN(&r->arena, char, m->nnodes + 1);  /* 0 new, 1 open, 2 done */
    int *stack = BX_NEWN(&r->arena, int, m->nnodes + 1);
    int *cursor = BX_NEWN(&r->arena, int, m->nnodes + 1);
    for (int root = 0; root < m->nnodes; root++) {
        if (state[root])
            continue;
        int sp = 0;
        stack[sp] = root;
        cursor[sp++] = 0;
        state[root] = 1;
        while (sp > 0) {
            const ox_node *n = &m->nodes[stack[sp - 1]];
            if (cursor[sp - 1] < n->ninputs + n->nimplicit) {
                const char *in = n->inputs[cursor[sp - 1]++];
                ox_value *v = in[0] ? value_get(r, in) : NULL;
                int p = v ? v->producer : -1;
                if (p < 0 || state[p] == 2)
                    continue;
                if (state[p] == 1) {
                    char desc[200];
                    reader_error(r, "%s is part of a cycle",
                                 node_desc(&m->nodes[p], desc, sizeof desc));
                    return NULL;
                }
                state[p] = 1;
                stack[sp] = p;
                cursor[sp++] = 0;
            } else {
                state[stack[sp - 1]] = 2;
                order[norder++] = stack[--sp];
            }
        }
    }
    return order;
}

static void declare(ox_reader *r, const ox_decl *d)
{
    ox_value *v = value_make(r, d->name);
    if (v->declared)
        return;
    v->declared = true;
    v->decl = d->type;
}

/* Tables of names: initializers and inputs become values, declarations
 * are attached, producers and users are checked. */
static int check_names(ox_reader *r)
{
    const ox_model *m = &r->m;
    for (int i = 0; i < m->ninits; i++) {
        const ox_init *in = &m->inits[i];
        if (!in->name[0]) {
            reader_error(r, "initializer %d has no name", i);
            return -1;
        }
        ox_value *v = value_make(r, in->name);
        if (v->is_const) {
            reader_error(r, "initializer '%s' is given twice", in->name);
            return -1;
        }
        v->is_const = true;
        v->type = in->type;
        v->data = in->data;
    }
    for (int i = 0; i < m->ninputs; i++) {
        const ox_decl *d = &m->inputs[i];
        ox_value *v = value_make(r, d->name);
        if (!d->name[0]) {
            reader_error(r, "graph input %d has no name", i);
            return -1;
        }
        if (v->is_const) {
            if (d->shape_given) {
                reader_error(r, "--input-shape %s: '%s' is an initializer, not an input",
                             d->name, d->name);
                return -1;
            }
            continue;   /* IR 3 lists initializers as inputs too: constants */
        }
        if (v->is_input) {
            reader_error(r, "graph input '%s' is given twice", d->name);
            return -1;
        }
        if (d->bad_dtype) {
            reader_error(r, "graph input '%s' has element type %s, which byoc does not support",
                         d->name, onnx_dtype_name(d->onnx_elem));
            return -1;
        }
        if (d->bad_rank) {
            reader_error(r, "graph input '%s' has more than %d axes", d->name, BYOC_MAX_RANK);
            return -1;
        }
        byoc_error e;
        int node = byoc_graph_add_input(r->g, d->name, &d->type, &e);
        if (node < 0) {
            reader_error(r, "graph input '%s': %s", d->name, e.msg);
            return -1;
        }
        v->is_input = true;
        v->node = node;
        declare(r, d);
    }
    for (int i = 0; i < m->ninfos; i++)
        if (m->infos[i].name[0])
            declare(r, &m->infos[i]);
    for (int i = 0; i < m->noutputs; i++)
        if (m->outputs[i].name[0])
            declare(r, &m->outputs[i]);
    char desc[200], other[200];
    for (int i = 0; i < m->nnodes; i++) {
        const ox_node *n = &m->nodes[i];
        for (int k = 0; k < n->noutputs; k++) {
            if (!n->outputs[k][0])
                continue;
            ox_value *v = value_make(r, n->outputs[k]);
            if (v->producer >= 0) {
                reader_error(r, "%s and %s both write '%s'",
                             node_desc(&m->nodes[v->producer], other, sizeof other),
                             node_desc(n, desc, sizeof desc), v->name);
                return -1;
            }
            if (v->is_input || v->is_const) {
                reader_error(r, "%s writes '%s', which is a graph %s",
                             node_desc(n, desc, sizeof desc), v->name,
                             v->is_input ? "input" : "initializer");
                return -1;
            }
            v->producer = i;
        }
    }
    for (int i = 0; i < m->nnodes; i++) {
        ox_node *n = &m->nodes[i];
        ox_value **in = BX_NEWN(&r->arena, ox_value *, n->ninputs + n->nimplicit + 1);
        ox_value **out = BX_NEWN(&r->arena, ox_value *, n->noutputs + 1);
        for (int k = 0; k < n->ninputs + n->nimplicit; k++) {
            if (!n->inputs[k][0])
                continue;
            ox_value *v = value_get(r, n->inputs[k]);
            if (!v || (!v->is_input && !v->is_const && v->producer < 0)) {
                reader_error(r, "%s: input '%s' is not written by any node and is not a graph "
                                "input or initializer",
                             node_desc(n, desc, sizeof desc), n->inputs[k]);
                return -1;
            }
            v->uses++;
            in[k] = v;
        }
        for (int k = 0; k < n->noutputs; k++)
            out[k] = n->outputs[k][0] ? value_get(r, n->outputs[k]) : NULL;
        n->in_cache = in;
        n->out_cache = out;
        n->cache_owner = r;
    }
    for (int i = 0; i < m->noutputs; i++) {
        ox_value *v = value_get(r, m->outputs[i].name);
        if (!m->outputs[i].name[0] || !v || (!v->is_input && !v->is_const && v->producer < 0)) {
            reader_error(r, "graph output '%s' is not written by any node and is not a graph "
                            "input or initializer",
                         m->outputs[i].name);
            return -1;
        }
        v->uses++;
    }
    return 0;
}

static bool dims_disagree(const byoc_tensor_type *a, const byoc_tensor_type *b)
{
    if (a->dtype != BYOC_DT_VOID && b->dtype != BYOC_DT_VOID && a->dtype != b->dtype)
        return true;
    if (a->rank < 0 || b->rank < 0)
        return false;
    if (a->rank != b->rank)
        return true;
    /* Unknown and symbolic sizes agree with anything: a symbol names a
     * size nobody knows, not a different one. */
    for (int k = 0; k < a->rank; k++)
        if (a->dims[k] >= 0 && b->dims[k] >= 0 && a->dims[k] != b->dims[k])
            return true;
    return false;
}

/* The same element type and, where both are known, element count: a
 * value held in another layout than declared (ox_define_relaid). */
static bool count_disagrees(const byoc_tensor_type *a, const byoc_tensor_type *b)
{
    if (a->dtype != BYOC_DT_VOID && b->dtype != BYOC_DT_VOID && a->dtype != b->dtype)
        return true;
    if (a->rank < 0 || b->rank < 0)
        return false;
    double na = 1, nb = 1;
    for (int k = 0; k < a->rank; k++)
        na = a->dims[k] >= 0 && na >= 0 ? na * (double)a->dims[k] : -1;
    for (int k = 0; k < b->rank; k++)
        nb = b->dims[k] >= 0 && nb >= 0 ? nb * (double)b->dims[k] : -1;
    return na >= 0 && nb >= 0 && na != nb;
}

/* Every declared type that inference contradicts leaves a note. */
static void compare_declarations(ox_reader *r)
{
    for (size_t i = 0; i < r->values.n; i++) {
        ox_value *v = r->values.entries[i].val;
        if (!v->declared || v->is_input || v->alias)
            continue;
        int node = v->node;
        if (node < 0 || byoc_node_is_opaque(r->g, node))
            continue;
        const byoc_tensor_type *t = byoc_node_type(r->g, node, -1);
        if (!t || t->rank < 0
            || !(v->relaid ? count_disagrees(&v->decl, t) : dims_disagree(&v->decl, t)))
            continue;
        char want[160], got[160];
        byoc_relay_format_type(r->g, &v->decl, want, sizeof want);
        byoc_relay_format_type(r->g, t, got, sizeof got);
        bx_graph_note(r->g, "'%s': the model declares %s, inference gives %s", v->name, want,
                      got);
    }
}

static int build_outputs(ox_reader *r)
{
    const ox_model *m = &r->m;
    ox_cx cx = {.r = r, .g = r->g, .opset = m->opset};
    ox_node none = {.index = -1, .name = "", .op_type = "output", .domain = ""};
    cx.node = &none;
    if (m->noutputs == 0) {
        reader_error(r, "the graph has no outputs");
        return -1;
    }
    int *nodes = BX_NEWN(&r->arena, int, m->noutputs);
    for (int i = 0; i < m->noutputs; i++)
        if ((nodes[i] = ox_node_of(&cx, value_get(r, m->outputs[i].name))) < 0)
            return -1;
    int out = m->noutputs == 1 ? nodes[0] : ox_tuple(&cx, nodes, m->noutputs);
    byoc_error e;
    if (out < 0 || byoc_graph_set_output(r->g, out, &e) < 0) {
        if (out >= 0)
            reader_error(r, "%s", e.msg);
        return -1;
    }
    return 0;
}

static int cmp_export(const void *a, const void *b)
{
    return strcmp(((const bx_onnx_value *)a)->name, ((const bx_onnx_value *)b)->name);
}

/* What the ONNX writers need to write the model's nodes back: each tensor
 * name's graph node or contents, in the graph's arena. */
static void export_values(ox_reader *r)
{
    byoc_graph *g = r->g;
    bx_onnx_source *src = BX_NEW(&g->arena, bx_onnx_source);
    memset(src, 0, sizeof *src);
    src->nnodes = r->m.nnodes;
    bx_onnx_value *vals = BX_NEWN(&g->arena, bx_onnx_value, r->values.n + 1);
    int n = 0;
    for (size_t k = 0; k < r->values.n; k++) {
        ox_value *v = r->values.entries[k].val;
        if (v->owner != r || v->name[0] == '\x1f')
            continue;
        ox_value *t = resolve(v);
        bx_onnx_value *o = &vals[n++];
        memset(o, 0, sizeof *o);
        o->name = bx_arena_strdup(&g->arena, v->name);
        o->node = t ? t->node : -1;
        o->producer = v->producer;
        o->is_init = v->is_const && v->producer < 0 && !v->is_input;
        o->type = unknown_type;
        o->dq_data = -1;
        if (t && t->node < 0 && t->lazy &&
            !ox_qdq_plain_dequantize(t->lazy, &o->dq_data, &o->dq_scale, &o->dq_zp, &o->dq_axis))
            o->dq_data = -1;
        const ox_tensor *d = t && t->is_const ? t->data : NULL;
        if (d && !d->sym && (d->i || d->f)) {
            o->type = t->type;
            o->n = d->n;
            if (d->i) {
                int64_t *iv = BX_NEWN(&g->arena, int64_t, d->n + 1);
                memcpy(iv, d->i, d->n * sizeof *iv);
                o->i = iv;
            } else {
                double *fv = BX_NEWN(&g->arena, double, d->n + 1);
                memcpy(fv, d->f, d->n * sizeof *fv);
                o->f = fv;
            }
        }
    }
    qsort(vals, (size_t)n, sizeof *vals, cmp_export);
    src->nvalues = n;
    src->values = vals;
    g->onnx = src;
}

/* Unused, but compiled and checked, in builds without protobuf-c. */
__attribute__((unused)) static int build(ox_reader *r)
{
    if (check_names(r) < 0)
        return -1;
    int *order = topological_order(r);
    if (!order)
        return -1;
    /* Each node's graph nodes are typed as soon as its converter is done,
     * once: a later converter reads its inputs' types from the graph. */
    byoc_error e;
    for (int i = 0; i < r->m.nnodes; i++) {
        int from = r->g->n;
        if (build_node(r, &r->m.nodes[order[i]]) < 0)
            return -1;
        if (bx_graph_infer_new(r->g, &e) < 0) {
            reader_error(r, "%s", e.msg);
            return -1;
        }
        if (check_results(r, &r->m.nodes[order[i]], from) < 0)
            return -1;
    }
    if (build_outputs(r) < 0)
        return -1;
    if (bx_graph_infer_new(r->g, &e) < 0) {
        reader_error(r, "%s", e.msg);
        return -1;
    }
    bx_graph_infer_notes(r->g);
    compare_declarations(r);
    export_values(r);
    return 0;
}

/* ---- subgraphs ------------------------------------------------------------------ */

/* A subgraph is read by a reader of its own, so that its names shadow the
 * enclosing graph's and go when it is done.  The enclosing values it
 * reads are entered first, as inputs of its scope: when its nodes join
 * the enclosing graph (an If whose condition is known), each is an alias
 * of the enclosing value, node, constant or pending transpose alike; when
 * it is a graph of its own, each is one of that graph's inputs, or a
 * constant with the same contents so that shape arithmetic still folds. */

ox_value *ox_implicit(ox_cx *cx, int k)
{
    const ox_node *n = cx->node;
    if (k < 0 || k >= n->nimplicit)
        return NULL;
    return value_get(cx->r, n->inputs[n->ninputs + k]);
}

int ox_graph_input_count(const ox_graph *sg) { return sg->m.ninputs; }
int ox_graph_output_count(const ox_graph *sg) { return sg->m.noutputs; }

byoc_tensor_type ox_graph_input_decl(const ox_graph *sg, int i)
{
    return i >= 0 && i < sg->m.ninputs ? sg->m.inputs[i].type : unknown_type;
}

byoc_tensor_type ox_graph_output_decl(const ox_graph *sg, int i)
{
    return i >= 0 && i < sg->m.noutputs ? sg->m.outputs[i].type : unknown_type;
}

byoc_tensor_type ox_type_fill(byoc_tensor_type decl, const byoc_tensor_type *known)
{
    if (decl.dtype == BYOC_DT_VOID)
        decl.dtype = known->dtype;
    if (decl.rank < 0) {
        decl.rank = known->rank;
        memcpy(decl.dims, known->dims, sizeof decl.dims);
    } else if (decl.rank == known->rank) {
        for (int k = 0; k < decl.rank; k++)
            if (decl.dims[k] == BYOC_DIM_UNKNOWN)
                decl.dims[k] = known->dims[k];
    }
    return decl;
}

static void scope_open(ox_cx *cx, ox_reader *c, byoc_graph *g, const char *attr,
                       const ox_graph *sg)
{
    ox_reader *r = cx->r;
    memset(c, 0, sizeof *c);
    c->g = g;
    c->file = r->file;
    c->err = r->err;
    bx_arena_init(&c->arena);
    bx_hash_init(&c->values);
    c->m = sg->m;
    c->m.opset = r->m.opset;
    scope_enter(c, &c->arena, r, cx->node, attr);
    c->depth = r->depth + 1;
    c->unrolled = r->unrolled ? r->unrolled : &r->unrolled_here;
}

static int scope_close(ox_reader *r, ox_reader *c, int rc)
{
    if (c->failed) {
        r->failed = true;
        r->recoverable = c->recoverable;
    }
    else if (rc < 0)
        reader_error(r, "cannot read a subgraph");
    bx_hash_free(&c->values);
    bx_hash_free(&c->ops);
    bx_arena_free(&c->arena);
    return rc;
}

/* Enter the enclosing values sg reads; `alias`: as aliases (the nodes
 * join the enclosing graph), else as constants or not yet made inputs. */
static void scope_enter_free(ox_cx *cx, ox_reader *c, const ox_graph *sg, bool alias)
{
    for (int i = 0; i < sg->nfree; i++) {
        ox_value *pv = value_get(cx->r, sg->free[i]);
        ox_value *cv = value_make(c, sg->free[i]);
        ox_value *rv = resolve(pv);
        if (alias) {
            cv->is_input = true;
            cv->alias = pv;
        } else if (rv && rv->is_const) {
            cv->is_const = true;
            cv->type = rv->type;
            cv->data = rv->data;
        } else {
            cv->is_input = true;
            cv->declared = true;
            cv->decl = ox_type(cx, pv);
            /* A shape known in part stays known inside. */
            cv->data = rv && rv->partial ? rv->data : NULL;
        }
    }
}

/* Build the scope's nodes in `order` (topological_order's; NULL when it
 * failed), each typed when built. */
static int scope_build_nodes(ox_reader *c, const int *order)
{
    if (!order)
        return -1;
    byoc_error e;
    for (int i = 0; i < c->m.nnodes; i++) {
        int from = c->g->n;
        if (build_node(c, &c->m.nodes[order[i]]) < 0)
            return -1;
        if (bx_graph_infer_new(c->g, &e) < 0) {
            reader_error(c, "%s", e.msg);
            return -1;
        }
        if (check_results(c, &c->m.nodes[order[i]], from) < 0)
            return -1;
    }
    return 0;
}

/* A copy of t in r's arena, for a constant that outlives its scope. */
static const ox_tensor *tensor_copy(ox_reader *r, const ox_tensor *t)
{
    if (!t)
        return NULL;
    ox_tensor *c = BX_NEW(&r->arena, ox_tensor);
    *c = *t;
    if (t->sym)
        c->sym = bx_arena_memdup(&r->arena, t->sym, t->n ? t->n : 1);
    if (t->i)
        c->i = bx_arena_memdup(&r->arena, t->i, sizeof(int64_t) * (t->n ? t->n : 1));
    if (t->f)
        c->f = bx_arena_memdup(&r->arena, t->f, sizeof(double) * (t->n ? t->n : 1));
    return c;
}

int ox_graph_inline(ox_cx *cx, const char *attr, const ox_graph *sg)
{
    ox_reader c;
    scope_open(cx, &c, cx->g, attr, sg);
    if (sg->m.ninputs > 0) {
        reader_error(&c, "has %d inputs; a branch taken in place takes none", sg->m.ninputs);
        return scope_close(cx->r, &c, -1);
    }
    scope_enter_free(cx, &c, sg, true);
    if (check_names(&c) < 0 || scope_build_nodes(&c, topological_order(&c)) < 0)
        return scope_close(cx->r, &c, -1);
    compare_declarations(&c);
    ox_cx ccx = {.r = &c, .g = c.g, .node = cx->node, .opset = c.m.opset};
    for (int i = 0; i < sg->m.noutputs && i < cx->node->noutputs; i++) {
        ox_value *bv = resolve(value_get(&c, sg->m.outputs[i].name));
        if (value_get(&c, bv->name) != bv) {
            ox_alias(cx, i, bv);    /* an enclosing value: it outlives the scope */
        } else if (bv->is_const) {
            ox_define_const(cx, i, &bv->type, tensor_copy(cx->r, bv->data));
        } else {
            int node = ox_node_of(&ccx, bv);
            if (node < 0)
                return scope_close(cx->r, &c, -1);
            ox_define(cx, i, node);
        }
    }
    return scope_close(cx->r, &c, 0);
}

byoc_graph *ox_graph_build(ox_cx *cx, const char *attr, const ox_graph *sg,
                           const byoc_tensor_type *formals, int nformals)
{
    byoc_graph *g = byoc_graph_create(byoc_graph_registry(cx->g));
    byoc_graph_set_source(g, cx->r->file);
    /* The same symbols, with the same ids, as the types it is given. */
    for (int i = 0; i < byoc_graph_symbol_count(cx->g); i++)
        byoc_graph_symbol(g, byoc_graph_symbol_name(cx->g, i));
    ox_reader c;
    scope_open(cx, &c, g, attr, sg);
    ox_decl *inputs = BX_NEWN(&c.arena, ox_decl, sg->m.ninputs + 1);
    for (int i = 0; i < sg->m.ninputs; i++) {
        inputs[i] = sg->m.inputs[i];
        if (i < nformals)
            inputs[i].type = ox_type_fill(inputs[i].type, &formals[i]);
    }
    c.m.inputs = inputs;
    scope_enter_free(cx, &c, sg, false);
    int rc = check_names(&c);
    /* The enclosing values come after the formal inputs. */
    for (int i = 0; rc == 0 && i < sg->nfree; i++) {
        ox_value *v = value_get(&c, sg->free[i]);
        if (v->is_const)
            continue;
        byoc_error e;
        if ((v->node = byoc_graph_add_input(g, v->name, &v->decl, &e)) < 0) {
            reader_error(&c, "'%s': %s", v->name, e.msg);
            rc = -1;
        }
    }
    /* A cycle is the branch's structure, not its shapes. */
    const int *order = rc == 0 ? topological_order(&c) : NULL;
    if (!order)
        rc = -1;
    byoc_error e;
    if (rc == 0) {
        rc = scope_build_nodes(&c, order);
        if (rc == 0)
            rc = build_outputs(&c);
        if (rc == 0 && bx_graph_infer_new(g, &e) < 0) {
            reader_error(&c, "%s", e.msg);
            rc = -1;
        }
        /* The structure was sound; the nodes, with these shapes, were not. */
        c.recoverable = rc < 0;
    }
    if (rc == 0) {
        bx_graph_infer_notes(g);
        compare_declarations(&c);
    }
    if (scope_close(cx->r, &c, rc) < 0) {
        byoc_graph_destroy(g);
        return NULL;
    }
    return g;
}

/* ---- decoding the protobuf ---------------------------------------------------- */

#ifdef HAVE_ONNX

#define S(x) ((x) ? (x) : "")

/* Little-endian unsigned integer of `bytes` bytes. */
static uint64_t le(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
    for (int k = bytes - 1; k >= 0; k--)
        v = v << 8 | p[k];
    return v;
}

static double half_to_double(uint16_t h)
{
    int e = (h >> 10) & 0x1f, f = h & 0x3ff;
    double v = e == 0 ? ldexp(f, -24) : e == 31 ? (f ? NAN : INFINITY) : ldexp(f + 1024, e - 25);
    return h & 0x8000 ? -v : v;
}

static double bits_to_float(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static double bits_to_double(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* One element of raw_data as the tensor's dtype says. */
static void raw_element(byoc_dtype dt, const uint8_t *p, int64_t *iv, double *fv)
{
    switch (dt) {
    case BYOC_DT_FLOAT32: *fv = bits_to_float((uint32_t)le(p, 4)); break;
    case BYOC_DT_FLOAT64: *fv = bits_to_double(le(p, 8)); break;
    case BYOC_DT_FLOAT16: *fv = half_to_double((uint16_t)le(p, 2)); break;
    case BYOC_DT_BFLOAT16: *fv = bits_to_float((uint32_t)le(p, 2) << 16); break;
    case BYOC_DT_BOOL: *iv = p[0] != 0; break;
    case BYOC_DT_INT8: *iv = (int8_t)p[0]; break;
    case BYOC_DT_UINT8: *iv = p[0]; break;
    case BYOC_DT_INT16: *iv = (int16_t)le(p, 2); break;
    case BYOC_DT_UINT16: *iv = (uint16_t)le(p, 2); break;
    case BYOC_DT_INT32: *iv = (int32_t)le(p, 4); break;
    case BYOC_DT_UINT32: *iv = (uint32_t)le(p, 4); break;
    default: *iv = (int64_t)le(p, 8); break;
    }
}

static int elem_bytes(byoc_dtype dt)
{
    return dt == BYOC_DT_BOOL ? 1 : byoc_dtype_bits(dt) / 8;
}

/* A TensorProto's dims: each 0 or more, their product at most INT64_MAX.
 * -1 with the error set otherwise. */
static int check_dims(ox_reader *r, const int64_t *dims, size_t n, const char *what)
{
    for (size_t k = 0; k < n; k++)
        if (dims[k] < 0) {
            reader_error(r, "%s has a negative dimension (%lld)", what, (long long)dims[k]);
            return -1;
        }
    bool zero = false, overflow = false;
    int64_t count = 1;
    for (size_t k = 0; k < n; k++) {
        zero = zero || dims[k] == 0;
        overflow = overflow || __builtin_mul_overflow(count, dims[k], &count);
    }
    if (overflow && !zero) {
        reader_error(r, "%s has more than 2^63 - 1 elements", what);
        return -1;
    }
    return 0;
}

/* Sparse tensors are read by no mapped op (a node that names a sparse
 * initializer finds no value), but their shapes are checked as dense
 * ones are: the dense shape, and the values' and the indices'. */
static int check_sparse(ox_reader *r, const Onnx__SparseTensorProto *sp, const char *what)
{
    if (check_dims(r, sp->dims, sp->n_dims, what) < 0)
        return -1;
    const Onnx__TensorProto *parts[2] = {sp->values, sp->indices};
    static const char *const names[2] = {"values", "indices"};
    for (int k = 0; k < 2; k++) {
        if (!parts[k])
            continue;
        char part[360];
        snprintf(part, sizeof part, "%s: its %s", what, names[k]);
        if (check_dims(r, parts[k]->dims, parts[k]->n_dims, part) < 0)
            return -1;
    }
    return 0;
}

static int check_sparse_inits(ox_reader *r, const Onnx__GraphProto *gp)
{
    for (size_t k = 0; k < gp->n_sparse_initializer; k++) {
        const Onnx__SparseTensorProto *sp = gp->sparse_initializer[k];
        char what[300];
        snprintf(what, sizeof what, "sparse initializer '%s'",
                 sp->values && sp->values->name ? sp->values->name : "");
        if (check_sparse(r, sp, what) < 0)
            return -1;
    }
    return 0;
}

/* A TensorProto's type and, when the model carries it and it is small,
 * its contents (*out NULL otherwise).  `what` names it for messages. */
static int decode_tensor(ox_reader *r, const Onnx__TensorProto *t, const char *what,
                         byoc_tensor_type *type, const ox_tensor **out)
{
    *out = NULL;
    int dt = ox_dtype(t->has_data_type ? t->data_type : 0);
    if (dt < 0) {
        reader_error(r, "%s has element type %s, which byoc does not support", what,
                     onnx_dtype_name(t->has_data_type ? t->data_type : 0));
        return -1;
    }
    if (t->n_dims > BYOC_MAX_RANK) {
        reader_error(r, "%s has %zu axes; byoc takes at most %d", what, t->n_dims,
                     BYOC_MAX_RANK);
        return -1;
    }
    *type = unknown_type;
    type->dtype = (byoc_dtype)dt;
    type->rank = (int)t->n_dims;
    if (check_dims(r, t->dims, t->n_dims, what) < 0)
        return -1;
    uint64_t numel = 1;
    for (size_t k = 0; k < t->n_dims; k++) {
        type->dims[k] = t->dims[k];
        numel *= (uint64_t)t->dims[k];
    }
    if (t->has_data_location && t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL)
        return 0;
    size_t typed_n = 0;
    const char *field = NULL;
    switch (dt) {
    case BYOC_DT_FLOAT32: typed_n = t->n_float_data; field = "float_data"; break;
    case BYOC_DT_FLOAT64: typed_n = t->n_double_data; field = "double_data"; break;
    case BYOC_DT_INT64: typed_n = t->n_int64_data; field = "int64_data"; break;
    case BYOC_DT_UINT32:
    case BYOC_DT_UINT64: typed_n = t->n_uint64_data; field = "uint64_data"; break;
    default: typed_n = t->n_int32_data; field = "int32_data"; break;
    }
    size_t esize = (size_t)elem_bytes((byoc_dtype)dt);
    if (t->has_raw_data) {
        if (numel > SIZE_MAX / esize || t->raw_data.len != numel * esize) {
            reader_error(r, "%s: raw_data holds %zu bytes, but %llu element%s of %s need%s %llu",
                         what, t->raw_data.len, (unsigned long long)numel,
                         numel == 1 ? "" : "s", byoc_dtype_name((byoc_dtype)dt),
                         numel == 1 ? "s" : "", (unsigned long long)(numel * esize));
            return -1;
        }
    } else if (typed_n == 0) {
        return 0;   /* no data: only the type is known, which is all byoc needs */
    } else if (typed_n != numel) {
        reader_error(r, "%s: %s holds %zu elements, but its dims give %llu", what, field, typed_n,
                     (unsigned long long)numel);
        return -1;
    }
    if (numel > OX_DATA_MAX)
        return 0;
    ox_tensor *c = BX_NEW(&r->arena, ox_tensor);
    c->type = *type;
    c->n = (size_t)numel;
    bool is_float = byoc_dtype_class((byoc_dtype)dt) == 'f';
    int64_t *iv = is_float ? NULL : BX_NEWN(&r->arena, int64_t, numel + 1);
    double *fv = is_float ? BX_NEWN(&r->arena, double, numel + 1) : NULL;
    for (size_t k = 0; k < c->n; k++) {
        int64_t i = 0;
        double f = 0;
        if (t->has_raw_data) {
            raw_element((byoc_dtype)dt, t->raw_data.data + k * esize, &i, &f);
        } else {
            switch (dt) {
            case BYOC_DT_FLOAT32: f = t->float_data[k]; break;
            case BYOC_DT_FLOAT64: f = t->double_data[k]; break;
            case BYOC_DT_INT64: i = t->int64_data[k]; break;
            case BYOC_DT_UINT32:
            case BYOC_DT_UINT64: i = (int64_t)t->uint64_data[k]; break;
            /* float16 and bfloat16 keep their bits in int32_data. */
            case BYOC_DT_FLOAT16: f = half_to_double((uint16_t)t->int32_data[k]); break;
            case BYOC_DT_BFLOAT16:
                f = bits_to_float((uint32_t)(uint16_t)t->int32_data[k] << 16);
                break;
            default: i = t->int32_data[k]; break;
            }
        }
        if (is_float)
            fv[k] = f;
        else
            iv[k] = i;
    }
    c->i = iv;
    c->f = fv;
    *out = c;
    return 0;
}

/* keep_symbols: named dimensions stay symbols even when bound (graph
 * inputs, which bx_graph_input_type resolves).  `kind` names the
 * declaration for messages ("graph input").  A size below 0 is an error,
 * as in onnx.checker and ONNX Runtime, not an unknown size. */
static int decode_value_info(ox_reader *r, const Onnx__ValueInfoProto *vi, ox_decl *d,
                             bool keep_symbols, const char *kind)
{
    memset(d, 0, sizeof *d);
    d->name = bx_arena_strdup(&r->arena, S(vi->name));
    d->type = unknown_type;
    const Onnx__TypeProto *tp = vi->type;
    if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type)
        return 0;
    const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
    d->onnx_elem = tt->has_elem_type ? tt->elem_type : 0;
    int dt = ox_dtype(d->onnx_elem);
    d->bad_dtype = d->onnx_elem != 0 && dt < 0;
    d->type.dtype = dt < 0 ? BYOC_DT_VOID : (byoc_dtype)dt;
    if (!tt->shape)
        return 0;
    for (size_t k = 0; k < tt->shape->n_dim; k++) {
        const Onnx__TensorShapeProto__Dimension *dim = tt->shape->dim[k];
        if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE
            && dim->dim_value < 0) {
            reader_error(r, "%s '%s' has size %lld at axis %zu; a size is 0 or more", kind,
                         d->name, (long long)dim->dim_value, k);
            return -1;
        }
    }
    if (tt->shape->n_dim > BYOC_MAX_RANK) {
        d->bad_rank = true;
        return 0;
    }
    d->type.rank = (int)tt->shape->n_dim;
    for (size_t k = 0; k < tt->shape->n_dim; k++) {
        const Onnx__TensorShapeProto__Dimension *dim = tt->shape->dim[k];
        int64_t size = BYOC_DIM_UNKNOWN;
        if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE)
            size = dim->dim_value;
        else if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM
                 && dim->dim_param && dim->dim_param[0])
            size = keep_symbols ? BYOC_DIM_SYMBOL(bx_graph_symbol_seen(r->g, dim->dim_param))
                                : bx_graph_dim(r->g, dim->dim_param);
        d->type.dims[k] = size;
    }
    if (!ox_count_fits(d->type.dims, d->type.rank)) {
        reader_error(r, "%s '%s' has more than 2^63 - 1 elements", kind, d->name);
        return -1;
    }
    return 0;
}

/* A protobuf bytes field as a string; an empty one has no data pointer. */
static const char *bytes_str(ox_reader *r, const ProtobufCBinaryData *b)
{
    return b->data ? bx_arena_strndup(&r->arena, (const char *)b->data, b->len) : "";
}

/* Old models (IR < 3 writers) leave AttributeProto.type unset; the field
 * that is present says it, as in TVM's _parse_attr. */
static int attr_type_of(const Onnx__AttributeProto *a)
{
    if (a->has_type && a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED)
        return (int)a->type;
    if (a->has_f) return OX_AT_FLOAT;
    if (a->has_i) return OX_AT_INT;
    if (a->has_s) return OX_AT_STRING;
    if (a->t) return OX_AT_TENSOR;
    if (a->g) return OX_AT_GRAPH;
    if (a->n_floats) return OX_AT_FLOATS;
    if (a->n_ints) return OX_AT_INTS;
    if (a->n_strings) return OX_AT_STRINGS;
    if (a->n_tensors) return OX_AT_TENSORS;
    if (a->n_graphs) return OX_AT_GRAPHS;
    return OX_AT_UNDEFINED;
}

/* ---- graph attributes ---- */

static int decode_node(ox_reader *r, const Onnx__NodeProto *p, int index, ox_node *n);

/* The names a subgraph reads but does not define: what its nodes (and
 * their own subgraphs) read, and its outputs, less its inputs,
 * initializers and node outputs.  Each once, in the order first read. */
static void free_names(ox_reader *r, ox_graph *sg)
{
    const ox_model *m = &sg->m;
    bx_hash defined, seen;
    bx_hash_init(&defined);
    bx_hash_init(&seen);
    for (int i = 0; i < m->ninputs; i++)
        bx_hash_put(&defined, m->inputs[i].name, &defined);
    for (int i = 0; i < m->ninits; i++)
        bx_hash_put(&defined, m->inits[i].name, &defined);
    size_t cap = (size_t)m->noutputs;
    for (int i = 0; i < m->nnodes; i++) {
        for (int k = 0; k < m->nodes[i].noutputs; k++)
            bx_hash_put(&defined, m->nodes[i].outputs[k], &defined);
        cap += (size_t)(m->nodes[i].ninputs + m->nodes[i].nimplicit);
    }
    const char **fr = BX_NEWN(&r->arena, const char *, cap + 1);
    int n = 0;
    for (int i = 0; i <= m->nnodes; i++) {
        const ox_node *node = i < m->nnodes ? &m->nodes[i] : NULL;
        int count = node ? node->ninputs + node->nimplicit : m->noutputs;
        for (int k = 0; k < count; k++) {
            const char *name = node ? node->inputs[k] : m->outputs[k].name;
            if (!name[0] || bx_hash_get(&defined, name) || bx_hash_get(&seen, name))
                continue;
            bx_hash_put(&seen, name, &seen);
            fr[n++] = name;
        }
    }
    bx_hash_free(&defined);
    bx_hash_free(&seen);
    sg->free = fr;
    sg->nfree = n;
}

/* The names n's subgraphs read from the graph around them are n's
 * implicit inputs, after its own: each once, in the order first read. */
static int attach_implicit(ox_reader *r, ox_node *n)
{
    size_t total = 0;
    for (int k = 0; k < n->nattrs; k++) {
        const ox_attr *a = &n->attrs[k];
        if (a->type == OX_AT_GRAPH && a->g)
            total += (size_t)a->g->nfree;
        for (size_t j = 0; a->type == OX_AT_GRAPHS && j < a->n; j++)
            total += (size_t)a->graphs[j]->nfree;
    }
    if (!total)
        return 0;
    const char **in = BX_NEWN(&r->arena, const char *, (size_t)n->ninputs + total + 1);
    if (n->ninputs)
        memcpy(in, n->inputs, sizeof(*in) * (size_t)n->ninputs);
    int m = n->ninputs;
    bx_hash seen;
    bx_hash_init(&seen);
    for (int k = 0; k < n->nattrs; k++) {
        const ox_attr *a = &n->attrs[k];
        size_t count = a->type == OX_AT_GRAPH && a->g ? 1 : a->type == OX_AT_GRAPHS ? a->n : 0;
        for (size_t j = 0; j < count; j++) {
            const ox_graph *sg = a->type == OX_AT_GRAPH ? a->g : a->graphs[j];
            for (int f = 0; f < sg->nfree; f++)
                if (!bx_hash_get(&seen, sg->free[f])) {
                    bx_hash_put(&seen, sg->free[f], &seen);
                    in[m++] = sg->free[f];
                }
        }
    }
    bx_hash_free(&seen);
    n->inputs = in;
    n->nimplicit = m - n->ninputs;
    return 0;
}

/* A GraphProto's nodes, declarations and initializers, as decode reads
 * the main graph's. */
static int decode_graph(ox_reader *r, const Onnx__GraphProto *gp, ox_model *m)
{
    memset(m, 0, sizeof *m);
    m->opset = r->m.opset;
    m->nodes = BX_NEWN(&r->arena, ox_node, gp->n_node + 1);
    for (size_t k = 0; k < gp->n_node; k++, m->nnodes++)
        if (decode_node(r, gp->node[k], (int)k, &m->nodes[k]) < 0)
            return -1;
    m->inputs = BX_NEWN(&r->arena, ox_decl, gp->n_input + 1);
    for (size_t k = 0; k < gp->n_input; k++, m->ninputs++)
        if (decode_value_info(r, gp->input[k], &m->inputs[k], false, "graph input") < 0)
            return -1;
    m->outputs = BX_NEWN(&r->arena, ox_decl, gp->n_output + 1);
    for (size_t k = 0; k < gp->n_output; k++, m->noutputs++)
        if (decode_value_info(r, gp->output[k], &m->outputs[k], false, "graph output") < 0)
            return -1;
    m->infos = BX_NEWN(&r->arena, ox_decl, gp->n_value_info + 1);
    for (size_t k = 0; k < gp->n_value_info; k++, m->ninfos++)
        if (decode_value_info(r, gp->value_info[k], &m->infos[k], false, "value_info") < 0)
            return -1;
    m->inits = BX_NEWN(&r->arena, ox_init, gp->n_initializer + 1);
    for (size_t k = 0; k < gp->n_initializer; k++, m->ninits++) {
        ox_init *in = &m->inits[k];
        in->name = bx_arena_strdup(&r->arena, S(gp->initializer[k]->name));
        char what[300];
        snprintf(what, sizeof what, "initializer '%s'", in->name);
        if (decode_tensor(r, gp->initializer[k], what, &in->type, &in->data) < 0)
            return -1;
    }
    return check_sparse_inits(r, gp);
}

/* Attribute `attr` of n, a graph.  Decoding recurses into subgraphs, at
 * most BYOC_MAX_GRAPH_DEPTH deep (the main graph at depth 1); messages
 * from inside name the path to it. */
static int decode_subgraph(ox_reader *r, const ox_node *n, const char *attr,
                           const Onnx__GraphProto *gp, const ox_graph **out)
{
    char desc[200];
    node_desc(n, desc, sizeof desc);
    if (!gp) {
        reader_error(r, "%s: attribute '%s' is a graph but holds none", desc, attr);
        return -1;
    }
    if (r->depth + 2 > BYOC_MAX_GRAPH_DEPTH) {
        reader_error(r, "%s: attribute '%s': subgraphs nest more than %d deep", desc, attr,
                     BYOC_MAX_GRAPH_DEPTH);
        return -1;
    }
    ox_graph *sg = BX_NEW(&r->arena, ox_graph);
    const char *scope = r->scope, *head = r->scope_head, *last = r->scope_last;
    scope_enter(r, &r->arena, r, n, attr);
    r->depth++;
    int rc = decode_graph(r, gp, &sg->m);
    r->depth--;
    r->scope = scope;
    r->scope_head = head;
    r->scope_last = last;
    if (rc < 0)
        return -1;
    free_names(r, sg);
    *out = sg;
    return 0;
}

static int decode_attr(ox_reader *r, const ox_node *n, const Onnx__AttributeProto *a,
                       ox_attr *x)
{
    memset(x, 0, sizeof *x);
    x->name = bx_arena_strdup(&r->arena, S(a->name));
    x->type = attr_type_of(a);
    switch (x->type) {
    case OX_AT_FLOAT: x->f = a->f; break;
    case OX_AT_INT: x->i = a->i; break;
    case OX_AT_STRING:
        x->s = bytes_str(r, &a->s);
        break;
    case OX_AT_FLOATS: {
        double *f = BX_NEWN(&r->arena, double, a->n_floats + 1);
        for (size_t k = 0; k < a->n_floats; k++)
            f[k] = a->floats[k];
        x->floats = f;
        x->n = a->n_floats;
        break;
    }
    case OX_AT_INTS:
        x->ints = BX_NEWN(&r->arena, int64_t, a->n_ints + 1);
        if (a->n_ints)
            memcpy((int64_t *)x->ints, a->ints, sizeof(int64_t) * a->n_ints);
        x->n = a->n_ints;
        break;
    case OX_AT_STRINGS: {
        const char **s = BX_NEWN(&r->arena, const char *, a->n_strings + 1);
        for (size_t k = 0; k < a->n_strings; k++)
            s[k] = bytes_str(r, &a->strings[k]);
        x->strings = s;
        x->n = a->n_strings;
        break;
    }
    case OX_AT_GRAPH:
        return decode_subgraph(r, n, x->name, a->g, &x->g);
    case OX_AT_GRAPHS: {
        const ox_graph **gs = BX_NEWN(&r->arena, const ox_graph *, a->n_graphs + 1);
        for (size_t k = 0; k < a->n_graphs; k++) {
            const char *what = bx_arena_printf(&r->arena, "%.64s[%zu]", x->name, k);
            if (decode_subgraph(r, n, what, a->graphs[k], &gs[k]) < 0)
                return -1;
        }
        x->graphs = gs;
        x->n = a->n_graphs;
        break;
    }
    case OX_AT_TENSOR: {
        char what[300], desc[200];
        if (!a->t) {
            reader_error(r, "%s: attribute '%s' is a tensor but holds none",
                         node_desc(n, desc, sizeof desc), x->name);
            return -1;
        }
        snprintf(what, sizeof what, "%s: the tensor of attribute '%s'",
                 node_desc(n, desc, sizeof desc), x->name);
        if (decode_tensor(r, a->t, what, &x->ttype, &x->t) < 0)
            return -1;
        break;
    }
    case OX_AT_TENSORS:
        /* No mapped op reads them; their shapes are checked all the same. */
        for (size_t k = 0; k < a->n_tensors; k++) {
            char what[300], desc[200];
            snprintf(what, sizeof what, "%s: tensor %zu of attribute '%s'",
                     node_desc(n, desc, sizeof desc), k, x->name);
            if (check_dims(r, a->tensors[k]->dims, a->tensors[k]->n_dims, what) < 0)
                return -1;
        }
        break;
    case OX_AT_SPARSE_TENSOR:
    case OX_AT_SPARSE_TENSORS: {
        /* No mapped op reads them; their shapes are checked all the same. */
        size_t count = x->type == OX_AT_SPARSE_TENSOR ? 1 : a->n_sparse_tensors;
        for (size_t k = 0; k < count; k++) {
            const Onnx__SparseTensorProto *sp =
                x->type == OX_AT_SPARSE_TENSOR ? a->sparse_tensor : a->sparse_tensors[k];
            char what[300], desc[200];
            snprintf(what, sizeof what, "%s: the sparse tensor of attribute '%s'",
                     node_desc(n, desc, sizeof desc), x->name);
            if (sp && check_sparse(r, sp, what) < 0)
                return -1;
        }
        break;
    }
    default:
        break;   /* types: no mapped op reads them */
    }
    return 0;
}

static int decode_node(ox_reader *r, const Onnx__NodeProto *p, int index, ox_node *n)
{
    memset(n, 0, sizeof *n);
    n->index = index;
    n->name = bx_arena_strdup(&r->arena, S(p->name));
    n->op_type = bx_arena_strdup(&r->arena, S(p->op_type));
    n->domain = bx_arena_strdup(&r->arena, S(p->domain));
    if (!n->op_type[0]) {
        reader_error(r, "node %d has no op_type", index);
        return -1;
    }
    const char **in = BX_NEWN(&r->arena, const char *, p->n_input + 1);
    const char **out = BX_NEWN(&r->arena, const char *, p->n_output + 1);
    for (size_t k = 0; k < p->n_input; k++)
        in[k] = bx_arena_strdup(&r->arena, S(p->input[k]));
    for (size_t k = 0; k < p->n_output; k++)
        out[k] = bx_arena_strdup(&r->arena, S(p->output[k]));
    n->inputs = in;
    n->outputs = out;
    n->ninputs = (int)p->n_input;
    n->noutputs = (int)p->n_output;
    ox_attr *attrs = BX_NEWN(&r->arena, ox_attr, p->n_attribute + 1);
    n->attrs = attrs;
    for (size_t k = 0; k < p->n_attribute; k++) {
        if (decode_attr(r, n, p->attribute[k], &attrs[k]) < 0)
            return -1;
        n->nattrs++;
    }
    return attach_implicit(r, n);
}

/* ---- nesting of the protobuf ---- */

/* protobuf-c unpacks nested messages by recursion, without a limit, so a
 * small file of subgraphs (or sequence types) nested thousands deep would
 * overflow the stack before the reader sees it.  The bytes are scanned
 * first, with an explicit stack, descending only into the fields through
 * which ONNX messages can contain themselves; past OX_PB_DEPTH_MAX
 * messages the model is refused.  A subgraph costs three levels (graph,
 * node, attribute), so the limit leaves BYOC_MAX_GRAPH_DEPTH to the
 * decoder, whose message names the node.  Anything malformed is left to
 * protobuf-c to refuse. */
enum { OX_PB_DEPTH_MAX = 4 * BYOC_MAX_GRAPH_DEPTH + 32 };

enum { PB_SKIP, PB_MODEL, PB_GRAPH, PB_NODE, PB_ATTR, PB_VALUE_INFO, PB_TYPE, PB_TYPE_ELEM,
       PB_TYPE_MAP, PB_FUNCTION, PB_TRAINING };

/* The message a field of message `msg` holds, where it can lead back. */
static int pb_field_message(int msg, uint64_t field)
{
    switch (msg) {
    case PB_MODEL: return field == 7 ? PB_GRAPH : field == 20 ? PB_TRAINING
                        : field == 25 ? PB_FUNCTION : PB_SKIP;
    case PB_TRAINING: return field == 1 || field == 2 ? PB_GRAPH : PB_SKIP;
    case PB_GRAPH: return field == 1 ? PB_NODE : field >= 11 && field <= 13 ? PB_VALUE_INFO
                        : PB_SKIP;
    case PB_NODE: return field == 5 ? PB_ATTR : PB_SKIP;
    case PB_ATTR: return field == 6 || field == 11 ? PB_GRAPH : field == 14 || field == 15
                        ? PB_TYPE : PB_SKIP;
    case PB_VALUE_INFO: return field == 2 ? PB_TYPE : PB_SKIP;
    case PB_TYPE: return field == 4 || field == 9 ? PB_TYPE_ELEM : field == 5 ? PB_TYPE_MAP
                        : PB_SKIP;
    case PB_TYPE_ELEM: return field == 1 ? PB_TYPE : PB_SKIP;
    case PB_TYPE_MAP: return field == 2 ? PB_TYPE : PB_SKIP;
    case PB_FUNCTION: return field == 7 ? PB_NODE : field == 11 ? PB_ATTR
                        : field == 12 ? PB_VALUE_INFO : PB_SKIP;
    default: return PB_SKIP;
    }
}

/* A varint at *p (before end); false when malformed. */
static bool pb_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 64 && *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return true;
    }
    return false;
}

/* True when the messages nest past OX_PB_DEPTH_MAX (the error set). */
static bool pb_too_deep(ox_reader *r, const uint8_t *data, size_t size)
{
    const uint8_t *ends[OX_PB_DEPTH_MAX + 1];
    int kinds[OX_PB_DEPTH_MAX + 1], sp = 0;
    const uint8_t *p = data, *end = data + size;
    ends[0] = end;
    kinds[0] = PB_MODEL;
    for (;;) {
        while (sp > 0 && p >= ends[sp])
            sp--;
        if (p >= end)
            return false;
        uint64_t tag, len;
        if (!pb_varint(&p, ends[sp], &tag))
            return false;
        switch (tag & 7) {
        case 0:
            if (!pb_varint(&p, ends[sp], &len))
                return false;
            break;
        case 1:
        case 5: {
            size_t n = (tag & 7) == 1 ? 8 : 4;
            if ((size_t)(ends[sp] - p) < n)
                return false;
            p += n;
            break;
        }
        case 2: {
            if (!pb_varint(&p, ends[sp], &len) || len > (uint64_t)(ends[sp] - p))
                return false;
            int kind = pb_field_message(kinds[sp], tag >> 3);
            if (kind == PB_SKIP) {
                p += len;
                break;
            }
            if (sp == OX_PB_DEPTH_MAX) {
                reader_error(r, "the model's messages nest more than %d deep (subgraphs or "
                                "types nested far past what byoc reads)",
                             OX_PB_DEPTH_MAX);
                return true;
            }
            sp++;
            ends[sp] = p + len;
            kinds[sp] = kind;
            break;
        }
        default:
            return false;   /* groups, or garbage: protobuf-c's to refuse */
        }
    }
}

/* protobuf-c's allocations, which the bytes size (a repeated field of a
 * million entries is a million pointers): running out of memory there is
 * "out of memory" through the entry point's guard, not a model protobuf-c
 * calls malformed. */
static void *pb_alloc(void *data, size_t size)
{
    (void)data;
    void *p = malloc(size ? size : 1);
    if (!p)
        bx_oom();
    return p;
}

static void pb_free(void *data, void *p)
{
    (void)data;
    free(p);
}

static int decode(ox_reader *r, const void *data, size_t size)
{
    if (pb_too_deep(r, data, size))
        return -1;
    ProtobufCAllocator pb_allocator = {pb_alloc, pb_free, NULL};
    Onnx__ModelProto *mp = onnx__model_proto__unpack(&pb_allocator, size, data);
    if (!mp) {
        reader_error(r, "not an ONNX model: the protobuf data is truncated or malformed");
        return -1;
    }
    int rc = -1;
    ox_model *m = &r->m;
    const Onnx__GraphProto *gp = mp->graph;
    if (!gp) {
        reader_error(r, "the model has no graph");
        goto done;
    }
    /* As TVM: without an opset for the default domain, opset 1.  A version
     * past the newest byoc knows reads as the newest; one below 1, or too
     * large for the int that ONNX's own schema registry holds it in, is
     * no version at all. */
    m->opset = 1;
    for (size_t k = 0; k < mp->n_opset_import; k++) {
        const char *d = S(mp->opset_import[k]->domain);
        int64_t v = mp->opset_import[k]->version;
        if (v < 1 || v > INT32_MAX) {
            reader_error(r, "opset_import: %s%s%s has version %lld; a version is 1 to %ld",
                         d[0] ? "domain '" : "the default domain", d, d[0] ? "'" : "",
                         (long long)v, (long)INT32_MAX);
            goto done;
        }
        if (!d[0] || strcmp(d, "ai.onnx") == 0)
            m->opset = (int)v;
    }
    m->inputs = BX_NEWN(&r->arena, ox_decl, gp->n_input + 1);
    for (size_t k = 0; k < gp->n_input; k++, m->ninputs++) {
        ox_decl *d = &m->inputs[k];
        if (decode_value_info(r, gp->input[k], d, true, "graph input") < 0)
            goto done;
        /* Before the other declarations, so that the symbols a given
         * shape binds are numbers in them too. */
        byoc_error e;
        int given = d->bad_rank ? 0 : bx_graph_input_type(r->g, d->name, &d->type, &e);
        if (given < 0) {
            reader_error(r, "%s", e.msg);
            goto done;
        }
        /* Not "its type changed": a bound name changes it too. */
        d->shape_given = given > 0;
    }
    /* And before the nodes, whose subgraphs declare types too.  Again, so
     * that an input before the one whose shape binds a name reads it as
     * its size (a given shape is given again, the same). */
    for (int k = 0; k < m->ninputs; k++) {
        byoc_error e;
        if (!m->inputs[k].bad_rank)
            bx_graph_input_type(r->g, m->inputs[k].name, &m->inputs[k].type, &e);
    }
    m->nodes = BX_NEWN(&r->arena, ox_node, gp->n_node + 1);
    for (size_t k = 0; k < gp->n_node; k++, m->nnodes++)
        if (decode_node(r, gp->node[k], (int)k, &m->nodes[k]) < 0)
            goto done;
    m->outputs = BX_NEWN(&r->arena, ox_decl, gp->n_output + 1);
    for (size_t k = 0; k < gp->n_output; k++, m->noutputs++)
        if (decode_value_info(r, gp->output[k], &m->outputs[k], false, "graph output") < 0)
            goto done;
    m->infos = BX_NEWN(&r->arena, ox_decl, gp->n_value_info + 1);
    for (size_t k = 0; k < gp->n_value_info; k++, m->ninfos++)
        if (decode_value_info(r, gp->value_info[k], &m->infos[k], false, "value_info") < 0)
            goto done;
    m->inits = BX_NEWN(&r->arena, ox_init, gp->n_initializer + 1);
    for (size_t k = 0; k < gp->n_initializer; k++, m->ninits++) {
        ox_init *in = &m->inits[k];
        in->name = bx_arena_strdup(&r->arena, S(gp->initializer[k]->name));
        char what[300];
        snprintf(what, sizeof what, "initializer '%s'", in->name);
        if (decode_tensor(r, gp->initializer[k], what, &in->type, &in->data) < 0)
            goto done;
    }
    if (check_sparse_inits(r, gp) < 0)
        goto done;
    rc = 0;
done:
    onnx__model_proto__free_unpacked(mp, &pb_allocator);
    return rc;
}

/* ---- the public entry points -------------------------------------------------- */

bool byoc_onnx_available(void) { return true; }

static byoc_graph *read_bytes(const byoc_registry *reg, const void *data, size_t size,
                              const char *name, const byoc_read_options *opts, byoc_error *err)
{
    name = name ? name : "<bytes>";
    byoc_error_clear(err);
    if (!reg || (!data && size)) {
        bx_error_set(err, name, 0, 0, "no registry or no data");
        return NULL;
    }
    ox_reader r;
    memset(&r, 0, sizeof r);
    r.file = name;
    r.err = err;
    r.quantized_nhwc = opts && opts->quantized_nhwc;
    r.g = byoc_graph_create(reg);
    byoc_graph_set_source(r.g, name);
    bx_arena_init(&r.arena);
    bx_hash_init(&r.values);
    bx_hash_init(&r.ops);
    byoc_error e;
    int rc = bx_graph_bind(r.g, opts, &e);
    if (rc < 0)
        reader_error(&r, "%s", e.msg);
    if (rc == 0)
        rc = decode(&r, data ? data : "", size);
    if (rc == 0)
        rc = build(&r);
    if (rc == 0 && (rc = bx_graph_bind_check(r.g, &e)) < 0)
        reader_error(&r, "%s", e.msg);
    if (rc == 0 && r.g->onnx) {
        bx_onnx_source *src = (bx_onnx_source *)r.g->onnx;
        src->hash = bx_onnx_hash(data, size);
        src->size = size;
    }
    bx_hash_free(&r.values);
    bx_hash_free(&r.ops);
    bx_arena_free(&r.arena);
    if (rc != 0) {
        if (!r.failed)
            bx_error_set(err, name, 0, 0, "cannot read the ONNX model");
        byoc_graph_destroy(r.g);
        return NULL;
    }
    return r.g;
}

byoc_graph *byoc_onnx_read_bytes_with(const byoc_registry *reg, const void *data, size_t size,
                                      const char *name, const byoc_read_options *opts,
                                      byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, NULL);
    byoc_graph *result = read_bytes(reg, data, size, name, opts, err);
    bx_oom_close(&guard);
    return result;
}

static byoc_graph *read_file(const byoc_registry *reg, const char *path,
                             const byoc_read_options *opts, byoc_error *err)
{
    size_t n;
    char *buf = bx_read_file(path, &n, err);
    if (!buf)
        return NULL;
    byoc_graph *g = read_bytes(reg, buf, n, path, opts, err);
    free(buf);
    return g;
}

byoc_graph *byoc_onnx_read_with(const byoc_registry *reg, const char *path,
                                const byoc_read_options *opts, byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, NULL);
    byoc_graph *result = read_file(reg, path, opts, err);
    bx_oom_close(&guard);
    return result;
}

#else /* !HAVE_ONNX */

bool byoc_onnx_available(void) { return false; }

byoc_graph *byoc_onnx_read_bytes_with(const byoc_registry *reg, const void *data, size_t size,
                                      const char *name, const byoc_read_options *opts,
                                      byoc_error *err)
{
    (void)reg;
    (void)data;
    (void)size;
    (void)opts;
    bx_error_set(err, name ? name : "<bytes>", 0, 0,
                 "ONNX support is not built in (configure found no protobuf-c)");
    return NULL;
}

byoc_graph *byoc_onnx_read_with(const byoc_registry *reg, const char *path,
                                const byoc_read_options *opts, byoc_error *err)
{
    return byoc_onnx_read_bytes_with(reg, NULL, 0, path, opts, err);
}

#endif

byoc_graph *byoc_onnx_read_bytes(const byoc_registry *reg, const void *data, size_t size,
                                 const char *name, byoc_error *err)
{
    return byoc_onnx_read_bytes_with(reg, data, size, name, NULL, err);
}

byoc_graph *byoc_onnx_read(const byoc_registry *reg, const char *path, byoc_error *err)
{
    return byoc_onnx_read_with(reg, path, NULL, err);
}
