/* Kernel costs: canonical signatures, the measured-cost table, the user's
 * callback and the analytic model, cached by (target, signature).
 *
 * The one idea: a kernel's cost depends on what it computes, not on where
 * it sits, so every kernel is named by a canonical text - its signature -
 * that equal kernels anywhere in any graph share.  Measurements are keyed
 * by it (a cost table is a list of (target, signature, seconds)), and the
 * cache makes each distinct kernel cost one estimate however many
 * candidates repeat it.
 *
 * The signature format (also in doc/cost-table.md):
 *
 *   signature := [pattern "|"] expr {";" expr}     one expr per output
 *   expr      := ["$" N "="] body | "$" N | input
 *   body      := op ["{" attr "=" value {"," ...} "}"] "(" [expr {"," expr}] ")" ":" type
 *              | "(" [expr {"," expr}] ")"          a tuple
 *              | expr "." index                     a projection
 *              | "const:" type ["=" value]          a constant (value: scalars)
 *   input     := "%" N ":" type  (first use) | "%" N  (later uses)
 *   type      := dtype "[" dim {"," dim} "]" | "(" type {"," type} ")" | "?"
 *
 * Inputs (nodes the kernel reads but does not contain) are numbered 0, 1,
 * ... in the order a traversal first meets them; the traversal starts at
 * the kernel's outputs and visits arguments in argument order.  Outputs
 * are the members used outside the kernel, the graph's results and
 * members nothing uses.  A call prints only the attributes that differ
 * from their declared defaults, in declaration order.  A node used more
 * than once inside the kernel (a DAG) prints once as "$N=..." and is "$N"
 * afterwards.  Several outputs are ordered by a structural hash (op,
 * attributes, types, and the same of their arguments; inputs by type
 * only), ties by node id.  Known limitation: two outputs with equal hashes
 * that share inputs differently (add(%0,%1) and add(%1,%1) over inputs of
 * one type) can print in either order, so such a kernel may have two
 * signatures; it is then priced twice, never wrongly.
 *
 * Cost: signatures are built for every candidate, so the per-node
 * bookkeeping lives in arrays indexed by node id, allocated once per
 * estimator and cleaned after each kernel by walking its members and
 * their arguments; one string buffer is reused for every signature. */
#define _POSIX_C_SOURCE 200809L   /* strcasecmp */
#include "estimate.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cost.h"
#include "die.h"
#include "errfmt.h"
#include "file.h"
#include "hash.h"
#include "number.h"
#include "strbuf.h"

const char *byoc_cost_source_name(byoc_cost_source s)
{
    switch (s) {
    case BYOC_COST_ANALYTIC: return "analytic";
    case BYOC_COST_TABLE: return "table";
    case BYOC_COST_CALLBACK: return "callback";
    case BYOC_COST_UNKNOWN: return "unknown";
    }
    return "?";
}

/* ---- a string buffer without printf for the common pieces -------------- */

static void sb_put(bx_strbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p)
            bx_oom();
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void sb_str(bx_strbuf *b, const char *s) { sb_put(b, s, strlen(s)); }
static void sb_chr(bx_strbuf *b, char c) { sb_put(b, &c, 1); }

/* Digits by hand: labels and dimensions are most of a signature's
 * numbers, and snprintf's generality was most of its time. */
static void sb_int(bx_strbuf *b, int64_t v)
{
    char tmp[24], *p = tmp + sizeof tmp;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--p = '-';
    sb_put(b, p, (size_t)(tmp + sizeof tmp - p));
}

static void sb_value(bx_strbuf *b, const byoc_value *v)
{
    char tmp[128];
    size_t n = byoc_value_format(v, tmp, sizeof tmp);
    if (n < sizeof tmp) {
        sb_put(b, tmp, n);
        return;
    }
    char *big = malloc(n + 1);
    if (!big)
        bx_oom();
    byoc_value_format(v, big, n + 1);
    sb_put(b, big, n);
    free(big);
}

/* ---- signatures ---------------------------------------------------------- */

/* Per graph node, all zero between kernels. */
typedef struct sig_info {
    int member;      /* 1 + index in the kernel's nodes, 0: not a member */
    int uses;        /* references inside the kernel, +1 for an output */
    int label;       /* 1 + its $ or % number once printed, 0: not yet */
} sig_info;

