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
// the most bytes of a kernel's copies of its histograms in a block's shared memory
#ifndef ADSOAC_SHARED_HIST
#define ADSOAC_SHARED_HIST 32768
#endif
#ifndef ADSOAC_CUDA_EMU // (the emulation has its own: cuda_emu.h)
extern __shared__ __align__(16) unsigned char adsoac_dyn_shm[];
#endif
#define ADSOAC_CHECK(call) do { if (call) goto adsoac_fail; } while (0)

// The device memory that f_async, f_vjp_async and f_jvp_async take their temporaries from:
// base/bytes given by the caller, need set by the calls.  (The same definition as adsoac.h's
// and the generated header's, under the same guard: the output includes neither.)
#ifndef ADSOAC_WORKSPACE_DEFINED
#define ADSOAC_WORKSPACE_DEFINED
typedef struct AdsoacWorkspace {
  void *base;   // device memory for temporaries, or NULL
  size_t bytes; // its size
  size_t need;  // the most bytes of temporaries that a call with this workspace held at once
} AdsoacWorkspace;
#endif

// What a generated function's calls of the runtime share: its name (in errors), the stream
// that all its work goes to, and the workspace its temporaries come from, as a stack of
// blocks (a block freed below the top is reused once those above it are freed too).
#define ADSOAC_SLOTS 64
#define ADSOAC_CELL 16 // the bytes of a scalar kept on the device (adsoac_cells)
#define ADSOAC_ALIGN ((size_t)256)
typedef struct {
  void *p;
  size_t off;     // where in the workspace (as if every block below had fit)
  bool dead, own; // freed; allocated apart (it did not fit)
} AdsoacBlock;
typedef struct {
  const char *fn;
  cudaStream_t s;
  AdsoacWorkspace *ws; // NULL: every temporary from cudaMallocAsync on s
  size_t top;
  int n, cap;
  AdsoacBlock *b; // the stack: inl, or host memory where it outgrew it (adsoac_end_ frees)
  AdsoacBlock inl[ADSOAC_SLOTS];
} AdsoacCx;

static inline __attribute__((unused)) int adsoac_cuda_(cudaError_t e, AdsoacCx *cx, const char *what) {
  if (e == cudaSuccess) return 0;
  return adsoac_fail_(cx->fn, "%s: %s", what, cudaGetErrorString(e));
}

static inline __attribute__((unused)) void adsoac_begin_(AdsoacCx *cx, const char *fn,
                                                         AdsoacWorkspace *ws, cudaStream_t s) {
  cx->fn = fn, cx->s = s, cx->ws = ws, cx->top = 0, cx->n = 0, cx->cap = ADSOAC_SLOTS, cx->b = cx->inl;
}

static inline __attribute__((unused)) void adsoac_end_(AdsoacCx *cx) {
  if (cx->b != cx->inl) free(cx->b);
  cx->b = cx->inl, cx->cap = ADSOAC_SLOTS;
}

// Room for one more block on the stack (false: none, and the block is allocated apart).
static inline __attribute__((unused)) bool adsoac_room_(AdsoacCx *cx) {
  if (cx->n < cx->cap) return true;
  AdsoacBlock *b = (AdsoacBlock *)malloc(sizeof *b * (size_t)cx->cap * 2);
  if (!b) return false;
  memcpy(b, cx->b, sizeof *b * (size_t)cx->n);
  if (cx->b != cx->inl) free(cx->b);
  cx->b = b, cx->cap *= 2;
  return true;
}

// The workspace of the calling thread's synchronous calls (f, f_vjp, f_jvp), kept between
// calls on the device where it was made; before each call it grows to what the calls so far
// needed at once, so that a repeated call allocates nothing.
typedef struct {
  AdsoacWorkspace ws;
  int dev;
} AdsoacThreadWs;
ADSOAC_EXTERN_C ADSOAC_WEAK AdsoacThreadWs *adsoac_thread_ws_(void) {
  static ADSOAC_TLS AdsoacThreadWs t = {{NULL, 0, 0}, -1};
  return &t;
}

