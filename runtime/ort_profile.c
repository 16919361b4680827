/* Measured costs from an ONNX Runtime profile (doc/cost-table.md, "From an
 * ONNX Runtime profile").
 *
 * ONNX Runtime's profiler writes one Chrome-trace event per node per run:
 * "cat": "Node", "name": "<node>_kernel_time", "dur" in microseconds, and
 * in "args" the op ORT ran, its execution provider and the node's index in
 * ORT's graph.  The node is the model's own when its name, op and index
 * say so (an unnamed node is profiled as "<op>_<index>"); an optimized
 * session also runs nodes its graph transformers made, and a few of those
 * name the model node they grew from: FusedConv keeps its Conv's name,
 * FusedGemm is "fused <Gemm>", MatMul with Add is "<MatMul>/MatMulAddFusion"
 * (a Gemm), MatMul with a scale "<MatMul>/MatMulScaleFusion/" (FusedMatMul),
 * each perhaps with "_token_N" after it to keep it unique.
 *
 * The one idea: which model nodes such a node ran is read off the model and
 * the profile together, never guessed.  A fusion absorbs the model nodes
 * next to its anchor that the transformer can absorb (the anchor's only
 * consumer, when its one output feeds nothing else) and that the profile
 * does not list themselves: a model node ORT ran on its own is not inside
 * a fusion.  The same holds for the folds that keep a Conv's name and op
 * (BatchNormalization, Add and Mul of constants folded into the weights).
 * A node wanted by two fusions, a fused node whose absorbed nodes are not
 * there, and every node whose name is not the model's are reported, not
 * mapped.  The graph calls made from the covered model nodes (the ONNX
 * reader stamps each call with its model node) must then be exactly one
 * candidate kernel of a target for the time to become its table line: a
 * fusion that byoc runs as several kernels would need its time split, and
 * is reported instead.  Calls computed from constants alone (the transpose
 * of a MatMul's weight the reader makes) are left out on both sides: any
 * runtime computes them once, at load. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/lower.h>
#include <byoc/partition.h>

#include "arena.h"
#include "die.h"
#include "errfmt.h"
#include "file.h"
#include "graph_impl.h"
#include "hash.h"
#include "json_read.h"
#include "partition_impl.h"
#include "strbuf.h"
#include "writers/onnx_files.h"
#ifdef HAVE_ONNX
#include "runtime/onnx.pb-c.h"
#endif

/* Without protobuf-c no model is read from ONNX, and there is nothing to
 * map a profile to. */
#ifdef HAVE_ONNX

/* ---- the model's nodes ------------------------------------------------------ */

typedef struct mnode {
    const char *name, *op;
    int next;                   /* the only consumer, when its outputs feed
                                   one input of one node and no graph
                                   output; else -1 */
    int nin;
    int *producer;              /* per input: the model node writing it, -1 */
    int first_call;             /* graph calls made for it (by origin) */
    int ncalls;
} mnode;

typedef struct model {
    int n;
    mnode *nodes;
    bx_hash by_name;            /* name -> 1 + index; (void *)-1 ... see below */
} model;

#define DUP_NAME ((void *)(uintptr_t)-1)

/* Read the model again for its node names and edges (the graph keeps
 * neither), after checking it is the model that was read. */
