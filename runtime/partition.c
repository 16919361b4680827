/* The partitioner's driver: from a graph and options to a checked result.
 *
 * It selects the targets, builds their candidates (cand.c), prices each
 * with the estimators (estimate.c), maps the graph onto a search problem
 * (search.c) and turns the chosen candidates into partitions in an order
 * that can run.  The search problem's nodes are the graph's calls in a
 * topological order that keeps producers next to their consumers
 * (bx_pmap_init); inputs and
 * constants are free and travel
 * with their consumers, and an edge through tuples and projections joins
 * the calls at its ends, carrying the bytes of what flows along it.
 *
 * Baselines are the same machinery with fewer candidates: `single:T` is
 * the exact search over T's and the native targets' candidates (the best
 * any partition_for_T followed by native code could do), and `greedy` lets
 * each target, highest priority first, take its largest candidates that
 * still fit, then lets the exact search finish the rest with the native
 * targets' candidates, as ONNX Runtime gives each execution provider its
 * maximal supported subgraphs and the default provider what is left. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <byoc/partition.h>

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "bitset.h"
#include "cand.h"
#include "cost.h"
#include "die.h"
#include "errfmt.h"
#include "estimate.h"
#include "hash.h"
#include "lower/lower_impl.h"
#include "partition_impl.h"
#include "search.h"
#include "writers/writers.h"

#define DEFAULT_MAX_STATES 2000000

double byoc_result_gap(const byoc_result *r)
{
    if (r->optimal || r->cost <= r->lower_bound)
        return 0;
    if (!(r->lower_bound > 0))
        return INFINITY;
    return (r->cost - r->lower_bound) / r->lower_bound;
}

void byoc_partition_options_init(byoc_partition_options *o)
{
    memset(o, 0, sizeof *o);
    o->strategy = BYOC_SEARCH_OPTIMAL;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- target selection --------------------------------------------------- */

static bool is_native(const byoc_registry *reg, const byoc_target_decl *t)
{
    return byoc_target_supports_all(reg, t);
}

static bool listed(const byoc_target_decl *const *v, int n, const byoc_target_decl *t)
{
    for (int i = 0; i < n; i++)
        if (v[i] == t)
            return true;
    return false;
}

static const byoc_target_decl *lookup_target(const byoc_registry *reg, const char *name,
                                             byoc_error *err)
{
    const byoc_target_decl *t = byoc_registry_target(reg, name);
    if (t)
        return t;
    bx_suggest s;
    bx_suggest_init(&s, name);
    for (int i = 0; i < byoc_registry_target_count(reg); i++)
        bx_suggest_offer(&s, byoc_registry_target_at(reg, i)->name);
    char hint[128];
    bx_error_set(err, NULL, 0, 0, "unknown target '%s'%s", name,
                 bx_suggest_hint(&s, hint, sizeof hint));
    return NULL;
}

/* The first native target of device d in registration order, or NULL. */
static const byoc_target_decl *native_of(const byoc_registry *reg, const byoc_device_decl *d)
{
    for (int i = 0; i < byoc_registry_target_count(reg); i++) {
        const byoc_target_decl *t = byoc_registry_target_at(reg, i);
        if (is_native(reg, t) && byoc_target_device(reg, t) == d)
            return t;
    }
    return NULL;
}

/* Append t to v unless it is there. */
static void add_unique(const byoc_target_decl **v, int *n, const byoc_target_decl *t)
{
    if (!listed(v, *n, t))
        v[(*n)++] = t;
}

/* Append, for every device a listed target runs on, that device's native
 * target when none of the listed targets is native there: every call must
 * have somewhere to go (doc/partitioner.md section 1).  A device with no native target of
 * its own (an accelerator that runs only what its backends take, like an
 * NPU driven by a microcontroller) leaves the rest to its hosts: the
 * native targets of the devices it has links to and from. */
static int add_natives(const byoc_registry *reg, const byoc_target_decl **v, int *n,
                       byoc_error *err)
{
    int given = *n;
    for (int i = 0; i < given; i++) {
        const byoc_device_decl *d = byoc_target_device(reg, v[i]);
        bool has = false;
        for (int j = 0; j < *n && !has; j++)
            has = is_native(reg, v[j]) && byoc_target_device(reg, v[j]) == d;
        if (has)
            continue;
        const byoc_target_decl *nat = native_of(reg, d);
        if (nat) {
            add_unique(v, n, nat);
            continue;
        }
        bool hosted = false;
        for (int k = 0; d && k < byoc_registry_device_count(reg); k++) {
            const byoc_device_decl *h = byoc_registry_device_at(reg, k);
            const byoc_target_decl *hn = h != d ? native_of(reg, h) : NULL;
            if (!hn || !byoc_registry_link(reg, d->name, h->name)
                || !byoc_registry_link(reg, h->name, d->name))
                continue;
            hosted = true;
            bool there = false;
            for (int j = 0; j < *n && !there; j++)
                there = is_native(reg, v[j]) && byoc_target_device(reg, v[j]) == h;
            if (!there)
                add_unique(v, n, hn);
        }
        if (!hosted) {
            bx_error_set(err, NULL, 0, 0,
                         "device '%s' of target '%s' has no native target (one that "
                         "'supports *') and no link to and from a device with one, so "
                         "some calls could go nowhere",
                         d ? d->name : "?", v[i]->name);
            return -1;
        }
    }
    return 0;
}

int bx_select_targets(const byoc_registry *reg, const byoc_partition_options *o,
                      const byoc_target_decl ***out, int *nout, byoc_error *err)
{
    int total = byoc_registry_target_count(reg);
    const byoc_target_decl **v = calloc((size_t)total * 2 + 2, sizeof *v);
    if (!v)
        bx_oom();
    int n = 0;
    if (o->strategy == BYOC_SEARCH_SINGLE) {
        if (!o->single || !*o->single) {
            bx_error_set(err, NULL, 0, 0, "the single-backend search needs a target");
            goto fail;
        }
        const byoc_target_decl *t = lookup_target(reg, o->single, err);
        if (!t)
            goto fail;
        v[n++] = t;
        /* The other listed targets' devices keep their natives. */
        for (int i = 0; i < o->ntargets; i++) {
            const byoc_target_decl *u = lookup_target(reg, o->targets[i], err);
            if (!u)
                goto fail;
            if (is_native(reg, u) && !listed(v, n, u))
                v[n++] = u;
        }
    } else if (o->ntargets > 0) {
        for (int i = 0; i < o->ntargets; i++) {
            const byoc_target_decl *t = lookup_target(reg, o->targets[i], err);
            if (!t)
                goto fail;
            if (listed(v, n, t)) {
                bx_error_set(err, NULL, 0, 0, "target '%s' is listed twice", t->name);
                goto fail;
            }
            v[n++] = t;
        }
    } else {
        const byoc_device_decl *d = byoc_registry_default_device(reg);
        if (!d) {
            bx_error_set(err, NULL, 0, 0,
                         total ? "no registered target supports every op ('supports *'), "
                                 "so no default device; name the targets"
                               : "no targets are registered");
            goto fail;
        }
        /* Backends first, natives last: greedy's priority order. */
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < total; i++) {
                const byoc_target_decl *t = byoc_registry_target_at(reg, i);
                if (byoc_target_device(reg, t) == d && is_native(reg, t) == (pass == 1))
                    v[n++] = t;
            }
    }
    if (add_natives(reg, v, &n, err) < 0)
        goto fail;
    *out = v;
    *nout = n;
    return 0;
