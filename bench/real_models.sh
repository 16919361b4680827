#!/bin/sh
# How byoc reads real ONNX exports: for each model, one `byoc info MODEL`
# (with the model's --dim bindings, if it has any) read for what it says,
# then REPEAT whole processes measured by bench/runstat.  One table line
# per model:
#
#   model        the file (.graph.onnx: weights dropped, shapes kept;
#                full/, inferred/: from those subdirectories); a
#                model with bindings is read twice, as it is and with them
#                (the file name and a +)
#   onnx         ONNX nodes, subgraphs included (needs PYTHON with the onnx
#                module; - without)
#   calls        operator calls of the loaded graph
#   folded       nodes folded at load (shape arithmetic)
#   untyped      nodes left without a type
#   opaque       calls kept as opaque calls
#   flops        'all' when every call has a FLOP count, else how many lack one
#   GFLOP        the total byoc reports
#   load_ms      median in-process load (read, build, type) of REPEAT
#                loads by bench/load_model, milliseconds; only without
#                bindings, which it cannot pass (- with them)
#   proc_ms      median whole-process wall time of `byoc info` (start,
#                load, FLOPs, printing), milliseconds
#   rss_MB       its median peak resident memory
#   top opaque   the most frequent opaque ops (then the error, if it failed)
#
# and after the table, per model, the to-do list: the opaque ops with
# counts, why they are opaque (byoc's notes), why nodes are untyped (their
# own reasons, and how many only inherit an untyped input), node names
# dropped and each reason counted.
#
#   bench/real_models.sh [VAR=VALUE]... [MODEL.onnx]...   (or VARs in the environment)
#
#   DIRS       /tmp/byoc-real-models and ../shared/models/onnx-modern:
#              every *.onnx in them (not below), unless MODELS are given
#   FULL       0       1: also DIR/full/*.onnx (the exports with weights)
#   INFERRED   0       1: also DIR/inferred/*.onnx (after ONNX's shape
#                      inference: with value_info, which real exports lack)
#   DIMS_DIR   the first of DIRS: where the sidecars of models in other
#              (read-only) directories are looked for
#   REPEAT     5       measured runs per model
#   TIMEOUT    120     seconds per run
#   MEM_MB     8192    address-space cap per run (0: none)
#   UNBOUND    1       0: models with bindings only with them
#   DETAILS    1       0: the table only
#   BYOC RUNSTAT LOAD_MODEL PYTHON   the programs (default: ./cli/byoc,
#              ./bench/runstat, ./bench/load_model (- in load_ms without
#              it), /usr/bin/python3)
#   OUTDIR     /tmp/byoc-real-models.d: byoc's output for each model
#              (N.info, in table order), the details, the runs' log
#
# The bindings of MODEL.onnx or MODEL.graph.onnx are read from a sidecar
# MODEL.dims beside it, else in DIMS_DIR: byoc options, one a line
# (`--dim NAME=SIZE` or `--input-shape IN=SHAPE`; # starts a comment).
# bench/export_models.py writes the models and their sidecars.  Run from
# the build tree.  Not a test: nothing is asserted.

MODELS=
for a in "$@"; do
  case $a in
    DIRS=*|FULL=*|INFERRED=*|DIMS_DIR=*|REPEAT=*|TIMEOUT=*|MEM_MB=*|UNBOUND=*|DETAILS=*|\
    BYOC=*|RUNSTAT=*|LOAD_MODEL=*|PYTHON=*|OUTDIR=*)
      name=${a%%=*}
      eval "$name=\${a#*=}" ;;
    -h|--help)
      sed -n '2,/^# the build tree/s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*)
      echo "real_models.sh: unknown option '$a' (VAR=VALUE or MODEL.onnx, see --help)" >&2; exit 2 ;;
    *)
      MODELS="$MODELS $a" ;;
  esac
done

top=$(cd "$(dirname "$0")/.." && pwd)
DIRS=${DIRS-/tmp/byoc-real-models $top/../shared/models/onnx-modern}
FULL=${FULL:-0}
INFERRED=${INFERRED:-0}
REPEAT=${REPEAT:-5}
TIMEOUT=${TIMEOUT:-120}
MEM_MB=${MEM_MB:-8192}
UNBOUND=${UNBOUND:-1}
DETAILS=${DETAILS:-1}
BYOC=${BYOC:-./cli/byoc}
RUNSTAT=${RUNSTAT:-./bench/runstat}
LOAD_MODEL=${LOAD_MODEL:-./bench/load_model}
PYTHON=${PYTHON:-/usr/bin/python3}
OUTDIR=${OUTDIR:-${TMPDIR:-/tmp}/byoc-real-models.d}
# shellcheck disable=SC2086 # DIRS is a list
set -- $DIRS
DIMS_DIR=${DIMS_DIR:-$1}

