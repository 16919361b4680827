/* Synthetic models for scale benchmarks, in Relay text or ONNX.
 *
 *   bench/gen_model SHAPE (--calls N | --layers L) [-f relay|onnx] [-o FILE]
 *
 * One program writes every shape in both formats: each shape is written
 * once, against a handful of graph-building operations (reshape, dense,
 * a binary op, ...), and each operation knows how to say itself in Relay
 * text, as TVM prints it, or as ONNX nodes, the way the shared models were
 * exported (Gemm for nn.dense, Transpose+MatMul for batch_matmul, Split and
 * Reshape taking their sizes as int64 initializers).  The transformer is
 * gpt2.relay's own op sequence and shapes (input (1, 50, 32) int64, hidden
 * 768, 12 heads), so that transformer-kv at 12 layers is that model again.
 *
 * Relay text is streamed: every statement is held back until the next one
 * starts, because TVM prints the body's last expression without binding it.
 * ONNX is built as protobuf-c messages in an arena, packed once at the end.
 * Weights are typed but never written: Relay names them meta[relay.Constant]
 * with a ty comment; ONNX marks them external, in a file that is only
 * written, as zeros and sparse, with --write-weights.  Output is a function
 * of the arguments alone.  Not a test: nothing is asserted. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_ONNX
#include "runtime/onnx.pb-c.h"
#endif

enum { MAX_CALLS = 10000000, MAX_RANK = 5 };

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gen_model: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

/* ---- an arena: everything of one model, freed at once ---- */

typedef struct chunk {
    struct chunk *next;
    size_t used, cap;
    max_align_t data[];
} chunk;

typedef struct {
    chunk *head;
} arena;

static void *arena_alloc(arena *a, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (!a->head || a->head->cap - a->head->used < n) {
        size_t cap = n > ((size_t)1 << 20) ? n : (size_t)1 << 20;
        chunk *c = malloc(sizeof *c + cap);
        if (!c)
            die("out of memory");
        c->next = a->head;
        c->used = 0;
        c->cap = cap;
        a->head = c;
    }
    void *p = (char *)a->head->data + a->head->used;
    a->head->used += n;
    memset(p, 0, n);
    return p;
}

static char *arena_printf(arena *a, const char *fmt, ...)
{
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = arena_alloc(a, (size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, aq);
    va_end(aq);
    return s;
}

static void arena_free(arena *a)
{
    while (a->head) {
        chunk *next = a->head->next;
        free(a->head);
        a->head = next;
    }
}

/* ---- the graph being written ---- */

/* A growable array of pointers (ONNX nodes, initializers). */
typedef struct {
    void **v;
    size_t n, cap;
} ptrvec;


typedef struct {
    int rank;
    long long d[MAX_RANK];
} dims;

/* A value: its Relay number, or its ONNX tensor name; a tuple (a split's
 * result, the pair before a concatenate) also names its fields. */
typedef struct {
    int relay;
    const char *onnx;
    bool is_input;              /* Relay names it %onnx */
    const char *field[3];
} value;

typedef struct {
    bool onnx;
    FILE *out;
    arena ar;
    value *vals;
    int nvals, capvals;
    int calls;
    /* Relay: the statement held back, and the next free %number. */
    char *pending;
    size_t pending_len, pending_cap;
    int pending_num;
    int next_num;
    int nconst;          /* meta[relay.Constant] or const_ index */
    /* ONNX */
    int counter;         /* suffix of every generated name */
    const char *weights; /* the external data file, as the model names it */
    long long woffset;   /* bytes of external data so far */
    ptrvec nodes, inits, outputs;
} gen;

typedef int val;

static val new_value(gen *g)
{
    if (g->nvals == g->capvals) {
        g->capvals = g->capvals ? g->capvals * 2 : 1024;
        g->vals = realloc(g->vals, (size_t)g->capvals * sizeof *g->vals);
        if (!g->vals)
            die("out of memory");
    }
    memset(&g->vals[g->nvals], 0, sizeof g->vals[0]);
    return g->nvals++;
}

/* An argument: a value, a scalar constant or a weight (a typed constant). */
typedef struct {
    enum { A_VAL, A_F32, A_I64, A_W } kind;
    val v;
    double f;
    long long i;
    dims w;
} arg;

static arg V(val v) { return (arg){.kind = A_VAL, .v = v}; }
static arg F(double f) { return (arg){.kind = A_F32, .f = f}; }
static arg I64(long long i) { return (arg){.kind = A_I64, .i = i}; }
static arg W(dims d) { return (arg){.kind = A_W, .w = d}; }
#define D(...) ((dims){.rank = (int)(sizeof((long long[]){__VA_ARGS__}) / sizeof(long long)), \
                       .d = {__VA_ARGS__}})

/* ---- Relay text ---- */

static void relay_flush(gen *g)
{
    if (g->pending_len)
        fprintf(g->out, "  %%%d = %s;\n", g->pending_num, g->pending);
    g->pending_len = 0;
}

/* Starts a statement: the previous one is now known not to be the last. */
static void relay_stmt(gen *g, val v, const char *fmt, ...)
{
    relay_flush(g);
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if ((size_t)n + 1 > g->pending_cap) {
        g->pending_cap = (size_t)n + 256;
        g->pending = realloc(g->pending, g->pending_cap);
        if (!g->pending)
            die("out of memory");
    }
    vsnprintf(g->pending, (size_t)n + 1, fmt, aq);
    va_end(aq);
    g->pending_len = (size_t)n;
    g->pending_num = g->next_num;
    g->vals[v].relay = g->next_num++;
}

