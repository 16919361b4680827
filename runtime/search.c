/* The placement search: the cheapest acyclic exact cover, by Dijkstra or A*
 * over partial placements (Collage's formulation, doc/partitioner.md section 4).
 *
 * Nodes are numbered topologically.  From a partial placement with placed
 * set P the next node is v, the lowest unplaced one; every candidate whose
 * lowest node is v and which misses P is a step, weighted by its cost plus
 * the transfers it settles.  A candidate holding v and missing P has v as
 * its lowest node, so bucketing candidates by lowest node finds exactly the
 * steps, and each cover is reached along one path.
 *
 * The one idea needed to read the rest is what a state must hold so that
 * two partial placements with equal states have the same future, which is
 * what makes merging them (hash-consing) exact:
 *
 * - P.  Every node below v is placed, so the key holds v and the words of P
 *   from v's word on: a short window.
 *
 * - The footprints of the chosen partitions (see fp_step): which unplaced
 *   nodes they connect, as pairs of sets (P, S) meaning every node of P
 *   reaches every node of S through chosen partitions.  Adding C closes a
 *   cycle iff the quotient graph (each chosen partition contracted) with C
 *   contracted has a path out of C and back, and such a path can only pass
 *   a partition from one of its entries to one of its exits; so the
 *   footprints say all the future needs to know about the partitions, and
 *   placements whose partitions differ but connect the same open nodes
 *   merge.  A partition no open node reaches, or that reaches none, leaves
 *   no footprint.  Paths through several partitions are folded in when a
 *   kernel C is placed: a footprint whose S meets C (its partitions feed
 *   C) gains C's exits, and C's own footprint takes as exits the S of
 *   every footprint whose P meets C (C feeds those partitions).
 *
 * - The device of each placed node with an unplaced neighbour: an edge is
 *   charged when its second end is placed, at the first end's device.
 *   States differing only there are compared for dominance (see below).
 *   Only when two devices that run candidates have a link.
 *
 * Reachability between small node sets uses each node's ancestors within a
 * band of BAND words (build_graph), and a bounded search past it.
 *
 * A*'s bound (bound_tables) sums, over unplaced nodes u, m_v(u): the least
 * cost(D)/|D| over candidates D holding u whose lowest node is v or later.
 * Admissible, since a completion uses only such candidates, and consistent.
 *
 * Past the budget (states or time) the exact search stops, the least open
 * priority being a proven lower bound, and a beam starts over, layered by
 * the number of nodes placed (a step adds at least one) and expanding the
 * best beam_width states of each layer.  A singleton never closes a cycle
 * (contracting one node changes no graph), so when every node has a
 * singleton candidate and every link exists, each expanded state has a
 * successor and the beam ends with a complete placement.  Out of memory
 * anywhere in the search ends it with an error (the setjmp in guarded). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "search.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "die.h"
#include "heap.h"

#define NONE UINT32_MAX
#define BIT(i) ((uint64_t)1 << ((i) & 63))
/* Words of ancestors each node keeps before its own (see build_graph). */
#define BAND 8

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
        bx_oom();
    *cap = c;
    return ptr;
}

static void *xcalloc(size_t n, size_t size)
{
    void *ptr = calloc(n ? n : 1, size);
    if (!ptr)
        bx_oom();
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
 *   fw, then fw words of footprints (see fp_step),
 *   and with transfers: nb, then nb words (node << 32 | device), by node. */
typedef struct bx_state {
    const uint64_t *key;    /* in search.keys: never moves */
    uint64_t hash;
    double g, h;            /* cost so far; lower bound on the rest */
    uint32_t keylen, parent, via, placed, next_in_layer, next_in_group;
    bool closed;
    bool dominated;         /* another state of its group is at least as good */
} bx_state;

/* A footprint: the open entries (unplaced nodes with an edge into some
 * chosen partitions) and exits (unplaced nodes those partitions, or the
 * partitions they feed, have an edge to).  See fp_step. */
typedef struct fp_view {
    const uint32_t *p, *s;
    uint32_t np, ns;
} fp_view;

typedef struct fp_new {
    size_t p, s;        /* offsets into search.nl */
    uint32_t np, ns;
} fp_new;

typedef struct search {
    const bx_search_problem *p;
    bx_search_result *r;
    bool astar, transfers;
    uint32_t n;
    void **owned;               /* the tables below, freed with the search:
                                   each its own block, so that sanitizers
                                   and valgrind see every overrun */
    size_t nowned, capowned;
    /* the DAG */
    uint32_t *soff, *poff;
    bx_adj *succ, *pred;
    uint64_t *band;             /* x's ancestors in words x/64 - BAND ..
                                   x/64, at band + x * (BAND + 1) */
    uint32_t *rmark, rstamp, *rqueue;   /* reachability past the band */
    /* the usable candidates */
    uint32_t *boff, *bucket;    /* by lowest node, in the caller's order */
    /* The A* bound (see bound_tables): for each v, the sum over u >= v of
     * m_v(u) (fin) and how many u >= v have no candidate starting at v or
     * later (ninf); for each u, the steps of m_v(u). */
    double *tfin, *rval;
    double *w;                  /* each node's weight in a candidate's cost */
    uint32_t *tinf, *rv;
    size_t *roff;
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
    uint64_t *gslots;           /* groups: as slots, pointing to the newest */
    size_t ngslots, ngroups;
    uint64_t *gkey;             /* scratch: a key with its devices masked */
    uint32_t *layer;            /* beam: first state of each layer */
    uint32_t goal;
    uint32_t deepest;           /* highest v of a state expanded */
    /* scratch for an expansion */
    uint64_t *key, *tw;
    uint32_t *devof, *mark, stamp, *queue;
    uint32_t *ucnt, *decst, *decr;  /* boundary: unplaced neighbours, and how
                                       many of them a step places */
    uint8_t *copen;                 /* a step's node keeps an unplaced one */
    uint8_t *rel, *cr, *rc, *keep;  /* for kcap footprints */
    size_t kcap;
    size_t keycap;                  /* words of key */
    struct fp_view *fpv;            /* the expanded state's footprints */
    uint32_t *fpbuf;                /* ... their nodes */
    size_t fpbufcap;
    uint32_t *nl;                   /* a step's new footprints' nodes */
    size_t nlcap;
    struct fp_new *fn, *fnm;        /* ... and the footprints, merged */
    size_t fncap;
    uint32_t *ord, *ord2;           /* ... in key order, and scratch */
    uint32_t *mark2, stamp2;
    /* running out of memory, or of state numbers, ends the search here */
    jmp_buf fail;
    /* the budget */
    double deadline;            /* monotonic seconds; 0: none */
    /* the beam: a trail of its expanded states (parent's trail entry, the
     * candidate taken), so that other states can be dropped */
    struct trail { uint32_t parent, via; } *trail;
    size_t ntrail, captrail;
    uint32_t cur_parent;        /* what relax records as a new state's parent */
    size_t compact_at;          /* key bytes past which the beam compacts */
    struct ranked *rk;
    size_t caprk;
    uint32_t *chosen;           /* a placement being built */
    bx_search_options opt;
} search;

/* Allocation during a search: running out of memory ends it with an
 * error (bx_search_run's setjmp), after which search_free releases what it
 * holds; so every block a search allocates is reachable from it. */
static _Noreturn void out_of_memory(search *s)
{
    longjmp(s->fail, 1);
}

static void *s_calloc(search *s, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        out_of_memory(s);
    void *ptr = calloc(n ? n : 1, size ? size : 1);
    if (!ptr)
        out_of_memory(s);
    return ptr;
}

static void *s_realloc(search *s, void *ptr, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        out_of_memory(s);
    size_t bytes = n * size;
    void *q = realloc(ptr, bytes ? bytes : 1);
    if (!q)
        out_of_memory(s);
    return q;
}

/* *ptr grown to hold need elements (capacity doubling). */
static void s_grow(search *s, void **ptr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return;
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            out_of_memory(s);
        c *= 2;
    }
    *ptr = s_realloc(s, *ptr, c, elem);
    *cap = c;
}

