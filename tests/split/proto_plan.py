#!/usr/bin/python3
"""Fixtures for the plan tools (tests/split/tools.sh): a small graph-only
model, and plans of a model cut by hand, right or deliberately wrong.

usage: proto_plan.py model OUT.onnx
       proto_plan.py split MODEL.onnx DIR K [--break KIND]

`model` writes a graph-only model in the shared models' form (weights
external, their file never shipped) that exercises what the tools must
handle: a symbolic batch N, float32 and int64 inputs, Conv and
BatchNormalization, a QDQ pair with constant scale and zero point, an int8
weight in a Constant node dequantized, a Gather of an embedding, a Shape
(an int64 tensor that crosses), and outputs of four dtypes, one a model
input passed through.

`split` cuts MODEL's nodes, in their (topological) order, into K runs of
about equal length, writes each as DIR/pI.onnx with the initializers it
reads (data inline) and writes DIR/plan.json (doc/plan.md) as byoc would.
--break writes a plan that is wrong in one way, for the checkers to catch:
tensors (a wrong "to"), outputs (a partition lists an output its file does
not write), order (partitions 0 and 1 swapped), dtype (a crossing tensor's
dtype), opset (partition 0 imports opset 18), escape (partition 0's weights
in an external file outside DIR), values (a weight or scale of the last
partition scaled by 1.5).
"""

import argparse
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper as nh, shape_inference

DTYPE = {T.FLOAT: "float32", T.FLOAT16: "float16", T.DOUBLE: "float64", T.BFLOAT16: "bfloat16",
         T.INT8: "int8", T.UINT8: "uint8", T.INT16: "int16", T.UINT16: "uint16",
         T.INT32: "int32", T.UINT32: "uint32", T.INT64: "int64", T.UINT64: "uint64",
         T.BOOL: "bool"}


def unshipped(name, dtype, dims, offset):
    """A tensor declared with external data in a file that is not there."""
    t = T()
    t.name, t.data_type = name, dtype
    t.dims.extend(dims)
    t.data_location = T.EXTERNAL
    n = int(np.prod(dims)) * {T.FLOAT: 4, T.INT8: 1}[dtype]
    for k, v in (("location", "proto.weights(not-shipped)"), ("offset", str(offset)),
                 ("length", str(n))):
        e = t.external_data.add()
        e.key, e.value = k, v
    return t, offset + n


def make_model(out):
    inits, off = [], 0
    for name, dims in (("W", [4, 3, 3, 3]), ("B", [4]), ("bn_s", [4]), ("bn_b", [4]),
                       ("bn_m", [4]), ("bn_v", [4]), ("E", [10, 4]), ("W2", [4, 5])):
        t, off = unshipped(name, T.FLOAT, dims, off)
        inits.append(t)
    inits += [nh.from_array(np.array(0.05, np.float32), "qs"),
              nh.from_array(np.array(0, np.uint8), "qz"),
              nh.from_array(np.array(0.02, np.float32), "s3"),
              nh.from_array(np.array(0, np.int8), "z3"),
              nh.from_array(np.array(0.0, np.float32), "zero")]
    w3, off = unshipped("", T.INT8, [4, 5], off)
    nodes = [
        h.make_node("Conv", ["x", "W", "B"], ["c"], pads=[1, 1, 1, 1]),
        h.make_node("BatchNormalization", ["c", "bn_s", "bn_b", "bn_m", "bn_v"], ["n"]),
        h.make_node("Relu", ["n"], ["r"]),
        h.make_node("QuantizeLinear", ["r", "qs", "qz"], ["rq"]),
        h.make_node("DequantizeLinear", ["rq", "qs", "qz"], ["rd"]),
        h.make_node("GlobalAveragePool", ["rd"], ["g"]),
        h.make_node("Flatten", ["g"], ["f"]),
        h.make_node("Gather", ["E", "ids"], ["e"]),
        h.make_node("ReduceMean", ["e"], ["em"], axes=[1], keepdims=0),
        h.make_node("Add", ["f", "em"], ["a"]),
        h.make_node("MatMul", ["a", "W2"], ["y"]),
        h.make_node("Constant", [], ["w3"], value=w3),
        h.make_node("DequantizeLinear", ["w3", "s3", "z3"], ["w3f"]),
        h.make_node("MatMul", ["a", "w3f"], ["y2"]),
        h.make_node("Cast", ["y2"], ["y16"], to=T.FLOAT16),
        h.make_node("Greater", ["y", "zero"], ["yb"]),
        h.make_node("Shape", ["x"], ["xs"]),
    ]
    vi = h.make_tensor_value_info
    graph = h.make_graph(
        nodes, "proto",
        [vi("x", T.FLOAT, ["N", 3, 8, 8]), vi("ids", T.INT64, ["N", 4])],
        [vi("y", T.FLOAT, ["N", 5]), vi("y16", T.FLOAT16, ["N", 5]), vi("yb", T.BOOL, ["N", 5]),
         vi("xs", T.INT64, [4]), vi("ids", T.INT64, ["N", 4])],
        inits)
    m = h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], producer_name="proto_plan")
    m.ir_version = 8
    onnx.save(m, out)


