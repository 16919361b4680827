/* Explain (doc/partitioner.md section 6): why a node went where it went.
 *
 * For the node's target, what it runs in; for every other searched target
 * the first reason on this list that applies:
 *  1. no rule of the target names the node's op;
 *  2. the patterns that name it do not match around it: for each, the
 *     furthest the matcher got (which pattern node failed at which graph
 *     node, and how);
 *  3. a pattern matched but its predicate did not hold: the clause that
 *     was false, with the values of the names it reads;
 *  4. a match held but no kernel containing the node survived the
 *     target's partition rules or fusion bounds (the rule and clause);
 *  5. it was possible but cost more: the best placement with the node on
 *     that target, against the optimum, both in microseconds.
 * The search for (5) is the exact search with every other target's
 * candidates that hold the node removed, so the comparison is exact over
 * the same candidates. */
#include <byoc/partition.h>
#include <byoc/relay.h>

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cand.h"
#include "die.h"
#include "errfmt.h"
#include "match.h"
#include "partition_impl.h"
#include "strbuf.h"
#include "writers/writers.h"

/* At most this many patterns are explained per target, the rest counted,
 * unless the targets were named (then every one). */
#define MAX_PATTERNS_SHOWN 6

/* A node's label (writers.h) in buf: explain lays its lines out in fixed
 * buffers, where a long name is cut. */
static const char *node_label(const byoc_graph *g, int n, char *buf, size_t size)
{
    bx_strbuf b = {0};
    bx_put_node_label(&b, g, n, BX_LABEL_BARE_GLOBAL);
    snprintf(buf, size, "%s", bx_sb_str(&b));
    bx_sb_free(&b);
    return buf;
}

static bool pattern_names_op(const byoc_pattern_decl *p, const char *op)
{
    for (int i = 0; i < p->nnodes; i++) {
        const byoc_pnode *pn = &p->nodes[i];
        if (pn->kind != BYOC_PAT_CALL)
            continue;
        for (int k = 0; k < pn->nops; k++)
            if (!strcmp(pn->ops[k], op))
                return true;
    }
    return false;
}

static bool sorted_has(const int *v, int n, int x)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (v[mid] == x)
            return true;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return false;
}

/* The roots a pattern containing node could have: node and what it feeds,
 * up to depth steps (a pattern of k nodes reaches at most k - 1 steps). */
static int roots_near(const byoc_graph *g, int node, int depth, int *out, int max)
{
    int n = 0, head = 0;
    out[n++] = node;
    int level_end = n;
    for (int d = 0; d < depth && head < n; d++) {
        level_end = n;
        for (; head < level_end; head++) {
            int v = out[head];
            for (int i = 0; i < byoc_node_consumer_count(g, v); i++) {
                int w = byoc_node_consumer(g, v, i);
                bool seen = false;
                for (int k = 0; k < n && !seen; k++)
                    seen = out[k] == w;
                if (!seen && n < max)
                    out[n++] = w;
            }
        }
    }
    return n;
}

/* ---- what a pattern's predicate saw ----------------------------------------- */

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Does text mention name as a whole identifier?  Sets *attr_at to the
 * position after "name." when it is followed by an attribute. */
static const char *find_ident(const char *text, const char *name, const char *from)
{
    size_t n = strlen(name);
    for (const char *p = strstr(from, name); p; p = strstr(p + 1, name)) {
        bool start = p == text || (!ident_char(p[-1]) && p[-1] != '.');
        if (start && !ident_char(p[n]))
            return p;
    }
    return NULL;
}

/* Print the values the clause reads: each bound name it mentions, with
 * its type, and each attribute it reads from one. */
