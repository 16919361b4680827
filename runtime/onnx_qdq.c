/* Quantized ONNX models: QuantizeLinear/DequantizeLinear (QDQ) groups and
 * the QOperator ops become Relay's QNN ops.
 *
 * TVM's ONNX frontend maps QuantizeLinear to qnn.quantize and
 * DequantizeLinear to qnn.dequantize, leaving the float ops between them;
 * its FakeQuantizationToInteger pass then turns dequantize -> conv2d ->
 * quantize into qnn.conv2d + qnn.requantize, dequantize -> add ->
 * quantize into qnn.add, and so on.  The backends' quantized patterns
 * (examples/cmsisnn.byoc, ethosu.byoc, dnnl.byoc) match that second form.
 * byoc does both at once, while reading, with the idea that reads the
 * rest of this file: a DequantizeLinear's output is a lazy value (onnx.h)
 * holding "integer tensor x, scale s, zero point z", built as
 * qnn.dequantize only if a float op takes it.  The ops that have an
 * integer form look at their inputs first (ox_qdq_rewrite, called for
 * every node before its converter): a Conv on two such values becomes
 * qnn.conv2d (+ nn.bias_add) whose int32 result is again a lazy "x, s_x *
 * s_w, 0"; an Add on two waits for the QuantizeLinear that gives it its
 * output quantization and becomes qnn.add; Relu and Clip ride along to
 * the QuantizeLinear, where they become a clip in the integer domain (the
 * TFLite form backends match: requantize then clip); MaxPool, Flatten and
 * the reshapes run on the integer tensor itself; AveragePool runs on it
 * cast to int32, then cast back (cast(avg_pool2d(cast(x))), TFLite's
 * form).  A QuantizeLinear on a lazy value becomes qnn.requantize, or
 * nothing when the quantizations agree.  Whatever has no integer form
 * builds the dequantize and stays float, as in TVM.  Everything here is
 * exact: where a rewrite would need a value the model does not give (a
 * zero point whose contents are unknown, say), the float form is kept.
 *
 * Constants TVM's FoldConstant would make - the product of two scales,
 * a transposed weight, a zero point cast to int32 - are made as
 * constants, with their contents when the inputs' are known (scalars and
 * short lists; weights never carry contents on the graph).  A zero point
 * whose contents the model does not give is such a constant without
 * contents: the backends' predicates that read it (CMSIS-NN's "every
 * kernel zero point is 0") are then false, and `byoc explain` says the
 * values are not known.
 *
 * The QOperator ops (QLinearConv, QLinearMatMul, ONNX Runtime's QLinearAdd
 * and the others) map directly to the same QNN forms, as TVM maps them.
 *
 * With byoc_read_options.quantized_nhwc the quantized convolutions and
 * pools are built NHWC (kernels HWIO, or HWOI when depthwise), as TVM's
 * ConvertLayout made them for CMSIS-NN and Ethos-U: a lazy value then may
 * hold its integer tensor in NHWC, and the transpose back to NCHW is
 * built only for a user that needs ONNX's layout (a Flatten, a float op,
 * the graph's output), while the next convolution or pool takes the NHWC
 * tensor as it is. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "onnx.h"
#include "onnx_qdq.h"

#define TRY(x)                                                                                  \
    do {                                                                                        \
        if ((x) < 0)                                                                            \
            return -1;                                                                          \
    } while (0)

/* Known contents of a scale or zero point: as many as a graph constant
 * carries (onnx.c's OX_VALUE_MAX). */
enum { QMAX_VALUES = 64 };

static int call1(ox_cx *cx, const char *op, int a)
{
    return ox_call(cx, op, &a, 1);
}

static int call2(ox_cx *cx, const char *op, int a, int b)
{
    int args[2] = {a, b};
    return ox_call(cx, op, args, 2);
}

static int define(ox_cx *cx, int i, int node)
{
    TRY(node);
    ox_define(cx, i, node);
    return 0;
}

static byoc_tensor_type node_type(ox_cx *cx, int node)
{
    const byoc_tensor_type *t = node >= 0 ? byoc_node_type(cx->g, node, -1) : NULL;
    byoc_tensor_type none = {BYOC_DT_VOID, -1, {0}};
    return t ? *t : none;
}

static bool is_qdtype(byoc_dtype dt)
{
    return dt == BYOC_DT_INT8 || dt == BYOC_DT_UINT8 || dt == BYOC_DT_INT16
           || dt == BYOC_DT_UINT16;
}

static void qrange(byoc_dtype dt, double *lo, double *hi)
{
    switch (dt) {
    case BYOC_DT_INT8: *lo = -128; *hi = 127; break;
    case BYOC_DT_UINT8: *lo = 0; *hi = 255; break;
    case BYOC_DT_INT16: *lo = -32768; *hi = 32767; break;
    case BYOC_DT_UINT16: *lo = 0; *hi = 65535; break;
    default: *lo = -2147483648.0; *hi = 2147483647.0; break;
    }
}

/* ---- known numbers ------------------------------------------------------------ */

static bool value_number(const byoc_value *v, double *out)
{
    switch (v->kind) {
    case BYOC_V_INT: *out = (double)v->u.i; return true;
    case BYOC_V_FLOAT: *out = v->u.f; return true;
    case BYOC_V_BOOL: *out = v->u.b; return true;
    default: return false;
    }
}

/* The contents of graph node `node` when they are known: a constant's, or
 * one seen through cast and full (ConstantOfShape -> Cast, torch's way of
 * writing a zero point of zeros), where the values stay whole numbers. */
static bool known_numbers(ox_cx *cx, int node, double *out, size_t cap, size_t *n)
{
    bool through_cast = false;
    for (int depth = 0; depth < 8 && node >= 0; depth++) {
        byoc_node_kind k = byoc_node_kind_of(cx->g, node);
        if (k == BYOC_N_CONST) {
            const byoc_value *v = byoc_node_const_value(cx->g, node);
            if (!v)
                return false;
            if (v->kind == BYOC_V_LIST) {
                if (v->u.list.n > cap || v->u.list.n == 0)
                    return false;
                for (size_t i = 0; i < v->u.list.n; i++)
                    if (!value_number(&v->u.list.items[i], &out[i]))
                        return false;
                *n = v->u.list.n;
            } else {
                if (cap < 1 || !value_number(v, &out[0]))
                    return false;
                *n = 1;
            }
            for (size_t i = 0; through_cast && i < *n; i++)
                if (out[i] != floor(out[i]))
                    return false;
            return true;
        }
        if (k != BYOC_N_CALL || byoc_node_is_opaque(cx->g, node)
            || byoc_node_arg_count(cx->g, node) != 1)
            return false;
        const char *op = byoc_node_op_name(cx->g, node);
        if (strcmp(op, "cast") == 0)
            through_cast = true;
        else if (strcmp(op, "full") != 0)
            return false;
        node = byoc_node_arg(cx->g, node, 0);
    }
    return false;
}

static bool known_scalar(ox_cx *cx, int node, double *v)
{
    size_t n;
    double vals[QMAX_VALUES];
    if (!known_numbers(cx, node, vals, QMAX_VALUES, &n))
        return false;
    for (size_t i = 1; i < n; i++)
        if (vals[i] != vals[0])
            return false;
    *v = vals[0];
    return true;
}

static bool near_equal(double a, double b)
{
    return a == b || fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b));
}

/* Do two scale or zero-point nodes hold the same numbers? */
static bool same_numbers(ox_cx *cx, int a, int b)
{
    if (a == b)
        return true;
    double x[QMAX_VALUES], y[QMAX_VALUES];
    size_t nx, ny;
    if (!known_numbers(cx, a, x, QMAX_VALUES, &nx) || !known_numbers(cx, b, y, QMAX_VALUES, &ny))
        return false;
    if (nx != ny && nx != 1 && ny != 1)
        return false;
    size_t n = nx > ny ? nx : ny;
    for (size_t i = 0; i < n; i++)
        if (!near_equal(x[nx == 1 ? 0 : i], y[ny == 1 ? 0 : i]))
            return false;
    return true;
}

static bool all_zero(ox_cx *cx, int node)
{
    double v;
    return known_scalar(cx, node, &v) && v == 0;
}

/* A constant of dtype dt: a scalar (rank 0) or a list of dims0 values
 * (rank 1), with contents v when v is not NULL. */
static int make_const(ox_cx *cx, byoc_dtype dt, int rank, int64_t dims0, const double *v)
{
    byoc_tensor_type t = {dt, rank, {0}};
    if (rank == 1)
        t.dims[0] = dims0;
    size_t n = rank == 0 ? 1 : (size_t)(dims0 > 0 ? dims0 : 0);
    byoc_value val, *items = NULL;
    memset(&val, 0, sizeof val);
    bool is_float = byoc_dtype_class(dt) == 'f';
    /* Integers from the model's numbers must fit int64 to be contents. */
    for (size_t i = 0; v && !is_float && i < (rank == 0 ? 1 : n) && i < QMAX_VALUES; i++)
        if (!(v[i] >= -9.2e18 && v[i] <= 9.2e18))
            v = NULL;
    if (v && (rank == 0 || (dims0 >= 0 && n <= QMAX_VALUES))) {
        if (rank == 1) {
            items = ox_alloc(cx, sizeof(byoc_value) * (n ? n : 1));
            val.kind = BYOC_V_LIST;
            val.u.list.items = items;
            val.u.list.n = n;
        }
        byoc_value *out = rank == 0 ? &val : items;
        for (size_t i = 0; i < n; i++) {
            if (is_float) {
                out[i].kind = BYOC_V_FLOAT;
                out[i].u.f = v[i];
            } else {
                out[i].kind = BYOC_V_INT;
                out[i].u.i = (int64_t)v[i];
            }
        }
    } else {
        v = NULL;
    }
    byoc_error e;
    int node = byoc_graph_add_const(cx->g, &t, v ? &val : NULL, &e);
    return node < 0 ? ox_fail(cx, "%s", e.msg) : node;
}

/* A constant like `like` (a constant node) with its dtype changed to dt,
 * and its contents when known. */
static int const_like(ox_cx *cx, int like, byoc_dtype dt)
{
    byoc_tensor_type t = node_type(cx, like);
    if (t.rank > 1 || (t.rank == 1 && t.dims[0] < 0))
        return ox_fail(cx, "a scale or zero point of rank %d", t.rank);
    double v[QMAX_VALUES];
    size_t n;
    bool known = known_numbers(cx, like, v, QMAX_VALUES, &n)
                 && n == (t.rank == 0 ? 1 : (size_t)t.dims[0]);
    return make_const(cx, dt, t.rank, t.rank == 1 ? t.dims[0] : 0, known ? v : NULL);
}

