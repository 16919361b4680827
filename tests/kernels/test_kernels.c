/* byoc_write_kernels_onnx through the library: a want() filter writes and
 * lists only the kernels it wants, in the unfiltered order; the seed
 * changes the random data and nothing else; a model changed since it was
 * read, a folder in the way and missing arguments are errors that leave no
 * folder behind.
 *
 * Usage: test_kernels MODEL.relay MODEL.onnx TMPDIR (tests/kernels/api.sh
 * builds the ONNX model; the folders are made in TMPDIR). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <byoc/byoc.h>
#include <byoc/onnx.h>
#include <byoc/relay.h>

#include "bundled.h"

static int failures;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "FAIL: %s:%d: ", __FILE__, __LINE__);                          \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *s = malloc(cap);
    for (size_t k; s && (k = fread(s + len, 1, cap - len, f)) > 0;) {
        len += k;
        if (len == cap)
            s = realloc(s, cap *= 2);
    }
    fclose(f);
    if (s)
        s[len < cap ? len : cap - 1] = 0;
    *n = len;
    return s;
}

/* Wants dnnl's kernels, and of those every other one it is asked about. */
typedef struct filter {
    int asked, wanted;
} filter;

static bool want_some(const char *target, const char *signature, void *ctx)
{
    filter *f = ctx;
    (void)signature;
    if (strcmp(target, "dnnl") != 0)
        return false;
    bool w = f->asked++ % 2 == 0;
    f->wanted += w;
    return w;
}

static void folder(char *buf, size_t size, const char *tmp, const char *name)
{
    snprintf(buf, size, "%s/%s", tmp, name);
}

