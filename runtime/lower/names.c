/* The tensors of a graph and their names (lower_impl.h).
 *
 * One pass in node order resolves each node to what it stands for: a
 * tensor-typed node to its value, a tuple-typed node to the node whose
 * fields its fields are.  A node uses only lower-numbered nodes, so each
 * answer is read from answers already made, and however deep projections
 * of tuples of projections go, nothing recurses and each node costs O(1).
 * Names are then given in two passes: source names first, in node order,
 * each to the value its node stands for when neither the value nor the
 * name is taken yet; then made-up ones for the rest, which avoid every
 * source name of the graph, taken or not, so that a made-up name never
 * reads as a tensor of the model that it is not. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "errfmt.h"
#include "hash.h"
#include "lower/lower_impl.h"

struct bx_names {
    const byoc_graph *g;
    int nnodes;
    int *tup;                   /* tuple-typed nodes: whose fields; else -1 */
    int *vnode, *vfield;        /* tensor-typed nodes: their value; else -1 */
    int *root;                  /* value nodes: the call, input or constant */
    int *off;                   /* value nodes: their first slot; else -1 */
    int nslots;
    int *slot_node;
    const char **name;          /* per slot */
    bx_arena arena;
    bx_hash taken;              /* names given */
    bx_hash source;             /* every source name of the graph */
};

/* Fields of a tuple-typed node (a tuple node's arguments), or -1. */
static int nfields(const byoc_graph *g, int n)
{
    if (byoc_node_kind_of(g, n) == BYOC_N_TUPLE)
        return byoc_node_arg_count(g, n);
    return byoc_node_field_count(g, n);
}

static bool is_tuple_node(const byoc_graph *g, int n)
{
    return byoc_node_kind_of(g, n) == BYOC_N_TUPLE;
}

/* Resolve node n from what lower-numbered nodes resolved to. */
static void resolve(bx_names *nm, int n)
{
    const byoc_graph *g = nm->g;
    byoc_node_kind kind = byoc_node_kind_of(g, n);
    int y = -1, index = -1, t = -1;
    if (kind == BYOC_N_PROJ && byoc_node_arg_count(g, n) == 1) {
        y = byoc_node_arg(g, n, 0);
        index = byoc_node_proj_index(g, n);
        t = y >= 0 && y < n ? nm->tup[y] : -1;
    }
    nm->tup[n] = nm->vnode[n] = nm->vfield[n] = -1;
    nm->root[n] = n;
    if (nfields(g, n) >= 0) {
        nm->tup[n] = n;
        if (t < 0)
            return;
        if (is_tuple_node(g, t)) {
            /* A field of a tuple node that is a tuple: that tuple's. */
            if (index >= 0 && index < byoc_node_arg_count(g, t)) {
                int a = byoc_node_arg(g, t, index);
                if (nm->tup[a] >= 0)
                    nm->tup[n] = nm->tup[a];
            }
        } else {
            /* A nested tuple of a value: a value of its own. */
            nm->root[n] = nm->root[t];
        }
        return;
    }
    nm->vnode[n] = n;
    if (t < 0)
        return;
    if (is_tuple_node(g, t)) {
        if (index >= 0 && index < byoc_node_arg_count(g, t)) {
            int a = byoc_node_arg(g, t, index);
            if (nm->vnode[a] >= 0) {
                nm->vnode[n] = nm->vnode[a];
                nm->vfield[n] = nm->vfield[a];
            }
        }
    } else if (index >= 0 && index < nfields(g, t)) {
        nm->vnode[n] = t;
        nm->vfield[n] = index;
    }
}

static bool is_value_node(const bx_names *nm, int n)
{
    return nm->vnode[n] == n || (nm->tup[n] == n && !is_tuple_node(nm->g, n));
}

bool bx_value_canon(const bx_names *nm, int node, int field, int *vnode, int *vfield)
{
    if (!nm || node < 0 || node >= nm->nnodes)
        return false;
    if (field < 0) {
        if (nm->vnode[node] < 0)
            return false;
        *vnode = nm->vnode[node];
        *vfield = nm->vfield[node];
        return true;
    }
    int t = nm->tup[node];
    if (t < 0)
        return false;
    if (is_tuple_node(nm->g, t)) {
        if (field >= byoc_node_arg_count(nm->g, t))
            return false;
        return bx_value_canon(nm, byoc_node_arg(nm->g, t, field), -1, vnode, vfield);
    }
    if (field >= nfields(nm->g, t))
        return false;
    *vnode = t;
    *vfield = field;
    return true;
}

int bx_value_tuple(const bx_names *nm, int node)
{
    return nm && node >= 0 && node < nm->nnodes ? nm->tup[node] : -1;
}

int bx_value_root(const bx_names *nm, int vnode)
{
    return nm && vnode >= 0 && vnode < nm->nnodes ? nm->root[vnode] : -1;
}

int bx_value_slot(const bx_names *nm, int vnode, int vfield)
{
    if (!nm || vnode < 0 || vnode >= nm->nnodes || nm->off[vnode] < 0)
        return -1;
    if (nm->vnode[vnode] == vnode)
        return vfield < 0 ? nm->off[vnode] : -1;
    return vfield >= 0 && vfield < nfields(nm->g, vnode) ? nm->off[vnode] + vfield : -1;
}

