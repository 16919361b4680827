/* More ONNX converters: the activations, normalisations, scans, scatters,
 * recurrent layers, attention and einsum of the default domain through
 * opset 23 that onnx_ops.c does not cover, for entries of its one op
 * table.
 *
 * Most ONNX ops here have no Relay op of their own and become the Relay
 * expressions TVM's ONNX frontend (python/tvm/relay/frontend/onnx.py)
 * builds for them: Elu is relu, exp and arithmetic, LpPool an average pool
 * between two powers.  Ops newer than that frontend (Attention,
 * RotaryEmbedding, CenterCropPad, the windows) follow the expansion their
 * ONNX definition or reference gives, and Einsum, whose Relay op byoc's
 * vocabulary lacks, becomes the batch_matmul it amounts to.  Recurrent
 * layers (RNN, GRU, LSTM) are unrolled, one
 * set of nn.dense and elementwise ops per time step, as TVM's rnn_cell,
 * gru_cell and lstm_cell do; this needs the sequence length, and a layer
 * whose length is not known stays opaque with a note.  Where this file
 * departs from TVM, each place says so; mostly it does once, per layer,
 * what TVM does per step on constant weights and its FoldConstant undoes
 * (splitting and concatenating the weights), and takes the gates in
 * ONNX's order rather than permuting the weights into TVM's.
 *
 * As in onnx_ops.c, a converter checks all it needs before it builds
 * anything, so that a node it gives up on (ox_unsupported) leaves no ops
 * behind; a malformed node is an error (ox_fail). */
#include <math.h>
#include <string.h>

#include "onnx_more.h"

#define TRY(x)                                                                                  \
    do {                                                                                        \
        if ((x) < 0)                                                                            \
            return -1;                                                                          \
    } while (0)

/* ---- helpers (as onnx_ops.c's, which keeps its own static) --------------------------- */

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

static byoc_tensor_type type_of(ox_cx *cx, int i)
{
    return ox_type(cx, ox_in(cx, i));
}

/* Element type of input i; float32 when not known, for the constants a
 * converter makes to go with it. */
static byoc_dtype dtype_of(ox_cx *cx, int i)
{
    byoc_dtype dt = type_of(cx, i).dtype;
    return dt == BYOC_DT_VOID ? BYOC_DT_FLOAT32 : dt;
}

static bool dims_known(const byoc_tensor_type *t, int from, int to)
{
    if (t->rank < 0 || from < 0 || to > t->rank)
        return false;
    for (int k = from; k < to; k++)
        if (t->dims[k] < 0)
            return false;
    return true;
}

/* Two sizes that cannot be the same (a symbol or unknown may be). */
static bool dims_clash(int64_t a, int64_t b)
{
    return a >= 0 && b >= 0 && a != b;
}