/* ---- quantization parameters ------------------------------------------------ */

/* A tensor's quantization: graph nodes for the float32 scale and the
 * int32 zero point, each a scalar or one value per channel of `axis`
 * (-1: per tensor). */
typedef struct qparam {
    int scale, zp;
    int64_t axis;
    /* The scale's values when known, however many (a graph constant
     * carries at most QMAX_VALUES): per-channel scales of wide layers. */
    const double *sv;
    size_t sn;
} qparam;

/* The zero point as an int32 node: input zi of the node (absent: 0). */
static int zp_node(ox_cx *cx, int zi)
{
    ox_value *z = ox_in(cx, zi);
    if (!z)
        return make_const(cx, BYOC_DT_INT32, 0, 0, (const double[]){0});
    byoc_tensor_type t = ox_type(cx, z);
    if (t.dtype == BYOC_DT_INT32)
        return ox_node_of(cx, z);
    /* A zero point of one value throughout (per-channel lists of zeros,
     * symmetric weights) is that scalar: QNN takes it with per-channel
     * scales, and the backends can read it however wide the layer. */
    const ox_tensor *d = ox_data(cx, z);
    bool uniform = d && d->i && d->n >= 1;
    for (size_t i = 1; uniform && i < d->n; i++)
        uniform = d->i[i] == d->i[0];
    if (uniform && t.rank <= 1)
        return make_const(cx, BYOC_DT_INT32, 0, 0, (const double[]){(double)d->i[0]});
    int node = ox_node_of(cx, z);
    TRY(node);
    if (ox_is_const(z))
        return const_like(cx, node, BYOC_DT_INT32);
    double v;
    if (known_scalar(cx, node, &v) && t.rank == 0)
        return make_const(cx, BYOC_DT_INT32, 0, 0, &v);
    int c = call1(cx, "cast", node);
    TRY(ox_set_dtype(cx, c, "dtype", BYOC_DT_INT32));
    return c;
}

/* Input si's scale and input zi's zero point of a tensor of rank `rank`,
 * per axis when the scale is a list (axis_attr then names the axis).
 * Returns 1 through ox_unsupported for what QNN cannot say. */
static int read_qparam(ox_cx *cx, int si, int zi, int rank, int64_t axis_attr, qparam *q)
{
    ox_value *s = ox_in(cx, si);
    if (!s)
        return ox_fail(cx, "input %d (the scale) is missing", si + 1);
    byoc_tensor_type st = ox_type(cx, s);
    if (st.dtype != BYOC_DT_FLOAT32 && st.dtype != BYOC_DT_VOID)
        return ox_unsupported(cx, "a %s scale; QNN's scales are float32",
                              byoc_dtype_name(st.dtype));
    if (st.rank > 1)
        return ox_unsupported(cx, "a scale of rank %d (blocked quantization)", st.rank);
    q->axis = -1;
    if (st.rank == 1 && st.dims[0] != 1) {
        int64_t axis = axis_attr < 0 && rank >= 0 ? axis_attr + rank : axis_attr;
        if (axis < 0 || (rank >= 0 && axis >= rank))
            return rank < 0 ? ox_unsupported(cx, "a per-axis scale on a tensor of unknown rank")
                            : ox_fail(cx, "axis %lld is out of range for rank %d",
                                      (long long)axis_attr, rank);
        q->axis = axis;
    }
    TRY(q->scale = ox_node_of(cx, s));
    TRY(q->zp = zp_node(cx, zi));
    const ox_tensor *t = ox_data(cx, s);
    q->sv = t && t->f ? t->f : NULL;
    q->sn = q->sv ? t->n : 0;
    return 0;
}

/* A per-axis scale holds one value per index of its axis in x, and so does
 * its zero point (or one value for all); the model's error otherwise, which
 * qnn.quantize and qnn.dequantize would not see. */
static int check_axis_len(ox_cx *cx, const byoc_tensor_type *xt, const qparam *q, int si, int zi)
{
    if (q->axis < 0 || q->axis >= xt->rank || xt->dims[q->axis] < 0)
        return 0;
    for (int i = 0; i < 2; i++) {
        ox_value *v = ox_in(cx, i ? zi : si);
        byoc_tensor_type t = v ? ox_type(cx, v) : (byoc_tensor_type){BYOC_DT_VOID, -1, {0}};
        if (t.rank == 1 && t.dims[0] >= 0 && t.dims[0] != xt->dims[q->axis]
            && (i == 0 || t.dims[0] != 1))
            return ox_fail(cx, "the %s holds %lld values for the %lld of axis %lld",
                           i ? "zero point" : "scale", (long long)t.dims[0],
                           (long long)xt->dims[q->axis], (long long)q->axis);
    }
    return 0;
}

/* Do two scales hold the same numbers? */
static bool same_scale(ox_cx *cx, const qparam *a, const qparam *b)
{
    if (a->scale == b->scale)
        return true;
    if (!a->sv || !b->sv)
        return same_numbers(cx, a->scale, b->scale);
    if (a->sn != b->sn && a->sn != 1 && b->sn != 1)
        return false;
    size_t n = a->sn > b->sn ? a->sn : b->sn;
    for (size_t i = 0; i < n; i++)
        if (!near_equal(a->sv[a->sn == 1 ? 0 : i], b->sv[b->sn == 1 ? 0 : i]))
            return false;
    return true;
}

/* ---- lazy values --------------------------------------------------------------- */

enum { P_DQ, P_BIN, P_T };

/* A DequantizeLinear's output not built yet (P_DQ), or a binary float op
 * on two of them waiting for its output quantization (P_BIN); either with
 * an activation after it (Relu, Clip) when act is set.  With the
 * quantized_nhwc option, P_DQ's data may be laid out NHWC (nhwc: the
 * ONNX tensor is its NCHW transpose, and q.axis counts in data's
 * layout), and a quantized tensor in NHWC whose users are not known yet
 * is a P_T: the transpose back to NCHW, built only if a user needs it. */
typedef struct pend {
    ox_lazy base;
    int kind;
    int data;                   /* P_DQ: the integer tensor */
    byoc_dtype dtype;           /* P_DQ: its dtype */
    qparam q;                   /* P_DQ */
    byoc_dtype fits;            /* P_DQ: data's values fit this dtype (an
                                   average of it), else BYOC_DT_VOID */
    const char *op, *qop;       /* P_BIN: the float op and its QNN twin */
    ox_value *lhs, *rhs;        /* P_BIN: its operands, P_DQ values */
    bool act;
    double lo, hi;              /* act: the clip in float */
    bool nhwc;                  /* P_DQ, P_T: data is NHWC */
} pend;

static const int64_t to_nhwc[4] = {0, 2, 3, 1}, to_nchw[4] = {0, 3, 1, 2};

/* Axis a of an NCHW tensor in its NHWC layout. */
static int64_t nhwc_axis(int64_t a)
{
    static const int64_t map[4] = {0, 3, 1, 2};
    return a >= 0 && a < 4 ? map[a] : a;
}

static int64_t nchw_axis(int64_t a)
{
    return a >= 0 && a < 4 ? to_nhwc[a] : a;
}

static int transpose_node(ox_cx *cx, int x, const int64_t *perm)
{
    /* transpose(transpose(y, p), q) with q undoing p is y. */
    if (byoc_node_kind_of(cx->g, x) == BYOC_N_CALL && !byoc_node_is_opaque(cx->g, x)
        && strcmp(byoc_node_op_name(cx->g, x), "transpose") == 0) {
        const byoc_value *axes = byoc_node_attr(cx->g, x, "axes");
        bool undo = axes && axes->kind == BYOC_V_LIST && axes->u.list.n == 4;
        for (int k = 0; undo && k < 4; k++)
            undo = axes->u.list.items[perm[k]].u.i == k;
        if (undo)
            return byoc_node_arg(cx->g, x, 0);
    }
    int node = call1(cx, "transpose", x);
    TRY(ox_set_ints(cx, node, "axes", perm, 4));
    return node;
}

static int build_pend(ox_cx *cx, const ox_lazy *l);

static const pend *pend_of(ox_value *v)
{
    const ox_lazy *l = ox_lazy_of(v);
    return l && l->build == build_pend ? (const pend *)l : NULL;
}

/* A dequantized tensor with no activation: what the integer forms take. */
static const pend *plain_dq(ox_value *v)
{
    const pend *p = pend_of(v);
    return p && p->kind == P_DQ && !p->act ? p : NULL;
}

/* Does the value hold a P_DQ or P_BIN (what the rewrite rules look at)? */
static const pend *dq_or_bin(ox_value *v)
{
    const pend *p = pend_of(v);
    return p && p->kind != P_T ? p : NULL;
}

static int activation(ox_cx *cx, int node, const pend *p)
{
    if (!p->act)
        return node;
    if (p->lo == 0 && p->hi == INFINITY)
        return call1(cx, "nn.relu", node);
    int c = call1(cx, "clip", node);
    TRY(ox_set_float(cx, c, "a_min", p->lo));
    TRY(ox_set_float(cx, c, "a_max", p->hi));
    return c;
}

static int build_pend(ox_cx *cx, const ox_lazy *l)
{
    const pend *p = (const pend *)l;
    int node;
    if (p->kind == P_T)
        return transpose_node(cx, p->data, to_nchw);
    if (p->kind == P_DQ) {
        int args[3] = {p->data, p->q.scale, p->q.zp};
        node = ox_call(cx, "qnn.dequantize", args, 3);
        if (p->q.axis >= 0)
            TRY(ox_set_int(cx, node, "axis", p->q.axis));
        if (p->nhwc)
            node = transpose_node(cx, node, to_nchw);
    } else {
        node = call2(cx, p->op, ox_node_of(cx, p->lhs), ox_node_of(cx, p->rhs));
    }
    TRY(node);
    return activation(cx, node, p);
}

bool ox_qdq_plain_dequantize(const ox_lazy *l, int *data, int *scale, int *zp, int64_t *axis)
{
    const pend *p = (const pend *)l;
    if (!l || l->build != build_pend || p->kind != P_DQ || p->act || p->nhwc)
        return false;
    *data = p->data;
    *scale = p->q.scale;
    *zp = p->q.zp;
    *axis = p->q.axis;
    return true;
}