static const char *relay_dims(gen *g, dims d)
{
    char buf[160];
    size_t n = 0;
    n += (size_t)snprintf(buf + n, sizeof buf - n, "(");
    for (int k = 0; k < d.rank; k++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%lld", k ? ", " : "", d.d[k]);
    snprintf(buf + n, sizeof buf - n, d.rank == 1 ? ",)" : ")");
    return arena_printf(&g->ar, "%s", buf);
}

static const char *relay_type(gen *g, dims d, const char *dtype)
{
    return arena_printf(&g->ar, "Tensor[%s, %s]", relay_dims(g, d), dtype);
}

static const char *relay_arg(gen *g, arg a)
{
    switch (a.kind) {
    case A_VAL:
        if (g->vals[a.v].is_input)
            return arena_printf(&g->ar, "%%%s", g->vals[a.v].onnx);
        return arena_printf(&g->ar, "%%%d", g->vals[a.v].relay);
    case A_F32: return arena_printf(&g->ar, "%gf", a.f);
    case A_I64: return arena_printf(&g->ar, "%lldi64", a.i);
    case A_W:
        return arena_printf(&g->ar, "meta[relay.Constant][%d] /* ty=%s */", g->nconst++,
                            relay_type(g, a.w, "float32"));
    }
    return "";
}

static const char *relay_ints(gen *g, int n, const long long *v)
{
    char buf[160];
    size_t k = 0;
    k += (size_t)snprintf(buf + k, sizeof buf - k, "[");
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%lld", i ? ", " : "", v[i]);
    snprintf(buf + k, sizeof buf - k, "]");
    return arena_printf(&g->ar, "%s", buf);
}

/* ---- ONNX primitives: plain C in, names out ---- */

typedef struct {
    const char *name;
    int n;                  /* -1: one int */
    long long i;
    const long long *ints;
} oattr;

#ifdef HAVE_ONNX
static void ptrvec_push(ptrvec *p, void *x)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 256;
        p->v = realloc(p->v, p->cap * sizeof *p->v);
        if (!p->v)
            die("out of memory");
    }
    p->v[p->n++] = x;
}

