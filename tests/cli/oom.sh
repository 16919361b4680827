#!/bin/sh
# Running out of memory is an error, never an abort.  byoc partition runs
# under address-space limits from the least that lets byoc start at all up
# to what the run needs, a megabyte apart: every run must exit 0, or 1 with
# "out of memory" on standard error; a signal (abort) or any other status
# fails.  The model is a stack of transformer encoder layers made here, so
# that the readers, candidates, costs and the search all allocate.  Then
# the same, more coarsely, for an ONNX model and for byocc.
set -u
: "${BYOC:?}" "${top_srcdir:?}"
case "${BYOC_SAN_FLAGS:-}" in
*address*)
    echo "SKIP: AddressSanitizer reserves more address space than the limits allow"
    exit 77 ;;
esac
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

# A chain of 3000 dense+bias+relu+residual blocks (12,000 calls).
awk 'BEGIN {
    n = 3000
    print "#[version = \"0.0.5\"]"
    print "def @main(%x: Tensor[(64, 256), float32], %w: Tensor[(256, 256), float32], %b: Tensor[(256), float32]) {"
    prev = "%x"
    for (i = 0; i < n; i++) {
        printf "  %%%d = nn.dense(%s, %%w, units=256);\n", 4 * i, prev
        printf "  %%%d = nn.bias_add(%%%d, %%b, axis=-1);\n", 4 * i + 1, 4 * i
        printf "  %%%d = nn.relu(%%%d);\n", 4 * i + 2, 4 * i + 1
        printf "  %%%d = add(%%%d, %s);\n", 4 * i + 3, 4 * i + 2, prev
        prev = sprintf("%%%d", 4 * i + 3)
    }
    print "  " prev
    print "}"
}' >"$tmp/stack.relay"

# Runs $BYOC under a limit of $1 KB; sets st to its exit status.
limited() {
    lim=$1; shift
    (ulimit -v "$lim" || exit 98; exec "$BYOC" "$@") >"$tmp/out" 2>"$tmp/err"
    st=$?
}

# sweep NAME STEP_KB TRIES COMMAND...: $BYOC COMMAND under limits from the
# least under which it runs at all (exit 0, or 1 with "out of memory"),
# STEP_KB apart, until it succeeds: every run exits 0, or 1 with "out of
# memory"; some limit is too small; the run that succeeds prints what an
# unlimited one does.
sweep() {
    name=$1 step=$2 tries=$3
    shift 3
    "$BYOC" "$@" >"$tmp/full" 2>"$tmp/err" || { bad "$name: unlimited run: $(head -c 300 "$tmp/err")"; return; }
    lo=1024
    while [ $lo -le 1048576 ]; do
        limited $lo "$@"
        [ $st -eq 0 ] && break
        [ $st -eq 1 ] && grep -q 'out of memory' "$tmp/err" && break
        lo=$((lo + step))
    done
    n=0 oom=0 other=0 kb=$lo
    while [ $n -lt "$tries" ]; do
        limited $kb "$@"
        n=$((n + 1))
        if [ $st -eq 0 ]; then
            break
        elif [ $st -eq 1 ] && grep -q 'out of memory' "$tmp/err"; then
            oom=$((oom + 1))
        else
            other=$((other + 1))
            echo "$name under $kb KB: exit $st: $(head -c 300 "$tmp/err")"
        fi
        kb=$((kb + step))
    done
    [ $other -eq 0 ] && ok "$name: no abort under $n limits from $lo KB" ||
        bad "$name: $other of $n limited runs ended otherwise than 0 or 'out of memory'"
    [ $oom -gt 0 ] && ok "$name: $oom limits too small were reported as out of memory" ||
        bad "$name: no limit was too small: the test proves nothing"
    [ $st -eq 0 ] && cmp -s "$tmp/out" "$tmp/full" && ok "$name: enough memory gives the same output" ||
        bad "$name: no run succeeded under the limits, or its output differs"
}

sweep "partition stack.relay" 1024 400 partition "$tmp/stack.relay"
# The other readers of untrusted input, more coarsely: an ONNX model of
# shape computations through byoc, and a backend description through
# byocc (limited runs $BYOC: byocc is named so for its sweep).
gen=${top_builddir:-.}/tests/onnx/gen_onnx
if [ -x "$gen" ]; then
    "$gen" chains 200 "$tmp/chains.onnx"
    sweep "partition chains.onnx" 512 200 partition "$tmp/chains.onnx"
else
    echo "SKIP: the ONNX sweep (no tests/onnx/gen_onnx: built without ONNX)"
fi
if [ -n "${BYOCC:-}" ]; then
    BYOC=$BYOCC
    sweep "byocc tensorrt.byoc" 64 200 -I "$top_srcdir/examples" -o "$tmp/t.c" \
        "$top_srcdir/examples/tensorrt.byoc"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
