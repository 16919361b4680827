/* The graph: nodes in one growable array, everything they point at in an
 * arena the graph owns.
 *
 * The idea: a node's id is its index, and a node may only use nodes that
 * already exist, so the array order is a topological order and no later
 * pass needs to sort.  Calls are checked against the registry's op
 * declarations as they are built; attribute values start as the
 * declaration's defaults (pointers into static tables, copied by value) and
 * are deep-copied into the arena only when set. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/graph.h>

#include "arena.h"
#include "die.h"
#include "errfmt.h"
#include "graph_impl.h"
#include "hash.h"
#include "values.h"

static const byoc_tensor_type unknown_type = {BYOC_DT_VOID, -1, {0}};

byoc_graph *byoc_graph_create(const byoc_registry *reg)
{
    byoc_graph *g = calloc(1, sizeof(*g));
    if (!g)
        bx_oom();
    g->reg = reg;
    g->output = -1;
    g->cur_origin = -1;
    g->cons_n = -1;
    g->height = 1;
    bx_arena_init(&g->arena);
    bx_hash_init(&g->symbols);
    return g;
}

void byoc_graph_destroy(byoc_graph *g)
{
    if (!g)
        return;
    /* Recursion bounded by BYOC_MAX_GRAPH_DEPTH (byoc_graph_add_subgraph). */
    for (int i = 0; i < g->n; i++)
        for (int k = 0; k < g->nodes[i].nsubs; k++)
            byoc_graph_destroy(g->nodes[i].subs[k].graph);
    free(g->nodes);
    free(g->symbol_names);
    free(g->symbol_values);
    free(g->symbol_seen);
    free(g->cons_start);
    free(g->cons);
    free(g->notes);
    bx_hash_free(&g->symbols);
    bx_arena_free(&g->arena);
    free(g);
}

const byoc_registry *byoc_graph_registry(const byoc_graph *g) { return g ? g->reg : NULL; }

/* ---- building ---------------------------------------------------------- */

static bool valid_node(const byoc_graph *g, int node)
{
    return g && node >= 0 && node < g->n;
}

/* Types from callers are normalised: a rank outside 0..BYOC_MAX_RANK is
 * "not known", an unknown dtype VOID, and dims past the rank zero, so two
 * equal types compare equal bytewise. */
static byoc_tensor_type clean_type(const byoc_tensor_type *t)
{
    byoc_tensor_type c = unknown_type;
    if (!t)
        return c;
    c.dtype = (int)t->dtype >= 0 && t->dtype < BYOC_DT_COUNT_ ? t->dtype : BYOC_DT_VOID;
    if (t->rank >= 0 && t->rank <= BYOC_MAX_RANK) {
        c.rank = t->rank;
        for (int i = 0; i < t->rank; i++)
            c.dims[i] = t->dims[i];
    }
    return c;
}

static bool type_ok(const byoc_tensor_type *t, byoc_error *err)
{
    if (t && t->rank > BYOC_MAX_RANK) {
        bx_error_set(err, NULL, 0, 0, "rank %d exceeds the maximum of %d", t->rank,
                     BYOC_MAX_RANK);
        return false;
    }
    return true;
}

static bx_node *new_node(byoc_graph *g, byoc_node_kind kind)
{
    if (g->n == g->cap) {
        int cap = g->cap ? g->cap * 2 : 64;
        bx_node *nodes = realloc(g->nodes, (size_t)cap * sizeof(*nodes));
        if (!nodes)
            bx_oom();
        g->nodes = nodes;
        g->cap = cap;
    }
    bx_node *n = &g->nodes[g->n++];
    memset(n, 0, sizeof(*n));
    n->kind = kind;
    n->nfields = -1;
    n->type = unknown_type;
    n->origin = g->cur_origin;
    return n;
}

/* ---- tuple types ----------------------------------------------------------- */

byoc_tuple_type *bx_tuple_new(byoc_graph *g, int n)
{
    byoc_tuple_type *t = BX_NEW(&g->arena, byoc_tuple_type);
    byoc_tensor_type *f = BX_NEWN(&g->arena, byoc_tensor_type, n > 0 ? n : 1);
    for (int i = 0; i < n; i++)
        f[i] = unknown_type;
    t->n = n;
    t->fields = f;
    t->sub = NULL;
    t->depth = 1;
    return t;
}

void bx_tuple_set_sub(byoc_graph *g, byoc_tuple_type *t, int i, const byoc_tuple_type *sub)
{
    if (!t->sub) {
        const byoc_tuple_type **s = BX_NEWN(&g->arena, const byoc_tuple_type *, t->n);
        memset(s, 0, sizeof(*s) * (size_t)t->n);
        t->sub = s;
    }
    ((const byoc_tuple_type **)t->sub)[i] = sub;
    ((byoc_tensor_type *)t->fields)[i] = unknown_type;
}