typedef struct sig_frame {
    int node, next;
} sig_frame;

typedef struct sig_out {
    uint64_t hash;
    int node;
} sig_out;

typedef struct sig_ctx {
    const byoc_graph *g;
    int nnodes;
    sig_info *info;
    unsigned char *result;   /* per node: a graph result */
    int cap;                 /* of the per-kernel arrays below */
    sig_frame *stack;
    sig_out *outs;
    uint64_t *hash;          /* per member index */
    int ninputs, nlabels;
    bx_strbuf sb, tmp;
    /* Per node, built on first use: its type, and a call's op with its
     * attributes or a constant's text.  Kernels overlap heavily, so most
     * of a signature is copied from here rather than formatted. */
    struct piece { const char *s; size_t len; } *type_txt, *head_txt;
    bx_arena texts;
} sig_ctx;

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        bx_oom();
    return p;
}

static void sig_init(sig_ctx *c, const byoc_graph *g)
{
    memset(c, 0, sizeof *c);
    c->g = g;
    c->nnodes = byoc_graph_node_count(g);
    c->info = xcalloc((size_t)c->nnodes, sizeof *c->info);
    c->result = xcalloc((size_t)c->nnodes, 1);
    c->type_txt = xcalloc((size_t)c->nnodes, sizeof *c->type_txt);
    c->head_txt = xcalloc((size_t)c->nnodes, sizeof *c->head_txt);
    bx_arena_init(&c->texts);
    int out = byoc_graph_output(g);
    if (out >= 0) {
        c->result[out] = 1;
        if (byoc_node_kind_of(g, out) == BYOC_N_TUPLE)
            for (int i = 0; i < byoc_node_arg_count(g, out); i++)
                c->result[byoc_node_arg(g, out, i)] = 1;
    }
}

static void sig_fini(sig_ctx *c)
{
    free(c->info);
    free(c->result);
    free(c->stack);
    free(c->outs);
    free(c->hash);
    free(c->type_txt);
    free(c->head_txt);
    bx_arena_free(&c->texts);
    bx_sb_free(&c->sb);
    bx_sb_free(&c->tmp);
}

static void sig_reserve(sig_ctx *c, int n)
{
    if (n <= c->cap)
        return;
    int cap = c->cap ? c->cap : 16;
    while (cap < n)
        cap *= 2;
    free(c->stack);
    free(c->outs);
    free(c->hash);
    c->stack = xcalloc((size_t)cap, sizeof *c->stack);
    c->outs = xcalloc((size_t)cap, sizeof *c->outs);
    c->hash = xcalloc((size_t)cap, sizeof *c->hash);
    c->cap = cap;
}

static void put_tensor_type(bx_strbuf *b, const byoc_graph *g, const byoc_tensor_type *t)
{
    if (!t || t->rank < 0) {
        sb_chr(b, '?');
        return;
    }
    sb_str(b, t->dtype == BYOC_DT_VOID ? "?" : byoc_dtype_name(t->dtype));
    sb_chr(b, '[');
    for (int i = 0; i < t->rank; i++) {
        if (i)
            sb_chr(b, ',');
        int64_t d = t->dims[i];
        if (d >= 0)
            sb_int(b, d);
        else if (d == BYOC_DIM_UNKNOWN)
            sb_chr(b, '?');
        else
            sb_str(b, byoc_graph_symbol_name(g, (int)(-2 - d)));
    }
    sb_chr(b, ']');
}

/* Recursion as deep as tuples nest, which the graph bounds. */
static void put_tuple_type(bx_strbuf *b, const byoc_graph *g, const byoc_tuple_type *t)
{
    sb_chr(b, '(');
    for (int i = 0; i < t->n; i++) {
        if (i)
            sb_chr(b, ',');
        if (t->sub && t->sub[i])
            put_tuple_type(b, g, t->sub[i]);
        else
            put_tensor_type(b, g, &t->fields[i]);
    }
    sb_chr(b, ')');
}

