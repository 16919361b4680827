#!/bin/sh
# QDQ-quantized models (tests/onnx/gen_qdq: int8 dense layers with
# per-channel and per-tensor weights and a residual add; a CNN with conv
# and pools) partition with CMSIS-NN and Ethos-U taking their quantized
# ops (and DNNL can take the dense), and `byoc explain` says why CMSIS-NN
# refuses the dense whose weight zero point is 3, and an NCHW conv.  Skipped in builds without
# ONNX support.  The shared torch qresnet18 QDQ export,
# when ../shared/models is there, has no opaque call and known FLOPs.
set -u
: "${BYOC:?}" "${top_srcdir:?}" "${top_builddir:?}"
gen=$top_builddir/tests/onnx/gen_qdq
[ -x "$gen" ] || { echo "SKIP: no tests/onnx/gen_qdq (built without ONNX)"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
m=$tmp/qdq.onnx
"$gen" dense "$m" || exit 99
"$BYOC" info "$m" >"$tmp/info" 2>&1
if grep -q "opaque calls: 0" "$tmp/info" && grep -q "2  qnn.dense" "$tmp/info" \
   && grep -q "1  qnn.add" "$tmp/info" && ! grep -q "some calls have no known FLOP" "$tmp/info"; then
    ok "info: QNN ops, no opaque call"; else bad "info"; cat "$tmp/info"; fi
"$BYOC" partition "$m" -t cmsisnn >"$tmp/p" 2>&1
if grep -Eq "^[0-9]+ +cmsisnn +mcu +qnn_fully_connected " "$tmp/p"; then
    ok "cmsisnn takes the dense with zero weight zero points"; else bad "cmsisnn partition"; cat "$tmp/p"; fi
"$BYOC" partition "$m" -t ethosu >"$tmp/p" 2>&1
if grep -Eq "^[0-9]+ +ethosu +npu +fully_connected\+add\+fully_connected " "$tmp/p"; then
    ok "ethosu takes both denses and the add"; else bad "ethosu partition"; cat "$tmp/p"; fi
"$BYOC" matches "$m" -t dnnl >"$tmp/p" 2>&1
if grep -A1 "pattern qnn_dense_requantize: " "$tmp/p" | grep -q "at #[0-9]* %hq"; then
    ok "dnnl can take the dense with zero weight zero points"; else bad "dnnl matches"; cat "$tmp/p"; fi
"$BYOC" compare "$m" -t cmsisnn >"$tmp/c" 2>&1
if grep -q "^single:cmsisnn" "$tmp/c"; then ok "compare -t cmsisnn"; else bad "compare"; cat "$tmp/c"; fi
"$BYOC" explain "$m" --node %h2q -t cmsisnn >"$tmp/e" 2>&1
if grep -q 'pattern qnn_fully_connected .*matches, but `all(v in values(kzp): v == 0)` is false.*kzp = #[0-9]* (a constant: Tensor\[(), int32\] = 3)' "$tmp/e"; then
    ok "explain: a non-zero kernel zero point is refused"; else bad "explain"; cat "$tmp/e"; fi
# Zero points without data (weights not shipped): refused, and said so.
"$gen" dense-nozp "$tmp/nozp.onnx" || exit 99
"$BYOC" explain "$tmp/nozp.onnx" --node %hq -t cmsisnn >"$tmp/e" 2>&1
if grep -q 'pattern qnn_fully_connected .*is false.*kzp = #[0-9]* (a constant: Tensor\[(256,), int32\], values not known)' "$tmp/e"; then
    ok "explain: a kernel zero point of unknown values is refused"; else bad "explain nozp"; cat "$tmp/e"; fi
# A CNN (conv with per-channel weights, bias and Relu, max and average
# pools, a dense layer): as ONNX has it, NCHW, which CMSIS-NN's convs
# refuse; with --quantized-layout NHWC both backends take conv and pools.
"$gen" cnn "$tmp/cnn.onnx" || exit 99
"$BYOC" explain "$tmp/cnn.onnx" --node %r_q -t cmsisnn >"$tmp/e" 2>&1
if grep -q 'pattern qnn_conv2d .*`c.data_layout == "NHWC"` is false.*c.data_layout = "NCHW"' "$tmp/e"; then
    ok "explain: an NCHW conv is refused"; else bad "explain NCHW"; cat "$tmp/e"; fi
"$BYOC" partition --quantized-layout NHWC "$tmp/cnn.onnx" -t cmsisnn >"$tmp/p" 2>&1
if grep -Eq "cmsisnn +mcu +qnn_conv2d " "$tmp/p" && grep -Eq "cmsisnn +mcu +qnn_max_pool2d " "$tmp/p" \
   && grep -Eq "cmsisnn +mcu +qnn_avg_pool2d " "$tmp/p" \
   && grep -Eq "cmsisnn +mcu +qnn_fully_connected " "$tmp/p"; then
    ok "NHWC: cmsisnn takes conv, both pools and the dense"; else bad "cmsisnn NHWC"; cat "$tmp/p"; fi
"$BYOC" partition --quantized-layout NHWC "$tmp/cnn.onnx" -t ethosu >"$tmp/p" 2>&1
if grep -Eq "ethosu +npu +qnn_conv2d\+maxpool2d\+avgpool2d " "$tmp/p"; then
    ok "NHWC: ethosu takes conv and both pools"; else bad "ethosu NHWC"; cat "$tmp/p"; fi
"$BYOC" compare --quantized-layout NHWC "$tmp/cnn.onnx" -t cmsisnn,ethosu >"$tmp/c" 2>&1
# Each backend alone beats native (their kernels took the quantized ops).
if awk '/^native/ { n = $3 } /^single:(cmsisnn|ethosu) / { if ($2 < n) k++ } END { exit k != 2 }' "$tmp/c"; then
    ok "compare -t cmsisnn,ethosu: each faster than native"; else bad "compare NHWC"; cat "$tmp/c"; fi
"$BYOC" info --quantized-layout NCHWc "$tmp/cnn.onnx" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc = 2 ] && grep -q "unknown quantized layout 'NCHWc'" "$tmp/err"; then
    ok "bad --quantized-layout"; else bad "bad --quantized-layout (rc $rc)"; cat "$tmp/err"; fi
q=$top_srcdir/../shared/models/onnx-modern/torch_qresnet18_qdq.graph.onnx
if [ -f "$q" ]; then
    "$BYOC" info "$q" >"$tmp/q" 2>&1
    if grep -q "opaque calls: 0" "$tmp/q" && grep -q "20  qnn.conv2d" "$tmp/q" \
       && ! grep -q "some calls have no known FLOP" "$tmp/q"; then
        ok "qresnet18: QNN convs, no opaque call"; else bad "qresnet18"; cat "$tmp/q"; fi
    "$BYOC" matches --quantized-layout NHWC "$q" -t ethosu >"$tmp/q" 2>&1
    if grep -A1 "pattern qnn_conv2d: 20 matches" "$tmp/q" >/dev/null && grep -q "pattern maxpool2d: 1 match" "$tmp/q"; then
        ok "qresnet18 NHWC: ethosu can take every conv and the pool"; else bad "qresnet18 NHWC"; cat "$tmp/q"; fi
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
