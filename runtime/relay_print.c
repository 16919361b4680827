/* Printing pieces of Relay text, shared by the plain writer (relay_write.c)
 * and the partitioned one (writers/relay_module.c).
 *
 * Everything here prints a node or a value in the form TVM's printer uses
 * and relay_read.c reads; nothing here knows which function the text goes
 * into, so references to other nodes go through the caller's callback. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/relay.h>

#include "die.h"
#include "errfmt.h"
#include "relay_print.h"

static void put_dim(const byoc_graph *g, int64_t d, char *buf, size_t size, size_t *len)
{
    if (d >= 0)
        *len += (size_t)snprintf(buf + *len, *len < size ? size - *len : 0, "%" PRId64, d);
    else if (d == BYOC_DIM_UNKNOWN)
        *len += (size_t)snprintf(buf + *len, *len < size ? size - *len : 0, "?");
    else
        *len += (size_t)snprintf(buf + *len, *len < size ? size - *len : 0, "%s",
                                 byoc_graph_symbol_name(g, (int)(-2 - d)));
}

size_t byoc_relay_format_type(const byoc_graph *g, const byoc_tensor_type *t, char *buf,
                              size_t size)
{
    size_t len = 0;
    char spare[1];
    if (!buf || !size) { /* measuring only */
        buf = spare;
        size = sizeof spare;
    }
    if (!t || t->rank < 0) {
        len = (size_t)snprintf(buf, size, "?");
        return len;
    }
    len += (size_t)snprintf(buf, size, "Tensor[(");
    for (int i = 0; i < t->rank; i++) {
        if (i)
            len += (size_t)snprintf(buf + len, len < size ? size - len : 0, ", ");
        put_dim(g, t->dims[i], buf, size, &len);
    }
    len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s), %s]",
                            t->rank == 1 ? "," : "",
                            t->dtype == BYOC_DT_VOID ? "?" : byoc_dtype_name(t->dtype));
    return len;
}

/* Recursion as deep as the tuple nests, which the graph bounds
 * (BYOC_MAX_TUPLE_DEPTH). */
size_t byoc_relay_format_tuple_type(const byoc_graph *g, const byoc_tuple_type *t, char *buf,
                                    size_t size)
{
    char spare[1];
    size_t len = 0;
#define AT (len < size ? buf + len : spare), (len < size ? size - len : sizeof spare)
    len += (size_t)snprintf(AT, "(");
    for (int i = 0; t && i < t->n; i++) {
        if (i)
            len += (size_t)snprintf(AT, ", ");
        if (t->sub && t->sub[i])
            len += byoc_relay_format_tuple_type(g, t->sub[i], AT);
        else
            len += byoc_relay_format_type(g, &t->fields[i], AT);
    }
    len += (size_t)snprintf(AT, t && t->n == 1 ? ",)" : ")");
#undef AT
    return len;
}

size_t byoc_relay_format_node_type(const byoc_graph *g, int node, char *buf, size_t size)
{
    const byoc_tuple_type *t = byoc_node_tuple_type(g, node);
    if (t)
        return byoc_relay_format_tuple_type(g, t, buf, size);
    return byoc_relay_format_type(g, byoc_node_type(g, node, -1), buf, size);
}

static bool known(const byoc_tensor_type *t)
{
    return t && t->rank >= 0 && t->dtype != BYOC_DT_VOID;
}

static bool tuple_known(const byoc_tuple_type *t)
{
    for (int i = 0; i < t->n; i++)
        if (t->sub && t->sub[i] ? !tuple_known(t->sub[i]) : !known(&t->fields[i]))
            return false;
    return true;
}

bool bx_relay_type_known(const byoc_graph *g, int node)
{
    const byoc_tuple_type *t = byoc_node_tuple_type(g, node);
    return t ? tuple_known(t) : known(byoc_node_type(g, node, -1));
}

char *bx_relay_node_type_str(const byoc_graph *g, int node)
{
    size_t n = byoc_relay_format_node_type(g, node, NULL, 0);
    char *s = malloc(n + 1);
    if (!s)
        bx_oom();
    byoc_relay_format_node_type(g, node, s, n + 1);
    return s;
}

void bx_relay_put_type(FILE *f, const byoc_graph *g, int node)
{
    char *s = bx_relay_node_type_str(g, node);
    fputs(s, f);
    free(s);
}

