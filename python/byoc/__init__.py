"""byoc from Python: load a model, partition it across backends, explain why.

A thin layer over libbyoc (through ctypes) with the byoc command's bundled
backends (tensorrt, cutlass, cudnn, cublas, dnnl, cmsisnn, ethosu, and the
devices' native targets) registered in the same order as the command, so a
partition here is the command's partition, to the last digit::

    >>> import byoc
    >>> g = byoc.load("examples/models/transformer_encoder.relay")
    >>> r = byoc.partition(g)
    >>> r.total                      # seconds, as `byoc partition -f json`
    >>> for p in r.partitions: print(p.target, p.names, p.cost)
    >>> byoc.explain(g, "%3")        # why each target did or did not take %3

Errors raise byoc.Error (a subclass per kind: LoadError, OptionError,
TargetError, PartitionError, CheckError) whose str() is the library's
message with its file:line:col, and whose .file, .line and .col are the
location alone.

Objects own their C counterparts: Graph, Result and Registry free them on
close() or at the end of a ``with`` block (and, failing that, when Python
collects them).  The search runs with the GIL released.  doc/python.md has
a worked example.
"""

import ctypes
import math
import os
import re
import shutil
import subprocess
import threading
import weakref
from ctypes import POINTER, byref, c_char_p, c_int, c_size_t, c_void_p, create_string_buffer
from typing import (Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple,
                    Union)

from . import _lib

__all__ = [
    "Error", "LoadError", "OptionError", "TargetError", "PartitionError", "CheckError",
    "Registry", "Target", "Graph", "Node", "Kernel", "Partition", "Result", "Reason",
    "Explanation", "Comparison", "load", "targets", "target", "load_plugin", "get_option",
    "set_option", "reset_options", "default_registry", "partition", "compare", "explain",
    "version", "onnx_available", "write_cost_table", "CostFunction",
]

_C, LIBRARY = _lib.load()
_LIBC = _lib.load_libc()

#: Modules the byoc command registers, in its order (cli/bundled.c).
BUNDLED_MODULES = ("relay", "devices", "tensorrt", "cutlass", "cudnn", "cublas", "dnnl",
                   "cmsisnn", "ethosu")


# ---- errors ----------------------------------------------------------------

class Error(Exception):
    """An error from libbyoc: str() is its message as the byoc command prints
    it (``file:line:col: error: ...`` when it is about an input)."""

    def __init__(self, message: str, file: Optional[str] = None, line: int = 0, col: int = 0):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.col = col


class LoadError(Error):
    """A model could not be read (a missing file, a syntax or type error)."""


class OptionError(Error, ValueError):
    """A bad target option, option value, or partition setting."""


class TargetError(Error, KeyError):
    """An unknown target or device."""

    def __str__(self) -> str:   # KeyError would quote the message
        return self.message


class PartitionError(Error):
    """The search failed (a call no target can run, a cost table that lacks a
    kernel in strict mode)."""


class CheckError(Error):
    """The independent checker rejected a result."""


def _err() -> _lib.Error:
    return _lib.Error()


def _raise(e: _lib.Error, cls=Error):
    buf = create_string_buffer(1024)
    _C.byoc_error_format(byref(e), buf, len(buf))
    text = buf.value.decode("utf-8", "replace")
    file = e.file.decode("utf-8", "replace") or None
    msg = e.msg.decode("utf-8", "replace")
    if cls is Error or cls is PartitionError:
        # Unknown targets come back from several calls: say so by type.
        if msg.startswith("unknown target") or msg.startswith("unknown device"):
            cls = TargetError
    raise cls(text, file, e.line, e.col)


def _s(b: Optional[bytes]) -> Optional[str]:
    return None if b is None else b.decode("utf-8", "replace")


def _b(s: Union[str, os.PathLike]) -> bytes:
    return os.fsencode(s)


def _to_memory(write: Callable[[c_void_p], int]) -> Tuple[int, bytes]:
    """Run write(FILE *) on an in-memory stream (POSIX open_memstream);
    returns write's result and the bytes written."""
    buf = c_void_p()
    size = c_size_t()
    f = _LIBC.open_memstream(byref(buf), byref(size))
    if not f:
        raise MemoryError("open_memstream failed")
    try:
        rc = write(f)
    finally:
        _LIBC.fclose(f)   # sets buf and size
        data = ctypes.string_at(buf.value, size.value) if buf.value else b""
        _LIBC.free(buf)
    return rc, data


# ---- values ------------------------------------------------------------------

def _value_to_py(v: _lib.Value) -> Any:
    k = v.kind
    if k == _lib.V_NONE:
        return None
    if k == _lib.V_BOOL:
        return bool(v.u.b)
    if k == _lib.V_INT:
        return int(v.u.i)
    if k == _lib.V_FLOAT:
        return float(v.u.f)
    if k == _lib.V_STRING:
        return _s(v.u.s)
    if k == _lib.V_DTYPE:
        return _s(_C.byoc_dtype_name(v.u.dt))
    if k == _lib.V_VERSION:
        ver = v.u.ver
        return "%d.%d.%d" % (ver >> 32, (ver >> 16) & 0xFFFF, ver & 0xFFFF)
    if k == _lib.V_LIST:
        return [_value_to_py(v.u.list.items[i]) for i in range(v.u.list.n)]
    buf = create_string_buffer(256)
    _C.byoc_value_format(byref(v), buf, len(buf))
    return _s(buf.value)


