#!/usr/bin/env bash
# tests/run-checkpoint.sh ADSOAC: sequential loops. Strip-mined checkpointing (language.md
# §5): the peak memory of the saved states of a 1000-step heat stencil with stripmine 1, 2,
# 3, and the gradients agreeing across levels (their agreement with finite differences: e2e
# heat_steps). What a store-all loop keeps, as it is and strip-mined (its growth with the
# trip count: tests/checkpoint/costly_main.c). Then no lost adjoint updates from a
# sequential loop inside a parallel loop (OpenMP, several threads).
set -euo pipefail
adsoac=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$adsoac" --target=c "$here/e2e/heat_steps.c" -o "$tmp/heat_grad.c"
cc -std=c11 -O2 -fopenmp -c "$tmp/heat_grad.c" -o "$tmp/heat_grad.o"
cc -std=c11 -O2 -fopenmp -I "$here/../runtime/include" "$here/checkpoint/checkpoint_main.c" \
  "$tmp/heat_grad.o" -lm -o "$tmp/checkpoint"
"$tmp/checkpoint"
"$adsoac" --target=c "$here/checkpoint/costly.c" -o "$tmp/costly_grad.c"
cc -std=c11 -O2 -fopenmp -c "$tmp/costly_grad.c" -o "$tmp/costly_grad.o"
cc -std=c11 -O2 -fopenmp -I "$here/../runtime/include" "$here/checkpoint/costly_main.c" \
  "$tmp/costly_grad.o" -lm -o "$tmp/costly"
"$tmp/costly"
"$adsoac" --target=c "$here/checkpoint/inner_race.c" -o "$tmp/race_grad.c"
cc -std=c11 -O2 -fopenmp -c "$tmp/race_grad.c" -o "$tmp/race_grad.o"
cc -std=c11 -O2 -fopenmp "$here/checkpoint/inner_race_main.c" "$tmp/race_grad.o" -lm -o "$tmp/race"
OMP_NUM_THREADS=${OMP_NUM_THREADS:-4} "$tmp/race"
