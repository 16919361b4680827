# Example backend specs, compiled by the byocc just built.  The suffix rule
# writes FILE.c and FILE.h in the build tree.
SUFFIXES = .byoc
BYOCC_BUILT = $(top_builddir)/compiler/byocc$(EXEEXT)
BYOCC_FLAGS = -I $(top_srcdir)/lib
AM_V_BYOCC = $(am__v_BYOCC_@AM_V@)
am__v_BYOCC_ = $(am__v_BYOCC_@AM_DEFAULT_V@)
am__v_BYOCC_0 = @echo "  BYOCC   " $@;
.byoc.c:
	@$(MKDIR_P) $(@D)
	$(AM_V_BYOCC)$(BYOCC_BUILT) $(BYOCC_FLAGS) -o $@ $<

EXAMPLE_SPECS = examples/tour_gpu.byoc examples/tour_npu.byoc
EXAMPLE_GEN = examples/tour_gpu.c examples/tour_gpu.h examples/tour_npu.c examples/tour_npu.h
EXTRA_DIST += $(EXAMPLE_SPECS) examples/tour_npu_extern.c
CLEANFILES += $(EXAMPLE_GEN)
examples/tour_gpu.c: $(BYOCC_BUILT) lib/relay.byoc
examples/tour_npu.c: $(BYOCC_BUILT) lib/relay.byoc
examples/tour_gpu.h: examples/tour_gpu.c
examples/tour_npu.h: examples/tour_npu.c

# The real backends (examples/README.md): the devices with their native
# targets, then one spec per backend.  They are the byoc command's bundled
# targets, installed for imports and as libbyoc-backends (below).
BACKEND_SPECS = examples/devices.byoc examples/cutlass.byoc examples/tensorrt.byoc \
	examples/cudnn.byoc examples/cublas.byoc examples/dnnl.byoc examples/cmsisnn.byoc \
	examples/ethosu.byoc
BACKEND_C = examples/devices.c examples/cutlass.c examples/tensorrt.c examples/cudnn.c \
	examples/cublas.c examples/dnnl.c examples/cmsisnn.c examples/ethosu.c
BACKEND_H = examples/devices.h examples/cutlass.h examples/tensorrt.h examples/cudnn.h \
	examples/cublas.h examples/dnnl.h examples/cmsisnn.h examples/ethosu.h
CLEANFILES += $(BACKEND_C) $(BACKEND_H)
# One function that registers them all, for the byoc command, the bench and
# the tests.
BACKEND_REGISTER = cli/bundled.c cli/bundled.h
$(BACKEND_C): $(BYOCC_BUILT) lib/relay.byoc examples/devices.byoc
examples/devices.h: examples/devices.c
examples/cutlass.h: examples/cutlass.c
examples/tensorrt.h: examples/tensorrt.c
examples/cudnn.h: examples/cudnn.c
examples/cublas.h: examples/cublas.c
examples/dnnl.h: examples/dnnl.c
examples/cmsisnn.h: examples/cmsisnn.c
examples/ethosu.h: examples/ethosu.c
# The specs are installed in the data folder beside relay.byoc, where
# byocc's imports look last, so that a downstream spec can say
# `import "devices.byoc";` (or "cutlass.byoc") with no -I; README.md and
# the models go in $(pkgdatadir)/examples.
dist_pkgdata_DATA += $(BACKEND_SPECS)
examplespecsdir = $(pkgdatadir)/examples
dist_examplespecs_DATA = examples/README.md

# libbyoc-backends: the same modules' registration functions
# (byoc_register_devices, byoc_register_cutlass, ...) as an installed
# library, for plugins and programs whose specs import them
# (doc/libbyoc.3, "Bundled modules").  A plugin that imports devices.byoc
# calls byoc_register_devices, which the byoc command does not export; it
# finds it here.  Apart from libbyoc so that the core library stays free of
# example data that changes with every spec, and has its own version;
# found with `pkg-config byoc-backends`.  Registering a module twice
# changes nothing (byoc_registry_add keys modules by name), so a plugin
# loaded into the byoc command, which has registered them already, adds
# only its own.  Objects renamed by the per-target flags, so they do not
# clash with the programs that compile $(BACKEND_C) themselves.
lib_LTLIBRARIES += examples/libbyoc-backends.la
nodist_examples_libbyoc_backends_la_SOURCES = $(BACKEND_C) $(BACKEND_H)
examples_libbyoc_backends_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/examples
examples_libbyoc_backends_la_LIBADD = runtime/libbyoc.la
examples_libbyoc_backends_la_LDFLAGS = -version-info 0:0:0 -export-symbols-regex '^byoc_'
# Their headers, as byocc wrote them: <byoc/backends/devices.h>, ...
byocbackendsincludedir = $(includedir)/byoc/backends
nodist_byocbackendsinclude_HEADERS = $(BACKEND_H)

# Small models written for byoc (Relay text), installed with the examples.
examplemodelsdir = $(pkgdatadir)/examples/models
dist_examplemodels_DATA = examples/models/mobilenet_v2_block.relay \
	examples/models/resnet_bottleneck.relay examples/models/transformer_encoder.relay

# examples/downstream's plugin on byoc's cuda (the rest of its files are
# listed in autotools/local.mk).
EXTRA_DIST += examples/downstream/mygpu.byoc examples/downstream/gpuplugin.c \
	examples/downstream/expected-gpu.txt
