#!/bin/sh
# Run one unittest module of tests/python with the configured Python and
# the build tree's byoc package (tests/python/local.mk).  Under
# --enable-asan the sanitizer's runtime must come first in the process,
# which a Python interpreter was not linked with: preload it, and leave
# leak checking to the C tests (the interpreter's own allocations at exit
# are not libbyoc's).
: "${PYTHON:=python3}"
PYTHONPATH="$BYOC_PYTHONPATH${PYTHONPATH:+:$PYTHONPATH}"
PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH PYTHONDONTWRITEBYTECODE
case "$BYOC_SAN_FLAGS" in
*address*)
    asan=`${BYOC_CC:-cc} -print-file-name=libasan.so 2>/dev/null`
    if test -f "$asan"; then
        LD_PRELOAD="$asan${LD_PRELOAD:+ $LD_PRELOAD}"
        ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
        export LD_PRELOAD ASAN_OPTIONS
    fi;;
esac
exec "$PYTHON" "$@"
