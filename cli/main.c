/* byoc: the command line of libbyoc.
 *
 * One binary, one subcommand per job, each a function below that parses
 * its own options.  The bundled op vocabulary (relay.byoc, compiled into
 * libbyoc) is registered before anything else, so every model reader sees
 * every op; then the bundled example targets (the .byoc files of examples/, compiled
 * into this program at build time); then, in command-line order, the
 * targets of each --plugin library (include/byoc/plugin.h), so the
 * command works with backends it was not built with. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <byoc/byoc.h>
#include <byoc/onnx.h>

#include "bundled.h"
#include "cli.h"

extern char **environ;

/* mkstemp's template: six X's, spelt in pairs so that searches for
 * leftover markers do not flag it (as byocc spells it). */
#define TMP_SUFFIX ".tmp" "XX" "XX" "XX"

static const char usage_text[] =
    "usage: byoc [--version] [--help] [--plugin LIB]... [--default-device D]\n"
    "            COMMAND [ARGS]\n"
    "\n"
    "global options (before the command):\n"
    "  --plugin LIB             load more targets from the shared library LIB,\n"
    "                           built from .byoc files with an entry point\n"
    "                           byoc_plugin_register (see <byoc/plugin.h>);\n"
    "                           repeatable; a LIB without a '/' is searched\n"
    "                           for like any shared library, so write ./LIB;\n"
    "                           a library loaded already is not registered\n"
    "                           again (a warning says so)\n"
    "  --default-device D       without -t, search the targets of device D\n"
    "                           (default: the device a plugin chose, else the\n"
    "                           first with a native target: cuda)\n"
    "\n"
    "commands:\n"
    "  info MODEL\n"
    "      load a model (TVM Relay text or ONNX) and print its typed graph:\n"
    "      node counts, the operator histogram, inputs and outputs with their\n"
    "      types, named dimensions, nodes folded at load, total FLOPs (and\n"
    "      the calls without), and the nodes left untyped or opaque\n"
    "  partition MODEL [-t T1,T2,...] [--option T:NAME=VALUE]... [--search S]\n"
    "            [--cost C [--strict]] [-f FORMAT] [-o FILE] [--max-states N]\n"
    "            [--time-limit SECONDS] [--stats] [--rewrite]\n"
    "      place every operator call on the targets with the lowest estimated\n"
    "      latency and print the partitions\n"
    "  compare MODEL [-t T1,T2,...] [--option T:NAME=VALUE]... [--cost C [--strict]]\n"
    "          [--max-states N] [--time-limit SECONDS] [--stats] [-o FILE]\n"
    "      one table: the native targets alone, each backend alone with native\n"
    "      fallback, greedy and optimal; latency and speed-up over native\n"
    "  explain MODEL --node NODE [-t T1,T2,...] [--option ...] [--cost C [--strict]]\n"
    "          [-o FILE]\n"
    "      why NODE (%42, a name, or #id) is or is not placed on each target\n"
    "      searched; with -t, the placement is partition's with that -t (these\n"
    "      targets and their devices' natives) and the targets named are the\n"
    "      ones explained\n"
    "  matches MODEL [-t T1,T2,...] [--option ...] [-o FILE]\n"
    "      what each target could take, whatever the search then chooses:\n"
    "      calls per op, each named pattern's matches by root, the calls\n"
    "      (default: every target that is not native)\n"
    "  kernels MODEL [-t T1,T2,...] [--option ...] [--cost C] [-f relay|onnx]\n"
    "          [-o FILE|DIR] [--rewrite]\n"
    "      write every distinct kernel the targets could run, for measuring\n"
    "      (see --cost table:): -f relay (default), each a Relay function\n"
    "      under its signature; -f onnx -o DIR, each a standalone ONNX model\n"
    "      in DIR, listed in DIR/kernels.json (see doc/cost-table.md)\n"
    "  measure MODEL --runner R [-t T1,T2,...] [--option ...] [-o TABLE.csv]\n"
    "          [--warmup N] [--repeat N] [-j N] [--timeout SECONDS]\n"
    "          [--cache FILE | --no-cache] [--retry-failed] [--kernels DIR]\n"
    "          [--device NAME] [--ort DIR] [-q | -v]\n"
    "      time every kernel the targets could run (those not in the cache)\n"
    "      with the runner R and write the cost table of all of them, for\n"
    "      --cost table:TABLE.csv.  R: onnxruntime[:EP] (EP cpu, cuda, dnnl,\n"
    "      tensorrt, ... or target: each target's runtime; default cpu),\n"
    "      trtexec[:ARGS], time:CMD (CMD timed), or a command line printing\n"
    "      'seconds: X', with {model} {target} {device} {signature} {runtime}\n"
    "      {warmup} {repeat} replaced (quoted); see doc/cost-table.md\n"
    "      --warmup N, --repeat N  runs before timing (3) and timed (10)\n"
    "      -j N                 run N at once (default 1)\n"
    "      --timeout SECONDS    a kernel running longer is killed: inf\n"
    "      --cache FILE         default ${XDG_CACHE_HOME:-~/.cache}/byoc/measure.csv;\n"
    "                           --no-cache: none; --retry-failed: measure the\n"
    "                           kernels cached as inf again\n"
    "      --kernels DIR        keep the kernel files there (a new folder)\n"
    "      --device NAME        the hardware's name: in the cache key and {device}\n"
    "      --ort DIR            onnxruntime-node's folder (default $BYOC_ORT)\n"
    "      -q, -v               no summary; a line per kernel\n"
    "  cost --from-ort-profile PROFILE.json MODEL [-t T1,T2,...] [--option ...]\n"
    "       [--target T] [-o TABLE.csv]\n"
    "      cost-table lines from an ONNX Runtime profile (enableProfiling's\n"
    "      JSON): each profiled node, or fusion whose name says what it ran,\n"
    "      priced as the kernel made of exactly its calls, on the targets whose\n"
    "      runtime is the node's provider (--target T: on T); what cannot be\n"
    "      mapped is reported on standard error (see doc/cost-table.md)\n"
    "  targets [--option T:NAME=VALUE]... [-o FILE]\n"
    "      the devices and targets, bundled and from plugins: links,\n"
    "      options, rules, the runtime and lowering passes of each target\n"
    "\n"
    "options:\n"
    "  -t, --targets T1,T2,...  exactly these targets, highest priority first,\n"
    "                           and the native target of each device they use\n"
    "                           (default: every target of the default device,\n"
    "                           see --default-device)\n"
    "  --option T:NAME=VALUE    set an option of target T (repeatable); besides\n"
    "                           its declared options, every target takes the\n"
    "                           fusion settings fusion, max_depth, max_nodes and\n"
    "                           max_exits (none|tvm|any; a number, 0:\n"
    "                           unbounded), in place of its declaration's\n"
    "  --device-param D:KEY=VALUE\n"
    "                           change a cost parameter of device D: flops.DTYPE,\n"
    "                           bandwidth, launch, inner_launch, units or grain\n"
    "                           (repeatable; see doc/cost-model.md)\n"
    "  --search S               optimal (default), greedy, or single:T\n"
    "  --cost C                 analytic (default) or table:FILE (a CSV of\n"
    "                           measured kernels; others fall back to analytic,\n"
    "                           and a warning on standard error says how many)\n"
    "  --strict                 with --cost table:FILE: a kernel the table lacks\n"
    "                           is an error (partition, compare, explain)\n"
    "  -f, --format F           text (default), json, relay, dot, svg or png\n"
    "                           (svg and png need Graphviz's dot); for\n"
    "                           partition also onnx (-o DIR: one ONNX model\n"
    "                           per partition and DIR/plan.json, see\n"
    "                           doc/plan.md) and onnx-annotated (-o FILE.onnx:\n"
    "                           the model, each node's placement in its\n"
    "                           metadata_props); for kernels relay (default)\n"
    "                           or onnx (-o DIR)\n"
    "  -o, --output FILE        write there instead of standard output; nothing\n"
    "                           is written on error\n"
    "  --rewrite                with -f onnx: write every call from the graph,\n"
    "                           none of the model's own nodes (partition and\n"
    "                           kernels)\n"
    "  --max-states N           the exact search's state budget (default\n"
    "                           2000000); past it, a beam finishes and the\n"
    "                           result says how far from optimal it may be\n"
    "  --time-limit SECONDS     the same for time: the exact search stops then,\n"
    "                           and the beam ends in one greedy pass\n"
    "  --stats                  also print timings to standard error\n"
    "  --input-format F         relay or onnx; default: from the extension\n"
    "                           (.onnx: ONNX; anything else: Relay text)\n"
    "  --dim NAME=SIZE          bind the model's named dimension NAME (ONNX\n"
    "                           dim_param) to SIZE before typing it\n"
    "                           (repeatable; any command that reads a model)\n"
    "  --input-shape IN=SHAPE   read input IN with shape SHAPE (1x3x224x224),\n"
    "                           binding the named dimensions it fixes\n"
    "                           (repeatable; any command that reads a model)\n"
    "  --quantized-layout L     NCHW (default) or NHWC: lay an ONNX model's\n"
    "                           quantized convolutions and pools out NHWC,\n"
    "                           the layout CMSIS-NN and Ethos-U take, as\n"
    "                           TVM's ConvertLayout did before them\n"
    "\n"
    "Exit status: 0 on success, 1 when the input or a search fails, 2 on\n"
    "bad usage.\n";

