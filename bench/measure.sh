#!/bin/sh
# Measured costs, end to end (doc/cost-model.md, "Additivity"): for each
# shared ONNX model, with weights filled in at random,
#   1. byoc measure --runner onnxruntime times every kernel of the CPU
#      targets into a fresh cache (the first run), then again (the second
#      run: every kernel from the cache, nothing measured);
#   2. byoc partition --cost table: places the model with those times; its
#      total is the prediction, and stats.from_table should equal the
#      partition count;
#   3. the placement is written as a split plan (-f onnx) and run end to end
#      under ONNX Runtime (tools/ort-split-run.js --time), and so is the
#      whole model in one session.
# It prints one table row per model and target set: kernels, the first run
# (kernels measured, seconds), the second run's seconds, partitions (those
# priced from the table), predicted total, measured plan, their ratio
# (Collage's "additive error": how well a sum of kernel times predicts the
# chain), and the whole model's time.
#
#   bench/measure.sh [VAR=VALUE]...
#   MODELS "collage_resnet50 collage_mobilenet collage_gpt2 ortopt_roberta_base"
#          (names under SHARED/onnx or SHARED/onnx-modern, without .graph.onnx;
#          "all" for every one)
#   TARGETS "dnnl,llvm llvm" (target sets, each a row; one cache per model,
#          so a later set measures only kernels the earlier ones lacked)
#   RUNNER onnxruntime   ARGS "--warmup 3 --repeat 10 -j 1"
#   RUNS 10 (timed runs of the plan and of the whole model, after 2 warm-up)
#   DIMS "" (--dim NAME=N for models with free dimensions, e.g. "batch=1 seq=32")
#   BYOC ./cli/byoc   SHARED ../shared/models   OUTDIR bench/measure.d
#   PYTHON (a python3 with the onnx package; found when unset)
#
# -j 1 by default: kernels timed side by side compete for the cores, which
# would inflate every time.  Needs node and onnxruntime-node (BYOC_ORT or
# tools/.ort) and Python's onnx.  Not a test: it reports and asserts nothing.
for a in "$@"; do
  case $a in
    MODELS=*|TARGETS=*|RUNNER=*|ARGS=*|RUNS=*|DIMS=*|BYOC=*|SHARED=*|OUTDIR=*|PYTHON=*)
      name=${a%%=*}; eval "$name=\${a#*=}" ;;
    *) echo "measure.sh: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
: "${MODELS:=collage_resnet50 collage_mobilenet collage_gpt2 ortopt_roberta_base}"
: "${TARGETS:=dnnl,llvm llvm}" "${RUNNER:=onnxruntime}" "${ARGS:=--warmup 3 --repeat 10 -j 1}"
: "${RUNS:=10}" "${DIMS:=}"
: "${BYOC:=./cli/byoc}" "${SHARED:=../shared/models}" "${OUTDIR:=bench/measure.d}"
here=$(cd "$(dirname "$0")/.." && pwd)
: "${BYOC_ORT_MEASURE:=$here/tools/ort-measure.js}"
[ -n "${BYOC_ORT:-}" ] || [ ! -d "$here/tools/.ort" ] || BYOC_ORT=$here/tools/.ort
export BYOC_ORT_MEASURE BYOC_ORT
if [ -z "${PYTHON:-}" ]; then
  for p in python3 /usr/bin/python3; do
    if "$p" -c 'import onnx' 2>/dev/null; then PYTHON=$p; break; fi
  done
fi
if [ -z "${PYTHON:-}" ]; then echo "measure.sh: no python3 with the onnx package" >&2; exit 1; fi
NODE=${NODE:-node}
if ! "$NODE" -e "require(process.argv[1] ? require('path').join(process.argv[1], 'node_modules/onnxruntime-node') : 'onnxruntime-node')" \
    "${BYOC_ORT:-}" 2>/dev/null; then
  echo "measure.sh: node cannot load onnxruntime-node (set BYOC_ORT)" >&2; exit 1
