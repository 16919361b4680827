/* Reading a whole file into memory, for the model readers, and whether a
 * folder is empty, for the writers.  Internal
 * (bx_ prefix). */
#ifndef BX_FILE_H
#define BX_FILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include <byoc/error.h>

/* The most bytes a model file may hold: 2 GiB less a byte, protobuf's own
 * limit for an ONNX model (whose weights beyond it are external), and
 * flex's for Relay text.  doc/limits.md. */
#define BX_MAX_FILE ((size_t)INT_MAX)

/* The contents of path in a malloc'd buffer (one byte more than *size,
 * unset); NULL with err filled (located at the file) when it cannot be
 * opened or read, is a folder, or holds more than BX_MAX_FILE bytes (a
 * pipe or a device such as /dev/zero is read only that far).  Out of
 * memory goes to bx_oom. */
char *bx_read_file(const char *path, size_t *size, byoc_error *err);

/* Is dir an empty folder (false when it cannot be read)? */
bool bx_dir_empty(const char *dir);

#endif
