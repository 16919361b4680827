#!/usr/bin/python3
"""Check the ONNX files of a partition plan (doc/plan.md) against plan.json.

usage: check-plan.py DIR [--model ORIGINAL.onnx] [--quiet]

DIR holds plan.json and the partition models it names (DIR may also be the
plan.json file itself).  For each partition model:

  - onnx.checker.check_model as for its path, then the full check's strict
    shape inference (with type checks): a partition must be as valid as the
    model it came from, so a full check that fails is an error unless it
    fails on the original model too (then it is reported as a note);
  - its external data lies inside DIR (ONNX Runtime refuses a location that
    leaves the model's folder), in files that hold the ranges named;
  - its graph's inputs (initializers left out: IR < 4 lists them as inputs
    too) and outputs are, in order, the names plan.json lists for it, and
    their element types are the dtypes plan.json gives those tensors;
  - its opset imports are the original model's ("model" in plan.json,
    resolved from the current directory, then from DIR; --model overrides).

And across the plan, without running anything: every partition reads only
model inputs and outputs of earlier partitions, no tensor is written twice,
"tensors" lists exactly the tensors that cross (names, from, to ascending),
and each output's "from" is the partition that writes it.

Needs the onnx module (Debian: python3-onnx).  Exit status: 0 all checks
pass, 1 one fails (each failure is printed), 2 usage.
"""

import argparse
import json
import os
import sys

try:
    import onnx
except ImportError:  # pragma: no cover - depends on the host
    sys.stderr.write("check-plan: cannot import onnx (install python3-onnx, or run "
                     "with /usr/bin/python3)\n")
    sys.exit(2)

PROG = "check-plan"
DTYPES = {"float32": onnx.TensorProto.FLOAT, "float16": onnx.TensorProto.FLOAT16,
          "float64": onnx.TensorProto.DOUBLE, "bfloat16": onnx.TensorProto.BFLOAT16,
          "int8": onnx.TensorProto.INT8, "uint8": onnx.TensorProto.UINT8,
          "int16": onnx.TensorProto.INT16, "uint16": onnx.TensorProto.UINT16,
          "int32": onnx.TensorProto.INT32, "uint32": onnx.TensorProto.UINT32,
          "int64": onnx.TensorProto.INT64, "uint64": onnx.TensorProto.UINT64,
          "bool": onnx.TensorProto.BOOL}


def dtype_name(elem):
    for k, v in DTYPES.items():
        if v == elem:
            return k
    return onnx.TensorProto.DataType.Name(elem).lower() if elem else "unknown"


def opsets(model):
    out = {}
    for o in model.opset_import:
        out["" if o.domain in ("", "ai.onnx") else o.domain] = o.version
    return out


def fmt_opsets(d):
    return ", ".join("%s %d" % (k or "ai.onnx", v) for k, v in sorted(d.items()))


class Checker:
    def __init__(self, quiet):
        self.errors = 0
        self.quiet = quiet

    def error(self, msg):
        self.errors += 1
        print("%s: %s" % (PROG, msg))

    def note(self, msg):
        if not self.quiet:
            print("%s: note: %s" % (PROG, msg))


def check_model_in(model, folder):
    """onnx.checker.check_model on model, read from a file in folder: None
    when it passes, else the message.  The model is checked as bytes from
    within folder, which is what check_model(path) does (external data
    locations are relative to the model's folder) without its cost: onnx
    1.12 reads a 500 MB file in about 10 s there, 0.5 s here."""
    old = os.getcwd()
    os.chdir(folder)
    try:
        onnx.checker.check_model(model.SerializeToString())
        return None
    except Exception as e:  # onnx raises several types
        return str(e).strip() or type(e).__name__
    finally:
        os.chdir(old)


def all_tensors(g):
    for t in g.initializer:
        yield t
    for n in g.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.TENSOR:
                yield a.t
            elif a.type == onnx.AttributeProto.TENSORS:
                yield from a.tensors
            elif a.type == onnx.AttributeProto.GRAPH:
                yield from all_tensors(a.g)
            elif a.type == onnx.AttributeProto.GRAPHS:
                for sg in a.graphs:
                    yield from all_tensors(sg)


def external_data_problems(model, folder):
    """What ONNX Runtime would refuse in model's external data, one message
    per problem and file: a location outside folder (ORT 1.30: "External
    data path escapes model directory"), a missing file, a range past its
    end."""
    root = os.path.realpath(folder)
    sizes = {}
    found = {}  # (problem, location) -> tensor names
    for t in all_tensors(model.graph):
        if t.data_location != onnx.TensorProto.EXTERNAL:
            continue
        info = {e.key: e.value for e in t.external_data}
        loc = info.get("location", "")
        full = os.path.realpath(os.path.join(root, loc))
        if not loc or os.path.isabs(loc) or os.path.commonpath([root, full]) != root:
            problem = "is outside the plan's folder, which ONNX Runtime refuses"
        else:
            if full not in sizes:
                sizes[full] = os.path.getsize(full) if os.path.isfile(full) else -1
            try:
                end = int(info.get("offset", 0)) + int(info.get("length", 0))
            except ValueError:
                end = -1
            if sizes[full] < 0:
                problem = "does not exist"
            elif end < 0:
                problem = "is given with an offset or length that is not a number"
            elif end > sizes[full]:
                problem = "holds %d bytes, fewer than the data's ranges need" % sizes[full]
            else:
                continue
        found.setdefault((problem, loc), []).append(t.name or "(a Constant's value)")
    for (problem, loc), names in found.items():
        shown = ", ".join(names[:3]) + (" and %d more" % (len(names) - 3) if len(names) > 3 else "")
        yield "the external data file %r of %s %s" % (loc, shown, problem)


