/* ONNX out: a placement as one ONNX model per partition, and plan.json.
 *
 * A partition is written, wherever it can be, with the model's own nodes,
 * so that it computes exactly what the model does: every model node whose
 * graph calls all landed in the partition (the reader stamped each call
 * with the model node it was made for) is copied, attributes, domain and
 * all, with its tensors renamed to the names the partitions agree on.  A
 * model node that made no call (an Identity, a Transpose folded into its
 * MatMul, a Constant) is copied into every partition that reads it;
 * contents the reader computed at load (a folded shape) become an
 * initializer.  What remains - a node whose calls went to different
 * partitions (a Conv's convolution on one target, its bias on another),
 * every call of a Relay model, or every call when the caller asks to
 * rewrite - is written from the graph by bx_onnx_emit_call.
 *
 * Tensor names: a value the model names keeps its name; others get
 * "byoc.N" (N the graph node), made unique against the model's.  The
 * boundary of a partition is the values it reads from outside (model
 * inputs and other partitions' values; constants travel with their
 * readers) and the values others or the model's outputs read.
 *
 * Files are written into a fresh folder beside the target one and renamed
 * into place at the end, so an error leaves nothing behind. */
#define _XOPEN_SOURCE 700       /* link, symlink, realpath */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <byoc/lower.h>
#include <byoc/onnx.h>
#include <byoc/partition.h>

#include "arena.h"
#include "die.h"
#include "errfmt.h"
#include "file.h"
#include "graph_impl.h"
#include "hash.h"
#include "strbuf.h"
#ifdef HAVE_ONNX
#include "onnx.h"
#include "writers/onnx_build.h"
#endif
#include "writers/onnx_files.h"
#include "writers/onnx_split.h"
#include "writers/writers.h"
#include "lower/lower_impl.h"

/* Everything below writes protobuf-c messages; without ONNX support only
 * the entry points remain, at the end, and say so. */
#ifdef HAVE_ONNX

/* ---- values and their names --------------------------------------------- */

/* A tensor: node's value (field -1) or field `field` of a tuple-typed call. */
typedef struct val {
    int node, field;
} val;

/* Names come from lowering's table (runtime/lower/names.c), so passes,
 * plan.json and the files call a tensor by one name; names this writer
 * makes up (a copied node's output renamed) are kept unique against them
 * and the model's. */
typedef struct names {
    bx_names *bn;
    bx_arena *a;
    bx_hash taken;              /* every name: values', the model's, made up */
    bx_hash vnames;             /* the values' names */
} names;

static const char *unique(names *nm, const char *want)
{
    const char *s = want;
    while (bx_hash_get(&nm->taken, s))
        s = bx_arena_printf(nm->a, "%s_", s);
    bx_hash_put(&nm->taken, s, (void *)s);
    return s;
}

/* Whether a value of the graph is called s. */
static bool taken(names *nm, const char *s) { return bx_hash_get(&nm->vnames, s) != NULL; }

static int names_build(names *nm, const byoc_graph *g, bx_arena *a, byoc_error *err)
{
    memset(nm, 0, sizeof *nm);
    nm->a = a;
    bx_hash_init(&nm->taken);
    bx_hash_init(&nm->vnames);
    if (!(nm->bn = bx_names_build(g, err)))
        return -1;
    for (int i = 0; i < bx_value_count(nm->bn); i++) {
        int vn, vf;
        bx_value_at(nm->bn, i, &vn, &vf);
        const char *s = bx_value_name(nm->bn, vn, vf);
        if (s) {
            bx_hash_put(&nm->taken, s, (void *)s);
            bx_hash_put(&nm->vnames, s, (void *)s);
        }
    }
    const bx_onnx_source *src = g->onnx;
    for (int i = 0; src && i < src->nvalues; i++)
        bx_hash_put(&nm->taken, src->values[i].name, (void *)src->values[i].name);
    return 0;
}

static void names_free(names *nm)
{
    bx_hash_free(&nm->taken);
    bx_hash_free(&nm->vnames);
    bx_names_destroy(nm->bn);
}

static const char *name_of(names *nm, val v)
{
    const char *s = bx_value_name(nm->bn, v.node, v.field);
    return s ? s : "";
}

/* ---- the writer's state --------------------------------------------------- */

/* A list of values; with `dedup`, each once (a hash of them), in the
 * order first added. */
typedef struct tlist {
    val *v;
    int n, cap;
    bool dedup;
    bx_hash set;                /* dedup: "node.field" -> 1 */
} tlist;

typedef struct part {
    tlist in, out;
    const char *file;           /* set before write_part: the name it writes */
    const char *graph_name;     /* NULL: partition_P_TARGET */
    const char *runtime;
    int copied;                 /* model nodes written as themselves */
    int emitted;                /* calls written from the graph */
} part;

typedef struct sw {
    const byoc_result *r;
    const byoc_graph *g;
    const bx_onnx_source *src;  /* NULL: not read from ONNX */
    bool rewrite;
    bx_arena a;
    names nm;
    byoc_error *err;
    int n;                      /* graph nodes */
    int np;
    part *parts;
    tlist model_out;
    /* The model, when read from ONNX. */
    Onnx__ModelProto *mp;
    bx_hash inits;              /* initializer name -> TensorProto */
    int nonnx;                  /* model nodes */
    int *ncalls;                /* per model node: calls made for it */
    int *call_part;             /* per model node: its calls' partition, -2 mixed, -1 none */
    char *verbatim;             /* per model node: written as itself where its calls are */
    int *group;                 /* per model node: union-find parent (group_of) */
    int *members_start, *members; /* per group leader: its model nodes, CSR */
    int *inc;                   /* per model node: p + 1 once written into partition p */
    int *visiting;              /* per model node: p + 1 while include_node is in it */
    int *check_ok;              /* per model node: the epoch it was last found writable in */
    int *check_bad;             /* per model node: p + 1 once found not writable in p */
    int epoch;                  /* one per group checked: its reads are collected anew */
    char *decided;              /* per group leader: planned */
    const char *data_dir;       /* the model's folder, for external data */
    const char *out_dir;        /* the folder files are being written into */
    bx_hash links_own;
    bx_hash *links;             /* external data files linked into out_dir */
    bx_arena *links_arena;      /* where their names live */
    const char *temp_base;      /* made-up names in the files start with it + ".p" */
    /* The placement written: r's, or a kernel's (see "Kernels" below). */
    const int *node_part;       /* per graph node: its partition, or -1 */
    const byoc_partition *P;    /* the partitions */
    int only;                   /* plan_parts: only this partition; -1: all */
    /* Kernels (onnx_kernels.c): one node set at a time as a standalone
     * model, constants without data given random data. */
    struct bx_random_data *rd;  /* NULL: writing a placement */
    bool fatal;                 /* a failure that is not the kernel's (writing a file) */
} sw;

static int fail(sw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(sw *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    bx_error_set(w->err, NULL, 0, 0, "%s", buf);
    return -1;
}

static void tl_push(sw *w, tlist *t, val v)
{
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 8;
        val *nv = BX_NEWN(&w->a, val, cap);
        if (t->n)
            memcpy(nv, t->v, sizeof *nv * (size_t)t->n);
        t->v = nv;
        t->cap = cap;
    }
    t->v[t->n++] = v;
}

static const char *val_key(char *buf, size_t size, val v)
{
    snprintf(buf, size, "%d.%d", v.node, v.field);
    return buf;
}

/* Add v unless a deduplicating list has it. */
static void tl_add(sw *w, tlist *t, val v)
{
    if (!t->dedup) {
        tl_push(w, t, v);
        return;
    }
    char key[32];
    if (bx_hash_get(&t->set, val_key(key, sizeof key, v)))
        return;
    bx_hash_put(&t->set, bx_arena_strdup(&w->a, key), (void *)1);
    tl_push(w, t, v);
}

static bool tl_has(const tlist *t, val v)
{
    char key[32];
    return t->dedup && bx_hash_get(&t->set, val_key(key, sizeof key, v)) != NULL;
}

static void tl_dedup(tlist *t)
{
    t->dedup = true;
    bx_hash_init(&t->set);
}

static void tl_free(tlist *t)
{
    if (t->dedup)
        bx_hash_free(&t->set);
}

/* The partition a value is made in: -1 for inputs and constants. */
static int made_in(sw *w, val v)
{
    byoc_node_kind k = byoc_node_kind_of(w->g, v.node);
    if (k != BYOC_N_CALL)
        return -1;
    return w->node_part[v.node];
}

/* A constant of a Relay model without contents (meta[relay.Constant][0]:
 * the text holds no weights): each partition reading it takes it as an
 * input, and plan.json lists it among the model's inputs as a weight. */
static bool weight_input(sw *w, int x)
{
    return !w->src && !w->rd && byoc_node_kind_of(w->g, x) == BYOC_N_CONST &&
           !byoc_node_const_value(w->g, x);
}

/* The values node `a` stands for, as ONNX tensors: a projection of a
 * call is its field, a tuple its fields (nested tuples flattened, from a
 * work list), a constant none unless keep_consts.  Appends to out. */
static int expand(sw *w, int a, tlist *out, bool keep_consts)
{
    int stack[BYOC_MAX_TUPLE_DEPTH * 4 + 4];
    int sp = 0;
    /* A tuple's fields are pushed in reverse, so they come out in order;
     * a tuple of tensors and calls' fields, however wide, is walked in
     * place, and only tuples nesting tuples use the stack. */
    stack[sp++] = a;
    while (sp) {
        int x = stack[--sp];
        switch (byoc_node_kind_of(w->g, x)) {
        case BYOC_N_CONST:
            if (keep_consts || weight_input(w, x))
                tl_add(w, out, (val){x, -1});
            break;
        case BYOC_N_INPUT:
            tl_add(w, out, (val){x, -1});
            break;
        case BYOC_N_CALL:
            if (byoc_node_field_count(w->g, x) >= 0) {
                for (int f = 0; f < byoc_node_field_count(w->g, x); f++)
                    tl_add(w, out, (val){x, f});
            } else
                tl_add(w, out, (val){x, -1});
            break;
        case BYOC_N_PROJ: {
            int base = byoc_node_arg(w->g, x, 0);
            int idx = byoc_node_proj_index(w->g, x);
            if (byoc_node_kind_of(w->g, base) == BYOC_N_CALL)
                tl_add(w, out, (val){base, idx});
            else if (byoc_node_kind_of(w->g, base) == BYOC_N_TUPLE &&
                     idx < byoc_node_arg_count(w->g, base)) {
                if (sp >= (int)(sizeof stack / sizeof stack[0]))
                    return fail(w, "tuples nest too deep");
                stack[sp++] = byoc_node_arg(w->g, base, idx);
            } else
                return fail(w, "node #%d: a projection of a nested tuple has no ONNX form", x);
            break;
        }
        case BYOC_N_TUPLE: {
            int nf = byoc_node_arg_count(w->g, x);
            /* Fields that are themselves tuples go on the stack; the
             * rest are added here, in order.  Mixed tuples are rare; keep
             * the order by pushing everything when any field nests. */
            bool nests = false;
            for (int f = 0; f < nf; f++) {
                int y = byoc_node_arg(w->g, x, f);
                byoc_node_kind k = byoc_node_kind_of(w->g, y);
                nests |= k == BYOC_N_TUPLE ||
                         (k == BYOC_N_PROJ &&
                          byoc_node_kind_of(w->g, byoc_node_arg(w->g, y, 0)) != BYOC_N_CALL) ||
                         (k == BYOC_N_CALL && byoc_node_field_count(w->g, y) >= 0);
            }
            if (!nests) {
                /* Tensors and calls' fields: in order, here (a Split of
                 * thousands of outputs into one Concat). */
                for (int f = 0; f < nf; f++) {
                    int y = byoc_node_arg(w->g, x, f);
                    byoc_node_kind k = byoc_node_kind_of(w->g, y);
                    if (k == BYOC_N_PROJ)
                        tl_add(w, out, (val){byoc_node_arg(w->g, y, 0),
                                             byoc_node_proj_index(w->g, y)});
                    else if (k != BYOC_N_CONST || keep_consts || weight_input(w, y))
                        tl_add(w, out, (val){y, -1});
                }
                break;
            }
            if (sp + nf > (int)(sizeof stack / sizeof stack[0]))
                return fail(w, "node #%d: a tuple of %d fields nesting tuples has no ONNX form",
                            x, nf);
            for (int f = nf - 1; f >= 0; f--)
                stack[sp++] = byoc_node_arg(w->g, x, f);
            break;
        }
        }
    }
    return 0;
}

