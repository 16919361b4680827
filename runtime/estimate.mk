# (filled in by the estimate module's work)
runtime_libbyocpart_la_SOURCES += runtime/estimate.h