/* a * b for sizes from the model (>= 0), false on overflow. */
static bool mul_ok(int64_t a, int64_t b, int64_t *out)
{
    if (a < 0 || b < 0 || (b && a > INT64_MAX / b))
        return false;
    *out = a * b;
    return true;
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

static int call3(ox_cx *cx, const char *op, int a, int b, int c)
{
    int args[3] = {a, b, c};
    return ox_call(cx, op, args, 3);
}

static int define(ox_cx *cx, int i, int node)
{
    TRY(node);
    ox_define(cx, i, node);
    return 0;
}

/* An op with one int-list attribute. */
static int with_ints(ox_cx *cx, int node, const char *attr, const int64_t *v, size_t n)
{
    TRY(node);
    TRY(ox_set_ints(cx, node, attr, v, n));
    return node;
}

static int with_int(ox_cx *cx, int node, const char *attr, int64_t v)
{
    TRY(node);
    TRY(ox_set_int(cx, node, attr, v));
    return node;
}

static int squeeze0(ox_cx *cx, int x)
{
    static const int64_t zero = 0;
    return with_ints(cx, call1(cx, "squeeze", x), "axis", &zero, 1);
}

static int expand0(ox_cx *cx, int x)
{
    return with_int(cx, call1(cx, "expand_dims", x), "axis", 0);
}

/* split(x, n equal parts, axis) as the tuple. */
static int split_n(ox_cx *cx, int x, int n, int64_t axis)
{
    int s = with_int(cx, call1(cx, "split", x), "indices_or_sections", n);
    return with_int(cx, s, "axis", axis);
}

static int stack(ox_cx *cx, const int *fields, int n, int64_t axis)
{
    return with_int(cx, call1(cx, "stack", ox_tuple(cx, fields, n)), "axis", axis);
}

static bool is_op(ox_cx *cx, const char *name)
{
    return strcmp(cx->node->op_type, name) == 0;
}

/* ---- activations, built on a node ---------------------------------------------------- */

/* The builders below make one node per statement, so that the graph's
 * node order does not depend on the order the compiler evaluates
 * arguments in. */

/* -alpha * relu(1 - exp(x)) + relu(x): TVM's Elu. */
static int elu(ox_cx *cx, byoc_dtype dt, int x, double alpha)
{
    int one = ox_scalar(cx, dt, 1.0);
    int e = call1(cx, "exp", x);
    int neg = call1(cx, "nn.relu", call2(cx, "subtract", one, e));
    int a = ox_scalar(cx, dt, -alpha);
    neg = call2(cx, "multiply", a, neg);
    int pos = call1(cx, "nn.relu", x);
    return call2(cx, "add", neg, pos);
}

/* log(exp(x) + 1): TVM's Softplus. */
static int softplus(ox_cx *cx, byoc_dtype dt, int x)
{
    int e = call1(cx, "exp", x);
    int one = ox_scalar(cx, dt, 1.0);
    return call1(cx, "log", call2(cx, "add", e, one));
}

/* x / (1 + abs(x)). */
static int softsign(ox_cx *cx, byoc_dtype dt, int x)
{
    int one = ox_scalar(cx, dt, 1.0);
    int a = call1(cx, "abs", x);
    return call2(cx, "divide", x, call2(cx, "add", one, a));
}

/* x * cast(x > alpha).  TVM compares against full_like(x, alpha) and casts
 * to float32; a scalar broadcasts the same, and the cast is to x's type. */
static int thresholded_relu(ox_cx *cx, byoc_dtype dt, int x, double alpha)
{
    int mask = call1(cx, "cast", call2(cx, "greater", x, ox_scalar(cx, dt, alpha)));
    if (mask >= 0)
        TRY(ox_set_dtype(cx, mask, "dtype", dt));
    return call2(cx, "multiply", x, mask);
}

/* clip(alpha * x + beta, 0, 1), as onnx_ops.c's HardSigmoid. */
static int hard_sigmoid(ox_cx *cx, byoc_dtype dt, int x, double alpha, double beta)
{
    int t = call2(cx, "multiply", x, ox_scalar(cx, dt, alpha));
    t = call2(cx, "add", t, ox_scalar(cx, dt, beta));
    int c = call1(cx, "clip", t);
    TRY(c);
    TRY(ox_set_float(cx, c, "a_min", 0));
    TRY(ox_set_float(cx, c, "a_max", 1));
    return c;
}

int ox_conv_elu(ox_cx *cx)
{
    bool selu = is_op(cx, "Selu");
    double alpha, gamma = 1.0;
    TRY(ox_attr_float(cx, "alpha", selu ? 1.67326319217681884765625 : 1.0, &alpha));
    if (selu)
        TRY(ox_attr_float(cx, "gamma", 1.05070102214813232421875, &gamma));
    byoc_dtype dt = dtype_of(cx, 0);
    int out = elu(cx, dt, ox_arg(cx, 0), alpha);
    if (selu) {
        int g = ox_scalar(cx, dt, gamma);
        out = call2(cx, "multiply", g, out);
    }
    return define(cx, 0, out);
}

/* Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1)), as TVM. */
int ox_conv_celu(ox_cx *cx)
{
    double alpha;
    TRY(ox_attr_float(cx, "alpha", 1.0, &alpha));
    if (alpha == 0)
        return ox_fail(cx, "attribute 'alpha' is 0");
    byoc_dtype dt = dtype_of(cx, 0);
    int x = ox_arg(cx, 0);
    int e = call1(cx, "exp", call2(cx, "divide", x, ox_scalar(cx, dt, alpha)));
    e = call2(cx, "subtract", e, ox_scalar(cx, dt, 1.0));
    int a = ox_scalar(cx, dt, alpha);
    int neg = call2(cx, "multiply", a, e);
    int zero = ox_scalar(cx, dt, 0.0);
    int pos = call2(cx, "maximum", zero, x);
    neg = call2(cx, "minimum", zero, neg);
    return define(cx, 0, call2(cx, "add", pos, neg));
}

int ox_conv_softplus(ox_cx *cx)
{
    return define(cx, 0, softplus(cx, dtype_of(cx, 0), ox_arg(cx, 0)));
}

int ox_conv_softsign(ox_cx *cx)
{
    return define(cx, 0, softsign(cx, dtype_of(cx, 0), ox_arg(cx, 0)));
}

/* Mish: x * tanh(log(1 + exp(x))), as TVM. */
int ox_conv_mish(ox_cx *cx)
{
    byoc_dtype dt = dtype_of(cx, 0);
    int x = ox_arg(cx, 0);
    int one = ox_scalar(cx, dt, 1.0);
    int e = call1(cx, "exp", x);
    int sp = call1(cx, "log", call2(cx, "add", one, e));
    return define(cx, 0, call2(cx, "multiply", x, call1(cx, "tanh", sp)));
}

int ox_conv_thresholded_relu(ox_cx *cx)
{
    double alpha;
    TRY(ox_attr_float(cx, "alpha", 1.0, &alpha));
    return define(cx, 0, thresholded_relu(cx, dtype_of(cx, 0), ox_arg(cx, 0), alpha));
}

/* Shrink: where(x < -lambd, x + bias, 0) + where(x > lambd, x - bias, 0),
 * the zeros zeros_like(x), as TVM. */
int ox_conv_shrink(ox_cx *cx)
{
    double lambd, bias;
    TRY(ox_attr_float(cx, "lambd", 0.5, &lambd));
    TRY(ox_attr_float(cx, "bias", 0.0, &bias));
    byoc_dtype dt = dtype_of(cx, 0);
    int x = ox_arg(cx, 0);
    int zeros = call1(cx, "zeros_like", x);
    int below = call2(cx, "less", x, ox_scalar(cx, dt, -lambd));
    int up = call2(cx, "add", x, ox_scalar(cx, dt, bias));
    int lo = call3(cx, "where", below, up, zeros);
    int above = call2(cx, "greater", x, ox_scalar(cx, dt, lambd));
    int down = call2(cx, "subtract", x, ox_scalar(cx, dt, bias));
    int hi = call3(cx, "where", above, down, zeros);
    return define(cx, 0, call2(cx, "add", lo, hi));
}

/* IsInf: isinf, narrowed to one sign by x > 0 or x < 0 when a detect_*
 * attribute is 0.  TVM multiplies the two masks; logical_and is the same
 * on bools. */
int ox_conv_is_inf(ox_cx *cx)
{
    int64_t neg, pos;
    TRY(ox_attr_int(cx, "detect_negative", 1, &neg));
    TRY(ox_attr_int(cx, "detect_positive", 1, &pos));
    byoc_dtype dt = dtype_of(cx, 0);
    int x = ox_arg(cx, 0);
    int out = call1(cx, "isinf", x);
    if (!neg)
        out = call2(cx, "logical_and", out, call2(cx, "greater", x, ox_scalar(cx, dt, 0.0)));
    if (!pos)
        out = call2(cx, "logical_and", out, call2(cx, "less", x, ox_scalar(cx, dt, 0.0)));
    return define(cx, 0, out);
}

int ox_conv_bit_shift(ox_cx *cx)
{
    const char *dir;
    if (ox_attr_string(cx, "direction", NULL, &dir) <= 0 || !dir)
        return ox_fail(cx, "attribute 'direction' is required and must be a string");
    bool left = strcmp(dir, "LEFT") == 0;
    if (!left && strcmp(dir, "RIGHT") != 0)
        return ox_fail(cx, "attribute 'direction' is '%s'; expected LEFT or RIGHT", dir);
    int a = ox_arg(cx, 0);
    TRY(a);
    return define(cx, 0, call2(cx, left ? "left_shift" : "right_shift", a, ox_arg(cx, 1)));
}

/* BitwiseAnd, BitwiseOr, BitwiseXor, BitwiseNot: the Relay op of the
 * same name. */
int ox_conv_bitwise(ox_cx *cx)
{
    int a = ox_arg(cx, 0);
    TRY(a);
    if (strcmp(cx->map->relay, "bitwise_not") == 0)
        return define(cx, 0, call1(cx, "bitwise_not", a));
    return define(cx, 0, call2(cx, cx->map->relay, a, ox_arg(cx, 1)));
}

/* ---- normalisation, pooling, reductions ---------------------------------------------- */

/* GroupNormalization: nn.group_norm over axis 1.  From opset 21 scale and
 * bias hold one value per channel, as nn.group_norm wants; opsets 18-20
 * give one per group, which repeat spreads over the group's channels.
 * TVM's frontend has no GroupNormalization; stash_type (the precision of
 * the statistics) has no Relay counterpart and is left out. */
int ox_conv_group_norm(ox_cx *cx)
{
    int64_t groups;
    double eps;
    if (ox_attr_int(cx, "num_groups", 0, &groups) <= 0 || groups < 1)
        return ox_fail(cx, "attribute 'num_groups' is required and must be a positive int");
    TRY(ox_attr_float(cx, "epsilon", 1e-5, &eps));
    byoc_tensor_type t = type_of(cx, 0);
    if (!ox_in(cx, 1) || !ox_in(cx, 2))
        return ox_fail(cx, "inputs 'scale' and 'bias' are required");
    if (t.rank >= 0 && t.rank < 2)
        return ox_fail(cx, "the input has rank %d; expected N, C and more", t.rank);
    int64_t c = t.rank >= 2 ? t.dims[1] : -1;
    if (c >= 0 && c % groups)
        return ox_fail(cx, "%lld channels do not split into %lld groups", (long long)c,
                       (long long)groups);
    bool per_group = cx->opset < 21;
    if (per_group && c < 0)
        return ox_unsupported(cx, "per-group scales need the number of channels");
    int x = ox_arg(cx, 0), gamma = ox_arg(cx, 1), beta = ox_arg(cx, 2);
    TRY(x);
    TRY(gamma);
    TRY(beta);
    if (per_group && c / groups != 1) {
        gamma = with_int(cx, call1(cx, "repeat", gamma), "repeats", c / groups);
        gamma = with_int(cx, gamma, "axis", 0);
        beta = with_int(cx, call1(cx, "repeat", beta), "repeats", c / groups);
        beta = with_int(cx, beta, "axis", 0);
    }
    int node = call3(cx, "nn.group_norm", x, gamma, beta);
    TRY(node);
    TRY(ox_set_int(cx, node, "num_groups", groups));
    TRY(ox_set_int(cx, node, "axis", 1));
    TRY(ox_set_float(cx, node, "epsilon", eps));
    return define(cx, 0, node);
}

/* LayerNormalization that nn.layer_norm cannot take - over several axes,
 * or with its Mean and InvStdDev outputs read - spelled out as TVM does:
 * mean and variance over the axes from `axis` on (kept), 1 / sqrt(var +
 * eps), the normalised input times scale plus bias.  stash_type, the
 * precision of the statistics, is not followed, as in TVM. */
int ox_conv_layer_norm_spelled(ox_cx *cx)
{
    int64_t axis;
    double eps;
    TRY(ox_attr_int(cx, "axis", -1, &axis));
    TRY(ox_attr_float(cx, "epsilon", 1e-5, &eps));
    int rank = type_of(cx, 0).rank;
    if (rank < 0)
        return ox_unsupported(cx, "the input's rank is not known");
    if (axis < -rank || axis >= rank)
        return ox_fail(cx, "attribute 'axis' is %lld for a tensor of rank %d", (long long)axis,
                       rank);
    if (!ox_in(cx, 1))
        return ox_fail(cx, "input 2 (the scale) is required");
    axis = axis < 0 ? axis + rank : axis;
    int64_t axes[BYOC_MAX_RANK];
    size_t n = 0;
    for (int64_t a = axis; a < rank; a++)
        axes[n++] = a;
    byoc_dtype dt = dtype_of(cx, 0);
    int x = ox_arg(cx, 0);
    TRY(x);
    int mean = with_ints(cx, call1(cx, "mean", x), "axis", axes, n);
    TRY(mean);
    TRY(ox_set_bool(cx, mean, "keepdims", true));
    int var = with_ints(cx, call2(cx, "variance", x, mean), "axis", axes, n);
    TRY(var);
    TRY(ox_set_bool(cx, var, "keepdims", true));
    int one = ox_scalar(cx, dt, 1.0);
    int sd = call1(cx, "sqrt", call2(cx, "add", var, ox_scalar(cx, dt, eps)));
    int inv = call2(cx, "divide", one, sd);
    int xn = call2(cx, "multiply", call2(cx, "subtract", x, mean), inv);
    int ln = call2(cx, "multiply", xn, ox_arg(cx, 1));
    if (ox_in(cx, 2))
        ln = call2(cx, "add", ln, ox_arg(cx, 2));
    TRY(define(cx, 0, ln));
    if (ox_output_used(cx, 1))
        TRY(define(cx, 1, mean));
    if (ox_output_used(cx, 2))
        TRY(define(cx, 2, inv));
    return 0;
}

/* MeanVarianceNormalization: (x - mean) / sqrt(mean(x^2) - mean^2) over
 * `axes` (default 0, 2, 3), as TVM. */
int ox_conv_mvn(ox_cx *cx)
{
    static const int64_t def[3] = {0, 2, 3};
    const int64_t *axes = def;
    size_t n = 3;
    int rc = ox_attr_ints(cx, "axes", &axes, &n);
    TRY(rc);
    if (rc == 0) {
        axes = def;
        n = 3;
    }
    byoc_dtype dt = dtype_of(cx, 0);
    int x = ox_arg(cx, 0);
    TRY(x);
    int mean = with_ints(cx, call1(cx, "mean", x), "axis", axes, n);
    TRY(mean);
    TRY(ox_set_bool(cx, mean, "keepdims", true));
    int mean_sq = call2(cx, "power", mean, ox_scalar(cx, dt, 2.0));
    int sq = call2(cx, "power", x, ox_scalar(cx, dt, 2.0));
    int sq_mean = with_ints(cx, call1(cx, "mean", sq), "axis", axes, n);
    TRY(sq_mean);
    TRY(ox_set_bool(cx, sq_mean, "keepdims", true));
    int dev = call1(cx, "sqrt", call2(cx, "subtract", sq_mean, mean_sq));
    int centred = call2(cx, "subtract", x, mean);
    return define(cx, 0, call2(cx, "divide", centred, dev));
}

/* LpNormalization (TVM has none): p = 2 is nn.l2_normalize on the axis
 * with eps 0, which then divides by the norm itself; p = 1 divides by
 * sum(abs(x)) over the axis. */
int ox_conv_lp_norm(ox_cx *cx)
{
    int64_t axis, p;
    TRY(ox_attr_int(cx, "axis", -1, &axis));
    TRY(ox_attr_int(cx, "p", 2, &p));
    if (p != 1 && p != 2)
        return ox_fail(cx, "attribute 'p' is %lld; expected 1 or 2", (long long)p);
    int x = ox_arg(cx, 0);
    TRY(x);
    if (p == 2) {
        int node = with_ints(cx, call1(cx, "nn.l2_normalize", x), "axis", &axis, 1);
        TRY(node);
        TRY(ox_set_float(cx, node, "eps", 0.0));
        return define(cx, 0, node);
    }
    int norm = with_ints(cx, call1(cx, "sum", call1(cx, "abs", x)), "axis", &axis, 1);
    TRY(norm);
    TRY(ox_set_bool(cx, norm, "keepdims", true));
    return define(cx, 0, call2(cx, "divide", x, norm));
}

/* LpPool and GlobalLpPool, as TVM: x^p, nn.avg_pool{1,2,3}d counting the
 * padding, times the window size, abs, to the power 1/p.  GlobalLpPool is
 * LpPool with the whole spatial extent as its window. */
int ox_conv_lp_pool(ox_cx *cx)
{
    bool global = is_op(cx, "GlobalLpPool");
    byoc_tensor_type t = type_of(cx, 0);
    int64_t kernel[3], strides[3], dil[3], pads[6], ceil_mode = 0, p;
    int nd;
    TRY(ox_attr_int(cx, "p", 2, &p));
    if (p < 1)
        return ox_fail(cx, "attribute 'p' is %lld", (long long)p);
    if (global) {
        if (t.rank < 3 || t.rank > 5 || !dims_known(&t, 2, t.rank))
            return ox_unsupported(cx, "the window is the input's spatial extent, which is not "
                                      "known or not 1 to 3 axes");
        nd = t.rank - 2;
        for (int i = 0; i < nd; i++) {
            if (t.dims[2 + i] == 0)
                return ox_unsupported(cx, "spatial axis %d is empty, which no pool's window "
                                          "can be", i);
            kernel[i] = t.dims[2 + i];
            strides[i] = dil[i] = 1;
            pads[i] = pads[nd + i] = 0;
        }
    } else {
        const int64_t *ks;
        size_t nk;
        int rc = ox_attr_ints(cx, "kernel_shape", &ks, &nk);
        TRY(rc);
        if (rc == 0)
            return ox_fail(cx, "attribute 'kernel_shape' is required");
        if (nk < 1 || nk > 3)
            return ox_unsupported(cx, "%zu spatial axes; byoc maps 1 to 3", nk);
        nd = (int)nk;
        struct {
            const char *name;
            int64_t *out;
            int count;
            int64_t def;
        } lists[3] = {{"strides", strides, nd, 1}, {"dilations", dil, nd, 1},
                      {"pads", pads, 2 * nd, 0}};
        for (int i = 0; i < nd; i++) {
            if (ks[i] < 1)
                return ox_fail(cx, "attribute 'kernel_shape' has the value %lld",
                               (long long)ks[i]);
            kernel[i] = ks[i];
        }
        for (int l = 0; l < 3; l++) {
            const int64_t *v;
            size_t n;
            TRY(rc = ox_attr_ints(cx, lists[l].name, &v, &n));
            if (rc > 0 && (int)n != lists[l].count)
                return ox_fail(cx, "attribute '%s' has %zu values; expected %d", lists[l].name,
                               n, lists[l].count);
            for (int i = 0; i < lists[l].count; i++) {
                int64_t x = rc > 0 ? v[i] : lists[l].def;
                if (x < lists[l].def)
                    return ox_fail(cx, "attribute '%s' has the value %lld", lists[l].name,
                                   (long long)x);
                lists[l].out[i] = x;
            }
        }
        TRY(ox_attr_int(cx, "ceil_mode", 0, &ceil_mode));
        const char *mode;
        TRY(ox_attr_string(cx, "auto_pad", "NOTSET", &mode));
        if (!strcmp(mode, "VALID")) {
            for (int i = 0; i < 2 * nd; i++)
                pads[i] = 0;
        } else if (!strcmp(mode, "SAME_UPPER") || !strcmp(mode, "SAME_LOWER")) {
            /* ONNX's rule, as for the other pools: out = ceil(in / stride). */
            if (t.rank != nd + 2 || !dims_known(&t, 2, t.rank))
                return ox_unsupported(cx, "auto_pad %s needs the input's spatial sizes", mode);
            for (int i = 0; i < nd; i++) {
                int64_t total;
                if (!ox_same_pad_total(t.dims[2 + i], kernel[i], strides[i], dil[i], &total))
                    return ox_fail(cx, "kernel_shape and dilations take spatial axis %d past "
                                       "2^63 - 1", i);
                bool lower = mode[5] == 'L';
                pads[i] = lower ? total - total / 2 : total / 2;
                pads[nd + i] = total - pads[i];
            }
        } else if (strcmp(mode, "NOTSET") != 0 && mode[0]) {
            return ox_fail(cx, "attribute 'auto_pad' is '%s'; expected NOTSET, SAME_UPPER, "
                               "SAME_LOWER or VALID", mode);
        }
    }
    if (t.rank >= 0 && t.rank != nd + 2)
        return ox_fail(cx, "a %d-D window for an input of rank %d", nd, t.rank);
    TRY(ox_check_window(cx, nd, kernel, dil, pads, true));
    int64_t window = 1;
    for (int i = 0; i < nd; i++) {
        if (kernel[i] > INT64_MAX / window)
            return ox_fail(cx, "the window has too many elements");
        window *= kernel[i];
    }
    static const char *const ops[3] = {"nn.avg_pool1d", "nn.avg_pool2d", "nn.avg_pool3d"};
    static const char *const layouts[3] = {"NCW", "NCHW", "NCDHW"};
    byoc_dtype dt = dtype_of(cx, 0);
    int x = ox_arg(cx, 0);
    TRY(x);
    x = call2(cx, "power", x, ox_scalar(cx, dt, (double)p));
    int pool = call1(cx, ops[nd - 1], x);
    TRY(pool);
    TRY(ox_set_ints(cx, pool, "pool_size", kernel, (size_t)nd));
    TRY(ox_set_ints(cx, pool, "strides", strides, (size_t)nd));
    TRY(ox_set_ints(cx, pool, "dilation", dil, (size_t)nd));
    TRY(ox_set_ints(cx, pool, "padding", pads, (size_t)(2 * nd)));
    TRY(ox_set_string(cx, pool, "layout", layouts[nd - 1]));
    TRY(ox_set_bool(cx, pool, "ceil_mode", ceil_mode != 0));
    TRY(ox_set_bool(cx, pool, "count_include_pad", true));
    int out = call1(cx, "abs", pool);
    out = call2(cx, "multiply", out, ox_scalar(cx, dt, (double)window));
    out = call2(cx, "power", out, ox_scalar(cx, dt, 1.0 / (double)p));
    return define(cx, 0, out);
}

/* MaxUnpool: as TVM, zeros of the output's size with the input scattered
 * at its flat indices (scatter_elements on the flattened tensors), then
 * reshaped.  The output's spatial sizes are output_shape's or
 * (in - 1) * stride + kernel - pads, and the indices count in the
 * output's layout, as in ONNX Runtime and TVM.  TVM pairs the pads
 * wrongly, and makes its zeros in the output's shape and flattens them,
 * where these are made flat.  Shapes must be known. */
int ox_conv_max_unpool(ox_cx *cx)
{
    const int64_t *ks, *os = NULL;
    size_t nk, nos = 0;
    int rc = ox_attr_ints(cx, "kernel_shape", &ks, &nk);
    TRY(rc);
    if (rc == 0 || nk < 1 || nk > BYOC_MAX_RANK - 2)
        return ox_fail(cx, "attribute 'kernel_shape' is required, for 1 to %d axes",
                       BYOC_MAX_RANK - 2);
    if (!ox_in(cx, 0) || !ox_in(cx, 1))
        return ox_fail(cx, "inputs X and I are required");
    byoc_tensor_type t = type_of(cx, 0);
    int nd = (int)nk, r = nd + 2;
    if (t.rank >= 0 && t.rank != r)
        return ox_fail(cx, "a %d-D kernel for an input of rank %d", nd, t.rank);
    if (!dims_known(&t, 0, t.rank) || t.rank < 0)
        return ox_unsupported(cx, "the input's shape is not known");
    int s = input_ints(cx, 2, &os, &nos);
    if (s == IN_DYNAMIC)
        return ox_unsupported(cx, "output_shape is computed at run time");
    int64_t out[BYOC_MAX_RANK], strides[BYOC_MAX_RANK], pads[2 * BYOC_MAX_RANK];
    const int64_t *v;
    size_t n;
    TRY(rc = ox_attr_ints(cx, "strides", &v, &n));
    for (int i = 0; i < nd; i++)
        strides[i] = rc > 0 && n == nk ? v[i] : 1;
    TRY(rc = ox_attr_ints(cx, "pads", &v, &n));
    for (int i = 0; i < 2 * nd; i++)
        pads[i] = rc > 0 && n == 2 * nk ? v[i] : 0;
    if (s == IN_KNOWN) {
        if (nos != (size_t)r)
            return ox_fail(cx, "output_shape has %zu values for rank %d", nos, r);
        memcpy(out, os, sizeof(int64_t) * (size_t)r);
    } else {
        out[0] = t.dims[0];
        out[1] = t.dims[1];
        for (int i = 0; i < nd; i++) {
            int64_t o;
            if (strides[i] < 1 || ks[i] < 1 || pads[i] < 0 || pads[nd + i] < 0
                || !mul_ok(t.dims[2 + i] ? t.dims[2 + i] - 1 : 0, strides[i], &o)
                || o > INT64_MAX - ks[i])
                return ox_fail(cx, "bad kernel, strides or pads");
            out[2 + i] = o + ks[i] - pads[i] - pads[nd + i];
        }
    }
    int64_t total = 1;
    for (int i = 0; i < r; i++)
        if (out[i] < 0 || !mul_ok(total, out[i], &total))
            return ox_fail(cx, "the output's shape is not a size");
    static const int64_t flat = -1;
    byoc_dtype dt = dtype_of(cx, 0);
    int zeros = with_ints(cx, ox_call(cx, "zeros", NULL, 0), "shape", &total, 1);
    TRY(zeros);
    TRY(ox_set_dtype(cx, zeros, "dtype", dt));
    int idx = with_ints(cx, call1(cx, "reshape", ox_arg(cx, 1)), "newshape", &flat, 1);
    int x = with_ints(cx, call1(cx, "reshape", ox_arg(cx, 0)), "newshape", &flat, 1);
    int sc = call3(cx, "scatter_elements", zeros, idx, x);
    TRY(sc);
    TRY(ox_set_int(cx, sc, "axis", 0));
    TRY(ox_set_string(cx, sc, "reduction", "update"));
    return define(cx, 0, with_ints(cx, call1(cx, "reshape", sc), "newshape", out, (size_t)r));
}

/* ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp, ReduceSumSquare:
 * sum of abs(x), of x * x (then sqrt), sum then log, as TVM; and
 * LogSumExp as Relay's logsumexp builds it: m = max(x) kept, log(sum(exp(x
 * - m))) + m, squeezed unless keepdims.  `axes` is an attribute until
 * opset 18 and an input after. */
int ox_conv_reduce_more(ox_cx *cx)
{
    int64_t keepdims, noop;
    TRY(ox_attr_int(cx, "keepdims", 1, &keepdims));
    TRY(ox_attr_int(cx, "noop_with_empty_axes", 0, &noop));
    const int64_t *axes = NULL;
    size_t n = 0;
    if (cx->opset < 18) {
        TRY(ox_attr_ints(cx, "axes", &axes, &n));
    } else if (input_ints(cx, 1, &axes, &n) == IN_DYNAMIC) {
        return ox_unsupported(cx, "the axes are computed at run time");
    }
    if (n > BYOC_MAX_RANK)
        return ox_fail(cx, "%zu axes", n);
    if (n == 0 && noop)
        return ox_unsupported(cx, "noop_with_empty_axes with no axes");
    const char *op = cx->node->op_type + strlen("Reduce");
    bool lse = strcmp(op, "LogSumExp") == 0;
    int x = ox_arg(cx, 0), max = -1;
    TRY(x);
    if (!strcmp(op, "L1")) {
        x = call1(cx, "abs", x);
    } else if (!strcmp(op, "L2") || !strcmp(op, "SumSquare")) {
        x = call2(cx, "multiply", x, x);
    } else if (lse) {
        max = call1(cx, "max", x);
        if (n)
            TRY(ox_set_ints(cx, max, "axis", axes, n));
        TRY(ox_set_bool(cx, max, "keepdims", true));
        x = call1(cx, "exp", call2(cx, "subtract", x, max));
    }
    int node = call1(cx, "sum", x);
    TRY(node);
    if (n)
        TRY(ox_set_ints(cx, node, "axis", axes, n));
    TRY(ox_set_bool(cx, node, "keepdims", lse || keepdims));
    if (!strcmp(op, "L2"))
        node = call1(cx, "sqrt", node);
    else if (!strcmp(op, "LogSum"))
        node = call1(cx, "log", node);
    else if (lse) {
        node = call2(cx, "add", call1(cx, "log", node), max);
        if (!keepdims) {
            node = call1(cx, "squeeze", node);
            if (n)
                TRY(ox_set_ints(cx, node, "axis", axes, n));
        }
    }
    return define(cx, 0, node);
}

/* Hardmax: one_hot of the argmax, 1 at the largest element and 0
 * elsewhere, as TVM.  From opset 13 along `axis` (default -1); before,
 * on the input flattened to 2-D at `axis` (default 1), reshaped back. */
int ox_conv_hardmax(ox_cx *cx)
{
    bool v13 = cx->opset >= 13;
    int64_t axis;
    TRY(ox_attr_int(cx, "axis", v13 ? -1 : 1, &axis));
    byoc_tensor_type t = type_of(cx, 0);
    if (t.rank < 1)
        return t.rank < 0 ? ox_unsupported(cx, "the input's rank is not known")
                          : ox_fail(cx, "the input is a scalar");
    if (axis < -t.rank || axis >= t.rank)
        return ox_fail(cx, "attribute 'axis' is %lld for a tensor of rank %d", (long long)axis,
                       t.rank);
    axis = axis < 0 ? axis + t.rank : axis;
    /* Before opset 13, flattening from the last axis changes nothing. */
    bool flatten = !v13 && axis != t.rank - 1;
    int64_t depth = t.dims[axis], flat[2] = {1, 1};
    if (flatten) {
        if (!dims_known(&t, 0, t.rank))
            return ox_unsupported(cx, "flattening to 2-D and back needs the input's shape");
        for (int k = 0; k < t.rank; k++)
            if (!mul_ok(flat[k >= axis], t.dims[k], &flat[k >= axis]))
                return ox_fail(cx, "the input has too many elements");
        depth = flat[1];
    }
    if (depth < 0)
        return ox_unsupported(cx, "the size of the axis is not known");
    byoc_dtype dt = dtype_of(cx, 0);
    int x = ox_arg(cx, 0);
    TRY(x);
    int64_t a = flatten ? 1 : axis;
    if (flatten)
        x = with_ints(cx, call1(cx, "reshape", x), "newshape", flat, 2);
    int am = with_ints(cx, call1(cx, "argmax", x), "axis", &a, 1);
    int on = ox_scalar(cx, dt, 1.0), off = ox_scalar(cx, dt, 0.0);
    int oh = call3(cx, "one_hot", am, on, off);
    TRY(oh);
    TRY(ox_set_int(cx, oh, "depth", depth));
    TRY(ox_set_int(cx, oh, "axis", a));
    TRY(ox_set_dtype(cx, oh, "dtype", dt));
    if (flatten)
        oh = with_ints(cx, call1(cx, "reshape", oh), "newshape", t.dims, (size_t)t.rank);
    return define(cx, 0, oh);
}

/* ---- scans, scatters, shapes, creation ----------------------------------------------- */

/* CumSum: cumsum along the axis the second input holds, which must be a
 * constant (TVM evaluates it too); reverse is a reverse before and after,
 * as TVM. */
int ox_conv_cumsum(ox_cx *cx)
{
    const int64_t *v;
    size_t n;
    int s = input_ints(cx, 1, &v, &n);
    if (s == IN_ABSENT)
        return ox_fail(cx, "input 2 (the axis) is missing");
    if (s == IN_DYNAMIC)
        return ox_unsupported(cx, "the axis is computed at run time");
    if (n != 1)
        return ox_fail(cx, "the axis has %zu values; expected one", n);
    int64_t axis = v[0], exclusive, reverse;
    int rank = type_of(cx, 0).rank;
    if (rank >= 0 && (axis < -rank || axis >= rank))
        return ox_fail(cx, "the axis is %lld for a tensor of rank %d", (long long)axis, rank);
    TRY(ox_attr_int(cx, "exclusive", 0, &exclusive));
    TRY(ox_attr_int(cx, "reverse", 0, &reverse));
    int x = ox_arg(cx, 0);
    TRY(x);
    if (reverse)
        x = with_int(cx, call1(cx, "reverse", x), "axis", axis);
    int node = with_int(cx, call1(cx, "cumsum", x), "axis", axis);
    TRY(node);
    TRY(ox_set_bool(cx, node, "exclusive", exclusive != 0));
    if (reverse)
        node = with_int(cx, call1(cx, "reverse", node), "axis", axis);
    return define(cx, 0, node);
}

/* Trilu: trilu(x, k), k 0 when absent, as TVM. */
int ox_conv_trilu(ox_cx *cx)
{
    int64_t upper;
    TRY(ox_attr_int(cx, "upper", 1, &upper));
    int x = ox_arg(cx, 0);
    TRY(x);
    int k = ox_in(cx, 1) ? ox_arg(cx, 1) : ox_scalar(cx, BYOC_DT_INT64, 0);
    int node = call2(cx, "trilu", x, k);
    TRY(node);
    TRY(ox_set_bool(cx, node, "upper", upper != 0));
    return define(cx, 0, node);
}

/* ScatterND: scatter_nd, whose indices hold the index tuple on the first
 * axis where ONNX has it on the last: a transpose moves it, as in TVM.
 * reduction none is Relay's "update". */
int ox_conv_scatter_nd(ox_cx *cx)
{
    const char *red;
    TRY(ox_attr_string(cx, "reduction", "none", &red));
    static const char *const modes[] = {"add", "mul", "min", "max"};
    bool known = strcmp(red, "none") == 0;
    for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++)
        known = known || strcmp(red, modes[k]) == 0;
    if (!known)
        return ox_fail(cx, "attribute 'reduction' is '%s'; expected none, add, mul, min or max",
                       red);
    ox_value *idx = ox_in(cx, 1);
    if (!ox_in(cx, 0) || !idx || !ox_in(cx, 2))
        return ox_fail(cx, "inputs data, indices and updates are required");
    int r = ox_type(cx, idx).rank;
    if (r < 0)
        return ox_unsupported(cx, "the rank of the indices is not known");
    if (r < 1)
        return ox_fail(cx, "the indices are a scalar");
    int64_t perm[BYOC_MAX_RANK];
    perm[0] = r - 1;
    for (int k = 1; k < r; k++)
        perm[k] = k - 1;
    int data = ox_arg(cx, 0);
    TRY(data);
    int indices = r == 1 ? ox_node_of(cx, idx) : ox_transpose(cx, idx, perm, r);
    int node = call3(cx, "scatter_nd", data, indices, ox_arg(cx, 2));
    TRY(node);
    TRY(ox_set_string(cx, node, "mode", known && strcmp(red, "none") ? red : "update"));
    return define(cx, 0, node);
}

