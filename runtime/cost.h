/* The analytic cost model (doc/cost-model.md, doc/partitioner.md section 3).
 *
 * A kernel is a set of graph nodes run by one target on one device.  Its
 * time is launch + max(flops / (peak(dtype) * efficiency * occupancy),
 * bytes / bandwidth), where bytes counts only what the kernel reads from
 * outside and writes for outside: fusing two ops saves the traffic of the
 * tensor between them, which is what makes fusion pay.  Occupancy is the
 * share of the device's units a kernel's work keeps busy over its waves,
 * the work cut into grains of the device's `grain` FLOPs.  A graph compiler's kernel (`fusion any`) runs as several
 * internal kernels, its fusion groups, each charged so and an inner
 * launch.  Internal (bx_ prefix). */
#ifndef BX_COST_H
#define BX_COST_H

#include <byoc/graph.h>
#include <byoc/registry.h>

typedef struct bx_kernel_io {
    double flops;
    double in_bytes;     /* distinct tensors read from outside the kernel */
    double out_bytes;    /* tensors used outside the kernel, or graph outputs */
    byoc_dtype dtype;    /* the compute dtype: that of the costliest call */
    bool vector;         /* the costliest call is no matrix op (convolution, dense,
                            matmul: TVM's out-elementwise-fusable): it runs at the
                            vector rate, not the tensor cores' */
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
/* The share (0, 1] of d's units that flops of work keep busy: grains of
 * d->grain FLOPs run d->units at a time, and the last wave may leave
 * units idle; 1 when d models no units. */
double bx_cost_occupancy(const byoc_device_decl *d, double flops);
/* Seconds for the kernel members[0..n) (ascending node ids) on d at the
 * given efficiency.  grouped: a graph compiler's kernel, run as its
 * internal fusion groups (TVM's FuseOps rules over op kinds), each a
 * roofline of its own, the first at d's launch and the others at its
 * inner launch; otherwise one roofline.  *ngroups (may be NULL) gets the
 * number of internal kernels.  Returns 0, or -1 when a type or FLOP
 * count it needs is not known. */
int bx_cost_kernel(const byoc_graph *g, const int *members, int n, const byoc_device_decl *d,
                   double efficiency, bool grouped, double *seconds, int *ngroups);
/* Seconds to move bytes over a link (latency + bytes / bandwidth). */
double bx_cost_transfer(const byoc_link_decl *l, double bytes);

#endif
