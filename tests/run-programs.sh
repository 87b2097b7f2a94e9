#!/usr/bin/env bash
# tests/run-programs.sh ADSOAC [NVCC]: whole programs (tests/programs/*.c, each with its own
# main) built as written and as translated (--target=c: the output keeps main, which calls
# the generated f), run, and their outputs compared; with NVCC, the CUDA output compiled too.
set -euo pipefail
adsoac=$(realpath "$1")
nvcc=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/tests/programs"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for src in *.c; do
  name=${src%.c}
  cc -std=c11 -O2 -Wall -Werror -Wno-unknown-pragmas "$src" -lm -o "$tmp/$name.orig"
  "$adsoac" --target=c "$src" -o "$tmp/${name}_grad.c"
  cc -std=c11 -O2 -Wall -Werror -fopenmp "$tmp/${name}_grad.c" -lm -o "$tmp/$name.tr"
  "$tmp/$name.orig" >"$tmp/$name.want"
  if ! "$tmp/$name.tr" >"$tmp/$name.got"; then
    echo "FAIL $name: the translated program failed"; fail=1; continue
  fi
  if ! diff -u "$tmp/$name.want" "$tmp/$name.got"; then
    echo "FAIL $name: outputs differ"; fail=1; continue
  fi
  if [[ -n $nvcc ]]; then
    "$adsoac" --target=cuda "$src" -o "$tmp/${name}_grad.cu"
    "$nvcc" -I"$root/runtime/include" -Werror all-warnings -c \
      "$tmp/${name}_grad.cu" -o "$tmp/${name}_cu.o"
  fi
  echo "PASS $name"
done
exit $fail
