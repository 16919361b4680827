#!/bin/sh
# -f onnx-annotated: the model comes back unchanged but for three
# metadata_props on each node of its main graph (NodeProto field 9),
# naming the target, the partition and the kernel; the entries agree with
# plan.json for the same placement.  Needs python3 with onnx (to build the
# model and read the output); skipped without it.
set -u
: "${BYOC:?}" "${top_srcdir:?}"
PY=
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import onnx, numpy' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then echo "SKIP: no python3 with onnx and numpy"; exit 77; fi
if ! "$BYOC" info /dev/null --input-format onnx 2>&1 | grep -qv 'without ONNX'; then
    echo "SKIP: byoc built without ONNX"; exit 77
fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
"$PY" "$top_srcdir/tests/split/make_models.py" "$tmp" || exit 99
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

mkdir "$tmp/out"
for model in convnet multi; do
    m="$tmp/$model.onnx"
    if ! "$BYOC" partition "$m" -t dnnl -f onnx-annotated -o "$tmp/out/$model.onnx" 2>"$tmp/err"; then
        bad "$model: -f onnx-annotated failed: $(cat "$tmp/err")"; continue
    fi
    if ! "$BYOC" partition "$m" -t dnnl -f onnx -o "$tmp/plan_$model" 2>"$tmp/err"; then
        bad "$model: -f onnx failed: $(cat "$tmp/err")"; continue
    fi
    if "$PY" - "$m" "$tmp/out/$model.onnx" "$tmp/plan_$model/plan.json" >"$tmp/log" 2>&1 <<'PYEOF'
import json, sys, onnx
orig, ann, plan = sys.argv[1:4]
onnx.checker.check_model(ann)
a = onnx.load(ann, load_external_data=False)
o = onnx.load(orig, load_external_data=False)
plan = json.load(open(plan))

def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1; v |= (c & 0x7f) << s; s += 7
        if not c & 0x80:
            return v, i

def props(node):
    """metadata_props entries (field 9) of a serialized NodeProto."""
    b = node.SerializeToString(); i = 0; out = {}
    while i < len(b):
        key, i = varint(b, i); f, wt = key >> 3, key & 7
        if wt == 0:
            _, i = varint(b, i); continue
        if wt == 5: i += 4; continue
        if wt == 1: i += 8; continue
        n, i = varint(b, i); body = b[i:i + n]; i += n
        if f != 9: continue
        j = 0; kv = {}
        while j < len(body):
            k2, j = varint(body, j); m, j = varint(body, j)
            kv[k2 >> 3] = body[j:j + m].decode(); j += m
        out[kv.get(1, '')] = kv.get(2, '')
    return out

bad = 0
targets = [p["target"] for p in plan["partitions"]]
for n in a.graph.node:
    p = props(n)
    if set(p) != {"byoc.target", "byoc.partition", "byoc.kernel"}:
        print("node %s (%s): metadata %s" % (n.name, n.op_type, p)); bad += 1; continue
    if p["byoc.target"] == "none":
        continue
    for t, k in zip(p["byoc.target"].split(","), p["byoc.partition"].split(",")):
        if targets[int(k)] != t:
            print("node %s: target %s, but partition %s is on %s" % (n.name, t, k, targets[int(k)])); bad += 1
# Unchanged otherwise: without the new fields, the same bytes.
a.DiscardUnknownFields(); o.DiscardUnknownFields()
if a.SerializeToString() != o.SerializeToString():
    print("the model changed beyond metadata_props"); bad += 1
sys.exit(1 if bad else 0)
PYEOF
    then ok "$model: every node annotated, consistent with plan.json, nothing else changed"
    else bad "$model: $(cat "$tmp/log")"
    fi
done

# The same inputs give the same bytes.
"$BYOC" partition "$tmp/convnet.onnx" -t dnnl -f onnx -o "$tmp/again" 2>"$tmp/err"
if diff -r "$tmp/plan_convnet" "$tmp/again" >/dev/null 2>&1; then
    ok "-f onnx twice: the same files"
else
    bad "-f onnx twice differs: $(diff -r "$tmp/plan_convnet" "$tmp/again" 2>&1 | head -3)"
fi

# From Relay text there is no ONNX model to annotate.
if "$BYOC" partition "$top_srcdir/examples/models/transformer_encoder.relay" \
        -f onnx-annotated -o "$tmp/x.onnx" 2>"$tmp/err"; then
    bad "a Relay model was annotated as ONNX"
elif grep -q 'needs an ONNX model' "$tmp/err" && [ ! -e "$tmp/x.onnx" ]; then
    ok "a Relay model: an error, no file"
else
    bad "a Relay model: $(cat "$tmp/err")"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
