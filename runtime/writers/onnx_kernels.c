/* Kernels as ONNX: every distinct (target, signature) kernel that
 * byoc_write_kernels lists, each as a standalone ONNX model in one folder,
 * plus kernels.json, for a harness to time (doc/cost-table.md, "The
 * measurement loop").
 *
 * The kernels are the partitioner's own enumeration
 * (bx_session_each_kernel), and each is written by the split writer as
 * the one partition of a placement of two parts, the kernel and
 * everything else (bx_kernel_writer, onnx_split.c): the model is read and
 * unpacked once, each kernel's model built in an arena of its own,
 * written and freed before the next, so memory does not grow with the
 * number of kernels beyond the list returned.
 *
 * The one idea needed here: a kernel must run on its own, so a constant
 * the model holds no data for (the shared models are graphs only; a Relay
 * text carries no weights) gets pseudo-random data of its type and shape,
 * a function of the seed and the tensor's name alone (bx_random_tensor),
 * so that every kernel reading a tensor reads the same numbers, and a big
 * tensor is stored once, in kernels.data, however many kernels read it.
 * Values an op needs as they are (a Reshape's shape) are never made up:
 * they come from the model or the graph, or the kernel is listed unwritten
 * with the reason. */
#define _XOPEN_SOURCE 700
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <byoc/lower.h>
#include <byoc/partition.h>

#include "arena.h"
#include "die.h"
#include "errfmt.h"
#include "file.h"
#include "graph_impl.h"
#include "hash.h"
#include "partition_impl.h"
#include "strbuf.h"
#include "writers/onnx_split.h"
#include "writers/writers.h"
#ifdef HAVE_ONNX
#include "writers/onnx_build.h"
#endif

/* ---- random data ---------------------------------------------------------------- */

#ifdef HAVE_ONNX

/* Tensors below this many bytes are written inline. */
#define INLINE_MAX 1024
/* The most random data made for one tensor, 4 GiB, and in all, 64 GiB
 * (a graph-only model of tens of billions of weights). */
#define RANDOM_TENSOR_MAX ((uint64_t)4 << 30)
#define RANDOM_TOTAL_MAX ((uint64_t)64 << 30)
/* Offsets in kernels.data are multiples of this. */
#define DATA_ALIGN 64

struct bx_random_data {
    char *dir, *path;
    uint64_t seed;
    FILE *f;                    /* kernels.data, opened on first use */
    uint64_t size;
    bool failed;
    int failed_errno;
    bx_hash stored;             /* "dtype:dims:key" -> its place in the file */
    bx_arena a;
};

typedef struct stored {
    uint64_t offset, length;
} stored;

static char *xstrdup(const char *s)
{
    char *c = malloc(strlen(s) + 1);
    if (!c)
        bx_oom();
    return strcpy(c, s);
}

bx_random_data *bx_random_data_create(const char *dir, uint64_t seed)
{
    bx_random_data *d = calloc(1, sizeof *d);
    if (!d)
        bx_oom();
    d->dir = xstrdup(dir);
    d->seed = seed;
    bx_hash_init(&d->stored);
    bx_arena_init(&d->a);
    return d;
}

/* splitmix64: small, fast, and the same numbers everywhere. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static size_t elem_bytes(byoc_dtype dt)
{
    int bits = byoc_dtype_bits(dt);
    return bits <= 8 ? 1 : (size_t)bits / 8;
}

static void put_le(uint8_t *p, uint64_t v, size_t n)
{
    for (size_t k = 0; k < n; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

/* n elements of dt into buf (little-endian, as ONNX stores raw data). */
static void fill(uint64_t *s, byoc_dtype dt, uint8_t *buf, size_t n)
{
    size_t eb = elem_bytes(dt);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = next(s);
        uint64_t v;
        switch (dt) {
        case BYOC_DT_FLOAT32:
        case BYOC_DT_BFLOAT16: {
            /* Multiples of 2^-23 in [-1, 1), exact in float32. */
            float f = (float)((double)(r >> 40) / 8388608.0 - 1.0);
            uint32_t u;
            memcpy(&u, &f, sizeof u);
            v = dt == BYOC_DT_FLOAT32 ? u : u >> 16;
            break;
        }
        case BYOC_DT_FLOAT16: {
            /* Multiples of 2^-10 in [-1, 1), exact in half precision:
             * its bits from float32's, rebiased. */
            float f = (float)((double)(r >> 53) / 1024.0 - 1.0);
            uint32_t u;
            memcpy(&u, &f, sizeof u);
            uint32_t e = (u >> 23) & 0xff;
            v = f == 0 ? 0 : ((u >> 16) & 0x8000) | ((e - 112) << 10) | ((u >> 13) & 0x3ff);
            break;
        }
        case BYOC_DT_FLOAT64: {
            double f = (double)(r >> 11) / 4503599627370496.0 - 1.0;
            memcpy(&v, &f, sizeof v);
            break;
        }
        default:
            v = r >> 63;        /* integers and bools: 0 or 1 */
            break;
        }
        put_le(buf + i * eb, v, eb);
    }
}

