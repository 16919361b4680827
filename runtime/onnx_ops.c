/* The ONNX op table: how each ONNX operator becomes Relay operators.
 *
 * One entry per ONNX op_type, at the end of the file, each with a line on
 * what it becomes.  The mapping follows TVM's ONNX frontend
 * (python/tvm/relay/frontend/onnx.py, Relay's last release), so a model
 * imported here gives the graph TVM would partition, and the Collage
 * models' ONNX copies give the op histograms of their Relay twins.  Where
 * this file departs from TVM, each place says so.  Mostly it leaves out
 * what TVM's own cleanup passes remove again: identity reshapes after a
 * 3-D batch_matmul, transposes that cancel, Dropout and Identity, the
 * nn.pad TVM puts before a convolution or pooling with auto_pad SAME, and
 * integer shape arithmetic on constants, which is computed here (the
 * folding section).  A few ops keep the fused Relay op that backends
 * match where TVM spells them out: LayerNormalization (nn.layer_norm),
 * PRelu (nn.prelu); and Gather does not repeat the index normalisation
 * exporters already write.
 *
 * A converter reads attributes and the known contents of constant inputs
 * (shapes, axes, pads), which ONNX moved from attributes to inputs across
 * opsets 10-13; both forms are read, by the model's opset.  When a
 * converter cannot express a node - a shape that is computed at run time,
 * an unknown rank - it says why through ox_unsupported and the node stays
 * an opaque call with that note; a malformed node is an error. */
#include <math.h>
#include <string.h>

#include "onnx.h"
#include "onnx_contrib.h"
#include "onnx_qdq.h"
#include "onnx_more.h"

#define TRY(x)                                                                                  \
    do {                                                                                        \
        if ((x) < 0)                                                                            \
            return -1;                                                                          \
    } while (0)

/* ---- reading inputs and types --------------------------------------------- */

enum { IN_ABSENT, IN_KNOWN, IN_DYNAMIC };

/* The integer contents of input i: IN_KNOWN with *v and *n set, IN_ABSENT,
 * or IN_DYNAMIC when the model computes it. */
static int input_ints(ox_cx *cx, int i, const int64_t **v, size_t *n)
{
    ox_value *in = ox_in(cx, i);
    if (!in)
        return IN_ABSENT;
    const ox_tensor *t = ox_data(cx, in);
    if (!t || !t->i)
        return IN_DYNAMIC;
    *v = t->i;
    *n = t->n;
    return IN_KNOWN;
}

/* The contents of input i as doubles, floats or ints alike. */
static int input_numbers(ox_cx *cx, int i, double *out, size_t cap, size_t *n)
{
    ox_value *in = ox_in(cx, i);
    if (!in)
        return IN_ABSENT;
    const ox_tensor *t = ox_data(cx, in);
    if (!t || t->n > cap)
        return IN_DYNAMIC;
    for (size_t k = 0; k < t->n; k++)
        out[k] = t->f ? t->f[k] : (double)t->i[k];
    *n = t->n;
    return IN_KNOWN;
}

static int rank_of(ox_cx *cx, int i)
{
    return ox_type(cx, ox_in(cx, i)).rank;
}

/* Element type of input i; float32 when not known, for the constants a
 * converter makes to go with it. */
static byoc_dtype dtype_of(ox_cx *cx, int i)
{
    byoc_dtype dt = ox_type(cx, ox_in(cx, i)).dtype;
    return dt == BYOC_DT_VOID ? BYOC_DT_FLOAT32 : dt;
}

static int64_t norm_axis(int64_t axis, int rank)
{
    return axis < 0 && rank >= 0 ? axis + rank : axis;
}

/* Are dims[from, to) all known sizes? */
static bool dims_known(const byoc_tensor_type *t, int from, int to)
{
    if (t->rank < 0 || from < 0 || to > t->rank)
        return false;
    for (int k = from; k < to; k++)
        if (t->dims[k] < 0)
            return false;
    return true;
}

/* A newshape for reshape: the sizes, with at most one unknown as -1. */
static bool shape_for_reshape(const int64_t *dims, int n, int64_t *out)
{
    int unknown = 0;
    for (int k = 0; k < n; k++) {
        out[k] = dims[k] >= 0 ? dims[k] : -1;
        unknown += dims[k] < 0;
    }
    return unknown <= 1;
}

/* Does t have a free (symbolic) dimension? */
static bool has_free_dims(const byoc_tensor_type *t)
{
    for (int k = 0; k < t->rank; k++)
        if (t->dims[k] <= -2)
            return true;
    return false;
}

static int call1(ox_cx *cx, const char *op, int a)
{
    return ox_call(cx, op, &a, 1);
}

static int call2(ox_cx *cx, const char *op, int a, int b)
{
    int args[2] = {a, b};
    return ox_call(cx, op, args, 2);
}

static int reshape(ox_cx *cx, int x, const int64_t *shape, int n)
{
    int node = call1(cx, "reshape", x);
    TRY(ox_set_ints(cx, node, "newshape", shape, (size_t)n));
    return node;
}

static int define(ox_cx *cx, int i, int node)
{
    TRY(node);
    ox_define(cx, i, node);
    return 0;
}

/* Output 0 is input 0 itself. */
static int pass_through(ox_cx *cx)
{
    ox_value *x = ox_in(cx, 0);
    if (!x)
        return ox_fail(cx, "input 1 is missing");
    ox_alias(cx, 0, x);
    return 0;
}

/* ---- elementwise -------------------------------------------------------------- */

static int conv_unary(ox_cx *cx)
{
    return define(cx, 0, call1(cx, cx->map->relay, ox_arg(cx, 0)));
}

/* Before opset 7, Add and friends broadcast B from `axis` of A when asked
 * to; trailing unit axes on B give numpy's rule the same effect. */
static int conv_binary(ox_cx *cx)
{
    int a = ox_arg(cx, 0), b = ox_arg(cx, 1);
    TRY(a);
    TRY(b);
    if (cx->opset < 7) {
        int64_t bc, axis;
        TRY(ox_attr_int(cx, "broadcast", 0, &bc));
        TRY(ox_attr_int(cx, "axis", -1, &axis));
        int ra = rank_of(cx, 0), rb = rank_of(cx, 1);
        if (bc && axis >= 0 && ra >= 0 && rb >= 0 && ra - axis - rb > 0) {
            b = call1(cx, "expand_dims", b);
            TRY(ox_set_int(cx, b, "axis", rb));
            TRY(ox_set_int(cx, b, "num_newaxis", ra - axis - rb));
        }
    }
    return define(cx, 0, call2(cx, cx->map->relay, a, b));
}

/* Sum, Max, Min: a chain of binary ops; one input is that input. */
static int conv_variadic(ox_cx *cx)
{
    if (cx->node->ninputs == 1)
        return pass_through(cx);
    int acc = ox_arg(cx, 0);
    for (int i = 1; i < cx->node->ninputs; i++)
        TRY(acc = call2(cx, cx->map->relay, acc, ox_arg(cx, i)));
    return define(cx, 0, acc);
}

/* Mean: TVM stacks the inputs and takes the mean over the new axis. */
static int conv_mean(ox_cx *cx)
{
    int n = cx->node->ninputs;
    if (n == 1)
        return pass_through(cx);
    int *fields = ox_alloc(cx, sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        fields[i] = call1(cx, "expand_dims", ox_arg(cx, i));
        TRY(ox_set_int(cx, fields[i], "axis", 0));
    }
    int cat = call1(cx, "concatenate", ox_tuple(cx, fields, n));
    int64_t axis0 = 0;
    int mean = call1(cx, "mean", cat);
    TRY(ox_set_ints(cx, mean, "axis", &axis0, 1));
    return define(cx, 0, mean);
}

/* Pow: TVM computes in float and casts y to x's dtype. */
static int conv_pow(ox_cx *cx)
{
    int x = ox_arg(cx, 0), y = ox_arg(cx, 1);
    TRY(x);
    TRY(y);
    byoc_dtype xt = ox_type(cx, ox_in(cx, 0)).dtype, yt = ox_type(cx, ox_in(cx, 1)).dtype;
    byoc_dtype ct = xt;
    if (xt != BYOC_DT_VOID && byoc_dtype_class(xt) != 'f') {
        ct = BYOC_DT_FLOAT32;
        x = call1(cx, "cast", x);
        TRY(ox_set_dtype(cx, x, "dtype", ct));
    }
    if (ct != BYOC_DT_VOID && yt != BYOC_DT_VOID && yt != ct) {
        y = call1(cx, "cast", y);
        TRY(ox_set_dtype(cx, y, "dtype", ct));
    }
    int out = call2(cx, "power", x, y);
    if (ct != xt) {
        out = call1(cx, "cast", out);
        TRY(ox_set_dtype(cx, out, "dtype", xt));
    }
    return define(cx, 0, out);
}

/* Mod: fmod=0 is Python's % (floor_mod), fmod=1 C's fmod (mod). */
static int conv_mod(ox_cx *cx)
{
    int64_t fmod;
    TRY(ox_attr_int(cx, "fmod", 0, &fmod));
    return define(cx, 0, call2(cx, fmod ? "mod" : "floor_mod", ox_arg(cx, 0), ox_arg(cx, 1)));
}

static int conv_reciprocal(ox_cx *cx)
{
    int x = ox_arg(cx, 0);
    TRY(x);
    return define(cx, 0, call2(cx, "divide", ox_scalar(cx, dtype_of(cx, 0), 1.0), x));
}

static int conv_leaky_relu(ox_cx *cx)
{
    double alpha;
    TRY(ox_attr_float(cx, "alpha", 0.01, &alpha));
    int node = call1(cx, "nn.leaky_relu", ox_arg(cx, 0));
    TRY(ox_set_float(cx, node, "alpha", alpha));
    return define(cx, 0, node);
}

/* PRelu with one slope per channel (for an NCHW input [C,1,1] or
 * [1,C,1,1]; [C] only for [N,C], since ONNX broadcasts from the right) is
 * nn.prelu on axis 1, the op backends match.  TVM instead flattens the
 * input and broadcasts the slope to it (reshape, broadcast_to_like,
 * reshape, nn.prelu, reshape), which needs shapes at run time; other
 * slopes stay opaque. */
static int conv_prelu(ox_cx *cx)
{
    byoc_tensor_type st = ox_type(cx, ox_in(cx, 1)), xt = ox_type(cx, ox_in(cx, 0));
    int64_t c = -1;
    bool per_channel = st.rank >= 1 && xt.rank >= 2 && st.rank <= xt.rank && xt.dims[1] >= 0;
    for (int k = 0; per_channel && k < st.rank; k++) {
        int64_t d = st.dims[k];
        /* The channel axis of the slope, right-aligned against the input. */
        bool channel_axis = k == st.rank - (xt.rank - 1);
        if (channel_axis)
            c = d;
        else if (d != 1)
            per_channel = false;
    }
    if (!per_channel || c != xt.dims[1])
        return ox_unsupported(cx, "the slope is not one value per channel");
    int slope = ox_arg(cx, 1);
    if (st.rank != 1)
        slope = reshape(cx, slope, &c, 1);
    int node = call2(cx, "nn.prelu", ox_arg(cx, 0), slope);
    TRY(ox_set_int(cx, node, "axis", 1));
    return define(cx, 0, node);
}

/* clip(x * alpha + beta, 0, 1), and for HardSwish x times that. */
static int hard_sigmoid(ox_cx *cx, double alpha_def, double beta_def)
{
    double alpha, beta;
    TRY(ox_attr_float(cx, "alpha", alpha_def, &alpha));
    TRY(ox_attr_float(cx, "beta", beta_def, &beta));
    byoc_dtype dt = dtype_of(cx, 0);
    int x = ox_arg(cx, 0);
    int t = call2(cx, "multiply", x, ox_scalar(cx, dt, alpha));
    t = call2(cx, "add", t, ox_scalar(cx, dt, beta));
    int c = call1(cx, "clip", t);
    TRY(ox_set_float(cx, c, "a_min", 0));
    TRY(ox_set_float(cx, c, "a_max", 1));
    return c;
}

static int conv_hard_sigmoid(ox_cx *cx)
{
    return define(cx, 0, hard_sigmoid(cx, 0.2, 0.5));
}

static int conv_hard_swish(ox_cx *cx)
{
    int h = hard_sigmoid(cx, 1.0 / 6, 0.5);
    return define(cx, 0, call2(cx, "multiply", ox_arg(cx, 0), h));
}

/* Clip: min and max are attributes before opset 11 and optional inputs
 * from then on.  Known bounds become clip's attributes; bounds computed at
 * run time become maximum/minimum, as in TVM. */
static int conv_clip(ox_cx *cx)
{
    double lo = -INFINITY, hi = INFINITY;
    int lo_node = -1, hi_node = -1;
    if (cx->opset < 11) {
        TRY(ox_attr_float(cx, "min", -INFINITY, &lo));
        TRY(ox_attr_float(cx, "max", INFINITY, &hi));
    } else {
        double v[1];
        size_t n;
        int s = input_numbers(cx, 1, v, 1, &n);
        if (s == IN_KNOWN && n == 1)
            lo = v[0];
        else if (s != IN_ABSENT)
            TRY(lo_node = ox_arg(cx, 1));
        s = input_numbers(cx, 2, v, 1, &n);
        if (s == IN_KNOWN && n == 1)
            hi = v[0];
        else if (s != IN_ABSENT)
            TRY(hi_node = ox_arg(cx, 2));
    }
    /* Before opset 11 TVM always clips; after, only by the bounds given,
     * and a Clip with none is its input. */
    bool clip = cx->opset < 11 || lo != -INFINITY || hi != INFINITY;
    if (!clip && lo_node < 0 && hi_node < 0)
        return pass_through(cx);
    int x = ox_arg(cx, 0);
    if (lo_node >= 0)
        x = call2(cx, "maximum", x, lo_node);
    if (hi_node >= 0)
        x = call2(cx, "minimum", x, hi_node);
    if (clip) {
        x = call1(cx, "clip", x);
        TRY(ox_set_float(cx, x, "a_min", lo));
        TRY(ox_set_float(cx, x, "a_max", hi));
    }
    return define(cx, 0, x);
}

static int conv_cast(ox_cx *cx)
{
    int64_t to;
    if (ox_attr_int(cx, "to", 0, &to) <= 0)
        return ox_fail(cx, "attribute 'to' is required and must be an int");
    int dt = ox_dtype(to);
    if (dt < 0)
        return ox_fail(cx, "attribute 'to' is ONNX element type %lld, which byoc does not support",
                       (long long)to);
    int node = call1(cx, "cast", ox_arg(cx, 0));
    TRY(ox_set_dtype(cx, node, "dtype", (byoc_dtype)dt));
    return define(cx, 0, node);
}

static int conv_where(ox_cx *cx)
{
    int args[3] = {ox_arg(cx, 0), ox_arg(cx, 1), ox_arg(cx, 2)};
    return define(cx, 0, ox_call(cx, "where", args, 3));
}

/* Identity and Dropout in inference are their input: TVM's Identity is
 * `copy` and its Dropout nn.dropout, both of which SimplifyInference
 * removes; a Dropout whose mask is read keeps nn.dropout. */
static int conv_identity(ox_cx *cx)
{
    return pass_through(cx);
}

static int conv_dropout(ox_cx *cx)
{
    if (!ox_output_used(cx, 1))
        return conv_identity(cx);
    double ratio = 0.5;
    if (cx->opset < 12)
        TRY(ox_attr_float(cx, "ratio", 0.5, &ratio));
    int d = call1(cx, "nn.dropout", ox_arg(cx, 0));
    TRY(ox_set_float(cx, d, "rate", ratio));
    TRY(define(cx, 0, ox_proj(cx, d, 0)));
    return define(cx, 1, ox_proj(cx, d, 1));
}

/* ---- convolution, matrix products, normalisation -------------------------------- */

/* The checks of onnx.h's windows section, shared with the other converters. */
bool ox_same_pad_total(int64_t in, int64_t k, int64_t s, int64_t d, int64_t *total)
{
    /* (out - 1) * s < in <= out * s: no step below overflows but the
     * dilated kernel's. */
    int64_t out = in / s + (in % s != 0), span;
    if (__builtin_mul_overflow(k - 1, d, &span) || __builtin_add_overflow(span, 1, &span))
        return false;
    int64_t t = span - (in - (out - 1) * s);
    *total = t > 0 ? t : 0;
    return true;
}

int ox_check_window(ox_cx *cx, int nd, const int64_t *k, const int64_t *d, const int64_t *pads,
                    bool slides)
{
    byoc_tensor_type t = ox_type(cx, ox_in(cx, 0));
    for (int i = 0; i < nd; i++) {
        int64_t in = t.rank >= nd ? t.dims[t.rank - nd + i] : BYOC_DIM_UNKNOWN, span, padded;
        if (__builtin_mul_overflow(k[i] - 1, d[i], &span)
            || __builtin_add_overflow(span, 1, &span)
            || __builtin_add_overflow(pads[i], pads[nd + i], &padded)
            || (in >= 0 && __builtin_add_overflow(padded, in, &padded)))
            return ox_fail(cx, "kernel_shape, dilations and pads take spatial axis %d past "
                               "2^63 - 1", i);
        if (slides && in >= 0 && padded < span)
            return ox_fail(cx, "the window of %lld on spatial axis %d is larger than the "
                               "padded input of %lld", (long long)span, i, (long long)padded);
    }
    return 0;
}

int ox_check_axis(ox_cx *cx, const char *what, int64_t axis, int rank)
{
    if (rank >= 0 && (axis < -rank || axis >= rank))
        return ox_fail(cx, "%s is %lld for a tensor of rank %d", what, (long long)axis, rank);
    return 0;
}

int ox_check_groups(ox_cx *cx, const byoc_tensor_type *x, const byoc_tensor_type *w,
                    int64_t group)
{
    int64_t c = x->rank >= 2 ? x->dims[1] : BYOC_DIM_UNKNOWN, per;
    if (w->rank >= 1 && w->dims[0] >= 0 && w->dims[0] % group)
        return ox_fail(cx, "group %lld does not divide the weight's %lld output channels",
                       (long long)group, (long long)w->dims[0]);
    if (c >= 0 && w->rank >= 2 && w->dims[1] >= 0
        && (__builtin_mul_overflow(w->dims[1], group, &per) || per != c))
        return ox_fail(cx, "the input's %lld channels are not group %lld times the weight's "
                           "%lld", (long long)c, (long long)group, (long long)w->dims[1]);
    return 0;
}

/* Pads for auto_pad SAME_UPPER/SAME_LOWER from the input's spatial sizes,
 * ONNX's rule: the output is ceil(in / stride), the extra pad at the end
 * (UPPER) or the start (LOWER).  TVM emits the same as an nn.pad before
 * the op; folding it into the op's padding is the same computation. */
static int same_pads(ox_cx *cx, const char *mode, int nd, const int64_t *k, const int64_t *s,
                     const int64_t *d, int64_t *pads)
{
    byoc_tensor_type t = ox_type(cx, ox_in(cx, 0));
    if (!dims_known(&t, t.rank - nd, t.rank) || t.rank < nd)
        return ox_unsupported(cx, "auto_pad %s needs the input's spatial sizes", mode);
    for (int i = 0; i < nd; i++) {
        int64_t in = t.dims[t.rank - nd + i], total;
        if (!ox_same_pad_total(in, k[i], s[i], d[i], &total))
            return ox_fail(cx, "kernel_shape and dilations take spatial axis %d past 2^63 - 1",
                           i);
        int64_t small = total / 2, big = total - small;
        bool lower = strcmp(mode, "SAME_LOWER") == 0;
        pads[i] = lower ? big : small;
        pads[nd + i] = lower ? small : big;
    }
    return 0;
}

/* An int list attribute of `per` values per spatial axis (nd of them),
 * `def` throughout when absent. */
static int spatial_ints(ox_cx *cx, const char *name, int nd, int per, int64_t def,
                        int64_t *out)
{
    const int64_t *v;
    size_t n;
    int rc = ox_attr_ints(cx, name, &v, &n), count = nd * per;
    TRY(rc);
    if (rc == 0) {
        for (int i = 0; i < count; i++)
            out[i] = def;
        return 0;
    }
    if ((int)n != count)
        return ox_fail(cx, "attribute '%s' has %zu values; a %d-D %s needs %d", name, n, nd,
                       cx->node->op_type, count);
    for (int i = 0; i < count; i++) {
        if (v[i] < (def > 0 ? 1 : 0))
            return ox_fail(cx, "attribute '%s' has the value %lld", name, (long long)v[i]);
        out[i] = v[i];
    }
    return 0;
}

/* The padding of a convolution or pooling: `pads`, or from auto_pad.
 * Returns 1 (unsupported) when SAME padding needs sizes nobody knows. */
static int read_pads(ox_cx *cx, int nd, const int64_t *k, const int64_t *s, const int64_t *d,
                     int64_t *pads)
{
    const char *mode;
    TRY(ox_attr_string(cx, "auto_pad", "NOTSET", &mode));
    if (!strcmp(mode, "SAME_UPPER") || !strcmp(mode, "SAME_LOWER"))
        return same_pads(cx, mode, nd, k, s, d, pads);
    if (!strcmp(mode, "VALID")) {
        for (int i = 0; i < 2 * nd; i++)
            pads[i] = 0;
        return 0;
    }
    if (strcmp(mode, "NOTSET") != 0 && mode[0])
        return ox_fail(cx, "attribute 'auto_pad' is '%s'; expected NOTSET, SAME_UPPER, "
                           "SAME_LOWER or VALID", mode);
    return spatial_ints(cx, "pads", nd, 2, 0, pads);
}

