/* Candidates: every kernel each selected target could run on a graph.
 *
 * Per target, three sources feed one pool.  Named patterns are matched and
 * each holding match is emitted as it is, a one-composite kernel.  The
 * target's base kernels are the holding matches of its `supports` rules (or,
 * for `supports *`, every call as a singleton).  Under `fusion none` the
 * base kernels are the candidates.  Under `fusion tvm` they are combined as
 * Apache TVM's Collage MakeTVMPartitionRule does: in rounds, a kernel found
 * in the last round (upstream) is joined with a kernel that one of its
 * members feeds directly (downstream) when a ByKind rule fires
 * (out_elemwise_fusable -> broadcast, broadcast -> comm_reduce, injective ->
 * injective, compared on the max kind of each side) and the depths add up
 * to at most max_depth; a tuple feeding an injective kernel is absorbed
 * with one producer per field (TupleArg), a projection reading a new kernel
 * is absorbed (TupleProj); at the end only valid kernels remain (one exit,
 * no taps, within max_depth).  Under `fusion any` base kernels touching
 * each other (an edge in either direction, directly or through tuples and
 * projections, which join the union) are combined in rounds within
 * max_nodes and max_depth, and the maximal convex regions of supported
 * nodes are added.  Every union must be convex to be kept at all; exits and
 * `partition where` rules decide only whether a kernel is emitted, so an
 * intermediate that fails them may still grow into one that passes.
 *
 * The bound.  Let b be the target's growth bound: max_depth for `fusion
 * tvm`, max_nodes for `fusion any`, BX_CAND_DEFAULT_BOUND when that is 0,
 * and at most BX_CAND_DEFAULT_BOUND in any case.  A combined kernel is kept
 * only while each call in it lies in fewer than K = 4 * b combined kernels
 * of the target (so K <= 32), there are at most BX_CAND_ROUNDS rounds, and a
 * TupleArg firing yields at most BX_CAND_TUPLE_UNIONS unions.  So a target
 * has at most (base kernels) + K * (calls) + (calls) candidates (the last
 * term the maximal regions), and a round costs O(new kernels * neighbours
 * * K * kernel size): polynomial, and in practice near-linear in the
 * graph.  Kernels are deduplicated through a hash of their node set in
 * every round, so the same set reached twice is counted once.
 *
 * Convexity (no path leaves a set and comes back) is checked by two
 * searches taking turns, downstream from the members' outside consumers
 * below the last member and upstream from their outside arguments above
 * the first (numbering is topological, so nothing outside that window can
 * lead back); the maximal regions check only what a join adds.  One code
 * path for every graph size, and no cost quadratic in the graph: see
 * doc/partitioner.md section 2, "The cost". */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cand.h"
#include "die.h"
#include "errfmt.h"
#include "hash.h"
#include "match.h"

#define BX_CAND_DEFAULT_BOUND 8
#define BX_CAND_ROUNDS 16
#define BX_CAND_TUPLE_UNIONS 8

/* ---- small helpers ------------------------------------------------------- */

static void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q)
        bx_oom();
    return q;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        bx_oom();
    return p;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sort ints ascending.  qsort's indirect comparisons dominated candidate
 * generation on real models (lists of a few hundred set indices, sorted
 * thousands of times); this is an inline quicksort with insertion sort
 * for short runs. */
static void sort_ints(int *v, size_t n)
{
    while (n > 16) {
        int a = v[0], b = v[n / 2], c = v[n - 1];
        int pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        size_t i = 0, j = n - 1;
        for (;;) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i >= j)
                break;
            int t = v[i];
            v[i] = v[j];
            v[j] = t;
            i++;
            j--;
        }
        /* Recurse into the smaller side, loop on the larger. */
        size_t left = j + 1;
        if (left < n - left) {
            sort_ints(v, left);
            v += left;
            n -= left;
        } else {
            sort_ints(v + left, n - left);
            n = left;
        }
    }
    for (size_t i = 1; i < n; i++) {
        int x = v[i];
        size_t k = i;
        for (; k > 0 && v[k - 1] > x; k--)
            v[k] = v[k - 1];
        v[k] = x;
    }
}

static uint64_t hash_nodes(const int *v, int n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < n; i++) {
        h ^= (uint64_t)(uint32_t)v[i];
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    /* the tables index by the low bits: mix them all in (fmix64) */
    h ^= (uint64_t)n;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

static bool is_call(const byoc_graph *g, int n) { return byoc_node_kind_of(g, n) == BYOC_N_CALL; }

static bool is_glue(const byoc_graph *g, int n)
{
    byoc_node_kind k = byoc_node_kind_of(g, n);
    return k == BYOC_N_TUPLE || k == BYOC_N_PROJ;
}

/* TVM's kind of a node: tuples and projections are injective, opaque calls
 * (ops the registry does not know) opaque. */
static int node_kind(const byoc_graph *g, int n)
{
    if (is_glue(g, n))
        return BYOC_OPK_INJECTIVE;
    const byoc_op_decl *op = byoc_node_op(g, n);
    return op && !byoc_node_is_opaque(g, n) ? (int)op->kind : BYOC_OPK_OPAQUE;
}

/* ---- the candidates, in chunks while they are built ---------------------- */

/* A growing array of 1.5M candidates would be copied at every doubling,
 * and the copies would be alive together with the generation's pool, at
 * the peak of memory: chunks are never moved, and sort_cands makes the one
 * array the set hands out. */
#define BX_CHUNK_BITS 14
#define BX_CHUNK ((size_t)1 << BX_CHUNK_BITS)

static bx_cand *cand_at(const bx_cand_set *S, size_t i)
{
    return &S->chunks[i >> BX_CHUNK_BITS][i & (BX_CHUNK - 1)];
}

static bx_cand *cand_new(bx_cand_set *S)
{
    if ((S->n & (BX_CHUNK - 1)) == 0) {
        size_t k = S->n >> BX_CHUNK_BITS;
        if (k == S->nchunks) {
            S->nchunks = S->nchunks ? S->nchunks * 2 : 16;
            S->chunks = xrealloc(S->chunks, sizeof *S->chunks * S->nchunks);
        }
        S->chunks[k] = xcalloc(BX_CHUNK, sizeof **S->chunks);
    }
    return cand_at(S, S->n++);
}

/* ---- node sets: marks, convexity, depth, exits -------------------------- */

/* Scratch over the graph's nodes, reused by every check: a set is "marked"
 * when in[n] == stamp, which makes clearing free. */
typedef struct scratch {
    const byoc_graph *g;
    int nnodes, output;
    /* the graph's edges, copied out of it once: they are read in every
     * inner loop */
    int *arg_off, *args, *use_off, *uses;
    unsigned char *nkind, *okind;
    unsigned *in, stamp;
    unsigned *seen, *seen_up, vstamp;   /* searches downstream and upstream */
    int *stack, *stack_up, *depth;
} scratch;

static int sc_nargs(const scratch *s, int x) { return s->arg_off[x + 1] - s->arg_off[x]; }
static int sc_arg(const scratch *s, int x, int k) { return s->args[s->arg_off[x] + k]; }
static int sc_nuses(const scratch *s, int x) { return s->use_off[x + 1] - s->use_off[x]; }
static int sc_use(const scratch *s, int x, int k) { return s->uses[s->use_off[x] + k]; }
static bool sc_call(const scratch *s, int x) { return s->nkind[x] == BYOC_N_CALL; }
static bool sc_glue(const scratch *s, int x)
{
    return s->nkind[x] == BYOC_N_TUPLE || s->nkind[x] == BYOC_N_PROJ;
}
static int sc_kind(const scratch *s, int x) { return s->okind[x]; }

/* Arguments and consumers as flat arrays (arguments that are no node,
 * should a reader leave one, are dropped). */
static void scratch_edges(scratch *s, const byoc_graph *g)
{
    int n = s->nnodes, na = 0;
    s->arg_off = xcalloc((size_t)n + 1, sizeof *s->arg_off);
    s->use_off = xcalloc((size_t)n + 2, sizeof *s->use_off);
    s->nkind = xcalloc((size_t)n, 1);
    s->okind = xcalloc((size_t)n, 1);
    for (int x = 0; x < n; x++) {
        s->nkind[x] = (unsigned char)byoc_node_kind_of(g, x);
        s->okind[x] = (unsigned char)node_kind(g, x);
        na += byoc_node_arg_count(g, x);
    }
    s->args = xcalloc((size_t)na, sizeof *s->args);
    s->uses = xcalloc((size_t)na, sizeof *s->uses);
    int k = 0;
    for (int x = 0; x < n; x++) {
        s->arg_off[x] = k;
        for (int i = 0; i < byoc_node_arg_count(g, x); i++) {
            int a = byoc_node_arg(g, x, i);
            if (a >= 0 && a < n) {
                s->args[k++] = a;
                s->use_off[a + 2]++;
            }
        }
    }
    s->arg_off[n] = k;
    /* consumers in increasing order, each once per use */
    for (int x = 0; x < n; x++)
        s->use_off[x + 2] += s->use_off[x + 1];
    for (int x = 0; x < n; x++)
        for (int i = s->arg_off[x]; i < s->arg_off[x + 1]; i++)
            s->uses[s->use_off[s->args[i] + 1]++] = x;
}

static void scratch_init(scratch *s, const byoc_graph *g)
{
    s->g = g;
    s->nnodes = byoc_graph_node_count(g);
    s->output = byoc_graph_output(g);
    scratch_edges(s, g);
    s->in = xcalloc((size_t)s->nnodes, sizeof *s->in);
    s->seen = xcalloc((size_t)s->nnodes, sizeof *s->seen);
    s->seen_up = xcalloc((size_t)s->nnodes, sizeof *s->seen_up);
    s->stack = xcalloc((size_t)s->nnodes, sizeof *s->stack);
    s->stack_up = xcalloc((size_t)s->nnodes, sizeof *s->stack_up);
    s->depth = xcalloc((size_t)s->nnodes, sizeof *s->depth);
    s->stamp = s->vstamp = 0;
}

static void scratch_free(scratch *s)
{
    free(s->arg_off);
    free(s->args);
    free(s->use_off);
    free(s->uses);
    free(s->nkind);
    free(s->okind);
    free(s->in);
    free(s->seen);
    free(s->seen_up);
    free(s->stack);
    free(s->stack_up);
    free(s->depth);
}

static void mark_set(scratch *s, const int *v, int n)
{
    if (++s->stamp == 0) {
        memset(s->in, 0, sizeof *s->in * (size_t)s->nnodes);
        s->stamp = 1;
    }
    for (int i = 0; i < n; i++)
        s->in[v[i]] = s->stamp;
}

static bool marked(const scratch *s, int n) { return s->in[n] == s->stamp; }

static void next_visit(scratch *s)
{
    if (++s->vstamp == 0) {
        memset(s->seen, 0, sizeof *s->seen * (size_t)s->nnodes);
        memset(s->seen_up, 0, sizeof *s->seen_up * (size_t)s->nnodes);
        s->vstamp = 1;
    }
}

/* Push the unseen outside consumers of x below `last`; true if one of
 * them is a member (a path came back). */
static bool push_outside(scratch *s, int x, int last, int *sp, bool from_member)
{
    int nc = sc_nuses(s, x);
    for (int i = 0; i < nc; i++) {
        int c = sc_use(s, x, i);
        if (c > last)
            break; /* consumers come in increasing order */
        if (marked(s, c)) {
            if (!from_member)
                return true;
            continue;
        }
        if (s->seen[c] != s->vstamp) {
            s->seen[c] = s->vstamp;
            s->stack[(*sp)++] = c;
        }
    }
    return false;
}

/* Push the unseen outside arguments of x above `first`; true if one of
 * them is a member.  The mirror image of push_outside. */
static bool push_outside_up(scratch *s, int x, int first, int *sp, bool from_member)
{
    for (int i = 0; i < sc_nargs(s, x); i++) {
        int a = sc_arg(s, x, i);
        if (a < first)
            continue;
        if (marked(s, a)) {
            if (!from_member)
                return true;
            continue;
        }
        if (s->seen_up[a] != s->vstamp) {
            s->seen_up[a] = s->vstamp;
            s->stack_up[(*sp)++] = a;
        }
    }
    return false;
}

/* Is the marked set v[0..n) (ascending) convex?  A path that leaves and
 * comes back runs between the first and the last member, so a search
 * downstream from the members' outside consumers (below the last) finds
 * it, and so does a search upstream from their outside arguments (above
 * the first); either one finishing without meeting a member proves the
 * set convex.  They take turns, so the cost is that of the smaller of the
 * two cones, not of everything the set reaches before its last member
 * (which can be much of the graph for a set of two far-apart nodes). */
static bool marked_convex(scratch *s, const int *v, int n)
{
    if (n <= 1)
        return true;
    int first = v[0], last = v[n - 1], down = 0, up = 0;
    next_visit(s);
    for (int i = 0; i < n; i++) {
        push_outside(s, v[i], last, &down, true);
        push_outside_up(s, v[i], first, &up, true);
    }
    while (down > 0 && up > 0) {
        if (push_outside(s, s->stack[--down], last, &down, false)
            || push_outside_up(s, s->stack_up[--up], first, &up, false))
            return false;
    }
    return true;
}

/* Calls on the longest path inside the marked set v[0..n). */
static int marked_depth(scratch *s, const int *v, int n)
{
    int best = 0;
    for (int i = 0; i < n; i++) {
        int x = v[i], d = 0;
        for (int k = 0; k < sc_nargs(s, x); k++) {
            int a = sc_arg(s, x, k);
            if (a >= 0 && marked(s, a) && s->depth[a] > d)
                d = s->depth[a];
        }
        s->depth[x] = d + (sc_call(s, x) ? 1 : 0);
        if (s->depth[x] > best)
            best = s->depth[x];
    }
    return best;
}

/* Members whose result leaves the marked set (or is the graph's result).
 * A tuple-valued member read through several outside projections is one
 * exit: the kernel returns that tuple once.  *taps counts exits that are
 * also read inside. */
static int marked_exits(scratch *s, const int *v, int n, int *taps)
{
    int exits = 0;
    *taps = 0;
    for (int i = 0; i < n; i++) {
        bool out = v[i] == s->output, inside = false;
        for (int k = 0; k < sc_nuses(s, v[i]); k++) {
            if (marked(s, sc_use(s, v[i], k)))
                inside = true;
            else
                out = true;
        }
        exits += out;
        *taps += out && inside;
    }
    return exits;
}

static int count_calls(const scratch *s, const int *v, int n)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += sc_call(s, v[i]);
    return c;
}

