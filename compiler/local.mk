# byocc: everything but main() lives in a convenience library so that the
# unit tests can drive the phases directly.
noinst_LTLIBRARIES += compiler/libbyocc.la
compiler_libbyocc_la_SOURCES = \
	compiler/ast.h \
	compiler/check.c \
	compiler/diag.c \
	compiler/emit_c.c \
	compiler/resolve.c
nodist_compiler_libbyocc_la_SOURCES = grammar/lexer.c grammar/parser.c
compiler_libbyocc_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/compiler \
	-I$(top_srcdir)/grammar -I$(top_builddir)/grammar
# Generated scanners trip -Wmissing-prototypes and friends; the flags that
# matter stay on.
compiler_libbyocc_la_CFLAGS = $(AM_CFLAGS)
compiler_libbyocc_la_LIBADD = runtime/libbyocutil.la

bin_PROGRAMS += compiler/byocc
compiler_byocc_SOURCES = compiler/main.c
compiler_byocc_CPPFLAGS = $(compiler_libbyocc_la_CPPFLAGS)
compiler_byocc_LDADD = compiler/libbyocc.la
