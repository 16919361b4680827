/* Reading TVM's Relay text into a graph.
 *
 * The parser builds a syntax tree of the module; evaluating @main over it
 * makes the graph.  The one idea: a call of a function - a global, or a
 * `fn` literal bound to a local - is inlined.  Its body is evaluated again
 * for every call, in a fresh scope where its parameters name the call's
 * argument nodes, so a partitioned module (BYOC's `Compiler=` globals,
 * `Composite=` functions inside them) reads as the flat dataflow graph it
 * was partitioned from.  Each body has its own names (TVM restarts `%0`
 * per function); a literal's body also sees the names around it.
 *
 * Evaluation turns names into node ids, scalar literals and
 * `meta[relay.Constant][i]` into constants (one node per meta index, for
 * the whole module), and checks each call's attributes against the op's
 * declaration through the graph API.  Types written in the text -
 * parameters, meta constants, `ty=` annotations - are set on the nodes or
 * checked against them; inference then fills in the rest and checks the
 * annotations, and declared types that could not be checked before are
 * checked after it. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/relay.h>

#include "die.h"
#include "errfmt.h"
#include "file.h"
#include "graph_impl.h"
#include "relay_read.h"

int relay_parse(relay_reader *r, const char *text, size_t len);

void relay_error_at(relay_reader *r, int line, int col, const char *fmt, ...)
{
    if (r->failed)
        return;
    r->failed = true;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    bx_error_set(r->err, r->file, line, col, "%s", msg);
}

char *relay_strndup(relay_reader *r, const char *s, size_t n)
{
    return bx_arena_strndup(&r->arena, s, n);
}

char *relay_unescape(relay_reader *r, const char *s, size_t n)
{
    char *out = bx_arena_alloc(&r->arena, n + 1), *o = out;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 1 < n) {
            char e = s[++i];
            *o++ = e == 'n' ? '\n' : e == 't' ? '\t' : e;
        } else {
            *o++ = s[i];
        }
    }
    *o = 0;
    return out;
}

/* "12", "0i64", "2f", "1e-05f", "0.5f16". */
int relay_number(relay_reader *r, const char *text, relay_number_t *out)
{
    static const struct { const char *s; byoc_dtype dt; } sufs[] = {
        {"i64", BYOC_DT_INT64}, {"i32", BYOC_DT_INT32}, {"i16", BYOC_DT_INT16},
        {"i8", BYOC_DT_INT8}, {"u64", BYOC_DT_UINT64}, {"u32", BYOC_DT_UINT32},
        {"u16", BYOC_DT_UINT16}, {"u8", BYOC_DT_UINT8}, {"f16", BYOC_DT_FLOAT16},
        {"f32", BYOC_DT_FLOAT32}, {"f64", BYOC_DT_FLOAT64}, {"f", BYOC_DT_FLOAT32},
    };
    (void)r;
    memset(out, 0, sizeof *out);
    out->dtype = -1;
    size_t n = strlen(text);
    char num[64];
    if (n >= sizeof num)
        return -1;
    memcpy(num, text, n + 1);
    for (size_t k = 0; k < sizeof sufs / sizeof sufs[0]; k++) {
        size_t sl = strlen(sufs[k].s);
        /* "1e-05f": the e belongs to the number, the f is the suffix. */
        if (n > sl && strcmp(num + n - sl, sufs[k].s) == 0) {
            out->dtype = sufs[k].dt;
            num[n - sl] = 0;
            break;
        }
    }
    bool is_float = strpbrk(num, ".eE") != NULL
                    || (out->dtype >= 0 && byoc_dtype_class((byoc_dtype)out->dtype) == 'f');
    errno = 0;
    if (is_float) {
        out->is_float = true;
        out->f = strtod(num, NULL);
    } else {
        unsigned long long v = strtoull(num, NULL, 10);
        if (errno || v > (unsigned long long)INT64_MAX)
            return -1;
        out->i = (int64_t)v;
    }
    return errno ? -1 : 0;
}

byoc_value relay_value_number(const relay_number_t *n, bool negate)
{
    byoc_value v;
    memset(&v, 0, sizeof v);
    if (n->is_float) {
        v.kind = BYOC_V_FLOAT;
        v.u.f = negate ? -n->f : n->f;
    } else {
        v.kind = BYOC_V_INT;
        v.u.i = negate ? -n->i : n->i;
    }
    return v;
}

void relay_list_push(relay_reader *r, relay_list *l, const byoc_value *v)
{
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 8;
        byoc_value *nv = BX_NEWN(&r->arena, byoc_value, cap);
        if (l->n)
            memcpy(nv, l->v, sizeof(*nv) * (size_t)l->n);
        l->v = nv;
        l->cap = cap;
    }
    l->v[l->n++] = *v;
}

byoc_value relay_value_list(relay_list *l)
{
    byoc_value v;
    memset(&v, 0, sizeof v);
    v.kind = BYOC_V_LIST;
    v.u.list.items = l->v;
    v.u.list.n = (size_t)l->n;
    return v;
}

int relay_dtype(relay_reader *r, const char *name, int line, int col)
{
    int dt = byoc_dtype_lookup(name);
    if (dt <= 0) {
        relay_error_at(r, line, col, "unknown dtype '%s'", name);
        return -1;
    }
    return dt;
}

