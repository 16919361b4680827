/* Generated ONNX models, built with the protobuf-c API that protoc-c makes
 * from onnx.proto, for tests and benchmarks that need models larger than
 * anyone would write by hand:
 *
 *   gen_concat(n)  - n Relu nodes over one input, joined by one Concat of
 *                    n inputs (exporters write such concatenates of
 *                    hundreds of tensors);
 *   gen_chains(layers) - a transformer-like stack as torch exporters write
 *                    it: every layer recomputes the shapes its Reshapes
 *                    take at run time (Shape -> Gather -> Unsqueeze ->
 *                    Concat -> Reshape), 19 ONNX nodes per layer, static
 *                    input shapes and no value_info, so the reader must
 *                    know each Shape's input type from inference to fold
 *                    the chain away.
 *   gen_unary_chain(op, n) - n Identity or Transpose nodes ([1, 0]) in a
 *                    line from a [2, 3] input, then a Relu.
 *
 * Header-only (static functions; the generators inline, so that a program
 * may use either); the caller compiles runtime/onnx.pb-c.c.
 * Each generator returns the packed model in a malloc'd buffer. */
#ifndef BYOC_TESTS_ONNX_GEN_H
#define BYOC_TESTS_ONNX_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/onnx.pb-c.h"

typedef struct gen {
    Onnx__ModelProto model;
    Onnx__GraphProto graph;
    Onnx__OperatorSetIdProto opset;
    Onnx__OperatorSetIdProto *opsets[1];
    void **allocs;
    size_t nallocs, capallocs;
    size_t capnodes, capinits;
    Onnx__ValueInfoProto *inputs[1], *outputs[1];
} gen;

static void *gen_alloc(gen *g, size_t size)
{
    if (g->nallocs == g->capallocs) {
        g->capallocs = g->capallocs ? 2 * g->capallocs : 1024;
        g->allocs = realloc(g->allocs, sizeof(void *) * g->capallocs);
        if (!g->allocs) {
            fputs("gen: out of memory\n", stderr);
            exit(99);
        }
    }
    void *p = calloc(1, size ? size : 1);
    if (!p) {
        fputs("gen: out of memory\n", stderr);
        exit(99);
    }
    return g->allocs[g->nallocs++] = p;
}

static char *gen_str(gen *g, const char *fmt, int i)
{
    char buf[64];
    snprintf(buf, sizeof buf, fmt, i);
    return strcpy(gen_alloc(g, strlen(buf) + 1), buf);
}

static void gen_init(gen *g, int opset)
{
    memset(g, 0, sizeof *g);
    onnx__model_proto__init(&g->model);
    onnx__graph_proto__init(&g->graph);
    onnx__operator_set_id_proto__init(&g->opset);
    g->model.has_ir_version = 1;
    g->model.ir_version = 8;
    g->opset.domain = "";
    g->opset.has_version = 1;
    g->opset.version = opset;
    g->opsets[0] = &g->opset;
    g->model.n_opset_import = 1;
    g->model.opset_import = g->opsets;
    g->model.graph = &g->graph;
    g->graph.name = "generated";
    g->graph.input = g->inputs;
    g->graph.output = g->outputs;
}

static void gen_free(gen *g)
{
    for (size_t i = 0; i < g->nallocs; i++)
        free(g->allocs[i]);
    free(g->allocs);
    free(g->graph.node);
    free(g->graph.initializer);
}

