/* Building ONNX graphs as protobuf-c messages (onnx_build.h).
 *
 * Everything is allocated in the caller's arena, so a half-built graph
 * needs no cleanup when a writer gives up, and protobuf-c only packs what
 * it is handed: nothing here is ever passed to its free functions. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "die.h"
#include "writers/onnx_build.h"

void bx_ob_init(bx_ob *b, bx_arena *a, int opset, const char *temp_prefix)
{
    memset(b, 0, sizeof *b);
    b->arena = a;
    b->opset = opset;
    b->temp_prefix = temp_prefix ? temp_prefix : "byoc.";
}

static void *grow(bx_ob *b, void *old, size_t n, size_t *cap, size_t elem)
{
    if (n < *cap)
        return old;
    size_t c = *cap ? *cap * 2 : 16;
    void *p = bx_arena_alloc(b->arena, c * elem);
    if (old)
        memcpy(p, old, n * elem);
    *cap = c;
    return p;
}

static char *dup(bx_ob *b, const char *s) { return bx_arena_strdup(b->arena, s ? s : ""); }

void bx_ob_add_node(bx_ob *b, Onnx__NodeProto *n)
{
    b->nodes = grow(b, b->nodes, b->nnodes, &b->capnodes, sizeof *b->nodes);
    b->nodes[b->nnodes++] = n;
}

Onnx__NodeProto *bx_ob_node(bx_ob *b, const char *op_type, const char *domain,
                            const char *const *in, int nin, const char *const *out, int nout)
{
    Onnx__NodeProto *n = BX_NEW(b->arena, Onnx__NodeProto);
    onnx__node_proto__init(n);
    n->op_type = dup(b, op_type);
    if (domain && domain[0]) {
        n->domain = dup(b, domain);
        bool seen = false;
        for (int i = 0; i < b->ndomains; i++)
            seen |= strcmp(b->domains[i], domain) == 0;
        if (!seen && b->ndomains < (int)(sizeof b->domains / sizeof b->domains[0]))
            b->domains[b->ndomains++] = n->domain;
    }
    n->n_input = (size_t)nin;
    n->input = BX_NEWN(b->arena, char *, nin + 1);
    for (int i = 0; i < nin; i++)
        n->input[i] = dup(b, in[i]);
    n->n_output = (size_t)nout;
    n->output = BX_NEWN(b->arena, char *, nout + 1);
    for (int i = 0; i < nout; i++)
        n->output[i] = dup(b, out[i]);
    bx_ob_add_node(b, n);
    return n;
}

Onnx__NodeProto *bx_ob_node1(bx_ob *b, const char *op_type, const char *in1, const char *in2,
                             const char *in3, const char *out)
{
    const char *in[3] = {in1, in2, in3};
    int nin = in3 ? 3 : in2 ? 2 : in1 ? 1 : 0;
    return bx_ob_node(b, op_type, "", in, nin, &out, 1);
}

static Onnx__AttributeProto *attr(bx_ob *b, Onnx__NodeProto *n, const char *name,
                                  Onnx__AttributeProto__AttributeType type)
{
    Onnx__AttributeProto *a = BX_NEW(b->arena, Onnx__AttributeProto);
    onnx__attribute_proto__init(a);
    a->name = dup(b, name);
    a->has_type = 1;
    a->type = type;
    Onnx__AttributeProto **as = BX_NEWN(b->arena, Onnx__AttributeProto *, n->n_attribute + 1);
    if (n->n_attribute)
        memcpy(as, n->attribute, n->n_attribute * sizeof *as);
    as[n->n_attribute++] = a;
    n->attribute = as;
    return a;
}

void bx_ob_attr_int(bx_ob *b, Onnx__NodeProto *n, const char *name, int64_t v)
{
    Onnx__AttributeProto *a = attr(b, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
    a->has_i = 1;
    a->i = v;
}

void bx_ob_attr_ints(bx_ob *b, Onnx__NodeProto *n, const char *name, const int64_t *v, size_t k)
{
    Onnx__AttributeProto *a = attr(b, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
    a->n_ints = k;
    a->ints = BX_NEWN(b->arena, int64_t, k + 1);
    if (k)
        memcpy(a->ints, v, k * sizeof *v);
}

void bx_ob_attr_float(bx_ob *b, Onnx__NodeProto *n, const char *name, double v)
{
    Onnx__AttributeProto *a = attr(b, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    a->has_f = 1;
    a->f = (float)v;
}

void bx_ob_attr_floats(bx_ob *b, Onnx__NodeProto *n, const char *name, const double *v, size_t k)
{
    Onnx__AttributeProto *a = attr(b, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS);
    a->n_floats = k;
    a->floats = BX_NEWN(b->arena, float, k + 1);
    for (size_t i = 0; i < k; i++)
        a->floats[i] = (float)v[i];
}

void bx_ob_attr_string(bx_ob *b, Onnx__NodeProto *n, const char *name, const char *s)
{
    Onnx__AttributeProto *a = attr(b, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
    a->has_s = 1;
    a->s.data = (uint8_t *)dup(b, s);
    a->s.len = strlen(s);
}

void bx_ob_attr_tensor(bx_ob *b, Onnx__NodeProto *n, const char *name, Onnx__TensorProto *t)
{
    Onnx__AttributeProto *a = attr(b, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
    a->t = t;
}

const char *bx_ob_temp(bx_ob *b)
{
    return bx_arena_printf(b->arena, "%s%d", b->temp_prefix, b->ntemps++);
}

int bx_onnx_elem_type(byoc_dtype dt)
{
    switch (dt) {
    case BYOC_DT_FLOAT32: return 1;
    case BYOC_DT_UINT8: return 2;
    case BYOC_DT_INT8: return 3;
    case BYOC_DT_UINT16: return 4;
    case BYOC_DT_INT16: return 5;
    case BYOC_DT_INT32: return 6;
    case BYOC_DT_INT64: return 7;
    case BYOC_DT_BOOL: return 9;
    case BYOC_DT_FLOAT16: return 10;
    case BYOC_DT_FLOAT64: return 11;
    case BYOC_DT_UINT32: return 12;
    case BYOC_DT_UINT64: return 13;
    case BYOC_DT_BFLOAT16: return 16;
    default: return 0;
    }
}

/* IEEE half and bfloat16 from a double, rounding to nearest even. */
static uint16_t to_half(double d)
{
    float f = (float)d;
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t e = (int32_t)((x >> 23) & 0xff) - 127 + 15;
    uint32_t m = x & 0x7fffffu;
    if (((x >> 23) & 0xff) == 0xff)
        return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0));
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        m |= 0x800000u;
        int shift = 14 - e;
        uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (m >> 13), rem = m & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++;
    return (uint16_t)(sign | h);
}