bool bx_tuple_finish(byoc_tuple_type *t)
{
    int depth = 1;
    for (int i = 0; t->sub && i < t->n; i++)
        if (t->sub[i] && t->sub[i]->depth + 1 > depth)
            depth = t->sub[i]->depth + 1;
    t->depth = depth;
    return depth <= BYOC_MAX_TUPLE_DEPTH;
}

/* The recursion is bounded by `depth`, checked before going deeper. */
static const byoc_tuple_type *tuple_copy(byoc_graph *g, const byoc_tuple_type *t, int depth,
                                         byoc_error *err)
{
    if (depth > BYOC_MAX_TUPLE_DEPTH) {
        bx_error_set(err, NULL, 0, 0, "tuple types nest more than %d deep", BYOC_MAX_TUPLE_DEPTH);
        return NULL;
    }
    if (t->n < 0 || t->n > BYOC_MAX_FIELDS || (t->n > 0 && !t->fields)) {
        bx_error_set(err, NULL, 0, 0, "a tuple type of %d fields (at most %d)", t->n,
                     BYOC_MAX_FIELDS);
        return NULL;
    }
    byoc_tuple_type *c = bx_tuple_new(g, t->n);
    for (int i = 0; i < t->n; i++) {
        if (t->sub && t->sub[i]) {
            const byoc_tuple_type *s = tuple_copy(g, t->sub[i], depth + 1, err);
            if (!s)
                return NULL;
            bx_tuple_set_sub(g, c, i, s);
        } else {
            if (!type_ok(&t->fields[i], err))
                return NULL;
            ((byoc_tensor_type *)c->fields)[i] = clean_type(&t->fields[i]);
        }
    }
    bx_tuple_finish(c);
    return c;
}

const byoc_tuple_type *bx_tuple_copy(byoc_graph *g, const byoc_tuple_type *t, byoc_error *err)
{
    return tuple_copy(g, t, 1, err);
}

void bx_node_set_tensor(bx_node *n, const byoc_tensor_type *t)
{
    n->nfields = -1;
    n->fields = NULL;
    n->tuple = NULL;
    n->type = *t;
}

void bx_node_set_tuple(bx_node *n, const byoc_tuple_type *t)
{
    n->nfields = t->n;
    n->fields = (byoc_tensor_type *)t->fields;
    n->tuple = t;
    n->type = unknown_type;
}

int bx_graph_set_tuple(byoc_graph *g, int node, const byoc_tuple_type *t, byoc_error *err)
{
    if (!valid_node(g, node) || !t) {
        bx_error_set(err, NULL, 0, 0, "node %d does not exist", node);
        return -1;
    }
    const byoc_tuple_type *c = bx_tuple_copy(g, t, err);
    if (!c)
        return -1;
    bx_node_set_tuple(&g->nodes[node], c);
    return 0;
}

/* The type node `id` gives a tuple field: a tensor type, or its tuple type
 * as the field's sub. */
static void field_from_node(byoc_graph *g, byoc_tuple_type *t, int i, int id)
{
    const bx_node *f = &g->nodes[id];
    if (f->tuple)
        bx_tuple_set_sub(g, t, i, f->tuple);
    else
        ((byoc_tensor_type *)t->fields)[i] = f->nfields < 0 ? f->type : unknown_type;
}

/* Do all ids name existing nodes?  `what` names the user of args. */
static bool args_ok(const byoc_graph *g, const int *args, int nargs, const char *what,
                    byoc_error *err)
{
    if (nargs < 0 || (nargs > 0 && !args)) {
        bx_error_set(err, NULL, 0, 0, "%s: bad argument list", what);
        return false;
    }
    if (nargs > BYOC_MAX_FIELDS) {
        bx_error_set(err, NULL, 0, 0, "%s has %d %s; byoc takes at most %d", what, nargs,
                     strcmp(what, "tuple") == 0 ? "fields" : "arguments", BYOC_MAX_FIELDS);
        return false;
    }
    for (int i = 0; i < nargs; i++)
        if (!valid_node(g, args[i])) {
            bx_error_set(err, NULL, 0, 0, "argument %d of %s is node %d, which does not exist",
                         i + 1, what, args[i]);
            return false;
        }
    return true;
}

int byoc_graph_add_input(byoc_graph *g, const char *name, const byoc_tensor_type *t,
                         byoc_error *err)
{
    if (!g || !type_ok(t, err))
        return -1;
    bx_node *n = new_node(g, BYOC_N_INPUT);
    n->name = bx_arena_strdup(&g->arena, name ? name : "");
    n->type = clean_type(t);
    return g->n - 1;
}

static size_t scalar_count(const byoc_value *v)
{
    if (v->kind != BYOC_V_LIST)
        return 1;
    size_t n = 0;
    for (size_t i = 0; i < v->u.list.n; i++)
        n += scalar_count(&v->u.list.items[i]);
    return n;
}

