/* Showing a partitioning: a table for the terminal, JSON for tools, Relay
 * text for TVM and Graphviz DOT for people.
 *
 * The writers read only the plain structs of byoc_result and the graph,
 * and write nothing that varies between runs (no timings, no addresses,
 * no hash order), so one result always gives the same bytes and tests can
 * diff them.
 *
 * The one idea needed for the Relay writer: a partitioned module is nested
 * functions - @main calls one global function per partition, which calls
 * one local `fn` per composite - and each function is a *scope*, in which
 * a node is referred to as a parameter, as the number of the statement
 * that computed it, or inline (constants).  Inside a scope, the nodes are
 * grouped into *units* written together (a partition's call in @main, a
 * composite's fn in a partition, else one node), and the units are written
 * in the first order, close to the graph's, in which each comes after
 * everything it uses. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/partition.h>
#include <byoc/relay.h>

#include "die.h"
#include "errfmt.h"
#include "relay_print.h"
#include "report.h"
#include "strbuf.h"

/* ---- shared ------------------------------------------------------------- */

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        bx_oom();
    return p;
}

static int *int_array(int n, int fill)
{
    int *a = xcalloc((size_t)n + 1, sizeof(int));
    for (int i = 0; i <= n; i++)
        a[i] = fill;
    return a;
}

static void sb_reset(bx_strbuf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = 0;
}

static const char *sb_str(const bx_strbuf *b) { return b->s ? b->s : ""; }

/* A write error on a buffered stream shows only once it is flushed (a
 * full disk), so flush before judging. */
static int finish(FILE *f, byoc_error *err, const char *what)
{
    if (fflush(f) != 0 || ferror(f)) {
        bx_error_set(err, NULL, 0, 0, "cannot write the %s: write error", what);
        return -1;
    }
    return 0;
}

static int part_of(const byoc_result *r, int node)
{
    return r->node_partition ? r->node_partition[node] : -1;
}

static const byoc_device_decl *part_device(const byoc_result *r, const byoc_partition *p)
{
    if (p->device)
        return p->device;
    return byoc_target_device(byoc_graph_registry(r->graph), p->target);
}

static const char *device_name(const byoc_device_decl *d) { return d ? d->name : "?"; }

static bool is_native(const byoc_result *r, const byoc_target_decl *t)
{
    return byoc_target_supports_all(byoc_graph_registry(r->graph), t);
}

/* Every writer indexes arrays by node, so a result naming nodes its graph
 * does not have is refused before anything is written. */
static int check_result(const byoc_result *r, byoc_error *err)
{
    if (!r || !r->graph) {
        bx_error_set(err, NULL, 0, 0, "the result has no graph");
        return -1;
    }
    int n = byoc_graph_node_count(r->graph);
    for (int p = 0; p < r->npartitions; p++) {
        const byoc_partition *P = &r->partitions[p];
        if (!P->target) {
            bx_error_set(err, NULL, 0, 0, "partition %d has no target", p);
            return -1;
        }
        for (int i = 0; i < P->nnodes; i++)
            if (P->nodes[i] < 0 || P->nodes[i] >= n || (i && P->nodes[i] <= P->nodes[i - 1])) {
                bx_error_set(err, NULL, 0, 0,
                             "partition %d lists node %d, which is not a node of the graph "
                             "in ascending order", p, P->nodes[i]);
                return -1;
            }
        for (int c = 0; c < P->ncomposites; c++)
            for (int i = 0; i < P->composites[c].nnodes; i++)
                if (P->composites[c].nodes[i] < 0 || P->composites[c].nodes[i] >= n) {
                    bx_error_set(err, NULL, 0, 0,
                                 "composite %d of partition %d lists node %d, which is not "
                                 "in the graph", c, p, P->composites[c].nodes[i]);
                    return -1;
                }
    }
    return 0;
}

/* How a node is shown to a user: its name from the source (%5, %data,
 * an ONNX tensor name with a % before it), else #id. */
static void put_label(bx_strbuf *b, const byoc_graph *g, int node)
{
    const char *s = byoc_node_name(g, node);
    if (!s || !*s)
        bx_sb_printf(b, "#%d", node);
    else if (s[0] == '%' || byoc_node_kind_of(g, node) == BYOC_N_CONST)
        bx_sb_printf(b, "%s", s);
    else
        bx_sb_printf(b, "%%%s", s);
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

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static int utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    int n;
    unsigned char lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        lo = c == 0xe0 ? 0xa0 : 0x80;
        hi = c == 0xed ? 0x9f : 0xbf;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        lo = c == 0xf0 ? 0x90 : 0x80;
        hi = c == 0xf4 ? 0x8f : 0xbf;
    } else
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (int i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return n;
}