static void put_type(bx_strbuf *b, const byoc_graph *g, int node)
{
    const byoc_tuple_type *t = byoc_node_tuple_type(g, node);
    if (t)
        put_tuple_type(b, g, t);
    else
        put_tensor_type(b, g, byoc_node_type(g, node, -1));
}

/* An attribute is printed when it differs from its declared default; one
 * without a default (required, or optional) when it is present. */
static bool attr_is_default(const byoc_attr_decl *a, const byoc_value *v)
{
    if (a->has_default)
        return byoc_value_equal(v, &a->def);
    return v->kind == BYOC_V_NONE;
}

/* A call's op and non-default attributes: "op{a=1,b=[2]}". */
static void put_call_head(bx_strbuf *b, const byoc_graph *g, int node)
{
    sb_str(b, byoc_node_op_name(g, node));
    const byoc_op_decl *op = byoc_node_op(g, node);
    int printed = 0;
    for (int i = 0; op && i < op->nattrs; i++) {
        const byoc_value *v = byoc_node_attr_at(g, node, i);
        if (!v || attr_is_default(&op->attrs[i], v))
            continue;
        sb_chr(b, printed++ ? ',' : '{');
        sb_str(b, op->attrs[i].name);
        sb_chr(b, '=');
        sb_value(b, v);
    }
    if (printed)
        sb_chr(b, '}');
}

static void put_const(bx_strbuf *b, const byoc_graph *g, int node)
{
    sb_str(b, "const:");
    put_type(b, g, node);
    const byoc_tensor_type *t = byoc_node_type(g, node, -1);
    const byoc_value *v = byoc_node_const_value(g, node);
    if (t && t->rank == 0 && v && v->kind != BYOC_V_LIST && v->kind != BYOC_V_NONE) {
        sb_chr(b, '=');
        sb_value(b, v);
    }
}

/* The cached text of a node: its type, or (head) a call's op and
 * attributes or a constant's text. */
static struct piece node_text(sig_ctx *c, int node, bool head)
{
    struct piece *p = head ? &c->head_txt[node] : &c->type_txt[node];
    if (!p->s) {
        c->tmp.len = 0;
        sb_put(&c->tmp, "", 0);
        if (!head)
            put_type(&c->tmp, c->g, node);
        else if (byoc_node_kind_of(c->g, node) == BYOC_N_CALL)
            put_call_head(&c->tmp, c->g, node);
        else if (byoc_node_kind_of(c->g, node) == BYOC_N_CONST)
            put_const(&c->tmp, c->g, node);
        p->s = bx_arena_strndup(&c->texts, c->tmp.s, c->tmp.len);
        p->len = c->tmp.len;
    }
    return *p;
}

static void put_text(sig_ctx *c, int node, bool head)
{
    struct piece p = node_text(c, node, head);
    sb_put(&c->sb, p.s, p.len);
}

/* A node referenced more than once gets a $ label where it is first
 * printed; a node referenced once needs none, nothing comes back to it. */
static void put_label_def(sig_ctx *c, int node)
{
    sig_info *in = &c->info[node];
    if (in->uses > 1) {
        in->label = ++c->nlabels;
        sb_chr(&c->sb, '$');
        sb_int(&c->sb, in->label - 1);
        sb_chr(&c->sb, '=');
    }
}

/* A node that is not a member: an input, or a constant the kernel reads. */
static void put_leaf(sig_ctx *c, int node)
{
    sig_info *in = &c->info[node];
    bx_strbuf *b = &c->sb;
    if (byoc_node_kind_of(c->g, node) == BYOC_N_CONST) {
        if (in->label) {
            sb_chr(b, '$');
            sb_int(b, in->label - 1);
            return;
        }
        put_label_def(c, node);
        put_text(c, node, true);
        return;
    }
    sb_chr(b, '%');
    if (in->label) {
        sb_int(b, in->label - 1);
        return;
    }
    in->label = ++c->ninputs;
    sb_int(b, in->label - 1);
    sb_chr(b, ':');
    put_text(c, node, false);
}

/* Print node or a reference to it; a member not yet printed is opened
 * and pushed, its arguments following from the main loop. */
