/* libFuzzer harness: byocc's front end on a .byoc file held in memory -
 * parse, imports (read from examples/ and lib/ of the source tree, whatever
 * the current folder), resolve, check and lower - then the C
 * emitted into memory.  Diagnostics go to /dev/null: an error is a fine
 * outcome; a crash, a sanitizer report, a hang or a leak is a bug.  Each
 * input gets a compilation of its own, freed whole. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ast.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;
static const char *datadir;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    sink = fopen("/dev/null", "w");
    if (!sink)
        abort();
    const char *env = getenv("BYOC_DATADIR");
    datadir = env && *env ? env : FUZZ_SRCDIR "/lib";
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    compilation c;
    compilation_init(&c);
    c.diag.out = sink;
    c.datadir = datadir;
    /* Named as if in examples/: relative imports find the bundled specs
     * there whatever folder the fuzzer runs in. */
    if (resolve_buffer(&c, FUZZ_SRCDIR "/examples/fuzz.byoc", (const char *)data, size) == 0
        && check(&c) == 0
        && c.diag.errors == 0) {
        char *cbuf = NULL, *hbuf = NULL;
        size_t clen = 0, hlen = 0;
        FILE *cf = open_memstream(&cbuf, &clen), *hf = open_memstream(&hbuf, &hlen);
        if (!cf || !hf)
            abort();
        emit_c(&c, cf, hf, "fuzz.h");
        fclose(cf);
        fclose(hf);
        free(cbuf);
        free(hbuf);
    }
    compilation_free(&c);
    return 0;
}