/* Zeroed memory that lives as long as the search. */
static void *scratch(search *s, size_t size)
{
    s_grow(s, (void **)&s->owned, &s->capowned, s->nowned + 1, sizeof(void *));
    void *ptr = s_calloc(s, size ? size : 1, 1);
    return s->owned[s->nowned++] = ptr;
}
#define NEWN(s, T, n) ((T *)scratch((s), sizeof(T) * (size_t)(n)))

static void search_free(search *s)
{
    for (size_t i = 0; i < s->nowned; i++)
        free(s->owned[i]);
    free(s->owned);
    bx_heap_destroy(s->heap);
    bx_arena_free(&s->keys);
    free(s->st);
    free(s->slots);
    free(s->gslots);
    free(s->key);
    free(s->gkey);
    free(s->fpv);
    free(s->fpbuf);
    free(s->nl);
    free(s->fn);
    free(s->fnm);
    free(s->ord);
    free(s->ord2);
    free(s->trail);
    free(s->rk);
    free(s->chosen);
}

/* Is a an ancestor of b (a < b), when a lies in b's band? */
static bool band_bit(const search *s, uint32_t b, uint32_t a)
{
    uint32_t wb = b >> 6, wa = a >> 6;
    const uint64_t *row = s->band + (size_t)b * (BAND + 1);
    return (row[BAND - (wb - wa)] >> (a & 63)) & 1;
}

static bool in_band(uint32_t b, uint32_t a)
{
    return (b >> 6) - (a >> 6) <= BAND;
}

/* Does some node of a reach some node of b in the DAG?  Both lists are
 * increasing; an ancestor has a lower index.  Pairs within the band are
 * looked up; the others, rare (a footprint's node far ahead of another's),
 * by a search forward from a over nodes up to b's last. */
static bool reaches(search *s, const uint32_t *a, uint32_t na,
                    const uint32_t *b, uint32_t nb)
{
    bool far = false;
    for (uint32_t j = 0; j < nb; j++)
        for (uint32_t i = 0; i < na && a[i] < b[j]; i++) {
            if (!in_band(b[j], a[i]))
                far = true;
            else if (band_bit(s, b[j], a[i]))
                return true;
        }
    if (!far)
        return false;
    if (++s->rstamp == 0) {
        memset(s->rmark, 0, s->n * sizeof(uint32_t));
        s->rstamp = 1;
    }
    uint32_t top = b[nb - 1], stamp = s->rstamp, qn = 0;
    /* b's nodes carry stamp; visited ones stamp + 1 (a second stamp). */
    if (++s->rstamp == 0) {
        memset(s->rmark, 0, s->n * sizeof(uint32_t));
        s->rstamp = 2;
        stamp = 1;
    }
    for (uint32_t j = 0; j < nb; j++)
        s->rmark[b[j]] = stamp;
    for (uint32_t i = 0; i < na; i++)
        if (a[i] < top && s->rmark[a[i]] != stamp) {
            s->rmark[a[i]] = s->rstamp;
            s->rqueue[qn++] = a[i];
        }
    for (uint32_t qi = 0; qi < qn; qi++) {
        uint32_t x = s->rqueue[qi];
        for (uint32_t e = s->soff[x]; e < s->soff[x + 1]; e++) {
            uint32_t y = s->succ[e].node;
            if (y > top || s->rmark[y] == s->rstamp)
                continue;
            if (s->rmark[y] == stamp)
                return true;
            s->rmark[y] = s->rstamp;
            s->rqueue[qn++] = y;
        }
    }
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
    s->soff = NEWN(s, uint32_t, n + 1);
    s->poff = NEWN(s, uint32_t, n + 1);
    s->succ = NEWN(s, bx_adj, p->nedges);
    s->pred = NEWN(s, bx_adj, p->nedges);
    for (size_t e = 0; e < p->nedges; e++) {
        s->soff[p->edges[e].from + 1]++;
        s->poff[p->edges[e].to + 1]++;
    }
    for (uint32_t x = 0; x < n; x++) {
        s->soff[x + 1] += s->soff[x];
        s->poff[x + 1] += s->poff[x];
    }
    uint32_t *sfill = NEWN(s, uint32_t, n), *pfill = NEWN(s, uint32_t, n);
    for (size_t e = 0; e < p->nedges; e++) {
        const bx_edge *ed = &p->edges[e];
        s->succ[s->soff[ed->from] + sfill[ed->from]++] = (bx_adj){ ed->to, ed->bytes };
        s->pred[s->poff[ed->to] + pfill[ed->to]++] = (bx_adj){ ed->from, ed->bytes };
    }

    /* Ancestors within the band, in topological order: x's are, over its
     * predecessors q, q and q's (which lie in q's band whenever they lie in
     * x's, since q's band starts no later). */
    s->band = NEWN(s, uint64_t, (size_t)n * (BAND + 1));
    for (uint32_t x = 0; x < n; x++) {
        uint64_t *row = s->band + (size_t)x * (BAND + 1);
        uint32_t wx = x >> 6;
        for (uint32_t e = s->poff[x]; e < s->poff[x + 1]; e++) {
            uint32_t q = s->pred[e].node, wq = q >> 6;
            if (wx - wq > BAND)
                continue;
            const uint64_t *qrow = s->band + (size_t)q * (BAND + 1);
            /* Word w is row[BAND - (wx - w)] and qrow[BAND - (wq - w)]. */
            uint32_t shift = wx - wq;
            for (uint32_t i = shift; i <= BAND; i++)
                row[i - shift] |= qrow[i];
            row[BAND - shift] |= BIT(q);
        }
    }
    s->rmark = NEWN(s, uint32_t, n);
    s->rqueue = NEWN(s, uint32_t, n);
}

/* A candidate is convex when no path leaves it and comes back.  Such a
 * path runs between its lowest and highest node, so a sweep over that
 * range in order marks the outside nodes some member reaches, and the
 * candidate is not convex when a member has a marked predecessor.  Costs
 * the edges in the range; mark is zeroed scratch of the problem's size,
 * left zeroed. */
static bool convex(const search *s, const bx_cand *c, uint8_t *mark)
{
    if (c->k == 1)
        return true;
    uint32_t lo = c->nodes[0], hi = c->nodes[c->k - 1];
    enum { MEMBER = 1, REACHED = 2 };
    for (uint32_t i = 0; i < c->k; i++)
        mark[c->nodes[i]] = MEMBER;
    bool ok = true;
    for (uint32_t x = lo + 1; x <= hi && ok; x++) {
        bool from_member = false, from_reached = false;
        for (uint32_t e = s->poff[x]; e < s->poff[x + 1]; e++) {
            uint32_t q = s->pred[e].node;
            if (q < lo)
                continue;
            from_member |= mark[q] == MEMBER;
            from_reached |= mark[q] == REACHED;
        }
        if (mark[x] == MEMBER)
            ok = !from_reached;
        else if (from_member || from_reached)
            mark[x] = REACHED;
    }
    for (uint32_t x = lo; x <= hi; x++)
        mark[x] = 0;
    return ok;
}

