#!/bin/sh
# Partition plans written as ONNX (byoc partition -f onnx, doc/plan.md) run
# under ONNX Runtime and give the whole model's outputs.
#
# For a graph-only model (../shared/models/onnx*: weights never shipped),
# split_run fills its weights with random data (tools/fill-weights.py, once
# per model; the whole model's outputs are computed once per model too),
# partitions the filled model with `$BYOC partition FILLED.onnx -f onnx -o
# DIR ARGS`, checks DIR's files against plan.json (tools/check-plan.py),
# then runs the whole model and the plan on the same random inputs and
# compares every output (tools/ort-split-run.js), printing one line per
# model and configuration:
#
#   PASS: collage_resnet50 [--search greedy]: 3 partitions, 5 crossing tensors,
#         max rel diff 2.5e-07, 0/1 outputs bit-identical (fill 0.9 s, ...)
#
# Usage:
#   split_run.sh                       every shared model, each CONFIGS entry
#   split_run.sh MODEL DIMS [ARGS...]  one model: DIMS "batch=1 seq=32" or ""
#   SPLIT_RUN_LIB=1 . split_run.sh     only define split_run MODEL DIMS [ARGS...]
#                                      (and split_run_find_tools, split_run_setup)
#
# Skipped (77) when node, onnxruntime-node, or python3 with onnx and numpy
# are missing, or when the shared models are absent.  Exit 1 when a case
# fails, 0 when all pass.
#
# Environment (make check sets the first three):
#   BYOC                the byoc command (default: $top_builddir/cli/byoc)
#   top_srcdir, top_builddir
#   BYOC_SHARED_MODELS  default: $top_srcdir/../shared/models
#   BYOC_ORT            a folder holding node_modules/onnxruntime-node
#                       (default: tools/.ort of the source or build tree, as
#                       .ci/run installs it, or tools/node_modules; else
#                       require's search, NODE_PATH); or BYOC_ORT_NODE, the
#                       package's own folder (as tests/onnx/emit_numeric.sh)
#   NODE, PYTHON_ONNX   node, and a python3 with onnx and numpy (default: the
#                       first of /usr/bin/python3, python3 that has them)
#   SPLIT_RUN_TOLERANCE max relative difference (default 1e-4)
#   SPLIT_RUN_CONFIGS   the byoc partition arguments of the default run, one
#                       configuration per line
#   SPLIT_RUN_TMP       where filled models and plans go (default: mktemp -d,
#                       removed at exit); SPLIT_RUN_KEEP=1 keeps it
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${BYOC:=$top_builddir/cli/byoc}"
: "${BYOC_SHARED_MODELS:=$top_srcdir/../shared/models}"
: "${NODE:=node}"
: "${SPLIT_RUN_TOLERANCE:=1e-4}"
: "${SPLIT_RUN_CONFIGS:=
-t dnnl
--search greedy}"
tools=$top_srcdir/tools

# Symbolic dimensions of the shared models, as --dim arguments for both byoc
# and the runner.
split_run_dims() {
    case $(basename "$1") in
    torch_gpt24_decoder_dyn.*) echo "batch=1 seq=32" ;;
    *) echo "" ;;
    esac
}

split_run_skip() {
    echo "SKIP: split_run skipped: $1"
    exit 77
}

# Finds node, onnxruntime-node and a python with onnx; sets SPLIT_RUN_ORT
# (an --ort argument or empty) and PYTHON_ONNX; skips when one is missing.
split_run_find_tools() {
    command -v "$NODE" >/dev/null 2>&1 || split_run_skip "no node ($NODE)"
    SPLIT_RUN_ORT=
    for d in ${BYOC_ORT:+"$BYOC_ORT"} ${BYOC_ORT_NODE:+"$BYOC_ORT_NODE"} \
        "$top_srcdir/tools/.ort" "$top_builddir/tools/.ort" "$top_srcdir/tools"; do
        if [ -d "$d/node_modules/onnxruntime-node" ] || [ -f "$d/package.json" ]; then
            SPLIT_RUN_ORT=$d
            break
        fi
    done
    if [ -n "$SPLIT_RUN_ORT" ]; then
        spec=$SPLIT_RUN_ORT/node_modules/onnxruntime-node
        [ -d "$spec" ] || spec=$SPLIT_RUN_ORT
    else
        spec=onnxruntime-node
    fi
    "$NODE" -e 'require(process.argv[1])' "$spec" >/dev/null 2>&1 ||
        split_run_skip "onnxruntime-node cannot be loaded ($spec; npm install onnxruntime-node, set BYOC_ORT)"
    if [ -z "${PYTHON_ONNX:-}" ]; then
        for p in /usr/bin/python3 python3; do
            if "$p" -c 'import onnx, numpy' >/dev/null 2>&1; then
                PYTHON_ONNX=$p
                break
            fi
        done
    fi
    if [ -z "${PYTHON_ONNX:-}" ] || ! "$PYTHON_ONNX" -c 'import onnx, numpy' >/dev/null 2>&1; then
        split_run_skip "no python3 with the onnx and numpy modules (python3-onnx)"
    fi
}

# split_run_find_tools, then byoc and the temporary folder.
split_run_setup() {
    split_run_find_tools
    [ -x "$BYOC" ] || split_run_skip "no byoc at $BYOC"
    if [ -z "${SPLIT_RUN_TMP:-}" ]; then
        SPLIT_RUN_TMP=$(mktemp -d) || exit 99
        if [ "${SPLIT_RUN_KEEP:-0}" = 1 ]; then
            echo "split_run: keeping $SPLIT_RUN_TMP"
        else
            trap 'rm -rf "$SPLIT_RUN_TMP"' EXIT
            trap 'rm -rf "$SPLIT_RUN_TMP"; exit 130' INT TERM
        fi
    fi
    mkdir -p "$SPLIT_RUN_TMP/filled" || exit 99
}