static void scalars_into(const byoc_value *v, byoc_value *out, size_t *k)
{
    if (v->kind != BYOC_V_LIST) {
        out[(*k)++] = *v;
        return;
    }
    for (size_t i = 0; i < v->u.list.n; i++)
        scalars_into(&v->u.list.items[i], out, k);
}

/* v's scalars in one list (v itself when it is a scalar or already flat);
 * strings and other scalars are shared with v, not copied. */
static const byoc_value *flatten(byoc_graph *g, const byoc_value *v)
{
    if (v->kind != BYOC_V_LIST)
        return v;
    bool flat = true;
    for (size_t i = 0; i < v->u.list.n && flat; i++)
        flat = v->u.list.items[i].kind != BYOC_V_LIST;
    if (flat)
        return v;
    size_t n = scalar_count(v), k = 0;
    byoc_value *items = bx_arena_alloc(&g->arena, sizeof *items * (n ? n : 1));
    scalars_into(v, items, &k);
    byoc_value *list = BX_NEW(&g->arena, byoc_value);
    list->kind = BYOC_V_LIST;
    list->u.list.items = items;
    list->u.list.n = n;
    return list;
}

int byoc_graph_add_const(byoc_graph *g, const byoc_tensor_type *t, const byoc_value *value,
                         byoc_error *err)
{
    if (!g || !type_ok(t, err))
        return -1;
    byoc_value *copy = NULL;
    if (value) {
        copy = BX_NEW(&g->arena, byoc_value);
        bx_value_copy_into(copy, value,
                           bx_arena_alloc(&g->arena, bx_value_copy_size(value)));
    }
    bx_node *n = new_node(g, BYOC_N_CONST);
    n->type = clean_type(t);
    n->value = copy;
    n->flat = copy ? flatten(g, copy) : NULL;
    return g->n - 1;
}

int byoc_graph_add_call(byoc_graph *g, const char *op, const int *args, int nargs,
                        byoc_error *err)
{
    if (!g)
        return -1;
    const byoc_op_decl *decl = byoc_registry_op(g->reg, op);
    if (!decl) {
        bx_suggest s;
        char hint[160];
        bx_suggest_init(&s, op);
        for (int i = 0; i < byoc_registry_op_count(g->reg); i++)
            bx_suggest_offer(&s, byoc_registry_op_at(g->reg, i)->name);
        bx_error_set(err, NULL, 0, 0, "unknown operator '%s'%s", op ? op : "",
                     bx_suggest_hint(&s, hint, sizeof hint));
        return -1;
    }
    if (nargs != decl->ninputs) {
        bx_error_set(err, NULL, 0, 0, "%s takes %d argument%s, got %d", decl->name,
                     decl->ninputs, decl->ninputs == 1 ? "" : "s", nargs);
        return -1;
    }
    if (!args_ok(g, args, nargs, decl->name, err))
        return -1;
    /* Absent attributes, required ones included, read as None until set:
     * a predicate reading one is then false rather than wrong. */
    byoc_value *attrs = BX_NEWN(&g->arena, byoc_value, decl->nattrs);
    for (int i = 0; i < decl->nattrs; i++)
        if (decl->attrs[i].has_default)
            attrs[i] = decl->attrs[i].def;
    bx_node *n = new_node(g, BYOC_N_CALL);
    n->op = decl;
    n->opname = decl->name;
    n->nargs = nargs;
    n->args = bx_arena_memdup(&g->arena, args, sizeof(int) * (size_t)nargs);
    n->attrs = attrs;
    return g->n - 1;
}

int byoc_graph_add_tuple(byoc_graph *g, const int *fields, int n, byoc_error *err)
{
    if (!g || !args_ok(g, fields, n, "tuple", err))
        return -1;
    /* The tuple's type follows from its fields': tensors, or tuples. */
    byoc_tuple_type *type = bx_tuple_new(g, n);
    for (int i = 0; i < n; i++)
        field_from_node(g, type, i, fields[i]);
    if (!bx_tuple_finish(type)) {
        bx_error_set(err, NULL, 0, 0, "tuples nest more than %d deep", BYOC_MAX_TUPLE_DEPTH);
        return -1;
    }
    bx_node *node = new_node(g, BYOC_N_TUPLE);
    node->nargs = n;
    node->args = bx_arena_memdup(&g->arena, fields, sizeof(int) * (size_t)n);
    bx_node_set_tuple(node, type);
    return g->n - 1;
}

