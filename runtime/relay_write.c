/* Writing a graph as TVM Relay text.
 *
 * The form is the one TVM's printer uses and relay_read.c reads: inputs
 * become typed parameters of @main, calls, tuples and projections become
 * `%N = ...;` statements numbered in graph order, scalar constants with a
 * known value are written inline as literals and every other constant as
 * `meta[relay.Constant][i]` with its type.  Attributes equal to the op's
 * default are left out, as TVM leaves them out. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/relay.h>

#include "die.h"
#include "errfmt.h"

typedef struct writer {
    const byoc_graph *g;
    FILE *f;
    int *local;       /* node -> statement number, -1 */
    int *meta;        /* node -> meta index, -1 */
    int nmeta;
    char **names;     /* inputs: a Relay-safe name */
} writer;

/* Relay names are identifiers; ONNX's ("input.1", "0") are not always.
 * Unsafe characters become '_', and a clash gets a numeric suffix. */
static void name_inputs(writer *w, int n)
{
    for (int i = 0; i < n; i++) {
        w->names[i] = NULL;
        if (byoc_node_kind_of(w->g, i) != BYOC_N_INPUT)
            continue;
        const char *s = byoc_node_name(w->g, i);
        size_t len = strlen(s);
        char *o = malloc(len + 24);
        if (!o)
            bx_die("out of memory");
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
        for (int suffix = 1;; suffix++) {
            bool clash = false;
            for (int j = 0; j < i && !clash; j++)
                clash = w->names[j] && strcmp(w->names[j], o) == 0;
            if (!clash)
                break;
            snprintf(o + k, 24, "_%d", suffix);
        }
        w->names[i] = o;
    }
}

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

static bool known(const byoc_tensor_type *t)
{
    return t && t->rank >= 0 && t->dtype != BYOC_DT_VOID;
}

static void write_type_of(writer *w, int node)
{
    char buf[256];
    int nf = byoc_node_field_count(w->g, node);
    if (nf < 0) {
        byoc_relay_format_type(w->g, byoc_node_type(w->g, node, -1), buf, sizeof buf);
        fputs(buf, w->f);
        return;
    }
    fputc('(', w->f);
    for (int i = 0; i < nf; i++) {
        byoc_relay_format_type(w->g, byoc_node_type(w->g, node, i), buf, sizeof buf);
        fprintf(w->f, "%s%s", i ? ", " : "", buf);
    }
    fputs(nf == 1 ? ",)" : ")", w->f);
}

static bool type_of_known(const byoc_graph *g, int node)
{
    int nf = byoc_node_field_count(g, node);
    if (nf < 0)
        return known(byoc_node_type(g, node, -1));
    for (int i = 0; i < nf; i++)
        if (!known(byoc_node_type(g, node, i)))
            return false;
    return true;
}

static void write_float(FILE *f, double d)
{
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    fputs(buf, f);
}

static void write_value(FILE *f, const byoc_value *v)
{
    switch (v->kind) {
    case BYOC_V_NONE: fputs("None", f); break;
    case BYOC_V_BOOL: fputs(v->u.b ? "True" : "False", f); break;
    case BYOC_V_INT: fprintf(f, "%" PRId64, v->u.i); break;
    case BYOC_V_FLOAT: write_float(f, v->u.f); fputc('f', f); break;
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
            write_value(f, &v->u.list.items[i]);
        }
        fputc(']', f);
        break;
    }
}

/* A scalar constant whose value is known is written as a literal. */
static bool inline_literal(const byoc_graph *g, int node)
{
    if (byoc_node_kind_of(g, node) != BYOC_N_CONST)
        return false;
    const byoc_tensor_type *t = byoc_node_type(g, node, -1);
    const byoc_value *v = byoc_node_const_value(g, node);
    return t && t->rank == 0 && v
           && (v->kind == BYOC_V_INT || v->kind == BYOC_V_FLOAT || v->kind == BYOC_V_BOOL);
}

