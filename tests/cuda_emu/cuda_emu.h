// tests/cuda_emu/cuda_emu.h: just enough of CUDA for g++ to run the runtime's kernels on the
// CPU (no GPU here): a block's threads are std::threads meeting at a std::barrier for
// __syncthreads, __shared__ variables are statics (the blocks of a launch run one after the
// other), device memory is host memory.  run-cuda-emu.sh rewrites each `k<<<g, b>>>(args);`
// of the runtime into adsoac_emu_launch(g, b, [&] { k(args); }).
#include <barrier>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(n)

struct dim3 {
  unsigned x, y, z;
};
inline thread_local dim3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;
inline std::barrier<> *adsoac_emu_bar;
inline void __syncthreads() { adsoac_emu_bar->arrive_and_wait(); }

// g blocks of b threads: each of the b threads runs the kernel for block 0, 1, ..., g-1, the
// block's threads meeting at the end of each (a block's shared memory is the next one's).
template <typename F> void adsoac_emu_launch(unsigned g, unsigned b, F f) {
  gridDim = {g, 1, 1};
  blockDim = {b, 1, 1};
  std::barrier<> bar((std::ptrdiff_t)b);
  adsoac_emu_bar = &bar;
  std::vector<std::thread> ts;
  for (unsigned t = 0; t < b; t++)
    ts.emplace_back([&, t] {
      threadIdx = {t, 0, 0};
      for (unsigned k = 0; k < g; k++) {
        blockIdx = {k, 0, 0};
        f();
        bar.arrive_and_wait();
      }
    });
  for (auto &t : ts) t.join();
}

typedef enum { cudaSuccess = 0, cudaErrorMemoryAllocation = 2 } cudaError_t;
typedef enum {
  cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3
} cudaMemcpyKind;
typedef void *cudaStream_t;
inline const char *cudaGetErrorString(cudaError_t e) { return e ? "out of memory" : "no error"; }
inline cudaError_t cudaPeekAtLastError() { return cudaSuccess; }
inline cudaError_t cudaStreamSynchronize(int) { return cudaSuccess; }
inline cudaError_t cudaMallocAsync(void **p, size_t n, int) {
  *p = malloc(n);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
inline cudaError_t cudaMemsetAsync(void *p, int v, size_t n, int) { return memset(p, v, n), cudaSuccess; }
inline cudaError_t cudaFreeAsync(void *p, int) { return free(p), cudaSuccess; }
inline cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind) {
  return memcpy(d, s, n), cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, cudaMemcpyKind, int) {
  return memcpy(d, s, n), cudaSuccess;
}
template <typename T> cudaError_t cudaMemcpyToSymbol(T &sym, const void *s, size_t n) {
  return memcpy((void *)&sym, s, n), cudaSuccess;
}
template <typename T> cudaError_t cudaMemcpyFromSymbol(void *d, const T &sym, size_t n) {
  return memcpy(d, (const void *)&sym, n), cudaSuccess;
}
template <typename T> cudaError_t cudaGetSymbolAddress(void **p, T &sym) {
  return *p = (void *)&sym, cudaSuccess;
}
template <typename U> U atomicCAS(U *p, U expected, U desired) {
  __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return expected;
}
