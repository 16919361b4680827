/* Reading JSON (RFC 8259) into a tree, for inputs other programs write: an
 * ONNX Runtime profile (ort_profile.c).  Internal (bx_ prefix).
 *
 * Every value, member names included, lives in the caller's arena and
 * carries the line and column (1-based, in bytes) where it starts, so a
 * reader of the tree can point at what it did not like.  The parser is
 * iterative, with an explicit nesting limit, and what it allocates is
 * bounded by a constant times the size of its input. */
#ifndef BX_JSON_READ_H
#define BX_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

#include <byoc/error.h>

#include "arena.h"

/* Arrays and objects nested deeper than this are an error. */
#define BX_JSON_MAX_DEPTH 256

typedef enum bx_json_kind {
    BX_JSON_NULL,
    BX_JSON_FALSE,
    BX_JSON_TRUE,
    BX_JSON_NUMBER,
    BX_JSON_STRING,
    BX_JSON_ARRAY,
    BX_JSON_OBJECT
} bx_json_kind;

typedef struct bx_json {
    bx_json_kind kind;
    int line, col;               /* where the value starts */
    double num;                  /* NUMBER */
    const char *str;             /* STRING: UTF-8, NUL-terminated */
    size_t len;                  /* STRING: bytes (the text may hold NULs) */
    const char *key;             /* a member of an object: its name... */
    size_t keylen;               /* ...and its length */
    size_t n;                    /* ARRAY, OBJECT: how many members */
    struct bx_json *first;       /* ARRAY, OBJECT: the members, in order */
    struct bx_json *next;        /* the next member of the enclosing value */
} bx_json;

/* Parse text[0..len) as one JSON value (whitespace around it allowed;
 * a UTF-8 byte order mark at the start is skipped).  NULL with err set to
 * "NAME:LINE:COL: ..." on the first error: bad syntax, a bad escape or
 * unpaired surrogate, a control character in a string, invalid UTF-8,
 * a number out of range, nesting past BX_JSON_MAX_DEPTH.  Out of memory
 * goes to bx_oom. */
bx_json *bx_json_parse(bx_arena *a, const char *text, size_t len, const char *name,
                       byoc_error *err);
/* The same for a whole file, named by its path in messages. */
bx_json *bx_json_read_file(bx_arena *a, const char *path, byoc_error *err);

/* The member of object o named key (the last one when the name repeats),
 * or NULL (also when o is NULL or not an object). */
const bx_json *bx_json_get(const bx_json *o, const char *key);
/* "null", "false", "true", "number", "string", "array", "object". */
const char *bx_json_kind_name(bx_json_kind k);

#endif
