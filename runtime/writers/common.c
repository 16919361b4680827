/* What the writers of a partitioning share (see writers.h): checking a
 * result before a byte is written, the device a partition runs on, how a
 * node is labelled, UTF-8 and microseconds.
 *
 * The writers read only the plain structs of byoc_result and the graph,
 * and write nothing that varies between runs (no timings, no addresses,
 * no hash order), so one result always gives the same bytes and tests can
 * diff them. */
#include <math.h>
#include <stdlib.h>

#include "die.h"
#include "errfmt.h"
#include "writers.h"

void *bx_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        bx_oom();
    return p;
}

/* A write error on a buffered stream shows only once it is flushed (a
 * full disk), so flush before judging. */
int bx_writer_finish(FILE *f, byoc_error *err, const char *what)
{
    if (fflush(f) != 0 || ferror(f)) {
        bx_error_set(err, NULL, 0, 0, "cannot write the %s: write error", what);
        return -1;
    }
    return 0;
}

int bx_part_of(const byoc_result *r, int node)
{
    return r->node_partition ? r->node_partition[node] : -1;
}

const byoc_device_decl *bx_part_device(const byoc_result *r, const byoc_partition *p)
{
    if (p->device)
        return p->device;
    return byoc_target_device(byoc_graph_registry(r->graph), p->target);
}

const char *bx_device_name(const byoc_device_decl *d) { return d ? d->name : "?"; }

bool bx_target_native(const byoc_result *r, const byoc_target_decl *t)
{
    return byoc_target_supports_all(byoc_graph_registry(r->graph), t);
}

int bx_result_check(const byoc_result *r, byoc_error *err)
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

void bx_put_node_label(bx_strbuf *b, const byoc_graph *g, int node, unsigned flags)
{
    const char *s = byoc_node_name(g, node);
    if (!s || !*s)
        bx_sb_printf(b, "#%d", node);
    else if (s[0] == '%' || ((flags & BX_LABEL_BARE_GLOBAL) && s[0] == '@')
             || ((flags & BX_LABEL_BARE_CONST) && byoc_node_kind_of(g, node) == BYOC_N_CONST))
        bx_sb_printf(b, "%s", s);
    else
        bx_sb_printf(b, "%%%s", s);
}

/* Every kind once, by name and as a sentence says it; a call is its op. */
static const struct {
    const char *name, *what;
} node_kinds[] = {
    [BYOC_N_INPUT] = {"input", "an input"},
    [BYOC_N_CONST] = {"constant", "a constant"},
    [BYOC_N_CALL] = {"call", NULL},
    [BYOC_N_TUPLE] = {"tuple", "a tuple"},
    [BYOC_N_PROJ] = {"projection", "a projection"},
};

const char *bx_node_kind_name(byoc_node_kind k)
{
    if ((unsigned)k >= sizeof node_kinds / sizeof node_kinds[0])
        return "?";
    return node_kinds[k].name;
}

const char *bx_node_what(const byoc_graph *g, int node)
{
    byoc_node_kind k = byoc_node_kind_of(g, node);
    if (k == BYOC_N_CALL)
        return byoc_node_op_name(g, node);
    if ((unsigned)k >= sizeof node_kinds / sizeof node_kinds[0])
        return "?";
    return node_kinds[k].what;
}

int bx_utf8_len(const unsigned char *s)
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

const char *bx_fmt_us(char *buf, size_t size, double seconds)
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

void bx_json_str(bx_strbuf *b, const char *s)
{
    bx_sb_printf(b, "\"");
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            bx_sb_printf(b, "\\%c", *p);
        else if (*p < 0x20)
            bx_sb_printf(b, "\\u%04x", *p);
        else
            bx_sb_printf(b, "%c", *p);
    }
    bx_sb_printf(b, "\"");
}