/* The A* bound.  A completion from a state whose lowest unplaced node is v
 * uses only candidates whose lowest node is v or later (every node below v
 * is placed), so each unplaced node u pays at least
 *
 *     m_v(u) = min { cost(D)/|D| : u in D, lowest(D) >= v },
 *
 * and h = the sum of m_v(u) over the unplaced u is admissible.  Any split
 * of cost(D) over D's nodes that adds up to cost(D) will do in place of
 * the even cost(D)/|D|; the split used is in proportion to what each node
 * costs alone (its cheapest singleton, w), so that a large kernel's cost
 * falls mostly on its convolutions and matrix products rather than evenly
 * on its reshapes (on the synthetic 10k-call transformers the bound at the
 * root goes from 0.58 to 0.88 of the optimum).  It is also consistent: a
 * step by C from v to v2 >= v lowers it by at most the sum of m_v(u) over
 * C's nodes (m only grows with v), which is at most C's shares, cost(C).
 * Growing with v is what makes it tighter than a fixed share per node: a
 * large kernel (a `fusion any` region over most of the model) lowers the
 * nodes' shares only while its first node is still open.
 *
 * Summing over a state's unplaced nodes directly would cost the whole
 * suffix, so a sweep from the last node down builds, for every v, the sum
 * over all u >= v (tfin, with tinf counting the u that no candidate
 * starting at v or later holds), and a state subtracts m_v(u) for the
 * placed nodes of its window.  For that, each node keeps the steps of
 * m_v(u) as v falls (rv, rval from roff[u]: the sweep position of each
 * decrease and the new value), which are at most its candidates. */

/* *sum += x with Neumaier's compensation in *comp: the running sums below
 * take a million updates, and plain rounding could lift the bound above a
 * true cost. */
static void add_exact(double *sum, double *comp, double x)
{
    double t = *sum + x;
    if (fabs(*sum) >= fabs(x))
        *comp += (*sum - t) + x;
    else
        *comp += (x - t) + *sum;
    *sum = t;
}

static void bound_sweep(search *s, double *cur, bool fill, size_t *at)
{
    const bx_search_problem *p = s->p;
    uint32_t n = s->n;
    double fin = 0, comp = 0;
    uint32_t ninf = 0;
    for (uint32_t x = 0; x < n; x++)
        cur[x] = INFINITY;
    for (uint32_t v = n; v-- > 0;) {
        ninf++;     /* v joins, with no candidate yet */
        for (uint32_t bi = s->boff[v]; bi < s->boff[v + 1]; bi++) {
            const bx_cand *c = &p->cands[s->bucket[bi]];
            double wsum = 0;
            for (uint32_t j = 0; j < c->k; j++)
                wsum += s->w[c->nodes[j]];
            for (uint32_t j = 0; j < c->k; j++) {
                uint32_t u = c->nodes[j];
                double share = wsum > 0 ? c->cost * (s->w[u] / wsum) : c->cost / c->k;
                if (!(share < cur[u]))
                    continue;
                bool again = !isinf(cur[u]) && at[u] > s->roff[u] &&
                             (fill ? s->rv[at[u] - 1] == v : false);
                if (isinf(cur[u])) {
                    ninf--;
                    add_exact(&fin, &comp, share);
                } else {
                    add_exact(&fin, &comp, -(cur[u] - share));
                }
                cur[u] = share;
                /* One step per (node, sweep position): the last, least. */
                if (!fill) {
                    if (s->rv[u] != v + 1) {    /* rv doubles as "last v + 1" */
                        s->rv[u] = v + 1;
                        at[u]++;
                    }
                } else if (again) {
                    s->rval[at[u] - 1] = share;
                } else {
                    s->rv[at[u]] = v;
                    s->rval[at[u]] = share;
                    at[u]++;
                }
            }
        }
        if (fill) {
            s->tfin[v] = fin + comp;
            s->tinf[v] = ninf;
        }
    }
}

static void bound_tables(search *s)
{
    uint32_t n = s->n;
    double *cur = NEWN(s, double, n);
    size_t *at = NEWN(s, size_t, (size_t)n + 1);
    s->tfin = NEWN(s, double, n + 1);
    s->tinf = NEWN(s, uint32_t, n + 1);
    s->roff = NEWN(s, size_t, (size_t)n + 1);
    /* First sweep: how many steps each node has (at[u]); rv, sized n for
     * now, remembers the sweep position of each node's last step. */
    s->rv = NEWN(s, uint32_t, n);
    bound_sweep(s, cur, false, at);
    for (uint32_t x = 0; x < n; x++)
        s->roff[x + 1] = s->roff[x] + at[x];
    size_t nrec = s->roff[n];
    s->rv = NEWN(s, uint32_t, nrec);
    s->rval = NEWN(s, double, nrec);
    for (uint32_t x = 0; x < n; x++)
        at[x] = s->roff[x];
    bound_sweep(s, cur, true, at);
}

/* m_v(u), or +inf when no candidate holding u starts at v or later.  Its
 * steps are by decreasing sweep position: the value is that of the last
 * step at v or later. */
static double m_at(const search *s, uint32_t v, uint32_t u)
{
    size_t lo = s->roff[u], hi = s->roff[u + 1];
    if (lo == hi || s->rv[lo] < v)
        return INFINITY;
    while (hi - lo > 1) {       /* rv[lo] >= v > rv[hi] (hi past the end) */
        size_t mid = lo + (hi - lo) / 2;
        if (s->rv[mid] >= v)
            lo = mid;
        else
            hi = mid;
    }
    return s->rval[lo];
}

/* The bound for a state whose lowest unplaced node is v2 and whose placed
 * nodes at v2 and later are the window words w[0 .. nw) from v2's word on
 * (bits below v2 in w[0] ignored). */
static double bound(const search *s, uint32_t v2, const uint64_t *w, uint32_t nw)
{
    if (v2 >= s->n)
        return 0;
    double fin = s->tfin[v2];
    uint32_t ninf = s->tinf[v2], base2 = v2 >> 6;
    for (uint32_t i = 0; i < nw; i++) {
        uint64_t bits = w[i];
        if (i == 0)
            bits &= ~(uint64_t)0 << (v2 & 63);
        for (; bits; bits &= bits - 1) {
            double m = m_at(s, v2, (base2 + i) * 64 + (uint32_t)__builtin_ctzll(bits));
            if (isinf(m))
                ninf--;
            else
                fin -= m;
        }
    }
    if (ninf > 0)
        return INFINITY;    /* some open node has no usable candidate left */
    return fin > 0 ? fin : 0;
}

/* Keep the usable candidates, bucket them by lowest node and work out the
 * A* bound.  Returns false with r->error set when
 * some node is in no usable candidate. */
static bool prepare_candidates(search *s)
{
    const bx_search_problem *p = s->p;
    bx_search_result *r = s->r;
    uint32_t n = s->n;
    uint8_t *cmark = NEWN(s, uint8_t, n);
    uint8_t *usable = NEWN(s, uint8_t, p->ncands);
    s->m = NEWN(s, double, n);
    for (uint32_t x = 0; x < n; x++)
        s->m[x] = INFINITY;
    s->boff = NEWN(s, uint32_t, n + 1);
    for (size_t i = 0; i < p->ncands; i++) {
        const bx_cand *c = &p->cands[i];
        if (isinf(c->cost)) {
            r->skipped_infinite++;
            continue;
        }
        if (!convex(s, c, cmark)) {
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
    /* Each node's weight for the bound: what it costs alone (its cheapest
     * singleton), or its least even share when it has none. */
    s->w = NEWN(s, double, n);
    for (uint32_t x = 0; x < n; x++)
        s->w[x] = INFINITY;
    for (size_t i = 0; i < p->ncands; i++)
        if (usable[i] && p->cands[i].k == 1 && p->cands[i].cost < s->w[p->cands[i].nodes[0]])
            s->w[p->cands[i].nodes[0]] = p->cands[i].cost;
    for (uint32_t x = 0; x < n; x++)
        if (isinf(s->w[x]))
            s->w[x] = isinf(s->m[x]) ? 0 : s->m[x];
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
            return false;
        }
        s->boff[x + 1] += s->boff[x];
    }

    /* Buckets, in the caller's order. */
    s->bucket = NEWN(s, uint32_t, s->boff[n]);
    uint32_t *fill = NEWN(s, uint32_t, n);
    for (size_t i = 0; i < p->ncands; i++) {
        if (!usable[i])
            continue;
        const bx_cand *c = &p->cands[i];
        s->bucket[s->boff[c->nodes[0]] + fill[c->nodes[0]]++] = (uint32_t)i;
    }
    bound_tables(s);
    return true;
}