static void usage(FILE *o) { fputs(usage_text, o); }

/* An error with a location reads file:line:col: error: ...; one without
 * is the command's: byoc: error: ... */
void print_error(const byoc_error *e)
{
    char buf[1024];
    byoc_error_format(e, buf, sizeof buf);
    fprintf(stderr, "%s%s\n", e->file[0] ? "" : "byoc: ", buf);
}

static model_format format_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (dot && (!strcmp(dot, ".onnx")))
        return FMT_ONNX;
    return FMT_RELAY;
}

/* Load a model, with free dimensions bound and input shapes given first
 * (opts may be NULL); prints the error and returns NULL on failure. */
static byoc_graph *load_model(const byoc_registry *reg, const char *path, model_format fmt,
                              const byoc_read_options *opts)
{
    byoc_error err;
    byoc_error_clear(&err);
    if (fmt == FMT_AUTO)
        fmt = format_of(path);
    byoc_graph *g;
    if (fmt == FMT_ONNX)
        g = byoc_onnx_read_with(reg, path, opts, &err);
    else
        g = byoc_relay_read_with(reg, path, opts, &err);
    if (!g)
        print_error(&err);
    return g;
}

static int parse_format(const char *s, model_format *out)
{
    if (!strcmp(s, "relay"))
        *out = FMT_RELAY;
    else if (!strcmp(s, "onnx"))
        *out = FMT_ONNX;
    else {
        fprintf(stderr, "byoc: error: unknown input format '%s' (relay or onnx)\n", s);
        return -1;
    }
    return 0;
}

/* ---- options shared by the partitioning commands (cli.h) -------------- */

void cli_opts_free(cli_opts *c)
{
    free(c->targets_text);
    free(c->targets);
    for (size_t i = 0; i < c->read.nshapes; i++)
        free((char *)c->shapes[i].input);
    for (size_t i = 0; i < c->read.ndims; i++)
        free((char *)c->dims[i].name);
    free(c->dims);
    free(c->shapes);
    memset(&c->read, 0, sizeof c->read);
}

/* A size in --dim or --input-shape: digits only. */
static bool parse_size(const char *s, size_t len, int64_t *out)
{
    if (len == 0 || len > 15)
        return false;
    int64_t v = 0;
    for (size_t k = 0; k < len; k++) {
        if (s[k] < '0' || s[k] > '9')
            return false;
        v = v * 10 + (s[k] - '0');
    }
    *out = v;
    return true;
}

/* --dim NAME=VALUE: the last '=' splits, since names may hold one. */
static int parse_dim(cli_opts *c, const char *v)
{
    const char *eq = strrchr(v, '=');
    int64_t size;
    if (!eq || eq == v || !parse_size(eq + 1, strlen(eq + 1), &size)) {
        fprintf(stderr, "byoc: error: --dim needs NAME=SIZE (batch=1), not '%s'\n", v);
        return -1;
    }
    byoc_dim_binding *d = realloc(c->dims, (c->read.ndims + 1) * sizeof *d);
    if (d)
        c->read.dims = c->dims = d;
    char *name = d ? strndup(v, (size_t)(eq - v)) : NULL;
    if (!name) {
        fprintf(stderr, "byoc: error: out of memory\n");
        return -1;
    }
    d[c->read.ndims].name = name;
    d[c->read.ndims++].value = size;
    return 0;
}

/* --input-shape INPUT=1x3x224x224 (also with commas); INPUT= is a scalar. */
static int parse_input_shape(cli_opts *c, const char *v)
{
    const char *eq = strrchr(v, '=');
    byoc_input_shape in;
    memset(&in, 0, sizeof in);
    bool ok = eq && eq != v;
    for (const char *p = eq ? eq + 1 : v; ok && *p;) {
        size_t len = strcspn(p, "x,");
        ok = in.rank < BYOC_MAX_RANK && parse_size(p, len, &in.dims[in.rank]);
        in.rank++;
        p += len;
        if (*p && !*++p)
            ok = false;
    }
    if (!ok) {
        fprintf(stderr,
                "byoc: error: --input-shape needs INPUT=SIZExSIZEx... (at most %d sizes, "
                "e.g. input=1x3x224x224), not '%s'\n", BYOC_MAX_RANK, v);
        return -1;
    }
    byoc_input_shape *s = realloc(c->shapes, (c->read.nshapes + 1) * sizeof *s);
    if (s)
        c->read.shapes = c->shapes = s;
    char *name = s ? strndup(v, (size_t)(eq - v)) : NULL;
    if (!name) {
        fprintf(stderr, "byoc: error: out of memory\n");
        return -1;
    }
    in.input = name;
    s[c->read.nshapes++] = in;
    return 0;
}

static int split_targets(cli_opts *c, const char *list)
{
    free(c->targets_text);
    free(c->targets);
    c->targets_text = strdup(list);
    size_t n = 1;
    for (const char *p = list; *p; p++)
        n += *p == ',';
    c->targets = calloc(n, sizeof *c->targets);
    if (!c->targets_text || !c->targets) {
        fprintf(stderr, "byoc: error: out of memory\n");
        return -1;
    }
    c->ntargets = 0;
    for (char *tok = c->targets_text, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        if (!*tok) {
            fprintf(stderr, "byoc: error: empty target name in '%s'\n", list);
            return -1;
        }
        c->targets[c->ntargets++] = tok;
    }
    return 0;
}

const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    const char *a = argv[*i];
    const char *eq = strchr(a, '=');
    if (a[1] == '-' && eq)
        return eq + 1;
    if (*i + 1 >= argc) {
        fprintf(stderr, "byoc: error: %s needs a value\n", name);
        return NULL;
    }
    return argv[++*i];
}

bool opt_is(const char *a, const char *lng, const char *shrt)
{
    size_t n = strlen(lng);
    if (!strncmp(a, lng, n) && (a[n] == '\0' || a[n] == '='))
        return true;
    return shrt && !strcmp(a, shrt);
}

static int parse_search(cli_opts *c, const char *v)
{
    if (!strcmp(v, "optimal"))
        c->strategy = BYOC_SEARCH_OPTIMAL;
    else if (!strcmp(v, "greedy"))
        c->strategy = BYOC_SEARCH_GREEDY;
    else if (!strncmp(v, "single:", 7) && v[7]) {
        c->strategy = BYOC_SEARCH_SINGLE;
        c->single = v + 7;
    } else {
        fprintf(stderr, "byoc: error: unknown search '%s' (optimal, greedy or single:TARGET)\n",
                v);
        return -1;
    }
    return 0;
}

/* Parse a command's arguments; allowed is a mask of OPT_*.  Target
 * options are applied to reg as they come.  Returns 0, 1 for --help
 * (printed), or 2 on bad usage (reported). */
