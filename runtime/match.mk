# The matcher: every match of every compiled pattern at a graph node.
runtime_libbyocpart_la_SOURCES += runtime/match.c runtime/match.h

# Its test compiles patterns with byocc (tests/match/match_spec.byoc) and,
# like the other tests of internal modules, compiles match.c into itself.
check_PROGRAMS += tests/match/test_match
TESTS += tests/match/test_match
EXTRA_DIST += tests/match/match_spec.byoc
CLEANFILES += tests/match/match_spec.c tests/match/match_spec.h
tests/match/match_spec.c: $(BYOCC_BUILT) lib/relay.byoc
tests/match/match_spec.h: tests/match/match_spec.c
nodist_tests_match_test_match_SOURCES = tests/match/match_spec.c
tests_match_test_match_SOURCES = tests/match/test_match.c runtime/match.c
tests_match_test_match_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/match
tests_match_test_match_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_match_test_match_LDADD = runtime/libbyoc.la runtime/libbyocutil.la $(CHECK_LIBS)
$(tests_match_test_match_OBJECTS): tests/match/match_spec.h
