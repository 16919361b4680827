# The worked example of doc/tvm-patterns.md: tests/doc/mydnn.byoc, built
# as a plugin of the byoc command (it imports devices.byoc, so it links
# libbyoc-backends) and checked by tests/doc/tvm-patterns.sh.  After
# tests/plugin/local.mk, which sets check_LTLIBRARIES.
check_LTLIBRARIES += tests/doc/libmydnn.la
tests_doc_libmydnn_la_SOURCES = tests/plugin/plugin.c
nodist_tests_doc_libmydnn_la_SOURCES = tests/doc/mydnn.c
tests_doc_libmydnn_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/doc -DPLUGIN_MODULE=mydnn
tests_doc_libmydnn_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_doc_libmydnn_la_LIBADD = examples/libbyoc-backends.la runtime/libbyoc.la
$(tests_doc_libmydnn_la_OBJECTS): tests/doc/mydnn.h
CLEANFILES += tests/doc/mydnn.c tests/doc/mydnn.h
tests/doc/mydnn.c: tests/doc/mydnn.byoc $(BYOCC_BUILT) lib/relay.byoc $(BACKEND_SPECS)
	@$(MKDIR_P) tests/doc
	$(AM_V_BYOCC)$(BYOCC_BUILT) $(BYOCC_FLAGS) -I $(top_srcdir)/examples -o $@ \
		$(srcdir)/tests/doc/mydnn.byoc
tests/doc/mydnn.h: tests/doc/mydnn.c
TESTS += tests/doc/tvm-patterns.sh
EXTRA_DIST += tests/doc/tvm-patterns.sh tests/doc/mydnn.byoc tests/doc/mydnn.relay
