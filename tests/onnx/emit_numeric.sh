#!/bin/sh
# The op emitter's one-call models (tests/unit/test_onnx_emit --models) run
# in ONNX Runtime and compared with numpy references of the Relay ops
# (tests/onnx/emit_numeric.py), every opset's form of a case with the same
# reference, at the cases' own opsets and at 11 and 18.  Needs node with
# onnxruntime-node ($BYOC_ORT_NODE, the package's directory, or
# tools/.ort/node_modules/onnxruntime-node, where .ci/run installs it) and a python3 with numpy and onnx;
# skipped (77) without them.
gen=${top_builddir:-.}/tests/unit/test_onnx_emit
src=${top_srcdir:-.}
ort=${BYOC_ORT_NODE:-$src/tools/.ort/node_modules/onnxruntime-node}
if ! command -v node >/dev/null 2>&1 || test ! -d "$ort"; then
    echo "skipped: no node with onnxruntime-node (set BYOC_ORT_NODE)"
    exit 77
fi
py=
for p in ${BYOC_PYTHON:-} /usr/bin/python3 python3; do
    if "$p" -c 'import numpy, onnx' >/dev/null 2>&1; then
        py=$p
        break
    fi
done
if test -z "$py"; then
    echo "skipped: no python3 with numpy and onnx"
    exit 77
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/emit_numeric.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
# The cases at their own opsets, then each at 11 and 18 (ONNX Runtime
# checks the schemas of opsets newer than the onnx package may know).
status=0
for opset in "" 11 18; do
    mkdir "$dir/models$opset" || exit 1
    "$gen" --models "$dir/models$opset" $opset || exit 1
    ORT_NODE=$(cd "$ort" && pwd) "$py" "$src/tests/onnx/emit_numeric.py" "$dir/models$opset" \
        "$src/tests/onnx/ort_run.js" "$dir" || status=1
done
exit $status
