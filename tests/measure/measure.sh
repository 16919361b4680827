#!/bin/sh
# byoc measure end to end on a Relay example (its kernels written through
# the op emitter) with fake runners: the table covers every kernel and
# `byoc partition --cost table:` prices every partition from it; the
# cache (a second run runs the runner zero times, a changed runner string
# measures again, --no-cache, failures cached and --retry-failed, a bad
# cache line); -j 2 against -j 1; a failing and a hanging runner; time:
# and a fake trtexec; Ctrl-C; --kernels DIR; bad options.
: "${top_srcdir:?}" "${top_builddir:?}"
BYOC=${BYOC:-$top_builddir/cli/byoc}
MODEL=$top_srcdir/examples/models/resnet_bottleneck.relay
T="-t dnnl,llvm"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/measure-cmd.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# Every temporary file byoc makes goes here; it must be empty at the end.
mkdir "$tmp/tmpdir"
export TMPDIR="$tmp/tmpdir" XDG_CACHE_HOME="$tmp/xdg"
fail=0
pass() { echo "PASS: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
check() {   # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then pass "$1"; else bad "$1"; echo "  expected: $2"; echo "  got:      $3"; fi
}
runs() { if [ -f "$tmp/count" ]; then wc -l <"$tmp/count" | tr -d ' '; else echo 0; fi; }
# The number of partitions and how many were priced from the table.
priced() {
    "$BYOC" partition "$MODEL" $T --cost "table:$1" -f json >"$tmp/part.json" || return 1
    /usr/bin/env python3 - "$tmp/part.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print(len(d["partitions"]), d["stats"]["from_table"])
EOF
}
no_leftovers() {   # nothing left in TMPDIR, no temporary files beside the tables
    left=$(ls -A "$tmp/tmpdir"; ls -A "$tmp" | grep '\.tmp')
    check "$1: no temporary files left" "" "$left"
}

# A fake runner: a time from the target and signature, one line in
# $tmp/count per run; FAIL_ON (a pattern of "TARGET SIGNATURE") makes
# matching kernels fail, and the run numbered HANG_AT hangs (with -j 1).
cat >"$tmp/fake.sh" <<'EOF'
#!/bin/sh
echo "$BYOC_TARGET $BYOC_SIGNATURE" >>"$COUNT"
case "$BYOC_TARGET $BYOC_SIGNATURE" in
$FAIL_ON) echo "this kernel does not build" >&2; exit 1 ;;
esac
if [ "$(wc -l <"$COUNT")" -eq "${HANG_AT:-0}" ]; then echo $$ >>"$HUNG"; sleep 300 & wait; fi
n=$(printf %s "$BYOC_TARGET $BYOC_SIGNATURE" | cksum | cut -d' ' -f1)
echo "seconds: $((n % 1000 + 1))e-6"
EOF
chmod +x "$tmp/fake.sh"
export COUNT="$tmp/count" HUNG="$tmp/hung" FAIL_ON="no such kernel"
R="$tmp/fake.sh {model}"

# ---- bad usage -------------------------------------------------------------------
usage() {   # usage NAME EXPECTED-MESSAGE ARGS...
    name=$1 msg=$2
    shift 2
    "$BYOC" measure "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "usage: $name" "2 $msg" "$rc $(cat "$tmp/err")"
}
usage "no --runner" "byoc: error: measure needs --runner R: onnxruntime[:EP], trtexec[:ARGS], time:CMD, or a command printing 'seconds: X'" "$MODEL"
usage "-j 0" "byoc: error: -j needs a whole number >= 1, not '0'" "$MODEL" --runner "$R" -j 0
usage "--timeout x" "byoc: error: --timeout needs a positive number of seconds, not 'x'" "$MODEL" --runner "$R" --timeout x
usage "--timeout 0" "byoc: error: --timeout needs a positive number of seconds, not '0'" "$MODEL" --runner "$R" --timeout 0
usage "--repeat 0" "byoc: error: --repeat needs a whole number >= 1, not '0'" "$MODEL" --runner "$R" --repeat 0
usage "--cache and --no-cache" "byoc: error: --cache and --no-cache do not go together" "$MODEL" --runner "$R" --no-cache --cache x
usage "time: alone" "byoc: error: --runner time:CMD needs a command after 'time:'" "$MODEL" --runner time:
usage "no model" "byoc: error: measure needs a model file" --runner "$R"
usage "an unknown target" "$("$BYOC" partition "$MODEL" -t nosuch 2>&1)" "$MODEL" --runner "$R" -t nosuch
"$BYOC" measure --help | grep -q '^  measure MODEL --runner R' && pass "--help shows measure" || bad "--help shows measure"

