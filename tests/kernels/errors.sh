#!/bin/sh
# byoc kernels -f onnx: its errors, and that it leaves nothing behind on
# one (no folder, no temporary folder beside it); the same command twice
# gives byte-identical folders; a kernel with no ONNX form is a warning
# and listed with its reason, the others are written.
. "${top_srcdir:?}/tests/kernels/lib.sh"
model=$top_srcdir/examples/models/resnet_bottleneck.relay

# expect STATUS PATTERN COMMAND...: the exit status and a line of stderr.
expect() {
    want=$1
    pat=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "$* exited $rc, not $want"
        sed 's/^/  /' "$tmp/err"
    elif ! grep -q -- "$pat" "$tmp/err"; then
        fail "$*: no '$pat' on stderr"
        sed 's/^/  /' "$tmp/err"
    fi
}

# Nothing at DIR and nothing beside it.
left() {
    if [ -e "$1" ] || ls -d "$1".tmp* >/dev/null 2>&1; then
        fail "$1 or a temporary folder beside it left behind"
    fi
}

expect 2 "needs -o DIR" "$BYOC" kernels "$model" -f onnx
expect 2 "relay or onnx, not 'json'" "$BYOC" kernels "$model" -f json
expect 2 "goes with -f onnx" "$BYOC" kernels "$model" --rewrite

mkdir "$tmp/full" && echo x >"$tmp/full/keep"
expect 1 "'$tmp/full' exists" "$BYOC" kernels "$model" -f onnx -o "$tmp/full"
[ "$(ls "$tmp/full")" = keep ] || fail "a folder in the way was changed"
ls -d "$tmp/full".tmp* >/dev/null 2>&1 && fail "a temporary folder left beside $tmp/full"

echo x >"$tmp/file"
expect 1 "cannot create" "$BYOC" kernels "$model" -f onnx -o "$tmp/file/k"
left "$tmp/file/k"
expect 1 "exists" "$BYOC" kernels "$model" -f onnx -o "$tmp/file"

expect 1 "error" "$BYOC" kernels "$tmp/none.onnx" -f onnx -o "$tmp/none"
left "$tmp/none"

# An empty folder is fine.
mkdir "$tmp/empty"
"$BYOC" kernels "$model" -t dnnl,llvm -f onnx -o "$tmp/empty" || fail "an empty folder refused"
[ -f "$tmp/empty/kernels.json" ] || fail "nothing written into an empty folder"

# Twice, byte for byte.
"$BYOC" kernels "$model" -t dnnl,llvm -f onnx -o "$tmp/a" || fail "first run"
"$BYOC" kernels "$model" -t dnnl,llvm -f onnx -o "$tmp/b" || fail "second run"
diff -r "$tmp/a" "$tmp/b" >/dev/null || fail "two runs differ"
diff -r "$tmp/a" "$tmp/empty" >/dev/null || fail "a run into an empty folder differs"

# A kernel with no ONNX form (cumprod has none): a warning, its entry
# with the reason, exit 0, the others written.
cat >"$tmp/cumprod.relay" <<'RELAY'
#[version = "0.0.5"]
def @main(%x: Tensor[(4, 16), float32]) {
  %0 = nn.relu(%x);
  %1 = cumprod(%0, axis=1);
  nn.relu(%1)
}
RELAY
expect 0 "warning: kernel .* not written: .*cumprod.relay:4:3: no ONNX form for 'cumprod'" \
    "$BYOC" kernels "$tmp/cumprod.relay" -t dnnl,llvm -f onnx -o "$tmp/c"
"$PYTHON_ONNX" "$here/check_kernels.py" --quiet "$tmp/c" || fail "the cumprod folder"
"$PYTHON_ONNX" - "$tmp/c/kernels.json" <<'PY' || fail "kernels.json of the cumprod model"
import json, sys
ks = json.load(open(sys.argv[1]))["kernels"]
bad = [k for k in ks if k["file"] is None]
assert bad and all("cumprod" in k["ops"] and "no ONNX form" in k["why"] for k in bad), bad
assert any(k["file"] for k in ks), "nothing written"
PY
# A graph-only model whose weight would need 16 GiB of random data: that
# kernel is listed unwritten with the cap, nothing that large is made.
cat >"$tmp/huge.relay" <<'RELAY'
#[version = "0.0.5"]
def @main(%x: Tensor[(1, 4096), float32]) {
  %0 = nn.dense(%x, meta[relay.Constant][0] /* ty=Tensor[(1048576, 4096), float32] */, units=1048576);
  nn.relu(%0)
}
RELAY
expect 0 "warning: kernel .* not written: .*would need 17179869184 bytes of random data; byoc makes at most 4294967296" \
    "$BYOC" kernels "$tmp/huge.relay" -t dnnl,llvm -f onnx -o "$tmp/h"
[ ! -f "$tmp/h/kernels.data" ] || [ "$(wc -c <"$tmp/h/kernels.data")" -lt 1048576 ] ||
    fail "kernels.data of the huge model is large"
exit $failed
