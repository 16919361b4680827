/* The Relay writer: a partitioning as Relay text for TVM, the module that
 * TVM's partitioning passes would leave (MergeComposite, AnnotateTarget,
 * PartitionGraph); and one kernel alone, for a user to compile and time
 * (bx_relay_write_kernel).
 *
 * The one idea needed: a partitioned module is nested functions - @main
 * calls one global function per partition, which calls one local `fn` per
 * composite - and each function is a *scope*, in which a node is referred
 * to as a parameter, as the number of the statement that computed it, or
 * inline (constants).  Inside a scope, the nodes are grouped into *units*
 * written together (a partition's call in @main, a composite's fn in a
 * partition, else one node), and the units are written in the first
 * order, close to the graph's, in which each comes after everything it
 * uses. */
#include <stdlib.h>
#include <string.h>

#include <byoc/partition.h>

#include "die.h"
#include "errfmt.h"
#include "relay_print.h"
#include "strbuf.h"
#include "writers.h"

typedef struct scope {
    int *local;            /* node -> statement number, -1 */
    int *param;            /* node -> parameter number, -1 */
    int *unit;             /* node -> the unit that writes it here; -1: not here */
    char prefix[160];      /* parameters are %<prefix><j> */
    bool main;             /* @main: graph inputs by their names */
    bool consts_as_params; /* a kernel alone: its weights may be absent */
    int indent;
} scope;

typedef struct unit {
    const int *nodes;      /* what it writes; constants and inputs are skipped */
    int n;
    int group;             /* a partition in @main, a composite in a partition;
                              -1: the single node `one` */
    int one;
} unit;

typedef struct values {
    int *v;
    int n;
} values;

typedef struct rw {
    const byoc_graph *g;
    const byoc_result *r;
    FILE *f;
    int n;
    int *meta;             /* node -> meta constant index; one numbering for
                              the whole module, as TVM's */
    int nmeta;
    char **names;          /* inputs: Relay-safe names */
    int *compof;           /* node -> composite of the current partition */
    scope *s;              /* the scope being written */
    scope top, part, comp;
    int next;              /* next statement number of the global function */
    int ncomposites;       /* composites written: FunctionVar_<k>_<j> */
    values *members;       /* per partition: its nodes, and the projections
                              of its tuples that no partition holds */
    values *params, *outs; /* per partition */
    char **fname;          /* per partition: its function, NULL when empty */
} rw;

static int *int_array(int n, int fill)
{
    int *a = bx_xcalloc((size_t)n + 1, sizeof(int));
    for (int i = 0; i <= n; i++)
        a[i] = fill;
    return a;
}

static void scope_init(scope *s, int n)
{
    memset(s, 0, sizeof *s);
    s->local = int_array(n, -1);
    s->param = int_array(n, -1);
    s->unit = int_array(n, -1);
    s->indent = 2;
}

static void scope_free(scope *s)
{
    free(s->local);
    free(s->param);
    free(s->unit);
}

/* Forget nodes[0..n) and their arguments, which is all a scope touches. */
static void scope_clear(scope *s, const byoc_graph *g, const int *nodes, int n)
{
    for (int i = 0; i < n; i++) {
        int x = nodes[i];
        s->local[x] = s->param[x] = s->unit[x] = -1;
        for (int a = 0; a < byoc_node_arg_count(g, x); a++)
            s->param[byoc_node_arg(g, x, a)] = -1;
    }
}

static bool is_statement(const byoc_graph *g, int node)
{
    byoc_node_kind k = byoc_node_kind_of(g, node);
    return k == BYOC_N_CALL || k == BYOC_N_TUPLE || k == BYOC_N_PROJ;
}

static void put_ref(FILE *f, int node, void *ctx)
{
    rw *w = ctx;
    const scope *s = w->s;
    if (s->param[node] >= 0) {
        fprintf(f, "%%%s%d", s->prefix, s->param[node]);
    } else if (s->local[node] >= 0) {
        fprintf(f, "%%%d", s->local[node]);
    } else if (byoc_node_kind_of(w->g, node) == BYOC_N_INPUT) {
        bx_assert(s->main);
        fprintf(f, "%%%s", w->names[node]);
    } else if (byoc_node_kind_of(w->g, node) == BYOC_N_CONST) {
        bx_relay_put_const_ref(f, w->g, node, w->meta, &w->nmeta);
    } else {
        bx_die("a node is used before it is written");
    }
}