/* Scatter (opsets 9-10, ScatterElements since): scatter_elements, as TVM. */
int ox_conv_scatter(ox_cx *cx)
{
    int64_t axis;
    TRY(ox_attr_int(cx, "axis", 0, &axis));
    TRY(ox_check_axis(cx, "attribute 'axis'", axis, type_of(cx, 0).rank));
    int data = ox_arg(cx, 0);
    TRY(data);
    int idx = ox_arg(cx, 1);
    TRY(idx);
    int node = call3(cx, "scatter_elements", data, idx, ox_arg(cx, 2));
    TRY(node);
    TRY(ox_set_int(cx, node, "axis", axis));
    TRY(ox_set_string(cx, node, "reduction", "update"));
    return define(cx, 0, node);
}

/* OneHot: one_hot with depth from the second input, which must be a
 * constant, and off and on values from the third.  As TVM, negative
 * indices count from depth (where(i < 0, i + depth, i)).  Known values
 * become scalars; others are taken from the input. */
int ox_conv_one_hot(ox_cx *cx)
{
    ox_value *dv = ox_in(cx, 1), *vv = ox_in(cx, 2);
    if (!ox_in(cx, 0) || !dv || !vv)
        return ox_fail(cx, "inputs indices, depth and values are required");
    const ox_tensor *d = ox_data(cx, dv), *vals = ox_data(cx, vv);
    if (d && !d->f && !d->i)
        d = NULL;
    if (vals && !vals->f && !vals->i)
        vals = NULL;
    if (!d || d->n != 1)
        return ox_unsupported(cx, "depth is computed at run time");
    double depth = d->f ? d->f[0] : (double)d->i[0];
    if (!(depth >= 1 && depth < 1e15))
        return ox_fail(cx, "depth is %g", depth);
    if (vals && vals->n != 2)
        return ox_fail(cx, "values has %zu elements; expected off and on", vals->n);
    int64_t axis;
    TRY(ox_attr_int(cx, "axis", -1, &axis));
    byoc_tensor_type it = type_of(cx, 0), vt = ox_type(cx, vv);
    if (it.rank >= 0 && (axis < -it.rank - 1 || axis > it.rank))
        return ox_fail(cx, "attribute 'axis' is %lld for indices of rank %d", (long long)axis,
                       it.rank);
    if (axis < 0 && it.rank < 0)
        return ox_unsupported(cx, "a negative axis needs the rank of the indices");
    axis = axis < 0 ? axis + it.rank + 1 : axis;
    byoc_dtype dt = vt.dtype == BYOC_DT_VOID ? BYOC_DT_FLOAT32 : vt.dtype;
    byoc_dtype idt = dtype_of(cx, 0);
    int ind = ox_arg(cx, 0);
    TRY(ind);
    int zero = ox_scalar(cx, idt, 0.0);
    int neg = call2(cx, "less", ind, zero);
    int wrapped = call2(cx, "add", ind, ox_scalar(cx, idt, depth));
    ind = call3(cx, "where", neg, wrapped, ind);
    int off, on;
    if (vals) {
        off = ox_scalar(cx, dt, vals->f ? vals->f[0] : (double)vals->i[0]);
        on = ox_scalar(cx, dt, vals->f ? vals->f[1] : (double)vals->i[1]);
    } else {
        int values = ox_node_of(cx, vv);
        off = with_int(cx, call2(cx, "take", values, ox_scalar(cx, BYOC_DT_INT64, 0)), "axis", 0);
        on = with_int(cx, call2(cx, "take", values, ox_scalar(cx, BYOC_DT_INT64, 1)), "axis", 0);
    }
    int node = call3(cx, "one_hot", ind, on, off);
    TRY(node);
    TRY(ox_set_int(cx, node, "depth", (int64_t)depth));
    TRY(ox_set_int(cx, node, "axis", axis));
    TRY(ox_set_dtype(cx, node, "dtype", dt));
    return define(cx, 0, node);
}

