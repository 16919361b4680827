#!/bin/sh
# Every shared ONNX model (weights filled at random), split with byoc's
# default targets, with -t dnnl and with --search greedy: each plan passes
# tools/check-plan.py (onnx.checker, names, opsets, the crossing tensors)
# and, under ONNX Runtime, gives the whole model's outputs within 1e-4
# (tests/split/split_run.sh does the work).  Skipped without node,
# onnxruntime-node, python3's onnx or the shared models.
: "${top_srcdir:?}"
SPLIT_RUN_CONFIGS='
-t dnnl
--search greedy'
export SPLIT_RUN_CONFIGS
exec sh "$top_srcdir/tests/split/split_run.sh"