/* ---- boundaries ----------------------------------------------------------- */

static int boundaries(sw *w)
{
    tlist tmp = {0};
    for (int p = 0; p < w->np; p++) {
        tl_dedup(&w->parts[p].in);
        tl_dedup(&w->parts[p].out);
    }
    tl_dedup(&w->model_out);
    for (int p = 0; p < w->np; p++) {
        const byoc_partition *P = &w->P[p];
        for (int i = 0; i < P->nnodes; i++) {
            int x = P->nodes[i];
            if (w->node_part[x] != p)
                continue;       /* a kernel's "everything else" lists all nodes */
            int na = byoc_node_arg_count(w->g, x);
            for (int k = 0; k < na; k++) {
                tmp.n = 0;
                if (expand(w, byoc_node_arg(w->g, x, k), &tmp, false) < 0)
                    return -1;
                for (int j = 0; j < tmp.n; j++)
                    if (made_in(w, tmp.v[j]) != p)
                        tl_add(w, &w->parts[p].in, tmp.v[j]);
            }
        }
    }
    int out = byoc_graph_output(w->g);
    if (out < 0)
        return fail(w, "the graph has no output");
    if (expand(w, out, &w->model_out, true) < 0)
        return -1;
    for (int i = 0; i < w->model_out.n; i++)
        if (byoc_node_kind_of(w->g, w->model_out.v[i].node) == BYOC_N_CONST)
            return fail(w, "the model returns a constant, which no partition computes");
    return 0;
}

static int cmp_val(const void *a, const void *b)
{
    const val *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return (x->field > y->field) - (x->field < y->field);
}

/* Outputs: the values each partition makes that another reads or the
 * model returns, in node order. */
static void outputs(sw *w)
{
    for (int q = 0; q < w->np; q++)
        for (int i = 0; i < w->parts[q].in.n; i++) {
            int p = made_in(w, w->parts[q].in.v[i]);
            if (p >= 0)
                tl_add(w, &w->parts[p].out, w->parts[q].in.v[i]);
        }
    for (int i = 0; i < w->model_out.n; i++) {
        int p = made_in(w, w->model_out.v[i]);
        if (p >= 0)
            tl_add(w, &w->parts[p].out, w->model_out.v[i]);
    }
    for (int p = 0; p < w->np; p++)
        if (w->parts[p].out.n > 1)
            qsort(w->parts[p].out.v, (size_t)w->parts[p].out.n, sizeof(val), cmp_val);
}

static const byoc_tensor_type *val_type(sw *w, val v)
{
    return byoc_node_type(w->g, v.node, v.field);
}


/* ---- the model's own nodes -------------------------------------------------- */

