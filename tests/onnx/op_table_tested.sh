#!/bin/sh
# Every op of the ONNX op table (runtime/onnx_ops.c) is built by some unit
# test: its name, as the table writes it (without a domain), appears as a
# string literal in the ONNX unit tests or the model generators they use.
# A new entry without a test fails here.
set -u
: "${top_srcdir:?}"
cd "$top_srcdir" || exit 99
table=runtime/onnx_ops.c
tests=$(ls tests/unit/test_onnx*.c tests/onnx/*.c tests/onnx/*.h 2>/dev/null)
ops=$(sed -n '/^static const ox_op_map op_table\[\] = {/,/^};/p' "$table" \
    | sed -n 's/^ *{"\([A-Za-z0-9_.]*\)", .*/\1/p')
[ -n "$ops" ] || { echo "FAIL: no op table in $table"; exit 1; }
n=0 missing=0
for op in $ops; do
    n=$((n + 1))
    base=${op##*.}
    # shellcheck disable=SC2086
    if ! grep -q "\"$base\"" $tests; then
        echo "FAIL: $op has no unit test"
        missing=$((missing + 1))
    fi
done
echo "$n ops in the table, $missing without a test"
[ "$missing" -eq 0 ]
