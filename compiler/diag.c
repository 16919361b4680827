/* Diagnostics in the GNU format: "file:line:col: error: message", then
 * "note:" lines pointing at related places.  Messages are lowercase with no
 * final period, like gcc's.  The error count decides whether byocc writes
 * anything at all. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

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

/* Optimal string alignment distance: insertions, deletions, substitutions
 * and transpositions of neighbours ("cdua" is one edit from "cuda"). */
int edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 63 || m > 63)
        return 1000;
    int d[64][64];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]
                && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
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
        int d = edit_distance(name, names[i]);
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
