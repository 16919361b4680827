/* The measurement cache of byoc measure (cli/measure_cache.h).
 *
 * One idea: the file is a log.  Results are only ever appended, one whole
 * line per write(2) under flock(LOCK_EX), so a crash, a kill or Ctrl-C
 * loses at most the kernels that were running, and two byoc measure runs
 * sharing the file never interleave.  A key measured again (after
 * --retry-failed, or by a concurrent run) simply has a later line, and
 * the last line wins when the file is read.
 *
 * The format is CSV as cost tables write it (doc/cost-table.md), with six
 * fields: runner,device,target,signature,seconds,note. */
#define _POSIX_C_SOURCE 200809L
#include "measure_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner.h"

#define HEADER "runner,device,target,signature,seconds,note\n"
#define NFIELDS 6

struct mcache {
    char *path;
    int fd;
    mcache_entry *e;      /* sorted by key, then by line */
    size_t n;
    char **strings;       /* every field, owned */
    size_t nstrings;
};

/* Create the folders above path (mkdir -p of its dirname). */
static int make_parents(const char *path, char *err, size_t errsize)
{
    char *p = strdup(path);
    if (!p) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            snprintf(err, errsize, "cannot create the cache's folder '%s': %s", p,
                     strerror(errno));
            free(p);
            return -1;
        }
        *s = '/';
    }
    free(p);
    return 0;
}

static int lock(int fd, int how)
{
    while (flock(fd, how) != 0) {
        if (errno != EINTR)
            return -1;
    }
    return 0;
}

char *mcache_csv_field(const char *s, bool force)
{
    size_t n = strlen(s);
    /* Quoted wherever the reader would otherwise change it: commas and
     * quotes, and blanks at either end, which it strips. */
    bool quote = force || strpbrk(s, ",\"") || s[0] == '#' ||
                 (n && (strchr(" \t\r", s[0]) || strchr(" \t\r", s[n - 1])));
    size_t m = n + 3;
    for (const char *p = s; *p; p++)
        m += *p == '"';
    char *out = malloc(m), *w = out;
    if (!out)
        return NULL;
    if (quote)
        *w++ = '"';
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            *w++ = '"';
        *w++ = *p;
    }
    if (quote)
        *w++ = '"';
    *w = '\0';
    return out;
}

void mcache_format_seconds(char *buf, size_t size, double seconds)
{
    if (isinf(seconds))
        snprintf(buf, size, "inf");
    else
        snprintf(buf, size, "%.6g", seconds);
}

/* ---- reading -------------------------------------------------------------------- */

typedef struct reader {
    const char *path;
    const char *s;
    size_t len, i;
    int line, col;       /* of s[i] */
    char *err;
    size_t errsize;
} reader;

static void rd_error(reader *r, int line, int col, const char *msg, const char *arg)
{
    char m[512];
    snprintf(m, sizeof m, msg, arg);
    snprintf(r->err, r->errsize, "%s:%d:%d: error: %s", r->path, line, col, m);
}

/* One field from r->i; *end_line set at a line end.  Returns the field
 * (new string) or NULL (error reported, or out of memory). */