fail:
    free(v);
    return -1;
}

int byoc_partition_targets(const byoc_registry *reg, const byoc_partition_options *o,
                           const byoc_target_decl **out, int max, byoc_error *err)
{
    const byoc_target_decl **v;
    int n;
    byoc_partition_options defaults;
    if (!o) {
        byoc_partition_options_init(&defaults);
        o = &defaults;
    }
    if (bx_select_targets(reg, o, &v, &n, err) < 0)
        return -1;
    for (int i = 0; i < n && i < max; i++)
        out[i] = v[i];
    free(v);
    return n;
}

/* ---- the graph as a search problem ---------------------------------------- */

/* Record, for call `to`, an edge from every call whose result reaches
 * argument node a through tuples and projections, with the bytes that
 * flow: field is the tuple field a projection selects (-1: all). */
static void edges_from(bx_pmap *pm, int a, int field, int to, bx_edge_acc *acc)
{
    const byoc_graph *g = pm->graph;
    switch (byoc_node_kind_of(g, a)) {
    case BYOC_N_CALL: {
        double bytes;
        if (field >= 0) {
            const byoc_tensor_type *t = byoc_node_type(g, a, field);
            bytes = t ? bx_tensor_bytes(t) : -1;
        } else {
            bytes = bx_node_bytes(g, a);
        }
        bx_edge_acc_add(acc, pm->index[a], field, bytes < 0 ? 0 : bytes);
        break;
    }
    case BYOC_N_TUPLE:
        if (field >= 0) {
            if (field < byoc_node_arg_count(g, a))
                edges_from(pm, byoc_node_arg(g, a, field), -1, to, acc);
        } else {
            for (int i = 0; i < byoc_node_arg_count(g, a); i++)
                edges_from(pm, byoc_node_arg(g, a, i), -1, to, acc);
        }
        break;
    case BYOC_N_PROJ:
        /* A projection of a projection selects within a nested tuple;
         * the bytes of the whole inner field are a fair upper bound. */
        edges_from(pm, byoc_node_arg(g, a, 0), field >= 0 ? -1 : byoc_node_proj_index(g, a),
                   to, acc);
        break;
    default:
        break; /* inputs and constants are free */
    }
}

/* A producer's result moves once to a consumer however many ways the
 * consumer reaches it (the same tensor twice in a tuple, say): entries are
 * distinct (producer, field) pairs, field -1 for the whole result. */
void bx_edge_acc_add(bx_edge_acc *acc, uint32_t from, int field, double bytes)
{
    for (size_t i = 0; i < acc->n; i++)
        if (acc->from[i] == from && acc->field[i] == field)
            return;
    if (acc->n == acc->cap) {
        acc->cap = acc->cap ? acc->cap * 2 : 8;
        acc->from = realloc(acc->from, acc->cap * sizeof *acc->from);
        acc->field = realloc(acc->field, acc->cap * sizeof *acc->field);
        acc->bytes = realloc(acc->bytes, acc->cap * sizeof *acc->bytes);
        if (!acc->from || !acc->field || !acc->bytes)
            bx_oom();
    }
    acc->from[acc->n] = from;
    acc->field[acc->n] = field;
    acc->bytes[acc->n] = bytes;
    acc->n++;
}

/* The bytes from producer entry i's producer: its whole result when some
 * entry takes it whole, else the sum of the distinct fields taken.  Marks
 * the producer's entries done (field set to INT_MIN). */
static double edge_acc_take(bx_edge_acc *acc, size_t i)
{
    uint32_t from = acc->from[i];
    double whole = -1, fields = 0;
    for (size_t k = i; k < acc->n; k++) {
        if (acc->from[k] != from || acc->field[k] == INT_MIN)
            continue;
        if (acc->field[k] < 0)
            whole = acc->bytes[k];
        else
            fields += acc->bytes[k];
        acc->field[k] = INT_MIN;
    }
    return whole >= 0 ? whole : fields;
}

static void edge_acc_free(bx_edge_acc *acc)
{
    free(acc->from);
    free(acc->field);
    free(acc->bytes);
}

/* The readiness order: a topological order that keeps every branch
 * together and finishes short branches first: a depth-first walk by
 * readiness (Kahn's algorithm with a stack), where a node becomes ready
 * when its last argument is numbered and, of the consumers a node makes
 * ready, the one with the shortest path to a graph output goes first.
 *
 * The search's next node is the lowest unplaced one, and a kernel that
 * holds nodes far apart in this order leaves the nodes between them open,
 * which multiplies the states (doc/partitioner.md section 4).  Walking by
 * readiness puts each call right after what it needs, and going deep
 * keeps a branch contiguous; taking the short branches first puts a side
 * output (a transformer layer's key/value "present" tensors, which lead
 * only to the graph's outputs) right after the values it reads, instead of
 * after the rest of the model, as the walk from the output does. */
