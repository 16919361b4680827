#!/bin/sh
# byoc info: golden output on the example models, and its errors.
# BYOC_REGEN=1 rewrites the golden files.
set -u
: "${BYOC:?}" "${top_srcdir:?}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
cd "$top_srcdir" || exit 99
for m in resnet_bottleneck mobilenet_v2_block transformer_encoder; do
    gold=tests/cli/info_$m.golden
    "$BYOC" info "examples/models/$m.relay" >"$tmp/out" 2>&1 || { bad "info $m: exit status"; continue; }
    [ -n "${BYOC_REGEN:-}" ] && cp "$tmp/out" "$gold"
    if cmp -s "$gold" "$tmp/out"; then ok "info $m"; else bad "info $m"; diff -u "$gold" "$tmp/out" | head -20; fi
done
# Errors: a located message and exit status 1 for a bad model, 2 for bad usage.
printf 'def @main(%%x: Tensor[(1), float32]) {\n  nn.relux(%%x)\n}\n' >"$tmp/bad.relay"
"$BYOC" info "$tmp/bad.relay" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc = 1 ] && grep -q "bad.relay:2:3: error: unknown operator 'nn.relux' (did you mean 'nn.relu'?)" "$tmp/err"; then
    ok "located error for a bad model"; else bad "located error for a bad model (rc $rc)"; cat "$tmp/err"; fi
"$BYOC" info "$tmp/none.relay" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc = 1 ] && grep -q "none.relay: error: cannot open" "$tmp/err"; then ok "missing file"; else bad "missing file (rc $rc)"; cat "$tmp/err"; fi
"$BYOC" info --input-format xml x.relay >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc = 2 ] && grep -q "unknown input format 'xml'" "$tmp/err"; then ok "bad --input-format"; else bad "bad --input-format (rc $rc)"; fi
"$BYOC" frobnicate >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc = 2 ] && grep -q "unknown command 'frobnicate'" "$tmp/err"; then ok "unknown command"; else bad "unknown command (rc $rc)"; fi
"$BYOC" --help >"$tmp/out" 2>&1; rc=$?
if [ $rc = 0 ] && grep -q "info MODEL" "$tmp/out"; then ok "--help"; else bad "--help"; fi
# --dim and --input-shape: a named dimension bound before typing, on info
# and on partition; mistakes are bad input (1) or bad usage (2).
printf 'def @main(%%x: Tensor[(n, 64), float32], %%w: Tensor[(32, 64), float32]) {\n  nn.dense(%%x, %%w)\n}\n' >"$tmp/dyn.relay"
"$BYOC" info "$tmp/dyn.relay" >"$tmp/out" 2>&1
if grep -q "symbolic dimensions: n (free)" "$tmp/out" && grep -q "calls without a FLOP count: 1 (nn.dense 1)" "$tmp/out" \
    && grep -q "1 of them have free dimensions: bind them with --dim" "$tmp/out"; then
    ok "info names a free dimension"; else bad "info names a free dimension"; cat "$tmp/out"; fi
"$BYOC" info "$tmp/dyn.relay" --dim n=8 >"$tmp/out" 2>&1
if grep -q "symbolic dimensions: n = 8 (bound)" "$tmp/out" && grep -q "total: 32.8 KFLOP$" "$tmp/out" \
    && grep -q "Tensor\[(8, 32), float32\]" "$tmp/out"; then
    ok "info --dim"; else bad "info --dim"; cat "$tmp/out"; fi
"$BYOC" info "$tmp/dyn.relay" --input-shape x=8x64 >"$tmp/out2" 2>&1
if cmp -s "$tmp/out" "$tmp/out2"; then ok "--input-shape binds as --dim does"; else bad "--input-shape binds as --dim does"; diff "$tmp/out" "$tmp/out2"; fi
"$BYOC" partition "$tmp/dyn.relay" -t cutlass >"$tmp/out" 2>&1
if grep -q "^free dimensions *n (unknown costs are charged a kernel launch" "$tmp/out"; then
    ok "partition names a free dimension"; else bad "partition names a free dimension"; cat "$tmp/out"; fi
"$BYOC" partition "$tmp/dyn.relay" -t cutlass --dim n=8 >"$tmp/out" 2>&1
if ! grep -q "free dimensions" "$tmp/out" && ! grep -q "unknown cost" "$tmp/out"; then
    ok "partition --dim"; else bad "partition --dim"; cat "$tmp/out"; fi
"$BYOC" info "$tmp/dyn.relay" --dim m=8 >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc = 1 ] && grep -q "^byoc: error: --dim m: the model names no such dimension (it names n)" "$tmp/err" && [ ! -s "$tmp/out" ]; then
    ok "--dim of a dimension the model lacks"; else bad "--dim of a dimension the model lacks (rc $rc)"; cat "$tmp/err"; fi
"$BYOC" info "$tmp/dyn.relay" --input-shape x=8x65 >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc = 1 ] && grep -q "dyn.relay:1:11: error: --input-shape x: axis 1 is 64 in the model, not 65" "$tmp/err"; then
    ok "--input-shape against a fixed size"; else bad "--input-shape against a fixed size (rc $rc)"; cat "$tmp/err"; fi
for arg in "--dim n" "--dim n=-1" "--dim =3" "--input-shape x=8xx64" "--input-shape x=8x" "--input-shape =8"; do
    "$BYOC" info "$tmp/dyn.relay" $arg >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ $rc = 2 ] && grep -q "^byoc: error: --" "$tmp/err"; then ok "bad usage: $arg"; else bad "bad usage: $arg (rc $rc)"; cat "$tmp/err"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