for v in REPEAT TIMEOUT MEM_MB; do
  eval "x=\$$v"
  case $x in ''|*[!0-9]*) echo "real_models.sh: $v must be a whole number, not '$x'" >&2; exit 2 ;; esac
done
[ "$REPEAT" -ge 1 ] || { echo "real_models.sh: REPEAT must be at least 1" >&2; exit 2; }
[ -x "$BYOC" ] || { echo "real_models.sh: $BYOC is not built (make)" >&2; exit 1; }
[ -x "$RUNSTAT" ] || { echo "real_models.sh: $RUNSTAT is not built (make $RUNSTAT)" >&2; exit 1; }
if [ ! -x "$LOAD_MODEL" ]; then
  echo "real_models.sh: $LOAD_MODEL is not built (make $LOAD_MODEL): no in-process load times" >&2
  LOAD_MODEL=
fi
if ! "$PYTHON" -c 'import onnx' 2>/dev/null; then
  echo "real_models.sh: $PYTHON has no onnx module: ONNX node counts left out" >&2
  PYTHON=
fi

if [ -z "$MODELS" ]; then
  for d in $DIRS; do
    [ -d "$d" ] || { echo "real_models.sh: no directory $d; skipped" >&2; continue; }
    for m in "$d"/*.onnx; do [ -f "$m" ] && MODELS="$MODELS $m"; done
    if [ "$FULL" = 1 ]; then
      for m in "$d"/full/*.onnx; do [ -f "$m" ] && MODELS="$MODELS $m"; done
    fi
    if [ "$INFERRED" = 1 ]; then
      for m in "$d"/inferred/*.onnx; do [ -f "$m" ] && MODELS="$MODELS $m"; done
    fi
  done
fi
[ -n "$MODELS" ] || { echo "real_models.sh: no models (bench/export_models.py writes them)" >&2; exit 1; }

mkdir -p "$OUTDIR" || exit 1
log=$OUTDIR/log
: > "$log"

# dims MODEL: the byoc options of MODEL's sidecar, on one line.
dims() {
  d_base=$(basename "$1")
  d_base=${d_base%.onnx}
  d_base=${d_base%.graph}
  for d_f in "$(dirname "$1")/$d_base.dims" "$DIMS_DIR/$d_base.dims" \
             "$(dirname "$1")/../$d_base.dims"; do
    if [ -f "$d_f" ]; then
      sed 's/#.*//' "$d_f" | tr '\n' ' ' | tr -s ' '
      return
    fi
  done
}

# onnx_nodes MODEL: its ONNX nodes, those of If/Loop/Scan bodies included.
onnx_nodes() {
  [ -n "$PYTHON" ] || { echo -; return; }
  "$PYTHON" - "$1" 2>/dev/null <<'EOF' || echo -
import sys, onnx
def count(g):
    n = 0
    for node in g.node:
        n += 1
        for a in node.attribute:
            if a.HasField("g"):
                n += count(a.g)
            for s in a.graphs:
                n += count(s)
    return n
print(count(onnx.load(sys.argv[1], load_external_data=False).graph))
EOF
}

median() {
  tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 }
    END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2];
          else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# summary INFO: the table's fields from byoc info's output, one line,
