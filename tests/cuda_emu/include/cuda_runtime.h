// tests/cuda_emu/include/cuda_runtime.h: <cuda_runtime.h> for code compiled by g++ against the
// CUDA emulation (run_e2e.py --cuda-emu).
#include "../cuda_emu.h"
