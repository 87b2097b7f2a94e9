// runtime/src/rt_common.h: the error state shared by both targets (embedded in every
// generated file; weak definitions, so several generated files share one state).
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
#define ADSOAC_EXTERN_C extern "C"
#define ADSOAC_TLS thread_local
#else
#define ADSOAC_EXTERN_C
#define ADSOAC_TLS _Thread_local
#endif
#define ADSOAC_WEAK __attribute__((weak))
// a static marked function's f, f_vjp and f_jvp, which the file may not all call
#define ADSOAC_MAYBE_UNUSED __attribute__((unused))

ADSOAC_EXTERN_C ADSOAC_WEAK char *adsoac_error_slot_(void) {
  static ADSOAC_TLS char msg[512];
  return msg;
}

ADSOAC_EXTERN_C ADSOAC_WEAK const char *adsoac_last_error(void) {
  char *m = adsoac_error_slot_();
  return m[0] ? m : NULL;
}

ADSOAC_EXTERN_C ADSOAC_WEAK void adsoac_clear_error(void) {
  adsoac_error_slot_()[0] = 0;
}

// Bytes held by the checkpoints of sequential loops (f_vjp): now and the most since the last
// reset.  Per process, not per thread.
ADSOAC_EXTERN_C ADSOAC_WEAK size_t *adsoac_checkpoint_state_(void) {
  static size_t s[2];
  return s;
}

ADSOAC_EXTERN_C ADSOAC_WEAK size_t adsoac_checkpoint_peak(void) {
  return adsoac_checkpoint_state_()[1];
}

ADSOAC_EXTERN_C ADSOAC_WEAK void adsoac_checkpoint_reset(void) {
  size_t *s = adsoac_checkpoint_state_();
  s[1] = s[0];
}

static inline __attribute__((unused)) void adsoac_checkpoint_add_(size_t bytes, int sign) {
  size_t *s = adsoac_checkpoint_state_();
  s[0] = sign > 0 ? s[0] + bytes : s[0] - bytes;
  if (s[0] > s[1]) s[1] = s[0];
}

// Records the first error; later ones are dropped until the state is cleared.  Returns 1.
static inline __attribute__((unused)) int adsoac_fail_(const char *where, const char *fmt, ...) {
  char *m = adsoac_error_slot_();
  if (m[0]) return 1;
  int k = snprintf(m, 512, "%s: ", where);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m + k, (size_t)(512 - k), fmt, ap);
  va_end(ap);
  return 1;
}