static char *lowercase(gen *g, const char *s)
{
    char *t = arena_printf(&g->ar, "%s", s);
    for (char *p = t; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    return t;
}

static Onnx__TensorProto *onnx_tensor(gen *g, const char *name, int dtype, dims d)
{
    Onnx__TensorProto *t = arena_alloc(&g->ar, sizeof *t);
    onnx__tensor_proto__init(t);
    t->name = (char *)name;
    t->has_data_type = 1;
    t->data_type = dtype;
    t->n_dims = (size_t)d.rank;
    t->dims = arena_alloc(&g->ar, sizeof(int64_t) * (size_t)(d.rank + 1));
    for (int k = 0; k < d.rank; k++)
        t->dims[k] = d.d[k];
    ptrvec_push(&g->inits, t);
    return t;
}

static Onnx__StringStringEntryProto *onnx_entry(gen *g, const char *key, const char *text)
{
    Onnx__StringStringEntryProto *e = arena_alloc(&g->ar, sizeof *e);
    onnx__string_string_entry_proto__init(e);
    e->key = (char *)key;
    e->value = (char *)text;
    return e;
}

/* A float32 weight, stored externally: only its type is in the model. */
static const char *o_weight(gen *g, dims d)
{
    const char *name = arena_printf(&g->ar, "const_%d", g->nconst++);
    Onnx__TensorProto *t = onnx_tensor(g, name, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, d);
    long long bytes = 4;
    for (int k = 0; k < d.rank; k++)
        bytes *= d.d[k];
    t->has_data_location = 1;
    t->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    t->n_external_data = 3;
    t->external_data = arena_alloc(&g->ar, 3 * sizeof *t->external_data);
    t->external_data[0] = onnx_entry(g, "location", g->weights);
    t->external_data[1] = onnx_entry(g, "offset", arena_printf(&g->ar, "%lld", g->woffset));
    t->external_data[2] = onnx_entry(g, "length", arena_printf(&g->ar, "%lld", bytes));
    g->woffset += bytes;
    return name;
}

/* A small initializer with its data, little-endian raw_data as ONNX says. */
static const char *o_raw(gen *g, const char *prefix, int dtype, dims d, int n, const long long *iv,
                         double f)
{
    const char *name = arena_printf(&g->ar, "%s_%d", prefix, g->counter++);
    Onnx__TensorProto *t = onnx_tensor(g, name, dtype, d);
    size_t esize = dtype == ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT ? 4 : 8;
    uint8_t *p = arena_alloc(&g->ar, esize * (size_t)n + 1);
    for (int k = 0; k < n; k++) {
        uint64_t bits;
        if (esize == 4) {
            float x = (float)f;
            uint32_t b32;
            memcpy(&b32, &x, 4);
            bits = b32;
        } else {
            bits = (uint64_t)iv[k];
        }
        for (size_t b = 0; b < esize; b++)
            p[(size_t)k * esize + b] = (uint8_t)(bits >> (8 * b));
    }
    t->has_raw_data = 1;
    t->raw_data.len = esize * (size_t)n;
    t->raw_data.data = p;
    return name;
}

static const char *o_f32(gen *g, double f)
{
    return o_raw(g, "scalar", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, (dims){0}, 1, NULL, f);
}

static const char *o_i64(gen *g, long long i)
{
    return o_raw(g, "scalar", ONNX__TENSOR_PROTO__DATA_TYPE__INT64, (dims){0}, 1, &i, 0);
}

static const char *o_ints(gen *g, const char *prefix, int n, const long long *v)
{
    return o_raw(g, prefix, ONNX__TENSOR_PROTO__DATA_TYPE__INT64, D(n), n, v, 0);
}

/* One node; its outputs are named after it (relu_12), as the shared models'
 * exporter does, and written into outs. */
static void o_node(gen *g, const char *op, int nin, const char *const *ins, int nout,
                   const char **outs, int nattr, const oattr *attrs)
{
    Onnx__NodeProto *n = arena_alloc(&g->ar, sizeof *n);
    onnx__node_proto__init(n);
    n->op_type = (char *)op;
    n->n_input = (size_t)nin;
    n->input = arena_alloc(&g->ar, sizeof(char *) * (size_t)(nin + 1));
    for (int k = 0; k < nin; k++)
        n->input[k] = (char *)ins[k];
    const char *low = lowercase(g, op);
    n->n_output = (size_t)nout;
    n->output = arena_alloc(&g->ar, sizeof(char *) * (size_t)(nout + 1));
    for (int k = 0; k < nout; k++)
        outs[k] = n->output[k] = arena_printf(&g->ar, "%s_%d", low, g->counter++);
    n->n_attribute = (size_t)nattr;
    n->attribute = arena_alloc(&g->ar, sizeof(void *) * (size_t)(nattr + 1));
    for (int k = 0; k < nattr; k++) {
        Onnx__AttributeProto *a = arena_alloc(&g->ar, sizeof *a);
        onnx__attribute_proto__init(a);
        a->name = (char *)attrs[k].name;
        a->has_type = 1;
        if (attrs[k].n < 0) {
            a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
            a->has_i = 1;
            a->i = attrs[k].i;
        } else {
            a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
            a->n_ints = (size_t)attrs[k].n;
            a->ints = arena_alloc(&g->ar, sizeof(int64_t) * (size_t)(attrs[k].n + 1));
            for (int i = 0; i < attrs[k].n; i++)
                a->ints[i] = attrs[k].ints[i];
        }
        n->attribute[k] = a;
    }
    ptrvec_push(&g->nodes, n);
}

static Onnx__ValueInfoProto *onnx_value_info(gen *g, const char *name, int dtype, dims d)
{
    Onnx__ValueInfoProto *vi = arena_alloc(&g->ar, sizeof *vi);
    onnx__value_info_proto__init(vi);
    vi->name = (char *)name;
    Onnx__TypeProto *tp = arena_alloc(&g->ar, sizeof *tp);
    onnx__type_proto__init(tp);
    Onnx__TypeProto__Tensor *tt = arena_alloc(&g->ar, sizeof *tt);
    onnx__type_proto__tensor__init(tt);
    tt->has_elem_type = 1;
    tt->elem_type = dtype;
    Onnx__TensorShapeProto *sh = arena_alloc(&g->ar, sizeof *sh);
    onnx__tensor_shape_proto__init(sh);
    sh->n_dim = (size_t)d.rank;
    sh->dim = arena_alloc(&g->ar, sizeof(void *) * (size_t)(d.rank + 1));
    for (int k = 0; k < d.rank; k++) {
        Onnx__TensorShapeProto__Dimension *dm = arena_alloc(&g->ar, sizeof *dm);
        onnx__tensor_shape_proto__dimension__init(dm);
        dm->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
        dm->dim_value = d.d[k];
        sh->dim[k] = dm;
    }
    tt->shape = sh;
    tp->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    tp->tensor_type = tt;
    vi->type = tp;
    return vi;
}

static int onnx_dtype(const char *dtype)
{
    return !strcmp(dtype, "int64") ? ONNX__TENSOR_PROTO__DATA_TYPE__INT64
                                   : ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
}

static void onnx_write(gen *g, const char *graph_name, const char *in_name, const char *in_dtype,
                       dims in_dims)
{
    Onnx__GraphProto gp;
    onnx__graph_proto__init(&gp);
    gp.name = (char *)graph_name;
    gp.n_node = g->nodes.n;
    gp.node = (Onnx__NodeProto **)g->nodes.v;
    gp.n_initializer = g->inits.n;
    gp.initializer = (Onnx__TensorProto **)g->inits.v;
    Onnx__ValueInfoProto *in = onnx_value_info(g, in_name, onnx_dtype(in_dtype), in_dims);
    gp.n_input = 1;
    gp.input = &in;
    gp.n_output = g->outputs.n;
    gp.output = (Onnx__ValueInfoProto **)g->outputs.v;
    Onnx__OperatorSetIdProto opset;
    onnx__operator_set_id_proto__init(&opset);
    opset.domain = "";
    opset.has_version = 1;
    opset.version = 13;
    Onnx__OperatorSetIdProto *opsets[] = {&opset};
    Onnx__ModelProto m;
    onnx__model_proto__init(&m);
    m.has_ir_version = 1;
    m.ir_version = 7;
    m.producer_name = "byoc bench/gen_model";
    m.n_opset_import = 1;
    m.opset_import = opsets;
    m.graph = &gp;
    size_t len = onnx__model_proto__get_packed_size(&m);
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf)
        die("out of memory (%zu bytes of ONNX)", len);
    onnx__model_proto__pack(&m, buf);
    if (fwrite(buf, 1, len, g->out) != len)
        die("writing the model: %s", strerror(errno));
    free(buf);
}