static uint64_t seed_of(const bx_random_data *d, const char *key)
{
    uint64_t s = d->seed ^ bx_hash_str(key);
    next(&s);
    return s;
}

static Onnx__StringStringEntryProto *entry(bx_arena *a, const char *key, const char *value)
{
    Onnx__StringStringEntryProto *e = BX_NEW(a, Onnx__StringStringEntryProto);
    onnx__string_string_entry_proto__init(e);
    e->key = (char *)key;
    e->value = bx_arena_strdup(a, value);
    return e;
}

/* Append n elements from seed s to kernels.data; false on a write error. */
static bool append(bx_random_data *d, uint64_t s, byoc_dtype dt, uint64_t n, uint64_t *offset)
{
    if (!d->f) {
        d->path = malloc(strlen(d->dir) + sizeof BX_RANDOM_DATA_FILE + 2);
        if (!d->path)
            bx_oom();
        sprintf(d->path, "%s/%s", d->dir, BX_RANDOM_DATA_FILE);
        int fd = open(d->path, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 || !(d->f = fdopen(fd, "wb"))) {
            d->failed_errno = errno;
            if (fd >= 0)
                close(fd);
            free(d->path);
            d->path = NULL;
            return false;
        }
    }
    static const uint8_t zeros[DATA_ALIGN];
    size_t pad = (size_t)((DATA_ALIGN - d->size % DATA_ALIGN) % DATA_ALIGN);
    if (pad && fwrite(zeros, 1, pad, d->f) != pad)
        return false;
    d->size += pad;
    *offset = d->size;
    size_t eb = elem_bytes(dt);
    enum { CHUNK = 16384 };
    uint8_t *buf = malloc(CHUNK * 8);
    if (!buf)
        bx_oom();
    bool ok = true;
    for (uint64_t done = 0; done < n && ok;) {
        size_t k = n - done < CHUNK ? (size_t)(n - done) : CHUNK;
        fill(&s, dt, buf, k);
        ok = fwrite(buf, eb, k, d->f) == k;
        done += k;
    }
    free(buf);
    if (ok)
        d->size += n * eb;
    else
        d->failed_errno = errno;
    return ok;
}

