# Benchmarks: built by `make bench`, never run by `make check`.
EXTRA_PROGRAMS += bench/load_model
bench_load_model_SOURCES = bench/load_model.c
bench_load_model_LDADD = runtime/libbyoc.la
EXTRA_PROGRAMS += bench/partition_models
bench_partition_models_SOURCES = bench/partition_models.c $(BACKEND_REGISTER)
nodist_bench_partition_models_SOURCES = $(BACKEND_C) bench/collage_like.c
bench_partition_models_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/examples -I$(top_srcdir)/cli -I$(top_builddir)/bench
bench_partition_models_LDADD = runtime/libbyoc.la -lm
$(bench_partition_models_OBJECTS): $(BACKEND_H) bench/collage_like.h
bench/collage_like.c: $(BYOCC_BUILT) lib/relay.byoc
bench/collage_like.h: bench/collage_like.c
EXTRA_DIST += bench/collage_like.byoc
CLEANFILES += bench/collage_like.c bench/collage_like.h
CLEANFILES += $(EXTRA_PROGRAMS)
SHARED_MODELS = $(abs_top_srcdir)/../shared/models

.PHONY: bench
bench: bench/load_model$(EXEEXT)
	@if test -d $(SHARED_MODELS); then \
	  ./bench/load_model -n 9 $(SHARED_MODELS)/relay/gpt2.relay $(SHARED_MODELS)/onnx/collage_gpt2.graph.onnx \
	    $(SHARED_MODELS)/relay/resnet50.relay $(SHARED_MODELS)/onnx/collage_resnet50.graph.onnx; \
	else echo "bench: $(SHARED_MODELS) is absent; nothing to measure"; fi

# Loading time against size: torch-style shape chains (tests/onnx/onnx_gen.h)
# of 1k, 5k and 20k ONNX nodes; time per node should stay flat.
# (Needs ONNX support: the generator is built only with it.)
if HAVE_ONNX
BENCH_ONNX = bench-onnx-chains
endif
.PHONY: bench-onnx-chains
bench: $(BENCH_ONNX)
bench-onnx-chains: bench/load_model$(EXEEXT)
	@$(MAKE) $(AM_MAKEFLAGS) tests/onnx/gen_onnx$(EXEEXT)
	@echo "== generated shape chains, 20 ONNX nodes per layer"
	@for l in 50 250 1000; do \
	  ./tests/onnx/gen_onnx chains $$l bench/chains_$$l.onnx || exit 1; done
	@./bench/load_model -n 5 bench/chains_50.onnx bench/chains_250.onnx bench/chains_1000.onnx
CLEANFILES += bench/chains_50.onnx bench/chains_250.onnx bench/chains_1000.onnx

