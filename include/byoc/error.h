/* Errors returned by libbyoc.
 *
 * Every call that can fail takes a byoc_error * (may be NULL) and fills it
 * with a message and, when the error is about an input file, where in it.
 * The struct is plain data: no allocation, nothing to free. */
#ifndef BYOC_ERROR_H
#define BYOC_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct byoc_error {
    char file[256];   /* "" when the error is not about a file */
    int line, col;    /* 1-based; 0 when unknown */
    char msg[512];
} byoc_error;

/* Clear e (safe on NULL). */
void byoc_error_clear(byoc_error *e);
/* Format "file:line:col: error: msg" (or "error: msg") into buf; returns
 * the length needed, like snprintf. */
int byoc_error_format(const byoc_error *e, char *buf, unsigned long size);

#ifdef __cplusplus
}
#endif
#endif
