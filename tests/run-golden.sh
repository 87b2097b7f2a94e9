#!/usr/bin/env bash
# tests/run-golden.sh ADSOAC: golden tests, run from tests/ so paths (and file:line:col) are
# relative.  Regenerate the expected files with ADSOAC_UPDATE_GOLDEN=1.
#   golden/X.ir ->  adsoac --emit=ir X.c             must equal golden/X.ir, where X.c is
#                   golden/X.c, or the end-to-end test e2e/X.c; where golden/X.stderr exists,
#                   the derivatives are refused: stderr must equal it, and the exit status be 1
#   diag/X.c    ->  adsoac --target=c diag/X.c -o F  must fail, print exactly diag/X.err,
#                   and leave F as it was (here: a file holding "untouched");
#                   diag/warn_X.c must instead succeed, write F, and print diag/warn_X.err
set -u
adsoac=$(realpath "$1")
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
report() { # name ok detail
  if [ "$2" = ok ]; then echo "[PASS] $1"; pass=$((pass + 1)); else echo "[FAIL] $1: $3"; fail=$((fail + 1)); fi
}
for name in $( (ls golden/*.ir golden/*.c 2>/dev/null) | sed 's/\.[a-z]*$//' | sort -u); do
  exp=$name.ir
  c=$name.c
  [ -f "$c" ] || c=e2e/$(basename "$c")
  "$adsoac" --emit=ir "$c" >"$tmp/out.ir" 2>"$tmp/err"
  rc=$?
  serr=${exp%.ir}.stderr
  if [ -n "${ADSOAC_UPDATE_GOLDEN:-}" ]; then
    cp "$tmp/out.ir" "$exp"
    if [ $rc -ne 0 ] || [ -f "$serr" ]; then cp "$tmp/err" "$serr"; fi
  fi
  if [ -f "$serr" ]; then
    if [ $rc -ne 1 ]; then report "$c" fail "exit status $rc, expected 1"; continue; fi
    if ! diff -u "$serr" "$tmp/err" >"$tmp/diff"; then report "$c" fail "$(cat "$tmp/diff")"; continue; fi
  elif [ $rc -ne 0 ]; then
    report "$c" fail "adsoac failed: $(cat "$tmp/err")"; continue
  fi
  if diff -u "$exp" "$tmp/out.ir" >"$tmp/diff"; then report "$c" ok; else report "$c" fail "$(cat "$tmp/diff")"; fi
done
for c in diag/*.c; do
  exp=${c%.c}.err
  echo untouched >"$tmp/out.c"
  "$adsoac" --target=c "$c" -o "$tmp/out.c" 2>"$tmp/err"
  rc=$?
  if [ -n "${ADSOAC_UPDATE_GOLDEN:-}" ]; then cp "$tmp/err" "$exp"; fi
  case $(basename "$c") in
  warn_*)
    if [ $rc -ne 0 ]; then report "$c" fail "exit status $rc, expected 0"; continue; fi
    if [ "$(cat "$tmp/out.c")" = untouched ]; then report "$c" fail "no output written"; continue; fi ;;
  *)
    if [ $rc -ne 1 ]; then report "$c" fail "exit status $rc, expected 1"; continue; fi
    if [ "$(cat "$tmp/out.c")" != untouched ]; then report "$c" fail "output file was changed"; continue; fi ;;
  esac
  if ls "$tmp"/out.c.tmp* >/dev/null 2>&1; then report "$c" fail "temporary output left behind"; continue; fi
  if diff -u "$exp" "$tmp/err" >"$tmp/diff"; then report "$c" ok; else report "$c" fail "$(cat "$tmp/diff")"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
