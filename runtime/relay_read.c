/* Reading TVM's Relay text into a graph.
 *
 * The parser calls the builders below as it reduces; they turn Relay's
 * names into graph node ids (parameters and `%N` locals share one scope, as
 * in TVM's printer), make scalar literals and `meta[relay.Constant][i]`
 * into constants (one node per meta index), and check each call's
 * attributes against the op's declaration through the graph API.  Types
 * written in the text - parameters, meta constants, `ty=` annotations on
 * results - are set on the nodes; inference then fills in the rest and
 * checks the annotations against what it infers. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/relay.h>

#include "die.h"
#include "errfmt.h"
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
    return BYOC_DIM_SYMBOL(byoc_graph_symbol(r->g, name));
}

/* ---- builders ---------------------------------------------------------------- */

static void name_node(relay_reader *r, int node, const char *name, int line, int col)
{
    bx_hash_put(&r->locals, name, (void *)(intptr_t)(node + 1));
    byoc_graph_set_loc(r->g, node, line, col);
}

static int graph_error(relay_reader *r, const byoc_error *e, int line, int col)
{
    relay_error_at(r, line, col, "%s", e->msg);
    return -1;
}

int relay_param(relay_reader *r, const char *name, const relay_type *t, int line, int col)
{
    if (bx_hash_get(&r->locals, name)) {
        relay_error_at(r, line, col, "parameter %s is declared twice", name);
        return -1;
    }
    if (t->nfields >= 0) {
        relay_error_at(r, line, col, "parameter %s has a tuple type; byoc takes tensor parameters",
                       name);
        return -1;
    }
    byoc_error e;
    int n = byoc_graph_add_input(r->g, name + 1, &t->t, &e);
    if (n < 0)
        return graph_error(r, &e, line, col);
    name_node(r, n, name, line, col);
    return n;
}

int relay_local(relay_reader *r, const char *name, int line, int col)
{
    intptr_t v = (intptr_t)bx_hash_get(&r->locals, name);
    if (!v) {
        relay_error_at(r, line, col, "%s is not defined", name);
        return -1;
    }
    return (int)v - 1;
}

int relay_bind(relay_reader *r, const char *name, int node, int line, int col)
{
    if (bx_hash_get(&r->locals, name)) {
        relay_error_at(r, line, col, "%s is defined twice", name);
        return -1;
    }
    /* `%5 = %3;` makes %5 another name for node %3, as in TVM. */
    bx_hash_put(&r->locals, name, (void *)(intptr_t)(node + 1));
    if (!byoc_node_name(r->g, node) || byoc_node_kind_of(r->g, node) != BYOC_N_INPUT) {
        byoc_graph_set_name(r->g, node, name);
        byoc_graph_set_loc(r->g, node, line, col);
    }
    return node;
}

