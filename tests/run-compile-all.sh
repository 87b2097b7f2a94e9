#!/usr/bin/env bash
# tests/run-compile-all.sh ADSOAC [NVCC]: every test input that adsoac accepts and that the
# e2e suite does not already compile (tests/golden/*.c, tests/emit/*.c, the warn_ programs
# of tests/diag, examples/openmp) is translated with --target=c and compiled with cc -std=c11
# -O2 -Wall -Werror -fopenmp; with NVCC, the CUDA output of tests/emit/*.c and of
# examples/openmp is compiled too (issue 16: every output adsoac writes compiles, without a
# warning).
set -u
adsoac=$(realpath "$1")
nvcc=${2:-}
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
report() { # name ok detail
  if [ "$2" = ok ]; then echo "[PASS] $1"; pass=$((pass + 1)); else echo "[FAIL] $1: $3"; fail=$((fail + 1)); fi
}
for src in golden/*.c emit/*.c diag/warn_*.c ../examples/openmp/*/*.c; do
  name=$(basename "$src" .c)
  out=$tmp/${name}_grad.c
  if ! "$adsoac" --target=c "$src" -o "$out" 2>"$tmp/err"; then
    # a refusal is golden's business (golden/X.stderr); anything else is a failure
    grep -q ": error: " "$tmp/err" && [ -f "golden/$name.stderr" ] && continue
    report "$src" fail "adsoac failed: $(head -3 "$tmp/err")"
    continue
  fi
  if cc -std=c11 -O2 -Wall -Werror -fopenmp -I "$(dirname "$src")" -c "$out" -o "$tmp/x.o" 2>"$tmp/cc"; then
    report "$src (c, -Wall -Werror)" ok
  else
    report "$src (c, -Wall -Werror)" fail "$(head -20 "$tmp/cc")"
  fi
done
if [ -n "$nvcc" ]; then
  for src in emit/*.c ../examples/openmp/*/*.c; do
    out=$tmp/$(basename "$src" .c)_grad.cu
    if "$adsoac" "$src" -o "$out" 2>"$tmp/err" &&
       "$nvcc" -arch=sm_90 -O2 -Xcompiler -Wall -c "$out" -o "$tmp/x.o" 2>"$tmp/nv"; then
      report "$src (cuda)" ok
    else
      report "$src (cuda)" fail "$(head -20 "$tmp/err" "$tmp/nv")"
    fi
  done
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
