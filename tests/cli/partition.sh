#!/bin/sh
# byoc partition, compare, explain, kernels and targets: golden outputs on
# the example models with the bundled targets, every output format read
# back, the cost-table loop, and the errors.  On the shared real models
# (../shared/models, skipped when absent) every partitioning must pass the
# checker, which the library runs on every result.
# BYOC_REGEN=1 rewrites the golden files.
set -u
: "${BYOC:?}" "${top_srcdir:?}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
golden() { # name file
    [ -n "${BYOC_REGEN:-}" ] && cp "$2" "tests/cli/$1.golden"
    if cmp -s "tests/cli/$1.golden" "$2"; then ok "$1"; else bad "$1"; diff -u "tests/cli/$1.golden" "$2" | head -30; fi
}
cd "$top_srcdir" || exit 99
have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true

"$BYOC" targets >"$tmp/out" 2>&1 && golden targets "$tmp/out" || bad "targets: exit status"

for m in resnet_bottleneck mobilenet_v2_block transformer_encoder; do
    model=examples/models/$m.relay
    "$BYOC" partition "$model" >"$tmp/out" 2>"$tmp/err" || { bad "partition $m: exit status"; cat "$tmp/err"; continue; }
    golden "partition_$m" "$tmp/out"
    "$BYOC" compare "$model" >"$tmp/out" 2>"$tmp/err" && golden "compare_$m" "$tmp/out" || bad "compare $m"
    # JSON: parses, and every call is in exactly one partition.
    "$BYOC" partition "$model" -f json -o "$tmp/p.json" || bad "json $m: exit status"
    if $have_python; then
        if python3 - "$tmp/p.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
calls = {n["id"] for n in r["nodes"] if n["kind"] == "call"}
seen = {}
for p in r["partitions"]:
    for v in p["nodes"]:
        assert v not in seen, "node %d twice" % v
        seen[v] = p["index"]
assert calls <= set(seen), "calls not placed: %s" % sorted(calls - set(seen))
for n in r["nodes"]:
    assert n["partition"] == seen.get(n["id"], -1) or (n["partition"] is None and n["id"] not in seen)
total = sum(p["cost"] for p in r["partitions"]) + r["transfer_cost"]
assert abs(total - r["cost"]) <= 1e-9 * max(1.0, r["cost"]), (total, r["cost"])
PY
        then ok "json $m parses and covers the calls"; else bad "json $m"; fi
    else
        echo "SKIP: json $m (no python3)"
    fi
    # Relay: the partitioned module reads back to the same operators.
    "$BYOC" partition "$model" -f relay -o "$tmp/p.relay" || bad "relay $m: exit status"
    "$BYOC" info "$model" | sed -n '/^operators/,/^total/p' >"$tmp/ops.want"
    if "$BYOC" info "$tmp/p.relay" >"$tmp/info" 2>"$tmp/err"; then
        sed -n '/^operators/,/^total/p' "$tmp/info" >"$tmp/ops.got"
        if cmp -s "$tmp/ops.want" "$tmp/ops.got"; then ok "relay $m reads back"; else bad "relay $m reads back"; diff -u "$tmp/ops.want" "$tmp/ops.got" | head; fi
    else
        bad "relay $m reads back"; cat "$tmp/err"
    fi
    # DOT, and a picture when Graphviz is here.
    "$BYOC" partition "$model" -f dot -o "$tmp/p.dot" || bad "dot $m: exit status"
    if command -v dot >/dev/null 2>&1; then
        if dot -Tsvg "$tmp/p.dot" -o "$tmp/p.svg" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then ok "dot $m renders"; else bad "dot $m renders"; cat "$tmp/err"; fi
        "$BYOC" partition "$model" -f svg -o "$tmp/q.svg" && grep -q '<svg' "$tmp/q.svg" && ok "svg $m" || bad "svg $m"
    else
        echo "SKIP: dot $m (no graphviz)"
    fi
done

# Deterministic: the same inputs give the same bytes.
m=examples/models/transformer_encoder.relay
"$BYOC" partition $m -f json >"$tmp/a" && "$BYOC" partition $m -f json >"$tmp/b" && cmp -s "$tmp/a" "$tmp/b" \
    && ok "json is deterministic" || bad "json is deterministic"