split_run_now() { date +%s.%N 2>/dev/null || date +%s; }
split_run_secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# split_run MODEL DIMS [ARGS...]: one model, one configuration.  Prints one
# PASS or FAIL line (and on failure what went wrong); returns 0 or 1.
split_run() {
    model=$1
    dims=$2
    shift 2
    base=$(basename "$model" .onnx)
    base=${base%.graph}
    label="$base${*:+ [$*]}${dims:+ ($dims)}"
    filled=$SPLIT_RUN_TMP/filled/$base.onnx
    dimargs=
    for d in $dims; do dimargs="$dimargs --dim $d"; done
    t0=$(split_run_now)
    if [ ! -f "$filled" ]; then
        if ! "$PYTHON_ONNX" "$tools/fill-weights.py" "$model" "$filled" \
                >"$SPLIT_RUN_TMP/fill.log" 2>&1; then
            echo "FAIL: $label: fill-weights.py failed"
            sed 's/^/  /' "$SPLIT_RUN_TMP/fill.log"
            rm -f "$filled"
            return 1
        fi
    fi
    t1=$(split_run_now)
    plan=$SPLIT_RUN_TMP/plan
    rm -rf "$plan"
    # shellcheck disable=SC2086
    if ! "$BYOC" partition "$filled" -f onnx -o "$plan" $dimargs "$@" \
            >"$SPLIT_RUN_TMP/byoc.log" 2>&1; then
        echo "FAIL: $label: byoc partition failed"
        tail -n 20 "$SPLIT_RUN_TMP/byoc.log" | sed 's/^/  /'
        return 1
    fi
    t2=$(split_run_now)
    if ! "$PYTHON_ONNX" "$tools/check-plan.py" --quiet --model "$filled" "$plan" \
            >"$SPLIT_RUN_TMP/check.log" 2>&1; then
        echo "FAIL: $label: check-plan.py"
        sed 's/^/  /' "$SPLIT_RUN_TMP/check.log"
        return 1
    fi
    t3=$(split_run_now)
    # shellcheck disable=SC2086
    "$NODE" "$tools/ort-split-run.js" ${SPLIT_RUN_ORT:+--ort "$SPLIT_RUN_ORT"} \
        --plan "$plan/plan.json" --model "$filled" $dimargs \
        --whole-cache "$SPLIT_RUN_TMP/filled/$base.whole" \
        --tolerance "$SPLIT_RUN_TOLERANCE" --json \
        >"$SPLIT_RUN_TMP/run.json" 2>"$SPLIT_RUN_TMP/run.err"
    rc=$?
    t4=$(split_run_now)
    times="fill $(split_run_secs "$t0" "$t1") s, partition $(split_run_secs "$t1" "$t2") s,"
    times="$times check $(split_run_secs "$t2" "$t3") s, run $(split_run_secs "$t3" "$t4") s"
    # shellcheck disable=SC2016
    summary=$("$NODE" -e '
        const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
        const n = r.outputs.length, id = r.outputs.filter((o) => o.bit_identical).length;
        const worst = r.outputs.reduce((m, o) => Math.max(m, o.max_rel_diff === null ? Infinity : o.max_rel_diff || 0), 0);
        let s = `${r.partitions.length} partitions, ${r.tensors ? r.tensors.count : "?"} crossing tensors, ` +
          `max rel diff ${worst ? worst.toExponential(1) : 0}, ${id}/${n} outputs bit-identical`;
        for (const w of r.warnings) s += `\n  warning: ${w}`;
        for (const e of r.errors) s += `\n  error: ${e}`;
        console.log(s);' "$SPLIT_RUN_TMP/run.json" 2>/dev/null)
    rm -rf "$plan"
    first=$(printf '%s\n' "$summary" | head -n 1)
    if [ "$rc" -eq 0 ]; then
        echo "PASS: $label: $first ($times)"
        printf '%s\n' "$summary" | tail -n +2
        return 0
    fi
    if [ -n "$summary" ]; then
        echo "FAIL: $label: $first ($times)"
        printf '%s\n' "$summary" | tail -n +2
    else
        echo "FAIL: $label: ort-split-run.js exited $rc"
    fi
    sed 's/^/  /' "$SPLIT_RUN_TMP/run.err"
    return 1
}

# The script itself, unless sourced for its functions.
if [ "${SPLIT_RUN_LIB:-0}" != 1 ]; then
    split_run_setup
    status=0
    if [ $# -gt 0 ]; then
        model=$1
        dims=${2-}
        if [ $# -ge 2 ]; then shift 2; else shift; fi
        split_run "$model" "$dims" "$@" || status=1
        exit $status
    fi
    [ -d "$BYOC_SHARED_MODELS/onnx" ] || split_run_skip "$BYOC_SHARED_MODELS/onnx is absent"
    for model in "$BYOC_SHARED_MODELS"/onnx/*.onnx "$BYOC_SHARED_MODELS"/onnx-modern/*.onnx; do
        [ -f "$model" ] || continue
        dims=$(split_run_dims "$model")
        # One configuration per line of SPLIT_RUN_CONFIGS; an empty line is
        # byoc's defaults.
        printf '%s\n' "$SPLIT_RUN_CONFIGS" | {
            st=0
            while IFS= read -r args; do
                # shellcheck disable=SC2086
                split_run "$model" "$dims" $args || st=1
            done
            exit $st
        } || status=1
        # The filled model and the whole model's outputs, shared by its
        # configurations.
        rm -f "$SPLIT_RUN_TMP/filled/$(basename "$model" .onnx | sed 's/\.graph$//')."*
    done
    exit $status
fi
