/* Loading files and binding names across them.
 *
 * The main file and everything it imports, transitively, are parsed once
 * each (keyed by their real path).  A file being loaded when it is imported
 * again closes an import cycle.  Declarations then go into namespaces
 * shared by all loaded files - ops; devices and targets together, since a
 * parent may be either; externs, predicates and lower passes together,
 * since both name C functions; file-level lets - and a name declared
 * twice is an error with a note at the first declaration.  A file may only
 * use what it declares or imports, directly or through its imports. */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ast.h"

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static const char *dir_of(compilation *c, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return "";
    return bx_arena_strndup(&c->arena, path, (size_t)(slash - path + 1));
}

static const char *module_name(compilation *c, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".byoc") == 0)
        n -= 5;
    char *m = bx_arena_alloc(&c->arena, n + 2), *o = m;
    if (n == 0 || (base[0] >= '0' && base[0] <= '9'))
        *o++ = '_';
    for (size_t i = 0; i < n; i++) {
        char ch = base[i];
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
                  || (ch >= '0' && ch <= '9') || ch == '_';
        *o++ = ok ? ch : '_';
    }
    *o = 0;
    return m;
}

/* Find an imported file: the importer's folder, then -I folders, then the
 * installed data folder.  Returns the display path or NULL. */
static const char *find_import(compilation *c, const file_ast *from, const char *name)
{
    if (name[0] == '/')
        return is_file(name) ? name : NULL;
    const char *p = bx_arena_printf(&c->arena, "%s%s", dir_of(c, from->path), name);
    if (is_file(p))
        return p;
    for (int i = 0; i < c->include_dirs.n; i++) {
        const char *d = c->include_dirs.v[i];
        size_t n = strlen(d);
        p = bx_arena_printf(&c->arena, "%s%s%s", d, n && d[n - 1] == '/' ? "" : "/", name);
        if (is_file(p))
            return p;
    }
    if (c->datadir) {
        p = bx_arena_printf(&c->arena, "%s/%s", c->datadir, name);
        if (is_file(p))
            return p;
    }
    return NULL;
}

static file_ast *load(compilation *c, const char *path, vec *stack, loc from);

static void load_imports(compilation *c, file_ast *f, vec *stack)
{
    for (int i = 0; i < f->decls.n; i++) {
        decl *d = f->decls.v[i];
        if (d->kind != D_IMPORT)
            continue;
        const char *p = find_import(c, f, d->name);
        if (!p) {
            diag_error(&c->diag, d->name_at, "cannot find imported file '%s'", d->name);
            continue;
        }
        f->importing_at = d->name_at;
        file_ast *g = load(c, p, stack, d->name_at);
        if (g)
            vec_push(&c->arena, &f->imports, g);
    }
}

static file_ast *load(compilation *c, const char *path, vec *stack, loc from)
{
    char real[PATH_MAX];
    if (!realpath(path, real)) {
        diag_error(&c->diag, from, "cannot open '%s'", path);
        return NULL;
    }
    file_ast *f = bx_hash_get(&c->files, real);
    if (f) {
        if (f->state == 1) {
            diag_error(&c->diag, from, "import cycle: '%s' imports itself", f->path);
            /* Print the chain from f to the importer. */
            int k = 0;
            while (k < stack->n && stack->v[k] != f)
                k++;
            for (int j = k; j < stack->n - 1; j++) {
                file_ast *s = stack->v[j];
                file_ast *next = stack->v[j + 1];
                diag_note(&c->diag, s->importing_at, "'%s' imports '%s' here", s->path,
                          next->path);
            }
            return NULL;
        }
        return f;
    }
    f = parse_file(c, path, path);
    if (!f) {
        diag_error(&c->diag, from, "cannot open '%s'", path);
        return NULL;
    }
    f->module = module_name(c, path);
    const char *base = strrchr(path, '/');
    f->base = base ? base + 1 : path;
    bx_hash_put(&c->files, bx_arena_strdup(&c->arena, real), f);
    vec_push(&c->arena, &c->deps, (void *)f->path);
    f->state = 1;
    vec_push(&c->arena, stack, f);
    load_imports(c, f, stack);
    stack->n--;
    f->state = 2;
    vec_push(&c->arena, &c->all_files, f);
    return f;
}

static const char *kind_word(decl_kind k)
{
    switch (k) {
    case D_OP: return "op";
    case D_DEVICE: return "device";
    case D_TARGET: return "target";
    case D_EXTERN: return "extern predicate";
    case D_LET: return "let";
    default: return "declaration";
    }
}

static void declare(compilation *c, bx_hash *ns, decl *d)
{
    decl *prev = bx_hash_put(ns, d->name, d);
    if (prev) {
        bx_hash_put(ns, d->name, prev); /* keep the first */
        diag_error(&c->diag, d->name_at, "redefinition of %s '%s'",
                   d->kind == D_EXTERN && d->lower ? "extern lower" : kind_word(d->kind),
                   d->name);
        diag_note(&c->diag, prev->name_at, "previous definition of '%s' is here", d->name);
    }
}

static bool reaches(const file_ast *f, const file_ast *g, int depth)
{
    if (f == g)
        return true;
    if (depth > 1000)
        return false;
    for (int i = 0; i < f->imports.n; i++)
        if (reaches(f->imports.v[i], g, depth + 1))
            return true;
    return false;
}

bool visible_from(const file_ast *f, const decl *d)
{
    return reaches(f, d->file, 0);
}

int resolve(compilation *c, const char *path)
{
    vec stack = {0};
    c->main = load(c, path, &stack, (loc){NULL, 0, 0});
    if (!c->main)
        return -1;
    for (int i = 0; i < c->all_files.n; i++) {
        file_ast *f = c->all_files.v[i];
        for (int j = 0; j < f->decls.n; j++) {
            decl *d = f->decls.v[j];
            switch (d->kind) {
            case D_OP: declare(c, &c->ops, d); break;
            case D_DEVICE:
            case D_TARGET: declare(c, &c->devices, d); break;
            case D_EXTERN: declare(c, &c->externs, d); break;
            case D_LET: declare(c, &c->lets, d); break;
            default: break;
            }
        }
    }
    return c->diag.errors ? -1 : 0;
}