int64_t relay_dim_symbol(relay_reader *r, const char *name)
{
    return bx_graph_dim(r->g, name);
}

int relay_tlist_push(relay_reader *r, relay_tlist *l, const relay_type *t, int line, int col)
{
    if (t->is_fn) {
        relay_error_at(r, line, col, "a function type inside a tuple type is not supported");
        return -1;
    }
    if (l->n == BYOC_MAX_FIELDS) {
        relay_error_at(r, line, col, "a tuple type of more than %d fields (byoc's limit)",
                       BYOC_MAX_FIELDS);
        return -1;
    }
    if (l->n == l->cap) {
        int cap = l->cap ? (l->cap > BYOC_MAX_FIELDS / 2 ? BYOC_MAX_FIELDS : l->cap * 2) : 8;
        byoc_tensor_type *f = BX_NEWN(&r->arena, byoc_tensor_type, cap);
        const byoc_tuple_type **sub = BX_NEWN(&r->arena, const byoc_tuple_type *, cap);
        if (l->n) {
            memcpy(f, l->fields, sizeof(*f) * (size_t)l->n);
            memcpy(sub, l->sub, sizeof(*sub) * (size_t)l->n);
        }
        l->fields = f;
        l->sub = sub;
        l->cap = cap;
    }
    memset(&l->fields[l->n], 0, sizeof l->fields[l->n]);
    if (t->nfields >= 0) {
        l->fields[l->n].rank = -1;
        l->sub[l->n] = t->tuple;
        l->nested = true;
    } else {
        l->fields[l->n] = t->t;
        l->sub[l->n] = NULL;
    }
    l->n++;
    return 0;
}

int relay_tuple_type(relay_reader *r, const relay_tlist *l, relay_type *out, int line, int col)
{
    byoc_tuple_type *t = BX_NEW(&r->arena, byoc_tuple_type);
    t->n = l->n;
    t->fields = l->n ? l->fields : BX_NEW(&r->arena, byoc_tensor_type);
    t->sub = l->nested ? l->sub : NULL;
    t->depth = 1;
    for (int i = 0; t->sub && i < t->n; i++)
        if (t->sub[i] && t->sub[i]->depth + 1 > t->depth)
            t->depth = t->sub[i]->depth + 1;
    memset(out, 0, sizeof *out);
    out->nfields = t->n;
    out->tuple = t;
    if (t->depth > BYOC_MAX_TUPLE_DEPTH) {
        relay_error_at(r, line, col, "tuple types nest more than %d deep (byoc's limit)",
                       BYOC_MAX_TUPLE_DEPTH);
        return -1;
    }
    return 0;
}

/* ---- the syntax tree --------------------------------------------------------- */

relay_expr *relay_expr_new(relay_reader *r, relay_expr_kind kind, int line, int col)
{
    relay_expr *e = BX_NEW(&r->arena, relay_expr);
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->line = line;
    e->col = col;
    e->type.nfields = -1;
    return e;
}

int relay_def(relay_reader *r, relay_fn *f)
{
    if (bx_hash_get(&r->globals, f->name)) {
        relay_error_at(r, f->line, f->col, "%s is defined twice", f->name);
        return -1;
    }
    bx_hash_put(&r->globals, f->name, f);
    if (!r->first)
        r->first = f;
    return 0;
}

/* Where an expression starts in the text: a ty= comment, a projection and
 * a call are located at their own token, the expression at its first. */
static const relay_expr *expr_start(const relay_expr *e)
{
    while (e->kind == RX_ANNOT || e->kind == RX_PROJ || e->kind == RX_CALL)
        e = e->callee;
    return e;
}

/* ---- scopes and values ---------------------------------------------------------- */

/* What a name stands for: a node, or a function (a global, or a literal
 * with the scope it was written in, whose names its body may use). */
typedef struct relay_val {
    int node;                       /* -1 for a function */
    relay_fn *fn;
    relay_scope *env;
    const char *name;               /* for messages: "%1", "@f"; NULL */
} relay_val;

/* One instantiation of a function body.  Names are looked up outwards
 * through `parent`: a literal's body sees the names around it, a global's
 * sees only its own.  A function value cannot leave the scope that binds
 * it (it cannot be a result, an argument or a tuple field), so a scope can
 * be freed when its body is done. */
struct relay_scope {
    bx_hash names;                  /* "%x" -> relay_val */
    relay_scope *parent;
    int first;                      /* the first node this instantiation made */
    const char *prefix;             /* of node names: "" in @main, "@f/" in @f */
};

static const relay_val *lookup(const relay_scope *s, const char *name)
{
    for (; s; s = s->parent) {
        const relay_val *v = bx_hash_get(&s->names, name);
        if (v)
            return v;
    }
    return NULL;
}

static void define(relay_reader *r, relay_scope *s, const char *name, relay_val v)
{
    relay_val *p = BX_NEW(&r->arena, relay_val);
    *p = v;
    bx_hash_put(&s->names, name, p);
}

static const relay_val error_val = {.node = -1};

/* ---- types -------------------------------------------------------------------------- */

static bool type_known(const byoc_tensor_type *t)
{
    return t && t->rank >= 0 && t->dtype != BYOC_DT_VOID;
}

