/* ONNX out, annotated: the model itself, every node of its main graph
 * carrying metadata_props that say where the placement put it.
 *
 * Keys: byoc.target (the targets of the partitions its calls are in, ","
 * between several when the reader's expansion of it was split), byoc.partition
 * (their indices in execution order) and byoc.kernel (the composite its
 * calls are in, else the Relay ops they became).  A node that made no call
 * - computed at load, or an alias - says so, with target "none".
 *
 * NodeProto.metadata_props (field 9, ONNX 1.16) is newer than the schema
 * byoc may be built with, so the entries are added as raw protobuf fields;
 * parsers that know the field read them, others keep them as unknown.
 * Nothing else of the model changes: it is unpacked, the fields appended,
 * and packed again. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <byoc/onnx.h>
#include <byoc/partition.h>

#include "arena.h"
#include "die.h"
#include "errfmt.h"
#include "file.h"
#include "graph_impl.h"
#include "strbuf.h"
#include "writers/onnx_files.h"

#ifdef HAVE_ONNX
#include "runtime/onnx.pb-c.h"

enum { NODE_METADATA_PROPS = 9 };

static size_t put_varint(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        p[n++] = b | (v ? 0x80 : 0);
    } while (v);
    return n;
}

/* One StringStringEntryProto, serialized: key = 1, value = 2. */
static ProtobufCMessageUnknownField entry(bx_arena *a, const char *key, const char *value)
{
    size_t kl = strlen(key), vl = strlen(value);
    uint8_t *d = bx_arena_alloc(a, kl + vl + 24);
    /* protobuf-c packs an unknown field's data as it is: the length
     * prefix is part of it. */
    size_t body = 1 + (size_t)put_varint((uint8_t[10]){0}, kl) + kl + 1 +
                  (size_t)put_varint((uint8_t[10]){0}, vl) + vl;
    size_t n = put_varint(d, body);
    d[n++] = 0x0a;
    n += put_varint(d + n, kl);
    memcpy(d + n, key, kl);
    n += kl;
    d[n++] = 0x12;
    n += put_varint(d + n, vl);
    memcpy(d + n, value, vl);
    n += vl;
    ProtobufCMessageUnknownField f = {.tag = NODE_METADATA_PROPS,
                                      .wire_type = PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED,
                                      .len = n, .data = d};
    return f;
}

