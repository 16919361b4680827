#!/usr/bin/python3
"""Fill a graph-only ONNX model with deterministic random weights.

usage: fill-weights.py IN.onnx OUT.onnx [--seed N] [--inline] [--no-check]

The shared models (../shared/models/onnx*) keep names, dims and dtypes but
no weights: their initializers, and the Constant nodes of torch's QDQ
exports, point at an external data file that was never shipped.  To run
one under ONNX Runtime, every such tensor gets data here, of its declared
dtype and shape, and the rest of the model is copied unchanged: names,
nodes, opset imports and IR version stay as they were, so a plan made from
OUT.onnx names the same tensors as one made from IN.onnx.

A tensor needs data when it is external and its file is missing, or when
it holds no elements' worth of data at all.  A tensor whose data is there
(inline, or in an external file that exists) keeps it.

The data is random but chosen so that deep nets stay finite and their
outputs informative: what a tensor gets depends on what reads it, found by
following its consumers through the ops that only move data (Reshape,
Unsqueeze, Cast, ...):

  weights (rank >= 2)         U(-1,1) * sqrt(3 / fan_in): the variance of a
                              layer's output is about that of its input;
                              fan_in is what the reading op sums over
                              (Conv: C_in/group * kernel; MatMul: K; Gemm:
                              K by transB), else the product of the dims
                              after the first, leading 1s dropped
  scales (BatchNormalization  U(0.75, 1.25), positive near 1
  scale and variance, Layer-
  Normalization's and the
  contrib norms' gamma, a 1-D
  or scalar operand of Mul,
  a Div's divisor, scalars)
  other 1-D floats            U(-0.05, 0.05): biases, means, betas
  Pow's exponent              2
  Q/DQ scales                 U(0.005, 0.02)
  Q/DQ zero points            int8 in [-8, 8), uint8 in [120, 136), else 0
  DequantizeLinear's int8 /   uniform over the type's range but -128;
  uint8 data                  int32 biases: U(-0.02, 0.02) over the scale
                              when the scale is a known constant (else in
                              [-1000, 1000)): random int8 weights cannot
                              carry a signal through calibrated activation
                              scales, so the biases do, and the outputs of
                              torch_qresnet18_qdq stay input-dependent
  other integers              0 or 1 (small non-negative: valid indices)
  bool                        random

A shape or axes operand (Reshape's shape, Expand's, Tile's repeats, ...)
without data cannot be made up: that is an error.

Each tensor's numbers come from its own generator, seeded by --seed and the
tensor's name, so one tensor's data does not depend on the others.

Initializers of 1 KiB or more go to OUT.onnx's basename + '.data' beside
OUT.onnx (external data; the model itself stays small, and past 2 GiB a
model can only be stored that way); smaller ones and Constant nodes' values
stay inline.  --inline keeps everything in OUT.onnx (refused past 2 GiB).
OUT.onnx is checked with onnx.checker.check_model(path) unless --no-check.

Needs the onnx and numpy modules (Debian: python3-onnx, python3-numpy).
Exit status: 0 written, 1 the model cannot be filled, 2 usage.
"""

import argparse
import math
import os
import sys
import zlib

try:
    import numpy as np
    import onnx
    from onnx import TensorProto, AttributeProto, numpy_helper
except ImportError as e:  # pragma: no cover - depends on the host
    sys.stderr.write("fill-weights: cannot import %s (install python3-onnx and "
                     "python3-numpy, or run with /usr/bin/python3)\n" % e.name)
    sys.exit(2)

PROG = "fill-weights"
INLINE_BELOW = 1024          # bytes: smaller initializers stay inline
PROTO_LIMIT = 2 ** 31 - 1    # protobuf's limit on one message

# Ops that only move, cast or reshape data: a weight read through them has
# the role it has for the op at the end of the chain.
TRANSPARENT = {"Reshape", "Unsqueeze", "Squeeze", "Flatten", "Cast", "Identity",
               "Transpose", "Expand", "CastLike"}