static const bx_onnx_value *onnx_value(sw *w, const char *name)
{
    if (!w->src)
        return NULL;
    int lo = 0, hi = w->src->nvalues - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        int c = strcmp(w->src->values[mid].name, name);
        if (c == 0)
            return &w->src->values[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

/* The value a graph node stands for (lowering's canonical value: a
 * projection of a call is its field); the node itself when it is not one
 * tensor (a tuple-typed call). */
static val val_of(sw *w, int x)
{
    val v;
    if (bx_value_canon(w->nm.bn, x, -1, &v.node, &v.field))
        return v;
    return (val){x, -1};
}

static bool eight_bit(byoc_dtype dt) { return dt == BYOC_DT_INT8 || dt == BYOC_DT_UINT8; }

/* Model nodes whose calls share a value no model tensor names (a QDQ
 * group: the Conv's int32 result read by the QuantizeLinear's requantize)
 * are written together or not at all: a union-find over model nodes. */
static int group_of(sw *w, int o)
{
    int r = o;
    while (w->group[r] != r)
        r = w->group[r];
    while (w->group[o] != r) {
        int next = w->group[o];
        w->group[o] = r;
        o = next;
    }
    return r;
}

static void unite(sw *w, int a, int b)
{
    a = group_of(w, a);
    b = group_of(w, b);
    if (a != b)
        w->group[a > b ? a : b] = a < b ? a : b;   /* the earlier node leads */
}

/* Which model nodes can be written as themselves: the calls of their
 * group all in one partition, and every node made for them that the
 * model returns one of their outputs. */
static void choose_verbatim(sw *w)
{
    const byoc_graph *g = w->g;
    int no = w->nonnx;
    w->ncalls = BX_NEWN(&w->a, int, no + 1);
    w->call_part = BX_NEWN(&w->a, int, no + 1);
    w->verbatim = BX_NEWN(&w->a, char, no + 1);
    w->group = BX_NEWN(&w->a, int, no + 1);
    for (int i = 0; i < no; i++) {
        w->call_part[i] = -1;
        w->ncalls[i] = 0;
        w->group[i] = i;
    }
    /* The graph nodes that stand for a model tensor. */
    const Onnx__GraphProto *gp = w->mp->graph;
    char *is_out = calloc((size_t)w->n + 1, 1);
    if (!is_out)
        bx_oom();
    for (int i = 0; i < no; i++) {
        const Onnx__NodeProto *np = gp->node[i];
        for (size_t k = 0; k < np->n_output; k++) {
            const bx_onnx_value *v = onnx_value(w, np->output[k]);
            if (v && v->node >= 0)
                is_out[v->node] = 1;
            /* The integer value a DequantizeLinear kept: a reader gets it
             * back by quantizing the model's tensor (requantize_outputs). */
            if (v && v->node < 0 && v->dq_data >= 0 &&
                eight_bit(byoc_node_type(g, v->dq_data, -1)->dtype))
                is_out[v->dq_data] = 1;
        }
    }
    char *bad = calloc((size_t)no + 1, 1);
    if (!bad)
        bx_oom();
    int gout = byoc_graph_output(g);
    for (int y = 0; y < w->n; y++) {
        int na = byoc_node_arg_count(g, y);
        int oy = g->nodes[y].origin;
        for (int k = 0; k <= na; k++) {
            int x = k < na ? byoc_node_arg(g, y, k) : (y == gout ? y : -1);
            if (x < 0)
                continue;
            int ox = g->nodes[x].origin;
            byoc_node_kind kx = byoc_node_kind_of(g, x);
            if (ox < 0 || ox >= no || kx == BYOC_N_CONST || kx == BYOC_N_INPUT || is_out[x] ||
                (k < na && ox == oy))
                continue;
            if (k < na && oy >= 0 && oy < no)
                unite(w, ox, oy);
            else
                bad[ox] = 1;    /* the model returns a value no tensor names */
        }
    }
    /* A group is written where its exits are: the calls whose values
     * another group or the model's outputs read.  Its other calls that
     * the placement put elsewhere are written there from the graph too
     * (the int32 cast before an integer average pool, say), and the
     * group's own nodes recompute them where it is written. */
    char *exit = calloc((size_t)w->n + 1, 1);
    if (!exit)
        bx_oom();
    for (int y = 0; y < w->n; y++) {
        int na = byoc_node_arg_count(g, y);
        int oy = g->nodes[y].origin;
        int gy = oy >= 0 && oy < no ? group_of(w, oy) : -1;
        for (int k = 0; k <= na; k++) {
            int x = k < na ? byoc_node_arg(g, y, k) : (y == gout ? y : -1);
            if (x < 0)
                continue;
            int ox = g->nodes[x].origin;
            if (ox < 0 || ox >= no)
                continue;
            if (k == na || group_of(w, ox) != gy)
                exit[x] = 1;
        }
    }
    /* Through projections and tuples to the calls making them. */
    for (int x = w->n - 1; x >= 0; x--)
        if (exit[x] && byoc_node_kind_of(g, x) != BYOC_N_CALL)
            for (int k = 0; k < byoc_node_arg_count(g, x); k++)
                exit[byoc_node_arg(g, x, k)] = 1;
    int *exit_part = BX_NEWN(&w->a, int, no + 1);
    for (int i = 0; i < no; i++)
        exit_part[i] = -1;
    for (int x = 0; x < w->n; x++) {
        int o = g->nodes[x].origin;
        if (o < 0 || o >= no || byoc_node_kind_of(g, x) != BYOC_N_CALL)
            continue;
        int r = group_of(w, o);
        w->ncalls[o]++;
        int p = w->node_part[x];
        w->call_part[r] = w->call_part[r] == -1 || w->call_part[r] == p ? p : -2;
        if (exit[x])
            exit_part[r] = exit_part[r] == -1 || exit_part[r] == p ? p : -2;
    }
    for (int i = 0; i < no; i++)
        if (group_of(w, i) == i && w->call_part[i] == -2 && exit_part[i] >= 0)
            w->call_part[i] = exit_part[i];
    free(exit);
    for (int i = 0; i < no; i++)
        if (bad[i])
            w->call_part[group_of(w, i)] = -2;
    for (int i = 0; i < no; i++) {
        int r = group_of(w, i);
        w->verbatim[i] = !w->rewrite && w->call_part[r] >= 0;
        w->call_part[i] = w->call_part[r];
    }
    /* The members of each group, in model order, for write_part. */
    w->members_start = BX_NEWN(&w->a, int, no + 2);
    w->members = BX_NEWN(&w->a, int, no + 1);
    memset(w->members_start, 0, sizeof(int) * (size_t)(no + 2));
    for (int i = 0; i < no; i++)
        w->members_start[group_of(w, i) + 1]++;
    for (int i = 0; i < no; i++)
        w->members_start[i + 1] += w->members_start[i];
    int *fill = calloc((size_t)no + 1, sizeof *fill);
    if (!fill)
        bx_oom();
    for (int i = 0; i < no; i++) {
        int r = group_of(w, i);
        w->members[w->members_start[r] + fill[r]++] = i;
    }
    free(fill);
    free(bad);
    free(is_out);
}

/* ---- one partition ------------------------------------------------------------ */

typedef struct pw {
    sw *w;
    int p;
    bx_ob b;
    bx_hash have;               /* tensor names available in the partition */
    bx_hash added_inits;
    tlist extra_in;             /* inputs the model's nodes read beyond the calls' */
    int depth;                  /* include_node calls open */
    bx_hash outnames;           /* a copied node's output -> the name it got here */
} pw;

static bool have(pw *x, const char *name) { return bx_hash_get(&x->have, name) != NULL; }
static void mark(pw *x, const char *name)
{
    if (!have(x, name))
        bx_hash_put(&x->have, bx_arena_strdup(&x->w->a, name), (void *)1);
}

/* ---- data the model does not carry (kernels) ------------------------------ */

/* Whether every dimension of ty is known. */
static bool static_type(const byoc_tensor_type *ty)
{
    if (!ty || ty->rank < 0 || ty->dtype == BYOC_DT_VOID)
        return false;
    for (int k = 0; k < ty->rank; k++)
        if (ty->dims[k] < 0)
            return false;
    return true;
}

static bool external(const Onnx__TensorProto *t)
{
    return t && t->has_data_location &&
           t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
}

/* Whether the model holds t's data: inline, or in an external file that
 * is there and long enough (the shared models are graphs only, their
 * weights' files never shipped). */
static bool has_data(sw *w, const Onnx__TensorProto *t)
{
    if (external(t)) {
        const char *loc = NULL;
        long long off = 0, len = -1;
        for (size_t k = 0; k < t->n_external_data; k++) {
            const Onnx__StringStringEntryProto *e = t->external_data[k];
            if (!e->key || !e->value)
                continue;
            if (strcmp(e->key, "location") == 0)
                loc = e->value;
            else if (strcmp(e->key, "offset") == 0)
                off = strtoll(e->value, NULL, 10);
            else if (strcmp(e->key, "length") == 0)
                len = strtoll(e->value, NULL, 10);
        }
        struct stat st;
        if (!loc || off < 0 ||
            stat(bx_arena_printf(&w->a, "%s/%s", w->data_dir, loc), &st) != 0 ||
            !S_ISREG(st.st_mode))
            return false;
        return len < 0 ? off <= st.st_size : len <= st.st_size && off <= st.st_size - len;
    }
    for (size_t k = 0; k < t->n_dims; k++)
        if (t->dims[k] == 0)
            return true;        /* no elements: nothing to carry */
    return t->raw_data.len > 0 || t->n_float_data || t->n_int32_data || t->n_string_data ||
           t->n_int64_data || t->n_double_data || t->n_uint64_data;
}

/* Random data of t's type and shape, under t's name. */
static Onnx__TensorProto *random_like(sw *w, const Onnx__TensorProto *t, const char *key)
{
    int dt = ox_dtype(t->data_type);
    if (dt < 0 || dt == BYOC_DT_VOID || t->n_dims > BYOC_MAX_RANK) {
        fail(w, "tensor '%s' has no data in the model, and no random data of its type can be "
                "made", t->name ? t->name : "");
        return NULL;
    }
    int64_t dims[BYOC_MAX_RANK];
    for (size_t k = 0; k < t->n_dims; k++) {
        if (t->dims[k] < 0) {
            fail(w, "tensor '%s' has a negative dimension", t->name ? t->name : "");
            return NULL;
        }
        dims[k] = t->dims[k];
    }
    Onnx__TensorProto *c = bx_random_tensor(w->rd, &w->a, key, t->name, (byoc_dtype)dt, dims,
                                            (int)t->n_dims, w->err);
    if (!c)
        w->fatal = true;
    return c;
}

/* Names the kernel writer gives its files, which a linked weight file
 * must not take. */
static bool kernel_reserved(const char *location)
{
    const char *base = strrchr(location, '/') ? strrchr(location, '/') + 1 : location;
    size_t n = strlen(base);
    return strcmp(base, "kernels.json") == 0 || strcmp(base, BX_RANDOM_DATA_FILE) == 0 ||
           (base[0] == 'k' && base[1] >= '0' && base[1] <= '9' && n > 5 &&
            strcmp(base + n - 5, ".onnx") == 0);
}

/* Inputs whose values an op needs as they are (a shape, axes, sizes):
 * random ones would not do.  Bit k: input k. */
static bool needs_value(const Onnx__NodeProto *np, size_t k)
{
    static const struct { const char *op; unsigned inputs; } ops[] = {
        {"Reshape", 1u << 1}, {"Expand", 1u << 1}, {"Tile", 1u << 1},
        {"Slice", 0xfu << 1}, {"Pad", 1u << 1 | 1u << 3}, {"Unsqueeze", 1u << 1},
        {"Squeeze", 1u << 1}, {"ConstantOfShape", 1u}, {"Resize", 0x7u << 1},
        {"Upsample", 1u << 1}, {"TopK", 1u << 1}, {"OneHot", 1u << 1}, {"Split", 1u << 1},
        {"Range", 0x7u}, {"CumSum", 1u << 1}, {"Trilu", 1u << 1}, {"ReduceSum", 1u << 1},
        {"ReduceMean", 1u << 1}, {"ReduceMax", 1u << 1}, {"ReduceMin", 1u << 1},
        {"ReduceProd", 1u << 1}, {"ReduceL1", 1u << 1}, {"ReduceL2", 1u << 1},
        {"ReduceLogSumExp", 1u << 1}, {"ReduceSumSquare", 1u << 1},
        {"NonMaxSuppression", 0x7u << 2}, {"CenterCropPad", 1u << 1}, {"Col2Im", 0x3u << 1},
    };
    if ((np->domain && np->domain[0] && strcmp(np->domain, "ai.onnx") != 0) || k >= 32)
        return false;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(np->op_type, ops[i].op) == 0)
            return (ops[i].inputs >> k) & 1u;
    return false;
}

/* An initializer the model holds no data for, or a Constant's tensor so. */
static bool without_data(sw *w, const char *name)
{
    const bx_onnx_value *v = onnx_value(w, name);
    if (v && v->n > 0)
        return false;           /* the reader knows it */
    const Onnx__TensorProto *t = bx_hash_get(&w->inits, name);
    if (t)
        return !has_data(w, t);
    if (!v || v->producer < 0 || v->producer >= w->nonnx)
        return false;
    const Onnx__NodeProto *np = w->mp->graph->node[v->producer];
    if (strcmp(np->op_type, "Constant") != 0)
        return false;
    for (size_t a = 0; a < np->n_attribute; a++)
        if (np->attribute[a]->t && !has_data(w, np->attribute[a]->t))
            return true;
    return false;
}

/* An initializer of the model under `name`, its external data linked
 * into the output folder. */
/* A copy of the model's tensor t, its external data (if any) linked into
 * the output folder; NULL with the error set. */
static Onnx__TensorProto *relinked(sw *w, const Onnx__TensorProto *t, const char *key)
{
    if (w->rd && !has_data(w, t))
        return random_like(w, t, key);
    Onnx__TensorProto *c = BX_NEW(&w->a, Onnx__TensorProto);
    *c = *t;
    if (!t->has_data_location || t->data_location != ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL)
        return c;
    c->external_data = BX_NEWN(&w->a, Onnx__StringStringEntryProto *, t->n_external_data + 1);
    for (size_t k = 0; k < t->n_external_data; k++) {
        Onnx__StringStringEntryProto *e = BX_NEW(&w->a, Onnx__StringStringEntryProto);
        *e = *t->external_data[k];
        c->external_data[k] = e;
        if (!e->key || strcmp(e->key, "location") != 0 || !e->value)
            continue;
        const char *linked;
        if (w->rd && kernel_reserved(e->value)) {
            w->fatal = true;
            fail(w, "external data file '%s' has the name of a file the kernel writer makes "
                    "(kernels.json, %s, kN_TARGET.onnx); rename it", e->value,
                 BX_RANDOM_DATA_FILE);
            return NULL;
        }
        if (bx_onnx_link_data(w->links_arena, w->links, w->data_dir, w->out_dir, e->value, &linked,
                              NULL, w->err) < 0) {
            w->fatal = true;
            return NULL;
        }
        e->value = (char *)linked;
    }
    return c;
}

static int add_model_init(pw *x, const Onnx__TensorProto *t, const char *name)
{
    sw *w = x->w;
    if (bx_hash_get(&x->added_inits, name))
        return 0;
    Onnx__TensorProto *c = relinked(w, t, t->name);
    if (!c)
        return -1;
    c->name = bx_arena_strdup(&w->a, name);
    bx_ob_add_init(&x->b, c);
    bx_hash_put(&x->added_inits, c->name, c);
    mark(x, name);
    return 0;
}

/* A model node's attributes, with tensors holding external data relinked
 * (a Constant's weights); the attributes are shared otherwise. */
static int relink_attrs(sw *w, Onnx__NodeProto *c)
{
    bool any = false;
    for (size_t a = 0; a < c->n_attribute; a++) {
        const Onnx__TensorProto *t = c->attribute[a]->t;
        any |= t && t->has_data_location &&
               t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    }
    if (!any)
        return 0;
    Onnx__AttributeProto **as = BX_NEWN(&w->a, Onnx__AttributeProto *, c->n_attribute + 1);
    for (size_t a = 0; a < c->n_attribute; a++) {
        as[a] = c->attribute[a];
        const Onnx__TensorProto *t = as[a]->t;
        if (!t || !t->has_data_location ||
            t->data_location != ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL)
            continue;
        Onnx__AttributeProto *ca = BX_NEW(&w->a, Onnx__AttributeProto);
        *ca = *as[a];
        const char *key = t->name && t->name[0] ? t->name : c->n_output ? c->output[0] : "";
        if (!(ca->t = relinked(w, t, key)))
            return -1;
        as[a] = ca;
    }
    c->attribute = as;
    return 0;
}

static int add_const(pw *x, int node, const char *name);
static int include_node(pw *x, int i, bool check);

/* Elements a constant may be written with from its value (4M: far above
 * any shape or scale, below what would make a sub-model unreasonable). */
#define CONST_MAX ((size_t)1 << 22)


/* Whether add_const can write constant node `node` (or its Constant). */
static bool const_ok(pw *x, int node)
{
    sw *w = x->w;
    const char *src = byoc_node_name(w->g, node);
    const Onnx__TensorProto *t = src ? bx_hash_get(&w->inits, src) : NULL;
    const byoc_tensor_type *ty = byoc_node_type(w->g, node, -1);
    if (t && (int)t->n_dims == ty->rank)
        return true;
    const bx_onnx_value *ov = src ? onnx_value(w, src) : NULL;
    if ((ov && ov->n > 0) || (ov && ov->producer >= 0))
        return true;
    return (byoc_node_const_value(w->g, node) && ty->rank >= 0) || (w->rd && static_type(ty));
}

/* A constant the partition reads, under name: an initializer (add_const),
 * else the model's Constant node that makes it.  -1 when neither. */
static int want_const(pw *x, int node, const char *name)
{
    sw *w = x->w;
    int rc = add_const(x, node, name);
    if (rc <= 0)
        return rc;
    const bx_onnx_value *cv = onnx_value(w, byoc_node_name(w->g, node));
    if (!cv || include_node(x, cv->producer, false) < 0 || !have(x, name))
        return fail(w, "constant '%s' has no data in the model to write",
                    byoc_node_name(w->g, node));
    return 0;
}

/* A constant node as an initializer named name: the model's initializer
 * it is, or its value. */
static int add_const(pw *x, int node, const char *name)
{
    sw *w = x->w;
    if (bx_hash_get(&x->added_inits, name))
        return 0;
    const char *src = byoc_node_name(w->g, node);
    const Onnx__TensorProto *t = src ? bx_hash_get(&w->inits, src) : NULL;
    const byoc_tensor_type *ty = byoc_node_type(w->g, node, -1);
    if (t) {
        bool same = (int)t->n_dims == ty->rank;
        for (int k = 0; same && k < ty->rank; k++)
            same = t->dims[k] == ty->dims[k];
        if (same)
            return add_model_init(x, t, name);
    }
    const bx_onnx_value *ov = src ? onnx_value(w, src) : NULL;
    if (ov && ov->n > 0 && ov->type.rank == ty->rank) {
        Onnx__TensorProto *c = bx_ob_tensor(&x->b, name, ov->type.dtype, ov->type.dims,
                                            ov->type.rank, ov->i, ov->f, ov->n);
        bx_ob_add_init(&x->b, c);
        bx_hash_put(&x->added_inits, c->name, c);
        mark(x, name);
        return 0;
    }
    const byoc_value *cv = byoc_node_const_value(w->g, node);
    const byoc_value *flat = cv ? bx_node_const_flat(w->g, node) : NULL;
    /* From its value: a list, or a scalar the constant repeats; at most
     * CONST_MAX elements (a scalar filling a weight tensor is not written
     * out element by element). */
    size_t n = 1;
    bool small = flat && ty->rank >= 0;
    for (int k = 0; small && k < ty->rank; k++) {
        size_t d = (size_t)(ty->dims[k] > 0 ? ty->dims[k] : 0);
        small = d == 0 || n <= CONST_MAX / d;
        n *= d;
    }
    if (small && n <= CONST_MAX) {
        int64_t *iv = BX_NEWN(&w->a, int64_t, n + 1);
        double *fv = BX_NEWN(&w->a, double, n + 1);
        size_t got = 0;
        if (flat->kind == BYOC_V_LIST) {
            for (size_t i = 0; i < flat->u.list.n && got < n; i++, got++) {
                const byoc_value *e = &flat->u.list.items[i];
                fv[got] = e->kind == BYOC_V_FLOAT ? e->u.f : e->kind == BYOC_V_BOOL ? e->u.b
                                                                    : (double)e->u.i;
                iv[got] = e->kind == BYOC_V_FLOAT ? bx_ob_to_int(e->u.f) : e->kind == BYOC_V_BOOL
                                                                          ? e->u.b : e->u.i;
            }
        } else if (n >= 1) {
            fv[0] = flat->kind == BYOC_V_FLOAT ? flat->u.f : flat->kind == BYOC_V_BOOL ? flat->u.b
                                                                     : (double)flat->u.i;
            iv[0] = flat->kind == BYOC_V_FLOAT ? bx_ob_to_int(flat->u.f) : flat->kind == BYOC_V_BOOL
                                                                           ? flat->u.b : flat->u.i;
            for (got = 1; got < n; got++) {
                fv[got] = fv[0];
                iv[got] = iv[0];
            }
        }
        if (got == n) {
            bool fl = byoc_dtype_bits(ty->dtype) && (ty->dtype == BYOC_DT_FLOAT32 ||
                      ty->dtype == BYOC_DT_FLOAT64 || ty->dtype == BYOC_DT_FLOAT16 ||
                      ty->dtype == BYOC_DT_BFLOAT16);
            Onnx__TensorProto *c = bx_ob_tensor(&x->b, name, ty->dtype, ty->dims, ty->rank,
                                                fl ? NULL : iv, fl ? fv : NULL, n);
            bx_ob_add_init(&x->b, c);
            bx_hash_put(&x->added_inits, c->name, c);
            mark(x, name);
            return 0;
        }
    }
    if (ov && ov->producer >= 0)
        return 1;               /* a Constant's: the caller copies it */
    if (w->rd && static_type(ty)) {
        Onnx__TensorProto *c = bx_random_tensor(w->rd, &w->a, src ? src : name, name, ty->dtype,
                                                ty->dims, ty->rank, w->err);
        if (!c)
            return -1;
        bx_ob_add_init(&x->b, c);
        bx_hash_put(&x->added_inits, c->name, c);
        mark(x, name);
        return 0;
    }
    return fail(w, "constant %s%s%s has no data in the model to write", src ? "'" : "#",
                src ? src : bx_arena_printf(&w->a, "%d", node), src ? "'" : "");
}

static int include_here(pw *x, int i, bool check);

/* The contents of constant node c as integers, NULL when not known. */
static const int64_t *const_ints(sw *w, int c, size_t *n)
{
    const byoc_value *flat = byoc_node_kind_of(w->g, c) == BYOC_N_CONST
                                 ? bx_node_const_flat(w->g, c) : NULL;
    if (!flat)
        return NULL;
    size_t k = flat->kind == BYOC_V_LIST ? flat->u.list.n : 1;
    int64_t *v = BX_NEWN(&w->a, int64_t, k + 1);
    for (size_t i = 0; i < k; i++) {
        const byoc_value *e = flat->kind == BYOC_V_LIST ? &flat->u.list.items[i] : flat;
        if (e->kind != BYOC_V_INT && e->kind != BYOC_V_BOOL)
            return NULL;
        v[i] = e->kind == BYOC_V_INT ? e->u.i : e->u.b;
    }
    *n = k;
    return v;
}

/* A QuantizeLinear or DequantizeLinear (op) of the model tensor v's
 * quantization - its scale constant, its zero point written in dt, the
 * integer side's dtype - from in to out; NULL when the scale cannot be
 * written. */
static Onnx__NodeProto *qdq_node(pw *x, const bx_onnx_value *v, const char *op, byoc_dtype dt,
                                 const int64_t *zp, size_t nz, const char *in, const char *out)
{
    sw *w = x->w;
    const byoc_tensor_type *zt = byoc_node_type(w->g, v->dq_zp, -1);
    const char *sname = name_of(&w->nm, (val){v->dq_scale, -1});
    if (want_const(x, v->dq_scale, sname) < 0)
        return NULL;
    Onnx__TensorProto *zpt = bx_ob_tensor(&x->b, NULL, dt, zt->dims, zt->rank, zp, NULL, nz);
    const char *zname = bx_ob_add_init(&x->b, zpt);
    Onnx__NodeProto *n = bx_ob_node1(&x->b, op, in, sname, zname, out);
    if (v->dq_axis >= 0 && x->b.opset >= 13)
        bx_ob_attr_int(&x->b, n, "axis", v->dq_axis);
    return n;
}

/* A model tensor the reader kept as a dequantization of an integer value
 * (a QDQ model's DequantizeLinear, which the partition's own nodes read as
 * float): written as that DequantizeLinear, on the integer value's name,
 * with the zero point in the integer value's dtype. */
static const char *dequantized(pw *x, const bx_onnx_value *v, bool check)
{
    sw *w = x->w;
    const byoc_tensor_type *dt = byoc_node_type(w->g, v->dq_data, -1);
    size_t nz = 0;
    const int64_t *zp = const_ints(w, v->dq_zp, &nz);
    const byoc_tensor_type *zt = byoc_node_type(w->g, v->dq_zp, -1);
    if (byoc_node_kind_of(w->g, v->dq_data) == BYOC_N_CALL &&
        made_in(w, val_of(w, v->dq_data)) > x->p)
        return NULL;
    if (!zp || !dt || dt->rank < 0 || !zt || byoc_node_kind_of(w->g, v->dq_scale) != BYOC_N_CONST ||
        !const_ok(x, v->dq_scale) || byoc_node_kind_of(w->g, v->dq_data) == BYOC_N_TUPLE ||
        (byoc_node_kind_of(w->g, v->dq_data) == BYOC_N_CONST && !const_ok(x, v->dq_data)))
        return NULL;
    /* The float tensor's own name, unless its integer twin took it. */
    const char *name = bx_hash_get(&x->outnames, v->name);
    if (!name && taken(&w->nm, v->name))
        name = check ? v->name
                     : unique(&w->nm, bx_arena_printf(&w->a, "%s.p%d", v->name, x->p));
    if (!name)
        name = v->name;
    val dv = val_of(w, v->dq_data);
    if (byoc_node_kind_of(w->g, dv.node) != BYOC_N_CONST && made_in(w, dv) != x->p &&
        !tl_has(&w->parts[x->p].in, dv))
        tl_add(w, &x->extra_in, dv);
    if (check || have(x, name))
        return name;
    if (name != v->name)
        bx_hash_put(&x->outnames, v->name, (void *)name);
    const char *dname = name_of(&w->nm, dv);
    if (byoc_node_kind_of(w->g, dv.node) == BYOC_N_CONST && want_const(x, dv.node, dname) < 0)
        return NULL;
    if (!qdq_node(x, v, "DequantizeLinear", dt->dtype, zp, nz, dname, name))
        return NULL;
    mark(x, name);
    return name;
}

/* The name a model node's input `t` has in the partition, making it
 * available (an initializer, a copied node, a boundary input).  check:
 * only say whether it can be, changing nothing.  NULL when it cannot. */
static const char *resolve_input(pw *x, const char *t, bool check)
{
    sw *w = x->w;
    const char *renamed = bx_hash_get(&x->outnames, t);
    if (renamed && have(x, renamed))
        return renamed;
    const bx_onnx_value *v = onnx_value(w, t);
    if (!v)
        return NULL;
    if (v->node >= 0) {
        int X = v->node;
        byoc_node_kind k = byoc_node_kind_of(w->g, X);
        if (k == BYOC_N_CONST) {
            const char *name = name_of(&w->nm, (val){X, -1});
            if (check)
                return const_ok(x, X) ? name : NULL;
            return want_const(x, X, name) < 0 ? NULL : name;
        }
        if (k == BYOC_N_TUPLE)
            return NULL;
        val vv = val_of(w, X);
        const char *name = name_of(&w->nm, vv);
        int made = made_in(w, vv);
        if (made > x->p)
            return NULL;        /* a later partition's: it cannot cross back */
        if (made != x->p && !tl_has(&w->parts[x->p].in, vv))
            tl_add(w, &x->extra_in, vv);
        return name;
    }
    if (v->dq_data >= 0)
        return dequantized(x, v, check);
    if (v->n > 0) {
        if (check || bx_hash_get(&x->added_inits, t))
            return t;
        Onnx__TensorProto *c = bx_ob_tensor(&x->b, t, v->type.dtype, v->type.dims, v->type.rank,
                                            v->i, v->f, v->n);
        bx_ob_add_init(&x->b, c);
        bx_hash_put(&x->added_inits, c->name, c);
        mark(x, t);
        return t;
    }
    if (v->is_init) {
        const Onnx__TensorProto *tp = bx_hash_get(&w->inits, t);
        if (!tp)
            return NULL;
        if (!check && add_model_init(x, tp, t) < 0)
            return NULL;
        return t;
    }
    if (v->producer >= 0 && v->producer < w->nonnx) {
        int m = v->producer;
        if (w->ncalls[m] > 0 && !(w->verbatim[m] && w->call_part[m] == x->p))
            return NULL;
        if (include_node(x, m, check) < 0)
            return NULL;
        return t;
    }
    return NULL;
}

/* The name model node i's output k gets. */
static const char *output_name(pw *x, int i, const char *t)
{
    sw *w = x->w;
    const bx_onnx_value *v = onnx_value(w, t);
    const char *name = t;
    if (v && v->node >= 0 && w->g->nodes[v->node].origin == i)
        return name_of(&w->nm, val_of(w, v->node));
    /* The graph has the value elsewhere (an alias), or a graph value
     * took the name (the integer twin of a QDQ tensor): this copy gets a
     * name of its own, which the partition's readers look up. */
    if ((v && v->node >= 0) || taken(&w->nm, t))
        name = unique(&w->nm, bx_arena_printf(&w->a, "%s.p%d", t, x->p));
    if (name != t)
        bx_hash_put(&x->outnames, t, (void *)name);
    return name;
}

/* Whether value X must be given by name in the partition: another
 * partition or the model reads it, or a call written from the graph. */
static bool needed_here(pw *x, val X)
{
    sw *w = x->w;
    if (tl_has(&w->parts[x->p].out, X))
        return true;
    for (int k = 0; k < byoc_node_consumer_count(w->g, X.node); k++) {
        int y = byoc_node_consumer(w->g, X.node, k);
        int oy = w->g->nodes[y].origin;
        if (w->node_part[y] == x->p &&
            !(oy >= 0 && oy < w->nonnx && w->verbatim[oy] && w->call_part[oy] == x->p))
            return true;
    }
    return false;
}


/* After model node i is written: its outputs the graph holds as integer
 * tensors (a QDQ model's DequantizeLinear kept as the integer value it
 * dequantizes) are quantized back where the partition must give the
 * integer value, which is exact. */
static void requantize_outputs(pw *x, int i, const Onnx__NodeProto *c)
{
    sw *w = x->w;
    const Onnx__NodeProto *np = w->mp->graph->node[i];
    for (size_t k = 0; k < np->n_output; k++) {
        const bx_onnx_value *v = np->output[k][0] ? onnx_value(w, np->output[k]) : NULL;
        if (!v || v->dq_data < 0 || w->g->nodes[v->dq_data].origin != i)
            continue;
        val X = val_of(w, v->dq_data);
        const char *xname = name_of(&w->nm, X);
        if (have(x, xname) || !needed_here(x, X))
            continue;
        size_t nz = 0;
        const int64_t *zp = const_ints(w, v->dq_zp, &nz);
        const byoc_tensor_type *dt = byoc_node_type(w->g, X.node, X.field);
        if (!zp || !dt || !byoc_node_type(w->g, v->dq_zp, -1))
            continue;
        if (qdq_node(x, v, "QuantizeLinear", dt->dtype, zp, nz, c->output[k], xname))
            mark(x, xname);
    }
}

/* Names a subgraph reads from enclosing graphs: inputs of its nodes that
 * nothing in it defines, nested subgraphs included (a work list). */
static void free_names(sw *w, const Onnx__NodeProto *np, bx_hash *out, const char ***list, int *n)
{
    typedef struct { const Onnx__GraphProto *g; } item;
    int cap = 16, sp = 0, nl = 0, capl = 16;
    item *stack = malloc(sizeof *stack * (size_t)cap);
    const char **l = BX_NEWN(&w->a, const char *, capl);
    if (!stack)
        bx_oom();
    bx_hash defined;
    bx_hash_init(&defined);
    for (size_t a = 0; a < np->n_attribute; a++) {
        const Onnx__AttributeProto *at = np->attribute[a];
        if (at->g) {
            if (sp == cap && !(stack = realloc(stack, sizeof *stack * (size_t)(cap *= 2))))
                bx_oom();
            stack[sp++].g = at->g;
        }
        for (size_t k = 0; k < at->n_graphs; k++) {
            if (sp == cap && !(stack = realloc(stack, sizeof *stack * (size_t)(cap *= 2))))
                bx_oom();
            stack[sp++].g = at->graphs[k];
        }
    }
    /* Names defined anywhere inside shadow enclosing ones: a
     * simplification that holds for models whose names are unique, as
     * ONNX requires (SSA across scopes). */
    item *all = NULL;
    int nall = 0, capall = 0;
    while (sp) {
        const Onnx__GraphProto *g = stack[--sp].g;
        if (nall == capall && !(all = realloc(all, sizeof *all * (size_t)(capall = capall ? capall * 2 : 16))))
            bx_oom();
        all[nall++].g = g;
        for (size_t k = 0; k < g->n_input; k++)
            bx_hash_put(&defined, g->input[k]->name, (void *)1);
        for (size_t k = 0; k < g->n_initializer; k++)
            bx_hash_put(&defined, g->initializer[k]->name, (void *)1);
        for (size_t k = 0; k < g->n_node; k++) {
            const Onnx__NodeProto *m = g->node[k];
            for (size_t o = 0; o < m->n_output; o++)
                bx_hash_put(&defined, m->output[o], (void *)1);
            for (size_t a = 0; a < m->n_attribute; a++) {
                const Onnx__AttributeProto *at = m->attribute[a];
                size_t need = (at->g ? 1 : 0) + at->n_graphs;
                while ((size_t)(cap - sp) < need)
                    if (!(stack = realloc(stack, sizeof *stack * (size_t)(cap *= 2))))
                        bx_oom();
                if (at->g)
                    stack[sp++].g = at->g;
                for (size_t q = 0; q < at->n_graphs; q++)
                    stack[sp++].g = at->graphs[q];
            }
        }
    }
    for (int i = 0; i < nall; i++) {
        const Onnx__GraphProto *g = all[i].g;
        for (size_t k = 0; k < g->n_node; k++)
            for (size_t q = 0; q < g->node[k]->n_input; q++) {
                const char *s = g->node[k]->input[q];
                if (!s[0] || bx_hash_get(&defined, s) || bx_hash_get(out, s))
                    continue;
                bx_hash_put(out, s, (void *)1);
                if (nl == capl) {
                    const char **l2 = BX_NEWN(&w->a, const char *, capl * 2);
                    memcpy(l2, l, sizeof *l * (size_t)nl);
                    l = l2;
                    capl *= 2;
                }
                l[nl++] = s;
            }
    }
    free(all);
    free(stack);
    bx_hash_free(&defined);
    *list = l;
    *n = nl;
}

/* How deep include_node may go through nodes that made no call (chains
 * of Identity or Transpose): past it, the reader's node is written from
 * the graph instead, so no model makes the recursion deeper. */
enum { INCLUDE_DEPTH = 64 };

/* Write model node i into the partition (check: only whether it can be;
 * the answer is remembered for the partition, since what is written does
 * not change it).  Its inputs are resolved first, so what it reads comes
 * before it. */
static int include_node(pw *x, int i, bool check)
{
    sw *w = x->w;
    int stamp = x->p + 1;
    if (i < 0 || i >= w->nonnx)
        return -1;
    if (w->inc[i] == stamp || (check && w->check_ok[i] == w->epoch))
        return 0;
    if (w->check_bad[i] == stamp || w->visiting[i] == stamp || x->depth >= INCLUDE_DEPTH)
        return -1;
    w->visiting[i] = stamp;
    x->depth++;
    int rc = include_here(x, i, check);
    x->depth--;
    w->visiting[i] = 0;
    if (check && rc == 0)
        w->check_ok[i] = w->epoch;
    else if (check)
        w->check_bad[i] = stamp;
    return rc;
}

/* Whether a node's subgraphs, or its attributes' tensor lists, hold
 * external weights: relink_attrs relinks only a TENSOR attribute, so such
 * a node is not copied (a work list over the subgraphs, no recursion). */
static bool nested_external(const Onnx__NodeProto *np)
{
    size_t cap = 16, sp = 0;
    const Onnx__NodeProto **stack = malloc(sizeof *stack * cap);
    if (!stack)
        bx_oom();
    stack[sp++] = np;
    bool found = false;
    bool top = true;
    while (sp && !found) {
        const Onnx__NodeProto *n = stack[--sp];
        for (size_t a = 0; a < n->n_attribute && !found; a++) {
            const Onnx__AttributeProto *at = n->attribute[a];
            found |= !top && external(at->t);
            for (size_t k = 0; k < at->n_tensors; k++)
                found |= external(at->tensors[k]);
            for (size_t q = 0; q < at->n_graphs + (at->g ? 1 : 0) && !found; q++) {
                const Onnx__GraphProto *g = q < at->n_graphs ? at->graphs[q] : at->g;
                for (size_t k = 0; k < g->n_initializer; k++)
                    found |= external(g->initializer[k]);
                found |= g->n_sparse_initializer > 0;
                for (size_t k = 0; k < g->n_node && !found; k++) {
                    if (sp == cap) {
                        const Onnx__NodeProto **ns = realloc(stack, sizeof *stack * (cap *= 2));
                        if (!ns) {
                            free(stack);
                            bx_oom();
                        }
                        stack = ns;
                    }
                    stack[sp++] = g->node[k];
                }
            }
        }
        top = false;
    }
    free(stack);
    return found;
}

static int include_here(pw *x, int i, bool check)
{
    sw *w = x->w;
    const Onnx__NodeProto *np = w->mp->graph->node[i];
    if (check && nested_external(np))
        return -1;
    const char **in = BX_NEWN(&w->a, const char *, np->n_input + 1);
    for (size_t k = 0; k < np->n_input; k++) {
        if (!np->input[k][0]) {
            in[k] = "";
            continue;
        }
        if (w->rd && needs_value(np, k) && without_data(w, np->input[k]))
            return check ? -1
                         : fail(w, "the model holds no data for '%s', input %zu of a %s, whose "
                                   "values cannot be made up", np->input[k], k, np->op_type);
        if (!(in[k] = resolve_input(x, np->input[k], check)))
            return -1;
    }
    /* Names its subgraphs read from outside. */
    bx_hash seen;
    bx_hash_init(&seen);
    const char **fr = NULL;
    int nfr = 0;
    free_names(w, np, &seen, &fr, &nfr);
    bx_hash_free(&seen);
    const char **fr_in = BX_NEWN(&w->a, const char *, nfr + 1);
    for (int k = 0; k < nfr; k++)
        if (!(fr_in[k] = resolve_input(x, fr[k], check)))
            return -1;
    if (check)
        return 0;
    for (int k = 0; k < nfr; k++)
        if (strcmp(fr_in[k], fr[k]) != 0 && !have(x, fr[k])) {
            bx_ob_node1(&x->b, "Identity", fr_in[k], NULL, NULL, fr[k]);
            mark(x, fr[k]);
        }
    Onnx__NodeProto *c = BX_NEW(&w->a, Onnx__NodeProto);
    *c = *np;
    c->input = BX_NEWN(&w->a, char *, np->n_input + 1);
    for (size_t k = 0; k < np->n_input; k++)
        c->input[k] = (char *)in[k];
    c->output = BX_NEWN(&w->a, char *, np->n_output + 1);
    for (size_t k = 0; k < np->n_output; k++) {
        c->output[k] = np->output[k][0] ? (char *)output_name(x, i, np->output[k]) : "";
        if (c->output[k][0])
            mark(x, c->output[k]);
    }
    if (relink_attrs(w, c) < 0)
        return -1;
    w->inc[i] = x->p + 1;
    w->parts[x->p].copied++;
    bx_ob_add_node(&x->b, c);
    requantize_outputs(x, i, c);
    return 0;
}

/* ---- emitted calls -------------------------------------------------------------- */

static int emit_call(pw *x, int node)
{
    sw *w = x->w;
    const byoc_graph *g = w->g;
    tlist args = {0};
    int na = byoc_node_arg_count(g, node);
    for (int k = 0; k < na; k++)
        if (expand(w, byoc_node_arg(g, node, k), &args, true) < 0)
            return -1;
    const char **in = BX_NEWN(&w->a, const char *, args.n + 1);
    for (int k = 0; k < args.n; k++) {
        val v = args.v[k];
        const char *name = name_of(&w->nm, v);
        if (byoc_node_kind_of(g, v.node) == BYOC_N_CONST && !weight_input(w, v.node) &&
            want_const(x, v.node, name) < 0)
            return -1;
        in[k] = name;
    }
    int nf = byoc_node_field_count(g, node);
    int nout = nf >= 0 ? nf : 1;
    const char **out = BX_NEWN(&w->a, const char *, nout + 1);
    for (int f = 0; f < nout; f++) {
        out[f] = name_of(&w->nm, (val){node, nf >= 0 ? f : -1});
        mark(x, out[f]);
    }
    if (byoc_node_is_opaque(g, node)) {
        bx_error_set(w->err, byoc_graph_source(g), byoc_node_line(g, node), byoc_node_col(g, node),
                     "'%s' has no ONNX form here: the model's node could not be written as "
                     "itself", byoc_node_op_name(g, node));
        return -1;
    }
    if (bx_onnx_emit_call(&x->b, g, node, in, args.n, out, nout, w->err) == 0) {
        w->parts[x->p].emitted++;
        return 0;
    }
    /* Where the call is in the model, for the user to find it. */
    if (!w->err->file[0] && byoc_node_line(g, node) > 0) {
        char msg[sizeof w->err->msg];
        snprintf(msg, sizeof msg, "%s", w->err->msg);
        bx_error_set(w->err, byoc_graph_source(g), byoc_node_line(g, node),
                     byoc_node_col(g, node), "%s", msg);
    }
    return -1;
}

/* ---- types ---------------------------------------------------------------------- */


static Onnx__ValueInfoProto *value_info(sw *w, const char *name, const byoc_tensor_type *t)
{
    Onnx__ValueInfoProto *vi = BX_NEW(&w->a, Onnx__ValueInfoProto);
    onnx__value_info_proto__init(vi);
    vi->name = (char *)name;
    if (!t || t->dtype == BYOC_DT_VOID)
        return vi;
    Onnx__TypeProto *tp = BX_NEW(&w->a, Onnx__TypeProto);
    onnx__type_proto__init(tp);
    Onnx__TypeProto__Tensor *tt = BX_NEW(&w->a, Onnx__TypeProto__Tensor);
    onnx__type_proto__tensor__init(tt);
    tt->has_elem_type = 1;
    tt->elem_type = bx_onnx_elem_type(t->dtype);
    if (t->rank >= 0) {
        Onnx__TensorShapeProto *sh = BX_NEW(&w->a, Onnx__TensorShapeProto);
        onnx__tensor_shape_proto__init(sh);
        sh->n_dim = (size_t)t->rank;
        sh->dim = BX_NEWN(&w->a, Onnx__TensorShapeProto__Dimension *, t->rank + 1);
        for (int k = 0; k < t->rank; k++) {
            Onnx__TensorShapeProto__Dimension *d = BX_NEW(&w->a, Onnx__TensorShapeProto__Dimension);
            onnx__tensor_shape_proto__dimension__init(d);
            if (t->dims[k] >= 0) {
                d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
                d->dim_value = t->dims[k];
            } else if (t->dims[k] <= -2) {
                d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
                d->dim_param = (char *)byoc_graph_symbol_name(w->g, (int)(-2 - t->dims[k]));
            }
            sh->dim[k] = d;
        }
        tt->shape = sh;
    }
    tp->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    tp->tensor_type = tt;
    vi->type = tp;
    return vi;
}

/* ---- ordering -------------------------------------------------------------------- */

/* The nodes of b in an order where every tensor is written before it is
 * read (ONNX requires it; the model's nodes and emitted ones interleave):
 * Kahn's algorithm, first-in first-out, so an order that already holds is
 * kept. */
static int order_nodes(pw *x)
{
    sw *w = x->w;
    size_t n = x->b.nnodes;
    bx_hash prod;
    bx_hash_init(&prod);
    for (size_t i = 0; i < n; i++)
        for (size_t o = 0; o < x->b.nodes[i]->n_output; o++)
            if (x->b.nodes[i]->output[o][0])
                bx_hash_put(&prod, x->b.nodes[i]->output[o], (void *)(i + 1));
    int *indeg = calloc(n + 1, sizeof *indeg);
    int *start = calloc(n + 2, sizeof *start);
    size_t nedges = 0;
    for (size_t i = 0; i < n; i++)
        nedges += x->b.nodes[i]->n_input;
    int *adj = calloc(nedges + 1, sizeof *adj);
    int *queue = calloc(n + 1, sizeof *queue);
    int *fill = calloc(n + 1, sizeof *fill);
    if (!indeg || !start || !adj || !queue || !fill)
        bx_oom();
    /* Edges producer -> consumer, CSR by producer: count, then fill. */
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < x->b.nodes[i]->n_input; k++) {
            const char *s = x->b.nodes[i]->input[k];
            size_t pi = s[0] ? (size_t)bx_hash_get(&prod, s) : 0;
            if (pi && pi - 1 != i) {
                start[pi]++;
                indeg[i]++;
            }
        }
    for (size_t i = 1; i <= n; i++)
        start[i] += start[i - 1];
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < x->b.nodes[i]->n_input; k++) {
            const char *s = x->b.nodes[i]->input[k];
            size_t pi = s[0] ? (size_t)bx_hash_get(&prod, s) : 0;
            if (pi && pi - 1 != i)
                adj[start[pi - 1] + fill[pi - 1]++] = (int)i;
        }
    size_t qh = 0, qt = 0;
    for (size_t i = 0; i < n; i++)
        if (!indeg[i])
            queue[qt++] = (int)i;
    Onnx__NodeProto **sorted = BX_NEWN(&w->a, Onnx__NodeProto *, n + 1);
    size_t ns = 0;
    while (qh < qt) {
        int i = queue[qh++];
        sorted[ns++] = x->b.nodes[i];
        for (int e = start[i]; e < start[i] + fill[i]; e++)
            if (--indeg[adj[e]] == 0)
                queue[qt++] = adj[e];
    }
    free(indeg);
    free(start);
    free(adj);
    free(queue);
    free(fill);
    bx_hash_free(&prod);
    if (ns != n)
        return fail(w, "partition %d: its nodes form a cycle (an internal error)", x->p);
    memcpy(x->b.nodes, sorted, sizeof *sorted * n);
    return 0;
}

