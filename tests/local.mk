# Tests beyond the per-module unit tests of runtime/local.mk.
TEST_EXTENSIONS = .sh
AM_TESTS_ENVIRONMENT = \
	BYOCC='$(abs_top_builddir)/compiler/byocc$(EXEEXT)'; \
	top_srcdir='$(abs_top_srcdir)'; top_builddir='$(abs_top_builddir)'; \
	BYOC_DATADIR='$(abs_top_srcdir)/lib'; \
	export BYOCC top_srcdir top_builddir BYOC_DATADIR;

# Golden diagnostics and golden generated code.
TESTS += tests/golden/diag.sh tests/golden/emit.sh
EXTRA_DIST += tests/golden

# Compile-and-run: the generated code of the tour examples, built strictly.
STRICT_CFLAGS = -std=c11 -Wall -Wextra -Werror -pedantic
check_PROGRAMS += tests/run/test_tour
TESTS += tests/run/test_tour
nodist_tests_run_test_tour_SOURCES = examples/tour_gpu.c examples/tour_npu.c
tests_run_test_tour_SOURCES = tests/run/test_tour.c examples/tour_npu_extern.c
tests_run_test_tour_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include \
	-I$(top_builddir)/examples
tests_run_test_tour_CFLAGS = $(STRICT_CFLAGS) $(CHECK_CFLAGS)
tests_run_test_tour_LDADD = runtime/libbyoc.la $(CHECK_LIBS)
$(tests_run_test_tour_OBJECTS): $(EXAMPLE_GEN)

# The same with clang, when it is installed.
if HAVE_CLANG
check_SCRIPTS = tests/run/test_tour_clang$(EXEEXT)
TESTS += tests/run/test_tour_clang$(EXEEXT)
CLEANFILES += tests/run/test_tour_clang$(EXEEXT)
endif
tests/run/test_tour_clang$(EXEEXT): $(srcdir)/tests/run/test_tour.c examples/tour_gpu.c \
		examples/tour_npu.c $(srcdir)/examples/tour_npu_extern.c runtime/libbyoc.la
	$(AM_V_CCLD)$(LIBTOOL) $(AM_V_lt) --tag=CC --mode=link $(CLANG) $(STRICT_CFLAGS) \
	  $(SAN_FLAGS) $(tests_run_test_tour_CPPFLAGS) $(CHECK_CFLAGS) -o $@ \
	  $(srcdir)/tests/run/test_tour.c examples/tour_gpu.c examples/tour_npu.c \
	  $(srcdir)/examples/tour_npu_extern.c runtime/libbyoc.la $(CHECK_LIBS)

# Unit tests of byocc's phases, against its convenience library.
COMPILER_TEST_CPPFLAGS = $(compiler_libbyocc_la_CPPFLAGS)
COMPILER_TEST_LDADD = compiler/libbyocc.la $(CHECK_LIBS)
noinst_HEADERS += tests/unit/compiler_fixture.h
check_PROGRAMS += tests/unit/test_lexer tests/unit/test_parser tests/unit/test_resolve
TESTS += tests/unit/test_lexer tests/unit/test_parser tests/unit/test_resolve
tests_unit_test_lexer_SOURCES = tests/unit/test_lexer.c
tests_unit_test_lexer_CPPFLAGS = $(COMPILER_TEST_CPPFLAGS)
tests_unit_test_lexer_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_lexer_LDADD = $(COMPILER_TEST_LDADD)
tests_unit_test_parser_SOURCES = tests/unit/test_parser.c
tests_unit_test_parser_CPPFLAGS = $(COMPILER_TEST_CPPFLAGS)
tests_unit_test_parser_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_parser_LDADD = $(COMPILER_TEST_LDADD)
tests_unit_test_resolve_SOURCES = tests/unit/test_resolve.c
tests_unit_test_resolve_CPPFLAGS = $(COMPILER_TEST_CPPFLAGS)
tests_unit_test_resolve_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_resolve_LDADD = $(COMPILER_TEST_LDADD)