def _py_to_text(value: Any) -> str:
    """An option value as the command line writes it (byoc --option)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_py_to_text(x) for x in value) + "]"
    return str(value)


# ---- the registry ----------------------------------------------------------------

class _Owned:
    """What owns a C object (_ptr): freed by close(), by leaving a with
    block, or when collected; _live() is the pointer, or ValueError once
    closed (_what names the object in that message)."""

    _ptr = None
    _what = "object"

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def _live(self):
        if not self._ptr:
            raise ValueError("byoc: the %s is closed" % self._what)
        return self._ptr


class Target:
    """A registered target: its name, device, whether it is a device's native
    target (``supports *``), its runtime and its options' current values."""

    def __init__(self, registry: "Registry", decl):
        self._registry = registry
        self._decl = decl
        self.name: str = _s(decl.contents.name)
        dev = _C.byoc_target_device(registry._ptr, decl)
        self.device: Optional[str] = _s(dev.contents.name) if dev else None
        self.native: bool = bool(_C.byoc_target_supports_all(registry._ptr, decl))
        self.runtime: Optional[str] = _s(_C.byoc_target_runtime(registry._ptr, decl))

    @property
    def options(self) -> Dict[str, Any]:
        """The declared options and their current values, in declaration order."""
        d = self._decl.contents
        vals = _C.byoc_target_options(self._registry._ptr, self._decl)
        return {_s(d.options[i].name): _value_to_py(vals[i]) for i in range(d.noptions)}

    def option_types(self) -> Dict[str, str]:
        """Each declared option's type as the language writes it ("bool", "version")."""
        d = self._decl.contents
        out = {}
        for i in range(d.noptions):
            buf = create_string_buffer(64)
            _C.byoc_type_format(byref(d.options[i].type), buf, len(buf))
            out[_s(d.options[i].name)] = _s(buf.value)
        return out

    def __repr__(self) -> str:
        return "<byoc.Target %s on %s%s>" % (self.name, self.device,
                                            " (native)" if self.native else "")


class Registry(_Owned):
    """Ops, devices and targets: the byoc command's bundled modules, plus any
    plugins loaded into it.  Graphs read with a registry keep it alive; the
    module-level functions use default_registry()."""

    _what = "registry"

    def __init__(self, bundled: bool = True):
        self._ptr = _C.byoc_registry_create()
        if not self._ptr:
            raise MemoryError("byoc_registry_create")
        self._plugins: List[Any] = []
        self._graphs: "weakref.WeakSet[Graph]" = weakref.WeakSet()
        self._options: Dict[Tuple[str, str], str] = {}
        self._lock = threading.RLock()
        if bundled:
            e = _err()
            for m in BUNDLED_MODULES:
                if getattr(_C, "byoc_register_" + m)(self._ptr, byref(e)) != 0:
                    self.close()
                    _raise(e)

    def close(self) -> None:
        """Free the registry, and first the graphs read with it (and their
        results), which point into it."""
        for g in list(self._graphs):
            g.close()
        if self._ptr:
            _C.byoc_registry_destroy(self._ptr)
            self._ptr = None
        # Plugins stay loaded: ctypes never unloads a library.

    def load_plugin(self, path: Union[str, os.PathLike]) -> None:
        """Load a plugin (<byoc/plugin.h>) and register its targets, as
        ``byoc --plugin PATH`` does."""
        import ctypes
        reg = self._live()
        try:
            lib = ctypes.CDLL(os.fspath(path), mode=getattr(os, "RTLD_NOW", 2))
        except OSError as ex:
            raise LoadError("plugin '%s': %s" % (os.fspath(path), ex)) from None
        try:
            entry = lib.byoc_plugin_register
        except AttributeError:
            raise LoadError("plugin '%s' has no entry point 'byoc_plugin_register' (see "
                            "<byoc/plugin.h>)" % os.fspath(path)) from None
        entry.restype = c_int
        entry.argtypes = [c_void_p, POINTER(_lib.Error)]
        self._plugins.append(lib)   # the registry points into its tables
        e = _err()
        if entry(reg, byref(e)) != 0:
            _raise(e, LoadError)
        if _C.byoc_registry_check(reg, byref(e)) != 0:
            _raise(e, LoadError)

    def targets(self) -> List[Target]:
        """Every registered target, in registration order."""
        reg = self._live()
        return [Target(self, _C.byoc_registry_target_at(reg, i))
                for i in range(_C.byoc_registry_target_count(reg))]

    def target(self, name: str) -> Target:
        """The target called name; TargetError when there is none."""
        t = _C.byoc_registry_target(self._live(), _b(name))
        if not t:
            names = [x.name for x in self.targets()]
            import difflib
            near = difflib.get_close_matches(name, names, 1)
            raise TargetError("unknown target '%s'%s" % (
                name, " (did you mean '%s'?)" % near[0] if near else ""))
        return Target(self, t)

    @property
    def default_device(self) -> Optional[str]:
        dev = _C.byoc_registry_default_device(self._live())
        return _s(dev.contents.name) if dev else None

    @default_device.setter
    def default_device(self, name: Optional[str]) -> None:
        e = _err()
        if _C.byoc_registry_set_default_device(self._live(), None if name is None
                                               else _b(name), byref(e)) != 0:
            _raise(e, TargetError)

    def get_option(self, target: str, name: str) -> Any:
        """The current value of a declared option of target."""
        t = self.target(target)
        v = _C.byoc_target_option(self._ptr, t._decl, _b(name))
        if not v:
            raise OptionError("target '%s' has no option '%s' (it has: %s)" % (
                target, name, ", ".join(t.options) or "none"))
        return _value_to_py(v.contents)

    def _set_text(self, target: str, name: str, text: str) -> None:
        e = _err()
        if _C.byoc_target_set_option_text(self._live(), _b(target), _b(name), _b(text),
                                          byref(e)) != 0:
            _raise(e, OptionError)

    def set_option(self, target: str, name: str, value: Any) -> None:
        """Set an option of target (a declared one, or one of the fusion
        settings fusion, max_depth, max_nodes, max_exits), checked against
        its type; it stays set for later partitions."""
        with self._lock:
            self.target(target)
            self._set_text(target, name, _py_to_text(value))
            self._options[(target, name)] = _py_to_text(value)

    def reset_options(self) -> None:
        """Every option of every target back to its default."""
        with self._lock:
            _C.byoc_registry_reset_options(self._live())
            self._options.clear()

    def _restore(self) -> None:
        _C.byoc_registry_reset_options(self._live())
        for (t, n), text in self._options.items():
            self._set_text(t, n, text)