/* Equal, where a dimension written `?` agrees with any. */
static bool type_agrees(const byoc_tensor_type *have, const byoc_tensor_type *want)
{
    if (have->dtype != want->dtype || have->rank != want->rank)
        return false;
    for (int i = 0; i < have->rank && i < BYOC_MAX_RANK; i++)
        if (have->dims[i] != want->dims[i] && have->dims[i] != BYOC_DIM_UNKNOWN
            && want->dims[i] != BYOC_DIM_UNKNOWN)
            return false;
    return true;
}

/* Does a tuple of type `have` have type `want`: 1 yes, 0 no, -1 not
 * known (yet).  Recursion as deep as the types nest, which both bound. */
static int tuple_has_type(const byoc_tuple_type *have, const byoc_tuple_type *want)
{
    if (have->n != want->n)
        return 0;
    int verdict = 1;
    for (int i = 0; i < have->n; i++) {
        const byoc_tuple_type *hs = have->sub ? have->sub[i] : NULL;
        const byoc_tuple_type *ws = want->sub ? want->sub[i] : NULL;
        const byoc_tensor_type *t = &have->fields[i];
        int v;
        if (ws)
            v = hs ? tuple_has_type(hs, ws) : type_known(t) ? 0 : -1;
        else if (hs)
            v = 0;
        else
            v = !type_known(t) ? -1 : type_agrees(t, &want->fields[i]);
        if (v == 0)
            return 0;
        if (v < 0)
            verdict = -1;
    }
    return verdict;
}

/* Does node have type `want`: 1 yes, 0 no, -1 not known (yet). */
static int node_has_type(const byoc_graph *g, int node, const relay_type *want)
{
    const byoc_tuple_type *have = byoc_node_tuple_type(g, node);
    if (want->nfields < 0) {
        if (have)
            return 0;
        const byoc_tensor_type *t = byoc_node_type(g, node, -1);
        return !type_known(t) ? -1 : type_agrees(t, &want->t);
    }
    if (!have)
        return type_known(byoc_node_type(g, node, -1)) ? 0 : -1;
    return tuple_has_type(have, want->tuple);
}

static void format_type(const byoc_graph *g, const relay_type *t, char *buf, size_t size)
{
    if (t->nfields < 0)
        byoc_relay_format_type(g, &t->t, buf, size);
    else
        byoc_relay_format_tuple_type(g, t->tuple, buf, size);
}

static void format_node_type(const byoc_graph *g, int node, char *buf, size_t size)
{
    byoc_relay_format_node_type(g, node, buf, size);
}

/* A type the text declares for a node - a parameter's, a function's
 * result - checked now when the node's type is known, else after
 * inference.  `what` names the node for the message. */
struct relay_check {
    int node;
    const relay_type *want;
    const char *what, *declared;    /* "argument 1 of @f", "parameter %p" */
    int line, col;
    relay_check *next;
};

static void report_check(relay_reader *r, const relay_check *c)
{
    char have[256], want[256];
    if (!c->what) {
        relay_error_at(r, c->line, c->col, "the result's type differs from the type %s declares",
                       c->declared);
        return;
    }
    format_node_type(r->g, c->node, have, sizeof have);
    format_type(r->g, c->want, want, sizeof want);
    relay_error_at(r, c->line, c->col, "%s has type %s, but %s is declared %s", c->what, have,
                   c->declared, want);
}

static int check_type(relay_reader *r, int node, const relay_type *want, const char *what,
                      const char *declared, int line, int col)
{
    relay_check c = {node, want, what, declared, line, col, NULL};
    int v = node_has_type(r->g, node, want);
    if (v == 0) {
        report_check(r, &c);
        return -1;
    }
    if (v < 0) {
        relay_check *p = BX_NEW(&r->arena, relay_check);
        *p = c;
        if (r->last_check)
            r->last_check->next = p;
        else
            r->checks = p;
        r->last_check = p;
    }
    return 0;
}

/* After inference: the checks that had to wait.  Still unknown passes:
 * inference has noted why. */
static int run_checks(relay_reader *r)
{
    for (const relay_check *c = r->checks; c; c = c->next)
        if (node_has_type(r->g, c->node, c->want) == 0) {
            report_check(r, c);
            return -1;
        }
    return 0;
}

/* After inference: a projection past the end of a tuple whose fields are
 * known, or of a value inference found to be a tensor, is an error at the
 * projection (TVM's type checker refuses it), not a node left untyped. */
static int check_projections(relay_reader *r)
{
    for (int i = 0; i < byoc_graph_node_count(r->g); i++) {
        if (byoc_node_kind_of(r->g, i) != BYOC_N_PROJ)
            continue;
        int t = byoc_node_arg(r->g, i, 0), index = byoc_node_proj_index(r->g, i);
        int nfields = byoc_node_field_count(r->g, t);
        const byoc_tensor_type *tt = nfields < 0 ? byoc_node_type(r->g, t, -1) : NULL;
        if (nfields >= 0 && index >= nfields)
            relay_error_at(r, byoc_node_line(r->g, i), byoc_node_col(r->g, i),
                           "projection .%d of a tuple of %d field%s", index, nfields,
                           nfields == 1 ? "" : "s");
        else if (tt && tt->rank >= 0)
            relay_error_at(r, byoc_node_line(r->g, i), byoc_node_col(r->g, i),
                           "projection .%d of a tensor, not a tuple", index);
        else
            continue;
        return -1;
    }
    return 0;
}