def shape_json(v):
    tt = v.type.tensor_type
    if not tt.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in tt.shape.dim]


def split(model_path, out_dir, k, brk):
    model = onnx.load(model_path)
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    types = {}
    inferred = shape_inference.infer_shapes(model)
    for v in list(inferred.graph.input) + list(inferred.graph.output) + list(inferred.graph.value_info):
        if v.type.tensor_type.elem_type:
            types[v.name] = v
    nodes = list(g.node)
    cuts = [round(i * len(nodes) / k) for i in range(k + 1)]
    chunks = [nodes[cuts[i]:cuts[i + 1]] for i in range(k)]
    writer = {o: ci for ci, ch in enumerate(chunks) for n in ch for o in n.output if o}
    model_outputs = [v.name for v in g.output]
    reads = [[x for n in ch for x in n.input if x and x not in inits and writer.get(x) != ci]
             for ci, ch in enumerate(chunks)]
    os.makedirs(out_dir, exist_ok=True)
    parts, tensors = [], {}
    for ci, ch in enumerate(chunks):
        ins = list(dict.fromkeys(reads[ci]))
        outs = list(dict.fromkeys(
            o for n in ch for o in n.output
            if o and (o in model_outputs or any(o in reads[j] for j in range(ci + 1, k)))))
        for x in ins:
            tensors.setdefault(x, {"name": x, "dtype": DTYPE[types[x].type.tensor_type.elem_type],
                                   "shape": shape_json(types[x]), "from": writer.get(x),
                                   "to": []})["to"].append(ci)
        used = list(dict.fromkeys(x for n in ch for x in n.input if x in inits))
        sub_inits = []
        for x in used:
            t = T()
            t.CopyFrom(inits[x])
            sub_inits.append(t)
        if brk == "values" and ci == k - 1:
            for t in sub_inits:
                a = nh.to_array(t) if t.data_type == T.FLOAT else None
                if a is not None and a.any():
                    t.CopyFrom(nh.from_array((a * np.float32(1.5)).astype(np.float32), t.name))
                    break
        sub = h.make_model(
            h.make_graph([n for n in ch], "proto_p%d" % ci, [types[x] for x in ins],
                         [types[o] for o in outs], sub_inits),
            opset_imports=list(model.opset_import))
        sub.ir_version = model.ir_version
        if brk == "opset" and ci == 0:
            sub.opset_import[0].version = 18
        f = "p%d.onnx" % ci
        if brk == "escape" and ci == 0:
            onnx.save_model(sub, os.path.join(out_dir, f), save_as_external_data=True,
                            location="../escape.data", size_threshold=0)
        else:
            onnx.save(sub, os.path.join(out_dir, f))
        parts.append({"file": f, "target": "proto", "device": "cpu",
                      "runtime": "onnxruntime:CPUExecutionProvider", "calls": len(ch),
                      "cost_us": 1.0, "inputs": ins, "outputs": outs})
    plan = {"version": 1, "model": model_path, "strategy": "greedy",
            "inputs": [{"name": v.name, "dtype": DTYPE[v.type.tensor_type.elem_type],
                        "shape": shape_json(v)} for v in g.input if v.name not in inits],
            "outputs": [{"name": v.name, "dtype": DTYPE[v.type.tensor_type.elem_type],
                         "shape": shape_json(v), "from": writer.get(v.name)} for v in g.output],
            "partitions": parts, "tensors": list(tensors.values())}
    crossing = [t for t in plan["tensors"] if t["from"] is not None]
    if brk == "tensors":
        plan["tensors"][0]["to"].append(k + 5)
    elif brk == "outputs":
        plan["partitions"][0]["outputs"].append("no_such_tensor")
    elif brk == "order":
        plan["partitions"][0], plan["partitions"][1] = plan["partitions"][1], plan["partitions"][0]
    elif brk == "dtype":
        crossing[0]["dtype"] = "float16" if crossing[0]["dtype"] != "float16" else "float32"
    with open(os.path.join(out_dir, "plan.json"), "w") as fo:
        json.dump(plan, fo, indent=1)


def main(argv):
    ap = argparse.ArgumentParser(prog="proto_plan")
    sp = ap.add_subparsers(dest="cmd", required=True)
    m = sp.add_parser("model")
    m.add_argument("out")
    s = sp.add_parser("split")
    s.add_argument("model")
    s.add_argument("dir")
    s.add_argument("k", type=int)
    s.add_argument("--break", dest="brk", default="",
                   choices=["", "tensors", "outputs", "order", "dtype", "opset", "escape",
                            "values"])
    a = ap.parse_args(argv)
    if a.cmd == "model":
        make_model(a.out)
    else:
        split(a.model, a.dir, a.k, a.brk)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
