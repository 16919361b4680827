/* Type inference and flops: the shape and flops rules that lib/relay.byoc
 * names, and the walk that applies them to a graph.
 *
 * The idea: node ids are a topological order, so one pass in id order sees
 * every input typed before its user.  A rule is a C function found by the
 * name relay.byoc gives it; it reads input types and attributes and either
 * fills in the result or fails with a sentence saying why.  A rule never
 * aborts: models from the wild carry attribute combinations no rule covers,
 * and a node without a type can still be placed, so a failure leaves the
 * node untyped with its reason and inference goes on.  Only a type that a
 * reader declared and that disagrees with the inferred one is an error.
 *
 * The rules follow TVM Relay's type relations (the *Rel functions under
 * src/relay/op at 513c2be0c3), the checks included; where a rule here
 * departs from TVM the comment says so.  Dimensions are numbers,
 * BYOC_DIM_UNKNOWN or symbols: arithmetic on a symbol gives unknown unless
 * the result is the symbol itself (d * 1, d + 0, a full slice, a copied
 * axis), so a batch symbol survives the ops that only carry it along. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/graph.h>
#include <byoc/relay.h>

#include "arena.h"
#include "die.h"
#include "errfmt.h"
#include "graph_impl.h"
#include "strbuf.h"

#define UNK BYOC_DIM_UNKNOWN
/* Longest attribute list a rule reads; more values than any valid use. */
#define MAX_LIST 64
/* Most fields a split may make: the graph's limit on tuples. */
#define MAX_FIELDS BYOC_MAX_FIELDS

/* ---- messages ----------------------------------------------------------- */

/* Types print as Relay writes them, with byoc_relay_format_type. */
static void print_type(bx_strbuf *b, const byoc_graph *g, const byoc_tensor_type *t)
{
    char buf[512];
    byoc_relay_format_type(g, t, buf, sizeof buf);
    bx_sb_printf(b, "%s", buf);
}

/* Recursion as deep as the tuple nests, which the graph bounds. */
static void print_tuple(bx_strbuf *b, const byoc_graph *g, const byoc_tuple_type *t)
{
    bx_sb_printf(b, "(");
    for (int i = 0; i < t->n; i++) {
        if (i)
            bx_sb_printf(b, ", ");
        if (t->sub && t->sub[i])
            print_tuple(b, g, t->sub[i]);
        else
            print_type(b, g, &t->fields[i]);
    }
    bx_sb_printf(b, t->n == 1 ? ",)" : ")");
}

static void print_node_type(bx_strbuf *b, const byoc_graph *g, const bx_node *n)
{
    if (n->tuple)
        print_tuple(b, g, n->tuple);
    else
        print_type(b, g, &n->type);
}

/* ---- rule context ------------------------------------------------------- */

typedef struct rule_ctx {
    byoc_graph *g;
    const bx_node *n;
    byoc_tensor_type out;     /* a tensor result */
    int nout;                 /* -1: tensor result; else tuple fields */
    byoc_tensor_type *outs;   /* tuple result, in the graph's arena */
    bool overflow;            /* some dimension did not fit in 64 bits */
    char why[256];
} rule_ctx;

static bool fail(rule_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool fail(rule_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, sizeof c->why, fmt, ap);
    va_end(ap);
    return false;
}

static const char *input_name(const rule_ctx *c, int i)
{
    return i < c->n->op->ninputs ? c->n->op->inputs[i].name : "input";
}

/* Input i's tensor type when it has a known rank, else NULL. */
static const byoc_tensor_type *typed_input(const rule_ctx *c, int i)
{
    if (i >= c->n->nargs)
        return NULL;
    const bx_node *a = &c->g->nodes[c->n->args[i]];
    return a->nfields < 0 && a->type.rank >= 0 ? &a->type : NULL;
}

static bool need(rule_ctx *c, int i, const byoc_tensor_type **t)
{
    if (i >= c->n->nargs)
        return fail(c, "%s is missing", input_name(c, i));
    const bx_node *a = &c->g->nodes[c->n->args[i]];
    if (a->nfields >= 0)
        return fail(c, "%s is a tuple, not a tensor", input_name(c, i));
    if (a->type.rank < 0)
        return fail(c, "%s has no type", input_name(c, i));
    *t = &a->type;
    return true;
}

/* Input i as a tuple whose fields all have types. */
static bool need_tuple(rule_ctx *c, int i, const byoc_tensor_type **fields, int *n)
{
    if (i >= c->n->nargs)
        return fail(c, "%s is missing", input_name(c, i));
    const bx_node *a = &c->g->nodes[c->n->args[i]];
    if (a->nfields < 0)
        return fail(c, "%s is not a tuple", input_name(c, i));
    if (a->nfields == 0)
        return fail(c, "%s is an empty tuple", input_name(c, i));
    for (int k = 0; k < a->nfields; k++)
        if (a->tuple->sub && a->tuple->sub[k])
            return fail(c, "field %d of %s is a tuple, not a tensor", k, input_name(c, i));
        else if (a->fields[k].rank < 0)
            return fail(c, "field %d of %s has no type", k, input_name(c, i));
    *fields = a->fields;
    *n = a->nfields;
    return true;
}

/* ---- attributes --------------------------------------------------------- */

/* The value of attribute `name`, or NULL when it is absent (None). */
static const byoc_value *attr(const rule_ctx *c, const char *name)
{
    int i = byoc_op_attr_index(c->n->op, name);
    if (i < 0 || c->n->attrs[i].kind == BYOC_V_NONE)
        return NULL;
    return &c->n->attrs[i];
}

static bool value_int(const byoc_value *v, int64_t *out)
{
    if (v->kind == BYOC_V_INT) {
        *out = v->u.i;
        return true;
    }
    if (v->kind == BYOC_V_BOOL) {
        *out = v->u.b;
        return true;
    }
    return false;
}

/* An int attribute; `def` when absent.  false (with a reason) when it has
 * another type. */
static bool attr_int(rule_ctx *c, const char *name, int64_t def, int64_t *out)
{
    const byoc_value *v = attr(c, name);
    *out = def;
    if (v && !value_int(v, out))
        return fail(c, "attribute '%s' is not an int", name);
    return true;
}

static bool attr_bool(const rule_ctx *c, const char *name, bool def)
{
    const byoc_value *v = attr(c, name);
    if (!v)
        return def;
    if (v->kind == BYOC_V_BOOL)
        return v->u.b;
    if (v->kind == BYOC_V_INT)
        return v->u.i != 0;
    return def;
}

static bool attr_float(rule_ctx *c, const char *name, double def, double *out)
{
    const byoc_value *v = attr(c, name);
    *out = def;
    if (!v)
        return true;
    if (v->kind == BYOC_V_FLOAT)
        *out = v->u.f;
    else if (v->kind == BYOC_V_INT)
        *out = (double)v->u.i;
    else
        return fail(c, "attribute '%s' is not a number", name);
    return true;
}

static const char *attr_str(const rule_ctx *c, const char *name, const char *def)
{
    const byoc_value *v = attr(c, name);
    return v && v->kind == BYOC_V_STRING && v->u.s ? v->u.s : def;
}

static byoc_dtype attr_dtype(const rule_ctx *c, const char *name)
{
    const byoc_value *v = attr(c, name);
    return v && v->kind == BYOC_V_DTYPE ? v->u.dt : BYOC_DT_VOID;
}

/* An int[] attribute into out[]; *n = -1 when it is absent. */
static bool ints_of(rule_ctx *c, const char *name, const byoc_value *v, int64_t *out, int *n)
{
    if (v->kind != BYOC_V_LIST)
        return fail(c, "attribute '%s' is not a list", name);
    if (v->u.list.n > MAX_LIST)
        return fail(c, "attribute '%s' has more than %d values", name, MAX_LIST);
    for (size_t i = 0; i < v->u.list.n; i++)
        if (!value_int(&v->u.list.items[i], &out[i]))
            return fail(c, "attribute '%s' is not a list of ints", name);
    *n = (int)v->u.list.n;
    return true;
}

static bool attr_ints(rule_ctx *c, const char *name, int64_t *out, int *n)
{
    const byoc_value *v = attr(c, name);
    *n = -1;
    return !v || ints_of(c, name, v, out, n);
}

/* An int[][] attribute of pairs (pad_width, paddings, crops). */
static bool attr_pairs(rule_ctx *c, const char *name, int64_t (*out)[2], int *n)
{
    const byoc_value *v = attr(c, name);
    *n = -1;
    if (!v)
        return true;
    if (v->kind != BYOC_V_LIST)
        return fail(c, "attribute '%s' is not a list", name);
    if (v->u.list.n > BYOC_MAX_RANK)
        return fail(c, "attribute '%s' has more than %d pairs", name, BYOC_MAX_RANK);
    for (size_t i = 0; i < v->u.list.n; i++) {
        int64_t pair[MAX_LIST];
        int k;
        if (!ints_of(c, name, &v->u.list.items[i], pair, &k))
            return false;
        if (k != 2)
            return fail(c, "element %zu of '%s' has %d values, not 2", i, name, k);
        out[i][0] = pair[0];
        out[i][1] = pair[1];
    }
    *n = (int)v->u.list.n;
    return true;
}

/* The result dtype of rules that take out_dtype: the attribute, int32 for
 * QNN MAC ops (TVM's relations insist on it being set; the Python API
 * passes int32), else `fallback`. */
static byoc_dtype out_dtype_or(const rule_ctx *c, byoc_dtype fallback)
{
    byoc_dtype dt = attr_dtype(c, "out_dtype");
    if (dt != BYOC_DT_VOID)
        return dt;
    if (strncmp(c->n->opname, "qnn.", 4) == 0)
        return BYOC_DT_INT32;
    return fallback;
}

/* ---- dimension arithmetic ---------------------------------------------- */

static int64_t add_n(rule_ctx *c, int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        c->overflow = true;
        return 0;
    }
    return r;
}

static int64_t mul_n(rule_ctx *c, int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) {
        c->overflow = true;
        return 0;
    }
    return r;
}

/* Dimension times dimension. */
static int64_t d_mul(rule_ctx *c, int64_t a, int64_t b)
{
    if (a == 1)
        return b;
    if (b == 1)
        return a;
    if (a == 0 || b == 0)
        return 0;
    if (a < 0 || b < 0)
        return UNK;
    return mul_n(c, a, b);
}

/* Dimension plus dimension. */
static int64_t d_add(rule_ctx *c, int64_t a, int64_t b)
{
    if (b == 0)
        return a;
    if (a == 0)
        return b;
    if (a < 0 || b < 0)
        return UNK;
    return add_n(c, a, b);
}

/* Dimension divided by k > 0, rounded down (TVM's indexdiv). */
static int64_t d_div(int64_t a, int64_t k)
{
    if (k == 1)
        return a;
    return a < 0 ? UNK : a / k;
}

/* Product of dims: a number, a symbol when it is the only factor other
 * than 1, else unknown. */
static int64_t d_prod(rule_ctx *c, const int64_t *dims, int n)
{
    int64_t p = 1, sym = 0;
    int nsym = 0;
    bool unknown = false;
    for (int i = 0; i < n; i++) {
        if (dims[i] >= 0)
            p = mul_n(c, p, dims[i]);
        else if (dims[i] == UNK)
            unknown = true;
        else {
            nsym++;
            sym = dims[i];
        }
    }
    if (p == 0)
        return 0;
    if (unknown)
        return UNK;
    if (nsym == 0)
        return p;
    return nsym == 1 && p == 1 ? sym : UNK;
}

/* Two dims that must be equal (concatenate's other axes, matmul's K):
 * false when both are numbers that differ.  A symbol against a number is
 * taken to be that number. */
static bool d_unify(int64_t a, int64_t b, int64_t *out)
{
    if (a == b || b == UNK)
        *out = a;
    else if (a == UNK)
        *out = b;
    else if (a >= 0 && b >= 0)
        return false;
    else if (a >= 0)
        *out = a;
    else if (b >= 0)
        *out = b;
    else
        *out = UNK; /* two different symbols */
    return true;
}

/* NumPy broadcasting of one axis (TVM's ConcreteBroadcast): 1 stretches;
 * unknown meets anything.  TVM rejects a symbol against a different
 * number or symbol, which it cannot prove equal; here the number wins, as
 * it does against unknown, since the graph is taken to be valid. */
static bool d_broadcast(int64_t a, int64_t b, int64_t *out)
{
    if (a == 1)
        *out = b;
    else if (b == 1)
        *out = a;
    else
        return d_unify(a, b, out);
    return true;
}

static bool set_dim(rule_ctx *c, byoc_tensor_type *t, int i, int64_t d)
{
    if (i >= BYOC_MAX_RANK)
        return fail(c, "the result would have more than %d axes", BYOC_MAX_RANK);
    t->dims[i] = d;
    if (t->rank <= i)
        t->rank = i + 1;
    return true;
}

static bool push_dim(rule_ctx *c, byoc_tensor_type *t, int64_t d)
{
    return set_dim(c, t, t->rank, d);
}

/* Normalise an axis of a tensor of rank `rank` (negative counts from the
 * end); `extra` widens the range for ops that insert axes. */
static bool norm_axis(rule_ctx *c, int64_t axis, int rank, int extra, int *out)
{
    int64_t n = rank + extra;
    *out = 0;
    if (axis < -n || axis >= n)
        return fail(c, "axis %lld is out of range for rank %d", (long long)axis, rank);
    *out = (int)(axis < 0 ? axis + n : axis);
    return true;
}

static byoc_tensor_type *begin_tuple(rule_ctx *c, int n)
{
    c->nout = n;
    c->outs = BX_NEWN(&c->g->arena, byoc_tensor_type, n > 0 ? n : 1);
    return c->outs;
}

/* ---- layouts ------------------------------------------------------------ */

/* A TVM layout such as "NCHW" or "NCHW16c": upper-case letters are the
 * primal axes, a lower-case letter with its factor splits the primal axis
 * of the same letter.  Shapes convert between layouts through the primal
 * sizes, which is all TVM's BijectiveLayout does for shapes. */
typedef struct layout {
    const char *text;
    int n;
    char axis[BYOC_MAX_RANK];
    int64_t factor[BYOC_MAX_RANK]; /* sub-axes; 0 for primal ones */
} layout;

static bool is_upper(char ch) { return ch >= 'A' && ch <= 'Z'; }
static bool is_lower(char ch) { return ch >= 'a' && ch <= 'z'; }