/* Nothing at dir, and no temporary folder beside it either. */
static bool nothing_left(const char *dir)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s.tmp%ld", dir, (long)getpid());
    return !exists(dir) && !exists(buf);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_kernels MODEL.relay MODEL.onnx TMPDIR\n");
        return 2;
    }
    const char *tmp = argv[3];
    byoc_error err;
    byoc_registry *reg = byoc_registry_create();
    if (bundled_register(reg, &err) != 0) {
        fprintf(stderr, "test_kernels: %s\n", err.msg);
        return 1;
    }
    byoc_graph *g = byoc_relay_read(reg, argv[1], &err);
    if (!g) {
        fprintf(stderr, "test_kernels: %s\n", err.msg);
        return 1;
    }
    const char *targets[] = {"dnnl", "llvm"};
    byoc_partition_options o;
    byoc_partition_options_init(&o);
    o.targets = targets;
    o.ntargets = 2;
    char all_dir[4096], some_dir[4096], seed_dir[4096], path[8192], path2[8192];
    folder(all_dir, sizeof all_dir, tmp, "all");
    folder(some_dir, sizeof some_dir, tmp, "some");
    folder(seed_dir, sizeof seed_dir, tmp, "seed");

    /* Every kernel (wo NULL), then a filtered set. */
    byoc_kernel_files *all = byoc_write_kernels_onnx(g, &o, NULL, all_dir, &err);
    CHECK(all, "writing every kernel: %s", err.msg);
    filter f = {0};
    byoc_kernel_write_options wo = {.want = want_some, .ctx = &f};
    byoc_kernel_files *some = byoc_write_kernels_onnx(g, &o, &wo, some_dir, &err);
    CHECK(some, "writing some kernels: %s", err.msg);
    if (all && some) {
        size_t na = byoc_kernel_files_count(all), ns = byoc_kernel_files_count(some);
        size_t ndnnl = 0;
        for (size_t i = 0; i < na; i++)
            ndnnl += strcmp(byoc_kernel_files_at(all, i)->target, "dnnl") == 0;
        CHECK(f.asked == (int)ndnnl, "want() asked about %d dnnl kernels of %zu", f.asked, ndnnl);
        CHECK(ns == (size_t)f.wanted && ns > 0 && ns < na, "%zu kernels listed, %d wanted, of %zu",
              ns, f.wanted, na);
        /* The wanted ones are every other dnnl kernel of the full list,
         * in its order, numbered anew. */
        size_t j = 0, k = 0;
        for (size_t i = 0; i < na && j < ns; i++) {
            const byoc_kernel_file *a = byoc_kernel_files_at(all, i);
            if (strcmp(a->target, "dnnl") != 0 || k++ % 2 != 0)
                continue;
            const byoc_kernel_file *s = byoc_kernel_files_at(some, j);
            CHECK(!strcmp(a->signature, s->signature), "kernel %zu of the filtered list is not "
                  "the full list's %zu", j, i);
            char want[64];
            snprintf(want, sizeof want, "k%zu_dnnl.onnx", j);
            CHECK(s->file && !strcmp(s->file, want), "kernel %zu is in %s", j,
                  s->file ? s->file : "(none)");
            CHECK(s->nops > 0 && s->ops[0] && s->device && !strcmp(s->device, "cpu") &&
                      s->estimate > 0, "kernel %zu: its ops, device or estimate", j);
            snprintf(path, sizeof path, "%s/%s", some_dir, s->file ? s->file : "");
            CHECK(exists(path), "%s is not there", path);
            j++;
        }
        CHECK(j == ns, "%zu of %zu filtered kernels found in the full list", j, ns);
        snprintf(path, sizeof path, "%s/k%zu_dnnl.onnx", some_dir, ns);
        CHECK(!exists(path), "a file past the filtered list: %s", path);
        size_t len = 0, files = 0;
        snprintf(path, sizeof path, "%s/kernels.json", some_dir);
        char *json = slurp(path, &len);
        CHECK(json, "no %s", path);
        for (const char *p = json; p && (p = strstr(p, "\"file\": \"")); p++)
            files++;
        CHECK(files == ns, "kernels.json lists %zu files, not %zu", files, ns);
        CHECK(!json || !strstr(json, "\"target\": \"llvm\""), "kernels.json lists llvm's");
        free(json);
    }
    CHECK(byoc_kernel_files_at(some, (size_t)-1) == NULL, "an index past the end");

    /* Another seed: the same kernels, other random weights. */
    byoc_kernel_write_options ws = {.seed = 7};
    byoc_kernel_files *seeded = byoc_write_kernels_onnx(g, &o, &ws, seed_dir, &err);
    CHECK(seeded, "writing with seed 7: %s", err.msg);
    if (all && seeded) {
        CHECK(byoc_kernel_files_count(seeded) == byoc_kernel_files_count(all),
              "another seed, another count");
        size_t n1, n2;
        /* The weights of resnet_bottleneck's convolutions are big enough
         * to be in kernels.data. */
        snprintf(path, sizeof path, "%s/kernels.data", all_dir);
        snprintf(path2, sizeof path2, "%s/kernels.data", seed_dir);
        char *a = slurp(path, &n1), *b = slurp(path2, &n2);
        CHECK(a && b && (n1 != n2 || memcmp(a, b, n1) != 0), "seed 7 wrote the same %s",
              path2);
        free(a);
        free(b);
    }

    /* Errors: a folder in the way, no folder, no graph. */
    byoc_kernel_files *k = byoc_write_kernels_onnx(g, &o, NULL, all_dir, &err);
    CHECK(!k && strstr(err.msg, "exists"), "an existing folder: %s", k ? "written" : err.msg);
    byoc_kernel_files_destroy(k);
    k = byoc_write_kernels_onnx(g, &o, NULL, NULL, &err);
    CHECK(!k && err.msg[0], "no folder");
    k = byoc_write_kernels_onnx(NULL, &o, NULL, some_dir, &err);
    CHECK(!k && err.msg[0], "no graph");
    const char *bad[] = {"no_such_target"};
    byoc_partition_options ob = o;
    ob.targets = bad;
    ob.ntargets = 1;
    char bad_dir[4096];
    folder(bad_dir, sizeof bad_dir, tmp, "bad");
    k = byoc_write_kernels_onnx(g, &ob, NULL, bad_dir, &err);
    CHECK(!k && strstr(err.msg, "no_such_target") && nothing_left(bad_dir),
          "an unknown target: %s", err.msg);

    /* An ONNX model changed after it was read. */
    if (byoc_onnx_available()) {
        char copy[4096], changed_dir[4096];
        folder(copy, sizeof copy, tmp, "changed.onnx");
        folder(changed_dir, sizeof changed_dir, tmp, "changed");
        size_t n;
        char *bytes = slurp(argv[2], &n);
        FILE *out = bytes ? fopen(copy, "wb") : NULL;
        CHECK(out && fwrite(bytes, 1, n, out) == n && fclose(out) == 0, "copying %s", argv[2]);
        byoc_graph *og = byoc_onnx_read(reg, copy, &err);
        CHECK(og, "reading %s: %s", copy, err.msg);
        byoc_kernel_write_options wm = {.model_path = copy};
        if (og) {
            out = fopen(copy, "ab");
            CHECK(out && fputc(0, out) == 0 && fclose(out) == 0, "changing %s", copy);
            k = byoc_write_kernels_onnx(og, &o, &wm, changed_dir, &err);
            CHECK(!k && strstr(err.msg, "not the model that was read") &&
                      nothing_left(changed_dir),
                  "a changed model: %s", k ? "written" : err.msg);
            byoc_kernel_files_destroy(k);
            wm.model_path = NULL;
            k = byoc_write_kernels_onnx(og, &o, &wm, changed_dir, &err);
            CHECK(!k && strstr(err.msg, "needs the model's file") && nothing_left(changed_dir),
                  "an ONNX graph without its file: %s", k ? "written" : err.msg);
            byoc_kernel_files_destroy(k);
            byoc_graph_destroy(og);
        }
        free(bytes);
    }

    byoc_kernel_files_destroy(all);
    byoc_kernel_files_destroy(some);
    byoc_kernel_files_destroy(seeded);
    byoc_graph_destroy(g);
    byoc_registry_destroy(reg);
    if (failures)
        fprintf(stderr, "%d checks failed\n", failures);
    else
        printf("PASS: byoc_write_kernels_onnx: filter, seed, errors\n");
    return failures ? 1 : 0;
}