/* ---- nodes ------------------------------------------------------------------------- */

static int graph_error(relay_reader *r, const byoc_error *e, int line, int col)
{
    relay_error_at(r, line, col, "%s", e->msg);
    return -1;
}

static int make_input(relay_reader *r, relay_scope *s, const relay_item *p)
{
    if (!p->type) {
        relay_error_at(r, p->line, p->col, "parameter %s of @main needs a type", p->param);
        return -1;
    }
    if (p->type->nfields >= 0 || p->type->is_fn) {
        relay_error_at(r, p->line, p->col,
                       "parameter %s has a %s type; byoc takes tensor parameters", p->param,
                       p->type->is_fn ? "function" : "tuple");
        return -1;
    }
    byoc_error e;
    byoc_tensor_type t = p->type->t;
    if (bx_graph_input_type(r->g, p->param + 1, &t, &e) < 0)
        return graph_error(r, &e, p->line, p->col);
    int n = byoc_graph_add_input(r->g, p->param + 1, &t, &e);
    if (n < 0)
        return graph_error(r, &e, p->line, p->col);
    byoc_graph_set_loc(r->g, n, p->line, p->col);
    define(r, s, p->param, (relay_val){.node = n});
    return n;
}

static int bind(relay_reader *r, relay_scope *s, const relay_stmt *st, relay_val v)
{
    if (bx_hash_get(&s->names, st->name)) {
        relay_error_at(r, st->line, st->col, "%s is defined twice", st->name);
        return -1;
    }
    if (v.fn && !v.name)
        v.name = st->name;
    define(r, s, st->name, v);
    /* `%5 = %3;` makes %5 another name for node %3, as in TVM.  Nodes made
     * before this body (a function's arguments) keep their names. */
    if (!v.fn && v.node >= s->first && byoc_node_kind_of(r->g, v.node) != BYOC_N_INPUT) {
        if (s->prefix[0])
            byoc_graph_set_name(r->g, v.node, bx_arena_printf(&r->arena, "%s%s", s->prefix,
                                                              st->name));
        else
            byoc_graph_set_name(r->g, v.node, st->name);
        byoc_graph_set_loc(r->g, v.node, st->line, st->col);
    }
    return 0;
}

static int make_meta(relay_reader *r, long index, int line, int col)
{
    if (index < 0 || index > 10000000) {
        relay_error_at(r, line, col, "meta constant index %ld out of range", index);
        return -1;
    }
    if (index >= r->nmeta) {
        int n = (int)index + 1 > r->nmeta * 2 ? (int)index + 1 : r->nmeta * 2;
        int *m = realloc(r->meta, sizeof(int) * (size_t)n);
        if (!m)
            bx_oom();
        memset(m + r->nmeta, 0, sizeof(int) * (size_t)(n - r->nmeta));
        r->meta = m;
        r->nmeta = n;
    }
    /* One node per index: the metadata section is the module's. */
    if (r->meta[index])
        return r->meta[index] - 1;
    byoc_tensor_type unknown;
    memset(&unknown, 0, sizeof unknown);
    unknown.rank = -1;
    byoc_error e;
    int node = byoc_graph_add_const(r->g, &unknown, NULL, &e);
    if (node < 0)
        return graph_error(r, &e, line, col);
    char name[48];
    snprintf(name, sizeof name, "meta[relay.Constant][%ld]", index);
    byoc_graph_set_name(r->g, node, name);
    byoc_graph_set_loc(r->g, node, line, col);
    r->meta[index] = node + 1;
    return node;
}

static int scalar_const(relay_reader *r, byoc_dtype dt, const byoc_value *v, int line, int col)
{
    byoc_tensor_type t;
    memset(&t, 0, sizeof t);
    t.dtype = dt;
    t.rank = 0;
    byoc_error e;
    int node = byoc_graph_add_const(r->g, &t, v, &e);
    if (node < 0)
        return graph_error(r, &e, line, col);
    byoc_graph_set_loc(r->g, node, line, col);
    return node;
}

/* Does v fit dt?  The integer types' ranges (64-bit ones as far as the
 * int64 value reaches) and the float types' largest finite values. */
static bool fits(byoc_dtype dt, const byoc_value *v)
{
    static const struct { byoc_dtype dt; double lo, hi; } ranges[] = {
        {BYOC_DT_INT8, -128, 127}, {BYOC_DT_INT16, -32768, 32767},
        {BYOC_DT_INT32, -2147483648.0, 2147483647.0}, {BYOC_DT_UINT8, 0, 255},
        {BYOC_DT_UINT16, 0, 65535}, {BYOC_DT_UINT32, 0, 4294967295.0},
        {BYOC_DT_UINT64, 0, 9223372036854775807.0}, {BYOC_DT_FLOAT16, -65504, 65504},
        {BYOC_DT_FLOAT32, -FLT_MAX, FLT_MAX},
    };
    double x = v->kind == BYOC_V_INT ? (double)v->u.i : v->u.f;
    for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++)
        if (ranges[i].dt == dt)
            return x >= ranges[i].lo && x <= ranges[i].hi;
    return true;
}