static bool parse_layout(const char *s, layout *l)
{
    bool seen[128] = {false};
    int64_t f = 0;
    l->text = s;
    l->n = 0;
    if (!s || !*s)
        return false;
    for (const char *p = s; *p; p++) {
        char ch = *p;
        if (ch >= '0' && ch <= '9') {
            if (f > 100000000)
                return false;
            f = f * 10 + (ch - '0');
            continue;
        }
        if (!is_upper(ch) && !is_lower(ch))
            return false;
        if ((is_upper(ch) && f != 0) || (is_lower(ch) && f <= 0) || seen[(int)ch]
            || l->n == BYOC_MAX_RANK)
            return false;
        seen[(int)ch] = true;
        l->axis[l->n] = ch;
        l->factor[l->n] = is_lower(ch) ? f : 0;
        l->n++;
        f = 0;
    }
    if (f != 0)
        return false;
    for (int i = 0; i < l->n; i++)
        if (is_lower(l->axis[i]) && !seen[l->axis[i] - 'a' + 'A'])
            return false;
    return true;
}

static int layout_find(const layout *l, char axis)
{
    for (int i = 0; i < l->n; i++)
        if (l->axis[i] == axis)
            return i;
    return -1;
}

static int primal_count(const layout *l)
{
    int k = 0;
    for (int i = 0; i < l->n; i++)
        k += is_upper(l->axis[i]);
    return k;
}

/* Do a and b have the same primal axes (so shapes convert)? */
static bool same_primal(const layout *a, const layout *b)
{
    if (primal_count(a) != primal_count(b))
        return false;
    for (int i = 0; i < a->n; i++)
        if (is_upper(a->axis[i]) && layout_find(b, a->axis[i]) < 0)
            return false;
    return true;
}

/* Spatial axes (D, H, W) of a layout, in that order. */
static int spatial_axes(const layout *l, char sp[3])
{
    int n = 0;
    for (const char *p = "DHW"; *p; p++)
        if (layout_find(l, *p) >= 0)
            sp[n++] = *p;
    return n;
}

/* The attribute `name` parsed as a layout; `fallback` when it is "". */
static bool get_layout(rule_ctx *c, const char *name, const char *fallback, layout *l)
{
    const char *s = attr_str(c, name, "");
    if (!*s && fallback)
        s = fallback;
    if (!parse_layout(s, l))
        return fail(c, "invalid layout '%s' in '%s'", s, name);
    return true;
}

/* The primal sizes of t, laid out in l, into prim['A'..'Z']. */
static bool to_primal(rule_ctx *c, const layout *l, const byoc_tensor_type *t, const char *what,
                      int64_t prim[26])
{
    if (t->rank != l->n)
        return fail(c, "%s must have rank %d for layout %s", what, l->n, l->text);
    for (int i = 0; i < 26; i++)
        prim[i] = UNK;
    for (int i = 0; i < l->n; i++) {
        char a = l->axis[i];
        if (is_lower(a)) {
            if (t->dims[i] >= 0 && t->dims[i] != l->factor[i])
                return fail(c, "axis %d of %s is %lld, not %lld as layout %s says", i, what,
                            (long long)t->dims[i], (long long)l->factor[i], l->text);
            continue;
        }
        int j = layout_find(l, (char)(a - 'A' + 'a'));
        prim[a - 'A'] = j >= 0 ? d_mul(c, t->dims[i], l->factor[j]) : t->dims[i];
    }
    return true;
}

/* The shape in layout l of the primal sizes prim (split axes divide,
 * rounding down as TVM's layout rules do). */
static void from_primal(const layout *l, const int64_t prim[26], byoc_tensor_type *t)
{
    t->rank = l->n;
    for (int i = 0; i < l->n; i++) {
        char a = l->axis[i];
        if (is_lower(a)) {
            t->dims[i] = l->factor[i];
            continue;
        }
        int j = layout_find(l, (char)(a - 'A' + 'a'));
        t->dims[i] = j >= 0 ? d_div(prim[a - 'A'], l->factor[j]) : prim[a - 'A'];
    }
}

#define P(prim, letter) ((prim)[(letter) - 'A'])

/* ---- elementwise and broadcasting --------------------------------------- */

static bool rule_same(rule_ctx *c)
{
    const byoc_tensor_type *t;
    if (!need(c, 0, &t))
        return false;
    c->out = *t;
    return true;
}

static bool rule_same_bool(rule_ctx *c)
{
    if (!rule_same(c))
        return false;
    c->out.dtype = BYOC_DT_BOOL;
    return true;
}

static bool broadcast2(rule_ctx *c, const byoc_tensor_type *a, const byoc_tensor_type *b,
                       byoc_tensor_type *out)
{
    int rank = a->rank > b->rank ? a->rank : b->rank;
    out->rank = rank;
    for (int i = 1; i <= rank; i++) {
        int64_t da = i <= a->rank ? a->dims[a->rank - i] : 1;
        int64_t db = i <= b->rank ? b->dims[b->rank - i] : 1;
        if (!d_broadcast(da, db, &out->dims[rank - i]))
            return fail(c, "dimensions %lld and %lld do not broadcast", (long long)da,
                        (long long)db);
    }
    return true;
}

/* TVM's BroadcastRel, which also rejects operands of different dtypes.
 * Models TVM itself printed break that rule (gpt2_16_for_cutlass_extract
 * adds float32 constants to float16 tensors), so here, as relay.byoc
 * says, the result simply takes input 0's dtype; the same holds for
 * where, concatenate and stack. */
static bool rule_broadcast(rule_ctx *c)
{
    const byoc_tensor_type *a, *b;
    if (!need(c, 0, &a) || !need(c, 1, &b))
        return false;
    c->out.dtype = a->dtype;
    return broadcast2(c, a, b, &c->out);
}

static bool rule_broadcast_bool(rule_ctx *c)
{
    if (!rule_broadcast(c))
        return false;
    c->out.dtype = BYOC_DT_BOOL;
    return true;
}

/* where(cond, x, y): TVM's WhereRel broadcasts x with y, then cond. */
static bool rule_select(rule_ctx *c)
{
    const byoc_tensor_type *cond, *x, *y;
    if (!need(c, 0, &cond) || !need(c, 1, &x) || !need(c, 2, &y))
        return false;
    byoc_tensor_type xy = {x->dtype, 0, {0}};
    if (!broadcast2(c, x, y, &xy) || !broadcast2(c, cond, &xy, &c->out))
        return false;
    c->out.dtype = x->dtype;
    return true;
}

static bool rule_cast(rule_ctx *c)
{
    if (!rule_same(c))
        return false;
    byoc_dtype dt = attr_dtype(c, "dtype");
    if (dt == BYOC_DT_VOID)
        return fail(c, "attribute 'dtype' is not set");
    c->out.dtype = dt;
    return true;
}

static bool rule_cast_like(rule_ctx *c)
{
    const byoc_tensor_type *like;
    if (!rule_same(c) || !need(c, 1, &like))
        return false;
    c->out.dtype = like->dtype;
    return true;
}

/* qnn.quantize, dequantize and requantize: out_dtype, int8 if unset. */
static bool rule_quantize(rule_ctx *c)
{
    if (!rule_same(c))
        return false;
    byoc_dtype dt = attr_dtype(c, "out_dtype");
    c->out.dtype = dt != BYOC_DT_VOID ? dt : BYOC_DT_INT8;
    return true;
}

/* ---- reductions --------------------------------------------------------- */

/* TVM's GetReduceAxes and ReduceShapeImpl: no axis (or an empty list)
 * reduces every axis; exclude reduces the others; keepdims keeps them as
 * 1.  Repeated axes count once. */
static bool reduce_shape(rule_ctx *c, const byoc_tensor_type *t, byoc_tensor_type *out)
{
    int64_t axes[MAX_LIST];
    int n;
    if (!attr_ints(c, "axis", axes, &n))
        return false;
    bool exclude = attr_bool(c, "exclude", false);
    bool keepdims = attr_bool(c, "keepdims", false);
    bool listed[BYOC_MAX_RANK] = {false};
    for (int i = 0; i < n; i++) {
        int a;
        if (!norm_axis(c, axes[i], t->rank, 0, &a))
            return false;
        listed[a] = true;
    }
    out->rank = 0;
    for (int i = 0; i < t->rank; i++) {
        bool reduced = n <= 0 || listed[i] != exclude;
        if (!reduced)
            out->dims[out->rank++] = t->dims[i];
        else if (keepdims)
            out->dims[out->rank++] = 1;
    }
    return true;
}

static bool rule_reduce(rule_ctx *c)
{
    const byoc_tensor_type *t;
    if (!need(c, 0, &t))
        return false;
    c->out.dtype = t->dtype;
    return reduce_shape(c, t, &c->out);
}

static bool rule_arg_reduce(rule_ctx *c)
{
    if (!rule_reduce(c))
        return false;
    c->out.dtype = BYOC_DT_INT32;
    return true;
}

/* ---- convolution and pooling -------------------------------------------- */

/* Reads `name` (one value for every axis, or one per axis) into v[nsp]. */
static bool per_axis(rule_ctx *c, const char *name, int nsp, int64_t def, int64_t *v)
{
    int64_t raw[MAX_LIST];
    int n;
    if (!attr_ints(c, name, raw, &n))
        return false;
    for (int i = 0; i < nsp; i++)
        v[i] = n < 0 ? def : n == 1 ? raw[0] : raw[i];
    if (n >= 0 && n != 1 && n != nsp)
        return fail(c, "'%s' has %d values; %d spatial axes need 1 or %d", name, n, nsp, nsp);
    return true;
}

/* Padding as TVM's GetPadding* reads it: one value for every side, one per
 * axis for both sides, or all befores then all afters. */
static bool padding_total(rule_ctx *c, int nsp, int64_t *total)
{
    int64_t p[MAX_LIST];
    int n;
    if (!attr_ints(c, "padding", p, &n))
        return false;
    if (n < 0) {
        for (int i = 0; i < nsp; i++)
            total[i] = 0;
        return true;
    }
    if (n != 1 && n != nsp && n != 2 * nsp)
        return fail(c, "'padding' has %d values; %d spatial axes need 1, %d or %d", n, nsp, nsp,
                    2 * nsp);
    for (int i = 0; i < n; i++)
        if (p[i] < 0)
            return fail(c, "padding %lld is negative", (long long)p[i]);
    for (int i = 0; i < nsp; i++)
        total[i] = n == 2 * nsp ? add_n(c, p[i], p[i + nsp]) : mul_n(c, p[n == 1 ? 0 : i], 2);
    return true;
}

typedef struct window {
    int nsp;
    char sp[3];
    int64_t strides[3], dilation[3], pad[3];
} window;

static bool window_attrs(rule_ctx *c, window *w)
{
    if (!per_axis(c, "strides", w->nsp, 1, w->strides)
        || !per_axis(c, "dilation", w->nsp, 1, w->dilation) || !padding_total(c, w->nsp, w->pad))
        return false;
    for (int i = 0; i < w->nsp; i++)
        if (w->strides[i] < 1 || w->dilation[i] < 1)
            return fail(c, "strides and dilation must be positive");
    return true;
}

/* One axis of a sliding window: (in + pad - dilated kernel) / stride + 1,
 * rounded down, or up when ceil_mode (TVM's conv and pool relations). */
static bool window_out(rule_ctx *c, const window *w, int i, int64_t in, int64_t k, bool ceil_mode,
                       int64_t *out)
{
    if (k == 0)
        return fail(c, "kernel size 0 on axis %c", w->sp[i]);
    if (k < 0) {
        *out = UNK;
        return true;
    }
    int64_t dk = add_n(c, mul_n(c, k - 1, w->dilation[i]), 1);
    if (in < 0) {
        /* Only a window that keeps the size keeps the symbol. */
        *out = in <= -2 && w->strides[i] == 1 && w->pad[i] == dk - 1 ? in : UNK;
        return true;
    }
    int64_t num = add_n(c, in, w->pad[i]) - dk;
    if (num < 0)
        return fail(c, "the window %lld is larger than the padded input %lld on axis %c",
                    (long long)dk, (long long)add_n(c, in, w->pad[i]), w->sp[i]);
    if (ceil_mode)
        num = add_n(c, num, w->strides[i] - 1);
    *out = num / w->strides[i] + 1;
    return true;
}

/* The data, kernel and output layouts of a convolution: data and output
 * with N, C and 1-3 spatial axes, the kernel with `k1`, `k2` (O and I, in
 * whichever order the op means) and the same spatial axes. */
static bool conv_layouts(rule_ctx *c, const char *data_attr, const char *kernel_attr,
                         const char *kernel_fallback, const char *out_attr, layout *dl,
                         layout *kl, layout *ol, window *w)
{
    if (!get_layout(c, data_attr, NULL, dl) || !get_layout(c, kernel_attr, kernel_fallback, kl)
        || !get_layout(c, out_attr, dl->text, ol))
        return false;
    w->nsp = spatial_axes(dl, w->sp);
    if (layout_find(dl, 'N') < 0 || layout_find(dl, 'C') < 0 || w->nsp == 0
        || primal_count(dl) != 2 + w->nsp)
        return fail(c, "layout %s is not N, C and spatial axes", dl->text);
    bool kernel_ok = layout_find(kl, 'O') >= 0 && layout_find(kl, 'I') >= 0
                     && primal_count(kl) == 2 + w->nsp;
    for (int i = 0; i < w->nsp; i++)
        kernel_ok = kernel_ok && layout_find(kl, w->sp[i]) >= 0;
    if (!kernel_ok)
        return fail(c, "kernel layout %s does not match data layout %s", kl->text, dl->text);
    if (!same_primal(dl, ol))
        return fail(c, "output layout %s does not match data layout %s", ol->text, dl->text);
    return true;
}

/* Checks an inferred weight dimension against the weight's type. */
static bool weight_dim(rule_ctx *c, char axis, int64_t want, int64_t have)
{
    if (want >= 0 && have >= 0 && want != have)
        return fail(c, "weight axis %c is %lld, expected %lld", axis, (long long)have,
                    (long long)want);
    return true;
}

/* TVM's Conv1DRel, Conv2DRel and Conv3DRel, for any layouts: channels and
 * kernel_size, when both are set, define the weight; otherwise the weight's
 * type does and the attributes are checked against it. */