/* ---- writing a partition ----------------------------------------------------------- */

static int write_file(sw *w, const char *path, const void *data, size_t size)
{
    /* A new file, never one there: a linked weight file of the same name
     * would be the model's own weights. */
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (fd >= 0 && !f)
        close(fd);
    if (!f) {
        w->fatal = true;
        return fail(w, "cannot create '%s': %s", path, strerror(errno));
    }
    size_t wr = size ? fwrite(data, 1, size, f) : 0;
    int bad = wr != size || ferror(f);
    if (fclose(f) != 0 || bad) {
        w->fatal = true;
        unlink(path);
        return fail(w, "writing '%s': %s", path, strerror(errno ? errno : EIO));
    }
    return 0;
}

static Onnx__ModelProto *model_shell(sw *w, Onnx__GraphProto *gp, const bx_ob *b)
{
    Onnx__ModelProto *m = BX_NEW(&w->a, Onnx__ModelProto);
    onnx__model_proto__init(m);
    m->graph = gp;
    m->producer_name = "byoc";
    m->producer_version = PACKAGE_VERSION;
    if (w->mp) {
        m->has_ir_version = w->mp->has_ir_version;
        m->ir_version = w->mp->ir_version;
        int extra = b ? b->ndomains : 0;
        m->opset_import = BX_NEWN(&w->a, Onnx__OperatorSetIdProto *,
                                  w->mp->n_opset_import + (size_t)extra + 1);
        for (size_t k = 0; k < w->mp->n_opset_import; k++)
            m->opset_import[m->n_opset_import++] = w->mp->opset_import[k];
        for (int d = 0; d < extra; d++) {
            bool seen = false;
            for (size_t k = 0; k < w->mp->n_opset_import; k++)
                seen |= w->mp->opset_import[k]->domain &&
                        strcmp(w->mp->opset_import[k]->domain, b->domains[d]) == 0;
            if (seen)
                continue;
            Onnx__OperatorSetIdProto *o = BX_NEW(&w->a, Onnx__OperatorSetIdProto);
            onnx__operator_set_id_proto__init(o);
            o->domain = (char *)b->domains[d];
            o->has_version = 1;
            o->version = 1;
            m->opset_import[m->n_opset_import++] = o;
        }
    } else {
        m->has_ir_version = 1;
        m->ir_version = 8;
        m->opset_import = BX_NEWN(&w->a, Onnx__OperatorSetIdProto *, 1);
        Onnx__OperatorSetIdProto *o = BX_NEW(&w->a, Onnx__OperatorSetIdProto);
        onnx__operator_set_id_proto__init(o);
        o->domain = "";
        o->has_version = 1;
        o->version = b ? b->opset : 17;
        m->opset_import[m->n_opset_import++] = o;
    }
    return m;
}

