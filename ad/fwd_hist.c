// ad/fwd_hist.c: the forward rules of hist (papers/histogram-ad.md,
// papers/reduce-scan-hist-rules.md §2.7-2.12 read forward).
//
//   h = hist OP h0 (k_i, v_i)
//   +           h_dot = hist (+) h0_dot (k_i, v_i_dot) (a clause of the same loop)
//   *           h_dot[b] = h0_dot[b] * d/dh0 + sum over bin b's updates of d(final)/dv_i v_i_dot
//               (the other factors: zero counts and products)
//   min, max    h_dot[b] = the winning update's v_dot, or h0_dot[b]
//   OP with inverse(fn): d(final)/dv_i = d(rest OP v_i)/dv_i, rest = inv(final, v_i)
//   otherwise   the general rule: sort by bin, segmented scans (hist_general)
// hist_rule (analysis/rules.c) classifies.
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fwd.h"

// In the tangent pass of a hist(*/min/max/declared) clause, the update h[k] OP= v: where
// lo <= k < lo + len, min/max: the bin's winning iteration writes its v_dot as the bin's
// tangent; *, declared: h_dot[k] += d(final)/dv * v_dot (the other factors' product; with an
// inverse, d(rest OP v)/dv with rest = inv(final, v)).
void hist_tangent(Fwd *F, const Node *n) {
  HistTan *x = F->htan;
  Builder *b = &F->b;
  Type *t = F->pf->vals[n->u.mem.v].type;
  Val k = P(n->u.mem.idx), v = P(n->u.mem.v), vd = T(n->u.mem.v);
  vd = vd ? as_type(F, vd, t) : fwd_zero(F, t);
  Val in = hist_bin(b, k, x->lo, x->len);
  Val j = b_binop(b, BIN_SUB, b_cast(b, &ty_long, k), b_cast(b, &ty_long, x->lo));
  Node *sel = node_new(F->a, IR_IF, n->loc);
  sel->u.ifs.cond = in;
  sel->u.ifs.then = block_new(F->a);
  sel->u.ifs.els = block_new(F->a);
  Block *outer = b->blk;
  b->blk = sel->u.ifs.then;
  if (!x->D && (x->hc->op == RED_MIN || x->hc->op == RED_MAX)) {
    Val mine = b_binop(b, BIN_EQ, b_read(b, x->win, j), hist_win_key(b, x->par, x->h, n, x->i, x->k0));
    Node *w = node_new(F->a, IR_IF, n->loc);
    w->u.ifs.cond = mine;
    w->u.ifs.then = block_new(F->a);
    w->u.ifs.els = block_new(F->a);
    Builder wb = {F->f, w->u.ifs.then, n->loc};
    b_write(&wb, x->hdot, k, vd);
    b_push(b, w);
    b->blk = outer;
    b_push(b, sel);
    return;
  }
  Val c;
  if (x->D) { // the general rule: this iteration's partial
    Val it = b_binop(b, BIN_SUB, b_cast(b, &ty_long, x->i), b_cast(b, &ty_long, x->k0));
    c = b_mul(b, b_read(b, x->D, it), vd);
  } else if (x->hc->op == RED_MUL) {
    c = b_mul(b, hist_mul_partial(b, x->h0, x->nz, x->pr, j, v), vd);
  } else {
    Red r = {.op = RED_USER, .nf = 1, .lam = x->hc->lam, .inv = x->hc->inv, .commutative = true,
             .out = x->hc->lam->pa};
    Val y = b_read(b, x->h1, j);
    user_tangent(F, &r, &y, &v, &vd, &c);
  }
  block_yield(F->a, sel->u.ifs.then, c);
  b->blk = sel->u.ifs.els;
  block_yield(F->a, sel->u.ifs.els, fwd_zero(F, t));
  b->blk = outer;
  sel->u.ifs.nouts = 1;
  sel->u.ifs.outs = ARENA_ARRAY(F->a, Val, 1);
  sel->u.ifs.outs[0] = fn_val(F->f, t, NULL);
  b_push(b, sel);
  Node *u = node_new(F->a, IR_UPDATE, n->loc);
  u->u.mem.arr = x->hdot, u->u.mem.idx = k, u->u.mem.v = sel->u.ifs.outs[0], u->u.mem.hist = 0;
  b_push(b, u);
}

typedef struct {
  Fwd *F;
  const Hist *hc;
} FwdOp;