/* EyeLike: zeros of the input's shape with ones scattered on diagonal k
 * (scatter_nd of the stacked row and column aranges), as TVM, which needs
 * the input's shape.  TVM's diagonal always has as many elements as rows,
 * which for k != 0 runs off the matrix; here it has the length that fits,
 * min(rows, cols - k) or min(rows + k, cols), starting at row -k for a
 * negative k, and none at all is the zeros alone. */
int ox_conv_eye_like(ox_cx *cx)
{
    byoc_tensor_type t = type_of(cx, 0);
    int64_t k, to;
    TRY(ox_attr_int(cx, "k", 0, &k));
    int rc = ox_attr_int(cx, "dtype", 0, &to);
    TRY(rc);
    byoc_dtype dt = t.dtype;
    if (rc > 0) {
        int d = ox_dtype(to);
        if (d < 0)
            return ox_fail(cx, "attribute 'dtype' is ONNX element type %lld, which byoc does "
                               "not support", (long long)to);
        dt = (byoc_dtype)d;
    }
    if (t.rank >= 0 && t.rank != 2)
        return ox_fail(cx, "the input has rank %d; expected 2", t.rank);
    if (!dims_known(&t, 0, 2) || dt == BYOC_DT_VOID)
        return ox_unsupported(cx, "the input's shape or type is not known");
    if (!ox_in(cx, 0))
        return ox_fail(cx, "input 1 is missing");
    int64_t rows = t.dims[0], cols = t.dims[1];
    if (k > cols || k < -rows)
        k = k > 0 ? cols : -rows;
    int64_t start = k < 0 ? -k : 0;
    int64_t avail_rows = k < 0 ? rows + k : rows, avail_cols = k > 0 ? cols - k : cols;
    int64_t len = avail_rows < avail_cols ? avail_rows : avail_cols;
    int zeros = with_ints(cx, ox_call(cx, "zeros", NULL, 0), "shape", t.dims, 2);
    TRY(zeros);
    TRY(ox_set_dtype(cx, zeros, "dtype", dt));
    if (len <= 0)
        return define(cx, 0, zeros);
    int a0 = ox_scalar(cx, BYOC_DT_INT64, (double)start);
    int a1 = ox_scalar(cx, BYOC_DT_INT64, (double)(start + len));
    int a2 = ox_scalar(cx, BYOC_DT_INT64, 1.0);
    int r = call3(cx, "arange", a0, a1, a2);
    TRY(r);
    TRY(ox_set_dtype(cx, r, "dtype", BYOC_DT_INT64));
    int c = call2(cx, "add", r, ox_scalar(cx, BYOC_DT_INT64, (double)k));
    int idx[2] = {r, c};
    int indices = stack(cx, idx, 2, 0);
    int ones = with_ints(cx, call1(cx, "full", ox_scalar(cx, dt, 1.0)), "shape", &len, 1);
    TRY(ones);
    TRY(ox_set_dtype(cx, ones, "dtype", dt));
    int node = call3(cx, "scatter_nd", zeros, indices, ones);
    TRY(node);
    TRY(ox_set_string(cx, node, "mode", "update"));
    return define(cx, 0, node);
}

/* ReverseSequence: reverse_sequence, time_axis as seq_axis. */
int ox_conv_reverse_sequence(ox_cx *cx)
{
    int64_t time_axis, batch_axis;
    TRY(ox_attr_int(cx, "time_axis", 0, &time_axis));
    TRY(ox_attr_int(cx, "batch_axis", 1, &batch_axis));
    if ((time_axis != 0 && time_axis != 1) || batch_axis != 1 - time_axis)
        return ox_fail(cx, "time_axis %lld and batch_axis %lld; expected 0 and 1, or 1 and 0",
                       (long long)time_axis, (long long)batch_axis);
    int x = ox_arg(cx, 0);
    TRY(x);
    int node = call2(cx, "reverse_sequence", x, ox_arg(cx, 1));
    TRY(node);
    TRY(ox_set_int(cx, node, "seq_axis", time_axis));
    TRY(ox_set_int(cx, node, "batch_axis", batch_axis));
    return define(cx, 0, node);
}

/* CenterCropPad (opset 18): each listed axis cropped to the target size
 * around its centre (strided_slice) or padded with zeros on both sides
 * (nn.pad), the odd element at the end either way, as the reference; a
 * node that changes nothing is its input.  The target shape must be a
 * constant and the input's sizes on those axes known. */
int ox_conv_center_crop_pad(ox_cx *cx)
{
    const int64_t *shape, *axes = NULL;
    size_t n, na = 0;
    int s = input_ints(cx, 1, &shape, &n);
    if (!ox_in(cx, 0) || s == IN_ABSENT)
        return ox_fail(cx, "inputs 1 and 2 (the shape) are required");
    if (s == IN_DYNAMIC)
        return ox_unsupported(cx, "the target shape is computed at run time");
    TRY(ox_attr_ints(cx, "axes", &axes, &na));
    byoc_tensor_type t = type_of(cx, 0);
    if (t.rank < 0)
        return ox_unsupported(cx, "the input's rank is not known");
    size_t want = axes ? na : (size_t)t.rank;
    if (n != want)
        return ox_fail(cx, "%zu target sizes for %zu axes", n, want);
    int64_t begin[BYOC_MAX_RANK], end[BYOC_MAX_RANK], cut_axes[BYOC_MAX_RANK];
    int64_t ones[BYOC_MAX_RANK] = {1, 1, 1, 1, 1, 1, 1, 1};
    int64_t pads[2 * BYOC_MAX_RANK] = {0};
    int ncut = 0;
    bool pad = false, seen[BYOC_MAX_RANK] = {false};
    for (size_t k = 0; k < want; k++) {
        int64_t a = axes ? axes[k] : (int64_t)k;
        a = a < 0 ? a + t.rank : a;
        if (a < 0 || a >= t.rank || seen[a])
            return ox_fail(cx, "axis %lld is out of range or repeated", (long long)a);
        seen[a] = true;
        int64_t dim = t.dims[a], sh = shape[k];
        if (sh < 0)
            return ox_fail(cx, "the target size %lld is negative", (long long)sh);
        if (dim < 0)
            return ox_unsupported(cx, "the size of axis %lld is not known", (long long)a);
        if (sh < dim) {
            begin[ncut] = (dim - sh) / 2;
            end[ncut] = begin[ncut] + sh;
            cut_axes[ncut++] = a;
        } else if (sh > dim) {
            pads[2 * a] = (sh - dim) / 2;
            pads[2 * a + 1] = sh - dim - pads[2 * a];
            pad = true;
        }
    }
    if (!ncut && !pad) {
        ox_alias(cx, 0, ox_in(cx, 0));
        return 0;
    }
    int x = ox_arg(cx, 0);
    TRY(x);
    if (ncut) {
        x = with_ints(cx, call1(cx, "strided_slice", x), "begin", begin, (size_t)ncut);
        x = with_ints(cx, x, "end", end, (size_t)ncut);
        x = with_ints(cx, x, "axes", cut_axes, (size_t)ncut);
        /* One stride per axis: strided_slice's lists go together. */
        x = with_ints(cx, x, "strides", ones, (size_t)ncut);
    }
    if (pad) {
        x = call2(cx, "nn.pad", x, ox_scalar(cx, dtype_of(cx, 0), 0.0));
        TRY(x);
        TRY(ox_set_pairs(cx, x, "pad_width", pads, (size_t)t.rank));
    }
    return define(cx, 0, x);
}

/* HannWindow, HammingWindow, BlackmanWindow (opset 17): the window's
 * cosines over arange(size), as the ONNX reference computes them:
 * sin^2(pi n / N) for Hann, 25/46 - 21/46 cos(2 pi n / N) for Hamming,
 * 0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N) for Blackman, with N
 * the size, less one unless periodic; computed in float32 and cast to
 * output_datatype.  The size must be a constant. */
int ox_conv_window(ox_cx *cx)
{
    const int64_t *v;
    size_t n;
    int s = input_ints(cx, 0, &v, &n);
    if (s == IN_ABSENT)
        return ox_fail(cx, "input 1 (the size) is missing");
    if (s == IN_DYNAMIC)
        return ox_unsupported(cx, "the size is computed at run time");
    if (n != 1 || v[0] < 0 || v[0] > (int64_t)1 << 40)
        return ox_fail(cx, "the size is not one count");
    int64_t size = v[0], periodic, to;
    TRY(ox_attr_int(cx, "periodic", 1, &periodic));
    TRY(ox_attr_int(cx, "output_datatype", 1, &to));
    int dt = ox_dtype(to);
    if (dt < 0)
        return ox_fail(cx, "attribute 'output_datatype' is ONNX element type %lld, which byoc "
                           "does not support", (long long)to);
    const double pi = 3.14159265358979323846, N = (double)(periodic ? size : size - 1);
    if (N <= 0)
        return ox_unsupported(cx, "a window of %lld element%s has no period", (long long)size,
                              size == 1 ? "" : "s");
    const byoc_dtype f = BYOC_DT_FLOAT32;
    int a0 = ox_scalar(cx, f, 0.0), a1 = ox_scalar(cx, f, (double)size);
    int a2 = ox_scalar(cx, f, 1.0);
    int ni = call3(cx, "arange", a0, a1, a2);
    TRY(ni);
    TRY(ox_set_dtype(cx, ni, "dtype", f));
    int y;
    if (is_op(cx, "HannWindow")) {
        int sn = call1(cx, "sin", call2(cx, "multiply", ni, ox_scalar(cx, f, pi / N)));
        y = call2(cx, "multiply", sn, sn);
    } else {
        int c = call1(cx, "cos", call2(cx, "multiply", ni, ox_scalar(cx, f, 2 * pi / N)));
        bool hamming = is_op(cx, "HammingWindow");
        y = call2(cx, "multiply", c, ox_scalar(cx, f, hamming ? -21.0 / 46 : -0.5));
        y = call2(cx, "add", y, ox_scalar(cx, f, hamming ? 25.0 / 46 : 0.42));
        if (!hamming) {
            int c2 = call1(cx, "cos", call2(cx, "multiply", ni, ox_scalar(cx, f, 4 * pi / N)));
            y = call2(cx, "add", y, call2(cx, "multiply", c2, ox_scalar(cx, f, 0.08)));
        }
    }
    if (dt != (int)f) {
        y = call1(cx, "cast", y);
        TRY(y);
        TRY(ox_set_dtype(cx, y, "dtype", (byoc_dtype)dt));
    }
    return define(cx, 0, y);
}

/* ---- recurrent layers ---------------------------------------------------------------- */

/* RNN, GRU and LSTM, unrolled over the time steps as TVM's rnn_cell,
 * gru_cell and lstm_cell: the input is split into its steps (split and
 * squeeze), each step is nn.dense on the input and the hidden state plus
 * the gates' elementwise ops, and the outputs are stacked back.  Each
 * direction of a bidirectional layer is one such chain, the reverse one
 * taking the steps last to first.
 *
 * Departures from TVM: the weights of a direction are split, squeezed,
 * sliced per gate and (LSTM) concatenated once, not at every step, and in
 * ONNX's gate order (LSTM i, o, f, c; GRU z, r, h) rather than permuted
 * into TVM's; TVM's FoldConstant folds all of that on the constant weights
 * anyway.  A missing initial state is zeros of [batch, hidden] that the
 * directions share, not one [directions, batch, hidden] tensor split; when
 * the batch size is not known, zeros_like of a [batch, 1] slice of the
 * input plus zeros of [hidden].  layout 1
 * transposes the batch and time axes of the input and initial states, and
 * the outputs back, with the full permutation (TVM passes (1, 0), which
 * does not fit a 3-D tensor).  The cell clip, which TVM ignores, clips
 * each activation's input.  TVM ignores sequence_lens for RNN and LSTM
 * and masks GRU's steps with it; here all three mask it the same way: a
 * step past a sequence's length outputs zeros and keeps the state
 * (multiply by the mask, add the old state times 1 - mask), and a
 * backward pass runs over the sequences reversed within their lengths
 * (reverse_sequence before and after).  LSTM's input_forget leaves the
 * node opaque. */

enum { RNN_MAX_STEPS = 4096 };

