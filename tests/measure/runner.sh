#!/bin/sh
# The runner contract of byoc measure (doc/cost-table.md, "Measuring with
# byoc measure"), on the runner pool itself (tests/measure/runner_driver):
# fake runners printing known times, failing, printing garbage, hanging
# past --timeout with a grandchild (which must die too), a command that is
# not there, time:CMD, a fake trtexec on PATH, -j 2 against -j 1, Ctrl-C,
# and the onnxruntime worker when node and onnxruntime-node are there.
: "${top_srcdir:?}" "${top_builddir:?}"
DRIVER=$top_builddir/tests/measure/runner_driver
tmp=$(mktemp -d "${TMPDIR:-/tmp}/measure-runner.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {   # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then
        echo "PASS: $1"
    else
        echo "FAIL: $1"
        echo "  expected: $2"
        echo "  got:      $3"
        fail=1
    fi
}
gone() {    # gone PID: the process is dead (or a zombie waiting for init), within 5 s
    i=0
    while [ $i -lt 50 ]; do
        case $(ps -o stat= -p "$1" 2>/dev/null) in "" | Z*) return 0 ;; esac
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
line() {    # line FILE SIGNATURE: the driver's line for that kernel, minus the target
    grep " $2 " "$1" | head -1 | cut -d' ' -f3-
}

# A fake runner: its time comes from the signature, it counts its runs in
# $tmp/count, and some signatures misbehave.
cat >"$tmp/fake.sh" <<'EOF'
#!/bin/sh
echo "$BYOC_SIGNATURE" >>"$COUNT"
case $2 in
fail*) echo "some log line"; echo "kernel $2 is not supported" >&2; exit 3 ;;
garbage*) echo "seconds: fast" ;;
negative*) echo "seconds: -1" ;;
silent*) echo "nothing to say" ;;
inf*) echo "seconds: inf" ;;
signal*) kill -SEGV $$ ;;
hang*) sleep 300 & echo $! >"$GRANDCHILD"; wait ;;
*) n=$(printf %s "$2" | cksum | cut -d' ' -f1)
   echo "noise before"
   echo "seconds: 9"
   echo "seconds: $((n % 1000 + 1))e-6" ;;
esac
EOF
chmod +x "$tmp/fake.sh"
export COUNT="$tmp/count" GRANDCHILD="$tmp/grandchild"

"$DRIVER" --runner "$tmp/fake.sh {model} {signature}" --timeout 2 -- \
    m1 t ok_a m2 t fail_b m3 t garbage_c m4 t negative_d m5 t silent_e m6 t inf_f \
    m7 t signal_g m8 t hang_h m9 t "quote's_i" >"$tmp/out1" 2>"$tmp/err1"
rc=$?
check "finishes with every kernel answered" "0 status: finished" "$rc $(tail -1 "$tmp/out1")"
n=$(printf %s ok_a | cksum | cut -d' ' -f1)
check "the last 'seconds:' line counts" "$(awk "BEGIN{printf \"%.6g\", ($n % 1000 + 1) * 1e-6}")" \
    "$(line "$tmp/out1" ok_a)"
check "a failing runner: inf, its exit status and last stderr line" \
    "inf exit status 3: kernel fail_b is not supported" "$(line "$tmp/out1" fail_b)"
check "garbage: inf, the bad time quoted" \
    "inf bad time 'fast' (expected seconds, a non-negative decimal or inf)" \
    "$(line "$tmp/out1" garbage_c)"
check "a negative time is garbage" \
    "inf bad time '-1' (expected seconds, a non-negative decimal or inf)" \
    "$(line "$tmp/out1" negative_d)"
check "no seconds line: inf, with its last line" \
    "inf printed no 'seconds: X' line: nothing to say" "$(line "$tmp/out1" silent_e)"
check "inf is an answer" "inf" "$(line "$tmp/out1" inf_f)"
# (the shell reports its child's signal as 128 + 11, or is killed itself)
case $(line "$tmp/out1" signal_g) in
"inf killed by SIGSEGV (11)"* | "inf exit status 139"*) echo "PASS: killed by a signal" ;;
*) echo "FAIL: killed by a signal: $(line "$tmp/out1" signal_g)"; fail=1 ;;
esac
check "a hang past --timeout" "inf timed out after 2 s" "$(line "$tmp/out1" hang_h)"
gc=$(cat "$tmp/grandchild")
if [ -n "$gc" ] && gone "$gc"; then
    echo "PASS: the hung runner's grandchild is gone"
else
    echo "FAIL: the hung runner's grandchild $gc is still there"
    kill "$gc" 2>/dev/null
    fail=1
fi
n=$(printf %s "quote's_i" | cksum | cut -d' ' -f1)
check "placeholders are shell-quoted" \
    "$(awk "BEGIN{printf \"%.6g\", ($n % 1000 + 1) * 1e-6}")" "$(line "$tmp/out1" "quote's_i")"
check "one run per kernel" "9" "$(wc -l <"$tmp/count" | tr -d ' ')"

