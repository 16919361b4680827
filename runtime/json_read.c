/* Reading JSON (RFC 8259) into a tree of bx_json values.
 *
 * The one idea: the parser is a loop over an explicit stack of open
 * arrays and objects, not a recursion, so no input can deepen the C stack;
 * the stack has BX_JSON_MAX_DEPTH frames and nesting past it is an error.
 * Each value is made only after the parser has consumed at least one byte
 * of it, and a string's text is never longer than its source, so what is
 * allocated is bounded by a constant times the input's size.
 *
 * Strings are decoded to UTF-8 (escapes, \u surrogate pairs combined) and
 * their raw bytes checked to be UTF-8; numbers follow the RFC's grammar
 * exactly and are converted by strtod with the locale's decimal point put
 * in, so a program that set LC_NUMERIC reads the same text.  Columns count
 * bytes. */
#include "json_read.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "errfmt.h"
#include "file.h"

typedef struct jp {
    const char *p, *end;
    const char *name;
    int line;
    const char *line_start;
    bx_arena *a;
    byoc_error *err;
} jp;

static int col_at(const jp *j, const char *at)
{
    ptrdiff_t c = at - j->line_start + 1;
    return c > INT32_MAX ? INT32_MAX : (int)c;
}

/* Report at position `at` (on the current line) and return NULL. */
__attribute__((format(printf, 3, 4))) static void *fail(jp *j, const char *at,
                                                         const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    bx_error_set(j->err, j->name, j->line, col_at(j, at), "%s", msg);
    return NULL;
}

static void skip_ws(jp *j)
{
    while (j->p < j->end) {
        char c = *j->p;
        if (c == '\n') {
            j->line++;
            j->line_start = ++j->p;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            j->p++;
        } else {
            break;
        }
    }
}

/* What is at p, for messages: a printable character in quotes, else its
 * byte value, or "the end of the input". */
static const char *what_at(const jp *j, char *buf, size_t size)
{
    if (j->p >= j->end)
        return "the end of the input";
    unsigned char c = (unsigned char)*j->p;
    if (c >= 0x20 && c < 0x7f)
        snprintf(buf, size, "'%c'", c);
    else
        snprintf(buf, size, "byte 0x%02x", c);
    return buf;
}

static bx_json *new_value(jp *j, bx_json_kind k)
{
    bx_json *v = BX_NEW(j->a, bx_json);
    v->kind = k;
    v->line = j->line;
    v->col = col_at(j, j->p);
    return v;
}

/* ---- strings ---------------------------------------------------------------- */

