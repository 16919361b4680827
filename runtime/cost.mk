# The analytic cost model.
runtime_libbyocpart_la_SOURCES += runtime/cost.c runtime/cost.h

# Like the other internal modules' tests, this one compiles its module in.
check_PROGRAMS += tests/unit/test_cost
TESTS += tests/unit/test_cost
tests_unit_test_cost_SOURCES = tests/unit/test_cost.c runtime/cost.c
tests_unit_test_cost_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_cost_LDADD = runtime/libbyoc.la runtime/libbyocutil.la $(CHECK_LIBS) -lm
