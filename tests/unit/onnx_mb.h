/* The ONNX model builder the ONNX unit tests share (test_onnx*.c).
 *
 * Each test builds a small model with the protobuf-c API generated from
 * onnx.proto, packs it, reads it back with byoc_onnx_read_bytes and looks
 * at the graph.  Types are written as "float[1,3,N,?]" (N symbolic, ?
 * unknown).  Header-only: static inline functions, so that a test file
 * compiles only what it uses; the test compiles runtime/onnx.pb-c.c. */
#ifndef BYOC_TESTS_UNIT_ONNX_MB_H
#define BYOC_TESTS_UNIT_ONNX_MB_H

#include <check.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>
#include <byoc/onnx.h>

#include "runtime/onnx.pb-c.h"

/* ---- a model builder ------------------------------------------------------- */

enum { MAXP = 4096 };

typedef struct mb {
    Onnx__ModelProto model;
    Onnx__GraphProto graph;
    Onnx__OperatorSetIdProto opset;
    Onnx__OperatorSetIdProto *opsets[8];
    Onnx__NodeProto *nodes[256];
    Onnx__ValueInfoProto *inputs[16], *outputs[16], *infos[32];
    Onnx__TensorProto *inits[32];
    void *allocs[MAXP];
    int nallocs;
} mb;

static inline void *mb_alloc(mb *m, size_t size)
{
    ck_assert_int_lt(m->nallocs, MAXP);
    void *p = calloc(1, size ? size : 1);
    ck_assert_ptr_nonnull(p);
    return m->allocs[m->nallocs++] = p;
}

static inline char *mb_str(mb *m, const char *s)
{
    return strcpy(mb_alloc(m, strlen(s) + 1), s);
}

static inline void mb_init(mb *m, int opset, int ir)
{
    memset(m, 0, sizeof *m);
    onnx__model_proto__init(&m->model);
    onnx__graph_proto__init(&m->graph);
    onnx__operator_set_id_proto__init(&m->opset);
    m->model.has_ir_version = 1;
    m->model.ir_version = ir;
    m->opset.domain = "";
    m->opset.has_version = 1;
    m->opset.version = opset;
    m->opsets[0] = &m->opset;
    m->model.n_opset_import = 1;
    m->model.opset_import = m->opsets;
    m->model.graph = &m->graph;
    m->graph.name = "test";
    m->graph.node = m->nodes;
    m->graph.input = m->inputs;
    m->graph.output = m->outputs;
    m->graph.value_info = m->infos;
    m->graph.initializer = m->inits;
}

/* Import another domain (com.microsoft, say) at a version. */
static inline void mb_opset(mb *m, const char *domain, int version)
{
    ck_assert_uint_lt(m->model.n_opset_import, 8);
    Onnx__OperatorSetIdProto *o = mb_alloc(m, sizeof *o);
    onnx__operator_set_id_proto__init(o);
    o->domain = mb_str(m, domain);
    o->has_version = 1;
    o->version = version;
    m->opsets[m->model.n_opset_import++] = o;
}

/* Put a node in a domain (com.microsoft, say). */
static inline void mb_domain(mb *m, Onnx__NodeProto *n, const char *domain)
{
    n->domain = mb_str(m, domain);
}

static inline void mb_free(mb *m)
{
    for (int i = 0; i < m->nallocs; i++)
        free(m->allocs[i]);
}

/* "a,b,,c" into n strings; an empty item is an absent optional input. */
static inline char **mb_list(mb *m, const char *spec, size_t *n)
{
    *n = 0;
    if (!spec || !*spec)
        return NULL;
    char **v = mb_alloc(m, sizeof(char *) * 32);
    const char *p = spec;
    for (;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char *s = mb_alloc(m, len + 1);
        memcpy(s, p, len);
        v[(*n)++] = s;
        if (!e)
            break;
        p = e + 1;
    }
    return v;
}

static inline Onnx__NodeProto *mb_node(mb *m, const char *op, const char *name, const char *in,
                                const char *out)
{
    Onnx__NodeProto *n = mb_alloc(m, sizeof *n);
    onnx__node_proto__init(n);
    n->op_type = mb_str(m, op);
    n->name = mb_str(m, name);
    n->input = mb_list(m, in, &n->n_input);
    n->output = mb_list(m, out, &n->n_output);
    n->attribute = mb_alloc(m, sizeof(Onnx__AttributeProto *) * 16);
    m->nodes[m->graph.n_node++] = n;
    return n;
}