typedef struct rnn_act {
    const char *name;
    double alpha, beta;
} rnn_act;

/* The activations ONNX lists for recurrent layers, with their defaults. */
static const struct {
    const char *name;
    int nparams;                /* 0, alpha, or alpha and beta */
    double alpha, beta;
} rnn_acts[] = {
    {"Relu", 0, 0, 0},           {"Tanh", 0, 0, 0},           {"Sigmoid", 0, 0, 0},
    {"Affine", 2, 1.0, 0.0},     {"LeakyRelu", 1, 0.01, 0},   {"ThresholdedRelu", 1, 1.0, 0},
    {"ScaledTanh", 2, 1.0, 1.0}, {"HardSigmoid", 2, 0.2, 0.5}, {"Elu", 1, 1.0, 0},
    {"Softsign", 0, 0, 0},       {"Softplus", 0, 0, 0},
};

static int rnn_activate(ox_cx *cx, const rnn_act *a, double clip, byoc_dtype dt, int x)
{
    if (clip >= 0) {
        x = call1(cx, "clip", x);
        TRY(x);
        TRY(ox_set_float(cx, x, "a_min", -clip));
        TRY(ox_set_float(cx, x, "a_max", clip));
    }
    const char *n = a->name;
    if (!strcmp(n, "Relu"))
        return call1(cx, "nn.relu", x);
    if (!strcmp(n, "Tanh"))
        return call1(cx, "tanh", x);
    if (!strcmp(n, "Sigmoid"))
        return call1(cx, "sigmoid", x);
    if (!strcmp(n, "Affine")) {
        x = call2(cx, "multiply", x, ox_scalar(cx, dt, a->alpha));
        return call2(cx, "add", x, ox_scalar(cx, dt, a->beta));
    }
    if (!strcmp(n, "LeakyRelu")) {
        int node = call1(cx, "nn.leaky_relu", x);
        TRY(node);
        TRY(ox_set_float(cx, node, "alpha", a->alpha));
        return node;
    }
    if (!strcmp(n, "ThresholdedRelu"))
        return thresholded_relu(cx, dt, x, a->alpha);
    if (!strcmp(n, "ScaledTanh")) {
        x = call1(cx, "tanh", call2(cx, "multiply", x, ox_scalar(cx, dt, a->beta)));
        return call2(cx, "multiply", x, ox_scalar(cx, dt, a->alpha));
    }
    if (!strcmp(n, "HardSigmoid"))
        return hard_sigmoid(cx, dt, x, a->alpha, a->beta);
    if (!strcmp(n, "Elu"))
        return elu(cx, dt, x, a->alpha);
    if (!strcmp(n, "Softsign"))
        return softsign(cx, dt, x);
    return softplus(cx, dt, x);
}

/* The activations attribute, `per` for each of nd directions, with the
 * alphas and betas handed out in order to those that take them; the
 * defaults when absent.  1 (unsupported) for an activation not listed. */
static int rnn_activations(ox_cx *cx, int per, int nd, const char *const *defaults,
                           rnn_act *acts)
{
    const ox_attr *names = ox_attr_find(cx->node, "activations");
    const double *alphas = NULL, *betas = NULL;
    size_t na = 0, nb = 0;
    TRY(ox_attr_floats(cx, "activation_alpha", &alphas, &na));
    TRY(ox_attr_floats(cx, "activation_beta", &betas, &nb));
    if (!names) {
        for (int i = 0; i < per * nd; i++)
            acts[i] = (rnn_act){defaults[i % per], 0, 0};
        return 0;
    }
    if (names->type != OX_AT_STRINGS)
        return ox_fail(cx, "attribute 'activations' should be a list of strings");
    if (names->n != (size_t)(per * nd))
        return ox_fail(cx, "attribute 'activations' has %zu names; expected %d", names->n,
                       per * nd);
    size_t ia = 0, ib = 0;
    for (int i = 0; i < per * nd; i++) {
        const char *n = names->strings[i];
        size_t k = 0, count = sizeof rnn_acts / sizeof rnn_acts[0];
        while (k < count && strcmp(rnn_acts[k].name, n) != 0)
            k++;
        if (k == count)
            return ox_unsupported(cx, "activation '%s' is not mapped", n);
        acts[i] = (rnn_act){rnn_acts[k].name, rnn_acts[k].alpha, rnn_acts[k].beta};
        if (rnn_acts[k].nparams >= 1 && ia < na)
            acts[i].alpha = alphas[ia++];
        if (rnn_acts[k].nparams >= 2 && ib < nb)
            acts[i].beta = betas[ib++];
    }
    return 0;
}

/* Direction d of a [directions, ...] tensor: squeezed, split first when
 * there are two. */
static int rnn_direction(ox_cx *cx, int x, int nd, int d)
{
    if (nd == 2)
        x = ox_proj(cx, split_n(cx, x, 2, 0), d);
    return squeeze0(cx, x);
}

typedef struct rnn_layer {
    int kind;                   /* 0 RNN, 1 GRU, 2 LSTM */
    int64_t hidden;
    byoc_dtype dt;
    double clip;                /* < 0: none */
    bool lbr;                   /* GRU's linear_before_reset */
} rnn_layer;

typedef struct rnn_dir {
    int w, r, wb, rb;           /* weights; biases -1 when absent */
    int h, c;                   /* the state */
    /* GRU without linear_before_reset: R by gate (z, r, h), the z and r
     * biases of W and R summed, and the h biases. */
    int gate_r[3], bias_sum[2], wb_h, rb_h;
    int cat_w;                  /* LSTM: [W R] */
    int p[3];                   /* LSTM peepholes i, o, f; -1 when absent */
    const rnn_act *acts;
} rnn_dir;

/* A projection of a split into n along the last axis. */
static int part(ox_cx *cx, int tuple, int i)
{
    return ox_proj(cx, tuple, i);
}

static int dense(ox_cx *cx, int x, int w)
{
    return call2(cx, "nn.dense", x, w);
}

/* One time step of direction s: the new hidden state (and s->c for an
 * LSTM). */
static int rnn_step(ox_cx *cx, const rnn_layer *L, rnn_dir *s, int x)
{
    const rnn_act *A = s->acts;
    byoc_dtype dt = L->dt;
    int h = s->h;
    if (L->kind == 0) {
        int xw = dense(cx, x, s->w);
        int hw = dense(cx, h, s->r);
        if (s->wb >= 0) {
            xw = call2(cx, "add", xw, s->wb);
            hw = call2(cx, "add", hw, s->rb);
        }
        return rnn_activate(cx, &A[0], L->clip, dt, call2(cx, "add", xw, hw));
    }
    if (L->kind == 1) {
        int xw = dense(cx, x, s->w), z, r, n;
        if (L->lbr) {
            int hw = dense(cx, h, s->r);
            if (s->wb >= 0) {
                xw = call2(cx, "add", xw, s->wb);
                hw = call2(cx, "add", hw, s->rb);
            }
            int xp = split_n(cx, xw, 3, -1);
            int hp = split_n(cx, hw, 3, -1);
            int xr = part(cx, xp, 1), hr = part(cx, hp, 1);
            r = rnn_activate(cx, &A[0], L->clip, dt, call2(cx, "add", xr, hr));
            int xz = part(cx, xp, 0), hz = part(cx, hp, 0);
            z = rnn_activate(cx, &A[0], L->clip, dt, call2(cx, "add", xz, hz));
            int rh = call2(cx, "multiply", r, part(cx, hp, 2));
            int xn = part(cx, xp, 2);
            n = rnn_activate(cx, &A[1], L->clip, dt, call2(cx, "add", xn, rh));
        } else {
            int xp = split_n(cx, xw, 3, 1);
            int xr = part(cx, xp, 1);
            r = call2(cx, "add", xr, dense(cx, h, s->gate_r[1]));
            int xz = part(cx, xp, 0);
            z = call2(cx, "add", xz, dense(cx, h, s->gate_r[0]));
            int in = part(cx, xp, 2), hn;
            if (s->wb >= 0) {
                r = call2(cx, "add", r, s->bias_sum[1]);
            r = rnn_activate(cx, &A[0], L->clip, dt, r);
                z = call2(cx, "add", z, s->bias_sum[0]);
                in = call2(cx, "add", in, s->wb_h);
                hn = dense(cx, call2(cx, "multiply", r, h), s->gate_r[2]);
                hn = call2(cx, "add", hn, s->rb_h);
            } else {
                r = rnn_activate(cx, &A[0], L->clip, dt, r);
                hn = dense(cx, call2(cx, "multiply", r, h), s->gate_r[2]);
            }
            z = rnn_activate(cx, &A[0], L->clip, dt, z);
            n = rnn_activate(cx, &A[1], L->clip, dt, call2(cx, "add", in, hn));
        }
        /* (h - n) * z + n, TVM's form of (1 - z) * n + z * h. */
        int t = call2(cx, "multiply", call2(cx, "subtract", h, n), z);
        return call2(cx, "add", t, n);
    }
    int xh[2] = {x, h};
    int gates = dense(cx, with_int(cx, call1(cx, "concatenate", ox_tuple(cx, xh, 2)), "axis", 1),
                      s->cat_w);
    if (s->wb >= 0) {
        gates = call2(cx, "add", gates, s->wb);
        gates = call2(cx, "add", gates, s->rb);
    }
    int g4 = split_n(cx, gates, 4, -1);
    int i = part(cx, g4, 0), o = part(cx, g4, 1), f = part(cx, g4, 2), c = part(cx, g4, 3);
    if (s->p[0] >= 0) {
        i = call2(cx, "add", i, call2(cx, "multiply", s->p[0], s->c));
        f = call2(cx, "add", f, call2(cx, "multiply", s->p[2], s->c));
    }
    i = rnn_activate(cx, &A[0], L->clip, dt, i);
    f = rnn_activate(cx, &A[0], L->clip, dt, f);
    c = rnn_activate(cx, &A[1], L->clip, dt, c);
    int fc = call2(cx, "multiply", f, s->c);
    s->c = call2(cx, "add", fc, call2(cx, "multiply", i, c));
    if (s->p[1] >= 0)
        o = call2(cx, "add", o, call2(cx, "multiply", s->p[1], s->c));
    o = rnn_activate(cx, &A[0], L->clip, dt, o);
    return call2(cx, "multiply", o, rnn_activate(cx, &A[2], L->clip, dt, s->c));
}

/* A direction's weights and state, made once before its steps. */
static int rnn_prepare(ox_cx *cx, const rnn_layer *L, int nd, int d, const int *in, int zero_h,
                       rnn_dir *s)
{
    s->w = rnn_direction(cx, in[1], nd, d);
    s->r = rnn_direction(cx, in[2], nd, d);
    s->wb = s->rb = -1;
    if (in[3] >= 0) {
        int b2 = split_n(cx, rnn_direction(cx, in[3], nd, d), 2, -1);
        s->wb = part(cx, b2, 0);
        s->rb = part(cx, b2, 1);
        TRY(s->rb);
    }
    s->h = in[5] >= 0 ? rnn_direction(cx, in[5], nd, d) : zero_h;
    TRY(s->h);
    if (L->kind == 1 && !L->lbr) {
        int rp = split_n(cx, s->r, 3, 0);
        for (int g = 0; g < 3; g++)
            TRY(s->gate_r[g] = part(cx, rp, g));
        if (s->wb >= 0) {
            int wp = split_n(cx, s->wb, 3, -1), bp = split_n(cx, s->rb, 3, -1);
            for (int g = 0; g < 2; g++) {
                int wg = part(cx, wp, g), rg = part(cx, bp, g);
                TRY(s->bias_sum[g] = call2(cx, "add", wg, rg));
            }
            s->wb_h = part(cx, wp, 2);
            TRY(s->rb_h = part(cx, bp, 2));
        }
    }
    if (L->kind == 2) {
        s->c = in[6] >= 0 ? rnn_direction(cx, in[6], nd, d) : call1(cx, "zeros_like", s->h);
        int wr[2] = {s->w, s->r};
        TRY(s->cat_w = with_int(cx, call1(cx, "concatenate", ox_tuple(cx, wr, 2)), "axis", 1));
        s->p[0] = s->p[1] = s->p[2] = -1;
        if (in[7] >= 0) {
            int pp = split_n(cx, rnn_direction(cx, in[7], nd, d), 3, -1);
            for (int g = 0; g < 3; g++)
                TRY(s->p[g] = part(cx, pp, g));
        }
        TRY(s->c);
    }
    return 0;
}