static int model_opset(sw *w)
{
    if (!w->mp)
        return 17;
    int opset = 1;
    for (size_t k = 0; k < w->mp->n_opset_import; k++) {
        const char *d = w->mp->opset_import[k]->domain ? w->mp->opset_import[k]->domain : "";
        if (!d[0] || strcmp(d, "ai.onnx") == 0)
            opset = (int)w->mp->opset_import[k]->version;
    }
    return opset;
}

/* Before anything is written: which groups each partition writes as the
 * model's own nodes, and the values those read beyond what the calls read
 * (a Reshape's shape tensor, computed in another partition), which cross
 * too - so that every partition's outputs are known before the first file
 * is written. */
static void plan_parts(sw *w)
{
    for (int p = 0; p < w->np; p++) {
        if (w->only >= 0 && p != w->only)
            continue;
        pw x;
        memset(&x, 0, sizeof x);
        x.w = w;
        x.p = p;
        bx_hash_init(&x.outnames);
        x.extra_in.dedup = false;
        const byoc_partition *P = &w->P[p];
        for (int i = 0; i < P->nnodes; i++) {
            int node = P->nodes[i];
            int o = w->g->nodes[node].origin;
            if (byoc_node_kind_of(w->g, node) != BYOC_N_CALL || o < 0 || o >= w->nonnx ||
                !w->verbatim[o] || w->call_part[o] != p)
                continue;
            int r = group_of(w, o);
            if (w->decided[r])
                continue;
            w->decided[r] = 1;
            const int *mem = w->members + w->members_start[r];
            int nmem = w->members_start[r + 1] - w->members_start[r];
            w->epoch++;
            x.extra_in.n = 0;
            bool can = true;
            for (int k = 0; k < nmem && can; k++)
                can = w->ncalls[mem[k]] == 0 || include_node(&x, mem[k], true) == 0;
            if (can) {
                for (int k = 0; k < x.extra_in.n; k++)
                    tl_add(w, &w->parts[p].in, x.extra_in.v[k]);
                continue;
            }
            /* Not as themselves: every call of the group from the graph. */
            for (int k = 0; k < nmem; k++)
                w->verbatim[mem[k]] = 0;
        }
        bx_hash_free(&x.outnames);
    }
}

