#!/bin/sh
# byoc kernels -f onnx on the shared ONNX models (../shared/models/onnx*,
# graphs only: their constants get random data) with -t dnnl,llvm: the
# same kernels as -f relay, every file passes onnx.checker with shape
# inference, and a deterministic sample - every kernel of a small model,
# about 25 of a big one - runs under ONNX Runtime's CPU provider.
# torch_gpt24_decoder_dyn is read with its free dimensions bound, as
# tests/split does: unbound, some kernels take shape values computed
# elsewhere as inputs, which random inputs cannot be.  By default the
# models below, chosen to keep the test under a minute on a small machine
# (the rest add thousands of kernels or gigabytes of random weights to
# write and check, nothing new); KERNELS_ALL=1: every shared model.
# Skipped without the shared models or python3's onnx.
. "${top_srcdir:?}/tests/kernels/lib.sh"
[ -d "$BYOC_SHARED_MODELS/onnx" ] || kernels_skip "no shared models at $BYOC_SHARED_MODELS"
DEFAULT='collage_resnet50 collage_mobilenet collage_gpt2 collage_mnist onnxzoo_squeezenet
onnxzoo_shufflenet ortopt_roberta_base ortext_resnet50 torch_qresnet18_qdq'
for model in "$BYOC_SHARED_MODELS"/onnx/*.onnx "$BYOC_SHARED_MODELS"/onnx-modern/*.onnx; do
    [ -f "$model" ] || continue
    base=$(basename "$model" .onnx)
    base=${base%.graph}
    case " $(echo $DEFAULT) " in
    *" $base "*) ;;
    *) [ "${KERNELS_ALL:-0}" = 1 ] || continue ;;
    esac
    n=$("$BYOC" kernels "$model" -t dnnl,llvm 2>/dev/null | grep -c '^# signature')
    every=$(( (n + 24) / 25 ))
    [ "$every" -ge 1 ] || every=1
    case $base in
    torch_gpt24_decoder_dyn) kernels_check "$base" "$every" "$model" -t dnnl,llvm \
                                 --dim batch=1 --dim seq=32 ;;
    *) kernels_check "$base" "$every" "$model" -t dnnl,llvm ;;
    esac
done
exit $failed
