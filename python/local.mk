# The byoc Python package (doc/python.md): pure Python over the shared
# libbyoc-backends with ctypes.  The only file the build writes is
# byoc/_config.py, which names the shared library: the build tree's copy
# in python/byoc/ (with the sources copied beside it in a VPATH build, so
# PYTHONPATH=$(top_builddir)/python imports the whole package), the
# installed one in python/install/.  The library's file name comes from
# libtool's .la (dlname), so it is right on any platform libtool knows.
BYOC_PY_SOURCES = python/byoc/__init__.py python/byoc/_lib.py
EXTRA_DIST += $(BYOC_PY_SOURCES)
if BYOC_PYTHON
byocpydir = $(pythondir)/byoc
byocpy_PYTHON = $(BYOC_PY_SOURCES)
nodist_byocpy_PYTHON = python/install/_config.py
noinst_DATA = python/byoc/_config.py python/install/_config.py python/byoc.stamp
CLEANFILES += python/byoc/_config.py python/install/_config.py python/byoc.stamp
BYOC_PY_DLNAME = sed -n "s/^dlname='\(.*\)'$$/\1/p" examples/libbyoc-backends.la

python/byoc/_config.py: examples/libbyoc-backends.la
	@$(MKDIR_P) python/byoc
	$(AM_V_GEN)dl=`$(BYOC_PY_DLNAME)`; test -n "$$dl" || { \
	  echo "$@: examples/libbyoc-backends.la has no shared library (--disable-shared?)" >&2; exit 1; }; \
	{ echo '# Written by make (python/local.mk): the build tree'"'"'s libbyoc-backends.'; \
	  echo "LIBRARY = '$(abs_top_builddir)/examples/.libs/$$dl'"; } >$@

python/install/_config.py: examples/libbyoc-backends.la
	@$(MKDIR_P) python/install
	$(AM_V_GEN)dl=`$(BYOC_PY_DLNAME)`; test -n "$$dl" || exit 1; \
	{ echo '# Written by make (python/local.mk): the installed libbyoc-backends.'; \
	  echo "LIBRARY = '$(libdir)/$$dl'"; } >$@

# In a VPATH build, the sources beside the build tree's _config.py.
python/byoc.stamp: $(srcdir)/python/byoc/__init__.py $(srcdir)/python/byoc/_lib.py
	@$(MKDIR_P) python/byoc
	$(AM_V_GEN)if test "`cd $(srcdir) && pwd`" != "`pwd`"; then \
	  for f in $(BYOC_PY_SOURCES); do cp $(srcdir)/$$f $$f || exit 1; done; fi; \
	touch $@
endif

clean-local: clean-local-python
clean-local-python:
	-rm -rf python/byoc/__pycache__ tests/python/__pycache__
	-test "`cd $(srcdir) && pwd`" = "`pwd`" || rm -f $(BYOC_PY_SOURCES)
