/* The partitions as passes see them: each with the tensors it reads and
 * writes across its boundary (include/byoc/lower.h, doc/lowering.md).
 *
 * A partition's inputs are the values its member nodes read from outside
 * it, found by expanding each outside argument into the values it stands
 * for (lower_impl.h): a tensor is itself, a tuple is its fields.  The
 * expansion uses an explicit stack and expands each tuple node at most
 * once per partition, so a graph of tuples sharing tuples costs what its
 * nodes cost, however deep it nests.  Outputs follow from the inputs: a
 * value one partition makes and another reads, or the model returns.
 * Values are numbered densely in node and field order (bx_value_slot),
 * which gives both the dedup marks and the order of outputs. */
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "errfmt.h"
#include "lower/lower_impl.h"
#include "partition_impl.h"

typedef struct item {
    int node, field;            /* field -1: the whole node */
    int depth;                  /* tuples opened to reach it */
} item;

typedef struct builder {
    const byoc_result *r;
    const byoc_graph *g;
    bx_names *nm;
    int *slot_mark;             /* per value: stamp of the last collection */
    int *tuple_mark;            /* per node: stamp of the last expansion */
    int stamp;
    item *stack;
    size_t sp, cap;
    int *got;                   /* the values of one collection, in order */
    size_t ngot, capgot;
} builder;

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * elem);
    if (!q)
        bx_oom();
    *cap = c;
    return q;
}

static void push(builder *b, int node, int field, int depth)
{
    b->stack = grow(b->stack, &b->cap, b->sp + 1, sizeof *b->stack);
    b->stack[b->sp++] = (item){node, field, depth};
}

/* The partition making value slot: -1 for a model input (or a node no
 * partition holds), -2 for a constant, which is never a boundary tensor. */
static int maker(const builder *b, int slot)
{
    int vn, vf;
    bx_value_at(b->nm, slot, &vn, &vf);
    int root = bx_value_root(b->nm, vn);
    switch (byoc_node_kind_of(b->g, root)) {
    case BYOC_N_CONST: return -2;
    case BYOC_N_INPUT: return -1;
    default: return b->r->node_partition[root];
    }
}

static void emit(builder *b, int vn, int vf, int part)
{
    int slot = bx_value_slot(b->nm, vn, vf);
    if (slot < 0 || b->slot_mark[slot] == b->stamp)
        return;
    b->slot_mark[slot] = b->stamp;
    int m = maker(b, slot);
    if (m == -2 || (part >= 0 && m == part))
        return;
    b->got = grow(b->got, &b->capgot, b->ngot + 1, sizeof *b->got);
    b->got[b->ngot++] = slot;
}

/* Collect into b->got the values (node, field) stands for that partition
 * `part` does not make itself (part -1: every value). */
static void expand(builder *b, int node, int field, int part)
{
    push(b, node, field, 0);
    while (b->sp) {
        item it = b->stack[--b->sp];
        int vn, vf;
        if (bx_value_canon(b->nm, it.node, it.field, &vn, &vf)) {
            emit(b, vn, vf, part);
            continue;
        }
        int t = bx_value_tuple(b->nm, it.node);
        if (t < 0)
            continue;
        if (byoc_node_kind_of(b->g, t) != BYOC_N_TUPLE) {
            /* A value that is a tuple: each of its fields. */
            if (it.field < 0)
                for (int f = 0; f < byoc_node_field_count(b->g, t); f++)
                    emit(b, t, f, part);
            continue;
        }
        /* A tuple node: its fields, in order.  Types nest at most
         * BYOC_MAX_TUPLE_DEPTH deep, so a deeper item is a broken graph. */
        if (it.depth >= BYOC_MAX_TUPLE_DEPTH)
            continue;
        if (it.field >= 0) {
            if (it.field < byoc_node_arg_count(b->g, t))
                push(b, byoc_node_arg(b->g, t, it.field), -1, it.depth + 1);
            continue;
        }
        if (b->tuple_mark[t] == b->stamp)
            continue;
        b->tuple_mark[t] = b->stamp;
        for (int i = byoc_node_arg_count(b->g, t) - 1; i >= 0; i--)
            push(b, byoc_node_arg(b->g, t, i), -1, it.depth + 1);
    }
}

