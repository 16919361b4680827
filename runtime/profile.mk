# Measured costs from ONNX Runtime profiles (doc/cost-table.md): a JSON
# reader, which byocc's utilities library carries so that any part can
# use it, and the mapping of profiled nodes to kernels.
runtime_libbyocutil_la_SOURCES += runtime/json_read.c runtime/json_read.h
runtime_libbyoc_la_SOURCES += runtime/ort_profile.c

check_PROGRAMS += tests/unit/test_json_read
TESTS += tests/unit/test_json_read
tests_unit_test_json_read_SOURCES = tests/unit/test_json_read.c
tests_unit_test_json_read_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
tests_unit_test_json_read_LDADD = $(RUNTIME_UNIT_LDADD)
