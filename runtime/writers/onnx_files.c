/* External weights for the ONNX writers: each data file a written model
 * refers to is linked beside it, so models in another folder keep
 * referring to the original weights without copying them. */
#define _XOPEN_SOURCE 700       /* link, symlink, realpath */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errfmt.h"
#include "writers/onnx_files.h"

int bx_onnx_link_data(bx_arena *a, bx_hash *links, const char *data_dir, const char *out_dir,
                      const char *location, const char **linked, byoc_error *err)
{
    const char *done = bx_hash_get(links, location);
    if (done) {
        *linked = done;
        return 0;
    }
    if (location[0] == '/' || strstr(location, "..")) {
        bx_error_set(err, NULL, 0, 0, "external data '%s' is outside the model's folder",
                     location);
        return -1;
    }
    const char *from = bx_arena_printf(a, "%s/%s", data_dir, location);
    const char *base = strrchr(location, '/') ? strrchr(location, '/') + 1 : location;
    const char *to = bx_arena_printf(a, "%s/%s", out_dir, base);
    struct stat sf, st;
    if (stat(from, &sf) != 0) {
        bx_error_set(err, NULL, 0, 0,
                     "external data file '%s': %s (a model without its weights cannot be "
                     "written; fill them first, e.g. with tools/fill-weights.py)",
                     from, strerror(errno));
        return -1;
    }
    if (stat(to, &st) == 0 && st.st_dev == sf.st_dev && st.st_ino == sf.st_ino) {
        /* Already there: the output is beside the model. */
    } else if (link(from, to) != 0) {
        char *abs = realpath(from, NULL);
        if (!abs || symlink(abs, to) != 0) {
            int e = errno;
            free(abs);
            bx_error_set(err, NULL, 0, 0, "linking external data '%s' into '%s': %s", from,
                         out_dir, strerror(e));
            return -1;
        }
        free(abs);
    }
    *linked = bx_arena_strdup(a, base);
    bx_hash_put(links, bx_arena_strdup(a, location), (void *)*linked);
    return 0;
}