static void o_output(gen *g, const char *name, const char *dtype, dims d)
{
    ptrvec_push(&g->outputs, onnx_value_info(g, name, onnx_dtype(dtype), d));
}
#else
/* Without protobuf-c, main refuses -f onnx before any of these is reached. */
static const char *o_unreachable(void)
{
    die("internal error: ONNX is not built in");
    return NULL;
}
static const char *o_weight(gen *g, dims d)
{
    (void)g, (void)d;
    return o_unreachable();
}
static const char *o_f32(gen *g, double f)
{
    (void)g, (void)f;
    return o_unreachable();
}
static const char *o_i64(gen *g, long long i)
{
    (void)g, (void)i;
    return o_unreachable();
}
static const char *o_ints(gen *g, const char *prefix, int n, const long long *v)
{
    (void)g, (void)prefix, (void)n, (void)v;
    return o_unreachable();
}
static void o_node(gen *g, const char *op, int nin, const char *const *ins, int nout,
                   const char **outs, int nattr, const oattr *attrs)
{
    (void)g, (void)op, (void)nin, (void)ins, (void)nout, (void)outs, (void)nattr, (void)attrs;
    o_unreachable();
}
static void o_output(gen *g, const char *name, const char *dtype, dims d)
{
    (void)g, (void)name, (void)dtype, (void)d;
    o_unreachable();
}
#endif

static const char *onnx_arg(gen *g, arg a)
{
    switch (a.kind) {
    case A_VAL: return g->vals[a.v].onnx;
    case A_F32: return o_f32(g, a.f);
    case A_I64: return o_i64(g, a.i);
    case A_W: return o_weight(g, a.w);
    }
    return "";
}

/* ---- the operations the shapes are written in ---- */

static val onnx_op(gen *g, const char *op, int nin, const arg *args, int nattr, const oattr *at)
{
    const char *ins[4];
    for (int k = 0; k < nin; k++)
        ins[k] = onnx_arg(g, args[k]);
    val v = new_value(g);
    o_node(g, op, nin, ins, 1, &g->vals[v].onnx, nattr, at);
    return v;
}

static val input(gen *g, const char *name)
{
    val v = new_value(g);
    g->vals[v].onnx = name;
    g->vals[v].is_input = true;
    return v;
}

/* add, subtract, ...: Relay and ONNX names of the same elementwise op. */
typedef struct {
    const char *relay, *onnx;
} opname;

static const opname ADD = {"add", "Add"}, SUB = {"subtract", "Sub"}, MUL = {"multiply", "Mul"},
                    DIV = {"divide", "Div"}, POW = {"power", "Pow"}, LESS = {"less", "Less"},
                    RELU = {"nn.relu", "Relu"}, TANH = {"tanh", "Tanh"}, SQRT = {"sqrt", "Sqrt"};

static val binary(gen *g, opname op, arg a, arg b)
{
    g->calls++;
    if (g->onnx)
        return onnx_op(g, op.onnx, 2, (arg[]){a, b}, 0, NULL);
    val v = new_value(g);
    const char *x = relay_arg(g, a), *y = relay_arg(g, b);
    relay_stmt(g, v, "%s(%s, %s)", op.relay, x, y);
    return v;
}

static val unary(gen *g, opname op, val a)
{
    g->calls++;
    if (g->onnx)
        return onnx_op(g, op.onnx, 1, (arg[]){V(a)}, 0, NULL);
    val v = new_value(g);
    relay_stmt(g, v, "%s(%s)", op.relay, relay_arg(g, V(a)));
    return v;
}

static val reshape(gen *g, val a, dims shape)
{
    g->calls++;
    if (g->onnx) {
        const char *ins[2] = {g->vals[a].onnx, o_ints(g, "shape", shape.rank, shape.d)};
        val v = new_value(g);
        o_node(g, "Reshape", 2, ins, 1, &g->vals[v].onnx, 0, NULL);
        return v;
    }
    val v = new_value(g);
    relay_stmt(g, v, "reshape(%s, newshape=%s)", relay_arg(g, V(a)),
               relay_ints(g, shape.rank, shape.d));
    return v;
}

static val transpose(gen *g, val a, dims axes)
{
    g->calls++;
    if (g->onnx)
        return onnx_op(g, "Transpose", 1, (arg[]){V(a)}, 1,
                       (oattr[]){{"perm", axes.rank, 0, axes.d}});
    val v = new_value(g);
    relay_stmt(g, v, "transpose(%s, axes=%s)", relay_arg(g, V(a)),
               relay_ints(g, axes.rank, axes.d));
    return v;
}

/* nn.dense(x, W) with W (units, in); ONNX: Gemm with transB. */
static val dense(gen *g, val a, long long units, long long in)
{
    g->calls++;
    if (g->onnx)
        return onnx_op(g, "Gemm", 2, (arg[]){V(a), W(D(units, in))}, 1,
                       (oattr[]){{"transB", -1, 1, NULL}});
    val v = new_value(g);
    const char *x = relay_arg(g, V(a)), *w = relay_arg(g, W(D(units, in)));
    relay_stmt(g, v, "nn.dense(%s, %s, units=%lld)", x, w, units);
    return v;
}

/* nn.batch_matmul(a, b, transpose_b=True); ONNX: MatMul of a and b's
 * transpose, which the reader folds back. */
static val batch_matmul_tb(gen *g, val a, val b)
{
    g->calls++;
    if (g->onnx) {
        long long perm[] = {0, 2, 1};
        val t = onnx_op(g, "Transpose", 1, (arg[]){V(b)}, 1, (oattr[]){{"perm", 3, 0, perm}});
        return onnx_op(g, "MatMul", 2, (arg[]){V(a), V(t)}, 0, NULL);
    }
    val v = new_value(g);
    const char *x = relay_arg(g, V(a)), *y = relay_arg(g, V(b));
    relay_stmt(g, v, "nn.batch_matmul(%s, %s, out_dtype=\"float32\", transpose_b=True)", x, y);
    return v;
}

