# Kernels as ONNX (byoc kernels -f onnx, doc/cost-table.md "The measurement
# loop"): the shared ONNX and Relay models' kernels against -f relay's,
# each file through onnx.checker and a sample under ONNX Runtime; the
# models tests/split builds, with their weights; errors and determinism;
# the library call's want() filter and seed (test_kernels).  The scripts
# skip without python3's onnx; ONNX Runtime (node's onnxruntime-node) only
# adds the runs.
# Writing ONNX needs protobuf-c: without ONNX support there is nothing to
# test.
if HAVE_ONNX
TESTS += tests/kernels/shared.sh tests/kernels/relay.sh tests/kernels/built.sh \
	tests/kernels/errors.sh tests/kernels/api.sh
endif
EXTRA_DIST += tests/kernels/shared.sh tests/kernels/relay.sh tests/kernels/built.sh \
	tests/kernels/errors.sh tests/kernels/api.sh tests/kernels/lib.sh \
	tests/kernels/check_kernels.py tests/kernels/ort_kernels.js
check_PROGRAMS += tests/kernels/test_kernels
tests_kernels_test_kernels_SOURCES = tests/kernels/test_kernels.c $(BACKEND_REGISTER)
nodist_tests_kernels_test_kernels_SOURCES = $(BACKEND_C)
tests_kernels_test_kernels_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/examples -I$(top_srcdir)/cli
tests_kernels_test_kernels_LDADD = runtime/libbyoc.la -lm $(DL_LIBS)
$(tests_kernels_test_kernels_OBJECTS): $(BACKEND_H)
