#!/bin/sh
# The analytic model's single-backend estimates against the published
# latencies of doc/cost-model.md: each within 2x.  Rows whose shared model
# is absent are skipped; the encoders are generated (needs python3).
set -u
: "${BYOC:?}" "${top_srcdir:?}"
py=${PYTHON:-python3}
if ! "$py" -c 'import sys' 2>/dev/null; then
    echo "SKIP: no $py"
    exit 77
fi
out=$(sh "$top_srcdir/bench/calibrate/compare.sh" --check "$BYOC" "$top_srcdir/../shared/models" 2>&1)
rc=$?
echo "$out"
if [ $rc = 0 ]; then echo "PASS: every estimate within 2x of its published figure"; exit 0; fi
echo "FAIL: compare.sh --check (exit $rc)"
exit 1
