/* ONNX Runtime's contrib ops: each fused op becomes the Relay ops it
 * stands for.
 *
 * ONNX Runtime's optimizer (graph optimization level extended or all)
 * hands an execution provider graphs in which Conv and Relu have become
 * com.microsoft.FusedConv, MatMul and its Transposes FusedMatMul, Add and
 * LayerNormalization SkipLayerNormalization, the erf spelling of GELU Gelu,
 * and, at level all, whole convolutional trunks com.microsoft.nchwc ops in
 * MLAS's blocked channel layout.  Backends' patterns name Relay ops, so
 * each contrib op is written back as the sequence of Relay ops its
 * definition (ONNX Runtime's docs/ContribOperators.md and schemas) gives:
 * FusedConv is nn.conv2d, nn.bias_add and the activation, Gelu the erf
 * formula, and an NCHWc convolution nn.conv2d in Relay's NCHW8c layout.
 * Where TVM's ONNX frontend (python/tvm/relay/frontend/onnx.py) maps the
 * op too (Gelu, BiasGelu, SkipLayerNormalization, EmbedLayerNormalization,
 * Attention), this file follows it, and each departure says so.
 *
 * A fused op whose unfused form already has a converter (Conv, Gemm,
 * MatMul) runs that converter through the op table and builds on its
 * result (ox_take_output), so that padding rules and the like live in one
 * place.  Everything that could make a node unsupported is checked before
 * anything is built, as elsewhere in the reader. */
#include <math.h>
#include <string.h>

#include "die.h"
#include "onnx_contrib.h"

#define TRY(x)                                                                                  \
    do {                                                                                        \
        if ((x) < 0)                                                                            \
            return -1;                                                                          \
    } while (0)

/* ---- small helpers ---------------------------------------------------------- */

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

static byoc_tensor_type in_type(ox_cx *cx, int i)
{
    return ox_type(cx, ox_in(cx, i));
}

/* Element type of input i; float32 when not known, for the constants a
 * converter makes to go with it. */
static byoc_dtype in_dtype(ox_cx *cx, int i)
{
    byoc_dtype dt = in_type(cx, i).dtype;
    return dt == BYOC_DT_VOID ? BYOC_DT_FLOAT32 : dt;
}

static int reshape(ox_cx *cx, int x, const int64_t *shape, int n)
{
    int node = call1(cx, "reshape", x);
    TRY(ox_set_ints(cx, node, "newshape", shape, (size_t)n));
    return node;
}

static int transpose(ox_cx *cx, int x, const int64_t *perm, int n)
{
    int node = call1(cx, "transpose", x);
    TRY(ox_set_ints(cx, node, "axes", perm, (size_t)n));
    return node;
}

static int binary_scalar(ox_cx *cx, const char *op, int x, byoc_dtype dt, double v)
{
    return call2(cx, op, x, ox_scalar(cx, dt, v));
}