/* ---- text ----------------------------------------------------------------- */

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
    size_t *w = xcalloc((size_t)t->ncols, sizeof(size_t));
    for (int r = 0; r < t->nrows; r++)
        for (int c = 0; c < t->ncols; c++) {
            size_t len = strlen(t->cells[r * t->ncols + c]);
            if (len > w[c])
                w[c] = len;
        }
    bx_strbuf line = {0};
    for (int r = 0; r < t->nrows; r++) {
        sb_reset(&line);
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

/* Microseconds, three decimals; never "-0.000" or a platform's NaN. */
static const char *fmt_us(char *buf, size_t size, double seconds)
{
    if (isnan(seconds))
        snprintf(buf, size, "n/a");
    else if (isinf(seconds))
        snprintf(buf, size, seconds > 0 ? "inf" : "-inf");
    else {
        double us = seconds * 1e6;
        snprintf(buf, size, "%.3f", fabs(us) < 0.0005 ? 0.0 : us);
    }
    return buf;
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
    char **items = xcalloc((size_t)P->nnodes + 1, sizeof(char *));
    bool *seen = xcalloc((size_t)P->ncomposites + 1, sizeof(bool));
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

/* "%12" -> 12; -1 for names that are not Relay's numbered locals. */
static long local_number(const char *s)
{
    if (!s || s[0] != '%' || s[1] < '0' || s[1] > '9' || (s[1] == '0' && s[2]))
        return -1;
    char *end;
    long v = strtol(s + 1, &end, 10);
    return *end ? -1 : v;
}

/* The nodes of a partition by name, runs of consecutive Relay locals
 * compressed: "%3..%7,%9". */
static void put_names(bx_strbuf *out, const byoc_graph *g, const byoc_partition *P)
{
    char **items = xcalloc((size_t)P->nnodes + 1, sizeof(char *));
    int n = 0;
    bx_strbuf b = {0};
    for (int i = 0; i < P->nnodes;) {
        long v = local_number(byoc_node_name(g, P->nodes[i]));
        int j = i + 1;
        while (v >= 0 && j < P->nnodes && local_number(byoc_node_name(g, P->nodes[j])) == v + (j - i))
            j++;
        sb_reset(&b);
        if (j - i >= 3) {
            bx_sb_printf(&b, "%%%ld..%%%ld", v, v + (j - i - 1));
        } else {
            j = i + 1;
            put_label(&b, g, P->nodes[i]);
        }
        items[n++] = dup_str(sb_str(&b));
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
        sb_reset(&runs);
        sb_reset(&names);
        put_runs(&runs, r->graph, P);
        put_names(&names, r->graph, P);
        const char *row[] = {idx, P->target->name, device_name(part_device(r, P)), sb_str(&runs),
                             sb_str(&names), fmt_us(cost, sizeof cost, P->cost),
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
        const char *row[] = {tg->name, device_name(byoc_target_device(reg, tg)), np, nc,
                             fmt_us(us, sizeof us, time)};
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
    snprintf(buf, sizeof buf, "%s us (transfers %s us)", fmt_us(a, sizeof a, r->cost),
             fmt_us(b, sizeof b, r->transfer_cost));
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
        table_add(&t, (const char *const[]){"partition costs", sb_str(&k)});
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
            table_add(&t, (const char *const[]){"free dimensions", sb_str(&d)});
        }
        bx_sb_free(&d);
    }
    snprintf(buf, sizeof buf, "%zu", r->expanded);
    table_add(&t, (const char *const[]){"states expanded", buf});
    table_print(&t, f, "");
}

static int byoc_result_write_text_unguarded(const byoc_result *r, FILE *f, byoc_error *err)
{
    if (check_result(r, err) < 0)
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
    return finish(f, err, "text output");
}

int byoc_result_write_text(const byoc_result *r, FILE *f, byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, -1);
    int result = byoc_result_write_text_unguarded(r, f, err);
    bx_oom_close(&guard);
    return result;
}

/* ---- JSON ----------------------------------------------------------------- */

/* RFC 8259 strings: quotes, backslashes and control characters escaped;
 * bytes that are not UTF-8 (an ONNX name may hold anything) become
 * U+FFFD, so the output is always valid UTF-8. */
static void json_str(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = utf8_len(p);
        if (n == 0) {
            fputs("\\ufffd", f);
            p++;
            continue;
        }
        unsigned char c = *p;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c == '\r')
            fputs("\\r", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fwrite(p, 1, (size_t)n, f);
        p += n;
    }
    fputc('"', f);
}

/* The shortest decimal that reads back to the same double; JSON has no
 * NaN or infinity, so those are null. */
static void json_num(FILE *f, double d)
{
    if (!isfinite(d))
        fputs("null", f);
    else
        bx_relay_put_float(f, d);
}

static void json_ints(FILE *f, const int *v, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%d", i ? ", " : "", v[i]);
    fputc(']', f);
}

/* A node's type as Relay prints it, or null when not known. */
static void json_type(FILE *f, const byoc_graph *g, int node)
{
    if (!bx_relay_type_known(g, node)) {
        fputs("null", f);
        return;
    }
    char *s = bx_relay_node_type_str(g, node);
    json_str(f, s);
    free(s);
}

static const char *kind_name(byoc_node_kind k)
{
    switch (k) {
    case BYOC_N_INPUT: return "input";
    case BYOC_N_CONST: return "constant";
    case BYOC_N_CALL: return "call";
    case BYOC_N_TUPLE: return "tuple";
    case BYOC_N_PROJ: return "projection";
    }
    return "?";
}

static void json_targets(const byoc_result *r, FILE *f)
{
    const byoc_registry *reg = byoc_graph_registry(r->graph);
    fputs("  \"targets\": [", f);
    for (int k = 0; k < r->ntargets; k++) {
        const byoc_target_decl *t = r->targets[k];
        fprintf(f, "%s\n    {\"name\": ", k ? "," : "");
        json_str(f, t->name);
        fputs(", \"device\": ", f);
        const byoc_device_decl *d = byoc_target_device(reg, t);
        json_str(f, d ? d->name : NULL);
        fprintf(f, ", \"native\": %s}", is_native(r, t) ? "true" : "false");
    }
    fputs(r->ntargets ? "\n  ],\n" : "],\n", f);
}

static void json_partition(const byoc_result *r, FILE *f, int p)
{
    const byoc_partition *P = &r->partitions[p];
    const byoc_graph *g = r->graph;
    const byoc_device_decl *d = part_device(r, P);
    fprintf(f, "    {\n      \"index\": %d,\n      \"target\": ", p);
    json_str(f, P->target->name);
    fputs(",\n      \"device\": ", f);
    json_str(f, d ? d->name : NULL);
    fputs(",\n      \"cost\": ", f);
    json_num(f, P->cost);
    fputs(",\n      \"cost_source\": ", f);
    json_str(f, byoc_cost_source_name(P->cost_source));
    fputs(",\n      \"signature\": ", f);
    json_str(f, P->signature);
    fputs(",\n      \"nodes\": ", f);
    json_ints(f, P->nodes, P->nnodes);
    fputs(",\n      \"names\": [", f);
    for (int i = 0; i < P->nnodes; i++) {
        fputs(i ? ", " : "", f);
        json_str(f, byoc_node_name(g, P->nodes[i]));
    }
    fputs("],\n      \"ops\": [", f);
    for (int i = 0; i < P->nnodes; i++) {
        fputs(i ? ", " : "", f);
        json_str(f, byoc_node_op_name(g, P->nodes[i]));
    }
    fputs("],\n      \"composites\": [", f);
    for (int c = 0; c < P->ncomposites; c++) {
        fprintf(f, "%s\n        {\"pattern\": ", c ? "," : "");
        json_str(f, P->composites[c].pattern);
        fputs(", \"nodes\": ", f);
        json_ints(f, P->composites[c].nodes, P->composites[c].nnodes);
        fputc('}', f);
    }
    fputs(P->ncomposites ? "\n      ]\n    }" : "]\n    }", f);
}

static void json_nodes(const byoc_result *r, FILE *f)
{
    const byoc_graph *g = r->graph;
    int n = byoc_graph_node_count(g);
    fputs("  \"nodes\": [", f);
    for (int i = 0; i < n; i++) {
        fprintf(f, "%s\n    {\"id\": %d, \"name\": ", i ? "," : "", i);
        json_str(f, byoc_node_name(g, i));
        fprintf(f, ", \"kind\": \"%s\", \"op\": ", kind_name(byoc_node_kind_of(g, i)));
        json_str(f, byoc_node_op_name(g, i));
        fputs(", \"type\": ", f);
        json_type(f, g, i);
        int p = part_of(r, i);
        if (p >= 0)
            fprintf(f, ", \"partition\": %d}", p);
        else
            fputs(", \"partition\": null}", f);
    }
    fputs(n ? "\n  ]\n" : "]\n", f);
}