static char *rd_field(reader *r, bool *end_line, int *fcol)
{
    while (r->i < r->len && (r->s[r->i] == ' ' || r->s[r->i] == '\t'))
        r->i++, r->col++;
    *fcol = r->col;
    size_t cap = 32, n = 0;
    char *out = malloc(cap);
    if (!out) {
        snprintf(r->err, r->errsize, "out of memory");
        return NULL;
    }
#define PUT(ch)                                                                              \
    do {                                                                                     \
        if (n + 2 > cap) {                                                                   \
            char *t_ = cap < SIZE_MAX / 2 ? realloc(out, cap *= 2) : NULL;                   \
            if (!t_) {                                                                       \
                free(out);                                                                   \
                snprintf(r->err, r->errsize, "out of memory");                               \
                return NULL;                                                                 \
            }                                                                                \
            out = t_;                                                                        \
        }                                                                                    \
        out[n++] = (ch);                                                                     \
    } while (0)
    if (r->i < r->len && r->s[r->i] == '"') {
        int qline = r->line, qcol = r->col;
        r->i++, r->col++;
        for (;;) {
            if (r->i >= r->len || r->s[r->i] == '\n') {
                free(out);
                rd_error(r, qline, qcol, "unterminated quoted field%s", "");
                return NULL;
            }
            char ch = r->s[r->i++];
            r->col++;
            if (ch == '"') {
                if (r->i < r->len && r->s[r->i] == '"') {
                    r->i++, r->col++;
                    PUT('"');
                    continue;
                }
                break;
            }
            PUT(ch);
        }
        while (r->i < r->len && (r->s[r->i] == ' ' || r->s[r->i] == '\t' || r->s[r->i] == '\r'))
            r->i++, r->col++;
        if (r->i < r->len && r->s[r->i] != ',' && r->s[r->i] != '\n') {
            free(out);
            rd_error(r, r->line, r->col, "unexpected text after a quoted field%s", "");
            return NULL;
        }
    } else {
        while (r->i < r->len && r->s[r->i] != ',' && r->s[r->i] != '\n') {
            PUT(r->s[r->i]);
            r->i++, r->col++;
        }
        while (n && (out[n - 1] == ' ' || out[n - 1] == '\t' || out[n - 1] == '\r'))
            n--;
    }
#undef PUT
    out[n] = '\0';
    *end_line = r->i >= r->len || r->s[r->i] == '\n';
    if (r->i < r->len) {
        if (r->s[r->i] == '\n') {
            r->line++;
            r->col = 1;
        } else {
            r->col++;
        }
        r->i++;
    }
    return out;
}

static int cmp_key(const mcache_entry *x, const mcache_entry *y)
{
    int c;
    if ((c = strcmp(x->runner, y->runner)) || (c = strcmp(x->device, y->device)) ||
        (c = strcmp(x->target, y->target)))
        return c;
    return strcmp(x->signature, y->signature);
}

