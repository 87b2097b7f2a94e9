#!/usr/bin/env bash
# tests/run-cuda-emu.sh BUILD_DIR: the CUDA runtime's kernels (--deterministic's scans, the
# reductions' block trees) run on the CPU by g++ (tests/cuda_emu), checked against sequential
# results; and its MPI collectives on device arrays against the host rules, under mpirun.
# The runtime is included as embedded, its launches rewritten for the emulation.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=$(mkdir -p "$1/cuda-emu" && cd "$1/cuda-emu" && pwd)
# the runtime's files, their launches rewritten
emu() {
  for f in "$@"; do cat "$root/runtime/src/$f"; done | python3 "$here/cuda_emu/emu_rewrite.py"
}
emu rt_common.h rt_cuda.cuh rt_cuda_scan_det.cuh rt_cuda_fields.cuh >"$out/runtime.inc"
${CXX:-g++} -std=c++20 -O1 -Wall -Wno-unused-function -pthread -I "$out" -I "$here/cuda_emu" \
  -I "$here/cuda_emu/include" "$here/cuda_emu/test_cuda_emu.cpp" -o "$out/test_cuda_emu"
"$out/test_cuda_emu"
# the MPI collectives on device arrays (a CUDA-aware MPI), with 1, 2, 3 ranks on loopback
if ! command -v mpicxx >/dev/null || ! command -v mpirun >/dev/null; then
  echo "no MPI (scripts/setup.sh installs Open MPI): the MPI part skipped" >&2
  exit 1
fi
emu rt_common.h rt_cuda.cuh rt_mpi.h >"$out/runtime_mpi.inc"
OMPI_CXX=${CXX:-g++} mpicxx -std=c++20 -O1 -Wall -Wno-unused-function -pthread -I "$out" \
  -I "$here/cuda_emu" -I "$here/cuda_emu/include" "$here/cuda_emu/test_mpi_emu.cpp" -o "$out/test_mpi_emu"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
  OMPI_MCA_btl_vader_single_copy_mechanism=none
for np in 1 2 3; do
  mpirun --oversubscribe -np $np "$out/test_mpi_emu"
done