/* a * b, false when it overflows: sizes come from the model. */
static bool mul_ok(int64_t a, int64_t b, int64_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

static bool known(const byoc_tensor_type *t, int from, int to)
{
    if (t->rank < 0 || from < 0 || to > t->rank)
        return false;
    for (int k = from; k < to; k++)
        if (t->dims[k] < 0)
            return false;
    return true;
}

/* Run the default domain's converter for op_type on this node, whose
 * inputs and attributes it shares (Conv for FusedConv). */
static int base_convert(ox_cx *cx, const char *op_type)
{
    const ox_op_map *self = cx->map, *base = ox_op_lookup("", op_type);
    if (!base)
        bx_die("a fused op's base converter is missing from the op table");
    cx->map = base;
    int rc = base->convert(cx);
    cx->map = self;
    return rc;
}

/* The base converter's result for output 0, taken back; rc as the base
 * converter returned it, and 0 with *y set. */
static int base_result(ox_cx *cx, const char *op_type, int *y)
{
    int rc = base_convert(cx, op_type);
    if (rc != 0)
        return rc;
    *y = ox_take_output(cx, 0);
    return *y < 0 ? ox_fail(cx, "output 1 is missing") : 0;
}

/* ---- fused activations ------------------------------------------------------ */

/* The activation MLAS applies after a fused convolution or Gemm. */
enum { ACT_NONE, ACT_RELU, ACT_SIGMOID, ACT_TANH, ACT_LEAKY_RELU, ACT_CLIP, ACT_HARD_SIGMOID };

typedef struct act {
    int kind;
    double a, b;                /* LeakyRelu alpha; Clip min, max; HardSigmoid alpha, beta */
} act;

/* FusedConv and the NCHWc Conv give the activation's parameters as
 * activation_params (LeakyRelu [alpha], Clip [min, max], HardSigmoid
 * [alpha, beta]); FusedGemm as activation_alpha and activation_beta.
 * Returns 0, -1 (malformed) or 1 (an activation not mapped). */
static int read_activation(ox_cx *cx, bool gemm, act *out)
{
    static const struct {
        const char *name;
        int kind, nparams;
        double a, b;
    } acts[] = {
        {"Relu", ACT_RELU, 0, 0, 0},
        {"Sigmoid", ACT_SIGMOID, 0, 0, 0},
        {"Tanh", ACT_TANH, 0, 0, 0},
        {"LeakyRelu", ACT_LEAKY_RELU, 1, 0.01, 0},
        {"Clip", ACT_CLIP, 2, -INFINITY, INFINITY},
        {"HardSigmoid", ACT_HARD_SIGMOID, 2, 0.2, 0.5},
    };
    const char *name;
    TRY(ox_attr_string(cx, "activation", "", &name));
    out->kind = ACT_NONE;
    out->a = out->b = 0;
    if (!name[0])
        return 0;
    for (size_t k = 0; k < sizeof acts / sizeof acts[0]; k++) {
        if (strcmp(name, acts[k].name) != 0)
            continue;
        out->kind = acts[k].kind;
        out->a = acts[k].a;
        out->b = acts[k].b;
        if (gemm) {
            if (out->kind == ACT_CLIP)
                return ox_unsupported(cx, "FusedGemm with a Clip activation");
            TRY(ox_attr_float(cx, "activation_alpha", acts[k].a, &out->a));
            TRY(ox_attr_float(cx, "activation_beta", acts[k].b, &out->b));
            return 0;
        }
        const double *p;
        size_t n;
        int rc = ox_attr_floats(cx, "activation_params", &p, &n);
        TRY(rc);
        if (rc > 0 && acts[k].nparams > 0 && (int)n != acts[k].nparams)
            return ox_fail(cx, "attribute 'activation_params' has %zu values; %s takes %d", n,
                           name, acts[k].nparams);
        if (rc > 0 && n >= 1 && acts[k].nparams >= 1)
            out->a = p[0];
        if (rc > 0 && n >= 2 && acts[k].nparams >= 2)
            out->b = p[1];
        return 0;
    }
    return ox_unsupported(cx, "activation '%s' is not mapped", name);
}

/* The activation as the default domain's converters write it: nn.relu,
 * sigmoid, tanh, nn.leaky_relu, clip, and multiply, add, clip for
 * HardSigmoid. */
static int apply_activation(ox_cx *cx, int x, const act *a, byoc_dtype dt)
{
    int node;
    switch (a->kind) {
    case ACT_RELU:
        return call1(cx, "nn.relu", x);
    case ACT_SIGMOID:
        return call1(cx, "sigmoid", x);
    case ACT_TANH:
        return call1(cx, "tanh", x);
    case ACT_LEAKY_RELU:
        node = call1(cx, "nn.leaky_relu", x);
        TRY(ox_set_float(cx, node, "alpha", a->a));
        return node;
    case ACT_CLIP:
        node = call1(cx, "clip", x);
        TRY(ox_set_float(cx, node, "a_min", a->a));
        TRY(ox_set_float(cx, node, "a_max", a->b));
        return node;
    case ACT_HARD_SIGMOID:
        node = binary_scalar(cx, "add", binary_scalar(cx, "multiply", x, dt, a->a), dt, a->b);
        node = call1(cx, "clip", node);
        TRY(ox_set_float(cx, node, "a_min", 0));
        TRY(ox_set_float(cx, node, "a_max", 1));
        return node;
    default:
        return x;
    }
}

/* ---- fused convolution and matrix products ---------------------------------- */

/* FusedConv: Conv's ops (nn.conv{1,2,3}d + nn.bias_add), add of the
 * optional summand Z, then the activation: MLAS adds Z before it. */
int ox_conv_fused_conv(ox_cx *cx)
{
    act a;
    int y, rc = read_activation(cx, false, &a);
    if (rc != 0)
        return rc;
    if ((rc = base_result(cx, "Conv", &y)) != 0)
        return rc;
    if (ox_in(cx, 3))
        y = call2(cx, "add", y, ox_arg(cx, 3));
    return define(cx, 0, apply_activation(cx, y, &a, in_dtype(cx, 0)));
}

/* FusedGemm: Gemm's ops (nn.dense and its transposes, multiplies and add),
 * then the activation. */
int ox_conv_fused_gemm(ox_cx *cx)
{
    act a;
    int y, rc = read_activation(cx, true, &a);
    if (rc != 0)
        return rc;
    if ((rc = base_result(cx, "Gemm", &y)) != 0)
        return rc;
    return define(cx, 0, apply_activation(cx, y, &a, in_dtype(cx, 0)));
}

/* The permutation FusedMatMul applies to an operand of rank r: with
 * transBatch the leading axis moves behind the batch axes, [1, .., r-2,
 * 0, r-1]; with trans the last two then swap (ONNX Runtime's
 * FusedMatMulShapeInference).  `nt` swaps them once more, for the
 * [.., N, K] form nn.dense and nn.batch_matmul's transpose_b take. */
static void fused_perm(int r, bool trans, bool batch, bool nt, int64_t *perm)
{
    for (int k = 0; k < r; k++)
        perm[k] = k;
    if (batch) {
        for (int k = 0; k < r - 2; k++)
            perm[k] = k + 1;
        perm[r - 2] = 0;
    }
    if (trans != nt) {
        int64_t t = perm[r - 2];
        perm[r - 2] = perm[r - 1];
        perm[r - 1] = t;
    }
}

static bool is_identity(const int64_t *perm, int r)
{
    for (int k = 0; k < r; k++)
        if (perm[k] != k)
            return false;
    return true;
}

/* v permuted, composed with a transpose of the model it is pending on. */
static int permuted(ox_cx *cx, ox_value *v, const int64_t *perm, int r)
{
    return is_identity(perm, r) ? ox_node_of(cx, v) : ox_transpose(cx, v, perm, r);
}

/* FusedMatMul (and its older name TransposeMatMul): alpha * A' * B',
 * A' and B' the operands permuted as fused_perm says.  Without any
 * transposition it is MatMul's ops; otherwise the operands are
 * transposed (cancelling the model's own transposes where they meet) and
 * multiplied as MatMul's converter does: nn.dense for matrices or a 2-D
 * B, else nn.batch_matmul in the NT form, flattened to 3-D around it.
 * alpha is a multiply after the product. */
int ox_conv_fused_matmul(ox_cx *cx)
{
    double alpha;
    int64_t ta, tb, tba, tbb;
    TRY(ox_attr_float(cx, "alpha", 1.0, &alpha));
    TRY(ox_attr_int(cx, "transA", 0, &ta));
    TRY(ox_attr_int(cx, "transB", 0, &tb));
    TRY(ox_attr_int(cx, "transBatchA", 0, &tba));
    TRY(ox_attr_int(cx, "transBatchB", 0, &tbb));
    ox_value *A = ox_in(cx, 0), *B = ox_in(cx, 1);
    if (!A || !B)
        return ox_fail(cx, "inputs A and B are required");
    byoc_tensor_type at = ox_type(cx, A), bt = ox_type(cx, B);
    byoc_dtype dt = in_dtype(cx, 0);
    if (!ta && !tb && !tba && !tbb) {
        int y, rc = base_result(cx, "MatMul", &y);
        if (rc != 0)
            return rc;
        return define(cx, 0, alpha == 1.0 ? y : binary_scalar(cx, "multiply", y, dt, alpha));
    }
    int ra = at.rank, rb = bt.rank;
    if (ra < 0 || rb < 0)
        return ox_unsupported(cx, "the ranks of its inputs are not known");
    if (ra < 2 || rb < 2)
        return ox_unsupported(cx, "a vector operand with transposed operands");
    int64_t pa[BYOC_MAX_RANK], pb[BYOC_MAX_RANK];
    fused_perm(ra, ta, tba, false, pa);
    fused_perm(rb, tb, tbb, true, pb);
    /* a: [batch.., M, K]; b: [batch.., N, K]. */
    int64_t a[BYOC_MAX_RANK], b[BYOC_MAX_RANK];
    for (int k = 0; k < ra; k++)
        a[k] = at.dims[pa[k]];
    for (int k = 0; k < rb; k++)
        b[k] = bt.dims[pb[k]];
    int64_t M = a[ra - 2], K = a[ra - 1], N = b[rb - 2];
    if (K >= 0 && b[rb - 1] >= 0 && K != b[rb - 1])
        return ox_fail(cx, "reduced axes %lld and %lld differ", (long long)K,
                       (long long)b[rb - 1]);
    int r = ra > rb ? ra : rb, nb = r - 2;
    int64_t ab[BYOC_MAX_RANK], bb[BYOC_MAX_RANK], ob[BYOC_MAX_RANK];
    bool bcast = ra != rb && rb != 2, batch_known = true;
    for (int k = 0; k < nb; k++) {
        ab[k] = k < r - ra ? 1 : a[k - (r - ra)];
        bb[k] = k < r - rb ? 1 : b[k - (r - rb)];
        int64_t x = ab[k], y = bb[k];
        if (x != y && x != 1 && y != 1 && x >= 0 && y >= 0)
            return ox_fail(cx, "batch axes %lld and %lld do not broadcast", (long long)x,
                           (long long)y);
        ob[k] = x == y ? x : x == 1 ? y : y == 1 ? x : BYOC_DIM_UNKNOWN;
        bcast = bcast || (rb != 2 && x != y);
        batch_known = batch_known && ob[k] >= 0;
    }
    int64_t out[BYOC_MAX_RANK];
    int unknown = 0;
    for (int k = 0; k < nb; k++)
        out[k] = ob[k];
    out[nb] = M;
    out[nb + 1] = N;
    for (int k = 0; k < r; k++) {
        unknown += out[k] < 0;
        out[k] = out[k] < 0 ? -1 : out[k];
    }
    bool sizes_known = M >= 0 && K >= 0 && N >= 0;
    if (bcast && !(batch_known && sizes_known))
        return ox_unsupported(cx, "broadcasting needs known shapes");
    if (r > 2 && (r != 3 || rb == 2) && (!sizes_known || unknown > 1))
        return ox_unsupported(cx, "flattening needs the matrix sizes");
    int an = permuted(cx, A, pa, ra), bn = permuted(cx, B, pb, rb), y;
    if (rb == 2) {
        if (ra != 2) {
            int64_t flat[2] = {-1, K};
            an = reshape(cx, an, flat, 2);
        }
        y = call2(cx, "nn.dense", an, bn);
        if (N >= 0)
            TRY(ox_set_int(cx, y, "units", N));
        TRY(ox_set_dtype(cx, y, "out_dtype", dt));
        if (ra != 2)
            y = reshape(cx, y, out, r);
    } else {
        int64_t full[BYOC_MAX_RANK];
        bool diff_a = ra != r, diff_b = rb != r;
        for (int k = 0; k < nb; k++) {
            full[k] = ob[k];
            diff_a = diff_a || ab[k] != ob[k];
            diff_b = diff_b || bb[k] != ob[k];
        }
        if (bcast && diff_a) {
            full[nb] = M;
            full[nb + 1] = K;
            an = call1(cx, "broadcast_to", an);
            TRY(ox_set_ints(cx, an, "shape", full, (size_t)r));
        }
        if (bcast && diff_b) {
            full[nb] = N;
            full[nb + 1] = K;
            bn = call1(cx, "broadcast_to", bn);
            TRY(ox_set_ints(cx, bn, "shape", full, (size_t)r));
        }
        if (r != 3) {
            int64_t a3[3] = {-1, M, K}, b3[3] = {-1, N, K};
            an = reshape(cx, an, a3, 3);
            bn = reshape(cx, bn, b3, 3);
        }
        y = call2(cx, "nn.batch_matmul", an, bn);
        TRY(ox_set_dtype(cx, y, "out_dtype", dt));
        TRY(ox_set_bool(cx, y, "transpose_b", true));
        if (r != 3)
            y = reshape(cx, y, out, r);
    }
    if (alpha != 1.0)
        y = binary_scalar(cx, "multiply", y, dt, alpha);
    return define(cx, 0, y);
}

/* ---- activations ------------------------------------------------------------ */

/* GELU with erf: x * (erf(x * 1/sqrt(2)) * 0.5 + 0.5), the spelling of
 * TVM's PyTorch frontend, which the CUTLASS dense_bias_gelu patterns
 * match.  TVM's ONNX frontend writes 0.5x * (1 + erf(x / sqrt(2))), the
 * same function that no backend's pattern matches. */
static int gelu_erf(ox_cx *cx, int x, byoc_dtype dt)
{
    int t = call1(cx, "erf", binary_scalar(cx, "multiply", x, dt, sqrt(0.5)));
    t = binary_scalar(cx, "add", binary_scalar(cx, "multiply", t, dt, 0.5), dt, 0.5);
    return call2(cx, "multiply", t, x);
}

/* GELU with tanh: 0.5x * (1 + tanh(c1 x + c2 x^3)), c1 = sqrt(2/pi),
 * c2 = 0.044715 c1, as TVM's Relax ONNX frontend writes FastGelu. */
static int gelu_tanh(ox_cx *cx, int x, byoc_dtype dt)
{
    const double c1 = 0.7978845608028654;   /* sqrt(2 / pi) */
    int cube = binary_scalar(cx, "power", x, dt, 3.0);
    int inner = call2(cx, "add", binary_scalar(cx, "multiply", x, dt, c1),
                      binary_scalar(cx, "multiply", cube, dt, 0.044715 * c1));
    int t = binary_scalar(cx, "add", call1(cx, "tanh", inner), dt, 1.0);
    return call2(cx, "multiply", binary_scalar(cx, "multiply", x, dt, 0.5), t);
}

/* Gelu (opset 20, and com.microsoft's, which has no approximate
 * attribute): the erf form, or the tanh form for approximate="tanh". */
int ox_conv_gelu(ox_cx *cx)
{
    const char *approx;
    TRY(ox_attr_string(cx, "approximate", "none", &approx));
    bool tanh_form = !strcmp(approx, "tanh");
    if (!tanh_form && strcmp(approx, "none") != 0)
        return ox_fail(cx, "attribute 'approximate' is '%s'; expected none or tanh", approx);
    int x = ox_arg(cx, 0);
    TRY(x);
    byoc_dtype dt = in_dtype(cx, 0);
    return define(cx, 0, tanh_form ? gelu_tanh(cx, x, dt) : gelu_erf(cx, x, dt));
}

/* A bias that ONNX Runtime requires to be 1-D. */
static int bias_1d(ox_cx *cx, int i)
{
    int rank = in_type(cx, i).rank;
    if (rank >= 0 && rank != 1)
        return ox_fail(cx, "input %d (the bias) has rank %d; expected 1", i + 1, rank);
    return ox_arg(cx, i);
}

/* BiasGelu: add, then the erf form, as TVM. */
int ox_conv_bias_gelu(ox_cx *cx)
{
    int x = ox_arg(cx, 0), b = bias_1d(cx, 1);
    TRY(x);
    TRY(b);
    return define(cx, 0, gelu_erf(cx, call2(cx, "add", x, b), in_dtype(cx, 0)));
}

/* FastGelu: the optional bias added, then the tanh form. */
int ox_conv_fast_gelu(ox_cx *cx)
{
    int x = ox_arg(cx, 0);
    TRY(x);
    if (ox_in(cx, 1)) {
        int b = bias_1d(cx, 1);
        TRY(b);
        x = call2(cx, "add", x, b);
    }
    return define(cx, 0, gelu_tanh(cx, x, in_dtype(cx, 0)));
}

/* QuickGelu: x * sigmoid(alpha x); with alpha 1 it is swish,
 * multiply(x, sigmoid(x)), as backends' swish patterns spell it. */
int ox_conv_quick_gelu(ox_cx *cx)
{
    double alpha;
    TRY(ox_attr_float(cx, "alpha", 1.702, &alpha));
    int x = ox_arg(cx, 0);
    TRY(x);
    int s = alpha == 1.0 ? x : binary_scalar(cx, "multiply", x, in_dtype(cx, 0), alpha);
    return define(cx, 0, call2(cx, "multiply", x, call1(cx, "sigmoid", s)));
}

/* BiasAdd: X + bias + skip, two adds. */
int ox_conv_bias_add(ox_cx *cx)
{
    int x = ox_arg(cx, 0), b = ox_arg(cx, 1), s = ox_arg(cx, 2);
    TRY(x);
    TRY(b);
    TRY(s);
    return define(cx, 0, call2(cx, "add", call2(cx, "add", x, b), s));
}

/* BiasSoftmax: nn.softmax(add(data, bias)).  The softmax covers the axes
 * from `axis` on, as Softmax before opset 13; only the last axis alone is
 * mapped.  The bias broadcasts numpy's way when it has the data's rank or
 * is_inner_broadcast is 0 (it then lines up with the trailing axes). */
int ox_conv_bias_softmax(ox_cx *cx)
{
    int64_t axis, inner;
    TRY(ox_attr_int(cx, "axis", 1, &axis));
    TRY(ox_attr_int(cx, "is_inner_broadcast", 0, &inner));
    byoc_tensor_type t = in_type(cx, 0), b = in_type(cx, 1);
    if (t.rank < 0)
        return ox_unsupported(cx, "the input's rank is not known");
    if (axis < -t.rank || axis >= t.rank)
        return ox_fail(cx, "attribute 'axis' is %lld for a tensor of rank %d", (long long)axis,
                       t.rank);
    if (axis < 0)
        axis += t.rank;
    if (axis != t.rank - 1)
        return ox_unsupported(cx, "a softmax over axes %lld.. is not mapped", (long long)axis);
    if (inner && b.rank != t.rank)
        return ox_unsupported(cx, "an inner broadcast of a bias of rank %d", b.rank);
    int x = ox_arg(cx, 0), bias = ox_arg(cx, 1);
    TRY(x);
    TRY(bias);
    int node = call1(cx, "nn.softmax", call2(cx, "add", x, bias));
    TRY(ox_set_int(cx, node, "axis", -1));
    return define(cx, 0, node);
}

/* ---- normalisation ---------------------------------------------------------- */

static int reduce_last(ox_cx *cx, const char *op, int x, int y)
{
    int64_t last = -1;
    int node = y >= 0 ? call2(cx, op, x, y) : call1(cx, op, x);
    TRY(ox_set_ints(cx, node, "axis", &last, 1));
    TRY(ox_set_bool(cx, node, "keepdims", true));
    return node;
}

/* RMS normalisation over `axes` of x: x * rsqrt(mean(x * x) + eps), the
 * ops of RMSNormalization's function body (with rsqrt for Sqrt and
 * Reciprocal); *inv gets the rsqrt, the inverse deviation. */
static int rms(ox_cx *cx, int x, const int64_t *axes, size_t naxes, double eps, byoc_dtype dt,
               int *inv)
{
    int ms = call1(cx, "mean", call2(cx, "multiply", x, x));
    TRY(ox_set_ints(cx, ms, "axis", axes, naxes));
    TRY(ox_set_bool(cx, ms, "keepdims", true));
    *inv = call1(cx, "rsqrt", binary_scalar(cx, "add", ms, dt, eps));
    return call2(cx, "multiply", x, *inv);
}

/* RMSNormalization (opset 23) and ONNX Runtime's
 * SimplifiedLayerNormalization (which ORT defines in the default domain,
 * version 1; some rewriters, onnxscript's among them, write it in
 * com.microsoft, so both names map): x * rsqrt(mean(x^2 over axes axis..) + epsilon) *
 * scale.  With stash_type 1 (float32) a narrower float input is cast to
 * float32 for the statistics and back before the scale, as the function
 * body does.  Relay has no RMS op, so this is the arithmetic. */
int ox_conv_rms_norm(ox_cx *cx)
{
    int64_t axis, stash;
    double eps;
    TRY(ox_attr_int(cx, "axis", -1, &axis));
    TRY(ox_attr_float(cx, "epsilon", 1e-5, &eps));
    TRY(ox_attr_int(cx, "stash_type", 1, &stash));
    byoc_tensor_type t = in_type(cx, 0);
    if (axis < 0 && t.rank < 0)
        return ox_unsupported(cx, "a negative axis needs the input's rank");
    if (t.rank >= 0 && (axis < -t.rank || axis >= t.rank))
        return ox_fail(cx, "attribute 'axis' is %lld for a tensor of rank %d", (long long)axis,
                       t.rank);
    int64_t axes[BYOC_MAX_RANK];
    size_t n = 0;
    if (axis == -1 || (t.rank >= 0 && axis == t.rank - 1)) {
        axes[n++] = -1;
    } else {
        if (t.rank < 0)
            return ox_unsupported(cx, "normalising from axis %lld needs the input's rank",
                                  (long long)axis);
        for (int64_t k = axis < 0 ? axis + t.rank : axis; k < t.rank; k++)
            axes[n++] = k;
    }
    int x = ox_arg(cx, 0), scale = ox_arg(cx, 1);
    TRY(x);
    TRY(scale);
    byoc_dtype dt = in_dtype(cx, 0), ct = dt;
    if (stash == 1 && byoc_dtype_class(dt) == 'f' && dt != BYOC_DT_FLOAT32
        && dt != BYOC_DT_FLOAT64) {
        ct = BYOC_DT_FLOAT32;
        x = call1(cx, "cast", x);
        TRY(ox_set_dtype(cx, x, "dtype", ct));
    }
    int inv, y = rms(cx, x, axes, n, eps, ct, &inv);
    if (ct != dt) {
        y = call1(cx, "cast", y);
        TRY(ox_set_dtype(cx, y, "dtype", dt));
    }
    TRY(define(cx, 0, call2(cx, "multiply", y, scale)));
    return cx->node->noutputs > 1 ? define(cx, 1, inv) : 0;
}

/* SkipLayerNormalization: add(input, skip) (+ add bias), then
 * nn.layer_norm over the last axis, as TVM but with the fused op backends
 * match rather than TVM's mean/variance arithmetic (as LayerNormalization
 * in onnx_ops.c).  TVM gives no other outputs; here the mean is mean(sum)
 * and the inverse deviation rsqrt(variance(sum) + epsilon), built when
 * read, and input_skip_bias_sum is the sum.
 * SkipSimplifiedLayerNormalization (no beta: its bias is input 4) is the
 * same with RMS normalisation; its mean output is not mapped. */
int ox_conv_skip_layer_norm(ox_cx *cx)
{
    bool simplified = strcmp(cx->node->op_type, "SkipSimplifiedLayerNormalization") == 0;
    double eps;
    TRY(ox_attr_float(cx, "epsilon", 1e-12, &eps));
    if (simplified && ox_output_used(cx, 1))
        return ox_unsupported(cx, "its mean output is used");
    int x = ox_arg(cx, 0), skip = ox_arg(cx, 1), gamma = ox_arg(cx, 2);
    TRY(x);
    TRY(skip);
    TRY(gamma);
    byoc_dtype dt = in_dtype(cx, 0);
    int sum = call2(cx, "add", x, skip), bias_at = simplified ? 3 : 4;
    if (ox_in(cx, bias_at))
        sum = call2(cx, "add", sum, ox_arg(cx, bias_at));
    TRY(sum);
    if (simplified) {
        int64_t last = -1;
        int inv, y = rms(cx, sum, &last, 1, eps, dt, &inv);
        TRY(define(cx, 0, call2(cx, "multiply", y, gamma)));
        if (ox_output_used(cx, 2))
            TRY(define(cx, 2, inv));
        return define(cx, 3, sum);
    }
    int beta = ox_in(cx, 3) ? ox_arg(cx, 3) : ox_scalar(cx, dt, 0.0);
    int args[3] = {sum, gamma, beta};
    int ln = ox_call(cx, "nn.layer_norm", args, 3);
    TRY(ox_set_int(cx, ln, "axis", -1));
    TRY(ox_set_float(cx, ln, "epsilon", eps));
    TRY(define(cx, 0, ln));
    if (ox_output_used(cx, 1) || ox_output_used(cx, 2)) {
        int mean = reduce_last(cx, "mean", sum, -1);
        TRY(define(cx, 1, mean));
        if (ox_output_used(cx, 2)) {
            int var = reduce_last(cx, "variance", sum, mean);
            TRY(define(cx, 2, call1(cx, "rsqrt", binary_scalar(cx, "add", var, dt, eps))));
        }
    }
    return define(cx, 3, sum);
}

/* EmbedLayerNormalization: take of the word (and segment) embeddings,
 * the position embeddings added, nn.layer_norm, as TVM.  Without
 * position_ids TVM takes rows 0..S-1 with a constant index table; here
 * they are a strided_slice of the table, the same rows.  mask_index is
 * sum(mask, axis 1), or zeros without a mask, as TVM; embedding_sum (which
 * TVM leaves out) is the sum. */
int ox_conv_embed_layer_norm(ox_cx *cx)
{
    double eps;
    TRY(ox_attr_float(cx, "epsilon", 1e-12, &eps));
    byoc_tensor_type ids = in_type(cx, 0);
    if (!ox_in(cx, 0) || !ox_in(cx, 2) || !ox_in(cx, 3) || !ox_in(cx, 5) || !ox_in(cx, 6))
        return ox_fail(cx, "inputs input_ids, word_embedding, position_embedding, gamma and "
                           "beta are required");
    if (ox_in(cx, 1) && !ox_in(cx, 4))
        return ox_fail(cx, "segment_ids without segment_embedding");
    if (ids.rank != 2 || ids.dims[1] < 0)
        return ox_unsupported(cx, "input_ids is not [batch, sequence] with a known sequence");
    if (ox_output_used(cx, 1) && !ox_in(cx, 7) && ids.dims[0] < 0)
        return ox_unsupported(cx, "a mask_index without a mask needs the batch size");
    int x = call2(cx, "take", ox_arg(cx, 2), ox_arg(cx, 0));
    TRY(ox_set_int(cx, x, "axis", 0));
    int pos;
    if (ox_in(cx, 8)) {
        pos = call2(cx, "take", ox_arg(cx, 3), ox_arg(cx, 8));
        TRY(ox_set_int(cx, pos, "axis", 0));
    } else {
        int64_t zero = 0, one = 1;
        pos = call1(cx, "strided_slice", ox_arg(cx, 3));
        TRY(ox_set_ints(cx, pos, "begin", &zero, 1));
        TRY(ox_set_ints(cx, pos, "end", &ids.dims[1], 1));
        TRY(ox_set_ints(cx, pos, "strides", &one, 1));
        TRY(ox_set_ints(cx, pos, "axes", &zero, 1));
    }
    int sum = call2(cx, "add", x, pos);
    if (ox_in(cx, 1)) {
        int seg = call2(cx, "take", ox_arg(cx, 4), ox_arg(cx, 1));
        TRY(ox_set_int(cx, seg, "axis", 0));
        sum = call2(cx, "add", sum, seg);
    }
    int args[3] = {sum, ox_arg(cx, 5), ox_arg(cx, 6)};
    int ln = ox_call(cx, "nn.layer_norm", args, 3);
    TRY(ox_set_int(cx, ln, "axis", -1));
    TRY(ox_set_float(cx, ln, "epsilon", eps));
    TRY(define(cx, 0, ln));
    if (ox_output_used(cx, 1)) {
        int mask;
        if (ox_in(cx, 7)) {
            int64_t one = 1;
            mask = call1(cx, "sum", ox_arg(cx, 7));
            TRY(ox_set_ints(cx, mask, "axis", &one, 1));
        } else {
            mask = call1(cx, "full", ox_scalar(cx, BYOC_DT_INT32, 0));
            TRY(ox_set_ints(cx, mask, "shape", &ids.dims[0], 1));
            TRY(ox_set_dtype(cx, mask, "dtype", BYOC_DT_INT32));
        }
        TRY(define(cx, 1, mask));
    }
    return define(cx, 2, sum);
}

/* ---- attention -------------------------------------------------------------- */

typedef struct attn {
    int64_t B, S, L, N, D, Dv;  /* batch, query and key lengths, heads, head sizes */
    bool has_scale;
    double scale;
    int mask;                   /* [B, L] raw mask (1 keeps), or -1 */
    double filter;              /* what a masked score becomes */
    int bias;                   /* attention_bias [B or 1, N or 1, S, L], or -1 */
    bool causal;                /* unidirectional: query i sees keys ..i + L - S */
    byoc_dtype dt;
} attn;

/* [B, S, N * D] (or [B * S, N * D]) to [B * N, S, D]. */
static int split_heads(ox_cx *cx, int x, int64_t B, int64_t S, int64_t N, int64_t D)
{
    static const int64_t perm[4] = {0, 2, 1, 3};
    int64_t s4[4] = {B, S, N, D}, s3[3] = {B * N, S, D};
    return reshape(cx, transpose(cx, reshape(cx, x, s4, 4), perm, 4), s3, 3);
}

/* Scaled dot-product attention of q, k, v (projected, heads not yet
 * split), as TVM's Attention converter writes it: nn.batch_matmul of Q and
 * K (NT), divided by sqrt(D) (or multiplied by `scale`), the mask's
 * (1 - m) * filter added, nn.softmax, nn.batch_matmul with V, heads merged
 * back to [B, S, N * Dv].  Causal attention, which TVM does not map, adds
 * the same of a lower-triangular trilu of ones.  *kh and *vh get K and V
 * with heads split. */
static int attend(ox_cx *cx, const attn *a, int q, int k, int v, int *kh, int *vh)
{
    static const int64_t perm[4] = {0, 2, 1, 3};
    byoc_dtype dt = a->dt;
    q = split_heads(cx, q, a->B, a->S, a->N, a->D);
    *kh = k = split_heads(cx, k, a->B, a->L, a->N, a->D);
    *vh = v = split_heads(cx, v, a->B, a->L, a->N, a->Dv);
    int s = call2(cx, "nn.batch_matmul", q, k);
    TRY(ox_set_bool(cx, s, "transpose_b", true));
    s = a->has_scale ? binary_scalar(cx, "multiply", s, dt, a->scale)
                     : binary_scalar(cx, "divide", s, dt, sqrt((double)a->D));
    if (a->mask >= 0 || a->bias >= 0 || a->causal) {
        int64_t s4[4] = {a->B, a->N, a->S, a->L}, s3[3] = {a->B * a->N, a->S, a->L};
        s = reshape(cx, s, s4, 4);
        if (a->causal) {
            /* (1 - tril(ones [S, L], L - S)) * filter, broadcast. */
            int64_t sl[2] = {a->S, a->L};
            int ones = call1(cx, "full", ox_scalar(cx, dt, 1.0));
            TRY(ox_set_ints(cx, ones, "shape", sl, 2));
            TRY(ox_set_dtype(cx, ones, "dtype", dt));
            int tril = call2(cx, "trilu", ones, ox_scalar(cx, BYOC_DT_INT64,
                                                          (double)(a->L - a->S)));
            TRY(ox_set_bool(cx, tril, "upper", false));
            int m = call2(cx, "subtract", ox_scalar(cx, dt, 1.0), tril);
            s = call2(cx, "add", s, binary_scalar(cx, "multiply", m, dt, a->filter));
        }
        if (a->mask >= 0) {
            int m = call1(cx, "cast", a->mask);
            TRY(ox_set_dtype(cx, m, "dtype", dt));
            m = call1(cx, "expand_dims", m);
            TRY(ox_set_int(cx, m, "axis", 1));
            TRY(ox_set_int(cx, m, "num_newaxis", 2));
            m = call2(cx, "subtract", ox_scalar(cx, dt, 1.0), m);
            s = call2(cx, "add", s, binary_scalar(cx, "multiply", m, dt, a->filter));
        }
        if (a->bias >= 0)
            s = call2(cx, "add", s, a->bias);
        s = reshape(cx, s, s3, 3);
    }
    int p = call1(cx, "nn.softmax", s);
    TRY(ox_set_int(cx, p, "axis", -1));
    int o = call2(cx, "nn.batch_matmul", p, v);
    int64_t o4[4] = {a->B, a->N, a->S, a->Dv}, o3[3] = {a->B, a->S, a->N * a->Dv};
    return reshape(cx, transpose(cx, reshape(cx, o, o4, 4), perm, 4), o3, 3);
}

/* The attention settings every form shares: heads, scale, mask filter,
 * and a mask that must be [B, L]. */
static int attn_common(ox_cx *cx, attn *a, int mask_at, int bias_at)
{
    int64_t heads, uni;
    if (ox_attr_int(cx, "num_heads", 0, &heads) <= 0 || heads < 1)
        return ox_fail(cx, "attribute 'num_heads' is required and must be positive");
    TRY(ox_attr_int(cx, "unidirectional", 0, &uni));
    a->causal = uni != 0;
    a->N = heads;
    a->has_scale = ox_attr_find(cx->node, "scale") != NULL;
    TRY(ox_attr_float(cx, "scale", 0.0, &a->scale));
    if (a->has_scale && a->scale == 0.0)
        a->has_scale = false;
    TRY(ox_attr_float(cx, "mask_filter_value", -10000.0, &a->filter));
    a->mask = a->bias = -1;
    if (ox_in(cx, mask_at)) {
        byoc_tensor_type m = in_type(cx, mask_at);
        if (m.rank != 2 || (m.dims[0] >= 0 && m.dims[0] != a->B)
            || (m.dims[1] >= 0 && m.dims[1] != a->L))
            return ox_unsupported(cx, "only a [batch, sequence] mask is mapped");
    }
    if (ox_in(cx, bias_at) && in_type(cx, bias_at).rank != 4)
        return ox_unsupported(cx, "an attention bias that is not 4-D");
    return 0;
}

static int attn_inputs(ox_cx *cx, attn *a, int mask_at, int bias_at)
{
    if (ox_in(cx, mask_at))
        TRY(a->mask = ox_arg(cx, mask_at));
    if (ox_in(cx, bias_at))
        TRY(a->bias = ox_arg(cx, bias_at));
    return 0;
}

/* Checks that the products attend() forms from the sizes fit. */
static int attn_sizes(ox_cx *cx, const attn *a)
{
    int64_t t;
    if (!mul_ok(a->B, a->N, &t) || !mul_ok(t, a->S, &t) || !mul_ok(t, a->L, &t)
        || !mul_ok(t, a->D > a->Dv ? a->D : a->Dv, &t) || !mul_ok(a->B, a->S, &t)
        || !mul_ok(a->B, a->L, &t))
        return ox_fail(cx, "its sizes overflow");
    return 0;
}

/* Attention (BERT's fused self-attention): input [B, S, Hin] times the
 * merged weight [Hin, Hq + Hk + Hv], split in three (qkv_hidden_sizes,
 * else equal thirds), plus the bias, then attend().  As TVM, but with
 * nn.dense of the transposed weights (MatMul's form here) for TVM's
 * nn.matmul; like TVM it maps no past state, and besides TVM's [B, S]
 * mask it takes none, an attention_bias, and causal masking.  present is
 * stack(K, V) with heads split. */
int ox_conv_ms_attention(ox_cx *cx)
{
    attn a;
    byoc_tensor_type x = in_type(cx, 0), w = in_type(cx, 1);
    int64_t rotary;
    TRY(ox_attr_int(cx, "do_rotary", 0, &rotary));
    if (!ox_in(cx, 0) || !ox_in(cx, 1))
        return ox_fail(cx, "inputs input and weights are required");
    if (x.rank != 3 || !known(&x, 0, 3) || w.rank != 2 || !known(&w, 0, 2))
        return ox_unsupported(cx, "the shapes of input and weights are not known");
    if (ox_in(cx, 4) || ox_in(cx, 6))
        return ox_unsupported(cx, "past state is not mapped");
    if (rotary)
        return ox_unsupported(cx, "rotary embedding (do_rotary) is not mapped");
    if (w.dims[0] != x.dims[2])
        return ox_fail(cx, "weights have %lld rows for %lld input features",
                       (long long)w.dims[0], (long long)x.dims[2]);
    a.B = x.dims[0];
    a.S = a.L = x.dims[1];
    int rc = attn_common(cx, &a, 3, 5);
    if (rc != 0)
        return rc;
    const int64_t *hs;
    size_t nhs;
    rc = ox_attr_ints(cx, "qkv_hidden_sizes", &hs, &nhs);
    TRY(rc);
    int64_t h[3];
    if (rc > 0) {
        if (nhs != 3 || hs[0] < 1 || hs[1] != hs[0] || hs[2] < 1 || hs[0] > w.dims[1]
            || hs[2] > w.dims[1])
            return ox_fail(cx, "attribute 'qkv_hidden_sizes' is not three sizes with Q's and "
                               "K's equal");
        memcpy(h, hs, sizeof h);
    } else {
        h[0] = h[1] = h[2] = w.dims[1] / 3;
    }
    int64_t sum;
    if (h[0] < 1 || h[2] < 1 || __builtin_add_overflow(h[0], h[1], &sum)
        || __builtin_add_overflow(sum, h[2], &sum) || sum != w.dims[1] || h[0] % a.N
        || h[2] % a.N)
        return ox_fail(cx, "hidden sizes %lld, %lld, %lld do not split %lld weights over %lld "
                           "heads", (long long)h[0], (long long)h[1], (long long)h[2],
                       (long long)w.dims[1], (long long)a.N);
    a.D = h[0] / a.N;
    a.Dv = h[2] / a.N;
    a.dt = in_dtype(cx, 0);
    TRY(attn_sizes(cx, &a));
    if (ox_output_used(cx, 1) && a.D != a.Dv)
        return ox_unsupported(cx, "present with different K and V head sizes");
    TRY(attn_inputs(cx, &a, 3, 5));
    static const int64_t swap[2] = {1, 0};
    int64_t cuts[2] = {h[0], h[0] + h[1]}, flat[2] = {-1, x.dims[2]};
    int ws = call1(cx, "split", ox_arg(cx, 1));
    TRY(ox_set_ints(cx, ws, "indices_or_sections", cuts, 2));
    TRY(ox_set_int(cx, ws, "axis", 1));
    int bs = -1;
    if (ox_in(cx, 2)) {
        bs = call1(cx, "split", ox_arg(cx, 2));
        TRY(ox_set_ints(cx, bs, "indices_or_sections", cuts, 2));
        TRY(ox_set_int(cx, bs, "axis", 0));
    }
    int in2 = reshape(cx, ox_arg(cx, 0), flat, 2), proj[3];
    for (int i = 0; i < 3; i++) {
        proj[i] = call2(cx, "nn.dense", in2, transpose(cx, ox_proj(cx, ws, i), swap, 2));
        TRY(ox_set_int(cx, proj[i], "units", h[i]));
        if (bs >= 0)
            proj[i] = call2(cx, "add", proj[i], ox_proj(cx, bs, i));
    }
    int kh, vh, out = attend(cx, &a, proj[0], proj[1], proj[2], &kh, &vh);
    TRY(define(cx, 0, out));
    if (!ox_output_used(cx, 1))
        return 0;
    int64_t p4[4] = {a.B, a.N, a.L, a.D};
    int fields[2] = {reshape(cx, kh, p4, 4), reshape(cx, vh, p4, 4)};
    int st = call1(cx, "stack", ox_tuple(cx, fields, 2));
    TRY(ox_set_int(cx, st, "axis", 0));
    return define(cx, 1, st);
}

/* MultiHeadAttention with separate query [B, S, H], key [B, L, H] and
 * value [B, L, Hv] (the bias, when given, split and added to each), then
 * attend().  Packed QKV, keys already split into heads, past state and
 * present outputs are not mapped. */
int ox_conv_multi_head_attention(ox_cx *cx)
{
    attn a;
    byoc_tensor_type q = in_type(cx, 0), k = in_type(cx, 1), v = in_type(cx, 2);
    if (!ox_in(cx, 0))
        return ox_fail(cx, "input query is required");
    if (!ox_in(cx, 1) || !ox_in(cx, 2))
        return ox_unsupported(cx, "packed query, key and value are not mapped");
    for (int i = 6; i < cx->node->ninputs; i++)
        if (ox_in(cx, i))
            return ox_unsupported(cx, "past state and its extra inputs are not mapped");
    if (ox_output_used(cx, 1) || ox_output_used(cx, 2))
        return ox_unsupported(cx, "its present outputs are used");
    if (q.rank != 3 || k.rank != 3 || v.rank != 3 || !known(&q, 0, 3) || !known(&k, 0, 3)
        || !known(&v, 0, 3))
        return ox_unsupported(cx, "query, key and value are not 3-D of known shapes");
    if (k.dims[0] != q.dims[0] || v.dims[0] != q.dims[0] || k.dims[2] != q.dims[2]
        || v.dims[1] != k.dims[1])
        return ox_fail(cx, "query, key and value do not agree in shape");
    a.B = q.dims[0];
    a.S = q.dims[1];
    a.L = k.dims[1];
    int rc = attn_common(cx, &a, 4, 5);
    if (rc != 0)
        return rc;
    if (q.dims[2] % a.N || v.dims[2] % a.N)
        return ox_fail(cx, "hidden sizes %lld and %lld do not split over %lld heads",
                       (long long)q.dims[2], (long long)v.dims[2], (long long)a.N);
    a.D = q.dims[2] / a.N;
    a.Dv = v.dims[2] / a.N;
    a.dt = in_dtype(cx, 0);
    TRY(attn_sizes(cx, &a));
    TRY(attn_inputs(cx, &a, 4, 5));
    int p[3] = {ox_arg(cx, 0), ox_arg(cx, 1), ox_arg(cx, 2)};
    if (ox_in(cx, 3)) {
        int64_t cuts[2] = {q.dims[2], 2 * q.dims[2]};
        int bs = call1(cx, "split", ox_arg(cx, 3));
        TRY(ox_set_ints(cx, bs, "indices_or_sections", cuts, 2));
        TRY(ox_set_int(cx, bs, "axis", 0));
        for (int i = 0; i < 3; i++)
            p[i] = call2(cx, "add", p[i], ox_proj(cx, bs, i));
    }
    int kh, vh;
    return define(cx, 0, attend(cx, &a, p[0], p[1], p[2], &kh, &vh));
}

/* ---- other com.microsoft ops ------------------------------------------------ */

static int slice_axis(ox_cx *cx, int x, int64_t begin, int64_t end, int64_t step, int64_t axis)
{
    int node = call1(cx, "strided_slice", x);
    TRY(ox_set_ints(cx, node, "begin", &begin, 1));
    TRY(ox_set_ints(cx, node, "end", &end, 1));
    TRY(ox_set_ints(cx, node, "strides", &step, 1));
    TRY(ox_set_ints(cx, node, "axes", &axis, 1));
    return node;
}

/* RotaryEmbedding: the rotation of the first rotary_embedding_dim (R)
 * features of each head by the cached angles of each position, spelt out:
 * cos and sin are take of the caches [max_position, R/2] by position_ids
 * (a strided_slice for a constant offset), broadcast over the heads; the
 * halves x1, x2 (or, interleaved, the even and odd features) become
 * x1 cos - x2 sin and x2 cos + x1 sin, joined back (stacked and reshaped
 * when interleaved) and concatenated with the features past R.  A 3-D
 * input [B, S, N * D] is viewed as [B, S, N, D] for it, a 4-D one is
 * [B, N, S, D].  Packed batching and a scale are not mapped. */
int ox_conv_ms_rotary_embedding(ox_cx *cx)
{
    int64_t interleaved, heads, rdim, packed;
    double scale;
    TRY(ox_attr_int(cx, "interleaved", 0, &interleaved));
    TRY(ox_attr_int(cx, "num_heads", 0, &heads));
    TRY(ox_attr_int(cx, "rotary_embedding_dim", 0, &rdim));
    TRY(ox_attr_int(cx, "is_packed_batching", 0, &packed));
    TRY(ox_attr_float(cx, "scale", 1.0, &scale));
    if (heads < 0 || rdim < 0)
        return ox_fail(cx, "attribute '%s' is %lld", heads < 0 ? "num_heads"
                                                    : "rotary_embedding_dim",
                       (long long)(heads < 0 ? heads : rdim));
    for (int i = 0; i < 4; i++)
        if (!ox_in(cx, i))
            return ox_fail(cx, "inputs input, position_ids, cos_cache and sin_cache are "
                               "required");
    if (packed || scale != 1.0)
        return ox_unsupported(cx, "packed batching or a scale is not mapped");
    byoc_tensor_type x = in_type(cx, 0), pos = in_type(cx, 1), cc = in_type(cx, 2);
    if ((x.rank != 3 && x.rank != 4) || !known(&x, 0, x.rank) || cc.rank != 2
        || !known(&cc, 0, 2))
        return ox_unsupported(cx, "the shapes of input and cos_cache are not known");
    int64_t B = x.dims[0], S = x.rank == 3 ? x.dims[1] : x.dims[2], N, D;
    if (x.rank == 4) {
        N = x.dims[1];
        D = x.dims[3];
    } else {
        if (heads == 0 && cc.dims[1] > INT64_MAX / 2)
            return ox_fail(cx, "a cache of %lld is too large", (long long)cc.dims[1]);
        D = heads > 0 ? x.dims[2] / heads : cc.dims[1] * 2;
        if (D < 1 || x.dims[2] % D)
            return ox_fail(cx, "%lld features do not split into heads of %lld",
                           (long long)x.dims[2], (long long)D);
        N = x.dims[2] / D;
    }
    int64_t R = rdim > 0 ? rdim : D, half = cc.dims[1];
    if (R > D || R != 2 * half)
        return ox_fail(cx, "rotary_embedding_dim %lld does not fit heads of %lld and a cache "
                           "of %lld", (long long)R, (long long)D, (long long)half);
    const ox_tensor *offset = ox_data(cx, ox_in(cx, 1));
    bool by_offset = pos.rank == 1 && offset && offset->i && offset->n == 1;
    if (!by_offset && (pos.rank != 2 || (pos.dims[0] >= 0 && pos.dims[0] != B)
                       || (pos.dims[1] >= 0 && pos.dims[1] != S)))
        return ox_unsupported(cx, "position_ids is neither [batch, sequence] nor an offset");
    if (by_offset && (offset->i[0] < 0 || offset->i[0] > cc.dims[0] - S))
        return ox_fail(cx, "position offset %lld is outside the cache", (long long)offset->i[0]);
    /* x4: [B, S, N, D] or [B, N, S, D]; the angles [B or 1, S, R/2]
     * get a unit heads axis to broadcast. */
    int64_t x4s[4] = {B, S, N, D}, head_axis = x.rank == 3 ? 2 : 1;
    int x4 = x.rank == 3 ? reshape(cx, ox_arg(cx, 0), x4s, 4) : ox_arg(cx, 0), trig[2];
    for (int i = 0; i < 2; i++) {
        int t;
        if (by_offset) {
            int64_t shape[3] = {1, S, half};
            t = reshape(cx, slice_axis(cx, ox_arg(cx, 2 + i), offset->i[0], offset->i[0] + S, 1,
                                       0), shape, 3);
        } else {
            t = call2(cx, "take", ox_arg(cx, 2 + i), ox_arg(cx, 1));
            TRY(ox_set_int(cx, t, "axis", 0));
        }
        trig[i] = call1(cx, "expand_dims", t);
        TRY(ox_set_int(cx, trig[i], "axis", head_axis));
    }
    int x1 = interleaved ? slice_axis(cx, x4, 0, R, 2, 3) : slice_axis(cx, x4, 0, half, 1, 3);
    int x2 = interleaved ? slice_axis(cx, x4, 1, R, 2, 3) : slice_axis(cx, x4, half, R, 1, 3);
    int y1 = call2(cx, "subtract", call2(cx, "multiply", x1, trig[0]),
                   call2(cx, "multiply", x2, trig[1]));
    int y2 = call2(cx, "add", call2(cx, "multiply", x2, trig[0]),
                   call2(cx, "multiply", x1, trig[1]));
    int fields[3] = {y1, y2, -1}, nf = 2, rot;
    if (interleaved) {
        int st = call1(cx, "stack", ox_tuple(cx, fields, 2));
        TRY(ox_set_int(cx, st, "axis", 4));
        int64_t shape[4] = {x4s[0], x.rank == 3 ? S : N, x.rank == 3 ? N : S, R};
        fields[0] = reshape(cx, st, shape, 4);
        nf = 1;
    }
    if (R < D)
        fields[nf++] = slice_axis(cx, x4, R, D, 1, 3);
    if (nf == 1) {
        rot = fields[0];
    } else {
        rot = call1(cx, "concatenate", ox_tuple(cx, fields, nf));
        TRY(ox_set_int(cx, rot, "axis", 3));
    }
    if (x.rank == 3)
        rot = reshape(cx, rot, x.dims, 3);
    return define(cx, 0, rot);
}


/* Range: arange, as the default domain's; delta defaults to 1. */
int ox_conv_range(ox_cx *cx)
{
    byoc_dtype dt = in_dtype(cx, 0);
    int args[3] = {ox_arg(cx, 0), ox_arg(cx, 1),
                   ox_in(cx, 2) ? ox_arg(cx, 2) : ox_scalar(cx, dt, 1.0)};
    int node = ox_call(cx, "arange", args, 3);
    TRY(ox_set_dtype(cx, node, "dtype", dt));
    return define(cx, 0, node);
}

/* ---- 2-D windows (NhwcConv and the NCHWc ops) ------------------------------- */

/* An int list attribute of two values, `def` for both when absent. */
static int pair_attr(ox_cx *cx, const char *name, int64_t def, int64_t min, int64_t *out)
{
    const int64_t *v;
    size_t n;
    int rc = ox_attr_ints(cx, name, &v, &n);
    TRY(rc);
    out[0] = out[1] = def;
    if (rc == 0)
        return 0;
    if (n != 2)
        return ox_fail(cx, "attribute '%s' has %zu values; a 2-D %s needs 2", name, n,
                       cx->node->op_type);
    for (int i = 0; i < 2; i++) {
        if (v[i] < min)
            return ox_fail(cx, "attribute '%s' has the value %lld", name, (long long)v[i]);
        out[i] = v[i];
    }
    return 0;
}

/* Kernel (from kernel_shape, else kdef), strides, dilations and padding
 * ([top, left, bottom, right]) of a 2-D convolution or pooling, from
 * ONNX's attributes; hw are the input's spatial sizes, for auto_pad SAME
 * (ONNX's rule, as onnx_ops.c's same_pads).  Returns 1 (unsupported) when
 * SAME needs sizes nobody knows. */
/* The dilated kernel and the padded input within 2^63 - 1, as
 * ox_check_window, for sizes hw that may not be input 0's last two. */
static int window2d_fits(ox_cx *cx, const int64_t *hw, const int64_t *k, const int64_t *d,
                         const int64_t *pads)
{
    for (int i = 0; i < 2; i++) {
        int64_t span, padded;
        if (__builtin_mul_overflow(k[i] - 1, d[i], &span)
            || __builtin_add_overflow(span, 1, &span)
            || __builtin_add_overflow(pads[i], pads[2 + i], &padded)
            || (hw[i] >= 0 && __builtin_add_overflow(padded, hw[i], &padded)))
            return ox_fail(cx, "kernel_shape, dilations and pads take spatial axis %d past "
                               "2^63 - 1", i);
        if (hw[i] >= 0 && padded < span)
            return ox_fail(cx, "the window of %lld on spatial axis %d is larger than the "
                               "padded input of %lld", (long long)span, i, (long long)padded);
    }
    return 0;
}

static int window2d(ox_cx *cx, const int64_t *kdef, const int64_t *hw, int64_t *k, int64_t *s,
                    int64_t *d, int64_t *pads)
{
    const int64_t *ks;
    size_t nk;
    int rc = ox_attr_ints(cx, "kernel_shape", &ks, &nk);
    TRY(rc);
    if (rc > 0 && nk != 2)
        return ox_unsupported(cx, "%zu spatial axes; the 2-D form is mapped", nk);
    if (rc == 0 && !kdef)
        return ox_fail(cx, "attribute 'kernel_shape' is required");
    for (int i = 0; i < 2; i++) {
        k[i] = rc > 0 ? ks[i] : kdef[i];
        if (k[i] < 1)
            return ox_fail(cx, "kernel size %lld", (long long)k[i]);
    }
    TRY(pair_attr(cx, "strides", 1, 1, s));
    TRY(pair_attr(cx, "dilations", 1, 1, d));
    const char *mode;
    TRY(ox_attr_string(cx, "auto_pad", "NOTSET", &mode));
    bool lower = !strcmp(mode, "SAME_LOWER");
    if (lower || !strcmp(mode, "SAME_UPPER")) {
        for (int i = 0; i < 2; i++) {
            if (hw[i] < 0)
                return ox_unsupported(cx, "auto_pad %s needs the input's spatial sizes", mode);
            int64_t total;
            if (!ox_same_pad_total(hw[i], k[i], s[i], d[i], &total))
                return ox_fail(cx, "kernel_shape and dilations take spatial axis %d past "
                                   "2^63 - 1", i);
            int64_t small = total / 2, big = total - small;
            pads[i] = lower ? big : small;
            pads[2 + i] = lower ? small : big;
        }
        return window2d_fits(cx, hw, k, d, pads);
    }
    if (!strcmp(mode, "VALID")) {
        memset(pads, 0, 4 * sizeof *pads);
        return window2d_fits(cx, hw, k, d, pads);
    }
    if (strcmp(mode, "NOTSET") != 0 && mode[0])
        return ox_fail(cx, "attribute 'auto_pad' is '%s'; expected NOTSET, SAME_UPPER, "
                           "SAME_LOWER or VALID", mode);
    const int64_t *v;
    size_t n;
    TRY(rc = ox_attr_ints(cx, "pads", &v, &n));
    memset(pads, 0, 4 * sizeof *pads);
    if (rc == 0)
        return 0;
    if (n != 4)
        return ox_fail(cx, "attribute 'pads' has %zu values; a 2-D %s needs 4", n,
                       cx->node->op_type);
    for (int i = 0; i < 4; i++) {
        if (v[i] < 0)
            return ox_fail(cx, "attribute 'pads' has the value %lld", (long long)v[i]);
        pads[i] = v[i];
    }
    return window2d_fits(cx, hw, k, d, pads);
}

static int conv2d(ox_cx *cx, int x, int w, const int64_t *k, const int64_t *s, const int64_t *d,
                  const int64_t *pads, int64_t group, int64_t channels, const char *dl,
                  const char *kl, const char *ol)
{
    int node = call2(cx, "nn.conv2d", x, w);
    TRY(ox_set_ints(cx, node, "strides", s, 2));
    TRY(ox_set_ints(cx, node, "padding", pads, 4));
    TRY(ox_set_ints(cx, node, "dilation", d, 2));
    TRY(ox_set_int(cx, node, "groups", group));
    if (channels >= 0)
        TRY(ox_set_int(cx, node, "channels", channels));
    TRY(ox_set_ints(cx, node, "kernel_size", k, 2));
    TRY(ox_set_string(cx, node, "data_layout", dl));
    TRY(ox_set_string(cx, node, "kernel_layout", kl));
    if (ol)
        TRY(ox_set_string(cx, node, "out_layout", ol));
    return node;
}

/* NhwcConv: Conv on an NHWC input, nn.conv2d with data_layout NHWC.  The
 * weight is OIHW or OHWI (ONNX Runtime's layout transformer writes
 * either, by execution provider); its shape says which, and a shape that
 * fits both stays opaque.  The bias is nn.bias_add on axis 3. */
int ox_conv_nhwc_conv(ox_cx *cx)
{
    byoc_tensor_type xt = in_type(cx, 0), wt = in_type(cx, 1);
    int64_t group, k[2], s[2], d[2], pads[4];
    TRY(ox_attr_int(cx, "group", 1, &group));
    if (group < 1)
        return ox_fail(cx, "attribute 'group' has the value %lld", (long long)group);
    if (xt.rank != 4 || wt.rank != 4 || !known(&wt, 0, 4) || xt.dims[3] < 0)
        return ox_unsupported(cx, "a 2-D convolution with known channels and weight is mapped");
    int64_t cin = xt.dims[3] / group, hw[2] = {xt.dims[1], xt.dims[2]};
    const int64_t *ks;
    size_t nk;
    int rc = ox_attr_ints(cx, "kernel_shape", &ks, &nk);
    TRY(rc);
    bool oihw = wt.dims[1] == cin && (rc == 0 || (nk == 2 && wt.dims[2] == ks[0]
                                                  && wt.dims[3] == ks[1]));
    bool ohwi = wt.dims[3] == cin && (rc == 0 || (nk == 2 && wt.dims[1] == ks[0]
                                                  && wt.dims[2] == ks[1]));
    if (oihw == ohwi)
        return ox_unsupported(cx, "the weight's shape does not say whether it is OIHW or OHWI");
    int64_t kdef[2] = {oihw ? wt.dims[2] : wt.dims[1], oihw ? wt.dims[3] : wt.dims[2]};
    TRY(rc = window2d(cx, kdef, hw, k, s, d, pads));
    if (rc > 0)
        return rc;
    int node = conv2d(cx, ox_arg(cx, 0), ox_arg(cx, 1), k, s, d, pads, group, wt.dims[0], "NHWC",
                      oihw ? "OIHW" : "OHWI", NULL);
    if (ox_in(cx, 2)) {
        node = call2(cx, "nn.bias_add", node, ox_arg(cx, 2));
        TRY(ox_set_int(cx, node, "axis", 3));
    }
    return define(cx, 0, node);
}

/* NhwcFusedConv: NhwcConv's ops, the summand Z added, the activation, as
 * FusedConv. */
int ox_conv_nhwc_fused_conv(ox_cx *cx)
{
    act a;
    int rc = read_activation(cx, false, &a);
    if (rc != 0)
        return rc;
    if ((rc = ox_conv_nhwc_conv(cx)) != 0)
        return rc;
    int y = ox_take_output(cx, 0);
    if (y < 0)
        return ox_fail(cx, "output 1 is missing");
    if (ox_in(cx, 3))
        y = call2(cx, "add", y, ox_arg(cx, 3));
    return define(cx, 0, apply_activation(cx, y, &a, in_dtype(cx, 0)));
}

/* ---- NCHWc (com.microsoft.nchwc) -------------------------------------------- */

/* ONNX Runtime's NCHWc transformer (level all) reorders activations into
 * MLAS's blocked layout: ReorderInput pads the channels to a multiple of
 * the block and blocks them, the NCHWc ops work on blocked tensors, and
 * ReorderOutput unblocks and crops back.  The model keeps 4-D shapes with
 * the padded channel count; the block (8 on AVX2, 16 on AVX-512) is
 * MLAS's and not recorded.  Here a blocked tensor is Relay's NCHW8c
 * layout, [N, C/8, H, W, 8], as TVM's x86 NCHWc schedules write it: 8
 * divides every block MLAS uses, so every NCHWc channel count.  The
 * reordered filters ORT stores keep 4-D shapes too and are reshaped to
 * the blocked kernel layouts (OIHW8i8o, or OIHW8o for a convolution on a
 * plain NCHW input, which ORT keeps for inputs of few channels). */
enum { BLOCK = 8 };

/* Output 0 is a blocked tensor, which the model declares 4-D. */
static int define_blocked(ox_cx *cx, int node)
{
    TRY(node);
    ox_define_relaid(cx, 0, node);
    return 0;
}

/* x [N, C, H, W] (or NHWC) zero-padded to a channel count that is a
 * multiple of BLOCK and laid out as NCHW8c. */
int ox_conv_nchwc_reorder_input(ox_cx *cx)
{
    int64_t last;
    TRY(ox_attr_int(cx, "channels_last", 0, &last));
    byoc_tensor_type t = in_type(cx, 0);
    int c_axis = last ? 3 : 1;
    if (t.rank != 4 || t.dims[c_axis] < 0)
        return ox_unsupported(cx, "a 4-D input with known channels is mapped");
    int64_t c = t.dims[c_axis], padded;
    if (__builtin_add_overflow(c, BLOCK - 1, &padded))
        return ox_fail(cx, "%lld channels pad to blocks of %d past 2^63 - 1", (long long)c,
                       BLOCK);
    padded = padded / BLOCK * BLOCK;
    int x = ox_arg(cx, 0);
    TRY(x);
    if (padded != c) {
        int64_t pairs[8] = {0};
        pairs[2 * c_axis + 1] = padded - c;
        x = call2(cx, "nn.pad", x, ox_scalar(cx, in_dtype(cx, 0), 0.0));
        TRY(ox_set_pairs(cx, x, "pad_width", pairs, 4));
    }
    int node = call1(cx, "layout_transform", x);
    TRY(ox_set_string(cx, node, "src_layout", last ? "NHWC" : "NCHW"));
    TRY(ox_set_string(cx, node, "dst_layout", "NCHW8c"));
    return define_blocked(cx, node);
}

/* NCHW8c back to NCHW (or NHWC), cropped to `channels`. */
int ox_conv_nchwc_reorder_output(ox_cx *cx)
{
    int64_t channels, last;
    if (ox_attr_int(cx, "channels", 0, &channels) <= 0 || channels < 1)
        return ox_fail(cx, "attribute 'channels' is required and must be positive");
    TRY(ox_attr_int(cx, "channels_last", 0, &last));
    byoc_tensor_type t = in_type(cx, 0);
    if (t.rank != 5 || t.dims[4] != BLOCK || t.dims[1] < 0)
        return ox_unsupported(cx, "its input is not a known NCHW8c tensor");
    int64_t padded;
    if (!mul_ok(t.dims[1], BLOCK, &padded) || channels > padded)
        return ox_fail(cx, "%lld channels from a tensor of %lld blocks", (long long)channels,
                       (long long)t.dims[1]);
    int node = call1(cx, "layout_transform", ox_arg(cx, 0));
    TRY(ox_set_string(cx, node, "src_layout", "NCHW8c"));
    TRY(ox_set_string(cx, node, "dst_layout", last ? "NHWC" : "NCHW"));
    if (channels != padded) {
        int64_t zero = 0, one = 1, axis = last ? 3 : 1;
        node = call1(cx, "strided_slice", node);
        TRY(ox_set_ints(cx, node, "begin", &zero, 1));
        TRY(ox_set_ints(cx, node, "end", &channels, 1));
        TRY(ox_set_ints(cx, node, "strides", &one, 1));
        TRY(ox_set_ints(cx, node, "axes", &axis, 1));
    }
    return define(cx, 0, node);
}

/* Is input i an NCHW8c tensor (5-D with a last axis of BLOCK)? */
static bool blocked(ox_cx *cx, int i)
{
    byoc_tensor_type t = in_type(cx, i);
    return t.rank == 5 && t.dims[4] == BLOCK;
}

/* The NCHWc Conv: nn.conv2d from NCHW8c (or NCHW) to NCHW8c, the bias
 * reshaped to [1, C/8, 1, 1, 8] and added, the Sum input added, then the
 * activation, in MLAS's order. */
int ox_conv_nchwc_conv(ox_cx *cx)
{
    byoc_tensor_type xt = in_type(cx, 0), wt = in_type(cx, 1);
    bool in_blocked = blocked(cx, 0);
    int64_t group, k[2], s[2], d[2], pads[4];
    if (!in_blocked && xt.rank != 4)
        return ox_unsupported(cx, "its input is neither NCHW8c nor NCHW");
    if (wt.rank != 4 || !known(&wt, 0, 4))
        return ox_unsupported(cx, "the weight's shape is not known");
    TRY(ox_attr_int(cx, "group", 1, &group));
    if (group < 1)
        return ox_fail(cx, "attribute 'group' has the value %lld", (long long)group);
    int64_t O = wt.dims[0], I = wt.dims[1], hw[2] = {xt.dims[2], xt.dims[3]};
    if (O % BLOCK)
        return ox_unsupported(cx, "%lld output channels are not a multiple of %d",
                              (long long)O, BLOCK);
    const char *kl;
    int64_t wshape[6] = {O / BLOCK, I, wt.dims[2], wt.dims[3], BLOCK, BLOCK};
    int wrank;
    if (!in_blocked) {
        kl = "OIHW8o";
        wrank = 5;
    } else if (I % BLOCK == 0) {
        kl = "OIHW8i8o";
        wshape[1] = I / BLOCK;
        wrank = 6;
    } else if (I == 1) {
        kl = "OIHW1i8o";
        wshape[4] = 1;
        wrank = 6;
    } else {
        return ox_unsupported(cx, "%lld input channels per group do not block", (long long)I);
    }
    act a;
    int rc = read_activation(cx, false, &a);
    if (rc != 0)
        return rc;
    const int64_t kdef[2] = {wt.dims[2], wt.dims[3]};
    TRY(rc = window2d(cx, kdef, hw, k, s, d, pads));
    if (rc > 0)
        return rc;
    int w = reshape(cx, ox_arg(cx, 1), wshape, wrank);
    int y = conv2d(cx, ox_arg(cx, 0), w, k, s, d, pads, group, O, in_blocked ? "NCHW8c" : "NCHW",
                   kl, "NCHW8c");
    if (ox_in(cx, 2)) {
        int64_t bshape[5] = {1, O / BLOCK, 1, 1, BLOCK};
        y = call2(cx, "add", y, reshape(cx, ox_arg(cx, 2), bshape, 5));
    }
    if (ox_in(cx, 3))
        y = call2(cx, "add", y, ox_arg(cx, 3));
    return define_blocked(cx, apply_activation(cx, y, &a, in_dtype(cx, 0)));
}

/* The NCHWc MaxPool and AveragePool: nn.max_pool2d / nn.avg_pool2d with
 * layout NCHW8c. */
int ox_conv_nchwc_pool(ox_cx *cx)
{
    bool is_max = strcmp(cx->node->op_type, "MaxPool") == 0;
    if (!blocked(cx, 0))
        return ox_unsupported(cx, "its input is not NCHW8c");
    byoc_tensor_type t = in_type(cx, 0);
    int64_t k[2], s[2], d[2], pads[4], hw[2] = {t.dims[2], t.dims[3]}, ceil_mode, count_pad = 0;
    int rc = window2d(cx, NULL, hw, k, s, d, pads);
    TRY(rc);
    if (rc > 0)
        return rc;
    TRY(ox_attr_int(cx, "ceil_mode", 0, &ceil_mode));
    if (!is_max)
        TRY(ox_attr_int(cx, "count_include_pad", 0, &count_pad));
    int node = call1(cx, is_max ? "nn.max_pool2d" : "nn.avg_pool2d", ox_arg(cx, 0));
    TRY(ox_set_ints(cx, node, "pool_size", k, 2));
    TRY(ox_set_ints(cx, node, "strides", s, 2));
    TRY(ox_set_ints(cx, node, "dilation", d, 2));
    TRY(ox_set_ints(cx, node, "padding", pads, 4));
    TRY(ox_set_string(cx, node, "layout", "NCHW8c"));
    TRY(ox_set_bool(cx, node, "ceil_mode", ceil_mode != 0));
    if (!is_max)
        TRY(ox_set_bool(cx, node, "count_include_pad", count_pad != 0));
    return define_blocked(cx, node);
}

/* The NCHWc GlobalMaxPool and GlobalAveragePool, layout NCHW8c. */
int ox_conv_nchwc_global_pool(ox_cx *cx)
{
    bool is_max = strcmp(cx->node->op_type, "GlobalMaxPool") == 0;
    if (!blocked(cx, 0))
        return ox_unsupported(cx, "its input is not NCHW8c");
    int node = call1(cx, is_max ? "nn.global_max_pool2d" : "nn.global_avg_pool2d",
                     ox_arg(cx, 0));
    TRY(ox_set_string(cx, node, "layout", "NCHW8c"));
    return define_blocked(cx, node);
}

/* The NCHWc Upsample: integer scales per axis of the 4-D shape.
 * Nearest is nn.upsampling, as the default domain's Upsample writes it;
 * linear is image.resize2d to the scaled size with the node's
 * coordinate_transformation_mode (asymmetric by default), which
 * nn.upsampling's bilinear (half_pixel or align_corners) cannot say.
 * Both in layout NCHW8c. */
int ox_conv_nchwc_upsample(ox_cx *cx)
{
    const int64_t *sc;
    size_t n;
    const char *mode, *ctm;
    int rc = ox_attr_ints(cx, "scales", &sc, &n);
    TRY(rc);
    TRY(ox_attr_string(cx, "mode", "nearest", &mode));
    TRY(ox_attr_string(cx, "coordinate_transformation_mode", "asymmetric", &ctm));
    if (rc == 0 || n != 4)
        return ox_fail(cx, "attribute 'scales' must give the 4 axes' scales");
    for (int i = 0; i < 4; i++)
        if (sc[i] < 1)
            return ox_fail(cx, "attribute 'scales' has the value %lld", (long long)sc[i]);
    if (sc[0] != 1 || sc[1] != 1)
        return ox_unsupported(cx, "it scales the batch or channel axis");
    bool linear = !strcmp(mode, "linear");
    if (!linear && strcmp(mode, "nearest"))
        return ox_fail(cx, "attribute 'mode' is '%s'; expected nearest or linear", mode);
    if (!blocked(cx, 0))
        return ox_unsupported(cx, "its input is not NCHW8c");
    byoc_tensor_type t = in_type(cx, 0);
    int64_t size[2];
    if (linear && (t.dims[2] < 0 || t.dims[3] < 0 || !mul_ok(t.dims[2], sc[2], &size[0])
                   || !mul_ok(t.dims[3], sc[3], &size[1])))
        return ox_unsupported(cx, "linear upsampling needs the input's spatial sizes");
    int node;
    if (linear) {
        node = call1(cx, "image.resize2d", ox_arg(cx, 0));
        TRY(ox_set_ints(cx, node, "size", size, 2));
        TRY(ox_set_string(cx, node, "method", "linear"));
        TRY(ox_set_string(cx, node, "coordinate_transformation_mode", ctm));
    } else {
        node = call1(cx, "nn.upsampling", ox_arg(cx, 0));
        TRY(ox_set_float(cx, node, "scale_h", (double)sc[2]));
        TRY(ox_set_float(cx, node, "scale_w", (double)sc[3]));
        TRY(ox_set_string(cx, node, "method", "nearest_neighbor"));
        TRY(ox_set_bool(cx, node, "align_corners", false));
    }
    TRY(ox_set_string(cx, node, "layout", "NCHW8c"));
    return define_blocked(cx, node);
}