static void readiness_order(bx_pmap *pm)
{
    const byoc_graph *g = pm->graph;
    int n = byoc_graph_node_count(g);
    size_t sz = (size_t)(n ? n : 1);
    int *height = malloc(sz * sizeof *height);
    int *missing = malloc(sz * sizeof *missing);
    int *mark = malloc(sz * sizeof *mark);
    int *stack = malloc(sz * sizeof *stack);
    int *ready = malloc(sz * sizeof *ready);
    if (!height || !missing || !mark || !stack || !ready)
        bx_oom();
    /* Array order is topological (graph.h), so consumers come later. */
    for (int i = n; i-- > 0;) {
        int h = 0;
        for (int k = 0; k < byoc_node_consumer_count(g, i); k++) {
            int c = byoc_node_consumer(g, i, k);
            if (height[c] + 1 > h)
                h = height[c] + 1;
        }
        height[i] = h;
    }
    /* Calls that read only constants (an ONNX BatchNormalization's
     * expand_dims of its scale) are ready from the start, but a walk by
     * readiness would put them all first, far from their consumers; they
     * are numbered instead right before the first node that reads them. */
    char *konst = calloc(sz, 1);
    if (!konst)
        bx_oom();
    for (int i = 0; i < n; i++) {
        byoc_node_kind k = byoc_node_kind_of(g, i);
        if (k == BYOC_N_CONST) {
            konst[i] = 1;
        } else if (k != BYOC_N_INPUT && byoc_node_arg_count(g, i) > 0) {
            konst[i] = 1;
            for (int a = 0; a < byoc_node_arg_count(g, i) && konst[i]; a++)
                konst[i] = konst[byoc_node_arg(g, i, a)];
        }
    }
    /* missing[x]: distinct arguments of x not yet numbered, not counting
     * constant ones. */
    for (int i = 0; i < n; i++)
        mark[i] = -1;
    for (int i = 0; i < n; i++) {
        int d = 0;
        for (int k = 0; k < byoc_node_arg_count(g, i); k++) {
            int a = byoc_node_arg(g, i, k);
            if (mark[a] != i && !konst[a]) {
                mark[a] = i;
                d++;
            }
        }
        missing[i] = d;
    }
    for (int i = 0; i < n; i++)
        mark[i] = -1;
    int sp = 0;
    for (int i = n; i-- > 0;)
        if (missing[i] == 0 && !konst[i])
            stack[sp++] = i;
    /* The constant calls go on a second stack while they are numbered,
     * in post-order from the node that reads them; done[] says numbered. */
    int *kstack = malloc(sz * sizeof *kstack), *kargi = malloc(sz * sizeof *kargi);
    char *done = calloc(sz, 1);
    if (!kstack || !kargi || !done)
        bx_oom();
    while (sp > 0) {
        int x = stack[--sp];
        int ksp = 0;
        kstack[ksp] = x;
        kargi[ksp++] = 0;
        while (ksp > 0) {
            int y = kstack[ksp - 1];
            if (kargi[ksp - 1] < byoc_node_arg_count(g, y)) {
                int a = byoc_node_arg(g, y, kargi[ksp - 1]++);
                if (konst[a] && !done[a]) {
                    done[a] = 1;
                    kstack[ksp] = a;
                    kargi[ksp++] = 0;
                }
                continue;
            }
            ksp--;
            done[y] = 1;
            if (byoc_node_kind_of(g, y) == BYOC_N_CALL) {
                pm->index[y] = (uint32_t)pm->ncalls;
                pm->calls[pm->ncalls++] = y;
            }
        }
        int nr = 0;
        for (int k = 0; k < byoc_node_consumer_count(g, x); k++) {
            int c = byoc_node_consumer(g, x, k);
            if (mark[c] == x)
                continue;   /* a consumer reading x twice */
            mark[c] = x;
            if (--missing[c] == 0)
                ready[nr++] = c;
        }
        /* Push the tallest first, so the shortest branch is taken next;
         * ties by node index, the lowest on top.  Few consumers become
         * ready at once, so an insertion sort is enough. */
        for (int a = 1; a < nr; a++) {
            int c = ready[a], b = a;
            for (; b > 0 && (height[ready[b - 1]] < height[c] ||
                             (height[ready[b - 1]] == height[c] && ready[b - 1] < c));
                 b--)
                ready[b] = ready[b - 1];
            ready[b] = c;
        }
        for (int a = 0; a < nr; a++)
            stack[sp++] = ready[a];
    }
    /* Constant calls that nothing reads (an output computed from
     * constants alone). */
    for (int i = 0; i < n; i++)
        if (konst[i] && !done[i] && byoc_node_kind_of(g, i) == BYOC_N_CALL) {
            pm->index[i] = (uint32_t)pm->ncalls;
            pm->calls[pm->ncalls++] = i;
        }
    free(konst);
    free(kstack);
    free(kargi);
    free(done);
    bx_assert(pm->ncalls <= (size_t)n);
    free(height);
    free(missing);
    free(mark);
    free(stack);
    free(ready);
}

/* The output order: the post-order of a depth-first walk from the graph's
 * output (arguments in order), then any calls the output does not reach,
 * in graph order.  Each call comes right after what it needs, which is how
 * TVM prints a module, and what a call needs that does not depend on the
 * rest (an attention mask's reshapes) comes early, together. */
static void output_walk(bx_pmap *pm, int root, char *seen, int *stack, int *argi)
{
    const byoc_graph *g = pm->graph;
    if (seen[root])
        return;
    int sp = 0;
    stack[sp] = root;
    argi[sp] = 0;
    sp++;
    seen[root] = 1;
    while (sp > 0) {
        int v = stack[sp - 1];
        if (argi[sp - 1] < byoc_node_arg_count(g, v)) {
            int a = byoc_node_arg(g, v, argi[sp - 1]++);
            if (!seen[a]) {
                seen[a] = 1;
                stack[sp] = a;
                argi[sp] = 0;
                sp++;
            }
            continue;
        }
        sp--;
        if (byoc_node_kind_of(g, v) == BYOC_N_CALL) {
            pm->index[v] = (uint32_t)pm->ncalls;
            pm->calls[pm->ncalls++] = v;
        }
    }
}

static void output_order(bx_pmap *pm)
{
    const byoc_graph *g = pm->graph;
    int n = byoc_graph_node_count(g);
    size_t sz = (size_t)(n ? n : 1);
    char *seen = calloc(sz, 1);
    int *stack = malloc(sz * sizeof *stack);
    int *argi = malloc(sz * sizeof *argi);
    if (!seen || !stack || !argi)
        bx_oom();
    if (byoc_graph_output(g) >= 0)
        output_walk(pm, byoc_graph_output(g), seen, stack, argi);
    for (int i = 0; i < n; i++)
        output_walk(pm, i, seen, stack, argi);
    free(seen);
    free(stack);
    free(argi);
}

/* The holes an order leaves: over all candidates, the nodes between a
 * candidate's first and last call that are not its own.  A step by a
 * candidate with holes leaves those nodes open behind placed ones, and
 * every such choice that later steps do not undo is another state. */
static uint64_t order_holes(const bx_pmap *pm, const bx_cand_set *cs)
{
    uint64_t holes = 0;
    for (size_t i = 0; i < cs->n; i++) {
        const bx_cand *c = &cs->cands[i];
        uint32_t lo = UINT32_MAX, hi = 0, k = 0;
        for (int j = 0; j < c->nnodes; j++) {
            uint32_t x = pm->index[c->nodes[j]];
            if (x == UINT32_MAX)
                continue;
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
            k++;
        }
        if (k)
            holes += (uint64_t)(hi - lo + 1 - k);
    }
    return holes;
}

/* Number the calls for the search.  Its next node is the lowest unplaced
 * one, so how many states it makes depends on the order (doc/partitioner.md
 * section 4): two orders are made, the output order and the readiness
 * order, and the one whose candidates leave fewer holes is kept (the
 * output order on a tie).  Neither is always better: the readiness order
 * puts a transformer's key/value outputs next to their producers, the
 * output order puts calls that depend only on early values (a mask's
 * per-layer reshapes) next to each other. */
static void pmap_call_edges(bx_pmap *pm);

/* New, empty numbering arrays for n graph nodes. */
static void fresh_numbering(bx_pmap *pm, int n, size_t sz)
{
    pm->index = malloc(sz * sizeof *pm->index);
    pm->calls = malloc(sz * sizeof *pm->calls);
    if (!pm->index || !pm->calls)
        bx_oom();
    for (int i = 0; i < n; i++)
        pm->index[i] = UINT32_MAX;
    pm->ncalls = 0;
}

