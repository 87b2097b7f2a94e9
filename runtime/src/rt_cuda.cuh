// runtime/src/rt_cuda.cuh: what the CUDA target's generated code needs: checked device
// memory (stream-ordered, pooled: cudaMallocAsync), host access to single device elements,
// launch configuration, and the final stage of reductions (a block's tree in shared memory).
// The device-wide scans (rt_cuda_scan.cuh, with --deterministic rt_cuda_scan_det.cuh; then
// rt_cuda_fields.cuh for struct values) and the radix sort (rt_cuda_sort.cuh) follow only in
// the files that use them: CUB's algorithms take most of nvcc's time.
#include <cuda_runtime.h>

#ifndef ADSOAC_BLOCK // (a power of two; the tests' CPU emulation of CUDA sets fewer threads)
#define ADSOAC_BLOCK 256
#endif
#define ADSOAC_MAX_BLOCKS 1024
#define ADSOAC_CHECK(call) do { if (call) goto adsoac_fail; } while (0)

static inline __attribute__((unused)) int adsoac_cuda_(cudaError_t e, const char *fn, const char *what) {
  if (e == cudaSuccess) return 0;
  return adsoac_fail_(fn, "%s: %s", what, cudaGetErrorString(e));
}

static inline __attribute__((unused)) int adsoac_grid(long long n) {
  long long b = (n + ADSOAC_BLOCK - 1) / ADSOAC_BLOCK;
  return (int)(b < 1 ? 1 : b > ADSOAC_MAX_BLOCKS ? ADSOAC_MAX_BLOCKS : b);
}

// After a kernel launch: the launch's error, read without clearing it (cudaPeekAtLastError):
// the caller's CUDA state is the caller's.  An error still pending from the caller's own
// work fails the generated function too (it is reported, never taken away).
static inline __attribute__((unused)) int adsoac_launched(const char *fn) {
  return adsoac_cuda_(cudaPeekAtLastError(), fn, "kernel launch");
}

static inline __attribute__((unused)) int adsoac_dev_alloc(void **p, size_t bytes, const char *fn) {
  *p = NULL;
  if (adsoac_cuda_(cudaMallocAsync(p, bytes ? bytes : 1, 0), fn, "cudaMallocAsync")) return 1;
  return adsoac_cuda_(cudaMemsetAsync(*p, 0, bytes ? bytes : 1, 0), fn, "cudaMemsetAsync");
}

static inline __attribute__((unused)) void adsoac_dev_free(void *p) {
  if (p) cudaFreeAsync(p, 0);
}

static inline __attribute__((unused)) int adsoac_load(void *host, const void *dev, size_t bytes, const char *fn) {
  return adsoac_cuda_(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), fn, "cudaMemcpy");
}

static inline __attribute__((unused)) int adsoac_store(void *dev, const void *host, size_t bytes, const char *fn) {
  return adsoac_cuda_(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), fn, "cudaMemcpy");
}

// A file-scope array that kernels read: its host contents copied to its device copy sym, and
// *p set to the copy's address.
template <typename T>
static inline __attribute__((unused)) int adsoac_dev_global(void **p, T &sym, const void *host,
                                                            size_t bytes, const char *fn) {
  if (adsoac_cuda_(cudaMemcpyToSymbol(sym, host, bytes), fn, "cudaMemcpyToSymbol")) return 1;
  return adsoac_cuda_(cudaGetSymbolAddress(p, sym), fn, "cudaGetSymbolAddress");
}
static inline __attribute__((unused)) int adsoac_dev_copy(void *dst, const void *src, size_t bytes, const char *fn) {
  if (!bytes) return 0;
  return adsoac_cuda_(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0), fn,
                      "cudaMemcpyAsync");
}

template <typename T> static __global__ void adsoac_swap_kernel(T *a, T *b, long long n) {
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n;
       k += (long long)gridDim.x * blockDim.x) {
    T t = a[k];
    a[k] = b[k];
    b[k] = t;
  }
}

template <typename T> static inline __attribute__((unused)) int adsoac_dev_swap(T *a, T *b, long long n, const char *fn) {
  if (n <= 0) return 0;
  adsoac_swap_kernel<T><<<adsoac_grid(n), ADSOAC_BLOCK>>>(a, b, n);
  return adsoac_launched(fn);
}

// A thread that could not allocate its iteration's arrays (device malloc) sets this and skips
// the rest of the iteration; the function then fails (adsoac_priv_check).
static __device__ int adsoac_priv_oom_;

static __device__ __attribute__((unused)) void *adsoac_dev_calloc(size_t n, size_t size) {
  void *p = malloc(n ? n * size : size);
  if (p) memset(p, 0, n * size);
  return p;
}

static inline __attribute__((unused)) int adsoac_priv_check(const char *fn) {
  int oom = 0;
  if (cudaMemcpyFromSymbol(&oom, adsoac_priv_oom_, sizeof oom) != cudaSuccess || !oom) return 0;
  oom = 0;
  cudaMemcpyToSymbol(adsoac_priv_oom_, &oom, sizeof oom);
  return adsoac_fail_(fn, "out of memory for the arrays of a parallel loop's iterations "
                          "(device malloc: raise cudaLimitMallocHeapSize)");
}

