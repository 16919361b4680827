/* Semantic checks, and the lowering of patterns and predicates.
 *
 * Declarations are checked in file order; a target first checks its parent
 * so that it can flatten the inherited options in front of its own (an
 * option keeps its index down a refinement chain, which is what lets a
 * parent's compiled predicate read a child's option array).
 *
 * Patterns are lowered into DAGs of pattern nodes: `let`s are expanded at
 * each use with their parameters bound to the lowered argument (a parameter
 * used twice therefore means the same node), `for` families are expanded
 * into one pattern per combination of values, `op?(p, ...)` becomes an
 * alternative between the call and p, and names that are not ops or lets
 * become named wildcards.  Every name bound in a pattern gets a slot that
 * predicates read; so does every node referenced twice, which the matcher
 * must bind to one graph node.
 *
 * Predicates are typed here; emit_c.c can then translate them without
 * looking anything up.  Integer arithmetic on constants is folded as it
 * is typed: a division by zero or an overflow there is an error, never
 * undefined behaviour here or in the generated C.
 *
 * Expansion is where a small input becomes a large output - a let used
 * twice in a let used twice, a for family over several sets - so it is
 * counted: nodes and steps per pattern, patterns per family, and what all
 * expansions make together (BYOCC_MAX_* in ast.h); passing a limit is an
 * error at what was being expanded.  Lookups by name go through hash
 * tables, so that no count of declarations makes checking quadratic. */
#include <math.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include <byoc/pred.h>

#include "ast.h"
#include "die.h"
#include "strbuf.h"
#include "values.h"

/* ---- small helpers ----------------------------------------------------------- */

#define A (&c->arena)
#define ERR(at, ...) diag_error(&c->diag, (at), __VA_ARGS__)
#define NOTE(at, ...) diag_note(&c->diag, (at), __VA_ARGS__)

static const char *const opkind_names[] = {
    "elemwise", "broadcast", "injective", "reduce", "out_elemwise_fusable", "opaque",
};

byoc_op_kind op_kind_from_name(const char *s, bool *ok)
{
    for (int i = 0; i < 6; i++)
        if (strcmp(s, opkind_names[i]) == 0) {
            *ok = true;
            return (byoc_op_kind)i;
        }
    *ok = false;
    return BYOC_OPK_OPAQUE;
}

/* Stop: too many errors, or the expansion limit was passed. */
static bool stopped(compilation *c)
{
    return c->too_large || diag_stopped(&c->diag);
}

static void suggest_note(compilation *c, loc at, const suggester *sg)
{
    if (sg->best)
        NOTE(at, "did you mean '%s'?", sg->best);
}

static void suggest(compilation *c, loc at, const char *name, const char *const *names, int n)
{
    if (stopped(c))
        return;
    const char *s = diag_suggest(name, names, n);
    if (s)
        NOTE(at, "did you mean '%s'?", s);
}

static void suggest_hash(compilation *c, loc at, const char *name, const bx_hash *h)
{
    /* Each hint scans every name: only for the first errors, so that a
     * file of many mistakes against many names stays fast. */
    if (c->diag.errors > 20)
        return;
    if (stopped(c))
        return;
    suggester sg;
    suggest_begin(&sg, name);
    for (size_t i = 0; i < h->n; i++)
        suggest_offer(&sg, h->entries[i].key);
    suggest_note(c, at, &sg);
}

/* A hash table that check() frees when it is done. */
static bx_hash *new_index(compilation *c)
{
    bx_hash *h = BX_NEW(A, bx_hash);
    bx_hash_init(h);
    vec_push(A, &c->indexes, h);
    return h;
}

/* Count n more nodes made by expansion.  Past BYOCC_MAX_EXPANDED, one
 * error names what was being expanded, and checking stops. */
static bool charge(compilation *c, size_t n)
{
    if (c->too_large)
        return false;
    c->expanded += n;
    if (c->expanded <= BYOCC_MAX_EXPANDED)
        return true;
    ERR(c->expanding_at, "expanding %s makes the description too large (more than %d nodes "
        "in all)", c->expanding ? c->expanding : "this", BYOCC_MAX_EXPANDED);
    c->too_large = true;
    return false;
}

/* The items of a value, nested lists counted whole. */
static size_t value_size(const byoc_value *v)
{
    size_t n = 1;
    if (v->kind == BYOC_V_LIST)
        for (size_t i = 0; i < v->u.list.n; i++)
            n += value_size(&v->u.list.items[i]);
    return n;
}

/* ---- compile-time values --------------------------------------------------------- */

/* The type of a value as the language writes it: "int[]", "string". */
static const char *value_type_name(compilation *c, const byoc_value *v)
{
    char buf[128];
    return bx_arena_strdup(A, bx_value_type_name(v, buf, sizeof buf));
}

static const char *type_name(compilation *c, const byoc_type_desc *t)
{
    char buf[128];
    byoc_type_format(t, buf, sizeof buf);
    return bx_arena_strdup(A, buf);
}

bool const_value(compilation *c, expr *e, byoc_value *out, bx_arena *a)
{
    memset(out, 0, sizeof *out);
    switch (e->kind) {
    case E_INT:
        if (e->dtype >= 0 && byoc_dtype_class((byoc_dtype)e->dtype) == 'f') {
            out->kind = BYOC_V_FLOAT;
            out->u.f = (double)e->i;
        } else {
            out->kind = BYOC_V_INT;
            out->u.i = e->i;
        }
        return true;
    case E_FLOAT: out->kind = BYOC_V_FLOAT; out->u.f = e->f; return true;
    case E_STR: out->kind = BYOC_V_STRING; out->u.s = e->s; return true;
    case E_BOOL: out->kind = BYOC_V_BOOL; out->u.b = e->i != 0; return true;
    case E_VERSION: out->kind = BYOC_V_VERSION; out->u.ver = e->ver; return true;
    case E_NONE: out->kind = BYOC_V_NONE; return true;
    case E_NAME: {
        int dt = byoc_dtype_lookup(e->s);
        if (dt > 0) {
            out->kind = BYOC_V_DTYPE;
            out->u.dt = (byoc_dtype)dt;
            return true;
        }
        ERR(e->at, "'%s' is not a constant", e->s);
        return false;
    }
    case E_UNARY:
        if (e->op == '-' && const_value(c, e->a, out, a)) {
            if (out->kind == BYOC_V_INT) {
                out->u.i = -out->u.i;
                return true;
            }
            if (out->kind == BYOC_V_FLOAT) {
                out->u.f = -out->u.f;
                return true;
            }
            ERR(e->at, "'-' needs a number");
        } else if (e->op != '-') {
            ERR(e->at, "expected a constant");
        }
        return false;
    case E_LIST: {
        byoc_value *items = BX_NEWN(a, byoc_value, e->items.n + 1);
        bool ok = true;
        for (int i = 0; i < e->items.n; i++)
            ok &= const_value(c, e->items.v[i], &items[i], a);
        out->kind = BYOC_V_LIST;
        out->u.list.items = items;
        out->u.list.n = (size_t)e->items.n;
        return ok;
    }
    default:
        ERR(e->at, "expected a constant");
        return false;
    }
}

/* Convert v towards type t where the language allows it: a string names a
 * dtype, an int is a float. */
static void coerce(byoc_value *v, int base, int depth)
{
    if (v->kind == BYOC_V_LIST && depth > 0) {
        byoc_value *items = (byoc_value *)v->u.list.items;
        for (size_t i = 0; i < v->u.list.n; i++)
            coerce(&items[i], base, depth - 1);
        return;
    }
    if (depth != 0)
        return;
    if (base == BYOC_V_DTYPE && v->kind == BYOC_V_STRING) {
        int dt = byoc_dtype_lookup(v->u.s);
        if (dt >= 0) {
            v->kind = BYOC_V_DTYPE;
            v->u.dt = (byoc_dtype)dt;
        }
    } else if (base == BYOC_V_FLOAT && v->kind == BYOC_V_INT) {
        double f = (double)v->u.i;
        v->kind = BYOC_V_FLOAT;
        v->u.f = f;
    }
}

static bool conform(compilation *c, byoc_value *v, const byoc_type_desc *t)
{
    coerce(v, t->base, t->depth);
    if (!byoc_value_conforms(v, t) && t->has_alt)
        coerce(v, t->alt_base, t->alt_depth);
    return byoc_value_conforms(v, t);
}

static double number(compilation *c, expr *e, const char *what)
{
    byoc_value v;
    if (!const_value(c, e, &v, A))
        return NAN;
    if (v.kind == BYOC_V_INT)
        return (double)v.u.i;
    if (v.kind == BYOC_V_FLOAT)
        return v.u.f;
    ERR(e->at, "%s must be a number, not %s", what, value_type_name(c, &v));
    return NAN;
}

/* ---- ops ---------------------------------------------------------------------------- */

/* The attribute of op named name (the first, if declared twice), or NULL. */
static attr_ast *op_attr(compilation *c, decl *op, const char *name)
{
    if (!op->attr_index) {
        op->attr_index = new_index(c);
        for (int i = 0; i < op->attrs.n; i++) {
            attr_ast *a = op->attrs.v[i];
            if (!bx_hash_get(op->attr_index, a->name))
                bx_hash_put(op->attr_index, a->name, a);
        }
    }
    return bx_hash_get(op->attr_index, name);
}

/* "did you mean" among op's attributes. */
static void suggest_attr(compilation *c, loc at, const char *name, decl *op)
{
    if (stopped(c) || !op)
        return;
    suggester sg;
    suggest_begin(&sg, name);
    for (int j = 0; j < op->attrs.n; j++)
        suggest_offer(&sg, ((attr_ast *)op->attrs.v[j])->name);
    suggest_note(c, at, &sg);
}

static void check_op(compilation *c, decl *d)
{
    bool ok;
    d->opkind = op_kind_from_name(d->kind_name, &ok);
    if (!ok) {
        ERR(d->kind_at, "unknown op kind '%s'", d->kind_name);
        suggest(c, d->kind_at, d->kind_name, opkind_names, 6);
    }
    bx_hash seen;
    bx_hash_init(&seen);
    for (int i = 0; i < d->inputs.n && !stopped(c); i++) {
        input_ast *in = d->inputs.v[i];
        input_ast *o = bx_hash_get(&seen, in->name);
        if (o) {
            ERR(in->at, "duplicate input '%s' of op '%s'", in->name, d->name);
            NOTE(o->at, "previous input '%s' is here", o->name);
        } else {
            bx_hash_put(&seen, in->name, in);
        }
    }
    bx_hash_free(&seen);
    for (int i = 0; i < d->attrs.n && !stopped(c); i++) {
        attr_ast *at = d->attrs.v[i];
        attr_ast *o = op_attr(c, d, at->name);
        if (o != at) {
            ERR(at->at, "duplicate attribute '%s' of op '%s'", at->name, d->name);
            NOTE(o->at, "previous declaration of '%s' is here", o->name);
        }
        if (at->type.d.base == BYOC_V_VERSION && at->type.ok)
            ERR(at->type.at, "attributes cannot have type version");
        if (!at->def)
            continue;
        byoc_value *v = BX_NEW(A, byoc_value);
        if (!const_value(c, at->def, v, A))
            continue;
        if (v->kind == BYOC_V_NONE) {
            if (!at->type.d.optional)
                ERR(at->def->at, "attribute '%s' of type %s cannot default to None; "
                    "write '%s?' for an optional attribute",
                    at->name, type_name(c, &at->type.d), type_name(c, &at->type.d));
            continue;
        }
        if (at->type.ok && !conform(c, v, &at->type.d))
            ERR(at->def->at, "default value of attribute '%s' has type %s, not %s",
                at->name, value_type_name(c, v), type_name(c, &at->type.d));
        at->def->sym = v;
    }
    if (!d->shape_rule)
        ERR(d->name_at, "op '%s' has no shape rule", d->name);
    if (!d->flops_rule)
        ERR(d->name_at, "op '%s' has no flops rule", d->name);
}

/* ---- devices and links ---------------------------------------------------------------- */

static void check_params(compilation *c, decl *d, const char *const *keys, int nkeys)
{
    /* Keys, and flops' dtypes, given so far. */
    bx_hash given, peaks;
    bx_hash_init(&given);
    bx_hash_init(&peaks);
    for (int i = 0; i < d->params.n && !stopped(c); i++) {
        param_ast *p = d->params.v[i];
        bool known = false;
        for (int k = 0; k < nkeys; k++)
            known |= strcmp(p->key, keys[k]) == 0;
        if (!known) {
            ERR(p->at, "unknown %s parameter '%s'", d->kind == D_LINK ? "link" : "device", p->key);
            suggest(c, p->at, p->key, keys, nkeys);
            continue;
        }
        double v = number(c, p->value, p->key);
        if (!isnan(v) && !(v >= 0))
            ERR(p->value->at, "%s must not be negative", p->key);
        else if (!isnan(v) && !strcmp(p->key, "units") && !(v == floor(v) && v <= 1e6))
            ERR(p->value->at, "units must be a whole number of at most 1000000");
        if (p->sub) {
            int dt = byoc_dtype_lookup(p->sub);
            if (dt <= 0) {
                ERR(p->sub_at, "unknown dtype '%s'", p->sub);
                continue;
            }
            if (bx_hash_get(&peaks, p->sub))
                ERR(p->sub_at, "peak for '%s' given twice", p->sub);
            bx_hash_put(&peaks, p->sub, p);
        } else {
            if (bx_hash_get(&given, p->key))
                ERR(p->at, "'%s' given twice", p->key);
            bx_hash_put(&given, p->key, p);
        }
    }
    bx_hash_free(&given);
    bx_hash_free(&peaks);
}

static decl *lookup_place(compilation *c, const file_ast *f, const char *name, loc at,
                          decl_kind want, const char *what)
{
    decl *d = bx_hash_get(&c->devices, name);
    if (!d || !visible_from(f, d) || (want == D_DEVICE && d->kind != D_DEVICE)) {
        if (d && d->kind != want && want == D_DEVICE)
            ERR(at, "'%s' is a target, not a device", name);
        else
            ERR(at, "unknown %s '%s'", what, name);
        if (!d)
            suggest_hash(c, at, name, &c->devices);
        return NULL;
    }
    return d;
}

static void check_link(compilation *c, decl *d)
{
    static const char *const keys[] = {"bandwidth", "latency"};
    lookup_place(c, d->file, d->name, d->name_at, D_DEVICE, "device");
    lookup_place(c, d->file, d->to, d->to_at, D_DEVICE, "device");
    check_params(c, d, keys, 2);
    if (strcmp(d->name, d->to) == 0)
        ERR(d->to_at, "a link joins two different devices");
}

/* ---- targets ------------------------------------------------------------------------------ */

typedef struct scope scope;   /* pattern lowering state, below */
static void check_target(compilation *c, decl *d, int depth);
static lpattern *lower_pattern(compilation *c, decl *t, titem *it, pat *p, const char *name,
                               vec *genvars, vec *genvals);
static void check_where(compilation *c, decl *t, lpattern *lp, titem *it, bool partition,
                        vec *genvars, vec *genvals);

/* t's option index of name, or -1. */
static int option_index(decl *t, const char *name)
{
    intptr_t k = t->opt_index ? (intptr_t)bx_hash_get(t->opt_index, name) : 0;
    return (int)k - 1;
}

static option_info *find_option(decl *t, const char *name)
{
    int k = option_index(t, name);
    return k >= 0 ? t->options.v[k] : NULL;
}

static void add_option(compilation *c, decl *t, option_info *o)
{
    if (!t->opt_index)
        t->opt_index = new_index(c);
    vec_push(A, &t->options, o);
    bx_hash_put(t->opt_index, o->name, (void *)(intptr_t)t->options.n);
}

static void suggest_option(compilation *c, loc at, const char *name, decl *t)
{
    if (stopped(c))
        return;
    suggester sg;
    suggest_begin(&sg, name);
    for (int k = 0; k < t->options.n; k++)
        suggest_offer(&sg, ((option_info *)t->options.v[k])->name);
    suggest_note(c, at, &sg);
}

static const char *setting_names[] = {"fusion", "max_depth", "max_nodes", "max_exits",
                                      "efficiency", "runtime"};
#define NSETTINGS ((int)(sizeof setting_names / sizeof setting_names[0]))

/* runtime "onnxruntime:CUDAExecutionProvider"; */
static void check_runtime(compilation *c, decl *d, titem *it)
{
    target_info *ti = d->info;
    if (it->value->kind != E_STR) {
        ERR(it->value->at, "runtime must be a string, such as \"onnxruntime:CPUExecutionProvider\"");
        return;
    }
    if (!*it->value->s) {
        ERR(it->value->at, "runtime must not be empty");
        return;
    }
    if (ti->runtime) {
        ERR(it->at, "runtime given twice");
        NOTE(ti->runtime_at, "first given here");
        return;
    }
    ti->runtime = it->value->s;
    ti->runtime_at = it->at;
}

