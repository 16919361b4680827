/* Control flow: ONNX If, Loop and Scan.
 *
 * An If whose condition the reader knows - a constant, or arithmetic it
 * folded - is its taken branch: the branch's nodes join the graph as if
 * they were the enclosing graph's, mapped, folded and typed like any
 * node, and the If's outputs are the branch's.  Anything else stays one
 * opaque call (If, Loop, Scan) on the node's inputs and on the enclosing
 * values its subgraphs read, and holds each subgraph, read into a graph
 * of its own whose formal inputs are typed from what the node passes in:
 * `byoc info` shows them; the partitioner places the call as one node
 * and never looks inside.
 *
 * The idea needed to read it: the call's outputs are typed as the model
 * declares them, and what the declarations leave unknown is taken from
 * the subgraphs only where it holds on every path - what both branches
 * agree on, what a loop-carried value has both before and after an
 * iteration, the slices a scan output stacks. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <string.h>

#include "graph_impl.h"
#include "onnx.h"

static const byoc_tensor_type unknown_type = {BYOC_DT_VOID, -1, {0}};

bool ox_is_control_flow(const ox_node *n)
{
    if (n->domain[0] && strcmp(n->domain, "ai.onnx") != 0)
        return false;
    return !strcmp(n->op_type, "If") || !strcmp(n->op_type, "Loop")
           || !strcmp(n->op_type, "Scan");
}

static int graph_attr(ox_cx *cx, const char *name, const ox_graph **out)
{
    const ox_attr *a = ox_attr_find(cx->node, name);
    if (!a)
        return ox_fail(cx, "has no attribute '%s'", name);
    if (a->type != OX_AT_GRAPH || !a->g)
        return ox_fail(cx, "attribute '%s' is not a graph", name);
    *out = a->g;
    return 0;
}

/* What two types agree on: a dtype or size they differ in is unknown. */
static byoc_tensor_type join(const byoc_tensor_type *a, const byoc_tensor_type *b)
{
    byoc_tensor_type t = unknown_type;
    if (a->dtype == b->dtype)
        t.dtype = a->dtype;
    if (a->rank >= 0 && a->rank == b->rank) {
        t.rank = a->rank;
        for (int k = 0; k < a->rank; k++)
            t.dims[k] = a->dims[k] == b->dims[k] ? a->dims[k] : BYOC_DIM_UNKNOWN;
    }
    return t;
}

/* The type of output i of sg, read by ox_graph_build into g: inferred,
 * what inference leaves unknown taken from sg's declaration. */
static byoc_tensor_type sub_output(const byoc_graph *g, const ox_graph *sg, int i, int n)
{
    int out = byoc_graph_output(g);
    const byoc_tensor_type *t = out < 0 ? NULL : byoc_node_type(g, out, n == 1 ? -1 : i);
    byoc_tensor_type decl = ox_graph_output_decl(sg, i);
    return ox_type_fill(t ? *t : unknown_type, &decl);
}

/* The call that stands for the node: its inputs (absent ones left out),
 * then the enclosing values its subgraphs read; typed `types`; holding
 * subs, which it takes (destroyed here on failure). */
static int host_node(ox_cx *cx, const byoc_tensor_type *types, const char *const *names,
                     byoc_graph **subs, int nsubs)
{
    const ox_node *n = cx->node;
    int *args = ox_alloc(cx, sizeof(int) * (size_t)(n->ninputs + n->nimplicit + 1)), nargs = 0;
    int call = -1, held = 0;
    byoc_error e;
    for (int i = 0; i < n->ninputs + n->nimplicit; i++) {
        ox_value *v = i < n->ninputs ? ox_in(cx, i) : ox_implicit(cx, i - n->ninputs);
        if (v && (args[nargs++] = ox_node_of(cx, v)) < 0)
            goto fail;
    }
    if ((call = byoc_graph_add_opaque(cx->g, n->op_type, args, nargs, &e)) < 0) {
        ox_fail(cx, "%s", e.msg);
        goto fail;
    }
    for (; held < nsubs; held++)
        if (byoc_graph_add_subgraph(cx->g, call, names[held], subs[held], &e) < 0) {
            ox_fail(cx, "%s: %s", names[held], e.msg);
            goto fail;
        }
    char desc[200];
    bx_graph_note(cx->g, "%s: kept as one opaque call holding %d subgraph%s, which byoc does "
                         "not partition",
                  ox_node_desc(n, desc, sizeof desc), nsubs, nsubs == 1 ? "" : "s");
    if (n->noutputs == 1) {
        byoc_graph_set_type(cx->g, call, &types[0]);
        ox_define(cx, 0, call);
        return 0;
    }
    if (byoc_graph_set_tuple_type(cx->g, call, types, n->noutputs, &e) < 0)
        return ox_fail(cx, "%s", e.msg);
    if (n->name[0])
        byoc_graph_set_name(cx->g, call, n->name);
    for (int i = 0; i < n->noutputs; i++) {
        if (!n->outputs[i][0])
            continue;   /* an output the model leaves out */
        int p = ox_proj(cx, call, i);
        if (p < 0)
            return -1;
        ox_define(cx, i, p);
    }
    return 0;
fail:
    for (int i = held; i < nsubs; i++)
        byoc_graph_destroy(subs[i]);
    return -1;
}

