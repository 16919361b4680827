/* The writers of a partitioning: one file per output format, all behind the
 * public functions of <byoc/partition.h> (byoc_result_write_text, _json,
 * _relay, _dot), and what they share - with explain.c too, for the node
 * labels and kind names.  Internal (bx_ prefix).  One section per file. */
#ifndef BX_WRITERS_H
#define BX_WRITERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <byoc/error.h>
#include <byoc/graph.h>
#include <byoc/partition.h>
#include <byoc/registry.h>

#include "strbuf.h"

/* ---- common.c ------------------------------------------------------------ */

/* calloc that never returns NULL: one element when n is 0, bx_oom() when
 * memory runs out (the writers run under an OOM guard). */
void *bx_xcalloc(size_t n, size_t size);

/* Every writer indexes arrays by node, so a result naming nodes its graph
 * does not have is refused, with err set, before anything is written. */
int bx_result_check(const byoc_result *r, byoc_error *err);

/* Flush f and judge the writing: 0, or -1 with err saying that `what` (the
 * "JSON output") could not be written. */
int bx_writer_finish(FILE *f, byoc_error *err, const char *what);

/* The partition that holds node, or -1. */
int bx_part_of(const byoc_result *r, int node);

/* The device partition p runs on: its own, else its target's; NULL when
 * neither is known. */
const byoc_device_decl *bx_part_device(const byoc_result *r, const byoc_partition *p);

/* A device's name, "?" for none. */
const char *bx_device_name(const byoc_device_decl *d);

/* Is t a native code generator (one that supports every op)? */
bool bx_target_native(const byoc_result *r, const byoc_target_decl *t);

/* How a node is shown to a user, appended to b: its name from the source
 * (%5, %data, an ONNX tensor name with a % before it), else #id; explain.c
 * shows nodes with it too.  The writers and explain have always differed
 * in two cases, which these flags keep, so that no output changes (a
 * constant is meta[relay.Constant][0] in a table, %meta[relay.Constant][0]
 * in an explanation): */
enum {
    BX_LABEL_BARE_CONST = 1,  /* a constant's name as it is (the writers) */
    BX_LABEL_BARE_GLOBAL = 2, /* a name with an @ before it as it is (explain) */
};
void bx_put_node_label(bx_strbuf *b, const byoc_graph *g, int node, unsigned flags);

/* A node kind's name, as the JSON output gives it: "input", "constant",
 * "call", "tuple", "projection". */
const char *bx_node_kind_name(byoc_node_kind k);

/* What a node is, for a sentence: "an input", "a constant", "a tuple",
 * "a projection", or a call's op. */
const char *bx_node_what(const byoc_graph *g, int node);

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
int bx_utf8_len(const unsigned char *s);

/* seconds as microseconds into buf, three decimals; never "-0.000" or a
 * platform's NaN ("n/a", "inf").  Returns buf. */
const char *bx_fmt_us(char *buf, size_t size, double seconds);

/* s as a JSON string, quotes and escapes added, appended to b (plan.json,
 * kernels.json); NULL is "". */
void bx_json_str(bx_strbuf *b, const char *s);

/* ---- relay_module.c ------------------------------------------------------ */

/* One kernel, nodes[0..n) of g (ascending), as a standalone Relay
 * function `def @<name>(...) -> T { ... }` that a user can compile and
 * time: its parameters are the kernel's inputs - the arguments its nodes
 * take from outside it, constants included, since weights may be absent -
 * named %<name>_i0, %<name>_i1, ... in order of first use; scalar
 * constants with a known value stay inline as literals.  It returns what
 * the rest of the graph uses of it (a tuple when several values).  No
 * version header: callers write several kernels into one file.  Returns
 * 0; or -1 when a node has no Relay form (an opaque call: nothing is
 * written) or writing failed (ferror(f) is then set), for the caller to
 * report. */
int bx_relay_write_kernel(FILE *f, const byoc_graph *g, const int *nodes, int n,
                          const char *name);

#endif