int byoc_graph_add_proj(byoc_graph *g, int tuple, int index, byoc_error *err)
{
    if (!g || !args_ok(g, &tuple, 1, "projection", err))
        return -1;
    const bx_node *t = &g->nodes[tuple];
    if (index < 0) {
        bx_error_set(err, NULL, 0, 0, "projection index %d is negative", index);
        return -1;
    }
    if (t->nfields >= 0 && index >= t->nfields) {
        bx_error_set(err, NULL, 0, 0, "projection .%d of node %d, a tuple of %d field%s", index,
                     tuple, t->nfields, t->nfields == 1 ? "" : "s");
        return -1;
    }
    /* Until its tuple's type is known, a projection's type is not; a
     * field that is a tuple makes a tuple-typed projection. */
    const byoc_tuple_type *sub = t->tuple && t->tuple->sub ? t->tuple->sub[index] : NULL;
    byoc_tensor_type type = t->nfields >= 0 ? t->fields[index] : unknown_type;
    bx_node *n = new_node(g, BYOC_N_PROJ);
    n->nargs = 1;
    n->args = bx_arena_memdup(&g->arena, &tuple, sizeof(int));
    n->proj_index = index;
    if (sub)
        bx_node_set_tuple(n, sub);
    else
        n->type = type;
    return g->n - 1;
}

int byoc_graph_set_attr(byoc_graph *g, int node, const char *name, const byoc_value *v,
                        byoc_error *err)
{
    if (!valid_node(g, node) || g->nodes[node].kind != BYOC_N_CALL) {
        bx_error_set(err, NULL, 0, 0, "node %d is not an operator call", node);
        return -1;
    }
    bx_node *n = &g->nodes[node];
    if (!n->op) {
        bx_error_set(err, NULL, 0, 0, "'%s' is an opaque call and has no attributes", n->opname);
        return -1;
    }
    int i = byoc_op_attr_index(n->op, name);
    if (i < 0) {
        bx_suggest s;
        char hint[160];
        bx_suggest_init(&s, name);
        for (int k = 0; k < n->op->nattrs; k++)
            bx_suggest_offer(&s, n->op->attrs[k].name);
        bx_error_set(err, NULL, 0, 0, "%s has no attribute '%s'%s", n->op->name,
                     name ? name : "", bx_suggest_hint(&s, hint, sizeof hint));
        return -1;
    }
    const byoc_attr_decl *a = &n->op->attrs[i];
    if (!v || !bx_value_accepts(v, &a->type)) {
        char want[64], got[64];
        byoc_type_format(&a->type, want, sizeof want);
        bx_error_set(err, NULL, 0, 0, "attribute '%s' of %s has type %s, not %s", name,
                     n->op->name, want, bx_value_type_name(v, got, sizeof got));
        return -1;
    }
    byoc_value copy;
    bx_value_copy_into(&copy, v, bx_arena_alloc(&g->arena, bx_value_copy_size(v)));
    bx_value_coerce(&copy, &a->type);
    n->attrs[i] = copy;
    return 0;
}

void byoc_graph_set_type(byoc_graph *g, int node, const byoc_tensor_type *t)
{
    if (!valid_node(g, node))
        return;
    byoc_tensor_type c = clean_type(t);
    bx_node_set_tensor(&g->nodes[node], &c);
}

int byoc_graph_set_tuple_type(byoc_graph *g, int node, const byoc_tensor_type *fields, int n,
                              byoc_error *err)
{
    if (!valid_node(g, node)) {
        bx_error_set(err, NULL, 0, 0, "node %d does not exist", node);
        return -1;
    }
    if (n < 0 || (n > 0 && !fields)) {
        bx_error_set(err, NULL, 0, 0, "bad tuple type for node %d", node);
        return -1;
    }
    byoc_tuple_type t = {.n = n, .fields = fields, .sub = NULL, .depth = 1};
    return bx_graph_set_tuple(g, node, &t, err);
}

int byoc_graph_symbol(byoc_graph *g, const char *name)
{
    if (!g || !name)
        return -1;
    void *v = bx_hash_get(&g->symbols, name);
    if (v)
        return (int)((uintptr_t)v - 1);
    if (g->nsymbols == g->capsymbols) {
        int cap = g->capsymbols ? g->capsymbols * 2 : 16;
        const char **names = realloc(g->symbol_names, (size_t)cap * sizeof(*names));
        if (!names)
            bx_oom();
        g->symbol_names = names;
        int64_t *values = realloc(g->symbol_values, (size_t)cap * sizeof(*values));
        if (!values)
            bx_oom();
        g->symbol_values = values;
        bool *seen = realloc(g->symbol_seen, (size_t)cap * sizeof(*seen));
        if (!seen)
            bx_oom();
        g->symbol_seen = seen;
        g->capsymbols = cap;
    }
    const char *copy = bx_arena_strdup(&g->arena, name);
    g->symbol_names[g->nsymbols] = copy;
    g->symbol_values[g->nsymbols] = -1;
    g->symbol_seen[g->nsymbols] = true;
    bx_hash_put(&g->symbols, copy, (void *)(uintptr_t)(g->nsymbols + 1));
    return g->nsymbols++;
}

