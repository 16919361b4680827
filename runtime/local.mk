# What byocc and libbyoc share: an arena, a hash table, values and errors.
# byocc links only this, since libbyoc contains code byocc generates.
noinst_LTLIBRARIES += runtime/libbyocutil.la
runtime_libbyocutil_la_SOURCES = \
	runtime/arena.c runtime/arena.h \
	runtime/die.c runtime/die.h \
	runtime/errfmt.h \
	runtime/error.c \
	runtime/file.c runtime/file.h \
	runtime/hash.c runtime/hash.h \
	runtime/number.c runtime/number.h \
	runtime/strbuf.c runtime/strbuf.h \
	runtime/value.c \
	runtime/values.h
runtime_libbyocutil_la_LIBADD = -lm

# The partitioner's modules (matcher, candidates, costs, search, output,
# explain) form a convenience library inside libbyoc, so their tests can
# link the internal bx_ functions that libbyoc itself does not export.
noinst_LTLIBRARIES += runtime/libbyocpart.la
runtime_libbyocpart_la_SOURCES =
# Tests of those modules link this, then libbyoc and libbyocutil.
PART_TESTS_LIBS = runtime/libbyocpart.la runtime/libbyoc.la runtime/libbyocutil.la \
	$(CHECK_LIBS) -lm

# libbyoc: exports byoc_* and nothing else.
lib_LTLIBRARIES += runtime/libbyoc.la
runtime_libbyoc_la_SOURCES = \
	runtime/graph.c runtime/graph_impl.h \
	runtime/pred.c \
	runtime/registry.c \
	runtime/version.c
runtime_libbyoc_la_LIBADD = runtime/libbyocpart.la runtime/libbyocutil.la -lm
nodist_runtime_libbyoc_la_SOURCES =
runtime_libbyoc_la_LDFLAGS = -version-info 0:0:0 -export-symbols-regex '^byoc_'

# Unit tests: one Check program per module.  They link the convenience
# library as well, for the tests of the internal arena and hash table.
RUNTIME_UNIT_TESTS = \
	tests/unit/test_arena_hash \
	tests/unit/test_graph \
	tests/unit/test_pred \
	tests/unit/test_registry \
	tests/unit/test_value
check_PROGRAMS += $(RUNTIME_UNIT_TESTS)
TESTS += $(RUNTIME_UNIT_TESTS)
RUNTIME_UNIT_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
RUNTIME_UNIT_LDADD = runtime/libbyoc.la runtime/libbyocutil.la $(CHECK_LIBS)
tests_unit_test_arena_hash_SOURCES = tests/unit/test_arena_hash.c
tests_unit_test_arena_hash_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
tests_unit_test_arena_hash_LDADD = $(RUNTIME_UNIT_LDADD)
tests_unit_test_graph_SOURCES = tests/unit/test_graph.c
tests_unit_test_graph_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
tests_unit_test_graph_LDADD = $(RUNTIME_UNIT_LDADD)
tests_unit_test_pred_SOURCES = tests/unit/test_pred.c
tests_unit_test_pred_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
tests_unit_test_pred_LDADD = $(RUNTIME_UNIT_LDADD)
tests_unit_test_registry_SOURCES = tests/unit/test_registry.c
tests_unit_test_registry_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
tests_unit_test_registry_LDADD = $(RUNTIME_UNIT_LDADD)
tests_unit_test_value_SOURCES = tests/unit/test_value.c
tests_unit_test_value_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
tests_unit_test_value_LDADD = $(RUNTIME_UNIT_LDADD)
