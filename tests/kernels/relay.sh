#!/bin/sh
# byoc kernels -f onnx on Relay models, every call through the op emitter
# and every weight random: examples/models/resnet_bottleneck.relay and
# transformer_encoder.relay on the CPU targets and on the GPU ones
# (tensorrt, tvm_cuda: the same kernels as -f relay, each file through the
# checker; their ops happen to run on the CPU provider too, and do), every
# kernel run; the shared mobilenet.relay and gpt2.relay, a sample run.
# Skipped without python3's onnx (the shared models: when absent).
. "${top_srcdir:?}/tests/kernels/lib.sh"
for t in dnnl,llvm tensorrt,tvm_cuda; do
    for m in resnet_bottleneck transformer_encoder; do
        kernels_check "$m [-t $t]" 1 "$top_srcdir/examples/models/$m.relay" -t "$t"
    done
    for m in mobilenet gpt2; do
        [ -f "$BYOC_SHARED_MODELS/relay/$m.relay" ] || continue
        kernels_check "$m.relay [-t $t]" 40 "$BYOC_SHARED_MODELS/relay/$m.relay" -t "$t"
    done
done
exit $failed