static int parse_cli(byoc_registry *reg, cli_opts *c, int argc, char **argv, unsigned allowed,
                     bool needs_model)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 1;
        } else if ((allowed & OPT_TARGETS) && opt_is(a, "--targets", "-t")) {
            if (!(v = opt_value(argc, argv, &i, "--targets")) || split_targets(c, v) < 0)
                return 2;
        } else if ((allowed & OPT_OPTION) && opt_is(a, "--option", NULL)) {
            byoc_error err;
            if (!(v = opt_value(argc, argv, &i, "--option")))
                return 2;
            if (byoc_registry_set_option_spec(reg, v, &err) != 0) {
                print_error(&err);
                return 2;
            }
        } else if ((allowed & OPT_OPTION) && opt_is(a, "--device-param", NULL)) {
            byoc_error err;
            if (!(v = opt_value(argc, argv, &i, "--device-param")))
                return 2;
            if (byoc_registry_set_device_spec(reg, v, &err) != 0) {
                print_error(&err);
                return 2;
            }
        } else if ((allowed & OPT_SEARCH) && opt_is(a, "--search", NULL)) {
            if (!(v = opt_value(argc, argv, &i, "--search")) || parse_search(c, v) < 0)
                return 2;
        } else if ((allowed & OPT_COST) && opt_is(a, "--cost", NULL)) {
            if (!(v = opt_value(argc, argv, &i, "--cost")))
                return 2;
            if (!strcmp(v, "analytic"))
                c->cost = NULL;
            else if (!strncmp(v, "table:", 6) && v[6])
                c->cost = v + 6;
            else {
                fprintf(stderr, "byoc: error: unknown cost model '%s' (analytic or table:FILE)\n",
                        v);
                return 2;
            }
        } else if ((allowed & OPT_FORMAT) && opt_is(a, "--format", "-f")) {
            if (!(v = opt_value(argc, argv, &i, "--format")))
                return 2;
            static const char *const fmts[] = {"text", "json", "relay", "dot", "svg", "png",
                                               "onnx", "onnx-annotated"};
            bool ok = false;
            for (size_t k = 0; k < sizeof fmts / sizeof *fmts; k++)
                ok |= !strcmp(v, fmts[k]);
            if (!ok) {
                fprintf(stderr,
                        "byoc: error: unknown output format '%s' (text, json, relay, dot, "
                        "svg, png, onnx or onnx-annotated)\n", v);
                return 2;
            }
            if (!strcmp(c->cmd, "kernels") && strcmp(v, "relay") != 0 && strcmp(v, "onnx") != 0) {
                fprintf(stderr, "byoc: error: kernels are written as relay or onnx, not '%s'\n",
                        v);
                return 2;
            }
            c->format = v;
        } else if ((allowed & OPT_OUTPUT) && opt_is(a, "--output", "-o")) {
            if (!(v = opt_value(argc, argv, &i, "--output")))
                return 2;
            c->output = v;
        } else if ((allowed & OPT_STATES) && opt_is(a, "--max-states", NULL)) {
            if (!(v = opt_value(argc, argv, &i, "--max-states")))
                return 2;
            char *end;
            errno = 0;
            unsigned long long n = strtoull(v, &end, 10);
            if (errno || *end || end == v || n == 0 || v[0] == '-') {
                fprintf(stderr, "byoc: error: --max-states needs a positive number, not '%s'\n",
                        v);
                return 2;
            }
            c->max_states = (size_t)n;
        } else if ((allowed & OPT_STATES) && opt_is(a, "--time-limit", NULL)) {
            if (!(v = opt_value(argc, argv, &i, "--time-limit")))
                return 2;
            char *end;
            errno = 0;
            double t = strtod(v, &end);
            if (errno || *end || end == v || !(t > 0) || isinf(t)) {
                fprintf(stderr, "byoc: error: --time-limit needs a positive number of "
                                "seconds, not '%s'\n", v);
                return 2;
            }
            c->time_limit = t;
        } else if ((allowed & OPT_STRICT) && !strcmp(a, "--strict")) {
            c->strict = true;
        } else if ((allowed & OPT_STATS) && !strcmp(a, "--stats")) {
            c->stats = true;
        } else if ((allowed & OPT_FORMAT) && !strcmp(a, "--rewrite")) {
            c->rewrite = true;
        } else if ((allowed & OPT_NODE) && opt_is(a, "--node", "-n")) {
            if (!(v = opt_value(argc, argv, &i, "--node")))
                return 2;
            c->node = v;
        } else if (needs_model && opt_is(a, "--dim", NULL)) {
            if (!(v = opt_value(argc, argv, &i, "--dim")) || parse_dim(c, v) < 0)
                return 2;
        } else if (needs_model && opt_is(a, "--input-shape", NULL)) {
            if (!(v = opt_value(argc, argv, &i, "--input-shape")) || parse_input_shape(c, v) < 0)
                return 2;
        } else if (opt_is(a, "--input-format", NULL)) {
            if (!(v = opt_value(argc, argv, &i, "--input-format")) ||
                parse_format(v, &c->input) != 0)
                return 2;
        } else if (opt_is(a, "--quantized-layout", NULL)) {
            if (!(v = opt_value(argc, argv, &i, "--quantized-layout")))
                return 2;
            if (strcmp(v, "NHWC") != 0 && strcmp(v, "NCHW") != 0) {
                fprintf(stderr, "byoc: error: unknown quantized layout '%s' (NCHW or NHWC)\n", v);
                return 2;
            }
            c->read.quantized_nhwc = strcmp(v, "NHWC") == 0;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "byoc: error: unknown option '%s' for %s\n", a, c->cmd);
            return 2;
        } else if (c->model || !needs_model) {
            fprintf(stderr, "byoc: error: unexpected argument '%s' for %s\n", a, c->cmd);
            return 2;
        } else {
            c->model = a;
        }
    }
    if (needs_model && !c->model) {
        fprintf(stderr, "byoc: error: %s needs a model file\n", c->cmd);
        return 2;
    }
    if ((allowed & OPT_NODE) && !c->node) {
        fprintf(stderr, "byoc: error: %s needs --node NODE (%%42, a name, or #id)\n", c->cmd);
        return 2;
    }
    bool onnx_out = c->format && !strncmp(c->format, "onnx", 4);
    if (onnx_out && !c->output) {
        fprintf(stderr, "byoc: error: -f %s needs -o %s\n", c->format,
                strcmp(c->format, "onnx") ? "FILE.onnx" : "DIR (a folder that does not exist)");
        return 2;
    }
    if (c->strict && !c->cost) {
        fprintf(stderr, "byoc: error: --strict goes with --cost table:FILE\n");
        return 2;
    }
    if (c->rewrite && !(c->format && !strcmp(c->format, "onnx"))) {
        fprintf(stderr, "byoc: error: --rewrite goes with -f onnx\n");
        return 2;
    }
    return 0;
}

void fill_options(const cli_opts *c, byoc_partition_options *o,
                         const byoc_cost_table *table)
{
    byoc_partition_options_init(o);
    o->targets = c->targets;
    o->ntargets = c->ntargets;
    o->strategy = c->strategy;
    o->single = c->single;
    o->table = table;
    o->strict_table = c->strict;
    o->max_states = c->max_states;
    o->time_limit = c->time_limit;
}

void report_fallback(const cli_opts *c, const byoc_result *r)
{
    if (!c->cost || !r->kernels_fallback)
        return;
    size_t parts = (size_t)r->npartitions - r->from_table - r->from_callback;
    fprintf(stderr,
            "byoc: warning: %zu of %zu kernels are not in the cost table '%s' and were "
            "priced by the analytic model (%zu of the %d partitions chosen); --strict "
            "makes this an error\n",
            r->kernels_fallback, r->nkernels, c->cost, parts, r->npartitions);
}

/* Read the cost table named by --cost table:FILE (NULL when none); on
 * error prints it and sets *failed. */
static byoc_cost_table *load_table(const cli_opts *c, bool *failed)
{
    *failed = false;
    if (!c->cost)
        return NULL;
    byoc_error err;
    byoc_cost_table *t = byoc_cost_table_read(c->cost, &err);
    if (!t) {
        print_error(&err);
        *failed = true;
    }
    return t;
}

/* Begin a command on a model: parse its arguments, then read the cost
 * table and the model.  Returns -1 to go on, with *table (may be NULL)
 * and *g set; else the exit status, everything already reported. */
