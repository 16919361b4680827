# Tools that run and check partition plans written as ONNX (doc/plan.md),
# for tests/split/split_run.sh: scripts run in place (node and a Python with
# onnx), neither built nor installed.
EXTRA_DIST += tools/ort-split-run.js tools/fill-weights.py tools/check-plan.py \
	tests/split/split_run.sh

# The tools themselves, on a generated model and hand-cut plans, right and
# wrong (skipped without node, onnxruntime-node or Python's onnx).
TESTS += tests/split/tools.sh
EXTRA_DIST += tests/split/tools.sh tests/split/proto_plan.py

# The onnxruntime runner of byoc measure: installed, since byoc runs it
# (BYOC_ORT_MEASURE overrides the installed path, as the tests do).
dist_pkgdata_DATA += tools/ort-measure.js
