# Internal helpers shared by byocc and libbyoc: an arena and a hash table.
noinst_LTLIBRARIES += runtime/libbyocutil.la
runtime_libbyocutil_la_SOURCES = \
	runtime/arena.c runtime/arena.h \
	runtime/die.c runtime/die.h \
	runtime/hash.c runtime/hash.h

# libbyoc: exports byoc_* and nothing else.
lib_LTLIBRARIES += runtime/libbyoc.la
runtime_libbyoc_la_SOURCES = \
	runtime/error.c \
	runtime/graph.c \
	runtime/pred.c \
	runtime/registry.c \
	runtime/value.c
runtime_libbyoc_la_LIBADD = runtime/libbyocutil.la -lm
runtime_libbyoc_la_LDFLAGS = -version-info 0:0:0 -export-symbols-regex '^byoc_'