/* data's dtype is given: a node built by this converter is not typed yet. */
static pend *new_dq(ox_cx *cx, int data, byoc_dtype dt, const qparam *q)
{
    pend *p = ox_alloc(cx, sizeof *p);
    p->base.build = build_pend;
    p->base.type = node_type(cx, data);
    p->base.type.dtype = BYOC_DT_FLOAT32;
    p->base.like = data;
    p->kind = P_DQ;
    p->data = data;
    p->dtype = dt;
    p->q = *q;
    p->fits = BYOC_DT_VOID;
    return p;
}

/* The lazy value's type is data's in NCHW. */
static void lay_nhwc(pend *p)
{
    p->nhwc = true;
    p->base.nperm = 4;
    memcpy(p->base.perm, to_nchw, sizeof to_nchw);
}

/* Output 0 is integer tensor `node` (NHWC when nhwc), the QuantizeLinear's
 * result: as is in NCHW, else a P_T. */
static int define_quantized(ox_cx *cx, int node, byoc_dtype dt, bool nhwc)
{
    TRY(node);
    if (!nhwc) {
        ox_define(cx, 0, node);
        return 0;
    }
    pend *p = ox_alloc(cx, sizeof *p);
    p->base.build = build_pend;
    p->base.type.dtype = dt;
    p->base.type.rank = -1;
    p->base.like = node;
    p->kind = P_T;
    p->data = node;
    p->dtype = dt;
    lay_nhwc(p);
    ox_define_lazy(cx, 0, &p->base);
    return 0;
}

/* P_DQ p's integer tensor in the layout asked for, and its quantization
 * with the axis counted in that layout. */
static int data_in(ox_cx *cx, const pend *p, bool nhwc, qparam *q)
{
    *q = p->q;
    if (p->nhwc == nhwc)
        return p->data;
    q->axis = nhwc ? nhwc_axis(p->q.axis) : nchw_axis(p->q.axis);
    return transpose_node(cx, p->data, nhwc ? to_nhwc : to_nchw);
}

/* The accumulator of a qnn.conv2d or qnn.dense: int32 with scale
 * s_x * s_w and zero point 0, per channel (axis) when s_w is. */
static int acc_qparam(ox_cx *cx, const qparam *xq, const qparam *wq, int64_t axis, qparam *acc)
{
    byoc_tensor_type wt = node_type(cx, wq->scale);
    if (wt.rank > 1 || (wt.rank == 1 && wt.dims[0] < 0))
        return ox_fail(cx, "a weight scale of rank %d", wt.rank);
    size_t n = wt.rank == 0 ? 1 : (size_t)wt.dims[0];
    double sx = 0;
    bool known = xq->sv && xq->sn == 1;
    if (known)
        sx = xq->sv[0];
    else
        known = known_scalar(cx, xq->scale, &sx);
    double *v = NULL;
    if (known && wq->sv && wq->sn == n) {
        v = ox_alloc(cx, sizeof(double) * n);
        for (size_t i = 0; i < n; i++)
            v[i] = wq->sv[i] * sx;
    } else if (known && n <= QMAX_VALUES) {
        double w[QMAX_VALUES];
        size_t nw;
        if (known_numbers(cx, wq->scale, w, QMAX_VALUES, &nw) && nw == n) {
            v = ox_alloc(cx, sizeof(double) * n);
            for (size_t i = 0; i < n; i++)
                v[i] = w[i] * sx;
        }
    }
    acc->scale = make_const(cx, BYOC_DT_FLOAT32, wt.rank, wt.rank == 1 ? wt.dims[0] : 0, v);
    acc->zp = make_const(cx, BYOC_DT_INT32, 0, 0, (const double[]){0});
    acc->axis = axis;
    acc->sv = v;
    acc->sn = v ? n : 0;
    TRY(acc->scale);
    TRY(acc->zp);
    return 0;
}

static int define_acc(ox_cx *cx, int acc, const qparam *q, bool nhwc)
{
    TRY(acc);
    pend *p = new_dq(cx, acc, BYOC_DT_INT32, q);
    if (nhwc)
        lay_nhwc(p);
    ox_define_lazy(cx, 0, &p->base);
    return 0;
}

/* ---- the bias of a quantized conv or dense ------------------------------------ */

/* Can the value be added to an accumulator in the integer domain?  A
 * dequantized int32 tensor, or a float constant (quantized here, as
 * FakeQuantizationToInteger quantizes a constant bias). */
static bool bias_ok(ox_cx *cx, ox_value *b)
{
    if (!b)
        return true;
    const pend *p = plain_dq(b);
    if (p)
        return p->dtype == BYOC_DT_INT32 && node_type(cx, p->data).rank == 1;
    byoc_tensor_type t = ox_type(cx, b);
    return ox_is_const(b) && t.dtype == BYOC_DT_FLOAT32 && t.rank == 1;
}

/* The bias as int32 in the accumulator's quantization. */
static int int_bias(ox_cx *cx, ox_value *b, const qparam *acc)
{
    int s = acc->scale;
    int64_t axis = acc->axis;
    const pend *p = plain_dq(b);
    if (p) {
        if (same_scale(cx, &p->q, acc) && all_zero(cx, p->q.zp))
            return p->data;
        /* Another quantization: brought to the accumulator's. */
        int args[5] = {p->data, p->q.scale, p->q.zp, s,
                       make_const(cx, BYOC_DT_INT32, 0, 0, (const double[]){0})};
        int r = ox_call(cx, "qnn.requantize", args, 5);
        if (axis >= 0 || p->q.axis >= 0)
            TRY(ox_set_int(cx, r, "axis", 0));
        TRY(ox_set_dtype(cx, r, "out_dtype", BYOC_DT_INT32));
        return r;
    }
    /* A float constant: round(b / s), known when b's contents and s's
     * are. */
    byoc_tensor_type bt = ox_type(cx, b);
    const ox_tensor *bd = ox_data(cx, b);
    double v[QMAX_VALUES];
    size_t ns = acc->sn;
    bool known = bd && bd->f && bd->n <= QMAX_VALUES && acc->sv && (ns == 1 || ns == bd->n);
    for (size_t i = 0; known && i < bd->n; i++) {
        double si = acc->sv[ns == 1 ? 0 : i];
        known = si != 0;
        /* Saturated to int32, as qnn.quantize to int32 would. */
        v[i] = known ? fmin(fmax(rint(bd->f[i] / si), -2147483648.0), 2147483647.0) : 0;
    }
    return make_const(cx, BYOC_DT_INT32, 1, bt.dims[0], known ? v : NULL);
}

/* ---- quantized convolution and dense ------------------------------------------- */

/* A constant's axes permuted into a new constant (as FoldConstant would
 * make it; weights carry no contents on the graph), else a transpose. */
static int permuted(ox_cx *cx, int w, const int64_t *perm)
{
    byoc_tensor_type t = node_type(cx, w);
    if (byoc_node_kind_of(cx->g, w) != BYOC_N_CONST || t.rank != 4
        || byoc_node_const_value(cx->g, w))
        return transpose_node(cx, w, perm);
    byoc_tensor_type p = t;
    for (int k = 0; k < 4; k++)
        p.dims[k] = t.dims[perm[k]];
    byoc_error e;
    int node = byoc_graph_add_const(cx->g, &p, NULL, &e);
    if (node < 0)
        return ox_fail(cx, "%s", e.msg);
    const char *name = byoc_node_name(cx->g, w);
    if (name)
        byoc_graph_set_name(cx->g, node, name);
    return node;
}

/* qnn.conv2d of data x (input 0 of the node: SAME padding reads its
 * shape) and weight w, with the node's Conv attributes; out_dtype int32.
 * 1 through ox_unsupported when it is not a 2-D convolution. */
static int qconv2d(ox_cx *cx, int x, const qparam *xq, int w, const qparam *wq, bool nhwc,
                   int *out)
{
    /* x may be a transpose built here, not typed yet: the model's input
     * 0 has the rank. */
    byoc_tensor_type xt = ox_type(cx, ox_in(cx, 0)), wt = node_type(cx, w);
    const int64_t *ks;
    size_t nk;
    int64_t kernel[2], strides[2], dil[2], pads[4], group;
    int rc = ox_attr_ints(cx, "kernel_shape", &ks, &nk);
    TRY(rc);
    if (rc == 0) {
        if (wt.rank != 4 || wt.dims[2] < 0 || wt.dims[3] < 0)
            return ox_unsupported(cx, "no kernel_shape and the weight's shape is not known");
        nk = 2;
        ks = &wt.dims[2];
    }
    if (nk != 2 || xt.rank != 4)
        return ox_unsupported(cx, "a quantized convolution over %zu spatial axes; QNN has "
                                  "qnn.conv2d only", nk);
    for (int i = 0; i < 2; i++) {
        if (ks[i] < 1)
            return ox_fail(cx, "attribute 'kernel_shape' has the value %lld", (long long)ks[i]);
        kernel[i] = ks[i];
    }
    TRY(ox_attr_int(cx, "group", 1, &group));
    if (group < 1)
        return ox_fail(cx, "attribute 'group' has the value %lld", (long long)group);
    TRY(ox_spatial_ints(cx, "strides", 2, 1, 1, strides));
    TRY(ox_spatial_ints(cx, "dilations", 2, 1, 1, dil));
    TRY(rc = ox_read_pads(cx, 2, kernel, strides, dil, pads));
    if (rc > 0)
        return rc;
    TRY(ox_check_window(cx, 2, kernel, dil, pads, true));
    TRY(ox_check_groups(cx, &xt, &wt, group));
    if (xq->axis >= 0)
        return ox_unsupported(cx, "a per-channel input quantization");
    if (wq->axis > 0)
        return ox_unsupported(cx, "a weight quantized along axis %lld, not its output channels",
                              (long long)wq->axis);
    /* NHWC: the kernel HWIO, or HWOI for a depthwise convolution (one
     * input channel per group), as TFLite's graphs have them. */
    bool depthwise = group > 1 && wt.rank == 4 && wt.dims[1] == 1;
    const char *klayout = depthwise ? "HWOI" : "HWIO";
    if (nhwc) {
        static const int64_t hwio[4] = {2, 3, 1, 0}, hwoi[4] = {2, 3, 0, 1};
        TRY(w = permuted(cx, w, depthwise ? hwoi : hwio));
    }
    int args[6] = {x, w, xq->zp, wq->zp, xq->scale, wq->scale};
    int node = ox_call(cx, "qnn.conv2d", args, 6);
    if (nhwc) {
        TRY(ox_set_string(cx, node, "data_layout", "NHWC"));
        TRY(ox_set_string(cx, node, "kernel_layout", klayout));
    }
    TRY(ox_set_ints(cx, node, "strides", strides, 2));
    TRY(ox_set_ints(cx, node, "padding", pads, 4));
    TRY(ox_set_ints(cx, node, "dilation", dil, 2));
    TRY(ox_set_int(cx, node, "groups", group));
    if (wt.rank >= 1 && wt.dims[0] >= 0)
        TRY(ox_set_int(cx, node, "channels", wt.dims[0]));
    TRY(ox_set_ints(cx, node, "kernel_size", kernel, 2));
    TRY(ox_set_dtype(cx, node, "out_dtype", BYOC_DT_INT32));
    *out = node;
    return 0;
}