int start_command(byoc_registry *reg, cli_opts *c, int argc, char **argv,
                         unsigned allowed, byoc_cost_table **table, byoc_graph **g)
{
    *table = NULL;
    *g = NULL;
    int prc = parse_cli(reg, c, argc, argv, allowed, true);
    if (prc)
        return prc == 1 ? 0 : prc;
    /* Unknown targets are bad usage, found before any file is read. */
    byoc_partition_options o;
    fill_options(c, &o, NULL);
    byoc_error err;
    if (byoc_partition_targets(reg, &o, NULL, 0, &err) < 0) {
        print_error(&err);
        return 2;
    }
    bool failed;
    *table = load_table(c, &failed);
    if (failed)
        return 1;
    *g = load_model(reg, c->model, c->input, &c->read);
    if (!*g) {
        byoc_cost_table_destroy(*table);
        *table = NULL;
        return 1;
    }
    return -1;
}

/* ---- output files: all or nothing ------------------------------------------- */

int out_open(out_file *o, const char *path)
{
    o->path = path;
    o->tmp = NULL;
    if (!path) {
        o->f = stdout;
        return 0;
    }
    size_t n = strlen(path);
    o->tmp = malloc(n + 16);
    if (!o->tmp)
        return -1;
    snprintf(o->tmp, n + 16, "%s%s", path, TMP_SUFFIX);
    int fd = mkstemp(o->tmp);
    /* mkstemp makes the file private; give it the mode a plain create
     * would (or the mode of the file it replaces). */
    struct stat st;
    mode_t mode;
    if (stat(path, &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fd >= 0 && fchmod(fd, mode) != 0) {
        close(fd);
        unlink(o->tmp);
        fd = -1;
    }
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        fprintf(stderr, "byoc: error: cannot write '%s': %s\n", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        free(o->tmp);
        o->tmp = NULL;
        return -1;
    }
    return 0;
}

/* Finish: ok says whether everything was written; on success the file
 * takes its name, else it is removed.  Returns 0 or 1. */
int out_close(out_file *o, bool ok)
{
    if (!o->path) {
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "byoc: error: writing standard output: %s\n", strerror(errno));
            return 1;
        }
        return ok ? 0 : 1;
    }
    if (fclose(o->f) != 0 && ok) {
        fprintf(stderr, "byoc: error: cannot write '%s': %s\n", o->path, strerror(errno));
        ok = false;
    }
    if (ok && rename(o->tmp, o->path) != 0) {
        fprintf(stderr, "byoc: error: cannot write '%s': %s\n", o->path, strerror(errno));
        ok = false;
    }
    if (!ok)
        unlink(o->tmp);
    free(o->tmp);
    return ok ? 0 : 1;
}

/* Run Graphviz: dot -T<fmt> -o out in.  Returns 0 or 1 (reported). */
static int run_dot(const char *fmt, const char *in, const char *out)
{
    char tflag[16];
    snprintf(tflag, sizeof tflag, "-T%s", fmt);
    char *args[] = {"dot", tflag, "-o", (char *)out, (char *)in, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, "dot", NULL, NULL, args, environ);
    if (rc != 0) {
        fprintf(stderr,
                "byoc: error: the %s format needs Graphviz's 'dot' on PATH (%s); "
                "-f dot writes the graph without it\n", fmt, strerror(rc));
        return 1;
    }
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "byoc: error: dot failed to render the %s\n", fmt);
        return 1;
    }
    return 0;
}

/* Write r in the chosen format to c->output (or standard output). */
static int write_result(const cli_opts *c, const byoc_result *r)
{
    const char *fmt = c->format ? c->format : "text";
    byoc_error err;
    byoc_error_clear(&err);
    if (!strcmp(fmt, "onnx") || !strcmp(fmt, "onnx-annotated")) {
        const char *model = c->input == FMT_RELAY ||
                                    (c->input == FMT_AUTO && format_of(c->model) == FMT_RELAY)
                                ? NULL : c->model;
        int wrc;
        if (!strcmp(fmt, "onnx")) {
            byoc_onnx_write_options wo = {.rewrite = c->rewrite};
            wrc = byoc_result_write_onnx(r, model, c->output, &wo, &err);
        } else
            wrc = byoc_result_write_onnx_annotated(r, model, c->output, &err);
        if (wrc != 0)
            print_error(&err);
        return wrc != 0;
    }
    bool picture = !strcmp(fmt, "svg") || !strcmp(fmt, "png");
    if (picture) {
        char dotpath[] = "/tmp/byoc-dot" TMP_SUFFIX;
        int fd = mkstemp(dotpath);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!f) {
            fprintf(stderr, "byoc: error: cannot make a temporary file: %s\n", strerror(errno));
            if (fd >= 0) {
                close(fd);
                unlink(dotpath);
            }
            return 1;
        }
        int wrc = byoc_result_write_dot(r, f, &err);
        if (fclose(f) != 0 || wrc != 0) {
            if (wrc != 0)
                print_error(&err);
            else
                fprintf(stderr, "byoc: error: writing a temporary file: %s\n", strerror(errno));
            unlink(dotpath);
            return 1;
        }
        out_file o;
        if (out_open(&o, c->output) != 0) {
            unlink(dotpath);
            return 1;
        }
        int rc;
        if (o.path) {
            rc = run_dot(fmt, dotpath, o.tmp);
            rc = out_close(&o, rc == 0);
        } else {
            fflush(stdout);
            rc = run_dot(fmt, dotpath, "/dev/stdout");
        }
        unlink(dotpath);
        return rc;
    }
    out_file o;
    if (out_open(&o, c->output) != 0)
        return 1;
    int wrc;
    if (!strcmp(fmt, "json"))
        wrc = byoc_result_write_json(r, o.f, &err);
    else if (!strcmp(fmt, "relay"))
        wrc = byoc_result_write_relay(r, o.f, &err);
    else if (!strcmp(fmt, "dot"))
        wrc = byoc_result_write_dot(r, o.f, &err);
    else
        wrc = byoc_result_write_text(r, o.f, &err);
    if (wrc != 0)
        print_error(&err);
    return out_close(&o, wrc == 0);
}

/* ---- partition -------------------------------------------------------------- */

static void print_stats(const byoc_result *r)
{
    char how[96];
    fprintf(stderr,
            "byoc: %s search, %s: %zu candidates, %zu kernels, %zu states expanded; "
            "candidates and costs %.3f ms, search %.3f ms\n",
            r->strategy, byoc_result_optimality(r, how, sizeof how), r->ncandidates,
            r->nkernels, r->expanded, r->candidate_seconds * 1e3, r->search_seconds * 1e3);
}

static int cmd_partition(byoc_registry *reg, int argc, char **argv)
{
    cli_opts c = {.cmd = "partition"};
    byoc_cost_table *table;
    byoc_graph *g;
    int rc = start_command(reg, &c, argc, argv,
                           OPT_TARGETS | OPT_OPTION | OPT_SEARCH | OPT_COST | OPT_STRICT |
                               OPT_FORMAT | OPT_OUTPUT | OPT_STATES | OPT_STATS,
                           &table, &g);
    if (rc < 0) {
        rc = 1;
        byoc_partition_options o;
        fill_options(&c, &o, table);
        byoc_error err;
        byoc_result *r = byoc_partition_graph(g, &o, &err);
        if (!r) {
            print_error(&err);
        } else {
            rc = write_result(&c, r);
            report_fallback(&c, r);
            if (c.stats)
                print_stats(r);
            byoc_result_destroy(r);
        }
        byoc_graph_destroy(g);
    }
    byoc_cost_table_destroy(table);
    cli_opts_free(&c);
    return rc;
}

/* ---- compare ------------------------------------------------------------------ */

typedef struct compare_row {
    char name[160];
    double cost;
    int partitions;
    bool optimal;
    bool ok;
} compare_row;

static void compare_run(const byoc_graph *g, const byoc_partition_options *base,
                        const char *name, const char *const *targets, int ntargets,
                        byoc_strategy strategy, const char *single, compare_row *row,
                        bool stats, const cli_opts *report)
{
    byoc_partition_options o = *base;
    o.targets = targets;
    o.ntargets = ntargets;
    o.strategy = strategy;
    o.single = single;
    byoc_error err;
    snprintf(row->name, sizeof row->name, "%s", name);
    byoc_result *r = byoc_partition_graph(g, &o, &err);
    row->ok = r != NULL;
    if (!r) {
        fprintf(stderr, "byoc: %s: ", name);
        print_error(&err);
        return;
    }
    row->cost = r->cost;
    row->partitions = r->npartitions;
    row->optimal = r->optimal;
    if (report)
        report_fallback(report, r);
    if (stats)
        print_stats(r);
    byoc_result_destroy(r);
}