/* A float tensor type of the given dims. */
static Onnx__ValueInfoProto *gen_value(gen *g, const char *name, const int64_t *dims, int rank)
{
    Onnx__ValueInfoProto *v = gen_alloc(g, sizeof *v);
    Onnx__TypeProto *t = gen_alloc(g, sizeof *t);
    Onnx__TypeProto__Tensor *tt = gen_alloc(g, sizeof *tt);
    Onnx__TensorShapeProto *sh = gen_alloc(g, sizeof *sh);
    onnx__value_info_proto__init(v);
    onnx__type_proto__init(t);
    onnx__type_proto__tensor__init(tt);
    onnx__tensor_shape_proto__init(sh);
    v->name = (char *)name;
    v->type = t;
    t->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    t->tensor_type = tt;
    tt->has_elem_type = 1;
    tt->elem_type = 1;
    tt->shape = sh;
    sh->dim = gen_alloc(g, sizeof(void *) * (size_t)(rank + 1));
    for (int k = 0; k < rank; k++) {
        Onnx__TensorShapeProto__Dimension *d = gen_alloc(g, sizeof *d);
        onnx__tensor_shape_proto__dimension__init(d);
        d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
        d->dim_value = dims[k];
        sh->dim[sh->n_dim++] = d;
    }
    return v;
}

static Onnx__NodeProto *gen_node(gen *g, const char *op, int nin, int nout)
{
    if (g->graph.n_node == g->capnodes) {
        g->capnodes = g->capnodes ? 2 * g->capnodes : 256;
        g->graph.node = realloc(g->graph.node, sizeof(void *) * g->capnodes);
        if (!g->graph.node)
            exit(99);
    }
    Onnx__NodeProto *n = gen_alloc(g, sizeof *n);
    onnx__node_proto__init(n);
    n->op_type = (char *)op;
    n->name = gen_str(g, "n%d", (int)g->graph.n_node);
    n->n_input = (size_t)nin;
    n->input = gen_alloc(g, sizeof(char *) * (size_t)nin);
    n->n_output = (size_t)nout;
    n->output = gen_alloc(g, sizeof(char *) * (size_t)nout);
    n->attribute = gen_alloc(g, sizeof(void *) * 4);
    g->graph.node[g->graph.n_node++] = n;
    return n;
}

static void gen_attr_int(gen *g, Onnx__NodeProto *n, const char *name, int64_t v)
{
    Onnx__AttributeProto *a = gen_alloc(g, sizeof *a);
    onnx__attribute_proto__init(a);
    a->name = (char *)name;
    a->has_type = 1;
    a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
    a->has_i = 1;
    a->i = v;
    n->attribute[n->n_attribute++] = a;
}

static void gen_attr_ints(gen *g, Onnx__NodeProto *n, const char *name, const int64_t *v, int k)
{
    Onnx__AttributeProto *a = gen_alloc(g, sizeof *a);
    onnx__attribute_proto__init(a);
    a->name = (char *)name;
    a->has_type = 1;
    a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
    a->ints = gen_alloc(g, sizeof(int64_t) * (size_t)k);
    memcpy(a->ints, v, sizeof(int64_t) * (size_t)k);
    a->n_ints = (size_t)k;
    n->attribute[n->n_attribute++] = a;
}

/* An initializer: int64 contents when data is given (rank 0 or 1), else a
 * float weight without data, as the shared models ship them. */
static void gen_init_tensor(gen *g, const char *name, const int64_t *dims, int rank,
                            const int64_t *data)
{
    if (g->graph.n_initializer == g->capinits) {
        g->capinits = g->capinits ? 2 * g->capinits : 256;
        g->graph.initializer = realloc(g->graph.initializer, sizeof(void *) * g->capinits);
        if (!g->graph.initializer)
            exit(99);
    }
    Onnx__TensorProto *t = gen_alloc(g, sizeof *t);
    onnx__tensor_proto__init(t);
    t->name = (char *)name;
    t->has_data_type = 1;
    t->data_type = data ? 7 : 1;
    t->n_dims = (size_t)rank;
    t->dims = gen_alloc(g, sizeof(int64_t) * (size_t)(rank + 1));
    size_t n = 1;
    for (int k = 0; k < rank; k++) {
        t->dims[k] = dims[k];
        n *= (size_t)dims[k];
    }
    if (data) {
        t->n_int64_data = n;
        t->int64_data = gen_alloc(g, sizeof(int64_t) * n);
        memcpy(t->int64_data, data, sizeof(int64_t) * n);
    } else {
        t->has_data_location = 1;
        t->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    }
    g->graph.initializer[g->graph.n_initializer++] = t;
}

