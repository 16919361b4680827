# A plugin whose spec imports the bundled devices.byoc and cutlass.byoc,
# loaded into the byoc command: it links libbyoc-backends
# (examples/local.mk) for their registration functions.  Its spec is
# compiled with the bundled specs' folder to import from, as an installed
# byocc finds them in its data folder.
check_LTLIBRARIES += tests/plugin/librefinecuda.la
tests_plugin_librefinecuda_la_SOURCES = tests/plugin/plugin.c
nodist_tests_plugin_librefinecuda_la_SOURCES = tests/plugin/refinecuda.c
tests_plugin_librefinecuda_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/plugin \
	-DPLUGIN_MODULE=refinecuda
tests_plugin_librefinecuda_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugin_librefinecuda_la_LIBADD = examples/libbyoc-backends.la runtime/libbyoc.la
$(tests_plugin_librefinecuda_la_OBJECTS): tests/plugin/refinecuda.h
CLEANFILES += tests/plugin/refinecuda.c tests/plugin/refinecuda.h
tests/plugin/refinecuda.c: tests/plugin/refinecuda.byoc $(BYOCC_BUILT) lib/relay.byoc \
		$(BACKEND_SPECS)
	@$(MKDIR_P) tests/plugin
	$(AM_V_BYOCC)$(BYOCC_BUILT) $(BYOCC_FLAGS) -I $(top_srcdir)/examples -o $@ \
		$(srcdir)/tests/plugin/refinecuda.byoc
tests/plugin/refinecuda.h: tests/plugin/refinecuda.c
TESTS += tests/plugin/refinecuda.sh
EXTRA_DIST += tests/plugin/refinecuda.sh tests/plugin/refinecuda.byoc
