/* The text writer: a partitioning as a table for the terminal - the
 * partitions, the time per target, then the totals and how the search
 * ended.
 *
 * Columns are padded to their widest cell and long lists of ops or nodes
 * are cut at a fixed width, the rest counted, so a line stays readable
 * whatever the model. */
#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/partition.h>

#include "die.h"
#include "errfmt.h"
#include "strbuf.h"
#include "writers.h"

/* A table whose columns are padded to their widest cell. */
typedef struct table {
    int ncols;
    const char *align;     /* 'l' or 'r' per column */
    char **cells;          /* row-major */
    int nrows, cap;
} table;

static void table_add(table *t, const char *const *cells)
{
    if (t->nrows == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->cells = realloc(t->cells, sizeof(char *) * (size_t)t->cap * (size_t)t->ncols);
        if (!t->cells)
            bx_oom();
    }
    for (int c = 0; c < t->ncols; c++) {
        size_t len = strlen(cells[c]);
        char *s = malloc(len + 1);
        if (!s)
            bx_oom();
        memcpy(s, cells[c], len + 1);
        t->cells[t->nrows * t->ncols + c] = s;
    }
    t->nrows++;
}

/* Two spaces between columns; no trailing spaces, whatever is empty. */
static void table_print(table *t, FILE *f, const char *indent)
{
    size_t *w = bx_xcalloc((size_t)t->ncols, sizeof(size_t));
    for (int r = 0; r < t->nrows; r++)
        for (int c = 0; c < t->ncols; c++) {
            size_t len = strlen(t->cells[r * t->ncols + c]);
            if (len > w[c])
                w[c] = len;
        }
    bx_strbuf line = {0};
    for (int r = 0; r < t->nrows; r++) {
        bx_sb_reset(&line);
        bx_sb_printf(&line, "%s", indent);
        for (int c = 0; c < t->ncols; c++) {
            const char *s = t->cells[r * t->ncols + c];
            int width = (int)w[c];
            bx_sb_printf(&line, t->align[c] == 'r' ? "%s%*s" : "%s%-*s", c ? "  " : "", width, s);
        }
        while (line.len > 0 && line.s[line.len - 1] == ' ')
            line.s[--line.len] = 0;
        fprintf(f, "%s\n", line.s);
    }
    bx_sb_free(&line);
    free(w);
    for (int i = 0; i < t->nrows * t->ncols; i++)
        free(t->cells[i]);
    free(t->cells);
    t->cells = NULL;
    t->nrows = t->cap = 0;
}

/* The composite of partition P that holds node, or -1. */
static int composite_of(const byoc_partition *P, int node)
{
    for (int c = 0; c < P->ncomposites; c++)
        for (int i = 0; i < P->composites[c].nnodes; i++)
            if (P->composites[c].nodes[i] == node)
                return c;
    return -1;
}


/* Items joined by sep; past `limit` characters the rest is counted, not
 * listed: "nn.conv2d+add+...(+7)". */
static void join_short(bx_strbuf *out, char **items, int n, const char *sep, size_t limit)
{
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += strlen(items[i]) + (i ? strlen(sep) : 0);
    int shown = n;
    if (total > limit) {
        size_t len = 0;
        shown = 0;
        while (shown < n) {
            size_t add = strlen(items[shown]) + (shown ? strlen(sep) : 0);
            if (len + add + 12 > limit && shown > 0)
                break;
            len += add;
            shown++;
        }
    }
    for (int i = 0; i < shown; i++)
        bx_sb_printf(out, "%s%s", i ? sep : "", items[i]);
    if (shown < n)
        bx_sb_printf(out, "%s...(+%d)", sep, n - shown);
}

static void free_items(char **items, int n)
{
    for (int i = 0; i < n; i++)
        free(items[i]);
    free(items);
}

static char *dup_str(const char *s)
{
    size_t len = strlen(s);
    char *d = malloc(len + 1);
    if (!d)
        bx_oom();
    memcpy(d, s, len + 1);
    return d;
}

/* What a partition runs: its composites by pattern name, at the place of
 * their first node, and its other calls by op. */
static void put_runs(bx_strbuf *out, const byoc_graph *g, const byoc_partition *P)
{
    char **items = bx_xcalloc((size_t)P->nnodes + 1, sizeof(char *));
    bool *seen = bx_xcalloc((size_t)P->ncomposites + 1, sizeof(bool));
    int n = 0;
    for (int i = 0; i < P->nnodes; i++) {
        int node = P->nodes[i];
        int c = composite_of(P, node);
        if (c >= 0 && !seen[c]) {
            seen[c] = true;
            items[n++] = dup_str(P->composites[c].pattern ? P->composites[c].pattern : "?");
        } else if (c < 0 && byoc_node_kind_of(g, node) == BYOC_N_CALL) {
            items[n++] = dup_str(byoc_node_op_name(g, node));
        }
    }
    join_short(out, items, n, "+", 40);
    free_items(items, n);
    free(seen);
}

