# Files for other projects' builds: the autoconf macro BYOC_CHECK (byoc.m4,
# found by aclocal in $(datadir)/aclocal) and the make rules for .byoc files
# (byoc.mk, in $(pkgdatadir), which byoc.pc names as pkgdatadir and
# BYOC_CHECK substitutes as BYOC_MAKEFILE).
aclocaldir = $(datadir)/aclocal
dist_aclocal_DATA = autotools/byoc.m4
dist_pkgdata_DATA += autotools/byoc.mk

# A standalone project that uses an installed byoc through the two files
# above; .ci/run builds it against a temporary install.
EXTRA_DIST += examples/downstream/configure.ac examples/downstream/Makefile.am \
	examples/downstream/README.md examples/downstream/main.c \
	examples/downstream/mynpu.byoc examples/downstream/model.relay \
	examples/downstream/expected.txt examples/downstream/plugin.c
