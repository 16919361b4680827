#!/bin/sh
# ONNX control flow in byoc info: a model whose main graph is one If on an
# input lists the If's branches, with their operators, and says that the
# main graph has no calls outside control flow; nesting past
# BYOC_MAX_GRAPH_DEPTH is a located error, and nesting far past it an
# error, not a stack overflow.  The models come from
# tests/onnx/gen_cf (built with ONNX support only; skipped without it).
set -u
: "${BYOC:?}" "${top_builddir:?}"
gen="$top_builddir/tests/onnx/gen_cf"
if [ ! -x "$gen" ]; then echo "SKIP: no tests/onnx/gen_cf (built without ONNX)"; exit 77; fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

"$gen" if "$tmp/if.onnx" || exit 99
cat >"$tmp/want" <<'END'
control flow: 1 call holding 2 subgraphs, 3 calls inside
  y (If): 2 subgraphs
    then_branch: 2 nodes, 1 inputs, 1 calls (1 kinds), 0 untyped, 0 opaque
           1  nn.relu
    else_branch: 3 nodes, 1 inputs, 2 calls (2 kinds), 0 untyped, 0 opaque
           1  negative
           1  sigmoid
the main graph has no calls outside control flow: 3 calls are inside If/Loop/Scan subgraphs
END
if "$BYOC" info "$tmp/if.onnx" >"$tmp/out" 2>&1; then
    sed -n '/^control flow:/,/^the main graph/p' "$tmp/out" >"$tmp/got"
    if cmp -s "$tmp/want" "$tmp/got"; then ok "info lists an If's branches"
    else bad "info lists an If's branches"; diff -u "$tmp/want" "$tmp/got"; fi
    if grep -q '^  Tensor\[(2, 3), float32\]$' "$tmp/out"; then ok "the If's output is typed"
    else bad "the If's output is typed"; cat "$tmp/out"; fi
else
    bad "info on an If model: exit status"; cat "$tmp/out"
fi

"$gen" deep 40 "$tmp/deep.onnx" || exit 99
"$BYOC" info "$tmp/deep.onnx" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc = 1 ] && grep -q "deep.onnx: error: node 'if' (If): then_branch: .*: subgraphs nest more than 32 deep" "$tmp/err"; then
    ok "nesting past the limit"; else bad "nesting past the limit (rc $rc)"; cat "$tmp/err"; fi
# Far deeper (a 2 MB file): refused before protobuf-c recurses, no crash.
"$gen" deep 10000 "$tmp/deep10k.onnx" || exit 99
"$BYOC" info "$tmp/deep10k.onnx" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc = 1 ] && grep -q "deep10k.onnx: error: the model's messages nest more than 160 deep" "$tmp/err"; then
    ok "nesting far past the limit"; else bad "nesting far past the limit (rc $rc)"; cat "$tmp/err"; fi
"$gen" deep 31 "$tmp/deep31.onnx" || exit 99
if "$BYOC" info "$tmp/deep31.onnx" >"$tmp/out" 2>&1 && grep -q "^control flow: 1 call holding 2 subgraphs" "$tmp/out"; then
    ok "nesting at the limit"; else bad "nesting at the limit"; head -5 "$tmp/out"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
