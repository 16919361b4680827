/* byoc_ev_all_pairs against the nested loops byocc emitted before it, on
 * random sequences of tensors of a few types (unknown ranks and dims
 * among them, so bodies read undefined values), with bodies of the forms
 * it is emitted for: the result and ev->undef must be the loops' exactly,
 * the undefined reads being those of the pairs up to the first false one.
 * Then part of a real rule: every input of a candidate against every
 * other, as TensorRT's batch-size rule, on a large candidate (linear, not
 * quadratic: 40,000 inputs).  A fixed seed. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>
#include <byoc/pred.h>

static int failures;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

/* Bodies as byocc writes them (see examples/tensorrt.byoc's batch rule). */
static bool batch(byoc_eval *ev, byoc_tref a, byoc_tref b)
{
    return byoc_ev_tref_eq(a, b) || byoc_ev_is_const(ev, a) || byoc_ev_is_const(ev, b)
           || byoc_ev_rank(ev, a) == 0 || byoc_ev_rank(ev, b) == 0
           || byoc_ev_seq_int(ev, byoc_ev_seq_shape(ev, a), 0)
                  == byoc_ev_seq_int(ev, byoc_ev_seq_shape(ev, b), 0);
}

static bool second_dim(byoc_eval *ev, byoc_tref a, byoc_tref b)
{
    return byoc_ev_dim(ev, a, 1) == byoc_ev_dim(ev, b, 1);
}

static bool smaller(byoc_eval *ev, byoc_tref a, byoc_tref b)
{
    return byoc_ev_dtype(ev, a) == byoc_ev_dtype(ev, b)
           && (byoc_ev_is_const(ev, a) || byoc_ev_numel(ev, a) <= byoc_ev_numel(ev, b));
}

static bool ranks_differ(byoc_eval *ev, byoc_tref a, byoc_tref b)
{
    return byoc_ev_tref_eq(a, b) || byoc_ev_rank(ev, a) != byoc_ev_rank(ev, b);
}

static bool shapes_equal(byoc_eval *ev, byoc_tref a, byoc_tref b)
{
    return byoc_ev_is_const(ev, b) || byoc_ev_seq_eq(ev, byoc_ev_seq_shape(ev, a),
                                                    byoc_ev_seq_shape(ev, b));
}

static bool not_same(byoc_eval *ev, byoc_tref a, byoc_tref b)
{
    return !byoc_ev_tref_eq(a, b) || byoc_ev_rank(ev, a) > 1;
}

static byoc_pair_fn *const bodies[] = {batch, second_dim, smaller, ranks_differ, shapes_equal,
                                       not_same};
#define NBODIES (int)(sizeof bodies / sizeof bodies[0])

/* The loops, as emitted before (q_1 over the inner sequence, q_0 outside). */
static bool inner(byoc_eval *ev, byoc_seq s, byoc_tref a, byoc_pair_fn *body)
{
    int64_t n = byoc_ev_seq_len(ev, s);
    for (int64_t i = 0; i < n; i++) {
        byoc_tref b = byoc_ev_seq_tensor(ev, s, i);
        if (!body(ev, a, b))
            return false;
    }
    return true;
}

static bool loops(byoc_eval *ev, byoc_seq s, byoc_pair_fn *body)
{
    int64_t n = byoc_ev_seq_len(ev, s);
    for (int64_t i = 0; i < n; i++) {
        byoc_tref a = byoc_ev_seq_tensor(ev, s, i);
        if (!inner(ev, byoc_ev_seq_part(ev, BYOC_SEQ_PINPUTS), a, body))
            return false;
    }
    return true;
}

static byoc_tensor_type random_type(void)
{
    byoc_tensor_type t;
    memset(&t, 0, sizeof t);
    t.dtype = rnd(4) ? BYOC_DT_FLOAT32 : BYOC_DT_FLOAT16;
    t.rank = (int)rnd(4) - (rnd(8) == 0);
    static const int64_t dims[] = {1, 2, 4, BYOC_DIM_UNKNOWN};
    for (int i = 0; i < t.rank; i++)
        t.dims[i] = dims[rnd(i == 0 ? 4 : 3)];
    return t;
}

