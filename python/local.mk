# The byoc Python package (doc/python.md): pure Python over the shared
# libbyoc-backends with ctypes.  The only file the build writes is
# byoc/_config.py, which names the shared library: the build tree's copy
# in python/byoc/ (with the sources copied beside it in a VPATH build, so
# PYTHONPATH=$(top_builddir)/python imports the whole package), and the
# installed one, written by make install.  The library's file name comes from
# libtool's .la (dlname), so it is right on any platform libtool knows.
BYOC_PY_SOURCES = python/byoc/__init__.py python/byoc/_lib.py
EXTRA_DIST += $(BYOC_PY_SOURCES)
if BYOC_PYTHON
byocpydir = $(pythondir)/byoc
byocpy_PYTHON = $(BYOC_PY_SOURCES)
noinst_DATA = python/byoc/_config.py python/byoc.stamp byoc
CLEANFILES += python/byoc/_config.py python/byoc.stamp byoc
BYOC_PY_DLNAME = sed -n "s/^dlname='\(.*\)'$$/\1/p" examples/libbyoc-backends.la

python/byoc/_config.py: examples/libbyoc-backends.la
	@$(MKDIR_P) python/byoc
	$(AM_V_GEN)dl=`$(BYOC_PY_DLNAME)`; test -n "$$dl" || { \
	  echo "$@: examples/libbyoc-backends.la has no shared library (--disable-shared?)" >&2; exit 1; }; \
	{ echo '# Written by make (python/local.mk): the build tree'"'"'s libbyoc-backends.'; \
	  echo "LIBRARY = '$(abs_top_builddir)/examples/.libs/$$dl'"; } >$@

# The installed _config.py is written at install time, so that it names
# the libdir of that install (`make install prefix=...` included).
install-data-local: install-python-config
install-python-config:
	@dl=`$(BYOC_PY_DLNAME)`; test -n "$$dl" || exit 1; \
	$(MKDIR_P) "$(DESTDIR)$(byocpydir)" && \
	{ echo '# Written by make install (python/local.mk): the installed libbyoc-backends.'; \
	  echo "LIBRARY = '$(libdir)/$$dl'"; } >"$(DESTDIR)$(byocpydir)/_config.py"
uninstall-local: uninstall-python-config
uninstall-python-config:
	rm -f "$(DESTDIR)$(byocpydir)/_config.py" "$(DESTDIR)$(byocpydir)"/__pycache__/_config.*.pyc

# `python3 -c "import byoc"` at the top of the build tree: a link to the
# package there (Python puts the current folder first on its path).
byoc:
	$(AM_V_GEN)rm -f $@ && ln -s python/byoc $@

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
EXTRA_DIST += doc/python.md
