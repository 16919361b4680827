/* The matcher.
 *
 * Matching is a backtracking search over a list of goals, each "pattern
 * node p must match graph node n".  A goal either fails, succeeds and adds
 * the goals for its children, or branches (alternatives, the two orders of
 * a commutative call); the goal list is immutable and lives on the C
 * stack, so a branch just continues from a different list, and undoing a
 * branch means popping what it pushed on the binding trail.  When the list
 * is empty every goal held and the bindings are one match.
 *
 * A pattern node with a slot is bound to the first graph node it matches;
 * meeting it again only checks that it is the same node, which is how a
 * name used twice, or a let parameter used twice, means one node. */
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "match.h"

typedef struct goal {
    int p, n;
    const struct goal *next;
} goal;

typedef struct mstate {
    const byoc_graph *g;
    const byoc_pattern_decl *pat;
    int *slots;
    int *members, nmem;       /* a stack; sorted copies are reported */
    int *inputs, nin;
    int *scratch;             /* sorted, de-duplicated copies for the callback */
    int cap;
    int *all_slots;           /* every slot, aliases included, for the callback */
    int root;
    bx_match_fn fn;
    void *ctx;
    int count;
    bool stop;
    bx_mismatch *why;         /* diagnosing: the furthest failure so far */
    int focus;                /* diagnosing: the node the user asks about */
    long steps;               /* goals tried, up to BX_MATCH_MAX_STEPS */
    bool cut;                 /* ... and it passed that */
} mstate;

static void solve(mstate *s, const goal *gl);

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sort and de-duplicate n ints in place; returns the new count. */
static int sort_unique(int *v, int n)
{
    qsort(v, (size_t)n, sizeof(int), cmp_int);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (k == 0 || v[k - 1] != v[i])
            v[k++] = v[i];
    return k;
}

static void report(mstate *s)
{
    int *mem = s->scratch, *in = s->scratch + s->cap;
    memcpy(mem, s->members, sizeof(int) * (size_t)s->nmem);
    int nm = sort_unique(mem, s->nmem);
    /* Inputs are what the kernel reads from outside, so a wildcard bound
     * to one of the match's own members (multiply(b, b) against
     * multiply(b: bias(...), res)) makes no match: the node cannot be both
     * computed inside and read from outside. */
    int ni = 0;
    for (int i = 0; i < s->nin; i++) {
        if (bsearch(&s->inputs[i], mem, (size_t)nm, sizeof(int), cmp_int))
            return;
        in[ni++] = s->inputs[i];
    }
    ni = sort_unique(in, ni);
    if (nm == 0)
        return; /* only wildcards matched: not a kernel */
    /* A slot's node is its pattern node's binding; an alias names a node
     * whose own slot is another. */
    for (int i = 0; i < s->pat->nslots; i++) {
        const byoc_pnode *pn = &s->pat->nodes[s->pat->slots[i].pnode];
        s->all_slots[i] = pn->slot >= 0 ? s->slots[pn->slot] : -1;
    }
    bx_match m = {s->pat, s->root, nm, mem, ni, in, s->pat->nslots, s->all_slots};
    s->count++;
    if (s->fn && s->fn(&m, s->ctx))
        s->stop = true;
}

static bool const_matches(const byoc_graph *g, const byoc_pnode *p, int n)
{
    if (byoc_node_kind_of(g, n) != BYOC_N_CONST)
        return false;
    const byoc_tensor_type *t = byoc_node_type(g, n, -1);
    if (p->index >= 0 && (!t || t->dtype != (byoc_dtype)p->index))
        return false;
    if (!p->value)
        return true;
    /* A scalar (or one-element) constant with that value. */
    const byoc_value *v = byoc_node_const_value(g, n);
    if (!v)
        return false;
    if (v->kind == BYOC_V_LIST && v->u.list.n == 1)
        v = &v->u.list.items[0];
    return byoc_value_equal(v, p->value);
}

static bool call_matches(const byoc_graph *g, const byoc_pnode *p, int n)
{
    if (byoc_node_kind_of(g, n) != BYOC_N_CALL || byoc_node_arg_count(g, n) != p->nkids)
        return false;
    const char *op = byoc_node_op_name(g, n);
    bool found = false;
    for (int i = 0; i < p->nops && !found; i++)
        found = strcmp(p->ops[i], op) == 0;
    if (!found)
        return false;
    for (int i = 0; i < p->nattrs; i++) {
        const byoc_value *v = byoc_node_attr(g, n, p->attrs[i].name);
        if (!v || !byoc_value_equal(v, &p->attrs[i].value))
            return false;
    }
    return true;
}

