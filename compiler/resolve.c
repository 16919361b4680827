/* Loading files and binding names across them.
 *
 * The main file and everything it imports, transitively, are parsed once
 * each (keyed by their real path).  A file being loaded when it is imported
 * again closes an import cycle.  Declarations then go into namespaces
 * shared by all loaded files - ops; devices and targets together, since a
 * parent may be either; externs, predicates and lower passes together,
 * since both name C functions; file-level lets; file-level predicate
 * macros - and a name declared
 * twice is an error with a note at the first declaration.  A file may only
 * use what it declares or imports, directly or through its imports: each
 * file keeps the set of files it sees, as a bitset, so that asking costs
 * nothing however the imports are shaped.
 *
 * Sources are untrusted: only regular files are read (a folder, a device
 * or a FIFO named as an import is an error, never a hang), each at most
 * BYOCC_MAX_FILE_SIZE bytes, and imports nest at most
 * BYOCC_MAX_IMPORT_DEPTH files deep. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ast.h"
#include "die.h"

#define ERR(at, ...) diag_error(&c->diag, (at), __VA_ARGS__)

/* ---- the compilation ------------------------------------------------------ */

void compilation_init(compilation *c)
{
    memset(c, 0, sizeof *c);
    bx_arena_init(&c->arena);
    c->diag.out = stderr;
    bx_hash_init(&c->files);
    bx_hash_init(&c->ops);
    bx_hash_init(&c->devices);
    bx_hash_init(&c->targets);
    bx_hash_init(&c->externs);
    bx_hash_init(&c->lets);
    bx_hash_init(&c->preds);
    const char *env = getenv("BYOC_DATADIR");
    c->datadir = env && *env ? env : BYOC_PKGDATADIR;
}

void compilation_free(compilation *c)
{
    for (int i = 0; i < c->indexes.n; i++)
        bx_hash_free(c->indexes.v[i]);
    bx_hash_free(&c->files);
    bx_hash_free(&c->ops);
    bx_hash_free(&c->devices);
    bx_hash_free(&c->targets);
    bx_hash_free(&c->externs);
    bx_hash_free(&c->lets);
    bx_hash_free(&c->preds);
    bx_arena_free(&c->arena);
    memset(c, 0, sizeof *c);
}

/* ---- reading sources ------------------------------------------------------ */

