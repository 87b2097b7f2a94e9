// runtime/src/rt_host.h: what the C11/OpenMP target's generated code needs.
#include <stddef.h>

#define ADSOAC_CHUNKS 64 // the chunks of a scan on the C target (two passes over them)

#define ADSOAC_CHECK(call) do { if (call) goto adsoac_fail; } while (0)

// Zeroed host memory for saved array elements; 0 on success.
static inline __attribute__((unused)) int adsoac_host_alloc(void **p, size_t bytes, const char *fn) {
  *p = calloc(bytes ? bytes : 1, 1);
  if (!*p) return adsoac_fail_(fn, "out of memory allocating %zu bytes", bytes);
  return 0;
}

// perm[0:n] = 0 .. n-1 ordered by key[i] (each in [0, nkeys]), stably: a counting sort
// (the updates of a histogram grouped by bin, for the general derivative rule).
static inline __attribute__((unused)) int adsoac_sort_by_key(const long *key, long *perm, long n,
                                                             long nkeys, const char *fn) {
  if (n <= 0) return 0;
  long *start = calloc((size_t)nkeys + 2, sizeof *start);
  if (!start) return adsoac_fail_(fn, "out of memory sorting %ld elements", n);
  for (long i = 0; i < n; i++) start[key[i] + 1]++;
  for (long k = 0; k <= nkeys; k++) start[k + 1] += start[k];
  for (long i = 0; i < n; i++) perm[start[key[i]]++] = i;
  free(start);
  return 0;
}
