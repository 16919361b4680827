#!/bin/sh
# The real backends on the shared real models (../shared/models; the test is
# skipped when they are absent):
#  - what each backend can take on each Relay model, `byoc matches`, against
#    golden files checked by hand against ../shared/backends.md
#    (tests/backends/models/NAME.golden);
#  - partitions of resnet50, mobilenet and gpt2 and their float16 copies with
#    the cuda targets, and of resnet50 with the cpu targets: each search
#    (optimal, greedy, and each backend alone) passes the checker, which the
#    library runs on every result, and each backend alone places work on
#    itself whenever its rules admit some node, unless its kernels all lose
#    to native code on cost (then `byoc explain` must say so).
# BYOC_REGEN=1 rewrites the golden files.
set -u
: "${BYOC:?}" "${top_srcdir:?}"
models=$top_srcdir/../shared/models/relay
if [ ! -d "$models" ]; then
    echo "SKIP: $models is absent"
    exit 77
fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
gold=$top_srcdir/tests/backends/models

for f in "$models"/*.relay; do
    m=$(basename "$f" .relay)
    # Run from the models' folder so the golden names the file, not a path.
    if ! (cd "$models" && "$BYOC" matches "$m.relay") >"$tmp/out" 2>"$tmp/err"; then
        bad "matches $m: exit status"; cat "$tmp/err"; continue
    fi
    [ -n "${BYOC_REGEN:-}" ] && cp "$tmp/out" "$gold/$m.golden"
    if cmp -s "$gold/$m.golden" "$tmp/out"; then
        ok "matches $m"
    else
        bad "matches $m"; diff -u "$gold/$m.golden" "$tmp/out" | head -40
    fi
done

# What target T could take on model m, `byoc matches`, into $tmp/m.txt;
# then the count of calls and the first of them.
matches_of() { # model target
    "$BYOC" matches "$1" -t "$2" >"$tmp/m.txt"
}
takeable() { # target
    sed -n "s/^target $1 ([a-z]*): \([0-9]*\) of .*/\1/p" "$tmp/m.txt"
}
first_call() {
    sed -n 's/^  calls: \([^ ]*\).*/\1/p' "$tmp/m.txt" | head -1
}
# The partitions the result in JSON places on target T.
placed_on() { # json target
    tr ',{' '\n\n' <"$1" | grep -c "\"target\": *\"$2\""
}

check_device() { # model targets...
    model=$models/$1.relay; shift
    list=$(echo "$@" | tr ' ' ',')
    for s in optimal greedy; do
        if "$BYOC" partition "$model" -t "$list" --search $s -f json -o "$tmp/r.json" 2>"$tmp/err"; then
            ok "$(basename "$model") -t $list --search $s"
        else
            bad "$(basename "$model") -t $list --search $s"; cat "$tmp/err"
        fi
    done
    for t in "$@"; do
        matches_of "$model" "$t"
        n=$(takeable "$t")
        if ! "$BYOC" partition "$model" -t "$list" --search "single:$t" -f json -o "$tmp/r.json" \
            2>"$tmp/err"; then
            bad "$(basename "$model") single:$t"; cat "$tmp/err"; continue
        fi
        k=$(placed_on "$tmp/r.json" "$t")
        if [ "${n:-0}" -gt 0 ] && [ "$k" -eq 0 ]; then
            # Work T could take but did not get must have lost on cost:
            # explain names T as possible for the first call it can take.
            node=$(first_call)
            if "$BYOC" explain "$model" --node "$node" -t "$t" 2>&1 | grep -q "^  $t: possible"; then
                ok "$(basename "$model") single:$t ($n calls takeable, none cheaper than native code)"
            else
                bad "$(basename "$model") single:$t: $t can take $n calls but got none"
                "$BYOC" explain "$model" --node "$node" -t "$t"
            fi
        else
            ok "$(basename "$model") single:$t ($n calls takeable, $k partitions)"
        fi
    done
}

cuda="tensorrt cutlass cudnn cublas"
for m in resnet50 resnet50_16 mobilenet mobilenet_16 gpt2 gpt2_16; do
    [ -f "$models/$m.relay" ] && check_device "$m" $cuda
done
[ -f "$models/resnet50.relay" ] && check_device resnet50 dnnl

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
