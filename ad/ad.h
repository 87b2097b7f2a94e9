// ad/ad.h: automatic differentiation of a marked function's IR (language.md §2).
//
// The rules, one file per combinator (README "Architecture"; the rule each implements opens
// the file, in the notation of docs/papers):
//   rev.c         reverse mode: the sweeps, statements, branches      f -> f_vjp
//   rev_map.c       map (a parallel loop) with accumulators
//   rev_reduce.c    reduce          reduce.c   the passes both modes share
//   rev_scan.c      scan            scan_lin.c the general rule's linear recurrence
//   rev_hist.c      hist            hist.c     the passes both modes share
//   rev_loop.c      sequential loop, strip-mined checkpoints
//   rev_save.c      saving elements a later statement overwrites
//   fwd.c         forward mode: statements, branches, loops                 f -> f_jvp
//   fwd_reduce.c    reduce
//   fwd_scan.c      scan
//   fwd_hist.c      hist
//   derivs.c      the derivatives of the math built-ins
// Which rule a combinator gets, special or general, is decided in one place per combinator
// (analysis/rules.c).
#pragma once
#include "../ir/ir.h"

// The context of the differentiation of one function: where the derivative's IR goes, the
// options, and the rules' working memory (released by ad_free, also after an error).
typedef struct AdCtx AdCtx;

AdCtx *ad_new(Arena *a, bool general); // general: --general-rule
void ad_free(AdCtx *cx);
// The derivatives are for the CUDA target: a stencil's adjoint updates go through
// temporaries (no atomics) instead of plain updates in two phases of chunks, which CUDA
// would make atomic (ad/rev_map.c, plan_offsets).
void ad_target_cuda(AdCtx *cx, bool cuda);
Fn *ad_vjp(AdCtx *cx, const Fn *f); // reverse mode (f's loops strip-mined already)
Fn *ad_jvp(AdCtx *cx, const Fn *f); // forward mode
// After the derivative's dead-code elimination: no read of an array that the reverse of a
// loop iteration skipped writing is left (ad/rev_skip.c); else an internal error.
void ad_check_stale(const AdCtx *cx, const Fn *vjp);