static inline Onnx__AttributeProto *mb_attr(mb *m, Onnx__NodeProto *n, const char *name,
                                     Onnx__AttributeProto__AttributeType type)
{
    Onnx__AttributeProto *a = mb_alloc(m, sizeof *a);
    onnx__attribute_proto__init(a);
    a->name = mb_str(m, name);
    a->has_type = 1;
    a->type = type;
    n->attribute[n->n_attribute++] = a;
    return a;
}

static inline void attr_int(mb *m, Onnx__NodeProto *n, const char *name, int64_t v)
{
    Onnx__AttributeProto *a = mb_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
    a->has_i = 1;
    a->i = v;
}

static inline void attr_float(mb *m, Onnx__NodeProto *n, const char *name, float v)
{
    Onnx__AttributeProto *a = mb_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    a->has_f = 1;
    a->f = v;
}

static inline void attr_string(mb *m, Onnx__NodeProto *n, const char *name, const char *v)
{
    Onnx__AttributeProto *a =
        mb_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
    a->has_s = 1;
    a->s.data = (uint8_t *)mb_str(m, v);
    a->s.len = strlen(v);
}

static inline void attr_ints(mb *m, Onnx__NodeProto *n, const char *name, int count, ...)
{
    Onnx__AttributeProto *a = mb_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
    a->ints = mb_alloc(m, sizeof(int64_t) * (size_t)count);
    va_list ap;
    va_start(ap, count);
    for (int i = 0; i < count; i++)
        a->ints[i] = va_arg(ap, int);
    va_end(ap);
    a->n_ints = (size_t)count;
}

static inline int dtype_code(const char *s, size_t len)
{
    static const struct { const char *name; int code; } types[] = {
        {"float", 1}, {"uint8", 2}, {"int8", 3}, {"uint16", 4}, {"int16", 5},
        {"int32", 6}, {"int64", 7}, {"string", 8}, {"bool", 9}, {"float16", 10},
        {"double", 11},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i].name) == len && !strncmp(types[i].name, s, len))
            return types[i].code;
    ck_abort_msg("bad dtype in a test type");
    return 0;
}

/* "float[1,N,?]": a tensor type; "float" alone: no shape. */
static inline Onnx__TypeProto *mb_type(mb *m, const char *spec)
{
    Onnx__TypeProto *t = mb_alloc(m, sizeof *t);
    Onnx__TypeProto__Tensor *tt = mb_alloc(m, sizeof *tt);
    onnx__type_proto__init(t);
    onnx__type_proto__tensor__init(tt);
    t->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    t->tensor_type = tt;
    const char *br = strchr(spec, '[');
    tt->has_elem_type = 1;
    tt->elem_type = dtype_code(spec, br ? (size_t)(br - spec) : strlen(spec));
    if (!br)
        return t;
    Onnx__TensorShapeProto *sh = mb_alloc(m, sizeof *sh);
    onnx__tensor_shape_proto__init(sh);
    sh->dim = mb_alloc(m, sizeof(void *) * 16);
    tt->shape = sh;
    const char *p = br + 1;
    while (*p && *p != ']') {
        const char *e = p + strcspn(p, ",]");
        Onnx__TensorShapeProto__Dimension *d = mb_alloc(m, sizeof *d);
        onnx__tensor_shape_proto__dimension__init(d);
        if (*p >= '0' && *p <= '9') {
            d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
            d->dim_value = atoll(p);
        } else if (*p != '?') {
            d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
            char *name = mb_alloc(m, (size_t)(e - p) + 1);
            memcpy(name, p, (size_t)(e - p));
            d->dim_param = name;
        }
        sh->dim[sh->n_dim++] = d;
        p = *e == ',' ? e + 1 : e;
    }
    return t;
}

static inline Onnx__ValueInfoProto *mb_vi(mb *m, const char *name, const char *spec)
{
    Onnx__ValueInfoProto *v = mb_alloc(m, sizeof *v);
    onnx__value_info_proto__init(v);
    v->name = mb_str(m, name);
    if (spec)
        v->type = mb_type(m, spec);
    return v;
}

static inline void mb_input(mb *m, const char *name, const char *spec)
{
    m->inputs[m->graph.n_input++] = mb_vi(m, name, spec);
}

static inline void mb_output(mb *m, const char *name, const char *spec)
{
    m->outputs[m->graph.n_output++] = mb_vi(m, name, spec);
}

static inline void mb_info(mb *m, const char *name, const char *spec)
{
    m->infos[m->graph.n_value_info++] = mb_vi(m, name, spec);
}