static bool rule_conv(rule_ctx *c)
{
    const byoc_tensor_type *data, *wt = typed_input(c, 1);
    layout dl, kl, ol;
    window w;
    int64_t groups, channels, ks[3], dp[26], wp[26], op[26];
    int nks;
    int64_t ksraw[MAX_LIST];
    if (!need(c, 0, &data) || !conv_layouts(c, "data_layout", "kernel_layout", NULL, "out_layout",
                                            &dl, &kl, &ol, &w)
        || !window_attrs(c, &w) || !attr_int(c, "groups", 1, &groups)
        || !attr_int(c, "channels", -1, &channels) || !attr_ints(c, "kernel_size", ksraw, &nks)
        || !to_primal(c, &dl, data, input_name(c, 0), dp))
        return false;
    if (groups < 1)
        return fail(c, "groups %lld is not positive", (long long)groups);
    if (nks >= 0 && nks != w.nsp)
        return fail(c, "kernel_size has %d values for %d spatial axes", nks, w.nsp);
    for (int i = 0; i < 26; i++)
        wp[i] = UNK;
    if (wt && !to_primal(c, &kl, wt, input_name(c, 1), wp))
        return false;
    int64_t cin = P(dp, 'C');
    if (groups > 1 && !wt)
        return fail(c, "%s has no type, which groups > 1 needs", input_name(c, 1));
    bool depthwise = groups > 1 && cin == groups && P(wp, 'O') == groups;
    if (nks >= 0 && channels >= 0) {
        int64_t o = depthwise ? cin : channels;
        int64_t in = depthwise ? (cin > 0 ? channels / cin : UNK) : d_div(cin, groups);
        if (wt && (!weight_dim(c, 'O', o, P(wp, 'O')) || !weight_dim(c, 'I', in, P(wp, 'I'))))
            return false;
        for (int i = 0; i < w.nsp; i++) {
            ks[i] = ksraw[i];
            if (wt && !weight_dim(c, w.sp[i], ks[i], P(wp, w.sp[i])))
                return false;
        }
    } else {
        if (!wt)
            return need(c, 1, &wt);
        for (int i = 0; i < w.nsp; i++) {
            ks[i] = P(wp, w.sp[i]);
            if (nks >= 0 && ks[i] >= 0 && ks[i] != ksraw[i])
                return fail(c, "kernel_size %lld does not match the weight's %lld on axis %c",
                            (long long)ksraw[i], (long long)ks[i], w.sp[i]);
        }
        if (channels >= 0 && P(wp, 'O') >= 0 && channels != P(wp, 'O'))
            return fail(c, "channels %lld does not match the weight's %lld", (long long)channels,
                        (long long)P(wp, 'O'));
        if (cin >= 0 && P(wp, 'I') >= 0 && cin / groups != P(wp, 'I'))
            return fail(c, "%lld input channels / %lld groups do not match the weight's %lld",
                        (long long)cin, (long long)groups, (long long)P(wp, 'I'));
        channels = P(wp, 'O');
    }
    for (int i = 0; i < 26; i++)
        op[i] = UNK;
    P(op, 'N') = P(dp, 'N');
    P(op, 'C') = channels;
    for (int i = 0; i < w.nsp; i++)
        if (!window_out(c, &w, i, P(dp, w.sp[i]), ks[i], false, &P(op, w.sp[i])))
            return false;
    from_primal(&ol, op, &c->out);
    c->out.dtype = out_dtype_or(c, data->dtype != BYOC_DT_VOID ? data->dtype
                                   : wt                        ? wt->dtype
                                                               : BYOC_DT_VOID);
    return true;
}

/* TVM's Conv{1,2,3}DTransposeRel, whose kernel layouts say I for the data's
 * channels and O for the output channels per group.  TVM takes the weight's
 * O as the output channels, which is right only for groups = 1; here they
 * are O * groups, as TVM's compute produces. */
static bool rule_conv_transpose(rule_ctx *c)
{
    const byoc_tensor_type *data, *wt = typed_input(c, 1);
    layout dl, kl, ol;
    window w;
    int64_t groups, channels, ks[3], outpad[3], dp[26], wp[26], op[26], ksraw[MAX_LIST];
    int nks;
    if (!need(c, 0, &data) || !conv_layouts(c, "data_layout", "kernel_layout", NULL, "out_layout",
                                            &dl, &kl, &ol, &w)
        || !window_attrs(c, &w) || !per_axis(c, "output_padding", w.nsp, 0, outpad)
        || !attr_int(c, "groups", 1, &groups) || !attr_int(c, "channels", -1, &channels)
        || !attr_ints(c, "kernel_size", ksraw, &nks)
        || !to_primal(c, &dl, data, input_name(c, 0), dp))
        return false;
    if (groups < 1)
        return fail(c, "groups %lld is not positive", (long long)groups);
    if (nks >= 0 && nks != w.nsp)
        return fail(c, "kernel_size has %d values for %d spatial axes", nks, w.nsp);
    for (int i = 0; i < w.nsp; i++)
        if (outpad[i] < 0)
            return fail(c, "output_padding %lld is negative", (long long)outpad[i]);
    for (int i = 0; i < 26; i++)
        wp[i] = UNK;
    if (wt && !to_primal(c, &kl, wt, input_name(c, 1), wp))
        return false;
    int64_t cin = P(dp, 'C');
    if (nks >= 0 && channels >= 0) {
        if (wt && (!weight_dim(c, 'I', cin, P(wp, 'I'))
                   || !weight_dim(c, 'O', channels / groups, P(wp, 'O'))))
            return false;
        for (int i = 0; i < w.nsp; i++) {
            ks[i] = ksraw[i];
            if (wt && !weight_dim(c, w.sp[i], ks[i], P(wp, w.sp[i])))
                return false;
        }
    } else {
        if (!wt)
            return need(c, 1, &wt);
        for (int i = 0; i < w.nsp; i++) {
            ks[i] = P(wp, w.sp[i]);
            if (nks >= 0 && ks[i] >= 0 && ks[i] != ksraw[i])
                return fail(c, "kernel_size %lld does not match the weight's %lld on axis %c",
                            (long long)ksraw[i], (long long)ks[i], w.sp[i]);
        }
        if (channels >= 0 && P(wp, 'O') >= 0 && channels / groups != P(wp, 'O'))
            return fail(c, "channels %lld / %lld groups do not match the weight's %lld",
                        (long long)channels, (long long)groups, (long long)P(wp, 'O'));
        if (!weight_dim(c, 'I', cin, P(wp, 'I')))
            return false;
        channels = d_mul(c, P(wp, 'O'), groups);
    }
    for (int i = 0; i < 26; i++)
        op[i] = UNK;
    P(op, 'N') = P(dp, 'N');
    P(op, 'C') = channels;
    for (int i = 0; i < w.nsp; i++) {
        int64_t in = P(dp, w.sp[i]), k = ks[i], *o = &P(op, w.sp[i]);
        if (k == 0)
            return fail(c, "kernel size 0 on axis %c", w.sp[i]);
        /* The size beyond stride * (in - 1): kernel, less padding, plus
         * output_padding.  All terms are non-negative, so only the sums
         * can overflow. */
        int64_t dk = k > 0 ? add_n(c, mul_n(c, k - 1, w.dilation[i]), 1) : UNK;
        int64_t grow = dk >= 0 ? add_n(c, dk - w.pad[i], outpad[i]) - 1 : UNK;
        if (in >= 0 && dk >= 0) {
            *o = add_n(c, mul_n(c, w.strides[i], in - 1), grow + 1);
            if (*o < 1)
                return fail(c, "the output would be empty on axis %c", w.sp[i]);
        } else {
            *o = in <= -2 && w.strides[i] == 1 && grow == 0 ? in : UNK;
        }
    }
    from_primal(&ol, op, &c->out);
    c->out.dtype = out_dtype_or(c, data->dtype);
    return true;
}

/* TVM's Conv2DBackwardWeightRel, which reuses Conv2DAttrs: data_layout is
 * grad's layout, kernel_layout the data's and out_layout the result's.
 * Defaults that cannot mean that (the data in "OIHW", the result in "")
 * fall back to grad's layout and "OIHW". */
static bool rule_conv2d_backward_weight(rule_ctx *c)
{
    const byoc_tensor_type *grad, *data;
    layout gl, dl, kl;
    window w;
    int64_t groups, channels, ks[MAX_LIST], gp[26], dp[26], kp[26];
    int nks;
    if (!need(c, 0, &grad) || !need(c, 1, &data) || !get_layout(c, "data_layout", NULL, &gl)
        || !get_layout(c, "kernel_layout", NULL, &dl) || !get_layout(c, "out_layout", "OIHW", &kl)
        || !attr_int(c, "groups", 1, &groups) || !attr_int(c, "channels", -1, &channels)
        || !attr_ints(c, "kernel_size", ks, &nks))
        return false;
    if (!same_primal(&gl, &dl))
        dl = gl;
    w.nsp = spatial_axes(&gl, w.sp);
    if (layout_find(&gl, 'N') < 0 || layout_find(&gl, 'C') < 0 || w.nsp == 0
        || primal_count(&gl) != 2 + w.nsp)
        return fail(c, "layout %s is not N, C and spatial axes", gl.text);
    bool kernel_ok = layout_find(&kl, 'O') >= 0 && layout_find(&kl, 'I') >= 0
                     && primal_count(&kl) == 2 + w.nsp;
    for (int i = 0; i < w.nsp; i++)
        kernel_ok = kernel_ok && layout_find(&kl, w.sp[i]) >= 0;
    if (!kernel_ok)
        return fail(c, "weight layout %s does not match layout %s", kl.text, gl.text);
    if (nks < 0)
        return fail(c, "kernel_size is not set");
    if (nks != w.nsp)
        return fail(c, "kernel_size has %d values for %d spatial axes", nks, w.nsp);
    if (groups < 1)
        return fail(c, "groups %lld is not positive", (long long)groups);
    if (!to_primal(c, &gl, grad, input_name(c, 0), gp) || !to_primal(c, &dl, data,
                                                                      input_name(c, 1), dp))
        return false;
    int64_t cin = P(dp, 'C'), cout = P(gp, 'C'), wi;
    if (cin >= 0 && cin == cout && cin == groups) {
        if (channels < 0)
            return fail(c, "channels is not set, which a depthwise convolution needs");
        wi = channels / groups;
    } else {
        wi = d_div(cin, groups);
    }
    for (int i = 0; i < 26; i++)
        kp[i] = UNK;
    P(kp, 'O') = cout;
    P(kp, 'I') = wi;
    for (int i = 0; i < w.nsp; i++)
        P(kp, w.sp[i]) = ks[i];
    from_primal(&kl, kp, &c->out);
    c->out.dtype = out_dtype_or(c, grad->dtype);
    return true;
}

/* The spatial axes of a pooling layout, which TVM does not let split. */
static bool pool_layout(rule_ctx *c, const byoc_tensor_type *t, layout *l, window *w)
{
    if (!get_layout(c, "layout", NULL, l))
        return false;
    w->nsp = spatial_axes(l, w->sp);
    if (w->nsp == 0)
        return fail(c, "layout %s has no spatial axes", l->text);
    for (int i = 0; i < w->nsp; i++)
        if (layout_find(l, (char)(w->sp[i] - 'A' + 'a')) >= 0)
            return fail(c, "layout %s splits a spatial axis", l->text);
    if (t->rank != l->n)
        return fail(c, "%s must have rank %d for layout %s", input_name(c, 0), l->n, l->text);
    return true;
}

/* TVM's Pool{1,2,3}DRel.  The result keeps the input's layout: out_layout
 * only guides layout rewriting. */
static bool rule_pool(rule_ctx *c)
{
    const byoc_tensor_type *t;
    layout l;
    window w;
    int64_t k[3];
    if (!need(c, 0, &t) || !pool_layout(c, t, &l, &w) || !window_attrs(c, &w)
        || !per_axis(c, "pool_size", w.nsp, 1, k))
        return false;
    bool ceil_mode = attr_bool(c, "ceil_mode", false);
    c->out = *t;
    for (int i = 0; i < w.nsp; i++) {
        int at = layout_find(&l, w.sp[i]);
        if (k[i] < 1)
            return fail(c, "pool_size %lld is not positive", (long long)k[i]);
        if (!window_out(c, &w, i, t->dims[at], k[i], ceil_mode, &c->out.dims[at]))
            return false;
    }
    return true;
}

static bool rule_global_pool(rule_ctx *c)
{
    const byoc_tensor_type *t;
    layout l;
    window w;
    if (!need(c, 0, &t) || !pool_layout(c, t, &l, &w))
        return false;
    c->out = *t;
    for (int i = 0; i < w.nsp; i++)
        c->out.dims[layout_find(&l, w.sp[i])] = 1;
    return true;
}

/* TVM's AdaptivePool{1,2,3}DRel: no output_size keeps the input's size. */
static bool rule_adaptive_pool(rule_ctx *c)
{
    const byoc_tensor_type *t;
    layout l;
    window w;
    int64_t size[3];
    if (!need(c, 0, &t) || !pool_layout(c, t, &l, &w))
        return false;
    int64_t raw[MAX_LIST];
    int n;
    if (!attr_ints(c, "output_size", raw, &n))
        return false;
    if (n > 0 && !per_axis(c, "output_size", w.nsp, 1, size))
        return false;
    c->out = *t;
    for (int i = 0; i < w.nsp; i++) {
        if (n > 0 && size[i] < 1)
            return fail(c, "output_size %lld is not positive", (long long)size[i]);
        if (n > 0)
            c->out.dims[layout_find(&l, w.sp[i])] = size[i];
    }
    return true;
}

/* ---- matrix products ---------------------------------------------------- */

/* TVM's DenseRel: units, when set, defines the weight [units, K]. */
static bool rule_dense(rule_ctx *c)
{
    const byoc_tensor_type *data, *wt = typed_input(c, 1);
    int64_t units, k;
    if (!need(c, 0, &data) || !attr_int(c, "units", -1, &units))
        return false;
    if (data->rank < 1)
        return fail(c, "%s must have rank 1 or more", input_name(c, 0));
    if (units < 0 && !need(c, 1, &wt))
        return false;
    if (wt && wt->rank != 2)
        return fail(c, "%s must have rank 2", input_name(c, 1));
    if (wt && !d_unify(data->dims[data->rank - 1], wt->dims[1], &k))
        return fail(c, "reduction axes %lld and %lld differ", (long long)data->dims[data->rank - 1],
                    (long long)wt->dims[1]);
    if (wt && units >= 0 && wt->dims[0] >= 0 && wt->dims[0] != units)
        return fail(c, "units %lld does not match the weight's %lld", (long long)units,
                    (long long)wt->dims[0]);
    c->out = *data;
    c->out.dims[data->rank - 1] = units >= 0 ? units : wt->dims[0];
    c->out.dtype = out_dtype_or(c, data->dtype);
    return true;
}