static void put_ref(sig_ctx *c, int node, int *top)
{
    const sig_info *in = &c->info[node];
    byoc_node_kind k = byoc_node_kind_of(c->g, node);
    if (!in->member || k == BYOC_N_INPUT || k == BYOC_N_CONST) {
        put_leaf(c, node);
        return;
    }
    if (in->label) {
        sb_chr(&c->sb, '$');
        sb_int(&c->sb, in->label - 1);
        return;
    }
    put_label_def(c, node);
    if (k == BYOC_N_CALL) {
        put_text(c, node, true);
        sb_chr(&c->sb, '(');
    } else if (k == BYOC_N_TUPLE) {
        sb_chr(&c->sb, '(');
    }
    c->stack[(*top)++] = (sig_frame){node, 0};
}

/* Print the tree under an output without recursion: kernels can be
 * thousands of nodes deep. */
static void put_tree(sig_ctx *c, int root)
{
    int top = 0;
    put_ref(c, root, &top);
    while (top > 0) {
        sig_frame *f = &c->stack[top - 1];
        int node = f->node;
        byoc_node_kind k = byoc_node_kind_of(c->g, node);
        if (f->next < byoc_node_arg_count(c->g, node)) {
            if (f->next > 0)
                sb_chr(&c->sb, ',');
            int a = byoc_node_arg(c->g, node, f->next++);
            put_ref(c, a, &top);
            continue;
        }
        top--;
        if (k == BYOC_N_CALL) {
            sb_str(&c->sb, "):");
            put_text(c, node, false);
        } else if (k == BYOC_N_TUPLE) {
            sb_chr(&c->sb, ')');
        } else {
            sb_chr(&c->sb, '.');
            sb_int(&c->sb, byoc_node_proj_index(c->g, node));
        }
    }
}

static uint64_t hash_mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

/* The structural hash of a node as seen from the kernel: what it prints
 * as, with inputs reduced to their types.  Members are hashed in
 * ascending order, which is topological, so arguments come first. */
static uint64_t node_hash(sig_ctx *c, int node)
{
    const sig_info *in = &c->info[node];
    byoc_node_kind k = byoc_node_kind_of(c->g, node);
    if (in->member && k != BYOC_N_INPUT && k != BYOC_N_CONST)
        return c->hash[in->member - 1];
    return bx_hash_str(node_text(c, node, k == BYOC_N_CONST).s);
}

static void hash_members(sig_ctx *c, const int *nodes, int n)
{
    for (int i = 0; i < n; i++) {
        int m = nodes[i];
        byoc_node_kind k = byoc_node_kind_of(c->g, m);
        uint64_t h = hash_mix((uint64_t)k, bx_hash_str(node_text(c, m, true).s));
        h = hash_mix(h, bx_hash_str(node_text(c, m, false).s));
        if (k == BYOC_N_PROJ)
            h = hash_mix(h, (uint64_t)byoc_node_proj_index(c->g, m));
        for (int a = 0; a < byoc_node_arg_count(c->g, m); a++)
            h = hash_mix(h, node_hash(c, byoc_node_arg(c->g, m, a)));
        c->hash[i] = h;
    }
}

