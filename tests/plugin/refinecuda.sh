#!/bin/sh
# A plugin whose spec imports the bundled cutlass.byoc and devices.byoc
# (tests/plugin/refinecuda.byoc) loads into the byoc command: its calls of
# byoc_register_cutlass and byoc_register_devices resolve to
# libbyoc-backends, and since the command has registered those modules
# already, the plugin adds its two targets and nothing else - no second
# cuda, no second cutlass.
set -u
: "${BYOC:?}" "${top_srcdir:?}" "${top_builddir:?}"
plugin=$top_builddir/tests/plugin/.libs/librefinecuda.so
[ -f "$plugin" ] || { echo "SKIP: no shared plugin (built with --disable-shared?)"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
model=$top_srcdir/examples/models/transformer_encoder.relay

# The plugin needs the two bundled modules' registration functions, and
# takes them from libbyoc-backends, not from the byoc command.
if command -v objdump >/dev/null 2>&1; then
    objdump -p "$plugin" | grep -q 'NEEDED.*libbyoc-backends\.so' &&
        ok "the plugin links libbyoc-backends" || bad "the plugin links libbyoc-backends"
fi

if "$BYOC" --plugin "$plugin" targets >"$tmp/with" 2>"$tmp/err"; then
    ok "loads (no undefined byoc_register_devices)"
else
    bad "loads"; cat "$tmp/err"
fi
"$BYOC" targets >"$tmp/plain" 2>&1 || bad "targets without the plugin"
# Each device, target and link listed once: the bundled modules are not
# registered again.
for re in '^device cuda:' '^  tvm_cuda ' '^  cutlass ' '^link cpu <-> cuda'; do
    n=$(grep -c -- "$re" "$tmp/with")
    [ "$n" -eq 1 ] && ok "'$re' once" || bad "'$re' $n times"
done
# The plugin's targets: refine_gemm on cuda, cutlass_sm90 under cutlass
# with cutlass's options and its own.
grep -q '^  refine_gemm ' "$tmp/with" && ok "refine_gemm on cuda" || bad "refine_gemm on cuda"
grep -q '^    cutlass_sm90 ' "$tmp/with" && grep -q 'option cluster: int = 2' "$tmp/with" &&
    ok "cutlass_sm90 refines cutlass" || bad "cutlass_sm90 refines cutlass"
# Everything else as without the plugin: remove the plugin's lines (its
# targets and what is listed under them) and compare.
awk '/^  refine_gemm |^    cutlass_sm90 /{skip=1; d=match($0,/[^ ]/); next}
     skip && match($0,/[^ ]/) > d {next} {skip=0; print}' "$tmp/with" >"$tmp/rest"
cmp -s "$tmp/rest" "$tmp/plain" && ok "the bundled listing unchanged" ||
    { bad "the bundled listing unchanged"; diff -u "$tmp/plain" "$tmp/rest"; }

# The refinements work: the plugin's pattern takes the dense layers with
# their bias, and the cutlass refinement matches what cutlass does.
if "$BYOC" --plugin "$plugin" matches "$model" -t refine_gemm,cutlass,cutlass_sm90 \
    >"$tmp/m" 2>"$tmp/err"; then
    grep -q '^  pattern gemm_bias: 6 matches' "$tmp/m" && ok "refine_gemm matches gemm_bias" ||
        { bad "refine_gemm matches gemm_bias"; cat "$tmp/m"; }
else
    bad "matches: exit status"; cat "$tmp/err"
fi
if "$BYOC" --plugin "$plugin" partition "$model" -t refine_gemm,tvm_cuda \
    >"$tmp/p" 2>"$tmp/err"; then
    grep -Eq '^[0-9]+ +refine_gemm +cuda +gemm_bias ' "$tmp/p" &&
        ok "partition places gemm_bias on refine_gemm" ||
        { bad "partition places gemm_bias on refine_gemm"; cat "$tmp/p"; }
else
    bad "partition: exit status"; cat "$tmp/err"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