static int hex4(const char *p, const char *end)
{
    if (end - p < 4)
        return -1;
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static size_t put_utf8(char *w, uint32_t cp)
{
    if (cp < 0x80) {
        w[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        w[0] = (char)(0xc0 | cp >> 6);
        w[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        w[0] = (char)(0xe0 | cp >> 12);
        w[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        w[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    w[0] = (char)(0xf0 | cp >> 18);
    w[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    w[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    w[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* The length of the UTF-8 sequence at p (1 to 4), 0 when it is not one:
 * no overlong forms, no surrogates, nothing past U+10FFFF. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
    unsigned c = p[0];
    size_t n;
    unsigned lo = 0x80, hi = 0xbf;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
    } else
        return 0;
    if ((size_t)(end - p) < n)
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xbf)
            return 0;
    return n;
}

/* A string at j->p (the opening quote): its decoded text into *out and
 * *outlen; 0, or -1 with the error set. */
static int parse_string(jp *j, const char **out, size_t *outlen)
{
    const char *start = j->p++;
    /* First the closing quote, so the buffer can be sized: the text is
     * never longer than its source. */
    const char *q = j->p;
    while (q < j->end && *q != '"') {
        if (*q == '\\' && q + 1 < j->end)
            q++;
        else if (*q == '\n')
            break;
        q++;
    }
    if (q < j->end && *q == '\n') {
        fail(j, q, "newline in a string (write it as \\n)");
        return -1;
    }
    if (q >= j->end) {
        fail(j, start, "unterminated string");
        return -1;
    }
    char *buf = bx_arena_alloc(j->a, (size_t)(q - j->p) + 1), *w = buf;
    while (j->p < q) {
        unsigned char c = (unsigned char)*j->p;
        if (c < 0x20) {
            fail(j, j->p, "control character 0x%02x in a string (write it as \\u%04x)", c, c);
            return -1;
        }
        if (c != '\\') {
            size_t n = utf8_len((const unsigned char *)j->p, (const unsigned char *)q);
            if (!n) {
                fail(j, j->p, "invalid UTF-8 in a string");
                return -1;
            }
            memcpy(w, j->p, n);
            w += n;
            j->p += n;
            continue;
        }
        const char *esc = j->p;
        char e = j->p[1];
        j->p += 2;
        switch (e) {
        case '"': *w++ = '"'; break;
        case '\\': *w++ = '\\'; break;
        case '/': *w++ = '/'; break;
        case 'b': *w++ = '\b'; break;
        case 'f': *w++ = '\f'; break;
        case 'n': *w++ = '\n'; break;
        case 'r': *w++ = '\r'; break;
        case 't': *w++ = '\t'; break;
        case 'u': {
            int u = hex4(j->p, q);
            if (u < 0) {
                fail(j, esc, "bad escape: \\u needs four hexadecimal digits");
                return -1;
            }
            j->p += 4;
            uint32_t cp = (uint32_t)u;
            if (u >= 0xdc00 && u <= 0xdfff) {
                fail(j, esc, "unpaired low surrogate \\u%04x", (unsigned)u);
                return -1;
            }
            if (u >= 0xd800 && u <= 0xdbff) {
                int lo = q - j->p >= 6 && j->p[0] == '\\' && j->p[1] == 'u'
                             ? hex4(j->p + 2, q) : -1;
                if (lo < 0xdc00 || lo > 0xdfff) {
                    fail(j, esc, "high surrogate \\u%04x not followed by a low one",
                         (unsigned)u);
                    return -1;
                }
                j->p += 6;
                cp = 0x10000 + (((uint32_t)u - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
            }
            w += put_utf8(w, cp);
            break;
        }
        default:
            if ((unsigned char)e >= 0x20 && (unsigned char)e < 0x7f)
                fail(j, esc, "bad escape '\\%c'", e);
            else
                fail(j, esc, "bad escape");
            return -1;
        }
    }
    j->p = q + 1;
    *w = 0;
    *out = buf;
    *outlen = (size_t)(w - buf);
    return 0;
}

/* ---- numbers ---------------------------------------------------------------- */

static size_t digits(const char *p, const char *end)
{
    const char *s = p;
    while (p < end && *p >= '0' && *p <= '9')
        p++;
    return (size_t)(p - s);
}

static int parse_number(jp *j, double *out)
{
    const char *s = j->p, *p = s;
    if (p < j->end && *p == '-')
        p++;
    size_t n = digits(p, j->end);
    if (!n) {
        fail(j, s, "bad number: expected a digit");
        return -1;
    }
    if (*p == '0' && n > 1) {
        fail(j, s, "bad number: no leading zeros");
        return -1;
    }
    p += n;
    if (p < j->end && *p == '.') {
        size_t f = digits(p + 1, j->end);
        if (!f) {
            fail(j, p + 1, "bad number: expected a digit after '.'");
            return -1;
        }
        p += 1 + f;
    }
    if (p < j->end && (*p == 'e' || *p == 'E')) {
        const char *e = p + 1;
        if (e < j->end && (*e == '+' || *e == '-'))
            e++;
        size_t x = digits(e, j->end);
        if (!x) {
            fail(j, e, "bad number: expected a digit in the exponent");
            return -1;
        }
        p = e + x;
    }
    size_t len = (size_t)(p - s);
    const char *dp = localeconv()->decimal_point;
    size_t dpl = strlen(dp);
    char small[128], *buf = small;
    if (len + dpl + 1 > sizeof small) {
        buf = malloc(len + dpl + 1);
        if (!buf)
            bx_oom();
    }
    char *w = buf;
    for (const char *c = s; c < p; c++) {
        if (*c == '.') {
            memcpy(w, dp, dpl);
            w += dpl;
        } else {
            *w++ = *c;
        }
    }
    *w = 0;
    double v = strtod(buf, NULL);
    if (buf != small)
        free(buf);
    if (isinf(v)) {
        fail(j, s, "number out of range");
        return -1;
    }
    *out = v;
    j->p = p;
    return 0;
}

/* ---- values --------------------------------------------------------------------- */

typedef struct frame {
    bx_json *v;
    bx_json *last;
} frame;

static bx_json *parse_scalar(jp *j)
{
    char buf[16];
    char c = j->p < j->end ? *j->p : 0;
    if (c == '"') {
        bx_json *v = new_value(j, BX_JSON_STRING);
        return parse_string(j, &v->str, &v->len) < 0 ? NULL : v;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        bx_json *v = new_value(j, BX_JSON_NUMBER);
        return parse_number(j, &v->num) < 0 ? NULL : v;
    }
    static const struct { const char *word; bx_json_kind kind; } lits[] = {
        {"true", BX_JSON_TRUE}, {"false", BX_JSON_FALSE}, {"null", BX_JSON_NULL}};
    for (size_t k = 0; k < sizeof lits / sizeof *lits; k++) {
        size_t n = strlen(lits[k].word);
        if ((size_t)(j->end - j->p) >= n && !memcmp(j->p, lits[k].word, n)) {
            const char *after = j->p + n;
            if (after < j->end && ((*after >= 'a' && *after <= 'z') ||
                                   (*after >= 'A' && *after <= 'Z') ||
                                   (*after >= '0' && *after <= '9')))
                break;
            bx_json *v = new_value(j, lits[k].kind);
            j->p = after;
            return v;
        }
    }
    return fail(j, j->p, "expected a value, found %s", what_at(j, buf, sizeof buf));
}

bx_json *bx_json_parse(bx_arena *a, const char *text, size_t len, const char *name,
                       byoc_error *err)
{
    jp j = {.p = text, .end = text + len, .name = name ? name : "<json>", .line = 1,
            .line_start = text, .a = a, .err = err};
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
        j.p += 3;
    frame stack[BX_JSON_MAX_DEPTH];
    int depth = 0;
    bx_json *root = NULL;
    char buf[16];
    for (;;) {
        /* A value is expected (after a member's name in an object). */
        skip_ws(&j);
        const char *key = NULL;
        size_t keylen = 0;
        if (depth && stack[depth - 1].v->kind == BX_JSON_OBJECT) {
            if (j.p >= j.end || *j.p != '"')
                return fail(&j, j.p, "expected a member name (a string), found %s",
                            what_at(&j, buf, sizeof buf));
            if (parse_string(&j, &key, &keylen) < 0)
                return NULL;
            skip_ws(&j);
            if (j.p >= j.end || *j.p != ':')
                return fail(&j, j.p, "expected ':' after the member name, found %s",
                            what_at(&j, buf, sizeof buf));
            j.p++;
            skip_ws(&j);
        }
        bx_json *v;
        bool open = j.p < j.end && (*j.p == '[' || *j.p == '{');
        if (open) {
            if (depth == BX_JSON_MAX_DEPTH)
                return fail(&j, j.p, "arrays and objects nest more than %d deep",
                            BX_JSON_MAX_DEPTH);
            v = new_value(&j, *j.p == '[' ? BX_JSON_ARRAY : BX_JSON_OBJECT);
            j.p++;
        } else if (!(v = parse_scalar(&j))) {
            return NULL;
        }
        v->key = key;
        v->keylen = keylen;
        if (depth == 0) {
            root = v;
        } else {
            frame *f = &stack[depth - 1];
            if (f->last)
                f->last->next = v;
            else
                f->v->first = v;
            f->last = v;
            f->v->n++;
        }
        if (open) {
            stack[depth++] = (frame){v, NULL};
            skip_ws(&j);
            char close = v->kind == BX_JSON_ARRAY ? ']' : '}';
            if (j.p >= j.end || *j.p != close)
                continue;           /* its first member */
            j.p++;
            depth--;
        }
        /* After a value: a comma, or closing what holds it. */
        for (;;) {
            skip_ws(&j);
            if (depth == 0) {
                if (j.p < j.end)
                    return fail(&j, j.p, "unexpected %s after the value",
                                what_at(&j, buf, sizeof buf));
                return root;
            }
            char close = stack[depth - 1].v->kind == BX_JSON_ARRAY ? ']' : '}';
            if (j.p < j.end && *j.p == ',') {
                j.p++;
                break;
            }
            if (j.p < j.end && *j.p == close) {
                j.p++;
                depth--;
                continue;
            }
            return fail(&j, j.p, "expected ',' or '%c', found %s", close,
                        what_at(&j, buf, sizeof buf));
        }
    }
}

bx_json *bx_json_read_file(bx_arena *a, const char *path, byoc_error *err)
{
    size_t size;
    char *data = bx_read_file(path, &size, err);
    if (!data)
        return NULL;
    bx_json *v = bx_json_parse(a, data, size, path, err);
    free(data);
    return v;
}

const bx_json *bx_json_get(const bx_json *o, const char *key)
{
    if (!o || o->kind != BX_JSON_OBJECT)
        return NULL;
    size_t n = strlen(key);
    const bx_json *found = NULL;
    for (const bx_json *m = o->first; m; m = m->next)
        if (m->keylen == n && !memcmp(m->key, key, n))
            found = m;
    return found;
}

const char *bx_json_kind_name(bx_json_kind k)
{
    switch (k) {
    case BX_JSON_NULL: return "null";
    case BX_JSON_FALSE: return "false";
    case BX_JSON_TRUE: return "true";
    case BX_JSON_NUMBER: return "number";
    case BX_JSON_STRING: return "string";
    case BX_JSON_ARRAY: return "array";
    case BX_JSON_OBJECT: return "object";
    }
    return "?";
}
