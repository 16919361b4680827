# (filled in by the cand module's work)
runtime_libbyocpart_la_SOURCES += runtime/cand.h