const char *byoc_graph_symbol_name(const byoc_graph *g, int id)
{
    return g && id >= 0 && id < g->nsymbols ? g->symbol_names[id] : NULL;
}

int byoc_graph_symbol_count(const byoc_graph *g) { return g ? g->nsymbols : 0; }

int64_t byoc_graph_symbol_value(const byoc_graph *g, int id)
{
    return g && id >= 0 && id < g->nsymbols ? g->symbol_values[id] : -1;
}

long byoc_graph_folded_count(const byoc_graph *g) { return g ? g->folded : 0; }

/* ---- sizes fixed before reading ----------------------------------------- */

/* Sizes past this are a typo, not a model (2^40 elements on one axis). */
#define BX_MAX_BOUND_DIM ((int64_t)1 << 40)

static int bind_one(byoc_graph *g, const char *name, int64_t value, const char *what,
                    byoc_error *err)
{
    if (!name || !name[0]) {
        bx_error_set(err, NULL, 0, 0, "%s: a dimension needs a name", what);
        return -1;
    }
    if (value < 0 || value > BX_MAX_BOUND_DIM) {
        bx_error_set(err, NULL, 0, 0, "%s: size %lld of '%s' is not between 0 and 2^40", what,
                     (long long)value, name);
        return -1;
    }
    bool fresh = !bx_hash_get(&g->symbols, name);
    int id = byoc_graph_symbol(g, name);
    if (fresh)
        g->symbol_seen[id] = false;
    if (g->symbol_values[id] >= 0 && g->symbol_values[id] != value) {
        bx_error_set(err, NULL, 0, 0, "%s: '%s' is bound to both %lld and %lld", what, name,
                     (long long)g->symbol_values[id], (long long)value);
        return -1;
    }
    g->symbol_values[id] = value;
    return 0;
}

int bx_graph_bind(byoc_graph *g, const byoc_read_options *o, byoc_error *err)
{
    if (!o)
        return 0;
    for (size_t i = 0; i < o->ndims; i++)
        if (bind_one(g, o->dims[i].name, o->dims[i].value, "--dim", err) < 0)
            return -1;
    if (o->nshapes > (size_t)BYOC_MAX_FIELDS) {
        bx_error_set(err, NULL, 0, 0, "more than %d input shapes", BYOC_MAX_FIELDS);
        return -1;
    }
    g->input_shapes = BX_NEWN(&g->arena, struct bx_input_shape, o->nshapes + 1);
    for (size_t i = 0; i < o->nshapes; i++) {
        const byoc_input_shape *in = &o->shapes[i];
        if (!in->input || !in->input[0]) {
            bx_error_set(err, NULL, 0, 0, "--input-shape: an input needs a name");
            return -1;
        }
        if (in->rank < 0 || in->rank > BYOC_MAX_RANK) {
            bx_error_set(err, NULL, 0, 0, "--input-shape %s: %d axes; at most %d", in->input,
                         in->rank, BYOC_MAX_RANK);
            return -1;
        }
        for (int k = 0; k < in->rank; k++)
            if (in->dims[k] < 0 || in->dims[k] > BX_MAX_BOUND_DIM) {
                bx_error_set(err, NULL, 0, 0,
                             "--input-shape %s: size %lld on axis %d is not between 0 and 2^40",
                             in->input, (long long)in->dims[k], k);
                return -1;
            }
        for (int j = 0; j < g->ninput_shapes; j++)
            if (!strcmp(g->input_shapes[j].input, in->input)) {
                bx_error_set(err, NULL, 0, 0, "--input-shape: '%s' is given twice", in->input);
                return -1;
            }
        struct bx_input_shape *s = &g->input_shapes[g->ninput_shapes++];
        s->input = bx_arena_strdup(&g->arena, in->input);
        s->type.dtype = BYOC_DT_VOID;
        s->type.rank = in->rank;
        memcpy(s->type.dims, in->dims, sizeof(int64_t) * (size_t)in->rank);
    }
    return 0;
}

int bx_graph_symbol_seen(byoc_graph *g, const char *name)
{
    int id = byoc_graph_symbol(g, name);
    g->symbol_seen[id] = true;
    return id;
}

int64_t bx_graph_dim(byoc_graph *g, const char *name)
{
    int id = bx_graph_symbol_seen(g, name);
    return g->symbol_values[id] >= 0 ? g->symbol_values[id] : BYOC_DIM_SYMBOL(id);
}

/* Bound symbols in t read as their sizes. */
static void resolve_bound(const byoc_graph *g, byoc_tensor_type *t)
{
    for (int k = 0; k < t->rank; k++)
        if (t->dims[k] <= -2 && -2 - t->dims[k] < g->nsymbols
            && g->symbol_values[-2 - t->dims[k]] >= 0)
            t->dims[k] = g->symbol_values[-2 - t->dims[k]];
}