static int model_read(model *m, bx_arena *a, const byoc_graph *g, const char *path,
                      byoc_error *err)
{
    Onnx__ModelProto *mp = bx_onnx_reread(g, path, err);
    if (!mp)
        return -1;
    const Onnx__GraphProto *gp = mp->graph;
    int n = (int)gp->n_node;
    m->n = n;
    m->nodes = BX_NEWN(a, mnode, n + 1);
    bx_hash_init(&m->by_name);
    /* Tensor -> producer, and per tensor how many inputs read it. */
    bx_hash prod;
    bx_hash_init(&prod);
    size_t nt = 0;
    for (int i = 0; i < n; i++)
        nt += gp->node[i]->n_output;
    int *uses = BX_NEWN(a, int, nt + 1);
    int *use_by = BX_NEWN(a, int, nt + 1);
    int *out_base = BX_NEWN(a, int, n + 1);
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        const Onnx__NodeProto *np = gp->node[i];
        mnode *x = &m->nodes[i];
        x->name = bx_arena_strdup(a, np->name ? np->name : "");
        x->op = bx_arena_strdup(a, np->op_type ? np->op_type : "");
        x->next = -1;
        x->first_call = -1;
        if (x->name[0]) {
            void *old = bx_hash_get(&m->by_name, x->name);
            bx_hash_put(&m->by_name, x->name,
                        old ? DUP_NAME : (void *)(uintptr_t)(i + 1));
        }
        out_base[i] = (int)k;
        for (size_t o = 0; o < np->n_output; o++, k++) {
            uses[k] = 0;
            use_by[k] = -1;
            if (np->output[o] && np->output[o][0])
                bx_hash_put(&prod, bx_arena_strdup(a, np->output[o]),
                            (void *)(uintptr_t)(k + 1));
        }
    }
    /* Producers of inputs, and the edges out of each tensor. */
    for (int i = 0; i < n; i++) {
        const Onnx__NodeProto *np = gp->node[i];
        mnode *x = &m->nodes[i];
        x->nin = (int)np->n_input;
        x->producer = BX_NEWN(a, int, np->n_input + 1);
        for (size_t q = 0; q < np->n_input; q++) {
            x->producer[q] = -1;
            if (!np->input[q] || !np->input[q][0])
                continue;
            uintptr_t t = (uintptr_t)bx_hash_get(&prod, np->input[q]);
            if (!t)
                continue;
            uses[t - 1]++;
            use_by[t - 1] = i;
        }
    }
    for (size_t o = 0; o < gp->n_output; o++) {
        uintptr_t t = gp->output[o]->name ? (uintptr_t)bx_hash_get(&prod, gp->output[o]->name) : 0;
        if (t)
            uses[t - 1] += 2;   /* a graph output: never one consumer */
    }
    for (int i = 0; i < n; i++) {
        const Onnx__NodeProto *np = gp->node[i];
        int edges = 0, to = -1;
        for (size_t o = 0; o < np->n_output; o++) {
            edges += uses[out_base[i] + (int)o];
            if (uses[out_base[i] + (int)o])
                to = use_by[out_base[i] + (int)o];
        }
        m->nodes[i].next = edges == 1 ? to : -1;
        for (size_t q = 0; q < np->n_input; q++) {
            uintptr_t t = np->input[q] && np->input[q][0]
                              ? (uintptr_t)bx_hash_get(&prod, np->input[q]) : 0;
            if (t) {
                /* The producer: the node whose outputs hold tensor t - 1. */
                int lo = 0, hi = n - 1;
                while (lo < hi) {
                    int mid = (lo + hi + 1) / 2;
                    if (out_base[mid] <= (int)(t - 1))
                        lo = mid;
                    else
                        hi = mid - 1;
                }
                m->nodes[i].producer[q] = lo;
            }
        }
    }
    bx_hash_free(&prod);
    onnx__model_proto__free_unpacked(mp, NULL);
    return 0;
}

static int model_find(const model *m, const char *name)
{
    void *v = bx_hash_get(&m->by_name, name);
    if (!v)
        return -1;
    if (v == DUP_NAME)
        return -2;
    return (int)((uintptr_t)v - 1);
}

/* ---- the profile's nodes ---------------------------------------------------- */

typedef enum fusion {
    F_NONE,                     /* the model node itself */
    F_CONV,                     /* FusedConv: Conv, folds, an activation */
    F_GEMM,                     /* FusedGemm: Gemm and an activation */
    F_MATMUL_ADD,               /* Gemm from MatMul and Add */
    F_MATMUL_SCALE              /* FusedMatMul from MatMul and Mul/Div */
} fusion;

