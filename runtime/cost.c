/* The analytic cost model (see cost.h).
 *
 * The one idea: a kernel's memory traffic is its boundary, not its
 * interior.  Inputs are the distinct nodes that members use but that are
 * not members; outputs are members that something outside uses, or that
 * the graph returns.  Constants count as inputs: weights are read. */
#include "cost.h"

#include "die.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Index of node in members (ascending), or -1. */
static int member_index(const int *members, int n, int node)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (members[mid] == node)
            return mid;
        if (members[mid] < node)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

static bool is_member(const int *members, int n, int node)
{
    return member_index(members, n, node) >= 0;
}

double bx_tensor_bytes(const byoc_tensor_type *t)
{
    if (!t || t->rank < 0 || t->dtype == BYOC_DT_VOID)
        return -1;
    double e = 1;
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0)
            return -1;
        e *= (double)t->dims[i];
    }
    int bits = byoc_dtype_bits(t->dtype);
    return e * (bits < 8 ? 1 : bits / 8);
}

/* Recursion as deep as tuples nest, which the graph bounds. */
static double tuple_bytes(const byoc_tuple_type *t)
{
    double sum = 0;
    for (int i = 0; i < t->n; i++) {
        double b = t->sub && t->sub[i] ? tuple_bytes(t->sub[i]) : bx_tensor_bytes(&t->fields[i]);
        if (b < 0)
            return -1;
        sum += b;
    }
    return sum;
}

double bx_node_bytes(const byoc_graph *g, int node)
{
    const byoc_tuple_type *t = byoc_node_tuple_type(g, node);
    return t ? tuple_bytes(t) : bx_tensor_bytes(byoc_node_type(g, node, -1));
}

/* Is node one of the graph's results (the output, or a field of it)? */
static bool is_result(const byoc_graph *g, int node)
{
    int out = byoc_graph_output(g);
    if (out == node)
        return true;
    if (out >= 0 && byoc_node_kind_of(g, out) == BYOC_N_TUPLE)
        for (int i = 0; i < byoc_node_arg_count(g, out); i++)
            if (byoc_node_arg(g, out, i) == node)
                return true;
    return false;
}

int bx_kernel_measure(const byoc_graph *g, const int *members, int n, bx_kernel_io *io)
{
    io->flops = io->in_bytes = io->out_bytes = 0;
    io->dtype = BYOC_DT_FLOAT32;
    io->vector = false;
    double best = -1;
    /* Inputs: each outside node once, however many members read it. */
    int *seen = malloc(sizeof(int) * (size_t)(n * 8 + 1));
    if (!seen)
        return -1;
    int nseen = 0, cap = n * 8 + 1;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        int m = members[i];
        if (byoc_node_kind_of(g, m) == BYOC_N_CALL) {
            double f = byoc_node_flops(g, m);
            if (f < 0) {
                rc = -1;
                break;
            }
            io->flops += f;
            const byoc_tensor_type *t = byoc_node_type(g, m, byoc_node_field_count(g, m) < 0 ? -1 : 0);
            if (f > best && t && t->dtype != BYOC_DT_VOID) {
                const byoc_op_decl *op = byoc_node_op(g, m);
                best = f;
                io->dtype = t->dtype;
                io->vector = f > 0 && op && op->kind != BYOC_OPK_OUT_ELEMWISE_FUSABLE &&
                             op->kind != BYOC_OPK_OPAQUE;
            }
        }
        for (int k = 0; k < byoc_node_arg_count(g, m); k++) {
            int a = byoc_node_arg(g, m, k);
            if (is_member(members, n, a))
                continue;
            bool dup = false;
            for (int s = 0; s < nseen && !dup; s++)
                dup = seen[s] == a;
            if (dup)
                continue;
            if (nseen == cap) {
                cap *= 2;
                int *ns = realloc(seen, sizeof(int) * (size_t)cap);
                if (!ns) {
                    rc = -1;
                    break;
                }
                seen = ns;
            }
            seen[nseen++] = a;
            double b = bx_node_bytes(g, a);
            if (b < 0) {
                rc = -1;
                break;
            }
            io->in_bytes += b;
        }
        bool escapes = is_result(g, m);
        for (int k = 0; k < byoc_node_consumer_count(g, m) && !escapes; k++)
            escapes = !is_member(members, n, byoc_node_consumer(g, m, k));
        if (escapes) {
            double b = bx_node_bytes(g, m);
            if (b < 0)
                rc = -1;
            else
                io->out_bytes += b;
        }
    }
    free(seen);
    return rc;
}

double bx_cost_occupancy(const byoc_device_decl *d, double flops)
{
    if (d->units <= 0 || !(d->grain > 0) || !(flops > 0))
        return 1;
    double tiles = ceil(flops / d->grain);
    double waves = ceil(tiles / d->units);
    return tiles / (waves * d->units);
}