static void dim_text(const byoc_graph *g, int64_t d, char *buf, size_t size)
{
    if (d >= 0)
        snprintf(buf, size, "%lld", (long long)d);
    else if (d == BYOC_DIM_UNKNOWN)
        snprintf(buf, size, "?");
    else
        snprintf(buf, size, "'%s'", byoc_graph_symbol_name(g, (int)(-2 - d)));
}

int bx_graph_input_type(byoc_graph *g, const char *name, byoc_tensor_type *t, byoc_error *err)
{
    struct bx_input_shape *s = NULL;
    for (int j = 0; j < g->ninput_shapes && !s; j++)
        if (!strcmp(g->input_shapes[j].input, name))
            s = &g->input_shapes[j];
    if (!s) {
        resolve_bound(g, t);
        return 0;
    }
    s->used = true;
    if (t->rank >= 0 && t->rank != s->type.rank) {
        bx_error_set(err, NULL, 0, 0, "--input-shape %s: %d axes given, the model declares %d",
                     name, s->type.rank, t->rank);
        return -1;
    }
    for (int k = 0; t->rank >= 0 && k < t->rank; k++) {
        int64_t d = t->dims[k], want = s->type.dims[k];
        if (d >= 0 && d != want) {
            bx_error_set(err, NULL, 0, 0,
                         "--input-shape %s: axis %d is %lld in the model, not %lld", name, k,
                         (long long)d, (long long)want);
            return -1;
        }
        if (d <= -2) {
            int id = (int)(-2 - d);
            if (g->symbol_values[id] >= 0 && g->symbol_values[id] != want) {
                char buf[160];
                dim_text(g, d, buf, sizeof buf);
                bx_error_set(err, NULL, 0, 0,
                             "--input-shape %s: axis %d is %s, bound to %lld, not %lld", name, k,
                             buf, (long long)g->symbol_values[id], (long long)want);
                return -1;
            }
            g->symbol_values[id] = want;
        }
    }
    t->rank = s->type.rank;
    memcpy(t->dims, s->type.dims, sizeof(int64_t) * (size_t)t->rank);
    return 1;
}

int bx_graph_bind_check(const byoc_graph *g, byoc_error *err)
{
    for (int j = 0; j < g->ninput_shapes; j++)
        if (!g->input_shapes[j].used) {
            bx_error_set(err, NULL, 0, 0, "--input-shape: the model has no input '%s'",
                         g->input_shapes[j].input);
            return -1;
        }
    for (int id = 0; id < g->nsymbols; id++)
        if (!g->symbol_seen[id]) {
            char have[300];
            size_t at = 0;
            int listed = 0, more = 0;
            have[0] = '\0';
            for (int k = 0; k < g->nsymbols; k++) {
                if (!g->symbol_seen[k])
                    continue;
                size_t len = strlen(g->symbol_names[k]);
                if (listed < 8 && at + len + 3 < sizeof have) {
                    at += (size_t)snprintf(have + at, sizeof have - at, "%s%s",
                                           listed ? ", " : "", g->symbol_names[k]);
                    listed++;
                } else {
                    more++;
                }
            }
            bx_error_set(err, NULL, 0, 0,
                         "--dim %s: the model names no such dimension (%s%s%s%.0d%s)",
                         g->symbol_names[id], listed ? "it names " : "it names none", have,
                         more ? " and " : "", more, more ? " more" : "");
            return -1;
        }
    return 0;
}

/* ---- reading ----------------------------------------------------------- */

int byoc_graph_node_count(const byoc_graph *g) { return g ? g->n : 0; }

byoc_node_kind byoc_node_kind_of(const byoc_graph *g, int node)
{
    /* An invalid id is an internal error of the caller; INPUT is the
     * answer that makes the least happen. */
    return valid_node(g, node) ? g->nodes[node].kind : BYOC_N_INPUT;
}

const byoc_op_decl *byoc_node_op(const byoc_graph *g, int node)
{
    return valid_node(g, node) ? g->nodes[node].op : NULL;
}

int byoc_node_arg_count(const byoc_graph *g, int node)
{
    return valid_node(g, node) ? g->nodes[node].nargs : 0;
}

int byoc_node_arg(const byoc_graph *g, int node, int i)
{
    if (!valid_node(g, node) || i < 0 || i >= g->nodes[node].nargs)
        return -1;
    return g->nodes[node].args[i];
}

int byoc_node_proj_index(const byoc_graph *g, int node)
{
    return valid_node(g, node) && g->nodes[node].kind == BYOC_N_PROJ
               ? g->nodes[node].proj_index
               : -1;
}

const char *byoc_node_name(const byoc_graph *g, int node)
{
    return valid_node(g, node) ? g->nodes[node].name : NULL;
}

