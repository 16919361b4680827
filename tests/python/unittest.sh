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
# The runtimes are the compiler's: clang's shared ASan runtime holds UBSan's
# handlers too; gcc has libasan and libubsan.
san=
case "$BYOC_SAN_FLAGS" in
*address*) want="libclang_rt.asan-$(uname -m).so libasan.so" ;;
*undefined*) want="libclang_rt.ubsan_standalone-$(uname -m).so libubsan.so" ;;
*) want= ;;
esac
for lib in $want; do
    p=$(${BYOC_CC:-cc} -print-file-name="$lib" 2>/dev/null)
    case $p in /*) if test -f "$p"; then san=$p; break; fi ;; esac
done
if test -n "$want"; then
    case "$BYOC_SAN_FLAGS:$san" in
    *address*undefined*:*libasan.so | *undefined*address*:*libasan.so)
        u=$(${BYOC_CC:-cc} -print-file-name=libubsan.so 2>/dev/null)
        if test -f "$u"; then san="$san $u"; else san=; fi ;;
    esac
    if test -z "$san"; then
        echo "SKIP: no shared sanitizer runtime of ${BYOC_CC:-cc} to preload into $PYTHON"
        exit 77
    fi
    # BYOC_SAN_PRELOAD: common.py runs the byoc command without it.
    LD_PRELOAD="$san${LD_PRELOAD:+ $LD_PRELOAD}"
    ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
    BYOC_SAN_PRELOAD=1
    export LD_PRELOAD ASAN_OPTIONS BYOC_SAN_PRELOAD
fi
echo "$PYTHON: $("$PYTHON" --version 2>&1)"
exec "$PYTHON" -m unittest discover -v -s "$top_srcdir/tests/python" -p 'test_*.py'