def full_check_error(model):
    """None when model passes the full check's strict shape inference, else
    the message.  onnx.checker.check_model(path, full_check=True) would
    write the inferred model over the file (onnx 1.12's infer_shapes_path
    writes back to its input by default), so the inference runs here in
    memory, after the data of large initializers is dropped from model (it
    is not used again): inference reads only small constants (shapes,
    axes)."""
    for t in model.graph.initializer:
        if len(t.raw_data) > 65536:
            t.ClearField("raw_data")
            t.data_location = onnx.TensorProto.EXTERNAL
            e = t.external_data.add()
            e.key, e.value = "location", "dropped"
    try:
        onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
        return None
    except Exception as e:  # onnx raises several types
        msg = str(e).strip()
        return msg.splitlines()[0] if msg else type(e).__name__


def check_structure(c, plan, where):
    """The plan's own consistency: order, writers, crossing tensors."""
    parts = plan["partitions"]
    writer = {}
    model_inputs = [i.get("name") for i in plan["inputs"]]
    crossed = {}
    unresolved = set()
    for i, p in enumerate(parts):
        for x in p["inputs"]:
            if x in model_inputs:
                src = None
            elif x in writer:
                src = writer[x]
            else:
                later = [j for j in range(i + 1, len(parts)) if x in parts[j]["outputs"]]
                unresolved.add(x)
                c.error("%s: partition %d reads %s, which %s" % (
                    where, i, x, "only partition %d, later, writes: the partitions are not in "
                    "execution order" % later[0] if later else
                    "is neither a model input nor an output of an earlier partition"))
                continue
            e = crossed.setdefault(x, {"from": src, "to": []})
            if i not in e["to"]:
                e["to"].append(i)
        for x in p["outputs"]:
            if x in model_inputs:
                c.error("%s: partition %d writes %s, which is a model input" % (where, i, x))
            elif x in writer:
                c.error("%s: partitions %d and %d both write %s" % (where, writer[x], i, x))
            else:
                writer[x] = i
    listed = {}
    for t in plan["tensors"]:
        name = t.get("name")
        if name in listed:
            c.error("%s: \"tensors\" lists %s twice" % (where, name))
        listed[name] = t
    for name, e in crossed.items():
        t = listed.get(name)
        if t is None:
            c.error("%s: %s crosses from %s to %s, but \"tensors\" does not list it"
                    % (where, name, fmt_from(e["from"]), ",".join(map(str, e["to"]))))
            continue
        if t.get("from") != e["from"]:
            c.error("%s: tensor %s comes from %s, \"tensors\" says %s"
                    % (where, name, fmt_from(e["from"]), fmt_from(t.get("from"))))
        if t.get("to") != e["to"]:
            c.error("%s: tensor %s goes to %s, \"tensors\" says %s"
                    % (where, name, e["to"], t.get("to")))
    for name in listed:
        if name not in crossed and name not in unresolved:
            c.error("%s: \"tensors\" lists %s, which no partition reads" % (where, name))
    for o in plan["outputs"]:
        name = o.get("name")
        src = None if name in model_inputs and name not in writer else writer.get(name, "none")
        if src == "none":
            c.error("%s: output %s is written by no partition and is no model input" % (where, name))
        elif o.get("from") != src:
            c.error("%s: output %s comes from %s, plan.json says %s"
                    % (where, name, fmt_from(src), fmt_from(o.get("from"))))


def fmt_from(f):
    return "a model input" if f is None else "partition %s" % f