// n elements of type T copied (or, with swap, exchanged) between a and b, whose elements are
// sa and sb bytes apart: a field of an array of structs (p[k].f) and a saved copy of it.
template <typename T>
static __global__ void adsoac_strided_kernel(T *a, size_t sa, T *b, size_t sb, long long n,
                                             bool swap) {
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n;
       k += (long long)gridDim.x * blockDim.x) {
    T *x = (T *)((char *)a + k * sa), *y = (T *)((char *)b + k * sb);
    T t = *y;
    if (swap) *y = *x;
    *x = t;
  }
}

// dst[k] = src[k] (swap: the two exchanged) for k < n.
template <typename T>
static inline __attribute__((unused)) int adsoac_dev_strided(T *dst, size_t sd, const T *src,
                                                             size_t ss, long long n, bool swap,
                                                             const char *fn) {
  if (n <= 0) return 0;
  adsoac_strided_kernel<T><<<adsoac_grid(n), ADSOAC_BLOCK>>>(dst, sd, (T *)src, ss, n, swap);
  return adsoac_launched(fn);
}

// The operators of reductions (a tie of min/max keeps the first operand).
struct AdsoacSum {
  template <typename T> __host__ __device__ T operator()(T a, T b) const { return a + b; }
};
struct AdsoacProd {
  template <typename T> __host__ __device__ T operator()(T a, T b) const { return a * b; }
};
struct AdsoacMin {
  template <typename T> __host__ __device__ T operator()(T a, T b) const { return b < a ? b : a; }
};
struct AdsoacMax {
  template <typename T> __host__ __device__ T operator()(T a, T b) const { return b > a ? b : a; }
};

// The values v of the block's first `valid` threads combined (a tree over shared memory, the
// same shape every time; the operators of reductions commute), returned to thread 0.  Every
// thread of the block calls it.  (Hand-written rather than CUB's BlockReduce, whose headers
// would take most of nvcc's time for a file of reductions.)
template <typename T, typename Op>
static __device__ T adsoac_block_fold_(T v, Op op, int valid) {
  __shared__ __align__(16) unsigned char raw[ADSOAC_BLOCK * sizeof(T)];
  T *buf = reinterpret_cast<T *>(raw);
  __syncthreads(); // (an earlier fold's reads of buf are done)
  buf[threadIdx.x] = v;
  __syncthreads();
  for (int s = ADSOAC_BLOCK / 2; s > 0; s >>= 1) {
    if ((int)threadIdx.x < s && (int)threadIdx.x + s < valid)
      buf[threadIdx.x] = op(buf[threadIdx.x], buf[threadIdx.x + s]);
    __syncthreads();
  }
  return buf[0];
}

// Reduces the per-block partials of a reduction in one block; out is a device scalar.  Block
// b's partial is part[b].
template <typename T, typename Op>
static __global__ void adsoac_reduce_kernel(const T *part, int n, T *out, Op op) {
  T s = part[(int)threadIdx.x < n ? threadIdx.x : 0]; // threads past n are not counted below
  for (int k = threadIdx.x + ADSOAC_BLOCK; k < n; k += ADSOAC_BLOCK) s = op(s, part[k]);
  T total = adsoac_block_fold_(s, op, n < ADSOAC_BLOCK ? n : ADSOAC_BLOCK);
  if (threadIdx.x == 0) *out = total;
}

// host_out = part[0] OP ... OP part[n-1]; part must have room for n + 1 elements (the last is
// scratch).  n >= 1.
template <typename T, typename Op>
static inline __attribute__((unused)) int adsoac_reduce(T *part, int n, T *host_out, Op op,
                                                        const char *fn) {
  adsoac_reduce_kernel<T, Op><<<1, ADSOAC_BLOCK>>>(part, n, part + n, op);
  if (adsoac_launched(fn)) return 1;
  return adsoac_load(host_out, part + n, sizeof(T), fn);
}

// Block-level reduction of a thread's partial; thread 0 stores it at part[blockIdx.x].
template <typename T, typename Op>
static __device__ void adsoac_block_reduce(T v, T *part, Op op) {
  T total = adsoac_block_fold_(v, op, (int)blockDim.x);
  if (threadIdx.x == 0) part[blockIdx.x] = total;
}

// *p = op(*p, v) atomically, by a compare-and-swap loop on the bits of *p (histogram updates
// whose operator has no hardware atomic).
template <int N> struct AdsoacBits;
template <> struct AdsoacBits<4> { typedef unsigned int U; };
template <> struct AdsoacBits<8> { typedef unsigned long long U; };

template <typename T, typename Op>
static __device__ void adsoac_atomic_op(T *p, T v, Op op) {
  typedef typename AdsoacBits<sizeof(T)>::U U;
  U *q = (U *)p, old = *q, assumed;
  do {
    assumed = old;
    T cur, nw;
    memcpy(&cur, &assumed, sizeof cur);
    nw = op(cur, v);
    U bits;
    memcpy(&bits, &nw, sizeof bits);
    if (bits == assumed) return;
    old = atomicCAS(q, assumed, bits);
  } while (old != assumed);
}
