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