/* The values partition p reads from outside it, in order of first use. */
static void partition_inputs(builder *b, int p)
{
    const byoc_partition *P = &b->r->partitions[p];
    const int *np = b->r->node_partition;
    b->stamp++;
    b->ngot = 0;
    for (int k = 0; k < P->nnodes; k++) {
        int m = P->nodes[k];
        byoc_node_kind kind = byoc_node_kind_of(b->g, m);
        if (kind != BYOC_N_CALL && kind != BYOC_N_TUPLE && kind != BYOC_N_PROJ)
            continue;
        for (int i = 0; i < byoc_node_arg_count(b->g, m); i++) {
            int a = byoc_node_arg(b->g, m, i);
            if (np[a] == p)
                continue;
            /* A projection held by the partition reads one field only. */
            if (kind == BYOC_N_PROJ)
                expand(b, a, byoc_node_proj_index(b->g, m), p);
            else
                expand(b, a, -1, p);
        }
    }
}

static byoc_lower_tensor tensor_of(const builder *b, int slot)
{
    int vn, vf;
    bx_value_at(b->nm, slot, &vn, &vf);
    return (byoc_lower_tensor){
        .node = vn, .field = vf,
        .name = bx_value_name(b->nm, vn, vf),
        .type = byoc_node_type(b->g, vn, vf),
    };
}

static bool result_is_sound(const byoc_result *r, byoc_error *err)
{
    if (!r || !r->graph) {
        bx_error_set(err, NULL, 0, 0, "no result to lower");
        return false;
    }
    int n = byoc_graph_node_count(r->graph);
    if (r->npartitions < 0 || (r->npartitions > 0 && (!r->partitions || !r->node_partition))) {
        bx_error_set(err, NULL, 0, 0, "malformed result: partitions without their nodes");
        return false;
    }
    if (r->npartitions == 0)
        return true;
    for (int i = 0; i < n; i++)
        if (r->node_partition[i] < -1 || r->node_partition[i] >= r->npartitions) {
            bx_error_set(err, NULL, 0, 0, "malformed result: node %d is on partition %d of %d",
                         i, r->node_partition[i], r->npartitions);
            return false;
        }
    for (int p = 0; p < r->npartitions; p++) {
        const byoc_partition *P = &r->partitions[p];
        if (!P->target || P->nnodes < 0 || (P->nnodes > 0 && !P->nodes)) {
            bx_error_set(err, NULL, 0, 0, "malformed result: partition %d has no target or nodes",
                         p);
            return false;
        }
        for (int k = 0; k < P->nnodes; k++)
            if (P->nodes[k] < 0 || P->nodes[k] >= n || r->node_partition[P->nodes[k]] != p) {
                bx_error_set(err, NULL, 0, 0,
                             "malformed result: node %d of partition %d is not placed there",
                             P->nodes[k], p);
                return false;
            }
    }
    /* And no node is placed on a partition that does not list it. */
    int *placed = calloc((size_t)r->npartitions, sizeof *placed);
    if (!placed) {
        bx_error_set(err, NULL, 0, 0, "out of memory");
        return false;
    }
    for (int i = 0; i < n; i++)
        if (r->node_partition[i] >= 0)
            placed[r->node_partition[i]]++;
    bool ok = true;
    for (int p = 0; ok && p < r->npartitions; p++)
        if (placed[p] != r->partitions[p].nnodes) {
            bx_error_set(err, NULL, 0, 0,
                         "malformed result: partition %d holds %d of the %d nodes placed on it",
                         p, r->partitions[p].nnodes, placed[p]);
            ok = false;
        }
    free(placed);
    return ok;
}

