/* The extern predicate of tour_npu.byoc: what the language cannot state is
 * written in C against the evaluation interface of <byoc/pred.h>.
 *
 * weights_fit(c, w): the weights of conv c fit the NPU's weight buffer. */
#include "tour_npu.h"

bool weights_fit(byoc_eval *ev, const byoc_tref *args, int nargs)
{
    if (nargs != 2)
        return false;
    int64_t n = byoc_ev_numel(ev, args[1]);
    return n <= (int64_t)1 << 20;
}