static void put_string(FILE *f, const char *s)
{
    byoc_value v = {.kind = BYOC_V_STRING, .u.s = s};
    bx_relay_put_value(f, &v);
}

/* What the nodes written in scope s take from outside it, in order of first
 * use: its parameters.  Constants stay inline unless the scope says. */
static void collect_params(const byoc_graph *g, scope *s, const int *nodes, int n, values *out)
{
    int cap = 1;
    for (int i = 0; i < n; i++)
        cap += byoc_node_arg_count(g, nodes[i]);
    out->v = bx_xcalloc((size_t)cap, sizeof(int));
    out->n = 0;
    for (int i = 0; i < n; i++) {
        if (s->unit[nodes[i]] < 0)
            continue;
        for (int a = 0; a < byoc_node_arg_count(g, nodes[i]); a++) {
            int x = byoc_node_arg(g, nodes[i], a);
            if (s->unit[x] >= 0 || s->param[x] >= 0)
                continue;
            if (byoc_node_kind_of(g, x) == BYOC_N_CONST
                && (!s->consts_as_params || bx_relay_is_literal(g, x)))
                continue;
            s->param[x] = out->n;
            out->v[out->n++] = x;
        }
    }
}

/* A node written in s whose value leaves it: the graph's output, used by a
 * node outside, or used by nothing (so that no computation is lost). */
static bool leaves(const byoc_graph *g, const scope *s, int node)
{
    int nc = byoc_node_consumer_count(g, node);
    if (node == byoc_graph_output(g) || nc == 0)
        return true;
    for (int i = 0; i < nc; i++)
        if (s->unit[byoc_node_consumer(g, node, i)] < 0)
            return true;
    return false;
}

static void collect_outputs(const byoc_graph *g, const scope *s, const int *nodes, int n,
                            values *out)
{
    out->v = bx_xcalloc((size_t)n + 1, sizeof(int));
    out->n = 0;
    for (int i = 0; i < n; i++)
        if (s->unit[nodes[i]] >= 0 && leaves(g, s, nodes[i]))
            out->v[out->n++] = nodes[i];
}

/* Can the type of these values be written?  Several values, one of them a
 * tuple, would make a nested tuple type, which byoc's graphs (and so its
 * Relay reader) do not have; Relay lets a function's return type and a
 * call's type comment be left out, so they are. */
static bool types_known(const byoc_graph *g, const values *vs)
{
    for (int i = 0; i < vs->n; i++)
        if (!bx_relay_type_known(g, vs->v[i])
            || (vs->n > 1 && byoc_node_field_count(g, vs->v[i]) >= 0))
            return false;
    return vs->n > 0;
}

static void put_types(FILE *f, const byoc_graph *g, const values *vs)
{
    if (vs->n == 1) {
        bx_relay_put_type(f, g, vs->v[0]);
        return;
    }
    fputc('(', f);
    for (int i = 0; i < vs->n; i++) {
        fputs(i ? ", " : "", f);
        bx_relay_put_type(f, g, vs->v[i]);
    }
    fputc(')', f);
}

/* Parameters as a function header lists them: %<prefix><j>: T. */
static void put_params(FILE *f, const byoc_graph *g, const char *prefix, const values *ps)
{
    for (int j = 0; j < ps->n; j++) {
        fprintf(f, "%s%%%s%d", j ? ", " : "", prefix, j);
        if (bx_relay_type_known(g, ps->v[j])) {
            fputs(": ", f);
            bx_relay_put_type(f, g, ps->v[j]);
        }
    }
}

static void put_ret(FILE *f, const byoc_graph *g, const values *outs)
{
    if (types_known(g, outs)) {
        fputs(" -> ", f);
        put_types(f, g, outs);
    }
}

/* A statement `%N = expr` with its type, or the bare expression when it
 * ends a body. */