static val mean_last(gen *g, val a)
{
    g->calls++;
    if (g->onnx) {
        long long axes[] = {-1};
        return onnx_op(g, "ReduceMean", 1, (arg[]){V(a)}, 2,
                       (oattr[]){{"axes", 1, 0, axes}, {"keepdims", -1, 1, NULL}});
    }
    val v = new_value(g);
    relay_stmt(g, v, "mean(%s, axis=[-1], keepdims=True)", relay_arg(g, V(a)));
    return v;
}

static val softmax(gen *g, val a, int axis)
{
    g->calls++;
    if (g->onnx)
        return onnx_op(g, "Softmax", 1, (arg[]){V(a)}, 1, (oattr[]){{"axis", -1, axis, NULL}});
    val v = new_value(g);
    relay_stmt(g, v, "nn.softmax(%s, axis=%d)", relay_arg(g, V(a)), axis);
    return v;
}

/* split into three equal parts along axis: a tuple whose fields are read
 * with field(). */
static val split3(gen *g, val a, long long part, int axis)
{
    g->calls++;
    val v = new_value(g);
    if (g->onnx) {
        long long sizes[] = {part, part, part};
        const char *ins[2] = {g->vals[a].onnx, o_ints(g, "split", 3, sizes)};
        o_node(g, "Split", 2, ins, 3, g->vals[v].field, 1,
               (oattr[]){{"axis", -1, axis, NULL}});
        return v;
    }
    relay_stmt(g, v, "split(%s, indices_or_sections=[%lld, %lld], axis=%d)", relay_arg(g, V(a)),
               part, 2 * part, axis);
    return v;
}

static val field(gen *g, val t, int i)
{
    val v = new_value(g);
    if (g->onnx)
        g->vals[v].onnx = g->vals[t].field[i];
    else
        relay_stmt(g, v, "%%%d.%d", g->vals[t].relay, i);
    return v;
}

static val expand_dims0(gen *g, val a)
{
    g->calls++;
    if (g->onnx) {
        long long axes[] = {0};
        const char *ins[2] = {g->vals[a].onnx, o_ints(g, "axes", 1, axes)};
        val v = new_value(g);
        o_node(g, "Unsqueeze", 2, ins, 1, &g->vals[v].onnx, 0, NULL);
        return v;
    }
    val v = new_value(g);
    relay_stmt(g, v, "expand_dims(%s, axis=0)", relay_arg(g, V(a)));
    return v;
}

static val pair(gen *g, val a, val b)
{
    val v = new_value(g);
    if (g->onnx) {
        g->vals[v].field[0] = g->vals[a].onnx;
        g->vals[v].field[1] = g->vals[b].onnx;
        return v;
    }
    const char *x = relay_arg(g, V(a)), *y = relay_arg(g, V(b));
    relay_stmt(g, v, "(%s, %s)", x, y);
    return v;
}

static val concatenate_pair(gen *g, val t)
{
    g->calls++;
    if (g->onnx) {
        val v = new_value(g);
        o_node(g, "Concat", 2, g->vals[t].field, 1, &g->vals[v].onnx, 1,
               (oattr[]){{"axis", -1, 0, NULL}});
        return v;
    }
    val v = new_value(g);
    relay_stmt(g, v, "concatenate(%s)", relay_arg(g, V(t)));
    return v;
}

static val conv3x3(gen *g, val a, long long ch)
{
    g->calls++;
    if (g->onnx) {
        long long one[] = {1, 1}, k[] = {3, 3}, pads[] = {1, 1, 1, 1};
        return onnx_op(g, "Conv", 2, (arg[]){V(a), W(D(ch, ch, 3, 3))}, 5,
                       (oattr[]){{"dilations", 2, 0, one}, {"group", -1, 1, NULL},
                                 {"kernel_shape", 2, 0, k}, {"pads", 4, 0, pads},
                                 {"strides", 2, 0, one}});
    }
    val v = new_value(g);
    const char *x = relay_arg(g, V(a)), *w = relay_arg(g, W(D(ch, ch, 3, 3)));
    relay_stmt(g, v, "nn.conv2d(%s, %s, padding=[1, 1, 1, 1], channels=%lld, kernel_size=[3, 3])",
               x, w, ch);
    return v;
}

static val take0(gen *g, dims table, val idx)
{
    g->calls++;
    if (g->onnx)
        return onnx_op(g, "Gather", 2, (arg[]){W(table), V(idx)}, 1,
                       (oattr[]){{"axis", -1, 0, NULL}});
    val v = new_value(g);
    const char *t = relay_arg(g, W(table)), *i = relay_arg(g, V(idx));
    relay_stmt(g, v, "take(%s, %s, axis=0)", t, i);
    return v;
}

static val where(gen *g, val c, val a, val b)
{
    g->calls++;
    if (g->onnx)
        return onnx_op(g, "Where", 3, (arg[]){V(c), V(a), V(b)}, 0, NULL);
    val v = new_value(g);
    const char *x = relay_arg(g, V(c)), *y = relay_arg(g, V(a)), *z = relay_arg(g, V(b));
    relay_stmt(g, v, "where(%s, %s, %s)", x, y, z);
    return v;
}

/* ---- the shapes ---- */

/* Each shape declares its input and outputs, then writes its body; the
 * header and footer are the formats' business. */
typedef struct {
    const char *dtype;
    dims d;
} ttype;

static void relay_header(gen *g, const char *in_name, ttype in, int nout, const ttype *outs)
{
    char head[256];
    int len = snprintf(head, sizeof head, "def @main(%%%s: %s) -> ", in_name,
                       relay_type(g, in.d, in.dtype));
    fprintf(g->out, "#[version = \"0.0.5\"]\n%s", head);
    if (nout == 1) {
        fprintf(g->out, "%s {\n", relay_type(g, outs[0].d, outs[0].dtype));
        return;
    }
    /* TVM aligns a tuple's fields under its first one. */
    for (int k = 0; k < nout; k++)
        fprintf(g->out, "%s%*s%s%s", k ? ",\n" : "(", k ? len + 1 : 0, "",
                relay_type(g, outs[k].d, outs[k].dtype), k == nout - 1 ? ") {\n" : "");
}