int bx_convex(const byoc_graph *g, const int *nodes, int n)
{
    if (n <= 1)
        return 1;
    int *v = xcalloc((size_t)n, sizeof *v);
    memcpy(v, nodes, sizeof *v * (size_t)n);
    sort_ints(v, (size_t)n);
    scratch s;
    scratch_init(&s, g);
    mark_set(&s, v, n);
    bool ok = marked_convex(&s, v, n);
    scratch_free(&s);
    free(v);
    return ok;
}

/* The `partition where` rules of t over the set nodes[0..n), whose inputs
 * and outputs (as inputs() and outputs() define them) are given. */
static int rules_eval(const byoc_graph *g, const byoc_registry *reg, const byoc_target_decl *t,
                      const int *nodes, int n, const int *in, int nin, const int *out, int nout,
                      int *rule, int *clause)
{
    int nr = byoc_target_partition_rule_count(reg, t);
    for (int i = 0; i < nr; i++) {
        const byoc_predicate_decl *p = byoc_target_partition_rule_at(reg, t, i);
        if (!p->fn)
            continue;
        byoc_eval ev;
        memset(&ev, 0, sizeof ev);
        ev.graph = g;
        ev.options = byoc_target_options(reg, t);
        ev.noptions = t->noptions;
        ev.part = nodes;
        ev.npart = n;
        ev.failed_clause = -1;
        ev.pinputs = in;
        ev.npinputs = nin;
        ev.poutputs = out;
        ev.npoutputs = nout;
        if (!p->fn(&ev)) {
            if (rule)
                *rule = i;
            if (clause)
                *clause = ev.failed_clause;
            return 0;
        }
    }
    return 1;
}

/* (node, position of its first use) pairs, to deduplicate inputs. */
typedef struct use_at {
    int node, at;
} use_at;

static int cmp_use_at(const void *a, const void *b)
{
    const use_at *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at);
}

static bool in_sorted(const int *v, int n, int x)
{
    return bsearch(&x, v, (size_t)n, sizeof *v, cmp_int) != NULL;
}

/* A set's inputs (distinct non-members its members read, in order of first
 * use) and outputs (members read by a non-member or by nothing), as
 * inputs() and outputs() of partition rules define them, computed once so
 * that a rule quantifying over them stays linear: O(k log k) in the
 * members' edges, with no table over the graph (the checker asks for
 * every partition).  in and out have room for the members' arguments and
 * for n entries. */
static void part_io(const byoc_graph *g, const int *nodes, const int *sorted, int n, int *in,
                    int *nin, int *out, int *nout)
{
    size_t m = 0;
    for (int i = 0; i < n; i++)
        m += (size_t)byoc_node_arg_count(g, nodes[i]);
    use_at *u = xcalloc(m, sizeof *u);
    size_t k = 0;
    *nout = 0;
    for (int i = 0; i < n; i++) {
        int v = nodes[i];
        for (int j = 0; j < byoc_node_arg_count(g, v); j++) {
            int a = byoc_node_arg(g, v, j);
            if (a >= 0 && !in_sorted(sorted, n, a)) {
                u[k].node = a;
                u[k].at = (int)k;
                k++;
            }
        }
        int nc = byoc_node_consumer_count(g, v);
        bool outside = nc == 0;
        for (int j = 0; j < nc && !outside; j++)
            outside = !in_sorted(sorted, n, byoc_node_consumer(g, v, j));
        if (outside)
            out[(*nout)++] = v;
    }
    /* keep each node's first use, then back in order of use */
    qsort(u, k, sizeof *u, cmp_use_at);
    size_t d = 0;
    int prev = -1;  /* u[i - 1] may be overwritten by then: d <= i */
    for (size_t i = 0; i < k; i++) {
        int node = u[i].node, at = u[i].at;
        if (i == 0 || node != prev) {
            u[d].node = at;
            u[d].at = node;
            d++;
        }
        prev = node;
    }
    qsort(u, d, sizeof *u, cmp_use_at);     /* by position now */
    for (size_t i = 0; i < d; i++)
        in[i] = u[i].at;
    *nin = (int)d;
    free(u);
}

int bx_partition_rules_hold(const byoc_graph *g, const byoc_registry *reg,
                            const byoc_target_decl *t, const int *nodes, int n,
                            int *rule, int *clause)
{
    if (rule)
        *rule = -1;
    if (clause)
        *clause = -1;
    int nr = byoc_target_partition_rule_count(reg, t);
    if (nr == 0)
        return 1;
    /* A sorted copy for membership tests. */
    int *sorted = xcalloc((size_t)n, sizeof *sorted);
    memcpy(sorted, nodes, (size_t)n * sizeof *sorted);
    sort_ints(sorted, (size_t)n);
    size_t maxin = 0;
    for (int i = 0; i < n; i++)
        maxin += (size_t)byoc_node_arg_count(g, nodes[i]);
    int *in = xcalloc(maxin, sizeof *in), *out = xcalloc((size_t)n, sizeof *out);
    int nin, nout;
    part_io(g, nodes, sorted, n, in, &nin, out, &nout);
    int held = rules_eval(g, reg, t, nodes, n, in, nin, out, nout, rule, clause);
    free(sorted);
    free(in);
    free(out);
    return held;
}

/* ---- sets of node sets ---------------------------------------------------- */

/* A node set with what combining needs to know about it. */
typedef struct wcand {
    int *nodes;             /* ascending, in the generation's arena */
    int n, ncalls, depth, kind;
    uint64_t hash;
    bool base;              /* a rule or pattern match, not a combination */
    const byoc_pattern_decl *pattern;
    /* Under `fusion any`, the named-pattern matches inside (a composite
     * grows like any kernel, as TVM's MergeCompilerRegions merges a
     * composite with its neighbours); compkey tells such a set from the
     * same nodes without them. */
    const bx_comp *comps;
    int ncomps;
    uint64_t compkey;
} wcand;

/* Open addressing over indices into a wcand array, keyed by node set.  A
 * slot holds the index and the high half of the set's hash, so a probe
 * rarely touches a set that is not the one sought (the sets are many and
 * a miss in the slot array is the cost of a lookup). */
typedef struct settab {
    uint64_t *slots;        /* 0: empty, else tag << 32 | (1 + index) */
    size_t cap;
} settab;

static void settab_free(settab *t) { free(t->slots); }

static uint64_t slot_tag(uint64_t h) { return h & 0xffffffff00000000ull; }
static size_t slot_index(uint64_t slot) { return (size_t)(slot & 0xffffffffu) - 1; }

static bool same_nodes(const wcand *c, const int *v, int n)
{
    return c->n == n && memcmp(c->nodes, v, sizeof *v * (size_t)n) == 0;
}

/* The index of the set equal to v, or -1; *slot is where to insert it. */
static long settab_find(const settab *t, const wcand *all, const int *v, int n, uint64_t h,
                        uint64_t compkey, size_t *slot)
{
    size_t mask = t->cap - 1, i = (size_t)h & mask;
    for (; t->slots[i]; i = (i + 1) & mask) {
        if (slot_tag(t->slots[i]) != slot_tag(h))
            continue;
        const wcand *c = &all[slot_index(t->slots[i])];
        if (c->hash == h && c->compkey == compkey && same_nodes(c, v, n))
            return (long)slot_index(t->slots[i]);
    }
    *slot = i;
    return -1;
}

static void settab_put(settab *t, size_t slot, uint64_t h, size_t index)
{
    t->slots[slot] = slot_tag(h) | (uint64_t)(index + 1);
}

/* Room for one more of count sets, whose hashes are all[k].hash or,
 * without all, hashes[k]. */
static void settab_grow_by(settab *t, const wcand *all, const uint64_t *hashes, size_t count)
{
    if (t->cap && count * 2 < t->cap)
        return;
    size_t cap = t->cap ? t->cap * 2 : 64;
    while (count * 2 >= cap)
        cap *= 2;
    free(t->slots);
    t->slots = xcalloc(cap, sizeof *t->slots);
    t->cap = cap;
    for (size_t k = 0; k < count; k++) {
        uint64_t h = all ? all[k].hash : hashes[k];
        size_t i = (size_t)h & (cap - 1);
        while (t->slots[i])
            i = (i + 1) & (cap - 1);
        settab_put(t, i, h, k);
    }
}

static void settab_grow(settab *t, const wcand *all, size_t count)
{
    settab_grow_by(t, all, NULL, count);
}

/* ---- the generation for one target ---------------------------------------- */

/* Why a call has no candidate yet, for the coverage error. */
typedef struct why {
    const byoc_pattern_decl *pattern;   /* a rule or pattern whose predicate failed */
    int clause;
    int target;                         /* a partition rule failed: its target */
    int rule, rclause;
} why;

