/* Writing a graph call - a Relay op - as ONNX nodes (onnx_build.h).
 *
 * The split writer uses the model's own ONNX nodes where it can; this is
 * for the calls it cannot: those the reader made from one ONNX node that
 * landed in several partitions (Conv with a bias is nn.conv2d and
 * nn.bias_add), and every call of a Relay model.  Each emitter writes
 * ONNX that computes what the Relay op computes - TVM's semantics, with
 * its defaults - at the opset being written (b->opset, 9 and later), and
 * says which op and which attribute value when there is no such form.
 *
 * What the emitters know of a call: its attributes (the graph gives each
 * its default), the types of its arguments (a tuple argument's fields one
 * by one, in the order of in[]), the call's own type, and the contents of
 * small constant arguments (scalars and short lists: zero points, pad
 * values, trilu's k).  Where a Relay attribute has several spellings of
 * one thing (reshape's special codes, split's indices), the call's known
 * output type gives the concrete form.
 *
 * Where the ONNX form differs from TVM's own lowering in rounding only,
 * the comment at the emitter says so (qnn.requantize is dequantize and
 * quantize in float32, as an ONNX QDQ model computes it; TVM uses int64
 * fixed point). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errfmt.h"
#include "writers/onnx_build.h"

#define MAXL 64 /* list attributes longer than this are not expected */

typedef struct ex {
    bx_ob *b;
    const byoc_graph *g;
    int node;
    const char *op;
    int opset;
    const char *const *in;
    int nin;
    const char *const *out; /* nout entries; NULL or "" where not wanted */
    int nout;
    int nfields; /* of the call's value: 1 for a tensor */
    byoc_error *err;
    const byoc_tensor_type **it; /* nin: the flattened arguments' types */
    int *inode;                  /* nin: the argument's node, -1 for a tuple's field */
    int nargs;
    int *afirst, *acount;        /* per graph argument: its entries of in[] */
    const byoc_tensor_type *ot0; /* the call's type (field 0 of a tuple) */
    const char *onnx;            /* the table's ONNX op, for the simple maps */
    int since;                   /* ... and the opset it needs */
} ex;

typedef int (*emit_fn)(ex *e);

/* ---- errors ------------------------------------------------------------- */