static void check_setting(compilation *c, decl *d, titem *it)
{
    target_info *ti = d->info;
    int k = -1;
    for (int i = 0; i < NSETTINGS; i++)
        if (strcmp(it->name, setting_names[i]) == 0)
            k = i;
    if (k < 0) {
        ERR(it->name_at, "unknown target setting '%s'", it->name);
        suggest(c, it->name_at, it->name, setting_names, NSETTINGS);
        return;
    }
    if (k == 5) {
        check_runtime(c, d, it);
        return;
    }
    if (k == 0) {
        static const char *const styles[] = {"none", "tvm", "any"};
        const char *s = it->value->kind == E_NAME ? it->value->s : NULL;
        int st = -1;
        for (int i = 0; s && i < 3; i++)
            if (strcmp(s, styles[i]) == 0)
                st = i;
        if (st < 0) {
            ERR(it->value->at, "fusion style must be none, tvm or any");
            if (s)
                suggest(c, it->value->at, s, styles, 3);
            return;
        }
        if (ti->fusion_set)
            ERR(it->at, "fusion style given twice");
        ti->fusion = (byoc_fusion)st;
        ti->fusion_set = true;
        return;
    }
    double v = number(c, it->value, it->name);
    if (isnan(v))
        return;
    if (k == 4) {
        if (!(v > 0 && v <= 1))
            ERR(it->value->at, "efficiency must be in (0, 1]");
        ti->efficiency = v;
        return;
    }
    if (v != floor(v) || v < 1 || v > 1e6) {
        ERR(it->value->at, "%s must be a positive integer", it->name);
        return;
    }
    if (k == 1)
        ti->max_depth = (int)v;
    else if (k == 2)
        ti->max_nodes = (int)v;
    else
        ti->max_exits = (int)v;
}

static void check_options(compilation *c, decl *d)
{
    if (d->parent_decl && d->parent_decl->kind == D_TARGET) {
        /* Each target of a chain copies every option above it: counted
         * like expansion, so a long chain under many options is bounded. */
        c->expanding = bx_arena_printf(A, "the options target '%s' inherits", d->name);
        c->expanding_at = d->parent_at;
        if (!charge(c, (size_t)d->parent_decl->options.n))
            return;
        for (int i = 0; i < d->parent_decl->options.n; i++) {
            option_info *o = BX_NEW(A, option_info);
            *o = *(option_info *)d->parent_decl->options.v[i];
            add_option(c, d, o);
        }
    }
    d->ninherited = d->options.n;
    for (int i = 0; i < d->items.n && !stopped(c); i++) {
        titem *it = d->items.v[i];
        if (it->kind != TI_OPTION && it->kind != TI_OPTION_SET)
            continue;
        option_info *prev = find_option(d, it->name);
        byoc_value v;
        bool have = it->value && const_value(c, it->value, &v, A);
        if (it->kind == TI_OPTION) {
            if (prev) {
                if (prev->owner == d) {
                    ERR(it->name_at, "redefinition of option '%s'", it->name);
                    NOTE(prev->at, "previous definition of '%s' is here", it->name);
                } else {
                    ERR(it->name_at, "option '%s' is already declared by '%s'", it->name,
                        prev->owner->name);
                    NOTE(prev->at, "declared here; write 'option %s = value;' to change "
                         "its default", it->name);
                }
                continue;
            }
            option_info *o = BX_NEW(A, option_info);
            o->name = it->name;
            o->type = it->type.d;
            o->owner = d;
            o->at = it->name_at;
            if (have && it->type.ok) {
                if (v.kind == BYOC_V_NONE)
                    ERR(it->value->at, "option '%s' needs a default value, not None", it->name);
                else if (!conform(c, &v, &it->type.d))
                    ERR(it->value->at, "default of option '%s' has type %s, not %s", it->name,
                        value_type_name(c, &v), type_name(c, &it->type.d));
            }
            if (have)
                o->def = v;
            add_option(c, d, o);
        } else {
            if (!prev) {
                ERR(it->name_at, "target '%s' has no option '%s' to set", d->name, it->name);
                suggest_option(c, it->name_at, it->name, d);
                continue;
            }
            if (have && !conform(c, &v, &prev->type)) {
                ERR(it->value->at, "option '%s' has type %s, not %s", it->name,
                    type_name(c, &prev->type), value_type_name(c, &v));
                continue;
            }
            /* A new default for an inherited option: copy the info. */
            option_info *o = BX_NEW(A, option_info);
            *o = *prev;
            if (have)
                o->def = v;
            d->options.v[option_index(d, it->name)] = o;
        }
    }
}

/* byoc_pass_point_name's words; byocc does not link libbyoc. */
static const char *point_word(byoc_pass_point p)
{
    return p == BYOC_PASS_BEFORE ? "before" : p == BYOC_PASS_AFTER ? "after" : "partition";
}

/* lower [before|after] NAME;  NAME must be an `extern lower` the target's
 * file sees; a target names a pass at most once per point. */
static void check_lower(compilation *c, decl *d, titem *it, bx_hash *given)
{
    decl *ex = bx_hash_get(&c->externs, it->name);
    if (!ex || !visible_from(d->file, ex)) {
        ERR(it->name_at, "unknown lower pass '%s'", it->name);
        if (ex || stopped(c))
            return;   /* declared in a file this one does not import */
        suggester sg;
        suggest_begin(&sg, it->name);
        for (size_t i = 0; i < c->externs.n; i++) {
            decl *e = c->externs.entries[i].val;
            if (e->lower)
                suggest_offer(&sg, e->name);
        }
        if (sg.best)
            NOTE(it->name_at, "did you mean '%s'?", sg.best);
        else
            NOTE(it->name_at, "a pass is declared at file level: 'extern lower %s;'", it->name);
        return;
    }
    if (!ex->lower) {
        ERR(it->name_at, "'%s' is an extern predicate, not a lower pass", it->name);
        NOTE(ex->name_at, "'%s' is declared here", it->name);
        return;
    }
    target_info *ti = d->info;
    const char *key = bx_arena_printf(A, "%s %s", point_word(it->point), it->name);
    pass_info *prev = bx_hash_get(given, key);
    if (prev) {
        ERR(it->name_at, "pass '%s' given twice at point '%s' in target '%s'", it->name,
            point_word(it->point), d->name);
        NOTE(prev->at, "first given here");
        return;
    }
    pass_info *p = BX_NEW(A, pass_info);
    p->name = ex->name;
    p->point = it->point;
    p->at = it->name_at;
    vec_push(A, &ti->passes, p);
    bx_hash_put(given, key, p);
}

/* The lets a target body can use: its own, then file-level ones visible
 * from its file. */
static titem *target_let(compilation *c, decl *t, const char *name)
{
    if (!t->let_index) {
        t->let_index = new_index(c);
        for (int i = 0; i < t->items.n; i++) {
            titem *it = t->items.v[i];
            if (it->kind == TI_LET && !bx_hash_get(t->let_index, it->let->name))
                bx_hash_put(t->let_index, it->let->name, it);
        }
    }
    return bx_hash_get(t->let_index, name);
}

static let_ast *find_let(compilation *c, decl *t, const char *name)
{
    if (t) {
        titem *it = target_let(c, t, name);
        if (it)
            return it->let;
    }
    decl *d = bx_hash_get(&c->lets, name);
    if (d && (!t || visible_from(t->file, d)))
        return d->let;
    return NULL;
}

static void check_pred_decl(compilation *c, pred_ast *pm);

/* The predicate macros a target can use: its own, then file-level ones
 * visible from its file. */
static pred_ast *find_pred(compilation *c, decl *t, const char *name)
{
    if (t) {
        if (!t->pred_index) {
            t->pred_index = new_index(c);
            for (int i = 0; i < t->items.n; i++) {
                titem *it = t->items.v[i];
                if (it->kind == TI_PRED && !bx_hash_get(t->pred_index, it->pred->name))
                    bx_hash_put(t->pred_index, it->pred->name, it);
            }
        }
        titem *it = bx_hash_get(t->pred_index, name);
        if (it)
            return it->pred;
    }
    decl *d = bx_hash_get(&c->preds, name);
    if (d && (!t || visible_from(t->file, d)))
        return d->pred;
    return NULL;
}

static decl *find_op(compilation *c, const file_ast *f, const char *name)
{
    decl *d = bx_hash_get(&c->ops, name);
    return d && visible_from(f, d) ? d : NULL;
}

/* The text a family value stands for in a name: a name's last dotted
 * part, a string's text, an int; NULL when none. */
static const char *name_text(compilation *c, expr *v)
{
    if (v->kind == E_NAME) {
        const char *dot = strrchr(v->s, '.');
        return dot ? dot + 1 : v->s;
    }
    if (v->kind == E_STR)
        return v->s;
    if (v->kind == E_INT)
        return bx_arena_printf(A, "%lld", (long long)v->i);
    return NULL;
}

/* Expand a name template "dense_bias_{act}" with the generator values; a
 * name longer than BYOCC_MAX_NAME is an error. */
static const char *expand_name(compilation *c, const char *tpl, loc at, vec *vars, vec *vals)
{
    bx_strbuf out = {0};
    bool too_long = false;
    for (const char *p = tpl; *p && !too_long;) {
        const char *e = *p == '{' ? strchr(p, '}') : NULL;
        if (!e) {
            const char *n = strchr(p, '{');
            size_t k = n ? (size_t)(n - p) : strlen(p);
            bx_sb_printf(&out, "%.*s", (int)k, p);
            p += k;
        } else {
            size_t n = (size_t)(e - p - 1);
            const char *var = bx_arena_strndup(A, p + 1, n);
            p = e + 1;
            const char *text = NULL;
            for (int i = 0; vars && i < vars->n; i++)
                if (strcmp(vars->v[i], var) == 0) {
                    expr *v = vals->v[i];
                    text = name_text(c, v);
                    if (!text) {
                        ERR(v->at, "this value cannot be part of a pattern name");
                        text = "";
                    }
                }
            if (!text) {
                ERR(at, "'%s' in the pattern name is not a variable of the for family", var);
                text = "";
            }
            if (strlen(text) > BYOCC_MAX_NAME)
                too_long = true;
            else
                bx_sb_printf(&out, "%s", text);
        }
        too_long |= out.len > BYOCC_MAX_NAME;
    }
    const char *r = too_long ? NULL : bx_arena_strdup(A, bx_sb_str(&out));
    bx_sb_free(&out);
    if (too_long) {
        ERR(at, "the pattern name made from this template is too long (more than %d "
            "characters)", BYOCC_MAX_NAME);
        return tpl;
    }
    if (!(isalpha((unsigned char)r[0]) || r[0] == '_'))
        ERR(at, "the pattern name '%s' made from this template does not start with a letter", r);
    return r;
}

/* Rewrite dotted names written as member chains (nn.relu) into one name;
 * NULL when e is not one, or it would be longer than any name. */
static const char *dotted(compilation *c, expr *e)
{
    size_t len = 0;
    const expr *x = e;
    for (; x->kind == E_MEMBER; x = x->a) {
        len += strlen(x->s) + 1;
        if (len > BYOCC_MAX_NAME)
            return NULL;
    }
    if (x->kind != E_NAME)
        return NULL;
    len += strlen(x->s);
    if (len > BYOCC_MAX_NAME)
        return NULL;
    char *r = bx_arena_alloc(A, len + 1);
    size_t end = len;
    for (x = e; x->kind == E_MEMBER; x = x->a) {
        size_t n = strlen(x->s);
        end -= n;
        memcpy(r + end, x->s, n);
        r[--end] = '.';
    }
    memcpy(r, x->s, end);
    r[len] = 0;
    return r;
}

/* "act = nn.relu, op = add": which family member this is, for notes; long
 * values are cut short. */
static const char *describe_values(compilation *c, vec *vars, vec *vals)
{
    bx_strbuf b = {0};
    for (int i = 0; vars && i < vars->n; i++) {
        expr *v = vals->v[i];
        const char *text = v->kind == E_NAME || v->kind == E_STR ? v->s
                           : v->kind == E_INT ? name_text(c, v) : "...";
        const char *q = v->kind == E_STR ? "\"" : "";
        if (strlen(text) > 40)
            bx_sb_printf(&b, "%s%s = %s%.37s...%s", i ? ", " : "", (char *)vars->v[i], q, text, q);
        else
            bx_sb_printf(&b, "%s%s = %s%s%s", i ? ", " : "", (char *)vars->v[i], q, text, q);
    }
    const char *r = bx_arena_strdup(A, bx_sb_str(&b));
    bx_sb_free(&b);
    return r;
}

typedef struct named {
    titem *it;
    const char *values;
} named;

static void add_pattern(compilation *c, decl *d, titem *it, vec *vars, vec *vals,
                        bx_hash *names)
{
    const char *name = expand_name(c, it->name, it->name_at, vars, vals);
    named *prev = bx_hash_get(names, name);
    const char *desc = describe_values(c, vars, vals);
    if (prev) {
        if (prev->it == it) {
            ERR(it->name_at, "the for family produces the name '%s' twice", name);
            NOTE(it->name_at, "once for %s, again for %s", prev->values, desc);
        } else {
            ERR(it->name_at, "redefinition of pattern '%s'", name);
            NOTE(prev->it->name_at, "previous definition of '%s' is here", name);
        }
        return;
    }
    named *nm = BX_NEW(A, named);
    nm->it = it;
    nm->values = desc;
    bx_hash_put(names, name, nm);
    lpattern *lp = lower_pattern(c, d, it, it->pats.v[0], name, vars, vals);
    if (!lp)
        return;
    lp->at = it->name_at;
    for (int i = 0; i < it->settings.n; i++) {
        param_ast *s = it->settings.v[i];
        if (strcmp(s->key, "efficiency") != 0) {
            static const char *const ks[] = {"efficiency"};
            ERR(s->at, "unknown pattern setting '%s'", s->key);
            suggest(c, s->at, s->key, ks, 1);
            continue;
        }
        double v = number(c, s->value, "efficiency");
        if (!isnan(v) && !(v > 0 && v <= 1))
            ERR(s->value->at, "efficiency must be in (0, 1]");
        lp->efficiency = v;
    }
    if (it->where)
        check_where(c, d, lp, it, false, vars, vals);
    vec_push(A, &d->info->patterns, lp);
}

/* Expand the generators of a for family: the cartesian product, the first
 * generator outermost. */
static void expand_family(compilation *c, decl *d, titem *it, int g, vec *vars, vec *vals,
                          bx_hash *names)
{
    if (g == it->gens.n) {
        add_pattern(c, d, it, vars, vals, names);
        return;
    }
    forgen_ast *gen = it->gens.v[g];
    for (int i = 0; i < gen->values.n && !stopped(c); i++) {
        expr *v = gen->values.v[i];
        int save = vars->n;
        if (gen->vars.n == 1) {
            vec_push(A, vars, gen->vars.v[0]);
            vec_push(A, vals, v);
        } else if (v->kind != E_TUPLE || v->items.n != gen->vars.n) {
            ERR(v->at, "expected a tuple of %d values", gen->vars.n);
            continue;
        } else {
            for (int k = 0; k < gen->vars.n; k++) {
                vec_push(A, vars, gen->vars.v[k]);
                vec_push(A, vals, v->items.v[k]);
            }
        }
        /* Values written as dotted member chains become names. */
        for (int k = save; k < vals->n; k++) {
            expr *x = vals->v[k];
            if (x->kind == E_MEMBER) {
                const char *s = dotted(c, x);
                if (s) {
                    expr *n = BX_NEW(A, expr);
                    *n = *x;
                    n->kind = E_NAME;
                    n->s = s;
                    vals->v[k] = n;
                }
            }
        }
        expand_family(c, d, it, g + 1, vars, vals, names);
        vars->n = save;
        vals->n = save;
    }
}

/* The patterns a for family makes, at most BYOCC_MAX_FAMILY + 1. */
static size_t family_size(titem *it, int *nvars)
{
    size_t n = 1;
    *nvars = 0;
    for (int g = 0; g < it->gens.n; g++) {
        forgen_ast *gen = it->gens.v[g];
        n *= (size_t)gen->values.n;
        if (n > BYOCC_MAX_FAMILY)
            n = BYOCC_MAX_FAMILY + 1;
        *nvars += gen->vars.n;
    }
    return n;
}