/* ---- If ---------------------------------------------------------------------------- */

static int convert_if(ox_cx *cx)
{
    static const char *const names[] = {"then_branch", "else_branch"};
    const ox_graph *br[2];
    int nout = cx->node->noutputs;
    for (int b = 0; b < 2; b++) {
        if (graph_attr(cx, names[b], &br[b]) < 0)
            return -1;
        if (ox_graph_output_count(br[b]) != nout)
            return ox_fail(cx, "%s has %d output%s; the node has %d", names[b],
                           ox_graph_output_count(br[b]),
                           ox_graph_output_count(br[b]) == 1 ? "" : "s", nout);
        if (ox_graph_input_count(br[b]) != 0)
            return ox_fail(cx, "%s has %d inputs; a branch takes none", names[b],
                           ox_graph_input_count(br[b]));
    }
    ox_value *cond = ox_in(cx, 0);
    if (!cond)
        return ox_fail(cx, "input 1 (the condition) is missing");
    const ox_tensor *t = ox_data(cx, cond);
    if (t && (t->i || t->f)) {
        if (t->n != 1)
            return ox_fail(cx, "the condition has %zu elements; If takes one", t->n);
        int b = (t->i ? t->i[0] != 0 : t->f[0] != 0) ? 0 : 1;
        char desc[200];
        bx_graph_note(cx->g, "%s: the condition is always %s: replaced by its %s",
                      ox_node_desc(cx->node, desc, sizeof desc), b == 0 ? "true" : "false",
                      names[b]);
        return ox_graph_inline(cx, names[b], br[b]);
    }
    /* Only one branch runs.  A branch that cannot be read with the shapes
     * it is given (Silero VAD's 8 kHz branch on a 16 kHz frame: a rank
     * its LSTM refuses) is left out with a note, as long as the other
     * reads; both failing is the model's error. */
    byoc_graph *subs[2];
    char why[2][512];
    for (int b = 0; b < 2; b++) {
        subs[b] = ox_graph_build(cx, names[b], br[b], NULL, 0);
        /* A branch malformed in itself (a name nobody writes) is the
         * model's error. */
        if (!subs[b] && ox_recover(cx, why[b], sizeof why[b]) < 0)
            return -1;
    }
    /* The messages start with this node; the note and the error say it
     * once. */
    char desc[200], prefix[220];
    snprintf(prefix, sizeof prefix, "%s: ", ox_node_desc(cx->node, desc, sizeof desc));
    const char *reason[2];
    for (int b = 0; b < 2; b++)
        reason[b] = subs[b] ? "" : strncmp(why[b], prefix, strlen(prefix)) ? why[b]
                                                                            : why[b] + strlen(prefix);
    if (!subs[0] && !subs[1]) {
        ox_fail(cx, "neither branch can be read: %s", reason[0]);
        return -1;
    }
    const char *kept[2];
    byoc_graph *held[2];
    const ox_graph *from[2];
    int nheld = 0;
    for (int b = 0; b < 2; b++) {
        if (subs[b]) {
            kept[nheld] = names[b];
            from[nheld] = br[b];
            held[nheld++] = subs[b];
        } else {
            bx_graph_note(cx->g, "%s: its %s is left out, since it cannot be read with these "
                                 "shapes: %s",
                          desc, names[b], reason[b]);
        }
    }
    byoc_tensor_type *types = ox_alloc(cx, sizeof(*types) * (size_t)(nout + 1));
    for (int i = 0; i < nout; i++) {
        byoc_tensor_type a = sub_output(held[0], from[0], i, nout);
        byoc_tensor_type both = a;
        if (nheld == 2) {
            byoc_tensor_type b = sub_output(held[1], from[1], i, nout);
            both = join(&a, &b);
        }
        types[i] = ox_type_fill(ox_out_decl(cx, i), &both);
    }
    return host_node(cx, types, kept, held, nheld);
}

