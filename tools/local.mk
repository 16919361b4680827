# Tools that run and check partition plans written as ONNX (doc/plan.md),
# for tests/split/split_run.sh: scripts run in place (node and a Python with
# onnx), neither built nor installed.
EXTRA_DIST += tools/ort-split-run.js tools/fill-weights.py tools/check-plan.py \
	tests/split/split_run.sh