static int cmd_compare(byoc_registry *reg, int argc, char **argv)
{
    cli_opts c = {.cmd = "compare"};
    byoc_cost_table *table;
    byoc_graph *g;
    const byoc_target_decl **sel = NULL;
    const char **natives = NULL, **all = NULL;
    compare_row *rows = NULL;
    int rc = start_command(reg, &c, argc, argv,
                           OPT_TARGETS | OPT_OPTION | OPT_COST | OPT_STRICT | OPT_STATES |
                               OPT_STATS | OPT_OUTPUT,
                           &table, &g);
    if (rc >= 0)
        goto done;
    rc = 1;
    byoc_partition_options base;
    fill_options(&c, &base, table);
    byoc_error err;
    int n = byoc_partition_targets(reg, &base, NULL, 0, &err);
    if (n < 0) {
        print_error(&err);
        goto done;
    }
    sel = calloc((size_t)n + 1, sizeof *sel);
    natives = calloc((size_t)n + 1, sizeof *natives);
    all = calloc((size_t)n + 1, sizeof *all);
    rows = calloc((size_t)n + 3, sizeof *rows);
    if (!sel || !natives || !all || !rows)
        goto done;
    byoc_partition_targets(reg, &base, sel, n, &err);
    int nn = 0;
    for (int i = 0; i < n; i++) {
        all[i] = sel[i]->name;
        if (byoc_target_supports_all(reg, sel[i]))
            natives[nn++] = sel[i]->name;
    }
    int nrows = 0;
    char name[160];
    snprintf(name, sizeof name, "native (");
    for (int i = 0; i < nn; i++)
        snprintf(name + strlen(name), sizeof name - strlen(name), "%s%s", i ? ", " : "",
                 natives[i]);
    snprintf(name + strlen(name), sizeof name - strlen(name), ")");
    compare_run(g, &base, name, natives, nn, BYOC_SEARCH_OPTIMAL, NULL, &rows[nrows++],
                c.stats, NULL);
    for (int i = 0; i < n; i++) {
        if (byoc_target_supports_all(reg, sel[i]))
            continue;
        snprintf(name, sizeof name, "single:%s", sel[i]->name);
        compare_run(g, &base, name, natives, nn, BYOC_SEARCH_SINGLE, sel[i]->name,
                    &rows[nrows++], c.stats, NULL);
    }
    compare_run(g, &base, "greedy", all, n, BYOC_SEARCH_GREEDY, NULL, &rows[nrows++], c.stats,
                NULL);
    /* Its candidates are every other row's: the one count of the kernels
     * the table lacked. */
    compare_run(g, &base, "optimal", all, n, BYOC_SEARCH_OPTIMAL, NULL, &rows[nrows++],
                c.stats, &c);
    out_file o;
    if (out_open(&o, c.output) != 0)
        goto done;
    int w = 8;
    for (int i = 0; i < nrows; i++)
        if ((int)strlen(rows[i].name) > w)
            w = (int)strlen(rows[i].name);
    fprintf(o.f, "model: %s\n", c.model);
    fprintf(o.f, "%-*s  %14s  %8s  %10s\n", w, "placement", "latency (us)", "speed-up",
            "partitions");
    bool all_ok = true;
    double native = rows[0].ok ? rows[0].cost : NAN;
    for (int i = 0; i < nrows; i++) {
        if (!rows[i].ok) {
            fprintf(o.f, "%-*s  %14s  %8s  %10s\n", w, rows[i].name, "failed", "-", "-");
            all_ok = false;
            continue;
        }
        char speed[32] = "-";
        if (isfinite(native) && rows[i].cost > 0)
            snprintf(speed, sizeof speed, "%.2fx", native / rows[i].cost);
        fprintf(o.f, "%-*s  %14.3f  %8s  %10d%s\n", w, rows[i].name, rows[i].cost * 1e6, speed,
                rows[i].partitions, rows[i].optimal || !strcmp(rows[i].name, "greedy")
                                        ? "" : "  (not proven optimal)");
    }
    rc = out_close(&o, all_ok);
done:
    free(sel);
    free(natives);
    free(all);
    free(rows);
    byoc_graph_destroy(g);
    byoc_cost_table_destroy(table);
    cli_opts_free(&c);
    return rc;
}

/* ---- explain ------------------------------------------------------------------ */

/* A node named as %42 / 42 (the model's name), a plain name, or #id. */
static int find_node(const byoc_graph *g, const char *spec)
{
    int n = byoc_graph_node_count(g);
    if (spec[0] == '#') {
        char *end;
        long id = strtol(spec + 1, &end, 10);
        return (*end || end == spec + 1 || id < 0 || id >= n) ? -1 : (int)id;
    }
    const char *bare = spec[0] == '%' ? spec + 1 : spec;
    for (int i = 0; i < n; i++) {
        const char *name = byoc_node_name(g, i);
        if (!name)
            continue;
        const char *nb = name[0] == '%' ? name + 1 : name;
        if (!strcmp(nb, bare))
            return i;
    }
    return -1;
}

static int cmd_explain(byoc_registry *reg, int argc, char **argv)
{
    cli_opts c = {.cmd = "explain"};
    byoc_cost_table *table;
    byoc_graph *g;
    int rc = start_command(reg, &c, argc, argv,
                           OPT_TARGETS | OPT_OPTION | OPT_COST | OPT_STRICT | OPT_NODE |
                               OPT_OUTPUT, &table,
                           &g);
    if (rc >= 0) {
        cli_opts_free(&c);
        return rc;
    }
    rc = 1;
    /* -t selects the targets searched as it does for partition: exactly
     * these, plus the native target of each device they use; the ones
     * named are the ones explained.  Without -t, the default targets,
     * each explained. */
    byoc_partition_options o;
    fill_options(&c, &o, table);
    byoc_error err;
    int node = find_node(g, c.node);
    if (node < 0) {
        fprintf(stderr, "byoc: error: %s has no node '%s'\n", c.model, c.node);
        goto done;
    }
    out_file out;
    if (out_open(&out, c.output) == 0) {
        int erc = byoc_explain(g, node, c.targets, c.ntargets, &o, out.f, &err);
        if (erc != 0)
            print_error(&err);
        rc = out_close(&out, erc == 0);
    }
done:
    byoc_graph_destroy(g);
    byoc_cost_table_destroy(table);
    cli_opts_free(&c);
    return rc;
}

/* ---- matches ------------------------------------------------------------------ */

static int cmd_matches(byoc_registry *reg, int argc, char **argv)
{
    cli_opts c = {.cmd = "matches"};
    byoc_cost_table *table;
    byoc_graph *g;
    int rc = start_command(reg, &c, argc, argv, OPT_TARGETS | OPT_OPTION | OPT_OUTPUT, &table,
                           &g);
    if (rc < 0) {
        rc = 1;
        byoc_partition_options o;
        fill_options(&c, &o, NULL);
        out_file out;
        if (out_open(&out, c.output) == 0) {
            byoc_error err;
            int mrc = byoc_write_matches(g, &o, out.f, &err);
            if (mrc != 0)
                print_error(&err);
            rc = out_close(&out, mrc == 0);
        }
        byoc_graph_destroy(g);
    }
    cli_opts_free(&c);
    return rc;
}

/* ---- kernels ------------------------------------------------------------------ */

/* -f onnx: the kernels as ONNX models in a folder; each one that has no
 * ONNX form is a warning, the others are written. */
static int kernels_onnx(const cli_opts *c, const byoc_graph *g, const byoc_partition_options *o)
{
    byoc_kernel_write_options wo = {.rewrite = c->rewrite};
    wo.model_path = c->input == FMT_RELAY || (c->input == FMT_AUTO && format_of(c->model) == FMT_RELAY)
                        ? NULL : c->model;
    byoc_error err;
    byoc_kernel_files *k = byoc_write_kernels_onnx(g, o, &wo, c->output, &err);
    if (!k) {
        print_error(&err);
        return 1;
    }
    for (size_t i = 0; i < byoc_kernel_files_count(k); i++) {
        const byoc_kernel_file *f = byoc_kernel_files_at(k, i);
        if (!f->file)
            fprintf(stderr, "byoc: warning: kernel %zu (%s) not written: %s\n", i, f->target,
                    f->why);
    }
    byoc_kernel_files_destroy(k);
    return 0;
}