char *read_source(compilation *c, const char *path, loc from, size_t *len)
{
    /* stat first, so that a device is never opened (opening some has
     * effects); fstat again on what was opened, which is what counts. */
    struct stat st;
    if (stat(path, &st) != 0) {
        ERR(from, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        ERR(from, "'%s' is not a regular file", path);
        return NULL;
    }
    /* O_NONBLOCK: a FIFO put in the file's place since does not block. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        ERR(from, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ERR(from, "'%s' is not a regular file", path);
        close(fd);
        return NULL;
    }
    /* st_size is a hint: files in /proc say 0 and have text.  Read to the
     * end, one byte past the limit at most. */
    size_t cap = st.st_size > 0 && st.st_size <= BYOCC_MAX_FILE_SIZE
                     ? (size_t)st.st_size + 1 : 4096;
    size_t n = 0;
    char *buf = malloc(cap + 1);
    if (!buf)
        bx_oom();
    const char *bad = NULL;
    int err = 0;
    if (st.st_size > BYOCC_MAX_FILE_SIZE)
        bad = "large";
    while (!bad) {
        if (n == cap) {
            cap = cap * 2 > (size_t)BYOCC_MAX_FILE_SIZE + 1 ? (size_t)BYOCC_MAX_FILE_SIZE + 1
                                                            : cap * 2;
            char *nb = realloc(buf, cap + 1);
            if (!nb) {
                free(buf);
                bx_oom();
            }
            buf = nb;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            err = errno;
            bad = "read";
        } else if (r == 0) {
            break;
        } else {
            n += (size_t)r;
            if (n > BYOCC_MAX_FILE_SIZE)
                bad = "large";
        }
    }
    close(fd);
    if (bad) {
        free(buf);
        if (*bad == 'l')
            ERR(from, "'%s' is too large (more than %d MiB)", path, BYOCC_MAX_FILE_SIZE >> 20);
        else
            ERR(from, "cannot read '%s': %s", path, strerror(err));
        return NULL;
    }
    char *src = bx_arena_strndup(&c->arena, buf, n);
    free(buf);
    *len = n;
    return src;
}

file_ast *parse_file(compilation *c, const char *path, const char *display)
{
    size_t n;
    char *src = read_source(c, path, (loc){NULL, 0, 0}, &n);
    return src ? parse_source(c, display, src, n) : NULL;
}

/* ---- loading ---------------------------------------------------------------- */

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
 * installed data folder.  Returns the first regular file's path, else NULL
 * with *odd set to the first path that is there but no regular file (a
 * folder, a device), if any. */
static const char *find_import(compilation *c, const file_ast *from, const char *name,
                               const char **odd)
{
    *odd = NULL;
    struct stat st;
#define TRY(p)                                                            \
    do {                                                                  \
        const char *p_ = (p);                                             \
        if (stat(p_, &st) == 0) {                                         \
            if (S_ISREG(st.st_mode))                                      \
                return p_;                                                \
            if (!*odd)                                                    \
                *odd = p_;                                                \
        }                                                                 \
    } while (0)
    if (name[0] == '/') {
        TRY(name);
        return NULL;
    }
    TRY(bx_arena_printf(&c->arena, "%s%s", dir_of(c, from->path), name));
    for (int i = 0; i < c->include_dirs.n; i++) {
        const char *d = c->include_dirs.v[i];
        size_t n = strlen(d);
        TRY(bx_arena_printf(&c->arena, "%s%s%s", d, n && d[n - 1] == '/' ? "" : "/", name));
    }
    if (c->datadir)
        TRY(bx_arena_printf(&c->arena, "%s/%s", c->datadir, name));
#undef TRY
    return NULL;
}

static file_ast *load(compilation *c, const char *path, vec *stack, loc from);

static void load_imports(compilation *c, file_ast *f, vec *stack)
{
    /* An import written again is loaded once (as "loaded", without
     * looking for it again). */
    bx_hash seen;
    bx_hash_init(&seen);
    for (int i = 0; i < f->decls.n && !diag_stopped(&c->diag); i++) {
        decl *d = f->decls.v[i];
        if (d->kind != D_IMPORT || bx_hash_get(&seen, d->name))
            continue;
        const char *odd;
        const char *p = find_import(c, f, d->name, &odd);
        if (!p) {
            if (odd)
                diag_error(&c->diag, d->name_at, "'%s' is not a regular file", odd);
            else if (strlen(d->name) < PATH_MAX)
                diag_error(&c->diag, d->name_at, "cannot find imported file '%s'", d->name);
            else  /* no file has such a name: say so briefly */
                diag_error(&c->diag, d->name_at, "cannot find imported file '%.60s...'", d->name);
            continue;
        }
        f->importing_at = d->name_at;
        file_ast *g = load(c, p, stack, d->name_at);
        if (g) {
            vec_push(&c->arena, &f->imports, g);
            bx_hash_put(&seen, d->name, g);
        }
    }
    bx_hash_free(&seen);
}

/* The loaded file f, from path: its names, its place in the compilation,
 * then its imports. */
static file_ast *adopt(compilation *c, file_ast *f, const char *path, const char *real,
                       vec *stack)
{
    f->module = module_name(c, path);
    const char *base = strrchr(path, '/');
    f->base = base ? base + 1 : path;
    if (real)
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

static file_ast *load(compilation *c, const char *path, vec *stack, loc from)
{
    if (stack->n >= BYOCC_MAX_IMPORT_DEPTH) {
        diag_error(&c->diag, from, "imports nested too deeply (more than %d files)",
                   BYOCC_MAX_IMPORT_DEPTH);
        return NULL;
    }
    char real[PATH_MAX];
    if (!realpath(path, real)) {
        diag_error(&c->diag, from, "cannot open '%s': %s", path, strerror(errno));
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
    size_t n;
    char *src = read_source(c, path, from, &n);
    if (!src)
        return NULL;
    f = parse_source(c, path, src, n);
    return adopt(c, f, path, real, stack);
}

/* Which files each file sees: itself and, through its imports, what they
 * see.  all_files lists every file after its imports. */
static void compute_reach(compilation *c)
{
    int n = c->all_files.n;
    size_t bytes = (size_t)n / 8 + 1;
    for (int i = 0; i < n; i++)
        ((file_ast *)c->all_files.v[i])->index = i;
    for (int i = 0; i < n; i++) {
        file_ast *f = c->all_files.v[i];
        f->reach = bx_arena_alloc(&c->arena, bytes);
        f->reach[i / 8] |= (unsigned char)(1u << (i % 8));
        for (int k = 0; k < f->imports.n; k++) {
            const file_ast *g = f->imports.v[k];
            if (g->reach)
                for (size_t b = 0; b < bytes; b++)
                    f->reach[b] |= g->reach[b];
        }
    }
}

static const char *kind_word(decl_kind k)
{
    switch (k) {
    case D_OP: return "op";
    case D_DEVICE: return "device";
    case D_TARGET: return "target";
    case D_EXTERN: return "extern predicate";
    case D_LET: return "let";
    case D_PRED: return "predicate";
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

bool visible_from(const file_ast *f, const decl *d)
{
    int i = d->file->index;
    if (!f->reach)
        return f == d->file;
    return (f->reach[i / 8] >> (i % 8)) & 1;
}

static int declare_all(compilation *c)
{
    compute_reach(c);
    for (int i = 0; i < c->all_files.n && !diag_stopped(&c->diag); i++) {
        file_ast *f = c->all_files.v[i];
        for (int j = 0; j < f->decls.n; j++) {
            decl *d = f->decls.v[j];
            switch (d->kind) {
            case D_OP: declare(c, &c->ops, d); break;
            case D_DEVICE:
            case D_TARGET: declare(c, &c->devices, d); break;
            case D_EXTERN: declare(c, &c->externs, d); break;
            case D_LET: declare(c, &c->lets, d); break;
            case D_PRED: declare(c, &c->preds, d); break;
            default: break;
            }
        }
    }
    return c->diag.errors ? -1 : 0;
}

int resolve(compilation *c, const char *path)
{
    vec stack = {0};
    c->main = load(c, path, &stack, (loc){NULL, 0, 0});
    if (!c->main)
        return -1;
    return declare_all(c);
}

int resolve_buffer(compilation *c, const char *display_name, const char *data, size_t len)
{
    if (len > BYOCC_MAX_FILE_SIZE) {
        loc none = {NULL, 0, 0};
        ERR(none, "'%s' is too large (more than %d MiB)", display_name,
            BYOCC_MAX_FILE_SIZE >> 20);
        return -1;
    }
    const char *display = bx_arena_strdup(&c->arena, display_name);
    char *src = bx_arena_strndup(&c->arena, data, len);
    vec stack = {0};
    /* Not keyed by a real path: the text is not the file of that name. */
    c->main = adopt(c, parse_source(c, display, src, len), display, NULL, &stack);
    return declare_all(c);
}
