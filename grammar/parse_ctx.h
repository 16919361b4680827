/* State shared by the .byoc scanner and parser: where we are in which file,
 * the arena the AST goes into, and the diagnostics sink. */
#ifndef BYOCC_PARSE_CTX_H
#define BYOCC_PARSE_CTX_H

#include "ast.h"


struct tlit {
    int dtype;
    bool is_float;
    int64_t i;
    double f;
};

typedef struct parse_ctx {
    bx_arena *arena;
    diag *diag;
    const char *file;    /* display name for locations */
    int line, col;
    loc cstart;          /* start of an open block comment */
    file_ast *out;
    const char *src;     /* the whole file, for clause texts */
    size_t srclen;
    int *line_starts;    /* offsets of line starts */
    int nlines;
} parse_ctx;

#endif