/* A weight [K, N] as the [N, K] nn.dense takes: a constant is transposed
 * into a new constant, as FoldConstant would; anything else gets a
 * transpose. */
static int dense_weight(ox_cx *cx, int w)
{
    byoc_tensor_type t = node_type(cx, w);
    if (byoc_node_kind_of(cx->g, w) == BYOC_N_CONST && t.rank == 2) {
        int64_t d = t.dims[0];
        t.dims[0] = t.dims[1];
        t.dims[1] = d;
        byoc_error e;
        int node = byoc_graph_add_const(cx->g, &t, NULL, &e);
        if (node < 0)
            return ox_fail(cx, "%s", e.msg);
        const char *name = byoc_node_name(cx->g, w);
        if (name)
            byoc_graph_set_name(cx->g, node, name);
        return node;
    }
    static const int64_t swap[2] = {1, 0};
    int node = call1(cx, "transpose", w);
    TRY(ox_set_ints(cx, node, "axes", swap, 2));
    return node;
}

/* qnn.dense(a, w) for a [M, K] and w [N, K]; out_dtype int32. */
static int qdense(ox_cx *cx, int a, const qparam *aq, int w, const qparam *wq)
{
    int args[6] = {a, w, aq->zp, wq->zp, aq->scale, wq->scale};
    int node = ox_call(cx, "qnn.dense", args, 6);
    byoc_tensor_type wt = node_type(cx, w);
    if (wt.rank == 2 && wt.dims[0] >= 0)
        TRY(ox_set_int(cx, node, "units", wt.dims[0]));
    TRY(ox_set_dtype(cx, node, "out_dtype", BYOC_DT_INT32));
    return node;
}

/* ---- the QDQ rewrite: float ops on dequantized inputs ------------------------ */

/* Conv(DQ(x), DQ(w) [, DQ(b) | b]): qnn.conv2d [+ nn.bias_add]. */
static int rw_conv(ox_cx *cx)
{
    const pend *x = plain_dq(ox_in(cx, 0)), *w = plain_dq(ox_in(cx, 1));
    ox_value *b = ox_in(cx, 2);
    if (!x || !w || !is_qdtype(x->dtype) || !is_qdtype(w->dtype) || x->q.axis >= 0
        || w->q.axis > 0 || !bias_ok(cx, b) || node_type(cx, x->data).rank != 4)
        return OX_QDQ_NONE;
    bool nhwc = cx->quantized_nhwc;
    int node = -1;
    qparam xq;
    int xd = data_in(cx, x, nhwc, &xq);
    TRY(xd);
    int rc = qconv2d(cx, xd, &xq, w->data, &w->q, nhwc, &node);
    if (rc != 0)
        return rc;
    qparam acc;
    TRY(acc_qparam(cx, &x->q, &w->q, w->q.axis >= 0 ? (nhwc ? 3 : 1) : -1, &acc));
    if (b) {
        node = call2(cx, "nn.bias_add", node, int_bias(cx, b, &acc));
        if (nhwc)
            TRY(ox_set_int(cx, node, "axis", 3));
    }
    return define_acc(cx, node, &acc, nhwc);
}

/* Gemm(DQ(a), DQ(b) [, c]) with alpha = beta = 1 and no transA, and
 * MatMul(DQ(a), DQ(b)) of two matrices: qnn.dense [+ nn.bias_add]. */
static int rw_dense(ox_cx *cx)
{
    bool gemm = strcmp(cx->node->op_type, "Gemm") == 0;
    const pend *a = plain_dq(ox_in(cx, 0)), *w = plain_dq(ox_in(cx, 1));
    ox_value *c = gemm ? ox_in(cx, 2) : NULL;
    if (!a || !w || !is_qdtype(a->dtype) || !is_qdtype(w->dtype) || a->q.axis >= 0)
        return OX_QDQ_NONE;
    double alpha = 1, beta = 1;
    int64_t ta = 0, tb = 0;
    if (gemm) {
        TRY(ox_attr_float(cx, "alpha", 1.0, &alpha));
        TRY(ox_attr_float(cx, "beta", 1.0, &beta));
        TRY(ox_attr_int(cx, "transA", 0, &ta));
        TRY(ox_attr_int(cx, "transB", 0, &tb));
    }
    byoc_tensor_type at = node_type(cx, a->data), wt = node_type(cx, w->data);
    /* The weight's per-channel axis must be N: 0 of [N, K], 1 of [K, N]. */
    if (alpha != 1 || (c && beta != 1) || ta || at.rank != 2 || wt.rank != 2
        || (w->q.axis >= 0 && w->q.axis != (tb ? 0 : 1)) || !bias_ok(cx, c))
        return OX_QDQ_NONE;
    int wn = tb ? w->data : dense_weight(cx, w->data);
    qparam wq = w->q;
    wq.axis = w->q.axis >= 0 ? 0 : -1;
    int node = qdense(cx, a->data, &a->q, wn, &wq);
    TRY(node);
    qparam acc;
    TRY(acc_qparam(cx, &a->q, &w->q, w->q.axis >= 0 ? 1 : -1, &acc));
    if (c)
        node = call2(cx, "nn.bias_add", node, int_bias(cx, c, &acc));
    return define_acc(cx, node, &acc, false);
}

/* Add, Mul, Sub of two dequantized tensors: their QNN op once a
 * QuantizeLinear gives the output's quantization. */
static int rw_binary(ox_cx *cx)
{
    ox_value *l = ox_in(cx, 0), *r = ox_in(cx, 1);
    const pend *a = plain_dq(l), *b = plain_dq(r);
    if (!a || !b || !is_qdtype(a->dtype) || a->dtype != b->dtype || a->q.axis >= 0
        || b->q.axis >= 0 || cx->opset < 7)
        return OX_QDQ_NONE;
    static const char *const ops[][3] = {
        {"Add", "add", "qnn.add"}, {"Mul", "multiply", "qnn.mul"},
        {"Sub", "subtract", "qnn.subtract"},
    };
    pend *p = ox_alloc(cx, sizeof *p);
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (strcmp(cx->node->op_type, ops[k][0]) == 0) {
            p->op = ops[k][1];
            p->qop = ops[k][2];
        }
    byoc_tensor_type ta = ox_type(cx, l), tb = ox_type(cx, r), out = ta;
    out.dtype = BYOC_DT_FLOAT32;
    /* NHWC operands keep it when both are 4-D (broadcasting a shorter one
     * would align it with the wrong axes). */
    p->nhwc = (a->nhwc || b->nhwc) && ta.rank == 4 && tb.rank == 4;
    if (ta.rank < 0 || tb.rank < 0) {
        out.rank = -1;
    } else {
        out.rank = ta.rank > tb.rank ? ta.rank : tb.rank;
        for (int k = 0; k < out.rank; k++) {
            int ia = k - (out.rank - ta.rank), ib = k - (out.rank - tb.rank);
            int64_t x = ia >= 0 ? ta.dims[ia] : 1, y = ib >= 0 ? tb.dims[ib] : 1;
            out.dims[k] = x == y ? x : x == 1 ? y : y == 1 ? x : BYOC_DIM_UNKNOWN;
        }
    }
    p->base.build = build_pend;
    p->base.type = out;
    p->base.like = -1;
    p->kind = P_BIN;
    p->lhs = l;
    p->rhs = r;
    ox_define_lazy(cx, 0, &p->base);
    return 0;
}

/* Relu and Clip with known bounds after a dequantized tensor or a
 * pending binary op: carried to the QuantizeLinear. */
static int rw_activation(ox_cx *cx)
{
    const pend *p = dq_or_bin(ox_in(cx, 0));
    if (!p)
        return OX_QDQ_NONE;
    double lo = 0, hi = INFINITY;
    if (strcmp(cx->node->op_type, "Clip") == 0) {
        lo = -INFINITY;
        if (cx->opset < 11) {
            TRY(ox_attr_float(cx, "min", -INFINITY, &lo));
            TRY(ox_attr_float(cx, "max", INFINITY, &hi));
        } else {
            for (int i = 1; i <= 2; i++) {
                ox_value *v = ox_in(cx, i);
                const ox_tensor *t = v ? ox_data(cx, v) : NULL;
                if (v && (!t || t->n != 1))
                    return OX_QDQ_NONE;
                if (t)
                    *(i == 1 ? &lo : &hi) = t->f ? t->f[0] : (double)t->i[0];
            }
        }
    }
    pend *q = ox_alloc(cx, sizeof *q);
    *q = *p;
    q->lo = p->act ? fmax(p->lo, lo) : lo;
    q->hi = p->act ? fmin(p->hi, hi) : hi;
    q->act = true;
    ox_define_lazy(cx, 0, &q->base);
    return 0;
}

/* MaxPool, GlobalMaxPool, Flatten, Reshape, Squeeze, Unsqueeze on a
 * dequantized tensor: the op on the integer tensor, with the same
 * quantization (the shape ops only per tensor). */