# (op, input index) pairs that are shapes, axes or sizes: their values
# decide the graph's shapes and cannot be random.
SHAPE_OPERANDS = {("Reshape", 1), ("Expand", 1), ("Tile", 1), ("ConstantOfShape", 0),
                  ("Unsqueeze", 1), ("Squeeze", 1), ("Split", 1), ("Resize", 1),
                  ("Resize", 2), ("Resize", 3), ("Upsample", 1), ("Pad", 1), ("Pad", 3),
                  ("Slice", 1), ("Slice", 2), ("Slice", 3), ("Slice", 4),
                  ("ReduceSum", 1), ("ReduceMean", 1), ("ReduceMax", 1), ("ReduceMin", 1),
                  ("ReduceProd", 1), ("ReduceL2", 1), ("TopK", 1), ("OneHot", 1),
                  ("Range", 0), ("Range", 1), ("Range", 2), ("CumSum", 1),
                  ("NonMaxSuppression", 2)}

# (op, input index) of normalization scales: positive, near 1.
NEAR_ONE = {("BatchNormalization", 1), ("BatchNormalization", 4),
            ("InstanceNormalization", 1), ("LayerNormalization", 1),
            ("GroupNormalization", 1), ("SimplifiedLayerNormalization", 1),
            ("SkipLayerNormalization", 2), ("SkipSimplifiedLayerNormalization", 2),
            ("EmbedLayerNormalization", 5), ("Div", 1)}

QDQ = {"QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear"}

INT_RANGE = {TensorProto.INT8: (-128, 127), TensorProto.UINT8: (0, 255),
             TensorProto.INT16: (-32768, 32767), TensorProto.UINT16: (0, 65535),
             TensorProto.INT32: (-2 ** 31, 2 ** 31 - 1), TensorProto.UINT32: (0, 2 ** 32 - 1),
             TensorProto.INT64: (-2 ** 63, 2 ** 63 - 1), TensorProto.UINT64: (0, 2 ** 64 - 1)}
FLOATS = {TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.FLOAT16, TensorProto.BFLOAT16}
NP_INT = {TensorProto.INT8: np.int8, TensorProto.UINT8: np.uint8, TensorProto.INT16: np.int16,
          TensorProto.UINT16: np.uint16, TensorProto.INT32: np.int32,
          TensorProto.UINT32: np.uint32, TensorProto.INT64: np.int64,
          TensorProto.UINT64: np.uint64}
NP_FLOAT = {TensorProto.FLOAT: np.float32, TensorProto.DOUBLE: np.float64,
            TensorProto.FLOAT16: np.float16}


class FillError(Exception):
    pass


def dtype_name(dt):
    return TensorProto.DataType.Name(dt).lower()


def numel(t):
    n = 1
    for d in t.dims:
        n *= d
    return n


def elem_bytes(dt):
    if dt in (TensorProto.BFLOAT16, TensorProto.FLOAT16):
        return 2
    if dt == TensorProto.BOOL:
        return 1
    if dt in NP_INT:
        return np.dtype(NP_INT[dt]).itemsize
    if dt in NP_FLOAT:
        return np.dtype(NP_FLOAT[dt]).itemsize
    if dt == TensorProto.COMPLEX64:
        return 8
    if dt == TensorProto.COMPLEX128:
        return 16
    return 0


def external_info(t):
    return {e.key: e.value for e in t.external_data}


def has_inline_data(t):
    return bool(t.raw_data or t.float_data or t.int32_data or t.int64_data
                or t.double_data or t.uint64_data or t.string_data)