typedef struct pnode {
    const char *name, *op, *provider;
    long index;                 /* args.node_index, -1 when absent */
    bool inconsistent;          /* its events disagree on op or provider */
    int line, col;              /* its first event */
    double *dur;                /* microseconds, one per event */
    size_t ndur, cap;
    double median;              /* seconds */
    /* The mapping. */
    int anchor;                 /* model node, -1 */
    fusion fusion;
    int ncovered;
    int *covered;               /* model nodes, ascending */
    const char *why;            /* not mapped: the reason; NULL when mapped */
    bool nocall;                /* the model nodes made no call */
    int ncalls;
    int nlines;                 /* table lines it gave */
} pnode;

typedef struct profile {
    int n;
    pnode *nodes;
    size_t events;
} profile;

static const char *str_arg(const bx_json *args, const char *key)
{
    const bx_json *v = bx_json_get(args, key);
    return v && v->kind == BX_JSON_STRING ? v->str : NULL;
}

static void push_dur(pnode *p, double d)
{
    if (p->ndur == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 8;
        double *q = realloc(p->dur, cap * sizeof *q);
        if (!q)
            bx_oom();
        p->dur = q;
        p->cap = cap;
    }
    p->dur[p->ndur++] = d;
}

static int profile_read(profile *pr, bx_arena *a, const char *path, byoc_error *err)
{
    memset(pr, 0, sizeof *pr);
    bx_json *root = bx_json_read_file(a, path, err);
    if (!root)
        return -1;
    const bx_json *events = root;
    if (root->kind == BX_JSON_OBJECT && bx_json_get(root, "traceEvents"))
        events = bx_json_get(root, "traceEvents");
    if (events->kind != BX_JSON_ARRAY) {
        bx_error_set(err, path, events->line, events->col,
                     "not an ONNX Runtime profile: expected an array of trace events, "
                     "found %s %s", events->kind == BX_JSON_ARRAY || events->kind == BX_JSON_OBJECT
                                        ? "an" : "a", bx_json_kind_name(events->kind));
        return -1;
    }
    pr->nodes = BX_NEWN(a, pnode, events->n + 1);
    bx_hash by_name;
    bx_hash_init(&by_name);
    static const char suffix[] = "_kernel_time";
    const size_t sl = sizeof suffix - 1;
    for (const bx_json *e = events->first; e; e = e->next) {
        if (e->kind != BX_JSON_OBJECT) {
            bx_hash_free(&by_name);
            bx_error_set(err, path, e->line, e->col,
                         "not an ONNX Runtime profile: a trace event is an object, not %s %s",
                         e->kind == BX_JSON_ARRAY ? "an" : "a", bx_json_kind_name(e->kind));
            return -1;
        }
        const char *cat = str_arg(e, "cat");
        const bx_json *nm = bx_json_get(e, "name");
        if (!cat || strcmp(cat, "Node") != 0 || !nm || nm->kind != BX_JSON_STRING ||
            nm->len < sl || strcmp(nm->str + nm->len - sl, suffix) != 0)
            continue;           /* sessions, fences, other events */
        const bx_json *dur = bx_json_get(e, "dur");
        if (!dur || dur->kind != BX_JSON_NUMBER || !(dur->num >= 0)) {
            bx_hash_free(&by_name);
            const bx_json *at = dur ? dur : e;
            bx_error_set(err, path, at->line, at->col,
                         "node event '%s' needs \"dur\", a non-negative number of microseconds",
                         nm->str);
            return -1;
        }
        const bx_json *args = bx_json_get(e, "args");
        const char *op = str_arg(args, "op_name");
        const char *prov = str_arg(args, "provider");
        long index = -1;
        const bx_json *ix = bx_json_get(args, "node_index");
        if (ix && ix->kind == BX_JSON_STRING && ix->len > 0 && ix->len < 10 &&
            strspn(ix->str, "0123456789") == ix->len)
            index = strtol(ix->str, NULL, 10);
        else if (ix && ix->kind == BX_JSON_NUMBER && ix->num >= 0 && ix->num < 1e9 &&
                 ix->num == floor(ix->num))
            index = (long)ix->num;
        char *name = bx_arena_strndup(a, nm->str, nm->len - sl);
        uintptr_t k = (uintptr_t)bx_hash_get(&by_name, name);
        pnode *p;
        if (!k) {
            p = &pr->nodes[pr->n];
            memset(p, 0, sizeof *p);
            p->name = name;
            p->op = op ? bx_arena_strdup(a, op) : "?";
            p->provider = prov ? bx_arena_strdup(a, prov) : "";
            p->index = index;
            p->line = e->line;
            p->col = e->col;
            p->anchor = -1;
            bx_hash_put(&by_name, name, (void *)(uintptr_t)(++pr->n));
        } else {
            p = &pr->nodes[k - 1];
            if (strcmp(p->op, op ? op : "?") || strcmp(p->provider, prov ? prov : "") ||
                p->index != index)
                p->inconsistent = true;
        }
        push_dur(p, dur->num);
        pr->events++;
    }
    bx_hash_free(&by_name);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- which model nodes a profiled node ran --------------------------------- */

static bool is_activation(const char *op)
{
    static const char *const acts[] = {"Relu", "Clip", "Sigmoid", "Tanh", "LeakyRelu",
                                       "HardSigmoid"};
    for (size_t i = 0; i < sizeof acts / sizeof *acts; i++)
        if (!strcmp(op, acts[i]))
            return true;
    return false;
}

static bool is_fold(const char *op)
{
    return !strcmp(op, "BatchNormalization") || !strcmp(op, "Add") || !strcmp(op, "Mul");
}

/* name with a trailing "_token_N" (ORT's GenerateNodeName) removed, into
 * the arena; name itself when there is none. */
static const char *strip_token(bx_arena *a, const char *name)
{
    const char *t = strstr(name, "_token_");
    const char *last = NULL;
    while (t) {
        last = t;
        t = strstr(t + 1, "_token_");
    }
    if (!last || !last[7] || strspn(last + 7, "0123456789") != strlen(last + 7))
        return name;
    return bx_arena_strndup(a, name, (size_t)(last - name));
}

/* The model node a profiled node is, or grew from, and how. */
static void find_anchor(pnode *p, const model *m, bx_arena *a)
{
    char buf[64];
    int i = model_find(m, p->name);
    if (i == -2) {
        p->why = "two model nodes have this name";
        return;
    }
    if (i < 0 && p->index >= 0 && p->index < m->n && !m->nodes[p->index].name[0]) {
        snprintf(buf, sizeof buf, "%s_%ld", m->nodes[p->index].op, p->index);
        if (!strcmp(p->name, buf))
            i = (int)p->index;
    }
    if (i >= 0) {
        const char *mop = m->nodes[i].op;
        if (!strcmp(p->op, mop)) {
            p->fusion = F_NONE;
        } else if (!strcmp(p->op, "FusedConv") && !strcmp(mop, "Conv")) {
            p->fusion = F_CONV;
        } else {
            p->why = bx_arena_printf(a, "ORT ran model node '%s' (%s) as %s, a change byoc "
                                        "does not know", p->name, mop, p->op);
            return;
        }
        p->anchor = i;
        return;
    }
    static const struct { const char *prefix, *suffix, *op, *anchor_op; fusion f; } forms[] = {
        {"fused ", "", "FusedGemm", "Gemm", F_GEMM},
        {"fused ", "", "FusedConv", "Conv", F_CONV},
        {"", "/MatMulAddFusion", "Gemm", "MatMul", F_MATMUL_ADD},
        {"", "/MatMulScaleFusion/", "FusedMatMul", "MatMul", F_MATMUL_SCALE},
        {"", "/MatMulScaleFusion", "FusedMatMul", "MatMul", F_MATMUL_SCALE},
    };
    const char *base = strip_token(a, p->name);
    size_t bl = strlen(base);
    for (size_t k = 0; k < sizeof forms / sizeof *forms; k++) {
        size_t pl = strlen(forms[k].prefix), sl = strlen(forms[k].suffix);
        if (strcmp(p->op, forms[k].op) || bl <= pl + sl ||
            strncmp(base, forms[k].prefix, pl) || strcmp(base + bl - sl, forms[k].suffix))
            continue;
        const char *anchor = bx_arena_strndup(a, base + pl, bl - pl - sl);
        int j = model_find(m, anchor);
        if (j >= 0 && !strcmp(m->nodes[j].op, forms[k].anchor_op)) {
            p->anchor = j;
            p->fusion = forms[k].f;
            return;
        }
    }
    if (i < 0 && p->index >= 0 && p->index < m->n && !m->nodes[p->index].name[0] &&
        !strcmp(p->op, m->nodes[p->index].op))
        p->why = "an unnamed model node profiled under another name";
    else
        p->why = "no model node has this name: a node ORT made (a fusion, a layout change, "
                 "a copy) whose name does not say which model nodes it ran";
}

/* Add the model nodes p's fusion absorbed: next to the anchor, of the
 * kinds the fusion takes, and not profiled themselves. */
static void absorb(pnode *p, const model *m, const bool *profiled, bx_arena *a)
{
    int *cov = BX_NEWN(a, int, m->n + 1);
    int n = 0;
    cov[n++] = p->anchor;
    const mnode *an = &m->nodes[p->anchor];
    int c = an->next;
    switch (p->fusion) {
    case F_NONE:
        /* A Conv keeps its name and op when BatchNormalization, or an Add
         * or Mul of constants, folds into its weights. */
        if (!strcmp(an->op, "Conv"))
            for (; c >= 0 && !profiled[c] && is_fold(m->nodes[c].op); c = m->nodes[c].next)
                cov[n++] = c;
        break;
    case F_CONV: {
        bool act = false;
        for (; c >= 0 && !profiled[c] && !act; c = m->nodes[c].next) {
            if (is_activation(m->nodes[c].op))
                act = true;
            else if (!is_fold(m->nodes[c].op))
                break;
            cov[n++] = c;
        }
        if (!act)
            p->why = bx_arena_printf(a, "FusedConv from '%s', but no activation after it "
                                        "that the profile does not list itself", an->name);
        break;
    }
    case F_GEMM:
        if (c >= 0 && !profiled[c] && is_activation(m->nodes[c].op))
            cov[n++] = c;
        else
            p->why = bx_arena_printf(a, "FusedGemm from '%s', but its only consumer is not an "
                                        "unprofiled activation", an->name);
        break;
    case F_MATMUL_ADD:
        if (c >= 0 && !profiled[c] && !strcmp(m->nodes[c].op, "Add"))
            cov[n++] = c;
        else
            p->why = bx_arena_printf(a, "Gemm from '%s' and an Add, but its only consumer is "
                                        "not an unprofiled Add", an->name);
        break;
    case F_MATMUL_SCALE: {
        for (int q = 0; q < an->nin; q++) {
            int pq = an->producer[q];
            if (pq >= 0 && m->nodes[pq].next == p->anchor && !profiled[pq] &&
                (!strcmp(m->nodes[pq].op, "Mul") || !strcmp(m->nodes[pq].op, "Div")))
                cov[n++] = pq;
        }
        if (c >= 0 && !profiled[c] &&
            (!strcmp(m->nodes[c].op, "Mul") || !strcmp(m->nodes[c].op, "Div")))
            cov[n++] = c;
        if (n == 1)
            p->why = bx_arena_printf(a, "FusedMatMul from '%s', but no unprofiled Mul or Div "
                                        "next to it", an->name);
        break;
    }
    }
    p->covered = cov;
    p->ncovered = n;
}

/* ---- the table --------------------------------------------------------------- */

typedef struct line {
    const char *target, *signature;
    int pnode;
    double seconds;
} line;

static int cmp_line(const void *a, const void *b)
{
    const line *x = a, *y = b;
    int c = strcmp(x->target, y->target);
    if (!c)
        c = strcmp(x->signature, y->signature);
    if (!c)
        c = (x->pnode > y->pnode) - (x->pnode < y->pnode);
    return c;
}

/* Seconds as %.9g with '.' whatever the locale. */
static void put_seconds(FILE *f, double s)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.9g", s);
    const char *dp = localeconv()->decimal_point;
    size_t dl = strlen(dp);
    char *at = dl && strcmp(dp, ".") ? strstr(buf, dp) : NULL;
    if (at) {
        *at = '.';
        memmove(at + 1, at + dl, strlen(at + dl) + 1);
    }
    fputs(buf, f);
}