static int byoc_result_write_json_unguarded(const byoc_result *r, FILE *f, byoc_error *err)
{
    if (check_result(r, err) < 0)
        return -1;
    fputs("{\n  \"format\": \"byoc-partitioning\",\n  \"version\": 1,\n  \"model\": ", f);
    json_str(f, byoc_graph_source(r->graph));
    fputs(",\n  \"strategy\": ", f);
    json_str(f, r->strategy);
    fputs(",\n", f);
    json_targets(r, f);
    fputs("  \"cost\": ", f);
    json_num(f, r->cost);
    fputs(",\n  \"transfer_cost\": ", f);
    json_num(f, r->transfer_cost);
    fprintf(f, ",\n  \"optimal\": %s,\n  \"budget_hit\": %s,\n", r->optimal ? "true" : "false",
            r->budget_hit ? "true" : "false");
    fprintf(f, "  \"time_limit_hit\": %s,\n  \"lower_bound\": ", r->time_hit ? "true" : "false");
    json_num(f, r->lower_bound);
    fputs(",\n  \"gap\": ", f);
    double gap = byoc_result_gap(r);
    if (isinf(gap))
        fputs("null", f);
    else
        json_num(f, gap);
    fputs(",\n", f);
    fprintf(f,
            "  \"stats\": {\"candidates\": %zu, \"kernels\": %zu, \"expanded\": %zu, "
            "\"generated\": %zu, \"from_table\": %zu, \"from_callback\": %zu, "
            "\"unknown\": %zu, \"cost_table\": %s},\n",
            r->ncandidates, r->nkernels, r->expanded, r->generated, r->from_table,
            r->from_callback, r->unknown, r->cost_table ? "true" : "false");
    fputs("  \"partitions\": [", f);
    for (int p = 0; p < r->npartitions; p++) {
        fputs(p ? ",\n" : "\n", f);
        json_partition(r, f, p);
    }
    fputs(r->npartitions ? "\n  ],\n" : "],\n", f);
    json_nodes(r, f);
    fputs("}\n", f);
    return finish(f, err, "JSON output");
}

int byoc_result_write_json(const byoc_result *r, FILE *f, byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, -1);
    int result = byoc_result_write_json_unguarded(r, f, err);
    bx_oom_close(&guard);
    return result;
}

/* ---- Relay ---------------------------------------------------------------- */

typedef struct scope {
    int *local;            /* node -> statement number, -1 */
    int *param;            /* node -> parameter number, -1 */
    int *unit;             /* node -> the unit that writes it here; -1: not here */
    char prefix[160];      /* parameters are %<prefix><j> */
    bool main;             /* @main: graph inputs by their names */
    bool consts_as_params; /* a kernel alone: its weights may be absent */
    int indent;
} scope;

typedef struct unit {
    const int *nodes;      /* what it writes; constants and inputs are skipped */
    int n;
    int group;             /* a partition in @main, a composite in a partition;
                              -1: the single node `one` */
    int one;
} unit;

typedef struct values {
    int *v;
    int n;
} values;

typedef struct rw {
    const byoc_graph *g;
    const byoc_result *r;
    FILE *f;
    int n;
    int *meta;             /* node -> meta constant index; one numbering for
                              the whole module, as TVM's */
    int nmeta;
    char **names;          /* inputs: Relay-safe names */
    int *compof;           /* node -> composite of the current partition */
    scope *s;              /* the scope being written */
    scope top, part, comp;
    int next;              /* next statement number of the global function */
    int ncomposites;       /* composites written: FunctionVar_<k>_<j> */
    values *members;       /* per partition: its nodes, and the projections
                              of its tuples that no partition holds */
    values *params, *outs; /* per partition */
    char **fname;          /* per partition: its function, NULL when empty */
} rw;

static void scope_init(scope *s, int n)
{
    memset(s, 0, sizeof *s);
    s->local = int_array(n, -1);
    s->param = int_array(n, -1);
    s->unit = int_array(n, -1);
    s->indent = 2;
}

static void scope_free(scope *s)
{
    free(s->local);
    free(s->param);
    free(s->unit);
}

/* Forget nodes[0..n) and their arguments, which is all a scope touches. */
static void scope_clear(scope *s, const byoc_graph *g, const int *nodes, int n)
{
    for (int i = 0; i < n; i++) {
        int x = nodes[i];
        s->local[x] = s->param[x] = s->unit[x] = -1;
        for (int a = 0; a < byoc_node_arg_count(g, x); a++)
            s->param[byoc_node_arg(g, x, a)] = -1;
    }
}

static bool is_statement(const byoc_graph *g, int node)
{
    byoc_node_kind k = byoc_node_kind_of(g, node);
    return k == BYOC_N_CALL || k == BYOC_N_TUPLE || k == BYOC_N_PROJ;
}

static void put_ref(FILE *f, int node, void *ctx)
{
    rw *w = ctx;
    const scope *s = w->s;
    if (s->param[node] >= 0) {
        fprintf(f, "%%%s%d", s->prefix, s->param[node]);
    } else if (s->local[node] >= 0) {
        fprintf(f, "%%%d", s->local[node]);
    } else if (byoc_node_kind_of(w->g, node) == BYOC_N_INPUT) {
        bx_assert(s->main);
        fprintf(f, "%%%s", w->names[node]);
    } else if (byoc_node_kind_of(w->g, node) == BYOC_N_CONST) {
        bx_relay_put_const_ref(f, w->g, node, w->meta, &w->nmeta);
    } else {
        bx_die("a node is used before it is written");
    }
}

static void put_string(FILE *f, const char *s)
{
    byoc_value v = {.kind = BYOC_V_STRING, .u.s = s};
    bx_relay_put_value(f, &v);
}

/* What the nodes written in scope s take from outside it, in order of first
 * use: its parameters.  Constants stay inline unless the scope says. */
static void collect_params(const byoc_graph *g, scope *s, const int *nodes, int n, values *out)
{
    int cap = 1;
    for (int i = 0; i < n; i++)
        cap += byoc_node_arg_count(g, nodes[i]);
    out->v = xcalloc((size_t)cap, sizeof(int));
    out->n = 0;
    for (int i = 0; i < n; i++) {
        if (s->unit[nodes[i]] < 0)
            continue;
        for (int a = 0; a < byoc_node_arg_count(g, nodes[i]); a++) {
            int x = byoc_node_arg(g, nodes[i], a);
            if (s->unit[x] >= 0 || s->param[x] >= 0)
                continue;
            if (byoc_node_kind_of(g, x) == BYOC_N_CONST
                && (!s->consts_as_params || bx_relay_is_literal(g, x)))
                continue;
            s->param[x] = out->n;
            out->v[out->n++] = x;
        }
    }
}

