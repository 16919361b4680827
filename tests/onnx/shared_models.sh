#!/bin/sh
# Every ONNX model in ../shared/models/onnx loads with no untyped node, and
# each Collage model gives the op histogram and output types of its Relay
# twin in ../shared/models/relay.  Skipped (77) when the models are absent:
# they are not the project's and are never copied into it.
models=${BYOC_SHARED_MODELS:-../shared/models}
load=${top_builddir:-.}/tests/onnx/load_onnx
if test ! -d "$models/onnx"; then
    echo "SKIP: $models/onnx is absent"
    exit 77
fi
status=0
for f in "$models"/onnx/*.onnx; do
    base=$(basename "$f" .onnx)
    twin=
    case $base in
    collage_*) twin=$models/relay/$(echo "$base" | sed 's/^collage_//; s/\.graph$//; s/_block$//').relay ;;
    esac
    if test -n "$twin" && test -f "$twin"; then
        "$load" "$f" --twin "$twin" || status=1
    else
        "$load" "$f" || status=1
    fi
done
exit $status
