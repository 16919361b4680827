"""ctypes declarations of libbyoc and libbyoc-backends (private).

The package calls the C library through ctypes rather than a compiled
extension, so that it needs no Python headers to build and one package
works with any Python 3 that the system has.  The structs below mirror the
public headers (include/byoc/*.h) field for field, up to the last field the
package reads: a partial struct is safe because the package only reads
through pointers the library returns.  ctypes.CDLL releases the GIL for the
duration of every foreign call, which is what lets other Python threads run
while a search does; a cost callback re-acquires it for its own duration.

Where the library is: the environment variable BYOC_LIBRARY (a path to
libbyoc-backends' shared library), else what _config.py (written by the
build: the build tree's copy, or the installed one) names.
"""

import ctypes
import ctypes.util
import os
from ctypes import (CFUNCTYPE, POINTER, Structure, Union, c_bool, c_char, c_char_p, c_double,
                    c_int, c_int64, c_size_t, c_uint8, c_uint64, c_void_p)

MAX_RANK = 8


class Error(Structure):
    _fields_ = [("file", c_char * 256), ("line", c_int), ("col", c_int), ("msg", c_char * 512)]


class TypeDesc(Structure):
    _fields_ = [("base", c_uint8), ("depth", c_uint8), ("optional", c_uint8),
                ("has_alt", c_uint8), ("alt_base", c_uint8), ("alt_depth", c_uint8)]


class Value(Structure):
    pass


class _ValueList(Structure):
    _fields_ = [("items", POINTER(Value)), ("n", c_size_t)]


class _ValueUnion(Union):
    _fields_ = [("b", c_bool), ("i", c_int64), ("f", c_double), ("s", c_char_p),
                ("dt", c_int), ("ver", c_uint64), ("list", _ValueList)]


Value._fields_ = [("kind", c_int), ("u", _ValueUnion)]

# byoc_vkind
V_NONE, V_BOOL, V_INT, V_FLOAT, V_STRING, V_DTYPE, V_VERSION, V_LIST = range(8)


class OptionDecl(Structure):
    _fields_ = [("name", c_char_p), ("type", TypeDesc), ("default", Value)]


class TargetDecl(Structure):
    # The leading fields of byoc_target_decl (<byoc/registry.h>).
    _fields_ = [("name", c_char_p), ("parent", c_char_p), ("parent_is_device", c_bool),
                ("noptions", c_int), ("options", POINTER(OptionDecl))]


class DeviceDecl(Structure):
    _fields_ = [("name", c_char_p)]


class TensorType(Structure):
    _fields_ = [("dtype", c_int), ("rank", c_int), ("dims", c_int64 * MAX_RANK)]


class DimBinding(Structure):
    _fields_ = [("name", c_char_p), ("value", c_int64)]


class InputShape(Structure):
    _fields_ = [("input", c_char_p), ("rank", c_int), ("dims", c_int64 * MAX_RANK)]


class ReadOptions(Structure):
    _fields_ = [("dims", POINTER(DimBinding)), ("ndims", c_size_t),
                ("shapes", POINTER(InputShape)), ("nshapes", c_size_t),
                ("quantized_nhwc", c_bool)]


class Kernel(Structure):
    _fields_ = [("graph", c_void_p), ("target", POINTER(TargetDecl)),
                ("device", POINTER(DeviceDecl)), ("nnodes", c_int), ("nodes", POINTER(c_int)),
                ("pattern", c_char_p), ("efficiency", c_double), ("signature", c_char_p)]


COST_FN = CFUNCTYPE(c_double, POINTER(Kernel), c_void_p)

# byoc_strategy
SEARCH_OPTIMAL, SEARCH_GREEDY, SEARCH_SINGLE = range(3)


class KernelFile(Structure):
    _fields_ = [("target", c_char_p), ("device", c_char_p), ("runtime", c_char_p),
                ("signature", c_char_p), ("file", c_char_p), ("nops", c_int),
                ("ops", POINTER(c_char_p)), ("estimate", c_double), ("source", c_int),
                ("why", c_char_p)]


WANT_FN = CFUNCTYPE(c_bool, c_char_p, c_char_p, c_void_p)


class KernelWriteOptions(Structure):
    _fields_ = [("model_path", c_char_p), ("want", WANT_FN), ("ctx", c_void_p),
                ("seed", c_uint64), ("rewrite", c_bool)]