static int make_scalar(relay_reader *r, const relay_number_t *n, bool negate, int line, int col)
{
    /* Relay's defaults for unsuffixed literals: int32 and float32; an
     * integer past int32 is int64, as TVM's parser makes it. */
    byoc_value v = relay_value_number(n, negate);
    byoc_dtype dt = n->dtype >= 0 ? (byoc_dtype)n->dtype
                    : n->is_float ? BYOC_DT_FLOAT32
                    : fits(BYOC_DT_INT32, &v) ? BYOC_DT_INT32 : BYOC_DT_INT64;
    if (n->dtype >= 0 && byoc_dtype_class(dt) == 'f' && v.kind == BYOC_V_INT) {
        double f = (double)v.u.i;
        v.kind = BYOC_V_FLOAT;
        v.u.f = f;
    }
    if (!fits(dt, &v)) {
        if (v.kind == BYOC_V_INT)
            relay_error_at(r, line, col, "constant %lld out of range for %s", (long long)v.u.i,
                           byoc_dtype_name(dt));
        else
            relay_error_at(r, line, col, "constant %g out of range for %s", v.u.f,
                           byoc_dtype_name(dt));
        return -1;
    }
    return scalar_const(r, dt, &v, line, col);
}

static int eval_tensor(relay_reader *r, relay_scope *s, const relay_expr *e);

/* The nodes of the expressions in a call's arguments or a tuple's fields
 * (attributes skipped), in an array to free; NULL after an error.  At
 * most BYOC_MAX_FIELDS, a documented limit, located at the first past it. */
static int *eval_items(relay_reader *r, relay_scope *s, const relay_item *items,
                       const char *callee, int *n)
{
    int count = 0;
    for (const relay_item *it = items; it; it = it->next) {
        if (it->attr)
            continue;
        if (count == BYOC_MAX_FIELDS) {
            if (callee)
                relay_error_at(r, it->line, it->col,
                               "a call of %s with more than %d arguments (byoc's limit)", callee,
                               BYOC_MAX_FIELDS);
            else
                relay_error_at(r, it->line, it->col,
                               "a tuple of more than %d fields (byoc's limit)", BYOC_MAX_FIELDS);
            return NULL;
        }
        count++;
    }
    int *nodes = malloc(sizeof(int) * (size_t)(count ? count : 1));
    if (!nodes) {
        relay_error_at(r, items ? items->line : 0, items ? items->col : 0,
                       "out of memory for %d %s", count,
                       callee ? "arguments" : "fields");
        return NULL;
    }
    int k = 0;
    for (const relay_item *it = items; it; it = it->next)
        if (!it->attr && (nodes[k++] = eval_tensor(r, s, it->expr)) < 0) {
            free(nodes);
            return NULL;
        }
    *n = count;
    return nodes;
}

static int make_call(relay_reader *r, relay_scope *s, const relay_expr *call)
{
    int nargs = 0;
    int *args = eval_items(r, s, call->items, call->name, &nargs);
    if (!args)
        return -1;
    byoc_error e;
    int node = byoc_graph_add_call(r->g, call->name, nargs ? args : NULL, nargs, &e);
    free(args);
    if (node < 0)
        return graph_error(r, &e, call->line, call->col);
    byoc_graph_set_loc(r->g, node, call->line, call->col);
    for (const relay_item *it = call->items; it; it = it->next) {
        if (!it->attr)
            continue;
        for (const relay_item *p = call->items; p != it; p = p->next)
            if (p->attr && strcmp(p->attr, it->attr) == 0) {
                relay_error_at(r, it->line, it->col, "attribute '%s' given twice", it->attr);
                return -1;
            }
        if (byoc_graph_set_attr(r->g, node, it->attr, &it->value, &e) != 0)
            return graph_error(r, &e, it->line, it->col);
    }
    return node;
}

static int make_tuple(relay_reader *r, relay_scope *s, const relay_expr *tuple)
{
    int n = 0;
    int *fields = eval_items(r, s, tuple->items, NULL, &n);
    if (!fields)
        return -1;
    byoc_error e;
    int node = byoc_graph_add_tuple(r->g, fields, n, &e);
    free(fields);
    if (node < 0)
        return graph_error(r, &e, tuple->line, tuple->col);
    byoc_graph_set_loc(r->g, node, tuple->line, tuple->col);
    return node;
}

static int make_proj(relay_reader *r, int tuple, const relay_number_t *index, int line, int col)
{
    if (index->is_float || index->i >= BYOC_MAX_FIELDS) {
        relay_error_at(r, line, col, "a projection needs a field index");
        return -1;
    }
    byoc_error e;
    int node = byoc_graph_add_proj(r->g, tuple, (int)index->i, &e);
    if (node < 0)
        return graph_error(r, &e, line, col);
    byoc_graph_set_loc(r->g, node, line, col);
    return node;
}

/* A ty= comment after an expression: a constant or call takes the type
 * (inference then checks a call's); anything else must already have it. */