/* A node written in s whose value leaves it: the graph's output, used by a
 * node outside, or used by nothing (so that no computation is lost). */
static bool leaves(const byoc_graph *g, const scope *s, int node)
{
    int nc = byoc_node_consumer_count(g, node);
    if (node == byoc_graph_output(g) || nc == 0)
        return true;
    for (int i = 0; i < nc; i++)
        if (s->unit[byoc_node_consumer(g, node, i)] < 0)
            return true;
    return false;
}

static void collect_outputs(const byoc_graph *g, const scope *s, const int *nodes, int n,
                            values *out)
{
    out->v = xcalloc((size_t)n + 1, sizeof(int));
    out->n = 0;
    for (int i = 0; i < n; i++)
        if (s->unit[nodes[i]] >= 0 && leaves(g, s, nodes[i]))
            out->v[out->n++] = nodes[i];
}

/* Can the type of these values be written?  Several values, one of them a
 * tuple, would make a nested tuple type, which byoc's graphs (and so its
 * Relay reader) do not have; Relay lets a function's return type and a
 * call's type comment be left out, so they are. */
static bool types_known(const byoc_graph *g, const values *vs)
{
    for (int i = 0; i < vs->n; i++)
        if (!bx_relay_type_known(g, vs->v[i])
            || (vs->n > 1 && byoc_node_field_count(g, vs->v[i]) >= 0))
            return false;
    return vs->n > 0;
}

static void put_types(FILE *f, const byoc_graph *g, const values *vs)
{
    if (vs->n == 1) {
        bx_relay_put_type(f, g, vs->v[0]);
        return;
    }
    fputc('(', f);
    for (int i = 0; i < vs->n; i++) {
        fputs(i ? ", " : "", f);
        bx_relay_put_type(f, g, vs->v[i]);
    }
    fputc(')', f);
}

/* Parameters as a function header lists them: %<prefix><j>: T. */
static void put_params(FILE *f, const byoc_graph *g, const char *prefix, const values *ps)
{
    for (int j = 0; j < ps->n; j++) {
        fprintf(f, "%s%%%s%d", j ? ", " : "", prefix, j);
        if (bx_relay_type_known(g, ps->v[j])) {
            fputs(": ", f);
            bx_relay_put_type(f, g, ps->v[j]);
        }
    }
}

static void put_ret(FILE *f, const byoc_graph *g, const values *outs)
{
    if (types_known(g, outs)) {
        fputs(" -> ", f);
        put_types(f, g, outs);
    }
}

/* A statement `%N = expr` with its type, or the bare expression when it
 * ends a body. */
static void write_node(rw *w, int node, bool last)
{
    scope *s = w->s;
    fprintf(w->f, "%*s", s->indent, "");
    if (!last) {
        s->local[node] = w->next++;
        fprintf(w->f, "%%%d = ", s->local[node]);
    }
    bx_relay_put_expr(w->f, w->g, node, put_ref, w);
    if (byoc_node_kind_of(w->g, node) == BYOC_N_CALL && bx_relay_type_known(w->g, node)) {
        fputs(" /* ty=", w->f);
        bx_relay_put_type(w->f, w->g, node);
        fputs(" */", w->f);
    }
    fputs(last ? "\n" : ";\n", w->f);
}

/* A call of a function: one output is the call's value; several come back
 * as a tuple, projected at once so that each output has a number. */
static void write_call(rw *w, const char *callee, const values *args, const values *outs,
                       bool last)
{
    scope *s = w->s;
    FILE *f = w->f;
    int id = -1;
    fprintf(f, "%*s", s->indent, "");
    if (!last) {
        id = w->next++;
        fprintf(f, "%%%d = ", id);
    }
    fprintf(f, "%s(", callee);
    for (int i = 0; i < args->n; i++) {
        fputs(i ? ", " : "", f);
        put_ref(f, args->v[i], w);
    }
    fputc(')', f);
    if (types_known(w->g, outs)) {
        fputs(" /* ty=", f);
        put_types(f, w->g, outs);
        fputs(" */", f);
    }
    fputs(last ? "\n" : ";\n", f);
    if (last)
        return;
    if (outs->n == 1) {
        s->local[outs->v[0]] = id;
        return;
    }
    for (int i = 0; i < outs->n; i++) {
        s->local[outs->v[i]] = w->next++;
        fprintf(f, "%*s%%%d = %%%d.%d;\n", s->indent, "", s->local[outs->v[i]], id, i);
    }
}

/* The value a body ends with, when its last statement is not it. */
static void write_result(rw *w, const values *outs)
{
    fprintf(w->f, "%*s", w->s->indent, "");
    if (outs->n != 1)
        fputc('(', w->f);
    for (int i = 0; i < outs->n; i++) {
        fputs(i ? ", " : "", w->f);
        put_ref(w->f, outs->v[i], w);
    }
    fputs(outs->n == 1 ? "\n" : ")\n", w->f);
}

/* Is unit u ready: has everything its nodes use from this scope been
 * written? */
static bool unit_ready(const byoc_graph *g, const scope *s, const unit *units, int u,
                       const bool *done)
{
    for (int i = 0; i < units[u].n; i++) {
        int x = units[u].nodes[i];
        if (s->unit[x] != u)
            continue;
        for (int a = 0; a < byoc_node_arg_count(g, x); a++) {
            int ua = s->unit[byoc_node_arg(g, x, a)];
            if (ua >= 0 && ua != u && !done[ua])
                return false;
        }
    }
    return true;
}

/* The first order, preferring the units' own, in which each unit comes
 * after the units it uses; -1 when there is none (a cycle). */
static int schedule(const byoc_graph *g, const scope *s, const unit *units, int nu, int *order)
{
    bool *done = xcalloc((size_t)nu + 1, sizeof(bool));
    int lo = 0;
    for (int k = 0; k < nu; k++) {
        while (lo < nu && done[lo])
            lo++;
        int u = lo;
        while (u < nu && (done[u] || !unit_ready(g, s, units, u, done)))
            u++;
        if (u == nu) {
            free(done);
            return -1;
        }
        done[u] = true;
        order[k] = u;
    }
    free(done);
    return 0;
}