class PartitionOptions(Structure):
    _fields_ = [("targets", POINTER(c_char_p)), ("ntargets", c_int), ("strategy", c_int),
                ("single", c_char_p), ("table", c_void_p), ("cost_fn", COST_FN),
                ("cost_ctx", c_void_p), ("max_states", c_size_t), ("beam_width", c_size_t),
                ("no_astar", c_bool), ("no_check", c_bool), ("time_limit", c_double),
                ("strict_table", c_bool)]


class Composite(Structure):
    _fields_ = [("pattern", c_char_p), ("nnodes", c_int), ("nodes", POINTER(c_int))]


class Partition(Structure):
    _fields_ = [("target", POINTER(TargetDecl)), ("device", POINTER(DeviceDecl)),
                ("nnodes", c_int), ("nodes", POINTER(c_int)), ("ncomposites", c_int),
                ("composites", POINTER(Composite)), ("cost", c_double),
                ("cost_source", c_int), ("signature", c_char_p)]


class ResultStruct(Structure):
    _fields_ = [("graph", c_void_p), ("strategy", c_char_p), ("ntargets", c_int),
                ("targets", POINTER(POINTER(TargetDecl))), ("npartitions", c_int),
                ("partitions", POINTER(Partition)), ("node_partition", POINTER(c_int)),
                ("cost", c_double), ("transfer_cost", c_double), ("optimal", c_bool),
                ("budget_hit", c_bool), ("ncandidates", c_size_t), ("nkernels", c_size_t),
                ("expanded", c_size_t), ("generated", c_size_t), ("from_table", c_size_t),
                ("from_callback", c_size_t), ("unknown", c_size_t), ("cost_table", c_bool),
                ("kernels_from_table", c_size_t), ("kernels_fallback", c_size_t),
                ("candidate_seconds", c_double), ("search_seconds", c_double),
                ("lower_bound", c_double), ("time_hit", c_bool), ("priv", c_void_p)]


class OnnxWriteOptions(Structure):
    _fields_ = [("rewrite", c_bool)]


def _find_library():
    path = os.environ.get("BYOC_LIBRARY")
    if path:
        return path
    try:
        from . import _config
    except ImportError:
        raise ImportError("byoc: no _config.py beside the package and BYOC_LIBRARY is not "
                          "set: build the package with byoc's make, or point BYOC_LIBRARY "
                          "at libbyoc-backends' shared library") from None
    return _config.LIBRARY


_P = c_void_p   # opaque pointers: registry, graph, cost table, FILE


def _declare(lib, name, res, *args):
    fn = getattr(lib, name)
    fn.restype = res
    fn.argtypes = list(args)
    return fn


