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

// ---- the CUDA output (--target=cuda) ----
//
// Next to f, f_vjp and f_jvp (synchronous, on the legacy default stream, as language.md
// says), the CUDA output defines for applications
//
//   int f_async(<f's parameters>, T *ret, AdsoacWorkspace *ws, cudaStream_t stream);
//
// and f_vjp_async, f_jvp_async likewise: all their work (kernels, copies, allocations) goes to
// `stream` and they return without waiting for it, except where the host needs a value that
// the device computes (a loop bound, a condition, an index: `adsoac --remarks` names each
// place; the output says above each function whether it has any).  The result (a function
// that returns a value) goes to the device pointer ret.  0, or 1 after recording an error
// (adsoac_last_error).  Temporaries come from the workspace, a stack over the caller's device
// memory; where it is NULL or too small, from cudaMallocAsync on the stream.  Every call sets
// ws->need to at least the most bytes it held at once, so that with base/bytes of ws->need
// bytes a call with the same arguments allocates nothing:
//
//   AdsoacWorkspace ws = {NULL, 0, 0};
//   f_vjp_async(..., &ws, stream);                    // allocates; sets ws.need
//   cudaMalloc(&ws.base, ws.need); ws.bytes = ws.need;
//   f_vjp_async(..., &ws, stream);                    // allocates nothing
//
// A workspace serves one stream at a time.  The synchronous f, f_vjp, f_jvp keep one per
// thread between calls (released by adsoac_release_memory).
#ifndef ADSOAC_WORKSPACE_DEFINED
#define ADSOAC_WORKSPACE_DEFINED
typedef struct AdsoacWorkspace {
  void *base;   // device memory for temporaries, or NULL
  size_t bytes; // its size
  size_t need;  // the most bytes of temporaries that a call with this workspace held at once
} AdsoacWorkspace;
#endif

// Frees the device memory that the calling thread's calls of the synchronous functions of the
// CUDA output keep between calls (their workspace).
void adsoac_release_memory(void);

// The most bytes that the checkpoints of sequential loops (the saved states of f_vjp, see
// stripmine) held at once since the last adsoac_checkpoint_reset() (per process).
size_t adsoac_checkpoint_peak(void);
void adsoac_checkpoint_reset(void);

#ifdef __cplusplus
}
#endif
#endif
