#!/bin/sh
# The fuzzing regression corpus (tests/fuzz/regressions/FORMAT/): every
# input that once crashed, hung, overflowed or was wrongly accepted, with
# its expected outcome beside it.
#
# For each NAME.relay, NAME.onnx (byoc partition NAME) and NAME.byoc (byocc
# NAME, the installed relay.byoc importable; a NAME_imported.byoc is only
# imported by another), NAME.err holds the exact
# standard error expected: empty when the input is fine, else a located
# error.  The exit status must be 1 when NAME.err holds an error, else 0;
# no signal, no sanitizer report, no output file from a failed byocc, and
# what byocc accepts compiles with $BYOC_CC -std=c11 -Werror -pedantic.
# Then every input runs through the harnesses' own code (tests/fuzz/replay-*,
# the libFuzzer targets' code with a plain main), which must not fail.
# BYOC_REGEN=1 rewrites the .err files from what the tools print.
set -u
: "${BYOC:?}" "${BYOCC:?}" "${top_srcdir:?}" "${top_builddir:?}"
dir=$top_srcdir/tests/fuzz/regressions
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
pass=0 fail=0 skip=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

# A run past this many seconds has hung (the fuzzers allow one second; a
# sanitized build on a loaded machine is slower).
limit=120
run() {
    if command -v timeout >/dev/null 2>&1; then
        timeout -k 5 "$limit" "$@"
    else
        "$@"
    fi
}

for f in "$dir"/relay/*.relay "$dir"/onnx/*.onnx "$dir"/byoc/*.byoc; do
    [ -f "$f" ] || continue
    fmt=$(basename "$(dirname "$f")")
    base=$(basename "$f")
    name=$fmt/${base%.*}
    exp=${f%.*}.err
    case $base in *_imported.byoc) continue ;; esac   # imported by another input
    if [ ! -f "$exp" ] && [ -z "${BYOC_REGEN:-}" ]; then
        bad "$name: no ${base%.*}.err beside it"
        continue
    fi
    rm -f "$tmp/out.c" "$tmp/out.h"
    case $fmt in
    byoc) (cd "$(dirname "$f")" && run "$BYOCC" -o "$tmp/out.c" "$base") ;;
    *) (cd "$(dirname "$f")" && run "$BYOC" partition "$base") ;;
    esac >/dev/null 2>"$tmp/err"
    rc=$?
    if [ "$fmt" = onnx ] && grep -q 'ONNX support is not built in' "$tmp/err"; then
        echo "SKIP: $name (built without ONNX)"; skip=$((skip + 1)); continue
    fi
    [ -n "${BYOC_REGEN:-}" ] && cp "$tmp/err" "$exp"
    want=0
    grep -q ': error: ' "$exp" && want=1
    why=
    [ "$rc" -eq "$want" ] || why="exit status $rc, expected $want"
    if [ "$rc" -ne 0 ] && { [ -e "$tmp/out.c" ] || [ -e "$tmp/out.h" ]; }; then
        why="${why:+$why; }an output file was written"
    fi
    if ! diff -u "$exp" "$tmp/err" >"$tmp/diff"; then
        why="${why:+$why; }standard error differs"
    fi
    # What byocc accepts must be C that compiles strictly (a string of the
    # spec once closed a comment in the generated code).
    if [ "$fmt" = byoc ] && [ "$rc" -eq 0 ] && [ -n "${BYOC_CC:-}" ] &&
        ! $BYOC_CC -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only \
            -I"$top_srcdir/include" -I"$top_builddir/include" "$tmp/out.c" >"$tmp/cc" 2>&1; then
        why="${why:+$why; }the generated C does not compile"
        cat "$tmp/cc" >>"$tmp/diff"
    fi
    if [ -z "$why" ]; then
        ok "$name"
    else
        bad "$name: $why"
        cat "$tmp/diff"
    fi
done

# The harnesses' code on every input (a folder at a time).
for fmt in relay onnx byoc; do
    [ -d "$dir/$fmt" ] || continue
    prog=$top_builddir/tests/fuzz/replay-$fmt
    # shellcheck disable=SC2086
    if (cd "$dir/$fmt" && run "$prog" *.$fmt) >"$tmp/replay" 2>&1; then
        ok "replay-$fmt: $(grep -c '^running ' "$tmp/replay") inputs through the harness"
    else
        bad "replay-$fmt"
        tail -n 40 "$tmp/replay"
    fi
done

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
