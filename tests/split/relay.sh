#!/bin/sh
# Relay text as ONNX: every Relay model of examples/models and the shared
# models writes with -f onnx (each op through the op emitter, opset 17, the
# model's constants without contents as weight inputs) and its files pass
# tools/check-plan.py; some run under ONNX Runtime as the same model on one
# target does (that plan joined into one model, tests/split/merge_plan.py);
# and a model with an op that has no ONNX form is an error naming the op
# and its place, with nothing written.  Skipped without python3's onnx
# (and the runs without node and onnxruntime-node).
set -u
: "${BYOC:?}" "${top_srcdir:?}"
SPLIT_RUN_LIB=1 . "$top_srcdir/tests/split/split_run.sh"
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
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
shared=${BYOC_SHARED_MODELS:-$top_srcdir/../shared/models}

models="$top_srcdir/examples/models/*.relay"
if [ -d "$shared/relay" ]; then models="$models $shared/relay/*.relay"
else echo "note: no shared Relay models ($shared/relay): only the examples"; fi
for m in $models; do
    n=$(basename "$m" .relay)
    rm -rf "$tmp/p"
    if ! "$BYOC" partition "$m" -f onnx -o "$tmp/p" >"$tmp/log" 2>&1; then
        bad "$n: $(cat "$tmp/log")"
    elif ! "$PY" "$top_srcdir/tools/check-plan.py" "$tmp/p" >"$tmp/log" 2>&1; then
        bad "$n: check-plan: $(cat "$tmp/log")"
    else
        ok "$n: $(grep -c '"file"' "$tmp/p/plan.json") partitions written and checked"
    fi
done

# Runs: the placement over the default targets against one target's.
runs=yes
( split_run_find_tools ) >/dev/null 2>&1 || runs=
if [ -n "$runs" ]; then
    split_run_find_tools
    for m in "$top_srcdir/examples/models/transformer_encoder.relay" \
             "$top_srcdir/examples/models/resnet_bottleneck.relay" \
             "$shared/relay/mnist.relay" "$shared/relay/gpt2_extract.relay"; do
        [ -f "$m" ] || continue
        n=$(basename "$m" .relay)
        rm -rf "$tmp/one" "$tmp/split"
        if "$BYOC" partition "$m" -f onnx -o "$tmp/one" -t llvm >"$tmp/log" 2>&1 &&
           "$PY" "$top_srcdir/tests/split/merge_plan.py" "$tmp/one/plan.json" "$tmp/whole.onnx" \
               >>"$tmp/log" 2>&1 &&
           "$BYOC" partition "$m" -f onnx -o "$tmp/split" >>"$tmp/log" 2>&1 &&
           "$NODE" "$top_srcdir/tools/ort-split-run.js" --plan "$tmp/split/plan.json" \
               --model "$tmp/whole.onnx" ${SPLIT_RUN_ORT:+--ort "$SPLIT_RUN_ORT"} \
               >"$tmp/run" 2>&1; then
            ok "$n: the split runs as one target's plan does ($(tail -n 1 "$tmp/run"))"
        else
            bad "$n: $(cat "$tmp/log" "$tmp/run" 2>/dev/null | tail -n 5)"
        fi
    done
else
    echo "note: no node or onnxruntime-node: Relay plans not run"
fi

# An op with no ONNX form: named, located, nothing written.
cat >"$tmp/bad.relay" <<'END'
#[version = "0.0.5"]
def @main(%x: Tensor[(4, 8), float32]) {
  %0 = nn.relu(%x);
  %1 = cumprod(%0, axis=1);
  add(%1, %0)
}
END
if "$BYOC" partition "$tmp/bad.relay" -f onnx -o "$tmp/bad" 2>"$tmp/err"; then
    bad "cumprod was written as ONNX"
elif grep -q "bad.relay:4:[0-9]*: error: .*no ONNX form for 'cumprod'" "$tmp/err" &&
     [ ! -e "$tmp/bad" ] && [ -z "$(ls "$tmp" | grep '^bad\.tmp')" ]; then
    ok "an op without an ONNX form: $(sed 's/.*error: //' "$tmp/err")"
else
    bad "an op without an ONNX form: $(cat "$tmp/err"); $(ls "$tmp")"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