static int cmp_out(const void *pa, const void *pb)
{
    const sig_out *a = pa, *b = pb;
    if (a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    return (a->node > b->node) - (a->node < b->node);
}

/* Mark members, count uses, collect the outputs; returns their number. */
static int mark_kernel(sig_ctx *c, const int *nodes, int n)
{
    const byoc_graph *g = c->g;
    for (int i = 0; i < n; i++) {
        bx_assert(nodes[i] >= 0 && nodes[i] < c->nnodes && (i == 0 || nodes[i - 1] < nodes[i]));
        c->info[nodes[i]].member = i + 1;
    }
    int nouts = 0;
    for (int i = 0; i < n; i++) {
        int m = nodes[i];
        for (int a = 0; a < byoc_node_arg_count(g, m); a++)
            c->info[byoc_node_arg(g, m, a)].uses++;
        bool inside = false, outside = c->result[m] != 0;
        for (int k = 0; k < byoc_node_consumer_count(g, m); k++) {
            if (c->info[byoc_node_consumer(g, m, k)].member)
                inside = true;
            else
                outside = true;
        }
        if (outside || !inside) {
            c->info[m].uses++;
            c->outs[nouts++] = (sig_out){0, m};
        }
    }
    return nouts;
}

static void unmark_kernel(sig_ctx *c, const int *nodes, int n)
{
    for (int i = 0; i < n; i++) {
        int m = nodes[i];
        for (int a = 0; a < byoc_node_arg_count(c->g, m); a++)
            c->info[byoc_node_arg(c->g, m, a)] = (sig_info){0, 0, 0};
        c->info[m] = (sig_info){0, 0, 0};
    }
}

/* Append the signature of nodes[0..n) to c->sb. */
static void sig_print(sig_ctx *c, const int *nodes, int n, const char *pattern)
{
    sig_reserve(c, n + 1);
    c->ninputs = c->nlabels = 0;
    if (pattern) {
        sb_str(&c->sb, pattern);
        sb_chr(&c->sb, '|');
    }
    int nouts = mark_kernel(c, nodes, n);
    if (nouts > 1) {
        hash_members(c, nodes, n);
        for (int i = 0; i < nouts; i++)
            c->outs[i].hash = c->hash[c->info[c->outs[i].node].member - 1];
        qsort(c->outs, (size_t)nouts, sizeof *c->outs, cmp_out);
    }
    for (int i = 0; i < nouts; i++) {
        if (i)
            sb_chr(&c->sb, ';');
        put_tree(c, c->outs[i].node);
    }
    if (!c->sb.s)
        sb_put(&c->sb, "", 0);
    unmark_kernel(c, nodes, n);
}

const char *bx_kernel_signature(bx_arena *a, const byoc_graph *g, const int *nodes, int n,
                                const char *pattern)
{
    sig_ctx c;
    sig_init(&c, g);
    sig_print(&c, nodes, n, pattern);
    char *s = bx_arena_strndup(a, c.sb.s, c.sb.len);
    sig_fini(&c);
    return s;
}

/* ---- the measured-cost table ------------------------------------------- */

/* Entries are keyed "target\nsignature": target names have no newline. */
typedef struct table_entry {
    double seconds;
    const char *text;   /* the seconds as written, for messages */
    int line, col;
} table_entry;

struct byoc_cost_table {
    bx_arena arena;
    bx_hash entries;
    const char *name;
};

/* A CSV reader (RFC 4180, plus '#' comments, blank lines, spaces around
 * fields and CRLF).  Positions are tracked as line and line start, so an
 * error can name the column of the field it is about. */
typedef struct csv {
    const char *p, *end;
    const char *name;
    int line;
    const char *line_start;
    byoc_error *err;
} csv;

#define CSV_MAX_FIELDS 4   /* three, and the start of a fourth for errors */

typedef struct csv_record {
    int nfields;
    int line, col[CSV_MAX_FIELDS];
    bx_strbuf text[CSV_MAX_FIELDS];
    int end_col;        /* just past the last field, for "missing" errors */
} csv_record;

static int csv_col(const csv *r, const char *at) { return (int)(at - r->line_start) + 1; }

static bool at_eol(const csv *r)
{
    return r->p == r->end || *r->p == '\n' || (*r->p == '\r' && (r->p + 1 == r->end || r->p[1] == '\n'));
}

static void skip_eol(csv *r)
{
    if (r->p < r->end && *r->p == '\r')
        r->p++;
    if (r->p < r->end && *r->p == '\n') {
        r->p++;
        r->line++;
        r->line_start = r->p;
    }
}

static void skip_blanks(csv *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t'))
        r->p++;
}

/* Skip blank lines and '#' comment lines; false at the end of the text. */
static bool skip_to_record(csv *r)
{
    while (r->p < r->end) {
        const char *start = r->p;
        skip_blanks(r);
        if (r->p < r->end && *r->p == '#') {
            while (r->p < r->end && *r->p != '\n')
                r->p++;
        } else if (!at_eol(r)) {
            r->p = start;
            return true;
        }
        skip_eol(r);
    }
    return false;
}

static int csv_quoted(csv *r, bx_strbuf *out)
{
    const char *open = r->p++;
    int line = r->line, col = csv_col(r, open);
    for (;;) {
        if (r->p == r->end) {
            bx_error_set(r->err, r->name, line, col, "unterminated quoted field");
            return -1;
        }
        char ch = *r->p++;
        if (ch == '"') {
            if (r->p < r->end && *r->p == '"') {
                r->p++;
                sb_chr(out, '"');
                continue;
            }
            break;
        }
        if (ch == '\n') {
            r->line++;
            r->line_start = r->p;
        }
        sb_chr(out, ch);
    }
    skip_blanks(r);
    if (!at_eol(r) && *r->p != ',') {
        bx_error_set(r->err, r->name, r->line, csv_col(r, r->p),
                     "unexpected '%c' after a closing quote", *r->p);
        return -1;
    }
    return 0;
}

static int csv_plain(csv *r, bx_strbuf *out)
{
    const char *start = r->p;
    while (!at_eol(r) && *r->p != ',') {
        if (*r->p == '"') {
            bx_error_set(r->err, r->name, r->line, csv_col(r, r->p),
                         "quote inside an unquoted field (quote the whole field, "
                         "writing \"\" for a quote)");
            return -1;
        }
        r->p++;
    }
    const char *stop = r->p;
    while (stop > start && (stop[-1] == ' ' || stop[-1] == '\t'))
        stop--;
    sb_put(out, start, (size_t)(stop - start));
    return 0;
}

/* Read one record; fields past CSV_MAX_FIELDS are counted, not kept. */
static int csv_read_record(csv *r, csv_record *rec)
{
    rec->nfields = 0;
    rec->line = r->line;
    for (;;) {
        skip_blanks(r);
        int k = rec->nfields < CSV_MAX_FIELDS ? rec->nfields : CSV_MAX_FIELDS - 1;
        if (rec->nfields < CSV_MAX_FIELDS)
            rec->col[k] = csv_col(r, r->p);
        rec->text[k].len = 0;
        sb_put(&rec->text[k], "", 0);
        int rc = r->p < r->end && *r->p == '"' ? csv_quoted(r, &rec->text[k])
                                                : csv_plain(r, &rec->text[k]);
        if (rc)
            return -1;
        rec->nfields++;
        rec->end_col = csv_col(r, r->p);
        if (at_eol(r))
            break;
        r->p++;   /* the comma */
    }
    skip_eol(r);
    return 0;
}

/* Seconds: a non-negative decimal ("12", "1.5e-6", ".5") or "inf".  The
 * text is checked here and converted by strtod with the locale's decimal
 * point put in, so a program that set LC_NUMERIC reads the same file. */
static bool is_header(const csv_record *rec)
{
    return rec->nfields == 3 && !strcmp(rec->text[0].s, "target")
           && !strcmp(rec->text[1].s, "signature") && !strcmp(rec->text[2].s, "seconds");
}

/* Add one record's entry; an equal repeat is harmless, a different one is
 * an error naming both places. */
static int table_add(byoc_cost_table *t, const csv *r, const csv_record *rec)
{
    const char *what[] = {"target", "signature"};
    for (int i = 0; i < 2; i++)
        if (!rec->text[i].len) {
            bx_error_set(r->err, r->name, rec->line, rec->col[i], "empty %s", what[i]);
            return -1;
        }
    double sec;
    const char *why = NULL;
    const char *num = rec->text[2].s;
    if (bx_parse_nonneg(num, &sec, &why)) {
        bx_error_set(r->err, r->name, rec->line, rec->col[2],
                     "bad time '%s': %s (expected seconds, a non-negative decimal or inf)", num,
                     why);
        return -1;
    }
    char *key = bx_arena_printf(&t->arena, "%s\n%s", rec->text[0].s, rec->text[1].s);
    table_entry *old = bx_hash_get(&t->entries, key);
    if (old) {
        if (old->seconds == sec)
            return 0;
        bx_error_set(r->err, r->name, rec->line, rec->col[2],
                     "conflicting time '%s' for target '%s' and this signature; "
                     "it was '%s' at %s:%d:%d", num, rec->text[0].s, old->text, r->name,
                     old->line, old->col);
        return -1;
    }
    table_entry *e = BX_NEW(&t->arena, table_entry);
    *e = (table_entry){sec, bx_arena_strdup(&t->arena, num), rec->line, rec->col[2]};
    bx_hash_put(&t->entries, key, e);
    return 0;
}

static int check_fields(const csv *r, const csv_record *rec)
{
    if (rec->nfields == 3)
        return 0;
    int col = rec->nfields > 3 ? rec->col[3] : rec->end_col;
    bx_error_set(r->err, r->name, rec->line, col,
                 "expected 3 fields (target,signature,seconds), found %d", rec->nfields);
    return -1;
}

static int table_parse(byoc_cost_table *t, csv *r)
{
    csv_record rec;
    memset(&rec, 0, sizeof rec);
    bool first = true;
    int rc = 0;
    while (rc == 0 && skip_to_record(r)) {
        rc = csv_read_record(r, &rec);
        if (rc == 0 && first && is_header(&rec)) {
            first = false;
            continue;
        }
        first = false;
        if (rc == 0)
            rc = check_fields(r, &rec);
        if (rc == 0)
            rc = table_add(t, r, &rec);
    }
    for (int i = 0; i < CSV_MAX_FIELDS; i++)
        bx_sb_free(&rec.text[i]);
    return rc;
}

byoc_cost_table *byoc_cost_table_read_string(const char *text, size_t len, const char *name,
                                             byoc_error *err)
{
    byoc_error_clear(err);
    byoc_cost_table *t = xcalloc(1, sizeof *t);
    bx_arena_init(&t->arena);
    bx_hash_init(&t->entries);
    t->name = bx_arena_strdup(&t->arena, name ? name : "<string>");
    csv r = {text, text + len, t->name, 1, text, err};
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))   /* a UTF-8 BOM, as spreadsheets write */
        r.p = r.line_start = text + 3;
    if (table_parse(t, &r)) {
        byoc_cost_table_destroy(t);
        return NULL;
    }
    return t;
}