_default: Optional[Registry] = None
_default_lock = threading.Lock()


def default_registry() -> Registry:
    """The registry the module-level functions use: the bundled targets, and
    any plugins load_plugin() added."""
    global _default
    with _default_lock:
        if _default is None or not _default._ptr:
            _default = Registry()
        return _default


def targets(registry: Optional[Registry] = None) -> List[Target]:
    """The registered targets (the bundled ones, then plugins')."""
    return (registry or default_registry()).targets()


def target(name: str, registry: Optional[Registry] = None) -> Target:
    """One target by name."""
    return (registry or default_registry()).target(name)


def load_plugin(path: Union[str, os.PathLike], registry: Optional[Registry] = None) -> None:
    """Load a plugin into the default registry (or registry)."""
    (registry or default_registry()).load_plugin(path)


def get_option(target: str, name: str, registry: Optional[Registry] = None) -> Any:
    """A target option's current value."""
    return (registry or default_registry()).get_option(target, name)


def set_option(target: str, name: str, value: Any, registry: Optional[Registry] = None) -> None:
    """Set a target option for later partitions (``--option T:NAME=VALUE``)."""
    (registry or default_registry()).set_option(target, name, value)


def reset_options(registry: Optional[Registry] = None) -> None:
    """Every option back to its default."""
    (registry or default_registry()).reset_options()


def version() -> str:
    """libbyoc's version."""
    return _s(_C.byoc_version())


def onnx_available() -> bool:
    """Whether this libbyoc reads ONNX."""
    return bool(_C.byoc_onnx_available())


# ---- graphs --------------------------------------------------------------------

_KINDS = ("input", "const", "call", "tuple", "proj")


class Node:
    """One node of a graph: id, kind ("input", "const", "call", "tuple",
    "proj"), op (calls), name, args, type (Relay's text of it), dtype,
    shape (None where unknown; a symbolic dimension is its name), flops
    (None when unknown) and where it is in the source."""

    __slots__ = ("id", "kind", "op", "name", "args", "type", "dtype", "shape", "flops",
                 "line", "col", "opaque")

    def __repr__(self) -> str:
        return "<byoc.Node #%d %s %s%s>" % (self.id, self.name or "", self.kind,
                                            " " + self.op if self.op else "")


class Graph(_Owned):
    """A typed model graph.  Use as a context manager or call close() to
    free it at once."""

    _what = "graph"

    def __init__(self, ptr, registry: Registry, source: Optional[str]):
        self._ptr = ptr
        self.registry = registry
        self.source = source
        self._nodes: Optional[List[Node]] = None
        # Weak: a result keeps its graph alive, not the other way round.
        self._results: "weakref.WeakSet[Result]" = weakref.WeakSet()
        registry._graphs.add(self)

    def close(self) -> None:
        """Free the graph (and the results made from it, which point into it)."""
        for r in list(self._results):
            r.close()
        if self._ptr:
            _C.byoc_graph_destroy(self._ptr)
            self._ptr = None

    def __len__(self) -> int:
        return _C.byoc_graph_node_count(self._live())

    def _type_text(self, i: int) -> Optional[str]:
        g = self._ptr
        n = _C.byoc_relay_format_node_type(g, i, None, 0)
        if n == 0:
            return None
        buf = create_string_buffer(n + 1)
        _C.byoc_relay_format_node_type(g, i, buf, n + 1)
        return _s(buf.value)

    def _node(self, i: int) -> Node:
        g = self._ptr
        nd = Node()
        nd.id = i
        nd.kind = _KINDS[_C.byoc_node_kind_of(g, i)]
        nd.op = _s(_C.byoc_node_op_name(g, i))
        nd.name = _s(_C.byoc_node_name(g, i))
        nd.args = [_C.byoc_node_arg(g, i, a) for a in range(_C.byoc_node_arg_count(g, i))]
        nd.type = self._type_text(i)
        t = _C.byoc_node_type(g, i, -1)
        nd.dtype = nd.shape = None
        if t and t.contents.rank >= 0:
            tc = t.contents
            nd.dtype = _s(_C.byoc_dtype_name(tc.dtype)) or None
            shape: List[Union[int, str, None]] = []
            for k in range(tc.rank):
                d = tc.dims[k]
                if d >= 0:
                    shape.append(int(d))
                elif d == -1:
                    shape.append(None)
                else:
                    shape.append(_s(_C.byoc_graph_symbol_name(g, -2 - d)))
            nd.shape = tuple(shape)
        f = _C.byoc_node_flops(g, i)
        nd.flops = None if f < 0 else f
        nd.line = _C.byoc_node_line(g, i)
        nd.col = _C.byoc_node_col(g, i)
        nd.opaque = bool(_C.byoc_node_is_opaque(g, i))
        return nd

    @property
    def nodes(self) -> List[Node]:
        """Every node, in topological order (ids 0 to len - 1)."""
        if self._nodes is None:
            g = self._live()
            self._nodes = [self._node(i) for i in range(_C.byoc_graph_node_count(g))]
        return self._nodes

    @property
    def output(self) -> int:
        return _C.byoc_graph_output(self._live())

    def ops(self) -> Dict[str, int]:
        """Calls per op, in order of first use."""
        out: Dict[str, int] = {}
        for n in self.nodes:
            if n.kind == "call":
                out[n.op] = out.get(n.op, 0) + 1
        return out

    @property
    def flops(self) -> float:
        """Total FLOPs of the calls whose count is known."""
        return sum(n.flops for n in self.nodes if n.flops)

    def find(self, spec: Union[int, str]) -> int:
        """A node's id from an id, "#12", "%42"/"42" (a Relay name) or an ONNX
        tensor name, as ``byoc explain --node`` takes it."""
        n = len(self)
        if isinstance(spec, int):
            if 0 <= spec < n:
                return spec
        else:
            if spec.startswith("#") and spec[1:].isdigit() and int(spec[1:]) < n:
                return int(spec[1:])
            bare = spec[1:] if spec.startswith("%") else spec
            for nd in self.nodes:
                if nd.name is not None and (nd.name[1:] if nd.name.startswith("%")
                                            else nd.name) == bare:
                    return nd.id
        raise KeyError("%s has no node '%s'" % (self.source or "the graph", spec))

    @property
    def info(self) -> Dict[str, Any]:
        """A summary like ``byoc info``'s: node counts by kind, ops, FLOPs,
        inputs and their types, symbolic dimensions, untyped nodes and the
        reader's notes."""
        g = self._live()
        kinds: Dict[str, int] = {k: 0 for k in _KINDS}
        for nd in self.nodes:
            kinds[nd.kind] += 1
        unknown = [nd.id for nd in self.nodes if nd.kind == "call" and nd.flops is None]
        return {
            "source": self.source,
            "nodes": len(self.nodes),
            "kinds": kinds,
            "calls": kinds["call"],
            "ops": self.ops(),
            "flops": self.flops,
            "flops_unknown": len(unknown),
            "inputs": {nd.name: nd.type for nd in self.nodes if nd.kind == "input"},
            "output": self._type_text(self.output) if self.output >= 0 else None,
            "symbols": {_s(_C.byoc_graph_symbol_name(g, i)):
                        (None if _C.byoc_graph_symbol_value(g, i) < 0
                         else int(_C.byoc_graph_symbol_value(g, i)))
                        for i in range(_C.byoc_graph_symbol_count(g))},
            "untyped": {nd.name or "#%d" % nd.id:
                        _s(_C.byoc_node_untyped_reason(g, nd.id))
                        for nd in self.nodes if _C.byoc_node_untyped_reason(g, nd.id)},
            "folded": int(_C.byoc_graph_folded_count(g)),
            "opaque": sum(1 for nd in self.nodes if nd.opaque),
            "notes": [_s(_C.byoc_graph_note(g, i)) for i in range(_C.byoc_graph_note_count(g))],
        }

    def __repr__(self) -> str:
        if not self._ptr:
            return "<byoc.Graph (closed)>"
        return "<byoc.Graph %s: %d nodes, %d calls>" % (self.source, len(self),
                                                        sum(self.ops().values()))


