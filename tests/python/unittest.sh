#!/bin/sh
# The Python package's tests (tests/python/test_*.py), run by the
# configured Python with `-m unittest` and the build tree's byoc package on
# PYTHONPATH (tests/python/local.mk); the log lists every test.  Under
# --enable-asan the sanitizer's runtime must come first in the process,
# which a Python interpreter was not linked with: preload it, and leave
# leak checking to the C tests and tests/python/leak_loop.py under valgrind
# (the interpreter's own allocations at exit are not libbyoc's).
: "${PYTHON:=python3}" "${top_srcdir:?}" "${BYOC_PYTHONPATH:?}"
PYTHONPATH="$BYOC_PYTHONPATH${PYTHONPATH:+:$PYTHONPATH}"
PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH PYTHONDONTWRITEBYTECODE
case "$BYOC_SAN_FLAGS" in
*address*)
    asan=$(${BYOC_CC:-cc} -print-file-name=libasan.so 2>/dev/null)
    if test -f "$asan"; then
        LD_PRELOAD="$asan${LD_PRELOAD:+ $LD_PRELOAD}"
        ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
        export LD_PRELOAD ASAN_OPTIONS
    fi;;
esac
echo "$PYTHON: $("$PYTHON" --version 2>&1)"
exec "$PYTHON" -m unittest discover -v -s "$top_srcdir/tests/python" -p 'test_*.py'
