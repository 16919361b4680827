/* External weights for the ONNX writers: each data file a written model
 * refers to is linked beside it, so models in another folder keep
 * referring to the original weights without copying them. */
#define _XOPEN_SOURCE 700       /* link, symlink, realpath */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errfmt.h"
#include "file.h"
#include "graph_impl.h"
#include "writers/onnx_files.h"

#ifdef HAVE_ONNX
#include "runtime/onnx.pb-c.h"

Onnx__ModelProto *bx_onnx_reread(const byoc_graph *g, const char *path, byoc_error *err)
{
    const bx_onnx_source *src = g->onnx;
    size_t size;
    char *data = bx_read_file(path, &size, err);
    if (!data)
        return NULL;
    if (bx_onnx_hash(data, size) != src->hash || size != src->size) {
        free(data);
        bx_error_set(err, path, 0, 0, "not the model that was read (it changed since)");
        return NULL;
    }
    Onnx__ModelProto *mp = onnx__model_proto__unpack(NULL, size, (const uint8_t *)data);
    free(data);
    if (!mp || !mp->graph || (int)mp->graph->n_node != src->nnodes) {
        if (mp)
            onnx__model_proto__free_unpacked(mp, NULL);
        bx_error_set(err, path, 0, 0, "cannot read the ONNX model again");
        return NULL;
    }
    return mp;
}
#endif

bool bx_onnx_reserved_name(const char *base)
{
    size_t n = strlen(base);
    if (strcmp(base, "plan.json") == 0)
        return true;
    return base[0] == 'p' && base[1] >= '0' && base[1] <= '9' && n > 5 &&
           strcmp(base + n - 5, ".onnx") == 0;
}

int bx_onnx_link_data(bx_arena *a, bx_hash *links, const char *data_dir, const char *out_dir,
                      const char *location, const char **linked, bool *made, byoc_error *err)
{
    if (made)
        *made = false;
    const char *done = bx_hash_get(links, location);
    if (done) {
        *linked = done;
        return 0;
    }
    bool climbs = false;
    for (const char *c = location; *c; c = strchr(c, '/') ? strchr(c, '/') + 1 : c + strlen(c))
        climbs |= c[0] == '.' && c[1] == '.' && (c[2] == '/' || c[2] == 0);
    if (location[0] == '/' || climbs) {
        bx_error_set(err, NULL, 0, 0, "external data '%s' is outside the model's folder",
                     location);
        return -1;
    }
    const char *from = bx_arena_printf(a, "%s/%s", data_dir, location);
    const char *base = strrchr(location, '/') ? strrchr(location, '/') + 1 : location;
    const char *to = bx_arena_printf(a, "%s/%s", out_dir, base);
    if (bx_onnx_reserved_name(base)) {
        bx_error_set(err, NULL, 0, 0, "external data file '%s' has the name of a file the writer "
                     "makes (plan.json, pN_TARGET.onnx); rename it", location);
        return -1;
    }
    struct stat sf, st;
    if (stat(from, &sf) == 0 && !S_ISREG(sf.st_mode)) {
        bx_error_set(err, NULL, 0, 0, "external data '%s' is not a file", from);
        return -1;
    }
    if (stat(from, &sf) != 0) {
        bx_error_set(err, NULL, 0, 0,
                     "external data file '%s': %s (a model without its weights cannot be "
                     "written; fill them first, e.g. with tools/fill-weights.py)",
                     from, strerror(errno));
        return -1;
    }
    if (stat(to, &st) == 0 && st.st_dev == sf.st_dev && st.st_ino == sf.st_ino) {
        /* Already there: the output is beside the model. */
    } else if (linkat(AT_FDCWD, from, AT_FDCWD, to, AT_SYMLINK_FOLLOW) != 0) {
        char *abs = realpath(from, NULL);
        if (!abs || symlink(abs, to) != 0) {
            int e = errno;
            free(abs);
            bx_error_set(err, NULL, 0, 0, "linking external data '%s' into '%s': %s", from,
                         out_dir, strerror(e));
            return -1;
        }
        free(abs);
        if (made)
            *made = true;
    } else if (made)
        *made = true;
    *linked = bx_arena_strdup(a, base);
    bx_hash_put(links, bx_arena_strdup(a, location), (void *)*linked);
    return 0;
}
