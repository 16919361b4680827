/* Reading a whole file, and looking into folders (see file.h). */
#define _POSIX_C_SOURCE 200809L
#include "file.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    /* A folder opens but cannot be read; say so rather than "cannot read".
     * Pipes and devices are read like files, as far as the size limit. */
    struct stat st;
    bool known = fstat(fileno(f), &st) == 0;
    if (known && S_ISDIR(st.st_mode)) {
        fclose(f);
        bx_error_set(err, path, 0, 0, "is a folder, not a file");
        return NULL;
    }
    if (known && S_ISREG(st.st_mode) && (uintmax_t)st.st_size > BX_MAX_FILE) {
        fclose(f);
        bx_error_set(err, path, 0, 0, "larger than %zu bytes, the most byoc reads", BX_MAX_FILE);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        bx_oom();
    }
    errno = 0;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n > BX_MAX_FILE) {
            free(buf);
            fclose(f);
            bx_error_set(err, path, 0, 0, "larger than %zu bytes, the most byoc reads",
                         BX_MAX_FILE);
            return NULL;
        }
        if (n == cap) {
            /* One byte past the limit is enough to know it was passed. */
            size_t want = cap <= BX_MAX_FILE / 2 ? cap * 2 : BX_MAX_FILE + 1;
            char *nb = realloc(buf, want);
            if (!nb) {
                free(buf);
                fclose(f);
                bx_oom();
            }
            buf = nb;
            cap = want;
        }
    }
    bool bad = ferror(f);
    int why = errno ? errno : EIO;
    fclose(f);
    if (bad) {
        free(buf);
        bx_error_set(err, path, 0, 0, "cannot read the file: %s", strerror(why));
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
