/* The analytic cost model (see cost.h).
 *
 * The one idea: a kernel's memory traffic is its boundary, not its
 * interior.  Inputs are the distinct nodes that members use but that are
 * not members; outputs are members that something outside uses, or that
 * the graph returns.  Constants count as inputs: weights are read. */
#include "cost.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

static bool is_member(const int *members, int n, int node)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (members[mid] == node)
            return true;
        if (members[mid] < node)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return false;
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
                best = f;
                io->dtype = t->dtype;
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

double bx_cost_roofline(const byoc_device_decl *d, double efficiency, const bx_kernel_io *io)
{
    double peak = 0, lowest = INFINITY;
    for (int i = 0; i < d->npeaks; i++) {
        if (d->peaks[i].dtype == io->dtype)
            peak = d->peaks[i].flops;
        if (d->peaks[i].flops < lowest)
            lowest = d->peaks[i].flops;
    }
    if (peak <= 0)
        peak = lowest;
    double compute = 0;
    if (io->flops > 0) {
        if (!(peak > 0 && peak < INFINITY) || !(efficiency > 0))
            return INFINITY;
        compute = io->flops / (peak * efficiency);
    }
    double bytes = io->in_bytes + io->out_bytes;
    double memory = bytes > 0 ? (d->bandwidth > 0 ? bytes / d->bandwidth : INFINITY) : 0;
    return d->launch + (compute > memory ? compute : memory);
}

double bx_cost_transfer(const byoc_link_decl *l, double bytes)
{
    if (!l || !(l->bandwidth > 0))
        return INFINITY;
    return l->latency + bytes / l->bandwidth;
}
