# Man pages: the two programs, the .byoc language and the library.
dist_man1_MANS = doc/byocc.1 doc/byoc.1
dist_man5_MANS = doc/byoc.5
dist_man3_MANS = doc/libbyoc.3

# Each page formats without warnings and lists every command and option
# the programs' --help lists.
TESTS += tests/doc/man.sh
EXTRA_DIST += tests/doc/man.sh

# How to transcribe a TVM BYOC pattern table; its worked example is
# tests/doc/mydnn.byoc, built and run by tests/doc/tvm-patterns.mk.
EXTRA_DIST += doc/tvm-patterns.md
