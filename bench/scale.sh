#!/bin/sh
# How the partitioner scales: synthetic models (bench/gen_model) of growing
# size, each partitioned by one whole `byoc partition MODEL --stats`
# process, REPEAT times, measured by bench/runstat (wall time and peak
# resident memory from wait4).  One line per (shape, format, size): calls,
# candidates, states expanded, whether the result is proven optimal (or
# what byoc says instead, e.g. a gap), and the medians.  Runs that time
# out, run out of memory or fail are reported as such and the rest goes on;
# once a size times out or runs out of memory, the larger sizes of that
# shape and format are skipped (KEEP_GOING=1 runs them anyway).
#
#   bench/scale.sh [VAR=VALUE]...        (or the same in the environment)
#
#   SHAPES       residual transformer transformer-kv
#   FORMATS      relay onnx
#   SIZES        1000 5000 10000 20000 50000      (calls, for SHAPES)
#   CHAINS       relu-chain add-chain
#   CHAIN_SIZES  100000
#   REPEAT       5              runs per model
#   TIMEOUT      300            seconds per run
#   MEM_MB       8192           address-space cap per run (0: none)
#   TARGETS      (byoc's default: the cuda backends)  e.g. dnnl
#   PARTITION_ARGS              more byoc partition options
#   KEEP_GOING   0
#   BYOC GEN_MODEL RUNSTAT      the programs (default: ./cli/byoc,
#                               ./bench/gen_model, ./bench/runstat)
#   OUTDIR       bench/scale.d  where models and logs go (the build tree)
#
# Not a test: nothing is asserted.  `make bench-scale` runs it.

for a in "$@"; do
  case $a in
    SHAPES=*|FORMATS=*|SIZES=*|CHAINS=*|CHAIN_SIZES=*|REPEAT=*|TIMEOUT=*|MEM_MB=*|\
    TARGETS=*|PARTITION_ARGS=*|KEEP_GOING=*|BYOC=*|GEN_MODEL=*|RUNSTAT=*|OUTDIR=*)
      name=${a%%=*}
      eval "$name=\${a#*=}" ;;
    -h|--help)
      sed -n '2,/^# Not a test/s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *)
      echo "scale.sh: unknown argument '$a' (VAR=VALUE, see --help)" >&2; exit 2 ;;
  esac
done

SHAPES=${SHAPES-residual transformer transformer-kv}
FORMATS=${FORMATS-relay onnx}
SIZES=${SIZES-1000 5000 10000 20000 50000}
CHAINS=${CHAINS-relu-chain add-chain}
CHAIN_SIZES=${CHAIN_SIZES-100000}
REPEAT=${REPEAT:-5}
TIMEOUT=${TIMEOUT:-300}
MEM_MB=${MEM_MB:-8192}
TARGETS=${TARGETS-}
PARTITION_ARGS=${PARTITION_ARGS-}
KEEP_GOING=${KEEP_GOING:-0}
BYOC=${BYOC:-./cli/byoc}
GEN_MODEL=${GEN_MODEL:-./bench/gen_model}
RUNSTAT=${RUNSTAT:-./bench/runstat}
OUTDIR=${OUTDIR:-bench/scale.d}

for v in REPEAT TIMEOUT MEM_MB; do
  eval "x=\$$v"
  case $x in ''|*[!0-9]*) echo "scale.sh: $v must be a whole number, not '$x'" >&2; exit 2 ;; esac
done
[ "$REPEAT" -ge 1 ] || { echo "scale.sh: REPEAT must be at least 1" >&2; exit 2; }
for p in "$BYOC" "$GEN_MODEL"; do
  [ -x "$p" ] || { echo "scale.sh: $p is not built (make $p)" >&2; exit 1; }
done

# The measuring wrapper: runstat, else GNU time with timeout(1), else
# wall time only.
if [ -x "$RUNSTAT" ]; then
  how=runstat
elif [ -x /usr/bin/time ] && command -v timeout >/dev/null 2>&1; then
  how=gnutime
  echo "scale.sh: $RUNSTAT is not built; measuring with /usr/bin/time and timeout" >&2
else
  how=none
  echo "scale.sh: neither $RUNSTAT nor /usr/bin/time: wall time only, no peak memory" >&2
fi

mkdir -p "$OUTDIR" || exit 1
log=$OUTDIR/log
: > "$log"

# measure STATFILE OUTFILE ERRFILE MODEL: one run; STATFILE gets runstat's line.
measure() {
  m_st=$1 m_out=$2 m_err=$3 m_model=$4
  targs=
  [ -n "$TARGETS" ] && targs="-t $TARGETS"
  case $how in
    runstat)
      mem=
      [ "$MEM_MB" -gt 0 ] && mem="-m $MEM_MB"
      # shellcheck disable=SC2086
      "$RUNSTAT" -t "$TIMEOUT" $mem -o "$m_st" "$BYOC" partition "$m_model" --stats $targs \
        $PARTITION_ARGS > "$m_out" 2> "$m_err" ;;
    gnutime)
      # shellcheck disable=SC2086
      ( [ "$MEM_MB" -gt 0 ] && ulimit -v $((MEM_MB * 1024)) 2>/dev/null
        exec /usr/bin/time -o "$m_st.t" -f '%e %M' timeout -s KILL "$TIMEOUT" \
          "$BYOC" partition "$m_model" --stats $targs $PARTITION_ARGS > "$m_out" 2> "$m_err" )
      m_rc=$?
      m_w=$(tail -n 1 "$m_st.t" 2>/dev/null | cut -d' ' -f1)
      m_k=$(tail -n 1 "$m_st.t" 2>/dev/null | cut -d' ' -f2)
      if [ $m_rc -eq 137 ] && [ "${m_w%.*}" -ge "$TIMEOUT" ] 2>/dev/null; then m_s=timeout
      elif [ $m_rc -gt 128 ]; then m_s="signal $((m_rc - 128))"
      else m_s="exit $m_rc"; fi
      echo "status $m_s wall ${m_w:-0} maxrss_kb ${m_k:--}" > "$m_st" ;;
    none)
      m_t0=$(date +%s.%N)
      # shellcheck disable=SC2086
      "$BYOC" partition "$m_model" --stats $targs $PARTITION_ARGS > "$m_out" 2> "$m_err"
      m_rc=$?
      m_t1=$(date +%s.%N)
      echo "status exit $m_rc wall $(echo "$m_t1 $m_t0" | awk '{printf "%.3f", $1 - $2}')" \
        "maxrss_kb -" > "$m_st" ;;
  esac
}