// Frees the device memory that the calling thread's synchronous calls keep (adsoac.h).
ADSOAC_EXTERN_C ADSOAC_WEAK void adsoac_release_memory(void) {
  AdsoacThreadWs *t = adsoac_thread_ws_();
  if (t->ws.base) cudaFree(t->ws.base);
  t->ws.base = NULL, t->ws.bytes = t->ws.need = 0, t->dev = -1;
}

// A synchronous call: the legacy default stream and the thread's workspace (without one when
// it cannot be had: the temporaries are then allocated apart).
static inline __attribute__((unused)) void adsoac_sync_begin_(AdsoacCx *cx, const char *fn) {
  AdsoacThreadWs *t = adsoac_thread_ws_();
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) dev = -2;
  if (t->dev != dev) adsoac_release_memory();
  if (t->ws.need > t->ws.bytes) {
    size_t need = t->ws.need;
    if (t->ws.base) cudaFree(t->ws.base);
    t->ws.base = NULL, t->ws.bytes = 0;
    cudaError_t pending = cudaPeekAtLastError();
    if (cudaMalloc(&t->ws.base, need) == cudaSuccess) t->ws.bytes = need;
    else if (t->ws.base = NULL, pending == cudaSuccess) (void)cudaGetLastError(); // (ours, not the caller's)
  }
  t->dev = dev;
  adsoac_begin_(cx, fn, &t->ws, 0);
}

// The end of a synchronous call: its work finished (language.md: the functions return when
// their results are complete).  Returns 1 if the call or its work failed.
static inline __attribute__((unused)) int adsoac_sync_end_(AdsoacCx *cx, int bad) {
  return adsoac_cuda_(cudaStreamSynchronize(cx->s), cx, "cudaStreamSynchronize") || bad;
}

static inline __attribute__((unused)) int adsoac_grid(long long n) {
  long long b = (n + ADSOAC_BLOCK - 1) / ADSOAC_BLOCK;
  return (int)(b < 1 ? 1 : b > ADSOAC_MAX_BLOCKS ? ADSOAC_MAX_BLOCKS : b);
}

// After a kernel launch: the launch's error, read without clearing it (cudaPeekAtLastError):
// the caller's CUDA state is the caller's.  An error still pending from the caller's own
// work fails the generated function too (it is reported, never taken away).
static inline __attribute__((unused)) int adsoac_launched(AdsoacCx *cx) {
  return adsoac_cuda_(cudaPeekAtLastError(), cx, "kernel launch");
}

// *p = bytes of device memory (zeroed with zero): the next block of the workspace where it fits, else
// cudaMallocAsync (stream-ordered, as is everything of the call).
static inline __attribute__((unused)) int adsoac_dev_alloc_(void **p, size_t bytes, int zero, AdsoacCx *cx) {
  size_t n = bytes ? bytes : 1;
  *p = NULL;
  AdsoacWorkspace *ws = cx->ws;
  if (ws && adsoac_room_(cx)) {
    AdsoacBlock *b = &cx->b[cx->n++];
    b->off = cx->top, b->dead = false;
    cx->top += (n + ADSOAC_ALIGN - 1) / ADSOAC_ALIGN * ADSOAC_ALIGN;
    if (cx->top > ws->need) ws->need = cx->top;
    b->own = !ws->base || cx->top > ws->bytes;
    if (!b->own) *p = (char *)ws->base + b->off;
    else if (adsoac_cuda_(cudaMallocAsync(p, n, cx->s), cx, "cudaMallocAsync")) {
      cx->top = b->off, cx->n--;
      return 1;
    }
    b->p = *p;
  } else if (adsoac_cuda_(cudaMallocAsync(p, n, cx->s), cx, "cudaMallocAsync")) {
    return 1;
  }
#ifdef ADSOAC_POISON_RAW // (the tests: an unzeroed block read before it is written gives NaN)
  if (!zero) return adsoac_cuda_(cudaMemsetAsync(*p, 0xff, n, cx->s), cx, "cudaMemsetAsync");
#endif
  return zero ? adsoac_cuda_(cudaMemsetAsync(*p, 0, n, cx->s), cx, "cudaMemsetAsync") : 0;
}

// Zeroed device memory (the adjoints a reverse sweep accumulates into start at 0).
static inline __attribute__((unused)) int adsoac_dev_alloc(void **p, size_t bytes, AdsoacCx *cx) {
  return adsoac_dev_alloc_(p, bytes, 1, cx);
}