/* What an item expands, for the message of BYOCC_MAX_EXPANDED. */
static void expanding(compilation *c, titem *it)
{
    c->expanding_at = it->at;
    switch (it->kind) {
    case TI_PATTERN:
        c->expanding = bx_arena_printf(A, "%s '%s'", it->gens.n ? "the for family" : "pattern",
                                       it->name);
        break;
    case TI_SUPPORTS: c->expanding = "this supports rule"; break;
    default: c->expanding = "this partition rule"; break;
    }
}

/* depth: how many targets refine this one, down the chain being checked. */
static void check_target(compilation *c, decl *d, int depth)
{
    if (d->checked)
        return;
    if (d->checking) {
        ERR(d->parent_at, "target '%s' refines itself", d->name);
        return;
    }
    d->checking = true;
    d->info = BX_NEW(A, target_info);
    decl *p = bx_hash_get(&c->devices, d->parent);
    if (p && p->kind == D_TARGET && !p->checked && !p->checking && depth >= BYOCC_MAX_REFINE) {
        ERR(d->parent_at, "target '%s' refines a chain of more than %d targets", d->name,
            BYOCC_MAX_REFINE);
        d->chain = -1;          /* the targets refining it are not reported again */
        p = NULL;
    } else if (!p || !visible_from(d->file, p)) {
        ERR(d->parent_at, "unknown parent '%s' of target '%s'", d->parent, d->name);
        if (!p)
            suggest_hash(c, d->parent_at, d->parent, &c->devices);
    } else if (p == d) {
        ERR(d->parent_at, "target '%s' refines itself", d->name);
    } else {
        if (p->kind == D_TARGET) {
            if (p->checking) {
                ERR(d->parent_at, "parent cycle: target '%s' refines itself through '%s'",
                    d->name, p->name);
                NOTE(p->parent_at, "'%s' refines '%s' here", p->name, p->parent);
                p = NULL;
            } else {
                check_target(c, p, depth + 1);
            }
        }
        /* The recursion above is bounded by depth; a chain declared
         * parents first never recurses, so its length is counted too. */
        if (p && p->kind == D_TARGET && p->chain >= BYOCC_MAX_REFINE) {
            ERR(d->parent_at, "target '%s' refines a chain of more than %d targets", d->name,
                BYOCC_MAX_REFINE);
            d->chain = -1;      /* its own refinements are not reported again */
            p = NULL;
        } else if (p && p->kind == D_TARGET && p->chain < 0) {
            d->chain = -1;
            p = NULL;
        }
        d->parent_decl = p;
    }
    if (d->chain == 0)
        d->chain = d->parent_decl && d->parent_decl->kind == D_TARGET
                       ? d->parent_decl->chain + 1 : 1;
    check_options(c, d);

    bx_hash names, passes;
    bx_hash_init(&names);
    bx_hash_init(&passes);
    for (int i = 0; i < d->items.n && !stopped(c); i++) {
        titem *it = d->items.v[i];
        expanding(c, it);
        switch (it->kind) {
        case TI_SETTING: check_setting(c, d, it); break;
        case TI_SUPPORTS_ALL:
            if (d->info->supports_all)
                ERR(it->at, "'supports *' given twice");
            d->info->supports_all = true;
            break;
        case TI_SUPPORTS:
            for (int k = 0; k < it->pats.n && !stopped(c); k++) {
                lpattern *lp = lower_pattern(c, d, it, it->pats.v[k], NULL, NULL, NULL);
                if (!lp)
                    continue;
                if (it->where)
                    check_where(c, d, lp, it, false, NULL, NULL);
                vec_push(A, &d->info->rules, lp);
            }
            break;
        case TI_PRED: {
            pred_ast *first = find_pred(c, d, it->pred->name);
            if (first != it->pred) {
                ERR(it->name_at, "redefinition of predicate '%s'", it->pred->name);
                NOTE(first->at, "previous definition of '%s' is here", it->pred->name);
            }
            check_pred_decl(c, it->pred);
            break;
        }
        case TI_LET: {
            titem *first = target_let(c, d, it->let->name);
            if (first != it) {
                ERR(it->name_at, "redefinition of let '%s'", it->let->name);
                NOTE(first->name_at, "previous definition of '%s' is here", it->let->name);
            }
            break;
        }
        case TI_PATTERN: {
            int nvars;
            if (family_size(it, &nvars) > BYOCC_MAX_FAMILY) {
                ERR(it->at, "the for family '%s' makes more than %d patterns", it->name,
                    BYOCC_MAX_FAMILY);
                break;
            }
            if (nvars > BYOCC_MAX_FAMILY_VARS) {
                ERR(it->at, "the for family '%s' has more than %d variables", it->name,
                    BYOCC_MAX_FAMILY_VARS);
                break;
            }
            vec vars = {0}, vals = {0};
            expand_family(c, d, it, 0, &vars, &vals, &names);
            break;
        }
        case TI_LOWER: check_lower(c, d, it, &passes); break;
        case TI_PARTITION: {
            lpattern *lp = BX_NEW(A, lpattern);
            lp->at = it->at;
            lp->id = c->next_pattern_id++;
            check_where(c, d, lp, it, true, NULL, NULL);
            vec_push(A, &d->info->partition, lp);
            break;
        }
        default: break;
        }
    }
    bx_hash_free(&names);
    bx_hash_free(&passes);
    d->checking = false;
    d->checked = true;
}

/* ---- pattern lowering ------------------------------------------------------------------------ */

typedef struct binding {
    const char *name;
    int node;
    loc at;
    bool explicit_bind;
} binding;

struct scope {
    compilation *c;
    decl *target;
    const file_ast *file;
    lpattern *lp;
    vec binds;            /* binding * : names visible to the where clause */
    bx_hash bound;        /* name -> its first binding */
    vec *genvars, *genvals;
    int depth;            /* let expansion depth */
    let_ast *lets[65];    /* the lets being expanded, outermost first */
    int nesting;          /* lower()'s recursion */
    int steps;            /* lower()'s calls and what they do */
    bool failed;          /* a limit was passed: lowering stops */
    const char *let;      /* the outermost let being expanded, and where */
    loc let_at;
};

typedef struct letenv {
    let_ast *let;
    int *args;            /* lowered argument per parameter */
    struct letenv *up;
    loc call_at;          /* where the let is used */
} letenv;

enum { TOO_MANY_NODES, TOO_MANY_STEPS, TOO_DEEP };

/* A limit on one pattern was passed: say so once, at the outermost let
 * being expanded when there is one (a let is what multiplies), and stop. */
static void pattern_too_large(scope *s, loc at, int what)
{
    compilation *c = s->c;
    if (s->failed)
        return;
    s->failed = true;
    if (!s->let) {
        if (what == TOO_MANY_NODES)
            ERR(at, "this pattern is too large (more than %d nodes)", BYOCC_MAX_PATTERN_NODES);
        else if (what == TOO_MANY_STEPS)
            ERR(at, "lowering this pattern takes more than %d steps", BYOCC_MAX_LOWER_STEPS);
        else
            ERR(at, "this pattern nests too deeply (more than %d levels)", BYOCC_MAX_DEPTH);
    } else if (what == TOO_MANY_NODES) {
        ERR(s->let_at, "expanding '%s' makes the pattern too large (more than %d nodes)", s->let,
            BYOCC_MAX_PATTERN_NODES);
    } else if (what == TOO_MANY_STEPS) {
        ERR(s->let_at, "expanding '%s' takes more than %d steps", s->let, BYOCC_MAX_LOWER_STEPS);
    } else {
        ERR(s->let_at, "expanding '%s' nests the pattern too deeply (more than %d levels)",
            s->let, BYOCC_MAX_DEPTH);
    }
}

/* Count work done lowering: false once there was too much. */
static bool step(scope *s, loc at, int n)
{
    if (s->failed)
        return false;
    s->steps += n;
    if (s->steps > BYOCC_MAX_LOWER_STEPS) {
        pattern_too_large(s, at, TOO_MANY_STEPS);
        return false;
    }
    return true;
}

static int new_node(scope *s, byoc_pkind kind, loc at)
{
    compilation *c = s->c;
    /* The node is made whatever happens: callers use it at once.  Lowering
     * stops at the next lower(). */
    if (s->lp->nodes.n == BYOCC_MAX_PATTERN_NODES)
        pattern_too_large(s, at, TOO_MANY_NODES);
    if (!charge(c, 1))
        s->failed = true;
    lpnode *n = BX_NEW(A, lpnode);
    n->kind = kind;
    n->slot = -1;
    n->index = -1;
    n->at = at;
    vec_push(A, &s->lp->nodes, n);
    return s->lp->nodes.n - 1;
}

static lpnode *node_at(scope *s, int i) { return s->lp->nodes.v[i]; }

static void add_kid(scope *s, int parent, int kid)
{
    if (kid < 0)
        return;
    vec_push(&s->c->arena, &node_at(s, parent)->kids, (void *)(intptr_t)kid);
    node_at(s, kid)->refs++;
}

static binding *find_binding(scope *s, const char *name)
{
    return bx_hash_get(&s->bound, name);
}

static void add_binding(scope *s, binding *b)
{
    vec_push(&s->c->arena, &s->binds, b);
    if (!bx_hash_get(&s->bound, b->name))
        bx_hash_put(&s->bound, b->name, b);
}

static expr *gen_value(scope *s, const char *name)
{
    for (int i = 0; s->genvars && i < s->genvars->n; i++)
        if (strcmp(s->genvars->v[i], name) == 0)
            return s->genvals->v[i];
    return NULL;
}

static int lower(scope *s, pat *p, letenv *env);

/* A copy of a constant expression with for-family variables replaced by
 * their values: `strides=[s, s]` inside `for s in {1, 2}`. */
static expr *subst_const(scope *s, expr *e)
{
    compilation *c = s->c;
    if (!e)
        return NULL;
    if (e->kind == E_NAME) {
        expr *v = gen_value(s, e->s);
        return v ? v : e;
    }
    if (e->kind != E_LIST && e->kind != E_UNARY)
        return e;
    expr *n = BX_NEW(A, expr);
    *n = *e;
    n->a = subst_const(s, e->a);
    vec items = {0};
    for (int i = 0; i < e->items.n; i++)
        vec_push(A, &items, subst_const(s, e->items.v[i]));
    n->items = items;
    return n;
}

/* Is `name` a parameter of an enclosing let expansion? */
static int param_arg(letenv *env, const char *name)
{
    if (!env)
        return -1;
    for (int i = 0; i < env->let->params.n; i++)
        if (strcmp(env->let->params.v[i], name) == 0)
            return env->args[i];
    return -1;
}

/* Substitute for-family variables in callee and name positions. */
static const char *subst_name(scope *s, const char *name, loc at, bool *bad)
{
    expr *v = gen_value(s, name);
    if (!v)
        return name;
    if (v->kind == E_NAME)
        return v->s;
    compilation *c = s->c;
    ERR(at, "'%s' stands for a value that is not a name here", name);
    NOTE(v->at, "the value is here");
    *bad = true;
    return name;
}

static int expand_let(scope *s, let_ast *let, vec *args, loc at, letenv *env)
{
    compilation *c = s->c;
    if (args->n != let->params.n) {
        ERR(at, "'%s' takes %d argument%s, got %d", let->name, let->params.n,
            let->params.n == 1 ? "" : "s", args->n);
        NOTE(let->at, "'%s' is defined here", let->name);
        return -1;
    }
    if (s->depth > 64) {
        bool self = false;
        for (int i = 0; i < s->depth && !self; i++)
            self = s->lets[i] == let;
        if (self)
            ERR(at, "'%s' expands itself without end", let->name);
        else
            ERR(at, "expanding '%s' nests lets inside lets more than 64 deep", let->name);
        return -1;
    }
    letenv inner = {let, BX_NEWN(A, int, args->n + 1), env, at};
    for (int i = 0; i < args->n; i++)
        if ((inner.args[i] = lower(s, args->v[i], env)) < 0 && s->failed)
            return -1;
    if (s->depth == 0) {
        s->let = let->name;
        s->let_at = at;
    }
    s->lets[s->depth++] = let;
    /* The body sees its parameters, not the caller's. */
    letenv body = inner;
    body.up = NULL;
    int r = lower(s, let->body, &body);
    s->depth--;
    if (s->depth == 0 && !s->failed)
        s->let = NULL;
    return r;
}

/* The ops a callee pattern names: a name, or an alternative of names. */
static bool callee_ops(scope *s, pat *p, vec *ops, letenv *env)
{
    compilation *c = s->c;
    if (!step(s, p->at, 1 + ops->n))
        return false;
    if (p->kind == P_ALT)
    {
        /* Both sides, so that every unknown name is reported. */
        bool a = callee_ops(s, p->a, ops, env);
        bool b = callee_ops(s, p->b, ops, env);
        return a && b;
    }
    if (p->kind != P_NAME) {
        ERR(p->at, "only an operator, a let or an alternative of operators can be called");
        return false;
    }
    bool bad = false;
    const char *name = subst_name(s, p->name, p->at, &bad);
    if (bad)
        return false;
    decl *op = find_op(c, s->file, name);
    if (!op) {
        if (find_let(c, s->target, name))
            ERR(p->at, "'%s' is a let; an alternative of callees may only name operators", name);
        else {
            ERR(p->at, "unknown operator '%s'", name);
            suggest_hash(c, p->at, name, &c->ops);
        }
        return false;
    }
    for (int i = 0; i < ops->n; i++)
        if (ops->v[i] == op)
            return true;
    vec_push(A, ops, op);
    return true;
}

static int lower_call(scope *s, pat *p, letenv *env)
{
    compilation *c = s->c;
    pat *callee = p->a;
    bool optional = false;
    if (callee->kind == P_OPTIONAL) {
        optional = true;
        callee = callee->a;
    }
    /* A let, or a for variable that names a let. */
    if (callee->kind == P_NAME) {
        if (param_arg(env, callee->name) >= 0) {
            ERR(callee->at, "parameter '%s' cannot be called", callee->name);
            return -1;
        }
        bool bad = false;
        const char *name = subst_name(s, callee->name, callee->at, &bad);
        if (bad)
            return -1;
        let_ast *let = find_op(c, s->file, name) ? NULL : find_let(c, s->target, name);
        if (let) {
            if (optional || p->attrs.n) {
                ERR(callee->at, "'%s' is a let: it cannot be optional or take attributes", name);
                return -1;
            }
            return expand_let(s, let, &p->args, p->at, env);
        }
    }
    vec ops = {0};
    if (!callee_ops(s, callee, &ops, env))
        return -1;
    decl *first = ops.v[0];
    for (int i = 1; i < ops.n; i++) {
        decl *o = ops.v[i];
        if (o->inputs.n != first->inputs.n) {
            ERR(callee->at, "alternative callees take different numbers of arguments: "
                "'%s' takes %d, '%s' takes %d", first->name, first->inputs.n, o->name,
                o->inputs.n);
            return -1;
        }
    }
    if (p->args.n != first->inputs.n) {
        ERR(p->at, "'%s' takes %d argument%s, got %d", first->name, first->inputs.n,
            first->inputs.n == 1 ? "" : "s", p->args.n);
        NOTE(first->name_at, "'%s' is declared here", first->name);
        return -1;
    }
    if (optional && p->args.n == 0) {
        ERR(callee->at, "an optional operator needs an argument to pass through");
        return -1;
    }
    int n = new_node(s, BYOC_PAT_CALL, p->at);
    for (int i = 0; i < ops.n; i++)
        vec_push(A, &node_at(s, n)->ops, (void *)((decl *)ops.v[i])->name);
    for (int i = 0; i < p->attrs.n && !s->failed; i++) {
        attr_eq_ast *ae = p->attrs.v[i];
        byoc_value *v = BX_NEW(A, byoc_value);
        bool ok = const_value(c, subst_const(s, ae->value), v, A);
        /* The value is checked against each op, and kept. */
        size_t size = ok ? value_size(v) : 1;
        if (!step(s, ae->at, (int)(size < BYOCC_MAX_LOWER_STEPS ? size : BYOCC_MAX_LOWER_STEPS)
                                 * (ops.n + 1))
            || !charge(c, size))
            return -1;
        for (int k = 0; k < ops.n; k++) {
            decl *o = ops.v[k];
            attr_ast *decl_attr = op_attr(c, o, ae->name);
            if (!decl_attr) {
                ERR(ae->at, "'%s' has no attribute '%s'", o->name, ae->name);
                suggest_attr(c, ae->at, ae->name, o);
                ok = false;
                break;
            }
            if (ok && decl_attr->type.ok && !conform(c, v, &decl_attr->type.d)) {
                ERR(ae->value->at, "attribute '%s' of '%s' has type %s, not %s", ae->name,
                    o->name, type_name(c, &decl_attr->type.d), value_type_name(c, v));
                ok = false;
                break;
            }
        }
        if (ok) {
            vec_push(A, &node_at(s, n)->attr_names, (void *)ae->name);
            vec_push(A, &node_at(s, n)->attrs, v);
        }
    }
    for (int i = 0; i < p->args.n; i++) {
        int k = lower(s, p->args.v[i], env);
        if (k < 0)
            return -1;
        add_kid(s, n, k);
    }
    if (!optional)
        return n;
    int alt = new_node(s, BYOC_PAT_ALT, p->at);
    add_kid(s, alt, n);
    add_kid(s, alt, (int)(intptr_t)node_at(s, n)->kids.v[0]);
    return alt;
}