# ---- measuring, the table, the cache ----------------------------------------------
"$BYOC" measure "$MODEL" $T --runner "$R" -o "$tmp/t1.csv" 2>"$tmp/err"
rc=$?
kernels=$("$BYOC" kernels "$MODEL" $T | grep -c '^# signature: ')
check "exit 0, every kernel measured once" "0 $kernels" "$rc $(runs)"
check "the summary" "byoc: $kernels kernels: measured $kernels, from the cache 0, cannot run 0" "$(cat "$tmp/err")"
check "the default cache is under XDG_CACHE_HOME" "$((kernels + 1))" "$(wc -l <"$tmp/xdg/byoc/measure.csv" | tr -d ' ')"
check "a line per kernel in the table" "$kernels" "$(grep -vc '^#\|^target,' "$tmp/t1.csv")"
set -- $(priced "$tmp/t1.csv")
check "every partition priced from the table" "$1" "$2"
check "the table is sorted" "$(grep -v '^#\|^target,' "$tmp/t1.csv" | LC_ALL=C sort)" \
    "$(grep -v '^#\|^target,' "$tmp/t1.csv")"

: >"$tmp/count"
"$BYOC" measure "$MODEL" $T --runner "$R" -o "$tmp/t2.csv" 2>"$tmp/err"
check "a second run runs the runner zero times" "0 0" "$? $(runs)"
check "... and says so" "byoc: $kernels kernels: measured 0, from the cache $kernels, cannot run 0" "$(cat "$tmp/err")"
cmp -s "$tmp/t1.csv" "$tmp/t2.csv" && pass "the same table, byte for byte" || bad "the same table, byte for byte"

"$BYOC" measure "$MODEL" $T --runner "$R" -q -o "$tmp/t3.csv" --warmup 1 --repeat 2 2>"$tmp/err"
check "-q, and warm-up and repeats are not in the key" "0 " "$(runs) $(cat "$tmp/err")"
"$BYOC" measure "$MODEL" $T --runner "$R " -q -o "$tmp/t3.csv"
check "a changed runner string measures again" "$kernels" "$(runs)"
: >"$tmp/count"
"$BYOC" measure "$MODEL" $T --runner "$R" --device board7 -q -o "$tmp/t3.csv"
check "--device is in the key" "$kernels" "$(runs)"
: >"$tmp/count"
lines=$(wc -l <"$tmp/xdg/byoc/measure.csv")
"$BYOC" measure "$MODEL" $T --runner "$R" --no-cache -q -o "$tmp/t4.csv"
check "--no-cache measures everything and leaves the cache alone" "$kernels $lines" \
    "$(runs) $(wc -l <"$tmp/xdg/byoc/measure.csv")"
cmp -s "$tmp/t1.csv" "$tmp/t4.csv" && pass "... the same table" || bad "... the same table"
"$BYOC" measure "$MODEL" $T --runner "$R" --no-cache -q -j 2 -o "$tmp/t5.csv"
cmp -s "$tmp/t1.csv" "$tmp/t5.csv" && pass "-j 2 gives the table -j 1 gives" || bad "-j 2 gives the table -j 1 gives"

# ---- failures --------------------------------------------------------------------------
# Every dnnl kernel fails; the llvm ones do not.
: >"$tmp/count"
FAIL_ON="dnnl *" "$BYOC" measure "$MODEL" $T --runner "$R" --cache "$tmp/fail.csv" \
    -o "$tmp/f1.csv" 2>"$tmp/err"