/* TVM's MatmulRel: a is [.., M, K] ([.., K, M] when transpose_a), b is
 * [K, N] ([N, K] when transpose_b); units, when set, gives N. */
static bool rule_matmul(rule_ctx *c)
{
    const byoc_tensor_type *a, *b = typed_input(c, 1);
    int64_t units, k;
    bool ta = attr_bool(c, "transpose_a", false), tb = attr_bool(c, "transpose_b", false);
    if (!need(c, 0, &a) || !attr_int(c, "units", -1, &units))
        return false;
    if (a->rank < (ta ? 2 : 1))
        return fail(c, "%s must have rank %d or more", input_name(c, 0), ta ? 2 : 1);
    if (units < 0 && !need(c, 1, &b))
        return false;
    if (b && b->rank != 2)
        return fail(c, "%s must have rank 2", input_name(c, 1));
    int64_t ak = a->dims[a->rank - (ta ? 2 : 1)];
    c->out = *a;
    if (ta)
        c->out.dims[a->rank - 2] = a->dims[a->rank - 1];
    if (b && !d_unify(ak, b->dims[tb ? 1 : 0], &k))
        return fail(c, "reduction axes %lld and %lld differ", (long long)ak,
                    (long long)b->dims[tb ? 1 : 0]);
    c->out.dims[a->rank - 1] = units >= 0 ? units : b->dims[tb ? 0 : 1];
    c->out.dtype = out_dtype_or(c, a->dtype);
    return true;
}

/* TVM's BatchMatmulRel: [B, M, K] x [B, K, N] with each side transposable
 * and a batch of 1 broadcasting. */
static bool rule_batch_matmul(rule_ctx *c)
{
    const byoc_tensor_type *x, *y;
    bool ta = attr_bool(c, "transpose_a", false), tb = attr_bool(c, "transpose_b", false);
    if (!need(c, 0, &x) || !need(c, 1, &y))
        return false;
    if (x->rank != 3 || y->rank != 3)
        return fail(c, "both operands must have rank 3");
    int64_t xb = x->dims[0], xi = x->dims[ta ? 2 : 1], xk = x->dims[ta ? 1 : 2];
    int64_t yb = y->dims[0], yk = y->dims[tb ? 2 : 1], yj = y->dims[tb ? 1 : 2];
    int64_t b, k;
    if (!d_broadcast(xb, yb, &b))
        return fail(c, "batch dimensions %lld and %lld differ", (long long)xb, (long long)yb);
    if (!d_unify(xk, yk, &k))
        return fail(c, "reduction axes %lld and %lld differ", (long long)xk, (long long)yk);
    c->out.rank = 3;
    c->out.dims[0] = xb == UNK || yb == UNK ? UNK : b;
    c->out.dims[1] = xi;
    c->out.dims[2] = yj;
    c->out.dtype = out_dtype_or(c, x->dtype);
    return true;
}

/* ---- image and spatial layout ------------------------------------------- */

/* TVM's UpSamplingRel and UpSampling3DRel: each spatial axis times its
 * scale, rounded to the nearest integer (ties to even, as TVM's constant
 * folding of round does). */
static bool rule_upsampling(rule_ctx *c)
{
    const byoc_tensor_type *t;
    layout l;
    int64_t p[26];
    char sp[3];
    if (!need(c, 0, &t) || !get_layout(c, "layout", NULL, &l)
        || !to_primal(c, &l, t, input_name(c, 0), p))
        return false;
    int nsp = spatial_axes(&l, sp);
    if (nsp == 0)
        return fail(c, "layout %s has no spatial axes", l.text);
    for (int i = 0; i < nsp; i++) {
        char name[] = "scale_?";
        name[6] = (char)(sp[i] - 'A' + 'a');
        double s;
        if (!attr(c, name))
            return fail(c, "layout %s has axis %c but the op has no '%s'", l.text, sp[i], name);
        if (!attr_float(c, name, 1.0, &s))
            return false;
        if (!(s > 0) || s > 1e12)
            return fail(c, "'%s' %g is not a positive scale", name, s);
        int64_t *d = &P(p, sp[i]);
        if (s == 1.0)
            continue;
        if (*d < 0) {
            *d = UNK;
            continue;
        }
        double v = nearbyint((double)*d * s);
        if (v > 9e18)
            return fail(c, "axis %c overflows", sp[i]);
        *d = (int64_t)v;
    }
    from_primal(&l, p, &c->out);
    c->out.dtype = t->dtype;
    return true;
}

/* TVM's Resize{1,2,3}DRel: the spatial axes become `size`. */
static bool rule_resize(rule_ctx *c)
{
    const byoc_tensor_type *t;
    layout l;
    int64_t p[26], size[MAX_LIST];
    char sp[3];
    int n;
    if (!need(c, 0, &t) || !get_layout(c, "layout", NULL, &l) || !attr_ints(c, "size", size, &n)
        || !to_primal(c, &l, t, input_name(c, 0), p))
        return false;
    int nsp = spatial_axes(&l, sp);
    if (n < 0)
        return fail(c, "size is not set");
    if (n != nsp)
        return fail(c, "size has %d values for %d spatial axes", n, nsp);
    for (int i = 0; i < nsp; i++) {
        if (size[i] < 0)
            return fail(c, "size %lld is negative", (long long)size[i]);
        P(p, sp[i]) = size[i];
    }
    from_primal(&l, p, &c->out);
    c->out.dtype = out_dtype_or(c, t->dtype);
    return true;
}

/* TVM's CropAndResizeRel: one crop per box, crop_size on H and W. */
static bool rule_crop_and_resize(rule_ctx *c)
{
    const byoc_tensor_type *t, *boxes;
    layout l;
    int64_t p[26], size[MAX_LIST];
    char sp[3];
    int n;
    if (!need(c, 0, &t) || !need(c, 1, &boxes) || !get_layout(c, "layout", NULL, &l)
        || !attr_ints(c, "crop_size", size, &n) || !to_primal(c, &l, t, input_name(c, 0), p))
        return false;
    int nsp = spatial_axes(&l, sp);
    if (layout_find(&l, 'N') < 0 || nsp == 0)
        return fail(c, "layout %s has no batch or no spatial axes", l.text);
    if (n < 0)
        return fail(c, "crop_size is not set");
    if (n != nsp)
        return fail(c, "crop_size has %d values for %d spatial axes", n, nsp);
    if (boxes->rank < 1)
        return fail(c, "%s must have rank 1 or more", input_name(c, 1));
    P(p, 'N') = boxes->dims[0];
    for (int i = 0; i < nsp; i++) {
        if (size[i] < 0)
            return fail(c, "crop_size %lld is negative", (long long)size[i]);
        P(p, sp[i]) = size[i];
    }
    from_primal(&l, p, &c->out);
    c->out.dtype = out_dtype_or(c, t->dtype);
    return true;
}

/* depth_to_space and space_to_depth: C by block_size^2 one way, H and W by
 * block_size the other. */
static bool block_rearrange(rule_ctx *c, bool to_space)
{
    const byoc_tensor_type *t;
    layout l;
    int64_t p[26], bs;
    if (!need(c, 0, &t) || !get_layout(c, "layout", NULL, &l)
        || !attr_int(c, "block_size", 1, &bs) || !to_primal(c, &l, t, input_name(c, 0), p))
        return false;
    if (layout_find(&l, 'C') < 0 || layout_find(&l, 'H') < 0 || layout_find(&l, 'W') < 0)
        return fail(c, "layout %s lacks C, H or W", l.text);
    if (bs < 1 || bs > 1000000)
        return fail(c, "block_size %lld is not a positive size", (long long)bs);
    int64_t *ch = &P(p, 'C'), *h = &P(p, 'H'), *w = &P(p, 'W');
    int64_t *shrink[2], grow[2];
    int nshrink = 0;
    if (to_space) {
        shrink[nshrink++] = ch;
        grow[0] = bs * bs;
        *h = d_mul(c, *h, bs);
        *w = d_mul(c, *w, bs);
    } else {
        shrink[nshrink++] = h;
        shrink[nshrink++] = w;
        grow[0] = grow[1] = bs;
        *ch = d_mul(c, *ch, bs * bs);
    }
    for (int i = 0; i < nshrink; i++) {
        if (*shrink[i] >= 0 && *shrink[i] % grow[i] != 0)
            return fail(c, "axis of %lld does not divide by %lld", (long long)*shrink[i],
                        (long long)grow[i]);
        *shrink[i] = d_div(*shrink[i], grow[i]);
    }
    from_primal(&l, p, &c->out);
    c->out.dtype = t->dtype;
    return true;
}

static bool rule_depth_to_space(rule_ctx *c) { return block_rearrange(c, true); }
static bool rule_space_to_depth(rule_ctx *c) { return block_rearrange(c, false); }

/* TVM's SpaceToBatchNDRel and BatchToSpaceNDRel: the axes after the batch
 * axis are padded and divided by block_shape (or multiplied and cropped),
 * and the batch grows (or shrinks) by the block's size. */
static bool batch_space(rule_ctx *c, bool to_batch)
{
    const byoc_tensor_type *t;
    int64_t block[MAX_LIST], pads[BYOC_MAX_RANK][2];
    int nb, np;
    const char *pname = to_batch ? "paddings" : "crops";
    if (!need(c, 0, &t) || !attr_ints(c, "block_shape", block, &nb)
        || !attr_pairs(c, pname, pads, &np))
        return false;
    if (nb < 1)
        return fail(c, "block_shape is empty");
    if (np != nb)
        return fail(c, "block_shape has %d values but '%s' %d pairs", nb, pname, np < 0 ? 0 : np);
    if (t->rank <= nb)
        return fail(c, "%s must have rank above %d", input_name(c, 0), nb);
    c->out = *t;
    int64_t total = 1;
    for (int i = 0; i < nb; i++) {
        int64_t *d = &c->out.dims[i + 1];
        if (block[i] < 1)
            return fail(c, "block_shape %lld is not positive", (long long)block[i]);
        if (pads[i][0] < 0 || pads[i][1] < 0)
            return fail(c, "'%s' are negative", pname);
        total = mul_n(c, total, block[i]);
        int64_t edge = add_n(c, pads[i][0], pads[i][1]);
        if (*d < 0) {
            *d = edge == 0 && block[i] == 1 ? *d : UNK;
            continue;
        }
        if (to_batch) {
            int64_t padded = add_n(c, *d, edge);
            if (padded < 0 || padded % block[i] != 0)
                return fail(c, "padded axis %d (%lld) does not divide by %lld", i + 1,
                            (long long)padded, (long long)block[i]);
            *d = padded / block[i];
        } else {
            *d = mul_n(c, *d, block[i]) - edge;
            if (*d < 0)
                return fail(c, "crops exceed axis %d", i + 1);
        }
    }
    int64_t *batch = &c->out.dims[0];
    if (to_batch) {
        *batch = d_mul(c, *batch, total);
    } else {
        if (*batch >= 0 && *batch % total != 0)
            return fail(c, "batch %lld does not divide by %lld", (long long)*batch,
                        (long long)total);
        *batch = d_div(*batch, total);
    }
    return true;
}

static bool rule_space_to_batch_nd(rule_ctx *c) { return batch_space(c, true); }
static bool rule_batch_to_space_nd(rule_ctx *c) { return batch_space(c, false); }

/* TVM's PadRel and MirrorPadRel: a (before, after) pair per axis. */
static bool rule_pad(rule_ctx *c)
{
    const byoc_tensor_type *t;
    int64_t pw[BYOC_MAX_RANK][2];
    int n;
    if (!need(c, 0, &t) || !attr_pairs(c, "pad_width", pw, &n))
        return false;
    if (n != t->rank)
        return fail(c, "pad_width has %d pairs for rank %d", n < 0 ? 0 : n, t->rank);
    c->out = *t;
    for (int i = 0; i < n; i++) {
        int64_t edge = add_n(c, pw[i][0], pw[i][1]), *d = &c->out.dims[i];
        if (*d < 0) {
            *d = edge == 0 ? *d : UNK;
        } else {
            *d = add_n(c, *d, edge);
            if (*d < 0)
                return fail(c, "pad_width makes axis %d negative", i);
        }
    }
    return true;
}

/* ---- tuples out: normalisation, dropout, split, topk -------------------- */

/* TVM's BatchNormRel: (out, mean, var), the statistics [C] in the data's
 * dtype; the given statistics and scales must be [C]. */
static bool rule_batch_norm(rule_ctx *c)
{
    const byoc_tensor_type *t;
    int64_t axis;
    int a;
    if (!need(c, 0, &t) || !attr_int(c, "axis", 1, &axis) || !norm_axis(c, axis, t->rank, 0, &a))
        return false;
    int64_t ch = t->dims[a];
    for (int i = 1; i < c->n->nargs && i < 5; i++) {
        const byoc_tensor_type *v = typed_input(c, i);
        int64_t same;
        if (v && (v->rank != 1 || !d_unify(v->dims[0], ch, &same)))
            return fail(c, "%s must be a vector of the %lld channels", input_name(c, i),
                        (long long)ch);
    }
    byoc_tensor_type *f = begin_tuple(c, 3);
    f[0] = *t;
    f[1].dtype = f[2].dtype = t->dtype;
    f[1].rank = f[2].rank = 1;
    f[1].dims[0] = f[2].dims[0] = ch;
    return true;
}

static bool rule_dropout(rule_ctx *c)
{
    const byoc_tensor_type *t;
    if (!need(c, 0, &t))
        return false;
    byoc_tensor_type *f = begin_tuple(c, 2);
    f[0] = f[1] = *t;
    return true;
}

