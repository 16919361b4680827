/* Write a QDQ-quantized ONNX model (QuantizeLinear/DequantizeLinear around
 * float ops, int8, as ONNX Runtime's and torch's quantizers write them)
 * for tests/cli/qdq.sh:
 *
 *   gen_qdq dense FILE       two dense layers of 256 (the first with
 *                            per-channel weights and a bias, then Relu;
 *                            the second with weight zero point 3) and a
 *                            residual add between them
 *   gen_qdq dense-nozp FILE  the same, the first layer's weight zero
 *                            points without data (weights not shipped)
 *   gen_qdq cnn FILE         a 3x3 convolution (per-channel weights, a
 *                            bias, Relu), a max pool, an average pool,
 *                            Flatten and a dense layer
 *
 * Built with the protobuf-c API (tests/onnx/onnx_gen.h's builder). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/onnx/onnx_gen.h"

enum { T_FLOAT = 1, T_INT8 = 3, T_INT32 = 6 };

/* An initializer of ONNX element type `type` with dims, every element
 * `fill` (float_data or int32_data), or per element from `vals`; no data
 * when neither (fill NaN, vals NULL). */
static void init(gen *g, const char *name, int type, const int64_t *dims, int rank,
                 const double *vals, double fill)
{
    gen_init_tensor(g, name, dims, rank, NULL);
    Onnx__TensorProto *t = g->graph.initializer[g->graph.n_initializer - 1];
    t->data_type = type;
    t->has_data_location = 0;
    size_t n = 1;
    for (int k = 0; k < rank; k++)
        n *= (size_t)dims[k];
    if (!vals && isnan(fill))
        return;
    if (type == T_FLOAT) {
        t->float_data = gen_alloc(g, sizeof(float) * n);
        for (size_t i = 0; i < n; i++)
            t->float_data[i] = (float)(vals ? vals[i] : fill);
        t->n_float_data = n;
    } else {
        t->int32_data = gen_alloc(g, sizeof(int32_t) * n);
        for (size_t i = 0; i < n; i++)
            t->int32_data[i] = (int32_t)(vals ? vals[i] : fill);
        t->n_int32_data = n;
    }
}

static void scalar(gen *g, const char *name, int type, double v)
{
    init(g, name, type, NULL, 0, NULL, v);
}

static Onnx__NodeProto *node(gen *g, const char *op, const char *name, const char *in0,
                             const char *in1, const char *in2, const char *out)
{
    const char *ins[3] = {in0, in1, in2};
    int nin = in2 ? 3 : in1 ? 2 : 1;
    Onnx__NodeProto *n = gen_node(g, op, nin, 1);
    n->name = (char *)name;
    for (int i = 0; i < nin; i++)
        n->input[i] = (char *)ins[i];
    n->output[0] = (char *)out;
    return n;
}

/* x quantized with (s, z) and dequantized again: "<x>_q", "<x>_d". */
static const char *qdq(gen *g, const char *x, const char *s, const char *z)
{
    char *q = gen_alloc(g, strlen(x) + 3), *d = gen_alloc(g, strlen(x) + 3);
    sprintf(q, "%s_q", x);
    sprintf(d, "%s_d", x);
    node(g, "QuantizeLinear", q, x, s, z, q);
    node(g, "DequantizeLinear", d, q, s, z, d);
    return d;
}

static void per_axis0(Onnx__NodeProto *n, gen *g)
{
    gen_attr_int(g, n, "axis", 0);
}

static void dense_model(gen *g, bool nozp)
{
    enum { N = 256 };
    static const int64_t nn[2] = {N, N}, n1[1] = {N}, in[2] = {1, N};
    double *ws = gen_alloc(g, sizeof(double) * N), *bs = gen_alloc(g, sizeof(double) * N);
    for (int i = 0; i < N; i++) {
        ws[i] = 0.01;
        bs[i] = 0.0005;
    }
    scalar(g, "s_in", T_FLOAT, 0.05);
    scalar(g, "z_in", T_INT8, 0);
    init(g, "w_fc", T_INT8, nn, 2, NULL, 1);
    init(g, "s_fc", T_FLOAT, n1, 1, ws, 0);
    init(g, "z_fc", T_INT8, n1, 1, NULL, nozp ? NAN : 0);
    init(g, "b_fc", T_INT32, n1, 1, NULL, 0);
    init(g, "s_b", T_FLOAT, n1, 1, bs, 0);
    scalar(g, "s_h", T_FLOAT, 0.1);
    scalar(g, "z_h", T_INT8, 0);
    scalar(g, "s_o", T_FLOAT, 0.2);
    scalar(g, "z_o", T_INT8, 0);
    init(g, "w_fc2", T_INT8, nn, 2, NULL, 1);
    scalar(g, "s_fc2", T_FLOAT, 0.01);
    scalar(g, "z_fc2", T_INT8, 3);
    const char *xd = qdq(g, "x", "s_in", "z_in");
    per_axis0(node(g, "DequantizeLinear", "dq_w", "w_fc", "s_fc", "z_fc", "wd"), g);
    per_axis0(node(g, "DequantizeLinear", "dq_b", "b_fc", "s_b", NULL, "bd"), g);
    gen_attr_int(g, node(g, "Gemm", "fc", xd, "wd", "bd", "h"), "transB", 1);
    node(g, "Relu", "relu", "h", NULL, NULL, "hr");
    node(g, "QuantizeLinear", "q_h", "hr", "s_h", "z_h", "hq");
    node(g, "DequantizeLinear", "dq_h", "hq", "s_h", "z_h", "hd");
    node(g, "Add", "residual", "hd", xd, NULL, "a");
    node(g, "QuantizeLinear", "q_a", "a", "s_o", "z_o", "aq");
    node(g, "DequantizeLinear", "dq_a", "aq", "s_o", "z_o", "ad");
    node(g, "DequantizeLinear", "dq_w2", "w_fc2", "s_fc2", "z_fc2", "w2d");
    gen_attr_int(g, node(g, "Gemm", "fc_zp", "ad", "w2d", NULL, "h2"), "transB", 1);
    node(g, "QuantizeLinear", "q_out", "h2", "s_o", "z_o", "h2q");
    node(g, "DequantizeLinear", "dq_out", "h2q", "s_o", "z_o", "y");
    g->inputs[0] = gen_value(g, "x", in, 2);
    g->outputs[0] = gen_value(g, "y", in, 2);
}

