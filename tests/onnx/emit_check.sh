#!/bin/sh
# ONNX's own checker on what the op emitter (runtime/writers/onnx_emit.c)
# writes.  tests/unit/test_onnx_emit --models writes each of its cases that
# emits as a model of one call; with the shared models (../shared/models)
# present, --graph also writes every call of each of them through the
# emitter as one model - the ONNX ones at their own opset, the Relay ones
# at 13 and 17.  onnx.checker's full check (types checked against the op
# schemas of the opset, shapes inferred and compared with the types byoc
# gives) must pass them all.  Skipped (77) without a python3 that has the
# onnx package.
gen=${top_builddir:-.}/tests/unit/test_onnx_emit
models=${BYOC_SHARED_MODELS:-../shared/models}
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
"$py" - "$gen" "$dir" "$models" <<'PY'
import glob, os, subprocess, sys
import onnx
gen, out, models = sys.argv[1:4]
bad = 0
for f in sorted(glob.glob(os.path.join(models, "onnx*", "*.onnx"))) + \
         sorted(glob.glob(os.path.join(models, "relay", "*.relay"))):
    if f.endswith(".onnx"):
        m = onnx.load(f, load_external_data=False)
        opsets = [o.version for o in m.opset_import if o.domain in ("", "ai.onnx")]
        del m
    else:
        opsets = [13, 17]
    for opset in opsets:
        dst = os.path.join(out, "%s_op%d.onnx" % (os.path.basename(f), opset))
        r = subprocess.run([gen, "--graph", f, dst, str(opset)], capture_output=True, text=True)
        if r.returncode != 0:
            bad += 1
            print("FAIL %s at opset %d:\n%s%s" % (f, opset, r.stdout, r.stderr))
files = sorted(glob.glob(os.path.join(out, "*.onnx")))
for f in files:
    try:
        onnx.checker.check_model(onnx.load(f), full_check=True)
    except Exception as e:
        bad += 1
        print("FAIL %s: %s" % (os.path.basename(f), str(e).strip().splitlines()[0]))
print("%d of %d models pass onnx.checker (onnx %s)" % (len(files) - bad, len(files), onnx.__version__))
sys.exit(1 if bad or not files else 0)
PY