fi
if [ "$MODELS" = all ]; then
  MODELS=$(cd "$SHARED" && ls onnx/*.graph.onnx onnx-modern/*.graph.onnx 2>/dev/null |
           sed 's|.*/||; s|\.graph\.onnx$||')
fi
dimargs=
for d in $DIMS; do dimargs="$dimargs --dim $d"; done
mkdir -p "$OUTDIR" || exit 1
now() { date +%s.%N; }
json() { "$PYTHON" -c "import json, sys; d = json.load(open(sys.argv[1])); print($2)" "$1"; }

echo "| model | targets | kernels | first run: measured (s) | second run (s) | partitions (from table) | predicted (ms) | plan measured (ms) | measured / predicted | whole model (ms) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for m in $MODELS; do
  src=$SHARED/onnx/$m.graph.onnx
  [ -f "$src" ] || src=$SHARED/onnx-modern/$m.graph.onnx
  if [ ! -f "$src" ]; then echo "| $m | no model | | | | | | | | |"; continue; fi
  o=$OUTDIR/$m
  rm -f "$o.cache.csv"
  if [ ! -f "$o.onnx" ] || [ "$src" -nt "$o.onnx" ]; then
    "$PYTHON" "$here/tools/fill-weights.py" "$src" "$o.onnx" >"$o.fill.log" 2>&1 ||
      { echo "| $m | fill-weights.py failed: $(tail -1 "$o.fill.log") | | | | | | | | |"; continue; }
  fi
  for ts in $TARGETS; do
    r=$o.$(echo "$ts" | tr , _)
    rm -rf "$r.plan"
    t0=$(now)
    # shellcheck disable=SC2086
    if ! "$BYOC" measure "$o.onnx" -t "$ts" $dimargs --runner "$RUNNER" $ARGS \
        --cache "$o.cache.csv" -o "$r.csv" 2>"$r.first.err"; then
      echo "| $m | $ts | measure failed: $(tail -1 "$r.first.err") | | | | | | | |"; continue
    fi
    t1=$(now)
    # shellcheck disable=SC2086
    "$BYOC" measure "$o.onnx" -t "$ts" $dimargs --runner "$RUNNER" $ARGS \
      --cache "$o.cache.csv" -o "$r.again.csv" 2>"$r.again.err"
    t2=$(now)
    kernels=$(grep -vc '^#\|^target,' "$r.csv")
    measured=$(sed -n 's/.*measured \([0-9]*\),.*/\1/p' "$r.first.err" | tail -1)
    again=$(sed -n 's/.*measured \([0-9]*\),.*/\1/p' "$r.again.err" | tail -1)
    # shellcheck disable=SC2086
    "$BYOC" partition "$o.onnx" -t "$ts" $dimargs --cost "table:$r.csv" -f json >"$r.json" &&
    "$BYOC" partition "$o.onnx" -t "$ts" $dimargs --cost "table:$r.csv" -f onnx -o "$r.plan" ||
      { echo "| $m | $ts | partition failed | | | | | | | |"; continue; }
    parts=$(json "$r.json" '"%d (%d)" % (len(d["partitions"]), d["stats"]["from_table"])')
    pred=$(json "$r.json" '"%.3f" % (d["cost"] * 1e3)')
    # shellcheck disable=SC2086
    "$NODE" "$here/tools/ort-split-run.js" --plan "$r.plan/plan.json" --model "$o.onnx" $dimargs \
      ${BYOC_ORT:+--ort "$BYOC_ORT"} --opt all --tolerance 1e-2 --time "$RUNS" --warmup 2 --json \
      >"$r.run.json" 2>"$r.run.err"
    if ! plan=$(json "$r.run.json" '"%.3f %.3f" % (d["time"]["plan_ms"], d["time"]["whole_ms"])' 2>/dev/null); then
      echo "| $m | $ts | $kernels | | | $parts | $pred | plan run failed: $(tail -1 "$r.run.err") | | |"; continue
    fi
    set -- $plan
    awk -v m="$m" -v ts="$ts" -v k="$kernels" -v n="${measured:-?}" -v n2="${again:-?}" \
        -v a="$t0" -v b="$t1" -v c="$t2" -v parts="$parts" -v pred="$pred" -v plan="$1" -v whole="$2" 'BEGIN {
      printf "| %s | %s | %d | %s (%.1f) | %.2f (measured %s) | %s | %s | %s | %.2f | %s |\n",
        m, ts, k, n, b - a, c - b, n2, parts, pred, plan, plan / pred, whole }'
  done
done
