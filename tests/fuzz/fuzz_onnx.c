/* libFuzzer harness: ONNX protobuf through the reader (folding, control
 * flow, QDQ), type inference, the partitioner and the writers
 * (fuzz_model.c).  One bit of the input's hash asks for quantized
 * convolutions laid out NHWC, as --quantized-layout NHWC does. */
#include "fuzz_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t h = fuzz_hash(data, size);
    byoc_read_options ro = {0};
    ro.quantized_nhwc = (h >> 31) != 0;
    byoc_error err;
    byoc_graph *g = byoc_onnx_read_bytes_with(fuzz_registry(), data, size, "fuzz.onnx", &ro,
                                              &err);
    if (!g)
        return 0;
    fuzz_model_run(g, h);
    byoc_graph_destroy(g);
    return 0;
}
