/* Values and types: the dtype table, comparison, conformance, printing and
 * deep copies.
 *
 * The one idea: a byoc_value is printed exactly the way a .byoc file
 * writes it, so that a value read from a spec, a default shown by a dump
 * and an option set on a command line all look alike - and a printed float
 * always reads back as a float with the same bits. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/value.h>

#include "values.h"

/* ---- dtypes ------------------------------------------------------------ */

static const struct dtype_info {
    const char *name;
    int bits;
    char cls;
} dtypes[] = {
#define BYOC_DTYPE(id, name, bits, cls) {name, bits, cls},
#include <byoc/dtypes.def>
#undef BYOC_DTYPE
};

static bool dtype_valid(byoc_dtype dt)
{
    return (int)dt >= 0 && (int)dt < (int)BYOC_DT_COUNT_;
}

const char *byoc_dtype_name(byoc_dtype dt)
{
    return dtype_valid(dt) ? dtypes[dt].name : "";
}

int byoc_dtype_bits(byoc_dtype dt)
{
    return dtype_valid(dt) ? dtypes[dt].bits : 0;
}

char byoc_dtype_class(byoc_dtype dt)
{
    return dtype_valid(dt) ? dtypes[dt].cls : 'v';
}

int byoc_dtype_lookup(const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < (int)BYOC_DT_COUNT_; i++)
        if (strcmp(dtypes[i].name, name) == 0)
            return i;
    return -1;
}

/* ---- equality ---------------------------------------------------------- */

/* An int equals a float only when the float is exactly that integer; going
 * through double would call 2^53 + 1 equal to 2^53. */
static bool int_equals_float(int64_t i, double f)
{
    if (!(f >= -9223372036854775808.0 && f < 9223372036854775808.0) || f != floor(f))
        return false;
    return (int64_t)f == i;
}

bool byoc_value_equal(const byoc_value *a, const byoc_value *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind == BYOC_V_INT && b->kind == BYOC_V_FLOAT)
        return int_equals_float(a->u.i, b->u.f);
    if (a->kind == BYOC_V_FLOAT && b->kind == BYOC_V_INT)
        return int_equals_float(b->u.i, a->u.f);
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case BYOC_V_NONE: return true;
    case BYOC_V_BOOL: return a->u.b == b->u.b;
    case BYOC_V_INT: return a->u.i == b->u.i;
    case BYOC_V_FLOAT: return a->u.f == b->u.f;
    case BYOC_V_STRING:
        return strcmp(a->u.s ? a->u.s : "", b->u.s ? b->u.s : "") == 0;
    case BYOC_V_DTYPE: return a->u.dt == b->u.dt;
    case BYOC_V_VERSION: return a->u.ver == b->u.ver;
    case BYOC_V_LIST:
        if (a->u.list.n != b->u.list.n)
            return false;
        for (size_t i = 0; i < a->u.list.n; i++)
            if (!byoc_value_equal(&a->u.list.items[i], &b->u.list.items[i]))
                return false;
        return true;
    }
    return false;
}

/* ---- conformance ------------------------------------------------------- */

/* lenient: also take the conversions bx_value_coerce makes. */
static bool conforms_as(const byoc_value *v, int base, int depth, bool lenient)
{
    if (depth > 0) {
        if (v->kind != BYOC_V_LIST)
            return false;
        for (size_t i = 0; i < v->u.list.n; i++)
            if (!conforms_as(&v->u.list.items[i], base, depth - 1, lenient))
                return false;
        return true;
    }
    if (v->kind == BYOC_V_LIST || v->kind == BYOC_V_NONE)
        return false;
    if ((int)v->kind == base)
        return true;
    if (base == BYOC_V_FLOAT && v->kind == BYOC_V_INT)
        return true;
    return lenient && base == BYOC_V_DTYPE && v->kind == BYOC_V_STRING
           && byoc_dtype_lookup(v->u.s) >= 0;
}

static bool conforms(const byoc_value *v, const byoc_type_desc *t, bool lenient)
{
    if (!v || !t)
        return false;
    if (v->kind == BYOC_V_NONE)
        return t->optional;
    return conforms_as(v, t->base, t->depth, lenient)
           || (t->has_alt && conforms_as(v, t->alt_base, t->alt_depth, lenient));
}

bool byoc_value_conforms(const byoc_value *v, const byoc_type_desc *t)
{
    return conforms(v, t, false);
}

bool bx_value_accepts(const byoc_value *v, const byoc_type_desc *t)
{
    return conforms(v, t, true);
}

