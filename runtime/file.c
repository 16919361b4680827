/* Reading a whole file, and looking into folders (see file.h). */
#include "file.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "errfmt.h"

char *bx_read_file(const char *path, size_t *size, byoc_error *err)
{
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) {
        bx_error_set(err, path ? path : "", 0, 0, "cannot open: %s",
                     path ? strerror(errno) : "no path");
        return NULL;
    }
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        bx_oom();
    }
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                free(buf);
                fclose(f);
                bx_oom();
            }
            buf = nb;
            cap *= 2;
        }
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        bx_error_set(err, path, 0, 0, "cannot read the file");
        return NULL;
    }
    *size = n;
    return buf;
}

bool bx_dir_empty(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool empty = true;
    for (struct dirent *e; empty && (e = readdir(d));)
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    closedir(d);
    return empty;
}
