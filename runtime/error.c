/* User errors: filling and printing a byoc_error, and "did you mean" hints.
 *
 * A byoc_error is fixed-size plain data so that callers need not free it;
 * everything here therefore formats with snprintf and truncates.  The edit
 * distance counts a swap of neighbours as one edit ("cdua" for "cuda"), as
 * byocc's does, so both give the same hints. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <byoc/error.h>

#include "errfmt.h"

void byoc_error_clear(byoc_error *e)
{
    if (e)
        memset(e, 0, sizeof(*e));
}

int byoc_error_format(const byoc_error *e, char *buf, unsigned long size)
{
    if (!e)
        return snprintf(buf, size, "error: unknown error");
    if (e->file[0] && e->line > 0 && e->col > 0)
        return snprintf(buf, size, "%s:%d:%d: error: %s", e->file, e->line, e->col, e->msg);
    if (e->file[0] && e->line > 0)
        return snprintf(buf, size, "%s:%d: error: %s", e->file, e->line, e->msg);
    if (e->file[0])
        return snprintf(buf, size, "%s: error: %s", e->file, e->msg);
    return snprintf(buf, size, "error: %s", e->msg);
}

void bx_error_set(byoc_error *e, const char *file, int line, int col, const char *fmt, ...)
{
    if (!e)
        return;
    byoc_error_clear(e);
    if (file)
        snprintf(e->file, sizeof e->file, "%s", file);
    e->line = line;
    e->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
}

enum { MAX_WORD = 63 };

/* Optimal string alignment distance; words too long to matter get a
 * distance that no hint accepts. */
int bx_edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > MAX_WORD || m > MAX_WORD)
        return 1000;
    int d[MAX_WORD + 1][MAX_WORD + 1];
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

int bx_edit_distance_within(const char *a, const char *b, int max)
{
    size_t n = strlen(a), m = strlen(b);
    if (max < 0)
        max = 0;
    int big = max + 1;
    if ((n > m ? n - m : m - n) > (size_t)max || n > MAX_WORD || m > MAX_WORD)
        return big;
    /* Rows i - 2, i - 1 and i of the table, cells past max held at big;
     * a row all past max ends it, as no later row can come back. */
    int rows[3][MAX_WORD + 1];
    int *pp = rows[0], *p = rows[1], *c = rows[2];
    for (size_t j = 0; j <= m; j++) {
        pp[j] = big;
        p[j] = (int)j <= max ? (int)j : big;
    }
    for (size_t i = 1; i <= n; i++) {
        c[0] = (int)i <= max ? (int)i : big;
        int least = c[0];
        for (size_t j = 1; j <= m; j++) {
            int best = p[j - 1] + (a[i - 1] != b[j - 1]);
            if (p[j] + 1 < best)
                best = p[j] + 1;
            if (c[j - 1] + 1 < best)
                best = c[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]
                && pp[j - 2] + 1 < best)
                best = pp[j - 2] + 1;
            c[j] = best < big ? best : big;
            if (c[j] < least)
                least = c[j];
        }
        if (least >= big)
            return big;
        int *t = pp;
        pp = p;
        p = c;
        c = t;
    }
    return p[m];
}

void bx_suggest_init(bx_suggest *s, const char *word)
{
    s->word = word ? word : "";
    s->best = NULL;
    /* At most two edits, and fewer than the word has characters: "x" must
     * not suggest "y". */
    int len = (int)strlen(s->word);
    s->dist = (len - 1 < 2 ? len - 1 : 2) + 1;
}

void bx_suggest_offer(bx_suggest *s, const char *candidate)
{
    if (!candidate || strcmp(candidate, s->word) == 0)
        return;
    int d = bx_edit_distance_within(s->word, candidate, s->dist - 1);
    if (d < s->dist) {
        s->dist = d;
        s->best = candidate;
    }
}

const char *bx_suggest_hint(const bx_suggest *s, char *buf, size_t size)
{
    if (size == 0)
        return buf;
    if (s->best)
        snprintf(buf, size, " (did you mean '%s'?)", s->best);
    else
        buf[0] = 0;
    return buf;
}
