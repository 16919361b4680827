/* The placement search: the cheapest acyclic exact cover, by Dijkstra or A*
 * over partial placements.
 *
 * Collage's formulation (DESIGN.md section 4).  Nodes are numbered
 * topologically.  A state is a partial placement; from it the next node is v,
 * the lowest unplaced one, and every candidate whose lowest node is v and
 * which misses the placed set P is a step, weighted by its cost plus the
 * transfers it settles.  Any candidate that contains v and misses P has v
 * as its lowest node (every lower node is placed), so bucketing candidates
 * by lowest node finds exactly the steps, and every cover is reached along
 * exactly one path: the one taking its partitions in order of lowest node.
 *
 * The one idea needed to read the rest is what a state must hold for two
 * partial placements to have the same future, which is what makes merging
 * them (hash-consing the state) exact:
 *
 * - P, the placed set.  All nodes below v are placed, so the key stores v and
 *   the words of P from v's word to P's last member: a short window.
 *
 * - The chosen partitions that a path from an unplaced node can reach in the
 *   current graph with each chosen partition contracted to one vertex (the
 *   "quotient" graph).  Adding candidate C closes a cycle iff the quotient
 *   graph with C contracted too has a path out of C and back.  Such a path
 *   starts at a node of C, which is unplaced, so every partition on it is
 *   reachable from an unplaced node: partitions no unplaced node can reach
 *   can never again lie on a cycle, and once unreachable a partition stays
 *   so (contracting more unplaced nodes adds no path from what remains
 *   unplaced into it).  Keeping only "partitions with an unplaced predecessor"
 *   is not enough: with edges c2->x4, x0->x5, x1->c3, partitions X1 = {x0,x4}
 *   and X2 = {x1,x5} and then C = {c2,c3} form the cycle C->X1->X2->C although
 *   every predecessor of X2 is placed when C is added.  X2 is reachable
 *   through X1, so it is kept.  Partitions are named by their node set, so
 *   the same kernel on two devices gives one state, not two.
 *
 * - The device of every placed node with an unplaced neighbour: each edge is
 *   charged when its second endpoint is placed, and the charge needs the
 *   first endpoint's device.  Left out when the links are all free.
 *
 * The cycle test needs only DAG reachability between small node sets (x
 * reaches y iff x is in up(y), the precomputed ancestor set of y, stored as
 * a lower-triangular bit matrix) and a search over the kept partitions: C
 * reaches partition X, X reaches Y, ..., some reached partition reaches C.
 *
 * With A*, the bound for a state is the sum over unplaced nodes u of
 * m(u) = min over candidates containing u of cost / |candidate|.  It is
 * admissible because any completion pays, for each candidate D it takes,
 * cost(D) = sum over u in D of cost(D)/|D| >= sum over u in D of m(u), and
 * transfers are never negative; and it is consistent, since a step by C
 * lowers it by sum over u in C of m(u) <= cost(C).
 *
 * Past the state budget the exact search gives up and a beam search starts
 * over: states are layered by the number of nodes placed (every step adds
 * at least one, so layers can be processed in order) and only the best
 * beam_width of each layer, by cost plus bound, are expanded.  Every state
 * reached is acyclic, and a singleton never closes a cycle (contracting one
 * node changes no graph), so when every node has a singleton candidate and
 * the links it needs exist, every layer has a successor and the beam ends
 * with a complete placement. */
#include "search.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "die.h"
#include "heap.h"

#define NONE UINT32_MAX
#define BIT(i) ((uint64_t)1 << ((i) & 63))

/* ---- The problem ---------------------------------------------------- */

typedef struct bx_cand {
    const uint32_t *nodes;  /* increasing */
    uint32_t k, dev;
    double cost;
    uint64_t id;
} bx_cand;

typedef struct bx_edge {
    uint32_t from, to;
    double bytes;
} bx_edge;

struct bx_search_problem {
    uint32_t n, ndev;
    bx_arena arena;         /* candidates' node lists */
    bx_edge *edges;
    size_t nedges, capedges;
    bx_cand *cands;
    size_t ncands, capcands;
    double *latency, *bandwidth;    /* ndev x ndev, row = source device */
    char error[200];
};

static void *grow(void *ptr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return ptr;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    ptr = realloc(ptr, c * elem);
    if (!ptr)
        bx_die("out of memory");
    *cap = c;
    return ptr;
}

static void *xcalloc(size_t n, size_t size)
{
    void *ptr = calloc(n ? n : 1, size);
    if (!ptr)
        bx_die("out of memory");
    return ptr;
}

__attribute__((format(printf, 2, 3)))
static int bad(bx_search_problem *p, const char *fmt, ...)
{
    if (!p->error[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->error, sizeof p->error, fmt, ap);
        va_end(ap);
    }
    return -1;
}

bx_search_problem *bx_search_problem_create(uint32_t nnodes, uint32_t ndevices)
{
    bx_search_problem *p = xcalloc(1, sizeof(*p));
    p->n = nnodes;
    p->ndev = ndevices;
    bx_arena_init(&p->arena);
    size_t nn = (size_t)ndevices * ndevices;
    p->latency = xcalloc(nn, sizeof(double));
    p->bandwidth = xcalloc(nn, sizeof(double));
    for (size_t i = 0; i < nn; i++)
        p->bandwidth[i] = INFINITY;
    if (ndevices == 0)
        bad(p, "a problem needs at least one device");
    if (nnodes == NONE)
        bad(p, "too many nodes");
    return p;
}

void bx_search_problem_destroy(bx_search_problem *p)
{
    if (!p)
        return;
    bx_arena_free(&p->arena);
    free(p->edges);
    free(p->cands);
    free(p->latency);
    free(p->bandwidth);
    free(p);
}

int bx_search_add_edge(bx_search_problem *p, uint32_t from, uint32_t to, double bytes)
{
    if (from >= p->n || to >= p->n)
        return bad(p, "edge %u->%u: no node %u (the graph has %u)", from, to,
                   from >= p->n ? from : to, p->n);
    if (from >= to)
        return bad(p, "edge %u->%u is not in topological order", from, to);
    if (!(bytes >= 0))
        return bad(p, "edge %u->%u carries a negative or undefined number of bytes", from, to);
    p->edges = grow(p->edges, &p->capedges, p->nedges + 1, sizeof(*p->edges));
    p->edges[p->nedges++] = (bx_edge){ from, to, bytes };
    return 0;
}

