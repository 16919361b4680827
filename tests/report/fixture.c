/* The report writers' test graph and its hand-made partitioning. */
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "report_spec.h"

const char *const fixture_relay =
    "#[version = \"0.0.5\"]\n"
    "def @main(%data: Tensor[(1, 16, 8, 8), float32], %skip: Tensor[(1, 32, 8, 8), float32]) {\n"
    "  %0 = nn.conv2d(%data, meta[relay.Constant][0] /* ty=Tensor[(32, 16, 3, 3), float32] */, "
    "padding=[1, 1, 1, 1], channels=32, kernel_size=[3, 3]);\n"
    "  %1 = nn.bias_add(%0, meta[relay.Constant][1] /* ty=Tensor[(32,), float32] */);\n"
    "  %2 = nn.relu(%1);\n"
    "  %3 = nn.batch_norm(%2, meta[relay.Constant][2] /* ty=Tensor[(32,), float32] */, "
    "meta[relay.Constant][3] /* ty=Tensor[(32,), float32] */, "
    "meta[relay.Constant][4] /* ty=Tensor[(32,), float32] */, "
    "meta[relay.Constant][5] /* ty=Tensor[(32,), float32] */);\n"
    "  %4 = %3.0;\n"
    "  %5 = add(%4, %skip);\n"
    "  %6 = multiply(%5, 0.5f);\n"
    "  %7 = sigmoid(%6);\n"
    "  %8 = multiply(%6, %7);\n"
    "  %9 = nn.softmax(%8);\n"
    "  %10 = %3.1;\n"
    "  (%9, %6, %10)\n"
    "}\n";

int fixture_node(const byoc_graph *g, const char *name)
{
    for (int i = 0; i < byoc_graph_node_count(g); i++) {
        const char *s = byoc_node_name(g, i);
        if (s && strcmp(s, name) == 0)
            return i;
    }
    return -1;
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static void sort_nodes(int *v, int n) { qsort(v, (size_t)n, sizeof(int), cmp_int); }

void fixture_partition(fixture *fx, int p, const char *target, const char *const *names,
                       int n)
{
    byoc_partition *P = &fx->parts[p];
    for (int i = 0; i < n; i++) {
        fx->pnodes[p][i] = fixture_node(fx->g, names[i]);
        fx->node_partition[fx->pnodes[p][i]] = p;
    }
    sort_nodes(fx->pnodes[p], n);
    P->target = byoc_registry_target(fx->reg, target);
    P->device = byoc_target_device(fx->reg, P->target);
    P->nnodes = n;
    P->nodes = fx->pnodes[p];
}

static void composite(fixture *fx, int c, int p, const char *pattern,
                      const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        fx->cnodes[c][i] = fixture_node(fx->g, names[i]);
    sort_nodes(fx->cnodes[c], n);
    fx->comps[c] = (byoc_composite){pattern, n, fx->cnodes[c]};
    fx->parts[p].ncomposites = 1;
    fx->parts[p].composites = &fx->comps[c];
}

static void partitions(fixture *fx)
{
    fixture_partition(fx, 0, "cutlass", (const char *const[]){"%0", "%1", "%2"}, 3);
    composite(fx, 0, 0, "conv2d_bias_relu", (const char *const[]){"%0", "%1", "%2"}, 3);
    fx->parts[0].cost = 12.5e-6;
    fx->parts[0].signature = "conv2d_bias_relu(nn.conv2d(i0, i1), i2)";
    fixture_partition(fx, 1, "cuda_native", (const char *const[]){"%3", "%4", "%5"}, 3);
    fx->parts[1].cost = 3.25e-6;
    fx->parts[1].cost_source = BYOC_COST_TABLE;
    fx->parts[1].signature = "add(nn.batch_norm(i0, i1, i2, i3, i4).0, i5)";
    fixture_partition(fx, 2, "tensorrt", (const char *const[]){"%6", "%7", "%8"}, 3);
    composite(fx, 1, 2, "silu", (const char *const[]){"%7", "%8"}, 2);
    fx->parts[2].cost = 4e-6;
    fx->parts[2].cost_source = BYOC_COST_CALLBACK;
    fx->parts[2].signature = "multiply(i0, 0.5f); silu(i0)";
    fixture_partition(fx, 3, "cpu_native", (const char *const[]){"%9"}, 1);
    fx->parts[3].cost = 1.5e-6;
    fx->parts[3].cost_source = BYOC_COST_UNKNOWN;
    fx->parts[3].signature = "nn.softmax(i0)";
}

int fixture_open(fixture *fx, byoc_error *err)
{
    memset(fx, 0, sizeof *fx);
    fx->reg = byoc_registry_create();
    if (byoc_register_relay(fx->reg, err) < 0 || byoc_register_report_spec(fx->reg, err) < 0)
        return -1;
    fx->g = byoc_relay_read_string(fx->reg, fixture_relay, strlen(fixture_relay),
                                   "fixture.relay", err);
    if (!fx->g)
        return -1;
    int n = byoc_graph_node_count(fx->g);
    fx->node_partition = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        fx->node_partition[i] = -1;
    partitions(fx);
    static const char *const order[] = {"cutlass", "tensorrt", "cuda_native", "cpu_native"};
    for (int k = 0; k < 4; k++)
        fx->targets[k] = byoc_registry_target(fx->reg, order[k]);
    fx->r = (byoc_result){
        .graph = fx->g, .strategy = "optimal", .ntargets = 4, .targets = fx->targets,
        .npartitions = FIXTURE_PARTS, .partitions = fx->parts,
        .node_partition = fx->node_partition, .cost = 31.75e-6, .transfer_cost = 10.5e-6, .lower_bound = 31.75e-6,
        .optimal = true, .ncandidates = 17, .nkernels = 12, .expanded = 9, .generated = 23,
        .from_table = 1, .from_callback = 1, .unknown = 1,
        .candidate_seconds = 0.25, .search_seconds = 0.5,
    };
    return 0;
}

void fixture_close(fixture *fx)
{
    free(fx->node_partition);
    byoc_graph_destroy(fx->g);
    byoc_registry_destroy(fx->reg);
}
