# byoc.mk - make rules that compile .byoc backend descriptions with byocc
#
# Installed in byoc's data folder; configure's BYOC_CHECK (byoc.m4) finds
# it and substitutes its path as BYOC_MAKEFILE.  In a Makefile.am:
#
#   BYOC_SPECS = mynpu.byoc                # the .byoc files you compile
#   BYOCC_FLAGS = -I $(srcdir)/specs       # optional: import folders
#   include $(BYOC_MAKEFILE)
#   nodist_prog_SOURCES = mynpu.c mynpu.h  # byocc writes both
#   BUILT_SOURCES = mynpu.h                # before anything includes it
#   CLEANFILES = $(BYOC_OUTPUTS)           # or CLEANFILES += ...
#   EXTRA_DIST = $(BYOC_SPECS)
#
# Why `include $(BYOC_MAKEFILE)`: automake reads `include` lines itself
# only when the path is literal ($(srcdir)/..., $(top_srcdir)/... or a
# relative path); a line naming a variable it passes through untouched to
# Makefile.in, and make (GNU make, or any make with `include`) reads the
# file when it runs, after configure has substituted BYOC_MAKEFILE.  So
# automake never sees these rules: declare the generated files yourself as
# above.  `include @BYOC_MAKEFILE@` also works (config.status fills it in;
# both forms tested).  The variables this file reads (BYOC_SPECS) may be
# set anywhere in Makefile.am: automake writes variables before the
# passed-through include.  `-include` would hide a wrong path: avoid it.
#
# What it gives:
#   - a suffix rule .byoc.c: `byocc $(BYOCC_FLAGS) -o FILE.c -MD -MF
#     FILE.byoc.d FILE.byoc`, which writes FILE.c, FILE.h and the depfile;
#     it prints `  BYOCC    FILE.c` under automake's silent rules (V=0,
#     the default with AM_SILENT_RULES([yes])) and the command with V=1;
#   - FILE.h depends on FILE.c (and is rebuilt if it alone is deleted);
#   - the depfiles `-include`d, so editing an imported .byoc (relay.byoc
#     or one of yours) rebuilds what imports it;
#   - BYOC_OUTPUTS: every file it writes, for CLEANFILES.
# BYOCC and BYOCC_FLAGS may be overridden on the make command line;
# BYOC_DATADIR (substituted by BYOC_CHECK) is where byocc finds relay.byoc.
# It stops with a clear message when BYOCC is empty or an input is missing.

.SUFFIXES: .byoc .c

BYOC_OUTPUTS = $(BYOC_SPECS:.byoc=.c) $(BYOC_SPECS:.byoc=.h) $(BYOC_SPECS:.byoc=.byoc.d)
BYOC_HEADERS = $(BYOC_SPECS:.byoc=.h)
BYOC_DEPFILES = $(BYOC_SPECS:.byoc=.byoc.d)

# Silent rules as automake's AM_V_GEN, but through make variables: this
# file is not run through config.status, so @AM_V@ would stay literal.
# Outside automake (no AM_DEFAULT_VERBOSITY) it is verbose.
BYOC_V_GEN = $(byoc__v_GEN_$(V))
byoc__v_GEN_ = $(byoc__v_GEN_$(AM_DEFAULT_VERBOSITY)x)
byoc__v_GEN_0 = @echo "  BYOCC   " $@;
byoc__v_GEN_1 =
byoc__v_GEN_0x = $(byoc__v_GEN_0)
byoc__v_GEN_1x =
byoc__v_GEN_x =

.byoc.c:
	@if test -z "$(BYOCC)"; then \
	  echo "byoc.mk: error: BYOCC is empty; run BYOC_CHECK in configure.ac or set BYOCC=/path/to/byocc" >&2; \
	  exit 1; \
	fi; \
	if test ! -f "$<"; then \
	  echo "byoc.mk: error: $@: no input '$<'" >&2; exit 1; \
	fi
	@test -z "$(@D)" || test -d "$(@D)" || mkdir -p "$(@D)"
	$(BYOC_V_GEN)$(BYOCC) $(BYOCC_FLAGS) -o $@ -MD -MF $*.byoc.d $<

# The header comes with the C file; if it alone was deleted, remake both.
$(BYOC_HEADERS): $(BYOC_HEADERS:.h=.c)
	@test -f $@ || { rm -f $(@:.h=.c) && $(MAKE) $(AM_MAKEFLAGS) $(@:.h=.c); }

-include $(BYOC_DEPFILES)
