# The Python package's tests (python/local.mk): unittest modules, each a
# test of its own, run by the configured Python through run.sh with the
# build tree's package on PYTHONPATH.  `python3 -m unittest discover -s
# tests/python` runs the same modules by hand.
BYOC_PY_TESTS = tests/python/test_load.py tests/python/test_partition.py \
	tests/python/test_errors.py tests/python/test_cost.py tests/python/test_explain.py
EXTRA_DIST += $(BYOC_PY_TESTS) tests/python/run.sh tests/python/common.py \
	tests/python/leak_loop.py
TEST_EXTENSIONS += .py
PY_LOG_COMPILER = $(SHELL) $(srcdir)/tests/python/run.sh
if BYOC_PYTHON
TESTS += $(BYOC_PY_TESTS)
AM_TESTS_ENVIRONMENT += PYTHON='$(PYTHON)'; \
	BYOC_PYTHONPATH='$(abs_top_builddir)/python'; export PYTHON BYOC_PYTHONPATH;
endif