/* Conv and ConvTranspose: 1-3 spatial axes, the count from kernel_shape
 * or else from the weight's rank. */
static int conv_conv(ox_cx *cx)
{
    bool transposed = strcmp(cx->node->op_type, "ConvTranspose") == 0;
    byoc_tensor_type wt = ox_type(cx, ox_in(cx, 1));
    const int64_t *ks;
    size_t nk;
    int64_t kernel[3], strides[3], dil[3], pads[6], outpad[3], group;
    int rc = ox_attr_ints(cx, "kernel_shape", &ks, &nk);
    TRY(rc);
    if (rc == 0) {
        if (wt.rank < 3 || !dims_known(&wt, 2, wt.rank))
            return ox_unsupported(cx, "no kernel_shape and the weight's shape is not known");
        nk = (size_t)wt.rank - 2;
        ks = &wt.dims[2];
    }
    if (nk < 1 || nk > 3)
        return ox_unsupported(cx, "%zu spatial axes; byoc maps 1 to 3", nk);
    int nd = (int)nk;
    for (int i = 0; i < nd; i++) {
        if (ks[i] < 1)
            return ox_fail(cx, "attribute 'kernel_shape' has the value %lld", (long long)ks[i]);
        if (wt.rank == nd + 2 && wt.dims[2 + i] >= 0 && wt.dims[2 + i] != ks[i])
            return ox_fail(cx, "attribute 'kernel_shape' has %lld on spatial axis %d, but the "
                               "weight has %lld", (long long)ks[i], i, (long long)wt.dims[2 + i]);
        kernel[i] = ks[i];
    }
    TRY(ox_attr_int(cx, "group", 1, &group));
    if (group < 1)
        return ox_fail(cx, "attribute 'group' has the value %lld", (long long)group);
    TRY(spatial_ints(cx, "strides", nd, 1, 1, strides));
    TRY(spatial_ints(cx, "dilations", nd, 1, 1, dil));
    int64_t channels = -1;
    if (transposed) {
        TRY(spatial_ints(cx, "output_padding", nd, 1, 0, outpad));
        const int64_t *os;
        size_t nos;
        TRY(rc = ox_attr_ints(cx, "output_shape", &os, &nos));
        const char *mode;
        TRY(ox_attr_string(cx, "auto_pad", "NOTSET", &mode));
        bool same = !strcmp(mode, "SAME_UPPER") || !strcmp(mode, "SAME_LOWER");
        if (rc > 0 || same) {
            /* TVM's opset-11 rule: the total padding that gives the
             * requested (or the SAME) output size, split in two. */
            byoc_tensor_type xt = ox_type(cx, ox_in(cx, 0));
            if (rc > 0 && ((int)nos != nd || !dims_known(&xt, xt.rank - nd, xt.rank)))
                return ox_unsupported(cx, "output_shape needs the input's spatial sizes");
            for (int i = 0; i < nd; i++) {
                int64_t span, total, grown;
                if (rc > 0 && os[i] < 0)
                    return ox_fail(cx, "attribute 'output_shape' has the value %lld",
                                   (long long)os[i]);
                bool ok = !__builtin_mul_overflow(kernel[i] - 1, dil[i], &span)
                          && !__builtin_add_overflow(span, 1, &span)
                          && !__builtin_add_overflow(span, outpad[i], &total);
                if (ok && rc > 0)
                    ok = !__builtin_mul_overflow(strides[i], xt.dims[xt.rank - nd + i] - 1,
                                                 &grown)
                         && !__builtin_add_overflow(total, grown, &total)
                         && !__builtin_sub_overflow(total, os[i], &total);
                else if (ok)
                    total -= strides[i];
                if (!ok)
                    return ox_fail(cx, "kernel_shape, dilations, strides, output_padding and "
                                       "output_shape take spatial axis %d past 2^63 - 1", i);
                int64_t left = total / 2, right = total - left;
                bool lower = same && !strcmp(mode, "SAME_LOWER");
                pads[i] = lower ? right : left;
                pads[nd + i] = lower ? left : right;
                if (rc > 0 && !same) {
                    pads[i] = right;
                    pads[nd + i] = left;
                }
            }
        } else {
            TRY(rc = read_pads(cx, nd, kernel, strides, dil, pads));
            if (rc > 0)
                return rc;
        }
        TRY(ox_check_window(cx, nd, kernel, dil, pads, false));
        /* The output grows to stride * (in - 1) plus the dilated kernel
         * and output_padding, less the pads. */
        byoc_tensor_type xt = ox_type(cx, ox_in(cx, 0));
        for (int i = 0; i < nd && xt.rank >= nd; i++) {
            int64_t in = xt.dims[xt.rank - nd + i], size;
            if (in > 0
                && (__builtin_mul_overflow(strides[i], in - 1, &size)
                    || __builtin_add_overflow(size, (kernel[i] - 1) * dil[i] + 1, &size)
                    || __builtin_add_overflow(size, outpad[i], &size)))
                return ox_fail(cx, "strides, kernel_shape, dilations and output_padding take "
                                   "spatial axis %d past 2^63 - 1", i);
            /* Pads of 0 or more (not output_shape's) that leave nothing. */
            if (in > 0 && rc == 0 && !same && size - pads[i] - pads[nd + i] < 1)
                return ox_fail(cx, "pads %lld and %lld leave spatial axis %d no output",
                               (long long)pads[i], (long long)pads[nd + i], i);
        }
        /* ONNX Runtime's checks: X is [N, C, ...] and W [C, M / group, ...]. */
        int64_t c = xt.rank >= 2 ? xt.dims[1] : BYOC_DIM_UNKNOWN;
        if (c >= 0 && c % group)
            return ox_fail(cx, "group %lld does not divide the input's %lld channels",
                           (long long)group, (long long)c);
        if (wt.rank >= 2 && wt.dims[1] >= 0
            && __builtin_mul_overflow(wt.dims[1], group, &channels))
            return ox_fail(cx, "group %lld times the weight's %lld output channels passes "
                               "2^63 - 1", (long long)group, (long long)wt.dims[1]);
    } else {
        TRY(rc = read_pads(cx, nd, kernel, strides, dil, pads));
        if (rc > 0)
            return rc;
        TRY(ox_check_window(cx, nd, kernel, dil, pads, true));
        byoc_tensor_type xt = ox_type(cx, ox_in(cx, 0));
        TRY(ox_check_groups(cx, &xt, &wt, group));
        if (wt.rank >= 1 && wt.dims[0] >= 0)
            channels = wt.dims[0];
    }
    static const char *const ops[2][3] = {
        {"nn.conv1d", "nn.conv2d", "nn.conv3d"},
        {"nn.conv1d_transpose", "nn.conv2d_transpose", "nn.conv3d_transpose"},
    };
    int node = call2(cx, ops[transposed][nd - 1], ox_arg(cx, 0), ox_arg(cx, 1));
    TRY(ox_set_ints(cx, node, "strides", strides, (size_t)nd));
    TRY(ox_set_ints(cx, node, "padding", pads, (size_t)(2 * nd)));
    TRY(ox_set_ints(cx, node, "dilation", dil, (size_t)nd));
    TRY(ox_set_int(cx, node, "groups", group));
    TRY(ox_set_ints(cx, node, "kernel_size", kernel, (size_t)nd));
    if (channels >= 0)
        TRY(ox_set_int(cx, node, "channels", channels));
    if (transposed)
        TRY(ox_set_ints(cx, node, "output_padding", outpad, (size_t)nd));
    if (ox_in(cx, 2))
        node = call2(cx, "nn.bias_add", node, ox_arg(cx, 2));
    return define(cx, 0, node);
}

/* Gemm: Y = alpha * A' * B' + beta * C as TVM builds it: transposes for
 * transA and for a B not already transposed (nn.dense takes B as
 * [units, k]), batch_flatten for an A of rank other than 2, a multiply for
 * alpha and beta other than 1, and add, not nn.bias_add, for C. */
static int conv_gemm(ox_cx *cx)
{
    double alpha, beta;
    int64_t ta, tb;
    TRY(ox_attr_float(cx, "alpha", 1.0, &alpha));
    TRY(ox_attr_float(cx, "beta", 1.0, &beta));
    TRY(ox_attr_int(cx, "transA", 0, &ta));
    TRY(ox_attr_int(cx, "transB", 0, &tb));
    byoc_tensor_type at = ox_type(cx, ox_in(cx, 0)), bt = ox_type(cx, ox_in(cx, 1));
    int64_t units = bt.rank == 2 ? bt.dims[tb ? 0 : 1] : -1;
    static const int64_t swap[2] = {1, 0};
    if (!ox_in(cx, 0) || !ox_in(cx, 1))
        return ox_fail(cx, "inputs A and B are required");
    int a = ta ? ox_transpose(cx, ox_in(cx, 0), swap, 2) : ox_arg(cx, 0);
    int b = tb ? ox_arg(cx, 1) : ox_transpose(cx, ox_in(cx, 1), swap, 2);
    if (at.rank >= 0 && at.rank != 2)
        a = call1(cx, "nn.batch_flatten", a);
    byoc_dtype dt = dtype_of(cx, 0);
    if (alpha != 1.0)
        a = call2(cx, "multiply", a, ox_scalar(cx, dt, alpha));
    int out = call2(cx, "nn.dense", a, b);
    if (units >= 0)
        TRY(ox_set_int(cx, out, "units", units));
    if (ox_in(cx, 2)) {
        int c = ox_arg(cx, 2);
        if (beta != 1.0)
            c = call2(cx, "multiply", ox_scalar(cx, dt, beta), c);
        out = call2(cx, "add", out, c);
    }
    return define(cx, 0, out);
}

/* A batch of dims, the leading axes of t, right-aligned to `rank` axes
 * with ones in front. */
static void batch_dims(const byoc_tensor_type *t, int rank, int64_t *out)
{
    int pad = rank - (t->rank - 2);
    for (int k = 0; k < rank; k++)
        out[k] = k < pad ? 1 : t->dims[k - pad];
}

/* MatMul as TVM's matmul_out_dtype: 2-D by 2-D is nn.dense with B
 * transposed; a 2-D B under a batched A flattens A to 2-D for nn.dense
 * and reshapes back; otherwise both operands are broadcast to a common
 * batch, flattened to 3-D and multiplied with nn.batch_matmul in the NT
 * form (transpose_b=True, B transposed), then reshaped back.  Two
 * departures, both what TVM's SimplifyExpr does next: a transpose of B that
 * cancels one B already went through is dropped (GPT-2's ONNX copy spells
 * batch_matmul(a, b, transpose_b=True) as MatMul(a, Transpose(b))), and the
 * identity reshape after a 3-D batch_matmul is not emitted. */
static int conv_matmul(ox_cx *cx)
{
    ox_value *A = ox_in(cx, 0), *B = ox_in(cx, 1);
    if (!A || !B)
        return ox_fail(cx, "inputs A and B are required");
    byoc_tensor_type at = ox_type(cx, A), bt = ox_type(cx, B);
    int ra = at.rank, rb = bt.rank;
    if (ra < 1 || rb < 1)
        return ox_unsupported(cx, "the ranks of its inputs are not known");
    byoc_dtype dt = at.dtype;
    static const int64_t swap2[2] = {1, 0};
    if (ra <= 2 && rb <= 2) {
        if (ra == 2 && rb == 2) {
            int out = call2(cx, "nn.dense", ox_node_of(cx, A), ox_transpose(cx, B, swap2, 2));
            if (dt != BYOC_DT_VOID)
                TRY(ox_set_dtype(cx, out, "out_dtype", dt));
            return define(cx, 0, out);
        }
        /* A vector operand gets a unit axis for nn.matmul, squeezed after. */
        int a = ox_node_of(cx, A), b = ox_node_of(cx, B);
        int64_t squeeze[2];
        int nsq = 0;
        if (ra == 1) {
            a = call1(cx, "expand_dims", a);
            TRY(ox_set_int(cx, a, "axis", 0));
            squeeze[nsq++] = 0;
        }
        if (rb == 1) {
            b = call1(cx, "expand_dims", b);
            TRY(ox_set_int(cx, b, "axis", 1));
            squeeze[nsq++] = -1;
        }
        int out = call1(cx, "squeeze", call2(cx, "nn.matmul", a, b));
        TRY(ox_set_ints(cx, out, "axis", squeeze, (size_t)nsq));
        return define(cx, 0, out);
    }
    if (ra == 1 || rb == 1)
        return ox_unsupported(cx, "a vector times a batch of matrices");
    int r = ra > rb ? ra : rb, nb = r - 2;
    int64_t abatch[BYOC_MAX_RANK], bbatch[BYOC_MAX_RANK], obatch[BYOC_MAX_RANK];
    batch_dims(&at, nb, abatch);
    batch_dims(&bt, nb, bbatch);
    for (int k = 0; k < nb; k++) {
        /* A symbol (BYOC_DIM_SYMBOL, <= -2) broadcasts against 1 and against
         * itself like any size; against another symbol or a size the result
         * is unknown.  Only two different sizes, neither 1, are an error. */
        int64_t x = abatch[k], y = bbatch[k];
        if (x != y && x != 1 && y != 1 && x >= 0 && y >= 0)
            return ox_fail(cx, "batch axes %lld and %lld do not broadcast", (long long)x,
                           (long long)y);
        obatch[k] = x == y ? x : x == 1 ? y : y == 1 ? x : BYOC_DIM_UNKNOWN;
    }
    int64_t M = at.dims[ra - 2], K = at.dims[ra - 1], N = bt.dims[rb - 1];
    int64_t shape[BYOC_MAX_RANK + 1], out_shape[BYOC_MAX_RANK];
    memcpy(out_shape, obatch, sizeof(int64_t) * (size_t)nb);
    out_shape[nb] = M;
    out_shape[nb + 1] = N;
    if (!shape_for_reshape(out_shape, r, shape)) {
        /* Free batch dimensions cannot be flattened and restored by a
         * newshape; nn.dense takes the batched A as it is. */
        if (rb == 2 && K >= 0 && has_free_dims(&at)) {
            int out = call2(cx, "nn.dense", ox_node_of(cx, A), ox_transpose(cx, B, swap2, 2));
            if (dt != BYOC_DT_VOID)
                TRY(ox_set_dtype(cx, out, "out_dtype", dt));
            return define(cx, 0, out);
        }
        return ox_unsupported(cx, "the result's shape is not known");
    }
    int out;
    if (rb == 2) {
        if (K < 0)
            return ox_unsupported(cx, "the reduced axis is not known");
        int64_t flat[2] = {-1, K};
        int a = reshape(cx, ox_node_of(cx, A), flat, 2);
        out = call2(cx, "nn.dense", a, ox_transpose(cx, B, swap2, 2));
        if (dt != BYOC_DT_VOID)
            TRY(ox_set_dtype(cx, out, "out_dtype", dt));
    } else {
        /* B transposed first: a transpose it already holds then cancels,
         * and transpose commutes with broadcasting and flattening. */
        int64_t perm[BYOC_MAX_RANK], Kb = bt.dims[rb - 2];
        for (int k = 0; k < rb; k++)
            perm[k] = k;
        perm[rb - 2] = rb - 1;
        perm[rb - 1] = rb - 2;
        bool bcast_a = ra != r, bcast_b = rb != r, batch_known = true;
        for (int k = 0; k < nb; k++) {
            bcast_a = bcast_a || abatch[k] != obatch[k];
            bcast_b = bcast_b || bbatch[k] != obatch[k];
            batch_known = batch_known && obatch[k] >= 0;
        }
        /* Everything is checked before anything is built: an unsupported
         * node must leave no half-built ops behind. */
        bool sizes_known = M >= 0 && K >= 0 && N >= 0 && Kb >= 0;
        if ((bcast_a || bcast_b) && !(batch_known && sizes_known))
            return ox_unsupported(cx, "broadcasting needs known shapes");
        if (r != 3 && !sizes_known)
            return ox_unsupported(cx, "flattening to 3-D needs the matrix sizes");
        int64_t full[BYOC_MAX_RANK];
        memcpy(full, obatch, sizeof(int64_t) * (size_t)nb);
        int a = ox_node_of(cx, A);
        if (bcast_a) {
            full[nb] = M;
            full[nb + 1] = K;
            a = call1(cx, "broadcast_to", a);
            TRY(ox_set_ints(cx, a, "shape", full, (size_t)r));
        }
        int b = ox_transpose(cx, B, perm, rb);
        if (bcast_b) {
            full[nb] = N;
            full[nb + 1] = Kb;
            b = call1(cx, "broadcast_to", b);
            TRY(ox_set_ints(cx, b, "shape", full, (size_t)r));
        }
        if (r != 3) {
            int64_t a3[3] = {-1, M, K}, b3[3] = {-1, N, Kb};
            a = reshape(cx, a, a3, 3);
            b = reshape(cx, b, b3, 3);
        }
        out = call2(cx, "nn.batch_matmul", a, b);
        if (dt != BYOC_DT_VOID)
            TRY(ox_set_dtype(cx, out, "out_dtype", dt));
        TRY(ox_set_bool(cx, out, "transpose_b", true));
        if (r == 3)
            return define(cx, 0, out);
    }
    shape_for_reshape(out_shape, r, shape);
    return define(cx, 0, reshape(cx, out, shape, r));
}

/* BatchNormalization: nn.batch_norm and its projection .0; the running
 * statistics of training mode are .1 and .2, and the saved ones of old
 * opsets repeat them, as in TVM. */
static int conv_batch_norm(ox_cx *cx)
{
    double eps;
    TRY(ox_attr_float(cx, "epsilon", 1e-5, &eps));
    /* Opsets 14 and 15's training mode normalises by the batch's own
     * statistics, which nn.batch_norm does not compute. */
    int64_t training = 0;
    if (cx->opset >= 14)
        TRY(ox_attr_int(cx, "training_mode", 0, &training));
    if (training)
        return ox_unsupported(cx, "training_mode normalises by the batch's statistics");
    int args[5];
    for (int i = 0; i < 5; i++)
        TRY(args[i] = ox_arg(cx, i));
    int bn = ox_call(cx, "nn.batch_norm", args, 5);
    TRY(ox_set_float(cx, bn, "epsilon", eps));
    static const int field[5] = {0, 1, 2, 1, 2};
    for (int i = 0; i < cx->node->noutputs && i < 5; i++)
        if (cx->node->outputs[i][0])
            TRY(define(cx, i, ox_proj(cx, bn, field[i])));
    return 0;
}

static int conv_instance_norm(ox_cx *cx)
{
    double eps;
    TRY(ox_attr_float(cx, "epsilon", 1e-5, &eps));
    int args[3] = {ox_arg(cx, 0), ox_arg(cx, 1), ox_arg(cx, 2)};
    int node = ox_call(cx, "nn.instance_norm", args, 3);
    TRY(ox_set_float(cx, node, "epsilon", eps));
    return define(cx, 0, node);
}

/* LayerNormalization (opset 17) over the last axis becomes nn.layer_norm,
 * the op backends match; TVM spells it out as mean, variance and
 * arithmetic, which is what normalising over several axes, or reading the
 * mean and inverse deviation, becomes here (onnx_more.c). */
static int conv_layer_norm(ox_cx *cx)
{
    int64_t axis;
    double eps;
    TRY(ox_attr_int(cx, "axis", -1, &axis));
    TRY(ox_attr_float(cx, "epsilon", 1e-5, &eps));
    int rank = rank_of(cx, 0);
    if (axis != -1 && !(rank >= 0 && axis == rank - 1))
        return ox_conv_layer_norm_spelled(cx);
    if (ox_output_used(cx, 1) || ox_output_used(cx, 2))
        return ox_conv_layer_norm_spelled(cx);
    int x = ox_arg(cx, 0), gamma = ox_arg(cx, 1);
    TRY(x);
    TRY(gamma);
    int beta = ox_in(cx, 2) ? ox_arg(cx, 2) : ox_scalar(cx, dtype_of(cx, 0), 0.0);
    int args[3] = {x, gamma, beta};
    int node = ox_call(cx, "nn.layer_norm", args, 3);
    TRY(ox_set_int(cx, node, "axis", -1));
    TRY(ox_set_float(cx, node, "epsilon", eps));
    return define(cx, 0, node);
}

static int conv_lrn(ox_cx *cx)
{
    int64_t size;
    double alpha, beta, bias;
    if (ox_attr_int(cx, "size", 0, &size) <= 0 || size < 1)
        return ox_fail(cx, "attribute 'size' is required and must be a positive int");
    TRY(ox_attr_float(cx, "alpha", 1e-4, &alpha));
    TRY(ox_attr_float(cx, "beta", 0.75, &beta));
    TRY(ox_attr_float(cx, "bias", 1.0, &bias));
    int node = call1(cx, "nn.lrn", ox_arg(cx, 0));
    TRY(ox_set_int(cx, node, "size", size));
    TRY(ox_set_int(cx, node, "axis", 1));
    TRY(ox_set_float(cx, node, "alpha", alpha));
    TRY(ox_set_float(cx, node, "beta", beta));
    TRY(ox_set_float(cx, node, "bias", bias));
    return define(cx, 0, node);
}

