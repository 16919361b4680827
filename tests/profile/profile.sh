#!/bin/sh
# byoc cost --from-ort-profile (doc/cost-table.md, "From an ONNX Runtime
# profile").  Profiles written by hand, with known durations, check the
# medians, the fused and unnamed forms, the report and the errors; then the
# tests' convnet (and collage_mobilenet, weights filled) runs under ONNX
# Runtime with optimizations disabled and enabled, and every table line must
# price a kernel byoc knows: partitioning with the table prices from it
# exactly the partitions whose (target, signature) it names.  Needs
# python3's onnx (to build the models); the ONNX Runtime part is skipped
# without node and onnxruntime-node (BYOC_ORT, BYOC_ORT_NODE, tools/.ort).
: "${top_srcdir:?}"
: "${top_builddir:=$top_srcdir}"
: "${BYOC:=$top_builddir/cli/byoc}"
: "${BYOC_SHARED_MODELS:=$top_srcdir/../shared/models}"
: "${NODE:=node}"
here=$top_srcdir/tests/profile
PY=
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import onnx, numpy' >/dev/null 2>&1; then PY=$p; break; fi
done
[ -n "$PY" ] || { echo "SKIP: no python3 with onnx and numpy"; exit 77; }
"$BYOC" info --help >/dev/null 2>&1 || { echo "SKIP: no byoc"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$PY" "$here/make_models.py" "$tmp" || exit 99
m=$tmp/convnet.onnx
"$BYOC" info "$m" >/dev/null 2>&1 || { echo "SKIP: byoc reads no ONNX (built without it)"; exit 77; }
cost() { "$BYOC" cost "$@"; }

# A table: every line after the header parses as target,"signature",seconds
# and partitioning with it prices from the table exactly the partitions it
# names.  check_table TABLE MODEL PARTITION-ARGS...
check_table() {
    t=$1 model=$2
    shift 2
    "$BYOC" partition "$model" "$@" --cost "table:$t" -f json -o "$tmp/p.json" ||
        { bad "partition --cost table:$t $*"; return; }
    "$PY" - "$t" "$tmp/p.json" <<'PYEOF' || bad "table $t against partition $*"
import csv, json, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if not l.startswith('#')))
assert rows[0] == ['target', 'signature', 'seconds'], rows[0]
names = set()
for r in rows[1:]:
    assert len(r) == 3, r
    assert float(r[2]) >= 0, r
    names.add((r[0], r[1]))
assert len(names) == len(rows) - 1, 'a (target, signature) twice'
p = json.load(open(sys.argv[2]))
used = {(q['target'], q['signature']) for q in p['partitions']}
for q in p['partitions']:
    named = (q['target'], q['signature']) in names
    assert named == (q['cost_source'] == 'table'), q
n = sum(1 for q in p['partitions'] if q['cost_source'] == 'table')
assert p['stats']['from_table'] == n, (p['stats'], n)
assert n > 0, 'nothing priced from the table'
print('table', sys.argv[1], len(names), 'lines,', n, 'partitions priced from it')
PYEOF
}

# ---- profiles by hand --------------------------------------------------------
ev() {  # name op dur [provider]
    printf '{"cat":"Node","pid":1,"tid":1,"dur":%s,"ts":1,"ph":"X","name":"%s_kernel_time","args":{"op_name":"%s","provider":"%s"}},\n' \
        "$3" "$1" "$2" "${4:-CPUExecutionProvider}"
}
{
    echo '['
    echo '{"cat":"Session","pid":1,"tid":1,"dur":900,"ts":0,"ph":"X","name":"model_run","args":{}},'
    ev conv1 Conv 30; ev conv1 Conv 10; ev conv1 Conv 20
    echo '{"cat":"Node","pid":1,"tid":1,"dur":1,"ts":1,"ph":"X","name":"conv1_fence_before","args":{"op_name":"Conv"}},'
    ev relu1 Relu 4; ev relu1 Relu 6
    ev conv2 FusedConv 40; ev conv2 FusedConv 44
    ev ident Identity 1
    printf '{"cat":"Node","dur":3,"name":"Conv_5_kernel_time","args":{"op_name":"Conv","provider":"CPUExecutionProvider","node_index":"5"}},\n'
    for d in 9 11 7; do
        printf '{"cat":"Node","dur":%s,"name":"Relu_6_kernel_time","args":{"op_name":"Relu","provider":"CPUExecutionProvider","node_index":"6"}},\n' $d
    done
    ev "mm/MatMulAddFusion_token_3" Gemm 8
    ev pool MaxPool 5 CUDAExecutionProvider
    ev fc Gemm 0.5
    ev ReorderOutput ReorderOutput 2
    ev softmax Softmax 2.5e1
    echo '{"cat":"Session","pid":1,"tid":1,"dur":5,"ts":9,"ph":"X","name":"SequentialExecutor::Execute","args":{}}'
    echo ']'
} >"$tmp/hand.json"
cost --from-ort-profile "$tmp/hand.json" "$m" -t llvm -o "$tmp/hand.csv" 2>"$tmp/hand.err" ||
    { cat "$tmp/hand.err"; bad "hand-written profile"; }