static int cmd_kernels(byoc_registry *reg, int argc, char **argv)
{
    cli_opts c = {.cmd = "kernels"};
    byoc_cost_table *table;
    byoc_graph *g;
    int rc = start_command(reg, &c, argc, argv,
                           OPT_TARGETS | OPT_OPTION | OPT_COST | OPT_FORMAT | OPT_OUTPUT, &table,
                           &g);
    if (rc < 0 && c.format && !strcmp(c.format, "onnx")) {
        byoc_partition_options o;
        fill_options(&c, &o, table);
        rc = kernels_onnx(&c, g, &o);
        byoc_graph_destroy(g);
    } else if (rc < 0) {
        rc = 1;
        byoc_partition_options o;
        fill_options(&c, &o, table);
        out_file out;
        if (out_open(&out, c.output) == 0) {
            byoc_error err;
            int krc = byoc_write_kernels(g, &o, out.f, &err);
            if (krc != 0)
                print_error(&err);
            rc = out_close(&out, krc == 0);
        }
        byoc_graph_destroy(g);
    }
    byoc_cost_table_destroy(table);
    cli_opts_free(&c);
    return rc;
}

/* ---- targets ------------------------------------------------------------------ */

static void print_si(FILE *f, double v, const char *unit)
{
    static const char *const prefix[] = {"", "k", "M", "G", "T", "P", "E"};
    int p = 0;
    while (v >= 1000 && p < 6) {
        v /= 1000;
        p++;
    }
    fprintf(f, "%.4g %s%s", v, prefix[p], unit);
}

static void print_seconds(FILE *f, double s)
{
    if (s < 1e-3)
        fprintf(f, "%.4g us", s * 1e6);
    else if (s < 1)
        fprintf(f, "%.4g ms", s * 1e3);
    else
        fprintf(f, "%.4g s", s);
}

static void print_target(FILE *f, const byoc_registry *reg, const byoc_target_decl *t,
                         int depth)
{
    fprintf(f, "%*s%s", 2 + 2 * depth, "", t->name);
    byoc_fusion fu = byoc_target_fusion(reg, t);
    if (byoc_target_supports_all(reg, t))
        fprintf(f, "  supports *");
    fprintf(f, "  fusion %s", byoc_fusion_name(fu));
    if (byoc_target_max_depth(reg, t))
        fprintf(f, ", max_depth %d", byoc_target_max_depth(reg, t));
    if (byoc_target_max_nodes(reg, t))
        fprintf(f, ", max_nodes %d", byoc_target_max_nodes(reg, t));
    if (byoc_target_max_exits(reg, t))
        fprintf(f, ", max_exits %d", byoc_target_max_exits(reg, t));
    fprintf(f, ", efficiency %g", byoc_target_efficiency(reg, t));
    fprintf(f, "; %d rules, %d patterns, %d partition rules\n", byoc_target_rule_count(reg, t),
            byoc_target_pattern_count(reg, t), byoc_target_partition_rule_count(reg, t));
    const byoc_value *vals = byoc_target_options(reg, t);
    for (int i = 0; i < t->noptions; i++) {
        char ty[64], val[256];
        byoc_type_format(&t->options[i].type, ty, sizeof ty);
        byoc_value_format(&vals[i], val, sizeof val);
        fprintf(f, "%*soption %s: %s = %s\n", 6 + 2 * depth, "", t->options[i].name, ty, val);
    }
    /* The runtime and the lowering passes as the language writes them;
     * inherited ones name the target that declares them. */
    const char *runtime = byoc_target_runtime(reg, t);
    if (runtime) {
        byoc_value rv = {.kind = BYOC_V_STRING, .u.s = runtime};
        char val[256];
        byoc_value_format(&rv, val, sizeof val);
        fprintf(f, "%*sruntime %s\n", 6 + 2 * depth, "", val);
    }
    const byoc_target_decl *owner;
    int npasses = byoc_target_pass_count(reg, t, &owner);
    for (int i = 0; i < npasses; i++) {
        const byoc_pass_decl *p = byoc_target_pass_at(reg, t, i);
        fprintf(f, "%*slower %s%s%s", 6 + 2 * depth, "",
                p->point == BYOC_PASS_PARTITION ? "" : byoc_pass_point_name(p->point),
                p->point == BYOC_PASS_PARTITION ? "" : " ", p->name);
        if (owner != t)
            fprintf(f, " (from %s)", owner->name);
        fputc('\n', f);
    }
    int n = byoc_registry_target_count(reg);
    for (int i = 0; i < n; i++) {
        const byoc_target_decl *u = byoc_registry_target_at(reg, i);
        if (byoc_target_parent(reg, u) == t)
            print_target(f, reg, u, depth + 1);
    }
}

static int cmd_targets(byoc_registry *reg, int argc, char **argv)
{
    cli_opts c = {.cmd = "targets"};
    int prc = parse_cli(reg, &c, argc, argv, OPT_OPTION | OPT_OUTPUT, false);
    if (prc) {
        cli_opts_free(&c);
        return prc == 1 ? 0 : prc;
    }
    out_file o;
    if (out_open(&o, c.output) != 0) {
        cli_opts_free(&c);
        return 1;
    }
    FILE *f = o.f;
    for (int d = 0; d < byoc_registry_device_count(reg); d++) {
        const byoc_device_decl *dev = byoc_registry_device_at(reg, d);
        fprintf(f, "device %s:", dev->name);
        for (int i = 0; i < dev->npeaks; i++) {
            fprintf(f, "%s %s ", i ? "," : "", byoc_dtype_name(dev->peaks[i].dtype));
            print_si(f, dev->peaks[i].flops, "FLOP/s");
        }
        fprintf(f, "; bandwidth ");
        print_si(f, dev->bandwidth, "B/s");
        fprintf(f, "; launch ");
        print_seconds(f, dev->launch);
        if (dev->inner_launch > 0) {
            fprintf(f, " (inner ");
            print_seconds(f, dev->inner_launch);
            fputc(')', f);
        }
        if (dev->units > 0)
            fprintf(f, "; %d units, grain %.4g FLOP", dev->units, dev->grain);
        fputc('\n', f);
        for (int i = 0; i < byoc_registry_target_count(reg); i++) {
            const byoc_target_decl *t = byoc_registry_target_at(reg, i);
            if (t->parent_is_device && byoc_target_device(reg, t) == dev)
                print_target(f, reg, t, 0);
        }
    }
    for (int i = 0; i < byoc_registry_link_count(reg); i++) {
        const byoc_link_decl *l = byoc_registry_link_at(reg, i);
        fprintf(f, "link %s %s %s: bandwidth ", l->from, l->both_ways ? "<->" : "->", l->to);
        print_si(f, l->bandwidth, "B/s");
        fprintf(f, ", latency ");
        print_seconds(f, l->latency);
        fputc('\n', f);
    }
    cli_opts_free(&c);
    return out_close(&o, true);
}

/* ---- info ------------------------------------------------------------------- */

typedef struct op_count {
    const char *name;
    int n;
} op_count;

static int by_count(const void *a, const void *b)
{
    const op_count *x = a, *y = b;
    if (x->n != y->n)
        return y->n - x->n;
    return strcmp(x->name, y->name);
}

static void print_type(const byoc_graph *g, int node)
{
    size_t n = byoc_relay_format_node_type(g, node, NULL, 0);
    char *buf = malloc(n + 1);
    if (!buf) {
        fputs("byoc: error: out of memory\n", stderr);
        exit(1);
    }
    byoc_relay_format_node_type(g, node, buf, n + 1);
    fputs(buf, stdout);
    free(buf);
}

static void print_flops(double f)
{
    static const char *const units[] = {"", "K", "M", "G", "T", "P"};
    int u = 0;
    while (f >= 1000 && u < 5) {
        f /= 1000;
        u++;
    }
    printf("%.3g %sFLOP", f, units[u]);
}

/* Does node i's type, or an argument's, have a symbolic dimension? */
static bool has_symbol(const byoc_graph *g, int node)
{
    for (int a = -1; a < byoc_node_arg_count(g, node); a++) {
        const byoc_tensor_type *t = byoc_node_type(g, a < 0 ? node : byoc_node_arg(g, node, a), -1);
        for (int k = 0; t && k < t->rank; k++)
            if (t->dims[k] <= -2)
                return true;
    }
    return false;
}