static uint8_t *gen_pack(gen *g, size_t *size)
{
    *size = onnx__model_proto__get_packed_size(&g->model);
    uint8_t *buf = malloc(*size ? *size : 1);
    if (!buf)
        exit(99);
    onnx__model_proto__pack(&g->model, buf);
    return buf;
}

static inline uint8_t *gen_concat(int n, size_t *size)
{
    gen g;
    gen_init(&g, 13);
    int64_t dims[2] = {1, 4};
    g.inputs[0] = gen_value(&g, "x", dims, 2);
    g.graph.n_input = 1;
    Onnx__NodeProto *cat = gen_node(&g, "Concat", n, 1);
    gen_attr_int(&g, cat, "axis", 1);
    cat->output[0] = "y";
    for (int i = 0; i < n; i++) {
        Onnx__NodeProto *r = gen_node(&g, "Relu", 1, 1);
        r->input[0] = "x";
        r->output[0] = cat->input[i] = gen_str(&g, "r%d", i);
    }
    dims[1] = 4 * n;
    g.outputs[0] = gen_value(&g, "y", dims, 2);
    g.graph.n_output = 1;
    uint8_t *buf = gen_pack(&g, size);
    gen_free(&g);
    return buf;
}

/* One layer of gen_chains, x -> next, all [1, S, C]:
 *   a = MatMul(x, W); b = Add(a, B)
 *   s = Shape(b); d0 = Gather(s, 0); d1 = Gather(s, 1)
 *   u0 = Unsqueeze(d0, [0]); u1 = Unsqueeze(d1, [0])
 *   h = Concat(u0, u1, [H], [C/H]); r = Reshape(b, h)          [1, S, H, C/H]
 *   t = Transpose(r, [0, 2, 1, 3]); m = Softmax(t, -1)          [1, H, S, C/H]
 *   t2 = Transpose(m, [0, 2, 1, 3])
 *   s2 = Shape(x); e0 = Gather(s2, 0); e1 = Gather(s2, 1)
 *   v0 = Unsqueeze(e0, [0]); v1 = Unsqueeze(e1, [0])
 *   k = Concat(v0, v1, [C]); o = Reshape(t2, k); next = Add(o, x)
 */
enum { GEN_S = 49, GEN_C = 96, GEN_H = 3, GEN_LAYER_NODES = 20 };