int ox_conv_rnn(ox_cx *cx)
{
    rnn_layer L = {.kind = is_op(cx, "RNN") ? 0 : is_op(cx, "GRU") ? 1 : 2, .clip = -1};
    static const int ngates[3] = {1, 3, 4}, nacts[3] = {1, 2, 3};
    static const char *const defaults[3][3] = {
        {"Tanh"}, {"Sigmoid", "Tanh"}, {"Sigmoid", "Tanh", "Tanh"}};
    int G = ngates[L.kind];
    const char *dir;
    int64_t layout = 0, hidden, lbr = 0, input_forget = 0;
    TRY(ox_attr_string(cx, "direction", "forward", &dir));
    int nd = !strcmp(dir, "bidirectional") ? 2 : 1;
    bool reverse = !strcmp(dir, "reverse");
    if (nd == 1 && !reverse && strcmp(dir, "forward") != 0)
        return ox_fail(cx, "attribute 'direction' is '%s'; expected forward, reverse or "
                           "bidirectional", dir);
    if (cx->opset >= 14)
        TRY(ox_attr_int(cx, "layout", 0, &layout));
    if (layout != 0 && layout != 1)
        return ox_fail(cx, "attribute 'layout' is %lld; expected 0 or 1", (long long)layout);
    int rc = ox_attr_int(cx, "hidden_size", -1, &hidden);
    TRY(rc);
    if (rc > 0 && hidden < 1)
        return ox_fail(cx, "attribute 'hidden_size' is %lld", (long long)hidden);
    if (L.kind == 1)
        TRY(ox_attr_int(cx, "linear_before_reset", 0, &lbr));
    L.lbr = lbr != 0;
    if (L.kind == 2)
        TRY(ox_attr_int(cx, "input_forget", 0, &input_forget));
    if (ox_attr_find(cx->node, "clip")) {
        TRY(ox_attr_float(cx, "clip", 0, &L.clip));
        if (!(L.clip >= 0))
            return ox_fail(cx, "attribute 'clip' is negative");
    }
    rnn_act acts[6];
    TRY(rc = rnn_activations(cx, nacts[L.kind], nd, defaults[L.kind], acts));
    if (rc > 0)
        return rc;

    /* Shapes: X [seq, batch, input] ([batch, seq, input] for layout 1),
     * W [nd, G * hidden, input], R [nd, G * hidden, hidden]. */
    if (!ox_in(cx, 0) || !ox_in(cx, 1) || !ox_in(cx, 2))
        return ox_fail(cx, "inputs X, W and R are required");
    byoc_tensor_type xt = type_of(cx, 0), wt = type_of(cx, 1), rt = type_of(cx, 2);
    if ((xt.rank >= 0 && xt.rank != 3) || (wt.rank >= 0 && wt.rank != 3)
        || (rt.rank >= 0 && rt.rank != 3))
        return ox_fail(cx, "X, W and R should have rank 3, not %d, %d and %d", xt.rank, wt.rank,
                       rt.rank);
    if (xt.rank < 0 || rt.rank < 0)
        return ox_unsupported(cx, "the shapes of X and R are not known");
    if (hidden < 0)
        hidden = rt.dims[2];
    if (hidden < 1)
        return hidden < 0 ? ox_unsupported(cx, "the hidden size is not known")
                          : ox_fail(cx, "hidden_size is 0");
    /* Gate and bias sizes below are 2 * G * hidden at most. */
    if (hidden > INT64_MAX / 8 / G)
        return ox_fail(cx, "hidden_size %lld is too large", (long long)hidden);
    if ((rt.dims[2] >= 0 && rt.dims[2] != hidden)
        || (rt.dims[1] >= 0 && rt.dims[1] != G * hidden)
        || (wt.rank == 3 && wt.dims[1] >= 0 && wt.dims[1] != G * hidden))
        return ox_fail(cx, "W and R do not hold %d gates of hidden size %lld", G,
                       (long long)hidden);
    if ((wt.rank == 3 && wt.dims[0] >= 0 && wt.dims[0] != nd)
        || (rt.dims[0] >= 0 && rt.dims[0] != nd))
        return ox_fail(cx, "W and R do not hold %d direction%s", nd, nd > 1 ? "s" : "");
    if (ox_in(cx, 3)) {
        byoc_tensor_type bt = type_of(cx, 3);
        if (bt.rank >= 0 && (bt.rank != 2 || (bt.dims[1] >= 0 && bt.dims[1] != 2 * G * hidden)))
            return ox_fail(cx, "B should be [%d, %lld]", nd, (long long)(2 * G * hidden));
    }
    int64_t seq = xt.dims[layout ? 1 : 0], batch = xt.dims[layout ? 0 : 1];
    if (seq < 1)
        return ox_unsupported(cx, seq == 0 ? "the sequence is empty"
                                           : "the sequence length is not known, so the "
                                             "steps cannot be unrolled");
    if (seq > RNN_MAX_STEPS)
        return ox_unsupported(cx, "%lld time steps; byoc unrolls at most %d", (long long)seq,
                              RNN_MAX_STEPS);
    /* And a budget for the whole model, so that a small file of many
     * long recurrent layers cannot unroll into millions of nodes. */
    if (!ox_unroll_budget(cx, seq * nd))
        return ox_unsupported(cx, "the model's recurrent layers unroll into more than %d steps "
                                  "in all; byoc unrolls no more",
                              OX_UNROLL_BUDGET);
    if (ox_in(cx, 4)) {
        byoc_tensor_type lt = type_of(cx, 4);
        bool bad_batch = lt.rank == 1 && lt.dims[0] >= 0 && batch >= 0 && lt.dims[0] != batch;
        if (lt.rank >= 0 && (lt.rank != 1 || bad_batch))
            return ox_fail(cx, "sequence_lens should be [batch]");
        if (lt.dtype != BYOC_DT_VOID && byoc_dtype_class(lt.dtype) != 'i')
            return ox_fail(cx, "sequence_lens should hold integers");
    }
    if (input_forget)
        return ox_unsupported(cx, "input_forget (coupled input and forget gates) is not mapped");
    if (L.kind == 2 && ox_in(cx, 7)) {
        byoc_tensor_type pt = type_of(cx, 7);
        if (pt.rank >= 0 && (pt.rank != 2 || (pt.dims[1] >= 0 && pt.dims[1] != 3 * hidden)))
            return ox_fail(cx, "P should be [%d, %lld]", nd, (long long)(3 * hidden));
    }
    L.hidden = hidden;
    L.dt = wt.dtype != BYOC_DT_VOID ? wt.dtype : dtype_of(cx, 0);

    /* Inputs, with batch and time in the standard order. */
    static const int64_t swap[3] = {1, 0, 2};
    int in[8];
    for (int i = 0; i < 8; i++) {
        in[i] = -1;
        bool used = i < 4 || i == 5 || (L.kind == 2 && i >= 6);
        if (!used || !ox_in(cx, i))
            continue;
        bool batch_first = layout && (i == 0 || i == 5 || i == 6);
        in[i] = batch_first ? ox_transpose(cx, ox_in(cx, i), swap, 3) : ox_arg(cx, i);
        TRY(in[i]);
    }
    /* No initial state: zeros of [batch, hidden] for both directions.
     * When the batch size is not known, the zeros take it from the input:
     * zeros_like of x[0, :, :1], plus zeros of [hidden]. */
    int zero_h = -1;
    if (in[5] < 0) {
        int64_t shape[2] = {batch, hidden};
        zero_h = ox_call(cx, "zeros", NULL, 0);
        TRY(zero_h);
        TRY(ox_set_dtype(cx, zero_h, "dtype", L.dt));
        TRY(ox_set_ints(cx, zero_h, "shape", batch >= 0 ? shape : &hidden, batch >= 0 ? 2 : 1));
        if (batch < 0) {
            static const int64_t begin[2] = {0, 0}, end[2] = {1, 1}, axes[2] = {0, 2};
            int x1 = with_ints(cx, call1(cx, "strided_slice", in[0]), "begin", begin, 2);
            x1 = with_ints(cx, with_ints(cx, x1, "end", end, 2), "strides", end, 2);
            x1 = with_ints(cx, x1, "axes", axes, 2);
            int z = call1(cx, "zeros_like", squeeze0(cx, x1));
            if (z >= 0 && L.dt != dtype_of(cx, 0)) {
                z = call1(cx, "cast", z);
                TRY(z);
                TRY(ox_set_dtype(cx, z, "dtype", L.dt));
            }
            TRY(zero_h = call2(cx, "add", z, zero_h));
        }
    }
    rnn_dir dirs[2];
    for (int d = 0; d < nd; d++) {
        dirs[d].acts = &acts[d * nacts[L.kind]];
        TRY(rnn_prepare(cx, &L, nd, d, in, zero_h, &dirs[d]));
    }
    /* The steps, and with sequence_lens the steps of each sequence
     * reversed within its length for a backward pass, and per step masks
     * m (t < length, as [batch, 1]) and 1 - m. */
    int lens = ox_in(cx, 4) ? ox_arg(cx, 4) : -1;
    int *xs = ox_alloc(cx, sizeof(int) * (size_t)seq * 2), *xs_rev = xs + seq;
    int *ms = ox_alloc(cx, sizeof(int) * (size_t)seq * 2), *ims = ms + seq;
    int steps = split_n(cx, in[0], (int)seq, 0);
    for (int64_t t = 0; t < seq; t++)
        TRY(xs[t] = squeeze0(cx, part(cx, steps, (int)t)));
    if (lens >= 0) {
        bool backward = reverse || nd == 2;
        if (backward) {
            int rs = call2(cx, "reverse_sequence", in[0], lens);
            rs = with_int(cx, with_int(cx, rs, "seq_axis", 0), "batch_axis", 1);
            rs = split_n(cx, rs, (int)seq, 0);
            for (int64_t t = 0; t < seq; t++)
                TRY(xs_rev[t] = squeeze0(cx, part(cx, rs, (int)t)));
        }
        byoc_dtype ldt = dtype_of(cx, 4);
        int a0 = ox_scalar(cx, ldt, 0.0), a1 = ox_scalar(cx, ldt, (double)seq);
        int a2 = ox_scalar(cx, ldt, 1.0);
        int ar = call3(cx, "arange", a0, a1, a2);
        TRY(ar);
        TRY(ox_set_dtype(cx, ar, "dtype", ldt));
        ar = with_int(cx, call1(cx, "expand_dims", ar), "axis", 1);
        int m = call1(cx, "cast", call2(cx, "less", ar, lens));
        TRY(m);
        TRY(ox_set_dtype(cx, m, "dtype", L.dt));
        m = with_int(cx, call1(cx, "expand_dims", m), "axis", 2);
        int im = call2(cx, "subtract", ox_scalar(cx, L.dt, 1.0), m);
        int msplit = split_n(cx, m, (int)seq, 0), isplit = split_n(cx, im, (int)seq, 0);
        for (int64_t t = 0; t < seq; t++) {
            TRY(ms[t] = squeeze0(cx, part(cx, msplit, (int)t)));
            TRY(ims[t] = squeeze0(cx, part(cx, isplit, (int)t)));
        }
    }
    int *ys = ox_alloc(cx, sizeof(int) * (size_t)(seq * nd));
    for (int d = 0; d < nd; d++) {
        bool back = d == 1 || reverse;
        for (int64_t k = 0; k < seq; k++) {
            /* With lengths, a backward pass runs forward over the
             * reversed sequences; past its length a step outputs zeros
             * and keeps the state. */
            int64_t t = back && lens < 0 ? seq - 1 - k : k;
            int h = dirs[d].h, c = L.kind == 2 ? dirs[d].c : -1;
            int x = back && lens >= 0 ? xs_rev[t] : xs[t];
            TRY(dirs[d].h = rnn_step(cx, &L, &dirs[d], x));
            ys[t * nd + d] = dirs[d].h;
            if (lens < 0)
                continue;
            int y = call2(cx, "multiply", dirs[d].h, ms[t]);
            ys[t * nd + d] = y;
            TRY(dirs[d].h = call2(cx, "add", y, call2(cx, "multiply", h, ims[t])));
            if (L.kind == 2) {
                int cm = call2(cx, "multiply", dirs[d].c, ms[t]);
                TRY(dirs[d].c = call2(cx, "add", cm, call2(cx, "multiply", c, ims[t])));
            }
        }
    }

    /* Y [seq, nd, batch, hidden], Y_h and Y_c [nd, batch, hidden].  With
     * lengths, each direction is stacked on its own and a backward one
     * reversed back within the lengths. */
    if (ox_output_used(cx, 0)) {
        int y;
        if (lens < 0) {
            int *rows = ox_alloc(cx, sizeof(int) * (size_t)seq);
            for (int64_t t = 0; t < seq; t++)
                TRY(rows[t] = nd == 2 ? stack(cx, &ys[t * 2], 2, 0) : ys[t]);
            y = stack(cx, rows, (int)seq, 0);
        } else {
            int *col = ox_alloc(cx, sizeof(int) * (size_t)seq), per[2];
            for (int d = 0; d < nd; d++) {
                for (int64_t t = 0; t < seq; t++)
                    col[t] = ys[t * nd + d];
                per[d] = stack(cx, col, (int)seq, 0);
                if (d == 1 || reverse) {
                    per[d] = call2(cx, "reverse_sequence", per[d], lens);
                    per[d] = with_int(cx, per[d], "seq_axis", 0);
                    per[d] = with_int(cx, per[d], "batch_axis", 1);
                }
                TRY(per[d]);
            }
            y = nd == 2 ? stack(cx, per, 2, 1) : per[0];
        }
        if (nd == 1)
            y = with_int(cx, call1(cx, "expand_dims", y), "axis", 1);
        if (layout) {
            static const int64_t back4[4] = {2, 0, 1, 3};
            y = with_ints(cx, call1(cx, "transpose", y), "axes", back4, 4);
        }
        TRY(define(cx, 0, y));
    }
    for (int o = 1; o <= (L.kind == 2 ? 2 : 1); o++) {
        if (!ox_output_used(cx, o))
            continue;
        int last[2];
        for (int d = 0; d < nd; d++)
            last[d] = o == 1 ? dirs[d].h : dirs[d].c;
        int y = nd == 2 ? stack(cx, last, 2, 0) : expand0(cx, last[0]);
        if (layout)
            y = with_ints(cx, call1(cx, "transpose", y), "axes", swap, 3);
        TRY(define(cx, o, y));
    }
    return 0;
}

/* ---- attention and rotary embeddings ------------------------------------------------- */

/* Attention (opset 23), spelled out as its definition's pattern: 3-D
 * inputs reshaped to [batch, heads, seq, head] and transposed; past keys
 * and values concatenated in front (the present outputs); kv heads
 * repeated for grouped queries; Q and K each scaled by sqrt(scale);
 * nn.batch_matmul of Q and K (transpose_b) on [batch * heads, ...]
 * reshapes; softcap as c * tanh(x / c); the mask and the causal bias
 * (trilu of ones, where 0 : -inf) added; nn.softmax; rows whose bias is
 * -inf throughout zeroed (max, equal, where), as the errata asks;
 * nn.batch_matmul with V; and back to the input's layout.  TVM's frontend
 * predates the op.  Shapes must be known, for the reshapes, but for the
 * batch size.  Departures:
 * softmax_precision casts around the softmax only, not the product with V
 * after it; a mask shorter than the keys (which the reference pads) stays
 * opaque. */