static void compare(const byoc_graph *g, int *nodes, int n, byoc_pair_fn *body, int undef0,
                    const char *what)
{
    byoc_eval a, b;
    memset(&a, 0, sizeof a);
    a.graph = g;
    a.part = nodes;
    a.npart = n;
    a.pinputs = nodes;
    a.npinputs = n;
    a.failed_clause = -1;
    a.undef = undef0;
    b = a;
    bool ra = loops(&a, byoc_ev_seq_part(&a, BYOC_SEQ_PINPUTS), body);
    bool rb = byoc_ev_all_pairs(&b, byoc_ev_seq_part(&b, BYOC_SEQ_PINPUTS), body);
    if (ra != rb || a.undef != b.undef) {
        fprintf(stderr, "%s: loops %d (undef %d), byoc_ev_all_pairs %d (undef %d)\n", what, ra,
                a.undef, rb, b.undef);
        failures++;
    }
}

int main(void)
{
    byoc_error err;
    byoc_registry *reg = byoc_registry_create();
    byoc_graph *g = byoc_graph_create(reg);
    enum { NODES = 400 };
    int all[NODES];
    /* a few types, so classes repeat */
    byoc_tensor_type pool[6];
    for (int i = 0; i < 6; i++)
        pool[i] = random_type();
    for (int i = 0; i < NODES; i++) {
        byoc_tensor_type t = rnd(5) ? pool[rnd(6)] : random_type();
        char name[16];
        snprintf(name, sizeof name, "x%d", i);
        all[i] = rnd(3) ? byoc_graph_add_input(g, name, &t, &err)
                        : byoc_graph_add_const(g, &t, NULL, &err);
        if (all[i] < 0) {
            fprintf(stderr, "graph: %s\n", err.msg);
            return 1;
        }
    }
    int seqs = 0;
    for (int k = 0; k < 3000; k++) {
        int n = (int)rnd(k % 10 == 0 ? 200 : 12), nodes[NODES];
        /* distinct nodes in random order */
        for (int i = 0; i < NODES; i++)
            nodes[i] = all[i];
        for (int i = 0; i < n; i++) {
            int j = i + (int)rnd((uint32_t)(NODES - i)), t = nodes[i];
            nodes[i] = nodes[j];
            nodes[j] = t;
        }
        char what[48];
        snprintf(what, sizeof what, "sequence %d", k);
        for (int b = 0; b < NBODIES; b++)
            compare(g, nodes, n, bodies[b], k % 17 == 0, what);
        seqs++;
    }
    printf("random sequences: %d, %d bodies each, against the nested loops\n", seqs, NBODIES);
    byoc_graph_destroy(g);

    /* 40,000 inputs of two batch sizes and constants: the rule must fail,
     * and hold once the odd one out is a constant */
    g = byoc_graph_create(reg);
    enum { BIG = 40000 };
    int *big = calloc(BIG, sizeof *big);
    byoc_tensor_type b1 = {.dtype = BYOC_DT_FLOAT32, .rank = 2, .dims = {1, 64}};
    byoc_tensor_type b2 = {.dtype = BYOC_DT_FLOAT32, .rank = 2, .dims = {2, 64}};
    for (int i = 0; i < BIG; i++) {
        char name[16];
        snprintf(name, sizeof name, "x%d", i);
        big[i] = i % 2 ? byoc_graph_add_const(g, &b2, NULL, &err)
                       : byoc_graph_add_input(g, name, i == BIG - 2 ? &b2 : &b1, &err);
    }
    byoc_eval ev;
    memset(&ev, 0, sizeof ev);
    ev.graph = g;
    ev.part = ev.pinputs = big;
    ev.npart = ev.npinputs = BIG;
    if (byoc_ev_all_pairs(&ev, byoc_ev_seq_part(&ev, BYOC_SEQ_PINPUTS), batch) || ev.undef) {
        fprintf(stderr, "large: two batch sizes passed\n");
        failures++;
    }
    ev.npart = ev.npinputs = BIG - 2;
    if (!byoc_ev_all_pairs(&ev, byoc_ev_seq_part(&ev, BYOC_SEQ_PINPUTS), batch) || ev.undef) {
        fprintf(stderr, "large: one batch size refused\n");
        failures++;
    }
    printf("large: 40000 inputs\n");
    free(big);
    byoc_graph_destroy(g);
    byoc_registry_destroy(reg);
    printf("%d failures\n", failures);
    return failures ? 1 : 0;
}
