/* byoc measure: time every kernel of a model with a runner and write the
 * cost table (doc/cost-table.md, "Measuring with byoc measure").
 *
 * A straight line: read the model, read the cache, write as ONNX only
 * the kernels the cache does not have (byoc_write_kernels_onnx with a
 * want() that also records every kernel it is asked about), time them
 * with the runner pool (cli/runner.c), appending each result to the cache
 * the moment it is known, then write the table of every kernel, measured
 * now or before, sorted by target and signature so that the same cache
 * gives the same bytes. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <byoc/byoc.h>
#include <byoc/lower.h>

#include "cli.h"
#include "measure_cache.h"
#include "runner.h"

#define TMPDIR_SUFFIX "/byoc-measure." "XX" "XX" "XX"

typedef struct measure_opts {
    const char *runner;
    const char *cache;          /* --cache FILE; NULL: the default */
    bool no_cache, retry_failed;
    int warmup, repeat, jobs;
    double timeout;
    const char *kernels;        /* --kernels DIR; NULL: a temporary folder */
    const char *device;         /* --device NAME */
    const char *ort;            /* --ort DIR */
    bool quiet, verbose;
} measure_opts;

/* One distinct kernel of the model. */
typedef struct kref {
    char *target, *signature;
    const mcache_entry *cached;   /* its time from the cache, or NULL */
    const byoc_kernel_file *file; /* written now, or NULL */
    runner_job *job;              /* measured now, or NULL */
} kref;

typedef struct measure_ctx {
    const byoc_registry *reg;
    const runner_spec *spec;
    const measure_opts *m;
    mcache *cache;
    kref *refs;
    size_t nrefs, cap;
    bool oom;
    /* progress */
    size_t total, done, failed;
    double start, last_draw;
    bool tty, line_shown, cache_warned;
} measure_ctx;

/* ---- options -------------------------------------------------------------------- */

static bool is_opt(const char *a, const char *lng, const char *shrt, const char **inline_val)
{
    size_t n = strlen(lng);
    *inline_val = NULL;
    if (!strncmp(a, lng, n) && a[n] == '=') {
        *inline_val = a + n + 1;
        return true;
    }
    return !strcmp(a, lng) || (shrt && !strcmp(a, shrt));
}

static int parse_count(const char *opt, const char *v, int min, int *out)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || end == v || *end || n < min || n > 1000000 || v[0] == '+' || v[0] == ' ') {
        fprintf(stderr, "byoc: error: %s needs a whole number >= %d, not '%s'\n", opt, min, v);
        return -1;
    }
    *out = (int)n;
    return 0;
}

/* The model-reading options of parse_cli that take a value: passed on
 * with it, so that a value is never read as one of measure's options. */
static bool passes_value(const char *a)
{
    static const char *const with_value[] = {"-t", "--targets", "--option", "-o", "--output",
                                             "--dim", "--input-shape", "--input-format",
                                             "--quantized-layout", "--device-param"};
    for (size_t i = 0; i < sizeof with_value / sizeof *with_value; i++)
        if (!strcmp(a, with_value[i]))
            return true;
    return false;
}

/* Take measure's own options out of argv; the rest go to rest[].
 * Returns 0, or 2 on bad usage (reported). */