/* Forget partition P in the partition scope and the composite map. */
static void partition_clear(rw *w, int p)
{
    const byoc_partition *P = &w->r->partitions[p];
    scope_clear(&w->part, w->g, w->members[p].v, w->members[p].n);
    for (int c = 0; c < P->ncomposites; c++)
        for (int i = 0; i < P->composites[c].nnodes; i++)
            w->compof[P->composites[c].nodes[i]] = -1;
}

static unit single(int node)
{
    unit u = {NULL, 1, -1, node};
    return u;
}

/* The units of partition p (its composites and its other nodes, in the
 * order of their first node) into units[], marked in the partition scope.
 * Returns their count, or -1 when composites overlap or leave P. */
static int partition_units(rw *w, int p, unit *units, byoc_error *err)
{
    const byoc_partition *P = &w->r->partitions[p];
    const values *m = &w->members[p];
    scope *s = &w->part;
    for (int i = 0; i < m->n; i++)
        if (is_statement(w->g, m->v[i]))
            s->unit[m->v[i]] = -2;
    for (int c = 0; c < P->ncomposites; c++)
        for (int i = 0; i < P->composites[c].nnodes; i++) {
            int y = P->composites[c].nodes[i];
            if (!is_statement(w->g, y))
                continue;
            if (w->compof[y] >= 0 || s->unit[y] != -2) {
                bx_error_set(err, NULL, 0, 0,
                             "composite %d of partition %d holds node %d, which %s", c, p, y,
                             w->compof[y] >= 0 ? "another composite holds" : "is not in it");
                return -1;
            }
            w->compof[y] = c;
        }
    int *cunit = int_array(P->ncomposites, -1);
    int nu = 0;
    for (int i = 0; i < m->n; i++) {
        int x = m->v[i], c = w->compof[x];
        if (!is_statement(w->g, x))
            continue;
        if (c < 0) {
            units[nu] = single(x);
            units[nu].nodes = &units[nu].one;
            s->unit[x] = nu++;
            continue;
        }
        if (cunit[c] < 0) {
            unit u = {P->composites[c].nodes, P->composites[c].nnodes, c, -1};
            cunit[c] = nu;
            units[nu++] = u;
        }
        s->unit[x] = cunit[c];
    }
    free(cunit);
    return nu;
}

/* TVM's PartitionedFromPattern: the composite's nodes in post order, each
 * an op name, Tuple or TupleGetItem<i>, followed by '_'. */
static void put_from_pattern(rw *w, const byoc_composite *C)
{
    fputc('"', w->f);
    for (int i = 0; i < C->nnodes; i++) {
        int y = C->nodes[i];
        byoc_node_kind k = byoc_node_kind_of(w->g, y);
        if (k == BYOC_N_CALL)
            fprintf(w->f, "%s_", byoc_node_op_name(w->g, y));
        else if (k == BYOC_N_TUPLE)
            fputs("Tuple_", w->f);
        else if (k == BYOC_N_PROJ)
            fprintf(w->f, "TupleGetItem%d_", byoc_node_proj_index(w->g, y));
    }
    fputc('"', w->f);
}

/* A composite as TVM's MergeComposite leaves it: a local function bound to
 * a statement, its body numbered before it, then called. */
static void write_composite(rw *w, const byoc_composite *C, bool last)
{
    scope *ps = &w->part, *cs = &w->comp;
    int members = 0, final = -1;
    for (int i = 0; i < C->nnodes; i++)
        if (is_statement(w->g, C->nodes[i])) {
            cs->unit[C->nodes[i]] = 0;
            members++;
            final = C->nodes[i];
        }
    snprintf(cs->prefix, sizeof cs->prefix, "FunctionVar_%d_", w->ncomposites++);
    cs->indent = ps->indent + 2;
    values args, outs;
    collect_params(w->g, cs, C->nodes, C->nnodes, &args);
    collect_outputs(w->g, cs, C->nodes, C->nnodes, &outs);
    bool body_inline = outs.n == 1 && outs.v[0] == final;
    int fn = w->next + members - (body_inline ? 1 : 0);
    fprintf(w->f, "%*s%%%d = fn (", ps->indent, "", fn);
    put_params(w->f, w->g, cs->prefix, &args);
    fputs(args.n ? ", PartitionedFromPattern=" : "PartitionedFromPattern=", w->f);
    put_from_pattern(w, C);
    fputs(", Composite=", w->f);
    put_string(w->f, C->pattern ? C->pattern : "");
    fputc(')', w->f);
    put_ret(w->f, w->g, &outs);
    fputs(" {\n", w->f);
    w->s = cs;
    for (int i = 0; i < C->nnodes; i++)
        if (is_statement(w->g, C->nodes[i]))
            write_node(w, C->nodes[i], body_inline && C->nodes[i] == final);
    if (!body_inline)
        write_result(w, &outs);
    fprintf(w->f, "%*s};\n", ps->indent, "");
    w->next = fn + 1;
    w->s = ps;
    char callee[24];
    snprintf(callee, sizeof callee, "%%%d", fn);
    write_call(w, callee, &args, &outs, last && outs.n == 1);
    scope_clear(cs, w->g, C->nodes, C->nnodes);
    free(args.v);
    free(outs.v);
}

/* Does the last unit compute the body's one result, so that it can end
 * the body as a bare expression, the way TVM prints it? */
static bool ends_body(const unit *u, const values *outs, const values *unit_outs)
{
    if (outs->n != 1)
        return false;
    if (u->group < 0)
        return u->one == outs->v[0];
    return unit_outs && unit_outs->n == 1 && unit_outs->v[0] == outs->v[0];
}

/* The outputs of composite c of the current partition, to know whether its
 * call can end the body. */
static void composite_outputs(rw *w, const byoc_composite *C, values *outs)
{
    for (int i = 0; i < C->nnodes; i++)
        if (is_statement(w->g, C->nodes[i]))
            w->comp.unit[C->nodes[i]] = 0;
    collect_outputs(w->g, &w->comp, C->nodes, C->nnodes, outs);
    scope_clear(&w->comp, w->g, C->nodes, C->nnodes);
}

