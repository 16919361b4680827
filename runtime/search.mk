# The exact placement search (doc/partitioner.md section 4) and the containers it
# is built from: fixed-size bitsets and a binary heap with stable ties.
runtime_libbyocpart_la_SOURCES += \
	runtime/bitset.c runtime/bitset.h \
	runtime/heap.c runtime/heap.h \
	runtime/search.c runtime/search.h

# Unit tests.  libbyoc exports only byoc_*, so a test of these internal
# modules compiles the module's sources into itself rather than reaching
# for symbols the shared library hides; libbyocutil supplies the arena.
SEARCH_UNIT_TESTS = \
	tests/unit/test_bitset \
	tests/unit/test_heap \
	tests/unit/test_search
check_PROGRAMS += $(SEARCH_UNIT_TESTS)
TESTS += $(SEARCH_UNIT_TESTS)
SEARCH_UNIT_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
SEARCH_UNIT_LDADD = runtime/libbyoc.la runtime/libbyocutil.la $(CHECK_LIBS) -lm
tests_unit_test_bitset_SOURCES = tests/unit/test_bitset.c runtime/bitset.c
tests_unit_test_bitset_CFLAGS = $(SEARCH_UNIT_CFLAGS)
tests_unit_test_bitset_LDADD = $(SEARCH_UNIT_LDADD)
tests_unit_test_heap_SOURCES = tests/unit/test_heap.c runtime/heap.c
tests_unit_test_heap_CFLAGS = $(SEARCH_UNIT_CFLAGS)
tests_unit_test_heap_LDADD = $(SEARCH_UNIT_LDADD)
tests_unit_test_search_SOURCES = tests/unit/test_search.c \
	runtime/search.c runtime/bitset.c runtime/heap.c
tests_unit_test_search_CFLAGS = $(SEARCH_UNIT_CFLAGS)
tests_unit_test_search_LDADD = $(SEARCH_UNIT_LDADD)

# Benchmark: the search on synthetic layered DAGs (`make bench`).
EXTRA_PROGRAMS += bench/search_random
bench_search_random_SOURCES = bench/search_random.c \
	runtime/search.c runtime/bitset.c runtime/heap.c
bench_search_random_CFLAGS = $(AM_CFLAGS)
bench_search_random_LDADD = runtime/libbyocutil.la -lm
.PHONY: bench-search
bench: bench-search
bench-search: bench/search_random$(EXEEXT)
	./bench/search_random