static void prepare(search *s)
{
    const bx_search_problem *p = s->p;
    /* Transfers matter only between two devices that both run some usable
     * candidate: a search over one device's targets carries no devices in
     * its states, whatever links the registry declares. */
    s->transfers = false;
    uint8_t *used = NEWN(s, uint8_t, p->ndev);
    for (uint32_t x = 0; x < s->n; x++)
        for (uint32_t bi = s->boff[x]; bi < s->boff[x + 1]; bi++)
            used[p->cands[s->bucket[bi]].dev] = 1;
    for (uint32_t a = 0; a < p->ndev; a++)
        for (uint32_t b = 0; b < p->ndev; b++) {
            size_t i = (size_t)a * p->ndev + b;
            if (a != b && used[a] && used[b] &&
                (p->latency[i] != 0 || !isinf(p->bandwidth[i])))
                s->transfers = true;
        }

    size_t nw = BX_BITSET_WORDS(s->n);
    /* A key holds at most: 4 counts, a window of nw + 1 words, one shape per
     * placed partition and one word per placed node. */
    s->keycap = 4 + nw + 1 + 2 * (size_t)s->n;
    s->key = s_calloc(s, s->keycap, sizeof(uint64_t));
    s->gkey = s_calloc(s, s->keycap, sizeof(uint64_t));
    s->tw = NEWN(s, uint64_t, nw + 1);
    s->devof = NEWN(s, uint32_t, s->n);
    s->mark = NEWN(s, uint32_t, s->n);
    s->mark2 = NEWN(s, uint32_t, s->n);
    s->ucnt = NEWN(s, uint32_t, s->n);
    s->decst = NEWN(s, uint32_t, s->n);
    s->decr = NEWN(s, uint32_t, s->n);
    s->copen = NEWN(s, uint8_t, s->n);
    s->heap = bx_heap_try_create();
    if (!s->heap)
        out_of_memory(s);
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
    if (s->gslots)
        memset(s->gslots, 0, s->ngslots * sizeof(uint64_t));
    s->ngroups = 0;
    bx_heap_clear(s->heap);
    s->goal = NONE;
}

static void rehash(search *s)
{
    size_t cap = s->nslots ? s->nslots * 2 : 1024;
    while (cap < 2 * (s->nst + 1))     /* after a compaction, from nothing */
        cap *= 2;
    uint64_t *slots = s_calloc(s, cap, sizeof(uint64_t));
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
        longjmp(s->fail, 2);
    s_grow(s, (void **)&s->st, &s->capst, s->nst + 1, sizeof(*s->st));
    uint64_t *kcopy = bx_arena_try_alloc(&s->keys, len * sizeof(uint64_t));
    if (!kcopy)
        out_of_memory(s);
    memcpy(kcopy, s->key, len * sizeof(uint64_t));
    uint32_t idx = (uint32_t)s->nst++;
    s->st[idx] = (bx_state){
        .key = kcopy,
        .hash = h, .keylen = len, .parent = NONE, .via = NONE, .next_in_layer = NONE,
        .next_in_group = NONE,
    };
    s->slots[j] = (h & 0xffffffff00000000u) | ((uint64_t)idx + 1);
    *fresh = true;
    s->r->generated++;
    return idx;
}

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

/* ---- Dominance between device assignments ------------------------------
 *
 * States that differ only in the devices of their boundary nodes (a
 * "group": same placed set, same kept partitions) have the same valid
 * completions, and a completion's cost differs between them only in the
 * transfers on edges from those boundary nodes whose devices differ.  So A
 * makes B redundant when g(A) plus the most those edges can cost A beyond
 * what they cost B, whatever devices the completion picks, is at most g(B):
 * then every completion of B costs at least as much from A.  Such a B is
 * not expanded.  This prunes nothing a cheaper placement needs and keeps
 * the search exact; it only cuts the factor the devices add to the state
 * count. */

enum { GROUP_SCAN = 32 };   /* members looked at per new state, newest first */

static uint32_t boundary_start(const uint64_t *key)
{
    uint32_t nw = (uint32_t)key[1];
    return 4 + nw + (uint32_t)key[2 + nw];
}

/* The largest xfer(a -> x) - xfer(b -> x) over the devices x a completion
 * may give the other end (out), or xfer(x -> a) - xfer(x -> b) (in); +inf
 * when some x is reachable from b but not from a. */
static double worst_gap(const bx_search_problem *p, uint32_t a, uint32_t b, double bytes, bool in)
{
    double worst = -INFINITY;
    for (uint32_t x = 0; x < p->ndev; x++) {
        double ta = in ? xfer(p, x, a, bytes) : xfer(p, a, x, bytes);
        double tb = in ? xfer(p, x, b, bytes) : xfer(p, b, x, bytes);
        if (isinf(tb))
            continue;       /* no completion of B puts the other end there */
        if (isinf(ta))
            return INFINITY;
        if (ta - tb > worst)
            worst = ta - tb;
    }
    return worst > 0 ? worst : 0;
}

/* Does state a (cost ga) make state b (cost gb) of the same group
 * redundant? */
static bool dominates(const search *s, const uint64_t *ka, double ga,
                      const uint64_t *kb, double gb, uint32_t len)
{
    double slack = gb - ga;
    if (slack < 0)
        return false;
    uint32_t v = (uint32_t)ka[0], nw = (uint32_t)ka[1];
    const uint64_t *pw = ka + 2;
    for (uint32_t j = boundary_start(ka); j < len; j++) {
        uint32_t da = (uint32_t)ka[j], db = (uint32_t)kb[j], y = (uint32_t)(ka[j] >> 32);
        if (da == db)
            continue;
        for (uint32_t e = s->soff[y]; e < s->soff[y + 1]; e++)
            if (!placed_in(pw, nw, v, s->succ[e].node)) {
                slack -= worst_gap(s->p, da, db, s->succ[e].bytes, false);
                if (slack < 0)
                    return false;
            }
        for (uint32_t e = s->poff[y]; e < s->poff[y + 1]; e++)
            if (!placed_in(pw, nw, v, s->pred[e].node)) {
                slack -= worst_gap(s->p, da, db, s->pred[e].bytes, true);
                if (slack < 0)
                    return false;
            }
    }
    return true;
}

static void grow_groups(search *s)
{
    size_t cap = s->ngslots ? s->ngslots * 2 : 1024;
    uint64_t *slots = s_calloc(s, cap, sizeof(uint64_t));
    /* Slots keep only the top half of a hash, so rehash from the states:
     * each group's newest member is the one a slot points to. */
    for (size_t j = 0; j < s->ngslots; j++) {
        uint64_t e = s->gslots[j];
        if (!e)
            continue;
        uint32_t head = (uint32_t)e - 1;
        const bx_state *t = &s->st[head];
        uint32_t len = t->keylen, bs = boundary_start(t->key);
        for (uint32_t w = 0; w < len; w++)
            s->gkey[w] = w < bs ? t->key[w] : t->key[w] & ~(uint64_t)0xffffffff;
        uint64_t h = bx_bits_hash(s->gkey, len);
        size_t i = h & (cap - 1);
        while (slots[i])
            i = (i + 1) & (cap - 1);
        slots[i] = e;
    }
    free(s->gslots);
    s->gslots = slots;
    s->ngslots = cap;
}

