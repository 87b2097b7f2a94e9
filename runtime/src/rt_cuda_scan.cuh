// runtime/src/rt_cuda_scan.cuh: device-wide scans (CUB DeviceScan), embedded after
// rt_cuda.cuh only into the CUDA files whose functions scan.
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/reverse_iterator.h>

// A scan with its operands swapped: a reverse scan combines an element with the running value
// from the right (y_k OP acc).
template <typename Op> struct AdsoacFlip {
  Op op;
  template <typename T> __host__ __device__ T operator()(T a, T b) const { return op(b, a); }
};

// dst[k] = init OP src[0] OP ... OP src[k-1] (reverse: src[k+1] OP ... OP src[n-1] OP init)
// by CUB's device-wide scan, in order (the operator need not commute); *host_total receives
// the whole scan.  src and dst are device arrays of n elements; dst NULL: only the total is
// wanted (the prefixes go to a temporary).
template <typename T, typename Op>
static inline __attribute__((unused)) int adsoac_scan(const T *src, T *dst, long long n, T init,
                                                      T *host_total, bool reverse, Op op,
                                                      const char *fn) {
  *host_total = init;
  if (n <= 0) return 0;
  if (n > 2147483647LL) return adsoac_fail_(fn, "scan of %lld elements: CUB counts in int", n);
  if (!dst) {
    T *buf = NULL;
    if (adsoac_dev_alloc((void **)&buf, sizeof(T) * (size_t)n, fn)) return 1;
    int bad = adsoac_scan(src, buf, n, init, host_total, reverse, op, fn);
    adsoac_dev_free(buf);
    return bad;
  }
  void *tmp = NULL;
  size_t bytes = 0;
  cudaError_t e;
  thrust::reverse_iterator<const T *> rsrc(src + n);
  thrust::reverse_iterator<T *> rdst(dst + n);
  AdsoacFlip<Op> flip = {op};
  if (reverse)
    e = cub::DeviceScan::ExclusiveScan(tmp, bytes, rsrc, rdst, flip, init, (int)n);
  else
    e = cub::DeviceScan::ExclusiveScan(tmp, bytes, src, dst, op, init, (int)n);
  if (adsoac_cuda_(e, fn, "cub::DeviceScan::ExclusiveScan")) return 1;
  if (adsoac_dev_alloc(&tmp, bytes, fn)) return 1;
  if (reverse)
    e = cub::DeviceScan::ExclusiveScan(tmp, bytes, rsrc, rdst, flip, init, (int)n);
  else
    e = cub::DeviceScan::ExclusiveScan(tmp, bytes, src, dst, op, init, (int)n);
  adsoac_dev_free(tmp);
  if (adsoac_cuda_(e, fn, "cub::DeviceScan::ExclusiveScan")) return 1;
  long long last = reverse ? 0 : n - 1; // the total: the last prefix combined with its element
  T ex, y;
  if (adsoac_load(&ex, dst + last, sizeof ex, fn) || adsoac_load(&y, src + last, sizeof y, fn)) return 1;
  *host_total = reverse ? op(y, ex) : op(ex, y);
  return 0;
}

// A scan over tuples whose fields live in separate arrays (one array per field of a struct
// operator's value): ld(k) assembles element k from the source arrays and st(k, v) stores
// the fields of prefix k that are kept (keep false: none, only the total is wanted).  The
// tuples are packed into one array, scanned by adsoac_scan, and unpacked.
template <typename T, typename Load>
static __global__ void adsoac_pack_kernel(Load ld, T *buf, long long n) {
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n;
       k += (long long)gridDim.x * blockDim.x)
    buf[k] = ld(k);
}

template <typename T, typename Store>
static __global__ void adsoac_unpack_kernel(Store st, const T *buf, long long n) {
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n;
       k += (long long)gridDim.x * blockDim.x)
    st(k, buf[k]);
}

template <typename T, typename Load, typename Store, typename Op>
static inline __attribute__((unused)) int adsoac_scan_fields(Load ld, Store st, bool keep, long long n, T init,
                                                             T *host_total, bool reverse, Op op,
                                                             const char *fn) {
  *host_total = init;
  if (n <= 0) return 0;
  T *src = NULL, *dst = NULL;
  int bad = adsoac_dev_alloc((void **)&src, sizeof(T) * (size_t)n, fn) ||
            adsoac_dev_alloc((void **)&dst, sizeof(T) * (size_t)n, fn);
  if (!bad) {
    adsoac_pack_kernel<T, Load><<<adsoac_grid(n), ADSOAC_BLOCK>>>(ld, src, n);
    bad = adsoac_launched(fn) ||
          adsoac_scan(src, dst, n, init, host_total, reverse, op, fn);
  }
  if (!bad && keep) {
    adsoac_unpack_kernel<T, Store><<<adsoac_grid(n), ADSOAC_BLOCK>>>(st, dst, n);
    bad = adsoac_launched(fn);
  }
  adsoac_dev_free(src);
  adsoac_dev_free(dst);
  return bad;
}