# -j 2 gives the same answers.
"$DRIVER" --runner "$tmp/fake.sh {model} {signature}" --timeout 2 -j 2 -- \
    m1 t ok_a m2 t fail_b m3 t garbage_c m4 t negative_d m5 t silent_e m6 t inf_f \
    m7 t signal_g m8 t hang_h m9 t "quote's_i" >"$tmp/out2" 2>/dev/null
check "-j 2 answers as -j 1" "$(cat "$tmp/out1")" "$(cat "$tmp/out2")"

# The placeholders and the environment.
cat >"$tmp/echo.sh" <<'EOF'
#!/bin/sh
echo "args: $*" >&2
[ "$1" = "$BYOC_MODEL" ] && [ "$2" = "$BYOC_TARGET" ] && [ "$3" = "$BYOC_DEVICE" ] &&
[ "$4" = "$BYOC_SIGNATURE" ] && [ "$5" = "$BYOC_WARMUP" ] && [ "$6" = "$BYOC_REPEAT" ] || exit 1
echo "seconds: $5.$6"
EOF
chmod +x "$tmp/echo.sh"
"$DRIVER" --runner "$tmp/echo.sh {model} {target} {device} {signature} {warmup} {repeat}" \
    --warmup 4 --repeat 7 --device "my gpu" -- "a b.onnx" tt 'add(%0:float32[1],%0)' \
    >"$tmp/out3" 2>/dev/null
check "placeholders and BYOC_* variables agree" "tt add(%0:float32[1],%0) 4.7" \
    "$(head -1 "$tmp/out3")"

# A command that is not there stops everything: it is the runner that is wrong.
"$DRIVER" --runner "$tmp/no-such-runner {model}" -- m1 t a m2 t b >"$tmp/out4" 2>/dev/null
rc=$?
check "a missing command is fatal, not inf" "1 t a not-done" "$rc $(head -1 "$tmp/out4")"
case $(tail -1 "$tmp/out4") in
"status: fatal: the runner command cannot run"*"not found"*) echo "PASS: it says why" ;;
*) echo "FAIL: the fatal error reads: $(tail -1 "$tmp/out4")"; fail=1 ;;
esac

# time:CMD times the command: warmup + repeat runs.
: >"$tmp/count"
"$DRIVER" --runner "time:echo x >>$tmp/count" --warmup 2 --repeat 3 -- m1 t s >"$tmp/out5"
check "time: runs warmup + repeat times" "5" "$(wc -l <"$tmp/count" | tr -d ' ')"
case $(head -1 "$tmp/out5") in
"t s "[0-9]*) echo "PASS: time: gives a time" ;;
*) echo "FAIL: time: gave $(head -1 "$tmp/out5")"; fail=1 ;;
esac
"$DRIVER" --runner "time:exit 4" --warmup 1 --repeat 3 -- m1 t s >"$tmp/out6"
check "time: a failing run" "inf run 1 of 4: exit status 4" "$(line "$tmp/out6" s)"

# trtexec: a fake one on PATH prints what trtexec prints.
mkdir "$tmp/bin"
cat >"$tmp/bin/trtexec" <<'EOF'
#!/bin/sh
echo "$*" >"$TRTARGS"
case $* in
*broken*) echo "[E] [TRT] ModelImporter.cpp:773: While parsing node number 0 [Conv]:" ; echo "&&&& FAILED TensorRT.trtexec" ; exit 1 ;;
esac
echo "[12/03/2026-10:00:00] [I] === Performance summary ==="
echo "[12/03/2026-10:00:00] [I] Throughput: 4000 qps"
echo "[12/03/2026-10:00:00] [I] Latency: min = 0.2 ms, max = 0.5 ms, mean = 0.3 ms, median = 0.3 ms, percentile(90%) = 0.4 ms"
echo "[12/03/2026-10:00:00] [I] GPU Compute Time: min = 0.1 ms, max = 0.3 ms, mean = 0.2 ms, median = 0.125 ms, percentile(90%) = 0.3 ms, percentile(95%) = 0.3 ms, percentile(99%) = 0.3 ms"
echo "[12/03/2026-10:00:00] [I] Total GPU Compute Time: 0.5 s"
echo "&&&& PASSED TensorRT.trtexec"
EOF
chmod +x "$tmp/bin/trtexec"
export TRTARGS="$tmp/trtargs"
PATH="$tmp/bin:$PATH" "$DRIVER" --runner "trtexec:--fp16" --warmup 5 --repeat 20 -- \
    k.onnx t s broken.onnx t b >"$tmp/out7"
check "trtexec: the GPU Compute Time median, in seconds" "0.000125" "$(line "$tmp/out7" s)"
check "trtexec: a failure" "inf exit status 1: &&&& FAILED TensorRT.trtexec" \
    "$(line "$tmp/out7" b)"
check "trtexec: its flags" "--onnx=broken.onnx --warmUp=50 --iterations=20 --duration=0 --fp16" \
    "$(cat "$tmp/trtargs")"