Onnx__TensorProto *bx_random_tensor(bx_random_data *d, bx_arena *a, const char *key,
                                    const char *name, byoc_dtype dt, const int64_t *dims,
                                    int rank, byoc_error *err)
{
    int et = bx_onnx_elem_type(dt);
    if (!et || dt == BYOC_DT_VOID) {
        bx_error_set(err, NULL, 0, 0, "tensor '%s': no random data of type %s can be written",
                     name ? name : "", byoc_dtype_name(dt));
        return NULL;
    }
    size_t eb = elem_bytes(dt);
    uint64_t n = 1;
    bx_strbuf id = {0};
    bx_sb_printf(&id, "%d:", (int)dt);
    for (int k = 0; k < rank; k++) {
        if (dims[k] < 0 || (dims[k] > 0 && n > ((uint64_t)1 << 62) / eb / (uint64_t)dims[k])) {
            bx_sb_free(&id);
            bx_error_set(err, NULL, 0, 0, "tensor '%s' is too big for random data",
                         name ? name : "");
            return NULL;
        }
        n *= (uint64_t)dims[k];
        bx_sb_printf(&id, "%lld,", (long long)dims[k]);
    }
    bx_sb_printf(&id, ":%s", key ? key : "");
    /* A graph-only model declares its weights' shapes: a hostile one could
     * ask for terabytes of random data.  A real model's largest tensor (an
     * LLM's embedding table) stays well under the cap (doc/limits.md). */
    if (n * eb > RANDOM_TENSOR_MAX) {
        bx_sb_free(&id);
        bx_error_set(err, NULL, 0, 0,
                     "tensor '%s' would need %llu bytes of random data; byoc makes at most "
                     "%llu for one tensor",
                     name ? name : "", (unsigned long long)(n * eb),
                     (unsigned long long)RANDOM_TENSOR_MAX);
        return NULL;
    }
    Onnx__TensorProto *t = BX_NEW(a, Onnx__TensorProto);
    onnx__tensor_proto__init(t);
    t->name = bx_arena_strdup(a, name ? name : "");
    t->has_data_type = 1;
    t->data_type = et;
    t->n_dims = (size_t)rank;
    t->dims = BX_NEWN(a, int64_t, rank + 1);
    for (int k = 0; k < rank; k++)
        t->dims[k] = dims[k];
    uint64_t s = seed_of(d, bx_sb_str(&id));
    if (n * eb < INLINE_MAX) {
        t->has_raw_data = 1;
        t->raw_data.len = (size_t)(n * eb);
        t->raw_data.data = bx_arena_alloc(a, t->raw_data.len + 1);
        fill(&s, dt, t->raw_data.data, (size_t)n);
        bx_sb_free(&id);
        return t;
    }
    stored *st = bx_hash_get(&d->stored, bx_sb_str(&id));
    if (!st && d->size + n * eb > RANDOM_TOTAL_MAX) {
        bx_sb_free(&id);
        bx_error_set(err, NULL, 0, 0,
                     "tensor '%s': the random data of the kernels would pass %llu bytes, the "
                     "most byoc makes in all", name ? name : "",
                     (unsigned long long)RANDOM_TOTAL_MAX);
        return NULL;
    }
    if (!st) {
        st = BX_NEW(&d->a, stored);
        if (d->failed || !append(d, s, dt, n, &st->offset)) {
            d->failed = true;
            bx_error_set(err, NULL, 0, 0, "writing '%s/%s': %s", d->dir, BX_RANDOM_DATA_FILE,
                         strerror(d->failed_errno ? d->failed_errno : EIO));
            bx_sb_free(&id);
            return NULL;
        }
        st->length = n * eb;
        bx_hash_put(&d->stored, bx_arena_strdup(&d->a, bx_sb_str(&id)), st);
    }
    bx_sb_free(&id);
    char num[32];
    t->has_data_location = 1;
    t->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    t->n_external_data = 3;
    t->external_data = BX_NEWN(a, Onnx__StringStringEntryProto *, 3);
    t->external_data[0] = entry(a, "location", BX_RANDOM_DATA_FILE);
    snprintf(num, sizeof num, "%llu", (unsigned long long)st->offset);
    t->external_data[1] = entry(a, "offset", num);
    snprintf(num, sizeof num, "%llu", (unsigned long long)st->length);
    t->external_data[2] = entry(a, "length", num);
    return t;
}

int bx_random_data_finish(bx_random_data *d, byoc_error *err)
{
    if (!d->f)
        return d->failed ? -1 : 0;
    int bad = fclose(d->f) != 0;
    d->f = NULL;
    if (bad || d->failed) {
        bx_error_set(err, NULL, 0, 0, "writing '%s': %s", d->path,
                     strerror(d->failed_errno ? d->failed_errno : EIO));
        d->failed = true;
        return -1;
    }
    return 0;
}

void bx_random_data_destroy(bx_random_data *d, bool remove)
{
    if (d->f)
        fclose(d->f);
    if (remove && d->path)
        unlink(d->path);
    free(d->path);
    free(d->dir);
    bx_hash_free(&d->stored);
    bx_arena_free(&d->a);
    free(d);
}

#endif /* HAVE_ONNX */

/* ---- the list ------------------------------------------------------------------- */

struct byoc_kernel_files {
    bx_arena a;                 /* everything the entries point to */
    byoc_kernel_file *v;
    bx_kernel_input **in;       /* per entry: its model's inputs */
    int *nin;
    size_t n, cap;
};

size_t byoc_kernel_files_count(const byoc_kernel_files *k) { return k ? k->n : 0; }

const byoc_kernel_file *byoc_kernel_files_at(const byoc_kernel_files *k, size_t i)
{
    return k && i < k->n ? &k->v[i] : NULL;
}

void byoc_kernel_files_destroy(byoc_kernel_files *k)
{
    if (!k)
        return;
    free(k->v);
    free(k->in);
    free(k->nin);
    bx_arena_free(&k->a);
    free(k);
}

