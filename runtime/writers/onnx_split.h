/* The split writer (onnx_split.c) one node set at a time, for the kernel
 * writer (onnx_kernels.c), and the random data the kernel writer gives
 * constants the model holds no data for.  Internal (bx_ prefix).
 *
 * A kernel K, a convex node set on one target, is written as partition 1
 * of a placement in two parts, K and everything else (part 0): K's inputs
 * are what it reads from part 0 and the model's inputs, its outputs what
 * part 0 or the model's outputs read of it.  Only K is written, so part
 * 0 reading K and K reading part 0 is no cycle that matters. */
#ifndef BX_ONNX_SPLIT_H
#define BX_ONNX_SPLIT_H

#include <stdbool.h>
#include <stdint.h>

#include <byoc/error.h>
#include <byoc/graph.h>
#include <byoc/registry.h>

#include "arena.h"

typedef struct bx_kernel_writer bx_kernel_writer;

/* A graph input of a kernel's model. */
typedef struct bx_kernel_input {
    const char *name;           /* lives as long as the writer */
    const byoc_tensor_type *type;   /* g's */
} bx_kernel_input;

/* Ready to write kernels of g into the existing folder out_dir: the model
 * (model_path, for a graph read from ONNX) is read again and unpacked
 * once, and checked to be the one g came from; with rewrite, every call
 * is written from the graph.  NULL with err set. */
bx_kernel_writer *bx_kernel_writer_open(const byoc_graph *g, const char *model_path,
                                        const char *out_dir, uint64_t seed, bool rewrite,
                                        byoc_error *err);
/* Write nodes[0..n) (ascending, convex) for target t as out_dir/file, its
 * graph named graph_name, and give its inputs (in a).  Returns 0; 1 when
 * the kernel has no ONNX form (err says why; nothing written); -1 when
 * something else failed (a file could not be written), err set. */
int bx_kernel_writer_write(bx_kernel_writer *k, const int *nodes, int n,
                           const byoc_target_decl *t, const char *file, const char *graph_name,
                           bx_arena *a, bx_kernel_input **in, int *nin, byoc_error *err);
/* Finish the files shared by the kernels (the random data): 0, or -1 with
 * err set. */
int bx_kernel_writer_finish(bx_kernel_writer *k, byoc_error *err);
/* Free k; with remove, unlink the files it made in out_dir besides the
 * kernels' own (linked weights, the random data). */
void bx_kernel_writer_close(bx_kernel_writer *k, bool remove);

#ifdef HAVE_ONNX
#include "runtime/onnx.pb-c.h"

/* Random data, shared by the kernels of one folder. */
typedef struct bx_random_data bx_random_data;
bx_random_data *bx_random_data_create(const char *dir, uint64_t seed);
/* A tensor `name` of dtype dt and dims[0..rank) (all known), its
 * elements pseudo-random - floats uniform in [-1, 1), integers 0 or 1,
 * bools either - and a function of the seed and key alone, so a tensor
 * has the same data in every kernel; tensors of 1 KiB or more are stored
 * once in dir/kernels.data and referred to as external data.  In a.  NULL
 * with err set when it cannot be written (a dtype ONNX lacks, more than
 * 2^62 bytes, a write error). */
Onnx__TensorProto *bx_random_tensor(bx_random_data *d, bx_arena *a, const char *key,
                                    const char *name, byoc_dtype dt, const int64_t *dims,
                                    int rank, byoc_error *err);
/* Close the data file: 0, or -1 with err set when it could not be
 * written. */
int bx_random_data_finish(bx_random_data *d, byoc_error *err);
/* The file's name in dir, reserved: kernels.data. */
#define BX_RANDOM_DATA_FILE "kernels.data"
void bx_random_data_destroy(bx_random_data *d, bool remove);
#endif

#endif
