# Showing a partitioning: one writer per format (text, JSON, Relay,
# Graphviz DOT) and what they share.
runtime_libbyocpart_la_SOURCES += runtime/writers/writers.h runtime/writers/common.c \
	runtime/writers/text.c runtime/writers/json.c runtime/writers/relay_module.c \
	runtime/writers/dot.c

# Tests: a Check program on a hand-made partitioning (golden outputs under
# tests/report, regenerated with BYOC_REGEN=1), and shell tests that hand
# the outputs to python3's json, to Graphviz's dot and back to the Relay
# reader, through report_dump.
REPORT_TEST_SPEC = tests/report/report_spec.c tests/report/report_spec.h
CLEANFILES += $(REPORT_TEST_SPEC)
tests/report/report_spec.c: $(BYOCC_BUILT) lib/relay.byoc
tests/report/report_spec.h: tests/report/report_spec.c
REPORT_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/report -I$(top_srcdir)/tests/report
check_PROGRAMS += tests/report/test_report tests/report/report_dump
TESTS += tests/report/test_report tests/report/json.sh tests/report/dot.sh \
	tests/report/readback.sh
nodist_tests_report_test_report_SOURCES = tests/report/report_spec.c
tests_report_test_report_SOURCES = tests/report/test_report.c tests/report/fixture.c \
	tests/report/fixture.h
tests_report_test_report_CPPFLAGS = $(REPORT_TEST_CPPFLAGS) \
	-DREPORT_GOLDEN_DIR='"$(abs_top_srcdir)/tests/report"'
tests_report_test_report_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_report_test_report_LDADD = $(PART_TESTS_LIBS)
$(tests_report_test_report_OBJECTS): tests/report/report_spec.h
nodist_tests_report_report_dump_SOURCES = tests/report/report_spec.c
tests_report_report_dump_SOURCES = tests/report/report_dump.c tests/report/fixture.c \
	tests/report/fixture.h
tests_report_report_dump_CPPFLAGS = $(REPORT_TEST_CPPFLAGS)
tests_report_report_dump_LDADD = runtime/libbyoc.la
$(tests_report_report_dump_OBJECTS): tests/report/report_spec.h
EXTRA_DIST += tests/report/report_spec.byoc tests/report/json.sh tests/report/dot.sh \
	tests/report/readback.sh \
	tests/report/fixture.txt.golden \
	tests/report/fixture.json.golden \
	tests/report/fixture.relay.golden \
	tests/report/fixture.dot.golden \
	tests/report/kernels.relay.golden
