/* libFuzzer harness: TVM Relay text through the reader, type inference,
 * the partitioner and the writers (fuzz_model.c). */
#include "fuzz_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    byoc_error err;
    byoc_graph *g = byoc_relay_read_string(fuzz_registry(), (const char *)data, size,
                                           "fuzz.relay", &err);
    if (!g)
        return 0;
    fuzz_model_run(g, fuzz_hash(data, size));
    byoc_graph_destroy(g);
    return 0;
}