const byoc_value *byoc_node_attr_at(const byoc_graph *g, int node, int i)
{
    if (!valid_node(g, node) || g->nodes[node].kind != BYOC_N_CALL || !g->nodes[node].op
        || i < 0 || i >= g->nodes[node].op->nattrs)
        return NULL;
    return &g->nodes[node].attrs[i];
}

const byoc_value *byoc_node_attr(const byoc_graph *g, int node, const char *name)
{
    return byoc_node_attr_at(g, node, byoc_op_attr_index(byoc_node_op(g, node), name));
}

const byoc_value *byoc_node_const_value(const byoc_graph *g, int node)
{
    return valid_node(g, node) ? g->nodes[node].value : NULL;
}

const byoc_value *bx_node_const_flat(const byoc_graph *g, int node)
{
    return valid_node(g, node) ? g->nodes[node].flat : NULL;
}

int byoc_node_field_count(const byoc_graph *g, int node)
{
    return valid_node(g, node) ? g->nodes[node].nfields : -1;
}

const byoc_tuple_type *byoc_node_tuple_type(const byoc_graph *g, int node)
{
    return valid_node(g, node) ? g->nodes[node].tuple : NULL;
}

const byoc_tensor_type *byoc_node_type(const byoc_graph *g, int node, int field)
{
    if (!valid_node(g, node))
        return NULL;
    const bx_node *n = &g->nodes[node];
    if (field < 0)
        return n->nfields < 0 ? &n->type : NULL;
    return field < n->nfields ? &n->fields[field] : NULL;
}

/* ---- subgraphs --------------------------------------------------------------- */

int byoc_graph_add_subgraph(byoc_graph *g, int node, const char *name, byoc_graph *sub,
                            byoc_error *err)
{
    if (!valid_node(g, node) || g->nodes[node].kind != BYOC_N_CALL) {
        bx_error_set(err, NULL, 0, 0, "node %d is not a call, so it cannot hold a subgraph", node);
        return -1;
    }
    if (!sub || sub->parent) {
        bx_error_set(err, NULL, 0, 0, "%s", sub ? "the subgraph is already held by a call"
                                                : "no subgraph");
        return -1;
    }
    /* sub has no parent, so it is g's ancestor only as the root of g's
     * chain; refusing that keeps ownership a tree. */
    int depth = 0;
    for (const byoc_graph *p = g; p; p = p->parent, depth++)
        if (p == sub) {
            bx_error_set(err, NULL, 0, 0, "a graph cannot hold itself as a subgraph");
            return -1;
        }
    if (depth + sub->height > BYOC_MAX_GRAPH_DEPTH) {
        bx_error_set(err, NULL, 0, 0, "subgraphs would nest %d deep; at most %d",
                     depth + sub->height, BYOC_MAX_GRAPH_DEPTH);
        return -1;
    }
    bx_node *n = &g->nodes[node];
    if (n->nsubs == n->capsubs) {
        int cap = n->capsubs ? n->capsubs * 2 : 2;
        bx_subgraph *s = BX_NEWN(&g->arena, bx_subgraph, cap);
        if (n->nsubs)
            memcpy(s, n->subs, sizeof(*s) * (size_t)n->nsubs);
        n->subs = s;
        n->capsubs = cap;
    }
    n->subs[n->nsubs].name = bx_arena_strdup(&g->arena, name ? name : "");
    n->subs[n->nsubs++].graph = sub;
    sub->parent = g;
    int h = sub->height + 1;
    for (byoc_graph *p = g; p && p->height < h; p = p->parent, h++)
        p->height = h;
    return 0;
}

int byoc_node_subgraph_count(const byoc_graph *g, int node)
{
    return valid_node(g, node) ? g->nodes[node].nsubs : 0;
}

const byoc_graph *byoc_node_subgraph(const byoc_graph *g, int node, int i)
{
    if (!valid_node(g, node) || i < 0 || i >= g->nodes[node].nsubs)
        return NULL;
    return g->nodes[node].subs[i].graph;
}

const char *byoc_node_subgraph_name(const byoc_graph *g, int node, int i)
{
    if (!valid_node(g, node) || i < 0 || i >= g->nodes[node].nsubs)
        return NULL;
    return g->nodes[node].subs[i].name;
}

const byoc_graph *byoc_graph_parent(const byoc_graph *g) { return g ? g->parent : NULL; }

/* ---- opaque calls, outputs, names, consumers ----------------------------- */

int byoc_graph_add_opaque(byoc_graph *g, const char *op, const int *args, int nargs,
                          byoc_error *err)
{
    if (!g || !op || !*op) {
        bx_error_set(err, NULL, 0, 0, "an opaque call needs an op name");
        return -1;
    }
    if (!args_ok(g, args, nargs, op, err))
        return -1;
    bx_node *n = new_node(g, BYOC_N_CALL);
    n->opname = bx_arena_strdup(&g->arena, op);
    n->nargs = nargs;
    n->args = nargs ? bx_arena_memdup(&g->arena, args, sizeof(int) * (size_t)nargs) : NULL;
    return g->n - 1;
}

