# Explain: why a node went where it went (DESIGN.md 3.9).
runtime_libbyocpart_la_SOURCES += runtime/explain.c
