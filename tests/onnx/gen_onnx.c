/* Write a generated ONNX model (tests/onnx/onnx_gen.h) to a file, for the
 * CLI tests and the loading benchmark:
 *
 *   gen_onnx concat N FILE     a Concat of N inputs
 *   gen_onnx chains L FILE     L layers of shape computations, 20 nodes each */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/onnx/onnx_gen.h"

int main(int argc, char **argv)
{
    if (argc != 4 || (strcmp(argv[1], "concat") && strcmp(argv[1], "chains"))) {
        fputs("usage: gen_onnx concat N FILE | chains LAYERS FILE\n", stderr);
        return 2;
    }
    long n = strtol(argv[2], NULL, 10);
    if (n < 1 || n > 1000000) {
        fputs("gen_onnx: N must be 1..1000000\n", stderr);
        return 2;
    }
    size_t size;
    uint8_t *buf = !strcmp(argv[1], "concat") ? gen_concat((int)n, &size)
                                              : gen_chains((int)n, &size);
    FILE *f = fopen(argv[3], "wb");
    if (!f || fwrite(buf, 1, size, f) != size || fclose(f) != 0) {
        perror(argv[3]);
        free(buf);
        return 1;
    }
    free(buf);
    return 0;
}