static void write_node(rw *w, int node, bool last)
{
    scope *s = w->s;
    fprintf(w->f, "%*s", s->indent, "");
    if (!last) {
        s->local[node] = w->next++;
        fprintf(w->f, "%%%d = ", s->local[node]);
    }
    bx_relay_put_expr(w->f, w->g, node, put_ref, w);
    if (byoc_node_kind_of(w->g, node) == BYOC_N_CALL && bx_relay_type_known(w->g, node)) {
        fputs(" /* ty=", w->f);
        bx_relay_put_type(w->f, w->g, node);
        fputs(" */", w->f);
    }
    fputs(last ? "\n" : ";\n", w->f);
}

/* A call of a function: one output is the call's value; several come back
 * as a tuple, projected at once so that each output has a number. */
static void write_call(rw *w, const char *callee, const values *args, const values *outs,
                       bool last)
{
    scope *s = w->s;
    FILE *f = w->f;
    int id = -1;
    fprintf(f, "%*s", s->indent, "");
    if (!last) {
        id = w->next++;
        fprintf(f, "%%%d = ", id);
    }
    fprintf(f, "%s(", callee);
    for (int i = 0; i < args->n; i++) {
        fputs(i ? ", " : "", f);
        put_ref(f, args->v[i], w);
    }
    fputc(')', f);
    if (types_known(w->g, outs)) {
        fputs(" /* ty=", f);
        put_types(f, w->g, outs);
        fputs(" */", f);
    }
    fputs(last ? "\n" : ";\n", f);
    if (last)
        return;
    if (outs->n == 1) {
        s->local[outs->v[0]] = id;
        return;
    }
    for (int i = 0; i < outs->n; i++) {
        s->local[outs->v[i]] = w->next++;
        fprintf(f, "%*s%%%d = %%%d.%d;\n", s->indent, "", s->local[outs->v[i]], id, i);
    }
}

/* The value a body ends with, when its last statement is not it. */
static void write_result(rw *w, const values *outs)
{
    fprintf(w->f, "%*s", w->s->indent, "");
    if (outs->n != 1)
        fputc('(', w->f);
    for (int i = 0; i < outs->n; i++) {
        fputs(i ? ", " : "", w->f);
        put_ref(w->f, outs->v[i], w);
    }
    fputs(outs->n == 1 ? "\n" : ")\n", w->f);
}

/* Is unit u ready: has everything its nodes use from this scope been
 * written? */
static bool unit_ready(const byoc_graph *g, const scope *s, const unit *units, int u,
                       const bool *done)
{
    for (int i = 0; i < units[u].n; i++) {
        int x = units[u].nodes[i];
        if (s->unit[x] != u)
            continue;
        for (int a = 0; a < byoc_node_arg_count(g, x); a++) {
            int ua = s->unit[byoc_node_arg(g, x, a)];
            if (ua >= 0 && ua != u && !done[ua])
                return false;
        }
    }
    return true;
}

/* The first order, preferring the units' own, in which each unit comes
 * after the units it uses; -1 when there is none (a cycle). */
static int schedule(const byoc_graph *g, const scope *s, const unit *units, int nu, int *order)
{
    bool *done = bx_xcalloc((size_t)nu + 1, sizeof(bool));
    int lo = 0;
    for (int k = 0; k < nu; k++) {
        while (lo < nu && done[lo])
            lo++;
        int u = lo;
        while (u < nu && (done[u] || !unit_ready(g, s, units, u, done)))
            u++;
        if (u == nu) {
            free(done);
            return -1;
        }
        done[u] = true;
        order[k] = u;
    }
    free(done);
    return 0;
}

/* Forget partition P in the partition scope and the composite map. */
static void partition_clear(rw *w, int p)
{
    const byoc_partition *P = &w->r->partitions[p];
    scope_clear(&w->part, w->g, w->members[p].v, w->members[p].n);
    for (int c = 0; c < P->ncomposites; c++)
        for (int i = 0; i < P->composites[c].nnodes; i++)
            w->compof[P->composites[c].nodes[i]] = -1;
}