static void relay_footer(gen *g)
{
    if (g->pending_len)
        fprintf(g->out, "  %s\n", g->pending);
    g->pending_len = 0;
    fprintf(g->out, "}\n");
}

/* Residual blocks: conv, bias, relu, conv, bias, residual add, relu. */
enum { RES_CALLS = 7 };

static void gen_residual(gen *g, int blocks)
{
    const long long C = 64, HW = 56;
    ttype t = {"float32", D(1, C, HW, HW)};
    if (!g->onnx)
        relay_header(g, "data", t, 1, &t);
    val x = input(g, "data");
    for (int b = 0; b < blocks; b++) {
        val c = conv3x3(g, x, C);
        val a = binary(g, ADD, V(c), W(D(C, 1, 1)));
        val r = unary(g, RELU, a);
        c = conv3x3(g, r, C);
        a = binary(g, ADD, V(c), W(D(C, 1, 1)));
        a = binary(g, ADD, V(a), V(x));
        x = unary(g, RELU, a);
    }
    if (g->onnx)
        o_output(g, g->vals[x].onnx, t.dtype, t.d);
}

/* The transformer: gpt2.relay's layers, shapes and op order. */
enum {
    TR_ROWS = 50, TR_SEQ = 32, TR_HIDDEN = 768, TR_HEADS = 12, TR_HEAD = 64, TR_FF = 3072,
    TR_VOCAB = 50257,
    TR_PROLOGUE = 6, TR_LAYER = 67, TR_EPILOGUE = 10, TR_PRESENT = 4
};

static val layernorm(gen *g, val x)
{
    val m = mean_last(g, x);
    val d = binary(g, SUB, V(x), V(m));
    val p = binary(g, POW, V(d), F(2));
    val m2 = mean_last(g, p);
    val e = binary(g, ADD, V(m2), F(1e-05));
    val s = unary(g, SQRT, e);
    val n = binary(g, DIV, V(d), V(s));
    val w = binary(g, MUL, V(n), W(D(TR_HIDDEN)));
    return binary(g, ADD, V(w), W(D(TR_HIDDEN)));
}

/* Dense with bias, from and back to (rows, seq, units). */
static val projection(gen *g, val x, long long in, long long units)
{
    val r = reshape(g, x, D(-1, in));
    val d = dense(g, r, units, in);
    val a = binary(g, ADD, V(d), W(D(units)));
    return reshape(g, a, D(TR_ROWS, TR_SEQ, units));
}

/* One decoder layer; *k and *v get the key (before its transpose) and the
 * value tensors the present of this layer is made of. */
static val decoder_layer(gen *g, val h, val *k_out, val *v_out)
{
    const long long R = TR_ROWS, S = TR_SEQ, NH = TR_HEADS, HD = TR_HEAD;
    val ln = layernorm(g, h);
    val qkv = projection(g, ln, TR_HIDDEN, 3 * TR_HIDDEN);
    val sp = split3(g, qkv, TR_HIDDEN, 2);
    val q = reshape(g, field(g, sp, 0), D(R, S, NH, HD));
    q = transpose(g, q, D(0, 2, 1, 3));
    val k = reshape(g, field(g, sp, 1), D(R, S, NH, HD));
    *k_out = k;
    val kt = transpose(g, k, D(0, 2, 3, 1));
    kt = reshape(g, kt, D(-1, HD, S));
    val qr = reshape(g, q, D(-1, S, HD));
    kt = transpose(g, kt, D(0, 2, 1));
    val sc = batch_matmul_tb(g, qr, kt);
    sc = reshape(g, sc, D(R, NH, S, S));
    sc = binary(g, DIV, V(sc), F(8));
    sc = binary(g, MUL, V(sc), W(D(1, 1, S, S)));
    sc = binary(g, SUB, V(sc), W(D(1, 1, S, S)));
    sc = softmax(g, sc, 3);
    val v = reshape(g, field(g, sp, 2), D(R, S, NH, HD));
    v = transpose(g, v, D(0, 2, 1, 3));
    *v_out = v;
    val vr = reshape(g, v, D(-1, S, HD));
    val pr = reshape(g, sc, D(-1, S, S));
    vr = transpose(g, vr, D(0, 2, 1));
    val att = batch_matmul_tb(g, pr, vr);
    att = reshape(g, att, D(R, NH, S, HD));
    att = transpose(g, att, D(0, 2, 1, 3));
    att = reshape(g, att, D(R, S, TR_HIDDEN));
    att = projection(g, att, TR_HIDDEN, TR_HIDDEN);
    val h2 = binary(g, ADD, V(h), V(att));
    ln = layernorm(g, h2);
    val x = projection(g, ln, TR_HIDDEN, TR_FF);
    /* gelu, tanh form */
    val p = binary(g, POW, V(x), F(3));
    p = binary(g, MUL, V(p), F(0.044715));
    p = binary(g, ADD, V(x), V(p));
    p = binary(g, MUL, V(p), F(0.797885));
    p = unary(g, TANH, p);
    val half = binary(g, MUL, V(x), F(0.5));
    p = binary(g, ADD, V(p), F(1));
    p = binary(g, MUL, V(half), V(p));
    x = projection(g, p, TR_FF, TR_HIDDEN);
    return binary(g, ADD, V(h2), V(x));
}