/* Softmax and LogSoftmax.  From opset 13 they work on one axis (default
 * -1).  Before, on the input flattened to 2-D at `axis` (default 1): when
 * that is the last axis it is the same thing, otherwise TVM reshapes to
 * 2-D, applies the op on the last axis and reshapes back. */
static int conv_softmax(ox_cx *cx)
{
    int64_t axis;
    byoc_tensor_type t = ox_type(cx, ox_in(cx, 0));
    TRY(ox_attr_int(cx, "axis", cx->opset >= 13 ? -1 : 1, &axis));
    if (t.rank >= 0 && (axis < -t.rank || axis >= (t.rank ? t.rank : 1)))
        return ox_fail(cx, "attribute 'axis' is %lld for a tensor of rank %d", (long long)axis,
                       t.rank);
    axis = norm_axis(axis, t.rank);
    int x = ox_arg(cx, 0);
    if (cx->opset >= 13 || (t.rank >= 0 && axis == t.rank - 1)) {
        int node = call1(cx, cx->map->relay, x);
        TRY(ox_set_int(cx, node, "axis", axis));
        return define(cx, 0, node);
    }
    if (t.rank < 0 || !dims_known(&t, 0, t.rank))
        return ox_unsupported(cx, "a softmax over axes %lld.. needs the input's shape",
                              (long long)axis);
    int64_t flat[2] = {1, -1}, back[BYOC_MAX_RANK];
    for (int k = 0; k < axis; k++)
        flat[0] *= t.dims[k];
    if (axis == 0)
        flat[0] = -1;
    int node = call1(cx, cx->map->relay, reshape(cx, x, flat, axis == 0 ? 1 : 2));
    TRY(ox_set_int(cx, node, "axis", -1));
    memcpy(back, t.dims, sizeof(int64_t) * (size_t)t.rank);
    return define(cx, 0, reshape(cx, node, back, t.rank));
}

/* ---- pooling ---------------------------------------------------------------------- */

/* MaxPool, AveragePool: nn.max_pool{1,2,3}d / nn.avg_pool{1,2,3}d, by the
 * length of kernel_shape.  An input without a batch axis gets one for the
 * op and loses it after, as in TVM. */
static int conv_pool(ox_cx *cx)
{
    bool is_max = strcmp(cx->node->op_type, "MaxPool") == 0;
    if (is_max && ox_output_used(cx, 1))
        return ox_unsupported(cx, "its Indices output is used");
    const int64_t *ks;
    size_t nk;
    int rc = ox_attr_ints(cx, "kernel_shape", &ks, &nk);
    TRY(rc);
    if (rc == 0)
        return ox_fail(cx, "attribute 'kernel_shape' is required");
    if (nk < 1 || nk > 3)
        return ox_unsupported(cx, "%zu spatial axes; byoc maps 1 to 3", nk);
    int nd = (int)nk;
    int64_t kernel[3], strides[3], dil[3], pads[6], ceil_mode, count_pad = 0;
    for (int i = 0; i < nd; i++) {
        if (ks[i] < 1)
            return ox_fail(cx, "attribute 'kernel_shape' has the value %lld", (long long)ks[i]);
        kernel[i] = ks[i];
    }
    TRY(spatial_ints(cx, "strides", nd, 1, 1, strides));
    TRY(spatial_ints(cx, "dilations", nd, 1, 1, dil));
    TRY(ox_attr_int(cx, "ceil_mode", 0, &ceil_mode));
    if (!is_max)
        TRY(ox_attr_int(cx, "count_include_pad", 0, &count_pad));
    TRY(rc = read_pads(cx, nd, kernel, strides, dil, pads));
    if (rc > 0)
        return rc;
    TRY(ox_check_window(cx, nd, kernel, dil, pads, true));
    static const char *const ops[2][3] = {
        {"nn.avg_pool1d", "nn.avg_pool2d", "nn.avg_pool3d"},
        {"nn.max_pool1d", "nn.max_pool2d", "nn.max_pool3d"},
    };
    static const char *const layouts[3] = {"NCW", "NCHW", "NCDHW"};
    int x = ox_arg(cx, 0);
    bool unbatched = rank_of(cx, 0) == nd + 1;
    if (unbatched) {
        x = call1(cx, "expand_dims", x);
        TRY(ox_set_int(cx, x, "axis", 0));
    }
    int node = call1(cx, ops[is_max][nd - 1], x);
    TRY(ox_set_ints(cx, node, "pool_size", kernel, (size_t)nd));
    TRY(ox_set_ints(cx, node, "strides", strides, (size_t)nd));
    TRY(ox_set_ints(cx, node, "dilation", dil, (size_t)nd));
    TRY(ox_set_ints(cx, node, "padding", pads, (size_t)(2 * nd)));
    TRY(ox_set_string(cx, node, "layout", layouts[nd - 1]));
    TRY(ox_set_bool(cx, node, "ceil_mode", ceil_mode != 0));
    if (!is_max)
        TRY(ox_set_bool(cx, node, "count_include_pad", count_pad != 0));
    if (unbatched) {
        int64_t zero = 0;
        node = call1(cx, "squeeze", node);
        TRY(ox_set_ints(cx, node, "axis", &zero, 1));
    }
    return define(cx, 0, node);
}

/* GlobalAveragePool, GlobalMaxPool: the 2-D global op, and for 1-D and
 * 3-D inputs the adaptive op with output size 1, which is what TVM's
 * global 1-D/3-D ops are and what the vocabulary has. */
static int conv_global_pool(ox_cx *cx)
{
    bool is_max = strcmp(cx->node->op_type, "GlobalMaxPool") == 0;
    int rank = rank_of(cx, 0);
    if (rank < 3 || rank > 5)
        return ox_unsupported(cx, rank < 0 ? "the input's rank is not known"
                                           : "the input has no 1 to 3 spatial axes");
    int x = ox_arg(cx, 0);
    if (rank == 4)
        return define(cx, 0, call1(cx, is_max ? "nn.global_max_pool2d" : "nn.global_avg_pool2d",
                                   x));
    static const int64_t ones[3] = {1, 1, 1};
    const char *op = rank == 3 ? (is_max ? "nn.adaptive_max_pool1d" : "nn.adaptive_avg_pool1d")
                               : (is_max ? "nn.adaptive_max_pool3d" : "nn.adaptive_avg_pool3d");
    int node = call1(cx, op, x);
    TRY(ox_set_ints(cx, node, "output_size", ones, (size_t)(rank - 2)));
    return define(cx, 0, node);
}

/* ---- shapes and indexing ------------------------------------------------------- */

/* Reshape: the shape is an attribute before opset 5, an input after.  A
 * shape the model computes at run time is taken from the declared output
 * type when that is fully known: the graph needs a static newshape. */
/* A Relay newshape for reshaping `in` to `want`, whose free dimensions are
 * each the input's at the same axis (0: copy) but at most one (-1:
 * inferred); false when more are left. */
static bool symbolic_newshape(const byoc_tensor_type *in, const byoc_tensor_type *want,
                              bool allowzero, int64_t *codes)
{
    int inferred = 0;
    for (int k = 0; k < want->rank; k++) {
        int64_t d = want->dims[k];
        if (d >= 0)
            codes[k] = d;
        else if (!allowzero && d <= -2 && k < in->rank && in->dims[k] == d)
            codes[k] = 0;
        else if (inferred++ == 0)
            codes[k] = -1;
        else
            return false;
    }
    /* A 0 in Relay's newshape copies; a literal 0 size needs allowzero. */
    for (int k = 0; !allowzero && k < want->rank; k++)
        if (want->dims[k] == 0)
            return false;
    return true;
}

static int conv_reshape(ox_cx *cx)
{
    const int64_t *v = NULL;
    size_t n = 0;
    int64_t allowzero, fallback[BYOC_MAX_RANK], codes[BYOC_MAX_RANK];
    byoc_tensor_type decl = ox_out_decl(cx, 0), hint;
    bool has_hint = false;
    TRY(ox_attr_int(cx, "allowzero", 0, &allowzero));
    if (cx->opset < 5) {
        int rc = ox_attr_ints(cx, "shape", &v, &n);
        TRY(rc);
        if (rc == 0)
            return ox_fail(cx, "attribute 'shape' is required");
    } else {
        int s = input_ints(cx, 1, &v, &n);
        if (s == IN_ABSENT)
            return ox_fail(cx, "input 2 (the shape) is missing");
        if (s == IN_DYNAMIC) {
            /* A shape of free dimensions is a newshape when each is a copy
             * of the input's (0) but one (-1); the type keeps them. */
            byoc_tensor_type in = ox_type(cx, ox_in(cx, 0));
            if (ox_symbolic_type(cx, &hint) && symbolic_newshape(&in, &hint, allowzero != 0,
                                                                 codes)) {
                v = codes;
                n = (size_t)hint.rank;
                has_hint = true;
            } else if (decl.rank >= 0 && dims_known(&decl, 0, decl.rank)) {
                /* The declared output type may say what it comes to. */
                v = decl.dims;
                n = (size_t)decl.rank;
            } else {
                return ox_unsupported(cx, "the shape is computed at run time%s",
                                      has_free_dims(&hint) ? " from several free dimensions"
                                                           : "");
            }
        }
    }
    if (n > BYOC_MAX_RANK)
        return ox_fail(cx, "the shape has %zu axes; byoc takes at most %d", n, BYOC_MAX_RANK);
    for (size_t k = 0; k < n; k++)
        if (v[k] < -1)
            return ox_fail(cx, "the shape holds %lld", (long long)v[k]);
    /* A shape whose sizes (a 0 copying the input's) multiply past 64 bits
     * is no shape, not one that fails to divide. */
    byoc_tensor_type in = ox_type(cx, ox_in(cx, 0));
    int64_t sizes[BYOC_MAX_RANK];
    for (size_t k = 0; k < n; k++)
        sizes[k] = v[k] == 0 && !allowzero ? ((int)k < in.rank ? in.dims[k] : -1) : v[k];
    if (!ox_count_fits(sizes, (int)n))
        return ox_fail(cx, "the shape [%s] has more than 2^63 - 1 elements",
                       ox_ints_str(cx, v, n));
    memcpy(fallback, v, sizeof(int64_t) * n);
    int node = reshape(cx, ox_arg(cx, 0), fallback, (int)n);
    if (allowzero)
        TRY(ox_set_bool(cx, node, "allowzero", true));
    if (node >= 0 && has_hint)
        byoc_graph_set_type(cx->g, node, &hint);
    return define(cx, 0, node);
}

/* Flatten: nn.batch_flatten at axis 1, otherwise a reshape to 2-D. */
static int conv_flatten(ox_cx *cx)
{
    int64_t axis;
    TRY(ox_attr_int(cx, "axis", 1, &axis));
    byoc_tensor_type t = ox_type(cx, ox_in(cx, 0));
    if (axis < 0 && t.rank < 0)
        return ox_unsupported(cx, "a negative axis needs the input's rank");
    axis = norm_axis(axis, t.rank);
    if (t.rank >= 0 && (axis < 0 || axis > t.rank))
        return ox_fail(cx, "attribute 'axis' is out of range for rank %d", t.rank);
    if (axis == 1)
        return define(cx, 0, call1(cx, "nn.batch_flatten", ox_arg(cx, 0)));
    int64_t shape[2] = {1, 1};
    if (axis == 0) {
        shape[1] = -1;
    } else {
        if (t.rank < 0)
            return ox_unsupported(cx, "the input's shape is not known");
        bool pre = dims_known(&t, 0, (int)axis), post = dims_known(&t, (int)axis, t.rank);
        if (!pre && !post)
            return ox_unsupported(cx, "the input's shape is not known");
        for (int k = 0; k < t.rank; k++)
            if (t.dims[k] >= 0)
                shape[k >= axis] *= t.dims[k];
        if (!pre)
            shape[0] = -1;
        if (!post)
            shape[1] = -1;
    }
    return define(cx, 0, reshape(cx, ox_arg(cx, 0), shape, 2));
}