/* An initializer of type spec without data (weights are not shipped). */
static inline Onnx__TensorProto *mb_tensor(mb *m, const char *name, const char *spec)
{
    Onnx__TypeProto *t = mb_type(m, spec);
    Onnx__TensorProto *x = mb_alloc(m, sizeof *x);
    onnx__tensor_proto__init(x);
    x->name = mb_str(m, name);
    x->has_data_type = 1;
    x->data_type = t->tensor_type->elem_type;
    Onnx__TensorShapeProto *sh = t->tensor_type->shape;
    x->n_dims = sh ? sh->n_dim : 0;
    x->dims = mb_alloc(m, sizeof(int64_t) * (x->n_dims + 1));
    for (size_t k = 0; k < x->n_dims; k++)
        x->dims[k] = sh->dim[k]->dim_value;
    return x;
}

static inline Onnx__TensorProto *mb_weight(mb *m, const char *name, const char *spec)
{
    Onnx__TensorProto *x = mb_tensor(m, name, spec);
    m->inits[m->graph.n_initializer++] = x;
    return x;
}

/* A 1-D int64 initializer with data in int64_data. */
static inline Onnx__TensorProto *mb_ints(mb *m, const char *name, int count, ...)
{
    char spec[32];
    snprintf(spec, sizeof spec, "int64[%d]", count);
    Onnx__TensorProto *x = mb_weight(m, name, spec);
    x->int64_data = mb_alloc(m, sizeof(int64_t) * (size_t)count);
    va_list ap;
    va_start(ap, count);
    for (int i = 0; i < count; i++)
        x->int64_data[i] = va_arg(ap, int);
    va_end(ap);
    x->n_int64_data = (size_t)count;
    return x;
}

/* A 1-D float initializer with data in float_data. */
static inline void mb_floats(mb *m, const char *name, int count, ...)
{
    char spec[32];
    snprintf(spec, sizeof spec, "float[%d]", count);
    Onnx__TensorProto *x = mb_weight(m, name, spec);
    x->float_data = mb_alloc(m, sizeof(float) * (size_t)count);
    va_list ap;
    va_start(ap, count);
    for (int i = 0; i < count; i++)
        x->float_data[i] = (float)va_arg(ap, double);
    va_end(ap);
    x->n_float_data = (size_t)count;
}

/* A float scalar initializer with data in float_data. */
static inline void mb_scalar(mb *m, const char *name, float v)
{
    Onnx__TensorProto *x = mb_weight(m, name, "float[]");
    x->float_data = mb_alloc(m, sizeof(float));
    x->float_data[0] = v;
    x->n_float_data = 1;
}

static byoc_registry *reg;
static byoc_error err;
static uint8_t *bytes;
static size_t nbytes;

static inline void pack(mb *m)
{
    nbytes = protobuf_c_message_get_packed_size(&m->model.base);
    bytes = malloc(nbytes + 1);
    ck_assert_ptr_nonnull(bytes);
    ck_assert_uint_eq(protobuf_c_message_pack(&m->model.base, bytes), nbytes);
}

/* Pack the model, free the builder, read the bytes. */
static inline byoc_graph *read_model(mb *m)
{
    pack(m);
    mb_free(m);
    byoc_graph *g = byoc_onnx_read_bytes(reg, bytes, nbytes, "model.onnx", &err);
    free(bytes);
    bytes = NULL;
    return g;
}

static inline byoc_graph *read_ok(mb *m)
{
    byoc_graph *g = read_model(m);
    if (!g) {
        char msg[1024];
        byoc_error_format(&err, msg, sizeof msg);
        ck_abort_msg("reading failed: %s", msg);
    }
    return g;
}

/* The error message a model gives, formatted. */
static inline const char *read_error(mb *m)
{
    static char msg[1024];
    byoc_graph *g = read_model(m);
    ck_assert_ptr_null(g);
    byoc_error_format(&err, msg, sizeof msg);
    return msg;
}

static inline void setup(void)
{
    reg = byoc_registry_create();
    ck_assert_int_eq(byoc_register_relay(reg, &err), 0);
}

static inline void teardown(void)
{
    byoc_registry_destroy(reg);
}

/* ---- looking at graphs ------------------------------------------------------ */

static inline int count_op(const byoc_graph *g, const char *op)
{
    int n = 0;
    for (int i = 0; i < byoc_graph_node_count(g); i++)
        n += byoc_node_op_name(g, i) && !strcmp(byoc_node_op_name(g, i), op);
    return n;
}

