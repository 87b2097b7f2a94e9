// ad/fwd.h: the forward mode's state, shared by its rules (ad/fwd*.c only).
#pragma once
#include "ad_internal.h"

typedef struct Fwd {
  Arena *a;   // = cx->a
  AdCtx *cx;
  const Fn *pf;
  Fn *f;
  Builder b;
  Val *pv;   // primal value -> value in f
  Val *tan;  // primal scalar -> its tangent in f (0: zero)
  Val *adot; // primal array -> its tangent array (0: inactive)
  unsigned char *varied;
  bool in_par;
  bool drop_writes; // re-executing a loop body: no writes (but to its own local arrays)
  unsigned char *local; // primal array -> allocated in a re-executed body
  int *hist_tan;    // in a loop with hist clauses: clause -> the clause of its tangent, or -1
  bool general;     // --general-rule
  struct HistTan *htan; // a tangent pass of hist(*/min/max/declared): what its updates do
  void (*block)(struct Fwd *F, const Block *b); // fwd.c's: the rules recurse through it
} Fwd;

// The tangent pass of clause h of a hist(*/min/max/declared) loop (values of f): the section's
// bounds, the tangent array, and what the passes before it found.
typedef struct HistTan {
  int h;
  const Hist *hc;
  const Node *par; // the primal loop
  Val lo, len, hdot, h0, h1, win, nz, pr, i;
  Val D, DI, k0; // the general rule's partials; the loop's first index
} HistTan;

#define P(v) (F->pv[v])
#define T(v) ((v) ? F->tan[v] : 0)


// ---- fwd_util.c: below every rule ----
Val *map_fields(Fwd *F, const Val *vs, int nf); // the values in f of primal values vs
Val as_type(Fwd *F, Val x, Type *t);
void clear_tangents(Fwd *F, const Block *b);
Val *fields(Fwd *F, const Red *red);
Val *one_val(Fwd *F, Val v);
Val fwd_zero(Fwd *F, Type *t);

// ---- fwd_reduce.c ----
void builtin_dual(Fwd *F, const Node *n, Node *m, int r, Block *outer);
Lambda *dual_lambda(Fwd *F, const Red *red);
void dual_reduction(Fwd *F, const Node *n, Node *m, int r, Block *outer);
bool dual_rule(const Fwd *F, const Node *n, const Red *red);
void tangent_pass(Fwd *F, const Node *n, Node *m);
void user_tangent(Fwd *F, const Red *red, const Val *y, const Val *x, const Val *xd, Val *t);

// ---- fwd_scan.c ----
void fwd_scan(Fwd *F, const Node *n, const Val *src, const Val *dst);
void fwd_scan_general(Fwd *F, const Node *n, const Val *src, const Val *dst);

// ---- fwd_hist.c ----
Val *hist_before(Fwd *F, const Node *n);
void hist_tangent(Fwd *F, const Node *n);
void hist_tangents(Fwd *F, const Node *n, const Val *h0);
int *tangent_hists(Fwd *F, const Node *n, Node *m);
