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

# Runs byoc under a limit of $1 KB; sets st to its exit status.
limited() {
    lim=$1; shift
    (ulimit -v "$lim" || exit 98; exec "$BYOC" "$@") >"$tmp/out" 2>"$tmp/err"
    st=$?
}

"$BYOC" partition "$tmp/stack.relay" >"$tmp/full" 2>&1 || { bad "unlimited run: $(cat "$tmp/full")"; exit 1; }

# The least limit under which byoc starts and lists its targets.
lo=4096
while [ $lo -le 1048576 ]; do
    limited $lo targets
    [ $st -eq 0 ] && break
    lo=$((lo + 4096))
done
[ $lo -le 1048576 ] || { bad "byoc targets fails under every limit up to 1 GB"; exit 1; }

tries=0 errors=0 aborts=0 done_at=
kb=$lo
while [ $tries -lt 400 ]; do
    limited $kb partition "$tmp/stack.relay"
    tries=$((tries + 1))
    if [ $st -eq 0 ]; then
        done_at=$kb
        break
    elif [ $st -eq 1 ] && grep -q 'out of memory' "$tmp/err"; then
        errors=$((errors + 1))
    else
        aborts=$((aborts + 1))
        echo "under $kb KB: exit $st: $(head -c 300 "$tmp/err")"
    fi
    kb=$((kb + 1024))
done
[ $aborts -eq 0 ] && ok "no abort under $tries limits from $lo KB" \
    || bad "$aborts of $tries limited runs ended otherwise than 0 or 'out of memory'"
[ $errors -gt 0 ] && ok "$errors limits too small were reported as out of memory" \
    || bad "no limit was too small: the test proves nothing"
[ -n "$done_at" ] && cmp -s "$tmp/out" "$tmp/full" && ok "enough memory gives the same output" \
    || bad "no run succeeded under the limits, or its output differs"
# The same for the other readers of untrusted input: an ONNX model of
# shape computations through byoc, and a backend description through
# byocc, from the least limit under which each starts, STEP_KB apart.
# sweep NAME STEP_KB COMMAND...: every run exits 0, or 1 with "out of memory".
sweep() {
    name=$1 step=$2
    shift 2
    "$BYOC" "$@" >"$tmp/full" 2>&1 || { bad "$name: unlimited run: $(head -c 300 "$tmp/full")"; return; }
    lo=1024
    while [ $lo -le 1048576 ]; do
        limited $lo "$@"
        [ $st -eq 0 ] && break
        [ $st -eq 1 ] && grep -q 'out of memory' "$tmp/err" && break
        lo=$((lo + step))
    done
    n=0 oom=0 other=0 kb=$lo
    while [ $n -lt 200 ]; do
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
    [ $other -eq 0 ] && [ $oom -gt 0 ] && [ $st -eq 0 ] &&
        ok "$name: $oom limits reported as out of memory, none aborted, then success" ||
        bad "$name: $other runs ended otherwise; $oom out of memory; last exit $st"
}
# limited runs $BYOC: byocc is run by naming it so for the sweep.
if [ -n "${BYOCC:-}" ]; then
    BYOC_SAVED=$BYOC
    BYOC=$BYOCC
    sweep "byocc tensorrt.byoc" 64 -I "$top_srcdir/examples" -o "$tmp/t.c" \
        "$top_srcdir/examples/tensorrt.byoc"
    BYOC=$BYOC_SAVED
fi
gen=${top_builddir:-.}/tests/onnx/gen_onnx
if [ -x "$gen" ]; then
    "$gen" chains 200 "$tmp/chains.onnx"
    sweep "partition chains.onnx" 512 partition "$tmp/chains.onnx"
else
    echo "SKIP: the ONNX sweep (no tests/onnx/gen_onnx: built without ONNX)"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