static char *read_table_file(const char *path, size_t *n, byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, NULL);
    char *text = bx_read_file(path, n, err);
    bx_oom_close(&guard);
    return text;
}

/* The whole file, within bx_read_file's size limit, then the string
 * reader. */
byoc_cost_table *byoc_cost_table_read(const char *path, byoc_error *err)
{
    size_t n;
    char *text = read_table_file(path, &n, err);
    if (!text)
        return NULL;
    byoc_cost_table *t = byoc_cost_table_read_string(text, n, path, err);
    free(text);
    return t;
}

void byoc_cost_table_destroy(byoc_cost_table *t)
{
    if (!t)
        return;
    bx_hash_free(&t->entries);
    bx_arena_free(&t->arena);
    free(t);
}

size_t byoc_cost_table_size(const byoc_cost_table *t) { return t ? t->entries.n : 0; }

/* ---- the estimator --------------------------------------------------------- */

typedef struct cached {
    double seconds;
    byoc_cost_source source;
    const char *signature;
} cached;

struct bx_estimator {
    const byoc_graph *g;
    const byoc_registry *reg;
    const byoc_cost_table *table;
    byoc_cost_fn fn;
    void *ctx;
    sig_ctx sig;        /* its buffer holds "target\nsignature" */
    bx_strbuf key;      /* table keys of parent targets */
    bx_arena arena;     /* cache keys and entries */
    bx_hash cache;
    bx_estimator_stats stats;
};

