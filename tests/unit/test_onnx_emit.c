/* Unit tests of the ONNX op emitter (runtime/writers/onnx_emit.c).
 *
 * Each case builds a graph of one call through the graph API (Relay's
 * registry), types it, emits the call at an opset into a bx_ob, and
 * compares the nodes written with the expected ones, rendered as text:
 *
 *   Op(in,...)->out{attr=value ...}; Op(...)->...
 *
 * The call's arguments are named as the graph names them (inputs by
 * name, constants c<id>), its output Y (Y0, Y1 ... for a tuple), the
 * emitter's fresh tensors t0, t1...; an initializer an input reads is
 * shown by its contents: [1,2] for int64 lists, i64:3 and f32:0.5 for
 * scalars, <u8 4x3> for anything larger.
 *
 * `test_onnx_emit --models DIR` writes each case that emits as an ONNX
 * model, DIR/<case>.onnx, for tests/onnx/emit_check.sh, which runs ONNX's
 * checker on them (`--models DIR OPSET`: every case at that opset);
 * `--graph MODEL OUT OPSET [NAME=SIZE...]` writes every call of a model
 * (ONNX or Relay) through the emitter into one model. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

#include "arena.h"
#include "writers/onnx_build.h"

/* ---- building one-call graphs ----------------------------------------------- */

static byoc_registry *R;
static byoc_graph *G;

static void die(const char *what, const byoc_error *e)
{
    fprintf(stderr, "%s: %s\n", what, e ? e->msg : "");
    abort();
}

/* A type from "float32[1,3,n]" (a lowercase letter is a symbol; no
 * brackets: a scalar). */
static byoc_tensor_type ty(const char *spec)
{
    byoc_tensor_type t;
    memset(&t, 0, sizeof t);
    char name[32];
    size_t n = strcspn(spec, "[");
    snprintf(name, sizeof name, "%.*s", (int)n, spec);
    int dt = byoc_dtype_lookup(name);
    if (dt < 0)
        die("bad dtype", NULL);
    t.dtype = (byoc_dtype)dt;
    const char *p = spec + n;
    if (*p != '[')
        return t;
    p++;
    while (*p && *p != ']') {
        if (*p >= 'a' && *p <= 'z') {
            char sym[2] = {*p++, 0};
            t.dims[t.rank++] = BYOC_DIM_SYMBOL(byoc_graph_symbol(G, sym));
        } else {
            t.dims[t.rank++] = strtoll(p, (char **)&p, 10);
        }
        if (*p == ',')
            p++;
    }
    return t;
}

static int IN(const char *name, const char *spec)
{
    byoc_error e;
    byoc_tensor_type t = ty(spec);
    int n = byoc_graph_add_input(G, name, &t, &e);
    if (n < 0)
        die("input", &e);
    return n;
}

/* A named constant without data, or with ints / one float.  (Named,
 * since the order C evaluates a call's arguments in, which numbers the
 * nodes, is unspecified.) */
static int named(int node, const char *name)
{
    byoc_graph_set_name(G, node, name);
    return node;
}

static int CONST(const char *name, const char *spec)
{
    byoc_error e;
    byoc_tensor_type t = ty(spec);
    int n = byoc_graph_add_const(G, &t, NULL, &e);
    if (n < 0)
        die("const", &e);
    return named(n, name);
}

static byoc_value items[64];
static int nitems;

static int CONSTI(const char *name, const char *spec, int n, ...)
{
    byoc_error e;
    byoc_tensor_type t = ty(spec);
    byoc_value v;
    va_list ap;
    va_start(ap, n);
    byoc_value *it = &items[nitems];
    for (int i = 0; i < n; i++) {
        it[i].kind = BYOC_V_INT;
        it[i].u.i = va_arg(ap, int);
    }
    va_end(ap);
    nitems += n;
    if (t.rank == 0)
        v = it[0];
    else {
        v.kind = BYOC_V_LIST;
        v.u.list.items = it;
        v.u.list.n = (size_t)n;
    }
    int node = byoc_graph_add_const(G, &t, &v, &e);
    if (node < 0)
        die("const", &e);
    return named(node, name);
}

static int CONSTF(const char *name, const char *spec, double f)
{
    byoc_error e;
    byoc_tensor_type t = ty(spec);
    byoc_value v = {.kind = BYOC_V_FLOAT, .u.f = f};
    int node = byoc_graph_add_const(G, &t, &v, &e);
    if (node < 0)
        die("const", &e);
    return named(node, name);
}

static int CALL(const char *op, int n, ...)
{
    int args[16];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        args[i] = va_arg(ap, int);
    va_end(ap);
    byoc_error e;
    int node = byoc_graph_add_call(G, op, args, n, &e);
    if (node < 0)
        die(op, &e);
    return node;
}

static int TUP(int n, ...)
{
    int f[16];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        f[i] = va_arg(ap, int);
    va_end(ap);
    byoc_error e;
    int node = byoc_graph_add_tuple(G, f, n, &e);
    if (node < 0)
        die("tuple", &e);
    return node;
}

static void set(int node, const char *name, const byoc_value *v)
{
    byoc_error e;
    if (byoc_graph_set_attr(G, node, name, v, &e) < 0)
        die(name, &e);
}

static void AI(int node, const char *name, int64_t i)
{
    byoc_value v = {.kind = BYOC_V_INT, .u.i = i};
    set(node, name, &v);
}

static void AB(int node, const char *name, bool b)
{
    byoc_value v = {.kind = BYOC_V_BOOL, .u.b = b};
    set(node, name, &v);
}

static void AF(int node, const char *name, double f)
{
    byoc_value v = {.kind = BYOC_V_FLOAT, .u.f = f};
    set(node, name, &v);
}

static void AS(int node, const char *name, const char *s)
{
    byoc_value v = {.kind = BYOC_V_STRING, .u.s = s};
    set(node, name, &v);
}

static void AD(int node, const char *name, const char *dt)
{
    byoc_value v = {.kind = BYOC_V_DTYPE, .u.dt = (byoc_dtype)byoc_dtype_lookup(dt)};
    set(node, name, &v);
}

/* A list of n ints. */
static void AL(int node, const char *name, int n, ...)
{
    byoc_value *it = &items[nitems];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        it[i].kind = BYOC_V_INT;
        it[i].u.i = va_arg(ap, int);
    }
    va_end(ap);
    nitems += n;
    byoc_value v = {.kind = BYOC_V_LIST, .u.list = {it, (size_t)n}};
    set(node, name, &v);
}

/* pad_width: n pairs. */
static void APAIRS(int node, const char *name, int n, ...)
{
    byoc_value *pairs = &items[nitems];
    nitems += n;
    byoc_value *flat = &items[nitems];
    nitems += 2 * n;
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 2; k++) {
            flat[2 * i + k].kind = BYOC_V_INT;
            flat[2 * i + k].u.i = va_arg(ap, int);
        }
        pairs[i].kind = BYOC_V_LIST;
        pairs[i].u.list.items = &flat[2 * i];
        pairs[i].u.list.n = 2;
    }
    va_end(ap);
    byoc_value v = {.kind = BYOC_V_LIST, .u.list = {pairs, (size_t)n}};
    set(node, name, &v);
}

/* ---- the cases --------------------------------------------------------------- */

static int c_add(void) { return CALL("add", 2, IN("x", "float32[2,3]"), IN("z", "float32[3]")); }
static int c_add_mixed(void)
{
    return CALL("add", 2, IN("x", "float16[2,3]"), IN("z", "float32[3]"));
}
static int c_add_i8(void) { return CALL("add", 2, IN("x", "int8[4]"), IN("z", "int8[4]")); }
static int c_rsqrt(void) { return CALL("rsqrt", 1, IN("x", "float32[4]")); }
static int c_erf(void) { return CALL("erf", 1, IN("x", "float16[4]")); }
static int c_relu(void) { return CALL("nn.relu", 1, IN("x", "float32[1,8,4,4]")); }
static int c_relu_i8(void) { return CALL("nn.relu", 1, IN("x", "int8[4]")); }

static int c_clip(void)
{
    int c = CALL("clip", 1, IN("x", "float32[1,4]"));
    AF(c, "a_min", 0);
    AF(c, "a_max", 6);
    return c;
}

static int c_clip_i32(void)
{
    int c = CALL("clip", 1, IN("x", "int32[4]"));
    AF(c, "a_min", -INFINITY);
    AF(c, "a_max", 100.7);
    return c;
}

static int c_cast(void)
{
    int c = CALL("cast", 1, IN("x", "float32[1,128]"));
    AD(c, "dtype", "int64");
    return c;
}

static int c_where(void)
{
    return CALL("where", 3, IN("cond", "bool[1,12]"), CONSTF("c1", "float32", -INFINITY),
                IN("x", "float32[12,1,12]"));
}

static int c_less(void)
{
    return CALL("less", 2, IN("x", "int64[50,32]"), CONSTI("c1", "int64", 1, 0));
}
static int c_equal_f(void)
{
    return CALL("equal", 2, IN("x", "float32[4]"), IN("z", "float32[4]"));
}
static int c_ge_f(void)
{
    return CALL("greater_equal", 2, IN("x", "float32[4]"), IN("z", "float32[4]"));
}
static int c_ge_i(void)
{
    return CALL("greater_equal", 2, IN("x", "int32[4]"), IN("z", "int32[4]"));
}
static int c_not(void) { return CALL("logical_not", 1, IN("x", "bool[1,128]")); }
static int c_power(void)
{
    return CALL("power", 2, IN("x", "float32[2,3]"), CONSTF("c1", "float32", 2));
}
static int c_floor_mod_f(void)
{
    return CALL("floor_mod", 2, IN("x", "float32[4]"), IN("z", "float32[4]"));
}
static int c_floor_div_i(void)
{
    return CALL("floor_divide", 2, IN("x", "int32[4]"), IN("z", "int32[4]"));
}

/* Shapes. */
static int c_reshape_static(void)
{
    int c = CALL("reshape", 1, IN("x", "float32[50,32,768]"));
    AL(c, "newshape", 4, 50, 32, 12, -1);
    return c;
}

static int c_reshape_sym(void)
{
    int c = CALL("reshape", 1, IN("x", "float32[n,4,6]"));
    AL(c, "newshape", 2, 0, -1);
    return c;
}

static int c_reshape_codes(void)
{
    int c = CALL("reshape", 1, IN("x", "float32[n,4,6]"));
    AL(c, "newshape", 3, 0, -3, 1);
    return c;
}

static int c_transpose(void)
{
    int c = CALL("transpose", 1, IN("x", "float32[1,2,3,4]"));
    AL(c, "axes", 4, 0, 2, -3, 3);
    return c;
}

static int c_transpose_rev(void) { return CALL("transpose", 1, IN("x", "float32[1,2,3]")); }

static int c_expand_dims(void)
{
    int c = CALL("expand_dims", 1, IN("x", "float32[128]"));
    AI(c, "axis", -1);
    AI(c, "num_newaxis", 2);
    return c;
}

static int c_squeeze(void)
{
    int c = CALL("squeeze", 1, IN("x", "float32[1,4,1]"));
    AL(c, "axis", 1, -1);
    return c;
}

static int c_squeeze_all(void) { return CALL("squeeze", 1, IN("x", "float32[1,4,1]")); }
static int c_batch_flatten(void)
{
    return CALL("nn.batch_flatten", 1, IN("x", "uint8[1,512,1,1]"));
}

static int c_concat(void)
{
    int c = CALL("concatenate", 1, TUP(2, IN("a", "float32[1,2,8]"), IN("z", "float32[1,3,8]")));
    AI(c, "axis", -2);
    return c;
}

static int c_stack(void)
{
    int c = CALL("stack", 1, TUP(2, IN("a", "float32[2,8]"), IN("z", "float32[2,8]")));
    AI(c, "axis", 1);
    return c;
}

static int c_split(void)
{
    int c = CALL("split", 1, IN("x", "float32[50,32,2304]"));
    AL(c, "indices_or_sections", 2, 768, 1536);
    AI(c, "axis", 2);
    return c;
}

static int c_split_sym(void)
{
    int c = CALL("split", 1, IN("x", "float32[2,n]"));
    AI(c, "indices_or_sections", 2);
    AI(c, "axis", 1);
    return c;
}

