/* A growable string, for text whose length the data decides: generated
 * code, messages naming types.  Internal (bx_ prefix).  Start from a
 * zeroed struct; free with bx_sb_free. */
#ifndef BX_STRBUF_H
#define BX_STRBUF_H

#include <stddef.h>

typedef struct bx_strbuf {
    char *s;          /* NUL-terminated once anything was printed */
    size_t len, cap;
} bx_strbuf;

void bx_sb_printf(bx_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bx_sb_free(bx_strbuf *b);
/* Empty b, keeping its memory for the next text. */
void bx_sb_reset(bx_strbuf *b);
/* The text so far; "" when nothing was printed. */
const char *bx_sb_str(const bx_strbuf *b);

#endif
