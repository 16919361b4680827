/* The pipeline the model harnesses share: partition a graph the reader
 * accepted, under a small state budget so that one input stays well under
 * a second, with a target set and strategy picked by the input's hash;
 * then every writer that writes to a stream.  A reader or partitioner
 * error is a fine outcome for a hostile input; a crash, a sanitizer
 * report, a result the independent checker refuses or a writer failing
 * on a result that passed it are bugs.
 *
 * The ONNX writers (byoc partition -f onnx, -f onnx-annotated, kernels
 * -f onnx) write folders and files, so they are not run here: a harness
 * writes nothing to the file system. */
#include "fuzz_model.h"

#include <stdio.h>
#include <stdlib.h>

#include "bundled.h"

static byoc_registry *registry;
static FILE *sink;

const byoc_registry *fuzz_registry(void)
{
    if (!registry) {
        byoc_error err;
        registry = byoc_registry_create();
        if (!registry || bundled_register(registry, &err) != 0)
            fuzz_bug("registering the bundled targets", registry ? &err : NULL);
    }
    return registry;
}

FILE *fuzz_sink(void)
{
    if (!sink) {
        sink = fopen("/dev/null", "w");
        if (!sink)
            fuzz_bug("opening /dev/null", NULL);
    }
    return sink;
}

/* Both model harnesses start the same way: the registry and the sink,
 * made before the first input so that no input pays for them. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_registry();
    fuzz_sink();
    return 0;
}

_Noreturn void fuzz_bug(const char *what, const byoc_error *err)
{
    char buf[1024] = "";
    if (err)
        byoc_error_format(err, buf, sizeof buf);
    fprintf(stderr, "fuzz: bug: %s%s%s\n", what, err ? ": " : "", buf);
    abort();
}

uint32_t fuzz_hash(const uint8_t *data, size_t size)
{
    uint32_t h = 2166136261u;              /* FNV-1a */
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 16777619u;
    return h;
}

/* Target sets, one per device family of the bundled backends. */
static const char *const gpu[] = {"tensorrt", "cutlass", "cudnn", "cublas", "tvm_cuda"};
static const char *const cpu[] = {"dnnl", "llvm"};
static const char *const mcu[] = {"ethosu", "cmsisnn", "tvm_c"};

static void write_all(const byoc_result *r)
{
    FILE *f = fuzz_sink();
    byoc_error err;
    char buf[512];
    const char *bad = byoc_result_check(r, buf, sizeof buf);
    if (bad)
        fuzz_bug(bad, NULL);
    if (byoc_result_write_text(r, f, &err) != 0)
        fuzz_bug("text writer", &err);
    if (byoc_result_write_json(r, f, &err) != 0)
        fuzz_bug("JSON writer", &err);
    if (byoc_result_write_dot(r, f, &err) != 0)
        fuzz_bug("DOT writer", &err);
    /* The Relay writer may refuse what Relay cannot say (an opaque ONNX
     * call, say) with an error; that is not a bug. */
    byoc_result_write_relay(r, f, &err);
}

void fuzz_model_run(const byoc_graph *g, uint32_t h)
{
    FILE *f = fuzz_sink();
    byoc_error err;
    byoc_partition_options o;
    byoc_partition_options_init(&o);
    switch (h % 4) {
    case 0: break;                           /* the default: the GPU's targets */
    case 1: o.targets = cpu; o.ntargets = 2; break;
    case 2: o.targets = mcu; o.ntargets = 3; break;
    default: o.targets = gpu; o.ntargets = 5; break;
    }
    switch (h / 4 % 4) {
    case 0: o.strategy = BYOC_SEARCH_GREEDY; break;
    case 1:
        o.strategy = BYOC_SEARCH_SINGLE;
        o.single = o.ntargets ? o.targets[0] : "cutlass";
        break;
    default: break;                          /* optimal, twice as often */
    }
    o.max_states = 2000;

    byoc_relay_write(g, f, &err);
    byoc_result *r = byoc_partition_graph(g, &o, &err);
    if (!r)
        return;
    write_all(r);
    byoc_result_destroy(r);

    /* The per-node and per-kernel views, over the same targets. */
    o.strategy = BYOC_SEARCH_OPTIMAL;
    byoc_write_matches(g, &o, f, &err);
    if (h / 16 % 4 == 0)
        byoc_write_kernels(g, &o, f, &err);
    int n = byoc_graph_node_count(g);
    if (n > 0 && h / 64 % 4 == 0)
        byoc_explain(g, (int)(h / 256 % (uint32_t)n), NULL, 0, &o, f, &err);
}