// d(a OP x)/dx (left: /da) for hist_general, by the forward mode of the operator's body.
static Val fwd_dop(void *ctx, Builder *b, Val a, Val x, bool left) {
  FwdOp *o = ctx;
  Fwd *F = o->F;
  const Lambda *op = o->hc->lam;
  Type *t = val_type(b->fn, x);
  switch (o->hc->op) { // (--general-rule; min/max: a tie keeps a)
  case RED_ADD: return b_const_f(b, t, 1);
  case RED_MUL: return left ? x : a;
  case RED_MIN: case RED_MAX: {
    Val later = b_binop(b, o->hc->op == RED_MIN ? BIN_LT : BIN_GT, x, a); // x wins
    return b_select(b, later, b_const_f(b, t, !left), b_const_f(b, t, left));
  }
  case RED_USER: break;
  }
  Builder saved = F->b;
  F->b = *b;
  F->pv[op->pa[0]] = a, F->pv[op->pb[0]] = x;
  Val one = b_const_f(&F->b, val_type(F->f, x), 1);
  F->tan[op->pa[0]] = left ? one : 0;
  F->tan[op->pb[0]] = left ? 0 : one;
  clear_tangents(F, op->body);
  F->block(F, op->body);
  Val d = T(op->body->yields[0]);
  if (!d) d = b_const_f(&F->b, val_type(F->f, x), 0);
  F->tan[op->pa[0]] = F->tan[op->pb[0]] = 0;
  F->b = saved;
  return d;
}

// Is clause hc of a top-level loop differentiated after the loop (not hist(+), or
// --general-rule), and by the general rule (no inverse, or --general-rule)?
static bool hist_special(const Fwd *F, const Hist *hc) {
  return (hc->op != RED_ADD || (F->general && !F->in_par)) && F->adot[hc->arr];
}

static bool hist_by_general(const Fwd *F, const Hist *hc) {
  return hist_rule(hc, F->general) == RULE_GENERAL;
}

// Before loop n (top level): the sections of its hist(*/min/max/declared) histograms.
Val *hist_before(Fwd *F, const Node *n) {
  Val *h0 = ARENA_ARRAY(F->a, Val, n->u.par.nhists + 1);
  for (int h = 0; !F->in_par && h < n->u.par.nhists; h++) {
    const Hist *hc = &n->u.par.hists[h];
    if (hist_special(F, hc))
      h0[h] = hist_copy(&F->b, P(hc->arr), P(hc->lo), P(hc->len),
                        arena_printf(F->a, "%s_before", hc->var));
  }
  return h0;
}

