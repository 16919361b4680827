#!/bin/sh
# tests/kernels/test_kernels (the library's byoc_write_kernels_onnx: a
# want() filter, the seed, errors) on examples/models/resnet_bottleneck.relay
# and the convnet tests/split/make_models.py builds.  Skipped without
# python3's onnx and numpy (to build the convnet).
. "${top_srcdir:?}/tests/kernels/lib.sh"
"$PYTHON_ONNX" -c 'import numpy' 2>/dev/null || kernels_skip "no numpy"
"$PYTHON_ONNX" "$top_srcdir/tests/split/make_models.py" "$tmp" >/dev/null || exit 99
"$top_builddir/tests/kernels/test_kernels" "$top_srcdir/examples/models/resnet_bottleneck.relay" \
    "$tmp/convnet.onnx" "$tmp"
