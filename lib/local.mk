# The op vocabulary: installed for byocc's import search, and compiled by
# the byocc just built into libbyoc, so that the runtime knows every op
# (byoc_register_relay).
dist_pkgdata_DATA += lib/relay.byoc
nodist_runtime_libbyoc_la_SOURCES += runtime/relay.c
CLEANFILES += runtime/relay.c runtime/relay.h
runtime/relay.c: lib/relay.byoc $(BYOCC_BUILT)
	@$(MKDIR_P) runtime
	$(AM_V_BYOCC)$(BYOCC_BUILT) -o $@ $(srcdir)/lib/relay.byoc
runtime/relay.h: runtime/relay.c