static void write_partition(rw *w, int p)
{
    const byoc_partition *P = &w->r->partitions[p];
    scope *s = &w->part;
    unit *units = xcalloc((size_t)w->members[p].n + 1, sizeof(unit));
    int *order = xcalloc((size_t)w->members[p].n + 1, sizeof(int));
    int nu = partition_units(w, p, units, NULL);
    bx_assert(nu > 0);
    int rc = schedule(w->g, s, units, nu, order);
    bx_assert(rc == 0);
    const values *ps = &w->params[p], *outs = &w->outs[p];
    for (int j = 0; j < ps->n; j++)
        s->param[ps->v[j]] = j;
    snprintf(s->prefix, sizeof s->prefix, "%s_i", w->fname[p]);
    fprintf(w->f, "def @%s(", w->fname[p]);
    put_params(w->f, w->g, s->prefix, ps);
    fputs(ps->n ? ", " : "", w->f);
    if (!is_native(w->r, P->target)) {
        fputs("Compiler=", w->f);
        put_string(w->f, P->target->name);
        fputs(", ", w->f);
    }
    fprintf(w->f, "Primitive=1, global_symbol=\"%s\")", w->fname[p]);
    put_ret(w->f, w->g, outs);
    fputs(" {\n", w->f);
    w->s = s;
    w->next = 0;
    bool ended = false;
    for (int k = 0; k < nu; k++) {
        const unit *u = &units[order[k]];
        values co = {NULL, 0};
        if (u->group >= 0)
            composite_outputs(w, &P->composites[u->group], &co);
        ended = k == nu - 1 && ends_body(u, outs, &co);
        free(co.v);
        if (u->group < 0)
            write_node(w, u->one, ended);
        else
            write_composite(w, &P->composites[u->group], ended);
    }
    if (!ended)
        write_result(w, outs);
    fputs("}\n", w->f);
    partition_clear(w, p);
    free(units);
    free(order);
}

/* Check partition p can be written and note its parameters and outputs,
 * which @main's call of it needs. */
static int prepare_partition(rw *w, int p, byoc_error *err)
{
    const byoc_partition *P = &w->r->partitions[p];
    scope *s = &w->part;
    unit *units = xcalloc((size_t)w->members[p].n + 1, sizeof(unit));
    int *order = xcalloc((size_t)w->members[p].n + 1, sizeof(int));
    int nu = partition_units(w, p, units, err);
    int rc = nu < 0 ? -1 : 0;
    if (nu > 0 && schedule(w->g, s, units, nu, order) < 0) {
        bx_error_set(err, NULL, 0, 0,
                     "the composites of partition %d use each other's results", p);
        rc = -1;
    }
    if (nu > 0 && rc == 0) {
        collect_params(w->g, s, w->members[p].v, w->members[p].n, &w->params[p]);
        collect_outputs(w->g, s, w->members[p].v, w->members[p].n, &w->outs[p]);
        bx_strbuf b = {0};
        bx_sb_printf(&b, "%s_%d", P->target->name, p);
        w->fname[p] = b.s;
    }
    partition_clear(w, p);
    free(units);
    free(order);
    return rc;
}

/* The units of @main: each partition, then each node no partition holds;
 * marked in the top scope. */
static int main_units(rw *w, unit *units, byoc_error *err)
{
    const byoc_result *r = w->r;
    scope *s = &w->top;
    int nu = 0;
    for (int p = 0; p < r->npartitions; p++) {
        if (!w->fname[p])
            continue;
        unit u = {w->members[p].v, w->members[p].n, p, -1};
        for (int i = 0; i < u.n; i++) {
            int x = u.nodes[i];
            if (!is_statement(w->g, x))
                continue;
            if (s->unit[x] >= 0) {
                bx_error_set(err, NULL, 0, 0, "node %d is in partitions %d and %d", x,
                             units[s->unit[x]].group, p);
                return -1;
            }
            s->unit[x] = nu;
        }
        units[nu++] = u;
    }
    for (int x = 0; x < w->n; x++) {
        if (!is_statement(w->g, x) || s->unit[x] >= 0)
            continue;
        if (byoc_node_kind_of(w->g, x) == BYOC_N_CALL) {
            bx_strbuf b = {0};
            put_label(&b, w->g, x);
            bx_error_set(err, NULL, 0, 0, "call %s (%s) is in no partition", sb_str(&b),
                         byoc_node_op_name(w->g, x));
            bx_sb_free(&b);
            return -1;
        }
        units[nu] = single(x);
        units[nu].nodes = &units[nu].one;
        s->unit[x] = nu++;
    }
    return nu;
}

static void write_main(rw *w, const unit *units, const int *order, int nu)
{
    scope *s = &w->top;
    int out = byoc_graph_output(w->g);
    values res = {&out, 1};
    fputs("def @main(", w->f);
    bool first = true;
    for (int i = 0; i < w->n; i++)
        if (byoc_node_kind_of(w->g, i) == BYOC_N_INPUT) {
            fprintf(w->f, "%s%%%s: ", first ? "" : ", ", w->names[i]);
            bx_relay_put_type(w->f, w->g, i);
            first = false;
        }
    fputc(')', w->f);
    put_ret(w->f, w->g, &res);
    fputs(" {\n", w->f);
    w->s = s;
    w->next = 0;
    bool ended = false;
    for (int k = 0; k < nu; k++) {
        const unit *u = &units[order[k]];
        const values *uo = u->group >= 0 ? &w->outs[u->group] : NULL;
        bool last = k == nu - 1 && ends_body(u, &res, uo);
        if (u->group < 0) {
            write_node(w, u->one, last);
        } else {
            char callee[200];
            snprintf(callee, sizeof callee, "@%s", w->fname[u->group]);
            write_call(w, callee, &w->params[u->group], uo, last);
        }
        ended = last;
    }
    if (!ended)
        write_result(w, &res);
    fputs("}\n", w->f);
}

typedef struct fn_name {
    const char *name;
    int part;              /* -1: @main */
} fn_name;

static int cmp_fn_name(const void *a, const void *b)
{
    return strcmp(((const fn_name *)a)->name, ((const fn_name *)b)->name);
}

static void rw_init(rw *w, const byoc_graph *g, const byoc_result *r, FILE *f)
{
    memset(w, 0, sizeof *w);
    w->g = g;
    w->r = r;
    w->f = f;
    w->n = byoc_graph_node_count(g);
    w->meta = int_array(w->n, -1);
    w->compof = int_array(w->n, -1);
    w->names = bx_relay_input_names(g);
    scope_init(&w->top, w->n);
    scope_init(&w->part, w->n);
    scope_init(&w->comp, w->n);
    w->top.main = true;
    int np = r ? r->npartitions : 0;
    w->members = xcalloc((size_t)np + 1, sizeof(values));
    w->params = xcalloc((size_t)np + 1, sizeof(values));
    w->outs = xcalloc((size_t)np + 1, sizeof(values));
    w->fname = xcalloc((size_t)np + 1, sizeof(char *));
}