sig_relu='nn.relu(%0:float32[1,8,16,16]):float32[1,8,16,16]'
# conv1: median of 30, 10, 20 us; relu1 and the unnamed Relu_6 share one
# kernel: the median of their medians 5 and 9; conv2's FusedConv ran conv2
# and relu2, which the profile does not list; Conv_5 is the unnamed Conv.
for want in \
    'llvm,"nn.bias_add(nn.conv2d{padding=[1, 1, 1, 1],channels=8,kernel_size=[3, 3]}(%0:float32[1,3,16,16],const:float32[8,3,3,3]):float32[1,8,16,16],const:float32[8]):float32[1,8,16,16]",2e-05' \
    "llvm,\"$sig_relu\",7e-06" \
    'llvm,"nn.relu(nn.bias_add(nn.conv2d{padding=[1, 1, 1, 1],channels=8,kernel_size=[3, 3]}(%0:float32[1,8,16,16],const:float32[8,8,3,3]):float32[1,8,16,16],const:float32[8]):float32[1,8,16,16]):float32[1,8,16,16]",4.2e-05' \
    'llvm,"nn.conv2d{padding=[1, 1, 1, 1],channels=8,kernel_size=[3, 3]}(%0:float32[1,8,16,16],const:float32[8,8,3,3]):float32[1,8,16,16]",3e-06' \
    'llvm,"add(nn.dense{out_dtype=float32}(%0:float32[1,10],%1:float32[6,10]):float32[1,6],const:float32[6]):float32[1,6]",8e-06' \
    'llvm,"add(nn.dense{units=10}(%0:float32[1,512],const:float32[10,512]):float32[1,10],const:float32[10]):float32[1,10]",5e-07' \
    'llvm,"nn.softmax{axis=1}(%0:float32[1,6]):float32[1,6]",2.5e-05'; do
    grep -qxF "$want" "$tmp/hand.csv" || bad "hand.csv lacks: $want"
done
[ "$(grep -c '^llvm,' "$tmp/hand.csv")" = 7 ] || bad "hand.csv: expected 7 lines"
grep -q "'ident' (Identity): made no call" "$tmp/hand.err" || bad "ident not reported as no call"
grep -q "'pool' (MaxPool on CUDAExecutionProvider): not mapped: no target searched runs on CUDAExecutionProvider" \
    "$tmp/hand.err" || bad "pool on CUDA not reported"
grep -q "'ReorderOutput' (ReorderOutput on CPUExecutionProvider): not mapped: no model node has this name" \
    "$tmp/hand.err" || bad "ReorderOutput not reported"
grep -qxF "$tmp/hand.json: 11 profiled nodes in 17 events: 8 mapped to 7 table lines, 2 unmapped, 1 with no call" \
    "$tmp/hand.err" || { cat "$tmp/hand.err"; bad "hand summary"; }
check_table "$tmp/hand.csv" "$m" -t llvm
# --target: the CUDA event's time goes to llvm too.
cost --from-ort-profile "$tmp/hand.json" "$m" --target llvm -o "$tmp/hand2.csv" 2>"$tmp/hand2.err" ||
    bad "--target llvm"
grep -qxF 'llvm,"nn.max_pool2d{pool_size=[2, 2],strides=[2, 2]}(%0:float32[1,8,16,16]):float32[1,8,8,8]",5e-06' \
    "$tmp/hand2.csv" || bad "--target llvm: no max_pool2d line"
# Deterministic: the same inputs give the same bytes.
cost --from-ort-profile "$tmp/hand.json" "$m" -t llvm 2>/dev/null | cmp -s - "$tmp/hand.csv" ||
    bad "two runs differ"