def _read_options(dims: Optional[Mapping[str, int]],
                  input_shapes: Optional[Mapping[str, Sequence[int]]],
                  quantized_nhwc: bool, keep: list):
    o = _lib.ReadOptions()
    if dims:
        arr = (_lib.DimBinding * len(dims))()
        for i, (k, v) in enumerate(dims.items()):
            if int(v) < 0:
                raise OptionError("dimension '%s': size %d is negative" % (k, v))
            arr[i].name = _b(k)
            arr[i].value = int(v)
        o.dims, o.ndims = arr, len(dims)
        keep.append(arr)
    if input_shapes:
        arr2 = (_lib.InputShape * len(input_shapes))()
        for i, (k, shape) in enumerate(input_shapes.items()):
            shape = list(shape)
            if len(shape) > _lib.MAX_RANK or any(int(d) < 0 for d in shape):
                raise OptionError("input '%s': bad shape %r" % (k, shape))
            arr2[i].input = _b(k)
            arr2[i].rank = len(shape)
            for j, d in enumerate(shape):
                arr2[i].dims[j] = int(d)
        o.shapes, o.nshapes = arr2, len(input_shapes)
        keep.append(arr2)
    o.quantized_nhwc = bool(quantized_nhwc)
    return o


def load(model: Union[str, os.PathLike, bytes], dims: Optional[Mapping[str, int]] = None,
         input_shapes: Optional[Mapping[str, Sequence[int]]] = None, *,
         format: Optional[str] = None, name: Optional[str] = None,
         quantized_nhwc: bool = False, registry: Optional[Registry] = None) -> Graph:
    """Read a model: Relay text or ONNX, from a path or from bytes.

    format is "relay" or "onnx"; by default a path ending in .onnx is ONNX,
    and bytes are Relay text when they decode as UTF-8 and start like it,
    else ONNX.  dims binds named free dimensions (``--dim``), input_shapes
    gives inputs' whole shapes (``--input-shape``), quantized_nhwc lays
    quantized ONNX convolutions out NHWC (``--quantized-layout NHWC``).
    Raises LoadError with the reader's file:line:col message."""
    reg = registry or default_registry()
    keep: list = []
    opts = _read_options(dims, input_shapes, quantized_nhwc, keep)
    e = _err()
    if format not in (None, "relay", "onnx"):
        raise OptionError("unknown model format '%s' (relay or onnx)" % format)
    if isinstance(model, (bytes, bytearray, memoryview)):
        data = bytes(model)
        if format is None:
            head = data.lstrip()[:64]
            format = "relay" if head.startswith((b"#[version", b"def ", b"fn ", b"fn(",
                                                 b"type ", b"%")) else "onnx"
        label = name or "<bytes>"
        if format == "onnx":
            ptr = _C.byoc_onnx_read_bytes_with(reg._live(), data, len(data), _b(label),
                                               byref(opts), byref(e))
        else:
            ptr = _C.byoc_relay_read_string_with(reg._live(), data, len(data), _b(label),
                                                 byref(opts), byref(e))
        source = label
    else:
        path = os.fspath(model)
        if format is None:
            format = "onnx" if path.endswith(".onnx") else "relay"
        read = _C.byoc_onnx_read_with if format == "onnx" else _C.byoc_relay_read_with
        ptr = read(reg._live(), _b(path), byref(opts), byref(e))
        source = path
    if not ptr:
        _raise(e, LoadError)
    g = Graph(ptr, reg, source)
    g._format = format
    g._onnx_data = data if format == "onnx" and isinstance(model, (bytes, bytearray, memoryview)) \
        else None
    return g


# ---- partitioning ------------------------------------------------------------------