static void rw_free(rw *w)
{
    int np = w->r ? w->r->npartitions : 0;
    for (int p = 0; p < np; p++) {
        free(w->members[p].v);
        free(w->params[p].v);
        free(w->outs[p].v);
        free(w->fname[p]);
    }
    free(w->members);
    free(w->params);
    free(w->outs);
    free(w->fname);
    scope_free(&w->top);
    scope_free(&w->part);
    scope_free(&w->comp);
    bx_relay_free_names(w->g, w->names);
    free(w->meta);
    free(w->compof);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* A partition's nodes as Relay writes them: its own, plus the projections
 * of its tuples that no partition holds (batch_norm's .1 when the graph
 * uses it), which go inside its function the way TVM's AnnotateTarget
 * puts a TupleGetItem with its tuple.  The function then returns tensors
 * rather than a tuple nested in its tuple of outputs, which byoc's graphs
 * (and so a reader of the output) cannot type. */
static void gather_members(rw *w)
{
    const byoc_result *r = w->r;
    int *owner = int_array(w->n, -1);
    for (int p = 0; p < r->npartitions; p++)
        for (int i = 0; i < r->partitions[p].nnodes; i++)
            if (owner[r->partitions[p].nodes[i]] < 0)
                owner[r->partitions[p].nodes[i]] = p;
    for (int p = 0; p < r->npartitions; p++) {
        const byoc_partition *P = &r->partitions[p];
        values *m = &w->members[p];
        m->v = xcalloc((size_t)(P->nnodes + w->n) + 1, sizeof(int));
        memcpy(m->v, P->nodes, sizeof(int) * (size_t)P->nnodes);
        m->n = P->nnodes;
        for (int i = 0; i < P->nnodes; i++)
            for (int c = 0; c < byoc_node_consumer_count(w->g, P->nodes[i]); c++) {
                int x = byoc_node_consumer(w->g, P->nodes[i], c);
                if (owner[x] < 0 && byoc_node_kind_of(w->g, x) == BYOC_N_PROJ) {
                    owner[x] = p;
                    m->v[m->n++] = x;
                }
            }
        qsort(m->v, (size_t)m->n, sizeof(int), cmp_int);
    }
    free(owner);
}

/* Everything that can be wrong with the result is found here, before a
 * byte is written. */
static int prepare_module(rw *w, unit *units, int *order, byoc_error *err)
{
    gather_members(w);
    for (int p = 0; p < w->r->npartitions; p++)
        if (prepare_partition(w, p, err) < 0)
            return -1;
    int nu = main_units(w, units, err);
    if (nu < 0)
        return -1;
    if (schedule(w->g, &w->top, units, nu, order) < 0) {
        bx_error_set(err, NULL, 0, 0, "the partitions use each other's results: "
                                      "no order of them can run");
        return -1;
    }
    return nu;
}

/* The functions in the order TVM's printer uses: sorted by name. */
static void write_module(rw *w, const unit *units, const int *order, int nu)
{
    const byoc_result *r = w->r;
    fn_name *fns = xcalloc((size_t)r->npartitions + 1, sizeof(fn_name));
    int nf = 0;
    fns[nf++] = (fn_name){"main", -1};
    for (int p = 0; p < r->npartitions; p++)
        if (w->fname[p])
            fns[nf++] = (fn_name){w->fname[p], p};
    qsort(fns, (size_t)nf, sizeof(fn_name), cmp_fn_name);
    fputs("#[version = \"0.0.5\"]\n", w->f);
    for (int i = 0; i < nf; i++) {
        fputs(i ? "\n" : "", w->f);
        if (fns[i].part < 0)
            write_main(w, units, order, nu);
        else
            write_partition(w, fns[i].part);
    }
    free(fns);
}

static int byoc_result_write_relay_unguarded(const byoc_result *r, FILE *f, byoc_error *err)
{
    if (check_result(r, err) < 0 || bx_relay_check_writable(r->graph, err) < 0)
        return -1;
    rw w;
    rw_init(&w, r->graph, r, f);
    unit *units = xcalloc((size_t)(w.n + r->npartitions) + 1, sizeof(unit));
    int *order = xcalloc((size_t)(w.n + r->npartitions) + 1, sizeof(int));
    int nu = prepare_module(&w, units, order, err);
    if (nu >= 0)
        write_module(&w, units, order, nu);
    free(units);
    free(order);
    rw_free(&w);
    return nu < 0 ? -1 : finish(f, err, "Relay output");
}

int byoc_result_write_relay(const byoc_result *r, FILE *f, byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, -1);
    int result = byoc_result_write_relay_unguarded(r, f, err);
    bx_oom_close(&guard);
    return result;
}

int bx_relay_write_kernel(FILE *f, const byoc_graph *g, const int *nodes, int n,
                          const char *name)
{
    for (int i = 0; i < n; i++)
        if (byoc_node_is_opaque(g, nodes[i]))
            return -1;
    rw w;
    rw_init(&w, g, NULL, f);
    scope *s = &w.part;
    s->consts_as_params = true;
    snprintf(s->prefix, sizeof s->prefix, "%s_i", name);
    int last = -1;
    for (int i = 0; i < n; i++)
        if (is_statement(g, nodes[i]))
            s->unit[last = nodes[i]] = i;
    values ps, outs;
    collect_params(g, s, nodes, n, &ps);
    collect_outputs(g, s, nodes, n, &outs);
    fprintf(f, "def @%s(", name);
    put_params(f, g, s->prefix, &ps);
    fputc(')', f);
    put_ret(f, g, &outs);
    fputs(" {\n", f);
    w.s = s;
    bool ended = outs.n == 1 && outs.v[0] == last;
    for (int i = 0; i < n; i++)
        if (is_statement(g, nodes[i]))
            write_node(&w, nodes[i], ended && nodes[i] == last);
    if (!ended && outs.n > 0)
        write_result(&w, &outs);
    fputs("}\n", f);
    free(ps.v);
    free(outs.v);
    rw_free(&w);
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}

/* ---- DOT ------------------------------------------------------------------ */

/* Pastel fills light enough for black text, one per target by its place in
 * r->targets; native code generators are grey, since they are the
 * fallback a reader's eye should skip. */
static const char *const palette[] = {
    "#a6cee3", "#b2df8a", "#fdbf6f", "#cab2d6", "#fb9a99", "#ffff99",
    "#8dd3c7", "#bebada", "#80b1d3", "#fccde5", "#ccebc5", "#ffed6f",
};
#define NATIVE_FILL "#d9d9d9"

/* The inside of a DOT string: quotes and backslashes escaped, control
 * characters as spaces, bytes that are not UTF-8 as '?' (dot warns). */
static void dot_str(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = utf8_len(p);
        if (n == 0)
            fputc('?', f);
        else if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            fputc(' ', f);
        else
            fwrite(p, 1, (size_t)n, f);
        p += n ? n : 1;
    }
}