static int lower_name(scope *s, pat *p, letenv *env)
{
    compilation *c = s->c;
    int a = param_arg(env, p->name);
    if (a >= 0)
        return a;
    bool bad = false;
    const char *name = subst_name(s, p->name, p->at, &bad);
    if (bad)
        return -1;
    let_ast *let = find_op(c, s->file, name) ? NULL : find_let(c, s->target, name);
    if (let) {
        vec none = {0};
        return expand_let(s, let, &none, p->at, env);
    }
    decl *op = find_op(c, s->file, name);
    if (op) {
        /* A bare op: a call with any arguments. */
        int n = new_node(s, BYOC_PAT_CALL, p->at);
        vec_push(A, &node_at(s, n)->ops, (void *)op->name);
        for (int i = 0; i < op->inputs.n && !s->failed; i++)
            add_kid(s, n, new_node(s, BYOC_PAT_WILD, p->at));
        return s->failed ? -1 : n;
    }
    if (strchr(name, '.')) {
        ERR(p->at, "unknown operator '%s'", name);
        suggest_hash(c, p->at, name, &c->ops);
        return -1;
    }
    binding *b = find_binding(s, name);
    if (b)
        return b->node;
    if (env) {
        /* A let body names its inputs through its parameters; a free name
         * would silently tie every expansion of the let together. */
        ERR(p->at, "'%s' is not a parameter of '%s'; write '_' for any input, or add "
            "a parameter", name, env->let->name);
        return -1;
    }
    int n = new_node(s, BYOC_PAT_WILD, p->at);
    b = BX_NEW(A, binding);
    b->name = name;
    b->node = n;
    b->at = p->at;
    add_binding(s, b);
    return n;
}

static int lower_(scope *s, pat *p, letenv *env);

/* Lower p: the index of its node, or -1 after an error.  Each let body
 * nests its own pattern inside the caller's, so the recursion is counted
 * here, whatever the parser saw. */
static int lower(scope *s, pat *p, letenv *env)
{
    if (!step(s, p->at, 1))
        return -1;
    if (s->nesting == BYOCC_MAX_DEPTH) {
        pattern_too_large(s, p->at, TOO_DEEP);
        return -1;
    }
    s->nesting++;
    int r = lower_(s, p, env);
    s->nesting--;
    return s->failed ? -1 : r;
}

static int lower_(scope *s, pat *p, letenv *env)
{
    compilation *c = s->c;
    int n;
    switch (p->kind) {
    case P_WILD:
        return new_node(s, BYOC_PAT_WILD, p->at);
    case P_NAME:
        return lower_name(s, p, env);
    case P_APPLY:
        return lower_call(s, p, env);
    case P_OPTIONAL:
        ERR(p->at, "'?' marks an optional operator and must be followed by its arguments");
        return -1;
    case P_ALT: {
        int l = lower(s, p->a, env), r = lower(s, p->b, env);
        if (l < 0 || r < 0)
            return -1;
        n = new_node(s, BYOC_PAT_ALT, p->at);
        add_kid(s, n, l);
        add_kid(s, n, r);
        return n;
    }
    case P_CONST:
    case P_LIT: {
        n = new_node(s, BYOC_PAT_CONST, p->at);
        if (p->value) {
            byoc_value *v = BX_NEW(A, byoc_value);
            if (!const_value(c, subst_const(s, p->value), v, A))
                return -1;
            size_t size = value_size(v);
            if (!step(s, p->at, size < BYOCC_MAX_LOWER_STEPS ? (int)size : BYOCC_MAX_LOWER_STEPS)
                || !charge(c, size))
                return -1;
            if (v->kind != BYOC_V_INT && v->kind != BYOC_V_FLOAT && v->kind != BYOC_V_BOOL) {
                ERR(p->value->at, "a constant pattern needs a number or a bool, not %s",
                    value_type_name(c, v));
                return -1;
            }
            node_at(s, n)->value = v;
            if (p->value->dtype >= 0)
                node_at(s, n)->index = p->value->dtype; /* the literal's dtype */
        }
        return n;
    }
    case P_TUPLE: {
        int kids[64];
        if (p->args.n > 64) {
            ERR(p->at, "tuple pattern too long");
            return -1;
        }
        for (int i = 0; i < p->args.n; i++)
            if ((kids[i] = lower(s, p->args.v[i], env)) < 0)
                return -1;
        n = new_node(s, BYOC_PAT_TUPLE, p->at);
        for (int i = 0; i < p->args.n; i++)
            add_kid(s, n, kids[i]);
        return n;
    }
    case P_TUPLE_ANY:
        return new_node(s, BYOC_PAT_TUPLE_ANY, p->at);
    case P_PROJ: {
        int k = lower(s, p->a, env);
        if (k < 0)
            return -1;
        n = new_node(s, BYOC_PAT_PROJ, p->at);
        node_at(s, n)->index = p->index;
        add_kid(s, n, k);
        return n;
    }
    case P_BIND: {
        binding *prev = find_binding(s, p->name);
        if (prev && prev->explicit_bind) {
            if (env) {
                ERR(env->call_at, "'%s' is bound twice: '%s', which binds it, is used more "
                    "than once in this pattern", p->name, env->let->name);
                NOTE(p->at, "'%s' is bound here", p->name);
            } else {
                ERR(p->at, "'%s' is bound twice", p->name);
                NOTE(prev->at, "first bound here");
            }
            return -1;
        }
        if (param_arg(env, p->name) >= 0) {
            ERR(p->at, "'%s' is a parameter of '%s' and cannot be bound", p->name,
                env->let->name);
            return -1;
        }
        int k = lower(s, p->a, env);
        if (k < 0)
            return -1;
        if (prev) {
            /* `x` was used before as a wildcard: that use means this node. */
            ERR(p->at, "'%s' is used as a wildcard before it is bound; bind it at its "
                "first use", p->name);
            NOTE(prev->at, "first used here");
            return -1;
        }
        binding *b = BX_NEW(A, binding);
        b->name = p->name;
        b->node = k;
        b->at = p->at;
        b->explicit_bind = true;
        add_binding(s, b);
        return k;
    }
    case P_COMMUTE: {
        int k = lower(s, p->a, env);
        if (k < 0)
            return -1;
        lpnode *ln = node_at(s, k);
        if (ln->kind != BYOC_PAT_CALL || ln->kids.n != 2) {
            ERR(p->at, "'commute' applies to a call with two arguments");
            return -1;
        }
        ln->flags |= BYOC_PF_COMMUTE;
        return k;
    }
    }
    bx_die("bad pattern kind");
}

static lpattern *lower_pattern(compilation *c, decl *t, titem *it, pat *p, const char *name,
                               vec *genvars, vec *genvals)
{
    lpattern *lp = BX_NEW(A, lpattern);
    lp->name = name;
    lp->at = p->at;
    lp->id = c->next_pattern_id++;
    scope s = {0};
    s.c = c;
    s.target = t;
    s.file = t->file;
    s.lp = lp;
    s.genvars = genvars;
    s.genvals = genvals;
    bx_hash_init(&s.bound);
    int before = c->diag.errors;
    int root = lower(&s, p, NULL);
    bx_hash_free(&s.bound);
    if (root < 0 || c->diag.errors != before)
        return NULL;
    lp->root = root;
    node_at(&s, root)->refs++;
    if (node_at(&s, root)->kind == BYOC_PAT_WILD) {
        ERR(p->at, "a pattern must match at least one operator call");
        return NULL;
    }
    /* Slots: named ones first in order of appearance, then hidden ones for
     * nodes referenced more than once. */
    for (int i = 0; i < s.binds.n; i++) {
        binding *b = s.binds.v[i];
        lpnode *n = node_at(&s, b->node);
        if (n->slot < 0) {
            n->slot = lp->slot_names.n;
            vec_push(A, &lp->slot_names, (void *)b->name);
            vec_push(A, &lp->slot_nodes, (void *)(intptr_t)b->node);
        } else {
            /* Two names for one node: an alias slot. */
            vec_push(A, &lp->slot_names, (void *)b->name);
            vec_push(A, &lp->slot_nodes, (void *)(intptr_t)b->node);
        }
    }
    for (int i = 0; i < lp->nodes.n; i++) {
        lpnode *n = lp->nodes.v[i];
        if (n->refs > 1 && n->slot < 0) {
            n->slot = lp->slot_names.n;
            vec_push(A, &lp->slot_names, bx_arena_printf(A, "$%d", lp->slot_names.n));
            vec_push(A, &lp->slot_nodes, (void *)(intptr_t)i);
        }
    }
    return lp;
}

/* ---- predicates --------------------------------------------------------------------------------- */

typedef struct pscope {
    compilation *c;
    decl *target;
    lpattern *lp;
    bx_hash slots;        /* lp's slot name -> index + 1, first wins */
    bool partition;
    vec *genvars, *genvals;
    const char *qvars[16];
    int qtypes[16];
    int nq;
    /* predicate macros being expanded, outermost first */
    pred_ast *macros[BYOCC_MAX_PRED_NESTING];
    int nmacro;
    int level;            /* typecheck()'s nesting, expansions included */
    bool deep;            /* passed BYOCC_MAX_DEPTH: said once */
    vec facts;            /* fact *: what the tests around say of op(x) */
} pscope;

/* What a test such as `op(c) == nn.conv2d` says of a bound name where the
 * code after it runs: c is one of ops (pos), or none of them. */
typedef struct fact {
    int slot;
    vec ops;              /* char * */
    bool pos;
} fact;

static const char *ty_name(int t)
{
    switch (t) {
    case T_BOOL: return "bool";
    case T_INT: return "int";
    case T_FLOAT: return "float";
    case T_STRING: return "string";
    case T_DTYPE: return "dtype";
    case T_VERSION: return "version";
    case T_TENSOR: return "tensor";
    case T_OP: return "op";
    case T_NONE: return "None";
    case T_LIST_INT: return "int[]";
    case T_LIST_FLOAT: return "float[]";
    case T_LIST_STRING: return "string[]";
    case T_LIST_BOOL: return "bool[]";
    case T_LIST_DTYPE: return "dtype[]";
    case T_LIST_ANY: return "list";
    case T_LIST_LIST_INT: return "int[][]";
    case T_LIST_TENSOR: return "tensor[]";
    case T_OPSET: return "op set";
    default: return "<error>";
    }
}

static bool is_list(int t) { return t >= T_LIST_INT && t <= T_LIST_TENSOR; }
static bool is_num(int t) { return t == T_INT || t == T_FLOAT; }

static int elem_type(int t)
{
    switch (t) {
    case T_LIST_INT: return T_INT;
    case T_LIST_FLOAT: return T_FLOAT;
    case T_LIST_STRING: return T_STRING;
    case T_LIST_BOOL: return T_BOOL;
    case T_LIST_DTYPE: return T_DTYPE;
    case T_LIST_TENSOR: return T_TENSOR;
    case T_LIST_ANY: return T_LIST_ANY;
    case T_LIST_LIST_INT: return T_LIST_INT;
    default: return T_ERROR;
    }
}

/* Predicate type of a declared attribute or option type. */
static int desc_type(const byoc_type_desc *d)
{
    if (d->has_alt)
        return T_LIST_ANY;
    static const int scalar[] = {
        [BYOC_V_BOOL] = T_BOOL, [BYOC_V_INT] = T_INT, [BYOC_V_FLOAT] = T_FLOAT,
        [BYOC_V_STRING] = T_STRING, [BYOC_V_DTYPE] = T_DTYPE,
        [BYOC_V_VERSION] = T_VERSION,
    };
    static const int list[] = {
        [BYOC_V_BOOL] = T_LIST_BOOL, [BYOC_V_INT] = T_LIST_INT, [BYOC_V_FLOAT] = T_LIST_FLOAT,
        [BYOC_V_STRING] = T_LIST_STRING, [BYOC_V_DTYPE] = T_LIST_DTYPE,
        [BYOC_V_VERSION] = T_LIST_ANY,
    };
    if (d->depth == 0)
        return scalar[d->base];
    if (d->depth == 1)
        return list[d->base];
    if (d->depth == 2 && d->base == BYOC_V_INT)
        return T_LIST_LIST_INT;
    return T_LIST_ANY;
}

static int typecheck(pscope *ps, expr *e);
static int typecheck_(pscope *ps, expr *e);
static void call_ops(pscope *ps, int root, vec *out, bool *other, bool *any);
static bool allowed(pscope *ps, int slot, const char *op);
static int expand_pred(pscope *ps, expr *e, pred_ast *pm);
static int str_dtype(pscope *ps, expr *x);
static int type_in_list(pscope *ps, expr *e);
static void facts_of(pscope *ps, const expr *e, bool truth, int depth);
static bool literal(const expr *it, int t);

static int slot_of(pscope *ps, const char *name)
{
    if (!ps->lp)
        return -1;
    return (int)(intptr_t)bx_hash_get(&ps->slots, name) - 1;
}

static void unknown_name(pscope *ps, expr *e, const char *name)
{
    compilation *c = ps->c;
    ERR(e->at, "unknown name '%s' in predicate", name);
    const char *names[80];
    int n = 0;
    for (int i = 0; ps->lp && i < ps->lp->slot_names.n && n < 64; i++) {
        const char *s = ps->lp->slot_names.v[i];
        if (s[0] != '$')
            names[n++] = s;
    }
    for (int i = 0; i < ps->nq && n < 80; i++)
        names[n++] = ps->qvars[i];
    const char *sug = diag_suggest(name, names, n);
    if (!sug) {
        const char *dts[BYOC_DT_COUNT_];
        for (int i = 1; i < BYOC_DT_COUNT_; i++)
            dts[i - 1] = byoc_dtype_name((byoc_dtype)i);
        sug = diag_suggest(name, dts, BYOC_DT_COUNT_ - 1);
    }
    if (sug)
        NOTE(e->at, "did you mean '%s'?", sug);
}

static expr *copy_expr(compilation *c, expr *e, bool value);

/* Replace a for-family variable by a copy of its value.  The value was
 * written outside the family, so names in it are not substituted again
 * (`for a in {a}` would substitute without end). */
static bool subst_expr(pscope *ps, expr *e)
{
    if (e->nosubst)
        return false;
    for (int i = 0; ps->genvars && i < ps->genvars->n; i++)
        if (strcmp(ps->genvars->v[i], e->s) == 0) {
            expr *v = copy_expr(ps->c, ps->genvals->v[i], true);
            if (!v)
                return false;  /* too large: checking stops */
            loc at = e->at;
            *e = *v;
            e->at = at;
            return true;
        }
    return false;
}

static int type_name_expr(pscope *ps, expr *e)
{
    compilation *c = ps->c;
    const char *name = e->s;
    for (int i = ps->nq - 1; i >= 0; i--)
        if (strcmp(ps->qvars[i], name) == 0) {
            e->qvar = i;
            return ps->qtypes[i];
        }
    int s = slot_of(ps, name);
    if (s >= 0) {
        e->slot = s;
        return T_TENSOR;
    }
    if (strcmp(name, "target") == 0) {
        ERR(e->at, "'target' must be followed by '.' and an option name");
        return T_ERROR;
    }
    int dt = byoc_dtype_lookup(name);
    if (dt > 0) {
        e->dtype = dt;
        return T_DTYPE;
    }
    decl *op = find_op(c, ps->target->file, name);
    if (op) {
        e->sym = op;
        return T_OP;
    }
    unknown_name(ps, e, name);
    return T_ERROR;
}

/* Is name the first part of a dotted op name ("nn" of nn.conv2d)? */
static bool op_space(compilation *c, const char *name)
{
    if (!c->op_spaces) {
        c->op_spaces = new_index(c);
        for (size_t i = 0; i < c->ops.n; i++) {
            const char *key = c->ops.entries[i].key, *dot = strchr(key, '.');
            if (dot)
                bx_hash_put(c->op_spaces, bx_arena_strndup(A, key, (size_t)(dot - key)), c);
        }
    }
    return bx_hash_get(c->op_spaces, name) != NULL;
}

static lpnode *slot_node(pscope *ps, int slot)
{
    intptr_t k = (intptr_t)ps->lp->slot_nodes.v[slot];
    return ps->lp->nodes.v[k];
}