static void print_values(FILE *f, const byoc_graph *g, const byoc_pattern_decl *p,
                         const int *slots, int nslots, const char *text)
{
    bool first = true;
    for (int i = 0; i < p->nslots && i < nslots; i++) {
        const char *name = p->slots[i].name;
        if (!name || name[0] == '$' || slots[i] < 0)
            continue;
        int v = slots[i];
        const char *at = find_ident(text, name, text);
        if (!at)
            continue;
        char lab[64], ty[160] = "";
        const byoc_tensor_type *t = byoc_node_field_count(g, v) < 0 ? byoc_node_type(g, v, -1)
                                                                  : NULL;
        if (t)
            byoc_relay_format_type(g, t, ty, sizeof ty);
        /* values(c) of a constant the model gives no contents for (a
         * weight, a long zero-point list) is undefined, so the clause
         * is false: say so, or the reader looks for a wrong value. */
        const byoc_value *cv = byoc_node_kind_of(g, v) == BYOC_N_CONST
                                   ? byoc_node_const_value(g, v) : NULL;
        char cval[64] = "";
        if (byoc_node_kind_of(g, v) == BYOC_N_CONST && !cv)
            snprintf(cval, sizeof cval, ", values not known");
        else if (cv && cv->kind != BYOC_V_LIST) {
            strcpy(cval, " = ");
            byoc_value_format(cv, cval + 3, sizeof cval - 3);
        }
        fprintf(f, "%s%s = %s (%s%s%s%s)", first ? "; it saw " : ", ", name,
                node_label(g, v, lab, sizeof lab), bx_node_what(g, v), *ty ? ": " : "", ty, cval);
        first = false;
        if (byoc_node_kind_of(g, v) != BYOC_N_CALL)
            continue;
        /* name.attr, each once. */
        char seen[8][64];
        int nseen = 0;
        for (; at; at = find_ident(text, name, at + 1)) {
            const char *q = at + strlen(name);
            if (*q != '.')
                continue;
            q++;
            char attr[64];
            size_t k = 0;
            while (ident_char(q[k]) && k + 1 < sizeof attr) {
                attr[k] = q[k];
                k++;
            }
            attr[k] = '\0';
            bool dup = false;
            for (int s = 0; s < nseen && !dup; s++)
                dup = !strcmp(seen[s], attr);
            if (dup || !k)
                continue;
            if (nseen < 8)
                snprintf(seen[nseen++], sizeof seen[0], "%s", attr);
            const byoc_value *val = byoc_node_attr(g, v, attr);
            if (!val)
                continue;
            char vb[160];
            byoc_value_format(val, vb, sizeof vb);
            fprintf(f, ", %s.%s = %s", name, attr, vb);
        }
    }
}

/* ---- one pattern around the node --------------------------------------------- */

typedef struct collect {
    int node;
    const byoc_graph *g;
    const byoc_pattern_decl *p;
    const byoc_value *options;
    int noptions;
    bool held;              /* some match containing node held */
    int held_members[256];
    int nheld;
    bool failed;            /* some match containing node failed its predicate */
    int clause;
    int slots[64];
    int contains;           /* matches containing node */
} collect;

static int on_match(const bx_match *m, void *ctx)
{
    collect *c = ctx;
    if (!sorted_has(m->members, m->nmembers, c->node))
        return 0;
    c->contains++;
    int clause;
    if (bx_match_holds(c->g, c->p, m, c->options, c->noptions, &clause)) {
        if (!c->held) {
            c->held = true;
            c->nheld = m->nmembers < 256 ? m->nmembers : 256;
            memcpy(c->held_members, m->members, (size_t)c->nheld * sizeof(int));
        }
        return 0;
    }
    if (!c->failed) {
        c->failed = true;
        c->clause = clause;
        int ns = m->nslots < 64 ? m->nslots : 64;
        memcpy(c->slots, m->slots, (size_t)ns * sizeof(int));
    }
    return 0;
}

static void print_pattern_name(FILE *f, const byoc_pattern_decl *p)
{
    if (p->name)
        fprintf(f, "pattern %s", p->name);
    else
        fprintf(f, "rule");
    fprintf(f, " (%s:%d:%d)", p->file ? p->file : "?", p->line, p->col);
}

static void print_ops(FILE *f, const byoc_pnode *pn)
{
    for (int k = 0; k < pn->nops; k++)
        fprintf(f, "%s%s", k ? " | " : "", pn->ops[k]);
}