int byoc_graph_set_output(byoc_graph *g, int node, byoc_error *err)
{
    if (!valid_node(g, node)) {
        bx_error_set(err, NULL, 0, 0, "output node %d does not exist", node);
        return -1;
    }
    g->output = node;
    return 0;
}

int byoc_graph_output(const byoc_graph *g) { return g ? g->output : -1; }

void byoc_graph_set_name(byoc_graph *g, int node, const char *name)
{
    if (valid_node(g, node))
        g->nodes[node].name = name ? bx_arena_strdup(&g->arena, name) : NULL;
}

void byoc_graph_set_loc(byoc_graph *g, int node, int line, int col)
{
    if (valid_node(g, node)) {
        g->nodes[node].line = line;
        g->nodes[node].col = col;
    }
}

void byoc_graph_set_source(byoc_graph *g, const char *file)
{
    if (g)
        g->source = file ? bx_arena_strdup(&g->arena, file) : NULL;
}

const char *byoc_graph_source(const byoc_graph *g) { return g ? g->source : NULL; }

const char *byoc_node_op_name(const byoc_graph *g, int node)
{
    return valid_node(g, node) && g->nodes[node].kind == BYOC_N_CALL ? g->nodes[node].opname
                                                                    : NULL;
}

bool byoc_node_is_opaque(const byoc_graph *g, int node)
{
    return valid_node(g, node) && g->nodes[node].kind == BYOC_N_CALL && !g->nodes[node].op;
}

int byoc_node_line(const byoc_graph *g, int node)
{
    return valid_node(g, node) ? g->nodes[node].line : 0;
}

int byoc_node_col(const byoc_graph *g, int node)
{
    return valid_node(g, node) ? g->nodes[node].col : 0;
}

/* Counting sort of (arg -> user) edges: consumers come out in id order. */
static void build_consumers(const byoc_graph *cg)
{
    byoc_graph *g = (byoc_graph *)cg; /* a cache, not a change */
    if (g->cons_n == g->n)
        return;
    free(g->cons_start);
    free(g->cons);
    g->cons_start = calloc((size_t)g->n + 1, sizeof(int));
    int edges = 0;
    for (int i = 0; i < g->n; i++)
        edges += g->nodes[i].nargs;
    g->cons = malloc(sizeof(int) * (size_t)(edges ? edges : 1));
    if (!g->cons_start || !g->cons)
        bx_oom();
    for (int i = 0; i < g->n; i++)
        for (int k = 0; k < g->nodes[i].nargs; k++)
            g->cons_start[g->nodes[i].args[k] + 1]++;
    for (int i = 0; i < g->n; i++)
        g->cons_start[i + 1] += g->cons_start[i];
    int *fill = calloc((size_t)g->n + 1, sizeof(int));
    if (!fill)
        bx_oom();
    for (int i = 0; i < g->n; i++)
        for (int k = 0; k < g->nodes[i].nargs; k++) {
            int a = g->nodes[i].args[k];
            /* A node using the same argument twice is one consumer. */
            int at = g->cons_start[a] + fill[a];
            if (fill[a] > 0 && g->cons[at - 1] == i)
                continue;
            g->cons[at] = i;
            fill[a]++;
        }
    /* Compact the slots left by repeated arguments. */
    int out = 0;
    for (int i = 0; i < g->n; i++) {
        int start = g->cons_start[i];
        g->cons_start[i] = out;
        for (int k = 0; k < fill[i]; k++)
            g->cons[out++] = g->cons[start + k];
    }
    g->cons_start[g->n] = out;
    free(fill);
    g->cons_n = g->n;
}

int byoc_node_consumer_count(const byoc_graph *g, int node)
{
    if (!valid_node(g, node))
        return 0;
    build_consumers(g);
    return g->cons_start[node + 1] - g->cons_start[node];
}

int byoc_node_consumer(const byoc_graph *g, int node, int i)
{
    if (i < 0 || i >= byoc_node_consumer_count(g, node))
        return -1;
    return g->cons[g->cons_start[node] + i];
}

/* ---- notes ------------------------------------------------------------- */

void bx_graph_note(byoc_graph *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    char *s = bx_arena_alloc(&g->arena, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    if (g->nnotes == g->capnotes) {
        int cap = g->capnotes ? g->capnotes * 2 : 16;
        const char **v = realloc(g->notes, sizeof(*v) * (size_t)cap);
        if (!v)
            bx_oom();
        g->notes = v;
        g->capnotes = cap;
    }
    g->notes[g->nnotes++] = s;
}

int byoc_graph_note_count(const byoc_graph *g) { return g ? g->nnotes : 0; }

const char *byoc_graph_note(const byoc_graph *g, int i)
{
    return g && i >= 0 && i < g->nnotes ? g->notes[i] : NULL;
}