static int c_strided_slice(void)
{
    int c = CALL("strided_slice", 1, IN("x", "float32[8,1,3072]"));
    AL(c, "begin", 1, 2048);
    AL(c, "end", 1, 3072);
    AL(c, "axes", 1, 2);
    return c;
}

static int c_strided_slice_steps(void)
{
    int c = CALL("strided_slice", 1, IN("x", "float32[8,10]"));
    AL(c, "begin", 2, 1, -1);
    AL(c, "end", 2, 7, -11);
    AL(c, "strides", 2, 2, -1);
    return c;
}

static int c_strided_slice_size(void)
{
    int c = CALL("strided_slice", 1, IN("x", "float32[8,10]"));
    AL(c, "begin", 2, 1, 2);
    AL(c, "end", 2, -1, 3);
    AS(c, "slice_mode", "size");
    return c;
}

static int c_take(void)
{
    int c = CALL("take", 2, CONST("c0", "float32[50,8]"), IN("ids", "int64[2,3]"));
    AI(c, "axis", 0);
    return c;
}

static int c_take_known(void)
{
    int c = CALL("take", 2, CONST("c0", "float32[50,8]"), CONSTI("c1", "int64[2]", 2, 3, 49));
    AI(c, "axis", 0);
    return c;
}

static int c_take_wrap(void)
{
    int c = CALL("take", 2, IN("x", "float32[3,n]"), IN("ids", "int32[2]"));
    AI(c, "axis", 1);
    AS(c, "mode", "wrap");
    return c;
}

static int c_take_flat(void)
{
    int c = CALL("take", 2, IN("x", "float32[3,4]"), IN("ids", "int32[2]"));
    AS(c, "mode", "fast");
    return c;
}

static int c_broadcast_to(void)
{
    int c = CALL("broadcast_to", 1, IN("x", "bool[1,1,1,128]"));
    AL(c, "shape", 4, 1, 12, 1, 128);
    return c;
}

static int c_cumsum(void)
{
    int c = CALL("cumsum", 1, IN("x", "int64[1,128]"));
    AI(c, "axis", 1);
    return c;
}

static int c_cumsum_excl(void)
{
    int c = CALL("cumsum", 1, IN("x", "int32[2,3]"));
    AB(c, "exclusive", true);
    AD(c, "dtype", "int64");
    return c;
}

static int c_trilu(void)
{
    return CALL("trilu", 2, IN("x", "float32[3,3]"), CONSTI("c1", "int64", 1, 1));
}

static int c_mean(void)
{
    int c = CALL("mean", 1, IN("x", "float32[50,32,768]"));
    AL(c, "axis", 1, -1);
    AB(c, "keepdims", true);
    return c;
}

static int c_sum_exclude(void)
{
    int c = CALL("sum", 1, IN("x", "float32[2,3,4]"));
    AL(c, "axis", 1, 1);
    AB(c, "exclude", true);
    return c;
}

static int c_max_all(void) { return CALL("max", 1, IN("x", "float32[2,3]")); }

static int c_variance(void)
{
    int m = CALL("mean", 1, IN("x", "float32[2,6]"));
    AL(m, "axis", 1, 1);
    AB(m, "keepdims", true);
    int c = CALL("variance", 2, 0, m);
    AL(c, "axis", 1, 1);
    AB(c, "unbiased", true);
    return c;
}

static int c_argmax(void)
{
    int c = CALL("argmax", 1, IN("x", "float32[2,6]"));
    AL(c, "axis", 1, 1);
    return c;
}

/* Convolutions and products. */
static int c_conv(void)
{
    int c = CALL("nn.conv2d", 2, IN("x", "float32[1,4,8,8]"), CONST("c1", "float32[6,2,3,3]"));
    AL(c, "padding", 4, 1, 2, 3, 4);
    AL(c, "dilation", 2, 2, 1);
    AL(c, "strides", 2, 1, 2);
    AI(c, "groups", 2);
    return c;
}

static int c_conv_nhwc(void)
{
    int c = CALL("nn.conv2d", 2, IN("x", "float32[1,8,8,4]"), CONST("c1", "float32[3,3,4,6]"));
    AS(c, "data_layout", "NHWC");
    AS(c, "kernel_layout", "HWIO");
    AL(c, "padding", 2, 1, 1);
    return c;
}

static int c_conv_blocked(void)
{
    int c =
        CALL("nn.conv2d", 2, IN("x", "float32[1,1,8,8,8]"), CONST("c1", "float32[1,1,3,3,8,8]"));
    AS(c, "data_layout", "NCHW8c");
    AS(c, "kernel_layout", "OIHW8i8o");
    return c;
}

static int c_conv_f16_out32(void)
{
    int c = CALL("nn.conv2d", 2, IN("x", "float16[1,4,8,8]"), CONST("c1", "float16[6,4,1,1]"));
    AD(c, "out_dtype", "float32");
    return c;
}

static int c_conv_transpose(void)
{
    int c = CALL("nn.conv2d_transpose", 2, IN("x", "float32[1,4,5,5]"),
                 CONST("c1", "float32[4,3,3,3]"));
    AL(c, "strides", 2, 2, 2);
    AL(c, "padding", 4, 1, 1, 1, 1);
    AL(c, "output_padding", 2, 1, 1);
    return c;
}

static int c_conv1d(void)
{
    int c = CALL("nn.conv1d", 2, IN("x", "float32[1,4,16]"), CONST("c1", "float32[8,4,3]"));
    AL(c, "padding", 2, 1, 1);
    return c;
}

static int c_bias_add(void)
{
    return CALL("nn.bias_add", 2, IN("x", "float32[1,8,4,4]"), CONST("c1", "float32[8]"));
}

static int c_bias_add_last(void)
{
    int c = CALL("nn.bias_add", 2, IN("x", "float32[2,3,8]"), CONST("c1", "float32[8]"));
    AI(c, "axis", -1);
    return c;
}

static int c_dense(void)
{
    int c = CALL("nn.dense", 2, IN("x", "float32[1,256]"), CONST("c1", "float32[10,256]"));
    AI(c, "units", 10);
    return c;
}

static int c_dense_3d(void)
{
    return CALL("nn.dense", 2, IN("x", "float32[8,1,1024]"), CONST("c1", "float32[3072,1024]"));
}

static int c_batch_matmul(void)
{
    int c =
        CALL("nn.batch_matmul", 2, IN("a", "float32[12,128,64]"), IN("z", "float32[12,128,64]"));
    AB(c, "transpose_b", true);
    return c;
}

static int c_batch_matmul_f16(void)
{
    int c = CALL("nn.batch_matmul", 2, IN("a", "float16[2,3,4]"), IN("z", "float16[2,4,5]"));
    AD(c, "out_dtype", "float32");
    return c;
}

static int c_matmul(void)
{
    int c = CALL("nn.matmul", 2, IN("a", "float32[4,3]"), IN("z", "float32[4,5]"));
    AB(c, "transpose_a", true);
    return c;
}

/* Normalisation. */
static int c_batch_norm(void)
{
    return CALL("nn.batch_norm", 5, IN("x", "float32[1,8,4,4]"), CONST("c1", "float32[8]"),
                CONST("c2", "float32[8]"), CONST("c3", "float32[8]"), CONST("c4", "float32[8]"));
}

static int c_batch_norm_last(void)
{
    int c = CALL("nn.batch_norm", 5, IN("x", "float32[2,8]"), CONST("c1", "float32[8]"),
                 CONST("c2", "float32[8]"), CONST("c3", "float32[8]"), CONST("c4", "float32[8]"));
    AI(c, "axis", -1);
    AB(c, "center", false);
    AF(c, "epsilon", 0.001);
    return c;
}

static int c_layer_norm(void)
{
    int c = CALL("nn.layer_norm", 3, IN("x", "float32[1,8,16]"), CONST("c1", "float32[16]"),
                 CONST("c2", "float32[16]"));
    AF(c, "epsilon", 1e-6);
    return c;
}

static int c_layer_norm_axis1(void)
{
    int c = CALL("nn.layer_norm", 3, IN("x", "float32[1,8,16]"), CONST("c1", "float32[8]"),
                 CONST("c2", "float32[8]"));
    AI(c, "axis", 1);
    AB(c, "center", false);
    return c;
}

static int c_instance_norm(void)
{
    return CALL("nn.instance_norm", 3, IN("x", "float32[1,8,4,4]"), CONST("c1", "float32[8]"),
                CONST("c2", "float32[8]"));
}

static int c_group_norm(void)
{
    int c = CALL("nn.group_norm", 3, IN("x", "float32[1,8,4,4]"), CONST("c1", "float32[8]"),
                 CONST("c2", "float32[8]"));
    AI(c, "num_groups", 2);
    return c;
}

static int c_l2_normalize(void)
{
    int c = CALL("nn.l2_normalize", 1, IN("x", "float32[2,8]"));
    AF(c, "eps", 1e-12);
    AL(c, "axis", 1, 1);
    return c;
}

static int c_lrn(void)
{
    int c = CALL("nn.lrn", 1, IN("x", "float32[1,96,5,5]"));
    AF(c, "bias", 1);
    AF(c, "alpha", 1e-4);
    return c;
}

static int c_lrn_even(void)
{
    int c = CALL("nn.lrn", 1, IN("x", "float32[1,96,5,5]"));
    AI(c, "size", 4);
    return c;
}

static int c_softmax(void)
{
    int c = CALL("nn.softmax", 1, IN("x", "float32[2,3,4]"));
    AI(c, "axis", 1);
    return c;
}

static int c_softmax_last(void)
{
    int c = CALL("nn.softmax", 1, IN("x", "float32[16,8,8]"));
    AI(c, "axis", 2);
    return c;
}

static int c_log_softmax(void) { return CALL("nn.log_softmax", 1, IN("x", "float32[1,1000]")); }

/* Pools. */
static int c_max_pool(void)
{
    int c = CALL("nn.max_pool2d", 1, IN("x", "float32[1,64,112,112]"));
    AL(c, "pool_size", 2, 3, 3);
    AL(c, "strides", 2, 2, 2);
    AL(c, "padding", 4, 0, 0, 1, 1);
    return c;
}

static int c_max_pool_ceil(void)
{
    int c = CALL("nn.max_pool2d", 1, IN("x", "float32[1,4,6,6]"));
    AL(c, "pool_size", 2, 3, 3);
    AL(c, "strides", 2, 2, 2);
    AB(c, "ceil_mode", true);
    return c;
}

static int c_max_pool_ceil_pad(void)
{
    int c = CALL("nn.max_pool2d", 1, IN("x", "float32[1,4,6,6]"));
    AL(c, "pool_size", 2, 2, 2);
    AL(c, "strides", 2, 2, 2);
    AL(c, "padding", 4, 0, 0, 1, 1);
    AB(c, "ceil_mode", true);
    return c;
}

static int c_avg_pool(void)
{
    int c = CALL("nn.avg_pool2d", 1, IN("x", "float32[1,8,8,8]"));
    AL(c, "pool_size", 2, 3, 3);
    AL(c, "padding", 4, 1, 1, 1, 1);
    AB(c, "count_include_pad", true);
    return c;
}

static int c_avg_pool_nhwc(void)
{
    int c = CALL("nn.avg_pool2d", 1, IN("x", "float32[1,8,8,4]"));
    AL(c, "pool_size", 2, 2, 2);
    AL(c, "strides", 2, 2, 2);
    AS(c, "layout", "NHWC");
    return c;
}

static int c_avg_pool_int(void)
{
    int c = CALL("nn.avg_pool2d", 1, IN("x", "int32[1,8,8,8]"));
    AL(c, "pool_size", 2, 2, 2);
    return c;
}

static int c_global_avg(void)
{
    return CALL("nn.global_avg_pool2d", 1, IN("x", "float32[1,8,7,7]"));
}

static int c_global_max_nhwc(void)
{
    int c = CALL("nn.global_max_pool2d", 1, IN("x", "float32[1,7,7,8]"));
    AS(c, "layout", "NHWC");
    return c;
}

static int c_adaptive_avg(void)
{
    int c = CALL("nn.adaptive_avg_pool2d", 1, IN("x", "float32[1,8,8,8]"));
    AL(c, "output_size", 2, 2, 4);
    return c;
}