static unit single(int node)
{
    unit u = {NULL, 1, -1, node};
    return u;
}

/* The units of partition p (its composites and its other nodes, in the
 * order of their first node) into units[], marked in the partition scope.
 * Returns their count, or -1 when composites overlap or leave P. */
static int partition_units(rw *w, int p, unit *units, byoc_error *err)
{
    const byoc_partition *P = &w->r->partitions[p];
    const values *m = &w->members[p];
    scope *s = &w->part;
    for (int i = 0; i < m->n; i++)
        if (is_statement(w->g, m->v[i]))
            s->unit[m->v[i]] = -2;
    for (int c = 0; c < P->ncomposites; c++)
        for (int i = 0; i < P->composites[c].nnodes; i++) {
            int y = P->composites[c].nodes[i];
            if (!is_statement(w->g, y))
                continue;
            if (w->compof[y] >= 0 || s->unit[y] != -2) {
                bx_error_set(err, NULL, 0, 0,
                             "composite %d of partition %d holds node %d, which %s", c, p, y,
                             w->compof[y] >= 0 ? "another composite holds" : "is not in it");
                return -1;
            }
            w->compof[y] = c;
        }
    int *cunit = int_array(P->ncomposites, -1);
    int nu = 0;
    for (int i = 0; i < m->n; i++) {
        int x = m->v[i], c = w->compof[x];
        if (!is_statement(w->g, x))
            continue;
        if (c < 0) {
            units[nu] = single(x);
            units[nu].nodes = &units[nu].one;
            s->unit[x] = nu++;
            continue;
        }
        if (cunit[c] < 0) {
            unit u = {P->composites[c].nodes, P->composites[c].nnodes, c, -1};
            cunit[c] = nu;
            units[nu++] = u;
        }
        s->unit[x] = cunit[c];
    }
    free(cunit);
    return nu;
}

/* TVM's PartitionedFromPattern: the composite's nodes in post order, each
 * an op name, Tuple or TupleGetItem<i>, followed by '_'. */
static void put_from_pattern(rw *w, const byoc_composite *C)
{
    fputc('"', w->f);
    for (int i = 0; i < C->nnodes; i++) {
        int y = C->nodes[i];
        byoc_node_kind k = byoc_node_kind_of(w->g, y);
        if (k == BYOC_N_CALL)
            fprintf(w->f, "%s_", byoc_node_op_name(w->g, y));
        else if (k == BYOC_N_TUPLE)
            fputs("Tuple_", w->f);
        else if (k == BYOC_N_PROJ)
            fprintf(w->f, "TupleGetItem%d_", byoc_node_proj_index(w->g, y));
    }
    fputc('"', w->f);
}

/* A composite as TVM's MergeComposite leaves it: a local function bound to
 * a statement, its body numbered before it, then called. */
static void write_composite(rw *w, const byoc_composite *C, bool last)
{
    scope *ps = &w->part, *cs = &w->comp;
    int members = 0, final = -1;
    for (int i = 0; i < C->nnodes; i++)
        if (is_statement(w->g, C->nodes[i])) {
            cs->unit[C->nodes[i]] = 0;
            members++;
            final = C->nodes[i];
        }
    snprintf(cs->prefix, sizeof cs->prefix, "FunctionVar_%d_", w->ncomposites++);
    cs->indent = ps->indent + 2;
    values args, outs;
    collect_params(w->g, cs, C->nodes, C->nnodes, &args);
    collect_outputs(w->g, cs, C->nodes, C->nnodes, &outs);
    bool body_inline = outs.n == 1 && outs.v[0] == final;
    int fn = w->next + members - (body_inline ? 1 : 0);
    fprintf(w->f, "%*s%%%d = fn (", ps->indent, "", fn);
    put_params(w->f, w->g, cs->prefix, &args);
    fputs(args.n ? ", PartitionedFromPattern=" : "PartitionedFromPattern=", w->f);
    put_from_pattern(w, C);
    fputs(", Composite=", w->f);
    put_string(w->f, C->pattern ? C->pattern : "");
    fputc(')', w->f);
    put_ret(w->f, w->g, &outs);
    fputs(" {\n", w->f);
    w->s = cs;
    for (int i = 0; i < C->nnodes; i++)
        if (is_statement(w->g, C->nodes[i]))
            write_node(w, C->nodes[i], body_inline && C->nodes[i] == final);
    if (!body_inline)
        write_result(w, &outs);
    fprintf(w->f, "%*s};\n", ps->indent, "");
    w->next = fn + 1;
    w->s = ps;
    char callee[24];
    snprintf(callee, sizeof callee, "%%%d", fn);
    write_call(w, callee, &args, &outs, last && outs.n == 1);
    scope_clear(cs, w->g, C->nodes, C->nnodes);
    free(args.v);
    free(outs.v);
}

