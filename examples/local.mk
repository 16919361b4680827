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
# targets and are installed with the examples.
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
examplespecsdir = $(pkgdatadir)/examples
dist_examplespecs_DATA = $(BACKEND_SPECS) examples/README.md

# Small models written for byoc (Relay text), installed with the examples.
examplemodelsdir = $(pkgdatadir)/examples/models
dist_examplemodels_DATA = examples/models/mobilenet_v2_block.relay \
	examples/models/resnet_bottleneck.relay examples/models/transformer_encoder.relay