static int parse_measure(measure_opts *m, int argc, char **argv, char **rest, int *nrest)
{
    *nrest = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
#define VALUE(name)                                                                          \
    do {                                                                                     \
        if (!v) {                                                                            \
            if (i + 1 >= argc) {                                                             \
                fprintf(stderr, "byoc: error: %s needs a value\n", name);                    \
                return 2;                                                                    \
            }                                                                                \
            v = argv[++i];                                                                   \
        }                                                                                    \
    } while (0)
        if (is_opt(a, "--runner", "-r", &v)) {
            VALUE("--runner");
            m->runner = v;
        } else if (is_opt(a, "--cache", NULL, &v)) {
            VALUE("--cache");
            if (!*v) {
                fprintf(stderr, "byoc: error: --cache needs a file name\n");
                return 2;
            }
            m->cache = v;
        } else if (!strcmp(a, "--no-cache")) {
            m->no_cache = true;
        } else if (!strcmp(a, "--retry-failed")) {
            m->retry_failed = true;
        } else if (is_opt(a, "--warmup", NULL, &v)) {
            VALUE("--warmup");
            if (parse_count("--warmup", v, 0, &m->warmup) != 0)
                return 2;
        } else if (is_opt(a, "--repeat", NULL, &v)) {
            VALUE("--repeat");
            if (parse_count("--repeat", v, 1, &m->repeat) != 0)
                return 2;
        } else if (is_opt(a, "--jobs", "-j", &v)) {
            VALUE("-j");
            if (parse_count("-j", v, 1, &m->jobs) != 0)
                return 2;
        } else if (!strncmp(a, "-j", 2) && a[2]) {
            if (parse_count("-j", a + 2, 1, &m->jobs) != 0)
                return 2;
        } else if (is_opt(a, "--timeout", NULL, &v)) {
            VALUE("--timeout");
            char *end;
            errno = 0;
            double t = strtod(v, &end);
            if (errno || end == v || *end || !(t > 0) || isinf(t) || t > 1e7) {
                fprintf(stderr, "byoc: error: --timeout needs a positive number of seconds, "
                                "not '%s'\n", v);
                return 2;
            }
            m->timeout = t;
        } else if (is_opt(a, "--kernels", NULL, &v)) {
            VALUE("--kernels");
            if (!*v) {
                fprintf(stderr, "byoc: error: --kernels needs a folder\n");
                return 2;
            }
            m->kernels = v;
        } else if (is_opt(a, "--device", NULL, &v)) {
            VALUE("--device");
            if (!*v || strpbrk(v, "\n\r")) {
                fprintf(stderr, "byoc: error: --device needs a name on one line\n");
                return 2;
            }
            m->device = v;
        } else if (is_opt(a, "--ort", NULL, &v)) {
            VALUE("--ort");
            m->ort = v;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            m->quiet = true;
            m->verbose = false;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            m->verbose = true;
            m->quiet = false;
        } else {
            rest[(*nrest)++] = argv[i];
            if (passes_value(a) && i + 1 < argc)
                rest[(*nrest)++] = argv[++i];
        }
#undef VALUE
    }
    if (!m->runner) {
        fprintf(stderr, "byoc: error: measure needs --runner R: onnxruntime[:EP], "
                        "trtexec[:ARGS], time:CMD, or a command printing 'seconds: X'\n");
        return 2;
    }
    if (m->no_cache && m->cache) {
        fprintf(stderr, "byoc: error: --cache and --no-cache do not go together\n");
        return 2;
    }
    if (m->no_cache && m->retry_failed) {
        fprintf(stderr, "byoc: error: --retry-failed needs the cache (not --no-cache)\n");
        return 2;
    }
    return 0;
}

/* ${XDG_CACHE_HOME:-$HOME/.cache}/byoc/measure.csv, or NULL. */
static char *default_cache_path(void)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    const char *base = xdg && xdg[0] == '/' ? xdg : NULL;
    const char *tail = base ? "/byoc/measure.csv" : "/.cache/byoc/measure.csv";
    if (!base)
        base = home && home[0] == '/' ? home : NULL;
    if (!base)
        return NULL;
    size_t n = strlen(base) + strlen(tail) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s", base, tail);
    return p;
}

/* ---- the kernels ------------------------------------------------------------------- */

/* The cache's runner for a kernel of target: the runner's name, or for
 * onnxruntime:target the provider that target's runtime names. */
static char *key_runner(const measure_ctx *x, const char *target)
{
    if (!x->spec->ep_of_target)
        return strdup(x->spec->name);
    const byoc_target_decl *t = byoc_registry_target(x->reg, target);
    const char *rt = t ? byoc_target_runtime(x->reg, t) : NULL;
    if (!rt || strncmp(rt, "onnxruntime:", 12) != 0 || !rt[12])
        return NULL;
    const char *full = runner_ep_full_name(rt + 12);
    size_t n = strlen(full) + 13;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "onnxruntime:%s", full);
    return s;
}

static const mcache_entry *lookup(const measure_ctx *x, const char *target,
                                  const char *signature)
{
    if (!x->cache)
        return NULL;
    char *runner = key_runner(x, target);
    if (!runner)
        return NULL;
    const mcache_entry *e = mcache_find(x->cache, runner, x->m->device ? x->m->device : "",
                                        target, signature);
    free(runner);
    return e;
}

/* byoc_write_kernels_onnx's filter: every kernel it is asked about is
 * one of the model's; only those the cache cannot answer are written. */
