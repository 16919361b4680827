/* Write an ONNX model with control flow, for the CLI tests
 * (tests/cli/control_flow.sh):
 *
 *   gen_cf if FILE       a main graph that is one If on an input: then
 *                        Relu(x), else Sigmoid(Neg(x))
 *   gen_cf deep N FILE   N Ifs, each in the previous one's then_branch
 *
 * Built with the protobuf-c API generated from onnx.proto; every
 * allocation is kept in a list and freed before exit. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/onnx.pb-c.h"

static void **allocs;
static size_t nallocs, capallocs;

static void *alloc(size_t size)
{
    if (nallocs == capallocs) {
        capallocs = capallocs ? 2 * capallocs : 1024;
        void **a = realloc(allocs, sizeof(void *) * capallocs);
        if (!a) {
            fputs("gen_cf: out of memory\n", stderr);
            exit(99);
        }
        allocs = a;
    }
    void *p = calloc(1, size ? size : 1);
    if (!p) {
        fputs("gen_cf: out of memory\n", stderr);
        exit(99);
    }
    return allocs[nallocs++] = p;
}

static void free_all(void)
{
    for (size_t i = 0; i < nallocs; i++)
        free(allocs[i]);
    free(allocs);
}

static char **names(const char *a, const char *b)
{
    char **v = alloc(sizeof(char *) * 2);
    v[0] = (char *)a;
    v[1] = (char *)b;
    return v;
}

static Onnx__GraphProto *graph(const char *name)
{
    Onnx__GraphProto *g = alloc(sizeof *g);
    onnx__graph_proto__init(g);
    g->name = (char *)name;
    g->node = alloc(sizeof(void *) * 4);
    g->input = alloc(sizeof(void *) * 4);
    g->output = alloc(sizeof(void *) * 4);
    return g;
}

/* A value of element type elem, rank 0 (dims NULL) or 2. */
static Onnx__ValueInfoProto *value(const char *name, int elem, const int64_t *dims)
{
    Onnx__ValueInfoProto *v = alloc(sizeof *v);
    Onnx__TypeProto *t = alloc(sizeof *t);
    Onnx__TypeProto__Tensor *tt = alloc(sizeof *tt);
    Onnx__TensorShapeProto *sh = alloc(sizeof *sh);
    onnx__value_info_proto__init(v);
    onnx__type_proto__init(t);
    onnx__type_proto__tensor__init(tt);
    onnx__tensor_shape_proto__init(sh);
    v->name = (char *)name;
    v->type = t;
    t->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    t->tensor_type = tt;
    tt->has_elem_type = 1;
    tt->elem_type = elem;
    tt->shape = sh;
    sh->dim = alloc(sizeof(void *) * 2);
    for (int k = 0; dims && k < 2; k++) {
        Onnx__TensorShapeProto__Dimension *d = alloc(sizeof *d);
        onnx__tensor_shape_proto__dimension__init(d);
        d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
        d->dim_value = dims[k];
        sh->dim[sh->n_dim++] = d;
    }
    return v;
}

static Onnx__NodeProto *node(Onnx__GraphProto *g, const char *op, const char *name,
                             const char *in, const char *out)
{
    Onnx__NodeProto *n = alloc(sizeof *n);
    onnx__node_proto__init(n);
    n->op_type = (char *)op;
    n->name = (char *)name;
    n->input = names(in, NULL);
    n->n_input = 1;
    n->output = names(out, NULL);
    n->n_output = 1;
    n->attribute = alloc(sizeof(void *) * 2);
    g->node[g->n_node++] = n;
    return n;
}

static Onnx__GraphProto *branch(Onnx__NodeProto *n, const char *attr)
{
    Onnx__AttributeProto *a = alloc(sizeof *a);
    onnx__attribute_proto__init(a);
    a->name = (char *)attr;
    a->has_type = 1;
    a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH;
    a->g = graph(attr);
    n->attribute[n->n_attribute++] = a;
    return a->g;
}

static char *str(const char *fmt, long i)
{
    char *s = alloc(32);
    snprintf(s, 32, fmt, i);
    return s;
}

int main(int argc, char **argv)
{
    bool deep = argc == 4 && !strcmp(argv[1], "deep");
    if (!(argc == 3 && !strcmp(argv[1], "if")) && !deep) {
        fputs("usage: gen_cf if FILE | deep N FILE\n", stderr);
        return 2;
    }
    long depth = deep ? strtol(argv[2], NULL, 10) : 1;
    if (depth < 1 || depth > 10000) {
        fputs("gen_cf: N must be 1..10000\n", stderr);
        return 2;
    }
    static const int64_t dims[2] = {2, 3};
    Onnx__ModelProto model;
    Onnx__OperatorSetIdProto opset, *opsets[1] = {&opset};
    onnx__model_proto__init(&model);
    onnx__operator_set_id_proto__init(&opset);
    model.has_ir_version = 1;
    model.ir_version = 8;
    opset.domain = "";
    opset.has_version = 1;
    opset.version = 13;
    model.n_opset_import = 1;
    model.opset_import = opsets;
    Onnx__GraphProto *g = model.graph = graph("main");
    g->input[g->n_input++] = value("x", 1, dims);
    g->input[g->n_input++] = value("c", 9, NULL);
    g->output[g->n_output++] = value("y", 1, dims);
    Onnx__NodeProto *n = node(g, "If", "if", "c", "y");
    for (long d = 1; d <= depth; d++) {
        Onnx__GraphProto *t = branch(n, "then_branch"), *e = branch(n, "else_branch");
        const char *out = d == 1 ? "t" : str("t%ld", d);
        if (d == depth)
            node(t, "Relu", "relu", "x", out);
        else
            n = node(t, "If", str("if%ld", d), "c", out);
        t->output[t->n_output++] = value(out, 1, NULL);
        node(e, "Neg", str("neg%ld", d), "x", str("n%ld", d));
        node(e, "Sigmoid", str("sigmoid%ld", d), str("n%ld", d), str("e%ld", d));
        e->output[e->n_output++] = value(e->node[1]->output[0], 1, NULL);
    }
    size_t size = onnx__model_proto__get_packed_size(&model);
    uint8_t *buf = alloc(size);
    onnx__model_proto__pack(&model, buf);
    FILE *f = fopen(argv[argc - 1], "wb");
    bool bad = !f || fwrite(buf, 1, size, f) != size;
    if ((f && fclose(f) != 0) || bad) {
        perror(argv[argc - 1]);
        free_all();
        return 1;
    }
    free_all();
    return 0;
}
