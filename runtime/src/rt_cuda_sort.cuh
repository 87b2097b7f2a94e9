// runtime/src/rt_cuda_sort.cuh: the stable sort of a histogram's updates by bin (CUB
// DeviceRadixSort), embedded after rt_cuda.cuh only into the CUDA files that sort.
#include <cub/device/device_radix_sort.cuh>

// perm[0:n] = 0 .. n-1 ordered by key[i] (each in [0, nkeys]), stably: CUB's radix sort of
// (key, index) pairs on the bits nkeys needs (the updates of a histogram grouped by bin).
static __global__ void adsoac_iota_kernel(long *a, long n) {
  for (long k = blockIdx.x * (long)blockDim.x + threadIdx.x; k < n; k += (long)gridDim.x * blockDim.x)
    a[k] = k;
}

static inline __attribute__((unused)) int adsoac_sort_by_key(const long *key, long *perm, long n,
                                                             long nkeys, AdsoacCx *cx) {
  if (n <= 0) return 0;
  if (n > 2147483647L) return adsoac_fail_(cx->fn, "sort of %ld elements: CUB counts in int", n);
  int bits = 1;
  while (bits < 63 && (1L << bits) <= nkeys) bits++;
  long *iota = NULL, *keys = NULL;
  void *tmp = NULL;
  size_t bytes = 0;
  int bad = adsoac_dev_alloc((void **)&iota, sizeof(long) * (size_t)n, cx) ||
            adsoac_dev_alloc((void **)&keys, sizeof(long) * (size_t)n, cx);
  if (!bad) {
    adsoac_iota_kernel<<<adsoac_grid(n), ADSOAC_BLOCK, 0, cx->s>>>(iota, n);
    bad = adsoac_launched(cx) ||
          adsoac_cuda_(cub::DeviceRadixSort::SortPairs(tmp, bytes, key, keys, iota, perm, (int)n, 0, bits, cx->s),
                       cx, "cub::DeviceRadixSort::SortPairs");
  }
  if (!bad) bad = adsoac_dev_alloc(&tmp, bytes, cx);
  if (!bad)
    bad = adsoac_cuda_(cub::DeviceRadixSort::SortPairs(tmp, bytes, key, keys, iota, perm, (int)n, 0, bits, cx->s),
                       cx, "cub::DeviceRadixSort::SortPairs");
  adsoac_dev_free(tmp, cx);
  adsoac_dev_free(iota, cx);
  adsoac_dev_free(keys, cx);
  return bad;
}
