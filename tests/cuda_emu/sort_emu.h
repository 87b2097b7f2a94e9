// tests/cuda_emu/sort_emu.h: adsoac_sort_by_key (runtime/src/rt_cuda_sort.cuh, CUB's radix
// sort) for the CUDA emulation, where device memory is host memory: the same contract, by
// std::stable_sort.  emu_rewrite.py puts it in place of the embedded rt_cuda_sort.cuh.
#include <algorithm>

// perm[0:n] = 0 .. n-1 ordered by key[i] (each in [0, nkeys]), stably.
static inline __attribute__((unused)) int adsoac_sort_by_key(const long *key, long *perm, long n,
                                                             long nkeys, AdsoacCx *cx) {
  (void)nkeys, (void)cx;
  for (long k = 0; k < n; k++) perm[k] = k;
  std::stable_sort(perm, perm + (n > 0 ? n : 0), [&](long a, long b) { return key[a] < key[b]; });
  return 0;
}