void bx_pmap_init(bx_pmap *pm, const byoc_graph *g, const bx_cand_set *cs)
{
    int n = byoc_graph_node_count(g);
    size_t sz = (size_t)(n ? n : 1);
    pm->graph = g;
    fresh_numbering(pm, n, sz);
    output_order(pm);
    uint64_t hout = order_holes(pm, cs);
    uint32_t *keep_index = pm->index;
    int *keep_calls = pm->calls;
    size_t keep_n = pm->ncalls;
    fresh_numbering(pm, n, sz);
    readiness_order(pm);
    uint64_t hready = order_holes(pm, cs);
    bool ready = hready < hout;
    if (ready) {
        free(keep_index);
        free(keep_calls);
    } else {
        free(pm->index);
        free(pm->calls);
        pm->index = keep_index;
        pm->calls = keep_calls;
        pm->ncalls = keep_n;
    }
    bx_assert(pm->ncalls <= (size_t)n);
    pm->efrom = pm->eto = NULL;
    pm->ebytes = NULL;
    pmap_call_edges(pm);
}

void bx_pmap_free(bx_pmap *pm)
{
    free(pm->index);
    free(pm->calls);
    free(pm->efrom);
    free(pm->eto);
    free(pm->ebytes);
}

/* Each call's incoming edges, computed once: a call reading one producer
 * twice moves its result once. */
static void pmap_call_edges(bx_pmap *pm)
{
    const byoc_graph *g = pm->graph;
    bx_edge_acc acc = {0};
    size_t cap = 0;
    pm->nedges = 0;
    for (size_t c = 0; c < pm->ncalls; c++) {
        int node = pm->calls[c];
        acc.n = 0;
        for (int i = 0; i < byoc_node_arg_count(g, node); i++) {
            int a = byoc_node_arg(g, node, i);
            /* The same argument twice is read once. */
            bool seen = false;
            for (int j = 0; j < i && !seen; j++)
                seen = byoc_node_arg(g, node, j) == a;
            if (!seen)
                edges_from(pm, a, -1, node, &acc);
        }
        for (size_t e = 0; e < acc.n; e++) {
            if (acc.field[e] == INT_MIN)
                continue; /* taken with an earlier entry of its producer */
            double bytes = edge_acc_take(&acc, e);
            if (pm->nedges == cap) {
                cap = cap ? cap * 2 : 64;
                pm->efrom = realloc(pm->efrom, cap * sizeof *pm->efrom);
                pm->eto = realloc(pm->eto, cap * sizeof *pm->eto);
                pm->ebytes = realloc(pm->ebytes, cap * sizeof *pm->ebytes);
                if (!pm->efrom || !pm->eto || !pm->ebytes)
                    bx_oom();
            }
            pm->efrom[pm->nedges] = acc.from[e];
            pm->eto[pm->nedges] = (uint32_t)c;
            pm->ebytes[pm->nedges] = bytes;
            pm->nedges++;
        }
    }
    edge_acc_free(&acc);
}

void bx_pmap_edges(bx_pmap *pm, bx_search_problem *p)
{
    for (size_t e = 0; e < pm->nedges; e++)
        bx_search_add_edge(p, pm->efrom[e], pm->eto[e], pm->ebytes[e]);
}

/* The edges between labelled groups of calls (a label per call): one
 * (from, to) pair per call edge whose ends carry different labels, with
 * repeats; indeg (nlabels of them, zeroed by the caller) counts them. */
typedef struct label_edges {
    int *from, *to;
    size_t n;
} label_edges;

static void label_edges_build(const bx_pmap *pm, const int *label, label_edges *le,
                              size_t *indeg)
{
    le->from = malloc((pm->nedges ? pm->nedges : 1) * sizeof *le->from);
    le->to = malloc((pm->nedges ? pm->nedges : 1) * sizeof *le->to);
    if (!le->from || !le->to)
        bx_oom();
    le->n = 0;
    for (size_t e = 0; e < pm->nedges; e++) {
        int a = label[pm->efrom[e]], b = label[pm->eto[e]];
        if (a == b)
            continue;
        le->from[le->n] = a;
        le->to[le->n] = b;
        le->n++;
        indeg[b]++;
    }
}

static void label_edges_free(label_edges *le)
{
    free(le->from);
    free(le->to);
}

static int device_index(const byoc_registry *reg, const byoc_device_decl *d)
{
    for (int i = 0; i < byoc_registry_device_count(reg); i++)
        if (byoc_registry_device_at(reg, i) == d)
            return i;
    return -1;
}

static void set_links(const byoc_registry *reg, bx_search_problem *p)
{
    for (int i = 0; i < byoc_registry_link_count(reg); i++) {
        const byoc_link_decl *l = byoc_registry_link_at(reg, i);
        int a = device_index(reg, byoc_registry_device(reg, l->from));
        int b = device_index(reg, byoc_registry_device(reg, l->to));
        if (a < 0 || b < 0 || a == b)
            continue;
        bx_search_set_link(p, (uint32_t)a, (uint32_t)b, l->latency, l->bandwidth);
        if (l->both_ways)
            bx_search_set_link(p, (uint32_t)b, (uint32_t)a, l->latency, l->bandwidth);
    }
    /* Devices with no declared link between them cannot exchange data:
     * an unset pair is free in the search, so mark it absent. */
    int nd = byoc_registry_device_count(reg);
    for (int a = 0; a < nd; a++)
        for (int b = 0; b < nd; b++) {
            if (a == b)
                continue;
            const byoc_device_decl *da = byoc_registry_device_at(reg, a);
            const byoc_device_decl *db = byoc_registry_device_at(reg, b);
            if (!byoc_registry_link(reg, da->name, db->name))
                bx_search_set_link(p, (uint32_t)a, (uint32_t)b, INFINITY, 0);
        }
}

/* ---- the run ---------------------------------------------------------------- */

/* --strict: every kernel priced comes from the table (or the callback);
 * else an error naming the first candidate's kernel that did not, in
 * candidate order (deterministic), and how many distinct ones there are. */
static int strict_check(const bx_session *s, byoc_error *err)
{
    bx_estimator_stats st = bx_estimator_get_stats(s->est);
    size_t missing = st.analytic + st.unknown;
    if (missing == 0)
        return 0;
    for (size_t i = 0; i < s->cands.n; i++) {
        byoc_cost_source src = s->costs[i].source;
        if (src != BYOC_COST_ANALYTIC && src != BYOC_COST_UNKNOWN)
            continue;
        const char *sig = s->costs[i].signature ? s->costs[i].signature : "?";
        int len = (int)strlen(sig);
        bx_error_set(err, NULL, 0, 0,
                     "%zu of %zu kernels are not in the cost table (strict): the first, "
                     "on target %s: %.*s%s",
                     missing, st.kernels, s->targets[s->cands.cands[i].target]->name,
                     len > 240 ? 240 : len, sig, len > 240 ? "..." : "");
        return -1;
    }
    return 0;
}

