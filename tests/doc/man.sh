#!/bin/sh
# The man pages: each formats without a groff warning and renders with
# man -l; every command and option that byoc --help and byocc --help list
# appears in byoc.1 and byocc.1, so the pages cannot silently drift from
# the programs.  Skipped (exit 77) when groff is absent.
set -u
: "${BYOC:?}" "${BYOCC:?}" "${top_srcdir:?}"
if ! command -v groff >/dev/null 2>&1; then
    echo "SKIP: groff is not installed"
    exit 77
fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
doc=$top_srcdir/doc

for page in byocc.1 byoc.1 byoc.5 libbyoc.3; do
    f=$doc/$page
    [ -f "$f" ] || { bad "$page: missing"; continue; }
    groff -ww -z -man "$f" >"$tmp/warn" 2>&1
    if [ -s "$tmp/warn" ]; then bad "$page: groff -ww"; cat "$tmp/warn"; else ok "$page: groff -ww"; fi
    if command -v man >/dev/null 2>&1; then
        MANWIDTH=80 man -l "$f" >"$tmp/out" 2>"$tmp/err" </dev/null
        if [ -s "$tmp/out" ] && ! [ -s "$tmp/err" ]; then ok "$page: man -l"
        else bad "$page: man -l"; cat "$tmp/err"; fi
    else
        echo "SKIP: $page: man -l (man is not installed)"
    fi
done

# The words of a page as groff renders them, one per line: what a reader
# sees, so escapes such as \- cannot hide a missing option.
words() { groff -man -Tutf8 -P-cbou "$1" 2>/dev/null | sed 's/\xe2\x80\x90/-/g' | tr -s ' \t,;:()[]|=.' '\n\n\n\n\n\n\n\n\n'; }
# Options in --help text: each -x or --xyz at a word start.
options() { grep -o -E '(^|[ [,])--?[A-Za-z][A-Za-z-]*' | sed 's/^[ [,]//' | sort -u; }

check_listed() {  # page program words...
    page=$1; prog=$2; shift 2
    words "$doc/$page" >"$tmp/words"
    for w in "$@"; do
        if grep -q -x -F -e "$w" "$tmp/words"; then ok "$page lists $prog $w"
        else bad "$page does not list $prog $w"; fi
    done
}

"$BYOC" --help >"$tmp/help" 2>&1 || bad "byoc --help: exit status"
cmds=$(sed -n '/^commands:/,/^options:/p' "$tmp/help" | sed -n 's/^  \([a-z][a-z]*\)\( .*\)\{0,1\}$/\1/p')
[ -n "$cmds" ] || bad "no commands found in byoc --help"
# shellcheck disable=SC2086
check_listed byoc.1 byoc $cmds $(options <"$tmp/help")

"$BYOCC" --help >"$tmp/help" 2>&1 || bad "byocc --help: exit status"
# shellcheck disable=SC2086
check_listed byocc.1 byocc $(options <"$tmp/help")

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