class Graphs:
    """Every graph of the model (the main one and subgraph bodies), each
    tensor that may need data, and who reads each name."""

    def __init__(self, model):
        self.consumers = {}     # name -> [(node, input index)]
        self.producer = {}      # name -> node
        self.tensors = []       # (name, TensorProto, kind) kind: "init" or "const"
        self.const_of = {}      # name -> TensorProto holding its value
        self._walk(model.graph)

    def _walk(self, g):
        for t in g.initializer:
            self.tensors.append((t.name, t, "init"))
            self.const_of[t.name] = t
        for n in g.node:
            for i, x in enumerate(n.input):
                if x:
                    self.consumers.setdefault(x, []).append((n, i))
            for o in n.output:
                self.producer[o] = n
            for a in n.attribute:
                if a.type == AttributeProto.GRAPH:
                    self._walk(a.g)
                elif a.type == AttributeProto.GRAPHS:
                    for sg in a.graphs:
                        self._walk(sg)
                elif n.op_type == "Constant" and a.name == "value" and a.type == AttributeProto.TENSOR:
                    self.tensors.append((n.output[0], a.t, "const"))
                    self.const_of[n.output[0]] = a.t


class _Uniform:
    """uniform(lo, hi, n) in the precision the tensor is stored in, so a
    float32 weight of 200M elements does not pass through float64."""

    def __init__(self, rng, dtype):
        self.rng, self.dtype = rng, dtype

    def uniform(self, lo, hi, n):
        v = self.rng.random(n, dtype=self.dtype)
        v *= self.dtype(hi - lo)
        v += self.dtype(lo)
        return v