typedef struct gen {
    const byoc_graph *g;
    const byoc_registry *reg;
    const byoc_target_decl *t;
    int ti;
    bx_cand_set *out;
    scratch *s;
    why *why;
    bool *covered;
    /* the target's settings */
    byoc_fusion fusion;
    bool tvm;               /* TVM's rules and validity */
    int max_depth, max_nodes, max_exits, bound, cap_per_node;
    double efficiency;
    const byoc_value *options;
    /* the work pool */
    bx_arena arena;
    wcand *c;
    size_t n, cap;
    settab tab;
    int **by_node;          /* per node: indices of pool sets containing it */
    int *by_node_n, *by_node_cap;
    int *combined_count;    /* per node: combined sets containing it */
    settab emitted;         /* what this target emitted, by node set: */
    uint64_t *em_hash, *em_key;     /* its hashes and composite keys; the */
    size_t nem, emcap, em_base;     /* nodes are candidate em_base + k's */
    int *buf, *buf2;        /* two node-sized buffers */
    uint32_t *stamp;        /* per pool set: the epoch that last listed it */
    size_t stamp_cap;
    uint32_t epoch;
    int *ncalls_of, *depth_of;      /* per pool set, dense: what the rounds */
    unsigned char *kind_of;         /* filter on (wcand is large) */
    bool reference;         /* the straightforward region growth (tests) */
    int nrules;             /* the target's partition rules */
    int *io_in, *io_out;    /* a kernel's inputs and outputs, for them */
    unsigned *iomark, iostamp;
    int *ebuf;              /* emit's kernel after strip_glue */
    const byoc_pattern_decl *cut;   /* a pattern whose matching passed */
    int cut_root;                   /* BX_MATCH_MAX_STEPS, at this root */
} gen;

static void record_fail(gen *G, const int *v, int n, const byoc_pattern_decl *p, int clause)
{
    for (int i = 0; i < n; i++)
        if (!G->why[v[i]].pattern && G->why[v[i]].target < 0) {
            G->why[v[i]].pattern = p;
            G->why[v[i]].clause = clause;
        }
}

static void record_rule_fail(gen *G, const int *v, int n, int rule, int clause)
{
    for (int i = 0; i < n; i++)
        if (!G->why[v[i]].pattern && G->why[v[i]].target < 0) {
            G->why[v[i]].target = G->ti;
            G->why[v[i]].rule = rule;
            G->why[v[i]].rclause = clause;
        }
}

/* Whether the set (marked in scratch) may be a kernel on its own: exits,
 * taps and partition rules, with the reason counted. */
/* bx_partition_rules_hold for the marked set v[0..n), with the inputs and
 * outputs found through the marks into the generation's buffers: no
 * allocation, no sorting, per candidate. */
static bool rules_hold_marked(gen *G, const int *v, int n, int *rule, int *clause)
{
    const scratch *s = G->s;
    if (++G->iostamp == 0) {
        memset(G->iomark, 0, sizeof *G->iomark * (size_t)s->nnodes);
        G->iostamp = 1;
    }
    int nin = 0, nout = 0;
    for (int i = 0; i < n; i++) {
        int x = v[i];
        for (int k = 0; k < sc_nargs(s, x); k++) {
            int a = sc_arg(s, x, k);
            if (!marked(s, a) && G->iomark[a] != G->iostamp) {
                G->iomark[a] = G->iostamp;
                G->io_in[nin++] = a;
            }
        }
        bool outside = sc_nuses(s, x) == 0;
        for (int k = 0; k < sc_nuses(s, x) && !outside; k++)
            outside = !marked(s, sc_use(s, x, k));
        if (outside)
            G->io_out[nout++] = x;
    }
    *rule = *clause = -1;
    return rules_eval(G->g, G->reg, G->t, v, n, G->io_in, nin, G->io_out, nout, rule, clause);
}

static bool emittable(gen *G, const int *v, int n, bool count)
{
    bx_cand_stats *st = &G->out->stats;
    int taps, exits = marked_exits(G->s, v, n, &taps);
    if ((G->max_exits > 0 && exits > G->max_exits) || (G->tvm && taps > 0)) {
        st->rejected_exits += count;
        return false;
    }
    int rule, clause;
    if (G->nrules && !rules_hold_marked(G, v, n, &rule, &clause)) {
        st->rejected_partition_rule += count;
        record_rule_fail(G, v, n, rule, clause);
        return false;
    }
    return true;
}

/* Within convexity, max_depth and max_nodes (the properties a set must
 * have to be grown from).  Marks v as a side effect. */
static bool growable(gen *G, const int *v, int n, int *depth, int *ncalls, bool count)
{
    bx_cand_stats *st = &G->out->stats;
    mark_set(G->s, v, n);
    *ncalls = count_calls(G->s, v, n);
    if (G->max_nodes > 0 && *ncalls > G->max_nodes) {
        st->rejected_nodes += count;
        return false;
    }
    /* depth is read by TVM's rounds and by a max_depth bound only */
    *depth = G->tvm || G->max_depth > 0 ? marked_depth(G->s, v, n) : 0;
    if (G->max_depth > 0 && *depth > G->max_depth) {
        st->rejected_depth += count;
        return false;
    }
    if (!marked_convex(G->s, v, n)) {
        st->rejected_nonconvex += count;
        return false;
    }
    return true;
}

/* Emit one candidate of this target unless it repeats one already emitted. */
static void emit_set(gen *G, const int *v, int n, const byoc_pattern_decl *named,
                     const bx_comp *comps, int ncomps, uint64_t compkey)
{
    /* The same nodes as another named pattern's composite, or as a plain
     * kernel, or with other composites inside, are a different candidate:
     * their costs may differ (pattern efficiency, a measured table keyed by
     * composite name). */
    uint64_t h = hash_nodes(v, n) ^ ((uint64_t)(uintptr_t)named * 0x9e3779b97f4a7c15ull)
                 ^ compkey;
    bx_cand_set *S = G->out;
    settab_grow_by(&G->emitted, NULL, G->em_hash, G->nem);
    size_t mask = G->emitted.cap - 1, slot = (size_t)h & mask;
    for (; G->emitted.slots[slot]; slot = (slot + 1) & mask) {
        if (slot_tag(G->emitted.slots[slot]) != slot_tag(h))
            continue;
        size_t k = slot_index(G->emitted.slots[slot]);
        const bx_cand *c = cand_at(S, G->em_base + k);
        if (G->em_hash[k] == h && c->pattern == named && G->em_key[k] == compkey
            && c->nnodes == n && memcmp(c->nodes, v, sizeof *v * (size_t)n) == 0) {
            S->stats.duplicates++;
            return;
        }
    }
    if (G->nem == G->emcap) {
        G->emcap = G->emcap ? G->emcap * 2 : 64;
        G->em_hash = xrealloc(G->em_hash, sizeof *G->em_hash * G->emcap);
        G->em_key = xrealloc(G->em_key, sizeof *G->em_key * G->emcap);
    }
    bx_arena *A = &S->arena;
    int *nodes = bx_arena_memdup(A, v, sizeof *v * (size_t)n);
    G->em_hash[G->nem] = h;
    G->em_key[G->nem] = compkey;
    settab_put(&G->emitted, slot, h, G->nem++);
    bx_cand *c = cand_new(S);
    memset(c, 0, sizeof *c);
    c->target = G->ti;
    c->nnodes = n;
    c->nodes = nodes;
    c->efficiency = G->efficiency;
    if (named) {
        bx_comp *comp = BX_NEW(A, bx_comp);
        comp->pattern = named;
        comp->nnodes = n;
        comp->nodes = nodes;
        c->ncomps = 1;
        c->comps = comp;
        c->pattern = named;
        if (named->efficiency > 0)
            c->efficiency = named->efficiency;
    } else if (ncomps) {
        c->ncomps = ncomps;
        c->comps = comps;
    }
    for (int i = 0; i < n; i++)
        G->covered[v[i]] = true;
}

/* Add v (ascending, already checked growable, so marked) to the pool;
 * returns its index, or -1 when it is there already or over the cap. */
static long pool_add(gen *G, const int *v, int n, int depth, int ncalls, bool base,
                     const byoc_pattern_decl *p, const bx_comp *comps, int ncomps,
                     uint64_t compkey)
{
    uint64_t h = hash_nodes(v, n) ^ compkey;
    size_t slot = 0;
    settab_grow(&G->tab, G->c, G->n);
    if (settab_find(&G->tab, G->c, v, n, h, compkey, &slot) >= 0) {
        G->out->stats.duplicates++;
        return -1;
    }
    if (!base)
        for (int i = 0; i < n; i++)
            if (sc_call(G->s, v[i]) && G->combined_count[v[i]] >= G->cap_per_node)
                return -1;
    if (G->n == G->cap) {
        G->cap = G->cap ? G->cap * 2 : 256;
        G->c = xrealloc(G->c, sizeof *G->c * G->cap);
        G->ncalls_of = xrealloc(G->ncalls_of, sizeof *G->ncalls_of * G->cap);
        G->depth_of = xrealloc(G->depth_of, sizeof *G->depth_of * G->cap);
        G->kind_of = xrealloc(G->kind_of, G->cap);
    }
    int kind = BYOC_OPK_ELEMWISE;
    for (int i = 0; i < n; i++) {
        int k = sc_kind(G->s, v[i]);
        kind = k > kind ? k : kind;
    }
    wcand *c = &G->c[G->n];
    *c = (wcand){.nodes = bx_arena_memdup(&G->arena, v, sizeof *v * (size_t)n),
                 .n = n, .ncalls = ncalls, .depth = depth, .kind = kind, .hash = h,
                 .base = base, .pattern = p, .comps = comps, .ncomps = ncomps,
                 .compkey = compkey};
    settab_put(&G->tab, slot, h, G->n);
    G->ncalls_of[G->n] = ncalls;
    G->depth_of[G->n] = depth;
    G->kind_of[G->n] = (unsigned char)kind;
    for (int i = 0; i < n; i++) {
        int x = v[i];
        if (G->by_node_n[x] == G->by_node_cap[x]) {
            G->by_node_cap[x] = G->by_node_cap[x] ? G->by_node_cap[x] * 2 : 4;
            G->by_node[x] = xrealloc(G->by_node[x], sizeof(int) * (size_t)G->by_node_cap[x]);
        }
        G->by_node[x][G->by_node_n[x]++] = (int)G->n;
        if (!base)
            G->combined_count[x]++;
    }
    return (long)G->n++;
}

/* Tuples and projections are free and may be shared, so a kernel holds
 * one only when no other kernel could hold it too: a projection goes with
 * the call whose tuple it reads (through nested projections), as TVM's
 * AnnotateTarget keeps it; a tuple goes with its readers when all of them
 * are calls inside the kernel.  Calls are never in two chosen kernels, so
 * neither is glue.  Glue that fails this stays outside, free; stripping
 * must leave the kernel convex.  Writes the kept nodes to out (marked). */
static int strip_glue(gen *G, const int *v, int n, int *out)
{
    mark_set(G->s, v, n);
    int k = 0;
    for (int i = 0; i < n; i++) {
        int x = v[i];
        bool keep = sc_call(G->s, x);
        if (!keep && byoc_node_kind_of(G->g, x) == BYOC_N_PROJ) {
            int a = x;
            while (byoc_node_kind_of(G->g, a) == BYOC_N_PROJ)
                a = byoc_node_arg(G->g, a, 0);
            keep = sc_call(G->s, a) && marked(G->s, a);
        } else if (!keep) {
            int nu = sc_nuses(G->s, x);
            keep = nu > 0 && x != G->s->output;
            for (int u = 0; u < nu && keep; u++) {
                int c = sc_use(G->s, x, u);
                keep = sc_call(G->s, c) && marked(G->s, c);
            }
        }
        if (keep)
            out[k++] = x;
    }
    mark_set(G->s, out, k);
    return k;
}

