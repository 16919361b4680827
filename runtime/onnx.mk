# ONNX import: runtime/onnx.c reads models, runtime/onnx_ops.c maps their
# ops, runtime/onnx_cf.c converts control flow (If, Loop, Scan).  With
# protobuf-c (configure's HAVE_ONNX), protoc-c compiles the ONNX
# schema configure found (ONNX_PROTO, libonnx-dev's by default) into the
# build tree; nothing generated is distributed or committed.  Without it
# the same files build a library whose ONNX readers say it is not built in.
runtime_libbyoc_la_SOURCES += runtime/onnx.c runtime/onnx.h runtime/onnx_ops.c \
	runtime/onnx_cf.c
runtime_libbyoc_la_SOURCES += runtime/onnx_contrib.c runtime/onnx_contrib.h
runtime_libbyoc_la_SOURCES += runtime/onnx_qdq.c runtime/onnx_qdq.h
runtime_libbyoc_la_SOURCES += runtime/onnx_more.c runtime/onnx_more.h
byocinclude_HEADERS += include/byoc/onnx.h
ONNX_PB_DEPS =

if HAVE_ONNX
ONNX_GEN = runtime/onnx.pb-c.c runtime/onnx.pb-c.h
BUILT_SOURCES += $(ONNX_GEN)
CLEANFILES += $(ONNX_GEN) runtime/onnx.proto
nodist_runtime_libbyoc_la_SOURCES += runtime/onnx.pb-c.c
runtime_libbyoc_la_LIBADD += $(PROTOBUF_C_LIBS)
AM_CPPFLAGS += $(PROTOBUF_C_CFLAGS)
ONNX_PB_DEPS += runtime/onnx.pb-c.h

# The schema is copied first so that the generated files are named
# onnx.pb-c.* whatever --with-onnx-proto names it, and protoc-c sees only
# the build tree.
runtime/onnx.pb-c.c: $(ONNX_PROTO)
	@$(MKDIR_P) runtime
	$(AM_V_at)rm -f runtime/onnx.proto && cat $(ONNX_PROTO) > runtime/onnx.proto
	$(AM_V_GEN)$(PROTOC_C) --proto_path=runtime --c_out=runtime runtime/onnx.proto
runtime/onnx.pb-c.h: runtime/onnx.pb-c.c
	@test -f $@ || { rm -f runtime/onnx.pb-c.c; $(MAKE) $(AM_MAKEFLAGS) runtime/onnx.pb-c.c; }

# Unit tests build their models with the generated protobuf-c API, so they
# compile the generated code themselves: libbyoc exports only byoc_*.
check_PROGRAMS += tests/unit/test_onnx
TESTS += tests/unit/test_onnx
tests_unit_test_onnx_SOURCES = tests/unit/test_onnx.c tests/unit/onnx_mb.h
nodist_tests_unit_test_onnx_SOURCES = runtime/onnx.pb-c.c
tests_unit_test_onnx_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
tests_unit_test_onnx_LDADD = $(RUNTIME_UNIT_LDADD) $(PROTOBUF_C_LIBS)
$(tests_unit_test_onnx_OBJECTS): runtime/onnx.pb-c.h

# Control flow (runtime/onnx_cf.c): If, Loop, Scan and their subgraphs.
check_PROGRAMS += tests/unit/test_onnx_cf
TESTS += tests/unit/test_onnx_cf
tests_unit_test_onnx_cf_SOURCES = tests/unit/test_onnx_cf.c tests/unit/onnx_mb.h
nodist_tests_unit_test_onnx_cf_SOURCES = runtime/onnx.pb-c.c
tests_unit_test_onnx_cf_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
tests_unit_test_onnx_cf_LDADD = $(RUNTIME_UNIT_LDADD) $(PROTOBUF_C_LIBS)
$(tests_unit_test_onnx_cf_OBJECTS): runtime/onnx.pb-c.h

# The CLI's view of control flow (tests/cli/control_flow.sh) reads models
# tests/onnx/gen_cf writes.
check_PROGRAMS += tests/onnx/gen_cf
tests_onnx_gen_cf_SOURCES = tests/onnx/gen_cf.c
nodist_tests_onnx_gen_cf_SOURCES = runtime/onnx.pb-c.c
tests_onnx_gen_cf_CFLAGS = $(AM_CFLAGS)
tests_onnx_gen_cf_LDADD = $(PROTOBUF_C_LIBS)
$(tests_onnx_gen_cf_OBJECTS): runtime/onnx.pb-c.h

