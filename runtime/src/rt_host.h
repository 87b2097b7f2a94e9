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
