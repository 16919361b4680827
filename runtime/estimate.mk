# Kernel costs: canonical signatures, the measured-cost table, the user's
# callback and the analytic model, cached by (target, signature).
runtime_libbyocpart_la_SOURCES += runtime/estimate.c runtime/estimate.h

# Its test compiles a small spec with byocc (a device, a native target and
# a target refined by a child) and links the partitioner's library.
check_PROGRAMS += tests/estimate/test_estimate
TESTS += tests/estimate/test_estimate
# The analytic model against published latencies (doc/cost-model.md).
TESTS += tests/estimate/calibration.sh
EXTRA_DIST += tests/estimate/calibration.sh bench/calibrate/compare.sh bench/calibrate/encoder.py
EXTRA_DIST += tests/estimate/estimate_spec.byoc
CLEANFILES += tests/estimate/estimate_spec.c tests/estimate/estimate_spec.h
tests/estimate/estimate_spec.c: $(BYOCC_BUILT) lib/relay.byoc
tests/estimate/estimate_spec.h: tests/estimate/estimate_spec.c
nodist_tests_estimate_test_estimate_SOURCES = tests/estimate/estimate_spec.c
tests_estimate_test_estimate_SOURCES = tests/estimate/test_estimate.c
tests_estimate_test_estimate_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/estimate
tests_estimate_test_estimate_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_estimate_test_estimate_LDADD = $(PART_TESTS_LIBS)
$(tests_estimate_test_estimate_OBJECTS): tests/estimate/estimate_spec.h
EXTRA_DIST += doc/cost-table.md