# Baselines.
"$BYOC" partition $m --search greedy >"$tmp/out" 2>&1 && grep -q "strategy greedy" "$tmp/out" && ok "greedy" || { bad "greedy"; cat "$tmp/out"; }
"$BYOC" partition $m --search single:tensorrt >"$tmp/out" 2>&1 && grep -q "strategy single:tensorrt" "$tmp/out" && ok "single:tensorrt" || { bad "single:tensorrt"; cat "$tmp/out"; }

# Explain.
for n in %3 %1 %9; do
    "$BYOC" explain $m --node $n >"$tmp/out" 2>&1 && golden "explain_transformer_$(echo $n | tr -d %)" "$tmp/out" || { bad "explain $n"; cat "$tmp/out"; }
done
"$BYOC" explain examples/models/resnet_bottleneck.relay --node %0 -t tensorrt,tvm_cuda >"$tmp/out" 2>&1 \
    && golden explain_resnet_conv "$tmp/out" || { bad "explain resnet %0"; cat "$tmp/out"; }

# A predicate clause that is false, with the values it saw; then the
# target option that makes it true.
"$BYOC" explain tests/cli/conv_fp16.relay --node %0 >"$tmp/out" 2>&1 \
    && golden explain_fp16 "$tmp/out" || { bad "explain fp16"; cat "$tmp/out"; }
"$BYOC" explain tests/cli/conv_fp16.relay --node %0 -t tensorrt --option tensorrt:use_fp16=true >"$tmp/out" 2>&1 \
    && golden explain_fp16_option "$tmp/out" || { bad "explain fp16 with the option"; cat "$tmp/out"; }

# Kernels, measured, fed back as a table: every kernel then comes from it.
"$BYOC" kernels $m -t tvm_cuda -o "$tmp/k.txt" || bad "kernels: exit status"
nk=$(grep -c '^# signature: ' "$tmp/k.txt")
nd=$(grep -c '^def @kernel_' "$tmp/k.txt")
if [ "$nk" -gt 0 ] && [ "$nk" = "$nd" ]; then ok "kernels: $nk kernels, each a function"; else bad "kernels ($nk signatures, $nd functions)"; fi
if $have_python; then
    python3 - "$tmp/k.txt" "$tmp/t.csv" <<'PY'
import csv, sys
rows, target = [], None
for line in open(sys.argv[1]):
    if line.startswith("# target: "): target = line[10:].strip()
    if line.startswith("# signature: "): rows.append((target, line[13:].rstrip("\n"), "1e-6"))
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f); w.writerow(["target", "signature", "seconds"]); w.writerows(rows)
PY
    "$BYOC" partition $m -t tvm_cuda --cost "table:$tmp/t.csv" -f json -o "$tmp/t.json" || bad "table: exit status"
    if python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["stats"]["from_table"] == len(r["partitions"]) > 0, r["stats"]
assert all(p["cost_source"] == "table" and p["cost"] == 1e-6 for p in r["partitions"])
' "$tmp/t.json"; then ok "cost table from kernels"; else bad "cost table from kernels"; fi
else
    echo "SKIP: cost table loop (no python3)"
fi

# Errors: exit status, message, and no partial output.
"$BYOC" partition $m -t tensorrtt >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "unknown target 'tensorrtt' (did you mean 'tensorrt'?)" "$tmp/err" && ok "unknown target" || { bad "unknown target (rc $rc)"; cat "$tmp/err"; }
"$BYOC" partition $m --search single:cutlas >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "unknown target 'cutlas' (did you mean 'cutlass'?)" "$tmp/err" && ok "unknown single target" || { bad "unknown single target (rc $rc)"; cat "$tmp/err"; }
# -o makes a file as a plain create would, not a private temporary.
(umask 022; "$BYOC" partition $m -o "$tmp/mode.txt") && [ "$(stat -c %a "$tmp/mode.txt")" = 644 ] \
    && ok "-o file mode" || bad "-o file mode ($(stat -c %a "$tmp/mode.txt" 2>&1))"
