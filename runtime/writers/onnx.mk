# Writing ONNX (doc/plan.md): the builder of ONNX graphs, the emitter that
# writes a graph call as ONNX nodes, the split writer (one model per
# partition and plan.json) and the annotated model.  They need protobuf-c,
# as the reader does.
runtime_libbyoc_la_SOURCES += runtime/writers/onnx_build.h
if HAVE_ONNX
runtime_libbyoc_la_SOURCES += runtime/writers/onnx_build.c runtime/writers/onnx_emit.c
endif
EXTRA_DIST += runtime/writers/onnx_build.c runtime/writers/onnx_emit.c

# The op emitter's unit test builds one-call graphs through the graph API
# and reads the nodes emitted; it compiles the builder and the emitter
# (internal bx_ functions, which libbyoc does not export) and the
# generated protobuf-c code itself.  `test_onnx_emit --models DIR` writes
# its cases as models, which tests/onnx/emit_check.sh gives ONNX's checker.
if HAVE_ONNX
check_PROGRAMS += tests/unit/test_onnx_emit
TESTS += tests/unit/test_onnx_emit
tests_unit_test_onnx_emit_SOURCES = tests/unit/test_onnx_emit.c \
	runtime/writers/onnx_build.c runtime/writers/onnx_emit.c
nodist_tests_unit_test_onnx_emit_SOURCES = runtime/onnx.pb-c.c
tests_unit_test_onnx_emit_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
tests_unit_test_onnx_emit_LDADD = $(RUNTIME_UNIT_LDADD) $(PROTOBUF_C_LIBS) -lm
$(tests_unit_test_onnx_emit_OBJECTS): runtime/onnx.pb-c.h
endif
# ... and ONNX Runtime runs them against numpy references of the Relay ops
# (skipped without node's onnxruntime-node, BYOC_ORT_NODE).
if HAVE_ONNX
TESTS += tests/onnx/emit_check.sh tests/onnx/emit_numeric.sh
endif
EXTRA_DIST += tests/onnx/emit_check.sh tests/onnx/emit_numeric.sh tests/onnx/emit_numeric.py \
	tests/onnx/ort_run.js

# The split writer (onnx_split.c: one model per partition, plan.json), the
# annotated model (onnx_annotate.c) and the external weights they link
# (onnx_files.c).  They build without protobuf-c too, and then say ONNX
# is not built in.
runtime_libbyoc_la_SOURCES += runtime/writers/onnx_split.c runtime/writers/onnx_annotate.c \
	runtime/writers/onnx_files.c runtime/writers/onnx_files.h \
	runtime/writers/onnx_split.h runtime/writers/onnx_kernels.c
