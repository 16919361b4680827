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
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