/* A composite is a function with one result, its pattern's root: no other
 * member may be read from outside (TVM's pattern partitioner refuses such
 * matches too).  Needs v marked. */
static bool single_result(gen *G, const int *v, int n, int root)
{
    for (int i = 0; i < n; i++) {
        if (v[i] == root)
            continue;
        if (v[i] == G->s->output)
            return false;
        for (int u = 0; u < sc_nuses(G->s, v[i]); u++)
            if (!marked(G->s, sc_use(G->s, v[i], u)))
                return false;
    }
    return true;
}

/* Emit a kernel of this target: strip the glue it cannot keep, check what
 * only a whole kernel must satisfy, and add it unless it repeats one.
 * root: the match's root for a named pattern, else -1. */
static void emit(gen *G, const int *v, int n, const byoc_pattern_decl *named, int root,
                 const bx_comp *comps, int ncomps, uint64_t compkey)
{
    int *w = G->ebuf;
    int m = strip_glue(G, v, n, w);
    bx_cand_stats *st = &G->out->stats;
    if (m != n && !marked_convex(G->s, w, m))
        st->rejected_nonconvex++;
    else if (named && !single_result(G, w, m, root))
        st->rejected_exits++;
    else if (emittable(G, w, m, true))
        emit_set(G, w, m, named, comps, ncomps, compkey);
}

/* Under `fusion any`, a named pattern's match also joins the pool as a
 * base kernel carrying its composite, so it grows with its neighbours into
 * larger kernels (TVM: MergeComposite, then MergeCompilerRegions). */
static void pool_composite(gen *G, const int *v, int n, const byoc_pattern_decl *p, int root)
{
    int *w = xcalloc((size_t)n, sizeof *w);
    int m = strip_glue(G, v, n, w);
    int depth, ncalls;
    if ((m == n || marked_convex(G->s, w, m)) && single_result(G, w, m, root)
        && growable(G, w, m, &depth, &ncalls, false)) {
        bx_comp *comp = BX_NEW(&G->out->arena, bx_comp);
        comp->pattern = p;
        comp->nnodes = m;
        comp->nodes = bx_arena_memdup(&G->out->arena, w, sizeof *w * (size_t)m);
        uint64_t key = (hash_nodes(w, m) ^ ((uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull)) | 1;
        pool_add(G, w, m, depth, ncalls, true, p, comp, 1, key);
    }
    free(w);
}

/* ---- matching ------------------------------------------------------------- */

/* Graph nodes by op name, so a pattern is tried only where its root can
 * match: calls of its root's ops, or tuples, or projections. */
typedef struct node_list {
    int n, cap;
    int *v;
} node_list;

typedef struct op_index {
    bx_hash by_op;          /* op name -> node_list */
    node_list tuples, projs;
    node_list *lists;
    int nlists;
} op_index;

static void list_push(node_list *l, int x)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 8;
        l->v = xrealloc(l->v, sizeof *l->v * (size_t)l->cap);
    }
    l->v[l->n++] = x;
}

static void index_build(op_index *ix, const byoc_graph *g)
{
    memset(ix, 0, sizeof *ix);
    bx_hash_init(&ix->by_op);
    int n = byoc_graph_node_count(g);
    ix->lists = xcalloc((size_t)n, sizeof *ix->lists);
    for (int i = 0; i < n; i++) {
        byoc_node_kind k = byoc_node_kind_of(g, i);
        if (k == BYOC_N_TUPLE)
            list_push(&ix->tuples, i);
        else if (k == BYOC_N_PROJ)
            list_push(&ix->projs, i);
        else if (k == BYOC_N_CALL) {
            const char *op = byoc_node_op_name(g, i);
            node_list *l = bx_hash_get(&ix->by_op, op);
            if (!l) {
                l = &ix->lists[ix->nlists++];
                bx_hash_put(&ix->by_op, op, l);
            }
            list_push(l, i);
        }
    }
}

static void index_free(op_index *ix)
{
    for (int i = 0; i < ix->nlists; i++)
        free(ix->lists[i].v);
    free(ix->lists);
    free(ix->tuples.v);
    free(ix->projs.v);
    bx_hash_free(&ix->by_op);
}

/* The graph nodes a pattern's root pnode could match, appended to out
 * (duplicates are harmless: roots are sorted and deduplicated after). */
static void root_nodes(const op_index *ix, const byoc_pattern_decl *p, int pn, node_list *out,
                       int depth)
{
    const byoc_pnode *q = &p->nodes[pn];
    if (depth > 32)
        return;
    switch ((byoc_pkind)q->kind) {
    case BYOC_PAT_CALL:
        for (int i = 0; i < q->nops; i++) {
            const node_list *l = bx_hash_get(&ix->by_op, q->ops[i]);
            for (int k = 0; l && k < l->n; k++)
                list_push(out, l->v[k]);
        }
        break;
    case BYOC_PAT_ALT:
        for (int i = 0; i < q->nkids; i++)
            root_nodes(ix, p, q->kids[i], out, depth + 1);
        break;
    case BYOC_PAT_TUPLE:
    case BYOC_PAT_TUPLE_ANY:
        for (int k = 0; k < ix->tuples.n; k++)
            list_push(out, ix->tuples.v[k]);
        break;
    case BYOC_PAT_PROJ:
        for (int k = 0; k < ix->projs.n; k++)
            list_push(out, ix->projs.v[k]);
        break;
    case BYOC_PAT_WILD:
    case BYOC_PAT_CONST:
        break; /* a kernel with no members: never a candidate */
    }
}

typedef struct match_ctx {
    gen *G;
    const byoc_pattern_decl *p;
    bool named;
} match_ctx;

static int on_match(const bx_match *m, void *vctx)
{
    match_ctx *mc = vctx;
    gen *G = mc->G;
    G->out->stats.matches++;
    int clause;
    if (!bx_match_holds(G->g, mc->p, m, G->options, G->t->noptions, &clause)) {
        G->out->stats.failed_predicate++;
        record_fail(G, m->members, m->nmembers, mc->p, clause);
        return 0;
    }
    if (count_calls(G->s, m->members, m->nmembers) == 0)
        return 0;
    int depth, ncalls;
    if (mc->named) {
        if (growable(G, m->members, m->nmembers, &depth, &ncalls, true)) {
            emit(G, m->members, m->nmembers, mc->p, m->root, NULL, 0, 0);
            if (G->fusion == BYOC_FUSION_ANY)
                pool_composite(G, m->members, m->nmembers, mc->p, m->root);
        }
        return 0;
    }
    /* A rule match is a base kernel whatever its bounds: a rule that names
     * a three-op chain is one kernel even under max_depth 1. */
    mark_set(G->s, m->members, m->nmembers);
    depth = marked_depth(G->s, m->members, m->nmembers);
    ncalls = count_calls(G->s, m->members, m->nmembers);
    if (!marked_convex(G->s, m->members, m->nmembers)) {
        G->out->stats.rejected_nonconvex++;
        return 0;
    }
    pool_add(G, m->members, m->nmembers, depth, ncalls, true, mc->p, NULL, 0, 0);
    return 0;
}

static void match_pattern(gen *G, const op_index *ix, const byoc_pattern_decl *p, bool named)
{
    node_list roots = {0, 0, NULL};
    root_nodes(ix, p, p->root, &roots, 0);
    if (roots.n > 1)
        sort_ints(roots.v, (size_t)roots.n);
    match_ctx mc = {G, p, named};
    for (int i = 0; i < roots.n && !G->cut; i++)
        if ((i == 0 || roots.v[i] != roots.v[i - 1])
            && bx_match_at(G->g, p, roots.v[i], on_match, &mc) < 0) {
            G->cut = p;
            G->cut_root = roots.v[i];
        }
    free(roots.v);
}

/* `supports *`: every call is a base kernel on its own. */
static void add_singletons(gen *G)
{
    int n = byoc_graph_node_count(G->g);
    for (int i = 0; i < n; i++)
        if (sc_call(G->s, i)) {
            mark_set(G->s, &i, 1);
            pool_add(G, &i, 1, 1, 1, true, NULL, NULL, 0, 0);
        }
}

/* ---- combining ------------------------------------------------------------ */

/* Merge sorted a and b (disjoint or not) into G->buf; returns the count. */
static int merge_nodes(gen *G, const int *a, int na, const int *b, int nb)
{
    int i = 0, j = 0, k = 0;
    while (i < na || j < nb) {
        int x = j >= nb || (i < na && a[i] <= b[j]) ? a[i++] : b[j++];
        if (k > 0 && G->buf[k - 1] == x)
            continue;
        G->buf[k++] = x;
    }
    return k;
}

/* Tuples and projections outside the set in buf[0..n) that one member
 * feeds and that feed a member (up to two in a row) join it, so that a
 * union across them is convex.  Returns the new count. */
static int add_glue(gen *G, int n)
{
    mark_set(G->s, G->buf, n);
    int added = 0;
    for (int i = 0; i < n; i++) {
        int x = G->buf[i];
        for (int k = 0; k < sc_nuses(G->s, x); k++) {
            int c = sc_use(G->s, x, k);
            if (marked(G->s, c) || !sc_glue(G->s, c))
                continue;
            for (int j = 0; j < sc_nuses(G->s, c); j++) {
                int d = sc_use(G->s, c, j);
                bool via = false;
                if (!marked(G->s, d) && sc_glue(G->s, d))
                    for (int l = 0; l < sc_nuses(G->s, d) && !via; l++)
                        via = marked(G->s, sc_use(G->s, d, l));
                if (via) {
                    G->buf2[added++] = d;
                    G->s->in[d] = G->s->stamp;
                }
                if (via || marked(G->s, d)) {
                    G->buf2[added++] = c;
                    G->s->in[c] = G->s->stamp;
                    break;
                }
            }
        }
    }
    if (added == 0)
        return n;
    sort_ints(G->buf2, (size_t)added);
    int *tmp = xcalloc((size_t)(n + added), sizeof *tmp);
    memcpy(tmp, G->buf, sizeof *tmp * (size_t)n);
    int k = merge_nodes(G, tmp, n, G->buf2, added);
    free(tmp);
    return k;
}

/* Try the union of pool sets i and j (plus glue under `fusion any`); adds
 * it when it can be grown from.  Returns whether it was new. */
static bool try_union(gen *G, size_t i, size_t j)
{
    const wcand *a = &G->c[i], *b = &G->c[j];
    /* both are sets, so they are disjoint when merging keeps every node */
    int n = merge_nodes(G, a->nodes, a->n, b->nodes, b->n);
    if (n != a->n + b->n)
        return false;
    if (!G->tvm)
        n = add_glue(G, n);
    int depth, ncalls;
    /* Most unions were found before (a set grows into the same union from
     * many sides): look first, check after.  pool_add would count a
     * duplicate once growable passed, and growable passes for every
     * combined set in the pool (it was checked on the way in), so only a
     * base set with these nodes needs the check. */
    uint64_t compkey = a->compkey ^ b->compkey;
    size_t slot;
    long dup = G->tab.cap ? settab_find(&G->tab, G->c, G->buf, n, hash_nodes(G->buf, n) ^ compkey,
                                        compkey, &slot)
                          : -1;
    if (dup >= 0) {
        if (!G->c[dup].base || growable(G, G->buf, n, &depth, &ncalls, false))
            G->out->stats.duplicates++;
        return false;
    }
    if (!growable(G, G->buf, n, &depth, &ncalls, false))
        return false;
    /* a and b are disjoint, so their composites are too */
    int nc = a->ncomps + b->ncomps;
    bx_comp *comps = NULL;
    if (nc) {
        comps = BX_NEWN(&G->out->arena, bx_comp, nc);
        if (a->ncomps)
            memcpy(comps, a->comps, sizeof *comps * (size_t)a->ncomps);
        if (b->ncomps)
            memcpy(comps + a->ncomps, b->comps, sizeof *comps * (size_t)b->ncomps);
        for (int m = 1; m < nc; m++) /* by first node: one order per set */
            for (int k = m; k > 0 && comps[k - 1].nodes[0] > comps[k].nodes[0]; k--) {
                bx_comp t = comps[k];
                comps[k] = comps[k - 1];
                comps[k - 1] = t;
            }
    }
    return pool_add(G, G->buf, n, depth, ncalls, false, NULL, comps, nc, compkey) >= 0;
}

