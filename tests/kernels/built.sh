#!/bin/sh
# byoc kernels -f onnx on the models tests/split/make_models.py builds,
# which carry their weights: a convnet with external data, a multi-output
# model, a QDQ convnet.  Every kernel passes the checker and runs; the
# convnet's weight file is linked into the folder, no random data is made
# (no kernels.data), and each kernel's initializers that are the model's
# hold the model's values; with --rewrite (every call through the emitter)
# the kernels are the same ones and pass too.  Skipped without python3's
# onnx and numpy.
. "${top_srcdir:?}/tests/kernels/lib.sh"
"$PYTHON_ONNX" -c 'import numpy' 2>/dev/null || kernels_skip "no numpy"
"$PYTHON_ONNX" "$top_srcdir/tests/split/make_models.py" "$tmp" >/dev/null || exit 99
for m in convnet multi qdq; do
    kernels_check "$m" 1 "$tmp/$m.onnx" -t dnnl,llvm
    KERNELS_ONNX_ARGS=--rewrite kernels_check "$m [--rewrite]" 1 "$tmp/$m.onnx" -t dnnl,llvm
done

# The model's own weights, linked, in every kernel that reads them.
"$BYOC" kernels "$tmp/convnet.onnx" -t dnnl,llvm -f onnx -o "$tmp/c" 2>/dev/null || fail "convnet"
[ -f "$tmp/c/convnet.data" ] || fail "convnet.data is not linked into the folder"
[ ! -e "$tmp/c/kernels.data" ] || fail "kernels.data made for a model with every weight"
"$PYTHON_ONNX" - "$tmp/convnet.onnx" "$tmp/c" <<'PY' || fail "convnet's kernels do not hold its weights"
import json, os, sys
import numpy as np
import onnx
from onnx import numpy_helper
model = onnx.load(sys.argv[1])
weights = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
kj = json.load(open(os.path.join(sys.argv[2], "kernels.json")))
seen = 0
for k in kj["kernels"]:
    if not k["file"]:
        continue
    m = onnx.load(os.path.join(sys.argv[2], k["file"]))
    for t in m.graph.initializer:
        if t.name in weights and t.dims == list(weights[t.name].shape):
            if not np.array_equal(numpy_helper.to_array(t), weights[t.name]):
                sys.exit(f"{k['file']}: {t.name} is not the model's")
            seen += 1
if seen == 0:
    sys.exit("no kernel holds any of the model's weights")
print(f"{seen} weights in kernels are the model's")
PY
exit $failed
