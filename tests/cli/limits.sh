#!/bin/sh
# Models past the readers' old fixed limits go all the way through: a
# concatenate of 300 inputs (Relay, through a global of 300 parameters,
# and ONNX), a tuple of 1000 fields returned from @main, a nested tuple
# return type.  For each: byoc info lists the outputs, byoc partition
# writes every format, and the partitioned Relay reads back into a graph
# with the same outputs and operators.  The ONNX model comes from
# tests/onnx/gen_onnx (built with ONNX support only; that case is skipped
# without it).
set -u
: "${BYOC:?}" "${top_builddir:?}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

# concat300.relay: %i = add(%x, i) for 300 i, passed to @cat(%p0 .. %p299).
awk 'BEGIN {
    n = 300
    print "def @main(%x: Tensor[(1, 4), float32]) {"
    for (i = 0; i < n; i++) printf "  %%%d = add(%%x, %d.0f);\n", i, i
    printf "  @cat("; for (i = 0; i < n; i++) printf "%s%%%d", (i ? ", " : ""), i; print ")"
    print "}"
    printf "def @cat("; for (i = 0; i < n; i++) printf "%s%%p%d: Tensor[(1, 4), float32]", (i ? ", " : ""), i
    printf ") -> Tensor[(1, %d), float32] {\n  %%0 = (", 4 * n
    for (i = 0; i < n; i++) printf "%s%%p%d", (i ? ", " : ""), i
    print ");\n  concatenate(%0, axis=1)\n}"
}' >"$tmp/concat300.relay"
# tuple1000.relay: @main returns (%0, ..., %999), its type declared.
awk 'BEGIN {
    n = 1000
    printf "def @main(%%x: Tensor[(2, 3), float32]) -> ("
    for (i = 0; i < n; i++) printf "%sTensor[(2, 3), float32]", (i ? ", " : "")
    print ") {"
    for (i = 0; i < n; i++) printf "  %%%d = nn.relu(%%x);\n", i
    printf "  ("; for (i = 0; i < n; i++) printf "%s%%%d", (i ? ", " : ""), i; print ")\n}"
}' >"$tmp/tuple1000.relay"
cat >"$tmp/nested.relay" <<'RELAY'
def @main(%x: Tensor[(1, 4), float32], %y: Tensor[(1, 4), float32]) -> (Tensor[(1, 4), float32], (Tensor[(1, 4), float32], Tensor[(1, 4), float32])) {
  %0 = add(%x, %y);
  %1 = nn.relu(%0);
  %2 = multiply(%1, %y);
  %3 = (%1, %2);
  (%0, %3)
}
RELAY
models="concat300.relay tuple1000.relay nested.relay"
if [ -x "$top_builddir/tests/onnx/gen_onnx" ]; then
    "$top_builddir/tests/onnx/gen_onnx" concat 300 "$tmp/concat300.onnx" && models="$models concat300.onnx"
else
    echo "SKIP: ONNX concat (no tests/onnx/gen_onnx: built without ONNX)"
fi

# The outputs and operators byoc info lists (not the model's name or notes).
summary() { sed -n '/^outputs:/,/^total:/p' "$1"; }

for m in $models; do
    "$BYOC" info "$tmp/$m" >"$tmp/$m.info" 2>&1 || { bad "info $m"; cat "$tmp/$m.info"; continue; }
    ok "info $m"
    for f in text json dot relay; do
        if "$BYOC" partition "$tmp/$m" -f $f -o "$tmp/$m.$f" 2>"$tmp/err"; then ok "partition $m -f $f"
        else bad "partition $m -f $f"; cat "$tmp/err"; fi
    done
    if "$BYOC" info "$tmp/$m.relay" >"$tmp/$m.back" 2>&1 \
       && summary "$tmp/$m.info" >"$tmp/a" && summary "$tmp/$m.back" >"$tmp/b" && cmp -s "$tmp/a" "$tmp/b"; then
        ok "partitioned $m reads back"
    else
        bad "partitioned $m reads back"; diff "$tmp/a" "$tmp/b" | head; head -5 "$tmp/$m.back"
    fi
done
# What info lists for them.
grep -q '^  Tensor\[(1, 1200), float32\]$' "$tmp/concat300.relay.info" && ok "concat300 output" || bad "concat300 output"
[ "$(sed -n '/^outputs:/,/^operators/p' "$tmp/tuple1000.relay.info" | grep -c 'Tensor\[(2, 3), float32\]')" = 1000 ] \
    && ok "tuple1000 lists 1000 outputs" || bad "tuple1000 lists 1000 outputs"
grep -q '^  (Tensor\[(1, 4), float32\], Tensor\[(1, 4), float32\])$' "$tmp/nested.relay.info" \
    && ok "nested output listed as a tuple" || bad "nested output listed as a tuple"
grep -q '^def @main.*-> (Tensor\[(1, 4), float32\], (Tensor\[(1, 4), float32\], Tensor\[(1, 4), float32\]))' "$tmp/nested.relay.relay" \
    && ok "partitioned nested @main declares the nested type" || bad "partitioned nested @main declares the nested type"
# Past the documented limit: a located error.
awk 'BEGIN { printf "def @main(%%x: Tensor[(1), float32]) {\n  %%0 = ("
             for (i = 0; i < 1000001; i++) printf "%s%%x", (i ? ", " : ""); print ");\n  %0\n}" }' >"$tmp/huge.relay"
"$BYOC" info "$tmp/huge.relay" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc = 1 ] && grep -q "huge.relay:2:4000009: error: a tuple of more than 1000000 fields (byoc's limit)" "$tmp/err"; then
    ok "the field limit is a located error"; else bad "the field limit is a located error (rc $rc)"; cat "$tmp/err"; fi
# A file past the 2 GiB a model may hold, and a folder: an error naming
# the file, at once (the sparse file is refused by its size, unread).
if truncate -s 2147483648 "$tmp/big.relay" 2>/dev/null; then
    "$BYOC" info "$tmp/big.relay" >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ $rc = 1 ] && grep -q "big.relay: error: larger than 2147483647 bytes, the most byoc reads" "$tmp/err"; then
        ok "a 2 GiB file is refused by its size"; else bad "a 2 GiB file (rc $rc)"; cat "$tmp/err"; fi
    rm -f "$tmp/big.relay"
else
    echo "SKIP: no sparse 2 GiB file here"
fi
"$BYOC" info "$tmp" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q ": error: is a folder, not a file" "$tmp/err" && ok "a folder is refused" \
    || { bad "a folder (rc $rc)"; cat "$tmp/err"; }
echo "$pass passed, $fail failed"
[ $fail = 0 ]
