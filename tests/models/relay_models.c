/* Every shared Relay model loads with zero untyped nodes, and survives a
 * round trip through the writer: write it, read it back, same graph.
 * Reads ../shared/models/relay (BYOC_SHARED_MODELS); skipped (exit 77)
 * when that folder is absent. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

static int same(const byoc_graph *a, const byoc_graph *b, char *why, size_t n)
{
    int na = byoc_graph_node_count(a);
    if (na != byoc_graph_node_count(b) || byoc_graph_output(a) != byoc_graph_output(b)) {
        snprintf(why, n, "node count or output differs");
        return 0;
    }
    for (int i = 0; i < na; i++) {
        if (byoc_node_kind_of(a, i) != byoc_node_kind_of(b, i)
            || byoc_node_arg_count(a, i) != byoc_node_arg_count(b, i)
            || byoc_node_field_count(a, i) != byoc_node_field_count(b, i)) {
            snprintf(why, n, "node %d differs in kind, arguments or fields", i);
            return 0;
        }
        for (int k = 0; k < byoc_node_arg_count(a, i); k++)
            if (byoc_node_arg(a, i, k) != byoc_node_arg(b, i, k)) {
                snprintf(why, n, "node %d argument %d differs", i, k);
                return 0;
            }
        int nf = byoc_node_field_count(a, i);
        for (int f = nf < 0 ? -1 : 0; f < (nf < 0 ? 0 : nf); f++)
            if (memcmp(byoc_node_type(a, i, f), byoc_node_type(b, i, f), sizeof(byoc_tensor_type))) {
                snprintf(why, n, "node %d type differs", i);
                return 0;
            }
        if (byoc_node_kind_of(a, i) == BYOC_N_CALL) {
            const byoc_op_decl *op = byoc_node_op(a, i);
            if (op != byoc_node_op(b, i)) {
                snprintf(why, n, "node %d op differs", i);
                return 0;
            }
            for (int k = 0; k < op->nattrs; k++)
                if (!byoc_value_equal(byoc_node_attr_at(a, i, k), byoc_node_attr_at(b, i, k))) {
                    snprintf(why, n, "node %d attribute %s differs", i, op->attrs[k].name);
                    return 0;
                }
        }
    }
    return 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    const char *root = getenv("BYOC_SHARED_MODELS");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/relay", root ? root : "../shared/models");
    DIR *d = opendir(dir);
    if (!d) {
        printf("SKIP: %s is absent\n", dir);
        return 77;
    }
    char *names[256];
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) && count < 256) {
        size_t l = strlen(e->d_name);
        if (l > 6 && !strcmp(e->d_name + l - 6, ".relay"))
            names[count++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)count, sizeof(char *), by_name);
    byoc_registry *reg = byoc_registry_create();
    byoc_error err;
    if (byoc_register_relay(reg, &err) != 0)
        return 99;
    int pass = 0, fail = 0;
    for (int m = 0; m < count; m++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, names[m]);
        byoc_graph *g = byoc_relay_read(reg, path, &err);
        char why[512] = "";
        int ok = g != NULL;
        if (!ok) {
            byoc_error_format(&err, why, sizeof why);
        } else {
            for (int i = 0; i < byoc_graph_node_count(g) && ok; i++)
                if (byoc_node_untyped_reason(g, i)) {
                    snprintf(why, sizeof why, "node %d is untyped: %s", i,
                             byoc_node_untyped_reason(g, i));
                    ok = 0;
                }
        }
        if (ok) {
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            ok = byoc_relay_write(g, f, &err) == 0;
            fclose(f);
            byoc_graph *h = ok ? byoc_relay_read_string(reg, buf, len, "written", &err) : NULL;
            if (!h) {
                byoc_error_format(&err, why, sizeof why);
                ok = 0;
            } else {
                ok = same(g, h, why, sizeof why);
                byoc_graph_destroy(h);
            }
            free(buf);
        }
        if (ok) {
            printf("PASS: %s (%d nodes)\n", names[m], byoc_graph_node_count(g));
            pass++;
        } else {
            printf("FAIL: %s: %s\n", names[m], why);
            fail++;
        }
        byoc_graph_destroy(g);
        free(names[m]);
    }
    byoc_registry_destroy(reg);
    printf("%d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}