class Filler:
    def __init__(self, model, in_dir, seed):
        self.model = model
        self.in_dir = in_dir
        self.seed = seed
        self.g = Graphs(model)

    # ---- which tensors need data ------------------------------------------
    def external_path(self, t):
        loc = external_info(t).get("location", "")
        return os.path.join(self.in_dir, loc) if loc else ""

    def needs_data(self, t):
        if t.data_location == TensorProto.EXTERNAL:
            p = self.external_path(t)
            return not (p and os.path.isfile(p))
        return numel(t) > 0 and not has_inline_data(t)

    # ---- roles ------------------------------------------------------------
    def roles(self, name, depth=0):
        """(op, input index, node, through) for each reader of name, found
        through data-moving ops; through is True when at least one such op
        lies between."""
        out = []
        for n, i in self.g.consumers.get(name, []):
            if n.op_type in TRANSPARENT and i == 0 and depth < 8 and n.output:
                sub = self.roles(n.output[0], depth + 1)
                out.extend((op, j, node, True) for op, j, node, _ in sub)
                if not sub:
                    out.append((n.op_type, i, n, depth > 0))
            else:
                out.append((n.op_type, i, n, depth > 0))
        return out

    def const_value(self, name):
        """The value of name when it is a constant with data, else None."""
        t = self.g.const_of.get(name)
        if t is None or self.needs_data(t):
            return None
        if t.data_location == TensorProto.EXTERNAL:
            return None
        try:
            return numpy_helper.to_array(t)
        except Exception:  # a type numpy_helper cannot read
            return None

    # ---- data -------------------------------------------------------------
    def rng(self, name):
        return np.random.default_rng([self.seed & 0xFFFFFFFF, zlib.crc32(name.encode())])

    def fan_in(self, dims, roles):
        dims = list(dims)
        for op, i, node, through in roles:
            if through:
                continue
            attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
            if op in ("Conv", "ConvTranspose", "FusedConv", "NhwcConv", "QLinearConv",
                      "ConvInteger") and i in (1, 3) and len(dims) >= 2:
                return max(1, int(np.prod(dims[1:])))
            if op in ("MatMul", "FusedMatMul", "MatMulInteger", "QLinearMatMul") and len(dims) >= 2:
                if i == 1:
                    return dims[-1] if attrs.get("transB", 0) else dims[-2]
                if i == 0:
                    return dims[-2] if attrs.get("transA", 0) else dims[-1]
            if op == "Gemm" and len(dims) == 2:
                if i == 1:
                    return dims[1] if attrs.get("transB", 0) else dims[0]
                if i == 0:
                    return dims[0] if attrs.get("transA", 0) else dims[1]
        while len(dims) > 2 and dims[0] == 1:
            dims = dims[1:]
        return max(1, int(np.prod(dims[1:])))

    def float_values(self, name, t, roles):
        n = numel(t)
        r = _Uniform(self.rng(name), np.float64 if t.data_type == TensorProto.DOUBLE
                     else np.float32)
        keys = {(op, i) for op, i, _, _ in roles}
        ops = {op for op, _, _, _ in roles}
        if ("Pow", 1) in keys:
            return np.full(n, 2.0)
        if any(op in QDQ and i == 1 for op, i in keys):
            return r.uniform(0.005, 0.02, n)
        if keys & NEAR_ONE or (len(t.dims) <= 1 and "Mul" in ops) or len(t.dims) == 0:
            return r.uniform(0.75, 1.25, n)
        if len(t.dims) == 1:
            return r.uniform(-0.05, 0.05, n)
        v = r.uniform(-1.0, 1.0, n)
        v *= v.dtype.type(math.sqrt(3.0 / self.fan_in(t.dims, roles)))
        return v

    def int_values(self, name, t, roles):
        n = numel(t)
        r = self.rng(name)
        dt = t.data_type
        lo, hi = INT_RANGE[dt]
        for op, i, node, _ in roles:
            if op in QDQ and i == 2:            # zero point
                if dt == TensorProto.INT8:
                    return r.integers(-8, 8, n)
                if dt == TensorProto.UINT8:
                    return r.integers(120, 136, n)
                return np.zeros(n, dtype=np.int64)
        for op, i, node, _ in roles:
            if op == "DequantizeLinear" and i == 0:
                if dt in (TensorProto.INT8, TensorProto.UINT8, TensorProto.INT16,
                          TensorProto.UINT16) or len(t.dims) >= 2:
                    return r.integers(max(lo, -127), hi, n, endpoint=True)
                # An int32 bias: a small float in units of its scale.
                scale = self.const_value(node.input[1]) if len(node.input) > 1 else None
                if scale is not None and scale.size >= 1 and np.all(scale > 0):
                    s = scale.astype(np.float64).reshape(-1)
                    s = s if s.size == n else np.full(n, s[0])
                    q = np.rint(r.uniform(-0.02, 0.02, n) / s)
                    return np.clip(q, -2 ** 30, 2 ** 30).astype(np.int64)
                return r.integers(-1000, 1000, n)
        return r.integers(0, 2, n)

    def values(self, name, t):
        """The new data of t: a contiguous little-endian array of its dtype."""
        dt = t.data_type
        roles = self.roles(name)
        for op, i, _, _ in roles:
            if (op, i) in SHAPE_OPERANDS:
                raise FillError("%s (%s %s) is input %d of %s, a shape or axes operand: "
                                "its values cannot be made up"
                                % (name, dtype_name(dt), list(t.dims), i, op))
        if dt in FLOATS:
            v = self.float_values(name, t, roles)
            if dt == TensorProto.BFLOAT16:
                f = v.astype(np.float32).view(np.uint32)
                # round to nearest even on the top 16 bits
                f = ((f + 0x7FFF + ((f >> 16) & 1)) >> 16).astype(np.uint16)
                return as_le(f, np.uint16)
            return as_le(v, NP_FLOAT[dt])
        if dt in NP_INT:
            v = self.int_values(name, t, roles)
            return as_le(np.asarray(v), NP_INT[dt])
        if dt == TensorProto.BOOL:
            return self.rng(name).integers(0, 2, numel(t)).astype(np.uint8)
        raise FillError("%s: cannot make up data of type %s" % (name, dtype_name(dt)))


def as_le(v, dtype):
    """v as a contiguous little-endian array of dtype, copied only if needed."""
    return np.ascontiguousarray(v, dtype=np.dtype(dtype).newbyteorder("<"))