static int annotate(relay_reader *r, int node, const relay_type *t, int line, int col)
{
    byoc_node_kind k = byoc_node_kind_of(r->g, node);
    if (t->is_fn) {
        relay_error_at(r, line, col, "a tensor annotated with a function type");
        return -1;
    }
    if (t->nfields >= 0) {
        if (k == BYOC_N_CALL) {
            byoc_error e;
            if (bx_graph_set_tuple(r->g, node, t->tuple, &e) != 0)
                return graph_error(r, &e, line, col);
        }
        return node;
    }
    const byoc_tensor_type *have = byoc_node_type(r->g, node, -1);
    /* A call keeps the first type written for it: an inlined body's
     * result can be annotated inside the body and at the call. */
    bool settable = k == BYOC_N_CONST || (k == BYOC_N_CALL && !type_known(have));
    if (settable) {
        if (k == BYOC_N_CONST && type_known(have) && !type_agrees(have, &t->t)) {
            relay_error_at(r, line, col, "this constant was declared with another type before");
            return -1;
        }
        byoc_graph_set_type(r->g, node, &t->t);
    } else if (type_known(have) && !type_agrees(have, &t->t)) {
        relay_error_at(r, line, col, "the annotated type differs from the node's type");
        return -1;
    }
    return node;
}

/* ---- evaluation: inlining ------------------------------------------------------- */

static relay_val eval(relay_reader *r, relay_scope *s, const relay_expr *e);

static void not_a_tensor(relay_reader *r, const relay_val *v, const relay_expr *e)
{
    e = expr_start(e);
    if (v->name)
        relay_error_at(r, e->line, e->col, "%s is a function, not a tensor", v->name);
    else
        relay_error_at(r, e->line, e->col, "this fn is a function, not a tensor");
}

static int eval_tensor(relay_reader *r, relay_scope *s, const relay_expr *e)
{
    relay_val v = eval(r, s, e);
    if (r->failed)
        return -1;
    if (v.fn) {
        not_a_tensor(r, &v, e);
        return -1;
    }
    return v.node;
}

/* Record in the graph's notes where a partition or composite of the
 * source went: its attributes are otherwise lost with the function.  An
 * inner function's note comes before its caller's, which only then knows
 * its nodes (an inlined body's nodes are consecutive). */
static void note_inlined(relay_reader *r, const relay_fn *fn, const char *name, int first,
                         int line, int col)
{
    for (const relay_item *it = fn->header; it; it = it->next) {
        if (!it->attr || it->value.kind != BYOC_V_STRING
            || (strcmp(it->attr, "Compiler") != 0 && strcmp(it->attr, "Composite") != 0))
            continue;
        int last = byoc_graph_node_count(r->g) - 1;
        char nodes[64];
        if (last < first)
            snprintf(nodes, sizeof nodes, ": no nodes");
        else if (last == first)
            snprintf(nodes, sizeof nodes, " as node %d", first);
        else
            snprintf(nodes, sizeof nodes, " as nodes %d..%d", first, last);
        bx_graph_note(r->g, "%s:%d:%d: inlined %s (%s=\"%s\")%s", r->file, line, col, name,
                      it->attr, it->value.u.s, nodes);
    }
}

/* A body's statements and result in scope s; returns the result node. */
static int eval_body(relay_reader *r, relay_scope *s, const relay_fn *fn)
{
    for (const relay_stmt *st = fn->stmts; st; st = st->next) {
        relay_val v = eval(r, s, st->value);
        if (r->failed || bind(r, s, st, v) != 0)
            return -1;
    }
    return eval_tensor(r, s, fn->result);
}

/* A call of f with these argument expressions, in scope s: its body's
 * nodes, with the arguments for its parameters. */
