# Fuzzing (tests/fuzz/README.md): libFuzzer harnesses for the three readers
# of untrusted input, and the regression corpus of every input that once
# crashed, hung or was wrongly accepted.
#
# make check replays the corpus through the plain readers (regress.sh runs
# byoc and byocc on each input and compares their diagnostics) and through
# the harnesses' own code, linked with a main() of its own (standalone.c),
# so no libFuzzer is needed.  ./configure --enable-fuzz CC=clang also
# builds the harnesses with libFuzzer; make fuzz runs each for FUZZ_TIME
# seconds.

FUZZ_MODEL_SRC = tests/fuzz/fuzz_model.c tests/fuzz/fuzz_model.h $(BACKEND_REGISTER)
FUZZ_MODEL_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/cli -I$(top_builddir)/examples
FUZZ_BYOC_CPPFLAGS = $(compiler_libbyocc_la_CPPFLAGS) -DFUZZ_SRCDIR='"$(abs_top_srcdir)"'

check_PROGRAMS += tests/fuzz/replay-relay tests/fuzz/replay-onnx tests/fuzz/replay-byoc
tests_fuzz_replay_relay_SOURCES = tests/fuzz/fuzz_relay.c tests/fuzz/standalone.c \
	$(FUZZ_MODEL_SRC)
nodist_tests_fuzz_replay_relay_SOURCES = $(BACKEND_C)
tests_fuzz_replay_relay_CPPFLAGS = $(FUZZ_MODEL_CPPFLAGS)
tests_fuzz_replay_relay_LDADD = runtime/libbyoc.la -lm
$(tests_fuzz_replay_relay_OBJECTS): $(BACKEND_H)
tests_fuzz_replay_onnx_SOURCES = tests/fuzz/fuzz_onnx.c tests/fuzz/standalone.c \
	$(FUZZ_MODEL_SRC)
nodist_tests_fuzz_replay_onnx_SOURCES = $(BACKEND_C)
tests_fuzz_replay_onnx_CPPFLAGS = $(FUZZ_MODEL_CPPFLAGS)
tests_fuzz_replay_onnx_LDADD = runtime/libbyoc.la -lm
$(tests_fuzz_replay_onnx_OBJECTS): $(BACKEND_H)
tests_fuzz_replay_byoc_SOURCES = tests/fuzz/fuzz_byoc.c tests/fuzz/standalone.c
tests_fuzz_replay_byoc_CPPFLAGS = $(FUZZ_BYOC_CPPFLAGS)
tests_fuzz_replay_byoc_LDADD = compiler/libbyocc.la
$(tests_fuzz_replay_byoc_OBJECTS): grammar/parser.h grammar/lexer.h

TESTS += tests/fuzz/regress.sh
# regress.sh compiles what byocc accepts, as the compile-and-run tests do.
AM_TESTS_ENVIRONMENT += BYOC_CC='$(CC)'; export BYOC_CC;
EXTRA_DIST += tests/fuzz/regress.sh tests/fuzz/fuzz.sh tests/fuzz/README.md \
	tests/fuzz/relay.dict tests/fuzz/onnx.dict tests/fuzz/byoc.dict tests/fuzz/onnx_seeds.py \
	tests/fuzz/regressions

if BYOC_FUZZ
# The same harnesses linked with libFuzzer's main.  Statically, so that the
# fuzzer sees libbyoc's coverage without a shared library in between.
noinst_PROGRAMS = tests/fuzz/fuzz-relay tests/fuzz/fuzz-onnx tests/fuzz/fuzz-byoc
tests_fuzz_fuzz_relay_SOURCES = tests/fuzz/fuzz_relay.c $(FUZZ_MODEL_SRC)
nodist_tests_fuzz_fuzz_relay_SOURCES = $(BACKEND_C)
tests_fuzz_fuzz_relay_CPPFLAGS = $(FUZZ_MODEL_CPPFLAGS)
tests_fuzz_fuzz_relay_LDFLAGS = -static -fsanitize=fuzzer
tests_fuzz_fuzz_relay_LDADD = runtime/libbyoc.la -lm
$(tests_fuzz_fuzz_relay_OBJECTS): $(BACKEND_H)
tests_fuzz_fuzz_onnx_SOURCES = tests/fuzz/fuzz_onnx.c $(FUZZ_MODEL_SRC)
nodist_tests_fuzz_fuzz_onnx_SOURCES = $(BACKEND_C)
tests_fuzz_fuzz_onnx_CPPFLAGS = $(FUZZ_MODEL_CPPFLAGS)
tests_fuzz_fuzz_onnx_LDFLAGS = -static -fsanitize=fuzzer
tests_fuzz_fuzz_onnx_LDADD = runtime/libbyoc.la -lm
$(tests_fuzz_fuzz_onnx_OBJECTS): $(BACKEND_H)
tests_fuzz_fuzz_byoc_SOURCES = tests/fuzz/fuzz_byoc.c
tests_fuzz_fuzz_byoc_CPPFLAGS = $(FUZZ_BYOC_CPPFLAGS)
tests_fuzz_fuzz_byoc_LDFLAGS = -static -fsanitize=fuzzer
tests_fuzz_fuzz_byoc_LDADD = compiler/libbyocc.la
$(tests_fuzz_fuzz_byoc_OBJECTS): grammar/parser.h grammar/lexer.h
endif

# make fuzz: each harness for FUZZ_TIME seconds (FUZZ=relay, say, for one).
FUZZ_TIME = 60
FUZZ =
fuzz:
if BYOC_FUZZ
	$(AM_V_at)$(MAKE) $(AM_MAKEFLAGS) tests/fuzz/fuzz-relay tests/fuzz/fuzz-onnx \
	  tests/fuzz/fuzz-byoc $(check_PROGRAMS)
	BYOC_DATADIR='$(abs_top_srcdir)/lib' $(SHELL) $(srcdir)/tests/fuzz/fuzz.sh \
	  '$(abs_top_srcdir)' '$(abs_top_builddir)' '$(FUZZ_TIME)' $(FUZZ)
else
	@echo "make fuzz: configure with --enable-fuzz CC=clang first" >&2; exit 1
endif
# The regression folder ships whole, but only its inputs, their expected
# diagnostics and gen.py: nothing else left lying in it.
dist-hook: dist-fuzz-regressions
dist-fuzz-regressions:
	find $(distdir)/tests/fuzz/regressions -type f ! -name '*.relay' ! -name '*.onnx' \
	  ! -name '*.byoc' ! -name '*.err' ! -name gen.py -exec rm -f {} +
.PHONY: dist-fuzz-regressions

# The corpus is what later runs go on from: only distclean removes it.
clean-fuzz:
	-rm -rf tests/fuzz/corpus tests/fuzz/artifacts tests/fuzz/fuzz-*.log
distclean-local: clean-fuzz
.PHONY: fuzz clean-fuzz
