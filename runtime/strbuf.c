/* A growable string (see strbuf.h).  Capacity doubles, so printing n
 * bytes in pieces costs O(n) copies overall. */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "die.h"

void bx_sb_printf(bx_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        bx_die("bad format");
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 128;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s)
            bx_oom();
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void bx_sb_free(bx_strbuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

void bx_sb_reset(bx_strbuf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = 0;
}

const char *bx_sb_str(const bx_strbuf *b) { return b->s ? b->s : ""; }
