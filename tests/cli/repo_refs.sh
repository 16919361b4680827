#!/bin/sh
# The project's files cite the project's own docs (issue 16): no source,
# header, test or doc refers to a design file that is not in the
# repository; every doc/*.md file named exists; and the README's synopsis
# of kernels shows -o as optional, as it is (kernels writes to standard
# output without it).
set -u
: "${BYOC:?}" "${top_srcdir:?}"
cd "$top_srcdir" || exit 99
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

# Spelt in two parts, so that this file does not find itself.
design="DESIGN"".md"
dirs="README.md cli compiler doc examples grammar include lib runtime tests tools bench autotools"
# Test logs are skipped: an in-tree build writes them under tests/.
found=$(grep -rlI --exclude='*.log' --exclude='*.trs' -- "$design" $dirs 2>/dev/null)
[ -z "$found" ] && ok "no reference to a design file outside the repository" \
    || { bad "references to a design file outside the repository:"; echo "$found"; }

# Every doc/NAME.md a file names is in doc/.
grep -rhoI --exclude='*.log' --exclude='*.trs' 'doc/[a-z0-9_-]*\.md' $dirs 2>/dev/null \
    | sort -u >"$tmp/docs"
missing=
while read -r d; do
    [ -f "$d" ] || missing="$missing $d"
done <"$tmp/docs"
[ -z "$missing" ] && ok "every doc/*.md named exists ($(wc -l <"$tmp/docs"))" || bad "missing:$missing"

grep -q '^byoc kernels MODEL .*\[-o FILE|DIR\]' README.md && ok "README: kernels [-o FILE|DIR]" \
    || bad "README: kernels [-o FILE|DIR]"
grep -q '^byoc kernels MODEL .* -o FILE|DIR$' README.md && bad "README: kernels -o shown required" \
    || ok "README: kernels -o not required"
"$BYOC" kernels examples/models/resnet_bottleneck.relay -t tvm_cuda >"$tmp/out" 2>"$tmp/err" \
    && grep -q '^# signature: ' "$tmp/out" && ok "kernels without -o: standard output" \
    || { bad "kernels without -o"; cat "$tmp/err"; }

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
