/* Diagnostics in the GNU format: "file:line:col: error: message", then
 * "note:" lines pointing at related places.  Messages are lowercase with no
 * final period, like gcc's.  The error count decides whether byocc writes
 * anything at all. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "errfmt.h"

static void vreport(diag *d, const char *kind, loc at, const char *fmt, va_list ap)
{
    FILE *o = d->out ? d->out : stderr;
    if (at.file && at.line > 0)
        fprintf(o, "%s:%d:%d: %s: ", at.file, at.line, at.col, kind);
    else if (at.file)
        fprintf(o, "%s: %s: ", at.file, kind);
    else
        fprintf(o, "byocc: %s: ", kind);
    vfprintf(o, fmt, ap);
    fputc('\n', o);
}

void diag_error(diag *d, loc at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(d, "error", at, fmt, ap);
    va_end(ap);
    d->errors++;
}

void diag_note(diag *d, loc at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(d, "note", at, fmt, ap);
    va_end(ap);
}

const char *diag_suggest(const char *name, const char *const *names, int n)
{
    /* Allow about one edit in three characters, at least one, at most 3. */
    int limit = (int)strlen(name) / 3;
    if (limit < 1)
        limit = 1;
    if (limit > 3)
        limit = 3;
    const char *best = NULL;
    int bestd = limit + 1;
    for (int i = 0; i < n; i++) {
        if (!names[i] || strcmp(names[i], name) == 0)
            continue;
        int d = bx_edit_distance(name, names[i]);
        if (d < bestd) {
            bestd = d;
            best = names[i];
        }
    }
    return best;
}

void vec_push(bx_arena *a, vec *x, void *p)
{
    if (x->n == x->cap) {
        int cap = x->cap ? x->cap * 2 : 4;
        void **nv = bx_arena_alloc(a, sizeof(void *) * (size_t)cap);
        if (x->n)
            memcpy(nv, x->v, sizeof(void *) * (size_t)x->n);
        x->v = nv;
        x->cap = cap;
    }
    x->v[x->n++] = p;
}