/* The pool sets containing a node some member of set i feeds directly
 * (TVM: the downstream candidates whose entry is one of i's outputs), into
 * out without repeats, in increasing order. */
/* TVM's ByKindSimpleCombinerRules: does (upstream, downstream) fire? */
static bool tvm_rule_fires(int up, int down)
{
    return (up <= BYOC_OPK_OUT_ELEMWISE_FUSABLE && down <= BYOC_OPK_BROADCAST)
           || (up <= BYOC_OPK_BROADCAST && down <= BYOC_OPK_REDUCE)
           || (up <= BYOC_OPK_INJECTIVE && down <= BYOC_OPK_INJECTIVE);
}

enum { PAIR_TVM, PAIR_ANY };

/* Whether the round of kind mode would try set i with set j (made before
 * `end`), read from the pool's dense per-set arrays: the filters of
 * tvm_simple_round and any_round, applied before the sort. */
static bool pair_wanted(const gen *G, size_t i, size_t j, int mode, size_t first_new, size_t end)
{
    if (j >= end)
        return false; /* made in this round: the next round sees it */
    if (mode == PAIR_TVM)
        return !(G->bound > 0 && G->depth_of[i] + G->depth_of[j] > G->bound)
               && tvm_rule_fires(G->kind_of[i], G->kind_of[j]);
    if (j >= first_new && j < i)
        return false; /* this pair was tried from j */
    /* larger kernels come from the maximal regions */
    return G->ncalls_of[i] + G->ncalls_of[j] <= G->bound;
}

static void downstream_sets(gen *G, size_t i, node_list *out, bool glue, bool upstream_too,
                            int mode, size_t first_new, size_t end)
{
    const wcand *a = &G->c[i];
    out->n = 0;
    /* Each set once: a stamp per pool set instead of sorting duplicates
     * away (a set meets the kernel at many of its nodes). */
    if (G->stamp_cap < G->n) {
        size_t cap = G->n * 2;
        G->stamp = xrealloc(G->stamp, cap * sizeof *G->stamp);
        memset(G->stamp + G->stamp_cap, 0, (cap - G->stamp_cap) * sizeof *G->stamp);
        G->stamp_cap = cap;
    }
    if (++G->epoch == 0) {
        memset(G->stamp, 0, G->stamp_cap * sizeof *G->stamp);
        G->epoch = 1;
    }
    mark_set(G->s, a->nodes, a->n);
    for (int m = 0; m < a->n; m++) {
        int x = a->nodes[m];
        int nc = sc_nuses(G->s, x);
        int na = upstream_too ? sc_nargs(G->s, x) : 0;
        for (int k = 0; k < nc + na; k++) {
            int c = k < nc ? sc_use(G->s, x, k) : sc_arg(G->s, x, k - nc);
            if (c < 0 || marked(G->s, c))
                continue;
            int hops[3] = {c, -1, -1}, nh = 1;
            if (glue && sc_glue(G->s, c)) {
                /* through a tuple or projection, one step further */
                int more = k < nc ? sc_nuses(G->s, c) : sc_nargs(G->s, c);
                for (int l = 0; l < more && nh < 3; l++)
                    hops[nh++] = k < nc ? sc_use(G->s, c, l) : sc_arg(G->s, c, l);
            }
            for (int h = 0; h < nh; h++) {
                int y = hops[h];
                if (y < 0)
                    continue;
                /* a node's sets are listed in the order they were made */
                for (int l = 0; l < G->by_node_n[y] && (size_t)G->by_node[y][l] < end; l++) {
                    int j = G->by_node[y][l];
                    if ((size_t)j != i && G->stamp[j] != G->epoch) {
                        G->stamp[j] = G->epoch;
                        if (pair_wanted(G, i, (size_t)j, mode, first_new, end))
                            list_push(out, j);
                    }
                }
            }
        }
    }
    if (out->n > 1)
        sort_ints(out->v, (size_t)out->n);
}

/* AllSimpleCombinerRule: new upstream sets with any downstream set. */
static bool tvm_simple_round(gen *G, size_t first_new, size_t end, node_list *nb)
{
    bool added = false;
    for (size_t i = first_new; i < end; i++) {
        downstream_sets(G, i, nb, false, false, PAIR_TVM, first_new, end);
        for (int k = 0; k < nb->n; k++)
            added |= try_union(G, i, (size_t)nb->v[k]);
    }
    return added;
}

/* Is node x an exit of pool set j (read outside it)? */
static bool is_exit_of(gen *G, size_t j, int x)
{
    const wcand *c = &G->c[j];
    for (int k = 0; k < sc_nuses(G->s, x); k++) {
        int u = sc_use(G->s, x, k);
        if (!bsearch(&u, c->nodes, (size_t)c->n, sizeof u, cmp_int))
            return true;
    }
    return x == G->s->output;
}

/* Union of the sets in pick[0..n) and the tuple node t; adds it if it can
 * be grown from. */
static bool add_tuple_union(gen *G, const size_t *pick, int n, int t)
{
    int *acc = xcalloc((size_t)G->s->nnodes + 1, sizeof *acc);
    int na = 1;
    acc[0] = t;
    bool ok = true;
    for (int p = 0; p < n && ok; p++) {
        const wcand *c = &G->c[pick[p]];
        mark_set(G->s, acc, na);
        for (int k = 0; k < c->n && ok; k++)
            ok = !marked(G->s, c->nodes[k]);
        if (!ok)
            break;
        sort_ints(acc, (size_t)na);
        na = merge_nodes(G, acc, na, c->nodes, c->n);
        memcpy(acc, G->buf, sizeof *acc * (size_t)na);
    }
    bool added = false;
    int depth, ncalls;
    if (ok) {
        sort_ints(acc, (size_t)na);
        if (growable(G, acc, na, &depth, &ncalls, false))
            added = pool_add(G, acc, na, depth, ncalls, false, NULL, NULL, 0, 0) >= 0;
    }
    free(acc);
    return added;
}

/* The unions of set i, tuple t and one producer per field of t. */
static bool tuple_unions(gen *G, size_t i, int t, size_t end)
{
    int nf = sc_nargs(G->s, t);
    if (nf <= 0)
        return false;
    node_list *prod = xcalloc((size_t)nf, sizeof *prod);
    bool all = true;
    for (int f = 0; f < nf && all; f++) {
        int x = sc_arg(G->s, t, f);
        for (int l = 0; x >= 0 && l < G->by_node_n[x]; l++) {
            size_t j = (size_t)G->by_node[x][l];
            if (j != i && j < end && G->c[j].kind <= BYOC_OPK_INJECTIVE && is_exit_of(G, j, x))
                list_push(&prod[f], (int)j);
        }
        all = prod[f].n > 0;
    }
    bool added = false;
    if (all) {
        /* an odometer over the fields' producers */
        int *at = xcalloc((size_t)nf, sizeof *at);
        size_t *pick = xcalloc((size_t)nf + 1, sizeof *pick);
        for (int made = 0; made < BX_CAND_TUPLE_UNIONS; made++) {
            pick[0] = i;
            for (int f = 0; f < nf; f++)
                pick[f + 1] = (size_t)prod[f].v[at[f]];
            added |= add_tuple_union(G, pick, nf + 1, t);
            int f = 0;
            while (f < nf && ++at[f] == prod[f].n)
                at[f++] = 0;
            if (f == nf)
                break;
        }
        free(at);
        free(pick);
    }
    for (int f = 0; f < nf; f++)
        free(prod[f].v);
    free(prod);
    return added;
}

/* TupleArgCombinerRule: a new injective consumer of a tuple takes the tuple
 * and one injective producer of each field (every combination, up to
 * BX_CAND_TUPLE_UNIONS of them). */
static bool tvm_tuple_round(gen *G, size_t first_new, size_t end)
{
    bool added = false;
    for (size_t i = first_new; i < end; i++) {
        if (G->c[i].kind > BYOC_OPK_INJECTIVE)
            continue;
        for (int m = 0; m < G->c[i].n; m++) {
            int x = G->c[i].nodes[m];
            for (int a = 0; a < sc_nargs(G->s, x); a++) {
                int t = sc_arg(G->s, x, a);
                if (t < 0 || byoc_node_kind_of(G->g, t) != BYOC_N_TUPLE
                    || bsearch(&t, G->c[i].nodes, (size_t)G->c[i].n, sizeof t, cmp_int))
                    continue;
                added |= tuple_unions(G, i, t, end);
            }
        }
    }
    return added;
}

/* TupleProjCombinerRule: a new set takes a projection that reads it. */
static bool tvm_proj_round(gen *G, size_t first_new, size_t end)
{
    bool added = false;
    for (size_t i = first_new; i < end; i++) {
        for (int m = 0; m < G->c[i].n; m++) {
            int x = G->c[i].nodes[m];
            for (int k = 0; k < sc_nuses(G->s, x); k++) {
                int p = sc_use(G->s, x, k);
                const wcand *c = &G->c[i];
                if (byoc_node_kind_of(G->g, p) != BYOC_N_PROJ
                    || bsearch(&p, c->nodes, (size_t)c->n, sizeof p, cmp_int))
                    continue;
                int n = merge_nodes(G, c->nodes, c->n, &p, 1);
                int depth, ncalls;
                if (growable(G, G->buf, n, &depth, &ncalls, false))
                    added |= pool_add(G, G->buf, n, depth, ncalls, false, NULL, NULL, 0, 0)
                             >= 0;
            }
        }
    }
    return added;
}

/* `fusion any`: a new set with every set touching it, either way. */
static bool any_round(gen *G, size_t first_new, size_t end, node_list *nb)
{
    bool added = false;
    for (size_t i = first_new; i < end; i++) {
        downstream_sets(G, i, nb, true, true, PAIR_ANY, first_new, end);
        for (int k = 0; k < nb->n; k++)
            added |= try_union(G, i, (size_t)nb->v[k]);
    }
    return added;
}

static void combine_rounds(gen *G)
{
    node_list nb = {0, 0, NULL};
    size_t first_new = 0;
    for (int round = 0; round < BX_CAND_ROUNDS && first_new < G->n; round++) {
        size_t end = G->n;
        if (G->tvm) {
            tvm_simple_round(G, first_new, end, &nb);
            tvm_tuple_round(G, first_new, end);
            tvm_proj_round(G, first_new, end);
        } else {
            any_round(G, first_new, end, &nb);
        }
        first_new = end;
    }
    free(nb.v);
}

/* ---- maximal regions (`fusion any`) --------------------------------------- */