# A fusion byoc does not run as one kernel is reported, not split: dnnl has
# no kernel of conv2d, bias_add and relu; its MatMul+Add is two kernels, the
# dense_bias pattern's and the plain one, with one time.
cost --from-ort-profile "$tmp/hand.json" "$m" -t dnnl --target dnnl -o "$tmp/dnnl.csv" \
    2>"$tmp/dnnl.err" || bad "-t dnnl"
grep -q "'conv2' (FusedConv on CPUExecutionProvider): not mapped: no kernel of dnnl is made of exactly its calls (nn.conv2d+nn.bias_add+nn.relu)" \
    "$tmp/dnnl.err" || bad "dnnl: the fused conv2 was mapped"
[ "$(grep -c '^dnnl,"\(dense_bias|\)\{0,1\}add(nn.dense{out_dtype=float32}.*,8e-06$' "$tmp/dnnl.csv")" = 2 ] ||
    bad "dnnl: MatMul+Add lines"
# FusedConv without an unprofiled activation after it: not mapped.
{ echo '['; ev conv2 FusedConv 40; ev relu2 Relu 3 | sed 's/,$//'; echo ']'; } >"$tmp/fc.json"
cost --from-ort-profile "$tmp/fc.json" "$m" -t llvm >/dev/null 2>"$tmp/fc.err" || bad "fc.json"
grep -q "'conv2' (FusedConv on CPUExecutionProvider): not mapped: FusedConv from 'conv2', but no activation" \
    "$tmp/fc.err" || bad "FusedConv with its Relu profiled was mapped"
# An unknown --target is bad usage.
cost --from-ort-profile "$tmp/hand.json" "$m" --target lvm >/dev/null 2>"$tmp/e.err"
[ $? = 2 ] && grep -q "did you mean 'llvm'" "$tmp/e.err" || bad "--target lvm"

# ---- errors and odd profiles -------------------------------------------------
printf '[\n  {"cat": "Node", "name": "x_kernel_time", "dur": 1},\n  {"cat": "Node" "dur": 2}\n]\n' >"$tmp/bad.json"
cost --from-ort-profile "$tmp/bad.json" "$m" -t llvm -o "$tmp/bad.csv" 2>"$tmp/bad.err"
[ $? = 1 ] || bad "malformed JSON: exit status"
grep -qxF "$tmp/bad.json:3:18: error: expected ',' or '}', found '\"'" "$tmp/bad.err" ||
    { cat "$tmp/bad.err"; bad "malformed JSON: message"; }
[ ! -e "$tmp/bad.csv" ] || bad "malformed JSON: a table was written"
ls "$tmp" | grep -q '\.tmp' && bad "a temporary file was left"
printf '[{"cat": "Node", "name": "conv1_kernel_time", "args": {}}]' >"$tmp/nodur.json"
cost --from-ort-profile "$tmp/nodur.json" "$m" -t llvm >/dev/null 2>"$tmp/nodur.err"
grep -qF "$tmp/nodur.json:1:2: error: node event 'conv1_kernel_time' needs \"dur\"" "$tmp/nodur.err" ||
    bad "event without dur"
printf '{"a": 1}' >"$tmp/obj.json"
cost --from-ort-profile "$tmp/obj.json" "$m" -t llvm >/dev/null 2>"$tmp/obj.err"
grep -qF "$tmp/obj.json:1:1: error: not an ONNX Runtime profile" "$tmp/obj.err" || bad "not an array"
printf '[]\n' >"$tmp/empty.json"
cost --from-ort-profile "$tmp/empty.json" "$m" -t llvm -o "$tmp/empty.csv" 2>"$tmp/empty.err" ||
    bad "empty profile"
[ "$(grep -vc '^#' "$tmp/empty.csv")" = 1 ] || bad "empty profile: lines in the table"
grep -qxF "$tmp/empty.json: 0 profiled nodes in 0 events: 0 mapped to 0 table lines, 0 unmapped, 0 with no call" \
    "$tmp/empty.err" || bad "empty profile: summary"
# A profile of another model: its names are not this model's.
{ echo '['; ev other_tanh Tanh 3; ev other_sigmoid Sigmoid 2 | sed 's/,$//'; echo ']'; } >"$tmp/other.json"
cost --from-ort-profile "$tmp/other.json" "$m" -t llvm -o "$tmp/other.csv" 2>"$tmp/other.err" ||
    bad "other model's profile"
[ "$(grep -c "not mapped: no model node has this name" "$tmp/other.err")" = 2 ] ||
    bad "other model's profile: report"
[ "$(grep -c '^llvm,' "$tmp/other.csv")" = 0 ] || bad "other model's profile: lines"
# Usage errors, and a Relay model.
cost "$m" -t llvm >/dev/null 2>&1; [ $? = 2 ] || bad "no --from-ort-profile"
printf 'def @main(%%x: Tensor[(2), float32]) { nn.relu(%%x) }\n' >"$tmp/r.relay"
cost --from-ort-profile "$tmp/empty.json" "$tmp/r.relay" -t llvm >/dev/null 2>"$tmp/r.err"
[ $? = 1 ] && grep -q "not read from ONNX" "$tmp/r.err" || bad "a Relay model"

# ---- real profiles from ONNX Runtime -----------------------------------------
ORT=
for d in ${BYOC_ORT:+"$BYOC_ORT"} ${BYOC_ORT_NODE:+"$BYOC_ORT_NODE"} \
    "$top_srcdir/tools/.ort" "$top_builddir/tools/.ort"; do
    if [ -d "$d/node_modules/onnxruntime-node" ] || [ -f "$d/package.json" ]; then ORT=$d; break; fi
done
if ! command -v "$NODE" >/dev/null 2>&1 || [ -z "$ORT" ] ||
    ! "$NODE" -e 'require(process.argv[1])' "$ORT/node_modules/onnxruntime-node" >/dev/null 2>&1; then
    echo "profile: ONNX Runtime part skipped: no node or onnxruntime-node (set BYOC_ORT)"
    exit $fail
fi
prof() {  # MODEL DIR
    mkdir -p "$2" && "$NODE" "$here/ort_profile.js" "$ORT" "$1" "$2" 3 disabled extended ||
        { bad "ort_profile.js $1"; return 1; }
}
if prof "$m" "$tmp/ort"; then
    cost --from-ort-profile "$tmp/ort/disabled.json" "$m" --target llvm -o "$tmp/dis.csv" \
        2>"$tmp/dis.err" || bad "disabled profile"
    # Optimizations off: every node maps, but the Identity, which made no call.
    grep -q ": 13 profiled nodes in 39 events: 12 mapped to [0-9]* table lines, 0 unmapped, 1 with no call" \
        "$tmp/dis.err" || { cat "$tmp/dis.err"; bad "disabled: not every node mapped"; }
    check_table "$tmp/dis.csv" "$m" -t llvm
    cost --from-ort-profile "$tmp/ort/extended.json" "$m" --target llvm -o "$tmp/ext.csv" \
        2>"$tmp/ext.err" || bad "extended profile"
    # ORT fused conv1 and relu1 (FusedConv keeps conv1's name): the
    # conv2d+bias_add+relu kernel; MatMul+Add became one Gemm.
    grep -q '^llvm,"nn.relu(nn.bias_add(nn.conv2d{padding=\[1, 1, 1, 1\],channels=8,kernel_size=\[3, 3\]}(%0:float32\[1,3,16,16\]' \
        "$tmp/ext.csv" || bad "extended: no conv+relu line"
    grep -q '^llvm,"add(nn.dense{out_dtype=float32}' "$tmp/ext.csv" || bad "extended: no MatMul+Add line"
    # The unnamed Conv+Relu fused into a node named after its index: reported.
    grep -q "'FusedConv_[0-9]*' (FusedConv on CPUExecutionProvider): not mapped" "$tmp/ext.err" ||
        bad "extended: the unnamed fusion not reported"
    check_table "$tmp/ext.csv" "$m" -t llvm
fi
mob=$BYOC_SHARED_MODELS/onnx/collage_mobilenet.graph.onnx
if [ -f "$mob" ]; then
    "$PY" "$top_srcdir/tools/fill-weights.py" "$mob" "$tmp/mobilenet.onnx" >/dev/null ||
        bad "fill-weights collage_mobilenet"
    if prof "$tmp/mobilenet.onnx" "$tmp/mob"; then
        for l in disabled extended; do
            cost --from-ort-profile "$tmp/mob/$l.json" "$tmp/mobilenet.onnx" --target llvm \
                -o "$tmp/mob_$l.csv" 2>"$tmp/mob_$l.err" || bad "mobilenet $l"
            tail -1 "$tmp/mob_$l.err"
            check_table "$tmp/mob_$l.csv" "$tmp/mobilenet.onnx" -t llvm
        done
        grep -q ", 0 unmapped," "$tmp/mob_disabled.err" || bad "mobilenet disabled: unmapped nodes"
    fi
else
    echo "profile: $mob absent: skipped"
fi
exit $fail