rc=$?
nd=$(grep -c '^dnnl,' "$tmp/f1.csv")
check "failures are answers: exit 0" "0" "$rc"
check "a failed kernel is inf" "$nd" "$(grep -c '^dnnl,.*,inf$' "$tmp/f1.csv")"
check "... with the runner's message above it" "$nd" \
    "$(grep -c '^# cannot run: exit status 1: this kernel does not build$' "$tmp/f1.csv")"
: >"$tmp/count"
FAIL_ON="dnnl *" "$BYOC" measure "$MODEL" $T --runner "$R" --cache "$tmp/fail.csv" -q -o "$tmp/f2.csv"
check "failures are cached, not retried" "0" "$(runs)"
cmp -s "$tmp/f1.csv" "$tmp/f2.csv" && pass "... with their messages" || bad "... with their messages"
"$BYOC" measure "$MODEL" $T --runner "$R" --cache "$tmp/fail.csv" --retry-failed -q -o "$tmp/f3.csv"
check "--retry-failed measures the failed ones again" "$nd 0" "$(runs) $(grep -c ',inf$' "$tmp/f3.csv")"
cmp -s "$tmp/t1.csv" "$tmp/f3.csv" && pass "... and the table is whole again" || bad "... and the table is whole again"

# A runner that hangs on one kernel, past --timeout: inf, and the rest go on.
: >"$tmp/count"
HANG_AT=3 "$BYOC" measure "$MODEL" $T --runner "$R" --no-cache --timeout 1 -q -o "$tmp/h1.csv"
check "a hang past --timeout is inf" "1" "$(grep -c ',inf$' "$tmp/h1.csv")"
check "... timed out" "# cannot run: timed out after 1 s" "$(grep '^# cannot run' "$tmp/h1.csv")"
pid=$(cat "$tmp/hung")
case $(ps -o stat= -p "$pid" 2>/dev/null) in "" | Z*) pass "... its runner is gone" ;; *) bad "... its runner $pid is still there"; kill "$pid" ;; esac
no_leftovers "after a timeout"

# ---- time: and trtexec -------------------------------------------------------------------
: >"$tmp/count"
"$BYOC" measure "$MODEL" -t dnnl --runner "time:echo x >>$tmp/count" --no-cache --warmup 1 \
    --repeat 2 -q -o "$tmp/time.csv"
n=$(grep -vc '^#\|^target,' "$tmp/time.csv")
check "time: runs each kernel warmup + repeat times" "$((3 * n))" "$(runs)"
mkdir "$tmp/bin"
cat >"$tmp/bin/trtexec" <<'EOF'
#!/bin/sh
echo "[I] GPU Compute Time: min = 0.01 ms, max = 0.03 ms, mean = 0.02 ms, median = 0.02 ms, percentile(90%) = 0.03 ms"
EOF
chmod +x "$tmp/bin/trtexec"
PATH="$tmp/bin:$PATH" "$BYOC" measure "$MODEL" -t dnnl --runner trtexec --no-cache -q -o "$tmp/trt.csv"
check "trtexec: its median for every kernel" "$n" "$(grep -c ',2e-05$' "$tmp/trt.csv")"

# ---- the cache file ---------------------------------------------------------------------------
printf 'runner,device,target,signature,seconds,note\nr,,dnnl,"add(%%0)",fast,\n' >"$tmp/badcache.csv"
"$BYOC" measure "$MODEL" $T --runner "$R" --cache "$tmp/badcache.csv" -o "$tmp/x.csv" 2>"$tmp/err"
check "a bad cache line: file:line:col" \
    "1 $tmp/badcache.csv:2:19: error: bad time 'fast' (expected seconds, a non-negative decimal or inf)" \
    "$? $(cat "$tmp/err")"
