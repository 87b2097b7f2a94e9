// ad/fwd_scan.c: the forward rules of scan (papers/reduce-scan-hist-rules.md §2.15-2.17 read
// forward).
//
//   y = scan OP e x
//   +           y_dot = scan (+) e_dot x_dot
//   otherwise   the general rule: the scan runs on dual numbers, (x, x') OP' (y, y') =
//               (x OP y, dOP/dx x' + dOP/dy y')
// scan_rule (analysis/rules.c) classifies.
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fwd.h"

// The tangent of a canonical scan dst = exclusive_scan(+, init, src): the same scan of the
// tangents, dst_dot = exclusive_scan(+, init_dot, src_dot).
void fwd_scan(Fwd *F, const Node *n, const Val *src, const Val *dst) {
  const Scan *s = &n->u.par.scans[0];
  Builder *b = &F->b;
  clone_block(b, F->pf, &(Block){(Node **)&n, 1, 1}, F->pv, false);
  if (!F->varied[s->out[0]]) return;
  Type *t = F->pf->vals[s->out[0]].type;
  Val len = P(n->u.par.hi), sdot = F->adot[src[0]], ddot = F->adot[dst[0]];
  IR_ASSERT(ddot);
  Val init = T(s->init[0]) ? as_type(F, T(s->init[0]), t) : fwd_zero(F, t);
  Val out = fn_val(F->f, t, NULL);
  // (dst varies whenever out does; src does not when only init varies: zero tangents then)
  Val zeros = sdot ? 0 : scan_alloc(b, t, len, "zeros");
  scan_build(b, F->pf, s, sdot ? &sdot : &zeros, &ddot, len, &init, &out, n->loc, n->u.par.pragma);
  if (zeros) scan_free(b, zeros);
  F->tan[s->out[0]] = out;
}

// The operator of a builtin scan on dual numbers (value, tangent): (a, a') + (b, b') =
// (a + b, a' + b'), (a, a') * (b, b') =
// (a b, a b' + a' b), exact with zeros; min and max keep the earlier pair on a tie.
static Lambda *builtin_scan_dual(Fwd *F, RedOp op, Type *t, Loc loc) {
  Lambda *l = ARENA_NEW(F->a, Lambda);
  l->nf = 2;
  l->pa = ARENA_ARRAY(F->a, Val, 2);
  l->pb = ARENA_ARRAY(F->a, Val, 2);
  l->pa[0] = fn_val(F->f, t, "a"), l->pa[1] = fn_val(F->f, t, "a_dot");
  l->pb[0] = fn_val(F->f, t, "b"), l->pb[1] = fn_val(F->f, t, "b_dot");
  l->body = block_new(F->a);
  Builder b = {F->f, l->body, loc};
  Val v, dv;
  if (op == RED_ADD) { // (--general-rule)
    v = b_binop(&b, BIN_ADD, l->pa[0], l->pb[0]);
    dv = b_binop(&b, BIN_ADD, l->pa[1], l->pb[1]);
  } else if (op == RED_MUL) {
    v = b_binop(&b, BIN_MUL, l->pa[0], l->pb[0]);
    dv = b_binop(&b, BIN_ADD, b_binop(&b, BIN_MUL, l->pa[0], l->pb[1]),
                 b_binop(&b, BIN_MUL, l->pa[1], l->pb[0]));
  } else {
    Val c = b_binop(&b, op == RED_MIN ? BIN_LT : BIN_GT, l->pb[0], l->pa[0]);
    v = b_select(&b, c, l->pb[0], l->pa[0]);
    dv = b_select(&b, c, l->pb[1], l->pa[1]);
  }
  block_yield(F->a, l->body, v);
  block_yield(F->a, l->body, dv);
  return l;
}

// The general rule in forward mode: the scan runs on dual numbers, (x, x') OP' (y, y') =
// (x OP y, the forward mode of OP along (x', y')), which is associative when OP is; one scan
// gives the primal prefixes and their tangents, in the operator's order.
void fwd_scan_general(Fwd *F, const Node *n, const Val *src, const Val *dst) {
  const Scan *s = &n->u.par.scans[0];
  int d = s->nf;
  Builder *b = &F->b;
  Val len = P(n->u.par.hi);
  Val *xs = ARENA_ARRAY(F->a, Val, 2 * d), *ys = ARENA_ARRAY(F->a, Val, 2 * d),
      *init = ARENA_ARRAY(F->a, Val, 2 * d), *out = ARENA_ARRAY(F->a, Val, 2 * d);
  Val *zeros = ARENA_ARRAY(F->a, Val, d); // zeroed
  for (int f = 0; f < d; f++) {
    Type *t = F->pf->vals[s->out[f]].type;
    xs[f] = P(src[f]);
    ys[f] = P(dst[f]);
    xs[d + f] = F->adot[src[f]] ? F->adot[src[f]] : (zeros[f] = scan_alloc(b, t, len, "zeros"));
    ys[d + f] = F->adot[dst[f]];
    IR_ASSERT(ys[d + f]); // the prefixes vary whenever the scan does
    init[f] = P(s->init[f]);
    init[d + f] = T(s->init[f]) ? as_type(F, T(s->init[f]), t) : fwd_zero(F, t);
  }
  for (int f = 0; f < d; f++) {
    out[f] = clone_val(F->f, F->pf, s->out[f], F->pv);
    out[d + f] = F->tan[s->out[f]] = fn_val(F->f, F->pf->vals[s->out[f]].type, NULL);
  }
  Scan ds = *s;
  ds.nf = 2 * d;
  ds.op = RED_USER;
  const char *name = s->user_fn ? s->user_fn : redop_name(s->op);
  ds.user_fn = arena_printf(F->a, "%s with tangents", name);
  if (s->op == RED_USER) {
    Red r = {.op = RED_USER, .nf = d, .out = s->out, .lam = s->lam, .user_fn = s->user_fn};
    ds.lam = dual_lambda(F, &r);
  } else {
    ds.lam = builtin_scan_dual(F, s->op, F->pf->vals[s->out[0]].type, n->loc);
  }
  scan_build(b, F->f, &ds, xs, ys, len, init, out, n->loc, n->u.par.pragma);
  for (int f = 0; f < d; f++)
    if (zeros[f]) scan_free(b, zeros[f]);
}
