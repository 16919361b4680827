/* Diagnostics in the GNU format: "file:line:col: error: message", then
 * "note:" lines pointing at related places.  Messages are lowercase with no
 * final period, like gcc's.  The error count decides whether byocc writes
 * anything at all.  After BYOCC_MAX_ERRORS errors, as clang does, one more
 * line says so and the rest are counted but not printed. */
#include <limits.h>
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

static void report(diag *d, const char *kind, loc at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(d, kind, at, fmt, ap);
    va_end(ap);
}

bool diag_stopped(const diag *d)
{
    return d->errors > BYOCC_MAX_ERRORS;
}

void diag_error(diag *d, loc at, const char *fmt, ...)
{
    if (d->errors == BYOCC_MAX_ERRORS)
        report(d, "error", at, "too many errors, stopping now");
    d->dropped = false;
    if (d->errors < BYOCC_MAX_ERRORS) {
        va_list ap;
        va_start(ap, fmt);
        vreport(d, "error", at, fmt, ap);
        va_end(ap);
    }
    if (d->errors < INT_MAX)
        d->errors++;
}

void diag_warning(diag *d, loc at, const char *fmt, ...)
{
    /* Warnings never stop byocc, and a flood of them is cut short. */
    d->dropped = d->warnings >= BYOCC_MAX_ERRORS;
    if (!d->dropped) {
        va_list ap;
        va_start(ap, fmt);
        vreport(d, "warning", at, fmt, ap);
        va_end(ap);
    }
    if (d->warnings < INT_MAX)
        d->warnings++;
}

void diag_note(diag *d, loc at, const char *fmt, ...)
{
    /* A note belongs to the error or warning just printed. */
    if (d->errors > BYOCC_MAX_ERRORS || d->dropped)
        return;
    va_list ap;
    va_start(ap, fmt);
    vreport(d, "note", at, fmt, ap);
    va_end(ap);
}

void suggest_begin(suggester *s, const char *name)
{
    /* Allow about one edit in three characters, at least one, at most 3. */
    int limit = (int)(strlen(name) / 3);
    if (limit < 1)
        limit = 1;
    if (limit > 3)
        limit = 3;
    s->name = name;
    s->best = NULL;
    s->limit = limit;
    s->bestd = limit + 1;
}

void suggest_offer(suggester *s, const char *candidate)
{
    if (!candidate || strcmp(candidate, s->name) == 0)
        return;
    int d = bx_edit_distance_within(s->name, candidate, s->limit);
    if (d < s->bestd) {
        s->bestd = d;
        s->best = candidate;
    }
}

const char *diag_suggest(const char *name, const char *const *names, int n)
{
    suggester s;
    suggest_begin(&s, name);
    for (int i = 0; i < n; i++)
        suggest_offer(&s, names[i]);
    return s.best;
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