# The partitioner: one process per model, so each peak memory is its own.
.PHONY: bench-partition
bench: bench-partition
bench-partition: bench/partition_models$(EXEEXT)
	@if test -d $(SHARED_MODELS); then \
	  echo "== Collage-like rules: collage_ops beside its native target"; \
	  for m in $(SHARED_MODELS)/relay/*.relay; do \
	    ./bench/partition_models -t collage_ops,cuda_mock_native $$m | sed -n 2,3p || exit 1; done; \
	  echo "== the bundled cuda backends: tensorrt, cutlass, cudnn, cublas"; \
	  for m in $(SHARED_MODELS)/relay/*.relay; do \
	    ./bench/partition_models -t tensorrt,cutlass,cudnn,cublas $$m | sed -n 2,3p || exit 1; done; \
	  echo "== the bundled cpu backend: dnnl"; \
	  for m in $(SHARED_MODELS)/relay/*.relay; do \
	    ./bench/partition_models -t dnnl $$m | sed -n 2,3p || exit 1; done; \
	else echo "bench: $(SHARED_MODELS) is absent; no real models measured"; fi
	@echo "== synthetic residual chains, Collage-like rules"
	@for n in 1000 5000 10000; do \
	  ./bench/partition_models -t collage_ops,cuda_mock_native --synthetic $$n | sed -n 2,3p || exit 1; done

# Synthetic models at any size (bench/gen_model.c); ONNX with protobuf-c.
EXTRA_PROGRAMS += bench/gen_model
bench_gen_model_SOURCES = bench/gen_model.c
bench_gen_model_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)
if HAVE_ONNX
nodist_bench_gen_model_SOURCES = runtime/onnx.pb-c.c
bench_gen_model_LDADD = $(PROTOBUF_C_LIBS)
$(bench_gen_model_OBJECTS): runtime/onnx.pb-c.h
endif

# How the partitioner scales with the model (bench/scale.sh; hours at the
# full sizes, so not part of `make bench`).  Select with the environment or
# the make command line, e.g.
#   make bench-scale SHAPES=residual SIZES="1000 5000" REPEAT=1 TIMEOUT=60
EXTRA_PROGRAMS += bench/runstat
bench_runstat_SOURCES = bench/runstat.c
EXTRA_DIST += bench/scale.sh bench/README.md
.PHONY: bench-scale
bench-scale: cli/byoc$(EXEEXT) bench/gen_model$(EXEEXT) bench/runstat$(EXEEXT)
	@BYOC=./cli/byoc$(EXEEXT) GEN_MODEL=./bench/gen_model$(EXEEXT) \
	  RUNSTAT=./bench/runstat$(EXEEXT) OUTDIR=bench/scale.d $(SHELL) $(srcdir)/bench/scale.sh
clean-local: clean-bench-scale
.PHONY: clean-bench-scale
clean-bench-scale:
	-rm -rf bench/scale.d bench/onnx_out.d

# Real ONNX exports (bench/export_models.py writes them outside the
# repository, /tmp/byoc-real-models by default; bench/README.md says how):
# how byoc reads each, opaque ops, untyped nodes, FLOPs, load time and
# peak memory.  Select with the environment, e.g.
#   make bench-real DIRS=/tmp/byoc-real-models REPEAT=5
EXTRA_DIST += bench/export_models.py bench/ort_optimize.js bench/real_models.sh
.PHONY: bench-real
bench-real: cli/byoc$(EXEEXT) bench/load_model$(EXEEXT) bench/runstat$(EXEEXT)
	@BYOC=./cli/byoc$(EXEEXT) RUNSTAT=./bench/runstat$(EXEEXT) \
	  LOAD_MODEL=./bench/load_model$(EXEEXT) $(SHELL) $(srcdir)/bench/real_models.sh

# Writing placements as ONNX (bench/onnx_out.sh): -f onnx against text on
# synthetic models with weights, e.g.
#   make bench-onnx-out SIZES="1000 10000" REPEAT=5 MODELS=/tmp/gpt24.onnx
EXTRA_DIST += bench/onnx_out.sh
.PHONY: bench-onnx-out
bench-onnx-out: cli/byoc$(EXEEXT) bench/gen_model$(EXEEXT) bench/runstat$(EXEEXT)
	@BYOC=./cli/byoc$(EXEEXT) GEN_MODEL=./bench/gen_model$(EXEEXT) \
	  RUNSTAT=./bench/runstat$(EXEEXT) OUTDIR=bench/onnx_out.d $(SHELL) $(srcdir)/bench/onnx_out.sh

# The analytic model against published latencies: the table of
# doc/cost-model.md.
bench-calibrate: cli/byoc$(EXEEXT)
	@sh $(srcdir)/bench/calibrate/compare.sh ./cli/byoc $(SHARED_MODELS)
.PHONY: bench-calibrate

# byoc measure --runner onnxruntime on resnet50 and mobilenet: first run,
# second run from the cache, and the table's coverage (bench/measure.sh).
.PHONY: bench-measure
bench-measure: cli/byoc$(EXEEXT)
	@sh $(srcdir)/bench/measure.sh BYOC=./cli/byoc SHARED=$(SHARED_MODELS)
EXTRA_DIST += bench/measure.sh
clean-local: clean-bench-measure
.PHONY: clean-bench-measure
clean-bench-measure:
	-rm -rf bench/measure.d