def set_inline(t, data):
    t.ClearField("external_data")
    t.data_location = TensorProto.DEFAULT
    for f in ("float_data", "int32_data", "int64_data", "double_data", "uint64_data"):
        t.ClearField(f)
    t.raw_data = bytes(data)


def main(argv):
    ap = argparse.ArgumentParser(prog=PROG, description="Fill a graph-only ONNX model "
                                 "with deterministic random weights.")
    ap.add_argument("input", metavar="IN.onnx")
    ap.add_argument("output", metavar="OUT.onnx")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--inline", action="store_true",
                    help="keep all data inside OUT.onnx (at most 2 GiB)")
    ap.add_argument("--no-check", action="store_true",
                    help="do not run onnx.checker.check_model on OUT.onnx")
    a = ap.parse_args(argv)

    try:
        model = onnx.load(a.input, load_external_data=False)
    except Exception as e:
        sys.stderr.write("%s: %s: cannot read: %s\n" % (PROG, a.input, e))
        return 1
    out = os.path.abspath(a.output)
    if os.path.abspath(a.input) == out:
        sys.stderr.write("%s: IN and OUT are the same file\n" % PROG)
        return 2
    out_dir = os.path.dirname(out)
    data_name = os.path.basename(out) + ".data"
    data_path = os.path.join(out_dir, data_name)
    f = Filler(model, os.path.dirname(os.path.abspath(a.input)), a.seed)

    filled = kept = 0
    data = open(data_path + ".tmp", "wb") if not a.inline else None
    offset = 0
    inline_bytes = 0
    try:
        for name, t, kind in f.g.tensors:
            if f.needs_data(t):
                raw = memoryview(f.values(name, t)).cast("B")
                filled += 1
            elif t.data_location == TensorProto.EXTERNAL:
                # Data that is there, but beside IN.onnx: copy it beside OUT.
                info = external_info(t)
                with open(f.external_path(t), "rb") as src:
                    src.seek(int(info.get("offset", 0)))
                    n = int(info["length"]) if "length" in info else numel(t) * elem_bytes(t.data_type)
                    raw = memoryview(src.read(n))
                kept += 1
            else:
                kept += 1
                continue
            if data is None or kind == "const" or len(raw) < INLINE_BELOW:
                set_inline(t, raw)
                inline_bytes += len(raw)
                if inline_bytes > PROTO_LIMIT - (64 << 20):
                    raise FillError("the data passes 2 GiB: it cannot stay inline "
                                    "(leave out --inline)")
                continue
            align = 4096 if len(raw) >= (1 << 20) else 64
            pad = -offset % align
            data.write(b"\0" * pad)
            offset += pad
            data.write(raw)
            t.ClearField("raw_data")
            t.ClearField("external_data")
            t.data_location = TensorProto.EXTERNAL
            for k, v in (("location", data_name), ("offset", str(offset)),
                         ("length", str(len(raw)))):
                e = t.external_data.add()
                e.key, e.value = k, v
            offset += len(raw)
    except FillError as e:
        sys.stderr.write("%s: %s: %s\n" % (PROG, a.input, e))
        if data:
            data.close()
            os.unlink(data_path + ".tmp")
        return 1
    if data:
        data.close()
        if offset:
            os.replace(data_path + ".tmp", data_path)
        else:
            os.unlink(data_path + ".tmp")
            if os.path.exists(data_path):
                os.unlink(data_path)
    with open(out, "wb") as fo:
        fo.write(model.SerializeToString())
    if not a.no_check:
        try:
            onnx.checker.check_model(out)
        except Exception as e:
            sys.stderr.write("%s: %s: the filled model fails onnx.checker: %s\n" % (PROG, a.output, e))
            return 1
    sys.stderr.write("%s: %s: %d tensors filled, %d kept; %s\n"
                     % (PROG, a.output, filled, kept,
                        "%d bytes in %s" % (offset, data_name) if offset else "no external data"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