# fields separated by tabs: calls folded untyped opaque flops gflop top.
summary() {
  awk '
    /^nodes: / { calls = $3; sub(/^\(/, "", calls) }
    /^folded at load: / { folded = $4 }
    /^untyped nodes: / { untyped = $3 }
    /^opaque calls: / { opaque = $3 }
    /^calls without a FLOP count: / { noflops = $6 }
    /^total: / {
      g = $2; u = $3
      if (u == "FLOP") gflop = g / 1e9; else if (u == "kFLOP" || u == "KFLOP") gflop = g / 1e6
      else if (u == "MFLOP") gflop = g / 1e3; else if (u == "GFLOP") gflop = g
      else if (u == "TFLOP") gflop = g * 1e3; else if (u == "PFLOP") gflop = g * 1e6
      else gflop = "?"
    }
    /^operators / { ops = 1; next }
    ops && /^ +[0-9]+  / { if ($NF == "(opaque)") { top[++ntop] = $2 " " $1 } next }
    ops { ops = 0 }
    END {
      t = ""
      for (i = 1; i <= ntop && i <= 3; i++) t = t (i > 1 ? ", " : "") top[i]
      if (ntop > 3) t = t ", ..."
      if (calls == "") calls = "-"
      if (folded == "") folded = 0
      if (untyped == "") untyped = "-"
      if (opaque == "") opaque = "-"
      flops = (noflops == "" || noflops == 0) ? "all" : noflops " lack"
      if (gflop == "") gflop = "-"; else if (gflop != "?") gflop = sprintf("%.2f", gflop)
      printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", calls, folded, untyped, opaque, flops, gflop, t
    }' "$1"
}

# details INFO: the to-do list of one model, node names dropped, input
# types elided, each line counted: the opaque ops; why calls were kept
# opaque (byoc's notes); the untyped nodes' own reasons ("opaque op 'X'":
# an opaque call without a type), and how many more are untyped only
# because an input is (the cascade; byoc's notes repeat all of these).
details() {
  awk '
    function norm(s) {
      # "OP: cannot infer from inputs T1, T2: REASON" -> "OP: REASON"
      if (match(s, /: cannot infer from inputs .*: /))
        s = substr(s, 1, RSTART - 1) ": " substr(s, RSTART + RLENGTH)
      gsub(/field \.?[0-9]+ of/, "field N of", s)
      return s
    }
    function add(kind, key) {
      if (!((kind, key) in n)) order[kind, ++count[kind]] = key
      n[kind, key]++
    }
    function list(kind, title,   i, k) {
      if (!count[kind]) return
      print "  " title
      for (i = 1; i <= count[kind]; i++) { k = order[kind, i]; printf "    %5d  %s\n", n[kind, k], k }
    }
    /^operators / { sect = "ops"; next }
    /^untyped nodes: / { sect = "untyped"; next }
    /^opaque calls: / { sect = ""; next }
    /^notes:/ { sect = "notes"; next }
    /^[^ ]/ { if (sect == "ops") sect = ""; next }
    sect == "ops" && $NF == "(opaque)" { op[++nop] = $2 " " $1; next }
    sect == "untyped" {
      s = $0; sub(/^  [^ ]*: /, "", s)
      if (s ~ /(has no type|of a value with no type)$/) cascade++; else add("untyped", norm(s))
      next
    }
    sect == "notes" {
      s = $0; sub(/^ +/, "", s)
      # "node NAME (OP): REASON" -> "OP: REASON"
      if (match(s, /^node .* \([^()]*\): /)) {
        o = substr(s, 1, RLENGTH - 2); sub(/.*\(/, "", o); sub(/\)$/, "", o)
        add("notes", o ": " substr(s, RLENGTH + 1))
      } else if (s !~ /(has no type|of a value with no type)$/ && s !~ /^opaque op /)
        add("notes", norm(s))
      next
    }
    END {
      if (nop) {
        printf "  opaque ops:"
        for (i = 1; i <= nop; i++) printf "%s %s", (i > 1 ? "," : ""), op[i]
        print ""
      }
      list("notes", "why opaque (notes):")
      list("untyped", "untyped, own reason:")
      if (cascade) printf "  untyped only because an input is: %d\n", cascade
    }' "$1"
}

# ready: wait (up to a minute) while BYOC cannot run, as when the build
# tree is being relinked under us; 1 if it stays so.
ready() {
  w=0
  until "$BYOC" --version > /dev/null 2>&1; do
    [ $w -ge 60 ] && return 1
    sleep 2
    w=$((w + 2))
  done
  return 0
}

row() {
  printf '%-50s %6s %6s %6s %7s %6s %9s %8s %8s %8s %7s  %s\n' "$@"
}

# one MODEL NAME [OPTION]...: read MODEL with the options, print its line
# and append its details.
one() {
  m=$1 name=$2
  shift 2
  opts="$*"
  i=$((i + 1))
  info=$OUTDIR/$i.info
  # exit 126/127: the program went away (relinked); wait and try again.
  tries=0
  while :; do
    ready
    # shellcheck disable=SC2086
    "$BYOC" info "$m" $opts > "$info" 2>&1
    rc=$?
    tries=$((tries + 1))
    if [ "$rc" -ne 126 ] && [ "$rc" -ne 127 ]; then break; fi
    if [ $tries -ge 3 ]; then break; fi
  done
  if [ "$rc" -ne 0 ]; then
    row "$name" "$nodes" - - - - - - - - - "exit $rc: $(grep . "$info" | head -n 1 | cut -c1-100)"
    { echo "== $m${opts:+ $opts}"; echo "  failed (exit $rc): $(grep . "$info" | head -n 3)"; } \
      >> "$detail_file"
    return
  fi
  walls='' rsss='' fail=''
  r=0
  while [ $r -lt "$REPEAT" ]; do
    r=$((r + 1))
    st=$OUTDIR/stat
    rm -f "$st"
    mem=
    [ "$MEM_MB" -gt 0 ] && mem="-m $MEM_MB"
    ready
    # shellcheck disable=SC2086
    "$RUNSTAT" -t "$TIMEOUT" $mem -o "$st" "$BYOC" info "$m" $opts > /dev/null 2> "$OUTDIR/err"
    { echo "== $m $opts run $r"; cat "$st" 2>/dev/null; cat "$OUTDIR/err"; } >> "$log"
    # shellcheck disable=SC2046 # runstat's line, split into words
    set -- $(cat "$st" 2>/dev/null)
    [ "$1" = status ] || { fail="no measurement"; break; }
    if [ "$2" = timeout ]; then fail="timeout (${TIMEOUT} s)"; break; fi
    [ "$2 $3" = "exit 0" ] || { fail="$2 $3"; break; }
    eval "k=\${$#}"
    walls="$walls $5" rsss="$rsss $k"
  done
  wm=$(echo "$walls" | median)
  km=$(echo "$rsss" | median)
  ms=$(echo "$wm" | awk '$1 == "-" { print "-"; next } { printf "%.1f", $1 * 1000 }')
  mb=$(echo "$km" | awk '$1 == "-" { print "-"; next } { printf "%.1f", $1 / 1024 }')
  # In-process: load_model's median column, for the model as it is.
  lm=-
  if [ -n "$LOAD_MODEL" ] && [ -z "$opts" ]; then
    lm=$("$LOAD_MODEL" -n "$REPEAT" "$m" 2>> "$log" | awk 'NR == 2 { printf "%.1f", $3 }')
    lm=${lm:--}
  fi
  # The summary's tab-separated fields (none empty but the last).
  IFS='	' read -r calls folded untyped opaque flops gflop top <<EOF
$(summary "$info")
EOF
  row "$name" "$nodes" "$calls" "$folded" "$untyped" "$opaque" "$flops" "$gflop" "$lm" "$ms" "$mb" \
    "${top:--}${fail:+ ($fail)}"
  { echo "== $m${opts:+ $opts}"; details "$info"; } >> "$detail_file"
}

echo "# byoc info MODEL [its --dim bindings]: median of $REPEAT whole-process runs," \
  "timeout $TIMEOUT s, memory cap $( [ "$MEM_MB" -gt 0 ] && echo "$MEM_MB MB" || echo none);" \
  "load_ms from bench/load_model; output and log in $OUTDIR"
row model onnx calls folded untyped opaque flops GFLOP load_ms proc_ms rss_MB "top opaque"
detail_file=$OUTDIR/details
: > "$detail_file"
i=0
for m in $MODELS; do
  nodes=$(onnx_nodes "$m")
  bind=$(dims "$m")
  # A model with bindings is read both ways: with its free dimensions
  # (NAME), and with them bound (NAME+).  (one sets m, opts and more.)
  model=$m
  label=$(basename "$m")
  case $(basename "$(dirname "$m")") in
    full|inferred) label=$(basename "$(dirname "$m")")/$label ;;
  esac
  if [ -z "$bind" ] || [ "$UNBOUND" = 1 ]; then
    one "$model" "$label"
  fi
  # shellcheck disable=SC2086
  [ -n "$bind" ] && one "$model" "$label+" $bind
done
if [ "$DETAILS" = 1 ]; then
  echo
  echo "# per model: opaque ops, why (byoc's notes), why nodes are untyped (counted, node names dropped)"
  cat "$detail_file"
fi
exit 0