class Kernel:
    """What a cost callback is asked about: one kernel on one target."""

    __slots__ = ("target", "device", "nodes", "ops", "pattern", "signature", "efficiency",
                 "_graph", "_kp", "_search")

    @property
    def names(self) -> List[Optional[str]]:
        """The kernel's nodes' names in the model."""
        return [self._graph.nodes[i].name for i in self.nodes]

    def to_relay(self, name: str = "kernel") -> str:
        """The kernel as a Relay function ``def @name(...)``, its inputs
        (constants included) as parameters, as ``byoc kernels`` writes
        each: what a timing function compiles.  Only while the cost
        function that was given this kernel runs (ValueError after)."""
        if self._kp is None:
            raise ValueError("byoc: a Kernel's Relay text is there only during the cost call")
        e = _err()
        kp = self._kp
        rc, data = _to_memory(lambda f: _C.byoc_kernel_write_relay(kp, _b(name), f, byref(e)))
        if rc != 0:
            _raise(e)
        return data.decode("utf-8")

    def write_onnx(self, folder: Union[str, os.PathLike]) -> str:
        """Write the kernel as a standalone ONNX model into folder (which
        must not exist, or be empty), exactly as ``byoc kernels -f onnx``
        writes it: its inputs, constants included, as graph inputs or
        initializers (the model's own data where it has it, else
        deterministic pseudo-random data; tensors of 1 KiB or more as ONNX
        external data in folder/kernels.data), with folder/kernels.json.
        Returns the model's path, which ONNX Runtime loads as it is.  Only
        while the cost function that was given this kernel runs (ValueError
        after); ValueError when the kernel has no ONNX form (the reason is
        the message), an Error when byoc was built without ONNX."""
        if self._kp is None or self._search is None:
            raise ValueError("byoc: a Kernel's ONNX model is there only during the cost call")
        return self._search._kernel_onnx(self, os.fspath(folder))

    def __repr__(self) -> str:
        return "<byoc.Kernel %s %s>" % (self.target, "+".join(self.ops))


CostFunction = Callable[[Kernel], Optional[float]]

_SOURCES = {0: "analytic", 1: "table", 2: "callback", 3: "unknown"}


class Partition:
    """One partition of a result: the kernel a target runs."""

    __slots__ = ("index", "target", "device", "nodes", "names", "ops", "composites", "cost",
                 "cost_source", "signature")

    def __repr__(self) -> str:
        return "<byoc.Partition %d %s %s %.3f us>" % (self.index, self.target,
                                                      "+".join(self.ops), self.cost * 1e6)


def _c_targets(names: Optional[Iterable[str]], keep: list):
    if names is None:
        return None, 0
    if isinstance(names, str):
        names = [n for n in names.split(",") if n]
    names = list(names)
    arr = (c_char_p * max(1, len(names)))(*[_b(n) for n in names])
    keep.append(arr)
    return arr, len(names)


