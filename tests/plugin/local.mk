# Plugins: targets loaded from shared libraries by `byoc --plugin`.
# libtestnpu is a backend the byoc command is not built with: a .byoc file
# compiled by byocc plus the entry point of include/byoc/plugin.h.
# libdupnpu registers a target name byoc already has; libnoentry has no
# entry point.  Built as libtool modules at check time only.
PLUGIN_LDFLAGS = -module -avoid-version -rpath /nowhere
check_LTLIBRARIES = tests/plugin/libtestnpu.la tests/plugin/libdupnpu.la \
	tests/plugin/libnoentry.la

tests_plugin_libtestnpu_la_SOURCES = tests/plugin/plugin.c tests/plugin/testnpu_passes.c
nodist_tests_plugin_libtestnpu_la_SOURCES = tests/plugin/testnpu.c
tests_plugin_libtestnpu_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/plugin \
	-DPLUGIN_MODULE=testnpu
tests_plugin_libtestnpu_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugin_libtestnpu_la_LIBADD = runtime/libbyoc.la
$(tests_plugin_libtestnpu_la_OBJECTS): tests/plugin/testnpu.h

tests_plugin_libdupnpu_la_SOURCES = tests/plugin/plugin.c
nodist_tests_plugin_libdupnpu_la_SOURCES = tests/plugin/dupnpu.c
tests_plugin_libdupnpu_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/plugin \
	-DPLUGIN_MODULE=dupnpu
tests_plugin_libdupnpu_la_LDFLAGS = $(PLUGIN_LDFLAGS)
tests_plugin_libdupnpu_la_LIBADD = runtime/libbyoc.la
$(tests_plugin_libdupnpu_la_OBJECTS): tests/plugin/dupnpu.h

tests_plugin_libnoentry_la_SOURCES = tests/plugin/noentry.c
tests_plugin_libnoentry_la_LDFLAGS = $(PLUGIN_LDFLAGS)

PLUGIN_GEN = tests/plugin/testnpu.c tests/plugin/testnpu.h \
	tests/plugin/dupnpu.c tests/plugin/dupnpu.h
CLEANFILES += $(PLUGIN_GEN)
tests/plugin/testnpu.c: $(BYOCC_BUILT) lib/relay.byoc
tests/plugin/dupnpu.c: $(BYOCC_BUILT) lib/relay.byoc
tests/plugin/testnpu.h: tests/plugin/testnpu.c
tests/plugin/dupnpu.h: tests/plugin/dupnpu.c

TESTS += tests/plugin/plugin.sh
EXTRA_DIST += tests/plugin/plugin.sh tests/plugin/testnpu.byoc tests/plugin/dupnpu.byoc \
	tests/plugin/conv_bn_relu.onnx
