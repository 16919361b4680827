# The byoc command.
bin_PROGRAMS += cli/byoc
cli_byoc_SOURCES = cli/main.c
cli_byoc_LDADD = runtime/libbyoc.la