# Ctrl-C: the driver stops, kills the running children, says interrupted.
# A shell without job control starts background jobs with SIGINT ignored,
# which byoc keeps; env --default-signal undoes that where it exists.
intr=INT
env --default-signal=INT true 2>/dev/null && launch="env --default-signal=INT" || {
    launch=; intr=TERM; echo "note: SIGTERM instead of SIGINT (no env --default-signal)"; }
rm -f "$tmp/grandchild"
$launch "$DRIVER" --runner "$tmp/fake.sh {model} {signature}" -j 2 -- \
    m1 t hang_1 m2 t hang_2 m3 t ok_3 >"$tmp/out8" 2>/dev/null &
pid=$!
i=0
while [ ! -s "$tmp/grandchild" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -$intr $pid
wait $pid
rc=$?
check "SIG$intr: exit 130, the kernels not done" "130 status: interrupted" "$rc $(tail -1 "$tmp/out8")"
check "SIG$intr: the running kernels are not done" "hang_1 not-done" "$(grep hang_1 "$tmp/out8" | cut -d' ' -f2-)"
gc=$(cat "$tmp/grandchild")
if [ -n "$gc" ] && gone "$gc"; then
    echo "PASS: SIG$intr: the runners' children are gone"
else
    echo "FAIL: SIG$intr: $gc is still there"
    kill "$gc" 2>/dev/null
    fail=1
fi

# The onnxruntime worker, when node and onnxruntime-node are there.
NODE=${BYOC_NODE:-node}
ORT=
for d in ${BYOC_ORT:+"$BYOC_ORT"} ${BYOC_ORT_NODE:+"$BYOC_ORT_NODE"} \
    "$top_srcdir/tools/.ort" "$top_builddir/tools/.ort" "$top_srcdir/tools"; do
    if [ -d "$d/node_modules/onnxruntime-node" ] || [ -f "$d/package.json" ]; then
        ORT=$d
        break
    fi
done
if ! command -v "$NODE" >/dev/null 2>&1; then
    echo "skipped: the onnxruntime worker (no node)"
elif [ -z "$ORT" ]; then
    echo "skipped: the onnxruntime worker (no onnxruntime-node: set BYOC_ORT)"
else
    # A one-node model (Relu on float32[1,4]) from python's onnx.
    PY=${PYTHON_ONNX:-/usr/bin/python3}
    "$PY" -c 'import sys, onnx, onnx.helper as h
t = lambda n: h.make_tensor_value_info(n, onnx.TensorProto.FLOAT, [1, 4])
g = h.make_graph([h.make_node("Relu", ["x"], ["y"])], "g", [t("x")], [t("y")])
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), sys.argv[1])' \
        "$tmp/relu.onnx" 2>/dev/null || {
        echo "skipped: the onnxruntime worker (no python3 with onnx to make a model)"
        exit $fail
    }
    BYOC_NODE=$NODE BYOC_ORT=$ORT BYOC_ORT_MEASURE=$top_srcdir/tools/ort-measure.js \
        "$DRIVER" --runner onnxruntime -j 2 --warmup 1 --repeat 3 -- "$tmp/relu.onnx" t relu \
        "$tmp/missing.onnx" t missing >"$tmp/out9" 2>&1
    case $(line "$tmp/out9" relu) in
    [0-9]*) echo "PASS: onnxruntime: a time" ;;
    *) echo "FAIL: onnxruntime: $(cat "$tmp/out9")"; fail=1 ;;
    esac
    case $(line "$tmp/out9" missing) in
    "inf "*"missing.onnx"*) echo "PASS: onnxruntime: a kernel that cannot load is inf" ;;
    *) echo "FAIL: onnxruntime: $(line "$tmp/out9" missing)"; fail=1 ;;
    esac
    BYOC_NODE=$NODE BYOC_ORT=$ORT BYOC_ORT_MEASURE=$top_srcdir/tools/ort-measure.js \
        "$DRIVER" --runner onnxruntime:no_such_ep -- "$tmp/relu.onnx" t relu >"$tmp/out10" 2>&1
    case $(tail -1 "$tmp/out10") in
    "status: fatal: the onnxruntime worker failed to start"*no_such_ep*) echo "PASS: onnxruntime: an unknown provider is fatal" ;;
    *) echo "FAIL: onnxruntime: $(tail -1 "$tmp/out10")"; fail=1 ;;
    esac
    "$NODE" "$top_srcdir/tools/ort-measure.js" --ort "$ORT" --model "$tmp/relu.onnx" --ep cpu \
        --warmup 1 --repeat 3 >"$tmp/out11" 2>&1
    case $(cat "$tmp/out11") in
    "seconds: "[0-9]*) echo "PASS: ort-measure.js alone follows the runner contract" ;;
    *) echo "FAIL: ort-measure.js alone: $(cat "$tmp/out11")"; fail=1 ;;
    esac
fi
exit $fail