/* "%12" -> 12; -1 for names that are not Relay's numbered locals, and for
 * numbers past INT_MAX (a name is text: "%9223372036854775807" is one too,
 * but no run of them can be counted on without overflowing). */
static long local_number(const char *s)
{
    if (!s || s[0] != '%' || s[1] < '0' || s[1] > '9' || (s[1] == '0' && s[2]))
        return -1;
    long v = 0;
    for (const char *p = s + 1; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (*p - '0');
        if (v > INT_MAX)
            return -1;
    }
    return v;
}

/* The nodes of a partition by name, runs of consecutive Relay locals
 * compressed: "%3..%7,%9". */
static void put_names(bx_strbuf *out, const byoc_graph *g, const byoc_partition *P)
{
    char **items = bx_xcalloc((size_t)P->nnodes + 1, sizeof(char *));
    int n = 0;
    bx_strbuf b = {0};
    for (int i = 0; i < P->nnodes;) {
        long v = local_number(byoc_node_name(g, P->nodes[i]));
        int j = i + 1;
        while (v >= 0 && j < P->nnodes
               && local_number(byoc_node_name(g, P->nodes[j])) - v == (long)(j - i))
            j++;
        bx_sb_reset(&b);
        if (j - i >= 3) {
            bx_sb_printf(&b, "%%%ld..%%%ld", v, v + (j - i - 1));
        } else {
            j = i + 1;
            bx_put_node_label(&b, g, P->nodes[i], BX_LABEL_BARE_CONST);
        }
        items[n++] = dup_str(bx_sb_str(&b));
        i = j;
    }
    bx_sb_free(&b);
    join_short(out, items, n, ",", 32);
    free_items(items, n);
}

static bool any_measured(const byoc_result *r)
{
    for (int p = 0; p < r->npartitions; p++)
        if (r->partitions[p].cost_source != BYOC_COST_ANALYTIC)
            return true;
    return false;
}

static void text_partitions(const byoc_result *r, FILE *f)
{
    bool src = any_measured(r);
    table t = {src ? 7 : 6, src ? "rllllrl" : "rllllr", NULL, 0, 0};
    const char *head[] = {"#", "target", "device", "runs", "nodes", "cost (us)", "source"};
    table_add(&t, head);
    bx_strbuf runs = {0}, names = {0};
    for (int p = 0; p < r->npartitions; p++) {
        const byoc_partition *P = &r->partitions[p];
        char idx[16], cost[32];
        snprintf(idx, sizeof idx, "%d", p);
        bx_sb_reset(&runs);
        bx_sb_reset(&names);
        put_runs(&runs, r->graph, P);
        put_names(&names, r->graph, P);
        const char *row[] = {idx, P->target->name, bx_device_name(bx_part_device(r, P)),
                             bx_sb_str(&runs), bx_sb_str(&names),
                             bx_fmt_us(cost, sizeof cost, P->cost),
                             P->cost_source == BYOC_COST_ANALYTIC ? "" : byoc_cost_source_name(P->cost_source)};
        table_add(&t, row);
    }
    bx_sb_free(&runs);
    bx_sb_free(&names);
    table_print(&t, f, "");
}

static int count_calls(const byoc_graph *g, const byoc_partition *P)
{
    int calls = 0;
    for (int i = 0; i < P->nnodes; i++)
        calls += byoc_node_kind_of(g, P->nodes[i]) == BYOC_N_CALL;
    return calls;
}

static void text_targets(const byoc_result *r, FILE *f)
{
    table t = {5, "llrrr", NULL, 0, 0};
    const char *head[] = {"target", "device", "partitions", "calls", "time (us)"};
    table_add(&t, head);
    const byoc_registry *reg = byoc_graph_registry(r->graph);
    for (int k = 0; k < r->ntargets; k++) {
        const byoc_target_decl *tg = r->targets[k];
        int parts = 0, calls = 0;
        double time = 0;
        for (int p = 0; p < r->npartitions; p++) {
            const byoc_partition *P = &r->partitions[p];
            if (strcmp(P->target->name, tg->name) != 0)
                continue;
            parts++;
            calls += count_calls(r->graph, P);
            time += P->cost;
        }
        char np[16], nc[16], us[32];
        snprintf(np, sizeof np, "%d", parts);
        snprintf(nc, sizeof nc, "%d", calls);
        const char *row[] = {tg->name, bx_device_name(byoc_target_device(reg, tg)), np, nc,
                             bx_fmt_us(us, sizeof us, time)};
        table_add(&t, row);
    }
    table_print(&t, f, "");
}

/* "optimal", or how far from it the result may be and which budget ran
 * out: "within 3.2% of optimal (state budget)". */