static int type_member(pscope *ps, expr *e)
{
    compilation *c = ps->c;
    /* target.option */
    if (e->a->kind == E_NAME && strcmp(e->a->s, "target") == 0
        && !(ps->lp && slot_of(ps, "target") >= 0)) {
        decl *t = ps->target;
        int i = option_index(t, e->s);
        if (i >= 0) {
            option_info *o = t->options.v[i];
            e->opt = i;
            e->sym = o;
            return desc_type(&o->type);
        }
        ERR(e->at, "target '%s' has no option '%s'", t->name, e->s);
        suggest_option(c, e->at, e->s, t);
        return T_ERROR;
    }
    /* A dotted op name: nn.conv2d */
    const char *dn = dotted(c, e);
    if (dn) {
        expr *head = e;
        while (head->kind == E_MEMBER)
            head = head->a;
        bool ns = op_space(c, head->s);
        bool bound = slot_of(ps, head->s) >= 0;
        for (int i = 0; i < ps->nq; i++)
            bound |= strcmp(ps->qvars[i], head->s) == 0;
        if (!bound) {
            decl *op = find_op(c, ps->target->file, dn);
            if (op) {
                e->kind = E_NAME;
                e->s = dn;
                e->sym = op;
                return T_OP;
            }
            /* nn.conv2 is a misspelt op; x.groups an unknown name x. */
            if (ns) {
                ERR(e->at, "unknown operator '%s'", dn);
                suggest_hash(c, e->at, dn, &c->ops);
            } else if (strcmp(head->s, "target") != 0) {
                unknown_name(ps, head, head->s);
            }
            if (strcmp(head->s, "target") != 0)
                return T_ERROR;
        }
    }
    int at = typecheck(ps, e->a);
    if (at == T_ERROR)
        return T_ERROR;
    if (at != T_TENSOR || e->a->kind != E_NAME || e->a->slot < 0) {
        ERR(e->at, "only names bound to operator calls have attributes; '%s' is %s",
            e->a->kind == E_NAME ? e->a->s : "an expression", ty_name(at));
        return T_ERROR;
    }
    /* The calls the name can be bound to, less those the tests before this
     * read rule out (`op(p) == nn.avg_pool2d && p.ceil_mode`); where it is
     * bound to an op without the attribute, or to no call, reading it is
     * absent, so the predicate is false there. */
    int slot = e->a->slot;
    vec all = {0}, ops = {0};
    bool other = false, any = false;
    call_ops(ps, (int)(intptr_t)ps->lp->slot_nodes.v[slot], &all, &other, &any);
    if (!all.n && !any) {
        ERR(e->at, "'%s' is not bound to an operator call, so it has no attribute '%s'",
            e->a->s, e->s);
        return T_ERROR;
    }
    if (any) {
        ERR(e->at, "'%s' can be a call of any operator, so its attribute '%s' has no known "
            "type", e->a->s, e->s);
        return T_ERROR;
    }
    for (int k = 0; k < all.n; k++)
        if (allowed(ps, slot, all.v[k]))
            vec_push(A, &ops, all.v[k]);
    /* Tests that rule out every op are code that never runs: the
     * comparison that says so is an error of its own (check_op_comparison);
     * type as if there were none. */
    if (!ops.n)
        ops = all;
    int ty = T_ERROR;
    decl *first = NULL;
    for (int k = 0; k < ops.n; k++) {
        decl *op = find_op(c, ps->target->file, ops.v[k]);
        attr_ast *found = op ? op_attr(c, op, e->s) : NULL;
        if (!found)
            continue;
        int t = desc_type(&found->type.d);
        if (first && t != ty) {
            ERR(e->at, "attribute '%s' has different types in '%s' and '%s'", e->s, first->name,
                op->name);
            NOTE(e->at, "test op(%s) first: `op(%s) == %s && ...`", e->a->s, e->a->s,
                 first->name);
            return T_ERROR;
        }
        if (!first)
            first = op;
        ty = t;
    }
    if (!first) {
        decl *op = find_op(c, ps->target->file, ops.v[0]);
        if (ops.n == 1) {
            ERR(e->at, "'%s' has no attribute '%s'", op ? op->name : "?", e->s);
        } else {
            bx_strbuf set = {0};
            for (int i = 0; i < ops.n && i < 8; i++)
                bx_sb_printf(&set, "%s%s", i ? ", " : "", (char *)ops.v[i]);
            if (ops.n > 8)
                bx_sb_printf(&set, ", ...");
            ERR(e->at, "none of the ops '%s' can be bound to here (%s) has an attribute '%s'",
                e->a->s, bx_sb_str(&set), e->s);
            bx_sb_free(&set);
        }
        suggest_attr(c, e->at, e->s, op);
        return T_ERROR;
    }
    return ty;
}

static int check_args(pscope *ps, expr *e, int want)
{
    compilation *c = ps->c;
    if (e->items.n != want) {
        ERR(e->at, "%s() takes %d argument%s, got %d", e->s, want, want == 1 ? "" : "s",
            e->items.n);
        return -1;
    }
    return 0;
}

static int want_tensor(pscope *ps, expr *e)
{
    compilation *c = ps->c;
    int t = typecheck(ps, e);
    if (t != T_TENSOR && t != T_ERROR) {
        ERR(e->at, "expected a tensor (a name bound in the pattern), not %s", ty_name(t));
        return T_ERROR;
    }
    return t;
}

static int type_opset(pscope *ps, expr *e)
{
    compilation *c = ps->c;
    if (e->kind == E_OPALT) {
        int a = type_opset(ps, e->a), b = type_opset(ps, e->b);
        return a == T_ERROR || b == T_ERROR ? T_ERROR : T_OPSET;
    }
    int t = typecheck(ps, e);
    if (t == T_OP)
        return T_OPSET;
    if (t != T_ERROR)
        ERR(e->at, "expected an operator, not %s", ty_name(t));
    return T_ERROR;
}

/* Is e a zero the language knows of: a constant int, or a float literal? */
static bool const_zero(const expr *e)
{
    if (e->kind == E_UNARY && e->op == '-')
        return const_zero(e->a);
    return (e->cst && e->cval == 0) || (e->kind == E_FLOAT && e->f == 0);
}

/* Fold a op b on constant ints into e; false on overflow. */
static bool fold(expr *e, int op, int64_t a, int64_t b)
{
    int64_t r;
    switch (op) {
    case '+':
        if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
            return false;
        r = a + b;
        break;
    case '-':
        if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b))
            return false;
        r = a - b;
        break;
    case '*':
        if (a != 0 && b != 0
            && (a == -1 ? b == INT64_MIN
                : b == -1 ? a == INT64_MIN
                : (a > 0) == (b > 0) ? (a > 0 ? a > INT64_MAX / b : a < INT64_MAX / b)
                : (a > 0 ? b < INT64_MIN / a : a < INT64_MIN / b)))
            return false;
        r = a * b;
        break;
    case '/':
    case '%':
        /* b != 0: division by zero is reported before. */
        if (a == INT64_MIN && b == -1)
            return false;
        r = op == '/' ? a / b : a % b;
        break;
    default:
        return true;
    }
    e->cst = true;
    e->cval = r;
    return true;
}

static const char *const builtins[] = {
    "dtype", "shape", "rank", "numel", "is_const", "value", "values", "inputs", "outputs",
    "len", "range", "op", "contains", "count", "nodes", "abs", "find", "startswith",
    "endswith",
};

static int type_call(pscope *ps, expr *e)
{
    compilation *c = ps->c;
    const char *f = e->s;
    bool part_list = ps->partition && e->items.n == 0
                     && (!strcmp(f, "inputs") || !strcmp(f, "outputs") || !strcmp(f, "nodes"));
    if (part_list) {
        e->i = !strcmp(f, "nodes") ? BYOC_SEQ_NODES
               : !strcmp(f, "inputs") ? BYOC_SEQ_PINPUTS : BYOC_SEQ_POUTPUTS;
        return T_LIST_TENSOR;
    }
    if (!strcmp(f, "nodes")) {
        ERR(e->at, "nodes() is only available in 'partition where' rules");
        return T_ERROR;
    }
    if (!strcmp(f, "contains") || !strcmp(f, "count")) {
        if (!ps->partition) {
            ERR(e->at, "%s() is only available in 'partition where' rules", f);
            return T_ERROR;
        }
        if (check_args(ps, e, 1))
            return T_ERROR;
        if (type_opset(ps, e->items.v[0]) == T_ERROR)
            return T_ERROR;
        return !strcmp(f, "contains") ? T_BOOL : T_INT;
    }
    static const struct { const char *n; int ret; } tensor_fns[] = {
        {"dtype", T_DTYPE}, {"shape", T_LIST_INT}, {"rank", T_INT}, {"numel", T_INT},
        {"is_const", T_BOOL}, {"value", T_FLOAT}, {"values", T_LIST_FLOAT},
        {"inputs", T_LIST_TENSOR},
        {"outputs", T_LIST_TENSOR}, {"op", T_OP},
    };
    for (size_t i = 0; i < sizeof tensor_fns / sizeof tensor_fns[0]; i++) {
        if (strcmp(f, tensor_fns[i].n) != 0)
            continue;
        if (check_args(ps, e, 1))
            return T_ERROR;
        if (want_tensor(ps, e->items.v[0]) == T_ERROR)
            return T_ERROR;
        return tensor_fns[i].ret;
    }
    if (!strcmp(f, "range")) {
        if (check_args(ps, e, 1))
            return T_ERROR;
        int t = typecheck(ps, e->items.v[0]);
        if (t != T_ERROR && t != T_INT) {
            ERR(e->at, "range() needs an int, not %s", ty_name(t));
            return T_ERROR;
        }
        return t == T_ERROR ? T_ERROR : T_LIST_INT;
    }
    if (!strcmp(f, "abs")) {
        if (check_args(ps, e, 1))
            return T_ERROR;
        expr *x = e->items.v[0];
        int t = typecheck(ps, x);
        if (t != T_ERROR && t != T_INT && t != T_FLOAT) {
            ERR(e->at, "abs() needs a number, not %s", ty_name(t));
            return T_ERROR;
        }
        if (t == T_INT && x->cst && !fold(e, x->cval < 0 ? '-' : '+', 0, x->cval)) {
            ERR(e->at, "integer overflow in constant expression");
            return T_ERROR;
        }
        return t;
    }
    if (!strcmp(f, "len")) {
        if (check_args(ps, e, 1))
            return T_ERROR;
        int t = typecheck(ps, e->items.v[0]);
        if (t != T_ERROR && !is_list(t) && t != T_STRING) {
            ERR(e->at, "len() needs a list or a string, not %s", ty_name(t));
            return T_ERROR;
        }
        return t == T_ERROR ? T_ERROR : T_INT;
    }
    if (!strcmp(f, "find") || !strcmp(f, "startswith") || !strcmp(f, "endswith")) {
        if (check_args(ps, e, 2))
            return T_ERROR;
        bool ok = true;
        for (int i = 0; i < 2; i++) {
            int t = typecheck(ps, e->items.v[i]);
            if (t != T_ERROR && t != T_STRING) {
                ERR(((expr *)e->items.v[i])->at, "%s() needs strings, not %s", f, ty_name(t));
                ok = false;
            }
            ok &= t != T_ERROR;
        }
        if (!ok)
            return T_ERROR;
        return !strcmp(f, "find") ? T_INT : T_BOOL;
    }
    pred_ast *pm = find_pred(c, ps->target, f);
    if (pm)
        return expand_pred(ps, e, pm);
    decl *ex = bx_hash_get(&c->externs, f);
    if (ex && visible_from(ps->target->file, ex) && ex->lower) {
        ERR(e->at, "'%s' is an extern lower pass, not a predicate", f);
        NOTE(ex->name_at, "'%s' is declared here", f);
        return T_ERROR;
    }
    if (ex && visible_from(ps->target->file, ex)) {
        e->sym = ex;
        bool ok = true;
        for (int i = 0; i < e->items.n; i++)
            ok &= want_tensor(ps, e->items.v[i]) != T_ERROR;
        return ok ? T_BOOL : T_ERROR;
    }
    ERR(e->at, "unknown function '%s'", f);
    const char *names[64];
    int n = 0;
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        names[n++] = builtins[i];
    for (size_t i = 0; i < c->externs.n && n < 64; i++)
        if (!((decl *)c->externs.entries[i].val)->lower)
            names[n++] = c->externs.entries[i].key;
    suggester sg;
    suggest_begin(&sg, f);
    for (int i = 0; i < n; i++)
        suggest_offer(&sg, names[i]);
    for (size_t i = 0; i < c->preds.n; i++)
        if (visible_from(ps->target->file, c->preds.entries[i].val))
            suggest_offer(&sg, c->preds.entries[i].key);
    for (int i = 0; i < ps->target->items.n; i++) {
        titem *it = ps->target->items.v[i];
        if (it->kind == TI_PRED)
            suggest_offer(&sg, it->pred->name);
    }
    suggest_note(c, e->at, &sg);
    return T_ERROR;
}

static bool comparable(int a, int b)
{
    if (is_num(a) && is_num(b))
        return true;
    if (a != b)
        return false;
    return a == T_BOOL || a == T_STRING || a == T_DTYPE || a == T_VERSION || a == T_OP
           || a == T_TENSOR || a == T_LIST_INT || a == T_LIST_FLOAT || a == T_LIST_STRING
           || a == T_LIST_DTYPE || a == T_LIST_BOOL || a == T_LIST_LIST_INT;
}

/* A list literal: its element type from its items. */
static int type_list(pscope *ps, expr *e)
{
    compilation *c = ps->c;
    int et = T_INT;
    for (int i = 0; i < e->items.n; i++) {
        int t = typecheck(ps, e->items.v[i]);
        if (t == T_ERROR)
            return T_ERROR;
        if (i == 0)
            et = t;
        else if (is_num(et) && is_num(t))
            et = (et == T_FLOAT || t == T_FLOAT) ? T_FLOAT : T_INT;
        else if (t != et) {
            ERR(((expr *)e->items.v[i])->at, "list items have different types: %s and %s",
                ty_name(et), ty_name(t));
            return T_ERROR;
        }
    }
    switch (et) {
    case T_INT: return T_LIST_INT;
    case T_FLOAT: return T_LIST_FLOAT;
    case T_STRING: return T_LIST_STRING;
    case T_BOOL: return T_LIST_BOOL;
    case T_DTYPE: return T_LIST_DTYPE;
    default:
        ERR(e->at, "lists of %s are not supported in predicates", ty_name(et));
        return T_ERROR;
    }
}

/* `op(c) == nn.conv2d` where c is bound to a call that can never be of that
 * op (DNNL's dead entries): the clause is constant, which is a mistake. */
static void check_op_comparison(pscope *ps, expr *e)
{
    compilation *c = ps->c;
    for (int side = 0; side < 2; side++) {
        expr *call = side ? e->b : e->a, *lit = side ? e->a : e->b;
        if (call->kind != E_CALL || strcmp(call->s, "op") != 0 || call->sym
            || call->items.n != 1)
            continue;
        expr *arg = call->items.v[0];
        if (arg->kind != E_NAME || arg->slot < 0 || arg->qvar >= 0 || lit->kind != E_NAME
            || !lit->sym || !ps->lp)
            continue;
        vec ops = {0};
        bool other = false, any = false;
        call_ops(ps, (int)(intptr_t)ps->lp->slot_nodes.v[arg->slot], &ops, &other, &any);
        bool known = ops.n && !other && !any, found = false;
        for (int i = 0; known && i < ops.n && !found; i++)
            found = strcmp(ops.v[i], lit->s) == 0;
        if (known && !found) {
            /* The first few ops are enough to say what it is. */
            bx_strbuf set = {0};
            for (int i = 0; i < ops.n && i < 8; i++)
                bx_sb_printf(&set, "%s%s", i ? " | " : "", (char *)ops.v[i]);
            if (ops.n > 8)
                bx_sb_printf(&set, " | ...");
            ERR(e->at, "this comparison is always %s: '%s' is bound to a call of %s, never %s",
                e->op == OP_EQ ? "false" : "true", arg->s, bx_sb_str(&set), lit->s);
            bx_sb_free(&set);
            NOTE(slot_node(ps, arg->slot)->at, "'%s' is bound here", arg->s);
            if (ps->genvars && ps->genvars->n)
                NOTE(ps->lp->at, "in the member of the for family where %s",
                     describe_values(c, ps->genvars, ps->genvals));
        }
    }
}

/* ---- what tests say of op(x) ---------------------------------------------- */

