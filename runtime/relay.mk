# TVM Relay text: a second reentrant flex/bison grammar (prefix relay_yy),
# generated into the build tree like the .byoc grammar.
EXTRA_DIST += runtime/relay_lexer.l runtime/relay_parser.y
RELAY_GEN = runtime/relay_lexer.c runtime/relay_lexer.h runtime/relay_parser.c \
	runtime/relay_parser.h
BUILT_SOURCES += $(RELAY_GEN)
CLEANFILES += $(RELAY_GEN)
runtime_libbyoc_la_SOURCES += runtime/relay_read.c runtime/relay_read.h runtime/relay_write.c
# The Relay printing helpers, which the plain writer shares with the writers
# of a partitioning (runtime/writers/).
runtime_libbyocpart_la_SOURCES += runtime/relay_print.c runtime/relay_print.h
nodist_runtime_libbyoc_la_SOURCES += runtime/relay_lexer.c runtime/relay_parser.c
$(runtime_libbyoc_la_OBJECTS): runtime/relay_lexer.h runtime/relay_parser.h

runtime/relay_parser.c: runtime/relay_parser.y runtime/relay_lexer.h
	@$(MKDIR_P) runtime
	$(AM_V_BISON)bison -Wall -Werror -d -o runtime/relay_parser.c $(srcdir)/runtime/relay_parser.y
runtime/relay_parser.h: runtime/relay_parser.c
	@test -f $@ || { rm -f runtime/relay_parser.c; $(MAKE) $(AM_MAKEFLAGS) runtime/relay_parser.c; }
runtime/relay_lexer.c: runtime/relay_lexer.l
	@$(MKDIR_P) runtime
	$(AM_V_FLEX)$(LEX) --header-file=runtime/relay_lexer.h -o runtime/relay_lexer.c $(srcdir)/runtime/relay_lexer.l
runtime/relay_lexer.h: runtime/relay_lexer.c
	@test -f $@ || { rm -f runtime/relay_lexer.c; $(MAKE) $(AM_MAKEFLAGS) runtime/relay_lexer.c; }

check_PROGRAMS += tests/unit/test_relay
TESTS += tests/unit/test_relay
tests_unit_test_relay_SOURCES = tests/unit/test_relay.c
tests_unit_test_relay_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_relay_LDADD = runtime/libbyoc.la $(CHECK_LIBS)
# Inputs of test_relay, read from $(top_srcdir); listed one by one.
EXTRA_DIST += tests/relay/partitioned.relay tests/relay/flat.relay