/* Solve the children goals, kids[i] against graph node n's argument i (the
 * two arguments the other way round when swap), and then the rest.  The
 * arguments are read in place: a call may have any number of them. */
static void solve_kids(mstate *s, const byoc_pnode *p, int n, bool swap, const goal *rest)
{
    goal cells[16];
    goal *heap = NULL, *cell = cells;
    if (p->nkids > 16) {
        heap = malloc(sizeof(goal) * p->nkids);
        if (!heap)
            bx_oom();
        cell = heap;
    }
    const goal *list = rest;
    for (int i = p->nkids - 1; i >= 0; i--) {
        cell[i] = (goal){p->kids[i], byoc_node_arg(s->g, n, swap ? 1 - i : i), list};
        list = &cell[i];
    }
    solve(s, list);
    free(heap);
}

/* Record a failure of pattern node p at graph node n when diagnosing and
 * it got further than the one recorded. */
static void fail(mstate *s, bx_mismatch_kind kind, int p, int n, int attr, int bound)
{
    if (!s->why)
        return;
    int progress = s->nmem + s->nin;
    bool touched = n == s->focus;
    for (int i = 0; i < s->nmem && !touched; i++)
        touched = s->members[i] == s->focus;
    /* An attempt that reached the node beats one that did not. */
    if (s->why->kind != BX_MISMATCH_NONE
        && (s->why->touched > touched
            || (s->why->touched == touched && progress <= s->why->progress)))
        return;
    *s->why = (bx_mismatch){kind, p, n, attr, bound, progress, touched};
}

/* Why a call pattern node does not match n (call_matches is false). */
static void fail_call(mstate *s, const byoc_pnode *p, int pi, int n)
{
    const byoc_graph *g = s->g;
    if (byoc_node_kind_of(g, n) != BYOC_N_CALL) {
        fail(s, BX_MISMATCH_OP, pi, n, -1, -1);
        return;
    }
    const char *op = byoc_node_op_name(g, n);
    bool found = false;
    for (int i = 0; i < p->nops && !found; i++)
        found = strcmp(p->ops[i], op) == 0;
    if (!found) {
        fail(s, BX_MISMATCH_OP, pi, n, -1, -1);
    } else if (byoc_node_arg_count(g, n) != p->nkids) {
        fail(s, BX_MISMATCH_ARITY, pi, n, -1, -1);
    } else {
        for (int i = 0; i < p->nattrs; i++) {
            const byoc_value *v = byoc_node_attr(g, n, p->attrs[i].name);
            if (!v || !byoc_value_equal(v, &p->attrs[i].value)) {
                fail(s, BX_MISMATCH_ATTR, pi, n, i, -1);
                return;
            }
        }
    }
}

static void push_member(mstate *s, int n) { s->members[s->nmem++] = n; }
static void push_input(mstate *s, int n) { s->inputs[s->nin++] = n; }