/* x of `op(x)`, when x is a name bound in the pattern: its slot, else -1. */
static int op_of_slot(const expr *e)
{
    if (e->kind != E_CALL || strcmp(e->s, "op") != 0 || e->sym || e->items.n != 1
        || e->ty != T_OP)
        return -1;
    const expr *x = e->items.v[0];
    return x->kind == E_NAME && x->qvar < 0 && x->slot >= 0 && x->ty == T_TENSOR ? x->slot : -1;
}

static bool op_literal(const expr *e)
{
    return e->kind == E_NAME && e->ty == T_OP && e->sym;
}

static void add_fact(pscope *ps, int slot, bool pos, const expr *const *ops, int n)
{
    compilation *c = ps->c;
    fact *f = BX_NEW(A, fact);
    f->slot = slot;
    f->pos = pos;
    for (int i = 0; i < n; i++)
        vec_push(A, &f->ops, (void *)ops[i]->s);
    vec_push(A, &ps->facts, f);
}

/* Push what e being `truth` says of op(x) for names x: `op(c) == a` true
 * says c is a call of a, false that it is not; && and || combine, ! turns
 * round, and a predicate macro says what its body says. */
static void facts_of(pscope *ps, const expr *e, bool truth, int depth)
{
    if (depth > BYOCC_MAX_DEPTH || e->ty != T_BOOL)
        return;
    switch (e->kind) {
    case E_UNARY:
        if (e->op == '!')
            facts_of(ps, e->a, !truth, depth + 1);
        return;
    case E_MACRO:
        facts_of(ps, e->a, truth, depth + 1);
        return;
    case E_BINARY: {
        if ((e->op == OP_AND && truth) || (e->op == OP_OR && !truth)) {
            facts_of(ps, e->a, truth, depth + 1);
            facts_of(ps, e->b, truth, depth + 1);
            return;
        }
        if (e->op != OP_EQ && e->op != OP_NE)
            return;
        const expr *call = e->a, *lit = e->b;
        if (op_of_slot(call) < 0) {
            call = e->b;
            lit = e->a;
        }
        int slot = op_of_slot(call);
        if (slot >= 0 && op_literal(lit))
            add_fact(ps, slot, (e->op == OP_EQ) == truth, &lit, 1);
        return;
    }
    case E_IN_SET: {
        int slot = op_of_slot(e->a);
        if (slot < 0)
            return;
        for (int i = 0; i < e->items.n; i++)
            if (!op_literal(e->items.v[i]))
                return;
        add_fact(ps, slot, truth, (const expr *const *)e->items.v, e->items.n);
        return;
    }
    default:
        return;
    }
}

/* Is op one that the facts let slot be? */
static bool allowed(pscope *ps, int slot, const char *op)
{
    for (int i = 0; i < ps->facts.n; i++) {
        fact *f = ps->facts.v[i];
        if (f->slot != slot)
            continue;
        bool in = false;
        for (int k = 0; k < f->ops.n && !in; k++)
            in = strcmp(f->ops.v[k], op) == 0;
        if (in != f->pos)
            return false;
    }
    return true;
}

/* The ops of the calls a pattern node can be (each once, in order), and
 * whether it can also be something else (a wildcard or constant behind an
 * optional op or an alternative) or a call of any op.  Patterns are DAGs:
 * a node reached twice is walked once. */
static void call_ops(pscope *ps, int root, vec *out, bool *other, bool *any)
{
    compilation *c = ps->c;
    unsigned char *seen = BX_NEWN(A, unsigned char, ps->lp->nodes.n);
    bx_hash names;
    bx_hash_init(&names);
    vec todo = {0};
    vec_push(A, &todo, (void *)(intptr_t)root);
    while (todo.n) {
        int k = (int)(intptr_t)todo.v[--todo.n];
        if (seen[k])
            continue;
        seen[k] = 1;
        lpnode *n = ps->lp->nodes.v[k];
        if (n->kind == BYOC_PAT_CALL) {
            *any |= n->ops.n == 0;
            for (int i = 0; i < n->ops.n; i++)
                if (!bx_hash_put(&names, n->ops.v[i], n))
                    vec_push(A, out, n->ops.v[i]);
        } else if (n->kind == BYOC_PAT_ALT) {
            for (int i = n->kids.n - 1; i >= 0; i--)
                vec_push(A, &todo, n->kids.v[i]);
        } else {
            *other = true;
        }
    }
    bx_hash_free(&names);
}

/* ---- strings as dtypes, constants in sets, membership of a list ----------- */

/* A string literal compared with a dtype: "" is the unset dtype (Relay's
 * out_dtype=""), "float32" the dtype float32. */
static int str_dtype(pscope *ps, expr *x)
{
    compilation *c = ps->c;
    if (x->kind != E_STR)
        return T_STRING;
    int d = byoc_dtype_lookup(x->s);
    if (d < 0) {
        ERR(x->at, "\"%s\" is not a dtype (\"\" is the unset dtype)", x->s);
        return T_ERROR;
    }
    x->kind = E_NAME;
    x->dtype = d;
    x->ty = T_DTYPE;
    x->fixed = true;
    x->height = 1;
    return T_DTYPE;
}

/* Is it (of type t) a constant an `in {...}` set may hold? */
static bool literal(const expr *it, int t)
{
    switch (it->kind) {
    case E_INT: case E_FLOAT: case E_STR: case E_BOOL: case E_VERSION:
        return true;
    case E_NAME:
        return t == T_DTYPE || t == T_OP;
    case E_UNARY:
        return it->op == '-' && is_num(t) && literal(it->a, it->a->ty);
    case E_LIST:
        for (int i = 0; i < it->items.n; i++) {
            const expr *x = it->items.v[i];
            if (x->kind == E_LIST || !literal(x, x->ty))
                return false;
        }
        return true;
    default:
        return false;
    }
}

/* x in L, for a list L that is not written out (target.layouts,
 * shape(t)): any($in in L: $in == x), which the quantifier code already
 * compiles.  x and L are typed once, here. */
static int type_in_list(pscope *ps, expr *e)
{
    compilation *c = ps->c;
    int a = typecheck(ps, e->a), l = typecheck(ps, e->b);
    if (a == T_ERROR || l == T_ERROR)
        return T_ERROR;
    if (!is_list(l) || l == T_LIST_ANY) {
        ERR(e->b->at, "'in' takes a set {a, b}, a range lo..hi or a list, not %s", ty_name(l));
        return T_ERROR;
    }
    int et = elem_type(l);
    if (et == T_DTYPE && a == T_STRING)
        a = str_dtype(ps, e->a);
    if (a == T_ERROR)
        return T_ERROR;
    if (!comparable(a, et)) {
        ERR(e->at, "cannot compare %s with the items of %s", ty_name(a), ty_name(l));
        return T_ERROR;
    }
    e->a->fixed = e->b->fixed = true;
    expr *var = BX_NEW(A, expr);
    *var = (expr){.kind = E_NAME, .at = e->at, .end = e->at, .s = "$in", .dtype = -1,
                  .slot = -1, .qvar = -1, .opt = -1};
    expr *eq = BX_NEW(A, expr);
    *eq = (expr){.kind = E_BINARY, .op = OP_EQ, .at = e->at, .end = e->end, .op_at = e->op_at,
                 .a = var, .b = e->a, .dtype = -1, .slot = -1, .qvar = -1, .opt = -1};
    e->kind = E_QUANT;
    e->i = 0;
    e->s = "$in";
    e->a = e->b;
    e->b = eq;
    return typecheck_(ps, e);
}

/* ---- predicate macros --------------------------------------------------------- */

/* The type of a predicate parameter: node (a name bound in the pattern) or
 * a value type, with [] for lists; T_ERROR when there is no such type. */