static int rw_pass(ox_cx *cx)
{
    const pend *x = plain_dq(ox_in(cx, 0));
    bool pool = strstr(cx->node->op_type, "MaxPool") != NULL;
    if (!x)
        return OX_QDQ_NONE;
    const char *mode;
    TRY(ox_attr_string(cx, "auto_pad", "NOTSET", &mode));
    /* The pools go NHWC with quantized_nhwc, unless SAME padding needs
     * the NCHW sizes the converter reads; the shape ops work on NCHW. */
    bool nhwc = pool && cx->quantized_nhwc && ox_type(cx, ox_in(cx, 0)).rank == 4
                && (!strcmp(mode, "NOTSET") || !strcmp(mode, "VALID"));
    /* Per channel only through a pool, which keeps the channels. */
    qparam q;
    int64_t axis = x->nhwc == nhwc ? x->q.axis : nhwc ? nhwc_axis(x->q.axis)
                                                      : nchw_axis(x->q.axis);
    if (axis >= 0 && !(pool && axis == (nhwc ? 3 : 1)))
        return OX_QDQ_NONE;
    int xd = data_in(cx, x, nhwc, &q);
    TRY(xd);
    int nodes[2] = {xd, OX_KEEP};
    int rc = ox_convert_as(cx, cx->node->op_type, nodes, cx->node->ninputs > 1 ? 2 : 1);
    if (rc != 0)
        return rc;
    int out = ox_out_node(cx, 0);
    TRY(out);
    if (nhwc)
        TRY(ox_set_string(cx, out, "layout", "NHWC"));
    pend *p = new_dq(cx, out, x->dtype, &q);
    p->fits = x->fits;
    if (nhwc)
        lay_nhwc(p);
    ox_define_lazy(cx, 0, &p->base);
    return 0;
}

/* AveragePool and GlobalAveragePool on a dequantized tensor: the pool of
 * the tensor cast to int32, as TFLite's graphs and TVM's
 * FakeQuantizationToInteger give it (cast(avg_pool2d(cast(x)))); the
 * average keeps the quantization.  Padding that counts into the average
 * would count the integer 0, not the zero point: those stay float. */
static int rw_avg_pool(ox_cx *cx)
{
    const pend *x = plain_dq(ox_in(cx, 0));
    if (!x || x->q.axis >= 0 || !is_qdtype(x->dtype))
        return OX_QDQ_NONE;
    byoc_tensor_type xt = ox_type(cx, ox_in(cx, 0));
    const char *pad_mode;
    TRY(ox_attr_string(cx, "auto_pad", "NOTSET", &pad_mode));
    bool nhwc = cx->quantized_nhwc && xt.rank == 4
                && (!strcmp(pad_mode, "NOTSET") || !strcmp(pad_mode, "VALID"));
    if (strcmp(cx->node->op_type, "GlobalAveragePool") == 0) {
        if (xt.rank < 3 || xt.rank > 5)
            return OX_QDQ_NONE;
    } else {
        const int64_t *ks, *pads;
        size_t nk, np;
        int64_t count_pad;
        const char *mode;
        TRY(ox_attr_ints(cx, "kernel_shape", &ks, &nk));
        TRY(ox_attr_ints(cx, "pads", &pads, &np));
        TRY(ox_attr_int(cx, "count_include_pad", 0, &count_pad));
        TRY(ox_attr_string(cx, "auto_pad", "NOTSET", &mode));
        bool padded = strcmp(mode, "NOTSET") != 0 && strcmp(mode, "VALID") != 0;
        for (size_t i = 0; i < np; i++)
            padded = padded || pads[i] != 0;
        if (nk < 1 || nk > 3 || (int)nk + 2 != xt.rank || (count_pad && padded)
            || (padded && strcmp(mode, "NOTSET") != 0))
            return OX_QDQ_NONE;
    }
    qparam q;
    int c = call1(cx, "cast", data_in(cx, x, nhwc, &q));
    TRY(ox_set_dtype(cx, c, "dtype", BYOC_DT_INT32));
    int rc = ox_convert_as(cx, cx->node->op_type, &c, 1);
    if (rc != 0)
        return rc;
    int out = ox_out_node(cx, 0);
    TRY(out);
    if (nhwc)
        TRY(ox_set_string(cx, out, "layout", "NHWC"));
    pend *p = new_dq(cx, out, BYOC_DT_INT32, &q);
    p->fits = x->dtype;
    if (nhwc)
        lay_nhwc(p);
    ox_define_lazy(cx, 0, &p->base);
    return 0;
}

/* A Cast of a quantized tensor to the dtype it has (torch writes one
 * between each QuantizeLinear and DequantizeLinear) is that tensor. */
static int rw_cast(ox_cx *cx)
{
    ox_value *x = ox_in(cx, 0);
    byoc_tensor_type t = ox_type(cx, x);
    int64_t to;
    if (!x || ox_attr_int(cx, "to", 0, &to) <= 0 || !is_qdtype(t.dtype)
        || ox_dtype(to) != (int)t.dtype)
        return OX_QDQ_NONE;
    ox_alias(cx, 0, x);
    return 0;
}

int ox_qdq_rewrite(ox_cx *cx)
{
    static const struct {
        const char *op;
        int (*fn)(ox_cx *);
    } rules[] = {
        {"Add", rw_binary},                 /* qnn.add */
        {"AveragePool", rw_avg_pool},       /* cast, nn.avg_pool2d, cast */
        {"Clip", rw_activation},            /* clip after the requantize */
        {"Conv", rw_conv},                  /* qnn.conv2d (+ nn.bias_add) */
        {"Flatten", rw_pass},               /* on the integer tensor */
        {"Gemm", rw_dense},                 /* qnn.dense (+ nn.bias_add) */
        {"GlobalAveragePool", rw_avg_pool}, /* cast, nn.global_avg_pool2d, cast */
        {"GlobalMaxPool", rw_pass},         /* on the integer tensor */
        {"MatMul", rw_dense},               /* qnn.dense */
        {"MaxPool", rw_pass},               /* on the integer tensor */
        {"Mul", rw_binary},                 /* qnn.mul */
        {"Relu", rw_activation},            /* clip after the requantize */
        {"Reshape", rw_pass},               /* on the integer tensor */
        {"Squeeze", rw_pass},               /* on the integer tensor */
        {"Sub", rw_binary},                 /* qnn.subtract */
        {"Unsqueeze", rw_pass},             /* on the integer tensor */
    };
    const ox_node *n = cx->node;
    if ((n->domain[0] && strcmp(n->domain, "ai.onnx") != 0) || n->ninputs < 1)
        return OX_QDQ_NONE;
    if (strcmp(n->op_type, "Cast") == 0)
        return rw_cast(cx);
    if (!pend_of(ox_in(cx, 0)))
        return OX_QDQ_NONE;
    for (size_t k = 0; k < sizeof rules / sizeof rules[0]; k++)
        if (strcmp(n->op_type, rules[k].op) == 0)
            return rules[k].fn(cx);
    return OX_QDQ_NONE;
}

/* ---- QuantizeLinear and DequantizeLinear -------------------------------------- */

static int out_qdtype(ox_cx *cx, int zi, byoc_dtype *dt)
{
    ox_value *z = ox_in(cx, zi);
    int64_t odt;
    TRY(ox_attr_int(cx, "output_dtype", 0, &odt));
    *dt = z ? ox_type(cx, z).dtype : odt ? (byoc_dtype)ox_dtype(odt) : BYOC_DT_UINT8;
    if (!z && odt && ox_dtype(odt) < 0)
        return ox_unsupported(cx, "output_dtype %lld", (long long)odt);
    if (!is_qdtype(*dt) && *dt != BYOC_DT_INT32)
        return ox_unsupported(cx, "quantization to %s", byoc_dtype_name(*dt));
    return 0;
}

/* The clip an activation becomes after quantizing with (s, z) to dt, when
 * the numbers it needs are known: relu's lower bound is z itself. */
static bool act_bounds(ox_cx *cx, const pend *p, const qparam *oq, byoc_dtype dt, double *lo,
                       double *hi)
{
    double qmin, qmax, s = 0, z;
    qrange(dt, &qmin, &qmax);
    if (oq->axis >= 0 || !known_scalar(cx, oq->zp, &z))
        return false;
    bool need_s = !(p->lo == 0 || p->lo == -INFINITY) || p->hi != INFINITY;
    if (need_s && (!known_scalar(cx, oq->scale, &s) || s <= 0))
        return false;
    *lo = p->lo == -INFINITY ? qmin : p->lo == 0 ? z : z + rint(p->lo / s);
    *hi = p->hi == INFINITY ? qmax : z + rint(p->hi / s);
    *lo = fmin(fmax(*lo, qmin), qmax);
    *hi = fmin(fmax(*hi, qmin), qmax);
    return true;
}

/* QuantizeLinear of a lazy value; OX_QDQ_NONE when it stays float. */
static int quantize_pend(ox_cx *cx, const pend *p, const qparam *oq, byoc_dtype dt)
{
    double lo = 0, hi = 0;
    if (p->act && !act_bounds(cx, p, oq, dt, &lo, &hi))
        return OX_QDQ_NONE;
    int node;
    bool nhwc = p->nhwc;
    if (p->kind == P_T)
        return OX_QDQ_NONE;
    if (p->kind == P_BIN) {
        const pend *a = plain_dq(p->lhs), *b = plain_dq(p->rhs);
        if (!a || !b || a->dtype != dt || oq->axis >= 0)
            return OX_QDQ_NONE;
        qparam aq, bq;
        int args[8] = {data_in(cx, a, nhwc, &aq), data_in(cx, b, nhwc, &bq), a->q.scale,
                       a->q.zp, b->q.scale, b->q.zp, oq->scale, oq->zp};
        node = ox_call(cx, p->qop, args, 8);
    } else {
        qparam o = *oq;
        if (nhwc)
            o.axis = nhwc_axis(oq->axis);
        oq = &o;
        bool same = same_scale(cx, &p->q, oq) && same_numbers(cx, p->q.zp, oq->zp)
                    && (p->q.axis == oq->axis || oq->axis < 0);
        if (same && p->dtype == dt) {
            node = p->data;
        } else if (same && p->fits == dt) {
            node = call1(cx, "cast", p->data);
            TRY(ox_set_dtype(cx, node, "dtype", dt));
        } else {
            if (oq->axis >= 0 && oq->axis != p->q.axis)
                return OX_QDQ_NONE;
            int args[5] = {p->data, p->q.scale, p->q.zp, oq->scale, oq->zp};
            node = ox_call(cx, "qnn.requantize", args, 5);
            int64_t axis = p->q.axis >= 0 ? p->q.axis : oq->axis;
            if (axis >= 0)
                TRY(ox_set_int(cx, node, "axis", axis));
            TRY(ox_set_dtype(cx, node, "out_dtype", dt));
        }
    }
    TRY(node);
    double qmin, qmax;
    qrange(dt, &qmin, &qmax);
    if (p->act && (lo > qmin || hi < qmax)) {
        node = call1(cx, "clip", node);
        TRY(ox_set_float(cx, node, "a_min", lo));
        TRY(ox_set_float(cx, node, "a_max", hi));
    }
    return define_quantized(cx, node, dt, nhwc);
}

/* QuantizeLinear of a float constant: the quantized constant, with its
 * contents when the model gives them and the quantization is per tensor. */
