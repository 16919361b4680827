# Benchmarks: built by `make bench`, never run by `make check`.
EXTRA_PROGRAMS += bench/load_model
bench_load_model_SOURCES = bench/load_model.c
bench_load_model_LDADD = runtime/libbyoc.la
CLEANFILES += $(EXTRA_PROGRAMS)
SHARED_MODELS = $(abs_top_srcdir)/../shared/models

.PHONY: bench
bench: bench/load_model$(EXEEXT)
	@if test -d $(SHARED_MODELS); then \
	  ./bench/load_model -n 9 $(SHARED_MODELS)/relay/gpt2.relay $(SHARED_MODELS)/onnx/collage_gpt2.graph.onnx \
	    $(SHARED_MODELS)/relay/resnet50.relay $(SHARED_MODELS)/onnx/collage_resnet50.graph.onnx; \
	else echo "bench: $(SHARED_MODELS) is absent; nothing to measure"; fi