/* Padding, resizing, layout. */
static int c_pad(void)
{
    int c = CALL("nn.pad", 2, IN("x", "float32[1,1,28,28]"), CONSTF("c1", "float32", 0.5));
    APAIRS(c, "pad_width", 4, 0, 0, 0, 0, 2, 2, 1, 3);
    return c;
}

static int c_pad_edge(void)
{
    int c = CALL("nn.pad", 2, IN("x", "float32[4,4]"), CONSTF("c1", "float32", 0));
    APAIRS(c, "pad_width", 2, 1, 1, 2, 0);
    AS(c, "pad_mode", "edge");
    return c;
}

static int c_mirror_pad(void)
{
    int c = CALL("nn.mirror_pad", 1, IN("x", "float32[4,4]"));
    APAIRS(c, "pad_width", 2, 1, 1, 2, 0);
    return c;
}

static int c_resize_nearest(void)
{
    int c = CALL("image.resize2d", 1, IN("x", "float32[1,3,4,4]"));
    AL(c, "size", 2, 8, 8);
    AS(c, "method", "nearest_neighbor");
    AS(c, "coordinate_transformation_mode", "asymmetric");
    AS(c, "rounding_method", "");
    return c;
}

static int c_resize_linear(void)
{
    int c = CALL("image.resize2d", 1, IN("x", "float32[n,3,4,4]"));
    AL(c, "size", 2, 6, 10);
    return c;
}

static int c_upsampling(void)
{
    int c = CALL("nn.upsampling", 1, IN("x", "float32[1,3,4,4]"));
    AF(c, "scale_h", 2);
    AF(c, "scale_w", 2);
    AS(c, "method", "bilinear");
    AB(c, "align_corners", true);
    return c;
}

static int c_layout_transform(void)
{
    int c = CALL("layout_transform", 1, IN("x", "float32[1,16,4,4]"));
    AS(c, "src_layout", "NCHW");
    AS(c, "dst_layout", "NCHW8c");
    return c;
}

static int c_layout_back(void)
{
    int c = CALL("layout_transform", 1, IN("x", "float32[1,2,4,4,8]"));
    AS(c, "src_layout", "NCHW8c");
    AS(c, "dst_layout", "NHWC");
    return c;
}

static int c_depth_to_space(void)
{
    int c = CALL("nn.depth_to_space", 1, IN("x", "float32[1,8,2,2]"));
    AI(c, "block_size", 2);
    AS(c, "mode", "CRD");
    return c;
}

/* Others. */
static int c_dropout(void) { return CALL("nn.dropout", 1, IN("x", "float32[2,3]")); }
static int c_prelu(void)
{
    return CALL("nn.prelu", 2, IN("x", "float32[1,8,4,4]"), CONST("c1", "float32[8]"));
}

static int c_leaky_relu(void)
{
    int c = CALL("nn.leaky_relu", 1, IN("x", "float32[4]"));
    AF(c, "alpha", 0.1);
    return c;
}

static int c_one_hot(void)
{
    int c = CALL("one_hot", 3, IN("ids", "int32[2]"), CONSTF("c1", "float32", 1),
                 CONSTF("c2", "float32", 0));
    AI(c, "depth", 3);
    AD(c, "dtype", "float32");
    return c;
}

static int c_topk(void)
{
    int c = CALL("topk", 1, IN("x", "float32[2,10]"));
    AI(c, "k", 3);
    return c;
}

static int c_argsort(void) { return CALL("argsort", 1, IN("x", "float32[2,10]")); }

static int c_gather_nd(void)
{
    return CALL("gather_nd", 2, IN("x", "float32[3,4]"), IN("ids", "int32[2,5]"));
}

static int c_arange(void)
{
    int c = CALL("arange", 3, CONSTF("c0", "float32", 0), CONSTF("c1", "float32", 10),
                 CONSTF("c2", "float32", 2));
    AD(c, "dtype", "int64");
    return c;
}

static int c_full(void)
{
    int c = CALL("full", 1, CONSTF("c0", "float32", 3));
    AL(c, "shape", 2, 2, 3);
    AD(c, "dtype", "float16");
    return c;
}

static int c_zeros(void)
{
    int c = CALL("zeros", 0);
    AL(c, "shape", 2, 2, 3);
    AD(c, "dtype", "int32");
    return c;
}

static int c_tile(void)
{
    int c = CALL("tile", 1, IN("x", "float32[2,3]"));
    AL(c, "reps", 3, 2, 1, 2);
    return c;
}

static int c_repeat(void)
{
    int c = CALL("repeat", 1, IN("x", "float32[2,3]"));
    AI(c, "repeats", 2);
    AI(c, "axis", 1);
    return c;
}

static int c_reverse(void)
{
    int c = CALL("reverse", 1, IN("x", "float32[2,3]"));
    AI(c, "axis", 1);
    return c;
}

static int c_fixed_point(void)
{
    int c = CALL("fixed_point_multiply", 1, IN("x", "int32[4]"));
    AI(c, "multiplier", 1 << 30);
    AI(c, "shift", -2);
    return c;
}

/* Quantized. */
static int c_quantize(void)
{
    int c = CALL("qnn.quantize", 3, IN("x", "float32[1,3,4,4]"), CONSTF("c1", "float32", 0.0039),
                 CONSTI("c2", "int32", 1, 0));
    AD(c, "out_dtype", "uint8");
    return c;
}

static int c_quantize_axis(void)
{
    int c = CALL("qnn.quantize", 3, IN("x", "float32[1,3,4,4]"), CONST("c1", "float32[3]"),
                 CONSTI("c2", "int32[3]", 3, 0, 1, 2));
    AD(c, "out_dtype", "int8");
    AI(c, "axis", 1);
    return c;
}

static int c_dequantize(void)
{
    return CALL("qnn.dequantize", 3, IN("x", "uint8[1,1000]"), CONSTF("c1", "float32", 0.00055),
                CONSTI("c2", "int32", 1, 129));
}

static int c_requantize(void)
{
    int c = CALL("qnn.requantize", 5, IN("x", "int32[1,64,4,4]"), CONST("c1", "float32[64]"),
                 CONSTI("c2", "int32", 1, 0), CONSTF("c3", "float32", 0.0004),
                 CONSTI("c4", "int32", 1, 127));
    AD(c, "out_dtype", "uint8");
    AI(c, "axis", 1);
    return c;
}

static int c_qconv(void)
{
    int c = CALL("qnn.conv2d", 6, IN("x", "uint8[1,3,8,8]"), CONST("c1", "int8[4,3,3,3]"),
                 CONSTI("c2", "int32", 1, 3), CONSTI("c3", "int32", 1, 0),
                 CONSTF("c4", "float32", 0.004), CONST("c5", "float32[4]"));
    AL(c, "padding", 4, 1, 1, 1, 1);
    AD(c, "out_dtype", "int32");
    return c;
}

static int c_qdense(void)
{
    int c = CALL("qnn.dense", 6, IN("x", "uint8[1,512]"), CONST("c1", "int8[1000,512]"),
                 CONSTI("c2", "int32", 1, 0), CONSTI("c3", "int32", 1, 0),
                 CONSTF("c4", "float32", 0.0004), CONST("c5", "float32[1]"));
    AD(c, "out_dtype", "int32");
    return c;
}

static int c_qadd(void)
{
    return CALL("qnn.add", 8, IN("a", "uint8[1,4,2,2]"), IN("z", "uint8[1,4,2,2]"),
                CONSTF("c2", "float32", 0.0005), CONSTI("c3", "int32", 1, 115),
                CONSTF("c4", "float32", 0.0004), CONSTI("c5", "int32", 1, 0),
                CONSTF("c6", "float32", 0.0005), CONSTI("c7", "int32", 1, 0));
}

static int c_qconcat(void)
{
    int a = IN("a", "int8[1,2]"), z = IN("z", "int8[1,3]");
    int c = CALL("qnn.concatenate", 5, TUP(2, a, z),
                 TUP(2, CONSTF("c2", "float32", 0.5), CONSTF("c3", "float32", 0.25)),
                 TUP(2, CONSTI("c4", "int32", 1, 0), CONSTI("c5", "int32", 1, 1)),
                 CONSTF("c6", "float32", 0.5), CONSTI("c7", "int32", 1, 0));
    AI(c, "axis", 1);
    return c;
}

/* More ops, checked by onnx.checker and against numpy (emit_numeric.py). */
#define UNARY(fn, op, spec)                                                                        \
    static int fn(void) { return CALL(op, 1, IN("x", spec)); }
#define BINARY(fn, op, spec)                                                                       \
    static int fn(void) { return CALL(op, 2, IN("x", spec), IN("z", spec)); }
UNARY(c_sigmoid, "sigmoid", "float32[2,3]")
UNARY(c_exp, "exp", "float32[2,3]")
UNARY(c_tanh, "tanh", "float32[2,3]")
UNARY(c_negative, "negative", "int32[4]")
UNARY(c_sign, "sign", "float32[4]")
UNARY(c_round, "round", "float32[8]")
UNARY(c_trunc, "trunc", "float32[8]")
UNARY(c_isfinite, "isfinite", "float32[4]")
UNARY(c_log2, "log2", "float32[4]")
UNARY(c_fast_softmax, "nn.fast_softmax", "float32[2,5]")
UNARY(c_shape_of, "shape_of", "float32[2,5,3]")
UNARY(c_ndarray_size, "ndarray_size", "float32[2,5,3]")
UNARY(c_zeros_like, "zeros_like", "float16[2,3]")
UNARY(c_ones_like, "ones_like", "int64[2,3]")
UNARY(c_sort, "sort", "float32[3,6]")
UNARY(c_global_max, "nn.global_max_pool2d", "float32[1,4,5,5]")
BINARY(c_maximum, "maximum", "float32[4]")
BINARY(c_mod_i, "mod", "int32[6]")
BINARY(c_trunc_mod_f, "trunc_mod", "float32[6]")
BINARY(c_trunc_div_f, "trunc_divide", "float32[6]")
BINARY(c_not_equal, "not_equal", "int64[4]")
BINARY(c_less_equal, "less_equal", "float32[4]")
BINARY(c_logical_and, "logical_and", "bool[4]")
BINARY(c_bitwise_or_b, "bitwise_or", "bool[4]")
BINARY(c_right_shift, "right_shift", "uint8[4]")
BINARY(c_right_shift_i, "right_shift", "int32[6]")
BINARY(c_left_shift_i, "left_shift", "int8[6]")
BINARY(c_subtract, "subtract", "float32[2,3]")

static int c_where_int(void)
{
    return CALL("where", 3, IN("cond", "int32[4]"), IN("x", "float32[4]"), IN("z", "float32[4]"));
}

static int c_cast_like(void)
{
    return CALL("cast_like", 2, IN("x", "float32[4]"), IN("z", "int8[4]"));
}

static int c_prod(void)
{
    int c = CALL("prod", 1, IN("x", "float32[2,3,4]"));
    AL(c, "axis", 2, 0, -1);
    AB(c, "keepdims", true);
    return c;
}

static int c_all(void)
{
    int c = CALL("all", 1, IN("x", "bool[2,3]"));
    AL(c, "axis", 1, 1);
    return c;
}

static int c_any(void) { return CALL("any", 1, IN("x", "bool[2,3]")); }

static int c_argmin_all(void)
{
    int c = CALL("argmin", 1, IN("x", "float32[2,3]"));
    AB(c, "keepdims", true);
    return c;
}

static int c_max_pool1d(void)
{
    int c = CALL("nn.max_pool1d", 1, IN("x", "float32[1,2,9]"));
    AL(c, "pool_size", 1, 3);
    AL(c, "strides", 1, 2);
    AL(c, "padding", 2, 1, 1);
    return c;
}

static int c_avg_pool3d(void)
{
    int c = CALL("nn.avg_pool3d", 1, IN("x", "float32[1,2,4,4,4]"));
    AL(c, "pool_size", 3, 2, 2, 2);
    AL(c, "strides", 3, 2, 2, 2);
    return c;
}