static const char *target_fill(const byoc_result *r, const byoc_target_decl *t)
{
    if (is_native(r, t))
        return NATIVE_FILL;
    for (int k = 0; k < r->ntargets; k++)
        if (strcmp(r->targets[k]->name, t->name) == 0)
            return palette[(size_t)k % (sizeof palette / sizeof palette[0])];
    return "#ffffff";
}

/* A tensor's shape as an edge label, "1x64x56x56", when it is known and
 * short enough not to clutter the picture. */
static bool short_shape(const byoc_graph *g, int node, char *buf, size_t size)
{
    if (byoc_node_field_count(g, node) >= 0)
        return false;
    const byoc_tensor_type *t = byoc_node_type(g, node, -1);
    if (!t || t->rank < 1)
        return false;
    size_t len = 0;
    for (int i = 0; i < t->rank && len < size; i++) {
        int64_t d = t->dims[i];
        const char *sep = i ? "x" : "";
        if (d >= 0)
            len += (size_t)snprintf(buf + len, size - len, "%s%lld", sep, (long long)d);
        else if (d == BYOC_DIM_UNKNOWN)
            len += (size_t)snprintf(buf + len, size - len, "%s?", sep);
        else
            len += (size_t)snprintf(buf + len, size - len, "%s%s", sep,
                                    byoc_graph_symbol_name(g, (int)(-2 - d)));
    }
    return len < size && len <= 20;
}

static void dot_node(const byoc_graph *g, FILE *f, int x, int indent)
{
    bx_strbuf b = {0};
    char shape[32];
    put_label(&b, g, x);
    fprintf(f, "%*sn%d [label=\"", indent, "", x);
    switch (byoc_node_kind_of(g, x)) {
    case BYOC_N_INPUT:
        dot_str(f, sb_str(&b));
        if (short_shape(g, x, shape, sizeof shape))
            fprintf(f, "\\n%s", shape);
        fputs("\", shape=ellipse", f);
        break;
    case BYOC_N_CONST:
        if (bx_relay_is_literal(g, x))
            bx_relay_put_literal(f, g, x);
        else
            fprintf(f, "const%s%s", short_shape(g, x, shape, sizeof shape) ? " " : "",
                    short_shape(g, x, shape, sizeof shape) ? shape : "");
        fputs("\", shape=plaintext", f);
        break;
    case BYOC_N_CALL:
        dot_str(f, sb_str(&b));
        fputs("\\n", f);
        dot_str(f, byoc_node_op_name(g, x));
        fputs("\", shape=box, style=filled, fillcolor=\"#ffffff\"", f);
        break;
    case BYOC_N_TUPLE:
        dot_str(f, sb_str(&b));
        fputs("\\ntuple\", shape=box, style=dashed", f);
        break;
    case BYOC_N_PROJ:
        dot_str(f, sb_str(&b));
        fprintf(f, "\\n.%d\", shape=box, style=\"rounded,dashed\"", byoc_node_proj_index(g, x));
        break;
    }
    fputs(x == byoc_graph_output(g) ? ", penwidth=2];\n" : "];\n", f);
    bx_sb_free(&b);
}

static void dot_cluster(const byoc_result *r, FILE *f, int p, bool *drawn)
{
    const byoc_partition *P = &r->partitions[p];
    char us[32];
    fprintf(f, "  subgraph cluster_%d {\n    label=\"#%d ", p, p);
    dot_str(f, P->target->name);
    fputs(" (", f);
    dot_str(f, device_name(part_device(r, P)));
    fprintf(f, ")\\n%s us\";\n    style=filled;\n    fillcolor=\"%s\";\n    color=\"#7f7f7f\";\n",
            fmt_us(us, sizeof us, P->cost), target_fill(r, P->target));
    for (int c = 0; c < P->ncomposites; c++) {
        const byoc_composite *C = &P->composites[c];
        fprintf(f, "    subgraph cluster_%d_%d {\n      label=\"", p, c);
        dot_str(f, C->pattern ? C->pattern : "");
        fputs("\";\n      style=dashed;\n", f);
        for (int i = 0; i < C->nnodes; i++)
            if (!drawn[C->nodes[i]]) {
                drawn[C->nodes[i]] = true;
                dot_node(r->graph, f, C->nodes[i], 6);
            }
        fputs("    }\n", f);
    }
    for (int i = 0; i < P->nnodes; i++)
        if (!drawn[P->nodes[i]]) {
            drawn[P->nodes[i]] = true;
            dot_node(r->graph, f, P->nodes[i], 4);
        }
    fputs("  }\n", f);
}

static void dot_edges(const byoc_graph *g, FILE *f)
{
    int n = byoc_graph_node_count(g);
    char shape[32];
    for (int x = 0; x < n; x++)
        for (int a = 0; a < byoc_node_arg_count(g, x); a++) {
            int y = byoc_node_arg(g, x, a);
            fprintf(f, "  n%d -> n%d", y, x);
            if (short_shape(g, y, shape, sizeof shape))
                fprintf(f, " [label=\"%s\"]", shape);
            fputs(";\n", f);
        }
}

static int byoc_result_write_dot_unguarded(const byoc_result *r, FILE *f, byoc_error *err)
{
    if (check_result(r, err) < 0)
        return -1;
    const byoc_graph *g = r->graph;
    int n = byoc_graph_node_count(g);
    const char *model = byoc_graph_source(g);
    char us[32];
    fputs("digraph byoc {\n  graph [label=\"", f);
    dot_str(f, model && *model ? model : "-");
    fputs(": ", f);
    dot_str(f, r->strategy ? r->strategy : "-");
    fprintf(f, ", %s us\", labelloc=t, fontname=\"Helvetica\", fontsize=11];\n",
            fmt_us(us, sizeof us, r->cost));
    fputs("  node [fontname=\"Helvetica\", fontsize=10];\n"
          "  edge [fontname=\"Helvetica\", fontsize=8, color=\"#555555\"];\n", f);
    bool *drawn = xcalloc((size_t)n + 1, sizeof(bool));
    for (int p = 0; p < r->npartitions; p++)
        dot_cluster(r, f, p, drawn);
    for (int x = 0; x < n; x++)
        if (!drawn[x])
            dot_node(g, f, x, 2);
    free(drawn);
    dot_edges(g, f);
    fputs("}\n", f);
    return finish(f, err, "DOT output");
}

int byoc_result_write_dot(const byoc_result *r, FILE *f, byoc_error *err)
{
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, -1);
    int result = byoc_result_write_dot_unguarded(r, f, err);
    bx_oom_close(&guard);
    return result;
}

