# Writing ONNX (doc/plan.md): the builder of ONNX graphs, the emitter that
# writes a graph call as ONNX nodes, the split writer (one model per
# partition and plan.json) and the annotated model.  They need protobuf-c,
# as the reader does.
runtime_libbyoc_la_SOURCES += runtime/writers/onnx_build.h
if HAVE_ONNX
runtime_libbyoc_la_SOURCES += runtime/writers/onnx_build.c runtime/writers/onnx_emit.c
endif
EXTRA_DIST += runtime/writers/onnx_build.c runtime/writers/onnx_emit.c
