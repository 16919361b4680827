#!/bin/sh
# Which targets a command searches (issue 16): explain -t searches exactly
# the targets named plus their devices' natives, as partition does; the
# default device comes from --default-device or from a plugin; matches
# prints each list on one line; a plugin loaded twice is said to be.
set -u
: "${BYOC:?}" "${top_srcdir:?}" "${top_builddir:?}"
cd "$top_srcdir" || exit 99
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
golden() { # name file
    if diff -u "tests/cli/$1.golden" "$2"; then ok "golden $1"; else bad "golden $1"; fi
}
# fails NAME STATUS PATTERN ARGS...: exit status, message, nothing on stdout.
fails() {
    name=$1 want=$2 pat=$3
    shift 3
    "$BYOC" "$@" >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ "$st" -eq "$want" ] && grep -q -- "$pat" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        ok "$name"
    else
        bad "$name (status $st)"; cat "$tmp/err"
    fi
}
r=examples/models/resnet_bottleneck.relay
m=examples/models/transformer_encoder.relay

# explain -t on CPU targets: a placement over dnnl and llvm only, no GPU.
"$BYOC" explain $r --node %0 -t dnnl,llvm >"$tmp/out" 2>&1 \
    && golden explain_cpu_conv "$tmp/out" || { bad "explain -t dnnl,llvm"; cat "$tmp/out"; }
# The same placement partition makes with the same -t.
"$BYOC" partition $r -t dnnl -f json >"$tmp/p.json" || bad "partition -t dnnl"
total=$(sed -n 's/^  "cost": \(.*\),$/\1/p' "$tmp/p.json")
us=$(awk -v c="$total" 'BEGIN { printf "%.3f", c * 1e6 }')
grep -q "the whole placement $us us" "$tmp/out" && ok "explain -t: partition's placement ($us us)" \
    || { bad "explain -t: partition's placement ($us us)"; cat "$tmp/out"; }
# Only the targets named are explained; the natives added are searched.
"$BYOC" explain $r --node %0 -t dnnl >"$tmp/out" 2>&1 || bad "explain -t dnnl: exit status"
if grep -q cuda "$tmp/out" || grep -q '^  llvm' "$tmp/out" || grep -q tensorrt "$tmp/out"; then
    bad "explain -t dnnl mentions other targets"; cat "$tmp/out"
else
    ok "explain -t dnnl: dnnl alone"
fi
fails "explain -t unknown target" 2 "unknown target 'dnl' (did you mean 'dnnl'?)" \
    explain $r --node %0 -t dnl

# The default device.
"$BYOC" partition $r >"$tmp/out" 2>&1 && head -1 "$tmp/out" | grep -q 'targets tensorrt, .*tvm_cuda$' \
    && ok "default device: cuda" || { bad "default device: cuda"; head -1 "$tmp/out"; }
"$BYOC" --default-device cpu partition $r >"$tmp/out" 2>&1 \
    && head -1 "$tmp/out" | grep -q 'targets dnnl, llvm$' \
    && ok "--default-device cpu" || { bad "--default-device cpu"; cat "$tmp/out"; }
"$BYOC" --default-device=cpu compare $r >"$tmp/out" 2>&1 && grep -q '^native (llvm)' "$tmp/out" \
    && grep -q '^single:dnnl' "$tmp/out" && ! grep -q tensorrt "$tmp/out" \
    && ok "--default-device cpu: compare" || { bad "--default-device cpu: compare"; cat "$tmp/out"; }
"$BYOC" --default-device cpu explain $r --node %0 >"$tmp/out" 2>&1 \
    && grep -q 'placed on dnnl' "$tmp/out" && ! grep -q tensorrt "$tmp/out" \
    && ok "--default-device cpu: explain" || { bad "--default-device cpu: explain"; cat "$tmp/out"; }
fails "--default-device unknown" 2 "byoc: error: unknown device 'cpus' (did you mean 'cpu'?)" \
    --default-device cpus partition $r
fails "--default-device without a native target" 2 \
    "byoc: error: device 'npu' has no native target" --default-device npu partition $r
fails "--default-device without a value" 2 "byoc: error: --default-device needs a value" \
    --default-device
"$BYOC" --help | grep -q -- '--default-device D' && ok "--help: --default-device" \
    || bad "--help: --default-device"

# A plugin sets it (tests/cli/defdev.c), and --default-device overrides it.
defdev=$top_builddir/tests/cli/.libs/libdefdev.so
if [ -f "$defdev" ]; then
    "$BYOC" --plugin "$defdev" partition $r >"$tmp/out" 2>&1 \
        && head -1 "$tmp/out" | grep -q 'targets dnnl, llvm$' \
        && ok "a plugin sets the default device" || { bad "a plugin sets the default device"; cat "$tmp/out"; }
    "$BYOC" --plugin "$defdev" --default-device cuda partition $r >"$tmp/out" 2>&1 \
        && head -1 "$tmp/out" | grep -q 'tvm_cuda$' \
        && ok "--default-device after a plugin's" || { bad "--default-device after a plugin's"; cat "$tmp/out"; }
    BYOC_TEST_DEFAULT_DEVICE=gpu0 fails "a plugin's unknown device" 1 \
        "byoc: error: unknown device 'gpu0'" --plugin "$defdev" partition $r
    grep -q "^byoc: note: plugin '$defdev' failed to register its targets" "$tmp/err" \
        && ok "a plugin's unknown device: note" || bad "a plugin's unknown device: note"
    # Loaded twice, under two names: a warning, once registered.
    ln -s "$defdev" "$tmp/again.so"
    "$BYOC" --plugin "$defdev" --plugin "$tmp/again.so" partition $r >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ $st = 0 ] && grep -q "^byoc: warning: plugin '$tmp/again.so' is the library '$defdev' already loaded" "$tmp/err" \
        && head -1 "$tmp/out" | grep -q 'targets dnnl, llvm$'; then
        ok "a plugin loaded twice: a warning"
    else
        bad "a plugin loaded twice: a warning (status $st)"; cat "$tmp/err"
    fi
    "$BYOC" --plugin "$defdev" partition $r >/dev/null 2>"$tmp/err" && [ ! -s "$tmp/err" ] \
        && ok "a plugin loaded once: no warning" || { bad "a plugin loaded once: no warning"; cat "$tmp/err"; }
else
    echo "SKIP: plugin checks (no shared libdefdev; built with --disable-shared?)"
fi

# matches: one line per list, each line a category of its own.
"$BYOC" matches $m >"$tmp/out" 2>&1 || bad "matches: exit status"
awk '
    /^target / { t = $2; next }
    /^  calls: / { if (seen[t "calls"]++) { print "twice: " t " calls"; bad = 1 } next }
    /^  no match: / { if (seen[t "none"]++) { print "twice: " t " no match"; bad = 1 } next }
    /^    at / { if (prev !~ /^  pattern /) { print "at without a pattern: " $0; bad = 1 } }
    { prev = $0 }
    END { exit bad }
' "$tmp/out" && ok "matches: one line per list" || bad "matches: one line per list"
grep -q '^  no match: .*conv2d_bias_residual_multiply_relu.*conv2d_backward_weight$' "$tmp/out" \
    && ok "matches: cutlass's unmatched patterns on one line" || bad "matches: cutlass's unmatched patterns on one line"
n=$(grep -c '^target .*: [1-9][0-9]* of ' "$tmp/out")
c=$(grep -c '^  calls: ' "$tmp/out")
[ "$n" -gt 1 ] && [ "$n" = "$c" ] && ok "matches: a calls line per target that takes any ($n)" \
    || bad "matches: $c calls lines for $n targets that take calls"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