/* ---- Loop -------------------------------------------------------------------------- */

/* t with a new leading axis of unknown size, as a loop's or scan's
 * output stacks its per-iteration values; axis is where it goes. */
static byoc_tensor_type stacked(const byoc_tensor_type *t, int axis, int64_t size)
{
    byoc_tensor_type s = unknown_type;
    s.dtype = t->dtype;
    if (t->rank < 0 || t->rank >= BYOC_MAX_RANK || axis < 0 || axis > t->rank)
        return s;
    s.rank = t->rank + 1;
    for (int k = 0, j = 0; k < s.rank; k++)
        s.dims[k] = k == axis ? size : t->dims[j++];
    return s;
}

static int convert_loop(ox_cx *cx)
{
    const ox_node *n = cx->node;
    const ox_graph *body;
    if (graph_attr(cx, "body", &body) < 0)
        return -1;
    int carried = n->ninputs > 2 ? n->ninputs - 2 : 0, scans = n->noutputs - carried;
    if (scans < 0)
        return ox_fail(cx, "has %d loop-carried inputs but %d outputs", carried, n->noutputs);
    if (ox_graph_input_count(body) != 2 + carried)
        return ox_fail(cx, "body has %d inputs; with %d loop-carried values it takes %d",
                       ox_graph_input_count(body), carried, 2 + carried);
    if (ox_graph_output_count(body) != 1 + carried + scans)
        return ox_fail(cx, "body has %d outputs; the condition, %d loop-carried values and %d "
                           "scan outputs make %d",
                       ox_graph_output_count(body), carried, scans, 1 + carried + scans);
    byoc_tensor_type *formals = ox_alloc(cx, sizeof(*formals) * (size_t)(2 + carried));
    formals[0] = formals[1] = unknown_type;
    formals[0].dtype = BYOC_DT_INT64;   /* the iteration number */
    formals[0].rank = 0;
    formals[1].dtype = BYOC_DT_BOOL;    /* the condition */
    formals[1].rank = 0;
    for (int k = 0; k < carried; k++)
        formals[2 + k] = ox_type(cx, ox_in(cx, 2 + k));
    static const char *const names[] = {"body"};
    byoc_graph *sub = ox_graph_build(cx, "body", body, formals, 2 + carried);
    if (!sub)
        return -1;
    int nout = ox_graph_output_count(body);
    byoc_tensor_type *types = ox_alloc(cx, sizeof(*types) * (size_t)(n->noutputs + 1));
    for (int i = 0; i < n->noutputs; i++) {
        byoc_tensor_type b = sub_output(sub, body, 1 + i, nout), known;
        if (i < carried)
            known = join(&formals[2 + i], &b);
        else
            known = stacked(&b, 0, BYOC_DIM_UNKNOWN);
        types[i] = ox_type_fill(ox_out_decl(cx, i), &known);
    }
    return host_node(cx, types, names, &sub, 1);
}

/* ---- Scan -------------------------------------------------------------------------- */

/* Attribute `name`, a list of n axes (all 0 when absent), each made
 * non-negative against ranks[k] (+ extra) where that is known. */
static int scan_axes(ox_cx *cx, const char *name, int n, const byoc_tensor_type *types,
                     int extra, int *axes)
{
    const int64_t *v;
    size_t count;
    int rc = ox_attr_ints(cx, name, &v, &count);
    if (rc < 0)
        return -1;
    if (rc > 0 && count != (size_t)n)
        return ox_fail(cx, "attribute '%s' has %zu axes; the node has %d such values", name,
                       count, n);
    for (int k = 0; k < n; k++) {
        int64_t a = rc > 0 ? v[k] : 0;
        int rank = types[k].rank < 0 ? -1 : types[k].rank + extra;
        if (rank >= 0 && (a < -rank || a >= rank))
            return ox_fail(cx, "attribute '%s': axis %lld is out of range for rank %d", name,
                           (long long)a, rank);
        if (rank >= 0)
            axes[k] = (int)(a < 0 ? a + rank : a);
        else
            axes[k] = a >= 0 && a <= BYOC_MAX_RANK ? (int)a : -1;   /* not known */
    }
    return 0;
}

