/* Code generation: the checked module as C.
 *
 * Everything becomes static const data with designated initializers -
 * values, op declarations, devices, links, pattern node arrays, targets -
 * plus one C function per `where` predicate, so nothing is interpreted at
 * run time.  Output depends only on the input: no timestamps, no paths
 * beyond the source's file name, tables in declaration order.
 *
 * Nested data (list values, the arrays a table points to) must be defined
 * before the table that uses it, so each table is built in a string buffer
 * while the arrays it needs are written out first.
 *
 * What is made is counted, and past BYOCC_MAX_OUTPUT bytes nothing more
 * is: check.c bounds how much expansion makes, but not how long the
 * strings are that it repeats. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/pred.h>
#include <byoc/version.h>

#include "ast.h"
#include "die.h"
#include "strbuf.h"

/* ---- string builder ------------------------------------------------------ */

typedef bx_strbuf sb;
#define sb_printf bx_sb_printf
#define sb_free bx_sb_free

typedef struct emitter {
    compilation *c;
    FILE *out;
    int counter;            /* for unique names of helper arrays */
    const char *mod;
    size_t produced;        /* bytes made so far, some counted twice */
    bool too_big;           /* past BYOCC_MAX_OUTPUT: make nothing more */
    loc at, big_at;         /* what is being written; where it got too big */
} emitter;

#define A (&em->c->arena)

/* Count n more bytes of output before making them: false, and they should
 * not be made, once there are too many. */
static bool produce(emitter *em, size_t n)
{
    if (em->too_big)
        return false;
    em->produced += n;
    if (em->produced > BYOCC_MAX_OUTPUT) {
        em->too_big = true;
        em->big_at = em->at;
        return false;
    }
    return true;
}

static void out(emitter *em, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(emitter *em, const char *fmt, ...)
{
    if (em->too_big)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(em->out, fmt, ap);
    va_end(ap);
    if (n > 0)
        produce(em, (size_t)n);
}

/* Write a buffer whose text was counted as it was made. */
static void flush(emitter *em, sb *b)
{
    if (b->len && !em->too_big)
        fwrite(b->s, 1, b->len, em->out);
    b->len = 0;
}

static const char *const dt_enum[] = {
#define BYOC_DTYPE(id, name, bits, cls) "BYOC_DT_" #id,
#include <byoc/dtypes.def>
#undef BYOC_DTYPE
};

static const char *const vkind_enum[] = {
    "BYOC_V_NONE", "BYOC_V_BOOL", "BYOC_V_INT", "BYOC_V_FLOAT",
    "BYOC_V_STRING", "BYOC_V_DTYPE", "BYOC_V_VERSION", "BYOC_V_LIST",
};

/* A C string literal.  A '?' after a '?' is escaped: "??=" is a trigraph
 * in strict C. */
static const char *cstr(emitter *em, const char *s)
{
    if (!s)
        return "NULL";
    size_t n = strlen(s);
    if (!produce(em, n))
        return "\"\"";
    char *o = bx_arena_alloc(A, n * 4 + 3), *p = o;
    *p++ = '"';
    for (const char *s0 = s; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '?' && s > s0 && s[-1] == '?') {
            *p++ = '\\';
            *p++ = '?';
        } else if (ch == '"' || ch == '\\') {
            *p++ = '\\';
            *p++ = (char)ch;
        } else if (ch == '\n') {
            *p++ = '\\';
            *p++ = 'n';
        } else if (ch == '\t') {
            *p++ = '\\';
            *p++ = 't';
        } else if (ch < 0x20 || ch >= 0x7f) {
            p += sprintf(p, "\\%03o", ch);
        } else {
            *p++ = (char)ch;
        }
    }
    *p++ = '"';
    *p = 0;
    return o;
}

static const char *cdouble(emitter *em, double d)
{
    if (isinf(d))
        return d > 0 ? "HUGE_VAL" : "(-HUGE_VAL)";
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", d);
    /* Shortest text that reads back exactly. */
    for (int prec = 1; prec <= 17; prec++) {
        char t[64];
        snprintf(t, sizeof t, "%.*g", prec, d);
        if (strtod(t, NULL) == d) {
            strcpy(buf, t);
            break;
        }
    }
    if (!strpbrk(buf, ".eEn"))
        strcat(buf, ".0");
    return bx_arena_strdup(A, buf);
}

static const char *cint(emitter *em, int64_t i)
{
    if (i == INT64_MIN)
        return "(-INT64_C(9223372036854775807) - 1)";
    if (i < 0)
        return bx_arena_printf(A, "-INT64_C(%" PRId64 ")", -i);
    return bx_arena_printf(A, "INT64_C(%" PRId64 ")", i);
}

static const char *cversion(emitter *em, uint64_t v)
{
    return bx_arena_printf(A, "BYOC_VERSION(%u, %u, %u)", (unsigned)(v >> 32),
                           (unsigned)((v >> 16) & 0xffff), (unsigned)(v & 0xffff));
}

/* The initializer of a value; list items are written out first. */
static const char *cvalue(emitter *em, const byoc_value *v)
{
    const char *k = vkind_enum[v->kind];
    switch (v->kind) {
    case BYOC_V_NONE: return "{ .kind = BYOC_V_NONE }";
    case BYOC_V_BOOL: return bx_arena_printf(A, "{ .kind = %s, .u.b = %s }", k, v->u.b ? "true" : "false");
    case BYOC_V_INT: return bx_arena_printf(A, "{ .kind = %s, .u.i = %s }", k, cint(em, v->u.i));
    case BYOC_V_FLOAT: return bx_arena_printf(A, "{ .kind = %s, .u.f = %s }", k, cdouble(em, v->u.f));
    case BYOC_V_STRING: return bx_arena_printf(A, "{ .kind = %s, .u.s = %s }", k, cstr(em, v->u.s));
    case BYOC_V_DTYPE: return bx_arena_printf(A, "{ .kind = %s, .u.dt = %s }", k, dt_enum[v->u.dt]);
    case BYOC_V_VERSION: return bx_arena_printf(A, "{ .kind = %s, .u.ver = %s }", k, cversion(em, v->u.ver));
    case BYOC_V_LIST: {
        if (v->u.list.n == 0)
            return "{ .kind = BYOC_V_LIST, .u.list = { .items = NULL, .n = 0 } }";
        const char **items = BX_NEWN(A, const char *, v->u.list.n);
        for (size_t i = 0; i < v->u.list.n; i++)
            items[i] = cvalue(em, &v->u.list.items[i]);
        int id = em->counter++;
        out(em, "static const byoc_value v%d[] = {\n", id);
        for (size_t i = 0; i < v->u.list.n; i++)
            out(em, "    %s,\n", items[i]);
        out(em, "};\n");
        return bx_arena_printf(A, "{ .kind = BYOC_V_LIST, .u.list = { .items = v%d, .n = %zu } }",
                               id, v->u.list.n);
    }
    }
    bx_die("bad value kind");
}

