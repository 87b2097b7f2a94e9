#!/usr/bin/env bash
# tests/run-semantics.sh ADSOAC [ADSOAC-OPTION...]: language.md §7 (ties, zeros, kinks)
# checked exactly; options go to adsoac (e.g. --general-rule).
set -euo pipefail
adsoac=$(realpath "$1")
shift
cd "$(dirname "$0")/semantics"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$adsoac" --target=c "$@" ties.c -o "$tmp/ties_grad.c"
cc -std=c11 -O2 -fopenmp -c "$tmp/ties_grad.c" -o "$tmp/ties_grad.o"
cc -std=c11 -O2 -fopenmp ties_main.c "$tmp/ties_grad.o" -lm -o "$tmp/ties"
"$tmp/ties"