static bool want_kernel(const char *target, const char *signature, void *ctx)
{
    measure_ctx *x = ctx;
    if (x->nrefs == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 256;
        kref *r = cap < SIZE_MAX / sizeof *r ? realloc(x->refs, cap * sizeof *r) : NULL;
        if (!r) {
            x->oom = true;
            return false;
        }
        x->refs = r;
        x->cap = cap;
    }
    kref *k = &x->refs[x->nrefs];
    memset(k, 0, sizeof *k);
    k->target = strdup(target);
    k->signature = strdup(signature);
    if (!k->target || !k->signature) {
        free(k->target);
        free(k->signature);
        x->oom = true;
        return false;
    }
    x->nrefs++;
    k->cached = lookup(x, target, signature);
    if (k->cached && isinf(k->cached->seconds) && x->m->retry_failed)
        k->cached = NULL;
    return k->cached == NULL;
}

static int cmp_kref(const void *a, const void *b)
{
    const kref *x = a, *y = b;
    int c = strcmp(x->target, y->target);
    return c ? c : strcmp(x->signature, y->signature);
}

/* Sort the kernels and drop repeats (a kernel asked about twice). */
static void unique_refs(measure_ctx *x)
{
    if (x->nrefs > 1)
        qsort(x->refs, x->nrefs, sizeof *x->refs, cmp_kref);
    size_t w = 0;
    for (size_t i = 0; i < x->nrefs; i++) {
        if (w && !cmp_kref(&x->refs[w - 1], &x->refs[i])) {
            free(x->refs[i].target);
            free(x->refs[i].signature);
            continue;
        }
        x->refs[w++] = x->refs[i];
    }
    x->nrefs = w;
}

static kref *find_ref(measure_ctx *x, const char *target, const char *signature)
{
    kref key = {.target = (char *)target, .signature = (char *)signature};
    return bsearch(&key, x->refs, x->nrefs, sizeof *x->refs, cmp_kref);
}