static void cnn_model(gen *g)
{
    enum { C = 16 };
    static const int64_t wd[4] = {C, C, 3, 3}, c1[1] = {C}, fd[2] = {10, C * 16};
    static const int64_t in[4] = {1, C, 16, 16}, out[2] = {1, 10}, two[2] = {2, 2},
                         pads[4] = {1, 1, 1, 1};
    double *ws = gen_alloc(g, sizeof(double) * C), *bs = gen_alloc(g, sizeof(double) * C);
    for (int i = 0; i < C; i++) {
        ws[i] = 0.01 + 0.01 * i / (C - 1);
        bs[i] = (double)(float)ws[i] * (double)0.05f;
    }
    scalar(g, "s", T_FLOAT, 0.05);
    scalar(g, "z", T_INT8, 0);
    init(g, "w", T_INT8, wd, 4, NULL, 1);
    init(g, "ws", T_FLOAT, c1, 1, ws, 0);
    init(g, "wz", T_INT8, c1, 1, NULL, 0);
    init(g, "b", T_INT32, c1, 1, NULL, 0);
    init(g, "bs", T_FLOAT, c1, 1, bs, 0);
    scalar(g, "sh", T_FLOAT, 0.1);
    init(g, "wf", T_INT8, fd, 2, NULL, 1);
    scalar(g, "wfs", T_FLOAT, 0.01);
    const char *xd = qdq(g, "x", "s", "z");
    per_axis0(node(g, "DequantizeLinear", "dq_w", "w", "ws", "wz", "wd"), g);
    per_axis0(node(g, "DequantizeLinear", "dq_b", "b", "bs", NULL, "bd"), g);
    gen_attr_ints(g, node(g, "Conv", "conv", xd, "wd", "bd", "c"), "pads", pads, 4);
    node(g, "Relu", "relu", "c", NULL, NULL, "r");
    Onnx__NodeProto *n = node(g, "MaxPool", "maxpool", qdq(g, "r", "sh", "z"), NULL, NULL, "m");
    gen_attr_ints(g, n, "kernel_shape", two, 2);
    gen_attr_ints(g, n, "strides", two, 2);
    n = node(g, "AveragePool", "avgpool", qdq(g, "m", "sh", "z"), NULL, NULL, "a");
    gen_attr_ints(g, n, "kernel_shape", two, 2);
    gen_attr_ints(g, n, "strides", two, 2);
    node(g, "Flatten", "flatten", qdq(g, "a", "sh", "z"), NULL, NULL, "f");
    node(g, "DequantizeLinear", "dq_wf", "wf", "wfs", NULL, "wfd");
    gen_attr_int(g, node(g, "Gemm", "fc", "f", "wfd", NULL, "y0"), "transB", 1);
    node(g, "QuantizeLinear", "q_fc", "y0", "sh", "z", "y0_q");
    node(g, "DequantizeLinear", "dq_fc", "y0_q", "sh", "z", "y");
    g->inputs[0] = gen_value(g, "x", in, 4);
    g->outputs[0] = gen_value(g, "y", out, 2);
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "dense") && strcmp(argv[1], "dense-nozp")
                      && strcmp(argv[1], "cnn"))) {
        fputs("usage: gen_qdq dense|dense-nozp|cnn FILE\n", stderr);
        return 2;
    }
    gen g;
    gen_init(&g, 13);
    g.graph.name = "qdq";
    g.graph.n_input = 1;
    g.graph.n_output = 1;
    if (!strcmp(argv[1], "cnn"))
        cnn_model(&g);
    else
        dense_model(&g, !strcmp(argv[1], "dense-nozp"));
    size_t size = protobuf_c_message_get_packed_size(&g.model.base);
    uint8_t *buf = malloc(size + 1);
    if (!buf)
        return 99;
    protobuf_c_message_pack(&g.model.base, buf);
    gen_free(&g);
    FILE *f = fopen(argv[2], "wb");
    if (!f || fwrite(buf, 1, size, f) != size || fclose(f) != 0) {
        perror(argv[2]);
        free(buf);
        return 1;
    }
    free(buf);
    return 0;
}