static int write_part(sw *w, int p)
{
    pw x;
    memset(&x, 0, sizeof x);
    x.w = w;
    x.p = p;
    bx_ob_init(&x.b, &w->a, model_opset(w), bx_arena_printf(&w->a, "%s.p%d.", w->temp_base, p));
    bx_hash_init(&x.have);
    bx_hash_init(&x.added_inits);
    bx_hash_init(&x.outnames);
    int rc = 0;
    const byoc_partition *P = &w->P[p];
    for (int i = 0; i < w->parts[p].in.n; i++)
        mark(&x, name_of(&w->nm, w->parts[p].in.v[i]));
    for (int i = 0; i < P->nnodes && rc == 0; i++) {
        int node = P->nodes[i];
        if (byoc_node_kind_of(w->g, node) != BYOC_N_CALL)
            continue;
        int o = w->g->nodes[node].origin;
        if (w->mp && o >= 0 && o < w->nonnx && w->verbatim[o] && w->call_part[o] == p) {
            int r = group_of(w, o);
            const int *mem = w->members + w->members_start[r];
            int nmem = w->members_start[r + 1] - w->members_start[r];
            if (w->inc[o] == p + 1)
                continue;       /* the group is written */
            for (int k = 0; k < nmem && rc == 0; k++)
                if (w->ncalls[mem[k]] > 0)
                    rc = include_node(&x, mem[k], false);
            if (rc < 0 && !w->err->msg[0])
                rc = fail(w, "model node %d (%s) could not be written", o,
                          w->mp->graph->node[o]->op_type);
            continue;
        }
        rc = emit_call(&x, node);
    }
    if (rc == 0 && x.extra_in.n)
        rc = fail(w, "partition %d reads '%s', which planning missed (an internal error)", p,
                  name_of(&w->nm, x.extra_in.v[0]));
    if (rc == 0)
        rc = order_nodes(&x);
    if (rc == 0) {
        Onnx__GraphProto *gp = BX_NEW(&w->a, Onnx__GraphProto);
        onnx__graph_proto__init(gp);
        gp->name = (char *)(w->parts[p].graph_name
                                ? w->parts[p].graph_name
                                : bx_arena_printf(&w->a, "partition_%d_%s", p, P->target->name));
        gp->n_node = x.b.nnodes;
        gp->node = x.b.nodes;
        gp->n_initializer = x.b.ninits;
        gp->initializer = x.b.inits;
        const part *pt = &w->parts[p];
        gp->input = BX_NEWN(&w->a, Onnx__ValueInfoProto *, pt->in.n + 1);
        for (int i = 0; i < pt->in.n; i++)
            gp->input[gp->n_input++] = value_info(w, name_of(&w->nm, pt->in.v[i]),
                                                  val_type(w, pt->in.v[i]));
        /* IR 3 wants every initializer among the graph's inputs too. */
        if (w->mp && w->mp->has_ir_version && w->mp->ir_version < 4) {
            Onnx__ValueInfoProto **in = BX_NEWN(&w->a, Onnx__ValueInfoProto *,
                                                gp->n_input + x.b.ninits + 1);
            memcpy(in, gp->input, sizeof *in * gp->n_input);
            for (size_t k = 0; k < x.b.ninits; k++) {
                const Onnx__TensorProto *t = x.b.inits[k];
                int dt = ox_dtype(t->data_type);
                byoc_tensor_type ty = {dt < 0 ? BYOC_DT_VOID : (byoc_dtype)dt, (int)t->n_dims, {0}};
                for (size_t d = 0; d < t->n_dims && d < BYOC_MAX_RANK; d++)
                    ty.dims[d] = t->dims[d];
                in[gp->n_input++] = value_info(w, t->name, &ty);
            }
            gp->input = in;
        }
        gp->output = BX_NEWN(&w->a, Onnx__ValueInfoProto *, pt->out.n + 1);
        for (int i = 0; i < pt->out.n; i++) {
            const char *nm = name_of(&w->nm, pt->out.v[i]);
            if (!have(&x, nm)) {
                rc = fail(w, "partition %d: output '%s' is not computed by its nodes (an "
                             "internal error)", p, nm);
                break;
            }
            gp->output[gp->n_output++] = value_info(w, nm, val_type(w, pt->out.v[i]));
        }
        if (rc == 0) {
            Onnx__ModelProto *m = model_shell(w, gp, &x.b);
            size_t size = onnx__model_proto__get_packed_size(m);
            uint8_t *buf = malloc(size ? size : 1);
            if (!buf)
                bx_oom();
            onnx__model_proto__pack(m, buf);
            const char *file = w->parts[p].file
                                   ? w->parts[p].file
                                   : bx_arena_printf(&w->a, "p%d_%s.onnx", p, P->target->name);
            rc = write_file(w, bx_arena_printf(&w->a, "%s/%s", w->out_dir, file), buf, size);
            free(buf);
            w->parts[p].file = file;
        }
    }
    bx_hash_free(&x.have);
    bx_hash_free(&x.added_inits);
    bx_hash_free(&x.outnames);
    return rc;
}


