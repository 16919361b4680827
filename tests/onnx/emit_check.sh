#!/bin/sh
# ONNX's own checker on the ops the emitter writes (runtime/writers/
# onnx_emit.c): tests/unit/test_onnx_emit --models writes each of its
# cases that emits as a model of one call, and onnx.checker's full check
# (types inferred and checked against the op schemas of the opset, shapes
# inferred and compared with the call's output type) must pass them all.
# Skipped (77) without a python3 that has the onnx package.
gen=${top_builddir:-.}/tests/unit/test_onnx_emit
py=
for p in ${BYOC_PYTHON:-} /usr/bin/python3 python3; do
    if "$p" -c 'import onnx' >/dev/null 2>&1; then
        py=$p
        break
    fi
done
if test -z "$py"; then
    echo "skipped: no python3 with the onnx package"
    exit 77
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/emit_check.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
"$gen" --models "$dir" || exit 1
"$py" - "$dir" <<'PY'
import glob, os, sys
import onnx
bad = 0
files = sorted(glob.glob(os.path.join(sys.argv[1], "*.onnx")))
for f in files:
    try:
        onnx.checker.check_model(onnx.load(f), full_check=True)
    except Exception as e:
        bad += 1
        print("FAIL %s: %s" % (os.path.basename(f), str(e).strip().splitlines()[0]))
print("%d of %d models pass onnx.checker (onnx %s)" % (len(files) - bad, len(files), onnx.__version__))
sys.exit(1 if bad or not files else 0)
PY