static void build(bx_lower_parts *lp, const byoc_result *r, bx_names *nm)
{
    builder b = {.r = r, .g = r->graph, .nm = nm};
    int nslots = bx_value_count(nm), nnodes = byoc_graph_node_count(r->graph);
    int nparts = r->npartitions;
    bx_arena *a = &lp->arena;
    b.slot_mark = BX_NEWN(a, int, nslots + 1);
    b.tuple_mark = BX_NEWN(a, int, nnodes + 1);
    int *reader = BX_NEWN(a, int, nslots + 1);     /* first partition reading */
    bool *returned = BX_NEWN(a, bool, nslots + 1); /* the model returns it */
    for (int s = 0; s < nslots; s++)
        reader[s] = -1;

    lp->nparts = nparts;
    lp->parts = BX_NEWN(a, byoc_lower_part, nparts + 1);
    int **in_slots = BX_NEWN(a, int *, nparts + 1);
    for (int p = 0; p < nparts; p++) {
        partition_inputs(&b, p);
        byoc_lower_part *part = &lp->parts[p];
        part->index = p;
        part->order = p;        /* result->partitions is in execution order */
        part->partition = &r->partitions[p];
        part->ninputs = (int)b.ngot;
        in_slots[p] = bx_arena_memdup(a, b.got, b.ngot * sizeof *b.got);
        for (size_t i = 0; i < b.ngot; i++)
            if (reader[b.got[i]] < 0)
                reader[b.got[i]] = p;
    }
    int out = byoc_graph_output(r->graph);
    if (out >= 0) {
        b.stamp++;
        b.ngot = 0;
        expand(&b, out, -1, -1);
        for (size_t i = 0; i < b.ngot; i++)
            returned[b.got[i]] = true;
    }

    /* Outputs, in value order: what another partition reads or the model
     * returns. */
    int *nout = BX_NEWN(a, int, nparts + 1);
    for (int s = 0; s < nslots; s++) {
        int m = (reader[s] >= 0 || returned[s]) ? maker(&b, s) : -1;
        if (m >= 0)
            nout[m]++;
    }
    byoc_lower_tensor **outs = BX_NEWN(a, byoc_lower_tensor *, nparts + 1);
    for (int p = 0; p < nparts; p++) {
        outs[p] = BX_NEWN(a, byoc_lower_tensor, nout[p] + 1);
        lp->parts[p].outputs = outs[p];
        nout[p] = 0;
    }
    for (int s = 0; s < nslots; s++) {
        int m = (reader[s] >= 0 || returned[s]) ? maker(&b, s) : -1;
        if (m < 0)
            continue;
        byoc_lower_tensor t = tensor_of(&b, s);
        t.partition = returned[s] ? -1 : reader[s];
        t.model_output = returned[s];
        outs[m][nout[m]++] = t;
    }
    for (int p = 0; p < nparts; p++) {
        byoc_lower_part *part = &lp->parts[p];
        part->noutputs = nout[p];
        byoc_lower_tensor *ins = BX_NEWN(a, byoc_lower_tensor, part->ninputs + 1);
        for (int i = 0; i < part->ninputs; i++) {
            int s = in_slots[p][i];
            ins[i] = tensor_of(&b, s);
            ins[i].partition = maker(&b, s);
            ins[i].model_output = returned[s];
        }
        part->inputs = ins;
    }
    free(b.stack);
    free(b.got);
}

bx_lower_parts *bx_lower_parts_build(const byoc_result *r, byoc_error *err)
{
    if (!result_is_sound(r, err))
        return NULL;
    bx_names *nm = bx_names_build(r->graph, err);
    if (!nm)
        return NULL;
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, NULL);
    bx_lower_parts *lp = calloc(1, sizeof *lp);
    if (!lp)
        bx_oom();
    bx_arena_init(&lp->arena);
    lp->names = nm;
    build(lp, r, nm);
    bx_oom_close(&guard);
    return lp;
}

void bx_lower_parts_destroy(bx_lower_parts *lp)
{
    if (!lp)
        return;
    bx_names_destroy(lp->names);
    bx_arena_free(&lp->arena);
    free(lp);
}

/* A result byoc_partition_graph made points at itself (partition.c). */
static byoc_result_impl *impl_of(const byoc_result *r)
{
    return r && r->priv == (const void *)r ? (byoc_result_impl *)(void *)r : NULL;
}

const bx_lower_parts *bx_result_lower_parts(const byoc_result *r, bx_lower_parts **own,
                                            byoc_error *err)
{
    *own = NULL;
    byoc_result_impl *ri = impl_of(r);
    if (!ri) {
        *own = bx_lower_parts_build(r, err);
        return *own;
    }
    if (!ri->lower)
        ri->lower = bx_lower_parts_build(r, err);
    return ri->lower;
}

const byoc_lower_part *byoc_result_parts(const byoc_result *r, int *n, byoc_error *err)
{
    if (n)
        *n = 0;
    if (r && !impl_of(r)) {
        bx_error_set(err, NULL, 0, 0,
                     "a result built by hand keeps no parts: byoc_result_parts needs one "
                     "byoc_partition_graph made");
        return NULL;
    }
    bx_lower_parts *own;
    const bx_lower_parts *lp = bx_result_lower_parts(r, &own, err);
    if (!lp)
        return NULL;
    if (n)
        *n = lp->nparts;
    return lp->parts;
}