static const char *ctype(emitter *em, const byoc_type_desc *t)
{
    sb b = {0};
    sb_printf(&b, "{ .base = %s", vkind_enum[t->base]);
    if (t->depth)
        sb_printf(&b, ", .depth = %d", t->depth);
    if (t->optional)
        sb_printf(&b, ", .optional = 1");
    if (t->has_alt)
        sb_printf(&b, ", .has_alt = 1, .alt_base = %s, .alt_depth = %d", vkind_enum[t->alt_base],
                  t->alt_depth);
    sb_printf(&b, " }");
    const char *r = bx_arena_strdup(A, b.s);
    sb_free(&b);
    return r;
}

static void banner_rule(emitter *em, const char *title)
{
    out(em, "\n/* ---- %s ---- */\n\n", title);
}

/* ---- ops --------------------------------------------------------------------- */

static void emit_ops(emitter *em, file_ast *f, int *nops)
{
    sb table = {0};
    int n = 0;
    for (int i = 0; i < f->decls.n; i++) {
        decl *d = f->decls.v[i];
        if (d->kind != D_OP)
            continue;
        if (n == 0)
            banner_rule(em, "ops");
        const char *inputs = "NULL", *attrs = "NULL";
        if (d->inputs.n) {
            int id = em->counter++;
            out(em, "static const byoc_input_decl in%d[] = {\n", id);
            for (int k = 0; k < d->inputs.n; k++) {
                input_ast *in = d->inputs.v[k];
                out(em, "    { .name = %s%s },\n", cstr(em, in->name),
                        in->tuple ? ", .tuple = true" : "");
            }
            out(em, "};\n");
            inputs = bx_arena_printf(A, "in%d", id);
        }
        if (d->attrs.n) {
            sb ab = {0};
            for (int k = 0; k < d->attrs.n; k++) {
                attr_ast *at = d->attrs.v[k];
                byoc_value *def = at->def ? at->def->sym : NULL;
                sb_printf(&ab, "    { .name = %s, .type = %s", cstr(em, at->name),
                          ctype(em, &at->type.d));
                if (def && def->kind != BYOC_V_NONE)
                    sb_printf(&ab, ", .has_default = true, .def = %s", cvalue(em, def));
                else
                    sb_printf(&ab, ", .def = { .kind = BYOC_V_NONE }");
                sb_printf(&ab, " },\n");
            }
            int id = em->counter++;
            out(em, "static const byoc_attr_decl at%d[] = {\n", id);
            flush(em, &ab);
            out(em, "};\n");
            sb_free(&ab);
            attrs = bx_arena_printf(A, "at%d", id);
        }
        static const char *const kinds[] = {
            "BYOC_OPK_ELEMWISE", "BYOC_OPK_BROADCAST", "BYOC_OPK_INJECTIVE",
            "BYOC_OPK_REDUCE", "BYOC_OPK_OUT_ELEMWISE_FUSABLE", "BYOC_OPK_OPAQUE",
        };
        sb_printf(&table,
                  "    {\n        .name = %s,\n        .kind = %s,\n"
                  "        .ninputs = %d, .inputs = %s,\n        .nattrs = %d, .attrs = %s,\n"
                  "        .shape_rule = %s, .flops_rule = %s,\n    },\n",
                  cstr(em, d->name), kinds[d->opkind], d->inputs.n, inputs, d->attrs.n, attrs,
                  cstr(em, d->shape_rule), cstr(em, d->flops_rule));
        n++;
    }
    if (n) {
        out(em, "\nstatic const byoc_op_decl ops[] = {\n");
        flush(em, &table);
        out(em, "};\n");
    }
    sb_free(&table);
    *nops = n;
}

/* ---- devices and links -------------------------------------------------------- */

static double param(decl *d, const char *key, double def)
{
    for (int i = 0; i < d->params.n; i++) {
        param_ast *p = d->params.v[i];
        if (!p->sub && strcmp(p->key, key) == 0)
            return p->value->kind == E_INT ? (double)p->value->i
                   : p->value->kind == E_FLOAT ? p->value->f : def;
    }
    return def;
}

static double param_value(compilation *c, expr *e)
{
    byoc_value v;
    if (!const_value(c, e, &v, &c->arena))
        return 0;
    return v.kind == BYOC_V_INT ? (double)v.u.i : v.u.f;
}

static void emit_devices(emitter *em, file_ast *f, int *ndev, int *nlinks)
{
    sb table = {0};
    int n = 0;
    for (int i = 0; i < f->decls.n; i++) {
        decl *d = f->decls.v[i];
        if (d->kind != D_DEVICE)
            continue;
        if (n == 0)
            banner_rule(em, "devices");
        int npeaks = 0;
        const char *peaks = "NULL";
        for (int k = 0; k < d->params.n; k++)
            npeaks += ((param_ast *)d->params.v[k])->sub != NULL;
        if (npeaks) {
            int id = em->counter++;
            out(em, "static const byoc_peak pk%d[] = {\n", id);
            for (int k = 0; k < d->params.n; k++) {
                param_ast *p = d->params.v[k];
                if (p->sub)
                    out(em, "    { .dtype = %s, .flops = %s },\n",
                            dt_enum[byoc_dtype_lookup(p->sub)],
                            cdouble(em, param_value(em->c, p->value)));
            }
            out(em, "};\n");
            peaks = bx_arena_printf(A, "pk%d", id);
        }
        double bw = 0, launch = 0, units = 0, grain = 0, inner = 0;
        for (int k = 0; k < d->params.n; k++) {
            param_ast *p = d->params.v[k];
            if (!p->sub && !strcmp(p->key, "bandwidth"))
                bw = param_value(em->c, p->value);
            if (!p->sub && !strcmp(p->key, "launch"))
                launch = param_value(em->c, p->value);
            if (!p->sub && !strcmp(p->key, "units"))
                units = param_value(em->c, p->value);
            if (!p->sub && !strcmp(p->key, "grain"))
                grain = param_value(em->c, p->value);
            if (!p->sub && !strcmp(p->key, "inner_launch"))
                inner = param_value(em->c, p->value);
        }
        sb_printf(&table, "    { .name = %s, .npeaks = %d, .peaks = %s, .bandwidth = %s, .launch = %s",
                  cstr(em, d->name), npeaks, peaks, cdouble(em, bw), cdouble(em, launch));
        if (units > 0 || grain > 0 || inner > 0)
            sb_printf(&table, ",\n      .units = %d, .grain = %s, .inner_launch = %s", (int)units,
                      cdouble(em, grain), cdouble(em, inner));
        sb_printf(&table, " },\n");
        n++;
    }
    if (n) {
        out(em, "\nstatic const byoc_device_decl devices[] = {\n");
        flush(em, &table);
        out(em, "};\n");
    }
    *ndev = n;
    n = 0;
    for (int i = 0; i < f->decls.n; i++) {
        decl *d = f->decls.v[i];
        if (d->kind != D_LINK)
            continue;
        double bw = 0, lat = 0;
        for (int k = 0; k < d->params.n; k++) {
            param_ast *p = d->params.v[k];
            if (!strcmp(p->key, "bandwidth"))
                bw = param_value(em->c, p->value);
            if (!strcmp(p->key, "latency"))
                lat = param_value(em->c, p->value);
        }
        sb_printf(&table, "    { .from = %s, .to = %s, .both_ways = %s, .bandwidth = %s, .latency = %s },\n",
                  cstr(em, d->name), cstr(em, d->to), d->both_ways ? "true" : "false",
                  cdouble(em, bw), cdouble(em, lat));
        n++;
    }
    if (n) {
        out(em, "\nstatic const byoc_link_decl links[] = {\n");
        flush(em, &table);
        out(em, "};\n");
    }
    *nlinks = n;
    sb_free(&table);
    (void)param;
}

