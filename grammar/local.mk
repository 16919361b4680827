# The .byoc grammar: a reentrant flex scanner and a pure bison parser.
# Generated into the build tree by explicit rules (the scanner's header
# cannot pass through ylwrap), so nothing generated is distributed.
EXTRA_DIST += grammar/lexer.l grammar/parser.y
noinst_HEADERS += grammar/parse_ctx.h
GRAMMAR_GEN = grammar/lexer.c grammar/lexer.h grammar/parser.c grammar/parser.h
BUILT_SOURCES += $(GRAMMAR_GEN)
# Every object of the compiler may include the grammar's headers.
$(compiler_libbyocc_la_OBJECTS): grammar/parser.h grammar/lexer.h
CLEANFILES += $(GRAMMAR_GEN)

AM_V_BISON = $(am__v_BISON_@AM_V@)
am__v_BISON_ = $(am__v_BISON_@AM_DEFAULT_V@)
am__v_BISON_0 = @echo "  BISON   " $@;
AM_V_FLEX = $(am__v_FLEX_@AM_V@)
am__v_FLEX_ = $(am__v_FLEX_@AM_DEFAULT_V@)
am__v_FLEX_0 = @echo "  FLEX    " $@;

# The parser includes the scanner's header: generate that first.
grammar/parser.c: grammar/parser.y grammar/lexer.h
	@$(MKDIR_P) grammar
	$(AM_V_BISON)bison -Wall -Werror -d -o grammar/parser.c $(srcdir)/grammar/parser.y
grammar/parser.h: grammar/parser.c
	@test -f $@ || { rm -f grammar/parser.c; $(MAKE) $(AM_MAKEFLAGS) grammar/parser.c; }
grammar/lexer.c: grammar/lexer.l
	@$(MKDIR_P) grammar
	$(AM_V_FLEX)$(LEX) --header-file=grammar/lexer.h -o grammar/lexer.c $(srcdir)/grammar/lexer.l
grammar/lexer.h: grammar/lexer.c
	@test -f $@ || { rm -f grammar/lexer.c; $(MAKE) $(AM_MAKEFLAGS) grammar/lexer.c; }