static int fail(ex *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(ex *e, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    bx_error_set(e->err, NULL, 0, 0, "'%s' %s", e->op, msg);
    return -1;
}

/* The op needs ONNX's `what` from opset v. */
static int need(ex *e, int v, const char *what)
{
    if (e->opset >= v)
        return 0;
    return fail(e, "needs ONNX %s, which opset %d lacks (it has it from opset %d)", what, e->opset,
                v);
}

#define TRY(x)                                                                                     \
    do {                                                                                           \
        if ((x) < 0)                                                                               \
            return -1;                                                                             \
    } while (0)

/* ---- attributes ----------------------------------------------------------- */

static const byoc_value *A(ex *e, const char *name)
{
    const byoc_value *v = byoc_node_attr(e->g, e->node, name);
    return v && v->kind != BYOC_V_NONE ? v : NULL;
}

static bool v_int(const byoc_value *v, int64_t *out)
{
    if (!v)
        return false;
    switch (v->kind) {
    case BYOC_V_INT: *out = v->u.i; return true;
    case BYOC_V_BOOL: *out = v->u.b; return true;
    case BYOC_V_FLOAT:
        if (v->u.f != floor(v->u.f) || fabs(v->u.f) > 9e18)
            return false;
        *out = (int64_t)v->u.f;
        return true;
    default: return false;
    }
}

static bool v_float(const byoc_value *v, double *out)
{
    if (!v)
        return false;
    switch (v->kind) {
    case BYOC_V_INT: *out = (double)v->u.i; return true;
    case BYOC_V_BOOL: *out = v->u.b; return true;
    case BYOC_V_FLOAT: *out = v->u.f; return true;
    default: return false;
    }
}

static int64_t a_int(ex *e, const char *name, int64_t def)
{
    int64_t v;
    return v_int(A(e, name), &v) ? v : def;
}

static double a_float(ex *e, const char *name, double def)
{
    double v;
    return v_float(A(e, name), &v) ? v : def;
}

static bool a_bool(ex *e, const char *name, bool def) { return a_int(e, name, def) != 0; }

static const char *a_str(ex *e, const char *name, const char *def)
{
    const byoc_value *v = A(e, name);
    return v && v->kind == BYOC_V_STRING && v->u.s ? v->u.s : def;
}

static byoc_dtype a_dtype(ex *e, const char *name)
{
    const byoc_value *v = A(e, name);
    if (v && v->kind == BYOC_V_DTYPE)
        return v->u.dt;
    if (v && v->kind == BYOC_V_STRING && v->u.s) {
        int d = byoc_dtype_lookup(v->u.s);
        return d < 0 ? BYOC_DT_VOID : (byoc_dtype)d;
    }
    return BYOC_DT_VOID;
}

/* A list of ints: its length (a scalar int is a list of one), or -1 when
 * the attribute is absent; -2 when it is not a list of ints or too long. */
static int list_ints(const byoc_value *v, int64_t *out, int cap)
{
    if (!v)
        return -1;
    if (v->kind != BYOC_V_LIST)
        return v_int(v, out) ? 1 : -2;
    if (v->u.list.n > (size_t)cap)
        return -2;
    for (size_t i = 0; i < v->u.list.n; i++)
        if (!v_int(&v->u.list.items[i], &out[i]))
            return -2;
    return (int)v->u.list.n;
}

static int a_ints(ex *e, const char *name, int64_t *out, int cap)
{
    int n = list_ints(A(e, name), out, cap);
    if (n == -2)
        fail(e, "attribute '%s' is not a list of at most %d ints", name, cap);
    return n;
}

/* ---- types and constant arguments ---------------------------------------- */

static int rank_of(ex *e, int i) { return e->it[i]->rank; }
static byoc_dtype dt_of(ex *e, int i) { return e->it[i]->dtype; }
static bool is_float(byoc_dtype d) { return byoc_dtype_class(d) == 'f'; }
static bool is_int(byoc_dtype d)
{
    char c = byoc_dtype_class(d);
    return c == 'i' || c == 'u';
}
static bool is_q8(byoc_dtype d) { return d == BYOC_DT_INT8 || d == BYOC_DT_UINT8; }

/* The output's type; rank -1 when not known. */
static const byoc_tensor_type *otype(ex *e) { return e->ot0; }

static bool static_shape(const byoc_tensor_type *t)
{
    if (t->rank < 0)
        return false;
    for (int i = 0; i < t->rank; i++)
        if (t->dims[i] < 0)
            return false;
    return true;
}

/* The known contents of argument i, flattened: true with *n values when
 * it is a constant whose data the graph holds (a scalar or a short list). */
static bool const_ints(ex *e, int i, int64_t *v, int cap, int *n)
{
    if (e->inode[i] < 0 || byoc_node_kind_of(e->g, e->inode[i]) != BYOC_N_CONST)
        return false;
    int k = list_ints(byoc_node_const_value(e->g, e->inode[i]), v, cap);
    if (k < 0)
        return false;
    *n = k;
    return true;
}

static bool const_float(ex *e, int i, double *v)
{
    if (e->inode[i] < 0 || byoc_node_kind_of(e->g, e->inode[i]) != BYOC_N_CONST)
        return false;
    const byoc_value *c = byoc_node_const_value(e->g, e->inode[i]);
    if (c && c->kind == BYOC_V_LIST && c->u.list.n == 1)
        c = &c->u.list.items[0];
    return v_float(c, v);
}

static bool norm_axis(int64_t axis, int rank, int *out)
{
    *out = 0;
    if (rank < 0)
        return false;
    if (axis < 0)
        axis += rank;
    if (axis < 0 || axis >= rank)
        return false;
    *out = (int)axis;
    return true;
}

/* axis of input i's rank (plus extra, for ops that add axes). */
static int axis_of(ex *e, int64_t axis, int rank, int *out)
{
    *out = 0;
    if (rank < 0)
        return fail(e, "needs the rank of its input");
    if (!norm_axis(axis, rank, out))
        return fail(e, "axis %lld is out of range for rank %d", (long long)axis, rank);
    return 0;
}

/* ---- nodes --------------------------------------------------------------- */

static const char *T(ex *e) { return bx_ob_temp(e->b); }

/* A node writing y (NULL: a fresh name) from up to three inputs. */
static Onnx__NodeProto *mk(ex *e, const char *op, const char *y, const char *a, const char *b,
                           const char *c)
{
    return bx_ob_node1(e->b, op, a, b, c, y ? y : T(e));
}

static Onnx__NodeProto *mkn(ex *e, const char *op, const char *domain, const char *const *in,
                            int nin, const char *y)
{
    const char *o = y ? y : T(e);
    return bx_ob_node(e->b, op, domain, in, nin, &o, 1);
}

#define OUT(n) ((const char *)(n)->output[0])

static const char *un(ex *e, const char *op, const char *a, const char *y)
{
    return OUT(mk(e, op, y, a, NULL, NULL));
}

static const char *bin(ex *e, const char *op, const char *a, const char *b, const char *y)
{
    return OUT(mk(e, op, y, a, b, NULL));
}

static const char *i64s(ex *e, const int64_t *v, size_t n) { return bx_ob_const_i64s(e->b, v, n); }

static const char *i64(ex *e, int64_t v)
{
    return bx_ob_const_scalar(e->b, BYOC_DT_INT64, (double)v);
}

/* A scalar of dtype dt; integers exactly, whatever their size. */
static const char *scalar(ex *e, byoc_dtype dt, double v)
{
    if (is_int(dt) || dt == BYOC_DT_BOOL) {
        int64_t iv = (int64_t)v;
        return bx_ob_add_init(e->b, bx_ob_tensor(e->b, NULL, dt, NULL, 0, &iv, NULL, 1));
    }
    return bx_ob_const_scalar(e->b, dt, v);
}

static const char *iscalar(ex *e, byoc_dtype dt, int64_t v)
{
    return bx_ob_add_init(e->b, bx_ob_tensor(e->b, NULL, dt, NULL, 0, &v, NULL, 1));
}

/* x itself where nothing needs writing, else Identity into y. */
static const char *ident(ex *e, const char *x, const char *y)
{
    return y ? un(e, "Identity", x, y) : x;
}

static const char *cast(ex *e, const char *x, byoc_dtype from, byoc_dtype to, const char *y)
{
    if (from == to)
        return ident(e, x, y);
    Onnx__NodeProto *n = mk(e, "Cast", y, x, NULL, NULL);
    bx_ob_attr_int(e->b, n, "to", bx_onnx_elem_type(to));
    return OUT(n);
}

static const char *transpose(ex *e, const char *x, const int64_t *perm, int n, const char *y)
{
    bool id = true;
    for (int i = 0; i < n; i++)
        id &= perm[i] == i;
    if (id)
        return ident(e, x, y);
    Onnx__NodeProto *t = mk(e, "Transpose", y, x, NULL, NULL);
    bx_ob_attr_ints(e->b, t, "perm", perm, (size_t)n);
    return OUT(t);
}

static const char *reshape(ex *e, const char *x, const int64_t *shape, int n, const char *y)
{
    return bin(e, "Reshape", x, i64s(e, shape, (size_t)n), y);
}

static const char *unsqueeze(ex *e, const char *x, const int64_t *axes, int n, const char *y)
{
    if (e->opset >= 13)
        return bin(e, "Unsqueeze", x, i64s(e, axes, (size_t)n), y);
    Onnx__NodeProto *u = mk(e, "Unsqueeze", y, x, NULL, NULL);
    bx_ob_attr_ints(e->b, u, "axes", axes, (size_t)n);
    return OUT(u);
}

/* n < 0: every unit axis. */
static const char *squeeze(ex *e, const char *x, const int64_t *axes, int n, const char *y)
{
    if (n < 0)
        return un(e, "Squeeze", x, y);
    if (e->opset >= 13)
        return bin(e, "Squeeze", x, i64s(e, axes, (size_t)n), y);
    Onnx__NodeProto *s = mk(e, "Squeeze", y, x, NULL, NULL);
    bx_ob_attr_ints(e->b, s, "axes", axes, (size_t)n);
    return OUT(s);
}

/* ReduceX over axes (n < 0: all of them).  ReduceSum takes its axes as an
 * input from opset 13, the others from 18. */
static const char *reduce(ex *e, const char *op, const char *x, const int64_t *axes, int n,
                          bool keepdims, const char *y)
{
    bool input = e->opset >= (strcmp(op, "ReduceSum") == 0 ? 13 : 18);
    Onnx__NodeProto *r;
    if (n >= 0 && input)
        r = mk(e, op, y, x, i64s(e, axes, (size_t)n), NULL);
    else
        r = mk(e, op, y, x, NULL, NULL);
    if (n >= 0 && !input)
        bx_ob_attr_ints(e->b, r, "axes", axes, (size_t)n);
    bx_ob_attr_int(e->b, r, "keepdims", keepdims);
    return OUT(r);
}

/* Slice; steps other than 1 need opset 10 (the caller checks). */
static const char *slice(ex *e, const char *x, const int64_t *starts, const int64_t *ends,
                         const int64_t *axes, const int64_t *steps, int n, const char *y)
{
    if (e->opset >= 10) {
        const char *in[5] = {x, NULL, NULL, NULL, NULL};
        in[1] = i64s(e, starts, (size_t)n);
        in[2] = i64s(e, ends, (size_t)n);
        in[3] = i64s(e, axes, (size_t)n);
        if (steps)
            in[4] = i64s(e, steps, (size_t)n);
        return OUT(mkn(e, "Slice", "", in, steps ? 5 : 4, y));
    }
    Onnx__NodeProto *s = mk(e, "Slice", y, x, NULL, NULL);
    bx_ob_attr_ints(e->b, s, "starts", starts, (size_t)n);
    bx_ob_attr_ints(e->b, s, "ends", ends, (size_t)n);
    bx_ob_attr_ints(e->b, s, "axes", axes, (size_t)n);
    return OUT(s);
}

/* Clip of a float tensor of dtype dt to [lo, hi]: attributes before
 * opset 11, inputs from it. */
static const char *clip_float(ex *e, const char *x, byoc_dtype dt, double lo, double hi,
                              const char *y)
{
    if (e->opset >= 11) {
        const char *l = scalar(e, dt, lo), *h = scalar(e, dt, hi);
        return OUT(mk(e, "Clip", y, x, l, h));
    }
    Onnx__NodeProto *c = mk(e, "Clip", y, x, NULL, NULL);
    bx_ob_attr_float(e->b, c, "min", lo);
    bx_ob_attr_float(e->b, c, "max", hi);
    return OUT(c);
}

/* Clamp an integer tensor between two tensors of its dtype: Clip takes
 * integers from opset 12; before, Less, Greater and Where do. */
static const char *clamp_int(ex *e, const char *x, const char *lo, const char *hi, const char *y)
{
    if (e->opset >= 12)
        return OUT(mk(e, "Clip", y, x, lo, hi));
    const char *l = OUT(mk(e, "Where", NULL, bin(e, "Less", x, lo, NULL), lo, x));
    return OUT(mk(e, "Where", y, bin(e, "Greater", l, hi, NULL), hi, l));
}

/* The range of an integer dtype, as doubles (int64's end is rounded). */
static void int_range(byoc_dtype dt, double *lo, double *hi)
{
    int bits = byoc_dtype_bits(dt);
    if (byoc_dtype_class(dt) == 'u') {
        *lo = 0;
        *hi = ldexp(1, bits) - 1;
    } else {
        *lo = -ldexp(1, bits - 1);
        *hi = ldexp(1, bits - 1) - 1;
    }
}

/* A 1-D per-channel tensor (bias, scale) shaped to broadcast against a
 * tensor of `rank` along `axis`: [-1, 1, ...]. */
static const char *chan_bcast(ex *e, const char *p, int prank, int rank, int axis)
{
    if (axis == rank - 1 || prank == 0)
        return p;
    int64_t shape[BYOC_MAX_RANK];
    int n = 0;
    shape[n++] = -1;
    for (int i = axis + 1; i < rank; i++)
        shape[n++] = 1;
    return reshape(e, p, shape, n, NULL);
}

/* The name the call's field i is written to, or a fresh one when the
 * caller does not want it. */
static const char *out_name(ex *e, int i)
{
    if (i < e->nout && e->out[i] && e->out[i][0])
        return e->out[i];
    return T(e);
}

static bool wanted(ex *e, int i) { return i < e->nout && e->out[i] && e->out[i][0]; }

#define Y0 (out_name(e, 0))

/* ---- elementwise ---------------------------------------------------------- */

/* One ONNX op of the same inputs (the table names it). */
static int em_same(ex *e)
{
    TRY(need(e, e->since, e->onnx));
    mkn(e, e->onnx, "", e->in, e->nin, Y0);
    return 0;
}

static int em_relu(ex *e)
{
    byoc_dtype dt = dt_of(e, 0);
    if (is_float(dt) || e->opset >= 14) {
        un(e, "Relu", e->in[0], Y0);
        return 0;
    }
    if (e->opset < 12)
        return fail(e, "on %s needs opset 12 (integer Max)", byoc_dtype_name(dt));
    bin(e, "Max", e->in[0], iscalar(e, dt, 0), Y0);
    return 0;
}

static int em_rsqrt(ex *e)
{
    un(e, "Reciprocal", un(e, "Sqrt", e->in[0], NULL), Y0);
    return 0;
}

/* log2 and log10: Log divided by log(base). */
static int em_log_base(ex *e)
{
    double base = strcmp(e->op, "log2") == 0 ? 2.0 : 10.0;
    const char *l = un(e, "Log", e->in[0], NULL);
    bin(e, "Div", l, scalar(e, dt_of(e, 0), log(base)), Y0);
    return 0;
}

/* Rounding toward zero: Ceil below zero, Floor above. */
static const char *trunc_of(ex *e, const char *x, byoc_dtype dt, const char *y)
{
    const char *neg = bin(e, "Less", x, scalar(e, dt, 0), NULL);
    const char *up = un(e, "Ceil", x, NULL), *down = un(e, "Floor", x, NULL);
    return OUT(mk(e, "Where", y, neg, up, down));
}

static int em_trunc(ex *e)
{
    if (!is_float(dt_of(e, 0)))
        ident(e, e->in[0], Y0);
    else
        trunc_of(e, e->in[0], dt_of(e, 0), Y0);
    return 0;
}

static int em_isfinite(ex *e)
{
    TRY(need(e, 10, "IsInf"));
    const char *inf = un(e, "IsInf", e->in[0], NULL), *nan = un(e, "IsNaN", e->in[0], NULL);
    const char *bad = bin(e, "Or", inf, nan, NULL);
    un(e, "Not", bad, Y0);
    return 0;
}

static int em_bitwise_not(ex *e)
{
    if (dt_of(e, 0) == BYOC_DT_BOOL) {
        un(e, "Not", e->in[0], Y0);
        return 0;
    }
    TRY(need(e, 18, "BitwiseNot"));
    un(e, "BitwiseNot", e->in[0], Y0);
    return 0;
}

/* Add, Sub, Mul, Div take 8- and 16-bit integers from opset 14: before,
 * they are computed in int32 and cast back, which wraps as Relay's do. */
static int em_arith(ex *e)
{
    byoc_dtype dt = dt_of(e, 0);
    if (e->opset < 14 && is_int(dt) && byoc_dtype_bits(dt) < 32) {
        const char *a = cast(e, e->in[0], dt, BYOC_DT_INT32, NULL);
        const char *b = cast(e, e->in[1], dt_of(e, 1), BYOC_DT_INT32, NULL);
        cast(e, bin(e, e->onnx, a, b, NULL), BYOC_DT_INT32, dt, Y0);
        return 0;
    }
    bin(e, e->onnx, e->in[0], e->in[1], Y0);
    return 0;
}

static int em_power(ex *e)
{
    if (!is_float(dt_of(e, 0)))
        TRY(need(e, 12, "Pow of integers"));
    bin(e, "Pow", e->in[0], e->in[1], Y0);
    return 0;
}

static int em_minmax(ex *e)
{
    if (!is_float(dt_of(e, 0)))
        TRY(need(e, 12, strcmp(e->onnx, "Max") == 0 ? "Max of integers" : "Min of integers"));
    bin(e, e->onnx, e->in[0], e->in[1], Y0);
    return 0;
}

/* Floor division and modulo; trunc_divide and (trunc_)mod.  ONNX Mod's
 * fmod=0 is the floored remainder and takes integers only; fmod=1 is C's
 * fmod. */
static const char *mod_node(ex *e, const char *a, const char *b, int fmod, const char *y)
{
    Onnx__NodeProto *m = mk(e, "Mod", y, a, b, NULL);
    bx_ob_attr_int(e->b, m, "fmod", fmod);
    return OUT(m);
}

static int em_divmod(ex *e)
{
    byoc_dtype dt = dt_of(e, 0);
    const char *a = e->in[0], *b = e->in[1], *y = Y0;
    bool fl = is_float(dt);
    if (strcmp(e->op, "floor_divide") == 0) {
        if (fl) {
            un(e, "Floor", bin(e, "Div", a, b, NULL), y);
            return 0;
        }
        /* (a - floormod(a, b)) / b divides exactly. */
        TRY(need(e, 10, "Mod"));
        bin(e, "Div", bin(e, "Sub", a, mod_node(e, a, b, 0, NULL), NULL), b, y);
        return 0;
    }
    if (strcmp(e->op, "trunc_divide") == 0) {
        if (fl)
            trunc_of(e, bin(e, "Div", a, b, NULL), dt, y);
        else
            bin(e, "Div", a, b, y);
        return 0;
    }
    TRY(need(e, 10, "Mod"));
    if (fl && strcmp(e->op, "mod") != 0) {
        /* topi's floor_mod and trunc_mod of floats: a - floor(a / b) * b
         * and a - trunc(a / b) * b (mod is truncmod, C's fmod). */
        const char *d = bin(e, "Div", a, b, NULL), *q;
        q = strcmp(e->op, "floor_mod") == 0 ? un(e, "Floor", d, NULL) : trunc_of(e, d, dt, NULL);
        bin(e, "Sub", a, bin(e, "Mul", q, b, NULL), y);
        return 0;
    }
    mod_node(e, a, b, strcmp(e->op, "floor_mod") == 0 ? 0 : 1, y);
    return 0;
}

/* The unsigned dtype of a signed one's width. */
static byoc_dtype unsigned_of(byoc_dtype dt)
{
    switch (byoc_dtype_bits(dt)) {
    case 8: return BYOC_DT_UINT8;
    case 16: return BYOC_DT_UINT16;
    case 32: return BYOC_DT_UINT32;
    default: return BYOC_DT_UINT64;
    }
}

static const char *shift_node(ex *e, const char *a, const char *b, bool left, const char *y)
{
    Onnx__NodeProto *n = mk(e, "BitShift", y, a, b, NULL);
    bx_ob_attr_string(e->b, n, "direction", left ? "LEFT" : "RIGHT");
    return OUT(n);
}

/* left_shift, right_shift: BitShift of unsigned integers.  A signed one
 * shifts its bits left as unsigned (Cast keeps the bits), and right
 * arithmetically, as floor division by 2^b in int64. */
static int em_shift(ex *e)
{
    byoc_dtype dt = dt_of(e, 0);
    bool left = strcmp(e->op, "left_shift") == 0;
    TRY(need(e, 11, "BitShift"));
    if (byoc_dtype_class(dt) == 'u') {
        shift_node(e, e->in[0], e->in[1], left, Y0);
        return 0;
    }
    if (byoc_dtype_class(dt) != 'i')
        return fail(e, "on %s has no ONNX form", byoc_dtype_name(dt));
    byoc_dtype u = unsigned_of(dt);
    if (left) {
        const char *a = cast(e, e->in[0], dt, u, NULL), *b = cast(e, e->in[1], dt, u, NULL);
        cast(e, shift_node(e, a, b, true, NULL), u, dt, Y0);
        return 0;
    }
    const char *b = cast(e, e->in[1], dt, BYOC_DT_UINT64, NULL);
    const char *p = shift_node(e, iscalar(e, BYOC_DT_UINT64, 1), b, true, NULL);
    p = cast(e, p, BYOC_DT_UINT64, BYOC_DT_INT64, NULL);
    const char *x = cast(e, e->in[0], dt, BYOC_DT_INT64, NULL);
    const char *r = bin(e, "Sub", x, mod_node(e, x, p, 0, NULL), NULL);
    cast(e, bin(e, "Div", r, p, NULL), BYOC_DT_INT64, dt, Y0);
    return 0;
}

static int em_bitwise(ex *e)
{
    if (dt_of(e, 0) == BYOC_DT_BOOL) {
        const char *op = strcmp(e->op, "bitwise_and") == 0  ? "And"
                         : strcmp(e->op, "bitwise_or") == 0 ? "Or"
                                                            : "Xor";
        bin(e, op, e->in[0], e->in[1], Y0);
        return 0;
    }
    TRY(need(e, 18, e->onnx));
    bin(e, e->onnx, e->in[0], e->in[1], Y0);
    return 0;
}

/* Comparisons.  Equal takes floats from opset 11; LessOrEqual and
 * GreaterOrEqual exist from 12: before, an integer a <= b is not a > b,
 * and a float one is a < b or a == b (false for NaN, as Relay's). */
static int em_compare(ex *e)
{
    const char *a = e->in[0], *b = e->in[1], *y = Y0;
    bool fl = is_float(dt_of(e, 0));
    const char *op = e->op;
    bool le = strcmp(op, "less_equal") == 0, ge = strcmp(op, "greater_equal") == 0;
    if (strcmp(op, "less") == 0 || strcmp(op, "greater") == 0) {
        bin(e, op[0] == 'l' ? "Less" : "Greater", a, b, y);
        return 0;
    }
    if (strcmp(op, "equal") == 0 || strcmp(op, "not_equal") == 0) {
        if (fl)
            TRY(need(e, 11, "Equal of floats"));
        if (op[0] == 'e')
            bin(e, "Equal", a, b, y);
        else
            un(e, "Not", bin(e, "Equal", a, b, NULL), y);
        return 0;
    }
    if (le || ge) {
        if (e->opset >= 12) {
            bin(e, le ? "LessOrEqual" : "GreaterOrEqual", a, b, y);
        } else if (!fl) {
            un(e, "Not", bin(e, le ? "Greater" : "Less", a, b, NULL), y);
        } else {
            TRY(need(e, 11, "Equal of floats"));
            const char *strict = bin(e, le ? "Less" : "Greater", a, b, NULL);
            bin(e, "Or", strict, bin(e, "Equal", a, b, NULL), y);
        }
        return 0;
    }
    return fail(e, "is not a comparison");
}

static int em_where(ex *e)
{
    const char *c = cast(e, e->in[0], dt_of(e, 0), BYOC_DT_BOOL, NULL); /* nonzero: true */
    mk(e, "Where", Y0, c, e->in[1], e->in[2]);
    return 0;
}

static int em_cast(ex *e)
{
    byoc_dtype to = otype(e)->dtype;
    if (strcmp(e->op, "cast") == 0 && a_dtype(e, "dtype") != BYOC_DT_VOID)
        to = a_dtype(e, "dtype");
    else if (strcmp(e->op, "cast_like") == 0)
        to = dt_of(e, 1);
    if (to == BYOC_DT_VOID || !bx_onnx_elem_type(to))
        return fail(e, "to %s has no ONNX form", byoc_dtype_name(to));
    Onnx__NodeProto *n = mk(e, "Cast", Y0, e->in[0], NULL, NULL);
    bx_ob_attr_int(e->b, n, "to", bx_onnx_elem_type(to));
    return 0;
}

/* clip(a_min, a_max).  Integer data are clipped to the bounds converted as
 * TVM's make_const does (truncation), held in the dtype's range. */
static int em_clip(ex *e)
{
    byoc_dtype dt = dt_of(e, 0);
    double lo = a_float(e, "a_min", -INFINITY), hi = a_float(e, "a_max", INFINITY);
    if (is_float(dt)) {
        clip_float(e, e->in[0], dt, lo, hi, Y0);
        return 0;
    }
    if (!is_int(dt))
        return fail(e, "on %s has no ONNX form", byoc_dtype_name(dt));
    double rlo, rhi;
    int_range(dt, &rlo, &rhi);
    lo = isnan(lo) ? rlo : fmax(rlo, fmin(rhi, trunc(lo)));
    hi = isnan(hi) ? rhi : fmax(rlo, fmin(rhi, trunc(hi)));
    int64_t il = lo <= -9.2e18 ? INT64_MIN : (int64_t)lo;
    int64_t ih = hi >= 9.2e18 ? (byoc_dtype_class(dt) == 'u' ? -1 : INT64_MAX) : (int64_t)hi;
    const char *l = iscalar(e, dt, il), *h = iscalar(e, dt, ih);
    clamp_int(e, e->in[0], l, h, Y0);
    return 0;
}

static int em_leaky_relu(ex *e)
{
    Onnx__NodeProto *n = mk(e, "LeakyRelu", Y0, e->in[0], NULL, NULL);
    bx_ob_attr_float(e->b, n, "alpha", a_float(e, "alpha", 0.25));
    return 0;
}

/* nn.prelu(data, alpha): the slopes, one per channel of `axis`, shaped to
 * broadcast as ONNX PRelu's do. */
static int em_prelu(ex *e)
{
    int r = rank_of(e, 0), axis;
    TRY(axis_of(e, a_int(e, "axis", 1), r, &axis));
    const char *s = chan_bcast(e, e->in[1], rank_of(e, 1), r, axis);
    bin(e, "PRelu", e->in[0], s, Y0);
    return 0;
}

/* nn.bias_add(data, bias): the bias along `axis`. */
static int em_bias_add(ex *e)
{
    int r = rank_of(e, 0), axis;
    TRY(axis_of(e, a_int(e, "axis", 1), r, &axis));
    bin(e, "Add", e->in[0], chan_bcast(e, e->in[1], rank_of(e, 1), r, axis), Y0);
    return 0;
}

/* fixed_point_multiply(x, multiplier, shift): TVM's x * m * 2^(shift - 31)
 * rounded half up, computed exactly in int64 (floor division by a power
 * of two as (a - floormod(a, d)) / d). */
static int em_fixed_point_multiply(ex *e)
{
    TRY(need(e, 10, "Mod"));
    int64_t m = a_int(e, "multiplier", 0), shift = a_int(e, "shift", 0);
    int64_t ls = shift > 0 ? shift : 0, rs = shift > 0 ? 0 : -shift;
    int64_t total = rs + 31;
    if (ls > 31 || total > 62)
        return fail(e, "with shift %lld has no exact ONNX form", (long long)shift);
    byoc_dtype dt = dt_of(e, 0);
    const char *t = cast(e, e->in[0], dt, BYOC_DT_INT64, NULL);
    if (ls)
        t = bin(e, "Mul", t, iscalar(e, BYOC_DT_INT64, (int64_t)1 << ls), NULL);
    t = bin(e, "Mul", t, iscalar(e, BYOC_DT_INT64, m), NULL);
    t = bin(e, "Add", t, iscalar(e, BYOC_DT_INT64, (int64_t)1 << (total - 1)), NULL);
    const char *d = iscalar(e, BYOC_DT_INT64, (int64_t)1 << total);
    t = bin(e, "Div", bin(e, "Sub", t, mod_node(e, t, d, 0, NULL), NULL), d, NULL);
    cast(e, t, BYOC_DT_INT64, dt, Y0);
    return 0;
}

/* ---- shapes and data movement ----------------------------------------------- */

/* reshape (and contrib_reverse_reshape, reshape_like): to the call's known
 * output shape where it is static; else newshape itself where ONNX reads
 * it the same (sizes, 0 copying an axis, one -1); else the known output
 * sizes, 0 where the input's axis is the same symbol, and -1 for at most
 * one unknown size. */
static int em_reshape(ex *e)
{
    const byoc_tensor_type *o = otype(e), *t = e->it[0];
    int64_t shape[BYOC_MAX_RANK];
    bool reverse = strcmp(e->op, "contrib_reverse_reshape") == 0;
    bool allowzero = a_bool(e, "allowzero", false);
    const char *y = Y0;
    if (static_shape(o)) {
        bool zero = false;
        for (int i = 0; i < o->rank; i++)
            zero |= o->dims[i] == 0;
        if (zero && e->opset < 14)
            return fail(e, "to a shape with a 0 size needs opset 14 (Reshape's allowzero)");
        Onnx__NodeProto *n = mk(e, "Reshape", y, e->in[0], i64s(e, o->dims, (size_t)o->rank), NULL);
        if (zero)
            bx_ob_attr_int(e->b, n, "allowzero", 1);
        return 0;
    }
    int64_t ns[MAXL];
    int n = strcmp(e->op, "reshape") == 0 ? a_ints(e, "newshape", ns, MAXL) : -1;
    if (n == -2)
        return -1;
    if (n >= 0 && !reverse && n <= BYOC_MAX_RANK) {
        bool plain = true;
        int minus = 0;
        for (int i = 0; i < n; i++) {
            plain &= ns[i] >= -1 && !(allowzero && ns[i] == 0 && e->opset < 14);
            minus += ns[i] == -1;
        }
        if (plain && minus <= 1) {
            Onnx__NodeProto *r = mk(e, "Reshape", y, e->in[0], i64s(e, ns, (size_t)n), NULL);
            if (allowzero && e->opset >= 14)
                bx_ob_attr_int(e->b, r, "allowzero", 1);
            return 0;
        }
    }
    if (o->rank >= 0) {
        int unknown = 0;
        for (int i = 0; i < o->rank; i++) {
            int64_t d = o->dims[i];
            if (d > 0 || (d == 0 && !allowzero))
                shape[i] = d;
            else if (d == 0)
                return fail(e, "to a shape with a 0 size has no ONNX form at opset %d", e->opset);
            else if (d < -1 && i < t->rank && t->dims[i] == d)
                shape[i] = 0;
            else {
                shape[i] = -1;
                unknown++;
            }
        }
        if (unknown <= 1) {
            reshape(e, e->in[0], shape, o->rank, y);
            return 0;
        }
    }
    return fail(e, "to a shape of more than one size not known has no ONNX form");
}

/* transpose: axes, or the axes reversed. */
static int em_transpose(ex *e)
{
    int r = rank_of(e, 0);
    int64_t axes[MAXL], perm[BYOC_MAX_RANK];
    int n = a_ints(e, "axes", axes, MAXL);
    if (n == -2)
        return -1;
    if (n < 0 || n == 0) {
        if (r < 0) {
            un(e, "Transpose", e->in[0], Y0);
            return 0;
        }
        for (int i = 0; i < r; i++)
            perm[i] = r - 1 - i;
    } else {
        if (r >= 0 && n != r)
            return fail(e, "with %d axes for rank %d", n, r);
        if (n > BYOC_MAX_RANK)
            return fail(e, "with %d axes", n);
        for (int i = 0; i < n; i++) {
            int a;
            if (!norm_axis(axes[i], n, &a))
                return fail(e, "axis %lld is out of range", (long long)axes[i]);
            perm[i] = a;
        }
        r = n;
    }
    Onnx__NodeProto *t = mk(e, "Transpose", Y0, e->in[0], NULL, NULL);
    bx_ob_attr_ints(e->b, t, "perm", perm, (size_t)r);
    return 0;
}

static int em_expand_dims(ex *e)
{
    int r = rank_of(e, 0);
    int64_t num = a_int(e, "num_newaxis", 1), axis = a_int(e, "axis", 0);
    if (num < 0 || num > BYOC_MAX_RANK)
        return fail(e, "with num_newaxis %lld", (long long)num);
    if (num == 0) {
        un(e, "Identity", e->in[0], Y0);
        return 0;
    }
    if (r < 0)
        return fail(e, "needs the rank of its input");
    if (axis < 0)
        axis += r + 1;
    if (axis < 0 || axis > r)
        return fail(e, "axis %lld is out of range for rank %d", (long long)a_int(e, "axis", 0), r);
    int64_t axes[BYOC_MAX_RANK];
    for (int i = 0; i < num; i++)
        axes[i] = axis + i;
    unsqueeze(e, e->in[0], axes, (int)num, Y0);
    return 0;
}

static int em_squeeze(ex *e)
{
    int r = rank_of(e, 0);
    int64_t axes[MAXL];
    int n = a_ints(e, "axis", axes, MAXL);
    if (n == -2)
        return -1;
    if (n == 0) {
        un(e, "Identity", e->in[0], Y0);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        int a;
        if (r >= 0) {
            TRY(axis_of(e, axes[i], r, &a));
            axes[i] = a;
        } else if (axes[i] < 0 && e->opset < 11) {
            return fail(e, "with a negative axis needs the rank of its input");
        }
    }
    squeeze(e, e->in[0], axes, n, Y0);
    return 0;
}

static int em_batch_flatten(ex *e)
{
    Onnx__NodeProto *n = mk(e, "Flatten", Y0, e->in[0], NULL, NULL);
    bx_ob_attr_int(e->b, n, "axis", 1);
    return 0;
}

/* concatenate(tuple): its fields are in[0..nin). */
static int em_concatenate(ex *e)
{
    if (e->nin < 1)
        return fail(e, "of no fields");
    int axis;
    TRY(axis_of(e, a_int(e, "axis", 0), rank_of(e, 0), &axis));
    Onnx__NodeProto *n = mkn(e, "Concat", "", e->in, e->nin, Y0);
    bx_ob_attr_int(e->b, n, "axis", axis);
    return 0;
}

static int em_stack(ex *e)
{
    if (e->nin < 1)
        return fail(e, "of no fields");
    int axis;
    TRY(axis_of(e, a_int(e, "axis", 0), rank_of(e, 0) + 1, &axis));
    const char **u = BX_NEWN(e->b->arena, const char *, e->nin);
    int64_t ax = axis;
    for (int i = 0; i < e->nin; i++)
        u[i] = unsqueeze(e, e->in[i], &ax, 1, NULL);
    Onnx__NodeProto *n = mkn(e, "Concat", "", u, e->nin, Y0);
    bx_ob_attr_int(e->b, n, "axis", axis);
    return 0;
}

/* split: the sizes of the sections, from the call's field types or from
 * indices_or_sections and the axis's size; equal sections without them. */
static int em_split(ex *e)
{
    const byoc_tensor_type *t = e->it[0];
    int axis;
    TRY(axis_of(e, a_int(e, "axis", 0), t->rank, &axis));
    int nf = e->nfields;
    int64_t *sizes = BX_NEWN(e->b->arena, int64_t, nf + 1);
    bool known = true;
    for (int i = 0; i < nf; i++) {
        bool tuple = byoc_node_field_count(e->g, e->node) >= 0;
        const byoc_tensor_type *f = byoc_node_type(e->g, e->node, tuple ? i : -1);
        sizes[i] = f && f->rank == t->rank ? f->dims[axis] : -1;
        known &= sizes[i] >= 0;
    }
    const byoc_value *ios = A(e, "indices_or_sections");
    if (!known && ios && ios->kind == BYOC_V_LIST && t->dims[axis] >= 0
        && ios->u.list.n + 1 == (size_t)nf) {
        int64_t prev = 0, at;
        known = true;
        for (int i = 0; i < nf; i++) {
            if (i + 1 < nf && !v_int(&ios->u.list.items[i], &at))
                return fail(e, "indices_or_sections is not a list of ints");
            at = i + 1 < nf ? at : t->dims[axis];
            sizes[i] = at - prev;
            known &= sizes[i] >= 0;
            prev = at;
        }
    }
    const char **outs = BX_NEWN(e->b->arena, const char *, nf);
    for (int i = 0; i < nf; i++)
        outs[i] = out_name(e, i);
    Onnx__NodeProto *n;
    if (known && e->opset >= 13) {
        const char *in[2] = {e->in[0], i64s(e, sizes, (size_t)nf)};
        n = bx_ob_node(e->b, "Split", "", in, 2, outs, nf);
    } else {
        if (!known && (!ios || ios->kind == BYOC_V_LIST))
            return fail(e, "at indices on an axis of unknown size has no ONNX form");
        n = bx_ob_node(e->b, "Split", "", e->in, 1, outs, nf);
        if (known)
            bx_ob_attr_ints(e->b, n, "split", sizes, (size_t)nf);
        else if (e->opset >= 18)
            bx_ob_attr_int(e->b, n, "num_outputs", nf);
    }
    bx_ob_attr_int(e->b, n, "axis", axis);
    return 0;
}

/* strided_slice, as byoc types it (infer.c, after TVM): with `axes`, begin,
 * end and strides on those axes; without, on the leading axes, strides
 * past their list 1.  "size" mode reads end as a length, -1 to the end,
 * with stride 1.  ONNX Slice clamps begin and end into the axis as topi's
 * canonicalisation does, for either sign of the step.  (A size counts from
 * begin as given, as topi's ConvertToVec adds them.) */
static int em_strided_slice(ex *e)
{
    int64_t begin[MAXL], end[MAXL], strides[MAXL], axes[MAXL];
    int nb = a_ints(e, "begin", begin, MAXL), ne = a_ints(e, "end", end, MAXL);
    int ns = a_ints(e, "strides", strides, MAXL), na = a_ints(e, "axes", axes, MAXL);
    if (nb == -2 || ne == -2 || ns == -2 || na == -2)
        return -1;
    if (nb < 0 || ne < 0)
        return fail(e, "needs begin and end");
    const char *mode = a_str(e, "slice_mode", "end");
    bool size_mode = strcmp(mode, "size") == 0;
    if (!size_mode && strcmp(mode, "end") != 0)
        return fail(e, "with slice_mode '%s' has no ONNX form", mode);
    if (ns < 0) {
        ns = 1;
        strides[0] = 1;
    }
    int r = rank_of(e, 0), n;
    int64_t s[MAXL], b[MAXL], en[MAXL], ax[MAXL];
    if (na >= 0) {
        n = na;
        if (nb < n || ne < n)
            return fail(e, "with fewer begin or end values than axes");
        for (int i = 0; i < n; i++) {
            s[i] = i < ns ? strides[i] : 1;
            b[i] = begin[i];
            en[i] = end[i];
            ax[i] = axes[i];
        }
    } else {
        n = nb > ne ? nb : ne;
        if (ns > n)
            n = ns;
        if (r >= 0 && n > r)
            return fail(e, "with more slice values than the %d axes", r);
        for (int i = 0; i < n; i++) {
            ax[i] = i;
            s[i] = i < ns ? strides[i] : 1;
            b[i] = i < nb ? begin[i] : s[i] > 0 ? 0 : INT64_MAX;
            en[i] = i < ne ? end[i] : s[i] < 0 ? 0 : INT64_MAX;
        }
    }
    for (int i = 0; i < n; i++) {
        if (r >= 0) {
            int a;
            TRY(axis_of(e, ax[i], r, &a));
            ax[i] = a;
        }
        if (size_mode) {
            s[i] = 1;
            int64_t bi = b[i], sz = en[i];
            en[i] = sz < 0 || bi > INT64_MAX - sz ? INT64_MAX : bi + sz;
        }
        if (s[i] == 0)
            return fail(e, "with stride 0");
    }
    bool unit = true;
    for (int i = 0; i < n; i++)
        unit &= s[i] == 1;
    if (!unit)
        TRY(need(e, 10, "Slice with steps"));
    if (n == 0) {
        un(e, "Identity", e->in[0], Y0);
        return 0;
    }
    slice(e, e->in[0], b, en, ax, unit ? NULL : s, n, Y0);
    return 0;
}

/* Indices of dtype dt as Gather takes them (int32 or int64). */
static const char *gather_indices(ex *e, const char *idx, byoc_dtype dt, byoc_dtype *out_dt)
{
    if (dt == BYOC_DT_INT32 || dt == BYOC_DT_INT64) {
        *out_dt = dt;
        return idx;
    }
    *out_dt = BYOC_DT_INT64;
    return cast(e, idx, dt, BYOC_DT_INT64, NULL);
}

/* The size of axis `axis` of tensor x (of known static size d, or read at
 * run time when d < 0) as a scalar of dtype dt. */
static const char *axis_size(ex *e, const char *x, int axis, int64_t d, byoc_dtype dt)
{
    if (d >= 0)
        return iscalar(e, dt, d);
    const char *shape = un(e, "Shape", x, NULL);
    const char *g = bin(e, "Gather", shape, i64(e, axis), NULL);
    return cast(e, g, BYOC_DT_INT64, dt, NULL);
}

/* take(data, indices): Gather along `axis` (none: of the flattened data).
 * Relay's mode "clip" (the default) clamps the indices into the axis,
 * "wrap" takes them modulo its size, "fast" assumes them in range. */
static int em_take(ex *e)
{
    if (a_int(e, "batch_dims", 0) != 0)
        return fail(e, "with batch_dims %lld has no ONNX form",
                    (long long)a_int(e, "batch_dims", 0));
    const char *data = e->in[0];
    const byoc_tensor_type *t = e->it[0];
    int axis = 0;
    int64_t dim;
    if (!A(e, "axis")) {
        int64_t flat = -1;
        data = reshape(e, data, &flat, 1, NULL);
        dim = static_shape(t) ? 1 : -1;
        for (int i = 0; dim >= 0 && i < t->rank; i++)
            dim *= t->dims[i];
    } else {
        TRY(axis_of(e, a_int(e, "axis", 0), t->rank, &axis));
        dim = t->dims[axis];
    }
    const char *mode = a_str(e, "mode", "clip");
    byoc_dtype idt;
    const char *idx = gather_indices(e, e->in[1], dt_of(e, 1), &idt);
    if (strcmp(mode, "clip") == 0) {
        int64_t v[MAXL];
        int nv;
        bool inside = dim >= 0 && const_ints(e, 1, v, MAXL, &nv);
        for (int i = 0; inside && i < nv; i++)
            inside = v[i] >= 0 && v[i] < dim;
        if (!inside) {
            const char *hi;
            if (dim >= 0) {
                hi = iscalar(e, idt, dim - 1);
            } else {
                const char *size = axis_size(e, data, axis, dim, idt);
                hi = bin(e, "Sub", size, iscalar(e, idt, 1), NULL);
            }
            idx = clamp_int(e, idx, iscalar(e, idt, 0), hi, NULL);
        }
    } else if (strcmp(mode, "wrap") == 0) {
        TRY(need(e, 10, "Mod"));
        idx = mod_node(e, idx, axis_size(e, data, axis, dim, idt), 0, NULL);
    } else if (strcmp(mode, "fast") != 0) {
        return fail(e, "with mode '%s' has no ONNX form", mode);
    }
    Onnx__NodeProto *g = mk(e, "Gather", Y0, data, idx, NULL);
    bx_ob_attr_int(e->b, g, "axis", axis);
    return 0;
}

/* gather(data, indices): GatherElements. */
static int em_gather(ex *e)
{
    TRY(need(e, 11, "GatherElements"));
    int axis;
    TRY(axis_of(e, a_int(e, "axis", 0), rank_of(e, 0), &axis));
    byoc_dtype idt;
    const char *idx = gather_indices(e, e->in[1], dt_of(e, 1), &idt);
    Onnx__NodeProto *g = mk(e, "GatherElements", Y0, e->in[0], idx, NULL);
    bx_ob_attr_int(e->b, g, "axis", axis);
    return 0;
}

/* Relay's index tensors put the coordinate first ([M, ...]); ONNX's
 * GatherND and ScatterND put it last. */
static const char *coords_last(ex *e, int i)
{
    int r = rank_of(e, i);
    const char *idx = cast(e, e->in[i], dt_of(e, i), BYOC_DT_INT64, NULL);
    int64_t perm[BYOC_MAX_RANK];
    for (int k = 0; k < r; k++)
        perm[k] = k + 1 < r ? k + 1 : 0;
    return transpose(e, idx, perm, r, NULL);
}

static int em_gather_nd(ex *e)
{
    TRY(need(e, 11, "GatherND"));
    if (rank_of(e, 1) < 1)
        return fail(e, "needs the rank of its indices");
    int64_t bd = a_int(e, "batch_dims", 0);
    if (bd)
        TRY(need(e, 12, "GatherND with batch_dims"));
    Onnx__NodeProto *g = mk(e, "GatherND", Y0, e->in[0], coords_last(e, 1), NULL);
    if (bd)
        bx_ob_attr_int(e->b, g, "batch_dims", bd);
    return 0;
}

/* The reduction attribute of ScatterElements and ScatterND. */
static int scatter_reduction(ex *e, Onnx__NodeProto *n, const char *mode)
{
    if (strcmp(mode, "update") == 0)
        return 0;
    if (strcmp(mode, "add") == 0 || strcmp(mode, "mul") == 0)
        TRY(need(e, 16, "scatter reductions"));
    else if (strcmp(mode, "min") == 0 || strcmp(mode, "max") == 0)
        TRY(need(e, 18, "scatter reductions min and max"));
    else
        return fail(e, "with reduction '%s' has no ONNX form", mode);
    bx_ob_attr_string(e->b, n, "reduction", mode);
    return 0;
}

static int em_scatter_elements(ex *e)
{
    TRY(need(e, 11, "ScatterElements"));
    int axis;
    TRY(axis_of(e, a_int(e, "axis", 0), rank_of(e, 0), &axis));
    byoc_dtype idt;
    const char *idx = gather_indices(e, e->in[1], dt_of(e, 1), &idt);
    Onnx__NodeProto *n = mk(e, "ScatterElements", Y0, e->in[0], idx, e->in[2]);
    bx_ob_attr_int(e->b, n, "axis", axis);
    return scatter_reduction(e, n, a_str(e, "reduction", "update"));
}

static int em_scatter_nd(ex *e)
{
    TRY(need(e, 11, "ScatterND"));
    if (rank_of(e, 1) < 1)
        return fail(e, "needs the rank of its indices");
    Onnx__NodeProto *n = mk(e, "ScatterND", Y0, e->in[0], coords_last(e, 1), e->in[2]);
    return scatter_reduction(e, n, a_str(e, "mode", "update"));
}

static int em_broadcast_to(ex *e)
{
    int64_t shape[MAXL];
    int n = a_ints(e, "shape", shape, MAXL);
    if (n < 0)
        return n == -2 ? -1 : fail(e, "needs shape");
    bin(e, "Expand", e->in[0], i64s(e, shape, (size_t)n), Y0);
    return 0;
}

static int em_broadcast_to_like(ex *e)
{
    bin(e, "Expand", e->in[0], un(e, "Shape", e->in[1], NULL), Y0);
    return 0;
}

/* tile(reps): ranks aligned on the right, as numpy's tile. */
static int em_tile(ex *e)
{
    int64_t reps[MAXL], full[BYOC_MAX_RANK];
    int n = a_ints(e, "reps", reps, MAXL), r = rank_of(e, 0);
    if (n < 0)
        return n == -2 ? -1 : fail(e, "needs reps");
    if (r < 0)
        return fail(e, "needs the rank of its input");
    if (n > BYOC_MAX_RANK)
        return fail(e, "with %d reps", n);
    const char *x = e->in[0];
    int m = n > r ? n : r;
    if (n > r) {
        int64_t axes[BYOC_MAX_RANK];
        for (int i = 0; i < n - r; i++)
            axes[i] = i;
        x = unsqueeze(e, x, axes, n - r, NULL);
    }
    for (int i = 0; i < m; i++)
        full[i] = i < m - n ? 1 : reps[i - (m - n)];
    bin(e, "Tile", x, i64s(e, full, (size_t)m), Y0);
    return 0;
}

/* repeat(repeats, axis): each element `repeats` times along the axis
 * (numpy's repeat): a new axis after it, tiled, merged into it. */
static int em_repeat(ex *e)
{
    const byoc_tensor_type *t = e->it[0], *o = otype(e);
    int64_t reps = a_int(e, "repeats", 1);
    const char *x = e->in[0];
    int r = t->rank, axis;
    if (!static_shape(o))
        return fail(e, "needs its output's shape");
    if (!A(e, "axis")) {
        int64_t flat = -1;
        x = reshape(e, x, &flat, 1, NULL);
        r = 1;
        axis = 0;
    } else {
        TRY(axis_of(e, a_int(e, "axis", 0), r, &axis));
    }
    if (r + 1 > BYOC_MAX_RANK)
        return fail(e, "on rank %d", r);
    int64_t ax = axis + 1, tiles[BYOC_MAX_RANK];
    x = unsqueeze(e, x, &ax, 1, NULL);
    for (int i = 0; i <= r; i++)
        tiles[i] = i == axis + 1 ? reps : 1;
    x = bin(e, "Tile", x, i64s(e, tiles, (size_t)r + 1), NULL);
    reshape(e, x, o->dims, o->rank, Y0);
    return 0;
}

static int em_reverse(ex *e)
{
    TRY(need(e, 10, "Slice with steps"));
    int axis;
    if (!A(e, "axis"))
        return fail(e, "needs axis");
    TRY(axis_of(e, a_int(e, "axis", 0), rank_of(e, 0), &axis));
    int64_t st = -1, en = INT64_MIN, ax = axis, step = -1;
    slice(e, e->in[0], &st, &en, &ax, &step, 1, Y0);
    return 0;
}

static int em_reverse_sequence(ex *e)
{
    TRY(need(e, 10, "ReverseSequence"));
    int r = rank_of(e, 0), sa, ba;
    TRY(axis_of(e, a_int(e, "seq_axis", 1), r, &sa));
    TRY(axis_of(e, a_int(e, "batch_axis", 0), r, &ba));
    if (sa > 1 || ba > 1 || sa == ba)
        return fail(e, "with seq_axis %d and batch_axis %d has no ONNX form (axes 0 and 1 only)",
                    sa, ba);
    const char *len = cast(e, e->in[1], dt_of(e, 1), BYOC_DT_INT64, NULL);
    Onnx__NodeProto *n = mk(e, "ReverseSequence", Y0, e->in[0], len, NULL);
    bx_ob_attr_int(e->b, n, "batch_axis", ba);
    bx_ob_attr_int(e->b, n, "time_axis", sa);
    return 0;
}

/* reshape_like and slice_like: to the output's shape when it is static,
 * else from shape_like's shape at run time where the whole of it counts. */
static int em_reshape_like(ex *e)
{
    const byoc_tensor_type *o = otype(e);
    if (static_shape(o)) {
        reshape(e, e->in[0], o->dims, o->rank, Y0);
        return 0;
    }
    if (a_int(e, "lhs_begin", 0) == 0 && !A(e, "lhs_end") && a_int(e, "rhs_begin", 0) == 0
        && !A(e, "rhs_end")) {
        bin(e, "Reshape", e->in[0], un(e, "Shape", e->in[1], NULL), Y0);
        return 0;
    }
    return fail(e, "of axis ranges needs its output's shape");
}

static int em_slice_like(ex *e)
{
    const byoc_tensor_type *o = otype(e), *t = e->it[0];
    if (!static_shape(o) || t->rank != o->rank)
        return fail(e, "needs its output's shape");
    int64_t st[BYOC_MAX_RANK], en[BYOC_MAX_RANK], ax[BYOC_MAX_RANK];
    int n = 0;
    for (int i = 0; i < o->rank; i++)
        if (t->dims[i] != o->dims[i]) {
            st[n] = 0;
            en[n] = o->dims[i];
            ax[n++] = i;
        }
    if (n == 0)
        un(e, "Identity", e->in[0], Y0);
    else
        slice(e, e->in[0], st, en, ax, NULL, n, Y0);
    return 0;
}

/* layout_transform between layouts of the same primal axes, each split at
 * most once ("NCHW" to "NCHW8c" and back, "NCHW" to "NHWC"): the input is
 * reshaped to the finest axes, transposed, and reshaped to the output. */
typedef struct lay_axis {
    char name;      /* 'C' for a primal axis, 'c' for its sub-axis */
    int64_t factor; /* of a sub-axis */
} lay_axis;

static int parse_layout(const char *s, lay_axis *ax, int cap)
{
    int n = 0;
    while (*s) {
        int64_t f = 0;
        while (isdigit((unsigned char)*s)) {
            f = f * 10 + (*s++ - '0');
            if (f > 1000000)    /* before it can overflow */
                return -1;
        }
        if (!isalpha((unsigned char)*s) || n == cap)
            return -1;
        bool upper = isupper((unsigned char)*s);
        if (upper == (f > 0))
            return -1;
        ax[n].name = *s++;
        ax[n++].factor = f;
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (ax[i].name == ax[j].name)
                return -1;
    return n;
}

static int64_t sub_factor(const lay_axis *ax, int n, char primal)
{
    for (int i = 0; i < n; i++)
        if (ax[i].name == tolower((unsigned char)primal))
            return ax[i].factor;
    return 0;
}

static int em_layout_transform(ex *e)
{
    const char *src = a_str(e, "src_layout", ""), *dst = a_str(e, "dst_layout", "");
    lay_axis s[BYOC_MAX_RANK], d[BYOC_MAX_RANK];
    int ns = parse_layout(src, s, BYOC_MAX_RANK), nd = parse_layout(dst, d, BYOC_MAX_RANK);
    const byoc_tensor_type *t = e->it[0], *o = otype(e);
    if (ns < 0 || nd < 0)
        return fail(e, "from '%s' to '%s' has no ONNX form", src, dst);
    if (t->rank != ns)
        return fail(e, "from '%s' on a tensor of rank %d", src, t->rank);
    /* The finest axes: each primal axis, then its sub-axis when either
     * layout splits it. */
    char fine[2 * BYOC_MAX_RANK];
    int64_t fdim[2 * BYOC_MAX_RANK];
    int nf = 0;
    for (int i = 0; i < ns; i++) {
        if (!isupper((unsigned char)s[i].name))
            continue;
        char p = s[i].name;
        bool in_dst = false;
        for (int j = 0; j < nd; j++)
            in_dst |= d[j].name == p;
        int64_t fs = sub_factor(s, ns, p), fd = sub_factor(d, nd, p);
        if (!in_dst || (fs && fd && fs != fd))
            return fail(e, "from '%s' to '%s' has no ONNX form", src, dst);
        int64_t f = fs ? fs : fd;
        if (nf + 2 > 2 * BYOC_MAX_RANK)
            return fail(e, "of too many axes");
        int64_t size = t->dims[i];
        if (size < 0 && f && !fs)
            return fail(e, "needs the size of axis '%c'", p);
        if (!fs && f && size % f)
            return fail(e, "of axis '%c' of %lld, not a multiple of %lld", p, (long long)size,
                        (long long)f);
        fine[nf] = p;
        fdim[nf++] = fs || !f ? size : size / f;
        if (f) {
            fine[nf] = (char)tolower((unsigned char)p);
            fdim[nf++] = f;
        }
    }
    /* The input's axes in the finest terms, in the source's order. */
    int64_t perm[2 * BYOC_MAX_RANK], shape[2 * BYOC_MAX_RANK];
    char order[2 * BYOC_MAX_RANK];
    int no = 0;
    for (int i = 0; i < ns; i++) {
        order[no++] = s[i].name;
        if (isupper((unsigned char)s[i].name) && !sub_factor(s, ns, s[i].name)
            && sub_factor(d, nd, s[i].name))
            order[no++] = (char)tolower((unsigned char)s[i].name);
    }
    if (no != nf)
        return fail(e, "from '%s' to '%s' has no ONNX form", src, dst);
    for (int i = 0; i < no; i++)
        for (int k = 0; k < nf; k++)
            if (fine[k] == order[i])
                shape[i] = fdim[k];
    const char *x = e->in[0];
    if (no != ns)
        x = reshape(e, x, shape, no, NULL);
    /* The destination's order of the finest axes. */
    char want[2 * BYOC_MAX_RANK];
    int nw = 0;
    for (int j = 0; j < nd; j++) {
        want[nw++] = d[j].name;
        if (isupper((unsigned char)d[j].name) && !sub_factor(d, nd, d[j].name)
            && sub_factor(s, ns, d[j].name))
            want[nw++] = (char)tolower((unsigned char)d[j].name);
    }
    if (nw != no)
        return fail(e, "from '%s' to '%s' has no ONNX form", src, dst);
    for (int j = 0; j < nw; j++) {
        perm[j] = -1;
        for (int i = 0; i < no; i++)
            if (order[i] == want[j])
                perm[j] = i;
        if (perm[j] < 0)
            return fail(e, "from '%s' to '%s' has no ONNX form", src, dst);
    }
    if (nw == nd) {
        transpose(e, x, perm, nw, Y0);
        return 0;
    }
    x = transpose(e, x, perm, nw, NULL);
    if (!static_shape(o))
        return fail(e, "needs its output's shape");
    reshape(e, x, o->dims, o->rank, Y0);
    return 0;
}

/* ---- creation, scans, sorting ------------------------------------------------ */

/* A ConstantOfShape value: one element of dtype dt. */
static Onnx__TensorProto *one_value(ex *e, byoc_dtype dt, double v)
{
    int64_t one = 1, iv = (int64_t)v;
    return bx_ob_tensor(e->b, "value", dt, &one, 1, &iv, &v, 1);
}

static int fill_shape(ex *e, const char *shape, byoc_dtype dt, double v, const char *y)
{
    if (!bx_onnx_elem_type(dt))
        return fail(e, "of %s has no ONNX form", byoc_dtype_name(dt));
    Onnx__NodeProto *n = mk(e, "ConstantOfShape", y, shape, NULL, NULL);
    bx_ob_attr_tensor(e->b, n, "value", one_value(e, dt, v));
    return 0;
}

static byoc_dtype out_dtype(ex *e, byoc_dtype def)
{
    byoc_dtype d = otype(e)->dtype;
    return d != BYOC_DT_VOID ? d : def;
}

/* zeros, ones: ConstantOfShape of the attribute shape. */
static int em_zeros_ones(ex *e)
{
    int64_t shape[MAXL];
    int n = a_ints(e, "shape", shape, MAXL);
    if (n < 0)
        return n == -2 ? -1 : fail(e, "needs shape");
    byoc_dtype dt = a_dtype(e, "dtype");
    dt = dt != BYOC_DT_VOID ? dt : out_dtype(e, BYOC_DT_FLOAT32);
    return fill_shape(e, i64s(e, shape, (size_t)n), dt, e->op[0] == 'o' ? 1 : 0, Y0);
}

static int em_zeros_ones_like(ex *e)
{
    return fill_shape(e, un(e, "Shape", e->in[0], NULL), dt_of(e, 0), e->op[0] == 'o' ? 1 : 0, Y0);
}

/* full(fill_value): the scalar, cast, expanded to the shape. */
static int em_full(ex *e)
{
    int64_t shape[MAXL];
    int n = a_ints(e, "shape", shape, MAXL);
    if (n == -2)
        return -1;
    byoc_dtype dt = out_dtype(e, dt_of(e, 0));
    const char *v = cast(e, e->in[0], dt_of(e, 0), dt, NULL);
    bin(e, "Expand", v, i64s(e, shape, (size_t)(n < 0 ? 0 : n)), Y0);
    return 0;
}

static int em_full_like(ex *e)
{
    const char *v = cast(e, e->in[1], dt_of(e, 1), dt_of(e, 0), NULL);
    bin(e, "Expand", v, un(e, "Shape", e->in[0], NULL), Y0);
    return 0;
}

static int em_shape_of(ex *e)
{
    const char *s = un(e, strcmp(e->op, "shape_of") == 0 ? "Shape" : "Size", e->in[0], NULL);
    byoc_dtype dt = a_dtype(e, "dtype");
    cast(e, s, BYOC_DT_INT64, dt != BYOC_DT_VOID ? dt : BYOC_DT_INT32, Y0);
    return 0;
}

/* arange(start, stop, step): Range of the three scalars in the dtype. */
static int em_arange(ex *e)
{
    TRY(need(e, 11, "Range"));
    byoc_dtype dt = a_dtype(e, "dtype");
    dt = dt != BYOC_DT_VOID ? dt : out_dtype(e, BYOC_DT_FLOAT32);
    const char *in[3];
    for (int i = 0; i < 3; i++) {
        in[i] = cast(e, e->in[i], dt_of(e, i), dt, NULL);
        if (rank_of(e, i) > 0) {
            in[i] = squeeze(e, in[i], NULL, -1, NULL);
        }
    }
    mkn(e, "Range", "", in, 3, Y0);
    return 0;
}

/* one_hot(indices, on_value, off_value): TVM's compare of each index with
 * 0..depth-1 (a negative or too large index is all off_value), as Equal
 * against a constant range placed at `axis`, then Where. */
static int em_one_hot(ex *e)
{
    int64_t depth = a_int(e, "depth", 1);
    int r = rank_of(e, 0), axis;
    if (depth < 0 || depth > (1 << 24))
        return fail(e, "of depth %lld", (long long)depth);
    TRY(axis_of(e, a_int(e, "axis", -1), r + 1, &axis));
    if (r + 1 > BYOC_MAX_RANK)
        return fail(e, "on rank %d", r);
    int64_t *range = BX_NEWN(e->b->arena, int64_t, depth + 1);
    for (int64_t i = 0; i < depth; i++)
        range[i] = i;
    int64_t dims[BYOC_MAX_RANK];
    int nd = 0;
    dims[nd++] = depth;
    for (int i = axis + 1; i <= r; i++)
        dims[nd++] = 1;
    const char *rng = bx_ob_add_init(
        e->b, bx_ob_tensor(e->b, NULL, BYOC_DT_INT64, dims, nd, range, NULL, (size_t)depth));
    int64_t ax = axis;
    const char *idx = cast(e, e->in[0], dt_of(e, 0), BYOC_DT_INT64, NULL);
    const char *eq = bin(e, "Equal", unsqueeze(e, idx, &ax, 1, NULL), rng, NULL);
    byoc_dtype dt = a_dtype(e, "dtype");
    dt = dt != BYOC_DT_VOID ? dt : out_dtype(e, dt_of(e, 1));
    const char *on = cast(e, e->in[1], dt_of(e, 1), dt, NULL);
    const char *off = cast(e, e->in[2], dt_of(e, 2), dt, NULL);
    mk(e, "Where", Y0, eq, on, off);
    return 0;
}

/* cumsum(axis, dtype, exclusive): CumSum (none: of the flattened data). */
static int em_cumsum(ex *e)
{
    TRY(need(e, 11, "CumSum"));
    const char *x = e->in[0];
    byoc_dtype dt = a_dtype(e, "dtype");
    if (dt != BYOC_DT_VOID)
        x = cast(e, x, dt_of(e, 0), dt, NULL);
    int axis = 0;
    if (!A(e, "axis")) {
        int64_t flat = -1;
        x = reshape(e, x, &flat, 1, NULL);
    } else {
        TRY(axis_of(e, a_int(e, "axis", 0), rank_of(e, 0), &axis));
    }
    Onnx__NodeProto *n = mk(e, "CumSum", Y0, x, i64(e, axis), NULL);
    if (a_bool(e, "exclusive", false))
        bx_ob_attr_int(e->b, n, "exclusive", 1);
    return 0;
}

/* trilu(data, k): Trilu from opset 14; before, a constant mask of the
 * last two (static) axes when k is a known constant. */
static int em_trilu(ex *e)
{
    bool upper = a_bool(e, "upper", true);
    if (e->opset >= 14) {
        const char *k = cast(e, e->in[1], dt_of(e, 1), BYOC_DT_INT64, NULL);
        if (rank_of(e, 1) > 0)
            k = squeeze(e, k, NULL, -1, NULL);
        Onnx__NodeProto *n = mk(e, "Trilu", Y0, e->in[0], k, NULL);
        bx_ob_attr_int(e->b, n, "upper", upper);
        return 0;
    }
    const byoc_tensor_type *t = e->it[0];
    int64_t kv[1];
    int nk;
    if (t->rank < 2 || t->dims[t->rank - 1] < 0 || t->dims[t->rank - 2] < 0
        || !const_ints(e, 1, kv, 1, &nk) || nk != 1)
        return fail(e, "before opset 14 needs its last two sizes and a constant k");
    int64_t rows = t->dims[t->rank - 2], cols = t->dims[t->rank - 1];
    if (rows * cols > (1 << 22))
        return fail(e, "before opset 14 on a %lld x %lld matrix", (long long)rows, (long long)cols);
    int64_t *mask = BX_NEWN(e->b->arena, int64_t, rows * cols + 1);
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            mask[i * cols + j] = upper ? j - i >= kv[0] : j - i <= kv[0];
    int64_t dims[2] = {rows, cols};
    const char *m = bx_ob_add_init(
        e->b, bx_ob_tensor(e->b, NULL, BYOC_DT_BOOL, dims, 2, mask, NULL, (size_t)(rows * cols)));
    mk(e, "Where", Y0, m, e->in[0], scalar(e, t->dtype, 0));
    return 0;
}

/* sequence_mask(data, valid_length): positions at or past a sequence's
 * length along `axis` (0 or 1, the batch axis the other) become
 * mask_value. */
static int em_sequence_mask(ex *e)
{
    const byoc_tensor_type *t = e->it[0];
    int axis;
    TRY(axis_of(e, a_int(e, "axis", 0), t->rank, &axis));
    if (axis > 1 || t->rank < 2 || t->dims[axis] < 0 || t->dims[axis] > (1 << 24))
        return fail(e, "needs axis 0 or 1 of known size");
    int64_t len = t->dims[axis];
    int64_t *pos = BX_NEWN(e->b->arena, int64_t, len + 1);
    for (int64_t i = 0; i < len; i++)
        pos[i] = i;
    int64_t dims[BYOC_MAX_RANK], vshape[BYOC_MAX_RANK];
    for (int i = 0; i < t->rank; i++) {
        dims[i] = i == axis ? len : 1;
        vshape[i] = i == 1 - axis ? -1 : 1;
    }
    const char *p = bx_ob_add_init(
        e->b, bx_ob_tensor(e->b, NULL, BYOC_DT_INT64, dims, t->rank, pos, NULL, (size_t)len));
    const char *vl = cast(e, e->in[1], dt_of(e, 1), BYOC_DT_INT64, NULL);
    vl = reshape(e, vl, vshape, t->rank, NULL);
    const char *keep = bin(e, "Less", p, vl, NULL);
    mk(e, "Where", Y0, keep, e->in[0], scalar(e, t->dtype, a_float(e, "mask_value", 0)));
    return 0;
}

/* TopK of k (0 or less: the whole axis) along axis; the values and the
 * indices (int64) get names *v and *i. */
static int topk_node(ex *e, int64_t k, int axis, bool largest, const char *v, const char *i)
{
    const byoc_tensor_type *t = e->it[0];
    TRY(need(e, 10, "TopK"));
    if (!largest)
        TRY(need(e, 11, "TopK of the smallest"));
    const char *kk;
    if (k > 0)
        kk = i64s(e, &k, 1);
    else if (t->dims[axis] >= 0)
        kk = i64s(e, &t->dims[axis], 1);
    else {
        int64_t a = axis;
        const char *shape = un(e, "Shape", e->in[0], NULL);
        kk = bin(e, "Gather", shape, i64s(e, &a, 1), NULL);
    }
    const char *in[2] = {e->in[0], kk}, *outs[2] = {v, i};
    Onnx__NodeProto *n = bx_ob_node(e->b, "TopK", "", in, 2, outs, 2);
    bx_ob_attr_int(e->b, n, "axis", axis);
    if (e->opset >= 11) {
        bx_ob_attr_int(e->b, n, "largest", largest);
        bx_ob_attr_int(e->b, n, "sorted", 1);
    }
    return 0;
}

static byoc_dtype index_dtype(ex *e)
{
    byoc_dtype d = a_dtype(e, "dtype");
    return d != BYOC_DT_VOID ? d : BYOC_DT_INT32;
}

static int em_topk(ex *e)
{
    int axis;
    TRY(axis_of(e, a_int(e, "axis", -1), rank_of(e, 0), &axis));
    const char *ret = a_str(e, "ret_type", "both");
    bool both = strcmp(ret, "both") == 0, values = strcmp(ret, "values") == 0;
    if (!both && !values && strcmp(ret, "indices") != 0)
        return fail(e, "with ret_type '%s'", ret);
    const char *v = both || values ? out_name(e, 0) : T(e);
    const char *i = T(e);
    TRY(topk_node(e, a_int(e, "k", 1), axis, !a_bool(e, "is_ascend", false), v, i));
    if (both || !values)
        cast(e, i, BYOC_DT_INT64, index_dtype(e), out_name(e, both ? 1 : 0));
    return 0;
}

static int em_sort(ex *e)
{
    int axis;
    TRY(axis_of(e, a_int(e, "axis", -1), rank_of(e, 0), &axis));
    bool argsort = strcmp(e->op, "argsort") == 0;
    const char *v = argsort ? T(e) : Y0, *i = T(e);
    TRY(topk_node(e, 0, axis, !a_bool(e, "is_ascend", true), v, i));
    if (argsort)
        cast(e, i, BYOC_DT_INT64, index_dtype(e), Y0);
    return 0;
}

/* ---- reductions ---------------------------------------------------------------- */

/* The reduced axes of a Relay reduction: `axis` (none: all), or with
 * exclude the others.  *n = -1 for all axes; 0 for none (exclude of every
 * axis). */
static int reduce_axes(ex *e, int64_t *axes, int *n)
{
    int r = rank_of(e, 0);
    int64_t given[MAXL];
    int k = a_ints(e, "axis", given, MAXL);
    if (k == -2)
        return -1;
    bool exclude = a_bool(e, "exclude", false);
    /* No axis, or an empty list, is every axis, with exclude too (TVM's
     * GetReduceAxes). */
    if (k <= 0) {
        *n = -1;
        return 0;
    }
    if (r < 0)
        return fail(e, "needs the rank of its input");
    bool in[BYOC_MAX_RANK] = {false};
    for (int i = 0; i < k; i++) {
        int a;
        TRY(axis_of(e, given[i], r, &a));
        in[a] = true;
    }
    *n = 0;
    for (int i = 0; i < r; i++)
        if (in[i] != exclude)
            axes[(*n)++] = i;
    if (*n == r)
        *n = -1;
    return 0;
}

/* sum, mean, max, min, prod; all and any as the min and max of the
 * booleans in int32. */
static int em_reduce(ex *e)
{
    int64_t axes[BYOC_MAX_RANK];
    int n;
    TRY(reduce_axes(e, axes, &n));
    bool keep = a_bool(e, "keepdims", false);
    const char *y = Y0;
    if (n == 0) {
        un(e, "Identity", e->in[0], y);
        return 0;
    }
    if (e->onnx) {
        reduce(e, e->onnx, e->in[0], axes, n, keep, y);
        return 0;
    }
    bool all = strcmp(e->op, "all") == 0;
    byoc_dtype dt = dt_of(e, 0);
    const char *x = cast(e, e->in[0], dt, BYOC_DT_INT32, NULL);
    x = reduce(e, all ? "ReduceMin" : "ReduceMax", x, axes, n, keep, NULL);
    cast(e, x, BYOC_DT_INT32, BYOC_DT_BOOL, y);
    return 0;
}

/* variance(data, mean): the mean of (data - mean)^2 over the axes, divided
 * by N - 1 when unbiased (N from the static sizes). */
static int em_variance(ex *e)
{
    int64_t axes[BYOC_MAX_RANK];
    int n;
    TRY(reduce_axes(e, axes, &n));
    bool keep = a_bool(e, "keepdims", false);
    const byoc_tensor_type *t = e->it[0];
    const char *d = bin(e, "Sub", e->in[0], e->in[1], NULL);
    const char *sq = bin(e, "Mul", d, d, NULL);
    if (!a_bool(e, "unbiased", false)) {
        reduce(e, "ReduceMean", sq, axes, n, keep, Y0);
        return 0;
    }
    int64_t count = 1;
    for (int i = 0; i < (n < 0 ? t->rank : n); i++) {
        int64_t dim = t->dims[n < 0 ? i : axes[i]];
        if (dim < 0)
            return fail(e, "unbiased needs the sizes of the reduced axes");
        count *= dim;
    }
    const char *s = reduce(e, "ReduceSum", sq, axes, n, keep, NULL);
    bin(e, "Div", s, scalar(e, t->dtype, (double)(count - 1)), Y0);
    return 0;
}

/* argmax, argmin: ONNX's take one axis; none flattens first.  Relay's are
 * int32. */
static int em_argreduce(ex *e)
{
    int64_t axes[BYOC_MAX_RANK];
    int n;
    TRY(reduce_axes(e, axes, &n));
    bool keep = a_bool(e, "keepdims", false), last = a_bool(e, "select_last_index", false);
    const char *x = e->in[0];
    int r = rank_of(e, 0);
    int axis;
    if (n < 0 && r != 1) {
        int64_t flat = -1;
        x = reshape(e, x, &flat, 1, NULL);
        axis = 0;
    } else if (n < 0 || n == 1) {
        axis = n < 0 ? 0 : (int)axes[0];
    } else {
        return fail(e, "over %d axes has no ONNX form", n);
    }
    if (last)
        TRY(need(e, 12, "select_last_index"));
    Onnx__NodeProto *a = mk(e, e->onnx, NULL, x, NULL, NULL);
    bx_ob_attr_int(e->b, a, "axis", axis);
    bx_ob_attr_int(e->b, a, "keepdims", keep && !(n < 0 && r != 1));
    if (last)
        bx_ob_attr_int(e->b, a, "select_last_index", 1);
    const char *idx = OUT(a);
    byoc_dtype dt = out_dtype(e, BYOC_DT_INT32);
    if (n < 0 && r != 1 && keep) {
        if (r < 0)
            return fail(e, "needs the rank of its input");
        int64_t ones[BYOC_MAX_RANK];
        for (int i = 0; i < r; i++)
            ones[i] = 1;
        idx = reshape(e, idx, ones, r, NULL);
    }
    cast(e, idx, BYOC_DT_INT64, dt, Y0);
    return 0;
}

/* ---- layouts --------------------------------------------------------------------- */

static const char *spatial_letters(int nd) { return nd == 1 ? "W" : nd == 2 ? "HW" : "DHW"; }

/* perm[i]: the axis of `from` that is axis i of `to`; false unless both
 * are the same distinct uppercase letters. */
static bool layout_perm(const char *from, const char *to, int64_t *perm)
{
    size_t n = strlen(from);
    if (n != strlen(to) || n > BYOC_MAX_RANK)
        return false;
    for (size_t i = 0; i < n; i++) {
        const char *p = strchr(from, to[i]);
        if (!isupper((unsigned char)to[i]) || !p || strchr(p + 1, to[i]))
            return false;
        perm[i] = p - from;
    }
    return true;
}

/* x laid out in `layout` as laid out in `canon`. */
static int to_layout(ex *e, const char **x, const char *layout, const char *canon, const char *what)
{
    if (strcmp(layout, canon) == 0)
        return 0;
    int64_t perm[BYOC_MAX_RANK];
    if (!layout_perm(layout, canon, perm))
        return fail(e, "with %s '%s' has no ONNX form", what, layout);
    *x = transpose(e, *x, perm, (int)strlen(canon), NULL);
    return 0;
}

/* The node writing y in `canon`, for an output laid out in `layout`: y
 * itself, or a fresh name then transposed into y. */
static const char *from_layout(ex *e, const char *y, const char *layout, const char *canon,
                               const char **tmp)
{
    *tmp = strcmp(layout, canon) == 0 ? y : T(e);
    return *tmp;
}

static int finish_layout(ex *e, const char *t, const char *y, const char *layout, const char *canon,
                         const char *what)
{
    if (t == y)
        return 0;
    int64_t perm[BYOC_MAX_RANK];
    if (!layout_perm(canon, layout, perm))
        return fail(e, "with %s '%s' has no ONNX form", what, layout);
    transpose(e, t, perm, (int)strlen(canon), y);
    return 0;
}

/* Window attributes of convolutions and pools, one value per spatial axis
 * (pads: befores then afters, ONNX's order and TVM's normalised one). */
typedef struct win {
    int nd;
    int64_t strides[3], dilation[3], pads[6];
} win;

static int per_axis(ex *e, const char *name, int nd, int64_t def, int64_t *v)
{
    int64_t raw[MAXL];
    int n = a_ints(e, name, raw, MAXL);
    if (n == -2)
        return -1;
    if (n >= 0 && n != 1 && n != nd)
        return fail(e, "attribute '%s' has %d values for %d spatial axes", name, n, nd);
    for (int i = 0; i < nd; i++)
        v[i] = n < 0 ? def : n == 1 ? raw[0] : raw[i];
    return 0;
}

static int read_window(ex *e, int nd, win *w)
{
    w->nd = nd;
    TRY(per_axis(e, "strides", nd, 1, w->strides));
    TRY(per_axis(e, "dilation", nd, 1, w->dilation));
    int64_t p[MAXL];
    int n = a_ints(e, "padding", p, MAXL);
    if (n == -2)
        return -1;
    if (n >= 0 && n != 1 && n != nd && n != 2 * nd)
        return fail(e, "attribute 'padding' has %d values for %d spatial axes", n, nd);
    for (int i = 0; i < nd; i++) {
        w->pads[i] = n < 0 ? 0 : n == 1 ? p[0] : p[i];
        w->pads[nd + i] = n < 0 ? 0 : n == 1 ? p[0] : n == nd ? p[i] : p[nd + i];
    }
    return 0;
}

static void window_attrs(ex *e, Onnx__NodeProto *n, const win *w, bool dilations)
{
    if (dilations)
        bx_ob_attr_ints(e->b, n, "dilations", w->dilation, (size_t)w->nd);
    bx_ob_attr_ints(e->b, n, "pads", w->pads, 2 * (size_t)w->nd);
    bx_ob_attr_ints(e->b, n, "strides", w->strides, (size_t)w->nd);
}

/* ---- convolutions and products --------------------------------------------------- */

/* The dtype the product is computed in (out_dtype, else the output's):
 * *cast_to the inputs' common float dtype to cast to (VOID: none), or
 * *integer for 8-bit inputs accumulated in int32. */
static int product_dtype(ex *e, byoc_dtype *cast_to, bool *integer)
{
    byoc_dtype a = dt_of(e, 0), b = dt_of(e, 1), od = a_dtype(e, "out_dtype");
    if (od == BYOC_DT_VOID)
        od = otype(e)->dtype;
    *cast_to = BYOC_DT_VOID;
    *integer = false;
    if (od == BYOC_DT_VOID || (od == a && od == b))
        return 0;
    if (is_float(od) && is_float(a) && is_float(b)) {
        *cast_to = od;
        return 0;
    }
    if (is_q8(a) && is_q8(b) && od == BYOC_DT_INT32) {
        *integer = true;
        return 0;
    }
    return fail(e, "of %s and %s into %s has no ONNX form", byoc_dtype_name(a), byoc_dtype_name(b),
                byoc_dtype_name(od));
}

/* A zero point (argument i) in dtype dt, as ONNX's quantized ops want it:
 * a fresh initializer when its value is known, else a Cast. */
static const char *zp_as(ex *e, int i, byoc_dtype dt)
{
    if (dt_of(e, i) == dt)
        return e->in[i];
    int64_t v[MAXL];
    int n;
    if (const_ints(e, i, v, MAXL, &n) && rank_of(e, i) <= 1 && (rank_of(e, i) == 1 || n == 1)) {
        int64_t dim = n;
        return bx_ob_add_init(
            e->b, bx_ob_tensor(e->b, NULL, dt, &dim, rank_of(e, i), v, NULL, (size_t)n));
    }
    return cast(e, e->in[i], dt_of(e, i), dt, NULL);
}

/* Whether argument i is a known zero (or all zeros). */
static bool known_zero(ex *e, int i)
{
    int64_t v[MAXL];
    int n;
    if (!const_ints(e, i, v, MAXL, &n))
        return false;
    for (int k = 0; k < n; k++)
        if (v[k] != 0)
            return false;
    return true;
}

/* Whether argument i (a scale or zero point) has one value per channel;
 * a one-element list is a scalar, which ONNX's per-tensor form wants. */
static bool per_channel(ex *e, int i)
{
    const byoc_tensor_type *t = e->it[i];
    return t->rank >= 1 && !(t->rank == 1 && t->dims[0] == 1);
}

static const char *as_scalar(ex *e, int i, const char *x)
{
    const byoc_tensor_type *t = e->it[i];
    return t->rank == 1 && t->dims[0] == 1 ? reshape(e, x, NULL, 0, NULL) : x;
}

/* A zero point in dtype dt, and a scale in float32, shaped so. */
static const char *qzp(ex *e, int i, byoc_dtype dt) { return as_scalar(e, i, zp_as(e, i, dt)); }

static const char *qscale(ex *e, int i)
{
    return as_scalar(e, i, cast(e, e->in[i], dt_of(e, i), BYOC_DT_FLOAT32, NULL));
}

/* nn.conv1d/2d/3d, their transposes, and qnn.conv2d (ConvInteger, its
 * zero points in the inputs' dtypes; the scales only matter to the
 * requantize after it). */
static int em_conv(ex *e)
{
    bool q = strncmp(e->op, "qnn.", 4) == 0;
    const char *base = q ? e->op + 4 : e->op + 3; /* "conv2d..." */
    int nd = base[4] - '0';
    bool tr = strstr(base, "_transpose") != NULL;
    if (q && tr)
        return fail(e, "has no ONNX form (ONNX has no integer ConvTranspose)");
    char dcanon[8], kcanon[8];
    snprintf(dcanon, sizeof dcanon, "NC%s", spatial_letters(nd));
    snprintf(kcanon, sizeof kcanon, "%s%s", tr ? "IO" : "OI", spatial_letters(nd));
    const char *dl = a_str(e, "data_layout", dcanon), *kl = a_str(e, "kernel_layout", kcanon);
    const char *ol = a_str(e, "out_layout", "");
    if (!ol[0])
        ol = dl;
    int64_t perm[BYOC_MAX_RANK];
    if (!layout_perm(dl, dcanon, perm))
        return fail(e, "with data_layout '%s' has no ONNX form", dl);
    if (!layout_perm(kl, kcanon, perm))
        return fail(e, "with kernel_layout '%s' has no ONNX form", kl);
    if (!layout_perm(ol, dcanon, perm))
        return fail(e, "with out_layout '%s' has no ONNX form", ol);
    if (rank_of(e, 0) >= 0 && rank_of(e, 0) != nd + 2)
        return fail(e, "on a tensor of rank %d", rank_of(e, 0));
    win w;
    TRY(read_window(e, nd, &w));
    int64_t groups = a_int(e, "groups", 1);
    byoc_dtype cast_to = BYOC_DT_VOID;
    bool integer = q;
    if (!q)
        TRY(product_dtype(e, &cast_to, &integer));
    if (integer && tr)
        return fail(e, "of 8-bit integers has no ONNX form");
    if (integer)
        TRY(need(e, 10, "ConvInteger"));
    const char *x = e->in[0], *k = e->in[1];
    TRY(to_layout(e, &x, dl, dcanon, "data_layout"));
    TRY(to_layout(e, &k, kl, kcanon, "kernel_layout"));
    /* The kernel, in ONNX's layout, must have C_in / groups input channels
     * (TVM's depthwise HWOI kernels of a multiplier above 1 do not). */
    const byoc_tensor_type *kt = e->it[1], *xt = e->it[0];
    if (!tr && kt->rank == nd + 2 && xt->rank == nd + 2) {
        int64_t kperm[BYOC_MAX_RANK], dperm[BYOC_MAX_RANK];
        if (layout_perm(kl, kcanon, kperm) && layout_perm(dl, dcanon, dperm)) {
            int64_t kin = kt->dims[kperm[1]], cin = xt->dims[dperm[1]];
            if (kin >= 0 && cin >= 0 && groups > 0 && kin * groups != cin)
                return fail(e,
                            "with a kernel of %lld input channels for %lld channels in %lld "
                            "groups has no ONNX form",
                            (long long)kin, (long long)cin, (long long)groups);
        }
    }
    if (cast_to != BYOC_DT_VOID) {
        x = cast(e, x, dt_of(e, 0), cast_to, NULL);
        k = cast(e, k, dt_of(e, 1), cast_to, NULL);
    }
    const char *y = Y0, *t;
    from_layout(e, y, ol, dcanon, &t);
    byoc_dtype od = otype(e)->dtype;
    bool recast = integer && od != BYOC_DT_VOID && od != BYOC_DT_INT32;
    const char *cy = recast ? T(e) : t;
    Onnx__NodeProto *n;
    if (integer) {
        const char *in[4] = {x, k, NULL, NULL};
        if (q) {
            in[2] = qzp(e, 2, dt_of(e, 0));
            in[3] = qzp(e, 3, dt_of(e, 1));
        }
        n = mkn(e, "ConvInteger", "", in, q ? 4 : 2, cy);
    } else {
        n = mk(e, tr ? "ConvTranspose" : "Conv", cy, x, k, NULL);
    }
    window_attrs(e, n, &w, true);
    bx_ob_attr_int(e->b, n, "group", groups);
    if (tr) {
        int64_t op[3];
        TRY(per_axis(e, "output_padding", nd, 0, op));
        bool any = false;
        for (int i = 0; i < nd; i++)
            any |= op[i] != 0;
        if (any)
            bx_ob_attr_ints(e->b, n, "output_padding", op, (size_t)nd);
    }
    if (recast)
        cast(e, cy, BYOC_DT_INT32, od, t);
    return finish_layout(e, t, y, ol, dcanon, "out_layout");
}

/* The last two axes of a tensor of rank r swapped. */
static const char *swap_last(ex *e, const char *x, int r)
{
    int64_t perm[BYOC_MAX_RANK];
    for (int i = 0; i < r; i++)
        perm[i] = i;
    perm[r - 2] = r - 1;
    perm[r - 1] = r - 2;
    return transpose(e, x, perm, r, NULL);
}

/* A MatMul of a and b (their dtypes da, db) into the call's output: in
 * the float dtype cast_to, or as MatMulInteger (zero points azp, bzp, or
 * NULL). */
static int matmul_out(ex *e, const char *a, const char *b, byoc_dtype cast_to, bool integer,
                      const char *azp, const char *bzp)
{
    const char *y = Y0;
    if (integer) {
        TRY(need(e, 10, "MatMulInteger"));
        byoc_dtype od = otype(e)->dtype;
        bool recast = od != BYOC_DT_VOID && od != BYOC_DT_INT32;
        const char *in[4] = {a, b, azp ? azp : "", bzp};
        Onnx__NodeProto *n = mkn(e, "MatMulInteger", "", in,
                                 bzp   ? 4
                                 : azp ? 3
                                       : 2,
                                 recast ? NULL : y);
        if (recast)
            cast(e, OUT(n), BYOC_DT_INT32, od, y);
        return 0;
    }
    if (cast_to != BYOC_DT_VOID) {
        a = cast(e, a, dt_of(e, 0), cast_to, NULL);
        b = cast(e, b, dt_of(e, 1), cast_to, NULL);
    }
    bin(e, "MatMul", a, b, y);
    return 0;
}

/* nn.dense(data, weight[units, in]) and qnn.dense: Gemm with transB for
 * 2-D data, else MatMul by the transposed weight. */
static int em_dense(ex *e)
{
    bool q = strncmp(e->op, "qnn.", 4) == 0;
    int r = rank_of(e, 0);
    if (rank_of(e, 1) != 2)
        return fail(e, "needs a 2-D weight");
    byoc_dtype cast_to = BYOC_DT_VOID, dt = dt_of(e, 0);
    bool integer = q;
    if (!q)
        TRY(product_dtype(e, &cast_to, &integer));
    const char *w = e->in[1];
    int64_t perm[2] = {1, 0};
    byoc_dtype ct = cast_to != BYOC_DT_VOID ? cast_to : dt;
    bool gemm_type = ct == BYOC_DT_FLOAT32 || ct == BYOC_DT_FLOAT16 || ct == BYOC_DT_FLOAT64
                     || ct == BYOC_DT_INT32 || ct == BYOC_DT_INT64 || ct == BYOC_DT_UINT32
                     || ct == BYOC_DT_UINT64 || (ct == BYOC_DT_BFLOAT16 && e->opset >= 13);
    if (!integer && r == 2 && e->opset >= 11 && gemm_type) {
        const char *a = cast(e, e->in[0], dt, ct, NULL);
        w = cast(e, w, dt_of(e, 1), ct, NULL);
        Onnx__NodeProto *n = mk(e, "Gemm", Y0, a, w, NULL);
        bx_ob_attr_int(e->b, n, "transB", 1);
        return 0;
    }
    w = transpose(e, w, perm, 2, NULL);
    const char *azp = q ? qzp(e, 2, dt_of(e, 0)) : NULL;
    const char *bzp = q ? qzp(e, 3, dt_of(e, 1)) : NULL;
    return matmul_out(e, e->in[0], w, cast_to, integer, azp, bzp);
}

/* nn.matmul, nn.batch_matmul, qnn.batch_matmul: transpose_a and
 * transpose_b swap the last two axes. */
static int em_matmul(ex *e)
{
    bool q = strncmp(e->op, "qnn.", 4) == 0;
    int ra = rank_of(e, 0), rb = rank_of(e, 1);
    bool ta = a_bool(e, "transpose_a", false), tb = a_bool(e, "transpose_b", false);
    if ((ta && ra < 2) || (tb && rb < 2))
        return fail(e, "needs the ranks of its inputs");
    byoc_dtype cast_to = BYOC_DT_VOID;
    bool integer = q;
    if (!q)
        TRY(product_dtype(e, &cast_to, &integer));
    const char *a = ta ? swap_last(e, e->in[0], ra) : e->in[0];
    const char *b = tb ? swap_last(e, e->in[1], rb) : e->in[1];
    const char *azp = q ? qzp(e, 2, dt_of(e, 0)) : NULL;
    const char *bzp = q ? qzp(e, 3, dt_of(e, 1)) : NULL;
    return matmul_out(e, a, b, cast_to, integer, azp, bzp);
}

/* ---- pools ------------------------------------------------------------------------ */

/* The spatial count of a pool op's name ("nn.max_pool2d": 2). */
static int op_nd(const char *op)
{
    size_t n = strlen(op);
    return n >= 2 && op[n - 1] == 'd' && op[n - 2] >= '1' && op[n - 2] <= '3' ? op[n - 2] - '0' : 2;
}

/* Integer data pool in float32 and cast back, which truncates an average
 * as TVM's integer division does: exact while the sums stay below 2^24, as
 * those of 8-bit data do (ONNX Runtime's AveragePool takes no float64);
 * a max of 64-bit integers in float64. */
static byoc_dtype pool_dtype(byoc_dtype dt, bool avg)
{
    if (is_float(dt))
        return dt;
    return byoc_dtype_bits(dt) <= 32 || avg ? BYOC_DT_FLOAT32 : BYOC_DT_FLOAT64;
}

/* ONNX (ONNX Runtime, PyTorch) drops a last window in ceil mode that
 * starts in the right padding; TVM keeps it. */
static int check_ceil(ex *e, const win *w, const int64_t *kernel, const byoc_tensor_type *xt,
                      const int64_t *dperm)
{
    for (int i = 0; i < w->nd; i++) {
        int64_t in = xt->rank == w->nd + 2 ? xt->dims[dperm[2 + i]] : -1;
        if (in < 0)
            return fail(e, "with ceil_mode needs the input's spatial sizes");
        int64_t span = in + w->pads[i] + w->pads[w->nd + i] - w->dilation[i] * (kernel[i] - 1) - 1;
        int64_t out = (span + w->strides[i] - 1) / w->strides[i] + 1;
        if ((out - 1) * w->strides[i] >= in + w->pads[i])
            return fail(e, "with ceil_mode and a last window in the padding has no ONNX form");
    }
    return 0;
}

static int pool_core(ex *e, bool avg, int nd, const int64_t *kernel, const win *w, bool ceil_mode,
                     bool count_pad)
{
    char canon[8];
    snprintf(canon, sizeof canon, "NC%s", spatial_letters(nd));
    const char *layout = a_str(e, "layout", canon), *ol = a_str(e, "out_layout", "");
    if (!ol[0])
        ol = layout;
    bool dil = false;
    for (int i = 0; i < nd; i++)
        dil |= w->dilation[i] != 1;
    if (ceil_mode)
        TRY(need(e, 10, "pools' ceil_mode"));
    if (dil)
        TRY(need(e, avg ? 19 : 10, avg ? "AveragePool's dilations" : "MaxPool's dilations"));
    int64_t dperm[BYOC_MAX_RANK];
    if (!layout_perm(layout, canon, dperm))
        return fail(e, "with layout '%s' has no ONNX form", layout);
    if (ceil_mode)
        TRY(check_ceil(e, w, kernel, e->it[0], dperm));
    byoc_dtype dt = dt_of(e, 0), pd = pool_dtype(dt, avg);
    if (!avg && (dt == BYOC_DT_INT8 || dt == BYOC_DT_UINT8) && e->opset >= 12)
        pd = dt;
    const char *x = e->in[0];
    TRY(to_layout(e, &x, layout, canon, "layout"));
    x = cast(e, x, dt, pd, NULL);
    const char *y = Y0, *t;
    from_layout(e, y, ol, canon, &t);
    const char *py = pd != dt ? T(e) : t;
    Onnx__NodeProto *n = mk(e, avg ? "AveragePool" : "MaxPool", py, x, NULL, NULL);
    if (ceil_mode)
        bx_ob_attr_int(e->b, n, "ceil_mode", 1);
    if (avg)
        bx_ob_attr_int(e->b, n, "count_include_pad", count_pad);
    window_attrs(e, n, w, dil);
    bx_ob_attr_ints(e->b, n, "kernel_shape", kernel, (size_t)nd);
    if (pd != dt)
        cast(e, py, pd, dt, t);
    return finish_layout(e, t, y, ol, canon, "out_layout");
}

/* nn.max_pool1d/2d/3d, nn.avg_pool1d/2d/3d (count_include_pad, ceil_mode). */
static int em_pool(ex *e)
{
    int nd = op_nd(e->op);
    bool avg = strstr(e->op, "avg") != NULL;
    win w;
    int64_t kernel[3];
    TRY(read_window(e, nd, &w));
    TRY(per_axis(e, "pool_size", nd, 1, kernel));
    return pool_core(e, avg, nd, kernel, &w, a_bool(e, "ceil_mode", false),
                     a_bool(e, "count_include_pad", false));
}

/* nn.global_avg_pool2d, nn.global_max_pool2d: the global pool in NCHW,
 * else a reduction over the spatial axes of the layout. */
static int em_global_pool(ex *e)
{
    bool avg = strstr(e->op, "avg") != NULL;
    const char *layout = a_str(e, "layout", "NCHW"), *ol = a_str(e, "out_layout", "");
    if (ol[0] && strcmp(ol, layout) != 0)
        return fail(e, "with out_layout '%s' has no ONNX form", ol);
    byoc_dtype dt = dt_of(e, 0), pd = pool_dtype(dt, avg);
    if (!avg && is_q8(dt) && e->opset >= 12)
        pd = dt;
    const char *x = cast(e, e->in[0], dt, pd, NULL), *y = Y0;
    const char *py = pd != dt ? T(e) : y;
    if (strcmp(layout, "NCHW") == 0) {
        un(e, avg ? "GlobalAveragePool" : "GlobalMaxPool", x, py);
    } else {
        int64_t perm[4], axes[2];
        if (!layout_perm(layout, "NCHW", perm))
            return fail(e, "with layout '%s' has no ONNX form", layout);
        axes[0] = perm[2];
        axes[1] = perm[3];
        if (axes[0] > axes[1]) {
            int64_t s = axes[0];
            axes[0] = axes[1];
            axes[1] = s;
        }
        reduce(e, avg ? "ReduceMean" : "ReduceMax", x, axes, 2, true, py);
    }
    if (pd != dt)
        cast(e, py, pd, dt, y);
    return 0;
}

/* nn.adaptive_{avg,max}_pool{1,2,3}d: output sizes that divide the input's
 * are a pool of window and stride in / out (TVM's adaptive windows are
 * then exactly those); others have no ONNX form. */
static int em_adaptive_pool(ex *e)
{
    int nd = op_nd(e->op);
    bool avg = strstr(e->op, "avg") != NULL;
    char canon[8];
    snprintf(canon, sizeof canon, "NC%s", spatial_letters(nd));
    const char *layout = a_str(e, "layout", canon);
    int64_t perm[BYOC_MAX_RANK], osz[MAXL];
    if (!layout_perm(layout, canon, perm))
        return fail(e, "with layout '%s' has no ONNX form", layout);
    int n = a_ints(e, "output_size", osz, MAXL);
    if (n == -2)
        return -1;
    if (n > 1 && n != nd)
        return fail(e, "with %d output sizes", n);
    const byoc_tensor_type *t = e->it[0];
    win w = {.nd = nd};
    int64_t kernel[3];
    for (int i = 0; i < nd; i++) {
        int64_t in = t->rank == nd + 2 ? t->dims[perm[2 + i]] : -1;
        int64_t out = n <= 0 ? in : n == 1 ? osz[0] : osz[i];
        if (in < 0 || out <= 0 || in % out)
            return fail(e, "to sizes that do not divide the input's has no ONNX form");
        kernel[i] = w.strides[i] = in / out;
        w.dilation[i] = 1;
        w.pads[i] = w.pads[nd + i] = 0;
    }
    return pool_core(e, avg, nd, kernel, &w, false, false);
}

/* ---- padding ------------------------------------------------------------------------ */

/* nn.pad(data, pad_value) and nn.mirror_pad: Pad with pads, befores then
 * afters; attributes (and a constant pad value) before opset 11. */
static int em_pad(ex *e)
{
    const byoc_value *pw = A(e, "pad_width");
    int r = rank_of(e, 0);
    if (!pw || pw->kind != BYOC_V_LIST)
        return fail(e, "needs pad_width");
    int n = (int)pw->u.list.n;
    if (n > BYOC_MAX_RANK || (r >= 0 && n != r))
        return fail(e, "with %d pad widths for rank %d", n, r);
    int64_t pads[2 * BYOC_MAX_RANK];
    for (int i = 0; i < n; i++) {
        int64_t two[2];
        if (list_ints(&pw->u.list.items[i], two, 2) != 2)
            return fail(e, "with a pad width that is not a pair");
        pads[i] = two[0];
        pads[n + i] = two[1];
    }
    bool mirror = strcmp(e->op, "nn.mirror_pad") == 0;
    const char *mode = mirror ? a_str(e, "mode", "SYMMETRIC") : a_str(e, "pad_mode", "constant");
    const char *omode;
    if (mirror)
        omode = strcmp(mode, "REFLECT") == 0 ? "reflect" : NULL;
    else
        omode = strcmp(mode, "constant") == 0 || strcmp(mode, "edge") == 0
                        || strcmp(mode, "reflect") == 0
                    ? mode
                    : NULL;
    if (!omode)
        return fail(e, "with mode '%s' has no ONNX form", mode);
    bool constant = strcmp(omode, "constant") == 0;
    Onnx__NodeProto *p;
    if (e->opset >= 11) {
        const char *in[3] = {e->in[0], i64s(e, pads, 2 * (size_t)n), NULL};
        if (constant && !mirror)
            in[2] = cast(e, e->in[1], dt_of(e, 1), dt_of(e, 0), NULL);
        p = mkn(e, "Pad", "", in, in[2] ? 3 : 2, Y0);
    } else {
        double v = 0;
        if (constant && !mirror && !const_float(e, 1, &v))
            return fail(e, "with a pad value not known before opset 11 has no ONNX form");
        p = mk(e, "Pad", Y0, e->in[0], NULL, NULL);
        bx_ob_attr_ints(e->b, p, "pads", pads, 2 * (size_t)n);
        if (constant)
            bx_ob_attr_float(e->b, p, "value", v);
    }
    bx_ob_attr_string(e->b, p, "mode", omode);
    return 0;
}

/* ---- softmax, normalisation ------------------------------------------------------------ */

/* nn.softmax, nn.fast_softmax, nn.log_softmax along `axis`: before opset
 * 13 ONNX's flatten from the axis, which is the same along the last axis
 * only; another axis is swapped to the end and back. */
static int em_softmax(ex *e)
{
    const char *op = strstr(e->op, "log_") ? "LogSoftmax" : "Softmax";
    int r = rank_of(e, 0), axis;
    TRY(axis_of(e, a_int(e, "axis", -1), r, &axis));
    const char *y = Y0;
    if (e->opset >= 13 || axis == r - 1) {
        Onnx__NodeProto *n = mk(e, op, y, e->in[0], NULL, NULL);
        bx_ob_attr_int(e->b, n, "axis", axis);
        return 0;
    }
    int64_t perm[BYOC_MAX_RANK];
    for (int i = 0; i < r; i++)
        perm[i] = i;
    perm[axis] = r - 1;
    perm[r - 1] = axis;
    Onnx__NodeProto *n = mk(e, op, NULL, transpose(e, e->in[0], perm, r, NULL), NULL, NULL);
    bx_ob_attr_int(e->b, n, "axis", r - 1);
    transpose(e, OUT(n), perm, r, y);
    return 0;
}

/* (x - mean) / sqrt(var + eps) over `axes` (keepdims), then gamma and beta
 * along `axis` when scale and center: TVM's SimplifyInference of
 * layer_norm, instance_norm and group_norm. */
static const char *normalize(ex *e, const char *x, byoc_dtype dt, const int64_t *axes, int n,
                             double eps, const char *y)
{
    const char *m = reduce(e, "ReduceMean", x, axes, n, true, NULL);
    const char *d = bin(e, "Sub", x, m, NULL);
    const char *v = reduce(e, "ReduceMean", bin(e, "Mul", d, d, NULL), axes, n, true, NULL);
    const char *s = un(e, "Sqrt", bin(e, "Add", v, scalar(e, dt, eps), NULL), NULL);
    return bin(e, "Div", d, s, y);
}

static int scale_shift(ex *e, const char *x, int r, int axis, int gi, int bi, bool scale,
                       bool center, const char *y)
{
    if (scale)
        x = bin(e, "Mul", x, chan_bcast(e, e->in[gi], rank_of(e, gi), r, axis), center ? NULL : y);
    if (center)
        x = bin(e, "Add", x, chan_bcast(e, e->in[bi], rank_of(e, bi), r, axis), y);
    if (!scale && !center)
        ident(e, x, y);
    return 0;
}

static int em_layer_norm(ex *e)
{
    int r = rank_of(e, 0), axis;
    TRY(axis_of(e, a_int(e, "axis", -1), r, &axis));
    double eps = a_float(e, "epsilon", 1e-5);
    bool scale = a_bool(e, "scale", true), center = a_bool(e, "center", true);
    const char *y = Y0;
    if (e->opset >= 17 && axis == r - 1 && scale && rank_of(e, 1) == 1
        && (!center || rank_of(e, 2) == 1)) {
        Onnx__NodeProto *n =
            mk(e, "LayerNormalization", y, e->in[0], e->in[1], center ? e->in[2] : NULL);
        bx_ob_attr_int(e->b, n, "axis", -1);
        bx_ob_attr_float(e->b, n, "epsilon", eps);
        return 0;
    }
    int64_t ax = axis;
    bool last = scale || center;
    const char *nx = normalize(e, e->in[0], dt_of(e, 0), &ax, 1, eps, last ? NULL : y);
    return last ? scale_shift(e, nx, r, axis, 1, 2, scale, center, y) : 0;
}

static int em_instance_norm(ex *e)
{
    int r = rank_of(e, 0), axis;
    TRY(axis_of(e, a_int(e, "axis", 1), r, &axis));
    double eps = a_float(e, "epsilon", 1e-5);
    bool scale = a_bool(e, "scale", true), center = a_bool(e, "center", true);
    const char *y = Y0;
    if (axis == 1 && scale && center && r >= 3) {
        Onnx__NodeProto *n = mk(e, "InstanceNormalization", y, e->in[0], e->in[1], e->in[2]);
        bx_ob_attr_float(e->b, n, "epsilon", eps);
        return 0;
    }
    int64_t axes[BYOC_MAX_RANK];
    int n = 0;
    for (int i = 1; i < r; i++)
        if (i != axis)
            axes[n++] = i;
    bool last = scale || center;
    const char *nx = normalize(e, e->in[0], dt_of(e, 0), axes, n, eps, last ? NULL : y);
    return last ? scale_shift(e, nx, r, axis, 1, 2, scale, center, y) : 0;
}

/* nn.group_norm: the channels (axis 1) in num_groups groups, each
 * normalised over its channels and the spatial axes. */
static int em_group_norm(ex *e)
{
    int r = rank_of(e, 0), axis;
    TRY(axis_of(e, a_int(e, "axis", 1), r, &axis));
    if (axis != 1 || r < 2)
        return fail(e, "along axis %d has no ONNX form", axis);
    int64_t groups = a_int(e, "num_groups", 0);
    if (groups < 1)
        return fail(e, "with num_groups %lld", (long long)groups);
    double eps = a_float(e, "epsilon", 1e-5);
    bool scale = a_bool(e, "scale", true), center = a_bool(e, "center", true);
    int64_t shape[3] = {0, groups, -1}, ax = 2;
    const char *g = reshape(e, e->in[0], shape, 3, NULL);
    const char *nx = normalize(e, g, dt_of(e, 0), &ax, 1, eps, NULL);
    const char *y = Y0;
    bool last = scale || center;
    nx = bin(e, "Reshape", nx, un(e, "Shape", e->in[0], NULL), last ? NULL : y);
    return last ? scale_shift(e, nx, r, 1, 1, 2, scale, center, y) : 0;
}

/* nn.batch_norm(data, gamma, beta, mean, var): BatchNormalization along
 * axis 1 with gamma and beta; else TVM's SimplifyInference form,
 * x * s + (-mean * s + beta) for s = 1 / sqrt(var + eps) * gamma.  Fields 1 and 2
 * of Relay's value are moving_mean and moving_var as given (topi's
 * inference batch_norm returns them unchanged): Identity, where wanted. */
static int em_batch_norm(ex *e)
{
    int r = rank_of(e, 0), axis;
    TRY(axis_of(e, a_int(e, "axis", 1), r, &axis));
    double eps = a_float(e, "epsilon", 1e-5);
    bool scale = a_bool(e, "scale", true), center = a_bool(e, "center", true);
    byoc_dtype dt = dt_of(e, 0);
    const char *y = out_name(e, 0);
    if (axis == 1 && scale && center && r >= 2) {
        const char *in[5] = {e->in[0], e->in[1], e->in[2], e->in[3], e->in[4]};
        Onnx__NodeProto *n = mkn(e, "BatchNormalization", "", in, 5, y);
        bx_ob_attr_float(e->b, n, "epsilon", eps);
    } else {
        const char *sd = un(e, "Sqrt", bin(e, "Add", e->in[4], scalar(e, dt, eps), NULL), NULL);
        const char *s = un(e, "Reciprocal", sd, NULL);
        if (scale)
            s = bin(e, "Mul", s, e->in[1], NULL);
        const char *shift = bin(e, "Mul", un(e, "Neg", e->in[3], NULL), s, NULL);
        if (center)
            shift = bin(e, "Add", shift, e->in[2], NULL);
        const char *xs = bin(e, "Mul", e->in[0], chan_bcast(e, s, 1, r, axis), NULL);
        bin(e, "Add", xs, chan_bcast(e, shift, 1, r, axis), y);
    }
    for (int i = 1; i < 3; i++)
        if (wanted(e, i))
            un(e, "Identity", e->in[2 + i], e->out[i]);
    return 0;
}

/* nn.l2_normalize: x / sqrt(max(sum(x^2), eps)) over the axes. */
static int em_l2_normalize(ex *e)
{
    int r = rank_of(e, 0);
    int64_t axes[MAXL];
    int n = a_ints(e, "axis", axes, MAXL);
    if (n == -2)
        return -1;
    for (int i = 0; i < n; i++) {
        int a;
        TRY(axis_of(e, axes[i], r, &a));
        axes[i] = a;
    }
    byoc_dtype dt = dt_of(e, 0);
    const char *x = e->in[0];
    const char *s =
        reduce(e, "ReduceSum", bin(e, "Mul", x, x, NULL), axes, n <= 0 ? -1 : n, true, NULL);
    s = bin(e, "Max", s, scalar(e, dt, a_float(e, "eps", 0)), NULL);
    bin(e, "Div", x, un(e, "Sqrt", s, NULL), Y0);
    return 0;
}

/* nn.lrn along axis 1: LRN, whose window matches TVM's for odd sizes. */
static int em_lrn(ex *e)
{
    int r = rank_of(e, 0), axis;
    TRY(axis_of(e, a_int(e, "axis", 1), r, &axis));
    int64_t size = a_int(e, "size", 5);
    if (axis != 1)
        return fail(e, "along axis %d has no ONNX form", axis);
    if (size < 1 || size % 2 == 0)
        return fail(e, "of even size %lld has no ONNX form (the windows differ)", (long long)size);
    Onnx__NodeProto *n = mk(e, "LRN", Y0, e->in[0], NULL, NULL);
    bx_ob_attr_float(e->b, n, "alpha", a_float(e, "alpha", 0.0001));
    bx_ob_attr_float(e->b, n, "beta", a_float(e, "beta", 0.75));
    bx_ob_attr_float(e->b, n, "bias", a_float(e, "bias", 2.0));
    bx_ob_attr_int(e->b, n, "size", size);
    return 0;
}

/* nn.dropout: the identity at inference; the mask, where wanted, all
 * ones (nothing dropped). */
static int em_dropout(ex *e)
{
    un(e, "Identity", e->in[0], out_name(e, 0));
    if (wanted(e, 1))
        return fill_shape(e, un(e, "Shape", e->in[0], NULL), dt_of(e, 0), 1, e->out[1]);
    return 0;
}

static int em_depth_space(ex *e)
{
    bool d2s = strcmp(e->op, "nn.depth_to_space") == 0;
    const char *layout = a_str(e, "layout", "NCHW"), *mode = a_str(e, "mode", "DCR");
    int64_t bs = a_int(e, "block_size", 1);
    const char *x = e->in[0];
    TRY(to_layout(e, &x, layout, "NCHW", "layout"));
    const char *y = Y0, *t;
    from_layout(e, y, layout, "NCHW", &t);
    Onnx__NodeProto *n = mk(e, d2s ? "DepthToSpace" : "SpaceToDepth", t, x, NULL, NULL);
    bx_ob_attr_int(e->b, n, "blocksize", bs);
    if (d2s && strcmp(mode, "DCR") != 0) {
        if (strcmp(mode, "CRD") != 0)
            return fail(e, "with mode '%s' has no ONNX form", mode);
        TRY(need(e, 11, "DepthToSpace's mode CRD"));
        bx_ob_attr_string(e->b, n, "mode", "CRD");
    }
    return finish_layout(e, t, y, layout, "NCHW", "layout");
}

/* ---- resizing ------------------------------------------------------------------------- */

/* image.resize1d/2d/3d and nn.upsampling(3d) as Resize to the output's
 * sizes, in TVM's terms: the coordinate transformation modes are ONNX's;
 * rounding_method "" is floor, or round for align_corners; "round" is
 * half up (TVM computes it exactly on the size ratio), ONNX's
 * round_prefer_ceil.  Before opset 11 (Upsample at 9, Resize-10) only the
 * asymmetric transform exists, nearest rounding down when upsampling. */
typedef struct rsz {
    const char *layout, *method, *ctm, *rounding;
    double cubic_a, extrapolation;
    int64_t exclude;
    const double *roi; /* 2 * nd: starts, ends; NULL: none */
} rsz;

static int resize_core(ex *e, int nd, const rsz *p)
{
    char canon[8];
    snprintf(canon, sizeof canon, "NC%s", spatial_letters(nd));
    int64_t operm[BYOC_MAX_RANK];
    if (!layout_perm(p->layout, canon, operm))
        return fail(e, "with layout '%s' has no ONNX form", p->layout);
    const byoc_tensor_type *t = e->it[0], *o = otype(e);
    if (t->rank != nd + 2 || o->rank != nd + 2)
        return fail(e, "needs the ranks of its input and output");
    int64_t sizes[5], in_sizes[5];
    for (int i = 0; i < nd + 2; i++) {
        sizes[i] = o->dims[operm[i]];
        in_sizes[i] = t->dims[operm[i]];
    }
    for (int i = 2; i < nd + 2; i++)
        if (sizes[i] < 0)
            return fail(e, "needs its output's spatial sizes");
    const char *mode = strcmp(p->method, "nearest_neighbor") == 0 ? "nearest"
                       : strcmp(p->method, "linear") == 0         ? "linear"
                       : strcmp(p->method, "cubic") == 0          ? "cubic"
                                                                  : NULL;
    if (!mode)
        return fail(e, "with method '%s' has no ONNX form", p->method);
    bool nearest = mode[0] == 'n';
    const char *nmode = NULL;
    if (nearest) {
        const char *r = p->rounding;
        if (!r[0])
            r = strcmp(p->ctm, "align_corners") == 0 ? "round" : "floor";
        nmode = strcmp(r, "round") == 0 ? "round_prefer_ceil" : r;
        if (strcmp(nmode, "round_prefer_ceil") && strcmp(nmode, "round_prefer_floor")
            && strcmp(nmode, "floor") && strcmp(nmode, "ceil"))
            return fail(e, "with rounding_method '%s' has no ONNX form", p->rounding);
    }
    static const char *const ctms[] = {"half_pixel",           "align_corners",
                                       "asymmetric",           "pytorch_half_pixel",
                                       "tf_half_pixel_for_nn", "tf_crop_and_resize"};
    bool ctm_ok = false;
    for (size_t i = 0; i < sizeof ctms / sizeof ctms[0]; i++)
        ctm_ok |= strcmp(p->ctm, ctms[i]) == 0;
    if (!ctm_ok)
        return fail(e, "with coordinate_transformation_mode '%s' has no ONNX form", p->ctm);
    const char *x = e->in[0];
    TRY(to_layout(e, &x, p->layout, canon, "layout"));
    const char *y = Y0, *ty;
    from_layout(e, y, p->layout, canon, &ty);
    if (e->opset < 11) {
        /* Upsample-9 and Resize-10: asymmetric, nearest flooring (when
         * upsampling), scales out / in. */
        if (strcmp(mode, "cubic") == 0 || strcmp(p->ctm, "asymmetric") != 0
            || (nearest && strcmp(nmode, "floor") != 0))
            return fail(e, "with method '%s', coordinate_transformation_mode '%s' needs opset 11",
                        p->method, p->ctm);
        double scales[5];
        for (int i = 0; i < nd + 2; i++) {
            if (in_sizes[i] <= 0 || (i < 2 && sizes[i] >= 0 && sizes[i] != in_sizes[i]))
                return fail(e, "before opset 11 needs its input's sizes");
            if (i < 2) {
                scales[i] = 1;
                continue;
            }
            scales[i] = (double)sizes[i] / (double)in_sizes[i];
            if ((int64_t)floor((double)in_sizes[i] * (float)scales[i]) != sizes[i]
                || (nearest && scales[i] < 1))
                return fail(e, "to these sizes needs opset 11");
        }
        int64_t ns = nd + 2;
        const char *sc = bx_ob_add_init(
            e->b, bx_ob_tensor(e->b, NULL, BYOC_DT_FLOAT32, &ns, 1, NULL, scales, (size_t)ns));
        Onnx__NodeProto *n = mk(e, e->opset < 10 ? "Upsample" : "Resize", ty, x, sc, NULL);
        bx_ob_attr_string(e->b, n, "mode", mode);
        return finish_layout(e, ty, y, p->layout, canon, "layout");
    }
    /* The sizes: N and C from the input (at run time when not known). */
    const char *sz;
    if (sizes[0] >= 0 && sizes[1] >= 0) {
        sz = i64s(e, sizes, (size_t)nd + 2);
    } else {
        int64_t st = 0, en = 2, ax = 0;
        const char *nc = slice(e, un(e, "Shape", x, NULL), &st, &en, &ax, NULL, 1, NULL);
        const char *in[2] = {nc, i64s(e, sizes + 2, (size_t)nd)};
        Onnx__NodeProto *c = mkn(e, "Concat", "", in, 2, NULL);
        bx_ob_attr_int(e->b, c, "axis", 0);
        sz = OUT(c);
    }
    const char *roi = "";
    if (strcmp(p->ctm, "tf_crop_and_resize") == 0 || e->opset < 13) {
        double r[10];
        int64_t nr = 2 * (nd + 2);
        for (int i = 0; i < nd + 2; i++) {
            r[i] = i < 2 || !p->roi ? 0 : p->roi[i - 2];
            r[nd + 2 + i] = i < 2 || !p->roi ? 1 : p->roi[nd + i - 2];
        }
        roi = bx_ob_add_init(
            e->b, bx_ob_tensor(e->b, NULL, BYOC_DT_FLOAT32, &nr, 1, NULL, r, (size_t)nr));
    }
    /* Resize-11 has scales as an input that must be there: empty. */
    const char *scales = "";
    if (e->opset < 13) {
        int64_t zero = 0;
        scales = bx_ob_add_init(e->b,
                                bx_ob_tensor(e->b, NULL, BYOC_DT_FLOAT32, &zero, 1, NULL, NULL, 0));
    }
    const char *in[4] = {x, roi, scales, sz};
    Onnx__NodeProto *n = mkn(e, "Resize", "", in, 4, ty);
    bx_ob_attr_string(e->b, n, "coordinate_transformation_mode", p->ctm);
    bx_ob_attr_string(e->b, n, "mode", mode);
    if (nearest)
        bx_ob_attr_string(e->b, n, "nearest_mode", nmode);
    if (strcmp(mode, "cubic") == 0) {
        bx_ob_attr_float(e->b, n, "cubic_coeff_a", p->cubic_a);
        bx_ob_attr_int(e->b, n, "exclude_outside", p->exclude);
    }
    if (strcmp(p->ctm, "tf_crop_and_resize") == 0)
        bx_ob_attr_float(e->b, n, "extrapolation_value", p->extrapolation);
    return finish_layout(e, ty, y, p->layout, canon, "layout");
}

static int em_resize(ex *e)
{
    int nd = op_nd(e->op);
    static const char *const layouts[4] = {"", "NCW", "NCHW", "NCDHW"};
    double roi[6];
    const byoc_value *rv = A(e, "roi");
    bool has_roi = false;
    if (rv && rv->kind == BYOC_V_LIST && rv->u.list.n == 2 * (size_t)nd) {
        has_roi = true;
        for (int i = 0; i < 2 * nd; i++)
            if (!v_float(&rv->u.list.items[i], &roi[i]))
                has_roi = false;
    }
    byoc_dtype od = a_dtype(e, "out_dtype");
    if (od != BYOC_DT_VOID && od != dt_of(e, 0))
        return fail(e, "with out_dtype %s has no ONNX form", byoc_dtype_name(od));
    rsz p = {.layout = a_str(e, "layout", layouts[nd]),
             .method = a_str(e, "method", "linear"),
             .ctm = a_str(e, "coordinate_transformation_mode", "half_pixel"),
             .rounding = a_str(e, "rounding_method", "round"),
             .cubic_a = a_float(e, "cubic_alpha", -0.5),
             .extrapolation = a_float(e, "extrapolation_value", 0.0),
             .exclude = a_int(e, "cubic_exclude", 0),
             .roi = has_roi ? roi : NULL};
    if (strcmp(p.ctm, "tf_crop_and_resize") == 0 && !has_roi)
        return fail(e, "with tf_crop_and_resize needs roi");
    return resize_core(e, nd, &p);
}

/* nn.upsampling(3d): topi's resize to round(in * scale) (the output's
 * sizes), align_corners or asymmetric (upsampling3d names its mode). */
static int em_upsampling(ex *e)
{
    bool three = strcmp(e->op, "nn.upsampling3d") == 0;
    const char *method = a_str(e, "method", "nearest_neighbor");
    if (strcmp(method, "bilinear") == 0 || strcmp(method, "trilinear") == 0)
        method = "linear";
    else if (strcmp(method, "bicubic") == 0 || strcmp(method, "tricubic") == 0)
        method = "cubic";
    rsz p = {.layout = a_str(e, "layout", three ? "NCDHW" : "NCHW"),
             .method = method,
             .ctm = three ? a_str(e, "coordinate_transformation_mode", "half_pixel")
                    : a_bool(e, "align_corners", false) ? "align_corners"
                                                        : "asymmetric",
             .rounding = "",
             .cubic_a = -0.5};
    return resize_core(e, three ? 3 : 2, &p);
}

/* ---- quantized ------------------------------------------------------------------------ */

/* Dequantize x (dtype dt, of rank r) by scale argument si and zero point
 * zi along axis into float32: DequantizeLinear for 8-bit data (per axis
 * from opset 13); else (x - zp) in int32, cast, times the scale - what
 * DequantizeLinear computes. */
static const char *deq(ex *e, const char *x, byoc_dtype dt, int r, int si, int zi, int64_t axis,
                       const char *y)
{
    bool per_s = per_channel(e, si), per_z = per_channel(e, zi), per = per_s || per_z;
    const char *s = qscale(e, si);
    int a = -1;
    if (per && (r < 0 || !norm_axis(axis, r, &a))) {
        fail(e, "needs the rank of its input for a per-channel scale");
        return NULL;
    }
    if (is_q8(dt) && e->opset >= (per ? 13 : 10) && per_s == per_z) {
        Onnx__NodeProto *n = mk(e, "DequantizeLinear", y, x, s, qzp(e, zi, dt));
        if (per)
            bx_ob_attr_int(e->b, n, "axis", a);
        return OUT(n);
    }
    if (!is_int(dt)) {
        fail(e, "of %s has no ONNX form", byoc_dtype_name(dt));
        return NULL;
    }
    const char *v = cast(e, x, dt, BYOC_DT_INT32, NULL);
    if (!known_zero(e, zi)) {
        const char *z = qzp(e, zi, BYOC_DT_INT32);
        v = bin(e, "Sub", v, per_z ? chan_bcast(e, z, 1, r, a) : z, NULL);
    }
    v = cast(e, v, BYOC_DT_INT32, BYOC_DT_FLOAT32, NULL);
    return bin(e, "Mul", v, per_s ? chan_bcast(e, s, 1, r, a) : s, y);
}

/* Quantize float32 x into dt by scale si and zero point zi along axis:
 * QuantizeLinear into 8 bits (per axis from 13); else round(x / s) + zp,
 * clipped to dt's range and cast (QuantizeLinear's formula, Round halving
 * to even as it does). */
static const char *quant(ex *e, const char *x, byoc_dtype dt, int r, int si, int zi, int64_t axis,
                         const char *y)
{
    bool per_s = per_channel(e, si), per_z = per_channel(e, zi), per = per_s || per_z;
    const char *s = qscale(e, si);
    int a = -1;
    if (per && (r < 0 || !norm_axis(axis, r, &a))) {
        fail(e, "needs the rank of its input for a per-channel scale");
        return NULL;
    }
    if (is_q8(dt) && e->opset >= (per ? 13 : 10) && per_s == per_z) {
        Onnx__NodeProto *n = mk(e, "QuantizeLinear", y, x, s, qzp(e, zi, dt));
        if (per)
            bx_ob_attr_int(e->b, n, "axis", a);
        return OUT(n);
    }
    if (!is_int(dt)) {
        fail(e, "into %s has no ONNX form", byoc_dtype_name(dt));
        return NULL;
    }
    if (e->opset < 11) {
        if (is_q8(dt) && per_s == per_z)
            fail(e, "needs ONNX QuantizeLinear%s, which opset %d lacks (it has it from opset %d)",
                 per ? " per axis" : "", e->opset, per ? 13 : 10);
        else
            fail(e, "into %s needs ONNX Round, which opset %d lacks (it has it from opset 11)",
                 byoc_dtype_name(dt), e->opset);
        return NULL;
    }
    const char *v =
        un(e, "Round", bin(e, "Div", x, per_s ? chan_bcast(e, s, 1, r, a) : s, NULL), NULL);
    if (!known_zero(e, zi)) {
        const char *z = cast(e, qzp(e, zi, BYOC_DT_INT32), BYOC_DT_INT32, BYOC_DT_FLOAT32, NULL);
        v = bin(e, "Add", v, per_z ? chan_bcast(e, z, 1, r, a) : z, NULL);
    }
    double lo, hi;
    int_range(dt, &lo, &hi);
    if (byoc_dtype_bits(dt) >= 32)
        hi = byoc_dtype_class(dt) == 'u' ? 4294967040.0 : 2147483520.0; /* float32 below 2^31 */
    v = clip_float(e, v, BYOC_DT_FLOAT32, lo, hi, NULL);
    return cast(e, v, BYOC_DT_FLOAT32, dt, y);
}

static int em_qnn_quantize(ex *e)
{
    byoc_dtype dt = a_dtype(e, "out_dtype");
    dt = dt != BYOC_DT_VOID ? dt : out_dtype(e, BYOC_DT_INT8);
    const char *x = cast(e, e->in[0], dt_of(e, 0), BYOC_DT_FLOAT32, NULL);
    return quant(e, x, dt, rank_of(e, 0), 1, 2, a_int(e, "axis", -1), Y0) ? 0 : -1;
}

static int em_qnn_dequantize(ex *e)
{
    byoc_dtype od = out_dtype(e, BYOC_DT_FLOAT32);
    const char *y = Y0;
    const char *f = deq(e, e->in[0], dt_of(e, 0), rank_of(e, 0), 1, 2, a_int(e, "axis", -1),
                        od == BYOC_DT_FLOAT32 ? y : NULL);
    if (!f)
        return -1;
    if (od != BYOC_DT_FLOAT32)
        cast(e, f, BYOC_DT_FLOAT32, od, y);
    return 0;
}

/* qnn.requantize(data, in_scale, in_zp, out_scale, out_zp): dequantized
 * and quantized again in float32, as an ONNX QDQ model computes it; TVM
 * lowers it to int64 fixed point rounding half up, which can differ by
 * one unit where the float value is within rounding of a half. */
static int em_qnn_requantize(ex *e)
{
    byoc_dtype dt = a_dtype(e, "out_dtype");
    dt = dt != BYOC_DT_VOID ? dt : out_dtype(e, BYOC_DT_INT8);
    int r = rank_of(e, 0);
    int64_t axis = a_int(e, "axis", -1);
    const char *f = deq(e, e->in[0], dt_of(e, 0), r, 1, 2, axis, NULL);
    return f && quant(e, f, dt, r, 3, 4, axis, Y0) ? 0 : -1;
}

/* qnn.add, qnn.subtract, qnn.mul: both sides dequantized, the float op,
 * quantized into the output's scale (lhs's dtype). */
static int em_qnn_binary(ex *e)
{
    const char *op = strcmp(e->op, "qnn.add") == 0   ? "Add"
                     : strcmp(e->op, "qnn.mul") == 0 ? "Mul"
                                                     : "Sub";
    int r = otype(e)->rank;
    const char *a =
        deq(e, e->in[0], dt_of(e, 0), rank_of(e, 0), 2, 3, a_int(e, "lhs_axis", -1), NULL);
    const char *b =
        a ? deq(e, e->in[1], dt_of(e, 1), rank_of(e, 1), 4, 5, a_int(e, "rhs_axis", -1), NULL)
          : NULL;
    if (!b)
        return -1;
    byoc_dtype dt = out_dtype(e, dt_of(e, 0));
    return quant(e, bin(e, op, a, b, NULL), dt, r, 6, 7, -1, Y0) ? 0 : -1;
}

/* qnn unary ops (x, scale, zp, out_scale, out_zp): dequantize, the float
 * op, quantize into x's dtype. */
static int em_qnn_unary(ex *e)
{
    const char *f = deq(e, e->in[0], dt_of(e, 0), rank_of(e, 0), 1, 2, -1, NULL);
    if (!f)
        return -1;
    const char *op = e->op + 4, *v;
    if (strcmp(op, "rsqrt") == 0) {
        v = un(e, "Reciprocal", un(e, "Sqrt", f, NULL), NULL);
    } else if (strcmp(op, "hardswish") == 0) {
        if (e->opset >= 14) {
            v = un(e, "HardSwish", f, NULL);
        } else {
            const char *c = clip_float(e, bin(e, "Add", f, scalar(e, BYOC_DT_FLOAT32, 3), NULL),
                                       BYOC_DT_FLOAT32, 0, 6, NULL);
            const char *m = bin(e, "Mul", f, c, NULL);
            v = bin(e, "Div", m, scalar(e, BYOC_DT_FLOAT32, 6), NULL);
        }
    } else if (strcmp(op, "leaky_relu") == 0) {
        Onnx__NodeProto *n = mk(e, "LeakyRelu", NULL, f, NULL, NULL);
        bx_ob_attr_float(e->b, n, "alpha", a_float(e, "alpha", 0.25));
        v = OUT(n);
    } else if (strcmp(op, "softmax") == 0) {
        int r = rank_of(e, 0), axis;
        TRY(axis_of(e, a_int(e, "axis", -1), r, &axis));
        if (e->opset < 13 && axis != r - 1)
            return fail(e, "along an axis other than the last needs opset 13");
        Onnx__NodeProto *n = mk(e, "Softmax", NULL, f, NULL, NULL);
        bx_ob_attr_int(e->b, n, "axis", axis);
        v = OUT(n);
    } else {
        v = un(e, e->onnx, f, NULL);
    }
    return quant(e, v, dt_of(e, 0), rank_of(e, 0), 3, 4, -1, Y0) ? 0 : -1;
}

/* qnn.concatenate(data tuple, scales tuple, zero points tuple, out_scale,
 * out_zp): each field dequantized, joined, quantized. */
static int em_qnn_concatenate(ex *e)
{
    if (e->nargs != 5 || e->acount[0] != e->acount[1] || e->acount[0] != e->acount[2])
        return fail(e, "needs three tuples of one length and two scalars");
    int n = e->acount[0], axis;
    TRY(axis_of(e, a_int(e, "axis", 0), rank_of(e, 0), &axis));
    const char **parts = BX_NEWN(e->b->arena, const char *, n);
    for (int i = 0; i < n; i++) {
        parts[i] = deq(e, e->in[i], dt_of(e, i), rank_of(e, i), e->afirst[1] + i, e->afirst[2] + i,
                       -1, NULL);
        if (!parts[i])
            return -1;
    }
    Onnx__NodeProto *c = mkn(e, "Concat", "", parts, n, NULL);
    bx_ob_attr_int(e->b, c, "axis", axis);
    return quant(e, OUT(c), out_dtype(e, dt_of(e, 0)), rank_of(e, 0), e->afirst[3], e->afirst[4],
                 -1, Y0)
               ? 0
               : -1;
}

/* qnn.avg_pool2d(data, in_scale, in_zp, out_scale, out_zp): dequantize,
 * AveragePool, quantize. */
static int em_qnn_avg_pool(ex *e)
{
    const char *layout = a_str(e, "layout", "NCHW"), *ol = a_str(e, "out_layout", "");
    if ((ol[0] && strcmp(ol, layout)) || strcmp(layout, "NCHW"))
        return fail(e, "with layout '%s' has no ONNX form", layout);
    const char *f = deq(e, e->in[0], dt_of(e, 0), rank_of(e, 0), 1, 2, -1, NULL);
    if (!f)
        return -1;
    win w;
    int64_t kernel[2];
    TRY(read_window(e, 2, &w));
    TRY(per_axis(e, "pool_size", 2, 1, kernel));
    bool dil = w.dilation[0] != 1 || w.dilation[1] != 1, ceil_mode = a_bool(e, "ceil_mode", false);
    if (dil)
        TRY(need(e, 19, "AveragePool's dilations"));
    if (ceil_mode) {
        int64_t perm[4] = {0, 1, 2, 3};
        TRY(need(e, 10, "pools' ceil_mode"));
        TRY(check_ceil(e, &w, kernel, e->it[0], perm));
    }
    Onnx__NodeProto *n = mk(e, "AveragePool", NULL, f, NULL, NULL);
    if (ceil_mode)
        bx_ob_attr_int(e->b, n, "ceil_mode", 1);
    bx_ob_attr_int(e->b, n, "count_include_pad", a_bool(e, "count_include_pad", false));
    window_attrs(e, n, &w, dil);
    bx_ob_attr_ints(e->b, n, "kernel_shape", kernel, 2);
    return quant(e, OUT(n), out_dtype(e, dt_of(e, 0)), rank_of(e, 0), 3, 4, -1, Y0) ? 0 : -1;
}

/* ---- the table ------------------------------------------------------------------------ */

typedef struct entry {
    const char *relay;
    emit_fn fn;
    const char *onnx; /* for the emitters that name one op */
    int since;
    int unify; /* U0: arguments in argument 0's dtype; U1: 1.. in 1's */
} entry;

enum { U0 = 1, U1 = 2 };

static const entry table[] = {
    /* Elementwise, one ONNX op each (opset of its first version). */
    {"abs", em_same, "Abs", 6, 0},
    {"acos", em_same, "Acos", 7, 0},
    {"acosh", em_same, "Acosh", 9, 0},
    {"asin", em_same, "Asin", 7, 0},
    {"asinh", em_same, "Asinh", 9, 0},
    {"atan", em_same, "Atan", 7, 0},
    {"atanh", em_same, "Atanh", 9, 0},
    {"ceil", em_same, "Ceil", 6, 0},
    {"copy", em_same, "Identity", 1, 0},
    {"cos", em_same, "Cos", 7, 0},
    {"cosh", em_same, "Cosh", 9, 0},
    {"erf", em_same, "Erf", 9, 0},
    {"exp", em_same, "Exp", 6, 0},
    {"fast_erf", em_same, "Erf", 9, 0},
    {"fast_exp", em_same, "Exp", 6, 0},
    {"fast_tanh", em_same, "Tanh", 6, 0},
    {"floor", em_same, "Floor", 6, 0},
    {"isinf", em_same, "IsInf", 10, 0},
    {"isnan", em_same, "IsNaN", 9, 0},
    {"log", em_same, "Log", 6, 0},
    {"logical_and", em_same, "And", 7, U0},
    {"logical_not", em_same, "Not", 1, 0},
    {"logical_or", em_same, "Or", 7, U0},
    {"logical_xor", em_same, "Xor", 7, U0},
    {"negative", em_same, "Neg", 6, 0},
    {"round", em_same, "Round", 11, 0},
    {"sigmoid", em_same, "Sigmoid", 6, 0},
    {"sign", em_same, "Sign", 9, 0},
    {"sin", em_same, "Sin", 7, 0},
    {"sinh", em_same, "Sinh", 9, 0},
    {"sqrt", em_same, "Sqrt", 6, 0},
    {"tan", em_same, "Tan", 7, 0},
    {"tanh", em_same, "Tanh", 6, 0},
    {"bitwise_not", em_bitwise_not, NULL, 0, 0},
    {"isfinite", em_isfinite, NULL, 0, 0},
    {"log10", em_log_base, NULL, 0, 0},
    {"log2", em_log_base, NULL, 0, 0},
    {"nn.relu", em_relu, NULL, 0, 0},
    {"rsqrt", em_rsqrt, NULL, 0, 0},
    {"trunc", em_trunc, NULL, 0, 0},
    {"cast", em_cast, NULL, 0, 0},
    {"cast_like", em_cast, NULL, 0, 0},
    {"clip", em_clip, NULL, 0, 0},
    {"fixed_point_multiply", em_fixed_point_multiply, NULL, 0, 0},
    /* Broadcasting binary ops. */
    {"add", em_arith, "Add", 7, U0},
    {"subtract", em_arith, "Sub", 7, U0},
    {"multiply", em_arith, "Mul", 7, U0},
    {"divide", em_arith, "Div", 7, U0},
    {"power", em_power, NULL, 0, U0},
    {"maximum", em_minmax, "Max", 8, U0},
    {"minimum", em_minmax, "Min", 8, U0},
    {"floor_divide", em_divmod, NULL, 0, U0},
    {"floor_mod", em_divmod, NULL, 0, U0},
    {"mod", em_divmod, NULL, 0, U0},
    {"trunc_divide", em_divmod, NULL, 0, U0},
    {"trunc_mod", em_divmod, NULL, 0, U0},
    {"left_shift", em_shift, NULL, 0, U0},
    {"right_shift", em_shift, NULL, 0, U0},
    {"bitwise_and", em_bitwise, "BitwiseAnd", 18, U0},
    {"bitwise_or", em_bitwise, "BitwiseOr", 18, U0},
    {"bitwise_xor", em_bitwise, "BitwiseXor", 18, U0},
    {"equal", em_compare, NULL, 0, U0},
    {"not_equal", em_compare, NULL, 0, U0},
    {"less", em_compare, NULL, 0, U0},
    {"less_equal", em_compare, NULL, 0, U0},
    {"greater", em_compare, NULL, 0, U0},
    {"greater_equal", em_compare, NULL, 0, U0},
    {"where", em_where, NULL, 0, U1},
    /* Activations. */
    {"nn.leaky_relu", em_leaky_relu, NULL, 0, 0},
    {"nn.prelu", em_prelu, NULL, 0, U0},
    {"nn.bias_add", em_bias_add, NULL, 0, U0},
    {"nn.softmax", em_softmax, NULL, 0, 0},
    {"nn.fast_softmax", em_softmax, NULL, 0, 0},
    {"nn.log_softmax", em_softmax, NULL, 0, 0},
    {"nn.dropout", em_dropout, NULL, 0, 0},
    /* Convolutions and products. */
    {"nn.conv1d", em_conv, NULL, 0, 0},
    {"nn.conv2d", em_conv, NULL, 0, 0},
    {"nn.conv3d", em_conv, NULL, 0, 0},
    {"nn.conv1d_transpose", em_conv, NULL, 0, 0},
    {"nn.conv2d_transpose", em_conv, NULL, 0, 0},
    {"nn.conv3d_transpose", em_conv, NULL, 0, 0},
    {"nn.dense", em_dense, NULL, 0, 0},
    {"nn.matmul", em_matmul, NULL, 0, 0},
    {"nn.batch_matmul", em_matmul, NULL, 0, 0},
    /* Pools. */
    {"nn.max_pool1d", em_pool, NULL, 0, 0},
    {"nn.max_pool2d", em_pool, NULL, 0, 0},
    {"nn.max_pool3d", em_pool, NULL, 0, 0},
    {"nn.avg_pool1d", em_pool, NULL, 0, 0},
    {"nn.avg_pool2d", em_pool, NULL, 0, 0},
    {"nn.avg_pool3d", em_pool, NULL, 0, 0},
    {"nn.global_avg_pool2d", em_global_pool, NULL, 0, 0},
    {"nn.global_max_pool2d", em_global_pool, NULL, 0, 0},
    {"nn.adaptive_avg_pool1d", em_adaptive_pool, NULL, 0, 0},
    {"nn.adaptive_avg_pool2d", em_adaptive_pool, NULL, 0, 0},
    {"nn.adaptive_avg_pool3d", em_adaptive_pool, NULL, 0, 0},
    {"nn.adaptive_max_pool1d", em_adaptive_pool, NULL, 0, 0},
    {"nn.adaptive_max_pool2d", em_adaptive_pool, NULL, 0, 0},
    {"nn.adaptive_max_pool3d", em_adaptive_pool, NULL, 0, 0},
    /* Normalisation. */
    {"nn.batch_norm", em_batch_norm, NULL, 0, U0},
    {"nn.layer_norm", em_layer_norm, NULL, 0, U0},
    {"nn.instance_norm", em_instance_norm, NULL, 0, U0},
    {"nn.group_norm", em_group_norm, NULL, 0, U0},
    {"nn.l2_normalize", em_l2_normalize, NULL, 0, 0},
    {"nn.lrn", em_lrn, NULL, 0, 0},
    /* Layout and padding. */
    {"nn.batch_flatten", em_batch_flatten, NULL, 0, 0},
    {"nn.pad", em_pad, NULL, 0, 0},
    {"nn.mirror_pad", em_pad, NULL, 0, 0},
    {"nn.depth_to_space", em_depth_space, NULL, 0, 0},
    {"nn.space_to_depth", em_depth_space, NULL, 0, 0},
    {"nn.upsampling", em_upsampling, NULL, 0, 0},
    {"nn.upsampling3d", em_upsampling, NULL, 0, 0},
    {"image.resize1d", em_resize, NULL, 0, 0},
    {"image.resize2d", em_resize, NULL, 0, 0},
    {"image.resize3d", em_resize, NULL, 0, 0},
    /* Reductions. */
    {"sum", em_reduce, "ReduceSum", 0, 0},
    {"mean", em_reduce, "ReduceMean", 0, 0},
    {"max", em_reduce, "ReduceMax", 0, 0},
    {"min", em_reduce, "ReduceMin", 0, 0},
    {"prod", em_reduce, "ReduceProd", 0, 0},
    {"all", em_reduce, NULL, 0, 0},
    {"any", em_reduce, NULL, 0, 0},
    {"variance", em_variance, NULL, 0, U0},
    {"argmax", em_argreduce, "ArgMax", 0, 0},
    {"argmin", em_argreduce, "ArgMin", 0, 0},
    /* Shapes and data movement. */
    {"reshape", em_reshape, NULL, 0, 0},
    {"contrib_reverse_reshape", em_reshape, NULL, 0, 0},
    {"reshape_like", em_reshape_like, NULL, 0, 0},
    {"transpose", em_transpose, NULL, 0, 0},
    {"expand_dims", em_expand_dims, NULL, 0, 0},
    {"squeeze", em_squeeze, NULL, 0, 0},
    {"concatenate", em_concatenate, NULL, 0, U0},
    {"stack", em_stack, NULL, 0, U0},
    {"split", em_split, NULL, 0, 0},
    {"strided_slice", em_strided_slice, NULL, 0, 0},
    {"slice_like", em_slice_like, NULL, 0, 0},
    {"take", em_take, NULL, 0, 0},
    {"gather", em_gather, NULL, 0, 0},
    {"gather_nd", em_gather_nd, NULL, 0, 0},
    {"scatter_elements", em_scatter_elements, NULL, 0, 0},
    {"scatter_nd", em_scatter_nd, NULL, 0, 0},
    {"broadcast_to", em_broadcast_to, NULL, 0, 0},
    {"broadcast_to_like", em_broadcast_to_like, NULL, 0, 0},
    {"tile", em_tile, NULL, 0, 0},
    {"repeat", em_repeat, NULL, 0, 0},
    {"reverse", em_reverse, NULL, 0, 0},
    {"reverse_sequence", em_reverse_sequence, NULL, 0, 0},
    {"layout_transform", em_layout_transform, NULL, 0, 0},
    /* Creation, scans, sorting. */
    {"zeros", em_zeros_ones, NULL, 0, 0},
    {"ones", em_zeros_ones, NULL, 0, 0},
    {"zeros_like", em_zeros_ones_like, NULL, 0, 0},
    {"ones_like", em_zeros_ones_like, NULL, 0, 0},
    {"full", em_full, NULL, 0, 0},
    {"full_like", em_full_like, NULL, 0, 0},
    {"shape_of", em_shape_of, NULL, 0, 0},
    {"ndarray_size", em_shape_of, NULL, 0, 0},
    {"arange", em_arange, NULL, 0, 0},
    {"one_hot", em_one_hot, NULL, 0, 0},
    {"cumsum", em_cumsum, NULL, 0, 0},
    {"trilu", em_trilu, NULL, 0, 0},
    {"sequence_mask", em_sequence_mask, NULL, 0, 0},
    {"topk", em_topk, NULL, 0, 0},
    {"argsort", em_sort, NULL, 0, 0},
    {"sort", em_sort, NULL, 0, 0},
    /* Quantized. */
    {"qnn.quantize", em_qnn_quantize, NULL, 0, 0},
    {"qnn.dequantize", em_qnn_dequantize, NULL, 0, 0},
    {"qnn.requantize", em_qnn_requantize, NULL, 0, 0},
    {"qnn.conv2d", em_conv, NULL, 0, 0},
    {"qnn.dense", em_dense, NULL, 0, 0},
    {"qnn.batch_matmul", em_matmul, NULL, 0, 0},
    {"qnn.add", em_qnn_binary, NULL, 0, 0},
    {"qnn.subtract", em_qnn_binary, NULL, 0, 0},
    {"qnn.mul", em_qnn_binary, NULL, 0, 0},
    {"qnn.concatenate", em_qnn_concatenate, NULL, 0, 0},
    {"qnn.avg_pool2d", em_qnn_avg_pool, NULL, 0, 0},
    {"qnn.abs", em_qnn_unary, "Abs", 0, 0},
    {"qnn.erf", em_qnn_unary, "Erf", 0, 0},
    {"qnn.exp", em_qnn_unary, "Exp", 0, 0},
    {"qnn.hardswish", em_qnn_unary, NULL, 0, 0},
    {"qnn.log", em_qnn_unary, "Log", 0, 0},
    {"qnn.rsqrt", em_qnn_unary, NULL, 0, 0},
    {"qnn.sigmoid", em_qnn_unary, "Sigmoid", 0, 0},
    {"qnn.sqrt", em_qnn_unary, "Sqrt", 0, 0},
    {"qnn.tanh", em_qnn_unary, "Tanh", 0, 0},
    {"qnn.leaky_relu", em_qnn_unary, NULL, 0, 0},
    {"qnn.softmax", em_qnn_unary, NULL, 0, 0},
};

static const entry *lookup(const char *op)
{
    if (!op)
        return NULL;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].relay, op) == 0)
            return &table[i];
    return NULL;
}