/* The kernel's time past its launch. */
static double roofline_body(const byoc_device_decl *d, double efficiency, const bx_kernel_io *io)
{
    double peak = 0, lowest = INFINITY, f32 = 0;
    for (int i = 0; i < d->npeaks; i++) {
        if (d->peaks[i].dtype == io->dtype)
            peak = d->peaks[i].flops;
        if (d->peaks[i].dtype == BYOC_DT_FLOAT32)
            f32 = d->peaks[i].flops;
        if (d->peaks[i].flops < lowest)
            lowest = d->peaks[i].flops;
    }
    if (peak <= 0)
        peak = lowest;
    /* Element-wise work runs on the vector units: a GPU's float16 tensor
     * cores do nothing for an add. */
    if (io->vector && f32 > 0 && f32 < peak)
        peak = f32;
    double compute = 0;
    if (io->flops > 0) {
        if (!(peak > 0 && peak < INFINITY) || !(efficiency > 0))
            return INFINITY;
        compute = io->flops / (peak * efficiency * bx_cost_occupancy(d, io->flops));
    }
    double bytes = io->in_bytes + io->out_bytes;
    double memory = bytes > 0 ? (d->bandwidth > 0 ? bytes / d->bandwidth : INFINITY) : 0;
    return compute > memory ? compute : memory;
}

double bx_cost_roofline(const byoc_device_decl *d, double efficiency, const bx_kernel_io *io)
{
    return d->launch + roofline_body(d, efficiency, io);
}

/* TVM's ByKindSimpleCombinerRules, as the candidates' `fusion tvm` uses
 * them: may a group of kind up take a consumer of kind down? */
static bool fuses(int up, int down)
{
    return (up <= BYOC_OPK_OUT_ELEMWISE_FUSABLE && down <= BYOC_OPK_BROADCAST) ||
           (up <= BYOC_OPK_BROADCAST && down <= BYOC_OPK_REDUCE) ||
           (up <= BYOC_OPK_INJECTIVE && down <= BYOC_OPK_INJECTIVE);
}

static int find(int *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

int bx_cost_kernel(const byoc_graph *g, const int *members, int n, const byoc_device_decl *d,
                   double efficiency, bool grouped, double *seconds, int *ngroups)
{
    bx_kernel_io io;
    if (!grouped || n <= 1) {
        if (bx_kernel_measure(g, members, n, &io))
            return -1;
        *seconds = bx_cost_roofline(d, efficiency, &io);
        if (ngroups)
            *ngroups = 1;
        return 0;
    }
    /* Groups in node order (members ascend, so producers come first): a
     * call joins the group of its first producer inside the kernel whose
     * kind fuses with its own; tuples and projections join their first
     * producer's group, or none (they cost nothing by themselves). */
    int *parent = malloc(sizeof(int) * (size_t)n * 5);   /* one block: nothing leaks on bx_oom */
    if (!parent)
        bx_oom();
    int *kind = parent + n, *order = kind + n, *start = order + n, *fill = start + n;
    for (int i = 0; i < n; i++) {
        parent[i] = i;
        kind[i] = -1;
    }
    for (int i = 0; i < n; i++) {
        int m = members[i];
        bool call = byoc_node_kind_of(g, m) == BYOC_N_CALL;
        const byoc_op_decl *op = call ? byoc_node_op(g, m) : NULL;
        int k = !call ? -1 : op && !byoc_node_is_opaque(g, m) ? (int)op->kind : BYOC_OPK_OPAQUE;
        for (int a = 0; a < byoc_node_arg_count(g, m); a++) {
            int j = member_index(members, n, byoc_node_arg(g, m, a));
            if (j < 0)
                continue;
            int r = find(parent, j);
            if (kind[r] < 0 || (k >= 0 && !fuses(kind[r], k)))
                continue;
            parent[i] = r;
            if (k > kind[r])
                kind[r] = k;
            break;
        }
        if (parent[i] == i)
            kind[i] = k;
    }
    /* Members by group (a counting sort keeps each group ascending). */
    int groups = 0;
    for (int i = 0; i < n; i++)
        start[i] = 0;
    for (int i = 0; i < n; i++) {
        int r = find(parent, i);
        if (kind[r] >= 0)
            start[r]++;
    }
    int at = 0;
    for (int i = 0; i < n; i++) {
        int c = start[i];
        start[i] = at;
        at += c;
        groups += c > 0;
    }
    memcpy(fill, start, sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        int r = find(parent, i);
        if (kind[r] >= 0)
            order[fill[r]++] = members[i];
    }
    double sum = d->launch + (groups > 1 ? groups - 1 : 0) *
                                 (d->inner_launch > 0 ? d->inner_launch : d->launch);
    int rc = 0;
    for (int r = 0; r < n && rc == 0; r++) {
        if (kind[r] < 0 || find(parent, r) != r)
            continue;
        int len = fill[r] - start[r];
        if (len <= 0)
            continue;
        if (bx_kernel_measure(g, order + start[r], len, &io))
            rc = -1;
        else
            sum += roofline_body(d, efficiency, &io);
    }
    free(parent);
    if (rc == 0) {
        *seconds = sum;
        if (ngroups)
            *ngroups = groups;
    }
    return rc;
}

double bx_cost_transfer(const byoc_link_decl *l, double bytes)
{
    if (!l || !(l->bandwidth > 0))
        return INFINITY;
    return l->latency + bytes / l->bandwidth;
}