static void coerce_as(byoc_value *v, int base, int depth)
{
    if (depth > 0) {
        /* The caller owns this copy, items included. */
        byoc_value *items = (byoc_value *)v->u.list.items;
        for (size_t i = 0; i < v->u.list.n; i++)
            coerce_as(&items[i], base, depth - 1);
        return;
    }
    if (base == BYOC_V_FLOAT && v->kind == BYOC_V_INT) {
        double f = (double)v->u.i;
        v->kind = BYOC_V_FLOAT;
        v->u.f = f;
    } else if (base == BYOC_V_DTYPE && v->kind == BYOC_V_STRING) {
        int dt = byoc_dtype_lookup(v->u.s);
        if (dt >= 0) {
            v->kind = BYOC_V_DTYPE;
            v->u.dt = (byoc_dtype)dt;
        }
    }
}

void bx_value_coerce(byoc_value *v, const byoc_type_desc *t)
{
    if (v->kind == BYOC_V_NONE)
        return;
    /* The first alternative the value fits decides: for `float | int[]`
     * a bare 3 is the float 3.0. */
    if (conforms_as(v, t->base, t->depth, true))
        coerce_as(v, t->base, t->depth);
    else if (t->has_alt && conforms_as(v, t->alt_base, t->alt_depth, true))
        coerce_as(v, t->alt_base, t->alt_depth);
}

/* ---- deep copies ------------------------------------------------------- */

static void copy_needs(const byoc_value *v, size_t *nitems, size_t *nchars)
{
    if (v->kind == BYOC_V_STRING) {
        *nchars += strlen(v->u.s ? v->u.s : "") + 1;
    } else if (v->kind == BYOC_V_LIST) {
        *nitems += v->u.list.n;
        for (size_t i = 0; i < v->u.list.n; i++)
            copy_needs(&v->u.list.items[i], nitems, nchars);
    }
}

size_t bx_value_copy_size(const byoc_value *v)
{
    size_t nitems = 0, nchars = 0;
    copy_needs(v, &nitems, &nchars);
    return nitems * sizeof(byoc_value) + nchars;
}

typedef struct copy_cursor {
    byoc_value *items;
    char *chars;
} copy_cursor;

static void copy_value(byoc_value *dst, const byoc_value *src, copy_cursor *c)
{
    *dst = *src;
    if (src->kind == BYOC_V_STRING) {
        const char *s = src->u.s ? src->u.s : "";
        size_t n = strlen(s) + 1;
        memcpy(c->chars, s, n);
        dst->u.s = c->chars;
        c->chars += n;
    } else if (src->kind == BYOC_V_LIST) {
        /* Claim this level's items before the nested levels claim theirs. */
        if (src->u.list.n == 0) {
            dst->u.list.items = NULL;
            return;
        }
        byoc_value *items = c->items;
        c->items += src->u.list.n;
        for (size_t i = 0; i < src->u.list.n; i++)
            copy_value(&items[i], &src->u.list.items[i], c);
        dst->u.list.items = items;
    }
}

void bx_value_copy_into(byoc_value *dst, const byoc_value *src, void *mem)
{
    size_t nitems = 0, nchars = 0;
    copy_needs(src, &nitems, &nchars);
    /* A scalar, or an empty list, needs no block: mem may be NULL. */
    copy_cursor c = {mem, mem ? (char *)mem + nitems * sizeof(byoc_value) : NULL};
    copy_value(dst, src, &c);
}

/* ---- printing ---------------------------------------------------------- */

/* snprintf semantics over several writes: len counts what was needed, the
 * buffer holds what fits and stays terminated. */
typedef struct outbuf {
    char *buf;
    size_t size, len;
} outbuf;

static void out_init(outbuf *o, char *buf, size_t size)
{
    o->buf = buf;
    o->size = size;
    o->len = 0;
    if (size)
        buf[0] = 0;
}

static void out_printf(outbuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_printf(outbuf *o, const char *fmt, ...)
{
    size_t room = o->len < o->size ? o->size - o->len : 0;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len += (size_t)n;
}

static void out_char(outbuf *o, char ch)
{
    if (o->len + 1 < o->size) {
        o->buf[o->len] = ch;
        o->buf[o->len + 1] = 0;
    }
    o->len++;
}

/* The shortest %g that reads back to the same double, with ".0" added
 * when it would otherwise read back as an int. */
static void out_double(outbuf *o, double f)
{
    if (isnan(f)) {
        out_printf(o, "nan");
        return;
    }
    if (isinf(f)) {
        out_printf(o, f < 0 ? "-inf" : "inf");
        return;
    }
    char tmp[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, f);
        if (strtod(tmp, NULL) == f)
            break;
    }
    out_printf(o, "%s%s", tmp, strpbrk(tmp, ".e") ? "" : ".0");
}