void bx_relay_put_float(FILE *f, double d)
{
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    fputs(buf, f);
}

void bx_relay_put_value(FILE *f, const byoc_value *v)
{
    switch (v->kind) {
    case BYOC_V_NONE: fputs("None", f); break;
    case BYOC_V_BOOL: fputs(v->u.b ? "True" : "False", f); break;
    case BYOC_V_INT: fprintf(f, "%" PRId64, v->u.i); break;
    case BYOC_V_FLOAT: bx_relay_put_float(f, v->u.f); fputc('f', f); break;
    case BYOC_V_DTYPE: fprintf(f, "\"%s\"", byoc_dtype_name(v->u.dt)); break;
    case BYOC_V_VERSION:
        fprintf(f, "\"%u.%u.%u\"", (unsigned)(v->u.ver >> 32),
                (unsigned)((v->u.ver >> 16) & 0xffff), (unsigned)(v->u.ver & 0xffff));
        break;
    case BYOC_V_STRING:
        fputc('"', f);
        for (const char *s = v->u.s; *s; s++) {
            if (*s == '"' || *s == '\\')
                fputc('\\', f);
            if (*s == '\n')
                fputs("\\n", f);
            else
                fputc(*s, f);
        }
        fputc('"', f);
        break;
    case BYOC_V_LIST:
        fputc('[', f);
        for (size_t i = 0; i < v->u.list.n; i++) {
            if (i)
                fputs(", ", f);
            bx_relay_put_value(f, &v->u.list.items[i]);
        }
        fputc(']', f);
        break;
    }
}

bool bx_relay_is_literal(const byoc_graph *g, int node)
{
    if (byoc_node_kind_of(g, node) != BYOC_N_CONST)
        return false;
    const byoc_tensor_type *t = byoc_node_type(g, node, -1);
    const byoc_value *v = byoc_node_const_value(g, node);
    return t && t->rank == 0 && v
           && (v->kind == BYOC_V_INT || v->kind == BYOC_V_FLOAT || v->kind == BYOC_V_BOOL);
}

void bx_relay_put_literal(FILE *f, const byoc_graph *g, int node)
{
    const byoc_tensor_type *t = byoc_node_type(g, node, -1);
    const byoc_value *v = byoc_node_const_value(g, node);
    if (v->kind == BYOC_V_BOOL) {
        fputs(v->u.b ? "True" : "False", f);
        return;
    }
    double d = v->kind == BYOC_V_INT ? (double)v->u.i : v->u.f;
    switch (t->dtype) {
    case BYOC_DT_FLOAT32: bx_relay_put_float(f, d); fputc('f', f); return;
    case BYOC_DT_FLOAT16: bx_relay_put_float(f, d); fputs("f16", f); return;
    case BYOC_DT_FLOAT64: bx_relay_put_float(f, d); fputs("f64", f); return;
    default: break;
    }
    int64_t i = v->kind == BYOC_V_INT ? v->u.i : (int64_t)v->u.f;
    static const char *const sufs[BYOC_DT_COUNT_] = {
        [BYOC_DT_INT8] = "i8", [BYOC_DT_INT16] = "i16", [BYOC_DT_INT64] = "i64",
        [BYOC_DT_UINT8] = "u8", [BYOC_DT_UINT16] = "u16", [BYOC_DT_UINT32] = "u32",
        [BYOC_DT_UINT64] = "u64",
    };
    fprintf(f, "%" PRId64 "%s", i, sufs[t->dtype] ? sufs[t->dtype] : "");
}

static void put_call(FILE *f, const byoc_graph *g, int node, bx_relay_ref_fn ref, void *ctx)
{
    const byoc_op_decl *op = byoc_node_op(g, node);
    fprintf(f, "%s(", op->name);
    int na = byoc_node_arg_count(g, node);
    for (int a = 0; a < na; a++) {
        if (a)
            fputs(", ", f);
        ref(f, byoc_node_arg(g, node, a), ctx);
    }
    bool any = na > 0;
    for (int a = 0; a < op->nattrs; a++) {
        const byoc_value *v = byoc_node_attr_at(g, node, a);
        const byoc_attr_decl *d = &op->attrs[a];
        if (!v || v->kind == BYOC_V_NONE)
            continue;
        if (d->has_default && byoc_value_equal(v, &d->def))
            continue;
        fprintf(f, "%s%s=", any ? ", " : "", d->name);
        bx_relay_put_value(f, v);
        any = true;
    }
    fputc(')', f);
}

