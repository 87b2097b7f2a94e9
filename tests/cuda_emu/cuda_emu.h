// tests/cuda_emu/cuda_emu.h: just enough of CUDA for g++ to run the runtime's kernels on the
// CPU (no GPU here): a block's threads are std::threads meeting at a std::barrier for
// __syncthreads, __shared__ variables are statics (the blocks of a launch run one after the
// other), device memory is host memory.  run-cuda-emu.sh rewrites each `k<<<g, b>>>(args);`
// of the runtime into adsoac_emu_launch(g, b, [&] { k(args); }).
#pragma once
#define ADSOAC_CUDA_EMU 1
#include <barrier>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <type_traits>
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

// The threads that run the blocks, made once and kept (a launch does not create threads):
// run(b, job) has workers 0 .. b-1 each call job(t) and returns when all have.
struct AdsoacEmuPool {
  std::mutex m;
  std::condition_variable go, done;
  unsigned made = 0, active = 0, finished = 0;
  unsigned long gen = 0;
  std::function<void(unsigned)> job;
  void worker(unsigned t) {
    unsigned long seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> l(m);
        go.wait(l, [&] { return gen != seen; });
        seen = gen;
        if (t >= active) continue;
      }
      job(t);
      std::lock_guard<std::mutex> l(m);
      if (++finished == active) done.notify_one();
    }
  }
  void run(unsigned b, std::function<void(unsigned)> f) {
    std::unique_lock<std::mutex> l(m);
    for (; made < b; made++) std::thread([this, t = made] { worker(t); }).detach();
    job = std::move(f);
    active = b, finished = 0, gen++;
    go.notify_all();
    done.wait(l, [&] { return finished == active; });
  }
};
inline AdsoacEmuPool &adsoac_emu_pool = *new AdsoacEmuPool; // (never destroyed: its threads wait on it at exit)

// What the emulated CUDA calls did, for the tests that a call of the generated code issues no
// host synchronization, allocates nothing with a workspace, and uses only the caller's stream:
// syncs (the host waited for the device: cudaStreamSynchronize, cudaDeviceSynchronize, a
// synchronous cudaMemcpy), allocs (cudaMalloc, cudaMallocAsync), default (launches and
// stream-ordered calls on the legacy default stream, 0), launches.
struct AdsoacEmuStats {
  long syncs, allocs, default_stream, launches;
};
inline AdsoacEmuStats adsoac_emu_stats;

struct CUstream_st;
typedef CUstream_st *cudaStream_t;
inline void adsoac_emu_on_(cudaStream_t s) {
  if (!s) adsoac_emu_stats.default_stream++;
}

// g blocks of b threads: each of the b threads runs the kernel for block 0, 1, ..., g-1, the
// block's threads meeting at the end of each (a block's shared memory is the next one's).
template <typename F> void adsoac_emu_launch(unsigned g, unsigned b, F f) {
  adsoac_emu_stats.launches++;
  adsoac_emu_stats.default_stream++;
  gridDim = {g, 1, 1};
  blockDim = {b, 1, 1};
  std::barrier<> bar((std::ptrdiff_t)b);
  adsoac_emu_bar = &bar;
  adsoac_emu_pool.run(b, [&](unsigned t) {
    threadIdx = {t, 0, 0};
    for (unsigned k = 0; k < g; k++) {
      blockIdx = {k, 0, 0};
      f();
      bar.arrive_and_wait();
    }
  });
}
// (a launch on a stream: k<<<g, b, shared bytes, stream>>>; the dynamic shared memory,
// adsoac_dyn_shm, one buffer that the blocks use one after the other)
inline unsigned char *adsoac_dyn_shm;
template <typename F> void adsoac_emu_launch(unsigned g, unsigned b, size_t shm, cudaStream_t s, F f) {
  std::vector<unsigned char> buf(shm ? shm : 1, 0xA5); // (not zeroed: neither is a GPU's)
  adsoac_dyn_shm = buf.data();
  adsoac_emu_launch(g, b, f);
  adsoac_dyn_shm = nullptr;
  adsoac_emu_stats.default_stream -= s != 0;
}

