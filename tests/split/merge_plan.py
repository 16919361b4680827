"""Join a plan's partitions into one ONNX model: their nodes in execution
order, their initializers once each, the plan's inputs and outputs.  Tensor
names are unique across a plan (doc/plan.md), so nothing is renamed.  A
Relay model has no ONNX original to compare a plan with; the plan of the
same model on one target, joined, is one.

Usage: merge_plan.py DIR/plan.json OUT.onnx"""
import json
import os
import sys

import onnx
from onnx import helper

if len(sys.argv) != 3:
    sys.exit(__doc__)
plan_path, out = sys.argv[1:3]
plan = json.load(open(plan_path))
base = os.path.dirname(os.path.abspath(plan_path))
nodes, inits, seen, opsets, ir = [], [], set(), {}, 3
inputs, outputs = {}, {}
for p in plan["partitions"]:
    m = onnx.load(os.path.join(base, p["file"]))
    ir = max(ir, m.ir_version)
    for o in m.opset_import:
        opsets[o.domain] = max(opsets.get(o.domain, 0), o.version)
    nodes.extend(m.graph.node)
    for t in m.graph.initializer:
        if t.name not in seen:
            seen.add(t.name)
            inits.append(t)
    for vi in m.graph.input:
        inputs.setdefault(vi.name, vi)
    for vi in m.graph.output:
        outputs[vi.name] = vi
g = helper.make_graph(nodes, "merged",
                      [inputs[t["name"]] for t in plan["inputs"] if t["name"] in inputs],
                      [outputs[t["name"]] for t in plan["outputs"]], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid(d, v) for d, v in sorted(opsets.items())])
m.ir_version = ir
onnx.save(m, out)
