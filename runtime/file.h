/* Reading a whole file into memory, for the model readers, and whether a
 * folder is empty, for the writers.  Internal
 * (bx_ prefix). */
#ifndef BX_FILE_H
#define BX_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include <byoc/error.h>

/* The contents of path in a malloc'd buffer (one byte more than *size,
 * unset); NULL with err filled (located at the file) when it cannot be
 * opened or read.  Out of memory goes to bx_oom. */
char *bx_read_file(const char *path, size_t *size, byoc_error *err);

/* Is dir an empty folder (false when it cannot be read)? */
bool bx_dir_empty(const char *dir);

#endif
