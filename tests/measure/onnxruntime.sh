#!/bin/sh
# byoc measure --runner onnxruntime on a shared model (collage_mobilenet,
# -t dnnl,llvm, every kernel run under ONNX Runtime's CPU provider): the
# table covers every kernel, `byoc partition --cost table:` prices every
# partition from it (stats.from_table), and a second run measures nothing
# new.  Skipped without node, onnxruntime-node or the shared models.
: "${top_srcdir:?}" "${top_builddir:?}"
BYOC=${BYOC:-$top_builddir/cli/byoc}
MODELS=${BYOC_SHARED_MODELS:-$top_srcdir/../shared/models}
MODEL=$MODELS/onnx/collage_mobilenet.graph.onnx
NODE=${BYOC_NODE:-node}
skip() { echo "skipped: $1"; exit 77; }
[ -f "$MODEL" ] || skip "no shared model $MODEL"
command -v "$NODE" >/dev/null 2>&1 || skip "no node ($NODE)"
ORT=
for d in ${BYOC_ORT:+"$BYOC_ORT"} ${BYOC_ORT_NODE:+"$BYOC_ORT_NODE"} \
    "$top_srcdir/tools/.ort" "$top_builddir/tools/.ort" "$top_srcdir/tools"; do
    if [ -d "$d/node_modules/onnxruntime-node" ] || [ -f "$d/package.json" ]; then
        ORT=$d
        break
    fi
done
[ -n "$ORT" ] || skip "no onnxruntime-node (set BYOC_ORT)"
export BYOC_NODE="$NODE" BYOC_ORT_MEASURE="$top_srcdir/tools/ort-measure.js"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/measure-ort.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {
    if [ "$2" = "$3" ]; then echo "PASS: $1"; else echo "FAIL: $1"; echo "  expected: $2"; echo "  got:      $3"; fail=1; fi
}
T="-t dnnl,llvm"
"$BYOC" measure "$MODEL" $T --runner onnxruntime --ort "$ORT" --warmup 1 --repeat 3 -j 2 \
    --cache "$tmp/cache.csv" -o "$tmp/t1.csv" 2>"$tmp/err1"
rc=$?
kernels=$("$BYOC" kernels "$MODEL" $T | grep -c '^# signature: ')
check "exit 0" "0" "$rc"
check "a time for every kernel" "$kernels" "$(grep -vc '^#\|^target,' "$tmp/t1.csv")"
echo "  $(cat "$tmp/err1"); $(grep -c ',inf$' "$tmp/t1.csv") cannot run"
"$BYOC" partition "$MODEL" $T --cost "table:$tmp/t1.csv" -f json >"$tmp/p.json"
set -- $(/usr/bin/env python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(len(d["partitions"]), d["stats"]["from_table"])' "$tmp/p.json")
check "stats.from_table is the partition count" "$1" "$2"
"$BYOC" measure "$MODEL" $T --runner onnxruntime --ort "$ORT" --warmup 1 --repeat 3 -j 2 \
    --cache "$tmp/cache.csv" -o "$tmp/t2.csv" 2>"$tmp/err2"
check "a second run measures nothing new" \
    "byoc: $kernels kernels: measured 0, from the cache $kernels, cannot run $(grep -c ',inf$' "$tmp/t1.csv")" \
    "$(cat "$tmp/err2")"
cmp -s "$tmp/t1.csv" "$tmp/t2.csv" && echo "PASS: the same table" || { echo "FAIL: the same table"; fail=1; }
exit $fail