class _Search:
    """The C options of one search, and what they keep alive: targets,
    table, callback, and the first exception a callback raised."""

    def __init__(self, graph: Graph, targets, search: str, cost, max_states: int,
                 time_limit: float, strict: bool, no_check: bool = False):
        self.graph = graph
        self.keep: list = []
        self.table = None
        self.exc: Optional[BaseException] = None
        o = _lib.PartitionOptions()
        _C.byoc_partition_options_init(byref(o))
        o.targets, o.ntargets = _c_targets(targets, self.keep)
        if search == "optimal":
            o.strategy = _lib.SEARCH_OPTIMAL
        elif search == "greedy":
            o.strategy = _lib.SEARCH_GREEDY
        elif search.startswith("single:") and len(search) > 7:
            o.strategy = _lib.SEARCH_SINGLE
            o.single = _b(search[7:])
            self.keep.append(o.single)
        else:
            raise OptionError("unknown search '%s' (optimal, greedy or single:TARGET)" % search)
        if max_states < 0 or time_limit < 0:
            raise OptionError("max_states and time_limit must not be negative")
        o.max_states = int(max_states)
        o.time_limit = float(time_limit)
        o.no_check = bool(no_check)
        if strict and not isinstance(cost, (str, os.PathLike)):
            raise OptionError("strict goes with a cost table")
        o.strict_table = bool(strict)
        if isinstance(cost, (str, os.PathLike)):
            e = _err()
            self.table = _C.byoc_cost_table_read(_b(cost), byref(e))
            if not self.table:
                _raise(e, LoadError)
            o.table = self.table
        elif callable(cost):
            fn = _lib.COST_FN(self._callback(cost))
            self.keep.append(fn)
            o.cost_fn = fn
        elif cost is not None:
            raise OptionError("cost is a table's path or a function of a Kernel")
        self.o = o

    def _callback(self, f: CostFunction):
        g = self.graph

        def call(kp, ctx):
            if self.exc is not None:
                return math.nan   # after an error: let the model answer, then raise
            try:
                k = kp.contents
                kern = Kernel()
                kern._graph = g
                kern.target = _s(k.target.contents.name)
                kern.device = _s(k.device.contents.name) if k.device else None
                kern.nodes = [k.nodes[i] for i in range(k.nnodes)]
                kern.ops = [g.nodes[i].op for i in kern.nodes if g.nodes[i].kind == "call"]
                kern.pattern = _s(k.pattern)
                kern.signature = _s(k.signature)
                kern.efficiency = k.efficiency
                kern._kp = kp
                kern._search = self
                try:
                    v = f(kern)
                finally:
                    kern._kp = None
                    kern._search = None
                if v is None:
                    return math.nan
                v = float(v)
                if v < 0 or math.isnan(v):
                    raise ValueError("cost function returned %r for %s on %s; want seconds "
                                     ">= 0, math.inf or None" % (v, kern.signature, kern.target))
                return v
            except BaseException as ex:  # re-raised by partition()
                self.exc = ex
                return math.nan
        return call

    def _kernel_onnx(self, kern: "Kernel", out: str) -> str:
        """Write kern (and nothing else) with byoc_write_kernels_onnx into
        out, under these options less the callback (the writer prices what
        it writes: it must not call back)."""
        import tempfile
        o = _lib.PartitionOptions()
        ctypes.memmove(byref(o), byref(self.o), ctypes.sizeof(o))
        o.cost_fn = _lib.COST_FN()
        target, sig = kern.target, kern.signature
        want = _lib.WANT_FN(lambda t, s, ctx: _s(t) == target and _s(s) == sig)
        wo = _lib.KernelWriteOptions()
        wo.want = want
        g = self.graph
        with tempfile.TemporaryDirectory(prefix="byoc-model-") as tmp:
            model = None
            if getattr(g, "_format", None) == "onnx":
                model = g.source
                if getattr(g, "_onnx_data", None) is not None:
                    model = os.path.join(tmp, "model.onnx")
                    with open(model, "wb") as f:
                        f.write(g._onnx_data)
            wo.model_path = _b(model) if model else None
            e = _err()
            files = _C.byoc_write_kernels_onnx(g._live(), byref(o), byref(wo), _b(out), byref(e))
            if not files:
                _raise(e)
        try:
            for i in range(_C.byoc_kernel_files_count(files)):
                kf = _C.byoc_kernel_files_at(files, i).contents
                if _s(kf.target) != target or _s(kf.signature) != sig:
                    continue
                if not kf.file:
                    raise ValueError("byoc: kernel %s on %s has no ONNX form: %s"
                                     % (sig, target, _s(kf.why)))
                return os.path.join(out, _s(kf.file))
        finally:
            _C.byoc_kernel_files_destroy(files)
        raise ValueError("byoc: kernel %s on %s was not written" % (sig, target))

    def close(self) -> None:
        if self.table:
            _C.byoc_cost_table_destroy(self.table)
            self.table = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Result(_Owned):
    """A placement of a graph: partitions in an order that can run, the total
    estimated latency (``total``, seconds) and how it was found."""

    _what = "result"

    def __init__(self, ptr, graph: Graph):
        self._ptr = ptr
        self.graph = graph
        r = ptr.contents
        g = graph
        self.strategy: str = _s(r.strategy)
        self.total: float = r.cost
        self.transfer_cost: float = r.transfer_cost
        self.optimal: bool = bool(r.optimal)
        self.budget_hit: bool = bool(r.budget_hit)
        self.time_hit: bool = bool(r.time_hit)
        self.lower_bound: float = r.lower_bound
        self.gap: float = _C.byoc_result_gap(ptr)
        buf = create_string_buffer(96)
        self.optimality: str = _s(_C.byoc_result_optimality(ptr, buf, len(buf)))
        self.targets: List[str] = [_s(r.targets[i].contents.name) for i in range(r.ntargets)]
        self.stats: Dict[str, Any] = {k: getattr(r, k) for k in (
            "ncandidates", "nkernels", "expanded", "generated", "from_table", "from_callback",
            "unknown", "kernels_from_table", "kernels_fallback", "candidate_seconds",
            "search_seconds")}
        parts = []
        for i in range(r.npartitions):
            p = r.partitions[i]
            q = Partition()
            q.index = i
            q.target = _s(p.target.contents.name)
            q.device = _s(p.device.contents.name) if p.device else None
            q.nodes = [p.nodes[j] for j in range(p.nnodes)]
            q.names = [g.nodes[j].name for j in q.nodes]
            q.ops = [g.nodes[j].op for j in q.nodes if g.nodes[j].kind == "call"]
            q.composites = [(_s(p.composites[c].pattern),
                             [p.composites[c].nodes[j] for j in range(p.composites[c].nnodes)])
                            for c in range(p.ncomposites)]
            q.cost = p.cost
            q.cost_source = _SOURCES.get(p.cost_source, str(p.cost_source))
            q.signature = _s(p.signature)
            parts.append(q)
        self.partitions: List[Partition] = parts
        n = len(g.nodes)
        self.node_partition: List[int] = [r.node_partition[i] for i in range(n)]

    def close(self) -> None:
        """Free the C result (the Python fields stay readable)."""
        if self._ptr:
            _C.byoc_result_destroy(self._ptr)
            self._ptr = None

    def _write(self, fn) -> str:
        ptr = self._live()
        e = _err()
        rc, data = _to_memory(lambda f: fn(ptr, f, byref(e)))
        if rc != 0:
            _raise(e)
        return data.decode("utf-8")

    def to_json(self) -> str:
        """The JSON of ``byoc partition -f json`` (doc/json.md)."""
        return self._write(_C.byoc_result_write_json)

    def to_dot(self) -> str:
        """Graphviz DOT, partitions as clusters coloured by target."""
        return self._write(_C.byoc_result_write_dot)

    def to_relay(self) -> str:
        """Relay text with each partition a function (Compiler="target")."""
        return self._write(_C.byoc_result_write_relay)

    def to_text(self) -> str:
        """The table ``byoc partition`` prints."""
        return self._write(_C.byoc_result_write_text)

    def write_onnx(self, directory: Union[str, os.PathLike], rewrite: bool = False) -> None:
        """Write one ONNX model per partition and plan.json into directory
        (which must not exist), as ``byoc partition -f onnx -o DIR``."""
        ptr = self._live()
        src = self.graph.source
        model = _b(src) if src and src.endswith(".onnx") and os.path.exists(src) else None
        wo = _lib.OnnxWriteOptions(bool(rewrite))
        e = _err()
        if _C.byoc_result_write_onnx(ptr, model, _b(directory), byref(wo), byref(e)) != 0:
            _raise(e)

    def check(self) -> None:
        """Run the library's independent checker; CheckError if it objects."""
        buf = create_string_buffer(1024)
        msg = _C.byoc_result_check(self._live(), buf, len(buf))
        if msg is not None:
            raise CheckError(_s(msg))

    def __repr__(self) -> str:
        return "<byoc.Result %s: %d partitions, %.3f us, %s>" % (
            self.strategy, len(self.partitions), self.total * 1e6, self.optimality)

    def _repr_html_(self) -> str:
        import html
        rows = "".join(
            "<tr><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td style='text-align:right'>"
            "%.3f</td><td>%s</td></tr>" % (
                p.index, html.escape(p.target), html.escape(p.device or ""),
                html.escape(", ".join(n or "?" for n in p.names)), p.cost * 1e6,
                html.escape(p.cost_source)) for p in self.partitions)
        return ("<table><caption>%s: %.3f us (%s)</caption><tr><th>#</th><th>target</th>"
                "<th>device</th><th>nodes</th><th>cost (us)</th><th>from</th></tr>%s</table>"
                % (html.escape(self.strategy), self.total * 1e6,
                   html.escape(self.optimality), rows))

    def to_svg(self) -> str:
        """The DOT rendered by Graphviz's dot (which must be on PATH)."""
        dot = shutil.which("dot")
        if not dot:
            raise RuntimeError("byoc: rendering needs Graphviz's 'dot' on PATH")
        p = subprocess.run([dot, "-Tsvg"], input=self.to_dot().encode(), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, check=False)
        if p.returncode != 0:
            raise RuntimeError("byoc: dot failed: " + p.stderr.decode(errors="replace"))
        return p.stdout.decode("utf-8")

    def _repr_svg_(self) -> Optional[str]:
        # Jupyter shows the first representation that is not None: the
        # picture with Graphviz, the HTML table without.
        if not shutil.which("dot"):
            return None
        try:
            return self.to_svg()
        except RuntimeError:
            return None