static void print_mismatch(FILE *f, const byoc_graph *g, const byoc_pattern_decl *p,
                           const bx_mismatch *w)
{
    const byoc_pnode *pn = &p->nodes[w->pnode];
    char lab[64], lab2[64];
    node_label(g, w->node, lab, sizeof lab);
    switch (w->kind) {
    case BX_MISMATCH_OP:
        fprintf(f, "%s is %s, the pattern wants ", lab, bx_node_what(g, w->node));
        print_ops(f, pn);
        break;
    case BX_MISMATCH_ARITY:
        fprintf(f, "%s has %d arguments, the pattern's ", lab, byoc_node_arg_count(g, w->node));
        print_ops(f, pn);
        fprintf(f, " %d", pn->nkids);
        break;
    case BX_MISMATCH_ATTR: {
        const byoc_attr_eq *a = &pn->attrs[w->attr];
        const byoc_value *v = byoc_node_attr(g, w->node, a->name);
        char want[128], have[128] = "absent";
        byoc_value_format(&a->value, want, sizeof want);
        if (v)
            byoc_value_format(v, have, sizeof have);
        fprintf(f, "%s has %s=%s, the pattern wants %s", lab, a->name, have, want);
        break;
    }
    case BX_MISMATCH_CONST:
        if (byoc_node_kind_of(g, w->node) != BYOC_N_CONST)
            fprintf(f, "%s is %s, the pattern wants a constant", lab, bx_node_what(g, w->node));
        else
            fprintf(f, "%s is a constant of another value or dtype than the pattern's", lab);
        break;
    case BX_MISMATCH_TUPLE:
        fprintf(f, "%s is %s, the pattern wants a tuple", lab, bx_node_what(g, w->node));
        if (pn->kind == BYOC_PAT_TUPLE)
            fprintf(f, " of %d fields", pn->nkids);
        break;
    case BX_MISMATCH_PROJ:
        fprintf(f, "%s is %s, the pattern wants a projection", lab, bx_node_what(g, w->node));
        if (pn->index >= 0)
            fprintf(f, " .%d", pn->index);
        break;
    case BX_MISMATCH_SAME:
        fprintf(f, "%s must be the node matched before, %s", lab,
                node_label(g, w->bound, lab2, sizeof lab2));
        break;
    case BX_MISMATCH_NONE:
        break;
    }
}

/* Explain one pattern of target t around node; returns true when a match
 * containing node held (the reason lies further on). */
static bool explain_pattern(FILE *f, const bx_session *s, const byoc_target_decl *t,
                            const byoc_pattern_decl *p, int node, int **held, int *nheld)
{
    const byoc_graph *g = s->graph;
    int cap = 4096;
    int *roots = malloc((size_t)cap * sizeof *roots);
    if (!roots)
        bx_oom();
    int nroots = roots_near(g, node, p->nnodes, roots, cap);
    collect c = {.node = node, .g = g, .p = p,
                 .options = byoc_target_options(s->reg, t), .noptions = t->noptions};
    for (int i = 0; i < nroots; i++)
        if (bx_match_at(g, p, roots[i], on_match, &c) < 0)
            break;      /* its alternatives multiply: the search refuses it too */
    fprintf(f, "    ");
    print_pattern_name(f, p);
    if (c.held) {
        fprintf(f, ": matches\n");
        *held = malloc((size_t)c.nheld * sizeof(int));
        if (!*held)
            bx_oom();
        memcpy(*held, c.held_members, (size_t)c.nheld * sizeof(int));
        *nheld = c.nheld;
        free(roots);
        return true;
    }
    if (c.failed) {
        const char *text = c.clause >= 0 && c.clause < p->pred.nclauses
                               ? p->pred.clauses[c.clause].text : "?";
        fprintf(f, ": matches, but `%s` is false", text);
        if (c.clause >= 0 && c.clause < p->pred.nclauses) {
            const byoc_clause_decl *cl = &p->pred.clauses[c.clause];
            if (cl->via)
                fprintf(f, " in `%s`", cl->via);
            fprintf(f, " (%s:%d:%d)", cl->file ? cl->file : p->file ? p->file : "?", cl->line,
                    cl->col);
        }
        print_values(f, g, p, c.slots, (int)(sizeof c.slots / sizeof *c.slots), text);
        fputc('\n', f);
        free(roots);
        return false;
    }
    /* No match holds the node: the furthest failure over the roots. */
    bx_mismatch best = {.kind = BX_MISMATCH_NONE, .progress = -1};
    int best_root = -1;
    for (int i = 0; i < nroots; i++) {
        bx_mismatch w;
        int nm = bx_match_diagnose(g, p, roots[i], node, &w);
        if (nm < 0)
            break;      /* cut short (BX_MATCH_MAX_STEPS): no more roots */
        if (nm > 0 || w.kind == BX_MISMATCH_NONE)
            continue;
        /* Only attempts that reached the node say something about it;
         * among them, the one that got furthest. */
        if (w.touched && w.progress > best.progress) {
            best = w;
            best_root = roots[i];
        }
    }
    char lab[64];
    if (best.kind == BX_MISMATCH_NONE || best.progress == 0) {
        const byoc_pnode *root = &p->nodes[p->root];
        if (root->kind == BYOC_PAT_CALL) {
            fprintf(f, ": no attempt from a ");
            print_ops(f, root);
            fprintf(f, " call (its root) within %d steps reaches %s\n", p->nnodes - 1,
                    node_label(g, node, lab, sizeof lab));
        } else {
            fprintf(f, ": no match holds %s\n", node_label(g, node, lab, sizeof lab));
        }
    } else {
        fprintf(f, ": tried at %s, ", node_label(g, best_root, lab, sizeof lab));
        print_mismatch(f, g, p, &best);
        fputc('\n', f);
    }
    free(roots);
    return false;
}