/* File state i (whose key is s->key) in its group if new; then say whether
 * a member makes it redundant, marking members it makes redundant. */
static bool redundant(search *s, uint32_t i, bool fresh)
{
    uint32_t len = s->st[i].keylen, bs = boundary_start(s->key);
    if (bs >= len)
        return false;       /* no boundary: the group has one member */
    if ((s->ngroups + 1) * 2 > s->ngslots)
        grow_groups(s);
    for (uint32_t w = 0; w < len; w++)
        s->gkey[w] = w < bs ? s->key[w] : s->key[w] & ~(uint64_t)0xffffffff;
    uint64_t h = bx_bits_hash(s->gkey, len);
    size_t mask = s->ngslots - 1, j = h & mask;
    uint32_t head = NONE;
    for (; s->gslots[j]; j = (j + 1) & mask) {
        uint32_t m = (uint32_t)s->gslots[j] - 1;
        const bx_state *t = &s->st[m];
        if ((s->gslots[j] ^ h) >> 32 || t->keylen != len ||
            memcmp(t->key, s->key, bs * sizeof(uint64_t)))
            continue;
        bool same = true;
        for (uint32_t w = bs; w < len && same; w++)
            same = (t->key[w] ^ s->key[w]) >> 32 == 0;
        if (same) {
            head = m;
            break;
        }
    }
    if (fresh) {
        s->st[i].next_in_group = head;
        if (head == NONE)
            s->ngroups++;
        s->gslots[j] = (h & 0xffffffff00000000u) | ((uint64_t)i + 1);
    }
    const uint64_t *kb = s->st[i].key;
    double gb = s->st[i].g;
    int scanned = 0;
    for (uint32_t m = head; m != NONE && scanned < GROUP_SCAN; m = s->st[m].next_in_group) {
        bx_state *a = &s->st[m];
        scanned++;
        if (m == i || a->dominated)
            continue;
        if (dominates(s, a->key, a->g, kb, gb, len))
            return true;
        if (dominates(s, kb, gb, a->key, a->g, len))
            a->dominated = true;
    }
    return false;
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
    t->dominated = s->transfers && redundant(s, i, fresh);
    if (t->dominated)
        return;
    if (!beam) {
        /* With a consistent bound a closed state never improves; reopening
         * one costs nothing when it does not happen and keeps the result
         * exact if rounding ever makes it happen. */
        t->closed = false;
        /* Of states tied on cost, the one with more placed first: a
         * plateau of equal placements is then walked depth first. */
        if (!bx_heap_try_push_tie(s->heap, priority(s, t), s->n - t->placed, i))
            out_of_memory(s);
    }
}

/* ---- Footprints ---------------------------------------------------------
 *
 * What the chosen partitions mean for the future is only which unplaced
 * nodes they connect: a path may enter a partition at one node and leave
 * it at another that the first does not reach in the DAG, so a later
 * kernel could close a cycle through it.  A footprint (P, S) says that
 * every node of P reaches every node of S through chosen partitions: P
 * holds unplaced nodes with an edge into a partition X, S the unplaced
 * nodes that X, or a partition X has an edge to, has an edge to.  A kernel
 * C then closes a cycle exactly when, following the DAG and footprints, a
 * path goes from C into some P and from the matching S back to C.
 *
 * A state keeps its footprints, not its partitions, so two placements
 * whose partitions differ but connect the same open nodes are one state;
 * a partition that no open node reaches (P empty) or that reaches none (S
 * empty) leaves no footprint at all: it can never be on a cycle with a
 * future kernel.  This is what keeps a transformer's key/value outputs,
 * whose kernels lead only to the graph's outputs, out of the states.
 * Footprints with the same P are merged, then those with the same S (the
 * pairs they stand for are the same), and they are sorted, so the key is
 * canonical.
 *
 * In a key a footprint is a word np << 32 | ns, then its np + ns nodes,
 * two to a word. */

static void key_reserve(search *s, size_t words)
{
    if (words <= s->keycap)
        return;
    size_t cap = s->keycap * 2;
    while (cap < words)
        cap *= 2;
    s->key = s_realloc(s, s->key, cap, sizeof(uint64_t));
    /* The group key is a masked copy of any key: as long. */
    s->gkey = s_realloc(s, s->gkey, cap, sizeof(uint64_t));
    s->keycap = cap;
}

static uint32_t fp_words(uint32_t np, uint32_t ns)
{
    return 1 + (np + ns + 1) / 2;
}

/* The footprints of a key's fw words, into s->fpv (and s->fpbuf); makes
 * room for as many more in the per-footprint tables.  Returns how many. */
static uint32_t fp_decode(search *s, const uint64_t *w, uint32_t fw)
{
    uint32_t k = 0;
    size_t nodes = 0;
    for (uint32_t i = 0; i < fw; k++) {
        uint32_t np = (uint32_t)(w[i] >> 32), ns = (uint32_t)w[i];
        nodes += np + ns;
        i += fp_words(np, ns);
    }
    if (k + 1 > s->kcap) {     /* rare: the arena keeps the old arrays */
        size_t cap = 2 * ((size_t)k + 1);
        s->rel = NEWN(s, uint8_t, cap * cap);
        s->cr = NEWN(s, uint8_t, cap);
        s->rc = NEWN(s, uint8_t, cap);
        s->keep = NEWN(s, uint8_t, cap);
        s->queue = NEWN(s, uint32_t, cap);
        s->fpv = s_realloc(s, s->fpv, cap, sizeof(fp_view));
        s->kcap = cap;
    }
    if (nodes + 1 > s->fpbufcap) {
        s->fpbufcap = 2 * (nodes + 1);
        s->fpbuf = s_realloc(s, s->fpbuf, s->fpbufcap, sizeof(uint32_t));
    }
    uint32_t *buf = s->fpbuf;
    k = 0;
    for (uint32_t i = 0; i < fw; k++) {
        uint32_t np = (uint32_t)(w[i] >> 32), ns = (uint32_t)w[i];
        for (uint32_t j = 0; j < np + ns; j++)
            buf[j] = (uint32_t)(w[i + 1 + j / 2] >> (j & 1 ? 32 : 0));
        s->fpv[k] = (fp_view){ buf, buf + np, np, ns };
        buf += np + ns;
        i += fp_words(np, ns);
    }
    return k;
}

/* Does some node of a equal or reach some node of b?  Both increasing. */
static bool meets(search *s, const uint32_t *a, uint32_t na,
                  const uint32_t *b, uint32_t nb)
{
    for (uint32_t i = 0, j = 0; i < na && j < nb;) {
        if (a[i] == b[j])
            return true;
        if (a[i] < b[j])
            i++;
        else
            j++;
    }
    return reaches(s, a, na, b, nb);
}

static void nl_reserve(search *s, size_t need)
{
    if (need <= s->nlcap)
        return;
    s->nlcap = s->nlcap ? s->nlcap : 64;
    while (s->nlcap < need)
        s->nlcap *= 2;
    s->nl = s_realloc(s, s->nl, s->nlcap, sizeof(uint32_t));
}

/* Sort and deduplicate nl[at .. at + n); returns the new length. */
static uint32_t sort_unique(search *s, size_t at, uint32_t n)
{
    uint32_t *v = s->nl + at;
    qsort(v, n, sizeof(uint32_t), cmp_u32);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (m == 0 || v[i] != v[m - 1])
            v[m++] = v[i];
    return m;
}