static int parse(mcache *c, const char *text, size_t len, char *err, size_t errsize)
{
    /* At most one entry per line, six strings each. */
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    c->e = calloc(lines, sizeof *c->e);
    c->strings = calloc(lines * NFIELDS, sizeof *c->strings);
    if (!c->e || !c->strings) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    reader r = {.path = c->path, .s = text, .len = len, .line = 1, .col = 1, .err = err,
                .errsize = errsize};
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
        r.i = 3;
    bool complete = len == 0 || text[len - 1] == '\n';
    while (r.i < r.len) {
        size_t start = r.i;
        int line = r.line;
        size_t eol = start;
        while (eol < len && text[eol] != '\n')
            eol++;
        size_t k = start;
        while (k < eol && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r'))
            k++;
        if (k == eol || text[k] == '#' ||
            (line == 1 && !strncmp(text + k, "runner,", 7))) {
            r.i = eol < len ? eol + 1 : eol;
            r.line++;
            r.col = 1;
            continue;
        }
        /* A last line without its newline is a write that was cut short. */
        bool last_cut = !complete && eol == len;
        char *f[NFIELDS] = {0};
        int fcol[NFIELDS + 1];
        int nf = 0;
        bool end = false, bad = false;
        while (!end) {
            int col;
            char *v = rd_field(&r, &end, &col);
            if (!v) {
                bad = true;
                break;
            }
            if (nf < NFIELDS) {
                fcol[nf] = col;
                f[nf++] = v;
            } else {
                free(v);
                nf++;
            }
        }
        if (!bad && nf != NFIELDS) {
            char found[24];
            snprintf(found, sizeof found, "%d", nf);
            rd_error(&r, line, 1, "expected 6 fields (runner,device,target,signature,seconds,"
                                  "note), found %s", found);
            bad = true;
        }
        double secs = 0;
        if (!bad && runner_parse_seconds(f[4], &secs) != 0) {
            rd_error(&r, line, fcol[4], "bad time '%s' (expected seconds, a non-negative "
                                        "decimal or inf)", f[4]);
            bad = true;
        }
        if (!bad && (!f[0][0] || !f[2][0] || !f[3][0])) {
            rd_error(&r, line, !f[0][0] ? fcol[0] : !f[2][0] ? fcol[2] : fcol[3],
                     "empty runner, target or signature%s", "");
            bad = true;
        }
        if (bad) {
            for (int i = 0; i < NFIELDS; i++)
                free(f[i]);
            if (last_cut && strncmp(err, "out of memory", 13) != 0) {
                err[0] = '\0';   /* dropped: it is measured again */
                break;
            }
            return -1;
        }
        for (int i = 0; i < NFIELDS; i++)
            c->strings[c->nstrings++] = f[i];
        c->e[c->n++] = (mcache_entry){.runner = f[0], .device = f[1], .target = f[2],
                                      .signature = f[3], .seconds = secs, .note = f[5]};
    }
    return 0;
}

/* Sorting keeps, among equal keys, the file's order: entries carry their
 * index through a parallel array. */
typedef struct keyed {
    mcache_entry e;
    size_t index;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = cmp_key(&x->e, &y->e);
    if (c)
        return c;
    return (x->index > y->index) - (x->index < y->index);
}

static int sort_entries(mcache *c)
{
    keyed *k = calloc(c->n ? c->n : 1, sizeof *k);
    if (!k)
        return -1;
    for (size_t i = 0; i < c->n; i++)
        k[i] = (keyed){c->e[i], i};
    qsort(k, c->n, sizeof *k, cmp_keyed);
    for (size_t i = 0; i < c->n; i++)
        c->e[i] = k[i].e;
    free(k);
    return 0;
}

mcache *mcache_open(const char *path, char *err, size_t errsize)
{
    mcache *c = calloc(1, sizeof *c);
    if (!c || !(c->path = strdup(path))) {
        free(c);
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    c->fd = -1;
    if (make_parents(path, err, errsize) != 0)
        goto fail;
    c->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    if (c->fd < 0) {
        snprintf(err, errsize, "cannot open the cache '%s': %s", path, strerror(errno));
        goto fail;
    }
    if (lock(c->fd, LOCK_SH) != 0) {
        snprintf(err, errsize, "cannot lock the cache '%s': %s", path, strerror(errno));
        goto fail;
    }
    struct stat st;
    char *text = NULL;
    size_t len = 0;
    if (fstat(c->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errsize, "the cache '%s' is not a regular file", path);
        lock(c->fd, LOCK_UN);
        goto fail;
    }
    if ((uintmax_t)st.st_size >= SIZE_MAX || !(text = malloc((size_t)st.st_size + 1))) {
        snprintf(err, errsize, "out of memory reading the cache '%s'", path);
        lock(c->fd, LOCK_UN);
        goto fail;
    }
    while (len < (size_t)st.st_size) {
        ssize_t n = pread(c->fd, text + len, (size_t)st.st_size - len, (off_t)len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    lock(c->fd, LOCK_UN);
    text[len] = '\0';
    err[0] = '\0';
    int rc = parse(c, text, len, err, errsize);
    free(text);
    if (rc != 0 || sort_entries(c) != 0) {
        if (!err[0])
            snprintf(err, errsize, "out of memory");
        goto fail;
    }
    return c;
fail:
    mcache_close(c);
    return NULL;
}

void mcache_close(mcache *c)
{
    if (!c)
        return;
    if (c->fd >= 0)
        close(c->fd);
    for (size_t i = 0; i < c->nstrings; i++)
        free(c->strings[i]);
    free(c->strings);
    free(c->e);
    free(c->path);
    free(c);
}

size_t mcache_size(const mcache *c) { return c->n; }
const char *mcache_path(const mcache *c) { return c->path; }

const mcache_entry *mcache_find(const mcache *c, const char *runner, const char *device,
                                const char *target, const char *signature)
{
    mcache_entry key = {.runner = runner, .device = device ? device : "", .target = target,
                        .signature = signature};
    size_t lo = 0, hi = c->n;
    /* the last entry <= key, then check it is equal */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_key(&c->e[mid], &key) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const mcache_entry *e = &c->e[lo - 1];
    return cmp_key(e, &key) ? NULL : e;
}

/* ---- appending -------------------------------------------------------------------------- */

/* Is text[0..len) (a last line without its newline) a whole entry? */
static bool whole_entry(const char *path, const char *text, size_t len)
{
    char *line = malloc(len + 2);
    if (!line)
        return false;
    memcpy(line, text, len);
    line[len] = '\n';
    line[len + 1] = '\0';
    mcache t = {.path = (char *)path, .fd = -1};
    char err[256] = "";
    bool whole = parse(&t, line, len + 1, err, sizeof err) == 0 && t.n == 1;
    for (size_t i = 0; i < t.nstrings; i++)
        free(t.strings[i]);
    free(t.strings);
    free(t.e);
    free(line);
    return whole;
}

/* After the file's last newline: a line a killed writer cut short is
 * dropped (truncated away); a whole entry someone wrote without its
 * newline gets one.  Returns the file's size then (-1 when it cannot be
 * read or written). */
static off_t drop_cut_line(int fd, const char *path)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return -1;
    off_t end = st.st_size, keep = 0;
    char buf[4096];
    bool found = false;
    while (end > 0 && !found) {
        off_t from = end > (off_t)sizeof buf ? end - (off_t)sizeof buf : 0;
        ssize_t n = pread(fd, buf, (size_t)(end - from), from);
        if (n != end - from)
            return -1;
        for (ssize_t i = n; i > 0 && !found; i--)
            if (buf[i - 1] == '\n') {
                keep = from + i;
                found = true;
            }
        end = from;
    }
    if (keep == st.st_size)
        return keep;
    /* A tail of one line, read whole when it is of a sane size. */
    off_t tail = st.st_size - keep;
    if (tail <= (off_t)1 << 20) {
        char *t = malloc((size_t)tail);
        if (t && pread(fd, t, (size_t)tail, keep) == (ssize_t)tail &&
            whole_entry(path, t, (size_t)tail)) {
            free(t);
            if (pwrite(fd, "\n", 1, st.st_size) != 1)
                return -1;
            return st.st_size + 1;
        }
        free(t);
    }
    if (ftruncate(fd, keep) != 0)
        return -1;
    return keep;
}

int mcache_append(mcache *c, const char *runner, const char *device, const char *target,
                  const char *signature, double seconds, const char *note, char *err,
                  size_t errsize)
{
    char secs[32];
    mcache_format_seconds(secs, sizeof secs, seconds);
    char *f[6] = {mcache_csv_field(runner, false), mcache_csv_field(device ? device : "", false),
                  mcache_csv_field(target, false), mcache_csv_field(signature, true),
                  mcache_csv_field(secs, false), mcache_csv_field(note ? note : "", false)};
    size_t n = 2;
    bool ok = true;
    for (int i = 0; i < 6; i++) {
        ok &= f[i] != NULL;
        n += f[i] ? strlen(f[i]) + 1 : 0;
    }
    char *line = ok ? malloc(n + 1) : NULL;
    if (!line) {
        for (int i = 0; i < 6; i++)
            free(f[i]);
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    snprintf(line, n + 1, "%s,%s,%s,%s,%s,%s\n", f[0], f[1], f[2], f[3], f[4], f[5]);
    for (int i = 0; i < 6; i++)
        free(f[i]);
    int rc = -1;
    if (lock(c->fd, LOCK_EX) != 0) {
        snprintf(err, errsize, "cannot lock the cache '%s': %s", c->path, strerror(errno));
        free(line);
        return -1;
    }
    /* A new file gets the header.  Every writer ends its line with a
     * newline while it holds the lock, so a file that does not end in one
     * now holds a line cut short by a writer that died: it goes. */
    const char *pre = "";
    off_t size = drop_cut_line(c->fd, c->path);
    if (size == 0)
        pre = HEADER;
    size_t plen = strlen(pre), llen = strlen(line);
    char *all = malloc(plen + llen + 1);
    if (all) {
        memcpy(all, pre, plen);
        memcpy(all + plen, line, llen + 1);
        size_t off = 0, total = plen + llen;
        while (off < total) {
            ssize_t w = write(c->fd, all + off, total - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                break;
            off += (size_t)w;
        }
        if (off == total)
            rc = 0;
        else
            snprintf(err, errsize, "cannot write the cache '%s': %s", c->path,
                     strerror(errno));
        free(all);
    } else {
        snprintf(err, errsize, "out of memory");
    }
    lock(c->fd, LOCK_UN);
    free(line);
    return rc;
}