/* Does the last unit compute the body's one result, so that it can end
 * the body as a bare expression, the way TVM prints it? */
static bool ends_body(const unit *u, const values *outs, const values *unit_outs)
{
    if (outs->n != 1)
        return false;
    if (u->group < 0)
        return u->one == outs->v[0];
    return unit_outs && unit_outs->n == 1 && unit_outs->v[0] == outs->v[0];
}

/* The outputs of composite c of the current partition, to know whether its
 * call can end the body. */
static void composite_outputs(rw *w, const byoc_composite *C, values *outs)
{
    for (int i = 0; i < C->nnodes; i++)
        if (is_statement(w->g, C->nodes[i]))
            w->comp.unit[C->nodes[i]] = 0;
    collect_outputs(w->g, &w->comp, C->nodes, C->nnodes, outs);
    scope_clear(&w->comp, w->g, C->nodes, C->nnodes);
}

static void write_partition(rw *w, int p)
{
    const byoc_partition *P = &w->r->partitions[p];
    scope *s = &w->part;
    unit *units = bx_xcalloc((size_t)w->members[p].n + 1, sizeof(unit));
    int *order = bx_xcalloc((size_t)w->members[p].n + 1, sizeof(int));
    int nu = partition_units(w, p, units, NULL);
    bx_assert(nu > 0);
    int rc = schedule(w->g, s, units, nu, order);
    bx_assert(rc == 0);
    const values *ps = &w->params[p], *outs = &w->outs[p];
    for (int j = 0; j < ps->n; j++)
        s->param[ps->v[j]] = j;
    snprintf(s->prefix, sizeof s->prefix, "%s_i", w->fname[p]);
    fprintf(w->f, "def @%s(", w->fname[p]);
    put_params(w->f, w->g, s->prefix, ps);
    fputs(ps->n ? ", " : "", w->f);
    if (!bx_target_native(w->r, P->target)) {
        fputs("Compiler=", w->f);
        put_string(w->f, P->target->name);
        fputs(", ", w->f);
    }
    fprintf(w->f, "Primitive=1, global_symbol=\"%s\")", w->fname[p]);
    put_ret(w->f, w->g, outs);
    fputs(" {\n", w->f);
    w->s = s;
    w->next = 0;
    bool ended = false;
    for (int k = 0; k < nu; k++) {
        const unit *u = &units[order[k]];
        values co = {NULL, 0};
        if (u->group >= 0)
            composite_outputs(w, &P->composites[u->group], &co);
        ended = k == nu - 1 && ends_body(u, outs, &co);
        free(co.v);
        if (u->group < 0)
            write_node(w, u->one, ended);
        else
            write_composite(w, &P->composites[u->group], ended);
    }
    if (!ended)
        write_result(w, outs);
    fputs("}\n", w->f);
    partition_clear(w, p);
    free(units);
    free(order);
}

/* Check partition p can be written and note its parameters and outputs,
 * which @main's call of it needs. */
