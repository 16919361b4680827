#!/bin/sh
# -f onnx refuses what it cannot do with a message, exit status 1 (2 for
# usage), and leaves nothing behind: no -o, an output folder that is not
# empty, a model whose external weights are absent, a Relay model with an
# op that has no ONNX form (named, with its location).  Needs python3 with
# onnx to build the models; skipped without it.
set -u
: "${BYOC:?}" "${top_srcdir:?}"
PY=
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import onnx, numpy' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then echo "SKIP: no python3 with onnx and numpy"; exit 77; fi
if ! "$BYOC" info /dev/null --input-format onnx 2>&1 | grep -qv 'without ONNX'; then
    echo "SKIP: byoc built without ONNX"; exit 77
fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
"$PY" "$top_srcdir/tests/split/make_models.py" "$tmp" || exit 99
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
m=$tmp/convnet.onnx

# expect STATUS GREP-PATTERN DESCRIPTION -- ARGS: runs byoc partition.
expect() {
    want=$1 pat=$2 what=$3
    shift 4
    "$BYOC" partition "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -eq "$want" ] && grep -q -- "$pat" "$tmp/err"; then
        ok "$what"
    else
        bad "$what: exit $got, stderr: $(cat "$tmp/err")"
    fi
}

expect 2 'needs -o DIR' "-f onnx without -o" -- "$m" -f onnx
expect 2 'needs -o FILE.onnx' "-f onnx-annotated without -o" -- "$m" -f onnx-annotated
expect 2 'goes with -f onnx' "--rewrite without -f onnx" -- "$m" --rewrite

mkdir "$tmp/full" && echo keep >"$tmp/full/file"
expect 1 'exists' "an output folder that is not empty" -- "$m" -f onnx -o "$tmp/full"
if [ "$(ls "$tmp/full")" = file ] && [ "$(ls "$tmp" | grep -c '\.tmp')" -eq 0 ]; then
    ok "the folder is untouched, no temporary left"
else
    bad "after refusing: $(ls "$tmp/full") / $(ls "$tmp")"
fi
mkdir "$tmp/empty"
if "$BYOC" partition "$m" -f onnx -o "$tmp/empty" 2>"$tmp/err" && [ -f "$tmp/empty/plan.json" ]; then
    ok "an empty output folder is used"
else
    bad "an empty output folder: $(cat "$tmp/err")"
fi

# A graph-only copy: the weights' file is gone.
mkdir "$tmp/nodata" && cp "$m" "$tmp/nodata/convnet.onnx"
expect 1 'fill them first' "external weights absent" -- "$tmp/nodata/convnet.onnx" -f onnx -o "$tmp/o2"
[ ! -e "$tmp/o2" ] && ok "nothing written without the weights" || bad "$tmp/o2 was left"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