median() {
  tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 }
    END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2];
          else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

row() {
  printf '%-14s %-6s %6s %6s %8s %10s %8s %7s  %s\n' "$@"
}

# one SHAPE FORMAT N: generate, run REPEAT times, print the line.  Sets
# last_failure to timeout / oom when the larger sizes should be skipped.
one() {
  shape=$1 fmt=$2 n=$3
  model=$OUTDIR/$shape-$n.$fmt
  last_failure=
  if ! "$GEN_MODEL" "$shape" --calls "$n" -f "$fmt" -o "$model" 2> "$OUTDIR/gen.err"; then
    row "$shape" "$fmt" "$n" - - - - - "generator failed: $(head -n 1 "$OUTDIR/gen.err")"
    return
  fi
  calls=$(sed -n 's/.*, \([0-9][0-9]*\) calls$/\1/p' "$OUTDIR/gen.err")
  walls= rsss= cands=- states=- result= runs=0
  r=0
  while [ $r -lt "$REPEAT" ]; do
    r=$((r + 1))
    st=$OUTDIR/stat out=$OUTDIR/out err=$OUTDIR/err
    rm -f "$st"
    measure "$st" "$out" "$err" "$model"
    {
      echo "== $shape $fmt $n run $r"; cat "$st" 2>/dev/null; cat "$err"
    } >> "$log"
    set -- $(cat "$st" 2>/dev/null)
    if [ "$1" != status ]; then
      result="no measurement (see $log)"
      break
    fi
    # status exit 0 wall W maxrss_kb K   /   status timeout wall W ...
    if [ "$2" = timeout ]; then
      s=$2 w=$4
    else
      s="$2 $3" w=$5
    fi
    eval "k=\${$#}"
    if [ "$s" != "exit 0" ]; then
      if [ "$s" = timeout ]; then
        result="timeout (${TIMEOUT} s)"; last_failure=timeout
      elif grep -qi 'out of memory\|cannot allocate\|bad_alloc' "$err"; then
        result="out of memory (cap ${MEM_MB} MB, $s)"; last_failure=oom
      elif [ "$s" = "signal 9" ]; then
        result="killed (signal 9: out of memory?)"; last_failure=oom
      else
        msg=$(grep -v '^byoc: optimal\|candidates,' "$err" | head -n 1 | cut -c1-60)
        result="$s${msg:+: $msg}"
      fi
      break
    fi
    runs=$((runs + 1))
    walls="$walls $w" rsss="$rsss $k"
    if [ $runs -eq 1 ]; then
      line=$(grep 'candidates,' "$err" | tail -n 1)
      c=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) candidates.*/\1/p')
      x=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) states expanded.*/\1/p')
      cands=${c:--} states=${x:--}
      # What byoc says of the result: a gap, if any, else the search row
      # of the text output (optimal / not proven optimal ...), else the
      # strategy named in the stats line.
      gap=$(grep -ho 'within [0-9.]*% of optimal' "$err" "$out" | head -n 1)
      srow=$(sed -n 's/^search  *//p' "$out" | head -n 1)
      strat=$(echo "$line" | sed -n 's/^byoc: \([^:]*\):.*/\1/p')
      result=${gap:-${srow:-${strat:-?}}}
    fi
    rm -f "$out"
  done
  wm=$(echo "$walls" | median)
  km=$(echo "$rsss" | median)
  case $km in -|'') mb=- ;; *) mb=$(echo "$km" | awk '{printf "%.1f", $1 / 1024}') ;; esac
  if [ $runs -lt "$REPEAT" ] && [ $runs -gt 0 ]; then
    result="$result after $runs ok"
  fi
  row "$shape" "$fmt" "$n" "${calls:--}" "$cands" "$states" "$wm" "$mb" "$result"
}

echo "# byoc partition MODEL --stats${TARGETS:+ -t $TARGETS}${PARTITION_ARGS:+ $PARTITION_ARGS}:" \
  "median of $REPEAT whole-process runs, timeout $TIMEOUT s, memory cap" \
  "$( [ "$MEM_MB" -gt 0 ] && echo "$MEM_MB MB" || echo none); log in $log"
row shape format N calls cands states wall_s rss_MB result
for shape in $SHAPES; do
  for fmt in $FORMATS; do
    skip=
    for n in $SIZES; do
      if [ -n "$skip" ]; then
        row "$shape" "$fmt" "$n" - - - - - "skipped ($skip)"
        continue
      fi
      one "$shape" "$fmt" "$n"
      if [ -n "$last_failure" ] && [ "$KEEP_GOING" = 0 ]; then
        skip="N=$n: $last_failure"
      fi
    done
  done
done
for shape in $CHAINS; do
  for fmt in $FORMATS; do
    for n in $CHAIN_SIZES; do
      one "$shape" "$fmt" "$n"
    done
  done
done
exit 0
