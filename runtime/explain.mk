# Explain: why a node went where it went (doc/partitioner.md section 6).
runtime_libbyocpart_la_SOURCES += runtime/explain.c