def load():
    """Open the library and declare the functions the package calls."""
    path = _find_library()
    lib = ctypes.CDLL(path, mode=getattr(os, "RTLD_GLOBAL", 0) | getattr(os, "RTLD_NOW", 2))
    E = POINTER(Error)
    d = lambda name, res, *args: _declare(lib, name, res, *args)  # noqa: E731
    d("byoc_version", c_char_p)
    d("byoc_error_format", c_int, E, c_char_p, ctypes.c_ulong)
    d("byoc_registry_create", _P)
    d("byoc_registry_destroy", None, _P)
    d("byoc_registry_check", c_int, _P, E)
    for m in ("relay", "devices", "tensorrt", "cutlass", "cudnn", "cublas", "dnnl", "cmsisnn",
              "ethosu"):
        d("byoc_register_" + m, c_int, _P, E)
    d("byoc_registry_target_count", c_int, _P)
    d("byoc_registry_target_at", POINTER(TargetDecl), _P, c_int)
    d("byoc_registry_target", POINTER(TargetDecl), _P, c_char_p)
    d("byoc_target_device", POINTER(DeviceDecl), _P, POINTER(TargetDecl))
    d("byoc_target_supports_all", c_bool, _P, POINTER(TargetDecl))
    d("byoc_target_runtime", c_char_p, _P, POINTER(TargetDecl))
    d("byoc_target_option", POINTER(Value), _P, POINTER(TargetDecl), c_char_p)
    d("byoc_target_options", POINTER(Value), _P, POINTER(TargetDecl))
    d("byoc_target_set_option_text", c_int, _P, c_char_p, c_char_p, c_char_p, E)
    d("byoc_registry_reset_options", None, _P)
    d("byoc_registry_set_default_device", c_int, _P, c_char_p, E)
    d("byoc_registry_default_device", POINTER(DeviceDecl), _P)
    d("byoc_value_format", c_size_t, POINTER(Value), c_char_p, c_size_t)
    d("byoc_type_format", c_size_t, POINTER(TypeDesc), c_char_p, c_size_t)
    d("byoc_dtype_name", c_char_p, c_int)
    d("byoc_onnx_available", c_bool)
    d("byoc_relay_read_with", _P, _P, c_char_p, POINTER(ReadOptions), E)
    d("byoc_relay_read_string_with", _P, _P, c_char_p, c_size_t, c_char_p,
      POINTER(ReadOptions), E)
    d("byoc_onnx_read_with", _P, _P, c_char_p, POINTER(ReadOptions), E)
    d("byoc_onnx_read_bytes_with", _P, _P, c_char_p, c_size_t, c_char_p,
      POINTER(ReadOptions), E)
    d("byoc_graph_destroy", None, _P)
    d("byoc_graph_node_count", c_int, _P)
    d("byoc_graph_output", c_int, _P)
    d("byoc_graph_source", c_char_p, _P)
    d("byoc_node_kind_of", c_int, _P, c_int)
    d("byoc_node_op_name", c_char_p, _P, c_int)
    d("byoc_node_name", c_char_p, _P, c_int)
    d("byoc_node_arg_count", c_int, _P, c_int)
    d("byoc_node_arg", c_int, _P, c_int, c_int)
    d("byoc_node_line", c_int, _P, c_int)
    d("byoc_node_col", c_int, _P, c_int)
    d("byoc_node_is_opaque", c_bool, _P, c_int)
    d("byoc_node_flops", c_double, _P, c_int)
    d("byoc_node_type", POINTER(TensorType), _P, c_int, c_int)
    d("byoc_node_untyped_reason", c_char_p, _P, c_int)
    d("byoc_relay_format_node_type", c_size_t, _P, c_int, c_char_p, c_size_t)
    d("byoc_graph_symbol_count", c_int, _P)
    d("byoc_graph_symbol_name", c_char_p, _P, c_int)
    d("byoc_graph_symbol_value", c_int64, _P, c_int)
    d("byoc_graph_folded_count", ctypes.c_long, _P)
    d("byoc_graph_note_count", c_int, _P)
    d("byoc_graph_note", c_char_p, _P, c_int)
    d("byoc_cost_table_read", _P, c_char_p, E)
    d("byoc_cost_table_destroy", None, _P)
    d("byoc_cost_source_name", c_char_p, c_int)
    d("byoc_partition_options_init", None, POINTER(PartitionOptions))
    d("byoc_partition_targets", c_int, _P, POINTER(PartitionOptions),
      POINTER(POINTER(TargetDecl)), c_int, E)
    d("byoc_partition_graph", POINTER(ResultStruct), _P, POINTER(PartitionOptions), E)
    d("byoc_result_destroy", None, POINTER(ResultStruct))
    d("byoc_result_gap", c_double, POINTER(ResultStruct))
    d("byoc_result_optimality", c_char_p, POINTER(ResultStruct), c_char_p, c_size_t)
    d("byoc_result_check", c_char_p, POINTER(ResultStruct), c_char_p, c_size_t)
    for w in ("text", "json", "relay", "dot"):
        d("byoc_result_write_" + w, c_int, POINTER(ResultStruct), _P, E)
    d("byoc_result_write_onnx", c_int, POINTER(ResultStruct), c_char_p, c_char_p,
      POINTER(OnnxWriteOptions), E)
    d("byoc_explain", c_int, _P, c_int, POINTER(c_char_p), c_int, POINTER(PartitionOptions),
      _P, E)
    d("byoc_write_kernels", c_int, _P, POINTER(PartitionOptions), _P, E)
    d("byoc_kernel_write_relay", c_int, POINTER(Kernel), c_char_p, _P, E)
    d("byoc_write_kernels_onnx", _P, _P, POINTER(PartitionOptions), POINTER(KernelWriteOptions),
      c_char_p, E)
    d("byoc_kernel_files_count", c_size_t, _P)
    d("byoc_kernel_files_at", POINTER(KernelFile), _P, c_size_t)
    d("byoc_kernel_files_destroy", None, _P)
    return lib, path


def load_libc():
    """The C library, for an in-memory FILE (POSIX open_memstream).  Looked
    up in the process's global scope (CDLL(None)), not in libc's own: a
    preloaded allocator (a sanitizer's runtime) replaces malloc and free
    there, and the buffer open_memstream makes must go back to it."""
    libc = ctypes.CDLL(None)
    _declare(libc, "open_memstream", _P, POINTER(c_void_p), POINTER(c_size_t))
    _declare(libc, "fclose", c_int, _P)
    _declare(libc, "free", None, c_void_p)
    return libc
