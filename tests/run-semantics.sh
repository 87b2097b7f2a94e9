#!/usr/bin/env bash
# tests/run-semantics.sh ADSOAC [ADSOAC-OPTION...]: language.md §7 (ties, zeros, kinks)
# checked exactly, and §10's across MPI ranks; options go to adsoac (e.g. --general-rule).
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
# across ranks (language.md §10): MPI_MAX, MPI_MIN, MPI_PROD with 1, 2 and 3 ranks
"$adsoac" --target=c "$@" mpi_ties.c -o "$tmp/mpi_ties_grad.c"
mpicc -std=c11 -O2 -fopenmp -c "$tmp/mpi_ties_grad.c" -o "$tmp/mpi_ties_grad.o"
mpicc -std=c11 -O2 -fopenmp mpi_ties_main.c "$tmp/mpi_ties_grad.o" -lm -o "$tmp/mpi_ties"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
  OMPI_MCA_btl_vader_single_copy_mechanism=none
for np in 1 2 3; do
  mpirun --oversubscribe -np $np "$tmp/mpi_ties"
done
