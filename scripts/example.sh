#!/usr/bin/env bash
# scripts/example.sh: end to end on examples/dot.c: install what is missing, build adsoac,
# translate the example to C, compile and run it (primal, gradient next to central finite
# differences), and, when nvcc is present, translate it to CUDA and compile that too.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
out=build/example
mkdir -p "$out"
echo "== adsoac --target=c examples/dot.c -o $out/dot_grad.c"
build/adsoac --target=c examples/dot.c -o "$out/dot_grad.c"
cc -std=c11 -O2 -fopenmp -c "$out/dot_grad.c" -o "$out/dot_grad.o"
cc -std=c11 -O2 -Wno-unknown-pragmas -Ddot=dot_original -c examples/dot.c -o "$out/dot_original.o"
cc -std=c11 -O2 -fopenmp examples/dot_main.c "$out/dot_grad.o" "$out/dot_original.o" -lm -o "$out/dot_main"
"$out/dot_main"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ -x "$NVCC" ]; then
  echo "== adsoac examples/dot.c -o $out/dot_grad.cu; nvcc -c"
  build/adsoac examples/dot.c -o "$out/dot_grad.cu"
  "$NVCC" -arch=sm_90 -O2 -c "$out/dot_grad.cu" -o "$out/dot_grad_cu.o"
  echo "CUDA output compiled: $out/dot_grad_cu.o"
else
  echo "(nvcc not found: CUDA output not compiled)"
fi