int bx_search_set_link(bx_search_problem *p, uint32_t a, uint32_t b,
                       double latency, double bandwidth)
{
    if (a >= p->ndev || b >= p->ndev)
        return bad(p, "link %u->%u: no device %u (the problem has %u)", a, b,
                   a >= p->ndev ? a : b, p->ndev);
    if (a == b)
        return bad(p, "link %u->%u: a device needs no link to itself", a, b);
    if (!(latency >= 0) || !(bandwidth >= 0))
        return bad(p, "link %u->%u: negative or undefined latency or bandwidth", a, b);
    p->latency[(size_t)a * p->ndev + b] = latency;
    p->bandwidth[(size_t)a * p->ndev + b] = bandwidth;
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int bx_search_add_candidate_nodes(bx_search_problem *p, const uint32_t *nodes,
                                  size_t nnodes, uint32_t device, double cost,
                                  uint64_t id)
{
    size_t idx = p->ncands;
    if (nnodes == 0)
        return bad(p, "candidate %zu is empty", idx);
    if (nnodes > p->n)
        return bad(p, "candidate %zu has more nodes than the graph", idx);
    if (device >= p->ndev)
        return bad(p, "candidate %zu: no device %u (the problem has %u)", idx, device, p->ndev);
    if (!(cost >= 0))
        return bad(p, "candidate %zu has a negative or undefined cost", idx);
    if (idx >= (size_t)INT32_MAX)
        return bad(p, "too many candidates");
    uint32_t *copy = bx_arena_memdup(&p->arena, nodes, nnodes * sizeof(uint32_t));
    qsort(copy, nnodes, sizeof(uint32_t), cmp_u32);
    for (size_t i = 0; i < nnodes; i++) {
        if (copy[i] >= p->n)
            return bad(p, "candidate %zu: no node %u (the graph has %u)", idx, copy[i], p->n);
        if (i && copy[i] == copy[i - 1])
            return bad(p, "candidate %zu names node %u twice", idx, copy[i]);
    }
    p->cands = grow(p->cands, &p->capcands, idx + 1, sizeof(*p->cands));
    p->cands[idx] = (bx_cand){ copy, (uint32_t)nnodes, device, cost, id };
    p->ncands++;
    return (int)idx;
}

int bx_search_add_candidate(bx_search_problem *p, const bx_bitset *nodes,
                            uint32_t device, double cost, uint64_t id)
{
    if (nodes->nbits != p->n)
        return bad(p, "candidate %zu is a set of %zu nodes, not %u", p->ncands,
                   nodes->nbits, p->n);
    size_t k = bx_bitset_count(nodes), j = 0;
    uint32_t *list = xcalloc(k, sizeof(uint32_t));
    for (size_t i = bx_bitset_first(nodes); i < nodes->nbits; i = bx_bitset_next(nodes, i + 1))
        list[j++] = (uint32_t)i;
    int r = bx_search_add_candidate_nodes(p, list, k, device, cost, id);
    free(list);
    return r;
}

const char *bx_search_problem_error(const bx_search_problem *p)
{
    return p->error[0] ? p->error : NULL;
}

uint32_t bx_search_nnodes(const bx_search_problem *p) { return p->n; }
uint32_t bx_search_ndevices(const bx_search_problem *p) { return p->ndev; }
size_t bx_search_ncandidates(const bx_search_problem *p) { return p->ncands; }

const uint32_t *bx_search_candidate_nodes(const bx_search_problem *p, size_t c, size_t *n)
{
    bx_assert(c < p->ncands);
    *n = p->cands[c].k;
    return p->cands[c].nodes;
}

uint32_t bx_search_candidate_device(const bx_search_problem *p, size_t c)
{
    bx_assert(c < p->ncands);
    return p->cands[c].dev;
}

double bx_search_candidate_cost(const bx_search_problem *p, size_t c)
{
    bx_assert(c < p->ncands);
    return p->cands[c].cost;
}

uint64_t bx_search_candidate_id(const bx_search_problem *p, size_t c)
{
    bx_assert(c < p->ncands);
    return p->cands[c].id;
}

/* ---- The search's tables -------------------------------------------- */

typedef struct bx_adj {
    uint32_t node;
    double bytes;
} bx_adj;

/* A state's key is an array of 64-bit words:
 *   v, nw, the nw words of P from word v/64 on,
 *   k, the k kept partitions' shape numbers in increasing order,
 *   and with transfers: nb, then nb words (node << 32 | device), by node. */
typedef struct bx_state {
    const uint64_t *key;    /* in search.keys: never moves */
    uint64_t hash;
    double g, h;            /* cost so far; lower bound on the rest */
    uint32_t keylen, parent, via, placed, next_in_layer;
    bool closed;
} bx_state;

typedef struct search {
    const bx_search_problem *p;
    bx_search_result *r;
    bool astar, transfers;
    uint32_t n;
    bx_arena arena;             /* everything sized by the problem */
    /* the DAG */
    uint32_t *soff, *poff;
    bx_adj *succ, *pred;
    uint64_t *up;               /* up(x): words 0 .. x/64 at up + upoff[x] */
    size_t *upoff;
    /* the usable candidates */
    uint32_t *boff, *bucket;    /* by lowest node, in the caller's order */
    uint32_t *shape;            /* candidate -> number of its node set */
    const bx_cand **shapes;     /* shape number -> a candidate with that set */
    uint32_t nshapes;
    double *suffix;             /* sum of m(u) over u >= v */
    double *m;
    /* the states */
    bx_arena keys;
    bx_state *st;
    size_t nst, capst;
    uint64_t *slots;            /* 0 empty, else hash's top half << 32 |
                                   state index + 1: most misses never
                                   touch the state itself */
    size_t nslots;
    bx_heap *heap;
    uint32_t *layer;            /* beam: first state of each layer */
    uint32_t goal;
    uint32_t deepest;           /* highest v of a state expanded */
    /* scratch for an expansion */
    uint64_t *key, *tw;
    uint32_t *devof, *mark, stamp, *queue;
    uint32_t *ucnt, *decst, *decr;  /* boundary: unplaced neighbours, and how
                                       many of them a step places */
    uint8_t *copen;                 /* a step's node keeps an unplaced one */
    uint8_t *rel, *cr, *rc, *keep;
    size_t relcap;
} search;

static bool upbit(const search *s, uint32_t b, uint32_t a)
{
    return (s->up[s->upoff[b] + (a >> 6)] >> (a & 63)) & 1;
}

/* Does some node of a reach some node of b in the DAG?  Both lists are
 * increasing; an ancestor has a lower index. */
static bool reaches(const search *s, const uint32_t *a, uint32_t na,
                    const uint32_t *b, uint32_t nb)
{
    for (uint32_t j = 0; j < nb; j++)
        for (uint32_t i = 0; i < na && a[i] < b[j]; i++)
            if (upbit(s, b[j], a[i]))
                return true;
    return false;
}

static double xfer(const bx_search_problem *p, uint32_t a, uint32_t b, double bytes)
{
    if (a == b)
        return 0;
    size_t i = (size_t)a * p->ndev + b;
    if (!(p->bandwidth[i] > 0) || isinf(p->latency[i]))
        return INFINITY;
    return p->latency[i] + bytes / p->bandwidth[i];
}

static void build_graph(search *s)
{
    const bx_search_problem *p = s->p;
    uint32_t n = s->n;
    s->soff = BX_NEWN(&s->arena, uint32_t, n + 1);
    s->poff = BX_NEWN(&s->arena, uint32_t, n + 1);
    s->succ = BX_NEWN(&s->arena, bx_adj, p->nedges);
    s->pred = BX_NEWN(&s->arena, bx_adj, p->nedges);
    for (size_t e = 0; e < p->nedges; e++) {
        s->soff[p->edges[e].from + 1]++;
        s->poff[p->edges[e].to + 1]++;
    }
    for (uint32_t x = 0; x < n; x++) {
        s->soff[x + 1] += s->soff[x];
        s->poff[x + 1] += s->poff[x];
    }
    uint32_t *sfill = xcalloc(n, sizeof(uint32_t)), *pfill = xcalloc(n, sizeof(uint32_t));
    for (size_t e = 0; e < p->nedges; e++) {
        const bx_edge *ed = &p->edges[e];
        s->succ[s->soff[ed->from] + sfill[ed->from]++] = (bx_adj){ ed->to, ed->bytes };
        s->pred[s->poff[ed->to] + pfill[ed->to]++] = (bx_adj){ ed->from, ed->bytes };
    }
    free(sfill);
    free(pfill);

    /* Ancestor sets in topological order: up(x) is the union of up(q) and
     * {q} over x's predecessors q, all of which come before x. */
    s->upoff = BX_NEWN(&s->arena, size_t, n + 1);
    for (uint32_t x = 0; x < n; x++)
        s->upoff[x + 1] = s->upoff[x] + (x >> 6) + 1;
    s->up = BX_NEWN(&s->arena, uint64_t, s->upoff[n]);
    for (uint32_t x = 0; x < n; x++) {
        uint64_t *row = s->up + s->upoff[x];
        for (uint32_t e = s->poff[x]; e < s->poff[x + 1]; e++) {
            uint32_t q = s->pred[e].node;
            const uint64_t *qrow = s->up + s->upoff[q];
            for (uint32_t w = 0; w <= q >> 6; w++)
                row[w] |= qrow[w];
            row[q >> 6] |= BIT(q);
        }
    }
}

/* A candidate is convex when no node outside it is both a descendant and
 * an ancestor of its nodes.  Such a node lies strictly between its lowest
 * and highest node, so only that range is looked at; anc and mem are zeroed
 * scratch sets of the problem's size, left zeroed. */
static bool convex(const search *s, const bx_cand *c, uint64_t *anc, uint64_t *mem)
{
    if (c->k == 1)
        return true;
    uint32_t lo = c->nodes[0], hi = c->nodes[c->k - 1], wlo = lo >> 6, whi = hi >> 6;
    for (uint32_t i = 0; i < c->k; i++) {
        uint32_t x = c->nodes[i];
        const uint64_t *row = s->up + s->upoff[x];
        for (uint32_t w = wlo; w <= x >> 6; w++)
            anc[w] |= row[w];
        mem[x >> 6] |= BIT(x);
    }
    bool ok = true;
    for (uint32_t w = wlo; w <= whi && ok; w++) {
        uint64_t bits = anc[w] & ~mem[w];
        while (bits && ok) {
            uint32_t x = w * 64 + (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            if (x <= lo || x >= hi)
                continue;
            const uint64_t *row = s->up + s->upoff[x];
            for (uint32_t u = wlo; u <= x >> 6; u++)
                if (row[u] & mem[u]) {
                    ok = false;
                    break;
                }
        }
    }
    for (uint32_t w = wlo; w <= whi; w++)
        anc[w] = mem[w] = 0;
    return ok;
}

static uint64_t shape_hash(const bx_cand *c)
{
    uint64_t h = 0x9e3779b97f4a7c15u * (c->k + 1);
    for (uint32_t i = 0; i < c->k; i++)
        h = (h ^ c->nodes[i]) * 0x100000001b3u;
    return h ^ (h >> 29);
}

/* Keep the usable candidates, bucket them by lowest node, number their
 * node sets and work out the A* bound.  Returns false with r->error set when
 * some node is in no usable candidate. */
static bool prepare_candidates(search *s)
{
    const bx_search_problem *p = s->p;
    bx_search_result *r = s->r;
    uint32_t n = s->n;
    size_t nw = BX_BITSET_WORDS(n);
    uint64_t *anc = xcalloc(nw, sizeof(uint64_t)), *mem = xcalloc(nw, sizeof(uint64_t));
    uint8_t *usable = xcalloc(p->ncands, 1);
    s->m = BX_NEWN(&s->arena, double, n);
    for (uint32_t x = 0; x < n; x++)
        s->m[x] = INFINITY;
    s->boff = BX_NEWN(&s->arena, uint32_t, n + 1);
    for (size_t i = 0; i < p->ncands; i++) {
        const bx_cand *c = &p->cands[i];
        if (isinf(c->cost)) {
            r->skipped_infinite++;
            continue;
        }
        if (!convex(s, c, anc, mem)) {
            r->rejected_nonconvex++;
            continue;
        }
        usable[i] = 1;
        s->boff[c->nodes[0] + 1]++;
        double share = c->cost / c->k;
        for (uint32_t j = 0; j < c->k; j++)
            if (share < s->m[c->nodes[j]])
                s->m[c->nodes[j]] = share;
    }
    free(anc);
    free(mem);
    for (uint32_t x = 0; x < n; x++) {
        if (isinf(s->m[x])) {
            bool any = false;
            for (size_t i = 0; i < p->ncands && !any; i++)
                for (uint32_t j = 0; j < p->cands[i].k; j++)
                    any |= p->cands[i].nodes[j] == x;
            snprintf(r->error, sizeof r->error,
                     any ? "node %u is in no usable candidate (each one that holds it "
                           "is non-convex or has infinite cost)"
                         : "node %u is in no candidate", x);
            free(usable);
            return false;
        }
        s->boff[x + 1] += s->boff[x];
    }
    s->suffix = BX_NEWN(&s->arena, double, n + 1);
    for (uint32_t x = n; x-- > 0;)
        s->suffix[x] = s->suffix[x + 1] + s->m[x];

    /* Buckets, and shape numbers through a small open-addressing table. */
    s->bucket = BX_NEWN(&s->arena, uint32_t, s->boff[n]);
    s->shape = BX_NEWN(&s->arena, uint32_t, p->ncands);
    s->shapes = BX_NEWN(&s->arena, const bx_cand *, s->boff[n]);
    uint32_t *fill = xcalloc(n, sizeof(uint32_t));
    size_t tcap = 16;
    while (tcap < 2 * (size_t)s->boff[n])
        tcap *= 2;
    uint32_t *table = xcalloc(tcap, sizeof(uint32_t));
    for (size_t i = 0; i < p->ncands; i++) {
        if (!usable[i])
            continue;
        const bx_cand *c = &p->cands[i];
        s->bucket[s->boff[c->nodes[0]] + fill[c->nodes[0]]++] = (uint32_t)i;
        size_t slot = shape_hash(c) & (tcap - 1);
        for (;; slot = (slot + 1) & (tcap - 1)) {
            if (!table[slot]) {
                s->shapes[s->nshapes] = c;
                table[slot] = ++s->nshapes;
                break;
            }
            const bx_cand *o = s->shapes[table[slot] - 1];
            if (o->k == c->k && !memcmp(o->nodes, c->nodes, c->k * sizeof(uint32_t)))
                break;
        }
        s->shape[i] = table[slot] - 1;
    }
    free(table);
    free(fill);
    free(usable);
    return true;
}

static void prepare(search *s)
{
    const bx_search_problem *p = s->p;
    s->transfers = false;
    for (uint32_t a = 0; a < p->ndev; a++)
        for (uint32_t b = 0; b < p->ndev; b++) {
            size_t i = (size_t)a * p->ndev + b;
            if (a != b && (p->latency[i] != 0 || !isinf(p->bandwidth[i])))
                s->transfers = true;
        }
    size_t nw = BX_BITSET_WORDS(s->n);
    /* A key holds at most: 4 counts, a window of nw + 1 words, one shape per
     * placed partition and one word per placed node. */
    s->key = BX_NEWN(&s->arena, uint64_t, 4 + nw + 1 + 2 * (size_t)s->n);
    s->tw = BX_NEWN(&s->arena, uint64_t, nw + 1);
    s->devof = BX_NEWN(&s->arena, uint32_t, s->n);
    s->mark = BX_NEWN(&s->arena, uint32_t, s->n);
    s->ucnt = BX_NEWN(&s->arena, uint32_t, s->n);
    s->decst = BX_NEWN(&s->arena, uint32_t, s->n);
    s->decr = BX_NEWN(&s->arena, uint32_t, s->n);
    s->copen = BX_NEWN(&s->arena, uint8_t, s->n);
    s->heap = bx_heap_create();
    bx_arena_init(&s->keys);
    s->goal = NONE;
}

/* ---- States ----------------------------------------------------------- */

static void reset_states(search *s)
{
    bx_arena_free(&s->keys);
    bx_arena_init(&s->keys);
    s->nst = 0;
    if (s->slots)
        memset(s->slots, 0, s->nslots * sizeof(uint64_t));
    bx_heap_clear(s->heap);
    s->goal = NONE;
}

static void rehash(search *s)
{
    size_t cap = s->nslots ? s->nslots * 2 : 1024;
    uint64_t *slots = xcalloc(cap, sizeof(uint64_t));
    for (size_t i = 0; i < s->nst; i++) {
        size_t j = s->st[i].hash & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = (s->st[i].hash & 0xffffffff00000000u) | (i + 1);
    }
    free(s->slots);
    s->slots = slots;
    s->nslots = cap;
}

/* The state whose key is s->key[0 .. len), made if new (*fresh). */
static uint32_t intern(search *s, uint32_t len, bool *fresh)
{
    uint64_t h = bx_bits_hash(s->key, len);
    if ((s->nst + 1) * 2 > s->nslots)
        rehash(s);
    size_t mask = s->nslots - 1, j = h & mask;
    for (; s->slots[j]; j = (j + 1) & mask) {
        if ((s->slots[j] ^ h) >> 32)
            continue;
        uint32_t i = (uint32_t)s->slots[j] - 1;
        const bx_state *t = &s->st[i];
        if (t->hash == h && t->keylen == len && !memcmp(t->key, s->key, len * sizeof(uint64_t))) {
            *fresh = false;
            return i;
        }
    }
    if (s->nst >= NONE - 1)
        bx_die("too many search states");
    s->st = grow(s->st, &s->capst, s->nst + 1, sizeof(*s->st));
    uint32_t idx = (uint32_t)s->nst++;
    s->st[idx] = (bx_state){
        .key = bx_arena_memdup(&s->keys, s->key, len * sizeof(uint64_t)),
        .hash = h, .keylen = len, .parent = NONE, .via = NONE, .next_in_layer = NONE,
    };
    s->slots[j] = (h & 0xffffffff00000000u) | ((uint64_t)idx + 1);
    *fresh = true;
    s->r->generated++;
    return idx;
}

static double priority(const search *s, const bx_state *t)
{
    return s->astar ? t->g + t->h : t->g;
}

/* A step to the state in s->key: record it if it is the cheapest way there
 * so far, and queue the state (Dijkstra) or file it in its layer (beam). */
static void relax(search *s, uint32_t len, double g, double h, uint32_t parent,
                  uint32_t via, uint32_t placed, bool beam)
{
    bool fresh;
    uint32_t i = intern(s, len, &fresh);
    bx_state *t = &s->st[i];
    if (!fresh && !(g < t->g))
        return;
    t->g = g;
    t->parent = parent;
    t->via = via;
    /* The cheapest complete placement made so far (there is one complete
     * state, but nothing depends on that). */
    if (s->key[0] == s->n && (s->goal == NONE || g < s->st[s->goal].g))
        s->goal = i;
    if (fresh) {
        t->h = h;
        t->placed = placed;
        if (beam) {
            t->next_in_layer = s->layer[placed];
            s->layer[placed] = i;
        }
    }
    if (!beam) {
        /* With a consistent bound a closed state never improves; reopening
         * one costs nothing when it does not happen and keeps the result
         * exact if rounding ever makes it happen. */
        t->closed = false;
        bx_heap_push(s->heap, priority(s, t), i);
    }
}

/* ---- Expanding a state ------------------------------------------------ */

static bool in_window(const uint64_t *w, uint32_t nw, uint32_t base, uint32_t y)
{
    uint32_t wi = (y >> 6) - base;
    return y >> 6 >= base && wi < nw && (w[wi] & BIT(y));
}

/* Is y placed, in a state whose lowest unplaced node is v? */
static bool placed_in(const uint64_t *w, uint32_t nw, uint32_t v, uint32_t y)
{
    return y < v || in_window(w, nw, v >> 6, y);
}

/* The successors of state si: one per usable candidate at its lowest
 * unplaced node that misses the placed set, closes no cycle and needs no
 * missing link. */
static void expand(search *s, uint32_t si, bool beam)
{
    const bx_search_problem *p = s->p;
    /* Copy what is needed: relax may move s->st; keys never move. */
    const uint64_t *key = s->st[si].key;
    double g = s->st[si].g;
    uint32_t placed = s->st[si].placed;
    uint32_t v = (uint32_t)key[0], nw = (uint32_t)key[1], base = v >> 6, n = s->n;
    const uint64_t *pw = key + 2;
    uint32_t k = (uint32_t)key[2 + nw];
    const uint64_t *live = key + 3 + nw;
    uint32_t nb = 0;
    const uint64_t *bd = NULL;
    if (s->transfers) {
        nb = (uint32_t)key[3 + nw + k];
        bd = key + 4 + nw + k;
        for (uint32_t j = 0; j < nb; j++) {
            uint32_t y = (uint32_t)(bd[j] >> 32), cnt = 0;
            s->devof[y] = (uint32_t)bd[j];
            for (uint32_t e = s->soff[y]; e < s->soff[y + 1]; e++)
                cnt += !placed_in(pw, nw, v, s->succ[e].node);
            for (uint32_t e = s->poff[y]; e < s->poff[y + 1]; e++)
                cnt += !placed_in(pw, nw, v, s->pred[e].node);
            s->ucnt[y] = cnt;
        }
    }
    if (v > s->deepest)
        s->deepest = v;

    /* Reachability among the kept partitions, the same for every step. */
    if ((size_t)(k + 1) * (k + 1) > s->relcap) {
        size_t cap = (size_t)(k + 1) * (k + 1) * 2;
        s->rel = BX_NEWN(&s->arena, uint8_t, cap);
        s->cr = BX_NEWN(&s->arena, uint8_t, k + 1);
        s->rc = BX_NEWN(&s->arena, uint8_t, k + 1);
        s->keep = BX_NEWN(&s->arena, uint8_t, k + 1);
        s->queue = BX_NEWN(&s->arena, uint32_t, k + 1);
        s->relcap = cap;
    }
    for (uint32_t j = 0; j < k; j++)
        for (uint32_t i = 0; i < k; i++) {
            const bx_cand *a = s->shapes[live[j]], *b = s->shapes[live[i]];
            s->rel[j * k + i] = i != j && reaches(s, a->nodes, a->k, b->nodes, b->k);
        }

    for (uint32_t bi = s->boff[v]; bi < s->boff[v + 1]; bi++) {
        uint32_t ci = s->bucket[bi];
        const bx_cand *c = &p->cands[ci];
        const uint32_t *cn = c->nodes;
        uint32_t ck = c->k;

        bool overlaps = false;
        for (uint32_t j = 1; j < ck && !overlaps; j++)
            overlaps = in_window(pw, nw, base, cn[j]);
        if (overlaps)
            continue;
        if (++s->stamp == 0) {
            memset(s->mark, 0, n * sizeof(uint32_t));
            memset(s->decst, 0, n * sizeof(uint32_t));
            s->stamp = 1;
        }
        for (uint32_t j = 0; j < ck; j++)
            s->mark[cn[j]] = s->stamp;

        /* Transfers settled by this step: edges with one end in C and the
         * other already placed.  On the way, count the edges that stop
         * keeping each placed neighbour open and note which of C's nodes
         * keep an unplaced neighbour, for the new state's device list. */
        double t = 0;
        if (s->transfers) {
            for (uint32_t j = 0; j < ck; j++) {
                uint32_t x = cn[j];
                bool open = false;
                for (int dir = 0; dir < 2; dir++) {
                    const bx_adj *adj = dir ? s->pred : s->succ;
                    const uint32_t *off = dir ? s->poff : s->soff;
                    for (uint32_t e = off[x]; e < off[x + 1]; e++) {
                        uint32_t y = adj[e].node;
                        if (s->mark[y] == s->stamp)
                            continue;
                        if (!placed_in(pw, nw, v, y)) {
                            open = true;
                            continue;
                        }
                        t += dir ? xfer(p, s->devof[y], c->dev, adj[e].bytes)
                                 : xfer(p, c->dev, s->devof[y], adj[e].bytes);
                        if (s->decst[y] != s->stamp) {
                            s->decst[y] = s->stamp;
                            s->decr[y] = 0;
                        }
                        s->decr[y]++;
                    }
                }
                s->copen[j] = open;
            }
            if (isinf(t))
                continue;
        }

        /* Cycle: C reaches kept partitions, they reach others, and one of
         * those reaches C. */
        if (k) {
            uint32_t qn = 0;
            bool cyclic = false;
            for (uint32_t j = 0; j < k; j++) {
                const bx_cand *x = s->shapes[live[j]];
                s->cr[j] = reaches(s, cn, ck, x->nodes, x->k);
                s->rc[j] = reaches(s, x->nodes, x->k, cn, ck);
                s->keep[j] = s->cr[j];
                if (s->cr[j])
                    s->queue[qn++] = j;
            }
            for (uint32_t qi = 0; qi < qn && !cyclic; qi++) {
                uint32_t j = s->queue[qi];
                cyclic = s->rc[j];
                for (uint32_t i = 0; i < k; i++)
                    if (!s->keep[i] && s->rel[j * k + i]) {
                        s->keep[i] = 1;
                        s->queue[qn++] = i;
                    }
            }
            if (cyclic) {
                s->r->rejected_cyclic++;
                continue;
            }
        }

        /* The new placed set, in the old window's coordinates. */
        uint32_t top = (cn[ck - 1] >> 6) - base + 1;
        if (top < nw)
            top = nw;
        uint64_t *tw = s->tw;
        for (uint32_t i = 0; i < top; i++)
            tw[i] = i < nw ? pw[i] : 0;
        for (uint32_t j = 0; j < ck; j++)
            tw[(cn[j] >> 6) - base] |= BIT(cn[j]);
        uint32_t v2, wi = 0;
        uint64_t free_bits = ~tw[0] & (~(uint64_t)0 << (v & 63));
        while (!free_bits && ++wi < top)
            free_bits = ~tw[wi];
        v2 = free_bits ? (base + wi) * 64 + (uint32_t)__builtin_ctzll(free_bits)
                       : (base + top) * 64;
        if (v2 > n)
            v2 = n;
        uint32_t base2 = v2 >> 6, shift = base2 - base, nw2 = 0;
        if (v2 < n) {
            nw2 = shift < top ? top - shift : 0;
            while (nw2 && tw[shift + nw2 - 1] == 0)
                nw2--;
        }

        uint64_t *o = s->key;
        uint32_t len = 0;
        o[len++] = v2;
        o[len++] = nw2;
        double h = 0;
        if (v2 < n) {
            h = s->suffix[v2];
            for (uint32_t i = 0; i < nw2; i++) {
                uint64_t bits = tw[shift + i];
                o[len++] = bits;
                if (i == 0)
                    bits &= ~(uint64_t)0 << (v2 & 63);
                for (; bits; bits &= bits - 1)
                    h -= s->m[(base2 + i) * 64 + (uint32_t)__builtin_ctzll(bits)];
            }
            if (h < 0)
                h = 0;
        }

        /* Kept partitions: those reachable from an unplaced node, directly
         * (an unplaced ancestor) or through another kept partition.  Item k
         * is C itself. */
        uint32_t nkept = 0;
        if (v2 < n) {
            for (uint32_t j = 0; j <= k; j++) {
                const bx_cand *x = j < k ? s->shapes[live[j]] : c;
                bool direct = false;
                for (uint32_t a = x->k; a-- > 0 && !direct;) {
                    uint32_t y = x->nodes[a];
                    if (y <= v2)
                        break;
                    const uint64_t *row = s->up + s->upoff[y];
                    for (uint32_t w = base2; w <= y >> 6 && !direct; w++) {
                        uint64_t pl = w - base < top ? tw[w - base] : 0;
                        direct = (row[w] & ~pl) != 0;
                    }
                }
                s->keep[j] = direct;
            }
            for (bool changed = true; changed;) {
                changed = false;
                for (uint32_t j = 0; j <= k; j++) {
                    if (!s->keep[j])
                        continue;
                    for (uint32_t i = 0; i <= k; i++) {
                        if (s->keep[i] || i == j)
                            continue;
                        bool r = j == k ? s->cr[i] : i == k ? s->rc[j] : s->rel[j * k + i];
                        if (r) {
                            s->keep[i] = 1;
                            changed = true;
                        }
                    }
                }
            }
        }
        uint32_t kslot = len++, cshape = s->shape[ci];
        bool cdone = v2 >= n || !s->keep[k];
        for (uint32_t j = 0; j < k && v2 < n; j++) {
            if (!cdone && cshape < live[j]) {
                o[len++] = cshape;
                cdone = true;
                nkept++;
            }
            if (s->keep[j]) {
                o[len++] = live[j];
                nkept++;
            }
        }
        if (!cdone) {
            o[len++] = cshape;
            nkept++;
        }
        o[kslot] = nkept;

        /* Devices of placed nodes that still have an unplaced neighbour:
         * the old ones and C's, merged by node. */
        if (s->transfers) {
            uint32_t bslot = len++, nb2 = 0, a = 0, b = 0;
            while (v2 < n && (a < nb || b < ck)) {
                uint32_t y, dev;
                bool open;
                if (b == ck || (a < nb && (bd[a] >> 32) < cn[b])) {
                    y = (uint32_t)(bd[a] >> 32);
                    dev = (uint32_t)bd[a++];
                    open = s->ucnt[y] > (s->decst[y] == s->stamp ? s->decr[y] : 0);
                } else {
                    y = cn[b];
                    dev = c->dev;
                    open = s->copen[b++];
                }
                if (open) {
                    o[len++] = (uint64_t)y << 32 | dev;
                    nb2++;
                }
            }
            o[bslot] = nb2;
        }
        relax(s, len, g + c->cost + t, h, si, ci, placed + ck, beam);
    }
}

/* ---- Drivers ---------------------------------------------------------- */

static void push_root(search *s, bool beam)
{
    uint32_t len = 0;
    s->key[len++] = 0;     /* v */
    s->key[len++] = 0;     /* no window */
    s->key[len++] = 0;     /* no partitions */
    if (s->transfers)
        s->key[len++] = 0; /* no devices */
    double h = s->suffix[0];
    relax(s, len, 0, h, NONE, NONE, 0, beam);
}

/* Dijkstra or A*; returns false when the budget ran out first. */
static bool exact(search *s, size_t max_states)
{
    push_root(s, false);
    double f;
    uint32_t si;
    while (bx_heap_pop(s->heap, &f, &si)) {
        bx_state *t = &s->st[si];
        if (t->closed || f != priority(s, t))
            continue;
        if (t->key[0] == s->n) {
            s->goal = si;
            return true;
        }
        if (max_states && s->nst > max_states)
            return false;
        t->closed = true;
        s->r->expanded++;
        expand(s, si, false);
    }
    return true;
}

typedef struct ranked {
    double f;
    uint32_t i;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->f != y->f)
        return x->f < y->f ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* The bounded beam, from scratch: layer by layer, the best width states. */
static void beam(search *s, size_t width)
{
    reset_states(s);
    s->layer = BX_NEWN(&s->arena, uint32_t, s->n + 1);
    for (uint32_t l = 0; l <= s->n; l++)
        s->layer[l] = NONE;
    push_root(s, true);
    ranked *rk = NULL;
    size_t cap = 0;
    for (uint32_t l = 0; l < s->n; l++) {
        size_t cnt = 0;
        for (uint32_t i = s->layer[l]; i != NONE; i = s->st[i].next_in_layer) {
            rk = grow(rk, &cap, cnt + 1, sizeof(*rk));
            rk[cnt++] = (ranked){ s->st[i].g + s->st[i].h, i };
        }
        qsort(rk, cnt, sizeof(*rk), cmp_ranked);
        for (size_t j = 0; j < cnt && j < width; j++) {
            s->st[rk[j].i].closed = true;
            s->r->expanded++;
            expand(s, rk[j].i, true);
        }
    }
    free(rk);
}

/* The candidates on the path to state goal, in the order placed. */
static uint32_t *path_to(const search *s, uint32_t goal, size_t *count)
{
    size_t c = 0;
    for (uint32_t i = goal; s->st[i].parent != NONE; i = s->st[i].parent)
        c++;
    uint32_t *chosen = xcalloc(c, sizeof(uint32_t));
    size_t j = c;
    for (uint32_t i = goal; s->st[i].parent != NONE; i = s->st[i].parent)
        chosen[--j] = s->st[i].via;
    *count = c;
    return chosen;
}

/* A placement's cost recomputed from scratch: candidates, then edges in
 * the order given. */
static double placement_cost(const search *s, const uint32_t *chosen, size_t count,
                             double *transfer)
{
    const bx_search_problem *p = s->p;
    uint32_t *dev = xcalloc(s->n, sizeof(uint32_t));
    double total = 0, t = 0;
    for (size_t i = 0; i < count; i++) {
        const bx_cand *c = &p->cands[chosen[i]];
        total += c->cost;
        for (uint32_t j = 0; j < c->k; j++)
            dev[c->nodes[j]] = c->dev;
    }
    for (size_t e = 0; e < p->nedges; e++)
        t += xfer(p, dev[p->edges[e].from], dev[p->edges[e].to], p->edges[e].bytes);
    free(dev);
    *transfer = t;
    return total + t;
}

bx_search_result *bx_search_run(const bx_search_problem *p, const bx_search_options *opt)
{
    static const bx_search_options defaults = { 0 };
    if (!opt)
        opt = &defaults;
    bx_search_result *r = xcalloc(1, sizeof(*r));
    if (p->error[0]) {
        snprintf(r->error, sizeof r->error, "%s", p->error);
        return r;
    }
    if (p->n == 0) {
        r->ok = r->optimal = true;
        return r;
    }
    search s = { .p = p, .r = r, .astar = opt->astar, .n = p->n };
    bx_arena_init(&s.arena);
    build_graph(&s);
    if (!prepare_candidates(&s)) {
        bx_arena_free(&s.arena);
        return r;
    }
    prepare(&s);

    uint32_t *chosen = NULL;
    size_t nchosen = 0;
    if (exact(&s, opt->max_states)) {
        r->optimal = s.goal != NONE;
        if (s.goal != NONE)
            chosen = path_to(&s, s.goal, &nchosen);
        else
            snprintf(r->error, sizeof r->error,
                     "no valid placement: every cover by these candidates closes a cycle "
                     "or needs a missing link (no partial placement gets past node %u)",
                     s.deepest);
    } else {
        r->budget_hit = true;
        double best = INFINITY, tr;
        if (s.goal != NONE) {   /* complete, though not proven cheapest */
            chosen = path_to(&s, s.goal, &nchosen);
            best = placement_cost(&s, chosen, nchosen, &tr);
        }
        size_t width = opt->beam_width ? opt->beam_width : 64;
        beam(&s, width);
        if (s.goal != NONE) {
            size_t nb;
            uint32_t *b = path_to(&s, s.goal, &nb);
            if (placement_cost(&s, b, nb, &tr) < best) {
                free(chosen);
                chosen = b;
                nchosen = nb;
            } else {
                free(b);
            }
        }
        if (!chosen)
            snprintf(r->error, sizeof r->error,
                     "no placement found: the state budget (%zu) ran out and the beam "
                     "(width %zu) found no complete placement", opt->max_states, width);
    }
    if (chosen) {
        r->ok = true;
        r->chosen = chosen;
        r->nchosen = nchosen;
        r->cost = placement_cost(&s, chosen, nchosen, &r->transfer_cost);
    }
    bx_heap_destroy(s.heap);
    bx_arena_free(&s.keys);
    bx_arena_free(&s.arena);
    free(s.st);
    free(s.slots);
    return r;
}

void bx_search_result_destroy(bx_search_result *r)
{
    if (!r)
        return;
    free(r->chosen);
    free(r);
}

/* ---- The independent checker ------------------------------------------ */

/* Written the slow, obvious way and sharing nothing with the search above:
 * an owner per node, a depth-first search per partition for convexity, the
 * quotient graph built explicitly and emptied by Kahn's algorithm. */
__attribute__((format(printf, 3, 4)))
static const char *fail(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return buf;
}

const char *bx_search_check(const bx_search_problem *p, const uint32_t *chosen,
                            size_t nchosen, double *total, char *buf, size_t bufsize)
{
    uint32_t n = p->n;
    const char *err = NULL;
    uint32_t *owner = xcalloc(n, sizeof(uint32_t));
    uint32_t *adjoff = xcalloc((size_t)n + 1, sizeof(uint32_t));
    uint32_t *adj = xcalloc(p->nedges, sizeof(uint32_t));
    uint32_t *seen = xcalloc(n, sizeof(uint32_t));
    uint32_t *stack = xcalloc(n, sizeof(uint32_t));
    size_t np = nchosen;
    uint32_t *indeg = xcalloc(np, sizeof(uint32_t));
    uint32_t *order = xcalloc(np, sizeof(uint32_t));

    for (uint32_t x = 0; x < n; x++)
        owner[x] = NONE;
    for (size_t i = 0; i < np && !err; i++) {
        if (chosen[i] >= p->ncands) {
            err = fail(buf, bufsize, "candidate %u does not exist", chosen[i]);
            break;
        }
        const bx_cand *c = &p->cands[chosen[i]];
        if (isinf(c->cost))
            err = fail(buf, bufsize, "candidate %u has infinite cost", chosen[i]);
        for (uint32_t j = 0; j < c->k && !err; j++) {
            uint32_t x = c->nodes[j];
            if (owner[x] != NONE)
                err = fail(buf, bufsize, "node %u is placed twice (candidates %u and %u)",
                           x, chosen[owner[x]], chosen[i]);
            owner[x] = (uint32_t)i;
        }
    }
    for (uint32_t x = 0; x < n && !err; x++)
        if (owner[x] == NONE)
            err = fail(buf, bufsize, "node %u is not placed", x);

    /* Successor lists. */
    for (size_t e = 0; e < p->nedges; e++)
        adjoff[p->edges[e].from + 1]++;
    for (uint32_t x = 0; x < n; x++)
        adjoff[x + 1] += adjoff[x];
    uint32_t *fill = xcalloc(n, sizeof(uint32_t));
    for (size_t e = 0; e < p->nedges; e++)
        adj[adjoff[p->edges[e].from] + fill[p->edges[e].from]++] = p->edges[e].to;
    free(fill);

    /* Convexity: nothing reachable from outside successors gets back in. */
    for (size_t i = 0; i < np && !err; i++) {
        const bx_cand *c = &p->cands[chosen[i]];
        uint32_t sp = 0, mark = (uint32_t)i + 1;
        for (uint32_t j = 0; j < c->k; j++)
            for (uint32_t e = adjoff[c->nodes[j]]; e < adjoff[c->nodes[j] + 1]; e++) {
                uint32_t y = adj[e];
                if (owner[y] != i && seen[y] != mark) {
                    seen[y] = mark;
                    stack[sp++] = y;
                }
            }
        while (sp && !err) {
            uint32_t y = stack[--sp];
            for (uint32_t e = adjoff[y]; e < adjoff[y + 1] && !err; e++) {
                uint32_t z = adj[e];
                if (owner[z] == i)
                    err = fail(buf, bufsize, "candidate %u is not convex: a path leaves it "
                               "and re-enters at node %u through node %u", chosen[i], z, y);
                else if (seen[z] != mark) {
                    seen[z] = mark;
                    stack[sp++] = z;
                }
            }
        }
    }

    /* The quotient graph must be acyclic: Kahn's algorithm over one arc
     * per DAG edge between two partitions (repeats do no harm: each is
     * counted in and taken out once). */
    if (!err) {
        uint32_t *qoff = xcalloc(np + 1, sizeof(uint32_t));
        uint32_t *qarc = xcalloc(p->nedges, sizeof(uint32_t));
        uint32_t *qfill = xcalloc(np, sizeof(uint32_t));
        for (size_t e = 0; e < p->nedges; e++) {
            uint32_t a = owner[p->edges[e].from], b = owner[p->edges[e].to];
            if (a != b) {
                qoff[a + 1]++;
                indeg[b]++;
            }
        }
        for (size_t i = 0; i < np; i++)
            qoff[i + 1] += qoff[i];
        for (size_t e = 0; e < p->nedges; e++) {
            uint32_t a = owner[p->edges[e].from], b = owner[p->edges[e].to];
            if (a != b)
                qarc[qoff[a] + qfill[a]++] = b;
        }
        size_t head = 0, tail = 0;
        for (size_t i = 0; i < np; i++)
            if (!indeg[i])
                order[tail++] = (uint32_t)i;
        while (head < tail) {
            uint32_t a = order[head++];
            for (uint32_t e = qoff[a]; e < qoff[a + 1]; e++)
                if (--indeg[qarc[e]] == 0)
                    order[tail++] = qarc[e];
        }
        for (size_t i = 0; i < np && tail < np && !err; i++)
            if (indeg[i])
                err = fail(buf, bufsize, "the partition graph has a cycle through "
                           "candidate %u", chosen[i]);
        free(qoff);
        free(qarc);
        free(qfill);
    }

    /* The cost, recomputed. */
    if (!err) {
        double sum = 0;
        for (size_t i = 0; i < np; i++)
            sum += p->cands[chosen[i]].cost;
        for (size_t e = 0; e < p->nedges && !err; e++) {
            const bx_edge *ed = &p->edges[e];
            uint32_t a = p->cands[chosen[owner[ed->from]]].dev;
            uint32_t b = p->cands[chosen[owner[ed->to]]].dev;
            if (a == b)
                continue;
            double lat = p->latency[(size_t)a * p->ndev + b];
            double bw = p->bandwidth[(size_t)a * p->ndev + b];
            if (bw == 0 || lat == INFINITY)
                err = fail(buf, bufsize, "edge %u->%u needs a link from device %u to "
                           "device %u, and there is none", ed->from, ed->to, a, b);
            else
                sum += lat + ed->bytes / bw;
        }
        if (!err && total)
            *total = sum;
    }
    free(owner);
    free(adjoff);
    free(adj);
    free(seen);
    free(stack);
    free(indeg);
    free(order);
    return err;
}
