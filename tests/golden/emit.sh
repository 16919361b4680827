#!/bin/sh
# Golden generated code: byocc's output for the examples must be exactly
# tests/golden/emit/NAME.{c,h}.golden, the same on every run, and the same
# whichever way the input path is spelt.  BYOC_REGEN=1 rewrites the files.
set -u
: "${BYOCC:?}" "${top_srcdir:?}"
gold=$top_srcdir/tests/golden/emit
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
check() {
    label=$1; shift
    if cmp -s "$@"; then
        echo "PASS: $label"; pass=$((pass + 1))
    else
        echo "FAIL: $label"; diff -u "$@" | head -40; fail=$((fail + 1))
    fi
}
for name in tour_gpu tour_npu; do
    src=$top_srcdir/examples/$name.byoc
    mkdir -p "$tmp/a" "$tmp/b"
    if ! "$BYOCC" -I "$top_srcdir/lib" -o "$tmp/a/$name.c" "$src"; then
        echo "FAIL: $name: byocc failed"; fail=$((fail + 1)); continue
    fi
    if [ -n "${BYOC_REGEN:-}" ]; then
        cp "$tmp/a/$name.c" "$gold/$name.c.golden"
        cp "$tmp/a/$name.h" "$gold/$name.h.golden"
    fi
    check "$name.c matches the golden file" "$gold/$name.c.golden" "$tmp/a/$name.c"
    check "$name.h matches the golden file" "$gold/$name.h.golden" "$tmp/a/$name.h"
    (cd "$top_srcdir/examples" && "$BYOCC" -I ../lib -o "$tmp/b/$name.c" "./$name.byoc")
    check "$name.c does not depend on the path" "$tmp/a/$name.c" "$tmp/b/$name.c"
    # The depfile names the input and its imports.
    "$BYOCC" -I "$top_srcdir/lib" -MD -o "$tmp/b/$name.c" "$src"
    if grep -q "relay.byoc" "$tmp/b/$name.d" && grep -q "$name.byoc" "$tmp/b/$name.d"; then
        echo "PASS: $name.d lists the imports"; pass=$((pass + 1))
    else
        echo "FAIL: $name.d lists the imports"; cat "$tmp/b/$name.d"; fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
