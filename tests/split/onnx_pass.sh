#!/bin/sh
# tests/split/onnx_pass (see its source): plan.json lists llvm's own files
# for llvm's partitions and byoc's ONNX files for dnnl's, each existing.
set -u
: "${top_builddir:?}" "${top_srcdir:?}"
prog=$top_builddir/tests/split/onnx_pass
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
"$prog" "$top_srcdir/examples/models/transformer_encoder.relay" "$tmp/plan" || exit 1
fail=0
llvm=$(grep -c '"file": "llvm_[0-9]*.txt", "target": "llvm"' "$tmp/plan/plan.json")
dnnl=$(grep -c '"file": "p[0-9]*_dnnl.onnx", "target": "dnnl"' "$tmp/plan/plan.json")
all=$(grep -c '"file"' "$tmp/plan/plan.json")
if [ "$llvm" -ge 1 ] && [ "$dnnl" -ge 1 ] && [ $((llvm + dnnl)) -eq "$all" ]; then
    echo "PASS: plan.json: $llvm files from llvm's pass, $dnnl from byoc's writer"
else
    echo "FAIL: plan.json: $llvm llvm, $dnnl dnnl of $all"; fail=1
fi
for f in $(sed -n 's/.*"file": "\([^"]*\)".*/\1/p' "$tmp/plan/plan.json"); do
    [ -s "$tmp/plan/$f" ] || { echo "FAIL: $f is missing"; fail=1; }
done
exit $fail