const char *byoc_result_optimality(const byoc_result *r, char *buf, size_t size)
{
    if (r->optimal)
        return "optimal";
    const char *why = r->time_hit ? "time limit" : r->budget_hit ? "state budget" : NULL;
    double gap = byoc_result_gap(r);
    if (isinf(gap))
        snprintf(buf, size, "not proven optimal%s%s%s", why ? " (" : "", why ? why : "",
                 why ? ")" : "");
    else
        snprintf(buf, size, "within %.*f%% of optimal%s%s%s", gap * 100 < 0.1 ? 3 : 1,
                 gap * 100, why ? " (" : "", why ? why : "", why ? ")" : "");
    return buf;
}

static void text_totals(const byoc_result *r, FILE *f)
{
    table t = {2, "ll", NULL, 0, 0};
    char buf[160], a[32], b[32];
    snprintf(buf, sizeof buf, "%s us (transfers %s us)", bx_fmt_us(a, sizeof a, r->cost),
             bx_fmt_us(b, sizeof b, r->transfer_cost));
    table_add(&t, (const char *const[]){"estimated latency", buf});
    char gap[96];
    table_add(&t, (const char *const[]){"search", byoc_result_optimality(r, gap, sizeof gap)});
    snprintf(buf, sizeof buf, "%zu", r->ncandidates);
    table_add(&t, (const char *const[]){"candidates", buf});
    snprintf(buf, sizeof buf, "%zu", r->nkernels);
    table_add(&t, (const char *const[]){"kernels", buf});
    /* Where the chosen kernels' costs came from, when not all from the
     * analytic model, or when a table was given: kernels missing from a
     * table fall back to the model, and the user should see how many. */
    size_t other = r->from_table + r->from_callback + r->unknown;
    size_t analytic = (size_t)r->npartitions > other ? (size_t)r->npartitions - other : 0;
    if (r->cost_table || r->from_callback || r->unknown) {
        bx_strbuf k = {0};
        const char *sep = "";
        if (r->from_callback) {
            bx_sb_printf(&k, "%s%zu from the callback", sep, r->from_callback);
            sep = ", ";
        }
        if (r->cost_table || r->from_table) {
            bx_sb_printf(&k, "%s%zu from the cost table", sep, r->from_table);
            sep = ", ";
        }
        bx_sb_printf(&k, "%s%zu analytic%s", sep, analytic,
                     r->cost_table ? " (not in the table)" : "");
        if (r->unknown)
            bx_sb_printf(&k, ", %zu of unknown cost", r->unknown);
        table_add(&t, (const char *const[]){"partition costs", bx_sb_str(&k)});
        bx_sb_free(&k);
    }
    /* Costs a free dimension leaves unknown are charged a kernel launch:
     * say which dimensions, and how to fix them. */
    if (r->unknown) {
        bx_strbuf d = {0};
        const byoc_graph *g = r->graph;
        int ns = byoc_graph_symbol_count(g), listed = 0;
        bool *used = ns ? calloc((size_t)ns, sizeof *used) : NULL;
        if (ns && !used)
            bx_oom();
        for (int i = 0; i < byoc_graph_node_count(g) && ns; i++) {
            const byoc_tensor_type *ty = byoc_node_type(g, i, -1);
            for (int ax = 0; ty && ax < ty->rank; ax++)
                if (ty->dims[ax] <= -2 && -2 - ty->dims[ax] < ns)
                    used[-2 - ty->dims[ax]] = true;
        }
        for (int id = 0; id < ns; id++)
            if (used[id] && byoc_graph_symbol_value(g, id) < 0 && listed++ < 8)
                bx_sb_printf(&d, "%s%s", listed > 1 ? ", " : "", byoc_graph_symbol_name(g, id));
        free(used);
        if (listed) {
            bx_sb_printf(&d, "%s (unknown costs are charged a kernel launch; bind them with "
                             "--dim NAME=SIZE)", listed > 8 ? ", ..." : "");
            table_add(&t, (const char *const[]){"free dimensions", bx_sb_str(&d)});
        }
        bx_sb_free(&d);
    }
    snprintf(buf, sizeof buf, "%zu", r->expanded);
    table_add(&t, (const char *const[]){"states expanded", buf});
    table_print(&t, f, "");
}

static int byoc_result_write_text_unguarded(const byoc_result *r, FILE *f, byoc_error *err)
{
    if (bx_result_check(r, err) < 0)
        return -1;
    const char *model = byoc_graph_source(r->graph);
    fprintf(f, "model %s, strategy %s, targets", model && *model ? model : "-",
            r->strategy ? r->strategy : "-");
    for (int k = 0; k < r->ntargets; k++)
        fprintf(f, "%s %s", k ? "," : "", r->targets[k]->name);
    fputs(r->ntargets ? "\n\n" : " -\n\n", f);
    text_partitions(r, f);
    fputc('\n', f);
    text_targets(r, f);
    fputc('\n', f);
    text_totals(r, f);
    return bx_writer_finish(f, err, "text output");
}

int byoc_result_write_text(const byoc_result *r, FILE *f, byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, -1);
    int result = byoc_result_write_text_unguarded(r, f, err);
    bx_oom_close(&guard);
    return result;
}
