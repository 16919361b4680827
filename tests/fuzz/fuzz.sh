#!/bin/sh
# make fuzz: a short libFuzzer run of each harness (FUZZ_TIME seconds each,
# default 60), from seed corpora made of the project's own models, specs
# and regression inputs (and ../shared/models when present).
#
#   fuzz.sh SRCDIR BUILDDIR SECONDS [HARNESS...]     HARNESS: relay onnx byoc
#
# Each harness keeps its growing corpus in BUILDDIR/tests/fuzz/corpus/H
# (so a later run goes on from it) and writes any crash, leak, timeout or
# out-of-memory input to BUILDDIR/tests/fuzz/artifacts/H/; add a minimised
# one to tests/fuzz/regressions/ with its expected diagnostics.  Extra
# libFuzzer flags come from FUZZ_FLAGS (-jobs=2, -runs=N, ...).  Exit status
# 1 when a harness found something.
set -u
src=$(cd "${1:?srcdir}" && pwd) && build=$(cd "${2:?builddir}" && pwd) || exit 2
secs=${3:?seconds}
shift 3
[ $# -gt 0 ] || set -- relay onnx byoc
fz=$build/tests/fuzz
status=0

# Copy the seed files into the corpus folder under names of their own, so
# that libFuzzer's merge keeps them apart from what it finds.
seed() {
    d=$1; shift
    for f in "$@"; do
        [ -f "$f" ] || continue
        n=$(printf '%s' "$f" | sed 's|.*/\([^/]*/[^/]*\)$|\1|; s|/|_|g')
        cp "$f" "$d/seed_$n" 2>/dev/null
    done
}

# libFuzzer writes its job logs (-jobs=N: fuzz-N.log) where it runs.
cd "$fz" || exit 2
for h in "$@"; do
    bin=$fz/fuzz-$h
    if [ ! -x "$bin" ]; then
        echo "fuzz.sh: no $bin: configure with --enable-fuzz CC=clang and run make" >&2
        exit 2
    fi
    corpus=$fz/corpus/$h
    art=$fz/artifacts/$h
    mkdir -p "$corpus" "$art"
    case $h in
    relay)
        seed "$corpus" "$src"/examples/models/*.relay "$src"/tests/*/*.relay \
            "$src"/tests/*/*/*.relay "$src"/tests/fuzz/regressions/relay/*.relay
        [ -d "$src/../shared/models/relay" ] && seed "$corpus" "$src"/../shared/models/relay/*.relay
        ;;
    onnx)
        seed "$corpus" "$src"/tests/fuzz/regressions/onnx/*.onnx
        g=$build/tests/onnx
        if [ -x "$g/gen_onnx" ]; then
            "$g/gen_onnx" concat 3 "$corpus/seed_concat3.onnx"
            "$g/gen_onnx" chains 2 "$corpus/seed_chains2.onnx"
            for k in dense dense-nozp cnn; do "$g/gen_qdq" $k "$corpus/seed_qdq_$k.onnx"; done
            "$g/gen_cf" if "$corpus/seed_cf_if.onnx"
        fi >/dev/null 2>&1
        # One small model per op the reader knows, when python3 has onnx.
        for p in /usr/bin/python3 python3; do
            if "$p" -c 'import onnx, numpy' 2>/dev/null; then
                "$p" "$src/tests/fuzz/onnx_seeds.py" "$src/tests/fuzz/onnx.dict" "$corpus"
                break
            fi
        done
        # The shared models, the smaller ones: a mutated 200 KB model costs
        # as much as a hundred small ones.
        for d in onnx onnx-modern; do
            [ -d "$src/../shared/models/$d" ] &&
                seed "$corpus" $(find "$src/../shared/models/$d" -name '*.onnx' -size -16k)
        done
        ;;
    byoc)
        seed "$corpus" "$src"/examples/*.byoc "$src"/tests/golden/diag/*.byoc \
            "$src"/tests/*/*.byoc "$src"/tests/backends/*/*.byoc \
            "$src"/tests/fuzz/regressions/byoc/*.byoc
        ;;
    esac
    echo "fuzz.sh: $h for $secs s ($(ls "$corpus" | wc -l) inputs in the corpus)"
    # -timeout=1: an input over a second is a bug (tests/fuzz/README.md);
    # 2 GB for the process and for any one allocation.
    # shellcheck disable=SC2086
    "$bin" -max_total_time="$secs" -timeout=1 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
        -max_len=16384 -dict="$src/tests/fuzz/$h.dict" -artifact_prefix="$art/" \
        -print_final_stats=1 ${FUZZ_FLAGS:-} "$corpus" || status=1
done
exit $status