static int c_adaptive_max(void)
{
    int c = CALL("nn.adaptive_max_pool2d", 1, IN("x", "float32[1,2,6,6]"));
    AL(c, "output_size", 1, 1);
    return c;
}

static int c_conv3d(void)
{
    int c = CALL("nn.conv3d", 2, IN("x", "float32[1,2,4,4,4]"), CONST("c1", "float32[3,2,3,3,3]"));
    AL(c, "padding", 3, 1, 0, 1);
    return c;
}

static int c_instance_norm_plain(void)
{
    int c = CALL("nn.instance_norm", 3, IN("x", "float32[2,3,5]"), CONST("c1", "float32[3]"),
                 CONST("c2", "float32[3]"));
    AB(c, "center", false);
    return c;
}

static int c_scatter_elements(void)
{
    int c = CALL("scatter_elements", 3, IN("x", "float32[3,4]"), IN("ids", "int64[2,4]"),
                 IN("z", "float32[2,4]"));
    AI(c, "axis", 0);
    AS(c, "reduction", "add");
    return c;
}

static int c_scatter_nd(void)
{
    return CALL("scatter_nd", 3, IN("x", "float32[3,4]"), IN("ids", "int64[2,2]"),
                IN("z", "float32[2]"));
}

static int c_gather(void)
{
    int c = CALL("gather", 2, IN("x", "float32[3,4]"), IN("ids", "int32[3,2]"));
    AI(c, "axis", 1);
    return c;
}

static int c_reverse_sequence(void)
{
    return CALL("reverse_sequence", 2, IN("x", "float32[3,4,2]"), IN("ids", "int32[3]"));
}

static int c_reshape_like(void)
{
    return CALL("reshape_like", 2, IN("x", "float32[2,6]"), IN("z", "float32[3,4]"));
}

static int c_slice_like(void)
{
    int c = CALL("slice_like", 2, IN("x", "float32[4,6]"), IN("z", "float32[2,3]"));
    AL(c, "axes", 1, 1);
    return c;
}

static int c_broadcast_to_like(void)
{
    return CALL("broadcast_to_like", 2, IN("x", "float32[1,3]"), IN("z", "float32[2,3]"));
}

static int c_full_like(void)
{
    return CALL("full_like", 2, IN("x", "int32[2,3]"), CONSTF("c1", "float32", 7));
}

static int c_sequence_mask(void)
{
    int c = CALL("sequence_mask", 2, IN("x", "float32[5,3,2]"), IN("ids", "int32[3]"));
    AF(c, "mask_value", -1);
    return c;
}

static int c_reverse_reshape(void)
{
    int c = CALL("contrib_reverse_reshape", 1, IN("x", "float32[2,3,4]"));
    AL(c, "newshape", 2, -1, 0);
    return c;
}

static int c_space_to_depth(void)
{
    int c = CALL("nn.space_to_depth", 1, IN("x", "float32[1,2,4,4]"));
    AI(c, "block_size", 2);
    return c;
}

static int c_mirror_reflect(void)
{
    int c = CALL("nn.mirror_pad", 1, IN("x", "float32[4,4]"));
    APAIRS(c, "pad_width", 2, 1, 1, 2, 0);
    AS(c, "mode", "REFLECT");
    return c;
}

static int c_resize_cubic(void)
{
    int c = CALL("image.resize2d", 1, IN("x", "float32[1,2,3,5]"));
    AL(c, "size", 2, 3, 9);
    AS(c, "method", "cubic");
    AS(c, "coordinate_transformation_mode", "align_corners");
    return c;
}

static int c_upsampling3d(void)
{
    int c = CALL("nn.upsampling3d", 1, IN("x", "float32[1,1,2,2,2]"));
    AF(c, "scale_d", 2);
    AF(c, "scale_h", 2);
    AF(c, "scale_w", 2);
    AS(c, "coordinate_transformation_mode", "asymmetric");
    return c;
}

static int c_deq_axis(void)
{
    int c = CALL("qnn.dequantize", 3, IN("x", "int8[2,3]"), CONST("c1", "float32[3]"),
                 CONSTI("c2", "int32[3]", 3, 0, 1, -1));
    AI(c, "axis", 1);
    return c;
}

static int c_qmul(void)
{
    return CALL("qnn.mul", 8, IN("a", "int8[4]"), IN("z", "int8[4]"), CONSTF("c2", "float32", 0.05),
                CONSTI("c3", "int32", 1, 2), CONSTF("c4", "float32", 0.1),
                CONSTI("c5", "int32", 1, 0), CONSTF("c6", "float32", 0.02),
                CONSTI("c7", "int32", 1, -3));
}

static int c_qsigmoid(void)
{
    return CALL("qnn.sigmoid", 5, IN("x", "uint8[8]"), CONSTF("c1", "float32", 0.05),
                CONSTI("c2", "int32", 1, 128), CONSTF("c3", "float32", 1.0 / 256),
                CONSTI("c4", "int32", 1, 0));
}

static int c_qhardswish(void)
{
    return CALL("qnn.hardswish", 5, IN("x", "int8[8]"), CONSTF("c1", "float32", 0.05),
                CONSTI("c2", "int32", 1, 0), CONSTF("c3", "float32", 0.05),
                CONSTI("c4", "int32", 1, 0));
}

static int c_qsoftmax(void)
{
    return CALL("qnn.softmax", 5, IN("x", "int8[2,4]"), CONSTF("c1", "float32", 0.1),
                CONSTI("c2", "int32", 1, 0), CONSTF("c3", "float32", 1.0 / 256),
                CONSTI("c4", "int32", 1, -128));
}

static int c_qavg_pool(void)
{
    int c = CALL("qnn.avg_pool2d", 5, IN("x", "uint8[1,2,4,4]"), CONSTF("c1", "float32", 0.1),
                 CONSTI("c2", "int32", 1, 10), CONSTF("c3", "float32", 0.1),
                 CONSTI("c4", "int32", 1, 10));
    AL(c, "pool_size", 2, 2, 2);
    AL(c, "strides", 2, 2, 2);
    return c;
}

static int c_qbatch_matmul(void)
{
    int c = CALL("qnn.batch_matmul", 6, IN("a", "int8[2,3,4]"), IN("z", "int8[2,5,4]"),
                 CONSTI("c2", "int32", 1, 1), CONSTI("c3", "int32", 1, -2),
                 CONSTF("c4", "float32", 0.1), CONSTF("c5", "float32", 0.1));
    AB(c, "transpose_b", true);
    AD(c, "out_dtype", "int32");
    return c;
}

static int c_backward_weight(void)
{
    int c = CALL("nn.conv2d_backward_weight", 2, IN("x", "float32[1,4,8,8]"),
                 IN("z", "float32[1,4,8,8]"));
    AL(c, "kernel_size", 2, 1, 1);
    return c;
}

typedef struct tcase {
    const char *name;
    int (*build)(void);
    int opset;
    const char *want; /* the nodes, or "error: " and the start of the message */
} tcase;

