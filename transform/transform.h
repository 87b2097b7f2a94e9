// transform/transform.h: IR -> IR passes: automatic differentiation and clean-up.
#pragma once
#include "../ir/ir.h"
#include "../analysis/analysis.h" // the layer below: the passes' callers use its facts too

// ---- clone.c ----
// Copies the statements of src to the end of b's block, renaming every value through map
// (map[old] = new; unmapped values that are used must already be mapped).  With
// drop_writes, IR_WRITE statements are left out (re-execution in a reverse sweep).
void clone_block(Builder *b, const Fn *src_fn, const Block *src, Val *map, bool drop_writes);
Val clone_val(Fn *dst, const Fn *src, Val v, Val *map); // fresh value of the same type
Lambda *clone_lambda(Builder *b, const Fn *src_fn, const Lambda *l, Val *map);

// ---- derivs.c ----
// d(result)/d(argument argno) of a math built-in, r = fn(x, y) already computed.
Val deriv_call(Builder *b, MathFn fn, int argno, Val x, Val y, Val r);

// ---- ad_rev.c ----
Fn *ad_vjp(Arena *a, const Fn *f, bool general); // general: scan(+) by the general rule too
// The derivatives' working memory lives in a scratch arena, released when they finish; after
// an error that longjmps out of them (--emit=ir, the fuzz target), this releases it.
void ad_release_scratch(void);
Arena *ad_scratch(void);

// ---- ad_reduce.c ----
void lift_mul(Builder *host, Node *c, int r, Val *nz_out, Val *p_out);
Val mul_partial(Builder *b, Val x, Val nz, Val p);
Val argext_pass(Builder *b, const Fn *pf, const Node *n, int r, Val y, Val *pv);
void user_invert(Builder *bld, const Fn *pf, const Red *red, Val *pv, const Val *y, const Val *x);
void mul_pass(Builder *b, const Fn *pf, const Node *n, int r, Val *pv, Val *nz, Val *p);
Val is_winner(Builder *b, Val idx, Val k, Val init_wins);
Val argext_take(Builder *b, bool is_max, const Val *a, const Val *c);
Val lift_argext(Builder *host, Node *c, int r);

// ---- ad_fwd.c ----
// general: every reduction by the general rule (dual numbers), not the special rules of *,
// min, max and of operators with an inverse (--general-rule, a cross-check of those).
Fn *ad_jvp(Arena *a, const Fn *f, bool general);

// ---- distribute.c ----
// Splits each parallel loop that does several things (writes, reductions, histograms) into
// one loop per thing, where the dependences allow it (before differentiation).
void distribute_loops(Fn *f);
// A part's pragma text is the loop's, then PART_MARK and what the part does.
#define PART_MARK "; part: "

// ---- scan.c ----
// Splits each loop with scan clauses into its contributions (a map), one canonical scan per
// clause, and the rest of the loop (before differentiation).  Top-level reductions with a
// declared operator that is not commutative or has no inverse become scans first (their
// total), and with general (--general-rule) every top-level reduction.
void lower_scans(Fn *f, bool general);
// Removes the prefix arrays of canonical scans that nothing reads (after differentiation:
// the prefixes of a reduction computed as a scan are read by its derivative only).
void scan_drop_unread(Fn *f);
// Appends a canonical scan of s's operator over src[0:len) into dst, with init and out
// (dst[f] == 0: field f's prefixes are not stored).
Node *scan_build(Builder *b, const Fn *sf, const Scan *s, const Val *src, const Val *dst,
                 Val len, const Val *init, const Val *out, Loc loc, const char *pragma);
Val scan_alloc(Builder *b, Type *elem, Val len, const char *hint); // a zeroed array
// The trip count of [lo, hi) as a long: 0 when hi <= lo, else hi - lo computed in long (the
// difference of two ints wraps in int: 1 - INT_MIN).
Val b_trip(Builder *b, Val lo, Val hi);
void scan_free(Builder *b, Val arr);

// ---- fuse.c ----
// Fuses adjacent parallel loops over the same index space when that is safe, then shares
// common subexpressions in loop bodies (the reverse loop's re-reads of the primal's inputs).
void fuse_loops(Fn *f);

// ---- simplify.c ----
void simplify_dce(Fn *f);  // removes pure statements whose results are unused
void simplify_fold(Fn *f); // casts of constants become constants, i < i becomes 0