bx_estimator *bx_estimator_create(const byoc_graph *g, const byoc_cost_table *table,
                                  byoc_cost_fn fn, void *ctx)
{
    bx_estimator *e = xcalloc(1, sizeof *e);
    e->g = g;
    e->reg = byoc_graph_registry(g);
    e->table = table;
    e->fn = fn;
    e->ctx = ctx;
    sig_init(&e->sig, g);
    bx_arena_init(&e->arena);
    bx_hash_init(&e->cache);
    return e;
}

void bx_estimator_destroy(bx_estimator *e)
{
    if (!e)
        return;
    sig_fini(&e->sig);
    bx_sb_free(&e->key);
    bx_hash_free(&e->cache);
    bx_arena_free(&e->arena);
    free(e);
}

bx_estimator_stats bx_estimator_get_stats(const bx_estimator *e) { return e->stats; }

bool bx_cost_table_lookup(const byoc_cost_table *table, const char *target, const char *signature,
                          double *seconds)
{
    if (!table || !table->entries.n)
        return false;
    bx_strbuf key = {0};
    sb_str(&key, target);
    sb_chr(&key, '\n');
    sb_str(&key, signature);
    const table_entry *te = bx_hash_get(&table->entries, key.s);
    bx_sb_free(&key);
    if (te)
        *seconds = te->seconds;
    return te != NULL;
}