int ox_conv_attention(ox_cx *cx)
{
    if (!ox_in(cx, 0) || !ox_in(cx, 1) || !ox_in(cx, 2))
        return ox_fail(cx, "inputs Q, K and V are required");
    if (cx->node->ninputs > 6 && ox_in(cx, 6))
        return ox_unsupported(cx, "nonpad_kv_seqlen (opset 24) is not mapped");
    if (!ox_in(cx, 4) != !ox_in(cx, 5))
        return ox_fail(cx, "past_key and past_value must be given together");
    int64_t causal, mode, qh = 0, kvh = 0, prec = 0;
    double scale = 0, softcap;
    TRY(ox_attr_int(cx, "is_causal", 0, &causal));
    TRY(ox_attr_int(cx, "qk_matmul_output_mode", 0, &mode));
    TRY(ox_attr_float(cx, "softcap", 0.0, &softcap));
    int has_scale = ox_attr_float(cx, "scale", 0.0, &scale);
    TRY(has_scale);
    int has_prec = ox_attr_int(cx, "softmax_precision", 0, &prec);
    TRY(has_prec);
    if (mode < 0 || mode > 3)
        return ox_fail(cx, "attribute 'qk_matmul_output_mode' is %lld", (long long)mode);
    byoc_tensor_type qt = type_of(cx, 0), kt = type_of(cx, 1), vt = type_of(cx, 2);
    int r = qt.rank;
    if (r < 0 || kt.rank < 0 || vt.rank < 0)
        return ox_unsupported(cx, "the ranks of Q, K and V are not known");
    if ((r != 3 && r != 4) || kt.rank != r || vt.rank != r)
        return ox_fail(cx, "Q, K and V should all be 3-D or all 4-D");
    /* The batch size may be unknown: reshapes infer it (-1). */
    if (!dims_known(&qt, 1, r) || !dims_known(&kt, 1, r) || !dims_known(&vt, 1, r))
        return ox_unsupported(cx, "the shapes of Q, K and V are not known");
    int64_t B = qt.dims[0] >= 0 ? qt.dims[0] : -1, Sq, Skv, D, Dv;
    if (r == 3) {
        TRY(ox_attr_int(cx, "q_num_heads", 0, &qh));
        TRY(ox_attr_int(cx, "kv_num_heads", 0, &kvh));
        if (qh < 1 || kvh < 1)
            return ox_fail(cx, "3-D inputs need q_num_heads and kv_num_heads");
        if (qt.dims[2] % qh || kt.dims[2] % kvh || vt.dims[2] % kvh)
            return ox_fail(cx, "the hidden sizes do not split into the heads");
        Sq = qt.dims[1];
        Skv = kt.dims[1];
        D = qt.dims[2] / qh;
        Dv = vt.dims[2] / kvh;
        if (kt.dims[2] / kvh != D)
            return ox_fail(cx, "Q and K have different head sizes");
    } else {
        qh = qt.dims[1];
        kvh = kt.dims[1];
        Sq = qt.dims[2];
        Skv = kt.dims[2];
        D = qt.dims[3];
        Dv = vt.dims[3];
        if (kt.dims[3] != D)
            return ox_fail(cx, "Q and K have different head sizes");
    }
    if (dims_clash(kt.dims[0], B) || dims_clash(vt.dims[0], B) || vt.dims[r - 2] != Skv
        || (r == 4 && vt.dims[1] != kvh))
        return ox_fail(cx, "Q, K and V do not agree on batch, heads or keys");
    if (kvh < 1 || qh % kvh)
        return ox_fail(cx, "%lld query heads do not group over %lld kv heads", (long long)qh,
                       (long long)kvh);
    int64_t past = 0;
    if (ox_in(cx, 4)) {
        byoc_tensor_type pk = type_of(cx, 4), pv = type_of(cx, 5);
        if (pk.rank != 4 || pv.rank != 4 || !dims_known(&pk, 1, 4) || !dims_known(&pv, 1, 4))
            return ox_unsupported(cx, "the shapes of the past keys and values are not known");
        if (dims_clash(pk.dims[0], B) || pk.dims[1] != kvh || pk.dims[3] != D
            || dims_clash(pv.dims[0], B)
            || pv.dims[1] != kvh || pv.dims[2] != pk.dims[2] || pv.dims[3] != Dv)
            return ox_fail(cx, "past_key and past_value do not fit K and V");
        past = pk.dims[2];
    }
    if (D < 1 || Dv < 1 || qh < 1)
        return ox_fail(cx, "empty heads");
    if (past > INT64_MAX - Skv)
        return ox_fail(cx, "too many keys");
    int64_t T = past + Skv, BH, QDv;
    if (B < 0)
        BH = -1;
    else if (!mul_ok(B, qh, &BH))
        return ox_fail(cx, "too many heads or keys");
    if (!mul_ok(qh, Dv, &QDv))
        return ox_fail(cx, "too many heads or keys");
    byoc_tensor_type mt = {BYOC_DT_VOID, -1, {0}};
    if (ox_in(cx, 3)) {
        mt = type_of(cx, 3);
        if (mt.rank < 1 || mt.dims[mt.rank - 1] != T)
            return ox_unsupported(cx, "the mask's last axis is not known to span the %lld keys",
                                  (long long)T);
    }
    byoc_dtype dt = qt.dtype == BYOC_DT_VOID ? BYOC_DT_FLOAT32 : qt.dtype;
    int pdt = has_prec > 0 ? ox_dtype(prec) : (int)dt;
    if (pdt < 0 || byoc_dtype_class((byoc_dtype)pdt) != 'f')
        return ox_fail(cx, "attribute 'softmax_precision' is %lld, not a float type",
                       (long long)prec);
    if (has_scale <= 0)
        scale = 1.0 / sqrt((double)D);

    /* Q, K, V as [batch, heads, seq, head]. */
    static const int64_t bshd[4] = {0, 2, 1, 3};
    int qkv[3];
    const int64_t heads[3] = {qh, kvh, kvh}, seqs[3] = {Sq, Skv, Skv}, sizes[3] = {D, D, Dv};
    for (int i = 0; i < 3; i++) {
        qkv[i] = ox_arg(cx, i);
        if (r == 3) {
            int64_t shape[4] = {B, seqs[i], heads[i], sizes[i]};
            qkv[i] = with_ints(cx, call1(cx, "reshape", qkv[i]), "newshape", shape, 4);
            qkv[i] = with_ints(cx, call1(cx, "transpose", qkv[i]), "axes", bshd, 4);
        }
        TRY(qkv[i]);
    }
    for (int i = 1; i < 3 && past; i++) {
        int pair[2] = {ox_arg(cx, 3 + i), qkv[i]};
        qkv[i] = with_int(cx, call1(cx, "concatenate", ox_tuple(cx, pair, 2)), "axis", 2);
        TRY(qkv[i]);
    }
    if (ox_output_used(cx, 1))
        TRY(define(cx, 1, qkv[1]));
    if (ox_output_used(cx, 2))
        TRY(define(cx, 2, qkv[2]));
    for (int i = 1; i < 3 && qh != kvh; i++) {
        qkv[i] = with_int(cx, call1(cx, "repeat", qkv[i]), "repeats", qh / kvh);
        qkv[i] = with_int(cx, qkv[i], "axis", 1);
    }
    /* A negative scale: Q by sqrt(-scale), K by -sqrt(-scale). */
    double s = sqrt(fabs(scale));
    int q = call2(cx, "multiply", qkv[0], ox_scalar(cx, dt, s));
    int k = call2(cx, "multiply", qkv[1], ox_scalar(cx, dt, scale < 0 ? -s : s));
    int64_t q3[3] = {BH, Sq, D}, k3[3] = {BH, T, D}, v3[3] = {BH, T, Dv}, s4[4] = {B, qh, Sq, T};
    q = with_ints(cx, call1(cx, "reshape", q), "newshape", q3, 3);
    k = with_ints(cx, call1(cx, "reshape", k), "newshape", k3, 3);
    int qk = call2(cx, "nn.batch_matmul", q, k);
    TRY(qk);
    TRY(ox_set_bool(cx, qk, "transpose_b", true));
    qk = with_ints(cx, call1(cx, "reshape", qk), "newshape", s4, 4);
    int stage[4] = {qk, qk, qk, qk};
    if (softcap > 0) {
        int c = ox_scalar(cx, dt, softcap);
        int t = call1(cx, "tanh", call2(cx, "divide", qk, c));
        qk = call2(cx, "multiply", t, ox_scalar(cx, dt, softcap));
    }
    stage[1] = qk;
    int bias = -1, masked = -1;
    if (ox_in(cx, 3)) {
        int m = ox_arg(cx, 3);
        if (mt.dtype == BYOC_DT_BOOL) {
            int zero = ox_scalar(cx, dt, 0.0), ninf = ox_scalar(cx, dt, -INFINITY);
            bias = call3(cx, "where", m, zero, ninf);
        } else if (mt.dtype != dt) {
            bias = call1(cx, "cast", m);
            TRY(bias);
            TRY(ox_set_dtype(cx, bias, "dtype", dt));
        } else {
            bias = m;
        }
    }
    if (causal) {
        int64_t st[2] = {Sq, T};
        int ones = with_ints(cx, call1(cx, "full", ox_scalar(cx, dt, 1.0)), "shape", st, 2);
        int tri = call2(cx, "trilu", ones, ox_scalar(cx, BYOC_DT_INT64, (double)past));
        TRY(tri);
        TRY(ox_set_bool(cx, tri, "upper", false));
        int allowed = call2(cx, "greater", tri, ox_scalar(cx, dt, 0.0));
        int zero = ox_scalar(cx, dt, 0.0), ninf = ox_scalar(cx, dt, -INFINITY);
        int cb = call3(cx, "where", allowed, zero, ninf);
        bias = bias >= 0 ? call2(cx, "add", bias, cb) : cb;
    }
    if (bias >= 0) {
        qk = call2(cx, "add", qk, bias);
        int64_t last = -1;
        int mx = with_ints(cx, call1(cx, "max", bias), "axis", &last, 1);
        TRY(mx);
        TRY(ox_set_bool(cx, mx, "keepdims", true));
        masked = call2(cx, "equal", mx, ox_scalar(cx, dt, -INFINITY));
    }
    stage[2] = qk;
    if (pdt != (int)dt) {
        qk = call1(cx, "cast", qk);
        TRY(qk);
        TRY(ox_set_dtype(cx, qk, "dtype", (byoc_dtype)pdt));
    }
    int p = with_int(cx, call1(cx, "nn.softmax", qk), "axis", -1);
    if (pdt != (int)dt) {
        p = call1(cx, "cast", p);
        TRY(p);
        TRY(ox_set_dtype(cx, p, "dtype", dt));
    }
    if (masked >= 0) {
        int zero = ox_scalar(cx, dt, 0.0);
        p = call3(cx, "where", masked, zero, p);
    }
    stage[3] = p;
    int64_t p3[3] = {BH, Sq, T};
    p = with_ints(cx, call1(cx, "reshape", p), "newshape", p3, 3);
    int v = with_ints(cx, call1(cx, "reshape", qkv[2]), "newshape", v3, 3);
    int y = call2(cx, "nn.batch_matmul", p, v);
    int64_t y4[4] = {B, qh, Sq, Dv}, y3[3] = {B, Sq, QDv};
    y = with_ints(cx, call1(cx, "reshape", y), "newshape", y4, 4);
    if (r == 3) {
        y = with_ints(cx, call1(cx, "transpose", y), "axes", bshd, 4);
        y = with_ints(cx, call1(cx, "reshape", y), "newshape", y3, 3);
    }
    TRY(define(cx, 0, y));
    if (ox_output_used(cx, 3))
        TRY(define(cx, 3, stage[mode]));
    return 0;
}

/* strided_slice of axis 3 from begin to end by step. */
static int slice3(ox_cx *cx, int x, int64_t begin, int64_t end, int64_t step)
{
    static const int64_t axis3 = 3;
    int node = with_ints(cx, call1(cx, "strided_slice", x), "begin", &begin, 1);
    node = with_ints(cx, node, "end", &end, 1);
    node = with_ints(cx, node, "strides", &step, 1);
    return with_ints(cx, node, "axes", &axis3, 1);
}

/* RotaryEmbedding (opset 23), as its reference: the input as [batch, seq,
 * heads, head] (a transpose of 4-D, a reshape of 3-D), the caches taken
 * at position_ids (take) and given a heads axis, the first
 * rotary_embedding_dim channels rotated in halves (split) or in even and
 * odd pairs (strided_slice, then stack and reshape), the rest passed
 * through (concatenate), and back to the input's layout.  Shapes must be
 * known but for the batch size. */