/* ---- predicates ----------------------------------------------------------------- */

typedef struct pctx {
    emitter *em;
    decl *target;
    int pid;            /* pattern id, for helper names */
    int nquant;
    sb pre;             /* quantifier helpers, written before the predicate */
    sb *o;              /* where cexpr writes */
    int qtypes[16];     /* types of quantifier variables in scope */
    int nq;
} pctx;

/* An expression is written into one growing buffer, operands in place,
 * so that its text costs its length and no more, however deep it is. */
static void cexpr(pctx *p, expr *e);

static void put(pctx *p, const char *s)
{
    if (produce(p->em, strlen(s)))
        sb_printf(p->o, "%s", s);
}

/* e's text in a buffer of its own, for text that goes elsewhere or twice. */
static void cexpr_to(pctx *p, expr *e, sb *to)
{
    sb *save = p->o;
    p->o = to;
    cexpr(p, e);
    p->o = save;
}

/* How a quantifier variable is held in C: ints and tensors directly,
 * other items as values. */
static const char *qvar_ty(int t)
{
    return t == T_INT ? "int64_t" : t == T_TENSOR ? "byoc_tref" : "const byoc_value *";
}

/* Reading a value pointer as type t: this, the pointer, then ")". */
static const char *from_value(int t)
{
    switch (t) {
    case T_BOOL: return "byoc_ev_bool(ev, ";
    case T_INT: return "byoc_ev_int(ev, ";
    case T_FLOAT: return "byoc_ev_float(ev, ";
    case T_STRING: return "byoc_ev_str(ev, ";
    case T_DTYPE: return "byoc_ev_dt(ev, ";
    case T_VERSION: return "byoc_ev_ver(ev, ";
    default: return "byoc_ev_seq_values(ev, ";
    }
}

static void as_double(pctx *p, expr *e)
{
    put(p, "(double)(");
    cexpr(p, e);
    put(p, ")");
}

/* A candidate's inputs, outputs or nodes: inputs() and the like. */
static bool is_part_seq(const expr *e)
{
    return e->kind == E_CALL && !e->sym && e->items.n == 0;
}

static bool is_var(const expr *e, int d0, int d1)
{
    return e->kind == E_NAME && (e->qvar == d0 || e->qvar == d1);
}

/* Does e read the quantifier variables d0 and d1 only through their types
 * and constness (dtype, shape, rank, numel, is_const of the variable
 * itself) and by comparing them with each other, and call no extern
 * predicate?  Then two elements with equal types and constness are
 * interchangeable in e, which byoc_ev_all_pairs relies on. */
static bool type_only(const expr *e, int d0, int d1)
{
    if (!e)
        return true;
    switch (e->kind) {
    case E_INT: case E_FLOAT: case E_STR: case E_BOOL: case E_VERSION: case E_NONE:
        return true;
    case E_NAME:
        return !is_var(e, d0, d1);
    case E_CALL: {
        if (e->sym)
            return false;
        static const char *const of_type[] = {"dtype", "shape", "rank", "numel", "is_const"};
        if (e->items.n == 1 && is_var(e->items.v[0], d0, d1)) {
            for (size_t i = 0; i < sizeof of_type / sizeof of_type[0]; i++)
                if (!strcmp(e->s, of_type[i]))
                    return true;
            return false;
        }
        for (int i = 0; i < e->items.n; i++)
            if (!type_only(e->items.v[i], d0, d1))
                return false;
        return true;
    }
    case E_BINARY:
        if ((e->op == OP_EQ || e->op == OP_NE) && is_var(e->a, d0, d1) && is_var(e->b, d0, d1))
            return true;
        return type_only(e->a, d0, d1) && type_only(e->b, d0, d1);
    case E_MEMBER:
        return e->opt >= 0 || type_only(e->a, d0, d1);
    case E_IN_SET:
    case E_LIST:
        for (int i = 0; i < e->items.n; i++)
            if (!type_only(e->items.v[i], d0, d1))
                return false;
        return type_only(e->a, d0, d1);
    case E_QUANT: case E_UNARY: case E_INDEX: case E_IN_RANGE: case E_OPALT: case E_MACRO:
        return type_only(e->a, d0, d1) && type_only(e->b, d0, d1) && type_only(e->c, d0, d1);
    default:
        return false;
    }
}

/* all(a in S: all(b in S: body)) over one of the candidate's sequences,
 * at the top of a clause, with a body that sees a and b only through
 * their types (type_only): byoc_ev_all_pairs evaluates the body once per
 * pair of classes of equal type instead of once per pair of elements, with
 * the same result and the same undefined reads. */
static bool pair_form(const expr *e)
{
    const expr *in = e->b;
    return e->i == 1 && e->qvar == 0 && is_part_seq(e->a) && in->kind == E_QUANT && in->i == 1
           && in->qvar == 1 && is_part_seq(in->a) && in->a->i == e->a->i
           && type_only(in->b, 0, 1);
}

static void c_pairs(pctx *p, expr *e)
{
    emitter *em = p->em;
    int id = p->nquant++;
    sb seq = {0}, body = {0};
    cexpr_to(p, e->a, &seq);
    p->qtypes[0] = p->qtypes[1] = T_TENSOR;
    p->nq = 2;
    cexpr_to(p, e->b->b, &body);
    p->nq = 0;
    if (produce(em, body.len + 128))
        sb_printf(&p->pre, "static bool q%d_%d(byoc_eval *ev, byoc_tref qv0, byoc_tref qv1)\n{\n"
                           "    return %s;\n}\n\n", p->pid, id, bx_sb_str(&body));
    put(p, bx_arena_printf(A, "byoc_ev_all_pairs(ev, %s, q%d_%d)", bx_sb_str(&seq), p->pid, id));
    sb_free(&seq);
    sb_free(&body);
}