# ONNX Runtime's contrib ops (runtime/onnx_contrib.c).
check_PROGRAMS += tests/unit/test_onnx_contrib
TESTS += tests/unit/test_onnx_contrib
tests_unit_test_onnx_contrib_SOURCES = tests/unit/test_onnx_contrib.c tests/unit/onnx_mb.h
nodist_tests_unit_test_onnx_contrib_SOURCES = runtime/onnx.pb-c.c
tests_unit_test_onnx_contrib_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
tests_unit_test_onnx_contrib_LDADD = $(RUNTIME_UNIT_LDADD) $(PROTOBUF_C_LIBS)
$(tests_unit_test_onnx_contrib_OBJECTS): runtime/onnx.pb-c.h

# The quantized forms (runtime/onnx_qdq.c), with the same builder.
check_PROGRAMS += tests/unit/test_onnx_qdq
TESTS += tests/unit/test_onnx_qdq
tests_unit_test_onnx_qdq_SOURCES = tests/unit/test_onnx_qdq.c tests/unit/onnx_mb.h
nodist_tests_unit_test_onnx_qdq_SOURCES = runtime/onnx.pb-c.c
tests_unit_test_onnx_qdq_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
tests_unit_test_onnx_qdq_LDADD = $(RUNTIME_UNIT_LDADD) $(PROTOBUF_C_LIBS)
$(tests_unit_test_onnx_qdq_OBJECTS): runtime/onnx.pb-c.h

# The converters of runtime/onnx_more.c, one model per op.
check_PROGRAMS += tests/unit/test_onnx_more
TESTS += tests/unit/test_onnx_more
tests_unit_test_onnx_more_SOURCES = tests/unit/test_onnx_more.c tests/unit/onnx_mb.h
nodist_tests_unit_test_onnx_more_SOURCES = runtime/onnx.pb-c.c
tests_unit_test_onnx_more_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
tests_unit_test_onnx_more_LDADD = $(RUNTIME_UNIT_LDADD) $(PROTOBUF_C_LIBS)
$(tests_unit_test_onnx_more_OBJECTS): runtime/onnx.pb-c.h

# Every shared ONNX model loads (tests/onnx/shared_models.sh); skipped
# when ../shared/models is absent.
check_PROGRAMS += tests/onnx/load_onnx
tests_onnx_load_onnx_SOURCES = tests/onnx/load_onnx.c
tests_onnx_load_onnx_LDADD = runtime/libbyoc.la
TESTS += tests/onnx/shared_models.sh

# Generated models larger than tests write by hand (tests/onnx/onnx_gen.h):
# a Concat of hundreds of inputs, and layers of shape computations as torch
# exporters write them, which the reader must load in linear time.
check_PROGRAMS += tests/onnx/gen_onnx
tests_onnx_gen_onnx_SOURCES = tests/onnx/gen_onnx.c tests/onnx/onnx_gen.h
nodist_tests_onnx_gen_onnx_SOURCES = runtime/onnx.pb-c.c
tests_onnx_gen_onnx_CFLAGS = $(AM_CFLAGS)
tests_onnx_gen_onnx_LDADD = $(PROTOBUF_C_LIBS)
$(tests_onnx_gen_onnx_OBJECTS): runtime/onnx.pb-c.h

# QDQ-quantized models for tests/cli/qdq.sh.
check_PROGRAMS += tests/onnx/gen_qdq
tests_onnx_gen_qdq_SOURCES = tests/onnx/gen_qdq.c tests/onnx/onnx_gen.h
nodist_tests_onnx_gen_qdq_SOURCES = runtime/onnx.pb-c.c
tests_onnx_gen_qdq_CFLAGS = $(AM_CFLAGS)
tests_onnx_gen_qdq_LDADD = $(PROTOBUF_C_LIBS) -lm
$(tests_onnx_gen_qdq_OBJECTS): runtime/onnx.pb-c.h
endif
EXTRA_DIST += tests/onnx/shared_models.sh tests/onnx/op_table_tested.sh
# Every entry of the op table is built by some unit test.
TESTS += tests/onnx/op_table_tested.sh
# The library's objects wait for the generated header (none without ONNX).
$(runtime_libbyoc_la_OBJECTS): $(ONNX_PB_DEPS)
