// ad/ad_internal.h: what the rules of both modes share (ad/ only).
#pragma once
#include "ad.h"
#include "../analysis/analysis.h"
#include "../transform/transform.h"

struct AdCtx {
  Arena *a;          // the derivative's IR
  bool general;      // --general-rule: every combinator by its general rule
  bool cuda;         // --target=cuda: ACC_COLOR updates are atomic there (ad_target_cuda)
  Arena *scratch;    // the rules' working memory, released with the context
  Arena *if_tmp[256]; // the snapshots of the ifs being reversed (nested), also released
  int nif_tmp;
  Val *stale; // aliases of arrays that the reverse must not read (rev_skip.c)
  int nstale, capstale;
};

// ---- ad.c ----
// Parameter v of pf as a parameter of the derivative function f.  A field of a struct
// parameter (ValInfo.parent) becomes the same field of the struct map[parent] of f, made on
// its first field with type ptype (NULL: the primal's) and the name pname (NULL: the
// primal's): the derivatives of a struct parameter are structs of its type (language.md §2).
Val ad_param_val(Fn *f, const Fn *pf, Val v, Type *t, const char *name, Val *map, Type *ptype,
                 const char *pname);

// ---- derivs.c ----
// d(result)/d(argument argno) of a math built-in, r = fn(x, y, z) already computed (y, z: 0
// where the arity is lower); 0 where the derivative is zero.
Val deriv_call(Builder *b, MathFn fn, int argno, Val x, Val y, Val z, Val r);
// The partial derivatives of an external function's result (ExtFn) with respect to its
// active parameters, d[j] for the j-th active one, at the arguments args[0 .. nparams):
// one call of its vjp with seed 1 where declared, else one call of its jvp per active
// parameter (a unit tangent).
void deriv_ext(Builder *b, const ExtFn *e, const Val *args, Val *d);
int ext_nactive(const ExtFn *e);
// The derivative of MPI collective n (IR_COLL, COLL_CALL) in mode (COLL_VJP, COLL_JVP), pushed
// at b: its scalars and input mapped by pv (primal value -> derivative function's), in_d and
// out_d the adjoints (vjp) or tangents (jvp) of its input and output arrays.
void deriv_coll(Builder *b, const Node *n, CollMode mode, const Val *pv, Val in_d, Val out_d);

// ---- reduce.c: the passes of the special rules of reduce ----
void lift_mul(Builder *host, Node *c, int r, Val *nz_out, Val *p_out);
Val mul_partial(Builder *b, Val x, Val nz, Val p);
Val argext_pass(Builder *b, const Fn *pf, const Node *n, int r, Val y, Val *pv);
void user_invert(Builder *bld, const Fn *pf, const Red *red, Val *pv, const Val *y, const Val *x);
void mul_pass(Builder *b, const Fn *pf, const Node *n, int r, Val *pv, Val *nz, Val *p);
Val is_winner(Builder *b, Val idx, Val k, Val init_wins);
Val argext_take(Builder *b, bool is_max, const Val *a, const Val *c);
Val lift_argext(Builder *host, Node *c, int r);

// ---- scan_lin.c: the linear recurrence of the general scan rule ----
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

// ---- hist.c: passes over a histogram loop's updates (vjp/jvp values) ----
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
// C target, f_vjp: the winners recorded by the loop itself (Hist.win): the array, every bin
// -1 (hist_win_alloc, before the loop's copy); then the copy's clause h names it and its
// updates get their sites (hist_win_inline; p: the primal loop the copy is of)
Val hist_win_alloc(Builder *b, const Node *p, int h, Val len);
void hist_win_inline(Node *clone, const Node *p, int h, Val win);
// the number of update sites of clause h in loop p's body (program order: the keys' u)
long long hist_sites(const Node *p, int h);
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
// sorted: as above (CUDA); otherwise (C) two sequential passes over the updates in index
// order, forward and back, with each bin's running values (hist.c general_seq).
void hist_general(Builder *b, const Fn *pf, const Node *p, Val *pv, int h, Val h0, OpPartial dop,
                  void *ctx, Val *D, Val *DI, bool sorted);
// The stores of file-scope integers of the primal's return (its last statement), for the
// return of a derivative whose values of the primal's are pv.
void ret_globals(Arena *a, Node *rn, const Block *primal, const Val *pv);
