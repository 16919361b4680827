#!/bin/sh
# Fusion settings at run time (issue 16): --option T:fusion=, max_depth=,
# max_nodes=, max_exits= stand in for the target's declaration, are
# inherited by refinements, show in `byoc targets`, and bad ones are
# errors naming the target, with exit status 2 like any bad --option.
set -u
: "${BYOC:?}" "${top_srcdir:?}"
cd "$top_srcdir" || exit 99
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
fails() { # name pattern args...: exit status 2, the message, no output
    name=$1 pat=$2
    shift 2
    "$BYOC" "$@" >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ "$st" -eq 2 ] && grep -q -- "$pat" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        ok "$name"
    else
        bad "$name (status $st)"; cat "$tmp/err"
    fi
}
m=examples/models/transformer_encoder.relay
# The largest tensorrt kernel, in calls, of a JSON placement.
largest() {
    awk '/"target": "tensorrt"/ { t = 1 } /"target": "tvm_cuda"/ { t = 0 }
         t && /^      "ops": / { n = gsub(/", "/, "&") + 1; if (n > max) max = n }
         END { print max + 0 }' "$1"
}

# The defaults first: tensorrt is fusion any, unbounded.
"$BYOC" targets >"$tmp/t0" || bad "targets: exit status"
grep -q '^  tensorrt  fusion any, efficiency ' "$tmp/t0" && ok "targets: tensorrt's defaults" \
    || { bad "targets: tensorrt's defaults"; grep '^  tensorrt ' "$tmp/t0"; }
"$BYOC" partition $m -t tensorrt -f json >"$tmp/d.json" || bad "partition: exit status"
big=$(largest "$tmp/d.json")
[ "$big" -gt 2 ] && ok "default: tensorrt kernels of $big calls" || bad "default: largest tensorrt kernel $big calls"

# max_nodes=2: no tensorrt kernel of more than two calls; a golden.
"$BYOC" partition $m -t tensorrt --option tensorrt:max_nodes=2 -f json >"$tmp/n.json" \
    || bad "max_nodes=2: exit status"
big=$(largest "$tmp/n.json")
[ "$big" -eq 2 ] && ok "max_nodes=2: largest tensorrt kernel 2 calls" || bad "max_nodes=2: largest tensorrt kernel $big calls"
"$BYOC" partition $m -t tensorrt --option tensorrt:max_nodes=2 >"$tmp/out" 2>&1 \
    && diff -u tests/cli/partition_max_nodes.golden "$tmp/out" && ok "golden partition_max_nodes" \
    || bad "golden partition_max_nodes"
# fusion=none: every tensorrt kernel is one rule match, one call.
"$BYOC" partition $m -t tensorrt --option tensorrt:fusion=none -f json >"$tmp/f.json" \
    || bad "fusion=none: exit status"
big=$(largest "$tmp/f.json")
[ "$big" -eq 1 ] && ok "fusion=none: one call per tensorrt kernel" || bad "fusion=none: largest $big calls"
# max_depth=1 under fusion any: chains of one call.
"$BYOC" partition $m -t tensorrt --option tensorrt:max_depth=1 -f json >"$tmp/x.json" \
    || bad "max_depth=1: exit status"
big=$(largest "$tmp/x.json")
[ "$big" -ge 1 ] && ! cmp -s "$tmp/x.json" "$tmp/d.json" && ok "max_depth=1 changes the placement" \
    || bad "max_depth=1 changes the placement"
# 0 is unbounded: tensorrt's own bound.
"$BYOC" partition $m -t tensorrt --option tensorrt:max_nodes=0 -f json >"$tmp/z.json" \
    && cmp -s "$tmp/z.json" "$tmp/d.json" && ok "max_nodes=0: unbounded" || bad "max_nodes=0: unbounded"

# targets shows what was set, and the last setting wins.
"$BYOC" targets --option tensorrt:fusion=tvm --option tensorrt:max_depth=5 \
    --option tensorrt:max_depth=3 --option tensorrt:max_exits=2 >"$tmp/t1" \
    || bad "targets --option: exit status"
grep -q '^  tensorrt  fusion tvm, max_depth 3, max_exits 2, efficiency ' "$tmp/t1" \
    && ok "targets: tensorrt's settings" || { bad "targets: tensorrt's settings"; grep '^  tensorrt ' "$tmp/t1"; }
# A refinement inherits them (tests/plugin's testnpu_conv_wide refines
# testnpu_conv) unless it is set itself.
plugin=$top_builddir/tests/plugin/.libs/libtestnpu.so
if [ -f "$plugin" ]; then
    "$BYOC" --plugin "$plugin" targets --option testnpu_conv:max_nodes=4 \
        --option testnpu_conv:fusion=tvm >"$tmp/t2" || bad "plugin targets: exit status"
    grep -q '^  testnpu_conv  fusion tvm, max_nodes 4, ' "$tmp/t2" \
        && grep -q '^    testnpu_conv_wide  fusion tvm, max_nodes 4, ' "$tmp/t2" \
        && ok "a refinement inherits the settings" || { bad "a refinement inherits the settings"; grep testnpu_conv "$tmp/t2"; }
    "$BYOC" --plugin "$plugin" targets --option testnpu_conv:max_nodes=4 \
        --option testnpu_conv_wide:max_nodes=0 >"$tmp/t2" || bad "plugin targets: exit status"
    grep -q '^    testnpu_conv_wide  fusion any, efficiency ' "$tmp/t2" \
        && ok "a refinement's own setting (0: unbounded)" || { bad "a refinement's own setting"; grep testnpu_conv "$tmp/t2"; }
else
    echo "SKIP: inheritance (no shared test plugin)"
fi

# Errors.
fails "unknown target" "byoc: error: unknown target 'tensorrtt'" \
    partition $m --option tensorrtt:max_depth=3
fails "misspelt setting" "target 'tensorrt' has no option 'max_deph' (did you mean 'max_depth'?)" \
    partition $m --option tensorrt:max_deph=3
fails "not a number" "invalid value 'x' for max_depth of target 'tensorrt' (a whole number" \
    partition $m --option tensorrt:max_depth=x
fails "negative" "invalid value '-1' for max_nodes of target 'tensorrt'" \
    partition $m --option tensorrt:max_nodes=-1
fails "too large" "invalid value '1000001' for max_exits of target 'tensorrt'" \
    partition $m --option tensorrt:max_exits=1000001
fails "empty" "invalid value '' for max_depth of target 'tensorrt'" \
    partition $m --option tensorrt:max_depth=
fails "unknown fusion" "invalid value 'all' for fusion of target 'tensorrt' (none, tvm or any)" \
    partition $m --option tensorrt:fusion=all
"$BYOC" --help | grep -q 'fusion, max_depth, max_nodes' && ok "--help: fusion settings" \
    || bad "--help: fusion settings"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