static int inline_call(relay_reader *r, relay_scope *s, const relay_val *f, const relay_expr *call)
{
    relay_fn *fn = f->fn;
    const char *name = f->name ? f->name : "fn";
    int nargs = 0;
    for (const relay_item *it = call->items; it; it = it->next) {
        if (it->attr) {
            relay_error_at(r, it->line, it->col,
                           "attribute '%s' in a call of %s: functions take no attributes",
                           it->attr, name);
            return -1;
        }
        nargs++;
    }
    if (nargs != fn->nparams) {
        relay_error_at(r, call->line, call->col, "%s takes %d argument%s, got %d", name,
                       fn->nparams, fn->nparams == 1 ? "" : "s", nargs);
        return -1;
    }
    /* Calls nested k deep, each calling twice, make 2^k copies: stop long
     * before that exhausts time or memory.  Real modules, even with much
     * reuse, stay far below 16 nodes or calls per byte of text. */
    if (++r->calls > r->limit || byoc_graph_node_count(r->g) > r->limit) {
        relay_error_at(r, call->line, call->col,
                       "inlining %s makes the graph too large (over %ld nodes or calls)", name,
                       r->limit);
        return -1;
    }
    if (fn->active) {
        relay_error_at(r, call->line, call->col,
                       "recursive call of %s: byoc inlines functions, and cannot inline this one",
                       name);
        return -1;
    }
    relay_scope body;
    memset(&body, 0, sizeof body);
    bx_hash_init(&body.names);
    body.parent = f->env;
    body.prefix = bx_arena_printf(&r->arena, "%s%s/", s->prefix, name);
    int node = -1, index = 0;
    const relay_item *arg = call->items;
    for (const relay_item *p = fn->header; p; p = p->next) {
        if (!p->param)
            continue;
        int a = eval_tensor(r, s, arg->expr);
        index++;
        if (a < 0)
            goto out;
        if (bx_hash_get(&body.names, p->param)) {
            relay_error_at(r, p->line, p->col, "parameter %s is declared twice", p->param);
            goto out;
        }
        if (p->type) {
            if (p->type->is_fn) {
                relay_error_at(r, p->line, p->col,
                               "parameter %s has a function type; byoc takes tensor parameters",
                               p->param);
                goto out;
            }
            const relay_expr *at = expr_start(arg->expr);
            if (check_type(r, a, p->type,
                           bx_arena_printf(&r->arena, "argument %d of %s", index, name),
                           bx_arena_printf(&r->arena, "parameter %s", p->param), at->line,
                           at->col) != 0)
                goto out;
        }
        define(r, &body, p->param, (relay_val){.node = a});
        arg = arg->next;
    }
    body.first = byoc_graph_node_count(r->g);
    fn->active = true;
    fn->uses++;
    node = eval_body(r, &body, fn);
    fn->active = false;
    if (node >= 0 && fn->ret) {
        const relay_expr *at = expr_start(fn->result);
        if (check_type(r, node, fn->ret, NULL, name, at->line, at->col) != 0)
            node = -1;
    }
    if (node >= 0)
        note_inlined(r, fn, body.prefix[0] ? bx_arena_strndup(&r->arena, body.prefix,
                                                               strlen(body.prefix) - 1)
                                           : name,
                     body.first, call->line, call->col);
out:
    bx_hash_free(&body.names);
    return node;
}

static relay_val eval_expr(relay_reader *r, relay_scope *s, const relay_expr *e)
{
    relay_val v = {.node = -1};
    switch (e->kind) {
    case RX_LOCAL: {
        const relay_val *p = lookup(s, e->name);
        if (!p) {
            relay_error_at(r, e->line, e->col, "%s is not defined", e->name);
            return error_val;
        }
        return *p;
    }
    case RX_GLOBAL: {
        relay_fn *f = bx_hash_get(&r->globals, e->name);
        if (!f) {
            relay_error_at(r, e->line, e->col, "%s is not defined", e->name);
            return error_val;
        }
        v.fn = f;
        v.name = f->name;
        return v;
    }
    case RX_FN:
        v.fn = e->fn;
        v.env = s;
        return v;
    case RX_META:
        v.node = make_meta(r, e->meta, e->line, e->col);
        return v;
    case RX_NUMBER:
        v.node = make_scalar(r, &e->num, e->negate, e->line, e->col);
        return v;
    case RX_BOOL: {
        byoc_value b = {.kind = BYOC_V_BOOL, .u.b = e->b};
        v.node = scalar_const(r, BYOC_DT_BOOL, &b, e->line, e->col);
        return v;
    }
    case RX_OP:
        v.node = make_call(r, s, e);
        return v;
    case RX_TUPLE:
        v.node = make_tuple(r, s, e);
        return v;
    case RX_PROJ: {
        int t = eval_tensor(r, s, e->callee);
        if (t >= 0)
            v.node = make_proj(r, t, &e->num, e->line, e->col);
        return v;
    }
    case RX_ANNOT: {
        v = eval(r, s, e->callee);
        if (r->failed)
            return error_val;
        if (v.fn) {
            if (!e->type.is_fn) {
                not_a_tensor(r, &v, e);
                return error_val;
            }
            return v;
        }
        v.node = annotate(r, v.node, &e->type, e->line, e->col);
        return v;
    }
    case RX_CALL: {
        relay_val f = eval(r, s, e->callee);
        if (r->failed)
            return error_val;
        if (!f.fn) {
            const relay_expr *c = expr_start(e->callee);
            if (c->kind == RX_LOCAL)
                relay_error_at(r, c->line, c->col, "%s is not a function", c->name);
            else
                relay_error_at(r, c->line, c->col, "this expression is not a function");
            return error_val;
        }
        v.node = inline_call(r, s, &f, e);
        return v;
    }
    }
    bx_die("unknown Relay expression kind");
}

/* Evaluation recurses once per level of nesting: expressions inside
 * expressions, and calls of functions inlined inside others.  The parser's
 * stack already bounds the first; the depth bounds both, so that a deep
 * input is an error rather than a stack overflow (doc/limits.md). */
static relay_val eval(relay_reader *r, relay_scope *s, const relay_expr *e)
{
    if (r->depth >= RELAY_MAX_DEPTH) {
        const relay_expr *at = expr_start(e);
        relay_error_at(r, at->line, at->col,
                       "expressions and inlined calls nest more than %d deep", RELAY_MAX_DEPTH);
        return error_val;
    }
    r->depth++;
    relay_val v = eval_expr(r, s, e);
    r->depth--;
    return v;
}