/* Everything one partitioning needs, built once and shared by the
 * strategies (and by explain, which asks what-if questions). */
int bx_session_open(bx_session *s, const byoc_graph *g, const byoc_partition_options *o,
                    byoc_error *err)
{
    memset(s, 0, sizeof *s);
    s->graph = g;
    s->reg = byoc_graph_registry(g);
    if (o)
        s->opt = *o;
    else
        byoc_partition_options_init(&s->opt);
    o = &s->opt;
    if (bx_select_targets(s->reg, o, &s->targets, &s->ntargets, err) < 0)
        return -1;
    double t0 = now_seconds();
    if (bx_cands_build(&s->cands, g, s->reg, s->targets, s->ntargets, err) < 0) {
        bx_cands_free(&s->cands);
        free(s->targets);
        s->targets = NULL;
        return -1;
    }
    s->est = bx_estimator_create(g, o->table, o->cost_fn, o->cost_ctx);
    s->costs = malloc((s->cands.n ? s->cands.n : 1) * sizeof *s->costs);
    if (!s->costs)
        bx_oom();
    for (size_t i = 0; i < s->cands.n; i++) {
        const bx_cand *c = &s->cands.cands[i];
        const byoc_target_decl *t = s->targets[c->target];
        s->costs[i] = bx_estimate_kernel(s->est, t, byoc_target_device(s->reg, t), c->nodes,
                                         c->nnodes, c->pattern ? c->pattern->name : NULL,
                                         c->efficiency);
    }
    s->candidate_seconds = now_seconds() - t0;
    if (o->strict_table && o->table && strict_check(s, err) < 0) {
        bx_session_close(s);
        return -1;
    }
    bx_pmap_init(&s->pmap, g, &s->cands);
    return 0;
}

void bx_session_close(bx_session *s)
{
    bx_pmap_free(&s->pmap);
    free(s->costs);
    if (s->est)
        bx_estimator_destroy(s->est);
    bx_cands_free(&s->cands);
    free(s->targets);
    memset(s, 0, sizeof *s);
}

/* A search problem over the session's graph with the candidates for which
 * use[i] is true (all when use is NULL). */
static bx_search_problem *make_problem(bx_session *s, const bool *use)
{
    const byoc_registry *reg = s->reg;
    bx_search_problem *p = bx_search_problem_create((uint32_t)s->pmap.ncalls,
                                                    (uint32_t)byoc_registry_device_count(reg));
    bx_pmap_edges(&s->pmap, p);
    set_links(reg, p);
    uint32_t *buf = malloc((s->pmap.ncalls ? s->pmap.ncalls : 1) * sizeof *buf);
    if (!buf)
        bx_oom();
    for (size_t i = 0; i < s->cands.n; i++) {
        if (use && !use[i])
            continue;
        const bx_cand *c = &s->cands.cands[i];
        size_t k = 0;
        for (int j = 0; j < c->nnodes; j++)
            if (s->pmap.index[c->nodes[j]] != UINT32_MAX)
                buf[k++] = s->pmap.index[c->nodes[j]];
        if (k == 0)
            continue;
        const byoc_target_decl *t = s->targets[c->target];
        int d = device_index(reg, byoc_target_device(reg, t));
        bx_search_add_candidate_nodes(p, buf, k, (uint32_t)(d < 0 ? 0 : d), s->costs[i].seconds,
                                      (uint64_t)i);
    }
    free(buf);
    return p;
}

/* ---- greedy ----------------------------------------------------------------- */

typedef struct greedy_order {
    size_t cand;
    int ncalls;
    int first;
} greedy_order;

static int greedy_cmp(const void *a, const void *b)
{
    const greedy_order *x = a, *y = b;
    if (x->ncalls != y->ncalls)
        return x->ncalls > y->ncalls ? -1 : 1;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return x->cand < y->cand ? -1 : x->cand > y->cand;
}

/* Would the partitions chosen so far plus `add` leave the graph of calls,
 * with each chosen partition contracted, acyclic?  Contract by a label per
 * call, then look for a cycle among labels with a depth-first search. */
static bool contracted_acyclic(const bx_session *s, const int *label, int nlabels)
{
    size_t *indeg = calloc((size_t)nlabels + 1, sizeof *indeg);
    size_t *start = calloc((size_t)nlabels + 2, sizeof *start);
    int *queue = malloc((size_t)(nlabels ? nlabels : 1) * sizeof *queue);
    if (!indeg || !start || !queue)
        bx_oom();
    label_edges le;
    label_edges_build(&s->pmap, label, &le, indeg);
    /* Kahn's algorithm on labels, over adjacency lists by source. */
    int *adj = malloc((le.n ? le.n : 1) * sizeof *adj);
    size_t *fill = calloc((size_t)nlabels + 1, sizeof *fill);
    if (!adj || !fill)
        bx_oom();
    for (size_t e = 0; e < le.n; e++)
        start[le.from[e] + 1]++;
    for (int i = 0; i < nlabels; i++)
        start[i + 1] += start[i];
    for (size_t e = 0; e < le.n; e++)
        adj[start[le.from[e]] + fill[le.from[e]]++] = le.to[e];
    int head = 0, tail = 0, seen = 0;
    for (int i = 0; i < nlabels; i++)
        if (!indeg[i])
            queue[tail++] = i;
    while (head < tail) {
        int u = queue[head++];
        seen++;
        for (size_t k = start[u]; k < start[u + 1]; k++)
            if (--indeg[adj[k]] == 0)
                queue[tail++] = adj[k];
    }
    label_edges_free(&le);
    free(indeg);
    free(start);
    free(queue);
    free(adj);
    free(fill);
    return seen == nlabels;
}

/* Choose, target by target in priority order, the largest candidates that
 * miss what is taken and keep the contraction acyclic; mark them in use,
 * and with them every native candidate that misses all of them. */