static int convert_scan(ox_cx *cx)
{
    const ox_node *n = cx->node;
    const ox_graph *body;
    if (graph_attr(cx, "body", &body) < 0)
        return -1;
    static const char *const names[] = {"body"};
    byoc_graph *sub;
    byoc_tensor_type *types = ox_alloc(cx, sizeof(*types) * (size_t)(n->noutputs + 1));
    if (cx->opset < 9) {
        /* Scan 8 has a batch axis and sequence lengths: its body's formal
         * inputs are typed as the model declares them, no more. */
        if (!(sub = ox_graph_build(cx, "body", body, NULL, 0)))
            return -1;
        for (int i = 0; i < n->noutputs; i++)
            types[i] = ox_out_decl(cx, i);
        return host_node(cx, types, names, &sub, 1);
    }
    int64_t m;
    int rc = ox_attr_int(cx, "num_scan_inputs", -1, &m);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return ox_fail(cx, "has no attribute 'num_scan_inputs'");
    if (m < 1 || m > n->ninputs)
        return ox_fail(cx, "num_scan_inputs is %lld; the node has %d inputs", (long long)m,
                       n->ninputs);
    int scans_in = (int)m, state = n->ninputs - scans_in, scans_out = n->noutputs - state;
    if (scans_out < 0)
        return ox_fail(cx, "has %d state inputs but %d outputs", state, n->noutputs);
    if (ox_graph_input_count(body) != n->ninputs)
        return ox_fail(cx, "body has %d inputs; the node has %d", ox_graph_input_count(body),
                       n->ninputs);
    if (ox_graph_output_count(body) != n->noutputs)
        return ox_fail(cx, "body has %d outputs; the node has %d", ox_graph_output_count(body),
                       n->noutputs);
    byoc_tensor_type *formals = ox_alloc(cx, sizeof(*formals) * (size_t)(n->ninputs + 1));
    for (int k = 0; k < n->ninputs; k++)
        formals[k] = ox_type(cx, ox_in(cx, k));
    int *in_axes = ox_alloc(cx, sizeof(int) * (size_t)(scans_in + 1));
    if (scan_axes(cx, "scan_input_axes", scans_in, formals + state, 0, in_axes) < 0)
        return -1;
    /* The number of iterations: the first scan input's length on its axis. */
    int64_t length = BYOC_DIM_UNKNOWN;
    if (formals[state].rank > 0 && in_axes[0] >= 0 && in_axes[0] < formals[state].rank)
        length = formals[state].dims[in_axes[0]];
    for (int j = 0; j < scans_in; j++) {
        byoc_tensor_type *t = &formals[state + j], slice = unknown_type;
        slice.dtype = t->dtype;
        if (t->rank > 0 && in_axes[j] >= 0 && in_axes[j] < t->rank) {
            slice.rank = t->rank - 1;
            for (int k = 0, d = 0; k < t->rank; k++)
                if (k != in_axes[j])
                    slice.dims[d++] = t->dims[k];
        }
        *t = slice;
    }
    if (!(sub = ox_graph_build(cx, "body", body, formals, n->ninputs)))
        return -1;
    byoc_tensor_type *slices = ox_alloc(cx, sizeof(*slices) * (size_t)(scans_out + 1));
    for (int j = 0; j < scans_out; j++)
        slices[j] = sub_output(sub, body, state + j, n->noutputs);
    int *out_axes = ox_alloc(cx, sizeof(int) * (size_t)(scans_out + 1));
    if (scan_axes(cx, "scan_output_axes", scans_out, slices, 1, out_axes) < 0) {
        byoc_graph_destroy(sub);
        return -1;
    }
    for (int i = 0; i < n->noutputs; i++) {
        byoc_tensor_type b = sub_output(sub, body, i, n->noutputs), known;
        if (i < state)
            known = join(&formals[i], &b);
        else
            known = stacked(&b, out_axes[i - state], length);
        types[i] = ox_type_fill(ox_out_decl(cx, i), &known);
    }
    return host_node(cx, types, names, &sub, 1);
}

int ox_convert_control_flow(ox_cx *cx)
{
    const char *op = cx->node->op_type;
    return !strcmp(op, "If") ? convert_if(cx) : !strcmp(op, "Loop") ? convert_loop(cx)
                                                                  : convert_scan(cx);
}