/* @main: its parameters are the graph's inputs, its result the output. */
static int eval_main(relay_reader *r)
{
    relay_fn *main_fn = bx_hash_get(&r->globals, "@main");
    if (!main_fn) {
        relay_error_at(r, r->first->line, r->first->col,
                       "the module has no @main (its first function is %s)", r->first->name);
        return -1;
    }
    relay_scope s;
    memset(&s, 0, sizeof s);
    bx_hash_init(&s.names);
    s.prefix = "";
    int out = -1;
    /* The shapes given for the parameters first, so that a name one binds
     * is its size in the parameters before it too. */
    for (const relay_item *p = main_fn->header; p; p = p->next)
        if (p->param && p->type && p->type->nfields < 0 && !p->type->is_fn) {
            byoc_tensor_type t = p->type->t;
            byoc_error e;
            if (bx_graph_input_type(r->g, p->param + 1, &t, &e) < 0) {
                graph_error(r, &e, p->line, p->col);
                goto out;
            }
        }
    for (const relay_item *p = main_fn->header; p; p = p->next)
        if (p->param) {
            if (bx_hash_get(&s.names, p->param)) {
                relay_error_at(r, p->line, p->col, "parameter %s is declared twice", p->param);
                goto out;
            }
            if (make_input(r, &s, p) < 0)
                goto out;
        }
    main_fn->active = true;
    main_fn->uses++;
    out = eval_body(r, &s, main_fn);
    main_fn->active = false;
    if (out >= 0) {
        byoc_error e;
        const relay_expr *at = expr_start(main_fn->result);
        if (byoc_graph_set_output(r->g, out, &e) != 0)
            out = graph_error(r, &e, at->line, at->col);
        else if (main_fn->ret
                 && check_type(r, out, main_fn->ret, NULL, "@main", at->line, at->col) != 0)
            out = -1;
    }
    for (size_t i = 0; out >= 0 && i < r->globals.n; i++) {
        const relay_fn *f = r->globals.entries[i].val;
        if (!f->uses)
            bx_graph_note(r->g, "%s:%d:%d: %s is never called", r->file, f->line, f->col,
                          f->name);
    }
out:
    bx_hash_free(&s.names);
    return out < 0 ? -1 : 0;
}

/* ---- the public entry points ------------------------------------------------------ */

static byoc_graph *read_text(const byoc_registry *reg, const char *text, size_t len,
                             const char *name, const byoc_read_options *opts, byoc_error *err)
{
    relay_reader r;
    memset(&r, 0, sizeof r);
    r.reg = reg;
    r.file = name;
    r.line = 1;
    r.col = 1;
    r.err = err;
    r.g = byoc_graph_create(reg);
    byoc_graph_set_source(r.g, name);
    bx_arena_init(&r.arena);
    bx_hash_init(&r.globals);
    byoc_error_clear(err);
    r.limit = 16 * (long)(len < 1 << 24 ? len : 1 << 24);
    if (r.limit < 1 << 16)
        r.limit = 1 << 16;
    int rc = bx_graph_bind(r.g, opts, err);
    if (rc == 0)
        rc = relay_parse(&r, text, len);
    if (rc == 0)
        rc = eval_main(&r);
    if (rc == 0)
        rc = bx_graph_bind_check(r.g, err);
    if (rc == 0 && byoc_graph_infer_types(r.g, err) != 0)
        rc = -1;
    if (rc == 0)
        rc = run_checks(&r);
    if (rc == 0)
        rc = check_projections(&r);
    bx_hash_free(&r.globals);
    bx_arena_free(&r.arena);
    free(r.meta);
    if (rc != 0) {
        if (!err || !err->msg[0])
            bx_error_set(err, name, 0, 0, "cannot read Relay text");
        byoc_graph_destroy(r.g);
        return NULL;
    }
    return r.g;
}

static byoc_graph *read_string(const byoc_registry *reg, const char *text, size_t len,
                               const char *name, const byoc_read_options *opts,
                               byoc_error *err)
{
    if (!reg || !text) {
        bx_error_set(err, name, 0, 0, "no registry or no text");
        return NULL;
    }
    return read_text(reg, text, len, name ? name : "<string>", opts, err);
}

byoc_graph *byoc_relay_read_string_with(const byoc_registry *reg, const char *text, size_t len,
                                        const char *name, const byoc_read_options *opts,
                                        byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, NULL);
    byoc_graph *result = read_string(reg, text, len, name, opts, err);
    bx_oom_close(&guard);
    return result;
}

byoc_graph *byoc_relay_read_string(const byoc_registry *reg, const char *text, size_t len,
                                   const char *name, byoc_error *err)
{
    return byoc_relay_read_string_with(reg, text, len, name, NULL, err);
}

static byoc_graph *read_file(const byoc_registry *reg, const char *path,
                             const byoc_read_options *opts, byoc_error *err)
{
    size_t n;
    char *buf = bx_read_file(path, &n, err);
    if (!buf)
        return NULL;
    byoc_graph *g = read_text(reg, buf, n, path, opts, err);
    free(buf);
    return g;
}

byoc_graph *byoc_relay_read_with(const byoc_registry *reg, const char *path,
                                 const byoc_read_options *opts, byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, NULL);
    byoc_graph *result = read_file(reg, path, opts, err);
    bx_oom_close(&guard);
    return result;
}

byoc_graph *byoc_relay_read(const byoc_registry *reg, const char *path, byoc_error *err)
{
    return byoc_relay_read_with(reg, path, NULL, err);
}