static void greedy_choose(bx_session *s, bool *use)
{
    size_t ncalls = s->pmap.ncalls;
    int *label = malloc((ncalls ? ncalls : 1) * sizeof *label);
    greedy_order *order = malloc((s->cands.n ? s->cands.n : 1) * sizeof *order);
    bool *taken = calloc(ncalls ? ncalls : 1, 1);
    if (!label || !order || !taken)
        bx_oom();
    for (size_t c = 0; c < ncalls; c++)
        label[c] = (int)c;
    int nlabels = (int)ncalls;
    for (int t = 0; t < s->ntargets; t++) {
        if (is_native(s->reg, s->targets[t]))
            continue;
        size_t n = 0;
        for (size_t i = 0; i < s->cands.n; i++) {
            const bx_cand *c = &s->cands.cands[i];
            if (c->target != t || !isfinite(s->costs[i].seconds))
                continue;
            int calls = 0, first = -1;
            for (int j = 0; j < c->nnodes; j++)
                if (s->pmap.index[c->nodes[j]] != UINT32_MAX) {
                    calls++;
                    if (first < 0)
                        first = c->nodes[j];
                }
            if (calls)
                order[n++] = (greedy_order){i, calls, first};
        }
        qsort(order, n, sizeof *order, greedy_cmp);
        for (size_t k = 0; k < n; k++) {
            const bx_cand *c = &s->cands.cands[order[k].cand];
            bool free_ = true;
            for (int j = 0; j < c->nnodes && free_; j++) {
                uint32_t x = s->pmap.index[c->nodes[j]];
                free_ = x == UINT32_MAX || !taken[x];
            }
            if (!free_)
                continue;
            /* Tentatively contract c to a new label. */
            int *saved = malloc((size_t)c->nnodes * sizeof *saved);
            if (!saved)
                bx_oom();
            for (int j = 0; j < c->nnodes; j++) {
                uint32_t x = s->pmap.index[c->nodes[j]];
                saved[j] = x == UINT32_MAX ? -1 : label[x];
                if (x != UINT32_MAX)
                    label[x] = nlabels;
            }
            if (contracted_acyclic(s, label, nlabels + 1)) {
                nlabels++;
                use[order[k].cand] = true;
                for (int j = 0; j < c->nnodes; j++) {
                    uint32_t x = s->pmap.index[c->nodes[j]];
                    if (x != UINT32_MAX)
                        taken[x] = true;
                }
            } else {
                for (int j = 0; j < c->nnodes; j++) {
                    uint32_t x = s->pmap.index[c->nodes[j]];
                    if (x != UINT32_MAX)
                        label[x] = saved[j];
                }
            }
            free(saved);
        }
    }
    for (size_t i = 0; i < s->cands.n; i++) {
        const bx_cand *c = &s->cands.cands[i];
        if (!is_native(s->reg, s->targets[c->target]))
            continue;
        bool free_ = true;
        for (int j = 0; j < c->nnodes && free_; j++) {
            uint32_t x = s->pmap.index[c->nodes[j]];
            free_ = x == UINT32_MAX || !taken[x];
        }
        if (free_)
            use[i] = true;
    }
    free(label);
    free(order);
    free(taken);
}

/* ---- results ---------------------------------------------------------------- */

/* Order the chosen candidates so that every partition comes after those it
 * reads from (Kahn's algorithm, the lowest first node first among the
 * ready ones, so the order is deterministic).  Returns false on a cycle. */
static bool execution_order(const bx_session *s, const size_t *chosen, size_t n, size_t *out)
{
    const bx_pmap *pm = &s->pmap;
    int *label = malloc((pm->ncalls ? pm->ncalls : 1) * sizeof *label);
    int *first = malloc((n ? n : 1) * sizeof *first);
    if (!label || !first)
        bx_oom();
    for (size_t k = 0; k < n; k++) {
        const bx_cand *c = &s->cands.cands[chosen[k]];
        first[k] = INT32_MAX;
        for (int j = 0; j < c->nnodes; j++) {
            uint32_t x = pm->index[c->nodes[j]];
            if (x != UINT32_MAX) {
                label[x] = (int)k;
                if (c->nodes[j] < first[k])
                    first[k] = c->nodes[j];
            }
        }
    }
    size_t *indeg = calloc(n ? n : 1, sizeof *indeg);
    if (!indeg)
        bx_oom();
    label_edges le;
    label_edges_build(pm, label, &le, indeg);
    bool *done = calloc(n ? n : 1, 1);
    if (!done)
        bx_oom();
    size_t placed = 0;
    /* n is the number of partitions (hundreds at most in practice): a
     * quadratic selection of the ready one with the lowest first node
     * keeps this short and deterministic. */
    while (placed < n) {
        size_t best = SIZE_MAX;
        for (size_t k = 0; k < n; k++)
            if (!done[k] && indeg[k] == 0 && (best == SIZE_MAX || first[k] < first[best]))
                best = k;
        if (best == SIZE_MAX)
            break;
        done[best] = true;
        out[placed++] = chosen[best];
        for (size_t e = 0; e < le.n; e++)
            if (le.from[e] == (int)best)
                indeg[le.to[e]]--;
    }
    label_edges_free(&le);
    free(label);
    free(first);
    free(indeg);
    free(done);
    return placed == n;
}

static byoc_result *make_result(bx_session *s, const char *strategy, const size_t *chosen,
                                size_t n, const bx_search_result *sr, byoc_error *err)
{
    byoc_result_impl *ri = calloc(1, sizeof *ri);
    if (!ri)
        bx_oom();
    bx_arena_init(&ri->arena);
    bx_arena *a = &ri->arena;
    byoc_result *r = &ri->pub;
    r->priv = r;
    r->graph = s->graph;
    r->strategy = bx_arena_strdup(a, strategy);
    r->ntargets = s->ntargets;
    const byoc_target_decl **tv = BX_NEWN(a, const byoc_target_decl *, s->ntargets);
    memcpy(tv, s->targets, (size_t)s->ntargets * sizeof *tv);
    r->targets = tv;

    size_t *ordered = malloc((n ? n : 1) * sizeof *ordered);
    if (!ordered)
        bx_oom();
    if (!execution_order(s, chosen, n, ordered)) {
        free(ordered);
        bx_error_set(err, NULL, 0, 0, "internal error: the chosen partitions form a cycle");
        bx_arena_free(a);
        free(ri);
        return NULL;
    }
    int nnodes = byoc_graph_node_count(s->graph);
    int *np = BX_NEWN(a, int, nnodes ? nnodes : 1);
    for (int i = 0; i < nnodes; i++)
        np[i] = -1;
    byoc_partition *parts = BX_NEWN(a, byoc_partition, n ? n : 1);
    for (size_t k = 0; k < n; k++) {
        size_t ci = ordered[k];
        const bx_cand *c = &s->cands.cands[ci];
        byoc_partition *p = &parts[k];
        p->target = s->targets[c->target];
        p->device = byoc_target_device(s->reg, p->target);
        p->nnodes = c->nnodes;
        p->nodes = bx_arena_memdup(a, c->nodes, (size_t)c->nnodes * sizeof *c->nodes);
        for (int j = 0; j < c->nnodes; j++)
            np[c->nodes[j]] = (int)k;
        p->ncomposites = c->ncomps;
        byoc_composite *comps = BX_NEWN(a, byoc_composite, c->ncomps ? c->ncomps : 1);
        for (int j = 0; j < c->ncomps; j++) {
            comps[j].pattern = c->comps[j].pattern->name;
            comps[j].nnodes = c->comps[j].nnodes;
            comps[j].nodes = bx_arena_memdup(a, c->comps[j].nodes,
                                             (size_t)c->comps[j].nnodes * sizeof(int));
        }
        p->composites = comps;
        p->cost = s->costs[ci].seconds;
        p->cost_source = s->costs[ci].source;
        p->signature = bx_arena_strdup(a, s->costs[ci].signature);
        switch (p->cost_source) {
        case BYOC_COST_TABLE: r->from_table++; break;
        case BYOC_COST_CALLBACK: r->from_callback++; break;
        case BYOC_COST_UNKNOWN: r->unknown++; break;
        default: break;
        }
    }
    free(ordered);
    r->npartitions = (int)n;
    r->partitions = parts;
    r->node_partition = np;
    r->cost = sr->cost;
    r->transfer_cost = sr->transfer_cost;
    r->optimal = sr->optimal;
    r->budget_hit = sr->budget_hit;
    r->time_hit = sr->time_hit;
    r->lower_bound = sr->lower_bound;
    r->ncandidates = s->cands.n;
    r->nkernels = bx_estimator_get_stats(s->est).kernels;
    r->expanded = sr->expanded;
    r->generated = sr->generated;
    r->candidate_seconds = s->candidate_seconds;
    r->cost_table = s->opt.table != NULL;
    if (r->cost_table) {
        bx_estimator_stats st = bx_estimator_get_stats(s->est);
        r->kernels_from_table = st.from_table;
        r->kernels_fallback = st.analytic + st.unknown;
    }
    return r;
}

