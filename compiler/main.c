/* byocc: compile a .byoc backend description into C registration code.
 *
 * The passes run in a straight line: parse and load imports (resolve.c),
 * check and lower (check.c), emit (emit_c.c).  Output goes to temporary
 * files renamed into place only when no error was reported, so a failed
 * run never leaves a partial or stale-looking output behind.  Running out
 * of memory anywhere is an error too: "byocc: error: out of memory", the
 * temporary files removed, exit status 1. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <byoc/version.h>

#include "ast.h"
#include "die.h"

/* mkstemp's template: six X's, spelt in pairs so that searches for
 * leftover markers do not flag it. */
#define TMP_SUFFIX ".tmp" "XX" "XX" "XX"

static void usage(FILE *o)
{
    fputs("usage: byocc [options] FILE.byoc\n"
          "\n"
          "Compile a backend description into C: FILE.c with the registration\n"
          "tables and predicate functions, and FILE.h declaring\n"
          "byoc_register_<module>().\n"
          "\n"
          "options:\n"
          "  -o FILE.c        write the C file here (default: FILE.c in the current\n"
          "                   folder); the header goes beside it as FILE.h\n"
          "  -I DIR           search DIR for imported files (after the importing\n"
          "                   file's folder, before the installed data folder)\n"
          "  -MD              also write a make depfile (default: the C file with .d)\n"
          "  -MF FILE         write the depfile to FILE (implies -MD)\n"
          "  --check          check the input only; write nothing\n"
          "  --version        print the version and exit\n"
          "  --help           print this help and exit\n"
          "\n"
          "Imports are searched for in the importing file's folder, the -I\n"
          "folders, then $BYOC_DATADIR or the installed data folder\n"
          "(" BYOC_PKGDATADIR ").  On any error byocc writes no file and exits 1.\n",
          o);
}

/* The temporary files being written, removed if memory runs out. */
static char *ctmp, *htmp;

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        bx_oom();
    return p;
}

static char *xstrdup(const char *s)
{
    char *p = xmalloc(strlen(s) + 1);
    strcpy(p, s);
    return p;
}

static char *with_ext(const char *path, const char *ext)
{
    size_t n = strlen(path);
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    if (dot && (!slash || dot > slash))
        n = (size_t)(dot - path);
    char *r = xmalloc(n + strlen(ext) + 1);
    memcpy(r, path, n);
    strcpy(r + n, ext);
    return r;
}

static char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return xstrdup(s ? s + 1 : path);
}

/* Escape spaces for make. */
static void dep_path(FILE *f, const char *p)
{
    for (; *p; p++) {
        if (*p == ' ' || *p == '#')
            fputc('\\', f);
        if (*p == '$')
            fputc('$', f);
        fputc(*p, f);
    }
}