static void c_quant(pctx *p, expr *e)
{
    emitter *em = p->em;
    if (pair_form(e)) {
        c_pairs(p, e);
        return;
    }
    int id = p->nquant++;
    int depth = e->qvar;
    p->qtypes[depth] = 0; /* set below */
    /* element type from the sequence type */
    int st = e->a->ty;
    int elem = st == T_LIST_INT ? T_INT : st == T_LIST_FLOAT ? T_FLOAT
               : st == T_LIST_STRING ? T_STRING : st == T_LIST_BOOL ? T_BOOL
               : st == T_LIST_DTYPE ? T_DTYPE : st == T_LIST_LIST_INT ? T_LIST_INT : T_TENSOR;
    sb seq = {0}, body = {0};
    cexpr_to(p, e->a, &seq);
    p->qtypes[depth] = elem;
    p->nq = depth + 1;
    cexpr_to(p, e->b, &body);
    p->nq = depth;
    const char *b = bx_sb_str(&body);
    sb fn = {0};
    const char *rty = e->i != 2 ? "bool" : e->ty == T_INT ? "int64_t" : "double";
    sb_printf(&fn, "static %s q%d_%d(byoc_eval *ev, byoc_seq s", rty, p->pid, id);
    for (int i = 0; i < depth; i++)
        sb_printf(&fn, ", %s qv%d", qvar_ty(p->qtypes[i]), i);
    sb_printf(&fn, ")\n{\n");
    /* The outer variables are passed whether or not the body reads them. */
    for (int i = 0; i < depth; i++)
        sb_printf(&fn, "    (void)qv%d;\n", i);
    sb_printf(&fn, "    int64_t n = byoc_ev_seq_len(ev, s);\n");
    if (e->i == 2)
        sb_printf(&fn, "    %s acc = 0;\n", rty);
    sb_printf(&fn, "    for (int64_t i = 0; i < n; i++) {\n");
    const char *get = elem == T_INT ? "byoc_ev_seq_int" : elem == T_TENSOR ? "byoc_ev_seq_tensor"
                                                                         : "byoc_ev_seq_value";
    sb_printf(&fn, "        %s qv%d = %s(ev, s, i);\n", qvar_ty(elem), depth, get);
    if (e->i == 2 && e->ty == T_INT)
        sb_printf(&fn, "        acc = byoc_ev_add(ev, acc, %s);\n    }\n    return acc;\n}\n\n", b);
    else if (e->i == 2)
        sb_printf(&fn, "        acc += %s;\n    }\n    return acc;\n}\n\n", b);
    else if (e->i)
        sb_printf(&fn, "        if (!(%s))\n            return false;\n    }\n    return true;\n}\n\n", b);
    else
        sb_printf(&fn, "        if (%s)\n            return true;\n    }\n    return false;\n}\n\n", b);
    if (produce(em, fn.len))
        sb_printf(&p->pre, "%s", fn.s);
    sb_free(&fn);
    sb_free(&body);
    put(p, bx_arena_printf(A, "q%d_%d(ev, ", p->pid, id));
    put(p, bx_sb_str(&seq));
    sb_free(&seq);
    for (int i = 0; i < depth; i++)
        put(p, bx_arena_printf(A, ", qv%d", i));
    put(p, ")");
}

static void c_list_literal(pctx *p, expr *e)
{
    emitter *em = p->em;
    byoc_value v;
    if (!const_value(em->c, e, &v, A)) {
        put(p, "byoc_ev_seq_values(ev, NULL)");
        return;
    }
    int id = em->counter++;
    /* Write the items into pre as well, so they precede the function. */
    FILE *save = em->out;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        bx_oom();
    em->out = mem;
    const char *init = cvalue(em, &v);
    out(em, "static const byoc_value l%d = %s;\n", id, init);
    if (fclose(mem) != 0)
        bx_oom();
    em->out = save;
    if (!em->too_big)
        sb_printf(&p->pre, "%s", buf);
    free(buf);
    put(p, bx_arena_printf(A, "byoc_ev_seq_values(ev, &l%d)", id));
}

static void c_set(pctx *p, expr *e)
{
    int at = e->a->ty;
    bool any_float = at == T_FLOAT;
    for (int i = 0; i < e->items.n; i++)
        any_float |= ((expr *)e->items.v[i])->ty == T_FLOAT;
    int n = e->items.n;
    const char *count = bx_arena_printf(&p->em->c->arena, "}, %d)", n);
    if (at == T_INT || at == T_FLOAT) {
        put(p, any_float ? "byoc_ev_in_float((double)(" : "byoc_ev_in_int(");
        cexpr(p, e->a);
        put(p, any_float ? "), (const double[]){" : ", (const int64_t[]){");
        for (int i = 0; i < n; i++) {
            put(p, i ? ", " : "");
            if (any_float)
                as_double(p, e->items.v[i]);
            else
                cexpr(p, e->items.v[i]);
        }
        put(p, count);
    } else if (at == T_STRING || at == T_OP || at == T_DTYPE) {
        put(p, at == T_DTYPE ? "byoc_ev_in_dt(" : "byoc_ev_in_str(");
        cexpr(p, e->a);
        put(p, at == T_DTYPE ? ", (const byoc_dtype[]){" : ", (const char *const[]){");
        for (int i = 0; i < n; i++) {
            put(p, i ? ", " : "");
            cexpr(p, e->items.v[i]);
        }
        put(p, count);
    } else {
        /* Lists compare item by item; the others as C values. */
        bool list = at >= T_LIST_INT && at <= T_LIST_TENSOR;
        sb a = {0};
        cexpr_to(p, e->a, &a);
        put(p, "(");
        for (int i = 0; i < n; i++) {
            put(p, i ? " || " : "");
            put(p, list ? "byoc_ev_seq_eq(ev, " : "((");
            put(p, bx_sb_str(&a));
            put(p, list ? ", " : ") == (");
            cexpr(p, e->items.v[i]);
            put(p, list ? ")" : "))");
        }
        put(p, n ? ")" : "false)");
        sb_free(&a);
    }
}

/* Collect the op names of an op set (a | b | c).  A chain is as deep as it
 * is long: the walk keeps its own stack. */
static void opset_names(expr *e, vec *out, bx_arena *a)
{
    vec todo = {0};
    vec_push(a, &todo, e);
    while (todo.n) {
        expr *x = todo.v[--todo.n];
        if (x->kind == E_OPALT) {
            vec_push(a, &todo, x->b);
            vec_push(a, &todo, x->a);
        } else {
            vec_push(a, out, (void *)x->s);
        }
    }
}

static void c_eq(pctx *p, expr *e)
{
    int t = e->a->ty, u = e->b->ty;
    const char *open, *mid, *close;
    if (t == T_STRING || t == T_OP)
        open = "byoc_ev_str_eq(", mid = ", ", close = ")";
    else if (t == T_TENSOR)
        open = "byoc_ev_tref_eq(", mid = ", ", close = ")";
    else if (t >= T_LIST_INT && t <= T_LIST_TENSOR)
        open = "byoc_ev_seq_eq(ev, ", mid = ", ", close = ")";
    else if (t != u)
        open = "((double)(", mid = ") == (double)(", close = "))";
    else
        open = "((", mid = ") == (", close = "))";
    if (e->op == OP_NE)
        put(p, "!");
    put(p, open);
    cexpr(p, e->a);
    put(p, mid);
    cexpr(p, e->b);
    put(p, close);
}

