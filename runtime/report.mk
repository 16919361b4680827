# Showing a partitioning: text, JSON, Relay and Graphviz DOT writers, and
# the Relay printing helpers they share with the plain writer of relay.mk.
runtime_libbyocpart_la_SOURCES += runtime/relay_print.c runtime/relay_print.h \
	runtime/report.c runtime/report.h