// Forward mode of loop n's hist(*/min/max/declared) clauses, after its primal (h0: the
// sections before it): the final sections, the winners or zero counts, the initial tangents
// scaled by d(final)/d(initial), then per clause a pass over the loop adding the updates'.
void hist_tangents(Fwd *F, const Node *n, const Val *h0) {
  Builder *b = &F->b;
  for (int h = 0; h < n->u.par.nhists; h++) {
    const Hist *hc = &n->u.par.hists[h];
    if (!hist_special(F, hc)) continue;
    Type *t = F->pf->vals[hc->arr].type->elem;
    HistTan x = {h, hc, n, P(hc->lo), P(hc->len), F->adot[hc->arr], h0[h], 0, 0, 0, 0, 0};
    x.k0 = P(n->u.par.lo);
    bool general = hist_by_general(F, hc);
    if (!general) x.h1 = hist_copy(b, P(hc->arr), x.lo, x.len, arena_printf(F->a, "%s_after", hc->var));
    if (general) {
      FwdOp o = {F, hc};
      hist_general(b, F->pf, n, F->pv, h, x.h0, fwd_dop, &o, &x.D, &x.DI, F->cx->cuda);
    } else if (hc->op == RED_MIN || hc->op == RED_MAX) {
      x.win = hist_winners(b, F->pf, n, F->pv, h, x.h0, x.h1);
    } else if (hc->op == RED_MUL) {
      hist_mul_counts(b, F->pf, n, F->pv, h, &x.nz, &x.pr);
    }
    if (general || (hc->op != RED_MIN && hc->op != RED_MAX)) { // h_dot[lo + j] *= d(final)/d(initial)
      Node *s = node_new(F->a, IR_PAR, n->loc);
      s->u.par.lo = b_const_i(b, val_type(F->f, x.len), 0);
      s->u.par.hi = x.len;
      s->u.par.idx = fn_val(F->f, val_type(F->f, x.len), "j");
      s->u.par.pragma = n->u.par.pragma;
      Block *outer = b->blk;
      s->u.par.body = b->blk = block_new(F->a);
      Val j = s->u.par.idx, at = b_binop(b, BIN_ADD, b_cast(b, &ty_long, x.lo), b_cast(b, &ty_long, j));
      Val init = b_read(b, x.h0, j), d;
      if (general) {
        d = b_read(b, x.DI, j);
      } else if (hc->op == RED_MUL) {
        d = hist_mul_partial(b, x.h0, x.nz, x.pr, j, 0);
      } else {
        Red r = {.op = RED_USER, .nf = 1, .lam = hc->lam, .inv = hc->inv, .commutative = true,
                 .out = hc->lam->pa};
        Val y = b_read(b, x.h1, j), one = b_const_f(b, t, 1);
        user_tangent(F, &r, &y, &init, &one, &d);
      }
      b_write(b, x.hdot, at, b_binop(b, BIN_MUL, b_read(b, x.hdot, at), d));
      b->blk = outer;
      b_push(b, s);
    }
    Node *e = node_new(F->a, IR_PAR, n->loc);
    e->u.par.lo = P(n->u.par.lo);
    e->u.par.hi = P(n->u.par.hi);
    e->u.par.pragma = n->u.par.pragma;
    e->u.par.idx = clone_val(F->f, F->pf, n->u.par.idx, F->pv);
    x.i = e->u.par.idx;
    e->u.par.hists = ARENA_ARRAY(F->a, Hist, 1);
    e->u.par.hists[0] = (Hist){.op = RED_ADD, .arr = x.hdot, .lo = x.lo, .len = x.len, .var = hc->var};
    e->u.par.nhists = 1;
    Block *outer = b->blk;
    e->u.par.body = b->blk = block_new(F->a);
    bool in_par = F->in_par, drop = F->drop_writes;
    int *hist_tan = F->hist_tan;
    F->hist_tan = ARENA_ARRAY(F->a, int, n->u.par.nhists + 1);
    for (int k = 0; k < n->u.par.nhists; k++) F->hist_tan[k] = -1;
    F->in_par = F->drop_writes = true;
    F->htan = &x;
    F->block(F, n->u.par.body);
    F->htan = NULL;
    F->in_par = in_par, F->drop_writes = drop, F->hist_tan = hist_tan;
    b->blk = outer;
    b_push(b, e);
    Val tmp[7] = {x.h0, x.h1, x.win, x.nz, x.pr, x.D, x.DI};
    for (int k = 0; k < 7; k++)
      if (tmp[k]) scan_free(b, tmp[k]);
  }
}

// m's hist clauses: n's, then one for the tangents of each varied histogram (hist(+): the
// tangent of h[k] += v is h_dot[k] += v_dot, same bins, same range).  Returns the map from
// n's clauses to their tangents' (-1: none).
int *tangent_hists(Fwd *F, const Node *n, Node *m) {
  int nh = n->u.par.nhists, nt = 0;
  int *tan = ARENA_ARRAY(F->a, int, nh + 1);
  m->u.par.hists = ARENA_ARRAY(F->a, Hist, 2 * nh + 1);
  for (int h = 0; h < nh; h++) {
    const Hist *src = &n->u.par.hists[h];
    Hist *c = &m->u.par.hists[h];
    *c = *src;
    c->arr = P(src->arr), c->lo = P(src->lo), c->len = P(src->len);
    c->lam = clone_lambda(&F->b, F->pf, src->lam, F->pv);
    c->inv = clone_lambda(&F->b, F->pf, src->inv, F->pv);
    tan[h] = -1;
    if (!F->adot[src->arr]) continue;
    if (src->op != RED_ADD || (F->general && !F->in_par)) { // hist_tangents, after the loop
      if (F->in_par)
        diag_error(n->loc, "hist(+) is differentiated there; the other operators at the top level of the function",
                   "forward mode of hist(%s: ...) inside another loop is not "
                   "supported yet", src->user_fn ? src->user_fn : redop_name(src->op));
      continue;
    }
    tan[h] = nh + nt;
    m->u.par.hists[nh + nt] = *c;
    m->u.par.hists[nh + nt++].arr = F->adot[src->arr];
  }
  m->u.par.nhists = nh + nt;
  return tan;
}