typedef enum { cudaSuccess = 0, cudaErrorMemoryAllocation = 2 } cudaError_t;
typedef enum {
  cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3
} cudaMemcpyKind;
inline const char *cudaGetErrorString(cudaError_t e) { return e ? "out of memory" : "no error"; }
inline cudaError_t cudaPeekAtLastError() { return cudaSuccess; }
inline cudaError_t cudaGetDevice(int *d) { return *d = 0, cudaSuccess; }
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return adsoac_emu_stats.syncs++, cudaSuccess; }
inline cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s) {
  adsoac_emu_on_(s);
  adsoac_emu_stats.allocs++;
  *p = malloc(n);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
inline cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s) {
  return adsoac_emu_on_(s), memset(p, v, n), cudaSuccess;
}
inline cudaError_t cudaFreeAsync(void *p, cudaStream_t s) { return adsoac_emu_on_(s), free(p), cudaSuccess; }
inline cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind) {
  return adsoac_emu_stats.syncs++, memcpy(d, s, n), cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, cudaMemcpyKind, cudaStream_t st) {
  return adsoac_emu_on_(st), memcpy(d, s, n), cudaSuccess;
}
template <typename T> cudaError_t cudaMemcpyToSymbol(T &sym, const void *s, size_t n) {
  return adsoac_emu_stats.syncs++, memcpy((void *)&sym, s, n), cudaSuccess;
}
template <typename T> cudaError_t cudaMemcpyFromSymbol(void *d, const T &sym, size_t n) {
  return adsoac_emu_stats.syncs++, memcpy(d, (const void *)&sym, n), cudaSuccess;
}
template <typename T>
cudaError_t cudaMemcpyToSymbolAsync(T &sym, const void *s, size_t n, size_t off, cudaMemcpyKind, cudaStream_t st) {
  return adsoac_emu_on_(st), memcpy((char *)&sym + off, s, n), cudaSuccess;
}
template <typename T>
cudaError_t cudaMemcpyFromSymbolAsync(void *d, const T &sym, size_t n, size_t off, cudaMemcpyKind, cudaStream_t st) {
  return adsoac_emu_on_(st), memcpy(d, (const char *)&sym + off, n), cudaSuccess;
}
template <typename T> cudaError_t cudaGetSymbolAddress(void **p, T &sym) {
  return *p = (void *)&sym, cudaSuccess;
}
inline cudaError_t cudaMalloc(void **p, size_t n) {
  adsoac_emu_stats.allocs++;
  *p = malloc(n ? n : 1);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
inline cudaError_t cudaFree(void *p) { return adsoac_emu_stats.syncs++, free(p), cudaSuccess; }
typedef enum { cudaLimitMallocHeapSize = 2 } cudaLimit;
inline cudaError_t cudaDeviceSetLimit(cudaLimit, size_t) { return cudaSuccess; }
inline cudaError_t cudaDeviceGetLimit(size_t *v, cudaLimit) { return *v = (size_t)1 << 30, cudaSuccess; }
inline cudaError_t cudaDeviceSynchronize() { return adsoac_emu_stats.syncs++, cudaSuccess; }
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaStreamCreate(cudaStream_t *s) { return *s = (cudaStream_t) new char, cudaSuccess; }
inline cudaError_t cudaStreamDestroy(cudaStream_t s) { return delete (char *)s, cudaSuccess; }

// atomicAdd on any arithmetic type: a compare-and-swap loop on its bits (integers: fetch-add)
template <typename T, typename V> T atomicAdd(T *p, V val) {
  T v = (T)val, old, nw;
  if constexpr (std::is_integral_v<T>) {
    return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
  } else {
    __atomic_load(p, &old, __ATOMIC_SEQ_CST);
    do nw = old + v;
    while (!__atomic_compare_exchange(p, &old, &nw, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    return old;
  }
}
template <typename U> U atomicCAS(U *p, U expected, U desired) {
  __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return expected;
}