// Device memory that is not zeroed: the first kernel over it writes every element
// (transform/zero.c).
static inline __attribute__((unused)) int adsoac_dev_alloc_raw(void **p, size_t bytes, AdsoacCx *cx) {
  return adsoac_dev_alloc_(p, bytes, 0, cx);
}

static inline __attribute__((unused)) void adsoac_dev_free(void *p, AdsoacCx *cx) {
  if (!p) return;
  int k = cx->n - 1;
  while (k >= 0 && cx->b[k].p != p) k--;
  if (k < 0 || cx->b[k].own) cudaFreeAsync(p, cx->s);
  if (k < 0) return;
  cx->b[k].dead = true;
  while (cx->n && cx->b[cx->n - 1].dead) cx->top = cx->b[--cx->n].off;
}

// A value the host needs: copied on the call's stream, which the host then waits for.
static inline __attribute__((unused)) int adsoac_load(void *host, const void *dev, size_t bytes, AdsoacCx *cx) {
  return adsoac_cuda_(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, cx->s), cx, "cudaMemcpyAsync") ||
         adsoac_cuda_(cudaStreamSynchronize(cx->s), cx, "cudaStreamSynchronize");
}

// Host memory copied to the device (MPI's staging), finished before the host memory is reused.
static inline __attribute__((unused)) int adsoac_store(void *dev, const void *host, size_t bytes, AdsoacCx *cx) {
  return adsoac_cuda_(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, cx->s), cx, "cudaMemcpyAsync") ||
         adsoac_cuda_(cudaStreamSynchronize(cx->s), cx, "cudaStreamSynchronize");
}

// One value written to (or added to) a device element by a kernel of one thread: the value
// travels as the launch's argument, so the host waits for nothing.
template <typename T> static __global__ void adsoac_put_kernel(T *dst, T v) {
  *dst = v;
}
template <typename T> static __global__ void adsoac_add_kernel(T *dst, T v) {
  *dst += v;
}
template <typename T>
static inline __attribute__((unused)) int adsoac_put(T *dst, T v, AdsoacCx *cx) {
  adsoac_put_kernel<T><<<1, 1, 0, cx->s>>>(dst, v);
  return adsoac_launched(cx);
}
template <typename T>
static inline __attribute__((unused)) int adsoac_add(T *dst, T v, AdsoacCx *cx) {
  adsoac_add_kernel<T><<<1, 1, 0, cx->s>>>(dst, v);
  return adsoac_launched(cx);
}

// *dst += *v, both on the device (a host-level update by a value kept on the device).
template <typename T> static __global__ void adsoac_add_at_kernel(T *dst, const T *v) {
  *dst += *v;
}
template <typename T>
static inline __attribute__((unused)) int adsoac_add_at(T *dst, const T *v, AdsoacCx *cx) {
  adsoac_add_at_kernel<T><<<1, 1, 0, cx->s>>>(dst, v);
  return adsoac_launched(cx);
}

// A generated function's result: into the caller's device pointer (the _async variants) or
// host variable (the synchronous ones).
template <typename T>
static inline __attribute__((unused)) int adsoac_result(T *dev, T *host, T v, AdsoacCx *cx) {
  if (host) *host = v;
  return dev ? adsoac_put(dev, v, cx) : 0;
}

// A file-scope array that kernels read: its host contents copied to its device copy sym, and
// *p set to the copy's address.  (From pageable host memory: the stream is waited for.)
template <typename T>
static inline __attribute__((unused)) int adsoac_dev_global(void **p, T &sym, const void *host,
                                                            size_t bytes, AdsoacCx *cx) {
  if (adsoac_cuda_(cudaMemcpyToSymbolAsync(sym, host, bytes, 0, cudaMemcpyHostToDevice, cx->s), cx,
                   "cudaMemcpyToSymbolAsync"))
    return 1;
  return adsoac_cuda_(cudaGetSymbolAddress(p, sym), cx, "cudaGetSymbolAddress");
}
static inline __attribute__((unused)) int adsoac_dev_copy(void *dst, const void *src, size_t bytes, AdsoacCx *cx) {
  if (!bytes) return 0;
  return adsoac_cuda_(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, cx->s), cx,
                      "cudaMemcpyAsync");
}
// (a result kept on the device, at v: to the host it is a copy the host waits for)
template <typename T>
static inline __attribute__((unused)) int adsoac_result_at(T *dev, T *host, const T *v, AdsoacCx *cx) {
  if (host && adsoac_load(host, v, sizeof(T), cx)) return 1;
  return dev ? adsoac_dev_copy(dev, v, sizeof(T), cx) : 0;
}