void bx_relay_put_expr(FILE *f, const byoc_graph *g, int node, bx_relay_ref_fn ref,
                       void *ctx)
{
    byoc_node_kind k = byoc_node_kind_of(g, node);
    if (k == BYOC_N_CALL) {
        put_call(f, g, node, ref, ctx);
    } else if (k == BYOC_N_TUPLE) {
        int na = byoc_node_arg_count(g, node);
        fputc('(', f);
        for (int a = 0; a < na; a++) {
            if (a)
                fputs(", ", f);
            ref(f, byoc_node_arg(g, node, a), ctx);
        }
        fputs(na == 1 ? ",)" : ")", f);
    } else if (k == BYOC_N_PROJ) {
        ref(f, byoc_node_arg(g, node, 0), ctx);
        fprintf(f, ".%d", byoc_node_proj_index(g, node));
    } else {
        ref(f, node, ctx);
    }
}

/* Relay names are identifiers; ONNX's ("input.1", "0") are not always. */
static char *safe_name(const char *s)
{
    size_t len = strlen(s);
    char *o = malloc(len + 24);
    if (!o)
        bx_oom();
    size_t k = 0;
    if (len == 0 || (s[0] >= '0' && s[0] <= '9'))
        o[k++] = '_';
    for (size_t j = 0; j < len; j++) {
        char ch = s[j];
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
                  || (ch >= '0' && ch <= '9') || ch == '_';
        o[k++] = ok ? ch : '_';
    }
    o[k] = 0;
    return o;
}

char **bx_relay_input_names(const byoc_graph *g)
{
    int n = byoc_graph_node_count(g);
    char **names = calloc((size_t)n + 1, sizeof(char *));
    if (!names)
        bx_oom();
    for (int i = 0; i < n; i++) {
        if (byoc_node_kind_of(g, i) != BYOC_N_INPUT)
            continue;
        char *o = safe_name(byoc_node_name(g, i));
        size_t k = strlen(o);
        for (int suffix = 1;; suffix++) {
            bool clash = false;
            for (int j = 0; j < i && !clash; j++)
                clash = names[j] && strcmp(names[j], o) == 0;
            if (!clash)
                break;
            snprintf(o + k, 16, "_%d", suffix);
        }
        names[i] = o;
    }
    return names;
}

void bx_relay_free_names(const byoc_graph *g, char **names)
{
    if (!names)
        return;
    int n = byoc_graph_node_count(g);
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

int bx_relay_check_writable(const byoc_graph *g, byoc_error *err)
{
    if (byoc_graph_output(g) < 0) {
        bx_error_set(err, byoc_graph_source(g), 0, 0, "the graph has no output to write");
        return -1;
    }
    int n = byoc_graph_node_count(g);
    for (int i = 0; i < n; i++) {
        if (byoc_node_is_opaque(g, i)) {
            bx_error_set(err, byoc_graph_source(g), byoc_node_line(g, i), byoc_node_col(g, i),
                         "'%s' has no Relay equivalent, so the graph cannot be written as Relay",
                         byoc_node_op_name(g, i));
            return -1;
        }
        if (byoc_node_kind_of(g, i) == BYOC_N_INPUT && !known(byoc_node_type(g, i, -1))) {
            bx_error_set(err, byoc_graph_source(g), 0, 0,
                         "input '%s' has no known type, which Relay needs",
                         byoc_node_name(g, i));
            return -1;
        }
    }
    return 0;
}

void bx_relay_put_const_ref(FILE *f, const byoc_graph *g, int node, int *meta, int *nmeta)
{
    if (bx_relay_is_literal(g, node)) {
        bx_relay_put_literal(f, g, node);
        return;
    }
    if (meta[node] < 0)
        meta[node] = (*nmeta)++;
    fprintf(f, "meta[relay.Constant][%d]", meta[node]);
    if (bx_relay_type_known(g, node)) {
        fputs(" /* ty=", f);
        bx_relay_put_type(f, g, node);
        fputs(" */", f);
    }
}