static int quantize_const(ox_cx *cx, ox_value *x, byoc_dtype dt)
{
    byoc_tensor_type t = ox_type(cx, x);
    t.dtype = dt;
    const ox_tensor *xd = ox_data(cx, x), *sd = ox_data(cx, ox_in(cx, 1));
    ox_value *z = ox_in(cx, 2);
    const ox_tensor *zd = z ? ox_data(cx, z) : NULL;
    ox_tensor *out = NULL;
    if (xd && xd->f && sd && sd->n == 1 && (!z || (zd && zd->n == 1))) {
        double s = sd->f ? sd->f[0] : (double)sd->i[0];
        double zp = zd ? (zd->f ? zd->f[0] : (double)zd->i[0]) : 0, qmin, qmax;
        qrange(dt, &qmin, &qmax);
        if (s > 0) {
            out = ox_alloc(cx, sizeof *out);
            int64_t *v = ox_alloc(cx, sizeof(int64_t) * (xd->n + 1));
            for (size_t i = 0; i < xd->n; i++)
                v[i] = (int64_t)fmin(fmax(rint(xd->f[i] / s) + zp, qmin), qmax);
            out->type = t;
            out->n = xd->n;
            out->i = v;
        }
    }
    ox_define_const(cx, 0, &t, out);
    return 0;
}

/* QuantizeLinear(x, scale [, zero_point]): qnn.quantize; qnn.requantize
 * (or nothing) after an integer op; a constant when x is one.  The
 * output dtype is the zero point's, else output_dtype's (opset 21), else
 * uint8. */
int ox_conv_quantize(ox_cx *cx)
{
    ox_value *x = ox_in(cx, 0);
    if (!x || !ox_in(cx, 1))
        return ox_fail(cx, "inputs x and y_scale are required");
    byoc_dtype dt;
    int rc = out_qdtype(cx, 2, &dt);
    if (rc != 0)
        return rc;
    int64_t axis, block;
    TRY(ox_attr_int(cx, "axis", 1, &axis));
    TRY(ox_attr_int(cx, "block_size", 0, &block));
    if (block < 0)
        return ox_fail(cx, "attribute 'block_size' is %lld", (long long)block);
    if (block > 0)
        return ox_unsupported(cx, "blocked quantization (block_size %lld)", (long long)block);
    byoc_tensor_type xt = ox_type(cx, x);
    /* As TVM: a tensor of rank 0 or 1 is quantized along axis 0. */
    if (xt.rank >= 0 && xt.rank < 2)
        axis = 0;
    if (ox_is_const(x) && byoc_dtype_class(xt.dtype) == 'f' && ox_is_const(ox_in(cx, 1))
        && (!ox_in(cx, 2) || ox_is_const(ox_in(cx, 2))))
        return quantize_const(cx, x, dt);
    qparam oq;
    if ((rc = read_qparam(cx, 1, 2, xt.rank, axis, &oq)) != 0)
        return rc;
    TRY(check_axis_len(cx, &xt, &oq, 1, 2));
    const pend *p = pend_of(x);
    if (p && (rc = quantize_pend(cx, p, &oq, dt)) != OX_QDQ_NONE)
        return rc;
    int args[3] = {ox_arg(cx, 0), oq.scale, oq.zp};
    int node = ox_call(cx, "qnn.quantize", args, 3);
    if (oq.axis >= 0)
        TRY(ox_set_int(cx, node, "axis", oq.axis));
    TRY(ox_set_dtype(cx, node, "out_dtype", dt));
    return define(cx, 0, node);
}

/* DequantizeLinear(x, scale [, zero_point]): a lazy "x dequantized",
 * qnn.dequantize when a float op uses it. */
int ox_conv_dequantize(ox_cx *cx)
{
    ox_value *x = ox_in(cx, 0);
    if (!x || !ox_in(cx, 1))
        return ox_fail(cx, "inputs x and x_scale are required");
    byoc_tensor_type xt = ox_type(cx, x);
    if (xt.dtype != BYOC_DT_VOID && !is_qdtype(xt.dtype) && xt.dtype != BYOC_DT_INT32)
        return ox_unsupported(cx, "dequantizing %s", byoc_dtype_name(xt.dtype));
    int64_t axis, block;
    TRY(ox_attr_int(cx, "axis", 1, &axis));
    TRY(ox_attr_int(cx, "block_size", 0, &block));
    if (block < 0)
        return ox_fail(cx, "attribute 'block_size' is %lld", (long long)block);
    if (block > 0)
        return ox_unsupported(cx, "blocked quantization (block_size %lld)", (long long)block);
    /* As TVM: a tensor of rank 0 or 1 (a bias) is dequantized along axis 0. */
    if (xt.rank >= 0 && xt.rank < 2)
        axis = 0;
    qparam q;
    int rc = read_qparam(cx, 1, 2, xt.rank, axis, &q);
    if (rc != 0)
        return rc;
    TRY(check_axis_len(cx, &xt, &q, 1, 2));
    /* An NHWC tensor (quantized_nhwc) stays NHWC under the dequantize. */
    const pend *t = pend_of(x);
    if (t && t->kind == P_T) {
        q.axis = nhwc_axis(q.axis);
        pend *p = new_dq(cx, t->data, xt.dtype, &q);
        lay_nhwc(p);
        ox_define_lazy(cx, 0, &p->base);
        return 0;
    }
    int data = ox_arg(cx, 0);
    TRY(data);
    ox_define_lazy(cx, 0, &new_dq(cx, data, xt.dtype, &q)->base);
    return 0;
}

/* ---- the QOperator ops ------------------------------------------------------------ */

/* A unit scale and the zero point of input zi (ConvInteger,
 * MatMulInteger: integer ops on (x - zero point)). */
static int unit_qparam(ox_cx *cx, int zi, qparam *q)
{
    static const double one = 1.0;
    memset(q, 0, sizeof *q);
    q->axis = -1;
    TRY(q->scale = make_const(cx, BYOC_DT_FLOAT32, 0, 0, &one));
    TRY(q->zp = zp_node(cx, zi));
    q->sv = &one;
    q->sn = 1;
    return 0;
}

/* The output dtype of a QLinear op: its zero point's (input zi), else
 * input 0's. */
static byoc_dtype qlinear_out_dtype(ox_cx *cx, int zi)
{
    ox_value *z = ox_in(cx, zi);
    byoc_dtype dt = z ? ox_type(cx, z).dtype : ox_type(cx, ox_in(cx, 0)).dtype;
    return dt == BYOC_DT_VOID ? BYOC_DT_UINT8 : dt;
}

/* Requantize an int32 accumulator (acc) to output quantization (si, zi). */
static int requantize_to(ox_cx *cx, int node, const qparam *acc, int si, int zi, int rank)
{
    qparam yq;
    int rc = read_qparam(cx, si, zi, rank, 1, &yq);
    if (rc != 0)
        return rc;
    if (yq.axis >= 0)
        return ox_unsupported(cx, "a per-channel output quantization");
    int args[5] = {node, acc->scale, acc->zp, yq.scale, yq.zp};
    int r = ox_call(cx, "qnn.requantize", args, 5);
    if (acc->axis >= 0)
        TRY(ox_set_int(cx, r, "axis", acc->axis));
    TRY(ox_set_dtype(cx, r, "out_dtype", qlinear_out_dtype(cx, zi)));
    return define(cx, 0, r);
}

/* QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp [, B]):
 * qnn.conv2d [+ nn.bias_add of the int32 B] + qnn.requantize, as TVM.
 * ConvInteger(x, w [, x_zp, w_zp]): qnn.conv2d with unit scales, its
 * int32 result. */
int ox_conv_qlinear_conv(ox_cx *cx)
{
    bool integer = strcmp(cx->node->op_type, "ConvInteger") == 0;
    int wi = integer ? 1 : 3;
    ox_value *x = ox_in(cx, 0), *w = ox_in(cx, wi);
    if (!x || !w || (!integer && (!ox_in(cx, 1) || !ox_in(cx, 4) || !ox_in(cx, 6))))
        return ox_fail(cx, integer ? "inputs x and w are required"
                                   : "inputs x, x_scale, w, w_scale and y_scale are required");
    byoc_tensor_type xt = ox_type(cx, x), wt = ox_type(cx, w);
    if (xt.rank != 4 || wt.rank != 4)
        return ox_unsupported(cx, xt.rank < 0 || wt.rank < 0
                                      ? "the ranks of its inputs are not known"
                                      : "a quantized convolution that is not 2-D; QNN has "
                                        "qnn.conv2d only");
    qparam xq, wq;
    int rc = integer ? unit_qparam(cx, 2, &xq) : read_qparam(cx, 1, 2, 4, 1, &xq);
    if (rc == 0)
        rc = integer ? unit_qparam(cx, 3, &wq) : read_qparam(cx, 4, 5, 4, 0, &wq);
    if (rc != 0)
        return rc;
    int node = -1;
    TRY(rc = qconv2d(cx, ox_node_of(cx, x), &xq, ox_node_of(cx, w), &wq, false, &node));
    if (rc > 0)
        return rc;
    if (integer)
        return define(cx, 0, node);
    qparam acc;
    TRY(acc_qparam(cx, &xq, &wq, wq.axis >= 0 ? 1 : -1, &acc));
    if (ox_in(cx, 8))
        node = call2(cx, "nn.bias_add", node, ox_arg(cx, 8));
    TRY(node);
    return requantize_to(cx, node, &acc, 6, 7, 4);
}

/* QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp) and
 * MatMulInteger(a, b [, a_zp, b_zp]) of two matrices: qnn.dense with b
 * transposed (a constant b into a transposed constant), requantized for
 * QLinearMatMul.  TVM spells the batched forms with qnn.batch_matmul;
 * those stay opaque here. */