static const tcase cases[] = {
    {"add", c_add, 13, "Add(x,z)->Y"},
    {"add_mixed", c_add_mixed, 13, "Cast(z)->t0{to=10}; Add(x,t0)->Y"},
    {"add_i8", c_add_i8, 13,
     "Cast(x)->t0{to=6}; Cast(z)->t1{to=6}; Add(t0,t1)->t2; Cast(t2)->Y{to=3}"},
    {"add_i8", c_add_i8, 17, "Add(x,z)->Y"},
    {"rsqrt", c_rsqrt, 9, "Sqrt(x)->t0; Reciprocal(t0)->Y"},
    {"erf", c_erf, 9, "Erf(x)->Y"},
    {"relu", c_relu, 9, "Relu(x)->Y"},
    {"relu_i8", c_relu_i8, 9, "error: 'nn.relu' on int8 needs opset 12"},
    {"relu_i8", c_relu_i8, 13, "Max(x,i8:0)->Y"},
    {"relu_i8", c_relu_i8, 17, "Relu(x)->Y"},
    {"clip", c_clip, 9, "Clip(x)->Y{min=0 max=6}"},
    {"clip", c_clip, 13, "Clip(x,f32:0,f32:6)->Y"},
    {"clip_i32", c_clip_i32, 13, "Clip(x,i32:-2147483648,i32:100)->Y"},
    {"clip_i32", c_clip_i32, 9,
     "Less(x,i32:-2147483648)->t0; Where(t0,i32:-2147483648,x)->t1; Greater(t1,i32:100)->t2; "
     "Where(t2,i32:100,t1)->Y"},
    {"cast", c_cast, 9, "Cast(x)->Y{to=7}"},
    {"where", c_where, 9, "Where(cond,c1,x)->Y"},
    {"less", c_less, 9, "Less(x,c1)->Y"},
    {"equal_f", c_equal_f, 9, "error: 'equal' needs ONNX Equal of floats, which opset 9 lacks"},
    {"equal_f", c_equal_f, 13, "Equal(x,z)->Y"},
    {"ge_f", c_ge_f, 9, "error: 'greater_equal' needs ONNX Equal of floats"},
    {"ge_f", c_ge_f, 13, "GreaterOrEqual(x,z)->Y"},
    {"ge_i", c_ge_i, 9, "Less(x,z)->t0; Not(t0)->Y"},
    {"not", c_not, 9, "Not(x)->Y"},
    {"power", c_power, 13, "Pow(x,c1)->Y"},
    {"floor_mod_f", c_floor_mod_f, 13, "Div(x,z)->t0; Floor(t0)->t1; Mul(t1,z)->t2; Sub(x,t2)->Y"},
    {"floor_div_i", c_floor_div_i, 13, "Mod(x,z)->t0{fmod=0}; Sub(x,t0)->t1; Div(t1,z)->Y"},
    {"reshape_static", c_reshape_static, 13, "Reshape(x,[50,32,12,64])->Y"},
    {"reshape_sym", c_reshape_sym, 13, "Reshape(x,[0,-1])->Y"},
    {"reshape_codes", c_reshape_codes, 13, "Reshape(x,[0,24,1])->Y"},
    {"transpose", c_transpose, 9, "Transpose(x)->Y{perm=[0,2,1,3]}"},
    {"transpose_rev", c_transpose_rev, 9, "Transpose(x)->Y{perm=[2,1,0]}"},
    {"expand_dims", c_expand_dims, 9, "Unsqueeze(x)->Y{axes=[1,2]}"},
    {"expand_dims", c_expand_dims, 13, "Unsqueeze(x,[1,2])->Y"},
    {"squeeze", c_squeeze, 9, "Squeeze(x)->Y{axes=[2]}"},
    {"squeeze", c_squeeze, 13, "Squeeze(x,[2])->Y"},
    {"squeeze_all", c_squeeze_all, 13, "Squeeze(x)->Y"},
    {"batch_flatten", c_batch_flatten, 9, "Flatten(x)->Y{axis=1}"},
    {"concat", c_concat, 9, "Concat(a,z)->Y{axis=1}"},
    {"stack", c_stack, 13, "Unsqueeze(a,[1])->t0; Unsqueeze(z,[1])->t1; Concat(t0,t1)->Y{axis=1}"},
    {"split", c_split, 9, "Split(x)->Y0,Y1,Y2{split=[768,768,768] axis=2}"},
    {"split", c_split, 13, "Split(x,[768,768,768])->Y0,Y1,Y2{axis=2}"},
    {"split_sym", c_split_sym, 13, "Split(x)->Y0,Y1{axis=1}"},
    {"strided_slice", c_strided_slice, 9, "Slice(x)->Y{starts=[2048] ends=[3072] axes=[2]}"},
    {"strided_slice", c_strided_slice, 13, "Slice(x,[2048],[3072],[2])->Y"},
    {"strided_slice_steps", c_strided_slice_steps, 9,
     "error: 'strided_slice' needs ONNX Slice with steps"},
    {"strided_slice_steps", c_strided_slice_steps, 13, "Slice(x,[1,-1],[7,-11],[0,1],[2,-1])->Y"},
    {"strided_slice_size", c_strided_slice_size, 13,
     "Slice(x,[1,2],[9223372036854775807,5],[0,1])->Y"},
    {"take", c_take, 13, "Clip(ids,i64:0,i64:49)->t0; Gather(c0,t0)->Y{axis=0}"},
    {"take", c_take, 9,
     "Less(ids,i64:0)->t0; Where(t0,i64:0,ids)->t1; Greater(t1,i64:49)->t2; "
     "Where(t2,i64:49,t1)->t3; Gather(c0,t3)->Y{axis=0}"},
    {"take_known", c_take_known, 13, "Gather(c0,c1)->Y{axis=0}"},
    {"take_wrap", c_take_wrap, 13,
     "Shape(x)->t0; Gather(t0,i64:1)->t1; Cast(t1)->t2{to=6}; Mod(ids,t2)->t3{fmod=0}; "
     "Gather(x,t3)->Y{axis=1}"},
    {"take_flat", c_take_flat, 13, "Reshape(x,[-1])->t0; Gather(t0,ids)->Y{axis=0}"},
    {"broadcast_to", c_broadcast_to, 9, "Expand(x,[1,12,1,128])->Y"},
    {"cumsum", c_cumsum, 9, "error: 'cumsum' needs ONNX CumSum"},
    {"cumsum", c_cumsum, 13, "CumSum(x,i64:1)->Y"},
    {"cumsum_excl", c_cumsum_excl, 13,
     "Cast(x)->t0{to=7}; Reshape(t0,[-1])->t1; CumSum(t1,i64:0)->Y{exclusive=1}"},
    {"trilu", c_trilu, 17, "Trilu(x,c1)->Y{upper=1}"},
    {"trilu", c_trilu, 13, "Where(<b 3x3>,x,f32:0)->Y"},
    {"mean", c_mean, 13, "ReduceMean(x)->Y{axes=[2] keepdims=1}"},
    {"sum_exclude", c_sum_exclude, 13, "ReduceSum(x,[0,2])->Y{keepdims=0}"},
    {"sum_exclude", c_sum_exclude, 9, "ReduceSum(x)->Y{axes=[0,2] keepdims=0}"},
    {"max_all", c_max_all, 13, "ReduceMax(x)->Y{keepdims=0}"},
    {"variance", c_variance, 13,
     "Sub(x,n1)->t0; Mul(t0,t0)->t1; ReduceSum(t1,[1])->t2{keepdims=0}; Div(t2,f32:5)->Y"},
    {"argmax", c_argmax, 13, "ArgMax(x)->t0{axis=1 keepdims=0}; Cast(t0)->Y{to=6}"},
    {"conv", c_conv, 9, "Conv(x,c1)->Y{dilations=[2,1] pads=[1,2,3,4] strides=[1,2] group=2}"},
    {"conv_nhwc", c_conv_nhwc, 13,
     "Transpose(x)->t0{perm=[0,3,1,2]}; Transpose(c1)->t1{perm=[3,2,0,1]}; "
     "Conv(t0,t1)->t2{dilations=[1,1] pads=[1,1,1,1] strides=[1,1] group=1}; "
     "Transpose(t2)->Y{perm=[0,2,3,1]}"},
    {"conv_blocked", c_conv_blocked, 13,
     "error: 'nn.conv2d' with data_layout 'NCHW8c' has no ONNX form"},
    {"conv_f16_out32", c_conv_f16_out32, 13,
     "Cast(x)->t0{to=1}; Cast(c1)->t1{to=1}; "
     "Conv(t0,t1)->Y{dilations=[1,1] pads=[0,0,0,0] strides=[1,1] group=1}"},
    {"conv_transpose", c_conv_transpose, 13,
     "ConvTranspose(x,c1)->Y{dilations=[1,1] pads=[1,1,1,1] strides=[2,2] group=1 "
     "output_padding=[1,1]}"},
    {"conv1d", c_conv1d, 13, "Conv(x,c1)->Y{dilations=[1] pads=[1,1] strides=[1] group=1}"},
    {"bias_add", c_bias_add, 13, "Reshape(c1,[-1,1,1])->t0; Add(x,t0)->Y"},
    {"bias_add_last", c_bias_add_last, 13, "Add(x,c1)->Y"},
    {"dense", c_dense, 13, "Gemm(x,c1)->Y{transB=1}"},
    {"dense", c_dense, 9, "Transpose(c1)->t0{perm=[1,0]}; MatMul(x,t0)->Y"},
    {"dense_3d", c_dense_3d, 13, "Transpose(c1)->t0{perm=[1,0]}; MatMul(x,t0)->Y"},
    {"batch_matmul", c_batch_matmul, 13, "Transpose(z)->t0{perm=[0,2,1]}; MatMul(a,t0)->Y"},
    {"batch_matmul_f16", c_batch_matmul_f16, 13,
     "Cast(a)->t0{to=1}; Cast(z)->t1{to=1}; MatMul(t0,t1)->Y"},
    {"matmul", c_matmul, 13, "Transpose(a)->t0{perm=[1,0]}; MatMul(t0,z)->Y"},
    {"batch_norm", c_batch_norm, 9,
     "BatchNormalization(x,c1,c2,c3,c4)->Y0{epsilon=1e-05}; Identity(c3)->Y1; Identity(c4)->Y2"},
    {"batch_norm_last", c_batch_norm_last, 13,
     "Add(c4,f32:0.001)->t0; Sqrt(t0)->t1; Reciprocal(t1)->t2; Mul(t2,c1)->t3; Neg(c3)->t4; "
     "Mul(t4,t3)->t5; Mul(x,t3)->t6; Add(t6,t5)->Y0; Identity(c3)->Y1; Identity(c4)->Y2"},
    {"layer_norm", c_layer_norm, 17, "LayerNormalization(x,c1,c2)->Y{axis=-1 epsilon=1e-06}"},
    {"layer_norm", c_layer_norm, 13,
     "ReduceMean(x)->t0{axes=[2] keepdims=1}; Sub(x,t0)->t1; Mul(t1,t1)->t2; "
     "ReduceMean(t2)->t3{axes=[2] keepdims=1}; Add(t3,f32:1e-06)->t4; Sqrt(t4)->t5; "
     "Div(t1,t5)->t6; Mul(t6,c1)->t7; Add(t7,c2)->Y"},
    {"layer_norm_axis1", c_layer_norm_axis1, 17,
     "ReduceMean(x)->t0{axes=[1] keepdims=1}; Sub(x,t0)->t1; Mul(t1,t1)->t2; "
     "ReduceMean(t2)->t3{axes=[1] keepdims=1}; Add(t3,f32:1e-05)->t4; Sqrt(t4)->t5; "
     "Div(t1,t5)->t6; Reshape(c1,[-1,1])->t7; Mul(t6,t7)->Y"},
    {"instance_norm", c_instance_norm, 9, "InstanceNormalization(x,c1,c2)->Y{epsilon=1e-05}"},
    {"group_norm", c_group_norm, 13, NULL},
    {"l2_normalize", c_l2_normalize, 13,
     "Mul(x,x)->t0; ReduceSum(t0,[1])->t1{keepdims=1}; Max(t1,f32:1e-12)->t2; Sqrt(t2)->t3; "
     "Div(x,t3)->Y"},
    {"lrn", c_lrn, 9, "LRN(x)->Y{alpha=0.0001 beta=0.75 bias=1 size=5}"},
    {"lrn_even", c_lrn_even, 9, "error: 'nn.lrn' of even size 4 has no ONNX form"},
    {"softmax", c_softmax, 9,
     "Transpose(x)->t0{perm=[0,2,1]}; Softmax(t0)->t1{axis=2}; Transpose(t1)->Y{perm=[0,2,1]}"},
    {"softmax", c_softmax, 13, "Softmax(x)->Y{axis=1}"},
    {"softmax_last", c_softmax_last, 9, "Softmax(x)->Y{axis=2}"},
    {"log_softmax", c_log_softmax, 9, "LogSoftmax(x)->Y{axis=1}"},
    {"max_pool", c_max_pool, 9, "MaxPool(x)->Y{pads=[0,0,1,1] strides=[2,2] kernel_shape=[3,3]}"},
    {"max_pool_ceil", c_max_pool_ceil, 9, "error: 'nn.max_pool2d' needs ONNX pools' ceil_mode"},
    {"max_pool_ceil", c_max_pool_ceil, 13,
     "MaxPool(x)->Y{ceil_mode=1 pads=[0,0,0,0] strides=[2,2] kernel_shape=[3,3]}"},
    {"max_pool_ceil_pad", c_max_pool_ceil_pad, 13,
     "error: 'nn.max_pool2d' with ceil_mode and a last window in the padding"},
    {"avg_pool", c_avg_pool, 9,
     "AveragePool(x)->Y{count_include_pad=1 pads=[1,1,1,1] strides=[1,1] kernel_shape=[3,3]}"},
    {"avg_pool_nhwc", c_avg_pool_nhwc, 13,
     "Transpose(x)->t0{perm=[0,3,1,2]}; AveragePool(t0)->t1{count_include_pad=0 "
     "pads=[0,0,0,0] strides=[2,2] kernel_shape=[2,2]}; Transpose(t1)->Y{perm=[0,2,3,1]}"},
    {"avg_pool_int", c_avg_pool_int, 13,
     "Cast(x)->t0{to=1}; AveragePool(t0)->t1{count_include_pad=0 pads=[0,0,0,0] "
     "strides=[1,1] kernel_shape=[2,2]}; Cast(t1)->Y{to=6}"},
    {"global_avg", c_global_avg, 9, "GlobalAveragePool(x)->Y"},
    {"global_max_nhwc", c_global_max_nhwc, 13, "ReduceMax(x)->Y{axes=[1,2] keepdims=1}"},
    {"adaptive_avg", c_adaptive_avg, 13,
     "AveragePool(x)->Y{count_include_pad=0 pads=[0,0,0,0] strides=[4,2] kernel_shape=[4,2]}"},
    {"pad", c_pad, 9, "Pad(x)->Y{pads=[0,0,2,1,0,0,2,3] value=0.5 mode=constant}"},
    {"pad", c_pad, 13, "Pad(x,[0,0,2,1,0,0,2,3],c1)->Y{mode=constant}"},
    {"pad_edge", c_pad_edge, 13, "Pad(x,[1,2,1,0])->Y{mode=edge}"},
    {"mirror_pad", c_mirror_pad, 13, "error: 'nn.mirror_pad' with mode 'SYMMETRIC'"},
    {"resize_nearest", c_resize_nearest, 9, "Upsample(x,<f32 4>)->Y{mode=nearest}"},
    {"resize_nearest", c_resize_nearest, 13,
     "Resize(x,,,[1,3,8,8])->Y{coordinate_transformation_mode=asymmetric mode=nearest "
     "nearest_mode=floor}"},
    {"resize_linear", c_resize_linear, 13,
     "Shape(x)->t0; Slice(t0,[0],[2],[0])->t1; Concat(t1,[6,10])->t2{axis=0}; "
     "Resize(x,,,t2)->Y{coordinate_transformation_mode=half_pixel mode=linear}"},
    {"resize_linear", c_resize_linear, 9, "error: 'image.resize2d' with method 'linear'"},
    {"upsampling", c_upsampling, 13,
     "Resize(x,,,[1,3,8,8])->Y{coordinate_transformation_mode=align_corners mode=linear}"},
    {"layout_transform", c_layout_transform, 13,
     "Reshape(x,[1,2,8,4,4])->t0; Transpose(t0)->Y{perm=[0,1,3,4,2]}"},
    {"layout_back", c_layout_back, 13,
     "Transpose(x)->t0{perm=[0,2,3,1,4]}; Reshape(t0,[1,4,4,16])->Y"},
    {"depth_to_space", c_depth_to_space, 13, "DepthToSpace(x)->Y{blocksize=2 mode=CRD}"},
    {"dropout", c_dropout, 13, "Identity(x)->Y0"},
    {"prelu", c_prelu, 9, "Reshape(c1,[-1,1,1])->t0; PRelu(x,t0)->Y"},
    {"leaky_relu", c_leaky_relu, 9, "LeakyRelu(x)->Y{alpha=0.1}"},
    {"one_hot", c_one_hot, 13,
     "Cast(ids)->t0{to=7}; Unsqueeze(t0,[1])->t1; Equal(t1,[0,1,2])->t2; Where(t2,c1,c2)->Y"},
    {"topk", c_topk, 13, "TopK(x,[3])->Y0,t0{axis=1 largest=1 sorted=1}; Cast(t0)->Y1{to=6}"},
    {"argsort", c_argsort, 13, "TopK(x,[10])->t0,t1{axis=1 largest=0 sorted=1}; Cast(t1)->Y{to=6}"},
    {"gather_nd", c_gather_nd, 13,
     "Cast(ids)->t0{to=7}; Transpose(t0)->t1{perm=[1,0]}; GatherND(x,t1)->Y"},
    {"arange", c_arange, 13,
     "Cast(c0)->t0{to=7}; Cast(c1)->t1{to=7}; Cast(c2)->t2{to=7}; "
     "Range(t0,t1,t2)->Y"},
    {"full", c_full, 13, "Cast(c0)->t0{to=10}; Expand(t0,[2,3])->Y"},
    {"zeros", c_zeros, 9, "ConstantOfShape([2,3])->Y{value=<i32 1>}"},
    {"tile", c_tile, 13, "Unsqueeze(x,[0])->t0; Tile(t0,[2,1,2])->Y"},
    {"repeat", c_repeat, 13, "Unsqueeze(x,[2])->t0; Tile(t0,[1,1,2])->t1; Reshape(t1,[2,6])->Y"},
    {"reverse", c_reverse, 13, "Slice(x,[-1],[-9223372036854775808],[1],[-1])->Y"},
    {"fixed_point", c_fixed_point, 13, NULL},
    {"quantize", c_quantize, 13, "QuantizeLinear(x,c1,u8:0)->Y"},
    {"quantize", c_quantize, 9, "error: 'qnn.quantize' needs ONNX QuantizeLinear, which opset 9 lacks"},
    {"quantize_axis", c_quantize_axis, 13, "QuantizeLinear(x,c1,<i8 3>)->Y{axis=1}"},
    {"quantize_axis", c_quantize_axis, 11,
     "Reshape(c1,[-1,1,1])->t0; Div(x,t0)->t1; Round(t1)->t2; Cast(c2)->t3{to=1}; "
     "Reshape(t3,[-1,1,1])->t4; Add(t2,t4)->t5; Clip(t5,f32:-128,f32:127)->t6; "
     "Cast(t6)->Y{to=3}"},
    {"dequantize", c_dequantize, 13, "DequantizeLinear(x,c1,u8:129)->Y"},
    {"requantize", c_requantize, 13,
     "Cast(x)->t0{to=1}; Reshape(c1,[-1,1,1])->t1; Mul(t0,t1)->t2; "
     "QuantizeLinear(t2,c3,u8:127)->Y"},
    {"qconv", c_qconv, 13,
     "ConvInteger(x,c1,u8:3,i8:0)->Y{dilations=[1,1] pads=[1,1,1,1] strides=[1,1] group=1}"},
    {"qdense", c_qdense, 13, "Transpose(c1)->t0{perm=[1,0]}; MatMulInteger(x,t0,u8:0,i8:0)->Y"},
    {"qadd", c_qadd, 13,
     "DequantizeLinear(a,c2,u8:115)->t0; DequantizeLinear(z,c4,u8:0)->t1; Add(t0,t1)->t2; "
     "QuantizeLinear(t2,c6,u8:0)->Y"},
    {"qconcat", c_qconcat, 13, NULL},
    {"sigmoid", c_sigmoid, 13, "Sigmoid(x)->Y"},
    {"exp", c_exp, 9, NULL},
    {"tanh", c_tanh, 9, NULL},
    {"negative", c_negative, 13, "Neg(x)->Y"},
    {"sign", c_sign, 9, NULL},
    {"round", c_round, 9, "error: 'round' needs ONNX Round"},
    {"round", c_round, 13, "Round(x)->Y"},
    {"trunc", c_trunc, 9, "Less(x,f32:0)->t0; Ceil(x)->t1; Floor(x)->t2; Where(t0,t1,t2)->Y"},
    {"isfinite", c_isfinite, 13, "IsInf(x)->t0; IsNaN(x)->t1; Or(t0,t1)->t2; Not(t2)->Y"},
    {"log2", c_log2, 13, NULL},
    {"fast_softmax", c_fast_softmax, 13, "Softmax(x)->Y{axis=1}"},
    {"shape_of", c_shape_of, 13, "Shape(x)->t0; Cast(t0)->Y{to=6}"},
    {"ndarray_size", c_ndarray_size, 13, "Size(x)->t0; Cast(t0)->Y{to=6}"},
    {"zeros_like", c_zeros_like, 13, "Shape(x)->t0; ConstantOfShape(t0)->Y{value=<f16 1>}"},
    {"ones_like", c_ones_like, 9, NULL},
    {"sort", c_sort, 13, "TopK(x,[6])->Y,t0{axis=1 largest=0 sorted=1}"},
    {"global_max", c_global_max, 9, "GlobalMaxPool(x)->Y"},
    {"maximum", c_maximum, 9, "Max(x,z)->Y"},
    {"mod_i", c_mod_i, 13, "Mod(x,z)->Y{fmod=1}"},
    {"trunc_mod_f", c_trunc_mod_f, 13,
     "Div(x,z)->t0; Less(t0,f32:0)->t1; Ceil(t0)->t2; Floor(t0)->t3; Where(t1,t2,t3)->t4; "
     "Mul(t4,z)->t5; Sub(x,t5)->Y"},
    {"trunc_div_f", c_trunc_div_f, 13, NULL},
    {"not_equal", c_not_equal, 9, "Equal(x,z)->t0; Not(t0)->Y"},
    {"less_equal", c_less_equal, 13, "LessOrEqual(x,z)->Y"},
    {"logical_and", c_logical_and, 9, "And(x,z)->Y"},
    {"bitwise_or_b", c_bitwise_or_b, 9, "Or(x,z)->Y"},
    {"right_shift", c_right_shift, 13, "BitShift(x,z)->Y{direction=RIGHT}"},
    {"right_shift_i", c_right_shift_i, 13,
     "Cast(z)->t0{to=13}; BitShift(u64:1,t0)->t1{direction=LEFT}; Cast(t1)->t2{to=7}; "
     "Cast(x)->t3{to=7}; Mod(t3,t2)->t4{fmod=0}; Sub(t3,t4)->t5; Div(t5,t2)->t6; "
     "Cast(t6)->Y{to=6}"},
    {"left_shift_i", c_left_shift_i, 13,
     "Cast(x)->t0{to=2}; Cast(z)->t1{to=2}; BitShift(t0,t1)->t2{direction=LEFT}; "
     "Cast(t2)->Y{to=3}"},
    {"subtract", c_subtract, 9, "Sub(x,z)->Y"},
    {"where_int", c_where_int, 9, "Cast(cond)->t0{to=9}; Where(t0,x,z)->Y"},
    {"cast_like", c_cast_like, 13, "Cast(x)->Y{to=3}"},
    {"prod", c_prod, 13, "ReduceProd(x)->Y{axes=[0,2] keepdims=1}"},
    {"all", c_all, 13,
     "Cast(x)->t0{to=6}; ReduceMin(t0)->t1{axes=[1] keepdims=0}; Cast(t1)->Y{to=9}"},
    {"any", c_any, 13, "Cast(x)->t0{to=6}; ReduceMax(t0)->t1{keepdims=0}; Cast(t1)->Y{to=9}"},
    {"argmin_all", c_argmin_all, 13,
     "Reshape(x,[-1])->t0; ArgMin(t0)->t1{axis=0 keepdims=0}; Reshape(t1,[1,1])->t2; "
     "Cast(t2)->Y{to=6}"},
    {"max_pool1d", c_max_pool1d, 13, "MaxPool(x)->Y{pads=[1,1] strides=[2] kernel_shape=[3]}"},
    {"avg_pool3d", c_avg_pool3d, 13, NULL},
    {"adaptive_max", c_adaptive_max, 13, NULL},
    {"conv3d", c_conv3d, 13, NULL},
    {"instance_norm_plain", c_instance_norm_plain, 13, NULL},
    {"scatter_elements", c_scatter_elements, 13, "error: 'scatter_elements' needs ONNX scatter"},
    {"scatter_elements", c_scatter_elements, 17,
     "ScatterElements(x,ids,z)->Y{axis=0 reduction=add}"},
    {"scatter_nd", c_scatter_nd, 13, "Transpose(ids)->t0{perm=[1,0]}; ScatterND(x,t0,z)->Y"},
    {"gather", c_gather, 13, "GatherElements(x,ids)->Y{axis=1}"},
    {"reverse_sequence", c_reverse_sequence, 13,
     "Cast(ids)->t0{to=7}; ReverseSequence(x,t0)->Y{batch_axis=0 time_axis=1}"},
    {"reshape_like", c_reshape_like, 13, "Reshape(x,[3,4])->Y"},
    {"slice_like", c_slice_like, 13, "Slice(x,[0],[3],[1])->Y"},
    {"broadcast_to_like", c_broadcast_to_like, 13, "Shape(z)->t0; Expand(x,t0)->Y"},
    {"full_like", c_full_like, 13, "Cast(c1)->t0{to=6}; Shape(x)->t1; Expand(t0,t1)->Y"},
    {"sequence_mask", c_sequence_mask, 13, NULL},
    {"reverse_reshape", c_reverse_reshape, 13, "Reshape(x,[6,4])->Y"},
    {"space_to_depth", c_space_to_depth, 9, "SpaceToDepth(x)->Y{blocksize=2}"},
    {"mirror_reflect", c_mirror_reflect, 9, "Pad(x)->Y{pads=[1,2,1,0] mode=reflect}"},
    {"resize_cubic", c_resize_cubic, 13,
     "Resize(x,,,[1,2,3,9])->Y{coordinate_transformation_mode=align_corners mode=cubic "
     "cubic_coeff_a=-0.5 exclude_outside=0}"},
    {"upsampling3d", c_upsampling3d, 13, NULL},
    {"upsampling3d", c_upsampling3d, 9, "Upsample(x,<f32 5>)->Y{mode=nearest}"},
    {"deq_axis", c_deq_axis, 13, "DequantizeLinear(x,c1,<i8 3>)->Y{axis=1}"},
    {"deq_axis", c_deq_axis, 10, NULL},
    {"qmul", c_qmul, 13, NULL},
    {"qsigmoid", c_qsigmoid, 13, NULL},
    {"qhardswish", c_qhardswish, 13, NULL},
    {"qhardswish", c_qhardswish, 17, NULL},
    {"qsoftmax", c_qsoftmax, 13, NULL},
    {"qavg_pool", c_qavg_pool, 13, NULL},
    {"qbatch_matmul", c_qbatch_matmul, 13,
     "Transpose(z)->t0{perm=[0,2,1]}; MatMulInteger(a,t0,i8:1,i8:-2)->Y"},
    {"backward_weight", c_backward_weight, 13,
     "error: no ONNX form for 'nn.conv2d_backward_weight'"},
};