static void put_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static bool runs_on(const byoc_registry *reg, const byoc_target_decl *t, const char *provider,
                    const char *only)
{
    if (only)
        return !strcmp(t->name, only);
    const char *rt = byoc_target_runtime(reg, t);
    static const char pre[] = "onnxruntime:";
    return rt && provider[0] && !strncmp(rt, pre, sizeof pre - 1) &&
           !strcmp(rt + sizeof pre - 1, provider);
}

static int from_profile(const byoc_graph *g, const byoc_partition_options *o,
                        const char *profile_path, const byoc_profile_options *po, FILE *table,
                        FILE *report, byoc_error *err)
{
    const char *model_path = po && po->model_path ? po->model_path : byoc_graph_source(g);
    const char *only = po ? po->target : NULL;
    if (!g->onnx || !model_path) {
        bx_error_set(err, NULL, 0, 0, "a profile names the nodes of an ONNX model; this "
                                      "model was not read from ONNX");
        return -1;
    }
    byoc_partition_options opt;
    if (o)
        opt = *o;
    else
        byoc_partition_options_init(&opt);
    const char *one[1] = {only};
    if (only && opt.ntargets == 0) {
        opt.targets = one;
        opt.ntargets = 1;
    }
    bx_arena a;
    bx_arena_init(&a);
    profile pr;
    model m;
    if (profile_read(&pr, &a, profile_path, err) < 0) {
        for (int i = 0; i < pr.n; i++)   /* the events read before the bad one */
            free(pr.nodes[i].dur);
        bx_arena_free(&a);
        return -1;
    }
    memset(&m, 0, sizeof m);
    if (model_read(&m, &a, g, model_path, err) < 0) {
        for (int i = 0; i < pr.n; i++)
            free(pr.nodes[i].dur);
        bx_arena_free(&a);
        return -1;
    }
    bx_session s;
    int rc = -1;
    if (bx_session_open(&s, g, &opt, err) < 0)
        goto out_model;
    if (only) {
        int t = 0;
        while (t < s.ntargets && strcmp(s.targets[t]->name, only) != 0)
            t++;
        if (t == s.ntargets) {
            bx_error_set(err, NULL, 0, 0, "--target '%s' is not among the targets searched "
                                          "(add it to -t)", only);
            goto out_session;
        }
    }
    const byoc_registry *reg = byoc_graph_registry(g);
    int ng = byoc_graph_node_count(g);
    /* Calls computed from constants alone (a weight's transpose the
     * reader made) run once at load in any runtime, not per inference:
     * kernels are matched on the other calls. */
    bool *konst = BX_NEWN(&a, bool, ng + 1);
    for (int x = 0; x < ng; x++) {
        byoc_node_kind k = byoc_node_kind_of(g, x);
        int na = byoc_node_arg_count(g, x);
        konst[x] = k == BYOC_N_CONST;
        if (k == BYOC_N_CALL || k == BYOC_N_TUPLE || k == BYOC_N_PROJ) {
            konst[x] = na > 0 && byoc_node_subgraph_count(g, x) == 0;
            for (int q = 0; q < na && konst[x]; q++) {
                int y = byoc_node_arg(g, x, q);
                konst[x] = y >= 0 && y < x && konst[y];
            }
        }
    }
    /* Graph calls per model node, in node order. */
    int *next_call = BX_NEWN(&a, int, ng + 1);
    int *last = BX_NEWN(&a, int, m.n + 1);
    for (int i = 0; i < m.n; i++)
        last[i] = -1;
    for (int x = 0; x < ng; x++) {
        next_call[x] = -1;
        int org = g->nodes[x].origin;
        if (org < 0 || org >= m.n || byoc_node_kind_of(g, x) != BYOC_N_CALL || konst[x])
            continue;
        if (last[org] < 0)
            m.nodes[org].first_call = x;
        else
            next_call[last[org]] = x;
        last[org] = x;
        m.nodes[org].ncalls++;
    }
    /* Anchors, then what each fusion absorbed. */
    bool *profiled = BX_NEWN(&a, bool, m.n + 1);
    for (int i = 0; i < pr.n; i++) {
        pnode *p = &pr.nodes[i];
        p->median = median(p->dur, p->ndur) * 1e-6;
        if (p->inconsistent) {
            p->why = "its events disagree on the op, provider or node index";
            continue;
        }
        find_anchor(p, &m, &a);
        if (p->anchor >= 0)
            profiled[p->anchor] = true;
    }
    int *claims = BX_NEWN(&a, int, m.n + 1);
    for (int i = 0; i < pr.n; i++) {
        pnode *p = &pr.nodes[i];
        if (p->anchor < 0)
            continue;
        absorb(p, &m, profiled, &a);
        for (int k = 0; k < p->ncovered; k++)
            claims[p->covered[k]]++;
    }
    /* Graph calls -> the profiled node that ran them. */
    int *run_by = BX_NEWN(&a, int, ng + 1);
    for (int x = 0; x < ng; x++)
        run_by[x] = -1;
    for (int i = 0; i < pr.n; i++) {
        pnode *p = &pr.nodes[i];
        if (p->why)
            continue;
        for (int k = 0; k < p->ncovered; k++)
            if (claims[p->covered[k]] > 1) {
                p->why = bx_arena_printf(&a, "model node '%s' could belong to "
                                         "this node or another fusion",
                                         m.nodes[p->covered[k]].name);
                break;
            }
        if (p->why)
            continue;
        for (int k = 0; k < p->ncovered; k++)
            for (int x = m.nodes[p->covered[k]].first_call; x >= 0; x = next_call[x]) {
                run_by[x] = i;
                p->ncalls++;
            }
        p->nocall = p->ncalls == 0;
    }
    /* Candidates made of exactly one profiled node's calls, on a target
     * that runs on its provider. */
    line *lines = NULL;
    size_t nlines = 0, caplines = 0;
    for (size_t ci = 0; ci < s.cands.n; ci++) {
        const bx_cand *c = &s.cands.cands[ci];
        int e = -1, ncalls = 0;
        bool ok = true;
        for (int k = 0; k < c->nnodes && ok; k++) {
            int x = c->nodes[k];
            if (byoc_node_kind_of(g, x) != BYOC_N_CALL || konst[x])
                continue;
            ncalls++;
            if (run_by[x] < 0 || (e >= 0 && run_by[x] != e))
                ok = false;
            e = run_by[x];
        }
        if (!ok || e < 0 || ncalls != pr.nodes[e].ncalls)
            continue;
        const byoc_target_decl *t = s.targets[c->target];
        if (!runs_on(reg, t, pr.nodes[e].provider, only))
            continue;
        if (nlines == caplines) {
            caplines = caplines ? 2 * caplines : 64;
            line *q = realloc(lines, caplines * sizeof *q);
            if (!q)
                bx_oom();
            lines = q;
        }
        lines[nlines++] = (line){t->name, s.costs[ci].signature, e, pr.nodes[e].median};
    }
    if (nlines > 1)
        qsort(lines, nlines, sizeof *lines, cmp_line);
    /* One line per (target, signature): the median of its nodes' medians. */
    fprintf(table, "target,signature,seconds\n# From the ONNX Runtime profile %s of %s "
                   "(byoc cost --from-ort-profile)\n", profile_path, model_path);
    size_t ntable = 0;
    double *meds = malloc((nlines ? nlines : 1) * sizeof *meds);
    if (!meds)
        bx_oom();
    for (size_t i = 0; i < nlines;) {
        size_t j = i, nm = 0;
        for (; j < nlines && !strcmp(lines[j].target, lines[i].target) &&
               !strcmp(lines[j].signature, lines[i].signature); j++) {
            if (j == i || lines[j].pnode != lines[j - 1].pnode) {
                meds[nm++] = lines[j].seconds;
                pr.nodes[lines[j].pnode].nlines++;
            }
        }
        fprintf(table, "%s,", lines[i].target);
        put_quoted(table, lines[i].signature);
        fputc(',', table);
        put_seconds(table, median(meds, nm));
        fputc('\n', table);
        ntable++;
        i = j;
    }
    free(meds);
    free(lines);
    /* The report: what was not mapped, and why. */
    int mapped = 0, unmapped = 0, nocall = 0;
    for (int i = 0; i < pr.n; i++) {
        pnode *p = &pr.nodes[i];
        if (!p->why && p->nocall) {
            nocall++;
            if (report)
                fprintf(report, "%s: '%s' (%s): made no call in byoc that runs per "
                                "inference (computed at load or passed through): no kernel to "
                                "price\n",
                        profile_path, p->name, p->op);
            continue;
        }
        if (!p->why && p->nlines) {
            mapped++;
            continue;
        }
        if (!p->why) {
            bx_strbuf ops = {0}, tg = {0};
            for (int k = 0; k < p->ncovered; k++)
                for (int x = m.nodes[p->covered[k]].first_call; x >= 0; x = next_call[x])
                    bx_sb_printf(&ops, "%s%s", ops.len ? "+" : "", byoc_node_op_name(g, x));
            for (int t = 0; t < s.ntargets; t++)
                if (runs_on(reg, s.targets[t], p->provider, only))
                    bx_sb_printf(&tg, "%s%s", tg.len ? ", " : "", s.targets[t]->name);
            if (!tg.len)
                p->why = bx_arena_printf(&a, "no target searched runs on %s (its runtime is not "
                                             "onnxruntime:%s; see --target)",
                                         p->provider[0] ? p->provider : "an unnamed provider",
                                         p->provider);
            else
                p->why = bx_arena_printf(&a, "no kernel of %s is made of exactly its calls (%s): "
                                             "byoc would not run them as one kernel there, and "
                                             "the time is not split", bx_sb_str(&tg),
                                         bx_sb_str(&ops));
            bx_sb_free(&ops);
            bx_sb_free(&tg);
        }
        unmapped++;
        if (report)
            fprintf(report, "%s:%d:%d: '%s' (%s%s%s): not mapped: %s\n", profile_path, p->line,
                    p->col, p->name, p->op, p->provider[0] ? " on " : "", p->provider, p->why);
    }
    if (report)
        fprintf(report, "%s: %d profiled nodes in %zu events: %d mapped to %zu table lines, "
                        "%d unmapped, %d with no call\n",
                profile_path, pr.n, pr.events, mapped, ntable, unmapped, nocall);
    rc = 0;
    if (ferror(table)) {
        bx_error_set(err, NULL, 0, 0, "write error while writing the cost table");
        rc = -1;
    }
out_session:
    bx_session_close(&s);
out_model:
    for (int i = 0; i < pr.n; i++)
        free(pr.nodes[i].dur);
    if (m.nodes)
        bx_hash_free(&m.by_name);
    bx_arena_free(&a);
    return rc;
}
#else
static int from_profile(const byoc_graph *g, const byoc_partition_options *o,
                        const char *profile_path, const byoc_profile_options *po, FILE *table,
                        FILE *report, byoc_error *err)
{
    (void)g;
    (void)o;
    (void)profile_path;
    (void)po;
    (void)table;
    (void)report;
    bx_error_set(err, NULL, 0, 0, "a profile names the nodes of an ONNX model, and ONNX "
                                  "support is not built in");
    return -1;
}
#endif

int byoc_cost_from_ort_profile(const byoc_graph *g, const byoc_partition_options *o,
                               const char *profile_path, const byoc_profile_options *po,
                               FILE *table, FILE *report, byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, -1);
    int rc = from_profile(g, o, profile_path, po, table, report, err);
    bx_oom_close(&guard);
    return rc;
}