int ox_conv_qlinear_matmul(ox_cx *cx)
{
    bool integer = strcmp(cx->node->op_type, "MatMulInteger") == 0;
    int bi = integer ? 1 : 3;
    ox_value *a = ox_in(cx, 0), *b = ox_in(cx, bi);
    if (!a || !b || (!integer && (!ox_in(cx, 1) || !ox_in(cx, 4) || !ox_in(cx, 6))))
        return ox_fail(cx, integer ? "inputs A and B are required"
                                   : "inputs a, a_scale, b, b_scale and y_scale are required");
    if (ox_type(cx, a).rank != 2 || ox_type(cx, b).rank != 2)
        return ox_unsupported(cx, "a product of other than two matrices");
    qparam aq, bq;
    int rc = integer ? unit_qparam(cx, 2, &aq) : read_qparam(cx, 1, 2, 2, 1, &aq);
    if (rc == 0)
        rc = integer ? unit_qparam(cx, 3, &bq) : read_qparam(cx, 4, 5, 2, 1, &bq);
    if (rc != 0)
        return rc;
    byoc_tensor_type azt = node_type(cx, aq.zp);
    if (aq.axis >= 0 || (azt.rank == 1 && azt.dims[0] != 1))
        return ox_unsupported(cx, "a per-row quantization of A");
    /* b's per-column zero points are per-row ones of the transposed b. */
    byoc_tensor_type bzt = node_type(cx, bq.zp);
    qparam wq = bq;
    wq.axis = bq.axis >= 0 || (bzt.rank == 1 && bzt.dims[0] != 1) ? 0 : -1;
    int w = dense_weight(cx, ox_node_of(cx, b));
    int node = qdense(cx, ox_node_of(cx, a), &aq, w, &wq);
    TRY(node);
    if (integer)
        return define(cx, 0, node);
    qparam acc;
    TRY(acc_qparam(cx, &aq, &bq, bq.axis >= 0 ? 1 : -1, &acc));
    return requantize_to(cx, node, &acc, 6, 7, 2);
}

/* com.microsoft QLinearAdd and QLinearMul(A, A_scale, A_zp, B, B_scale,
 * B_zp, C_scale, C_zp): qnn.add and qnn.mul.  TVM's frontend writes
 * dequantize, add, quantize (ONNX Runtime computes in float), which its
 * FakeQuantizationToInteger turns into this. */
int ox_conv_qlinear_binary(ox_cx *cx)
{
    if (!ox_in(cx, 0) || !ox_in(cx, 1) || !ox_in(cx, 3) || !ox_in(cx, 4) || !ox_in(cx, 6))
        return ox_fail(cx, "inputs A, A_scale, B, B_scale and C_scale are required");
    qparam aq, bq, cq;
    int rc = read_qparam(cx, 1, 2, -1, -1, &aq);
    if (rc == 0)
        rc = read_qparam(cx, 4, 5, -1, -1, &bq);
    if (rc == 0)
        rc = read_qparam(cx, 6, 7, -1, -1, &cq);
    if (rc != 0)
        return rc;
    int args[8] = {ox_arg(cx, 0), ox_arg(cx, 3), aq.scale, aq.zp, bq.scale, bq.zp,
                   cq.scale, cq.zp};
    return define(cx, 0, ox_call(cx, cx->map->relay, args, 8));
}

/* com.microsoft QLinearSigmoid and QLinearLeakyRelu(X, X_scale, X_zp,
 * Y_scale, Y_zp): qnn.sigmoid and qnn.leaky_relu, what
 * FakeQuantizationToInteger makes of TVM's dequantize, op, quantize.
 * alpha defaults to 0.01, ONNX Runtime's documented default, where TVM
 * reads 1.0. */
int ox_conv_qlinear_unary(ox_cx *cx)
{
    if (!ox_in(cx, 0) || !ox_in(cx, 1) || !ox_in(cx, 3))
        return ox_fail(cx, "inputs X, X_scale and Y_scale are required");
    double alpha = 0.01;
    bool leaky = strcmp(cx->map->relay, "qnn.leaky_relu") == 0;
    if (leaky)
        TRY(ox_attr_float(cx, "alpha", 0.01, &alpha));
    qparam xq, yq;
    int rc = read_qparam(cx, 1, 2, -1, -1, &xq);
    if (rc == 0)
        rc = read_qparam(cx, 3, 4, -1, -1, &yq);
    if (rc != 0)
        return rc;
    int args[5] = {ox_arg(cx, 0), xq.scale, xq.zp, yq.scale, yq.zp};
    int node = ox_call(cx, cx->map->relay, args, 5);
    if (leaky)
        TRY(ox_set_float(cx, node, "alpha", alpha));
    return define(cx, 0, node);
}

/* com.microsoft QLinearAveragePool and QLinearGlobalAveragePool(X,
 * x_scale, x_zp, y_scale, y_zp): the pool of X cast to int32, cast back
 * when the quantizations agree and requantized otherwise - what the QDQ
 * form of the same pool gives, and what FakeQuantizationToInteger makes
 * of TVM's dequantize, pool, quantize.  channels_last stays opaque. */
int ox_conv_qlinear_pool(ox_cx *cx)
{
    if (!ox_in(cx, 0) || !ox_in(cx, 1) || !ox_in(cx, 3))
        return ox_fail(cx, "inputs X, x_scale and y_scale are required");
    int64_t last, count_pad;
    TRY(ox_attr_int(cx, "channels_last", 0, &last));
    TRY(ox_attr_int(cx, "count_include_pad", 0, &count_pad));
    if (last)
        return ox_unsupported(cx, "channels_last");
    const int64_t *pads;
    size_t np;
    TRY(ox_attr_ints(cx, "pads", &pads, &np));
    for (size_t i = 0; count_pad && i < np; i++)
        if (pads[i])
            return ox_unsupported(cx, "count_include_pad with padding counts the integer 0, "
                                      "not the zero point");
    byoc_tensor_type xt = ox_type(cx, ox_in(cx, 0));
    if (!is_qdtype(xt.dtype))
        return ox_unsupported(cx, "the input's dtype is not known");
    qparam xq, yq;
    int rc = read_qparam(cx, 1, 2, -1, -1, &xq);
    if (rc == 0)
        rc = read_qparam(cx, 3, 4, -1, -1, &yq);
    if (rc != 0)
        return rc;
    int c = call1(cx, "cast", ox_arg(cx, 0));
    TRY(ox_set_dtype(cx, c, "dtype", BYOC_DT_INT32));
    bool global = strcmp(cx->node->op_type, "QLinearGlobalAveragePool") == 0;
    rc = ox_convert_as(cx, global ? "GlobalAveragePool" : "AveragePool", &c, 1);
    if (rc != 0)
        return rc;
    int out = ox_out_node(cx, 0);
    TRY(out);
    pend *p = new_dq(cx, out, BYOC_DT_INT32, &xq);
    p->fits = xt.dtype;
    rc = quantize_pend(cx, p, &yq, qlinear_out_dtype(cx, 4));
    return rc == OX_QDQ_NONE ? ox_unsupported(cx, "a per-channel output quantization") : rc;
}

/* com.microsoft QLinearConcat(Y_scale, Y_zp, X1, X1_scale, X1_zp, ...):
 * qnn.concatenate of the tensors, their scales and zero points (tuples),
 * as TVM. */
int ox_conv_qlinear_concat(ox_cx *cx)
{
    int n = cx->node->ninputs - 2;
    if (n < 3 || n % 3 != 0 || !ox_in(cx, 0))
        return ox_fail(cx, "expected Y_scale, Y_zero_point and (tensor, scale, zero point) "
                           "triples, not %d inputs", cx->node->ninputs);
    int64_t axis;
    if (ox_attr_int(cx, "axis", 0, &axis) <= 0)
        return ox_fail(cx, "attribute 'axis' is required and must be an int");
    TRY(ox_check_axis(cx, "attribute 'axis'", axis, ox_type(cx, ox_in(cx, 2)).rank));
    int k = n / 3;
    int *xs = ox_alloc(cx, sizeof(int) * (size_t)k), *ss = ox_alloc(cx, sizeof(int) * (size_t)k),
        *zs = ox_alloc(cx, sizeof(int) * (size_t)k);
    qparam yq;
    int rc = read_qparam(cx, 0, 1, -1, -1, &yq);
    if (rc != 0)
        return rc;
    for (int i = 0; i < k; i++) {
        qparam q;
        if (!ox_in(cx, 2 + 3 * i) || !ox_in(cx, 3 + 3 * i))
            return ox_fail(cx, "tensor %d or its scale is missing", i + 1);
        if ((rc = read_qparam(cx, 3 + 3 * i, 4 + 3 * i, -1, -1, &q)) != 0)
            return rc;
        TRY(xs[i] = ox_arg(cx, 2 + 3 * i));
        ss[i] = q.scale;
        zs[i] = q.zp;
    }
    int args[5] = {ox_tuple(cx, xs, k), ox_tuple(cx, ss, k), ox_tuple(cx, zs, k), yq.scale,
                   yq.zp};
    int node = ox_call(cx, "qnn.concatenate", args, 5);
    TRY(ox_set_int(cx, node, "axis", axis));
    return define(cx, 0, node);
}

/* The dynamic quantization of x to uint8, as ONNX defines it and TVM
 * builds it: scale = (max(x, 0) - min(x, 0)) / 255, zero point =
 * round(clip(-min(x, 0) / scale, 0, 255)); the float zero point in *zpf. */
static int dynamic_quantize(ox_cx *cx, int x, int *scale, int *zpf)
{
    int zero = ox_scalar(cx, BYOC_DT_FLOAT32, 0);
    int hi = call2(cx, "maximum", call1(cx, "max", x), zero);
    int lo = call2(cx, "minimum", call1(cx, "min", x), zero);
    int range = call2(cx, "subtract", hi, lo);
    *scale = call2(cx, "divide", range, ox_scalar(cx, BYOC_DT_FLOAT32, 255));
    int z = call1(cx, "clip", call2(cx, "divide", call1(cx, "negative", lo), *scale));
    TRY(ox_set_float(cx, z, "a_min", 0));
    TRY(ox_set_float(cx, z, "a_max", 255));
    *zpf = call1(cx, "round", z);
    return *zpf;
}

static int cast_to(ox_cx *cx, int x, byoc_dtype dt)
{
    int c = call1(cx, "cast", x);
    TRY(ox_set_dtype(cx, c, "dtype", dt));
    return c;
}

/* DynamicQuantizeLinear(x): (qnn.quantize(x, scale, zero point), scale,
 * zero point) with the scale and zero point computed from x's range. */
int ox_conv_dynamic_quantize(ox_cx *cx)
{
    int x = ox_arg(cx, 0), scale, zpf;
    TRY(x);
    if (ox_type(cx, ox_in(cx, 0)).dtype != BYOC_DT_FLOAT32)
        return ox_unsupported(cx, "a %s input; ONNX takes float",
                              byoc_dtype_name(ox_type(cx, ox_in(cx, 0)).dtype));
    TRY(dynamic_quantize(cx, x, &scale, &zpf));
    int args[3] = {x, scale, cast_to(cx, zpf, BYOC_DT_INT32)};
    int y = ox_call(cx, "qnn.quantize", args, 3);
    TRY(ox_set_dtype(cx, y, "out_dtype", BYOC_DT_UINT8));
    TRY(define(cx, 0, y));
    TRY(define(cx, 1, scale));
    return define(cx, 2, cast_to(cx, zpf, BYOC_DT_UINT8));
}