static void gen_transformer(gen *g, int layers, bool kv)
{
    const long long R = TR_ROWS, S = TR_SEQ;
    ttype in = {"int64", D(1, R, S)};
    int nout = kv ? layers + 1 : 1;
    ttype *outs = arena_alloc(&g->ar, sizeof *outs * (size_t)nout);
    outs[0] = (ttype){"float32", D(1, R, S, TR_HIDDEN)};
    for (int k = 1; k < nout; k++)
        outs[k] = (ttype){"float32", D(2, R, TR_HEADS, S, TR_HEAD)};
    if (!g->onnx)
        relay_header(g, "x", in, nout, outs);
    val x = input(g, "x");
    val ids = reshape(g, x, D(-1, S));
    val neg = binary(g, LESS, V(ids), I64(0));
    val wrapped = binary(g, ADD, V(ids), I64(TR_VOCAB));
    ids = where(g, neg, wrapped, ids);
    val h = take0(g, D(TR_VOCAB, TR_HIDDEN), ids);
    h = binary(g, ADD, V(h), W(D(1, S, TR_HIDDEN)));
    val *ks = arena_alloc(&g->ar, sizeof(val) * (size_t)layers);
    val *vs = arena_alloc(&g->ar, sizeof(val) * (size_t)layers);
    for (int l = 0; l < layers; l++)
        h = decoder_layer(g, h, &ks[l], &vs[l]);
    h = layernorm(g, h);
    if (!kv) {
        h = reshape(g, h, outs[0].d);
        if (g->onnx)
            o_output(g, g->vals[h].onnx, outs[0].dtype, outs[0].d);
        return;
    }
    /* The presents, after the last layer, as gpt2.relay has them. */
    val *pairs = arena_alloc(&g->ar, sizeof(val) * (size_t)layers);
    for (int l = 0; l < layers; l++) {
        val k = expand_dims0(g, transpose(g, ks[l], D(0, 2, 1, 3)));
        pairs[l] = pair(g, k, expand_dims0(g, vs[l]));
    }
    h = reshape(g, h, outs[0].d);
    val *res = arena_alloc(&g->ar, sizeof(val) * (size_t)nout);
    res[0] = h;
    for (int l = 0; l < layers; l++)
        res[l + 1] = concatenate_pair(g, pairs[l]);
    if (g->onnx) {
        for (int k = 0; k < nout; k++)
            o_output(g, g->vals[res[k]].onnx, outs[k].dtype, outs[k].d);
        return;
    }
    /* The result tuple, the body's last expression. */
    size_t cap = (size_t)nout * 12 + 4, n = 0;
    char *s = arena_alloc(&g->ar, cap);
    for (int k = 0; k < nout; k++)
        n += (size_t)snprintf(s + n, cap - n, "%s%%%d", k ? ", " : "(", g->vals[res[k]].relay);
    snprintf(s + n, cap - n, ")");
    relay_stmt(g, new_value(g), "%s", s);
}

static void gen_chain(gen *g, int n, bool add)
{
    ttype t = {"float32", D(1, 64, 56, 56)};
    if (!g->onnx)
        relay_header(g, "x", t, 1, &t);
    val x = input(g, "x");
    for (int k = 0; k < n; k++)
        x = add ? binary(g, ADD, V(x), V(x)) : unary(g, RELU, x);
    if (g->onnx)
        o_output(g, g->vals[x].onnx, t.dtype, t.d);
}

/* ---- the command ---- */

static const char usage_text[] =
    "usage: gen_model SHAPE (--calls N | --layers L) [-f relay|onnx] [-o FILE]\n"
    "                 [--write-weights]\n"
    "\n"
    "Writes a synthetic model of SHAPE, deterministically, for benchmarks.\n"
    "\n"
    "shapes:\n"
    "  residual        residual blocks of 7 calls (conv2d 3x3 pad 1, add bias,\n"
    "                  relu, conv2d, add bias, add residual, relu), float32\n"
    "                  1x64x56x56 NCHW\n"
    "  transformer     GPT-2 decoder layers as in gpt2.relay (input (1, 50, 32)\n"
    "                  int64, hidden 768, 12 heads): 6 calls of embedding,\n"
    "                  67 per layer, 10 of final layernorm and reshape; one output\n"
    "  transformer-kv  the same, and each layer's present (concatenate of the\n"
    "                  expand_dims of key and value, 4 calls more per layer) in\n"
    "                  one output tuple of 1 + L fields; at 12 layers this is\n"
    "                  gpt2.relay's graph\n"
    "  relu-chain      N calls of nn.relu (ONNX Relu) in a chain\n"
    "  add-chain       N calls add(%%i-1, %%i-1) in a chain\n"
    "\n"
    "options:\n"
    "  --calls N        stop at the first whole block or layer reaching N calls\n"
    "                   (for chains: exactly N)\n"
    "  --layers L       exactly L blocks or layers (not for chains)\n"
    "  -f, --format F   relay (default) or onnx%s\n"
    "  -o, --output F   write to F (default: standard output)\n"
    "  --write-weights  ONNX: also write the external weights file the model\n"
    "                   names (F.weights beside F, zeros, sparse where the file\n"
    "                   system allows), for tools that load weights;\n"
    "                   by default it is named and not written, as in the\n"
    "                   shared models\n"
    "  -h, --help       print this and exit\n"
    "\n"
    "The number of calls written is printed on standard error.\n";

static void usage(FILE *f)
{
#ifdef HAVE_ONNX
    fprintf(f, usage_text, "");
#else
    fprintf(f, usage_text, " (onnx: not built in)");
#endif
}

