/* The extern predicate of ethosu.byoc: vela's weight-sum limit, which the
 * language cannot state (it has no sum over the elements of one channel).
 *
 * ethosu_weights_fit(c): c is a qnn.conv2d, qnn.conv2d_transpose or
 * qnn.dense call with constant weights (argument 1) and kernel zero point
 * (argument 3).  For every output channel o, the sum over the channel's
 * other axes of |w - zp(o)| must be at most 127 x 65536 = 8,323,072, the
 * headroom of the NPU's accumulator (ethos-u-vela; backends.md §9, WGT).
 * The output-channel axis is the 'O' of kernel_layout (qnn.dense: axis 0).
 *
 * With the weights' data in the model the sums are exact (in int64, where
 * the original subtracted in the weights' dtype and could wrap).  Without
 * data - a model written without its parameters - the bound is checked
 * for the worst data the dtype allows: K x max |w - zp| over the dtype's
 * range, K the elements per channel.  A kernel that fits whatever its
 * values is accepted; one that could overflow is refused, since nothing
 * shows that it does not. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ethosu.h"

#define ETHOSU_WEIGHT_SUM_MAX 8323072.0 /* 127 * 65536 */

/* The leaves of a constant's value, row-major. */
static int64_t leaf_count(const byoc_value *v)
{
    if (v->kind != BYOC_V_LIST)
        return 1;
    int64_t n = 0;
    for (size_t i = 0; i < v->u.list.n; i++)
        n += leaf_count(&v->u.list.items[i]);
    return n;
}

/* Store the leaves of v into out from index *k; false if one is not a
 * number. */
static bool leaves(const byoc_value *v, double *out, int64_t cap, int64_t *k)
{
    if (v->kind == BYOC_V_LIST) {
        for (size_t i = 0; i < v->u.list.n; i++)
            if (!leaves(&v->u.list.items[i], out, cap, k))
                return false;
        return true;
    }
    if (*k >= cap)
        return false;
    if (v->kind == BYOC_V_INT)
        out[(*k)++] = (double)v->u.i;
    else if (v->kind == BYOC_V_FLOAT)
        out[(*k)++] = v->u.f;
    else
        return false;
    return true;
}

/* The dtype's value range; false for a dtype the NPU's weights never have. */
static bool dtype_range(byoc_dtype dt, double *lo, double *hi)
{
    switch (dt) {
    case BYOC_DT_INT8: *lo = -128; *hi = 127; return true;
    case BYOC_DT_UINT8: *lo = 0; *hi = 255; return true;
    case BYOC_DT_INT16: *lo = -32768; *hi = 32767; return true;
    default: return false;
    }
}

bool ethosu_weights_fit(byoc_eval *ev, const byoc_tref *args, int nargs)
{
    if (nargs != 1 || args[0].field >= 0)
        return false;
    const byoc_graph *g = ev->graph;
    int c = args[0].node;
    const char *op = byoc_node_op_name(g, c);
    if (!op || byoc_node_arg_count(g, c) < 4)
        return false;
    int w = byoc_node_arg(g, c, 1), zpn = byoc_node_arg(g, c, 3);
    const byoc_tensor_type *wt = byoc_node_type(g, w, -1);
    if (!wt || wt->rank < 1)
        return false;
    for (int i = 0; i < wt->rank; i++)
        if (wt->dims[i] < 1)
            return false;

    /* The output-channel axis. */
    int oaxis = 0;
    if (strcmp(op, "qnn.dense") != 0) {
        const byoc_value *kl = byoc_node_attr(g, c, "kernel_layout");
        const char *o = kl && kl->kind == BYOC_V_STRING ? strchr(kl->u.s, 'O') : NULL;
        if (!o || (int)strlen(kl->u.s) != wt->rank)
            return false;
        oaxis = (int)(o - kl->u.s);
    }
    int64_t nout = wt->dims[oaxis], total = 1, inner = 1;
    for (int i = 0; i < wt->rank; i++) {
        total *= wt->dims[i];
        if (i > oaxis)
            inner *= wt->dims[i];
    }
    int64_t per = total / nout; /* elements of one channel */

    /* The kernel zero points: one, or one per output channel. */
    const byoc_value *zv = byoc_node_kind_of(g, zpn) == BYOC_N_CONST
                               ? byoc_node_const_value(g, zpn) : NULL;
    int64_t nz = zv && zv->kind != BYOC_V_NONE ? leaf_count(zv) : 0;
    if (nz != 1 && nz != nout)
        return false;
    double zbuf[1];
    double *zp = nz == 1 ? zbuf : malloc(sizeof(double) * (size_t)nz);
    int64_t k = 0;
    if (!zp || !leaves(zv, zp, nz, &k)) {
        if (zp != zbuf)
            free(zp);
        return false;
    }

    const byoc_value *wv = byoc_node_kind_of(g, w) == BYOC_N_CONST
                               ? byoc_node_const_value(g, w) : NULL;
    bool ok = true;
    if (!wv || wv->kind == BYOC_V_NONE) {
        /* No data: the worst values of the dtype. */
        double lo, hi;
        if (!dtype_range(wt->dtype, &lo, &hi))
            ok = false;
        for (int64_t o = 0; ok && o < nout; o++) {
            double z = zp[nz == 1 ? 0 : o];
            double worst = fmax(fabs(lo - z), fabs(hi - z));
            ok = (double)per * worst <= ETHOSU_WEIGHT_SUM_MAX;
        }
    } else if (leaf_count(wv) != total) {
        ok = false;
    } else {
        double *data = malloc(sizeof(double) * (size_t)total);
        double *sum = calloc((size_t)nout, sizeof(double));
        k = 0;
        if (!data || !sum || !leaves(wv, data, total, &k)) {
            ok = false;
        } else {
            /* Row-major: element i lies in channel (i / inner) % nout. */
            for (int64_t i = 0; i < total; i++) {
                int64_t o = (i / inner) % nout;
                sum[o] += fabs(data[i] - zp[nz == 1 ? 0 : o]);
            }
            for (int64_t o = 0; o < nout; o++)
                if (sum[o] > ETHOSU_WEIGHT_SUM_MAX)
                    ok = false;
        }
        free(data);
        free(sum);
    }
    if (zp != zbuf)
        free(zp);
    return ok;
}