template <typename T> static __global__ void adsoac_swap_kernel(T *a, T *b, long long n) {
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n;
       k += (long long)gridDim.x * blockDim.x) {
    T t = a[k];
    a[k] = b[k];
    b[k] = t;
  }
}

template <typename T> static inline __attribute__((unused)) int adsoac_dev_swap(T *a, T *b, long long n, AdsoacCx *cx) {
  if (n <= 0) return 0;
  adsoac_swap_kernel<T><<<adsoac_grid(n), ADSOAC_BLOCK, 0, cx->s>>>(a, b, n);
  return adsoac_launched(cx);
}

// A thread that could not allocate its iteration's arrays (device malloc) sets this and skips
// the rest of the iteration; the function then fails (adsoac_priv_check).
static __device__ int adsoac_priv_oom_;

static __device__ __attribute__((unused)) void *adsoac_dev_calloc(size_t n, size_t size) {
  void *p = malloc(n ? n * size : size);
  if (p) memset(p, 0, n * size);
  return p;
}

// (The host reads the flag: the stream is waited for.)
static inline __attribute__((unused)) int adsoac_priv_check(AdsoacCx *cx) {
  int oom = 0;
  if (cudaMemcpyFromSymbolAsync(&oom, adsoac_priv_oom_, sizeof oom, 0, cudaMemcpyDeviceToHost, cx->s) != cudaSuccess ||
      cudaStreamSynchronize(cx->s) != cudaSuccess || !oom)
    return 0;
  oom = 0;
  cudaMemcpyToSymbolAsync(adsoac_priv_oom_, &oom, sizeof oom, 0, cudaMemcpyHostToDevice, cx->s);
  return adsoac_fail_(cx->fn, "out of memory for the arrays of a parallel loop's iterations "
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
                                                             AdsoacCx *cx) {
  if (n <= 0) return 0;
  adsoac_strided_kernel<T><<<adsoac_grid(n), ADSOAC_BLOCK, 0, cx->s>>>(dst, sd, (T *)src, ss, n, swap);
  return adsoac_launched(cx);
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
// scratch).  n >= 1.  (The host reads it: the stream is waited for.)
template <typename T, typename Op>
static inline __attribute__((unused)) int adsoac_reduce(T *part, int n, T *host_out, Op op,
                                                        AdsoacCx *cx) {
  adsoac_reduce_kernel<T, Op><<<1, ADSOAC_BLOCK, 0, cx->s>>>(part, n, part + n, op);
  if (adsoac_launched(cx)) return 1;
  return adsoac_load(host_out, part + n, sizeof(T), cx);
}

// The last stage of a reduction whose result stays on the device (a cell): *out = init OP
// part[0] OP ... OP part[n-1], or init where n is 0; init is *init_dev where that is given.
template <typename T, typename Op>
static __global__ void adsoac_reduce_to_kernel(const T *part, int n, T *out, T init, const T *init_dev, Op op) {
  T s = n ? part[(int)threadIdx.x < n ? threadIdx.x : 0] : init;
  for (int k = threadIdx.x + ADSOAC_BLOCK; k < n; k += ADSOAC_BLOCK) s = op(s, part[k]);
  T total = adsoac_block_fold_(s, op, n < 1 ? 1 : n < ADSOAC_BLOCK ? n : ADSOAC_BLOCK);
  if (threadIdx.x == 0) {
    T i = init_dev ? *init_dev : init;
    *out = n ? op(i, total) : i;
  }
}

template <typename T, typename Op>
static inline __attribute__((unused)) int adsoac_reduce_to(const T *part, int n, T *out, T init,
                                                           const T *init_dev, Op op, AdsoacCx *cx) {
  adsoac_reduce_to_kernel<T, Op><<<1, ADSOAC_BLOCK, 0, cx->s>>>(part, n, out, init, init_dev, op);
  return adsoac_launched(cx);
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