/* TVM's SplitRel: n equal sections, or cuts at ascending indices. */
static bool rule_split(rule_ctx *c)
{
    const byoc_tensor_type *t;
    int64_t axis;
    int a;
    const byoc_value *v = attr(c, "indices_or_sections");
    if (!need(c, 0, &t) || !attr_int(c, "axis", 0, &axis))
        return false;
    if (t->rank < 1)
        return fail(c, "cannot split a scalar");
    if (!norm_axis(c, axis, t->rank, 0, &a))
        return false;
    if (!v)
        return fail(c, "indices_or_sections is not set");
    int64_t d = t->dims[a];
    if (v->kind == BYOC_V_INT) {
        int64_t n = v->u.i;
        if (n < 1 || n > MAX_FIELDS)
            return fail(c, "%lld sections", (long long)n);
        if (d >= 0 && d % n != 0)
            return fail(c, "%lld sections do not divide axis %d of %lld", (long long)n, a,
                        (long long)d);
        /* A number in the text makes n fields: bounded for the whole graph
         * too, or a few bytes per call could ask for gigabytes. */
        if (c->g->split_fields > MAX_FIELDS - n)
            return fail(c, "%lld sections take the graph's splits past %d fields in all",
                        (long long)n, MAX_FIELDS);
        c->g->split_fields += n;
        byoc_tensor_type *f = begin_tuple(c, (int)n);
        for (int i = 0; i < n; i++) {
            f[i] = *t;
            f[i].dims[a] = d_div(d, n);
        }
        return true;
    }
    if (v->kind != BYOC_V_LIST)
        return fail(c, "indices_or_sections is neither an int nor a list of ints");
    if (v->u.list.n >= MAX_FIELDS)
        return fail(c, "%zu split indices", v->u.list.n);
    int n = (int)v->u.list.n;
    byoc_tensor_type *f = begin_tuple(c, n + 1);
    int64_t begin = 0;
    for (int i = 0; i < n; i++) {
        int64_t at;
        if (!value_int(&v->u.list.items[i], &at))
            return fail(c, "indices_or_sections is not a list of ints");
        if (at <= begin)
            return fail(c, "split indices must ascend from above 0");
        f[i] = *t;
        f[i].dims[a] = at - begin;
        begin = at;
    }
    if (d >= 0 && begin >= d)
        return fail(c, "split index %lld is not inside axis %d of %lld", (long long)begin, a,
                    (long long)d);
    f[n] = *t;
    f[n].dims[a] = d >= 0 ? d - begin : begin == 0 ? d : UNK;
    return true;
}

/* TVM's TopKRel: k on `axis` (k < 1: the whole axis). */
static bool rule_topk(rule_ctx *c)
{
    const byoc_tensor_type *t;
    int64_t k, axis;
    int a;
    if (!need(c, 0, &t) || !attr_int(c, "k", 1, &k) || !attr_int(c, "axis", -1, &axis)
        || !norm_axis(c, axis, t->rank, 0, &a))
        return false;
    const char *ret = attr_str(c, "ret_type", "both");
    byoc_dtype idt = attr_dtype(c, "dtype");
    byoc_tensor_type values = *t, indices;
    if (k >= 1 && t->dims[a] >= 0 && k > t->dims[a])
        return fail(c, "k %lld is larger than axis %d of %lld", (long long)k, a,
                    (long long)t->dims[a]);
    if (k >= 1)
        values.dims[a] = k;
    indices = values;
    indices.dtype = idt != BYOC_DT_VOID ? idt : BYOC_DT_INT32;
    if (strcmp(ret, "both") == 0) {
        byoc_tensor_type *f = begin_tuple(c, 2);
        f[0] = values;
        f[1] = indices;
    } else if (strcmp(ret, "values") == 0) {
        c->out = values;
    } else if (strcmp(ret, "indices") == 0) {
        c->out = indices;
    } else {
        return fail(c, "ret_type '%s' is not both, values or indices", ret);
    }
    return true;
}

/* ---- reshaping ---------------------------------------------------------- */

/* TVM's InferNewShape.  Codes: 0 copies the input axis (unless allowzero),
 * -1 infers from the rest, -2 copies the remaining axes, -3 merges two,
 * -4 splits one into the next two values.  A symbol survives a copy, a
 * merge or split by 1, and a -1 whose other input axes match the explicit
 * output sizes. */
static bool new_shape(rule_ctx *c, const int64_t *ishape, int irank, const int64_t *ns, int nn,
                      bool allowzero, byoc_tensor_type *out)
{
    bool used_in[BYOC_MAX_RANK] = {false}, used_out[BYOC_MAX_RANK] = {false};
    int src = 0, infer = -1;
    out->rank = 0;
    for (int i = 0; i < nn; i++) {
        int64_t v = ns[i];
        int at = out->rank;
        if (v > 0 || (v == 0 && allowzero)) {
            if (!push_dim(c, out, v))
                return false;
            src++;
        } else if (v == 0) {
            if (src >= irank)
                return fail(c, "newshape copies axis %d of a rank %d input", src, irank);
            used_in[src] = true;
            if (!push_dim(c, out, ishape[src++]))
                return false;
            used_out[at] = true;
        } else if (v == -1) {
            if (infer >= 0)
                return fail(c, "newshape infers more than one axis");
            infer = at;
            if (!push_dim(c, out, 1))
                return false;
            src++;
        } else if (v == -2) {
            while (src < irank) {
                used_in[src] = true;
                if (!push_dim(c, out, ishape[src++]))
                    return false;
                used_out[out->rank - 1] = true;
            }
        } else if (v == -3) {
            if (src + 1 >= irank)
                return fail(c, "newshape merges past the last axis");
            used_in[src] = used_in[src + 1] = true;
            if (!push_dim(c, out, d_mul(c, ishape[src], ishape[src + 1])))
                return false;
            used_out[at] = true;
            src += 2;
        } else if (v == -4) {
            if (i + 2 >= nn)
                return fail(c, "newshape splits with fewer than two sizes after -4");
            if (src >= irank)
                return fail(c, "newshape splits past the last axis");
            int64_t d0 = ishape[src], d1 = ns[++i], d2 = ns[++i];
            used_in[src++] = true;
            if ((d1 == -1 && d2 == -1) || (d1 != -1 && d1 < 1) || (d2 != -1 && d2 < 1))
                return fail(c, "newshape splits into %lld and %lld", (long long)d1,
                            (long long)d2);
            int64_t known = d1 == -1 ? d2 : d1;
            if (d0 >= 0 && (d1 == -1 || d2 == -1) && d0 % known != 0)
                return fail(c, "axis of %lld does not split by %lld", (long long)d0,
                            (long long)known);
            if (!push_dim(c, out, d1 == -1 ? d_div(d0, d2) : d1))
                return false;
            used_out[at] = true;
            if (!push_dim(c, out, d2 == -1 ? d_div(d0, d1) : d2))
                return false;
            used_out[at + 1] = true;
        } else {
            return fail(c, "newshape value %lld is not a size or a code", (long long)v);
        }
    }
    if (infer >= 0) {
        int64_t rest_in[BYOC_MAX_RANK], rest_out[BYOC_MAX_RANK];
        int nin = 0, nout = 0;
        for (int i = 0; i < irank; i++)
            if (!used_in[i])
                rest_in[nin++] = ishape[i];
        for (int i = 0; i < out->rank; i++)
            if (!used_out[i])
                rest_out[nout++] = out->dims[i];
        /* The other output sizes are numbers; the input's may hold one
         * symbol, which is the answer when the numbers cancel. */
        int64_t sym = 0, pin, pout = d_prod(c, rest_out, nout);
        bool unknown = pout < 0;
        for (int i = 0; i < nin; i++) {
            if (rest_in[i] == UNK || (rest_in[i] <= -2 && sym != 0)) {
                unknown = true;
            } else if (rest_in[i] <= -2) {
                sym = rest_in[i];
                rest_in[i] = 1;
            }
        }
        pin = d_prod(c, rest_in, nin);
        /* A product past 64 bits reads as 0: say so, not that it does not
         * divide. */
        if (c->overflow)
            return fail(c, "the element count overflows 64 bits");
        if (unknown) {
            out->dims[infer] = UNK;
        } else if (pout == 0 || pin % pout != 0) {
            return fail(c, "cannot infer the -1 axis: %lld elements do not divide by %lld",
                        (long long)pin, (long long)pout);
        } else if (sym != 0) {
            out->dims[infer] = pin == pout ? sym : UNK;
        } else {
            out->dims[infer] = pin / pout;
        }
    }
    int64_t nin = d_prod(c, ishape, irank), nout = d_prod(c, out->dims, out->rank);
    if (c->overflow)
        return fail(c, "the element count overflows 64 bits");
    if (nin >= 0 && nout >= 0 && nin != nout)
        return fail(c, "%lld elements cannot become %lld", (long long)nin, (long long)nout);
    return true;
}

static bool reshape_common(rule_ctx *c, bool reverse)
{
    const byoc_tensor_type *t;
    int64_t ns[MAX_LIST], ishape[BYOC_MAX_RANK];
    int nn;
    if (!need(c, 0, &t) || !attr_ints(c, "newshape", ns, &nn))
        return false;
    if (nn < 0)
        return fail(c, "newshape is not set");
    for (int i = 0; i < t->rank; i++)
        ishape[i] = t->dims[reverse ? t->rank - 1 - i : i];
    if (reverse)
        for (int i = 0; i < nn / 2; i++) {
            int64_t x = ns[i];
            ns[i] = ns[nn - 1 - i];
            ns[nn - 1 - i] = x;
        }
    byoc_tensor_type o = {t->dtype, 0, {0}};
    if (!new_shape(c, ishape, t->rank, ns, nn, attr_bool(c, "allowzero", false), &o))
        return false;
    c->out.dtype = t->dtype;
    c->out.rank = o.rank;
    for (int i = 0; i < o.rank; i++)
        c->out.dims[i] = o.dims[reverse ? o.rank - 1 - i : i];
    return true;
}

static bool rule_reshape(rule_ctx *c) { return reshape_common(c, false); }
static bool rule_reverse_reshape(rule_ctx *c) { return reshape_common(c, true); }

/* TVM's ReshapeLikeRel: axes [lhs_begin, lhs_end) of the data replaced by
 * axes [rhs_begin, rhs_end) of shape_like. */
static bool rule_reshape_like(rule_ctx *c)
{
    const byoc_tensor_type *t, *like;
    int64_t lb, le, rb, re;
    if (!need(c, 0, &t) || !need(c, 1, &like) || !attr_int(c, "lhs_begin", 0, &lb)
        || !attr_int(c, "lhs_end", t->rank, &le) || !attr_int(c, "rhs_begin", 0, &rb)
        || !attr_int(c, "rhs_end", like->rank, &re))
        return false;
    lb += lb < 0 ? t->rank : 0;
    le += le < 0 ? t->rank : 0;
    rb += rb < 0 ? like->rank : 0;
    re += re < 0 ? like->rank : 0;
    if (lb < 0 || lb > le || le > t->rank || rb < 0 || rb > re || re > like->rank)
        return fail(c, "the axis ranges are out of bounds");
    c->out.dtype = t->dtype;
    c->out.rank = 0;
    for (int64_t i = 0; i < lb; i++)
        if (!push_dim(c, &c->out, t->dims[i]))
            return false;
    for (int64_t i = rb; i < re; i++)
        if (!push_dim(c, &c->out, like->dims[i]))
            return false;
    for (int64_t i = le; i < t->rank; i++)
        if (!push_dim(c, &c->out, t->dims[i]))
            return false;
    int64_t nin = d_prod(c, t->dims, t->rank), nout = d_prod(c, c->out.dims, c->out.rank);
    if (nin >= 0 && nout >= 0 && nin != nout)
        return fail(c, "%lld elements cannot become %lld", (long long)nin, (long long)nout);
    return true;
}

static bool rule_batch_flatten(rule_ctx *c)
{
    const byoc_tensor_type *t;
    if (!need(c, 0, &t))
        return false;
    if (t->rank < 1)
        return fail(c, "cannot flatten a scalar");
    c->out.dtype = t->dtype;
    c->out.rank = 2;
    c->out.dims[0] = t->dims[0];
    c->out.dims[1] = d_prod(c, t->dims + 1, t->rank - 1);
    return true;
}

/* TVM's TransposeRel: no axes reverses them. */
static bool rule_transpose(rule_ctx *c)
{
    const byoc_tensor_type *t;
    int64_t axes[MAX_LIST];
    int n;
    if (!need(c, 0, &t) || !attr_ints(c, "axes", axes, &n))
        return false;
    c->out = *t;
    if (n <= 0) {
        for (int i = 0; i < t->rank; i++)
            c->out.dims[i] = t->dims[t->rank - 1 - i];
        return true;
    }
    if (n != t->rank)
        return fail(c, "%d axes for rank %d", n, t->rank);
    bool used[BYOC_MAX_RANK] = {false};
    for (int i = 0; i < n; i++) {
        int a;
        if (!norm_axis(c, axes[i], t->rank, 0, &a))
            return false;
        if (used[a])
            return fail(c, "axis %d appears twice", a);
        used[a] = true;
        c->out.dims[i] = t->dims[a];
    }
    return true;
}

static bool rule_layout_transform(rule_ctx *c)
{
    const byoc_tensor_type *t;
    layout src, dst;
    int64_t p[26];
    if (!need(c, 0, &t) || !get_layout(c, "src_layout", NULL, &src)
        || !get_layout(c, "dst_layout", NULL, &dst))
        return false;
    if (!same_primal(&src, &dst))
        return fail(c, "cannot convert from %s to %s", src.text, dst.text);
    if (!to_primal(c, &src, t, input_name(c, 0), p))
        return false;
    from_primal(&dst, p, &c->out);
    c->out.dtype = t->dtype;
    return true;
}

static bool rule_expand_dims(rule_ctx *c)
{
    const byoc_tensor_type *t;
    int64_t axis, num;
    int a;
    if (!need(c, 0, &t) || !attr_int(c, "axis", 0, &axis) || !attr_int(c, "num_newaxis", 1, &num))
        return false;
    if (!attr(c, "axis"))
        return fail(c, "axis is not set");
    if (!norm_axis(c, axis, t->rank, 1, &a))
        return false;
    if (num < 0)
        return fail(c, "num_newaxis %lld is negative", (long long)num);
    if (num > BYOC_MAX_RANK - t->rank)
        return fail(c, "the result would have more than %d axes", BYOC_MAX_RANK);
    c->out.dtype = t->dtype;
    c->out.rank = 0;
    for (int i = 0; i <= t->rank; i++) {
        if (i == a)
            for (int64_t k = 0; k < num; k++)
                c->out.dims[c->out.rank++] = 1;
        if (i < t->rank)
            c->out.dims[c->out.rank++] = t->dims[i];
    }
    return true;
}

/* TVM's SqueezeRel: no axis removes every axis of size 1, which needs
 * every size known; listed axes of a known size must be 1. */
