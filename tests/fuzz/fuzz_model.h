/* What the model harnesses (fuzz_relay.c, fuzz_onnx.c) do with a graph
 * once a reader has made one: the partitioner and every writer that
 * writes to a stream.  See tests/fuzz/README.md. */
#ifndef BYOC_FUZZ_MODEL_H
#define BYOC_FUZZ_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include <byoc/byoc.h>

/* The bundled targets (registered once: the registry is configuration,
 * never changed by a run) and a sink for the writers' output. */
const byoc_registry *fuzz_registry(void);
FILE *fuzz_sink(void);

/* libFuzzer's hook, shared by the model harnesses: makes the above. */
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A hash of the input, which picks the target set and strategy so that
 * one input always takes the same path. */
uint32_t fuzz_hash(const uint8_t *data, size_t size);

/* Partition g (a small state budget), check the result, write it in every
 * stream format, and run matches, kernels and explain on it. */
void fuzz_model_run(const byoc_graph *g, uint32_t h);

/* A bug the harness itself detects (a result the checker refuses, a
 * writer failing on a valid result): print and abort, so the fuzzer
 * reports it with the input. */
_Noreturn void fuzz_bug(const char *what, const byoc_error *err);

#endif
