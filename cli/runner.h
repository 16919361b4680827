/* Runners: the programs byoc measure times kernels with, and the pool
 * that runs them (doc/cost-table.md, "Measuring with byoc measure").
 *
 * A runner is one of four kinds: a command line with placeholders that
 * prints "seconds: X"; trtexec, whose "GPU Compute Time" median is read;
 * time:CMD, a command timed from outside; and onnxruntime[:EP], a
 * long-lived node worker per job slot (tools/ort-measure.js) fed one
 * kernel per request line.  runner_run runs a list of kernels, up to
 * `jobs` at once, each child in its own process group so that a timeout
 * or Ctrl-C kills everything it started. */
#ifndef BYOC_CLI_RUNNER_H
#define BYOC_CLI_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

typedef enum runner_kind {
    RUNNER_COMMAND,     /* a command line printing "seconds: X" */
    RUNNER_TRTEXEC,     /* NVIDIA's trtexec */
    RUNNER_TIME,        /* time:CMD, timed by byoc */
    RUNNER_ORT          /* onnxruntime[:EP], tools/ort-measure.js workers */
} runner_kind;

typedef struct runner_spec {
    runner_kind kind;
    char *name;         /* canonical: the cache's key and the table's comment */
    char *command;      /* COMMAND, TIME: the template; TRTEXEC: extra
                           arguments appended to its command line, or NULL */
    char *ep;           /* ORT: the execution provider's full name
                           (CPUExecutionProvider); NULL with ep_of_target */
    bool ep_of_target;  /* ORT: each target's runtime names its provider */
} runner_spec;

/* Parse --runner TEXT.  Returns 0, or -1 with why written. */
int runner_spec_parse(runner_spec *r, const char *text, char *why, size_t size);
void runner_spec_free(runner_spec *r);

/* The full name of an execution provider given as a short form (cpu,
 * cuda, dnnl, ...) or a full name in any case; other names are returned
 * as they are.  The node binding's name of a full name, or NULL. */
const char *runner_ep_full_name(const char *ep);

typedef struct runner_config {
    int jobs;            /* at once, >= 1 */
    int warmup, repeat;  /* runs before timing, and timed runs (>= 1) */
    double timeout;      /* seconds per kernel, 0: none */
    double grace;        /* seconds between SIGTERM and SIGKILL */
    const char *device;  /* --device NAME, or NULL: each kernel's own */
    const char *node;    /* the node program (ORT) */
    const char *script;  /* tools/ort-measure.js (ORT) */
    const char *ort_dir; /* --ort DIR, or NULL: node's own search */
    const char *trtexec; /* the trtexec program (TRTEXEC) */
    const char *const *dims;   /* "NAME=SIZE" for the ORT worker */
    int ndims;
} runner_config;

/* One kernel to time. */
typedef struct runner_job {
    const char *model;       /* the kernel's .onnx file */
    const char *target, *device, *runtime, *signature;   /* runtime may be NULL */
    /* results, set when done */
    bool done;
    double seconds;          /* +inf when it could not run */
    char *why;               /* NULL, or why it could not run: one line */
} runner_job;

typedef enum runner_status {
    RUNNER_FINISHED,         /* every job is done */
    RUNNER_INTERRUPTED,      /* SIGINT or SIGTERM: the jobs not done were
                                stopped, their children killed */
    RUNNER_FATAL             /* the runner itself is broken (it cannot
                                start, a provider cannot load): err says
                                why; the job that showed it is not done */
} runner_status;

/* Called with each job as it is done, and with NULL about twice a second
 * (for a progress line). */
typedef void (*runner_done_fn)(runner_job *job, void *ctx);

runner_status runner_run(const runner_spec *r, const runner_config *c, runner_job *jobs,
                         size_t njobs, runner_done_fn done, void *ctx, char *err,
                         size_t errsize);

/* SIGINT, SIGTERM, SIGHUP and SIGQUIT: from runner_signals_install until
 * runner_signals_restore, they only set a flag that runner_run and
 * runner_interrupted see (a second one kills running children at once).
 * runner_run installs them itself when they are not installed. */
void runner_signals_install(void);
void runner_signals_restore(void);
/* Seconds on the monotonic clock. */
double runner_now(void);
/* The signal that arrived (one of those), or 0. */
int runner_interrupted(void);

/* Shell-quote s as one word ('...'). Returns a new string or NULL. */
char *runner_shell_quote(const char *s);
/* Substitute the placeholders {model} {target} {device} {signature}
 * {runtime} {warmup} {repeat} of t, each value shell-quoted. */
char *runner_substitute(const char *t, const runner_job *j, const runner_config *c);

/* Parse a time: a non-negative decimal or inf.  Returns 0 or -1. */
int runner_parse_seconds(const char *s, double *out);

#endif