/* ---- a target that did not take the node --------------------------------- */

static void explain_no_candidate(FILE *f, const bx_session *s, const byoc_target_decl *t,
                                 int node, bool all)
{
    const byoc_graph *g = s->graph;
    const char *op = byoc_node_op_name(g, node);
    const byoc_registry *reg = s->reg;
    int nr = byoc_target_rule_count(reg, t), np = byoc_target_pattern_count(reg, t);
    int naming = 0;
    for (int i = 0; i < nr + np; i++) {
        const byoc_pattern_decl *p = i < nr ? byoc_target_rule_at(reg, t, i)
                                            : byoc_target_pattern_at(reg, t, i - nr);
        naming += pattern_names_op(p, op);
    }
    if (naming == 0) {
        fprintf(f, "  %s: no rule of %s names %s\n", t->name, t->name, op);
        return;
    }
    fprintf(f, "  %s: %d rule%s name%s %s, and none gives a kernel that holds it:\n", t->name,
            naming, naming == 1 ? "" : "s", naming == 1 ? "s" : "", op);
    int shown = 0;
    for (int i = 0; i < nr + np; i++) {
        const byoc_pattern_decl *p = i < nr ? byoc_target_rule_at(reg, t, i)
                                            : byoc_target_pattern_at(reg, t, i - nr);
        if (!pattern_names_op(p, op))
            continue;
        if (shown == MAX_PATTERNS_SHOWN && !all) {
            fprintf(f, "    ... and %d more (name the target with -t to see all)\n",
                    naming - shown);
            break;
        }
        shown++;
        int *held = NULL, nheld = 0;
        if (!explain_pattern(f, s, t, p, node, &held, &nheld))
            continue;
        /* The match held: the kernel was refused as a whole. */
        int rule, clause;
        bool grows = byoc_target_fusion(reg, t) != BYOC_FUSION_NONE;
        if (!bx_partition_rules_hold(g, reg, t, held, nheld, &rule, &clause)) {
            const byoc_predicate_decl *pr = byoc_target_partition_rule_at(reg, t, rule);
            const byoc_clause_decl *cl = pr && clause >= 0 && clause < pr->nclauses
                                             ? &pr->clauses[clause] : NULL;
            fprintf(f, "      but the partition rule `%s` (%s:%d:%d) refuses the match as a "
                       "kernel%s\n",
                    cl ? cl->text : "?", t->file ? t->file : "?", cl ? cl->line : t->line,
                    cl ? cl->col : t->col,
                    grows ? ", and no larger kernel holding it passed the rules and bounds" : "");
        } else if (!bx_convex(g, held, nheld)) {
            fprintf(f, "      but the match is not convex: a path leaves it and comes back\n");
        } else {
            fprintf(f, "      but no kernel holding it is within %s's bounds (max_depth %d, "
                       "max_nodes %d, max_exits %d)\n",
                    t->name, byoc_target_max_depth(reg, t), byoc_target_max_nodes(reg, t),
                    byoc_target_max_exits(reg, t));
        }
        free(held);
    }
}

