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
 * looking anything up. */
#include <math.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include <byoc/pred.h>

#include "ast.h"
#include "die.h"
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

/* Names of a hash table's entries, for "did you mean". */
static const char **hash_names(compilation *c, const bx_hash *h, int *n)
{
    const char **v = BX_NEWN(A, const char *, h->n + 1);
    for (size_t i = 0; i < h->n; i++)
        v[i] = h->entries[i].key;
    *n = (int)h->n;
    return v;
}

static void suggest(compilation *c, loc at, const char *name, const char *const *names, int n)
{
    const char *s = diag_suggest(name, names, n);
    if (s)
        NOTE(at, "did you mean '%s'?", s);
}

static void suggest_hash(compilation *c, loc at, const char *name, const bx_hash *h)
{
    int n;
    const char **v = hash_names(c, h, &n);
    suggest(c, at, name, v, n);
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

static void check_op(compilation *c, decl *d)
{
    bool ok;
    d->opkind = op_kind_from_name(d->kind_name, &ok);
    if (!ok) {
        ERR(d->kind_at, "unknown op kind '%s'", d->kind_name);
        suggest(c, d->kind_at, d->kind_name, opkind_names, 6);
    }
    for (int i = 0; i < d->inputs.n; i++) {
        input_ast *in = d->inputs.v[i];
        for (int j = 0; j < i; j++) {
            input_ast *o = d->inputs.v[j];
            if (strcmp(o->name, in->name) == 0) {
                ERR(in->at, "duplicate input '%s' of op '%s'", in->name, d->name);
                NOTE(o->at, "previous input '%s' is here", o->name);
            }
        }
    }
    for (int i = 0; i < d->attrs.n; i++) {
        attr_ast *at = d->attrs.v[i];
        for (int j = 0; j < i; j++) {
            attr_ast *o = d->attrs.v[j];
            if (strcmp(o->name, at->name) == 0) {
                ERR(at->at, "duplicate attribute '%s' of op '%s'", at->name, d->name);
                NOTE(o->at, "previous declaration of '%s' is here", o->name);
            }
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
    for (int i = 0; i < d->params.n; i++) {
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
            for (int j = 0; j < i; j++) {
                param_ast *q = d->params.v[j];
                if (q->sub && strcmp(q->sub, p->sub) == 0)
                    ERR(p->sub_at, "peak for '%s' given twice", p->sub);
            }
        } else {
            for (int j = 0; j < i; j++) {
                param_ast *q = d->params.v[j];
                if (!q->sub && strcmp(q->key, p->key) == 0)
                    ERR(p->at, "'%s' given twice", p->key);
            }
        }
    }
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
static void check_target(compilation *c, decl *d);
static lpattern *lower_pattern(compilation *c, decl *t, titem *it, pat *p, const char *name,
                               vec *genvars, vec *genvals);
static void check_where(compilation *c, decl *t, lpattern *lp, expr *where, bool partition,
                        vec *genvars, vec *genvals);

static option_info *find_option(decl *t, const char *name)
{
    for (int i = 0; i < t->options.n; i++) {
        option_info *o = t->options.v[i];
        if (strcmp(o->name, name) == 0)
            return o;
    }
    return NULL;
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
        for (int i = 0; i < d->parent_decl->options.n; i++) {
            option_info *o = BX_NEW(A, option_info);
            *o = *(option_info *)d->parent_decl->options.v[i];
            vec_push(A, &d->options, o);
        }
    }
    d->ninherited = d->options.n;
    for (int i = 0; i < d->items.n; i++) {
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
            vec_push(A, &d->options, o);
        } else {
            if (!prev) {
                ERR(it->name_at, "target '%s' has no option '%s' to set", d->name, it->name);
                int n = d->options.n;
                const char **names = BX_NEWN(A, const char *, n + 1);
                for (int k = 0; k < n; k++)
                    names[k] = ((option_info *)d->options.v[k])->name;
                suggest(c, it->name_at, it->name, names, n);
                continue;
            }
            if (have && !conform(c, &v, &prev->type)) {
                ERR(it->value->at, "option '%s' has type %s, not %s", it->name,
                    type_name(c, &prev->type), value_type_name(c, &v));
                continue;
            }
            /* A new default for an inherited option: copy the info. */
            for (int k = 0; k < d->options.n; k++)
                if (d->options.v[k] == prev) {
                    option_info *o = BX_NEW(A, option_info);
                    *o = *prev;
                    if (have)
                        o->def = v;
                    d->options.v[k] = o;
                }
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
static void check_lower(compilation *c, decl *d, titem *it)
{
    decl *ex = bx_hash_get(&c->externs, it->name);
    if (!ex || !visible_from(d->file, ex)) {
        ERR(it->name_at, "unknown lower pass '%s'", it->name);
        if (ex)
            return;   /* declared in a file this one does not import */
        const char **names = BX_NEWN(A, const char *, c->externs.n + 1);
        int n = 0;
        for (size_t i = 0; i < c->externs.n; i++) {
            decl *e = c->externs.entries[i].val;
            if (e->lower)
                names[n++] = e->name;
        }
        const char *s = diag_suggest(it->name, names, n);
        if (s)
            NOTE(it->name_at, "did you mean '%s'?", s);
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
    for (int i = 0; i < ti->passes.n; i++) {
        pass_info *p = ti->passes.v[i];
        if (p->point == it->point && strcmp(p->name, it->name) == 0) {
            ERR(it->name_at, "pass '%s' given twice at point '%s' in target '%s'", it->name,
                point_word(it->point), d->name);
            NOTE(p->at, "first given here");
            return;
        }
    }
    pass_info *p = BX_NEW(A, pass_info);
    p->name = ex->name;
    p->point = it->point;
    p->at = it->name_at;
    vec_push(A, &ti->passes, p);
}

/* The lets a target body can use: its own, then file-level ones visible
 * from its file. */
static let_ast *find_let(compilation *c, decl *t, const char *name)
{
    if (t) {
        for (int i = 0; i < t->items.n; i++) {
            titem *it = t->items.v[i];
            if (it->kind == TI_LET && strcmp(it->let->name, name) == 0)
                return it->let;
        }
    }
    decl *d = bx_hash_get(&c->lets, name);
    if (d && (!t || visible_from(t->file, d)))
        return d->let;
    return NULL;
}

static decl *find_op(compilation *c, const file_ast *f, const char *name)
{
    decl *d = bx_hash_get(&c->ops, name);
    return d && visible_from(f, d) ? d : NULL;
}

/* Expand a name template "dense_bias_{act}" with the generator values. */
static const char *expand_name(compilation *c, const char *tpl, loc at, vec *vars, vec *vals)
{
    size_t cap = strlen(tpl) + 64;
    char *out = bx_arena_alloc(A, cap);
    size_t o = 0;
    for (const char *p = tpl; *p;) {
        if (*p != '{') {
            if (o + 2 >= cap) {
                char *n = bx_arena_alloc(A, cap * 2);
                memcpy(n, out, o);
                out = n;
                cap *= 2;
            }
            out[o++] = *p++;
            continue;
        }
        const char *e = strchr(p, '}');
        char var[128];
        size_t n = (size_t)(e - p - 1);
        if (n >= sizeof var)
            n = sizeof var - 1;
        memcpy(var, p + 1, n);
        var[n] = 0;
        p = e + 1;
        const char *text = NULL;
        for (int i = 0; vars && i < vars->n; i++)
            if (strcmp(vars->v[i], var) == 0) {
                expr *v = vals->v[i];
                if (v->kind == E_NAME) {
                    const char *dot = strrchr(v->s, '.');
                    text = dot ? dot + 1 : v->s;
                } else if (v->kind == E_STR) {
                    text = v->s;
                } else if (v->kind == E_INT) {
                    text = bx_arena_printf(A, "%lld", (long long)v->i);
                } else {
                    ERR(v->at, "this value cannot be part of a pattern name");
                    text = "";
                }
            }
        if (!text) {
            ERR(at, "'%s' in the pattern name is not a variable of the for family", var);
            text = "";
        }
        size_t tl = strlen(text);
        if (o + tl + 2 >= cap) {
            size_t ncap = (o + tl + 2) * 2;
            char *nb = bx_arena_alloc(A, ncap);
            memcpy(nb, out, o);
            out = nb;
            cap = ncap;
        }
        memcpy(out + o, text, tl);
        o += tl;
    }
    out[o] = 0;
    if (!(isalpha((unsigned char)out[0]) || out[0] == '_'))
        ERR(at, "the pattern name '%s' made from this template does not start with a letter", out);
    return out;
}

/* Rewrite dotted names written as member chains (nn.relu) into one name. */
static const char *dotted(compilation *c, expr *e)
{
    if (e->kind == E_NAME)
        return e->s;
    if (e->kind == E_MEMBER) {
        const char *a = dotted(c, e->a);
        return a ? bx_arena_printf(A, "%s.%s", a, e->s) : NULL;
    }
    return NULL;
}

/* "act = nn.relu, op = add": which family member this is. */
static const char *describe_values(compilation *c, vec *vars, vec *vals)
{
    const char *s = "";
    for (int i = 0; vars && i < vars->n; i++) {
        expr *v = vals->v[i];
        const char *text = v->kind == E_NAME ? v->s
                           : v->kind == E_STR ? bx_arena_printf(A, "\"%s\"", v->s)
                           : v->kind == E_INT ? bx_arena_printf(A, "%lld", (long long)v->i)
                                              : "...";
        s = bx_arena_printf(A, "%s%s%s = %s", s, i ? ", " : "", (char *)vars->v[i], text);
    }
    return s;
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
        check_where(c, d, lp, it->where, false, vars, vals);
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
    for (int i = 0; i < gen->values.n; i++) {
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

static void check_target(compilation *c, decl *d)
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
    if (!p || !visible_from(d->file, p)) {
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
                check_target(c, p);
            }
        }
        d->parent_decl = p;
    }
    check_options(c, d);

    bx_hash names;
    bx_hash_init(&names);
    for (int i = 0; i < d->items.n; i++) {
        titem *it = d->items.v[i];
        switch (it->kind) {
        case TI_SETTING: check_setting(c, d, it); break;
        case TI_SUPPORTS_ALL:
            if (d->info->supports_all)
                ERR(it->at, "'supports *' given twice");
            d->info->supports_all = true;
            break;
        case TI_SUPPORTS:
            for (int k = 0; k < it->pats.n; k++) {
                lpattern *lp = lower_pattern(c, d, it, it->pats.v[k], NULL, NULL, NULL);
                if (!lp)
                    continue;
                if (it->where)
                    check_where(c, d, lp, it->where, false, NULL, NULL);
                vec_push(A, &d->info->rules, lp);
            }
            break;
        case TI_LET:
            for (int k = 0; k < i; k++) {
                titem *o = d->items.v[k];
                if (o->kind == TI_LET && strcmp(o->let->name, it->let->name) == 0) {
                    ERR(it->name_at, "redefinition of let '%s'", it->let->name);
                    NOTE(o->name_at, "previous definition of '%s' is here", it->let->name);
                }
            }
            break;
        case TI_PATTERN: {
            vec vars = {0}, vals = {0};
            expand_family(c, d, it, 0, &vars, &vals, &names);
            break;
        }
        case TI_LOWER: check_lower(c, d, it); break;
        case TI_PARTITION: {
            lpattern *lp = BX_NEW(A, lpattern);
            lp->at = it->at;
            lp->id = c->next_pattern_id++;
            check_where(c, d, lp, it->where, true, NULL, NULL);
            vec_push(A, &d->info->partition, lp);
            break;
        }
        default: break;
        }
    }
    bx_hash_free(&names);
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
    vec *genvars, *genvals;
    int depth;            /* let expansion depth */
};

typedef struct letenv {
    let_ast *let;
    int *args;            /* lowered argument per parameter */
    struct letenv *up;
    loc call_at;          /* where the let is used */
} letenv;

static int new_node(scope *s, byoc_pkind kind, loc at)
{
    compilation *c = s->c;
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
    for (int i = 0; i < s->binds.n; i++) {
        binding *b = s->binds.v[i];
        if (strcmp(b->name, name) == 0)
            return b;
    }
    return NULL;
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
        ERR(at, "'%s' expands itself without end", let->name);
        return -1;
    }
    letenv inner = {let, BX_NEWN(A, int, args->n + 1), env, at};
    for (int i = 0; i < args->n; i++)
        inner.args[i] = lower(s, args->v[i], env);
    s->depth++;
    /* The body sees its parameters, not the caller's. */
    letenv body = inner;
    body.up = NULL;
    int r = lower(s, let->body, &body);
    s->depth--;
    return r;
}

/* The ops a callee pattern names: a name, or an alternative of names. */
static bool callee_ops(scope *s, pat *p, vec *ops, letenv *env)
{
    compilation *c = s->c;
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
    for (int i = 0; i < p->attrs.n; i++) {
        attr_eq_ast *ae = p->attrs.v[i];
        byoc_value *v = BX_NEW(A, byoc_value);
        bool ok = const_value(c, subst_const(s, ae->value), v, A);
        for (int k = 0; k < ops.n; k++) {
            decl *o = ops.v[k];
            attr_ast *decl_attr = NULL;
            for (int j = 0; j < o->attrs.n; j++)
                if (strcmp(((attr_ast *)o->attrs.v[j])->name, ae->name) == 0)
                    decl_attr = o->attrs.v[j];
            if (!decl_attr) {
                ERR(ae->at, "'%s' has no attribute '%s'", o->name, ae->name);
                int na = o->attrs.n;
                const char **names = BX_NEWN(A, const char *, na + 1);
                for (int j = 0; j < na; j++)
                    names[j] = ((attr_ast *)o->attrs.v[j])->name;
                suggest(c, ae->at, ae->name, names, na);
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
        for (int i = 0; i < op->inputs.n; i++)
            add_kid(s, n, new_node(s, BYOC_PAT_WILD, p->at));
        return n;
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
    vec_push(A, &s->binds, b);
    return n;
}

static int lower(scope *s, pat *p, letenv *env)
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
        vec_push(A, &s->binds, b);
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
    int before = c->diag.errors;
    int root = lower(&s, p, NULL);
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
    bool partition;
    vec *genvars, *genvals;
    const char *qvars[16];
    int qtypes[16];
    int nq;
} pscope;

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

static int slot_of(pscope *ps, const char *name)
{
    if (!ps->lp)
        return -1;
    for (int i = 0; i < ps->lp->slot_names.n; i++)
        if (strcmp(ps->lp->slot_names.v[i], name) == 0)
            return i;
    return -1;
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

/* Replace a for-family variable by (a copy of) its value. */
static bool subst_expr(pscope *ps, expr *e)
{
    for (int i = 0; ps->genvars && i < ps->genvars->n; i++)
        if (strcmp(ps->genvars->v[i], e->s) == 0) {
            expr *v = ps->genvals->v[i];
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
        for (int i = 0; i < t->options.n; i++) {
            option_info *o = t->options.v[i];
            if (strcmp(o->name, e->s) == 0) {
                e->opt = i;
                e->sym = o;
                return desc_type(&o->type);
            }
        }
        ERR(e->at, "target '%s' has no option '%s'", t->name, e->s);
        const char **names = BX_NEWN(A, const char *, t->options.n + 1);
        for (int i = 0; i < t->options.n; i++)
            names[i] = ((option_info *)t->options.v[i])->name;
        suggest(c, e->at, e->s, names, t->options.n);
        return T_ERROR;
    }
    /* A dotted op name: nn.conv2d */
    const char *dn = dotted(c, e);
    if (dn) {
        expr *head = e;
        while (head->kind == E_MEMBER)
            head = head->a;
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
            size_t hl = strlen(head->s);
            bool ns = false;
            for (size_t i = 0; i < c->ops.n && !ns; i++)
                ns = strncmp(c->ops.entries[i].key, head->s, hl) == 0
                     && c->ops.entries[i].key[hl] == '.';
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
    lpnode *n = slot_node(ps, e->a->slot);
    if (n->kind != BYOC_PAT_CALL) {
        ERR(e->at, "'%s' is not bound to an operator call, so it has no attribute '%s'",
            e->a->s, e->s);
        return T_ERROR;
    }
    int ty = T_ERROR;
    for (int k = 0; k < n->ops.n; k++) {
        decl *op = find_op(c, ps->target->file, n->ops.v[k]);
        attr_ast *found = NULL;
        for (int j = 0; op && j < op->attrs.n; j++)
            if (strcmp(((attr_ast *)op->attrs.v[j])->name, e->s) == 0)
                found = op->attrs.v[j];
        if (!found) {
            ERR(e->at, "'%s' has no attribute '%s'", op ? op->name : "?", e->s);
            int na = op ? op->attrs.n : 0;
            const char **names = BX_NEWN(A, const char *, na + 1);
            for (int j = 0; j < na; j++)
                names[j] = ((attr_ast *)op->attrs.v[j])->name;
            suggest(c, e->at, e->s, names, na);
            return T_ERROR;
        }
        int t = desc_type(&found->type.d);
        if (k > 0 && t != ty) {
            ERR(e->at, "attribute '%s' has different types in '%s' and '%s'", e->s,
                (char *)n->ops.v[0], op->name);
            return T_ERROR;
        }
        ty = t;
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

static const char *const builtins[] = {
    "dtype", "shape", "rank", "numel", "is_const", "value", "values", "inputs", "outputs",
    "len", "range", "op", "contains", "count", "nodes", "abs",
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
        int t = typecheck(ps, e->items.v[0]);
        if (t != T_ERROR && t != T_INT && t != T_FLOAT) {
            ERR(e->at, "abs() needs a number, not %s", ty_name(t));
            return T_ERROR;
        }
        return t;
    }
    if (!strcmp(f, "len")) {
        if (check_args(ps, e, 1))
            return T_ERROR;
        int t = typecheck(ps, e->items.v[0]);
        if (t != T_ERROR && !is_list(t)) {
            ERR(e->at, "len() needs a list, not %s", ty_name(t));
            return T_ERROR;
        }
        return t == T_ERROR ? T_ERROR : T_INT;
    }
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
    suggest(c, e->at, f, names, n);
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

/* The ops a bound pattern node can be a call of, into out; false when it
 * can be something else (a wildcard, a constant, a tuple, any op). */
static bool node_ops(pscope *ps, lpnode *n, vec *out, int depth)
{
    compilation *c = ps->c;
    if (depth > 32)
        return false;
    if (n->kind == BYOC_PAT_CALL) {
        if (!n->ops.n)
            return false;
        for (int i = 0; i < n->ops.n; i++)
            vec_push(A, out, n->ops.v[i]);
        return true;
    }
    if (n->kind == BYOC_PAT_ALT) {
        for (int i = 0; i < n->kids.n; i++)
            if (!node_ops(ps, ps->lp->nodes.v[(intptr_t)n->kids.v[i]], out, depth + 1))
                return false;
        return true;
    }
    return false;
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
        bool known = node_ops(ps, slot_node(ps, arg->slot), &ops, 0);
        bool found = false;
        for (int i = 0; known && i < ops.n; i++)
            found |= strcmp(ops.v[i], lit->s) == 0;
        if (known && !found) {
            const char *set = "";
            for (int i = 0; i < ops.n; i++)
                set = bx_arena_printf(A, "%s%s%s", set, i ? " | " : "", (char *)ops.v[i]);
            ERR(e->at, "this comparison is always %s: '%s' is bound to a call of %s, never %s",
                e->op == OP_EQ ? "false" : "true", arg->s, set, lit->s);
            NOTE(slot_node(ps, arg->slot)->at, "'%s' is bound here", arg->s);
            if (ps->genvars && ps->genvars->n)
                NOTE(ps->lp->at, "in the member of the for family where %s",
                     describe_values(c, ps->genvars, ps->genvals));
        }
    }
}

static int typecheck_(pscope *ps, expr *e)
{
    compilation *c = ps->c;
    switch (e->kind) {
    case E_INT: return T_INT;
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
            return typecheck(ps, e);
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
        if (!is_list(a)) {
            ERR(e->at, "only lists can be indexed, not %s", ty_name(a));
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
        return t;
    }
    case E_BINARY: {
        int a = typecheck(ps, e->a), b = typecheck(ps, e->b);
        if (a == T_ERROR || b == T_ERROR)
            return T_ERROR;
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
            if (t == T_ERROR) {
                ok = false;
                continue;
            }
            bool lit = it->kind == E_INT || it->kind == E_FLOAT || it->kind == E_STR
                       || it->kind == E_BOOL || it->kind == E_VERSION
                       || (it->kind == E_NAME && (t == T_DTYPE || t == T_OP))
                       || (it->kind == E_UNARY && it->op == '-' && is_num(t));
            if (!lit) {
                ERR(it->at, "the items of a set must be constants");
                ok = false;
            } else if (!comparable(a, t) || is_list(a)) {
                ERR(it->at, "cannot compare %s with %s", ty_name(a), ty_name(t));
                ok = false;
            }
        }
        return ok ? T_BOOL : T_ERROR;
    }
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
    }
    bx_die("bad expression kind");
}

static int typecheck(pscope *ps, expr *e)
{
    e->ty = typecheck_(ps, e);
    return e->ty;
}

static void split_clauses(compilation *c, vec *out, expr *e)
{
    if (e->kind == E_BINARY && e->op == OP_AND) {
        split_clauses(c, out, e->a);
        split_clauses(c, out, e->b);
        return;
    }
    vec_push(A, out, e);
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

static expr *copy_expr(compilation *c, expr *e)
{
    if (!e)
        return NULL;
    expr *n = BX_NEW(A, expr);
    *n = *e;
    n->a = copy_expr(c, e->a);
    n->b = copy_expr(c, e->b);
    n->c = copy_expr(c, e->c);
    vec items = {0};
    for (int i = 0; i < e->items.n; i++)
        vec_push(A, &items, copy_expr(c, e->items.v[i]));
    n->items = items;
    return n;
}

static void check_where(compilation *c, decl *t, lpattern *lp, expr *where, bool partition,
                        vec *genvars, vec *genvals)
{
    pscope ps = {0};
    ps.c = c;
    ps.target = t;
    ps.lp = partition ? NULL : lp;
    ps.partition = partition;
    ps.genvars = genvars;
    ps.genvals = genvals;
    /* Each use (each family member, each supports alternative) types its
     * own copy: names resolve to different slots. */
    expr *w = copy_expr(c, where);
    vec clauses = {0};
    split_clauses(c, &clauses, w);
    const file_ast *f = t->file;
    for (int i = 0; i < clauses.n; i++) {
        expr *cl = clauses.v[i];
        cl->text = expr_text(c, f, cl);
        int ty = typecheck(&ps, cl);
        if (ty != T_ERROR && ty != T_BOOL)
            ERR(cl->at, "a predicate must be a condition (bool), not %s", ty_name(ty));
    }
    lp->where = w;
    lp->clauses = clauses;
}

/* ---- the driver ---------------------------------------------------------------------------------- */

int check(compilation *c)
{
    /* One pass in file order (imports first), so that diagnostics come in
     * source order; patterns need only the op declarations' AST. */
    for (int i = 0; i < c->all_files.n; i++) {
        file_ast *f = c->all_files.v[i];
        for (int j = 0; j < f->decls.n; j++) {
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
            case D_TARGET: check_target(c, d); break;
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
    return c->diag.errors ? -1 : 0;
}
