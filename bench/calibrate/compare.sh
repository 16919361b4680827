#!/bin/sh
# The analytic model against published latencies (doc/cost-model.md).
#
#   bench/calibrate/compare.sh [--check] [BYOC [MODELS]]
#
# Prints one markdown table row per published figure: the figure, byoc's
# single-backend estimate for the same model on the same machine (the
# devices of examples/devices.byoc with that machine's datasheet figures set
# by --device-param), and their ratio.  --check: exit 1 unless every ratio
# is within [0.5, 2] (the test tests/estimate/calibration.sh runs that).
# BYOC defaults to cli/byoc, MODELS to ../shared/models; rows whose model is
# absent are skipped.
set -eu
check=no
if [ "${1:-}" = --check ]; then check=yes; shift; fi
here=$(cd "$(dirname "$0")" && pwd)
byoc=${1:-cli/byoc}
models=${2:-$here/../../../shared/models}
py=${PYTHON:-python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/byoc-calibrate.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# Datasheet figures of the machines the figures were measured on (dense, no
# sparsity; see doc/cost-model.md for the sources).
A100="--device-param cuda:flops.float32=19.5e12 --device-param cuda:flops.float16=312e12
      --device-param cuda:flops.int8=624e12 --device-param cuda:bandwidth=2.039e12
      --device-param cuda:units=108"
A100_40="--device-param cuda:flops.float32=19.5e12 --device-param cuda:flops.float16=312e12
      --device-param cuda:flops.int8=624e12 --device-param cuda:bandwidth=1.555e12
      --device-param cuda:units=108"
V100="--device-param cuda:flops.float32=15.7e12 --device-param cuda:flops.float16=125e12
      --device-param cuda:bandwidth=900e9 --device-param cuda:units=80"
RTX2070="--device-param cuda:flops.float32=7.9e12 --device-param cuda:flops.float16=63e12
      --device-param cuda:bandwidth=448e9 --device-param cuda:units=36"
# One 4-core instance of 14 on a Xeon Platinum 8480+ socket: 4/56 of its
# compute, 1/14 of its memory bandwidth.
XEON4="--device-param cpu:units=4 --device-param cpu:flops.float32=0.514e12
      --device-param cpu:bandwidth=21.9e9"

"$py" "$here/encoder.py" --hidden 768 --layers 12 --heads 12 --seq 128 --dtype float16 \
    > "$tmp/bert_base_16.relay"
"$py" "$here/encoder.py" --hidden 768 --layers 12 --heads 12 --seq 128 > "$tmp/bert_base.relay"
"$py" "$here/encoder.py" --hidden 256 --layers 8 --heads 8 --seq 64 --act relu \
    > "$tmp/bert_full.relay"

bad=0
echo "| # | figure | published (ms) | estimate (ms) | estimate / published |"
echo "|---|---|---|---|---|"
# row ID PUBLISHED_MS WHAT PLACEMENT MODEL ARGS...
row() {
    id=$1 pub=$2 what=$3 place=$4 model=$5
    shift 5
    if [ ! -f "$model" ]; then
        echo "| $id | $what | $pub | skipped: no $model | |"
        return
    fi
    # shellcheck disable=SC2086
    est=$("$byoc" compare "$model" "$@" | awk -v p="$place" '
        $1 == p && p == "native" { print $3 / 1000; exit }
        $1 == p { print $2 / 1000; exit }')
    if [ -z "$est" ]; then
        echo "compare.sh: no '$place' row for $id" >&2
        exit 1
    fi
    ratio=$(awk -v e="$est" -v p="$pub" 'BEGIN { printf "%.2f", e / p }')
    printf '| %s | %s | %s | %.3f | %s |\n' "$id" "$what" "$pub" "$est" "$ratio"
    if ! awk -v r="$ratio" 'BEGIN { exit !(r >= 0.5 && r <= 2) }'; then
        bad=$((bad + 1))
    fi
}

# shellcheck disable=SC2086
{
row 1 0.455 "TensorRT, ResNet-50, A100 SXM (published INT8, estimate FP16)" single:tensorrt \
    "$models/relay/resnet50_16.relay" -t tensorrt --option tensorrt:use_fp16=true $A100
row 2 0.62 "TensorRT, BERT-base seq 128, A100 40GB, FP16" single:tensorrt \
    "$tmp/bert_base_16.relay" -t tensorrt --option tensorrt:use_fp16=true \
    --option tensorrt:use_implicit_batch=false $A100_40
row 3 2.17 "TensorRT, ResNet-50, RTX 2070, FP32" single:tensorrt \
    "$models/relay/resnet50.relay" -t tensorrt $RTX2070
row 4 2.94 "TVM (native GPU code), ResNet-50, RTX 2070, FP32" native \
    "$models/relay/resnet50.relay" -t tensorrt $RTX2070
row 5 1.50 "TensorRT, Collage's BERT (hidden 256, 8 layers, seq 64), V100, FP32" single:tensorrt \
    "$tmp/bert_full.relay" -t tensorrt --option tensorrt:use_implicit_batch=false $V100
row 6 1.52 "TVM (native GPU code), Collage's BERT, V100, FP32" native \
    "$tmp/bert_full.relay" -t tensorrt $V100
row 7 25.3 "oneDNN (Intel TensorFlow), ResNet-50 v1.5, Xeon 8480+, 4 cores, FP32" single:dnnl \
    "$models/relay/resnet50.relay" -t dnnl $XEON4
row 8 80 "oneDNN (Intel TensorFlow), BERT-base seq 128, Xeon 8480+, 4 cores, FP32" single:dnnl \
    "$tmp/bert_base.relay" -t dnnl $XEON4
}
if [ "$check" = yes ] && [ "$bad" -gt 0 ]; then
    echo "compare.sh: $bad estimate(s) more than 2x from the published figure" >&2
    exit 1
fi
