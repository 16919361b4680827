#!/bin/sh
# byoc measure --runner onnxruntime on the shared models (default
# collage_resnet50 and collage_mobilenet, -t dnnl,llvm): wall time of a
# first run (every kernel measured, into a fresh cache) and of a second
# (every kernel from the cache), the kernel count, and whether the table
# prices every partition (stats.from_table against the partition count).
#
#   bench/measure.sh [VAR=VALUE]...
#   MODELS "collage_resnet50 collage_mobilenet"   TARGETS dnnl,llvm
#   RUNNER onnxruntime   ARGS "--warmup 3 --repeat 10 -j 2"
#   BYOC ./cli/byoc   SHARED ../shared/models   OUTDIR bench/measure.d
#
# Needs node and onnxruntime-node (BYOC_ORT or tools/.ort) for the
# onnxruntime runner.  Not a test: it reports, and asserts nothing.
for a in "$@"; do
  case $a in
    MODELS=*|TARGETS=*|RUNNER=*|ARGS=*|BYOC=*|SHARED=*|OUTDIR=*)
      name=${a%%=*}; eval "$name=\${a#*=}" ;;
    *) echo "measure.sh: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
: "${MODELS:=collage_resnet50 collage_mobilenet}" "${TARGETS:=dnnl,llvm}"
: "${RUNNER:=onnxruntime}" "${ARGS:=--warmup 3 --repeat 10 -j 2}"
: "${BYOC:=./cli/byoc}" "${SHARED:=../shared/models}" "${OUTDIR:=bench/measure.d}"
: "${BYOC_ORT_MEASURE:=$(pwd)/tools/ort-measure.js}"
[ -n "${BYOC_ORT:-}" ] || [ ! -d tools/.ort ] || BYOC_ORT=$(pwd)/tools/.ort
export BYOC_ORT_MEASURE BYOC_ORT
mkdir -p "$OUTDIR" || exit 1
now() { date +%s.%N; }
for m in $MODELS; do
  model=$SHARED/onnx/$m.graph.onnx
  [ -f "$model" ] || { echo "$m: no $model"; continue; }
  cache=$OUTDIR/$m.cache.csv
  rm -f "$cache"
  t0=$(now)
  "$BYOC" measure "$model" -t "$TARGETS" --runner "$RUNNER" $ARGS --cache "$cache" \
    -o "$OUTDIR/$m.csv" 2>"$OUTDIR/$m.first.err" || { echo "$m: failed: $(cat "$OUTDIR/$m.first.err")"; continue; }
  t1=$(now)
  "$BYOC" measure "$model" -t "$TARGETS" --runner "$RUNNER" $ARGS --cache "$cache" \
    -o "$OUTDIR/$m.again.csv" 2>"$OUTDIR/$m.again.err"
  t2=$(now)
  "$BYOC" partition "$model" -t "$TARGETS" --cost "table:$OUTDIR/$m.csv" -f json >"$OUTDIR/$m.json"
  cov=$(/usr/bin/env python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("%d partitions, %d from the table" % (len(d["partitions"]), d["stats"]["from_table"]))' "$OUTDIR/$m.json")
  awk -v m="$m" -v a="$t0" -v b="$t1" -v c="$t2" -v cov="$cov" -v f="$(tail -1 "$OUTDIR/$m.first.err")" \
    -v s="$(tail -1 "$OUTDIR/$m.again.err")" 'BEGIN {
      printf "%s: first run %.1f s (%s)\n  second run %.2f s (%s)\n  %s\n", m, b - a, f, c - b, s, cov }'
done