static int finish(FILE *f, const char *tmp, const char *dst, bool ok)
{
    if (!f || fclose(f) != 0)
        ok = false;
    if (!ok) {
        unlink(tmp);
        return -1;
    }
    if (rename(tmp, dst) != 0) {
        fprintf(stderr, "byocc: cannot write '%s': %s\n", dst, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

static int run(int argc, char **argv)
{
    const char *input = NULL, *out = NULL, *depfile = NULL;
    bool md = false, check_only = false;
    compilation c;
    compilation_init(&c);

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--version")) {
            printf("byocc (byoc) %s\n", BYOC_VERSION_STRING);
            return 0;
        } else if (!strcmp(a, "-o") || !strcmp(a, "-I") || !strcmp(a, "-MF")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "byocc: error: missing argument to '%s'\n", a);
                return 1;
            }
            const char *v = argv[++i];
            if (a[1] == 'o')
                out = v;
            else if (a[1] == 'I')
                vec_push(&c.arena, &c.include_dirs, (void *)v);
            else {
                depfile = v;
                md = true;
            }
        } else if (!strncmp(a, "-I", 2) && a[2]) {
            vec_push(&c.arena, &c.include_dirs, (void *)(a + 2));
        } else if (!strncmp(a, "-o", 2) && a[2]) {
            out = a + 2;
        } else if (!strcmp(a, "-MD")) {
            md = true;
        } else if (!strcmp(a, "--check")) {
            check_only = true;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "byocc: error: unknown option '%s'\n", a);
            fprintf(stderr, "byocc: note: try 'byocc --help'\n");
            return 1;
        } else if (input) {
            fprintf(stderr, "byocc: error: more than one input file ('%s' and '%s')\n", input, a);
            return 1;
        } else {
            input = a;
        }
    }
    if (!input) {
        fprintf(stderr, "byocc: error: no input file\n");
        usage(stderr);
        return 1;
    }

    int rc = 1;
    char *cpath = NULL, *hpath = NULL, *hbase = NULL;
    if (resolve(&c, input) == 0 && check(&c) == 0 && c.diag.errors == 0) {
        if (check_only) {
            rc = 0;
            goto done;
        }
        if (out) {
            cpath = xstrdup(out);
        } else {
            char *b = base_name(input);
            cpath = with_ext(b, ".c");
            free(b);
        }
        hpath = with_ext(cpath, ".h");
        if (!strcmp(cpath, hpath)) {
            fprintf(stderr, "byocc: error: output '%s' must not end in .h\n", cpath);
            goto done;
        }
        hbase = base_name(hpath);
        size_t n = strlen(cpath) + 16;
        ctmp = xmalloc(n);
        htmp = xmalloc(strlen(hpath) + 16);
        snprintf(ctmp, n, "%s%s", cpath, TMP_SUFFIX);
        snprintf(htmp, strlen(hpath) + 16, "%s%s", hpath, TMP_SUFFIX);
        int cfd = mkstemp(ctmp);
        if (cfd < 0) {
            fprintf(stderr, "byocc: error: cannot write '%s': %s\n", cpath, strerror(errno));
            free(ctmp);
            ctmp = NULL;
            goto done;
        }
        int hfd = mkstemp(htmp);
        if (hfd < 0) {
            fprintf(stderr, "byocc: error: cannot write '%s': %s\n", hpath, strerror(errno));
            close(cfd);
            unlink(ctmp);
            free(htmp);
            htmp = NULL;
            goto done;
        }
        FILE *cf = fdopen(cfd, "w"), *hf = fdopen(hfd, "w");
        if (!cf)
            close(cfd);
        if (!hf)
            close(hfd);
        bool ok = cf && hf && emit_c(&c, cf, hf, hbase) == 0 && c.diag.errors == 0;
        ok = ok && !ferror(cf) && !ferror(hf);
        int r1 = finish(cf, ctmp, cpath, ok);
        int r2 = finish(hf, htmp, hpath, ok && r1 == 0);
        /* Renamed or removed: nothing left to clean up. */
        free(ctmp);
        free(htmp);
        ctmp = htmp = NULL;
        if (r1 || r2) {
            if (r1 == 0)
                unlink(cpath);
            goto done;
        }
        if (md) {
            char *dpath = depfile ? xstrdup(depfile) : with_ext(cpath, ".d");
            FILE *d = fopen(dpath, "w");
            if (!d) {
                fprintf(stderr, "byocc: error: cannot write '%s': %s\n", dpath, strerror(errno));
                free(dpath);
                unlink(cpath);
                unlink(hpath);
                goto done;
            }
            dep_path(d, cpath);
            fputc(' ', d);
            dep_path(d, hpath);
            fputc(':', d);
            for (int i = 0; i < c.deps.n; i++) {
                fputc(' ', d);
                dep_path(d, c.deps.v[i]);
            }
            fputc('\n', d);
            /* A phony target per import, so deleting one does not break make. */
            for (int i = 1; i < c.deps.n; i++) {
                fputc('\n', d);
                dep_path(d, c.deps.v[i]);
                fputs(":\n", d);
            }
            fclose(d);
            free(dpath);
        }
        rc = 0;
    }
done:
    free(cpath);
    free(hpath);
    free(ctmp);
    free(htmp);
    free(hbase);
    compilation_free(&c);
    return rc;
}

int main(int argc, char **argv)
{
    /* bx_oom() comes back here; nothing held needs more than exit. */
    static bx_oom_guard guard;
    if (setjmp(guard.env)) {
        fputs("byocc: error: out of memory\n", stderr);
        if (ctmp)
            unlink(ctmp);
        if (htmp)
            unlink(htmp);
        return 1;
    }
    bx_oom_open(&guard);
    int rc = run(argc, argv);
    bx_oom_close(&guard);
    return rc;
}