enum { NCASES = sizeof cases / sizeof cases[0] };

/* ---- emitting and rendering ------------------------------------------------------ */

typedef struct emitted {
    bx_arena arena;
    bx_ob b;
    int node;
    int rc;
    byoc_error err;
    const char *out[16];
    int nout;
} emitted;

static const char *arg_name(int node)
{
    static char names[64][16];
    static int k;
    const char *n = byoc_node_name(G, node);
    if (n)
        return n;
    char *s = names[k++ % 64];
    snprintf(s, 16, "%c%d", byoc_node_kind_of(G, node) == BYOC_N_CONST ? 'c' : 'n', node);
    return s;
}

/* Build case c in a fresh graph and emit it. */
static void emit_case(const tcase *c, emitted *em)
{
    byoc_error err;
    G = byoc_graph_create(R);
    nitems = 0;
    em->node = c->build();
    if (byoc_graph_set_output(G, em->node, &err) < 0 || byoc_graph_infer_types(G, &err) < 0)
        die(c->name, &err);
    if (byoc_node_untyped_reason(G, em->node))
        die(byoc_node_untyped_reason(G, em->node), NULL);
    const char *in[32];
    int nin = 0;
    for (int i = 0; i < byoc_node_arg_count(G, em->node); i++) {
        int a = byoc_node_arg(G, em->node, i);
        if (byoc_node_kind_of(G, a) == BYOC_N_TUPLE)
            for (int k = 0; k < byoc_node_arg_count(G, a); k++)
                in[nin++] = arg_name(byoc_node_arg(G, a, k));
        else
            in[nin++] = arg_name(a);
    }
    int nf = byoc_node_field_count(G, em->node);
    static const char *const ys[] = {"Y0", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"};
    em->nout = nf < 0 ? 1 : nf;
    for (int i = 0; i < em->nout; i++)
        em->out[i] = nf < 0 ? "Y" : ys[i];
    /* Dropout's mask is not wanted: the second name is left empty. */
    if (strcmp(c->name, "dropout") == 0)
        em->out[1] = "";
    bx_arena_init(&em->arena);
    bx_ob_init(&em->b, &em->arena, c->opset, "t");
    byoc_error_clear(&em->err);
    em->rc = bx_onnx_emit_call(&em->b, G, em->node, in, nin, em->out, em->nout, &em->err);
}

static void done_case(emitted *em)
{
    bx_arena_free(&em->arena);
    byoc_graph_destroy(G);
    G = NULL;
}

static const char *short_dtype(int et)
{
    switch (et) {
    case 1: return "f32";
    case 2: return "u8";
    case 3: return "i8";
    case 5: return "i16";
    case 6: return "i32";
    case 7: return "i64";
    case 9: return "b";
    case 10: return "f16";
    case 11: return "f64";
    case 12: return "u32";
    case 13: return "u64";
    default: return "?";
    }
}

static double elem(const Onnx__TensorProto *t, size_t i, bool *is_int)
{
    const uint8_t *p = t->raw_data.data;
    *is_int = true;
    switch (t->data_type) {
    case 1: {
        float f;
        memcpy(&f, p + 4 * i, 4);
        *is_int = false;
        return f;
    }
    case 11: {
        double d;
        memcpy(&d, p + 8 * i, 8);
        *is_int = false;
        return d;
    }
    case 2: return p[i];
    case 3: return (int8_t)p[i];
    case 9: return p[i];
    case 6: {
        int32_t v;
        memcpy(&v, p + 4 * i, 4);
        return v;
    }
    case 7:
    case 13: {
        int64_t v;
        memcpy(&v, p + 8 * i, 8);
        return (double)v;
    }
    default: *is_int = false; return NAN;
    }
}

static void put_tensor(char *buf, size_t size, const Onnx__TensorProto *t)
{
    size_t n = 1, len = strlen(buf);
    for (size_t k = 0; k < t->n_dims; k++)
        n *= (size_t)t->dims[k];
    if (t->data_type == 7 && t->n_dims == 1) {
        snprintf(buf + len, size - len, "[");
        for (size_t i = 0; i < n; i++) {
            int64_t v;
            memcpy(&v, t->raw_data.data + 8 * i, 8);
            len = strlen(buf);
            snprintf(buf + len, size - len, "%s%lld", i ? "," : "", (long long)v);
        }
        len = strlen(buf);
        snprintf(buf + len, size - len, "]");
        return;
    }
    if (t->n_dims == 0) {
        bool is_int;
        double v = elem(t, 0, &is_int);
        if (is_int)
            snprintf(buf + len, size - len, "%s:%lld", short_dtype(t->data_type), (long long)v);
        else
            snprintf(buf + len, size - len, "%s:%g", short_dtype(t->data_type), v);
        return;
    }
    snprintf(buf + len, size - len, "<%s ", short_dtype(t->data_type));
    for (size_t k = 0; k < t->n_dims; k++) {
        len = strlen(buf);
        snprintf(buf + len, size - len, "%s%lld", k ? "x" : "", (long long)t->dims[k]);
    }
    len = strlen(buf);
    snprintf(buf + len, size - len, ">");
}

static const Onnx__TensorProto *find_init(const bx_ob *b, const char *name)
{
    for (size_t i = 0; i < b->ninits; i++)
        if (strcmp(b->inits[i]->name, name) == 0)
            return b->inits[i];
    return NULL;
}

#define PUT(...) snprintf(buf + strlen(buf), size - strlen(buf), __VA_ARGS__)

/* Fresh tensors are numbered in the order nodes write them (initializers
 * take fresh names too, but are shown by their contents). */
static const char *temps[256];
static int ntemps;

static void put_name(char *buf, size_t size, const char *name)
{
    if (name[0] != 't' || !strchr("0123456789", name[1]) || !name[1]) {
        PUT("%s", name);
        return;
    }
    for (int i = 0; i < ntemps; i++)
        if (strcmp(temps[i], name) == 0) {
            PUT("t%d", i);
            return;
        }
    temps[ntemps] = name;
    PUT("t%d", ntemps++);
}

/* The nodes of b as text. */
static void render(const bx_ob *b, char *buf, size_t size)
{
    buf[0] = 0;
    ntemps = 0;
    for (size_t i = 0; i < b->nnodes; i++) {
        const Onnx__NodeProto *n = b->nodes[i];
        PUT("%s%s(", i ? "; " : "", n->op_type);
        for (size_t k = 0; k < n->n_input; k++) {
            PUT("%s", k ? "," : "");
            const Onnx__TensorProto *t = n->input[k][0] ? find_init(b, n->input[k]) : NULL;
            if (t)
                put_tensor(buf, size, t);
            else
                put_name(buf, size, n->input[k]);
        }
        PUT(")->");
        for (size_t k = 0; k < n->n_output; k++) {
            PUT("%s", k ? "," : "");
            put_name(buf, size, n->output[k]);
        }
        if (n->n_attribute)
            PUT("{");
        for (size_t k = 0; k < n->n_attribute; k++) {
            const Onnx__AttributeProto *a = n->attribute[k];
            PUT("%s%s=", k ? " " : "", a->name);
            switch (a->type) {
            case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT: PUT("%lld", (long long)a->i); break;
            case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT: PUT("%g", a->f); break;
            case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING:
                PUT("%.*s", (int)a->s.len, (const char *)a->s.data);
                break;
            case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS:
                PUT("[");
                for (size_t j = 0; j < a->n_ints; j++)
                    PUT("%s%lld", j ? "," : "", (long long)a->ints[j]);
                PUT("]");
                break;
            case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR: put_tensor(buf, size, a->t); break;
            default: PUT("?"); break;
            }
        }
        if (n->n_attribute)
            PUT("}");
    }
}

START_TEST(emit_one)
{
    const tcase *c = &cases[_i];
    emitted em;
    char got[4096];
    emit_case(c, &em);
    if (em.rc < 0)
        snprintf(got, sizeof got, "error: %s", em.err.msg);
    else
        render(&em.b, got, sizeof got);
    if (!c->want) {
        ck_assert_msg(em.rc == 0, "%s at opset %d: %s", c->name, c->opset, got);
    } else if (strncmp(c->want, "error: ", 7) == 0) {
        ck_assert_msg(strncmp(got, c->want, strlen(c->want)) == 0, "%s at opset %d:\n got %s",
                      c->name, c->opset, got);
        ck_assert_uint_eq(em.b.nnodes, 0);
        ck_assert_uint_eq(em.b.ninits, 0);
    } else {
        ck_assert_msg(strcmp(got, c->want) == 0, "%s at opset %d:\n got  %s\n want %s", c->name,
                      c->opset, got, c->want);
    }
    done_case(&em);
}
END_TEST

/* Every op the emitter names is one the registry knows, and the ops with
 * no ONNX form are said so by name. */
START_TEST(known_ops)
{
    ck_assert(bx_onnx_emit_known("nn.conv2d"));
    ck_assert(bx_onnx_emit_known("qnn.requantize"));
    ck_assert(bx_onnx_emit_known("split"));
    ck_assert(!bx_onnx_emit_known("nn.conv2d_backward_weight"));
    ck_assert(!bx_onnx_emit_known("no.such_op"));
    ck_assert(!bx_onnx_emit_known(NULL));
}
END_TEST

/* Wrong counts of names, and calls that are not calls. */
START_TEST(bad_calls)
{
    byoc_error err;
    bx_arena a;
    bx_ob b;
    G = byoc_graph_create(R);
    int x = IN("x", "float32[2,3]");
    int r = CALL("nn.relu", 1, x);
    ck_assert_int_eq(byoc_graph_infer_types(G, &err), 0);
    bx_arena_init(&a);
    bx_ob_init(&b, &a, 13, "t");
    const char *in[2] = {"x", "x"}, *out[2] = {"Y", "Z"};
    ck_assert_int_eq(bx_onnx_emit_call(&b, G, r, in, 2, out, 1, &err), -1);
    ck_assert_msg(strstr(err.msg, "1 tensor arguments; 2 names") != NULL, "%s", err.msg);
    ck_assert_int_eq(bx_onnx_emit_call(&b, G, r, in, 1, out, 2, &err), -1);
    ck_assert_int_eq(bx_onnx_emit_call(&b, G, x, in, 1, out, 1, &err), -1);
    ck_assert_msg(strstr(err.msg, "not a call") != NULL, "%s", err.msg);
    bx_ob_init(&b, &a, 8, "t");
    ck_assert_int_eq(bx_onnx_emit_call(&b, G, r, in, 1, out, 1, &err), -1);
    ck_assert_msg(strstr(err.msg, "opset 8") != NULL, "%s", err.msg);
    ck_assert_uint_eq(b.nnodes, 0);
    bx_arena_free(&a);
    byoc_graph_destroy(G);
}
END_TEST

/* An opaque call has no Relay meaning to write. */
START_TEST(opaque_call)
{
    byoc_error err;
    bx_arena a;
    bx_ob b;
    G = byoc_graph_create(R);
    int x = IN("x", "float32[2,3]");
    int o = byoc_graph_add_opaque(G, "Foo", &x, 1, &err);
    ck_assert_int_ge(o, 0);
    bx_arena_init(&a);
    bx_ob_init(&b, &a, 13, "t");
    const char *in[1] = {"x"}, *out[1] = {"Y"};
    ck_assert_int_eq(bx_onnx_emit_call(&b, G, o, in, 1, out, 1, &err), -1);
    ck_assert_msg(strstr(err.msg, "opaque") != NULL, "%s", err.msg);
    bx_arena_free(&a);
    byoc_graph_destroy(G);
}
END_TEST

/* ---- writing the cases as models ----------------------------------------------------- */

static Onnx__TypeProto *type_proto(bx_arena *a, const byoc_tensor_type *t)
{
    Onnx__TypeProto *tp = BX_NEW(a, Onnx__TypeProto);
    onnx__type_proto__init(tp);
    Onnx__TypeProto__Tensor *tt = BX_NEW(a, Onnx__TypeProto__Tensor);
    onnx__type_proto__tensor__init(tt);
    tt->has_elem_type = 1;
    tt->elem_type = bx_onnx_elem_type(t->dtype);
    if (t->rank >= 0) {
        Onnx__TensorShapeProto *sh = BX_NEW(a, Onnx__TensorShapeProto);
        onnx__tensor_shape_proto__init(sh);
        sh->n_dim = (size_t)t->rank;
        sh->dim = BX_NEWN(a, Onnx__TensorShapeProto__Dimension *, t->rank + 1);
        for (int i = 0; i < t->rank; i++) {
            Onnx__TensorShapeProto__Dimension *d = BX_NEW(a, Onnx__TensorShapeProto__Dimension);
            onnx__tensor_shape_proto__dimension__init(d);
            if (t->dims[i] >= 0) {
                d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
                d->dim_value = t->dims[i];
            } else if (t->dims[i] <= -2) {
                d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
                d->dim_param =
                    bx_arena_strdup(a, byoc_graph_symbol_name(G, (int)(-2 - t->dims[i])));
            }
            sh->dim[i] = d;
        }
        tt->shape = sh;
    }
    tp->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    tp->tensor_type = tt;
    return tp;
}

static Onnx__ValueInfoProto *value_info(bx_arena *a, const char *name, const byoc_tensor_type *t)
{
    Onnx__ValueInfoProto *v = BX_NEW(a, Onnx__ValueInfoProto);
    onnx__value_info_proto__init(v);
    v->name = bx_arena_strdup(a, name);
    v->type = type_proto(a, t);
    return v;
}

static int ir_version(int opset)
{
    return opset <= 9    ? 4
           : opset == 10 ? 5
           : opset == 11 ? 6
           : opset <= 14 ? 7
           : opset <= 18 ? 8
                         : 9;
}

/* Case c as DIR/<name>_op<opset>.onnx: the graph's inputs (and the calls
 * other than the one emitted), its constants as initializers (small
 * values, deterministic), the emitted nodes, the call's fields as
 * outputs. */
static int write_model(const tcase *c, const char *dir)
{
    emitted em;
    emit_case(c, &em);
    if (em.rc < 0) {
        done_case(&em);
        return 0;
    }
    bx_arena *a = &em.arena;
    bx_ob *b = &em.b;
    Onnx__GraphProto *gp = BX_NEW(a, Onnx__GraphProto);
    onnx__graph_proto__init(gp);
    gp->name = (char *)c->name;
    gp->n_node = b->nnodes;
    gp->node = b->nodes;
    int nn = byoc_graph_node_count(G);
    gp->input = BX_NEWN(a, Onnx__ValueInfoProto *, nn + 1);
    gp->initializer = BX_NEWN(a, Onnx__TensorProto *, nn + b->ninits + 1);
    for (size_t i = 0; i < b->ninits; i++)
        gp->initializer[gp->n_initializer++] = b->inits[i];
    for (int i = 0; i < nn; i++) {
        const byoc_tensor_type *t = byoc_node_type(G, i, -1);
        if (byoc_node_kind_of(G, i) == BYOC_N_INPUT
            || (byoc_node_kind_of(G, i) == BYOC_N_CALL && i != em.node)) {
            gp->input[gp->n_input++] = value_info(a, arg_name(i), t);
        } else if (byoc_node_kind_of(G, i) == BYOC_N_CONST) {
            size_t n = 1;
            for (int k = 0; k < t->rank; k++)
                n *= (size_t)t->dims[k];
            int64_t *iv = BX_NEWN(a, int64_t, n + 1);
            double *fv = BX_NEWN(a, double, n + 1);
            const byoc_value *v = byoc_node_const_value(G, i);
            for (size_t k = 0; k < n; k++) {
                const byoc_value *e = v && v->kind == BYOC_V_LIST ? &v->u.list.items[k] : v;
                double d = e ? (e->kind == BYOC_V_INT ? (double)e->u.i : e->u.f)
                             : (double)((k * 7) % 5) * 0.25 + 0.5;
                iv[k] = bx_ob_to_int(d);
                fv[k] = d;
            }
            gp->initializer[gp->n_initializer++] =
                bx_ob_tensor(b, arg_name(i), t->dtype, t->dims, t->rank, iv, fv, n);
        }
    }
    int nf = byoc_node_field_count(G, em.node);
    gp->output = BX_NEWN(a, Onnx__ValueInfoProto *, em.nout + 1);
    for (int i = 0; i < em.nout; i++)
        if (em.out[i][0])
            gp->output[gp->n_output++] =
                value_info(a, em.out[i], byoc_node_type(G, em.node, nf < 0 ? -1 : i));
    Onnx__ModelProto m;
    onnx__model_proto__init(&m);
    m.has_ir_version = 1;
    m.ir_version = ir_version(c->opset);
    m.producer_name = "byoc test_onnx_emit";
    m.graph = gp;
    Onnx__OperatorSetIdProto *ops[9];
    m.opset_import = ops;
    Onnx__OperatorSetIdProto def;
    onnx__operator_set_id_proto__init(&def);
    def.domain = "";
    def.has_version = 1;
    def.version = c->opset;
    ops[m.n_opset_import++] = &def;
    Onnx__OperatorSetIdProto more[8];
    for (int i = 0; i < b->ndomains; i++) {
        onnx__operator_set_id_proto__init(&more[i]);
        more[i].domain = (char *)b->domains[i];
        more[i].has_version = 1;
        more[i].version = 1;
        ops[m.n_opset_import++] = &more[i];
    }
    size_t len = onnx__model_proto__get_packed_size(&m);
    uint8_t *bytes = BX_NEWN(a, uint8_t, len + 1);
    onnx__model_proto__pack(&m, bytes);
    char path[512];
    snprintf(path, sizeof path, "%s/%s_op%d.onnx", dir, c->name, c->opset);
    FILE *f = fopen(path, "wb");
    int rc = f && fwrite(bytes, 1, len, f) == len ? 1 : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    done_case(&em);
    return rc;
}

/* ---- a whole model, each call through the emitter -------------------------------- */

/* The tensor name of node n's field k (k < 0: n itself). */
static const char *tensor_name(bx_arena *a, int n, int k)
{
    switch (byoc_node_kind_of(G, n)) {
    case BYOC_N_INPUT: return byoc_node_name(G, n);
    case BYOC_N_CONST: return bx_arena_printf(a, "c%d", n);
    case BYOC_N_TUPLE: return tensor_name(a, byoc_node_arg(G, n, k), -1);
    case BYOC_N_PROJ: return tensor_name(a, byoc_node_arg(G, n, 0), byoc_node_proj_index(G, n));
    default: return k < 0 ? bx_arena_printf(a, "n%d", n) : bx_arena_printf(a, "n%d.%d", n, k);
    }
}

/* `--graph MODEL OUT OPSET [NAME=SIZE...]`: every call of MODEL emitted
 * at OPSET into one ONNX model OUT, its inputs, constants and opaque
 * calls' outputs as typed inputs; the calls that have no ONNX form are
 * listed, and the status is 1 when there are any. */
static int write_graph(int argc, char **argv)
{
    byoc_error err;
    byoc_dim_binding dims[8];
    byoc_read_options opts = {.dims = dims};
    for (int i = 4; i < argc && opts.ndims < 8; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq)
            return 2;
        *eq = 0;
        dims[opts.ndims].name = argv[i];
        dims[opts.ndims++].value = atoll(eq + 1);
    }
    size_t len = strlen(argv[1]);
    bool onnx = len > 5 && strcmp(argv[1] + len - 5, ".onnx") == 0;
    G = onnx ? byoc_onnx_read_with(R, argv[1], &opts, &err)
             : byoc_relay_read_with(R, argv[1], &opts, &err);
    if (!G)
        die(argv[1], &err);
    bx_arena a;
    bx_ob b;
    bx_arena_init(&a);
    bx_ob_init(&b, &a, atoi(argv[3]), "byoc.");
    int nn = byoc_graph_node_count(G), failed = 0, calls = 0, opaque = 0;
    Onnx__GraphProto *gp = BX_NEW(&a, Onnx__GraphProto);
    onnx__graph_proto__init(gp);
    gp->name = "emitted";
    int ninputs = 0;
    for (int i = 0; i < nn; i++)
        ninputs += byoc_node_kind_of(G, i) == BYOC_N_CALL && byoc_node_field_count(G, i) >= 0
                       ? byoc_node_field_count(G, i)
                       : 1;
    gp->input = BX_NEWN(&a, Onnx__ValueInfoProto *, ninputs + 1);
    const char **in, **out;
    for (int i = 0; i < nn; i++) {
        byoc_node_kind k = byoc_node_kind_of(G, i);
        if (k == BYOC_N_INPUT || k == BYOC_N_CONST) {
            gp->input[gp->n_input++] =
                value_info(&a, tensor_name(&a, i, -1), byoc_node_type(G, i, -1));
            continue;
        }
        if (k != BYOC_N_CALL)
            continue;
        if (byoc_node_is_opaque(G, i)) {
            /* The split writer copies the model's own node: here its
             * outputs are inputs. */
            int nf = byoc_node_field_count(G, i);
            for (int f = 0; f < (nf >= 0 ? nf : 1); f++)
                gp->input[gp->n_input++] = value_info(&a, tensor_name(&a, i, nf >= 0 ? f : -1),
                                                      byoc_node_type(G, i, nf >= 0 ? f : -1));
            opaque++;
            continue;
        }
        calls++;
        int nin = 0, nargs = byoc_node_arg_count(G, i);
        for (int j = 0; j < nargs; j++) {
            int arg = byoc_node_arg(G, i, j), nf = byoc_node_field_count(G, arg);
            nin += nf >= 0 ? nf : 1;
        }
        in = BX_NEWN(&a, const char *, nin + 1);
        nin = 0;
        for (int j = 0; j < nargs; j++) {
            int arg = byoc_node_arg(G, i, j), nf = byoc_node_field_count(G, arg);
            for (int f = 0; f < (nf >= 0 ? nf : 1); f++)
                in[nin++] = tensor_name(&a, arg, nf >= 0 ? f : -1);
        }
        int nf = byoc_node_field_count(G, i), nout = nf >= 0 ? nf : 1;
        out = BX_NEWN(&a, const char *, nout + 1);
        for (int f = 0; f < nout; f++)
            out[f] = tensor_name(&a, i, nf >= 0 ? f : -1);
        if (bx_onnx_emit_call(&b, G, i, in, nin, out, nout, &err) < 0) {
            printf("%%%d: %s\n", i, err.msg);
            failed++;
        }
    }
    int o = byoc_graph_output(G), nf = byoc_node_field_count(G, o);
    gp->output = BX_NEWN(&a, Onnx__ValueInfoProto *, (nf >= 0 ? nf : 1) + 1);
    for (int f = 0; f < (nf >= 0 ? nf : 1); f++)
        gp->output[gp->n_output++] = value_info(&a, tensor_name(&a, o, nf >= 0 ? f : -1),
                                                byoc_node_type(G, o, nf >= 0 ? f : -1));
    gp->n_node = b.nnodes;
    gp->node = b.nodes;
    gp->n_initializer = b.ninits;
    gp->initializer = b.inits;
    Onnx__ModelProto m;
    onnx__model_proto__init(&m);
    m.has_ir_version = 1;
    m.ir_version = ir_version(b.opset);
    m.graph = gp;
    Onnx__OperatorSetIdProto def, *ops[1] = {&def};
    onnx__operator_set_id_proto__init(&def);
    def.domain = "";
    def.has_version = 1;
    def.version = b.opset;
    m.opset_import = ops;
    m.n_opset_import = 1;
    size_t size = onnx__model_proto__get_packed_size(&m);
    uint8_t *bytes = BX_NEWN(&a, uint8_t, size + 1);
    onnx__model_proto__pack(&m, bytes);
    FILE *f = fopen(argv[2], "wb");
    int rc = f && fwrite(bytes, 1, size, f) == size ? 0 : 2;
    if (f && fclose(f) != 0)
        rc = 2;
    printf("%zu nodes from %d calls (and %d opaque); %d without an ONNX form\n", b.nnodes, calls,
           opaque, failed);
    bx_arena_free(&a);
    byoc_graph_destroy(G);
    return rc ? rc : failed ? 1 : 0;
}