static int prepare_partition(rw *w, int p, byoc_error *err)
{
    const byoc_partition *P = &w->r->partitions[p];
    scope *s = &w->part;
    unit *units = bx_xcalloc((size_t)w->members[p].n + 1, sizeof(unit));
    int *order = bx_xcalloc((size_t)w->members[p].n + 1, sizeof(int));
    int nu = partition_units(w, p, units, err);
    int rc = nu < 0 ? -1 : 0;
    if (nu > 0 && schedule(w->g, s, units, nu, order) < 0) {
        bx_error_set(err, NULL, 0, 0,
                     "the composites of partition %d use each other's results", p);
        rc = -1;
    }
    if (nu > 0 && rc == 0) {
        collect_params(w->g, s, w->members[p].v, w->members[p].n, &w->params[p]);
        collect_outputs(w->g, s, w->members[p].v, w->members[p].n, &w->outs[p]);
        bx_strbuf b = {0};
        bx_sb_printf(&b, "%s_%d", P->target->name, p);
        w->fname[p] = b.s;
    }
    partition_clear(w, p);
    free(units);
    free(order);
    return rc;
}

/* The units of @main: each partition, then each node no partition holds;
 * marked in the top scope. */
static int main_units(rw *w, unit *units, byoc_error *err)
{
    const byoc_result *r = w->r;
    scope *s = &w->top;
    int nu = 0;
    for (int p = 0; p < r->npartitions; p++) {
        if (!w->fname[p])
            continue;
        unit u = {w->members[p].v, w->members[p].n, p, -1};
        for (int i = 0; i < u.n; i++) {
            int x = u.nodes[i];
            if (!is_statement(w->g, x))
                continue;
            if (s->unit[x] >= 0) {
                bx_error_set(err, NULL, 0, 0, "node %d is in partitions %d and %d", x,
                             units[s->unit[x]].group, p);
                return -1;
            }
            s->unit[x] = nu;
        }
        units[nu++] = u;
    }
    for (int x = 0; x < w->n; x++) {
        if (!is_statement(w->g, x) || s->unit[x] >= 0)
            continue;
        if (byoc_node_kind_of(w->g, x) == BYOC_N_CALL) {
            bx_strbuf b = {0};
            bx_put_node_label(&b, w->g, x, BX_LABEL_BARE_CONST);
            bx_error_set(err, NULL, 0, 0, "call %s (%s) is in no partition", bx_sb_str(&b),
                         byoc_node_op_name(w->g, x));
            bx_sb_free(&b);
            return -1;
        }
        units[nu] = single(x);
        units[nu].nodes = &units[nu].one;
        s->unit[x] = nu++;
    }
    return nu;
}

static void write_main(rw *w, const unit *units, const int *order, int nu)
{
    scope *s = &w->top;
    int out = byoc_graph_output(w->g);
    values res = {&out, 1};
    fputs("def @main(", w->f);
    bool first = true;
    for (int i = 0; i < w->n; i++)
        if (byoc_node_kind_of(w->g, i) == BYOC_N_INPUT) {
            fprintf(w->f, "%s%%%s: ", first ? "" : ", ", w->names[i]);
            bx_relay_put_type(w->f, w->g, i);
            first = false;
        }
    fputc(')', w->f);
    put_ret(w->f, w->g, &res);
    fputs(" {\n", w->f);
    w->s = s;
    w->next = 0;
    bool ended = false;
    for (int k = 0; k < nu; k++) {
        const unit *u = &units[order[k]];
        const values *uo = u->group >= 0 ? &w->outs[u->group] : NULL;
        bool last = k == nu - 1 && ends_body(u, &res, uo);
        if (u->group < 0) {
            write_node(w, u->one, last);
        } else {
            char callee[200];
            snprintf(callee, sizeof callee, "@%s", w->fname[u->group]);
            write_call(w, callee, &w->params[u->group], uo, last);
        }
        ended = last;
    }
    if (!ended)
        write_result(w, &res);
    fputs("}\n", w->f);
}

typedef struct fn_name {
    const char *name;
    int part;              /* -1: @main */
} fn_name;

static int cmp_fn_name(const void *a, const void *b)
{
    return strcmp(((const fn_name *)a)->name, ((const fn_name *)b)->name);
}