_OptionsArg = Optional[Mapping[str, Any]]


def _options_items(options: _OptionsArg) -> List[Tuple[str, str, Any]]:
    """{"tensorrt": {"use_fp16": True}} or {"tensorrt:use_fp16": True}."""
    out = []
    for k, v in (options or {}).items():
        if isinstance(v, Mapping):
            out.extend((k, n, x) for n, x in v.items())
        elif ":" in k:
            t, n = k.split(":", 1)
            out.append((t, n, v))
        else:
            raise OptionError("option '%s': name it 'target:option' or nest it under the "
                              "target" % k)
    return out


class _Options:
    """Options set for one call and taken back after it."""

    def __init__(self, reg: Registry, options: _OptionsArg):
        self.reg = reg
        self.items = _options_items(options)

    def __enter__(self):
        self.reg._lock.acquire()
        try:
            for t, n, v in self.items:
                self.reg.target(t)
                self.reg._set_text(t, n, _py_to_text(v))
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        try:
            if self.items:
                self.reg._restore()
        finally:
            self.reg._lock.release()


def _partition(graph: Graph, s: _Search) -> Result:
    e = _err()
    ptr = _C.byoc_partition_graph(graph._live(), byref(s.o), byref(e))  # GIL released here
    if s.exc is not None:
        if ptr:
            _C.byoc_result_destroy(ptr)
        raise s.exc
    if not ptr:
        _raise(e, PartitionError)
    r = Result(ptr, graph)
    graph._results.add(r)
    return r


def partition(graph: Graph, targets: Optional[Iterable[str]] = None, options: _OptionsArg = None,
              search: str = "optimal",
              cost: Union[None, str, os.PathLike, CostFunction] = None, *,
              max_states: int = 0, time_limit: float = 0.0, strict: bool = False) -> Result:
    """Place every call of graph on the targets, as ``byoc partition``.

    targets: names, highest priority first (default: the default device's
    targets, as the command); the native target of each device they use is
    added.  options: target options for this call only, as
    {"tensorrt": {"use_fp16": True}} or {"tensorrt:use_fp16": True}.
    search: "optimal", "greedy" or "single:TARGET".  cost: a cost table's
    path (CSV, doc/cost-table.md; strict=True makes a missing kernel an
    error), or a function f(kernel) -> seconds, math.inf (cannot run) or
    None (unknown: the analytic model answers); an exception it raises is
    raised from here.  max_states and time_limit bound the search (0: the
    library's defaults).  The GIL is released while the search runs."""
    with _Options(graph.registry, options), \
            _Search(graph, targets, search, cost, max_states, time_limit, strict) as s:
        return _partition(graph, s)


class Comparison:
    """``byoc compare``'s rows: (name, total seconds, partitions, optimal)."""

    def __init__(self, rows: List[Tuple[str, float, int, bool]]):
        self.rows = rows

    def __getitem__(self, name: str) -> float:
        for n, c, _, _ in self.rows:
            if n == name:
                return c
        raise KeyError(name)

    def speedup(self, name: str) -> float:
        """The native row's total over name's."""
        return self.rows[0][1] / self[name]

    def __repr__(self) -> str:
        w = max([8] + [len(r[0]) for r in self.rows])
        lines = ["%-*s  %14s  %8s  %10s" % (w, "placement", "latency (us)", "speed-up",
                                            "partitions")]
        for n, c, p, _ in self.rows:
            lines.append("%-*s  %14.3f  %8s  %10d" % (w, n, c * 1e6, "%.2fx" % (
                self.rows[0][1] / c) if c > 0 else "-", p))
        return "\n".join(lines)


def compare(graph: Graph, targets: Optional[Iterable[str]] = None, options: _OptionsArg = None,
            cost: Union[None, str, os.PathLike, CostFunction] = None, *,
            max_states: int = 0) -> Comparison:
    """The native targets alone, each backend alone with them (single:T),
    greedy and optimal, as ``byoc compare``."""
    reg = graph.registry
    with _Options(reg, options):
        with _Search(graph, targets, "optimal", cost, max_states, 0.0, False) as base:
            e = _err()
            n = _C.byoc_partition_targets(reg._live(), byref(base.o), None, 0, byref(e))
            if n < 0:
                _raise(e, OptionError)
            sel = (POINTER(_lib.TargetDecl) * max(1, n))()
            _C.byoc_partition_targets(reg._ptr, byref(base.o), sel, n, byref(e))
            names = [_s(sel[i].contents.name) for i in range(n)]
            natives = [nm for i, nm in enumerate(names)
                       if _C.byoc_target_supports_all(reg._ptr, sel[i])]
            runs = [("native (%s)" % ", ".join(natives), natives, "optimal")]
            runs += [("single:" + nm, natives, "single:" + nm) for nm in names
                     if nm not in natives]
            runs += [("greedy", names, "greedy"), ("optimal", names, "optimal")]
            rows = []
            for label, tg, strat in runs:
                with _Search(graph, tg, strat, cost if callable(cost) else None, max_states,
                             0.0, False) as s:
                    if base.table:
                        s.o.table = base.table
                    r = _partition(graph, s)
                    rows.append((label, r.total, len(r.partitions), r.optimal))
                    graph._results.discard(r)
                    r.close()
    return Comparison(rows)