/* Integer + - * and unary - on values known only at run time go through
 * checked helpers: an overflow makes the clause false, as a division by
 * zero does.  Constants were folded, and checked, by check.c. */
static const char *checked_op(int op)
{
    return op == '+' ? "byoc_ev_add(ev, " : op == '-' ? "byoc_ev_sub(ev, " : "byoc_ev_mul(ev, ";
}

static void cexpr(pctx *p, expr *e)
{
    emitter *em = p->em;
    if (em->too_big)
        return;
    switch (e->kind) {
    case E_INT:
        put(p, cint(em, e->i));
        return;
    case E_FLOAT:
        put(p, cdouble(em, e->f));
        return;
    case E_STR:
        put(p, cstr(em, e->s));
        return;
    case E_BOOL:
        put(p, e->i ? "true" : "false");
        return;
    case E_VERSION:
        put(p, cversion(em, e->ver));
        return;
    case E_NAME:
        /* A quantifier variable first: one over a dtype[] is a dtype too. */
        if (e->qvar < 0 && e->ty == T_DTYPE) {
            put(p, dt_enum[e->dtype]);
        } else if (e->qvar < 0 && e->ty == T_OP) {
            put(p, cstr(em, e->s));
        } else if (e->qvar >= 0) {
            int t = p->qtypes[e->qvar];
            const char *v = bx_arena_printf(A, "qv%d", e->qvar);
            if (t == T_INT || t == T_TENSOR) {
                put(p, v);
            } else {
                put(p, from_value(t));
                put(p, v);
                put(p, ")");
            }
        } else {
            put(p, bx_arena_printf(A, "byoc_ev_slot(ev, %d)", e->slot));
        }
        return;
    case E_MEMBER:
        put(p, from_value(e->ty));
        if (e->opt >= 0) {
            put(p, bx_arena_printf(A, "byoc_ev_option(ev, %d)", e->opt));
        } else {
            put(p, "byoc_ev_attr(ev, ");
            cexpr(p, e->a);
            put(p, ", ");
            put(p, cstr(em, e->s));
            put(p, ")");
        }
        put(p, ")");
        return;
    case E_INDEX: {
        if (e->a->ty == T_STRING) {
            put(p, "byoc_ev_str_at(ev, ");
            cexpr(p, e->a);
            put(p, ", ");
            cexpr(p, e->b);
            put(p, ")");
            return;
        }
        bool value = e->ty != T_INT && e->ty != T_TENSOR;
        if (value)
            put(p, from_value(e->ty));
        put(p, e->ty == T_INT ? "byoc_ev_seq_int(ev, " : e->ty == T_TENSOR
                                ? "byoc_ev_seq_tensor(ev, " : "byoc_ev_seq_value(ev, ");
        cexpr(p, e->a);
        put(p, ", ");
        cexpr(p, e->b);
        put(p, value ? "))" : ")");
        return;
    }
    case E_CALL: {
        const char *f = e->s;
        if (e->sym) { /* extern predicate */
            decl *d = e->sym;
            if (e->items.n == 0) {
                put(p, bx_arena_printf(A, "%s(ev, NULL, 0)", d->name));
                return;
            }
            put(p, d->name);
            put(p, "(ev, (const byoc_tref[]){");
            for (int i = 0; i < e->items.n; i++) {
                put(p, i ? ", " : "");
                cexpr(p, e->items.v[i]);
            }
            put(p, bx_arena_printf(A, "}, %d)", e->items.n));
            return;
        }
        if (e->items.n == 0) { /* partition lists */
            put(p, e->i == BYOC_SEQ_NODES ? "byoc_ev_seq_part(ev, BYOC_SEQ_NODES)"
                   : e->i == BYOC_SEQ_PINPUTS ? "byoc_ev_seq_part(ev, BYOC_SEQ_PINPUTS)"
                                              : "byoc_ev_seq_part(ev, BYOC_SEQ_POUTPUTS)");
            return;
        }
        if (!strcmp(f, "contains") || !strcmp(f, "count")) {
            vec names = {0};
            opset_names(e->items.v[0], &names, A);
            bool contains = !strcmp(f, "contains");
            put(p, contains ? "(byoc_ev_count_ops(ev, (const char *const[]){"
                            : "byoc_ev_count_ops(ev, (const char *const[]){");
            for (int i = 0; i < names.n; i++) {
                put(p, i ? ", " : "");
                put(p, cstr(em, names.v[i]));
            }
            put(p, bx_arena_printf(A, "}, %d)%s", names.n, contains ? " > 0)" : ""));
            return;
        }
        if (!strcmp(f, "find") || !strcmp(f, "startswith") || !strcmp(f, "endswith")) {
            put(p, !strcmp(f, "find") ? "byoc_ev_str_find(ev, "
                   : !strcmp(f, "startswith") ? "byoc_ev_str_starts(ev, " : "byoc_ev_str_ends(ev, ");
            cexpr(p, e->items.v[0]);
            put(p, ", ");
            cexpr(p, e->items.v[1]);
            put(p, ")");
            return;
        }
        const char *fn = NULL;
        if (!strcmp(f, "len") && ((expr *)e->items.v[0])->ty == T_STRING) {
            fn = "byoc_ev_str_len";
        } else if (!strcmp(f, "abs")) {
            fn = e->ty == T_INT ? "byoc_ev_iabs" : "byoc_ev_fabs";
        } else {
            static const struct { const char *n, *c; } fns[] = {
                {"dtype", "byoc_ev_dtype"}, {"shape", "byoc_ev_seq_shape"},
                {"rank", "byoc_ev_rank"}, {"numel", "byoc_ev_numel"},
                {"is_const", "byoc_ev_is_const"}, {"value", "byoc_ev_value"},
                {"values", "byoc_ev_seq_data"}, {"range", "byoc_ev_seq_range"},
                {"inputs", "byoc_ev_seq_inputs"}, {"outputs", "byoc_ev_seq_outputs"},
                {"op", "byoc_ev_op"}, {"len", "byoc_ev_seq_len"},
            };
            for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
                if (!strcmp(f, fns[i].n))
                    fn = fns[i].c;
        }
        if (!fn)
            bx_die("unknown builtin");
        put(p, fn);
        put(p, "(ev, ");
        cexpr(p, e->items.v[0]);
        put(p, ")");
        return;
    }
    case E_QUANT:
        c_quant(p, e);
        return;
    case E_MACRO:
        cexpr(p, e->a);
        return;
    case E_UNARY:
        if (e->op == '-' && e->ty == T_INT && !e->cst) {
            put(p, "byoc_ev_neg(ev, ");
            cexpr(p, e->a);
            put(p, ")");
            return;
        }
        put(p, e->op == '!' ? "(!" : "(-");
        cexpr(p, e->a);
        put(p, ")");
        return;
    case E_BINARY: {
        int op = e->op;
        if (op == OP_EQ || op == OP_NE) {
            c_eq(p, e);
            return;
        }
        bool fl = e->a->ty == T_FLOAT || e->b->ty == T_FLOAT;
        const char *open = "(", *mid, *close = ")";
        switch (op) {
        case OP_AND: mid = " && "; break;
        case OP_OR: mid = " || "; break;
        case OP_LE: mid = " <= "; break;
        case OP_GE: mid = " >= "; break;
        case '/':
            open = fl ? "byoc_ev_fdiv(ev, (double)(" : "byoc_ev_div(ev, ";
            mid = fl ? "), (double)(" : ", ";
            close = fl ? "))" : ")";
            break;
        case '%': open = "byoc_ev_mod(ev, "; mid = ", "; break;
        case '+': case '-': case '*':
            if (!fl && !e->cst) {
                open = checked_op(op);
                mid = ", ";
                break;
            }
            /* fall through */
        default:
            mid = bx_arena_printf(A, " %c ", op);
            break;
        }
        put(p, open);
        cexpr(p, e->a);
        put(p, mid);
        cexpr(p, e->b);
        put(p, close);
        return;
    }
    case E_IN_SET:
        c_set(p, e);
        return;
    case E_IN_RANGE: {
        sb a = {0};
        cexpr_to(p, e->a, &a);
        put(p, "((");
        put(p, bx_sb_str(&a));
        put(p, ") >= (");
        cexpr(p, e->b);
        put(p, ") && (");
        put(p, bx_sb_str(&a));
        put(p, ") <= (");
        cexpr(p, e->c);
        put(p, "))");
        sb_free(&a);
        return;
    }
    case E_LIST:
        c_list_literal(p, e);
        return;
    default:
        bx_die("cannot emit this expression");
    }
}

