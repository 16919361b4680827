#!/bin/sh
# The plan tools (doc/plan.md §4) on a small generated model, without byoc:
# tests/split/proto_plan.py writes a graph-only model and cuts it into plans
# by hand.  fill-weights.py fills the model deterministically; right plans of
# 1 to 4 partitions pass check-plan.py and ort-split-run.js; each kind of
# wrong plan fails both tools that can see it, with a message that says
# what is wrong; usage errors exit 2.  Skipped (77) without node,
# onnxruntime-node, or a Python with onnx and numpy.
set -u
: "${top_srcdir:?}"
SPLIT_RUN_LIB=1
. "$top_srcdir/tests/split/split_run.sh"
split_run_find_tools
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
py() { "$PYTHON_ONNX" "$@"; }
proto() { py "$top_srcdir/tests/split/proto_plan.py" "$@"; }
check() { py "$tools/check-plan.py" "$@"; }
# shellcheck disable=SC2086
run() { "$NODE" "$tools/ort-split-run.js" ${SPLIT_RUN_ORT:+--ort "$SPLIT_RUN_ORT"} "$@"; }

# expect NAME STATUS PATTERN CMD...: CMD exits STATUS and prints PATTERN.
expect() {
    name=$1 want=$2 pat=$3
    shift 3
    "$@" >"$tmp/out" 2>&1
    got=$?
    if [ "$got" -eq "$want" ] && { [ -z "$pat" ] || grep -q -- "$pat" "$tmp/out"; }; then
        ok "$name"
    else
        bad "$name (exit $got, wanted $want${pat:+ and \"$pat\"})"
        sed 's/^/  /' "$tmp/out"
    fi
}

proto model "$tmp/m.onnx" || exit 99
expect "fill-weights fills the graph-only model" 0 "9 tensors filled" \
    py "$tools/fill-weights.py" "$tmp/m.onnx" "$tmp/f.onnx"
py "$tools/fill-weights.py" "$tmp/m.onnx" "$tmp/f2.onnx" 2>/dev/null
py "$tools/fill-weights.py" "$tmp/m.onnx" "$tmp/f3.onnx" --seed 7 2>/dev/null
# The model's tensors are all under 1 KiB: inline, no data file.
if cmp -s "$tmp/f.onnx" "$tmp/f2.onnx"; then
    ok "fill-weights is deterministic"; else bad "fill-weights is deterministic"; fi
if ! cmp -s "$tmp/f.onnx" "$tmp/f3.onnx"; then
    ok "fill-weights --seed changes the data"; else bad "fill-weights --seed changes the data"; fi
expect "fill-weights: a model that cannot be read" 1 "cannot read" \
    py "$tools/fill-weights.py" "$tmp/none.onnx" "$tmp/x.onnx"

f=$tmp/f.onnx
for k in 1 2 3 4; do
    proto split "$f" "$tmp/k$k" "$k" || exit 99
    expect "check-plan: $k partitions" 0 "$k partitions pass" check "$tmp/k$k"
    expect "ort-split-run: $k partitions" 0 "^ok: 5 outputs, 5 bit-identical" \
        run --plan "$tmp/k$k/plan.json" --model "$f" --dim N=3
done
run --plan "$tmp/k3/plan.json" --model "$f" --dim N=2 --json --whole-cache "$tmp/whole" \
    >"$tmp/j1" 2>&1
run --plan "$tmp/k2/plan.json" --model "$f" --dim N=2 --json --whole-cache "$tmp/whole" \
    >"$tmp/j2" 2>&1
if "$NODE" -e '
    const fs = require("fs");
    const a = JSON.parse(fs.readFileSync(process.argv[1])), b = JSON.parse(fs.readFileSync(process.argv[2]));
    const ok = a.ok && b.ok && !a.whole.cached && b.whole.cached && a.outputs.length === 5 &&
      a.inputs.every((i) => i.shape[0] === 2) && a.dims.N === 2 && a.tensors.ok;
    process.exit(ok ? 0 : 1);' "$tmp/j1" "$tmp/j2"; then
    ok "ort-split-run --json, --whole-cache"
else
    bad "ort-split-run --json, --whole-cache"; cat "$tmp/j1" "$tmp/j2"
fi
# --time: medians of the chain, of each partition and of the whole model.
run --plan "$tmp/k3/plan.json" --model "$f" --dim N=2 --json --time 3 --warmup 1 >"$tmp/j3" 2>&1
if "$NODE" -e '
    const a = JSON.parse(require("fs").readFileSync(process.argv[1])), t = a.time;
    const pos = (x) => typeof x === "number" && x > 0;
    process.exit(a.ok && t && t.repeat === 3 && t.warmup === 1 && pos(t.plan_ms) && pos(t.whole_ms) &&
      t.partitions_ms.length === a.partitions.length && t.partitions_ms.every(pos) ? 0 : 1);' "$tmp/j3"; then
    ok "ort-split-run --time"
else
    bad "ort-split-run --time"; cat "$tmp/j3"
fi
expect "ort-split-run: --time 0" 2 "at least 1" run --plan "$tmp/k2/plan.json" --model "$f" --time 0

# Wrong plans, each of one kind.
for case in \
    "tensors|1|goes to|1|goes to" \
    "outputs|1|missing no_such_tensor|1|produces fewer outputs than plan.json lists" \
    "order|1|not in execution order|1|not in execution order" \
    "dtype|1|in plan.json|1|in plan.json" \
    "opset|1|opset imports {ai.onnx 18}, the original model's are {ai.onnx 17}|0|^ok" \
    "escape|1|outside the plan's folder|1|escapes model directory" \
    "values|0|partitions pass|1|exceeds the tolerance"; do
    kind=${case%%|*}; rest=${case#*|}
    cst=${rest%%|*}; rest=${rest#*|}
    cpat=${rest%%|*}; rest=${rest#*|}
    rst=${rest%%|*}; rpat=${rest#*|}
    proto split "$f" "$tmp/b_$kind" 3 --break "$kind" || exit 99
    expect "check-plan: wrong $kind" "$cst" "$cpat" check "$tmp/b_$kind"
    expect "ort-split-run: wrong $kind" "$rst" "$rpat" \
        run --plan "$tmp/b_$kind/plan.json" --model "$f" --dim N=2
done

# Usage.
expect "ort-split-run: no --model" 2 "is required" run --plan "$tmp/k2/plan.json"
expect "ort-split-run: unknown option" 2 "unknown argument" \
    run --plan "$tmp/k2/plan.json" --model "$f" --frobnicate
expect "ort-split-run: no onnxruntime-node" 2 "cannot load onnxruntime-node" \
    "$NODE" "$tools/ort-split-run.js" --ort "$tmp/nowhere" --plan "$tmp/k2/plan.json" --model "$f"
expect "check-plan: no plan" 2 "cannot read" check "$tmp/nowhere"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
