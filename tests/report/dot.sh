#!/bin/sh
# Graphviz accepts the DOT output of the fixture without a warning.
command -v dot >/dev/null 2>&1 || { echo "SKIP: Graphviz's dot is not installed"; exit 77; }
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
"$top_builddir/tests/report/report_dump" dot | dot -Tsvg 2> "$err" > /dev/null || {
    cat "$err"; exit 1; }
if [ -s "$err" ]; then
    echo "dot warned:"; cat "$err"; exit 1
fi
echo "ok: dot -Tsvg took it without a warning"