/* The base sets joined greedily in the order of their last node: a set
 * joins the first region it reads from (a member's argument, or the first
 * argument of a tuple or projection in between) when the union, with the
 * glue add_glue takes between them, stays convex and in bounds; what
 * cannot join starts a region.  The regions are the connected supported
 * parts of the graph, cut where convexity or the bounds demand.
 *
 * Done naively, every join merges, re-glues and re-checks the whole
 * region: quadratic in a chain that one region covers.  Each join here
 * costs what it changes (the proof of each step is in doc/partitioner.md
 * section 2):
 *  - membership is a per-node region label (regions overlap only where
 *    base sets or glue are shared: those pairs go to a small hash set),
 *    and the node list is sorted once, at the end;
 *  - convexity: the region R is convex and so is the base set b, so a
 *    path that leaves R + b and comes back runs between R and the new
 *    nodes N; a search forward from N's outside consumers (below the last
 *    member) and backward from N's outside arguments (above the first)
 *    finds it or proves there is none;
 *  - glue: add_glue's scan over every member (ascending, each addition
 *    seen by the members after it) can only add something at a member it
 *    has not looked at since the marks near it changed: the new members,
 *    the glue the last join added, and the members a new mark re-opens (a
 *    member x, glue c it feeds, and a new mark on c's consumer or on the
 *    consumer of a glue consumer of c).  Those are scanned, in ascending
 *    order, with the same marks, so the result is the scan's;
 *  - the greedy's owner labels are rewritten only where they change: a
 *    region remembers the members another region took the label of;
 *  - a region that refused b is not asked again for the same b (nothing
 *    changed).
 * The depth bound, when a target sets max_depth, is recomputed over the
 * union (a new member can deepen old ones). */

typedef struct region {
    node_list nodes;        /* members, in the order they joined */
    node_list pend;         /* members the glue scan looks at on the next join */
    node_list stolen;       /* members whose owner label another region took */
    int ncalls, first, last;
} region;

/* (region, node) memberships beyond each node's first region. */
typedef struct pairset {
    uint64_t *slots;        /* 0: empty, else key + 1 */
    size_t cap, n;
} pairset;

static uint64_t pair_key(int r, int y) { return ((uint64_t)(uint32_t)r << 32 | (uint32_t)y) + 1; }

static size_t pair_slot(uint64_t k, size_t mask)
{
    k ^= k >> 31;
    k *= 0x7fb5d329728ea185ull;
    k ^= k >> 27;
    return (size_t)k & mask;
}

static bool pairset_has(const pairset *p, int r, int y)
{
    if (!p->cap)
        return false;
    uint64_t k = pair_key(r, y);
    for (size_t i = pair_slot(k, p->cap - 1); p->slots[i]; i = (i + 1) & (p->cap - 1))
        if (p->slots[i] == k)
            return true;
    return false;
}

static void pairset_add(pairset *p, int r, int y)
{
    if ((p->n + 1) * 2 > p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        uint64_t *old = p->slots;
        size_t oldcap = p->cap;
        p->slots = xcalloc(cap, sizeof *p->slots);
        p->cap = cap;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i]) {
                size_t j = pair_slot(old[i], cap - 1);
                while (p->slots[j])
                    j = (j + 1) & (cap - 1);
                p->slots[j] = old[i];
            }
        free(old);
    }
    uint64_t k = pair_key(r, y);
    size_t i = pair_slot(k, p->cap - 1);
    for (; p->slots[i]; i = (i + 1) & (p->cap - 1))
        if (p->slots[i] == k)
            return;
    p->slots[i] = k;
    p->n++;
}

typedef struct rgen {
    gen *G;
    scratch *s;
    region *rs;
    int nr;
    int *owner;             /* the greedy's label: region + 1, 0 none */
    int *rid;               /* the first region holding the node, -1 none */
    unsigned char *multi;   /* in more than one region: see more */
    pairset more;
    /* one join attempt: the region r, the nodes joining it (b's new ones,
     * then glue), the glue scan's queue and the next pending list */
    int r, cur, first, last;
    unsigned *jmark, *qmark, *pmark, stamp;
    node_list joined, heap, next;
} rgen;

static bool in_region(const rgen *X, int r, int y)
{
    return X->rid[y] == r || (X->multi[y] && pairset_has(&X->more, r, y));
}

/* In the union being tried: the region or a joining node. */
static bool amark(const rgen *X, int y) { return X->jmark[y] == X->stamp || in_region(X, X->r, y); }

static void heap_push(node_list *h, int x)
{
    list_push(h, x);
    int i = h->n - 1;
    while (i > 0 && h->v[(i - 1) / 2] > h->v[i]) {
        int p = (i - 1) / 2, t = h->v[p];
        h->v[p] = h->v[i];
        h->v[i] = t;
        i = p;
    }
}

static int heap_pop(node_list *h)
{
    int top = h->v[0];
    h->v[0] = h->v[--h->n];
    for (int i = 0;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && h->v[l] < h->v[m])
            m = l;
        if (r < h->n && h->v[r] < h->v[m])
            m = r;
        if (m == i)
            break;
        int t = h->v[m];
        h->v[m] = h->v[i];
        h->v[i] = t;
        i = m;
    }
    return top;
}

static void to_next(rgen *X, int x)
{
    if (X->pmark[x] != X->stamp) {
        X->pmark[x] = X->stamp;
        list_push(&X->next, x);
    }
}

/* Member x may add glue now: scan it in this attempt if the scan has not
 * passed it yet, else on the next join. */
static void reopen(rgen *X, int x)
{
    if (!amark(X, x))
        return;
    if (X->qmark[x] == X->stamp) {  /* queued, scanned, or glue added now */
        if (x <= X->cur)
            to_next(X, x);
        return;
    }
    if (x > X->cur) {
        X->qmark[x] = X->stamp;
        heap_push(&X->heap, x);
    } else {
        to_next(X, x);
    }
}

/* y was just marked: the members whose glue scan it may change. */
static void mark_event(rgen *X, int y)
{
    const scratch *s = X->s;
    for (int i = 0; i < sc_nargs(s, y); i++) {
        int a = sc_arg(s, y, i);
        if (!sc_glue(s, a))
            continue;
        for (int j = 0; j < sc_nargs(s, a); j++) {
            int c = sc_arg(s, a, j);
            reopen(X, c);           /* a is glue c... feeds, y its consumer */
            if (sc_glue(s, c))
                for (int k = 0; k < sc_nargs(s, c); k++)
                    reopen(X, sc_arg(s, c, k));     /* a the via glue */
        }
    }
}

static void join_node(rgen *X, int y)
{
    X->jmark[y] = X->stamp;
    list_push(&X->joined, y);
    if (y < X->first)
        X->first = y;
    if (y > X->last)
        X->last = y;
}

static void add_glue_node(rgen *X, int y)
{
    join_node(X, y);
    X->qmark[y] = X->stamp;     /* not scanned now: on the next join */
    to_next(X, y);
    mark_event(X, y);
}

/* add_glue's loop body at member x (see add_glue). */
static void glue_scan(rgen *X, int x)
{
    const scratch *s = X->s;
    for (int k = 0; k < sc_nuses(s, x); k++) {
        int c = sc_use(s, x, k);
        if (amark(X, c) || !sc_glue(s, c))
            continue;
        for (int j = 0; j < sc_nuses(s, c); j++) {
            int d = sc_use(s, c, j);
            bool via = false;
            if (!amark(X, d) && sc_glue(s, d))
                for (int l = 0; l < sc_nuses(s, d) && !via; l++)
                    via = amark(X, sc_use(s, d, l));
            if (via)
                add_glue_node(X, d);
            if (via || amark(X, d)) {
                add_glue_node(X, c);
                break;
            }
        }
    }
}

/* Is R + joined convex, R being convex and the base set too? */
static bool union_convex(rgen *X)
{
    scratch *s = X->s;
    int sp = 0;
    next_visit(s);
    for (int i = 0; i < X->joined.n; i++) {
        int y = X->joined.v[i];
        for (int k = 0; k < sc_nuses(s, y); k++) {
            int c = sc_use(s, y, k);
            if (c > X->last)
                break;
            if (!amark(X, c) && s->seen[c] != s->vstamp) {
                s->seen[c] = s->vstamp;
                s->stack[sp++] = c;
            }
        }
    }
    while (sp > 0) {
        int w = s->stack[--sp];
        for (int k = 0; k < sc_nuses(s, w); k++) {
            int c = sc_use(s, w, k);
            if (c > X->last)
                break;
            if (amark(X, c))
                return false;
            if (s->seen[c] != s->vstamp) {
                s->seen[c] = s->vstamp;
                s->stack[sp++] = c;
            }
        }
    }
    next_visit(s);
    for (int i = 0; i < X->joined.n; i++) {
        int y = X->joined.v[i];
        for (int k = 0; k < sc_nargs(s, y); k++) {
            int a = sc_arg(s, y, k);
            if (a > X->first && !amark(X, a) && s->seen[a] != s->vstamp) {
                s->seen[a] = s->vstamp;
                s->stack[sp++] = a;
            }
        }
    }
    while (sp > 0) {
        int w = s->stack[--sp];
        for (int k = 0; k < sc_nargs(s, w); k++) {
            int a = sc_arg(s, w, k);
            if (a < X->first)
                continue;
            if (amark(X, a))
                return false;
            if (s->seen[a] != s->vstamp) {
                s->seen[a] = s->vstamp;
                s->stack[sp++] = a;
            }
        }
    }
    return true;
}

/* Calls on the longest path inside R + joined. */
static int union_depth(rgen *X)
{
    const region *R = &X->rs[X->r];
    int n = R->nodes.n + X->joined.n;
    int *v = xcalloc((size_t)n, sizeof *v);
    memcpy(v, R->nodes.v, sizeof *v * (size_t)R->nodes.n);
    memcpy(v + R->nodes.n, X->joined.v, sizeof *v * (size_t)X->joined.n);
    sort_ints(v, (size_t)n);
    int best = 0;
    for (int i = 0; i < n; i++) {
        int x = v[i], d = 0;
        for (int k = 0; k < sc_nargs(X->s, x); k++) {
            int a = sc_arg(X->s, x, k);
            if (amark(X, a) && X->s->depth[a] > d)
                d = X->s->depth[a];
        }
        X->s->depth[x] = d + (sc_call(X->s, x) ? 1 : 0);
        if (X->s->depth[x] > best)
            best = X->s->depth[x];
    }
    free(v);
    return best;
}

static void new_stamp(rgen *X)
{
    if (++X->stamp == 0) {
        size_t n = (size_t)X->s->nnodes;
        memset(X->jmark, 0, n * sizeof *X->jmark);
        memset(X->qmark, 0, n * sizeof *X->qmark);
        memset(X->pmark, 0, n * sizeof *X->pmark);
        X->stamp = 1;
    }
}

static void add_member(rgen *X, int r, int y)
{
    if (X->rid[y] < 0) {
        X->rid[y] = r;
    } else {
        X->multi[y] = 1;
        pairset_add(&X->more, r, y);
    }
    list_push(&X->rs[r].nodes, y);
}

static void set_owner(rgen *X, int r, int y)
{
    int o = X->owner[y] - 1;
    if (o == r)
        return;
    if (o >= 0)
        list_push(&X->rs[o].stolen, y);
    X->owner[y] = r + 1;
}

/* The greedy labels every member of region r with it after r changes;
 * only the new members and those another region relabelled need it. */
static void relabel(rgen *X, int r, const int *fresh, int n)
{
    for (int i = 0; i < n; i++)
        set_owner(X, r, fresh[i]);
    region *R = &X->rs[r];
    for (int i = 0; i < R->stolen.n; i++)
        set_owner(X, r, R->stolen.v[i]);
    R->stolen.n = 0;
}

