#!/bin/sh
# The models tests/split/make_models.py builds - a convnet with external
# weights, a multi-output model, a QDQ-quantized convnet - split with the
# default targets, -t dnnl and --search greedy, and with every call written
# from the graph (--rewrite, the op emitter end to end): each plan checks
# and runs as the whole model does.  Skipped as split_run.sh skips.
set -u
: "${top_srcdir:?}"
SPLIT_RUN_LIB=1 . "$top_srcdir/tests/split/split_run.sh"
split_run_find_tools
tmp=$(mktemp -d) || exit 99
SPLIT_RUN_TMP=$tmp/run
trap 'rm -rf "$tmp"' EXIT INT TERM
split_run_setup
"$PYTHON_ONNX" "$top_srcdir/tests/split/make_models.py" "$tmp" || exit 99
fail=0
for m in convnet multi qdq; do
    for args in "" "-t dnnl" "--search greedy" "--rewrite" "-t dnnl --rewrite"; do
        # shellcheck disable=SC2086
        split_run "$tmp/$m.onnx" "" $args || fail=1
    done
done
exit $fail
