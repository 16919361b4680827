# Type inference: see runtime/infer.c.
runtime_libbyoc_la_SOURCES += runtime/infer.c

check_PROGRAMS += tests/unit/test_infer
TESTS += tests/unit/test_infer
tests_unit_test_infer_SOURCES = tests/unit/test_infer.c
tests_unit_test_infer_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_infer_LDADD = runtime/libbyoc.la runtime/libbyocutil.la $(CHECK_LIBS)