/* Clause text in a C comment: no comment may end early, and none may open
 * inside it ("/" "*" warns under -Wcomment). */
static const char *ccomment(emitter *em, const char *s)
{
    if (!strstr(s, "*/") && !strstr(s, "/*"))
        return s;
    char *o = bx_arena_alloc(A, strlen(s) * 2 + 1), *q = o;
    for (; *s; s++) {
        *q++ = *s;
        if ((s[0] == '*' && s[1] == '/') || (s[0] == '/' && s[1] == '*'))
            *q++ = ' ';
    }
    *q = 0;
    return o;
}

/* Emit the predicate function of lp; returns its name, or NULL. */
static const char *emit_predicate(emitter *em, decl *t, lpattern *lp, const char *fname)
{
    if (!lp->where)
        return NULL;
    pctx p = {0};
    p.em = em;
    p.target = t;
    p.pid = lp->id;
    sb body = {0};
    p.o = &body;
    for (int i = 0; i < lp->clauses.n && !em->too_big; i++) {
        expr *cl = lp->clauses.v[i];
        if (produce(em, strlen(cl->text)))
            sb_printf(&body, "    /* %s */\n", ccomment(em, cl->text));
        put(&p, "    if (!");
        cexpr(&p, cl);
        put(&p, bx_arena_printf(A, " || ev->undef)\n        return byoc_ev_fail(ev, %d);\n", i));
    }
    flush(em, &p.pre);
    out(em, "static bool %s(byoc_eval *ev)\n{\n", fname);
    flush(em, &body);
    out(em, "    return true;\n}\n\n");
    sb_free(&body);
    sb_free(&p.pre);
    return fname;
}

static const char *emit_clauses(emitter *em, lpattern *lp)
{
    if (!lp->clauses.n)
        return "NULL";
    int id = em->counter++;
    out(em, "static const byoc_clause_decl cl%d[] = {\n", id);
    for (int i = 0; i < lp->clauses.n; i++) {
        expr *cl = lp->clauses.v[i];
        out(em, "    { .text = %s, .line = %d, .col = %d", cstr(em, cl->text), cl->at.line,
                cl->at.col);
        if (cl->via) {
            const char *base = cl->at.file ? strrchr(cl->at.file, '/') : NULL;
            out(em, ", .file = %s, .via = %s", cstr(em, base ? base + 1 : cl->at.file ? cl->at.file : ""),
                    cstr(em, cl->via));
        }
        out(em, " },\n");
    }
    out(em, "};\n");
    return bx_arena_printf(A, "cl%d", id);
}

/* ---- patterns ---------------------------------------------------------------------- */

static const char *emit_pattern(emitter *em, decl *t, lpattern *lp, file_ast *f)
{
    static const char *const kinds[] = {
        "BYOC_PAT_WILD", "BYOC_PAT_CALL", "BYOC_PAT_ALT", "BYOC_PAT_CONST",
        "BYOC_PAT_TUPLE", "BYOC_PAT_TUPLE_ANY", "BYOC_PAT_PROJ",
    };
    int id = lp->id;
    em->at = lp->at;
    out(em, "/* %s%s%s */\n", lp->name ? "pattern " : "supports rule",
            lp->name ? ccomment(em, lp->name) : "", "");
    sb nodes = {0};
    for (int i = 0; i < lp->nodes.n && !em->too_big; i++) {
        lpnode *n = lp->nodes.v[i];
        const char *ops = "NULL", *kids = "NULL", *attrs = "NULL", *value = "NULL";
        if (n->ops.n) {
            int k = em->counter++;
            out(em, "static const char *const o%d[] = {", k);
            for (int j = 0; j < n->ops.n; j++)
                out(em, "%s%s", j ? ", " : " ", cstr(em, n->ops.v[j]));
            out(em, " };\n");
            ops = bx_arena_printf(A, "o%d", k);
        }
        if (n->kids.n) {
            int k = em->counter++;
            out(em, "static const uint16_t k%d[] = {", k);
            for (int j = 0; j < n->kids.n; j++)
                out(em, "%s%d", j ? ", " : " ", (int)(intptr_t)n->kids.v[j]);
            out(em, " };\n");
            kids = bx_arena_printf(A, "k%d", k);
        }
        if (n->attrs.n) {
            const char **inits = BX_NEWN(A, const char *, n->attrs.n);
            for (int j = 0; j < n->attrs.n; j++)
                inits[j] = cvalue(em, n->attrs.v[j]);
            int k = em->counter++;
            out(em, "static const byoc_attr_eq ae%d[] = {\n", k);
            for (int j = 0; j < n->attrs.n; j++)
                out(em, "    { .name = %s, .value = %s },\n", cstr(em, n->attr_names.v[j]),
                        inits[j]);
            out(em, "};\n");
            attrs = bx_arena_printf(A, "ae%d", k);
        }
        if (n->value) {
            const char *init = cvalue(em, n->value);
            int k = em->counter++;
            out(em, "static const byoc_value cv%d = %s;\n", k, init);
            value = bx_arena_printf(A, "&cv%d", k);
        }
        sb_printf(&nodes, "    { .kind = %s", kinds[n->kind]);
        if (n->flags)
            sb_printf(&nodes, ", .flags = BYOC_PF_COMMUTE");
        sb_printf(&nodes, ", .slot = %d", n->slot);
        if (n->kind == BYOC_PAT_CONST && n->index >= 0)
            sb_printf(&nodes, ", .index = %s", dt_enum[n->index]);
        else
            sb_printf(&nodes, ", .index = %d", n->index);
        if (n->ops.n)
            sb_printf(&nodes, ", .nops = %d, .ops = %s", n->ops.n, ops);
        if (n->kids.n)
            sb_printf(&nodes, ", .nkids = %d, .kids = %s", n->kids.n, kids);
        if (n->attrs.n)
            sb_printf(&nodes, ", .nattrs = %d, .attrs = %s", n->attrs.n, attrs);
        if (n->value)
            sb_printf(&nodes, ", .value = %s", value);
        sb_printf(&nodes, " },\n");
    }
    out(em, "static const byoc_pnode pn%d[] = {\n", id);
    flush(em, &nodes);
    out(em, "};\n");
    sb_free(&nodes);
    if (lp->slot_names.n) {
        out(em, "static const byoc_slot_decl sl%d[] = {\n", id);
        for (int i = 0; i < lp->slot_names.n; i++)
            out(em, "    { .name = %s, .pnode = %d },\n", cstr(em, lp->slot_names.v[i]),
                    (int)(intptr_t)lp->slot_nodes.v[i]);
        out(em, "};\n");
    }
    const char *pred = emit_predicate(em, t, lp, bx_arena_printf(A, "pred%d", id));
    const char *clauses = emit_clauses(em, lp);
    out(em, "\n");
    sb d = {0};
    sb_printf(&d, "    {\n        .name = %s,\n", lp->name ? cstr(em, lp->name) : "NULL");
    sb_printf(&d, "        .root = %d, .nnodes = %d, .nodes = pn%d,\n", lp->root, lp->nodes.n, id);
    if (lp->slot_names.n)
        sb_printf(&d, "        .nslots = %d, .slots = sl%d,\n", lp->slot_names.n, id);
    if (pred)
        sb_printf(&d, "        .pred = { .fn = %s, .nclauses = %d, .clauses = %s },\n", pred,
                  lp->clauses.n, clauses);
    if (lp->efficiency > 0)
        sb_printf(&d, "        .efficiency = %s,\n", cdouble(em, lp->efficiency));
    sb_printf(&d, "        .file = %s, .line = %d, .col = %d,\n    },\n", cstr(em, f->base),
              lp->at.line, lp->at.col);
    const char *r = bx_arena_strdup(A, d.s);
    sb_free(&d);
    return r;
}