/* ---- plan.json --------------------------------------------------------------------- */

static void json_tensor(sw *w, bx_strbuf *b, val v)
{
    const byoc_tensor_type *t = val_type(w, v);
    bx_sb_printf(b, "\"name\": ");
    bx_json_str(b, name_of(&w->nm, v));
    bx_sb_printf(b, ", \"dtype\": ");
    if (t->dtype == BYOC_DT_VOID)
        bx_sb_printf(b, "null");
    else
        bx_json_str(b, byoc_dtype_name(t->dtype));
    bx_sb_printf(b, ", \"shape\": ");
    if (t->rank < 0) {
        bx_sb_printf(b, "null");
        return;
    }
    bx_sb_printf(b, "[");
    for (int k = 0; k < t->rank; k++) {
        if (k)
            bx_sb_printf(b, ", ");
        if (t->dims[k] >= 0)
            bx_sb_printf(b, "%lld", (long long)t->dims[k]);
        else if (t->dims[k] <= -2)
            bx_json_str(b, byoc_graph_symbol_name(w->g, (int)(-2 - t->dims[k])));
        else
            bx_sb_printf(b, "null");
    }
    bx_sb_printf(b, "]");
}

static int write_plan(sw *w, const char *model_path)
{
    const byoc_result *r = w->r;
    bx_strbuf b = {0};
    bx_sb_printf(&b, "{\n  \"version\": 1,\n  \"model\": ");
    bx_json_str(&b, model_path);
    bx_sb_printf(&b, ",\n  \"model_format\": \"%s\"", w->src ? "onnx" : "relay");
    bx_sb_printf(&b, ",\n  \"strategy\": ");
    bx_json_str(&b, r->strategy);
    bx_sb_printf(&b, ",\n  \"cost_us\": %.6g,\n  \"inputs\": [", r->cost * 1e6);
    int ni = 0;
    for (int x = 0; x < w->n; x++)
        if (byoc_node_kind_of(w->g, x) == BYOC_N_INPUT || weight_input(w, x)) {
            bx_sb_printf(&b, "%s\n    {", ni++ ? "," : "");
            json_tensor(w, &b, (val){x, -1});
            bx_sb_printf(&b, "%s}", weight_input(w, x) ? ", \"weight\": true" : "");
        }
    bx_sb_printf(&b, "\n  ],\n  \"outputs\": [");
    for (int i = 0; i < w->model_out.n; i++) {
        bx_sb_printf(&b, "%s\n    {", i ? "," : "");
        json_tensor(w, &b, w->model_out.v[i]);
        int from = made_in(w, w->model_out.v[i]);
        if (from >= 0)
            bx_sb_printf(&b, ", \"from\": %d}", from);
        else
            bx_sb_printf(&b, ", \"from\": null}");
    }
    bx_sb_printf(&b, "\n  ],\n  \"partitions\": [");
    for (int p = 0; p < w->np; p++) {
        const byoc_partition *P = &r->partitions[p];
        int calls = 0;
        for (int i = 0; i < P->nnodes; i++)
            calls += byoc_node_kind_of(w->g, P->nodes[i]) == BYOC_N_CALL;
        bx_sb_printf(&b, "%s\n    {\"file\": ", p ? "," : "");
        bx_json_str(&b, w->parts[p].file);
        bx_sb_printf(&b, ", \"target\": ");
        bx_json_str(&b, P->target->name);
        bx_sb_printf(&b, ", \"device\": ");
        bx_json_str(&b, P->device ? P->device->name : NULL);
        bx_sb_printf(&b, ", \"runtime\": ");
        if (w->parts[p].runtime)
            bx_json_str(&b, w->parts[p].runtime);
        else
            bx_sb_printf(&b, "null");
        bx_sb_printf(&b, ", \"calls\": %d, \"cost_us\": %.6g,\n     \"model_nodes\": %d, "
                         "\"from_graph\": %d,\n     \"inputs\": [", calls, P->cost * 1e6,
                     w->parts[p].copied, w->parts[p].emitted);
        for (int i = 0; i < w->parts[p].in.n; i++) {
            if (i)
                bx_sb_printf(&b, ", ");
            bx_json_str(&b, name_of(&w->nm, w->parts[p].in.v[i]));
        }
        bx_sb_printf(&b, "],\n     \"outputs\": [");
        for (int i = 0; i < w->parts[p].out.n; i++) {
            if (i)
                bx_sb_printf(&b, ", ");
            bx_json_str(&b, name_of(&w->nm, w->parts[p].out.v[i]));
        }
        bx_sb_printf(&b, "]}");
    }
    bx_sb_printf(&b, "\n  ],\n  \"tensors\": [");
    /* Every value read across a boundary, in node order, with the
     * partitions reading it. */
    tlist all = {0};
    tl_dedup(&all);
    for (int p = 0; p < w->np; p++)
        for (int i = 0; i < w->parts[p].in.n; i++)
            tl_add(w, &all, w->parts[p].in.v[i]);
    if (all.n > 1)
        qsort(all.v, (size_t)all.n, sizeof(val), cmp_val);
    bx_hash index;              /* "node.field" -> position + 1 in all */
    bx_hash_init(&index);
    for (int i = 0; i < all.n; i++) {
        char key[32];
        bx_hash_put(&index, bx_arena_strdup(&w->a, val_key(key, sizeof key, all.v[i])),
                    (void *)(intptr_t)(i + 1));
    }
    bx_strbuf *to = calloc((size_t)all.n + 1, sizeof *to);
    if (!to)
        bx_oom();
    for (int p = 0; p < w->np; p++)
        for (int i = 0; i < w->parts[p].in.n; i++) {
            char key[32];
            intptr_t k = (intptr_t)bx_hash_get(&index, val_key(key, sizeof key,
                                                                 w->parts[p].in.v[i]));
            bx_sb_printf(&to[k - 1], "%s%d", to[k - 1].len ? ", " : "", p);
        }
    for (int i = 0; i < all.n; i++) {
        bx_sb_printf(&b, "%s\n    {", i ? "," : "");
        json_tensor(w, &b, all.v[i]);
        int from = made_in(w, all.v[i]);
        if (from >= 0)
            bx_sb_printf(&b, ", \"from\": %d, \"to\": [%s]}", from, to[i].s ? to[i].s : "");
        else
            bx_sb_printf(&b, ", \"from\": null, \"to\": [%s]}", to[i].s ? to[i].s : "");
        bx_sb_free(&to[i]);
    }
    free(to);
    bx_hash_free(&index);
    tl_free(&all);
    bx_sb_printf(&b, "\n  ]\n}\n");
    int rc = write_file(w, bx_arena_printf(&w->a, "%s/plan.json", w->out_dir), b.s ? b.s : "",
                        b.len);
    bx_sb_free(&b);
    return rc;
}

/* ---- the entry point ---------------------------------------------------------------- */

static void remove_tree(const char *dir, sw *w)
{
    /* Only files this writer made: the partitions, plan.json, links. */
    for (int p = 0; p < w->np; p++)
        if (w->parts && w->parts[p].file)
            unlink(bx_arena_printf(&w->a, "%s/%s", dir, w->parts[p].file));
    for (size_t i = 0; i < w->links->n; i++)
        unlink(bx_arena_printf(&w->a, "%s/%s", dir, (const char *)w->links->entries[i].val));
    unlink(bx_arena_printf(&w->a, "%s/plan.json", dir));
    rmdir(dir);
}

/* The built-in "onnx" pass: the partition's model. */
static int onnx_pass(const byoc_lower_ctx *cx, void *user, byoc_error *err)
{
    (void)user;
    (void)err;
    sw *w = cx->run;
    /* The writer reports into its own error; the pass runner wants it in
     * the pass's, to say which pass and partition it came from. */
    byoc_error own;
    byoc_error *outer = w->err;
    byoc_error_clear(&own);
    w->err = &own;
    int rc = write_part(w, cx->part->index);
    w->err = outer;
    if (rc != 0 && err)
        *err = own;
    return rc;
}

/* What every placement of one model shares: the names, and for an ONNX
 * model its file, read again, checked to be the one the graph came from,
 * and unpacked.  *data holds the file's bytes until model_close. */
static int model_open(sw *w, const byoc_graph *g, const char *model_path, void **data,
                      byoc_error *err)
{
    memset(w, 0, sizeof *w);
    w->g = g;
    w->err = err;
    w->src = g->onnx;
    w->n = byoc_graph_node_count(g);
    w->only = -1;
    bx_arena_init(&w->a);
    bx_hash_init(&w->inits);
    bx_hash_init(&w->links_own);
    w->links = &w->links_own;
    w->links_arena = &w->a;
    *data = NULL;
    if (names_build(&w->nm, g, &w->a, err) != 0) {
        w->nm.bn = NULL;
        return -1;
    }
    /* The builder's names ("byoc.p3.7") must be no tensor's of the model. */
    w->temp_base = "byoc";
    for (bool clash = true; clash;) {
        clash = false;
        size_t bl = strlen(w->temp_base);
        for (size_t i = 0; i < w->nm.taken.n && !clash; i++) {
            const char *t = w->nm.taken.entries[i].key;
            clash = strncmp(t, w->temp_base, bl) == 0 && strncmp(t + bl, ".p", 2) == 0;
        }
        if (clash)
            w->temp_base = bx_arena_printf(&w->a, "%s_", w->temp_base);
    }
    if (!w->src)
        return 0;
    size_t size = 0;
    if (!model_path)
        return fail(w, "writing ONNX from an ONNX model needs the model's file");
    if (!(*data = bx_read_file(model_path, &size, err)))
        return -1;
    if (bx_onnx_hash(*data, size) != w->src->hash || size != w->src->size)
        return fail(w, "'%s' is not the model that was read (it changed since)", model_path);
    if (!(w->mp = onnx__model_proto__unpack(NULL, size, *data)) || !w->mp->graph)
        return fail(w, "'%s': cannot read the ONNX model again", model_path);
    w->nonnx = (int)w->mp->graph->n_node;
    if (w->nonnx != w->src->nnodes)
        return fail(w, "'%s' is not the model that was read", model_path);
    for (size_t k = 0; k < w->mp->graph->n_initializer; k++)
        bx_hash_put(&w->inits, w->mp->graph->initializer[k]->name, w->mp->graph->initializer[k]);
    const char *slash = strrchr(model_path, '/');
    w->data_dir = slash ? bx_arena_printf(&w->a, "%.*s", (int)(slash - model_path), model_path)
                        : ".";
    return 0;
}

static void model_close(sw *w, void *data)
{
    if (w->mp)
        onnx__model_proto__free_unpacked(w->mp, NULL);
    free(data);
    if (w->nm.bn)
        names_free(&w->nm);
    bx_hash_free(&w->inits);
    bx_hash_free(&w->links_own);
    bx_arena_free(&w->a);
}

/* Once the placement is set: which model nodes are written as themselves,
 * and the per-node state of writing them. */
static void placement_prepare(sw *w)
{
    if (!w->mp)
        return;
    choose_verbatim(w);
    size_t sz = sizeof(int) * (size_t)(w->nonnx + 1);
    w->inc = memset(bx_arena_alloc(&w->a, sz), 0, sz);
    w->visiting = memset(bx_arena_alloc(&w->a, sz), 0, sz);
    w->check_ok = memset(bx_arena_alloc(&w->a, sz), 0, sz);
    w->check_bad = memset(bx_arena_alloc(&w->a, sz), 0, sz);
    w->decided = memset(bx_arena_alloc(&w->a, (size_t)w->nonnx + 1), 0, (size_t)w->nonnx + 1);
}