static size_t push(byoc_kernel_files *k)
{
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 64;
        byoc_kernel_file *v = realloc(k->v, sizeof *v * cap);
        if (v)
            k->v = v;
        bx_kernel_input **in = v ? realloc(k->in, sizeof *in * cap) : NULL;
        if (in)
            k->in = in;
        int *nin = in ? realloc(k->nin, sizeof *nin * cap) : NULL;
        if (!nin)
            bx_oom();
        k->nin = nin;
        k->cap = cap;
    }
    memset(&k->v[k->n], 0, sizeof k->v[k->n]);
    k->in[k->n] = NULL;
    k->nin[k->n] = 0;
    return k->n++;
}

/* ---- writing ---------------------------------------------------------------------- */

/* What the walk and, after running out of memory, the clean-up see. */
typedef struct kstate {
    const byoc_graph *g;
    const byoc_kernel_write_options *wo;
    bx_kernel_writer *kw;
    byoc_kernel_files *out;
    const char *tmp;            /* the folder being written (in out->a) */
    bool made_dir, wrote_json;
    byoc_error *err;
} kstate;

static const char *file_name(bx_arena *a, size_t i, const char *target)
{
    char *s = bx_arena_printf(a, "k%zu_%s.onnx", i, target);
    for (char *c = strchr(s, '_') + 1; *c && strcmp(c, ".onnx") != 0; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '-'))
            *c = '_';
    return s;
}

static int visit(const bx_session *s, size_t ci, void *ctx)
{
    kstate *st = ctx;
    byoc_kernel_files *k = st->out;
    const bx_cand *c = &s->cands.cands[ci];
    const byoc_target_decl *t = s->targets[c->target];
    const bx_estimate *e = &s->costs[ci];
    if (st->wo->want && !st->wo->want(t->name, e->signature, st->wo->ctx))
        return 0;
    size_t i = push(k);
    byoc_kernel_file *f = &k->v[i];
    const byoc_device_decl *d = byoc_target_device(s->reg, t);
    const char *rt = byoc_target_runtime(s->reg, t);
    f->target = bx_arena_strdup(&k->a, t->name);
    f->device = d ? bx_arena_strdup(&k->a, d->name) : NULL;
    f->runtime = rt ? bx_arena_strdup(&k->a, rt) : NULL;
    f->signature = bx_arena_strdup(&k->a, e->signature);
    f->estimate = e->seconds;
    f->source = e->source;
    const char **ops = BX_NEWN(&k->a, const char *, c->nnodes + 1);
    for (int j = 0; j < c->nnodes; j++)
        if (byoc_node_kind_of(s->graph, c->nodes[j]) == BYOC_N_CALL)
            ops[f->nops++] = bx_arena_strdup(&k->a, byoc_node_op_name(s->graph, c->nodes[j]));
    f->ops = ops;
    const char *file = file_name(&k->a, i, t->name);
    const char *gname = bx_arena_printf(&k->a, "kernel_%zu_%s", i, t->name);
    byoc_error why;
    int rc = bx_kernel_writer_write(st->kw, c->nodes, c->nnodes, t, file, gname, &k->a,
                                    &k->in[i], &k->nin[i], &why);
    if (rc < 0) {
        *st->err = why;
        return -1;
    }
    if (rc == 0) {
        f->file = file;
        /* The names live as long as the writer; the list outlives it. */
        for (int j = 0; j < k->nin[i]; j++)
            k->in[i][j].name = bx_arena_strdup(&k->a, k->in[i][j].name);
        return 0;
    }
    char buf[sizeof why.file + sizeof why.msg + 64];
    if (why.file[0] && why.line > 0)
        snprintf(buf, sizeof buf, "%s:%d:%d: %s", why.file, why.line, why.col, why.msg);
    else
        snprintf(buf, sizeof buf, "%s", why.msg);
    f->why = bx_arena_strdup(&k->a, buf);
    return 0;
}

static void json_num(bx_strbuf *b, double v)
{
    if (isfinite(v))
        bx_sb_printf(b, "%.6g", v);
    else
        bx_sb_printf(b, "null");
}