def main(argv):
    ap = argparse.ArgumentParser(prog=PROG, description="Check a partition plan's ONNX files.")
    ap.add_argument("dir", metavar="DIR")
    ap.add_argument("--model", help="the original model (default: plan.json's \"model\")")
    ap.add_argument("--quiet", action="store_true", help="print failures only")
    a = ap.parse_args(argv)

    plan_path = a.dir if os.path.isfile(a.dir) else os.path.join(a.dir, "plan.json")
    plan_dir = os.path.dirname(os.path.abspath(plan_path))
    try:
        with open(plan_path) as f:
            plan = json.load(f)
    except OSError as e:
        sys.stderr.write("%s: cannot read %s: %s\n" % (PROG, plan_path, e.strerror))
        return 2
    except ValueError as e:
        print("%s: %s: not JSON: %s" % (PROG, plan_path, e))
        return 1
    c = Checker(a.quiet)
    where = plan_path
    if not isinstance(plan, dict) or plan.get("version") != 1:
        c.error("%s: not a version 1 plan" % where)
        return 1
    for k in ("inputs", "outputs", "partitions", "tensors"):
        if not isinstance(plan.get(k), list):
            c.error("%s: \"%s\" is not an array" % (where, k))
            return 1
    for i, p in enumerate(plan["partitions"]):
        if not isinstance(p, dict) or not isinstance(p.get("file"), str) \
                or not all(isinstance(p.get(k), list) for k in ("inputs", "outputs")):
            c.error("%s: partition %d lacks \"file\", \"inputs\" or \"outputs\"" % (where, i))
            return 1

    # The original model.  One read from Relay text has no ONNX to compare
    # with: its partitions are written at opset 17 (doc/onnx.md).
    model_path = a.model
    relay = plan.get("model_format") == "relay" and model_path is None
    if relay:
        original = None
        want_opsets = {"": 17}
    if model_path is None and not relay:
        m = plan.get("model")
        if not isinstance(m, str) or not m:
            c.error("%s: no \"model\"; give --model" % where)
            return 1
        cands = [m] if os.path.isabs(m) else [m, os.path.join(plan_dir, m)]
        model_path = next((x for x in cands if os.path.isfile(x)), None)
        if model_path is None:
            c.error("%s: the model %s is neither at %s; give --model"
                    % (where, m, " nor at ".join(cands)))
            return 1
    try:
        if not relay:
            original = onnx.load(model_path, load_external_data=False)
    except Exception as e:
        c.error("%s: cannot read the model: %s" % (model_path, e))
        return 1
    if not relay:
        want_opsets = opsets(original)
    original_full = None  # computed when a partition fails the full check

    dtype_of = {}
    for lst in (plan["inputs"], plan["outputs"], plan["tensors"]):
        for t in lst:
            if isinstance(t, dict) and t.get("name") and t.get("dtype"):
                dtype_of.setdefault(t["name"], t["dtype"])
    for name, dt in dtype_of.items():
        if dt not in DTYPES:
            c.error("%s: %s has dtype %s, not one of plan.json's names" % (where, name, dt))

    check_structure(c, plan, where)

    for i, p in enumerate(plan["partitions"]):
        path = os.path.join(plan_dir, p["file"])
        pw = "partition %d (%s)" % (i, p["file"])
        if not os.path.isfile(path):
            c.error("%s: no such file %s" % (pw, path))
            continue
        try:
            m = None
            m = onnx.load(path, load_external_data=False)
        except Exception as e:
            c.error("%s: cannot read: %s" % (pw, e))
            continue
        err = check_model_in(m, plan_dir)
        if err is not None:
            c.error("%s: onnx.checker: %s" % (pw, err))
            continue
        for msg in external_data_problems(m, plan_dir):
            c.error("%s: %s" % (pw, msg))
        err = full_check_error(m)
        if err is not None:
            if original_full is None:
                original_full = (full_check_error(original) or "") if original else ""
            if original_full:
                c.note("%s fails the full check (%s), as the original model does" % (pw, err))
            else:
                c.error("%s: onnx.checker full_check: %s" % (pw, err))
        g = m.graph
        inits = {t.name for t in g.initializer}
        ins = [v.name for v in g.input if v.name not in inits]
        outs = [v.name for v in g.output]
        for kind, got, want in (("inputs", ins, p["inputs"]), ("outputs", outs, p["outputs"])):
            if got != want:
                how = "in another order" if sorted(got) == sorted(want) else ""
                missing = [x for x in want if x not in got]
                extra = [x for x in got if x not in want]
                detail = "; ".join(filter(None, [
                    how,
                    "missing %s" % ", ".join(missing) if missing else "",
                    "not in plan.json: %s" % ", ".join(extra) if extra else ""]))
                c.error("%s: graph %s [%s], plan.json lists [%s] (%s)"
                        % (pw, kind, ", ".join(got), ", ".join(want), detail))
        for v in list(g.input) + list(g.output):
            if v.name in inits or v.name not in dtype_of:
                continue
            elem = v.type.tensor_type.elem_type
            if dtype_of[v.name] in DTYPES and elem != DTYPES[dtype_of[v.name]]:
                c.error("%s: %s is %s in the partition, %s in plan.json"
                        % (pw, v.name, dtype_name(elem), dtype_of[v.name]))
        got_opsets = opsets(m)
        if got_opsets != want_opsets:
            c.error("%s: opset imports {%s}, the original model's are {%s}"
                    % (pw, fmt_opsets(got_opsets), fmt_opsets(want_opsets)))
        if original is not None and m.ir_version != original.ir_version:
            c.note("%s: IR version %d, the original model's is %d"
                   % (pw, m.ir_version, original.ir_version))
    if c.errors:
        print("%s: %s: %d problem%s" % (PROG, where, c.errors, "" if c.errors == 1 else "s"))
        return 1
    if not a.quiet:
        print("%s: %s: %d partitions pass" % (PROG, where, len(plan["partitions"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