static inline int count_calls(const byoc_graph *g)
{
    int n = 0;
    for (int i = 0; i < byoc_graph_node_count(g); i++)
        n += byoc_node_kind_of(g, i) == BYOC_N_CALL;
    return n;
}

static inline int count_kind(const byoc_graph *g, byoc_node_kind k)
{
    int n = 0;
    for (int i = 0; i < byoc_graph_node_count(g); i++)
        n += byoc_node_kind_of(g, i) == k;
    return n;
}

static inline int find_op(const byoc_graph *g, const char *op)
{
    for (int i = 0; i < byoc_graph_node_count(g); i++)
        if (byoc_node_op_name(g, i) && !strcmp(byoc_node_op_name(g, i), op))
            return i;
    ck_abort_msg("no %s in the graph", op);
    return -1;
}

static inline int find_name(const byoc_graph *g, const char *name)
{
    for (int i = 0; i < byoc_graph_node_count(g); i++)
        if (byoc_node_name(g, i) && !strcmp(byoc_node_name(g, i), name))
            return i;
    ck_abort_msg("no node named %s", name);
    return -1;
}

/* An attribute printed the .byoc way, for compact comparisons. */
static inline const char *attr_text(const byoc_graph *g, int node, const char *name)
{
    static char buf[256];
    const byoc_value *v = byoc_node_attr(g, node, name);
    ck_assert_msg(v != NULL, "no attribute %s", name);
    byoc_value_format(v, buf, sizeof buf);
    return buf;
}

/* A node's type printed Relay's way. */
static inline const char *type_text(const byoc_graph *g, int node)
{
    static char buf[256];
    const byoc_tensor_type *t = byoc_node_type(g, node, -1);
    ck_assert_ptr_nonnull(t);
    byoc_relay_format_type(g, t, buf, sizeof buf);
    return buf;
}

static inline const char *output_type(const byoc_graph *g)
{
    return type_text(g, byoc_graph_output(g));
}

static inline bool has_note(const byoc_graph *g, const char *part)
{
    for (int i = 0; i < byoc_graph_note_count(g); i++)
        if (strstr(byoc_graph_note(g, i), part))
            return true;
    return false;
}

/* ---- subgraphs: graph attributes (If's branches, Loop's and Scan's bodies) ---- */

/* A graph attribute `attr` of node n, empty: fill it with the mb_sub_
 * helpers. */
static inline Onnx__GraphProto *mb_graph_attr(mb *m, Onnx__NodeProto *n, const char *attr)
{
    Onnx__GraphProto *g = mb_alloc(m, sizeof *g);
    onnx__graph_proto__init(g);
    g->name = mb_str(m, attr);
    g->node = mb_alloc(m, sizeof(Onnx__NodeProto *) * 64);
    g->input = mb_alloc(m, sizeof(Onnx__ValueInfoProto *) * 16);
    g->output = mb_alloc(m, sizeof(Onnx__ValueInfoProto *) * 16);
    g->value_info = mb_alloc(m, sizeof(Onnx__ValueInfoProto *) * 16);
    g->initializer = mb_alloc(m, sizeof(Onnx__TensorProto *) * 16);
    Onnx__AttributeProto *a = mb_attr(m, n, attr, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH);
    a->g = g;
    return g;
}

/* A node of subgraph g (mb_node appends to the main graph: moved). */
static inline Onnx__NodeProto *mb_sub_node(mb *m, Onnx__GraphProto *g, const char *op,
                                           const char *name, const char *in, const char *out)
{
    ck_assert_uint_lt(g->n_node, 64);
    Onnx__NodeProto *n = mb_node(m, op, name, in, out);
    m->graph.n_node--;
    g->node[g->n_node++] = n;
    return n;
}

static inline void mb_sub_input(mb *m, Onnx__GraphProto *g, const char *name, const char *spec)
{
    ck_assert_uint_lt(g->n_input, 16);
    g->input[g->n_input++] = mb_vi(m, name, spec);
}

static inline void mb_sub_output(mb *m, Onnx__GraphProto *g, const char *name, const char *spec)
{
    ck_assert_uint_lt(g->n_output, 16);
    g->output[g->n_output++] = mb_vi(m, name, spec);
}

/* A bool scalar initializer of the main graph, with data. */
static inline void mb_bool(mb *m, const char *name, bool v)
{
    Onnx__TensorProto *x = mb_weight(m, name, "bool[]");
    x->int32_data = mb_alloc(m, sizeof(int32_t));
    x->int32_data[0] = v;
    x->n_int32_data = 1;
}

#endif
