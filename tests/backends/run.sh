#!/bin/sh
# The real backends' rules, entry by entry: every tests/backends/*/*.relay
# is a small graph with directives at its top,
#   // expect TARGET PATTERN %ROOT    a holding match of PATTERN rooted at %ROOT
#   // reject TARGET PATTERN [%ROOT]  none rooted at %ROOT (without it: none at all)
#   // takes TARGET %N                some kernel of TARGET contains %N
#   // leaves TARGET %N               no kernel of TARGET contains %N
#   // option TARGET:NAME=VALUE       set before matching
# checked against `byoc matches FILE -t TARGETS`.  A pattern name that the
# target does not have is a failure, so a typo cannot pass as "no match".
set -u
: "${BYOC:?}" "${top_srcdir:?}"
dir=$top_srcdir/tests/backends
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0 files=0

for f in "$dir"/*/*.relay; do
    [ -f "$f" ] || continue
    files=$((files + 1))
    name=${f#"$dir"/}
    grep -E '^// (expect|reject|takes|leaves|option) ' "$f" | sed 's#^// ##' >"$tmp/dirs"
    if ! grep -qE '^(expect|reject|takes|leaves) ' "$tmp/dirs"; then
        echo "FAIL: $name: no directives"
        fail=$((fail + 1))
        continue
    fi
    targets=$(awk '$1 != "option" { print $2 }' "$tmp/dirs" | awk '!seen[$0]++' | paste -sd, -)
    set -- matches "$f" -t "$targets"
    while read -r kind arg rest; do
        [ "$kind" = option ] && set -- "$@" --option "$arg"
    done <"$tmp/dirs"
    if ! "$BYOC" "$@" >"$tmp/out" 2>"$tmp/err"; then
        echo "FAIL: $name: byoc $*:"
        cat "$tmp/err"
        fail=$((fail + 1))
        continue
    fi
    # One line per fact: "T pattern P ROOT", "T nomatch P", "T call N".
    awk '
        /^target / { t = $2; next }
        /^  pattern / { p = $2; sub(/:$/, "", p); print t, "known", p; next }
        /^    at / { for (i = 2; i <= NF; i++) print t, "root", p, $i; next }
        /^  no match: / { for (i = 3; i <= NF; i++) { print t, "known", $i; print t, "nomatch", $i }; next }
        /^  calls: / { for (i = 2; i <= NF; i++) print t, "call", $i; next }
    ' "$tmp/out" >"$tmp/facts"
    while read -r kind t a b; do
        ok=1 why=
        case $kind in
        option) continue ;;
        expect)
            grep -qxF "$t known $a" "$tmp/facts" || { ok=0; why="target $t has no pattern $a"; }
            [ $ok = 1 ] && { grep -qxF "$t root $a $b" "$tmp/facts" || { ok=0; why="no match of $a at $b"; }; } ;;
        reject)
            grep -qxF "$t known $a" "$tmp/facts" || { ok=0; why="target $t has no pattern $a"; }
            if [ $ok = 1 ] && [ -n "$b" ]; then
                grep -qxF "$t root $a $b" "$tmp/facts" && { ok=0; why="$a matches at $b"; }
            elif [ $ok = 1 ]; then
                grep -q "^$t root $a " "$tmp/facts" && { ok=0; why="$a matches"; }
            fi ;;
        takes)
            grep -qxF "$t call $a" "$tmp/facts" || { ok=0; why="$t cannot take $a"; } ;;
        leaves)
            grep -qxF "$t call $a" "$tmp/facts" && { ok=0; why="$t can take $a"; } ;;
        *) ok=0; why="unknown directive '$kind'" ;;
        esac
        if [ $ok = 1 ]; then
            pass=$((pass + 1))
        else
            echo "FAIL: $name: $kind $t $a $b: $why"
            fail=$((fail + 1))
        fi
    done <"$tmp/dirs"
done
echo "$files files, $pass directives held, $fail failed"
[ "$files" -gt 0 ] || exit 99
[ "$fail" -eq 0 ]
