/* byoc cost: measured-cost tables from what a runtime measured.
 *
 *   byoc cost --from-ort-profile PROFILE.json MODEL [-t T,...] [--option ...]
 *             [--target T] [-o TABLE.csv]
 *
 * turns an ONNX Runtime profile of MODEL into cost-table lines
 * (byoc_cost_from_ort_profile, doc/cost-table.md), the table to -o or
 * standard output, the report of what could not be mapped and a summary
 * to standard error.  The options only this command has are taken out of
 * the arguments first; the rest are the partitioning commands' own. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <byoc/byoc.h>

#include "cli.h"

int cmd_cost(byoc_registry *reg, int argc, char **argv)
{
    const char *profile = NULL, *target = NULL;
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (!rest) {
        fprintf(stderr, "byoc: error: out of memory\n");
        return 1;
    }
    int nrest = 0;
    for (int i = 0; i < argc; i++) {
        const char **slot = opt_is(argv[i], "--from-ort-profile", NULL) ? &profile
                          : opt_is(argv[i], "--target", NULL) ? &target : NULL;
        if (!slot) {
            rest[nrest++] = argv[i];
            continue;
        }
        const char *v = opt_value(argc, argv, &i, slot == &profile ? "--from-ort-profile"
                                                                   : "--target");
        if (!v || !*v) {
            if (v)
                fprintf(stderr, "byoc: error: %s needs a value\n",
                        slot == &profile ? "--from-ort-profile" : "--target");
            free(rest);
            return 2;
        }
        *slot = v;
    }
    bool help = false;
    for (int i = 0; i < nrest; i++)
        help |= !strcmp(rest[i], "--help") || !strcmp(rest[i], "-h");
    if (!profile && !help) {
        fprintf(stderr, "byoc: error: cost needs --from-ort-profile PROFILE.json (an ONNX "
                        "Runtime profile of the model)\n");
        free(rest);
        return 2;
    }
    cli_opts c = {.cmd = "cost"};
    byoc_cost_table *table;
    byoc_graph *g;
    int rc = start_command(reg, &c, nrest, rest, OPT_TARGETS | OPT_OPTION | OPT_OUTPUT, &table,
                           &g);
    if (rc < 0) {
        byoc_partition_options o;
        fill_options(&c, &o, NULL);
        byoc_error err;
        /* An unknown --target is bad usage, with a suggestion. */
        byoc_partition_options just = o;
        const char *one[1] = {target};
        just.targets = one;
        just.ntargets = 1;
        if (target && byoc_partition_targets(reg, &just, NULL, 0, &err) < 0) {
            print_error(&err);
            rc = 2;
        } else {
            rc = 1;
            byoc_profile_options po = {.model_path = c.model, .target = target};
            out_file out;
            if (out_open(&out, c.output) == 0) {
                int prc = byoc_cost_from_ort_profile(g, &o, profile, &po, out.f, stderr, &err);
                if (prc != 0)
                    print_error(&err);
                rc = out_close(&out, prc == 0);
            }
        }
        byoc_graph_destroy(g);
    }
    cli_opts_free(&c);
    free(rest);
    return rc;
}
