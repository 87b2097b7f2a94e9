// runtime/src/rt_cuda_fields.cuh: scans over the fields of struct values, by the adsoac_scan
// before it (rt_cuda_scan.cuh or rt_cuda_scan_det.cuh).
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
                                                             AdsoacCx *cx) {
  if (host_total) *host_total = init;
  if (n <= 0) return 0;
  T *src = NULL, *dst = NULL;
  int bad = adsoac_dev_alloc((void **)&src, sizeof(T) * (size_t)n, cx) ||
            adsoac_dev_alloc((void **)&dst, sizeof(T) * (size_t)n, cx);
  if (!bad) {
    adsoac_pack_kernel<T, Load><<<adsoac_grid(n), ADSOAC_BLOCK, 0, cx->s>>>(ld, src, n);
    bad = adsoac_launched(cx) ||
          adsoac_scan(src, dst, n, init, host_total, (T *)NULL, reverse, op, cx);
  }
  if (!bad && keep) {
    adsoac_unpack_kernel<T, Store><<<adsoac_grid(n), ADSOAC_BLOCK, 0, cx->s>>>(st, dst, n);
    bad = adsoac_launched(cx);
  }
  adsoac_dev_free(src, cx);
  adsoac_dev_free(dst, cx);
  return bad;
}
