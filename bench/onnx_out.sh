#!/bin/sh
# What writing a placement as ONNX costs: for each model, one whole
# `byoc partition MODEL -f onnx -o DIR` process REPEAT times against the
# same placement written as text, measured by bench/runstat (wall time and
# peak resident memory); medians.  Models: synthetic ones from
# bench/gen_model with their weights (residual CNN and GPT-2-style
# transformer at SIZES calls, ONNX), and any ONNX model given in MODELS
# (with weights: fill a graph-only one first, tools/fill-weights.py).
#
#   bench/onnx_out.sh [VAR=VALUE]...
#   SIZES 1000 10000 50000   REPEAT 5   MODELS ""   ARGS "" (byoc partition
#   options, e.g. -t dnnl)   BYOC GEN_MODEL RUNSTAT   OUTDIR bench/onnx_out.d
#
# Not a test: nothing is asserted.  `make bench-onnx-out` runs it.
for a in "$@"; do
  case $a in
    SIZES=*|REPEAT=*|MODELS=*|ARGS=*|BYOC=*|GEN_MODEL=*|RUNSTAT=*|OUTDIR=*)
      name=${a%%=*}; eval "$name=\${a#*=}" ;;
    *) echo "onnx_out.sh: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
: "${SIZES:=1000 10000 50000}" "${REPEAT:=5}" "${MODELS:=}" "${ARGS:=}"
: "${BYOC:=./cli/byoc}" "${GEN_MODEL:=./bench/gen_model}" "${RUNSTAT:=./bench/runstat}"
: "${OUTDIR:=bench/onnx_out.d}"
mkdir -p "$OUTDIR" || exit 1

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# measure LABEL MODEL: REPEAT runs of text and of -f onnx, medians.
measure() {
  label=$1 model=$2
  for fmt in text onnx; do
    : >"$OUTDIR/stat"
    i=0
    while [ "$i" -lt "$REPEAT" ]; do
      rm -rf "$OUTDIR/plan"
      if [ "$fmt" = onnx ]; then
        # shellcheck disable=SC2086
        "$RUNSTAT" -o "$OUTDIR/one" "$BYOC" partition "$model" $ARGS -f onnx -o "$OUTDIR/plan" \
          >/dev/null 2>"$OUTDIR/err"
      else
        # shellcheck disable=SC2086
        "$RUNSTAT" -o "$OUTDIR/one" "$BYOC" partition "$model" $ARGS >/dev/null 2>"$OUTDIR/err"
      fi
      cat "$OUTDIR/one" >>"$OUTDIR/stat"
      i=$((i + 1))
    done
    if ! grep -q 'status exit 0' "$OUTDIR/stat"; then
      echo "$label $fmt: failed: $(tail -n 2 "$OUTDIR/err")"; continue
    fi
    wall=$(awk '{ print $5 }' "$OUTDIR/stat" | median)
    rss=$(awk '{ print $7 }' "$OUTDIR/stat" | median)
    parts=
    [ "$fmt" = onnx ] && parts=" ($(grep -c '"file"' "$OUTDIR/plan/plan.json") files, $(du -sh "$OUTDIR/plan" | cut -f1))"
    printf '%-28s %-5s wall %8.3f s  peak RSS %8.1f MB%s\n' "$label" "$fmt" "$wall" \
      "$(echo "$rss" | awk '{ print $1 / 1024 }')" "$parts"
  done
}

for shape in residual transformer; do
  for n in $SIZES; do
    m=$OUTDIR/$shape-$n.onnx
    [ -f "$m" ] || "$GEN_MODEL" "$shape" --calls "$n" -f onnx --write-weights -o "$m" || exit 1
    measure "$shape $n calls" "$m"
  done
done
for m in $MODELS; do
  measure "$(basename "$m")" "$m"
done