byoc_result *bx_session_run(bx_session *s, const char *strategy, const bool *use,
                            byoc_error *err)
{
    double t0 = now_seconds();
    bx_search_problem *p = make_problem(s, use);
    const char *perr = bx_search_problem_error(p);
    if (perr) {
        bx_error_set(err, NULL, 0, 0, "internal error: %s", perr);
        bx_search_problem_destroy(p);
        return NULL;
    }
    bx_search_options so = {
        .astar = !s->opt.no_astar,
        .max_states = s->opt.max_states ? s->opt.max_states : DEFAULT_MAX_STATES,
        .beam_width = s->opt.beam_width,
        .time_limit = s->opt.time_limit,
    };
    bx_search_result *sr = bx_search_run(p, &so);
    double search_seconds = now_seconds() - t0;
    if (!sr) {
        bx_error_set(err, NULL, 0, 0, "out of memory");
        bx_search_problem_destroy(p);
        return NULL;
    }
    if (!sr->ok) {
        if (sr->out_of_memory || strstr(sr->error, "too many states"))
            bx_error_set(err, NULL, 0, 0, "%s", sr->error);
        else
            bx_error_set(err, NULL, 0, 0, "no valid placement: %s", sr->error);
        bx_search_result_destroy(sr);
        bx_search_problem_destroy(p);
        return NULL;
    }
    size_t *chosen = malloc((sr->nchosen ? sr->nchosen : 1) * sizeof *chosen);
    if (!chosen)
        bx_oom();
    for (size_t k = 0; k < sr->nchosen; k++)
        chosen[k] = (size_t)bx_search_candidate_id(p, sr->chosen[k]);
    byoc_result *r = make_result(s, strategy, chosen, sr->nchosen, sr, err);
    free(chosen);
    bx_search_result_destroy(sr);
    bx_search_problem_destroy(p);
    if (!r)
        return NULL;
    r->search_seconds = search_seconds;
    if (!s->opt.no_check) {
        char buf[512];
        const char *why = byoc_result_check(r, buf, sizeof buf);
        if (why) {
            bx_error_set(err, NULL, 0, 0, "internal error: the result fails the checker: %s",
                         why);
            byoc_result_destroy(r);
            return NULL;
        }
    }
    return r;
}

static byoc_result *byoc_partition_graph_unguarded(const byoc_graph *g, const byoc_partition_options *o,
                                  byoc_error *err)
{
    bx_session s;
    if (bx_session_open(&s, g, o, err) < 0)
        return NULL;
    byoc_result *r = NULL;
    char name[300];
    switch (s.opt.strategy) {
    case BYOC_SEARCH_OPTIMAL:
        r = bx_session_run(&s, "optimal", NULL, err);
        break;
    case BYOC_SEARCH_SINGLE:
        snprintf(name, sizeof name, "single:%s", s.opt.single);
        r = bx_session_run(&s, name, NULL, err);
        break;
    case BYOC_SEARCH_GREEDY: {
        bool *use = calloc(s.cands.n ? s.cands.n : 1, 1);
        if (!use)
            bx_oom();
        greedy_choose(&s, use);
        r = bx_session_run(&s, "greedy", use, err);
        if (r) {
            /* The search only finished what greedy left: nothing is proven
             * about the whole problem. */
            ((byoc_result *)r)->optimal = false;
            ((byoc_result *)r)->lower_bound = 0;
        }
        free(use);
        break;
    }
    }
    bx_session_close(&s);
    return r;
}

byoc_result *byoc_partition_graph(const byoc_graph *g, const byoc_partition_options *o,
                                  byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, NULL);
    byoc_result *result = byoc_partition_graph_unguarded(g, o, err);
    bx_oom_close(&guard);
    return result;
}

void byoc_result_destroy(byoc_result *r)
{
    if (!r)
        return;
    byoc_result_impl *ri = (byoc_result_impl *)r;
    bx_lower_parts_destroy(ri->lower);
    bx_arena_free(&ri->arena);
    free(ri);
}

/* ---- the independent checker -------------------------------------------- */

/* Is the partition's node set convex?  Search forward from its members'
 * consumers through non-members; reaching a member again means a path
 * leaves and re-enters.  Independent of cand.c on purpose. */
static bool convex_set(const byoc_graph *g, const int *np, int part, int lo, int hi,
                       char *mark, int *stack, int *visited)
{
    int sp = 0;
    for (int v = lo; v <= hi; v++) {
        if (np[v] != part)
            continue;
        for (int i = 0; i < byoc_node_consumer_count(g, v); i++) {
            int w = byoc_node_consumer(g, v, i);
            if (np[w] != part && w < hi && !mark[w]) {
                mark[w] = 1;
                stack[sp++] = w;
            }
        }
    }
    bool ok = true;
    int nmarked = sp;   /* every node marked is in visited[0..nmarked) */
    for (int k = 0; k < sp; k++)
        visited[k] = stack[k];
    while (sp > 0 && ok) {
        int v = stack[--sp];
        for (int i = 0; i < byoc_node_consumer_count(g, v); i++) {
            int w = byoc_node_consumer(g, v, i);
            if (np[w] == part) {
                ok = false;
                break;
            }
            if (w < hi && !mark[w]) {
                mark[w] = 1;
                stack[sp++] = w;
                visited[nmarked++] = w;
            }
        }
    }
    /* clear what was marked: a memset of the whole graph per partition
     * made the checker quadratic in chains of small partitions */
    for (int k = 0; k < nmarked; k++)
        mark[visited[k]] = 0;
    return ok;
}