static int conv_concat(ox_cx *cx)
{
    int64_t axis;
    int rc = ox_attr_int(cx, "axis", 1, &axis);
    TRY(rc);
    if (rc == 0 && cx->opset >= 4)
        return ox_fail(cx, "attribute 'axis' is required");
    int n = cx->node->ninputs;
    if (n == 0)
        return ox_fail(cx, "no inputs");
    TRY(ox_check_axis(cx, "attribute 'axis'", axis, rank_of(cx, 0)));
    int *fields = ox_alloc(cx, sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        TRY(fields[i] = ox_arg(cx, i));
    int tuple = ox_tuple(cx, fields, n);
    int node = call1(cx, "concatenate", tuple);
    TRY(ox_set_int(cx, node, "axis", axis));
    return define(cx, 0, node);
}

/* Split: sizes from the `split` attribute before opset 13 and the second
 * input after; cut points are their running sums.  Without sizes, equal
 * parts, one per output.  Every output is a projection. */
static int conv_split(ox_cx *cx)
{
    int64_t axis;
    TRY(ox_attr_int(cx, "axis", 0, &axis));
    const int64_t *sizes = NULL;
    size_t n = 0;
    if (cx->opset < 13) {
        TRY(ox_attr_ints(cx, "split", &sizes, &n));
    } else {
        int s = input_ints(cx, 1, &sizes, &n);
        if (s == IN_DYNAMIC)
            return ox_unsupported(cx, "the split sizes are computed at run time");
    }
    int nout = cx->node->noutputs;
    if (nout < 1)
        return ox_fail(cx, "no outputs");
    if (n > 0 && (int)n != nout)
        return ox_fail(cx, "%zu split sizes for %d outputs", n, nout);
    /* Opset 18's num_outputs: parts of ceil(size / n), the last one
     * smaller when the size does not divide, which Relay's equal sections
     * cannot say: cut points then. */
    int64_t parts;
    int rc = cx->opset >= 18 ? ox_attr_int(cx, "num_outputs", nout, &parts) : 0;
    TRY(rc);
    if (rc > 0 && n > 0)
        return ox_fail(cx, "both split sizes and num_outputs");
    if (rc > 0 && parts != nout)
        return ox_fail(cx, "num_outputs is %lld for %d outputs", (long long)parts, nout);
    byoc_tensor_type t = ox_type(cx, ox_in(cx, 0));
    TRY(ox_check_axis(cx, "attribute 'axis'", axis, t.rank));
    int64_t a = norm_axis(axis, t.rank), total = 0;
    /* As ONNX Runtime: sizes of 0 or more that add up to the axis. */
    for (size_t k = 0; k < n; k++)
        if (sizes[k] < 0 || __builtin_add_overflow(total, sizes[k], &total))
            return ox_fail(cx, "the split sizes [%s] are not sizes", ox_ints_str(cx, sizes, n));
    if (n > 0 && t.rank >= 0 && t.dims[a] >= 0 && total != t.dims[a])
        return ox_fail(cx, "the split sizes [%s] do not add up to the %lld of axis %lld",
                       ox_ints_str(cx, sizes, n), (long long)t.dims[a], (long long)a);
    if (rc > 0 && a >= 0 && a < t.rank && t.dims[a] >= 0 && t.dims[a] % nout) {
        int64_t d = t.dims[a], chunk = d / nout + 1;
        if (chunk > d / (nout - 1))
            return ox_fail(cx, "%d parts of size %lld leave no last part", nout, (long long)d);
        int64_t *cuts = ox_alloc(cx, sizeof(int64_t) * (size_t)nout);
        for (int k = 0; k + 1 < nout; k++)
            cuts[k] = chunk * (k + 1);
        int node = call1(cx, "split", ox_arg(cx, 0));
        TRY(ox_set_ints(cx, node, "indices_or_sections", cuts, (size_t)nout - 1));
        TRY(ox_set_int(cx, node, "axis", axis));
        for (int i = 0; i < nout; i++)
            if (cx->node->outputs[i][0])
                TRY(define(cx, i, ox_proj(cx, node, i)));
        return 0;
    }
    if (n == 0 && rc == 0 && t.rank >= 0 && t.dims[a] >= 0 && t.dims[a] % nout)
        return ox_fail(cx, "%d equal parts do not divide the %lld of axis %lld", nout,
                       (long long)t.dims[a], (long long)a);
    int node = call1(cx, "split", ox_arg(cx, 0));
    if (n > 1) {
        int64_t *cuts = ox_alloc(cx, sizeof(int64_t) * n), at = 0;
        for (size_t k = 0; k + 1 < n; k++)
            cuts[k] = at += sizes[k];
        TRY(ox_set_ints(cx, node, "indices_or_sections", cuts, n - 1));
    } else {
        TRY(ox_set_int(cx, node, "indices_or_sections", nout));
    }
    TRY(ox_set_int(cx, node, "axis", axis));
    for (int i = 0; i < nout; i++)
        if (cx->node->outputs[i][0])
            TRY(define(cx, i, ox_proj(cx, node, i)));
    return 0;
}

/* Transpose: held back until used, so that MatMul and Gemm can cancel it
 * against the transpose they need. */
static int conv_transpose(ox_cx *cx)
{
    const int64_t *perm;
    size_t n;
    int rc = ox_attr_ints(cx, "perm", &perm, &n);
    TRY(rc);
    int64_t rev[BYOC_MAX_RANK];
    if (rc == 0) {
        int rank = rank_of(cx, 0);
        if (rank < 0)
            return define(cx, 0, call1(cx, "transpose", ox_arg(cx, 0)));
        for (int k = 0; k < rank; k++)
            rev[k] = rank - 1 - k;
        perm = rev;
        n = (size_t)rank;
    }
    if (n > BYOC_MAX_RANK)
        return ox_fail(cx, "attribute 'perm' has %zu axes", n);
    unsigned seen = 0;
    for (size_t k = 0; k < n; k++) {
        if (perm[k] < 0 || perm[k] >= (int64_t)n || (seen >> perm[k] & 1))
            return ox_fail(cx, "attribute 'perm' is not a permutation of 0..%zu", n - 1);
        seen |= 1u << perm[k];
    }
    int rank = rank_of(cx, 0);
    if (rank >= 0 && rank != (int)n)
        return ox_fail(cx, "attribute 'perm' has %zu axes for an input of rank %d", n, rank);
    if (!ox_in(cx, 0))
        return ox_fail(cx, "input 1 is missing");
    /* Of a transpose itself held back: one transpose, composed as
     * ox_transpose composes them, so that a chain of thousands stays one
     * deep for ox_type and ox_node_of, which follow it by recursion. */
    ox_value *src = ox_in(cx, 0), *inner;
    int64_t p[BYOC_MAX_RANK], composed[BYOC_MAX_RANK];
    int irank;
    if (ox_pending_transpose(src, &inner, p, &irank) && irank == (int)n) {
        bool identity = true;
        for (size_t k = 0; k < n; k++) {
            composed[k] = p[perm[k]];
            identity = identity && composed[k] == (int64_t)k;
        }
        if (identity) {
            ox_alias(cx, 0, inner);
            return 0;
        }
        src = inner;
        perm = composed;
    }
    ox_define_transpose(cx, 0, src, perm, (int)n);
    return 0;
}

/* Gather: take along `axis`.  TVM also normalises negative indices with
 * less/add/where when they are not constants; ONNX exports that need it
 * (GPT-2's) spell that out themselves, so it is not repeated here. */
/* A two-input op whose one integer attribute keeps its value and default
 * under another name: Gather -> take, GatherElements -> gather, GatherND ->
 * gather_nd. */
static int call2_int_attr(ox_cx *cx, const char *op, const char *onnx_attr,
                          const char *relay_attr)
{
    int64_t v;
    TRY(ox_attr_int(cx, onnx_attr, 0, &v));
    int node = call2(cx, op, ox_arg(cx, 0), ox_arg(cx, 1));
    TRY(ox_set_int(cx, node, relay_attr, v));
    return define(cx, 0, node);
}

/* Gather's indices, where the model gives them, inside the axis, as
 * ONNX Runtime checks them. */
static int conv_gather(ox_cx *cx)
{
    int64_t axis;
    TRY(ox_attr_int(cx, "axis", 0, &axis));
    byoc_tensor_type t = ox_type(cx, ox_in(cx, 0));
    TRY(ox_check_axis(cx, "attribute 'axis'", axis, t.rank));
    const ox_tensor *idx = ox_data(cx, ox_in(cx, 1));
    int64_t d = t.rank > 0 ? t.dims[norm_axis(axis, t.rank)] : BYOC_DIM_UNKNOWN;
    for (size_t k = 0; d >= 0 && idx && idx->i && k < idx->n; k++)
        if (idx->i[k] < -d || idx->i[k] >= d)
            return ox_fail(cx, "index %lld is out of range for axis %lld of size %lld",
                           (long long)idx->i[k], (long long)norm_axis(axis, t.rank),
                           (long long)d);
    return call2_int_attr(cx, "take", "axis", "axis");
}

static int conv_gather_elements(ox_cx *cx)
{
    int64_t axis;
    TRY(ox_attr_int(cx, "axis", 0, &axis));
    TRY(ox_check_axis(cx, "attribute 'axis'", axis, rank_of(cx, 0)));
    return call2_int_attr(cx, "gather", "axis", "axis");
}

static int conv_gather_nd(ox_cx *cx)
{
    int64_t b;
    TRY(ox_attr_int(cx, "batch_dims", 0, &b));
    int r = rank_of(cx, 0), q = rank_of(cx, 1);
    if (b < 0 || (r >= 0 && b >= r) || (q >= 0 && b >= q))
        return ox_fail(cx, "attribute 'batch_dims' is %lld for data of rank %d and indices of "
                           "rank %d", (long long)b, r, q);
    return call2_int_attr(cx, "gather_nd", "batch_dims", "batch_dims");
}

/* Shape: shape_of in int64; opset 15's start and end slice it. */
static int conv_shape(ox_cx *cx)
{
    int64_t start, end;
    int rs = ox_attr_int(cx, "start", 0, &start), re = ox_attr_int(cx, "end", INT64_MAX, &end);
    TRY(rs);
    TRY(re);
    int node = call1(cx, "shape_of", ox_arg(cx, 0));
    TRY(ox_set_dtype(cx, node, "dtype", BYOC_DT_INT64));
    if (rs > 0 || re > 0) {
        int64_t zero = 0;
        node = call1(cx, "strided_slice", node);
        TRY(ox_set_ints(cx, node, "begin", &start, 1));
        TRY(ox_set_ints(cx, node, "end", &end, 1));
        TRY(ox_set_ints(cx, node, "axes", &zero, 1));
    }
    return define(cx, 0, node);
}

static int conv_size(ox_cx *cx)
{
    int node = call1(cx, "ndarray_size", ox_arg(cx, 0));
    TRY(ox_set_dtype(cx, node, "dtype", BYOC_DT_INT64));
    return define(cx, 0, node);
}

/* The axes of Squeeze, Unsqueeze and the reductions: an attribute, or
 * from `input_from` on an input.  Returns IN_ABSENT, IN_KNOWN, or 1 via
 * ox_unsupported for axes computed at run time. */
static int read_axes(ox_cx *cx, int input_from, int input, const int64_t **axes, size_t *n)
{
    *axes = NULL;
    *n = 0;
    if (cx->opset < input_from) {
        int rc = ox_attr_ints(cx, "axes", axes, n);
        TRY(rc);
        return rc ? IN_KNOWN : IN_ABSENT;
    }
    int s = input_ints(cx, input, axes, n);
    if (s == IN_DYNAMIC) {
        ox_unsupported(cx, "the axes are computed at run time");
        return -2;
    }
    return s;
}

/* Unsqueeze: one expand_dims per axis, in increasing order; negative axes
 * count in the output's rank. */
static int conv_unsqueeze(ox_cx *cx)
{
    const int64_t *axes;
    size_t n;
    int s = read_axes(cx, 13, 1, &axes, &n);
    if (s == -2)
        return 1;
    TRY(s);
    if (s == IN_ABSENT || n == 0)
        return ox_fail(cx, "no axes");
    if (n > BYOC_MAX_RANK)
        return ox_fail(cx, "%zu axes", n);
    int64_t sorted[BYOC_MAX_RANK];
    int rank = rank_of(cx, 0), out = rank + (int)n;
    for (size_t k = 0; k < n; k++) {
        if (axes[k] < 0 && rank < 0)
            return ox_unsupported(cx, "a negative axis needs the input's rank");
        if (rank >= 0 && (axes[k] < -out || axes[k] >= out))
            return ox_fail(cx, "axis %lld is out of range for an output of rank %d",
                           (long long)axes[k], out);
        sorted[k] = norm_axis(axes[k], rank < 0 ? -1 : out);
    }
    for (size_t k = 1; k < n; k++)
        for (size_t j = k; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            int64_t t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    for (size_t k = 1; k < n; k++)
        if (sorted[k] == sorted[k - 1])
            return ox_fail(cx, "axis %lld is given twice", (long long)sorted[k]);
    int x = ox_arg(cx, 0);
    for (size_t k = 0; k < n; k++) {
        x = call1(cx, "expand_dims", x);
        TRY(ox_set_int(cx, x, "axis", sorted[k]));
    }
    return define(cx, 0, x);
}

static int conv_squeeze(ox_cx *cx)
{
    const int64_t *axes;
    size_t n;
    int s = read_axes(cx, 13, 1, &axes, &n);
    if (s == -2)
        return 1;
    TRY(s);
    int node = call1(cx, "squeeze", ox_arg(cx, 0));
    if (s == IN_KNOWN) {
        int64_t norm[BYOC_MAX_RANK];
        byoc_tensor_type t = ox_type(cx, ox_in(cx, 0));
        if (n > BYOC_MAX_RANK)
            return ox_fail(cx, "%zu axes", n);
        for (size_t k = 0; k < n; k++) {
            TRY(ox_check_axis(cx, "an axis", axes[k], t.rank));
            norm[k] = norm_axis(axes[k], t.rank);
            if (t.rank >= 0 && t.dims[norm[k]] >= 0 && t.dims[norm[k]] != 1)
                return ox_fail(cx, "axis %lld has size %lld, not 1", (long long)norm[k],
                               (long long)t.dims[norm[k]]);
        }
        TRY(ox_set_ints(cx, node, "axis", norm, n));
    }
    return define(cx, 0, node);
}

/* Slice: starts, ends, axes and steps are attributes before opset 10
 * (no steps) and inputs after; all become strided_slice's attributes. */
static int conv_slice(ox_cx *cx)
{
    const int64_t *starts, *ends, *axes = NULL, *steps = NULL;
    size_t ns, ne, na = 0, nst = 0;
    if (cx->opset < 10) {
        if (ox_attr_ints(cx, "starts", &starts, &ns) <= 0
            || ox_attr_ints(cx, "ends", &ends, &ne) <= 0)
            return ox_fail(cx, "attributes 'starts' and 'ends' are required lists of ints");
        TRY(ox_attr_ints(cx, "axes", &axes, &na));
    } else {
        int s1 = input_ints(cx, 1, &starts, &ns), s2 = input_ints(cx, 2, &ends, &ne);
        int s3 = input_ints(cx, 3, &axes, &na), s4 = input_ints(cx, 4, &steps, &nst);
        if (s1 == IN_ABSENT || s2 == IN_ABSENT)
            return ox_fail(cx, "inputs 'starts' and 'ends' are required");
        if (s1 == IN_DYNAMIC || s2 == IN_DYNAMIC || s3 == IN_DYNAMIC || s4 == IN_DYNAMIC)
            return ox_unsupported(cx, "its bounds are computed at run time");
    }
    if (ns != ne || (axes && na != ns) || (steps && nst != ns) || ns > BYOC_MAX_RANK)
        return ox_fail(cx, "starts, ends, axes and steps differ in length");
    int rank = rank_of(cx, 0);
    int64_t ax[BYOC_MAX_RANK], st[BYOC_MAX_RANK];
    for (size_t k = 0; k < ns; k++) {
        if (axes)
            TRY(ox_check_axis(cx, "an axis", axes[k], rank));
        ax[k] = axes ? norm_axis(axes[k], rank) : (int64_t)k;
        for (size_t j = 0; j < k; j++)
            if (ax[j] == ax[k] && rank >= 0)
                return ox_fail(cx, "axis %lld is sliced twice", (long long)ax[k]);
        st[k] = steps ? steps[k] : 1;
        if (st[k] == 0)
            return ox_fail(cx, "a step is 0");
    }
    int node = call1(cx, "strided_slice", ox_arg(cx, 0));
    TRY(ox_set_ints(cx, node, "begin", starts, ns));
    TRY(ox_set_ints(cx, node, "end", ends, ns));
    TRY(ox_set_ints(cx, node, "strides", st, ns));
    TRY(ox_set_ints(cx, node, "axes", ax, ns));
    return define(cx, 0, node);
}

/* ReduceMean and friends: `axes` is an attribute (ReduceSum until opset
 * 13, the others until 18) or the second input; no axes reduces all of
 * them, unless noop_with_empty_axes says to do nothing. */
static int conv_reduce(ox_cx *cx)
{
    int64_t keepdims, noop;
    TRY(ox_attr_int(cx, "keepdims", 1, &keepdims));
    TRY(ox_attr_int(cx, "noop_with_empty_axes", 0, &noop));
    const int64_t *axes;
    size_t n;
    int from = strcmp(cx->node->op_type, "ReduceSum") == 0 ? 13 : 18;
    int s = read_axes(cx, from, 1, &axes, &n);
    if (s == -2)
        return 1;
    TRY(s);
    if (n == 0 && noop)
        return pass_through(cx);
    for (size_t k = 0; k < n; k++)
        TRY(ox_check_axis(cx, "an axis", axes[k], rank_of(cx, 0)));
    int node = call1(cx, cx->map->relay, ox_arg(cx, 0));
    if (n > 0)
        TRY(ox_set_ints(cx, node, "axis", axes, n));
    TRY(ox_set_bool(cx, node, "keepdims", keepdims != 0));
    return define(cx, 0, node);
}

/* ArgMax, ArgMin: the Relay op and, as TVM, a cast to ONNX's int64. */
static int conv_arg_reduce(ox_cx *cx)
{
    int64_t axis, keepdims, last;
    TRY(ox_attr_int(cx, "axis", 0, &axis));
    TRY(ox_attr_int(cx, "keepdims", 1, &keepdims));
    TRY(ox_attr_int(cx, "select_last_index", 0, &last));
    TRY(ox_check_axis(cx, "attribute 'axis'", axis, rank_of(cx, 0)));
    int node = call1(cx, cx->map->relay, ox_arg(cx, 0));
    TRY(ox_set_ints(cx, node, "axis", &axis, 1));
    TRY(ox_set_bool(cx, node, "keepdims", keepdims != 0));
    TRY(ox_set_bool(cx, node, "select_last_index", last != 0));
    node = call1(cx, "cast", node);
    TRY(ox_set_dtype(cx, node, "dtype", BYOC_DT_INT64));
    return define(cx, 0, node);
}

/* Pad: pads and value are attributes before opset 11 and inputs after.
 * ONNX lists all starts then all ends; nn.pad wants pairs per axis. */
static int conv_pad(ox_cx *cx)
{
    const int64_t *pads;
    size_t n;
    const char *mode;
    TRY(ox_attr_string(cx, "mode", "constant", &mode));
    if (cx->opset >= 19 && !strcmp(mode, "wrap"))
        return ox_unsupported(cx, "mode 'wrap' (opset 19) has no nn.pad counterpart");
    if (strcmp(mode, "constant") && strcmp(mode, "edge") && strcmp(mode, "reflect"))
        return ox_fail(cx, "attribute 'mode' is '%s'; expected constant, edge or reflect", mode);
    int value = -1;
    int64_t all_pads[2 * BYOC_MAX_RANK];
    if (cx->opset < 11) {
        int rc = ox_attr_ints(cx, cx->opset < 2 ? "paddings" : "pads", &pads, &n);
        TRY(rc);
        if (rc == 0)
            return ox_fail(cx, "attribute 'pads' is required");
        double v;
        TRY(ox_attr_float(cx, "value", 0.0, &v));
        value = ox_scalar(cx, dtype_of(cx, 0), v);
    } else {
        int s = input_ints(cx, 1, &pads, &n);
        if (s == IN_ABSENT)
            return ox_fail(cx, "input 2 (the pads) is missing");
        if (s == IN_DYNAMIC)
            return ox_unsupported(cx, "the pads are computed at run time");
        /* Opset 18's axes: the pads are for those axes only, zero for
         * the others. */
        const int64_t *axes;
        size_t na;
        int sa = input_ints(cx, 3, &axes, &na);
        if (sa == IN_DYNAMIC)
            return ox_unsupported(cx, "the axes are computed at run time");
        if (sa == IN_KNOWN) {
            int rank = rank_of(cx, 0);
            if (rank < 0)
                return ox_unsupported(cx, "padding some axes needs the input's rank");
            if (n != 2 * na || rank > BYOC_MAX_RANK)
                return ox_fail(cx, "%zu pads for %zu axes", n, na);
            for (int k = 0; k < 2 * rank; k++)
                all_pads[k] = 0;
            for (size_t k = 0; k < na; k++) {
                int64_t a = norm_axis(axes[k], rank);
                if (a < 0 || a >= rank)
                    return ox_fail(cx, "axis %lld is out of range for rank %d",
                                   (long long)axes[k], rank);
                all_pads[a] = pads[k];
                all_pads[rank + a] = pads[na + k];
            }
            pads = all_pads;
            n = (size_t)(2 * rank);
        }
        ox_value *cv = ox_in(cx, 2);
        const ox_tensor *t = cv ? ox_data(cx, cv) : NULL;
        if (!cv)
            value = ox_scalar(cx, dtype_of(cx, 0), 0.0);
        else if (t && t->type.rank != 0 && t->n >= 1)
            value = ox_scalar(cx, t->type.dtype, t->f ? t->f[0] : (double)t->i[0]);
        else
            value = ox_arg(cx, 2);
    }
    if (n % 2 || n / 2 > BYOC_MAX_RANK)
        return ox_fail(cx, "%zu pads; expected two per axis", n);
    int rank = rank_of(cx, 0);
    if (rank >= 0 && (int)n != 2 * rank)
        return ox_fail(cx, "%zu pads for a tensor of rank %d", n, rank);
    int64_t pairs[2 * BYOC_MAX_RANK];
    size_t axes = n / 2;
    byoc_tensor_type t = ox_type(cx, ox_in(cx, 0));
    for (size_t k = 0; k < axes; k++) {
        pairs[2 * k] = pads[k];
        pairs[2 * k + 1] = pads[axes + k];
        /* Negative pads crop, but not past nothing; and no size passes
         * 2^63 - 1. */
        int64_t size = rank >= 0 && t.dims[k] >= 0 ? t.dims[k] : 0;
        if (__builtin_add_overflow(size, pads[k], &size)
            || __builtin_add_overflow(size, pads[axes + k], &size))
            return ox_fail(cx, "pads %lld and %lld take axis %zu past 2^63 - 1",
                           (long long)pads[k], (long long)pads[axes + k], k);
        if (rank >= 0 && t.dims[k] >= 0 && size < 0)
            return ox_fail(cx, "pads %lld and %lld crop more than all of axis %zu",
                           (long long)pads[k], (long long)pads[axes + k], k);
    }
    int node = call2(cx, "nn.pad", ox_arg(cx, 0), value);
    TRY(ox_set_pairs(cx, node, "pad_width", pairs, axes));
    TRY(ox_set_string(cx, node, "pad_mode", mode));
    return define(cx, 0, node);
}

/* Expand: broadcast_to the shape numpy's rule gives the input and the
 * requested shape together, as TVM computes it. */
static int conv_expand(ox_cx *cx)
{
    const int64_t *shape;
    size_t n;
    int s = input_ints(cx, 1, &shape, &n);
    if (s == IN_ABSENT)
        return ox_fail(cx, "input 2 (the shape) is missing");
    byoc_tensor_type t = ox_type(cx, ox_in(cx, 0)), target;
    if (s == IN_DYNAMIC) {
        /* A shape of free dimensions that leaves every axis as it is (a
         * mask expanded to [batch, 1, seq, seq] it already has): no
         * broadcast at all. */
        if (!ox_symbolic_type(cx, &target))
            return ox_unsupported(cx, "the shape is computed at run time");
        if (target.rank == t.rank
            && !memcmp(target.dims, t.dims, sizeof(int64_t) * (size_t)t.rank)) {
            ox_alias(cx, 0, ox_in(cx, 0));
            return 0;
        }
        if (!dims_known(&target, 0, target.rank))
            return ox_unsupported(cx, "the shape is computed at run time from free dimensions");
        shape = target.dims;
        n = (size_t)target.rank;
    }
    int rank = t.rank < 0 ? (int)n : (t.rank > (int)n ? t.rank : (int)n);
    if (rank > BYOC_MAX_RANK)
        return ox_fail(cx, "the shape has %d axes", rank);
    for (size_t k = 0; s == IN_KNOWN && k < n; k++)
        if (shape[k] < 0)
            return ox_fail(cx, "the shape holds %lld", (long long)shape[k]);
    int64_t out[BYOC_MAX_RANK];
    for (int k = 0; k < rank; k++) {
        int ks = k - (rank - (int)n), kt = k - (rank - t.rank);
        int64_t want = ks >= 0 ? shape[ks] : 1, have = t.rank >= 0 && kt >= 0 ? t.dims[kt] : 1;
        if (t.rank < 0 && want == 1)
            return ox_unsupported(cx, "the input's shape is not known");
        if (want == 1)
            want = have;
        else if (have >= 0 && have != 1 && have != want)
            return ox_fail(cx, "cannot broadcast size %lld to %lld", (long long)have,
                           (long long)want);
        if (want < 0)
            return ox_unsupported(cx, "the result's shape is not known");
        out[k] = want;
    }
    /* To the shape it has: nothing to do (TVM's SimplifyExpr drops it). */
    if (t.rank == rank && !memcmp(t.dims, out, sizeof(int64_t) * (size_t)rank)) {
        ox_alias(cx, 0, ox_in(cx, 0));
        return 0;
    }
    int node = call1(cx, "broadcast_to", ox_arg(cx, 0));
    TRY(ox_set_ints(cx, node, "shape", out, (size_t)rank));
    return define(cx, 0, node);
}

static int conv_tile(ox_cx *cx)
{
    const int64_t *reps;
    size_t n;
    int s = input_ints(cx, 1, &reps, &n);
    if (s != IN_KNOWN)
        return s == IN_ABSENT ? ox_fail(cx, "input 2 (the repeats) is missing")
                              : ox_unsupported(cx, "the repeats are computed at run time");
    byoc_tensor_type t = ox_type(cx, ox_in(cx, 0));
    if (t.rank >= 0 && (int)n != t.rank)
        return ox_fail(cx, "%zu repeats for a tensor of rank %d", n, t.rank);
    for (size_t k = 0; k < n; k++) {
        int64_t size;
        if (reps[k] < 0)
            return ox_fail(cx, "the repeats hold %lld", (long long)reps[k]);
        if (t.rank >= 0 && t.dims[k] >= 0 && __builtin_mul_overflow(t.dims[k], reps[k], &size))
            return ox_fail(cx, "%lld repeats take axis %zu of %lld past 2^63 - 1",
                           (long long)reps[k], k, (long long)t.dims[k]);
    }
    int node = call1(cx, "tile", ox_arg(cx, 0));
    TRY(ox_set_ints(cx, node, "reps", reps, n));
    return define(cx, 0, node);
}

/* Constant: its value is a constant node made when first used; small
 * ones (shapes, axes) also feed the converters of their users. */
static int conv_constant(ox_cx *cx)
{
    static const struct {
        const char *name;
        int type;
    } forms[] = {
        {"value", OX_AT_TENSOR}, {"value_float", OX_AT_FLOAT}, {"value_floats", OX_AT_FLOATS},
        {"value_int", OX_AT_INT}, {"value_ints", OX_AT_INTS},
    };
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        const ox_attr *a = ox_attr_find(cx->node, forms[k].name);
        if (!a)
            continue;
        if (a->type != forms[k].type)
            return ox_fail(cx, "attribute '%s' has the wrong type", a->name);
        if (a->type == OX_AT_TENSOR) {
            ox_define_const(cx, 0, &a->ttype, a->t);
            return 0;
        }
        bool is_float = a->type == OX_AT_FLOAT || a->type == OX_AT_FLOATS;
        bool scalar = a->type == OX_AT_FLOAT || a->type == OX_AT_INT;
        ox_tensor *t = ox_alloc(cx, sizeof *t);
        t->type.dtype = is_float ? BYOC_DT_FLOAT32 : BYOC_DT_INT64;
        t->type.rank = scalar ? 0 : 1;
        t->type.dims[0] = (int64_t)a->n;
        t->n = scalar ? 1 : a->n;
        if (is_float) {
            double *f = ox_alloc(cx, sizeof(double) * t->n);
            for (size_t i = 0; i < t->n; i++)
                f[i] = scalar ? a->f : a->floats[i];
            t->f = f;
        } else {
            int64_t *v = ox_alloc(cx, sizeof(int64_t) * t->n);
            for (size_t i = 0; i < t->n; i++)
                v[i] = scalar ? a->i : a->ints[i];
            t->i = v;
        }
        ox_define_const(cx, 0, &t->type, t);
        return 0;
    }
    if (ox_attr_find(cx->node, "sparse_value") || ox_attr_find(cx->node, "value_string")
        || ox_attr_find(cx->node, "value_strings"))
        return ox_unsupported(cx, "a sparse or string constant");
    return ox_fail(cx, "no value attribute");
}

static int conv_constant_of_shape(ox_cx *cx)
{
    const int64_t *shape;
    size_t n;
    int s = input_ints(cx, 0, &shape, &n);
    if (s != IN_KNOWN)
        return s == IN_ABSENT ? ox_fail(cx, "input 1 (the shape) is missing")
                              : ox_unsupported(cx, "the shape is computed at run time");
    for (size_t k = 0; k < n; k++)
        if (shape[k] < 0)
            return ox_fail(cx, "the shape holds %lld", (long long)shape[k]);
    const ox_attr *a = ox_attr_find(cx->node, "value");
    byoc_dtype dt = BYOC_DT_FLOAT32;
    double v = 0;
    if (a) {
        if (a->type != OX_AT_TENSOR)
            return ox_fail(cx, "attribute 'value' should be a tensor");
        dt = a->ttype.dtype;
        if (a->t && a->t->n >= 1)
            v = a->t->f ? a->t->f[0] : (double)a->t->i[0];
    }
    int node = call1(cx, "full", ox_scalar(cx, dt, v));
    TRY(ox_set_ints(cx, node, "shape", shape, n));
    TRY(ox_set_dtype(cx, node, "dtype", dt));
    return define(cx, 0, node);
}

static int conv_depth_to_space(ox_cx *cx)
{
    int64_t bs;
    const char *mode;
    if (ox_attr_int(cx, "blocksize", 0, &bs) <= 0 || bs < 1)
        return ox_fail(cx, "attribute 'blocksize' is required and must be a positive int");
    TRY(ox_attr_string(cx, "mode", "DCR", &mode));
    bool d2s = strcmp(cx->node->op_type, "DepthToSpace") == 0;
    /* As ONNX Runtime: the channels divide by blocksize^2 (DepthToSpace),
     * the height and width by blocksize (SpaceToDepth). */
    byoc_tensor_type t = ox_type(cx, ox_in(cx, 0));
    int64_t sq;
    if (t.rank == 4 && d2s && t.dims[1] >= 0
        && (__builtin_mul_overflow(bs, bs, &sq) || t.dims[1] % sq))
        return ox_fail(cx, "the input's %lld channels do not divide by blocksize %lld squared",
                       (long long)t.dims[1], (long long)bs);
    for (int k = 2; t.rank == 4 && !d2s && k < 4; k++)
        if (t.dims[k] >= 0 && t.dims[k] % bs)
            return ox_fail(cx, "the input's axis %d of %lld does not divide by blocksize %lld",
                           k, (long long)t.dims[k], (long long)bs);
    int node = call1(cx, d2s ? "nn.depth_to_space" : "nn.space_to_depth", ox_arg(cx, 0));
    TRY(ox_set_int(cx, node, "block_size", bs));
    if (d2s)
        TRY(ox_set_string(cx, node, "mode", mode));
    return define(cx, 0, node);
}

/* Resize (opset 10: scales; 11-13: roi, scales, sizes): as TVM,
 * image.resize{1,2,3}d to a static size, from `sizes` or the input's
 * shape times `scales`; opset 10 resizes "asymmetric"ally with Relay's
 * defaults for the rest. */
static int conv_resize(ox_cx *cx)
{
    byoc_tensor_type t = ox_type(cx, ox_in(cx, 0));
    if (t.rank < 3 || t.rank > 5)
        return ox_unsupported(cx, t.rank < 0 ? "the input's rank is not known"
                                             : "only 1 to 3 spatial axes are mapped");
    int nd = t.rank - 2;
    bool v10 = cx->opset < 11;
    double scales[BYOC_MAX_RANK], full_scales[BYOC_MAX_RANK];
    int64_t sizes[BYOC_MAX_RANK];
    size_t ns = 0, nz = 0;
    const int64_t *zv = NULL;
    int s_scales = input_numbers(cx, v10 ? 1 : 2, scales, BYOC_MAX_RANK, &ns);
    int s_sizes = v10 ? IN_ABSENT : input_ints(cx, 3, &zv, &nz);
    /* Opset 18: scales or sizes for the listed axes only, the others
     * kept; antialias and keep_aspect_ratio_policy; opset 19's
     * half_pixel_symmetric. */
    const int64_t *axes = NULL;
    size_t na = 0;
    int64_t antialias = 0;
    const char *policy = "stretch";
    if (cx->opset >= 18) {
        TRY(ox_attr_ints(cx, "axes", &axes, &na));
        TRY(ox_attr_int(cx, "antialias", 0, &antialias));
        TRY(ox_attr_string(cx, "keep_aspect_ratio_policy", "stretch", &policy));
    }
    if (antialias)
        return ox_unsupported(cx, "antialias (opset 18) has no image.resize counterpart");
    if (strcmp(policy, "stretch") && strcmp(policy, "not_larger") && strcmp(policy, "not_smaller"))
        return ox_fail(cx, "attribute 'keep_aspect_ratio_policy' is '%s'", policy);
    int axis_of[BYOC_MAX_RANK];         /* the t.rank axes, or the listed ones */
    size_t want = axes ? na : (size_t)t.rank;
    if (na > (size_t)t.rank)
        return ox_fail(cx, "attribute 'axes' lists %zu axes for rank %d", na, t.rank);
    for (size_t k = 0; k < want; k++) {
        int64_t a = axes ? norm_axis(axes[k], t.rank) : (int64_t)k;
        if (a < 0 || a >= t.rank)
            return ox_fail(cx, "attribute 'axes' holds %lld for rank %d", (long long)axes[k],
                           t.rank);
        axis_of[k] = (int)a;
    }
    for (int k = 0; k < t.rank; k++) {
        sizes[k] = t.dims[k];
        full_scales[k] = 1.0;
    }
    for (size_t k = 0; s_sizes == IN_KNOWN && k < nz; k++)
        if (zv[k] < 0)
            return ox_fail(cx, "the sizes hold %lld", (long long)zv[k]);
    if (s_sizes == IN_KNOWN && nz == want) {
        bool stretch = !strcmp(policy, "stretch");
        double scale = !strcmp(policy, "not_larger") ? INFINITY : 0;
        for (size_t k = 0; k < want && !stretch; k++) {
            int64_t in = t.dims[axis_of[k]];
            if (in <= 0)
                return ox_unsupported(cx, "keep_aspect_ratio_policy needs the input's sizes");
            double r = (double)zv[k] / (double)in;
            scale = !strcmp(policy, "not_larger") ? fmin(scale, r) : fmax(scale, r);
        }
        for (size_t k = 0; k < want; k++) {
            double out = floor(scale * (double)t.dims[axis_of[k]] + 0.5);
            if (!stretch && !(out >= 0 && out < 9e18))
                return ox_fail(cx, "the sizes give an output size of %g", out);
            sizes[axis_of[k]] = stretch ? zv[k] : (int64_t)out;
        }
    } else if (s_scales == IN_KNOWN && ns == want) {
        for (size_t k = 0; k < want; k++) {
            int a = axis_of[k];
            full_scales[a] = scales[k];
            if (a >= 2 && t.dims[a] < 0)
                return ox_unsupported(cx, "scaling needs the input's spatial sizes");
            double out = floor((double)t.dims[a] * scales[k]);
            if (a >= 2 && !(out >= 0 && out < 9e18))
                return ox_fail(cx, "scale %g gives an output size of %g", scales[k], out);
            if (a >= 2)
                sizes[a] = (int64_t)out;
        }
    } else if (s_scales == IN_DYNAMIC || s_sizes == IN_DYNAMIC) {
        return ox_unsupported(cx, "the output size is computed at run time");
    } else {
        return ox_fail(cx, "neither scales nor sizes give one value per axis");
    }
    /* image.resize keeps the batch and channel axes. */
    for (int k = 0; k < 2; k++)
        if (full_scales[k] != 1.0 || (sizes[k] != t.dims[k] && t.dims[k] >= 0))
            return ox_unsupported(cx, "it resizes the batch or channel axis");
    for (int k = 2; k < t.rank; k++)
        if (sizes[k] < 0)
            return ox_unsupported(cx, "the output's spatial sizes are not known");
    const char *mode, *ctm = "asymmetric", *nearest = "";
    double cubic_a = -0.5, extrapolation = 0.0;
    int64_t exclude = 0;
    TRY(ox_attr_string(cx, "mode", "nearest", &mode));
    if (!v10) {
        TRY(ox_attr_string(cx, "coordinate_transformation_mode", "half_pixel", &ctm));
        TRY(ox_attr_string(cx, "nearest_mode", "round_prefer_floor", &nearest));
        TRY(ox_attr_float(cx, "cubic_coeff_a", -0.75, &cubic_a));
        TRY(ox_attr_float(cx, "extrapolation_value", 0.0, &extrapolation));
        TRY(ox_attr_int(cx, "exclude_outside", 0, &exclude));
        if (!strcmp(ctm, "tf_crop_and_resize") || !strcmp(ctm, "half_pixel_symmetric"))
            return ox_unsupported(cx, "coordinate_transformation_mode %s", ctm);
    }
    const char *method = !strcmp(mode, "nearest") ? "nearest_neighbor"
                         : !strcmp(mode, "linear") ? "linear"
                         : !strcmp(mode, "cubic") ? "cubic" : NULL;
    if (!method)
        return ox_fail(cx, "attribute 'mode' is '%s'; expected nearest, linear or cubic", mode);
    static const char *const ops[3] = {"image.resize1d", "image.resize2d", "image.resize3d"};
    static const char *const layouts[3] = {"NCW", "NCHW", "NCDHW"};
    int node = call1(cx, ops[nd - 1], ox_arg(cx, 0));
    TRY(ox_set_ints(cx, node, "size", sizes + 2, (size_t)nd));
    TRY(ox_set_string(cx, node, "layout", layouts[nd - 1]));
    TRY(ox_set_string(cx, node, "method", method));
    TRY(ox_set_string(cx, node, "coordinate_transformation_mode", ctm));
    TRY(ox_set_string(cx, node, "rounding_method", nearest));
    TRY(ox_set_float(cx, node, "cubic_alpha", cubic_a));
    TRY(ox_set_int(cx, node, "cubic_exclude", exclude));
    TRY(ox_set_float(cx, node, "extrapolation_value", extrapolation));
    return define(cx, 0, node);
}

/* Upsample (scales an attribute before opset 9, an input from then on):
 * as TVM, nn.upsampling for 4-D and nn.upsampling3d for 5-D, whose
 * batch and channel scales must be 1. */
static int conv_upsample(ox_cx *cx)
{
    double scales[BYOC_MAX_RANK];
    size_t n = 0;
    if (cx->opset < 9) {
        const double *f;
        int rc = ox_attr_floats(cx, "scales", &f, &n);
        TRY(rc);
        if (rc == 0)
            return ox_fail(cx, "attribute 'scales' is required");
        for (size_t k = 0; k < n && k < BYOC_MAX_RANK; k++)
            scales[k] = f[k];
    } else {
        int s = input_numbers(cx, 1, scales, BYOC_MAX_RANK, &n);
        if (s != IN_KNOWN)
            return s == IN_ABSENT ? ox_fail(cx, "input 2 (the scales) is missing")
                                  : ox_unsupported(cx, "the scales are computed at run time");
    }
    for (size_t k = 0; k < n && k < BYOC_MAX_RANK; k++)
        if (!(scales[k] > 0 && scales[k] < INFINITY))
            return ox_fail(cx, "scale %g is not a positive number", scales[k]);
    if (n != 4 && n != 5)
        return ox_unsupported(cx, "%zu scales; nn.upsampling takes 4-D and 5-D tensors", n);
    if (scales[0] != 1.0 || scales[1] != 1.0)
        return ox_unsupported(cx, "it scales the batch or channel axis");
    byoc_tensor_type t = ox_type(cx, ox_in(cx, 0));
    for (size_t k = 2; t.rank == (int)n && k < n; k++)
        if (t.dims[k] >= 0 && !(floor((double)t.dims[k] * scales[k]) < 9.2e18))
            return ox_fail(cx, "scale %g takes axis %zu of %lld past 2^63 - 1", scales[k], k,
                           (long long)t.dims[k]);
    const char *mode;
    TRY(ox_attr_string(cx, "mode", "nearest", &mode));
    bool linear = !strcmp(mode, "linear") || !strcmp(mode, "bilinear");
    if (!linear && strcmp(mode, "nearest"))
        return ox_fail(cx, "attribute 'mode' is '%s'; expected nearest or linear", mode);
    int node = call1(cx, n == 4 ? "nn.upsampling" : "nn.upsampling3d", ox_arg(cx, 0));
    TRY(ox_set_float(cx, node, "scale_h", scales[n - 2]));
    TRY(ox_set_float(cx, node, "scale_w", scales[n - 1]));
    if (n == 4) {
        TRY(ox_set_string(cx, node, "method", linear ? "bilinear" : "nearest_neighbor"));
        TRY(ox_set_bool(cx, node, "align_corners", false));
    } else {
        TRY(ox_set_float(cx, node, "scale_d", scales[2]));
        TRY(ox_set_string(cx, node, "method", linear ? "trilinear" : "nearest_neighbor"));
        TRY(ox_set_string(cx, node, "coordinate_transformation_mode", "asymmetric"));
    }
    return define(cx, 0, node);
}

/* TopK: topk with both results; k from the second input (opset 10) or
 * the attribute. */
static int conv_topk(ox_cx *cx)
{
    int64_t k, axis, largest;
    if (cx->opset < 10) {
        if (ox_attr_int(cx, "k", 0, &k) <= 0)
            return ox_fail(cx, "attribute 'k' is required");
    } else {
        const int64_t *v;
        size_t n;
        int s = input_ints(cx, 1, &v, &n);
        if (s != IN_KNOWN || n != 1)
            return s == IN_ABSENT ? ox_fail(cx, "input 2 (k) is missing")
                                  : ox_unsupported(cx, "k is computed at run time");
        k = v[0];
    }
    TRY(ox_attr_int(cx, "axis", -1, &axis));
    TRY(ox_attr_int(cx, "largest", 1, &largest));
    /* As ONNX Runtime: k is at most the axis's size. */
    byoc_tensor_type t = ox_type(cx, ox_in(cx, 0));
    TRY(ox_check_axis(cx, "attribute 'axis'", axis, t.rank));
    int64_t d = t.rank >= 0 ? t.dims[norm_axis(axis, t.rank)] : BYOC_DIM_UNKNOWN;
    if (k < 0)
        return ox_fail(cx, "k is %lld; it must be 0 or more", (long long)k);
    if (d >= 0 && k > d)
        return ox_fail(cx, "k is %lld, more than the %lld elements of axis %lld", (long long)k,
                       (long long)d, (long long)norm_axis(axis, t.rank));
    if (k == 0)
        return ox_unsupported(cx, "k is 0, which Relay's topk reads as the whole axis");
    int node = call1(cx, "topk", ox_arg(cx, 0));
    TRY(ox_set_int(cx, node, "k", k));
    TRY(ox_set_int(cx, node, "axis", axis));
    TRY(ox_set_bool(cx, node, "is_ascend", !largest));
    TRY(ox_set_string(cx, node, "ret_type", "both"));
    TRY(ox_set_dtype(cx, node, "dtype", BYOC_DT_INT64));
    for (int i = 0; i < cx->node->noutputs && i < 2; i++)
        if (cx->node->outputs[i][0])
            TRY(define(cx, i, ox_proj(cx, node, i)));
    return 0;
}

static int conv_range(ox_cx *cx)
{
    /* As ONNX Runtime: a step of 0 is no range. */
    const ox_tensor *d = ox_data(cx, ox_in(cx, 2));
    if (d && d->n == 1 && (d->i ? d->i[0] == 0 : d->f[0] == 0))
        return ox_fail(cx, "the step is 0");
    int args[3] = {ox_arg(cx, 0), ox_arg(cx, 1), ox_arg(cx, 2)};
    int node = ox_call(cx, "arange", args, 3);
    TRY(ox_set_dtype(cx, node, "dtype", dtype_of(cx, 0)));
    /* Range(0, seq, 1) is seq long, which inference cannot see. */
    byoc_tensor_type hint;
    if (ox_symbolic_type(cx, &hint))
        byoc_graph_set_type(cx->g, node, &hint);
    return define(cx, 0, node);
}

static int conv_scatter_elements(ox_cx *cx)
{
    int64_t axis;
    const char *red;
    TRY(ox_attr_int(cx, "axis", 0, &axis));
    TRY(ox_check_axis(cx, "attribute 'axis'", axis, rank_of(cx, 0)));
    TRY(ox_attr_string(cx, "reduction", "none", &red));
    int args[3] = {ox_arg(cx, 0), ox_arg(cx, 1), ox_arg(cx, 2)};
    int node = ox_call(cx, "scatter_elements", args, 3);
    TRY(ox_set_int(cx, node, "axis", axis));
    TRY(ox_set_string(cx, node, "reduction", strcmp(red, "none") ? red : "update"));
    return define(cx, 0, node);
}

/* ---- folding shape arithmetic -------------------------------------------------- */

/* Exporters compute shapes at run time - Shape, Gather, Unsqueeze, Concat
 * feeding a Reshape - where the sizes are in fact known.  TVM folds such
 * chains with fold_constant.  Here a node whose inputs are all integer
 * constants (or, for Shape, whose input has a known rank) is computed on
 * the spot: its output becomes a constant, and none of the chain reaches
 * the graph.  Where the input's shape has free dimensions (batch, seq), the
 * elements they give are carried as those dimensions (ox_tensor.sym): the
 * output is then partial (ox_define_partial), its nodes built only if something needs the value
 * at run time, and what it shapes (a Reshape to [batch, seq, 12, 64]) is
 * typed with the dimensions.  Arithmetic on a dimension keeps it only
 * where the result is the dimension itself (d * 1, d + 0); otherwise the
 * element is unknown.  Float arithmetic is done only on the small tensors
 * whose data the model carries (scales), never on weights, which carry
 * none. */

/* Folded tensors stay this small, like the contents the reader keeps. */
enum { OX_FOLD_MAX = 4096 };

#define SYM(t, k) ((t)->sym && (t)->sym[k])

/* Input i's contents, also when known in part; integers and bools only
 * (floats: known_numbers). */
static const ox_tensor *known_ints(ox_cx *cx, int i)
{
    const ox_tensor *t = ox_sym_data(cx, ox_in(cx, i));
    if (!t || !t->i || t->type.dtype == BYOC_DT_BOOL || t->type.rank < 0
        || t->type.rank > BYOC_MAX_RANK)
        return NULL;
    return t;
}

/* Input i's contents of any element type, also bools. */
static const ox_tensor *known_any(ox_cx *cx, int i)
{
    const ox_tensor *t = ox_sym_data(cx, ox_in(cx, i));
    if (!t || (!t->i && !t->f) || t->type.rank < 0 || t->type.rank > BYOC_MAX_RANK)
        return NULL;
    return t;
}

static ox_tensor *new_tensor(ox_cx *cx, byoc_dtype dt, int rank, const int64_t *dims, size_t n,
                             bool floats)
{
    if (n > OX_FOLD_MAX || rank < 0 || rank > BYOC_MAX_RANK)
        return NULL;
    ox_tensor *t = ox_alloc(cx, sizeof *t);
    t->type.dtype = dt;
    t->type.rank = rank;
    if (rank > 0)
        memcpy(t->type.dims, dims, sizeof(int64_t) * (size_t)rank);
    t->n = n;
    if (floats)
        t->f = ox_alloc(cx, sizeof(double) * (n ? n : 1));
    else
        t->i = ox_alloc(cx, sizeof(int64_t) * (n ? n : 1));
    t->sym = ox_alloc(cx, n ? n : 1);
    return t;
}

static ox_tensor *new_ints(ox_cx *cx, byoc_dtype dt, int rank, const int64_t *dims, size_t n)
{
    return new_tensor(cx, dt, rank, dims, n, false);
}

/* Element k of out is element j of x. */
static void copy_elem(ox_tensor *out, size_t k, const ox_tensor *x, size_t j)
{
    if (out->f)
        ((double *)out->f)[k] = x->f ? x->f[j] : (double)x->i[j];
    else
        ((int64_t *)out->i)[k] = x->i ? x->i[j] : (int64_t)x->f[j];
    ((uint8_t *)out->sym)[k] = SYM(x, j);
}

static void set_unknown(ox_tensor *out, size_t k)
{
    if (out->i)
        ((int64_t *)out->i)[k] = BYOC_DIM_UNKNOWN;
    ((uint8_t *)out->sym)[k] = 1;
}

/* The same elements under new dims (Unsqueeze, Squeeze, Reshape). */
static ox_tensor *redim(ox_cx *cx, const ox_tensor *x, int rank, const int64_t *dims)
{
    size_t n = 1;
    for (int k = 0; k < rank; k++) {
        if (dims[k] < 0 || dims[k] > OX_FOLD_MAX)
            return NULL;
        n *= (size_t)dims[k];
        if (n > OX_FOLD_MAX)
            return NULL;
    }
    if (n != x->n)
        return NULL;
    ox_tensor *t = new_tensor(cx, x->type.dtype, rank, dims, n, x->f != NULL);
    for (size_t k = 0; t && k < n; k++)
        copy_elem(t, k, x, k);
    return t;
}

/* Shape: the input's dims, free ones as themselves. */
static ox_tensor *fold_shape(ox_cx *cx)
{
    byoc_tensor_type t = ox_type(cx, ox_in(cx, 0));
    int64_t start, end, r = t.rank;
    if (r < 0 || ox_attr_int(cx, "start", 0, &start) < 0 || ox_attr_int(cx, "end", r, &end) < 0)
        return NULL;
    start = start < 0 ? start + r : start;
    end = end < 0 ? end + r : end;
    start = start < 0 ? 0 : start > r ? r : start;
    end = end < start ? start : end > r ? r : end;
    int64_t n = end - start;
    ox_tensor *out = new_ints(cx, BYOC_DT_INT64, 1, &n, (size_t)n);
    for (int64_t k = 0; out && k < n; k++) {
        ((int64_t *)out->i)[k] = t.dims[start + k];
        ((uint8_t *)out->sym)[k] = t.dims[start + k] < 0;
    }
    return out;
}

/* Size: the product of the input's dims, when all are known. */
static ox_tensor *fold_size(ox_cx *cx)
{
    byoc_tensor_type t = ox_type(cx, ox_in(cx, 0));
    if (t.rank < 0 || !dims_known(&t, 0, t.rank))
        return NULL;
    int64_t p = 1;
    for (int k = 0; k < t.rank; k++)
        if (__builtin_mul_overflow(p, t.dims[k], &p))
            return NULL;
    ox_tensor *out = new_ints(cx, BYOC_DT_INT64, 0, NULL, 1);
    if (out)
        ((int64_t *)out->i)[0] = p;
    return out;
}

static ox_tensor *fold_unsqueeze_squeeze(ox_cx *cx, const ox_tensor *x, bool un)
{
    const int64_t *axes;
    size_t n;
    int s = read_axes(cx, 13, 1, &axes, &n);
    if (s < 0 || (un && s != IN_KNOWN))
        return NULL;
    int r = x->type.rank, out_rank = un ? r + (int)n : r;
    if (out_rank > BYOC_MAX_RANK || n > BYOC_MAX_RANK)
        return NULL;
    bool marked[BYOC_MAX_RANK] = {false};
    for (size_t k = 0; k < n; k++) {
        int64_t a = axes[k] < 0 ? axes[k] + out_rank : axes[k];
        if (a < 0 || a >= out_rank || marked[a] || (!un && x->type.dims[a] != 1))
            return NULL;
        marked[a] = true;
    }
    int64_t dims[BYOC_MAX_RANK];
    int k = 0;
    for (int a = 0, from = 0; a < out_rank; a++) {
        if (un)
            dims[k++] = marked[a] ? 1 : x->type.dims[from++];
        else if (!(n ? marked[a] : x->type.dims[a] == 1))
            dims[k++] = x->type.dims[a];
    }
    return redim(cx, x, k, dims);
}

static ox_tensor *fold_reshape(ox_cx *cx, const ox_tensor *x)
{
    const ox_tensor *sh = known_ints(cx, 1);
    int64_t allowzero;
    if (!sh || sh->sym || sh->type.rank != 1 || sh->n > BYOC_MAX_RANK
        || ox_attr_int(cx, "allowzero", 0, &allowzero) < 0)
        return NULL;
    int64_t dims[BYOC_MAX_RANK], known = 1;
    int infer = -1;
    for (size_t k = 0; k < sh->n; k++) {
        dims[k] = sh->i[k] == 0 && !allowzero ? ((int)k < x->type.rank ? x->type.dims[k] : -2)
                                              : sh->i[k];
        if (dims[k] == -1 && infer < 0)
            infer = (int)k;
        else if (dims[k] < 0 || dims[k] > OX_FOLD_MAX)
            return NULL;
        else
            known *= dims[k];
        if (known > OX_FOLD_MAX)
            return NULL;
    }
    if (infer >= 0) {
        if (known == 0 || x->n % (size_t)known)
            return NULL;
        dims[infer] = (int64_t)x->n / known;
    }
    return redim(cx, x, (int)sh->n, dims);
}

static ox_tensor *fold_concat(ox_cx *cx)
{
    int64_t axis, total = 0;
    if (ox_attr_int(cx, "axis", 0, &axis) < 0 || (axis != 0 && axis != -1)
        || cx->node->ninputs == 0)
        return NULL;
    bool floats = false;
    for (int i = 0; i < cx->node->ninputs; i++) {
        const ox_tensor *t = known_any(cx, i);
        if (!t || t->type.rank != 1)
            return NULL;
        floats |= t->f != NULL;
        total += (int64_t)t->n;
        if (total > OX_FOLD_MAX)
            return NULL;
    }
    ox_tensor *out = new_tensor(cx, known_any(cx, 0)->type.dtype, 1, &total, (size_t)total,
                                floats);
    size_t at = 0;
    for (int i = 0; out && i < cx->node->ninputs; i++) {
        const ox_tensor *t = known_any(cx, i);
        for (size_t k = 0; k < t->n; k++)
            copy_elem(out, at++, t, k);
    }
    return out;
}

static ox_tensor *fold_gather(ox_cx *cx, const ox_tensor *x)
{
    const ox_tensor *idx = known_ints(cx, 1);
    int64_t axis;
    if (!idx || idx->sym || x->type.rank != 1 || idx->type.rank > 1
        || ox_attr_int(cx, "axis", 0, &axis) < 0 || (axis != 0 && axis != -1))
        return NULL;
    ox_tensor *out =
        new_tensor(cx, x->type.dtype, idx->type.rank, idx->type.dims, idx->n, x->f != NULL);
    for (size_t k = 0; out && k < idx->n; k++) {
        int64_t i = idx->i[k] < 0 ? idx->i[k] + (int64_t)x->n : idx->i[k];
        if (i < 0 || i >= (int64_t)x->n)
            return NULL;
        copy_elem(out, k, x, (size_t)i);
    }
    return out;
}

/* Python's slice clamping of [start, end) by step over len, as ONNX
 * defines it; the count of elements taken. */
static int64_t slice_range(int64_t len, int64_t *start, int64_t end, int64_t step)
{
    int64_t st = *start;
    st = st < 0 ? (st < -len ? -1 : st + len) : st;
    end = end < 0 ? (end < -len ? -1 : end + len) : end;
    if (step > 0) {
        st = st < 0 ? 0 : st > len ? len : st;
        end = end < 0 ? 0 : end > len ? len : end;
    } else {
        st = st < 0 ? -1 : st > len - 1 ? len - 1 : st;
        end = end < -1 ? -1 : end > len - 1 ? len - 1 : end;
    }
    *start = st;
    /* Counted, not stepped, so that a huge step cannot overflow. */
    return step > 0 ? (end > st ? (end - st - 1) / step + 1 : 0)
                    : (st > end ? (st - end - 1) / -step + 1 : 0);
}

/* Slice of a folded tensor of any rank (torch's F.pad reverses a [n, 2]
 * pads matrix with one). */
static ox_tensor *fold_slice(ox_cx *cx, const ox_tensor *x)
{
    int rank = x->type.rank;
    if (rank < 1)
        return NULL;
    const int64_t *starts, *ends, *axes = NULL, *steps = NULL;
    size_t ns, ne, na = 0, nst = 0;
    if (cx->opset < 10) {
        if (ox_attr_ints(cx, "starts", &starts, &ns) <= 0 || ox_attr_ints(cx, "ends", &ends, &ne) <= 0
            || ox_attr_ints(cx, "axes", &axes, &na) < 0)
            return NULL;
    } else {
        const ox_tensor *a = known_ints(cx, 1), *b = known_ints(cx, 2);
        const ox_tensor *c = known_ints(cx, 3), *d = known_ints(cx, 4);
        if (!a || !b || a->sym || b->sym || (ox_in(cx, 3) && (!c || c->sym))
            || (ox_in(cx, 4) && (!d || d->sym)))
            return NULL;
        starts = a->i;
        ns = a->n;
        ends = b->i;
        ne = b->n;
        if (c) {
            axes = c->i;
            na = c->n;
        }
        if (d) {
            steps = d->i;
            nst = d->n;
        }
    }
    if (ns != ne || ns > BYOC_MAX_RANK || (axes && na != ns) || (steps && nst != ns))
        return NULL;
    int64_t begin[BYOC_MAX_RANK], step[BYOC_MAX_RANK], dims[BYOC_MAX_RANK];
    for (int k = 0; k < rank; k++) {
        begin[k] = 0;
        step[k] = 1;
        dims[k] = x->type.dims[k];
    }
    bool seen[BYOC_MAX_RANK] = {false};
    for (size_t k = 0; k < ns; k++) {
        int64_t a = axes ? norm_axis(axes[k], rank) : (int64_t)k;
        int64_t sp = steps ? steps[k] : 1;
        if (a < 0 || a >= rank || seen[a] || sp == 0 || sp == INT64_MIN)
            return NULL;
        seen[a] = true;
        begin[a] = starts[k];
        step[a] = sp;
        dims[a] = slice_range(x->type.dims[a], &begin[a], ends[k], sp);
    }
    size_t n = 1;
    for (int k = 0; k < rank; k++)
        n *= (size_t)dims[k];
    ox_tensor *out = new_tensor(cx, x->type.dtype, rank, dims, n, x->f != NULL);
    for (size_t k = 0; out && k < n; k++) {
        size_t rest = k, idx = 0, stride = 1;
        for (int a = rank - 1; a >= 0; a--) {
            size_t coord = rest % (size_t)dims[a];
            rest /= (size_t)dims[a];
            idx += (size_t)(begin[a] + (int64_t)coord * step[a]) * stride;
            stride *= (size_t)x->type.dims[a];
        }
        copy_elem(out, k, x, idx);
    }
    return out;
}

/* Transpose of a folded tensor. */
static ox_tensor *fold_transpose(ox_cx *cx, const ox_tensor *x)
{
    int rank = x->type.rank;
    const int64_t *perm;
    size_t np;
    int rc = ox_attr_ints(cx, "perm", &perm, &np);
    if (rc < 0 || (rc > 0 && np != (size_t)rank))
        return NULL;
    int64_t p[BYOC_MAX_RANK], dims[BYOC_MAX_RANK];
    bool used[BYOC_MAX_RANK] = {false};
    for (int k = 0; k < rank; k++) {
        p[k] = rc > 0 ? perm[k] : rank - 1 - k;
        if (p[k] < 0 || p[k] >= rank || used[p[k]])
            return NULL;
        used[p[k]] = true;
        dims[k] = x->type.dims[p[k]];
    }
    ox_tensor *out = new_tensor(cx, x->type.dtype, rank, dims, x->n, x->f != NULL);
    size_t strides[BYOC_MAX_RANK];
    for (int k = rank - 1, st = 1; k >= 0; k--) {
        strides[k] = (size_t)st;
        st *= (int)x->type.dims[k];
    }
    for (size_t k = 0; out && k < x->n; k++) {
        size_t rest = k, idx = 0;
        for (int a = rank - 1; a >= 0; a--) {
            size_t coord = rest % (size_t)dims[a];
            rest /= (size_t)dims[a];
            idx += coord * strides[p[a]];
        }
        copy_elem(out, k, x, idx);
    }
    return out;
}

/* The broadcast shape of two folded tensors, in dims; false when they do
 * not broadcast. */
static bool fold_broadcast(const ox_tensor *a, const ox_tensor *b, int *rank, int64_t *dims)
{
    int r = a->type.rank > b->type.rank ? a->type.rank : b->type.rank;
    for (int k = 0; k < r; k++) {
        int ka = k - (r - a->type.rank), kb = k - (r - b->type.rank);
        int64_t da = ka >= 0 ? a->type.dims[ka] : 1, db = kb >= 0 ? b->type.dims[kb] : 1;
        if (da != db && da != 1 && db != 1)
            return false;
        dims[k] = da == 1 ? db : da;
    }
    *rank = r;
    return true;
}

/* Element k of the broadcast result, as an index into t. */
static size_t bcast_index(const ox_tensor *t, int rank, const int64_t *dims, size_t k)
{
    size_t idx = 0, stride = 1;
    for (int a = rank - 1; a >= 0; a--) {
        size_t coord = k % (size_t)dims[a];
        k /= (size_t)dims[a];
        int ta = a - (rank - t->type.rank);
        if (ta >= 0) {
            size_t d = (size_t)t->type.dims[ta];
            idx += (d == 1 ? 0 : coord) * stride;
            stride *= d;
        }
    }
    return idx;
}

enum { F_ADD, F_SUB, F_MUL, F_DIV, F_MOD, F_MIN, F_MAX, F_EQ, F_LT, F_GT, F_LE, F_GE, F_AND,
       F_OR };

static int fold_op_code(const char *op)
{
    static const char *const names[] = {"Add", "Sub", "Mul", "Div", "Mod", "Min", "Max",
                                        "Equal", "Less", "Greater", "LessOrEqual",
                                        "GreaterOrEqual", "And", "Or"};
    for (int k = 0; k < (int)(sizeof names / sizeof names[0]); k++)
        if (!strcmp(op, names[k]))
            return k;
    return -1;
}

/* One element of an integer binary op; false when it has no value here
 * (overflow, division by zero), which stops the fold. */
static bool int_op(int op, int64_t x, int64_t y, bool fmod, int64_t *r)
{
    switch (op) {
    case F_ADD: return !__builtin_add_overflow(x, y, r);
    case F_SUB: return !__builtin_sub_overflow(x, y, r);
    case F_MUL: return !__builtin_mul_overflow(x, y, r);
    case F_DIV:
        if (y == 0 || (x == INT64_MIN && y == -1))
            return false;
        *r = x / y;
        return true;
    case F_MOD:
        if (y == 0 || (x == INT64_MIN && y == -1))
            return false;
        *r = x % y;
        if (!fmod && *r != 0 && ((*r < 0) != (y < 0)))
            *r += y;
        return true;
    case F_MIN: *r = x < y ? x : y; return true;
    case F_MAX: *r = x > y ? x : y; return true;
    case F_EQ: *r = x == y; return true;
    case F_LT: *r = x < y; return true;
    case F_GT: *r = x > y; return true;
    case F_LE: *r = x <= y; return true;
    case F_GE: *r = x >= y; return true;
    case F_AND: *r = x && y; return true;
    case F_OR: *r = x || y; return true;
    }
    return false;
}

static double float_op(int op, double x, double y, bool fmod_)
{
    switch (op) {
    case F_ADD: return x + y;
    case F_SUB: return x - y;
    case F_MUL: return x * y;
    case F_DIV: return x / y;
    case F_MOD: return fmod_ ? fmod(x, y) : x - floor(x / y) * y;
    case F_MIN: return x < y ? x : y;
    case F_MAX: return x > y ? x : y;
    case F_EQ: return x == y;
    case F_LT: return x < y;
    case F_GT: return x > y;
    case F_LE: return x <= y;
    case F_GE: return x >= y;
    case F_AND: return x != 0 && y != 0;
    case F_OR: return x != 0 || y != 0;
    }
    return 0;
}

/* A dimension meeting a number or a dimension: the dimension itself where
 * the op leaves it (d * 1, d + 0, d / 1, min(d, d)), a truth value where
 * it is sure (d == d); else unknown (returns false). */
static bool sym_op(int op, bool sx, int64_t x, bool sy, int64_t y, int64_t *r, bool *rsym)
{
    *rsym = true;
    if (sx && sy && x == y && x != BYOC_DIM_UNKNOWN) {
        if (op == F_MIN || op == F_MAX) {
            *r = x;
            return true;
        }
        if (op == F_EQ || op == F_LE || op == F_GE || op == F_LT || op == F_GT) {
            *rsym = false;
            *r = op == F_EQ || op == F_LE || op == F_GE;
            return true;
        }
        if (op == F_SUB) {
            *rsym = false;
            *r = 0;
            return true;
        }
        return false;
    }
    if (sx && !sy && ((op == F_MUL || op == F_DIV) ? y == 1 : (op == F_ADD || op == F_SUB) && y == 0)) {
        *r = x;
        return true;
    }
    if (!sx && sy && ((op == F_MUL && x == 1) || (op == F_ADD && x == 0))) {
        *r = y;
        return true;
    }
    if ((op == F_MUL) && ((!sx && x == 0) || (!sy && y == 0))) {
        *rsym = false;
        *r = 0;
        return true;
    }
    /* A size is never negative: d >= 0 and d < 0 are sure.  Not so an
     * element made unknown by arithmetic (d - 5, -d). */
    if (sx && !sy && x != BYOC_DIM_UNKNOWN && y == 0 && (op == F_GE || op == F_LT)) {
        *rsym = false;
        *r = op == F_GE;
        return true;
    }
    return false;
}

/* v converted to the integer type dt, wrapped to its width as Cast wraps
 * (300 as uint8 is 44). */
static int64_t wrap_int(byoc_dtype dt, int64_t v)
{
    int bits = byoc_dtype_bits(dt);
    if (bits >= 64)
        return v;
    uint64_t mask = (UINT64_C(1) << bits) - 1, u = (uint64_t)v & mask;
    if (byoc_dtype_class(dt) == 'u' || !(u >> (bits - 1)))
        return (int64_t)u;
    return -(int64_t)(mask - u) - 1;
}

static ox_tensor *fold_binary(ox_cx *cx, int op)
{
    const ox_tensor *a = known_any(cx, 0), *b = known_any(cx, 1);
    int64_t fm = 0;
    if (!a || !b || (op == F_MOD && ox_attr_int(cx, "fmod", 0, &fm) < 0))
        return NULL;
    int rank;
    int64_t dims[BYOC_MAX_RANK];
    if (!fold_broadcast(a, b, &rank, dims))
        return NULL;
    size_t n = 1;
    for (int k = 0; k < rank; k++) {
        n *= (size_t)dims[k];
        if (n > OX_FOLD_MAX)
            return NULL;
    }
    bool logic = op >= F_EQ, floats = (a->f || b->f) && !logic;
    if ((a->f != NULL) != (b->f != NULL) && !logic)
        return NULL;        /* mixed types: the model casts first */
    byoc_dtype dt = logic ? BYOC_DT_BOOL : a->type.dtype;
    ox_tensor *out = new_tensor(cx, dt, rank, dims, n, floats);
    for (size_t k = 0; out && k < n; k++) {
        size_t ia = bcast_index(a, rank, dims, k), ib = bcast_index(b, rank, dims, k);
        bool sa = SYM(a, ia), sb = SYM(b, ib);
        if (a->f || b->f) {
            if (sa || sb) {
                set_unknown(out, k);
                continue;
            }
            double x = a->f ? a->f[ia] : (double)a->i[ia];
            double y = b->f ? b->f[ib] : (double)b->i[ib];
            double r = float_op(op, x, y, fm != 0);
            if (floats)
                ((double *)out->f)[k] = r;
            else
                ((int64_t *)out->i)[k] = r != 0;
            continue;
        }
        int64_t x = a->i[ia], y = b->i[ib], r;
        if (sa || sb) {
            bool rs;
            if (sym_op(op, sa, x, sb, y, &r, &rs)) {
                ((int64_t *)out->i)[k] = r;
                ((uint8_t *)out->sym)[k] = rs;
            } else {
                set_unknown(out, k);
            }
            continue;
        }
        if (!int_op(op, x, y, fm != 0, &r) || (!logic && wrap_int(dt, r) != r))
            return NULL;        /* overflows int64, or the inputs' type */
        ((int64_t *)out->i)[k] = r;
    }
    return out;
}

/* Neg, Abs, Not, Floor, Ceil, Round, Sqrt on folded elements. */
static ox_tensor *fold_unary(ox_cx *cx, const char *op)
{
    const ox_tensor *x = known_any(cx, 0);
    if (!x)
        return NULL;
    bool flt = x->f != NULL;
    if (!flt && (!strcmp(op, "Sqrt") || !strcmp(op, "Floor") || !strcmp(op, "Ceil")
                 || !strcmp(op, "Round")))
        return redim(cx, x, x->type.rank, x->type.dims); /* integers are whole */
    if (!flt && !strcmp(op, "Sqrt"))
        return NULL;
    ox_tensor *out = new_tensor(cx, x->type.dtype, x->type.rank, x->type.dims, x->n, flt);
    for (size_t k = 0; out && k < x->n; k++) {
        if (SYM(x, k)) {
            set_unknown(out, k);
            continue;
        }
        if (flt) {
            double v = x->f[k];
            v = !strcmp(op, "Neg") ? -v : !strcmp(op, "Abs") ? fabs(v)
              : !strcmp(op, "Not") ? (double)(v == 0) : !strcmp(op, "Floor") ? floor(v)
              : !strcmp(op, "Ceil") ? ceil(v) : !strcmp(op, "Round") ? nearbyint(v) : sqrt(v);
            ((double *)out->f)[k] = v;
        } else {
            int64_t v = x->i[k];
            if ((!strcmp(op, "Neg") || !strcmp(op, "Abs")) && v == INT64_MIN)
                return NULL;
            v = !strcmp(op, "Neg") ? -v : !strcmp(op, "Abs") ? (v < 0 ? -v : v) : (v == 0);
            ((int64_t *)out->i)[k] = v;
        }
    }
    return out;
}

/* Cast between integer, bool and float elements.  A dimension stays itself
 * as an integer of 32 bits or more; as a bool (d != 0) or a narrower
 * integer it is unknown. */
static ox_tensor *fold_cast(ox_cx *cx)
{
    const ox_tensor *x = known_any(cx, 0);
    int64_t to;
    int dt = x && ox_attr_int(cx, "to", 0, &to) > 0 ? ox_dtype(to) : -1;
    if (dt < 0)
        return NULL;
    char cls = byoc_dtype_class((byoc_dtype)dt);
    bool flt = cls == 'f';
    if (!flt && cls != 'i' && cls != 'u' && dt != BYOC_DT_BOOL)
        return NULL;
    ox_tensor *out = new_tensor(cx, (byoc_dtype)dt, x->type.rank, x->type.dims, x->n, flt);
    for (size_t k = 0; out && k < x->n; k++) {
        if (SYM(x, k)) {
            if (flt || dt == BYOC_DT_BOOL || byoc_dtype_bits((byoc_dtype)dt) < 32)
                set_unknown(out, k);
            else
                copy_elem(out, k, x, k);
            continue;
        }
        if (flt)
            ((double *)out->f)[k] = x->f ? x->f[k] : (double)x->i[k];
        else if (dt == BYOC_DT_BOOL)
            ((int64_t *)out->i)[k] = x->f ? x->f[k] != 0 : x->i[k] != 0;
        else if (x->f) {
            double v = x->f[k];
            if (!(v > -9.2e18 && v < 9.2e18))
                return NULL;
            ((int64_t *)out->i)[k] = wrap_int((byoc_dtype)dt, (int64_t)v);
        } else {
            ((int64_t *)out->i)[k] = wrap_int((byoc_dtype)dt, x->i[k]);
        }
    }
    return out;
}

/* Where(cond, x, y) elementwise, all folded. */
static ox_tensor *fold_where(ox_cx *cx)
{
    const ox_tensor *c = known_any(cx, 0), *x = known_any(cx, 1), *y = known_any(cx, 2);
    if (!c || !x || !y || (x->f != NULL) != (y->f != NULL))
        return NULL;
    int r1, rank;
    int64_t d1[BYOC_MAX_RANK], dims[BYOC_MAX_RANK];
    if (!fold_broadcast(x, y, &r1, d1))
        return NULL;
    ox_tensor xy = {.type = {x->type.dtype, r1, {0}}};
    memcpy(xy.type.dims, d1, sizeof d1);
    if (!fold_broadcast(c, &xy, &rank, dims))
        return NULL;
    size_t n = 1;
    for (int k = 0; k < rank; k++)
        if ((n *= (size_t)dims[k]) > OX_FOLD_MAX)
            return NULL;
    ox_tensor *out = new_tensor(cx, x->type.dtype, rank, dims, n, x->f != NULL);
    for (size_t k = 0; out && k < n; k++) {
        size_t ic = bcast_index(c, rank, dims, k);
        if (SYM(c, ic)) {
            set_unknown(out, k);
            continue;
        }
        bool take_x = c->f ? c->f[ic] != 0 : c->i[ic] != 0;
        const ox_tensor *t = take_x ? x : y;
        copy_elem(out, k, t, bcast_index(t, rank, dims, k));
    }
    return out;
}

/* ConstantOfShape of a folded shape; Range and Expand of folded inputs. */
static ox_tensor *fold_constant_of_shape(ox_cx *cx)
{
    const ox_tensor *sh = known_ints(cx, 0);
    if (!sh || sh->sym || sh->type.rank != 1 || sh->n > BYOC_MAX_RANK)
        return NULL;
    const ox_attr *a = ox_attr_find(cx->node, "value");
    byoc_dtype dt = BYOC_DT_FLOAT32;
    double fv = 0;
    int64_t iv = 0;
    if (a) {
        if (a->type != OX_AT_TENSOR || !a->t || a->t->n < 1)
            return NULL;
        dt = a->ttype.dtype;
        fv = a->t->f ? a->t->f[0] : (double)a->t->i[0];
        iv = a->t->i ? a->t->i[0] : 0;
    }
    bool flt = byoc_dtype_class(dt) == 'f';
    ox_tensor *out = new_tensor(cx, dt, (int)sh->n, sh->i, 0, flt);
    if (!out)
        return NULL;
    size_t n = 1;
    for (size_t k = 0; k < sh->n; k++)
        if (sh->i[k] < 0 || __builtin_mul_overflow(n, (size_t)sh->i[k], &n) || n > OX_FOLD_MAX)
            return NULL;
    out = new_tensor(cx, dt, (int)sh->n, sh->i, n, flt);
    for (size_t k = 0; out && k < n; k++) {
        if (flt)
            ((double *)out->f)[k] = fv;
        else
            ((int64_t *)out->i)[k] = iv;
    }
    return out;
}

static ox_tensor *fold_range(ox_cx *cx)
{
    const ox_tensor *s = known_ints(cx, 0), *l = known_ints(cx, 1), *d = known_ints(cx, 2);
    if (!s || !l || !d || s->n != 1 || l->n != 1 || d->n != 1 || s->sym || l->sym || d->sym
        || d->i[0] == 0)
        return NULL;
    int64_t start = s->i[0], limit = l->i[0], delta = d->i[0], span;
    if (__builtin_sub_overflow(limit, start, &span) || (span == INT64_MIN && delta == -1))
        return NULL;
    int64_t n = span / delta + (span % delta != 0);
    n = n < 0 ? 0 : n;
    if (n > OX_FOLD_MAX)
        return NULL;
    ox_tensor *out = new_ints(cx, s->type.dtype, 1, &n, (size_t)n);
    for (int64_t k = 0; out && k < n; k++)
        ((int64_t *)out->i)[k] = start + k * delta;
    return out;
}

static ox_tensor *fold_expand(ox_cx *cx, const ox_tensor *x)
{
    const ox_tensor *sh = known_ints(cx, 1);
    if (!sh || sh->sym || sh->type.rank != 1 || sh->n > BYOC_MAX_RANK)
        return NULL;
    ox_tensor want = {.type = {x->type.dtype, (int)sh->n, {0}}};
    memcpy(want.type.dims, sh->i, sizeof(int64_t) * sh->n);
    int rank;
    int64_t dims[BYOC_MAX_RANK];
    for (size_t k = 0; k < sh->n; k++)
        if (sh->i[k] < 0)
            return NULL;
    if (!fold_broadcast(x, &want, &rank, dims))
        return NULL;
    size_t n = 1;
    for (int k = 0; k < rank; k++)
        if (__builtin_mul_overflow(n, (size_t)dims[k], &n) || n > OX_FOLD_MAX)
            return NULL;
    ox_tensor *out = new_tensor(cx, x->type.dtype, rank, dims, n, x->f != NULL);
    for (size_t k = 0; out && k < n; k++)
        copy_elem(out, k, x, bcast_index(x, rank, dims, k));
    return out;
}

/* ReduceProd, ReduceSum, ReduceMax, ReduceMin of a 1-D integer tensor
 * over its one axis (the size of a flattened shape). */
static ox_tensor *fold_reduce(ox_cx *cx, const ox_tensor *x)
{
    const char *op = cx->node->op_type;
    int64_t keep;
    const int64_t *axes;
    size_t na;
    if (x->type.rank != 1 || x->n == 0 || ox_attr_int(cx, "keepdims", 1, &keep) < 0
        || read_axes(cx, !strcmp(op, "ReduceSum") ? 13 : 18, 1, &axes, &na) < 0
        || (na > 1 || (na == 1 && axes[0] != 0 && axes[0] != -1)))
        return NULL;
    int64_t acc = x->i[0];
    for (size_t k = 0; k < x->n; k++) {
        if (SYM(x, k))
            return NULL;
        if (k == 0)
            continue;
        int64_t v = x->i[k];
        if (!strcmp(op, "ReduceProd") ? __builtin_mul_overflow(acc, v, &acc)
            : !strcmp(op, "ReduceSum") ? __builtin_add_overflow(acc, v, &acc)
                                       : false)
            return NULL;
        if (!strcmp(op, "ReduceMax"))
            acc = v > acc ? v : acc;
        else if (!strcmp(op, "ReduceMin"))
            acc = v < acc ? v : acc;
    }
    int64_t one = 1;
    ox_tensor *out = new_ints(cx, x->type.dtype, keep ? 1 : 0, &one, 1);
    if (out)
        ((int64_t *)out->i)[0] = acc;
    return out;
}

/* Do the inputs a fold reads come with contents (known in part)? */
static bool any_sym(const ox_tensor *t)
{
    for (size_t k = 0; t->sym && k < t->n; k++)
        if (t->sym[k])
            return true;
    return false;
}

int ox_fold(ox_cx *cx)
{
    const char *op = cx->node->op_type;
    if (cx->node->noutputs != 1 || !cx->node->outputs[0][0]
        || (cx->node->domain[0] && strcmp(cx->node->domain, "ai.onnx") != 0))
        return 0;
    ox_tensor *out = NULL;
    int bin = fold_op_code(op);
    if (!strcmp(op, "Shape")) {
        out = fold_shape(cx);
    } else if (!strcmp(op, "Size")) {
        out = fold_size(cx);
    } else if (!strcmp(op, "ConstantOfShape")) {
        out = fold_constant_of_shape(cx);
    } else if (!strcmp(op, "Range")) {
        out = fold_range(cx);
    } else if (bin >= 0 && cx->node->ninputs == 2) {
        out = fold_binary(cx, bin);
    } else if (!strcmp(op, "Where")) {
        out = fold_where(cx);
    } else if (!strcmp(op, "Cast")) {
        out = fold_cast(cx);
    } else if (!strcmp(op, "Neg") || !strcmp(op, "Abs") || !strcmp(op, "Not")
               || !strcmp(op, "Floor") || !strcmp(op, "Ceil") || !strcmp(op, "Round")
               || !strcmp(op, "Sqrt")) {
        out = fold_unary(cx, op);
    } else if (!strcmp(op, "Concat")) {
        out = fold_concat(cx);
    } else {
        const ox_tensor *x = known_any(cx, 0);
        if (!x)
            return 0;
        if (!strcmp(op, "Unsqueeze") || !strcmp(op, "Squeeze"))
            out = fold_unsqueeze_squeeze(cx, x, op[0] == 'U');
        else if (!strcmp(op, "Reshape") && cx->opset >= 5)
            out = fold_reshape(cx, x);
        else if (!strcmp(op, "Gather"))
            out = fold_gather(cx, x);
        else if (!strcmp(op, "Slice"))
            out = fold_slice(cx, x);
        else if (!strcmp(op, "Expand"))
            out = fold_expand(cx, x);
        else if (!strcmp(op, "Transpose"))
            out = fold_transpose(cx, x);
        else if (!strcmp(op, "Identity"))
            out = redim(cx, x, x->type.rank, x->type.dims);
        else if (x->i && (!strcmp(op, "ReduceProd") || !strcmp(op, "ReduceSum")
                          || !strcmp(op, "ReduceMax") || !strcmp(op, "ReduceMin")))
            out = fold_reduce(cx, x);
    }
    if (!out)
        return 0;
    if (!any_sym(out)) {
        out->sym = NULL;
        ox_define_const(cx, 0, &out->type, out);
    } else {
        ox_define_partial(cx, 0, out);
    }
    return 1;
}

/* ---- types from contents known in part ------------------------------------------ */

/* Element k of a folded shape as a dimension. */
static int64_t elem_dim(const ox_tensor *t, size_t k)
{
    return SYM(t, k) ? t->i[k] : t->i[k] >= 0 ? t->i[k] : BYOC_DIM_UNKNOWN;
}

static bool sym_reshape(ox_cx *cx, byoc_tensor_type *out)
{
    const ox_tensor *sh = known_ints(cx, 1);
    byoc_tensor_type in = ox_type(cx, ox_in(cx, 0));
    int64_t allowzero;
    if (!sh || sh->type.rank != 1 || sh->n > BYOC_MAX_RANK
        || ox_attr_int(cx, "allowzero", 0, &allowzero) < 0)
        return false;
    out->dtype = in.dtype;
    out->rank = (int)sh->n;
    for (size_t k = 0; k < sh->n; k++) {
        int64_t d = elem_dim(sh, k);
        if (!SYM(sh, k) && sh->i[k] == 0 && !allowzero)
            d = (int)k < in.rank ? in.dims[k] : BYOC_DIM_UNKNOWN;
        out->dims[k] = d;
    }
    return true;
}

static bool sym_expand(ox_cx *cx, byoc_tensor_type *out)
{
    const ox_tensor *sh = known_ints(cx, 1);
    byoc_tensor_type in = ox_type(cx, ox_in(cx, 0));
    if (!sh || sh->type.rank != 1 || sh->n > BYOC_MAX_RANK || in.rank < 0)
        return false;
    int n = (int)sh->n, rank = in.rank > n ? in.rank : n;
    out->dtype = in.dtype;
    out->rank = rank;
    for (int k = 0; k < rank; k++) {
        int ks = k - (rank - n), ki = k - (rank - in.rank);
        int64_t want = ks >= 0 ? elem_dim(sh, (size_t)ks) : 1;
        int64_t have = ki >= 0 ? in.dims[ki] : 1;
        out->dims[k] = want == 1 ? have : (have >= 0 && have != 1) ? have : want;
    }
    return true;
}

static bool sym_constant_of_shape(ox_cx *cx, byoc_tensor_type *out)
{
    const ox_tensor *sh = known_ints(cx, 0);
    if (!sh || sh->type.rank != 1 || sh->n > BYOC_MAX_RANK)
        return false;
    const ox_attr *a = ox_attr_find(cx->node, "value");
    out->dtype = a && a->type == OX_AT_TENSOR ? a->ttype.dtype : BYOC_DT_FLOAT32;
    out->rank = (int)sh->n;
    for (size_t k = 0; k < sh->n; k++)
        out->dims[k] = elem_dim(sh, k);
    return true;
}

/* Slice: an axis cut to [0, d) for a dimension d is d long. */
static bool sym_slice(ox_cx *cx, byoc_tensor_type *out)
{
    byoc_tensor_type in = ox_type(cx, ox_in(cx, 0));
    const ox_tensor *st = known_ints(cx, 1), *en = known_ints(cx, 2);
    const ox_tensor *ax = ox_in(cx, 3) ? known_ints(cx, 3) : NULL;
    const ox_tensor *sp = ox_in(cx, 4) ? known_ints(cx, 4) : NULL;
    if (cx->opset < 10 || in.rank < 0 || !st || !en || st->n != en->n
        || (ox_in(cx, 3) && (!ax || ax->sym || ax->n != st->n))
        || (ox_in(cx, 4) && (!sp || sp->sym || sp->n != st->n)))
        return false;
    *out = in;
    for (size_t k = 0; k < st->n; k++) {
        int64_t a = ax ? norm_axis(ax->i[k], in.rank) : (int64_t)k;
        if (a < 0 || a >= in.rank)
            return false;
        int64_t step = sp ? sp->i[k] : 1, d = in.dims[a];
        bool s0 = !SYM(st, k) && st->i[k] == 0;
        if (step == 1 && s0 && SYM(en, k))
            out->dims[a] = en->i[k];
        else if (step == 1 && s0 && !SYM(en, k) && en->i[k] >= INT64_MAX / 2 && d != BYOC_DIM_UNKNOWN)
            out->dims[a] = d;           /* [0, end of axis): the whole axis */
        else if (SYM(st, k) || SYM(en, k) || d < 0)
            out->dims[a] = BYOC_DIM_UNKNOWN;
        else if (step == 0 || step == INT64_MIN)
            return false;
        else {
            /* All known: the converter gave up on another axis. */
            int64_t begin = st->i[k];
            out->dims[a] = slice_range(d, &begin, en->i[k], step);
        }
    }
    return true;
}

/* Range(0, d, 1) for a dimension d has d elements. */
static bool sym_range(ox_cx *cx, byoc_tensor_type *out)
{
    const ox_tensor *s = known_ints(cx, 0), *l = known_ints(cx, 1), *d = known_ints(cx, 2);
    if (!s || !l || !d || s->n != 1 || l->n != 1 || d->n != 1)
        return false;
    out->dtype = s->type.dtype;
    out->rank = 1;
    bool simple = !SYM(s, 0) && s->i[0] == 0 && !SYM(d, 0) && d->i[0] == 1;
    out->dims[0] = simple && SYM(l, 0) ? l->i[0] : BYOC_DIM_UNKNOWN;
    return true;
}

/* MatMul: the broadcast batch, then M and N; com.microsoft's FusedMatMul
 * and TransposeMatMul with their transA and transB (not their batch
 * transposes). */
static bool sym_matmul(ox_cx *cx, byoc_tensor_type *out)
{
    byoc_tensor_type a = ox_type(cx, ox_in(cx, 0)), b = ox_type(cx, ox_in(cx, 1));
    if (a.rank < 2 || b.rank < 2)
        return false;
    if (cx->node->domain[0]) {
        int64_t ta, tb, tba, tbb;
        if (ox_attr_int(cx, "transA", 0, &ta) < 0 || ox_attr_int(cx, "transB", 0, &tb) < 0
            || ox_attr_int(cx, "transBatchA", 0, &tba) < 0
            || ox_attr_int(cx, "transBatchB", 0, &tbb) < 0 || tba || tbb)
            return false;
        int64_t t;
        if (ta) {
            t = a.dims[a.rank - 1];
            a.dims[a.rank - 1] = a.dims[a.rank - 2];
            a.dims[a.rank - 2] = t;
        }
        if (tb) {
            t = b.dims[b.rank - 1];
            b.dims[b.rank - 1] = b.dims[b.rank - 2];
            b.dims[b.rank - 2] = t;
        }
    }
    int r = a.rank > b.rank ? a.rank : b.rank, nb = r - 2;
    int64_t ab[BYOC_MAX_RANK], bb[BYOC_MAX_RANK];
    batch_dims(&a, nb, ab);
    batch_dims(&b, nb, bb);
    out->dtype = a.dtype;
    out->rank = r;
    for (int k = 0; k < nb; k++)
        out->dims[k] = ab[k] == bb[k] ? ab[k] : ab[k] == 1 ? bb[k] : bb[k] == 1 ? ab[k]
                     : ab[k] >= 0 ? ab[k] : bb[k] >= 0 ? bb[k] : BYOC_DIM_UNKNOWN;
    out->dims[nb] = a.dims[a.rank - 2];
    out->dims[nb + 1] = b.dims[b.rank - 1];
    return true;
}

/* Resize by scales of an input with free spatial sizes: the axes a scale
 * of 1 keeps stay as they are (batch, channels), the others are known
 * where the input's are. */
static bool sym_resize(ox_cx *cx, byoc_tensor_type *out)
{
    byoc_tensor_type in = ox_type(cx, ox_in(cx, 0));
    const ox_tensor *sc = ox_data(cx, ox_in(cx, cx->opset < 11 ? 1 : 2));
    if (in.rank < 0)
        return false;
    *out = in;
    for (int k = 0; k < in.rank; k++) {
        double f = sc && (size_t)in.rank == sc->n ? (sc->f ? sc->f[k] : (double)sc->i[k]) : -1;
        if (f == 1)
            continue;
        out->dims[k] = f > 0 && in.dims[k] >= 0 && (double)in.dims[k] * f < 9e15
                           ? (int64_t)floor((double)in.dims[k] * f)
                           : BYOC_DIM_UNKNOWN;
    }
    return true;
}

/* RNN, GRU and LSTM that stay opaque (a sequence length not known, so
 * not unrolled): Y is [seq, directions, batch, hidden] ([batch, seq,
 * directions, hidden] with layout 1), Y_h and Y_c [directions, batch,
 * hidden] ([batch, directions, hidden]). */
bool ox_symbolic_output_type(ox_cx *cx, int i, byoc_tensor_type *out)
{
    const char *op = cx->node->op_type;
    memset(out, 0, sizeof *out);
    if ((cx->node->domain[0] && strcmp(cx->node->domain, "ai.onnx") != 0)
        || (strcmp(op, "LSTM") && strcmp(op, "GRU") && strcmp(op, "RNN")) || i > 2
        || (i == 2 && strcmp(op, "LSTM")))
        return false;
    byoc_tensor_type x = ox_type(cx, ox_in(cx, 0));
    int64_t hidden, layout;
    const char *dir;
    if (x.rank != 3 || ox_attr_int(cx, "hidden_size", -1, &hidden) < 0 || hidden < 0
        || ox_attr_int(cx, "layout", 0, &layout) < 0
        || ox_attr_string(cx, "direction", "forward", &dir) < 0)
        return false;
    int64_t nd = strcmp(dir, "bidirectional") ? 1 : 2;
    int64_t seq = x.dims[layout ? 1 : 0], batch = x.dims[layout ? 0 : 1];
    out->dtype = x.dtype;
    if (i == 0) {
        int64_t y0[4] = {seq, nd, batch, hidden}, y1[4] = {batch, seq, nd, hidden};
        out->rank = 4;
        memcpy(out->dims, layout ? y1 : y0, sizeof y0);
    } else {
        int64_t h0[3] = {nd, batch, hidden}, h1[3] = {batch, nd, hidden};
        out->rank = 3;
        memcpy(out->dims, layout ? h1 : h0, sizeof h0);
    }
    return true;
}

bool ox_symbolic_type(ox_cx *cx, byoc_tensor_type *out)
{
    const char *op = cx->node->op_type;
    memset(out, 0, sizeof *out);
    if (!strcmp(cx->node->domain, "com.microsoft")
        && (!strcmp(op, "FusedMatMul") || !strcmp(op, "TransposeMatMul")))
        return sym_matmul(cx, out);
    if (cx->node->domain[0] && strcmp(cx->node->domain, "ai.onnx") != 0)
        return false;
    if (!strcmp(op, "Reshape") && cx->opset >= 5)
        return sym_reshape(cx, out);
    if (!strcmp(op, "Expand"))
        return sym_expand(cx, out);
    if (!strcmp(op, "ConstantOfShape"))
        return sym_constant_of_shape(cx, out);
    if (!strcmp(op, "Slice"))
        return sym_slice(cx, out);
    if (!strcmp(op, "Range"))
        return sym_range(cx, out);
    if (!strcmp(op, "MatMul"))
        return sym_matmul(cx, out);
    if (!strcmp(op, "Resize"))
        return sym_resize(cx, out);
    if (!strcmp(op, "LSTM") || !strcmp(op, "GRU") || !strcmp(op, "RNN"))
        return ox_symbolic_output_type(cx, 0, out);
    return false;
}

/* ---- for the quantized converters (onnx_qdq.c) ------------------------------------ */

int ox_spatial_ints(ox_cx *cx, const char *name, int nd, int per, int64_t def, int64_t *out)
{
    return spatial_ints(cx, name, nd, per, def, out);
}

int ox_read_pads(ox_cx *cx, int nd, const int64_t *k, const int64_t *s, const int64_t *d,
                 int64_t *pads)
{
    return read_pads(cx, nd, k, s, d, pads);
}

/* ---- the table --------------------------------------------------------------------- */

/* By ONNX name, capitals first as strcmp sorts; ops of other domains after those of the
 * default one, named "DOMAIN.Op" (com.microsoft.FusedConv).  `relay` is the op for the converters that
 * take it from here; the comment says what each ONNX op becomes. */
static const ox_op_map op_table[] = {
    {"Abs", conv_unary, "abs"},                         /* abs */
    {"Acos", conv_unary, "acos"},                       /* acos */
    {"Acosh", conv_unary, "acosh"},                     /* acosh */
    {"Add", conv_binary, "add"},                        /* add */
    {"And", conv_binary, "logical_and"},                /* logical_and */
    {"ArgMax", conv_arg_reduce, "argmax"},              /* argmax, cast to int64 */
    {"ArgMin", conv_arg_reduce, "argmin"},              /* argmin, cast to int64 */
    {"Asin", conv_unary, "asin"},                       /* asin */
    {"Asinh", conv_unary, "asinh"},                     /* asinh */
    {"Atan", conv_unary, "atan"},                       /* atan */
    {"Atanh", conv_unary, "atanh"},                     /* atanh */
    {"Attention", ox_conv_attention, NULL},             /* nn.batch_matmul, nn.softmax (+ reshape,
                                                           transpose, masks) */
    {"AveragePool", conv_pool, NULL},                   /* nn.avg_pool{1,2,3}d */
    {"BatchNormalization", conv_batch_norm, NULL},      /* nn.batch_norm + .0 */
    {"BitShift", ox_conv_bit_shift, NULL},              /* left_shift, right_shift */
    {"BitwiseAnd", ox_conv_bitwise, "bitwise_and"},     /* bitwise_and */
    {"BitwiseNot", ox_conv_bitwise, "bitwise_not"},     /* bitwise_not */
    {"BitwiseOr", ox_conv_bitwise, "bitwise_or"},       /* bitwise_or */
    {"BitwiseXor", ox_conv_bitwise, "bitwise_xor"},     /* bitwise_xor */
    {"BlackmanWindow", ox_conv_window, NULL},           /* arange, cos, arithmetic */
    {"Cast", conv_cast, NULL},                          /* cast */
    {"CastLike", conv_binary, "cast_like"},             /* cast_like */
    {"Ceil", conv_unary, "ceil"},                       /* ceil */
    {"Celu", ox_conv_celu, NULL},                       /* maximum, minimum, exp, arithmetic */
    {"CenterCropPad", ox_conv_center_crop_pad, NULL},   /* strided_slice, nn.pad */
    {"Clip", conv_clip, NULL},                          /* clip; maximum/minimum for bounds
                                                           computed at run time */
    {"Concat", conv_concat, NULL},                      /* concatenate of a tuple */
    {"Constant", conv_constant, NULL},                  /* a constant */
    {"ConstantOfShape", conv_constant_of_shape, NULL},  /* full */
    {"Conv", conv_conv, NULL},                          /* nn.conv{1,2,3}d (+ nn.bias_add) */
    {"ConvInteger", ox_conv_qlinear_conv, NULL},        /* qnn.conv2d with unit scales */
    {"ConvTranspose", conv_conv, NULL},                 /* nn.conv{1,2,3}d_transpose
                                                           (+ nn.bias_add) */
    {"Cos", conv_unary, "cos"},                         /* cos */
    {"Cosh", conv_unary, "cosh"},                       /* cosh */
    {"CumSum", ox_conv_cumsum, NULL},                   /* cumsum (+ reverse) */
    {"DepthToSpace", conv_depth_to_space, NULL},        /* nn.depth_to_space */
    {"DequantizeLinear", ox_conv_dequantize, NULL},     /* qnn.dequantize, or nothing when
                                                           an integer op takes its input
                                                           (onnx_qdq.c) */
    {"Div", conv_binary, "divide"},                     /* divide */
    {"Dropout", conv_dropout, NULL},                    /* nothing (its input); nn.dropout
                                                           when the mask is read */
    {"DynamicQuantizeLinear", ox_conv_dynamic_quantize, NULL}, /* max, min, ..., qnn.quantize */
    {"Einsum", ox_conv_einsum, NULL},                   /* transpose, reshape, sum,
                                                           nn.batch_matmul */
    {"Elu", ox_conv_elu, NULL},                         /* nn.relu, exp, arithmetic */
    {"Equal", conv_binary, "equal"},                    /* equal */
    {"Erf", conv_unary, "erf"},                         /* erf */
    {"Exp", conv_unary, "exp"},                         /* exp */
    {"Expand", conv_expand, NULL},                      /* broadcast_to */
    {"EyeLike", ox_conv_eye_like, NULL},                /* zeros, arange, stack, full,
                                                           scatter_nd */
    {"Flatten", conv_flatten, NULL},                    /* nn.batch_flatten, or reshape */
    {"Floor", conv_unary, "floor"},                     /* floor */
    {"GRU", ox_conv_rnn, NULL},                         /* unrolled: nn.dense, sigmoid, tanh,
                                                           arithmetic per step */
    {"Gather", conv_gather, NULL},                      /* take */
    {"GatherElements", conv_gather_elements, NULL},     /* gather */
    {"GatherND", conv_gather_nd, NULL},                 /* gather_nd */
    {"Gelu", ox_conv_gelu, NULL},                       /* multiply, erf, multiply, add,
                                                           multiply; tanh form for tanh */
    {"Gemm", conv_gemm, NULL},                          /* nn.dense (+ transpose, multiply,
                                                           add) */
    {"GlobalAveragePool", conv_global_pool, NULL},      /* nn.global_avg_pool2d */
    {"GlobalLpPool", ox_conv_lp_pool, NULL},            /* power, nn.avg_pool{1,2,3}d, abs,
                                                           multiply, power */
    {"GlobalMaxPool", conv_global_pool, NULL},          /* nn.global_max_pool2d */
    {"Greater", conv_binary, "greater"},                /* greater */
    {"GreaterOrEqual", conv_binary, "greater_equal"},   /* greater_equal */
    {"GroupNormalization", ox_conv_group_norm, NULL},   /* nn.group_norm (+ repeat) */
    {"HammingWindow", ox_conv_window, NULL},            /* arange, cos, arithmetic */
    {"HannWindow", ox_conv_window, NULL},               /* arange, sin, multiply */
    {"HardSigmoid", conv_hard_sigmoid, NULL},           /* multiply, add, clip */
    {"HardSwish", conv_hard_swish, NULL},               /* multiply, add, clip, multiply */
    {"Hardmax", ox_conv_hardmax, NULL},                 /* argmax, one_hot (+ reshapes) */
    {"Identity", conv_identity, NULL},                  /* nothing: its input */
    {"InstanceNormalization", conv_instance_norm, NULL}, /* nn.instance_norm */
    {"IsInf", ox_conv_is_inf, NULL},                    /* isinf (+ logical_and) */
    {"IsNaN", conv_unary, "isnan"},                     /* isnan */
    {"LRN", conv_lrn, NULL},                            /* nn.lrn */
    {"LSTM", ox_conv_rnn, NULL},                        /* unrolled: concatenate, nn.dense,
                                                           sigmoid, tanh, arithmetic per step */
    {"LayerNormalization", conv_layer_norm, NULL},      /* nn.layer_norm */
    {"LeakyRelu", conv_leaky_relu, NULL},               /* nn.leaky_relu */
    {"Less", conv_binary, "less"},                      /* less */
    {"LessOrEqual", conv_binary, "less_equal"},         /* less_equal */
    {"Log", conv_unary, "log"},                         /* log */
    {"LogSoftmax", conv_softmax, "nn.log_softmax"},     /* nn.log_softmax */
    {"LpNormalization", ox_conv_lp_norm, NULL},         /* nn.l2_normalize; divide by sum(abs) */
    {"LpPool", ox_conv_lp_pool, NULL},                  /* power, nn.avg_pool{1,2,3}d, abs,
                                                           multiply, power */
    {"MatMul", conv_matmul, NULL},                      /* nn.dense or nn.batch_matmul
                                                           (+ reshape, transpose) */
    {"MatMulInteger", ox_conv_qlinear_matmul, NULL},    /* qnn.dense with unit scales */
    {"Max", conv_variadic, "maximum"},                  /* maximum, chained */
    {"MaxPool", conv_pool, NULL},                       /* nn.max_pool{1,2,3}d */
    {"MaxUnpool", ox_conv_max_unpool, NULL},            /* zeros, scatter_elements, reshapes */
    {"Mean", conv_mean, NULL},                          /* expand_dims, concatenate, mean */
    {"MeanVarianceNormalization", ox_conv_mvn, NULL},   /* mean, power, sqrt, arithmetic */
    {"Min", conv_variadic, "minimum"},                  /* minimum, chained */
    {"Mish", ox_conv_mish, NULL},                       /* x * tanh(log(1 + exp(x))) */
    {"Mod", conv_mod, NULL},                            /* floor_mod, or mod for fmod=1 */
    {"Mul", conv_binary, "multiply"},                   /* multiply */
    {"Neg", conv_unary, "negative"},                    /* negative */
    {"Not", conv_unary, "logical_not"},                 /* logical_not */
    {"OneHot", ox_conv_one_hot, NULL},                  /* one_hot (+ where for negative
                                                           indices) */
    {"Or", conv_binary, "logical_or"},                  /* logical_or */
    {"PRelu", conv_prelu, NULL},                        /* nn.prelu (per-channel slopes) */
    {"Pad", conv_pad, NULL},                            /* nn.pad */
    {"Pow", conv_pow, NULL},                            /* power (+ cast) */
    {"QLinearConv", ox_conv_qlinear_conv, NULL},        /* qnn.conv2d (+ nn.bias_add),
                                                           qnn.requantize */
    {"QLinearMatMul", ox_conv_qlinear_matmul, NULL},    /* qnn.dense, qnn.requantize */
    {"QuantizeLinear", ox_conv_quantize, NULL},         /* qnn.quantize; qnn.requantize or
                                                           nothing after an integer op */
    {"RMSNormalization", ox_conv_rms_norm, NULL},       /* multiply, mean, add, rsqrt,
                                                           multiply, multiply */
    {"RNN", ox_conv_rnn, NULL},                         /* unrolled: nn.dense, add, tanh per
                                                           step */
    {"Range", conv_range, NULL},                        /* arange */
    {"Reciprocal", conv_reciprocal, NULL},              /* divide(1, x) */
    {"ReduceL1", ox_conv_reduce_more, NULL},            /* sum(abs) */
    {"ReduceL2", ox_conv_reduce_more, NULL},            /* sqrt(sum(x * x)) */
    {"ReduceLogSum", ox_conv_reduce_more, NULL},        /* log(sum) */
    {"ReduceLogSumExp", ox_conv_reduce_more, NULL},     /* max, exp, sum, log, add */
    {"ReduceMax", conv_reduce, "max"},                  /* max */
    {"ReduceMean", conv_reduce, "mean"},                /* mean */
    {"ReduceMin", conv_reduce, "min"},                  /* min */
    {"ReduceProd", conv_reduce, "prod"},                /* prod */
    {"ReduceSum", conv_reduce, "sum"},                  /* sum */
    {"ReduceSumSquare", ox_conv_reduce_more, NULL},     /* sum(x * x) */
    {"Relu", conv_unary, "nn.relu"},                    /* nn.relu */
    {"Reshape", conv_reshape, NULL},                    /* reshape */
    {"Resize", conv_resize, NULL},                      /* image.resize{1,2,3}d */
    {"ReverseSequence", ox_conv_reverse_sequence, NULL}, /* reverse_sequence */
    {"RotaryEmbedding", ox_conv_rotary_embedding, NULL}, /* take, strided_slice or split,
                                                           arithmetic, concatenate */
    {"Round", conv_unary, "round"},                     /* round */
    {"Scatter", ox_conv_scatter, NULL},                 /* scatter_elements */
    {"ScatterElements", conv_scatter_elements, NULL},   /* scatter_elements */
    {"ScatterND", ox_conv_scatter_nd, NULL},            /* scatter_nd (+ transpose) */
    {"Selu", ox_conv_elu, NULL},                        /* nn.relu, exp, arithmetic */
    {"Shape", conv_shape, NULL},                        /* shape_of (+ strided_slice) */
    {"Shrink", ox_conv_shrink, NULL},                   /* where, less, greater, arithmetic */
    {"Sigmoid", conv_unary, "sigmoid"},                 /* sigmoid */
    {"Sign", conv_unary, "sign"},                       /* sign */
    {"SimplifiedLayerNormalization", ox_conv_rms_norm, NULL}, /* ONNX Runtime's (in this
                                                           domain): as RMSNormalization */
    {"Sin", conv_unary, "sin"},                         /* sin */
    {"Sinh", conv_unary, "sinh"},                       /* sinh */
    {"Size", conv_size, NULL},                          /* ndarray_size */
    {"Slice", conv_slice, NULL},                        /* strided_slice */
    {"Softmax", conv_softmax, "nn.softmax"},            /* nn.softmax (+ reshapes before
                                                           opset 13) */
    {"Softplus", ox_conv_softplus, NULL},               /* log(exp(x) + 1) */
    {"Softsign", ox_conv_softsign, NULL},               /* x / (1 + abs(x)) */
    {"SpaceToDepth", conv_depth_to_space, NULL},        /* nn.space_to_depth */
    {"Split", conv_split, NULL},                        /* split + a projection per output */
    {"Sqrt", conv_unary, "sqrt"},                       /* sqrt */
    {"Squeeze", conv_squeeze, NULL},                    /* squeeze */
    {"Sub", conv_binary, "subtract"},                   /* subtract */
    {"Sum", conv_variadic, "add"},                      /* add, chained */
    {"Tan", conv_unary, "tan"},                         /* tan */
    {"Tanh", conv_unary, "tanh"},                       /* tanh */
    {"ThresholdedRelu", ox_conv_thresholded_relu, NULL}, /* greater, cast, multiply */
    {"Tile", conv_tile, NULL},                          /* tile */
    {"TopK", conv_topk, NULL},                          /* topk + .0 and .1 */
    {"Transpose", conv_transpose, NULL},                /* transpose, unless cancelled */
    {"Trilu", ox_conv_trilu, NULL},                     /* trilu */
    {"Unsqueeze", conv_unsqueeze, NULL},                /* expand_dims per axis */
    {"Upsample", conv_upsample, NULL},                  /* nn.upsampling, nn.upsampling3d */
    {"Where", conv_where, NULL},                        /* where */
    {"Xor", conv_binary, "logical_xor"},                /* logical_xor */
    /* ONNX Runtime's contrib ops (onnx_contrib.c). */
    {"com.microsoft.Attention", ox_conv_ms_attention, NULL}, /* split, nn.dense, add, reshape,
                                                           transpose, nn.batch_matmul, divide,
                                                           nn.softmax, nn.batch_matmul */
    {"com.microsoft.BiasAdd", ox_conv_bias_add, NULL},  /* add, add */
    {"com.microsoft.BiasGelu", ox_conv_bias_gelu, NULL}, /* add, then Gelu's ops */
    {"com.microsoft.BiasSoftmax", ox_conv_bias_softmax, NULL}, /* add, nn.softmax */
    {"com.microsoft.EmbedLayerNormalization", ox_conv_embed_layer_norm, NULL}, /* take, add,
                                                           nn.layer_norm (+ sum) */
    {"com.microsoft.FastGelu", ox_conv_fast_gelu, NULL}, /* (add,) Gelu's tanh form */
    {"com.microsoft.FusedConv", ox_conv_fused_conv, NULL}, /* Conv's ops (+ add), activation */
    {"com.microsoft.FusedGemm", ox_conv_fused_gemm, NULL}, /* Gemm's ops, activation */
    {"com.microsoft.FusedMatMul", ox_conv_fused_matmul, NULL}, /* transpose, nn.dense or
                                                           nn.batch_matmul, multiply */
    {"com.microsoft.Gelu", ox_conv_gelu, NULL},         /* as Gelu */
    {"com.microsoft.MultiHeadAttention", ox_conv_multi_head_attention, NULL}, /* as Attention
                                                           after its projections */
    {"com.microsoft.NhwcConv", ox_conv_nhwc_conv, NULL}, /* nn.conv2d NHWC (+ nn.bias_add) */
    {"com.microsoft.NhwcFusedConv", ox_conv_nhwc_fused_conv, NULL}, /* NhwcConv's ops
                                                           (+ add), activation */
    {"com.microsoft.QuickGelu", ox_conv_quick_gelu, NULL}, /* multiply, sigmoid, multiply */
    {"com.microsoft.Range", ox_conv_range, NULL},       /* arange */
    {"com.microsoft.RotaryEmbedding", ox_conv_ms_rotary_embedding, NULL}, /* take,
                                                           strided_slice, multiply, subtract,
                                                           add, concatenate */
    {"com.microsoft.SimplifiedLayerNormalization", ox_conv_rms_norm, NULL}, /* as
                                                           RMSNormalization */
    {"com.microsoft.SkipLayerNormalization", ox_conv_skip_layer_norm, NULL}, /* add (+ add),
                                                           nn.layer_norm */
    {"com.microsoft.SkipSimplifiedLayerNormalization", ox_conv_skip_layer_norm, NULL}, /* add
                                                           (+ add), RMSNormalization's ops */
    {"com.microsoft.TransposeMatMul", ox_conv_fused_matmul, NULL}, /* as FusedMatMul */
    {"com.microsoft.Trilu", ox_conv_trilu, NULL},       /* trilu */
    {"com.microsoft.nchwc.AveragePool", ox_conv_nchwc_pool, NULL}, /* nn.avg_pool2d NCHW8c */
    {"com.microsoft.nchwc.Conv", ox_conv_nchwc_conv, NULL}, /* nn.conv2d to NCHW8c, add,
                                                           activation */
    {"com.microsoft.nchwc.GlobalAveragePool", ox_conv_nchwc_global_pool, NULL}, /*
                                                           nn.global_avg_pool2d NCHW8c */
    {"com.microsoft.nchwc.GlobalMaxPool", ox_conv_nchwc_global_pool, NULL}, /*
                                                           nn.global_max_pool2d NCHW8c */
    {"com.microsoft.nchwc.MaxPool", ox_conv_nchwc_pool, NULL}, /* nn.max_pool2d NCHW8c */
    {"com.microsoft.nchwc.ReorderInput", ox_conv_nchwc_reorder_input, NULL}, /* (nn.pad,)
                                                           layout_transform to NCHW8c */
    {"com.microsoft.nchwc.ReorderOutput", ox_conv_nchwc_reorder_output, NULL}, /*
                                                           layout_transform (+ strided_slice) */
    {"com.microsoft.nchwc.Upsample", ox_conv_nchwc_upsample, NULL}, /* nn.upsampling, or
                                                           image.resize2d for linear; NCHW8c */
    /* Quantized ops of ONNX Runtime (docs/ContribOperators.md), onnx_qdq.c. */
    {"com.microsoft.DynamicQuantizeMatMul", ox_conv_dynamic_quantize_matmul, NULL},
                                                        /* max, min, ..., qnn.quantize,
                                                           qnn.dense, qnn.dequantize */
    {"com.microsoft.MatMulIntegerToFloat", ox_conv_matmul_integer_to_float, NULL},
                                                        /* qnn.dense, qnn.dequantize (+ add) */
    {"com.microsoft.QGemm", ox_conv_qgemm, NULL},       /* qnn.dense (+ nn.bias_add),
                                                           qnn.requantize or qnn.dequantize */
    {"com.microsoft.QLinearAdd", ox_conv_qlinear_binary, "qnn.add"},         /* qnn.add */
    {"com.microsoft.QLinearAveragePool", ox_conv_qlinear_pool, NULL},
                                                        /* cast, nn.avg_pool2d, cast or
                                                           qnn.requantize */
    {"com.microsoft.QLinearConcat", ox_conv_qlinear_concat, NULL},  /* qnn.concatenate */
    {"com.microsoft.QLinearGlobalAveragePool", ox_conv_qlinear_pool, NULL},
                                                        /* cast, nn.global_avg_pool2d, cast
                                                           or qnn.requantize */
    {"com.microsoft.QLinearLeakyRelu", ox_conv_qlinear_unary, "qnn.leaky_relu"}, /* qnn.leaky_relu */
    {"com.microsoft.QLinearMul", ox_conv_qlinear_binary, "qnn.mul"},         /* qnn.mul */
    {"com.microsoft.QLinearSigmoid", ox_conv_qlinear_unary, "qnn.sigmoid"},  /* qnn.sigmoid */
    {"com.microsoft.QLinearSoftmax", ox_conv_qlinear_softmax, NULL},
                                                        /* qnn.dequantize, nn.softmax,
                                                           qnn.quantize */
};

const ox_op_map *ox_op_lookup(const char *domain, const char *op_type)
{
    bool default_domain = !domain[0] || strcmp(domain, "ai.onnx") == 0;
    size_t dl = default_domain ? 0 : strlen(domain);
    /* A few hundred names, looked up once per node: a scan is enough, and
     * cannot go wrong when an entry is added out of order. */
    for (size_t i = 0; i < sizeof op_table / sizeof op_table[0]; i++) {
        const char *name = op_table[i].onnx;
        if (dl) {
            if (strncmp(name, domain, dl) != 0 || name[dl] != '.')
                continue;
            name += dl + 1;
        } else if (strchr(name, '.')) {
            continue;
        }
        if (strcmp(name, op_type) == 0)
            return &op_table[i];
    }
    return NULL;
}