/* The table's time for the signature on t or, failing that, on the
 * nearest target t refines: a measurement of trt serves trt10 until trt10
 * has its own.  The key buffer is the estimator's, reused. */
static bool table_lookup(bx_estimator *e, const byoc_target_decl *t, const char *sig,
                         double *seconds)
{
    if (!e->table || !e->table->entries.n)
        return false;
    for (; t; t = byoc_target_parent(e->reg, t)) {
        e->key.len = 0;
        sb_str(&e->key, t->name);
        sb_chr(&e->key, '\n');
        sb_str(&e->key, sig);
        const table_entry *te = bx_hash_get(&e->table->entries, e->key.s);
        if (te) {
            *seconds = te->seconds;
            return true;
        }
    }
    return false;
}

static bx_estimate price(bx_estimator *e, const byoc_kernel *k)
{
    bx_estimate r = {0, BYOC_COST_ANALYTIC, k->signature};
    if (e->fn) {
        double s = e->fn(k, e->ctx);
        if (s >= 0) {   /* false for NaN: don't know */
            r.seconds = s;
            r.source = BYOC_COST_CALLBACK;
            return r;
        }
    }
    if (table_lookup(e, k->target, k->signature, &r.seconds)) {
        r.source = BYOC_COST_TABLE;
        return r;
    }
    /* A graph compiler runs its kernel as its own fusion groups. */
    bool grouped = byoc_target_fusion(e->reg, k->target) == BYOC_FUSION_ANY;
    if (bx_cost_kernel(e->g, k->nodes, k->nnodes, k->device, k->efficiency, grouped, &r.seconds,
                       NULL)) {
        r.seconds = k->device->launch;
        r.source = BYOC_COST_UNKNOWN;
    }
    return r;
}

static void count(bx_estimator_stats *s, byoc_cost_source src)
{
    s->kernels++;
    switch (src) {
    case BYOC_COST_ANALYTIC: s->analytic++; break;
    case BYOC_COST_TABLE: s->from_table++; break;
    case BYOC_COST_CALLBACK: s->from_callback++; break;
    case BYOC_COST_UNKNOWN: s->unknown++; break;
    }
}

/* The cache is keyed by target and signature alone: the efficiency is the
 * pattern's or the target's, and both are in the key. */
bx_estimate bx_estimate_kernel(bx_estimator *e, const byoc_target_decl *t,
                               const byoc_device_decl *d, const int *nodes, int n,
                               const char *pattern, double efficiency)
{
    bx_strbuf *b = &e->sig.sb;
    b->len = 0;
    sb_str(b, t->name);
    sb_chr(b, '\n');
    size_t skip = b->len;
    sig_print(&e->sig, nodes, n, pattern);
    const cached *hit = bx_hash_get(&e->cache, b->s);
    if (hit)
        return (bx_estimate){hit->seconds, hit->source, hit->signature};

    char *key = bx_arena_memdup(&e->arena, b->s, b->len + 1);
    if (!d)
        d = byoc_target_device(e->reg, t);
    bx_assert(d != NULL);
    byoc_kernel k = {
        .graph = e->g, .target = t, .device = d, .nnodes = n, .nodes = nodes,
        .pattern = pattern,
        .efficiency = efficiency > 0 ? efficiency : byoc_target_efficiency(e->reg, t),
        .signature = key + skip,
    };
    bx_estimate r = price(e, &k);
    cached *c = BX_NEW(&e->arena, cached);
    *c = (cached){r.seconds, r.source, r.signature};
    bx_hash_put(&e->cache, key, c);
    count(&e->stats, r.source);
    return r;
}
