# Lowering, keyed by target (doc/lowering.md): the tensors of a graph and
# their names, the partitions as passes see them, and the pass runner.  In
# the partitioner's convenience library, so that tests and the writers
# reach the internal bx_ functions of lower_impl.h.
runtime_libbyocpart_la_SOURCES += runtime/lower/lower_impl.h runtime/lower/names.c \
	runtime/lower/parts.c runtime/lower/lower.c

# The pass runner, boundary tensors and names, on a registry and results
# built by hand (a Check program of its own).
check_PROGRAMS += tests/unit/test_lower
TESTS += tests/unit/test_lower
tests_unit_test_lower_SOURCES = tests/unit/test_lower.c
tests_unit_test_lower_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_lower_LDADD = $(PART_TESTS_LIBS)

# The same through generated code: a target hierarchy in a .byoc file with
# `lower` passes written in C by the test, built as strictly as generated
# code must build.
check_PROGRAMS += tests/lower/test_lower_spec
TESTS += tests/lower/test_lower_spec
EXTRA_DIST += tests/lower/lower_spec.byoc
CLEANFILES += tests/lower/lower_spec.c tests/lower/lower_spec.h
tests/lower/lower_spec.c: $(BYOCC_BUILT) lib/relay.byoc
tests/lower/lower_spec.h: tests/lower/lower_spec.c
nodist_tests_lower_test_lower_spec_SOURCES = tests/lower/lower_spec.c
tests_lower_test_lower_spec_SOURCES = tests/lower/test_lower_spec.c
tests_lower_test_lower_spec_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include \
	-I$(top_builddir)/tests/lower
tests_lower_test_lower_spec_CFLAGS = $(STRICT_CFLAGS) $(CHECK_CFLAGS)
tests_lower_test_lower_spec_LDADD = runtime/libbyoc.la $(CHECK_LIBS) -lm
$(tests_lower_test_lower_spec_OBJECTS): tests/lower/lower_spec.h
