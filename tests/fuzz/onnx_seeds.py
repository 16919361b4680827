#!/usr/bin/env python3
"""Small ONNX seeds for the ONNX fuzzer (tests/fuzz/fuzz.sh): one model per
op type of the reader's tables and domain (the default one and
com.microsoft), each a single node on small float inputs,
with the attributes and constant inputs its converter looks for.  Many are
not valid models; they are starting points for mutation, not tests.

    onnx_seeds.py OPS_FILE OUT_DIR

OPS_FILE lists op types, one per line (the dictionary's quoted names)."""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT

ATTRS = {
    "Conv": dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1]),
    "ConvTranspose": dict(kernel_shape=[3, 3], strides=[2, 2]),
    "MaxPool": dict(kernel_shape=[2, 2], strides=[2, 2]),
    "AveragePool": dict(kernel_shape=[2, 2], strides=[2, 2]),
    "LpPool": dict(kernel_shape=[2, 2]),
    "Transpose": dict(perm=[0, 2, 3, 1]),
    "Concat": dict(axis=1),
    "Softmax": dict(axis=-1),
    "LogSoftmax": dict(axis=-1),
    "Gather": dict(axis=0),
    "Flatten": dict(axis=1),
    "Split": dict(axis=1),
    "Cast": dict(to=TensorProto.FLOAT16),
    "DepthToSpace": dict(blocksize=2),
    "SpaceToDepth": dict(blocksize=2),
    "LeakyRelu": dict(alpha=0.1),
    "Gemm": dict(transB=1),
    "TopK": dict(axis=-1),
    "ArgMax": dict(axis=1),
    "ArgMin": dict(axis=1),
    "ReduceMean": dict(keepdims=1),
    "Resize": dict(mode="nearest"),
    "LayerNormalization": dict(axis=-1),
    "CumSum": dict(),
    "EyeLike": dict(),
}

# Constant inputs some converters need (name -> value), after the data.
CONSTS = {
    "Reshape": [np.array([1, -1], np.int64)],
    "Expand": [np.array([2, 3, 8, 8], np.int64)],
    "Tile": [np.array([1, 2, 1, 1], np.int64)],
    "Slice": [np.array([0], np.int64), np.array([4], np.int64), np.array([2], np.int64)],
    "Pad": [np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64)],
    "Unsqueeze": [np.array([0], np.int64)],
    "Squeeze": [np.array([0], np.int64)],
    "TopK": [np.array([2], np.int64)],
    "Gather": [np.array([0, 2], np.int64)],
    "ReduceSum": [np.array([1], np.int64)],
    "Resize": [np.array([], np.float32), np.array([1, 1, 2, 2], np.float32)],
    "ConstantOfShape": [],
    "Range": [],
    "OneHot": [np.array(4, np.int64), np.array([0, 1], np.float32)],
    "CumSum": [np.array(1, np.int64)],
    "Clip": [np.array(0, np.float32), np.array(6, np.float32)],
    "MatMul": [np.ones((8, 4), np.float32)],
    "Gemm": [np.ones((4, 8), np.float32), np.ones((4,), np.float32)],
    "Conv": [np.ones((4, 3, 3, 3), np.float32)],
    "ConvTranspose": [np.ones((3, 4, 3, 3), np.float32)],
    "BatchNormalization": [np.ones(3, np.float32)] * 4,
    "InstanceNormalization": [np.ones(3, np.float32)] * 2,
    "LayerNormalization": [np.ones(8, np.float32), np.zeros(8, np.float32)],
    "PRelu": [np.ones((3, 1, 1), np.float32)],
    "QuantizeLinear": [np.array(0.1, np.float32), np.array(0, np.int8)],
    "DequantizeLinear": [np.array(0.1, np.float32), np.array(0, np.int8)],
}

BINARY = {"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum", "Mean", "Equal", "Less",
          "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Mod", "Where",
          "BitShift"}


def model(op, domain):
    x = helper.make_tensor_value_info("x", F, [1, 3, 8, 8])
    inputs, inits = ["x"], []
    graph_inputs = [x]
    if op in BINARY:
        graph_inputs.append(helper.make_tensor_value_info("y", F, [1, 3, 8, 8]))
        inputs.append("y")
        if op == "Where":
            graph_inputs.append(helper.make_tensor_value_info("z", F, [1, 3, 8, 8]))
            inputs.append("z")
    for i, v in enumerate(CONSTS.get(op, [])):
        name = "c%d" % i
        inits.append(numpy_helper.from_array(v, name))
        inputs.append(name)
    node = helper.make_node(op, inputs, ["out"], domain=domain, **ATTRS.get(op, {}))
    out = helper.make_tensor_value_info("out", F, None)
    g = helper.make_graph([node], op.lower(), graph_inputs, [out], initializer=inits)
    opsets = [helper.make_opsetid("", 17)]
    if domain:
        opsets.append(helper.make_opsetid(domain, 1))
    return helper.make_model(g, opset_imports=opsets, ir_version=8)


def main():
    ops_file, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    ops = []
    with open(ops_file) as f:
        for line in f:
            line = line.strip()
            if len(line) > 2 and line[0] == '"' and line[1:2].isupper() and "\\" not in line:
                ops.append(line.strip('"'))
    # Each op in the default domain and in ONNX Runtime's com.microsoft,
    # where the contrib ops (FusedConv, Attention, QLinear*, ...) live.
    for op in ops:
        for domain, suffix in (("", ""), ("com.microsoft", "_ms")):
            try:
                m = model(op, domain)
            except Exception:       # a seed that cannot be built is skipped
                continue
            with open(os.path.join(out, "op_%s%s.onnx" % (op, suffix)), "wb") as f:
                f.write(m.SerializeToString())


if __name__ == "__main__":
    main()