int bx_value_count(const bx_names *nm) { return nm ? nm->nslots : 0; }

void bx_value_at(const bx_names *nm, int slot, int *vnode, int *vfield)
{
    int n = nm->slot_node[slot];
    *vnode = n;
    *vfield = nm->vnode[n] == n ? -1 : slot - nm->off[n];
}

const char *bx_value_name(bx_names *nm, int node, int field)
{
    int vn, vf;
    if (!bx_value_canon(nm, node, field, &vn, &vf))
        return NULL;
    int slot = bx_value_slot(nm, vn, vf);
    return slot >= 0 ? nm->name[slot] : NULL;
}

static bool name_free(const bx_names *nm, const char *s)
{
    return !bx_hash_get(&nm->taken, s) && !bx_hash_get(&nm->source, s);
}

/* "byoc.N" or "byoc.N.F", then '_' appended until it is free. */
static const char *made_up(bx_names *nm, int vn, int vf)
{
    char base[32];
    int len = vf < 0 ? snprintf(base, sizeof base, "byoc.%d", vn)
                     : snprintf(base, sizeof base, "byoc.%d.%d", vn, vf);
    if (name_free(nm, base))
        return bx_arena_strdup(&nm->arena, base);
    /* Each try is one longer; a graph can only hold so many names. */
    size_t cap = (size_t)len + 16, n = (size_t)len;
    char *s = bx_arena_alloc(&nm->arena, cap);
    memcpy(s, base, (size_t)len + 1);
    for (;;) {
        if (n + 2 > cap) {
            char *bigger = bx_arena_alloc(&nm->arena, cap * 2);
            memcpy(bigger, s, n + 1);
            s = bigger;
            cap *= 2;
        }
        s[n++] = '_';
        s[n] = 0;
        if (name_free(nm, s))
            return s;
    }
}

static bx_names *build(const byoc_graph *g, byoc_error *err)
{
    bx_names *nm = calloc(1, sizeof *nm);
    if (!nm)
        bx_oom();
    bx_arena_init(&nm->arena);
    bx_hash_init(&nm->taken);
    bx_hash_init(&nm->source);
    nm->g = g;
    int n = byoc_graph_node_count(g);
    nm->nnodes = n;
    bx_arena *a = &nm->arena;
    nm->tup = BX_NEWN(a, int, n + 1);
    nm->vnode = BX_NEWN(a, int, n + 1);
    nm->vfield = BX_NEWN(a, int, n + 1);
    nm->root = BX_NEWN(a, int, n + 1);
    nm->off = BX_NEWN(a, int, n + 1);
    long long slots = 0;
    for (int i = 0; i < n; i++) {
        resolve(nm, i);
        nm->off[i] = -1;
        if (!is_value_node(nm, i))
            continue;
        nm->off[i] = (int)slots;
        slots += nm->vnode[i] == i ? 1 : nfields(g, i);
        if (slots > INT_MAX / 2) {
            bx_error_set(err, NULL, 0, 0, "the graph has too many tensors to name");
            bx_names_destroy(nm);
            return NULL;
        }
    }
    nm->nslots = (int)slots;
    nm->slot_node = BX_NEWN(a, int, slots + 1);
    nm->name = BX_NEWN(a, const char *, slots + 1);
    for (int i = 0; i < n; i++) {
        if (nm->off[i] < 0)
            continue;
        int k = nm->vnode[i] == i ? 1 : nfields(g, i);
        for (int f = 0; f < k; f++)
            nm->slot_node[nm->off[i] + f] = i;
    }

    for (int i = 0; i < n; i++) {
        const char *s = byoc_node_name(g, i);
        if (s && *s)
            bx_hash_put(&nm->source, s, (void *)s);
    }
    /* Source names, in node order: a tuple's own name names no tensor. */
    for (int i = 0; i < n; i++) {
        const char *s = byoc_node_name(g, i);
        int vn, vf;
        if (!s || !*s || !bx_value_canon(nm, i, -1, &vn, &vf))
            continue;
        int slot = bx_value_slot(nm, vn, vf);
        if (slot < 0 || nm->name[slot] || bx_hash_get(&nm->taken, s))
            continue;
        nm->name[slot] = s;
        bx_hash_put(&nm->taken, s, (void *)s);
    }
    for (int slot = 0; slot < nm->nslots; slot++) {
        if (nm->name[slot])
            continue;
        int vn, vf;
        bx_value_at(nm, slot, &vn, &vf);
        nm->name[slot] = made_up(nm, vn, vf);
        bx_hash_put(&nm->taken, nm->name[slot], (void *)nm->name[slot]);
    }
    return nm;
}

bx_names *bx_names_build(const byoc_graph *g, byoc_error *err)
{
    if (!g) {
        bx_error_set(err, NULL, 0, 0, "no graph");
        return NULL;
    }
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, NULL);
    bx_names *nm = build(g, err);
    bx_oom_close(&guard);
    return nm;
}

void bx_names_destroy(bx_names *nm)
{
    if (!nm)
        return;
    bx_hash_free(&nm->taken);
    bx_hash_free(&nm->source);
    bx_arena_free(&nm->arena);
    free(nm);
}
