# The byoc command, with the real backends of examples/ compiled in as its
# bundled targets.
bin_PROGRAMS += cli/byoc
cli_byoc_SOURCES = cli/main.c cli/cli.h cli/cost.c cli/measure.c cli/measure_cache.c \
	cli/measure_cache.h cli/runner.c cli/runner.h $(BACKEND_REGISTER)
nodist_cli_byoc_SOURCES = $(BACKEND_C)
cli_byoc_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/examples
cli_byoc_LDADD = runtime/libbyoc.la -lm $(DL_LIBS)
$(cli_byoc_OBJECTS): $(BACKEND_H)