static bool rule_squeeze(rule_ctx *c)
{
    const byoc_tensor_type *t;
    int64_t axes[MAX_LIST];
    int n;
    bool drop[BYOC_MAX_RANK] = {false};
    if (!need(c, 0, &t) || !attr_ints(c, "axis", axes, &n))
        return false;
    for (int i = 0; n < 0 && i < t->rank; i++) {
        if (t->dims[i] < 0)
            return fail(c, "squeezing every unit axis needs axis %d known", i);
        drop[i] = t->dims[i] == 1;
    }
    for (int i = 0; i < n; i++) {
        int a;
        if (!norm_axis(c, axes[i], t->rank, 0, &a))
            return false;
        if (t->dims[a] >= 0 && t->dims[a] != 1)
            return fail(c, "axis %d has size %lld, not 1", a, (long long)t->dims[a]);
        drop[a] = true;
    }
    c->out.dtype = t->dtype;
    c->out.rank = 0;
    for (int i = 0; i < t->rank; i++)
        if (!drop[i])
            c->out.dims[c->out.rank++] = t->dims[i];
    return true;
}

/* TVM's ConcatenateRel: same rank; sizes add on `axis` and agree on the
 * others; the first field's dtype. */
static bool rule_concatenate(rule_ctx *c)
{
    const byoc_tensor_type *f;
    int64_t axis;
    int n, a;
    if (!need_tuple(c, 0, &f, &n) || !attr_int(c, "axis", 0, &axis))
        return false;
    if (f[0].rank == 0)
        return fail(c, "cannot concatenate scalars");
    if (!norm_axis(c, axis, f[0].rank, 0, &a))
        return false;
    c->out = f[0];
    for (int k = 1; k < n; k++) {
        if (f[k].rank != f[0].rank)
            return fail(c, "fields of ranks %d and %d", f[0].rank, f[k].rank);
        for (int i = 0; i < f[0].rank; i++)
            if (i == a)
                c->out.dims[i] = d_add(c, c->out.dims[i], f[k].dims[i]);
            else if (!d_unify(c->out.dims[i], f[k].dims[i], &c->out.dims[i]))
                return fail(c, "fields differ on axis %d, which is not the concatenation axis",
                            i);
    }
    return true;
}

/* TVM's StackRel: equal fields joined on a new axis. */
static bool rule_stack(rule_ctx *c)
{
    const byoc_tensor_type *f;
    int64_t axis;
    int n, a;
    if (!need_tuple(c, 0, &f, &n) || !attr_int(c, "axis", 0, &axis)
        || !norm_axis(c, axis, f[0].rank, 1, &a))
        return false;
    byoc_tensor_type merged = f[0];
    for (int k = 1; k < n; k++) {
        if (f[k].rank != f[0].rank)
            return fail(c, "fields of ranks %d and %d", f[0].rank, f[k].rank);
        for (int i = 0; i < f[0].rank; i++)
            if (!d_unify(merged.dims[i], f[k].dims[i], &merged.dims[i]))
                return fail(c, "fields differ on axis %d", i);
    }
    c->out.dtype = merged.dtype;
    c->out.rank = 0;
    for (int i = 0; i <= merged.rank; i++) {
        if (i == a && !push_dim(c, &c->out, n))
            return false;
        if (i < merged.rank && !push_dim(c, &c->out, merged.dims[i]))
            return false;
    }
    return true;
}

/* TVM's StridedSliceRel with topi's index canonicalisation: begin and end
 * clamp into the axis, "size" mode reads end as a length (negative: to the
 * end).  Without `axes`, missing trailing entries take the whole axis.  TVM
 * makes a sliced symbolic axis unknown; here a slice that takes the whole
 * axis keeps it. */
static bool rule_strided_slice(rule_ctx *c)
{
    const byoc_tensor_type *t;
    int64_t begin[MAX_LIST], end[MAX_LIST], strides[MAX_LIST], axes[MAX_LIST];
    int nb, ne, ns, na;
    if (!need(c, 0, &t) || !attr_ints(c, "begin", begin, &nb) || !attr_ints(c, "end", end, &ne)
        || !attr_ints(c, "strides", strides, &ns) || !attr_ints(c, "axes", axes, &na))
        return false;
    const char *mode = attr_str(c, "slice_mode", "end");
    bool size_mode = strcmp(mode, "size") == 0;
    if (!size_mode && strcmp(mode, "end") != 0)
        return fail(c, "slice_mode '%s' is not end or size", mode);
    if (nb < 0 || ne < 0)
        return fail(c, "begin and end must be set");
    if (ns < 0) {
        ns = 1;
        strides[0] = 1;
    }
    int n;
    if (na >= 0) {
        if (nb != na || ne != na || ns != na)
            return fail(c, "axes, begin, end and strides must have the same length");
        n = na;
    } else {
        if (nb > t->rank || ne > t->rank || ns > t->rank)
            return fail(c, "more slice values than the %d axes", t->rank);
        n = t->rank;
        for (int i = 0; i < n; i++) {
            axes[i] = i;
            if (i >= ns)
                strides[i] = 1;
            if (i >= nb)
                begin[i] = strides[i] > 0 ? 0 : INT64_MAX;
            if (i >= ne)
                end[i] = strides[i] < 0 ? 0 : INT64_MAX;
        }
    }
    c->out = *t;
    bool seen[BYOC_MAX_RANK] = {false};
    for (int i = 0; i < n; i++) {
        int a;
        if (!norm_axis(c, axes[i], t->rank, 0, &a))
            return false;
        if (seen[a])
            return fail(c, "axis %d is sliced twice", a);
        seen[a] = true;
        int64_t s = size_mode ? 1 : strides[i], b = begin[i], e = end[i];
        if (s == 0)
            return fail(c, "stride 0 on axis %d", a);
        if (size_mode)
            e = e < 0 ? INT64_MAX : (b > INT64_MAX - e ? INT64_MAX : b + e);
        int64_t dim = t->dims[a];
        if (dim < 0) {
            /* An end past INT32_MAX is how frontends say "to the end". */
            bool whole = s == 1 && b == 0 && e >= INT32_MAX;
            c->out.dims[a] = whole ? dim : UNK;
            continue;
        }
        /* topi's CanonicalizeIndex. */
        int64_t lo = s < 0 ? -1 : 0, hi = s < 0 ? dim - 1 : dim;
        if (b < 0)
            b = b < -dim ? lo : b + dim;
        if (e < 0)
            e = e < -dim ? lo : e + dim;
        b = b < lo ? lo : b > hi ? hi : b;
        e = e < lo ? lo : e > hi ? hi : e;
        if (s < 0 ? e > b : b > e)
            return fail(c, "begin %lld and end %lld are invalid for axis %d", (long long)begin[i],
                        (long long)end[i], a);
        uint64_t interval = (uint64_t)(s < 0 ? b - e : e - b);
        uint64_t step = s < 0 ? (uint64_t)0 - (uint64_t)s : (uint64_t)s;
        c->out.dims[a] = (int64_t)((interval + step - 1) / step);
    }
    return true;
}

/* TVM's SliceLikeRel: data cut to shape_like's sizes on `axes` (none: on
 * the leading axes both have). */
static bool rule_slice_like(rule_ctx *c)
{
    const byoc_tensor_type *t, *like;
    int64_t axes[MAX_LIST];
    int n;
    if (!need(c, 0, &t) || !need(c, 1, &like) || !attr_ints(c, "axes", axes, &n))
        return false;
    if (n == 0)
        return fail(c, "axes is empty");
    c->out = *t;
    int count = n < 0 ? (t->rank < like->rank ? t->rank : like->rank) : n;
    for (int i = 0; i < count; i++) {
        int a = i;
        if (n >= 0 && !norm_axis(c, axes[i], t->rank, 0, &a))
            return false;
        if (a >= like->rank)
            return fail(c, "axis %d is past shape_like's rank %d", a, like->rank);
        int64_t want = like->dims[a];
        if (want >= 0 && t->dims[a] >= 0 && want > t->dims[a])
            return fail(c, "axis %d: %lld exceeds the data's %lld", a, (long long)want,
                        (long long)t->dims[a]);
        c->out.dims[a] = want;
    }
    return true;
}

/* ---- indexing ----------------------------------------------------------- */

static bool int_indices(rule_ctx *c, const byoc_tensor_type *idx)
{
    char k = byoc_dtype_class(idx->dtype);
    if (k != 'i' && k != 'u' && k != 'v')
        return fail(c, "indices must be integers, not %s", byoc_dtype_name(idx->dtype));
    return true;
}

/* TVM's TakeRel: no axis takes from the flattened data. */
static bool rule_take(rule_ctx *c)
{
    const byoc_tensor_type *t, *idx;
    int64_t axis, bd;
    if (!need(c, 0, &t) || !need(c, 1, &idx) || !int_indices(c, idx)
        || !attr_int(c, "batch_dims", 0, &bd))
        return false;
    c->out.dtype = t->dtype;
    if (!attr(c, "axis")) {
        c->out.rank = idx->rank;
        memcpy(c->out.dims, idx->dims, sizeof c->out.dims);
        return true;
    }
    int a;
    if (!attr_int(c, "axis", 0, &axis) || !norm_axis(c, axis, t->rank, 0, &a))
        return false;
    if (bd < 0)
        bd += idx->rank;
    if (bd < 0 || bd > idx->rank || bd > a)
        return fail(c, "batch_dims %lld is out of range", (long long)bd);
    c->out.rank = 0;
    for (int i = 0; i < a; i++)
        if (!push_dim(c, &c->out, t->dims[i]))
            return false;
    for (int i = (int)bd; i < idx->rank; i++)
        if (!push_dim(c, &c->out, idx->dims[i]))
            return false;
    for (int i = a + 1; i < t->rank; i++)
        if (!push_dim(c, &c->out, t->dims[i]))
            return false;
    return true;
}

/* TVM's GatherRel: the indices' shape, the data's dtype. */
static bool rule_gather(rule_ctx *c)
{
    const byoc_tensor_type *t, *idx;
    int64_t axis;
    int a;
    if (!need(c, 0, &t) || !need(c, 1, &idx) || !int_indices(c, idx)
        || !attr_int(c, "axis", 0, &axis) || !norm_axis(c, axis, t->rank, 0, &a))
        return false;
    if (idx->rank != t->rank)
        return fail(c, "indices have rank %d, the data %d", idx->rank, t->rank);
    c->out = *idx;
    c->out.dtype = t->dtype;
    return true;
}

/* TVM's GatherNDRel; index_rank stands in for an unknown indices.shape[0]. */
static bool rule_gather_nd(rule_ctx *c)
{
    const byoc_tensor_type *t, *idx;
    int64_t bd, m;
    if (!need(c, 0, &t) || !need(c, 1, &idx) || !int_indices(c, idx)
        || !attr_int(c, "batch_dims", 0, &bd) || !attr_int(c, "index_rank", -1, &m))
        return false;
    if (idx->rank < 1)
        return fail(c, "indices must have rank 1 or more");
    if (idx->dims[0] >= 0)
        m = idx->dims[0];
    if (m < 0)
        return fail(c, "the index depth (indices axis 0) is not known");
    if (bd < 0 || m > t->rank || bd > t->rank - m)
        return fail(c, "%lld indices and %lld batch axes exceed rank %d", (long long)m,
                    (long long)bd, t->rank);
    c->out.dtype = t->dtype;
    c->out.rank = 0;
    for (int i = 1; i < idx->rank; i++)
        if (!push_dim(c, &c->out, idx->dims[i]))
            return false;
    for (int64_t i = m + bd; i < t->rank; i++)
        if (!push_dim(c, &c->out, t->dims[i]))
            return false;
    return true;
}

static bool rule_one_hot(rule_ctx *c)
{
    const byoc_tensor_type *idx, *on = typed_input(c, 1);
    int64_t depth, axis;
    int a;
    if (!need(c, 0, &idx) || !attr_int(c, "depth", 1, &depth) || !attr_int(c, "axis", -1, &axis)
        || !norm_axis(c, axis, idx->rank, 1, &a))
        return false;
    if (depth < 1)
        return fail(c, "depth %lld is not positive", (long long)depth);
    c->out.rank = 0;
    for (int i = 0; i <= idx->rank; i++) {
        if (i == a && !push_dim(c, &c->out, depth))
            return false;
        if (i < idx->rank && !push_dim(c, &c->out, idx->dims[i]))
            return false;
    }
    /* An unset dtype is on_value's, which is what the result holds. */
    byoc_dtype dt = attr_dtype(c, "dtype");
    c->out.dtype = dt != BYOC_DT_VOID ? dt : on ? on->dtype : BYOC_DT_VOID;
    return true;
}

/* ---- repetition --------------------------------------------------------- */

static bool shape_attr(rule_ctx *c, byoc_tensor_type *out)
{
    int64_t dims[MAX_LIST];
    int n;
    if (!attr_ints(c, "shape", dims, &n))
        return false;
    if (n < 0)
        return fail(c, "shape is not set");
    out->rank = 0;
    for (int i = 0; i < n; i++) {
        if (dims[i] < 0)
            return fail(c, "shape has the negative size %lld", (long long)dims[i]);
        if (!push_dim(c, out, dims[i]))
            return false;
    }
    return true;
}

static bool rule_broadcast_to(rule_ctx *c)
{
    const byoc_tensor_type *t;
    if (!need(c, 0, &t) || !shape_attr(c, &c->out))
        return false;
    c->out.dtype = t->dtype;
    return true;
}

/* TVM's TileRel: ranks aligned on the right, the shorter padded with 1s. */
static bool rule_tile(rule_ctx *c)
{
    const byoc_tensor_type *t;
    int64_t reps[MAX_LIST];
    int n;
    if (!need(c, 0, &t) || !attr_ints(c, "reps", reps, &n))
        return false;
    if (n < 0)
        return fail(c, "reps is not set");
    int rank = t->rank > n ? t->rank : n;
    if (rank > BYOC_MAX_RANK)
        return fail(c, "the result would have more than %d axes", BYOC_MAX_RANK);
    c->out.dtype = t->dtype;
    c->out.rank = rank;
    for (int i = 0; i < rank; i++) {
        int di = i - (rank - t->rank), ri = i - (rank - n);
        int64_t d = di >= 0 ? t->dims[di] : 1, r = ri >= 0 ? reps[ri] : 1;
        if (r < 1)
            return fail(c, "reps %lld is not positive", (long long)r);
        c->out.dims[i] = d_mul(c, d, r);
    }
    return true;
}

