# The partitioner's driver: targets, candidates, costs, search, checker.
runtime_libbyocpart_la_SOURCES += runtime/partition.c runtime/partition_impl.h

# Scenario tests through the public API, on targets of their own.
check_PROGRAMS += tests/partition/test_partition
TESTS += tests/partition/test_partition
EXTRA_DIST += tests/partition/part_spec.byoc
CLEANFILES += tests/partition/part_spec.c tests/partition/part_spec.h
tests/partition/part_spec.c: $(BYOCC_BUILT) lib/relay.byoc
tests/partition/part_spec.h: tests/partition/part_spec.c
nodist_tests_partition_test_partition_SOURCES = tests/partition/part_spec.c
tests_partition_test_partition_SOURCES = tests/partition/test_partition.c
tests_partition_test_partition_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/partition
tests_partition_test_partition_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_partition_test_partition_LDADD = runtime/libbyoc.la $(CHECK_LIBS) -lm
$(tests_partition_test_partition_OBJECTS): tests/partition/part_spec.h

# Random graphs through the whole partitioner: checker, baselines, bytes.
check_PROGRAMS += tests/partition/test_random
TESTS += tests/partition/test_random
nodist_tests_partition_test_random_SOURCES = tests/partition/part_spec.c
tests_partition_test_random_SOURCES = tests/partition/test_random.c
tests_partition_test_random_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/partition
tests_partition_test_random_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_partition_test_random_LDADD = runtime/libbyoc.la $(CHECK_LIBS) -lm
$(tests_partition_test_random_OBJECTS): tests/partition/part_spec.h