static const char *emit_pattern_table(emitter *em, decl *t, vec *pats, const char *prefix,
                                      file_ast *f)
{
    if (!pats->n)
        return "NULL";
    const char **entries = BX_NEWN(A, const char *, pats->n);
    for (int i = 0; i < pats->n; i++)
        entries[i] = em->too_big ? "" : emit_pattern(em, t, pats->v[i], f);
    int id = em->counter++;
    out(em, "static const byoc_pattern_decl %s%d[] = {\n", prefix, id);
    for (int i = 0; i < pats->n; i++)
        out(em, "%s", entries[i]);
    out(em, "};\n\n");
    return bx_arena_printf(A, "%s%d", prefix, id);
}

static void emit_targets(emitter *em, file_ast *f, int *ntargets)
{
    sb table = {0};
    int n = 0;
    static const char *const fusions[] = {"BYOC_FUSION_NONE", "BYOC_FUSION_TVM", "BYOC_FUSION_ANY"};
    for (int i = 0; i < f->decls.n; i++) {
        decl *t = f->decls.v[i];
        if (t->kind != D_TARGET)
            continue;
        em->at = t->name_at;
        banner_rule(em, bx_arena_printf(A, "target %s", t->name));
        target_info *ti = t->info;
        const char *opts = "NULL";
        if (t->options.n) {
            const char **inits = BX_NEWN(A, const char *, t->options.n);
            for (int k = 0; k < t->options.n; k++)
                inits[k] = cvalue(em, &((option_info *)t->options.v[k])->def);
            int id = em->counter++;
            out(em, "static const byoc_option_decl op%d[] = {\n", id);
            for (int k = 0; k < t->options.n; k++) {
                option_info *o = t->options.v[k];
                out(em, "    { .name = %s, .type = %s, .def = %s },\n", cstr(em, o->name),
                        ctype(em, &o->type), inits[k]);
            }
            out(em, "};\n\n");
            opts = bx_arena_printf(A, "op%d", id);
        }
        const char *rules = emit_pattern_table(em, t, &ti->rules, "ru", f);
        const char *pats = emit_pattern_table(em, t, &ti->patterns, "pa", f);
        const char *parts = "NULL";
        if (ti->partition.n) {
            const char **fns = BX_NEWN(A, const char *, ti->partition.n);
            const char **cls = BX_NEWN(A, const char *, ti->partition.n);
            for (int k = 0; k < ti->partition.n; k++) {
                lpattern *lp = ti->partition.v[k];
                fns[k] = emit_predicate(em, t, lp, bx_arena_printf(A, "part%d", lp->id));
                cls[k] = emit_clauses(em, lp);
            }
            int id = em->counter++;
            out(em, "static const byoc_predicate_decl pr%d[] = {\n", id);
            for (int k = 0; k < ti->partition.n; k++)
                out(em, "    { .fn = %s, .nclauses = %d, .clauses = %s },\n", fns[k],
                        ((lpattern *)ti->partition.v[k])->clauses.n, cls[k]);
            out(em, "};\n\n");
            parts = bx_arena_printf(A, "pr%d", id);
        }
        const char *passes = "NULL";
        if (ti->passes.n) {
            static const char *const points[] = {"BYOC_PASS_BEFORE", "BYOC_PASS_PARTITION",
                                                 "BYOC_PASS_AFTER"};
            int id = em->counter++;
            out(em, "static const byoc_pass_decl ps%d[] = {\n", id);
            for (int k = 0; k < ti->passes.n; k++) {
                pass_info *pi = ti->passes.v[k];
                out(em, "    { .name = %s, .point = %s, .fn = %s },\n", cstr(em, pi->name),
                        points[pi->point], pi->name);
            }
            out(em, "};\n\n");
            passes = bx_arena_printf(A, "ps%d", id);
        }
        sb_printf(&table, "    {\n        .name = %s,\n        .parent = %s,\n",
                  cstr(em, t->name), cstr(em, t->parent));
        if (t->parent_decl && t->parent_decl->kind == D_DEVICE)
            sb_printf(&table, "        .parent_is_device = true,\n");
        if (t->options.n)
            sb_printf(&table, "        .noptions = %d, .options = %s, .ninherited_options = %d,\n",
                      t->options.n, opts, t->ninherited);
        if (ti->fusion_set)
            sb_printf(&table, "        .fusion = %s, .fusion_set = true,\n", fusions[ti->fusion]);
        if (ti->max_depth)
            sb_printf(&table, "        .max_depth = %d,\n", ti->max_depth);
        if (ti->max_nodes)
            sb_printf(&table, "        .max_nodes = %d,\n", ti->max_nodes);
        if (ti->max_exits)
            sb_printf(&table, "        .max_exits = %d,\n", ti->max_exits);
        if (ti->efficiency > 0)
            sb_printf(&table, "        .efficiency = %s,\n", cdouble(em, ti->efficiency));
        if (ti->supports_all)
            sb_printf(&table, "        .supports_all = true,\n");
        if (ti->rules.n)
            sb_printf(&table, "        .nrules = %d, .rules = %s,\n", ti->rules.n, rules);
        if (ti->patterns.n)
            sb_printf(&table, "        .npatterns = %d, .patterns = %s,\n", ti->patterns.n, pats);
        if (ti->partition.n)
            sb_printf(&table, "        .npartition_rules = %d, .partition_rules = %s,\n",
                      ti->partition.n, parts);
        if (ti->runtime)
            sb_printf(&table, "        .runtime = %s,\n", cstr(em, ti->runtime));
        if (ti->passes.n)
            sb_printf(&table, "        .npasses = %d, .passes = %s,\n", ti->passes.n, passes);
        sb_printf(&table, "        .file = %s, .line = %d, .col = %d,\n    },\n", cstr(em, f->base),
                  t->name_at.line, t->name_at.col);
        n++;
    }
    if (n) {
        out(em, "static const byoc_target_decl targets[] = {\n");
        flush(em, &table);
        out(em, "};\n");
    }
    sb_free(&table);
    *ntargets = n;
}

