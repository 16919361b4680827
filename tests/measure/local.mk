# byoc measure (doc/cost-table.md, "Measuring with byoc measure"): the
# runner pool on its own, through a driver that takes kernels from its
# command line.
check_PROGRAMS += tests/measure/runner_driver
tests_measure_runner_driver_SOURCES = tests/measure/runner_driver.c cli/runner.c cli/runner.h
tests_measure_runner_driver_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/cli
tests_measure_runner_driver_LDADD = -lm
TESTS += tests/measure/runner.sh
EXTRA_DIST += tests/measure/runner.sh
# The command end to end with fake runners, on a Relay example.
if HAVE_ONNX
TESTS += tests/measure/measure.sh
endif
EXTRA_DIST += tests/measure/measure.sh
# --runner onnxruntime on collage_mobilenet (skipped without node,
# onnxruntime-node or the shared models).
TESTS += tests/measure/onnxruntime.sh
EXTRA_DIST += tests/measure/onnxruntime.sh