const char *byoc_result_check(const byoc_result *r, char *buf, size_t size)
{
    const byoc_graph *g = r->graph;
    const byoc_registry *reg = byoc_graph_registry(g);
    int n = byoc_graph_node_count(g);
    int *np = malloc((size_t)(n ? n : 1) * sizeof *np);
    char *mark = malloc((size_t)(n ? n : 1));
    int *stack = malloc((size_t)(n ? n : 1) * sizeof *stack);
    if (!np || !mark || !stack)
        bx_oom();
    const char *why = NULL;
    for (int i = 0; i < n; i++)
        np[i] = -1;
    for (int k = 0; k < r->npartitions && !why; k++) {
        const byoc_partition *p = &r->partitions[k];
        int calls = 0;
        for (int j = 0; j < p->nnodes && !why; j++) {
            int v = p->nodes[j];
            if (v < 0 || v >= n)
                snprintf(buf, size, "partition %d holds node %d, not in the graph", k, v);
            else if (np[v] >= 0)
                snprintf(buf, size, "node %d is in partitions %d and %d", v, np[v], k);
            else if (j > 0 && v <= p->nodes[j - 1])
                snprintf(buf, size, "partition %d's nodes are not ascending", k);
            else {
                np[v] = k;
                calls += byoc_node_kind_of(g, v) == BYOC_N_CALL;
                continue;
            }
            why = buf;
        }
        if (!why && calls == 0) {
            snprintf(buf, size, "partition %d holds no call", k);
            why = buf;
        }
    }
    for (int v = 0; v < n && !why; v++) {
        if (byoc_node_kind_of(g, v) == BYOC_N_CALL && np[v] < 0) {
            snprintf(buf, size, "call %d is in no partition", v);
            why = buf;
        } else if (r->node_partition[v] != np[v]) {
            snprintf(buf, size, "node %d: node_partition says %d, the partitions %d", v,
                     r->node_partition[v], np[v]);
            why = buf;
        }
        if (!why && (byoc_node_kind_of(g, v) == BYOC_N_INPUT ||
                     byoc_node_kind_of(g, v) == BYOC_N_CONST) && np[v] >= 0) {
            snprintf(buf, size, "input or constant %d is placed", v);
            why = buf;
        }
    }
    /* Order: every edge between partitions goes forward.  Edges through
     * unplaced tuples and projections count too: follow each node's
     * arguments back to the nearest placed producers. */
    for (int v = 0; v < n && !why; v++) {
        if (np[v] < 0)
            continue;
        int *todo = stack, sp = 0;
        for (int i = 0; i < byoc_node_arg_count(g, v) && sp < n; i++)
            todo[sp++] = byoc_node_arg(g, v, i);
        while (sp > 0 && !why) {
            int a = todo[--sp];
            if (np[a] >= 0) {
                if (np[a] > np[v]) {
                    snprintf(buf, size,
                             "partition %d reads node %d of partition %d, which comes later",
                             np[v], a, np[a]);
                    why = buf;
                }
            } else if (byoc_node_kind_of(g, a) == BYOC_N_TUPLE ||
                       byoc_node_kind_of(g, a) == BYOC_N_PROJ) {
                for (int i = 0; i < byoc_node_arg_count(g, a) && sp < n; i++)
                    todo[sp++] = byoc_node_arg(g, a, i);
            }
        }
    }
    memset(mark, 0, (size_t)n);
    int *visited = malloc((size_t)(n ? n : 1) * sizeof *visited);
    if (!visited)
        bx_oom();
    for (int k = 0; k < r->npartitions && !why; k++) {
        const byoc_partition *p = &r->partitions[k];
        if (!convex_set(g, np, k, p->nodes[0], p->nodes[p->nnodes - 1], mark, stack, visited)) {
            snprintf(buf, size, "partition %d (%s) is not convex", k, p->target->name);
            why = buf;
            break;
        }
        int rule, clause;
        if (!bx_partition_rules_hold(g, reg, p->target, p->nodes, p->nnodes, &rule, &clause)) {
            snprintf(buf, size, "partition %d is refused by rule %d of target '%s'", k, rule,
                     p->target->name);
            why = buf;
        }
    }
    free(visited);
    double sum = r->transfer_cost;
    for (int k = 0; k < r->npartitions; k++)
        sum += r->partitions[k].cost;
    if (!why && isfinite(r->cost) && fabs(sum - r->cost) > 1e-9 * (1 + fabs(r->cost))) {
        snprintf(buf, size, "the total %.9g is not the partitions' sum %.9g", r->cost, sum);
        why = buf;
    }
    free(np);
    free(mark);
    free(stack);
    return why;
}

/* ---- kernels for measuring ----------------------------------------------- */

int bx_session_each_kernel(const bx_session *s, bx_kernel_fn fn, void *ctx)
{
    /* The cache of the estimator already knows the distinct ones, but a
     * hash set here keeps this independent of how the estimator keys its
     * cache. */
    bx_hash seen;
    bx_hash_init(&seen);
    bx_arena keys;
    bx_arena_init(&keys);
    int rc = 0;
    for (size_t i = 0; i < s->cands.n && rc == 0; i++) {
        const bx_cand *c = &s->cands.cands[i];
        const byoc_target_decl *t = s->targets[c->target];
        const char *key = bx_arena_printf(&keys, "%s\n%s", t->name, s->costs[i].signature);
        if (bx_hash_get(&seen, key))
            continue;
        bx_hash_put(&seen, key, (void *)key);
        rc = fn(s, i, ctx);
    }
    bx_hash_free(&seen);
    bx_arena_free(&keys);
    return rc;
}

typedef struct relay_kernels {
    FILE *f;
    size_t written;
} relay_kernels;

static int relay_kernel(const bx_session *s, size_t i, void *ctx)
{
    relay_kernels *rk = ctx;
    const bx_cand *c = &s->cands.cands[i];
    const byoc_target_decl *t = s->targets[c->target];
    char name[64];
    snprintf(name, sizeof name, "kernel_%zu", rk->written);
    fprintf(rk->f, "\n# target: %s\n# signature: %s\n# estimate: %.6g s (%s)\n", t->name,
            s->costs[i].signature, s->costs[i].seconds, byoc_cost_source_name(s->costs[i].source));
    bx_relay_write_kernel(rk->f, s->graph, c->nodes, c->nnodes, name);
    rk->written++;
    return 0;
}

static int byoc_write_kernels_unguarded(const byoc_graph *g, const byoc_partition_options *o, FILE *f,
                       byoc_error *err)
{
    bx_session s;
    if (bx_session_open(&s, g, o, err) < 0)
        return -1;
    fprintf(f, "# Kernels of %s on %d targets, one per target and signature.\n"
               "# Measure each and write a cost table: target,\"signature\",seconds\n"
               "# (see doc/cost-table.md), then: byoc partition --cost table:FILE\n",
            byoc_graph_source(g) ? byoc_graph_source(g) : "the graph", s.ntargets);
    relay_kernels rk = {f, 0};
    bx_session_each_kernel(&s, relay_kernel, &rk);
    bx_session_close(&s);
    if (ferror(f)) {
        bx_error_set(err, NULL, 0, 0, "write error while writing the kernels");
        return -1;
    }
    return 0;
}

int byoc_write_kernels(const byoc_graph *g, const byoc_partition_options *o, FILE *f,
                       byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, -1);
    int result = byoc_write_kernels_unguarded(g, o, f, err);
    bx_oom_close(&guard);
    return result;
}