static void solve(mstate *s, const goal *gl)
{
    if (s->stop)
        return;
    if (++s->steps > BX_MATCH_MAX_STEPS) {
        s->cut = s->stop = true;
        return;
    }
    if (!gl) {
        report(s);
        return;
    }
    const byoc_pnode *p = &s->pat->nodes[gl->p];
    const byoc_graph *g = s->g;
    int n = gl->n;
    if (p->slot >= 0 && s->slots[p->slot] >= 0) {
        if (s->slots[p->slot] == n)
            solve(s, gl->next);
        else
            fail(s, BX_MISMATCH_SAME, gl->p, n, -1, s->slots[p->slot]);
        return;
    }
    int save_mem = s->nmem, save_in = s->nin;
    if (s->nmem >= s->cap || s->nin >= s->cap)
        return; /* a pattern larger than the graph: no match */
    if (p->slot >= 0)
        s->slots[p->slot] = n;
    switch ((byoc_pkind)p->kind) {
    case BYOC_PAT_WILD:
        push_input(s, n);
        solve(s, gl->next);
        break;
    case BYOC_PAT_CONST:
        if (const_matches(g, p, n)) {
            push_input(s, n);
            solve(s, gl->next);
        } else {
            fail(s, BX_MISMATCH_CONST, gl->p, n, -1, -1);
        }
        break;
    case BYOC_PAT_CALL:
        if (call_matches(g, p, n)) {
            push_member(s, n);
            solve_kids(s, p, n, false, gl->next);
            if ((p->flags & BYOC_PF_COMMUTE) && p->nkids == 2
                && byoc_node_arg(g, n, 0) != byoc_node_arg(g, n, 1))
                solve_kids(s, p, n, true, gl->next);
        } else {
            fail_call(s, p, gl->p, n);
        }
        break;
    case BYOC_PAT_ALT:
        for (int i = 0; i < p->nkids && !s->stop; i++) {
            goal alt = {p->kids[i], n, gl->next};
            solve(s, &alt);
        }
        break;
    case BYOC_PAT_TUPLE:
        if (byoc_node_kind_of(g, n) == BYOC_N_TUPLE && byoc_node_arg_count(g, n) == p->nkids) {
            push_member(s, n);
            solve_kids(s, p, n, false, gl->next);
        } else {
            fail(s, BX_MISMATCH_TUPLE, gl->p, n, -1, -1);
        }
        break;
    case BYOC_PAT_TUPLE_ANY:
        if (byoc_node_kind_of(g, n) == BYOC_N_TUPLE) {
            push_member(s, n);
            int na = byoc_node_arg_count(g, n);
            for (int i = 0; i < na && s->nin < s->cap; i++)
                push_input(s, byoc_node_arg(g, n, i));
            solve(s, gl->next);
        } else {
            fail(s, BX_MISMATCH_TUPLE, gl->p, n, -1, -1);
        }
        break;
    case BYOC_PAT_PROJ:
        if (byoc_node_kind_of(g, n) == BYOC_N_PROJ
            && (p->index < 0 || byoc_node_proj_index(g, n) == p->index) && p->nkids == 1) {
            push_member(s, n);
            goal k = {p->kids[0], byoc_node_arg(g, n, 0), gl->next};
            solve(s, &k);
        } else {
            fail(s, BX_MISMATCH_PROJ, gl->p, n, -1, -1);
        }
        break;
    }
    s->nmem = save_mem;
    s->nin = save_in;
    if (p->slot >= 0)
        s->slots[p->slot] = -1;
}

static int match_run(const byoc_graph *g, const byoc_pattern_decl *p, int root,
                     bx_match_fn fn, void *ctx, bx_mismatch *why, int focus)
{
    int nodes = byoc_graph_node_count(g);
    if (root < 0 || root >= nodes || p->nnodes == 0)
        return 0;
    mstate s;
    memset(&s, 0, sizeof s);
    s.g = g;
    s.pat = p;
    s.fn = fn;
    s.ctx = ctx;
    /* No match has more members or inputs than pattern node visits, and a
     * tuple of any arity adds at most a node's arguments. */
    s.cap = nodes + p->nnodes + 1;
    int slots = p->nslots > 0 ? p->nslots : 1;
    int *mem = malloc(sizeof(int) * ((size_t)s.cap * 4 + 2 * (size_t)slots));
    if (!mem)
        bx_oom();
    s.members = mem;
    s.inputs = mem + s.cap;
    s.scratch = mem + 2 * s.cap;
    s.slots = mem + 4 * s.cap;
    s.all_slots = s.slots + slots;
    s.root = root;
    s.why = why;
    s.focus = focus;
    for (int i = 0; i < p->nslots; i++)
        s.slots[i] = -1;
    goal first = {p->root, root, NULL};
    solve(&s, &first);
    free(mem);
    return s.cut ? -1 : s.count;
}

int bx_match_at(const byoc_graph *g, const byoc_pattern_decl *p, int root, bx_match_fn fn,
                void *ctx)
{
    return match_run(g, p, root, fn, ctx, NULL, -1);
}

int bx_match_diagnose(const byoc_graph *g, const byoc_pattern_decl *p, int root, int focus,
                      bx_mismatch *why)
{
    memset(why, 0, sizeof *why);
    why->kind = BX_MISMATCH_NONE;
    int n = match_run(g, p, root, NULL, NULL, why, focus);
    if (n > 0)
        why->kind = BX_MISMATCH_NONE;
    return n;
}

bool bx_match_holds(const byoc_graph *g, const byoc_pattern_decl *p, const bx_match *m,
                    const byoc_value *options, int noptions, int *failed_clause)
{
    if (failed_clause)
        *failed_clause = -1;
    if (!p->pred.fn)
        return true;
    byoc_eval ev;
    memset(&ev, 0, sizeof ev);
    ev.graph = g;
    ev.slots = m->slots;
    ev.nslots = m->nslots;
    ev.options = options;
    ev.noptions = noptions;
    ev.failed_clause = -1;
    bool ok = p->pred.fn(&ev);
    if (failed_clause)
        *failed_clause = ok ? -1 : ev.failed_clause;
    return ok;
}