int relay_meta(relay_reader *r, long index, int line, int col)
{
    if (index < 0 || index > 10000000) {
        relay_error_at(r, line, col, "meta constant index %ld out of range", index);
        return -1;
    }
    if (index >= r->nmeta) {
        int n = (int)index + 1 > r->nmeta * 2 ? (int)index + 1 : r->nmeta * 2;
        int *m = realloc(r->meta, sizeof(int) * (size_t)n);
        if (!m)
            bx_die("out of memory");
        memset(m + r->nmeta, 0, sizeof(int) * (size_t)(n - r->nmeta));
        r->meta = m;
        r->nmeta = n;
    }
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

int relay_scalar(relay_reader *r, const relay_number_t *n, bool negate, int line, int col)
{
    /* Relay's defaults for unsuffixed literals: int32 and float32. */
    byoc_dtype dt = n->dtype >= 0 ? (byoc_dtype)n->dtype
                    : n->is_float ? BYOC_DT_FLOAT32 : BYOC_DT_INT32;
    byoc_value v = relay_value_number(n, negate);
    if (n->dtype >= 0 && byoc_dtype_class(dt) == 'f' && v.kind == BYOC_V_INT) {
        double f = (double)v.u.i;
        v.kind = BYOC_V_FLOAT;
        v.u.f = f;
    }
    return scalar_const(r, dt, &v, line, col);
}

int relay_bool(relay_reader *r, bool b, int line, int col)
{
    byoc_value v = {.kind = BYOC_V_BOOL, .u.b = b};
    return scalar_const(r, BYOC_DT_BOOL, &v, line, col);
}

int relay_call(relay_reader *r, const char *op, relay_item *items, int line, int col)
{
    int args[64], nargs = 0;
    for (relay_item *it = items; it; it = it->next) {
        if (it->attr)
            continue;
        if (nargs == 64) {
            relay_error_at(r, it->line, it->col, "too many arguments to %s", op);
            return -1;
        }
        args[nargs++] = it->node;
    }
    byoc_error e;
    int node = byoc_graph_add_call(r->g, op, nargs ? args : NULL, nargs, &e);
    if (node < 0)
        return graph_error(r, &e, line, col);
    byoc_graph_set_loc(r->g, node, line, col);
    for (relay_item *it = items; it; it = it->next) {
        if (!it->attr)
            continue;
        for (relay_item *p = items; p != it; p = p->next)
            if (p->attr && strcmp(p->attr, it->attr) == 0) {
                relay_error_at(r, it->line, it->col, "attribute '%s' given twice", it->attr);
                return -1;
            }
        if (byoc_graph_set_attr(r->g, node, it->attr, &it->value, &e) != 0)
            return graph_error(r, &e, it->line, it->col);
    }
    return node;
}

int relay_tuple(relay_reader *r, relay_item *items, int line, int col)
{
    int fields[256], n = 0;
    for (relay_item *it = items; it; it = it->next) {
        if (n == 256) {
            relay_error_at(r, line, col, "tuple too long");
            return -1;
        }
        fields[n++] = it->node;
    }
    byoc_error e;
    int node = byoc_graph_add_tuple(r->g, fields, n, &e);
    if (node < 0)
        return graph_error(r, &e, line, col);
    byoc_graph_set_loc(r->g, node, line, col);
    return node;
}

int relay_proj(relay_reader *r, int tuple, const relay_number_t *index, int line, int col)
{
    if (index->is_float || index->i > 65535) {
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

static bool type_equal(const byoc_tensor_type *a, const byoc_tensor_type *b)
{
    if (a->dtype != b->dtype || a->rank != b->rank)
        return false;
    for (int i = 0; i < a->rank && i < BYOC_MAX_RANK; i++)
        if (a->dims[i] != b->dims[i])
            return false;
    return true;
}

static bool type_known(const byoc_tensor_type *t)
{
    return t->rank >= 0 && t->dtype != BYOC_DT_VOID;
}

/* A ty= comment after an expression: a constant or call takes the type
 * (inference then checks a call's); anything else must already have it. */
int relay_annotate(relay_reader *r, int node, const relay_type *t, int line, int col)
{
    byoc_node_kind k = byoc_node_kind_of(r->g, node);
    if (t->nfields >= 0) {
        if (k == BYOC_N_CALL) {
            byoc_error e;
            if (byoc_graph_set_tuple_type(r->g, node, t->fields, t->nfields, &e) != 0)
                return graph_error(r, &e, line, col);
        }
        return node;
    }
    const byoc_tensor_type *have = byoc_node_type(r->g, node, -1);
    if (k == BYOC_N_CONST || k == BYOC_N_CALL) {
        if (k == BYOC_N_CONST && have && type_known(have) && !type_equal(have, &t->t)) {
            relay_error_at(r, line, col, "this constant was declared with another type before");
            return -1;
        }
        byoc_graph_set_type(r->g, node, &t->t);
    } else if (have && type_known(have) && !type_equal(have, &t->t)) {
        relay_error_at(r, line, col, "the annotated type differs from the node's type");
        return -1;
    }
    return node;
}

int relay_result(relay_reader *r, int node, const relay_type *declared, int line, int col)
{
    byoc_error e;
    if (byoc_graph_set_output(r->g, node, &e) != 0)
        return graph_error(r, &e, line, col);
    r->ret = declared; /* checked after inference */
    r->ret_line = line;
    r->ret_col = col;
    return node;
}

/* Does the output's inferred type agree with the declared one?  Unknown
 * (untyped) results are not a disagreement: inference reported them. */
static bool result_matches(const byoc_graph *g, const relay_type *want)
{
    int out = byoc_graph_output(g);
    int nf = byoc_node_field_count(g, out);
    if (want->nfields < 0) {
        if (nf >= 0)
            return false;
        const byoc_tensor_type *t = byoc_node_type(g, out, -1);
        return !t || !type_known(t) || type_equal(t, &want->t);
    }
    if (nf < 0)
        return !type_known(byoc_node_type(g, out, -1));
    if (nf != want->nfields)
        return false;
    for (int i = 0; i < nf; i++) {
        const byoc_tensor_type *t = byoc_node_type(g, out, i);
        if (t && type_known(t) && !type_equal(t, &want->fields[i]))
            return false;
    }
    return true;
}

/* ---- the public entry points ------------------------------------------------------ */

static byoc_graph *read_text(const byoc_registry *reg, const char *text, size_t len,
                             const char *name, byoc_error *err)
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
    bx_hash_init(&r.locals);
    byoc_error_clear(err);
    int rc = relay_parse(&r, text, len);
    if (rc == 0 && byoc_graph_infer_types(r.g, err) != 0)
        rc = -1;
    if (rc == 0 && r.ret && !result_matches(r.g, r.ret)) {
        bx_error_set(err, name, r.ret_line, r.ret_col,
                     "the result's type differs from the type @main declares");
        rc = -1;
    }
    bx_hash_free(&r.locals);
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

byoc_graph *byoc_relay_read_string(const byoc_registry *reg, const char *text, size_t len,
                                   const char *name, byoc_error *err)
{
    if (!reg || !text) {
        bx_error_set(err, name, 0, 0, "no registry or no text");
        return NULL;
    }
    return read_text(reg, text, len, name ? name : "<string>", err);
}

byoc_graph *byoc_relay_read(const byoc_registry *reg, const char *path, byoc_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        bx_error_set(err, path, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    if (!buf)
        bx_die("out of memory");
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb)
                bx_die("out of memory");
            buf = nb;
        }
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        bx_error_set(err, path, 0, 0, "cannot read the file");
        return NULL;
    }
    byoc_graph *g = read_text(reg, buf, n, path, err);
    free(buf);
    return g;
}