int bx_onnx_emit_known(const char *op) { return lookup(op) != NULL; }

/* The oldest opset written: Where, Erf, Sign, MatMul's and Gemm's types,
 * Flatten of any dtype and Upsample's scales input arrive at 9. */
#define MIN_OPSET 9

int bx_onnx_emit_call(bx_ob *b, const byoc_graph *g, int node, const char *const *in, int nin,
                      const char *const *out, int nout, byoc_error *err)
{
    ex e0, *e = &e0;
    memset(e, 0, sizeof *e);
    e->b = b;
    e->g = g;
    e->node = node;
    e->opset = b->opset;
    e->in = in;
    e->nin = nin;
    e->out = out;
    e->nout = nout;
    e->err = err;
    e->op = byoc_node_op_name(g, node);
    if (!e->op || byoc_node_kind_of(g, node) != BYOC_N_CALL) {
        bx_error_set(err, NULL, 0, 0, "node %d is not a call", node);
        return -1;
    }
    if (byoc_node_is_opaque(g, node)) {
        bx_error_set(err, NULL, 0, 0, "no ONNX form for '%s': it is an opaque call", e->op);
        return -1;
    }
    const entry *en = lookup(e->op);
    if (!en) {
        bx_error_set(err, NULL, 0, 0, "no ONNX form for '%s'", e->op);
        return -1;
    }
    if (b->opset < MIN_OPSET)
        return fail(e, "is not written at opset %d (%d is the oldest)", b->opset, MIN_OPSET);
    e->onnx = en->onnx;
    e->since = en->since;
    /* The arguments, a tuple's fields one by one. */
    e->nargs = byoc_node_arg_count(g, node);
    e->afirst = BX_NEWN(b->arena, int, e->nargs + 1);
    e->acount = BX_NEWN(b->arena, int, e->nargs + 1);
    int total = 0;
    for (int i = 0; i < e->nargs; i++) {
        int a = byoc_node_arg(g, node, i), nf = byoc_node_field_count(g, a);
        const byoc_tuple_type *tt = nf >= 0 ? byoc_node_tuple_type(g, a) : NULL;
        for (int k = 0; tt && tt->sub && k < nf; k++)
            if (tt->sub[k])
                return fail(e, "of a tuple of tuples has no ONNX form");
        e->afirst[i] = total;
        e->acount[i] = nf >= 0 ? nf : 1;
        total += e->acount[i];
    }
    if (total != nin)
        return fail(e, "has %d tensor arguments; %d names were given", total, nin);
    e->it = BX_NEWN(b->arena, const byoc_tensor_type *, nin + 1);
    e->inode = BX_NEWN(b->arena, int, nin + 1);
    for (int i = 0; i < e->nargs; i++) {
        int a = byoc_node_arg(g, node, i), nf = byoc_node_field_count(g, a);
        for (int k = 0; k < e->acount[i]; k++) {
            e->it[e->afirst[i] + k] = byoc_node_type(g, a, nf >= 0 ? k : -1);
            e->inode[e->afirst[i] + k] = nf >= 0 ? -1 : a;
        }
    }
    int nf = byoc_node_field_count(g, node);
    e->nfields = nf >= 0 ? nf : 1;
    if (nout < 1 || nout > e->nfields)
        return fail(e, "has %d outputs; %d names were given", e->nfields, nout);
    if (!wanted(e, 0) && e->nfields == 1)
        return fail(e, "needs the name of its output");
    e->ot0 = byoc_node_type(g, node, nf >= 0 ? 0 : -1);
    for (int i = 0; i < nin; i++)
        if (!e->it[i] || !in[i] || !in[i][0])
            return fail(e, "needs the name and type of argument %d", i);
    size_t nnodes = b->nnodes, ninits = b->ninits;
    int ndomains = b->ndomains;
    /* Relay's ops of several operands take one dtype; byoc types a call
     * of mixed ones by its first (a model's fp16 data with fp32 weights):
     * the others are cast to it. */
    if (en->unify) {
        int from = en->unify == U0 ? 0 : 1;
        const char **cin = BX_NEWN(b->arena, const char *, nin + 1);
        for (int i = 0; i < nin; i++) {
            cin[i] = in[i];
            byoc_dtype want = e->it[from]->dtype, have = e->it[i]->dtype;
            if (i > from && want != BYOC_DT_VOID && have != BYOC_DT_VOID && have != want) {
                byoc_tensor_type *t = BX_NEW(b->arena, byoc_tensor_type);
                *t = *e->it[i];
                t->dtype = want;
                cin[i] = cast(e, in[i], have, want, NULL);
                e->it[i] = t;
            }
        }
        e->in = cin;
    }
    /* A failed emitter leaves nothing behind. */
    if (en->fn(e) < 0) {
        b->nnodes = nnodes;
        b->ninits = ninits;
        b->ndomains = ndomains;
        return -1;
    }
    return 0;
}