static void write_literal(writer *w, int node)
{
    const byoc_tensor_type *t = byoc_node_type(w->g, node, -1);
    const byoc_value *v = byoc_node_const_value(w->g, node);
    FILE *f = w->f;
    if (v->kind == BYOC_V_BOOL) {
        fputs(v->u.b ? "True" : "False", f);
        return;
    }
    double d = v->kind == BYOC_V_INT ? (double)v->u.i : v->u.f;
    switch (t->dtype) {
    case BYOC_DT_FLOAT32: write_float(f, d); fputc('f', f); return;
    case BYOC_DT_FLOAT16: write_float(f, d); fputs("f16", f); return;
    case BYOC_DT_FLOAT64: write_float(f, d); fputs("f64", f); return;
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

/* A reference to a node as an argument. */
static void write_ref(writer *w, int node)
{
    byoc_node_kind k = byoc_node_kind_of(w->g, node);
    if (k == BYOC_N_INPUT) {
        fprintf(w->f, "%%%s", w->names[node]);
    } else if (k == BYOC_N_CONST) {
        if (inline_literal(w->g, node)) {
            write_literal(w, node);
            return;
        }
        if (w->meta[node] < 0)
            w->meta[node] = w->nmeta++;
        fprintf(w->f, "meta[relay.Constant][%d]", w->meta[node]);
        if (type_of_known(w->g, node)) {
            fputs(" /* ty=", w->f);
            write_type_of(w, node);
            fputs(" */", w->f);
        }
    } else {
        fprintf(w->f, "%%%d", w->local[node]);
    }
}

int byoc_relay_write(const byoc_graph *g, FILE *f, byoc_error *err)
{
    int n = byoc_graph_node_count(g);
    int out = byoc_graph_output(g);
    if (out < 0) {
        bx_error_set(err, byoc_graph_source(g), 0, 0, "the graph has no output to write");
        return -1;
    }
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
    writer w = {g, f, malloc(sizeof(int) * (size_t)(n + 1)), malloc(sizeof(int) * (size_t)(n + 1)),
                0, calloc((size_t)n + 1, sizeof(char *))};
    if (!w.local || !w.meta || !w.names)
        bx_die("out of memory");
    for (int i = 0; i < n; i++)
        w.local[i] = w.meta[i] = -1;
    name_inputs(&w, n);

    fputs("#[version = \"0.0.5\"]\ndef @main(", f);
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (byoc_node_kind_of(g, i) != BYOC_N_INPUT)
            continue;
        fprintf(f, "%s%%%s: ", first ? "" : ", ", w.names[i]);
        write_type_of(&w, i);
        first = false;
    }
    fputc(')', f);
    if (type_of_known(g, out)) {
        fputs(" -> ", f);
        write_type_of(&w, out);
    }
    fputs(" {\n", f);
    int next = 0;
    for (int i = 0; i < n; i++) {
        byoc_node_kind k = byoc_node_kind_of(g, i);
        if (k == BYOC_N_INPUT || k == BYOC_N_CONST)
            continue;
        w.local[i] = next++;
        fprintf(f, "  %%%d = ", w.local[i]);
        if (k == BYOC_N_CALL) {
            const byoc_op_decl *op = byoc_node_op(g, i);
            fprintf(f, "%s(", op->name);
            int na = byoc_node_arg_count(g, i);
            for (int a = 0; a < na; a++) {
                if (a)
                    fputs(", ", f);
                write_ref(&w, byoc_node_arg(g, i, a));
            }
            bool any = na > 0;
            for (int a = 0; a < op->nattrs; a++) {
                const byoc_value *v = byoc_node_attr_at(g, i, a);
                const byoc_attr_decl *d = &op->attrs[a];
                if (!v || v->kind == BYOC_V_NONE)
                    continue;
                if (d->has_default && byoc_value_equal(v, &d->def))
                    continue;
                fprintf(f, "%s%s=", any ? ", " : "", d->name);
                write_value(f, v);
                any = true;
            }
            fputc(')', f);
        } else if (k == BYOC_N_TUPLE) {
            int na = byoc_node_arg_count(g, i);
            fputc('(', f);
            for (int a = 0; a < na; a++) {
                if (a)
                    fputs(", ", f);
                write_ref(&w, byoc_node_arg(g, i, a));
            }
            fputs(na == 1 ? ",)" : ")", f);
        } else {
            write_ref(&w, byoc_node_arg(g, i, 0));
            fprintf(f, ".%d", byoc_node_proj_index(g, i));
        }
        if (k == BYOC_N_CALL && type_of_known(g, i)) {
            fputs(" /* ty=", f);
            write_type_of(&w, i);
            fputs(" */", f);
        }
        fputs(";\n", f);
    }
    fputs("  ", f);
    write_ref(&w, out);
    fputs("\n}\n", f);
    for (int i = 0; i < n; i++)
        free(w.names[i]);
    free(w.names);
    free(w.local);
    free(w.meta);
    if (ferror(f)) {
        bx_error_set(err, NULL, 0, 0, "write error");
        return -1;
    }
    return 0;
}