class Reason:
    """Why a node is or is not on one target.  kind is "placed" (it is there:
    partition, kernel, cost), "possible" (it could be, as kernel at cost,
    but the best whole placement with it there costs placement_cost, more
    than the chosen one), "no_rule" (no rule of the target names its op) or
    "refused" (rules name it but none gives a kernel that holds it; details
    has one line per rule that failed, saying which pattern node or
    predicate clause failed and the values it saw).  Costs are seconds."""

    __slots__ = ("target", "kind", "text", "details", "partition", "kernel", "cost",
                 "placement_cost")

    def __init__(self, target: str, kind: str, text: str):
        self.target, self.kind, self.text = target, kind, text
        self.details: List[str] = []
        self.partition: Optional[int] = None
        self.kernel: Optional[str] = None
        self.cost: Optional[float] = None
        self.placement_cost: Optional[float] = None

    def __repr__(self) -> str:
        return "<byoc.Reason %s %s: %s>" % (self.target, self.kind, self.text)


_PLACED = re.compile(r"placed on (\S+): partition (\d+), kernel (.*), ([0-9.e+-]+) us; "
                     r"the whole placement ([0-9.e+-]+) us$")
_POSSIBLE = re.compile(r"possible \(as (.*), ([0-9.e+-]+) us\), but the best placement with "
                       r"it there costs ([0-9.e+-]+) us")


class Explanation:
    """byoc_explain's answer for one node, structured: header (the node and
    where it is in the source), reasons (one per target, in the order
    explained) and text (the library's own words, as ``byoc explain``)."""

    def __init__(self, text: str):
        self.text = text
        lines = text.splitlines()
        self.header = lines[0] if lines else ""
        self.reasons: List[Reason] = []
        for ln in lines[1:]:
            if ln.startswith("    ") and self.reasons:
                self.reasons[-1].details.append(ln.strip())
                continue
            body = ln.strip()
            m = _PLACED.match(body)
            if m:
                r = Reason(m.group(1), "placed", body)
                r.partition, r.kernel = int(m.group(2)), m.group(3)
                r.cost, r.placement_cost = float(m.group(4)) * 1e-6, float(m.group(5)) * 1e-6
                self.reasons.append(r)
                continue
            if ": " not in body:
                if self.reasons:
                    self.reasons[-1].details.append(body)
                continue
            t, rest = body.split(": ", 1)
            m = _POSSIBLE.match(rest)
            if m:
                r = Reason(t, "possible", rest)
                r.kernel = m.group(1)
                r.cost, r.placement_cost = float(m.group(2)) * 1e-6, float(m.group(3)) * 1e-6
            elif rest.startswith("no rule of "):
                r = Reason(t, "no_rule", rest)
            else:
                r = Reason(t, "refused", rest)
            self.reasons.append(r)

    def __getitem__(self, target: str) -> Reason:
        for r in self.reasons:
            if r.target == target:
                return r
        raise KeyError(target)

    @property
    def placed_on(self) -> Optional[str]:
        """The target the node is placed on, when it was explained."""
        for r in self.reasons:
            if r.kind == "placed":
                return r.target
        return None

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return "<byoc.Explanation %s>" % self.header


def explain(graph: Graph, node: Union[int, str], targets: Optional[Iterable[str]] = None,
            options: _OptionsArg = None,
            cost: Union[None, str, os.PathLike, CostFunction] = None) -> Explanation:
    """Why node (an id, "%42", "#12" or a name) is or is not placed on each
    target, as ``byoc explain --node``: reasons per target, structured."""
    idx = graph.find(node)
    with _Options(graph.registry, options), \
            _Search(graph, targets, "optimal", cost, 0, 0.0, False) as s:
        e = _err()
        tg, nt = s.o.targets, s.o.ntargets
        rc, data = _to_memory(lambda f: _C.byoc_explain(graph._live(), idx, tg, nt, byref(s.o),
                                                        f, byref(e)))
        if s.exc is not None:
            raise s.exc
        if rc != 0:
            _raise(e, PartitionError)
    return Explanation(data.decode("utf-8"))


def write_cost_table(graph: Graph, path: Union[str, os.PathLike],
                     measure: CostFunction, targets: Optional[Iterable[str]] = None,
                     options: _OptionsArg = None) -> int:
    """Price every kernel the search would consider with measure(kernel)
    and write the answers as a cost table (CSV "target,signature,seconds")
    that partition(cost=path) and ``byoc partition --cost table:PATH``
    read.  Kernels measure answers None for are left out.  Returns how many
    lines were written."""
    seen: Dict[Tuple[str, str], float] = {}

    def record(k: Kernel) -> Optional[float]:
        key = (k.target, k.signature)
        if key not in seen:
            v = measure(k)
            seen[key] = math.nan if v is None else float(v)
        v = seen[key]
        return None if math.isnan(v) else v

    partition(graph, targets, options, cost=record)

    def q(s: str) -> str:
        return '"' + s.replace('"', '""') + '"' if ("," in s or '"' in s) else s

    lines = ["target,signature,seconds"]
    for (t, sig), v in sorted(seen.items()):
        if not math.isnan(v):
            lines.append("%s,%s,%s" % (t, q(sig), "inf" if math.isinf(v) else repr(v)))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines) - 1