/* region_join, incrementally: does b join region r? */
static bool region_try(rgen *X, int r, const wcand *b)
{
    gen *G = X->G;
    region *R = &X->rs[r];
    new_stamp(X);
    X->r = r;
    X->cur = -1;
    X->first = R->first;
    X->last = R->last;
    X->joined.n = X->heap.n = X->next.n = 0;
    int calls = R->ncalls;
    for (int i = 0; i < b->n; i++)
        if (!amark(X, b->nodes[i])) {
            join_node(X, b->nodes[i]);
            calls += sc_call(X->s, b->nodes[i]);
        }
    int nb = X->joined.n;
    for (int i = 0; i < R->pend.n; i++)
        reopen(X, R->pend.v[i]);
    for (int i = 0; i < nb; i++)
        reopen(X, X->joined.v[i]);
    for (int i = 0; i < nb; i++)
        mark_event(X, X->joined.v[i]);
    while (X->heap.n > 0) {
        X->cur = heap_pop(&X->heap);
        glue_scan(X, X->cur);
    }
    if (G->max_nodes > 0 && calls > G->max_nodes)
        return false;
    if (G->max_depth > 0 && union_depth(X) > G->max_depth)
        return false;
    if (!union_convex(X))
        return false;
    for (int i = 0; i < X->joined.n; i++)
        add_member(X, r, X->joined.v[i]);
    R->ncalls = calls;
    R->first = X->first;
    R->last = X->last;
    R->pend.n = 0;
    for (int i = 0; i < X->next.n; i++)
        list_push(&R->pend, X->next.v[i]);
    relabel(X, r, X->joined.v, X->joined.n);
    return true;
}

static int region_new(rgen *X, const wcand *b)
{
    int r = X->nr++;
    region *R = &X->rs[r];
    memset(R, 0, sizeof *R);
    R->first = b->nodes[0];
    R->last = b->nodes[b->n - 1];
    for (int i = 0; i < b->n; i++) {
        add_member(X, r, b->nodes[i]);
        list_push(&R->pend, b->nodes[i]);   /* never glue-scanned yet */
        R->ncalls += sc_call(X->s, b->nodes[i]);
    }
    relabel(X, r, b->nodes, b->n);
    return r;
}

/* The base sets by (last node, first node, index). */
static int cmp_by_last(const void *pa, const void *pb, const gen *G)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const wcand *x = &G->c[a], *y = &G->c[b];
    int lx = x->nodes[x->n - 1], ly = y->nodes[y->n - 1];
    if (lx != ly)
        return lx < ly ? -1 : 1;
    if (x->nodes[0] != y->nodes[0])
        return x->nodes[0] < y->nodes[0] ? -1 : 1;
    return (a > b) - (a < b);
}

/* A merge sort (qsort has no context argument in C11). */
static void sort_by_last(size_t *v, size_t *tmp, size_t n, const gen *G)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = cmp_by_last(&v[j], &v[i], G) < 0 ? v[j++] : v[i++];
            while (i < mid)
                tmp[k++] = v[i++];
            while (j < hi)
                tmp[k++] = v[j++];
        }
        memcpy(v, tmp, n * sizeof *v);
    }
}

static void maximal_regions(gen *G, size_t nbase)
{
    if (nbase == 0)
        return;
    int nn = G->s->nnodes;
    rgen X;
    memset(&X, 0, sizeof X);
    X.G = G;
    X.s = G->s;
    X.rs = xcalloc(nbase, sizeof *X.rs);
    X.owner = xcalloc((size_t)nn, sizeof *X.owner);
    X.rid = xcalloc((size_t)nn, sizeof *X.rid);
    for (int i = 0; i < nn; i++)
        X.rid[i] = -1;
    X.multi = xcalloc((size_t)nn, 1);
    X.jmark = xcalloc((size_t)nn, sizeof *X.jmark);
    X.qmark = xcalloc((size_t)nn, sizeof *X.qmark);
    X.pmark = xcalloc((size_t)nn, sizeof *X.pmark);
    size_t *order = xcalloc(nbase, sizeof *order), *tmp = xcalloc(nbase, sizeof *tmp);
    for (size_t i = 0; i < nbase; i++)
        order[i] = i;
    sort_by_last(order, tmp, nbase, G);
    node_list refused = {0, 0, NULL};
    for (size_t o = 0; o < nbase; o++) {
        const wcand *b = &G->c[order[o]];
        if (b->ncomps)
            continue; /* regions of what the rules support, without composites */
        int target = -1;
        refused.n = 0;
        for (int m = 0; m < b->n && target < 0; m++) {
            int x = b->nodes[m];
            for (int a = 0; a < sc_nargs(G->s, x) && target < 0; a++) {
                int y = sc_arg(G->s, x, a);
                if (!X.owner[y] && sc_glue(G->s, y) && sc_nargs(G->s, y) > 0)
                    y = sc_arg(G->s, y, 0);
                if (!X.owner[y])
                    continue;
                int r = X.owner[y] - 1;
                bool tried = false;
                for (int k = 0; k < refused.n && !tried; k++)
                    tried = refused.v[k] == r;
                if (tried)
                    continue;
                if (region_try(&X, r, b))
                    target = r;
                else
                    list_push(&refused, r);
            }
        }
        if (target < 0)
            region_new(&X, b);
    }
    for (int r = 0; r < X.nr; r++) {
        region *R = &X.rs[r];
        sort_ints(R->nodes.v, (size_t)R->nodes.n);
        int depth, ncalls;
        if (growable(G, R->nodes.v, R->nodes.n, &depth, &ncalls, false) && ncalls > 0)
            emit(G, R->nodes.v, R->nodes.n, NULL, -1, NULL, 0, 0);
        free(R->nodes.v);
        free(R->pend.v);
        free(R->stolen.v);
    }
    free(refused.v);
    free(order);
    free(tmp);
    free(X.rs);
    free(X.owner);
    free(X.rid);
    free(X.multi);
    free(X.jmark);
    free(X.qmark);
    free(X.pmark);
    free(X.joined.v);
    free(X.heap.v);
    free(X.next.v);
    free(X.more.slots);
}


/* The same regions the straightforward way, for the tests' comparisons
 * (bx_cands_build_reference): every join merges the node lists, runs
 * add_glue over the whole union and checks it whole. */
typedef struct ref_region {
    int *nodes;             /* ascending, malloc'd */
    int n;
} ref_region;

static bool region_join(gen *G, ref_region *r, const int *v, int n)
{
    int k = merge_nodes(G, r->nodes, r->n, v, n);
    k = add_glue(G, k);
    int depth, ncalls;
    if (!growable(G, G->buf, k, &depth, &ncalls, false))
        return false;
    r->nodes = xrealloc(r->nodes, sizeof *r->nodes * (size_t)k);
    memcpy(r->nodes, G->buf, sizeof *r->nodes * (size_t)k);
    r->n = k;
    return true;
}

static void maximal_regions_reference(gen *G, size_t nbase)
{
    if (nbase == 0)
        return;
    int nn = G->s->nnodes;
    ref_region *rs = xcalloc(nbase, sizeof *rs);
    int nr = 0;
    int *owner = xcalloc((size_t)nn, sizeof *owner);   /* region + 1, 0: none */
    size_t *order = xcalloc(nbase, sizeof *order);
    for (size_t i = 0; i < nbase; i++)
        order[i] = i;
    /* insertion sort by (last node, first node, index): n is the number of
     * base sets, and most come in this order already */
    for (size_t i = 1; i < nbase; i++) {
        size_t x = order[i], k = i;
        while (k > 0) {
            const wcand *a = &G->c[order[k - 1]], *b = &G->c[x];
            int la = a->nodes[a->n - 1], lb = b->nodes[b->n - 1];
            if (la < lb || (la == lb && a->nodes[0] <= b->nodes[0]))
                break;
            order[k] = order[k - 1];
            k--;
        }
        order[k] = x;
    }
    for (size_t o = 0; o < nbase; o++) {
        const wcand *b = &G->c[order[o]];
        if (b->ncomps)
            continue; /* regions of what the rules support, without composites */
        /* regions this set touches (a member's argument, through glue) */
        int target = -1;
        for (int m = 0; m < b->n && target < 0; m++) {
            int x = b->nodes[m];
            for (int a = 0; a < sc_nargs(G->s, x) && target < 0; a++) {
                int y = sc_arg(G->s, x, a);
                if (y >= 0 && !owner[y] && sc_glue(G->s, y) && sc_nargs(G->s, y) > 0)
                    y = sc_arg(G->s, y, 0);
                if (y >= 0 && owner[y]
                    && region_join(G, &rs[owner[y] - 1], b->nodes, b->n))
                    target = owner[y] - 1;
            }
        }
        if (target < 0) {
            target = nr++;
            rs[target].nodes = xcalloc((size_t)b->n, sizeof(int));
            memcpy(rs[target].nodes, b->nodes, sizeof(int) * (size_t)b->n);
            rs[target].n = b->n;
        }
        for (int m = 0; m < rs[target].n; m++)
            owner[rs[target].nodes[m]] = target + 1;
    }
    for (int r = 0; r < nr; r++) {
        int depth, ncalls;
        if (growable(G, rs[r].nodes, rs[r].n, &depth, &ncalls, false) && ncalls > 0)
            emit(G, rs[r].nodes, rs[r].n, NULL, -1, NULL, 0, 0);
        free(rs[r].nodes);
    }
    free(rs);
    free(owner);
    free(order);
}

/* ---- one target ------------------------------------------------------------ */

static void gen_init(gen *G, const byoc_graph *g, const byoc_registry *reg,
                     const byoc_target_decl *t, int ti, bx_cand_set *out, scratch *s, why *w,
                     bool *covered)
{
    memset(G, 0, sizeof *G);
    G->g = g;
    G->reg = reg;
    G->t = t;
    G->ti = ti;
    G->out = out;
    G->s = s;
    G->why = w;
    G->covered = covered;
    G->fusion = byoc_target_fusion(reg, t);
    G->tvm = G->fusion == BYOC_FUSION_TVM;
    G->max_depth = byoc_target_max_depth(reg, t);
    G->max_nodes = byoc_target_max_nodes(reg, t);
    G->max_exits = byoc_target_max_exits(reg, t);
    if (G->tvm && G->max_exits == 0)
        G->max_exits = 1; /* TVM's OnlyValidPartitionRule */
    int b = G->tvm ? G->max_depth : G->max_nodes;
    if (b <= 0 || b > BX_CAND_DEFAULT_BOUND)
        b = BX_CAND_DEFAULT_BOUND;
    /* TVM bounds the sum of two depths by max_depth (unbounded: b); under
     * `fusion any` the rounds make kernels of up to b calls */
    G->bound = G->tvm && G->max_depth > 0 ? G->max_depth : b;
    G->cap_per_node = 4 * b;
    G->efficiency = byoc_target_efficiency(reg, t);
    G->em_base = out->n;
    G->options = byoc_target_options(reg, t);
    bx_arena_init(&G->arena);
    int n = s->nnodes;
    G->by_node = xcalloc((size_t)n, sizeof *G->by_node);
    G->by_node_n = xcalloc((size_t)n, sizeof *G->by_node_n);
    G->by_node_cap = xcalloc((size_t)n, sizeof *G->by_node_cap);
    G->combined_count = xcalloc((size_t)n, sizeof *G->combined_count);
    G->buf = xcalloc((size_t)n + 1, sizeof *G->buf);
    G->buf2 = xcalloc((size_t)n + 1, sizeof *G->buf2);
    G->ebuf = xcalloc((size_t)n + 1, sizeof *G->ebuf);
    G->nrules = byoc_target_partition_rule_count(reg, t);
    if (G->nrules) {
        G->io_in = xcalloc((size_t)n + 1, sizeof *G->io_in);
        G->io_out = xcalloc((size_t)n + 1, sizeof *G->io_out);
        G->iomark = xcalloc((size_t)n + 1, sizeof *G->iomark);
    }
}

static void gen_free(gen *G)
{
    for (int i = 0; i < G->s->nnodes; i++)
        free(G->by_node[i]);
    free(G->by_node);
    free(G->by_node_n);
    free(G->by_node_cap);
    free(G->combined_count);
    free(G->stamp);
    free(G->buf);
    free(G->buf2);
    free(G->ebuf);
    free(G->io_in);
    free(G->io_out);
    free(G->iomark);
    free(G->c);
    free(G->ncalls_of);
    free(G->depth_of);
    free(G->kind_of);
    free(G->em_hash);
    free(G->em_key);
    settab_free(&G->tab);
    settab_free(&G->emitted);
    bx_arena_free(&G->arena);
}

