/* Reading a whole file into memory, for the model readers.  Internal
 * (bx_ prefix). */
#ifndef BX_FILE_H
#define BX_FILE_H

#include <stddef.h>

#include <byoc/error.h>

/* The contents of path in a malloc'd buffer (one byte more than *size,
 * unset); NULL with err filled (located at the file) when it cannot be
 * opened or read.  Out of memory goes to bx_oom. */
char *bx_read_file(const char *path, size_t *size, byoc_error *err);

#endif
