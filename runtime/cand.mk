# Candidates: every kernel each selected target could run on a graph.
runtime_libbyocpart_la_SOURCES += runtime/cand.c runtime/cand.h

# Unit tests on hand-built graphs, with targets of each fusion style that
# byocc compiles from tests/cand/cand_spec.byoc.
check_PROGRAMS += tests/cand/test_cand
TESTS += tests/cand/test_cand
EXTRA_DIST += tests/cand/cand_spec.byoc
CLEANFILES += tests/cand/cand_spec.c tests/cand/cand_spec.h
tests/cand/cand_spec.c: $(BYOCC_BUILT) lib/relay.byoc
tests/cand/cand_spec.h: tests/cand/cand_spec.c
nodist_tests_cand_test_cand_SOURCES = tests/cand/cand_spec.c
tests_cand_test_cand_SOURCES = tests/cand/test_cand.c
tests_cand_test_cand_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/cand
tests_cand_test_cand_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_cand_test_cand_LDADD = $(PART_TESTS_LIBS)
$(tests_cand_test_cand_OBJECTS): tests/cand/cand_spec.h

# Every shared Relay model with the tour GPU's targets: candidates convex,
# in bounds, covering every call; skipped when ../shared/models is absent.
check_PROGRAMS += tests/cand/models_cand
TESTS += tests/cand/models_cand
nodist_tests_cand_models_cand_SOURCES = examples/tour_gpu.c
tests_cand_models_cand_SOURCES = tests/cand/models_cand.c
tests_cand_models_cand_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/examples
tests_cand_models_cand_LDADD = $(PART_TESTS_LIBS)
$(tests_cand_models_cand_OBJECTS): examples/tour_gpu.h

# The incremental region growth against the straightforward one on random
# graphs, bx_convex against brute force, long chains.
check_PROGRAMS += tests/cand/random_cand
TESTS += tests/cand/random_cand
nodist_tests_cand_random_cand_SOURCES = tests/cand/cand_spec.c
tests_cand_random_cand_SOURCES = tests/cand/random_cand.c
tests_cand_random_cand_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/cand
tests_cand_random_cand_LDADD = $(PART_TESTS_LIBS)
$(tests_cand_random_cand_OBJECTS): tests/cand/cand_spec.h

# byoc_ev_all_pairs (pair rules over a candidate's tensors) against the
# nested loops it replaces, on random sequences.
check_PROGRAMS += tests/cand/random_rules
TESTS += tests/cand/random_rules
tests_cand_random_rules_SOURCES = tests/cand/random_rules.c
tests_cand_random_rules_LDADD = $(PART_TESTS_LIBS)
