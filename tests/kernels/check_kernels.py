#!/usr/bin/python3
"""Check a folder written by `byoc kernels -f onnx -o DIR` (doc/cost-table.md).

usage: check_kernels.py DIR [--relay KERNELS.relay] [--full] [--quiet]

- DIR/kernels.json has the documented form: format "byoc-kernels",
  version 1, each kernel with file (or null and a reason), target, device,
  runtime, signature, ops, inputs, estimate and source;
- with --relay, the kernels are the ones `byoc kernels -f relay` lists, in
  its order: the same number, the same (target, signature) pairs;
- each listed file exists, is named kN_TARGET.onnx with N its index, and
  passes onnx.checker.check_model (given the path, so external data is
  checked to be inside DIR), with full_check (shape inference) under
  --full; its graph inputs are kernels.json's, name for name, with the
  declared dtypes and shapes; it has at least one output;
- no file in DIR is neither a kernel, kernels.json, nor data a kernel
  refers to.

Exit status 0 when every check passes, 1 otherwise (each problem printed).
"""
import json
import os
import re
import sys

import onnx

DTYPES = {
    onnx.TensorProto.FLOAT: "float32", onnx.TensorProto.DOUBLE: "float64",
    onnx.TensorProto.FLOAT16: "float16", onnx.TensorProto.BFLOAT16: "bfloat16",
    onnx.TensorProto.INT8: "int8", onnx.TensorProto.INT16: "int16",
    onnx.TensorProto.INT32: "int32", onnx.TensorProto.INT64: "int64",
    onnx.TensorProto.UINT8: "uint8", onnx.TensorProto.UINT16: "uint16",
    onnx.TensorProto.UINT32: "uint32", onnx.TensorProto.UINT64: "uint64",
    onnx.TensorProto.BOOL: "bool",
}
KEYS = ["file", "target", "device", "runtime", "signature", "ops", "inputs", "estimate",
        "source"]


def relay_kernels(path):
    """(target, signature) of each kernel of a `byoc kernels -f relay` file."""
    out, target = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("# target: "):
                target = line[len("# target: "):].rstrip("\n")
            elif line.startswith("# signature: "):
                out.append((target, line[len("# signature: "):].rstrip("\n")))
    return out


def dims_of(vi):
    t = vi.type.tensor_type
    if not t.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else
            d.dim_param if d.HasField("dim_param") else None for d in t.shape.dim]


def main(argv):
    args = argv[1:]
    full = "--full" in args
    quiet = "--quiet" in args
    relay = None
    if "--relay" in args:
        relay = args[args.index("--relay") + 1]
        del args[args.index("--relay"):args.index("--relay") + 2]
    args = [a for a in args if a not in ("--full", "--quiet")]
    if len(args) != 1:
        print(__doc__.split("\n")[2], file=sys.stderr)
        return 2
    d = args[0]
    problems = []
    with open(os.path.join(d, "kernels.json"), encoding="utf-8") as f:
        kj = json.load(f)
    if kj.get("format") != "byoc-kernels" or kj.get("version") != 1:
        problems.append("kernels.json: not format byoc-kernels version 1")
    ks = kj.get("kernels", [])
    if relay:
        want = relay_kernels(relay)
        got = [(k.get("target"), k.get("signature")) for k in ks]
        if len(want) != len(got):
            problems.append(f"{len(got)} kernels, the Relay form lists {len(want)}")
        for i, (a, b) in enumerate(zip(want, got)):
            if a != b:
                problems.append(f"kernel {i}: {b} where the Relay form has {a}")
                break
    files = {"kernels.json"}
    written = 0
    for i, k in enumerate(ks):
        where = f"kernel {i}"
        missing = [key for key in KEYS if key not in k]
        if missing:
            problems.append(f"{where}: no {', '.join(missing)}")
            continue
        if not isinstance(k["ops"], list) or not k["ops"]:
            problems.append(f"{where}: no ops")
        if k["file"] is None:
            if not k.get("why"):
                problems.append(f"{where}: no file and no reason")
            continue
        name = k["file"]
        if name != f"k{i}_{re.sub(r'[^A-Za-z0-9_-]', '_', k['target'])}.onnx":
            problems.append(f"{where}: file name {name}")
        files.add(name)
        path = os.path.join(d, name)
        try:
            onnx.checker.check_model(path, full_check=full)
        except Exception as e:  # noqa: BLE001 - any checker complaint is a failure
            problems.append(f"{where} ({name}, {k['ops']}): checker: {str(e).splitlines()[0]}")
            continue
        m = onnx.load(path, load_external_data=False)
        for t in m.graph.initializer:
            for e in t.external_data:
                if e.key == "location":
                    files.add(e.value)
        for n in m.graph.node:
            for a in n.attribute:
                if a.HasField("t"):
                    for e in a.t.external_data:
                        if e.key == "location":
                            files.add(e.value)
        got = [(v.name, DTYPES.get(v.type.tensor_type.elem_type), dims_of(v))
               for v in m.graph.input]
        inits = {t.name for t in m.graph.initializer}
        got = [g for g in got if g[0] not in inits]
        want = [(v["name"], v["dtype"], v["shape"]) for v in k["inputs"]]
        if got != want:
            problems.append(f"{where} ({name}): graph inputs {got}, kernels.json says {want}")
        if not m.graph.output:
            problems.append(f"{where} ({name}): no outputs")
        written += 1
    extra = sorted(set(os.listdir(d)) - files)
    if extra:
        problems.append(f"files no kernel refers to: {extra}")
    for p in problems:
        print(f"{d}: {p}")
    if not quiet or problems:
        print(f"{d}: {len(ks)} kernels, {written} written, "
              f"{len(ks) - written} without an ONNX form, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