static int split(const byoc_result *r, const char *model_path, const char *dir,
                 const byoc_onnx_write_options *o, byoc_error *err)
{
    byoc_error_clear(err);
    byoc_error local;
    if (!err)
        err = &local;
    sw w;
    void *data;
    int rc = model_open(&w, r->graph, model_path, &data, err);
    w.r = r;
    w.rewrite = o && o->rewrite;
    w.np = r->npartitions;
    w.node_part = r->node_partition;
    w.P = r->partitions;
    w.parts = BX_NEWN(&w.a, part, w.np + 1);
    memset(w.parts, 0, sizeof *w.parts * (size_t)(w.np + 1));
    bool made_dir = false;
    const char *tmp = NULL;
    if (rc == 0)
        placement_prepare(&w);
    if (rc == 0)
        rc = boundaries(&w);
    if (rc == 0 && w.mp)
        plan_parts(&w);
    if (rc == 0)
        outputs(&w);
    if (rc == 0) {
        struct stat st;
        if (stat(dir, &st) == 0 && !(S_ISDIR(st.st_mode) && bx_dir_empty(dir)))
            rc = fail(&w, "'%s' exists; give a folder that does not exist yet (or an empty one)",
                      dir);
    }
    if (rc == 0) {
        tmp = bx_arena_printf(&w.a, "%s.tmp%ld", dir, (long)getpid());
        if (mkdir(tmp, 0777) != 0)
            rc = fail(&w, "cannot create '%s': %s", tmp, strerror(errno));
        else
            made_dir = true;
        w.out_dir = tmp;
    }
    if (rc == 0) {
        for (int p = 0; p < w.np; p++)
            w.parts[p].runtime = byoc_target_runtime(byoc_graph_registry(w.g),
                                                     r->partitions[p].target);
        byoc_pass_decl def = {.name = "onnx", .point = BYOC_PASS_PARTITION, .fn = onnx_pass};
        byoc_lower_options lo = {.dir = tmp, .run = &w, .ndefaults = 1, .defaults = &def};
        rc = byoc_result_lower(r, &lo, err);
        for (int p = 0; rc == 0 && p < w.np; p++)
            if (!w.parts[p].file)
                rc = fail(&w, "partition %d (%s): its 'onnx' pass wrote no file", p,
                          r->partitions[p].target->name);
    }
    if (rc == 0)
        rc = write_plan(&w, model_path ? model_path
                                       : byoc_graph_source(w.g) ? byoc_graph_source(w.g) : "");
    if (rc == 0 && rename(tmp, dir) != 0)
        rc = fail(&w, "cannot rename '%s' to '%s': %s", tmp, dir, strerror(errno));
    if (rc != 0 && made_dir)
        remove_tree(tmp, &w);
    for (int p = 0; p < w.np; p++) {
        tl_free(&w.parts[p].in);
        tl_free(&w.parts[p].out);
    }
    tl_free(&w.model_out);
    model_close(&w, data);
    return rc;
}

int byoc_result_write_onnx(const byoc_result *r, const char *model_path, const char *dir,
                           const byoc_onnx_write_options *o, byoc_error *err)
{
    if (!r || !dir) {
        bx_error_set(err, NULL, 0, 0, "no result or no folder");
        return -1;
    }
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, -1);
    int rc = split(r, model_path, dir, o, err);
    bx_oom_close(&guard);
    return rc;
}

int byoc_onnx_set_file(const byoc_lower_ctx *cx, const char *file, byoc_error *err)
{
    sw *w = cx ? cx->run : NULL;
    if (!w || !cx->part || !file || !file[0] || strchr(file, '/') ||
        strcmp(cx->pass ? cx->pass : "", "onnx") != 0) {
        bx_error_set(err, NULL, 0, 0, "byoc_onnx_set_file: only an 'onnx' partition pass can "
                                      "name the file of its partition (a name without '/')");
        return -1;
    }
    for (size_t i = 0; i < w->links->n; i++)
        if (strcmp(w->links->entries[i].val, file) == 0 || strcmp(file, "plan.json") == 0) {
            bx_error_set(err, NULL, 0, 0, "byoc_onnx_set_file: '%s' is a name the writer uses",
                         file);
            return -1;
        }
    w->parts[cx->part->index].file = bx_arena_strdup(&w->a, file);
    return 0;
}

/* ---- kernels: one node set at a time ------------------------------------------------- */

struct bx_kernel_writer {
    sw base;                    /* the model, its names; no placement */
    void *data;
    int *node_part;             /* 1 on the kernel being written, 0 other calls, -1 the rest */
    int *all;                   /* every node: part 0's list (boundaries skips part 1's) */
};

bx_kernel_writer *bx_kernel_writer_open(const byoc_graph *g, const char *model_path,
                                        const char *out_dir, uint64_t seed, bool rewrite,
                                        byoc_error *err)
{
    bx_kernel_writer *k = calloc(1, sizeof *k);
    if (!k)
        bx_oom();
    sw *w = &k->base;
    if (model_open(w, g, model_path, &k->data, err) < 0) {
        model_close(w, k->data);
        free(k);
        return NULL;
    }
    w->out_dir = out_dir;
    w->rewrite = rewrite;
    w->rd = bx_random_data_create(out_dir, seed);
    k->node_part = malloc(sizeof *k->node_part * (size_t)(w->n + 1));
    k->all = malloc(sizeof *k->all * (size_t)(w->n + 1));
    if (!k->node_part || !k->all)
        bx_oom();
    w->node_part = k->node_part;
    for (int x = 0; x < w->n; x++) {
        k->node_part[x] = byoc_node_kind_of(g, x) == BYOC_N_CALL ? 0 : -1;
        k->all[x] = x;
    }
    return k;
}

/* A copy of a hash table (its keys shared). */
static void hash_copy(bx_hash *to, const bx_hash *from)
{
    *to = *from;
    to->slots = NULL;
    to->entries = NULL;
    if (from->cap) {
        if (!(to->slots = malloc(sizeof *to->slots * from->cap)))
            bx_oom();
        memcpy(to->slots, from->slots, sizeof *to->slots * from->cap);
    }
    if (from->entries_cap) {
        if (!(to->entries = malloc(sizeof *to->entries * from->entries_cap)))
            bx_oom();
        memcpy(to->entries, from->entries, sizeof *to->entries * from->n);
    }
}

int bx_kernel_writer_write(bx_kernel_writer *k, const int *nodes, int n,
                           const byoc_target_decl *t, const char *file, const char *graph_name,
                           bx_arena *a, bx_kernel_input **in, int *nin, byoc_error *err)
{
    byoc_error_clear(err);
    *in = NULL;
    *nin = 0;
    /* Everything this kernel needs lives in its own arena and tables,
     * freed before the next: the model and its names are shared, the
     * names made up here are not (a copy of the table of those taken). */
    sw w = k->base;
    w.err = err;
    w.fatal = false;
    bx_arena_init(&w.a);
    hash_copy(&w.nm.taken, &k->base.nm.taken);
    w.nm.a = &w.a;
    const byoc_registry *reg = byoc_graph_registry(w.g);
    byoc_partition P[2];
    memset(P, 0, sizeof P);
    P[0].target = P[1].target = t;
    P[0].device = P[1].device = byoc_target_device(reg, t);
    P[0].nnodes = w.n;
    P[0].nodes = k->all;
    P[1].nnodes = n;
    P[1].nodes = nodes;
    w.P = P;
    w.np = 2;
    w.only = 1;
    w.parts = BX_NEWN(&w.a, part, 3);
    memset(w.parts, 0, sizeof *w.parts * 3);
    w.parts[1].file = file;
    w.parts[1].graph_name = graph_name;
    memset(&w.model_out, 0, sizeof w.model_out);
    for (int i = 0; i < n; i++)
        k->node_part[nodes[i]] = 1;
    placement_prepare(&w);
    int rc = boundaries(&w);
    if (rc == 0 && w.mp)
        plan_parts(&w);
    if (rc == 0)
        outputs(&w);
    if (rc == 0 && w.parts[1].out.n == 0)
        rc = fail(&w, "the kernel computes nothing the model reads");
    /* A model's inputs and outputs need an element type at least. */
    for (int io = 0; io < 2 && rc == 0; io++) {
        const tlist *l = io ? &w.parts[1].out : &w.parts[1].in;
        for (int i = 0; i < l->n && rc == 0; i++) {
            const byoc_tensor_type *ty = val_type(&w, l->v[i]);
            if (!ty || ty->dtype == BYOC_DT_VOID)
                rc = fail(&w, "the kernel's %s '%s' has no known type", io ? "output" : "input",
                          name_of(&w.nm, l->v[i]));
        }
    }
    if (rc == 0)
        rc = write_part(&w, 1);
    if (rc == 0) {
        const part *pt = &w.parts[1];
        *in = BX_NEWN(a, bx_kernel_input, pt->in.n + 1);
        for (int i = 0; i < pt->in.n; i++) {
            (*in)[i].name = name_of(&w.nm, pt->in.v[i]);
            (*in)[i].type = val_type(&w, pt->in.v[i]);
        }
        *nin = pt->in.n;
    }
    for (int i = 0; i < n; i++)
        k->node_part[nodes[i]] = byoc_node_kind_of(w.g, nodes[i]) == BYOC_N_CALL ? 0 : -1;
    for (int p = 0; p < 2; p++) {
        tl_free(&w.parts[p].in);
        tl_free(&w.parts[p].out);
    }
    tl_free(&w.model_out);
    bx_hash_free(&w.nm.taken);
    bx_arena_free(&w.a);
    if (rc == 0)
        return 0;
    if (!err->msg[0])
        bx_error_set(err, NULL, 0, 0, "the kernel could not be written");
    return w.fatal ? -1 : 1;
}

int bx_kernel_writer_finish(bx_kernel_writer *k, byoc_error *err)
{
    return bx_random_data_finish(k->base.rd, err);
}

void bx_kernel_writer_close(bx_kernel_writer *k, bool remove)
{
    if (!k)
        return;
    sw *w = &k->base;
    if (remove)
        for (size_t i = 0; i < w->links->n; i++)
            unlink(bx_arena_printf(&w->a, "%s/%s", w->out_dir,
                                   (const char *)w->links->entries[i].val));
    if (w->rd)
        bx_random_data_destroy(w->rd, remove);
    free(k->node_part);
    free(k->all);
    model_close(w, k->data);
    free(k);
}

#else /* !HAVE_ONNX */

int byoc_result_write_onnx(const byoc_result *r, const char *model_path, const char *dir,
                           const byoc_onnx_write_options *o, byoc_error *err)
{
    (void)r, (void)model_path, (void)dir, (void)o;
    bx_error_set(err, NULL, 0, 0, "byoc was built without ONNX support");
    return -1;
}

int byoc_onnx_set_file(const byoc_lower_ctx *cx, const char *file, byoc_error *err)
{
    (void)cx, (void)file;
    bx_error_set(err, NULL, 0, 0, "byoc was built without ONNX support");
    return -1;
}

bx_kernel_writer *bx_kernel_writer_open(const byoc_graph *g, const char *model_path,
                                        const char *out_dir, uint64_t seed, bool rewrite,
                                        byoc_error *err)
{
    (void)g, (void)model_path, (void)out_dir, (void)seed, (void)rewrite;
    bx_error_set(err, NULL, 0, 0, "byoc was built without ONNX support");
    return NULL;
}

int bx_kernel_writer_write(bx_kernel_writer *k, const int *nodes, int n,
                           const byoc_target_decl *t, const char *file, const char *graph_name,
                           bx_arena *a, bx_kernel_input **in, int *nin, byoc_error *err)
{
    (void)k, (void)nodes, (void)n, (void)t, (void)file, (void)graph_name, (void)a;
    *in = NULL;
    *nin = 0;
    bx_error_set(err, NULL, 0, 0, "byoc was built without ONNX support");
    return -1;
}

int bx_kernel_writer_finish(bx_kernel_writer *k, byoc_error *err)
{
    (void)k, (void)err;
    return 0;
}

void bx_kernel_writer_close(bx_kernel_writer *k, bool remove) { (void)k, (void)remove; }

#endif /* HAVE_ONNX */