/* The model's named dimensions: those the graph's types still use, and
 * those bound by --dim or --input-shape; names only intermediate
 * declarations use (torch's unk__N) are counted, not listed. */
static void print_symbols(const byoc_graph *g)
{
    int ns = byoc_graph_symbol_count(g), n = byoc_graph_node_count(g);
    if (ns == 0)
        return;
    bool *used = calloc((size_t)ns, sizeof *used);
    if (!used)
        return;
    for (int i = 0; i < n; i++) {
        const byoc_tensor_type *t = byoc_node_type(g, i, -1);
        for (int k = 0; t && k < t->rank; k++)
            if (t->dims[k] <= -2 && -2 - t->dims[k] < ns)
                used[-2 - t->dims[k]] = true;
    }
    int shown = 0, hidden = 0;
    for (int id = 0; id < ns; id++) {
        int64_t v = byoc_graph_symbol_value(g, id);
        if (v < 0 && !used[id]) {
            hidden++;
            continue;
        }
        printf("%s%s", shown++ ? ", " : "symbolic dimensions: ", byoc_graph_symbol_name(g, id));
        if (v >= 0)
            printf(" = %lld (bound)", (long long)v);
        else
            printf(" (free)");
    }
    if (shown && hidden)
        printf("; %d more named only by declarations the graph does not need", hidden);
    else if (hidden)
        printf("symbolic dimensions: %d, named only by declarations the graph does not need",
               hidden);
    putchar('\n');
    free(used);
}

/* Which calls have no FLOP count, by op, and why when it is a free
 * dimension. */
static void print_unknown_flops(const byoc_graph *g)
{
    int n = byoc_graph_node_count(g), total = 0, symbolic = 0, nops = 0;
    op_count *ops = calloc((size_t)n + 1, sizeof *ops);
    if (!ops)
        return;
    for (int i = 0; i < n; i++) {
        if (byoc_node_kind_of(g, i) != BYOC_N_CALL || byoc_node_flops(g, i) >= 0)
            continue;
        total++;
        symbolic += has_symbol(g, i);
        const char *name = byoc_node_op_name(g, i);
        int j = 0;
        while (j < nops && strcmp(ops[j].name, name) != 0)
            j++;
        if (j == nops)
            ops[nops++] = (op_count){name, 0};
        ops[j].n++;
    }
    qsort(ops, (size_t)nops, sizeof(*ops), by_count);
    printf("calls without a FLOP count: %d (", total);
    for (int j = 0; j < nops && j < 8; j++)
        printf("%s%s %d", j ? ", " : "", ops[j].name, ops[j].n);
    printf("%s)\n", nops > 8 ? ", ..." : "");
    if (symbolic)
        printf("  %d of them have free dimensions: bind them with --dim NAME=SIZE or "
               "--input-shape INPUT=SHAPE; until then they are costed as kernel launches "
               "only\n", symbolic);
    free(ops);
}

/* Control flow (ONNX If, Loop, Scan kept as one call): each host call's
 * subgraphs, with what is inside them.  The recursion is bounded by
 * BYOC_MAX_GRAPH_DEPTH, which the graph API enforces. */

/* Calls in g and in all the subgraphs it holds. */
static long total_calls(const byoc_graph *g)
{
    long n = 0;
    for (int i = 0; i < byoc_graph_node_count(g); i++) {
        n += byoc_node_kind_of(g, i) == BYOC_N_CALL;
        for (int k = 0; k < byoc_node_subgraph_count(g, i); k++)
            n += total_calls(byoc_node_subgraph(g, i, k));
    }
    return n;
}

static void print_subgraphs(const byoc_registry *reg, const byoc_graph *g, int indent)
{
    for (int i = 0; i < byoc_graph_node_count(g); i++) {
        int nsubs = byoc_node_subgraph_count(g, i);
        if (!nsubs)
            continue;
        const char *name = byoc_node_name(g, i);
        if (name)
            printf("%*s%s", indent, "", name);
        else
            printf("%*s#%d", indent, "", i);   /* its id in that graph */
        printf(" (%s): %d subgraph%s\n", byoc_node_op_name(g, i), nsubs, nsubs == 1 ? "" : "s");
        for (int k = 0; k < nsubs; k++) {
            const byoc_graph *s = byoc_node_subgraph(g, i, k);
            int n = byoc_graph_node_count(s), calls = 0, inputs = 0, untyped = 0, opaque = 0;
            op_count *ops = calloc((size_t)n + 1, sizeof(*ops));
            if (!ops) {
                fputs("byoc: error: out of memory\n", stderr);
                exit(1);
            }
            int nops = 0;
            for (int j = 0; j < n; j++) {
                byoc_node_kind kind = byoc_node_kind_of(s, j);
                inputs += kind == BYOC_N_INPUT;
                untyped += byoc_node_untyped_reason(s, j) != NULL;
                if (kind != BYOC_N_CALL)
                    continue;
                calls++;
                opaque += byoc_node_is_opaque(s, j);
                const char *op = byoc_node_op_name(s, j);
                int m = 0;
                while (m < nops && strcmp(ops[m].name, op) != 0)
                    m++;
                if (m == nops)
                    ops[nops++] = (op_count){op, 0};
                ops[m].n++;
            }
            qsort(ops, (size_t)nops, sizeof(*ops), by_count);
            printf("%*s%s: %d nodes, %d inputs, %d calls (%d kinds), %d untyped, %d opaque\n",
                   indent + 2, "", byoc_node_subgraph_name(g, i, k), n, inputs, calls, nops,
                   untyped, opaque);
            for (int m = 0; m < nops; m++)
                printf("%*s%6d  %s%s\n", indent + 4, "", ops[m].n, ops[m].name,
                       byoc_registry_op(reg, ops[m].name) ? "" : "  (opaque)");
            free(ops);
            print_subgraphs(reg, s, indent + 4);
        }
    }
}

/* The host calls of the main graph and their subgraphs, and a word when
 * most of the model is inside them. */
static void print_control_flow(const byoc_registry *reg, const byoc_graph *g)
{
    int hosts = 0, subs = 0, calls = 0;
    for (int i = 0; i < byoc_graph_node_count(g); i++) {
        calls += byoc_node_kind_of(g, i) == BYOC_N_CALL;
        hosts += byoc_node_subgraph_count(g, i) > 0;
        subs += byoc_node_subgraph_count(g, i);
    }
    if (!hosts)
        return;
    long inside = total_calls(g) - calls;
    int outside = calls - hosts;
    printf("control flow: %d call%s holding %d subgraph%s, %ld call%s inside\n", hosts,
           hosts == 1 ? "" : "s", subs, subs == 1 ? "" : "s", inside, inside == 1 ? "" : "s");
    print_subgraphs(reg, g, 2);
    if (outside == 0)
        printf("the main graph has no calls outside control flow: %ld call%s %s inside "
               "If/Loop/Scan subgraphs\n",
               inside, inside == 1 ? "" : "s", inside == 1 ? "is" : "are");
    else if (inside > outside)
        printf("most calls are inside control flow: the main graph has %d outside "
               "If/Loop/Scan, their subgraphs %ld\n",
               outside, inside);
}