[ ! -e "$tmp/x.csv" ] && pass "... and no table" || bad "... and no table"
printf 'runner,device,target,signature,seconds,note\nr,,dnnl,"add(%%0)",1e-6\n' >"$tmp/badcache.csv"
"$BYOC" measure "$MODEL" $T --runner "$R" --cache "$tmp/badcache.csv" -o "$tmp/x.csv" 2>"$tmp/err"
check "a short cache line" \
    "1 $tmp/badcache.csv:2:1: error: expected 6 fields (runner,device,target,signature,seconds,note), found 5" \
    "$? $(cat "$tmp/err")"
# A last line cut short (a killed run) is dropped, and the next append
# removes it.
head -c -20 "$tmp/fail.csv" >"$tmp/cut.csv"
: >"$tmp/count"
"$BYOC" measure "$MODEL" $T --runner "$R" --cache "$tmp/cut.csv" --retry-failed -q -o "$tmp/c1.csv"
check "a cut last line is measured again" "0 1" "$? $(runs)"
"$BYOC" measure "$MODEL" $T --runner "$R" --cache "$tmp/cut.csv" -q -o "$tmp/c2.csv"
check "... and the cache reads back" "0" "$?"
check "... without the cut line (no line with an odd number of quotes)" "0" \
    "$(awk -F'"' 'NF % 2 == 0' "$tmp/cut.csv" | wc -l | tr -d ' ')"
# A whole last entry without its newline (a cache edited by hand) is kept:
# the next append gives it its newline instead of dropping it.
printf 'other-runner,,dnnl,"kept(%%0:float32[1])",0.5,kept' >>"$tmp/cut.csv"
: >"$tmp/count"
"$BYOC" measure "$MODEL" $T --runner "$R" --cache "$tmp/cut.csv" --retry-failed -q -o "$tmp/c3.csv"
check "a whole last entry without a newline is kept" "0 1" \
    "$? $(grep -c '^other-runner,,dnnl,"kept(%0:float32\[1\])",0.5,kept$' "$tmp/cut.csv")"
# A runner string with blanks at its ends is quoted in the cache, so it
# finds its own entries again.
: >"$tmp/count"
"$BYOC" measure "$MODEL" $T --runner "$R	" --cache "$tmp/tab.csv" -q -o "$tmp/tab1.csv"
: >"$tmp/count"
"$BYOC" measure "$MODEL" $T --runner "$R	" --cache "$tmp/tab.csv" -q -o "$tmp/tab2.csv"
check "a runner ending in a tab: the second run measures nothing" "0" "$(runs)"
# Two runs at once on one cache: no torn lines.
"$BYOC" measure "$MODEL" $T --runner "$R" --cache "$tmp/shared.csv" -q -j 2 -o "$tmp/s1.csv" &
"$BYOC" measure "$MODEL" $T --runner "$R x" --cache "$tmp/shared.csv" -q -j 2 -o "$tmp/s2.csv"
wait
: >"$tmp/count"
"$BYOC" measure "$MODEL" $T --runner "$R" --cache "$tmp/shared.csv" -q -o "$tmp/s3.csv" &&
"$BYOC" measure "$MODEL" $T --runner "$R x" --cache "$tmp/shared.csv" -q -o "$tmp/s4.csv"
check "two concurrent runs share the cache whole" "0 $((2 * kernels + 1))" \
    "$(runs) $(wc -l <"$tmp/shared.csv" | tr -d ' ')"

# ---- --kernels DIR ----------------------------------------------------------------------------
"$BYOC" measure "$MODEL" $T --runner "$R" --no-cache --kernels "$tmp/k" -q -o "$tmp/k.csv"
check "--kernels keeps the files" "$kernels" "$(ls "$tmp/k" | grep -c '\.onnx$')"
[ -f "$tmp/k/kernels.json" ] && pass "... and kernels.json" || bad "... and kernels.json"
"$BYOC" measure "$MODEL" $T --runner "$R" --no-cache --kernels "$tmp/k" -q -o "$tmp/k2.csv" 2>"$tmp/err"
check "--kernels DIR that is not empty: an error" "1" "$?"
[ ! -e "$tmp/k2.csv" ] && pass "... and no table" || bad "... and no table"
no_leftovers "after the kernel folders"

