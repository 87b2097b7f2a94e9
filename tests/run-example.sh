#!/usr/bin/env bash
# tests/run-example.sh OUTDIR: examples/dot.c translated, compiled, run (the gradient check
# of examples/dot_main.c must pass); with ADSOAC set to the translator under test.
set -euo pipefail
out=$1
cd "$(dirname "$0")/.."
mkdir -p "$out"
"$ADSOAC" --target=c examples/dot.c -o "$out/dot_grad.c"
cc -std=c11 -O2 -fopenmp -c "$out/dot_grad.c" -o "$out/dot_grad.o"
cc -std=c11 -O2 -Wno-unknown-pragmas -Ddot=dot_original -c examples/dot.c -o "$out/dot_original.o"
cc -std=c11 -O2 -fopenmp examples/dot_main.c "$out/dot_grad.o" "$out/dot_original.o" -lm -o "$out/dot_main"
"$out/dot_main"
