# ONNX out (doc/onnx.md, doc/plan.md): plans of the shared models and of
# models the tests build run under ONNX Runtime as the whole model does;
# Relay models write; annotated models; errors; a target's own "onnx" pass.
# The scripts skip without node, onnxruntime-node or python3's onnx.
if HAVE_ONNX
TESTS += tests/split/shared.sh tests/split/built.sh tests/split/relay.sh \
	tests/split/annotated.sh tests/split/errors.sh tests/split/onnx_pass.sh
endif
EXTRA_DIST += tests/split/shared.sh tests/split/built.sh tests/split/relay.sh \
	tests/split/annotated.sh tests/split/errors.sh tests/split/onnx_pass.sh \
	tests/split/make_models.py tests/split/merge_plan.py
check_PROGRAMS += tests/split/onnx_pass
tests_split_onnx_pass_SOURCES = tests/split/onnx_pass.c $(BACKEND_REGISTER)
nodist_tests_split_onnx_pass_SOURCES = $(BACKEND_C)
tests_split_onnx_pass_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/examples -I$(top_srcdir)/cli
tests_split_onnx_pass_LDADD = runtime/libbyoc.la -lm $(DL_LIBS)
$(tests_split_onnx_pass_OBJECTS): $(BACKEND_H)
