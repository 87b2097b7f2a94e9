#!/usr/bin/env bash
# tests/run-cuda-emu.sh BUILD_DIR: the CUDA runtime's kernels (--deterministic's scans, the
# reductions' block trees) run on the CPU by g++ (tests/cuda_emu), checked against sequential
# results.  The runtime is included as embedded, its launches rewritten for the emulation.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=$(mkdir -p "$1/cuda-emu" && cd "$1/cuda-emu" && pwd)
for f in rt_common.h rt_cuda.cuh rt_cuda_scan_det.cuh rt_cuda_fields.cuh; do
  cat "$root/runtime/src/$f"
done | python3 -c '
import re, sys
s = sys.stdin.read().replace("#include <cuda_runtime.h>", "")
# k<T, Op><<<g, b>>>(args);  ->  adsoac_emu_launch(g, b, [&] { k<T, Op>(args); });
s, n = re.subn(r"(\w+(?:<[^<>()]*>)?)<<<(.*?)>>>\((.*)\);", r"adsoac_emu_launch(\2, [&] { \1(\3); });", s)
assert n >= 5, n
sys.stdout.write(s)' >"$out/runtime.inc"
${CXX:-g++} -std=c++20 -O1 -Wall -Wno-unused-function -pthread -I "$out" -I "$here/cuda_emu" \
  "$here/cuda_emu/test_cuda_emu.cpp" -o "$out/test_cuda_emu"
"$out/test_cuda_emu"
