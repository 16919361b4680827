byocincludedir = $(includedir)/byoc
byocinclude_HEADERS = \
	include/byoc/byoc.h \
	include/byoc/dtypes.def \
	include/byoc/error.h \
	include/byoc/graph.h \
	include/byoc/lower.h \
	include/byoc/partition.h \
	include/byoc/pass.h \
	include/byoc/plugin.h \
	include/byoc/pred.h \
	include/byoc/registry.h \
	include/byoc/relay.h \
	include/byoc/value.h
nodist_byocinclude_HEADERS = include/byoc/version.h
