/* The runner pool of byoc measure (cli/runner.c) on its own, for
 * tests/measure/runner.sh: the kernels come from the command line, not
 * from a model, so the runner contract is tested without the kernel
 * writer.
 *
 * usage: runner_driver --runner R [-j N] [--timeout S] [--warmup N]
 *          [--repeat N] [--device NAME] -- MODEL TARGET SIGNATURE ...
 *
 * Prints one line per kernel, in the order given: TARGET SIGNATURE
 * SECONDS [why], then "status: finished|interrupted|fatal: ...".  The
 * onnxruntime runner reads BYOC_NODE, BYOC_ORT_MEASURE and BYOC_ORT as
 * byoc measure does. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

static void on_done(runner_job *j, void *ctx)
{
    (void)ctx;
    if (j)
        fprintf(stderr, "done: %s\n", j->signature);
}

int main(int argc, char **argv)
{
    runner_config c = {.jobs = 1, .warmup = 0, .repeat = 1, .grace = 1.0};
    const char *runner = NULL;
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i += 2) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "runner_driver: %s needs a value\n", a);
            return 2;
        }
        if (!strcmp(a, "--runner"))
            runner = v;
        else if (!strcmp(a, "-j"))
            c.jobs = atoi(v);
        else if (!strcmp(a, "--timeout"))
            c.timeout = atof(v);
        else if (!strcmp(a, "--warmup"))
            c.warmup = atoi(v);
        else if (!strcmp(a, "--repeat"))
            c.repeat = atoi(v);
        else if (!strcmp(a, "--device"))
            c.device = v;
        else {
            fprintf(stderr, "runner_driver: unknown option %s\n", a);
            return 2;
        }
    }
    if (!runner || i >= argc || (argc - i - 1) % 3 != 0) {
        fprintf(stderr, "usage: runner_driver --runner R [options] -- MODEL TARGET SIGNATURE "
                        "...\n");
        return 2;
    }
    runner_spec r;
    char why[512];
    if (runner_spec_parse(&r, runner, why, sizeof why) != 0) {
        fprintf(stderr, "runner_driver: %s\n", why);
        return 2;
    }
    size_t n = (size_t)(argc - i - 1) / 3;
    runner_job *jobs = calloc(n + 1, sizeof *jobs);
    if (!jobs)
        return 1;
    for (size_t k = 0; k < n; k++)
        jobs[k] = (runner_job){.model = argv[i + 1 + 3 * k], .target = argv[i + 2 + 3 * k],
                               .device = "cpu", .signature = argv[i + 3 + 3 * k],
                               .runtime = "onnxruntime:CPUExecutionProvider"};
    c.node = getenv("BYOC_NODE");
    c.script = getenv("BYOC_ORT_MEASURE");
    c.ort_dir = getenv("BYOC_ORT");
    char err[1024];
    runner_status st = runner_run(&r, &c, jobs, n, on_done, NULL, err, sizeof err);
    for (size_t k = 0; k < n; k++) {
        if (!jobs[k].done)
            printf("%s %s not-done\n", jobs[k].target, jobs[k].signature);
        else if (isinf(jobs[k].seconds))
            printf("%s %s inf%s%s\n", jobs[k].target, jobs[k].signature,
                   jobs[k].why ? " " : "", jobs[k].why ? jobs[k].why : "");
        else
            printf("%s %s %.6g\n", jobs[k].target, jobs[k].signature, jobs[k].seconds);
        free(jobs[k].why);
    }
    if (st == RUNNER_FATAL)
        printf("status: fatal: %s\n", err);
    else
        printf("status: %s\n", st == RUNNER_FINISHED ? "finished" : "interrupted");
    free(jobs);
    runner_spec_free(&r);
    return st == RUNNER_FINISHED ? 0 : st == RUNNER_INTERRUPTED ? 130 : 1;
}