/* com.microsoft QGemm(A, a_scale, a_zp, B, b_scale, b_zp [, C, y_scale,
 * y_zp]) with alpha 1 and no transA: qnn.dense [+ the int32 C], then
 * requantized to y, or dequantized when y_scale is absent (a float
 * output).  TVM adds C with add and scales a float output with cast and
 * multiply; nn.bias_add and qnn.dequantize compute the same and are what
 * the backends' dense patterns name. */
int ox_conv_qgemm(ox_cx *cx)
{
    if (!ox_in(cx, 0) || !ox_in(cx, 1) || !ox_in(cx, 3) || !ox_in(cx, 4))
        return ox_fail(cx, "inputs A, a_scale, B and b_scale are required");
    double alpha;
    int64_t ta, tb;
    TRY(ox_attr_float(cx, "alpha", 1.0, &alpha));
    TRY(ox_attr_int(cx, "transA", 0, &ta));
    TRY(ox_attr_int(cx, "transB", 0, &tb));
    if (ta || alpha != 1)
        return ox_unsupported(cx, "transA or an alpha other than 1");
    ox_value *c = ox_in(cx, 6);
    byoc_tensor_type ct = c ? ox_type(cx, c) : ox_type(cx, ox_in(cx, 0));
    if (ox_type(cx, ox_in(cx, 0)).rank != 2 || ox_type(cx, ox_in(cx, 3)).rank != 2
        || (c && (ct.rank != 1 || ct.dtype != BYOC_DT_INT32)))
        return ox_unsupported(cx, "a product of other than two matrices, or a bias other "
                                  "than an int32 vector");
    qparam aq, bq;
    int rc = read_qparam(cx, 1, 2, 2, 1, &aq);
    if (rc == 0)
        rc = read_qparam(cx, 4, 5, 2, tb ? 0 : 1, &bq);
    if (rc != 0)
        return rc;
    if (aq.axis >= 0)
        return ox_unsupported(cx, "a per-row quantization of A");
    qparam wq = bq;
    wq.axis = bq.axis >= 0 ? 0 : -1;
    int b = ox_arg(cx, 3);
    int node = qdense(cx, ox_arg(cx, 0), &aq, tb ? b : dense_weight(cx, b), &wq);
    qparam acc;
    TRY(acc_qparam(cx, &aq, &bq, bq.axis >= 0 ? 1 : -1, &acc));
    if (c)
        node = call2(cx, "nn.bias_add", node, ox_arg(cx, 6));
    TRY(node);
    if (ox_in(cx, 7))
        return requantize_to(cx, node, &acc, 7, 8, 2);
    int args[3] = {node, acc.scale, acc.zp};
    int d = ox_call(cx, "qnn.dequantize", args, 3);
    if (acc.axis >= 0)
        TRY(ox_set_int(cx, d, "axis", acc.axis));
    return define(cx, 0, d);
}

/* The float product of a quantized A ([..., K]) and B ([K, N]) with
 * scales (as, bs), A per tensor: qnn.dense on A flattened to 2-D, its
 * int32 result dequantized with scale as * bs (s_ab, a graph node),
 * reshaped back, plus the float bias (input bias_i) when given. */
static int dense_to_float(ox_cx *cx, int a, const qparam *aq, int b, const qparam *bq,
                          int s_ab, int bias_i)
{
    /* A's shape is input 0's: a quantized A built here is not typed yet. */
    byoc_tensor_type at = ox_type(cx, ox_in(cx, 0)), bt = node_type(cx, b);
    int r = at.rank;
    int64_t K = r >= 1 ? at.dims[r - 1] : -1, N = bt.dims[1];
    if (r > 2) {
        int64_t flat[2] = {-1, K};
        a = call1(cx, "reshape", a);
        TRY(ox_set_ints(cx, a, "newshape", flat, 2));
    }
    qparam wq = *bq;
    wq.axis = bq->axis >= 0 ? 0 : -1;
    int node = qdense(cx, a, aq, dense_weight(cx, b), &wq);
    int args[3] = {node, s_ab, make_const(cx, BYOC_DT_INT32, 0, 0, (const double[]){0})};
    int d = ox_call(cx, "qnn.dequantize", args, 3);
    if (bq->axis >= 0)
        TRY(ox_set_int(cx, d, "axis", 1));
    if (r > 2) {
        int64_t shape[BYOC_MAX_RANK];
        for (int k = 0; k < r - 1; k++)
            shape[k] = at.dims[k] >= 0 ? at.dims[k] : -1;
        shape[r - 1] = N;
        d = call1(cx, "reshape", d);
        TRY(ox_set_ints(cx, d, "newshape", shape, (size_t)r));
    }
    if (ox_in(cx, bias_i))
        d = call2(cx, "add", d, ox_arg(cx, bias_i));
    return define(cx, 0, d);
}

/* Checks shared by the two: A of rank >= 2 flattened to 2-D and
 * reshaped back, so its last axis and all but one of the others known; B
 * a matrix. */
static int check_float_matmul(ox_cx *cx, int bi)
{
    byoc_tensor_type at = ox_type(cx, ox_in(cx, 0)), bt = ox_type(cx, ox_in(cx, bi));
    int unknown = 0;
    for (int k = 0; k + 1 < at.rank; k++)
        unknown += at.dims[k] < 0;
    if (at.rank < 2 || bt.rank != 2 || bt.dims[1] < 0 || at.dims[at.rank - 1] < 0
        || (at.rank > 2 && unknown > 1))
        return ox_unsupported(cx, "A must have rank 2 or more and B be a matrix, with the "
                                  "reduced and output axes and all but one of A's others "
                                  "known");
    return 0;
}

/* com.microsoft MatMulIntegerToFloat(A, B, a_scale, b_scale [, a_zp,
 * b_zp, bias]): qnn.dense dequantized, plus the bias. */
int ox_conv_matmul_integer_to_float(ox_cx *cx)
{
    if (!ox_in(cx, 0) || !ox_in(cx, 1) || !ox_in(cx, 2) || !ox_in(cx, 3))
        return ox_fail(cx, "inputs A, B, a_scale and b_scale are required");
    int rc = check_float_matmul(cx, 1);
    if (rc != 0)
        return rc;
    qparam aq, bq;
    rc = read_qparam(cx, 2, 4, -1, -1, &aq);
    if (rc == 0)
        rc = read_qparam(cx, 3, 5, 2, 1, &bq);
    if (rc != 0)
        return rc;
    if (aq.axis >= 0)
        return ox_unsupported(cx, "a per-row quantization of A");
    qparam acc;
    TRY(acc_qparam(cx, &aq, &bq, bq.axis >= 0 ? 1 : -1, &acc));
    return dense_to_float(cx, ox_arg(cx, 0), &aq, ox_arg(cx, 1), &bq, acc.scale, 6);
}

/* com.microsoft DynamicQuantizeMatMul(A, B, b_scale [, b_zp, bias]): A
 * quantized to uint8 by its range (DynamicQuantizeLinear), then as
 * MatMulIntegerToFloat; the product's scale is computed (a multiply). */
int ox_conv_dynamic_quantize_matmul(ox_cx *cx)
{
    if (!ox_in(cx, 0) || !ox_in(cx, 1) || !ox_in(cx, 2))
        return ox_fail(cx, "inputs A, B and b_scale are required");
    int rc = check_float_matmul(cx, 1);
    if (rc != 0)
        return rc;
    qparam bq;
    if ((rc = read_qparam(cx, 2, 3, 2, 1, &bq)) != 0)
        return rc;
    int x = ox_arg(cx, 0), scale, zpf;
    TRY(x);
    TRY(dynamic_quantize(cx, x, &scale, &zpf));
    qparam aq = {scale, cast_to(cx, zpf, BYOC_DT_INT32), -1, NULL, 0};
    int args[3] = {x, aq.scale, aq.zp};
    int y = ox_call(cx, "qnn.quantize", args, 3);
    TRY(ox_set_dtype(cx, y, "out_dtype", BYOC_DT_UINT8));
    return dense_to_float(cx, y, &aq, ox_arg(cx, 1), &bq, call2(cx, "multiply", scale, bq.scale),
                          4);
}

/* com.microsoft QLinearSoftmax(X, X_scale, X_zp, Y_scale, Y_zp), axis -1
 * by default: qnn.dequantize, nn.softmax, qnn.quantize, as TVM - the form
 * CMSIS-NN's and Ethos-U's softmax patterns match.  An `opset` before 13
 * means the softmax of the axes from `axis` on, flattened; only the last
 * axis alone is that one. */
int ox_conv_qlinear_softmax(ox_cx *cx)
{
    if (!ox_in(cx, 0) || !ox_in(cx, 1) || !ox_in(cx, 3))
        return ox_fail(cx, "inputs X, X_scale and Y_scale are required");
    int64_t axis, opset;
    TRY(ox_attr_int(cx, "axis", -1, &axis));
    TRY(ox_attr_int(cx, "opset", 13, &opset));
    int rank = ox_type(cx, ox_in(cx, 0)).rank;
    if (rank < 1)
        return ox_unsupported(cx, "the input's rank is not known");
    int64_t a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank)
        return ox_fail(cx, "axis %lld is out of range for rank %d", (long long)axis, rank);
    if (opset < 13 && a != rank - 1)
        return ox_unsupported(cx, "an opset-%lld softmax over axes %lld and after",
                              (long long)opset, (long long)a);
    qparam xq, yq;
    int rc = read_qparam(cx, 1, 2, -1, -1, &xq);
    if (rc == 0)
        rc = read_qparam(cx, 3, 4, -1, -1, &yq);
    if (rc != 0)
        return rc;
    int args[3] = {ox_arg(cx, 0), xq.scale, xq.zp};
    int s = call1(cx, "nn.softmax", ox_call(cx, "qnn.dequantize", args, 3));
    TRY(ox_set_int(cx, s, "axis", a));
    int qargs[3] = {s, yq.scale, yq.zp};
    int q = ox_call(cx, "qnn.quantize", qargs, 3);
    TRY(ox_set_dtype(cx, q, "out_dtype", qlinear_out_dtype(cx, 4)));
    return define(cx, 0, q);
}