int ox_conv_rotary_embedding(ox_cx *cx)
{
    if (!ox_in(cx, 0) || !ox_in(cx, 1) || !ox_in(cx, 2))
        return ox_fail(cx, "inputs X, cos_cache and sin_cache are required");
    int64_t inter, rot, heads;
    TRY(ox_attr_int(cx, "interleaved", 0, &inter));
    TRY(ox_attr_int(cx, "rotary_embedding_dim", 0, &rot));
    TRY(ox_attr_int(cx, "num_heads", 0, &heads));
    byoc_tensor_type t = type_of(cx, 0), ct = type_of(cx, 1);
    if (t.rank >= 0 && t.rank != 3 && t.rank != 4)
        return ox_fail(cx, "the input has rank %d; expected 3 or 4", t.rank);
    if (!dims_known(&t, 1, t.rank) || t.rank < 0)
        return ox_unsupported(cx, "the input's shape is not known");
    int64_t B = t.dims[0] >= 0 ? t.dims[0] : -1, S = t.dims[t.rank == 4 ? 2 : 1], H, D;
    if (t.rank == 3) {
        if (heads < 1 || t.dims[2] % heads)
            return ox_fail(cx, "a 3-D input needs num_heads dividing its hidden size");
        H = heads;
        D = t.dims[2] / heads;
    } else {
        H = t.dims[1];
        D = t.dims[3];
    }
    if (rot == 0)
        rot = D;
    if (rot < 2 || rot > D || rot % 2)
        return ox_fail(cx, "rotary_embedding_dim %lld for heads of %lld", (long long)rot,
                       (long long)D);
    if (ct.rank >= 1 && ct.dims[ct.rank - 1] >= 0 && ct.dims[ct.rank - 1] != rot / 2)
        return ox_fail(cx, "the caches' last axis is not rotary_embedding_dim / 2");
    int x = ox_arg(cx, 0);
    TRY(x);
    int64_t back3[3] = {B, t.dims[1], t.rank == 3 ? t.dims[2] : 0};
    static const int64_t bshd[4] = {0, 2, 1, 3};
    int64_t shape4[4] = {B, S, H, D};
    x = t.rank == 4 ? with_ints(cx, call1(cx, "transpose", x), "axes", bshd, 4)
                    : with_ints(cx, call1(cx, "reshape", x), "newshape", shape4, 4);
    int cs[2];
    for (int i = 0; i < 2; i++) {
        cs[i] = ox_arg(cx, 1 + i);
        if (ox_in(cx, 3))
            cs[i] = with_int(cx, call2(cx, "take", cs[i], ox_arg(cx, 3)), "axis", 0);
        cs[i] = with_int(cx, call1(cx, "expand_dims", cs[i]), "axis", 2);
        TRY(cs[i]);
    }
    int xr = rot < D ? slice3(cx, x, 0, rot, 1) : x, x1, x2;
    if (inter) {
        x1 = slice3(cx, xr, 0, rot, 2);
        x2 = slice3(cx, xr, 1, rot, 2);
    } else {
        int halves = split_n(cx, xr, 2, -1);
        x1 = part(cx, halves, 0);
        x2 = part(cx, halves, 1);
    }
    int a = call2(cx, "multiply", cs[0], x1), b = call2(cx, "multiply", cs[1], x2);
    int real = call2(cx, "subtract", a, b);
    a = call2(cx, "multiply", cs[1], x1);
    b = call2(cx, "multiply", cs[0], x2);
    int imag = call2(cx, "add", a, b);
    int ri[2] = {real, imag}, out;
    if (inter) {
        int64_t rs[4] = {B, S, H, rot};
        out = with_ints(cx, call1(cx, "reshape", stack(cx, ri, 2, -1)), "newshape", rs, 4);
    } else {
        out = with_int(cx, call1(cx, "concatenate", ox_tuple(cx, ri, 2)), "axis", -1);
    }
    if (rot < D) {
        int rest[2] = {out, slice3(cx, x, rot, D, 1)};
        out = with_int(cx, call1(cx, "concatenate", ox_tuple(cx, rest, 2)), "axis", -1);
    }
    out = t.rank == 4 ? with_ints(cx, call1(cx, "transpose", out), "axes", bshd, 4)
                      : with_ints(cx, call1(cx, "reshape", out), "newshape", back3, 3);
    return define(cx, 0, out);
}

/* ---- einsum -------------------------------------------------------------------------- */

/* Einsum of one or two operands without repeated letters in a term or
 * ellipses, with known shapes, as transposes, reshapes, sum and one
 * nn.batch_matmul - the way numpy's tensordot does it: letters only one
 * operand has and the output lacks are summed away first; then each
 * operand is laid out as [batch, free, contracted] (the second as [batch,
 * contracted, free] when it already is), flattened to 3-D and multiplied,
 * and the product reshaped and transposed to the output's letters.  TVM
 * maps Einsum to its einsum op, which byoc's vocabulary does not have;
 * this is what that op computes. */

typedef struct einsum_term {
    char letters[BYOC_MAX_RANK];
    int n;
} einsum_term;

static int term_find(const einsum_term *t, char c)
{
    for (int i = 0; i < t->n; i++)
        if (t->letters[i] == c)
            return i;
    return -1;
}

/* Parse "ab,bc->ac" into terms; implicit output: the letters used once,
 * in alphabetical order.  1 (unsupported) for an ellipsis or a repeated
 * letter within a term. */
static int einsum_parse(ox_cx *cx, const char *eq, einsum_term *in, int *nin, einsum_term *out)
{
    int k = 0;
    bool explicit_out = false;
    memset(in, 0, sizeof(einsum_term) * 2);
    memset(out, 0, sizeof *out);
    einsum_term *cur = &in[0];
    for (const char *p = eq; *p; p++) {
        char c = *p;
        if (c == ' ')
            continue;
        if (c == '.')
            return ox_unsupported(cx, "equations with an ellipsis are not mapped");
        if (c == ',') {
            if (explicit_out || ++k >= 2)
                return explicit_out ? ox_fail(cx, "equation '%s' is malformed", eq)
                                    : ox_unsupported(cx, "einsum of more than two operands");
            cur = &in[k];
            continue;
        }
        if (c == '-' && p[1] == '>') {
            if (explicit_out)
                return ox_fail(cx, "equation '%s' is malformed", eq);
            explicit_out = true;
            cur = out;
            p++;
            continue;
        }
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
            return ox_fail(cx, "equation '%s' holds '%c'", eq, c);
        if (term_find(cur, c) >= 0)
            return ox_unsupported(cx, "a letter repeated in a term (a diagonal)");
        if (cur->n >= BYOC_MAX_RANK)
            return ox_fail(cx, "equation '%s' has a term of more than %d axes", eq,
                           BYOC_MAX_RANK);
        cur->letters[cur->n++] = c;
    }
    *nin = k + 1;
    if (!explicit_out) {
        for (int c = 'A'; c <= 'z'; c++) {
            int uses = 0;
            for (int i = 0; i < *nin; i++)
                uses += term_find(&in[i], (char)c) >= 0;
            if (uses == 1 && out->n < BYOC_MAX_RANK)
                out->letters[out->n++] = (char)c;
        }
    }
    for (int i = 0; i < out->n; i++) {
        bool somewhere = false;
        for (int j = 0; j < *nin; j++)
            somewhere = somewhere || term_find(&in[j], out->letters[i]) >= 0;
        if (!somewhere)
            return ox_fail(cx, "output letter '%c' is in no input", out->letters[i]);
    }
    return 0;
}

/* transpose(x, perm) unless perm is the identity. */
static int permute(ox_cx *cx, int x, const int64_t *perm, int n)
{
    for (int i = 0; i < n; i++)
        if (perm[i] != i)
            return with_ints(cx, call1(cx, "transpose", x), "axes", perm, (size_t)n);
    return x;
}

int ox_conv_einsum(ox_cx *cx)
{
    const char *eq;
    if (ox_attr_string(cx, "equation", NULL, &eq) <= 0 || !eq)
        return ox_fail(cx, "attribute 'equation' is required");
    einsum_term in[2], out;
    int nin = 0, rc = einsum_parse(cx, eq, in, &nin, &out);
    if (rc)
        return rc;
    if (cx->node->ninputs != nin)
        return ox_fail(cx, "equation '%s' has %d operands for %d inputs", eq, nin,
                       cx->node->ninputs);
    byoc_tensor_type t[2];
    int64_t size_of[128];
    for (int c = 0; c < 128; c++)
        size_of[c] = -1;
    for (int i = 0; i < nin; i++) {
        if (!ox_in(cx, i))
            return ox_fail(cx, "input %d is missing", i + 1);
        t[i] = type_of(cx, i);
        if (t[i].rank >= 0 && t[i].rank != in[i].n)
            return ox_fail(cx, "input %d has rank %d for '%.*s'", i + 1, t[i].rank, in[i].n,
                           in[i].letters);
        if (!dims_known(&t[i], 0, t[i].rank) || t[i].rank < 0)
            return ox_unsupported(cx, "the shapes of the inputs are not known");
        for (int a = 0; a < in[i].n; a++) {
            int c = in[i].letters[a];
            if (size_of[c] >= 0 && size_of[c] != t[i].dims[a])
                return ox_fail(cx, "letter '%c' has sizes %lld and %lld", c,
                               (long long)size_of[c], (long long)t[i].dims[a]);
            size_of[c] = t[i].dims[a];
        }
    }
    /* Two operands meet in reshapes to 3-D, whose newshape reads a 0 as
     * "copy this axis": an operand with no elements has none. */
    for (int i = 0; nin == 2 && i < nin; i++)
        for (int a = 0; a < in[i].n; a++)
            if (t[i].dims[a] == 0)
                return ox_unsupported(cx, "an operand with no elements");
    int x[2];
    /* Sum away the letters that only this operand has and the output lacks. */
    for (int i = 0; i < nin; i++) {
        TRY(x[i] = ox_arg(cx, i));
        int64_t axes[BYOC_MAX_RANK];
        int na = 0;
        einsum_term kept = {{0}, 0};
        for (int a = 0; a < in[i].n; a++) {
            char c = in[i].letters[a];
            bool other = nin == 2 && term_find(&in[1 - i], c) >= 0;
            if (!other && term_find(&out, c) < 0)
                axes[na++] = a;
            else
                kept.letters[kept.n++] = c;
        }
        if (na) {
            x[i] = with_ints(cx, call1(cx, "sum", x[i]), "axis", axes, (size_t)na);
            in[i] = kept;
        }
    }
    int64_t perm[BYOC_MAX_RANK];
    if (nin == 1) {
        for (int a = 0; a < out.n; a++)
            perm[a] = term_find(&in[0], out.letters[a]);
        return define(cx, 0, permute(cx, x[0], perm, out.n));
    }
    /* Batch letters (both and the output), in the output's order; each
     * side's free letters, in the output's order; contracted ones. */
    einsum_term batch = {{0}, 0}, free_[2] = {{{0}, 0}, {{0}, 0}}, con = {{0}, 0};
    for (int a = 0; a < out.n; a++) {
        char c = out.letters[a];
        bool ia = term_find(&in[0], c) >= 0, ib = term_find(&in[1], c) >= 0;
        einsum_term *to = ia && ib ? &batch : ia ? &free_[0] : &free_[1];
        to->letters[to->n++] = c;
    }
    for (int a = 0; a < in[0].n; a++)
        if (term_find(&in[1], in[0].letters[a]) >= 0 && term_find(&out, in[0].letters[a]) < 0)
            con.letters[con.n++] = in[0].letters[a];
    /* B as [batch, contracted, free] when that needs no transpose and
     * [batch, free, contracted] does (then without transpose_b). */
    int64_t bp = 1, fp[2] = {1, 1}, kp = 1;
    bool b_nn = false;
    for (int form = 0; form < 2; form++) {
        const einsum_term *parts[3] = {&batch, form ? &con : &free_[1], form ? &free_[1] : &con};
        bool identity = true;
        for (int g = 0, np = 0; g < 3; g++)
            for (int a = 0; a < parts[g]->n; a++, np++)
                identity = identity && term_find(&in[1], parts[g]->letters[a]) == np;
        if (identity) {
            b_nn = form == 1;
            break;
        }
    }
    for (int i = 0; i < 2; i++) {
        bool nn = i == 1 && b_nn;
        const einsum_term *parts[3] = {&batch, nn ? &con : &free_[i], nn ? &free_[i] : &con};
        int np = 0;
        for (int g = 0; g < 3; g++)
            for (int a = 0; a < parts[g]->n; a++)
                perm[np++] = term_find(&in[i], parts[g]->letters[a]);
        x[i] = permute(cx, x[i], perm, np);
        for (int a = 0; a < free_[i].n; a++)
            if (!mul_ok(fp[i], size_of[(int)free_[i].letters[a]], &fp[i]))
                return ox_fail(cx, "the operands have too many elements");
    }
    for (int a = 0; a < batch.n; a++)
        if (!mul_ok(bp, size_of[(int)batch.letters[a]], &bp))
            return ox_fail(cx, "the operands have too many elements");
    for (int a = 0; a < con.n; a++)
        if (!mul_ok(kp, size_of[(int)con.letters[a]], &kp))
            return ox_fail(cx, "the operands have too many elements");
    for (int i = 0; i < 2; i++) {
        int64_t s3[3] = {bp, fp[i], kp};
        if (i == 1 && b_nn) {
            s3[1] = kp;
            s3[2] = fp[1];
        }
        x[i] = with_ints(cx, call1(cx, "reshape", x[i]), "newshape", s3, 3);
    }
    int mm = call2(cx, "nn.batch_matmul", x[0], x[1]);
    TRY(mm);
    TRY(ox_set_bool(cx, mm, "transpose_b", !b_nn));
    /* [batch..., free A..., free B...], then the output's order. */
    int64_t shape[BYOC_MAX_RANK];
    einsum_term got = {{0}, 0};
    const einsum_term *order[3] = {&batch, &free_[0], &free_[1]};
    for (int g = 0; g < 3; g++)
        for (int a = 0; a < order[g]->n; a++) {
            shape[got.n] = size_of[(int)order[g]->letters[a]];
            got.letters[got.n++] = order[g]->letters[a];
        }
    int y = with_ints(cx, call1(cx, "reshape", mm), "newshape", shape, (size_t)got.n);
    for (int a = 0; a < out.n; a++)
        perm[a] = term_find(&got, out.letters[a]);
    return define(cx, 0, permute(cx, y, perm, out.n));
}