static void rw_init(rw *w, const byoc_graph *g, const byoc_result *r, FILE *f)
{
    memset(w, 0, sizeof *w);
    w->g = g;
    w->r = r;
    w->f = f;
    w->n = byoc_graph_node_count(g);
    w->meta = int_array(w->n, -1);
    w->compof = int_array(w->n, -1);
    w->names = bx_relay_input_names(g);
    scope_init(&w->top, w->n);
    scope_init(&w->part, w->n);
    scope_init(&w->comp, w->n);
    w->top.main = true;
    int np = r ? r->npartitions : 0;
    w->members = bx_xcalloc((size_t)np + 1, sizeof(values));
    w->params = bx_xcalloc((size_t)np + 1, sizeof(values));
    w->outs = bx_xcalloc((size_t)np + 1, sizeof(values));
    w->fname = bx_xcalloc((size_t)np + 1, sizeof(char *));
}

static void rw_free(rw *w)
{
    int np = w->r ? w->r->npartitions : 0;
    for (int p = 0; p < np; p++) {
        free(w->members[p].v);
        free(w->params[p].v);
        free(w->outs[p].v);
        free(w->fname[p]);
    }
    free(w->members);
    free(w->params);
    free(w->outs);
    free(w->fname);
    scope_free(&w->top);
    scope_free(&w->part);
    scope_free(&w->comp);
    bx_relay_free_names(w->g, w->names);
    free(w->meta);
    free(w->compof);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* A partition's nodes as Relay writes them: its own, plus the projections
 * of its tuples that no partition holds (batch_norm's .1 when the graph
 * uses it), which go inside its function the way TVM's AnnotateTarget
 * puts a TupleGetItem with its tuple.  The function then returns tensors
 * rather than a tuple nested in its tuple of outputs, which byoc's graphs
 * (and so a reader of the output) cannot type. */
static void gather_members(rw *w)
{
    const byoc_result *r = w->r;
    int *owner = int_array(w->n, -1);
    for (int p = 0; p < r->npartitions; p++)
        for (int i = 0; i < r->partitions[p].nnodes; i++)
            if (owner[r->partitions[p].nodes[i]] < 0)
                owner[r->partitions[p].nodes[i]] = p;
    for (int p = 0; p < r->npartitions; p++) {
        const byoc_partition *P = &r->partitions[p];
        values *m = &w->members[p];
        m->v = bx_xcalloc((size_t)(P->nnodes + w->n) + 1, sizeof(int));
        memcpy(m->v, P->nodes, sizeof(int) * (size_t)P->nnodes);
        m->n = P->nnodes;
        for (int i = 0; i < P->nnodes; i++)
            for (int c = 0; c < byoc_node_consumer_count(w->g, P->nodes[i]); c++) {
                int x = byoc_node_consumer(w->g, P->nodes[i], c);
                if (owner[x] < 0 && byoc_node_kind_of(w->g, x) == BYOC_N_PROJ) {
                    owner[x] = p;
                    m->v[m->n++] = x;
                }
            }
        qsort(m->v, (size_t)m->n, sizeof(int), cmp_int);
    }
    free(owner);
}

/* Everything that can be wrong with the result is found here, before a
 * byte is written. */
static int prepare_module(rw *w, unit *units, int *order, byoc_error *err)
{
    gather_members(w);
    for (int p = 0; p < w->r->npartitions; p++)
        if (prepare_partition(w, p, err) < 0)
            return -1;
    int nu = main_units(w, units, err);
    if (nu < 0)
        return -1;
    if (schedule(w->g, &w->top, units, nu, order) < 0) {
        bx_error_set(err, NULL, 0, 0, "the partitions use each other's results: "
                                      "no order of them can run");
        return -1;
    }
    return nu;
}

/* The functions in the order TVM's printer uses: sorted by name. */
static void write_module(rw *w, const unit *units, const int *order, int nu)
{
    const byoc_result *r = w->r;
    fn_name *fns = bx_xcalloc((size_t)r->npartitions + 1, sizeof(fn_name));
    int nf = 0;
    fns[nf++] = (fn_name){"main", -1};
    for (int p = 0; p < r->npartitions; p++)
        if (w->fname[p])
            fns[nf++] = (fn_name){w->fname[p], p};
    qsort(fns, (size_t)nf, sizeof(fn_name), cmp_fn_name);
    fputs("#[version = \"0.0.5\"]\n", w->f);
    for (int i = 0; i < nf; i++) {
        fputs(i ? "\n" : "", w->f);
        if (fns[i].part < 0)
            write_main(w, units, order, nu);
        else
            write_partition(w, fns[i].part);
    }
    free(fns);
}

static int byoc_result_write_relay_unguarded(const byoc_result *r, FILE *f, byoc_error *err)
{
    if (bx_result_check(r, err) < 0 || bx_relay_check_writable(r->graph, err) < 0)
        return -1;
    rw w;
    rw_init(&w, r->graph, r, f);
    unit *units = bx_xcalloc((size_t)(w.n + r->npartitions) + 1, sizeof(unit));
    int *order = bx_xcalloc((size_t)(w.n + r->npartitions) + 1, sizeof(int));
    int nu = prepare_module(&w, units, order, err);
    if (nu >= 0)
        write_module(&w, units, order, nu);
    free(units);
    free(order);
    rw_free(&w);
    return nu < 0 ? -1 : bx_writer_finish(f, err, "Relay output");
}

int byoc_result_write_relay(const byoc_result *r, FILE *f, byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, -1);
    int result = byoc_result_write_relay_unguarded(r, f, err);
    bx_oom_close(&guard);
    return result;
}