static void json_inputs(bx_strbuf *b, const byoc_graph *g, const bx_kernel_input *in, int n)
{
    bx_sb_printf(b, "[");
    for (int i = 0; i < n; i++) {
        const byoc_tensor_type *t = in[i].type;
        bx_sb_printf(b, "%s{\"name\": ", i ? ", " : "");
        bx_json_str(b, in[i].name);
        bx_sb_printf(b, ", \"dtype\": ");
        if (!t || t->dtype == BYOC_DT_VOID)
            bx_sb_printf(b, "null");
        else
            bx_json_str(b, byoc_dtype_name(t->dtype));
        bx_sb_printf(b, ", \"shape\": ");
        if (!t || t->rank < 0) {
            bx_sb_printf(b, "null}");
            continue;
        }
        bx_sb_printf(b, "[");
        for (int d = 0; d < t->rank; d++) {
            if (d)
                bx_sb_printf(b, ", ");
            if (t->dims[d] >= 0)
                bx_sb_printf(b, "%lld", (long long)t->dims[d]);
            else if (t->dims[d] <= -2)
                bx_json_str(b, byoc_graph_symbol_name(g, (int)(-2 - t->dims[d])));
            else
                bx_sb_printf(b, "null");
        }
        bx_sb_printf(b, "]}");
    }
    bx_sb_printf(b, "]");
}

static int write_json(kstate *st, const char *model)
{
    const byoc_kernel_files *k = st->out;
    bx_strbuf b = {0};
    bx_sb_printf(&b, "{\n  \"format\": \"byoc-kernels\",\n  \"version\": 1,\n  \"model\": ");
    bx_json_str(&b, model);
    bx_sb_printf(&b, ",\n  \"model_format\": \"%s\",\n  \"seed\": %llu,\n  \"kernels\": [",
                 st->g->onnx ? "onnx" : "relay", (unsigned long long)st->wo->seed);
    for (size_t i = 0; i < k->n; i++) {
        const byoc_kernel_file *f = &k->v[i];
        bx_sb_printf(&b, "%s\n    {\"file\": ", i ? "," : "");
        if (f->file)
            bx_json_str(&b, f->file);
        else {
            bx_sb_printf(&b, "null, \"why\": ");
            bx_json_str(&b, f->why);
        }
        bx_sb_printf(&b, ", \"target\": ");
        bx_json_str(&b, f->target);
        bx_sb_printf(&b, ", \"device\": ");
        if (f->device)
            bx_json_str(&b, f->device);
        else
            bx_sb_printf(&b, "null");
        bx_sb_printf(&b, ", \"runtime\": ");
        if (f->runtime)
            bx_json_str(&b, f->runtime);
        else
            bx_sb_printf(&b, "null");
        bx_sb_printf(&b, ",\n     \"signature\": ");
        bx_json_str(&b, f->signature);
        bx_sb_printf(&b, ",\n     \"ops\": [");
        for (int j = 0; j < f->nops; j++) {
            if (j)
                bx_sb_printf(&b, ", ");
            bx_json_str(&b, f->ops[j]);
        }
        bx_sb_printf(&b, "],\n     \"inputs\": ");
        if (f->file)
            json_inputs(&b, st->g, k->in[i], k->nin[i]);
        else
            bx_sb_printf(&b, "null");
        bx_sb_printf(&b, ",\n     \"estimate\": ");
        json_num(&b, f->estimate);
        bx_sb_printf(&b, ", \"source\": \"%s\"}", byoc_cost_source_name(f->source));
    }
    bx_sb_printf(&b, "\n  ]\n}\n");
    const char *path = bx_arena_printf(&st->out->a, "%s/kernels.json", st->tmp);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (fd >= 0 && !f)
        close(fd);
    int rc = 0;
    if (!f) {
        bx_error_set(st->err, NULL, 0, 0, "cannot create '%s': %s", path, strerror(errno));
        rc = -1;
    } else {
        st->wrote_json = true;
        bool bad = fwrite(bx_sb_str(&b), 1, b.len, f) != b.len || ferror(f);
        if (fclose(f) != 0 || bad) {
            bx_error_set(st->err, NULL, 0, 0, "writing '%s': %s", path,
                         strerror(errno ? errno : EIO));
            rc = -1;
        }
    }
    bx_sb_free(&b);
    return rc;
}