/* ---- the whole explanation ------------------------------------------------------- */

static bool cand_has(const bx_cand *c, int node)
{
    return sorted_has(c->nodes, c->nnodes, node);
}

static const char *kernel_name(const byoc_graph *g, const byoc_partition *p, char *buf,
                               size_t size)
{
    if (p->ncomposites == 1 && p->composites[0].nnodes > 0) {
        snprintf(buf, size, "%s", p->composites[0].pattern);
        return buf;
    }
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->nnodes && len + 1 < size; i++) {
        int v = p->nodes[i];
        if (byoc_node_kind_of(g, v) != BYOC_N_CALL)
            continue;
        int w = snprintf(buf + len, size - len, "%s%s", len ? "+" : "", byoc_node_op_name(g, v));
        if (w < 0 || (size_t)w >= size - len) {
            if (size > 4)
                strcpy(buf + size - 4, "...");
            break;
        }
        len += (size_t)w;
    }
    return buf;
}

static int byoc_explain_unguarded(const byoc_graph *g, int node, const char *const *targets, int ntargets,
                 const byoc_partition_options *o, FILE *f, byoc_error *err)
{
    if (node < 0 || node >= byoc_graph_node_count(g)) {
        bx_error_set(err, NULL, 0, 0, "no node %d (the graph has %d)", node,
                     byoc_graph_node_count(g));
        return -1;
    }
    char lab[64];
    node_label(g, node, lab, sizeof lab);
    const char *src = byoc_graph_source(g);
    fprintf(f, "%s = %s", lab, bx_node_what(g, node));
    if (byoc_node_line(g, node) > 0)
        fprintf(f, " at %s:%d:%d", src ? src : "?", byoc_node_line(g, node),
                byoc_node_col(g, node));
    fputc('\n', f);
    if (byoc_node_kind_of(g, node) != BYOC_N_CALL) {
        fprintf(f, "  not placed: %s costs nothing and travels with its consumers\n",
                bx_node_what(g, node));
        return ferror(f) ? (bx_error_set(err, NULL, 0, 0, "write error"), -1) : 0;
    }
    bx_session s;
    byoc_partition_options opt;
    if (o)
        opt = *o;
    else
        byoc_partition_options_init(&opt);
    opt.strategy = BYOC_SEARCH_OPTIMAL;
    if (bx_session_open(&s, g, &opt, err) < 0)
        return -1;
    /* Which searched targets to explain: all, or the ones asked for. */
    bool *ask = calloc((size_t)s.ntargets + 1, 1);
    if (!ask)
        bx_oom();
    for (int i = 0; i < s.ntargets; i++)
        ask[i] = ntargets <= 0;
    for (int k = 0; k < ntargets; k++) {
        int found = -1;
        for (int i = 0; i < s.ntargets && found < 0; i++)
            if (!strcmp(s.targets[i]->name, targets[k]))
                found = i;
        if (found < 0) {
            bx_error_set(err, NULL, 0, 0, "target '%s' is not among the targets searched",
                         targets[k]);
            free(ask);
            bx_session_close(&s);
            return -1;
        }
        ask[found] = true;
    }
    byoc_result *r = bx_session_run(&s, "optimal", NULL, err);
    if (!r) {
        free(ask);
        bx_session_close(&s);
        return -1;
    }
    int k = r->node_partition[node];
    const byoc_partition *home = &r->partitions[k];
    char kn[256];
    fprintf(f, "  placed on %s: partition %d, kernel %s, %.3f us; the whole placement %.3f us\n",
            home->target->name, k, kernel_name(g, home, kn, sizeof kn), home->cost * 1e6,
            r->cost * 1e6);
    bool *use = malloc(s.cands.n ? s.cands.n : 1);
    if (!use)
        bx_oom();
    for (int ti = 0; ti < s.ntargets; ti++) {
        const byoc_target_decl *t = s.targets[ti];
        if (t == home->target || !ask[ti])
            continue;
        size_t holding = 0;
        for (size_t i = 0; i < s.cands.n; i++) {
            const bx_cand *c = &s.cands.cands[i];
            bool has = cand_has(c, node);
            holding += has && c->target == ti;
            use[i] = !has || c->target == ti;
        }
        if (holding == 0) {
            explain_no_candidate(f, &s, t, node, ntargets > 0);
            continue;
        }
        byoc_error ferr;
        byoc_result *forced = bx_session_run(&s, "forced", use, &ferr);
        if (!forced) {
            char msg[600];
            byoc_error_format(&ferr, msg, sizeof msg);
            fprintf(f, "  %s: %zu kernel%s could hold it, but no valid placement uses one: %s\n",
                    t->name, holding, holding == 1 ? "" : "s", msg);
            continue;
        }
        const byoc_partition *fp = &forced->partitions[forced->node_partition[node]];
        double extra = forced->cost - r->cost;
        if (extra > 1e-12 * (1 + r->cost))
            fprintf(f, "  %s: possible (as %s, %.3f us), but the best placement with it there "
                       "costs %.3f us, %.3f us more than %.3f us\n",
                    t->name, kernel_name(g, fp, kn, sizeof kn), fp->cost * 1e6,
                    forced->cost * 1e6, extra * 1e6, r->cost * 1e6);
        else
            fprintf(f, "  %s: possible (as %s, %.3f us) at the same total cost, %.3f us; "
                       "the tie went to %s\n",
                    t->name, kernel_name(g, fp, kn, sizeof kn), fp->cost * 1e6,
                    forced->cost * 1e6, home->target->name);
        byoc_result_destroy(forced);
    }
    free(use);
    free(ask);
    byoc_result_destroy(r);
    bx_session_close(&s);
    if (ferror(f)) {
        bx_error_set(err, NULL, 0, 0, "write error");
        return -1;
    }
    return 0;
}