int bx_relay_write_kernel(FILE *f, const byoc_graph *g, const int *nodes, int n,
                          const char *name)
{
    for (int i = 0; i < n; i++)
        if (byoc_node_is_opaque(g, nodes[i]))
            return -1;
    rw w;
    rw_init(&w, g, NULL, f);
    scope *s = &w.part;
    s->consts_as_params = true;
    snprintf(s->prefix, sizeof s->prefix, "%s_i", name);
    int last = -1;
    for (int i = 0; i < n; i++)
        if (is_statement(g, nodes[i]))
            s->unit[last = nodes[i]] = i;
    values ps, outs;
    collect_params(g, s, nodes, n, &ps);
    collect_outputs(g, s, nodes, n, &outs);
    fprintf(f, "def @%s(", name);
    put_params(f, g, s->prefix, &ps);
    fputc(')', f);
    put_ret(f, g, &outs);
    fputs(" {\n", f);
    w.s = s;
    bool ended = outs.n == 1 && outs.v[0] == last;
    for (int i = 0; i < n; i++)
        if (is_statement(g, nodes[i]))
            write_node(&w, nodes[i], ended && nodes[i] == last);
    if (!ended && outs.n > 0)
        write_result(&w, &outs);
    fputs("}\n", f);
    free(ps.v);
    free(outs.v);
    rw_free(&w);
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}

/* The public form of bx_relay_write_kernel, for one kernel a cost
 * function is asked about (<byoc/partition.h>). */
static int kernel_write_relay_unguarded(const byoc_kernel *k, const char *name, FILE *f,
                                        byoc_error *err)
{
    if (!name)
        name = "kernel";
    bool ok = *name && !(*name >= '0' && *name <= '9') && strlen(name) < 48;
    for (const char *c = name; ok && *c; c++)
        ok = *c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
             (*c >= '0' && *c <= '9');
    if (!ok) {
        bx_error_set(err, NULL, 0, 0,
                     "bad kernel function name '%s' (letters, digits and '_', at most 47)", name);
        return -1;
    }
    for (int i = 0; i < k->nnodes; i++)
        if (byoc_node_is_opaque(k->graph, k->nodes[i])) {
            const char *op = byoc_node_op_name(k->graph, k->nodes[i]);
            bx_error_set(err, NULL, 0, 0, "the kernel holds an opaque call (%s), which has no "
                         "Relay form", op ? op : "?");
            return -1;
        }
    if (bx_relay_write_kernel(f, k->graph, k->nodes, k->nnodes, name) != 0) {
        bx_error_set(err, NULL, 0, 0, "write error while writing a kernel as Relay");
        return -1;
    }
    return 0;
}

int byoc_kernel_write_relay(const byoc_kernel *k, const char *name, FILE *f, byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, -1);
    int result = kernel_write_relay_unguarded(k, name, f, err);
    bx_oom_close(&guard);
    return result;
}