static uint16_t to_bf16(double d)
{
    float f = (float)d;
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

int64_t bx_ob_to_int(double d)
{
    if (d != d)
        return 0;
    if (d >= 9223372036854775807.0)
        return INT64_MAX;
    if (d <= -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)d;
}

Onnx__TensorProto *bx_ob_tensor(bx_ob *b, const char *name, byoc_dtype dt, const int64_t *dims,
                                int rank, const int64_t *iv, const double *fv, size_t n)
{
    Onnx__TensorProto *t = BX_NEW(b->arena, Onnx__TensorProto);
    onnx__tensor_proto__init(t);
    t->name = name ? dup(b, name) : (char *)bx_ob_temp(b);
    t->has_data_type = 1;
    t->data_type = bx_onnx_elem_type(dt);
    t->n_dims = (size_t)(rank > 0 ? rank : 0);
    t->dims = BX_NEWN(b->arena, int64_t, rank + 1);
    for (int k = 0; k < rank; k++)
        t->dims[k] = dims[k];
    int bytes = (int)((byoc_dtype_bits(dt) + 7) / 8);
    if (bytes <= 0)
        bytes = 1;
    uint8_t *raw = BX_NEWN(b->arena, uint8_t, n * (size_t)bytes + 1);
    for (size_t i = 0; i < n; i++) {
        uint8_t *p = raw + i * (size_t)bytes;
        int64_t iv_i = iv ? iv[i] : fv ? bx_ob_to_int(fv[i]) : 0;
        double fv_i = fv ? fv[i] : iv ? (double)iv[i] : 0.0;
        uint64_t u = (uint64_t)iv_i;
        switch (dt) {
        case BYOC_DT_FLOAT32: {
            float f = (float)fv_i;
            memcpy(&u, &f, 4);
            u &= 0xffffffffu;
            break;
        }
        case BYOC_DT_FLOAT64: memcpy(&u, &fv_i, 8); break;
        case BYOC_DT_FLOAT16: u = to_half(fv_i); break;
        case BYOC_DT_BFLOAT16: u = to_bf16(fv_i); break;
        case BYOC_DT_BOOL: u = iv_i != 0; break;
        default: break;
        }
        for (int k = 0; k < bytes; k++)
            p[k] = (uint8_t)(u >> (8 * k));    /* ONNX raw data is little-endian */
    }
    t->has_raw_data = 1;
    t->raw_data.data = raw;
    t->raw_data.len = n * (size_t)bytes;
    return t;
}

const char *bx_ob_add_init(bx_ob *b, Onnx__TensorProto *t)
{
    b->inits = grow(b, b->inits, b->ninits, &b->capinits, sizeof *b->inits);
    b->inits[b->ninits++] = t;
    return t->name;
}

const char *bx_ob_const_i64s(bx_ob *b, const int64_t *v, size_t n)
{
    int64_t dim = (int64_t)n;
    return bx_ob_add_init(b, bx_ob_tensor(b, NULL, BYOC_DT_INT64, &dim, 1, v, NULL, n));
}

const char *bx_ob_const_scalar(bx_ob *b, byoc_dtype dt, double v)
{
    return bx_ob_add_init(b, bx_ob_tensor(b, NULL, dt, NULL, 0, NULL, &v, 1));
}