static int pred_param_type(const pred_param *pp)
{
    static const struct { const char *n; int t, lt; } m[] = {
        {"node", T_TENSOR, T_LIST_TENSOR}, {"tensor", T_TENSOR, T_LIST_TENSOR},
        {"bool", T_BOOL, T_LIST_BOOL}, {"int", T_INT, T_LIST_INT},
        {"float", T_FLOAT, T_LIST_FLOAT}, {"string", T_STRING, T_LIST_STRING},
        {"dtype", T_DTYPE, T_LIST_DTYPE}, {"version", T_VERSION, T_ERROR},
        {"op", T_OP, T_ERROR},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (!strcmp(pp->type, m[i].n))
            return pp->depth == 0 ? m[i].t : pp->depth == 1 ? m[i].lt
                   : pp->depth == 2 && m[i].t == T_INT ? T_LIST_LIST_INT : T_ERROR;
    return T_ERROR;
}

/* Replace the parameters of pm in (a copy of) its body by copies of the
 * arguments, which were typed where they were written.  A quantifier
 * variable of the body hides a parameter of its name.  Recursion follows
 * the body as parsed: at most BYOCC_MAX_DEPTH deep. */
static expr *subst_params(compilation *c, expr *e, pred_ast *pm, vec *args, vec *hidden)
{
    if (!e || c->too_large)
        return e;
    if (e->kind == E_NAME) {
        for (int i = hidden->n - 1; i >= 0; i--)
            if (!strcmp(hidden->v[i], e->s))
                return e;
        for (int i = 0; i < pm->params.n; i++)
            if (!strcmp(((pred_param *)pm->params.v[i])->name, e->s)) {
                expr *x = copy_expr(c, args->v[i], true);
                return x ? x : e;
            }
        return e;
    }
    e->a = subst_params(c, e->a, pm, args, hidden);
    if (e->kind == E_QUANT)
        vec_push(A, hidden, (void *)e->s);
    e->b = subst_params(c, e->b, pm, args, hidden);
    if (e->kind == E_QUANT)
        hidden->n--;
    e->c = subst_params(c, e->c, pm, args, hidden);
    for (int i = 0; i < e->items.n; i++)
        e->items.v[i] = subst_params(c, e->items.v[i], pm, args, hidden);
    return e;
}

/* A use of a predicate macro: its arguments are typed here, against its
 * parameters' types, then a copy of its body with the parameters replaced
 * is typed where the use is (names of ops and options resolve there), and
 * takes the use's place as an E_MACRO node. */
static int expand_pred(pscope *ps, expr *e, pred_ast *pm)
{
    compilation *c = ps->c;
    if (e->items.n != pm->params.n) {
        ERR(e->at, "predicate '%s' takes %d argument%s, got %d", pm->name, pm->params.n,
            pm->params.n == 1 ? "" : "s", e->items.n);
        NOTE(pm->at, "'%s' is defined here", pm->name);
        return T_ERROR;
    }
    for (int i = 0; i < ps->nmacro; i++)
        if (ps->macros[i] == pm) {
            ERR(e->at, "predicate '%s' uses itself%s: its expansion would not end", pm->name,
                i + 1 < ps->nmacro ? " through other predicates" : "");
            NOTE(pm->at, "'%s' is defined here", pm->name);
            return T_ERROR;
        }
    if (ps->nmacro == BYOCC_MAX_PRED_NESTING) {
        ERR(e->at, "predicates used inside predicates more than %d deep",
            BYOCC_MAX_PRED_NESTING);
        return T_ERROR;
    }
    check_pred_decl(c, pm);
    bool ok = pm->ok;
    for (int i = 0; i < e->items.n; i++) {
        expr *arg = e->items.v[i];
        pred_param *pp = pm->params.v[i];
        int want = pred_param_type(pp);
        int t = typecheck(ps, arg);
        if (t == T_STRING && want == T_DTYPE)
            t = str_dtype(ps, arg);
        if (t == T_ERROR || want == T_ERROR) {
            ok = false;
            continue;
        }
        if (t != want && !(want == T_FLOAT && t == T_INT)) {
            ERR(arg->at, "argument %d of predicate '%s' ('%s') must be %s, not %s", i + 1,
                pm->name, pp->name, want == T_TENSOR ? "a node (a name bound in the pattern)"
                                                     : ty_name(want), ty_name(t));
            NOTE(pp->at, "'%s' is declared here", pp->name);
            ok = false;
        }
    }
    if (!ok)
        return T_ERROR;
    for (int i = 0; i < e->items.n; i++)
        ((expr *)e->items.v[i])->fixed = true;
    expr *body = copy_expr(c, pm->body, true);
    if (!body || c->too_large)
        return T_ERROR;
    vec hidden = {0};
    body = subst_params(c, body, pm, &e->items, &hidden);
    if (c->too_large)
        return T_ERROR;
    int before = c->diag.errors;
    ps->macros[ps->nmacro++] = pm;
    int t = typecheck(ps, body);
    ps->nmacro--;
    if (t != T_ERROR && t != T_BOOL) {
        ERR(pm->body->at, "predicate '%s' must be a condition (bool), not %s", pm->name,
            ty_name(t));
        t = T_ERROR;
    }
    if (c->diag.errors > before && !stopped(c))
        NOTE(e->at, "in predicate '%s', used here", pm->name);
    if (t == T_ERROR)
        return T_ERROR;
    e->kind = E_MACRO;
    e->a = body;
    e->sym = pm;
    return T_BOOL;
}

/* Names in a predicate macro's body are its parameters, its quantifier
 * variables, dtypes, ops and target (for target.OPTION, resolved where it
 * is used); anything else would be taken from the using pattern, by
 * accident. */
static void pred_names(compilation *c, pred_ast *pm, expr *e, vec *q)
{
    if (!e)
        return;
    const char *names[80];
    int n = 0;
    switch (e->kind) {
    case E_NAME:
    case E_MEMBER: {
        expr *h = e;
        while (h->kind == E_MEMBER)
            h = h->a;
        if (h->kind != E_NAME) {
            pred_names(c, pm, h, q);
            return;
        }
        for (int i = 0; i < q->n; i++)
            if (!strcmp(q->v[i], h->s))
                return;
        for (int i = 0; i < pm->params.n; i++)
            if (!strcmp(((pred_param *)pm->params.v[i])->name, h->s))
                return;
        if (!strcmp(h->s, "target") || byoc_dtype_lookup(h->s) > 0)
            return;
        const char *dn = dotted(c, e);
        if (dn && find_op(c, pm->file, dn))
            return;
        if (e->kind == E_MEMBER && op_space(c, h->s)) {
            ERR(e->at, "unknown operator '%s'", dn ? dn : h->s);
            return;
        }
        ERR(h->at, "unknown name '%s' in predicate '%s'", h->s, pm->name);
        for (int i = 0; i < pm->params.n && n < 64; i++)
            names[n++] = ((pred_param *)pm->params.v[i])->name;
        for (int i = 0; i < q->n && n < 80; i++)
            names[n++] = q->v[i];
        const char *sug = diag_suggest(h->s, names, n);
        if (sug)
            NOTE(h->at, "did you mean '%s'?", sug);
        else
            NOTE(pm->at, "a predicate sees only its parameters: add '%s' to them", h->s);
        return;
    }
    case E_QUANT:
        pred_names(c, pm, e->a, q);
        vec_push(A, q, (void *)e->s);
        pred_names(c, pm, e->b, q);
        q->n--;
        return;
    default:
        pred_names(c, pm, e->a, q);
        pred_names(c, pm, e->b, q);
        pred_names(c, pm, e->c, q);
        for (int i = 0; i < e->items.n; i++)
            pred_names(c, pm, e->items.v[i], q);
        return;
    }
}

/* A predicate macro's declaration: its name, its parameters and the names
 * its body uses.  Its body is typed at each use. */
static void check_pred_decl(compilation *c, pred_ast *pm)
{
    if (pm->checked)
        return;
    pm->checked = true;
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (!strcmp(pm->name, builtins[i])) {
            ERR(pm->at, "'%s' is a built-in function and cannot name a predicate", pm->name);
            return;
        }
    decl *ex = bx_hash_get(&c->externs, pm->name);
    if (ex && visible_from(pm->file, ex)) {
        ERR(pm->at, "predicate '%s' has the name of an extern %s", pm->name,
            ex->lower ? "lower pass" : "predicate");
        NOTE(ex->name_at, "'%s' is declared here", pm->name);
        return;
    }
    bool ok = true;
    for (int i = 0; i < pm->params.n; i++) {
        pred_param *pp = pm->params.v[i];
        for (int k = 0; k < i; k++)
            if (!strcmp(((pred_param *)pm->params.v[k])->name, pp->name)) {
                ERR(pp->at, "duplicate parameter '%s'", pp->name);
                ok = false;
            }
        if (pred_param_type(pp) == T_ERROR) {
            ERR(pp->type_at, "unknown parameter type '%s%s'", pp->type,
                pp->depth == 0 ? "" : pp->depth == 1 ? "[]" : pp->depth == 2 ? "[][]" : "[][]...");
            NOTE(pp->type_at, "a parameter is a node (a name bound in the pattern) or a value: "
                 "bool, int, float, string, dtype, version, op, a list such as int[], or int[][]");
            ok = false;
        }
    }
    int before = c->diag.errors;
    vec q = {0};
    pred_names(c, pm, pm->body, &q);
    pm->ok = ok && c->diag.errors == before;
}

static int typecheck_(pscope *ps, expr *e)
{
    compilation *c = ps->c;
    switch (e->kind) {
    case E_INT:
        e->cst = true;
        e->cval = e->i;
        return T_INT;
    case E_FLOAT: return T_FLOAT;
    case E_STR: return T_STRING;
    case E_BOOL: return T_BOOL;
    case E_VERSION: return T_VERSION;
    case E_NONE:
        ERR(e->at, "None is not a value in predicates; reading an absent attribute makes "
            "the predicate false");
        return T_ERROR;
    case E_TUPLE:
        ERR(e->at, "tuples are only for the values of a for family");
        return T_ERROR;
    case E_NAME:
        if (subst_expr(ps, e))
            return typecheck_(ps, e);
        return type_name_expr(ps, e);
    case E_MEMBER:
        if (e->a->kind == E_NAME && subst_expr(ps, e->a) && e->a->kind != E_NAME) {
            ERR(e->at, "'.%s' cannot follow this value", e->s);
            return T_ERROR;
        }
        return type_member(ps, e);
    case E_INDEX: {
        int a = typecheck(ps, e->a), i = typecheck(ps, e->b);
        if (a == T_ERROR || i == T_ERROR)
            return T_ERROR;
        if (a == T_STRING && i == T_INT)
            return T_STRING;    /* one character: "NHWC"[1] is "H" */
        if (!is_list(a)) {
            ERR(e->at, "only lists and strings can be indexed, not %s", ty_name(a));
            return T_ERROR;
        }
        if (i != T_INT) {
            ERR(e->b->at, "an index must be an int, not %s", ty_name(i));
            return T_ERROR;
        }
        if (a == T_LIST_ANY) {
            ERR(e->at, "the items of this list have no single type and cannot be read");
            return T_ERROR;
        }
        return elem_type(a);
    }
    case E_CALL:
        return type_call(ps, e);
    case E_QUANT: {
        const char *qn = e->i == 2 ? "sum" : e->i ? "all" : "any";
        int st = typecheck(ps, e->a);
        if (st == T_ERROR)
            return T_ERROR;
        if (!is_list(st) || st == T_LIST_ANY) {
            ERR(e->a->at, "%s() ranges over a list, not %s", qn, ty_name(st));
            return T_ERROR;
        }
        if (ps->nq == 16) {
            ERR(e->at, "quantifiers nested too deeply");
            return T_ERROR;
        }
        ps->qvars[ps->nq] = e->s;
        ps->qtypes[ps->nq] = elem_type(st);
        e->qvar = ps->nq;
        ps->nq++;
        int bt = typecheck(ps, e->b);
        ps->nq--;
        if (bt == T_ERROR)
            return T_ERROR;
        if (e->i == 2) {
            if (bt != T_INT && bt != T_FLOAT) {
                ERR(e->b->at, "the body of sum() must be a number, not %s", ty_name(bt));
                return T_ERROR;
            }
            return bt;
        }
        if (bt != T_BOOL) {
            ERR(e->b->at, "the body of %s() must be a condition, not %s", qn, ty_name(bt));
            return T_ERROR;
        }
        return T_BOOL;
    }
    case E_UNARY: {
        int t = typecheck(ps, e->a);
        if (t == T_ERROR)
            return T_ERROR;
        if (e->op == '!') {
            if (t != T_BOOL) {
                ERR(e->at, "'!' needs a condition, not %s", ty_name(t));
                return T_ERROR;
            }
            return T_BOOL;
        }
        if (!is_num(t)) {
            ERR(e->at, "'-' needs a number, not %s", ty_name(t));
            return T_ERROR;
        }
        if (t == T_INT && e->a->cst && !fold(e, '-', 0, e->a->cval)) {
            ERR(e->op_at, "integer overflow in constant expression");
            return T_ERROR;
        }
        return t;
    }
    case E_BINARY: {
        int a, b;
        if (e->op == OP_AND || e->op == OP_OR) {
            /* b runs only where a is true (&&) or false (||): what a says
             * of op(x) holds there. */
            a = typecheck(ps, e->a);
            int save = ps->facts.n;
            if (a == T_BOOL)
                facts_of(ps, e->a, e->op == OP_AND, 0);
            b = typecheck(ps, e->b);
            ps->facts.n = save;
        } else {
            a = typecheck(ps, e->a);
            b = typecheck(ps, e->b);
        }
        if (a == T_ERROR || b == T_ERROR)
            return T_ERROR;
        if ((e->op == OP_EQ || e->op == OP_NE) && a == T_DTYPE && b == T_STRING)
            b = str_dtype(ps, e->b);
        else if ((e->op == OP_EQ || e->op == OP_NE) && b == T_DTYPE && a == T_STRING)
            a = str_dtype(ps, e->a);
        if (a == T_ERROR || b == T_ERROR)
            return T_ERROR;
        if ((e->op == '/' || e->op == '%') && is_num(a) && const_zero(e->b)) {
            ERR(e->op_at, "division by zero");
            return T_ERROR;
        }
        if (a == T_INT && b == T_INT && e->a->cst && e->b->cst
            && !fold(e, e->op, e->a->cval, e->b->cval)) {
            ERR(e->op_at, "integer overflow in constant expression");
            return T_ERROR;
        }
        switch (e->op) {
        case OP_AND:
        case OP_OR:
            if (a != T_BOOL || b != T_BOOL) {
                ERR(e->at, "'%s' needs conditions on both sides, not %s and %s",
                    e->op == OP_AND ? "&&" : "||", ty_name(a), ty_name(b));
                return T_ERROR;
            }
            return T_BOOL;
        case OP_EQ:
        case OP_NE:
            if (!comparable(a, b)) {
                ERR(e->at, "cannot compare %s with %s", ty_name(a), ty_name(b));
                return T_ERROR;
            }
            if (a == T_OP)
                check_op_comparison(ps, e);
            return T_BOOL;
        case '<':
        case '>':
        case OP_LE:
        case OP_GE:
            if (!((is_num(a) && is_num(b)) || (a == T_VERSION && b == T_VERSION))) {
                ERR(e->at, "cannot order %s and %s", ty_name(a), ty_name(b));
                return T_ERROR;
            }
            return T_BOOL;
        case '%':
            if (a != T_INT || b != T_INT) {
                ERR(e->at, "'%%' needs ints, not %s and %s", ty_name(a), ty_name(b));
                return T_ERROR;
            }
            return T_INT;
        default:
            if (!is_num(a) || !is_num(b)) {
                ERR(e->at, "'%c' needs numbers, not %s and %s", e->op, ty_name(a), ty_name(b));
                return T_ERROR;
            }
            return a == T_FLOAT || b == T_FLOAT ? T_FLOAT : T_INT;
        }
    }
    case E_IN_SET: {
        int a = typecheck(ps, e->a);
        if (a == T_ERROR)
            return T_ERROR;
        bool ok = true;
        for (int i = 0; i < e->items.n; i++) {
            expr *it = e->items.v[i];
            int t = typecheck(ps, it);
            if (t == T_STRING && a == T_DTYPE)
                t = str_dtype(ps, it);
            if (t == T_ERROR) {
                ok = false;
                continue;
            }
            if (!literal(it, t)) {
                ERR(it->at, "the items of a set must be constants (a value, a dtype, an op, or "
                    "a list of values)");
                ok = false;
            } else if (!comparable(a, t) || a == T_LIST_TENSOR) {
                ERR(it->at, "cannot compare %s with %s", ty_name(a), ty_name(t));
                ok = false;
            }
        }
        return ok ? T_BOOL : T_ERROR;
    }
    case E_IN_LIST:
        return type_in_list(ps, e);
    case E_IN_RANGE: {
        int a = typecheck(ps, e->a), lo = typecheck(ps, e->b), hi = typecheck(ps, e->c);
        if (a == T_ERROR || lo == T_ERROR || hi == T_ERROR)
            return T_ERROR;
        if (!is_num(a) || !is_num(lo) || !is_num(hi)) {
            ERR(e->at, "a range needs numbers, not %s in %s..%s", ty_name(a), ty_name(lo),
                ty_name(hi));
            return T_ERROR;
        }
        return T_BOOL;
    }
    case E_LIST:
        return type_list(ps, e);
    case E_OPALT:
        ERR(e->at, "'|' makes a set of operators for contains() and count()");
        return T_ERROR;
    case E_MACRO:
        return typecheck(ps, e->a);
    }
    bx_die("bad expression kind");
}

static void too_deep(pscope *ps, expr *e)
{
    compilation *c = ps->c;
    if (!ps->deep)
        ERR(e->at, "predicate nested too deeply once predicate macros are expanded (more than "
            "%d levels)", BYOCC_MAX_DEPTH);
    ps->deep = true;
}

static int height(const expr *e)
{
    return e ? e->height : 0;
}

/* Types e, and counts levels: with predicate macros expanded, a tree may be
 * deeper than any one the parser built, and every later pass recurses on
 * it. */
static int typecheck(pscope *ps, expr *e)
{
    /* Past BYOCC_MAX_EXPANDED a copy may be short: stop at once. */
    if (ps->c->too_large)
        return e->ty = T_ERROR;
    if (e->fixed) {
        if (ps->level + e->height > BYOCC_MAX_DEPTH) {
            too_deep(ps, e);
            return T_ERROR;
        }
        return e->ty;
    }
    if (ps->level >= BYOCC_MAX_DEPTH || ps->deep) {
        too_deep(ps, e);
        return e->ty = T_ERROR;
    }
    ps->level++;
    e->ty = typecheck_(ps, e);
    ps->level--;
    int h = height(e->a);
    if (height(e->b) > h)
        h = height(e->b);
    if (height(e->c) > h)
        h = height(e->c);
    for (int i = 0; i < e->items.n; i++)
        if (height(e->items.v[i]) > h)
            h = height(e->items.v[i]);
    e->height = h + 1;
    return e->ty;
}

/* The top-level && clauses of e, in order.  A chain `a && b && ...` is
 * as deep as it is long, so the walk keeps its own stack. */
static void split_clauses(compilation *c, vec *out, expr *e)
{
    vec todo = {0};
    vec_push(A, &todo, e);
    while (todo.n) {
        expr *x = todo.v[--todo.n];
        if (x->kind == E_BINARY && x->op == OP_AND) {
            vec_push(A, &todo, x->b);
            vec_push(A, &todo, x->a);
        } else {
            vec_push(A, out, x);
        }
    }
}

/* The source text of e, white space folded. */
static const char *expr_text(compilation *c, const file_ast *f, expr *e)
{
    if (!f || e->at.line < 1 || e->end.line > f->nlines)
        return "";
    size_t a = (size_t)f->line_starts[e->at.line - 1] + (size_t)e->at.col - 1;
    size_t b = (size_t)f->line_starts[e->end.line - 1] + (size_t)e->end.col;
    if (b > f->srclen || a > b)
        return "";
    char *s = bx_arena_alloc(A, b - a + 1), *o = s;
    bool sp = false;
    for (size_t i = a; i < b; i++) {
        char ch = f->src[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            sp = true;
            continue;
        }
        if (sp && o != s)
            *o++ = ' ';
        sp = false;
        *o++ = ch;
    }
    *o = 0;
    return s;
}

/* A copy of e (of depth at most BYOCC_MAX_DEPTH), counted against
 * BYOCC_MAX_EXPANDED: past it the copy stops short, and checking stops.
 * value: a for-family value, whose names are not substituted. */
static expr *copy_expr(compilation *c, expr *e, bool value)
{
    if (!e || !charge(c, 1))
        return NULL;
    expr *x = BX_NEW(A, expr);
    *x = *e;
    x->nosubst |= value;
    x->a = copy_expr(c, e->a, value);
    x->b = copy_expr(c, e->b, value);
    x->c = copy_expr(c, e->c, value);
    vec items = {0};
    for (int i = 0; i < e->items.n && !c->too_large; i++)
        vec_push(A, &items, copy_expr(c, e->items.v[i], value));
    x->items = items;
    return x;
}

/* ---- clauses that never hold, always hold, repeat, or contradict ----------- */

static bool expr_equal(const expr *a, const expr *b, int depth)
{
    if (a == b)
        return true;
    if (!a || !b || depth > BYOCC_MAX_DEPTH || a->kind != b->kind || a->ty != b->ty)
        return false;
    switch (a->kind) {
    case E_INT: return a->i == b->i && a->dtype == b->dtype;
    case E_FLOAT: return a->f == b->f && a->dtype == b->dtype;
    case E_STR: return !strcmp(a->s, b->s);
    case E_BOOL: return a->i == b->i;
    case E_VERSION: return a->ver == b->ver;
    case E_NAME:
        return a->slot == b->slot && a->qvar == b->qvar && a->dtype == b->dtype
               && a->sym == b->sym && !strcmp(a->s, b->s);
    default: break;
    }
    if (a->op != b->op || a->i != b->i || a->opt != b->opt || a->sym != b->sym
        || (a->s != b->s && (!a->s || !b->s || strcmp(a->s, b->s) != 0))
        || a->items.n != b->items.n)
        return false;
    if (!expr_equal(a->a, b->a, depth + 1) || !expr_equal(a->b, b->b, depth + 1)
        || !expr_equal(a->c, b->c, depth + 1))
        return false;
    for (int i = 0; i < a->items.n; i++)
        if (!expr_equal(a->items.v[i], b->items.v[i], depth + 1))
            return false;
    return true;
}

typedef struct kval {       /* a constant a clause compares with */
    int kind;               /* 0 none, 1 number, 2 string, 3 dtype, 4 op, 5 bool */
    bool is_int;
    int64_t i;
    double f;
    const char *s;
} kval;

static bool const_of(const expr *e, kval *v)
{
    memset(v, 0, sizeof *v);
    if ((e->ty == T_INT && e->cst) || e->kind == E_INT) {
        *v = (kval){.kind = 1, .is_int = true, .i = e->cst ? e->cval : e->i};
    } else if (e->kind == E_FLOAT) {
        *v = (kval){.kind = 1, .f = e->f};
    } else if (e->kind == E_UNARY && e->op == '-' && e->a->kind == E_FLOAT) {
        *v = (kval){.kind = 1, .f = -e->a->f};
    } else if (e->kind == E_STR) {
        *v = (kval){.kind = 2, .s = e->s};
    } else if (e->kind == E_NAME && e->ty == T_DTYPE && e->qvar < 0 && e->opt < 0) {
        *v = (kval){.kind = 3, .i = e->dtype};
    } else if (e->kind == E_NAME && e->ty == T_OP && e->sym && e->qvar < 0) {
        *v = (kval){.kind = 4, .s = e->s};
    } else if (e->kind == E_BOOL) {
        *v = (kval){.kind = 5, .i = e->i};
    }
    return v->kind != 0;
}

/* -1, 0, 1; 2 when a and b do not compare (different kinds, or order asked
 * of what has none). */
static int kcmp(const kval *a, const kval *b, bool order)
{
    if (a->kind != b->kind || (order && a->kind != 1))
        return 2;
    switch (a->kind) {
    case 1:
        if (a->is_int && b->is_int)
            return a->i < b->i ? -1 : a->i > b->i;
        {
            double x = a->is_int ? (double)a->i : a->f, y = b->is_int ? (double)b->i : b->f;
            return x < y ? -1 : x > y ? 1 : x == y ? 0 : 2;
        }
    case 2:
    case 4: {
        int r = strcmp(a->s, b->s);
        return r < 0 ? -1 : r > 0;
    }
    default:
        return a->i < b->i ? -1 : a->i > b->i;
    }
}

/* A clause's value when byocc can tell it: 1 true, 0 false, -1 not known.
 * target.OPTION is set at run time, so it is never known. */
static int const_bool(const expr *e, int depth)
{
    if (depth > 64)
        return -1;
    kval a, b;
    switch (e->kind) {
    case E_BOOL:
        return (int)e->i;
    case E_MACRO:
        return const_bool(e->a, depth + 1);
    case E_UNARY:
        if (e->op == '!') {
            int v = const_bool(e->a, depth + 1);
            return v < 0 ? -1 : !v;
        }
        return -1;
    case E_BINARY: {
        if (e->op == OP_AND || e->op == OP_OR) {
            int x = const_bool(e->a, depth + 1), y = const_bool(e->b, depth + 1);
            if (e->op == OP_AND)
                return x == 0 || y == 0 ? 0 : x == 1 && y == 1 ? 1 : -1;
            return x == 1 || y == 1 ? 1 : x == 0 && y == 0 ? 0 : -1;
        }
        if (!const_of(e->a, &a) || !const_of(e->b, &b))
            return -1;
        bool order = e->op != OP_EQ && e->op != OP_NE;
        int r = kcmp(&a, &b, order);
        if (r == 2)
            return -1;
        switch (e->op) {
        case OP_EQ: return r == 0;
        case OP_NE: return r != 0;
        case '<': return r < 0;
        case '>': return r > 0;
        case OP_LE: return r <= 0;
        case OP_GE: return r >= 0;
        default: return -1;
        }
    }
    case E_IN_SET:
        if (!const_of(e->a, &a))
            return -1;
        for (int i = 0; i < e->items.n; i++) {
            if (!const_of(e->items.v[i], &b))
                return -1;
            int r = kcmp(&a, &b, false);
            if (r == 2)
                return -1;
            if (r == 0)
                return 1;
        }
        return 0;
    default:
        return -1;
    }
}

/* What one clause says of one expression x: x == v, x != v, x in {set}, or
 * a bound lo <= x (LO) or x <= hi (HI), strict or not. */
typedef struct cons {
    const expr *x;
    int kind;               /* 1 EQ, 2 NE, 3 SET, 4 LO, 5 HI */
    kval v;
    bool strict;
    const expr *set;
    const expr *clause;
} cons;

static int add_cons(cons *out, int n, const expr *x, int kind, const kval *v, bool strict,
                    const expr *set, const expr *cl)
{
    out[n] = (cons){.x = x, .kind = kind, .strict = strict, .set = set, .clause = cl};
    if (v)
        out[n].v = *v;
    return n + 1;
}

/* The constraints of clause cl, into out (at most 2); their count. */
static int constraints(const expr *cl, cons *out)
{
    kval v, w;
    if (cl->kind == E_BINARY && cl->op != OP_AND && cl->op != OP_OR) {
        const expr *x = cl->a;
        int op = cl->op;
        if (const_of(cl->a, &v)) {     /* 3 < x: x > 3 */
            if (const_of(cl->b, &w))
                return 0;
            x = cl->b;
            op = op == '<' ? '>' : op == '>' ? '<' : op == OP_LE ? OP_GE : op == OP_GE ? OP_LE : op;
        } else if (!const_of(cl->b, &v)) {
            return 0;
        }
        switch (op) {
        case OP_EQ: return add_cons(out, 0, x, 1, &v, false, NULL, cl);
        case OP_NE: return add_cons(out, 0, x, 2, &v, false, NULL, cl);
        case '<': return v.kind == 1 ? add_cons(out, 0, x, 5, &v, true, NULL, cl) : 0;
        case OP_LE: return v.kind == 1 ? add_cons(out, 0, x, 5, &v, false, NULL, cl) : 0;
        case '>': return v.kind == 1 ? add_cons(out, 0, x, 4, &v, true, NULL, cl) : 0;
        case OP_GE: return v.kind == 1 ? add_cons(out, 0, x, 4, &v, false, NULL, cl) : 0;
        default: return 0;
        }
    }
    if (cl->kind == E_IN_SET && !const_of(cl->a, &v)) {
        for (int i = 0; i < cl->items.n; i++)
            if (!const_of(cl->items.v[i], &w))
                return 0;
        return add_cons(out, 0, cl->a, 3, NULL, false, cl, cl);
    }
    if (cl->kind == E_IN_RANGE && !const_of(cl->a, &v) && const_of(cl->b, &v)
        && const_of(cl->c, &w) && v.kind == 1 && w.kind == 1) {
        int n = add_cons(out, 0, cl->a, 4, &v, false, NULL, cl);
        return add_cons(out, n, cl->a, 5, &w, false, NULL, cl);
    }
    return 0;
}

/* Does the value v satisfy constraint k? -1 when that cannot be told. */
static int satisfies(const kval *v, const cons *k)
{
    kval w;
    int r;
    switch (k->kind) {
    case 1:
        r = kcmp(v, &k->v, false);
        return r == 2 ? -1 : r == 0;
    case 2:
        r = kcmp(v, &k->v, false);
        return r == 2 ? -1 : r != 0;
    case 3:
        for (int i = 0; i < k->set->items.n; i++) {
            const_of(k->set->items.v[i], &w);
            r = kcmp(v, &w, false);
            if (r == 2)
                return -1;
            if (r == 0)
                return 1;
        }
        return 0;
    case 4:
        r = kcmp(v, &k->v, true);
        return r == 2 ? -1 : k->strict ? r > 0 : r >= 0;
    default:
        r = kcmp(v, &k->v, true);
        return r == 2 ? -1 : k->strict ? r < 0 : r <= 0;
    }
}

/* Can a value satisfy both a and b (on the same expression)? */
static bool compatible(const cons *a, const cons *b)
{
    if (a->kind == 1)
        return satisfies(&a->v, b) != 0;
    if (b->kind == 1)
        return satisfies(&b->v, a) != 0;
    kval w;
    if (a->kind == 3 || b->kind == 3) {
        const cons *s = a->kind == 3 ? a : b, *o = a->kind == 3 ? b : a;
        for (int i = 0; i < s->set->items.n; i++) {
            const_of(s->set->items.v[i], &w);
            if (satisfies(&w, o) != 0)
                return true;
        }
        return false;
    }
    if ((a->kind == 4 && b->kind == 5) || (a->kind == 5 && b->kind == 4)) {
        const cons *lo = a->kind == 4 ? a : b, *hi = a->kind == 4 ? b : a;
        int r = kcmp(&lo->v, &hi->v, true);
        if (r == 2)
            return true;
        return r < 0 || (r == 0 && !lo->strict && !hi->strict);
    }
    return true;
}

static void clause_note(compilation *c, const expr *cl)
{
    if (cl->via)
        NOTE(cl->at, "in `%s`", cl->via);
}

/* Warnings on a where's clauses (macro parts included): one that is
 * always true or always false, one that repeats another, two that cannot
 * both hold.  Once per item (not per family member or alternative). */
static void warn_clauses(compilation *c, titem *it, vec *clauses)
{
    if (it->warned || c->diag.errors)
        return;
    int n = clauses->n;
    cons *ks = BX_NEWN(A, cons, (size_t)n * 2 + 1);
    int nk = 0;
    for (int i = 0; i < n && !it->warned; i++) {
        expr *cl = clauses->v[i];
        int v = const_bool(cl, 0);
        if (v >= 0) {
            diag_warning(&c->diag, cl->at, v ? "this clause is always true"
                                             : "this clause is always false: the predicate "
                                               "never holds");
            clause_note(c, cl);
            it->warned = true;
            break;
        }
        for (int j = 0; j < i; j++)
            if (expr_equal(clauses->v[j], cl, 0)) {
                expr *o = clauses->v[j];
                diag_warning(&c->diag, cl->at, "this clause repeats the one at %d:%d",
                             o->at.line, o->at.col);
                clause_note(c, cl);
                it->warned = true;
                break;
            }
        if (it->warned)
            break;
        int m = constraints(cl, ks + nk);
        for (int a = nk; a < nk + m && !it->warned; a++)
            for (int b = 0; b < nk && !it->warned; b++) {
                if (!expr_equal(ks[a].x, ks[b].x, 0) || compatible(&ks[a], &ks[b]))
                    continue;
                const expr *o = ks[b].clause;
                diag_warning(&c->diag, cl->at, "this clause contradicts the one at %d:%d: the "
                             "predicate never holds", o->at.line, o->at.col);
                clause_note(c, cl);
                NOTE(o->at, "the other clause is here");
                it->warned = true;
            }
        nk += m;
    }
}

/* The file a location is in. */
static const file_ast *file_of(compilation *c, loc at)
{
    for (int i = 0; i < c->all_files.n; i++) {
        file_ast *f = c->all_files.v[i];
        if (f->path == at.file || (f->path && at.file && !strcmp(f->path, at.file)))
            return f;
    }
    return NULL;
}

typedef struct tmap {       /* a macro's parameters and the text of its arguments */
    const char **names, **texts;
    int n;
    const struct tmap *up;
} tmap;

static bool word_char(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_';
}

/* text with each parameter of m written as its argument's text: the
 * clause as the using pattern's names read it, for explain. */
static const char *rewrite(compilation *c, const char *text, const tmap *m)
{
    if (!m || !m->n)
        return text;
    bx_strbuf o = {0};
    for (const char *p = text; *p;) {
        if (*p == '"') {        /* a string literal, as written */
            const char *q = p + 1;
            while (*q && *q != '"')
                q += q[0] == '\\' && q[1] ? 2 : 1;
            if (*q)
                q++;
            bx_sb_printf(&o, "%.*s", (int)(q - p), p);
            p = q;
            continue;
        }
        if (!word_char(*p) || (p > text && (word_char(p[-1]) || p[-1] == '.'))) {
            bx_sb_printf(&o, "%c", *p++);
            continue;
        }
        const char *q = p;
        while (word_char(*q))
            q++;
        const char *rep = NULL;
        for (int i = 0; i < m->n && !rep; i++)
            if (strlen(m->names[i]) == (size_t)(q - p) && !strncmp(m->names[i], p, (size_t)(q - p)))
                rep = m->texts[i];
        if (rep)
            bx_sb_printf(&o, "%s", rep);
        else
            bx_sb_printf(&o, "%.*s", (int)(q - p), p);
        p = q;
    }
    const char *r = bx_arena_strdup(A, bx_sb_str(&o));
    bx_sb_free(&o);
    return r;
}

/* An argument's text as an operand: parenthesised unless it is a name, a
 * number, a call or an index. */
static const char *operand(compilation *c, const char *t)
{
    int depth = 0;
    for (const char *p = t; *p; p++) {
        if (*p == '(' || *p == '[')
            depth++;
        else if (*p == ')' || *p == ']')
            depth--;
        else if (depth == 0 && !word_char(*p) && *p != '.' && *p != '"')
            return bx_arena_printf(A, "(%s)", t);
    }
    return t;
}

/* The quantifier variables e binds (the tree is typed: at most
 * BYOCC_MAX_DEPTH deep). */
static void quant_vars(compilation *c, const expr *e, vec *out, int depth)
{
    if (!e || depth > BYOCC_MAX_DEPTH || e->fixed)
        return;
    if (e->kind == E_QUANT)
        vec_push(A, out, (void *)e->s);
    quant_vars(c, e->a, out, depth + 1);
    quant_vars(c, e->b, out, depth + 1);
    quant_vars(c, e->c, out, depth + 1);
    for (int i = 0; i < e->items.n; i++)
        quant_vars(c, e->items.v[i], out, depth + 1);
}

/* A top-level clause that is a use of a predicate macro becomes the
 * top-level && clauses of its body, each with its text as the using
 * pattern's names read it and the uses it came through (via), so that
 * explain names the part that was false.  Nesting is bounded by
 * BYOCC_MAX_PRED_NESTING. */
static void flatten(compilation *c, vec *out, expr *cl, const char *via, const tmap *m,
                    int depth)
{
    pred_ast *pm = cl->sym;
    const file_ast *uf = file_of(c, cl->at);
    tmap sub = {BX_NEWN(A, const char *, pm->params.n + 1),
                BX_NEWN(A, const char *, pm->params.n + 1), pm->params.n, m};
    for (int i = 0; i < pm->params.n; i++) {
        expr *arg = cl->items.v[i];
        sub.names[i] = ((pred_param *)pm->params.v[i])->name;
        sub.texts[i] = operand(c, rewrite(c, expr_text(c, file_of(c, arg->at), arg), m));
    }
    const char *use = rewrite(c, uf ? expr_text(c, uf, cl) : pm->name, m);
    via = via ? bx_arena_printf(A, "%s > %s", via, use) : use;
    vec parts = {0};
    split_clauses(c, &parts, cl->a);
    for (int i = 0; i < parts.n; i++) {
        expr *x = parts.v[i];
        if (x->kind == E_MACRO && depth < BYOCC_MAX_PRED_NESTING) {
            flatten(c, out, x, via, &sub, depth + 1);
            continue;
        }
        /* A parameter standing alone is the argument, written by the user;
         * a quantifier variable of the clause that hides a parameter is
         * left as it is. */
        const tmap *xm = x->fixed ? m : &sub;
        vec qv = {0};
        quant_vars(c, x, &qv, 0);
        if (qv.n && xm) {
            tmap *f = BX_NEW(A, tmap);
            *f = *xm;
            f->names = BX_NEWN(A, const char *, xm->n + 1);
            f->texts = BX_NEWN(A, const char *, xm->n + 1);
            f->n = 0;
            for (int k = 0; k < xm->n; k++) {
                bool hidden = false;
                for (int j = 0; j < qv.n && !hidden; j++)
                    hidden = !strcmp(qv.v[j], xm->names[k]);
                if (!hidden) {
                    f->names[f->n] = xm->names[k];
                    f->texts[f->n++] = xm->texts[k];
                }
            }
            xm = f;
        }
        const file_ast *xf = file_of(c, x->at);
        x->text = rewrite(c, xf ? expr_text(c, xf, x) : "?", xm);
        x->via = via;
        vec_push(A, out, x);
    }
}

static void check_where(compilation *c, decl *t, lpattern *lp, titem *it, bool partition,
                        vec *genvars, vec *genvals)
{
    pscope ps = {0};
    ps.c = c;
    ps.target = t;
    ps.lp = partition ? NULL : lp;
    ps.partition = partition;
    ps.genvars = genvars;
    ps.genvals = genvals;
    bx_hash_init(&ps.slots);
    for (int i = 0; ps.lp && i < lp->slot_names.n; i++)
        if (!bx_hash_get(&ps.slots, lp->slot_names.v[i]))
            bx_hash_put(&ps.slots, lp->slot_names.v[i], (void *)(intptr_t)(i + 1));
    /* The clauses and their texts once; each use (each family member, each
     * supports alternative) types its own copy: names resolve to different
     * slots. */
    if (!it->split) {
        split_clauses(c, &it->clauses, it->where);
        for (int i = 0; i < it->clauses.n; i++) {
            expr *cl = it->clauses.v[i];
            cl->text = expr_text(c, t->file, cl);
        }
        it->split = true;
    }
    vec clauses = {0};
    for (int i = 0; i < it->clauses.n && !stopped(c); i++) {
        expr *cl = copy_expr(c, it->clauses.v[i], false);
        if (stopped(c))
            break;  /* the copy may be short */
        ps.level = 0;
        ps.deep = false;
        int ty = typecheck(&ps, cl);
        if (ty != T_ERROR && ty != T_BOOL)
            ERR(cl->at, "a predicate must be a condition (bool), not %s", ty_name(ty));
        /* A clause runs only where those before it held. */
        if (ty == T_BOOL)
            facts_of(&ps, cl, true, 0);
        if (ty == T_BOOL && cl->kind == E_MACRO)
            flatten(c, &clauses, cl, NULL, NULL, 0);
        else
            vec_push(A, &clauses, cl);
    }
    bx_hash_free(&ps.slots);
    warn_clauses(c, it, &clauses);
    lp->where = it->where;
    lp->clauses = clauses;
}

/* ---- the driver ---------------------------------------------------------------------------------- */

int check(compilation *c)
{
    /* Only what resolved cleanly: a tree the parser refused may be deeper
     * than anything here should walk. */
    if (c->diag.errors)
        return -1;
    /* One pass in file order (imports first), so that diagnostics come in
     * source order; patterns need only the op declarations' AST. */
    for (int i = 0; i < c->all_files.n && !stopped(c); i++) {
        file_ast *f = c->all_files.v[i];
        for (int j = 0; j < f->decls.n && !stopped(c); j++) {
            decl *d = f->decls.v[j];
            switch (d->kind) {
            case D_OP: check_op(c, d); break;
            case D_DEVICE: {
                static const char *const keys[] = {"flops",  "bandwidth", "launch",
                                                   "units",  "grain",      "inner_launch"};
                check_params(c, d, keys, 6);
                break;
            }
            case D_LINK: check_link(c, d); break;
            case D_TARGET: check_target(c, d, 0); break;
            case D_PRED: check_pred_decl(c, d->pred); break;
            case D_LET:
                for (int k = 0; k < d->let->params.n; k++)
                    for (int m = 0; m < k; m++)
                        if (!strcmp(d->let->params.v[k], d->let->params.v[m]))
                            ERR(*(loc *)d->let->param_locs.v[k],
                                "duplicate parameter '%s'", (char *)d->let->params.v[k]);
                break;
            default: break;
            }
        }
    }
    /* The indexes are for checking only. */
    for (int i = 0; i < c->indexes.n; i++)
        bx_hash_free(c->indexes.v[i]);
    c->indexes.n = 0;
    return c->diag.errors ? -1 : 0;
}