# ---- Ctrl-C --------------------------------------------------------------------------------------
# The fifth kernel hangs; once it does, SIGINT:
# the finished kernels stay in the cache, the table is written marked
# partial, exit 130, nothing left behind.  (A shell without job control
# starts background jobs with SIGINT ignored, which byoc keeps, as
# shells expect; env --default-signal undoes that where it exists.)
intr=INT
env --default-signal=INT true 2>/dev/null && launch="env --default-signal=INT" || {
    launch=; intr=TERM; echo "note: SIGTERM instead of SIGINT (no env --default-signal)"; }
rm -f "$tmp/hung"
: >"$tmp/count"
HANG_AT=5 $launch "$BYOC" measure "$MODEL" $T --runner "$R" --cache "$tmp/int.csv" \
    -o "$tmp/i1.csv" 2>"$tmp/err" &
pid=$!
i=0
while [ ! -s "$tmp/hung" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
kill -$intr $pid
wait $pid
rc=$?
[ $intr = INT ] && want=130 || want=143
check "SIG$intr: exit $want" "$want" "$rc"
done_before=$(($(runs) - 1))
check "SIG$intr: the four finished kernels are in the cache" "4 4" \
    "$done_before $(grep -vc '^runner,' "$tmp/int.csv")"
grep -q '^# partial: interrupted' "$tmp/i1.csv" && pass "SIG$intr: the table says it is partial" ||
    bad "SIG$intr: the table says it is partial"
check "SIG$intr: the table has what was measured" "$done_before" \
    "$(grep -vc '^#\|^target,' "$tmp/i1.csv")"
grep -q "^byoc: interrupted: what was measured is kept in the cache '$tmp/int.csv'" "$tmp/err" &&
    pass "SIG$intr: it says where the measurements are" || bad "SIG$intr: $(cat "$tmp/err")"
pid=$(head -1 "$tmp/hung")
case $(ps -o stat= -p "$pid" 2>/dev/null) in "" | Z*) pass "SIG$intr: the running runner is gone" ;; *) bad "SIG$intr: $pid is still there"; kill "$pid" ;; esac
no_leftovers "SIG$intr"
: >"$tmp/count"
"$BYOC" measure "$MODEL" $T --runner "$R" --cache "$tmp/int.csv" -q -o "$tmp/i2.csv"
check "the same command again measures only the rest" "$((kernels - done_before))" "$(runs)"
cmp -s "$tmp/t1.csv" "$tmp/i2.csv" && pass "... and writes the whole table" || bad "... and writes the whole table"

# A hang-up (a closed terminal, a lost ssh session) is an interrupt too:
# the runners, in process groups of their own, must not outlive byoc.
# (Under nohup SIGHUP is ignored, and byoc keeps an ignored signal as it
# keeps SIGINT: env --default-signal undoes that where it exists.)
rm -f "$tmp/hung"
: >"$tmp/count"
env --default-signal=HUP true 2>/dev/null && hlaunch="env --default-signal=HUP" || hlaunch=
HANG_AT=2 $hlaunch "$BYOC" measure "$MODEL" $T --runner "$R" --no-cache -o "$tmp/h1.csv" 2>"$tmp/err" &
pid=$!
i=0
while [ ! -s "$tmp/hung" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
kill -HUP $pid
wait $pid
check "SIGHUP: exit 129" "129" "$?"
pid=$(head -1 "$tmp/hung")
case $(ps -o stat= -p "$pid" 2>/dev/null) in "" | Z*) pass "SIGHUP: the running runner is gone" ;; *) bad "SIGHUP: $pid is still there"; kill "$pid" ;; esac
grep -q '^# partial: interrupted' "$tmp/h1.csv" && pass "SIGHUP: the partial table" || bad "SIGHUP: the partial table"
no_leftovers "SIGHUP"
exit $fail
