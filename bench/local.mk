# Benchmarks: built by `make bench`, never run by `make check`.
EXTRA_PROGRAMS += bench/load_model
bench_load_model_SOURCES = bench/load_model.c
bench_load_model_LDADD = runtime/libbyoc.la
EXTRA_PROGRAMS += bench/partition_models
bench_partition_models_SOURCES = bench/partition_models.c examples/tour_npu_extern.c
nodist_bench_partition_models_SOURCES = examples/tour_gpu.c examples/tour_npu.c
bench_partition_models_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/examples
bench_partition_models_LDADD = runtime/libbyoc.la -lm
$(bench_partition_models_OBJECTS): examples/tour_gpu.h examples/tour_npu.h
CLEANFILES += $(EXTRA_PROGRAMS)
SHARED_MODELS = $(abs_top_srcdir)/../shared/models

.PHONY: bench
bench: bench/load_model$(EXEEXT)
	@if test -d $(SHARED_MODELS); then \
	  ./bench/load_model -n 9 $(SHARED_MODELS)/relay/gpt2.relay $(SHARED_MODELS)/onnx/collage_gpt2.graph.onnx \
	    $(SHARED_MODELS)/relay/resnet50.relay $(SHARED_MODELS)/onnx/collage_resnet50.graph.onnx; \
	else echo "bench: $(SHARED_MODELS) is absent; nothing to measure"; fi

# The partitioner: one process per model, so each peak memory is its own.
.PHONY: bench-partition
bench: bench-partition
bench-partition: bench/partition_models$(EXEEXT)
	@if test -d $(SHARED_MODELS); then \
	  for m in $(SHARED_MODELS)/relay/*.relay; do ./bench/partition_models $$m || exit 1; done; \
	else echo "bench: $(SHARED_MODELS) is absent; no real models measured"; fi
	@for n in 1000 5000 10000; do ./bench/partition_models --synthetic $$n || exit 1; done