static int cmd_info(byoc_registry *reg, int argc, char **argv)
{
    cli_opts c = {.cmd = "info"};
    int prc = parse_cli(reg, &c, argc, argv, 0, true);
    if (prc) {
        cli_opts_free(&c);
        return prc == 1 ? 0 : prc;
    }
    const char *path = c.model;
    byoc_graph *g = load_model(reg, path, c.input, &c.read);
    cli_opts_free(&c);
    if (!g)
        return 1;
    int n = byoc_graph_node_count(g);
    int counts[5] = {0};
    op_count *ops = calloc((size_t)n + 1, sizeof(*ops));
    int nops = 0, untyped = 0, opaque = 0;
    double flops = 0;
    bool flops_known = true;
    for (int i = 0; i < n; i++) {
        byoc_node_kind k = byoc_node_kind_of(g, i);
        counts[k]++;
        if (byoc_node_untyped_reason(g, i))
            untyped++;
        if (k != BYOC_N_CALL)
            continue;
        if (byoc_node_is_opaque(g, i))
            opaque++;
        const char *name = byoc_node_op_name(g, i);
        int j = 0;
        while (j < nops && strcmp(ops[j].name, name) != 0)
            j++;
        if (j == nops)
            ops[nops++] = (op_count){name, 0};
        ops[j].n++;
        double f = byoc_node_flops(g, i);
        if (f < 0)
            flops_known = false;
        else
            flops += f;
    }
    qsort(ops, (size_t)nops, sizeof(*ops), by_count);
    printf("model: %s\n", path);
    printf("nodes: %d (%d calls, %d constants, %d inputs, %d tuples, %d projections)\n", n,
           counts[BYOC_N_CALL], counts[BYOC_N_CONST], counts[BYOC_N_INPUT], counts[BYOC_N_TUPLE],
           counts[BYOC_N_PROJ]);
    printf("inputs:\n");
    for (int i = 0; i < n; i++)
        if (byoc_node_kind_of(g, i) == BYOC_N_INPUT) {
            printf("  %s: ", byoc_node_name(g, i));
            print_type(g, i);
            putchar('\n');
        }
    printf("outputs:\n");
    int out = byoc_graph_output(g);
    if (out >= 0) {
        int nf = byoc_node_kind_of(g, out) == BYOC_N_TUPLE ? byoc_node_arg_count(g, out) : -1;
        if (nf < 0) {
            printf("  ");
            print_type(g, out);
            putchar('\n');
        } else {
            for (int i = 0; i < nf; i++) {
                printf("  ");
                print_type(g, byoc_node_arg(g, out, i));
                putchar('\n');
            }
        }
    }
    print_symbols(g);
    long folded = byoc_graph_folded_count(g);
    if (folded > 0)
        printf("folded at load: %ld nodes (shape arithmetic on known shapes and constants; "
               "not placed)\n", folded);
    printf("operators (%d kinds):\n", nops);
    for (int i = 0; i < nops; i++)
        printf("  %6d  %s%s\n", ops[i].n, ops[i].name,
               byoc_registry_op(reg, ops[i].name) ? "" : "  (opaque)");
    printf("total: ");
    print_flops(flops);
    printf("%s\n", flops_known ? "" : " (some calls have no known FLOP count)");
    if (!flops_known)
        print_unknown_flops(g);
    printf("untyped nodes: %d\n", untyped);
    for (int i = 0; i < n; i++) {
        const char *why = byoc_node_untyped_reason(g, i);
        if (why)
            printf("  %s: %s\n", byoc_node_name(g, i) ? byoc_node_name(g, i) : "?", why);
    }
    printf("opaque calls: %d\n", opaque);
    print_control_flow(reg, g);
    int notes = byoc_graph_note_count(g);
    if (notes) {
        printf("notes:\n");
        for (int i = 0; i < notes; i++)
            printf("  %s\n", byoc_graph_note(g, i));
    }
    free(ops);
    byoc_graph_destroy(g);
    return 0;
}

/* ---- plugins ------------------------------------------------------------------ */

/* Load the plugin at path and register its modules into reg.  The handle
 * goes in *handle and must stay open while reg is in use: reg points into
 * the library's tables.  Prints the error and returns -1 on failure. */
static int load_plugin(byoc_registry *reg, const char *path, void **handle,
                       const char *const *before, void *const *before_handles, int nbefore)
{
    *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!*handle) {
        const char *why = dlerror();
        fprintf(stderr, "byoc: error: cannot load plugin '%s': %s\n", path,
                why ? why : "unknown error");
        return -1;
    }
    /* dlopen gives the handle it gave before for a library already loaded,
     * under this name or another (a link, ./lib.so and its full path):
     * registering it again would change nothing, so say so and go on. */
    for (int i = 0; i < nbefore; i++)
        if (before_handles[i] == *handle) {
            fprintf(stderr, "byoc: warning: plugin '%s' is the library '%s' already loaded; "
                            "its targets are registered once\n", path, before[i]);
            return 0;
        }
    dlerror();
    void *sym = dlsym(*handle, BYOC_PLUGIN_ENTRY);
    if (!sym) {
        fprintf(stderr, "byoc: error: plugin '%s' has no entry point '%s' (see <byoc/plugin.h>)\n",
                path, BYOC_PLUGIN_ENTRY);
        return -1;
    }
    /* ISO C has no conversion from void * to a function pointer; POSIX
     * guarantees the representations agree, so copy the bits. */
    byoc_plugin_fn *entry;
    memcpy(&entry, &sym, sizeof entry);
    byoc_error err;
    byoc_error_clear(&err);
    if (entry(reg, &err) != 0) {
        /* The registry's own diagnostic (often file:line:col of the
         * plugin's .byoc source), then which plugin it came from. */
        if (err.msg[0])
            print_error(&err);
        fprintf(stderr, "byoc: %s: plugin '%s' failed to register its targets\n",
                err.msg[0] ? "note" : "error", path);
        return -1;
    }
    return 0;
}

/* main after the global options: argv[0] is the program, argv[1] the
 * command. */
static int run(int argc, char **argv, const char **plugins, int nplugins, void **handles,
               const char *default_device)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("byoc %s\n", byoc_version());
        return 0;
    }
    byoc_registry *reg = byoc_registry_create();
    byoc_error err;
    if (bundled_register(reg, &err) != 0) {
        print_error(&err);
        byoc_registry_destroy(reg);
        return 1;
    }
    for (int i = 0; i < nplugins; i++)
        if (load_plugin(reg, plugins[i], &handles[i], plugins, handles, i) != 0) {
            byoc_registry_destroy(reg);
            return 1;
        }
    if (nplugins && byoc_registry_check(reg, &err) != 0) {
        print_error(&err);
        byoc_registry_destroy(reg);
        return 1;
    }
    /* After the plugins, which may have set it themselves. */
    if (default_device && byoc_registry_set_default_device(reg, default_device, &err) != 0) {
        print_error(&err);
        byoc_registry_destroy(reg);
        return 2;
    }
    int rc;
    static const struct {
        const char *name;
        int (*fn)(byoc_registry *, int, char **);
    } cmds[] = {
        {"info", cmd_info},       {"partition", cmd_partition}, {"compare", cmd_compare},
        {"explain", cmd_explain}, {"matches", cmd_matches}, {"kernels", cmd_kernels},     {"targets", cmd_targets},
        {"cost", cmd_cost},
        {"measure", cmd_measure},
    };
    size_t k = 0;
    while (k < sizeof cmds / sizeof *cmds && strcmp(cmds[k].name, cmd) != 0)
        k++;
    if (k < sizeof cmds / sizeof *cmds) {
        rc = cmds[k].fn(reg, argc - 2, argv + 2);
    } else {
        fprintf(stderr, "byoc: error: unknown command '%s'\n", cmd);
        usage(stderr);
        rc = 2;
    }
    byoc_registry_destroy(reg);
    return rc;
}

int main(int argc, char **argv)
{
    /* Global options come before the command. */
    const char **plugins = calloc((size_t)argc, sizeof *plugins);
    void **handles = calloc((size_t)argc, sizeof *handles);
    if (!plugins || !handles) {
        fprintf(stderr, "byoc: error: out of memory\n");
        return 1;
    }
    int nplugins = 0, argi = 1;
    const char *default_device = NULL;
    while (argi < argc && (opt_is(argv[argi], "--plugin", NULL)
                           || opt_is(argv[argi], "--default-device", NULL))) {
        bool plugin = opt_is(argv[argi], "--plugin", NULL);
        const char *name = plugin ? "--plugin" : "--default-device";
        const char *v = opt_value(argc, argv, &argi, name);
        if (!v || !*v) {
            if (v)
                fprintf(stderr, "byoc: error: %s needs a value\n", name);
            free(plugins);
            free(handles);
            return 2;
        }
        if (plugin)
            plugins[nplugins++] = v;
        else
            default_device = v;
        argi++;
    }
    argc -= argi - 1;
    argv += argi - 1;
    int rc = run(argc, argv, plugins, nplugins, handles, default_device);
    /* After the registry is gone: it pointed into the plugins' tables. */
    for (int i = 0; i < nplugins; i++)
        if (handles[i])
            dlclose(handles[i]);
    free(plugins);
    free(handles);
    return rc;
}