// ---- stripmine.c ----
Fn *fn_copy(Arena *a, const Fn *f); // the same function (fresh values)
// Each sequential loop at the function's level (and in such loops) nested stripmine(L) (else
// deflt) levels deep.
void stripmine_loops(Fn *f, int deflt);

// ---- ad_scan.c: the linear recurrence of the general scan rule ----
#define LIN_MAXF 16 // fields of a scanned value the general rule handles
// The block structure of a scan step's Jacobian (fields k, m in one block when entry
// (k, m) is not structurally zero), and the groups of blocks with equal entries, which
// share one matrix.  The affine maps scanned have nmat matrix fields (each group's q x q
// matrix, row-major, groups in order) and then d vector fields.
typedef struct {
  int d, nblocks, ngroups, nmat;
  int block[LIN_MAXF], pos[LIN_MAXF];  // per field: its block, its place in the block
  int field[LIN_MAXF][LIN_MAXF], q[LIN_MAXF], group[LIN_MAXF]; // per block
  int rep[LIN_MAXF], moff[LIN_MAXF];   // per group: its first block, its first matrix field
} LinShape;
// ja: d x d entries (row k: output field k), 0 for structural zeros; values of f.
void lin_shape(const Fn *f, int d, const Val *ja, LinShape *sh);
// Entry (i, j) of group g's matrix: ja of the group's first block, transposed or not.
Val lin_entry(const LinShape *sh, const Val *ja, int g, int i, int j, bool transpose);
// The composition of affine maps of that shape, p o q, as an operator (p the left operand).
Lambda *lin_lambda(Fn *f, const LinShape *sh, Type *const *ftype, Loc loc);

// ---- ad_hist.c: passes over a histogram loop's updates (vjp/jvp values) ----
// A copy of arr[lo : lo+len].
Val hist_copy(Builder *b, Val arr, Val lo, Val len, const char *hint);
// lo <= k < lo + len (as long), and a read of arr[idx] taken only where cond holds (else other).
Val hist_bin(Builder *b, Val k, Val lo, Val len);
Val hist_guarded(Builder *b, Val cond, Val arr, Val idx, Val other);
// Code for one update h[k] OP= v of a loop's clause, in iteration i of a pass over the loop.
typedef void (*HistVisit)(Builder *b, Val k, Val v, Val i, void *ctx);
// Appends a loop over p's range (pv: primal values -> values at b) running p's body without
// its writes and updates, with fn at each update of clause h; the loop's hist clauses are
// hs[0 .. nhs).  Returns it.
Node *hist_pass(Builder *b, const Fn *pf, const Node *p, Val *pv, int h, HistVisit fn, void *ctx,
                const Hist *hs, int nhs);
// min/max: win[b] = -1 where the initial contents h0[b] are the final value h1[b], else the
// lowest iteration whose update of bin lo + b is it (LLONG_MAX: none).  Returns win.
Val hist_winners(Builder *b, const Fn *pf, const Node *p, Val *pv, int h, Val h0, Val h1);
// the key hist_winners gives update upd (of clause h of loop p) in iteration i (lo: p's first)
Val hist_win_key(Builder *b, const Node *p, int h, const Node *upd, Val i, Val lo);
// *: nz[b] = the number of zero updates of bin lo + b, pr[b] = the product of the others.
// The product of bin j's factors other than x (0: the initial contents h0[j]) from those.
Val hist_mul_partial(Builder *b, Val h0, Val nz, Val pr, Val j, Val x);
void hist_mul_counts(Builder *b, const Fn *pf, const Node *p, Val *pv, int h, Val *nz, Val *pr);
// d(a OP x)/dx (left: d(a OP x)/da) at a builder, by the mode's own differentiation (at a
// tie of min/max, the derivative goes to a).
typedef Val (*OpPartial)(void *ctx, Builder *b, Val a, Val x, bool left);
// The general rule for clause h, a declared commutative operator without an inverse (one
// update of it per iteration; papers' §2.8): the updates sorted by bin (stable), segmented
// exclusive scans from both ends give each update the bin's other updates before and after it;
// then D[j] = d(final bin)/d(v) of the update of iteration lo + j (0: none, or out of the
// section) and DI[b] = d(final bin b)/d(initial contents) (1 for a bin without updates).
// h0: the section before the loop.  D and DI are allocated here, freed by the caller.
void hist_general(Builder *b, const Fn *pf, const Node *p, Val *pv, int h, Val h0, OpPartial dop,
                  void *ctx, Val *D, Val *DI);