static void bad_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gen_model: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\ntry 'gen_model --help'\n", stderr);
    va_end(ap);
    exit(2);
}

static int count_arg(const char *opt, const char *s)
{
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || errno || *end || end == s || v < 1 || v > MAX_CALLS)
        bad_usage("%s needs a whole number from 1 to %d, not '%s'", opt, MAX_CALLS,
                  s ? s : "(nothing)");
    return (int)v;
}

int main(int argc, char **argv)
{
    const char *shape = NULL, *format = "relay", *output = NULL;
    int calls = 0, layers = 0;
    bool write_weights = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--calls")) {
            calls = count_arg(a, i < argc - 1 ? argv[++i] : NULL);
        } else if (!strcmp(a, "--layers")) {
            layers = count_arg(a, i < argc - 1 ? argv[++i] : NULL);
        } else if (!strcmp(a, "-f") || !strcmp(a, "--format")) {
            if (i == argc - 1)
                bad_usage("%s needs relay or onnx", a);
            format = argv[++i];
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (i == argc - 1)
                bad_usage("%s needs a file name", a);
            output = argv[++i];
        } else if (!strcmp(a, "--write-weights")) {
            write_weights = true;
        } else if (a[0] == '-' && a[1]) {
            bad_usage("unknown option '%s'", a);
        } else if (shape) {
            bad_usage("one shape only ('%s' and '%s')", shape, a);
        } else {
            shape = a;
        }
    }
    if (!shape)
        bad_usage("no shape given");
    enum { RESIDUAL, TRANSFORMER, TRANSFORMER_KV, RELU_CHAIN, ADD_CHAIN, NSHAPES } kind;
    static const char *const shapes[NSHAPES] = {"residual", "transformer", "transformer-kv",
                                                "relu-chain", "add-chain"};
    for (kind = 0; kind < NSHAPES && strcmp(shape, shapes[kind]); kind++)
        ;
    if (kind == NSHAPES)
        bad_usage("unknown shape '%s' (residual, transformer, transformer-kv, relu-chain, "
                  "add-chain)", shape);
    if (!calls == !layers)
        bad_usage("give one of --calls and --layers");
    bool chain = kind == RELU_CHAIN || kind == ADD_CHAIN;
    if (chain && layers)
        bad_usage("%s takes --calls, not --layers", shape);
    bool onnx = !strcmp(format, "onnx");
    if (!onnx && strcmp(format, "relay"))
        bad_usage("unknown format '%s' (relay or onnx)", format);
#ifndef HAVE_ONNX
    if (onnx)
        die("this build has no ONNX support (configured without it); use -f relay");
#endif
    if (write_weights && !(onnx && output))
        bad_usage("--write-weights needs -f onnx and -o FILE");

    /* Blocks or layers: the first whole one reaching calls. */
    int units = layers;
    if (!units) {
        long per = kind == RESIDUAL ? RES_CALLS
                   : kind == TRANSFORMER ? TR_LAYER
                   : kind == TRANSFORMER_KV ? TR_LAYER + TR_PRESENT : 1;
        long fixed = kind == TRANSFORMER || kind == TRANSFORMER_KV ? TR_PROLOGUE + TR_EPILOGUE : 0;
        units = calls <= fixed ? 1 : (int)((calls - fixed + per - 1) / per);
        if (units < 1)
            units = 1;
    }

    gen g = {.onnx = onnx};
    g.out = output ? fopen(output, "wb") : stdout;
    if (!g.out)
        die("cannot write %s: %s", output, strerror(errno));
    if (onnx) {
        /* The weights file, named relative to the model, as ONNX wants. */
        const char *base = output ? strrchr(output, '/') : NULL;
        base = base ? base + 1 : output ? output : "gen_model.onnx";
        g.weights = arena_printf(&g.ar, "%s.weights", base);
    }
    switch (kind) {
    case RESIDUAL: gen_residual(&g, units); break;
    case TRANSFORMER: gen_transformer(&g, units, false); break;
    case TRANSFORMER_KV: gen_transformer(&g, units, true); break;
    case RELU_CHAIN: gen_chain(&g, units, false); break;
    case ADD_CHAIN: gen_chain(&g, units, true); break;
    case NSHAPES: break;
    }
#ifdef HAVE_ONNX
    if (onnx)
        onnx_write(&g, arena_printf(&g.ar, "gen_model_%s", shape), kind == RESIDUAL ? "data" : "x",
                   kind == TRANSFORMER || kind == TRANSFORMER_KV ? "int64" : "float32",
                   kind == TRANSFORMER || kind == TRANSFORMER_KV ? D(1, TR_ROWS, TR_SEQ)
                                                                  : D(1, 64, 56, 56));
#endif
    if (!onnx)
        relay_footer(&g);
    if (fflush(g.out) || ferror(g.out) || (output && fclose(g.out)))
        die("writing %s: %s", output ? output : "standard output", strerror(errno));
    if (write_weights) {
        const char *path = arena_printf(&g.ar, "%s.weights", output);
        FILE *w = fopen(path, "wb");
        if (!w || ftruncate(fileno(w), (off_t)g.woffset) || fclose(w))
            die("cannot write %s: %s", path, strerror(errno));
    }
    if (chain)
        fprintf(stderr, "gen_model: %s, %d calls\n", shape, g.calls);
    else
        fprintf(stderr, "gen_model: %s, %d %s%s, %d calls\n", shape, units,
                kind == RESIDUAL ? "block" : "layer", units == 1 ? "" : "s", g.calls);
    free(g.vals);
    free(g.pending);
    free(g.nodes.v);
    free(g.inits.v);
    free(g.outputs.v);
    arena_free(&g.ar);
    return 0;
}
