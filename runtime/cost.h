/* The analytic cost model (doc/partitioner.md section 3).
 *
 * A kernel is a set of graph nodes run by one target on one device.  Its
 * time is launch + max(flops / (peak(dtype) * efficiency), bytes /
 * bandwidth), where bytes counts only what the kernel reads from outside
 * and writes for outside: fusing two ops saves the traffic of the tensor
 * between them, which is what makes fusion pay.  Internal (bx_ prefix). */
#ifndef BX_COST_H
#define BX_COST_H

#include <byoc/graph.h>
#include <byoc/registry.h>

typedef struct bx_kernel_io {
    double flops;
    double in_bytes;     /* distinct tensors read from outside the kernel */
    double out_bytes;    /* tensors used outside the kernel, or graph outputs */
    byoc_dtype dtype;    /* the compute dtype: that of the costliest call */
} bx_kernel_io;

/* Bytes of a tensor type; -1 when its shape or dtype is not known. */
double bx_tensor_bytes(const byoc_tensor_type *t);
/* Bytes of a node's result (all fields of a tuple); -1 when not known. */
double bx_node_bytes(const byoc_graph *g, int node);
/* Measure the kernel made of members (ascending node ids).  Returns 0, or
 * -1 when a type or FLOP count it needs is not known. */
int bx_kernel_measure(const byoc_graph *g, const int *members, int n, bx_kernel_io *io);
/* Seconds for the kernel on device d at the given efficiency (0, 1].  A
 * device without a peak for the kernel's dtype runs at its lowest listed
 * peak; a device with no peaks cannot run a kernel that computes (+inf). */
double bx_cost_roofline(const byoc_device_decl *d, double efficiency, const bx_kernel_io *io);
/* Seconds to move bytes over a link (latency + bytes / bandwidth). */
double bx_cost_transfer(const byoc_link_decl *l, double bytes);

#endif