static Suite *emit_suite(void)
{
    Suite *s = suite_create("onnx_emit");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, emit_one, 0, NCASES);
    tcase_add_test(tc, known_ops);
    tcase_add_test(tc, bad_calls);
    tcase_add_test(tc, opaque_call);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    byoc_error err;
    R = byoc_registry_create();
    if (byoc_register_relay(R, &err) < 0)
        die("relay", &err);
    if (argc >= 5 && strcmp(argv[1], "--graph") == 0) {
        int rc = write_graph(argc - 1, argv + 1);
        byoc_registry_destroy(R);
        return rc;
    }
    if ((argc == 3 || argc == 4) && strcmp(argv[1], "--models") == 0) {
        /* With an opset, each case once at that opset. */
        int written = 0, opset = argc == 4 ? atoi(argv[3]) : 0;
        for (int i = 0; i < NCASES; i++) {
            tcase c = cases[i];
            bool again = false;
            for (int k = 0; k < i; k++)
                again |= strcmp(cases[k].name, c.name) == 0;
            if (opset && again)
                continue;
            if (opset)
                c.opset = opset;
            int rc = write_model(&c, argv[2]);
            if (rc < 0) {
                fprintf(stderr, "cannot write %s\n", cases[i].name);
                return EXIT_FAILURE;
            }
            written += rc;
        }
        printf("%d models\n", written);
        byoc_registry_destroy(R);
        return EXIT_SUCCESS;
    }
    SRunner *sr = srunner_create(emit_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    byoc_registry_destroy(R);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
