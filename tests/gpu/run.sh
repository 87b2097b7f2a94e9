#!/usr/bin/env bash
# tests/gpu/run.sh ADSOAC [NVCC]: the end-to-end suite on a GPU (architecture.md §5.3): every
# test program's CUDA output, behind host-pointer shims (cuda_shim.py), must pass the same
# numeric checks as the C target's, then programs of each kind through their _async variants.
# Exits 77 (CTest: skipped) where no GPU is usable.
set -u
adsoac=$(realpath "$1")
nvcc=${2:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no GPU here: skipped"
  exit 77
fi
python3 "$here/../e2e/run_e2e.py" --adsoac "$adsoac" --nvcc "$nvcc" --cuda-run \
  --build-dir "${BUILD_DIR:-$(mktemp -d)}" -j 2 || exit 1
# and the _async variants (cuda_shim.py --async: a stream and a workspace of the shims')
exec python3 "$here/../e2e/run_e2e.py" --adsoac "$adsoac" --nvcc "$nvcc" --cuda-run --cuda-async \
  --build-dir "${BUILD_DIR:-$(mktemp -d)}-async" -j 2 dot gather csr hist_sum hist_ops scan_sum scan_struct \
  scan_ops gmm kmeans heat lstm struct_reduce user_reduce reduce_general windows nested inner_loops
