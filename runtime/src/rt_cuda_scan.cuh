// runtime/src/rt_cuda_scan.cuh: device-wide scans by CUB's DeviceScan, embedded after
// rt_cuda.cuh only into the CUDA files whose functions scan (without --deterministic:
// rt_cuda_scan_det.cuh then), before rt_cuda_fields.cuh.
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/reverse_iterator.h>

// A scan with its operands swapped: a reverse scan combines an element with the running value
// from the right (y_k OP acc).
template <typename Op> struct AdsoacFlip {
  Op op;
  template <typename T> __host__ __device__ T operator()(T a, T b) const { return op(b, a); }
};

// *out = the total of a scan from its last prefix and element (at last), on the device.
template <typename T, typename Op>
static __global__ void adsoac_scan_total_kernel(const T *src, const T *dst, long long last, bool reverse, Op op,
                                                T *out) {
  *out = reverse ? op(src[last], dst[last]) : op(dst[last], src[last]);
}

// dst[k] = init OP src[0] OP ... OP src[k-1] (reverse: src[k+1] OP ... OP src[n-1] OP init)
// by CUB's device-wide scan, in order (the operator need not commute).  The whole scan goes to
// *host_total (the host waits for it) and to the device cell *dev_total, either NULL where it
// is not wanted there.  src and dst are device arrays of n elements; dst NULL: only the total
// is wanted (the prefixes go to a temporary).
template <typename T, typename Op>
static inline __attribute__((unused)) int adsoac_scan(const T *src, T *dst, long long n, T init,
                                                      T *host_total, T *dev_total, bool reverse,
                                                      Op op, AdsoacCx *cx) {
  if (host_total) *host_total = init;
  if (n <= 0) return dev_total ? adsoac_put(dev_total, init, cx) : 0;
  if (n > 2147483647LL) return adsoac_fail_(cx->fn, "scan of %lld elements: CUB counts in int", n);
  if (!dst && !host_total && !dev_total) return 0;
  if (!dst) {
    T *buf = NULL;
    if (adsoac_dev_alloc((void **)&buf, sizeof(T) * (size_t)n, cx)) return 1;
    int bad = adsoac_scan(src, buf, n, init, host_total, dev_total, reverse, op, cx);
    adsoac_dev_free(buf, cx);
    return bad;
  }
  void *tmp = NULL;
  size_t bytes = 0;
  cudaError_t e;
  thrust::reverse_iterator<const T *> rsrc(src + n);
  thrust::reverse_iterator<T *> rdst(dst + n);
  AdsoacFlip<Op> flip = {op};
  if (reverse)
    e = cub::DeviceScan::ExclusiveScan(tmp, bytes, rsrc, rdst, flip, init, (int)n, cx->s);
  else
    e = cub::DeviceScan::ExclusiveScan(tmp, bytes, src, dst, op, init, (int)n, cx->s);
  if (adsoac_cuda_(e, cx, "cub::DeviceScan::ExclusiveScan")) return 1;
  if (adsoac_dev_alloc(&tmp, bytes, cx)) return 1;
  if (reverse)
    e = cub::DeviceScan::ExclusiveScan(tmp, bytes, rsrc, rdst, flip, init, (int)n, cx->s);
  else
    e = cub::DeviceScan::ExclusiveScan(tmp, bytes, src, dst, op, init, (int)n, cx->s);
  adsoac_dev_free(tmp, cx);
  if (adsoac_cuda_(e, cx, "cub::DeviceScan::ExclusiveScan")) return 1;
  long long last = reverse ? 0 : n - 1; // the total: the last prefix combined with its element
  if (dev_total) {
    adsoac_scan_total_kernel<T, Op><<<1, 1, 0, cx->s>>>(src, dst, last, reverse, op, dev_total);
    if (adsoac_launched(cx)) return 1;
  }
  if (!host_total) return 0;
  last = reverse ? 0 : n - 1; // the total: the last prefix combined with its element
  T ex, y;
  if (adsoac_load(&ex, dst + last, sizeof ex, cx) || adsoac_load(&y, src + last, sizeof y, cx)) return 1;
  *host_total = reverse ? op(y, ex) : op(ex, y);
  return 0;
}