static int annotate(const byoc_result *r, const char *model_path, const char *out,
                    byoc_error *err)
{
    const byoc_graph *g = r->graph;
    const bx_onnx_source *src = g->onnx;
    if (!src || !model_path) {
        bx_error_set(err, NULL, 0, 0, "-f onnx-annotated needs an ONNX model (this one was "
                                      "not read from ONNX)");
        return -1;
    }
    Onnx__ModelProto *mp = bx_onnx_reread(g, model_path, err);
    if (!mp)
        return -1;
    bx_arena a;
    bx_arena_init(&a);
    int nn = src->nnodes, n = byoc_graph_node_count(g);
    /* Per model node: its calls, in node order (a linked list by origin). */
    int *first = BX_NEWN(&a, int, nn + 1), *next = BX_NEWN(&a, int, n + 1);
    int *last = BX_NEWN(&a, int, nn + 1);
    for (int i = 0; i < nn; i++)
        first[i] = last[i] = -1;
    for (int x = 0; x < n; x++) {
        int o = g->nodes[x].origin;
        next[x] = -1;
        if (o < 0 || o >= nn || byoc_node_kind_of(g, x) != BYOC_N_CALL)
            continue;
        if (last[o] < 0)
            first[o] = x;
        else
            next[last[o]] = x;
        last[o] = x;
    }
    /* Per graph node: the composite holding it. */
    const char **comp = BX_NEWN(&a, const char *, n + 1);
    memset(comp, 0, sizeof *comp * (size_t)(n + 1));
    for (int p = 0; p < r->npartitions; p++)
        for (int c = 0; c < r->partitions[p].ncomposites; c++) {
            const byoc_composite *C = &r->partitions[p].composites[c];
            for (int k = 0; k < C->nnodes; k++)
                comp[C->nodes[k]] = C->pattern;
        }
    Onnx__NodeProto **nodes = mp->graph->node;
    int *seen_for = BX_NEWN(&a, int, r->npartitions + 1);
    memset(seen_for, 0, sizeof *seen_for * (size_t)(r->npartitions + 1));
    unsigned *saved_n = BX_NEWN(&a, unsigned, nn + 1);
    ProtobufCMessageUnknownField **saved = BX_NEWN(&a, ProtobufCMessageUnknownField *, nn + 1);
    for (int i = 0; i < nn; i++) {
        bx_strbuf tg = {0}, pt = {0}, kn = {0};
        const char *lastk = NULL;
        for (int x = first[i]; x >= 0; x = next[x]) {
            int p = r->node_partition[x];
            if (p >= 0 && seen_for[p] != i + 1) {
                seen_for[p] = i + 1;    /* each partition once per node */
                bx_sb_printf(&tg, "%s%s", tg.len ? "," : "", r->partitions[p].target->name);
                bx_sb_printf(&pt, "%s%d", pt.len ? "," : "", p);
            }
            const char *k = comp[x] ? comp[x] : byoc_node_op_name(g, x);
            if (!lastk || strcmp(lastk, k) != 0)
                bx_sb_printf(&kn, "%s%s", kn.len ? "+" : "", k);
            lastk = k;
        }
        if (first[i] < 0) {
            bx_sb_printf(&tg, "none");
            bx_sb_printf(&kn, "none: computed at load or passed through");
        }
        ProtobufCMessage *base = &nodes[i]->base;
        saved_n[i] = base->n_unknown_fields;
        saved[i] = base->unknown_fields;
        ProtobufCMessageUnknownField *u =
            BX_NEWN(&a, ProtobufCMessageUnknownField, base->n_unknown_fields + 3);
        if (base->n_unknown_fields)
            memcpy(u, base->unknown_fields, sizeof *u * base->n_unknown_fields);
        u[base->n_unknown_fields] = entry(&a, "byoc.target", tg.s ? tg.s : "");
        u[base->n_unknown_fields + 1] = entry(&a, "byoc.partition", pt.s ? pt.s : "");
        u[base->n_unknown_fields + 2] = entry(&a, "byoc.kernel", kn.s ? kn.s : "");
        base->unknown_fields = u;
        base->n_unknown_fields += 3;
        bx_sb_free(&tg);
        bx_sb_free(&pt);
        bx_sb_free(&kn);
    }
    /* External weights: linked beside the output, locations renamed for
     * the packing only. */
    const char *slash = strrchr(model_path, '/');
    const char *data_dir = slash ? bx_arena_printf(&a, "%.*s", (int)(slash - model_path),
                                                   model_path) : ".";
    const char *oslash = strrchr(out, '/');
    const char *out_dir = oslash ? bx_arena_printf(&a, "%.*s", (int)(oslash - out), out) : ".";
    bx_hash links;
    bx_hash_init(&links);
    Onnx__GraphProto *gp = mp->graph;
    char **saved_loc = BX_NEWN(&a, char *, gp->n_initializer + 1);
    Onnx__StringStringEntryProto **loc_entry =
        BX_NEWN(&a, Onnx__StringStringEntryProto *, gp->n_initializer + 1);
    int lrc = 0;
    /* Initializers, then the tensors of the nodes' attributes (a
     * Constant's weights). */
    size_t ntensors = gp->n_initializer;
    for (size_t i = 0; i < gp->n_node; i++)
        for (size_t q = 0; q < gp->node[i]->n_attribute; q++)
            ntensors += gp->node[i]->attribute[q]->t != NULL;
    Onnx__TensorProto **tensors = BX_NEWN(&a, Onnx__TensorProto *, ntensors + 1);
    size_t nt = 0;
    for (size_t k = 0; k < gp->n_initializer; k++)
        tensors[nt++] = gp->initializer[k];
    for (size_t i = 0; i < gp->n_node; i++)
        for (size_t q = 0; q < gp->node[i]->n_attribute; q++)
            if (gp->node[i]->attribute[q]->t)
                tensors[nt++] = gp->node[i]->attribute[q]->t;
    const char **made_links = BX_NEWN(&a, const char *, nt + 1);
    size_t nmade = 0;
    saved_loc = BX_NEWN(&a, char *, nt + 1);
    loc_entry = BX_NEWN(&a, Onnx__StringStringEntryProto *, nt + 1);
    for (size_t k = 0; k < nt; k++) {
        Onnx__TensorProto *t = tensors[k];
        loc_entry[k] = NULL;
        if (lrc || !t->has_data_location ||
            t->data_location != ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL)
            continue;
        for (size_t e = 0; e < t->n_external_data; e++)
            if (t->external_data[e]->key && !strcmp(t->external_data[e]->key, "location") &&
                t->external_data[e]->value) {
                const char *linked;
                bool made;
                if (bx_onnx_link_data(&a, &links, data_dir, out_dir, t->external_data[e]->value,
                                      &linked, &made, err) < 0) {
                    lrc = -1;
                    break;
                }
                if (made && nmade < nt + 1)
                    made_links[nmade++] = bx_arena_printf(&a, "%s/%s", out_dir, linked);
                loc_entry[k] = t->external_data[e];
                saved_loc[k] = loc_entry[k]->value;
                loc_entry[k]->value = (char *)linked;
                break;          /* one location per tensor; restored below */
            }
    }
    size_t psize = lrc ? 0 : onnx__model_proto__get_packed_size(mp);
    uint8_t *buf = malloc(psize ? psize : 1);
    if (!buf)
        bx_oom();
    if (!lrc)
        onnx__model_proto__pack(mp, buf);
    for (size_t k = 0; k < nt; k++)
        if (loc_entry[k])
            loc_entry[k]->value = saved_loc[k];
    bx_hash_free(&links);
    for (int i = 0; i < nn; i++) {
        nodes[i]->base.unknown_fields = saved[i];
        nodes[i]->base.n_unknown_fields = saved_n[i];
    }
    onnx__model_proto__free_unpacked(mp, NULL);
    if (lrc) {
        for (size_t k = 0; k < nmade; k++)
            unlink(made_links[k]);
        free(buf);
        bx_arena_free(&a);
        return -1;
    }
    /* All or nothing: a temporary beside the file, renamed over it. */
    char *tmp = malloc(strlen(out) + 32);
    if (!tmp)
        bx_oom();
    sprintf(tmp, "%s.tmp%ld", out, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int rc = 0;
    if (!f) {
        bx_error_set(err, NULL, 0, 0, "cannot create '%s': %s", tmp, strerror(errno));
        rc = -1;
    } else {
        size_t wr = fwrite(buf, 1, psize, f);
        int bad = wr != psize || ferror(f);
        if (fclose(f) != 0 || bad) {
            bx_error_set(err, NULL, 0, 0, "writing '%s': %s", out, strerror(errno ? errno : EIO));
            rc = -1;
        } else if (rename(tmp, out) != 0) {
            bx_error_set(err, NULL, 0, 0, "cannot rename '%s' to '%s': %s", tmp, out,
                         strerror(errno));
            rc = -1;
        }
        if (rc != 0)
            unlink(tmp);
    }
    for (size_t k = 0; rc != 0 && k < nmade; k++)
        unlink(made_links[k]);
    free(tmp);
    free(buf);
    bx_arena_free(&a);
    return rc;
}
#endif

int byoc_result_write_onnx_annotated(const byoc_result *r, const char *model_path,
                                     const char *out, byoc_error *err)
{
    byoc_error_clear(err);
    if (!r || !out) {
        bx_error_set(err, NULL, 0, 0, "no result or no output file");
        return -1;
    }
#ifdef HAVE_ONNX
    bx_oom_guard guard;
    BX_OOM_GUARD(&guard, err, -1);
    int rc = annotate(r, model_path, out, err);
    bx_oom_close(&guard);
    return rc;
#else
    (void)model_path;
    bx_error_set(err, NULL, 0, 0, "byoc was built without ONNX support");
    return -1;
#endif
}
