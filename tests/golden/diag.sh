#!/bin/sh
# Golden diagnostics: every tests/golden/diag/NAME.byoc that has a NAME.err
# beside it must make byocc fail with exactly that text on stderr, exit
# status 1, and no output file.  Files without .err are imported helpers.
# Set BYOC_REGEN=1 to rewrite the .err files from byocc's output.
set -u
: "${BYOCC:?}" "${top_srcdir:?}"
dir=$top_srcdir/tests/golden/diag
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
for src in "$dir"/*.byoc; do
    name=$(basename "$src" .byoc)
    exp=$dir/$name.err
    if [ ! -f "$exp" ] && [ -z "${BYOC_REGEN:-}" ]; then
        continue
    fi
    case $name in mini_ops|cycle_b) continue;; esac
    (cd "$dir" && "$BYOCC" -o "$tmp/out.c" "$name.byoc") >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    if [ -n "${BYOC_REGEN:-}" ]; then
        cp "$tmp/stderr" "$exp"
    fi
    ok=1
    if [ "$rc" -ne 1 ]; then
        echo "FAIL: $name: exit status $rc, expected 1"; ok=0
    fi
    if [ -e "$tmp/out.c" ] || [ -e "$tmp/out.h" ]; then
        echo "FAIL: $name: an output file was written"; ok=0
        rm -f "$tmp/out.c" "$tmp/out.h"
    fi
    if ls "$tmp" | grep -q tmp; then
        echo "FAIL: $name: a temporary file was left behind"; ok=0
    fi
    if ! diff -u "$exp" "$tmp/stderr" >"$tmp/diff"; then
        echo "FAIL: $name: diagnostics differ"; cat "$tmp/diff"; ok=0
    fi
    if [ $ok = 1 ]; then
        echo "PASS: $name"; pass=$((pass + 1))
    else
        fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
