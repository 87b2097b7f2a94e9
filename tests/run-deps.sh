#!/usr/bin/env bash
# tests/run-deps.sh ADSOAC: -D and -I reach the macros of the translated code; -MD -MF write a
# make dependency file naming the input and every project header it includes (not <...>).
set -euo pipefail
adsoac=$(realpath "$1")
cd "$(dirname "$0")/deps"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$adsoac" --target=c -I include -DFACTOR=3 prog.c -o "$tmp/prog_grad.c" -MD -MF "$tmp/prog.d"
ir=$("$adsoac" --emit=ir -Iinclude -D FACTOR=3 prog.c)
grep -q 'const 3$' <<<"$ir" && grep -q 'const 10$' <<<"$ir" || fail "-D/-I: OFFSET is not FACTOR + INNER"
expected="$tmp/prog_grad.c: prog.c \\
  include/cfg.h \\
  include/inner.h

include/cfg.h:

include/inner.h:"
[ "$(cat "$tmp/prog.d")" = "$expected" ] || { cat "$tmp/prog.d"; fail "dependency file differs"; }
# -MD without -MF: OUTPUT.d beside the output
"$adsoac" --target=c -I include -DFACTOR=3 prog.c -o "$tmp/other.c" -MD
[ -f "$tmp/other.d" ] || fail "-MD did not write other.d"
# a header missing from -I: an error at its #include, as in a C compiler, and no output
if "$adsoac" --target=c -DFACTOR=3 prog.c -o "$tmp/bad.c" 2>"$tmp/err"; then fail "no error without -I"; fi
grep -q '^prog.c:3:1: error: cannot find "cfg.h"' "$tmp/err" || { cat "$tmp/err"; fail "wrong error"; }
[ ! -e "$tmp/bad.c" ] && [ ! -e "$tmp/bad.d" ] || fail "output written despite the error"
echo "1 passed, 0 failed"
