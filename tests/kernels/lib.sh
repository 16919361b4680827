# Shared by the tests/kernels scripts (sourced): the tools, a scratch
# folder, and kernels_check, which writes a model's kernels both ways and
# checks the ONNX ones.
#
# Environment (make check sets the first three):
#   BYOC, top_srcdir, top_builddir
#   BYOC_SHARED_MODELS  default: $top_srcdir/../shared/models
#   BYOC_ORT / BYOC_ORT_NODE  onnxruntime-node, as tests/split/split_run.sh
#                       finds it (tools/.ort by default); without it the
#                       kernels are checked but not run
#   NODE, PYTHON_ONNX   node, and a python3 with onnx (default: the first
#                       of /usr/bin/python3, python3 that has it)
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${BYOC:=$top_builddir/cli/byoc}"
: "${BYOC_SHARED_MODELS:=$top_srcdir/../shared/models}"
: "${NODE:=node}"
here=$top_srcdir/tests/kernels

kernels_skip() {
    echo "SKIP: $(basename "$0"): $1"
    exit 77
}

if [ -z "${PYTHON_ONNX:-}" ]; then
    for p in /usr/bin/python3 python3; do
        if "$p" -c 'import onnx' >/dev/null 2>&1; then
            PYTHON_ONNX=$p
            break
        fi
    done
fi
[ -n "${PYTHON_ONNX:-}" ] || kernels_skip "no python3 with the onnx module (python3-onnx)"

# onnxruntime-node: KERNELS_ORT is the --ort argument, or empty when there
# is none (then nothing is run).
KERNELS_ORT=
if command -v "$NODE" >/dev/null 2>&1; then
    for d in ${BYOC_ORT:+"$BYOC_ORT"} ${BYOC_ORT_NODE:+"$BYOC_ORT_NODE"} \
        "$top_srcdir/tools/.ort" "$top_builddir/tools/.ort"; do
        if [ -d "$d/node_modules/onnxruntime-node" ] || [ -f "$d/package.json" ]; then
            spec=$d/node_modules/onnxruntime-node
            [ -d "$spec" ] || spec=$d
            if "$NODE" -e 'require(process.argv[1])' "$spec" >/dev/null 2>&1; then
                KERNELS_ORT=$d
                break
            fi
        fi
    done
fi
[ -n "$KERNELS_ORT" ] || echo "note: no onnxruntime-node: the kernels are checked, not run"

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 130' INT TERM
failed=0

fail() {
    echo "FAIL: $*"
    failed=1
}

# kernels_check LABEL EVERY MODEL [BYOC ARGS...]: write MODEL's kernels
# as Relay and as ONNX (with $KERNELS_ONNX_ARGS too); check_kernels.py
# compares them and checks every file; then ONNX Runtime runs every
# EVERY-th kernel (0: none).  One PASS or FAIL line.
kernels_check() {
    label=$1
    every=$2
    model=$3
    shift 3
    out=$tmp/k
    rm -rf "$out"
    if ! "$BYOC" kernels "$model" "$@" >"$tmp/k.relay" 2>"$tmp/err"; then
        fail "$label: byoc kernels -f relay failed"
        sed 's/^/  /' "$tmp/err"
        return
    fi
    # shellcheck disable=SC2086
    if ! "$BYOC" kernels "$model" "$@" -f onnx -o "$out" ${KERNELS_ONNX_ARGS:-} 2>"$tmp/err"; then
        fail "$label: byoc kernels -f onnx failed"
        sed 's/^/  /' "$tmp/err"
        return
    fi
    if ! "$PYTHON_ONNX" "$here/check_kernels.py" --full --relay "$tmp/k.relay" "$out" \
            >"$tmp/check" 2>&1; then
        fail "$label: check_kernels.py"
        sed 's/^/  /' "$tmp/check"
        return
    fi
    summary=$(tail -n 1 "$tmp/check" | sed 's/^[^:]*: //')
    ran=
    if [ -n "$KERNELS_ORT" ] && [ "$every" -gt 0 ]; then
        if ! "$NODE" "$here/ort_kernels.js" --ort "$KERNELS_ORT" --every "$every" "$out" \
                >"$tmp/run" 2>&1; then
            fail "$label: ONNX Runtime"
            sed 's/^/  /' "$tmp/run"
            return
        fi
        ran="; $(tail -n 1 "$tmp/run" | sed 's/^[^:]*: //')"
    fi
    echo "PASS: $label: $summary$ran"
    rm -rf "$out"
}
