/* What the byoc command's files share: the options every command on a
 * model parses, starting such a command, errors, and output files that
 * appear whole or not at all.  Defined in cli/main.c; each command in a
 * file of its own (cli/cost.c, cli/measure.c) uses them. */
#ifndef BYOC_CLI_H
#define BYOC_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include <byoc/byoc.h>

typedef enum { FMT_AUTO, FMT_RELAY, FMT_ONNX } model_format;

enum {
    OPT_TARGETS = 1, OPT_OPTION = 2, OPT_SEARCH = 4, OPT_COST = 8, OPT_FORMAT = 16,
    OPT_OUTPUT = 32, OPT_STATES = 64, OPT_STATS = 128, OPT_NODE = 256, OPT_INPUT = 512,
    OPT_STRICT = 1024
};

typedef struct cli_opts {
    const char *cmd;
    const char *model;
    model_format input;
    char *targets_text;          /* owned copy, split in place */
    const char **targets;
    int ntargets;
    byoc_strategy strategy;
    const char *single;
    const char *cost;            /* NULL: analytic */
    bool strict;                 /* --strict: every kernel from the table */
    const char *format;          /* NULL: text */
    const char *output;
    bool rewrite;                /* -f onnx: every call from the graph */
    const char *node;
    size_t max_states;
    double time_limit;
    bool stats;
    byoc_dim_binding *dims;      /* --dim; names are owned copies */
    byoc_input_shape *shapes;    /* --input-shape; the same */
    byoc_read_options read;
} cli_opts;

void cli_opts_free(cli_opts *c);

/* An error with a location reads file:line:col: error: ...; one without
 * is the command's: byoc: error: ... */
void print_error(const byoc_error *e);
/* Is a the option lng ("--x", "--x=V") or shrt ("-x"; may be NULL)? */
bool opt_is(const char *a, const char *lng, const char *shrt);
/* The value of option argv[*i]: "--x=V" or "--x V" / "-x V", with *i
 * moved past it; NULL after reporting a missing value. */
const char *opt_value(int argc, char **argv, int *i, const char *name);

/* On standard error, how many kernels the cost table lacked (priced by
 * the analytic model instead), when it lacked any. */
void report_fallback(const cli_opts *c, const byoc_result *r);

/* Partitioning options from the command line's. */
void fill_options(const cli_opts *c, byoc_partition_options *o, const byoc_cost_table *table);

/* Begin a command on a model: parse its arguments (allowed: OPT_* bits),
 * then read the cost table and the model.  Returns -1 to go on, with
 * *table (may be NULL) and *g set; else the exit status, everything
 * already reported. */
int start_command(byoc_registry *reg, cli_opts *c, int argc, char **argv, unsigned allowed,
                  byoc_cost_table **table, byoc_graph **g);

/* An output file written under a temporary name and renamed at the end. */
typedef struct out_file {
    FILE *f;
    const char *path;      /* NULL: standard output */
    char *tmp;             /* the file written, renamed to path at the end */
} out_file;

/* Open path (NULL: standard output); -1 reported. */
int out_open(out_file *o, const char *path);
/* Finish: ok says whether everything was written; on success the file
 * takes its name, else it is removed.  Returns 0 or 1. */
int out_close(out_file *o, bool ok);

/* The commands in files of their own. */
int cmd_cost(byoc_registry *reg, int argc, char **argv);
int cmd_measure(byoc_registry *reg, int argc, char **argv);

#endif
