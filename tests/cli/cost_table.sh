#!/bin/sh
# Cost tables that lack kernels (issue 16): the kernels priced by the
# analytic model instead are counted on standard error, standard output
# unchanged; --strict makes any of them an error naming the first.
set -u
: "${BYOC:?}" "${top_srcdir:?}"
cd "$top_srcdir" || exit 99
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
m=examples/models/transformer_encoder.relay

# Every kernel tvm_cuda could run, as a table at 1 ms each (CSV quoting:
# a signature's " doubled), and the same table without its last 40 lines.
"$BYOC" kernels $m -t tvm_cuda >"$tmp/k.txt" || bad "kernels: exit status"
awk '/^# target: / { t = substr($0, 11) }
     /^# signature: / { s = substr($0, 14); gsub(/"/, "\"\"", s); print t ",\"" s "\",1e-3" }' \
    "$tmp/k.txt" >"$tmp/full.csv"
n=$(wc -l <"$tmp/full.csv")
[ "$n" -gt 40 ] || { bad "only $n kernels"; exit 1; }
head -n $((n - 40)) "$tmp/full.csv" >"$tmp/part.csv"

# A full table: no warning; every partition's cost from the table.
"$BYOC" partition $m -t tvm_cuda --cost "table:$tmp/full.csv" >"$tmp/full.out" 2>"$tmp/err" \
    && [ ! -s "$tmp/err" ] && ok "full table: nothing on stderr" || { bad "full table"; cat "$tmp/err"; }
# A partial one: the count on stderr.
"$BYOC" partition $m -t tvm_cuda --cost "table:$tmp/part.csv" >"$tmp/part.out" 2>"$tmp/err" \
    || bad "partial table: exit status"
grep -q "^byoc: warning: 40 of $n kernels are not in the cost table '$tmp/part.csv' and were priced by the analytic model ([0-9]* of the [0-9]* partitions chosen); --strict makes this an error$" "$tmp/err" \
    && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok "partial table: the count on stderr" \
    || { bad "partial table: the count on stderr"; cat "$tmp/err"; }
grep -q 'warning\|analytic model' "$tmp/part.out" && bad "partial table: stdout has the warning" \
    || ok "partial table: stdout without it"
# Standard output is what --stats and -o see, with or without the warning.
"$BYOC" partition $m -t tvm_cuda --cost "table:$tmp/part.csv" -o "$tmp/part.o" 2>/dev/null \
    && cmp -s "$tmp/part.o" "$tmp/part.out" && ok "partial table: -o the same bytes" \
    || bad "partial table: -o the same bytes"
# JSON agrees: the chosen partitions' sources.
"$BYOC" partition $m -t tvm_cuda --cost "table:$tmp/part.csv" -f json >"$tmp/p.json" 2>/dev/null
na=$(grep -c '"cost_source": "analytic"' "$tmp/p.json")
grep -q "($na of the" "$tmp/err" && ok "partial table: $na partitions from the analytic model" \
    || { bad "partial table: $na partitions from the analytic model"; cat "$tmp/err"; }
# compare says it once.
"$BYOC" compare $m -t tvm_cuda --cost "table:$tmp/part.csv" >/dev/null 2>"$tmp/err" \
    && [ "$(grep -c '^byoc: warning: 40 of ' "$tmp/err")" -eq 1 ] && ok "compare: one warning" \
    || { bad "compare: one warning"; cat "$tmp/err"; }
# Without a table, no warning.
"$BYOC" partition $m -t tvm_cuda >/dev/null 2>"$tmp/err" && [ ! -s "$tmp/err" ] \
    && ok "analytic: nothing on stderr" || bad "analytic: nothing on stderr"

# --strict.
"$BYOC" partition $m -t tvm_cuda --cost "table:$tmp/full.csv" --strict >"$tmp/out" 2>"$tmp/err" \
    && [ ! -s "$tmp/err" ] && cmp -s "$tmp/out" "$tmp/full.out" && ok "--strict, full table: the same output" \
    || { bad "--strict, full table"; cat "$tmp/err"; }
first=$(sed -n "$((n - 39))p" "$tmp/full.csv")
"$BYOC" partition $m -t tvm_cuda --cost "table:$tmp/part.csv" --strict >"$tmp/out" 2>"$tmp/err"
st=$?
if [ $st = 1 ] && [ ! -s "$tmp/out" ] \
    && grep -q "^byoc: error: 40 of $n kernels are not in the cost table (strict): the first, on target tvm_cuda: " "$tmp/err"; then
    ok "--strict, partial table: an error"
else
    bad "--strict, partial table: an error (status $st)"; cat "$tmp/err"
fi
# The kernel it names is one the table lacks, and one kernels listed.
sig=$(sed -n 's/.*on target tvm_cuda: //p' "$tmp/err")
if grep -qxF "# signature: $sig" "$tmp/k.txt" && ! grep -qF "\"$sig\"" "$tmp/part.csv"; then
    ok "--strict names a missing kernel"
else
    bad "--strict names a missing kernel: $sig"
fi
"$BYOC" explain $m --node %3 -t tvm_cuda --cost "table:$tmp/part.csv" --strict >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st = 1 ] && grep -q "not in the cost table (strict)" "$tmp/err" && ok "explain --strict" \
    || { bad "explain --strict (status $st)"; cat "$tmp/err"; }
"$BYOC" partition $m --strict >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st = 2 ] && grep -q "^byoc: error: --strict goes with --cost table:FILE$" "$tmp/err" \
    && ok "--strict without a table" || { bad "--strict without a table (status $st)"; cat "$tmp/err"; }
"$BYOC" kernels $m --strict >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && grep -q "unknown option '--strict' for kernels" "$tmp/err" && ok "kernels takes no --strict" \
    || bad "kernels takes no --strict"
"$BYOC" --help | grep -q -- '--strict  ' && ok "--help: --strict" || bad "--help: --strict"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