/* TVM's RepeatRel; no axis repeats the flattened data (NumPy's repeat). */
static bool rule_repeat(rule_ctx *c)
{
    const byoc_tensor_type *t;
    int64_t repeats, axis;
    if (!need(c, 0, &t) || !attr_int(c, "repeats", 1, &repeats))
        return false;
    if (repeats < 1)
        return fail(c, "repeats %lld is not positive", (long long)repeats);
    c->out = *t;
    if (!attr(c, "axis")) {
        c->out.rank = 1;
        c->out.dims[0] = d_mul(c, d_prod(c, t->dims, t->rank), repeats);
        return true;
    }
    int a;
    if (!attr_int(c, "axis", 0, &axis) || !norm_axis(c, axis, t->rank, 0, &a))
        return false;
    c->out.dims[a] = d_mul(c, t->dims[a], repeats);
    return true;
}

/* ---- creation and queries ----------------------------------------------- */

/* full, ones and zeros: the dtype attribute, else fill_value's, else
 * float32. */
static bool rule_full(rule_ctx *c)
{
    const byoc_tensor_type *fill = typed_input(c, 0);
    if (!shape_attr(c, &c->out))
        return false;
    byoc_dtype dt = attr_dtype(c, "dtype");
    if (dt == BYOC_DT_VOID && fill)
        dt = fill->dtype;
    c->out.dtype = dt != BYOC_DT_VOID ? dt : BYOC_DT_FLOAT32;
    return true;
}

/* A scalar constant input as a number. */
static bool const_number(const rule_ctx *c, int i, double *out)
{
    if (i >= c->n->nargs)
        return false;
    const byoc_value *v = c->g->nodes[c->n->args[i]].value;
    if (v && v->kind == BYOC_V_LIST && v->u.list.n == 1)
        v = &v->u.list.items[0];
    if (!v)
        return false;
    if (v->kind == BYOC_V_INT)
        *out = (double)v->u.i;
    else if (v->kind == BYOC_V_FLOAT)
        *out = v->u.f;
    else
        return false;
    return true;
}

/* arange: ceil((stop - start) / step) elements when all three are known
 * constants; an unknown length otherwise. */
static bool rule_arange(rule_ctx *c)
{
    double start, stop, step;
    c->out.rank = 1;
    c->out.dims[0] = UNK;
    c->out.dtype = attr_dtype(c, "dtype");
    if (c->out.dtype == BYOC_DT_VOID)
        c->out.dtype = BYOC_DT_FLOAT32;
    if (const_number(c, 0, &start) && const_number(c, 1, &stop) && const_number(c, 2, &step)) {
        if (step == 0)
            return fail(c, "step is 0");
        double n = ceil((stop - start) / step);
        if (!(n < 9e18))
            return fail(c, "the range is too long");
        c->out.dims[0] = n > 0 ? (int64_t)n : 0;
    }
    return true;
}

/* TVM's ShapeOfRel: [rank], and a scalar for a scalar. */
static bool rule_shape_of(rule_ctx *c)
{
    const byoc_tensor_type *t;
    if (!need(c, 0, &t))
        return false;
    c->out.rank = t->rank > 0;
    c->out.dims[0] = t->rank;
    byoc_dtype dt = attr_dtype(c, "dtype");
    c->out.dtype = dt != BYOC_DT_VOID ? dt : BYOC_DT_INT32;
    return true;
}

static bool rule_ndarray_size(rule_ctx *c)
{
    const byoc_tensor_type *t;
    if (!need(c, 0, &t))
        return false;
    c->out.rank = 0;
    byoc_dtype dt = attr_dtype(c, "dtype");
    c->out.dtype = dt != BYOC_DT_VOID ? dt : BYOC_DT_INT32;
    return true;
}

/* cumsum and cumprod: no axis scans the flattened data. */
static bool rule_scan(rule_ctx *c)
{
    const byoc_tensor_type *t;
    if (!need(c, 0, &t))
        return false;
    c->out = *t;
    if (!attr(c, "axis")) {
        c->out.rank = 1;
        c->out.dims[0] = d_prod(c, t->dims, t->rank);
    } else {
        int64_t axis;
        int a;
        if (!attr_int(c, "axis", 0, &axis) || !norm_axis(c, axis, t->rank, 0, &a))
            return false;
    }
    byoc_dtype dt = attr_dtype(c, "dtype");
    if (dt != BYOC_DT_VOID)
        c->out.dtype = dt;
    return true;
}

static bool rule_argsort(rule_ctx *c)
{
    const byoc_tensor_type *t;
    int64_t axis;
    int a;
    if (!need(c, 0, &t) || !attr_int(c, "axis", -1, &axis) || !norm_axis(c, axis, t->rank, 0, &a))
        return false;
    c->out = *t;
    byoc_dtype dt = attr_dtype(c, "dtype");
    c->out.dtype = dt != BYOC_DT_VOID ? dt : BYOC_DT_INT32;
    return true;
}

/* ---- the rule table ----------------------------------------------------- */

typedef bool (*shape_fn)(rule_ctx *c);

typedef struct shape_rule {
    const char *name;
    shape_fn fn;
} shape_rule;

/* Sorted by name for bsearch; one entry per rule relay.byoc names. */
static const shape_rule shape_rules[] = {
    {"adaptive_pool", rule_adaptive_pool},
    {"arange", rule_arange},
    {"arg_reduce", rule_arg_reduce},
    {"argsort", rule_argsort},
    {"batch_flatten", rule_batch_flatten},
    {"batch_matmul", rule_batch_matmul},
    {"batch_norm", rule_batch_norm},
    {"batch_to_space_nd", rule_batch_to_space_nd},
    {"broadcast", rule_broadcast},
    {"broadcast_bool", rule_broadcast_bool},
    {"broadcast_to", rule_broadcast_to},
    {"cast", rule_cast},
    {"cast_like", rule_cast_like},
    {"concatenate", rule_concatenate},
    {"conv", rule_conv},
    {"conv2d_backward_weight", rule_conv2d_backward_weight},
    {"conv_transpose", rule_conv_transpose},
    {"crop_and_resize", rule_crop_and_resize},
    {"dense", rule_dense},
    {"depth_to_space", rule_depth_to_space},
    {"dropout", rule_dropout},
    {"expand_dims", rule_expand_dims},
    {"full", rule_full},
    {"gather", rule_gather},
    {"gather_nd", rule_gather_nd},
    {"global_pool", rule_global_pool},
    {"layout_transform", rule_layout_transform},
    {"matmul", rule_matmul},
    {"ndarray_size", rule_ndarray_size},
    {"one_hot", rule_one_hot},
    {"pad", rule_pad},
    {"pool", rule_pool},
    {"quantize", rule_quantize},
    {"reduce", rule_reduce},
    {"repeat", rule_repeat},
    {"reshape", rule_reshape},
    {"reshape_like", rule_reshape_like},
    {"resize", rule_resize},
    {"reverse_reshape", rule_reverse_reshape},
    {"same", rule_same},
    {"same_bool", rule_same_bool},
    {"scan", rule_scan},
    {"select", rule_select},
    {"shape_of", rule_shape_of},
    {"slice_like", rule_slice_like},
    {"space_to_batch_nd", rule_space_to_batch_nd},
    {"space_to_depth", rule_space_to_depth},
    {"split", rule_split},
    {"squeeze", rule_squeeze},
    {"stack", rule_stack},
    {"strided_slice", rule_strided_slice},
    {"take", rule_take},
    {"tile", rule_tile},
    {"topk", rule_topk},
    {"transpose", rule_transpose},
    {"upsampling", rule_upsampling},
};

static int by_name(const void *key, const void *entry)
{
    return strcmp((const char *)key, *(const char *const *)entry);
}

static shape_fn find_shape_rule(const char *name)
{
    if (!name)
        return NULL;
    const shape_rule *r = bsearch(name, shape_rules, sizeof shape_rules / sizeof shape_rules[0],
                                  sizeof shape_rules[0], by_name);
    return r ? r->fn : NULL;
}

/* ---- the walk ----------------------------------------------------------- */

static const byoc_tensor_type unknown_type = {BYOC_DT_VOID, -1, {0}};

/* Dims past the rank zeroed, so that equal types compare equal bytewise. */
static void clean(byoc_tensor_type *t)
{
    for (int i = t->rank < 0 ? 0 : t->rank; i < BYOC_MAX_RANK; i++)
        t->dims[i] = 0;
}

/* A declared type and an inferred one agree unless both know something and
 * it differs: a dtype, a rank, or a size that both give as a number.  The
 * merge keeps the most each knows (number over symbol over unknown). */
static bool merge(const byoc_tensor_type *decl, const byoc_tensor_type *inf,
                  byoc_tensor_type *out)
{
    if (decl->dtype != BYOC_DT_VOID && inf->dtype != BYOC_DT_VOID && decl->dtype != inf->dtype)
        return false;
    if (decl->rank >= 0 && inf->rank >= 0 && decl->rank != inf->rank)
        return false;
    *out = inf->rank >= 0 ? *inf : *decl;
    out->dtype = inf->dtype != BYOC_DT_VOID ? inf->dtype : decl->dtype;
    if (decl->rank >= 0 && inf->rank >= 0)
        for (int i = 0; i < inf->rank; i++) {
            int64_t a = decl->dims[i], b = inf->dims[i];
            if (a >= 0 && b >= 0 && a != b)
                return false;
            out->dims[i] = b >= 0 ? b : a >= 0 ? a : b <= -2 ? b : a;
        }
    clean(out);
    return true;
}

static bool has_type(const bx_node *n)
{
    return n->nfields >= 0 || n->type.rank >= 0 || n->type.dtype != BYOC_DT_VOID;
}

/* A node's note waits on the node (n->note) until the walk that typed it
 * adds it to the graph's: at once for byoc_graph_infer_types, after the
 * last node for a reader that types as it builds, so that the notes come
 * in node order after the reader's own, however the typing interleaved
 * with building. */
static void set_untyped(byoc_graph *g, bx_node *n, const char *reason, bool note)
{
    n->untyped = bx_arena_strdup(&g->arena, reason);
    if (note)
        n->note = n->untyped;
}

/* The inferred result agrees with the declared one (or there is none):
 * store the merge.  Otherwise fill err. */
static bool store_inferred(byoc_graph *g, int id, rule_ctx *c, byoc_error *err)
{
    bx_node *n = &g->nodes[id];
    bool declared = has_type(n), ok = true;
    if (c->nout < 0) {
        byoc_tensor_type merged;
        clean(&c->out);
        ok = n->nfields < 0 && merge(declared ? &n->type : &unknown_type, &c->out, &merged);
        if (ok) {
            n->type = merged;
            return true;
        }
    } else {
        for (int i = 0; i < c->nout; i++)
            clean(&c->outs[i]);
        /* Rules make tuples of tensors: a declared nested tuple differs. */
        ok = !declared || (n->nfields == c->nout && !n->tuple->sub);
        for (int i = 0; ok && declared && i < c->nout; i++)
            ok = merge(&n->fields[i], &c->outs[i], &c->outs[i]);
        if (ok) {
            byoc_tuple_type *t = BX_NEW(&g->arena, byoc_tuple_type);
            *t = (byoc_tuple_type){.n = c->nout, .fields = c->outs, .sub = NULL, .depth = 1};
            bx_node_set_tuple(n, t);
            return true;
        }
    }
    bx_strbuf want = {0}, got = {0};
    print_node_type(&want, g, n);
    if (c->nout < 0) {
        print_type(&got, g, &c->out);
    } else {
        byoc_tuple_type shown = {.n = c->nout, .fields = c->outs, .sub = NULL, .depth = 1};
        print_tuple(&got, g, &shown);
    }
    /* A node without a name is called what the Relay writer calls it: %N,
     * N counting the nodes that are not inputs or constants. */
    int local = 0;
    for (int i = 0; i < id; i++)
        local += g->nodes[i].kind != BYOC_N_INPUT && g->nodes[i].kind != BYOC_N_CONST;
    char num[24];
    snprintf(num, sizeof num, "%%%d", local);
    bx_error_set(err, g->source, n->line, n->col,
                 "%s = %s: type annotation %s differs from the inferred %s",
                 n->name ? n->name : num, n->opname, want.s, got.s);
    free(want.s);
    free(got.s);
    return false;
}

static int infer_call(byoc_graph *g, int id, byoc_error *err)
{
    bx_node *n = &g->nodes[id];
    if (!n->op) {
        if (n->nfields < 0 && n->type.rank < 0) {
            bx_strbuf r = {0};
            bx_sb_printf(&r, "opaque op '%s'", n->opname);
            set_untyped(g, n, r.s, true);
            free(r.s);
        }
        return 0;
    }
    rule_ctx c = {.g = g, .n = n, .out = unknown_type, .nout = -1};
    c.out.rank = 0;
    shape_fn fn = find_shape_rule(n->op->shape_rule);
    bool ok = fn && fn(&c);
    if (ok && c.overflow)
        ok = fail(&c, "a size overflows 64 bits");
    if (ok)
        return store_inferred(g, id, &c, err) ? 0 : -1;
    bx_strbuf r = {0};
    if (!fn) {
        bx_sb_printf(&r, "%s: no shape rule '%s'", n->opname,
                  n->op->shape_rule ? n->op->shape_rule : "");
    } else {
        bx_sb_printf(&r, "%s: cannot infer from %s", n->opname, n->nargs ? "inputs " : "no inputs");
        for (int i = 0; i < n->nargs; i++) {
            if (i)
                bx_sb_printf(&r, ", ");
            print_node_type(&r, g, &g->nodes[n->args[i]]);
        }
        bx_sb_printf(&r, ": %s", c.why);
    }
    /* A type the source declared outlives a rule that cannot check it. */
    if (has_type(n)) {
        n->note = bx_arena_printf(&g->arena, "%s (kept the declared type)", r.s);
    } else {
        n->type = unknown_type;
        set_untyped(g, n, r.s, true);
    }
    free(r.s);
    return 0;
}