/* Remove the temporary kernel folder: its files, then itself. */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        size_t n = strlen(dir);
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            size_t m = n + strlen(e->d_name) + 2;
            char *p = malloc(m);
            if (!p)
                continue;
            snprintf(p, m, "%s/%s", dir, e->d_name);
            if (unlink(p) != 0)
                rmdir(p);
            free(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* ---- progress ------------------------------------------------------------------------ */

static void clear_line(measure_ctx *x)
{
    if (x->line_shown) {
        fputs("\r\033[K", stderr);
        x->line_shown = false;
    }
}

static void draw(measure_ctx *x, bool force)
{
    if (!x->tty || x->m->quiet)
        return;
    double t = runner_now();
    if (!force && t - x->last_draw < 0.2)
        return;
    x->last_draw = t;
    char eta[48] = "";
    if (x->done && x->done < x->total) {
        double left = (t - x->start) / (double)x->done * (double)(x->total - x->done);
        long s = left > 1e9 ? 1000000000L : (long)(left + 0.5);
        if (s < 60)
            snprintf(eta, sizeof eta, ", ETA %lds", s);
        else if (s < 3600)
            snprintf(eta, sizeof eta, ", ETA %ldm%02lds", s / 60, s % 60);
        else
            snprintf(eta, sizeof eta, ", ETA %ldh%02ldm", s / 3600, s / 60 % 60);
    }
    fprintf(stderr, "\rmeasure: %zu/%zu kernels, %zu failed%s\033[K", x->done, x->total,
            x->failed, eta);
    fflush(stderr);
    x->line_shown = true;
}

/* One kernel done: into the cache at once, then the progress line. */
static void on_done(runner_job *j, void *ctx)
{
    measure_ctx *x = ctx;
    if (!j) {
        draw(x, false);
        return;
    }
    x->done++;
    if (isinf(j->seconds))
        x->failed++;
    if (x->cache) {
        char err[512];
        char *runner = key_runner(x, j->target);
        if (!runner || mcache_append(x->cache, runner, x->m->device ? x->m->device : "",
                                     j->target, j->signature, j->seconds,
                                     j->why ? j->why : "", err, sizeof err) != 0) {
            if (!x->cache_warned) {
                clear_line(x);
                fprintf(stderr, "byoc: warning: %s\n", runner ? err : "out of memory");
            }
            x->cache_warned = true;
        }
        free(runner);
    }
    if (x->m->verbose) {
        clear_line(x);
        if (isinf(j->seconds))
            fprintf(stderr, "byoc: %s (%s): cannot run: %s\n", j->model, j->target,
                    j->why ? j->why : "inf");
        else
            fprintf(stderr, "byoc: %s (%s): %.6g s\n", j->model, j->target, j->seconds);
    }
    draw(x, x->done == x->total);
}

/* ---- the table ---------------------------------------------------------------------- */

/* A message on one comment line. */
static void put_comment(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        fputc(*p < ' ' || *p == 0x7f ? ' ' : *p, f);
}

static int put_kernel(FILE *f, const char *prefix, const char *target, const char *signature,
                      const char *secs)
{
    char *sig = mcache_csv_field(signature, true);
    if (!sig)
        return -1;
    fprintf(f, "%s%s,%s%s%s\n", prefix, target, sig, secs ? "," : "", secs ? secs : "");
    free(sig);
    return 0;
}

static int write_table(FILE *f, measure_ctx *x, const cli_opts *c, bool partial,
                       size_t *missing)
{
    const measure_opts *m = x->m;
    fprintf(f, "target,signature,seconds\n");
    fprintf(f, "# byoc measure: ");
    put_comment(f, c->model);
    fprintf(f, ", %zu kernels\n# runner ", x->nrefs);
    put_comment(f, x->spec->name);
    fprintf(f, ", warmup %d, repeat %d", m->warmup, m->repeat);
    if (m->device) {
        fprintf(f, ", device ");
        put_comment(f, m->device);
    }
    fputc('\n', f);
    if (partial)
        fprintf(f, "# partial: interrupted before every kernel was measured; the same "
                   "command again measures the rest\n");
    *missing = 0;
    int rc = 0;
    for (size_t i = 0; i < x->nrefs && rc == 0; i++) {
        const kref *k = &x->refs[i];
        double secs;
        const char *why;
        if (k->job && k->job->done) {
            secs = k->job->seconds;
            why = k->job->why;
        } else if (k->cached) {
            secs = k->cached->seconds;
            why = k->cached->note;
        } else {
            (*missing)++;
            fprintf(f, "# not measured (");
            put_comment(f, k->file && !k->file->file
                               ? (k->file->why ? k->file->why : "it could not be written as ONNX")
                               : partial ? "interrupted" : "no kernel file");
            fprintf(f, "): ");
            rc = put_kernel(f, "", k->target, k->signature, NULL);
            continue;
        }
        if (isinf(secs)) {
            fprintf(f, "# cannot run: ");
            put_comment(f, why && why[0] ? why : "the runner said inf");
            fputc('\n', f);
        }
        char s[32];
        mcache_format_seconds(s, sizeof s, secs);
        rc = put_kernel(f, "", k->target, k->signature, s);
    }
    return rc;
}

/* ---- the command --------------------------------------------------------------------------- */

static const char *ort_script(void)
{
    const char *s = getenv("BYOC_ORT_MEASURE");
    return s && *s ? s : BYOC_PKGDATADIR "/ort-measure.js";
}

int cmd_measure(byoc_registry *reg, int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            cli_opts c = {.cmd = "measure"};
            char *h[] = {argv[i]};
            byoc_cost_table *t;
            byoc_graph *g;
            return start_command(reg, &c, 1, h, 0, &t, &g);
        }
    measure_opts m = {.warmup = 3, .repeat = 10, .jobs = 1};
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (!rest) {
        fprintf(stderr, "byoc: error: out of memory\n");
        return 1;
    }
    int nrest;
    int rc = parse_measure(&m, argc, argv, rest, &nrest);
    if (rc) {
        free(rest);
        return rc;
    }
    runner_spec spec;
    char why[512];
    if (runner_spec_parse(&spec, m.runner, why, sizeof why) != 0) {
        fprintf(stderr, "byoc: error: %s\n", why);
        free(rest);
        return 2;
    }
    cli_opts c = {.cmd = "measure"};
    byoc_cost_table *table = NULL;
    byoc_graph *g = NULL;
    measure_ctx x = {.reg = reg, .spec = &spec, .m = &m};
    char *cache_path = NULL, *workdir = NULL;
    bool temp_dir = false;
    byoc_kernel_files *files = NULL;
    runner_job *jobs = NULL;
    const char **dims = NULL;
    size_t njobs = 0;
    /* From here on Ctrl-C only sets a flag: every exit below tidies up. */
    runner_signals_install();
    rc = start_command(reg, &c, nrest, rest, OPT_TARGETS | OPT_OPTION | OPT_OUTPUT, &table, &g);
    if (rc >= 0)
        goto done;
    rc = 1;
    if (spec.kind == RUNNER_ORT && access(ort_script(), R_OK) != 0) {
        fprintf(stderr, "byoc: error: the onnxruntime runner's script '%s' is missing (%s); "
                        "set BYOC_ORT_MEASURE to tools/ort-measure.js\n", ort_script(),
                strerror(errno));
        goto done;
    }
    if (!m.no_cache) {
        cache_path = m.cache ? strdup(m.cache) : default_cache_path();
        if (!cache_path) {
            fprintf(stderr, "byoc: error: no cache file: set HOME or XDG_CACHE_HOME, or give "
                            "--cache FILE or --no-cache\n");
            goto done;
        }
        char err[1024];
        x.cache = mcache_open(cache_path, err, sizeof err);
        if (!x.cache) {
            fprintf(stderr, "%s%s\n", strncmp(err, cache_path, strlen(cache_path)) ? "byoc: error: "
                                                                                   : "", err);
            goto done;
        }
    }
    if (m.kernels) {
        workdir = strdup(m.kernels);
    } else {
        const char *tmp = getenv("TMPDIR");
        if (!tmp || tmp[0] != '/')
            tmp = "/tmp";
        size_t n = strlen(tmp) + sizeof TMPDIR_SUFFIX;
        workdir = malloc(n);
        if (workdir) {
            snprintf(workdir, n, "%s%s", tmp, TMPDIR_SUFFIX);
            if (!mkdtemp(workdir)) {
                fprintf(stderr, "byoc: error: cannot make a temporary folder in %s: %s\n", tmp,
                        strerror(errno));
                goto done;
            }
            temp_dir = true;
        }
    }
    if (!workdir) {
        fprintf(stderr, "byoc: error: out of memory\n");
        goto done;
    }
    byoc_partition_options o;
    fill_options(&c, &o, NULL);
    byoc_kernel_write_options wo = {
        .model_path = c.input == FMT_RELAY ||
                              (c.input == FMT_AUTO &&
                               !(strlen(c.model) > 5 &&
                                 !strcmp(c.model + strlen(c.model) - 5, ".onnx")))
                          ? NULL : c.model,
        .want = want_kernel, .ctx = &x};
    byoc_error err;
    byoc_error_clear(&err);
    files = byoc_write_kernels_onnx(g, &o, &wo, workdir, &err);
    if (!files) {
        print_error(&err);
        if (temp_dir)
            remove_dir(workdir);
        temp_dir = false;
        goto done;
    }
    if (x.oom) {
        fprintf(stderr, "byoc: error: out of memory\n");
        goto done;
    }
    if (runner_interrupted())
        goto interrupted;
    unique_refs(&x);
    size_t nfiles = byoc_kernel_files_count(files);
    jobs = calloc(nfiles + 1, sizeof *jobs);
    if (!jobs) {
        fprintf(stderr, "byoc: error: out of memory\n");
        goto done;
    }
    size_t dirlen = strlen(workdir), unwritten = 0;
    for (size_t i = 0; i < nfiles; i++) {
        const byoc_kernel_file *kf = byoc_kernel_files_at(files, i);
        kref *k = find_ref(&x, kf->target, kf->signature);
        if (!k || k->file)
            continue;   /* never asked about, or written twice: not ours to time */
        k->file = kf;
        if (!kf->file) {
            unwritten++;
            if (!m.quiet)
                fprintf(stderr, "byoc: warning: a kernel of %s is not measured: %s\n",
                        kf->target, kf->why ? kf->why : "it could not be written as ONNX");
            continue;
        }
        runner_job *j = &jobs[njobs++];
        size_t n = dirlen + strlen(kf->file) + 2;
        char *path = malloc(n);
        if (!path) {
            fprintf(stderr, "byoc: error: out of memory\n");
            goto done;
        }
        snprintf(path, n, "%s/%s", workdir, kf->file);
        *j = (runner_job){.model = path, .target = kf->target, .device = kf->device,
                          .runtime = kf->runtime, .signature = kf->signature};
        k->job = j;
    }
    if (c.read.ndims) {
        dims = calloc(c.read.ndims, sizeof *dims);
        bool ok = dims != NULL;
        for (size_t i = 0; ok && i < c.read.ndims; i++) {
            size_t n = strlen(c.read.dims[i].name) + 24;
            char *d = malloc(n);
            if (d)
                snprintf(d, n, "%s=%lld", c.read.dims[i].name, (long long)c.read.dims[i].value);
            dims[i] = d;
            ok = d != NULL;
        }
        if (!ok) {
            fprintf(stderr, "byoc: error: out of memory\n");
            goto done;
        }
    }
    runner_config rc_cfg = {
        .jobs = m.jobs, .warmup = m.warmup, .repeat = m.repeat, .timeout = m.timeout,
        .grace = 1.0, .device = m.device, .node = getenv("BYOC_NODE"), .script = ort_script(),
        .ort_dir = m.ort ? m.ort : getenv("BYOC_ORT") ? getenv("BYOC_ORT")
                                                      : getenv("BYOC_ORT_NODE"),
        .trtexec = getenv("BYOC_TRTEXEC"), .dims = dims, .ndims = dims ? (int)c.read.ndims : 0};
    if (rc_cfg.node && !*rc_cfg.node)
        rc_cfg.node = NULL;
    if (rc_cfg.ort_dir && !*rc_cfg.ort_dir)
        rc_cfg.ort_dir = NULL;
    if (rc_cfg.trtexec && !*rc_cfg.trtexec)
        rc_cfg.trtexec = NULL;
    x.total = njobs;
    x.start = runner_now();
    x.tty = isatty(2);
    char rerr[1024];
    runner_status st = RUNNER_FINISHED;
    if (njobs)
        st = runner_run(&spec, &rc_cfg, jobs, njobs, on_done, &x, rerr, sizeof rerr);
    clear_line(&x);
    if (st == RUNNER_FATAL) {
        fprintf(stderr, "byoc: error: %s\n", rerr);
        if (x.done && x.cache)
            fprintf(stderr, "byoc: note: the %zu kernel%s measured before are kept in the cache "
                            "'%s'\n", x.done, x.done == 1 ? "" : "s", mcache_path(x.cache));
        goto done;
    }
    bool partial = st == RUNNER_INTERRUPTED;
    out_file out;
    if (out_open(&out, c.output) != 0)
        goto done;
    size_t missing;
    int wrc = write_table(out.f, &x, &c, partial, &missing);
    if (wrc != 0)
        fprintf(stderr, "byoc: error: out of memory\n");
    if (out_close(&out, wrc == 0) != 0)
        goto done;
    if (!m.quiet) {
        size_t from_cache = 0, failed = 0;
        for (size_t i = 0; i < x.nrefs; i++) {
            const kref *k = &x.refs[i];
            if (k->job && k->job->done)
                failed += isinf(k->job->seconds);
            else if (k->cached) {
                from_cache++;
                failed += isinf(k->cached->seconds);
            }
        }
        fprintf(stderr, "byoc: %zu kernels: measured %zu, from the cache %zu, cannot run %zu",
                x.nrefs, x.done, from_cache, failed);
        if (missing)
            fprintf(stderr, ", not measured %zu", missing);
        fprintf(stderr, "%s\n", partial ? " (interrupted)" : "");
    }
    if (partial)
        goto interrupted;
    rc = missing ? 1 : 0;
    if (missing && unwritten && !m.quiet)
        fprintf(stderr, "byoc: %zu kernel%s could not be written as ONNX and %s no time; the "
                        "partitioner prices %s with its analytic model\n", unwritten,
                unwritten == 1 ? "" : "s", unwritten == 1 ? "has" : "have",
                unwritten == 1 ? "it" : "them");
    goto done;
interrupted:
    if (x.cache)
        fprintf(stderr, "byoc: interrupted: what was measured is kept in the cache '%s'; the "
                        "same command again measures the rest\n", mcache_path(x.cache));
    else
        fprintf(stderr, "byoc: interrupted\n");
    /* 128 + the signal, as a shell reports a command it killed: 130 for
     * Ctrl-C, 143 for SIGTERM, 129 for a hang-up. */
    rc = 128 + (runner_interrupted() ? runner_interrupted() : SIGINT);
done:
    if (temp_dir)
        remove_dir(workdir);
    for (size_t i = 0; i < njobs; i++) {
        free((char *)jobs[i].model);
        free(jobs[i].why);
    }
    free(jobs);
    for (size_t i = 0; dims && i < c.read.ndims; i++)
        free((char *)dims[i]);
    free(dims);
    for (size_t i = 0; i < x.nrefs; i++) {
        free(x.refs[i].target);
        free(x.refs[i].signature);
    }
    free(x.refs);
    byoc_kernel_files_destroy(files);
    mcache_close(x.cache);
    free(cache_path);
    free(workdir);
    byoc_graph_destroy(g);
    byoc_cost_table_destroy(table);
    cli_opts_free(&c);
    runner_spec_free(&spec);
    free(rest);
    runner_signals_restore();
    return rc;
}