"$BYOC" partition $m --option tensorrt:use_fp17=true >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "use_fp16" "$tmp/err" && ok "unknown option" || { bad "unknown option (rc $rc)"; cat "$tmp/err"; }
"$BYOC" partition $m --search best >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "unknown search 'best'" "$tmp/err" && ok "bad --search" || bad "bad --search (rc $rc)"
"$BYOC" partition $m -f xml >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "unknown output format 'xml'" "$tmp/err" && ok "bad -f" || bad "bad -f (rc $rc)"
printf 'target,signature,seconds\ntvm_cuda,"x",-1\n' >"$tmp/neg.csv"
"$BYOC" partition $m --cost "table:$tmp/neg.csv" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "neg.csv:2:" "$tmp/err" && ok "bad cost table is located" || { bad "bad cost table (rc $rc)"; cat "$tmp/err"; }
PATH=/nonexistent "$BYOC" partition $m -f svg -o "$tmp/none.svg" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc = 1 ] && grep -q "needs Graphviz" "$tmp/err" && [ ! -e "$tmp/none.svg" ] && [ -z "$(ls "$tmp" | grep 'none.svg')" ]; then
    ok "svg without dot: error, no file"; else bad "svg without dot (rc $rc)"; cat "$tmp/err"; fi
"$BYOC" explain $m --node %999 >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "has no node '%999'" "$tmp/err" && ok "explain: unknown node" || bad "explain: unknown node (rc $rc)"
"$BYOC" explain $m >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "needs --node" "$tmp/err" && ok "explain: no node" || bad "explain: no node (rc $rc)"
"$BYOC" partition --help >"$tmp/out" 2>&1 && grep -q "partition MODEL" "$tmp/out" && ok "partition --help" || bad "partition --help"

# Budgets: a tiny state budget or a time limit already past still gives a
# checked placement that says how far from optimal it may be, with a lower
# bound no higher than the optimum; greedy proves nothing.
m=examples/models/transformer_encoder.relay
"$BYOC" partition $m -f json -o "$tmp/opt.json" || bad "budget: optimal run"
for how in "--max-states 2" "--time-limit 0.000001"; do
    if "$BYOC" partition $m $how >"$tmp/out" 2>"$tmp/err" && \
       grep -Eq '^search +(within [0-9.]+% of optimal|not proven optimal) \((state budget|time limit)\)$' "$tmp/out"; then
        ok "budget $how: text says so"; else bad "budget $how: text"; cat "$tmp/out" "$tmp/err" | grep -v '^ ' | head -5; fi
    "$BYOC" partition $m $how -f json -o "$tmp/b.json" 2>"$tmp/err" || bad "budget $how: json exit status"
    if $have_python; then
        if python3 - "$tmp/b.json" "$tmp/opt.json" "$how" <<'PY'
import json, sys
b, o = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert o["optimal"] and o["gap"] == 0 and o["lower_bound"] == o["cost"], o
assert b["budget_hit"] and not b["optimal"], b
assert b["time_limit_hit"] == ("time" in sys.argv[3]), b
assert b["lower_bound"] <= o["cost"] * (1 + 1e-9) and b["cost"] >= o["cost"] * (1 - 1e-9), (b, o)
assert b["gap"] is None or abs(b["gap"] - (b["cost"] - b["lower_bound"]) / b["lower_bound"]) < 1e-9
PY
        then ok "budget $how: json bound and gap"; else bad "budget $how: json"; fi
    fi
done
"$BYOC" partition $m --search greedy -f json -o "$tmp/g.json" || bad "greedy json"
if $have_python; then
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert not r["optimal"] and r["gap"] is None, r' "$tmp/g.json" \
        && ok "greedy proves no bound" || bad "greedy json gap"
fi

# The shared real models: every bundled device, every result checked.
models=${BYOC_SHARED_MODELS:-$top_srcdir/../shared/models}
if [ -d "$models/relay" ]; then
    for f in "$models"/relay/*.relay; do
        name=$(basename "$f")
        if "$BYOC" partition "$f" -f json -o "$tmp/s.json" 2>"$tmp/err"; then ok "shared $name"; else bad "shared $name"; cat "$tmp/err"; fi
    done
    for f in resnet50 mobilenet gpt2; do
        "$BYOC" compare "$models/relay/$f.relay" >"$tmp/out" 2>"$tmp/err" && grep -q '^optimal ' "$tmp/out" \
            && ok "compare $f" || { bad "compare $f"; cat "$tmp/err"; }
    done
else
    echo "SKIP: shared models ($models is absent)"
fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
