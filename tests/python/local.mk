# The Python package's tests (python/local.mk): the unittest modules
# tests/python/test_*.py, run by the configured Python through
# unittest.sh with the build tree's package on PYTHONPATH.  By hand, from
# the build tree: PYTHONPATH=python python3 -m unittest discover -s
# SRCDIR/tests/python.  (One script, not a .py test extension: a .py
# suffix rule would also claim tests/onnx/emit_numeric.sh's log.)
BYOC_PY_TESTS = tests/python/test_load.py tests/python/test_partition.py \
	tests/python/test_errors.py tests/python/test_cost.py tests/python/test_explain.py
EXTRA_DIST += tests/python/unittest.sh tests/python/common.py tests/python/leak_loop.py \
	$(BYOC_PY_TESTS)
if BYOC_PYTHON
TESTS += tests/python/unittest.sh
AM_TESTS_ENVIRONMENT += PYTHON='$(PYTHON)'; \
	BYOC_PYTHONPATH='$(abs_top_builddir)/python'; BYOC_CC='$(CC)'; \
	export PYTHON BYOC_PYTHONPATH BYOC_CC;
endif
