/* The C side of tour_npu.byoc: what the language cannot state is written
 * against the evaluation interface of <byoc/pred.h> (an extern predicate)
 * and the pass context of <byoc/lower.h> (lowering passes).
 *
 * weights_fit(c, w): the weights of conv c fit the NPU's weight buffer.
 * plan_sram, compile_kernel, link_image: the NPU's lowering, before, per
 * partition of npu_kernels and after; they check what a real backend
 * would lay out, and write nothing. */
#include <stdio.h>

#include "tour_npu.h"

bool weights_fit(byoc_eval *ev, const byoc_tref *args, int nargs)
{
    if (nargs != 2)
        return false;
    int64_t n = byoc_ev_numel(ev, args[1]);
    return n <= (int64_t)1 << 20;
}

/* Bytes of a tensor of known type, or -1. */
static int64_t tensor_bytes(const byoc_tensor_type *t)
{
    if (!t || t->rank < 0 || t->dtype == BYOC_DT_VOID)
        return -1;
    int64_t n = (byoc_dtype_bits(t->dtype) + 7) / 8;
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0)
            return -1;
        n *= t->dims[i];
    }
    return n;
}

/* Before any partition: every tensor an NPU partition reads or writes
 * must fit the NPU's SRAM (256 KiB here) at once. */
int plan_sram(const byoc_lower_ctx *cx, void *user, byoc_error *err)
{
    (void)user;
    for (int p = 0; p < cx->nparts; p++) {
        const byoc_lower_part *part = &cx->parts[p];
        if (part->partition->target != cx->target)
            continue;
        int64_t bytes = 0;
        for (int i = 0; i < part->ninputs + part->noutputs; i++) {
            const byoc_lower_tensor *t =
                i < part->ninputs ? &part->inputs[i] : &part->outputs[i - part->ninputs];
            int64_t b = tensor_bytes(t->type);
            bytes += b > 0 ? b : 0;
        }
        if (bytes > (int64_t)256 << 10) {
            snprintf(err->msg, sizeof err->msg, "partition %d needs %lld bytes of SRAM",
                     part->index, (long long)bytes);
            return -1;
        }
    }
    return 0;
}

/* Each partition: one command stream, whose inputs and outputs are named
 * tensors. */
int compile_kernel(const byoc_lower_ctx *cx, void *user, byoc_error *err)
{
    (void)user;
    for (int i = 0; i < cx->part->ninputs; i++)
        if (!cx->part->inputs[i].name) {
            snprintf(err->msg, sizeof err->msg, "an input of partition %d has no name",
                     cx->part->index);
            return -1;
        }
    return 0;
}

/* After all partitions: one image for the whole model. */
int link_image(const byoc_lower_ctx *cx, void *user, byoc_error *err)
{
    (void)cx;
    (void)user;
    (void)err;
    return 0;
}
