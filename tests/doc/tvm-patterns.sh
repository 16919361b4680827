#!/bin/sh
# doc/tvm-patterns.md cannot drift from its worked example: the document
# shows tests/doc/mydnn.byoc verbatim; every entry name of its Python table
# is a pattern of the compiled spec, and the spec has no other; loaded into
# byoc as a plugin (tests/doc/libmydnn.la), it matches the commuted bias
# adds of tests/doc/mydnn.relay and places the model as the document
# shows (targets, kernels and nodes; the costs are the analytic model's).
set -u
: "${BYOC:?}" "${top_srcdir:?}" "${top_builddir:?}"
doc=$top_srcdir/doc/tvm-patterns.md
spec=$top_srcdir/tests/doc/mydnn.byoc
plugin=$top_builddir/tests/doc/.libs/libmydnn.so
[ -f "$plugin" ] || { echo "SKIP: no shared plugin (built with --disable-shared?)"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

# block LANG FIRST-LINE-PREFIX: the fenced block of that language whose
# first line starts with the prefix.
block() {
    awk -v lang="$1" -v want="$2" '
        /^```/ {
            if (fence) {
                if (inb && index(first, want) == 1) { printf "%s", buf; found = 1; exit }
                fence = 0; inb = 0
            } else {
                fence = 1; inb = $0 == "```" lang; buf = ""; first = ""; n = 0
            }
            next
        }
        inb { if (n++ == 0) first = $0; buf = buf $0 "\n" }
        END { exit !found }' "$doc"
}

block byoc '// mydnn.byoc:' >"$tmp/shown" && cmp -s "$tmp/shown" "$spec" &&
    ok "the document shows tests/doc/mydnn.byoc" ||
    { bad "the document shows tests/doc/mydnn.byoc"; diff -u "$spec" "$tmp/shown"; }

# The Python table's entry names, without the compiler's prefix.
block python '# python/tvm/relay/op/contrib/mydnn.py' >"$tmp/py" ||
    bad "the document has the Python table"
grep -o '("mydnn\.[A-Za-z0-9_]*"' "$tmp/py" | sed 's/^("mydnn\.//; s/"$//' | sort >"$tmp/names"
[ -s "$tmp/names" ] || bad "entry names in the Python table"

model=tests/doc/mydnn.relay
cd "$top_srcdir" || exit 99
if "$BYOC" --plugin "$plugin" matches "$model" -t mydnn >"$tmp/m" 2>"$tmp/err"; then
    ok "the plugin loads and matches"
else
    bad "the plugin loads and matches"; cat "$tmp/err"
fi
# Each pattern is listed as 'pattern NAME: N match(es)' or in 'no match:'.
{ sed -n 's/^  pattern \([A-Za-z0-9_]*\): .*/\1/p' "$tmp/m"
  sed -n 's/^  no match: //p' "$tmp/m" | tr ',' '\n' | tr -d ' '; } | sed '/^$/d' | sort >"$tmp/pats"
cmp -s "$tmp/names" "$tmp/pats" && ok "the spec's patterns are the table's entries" ||
    { bad "the spec's patterns are the table's entries"; diff -u "$tmp/names" "$tmp/pats"; }
# add(bias, conv) and add(bias, dense): matched through commute.
grep -A1 '^  pattern conv2d_bias_relu: 1 match' "$tmp/m" | grep -q '^    at %2$' &&
    ok "conv2d_bias_relu matches add(bias, conv)" || { bad "conv2d_bias_relu matches add(bias, conv)"; cat "$tmp/m"; }
grep -A1 '^  pattern dense_bias: 1 match' "$tmp/m" | grep -q '^    at #11$' &&
    ok "dense_bias matches add(bias, dense)" || bad "dense_bias matches add(bias, dense)"

# The placement the document shows.
block '' '$ byoc --plugin ./libmydnn.so partition' >"$tmp/doc-out" || bad "the document shows a partition"
rows() { awk '/^[0-9]+ /{print $1, $2, $3, $4, $5}' "$1"; }
if "$BYOC" --plugin "$plugin" partition "$model" -t mydnn >"$tmp/p" 2>"$tmp/err"; then
    rows "$tmp/doc-out" >"$tmp/want"
    rows "$tmp/p" >"$tmp/got"
    [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got" && ok "the placement is the document's" ||
        { bad "the placement is the document's"; diff -u "$tmp/want" "$tmp/got"; }
    sed -n 2p "$tmp/doc-out" >"$tmp/want"
    head -n 1 "$tmp/p" >"$tmp/got"
    cmp -s "$tmp/want" "$tmp/got" && ok "the header line is the document's" ||
        { bad "the header line is the document's"; diff -u "$tmp/want" "$tmp/got"; }
else
    bad "partition: exit status"; cat "$tmp/err"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