/* After a failure: the files made, then the folder. */
static void remove_all(kstate *st)
{
    if (st->kw) {
        bx_kernel_writer_close(st->kw, true);
        st->kw = NULL;
    }
    if (!st->made_dir)
        return;
    byoc_kernel_files *k = st->out;
    bx_strbuf p = {0};
    for (size_t i = 0; i < k->n; i++)
        if (k->v[i].file) {
            bx_sb_reset(&p);
            bx_sb_printf(&p, "%s/%s", st->tmp, k->v[i].file);
            unlink(bx_sb_str(&p));
        }
    if (st->wrote_json) {
        bx_sb_reset(&p);
        bx_sb_printf(&p, "%s/kernels.json", st->tmp);
        unlink(bx_sb_str(&p));
    }
    bx_sb_free(&p);
    rmdir(st->tmp);
    st->made_dir = false;
}

static byoc_kernel_files *write_all(kstate *st, const byoc_partition_options *o, const char *dir)
{
    byoc_kernel_files *k = st->out;
    const byoc_kernel_write_options *wo = st->wo;
    struct stat sb;
    if (stat(dir, &sb) == 0 && !(S_ISDIR(sb.st_mode) && bx_dir_empty(dir))) {
        bx_error_set(st->err, NULL, 0, 0,
                     "'%s' exists; give a folder that does not exist yet (or an empty one)", dir);
        return NULL;
    }
    bx_session s;
    if (bx_session_open(&s, st->g, o, st->err) < 0)
        return NULL;
    st->tmp = bx_arena_printf(&k->a, "%s.tmp%ld", dir, (long)getpid());
    if (mkdir(st->tmp, 0777) != 0) {
        bx_error_set(st->err, NULL, 0, 0, "cannot create '%s': %s", st->tmp, strerror(errno));
        bx_session_close(&s);
        return NULL;
    }
    st->made_dir = true;
    st->kw = bx_kernel_writer_open(st->g, wo->model_path, st->tmp, wo->seed, wo->rewrite,
                                   st->err);
    int rc = st->kw ? 0 : -1;
    if (rc == 0)
        rc = bx_session_each_kernel(&s, visit, st);
    bx_session_close(&s);
    if (rc == 0)
        rc = bx_kernel_writer_finish(st->kw, st->err);
    const char *model = wo->model_path ? wo->model_path
                        : byoc_graph_source(st->g) ? byoc_graph_source(st->g) : "";
    if (rc == 0)
        rc = write_json(st, model);
    if (rc == 0 && rename(st->tmp, dir) != 0) {
        bx_error_set(st->err, NULL, 0, 0, "cannot rename '%s' to '%s': %s", st->tmp, dir,
                     strerror(errno));
        rc = -1;
    }
    if (rc != 0) {
        remove_all(st);
        return NULL;
    }
    bx_kernel_writer_close(st->kw, false);
    st->kw = NULL;
    return k;
}

/* The guard's handler reads only st, set before it and not after. */
static byoc_kernel_files *write_guarded(kstate *st, const byoc_partition_options *o,
                                        const char *dir)
{
    bx_oom_guard guard;
    if (setjmp(guard.env)) {
        bx_oom_close(&guard);
        remove_all(st);
        bx_error_set(st->err, NULL, 0, 0, "out of memory");
        return NULL;
    }
    bx_oom_open(&guard);
    byoc_kernel_files *r = write_all(st, o, dir);
    bx_oom_close(&guard);
    return r;
}

byoc_kernel_files *byoc_write_kernels_onnx(const byoc_graph *g, const byoc_partition_options *o,
                                           const byoc_kernel_write_options *wo, const char *dir,
                                           byoc_error *err)
{
    byoc_error_clear(err);
    byoc_error local;
    if (!err)
        err = &local;
    if (!g || !dir || !dir[0]) {
        bx_error_set(err, NULL, 0, 0, "no graph or no folder");
        return NULL;
    }
    static const byoc_kernel_write_options none;
    /* Allocated before the guard and not changed after it, so that running
     * out of memory can still remove what was written. */
    kstate *st = calloc(1, sizeof *st);
    byoc_kernel_files *k = calloc(1, sizeof *k);
    if (!st || !k) {
        free(st);
        free(k);
        bx_error_set(err, NULL, 0, 0, "out of memory");
        return NULL;
    }
    bx_arena_init(&k->a);
    st->g = g;
    st->wo = wo ? wo : &none;
    st->out = k;
    st->err = err;
    byoc_kernel_files *r = write_guarded(st, o, dir);
    if (!r)
        byoc_kernel_files_destroy(k);
    free(st);
    return r;
}
