// adsoac.h: the public interface of the code adsoac generates, for user programs.
//
// Generated functions (f, f_vjp, f_jvp) cannot return an error code: their signatures are
// those of the user's function.  A failure (out of memory, a failed CUDA launch) is recorded
// instead, the function returns early, and the caller asks:
//
//   f_vjp(n, x, x_bar, 1.0);
//   if (adsoac_last_error()) { fprintf(stderr, "%s\n", adsoac_last_error()); ... }
//
// The state is per thread.  Generated files embed the definitions (as weak symbols, so that
// several generated files link into one program and share one state).
#ifndef ADSOAC_H
#define ADSOAC_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

// The first error recorded since the last adsoac_clear_error(), or NULL.
const char *adsoac_last_error(void);
void adsoac_clear_error(void);

// The most bytes that the checkpoints of sequential loops (the saved states of f_vjp, see
// stripmine) held at once since the last adsoac_checkpoint_reset() (per process).
size_t adsoac_checkpoint_peak(void);
void adsoac_checkpoint_reset(void);

#ifdef __cplusplus
}
#endif
#endif