int byoc_explain(const byoc_graph *g, int node, const char *const *targets, int ntargets,
                 const byoc_partition_options *o, FILE *f, byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, -1);
    int result = byoc_explain_unguarded(g, node, targets, ntargets, o, f, err);
    bx_oom_close(&guard);
    return result;
}

/* ---- matches ---------------------------------------------------------------- */

/* Print the labels of the nodes marked in mark[0..n) on one line after
 * lead.  Not wrapped: a wrapped line would repeat lead and read as a new
 * list (and tools read these lines whole). */
static void print_node_list(FILE *f, const byoc_graph *g, const unsigned char *mark, int n,
                            const char *lead)
{
    char lab[64];
    int count = 0;
    for (int v = 0; v < n; v++) {
        if (!mark[v])
            continue;
        node_label(g, v, lab, sizeof lab);
        fprintf(f, "%s%s", count ? " " : lead, lab);
        count++;
    }
    if (count)
        fputc('\n', f);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int byoc_write_matches(const byoc_graph *g, const byoc_partition_options *o, FILE *f,
                       byoc_error *err)
{
    const byoc_registry *reg = byoc_graph_registry(g);
    byoc_partition_options opt;
    if (o)
        opt = *o;
    else
        byoc_partition_options_init(&opt);
    /* No targets named: every backend, whatever its device. */
    const char **all = NULL;
    if (opt.ntargets == 0) {
        int total = byoc_registry_target_count(reg);
        all = calloc((size_t)total + 1, sizeof *all);
        if (!all)
            bx_oom();
        for (int i = 0; i < total; i++) {
            const byoc_target_decl *t = byoc_registry_target_at(reg, i);
            if (!byoc_target_supports_all(reg, t))
                all[opt.ntargets++] = t->name;
        }
        opt.targets = all;
        opt.strategy = BYOC_SEARCH_OPTIMAL;
    }
    bx_session s;
    if (opt.ntargets == 0) {
        free(all);
        bx_error_set(err, NULL, 0, 0, "no targets other than native ones are registered");
        return -1;
    }
    if (bx_session_open(&s, g, &opt, err) < 0) {
        free(all);
        return -1;
    }
    int n = byoc_graph_node_count(g);
    unsigned char *taken = calloc((size_t)n + 1, 1), *roots = calloc((size_t)n + 1, 1);
    const char **ops = calloc((size_t)n + 1, sizeof *ops);
    if (!taken || !roots || !ops)
        bx_oom();
    /* The graph's ops, sorted, and its calls. */
    int nops = 0, ncalls = 0;
    for (int v = 0; v < n; v++) {
        if (byoc_node_kind_of(g, v) != BYOC_N_CALL)
            continue;
        ncalls++;
        ops[nops++] = byoc_node_op_name(g, v);
    }
    qsort(ops, (size_t)nops, sizeof *ops, cmp_str);
    int ndistinct = 0;
    for (int i = 0; i < nops; i++)
        if (i == 0 || strcmp(ops[i], ops[ndistinct - 1]) != 0)
            ops[ndistinct++] = ops[i];
    fprintf(f, "# What each target could take in %s (%d calls), whatever the search\n"
               "# then chooses: calls per op, each named pattern's matches by root, the calls.\n",
            byoc_graph_source(g) ? byoc_graph_source(g) : "the graph", ncalls);
    for (int ti = 0; ti < s.ntargets; ti++) {
        const byoc_target_decl *t = s.targets[ti];
        bool shown = false;
        for (int k = 0; k < opt.ntargets && !shown; k++)
            shown = strcmp(opt.targets[k], t->name) == 0;
        if (!shown)
            continue;
        memset(taken, 0, (size_t)n);
        for (size_t i = 0; i < s.cands.n; i++) {
            const bx_cand *c = &s.cands.cands[i];
            if (c->target != ti)
                continue;
            for (int k = 0; k < c->nnodes; k++)
                if (byoc_node_kind_of(g, c->nodes[k]) == BYOC_N_CALL)
                    taken[c->nodes[k]] = 1;
        }
        int ntaken = 0;
        for (int v = 0; v < n; v++)
            ntaken += taken[v];
        const byoc_device_decl *d = byoc_target_device(reg, t);
        fprintf(f, "\ntarget %s (%s): %d of %d calls\n", t->name, d ? d->name : "?", ntaken,
                ncalls);
        for (int i = 0; i < ndistinct; i++) {
            int have = 0, can = 0;
            for (int v = 0; v < n; v++)
                if (byoc_node_kind_of(g, v) == BYOC_N_CALL
                    && strcmp(byoc_node_op_name(g, v), ops[i]) == 0) {
                    have++;
                    can += taken[v];
                }
            fprintf(f, "  %-28s %4d of %4d\n", ops[i], can, have);
        }
        int np = byoc_target_pattern_count(reg, t), unmatched = 0;
        const char **none = calloc((size_t)np + 1, sizeof *none);
        if (!none)
            bx_oom();
        for (int pi = 0; pi < np; pi++) {
            const byoc_pattern_decl *p = byoc_target_pattern_at(reg, t, pi);
            memset(roots, 0, (size_t)n);
            int count = 0;
            for (size_t i = 0; i < s.cands.n; i++) {
                const bx_cand *c = &s.cands.cands[i];
                if (c->target != ti)
                    continue;
                for (int k = 0; k < c->ncomps; k++) {
                    const bx_comp *cp = &c->comps[k];
                    /* Members are ancestors of the root, and numbering is
                     * topological: the root is the last member. */
                    if (cp->pattern == p && cp->nnodes > 0 && !roots[cp->nodes[cp->nnodes - 1]]) {
                        roots[cp->nodes[cp->nnodes - 1]] = 1;
                        count++;
                    }
                }
            }
            if (!count) {
                none[unmatched++] = p->name;
                continue;
            }
            fprintf(f, "  pattern %s: %d match%s\n", p->name, count, count == 1 ? "" : "es");
            print_node_list(f, g, roots, n, "    at ");
        }
        /* Named, so a typo in a test's pattern name cannot pass as "no
         * match"; one line, as the node lists. */
        for (int i = 0; i < unmatched; i++)
            fprintf(f, "%s%s", i ? " " : "  no match: ", none[i]);
        if (unmatched)
            fputc('\n', f);
        free(none);
        print_node_list(f, g, taken, n, "  calls: ");
    }
    free(taken);
    free(roots);
    free(ops);
    free(all);
    bx_session_close(&s);
    if (ferror(f)) {
        bx_error_set(err, NULL, 0, 0, "write error while writing the matches");
        return -1;
    }
    return 0;
}