/* The pool's sets that may be kernels, in the order they were found. */
static void emit_pool(gen *G)
{
    bx_cand_stats *st = &G->out->stats;
    for (size_t i = 0; i < G->n; i++) {
        wcand *c = &G->c[i];
        if (c->ncalls == 0 || (c->base && c->ncomps))
            continue; /* a pattern's match alone was emitted when found */
        mark_set(G->s, c->nodes, c->n);
        if (G->max_depth > 0 && c->depth > G->max_depth) {
            st->rejected_depth++;
            continue;
        }
        if (G->max_nodes > 0 && c->ncalls > G->max_nodes) {
            st->rejected_nodes++;
            continue;
        }
        emit(G, c->nodes, c->n, NULL, -1, c->comps, c->ncomps, c->compkey);
    }
}

static void gen_target(gen *G, const op_index *ix)
{
    const byoc_registry *reg = G->reg;
    const byoc_target_decl *t = G->t;
    int np = byoc_target_pattern_count(reg, t);
    for (int i = 0; i < np && !G->cut; i++)
        match_pattern(G, ix, byoc_target_pattern_at(reg, t, i), true);
    if (byoc_target_supports_all(reg, t))
        add_singletons(G);
    int nr = byoc_target_rule_count(reg, t);
    for (int i = 0; i < nr && !G->cut; i++)
        match_pattern(G, ix, byoc_target_rule_at(reg, t, i), false);
    if (G->cut)
        return;
    size_t nbase = G->n;
    if (G->fusion != BYOC_FUSION_NONE)
        combine_rounds(G);
    emit_pool(G);
    if (G->fusion == BYOC_FUSION_ANY) {
        if (G->reference)
            maximal_regions_reference(G, nbase);
        else
            maximal_regions(G, nbase);
    }
}

/* ---- coverage --------------------------------------------------------------- */

static bool any_rule_names(const byoc_registry *reg, const byoc_target_decl *const *targets,
                           int ntargets, const op_index *ix, int node)
{
    for (int ti = 0; ti < ntargets; ti++) {
        const byoc_target_decl *t = targets[ti];
        int nr = byoc_target_rule_count(reg, t), np = byoc_target_pattern_count(reg, t);
        for (int i = 0; i < nr + np; i++) {
            const byoc_pattern_decl *p = i < nr ? byoc_target_rule_at(reg, t, i)
                                                : byoc_target_pattern_at(reg, t, i - nr);
            node_list roots = {0, 0, NULL};
            root_nodes(ix, p, p->root, &roots, 0);
            bool found = false;
            for (int k = 0; k < roots.n && !found; k++)
                found = roots.v[k] == node;
            free(roots.v);
            if (found)
                return true;
        }
    }
    return false;
}

/* Fill err about call `node`, which no candidate covers. */
static void uncovered_error(const byoc_graph *g, const byoc_registry *reg,
                            const byoc_target_decl *const *targets, int ntargets,
                            const op_index *ix, const why *w, int node, byoc_error *err)
{
    const char *name = byoc_node_name(g, node);
    const char *op = byoc_node_op_name(g, node);
    char who[160];
    if (name)
        snprintf(who, sizeof who, "%s (%s)", name, op);
    else
        snprintf(who, sizeof who, "node %d (%s)", node, op);
    const char *src = byoc_graph_source(g);
    int line = byoc_node_line(g, node), col = byoc_node_col(g, node);
    if (w->pattern) {
        const byoc_pattern_decl *p = w->pattern;
        const char *text = w->clause >= 0 && w->clause < p->pred.nclauses
                               ? p->pred.clauses[w->clause].text : "its predicate";
        bx_error_set(err, src, line, col, "no candidate for %s: rule at %s:%d failed: %s", who,
                     p->file ? p->file : "?", p->line, text);
    } else if (w->target >= 0) {
        const byoc_target_decl *t = targets[w->target];
        const byoc_predicate_decl *r = byoc_target_partition_rule_at(reg, t, w->rule);
        const char *text = r && w->rclause >= 0 && w->rclause < r->nclauses
                               ? r->clauses[w->rclause].text : "a partition rule";
        const byoc_clause_decl *rc = r && w->rclause >= 0 && w->rclause < r->nclauses
                                         ? &r->clauses[w->rclause] : NULL;
        int rline = rc ? rc->line : t->line;
        const char *rfile = rc && rc->file ? rc->file : t->file ? t->file : "?";
        bx_error_set(err, src, line, col,
                     "no candidate for %s: partition rule of target '%s' at %s:%d failed: %s", who,
                     t->name, rfile, rline, text);
    } else if (any_rule_names(reg, targets, ntargets, ix, node)) {
        bx_error_set(err, src, line, col,
                     "no candidate for %s: the rules that name op '%s' did not match it within "
                     "their targets' bounds", who, op);
    } else {
        bx_error_set(err, src, line, col,
                     "no candidate for %s: no selected target supports op '%s'", who, op);
    }
}

/* A pattern whose matching at one root passed BX_MATCH_MAX_STEPS: its
 * alternatives multiply past what any real pattern has. */
static void too_many_matches(const byoc_graph *g, const byoc_target_decl *t,
                             const byoc_pattern_decl *p, int root, byoc_error *err)
{
    const char *name = byoc_node_name(g, root);
    char who[96];
    if (name)
        snprintf(who, sizeof who, "%s", name);
    else
        snprintf(who, sizeof who, "node %d", root);
    bx_error_set(err, byoc_graph_source(g), byoc_node_line(g, root), byoc_node_col(g, root),
                 "%s%s%s of target '%s' (%s:%d) takes more than %d steps to match %s; its "
                 "alternatives multiply past byoc's limit",
                 p->name ? "pattern '" : "a supports rule", p->name ? p->name : "",
                 p->name ? "'" : "", t->name, p->file ? p->file : "?", p->line,
                 BX_MATCH_MAX_STEPS, who);
}

/* ---- the whole set ------------------------------------------------------------ */

static int cmp_cand(const void *pa, const void *pb)
{
    const bx_cand *a = pa, *b = pb;
    if (a->nodes[0] != b->nodes[0])
        return a->nodes[0] < b->nodes[0] ? -1 : 1;
    if (a->target != b->target)
        return a->target < b->target ? -1 : 1;
    if (a->nnodes != b->nnodes)
        return a->nnodes < b->nnodes ? -1 : 1;
    for (int i = 0; i < a->nnodes; i++)
        if (a->nodes[i] != b->nodes[i])
            return a->nodes[i] < b->nodes[i] ? -1 : 1;
    if (a->pattern != b->pattern) {
        /* The same nodes as a plain kernel and as composites. */
        if (!a->pattern || !b->pattern)
            return a->pattern ? 1 : -1;
        return strcmp(a->pattern->name, b->pattern->name);
    }
    /* Combined kernels with different composites inside: by their count,
     * then each composite's first node and pattern name. */
    if (a->ncomps != b->ncomps)
        return a->ncomps < b->ncomps ? -1 : 1;
    for (int i = 0; i < a->ncomps; i++) {
        const bx_comp *x = &a->comps[i], *y = &b->comps[i];
        if (x->nodes[0] != y->nodes[0])
            return x->nodes[0] < y->nodes[0] ? -1 : 1;
        if (x->nnodes != y->nnodes)
            return x->nnodes < y->nnodes ? -1 : 1;
        int d = strcmp(x->pattern->name, y->pattern->name);
        if (d)
            return d;
    }
    return 0;
}

/* Sorting 48-byte candidates moved them around more than it compared
 * them: sort small (key, candidate) pairs, the key the first three fields
 * of cmp_cand's order, then permute once.  Stable on equal keys is not
 * needed: no two candidates compare equal. */
typedef struct cand_key {
    uint64_t key;
    const bx_cand *c;
} cand_key;

static int cmp_cand_key(const void *pa, const void *pb)
{
    const cand_key *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return cmp_cand(a->c, b->c);
}

static void sort_cands(bx_cand_set *out)
{
    cand_key *k = xcalloc(out->n, sizeof *k);
    /* (first node, target, size) packed 24 + 16 + 24 bits when they fit,
     * else the first node alone (cmp_cand breaks the ties) */
    bool narrow = true;
    for (size_t i = 0; i < out->n && narrow; i++) {
        const bx_cand *c = cand_at(out, i);
        narrow = (uint32_t)c->nodes[0] <= 0xffffff && (uint32_t)c->target <= 0xffff
                 && (uint32_t)c->nnodes <= 0xffffff;
    }
    for (size_t i = 0; i < out->n; i++) {
        const bx_cand *c = cand_at(out, i);
        uint64_t first = (uint32_t)c->nodes[0];
        k[i].key = narrow ? first << 40 | (uint64_t)(uint32_t)c->target << 24
                                | (uint32_t)c->nnodes
                          : first;
        k[i].c = c;
    }
    if (out->n > 1)
        qsort(k, out->n, sizeof *k, cmp_cand_key);
    out->cands = xcalloc(out->n, sizeof *out->cands);
    for (size_t i = 0; i < out->n; i++)
        out->cands[i] = *k[i].c;
    out->cap = out->n;
    free(k);
    for (size_t i = 0; i < (out->n + BX_CHUNK - 1) >> BX_CHUNK_BITS; i++)
        free(out->chunks[i]);
    free(out->chunks);
    out->chunks = NULL;
    out->nchunks = 0;
}

static int cands_build(bx_cand_set *out, const byoc_graph *g, const byoc_registry *reg,
                       const byoc_target_decl *const *targets, int ntargets, bool reference,
                       byoc_error *err)
{
    memset(out, 0, sizeof *out);
    bx_arena_init(&out->arena);
    int nn = byoc_graph_node_count(g);
    scratch s;
    scratch_init(&s, g);
    op_index ix;
    index_build(&ix, g);
    why *w = xcalloc((size_t)nn, sizeof *w);
    for (int i = 0; i < nn; i++)
        w[i] = (why){NULL, -1, -1, -1, -1};
    bool *covered = xcalloc((size_t)nn, sizeof *covered);
    int rc = 0;
    for (int ti = 0; ti < ntargets && rc == 0; ti++) {
        gen G;
        gen_init(&G, g, reg, targets[ti], ti, out, &s, w, covered);
        G.reference = reference;
        gen_target(&G, &ix);
        if (G.cut) {
            too_many_matches(g, targets[ti], G.cut, G.cut_root, err);
            rc = -1;
        }
        gen_free(&G);
    }
    sort_cands(out);
    for (int i = 0; i < nn && rc == 0; i++)
        if (is_call(g, i) && !covered[i]) {
            uncovered_error(g, reg, targets, ntargets, &ix, &w[i], i, err);
            rc = -1;
        }
    free(covered);
    free(w);
    index_free(&ix);
    scratch_free(&s);
    return rc;
}

int bx_cands_build(bx_cand_set *out, const byoc_graph *g, const byoc_registry *reg,
                   const byoc_target_decl *const *targets, int ntargets, byoc_error *err)
{
    return cands_build(out, g, reg, targets, ntargets, false, err);
}

int bx_cands_build_reference(bx_cand_set *out, const byoc_graph *g, const byoc_registry *reg,
                             const byoc_target_decl *const *targets, int ntargets,
                             byoc_error *err)
{
    return cands_build(out, g, reg, targets, ntargets, true, err);
}

void bx_cands_free(bx_cand_set *s)
{
    if (!s)
        return;
    free(s->cands);
    bx_arena_free(&s->arena);
    memset(s, 0, sizeof *s);
}