static inline uint8_t *gen_chains(int layers, size_t *size)
{
    gen g;
    gen_init(&g, 13);
    int64_t xd[3] = {1, GEN_S, GEN_C}, wd[2] = {GEN_C, GEN_C}, bd[1] = {GEN_C}, one[1] = {1};
    int64_t zero = 0, first = 1, heads = GEN_H, hdim = GEN_C / GEN_H, chans = GEN_C;
    g.inputs[0] = gen_value(&g, "x0", xd, 3);
    g.graph.n_input = 1;
    gen_init_tensor(&g, "i0", NULL, 0, &zero);
    gen_init_tensor(&g, "i1", NULL, 0, &first);
    gen_init_tensor(&g, "ax0", one, 1, &zero);
    gen_init_tensor(&g, "heads", one, 1, &heads);
    gen_init_tensor(&g, "hdim", one, 1, &hdim);
    gen_init_tensor(&g, "chans", one, 1, &chans);
    static const int64_t perm[4] = {0, 2, 1, 3};
    const char *x = "x0";
    for (int l = 0; l < layers; l++) {
#define V(fmt) gen_str(&g, fmt, l)
#define NODE(var, op, nin) Onnx__NodeProto *var = gen_node(&g, op, nin, 1)
        char *w = V("w%d"), *bias = V("bias%d");
        gen_init_tensor(&g, w, wd, 2, NULL);
        gen_init_tensor(&g, bias, bd, 1, NULL);
        NODE(mm, "MatMul", 2);  mm->input[0] = (char *)x; mm->input[1] = w;  mm->output[0] = V("a%d");
        NODE(add, "Add", 2);    add->input[0] = mm->output[0]; add->input[1] = bias; add->output[0] = V("b%d");
        const char *shaped[2] = {add->output[0], x};
        char *cat_out[2];
        for (int half = 0; half < 2; half++) {
            NODE(sh, "Shape", 1); sh->input[0] = (char *)shaped[half]; sh->output[0] = gen_str(&g, half ? "s2_%d" : "s%d", l);
            char *u[2];
            for (int k = 0; k < 2; k++) {
                NODE(ga, "Gather", 2); ga->input[0] = sh->output[0]; ga->input[1] = k ? "i1" : "i0";
                gen_attr_int(&g, ga, "axis", 0);
                char buf[32];
                snprintf(buf, sizeof buf, "g%d_%d_%%d", half, k);
                ga->output[0] = V(buf);
                NODE(un, "Unsqueeze", 2); un->input[0] = ga->output[0]; un->input[1] = "ax0";
                snprintf(buf, sizeof buf, "u%d_%d_%%d", half, k);
                un->output[0] = u[k] = V(buf);
            }
            NODE(cat, "Concat", half ? 3 : 4);
            gen_attr_int(&g, cat, "axis", 0);
            cat->input[0] = u[0];
            cat->input[1] = u[1];
            if (half) {
                cat->input[2] = "chans";
            } else {
                cat->input[2] = "heads";
                cat->input[3] = "hdim";
            }
            cat->output[0] = cat_out[half] = gen_str(&g, half ? "k%d" : "h%d", l);
        }
        NODE(r, "Reshape", 2);   r->input[0] = add->output[0]; r->input[1] = cat_out[0]; r->output[0] = V("r%d");
        NODE(t, "Transpose", 1); t->input[0] = r->output[0]; t->output[0] = V("t%d");
        gen_attr_ints(&g, t, "perm", perm, 4);
        NODE(sm, "Softmax", 1);  sm->input[0] = t->output[0]; sm->output[0] = V("m%d");
        gen_attr_int(&g, sm, "axis", -1);
        NODE(t2, "Transpose", 1); t2->input[0] = sm->output[0]; t2->output[0] = V("t2_%d");
        gen_attr_ints(&g, t2, "perm", perm, 4);
        NODE(o, "Reshape", 2);   o->input[0] = t2->output[0]; o->input[1] = cat_out[1]; o->output[0] = V("o%d");
        NODE(nx, "Add", 2);      nx->input[0] = o->output[0]; nx->input[1] = (char *)x; nx->output[0] = gen_str(&g, "x%d", l + 1);
        x = nx->output[0];
#undef NODE
#undef V
    }
    g.outputs[0] = gen_value(&g, x, xd, 3);
    g.graph.n_output = 1;
    uint8_t *buf = gen_pack(&g, size);
    gen_free(&g);
    return buf;
}

static inline uint8_t *gen_unary_chain(const char *op, int n, size_t *size)
{
    gen g;
    gen_init(&g, 13);
    bool swap = !strcmp(op, "Transpose") && n % 2;
    int64_t dims[2] = {2, 3}, out[2] = {swap ? 3 : 2, swap ? 2 : 3}, perm[2] = {1, 0};
    g.inputs[0] = gen_value(&g, "v0", dims, 2);
    g.graph.n_input = 1;
    for (int i = 0; i < n; i++) {
        Onnx__NodeProto *t = gen_node(&g, op, 1, 1);
        t->input[0] = gen_str(&g, "v%d", i);
        t->output[0] = gen_str(&g, "v%d", i + 1);
        if (!strcmp(op, "Transpose"))
            gen_attr_ints(&g, t, "perm", perm, 2);
    }
    Onnx__NodeProto *r = gen_node(&g, "Relu", 1, 1);
    r->input[0] = gen_str(&g, "v%d", n);
    r->output[0] = "y";
    g.outputs[0] = gen_value(&g, "y", out, 2);
    g.graph.n_output = 1;
    uint8_t *buf = gen_pack(&g, size);
    gen_free(&g);
    return buf;
}

#endif