/* ---- the module -------------------------------------------------------------------- */

int emit_c(compilation *c, FILE *cf, FILE *hf, const char *header_name)
{
    emitter e = {0}, *em = &e;
    em->c = c;
    em->out = cf;
    file_ast *f = c->main;
    em->at = (loc){f->path, 0, 0};
    em->mod = f->module;
    const char *M = f->module;

    /* The header. */
    char guard[256];
    snprintf(guard, sizeof guard, "BYOC_GENERATED_%s_H", M);
    for (char *g = guard; *g; g++)
        if (*g >= 'a' && *g <= 'z')
            *g = (char)(*g - 'a' + 'A');
    fprintf(hf, "/* Generated by byocc %s from %s.  DO NOT EDIT. */\n", BYOC_VERSION_STRING, f->base);
    fprintf(hf, "#ifndef %s\n#define %s\n\n", guard, guard);
    bool any_pass = false;
    for (int i = 0; i < f->decls.n; i++) {
        decl *d = f->decls.v[i];
        any_pass |= d->kind == D_EXTERN && d->lower;
    }
    fprintf(hf, "#include <byoc/version.h>\n#include <byoc/registry.h>\n#include <byoc/pred.h>\n");
    /* Whoever writes the passes needs their context. */
    if (any_pass)
        fprintf(hf, "#include <byoc/lower.h>\n");
    fprintf(hf, "\n");
    fprintf(hf, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    fprintf(hf, "/* The module's tables. */\nextern const byoc_module_decl byoc_module_%s;\n\n", M);
    fprintf(hf, "/* Register this module, and first the modules it imports, into reg.\n"
                " * Returns 0, or -1 with err filled. */\n");
    fprintf(hf, "int byoc_register_%s(byoc_registry *reg, byoc_error *err);\n", M);
    bool any_extern = false;
    for (int i = 0; i < f->decls.n; i++) {
        decl *d = f->decls.v[i];
        if (d->kind != D_EXTERN || d->lower)
            continue;
        if (!any_extern)
            fprintf(hf, "\n/* Extern predicates: the backend author writes these. */\n");
        any_extern = true;
        fprintf(hf, "byoc_extern_pred_fn %s;\n", d->name);
    }
    if (any_pass)
        fprintf(hf, "\n/* Lowering passes (<byoc/lower.h>): the backend author writes these. */\n");
    for (int i = 0; i < f->decls.n; i++) {
        decl *d = f->decls.v[i];
        if (d->kind == D_EXTERN && d->lower)
            fprintf(hf, "byoc_pass_fn %s;\n", d->name);
    }
    fprintf(hf, "\n#ifdef __cplusplus\n}\n#endif\n#endif\n");

    /* The code. */
    out(em, "/* Generated by byocc %s from %s.  DO NOT EDIT. */\n", BYOC_VERSION_STRING, f->base);
    out(em, "#include <math.h>\n#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n");
    out(em, "#include \"%s\"\n", header_name);
    /* Imported modules' register functions; externs from imported files. */
    vec mods = {0};
    bx_hash seen;
    bx_hash_init(&seen);
    for (int i = 0; i < f->imports.n; i++) {
        file_ast *g = f->imports.v[i];
        if (!bx_hash_get(&seen, g->module)) {
            bx_hash_put(&seen, g->module, g);
            vec_push(A, &mods, (void *)g->module);
        }
    }
    bx_hash_free(&seen);
    if (mods.n)
        out(em, "\n");
    for (int i = 0; i < mods.n; i++)
        out(em, "int byoc_register_%s(byoc_registry *reg, byoc_error *err);\n", (char *)mods.v[i]);
    for (size_t i = 0; i < c->externs.n; i++) {
        decl *d = c->externs.entries[i].val;
        if (d->file != f)
            out(em, "%s %s;\n", d->lower ? "byoc_pass_fn" : "byoc_extern_pred_fn", d->name);
    }

    int nops, ndev, nlinks, ntargets;
    emit_ops(em, f, &nops);
    emit_devices(em, f, &ndev, &nlinks);
    emit_targets(em, f, &ntargets);

    banner_rule(em, "module");
    if (mods.n) {
        out(em, "static const char *const imports[] = {");
        for (int i = 0; i < mods.n; i++)
            out(em, "%s%s", i ? ", " : " ", cstr(em, mods.v[i]));
        out(em, " };\n\n");
    }
    out(em, "const byoc_module_decl byoc_module_%s = {\n", M);
    out(em, "    .abi = BYOC_ABI_VERSION,\n    .name = %s,\n    .source = %s,\n", cstr(em, M),
            cstr(em, f->base));
    if (mods.n)
        out(em, "    .nimports = %d, .imports = imports,\n", mods.n);
    if (nops)
        out(em, "    .nops = %d, .ops = ops,\n", nops);
    if (ndev)
        out(em, "    .ndevices = %d, .devices = devices,\n", ndev);
    if (nlinks)
        out(em, "    .nlinks = %d, .links = links,\n", nlinks);
    if (ntargets)
        out(em, "    .ntargets = %d, .targets = targets,\n", ntargets);
    out(em, "};\n\n");
    out(em, "int byoc_register_%s(byoc_registry *reg, byoc_error *err)\n{\n", M);
    for (int i = 0; i < mods.n; i++)
        out(em, "    if (byoc_register_%s(reg, err) != 0)\n        return -1;\n", (char *)mods.v[i]);
    out(em, "    return byoc_registry_add(reg, &byoc_module_%s, err);\n}\n", M);
    if (em->too_big) {
        diag_error(&c->diag, em->big_at, "the generated code is too large (more than %d MiB)",
                   BYOCC_MAX_OUTPUT >> 20);
        return -1;
    }
    return 0;
}