/* Footprints a and b of s->fn in order: by P (or by S), then by index. */
static bool fp_before(const search *s, uint32_t a, uint32_t b, bool by_s)
{
    const fp_new *x = &s->fn[a], *y = &s->fn[b];
    size_t xo = by_s ? x->s : x->p, yo = by_s ? y->s : y->p;
    uint32_t xn = by_s ? x->ns : x->np, yn = by_s ? y->ns : y->np;
    uint32_t n = xn < yn ? xn : yn;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t u = s->nl[xo + i], w = s->nl[yo + i];
        if (u != w)
            return u < w;
    }
    if (xn != yn)
        return xn < yn;
    return a < b;
}

/* Sort s->ord[0 .. n) by fp_before: a bottom-up merge sort through
 * s->ord2, since qsort takes no context and the search keeps no global. */
static void fp_sort(search *s, uint32_t n, bool by_s)
{
    uint32_t *a = s->ord, *b = s->ord2;
    for (uint32_t w = 1; w < n; w *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * w) {
            uint32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                b[k++] = fp_before(s, a[j], a[i], by_s) ? a[j++] : a[i++];
            while (i < mid)
                b[k++] = a[i++];
            while (j < hi)
                b[k++] = a[j++];
        }
        uint32_t *t = a;
        a = b;
        b = t;
    }
    if (a != s->ord)
        memcpy(s->ord, a, n * sizeof(uint32_t));
}

/* Merge the nf footprints of s->fn that share their P (by_s false: their
 * S lists are united) or their S (by_s true: P united), new lists going
 * to s->nl from top on.  Leaves the merged ones at s->fn[0 .. *out) and
 * returns the new top. */
static size_t fp_merge(search *s, uint32_t nf, size_t top, bool by_s, uint32_t *out)
{
    for (uint32_t i = 0; i < nf; i++)
        s->ord[i] = i;
    fp_sort(s, nf, by_s);
    /* The merged footprints go to fnm, in that order, then back to fn. */
    uint32_t m = 0;
    for (uint32_t i = 0; i < nf;) {
        fp_new f = s->fn[s->ord[i]];
        size_t ko = by_s ? f.s : f.p;
        uint32_t kn = by_s ? f.ns : f.np;
        size_t uo = by_s ? f.p : f.s;   /* the list to unite */
        uint32_t un = by_s ? f.np : f.ns;
        uint32_t j = i + 1;
        bool merged = false;
        for (; j < nf; j++) {
            const fp_new *g = &s->fn[s->ord[j]];
            size_t go = by_s ? g->s : g->p;
            uint32_t gn = by_s ? g->ns : g->np;
            if (gn != kn || memcmp(s->nl + go, s->nl + ko, kn * sizeof(uint32_t)))
                break;
            size_t gu = by_s ? g->p : g->s;
            uint32_t gun = by_s ? g->np : g->ns;
            if (!merged) {
                nl_reserve(s, top + un);
                memcpy(s->nl + top, s->nl + uo, un * sizeof(uint32_t));
                uo = top;
                merged = true;
            }
            nl_reserve(s, uo + un + gun);
            memcpy(s->nl + uo + un, s->nl + gu, gun * sizeof(uint32_t));
            un += gun;
        }
        if (merged) {
            un = sort_unique(s, uo, un);
            top = uo + un;
        }
        if (by_s) {
            f.p = uo;
            f.np = un;
        } else {
            f.s = uo;
            f.ns = un;
        }
        s->fnm[m++] = f;
        i = j;
    }
    memcpy(s->fn, s->fnm, m * sizeof(fp_new));
    *out = m;
    return top;
}

/* Is y unplaced once the step whose nodes carry s->stamp is taken? */
static bool open_after(const search *s, const uint64_t *pw, uint32_t nw, uint32_t v,
                       uint32_t y)
{
    return s->mark[y] != s->stamp && !placed_in(pw, nw, v, y);
}

/* Append to s->nl from *top the open neighbours of C's nodes along one
 * direction's adjacency (off, adj), each once; returns how many. */
static uint32_t open_neighbours(search *s, const bx_cand *c, const uint64_t *pw, uint32_t nw,
                                uint32_t v, const uint32_t *off, const bx_adj *adj, size_t *top)
{
    if (++s->stamp2 == 0) {
        memset(s->mark2, 0, s->n * sizeof(uint32_t));
        s->stamp2 = 1;
    }
    uint32_t count = 0;
    for (uint32_t j = 0; j < c->k; j++) {
        uint32_t x = c->nodes[j];
        for (uint32_t e = off[x]; e < off[x + 1]; e++) {
            uint32_t y = adj[e].node;
            if (open_after(s, pw, nw, v, y) && s->mark2[y] != s->stamp2) {
                s->mark2[y] = s->stamp2;
                nl_reserve(s, *top + 1);
                s->nl[(*top)++] = y;
                count++;
            }
        }
    }
    return count;
}

/* The footprints after placing C (whose nodes carry s->stamp) in a state
 * with the k footprints s->fpv, written at (*o)[len ..); returns the number
 * of words.  For an old footprint (P, S): C's nodes leave P and S, and if
 * C met S (the partitions feed C) S gains S_C.  C's own is (P_C, S_C): its
 * open predecessors, and its open successors plus the S of every
 * footprint whose P C met (C feeds those partitions).  A step that closes
 * a cycle (C in both P and S of one footprint) was refused before. */
static uint32_t fp_step(search *s, const bx_cand *c, const uint64_t *pw, uint32_t nw,
                        uint32_t v, uint32_t k, uint64_t **o, uint32_t len)
{
    const fp_view *F = s->fpv;
    size_t total = 0;
    for (uint32_t j = 0; j < k; j++)
        total += F[j].np + F[j].ns;
    /* C's neighbours, and S_C. */
    size_t top = 0;
    nl_reserve(s, total * 2 + 64);
    size_t pc = top;
    uint32_t npc = open_neighbours(s, c, pw, nw, v, s->poff, s->pred, &top);
    size_t sc = top;
    uint32_t nsc = open_neighbours(s, c, pw, nw, v, s->soff, s->succ, &top);
    for (uint32_t j = 0; j < k; j++) {
        bool feeds = false;
        for (uint32_t i = 0; i < F[j].np && !feeds; i++)
            feeds = s->mark[F[j].p[i]] == s->stamp;
        if (!feeds)
            continue;
        for (uint32_t i = 0; i < F[j].ns; i++)
            if (s->mark[F[j].s[i]] != s->stamp) {
                nl_reserve(s, top + 1);
                s->nl[top++] = F[j].s[i];
                nsc++;
            }
    }
    nsc = sort_unique(s, sc, nsc);
    top = sc + nsc;
    npc = sort_unique(s, pc, npc);

    /* The new footprints. */
    if (k + 1 > s->fncap) {
        s->fncap = 2 * ((size_t)k + 1);
        s->fn = s_realloc(s, s->fn, s->fncap, sizeof(fp_new));
        s->ord = s_realloc(s, s->ord, s->fncap, sizeof(uint32_t));
        s->ord2 = s_realloc(s, s->ord2, s->fncap, sizeof(uint32_t));
        s->fnm = s_realloc(s, s->fnm, s->fncap, sizeof(fp_new));
    }
    uint32_t nf = 0;
    if (npc && nsc)
        s->fn[nf++] = (fp_new){ pc, sc, npc, nsc };
    for (uint32_t j = 0; j < k; j++) {
        nl_reserve(s, top + F[j].np + F[j].ns + nsc);
        size_t p0 = top;
        uint32_t np = 0, ns = 0;
        for (uint32_t i = 0; i < F[j].np; i++)
            if (s->mark[F[j].p[i]] != s->stamp)
                s->nl[top + np++] = F[j].p[i];
        top += np;
        if (!np)
            continue;
        size_t s0 = top;
        bool fed = false;
        for (uint32_t i = 0; i < F[j].ns; i++) {
            if (s->mark[F[j].s[i]] == s->stamp)
                fed = true;
            else
                s->nl[top + ns++] = F[j].s[i];
        }
        if (fed) {
            memcpy(s->nl + top + ns, s->nl + sc, nsc * sizeof(uint32_t));
            ns += nsc;
            ns = sort_unique(s, s0, ns);
        }
        top += ns;
        if (!ns) {
            top = p0;
            continue;
        }
        s->fn[nf++] = (fp_new){ p0, s0, np, ns };
    }
    /* Equal P merged (S united), then equal S merged (P united): the
     * pairs they stand for are the same; then sorted by P for the key. */
    top = fp_merge(s, nf, top, false, &nf);
    top = fp_merge(s, nf, top, true, &nf);
    for (uint32_t i = 0; i < nf; i++)
        s->ord[i] = i;
    fp_sort(s, nf, false);
    uint32_t words = 0;
    for (uint32_t i = 0; i < nf; i++) {
        const fp_new *f = &s->fn[s->ord[i]];
        uint32_t fwords = fp_words(f->np, f->ns);
        key_reserve(s, (size_t)len + words + fwords + 2 + 2 * (size_t)s->n);
        uint64_t *out = s->key + len + words;
        out[0] = (uint64_t)f->np << 32 | f->ns;
        for (uint32_t q = 1; q < fwords; q++)
            out[q] = 0;
        for (uint32_t q = 0; q < f->np + f->ns; q++) {
            uint32_t node = q < f->np ? s->nl[f->p + q] : s->nl[f->s + q - f->np];
            out[1 + q / 2] |= (uint64_t)node << (q & 1 ? 32 : 0);
        }
        words += fwords;
    }
    *o = s->key;
    return words;
}

