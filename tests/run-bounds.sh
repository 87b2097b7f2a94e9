#!/usr/bin/env bash
# tests/run-bounds.sh ADSOAC: loop bounds compared as C compares them (its usual arithmetic
# conversions): for every index type, bound type (integers of both signs and widths, float,
# double) and < / <=, the trip count of the translated loop against C's at extreme values
# (NaN, infinities, the types' ends, values the conversion to float rounds); the generated
# bound computations run under UBSan.
set -euo pipefail
adsoac=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/bounds/gen_bounds.py" "$tmp"
"$adsoac" --target=c "$tmp/bounds.c" -o "$tmp/bounds_grad.c" 2>"$tmp/warnings"
cc -std=c11 -O2 -Wall -Werror -fopenmp -fsanitize=undefined -fno-sanitize-recover=undefined \
  -c "$tmp/bounds_grad.c" -o "$tmp/bounds_grad.o"
cc -std=c11 -O1 -fopenmp "$tmp/bounds_main.c" "$tmp/bounds_grad.o" -fsanitize=undefined -lm \
  -o "$tmp/bounds"
OMP_NUM_THREADS=2 "$tmp/bounds"
