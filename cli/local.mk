# The byoc command, with the example backends of examples/ compiled in as
# its bundled targets.
bin_PROGRAMS += cli/byoc
cli_byoc_SOURCES = cli/main.c examples/tour_npu_extern.c
nodist_cli_byoc_SOURCES = examples/tour_gpu.c examples/tour_npu.c
cli_byoc_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/examples
cli_byoc_LDADD = runtime/libbyoc.la -lm $(DL_LIBS)
$(cli_byoc_OBJECTS): examples/tour_gpu.h examples/tour_npu.h