static void out_string(outbuf *o, const char *s)
{
    out_char(o, '"');
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': out_printf(o, "\\\""); break;
        case '\\': out_printf(o, "\\\\"); break;
        case '\n': out_printf(o, "\\n"); break;
        case '\t': out_printf(o, "\\t"); break;
        case '\r': out_printf(o, "\\r"); break;
        default:
            /* Octal, not \x: a hex escape would swallow following digits. */
            if (*p < 0x20 || *p == 0x7f)
                out_printf(o, "\\%03o", *p);
            else
                out_char(o, (char)*p);
        }
    }
    out_char(o, '"');
}

static void out_value(outbuf *o, const byoc_value *v)
{
    switch (v->kind) {
    case BYOC_V_NONE: out_printf(o, "None"); break;
    case BYOC_V_BOOL: out_printf(o, v->u.b ? "true" : "false"); break;
    case BYOC_V_INT: out_printf(o, "%lld", (long long)v->u.i); break;
    case BYOC_V_FLOAT: out_double(o, v->u.f); break;
    case BYOC_V_STRING: out_string(o, v->u.s); break;
    case BYOC_V_DTYPE:
        /* VOID has no name; the language writes it as "". */
        if (v->u.dt == BYOC_DT_VOID || !dtype_valid(v->u.dt))
            out_printf(o, "\"\"");
        else
            out_printf(o, "%s", byoc_dtype_name(v->u.dt));
        break;
    case BYOC_V_VERSION:
        out_printf(o, "%llu.%llu.%llu", (unsigned long long)(v->u.ver >> 32),
                   (unsigned long long)((v->u.ver >> 16) & 0xffff),
                   (unsigned long long)(v->u.ver & 0xffff));
        break;
    case BYOC_V_LIST:
        out_char(o, '[');
        for (size_t i = 0; i < v->u.list.n; i++) {
            if (i)
                out_printf(o, ", ");
            out_value(o, &v->u.list.items[i]);
        }
        out_char(o, ']');
        break;
    default: out_printf(o, "?"); break;
    }
}

size_t byoc_value_format(const byoc_value *v, char *buf, size_t size)
{
    outbuf o;
    out_init(&o, buf, size);
    if (v)
        out_value(&o, v);
    else
        out_printf(&o, "None");
    return o.len;
}

static const char *vkind_word(int k)
{
    switch (k) {
    case BYOC_V_NONE: return "None";
    case BYOC_V_BOOL: return "bool";
    case BYOC_V_INT: return "int";
    case BYOC_V_FLOAT: return "float";
    case BYOC_V_STRING: return "string";
    case BYOC_V_DTYPE: return "dtype";
    case BYOC_V_VERSION: return "version";
    default: return "?";
    }
}

static void out_type(outbuf *o, int base, int depth)
{
    out_printf(o, "%s", vkind_word(base));
    for (int i = 0; i < depth; i++)
        out_printf(o, "[]");
}

size_t byoc_type_format(const byoc_type_desc *t, char *buf, size_t size)
{
    outbuf o;
    out_init(&o, buf, size);
    if (!t)
        return 0;
    out_type(&o, t->base, t->depth);
    if (t->has_alt) {
        out_printf(&o, " | ");
        out_type(&o, t->alt_base, t->alt_depth);
    }
    if (t->optional)
        out_char(&o, '?');
    return o.len;
}

static void out_value_type(outbuf *o, const byoc_value *v)
{
    if (v->kind != BYOC_V_LIST) {
        out_printf(o, "%s", vkind_word(v->kind));
    } else if (v->u.list.n == 0) {
        out_printf(o, "[]");
    } else {
        /* The widest item type: [1, 2.5] is a float[], [1, "a"] a string[]. */
        const byoc_value *w = &v->u.list.items[0];
        for (size_t i = 1; i < v->u.list.n; i++) {
            const byoc_value *x = &v->u.list.items[i];
            if (x->kind != w->kind && !(w->kind == BYOC_V_FLOAT && x->kind == BYOC_V_INT))
                w = x;
        }
        out_value_type(o, w);
        out_printf(o, "[]");
    }
}

const char *bx_value_type_name(const byoc_value *v, char *buf, size_t size)
{
    outbuf o;
    out_init(&o, buf, size);
    if (v)
        out_value_type(&o, v);
    else
        out_printf(&o, "None");
    return buf;
}