static void infer_tuple(byoc_graph *g, bx_node *n)
{
    byoc_tuple_type *t = bx_tuple_new(g, n->nargs);
    byoc_tensor_type *f = (byoc_tensor_type *)t->fields;
    int missing = -1;
    for (int i = 0; i < n->nargs; i++) {
        const bx_node *a = &g->nodes[n->args[i]];
        if (a->tuple)
            bx_tuple_set_sub(g, t, i, a->tuple);
        else
            f[i] = a->nfields < 0 ? a->type : unknown_type;
        if ((a->tuple ? a->untyped != NULL : f[i].rank < 0) && missing < 0)
            missing = i;
    }
    /* The graph refuses tuples nesting deeper when they are built; a field
     * typed since then as a deeper tuple is left unknown here. */
    const char *why = NULL;
    if (!bx_tuple_finish(t)) {
        for (int i = 0; i < t->n; i++)
            if (t->sub[i] && t->sub[i]->depth >= BYOC_MAX_TUPLE_DEPTH)
                ((const byoc_tuple_type **)t->sub)[i] = NULL;
        bx_tuple_finish(t);
        why = "tuples nest too deep";
    }
    bx_node_set_tuple(n, t);
    if (why) {
        set_untyped(g, n, why, false);
    } else if (missing >= 0) {
        char buf[64];
        snprintf(buf, sizeof buf, "tuple field %d has no type", missing);
        set_untyped(g, n, buf, false);
    }
}

static void infer_proj(byoc_graph *g, bx_node *n)
{
    const bx_node *t = &g->nodes[n->args[0]];
    char why[96];
    why[0] = 0;
    if (t->nfields < 0)
        snprintf(why, sizeof why, t->type.rank >= 0 ? "projection .%d of a tensor"
                                                    : "projection .%d of a value with no type",
                 n->proj_index);
    else if (n->proj_index >= t->nfields)
        snprintf(why, sizeof why, "projection .%d of a tuple of %d fields", n->proj_index,
                 t->nfields);
    else if (t->tuple->sub && t->tuple->sub[n->proj_index]) {
        bx_node_set_tuple(n, t->tuple->sub[n->proj_index]);
        return;
    } else if (t->fields[n->proj_index].rank < 0)
        snprintf(why, sizeof why, "field .%d of the tuple has no type", n->proj_index);
    if (!why[0])
        bx_node_set_tensor(n, &t->fields[n->proj_index]);
    else if (!has_type(n))
        set_untyped(g, n, why, false);
}

/* Type node i from its arguments, which are typed; its note, if any, is
 * left in n->note. */
static int infer_node(byoc_graph *g, int i, byoc_error *err)
{
    bx_node *n = &g->nodes[i];
    g->infer_visits++;
    n->untyped = NULL;
    n->note = NULL;
    switch (n->kind) {
    case BYOC_N_INPUT:
    case BYOC_N_CONST:
        if (n->type.rank < 0) {
            bx_strbuf r = {0};
            if (n->kind == BYOC_N_INPUT)
                bx_sb_printf(&r, "input '%s' has no type", n->name ? n->name : "");
            else
                bx_sb_printf(&r, "constant %d has no type", i);
            set_untyped(g, n, r.s, true);
            free(r.s);
        }
        return 0;
    case BYOC_N_TUPLE:
        infer_tuple(g, n);
        return 0;
    case BYOC_N_PROJ:
        infer_proj(g, n);
        return 0;
    case BYOC_N_CALL:
        return infer_call(g, i, err);
    }
    return 0;
}

static int byoc_graph_infer_types_unguarded(byoc_graph *g, byoc_error *err)
{
    if (!g) {
        bx_error_set(err, NULL, 0, 0, "no graph");
        return -1;
    }
    g->split_fields = 0;        /* every node is typed again, counted again */
    for (int i = 0; i < g->n; i++) {
        if (infer_node(g, i, err) < 0)
            return -1;
        if (g->nodes[i].note)
            bx_graph_note(g, "%s", g->nodes[i].note);
        g->nodes[i].note = NULL;
    }
    g->typed = g->n;
    return 0;
}

int byoc_graph_infer_types(byoc_graph *g, byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, -1);
    int result = byoc_graph_infer_types_unguarded(g, err);
    bx_oom_close(&guard);
    return result;
}

int bx_graph_infer_new(byoc_graph *g, byoc_error *err)
{
    for (; g->typed < g->n; g->typed++)
        if (infer_node(g, g->typed, err) < 0)
            return -1;
    return 0;
}

void bx_graph_infer_notes(byoc_graph *g)
{
    for (int i = 0; i < g->n; i++)
        if (g->nodes[i].note) {
            bx_graph_note(g, "%s", g->nodes[i].note);
            g->nodes[i].note = NULL;
        }
}

long byoc_graph_infer_visits(const byoc_graph *g)
{
    return g ? g->infer_visits : 0;
}

const char *byoc_node_untyped_reason(const byoc_graph *g, int node)
{
    return g && node >= 0 && node < g->n ? g->nodes[node].untyped : NULL;
}

/* ---- flops -------------------------------------------------------------- */

typedef struct flops_ctx {
    const byoc_graph *g;
    const bx_node *n;
} flops_ctx;

/* Elements of a type; -1 unless every size is a number. */
static double numel(const byoc_tensor_type *t)
{
    if (!t || t->rank < 0)
        return -1;
    double p = 1;
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0)
            return -1;
        p *= (double)t->dims[i];
    }
    return p;
}

static const byoc_tensor_type *f_input(const flops_ctx *f, int i)
{
    if (i >= f->n->nargs)
        return NULL;
    const bx_node *a = &f->g->nodes[f->n->args[i]];
    return a->nfields < 0 && a->type.rank >= 0 ? &a->type : NULL;
}

/* The result, or its first field for tuple results. */
static const byoc_tensor_type *f_output(const flops_ctx *f)
{
    const bx_node *n = f->n;
    const byoc_tensor_type *t = n->nfields < 0 ? &n->type : n->nfields > 0 ? &n->fields[0] : NULL;
    return t && t->rank >= 0 ? t : NULL;
}

static const byoc_value *f_attr(const flops_ctx *f, const char *name)
{
    int i = byoc_op_attr_index(f->n->op, name);
    if (i < 0 || f->n->attrs[i].kind == BYOC_V_NONE)
        return NULL;
    return &f->n->attrs[i];
}

static int64_t f_int(const flops_ctx *f, const char *name, int64_t def)
{
    const byoc_value *v = f_attr(f, name);
    int64_t x;
    return v && value_int(v, &x) ? x : def;
}

static const char *f_str(const flops_ctx *f, const char *name, const char *def)
{
    const byoc_value *v = f_attr(f, name);
    return v && v->kind == BYOC_V_STRING && v->u.s ? v->u.s : def;
}

/* `n` times the elements of t, or -1 when either is not known. */
static double times(double n, const byoc_tensor_type *t)
{
    double e = numel(t);
    return e < 0 || n < 0 ? -1 : n * e;
}

/* The size of primal axis `axis` of t laid out as the attribute `attr`
 * says (fallback when ""); -1 when not known. */
static double primal_size(const flops_ctx *f, const char *attr, const char *fallback,
                          const byoc_tensor_type *t, char axis)
{
    layout l;
    const char *s = f_str(f, attr, "");
    if (!*s && fallback)
        s = fallback;
    if (!t || !parse_layout(s, &l) || l.n != t->rank)
        return -1;
    int i = layout_find(&l, axis), j = layout_find(&l, (char)(axis - 'A' + 'a'));
    if (i < 0 || t->dims[i] < 0)
        return -1;
    return (double)t->dims[i] * (j >= 0 ? (double)l.factor[j] : 1.0);
}

/* Product of the spatial sizes of t in the layout attribute `attr`, or of
 * the int list attribute `list` when t is not known. */
static double spatial_product(const flops_ctx *f, const char *attr, const char *fallback,
                              const byoc_tensor_type *t, const char *list)
{
    layout l;
    const char *s = f_str(f, attr, "");
    if (!*s && fallback)
        s = fallback;
    if (!parse_layout(s, &l))
        return -1;
    char sp[3];
    int nsp = spatial_axes(&l, sp);
    double p = 1;
    const byoc_value *v = list ? f_attr(f, list) : NULL;
    if (!t && v && v->kind == BYOC_V_LIST && (int)v->u.list.n == nsp) {
        for (int i = 0; i < nsp; i++) {
            int64_t k;
            if (!value_int(&v->u.list.items[i], &k) || k < 0)
                return -1;
            p *= (double)k;
        }
        return p;
    }
    for (int i = 0; i < nsp; i++) {
        double d = primal_size(f, attr, fallback, t, sp[i]);
        if (d < 0)
            return -1;
        p *= d;
    }
    return p;
}

static double flops_none(const flops_ctx *f) { return 0; }
static double flops_elemwise(const flops_ctx *f) { return numel(f_output(f)); }
static double flops_reduce(const flops_ctx *f) { return numel(f_input(f, 0)); }
static double flops_softmax(const flops_ctx *f) { return times(4, f_input(f, 0)); }
static double flops_batch_norm(const flops_ctx *f) { return times(2, f_input(f, 0)); }
static double flops_norm(const flops_ctx *f) { return times(7, f_input(f, 0)); }

static double flops_lrn(const flops_ctx *f)
{
    return times(2.0 * (double)f_int(f, "size", 5) + 4, f_input(f, 0));
}

/* 2 * numel(out) * (C_in / groups) * product(kernel). */
static double flops_conv(const flops_ctx *f)
{
    double groups = (double)f_int(f, "groups", 1);
    double cin = primal_size(f, "data_layout", NULL, f_input(f, 0), 'C');
    double k = spatial_product(f, "kernel_layout", NULL, f_input(f, 1), "kernel_size");
    if (cin < 0 || k < 0 || groups < 1)
        return -1;
    return times(2 * (cin / groups) * k, f_output(f));
}

/* 2 * numel(input 0) * (C_out / groups) * product(kernel). */
static double flops_conv_transpose(const flops_ctx *f)
{
    double groups = (double)f_int(f, "groups", 1);
    const char *dl = f_str(f, "data_layout", "NCHW");
    double cout = primal_size(f, "out_layout", dl, f_output(f), 'C');
    double k = spatial_product(f, "kernel_layout", NULL, f_input(f, 1), "kernel_size");
    if (cout < 0 || k < 0 || groups < 1)
        return -1;
    return times(2 * (cout / groups) * k, f_input(f, 0));
}

/* 2 * numel(weight gradient) * N * product(grad's spatial sizes); grad is
 * laid out as data_layout says (see rule_conv2d_backward_weight). */
static double flops_conv_backward_weight(const flops_ctx *f)
{
    const byoc_tensor_type *grad = f_input(f, 0);
    double n = primal_size(f, "data_layout", NULL, grad, 'N');
    double sp = spatial_product(f, "data_layout", NULL, grad, NULL);
    if (n < 0 || sp < 0)
        return -1;
    return times(2 * n * sp, f_output(f));
}

/* 2 * numel(out) * K, K being the reduced axis of input 0 as the op's
 * shape rule reads it. */
static double flops_matmul(const flops_ctx *f)
{
    const byoc_tensor_type *a = f_input(f, 0);
    const char *rule = f->n->op->shape_rule ? f->n->op->shape_rule : "";
    if (!a || a->rank < 1)
        return -1;
    bool ta = false;
    const byoc_value *v = f_attr(f, "transpose_a");
    if (v && v->kind == BYOC_V_BOOL)
        ta = v->u.b;
    int at = a->rank - 1;
    if (strcmp(rule, "batch_matmul") == 0)
        at = ta ? 1 : 2;
    else if (strcmp(rule, "matmul") == 0 && ta)
        at = a->rank - 2;
    if (at < 0 || at >= a->rank || a->dims[at] < 0)
        return -1;
    return times(2 * (double)a->dims[at], f_output(f));
}

/* numel(out) * product(pool_size). */
static double flops_pool(const flops_ctx *f)
{
    layout l;
    const byoc_value *v = f_attr(f, "pool_size");
    if (!parse_layout(f_str(f, "layout", ""), &l) || !v || v->kind != BYOC_V_LIST)
        return -1;
    char sp[3];
    int nsp = spatial_axes(&l, sp);
    double k = 1;
    for (int i = 0; i < nsp; i++) {
        int64_t x;
        size_t at = v->u.list.n == 1 ? 0 : (size_t)i;
        if (at >= v->u.list.n || !value_int(&v->u.list.items[at], &x) || x < 0)
            return -1;
        k *= (double)x;
    }
    return times(k, f_output(f));
}

/* Per output element: 1 for nearest, 3 * 2^d for linear, 3 * 4^d for
 * cubic interpolation over d spatial axes. */
static double flops_resize(const flops_ctx *f)
{
    layout l;
    if (!parse_layout(f_str(f, "layout", ""), &l))
        return -1;
    char sp[3];
    int d = spatial_axes(&l, sp);
    const char *m = f_str(f, "method", "");
    double per;
    if (strstr(m, "nearest"))
        per = 1;
    else if (strstr(m, "linear"))
        per = 3 * pow(2, d);
    else if (strstr(m, "cubic"))
        per = 3 * pow(4, d);
    else
        return -1;
    return times(per, f_output(f));
}

/* numel * log2(extent of `axis`). */
static double flops_sort(const flops_ctx *f)
{
    const byoc_tensor_type *t = f_input(f, 0);
    if (!t)
        return -1;
    int64_t axis = f_int(f, "axis", -1);
    if (axis < 0)
        axis += t->rank;
    if (axis < 0 || axis >= t->rank || t->dims[axis] < 0)
        return -1;
    return times(t->dims[axis] > 0 ? log2((double)t->dims[axis]) : 0, t);
}

typedef double (*flops_fn)(const flops_ctx *f);

typedef struct flops_rule {
    const char *name;
    flops_fn fn;
} flops_rule;

static const flops_rule flops_rules[] = {
    {"batch_norm", flops_batch_norm},
    {"conv", flops_conv},
    {"conv_backward_weight", flops_conv_backward_weight},
    {"conv_transpose", flops_conv_transpose},
    {"elemwise", flops_elemwise},
    {"lrn", flops_lrn},
    {"matmul", flops_matmul},
    {"none", flops_none},
    {"norm", flops_norm},
    {"pool", flops_pool},
    {"reduce", flops_reduce},
    {"resize", flops_resize},
    {"softmax", flops_softmax},
    {"sort", flops_sort},
};

double byoc_node_flops(const byoc_graph *g, int node)
{
    if (!g || node < 0 || node >= g->n || g->nodes[node].kind != BYOC_N_CALL)
        return 0;
    const bx_node *n = &g->nodes[node];
    if (!n->op || !n->op->flops_rule)
        return -1;
    const flops_rule *r = bsearch(n->op->flops_rule, flops_rules,
                                  sizeof flops_rules / sizeof flops_rules[0],
                                  sizeof flops_rules[0], by_name);
    if (!r)
        return -1;
    flops_ctx f = {g, n};
    return r->fn(&f);
}