/* ---- Expanding a state ------------------------------------------------ */

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
    uint32_t fw = (uint32_t)key[2 + nw];
    uint32_t nb = 0;
    const uint64_t *bd = NULL;
    if (s->transfers) {
        nb = (uint32_t)key[3 + nw + fw];
        bd = key + 4 + nw + fw;
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

    /* The footprints, and which reaches which: the same for every step. */
    uint32_t k = fp_decode(s, key + 3 + nw, fw);
    const fp_view *F = s->fpv;
    for (uint32_t j = 0; j < k; j++)
        for (uint32_t i = 0; i < k; i++)
            s->rel[j * k + i] = i != j && meets(s, F[j].s, F[j].ns, F[i].p, F[i].np);

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

        /* Cycle: C reaches a footprint (one of its nodes is, or reaches,
         * an entry), that one others, and one of those reaches C. */
        if (k) {
            uint32_t qn = 0;
            bool cyclic = false;
            for (uint32_t j = 0; j < k; j++) {
                s->cr[j] = meets(s, cn, ck, F[j].p, F[j].np);
                s->rc[j] = meets(s, F[j].s, F[j].ns, cn, ck);
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
            for (uint32_t i = 0; i < nw2; i++)
                o[len++] = tw[shift + i];
            h = bound(s, v2, tw + shift, nw2);
            if (isinf(h)) {
                s->r->rejected_dead++;
                continue;
            }
        }

        /* The new footprints (see fp_step). */
        uint32_t fslot = len++;
        o[fslot] = 0;
        if (v2 < n) {
            uint32_t words = fp_step(s, c, pw, nw, v, k, &o, len);
            o[fslot] = words;
            len += words;
        }

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
        relax(s, len, g + c->cost + t, h, s->cur_parent, ci, placed + ck, beam);
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
    double h = bound(s, 0, NULL, 0);
    relax(s, len, 0, h, NONE, NONE, 0, beam);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool past_deadline(const search *s)
{
    return s->deadline > 0 && now() >= s->deadline;
}

/* The least priority of a live open state: a lower bound on every
 * placement not yet found, so on the optimum when the search stops early
 * (the bound is admissible, and a dominated state's completions cost no
 * less from the state that dominates it). */
static double open_bound(search *s)
{
    double f;
    uint32_t si;
    while (bx_heap_peek(s->heap, &f, &si)) {
        const bx_state *t = &s->st[si];
        if (!t->closed && !t->dominated && f == priority(s, t))
            return f;
        bx_heap_pop(s->heap, NULL, NULL);
    }
    return INFINITY;
}

/* Dijkstra or A*; returns false when the budget (states or time) ran out
 * first. */
static bool exact(search *s, size_t max_states)
{
    push_root(s, false);
    double f;
    uint32_t si;
    size_t polls = 0;
    while (bx_heap_pop(s->heap, &f, &si)) {
        bx_state *t = &s->st[si];
        if (t->closed || t->dominated || f != priority(s, t))
            continue;
        if (t->key[0] == s->n) {
            s->goal = si;
            return true;
        }
        if ((max_states && s->nst > max_states) || (polls++ % 1024 == 0 && past_deadline(s))) {
            /* Put it back: it is open, and its priority is the bound. */
            if (!bx_heap_try_push_tie(s->heap, f, s->n - t->placed, si))
                out_of_memory(s);
            return false;
        }
        t->closed = true;
        s->r->expanded++;
        s->cur_parent = si;
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

/* Drop every state of layers up to l, keeping the later ones (renumbered)
 * and the trail: the beam's memory is then what the layers ahead hold. */
static void beam_compact(search *s, uint32_t l)
{
    bx_arena keys;
    bx_arena_init(&keys);
    size_t count = 0;
    for (uint32_t m = l + 1; m <= s->n; m++)
        for (uint32_t i = s->layer[m]; i != NONE; i = s->st[i].next_in_layer)
            count++;
    bx_state *st = calloc(count ? count : 1, sizeof(*st));
    if (!st)
        out_of_memory(s);
    size_t k = 0;
    uint32_t goal = NONE;
    for (uint32_t m = l + 1; m <= s->n; m++) {
        uint32_t head = NONE, *link = &head;
        for (uint32_t i = s->layer[m]; i != NONE; i = s->st[i].next_in_layer) {
            bx_state t = s->st[i];
            uint64_t *kc = bx_arena_try_alloc(&keys, t.keylen * sizeof(uint64_t));
            if (!kc) {
                bx_arena_free(&keys);
                free(st);
                out_of_memory(s);
            }
            memcpy(kc, t.key, t.keylen * sizeof(uint64_t));
            t.key = kc;
            t.next_in_group = NONE;
            t.next_in_layer = NONE;
            if (i == s->goal)
                goal = (uint32_t)k;
            st[k] = t;
            *link = (uint32_t)k;
            link = &st[k].next_in_layer;
            k++;
        }
        s->layer[m] = head;
    }
    for (uint32_t m = 0; m <= l; m++)
        s->layer[m] = NONE;
    bx_arena_free(&s->keys);
    s->keys = keys;
    free(s->st);
    s->st = st;
    s->nst = s->capst = count;
    s->goal = goal;
    /* Rebuild the state table; dominance groups start afresh. */
    free(s->slots);
    s->slots = NULL;
    s->nslots = 0;
    rehash(s);
    if (s->gslots)
        memset(s->gslots, 0, s->ngslots * sizeof(uint64_t));
    s->ngroups = 0;
    size_t bytes = s->keys.total;
    size_t floor = s->opt.beam_memory ? s->opt.beam_memory : (size_t)64 << 20;
    s->compact_at = 2 * bytes > floor ? 2 * bytes : floor;
}

/* The bounded beam, from scratch: layer by layer (a layer is the states
 * with the same number of nodes placed, and a step adds at least one), the
 * best width states are expanded.  Past the deadline the width drops to 1,
 * which still completes a placement in one pass.  Each expanded state
 * leaves a trail entry; a finished layer's states are dropped whenever the
 * keys outgrow twice what was kept, so memory follows the layers ahead. */
static void beam(search *s, size_t width)
{
    reset_states(s);
    s->layer = NEWN(s, uint32_t, s->n + 1);
    for (uint32_t l = 0; l <= s->n; l++)
        s->layer[l] = NONE;
    s->compact_at = s->opt.beam_memory ? s->opt.beam_memory : (size_t)64 << 20;
    s->cur_parent = NONE;
    push_root(s, true);
    for (uint32_t l = 0; l < s->n; l++) {
        size_t cnt = 0;
        for (uint32_t i = s->layer[l]; i != NONE; i = s->st[i].next_in_layer) {
            if (s->st[i].dominated)
                continue;
            s_grow(s, (void **)&s->rk, &s->caprk, cnt + 1, sizeof(*s->rk));
            s->rk[cnt++] = (ranked){ s->st[i].g + s->st[i].h, i };
        }
        if (cnt == 0)
            continue;
        qsort(s->rk, cnt, sizeof(*s->rk), cmp_ranked);
        if (width > 1 && past_deadline(s))
            width = 1;
        for (size_t j = 0; j < cnt && j < width; j++) {
            uint32_t si = s->rk[j].i;
            s->st[si].closed = true;
            s->r->expanded++;
            s_grow(s, (void **)&s->trail, &s->captrail, s->ntrail + 1, sizeof(*s->trail));
            if (s->ntrail >= NONE - 1)
                longjmp(s->fail, 2);
            s->trail[s->ntrail] = (struct trail){ s->st[si].parent, s->st[si].via };
            s->cur_parent = (uint32_t)s->ntrail++;
            expand(s, si, true);
        }
        if (s->keys.total > s->compact_at)
            beam_compact(s, l);
    }
}

/* The candidates on the path to state goal, in the order placed, into
 * s->chosen.  In the exact search parents are states; in the beam, trail
 * entries. */
static size_t path_to(search *s, uint32_t goal, bool beam)
{
    size_t c = 0;
    if (!beam) {
        for (uint32_t i = goal; s->st[i].parent != NONE; i = s->st[i].parent)
            c++;
    } else {
        c = s->st[goal].via != NONE;
        for (uint32_t t = s->st[goal].parent; t != NONE; t = s->trail[t].parent)
            c += s->trail[t].via != NONE;
    }
    uint32_t *chosen = s_calloc(s, c, sizeof(uint32_t));
    free(s->chosen);
    s->chosen = chosen;
    size_t j = c;
    if (!beam) {
        for (uint32_t i = goal; s->st[i].parent != NONE; i = s->st[i].parent)
            chosen[--j] = s->st[i].via;
    } else {
        if (s->st[goal].via != NONE)
            chosen[--j] = s->st[goal].via;
        for (uint32_t t = s->st[goal].parent; t != NONE; t = s->trail[t].parent)
            if (s->trail[t].via != NONE)
                chosen[--j] = s->trail[t].via;
    }
    return c;
}

/* A placement's cost recomputed from scratch: candidates, then edges in
 * the order given. */
static double placement_cost(search *s, const uint32_t *chosen, size_t count,
                             double *transfer)
{
    const bx_search_problem *p = s->p;
    uint32_t *dev = NEWN(s, uint32_t, s->n);
    double total = 0, t = 0;
    for (size_t i = 0; i < count; i++) {
        const bx_cand *c = &p->cands[chosen[i]];
        total += c->cost;
        for (uint32_t j = 0; j < c->k; j++)
            dev[c->nodes[j]] = c->dev;
    }
    for (size_t e = 0; e < p->nedges; e++)
        t += xfer(p, dev[p->edges[e].from], dev[p->edges[e].to], p->edges[e].bytes);
    *transfer = t;
    return total + t;
}

static void run(search *s, const bx_search_options *opt)
{
    bx_search_result *r = s->r;
    build_graph(s);
    if (!prepare_candidates(s))
        return;
    prepare(s);
    size_t nchosen = 0;
    if (exact(s, opt->max_states)) {
        r->optimal = s->goal != NONE;
        if (s->goal != NONE) {
            nchosen = path_to(s, s->goal, false);
        } else {
            snprintf(r->error, sizeof r->error,
                     "no valid placement: every cover by these candidates closes a cycle "
                     "or needs a missing link (no partial placement gets past node %u)",
                     s->deepest);
            return;
        }
    } else {
        r->budget_hit = true;
        r->time_hit = past_deadline(s);
        r->lower_bound = open_bound(s);
        double best = INFINITY, tr;
        uint32_t *kept = NULL;
        if (s->goal != NONE) {   /* complete, though not proven cheapest */
            nchosen = path_to(s, s->goal, false);
            best = placement_cost(s, s->chosen, nchosen, &tr);
            kept = NEWN(s, uint32_t, nchosen);
            memcpy(kept, s->chosen, nchosen * sizeof(uint32_t));
        }
        /* The beam gets the same budget: width * layers <= max_states. */
        size_t width = opt->beam_width;
        if (!width) {
            size_t per = opt->max_states ? opt->max_states / s->n : 64;
            width = per < 1 ? 1 : per > 64 ? 64 : per;
        }
        r->beam_width = width;
        beam(s, width);
        if (s->goal != NONE) {
            size_t nb = path_to(s, s->goal, true);
            if (placement_cost(s, s->chosen, nb, &tr) < best) {
                nchosen = nb;
                kept = NULL;
            }
        }
        if (kept) {
            uint32_t *c = s_calloc(s, nchosen, sizeof(uint32_t));
            memcpy(c, kept, nchosen * sizeof(uint32_t));
            free(s->chosen);
            s->chosen = c;
        } else if (s->goal == NONE) {
            snprintf(r->error, sizeof r->error,
                     "no placement found: the state budget (%zu) ran out and the beam "
                     "(width %zu) found no complete placement", opt->max_states, width);
            return;
        }
    }
    r->ok = true;
    r->cost = placement_cost(s, s->chosen, nchosen, &r->transfer_cost);
    r->nchosen = nchosen;
    r->chosen = s->chosen;
    s->chosen = NULL;
    if (r->optimal)
        r->lower_bound = r->cost;
    else if (r->lower_bound > r->cost)
        r->lower_bound = r->cost;   /* rounding */
}

/* The search, with the way out for a failed allocation: only s is live
 * across the setjmp, and it does not change. */
static void guarded(search *s)
{
    bx_search_result *r = s->r;
    int why = setjmp(s->fail);
    if (why == 0) {
        run(s, &s->opt);
        return;
    }
    free(r->chosen);
    r->chosen = NULL;
    r->ok = r->optimal = false;
    r->nchosen = 0;
    r->out_of_memory = why == 1;
    snprintf(r->error, sizeof r->error,
             why == 1 ? "out of memory after %zu states; try --max-states"
                      : "too many states (%zu); try --max-states",
             r->generated);
}

bx_search_result *bx_search_run(const bx_search_problem *p, const bx_search_options *options)
{
    static const bx_search_options defaults = { 0 };
    const bx_search_options *const opt = options ? options : &defaults;
    bx_search_result *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    if (p->error[0]) {
        snprintf(r->error, sizeof r->error, "%s", p->error);
        return r;
    }
    if (p->n == 0) {
        r->ok = r->optimal = true;
        return r;
    }
    search *s = calloc(1, sizeof(*s));
    if (!s) {
        snprintf(r->error, sizeof r->error, "out of memory");
        r->out_of_memory = true;
        return r;
    }
    s->p = p;
    s->r = r;
    s->astar = opt->astar;
    s->n = p->n;
    if (opt->time_limit > 0)
        s->deadline = now() + opt->time_limit;
    s->opt = *opt;
    bx_arena_init(&s->keys);
    guarded(s);
    search_free(s);
    free(s);
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
